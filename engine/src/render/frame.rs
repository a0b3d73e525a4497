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
    wide: bool,
    batched_walls: bool,
}

/// Row strides, in pixels, that the wall column loop is also built for
/// with the stride a constant: each of a step's four stores then takes
/// its row's offset in the instruction, and the steps are counted
/// rather than bounds-checked, a fifth of the loop's instructions (on the
/// N64, which runs one a cycle, a fifth of its time). The N64's frame
/// (328 16-bit pixels, `n64/src/hw/video.rs`, which checks it), the
/// pixel pairs of its low detail (164), the desktop's at 320 pixels wide
/// ([`Frame::spread_stride`] of 320 `u32`s, 336) and an unpadded 320. A
/// frame of any other stride is drawn by the same loop with the stride
/// in a register, to the same pixels.
pub const CONSTANT_STRIDES: [usize; 4] = [328, 164, 336, 320];

/// The cache line [`Frame::spread_stride`] plans for: 64 bytes, as on
/// today's x86 and ARM cores.
const CACHE_LINE: usize = 64;

impl<P: Pixel> Frame<'_, P> {
    /// A row stride for `width` pixels that suits a frame drawn column by
    /// column, as walls and sprites are: the smallest at least `width`
    /// whose rows are an odd number of 64-byte cache lines apart.
    ///
    /// Why: a set-associative cache picks a line's set from its address,
    /// and rows an even number of lines apart share a fraction of the
    /// sets. 320 `u32` pixels are 20 lines, so a column's 200 rows fall
    /// in 16 of a 32 KiB 8-way cache's 64 sets, room for 128 of its 200
    /// lines: the column evicts itself as it is drawn, and the next
    /// column, in the same lines, misses again. An odd number of lines
    /// spreads the rows over every set (in callgrind's cache model, a
    /// seventh of the write misses). DOOM's 320-byte rows are 5 lines,
    /// odd.
    ///
    /// `width` itself when the pixel size does not divide a line.
    pub fn spread_stride(width: usize) -> usize {
        let size = core::mem::size_of::<P>();
        if size == 0 || !CACHE_LINE.is_multiple_of(size) {
            return width;
        }
        let lines = (width.saturating_mul(size)).div_ceil(CACHE_LINE);
        let lines = if lines.is_multiple_of(2) {
            lines + 1
        } else {
            lines
        };
        (lines.saturating_mul(CACHE_LINE) / size).max(width)
    }
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
            wide: false,
            batched_walls: false,
        })
    }

    /// The frame with wall columns held back and drawn a few dozen at a
    /// time, away from the walk's seg loop: for a machine whose
    /// instruction cache cannot hold both the seg loop and the pixel loops
    /// (the N64's, 16 KiB and direct-mapped: a tenth of a frame). The same
    /// pixels; a few more instructions.
    pub fn with_batched_walls(mut self) -> Self {
        self.batched_walls = true;
        self
    }

    /// Whether [`Frame::with_batched_walls`] was asked for.
    pub fn has_batched_walls(&self) -> bool {
        self.batched_walls
    }

    /// The frame with pixels twice as wide as they are tall: the renderer
    /// keeps the field of view and the vertical scale it would have at
    /// twice the width, across `width` columns. DOOM's low detail: a
    /// frontend shows each pixel two pixels wide (the N64 writes 32-bit
    /// pixel pairs into its 16-bit framebuffer) for half the columns'
    /// work.
    pub fn with_wide_pixels(mut self) -> Self {
        self.wide = true;
        self
    }

    /// Whether [`Frame::with_wide_pixels`] was asked for.
    pub fn has_wide_pixels(&self) -> bool {
        self.wide
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

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn spread_stride_puts_rows_an_odd_number_of_lines_apart() {
        // 320 u32 pixels are 20 lines: 21 lines, 336 pixels.
        assert_eq!(Frame::<u32>::spread_stride(320), 336);
        // 320 16-bit pixels are 10 lines: 11 lines, 352 pixels.
        assert_eq!(Frame::<Rgba5551>::spread_stride(320), 352);
        // Already odd (5 lines), or not whole lines: rounded up to odd.
        assert_eq!(Frame::<u32>::spread_stride(80), 80);
        assert_eq!(Frame::<u32>::spread_stride(81), 112);
        assert_eq!(Frame::<u32>::spread_stride(1), 16);
        for width in 1..=crate::config::MAX_SCREEN_WIDTH {
            let s = Frame::<u32>::spread_stride(width);
            assert!(s >= width && s < width + 32, "{width}: {s}");
            assert_eq!((s * 4) % CACHE_LINE, 0, "{width}: {s}");
            assert_eq!((s * 4 / CACHE_LINE) % 2, 1, "{width}: {s}");
            // Two rows at that stride fit in a stride and a width.
            let mut pixels = std::vec![0u32; s + width];
            assert!(Frame::new(&mut pixels, width, 2, s).is_some());
        }
        // A pixel size that does not divide a line: the width itself.
        #[derive(Copy, Clone, Debug, Default, PartialEq)]
        struct Rgb([u8; 3]);
        impl Pixel for Rgb {
            fn from_rgb(r: u8, g: u8, b: u8) -> Self {
                Rgb([r, g, b])
            }
        }
        assert_eq!(Frame::<Rgb>::spread_stride(320), 320);
    }
}
