//! Colour: a 256-entry palette and the light table built from it.
//!
//! Everything the renderer decides is a palette index and a light level;
//! the conversion to the frame's pixel format is one table lookup, done
//! once per pixel at the end (as DOOM's COLORMAP did).

use super::frame::Pixel;

/// Number of light levels in a [`Shades`] table; level 0 is black, the
/// last is the palette colour itself.
pub const LIGHT_LEVELS: usize = 32;

/// 256 colours, 8 bits per channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette(pub [[u8; 3]; 256]);

impl Palette {
    /// The built-in palette: the common 256-colour terminal layout
    /// (16 basic colours, a 6x6x6 colour cube at 16..=231, 24 greys at
    /// 232..=255), so a map author can name colours without a WAD.
    pub fn builtin() -> Palette {
        const BASIC: [[u8; 3]; 16] = [
            [0, 0, 0],
            [128, 0, 0],
            [0, 128, 0],
            [128, 128, 0],
            [0, 0, 128],
            [128, 0, 128],
            [0, 128, 128],
            [192, 192, 192],
            [128, 128, 128],
            [255, 0, 0],
            [0, 255, 0],
            [255, 255, 0],
            [0, 0, 255],
            [255, 0, 255],
            [0, 255, 255],
            [255, 255, 255],
        ];
        const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];
        let mut p = [[0u8; 3]; 256];
        p[..16].copy_from_slice(&BASIC);
        for i in 0..216 {
            p[16 + i] = [CUBE[i / 36], CUBE[(i / 6) % 6], CUBE[i % 6]];
        }
        for i in 0..24 {
            let g = 8 + 10 * i as u8;
            p[232 + i] = [g, g, g];
        }
        Palette(p)
    }

    /// A palette from 768 bytes of RGB (`None` if fewer).
    pub fn from_rgb_bytes(bytes: &[u8]) -> Option<Palette> {
        let mut p = [[0u8; 3]; 256];
        for (i, c) in p.iter_mut().enumerate() {
            *c = [
                *bytes.get(i * 3)?,
                *bytes.get(i * 3 + 1)?,
                *bytes.get(i * 3 + 2)?,
            ];
        }
        Some(Palette(p))
    }

    /// The palette index nearest to an RGB colour (squared distance).
    pub fn nearest(&self, rgb: [u8; 3]) -> u8 {
        let mut best = (u32::MAX, 0u8);
        for (i, c) in self.0.iter().enumerate() {
            let d = |a: u8, b: u8| (a as i32 - b as i32).pow(2) as u32;
            let dist = d(c[0], rgb[0]) + d(c[1], rgb[1]) + d(c[2], rgb[2]);
            if dist < best.0 {
                best = (dist, i as u8);
            }
        }
        best.1
    }
}

/// Every palette colour at every light level, already in the frame's pixel
/// format. 32 x 256 pixels: 32 KiB for `u32`, 16 KiB for 16-bit pixels.
#[derive(Clone, Debug)]
pub struct Shades<P> {
    table: [[P; 256]; LIGHT_LEVELS],
}

impl<P: Pixel> Shades<P> {
    /// Builds the table from a palette: level `l` scales each channel by
    /// `(l + 1) / LIGHT_LEVELS`.
    pub fn new(palette: &Palette) -> Self {
        let mut table = [[P::default(); 256]; LIGHT_LEVELS];
        for (level, row) in table.iter_mut().enumerate() {
            for (c, px) in row.iter_mut().enumerate() {
                let scale = |v: u8| ((v as u32 * (level as u32 + 1)) / LIGHT_LEVELS as u32) as u8;
                let [r, g, b] = palette.0[c];
                *px = P::from_rgb(scale(r), scale(g), scale(b));
            }
        }
        Shades { table }
    }

    /// Builds the table from a palette and a light table of 32 maps of 256
    /// palette indices, brightest first (DOOM's COLORMAP): level `l` uses
    /// map `31 - l`. Falls back to [`Shades::new`] if `colormap` is short.
    pub fn from_colormap(palette: &Palette, colormap: &[u8]) -> Self {
        if colormap.len() < LIGHT_LEVELS * 256 {
            return Shades::new(palette);
        }
        let mut table = [[P::default(); 256]; LIGHT_LEVELS];
        for (level, row) in table.iter_mut().enumerate() {
            let map = &colormap[(LIGHT_LEVELS - 1 - level) * 256..][..256];
            for (px, &index) in row.iter_mut().zip(map) {
                let [r, g, b] = palette.0[index as usize];
                *px = P::from_rgb(r, g, b);
            }
        }
        Shades { table }
    }

    /// The table a compiled map asks for: its own palette and light table
    /// when it has them, else the built-in palette.
    pub fn for_map(map: &crate::format::MapView<'_>) -> Self {
        let palette = map
            .palette()
            .and_then(Palette::from_rgb_bytes)
            .unwrap_or_else(Palette::builtin);
        match map.colormap() {
            Some(c) => Shades::from_colormap(&palette, c),
            None => Shades::new(&palette),
        }
    }

    /// Colour `color` at light `level` (levels past the last clamp to it).
    #[inline]
    pub fn get(&self, level: usize, color: u8) -> P {
        let row = &self.table[level.min(LIGHT_LEVELS - 1)];
        row[color as usize]
    }

    /// Every colour at light `level` (levels past the last clamp to it).
    #[inline]
    pub(crate) fn row(&self, level: usize) -> &[P; 256] {
        &self.table[level.min(LIGHT_LEVELS - 1)]
    }
}
