//! The one framebuffer type every renderer function accepts, and the pixel
//! formats it can hold.

/// A pixel format the renderer can write. Frontends pick one: `u32`
/// (0x00RRGGBB, what desktop windows take) or [`Rgba5551`] (the N64's
/// 16-bit video format).
pub trait Pixel: Copy + Default + PartialEq + core::fmt::Debug {
    /// The pixel for an 8-bit-per-channel colour.
    fn from_rgb(r: u8, g: u8, b: u8) -> Self;
}

impl Pixel for u32 {
    #[inline]
    fn from_rgb(r: u8, g: u8, b: u8) -> Self {
        (r as u32) << 16 | (g as u32) << 8 | b as u32
    }
}

/// 16-bit colour: 5 bits each of red, green and blue, then 1 bit of
/// alpha (always set), most significant first.
/// `repr(transparent)`: framebuffers of these are read by video hardware
/// as plain 16-bit words.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct Rgba5551(pub u16);

impl Pixel for Rgba5551 {
    #[inline]
    fn from_rgb(r: u8, g: u8, b: u8) -> Self {
        Rgba5551(((r as u16 >> 3) << 11) | ((g as u16 >> 3) << 6) | ((b as u16 >> 3) << 1) | 1)
    }
}

/// A caller-owned framebuffer: `height` rows of `width` pixels, rows
/// `stride` pixels apart.
#[derive(Debug)]
pub struct Frame<'a, P> {
    pixels: &'a mut [P],
    width: usize,
    height: usize,
    stride: usize,
}

impl<'a, P: Pixel> Frame<'a, P> {
    /// Wraps `pixels`. `None` if the slice is too short for the given
    /// shape, the shape is empty, or it exceeds the renderer's limits
    /// ([`crate::config::MAX_SCREEN_WIDTH`] x
    /// [`crate::config::MAX_SCREEN_HEIGHT`]).
    pub fn new(pixels: &'a mut [P], width: usize, height: usize, stride: usize) -> Option<Self> {
        if width == 0
            || height == 0
            || width > crate::config::MAX_SCREEN_WIDTH
            || height > crate::config::MAX_SCREEN_HEIGHT
            || stride < width
        {
            return None;
        }
        let needed = stride.checked_mul(height - 1)?.checked_add(width)?;
        if pixels.len() < needed {
            return None;
        }
        Some(Frame {
            pixels,
            width,
            height,
            stride,
        })
    }

    /// Width in pixels.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Distance between rows, in pixels.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The pixel at (`x`, `y`), if inside the frame.
    pub fn get(&self, x: usize, y: usize) -> Option<P> {
        if x >= self.width || y >= self.height {
            return None;
        }
        self.pixels.get(y * self.stride + x).copied()
    }

    /// All pixels, rows `stride` apart.
    pub fn pixels_mut(&mut self) -> &mut [P] {
        self.pixels
    }

    /// Fills the whole frame with one pixel.
    pub fn clear(&mut self, p: P) {
        for y in 0..self.height {
            if let Some(row) = self
                .pixels
                .get_mut(y * self.stride..y * self.stride + self.width)
            {
                row.fill(p);
            }
        }
    }
}
