//! Pixels, and nothing else: fills of one vertical run in one column.
//!
//! Each fill takes a small `Copy` job and the frame's pixel slice. The run's
//! bounds are proven once, by taking the sub-slice from its first to its
//! last pixel; the loop then steps down it by the stride with no further
//! checks on the frame, no division and no trait objects. Per pixel a
//! texture fill does adds, shifts, at most three multiplies (floors) and
//! table lookups; texture rows step by a fixed-point increment and wrap
//! with one compare and subtract, whatever the texture's height.

use super::frame::Pixel;
use super::light;
use super::shade::Shades;
use crate::format::{texture_flag, TextureView};

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

/// An untextured floor or ceiling run: one palette colour, light per row
/// from the reciprocal table.
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
    /// The sector's light number.
    pub light: usize,
    /// `|plane height - eye height|`, 16.16 bits.
    pub height: u64,
}

/// A textured floor or ceiling run. Row `y` lies at depth
/// `t = height * recip[y]` and shows the map point `(px, py) + t * D`,
/// with `D` the column's ray: `(px + du * recip[y], py + dv * recip[y])`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TexPlaneRun {
    /// Column.
    pub x: usize,
    /// First row.
    pub y0: usize,
    /// One past the last row.
    pub y1: usize,
    /// The sector's light number.
    pub light: usize,
    /// `|plane height - eye height|`, 16.16 bits (below 2^33).
    pub height: u64,
    /// Camera position, 16.16 bits.
    pub px: i64,
    /// Camera position, 16.16 bits.
    pub py: i64,
    /// `D.x * height`, 16.16 bits (below 2^34 in magnitude).
    pub du: i64,
    /// `D.y * height`, 16.16 bits (below 2^34 in magnitude).
    pub dv: i64,
}

/// A texture column tiled down rows `[y0, y1)`: the first row shows
/// texel row `frac >> 16`, each next row `step` further, wrapping at
/// `wrap` (the texture's height in 16.16). `frac < wrap`, `step < wrap`,
/// `wrap <= 2^26`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ColumnRun {
    /// Column.
    pub x: usize,
    /// First row.
    pub y0: usize,
    /// One past the last row.
    pub y1: usize,
    /// Texel row of the first pixel, 16.16.
    pub frac: u32,
    /// Texel rows per pixel, 16.16.
    pub step: u32,
    /// The texture's height, 16.16.
    pub wrap: u32,
}

impl ColumnRun {
    /// The run for rows `[y0, y1)` whose first row shows texel row `v0`
    /// (16.16, any value) of a texture `height` rows tall, stepping `step`
    /// (positive) per row.
    pub(crate) fn tiled(x: usize, y0: usize, y1: usize, v0: i64, step: i64, height: u16) -> Self {
        let wrap = (height.max(1) as i64) << 16;
        ColumnRun {
            x,
            y0,
            y1,
            frac: v0.rem_euclid(wrap) as u32,
            step: step.rem_euclid(wrap) as u32,
            wrap: wrap as u32,
        }
    }
}

/// A texture column drawn once (no tiling) down rows `[y0, y1)`, its
/// transparent texels skipped: the first row shows texel row
/// `frac >> 16`, each next row `step` further; every row of the run lies
/// inside the texture.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct MaskedRun {
    /// Column.
    pub x: usize,
    /// First row.
    pub y0: usize,
    /// One past the last row.
    pub y1: usize,
    /// Texel row of the first pixel, 16.16.
    pub frac: u32,
    /// Texel rows per pixel, 16.16.
    pub step: u32,
}

/// `ceil(a / b)` for `a >= 0`, `b > 0`.
#[inline]
fn div_ceil(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

impl MaskedRun {
    /// The rows of `[y0, y1)` where a texture `height` rows tall shows,
    /// if its row 0 is seen at `v0` (16.16: the texel row of screen row
    /// `y0`) stepping `step` (positive) per row. `None` if none.
    pub(crate) fn once(
        x: usize,
        y0: usize,
        y1: usize,
        v0: i64,
        step: i64,
        height: u16,
    ) -> Option<Self> {
        let wrap = (height as i64) << 16;
        let step = step.max(1);
        // Rows above the texture's top.
        let skip = if v0 < 0 { div_ceil(-v0, step) } else { 0 };
        let first = (y0 as i64).saturating_add(skip);
        let v = v0.saturating_add(skip.saturating_mul(step));
        if first >= y1 as i64 || v >= wrap || step >= 1 << 31 {
            return None;
        }
        // Rows from `first` while still inside the texture.
        let count = div_ceil(wrap - v, step);
        let last = (y1 as i64).min(first + count);
        Some(MaskedRun {
            x,
            y0: first as usize,
            y1: last as usize,
            frac: v as u32,
            step: step as u32,
        })
    }
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

/// Writes an untextured floor or ceiling run: row `y` lies at depth
/// `run.height * recip[y]`, lit by DOOM's `zlight` for that distance.
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
    let light = light::PlaneLight::new(run.light, run.height);
    for (px, &r) in col.iter_mut().step_by(stride.max(1)).zip(rows) {
        *px = shades.row(light.level(r) & 31)[run.color as usize];
    }
}

/// Writes a textured floor or ceiling run. DOOM's flat mapping: texel
/// column `floor(x) mod 64`, texel row `floor(-y) mod 64` (a flat's
/// pixel `(c, r)` at `c * 64 + r`); other sizes wrap the same way.
pub(crate) fn fill_plane_texture<P: Pixel>(
    pixels: &mut [P],
    stride: usize,
    run: TexPlaneRun,
    texture: &TextureView<'_>,
    recip: &[u32],
    shades: &Shades<P>,
) {
    let Some(col) = column_slice(pixels, stride, run.x, run.y0, run.y1) else {
        return;
    };
    let Some(rows) = recip.get(run.y0..run.y1) else {
        return;
    };
    let light = light::PlaneLight::new(run.light, run.height);
    let (du, dv) = (
        run.du.clamp(-(1 << 34), 1 << 34),
        run.dv.clamp(-(1 << 34), 1 << 34),
    );
    let pixels = texture.pixels;
    if let (64, 64, Ok(flat)) = (
        texture.width,
        texture.height,
        <&[u8; 4096]>::try_from(pixels),
    ) {
        // 32-bit work (the N64's ABI has no 64-bit registers): map
        // coordinates with 26 fraction bits, wrapping, since only the
        // texel bits 26..32 matter and two's complement keeps them right
        // for negative values. v is -y: the negations are hoisted.
        let u0 = (run.px as u32).wrapping_shl(10);
        let v0 = (run.py.wrapping_neg() as u32).wrapping_shl(10);
        let (du, dv) = ((du >> 6) as u32, (dv.wrapping_neg() >> 6) as u32);
        let mut at = 0;
        for &r in rows {
            let u = u0.wrapping_add(du.wrapping_mul(r));
            let v = v0.wrapping_add(dv.wrapping_mul(r));
            let i = ((u >> 20) & (63 << 6)) | ((v >> 26) & 63);
            let texel = flat[i as usize & 4095];
            if let Some(px) = col.get_mut(at) {
                *px = shades.row(light.level(r) & 31)[texel as usize];
            }
            at += stride;
        }
        return;
    }
    // Any other size: a division per pixel, but only for odd data.
    let (w, h) = (texture.width.max(1) as i64, texture.height.max(1) as i64);
    for (px, &r) in col.iter_mut().step_by(stride.max(1)).zip(rows) {
        let level = light.level(r);
        let r = r as i64;
        let u = (run.px + ((du * r) >> 16)) >> 16;
        let v = (-(run.py + ((dv * r) >> 16))) >> 16;
        let i = u.rem_euclid(w) * h + v.rem_euclid(h);
        *px = shades.row(level)[pixels.get(i as usize).copied().unwrap_or(0) as usize];
    }
}

/// Writes a tiled texture column (walls, the sky) at one light.
pub(crate) fn fill_column<P: Copy>(
    pixels: &mut [P],
    stride: usize,
    run: ColumnRun,
    texels: &[u8],
    shade: &[P; 256],
) {
    let Some(col) = column_slice(pixels, stride, run.x, run.y0, run.y1) else {
        return;
    };
    let (wrap, step) = (run.wrap, run.step.min(run.wrap.saturating_sub(1)));
    let mut frac = run.frac.min(wrap.saturating_sub(1));
    for px in col.iter_mut().step_by(stride.max(1)) {
        let t = texels.get((frac >> 16) as usize).copied().unwrap_or(0);
        *px = shade[t as usize];
        frac += step;
        if frac >= wrap {
            frac -= wrap;
        }
    }
}

/// Writes a texture column once (sprites, see-through wall textures),
/// skipping transparent texels when the texture is masked.
pub(crate) fn fill_masked<P: Copy>(
    pixels: &mut [P],
    stride: usize,
    run: MaskedRun,
    texture: &TextureView<'_>,
    column: i32,
    shade: &[P; 256],
) {
    let Some(col) = column_slice(pixels, stride, run.x, run.y0, run.y1) else {
        return;
    };
    let texels = texture.column(column);
    // A value no texel has when the texture is not masked.
    let clear: u16 = if texture.flags & texture_flag::MASKED != 0 {
        texture.transparent as u16
    } else {
        u16::MAX
    };
    let mut frac = run.frac;
    for px in col.iter_mut().step_by(stride.max(1)) {
        if let Some(&t) = texels.get((frac >> 16) as usize) {
            if t as u16 != clear {
                *px = shade[t as usize];
            }
        }
        frac = frac.saturating_add(run.step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::shade::{Palette, LIGHT_LEVELS};

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
        // Floor 128 below the eye at sector light 128 (light number 8,
        // DOOM's map 28 when far): depths 512, 170.7, 102.4 for rows 3,
        // 4, 5; zlight takes 160 / (depth / 16 + 1) / 2 maps off.
        let floor = PlaneRun {
            x: 1,
            y0: 3,
            y1: 6,
            color: 1,
            light: 8,
            height: 128 << 16,
        };
        fill_plane(&mut px, w, floor, &recip, &shades);
        // A full-bright ceiling 16 above: bright at any distance.
        let ceiling = PlaneRun {
            x: 2,
            y0: 0,
            y1: 3,
            color: 1,
            light: 15,
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
                "..v.", // ceiling, full bright
                "..v.", "..v.", //
                ".5..", // floor: 512 units, map 26
                ".a..", // 170.7 units, map 21
                ".e..", // 102.4 units, map 17
            ]
        );
    }

    #[test]
    fn tiled_columns_wrap_at_any_height() {
        // A 3-row texture, one texel per pixel, starting at texel -1
        // (row 2).
        let run = ColumnRun::tiled(0, 0, 6, -(1 << 16), 1 << 16, 3);
        assert_eq!((run.frac, run.step, run.wrap), (2 << 16, 1 << 16, 3 << 16));
        let mut px = [0u8; 6];
        fill_column(&mut px, 1, run, b"abc", &core::array::from_fn(|i| i as u8));
        assert_eq!(&px, b"cabcab");
        // Steps longer than the texture wrap too.
        let run = ColumnRun::tiled(0, 0, 4, 0, 4 << 16, 3);
        fill_column(&mut px, 1, run, b"abc", &core::array::from_fn(|i| i as u8));
        assert_eq!(&px[..4], b"abca");
    }

    #[test]
    fn masked_runs_cover_only_the_texture() {
        // Texture rows 0..4 seen from v0 = -2.5 at 1 row per pixel: rows
        // 3..7 of a 0..10 window (texels 0.5, 1.5, 2.5, 3.5).
        let run = MaskedRun::once(0, 0, 10, -(5 << 15), 1 << 16, 4).unwrap();
        assert_eq!((run.y0, run.y1, run.frac), (3, 7, 1 << 15));
        // Starting inside, clipped by the window.
        let run = MaskedRun::once(0, 2, 4, 1 << 16, 1 << 16, 4).unwrap();
        assert_eq!((run.y0, run.y1, run.frac), (2, 4, 1 << 16));
        // Entirely below or above.
        assert_eq!(MaskedRun::once(0, 0, 10, 4 << 16, 1 << 16, 4), None);
        assert_eq!(MaskedRun::once(0, 0, 10, -(20 << 16), 1 << 16, 4), None);
        // Transparent texels are skipped.
        let tex = TextureView {
            width: 1,
            height: 4,
            flags: texture_flag::MASKED,
            transparent: b'.',
            left: 0,
            top: 0,
            pixels: b"a.cd",
        };
        let mut px = [b'-'; 10];
        let run = MaskedRun::once(0, 0, 10, -(5 << 15), 1 << 16, 4).unwrap();
        fill_masked(&mut px, 1, run, &tex, 0, &core::array::from_fn(|i| i as u8));
        assert_eq!(&px, b"---a-cd---");
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
