//! Pixels, and nothing else: fills of one vertical run in one column.
//!
//! Each fill takes a small `Copy` job and the frame's pixel slice. The run's
//! bounds are proven once, by taking the sub-slice from its first to its
//! last pixel; the loop then steps down it by the stride with no further
//! checks, no division and no trait objects.

use super::frame::Pixel;
use super::shade::{Shades, LIGHT_LEVELS};

/// Light falls by one level per this many map units of depth, as a shift
/// of a 16.16 depth (64 units: two levels per 128).
const FADE_SHIFT: u32 = 16 + 6;

/// The light level for a surface of base level `light` (sector light / 8,
/// plus any contrast) seen at `depth` (16.16 map units). Distance takes
/// away one level per 64 units, but never more than three quarters of the
/// base, so far rooms stay readable.
#[inline]
pub(crate) fn fade(light: i32, depth: u64) -> usize {
    let fall = (depth >> FADE_SHIFT).min(LIGHT_LEVELS as u64) as i32;
    let lit = (light - fall).max(light >> 2);
    lit.clamp(0, LIGHT_LEVELS as i32 - 1) as usize
}

/// Fills `table[r]` with `focal / |r + 0.5 - height / 2|` in 16.16 bits
/// (focal = `width / 2`): multiplied by a plane's height above or below
/// the eye it gives the depth of that plane seen in row `r`. The row
/// exactly on the horizon (odd heights) gets the value for a quarter row.
pub(crate) fn build_recip(table: &mut [u32], width: usize, height: usize) {
    let w = width.min(crate::config::MAX_SCREEN_WIDTH) as u32;
    let h = height as i64;
    for (r, e) in table.iter_mut().enumerate().take(height) {
        // 2 * |r + 0.5 - h / 2|
        let twice = (2 * r as i64 + 1 - h).unsigned_abs() as u32;
        *e = (w << 16).checked_div(twice).unwrap_or(w << 17);
    }
}

/// One colour down rows `[y0, y1)` of column `x`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct FlatRun<P> {
    /// Column.
    pub x: usize,
    /// First row.
    pub y0: usize,
    /// One past the last row.
    pub y1: usize,
    /// The pixel to write.
    pub pixel: P,
}

/// A floor or ceiling run: one palette colour, light per row from the
/// reciprocal table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlaneRun {
    /// Column.
    pub x: usize,
    /// First row.
    pub y0: usize,
    /// One past the last row.
    pub y1: usize,
    /// Palette index.
    pub color: u8,
    /// Base light level, before fading.
    pub light: i32,
    /// `|plane height - eye height|`, 16.16 bits.
    pub height: u64,
}

/// The pixels of rows `[y0, y1)` of column `x`: the slice from the first
/// to the last, to be stepped through by `stride`. `None` if empty or out
/// of range (never the case for runs from the walk).
#[inline]
fn column_slice<P>(
    pixels: &mut [P],
    stride: usize,
    x: usize,
    y0: usize,
    y1: usize,
) -> Option<&mut [P]> {
    if y1 <= y0 {
        return None;
    }
    let first = y0.checked_mul(stride)?.checked_add(x)?;
    let last = (y1 - 1).checked_mul(stride)?.checked_add(x)?;
    pixels.get_mut(first..=last)
}

/// Writes `run.pixel` down the run.
pub(crate) fn fill_flat<P: Copy>(pixels: &mut [P], stride: usize, run: FlatRun<P>) {
    let Some(col) = column_slice(pixels, stride, run.x, run.y0, run.y1) else {
        return;
    };
    for px in col.iter_mut().step_by(stride.max(1)) {
        *px = run.pixel;
    }
}

/// Writes a floor or ceiling run: row `y` gets depth
/// `run.height * recip[y]` and the light [`fade`] gives for it.
pub(crate) fn fill_plane<P: Pixel>(
    pixels: &mut [P],
    stride: usize,
    run: PlaneRun,
    recip: &[u32],
    shades: &Shades<P>,
) {
    let Some(col) = column_slice(pixels, stride, run.x, run.y0, run.y1) else {
        return;
    };
    let Some(rows) = recip.get(run.y0..run.y1) else {
        return;
    };
    // height < 2^32 and recip < 2^28: the product fits in 64 bits.
    let height = run.height.min(u32::MAX as u64);
    for (px, &r) in col.iter_mut().step_by(stride.max(1)).zip(rows) {
        let depth = (height * r as u64) >> 16;
        *px = shades.get(fade(run.light, depth), run.color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::shade::Palette;

    /// Rows of a byte buffer as strings (padding included).
    fn text(buf: &[u8], stride: usize) -> [&str; 6] {
        let mut out = [""; 6];
        for (row, o) in buf.chunks(stride).zip(out.iter_mut()) {
            *o = core::str::from_utf8(row).unwrap();
        }
        out
    }

    #[test]
    fn flat_runs_fill_exactly_their_rows() {
        // 5 wide, 6 tall, stride 7: the last two bytes of each row are
        // padding the fills must not touch.
        let (w, h, stride) = (5usize, 6usize, 7usize);
        let mut buf = [b'|'; 7 * 6];
        for y in 0..h {
            for x in 0..w {
                buf[y * stride + x] = b'.';
            }
        }
        let runs = [
            (0, 0, 6, b'a'),
            (1, 2, 4, b'b'),
            (2, 5, 6, b'c'),
            (3, 3, 3, b'X'), // empty
            (4, 0, 1, b'd'),
            (4, 1, 7, b'Y'), // past the bottom: refused whole
        ];
        for (x, y0, y1, p) in runs {
            fill_flat(
                &mut buf,
                stride,
                FlatRun {
                    x,
                    y0,
                    y1,
                    pixel: p,
                },
            );
        }
        assert_eq!(
            text(&buf, stride),
            [
                "a...d||", //
                "a....||", "ab...||", "ab...||", "a....||", "a.c..||",
            ]
        );
    }

    #[test]
    fn plane_runs_fade_with_row_distance() {
        let mut palette = Palette::builtin();
        palette.0[1] = [255, 255, 255];
        let shades: Shades<u32> = Shades::new(&palette);
        let level_char = |p: u32| {
            let l = (0..LIGHT_LEVELS)
                .find(|&l| shades.get(l, 1) == p)
                .unwrap_or(99);
            b"0123456789abcdefghijklmnopqrstuv"
                .get(l)
                .copied()
                .unwrap_or(b'?')
        };
        // 4 wide, 6 tall: horizon between rows 2 and 3.
        let (w, h) = (4usize, 6usize);
        let mut recip = [0u32; 6];
        build_recip(&mut recip, w, h);
        // focal 2: rows at 0.5, 1.5, 2.5 from the horizon.
        assert_eq!(recip, [52428, 87381, 262144, 262144, 87381, 52428]);
        let mut px = [0u32; 24];
        // Floor 128 below the eye at full light: depths 512, 170.7, 102.4
        // for rows 3, 4, 5 (one level per 64 units, at most 3/4 off).
        let floor = PlaneRun {
            x: 1,
            y0: 3,
            y1: 6,
            color: 1,
            light: 31,
            height: 128 << 16,
        };
        fill_plane(&mut px, w, floor, &recip, &shades);
        // A dim ceiling 16 above: depths 12.8, 21.3, 64 for rows 0, 1, 2.
        let ceiling = PlaneRun {
            x: 2,
            y0: 0,
            y1: 3,
            color: 1,
            light: 8,
            height: 16 << 16,
        };
        fill_plane(&mut px, w, ceiling, &recip, &shades);
        let rows: [[u8; 4]; 6] = core::array::from_fn(|y| {
            core::array::from_fn(|x| match px[y * w + x] {
                0 => b'.',
                p => level_char(p),
            })
        });
        let text = rows.each_ref().map(|r| core::str::from_utf8(r).unwrap());
        assert_eq!(
            text,
            [
                "..8.", // ceiling, light 8, near
                "..8.", "..7.", // one row above the horizon: 64 units away
                ".n..", // floor: 512 units, 8 levels down
                ".t..", ".u..",
            ]
        );
    }

    #[test]
    fn fade_clamps() {
        assert_eq!(fade(31, 0), 31);
        assert_eq!(fade(40, 0), 31);
        assert_eq!(fade(-3, 0), 0);
        assert_eq!(fade(20, 64 << 16), 19);
        assert_eq!(fade(20, u64::MAX), 5);
    }

    #[test]
    fn odd_heights_have_a_horizon_row() {
        let mut recip = [0u32; 5];
        build_recip(&mut recip, 10, 5);
        assert_eq!(recip[2], 10 << 17);
        assert_eq!(recip[1], recip[3]);
        assert_eq!(recip[0], (10 << 16) / 4);
    }
}
