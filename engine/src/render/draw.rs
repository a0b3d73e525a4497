//! Pixels, and nothing else: fills of one vertical run in one column, and
//! of one horizontal span of a 64x64 flat.
//!
//! Each fill takes a small `Copy` job and the frame's pixel slice. The run's
//! bounds are proven once, by taking the sub-slice from its first to its
//! last pixel; the loop then steps down it by the stride with no further
//! checks on the frame, no division and no trait objects. Per pixel a
//! texture fill does adds, shifts and table lookups; texture rows step by
//! a fixed-point increment and wrap with a mask (power-of-two heights, the
//! usual case) or, whatever the texture's height, in stretches between
//! wraps, each found with one division.

use super::frame::CONSTANT_STRIDES;
use crate::format::{texture_flag, TextureView};

/// Row `r`'s `focal / |r + 0.5 - height / 2|` in 16.16 bits (focal =
/// `focal_width / 2`, the vertical focal length), for rows `0..height`:
/// multiplied by a plane's height above or below the eye it gives the
/// depth of that plane seen in row `r`. The row exactly on the horizon
/// (odd heights) gets the value for a quarter row.
pub(crate) fn recip_rows(focal_width: usize, height: usize) -> impl Iterator<Item = u32> {
    let w = focal_width.min(2 * crate::config::MAX_SCREEN_WIDTH) as u32;
    let h = height as i64;
    (0..height).map(move |r| {
        // 2 * |r + 0.5 - h / 2|
        let twice = (2 * r as i64 + 1 - h).unsigned_abs() as u32;
        (w << 16).checked_div(twice).unwrap_or(w << 17)
    })
}

/// Fills `table` with [`recip_rows`].
#[cfg(test)]
pub(crate) fn build_recip(table: &mut [u32], width: usize, height: usize) {
    for (e, r) in table.iter_mut().zip(recip_rows(width, height)) {
        *e = r;
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
        // Powers of two (most textures) wrap with a mask.
        let (frac, step) = if height.is_power_of_two() {
            (v0 & (wrap - 1), step & (wrap - 1))
        } else {
            (v0.rem_euclid(wrap), step.rem_euclid(wrap))
        };
        ColumnRun {
            x,
            y0,
            y1,
            frac: frac as u32,
            step: step as u32,
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

/// Column `x` of `texture`, wrapped into its width: as
/// [`TextureView::column`], with a mask instead of a division for the
/// usual power-of-two widths.
#[inline]
pub(crate) fn texture_column<'t>(texture: &TextureView<'t>, x: i32) -> &'t [u8] {
    let start = column_start(texture, x);
    let h = texture.height as usize;
    texture.pixels.get(start..start + h).unwrap_or(&[])
}

/// `N` texels of `texture` from the first of its column `x` (wrapped as
/// [`texture_column`] wraps it): the column and what follows it; `None`
/// if the texture has fewer from there.
#[inline]
fn texture_window<'t, const N: usize>(texture: &TextureView<'t>, x: i32) -> Option<&'t [u8; N]> {
    let start = column_start(texture, x);
    texture
        .pixels
        .get(start..start.checked_add(N)?)?
        .try_into()
        .ok()
}

/// Where column `x` of `texture`, wrapped into its width, starts in its
/// pixels.
#[inline]
fn column_start(texture: &TextureView<'_>, x: i32) -> usize {
    let w = texture.width.max(1);
    let x = if w.is_power_of_two() {
        (x & (w as i32 - 1)) as usize
    } else {
        x.rem_euclid(w as i32) as usize
    };
    x * texture.height as usize
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

    /// The screen rows `[first, end)` (clamped to `0..=i16::MAX`) where a
    /// texture `height` rows tall drawn once down a column shows, when
    /// screen row `y` sees its texel row `v0 + y * step` (16.16; `step`
    /// as [`MaskedRun::once`] takes it): whatever a column's window, what
    /// `once` keeps of it is its overlap with these rows. A sprite's are
    /// the same in all its columns (one depth, one step), so they are
    /// worked out once for it ([`MaskedRun::shown`]), not with two
    /// divisions in each of its columns.
    pub(crate) fn shown_rows(v0: i64, step: i64, height: u16) -> (i16, i16) {
        let wrap = (height as i64) << 16;
        let step = step.max(1);
        if step >= 1 << 31 {
            return (0, 0);
        }
        // The first row at or below row 0 inside the texture, and the
        // first past it.
        let row = |v: i64| if v0 >= v { 0 } else { div_ceil(v - v0, step) };
        let fit = |y: i64| y.clamp(0, i16::MAX as i64) as i16;
        (fit(row(0)), fit(row(wrap)))
    }

    /// [`MaskedRun::once`] for rows `[y0, y1)` of column `x`, from the
    /// rows [`MaskedRun::shown_rows`] gave for the same `v0` (the texel
    /// row of screen row 0, not of `y0`) and `step`.
    pub(crate) fn shown(
        x: usize,
        (y0, y1): (usize, usize),
        (first, end): (i16, i16),
        v0: i64,
        step: i64,
    ) -> Option<Self> {
        let (a, b) = (y0.max(first as usize), y1.min(end as usize));
        if a >= b {
            return None;
        }
        let step = step.max(1);
        Some(MaskedRun {
            x,
            y0: a,
            y1: b,
            frac: v0.wrapping_add((a as i64).wrapping_mul(step)) as u32,
            step: step as u32,
        })
    }
}

/// A wall texture's columns as the wall column loop reads them, prepared
/// once a seg rather than in every column: for the usual textures (128
/// or 64 rows, or 32, 16 and 8, and a power-of-two width) a column is
/// one masked index into rows of a fixed length, which [`pow2_column`]
/// takes as they are; any other texture is looked up column by column
/// ([`fill_wall`]).
#[derive(Copy, Clone, Debug)]
pub(crate) enum WallTexels<'t> {
    /// 128 rows: column `c` is `columns[c & mask]`.
    Tall { columns: &'t [[u8; 128]], mask: u32 },
    /// 64 rows: column `c` is `columns[c & mask]`.
    Short { columns: &'t [[u8; 64]], mask: u32 },
    /// 32 rows (trims, step risers, which wrap down their walls), the
    /// same way.
    Rows32 { columns: &'t [[u8; 32]], mask: u32 },
    /// 16 rows, the same way.
    Rows16 { columns: &'t [[u8; 16]], mask: u32 },
    /// 8 rows, the same way.
    Rows8 { columns: &'t [[u8; 8]], mask: u32 },
    /// Any other texture.
    Any(TextureView<'t>),
}

impl<'t> WallTexels<'t> {
    /// `texture`'s columns, prepared.
    pub(crate) fn of(texture: TextureView<'t>) -> WallTexels<'t> {
        let width = texture.width as usize;
        if !width.is_power_of_two() {
            return WallTexels::Any(texture);
        }
        let mask = width as u32 - 1;
        // The first `width` columns of `N` rows each (`None` if the
        // pixels are fewer).
        fn columns<const N: usize>(pixels: &[u8], width: usize) -> Option<&[[u8; N]]> {
            pixels.as_chunks::<N>().0.get(..width)
        }
        let pixels = texture.pixels;
        let prepared = match texture.height {
            128 => columns(pixels, width).map(|columns| WallTexels::Tall { columns, mask }),
            64 => columns(pixels, width).map(|columns| WallTexels::Short { columns, mask }),
            32 => columns(pixels, width).map(|columns| WallTexels::Rows32 { columns, mask }),
            16 => columns(pixels, width).map(|columns| WallTexels::Rows16 { columns, mask }),
            8 => columns(pixels, width).map(|columns| WallTexels::Rows8 { columns, mask }),
            _ => None,
        };
        prepared.unwrap_or(WallTexels::Any(texture))
    }
}

/// Texture column `u` (texels, not yet wrapped) of `texels`, tiled down
/// rows `[y0, y1)` of column `x`: the first row shows texel row `v0`
/// (16.16, any value), each next row `step` (16.16, positive) further.
/// The same pixels as [`ColumnRun::tiled`], [`texture_column`] and
/// [`fill_column`] give.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn fill_wall<P: Copy>(
    pixels: &mut [P],
    stride: usize,
    (x, y0, y1): (usize, usize, usize),
    (u, v0, step): (i32, i64, i64),
    texels: &WallTexels<'_>,
    shade: &[P; 256],
) {
    // One arm a prepared height, each with its own `N`.
    macro_rules! prepared {
        ($columns:expr, $mask:expr) => {
            prepared_column(
                pixels,
                stride,
                (x, y0, y1),
                (u, v0, step),
                ($columns, $mask),
                shade,
            )
        };
    }
    match *texels {
        WallTexels::Tall { columns, mask } => prepared!(columns, mask),
        WallTexels::Short { columns, mask } => prepared!(columns, mask),
        WallTexels::Rows32 { columns, mask } => prepared!(columns, mask),
        WallTexels::Rows16 { columns, mask } => prepared!(columns, mask),
        WallTexels::Rows8 { columns, mask } => prepared!(columns, mask),
        WallTexels::Any(texture) => {
            let run = ColumnRun::tiled(x, y0, y1, v0, step, texture.height);
            // A run that does not wrap (a texture as tall as its wall,
            // the usual case for heights like 72) reads only its own
            // column's rows: `pow2_column` draws it from a window of 128
            // texels from the column's first (rows past its own are
            // never read), when the texture has that many from there.
            let rows = y1.saturating_sub(y0) as u64;
            let last = run.frac as u64 + rows.saturating_sub(1) * run.step as u64;
            if texture.height <= 128 && last < (texture.height as u64) << 16 {
                if let (Some(t), Some(col)) = (
                    texture_window::<128>(&texture, u),
                    column_slice(pixels, stride, x, y0, y1),
                ) {
                    pow2_column(col, (stride, y1 - y0), run.frac, run.step, t, shade);
                    return;
                }
            }
            fill_column(pixels, stride, run, texture_column(&texture, u), shade);
        }
    }
}

/// One column of a prepared texture (see [`WallTexels`]).
#[derive(Copy, Clone, Debug)]
pub(crate) enum TexelColumn<'t> {
    /// 128 rows.
    Rows128(&'t [u8; 128]),
    /// 64 rows.
    Rows64(&'t [u8; 64]),
    /// 32 rows.
    Rows32(&'t [u8; 32]),
    /// 16 rows.
    Rows16(&'t [u8; 16]),
    /// 8 rows.
    Rows8(&'t [u8; 8]),
}

/// What a wall column shows.
#[derive(Copy, Clone, Debug)]
enum Paint<'t, P> {
    /// Texel rows from `frac` (16.16, wrapping at the column's height),
    /// `step` further each row, through `shade`.
    Texels {
        column: TexelColumn<'t>,
        frac: u32,
        step: u32,
        shade: &'t [P; 256],
    },
    /// One pixel down the run.
    Solid(P),
}

/// Rows `[y0, y1)` of column `x` of a wall, to be drawn a moment later
/// with its neighbours (see [`WallBatch`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct WallColumn<'t, P> {
    x: usize,
    y0: usize,
    y1: usize,
    paint: Paint<'t, P>,
}

impl<'t, P: Copy> WallColumn<'t, P> {
    /// A run of one pixel.
    pub(crate) fn solid((x, y0, y1): (usize, usize, usize), pixel: P) -> Self {
        WallColumn {
            x,
            y0,
            y1,
            paint: Paint::Solid(pixel),
        }
    }

    /// [`fill_wall`]'s column as a batch takes it: `None` for a texture
    /// that is not prepared ([`WallTexels::Any`]), which `fill_wall` draws
    /// on the spot.
    pub(crate) fn textured(
        (x, y0, y1): (usize, usize, usize),
        (u, v0, step): (i32, i64, i64),
        texels: &WallTexels<'t>,
        shade: &'t [P; 256],
    ) -> Option<Self> {
        fn pick<const N: usize>(
            columns: &[[u8; N]],
            mask: u32,
            u: i32,
            (v0, step): (i64, i64),
        ) -> Option<(&[u8; N], u32, u32)> {
            let wrap = ((N as i64) << 16) - 1;
            let t = columns.get((u as u32 & mask) as usize)?;
            Some((t, (v0 & wrap) as u32, (step & wrap) as u32))
        }
        let rows = (v0, step);
        let (column, frac, step) = match *texels {
            WallTexels::Tall { columns, mask } => {
                pick(columns, mask, u, rows).map(|(t, f, s)| (TexelColumn::Rows128(t), f, s))
            }
            WallTexels::Short { columns, mask } => {
                pick(columns, mask, u, rows).map(|(t, f, s)| (TexelColumn::Rows64(t), f, s))
            }
            WallTexels::Rows32 { columns, mask } => {
                pick(columns, mask, u, rows).map(|(t, f, s)| (TexelColumn::Rows32(t), f, s))
            }
            WallTexels::Rows16 { columns, mask } => {
                pick(columns, mask, u, rows).map(|(t, f, s)| (TexelColumn::Rows16(t), f, s))
            }
            WallTexels::Rows8 { columns, mask } => {
                pick(columns, mask, u, rows).map(|(t, f, s)| (TexelColumn::Rows8(t), f, s))
            }
            WallTexels::Any(_) => None,
        }?;
        Some(WallColumn {
            x,
            y0,
            y1,
            paint: Paint::Texels {
                column,
                frac,
                step,
                shade,
            },
        })
    }

    /// Draws its rows `[a, b)` (within its own).
    #[inline]
    fn draw_rows(&self, pixels: &mut [P], stride: usize, (a, b): (usize, usize)) {
        let Some(col) = column_slice(pixels, stride, self.x, a, b) else {
            return;
        };
        match self.paint {
            Paint::Texels {
                column,
                frac,
                step,
                shade,
            } => {
                let f = frac.wrapping_add(step.wrapping_mul((a - self.y0) as u32));
                let rows = (stride, b - a);
                match column {
                    TexelColumn::Rows128(t) => pow2_column(col, rows, f, step, t, shade),
                    TexelColumn::Rows64(t) => pow2_column(col, rows, f, step, t, shade),
                    TexelColumn::Rows32(t) => pow2_column(col, rows, f, step, t, shade),
                    TexelColumn::Rows16(t) => pow2_column(col, rows, f, step, t, shade),
                    TexelColumn::Rows8(t) => pow2_column(col, rows, f, step, t, shade),
                }
            }
            Paint::Solid(pixel) => solid_column(col, stride, pixel),
        }
    }
}

/// Wall columns held back, to be drawn together a few dozen at a time
/// rather than each as the walk reaches it.
///
/// Why: between two columns' pixels the walk runs the seg's column loop
/// (depths, texture columns, clip windows, planes), kilobytes of code that
/// on the N64 do not fit in the 16 KiB direct-mapped instruction cache
/// with the pixel loops; alternating column by column, each evicted the
/// other. Held back, the pixel loops run [`BATCH_COLUMNS`] columns in a
/// row (cen64, the view tour: medians 0.88-0.93 of before). The pixels are
/// the same: the walk's wall runs are disjoint (the planes, the sky and
/// the see-through textures are drawn only where no wall run is), so
/// their order does not matter, as long as the batch is flushed before
/// anything is drawn over the walls. (Drawing a batch by blocks of rows
/// across its columns, for the data cache, measured no better.)
///
/// A frontend asks for it ([`crate::render::Frame::with_batched_walls`]):
/// holding a column back costs instructions, which a desktop's large
/// set-associative caches do not pay back, so the walk that does not
/// batch is compiled without it.
pub(crate) struct WallBatch<'t, P> {
    /// The first `held` are held. (An array, not a `heapless::Vec`: no
    /// drop glue.)
    columns: [WallColumn<'t, P>; BATCH_COLUMNS],
    held: usize,
}

/// Wall columns a batch holds (about 2.5 KiB of jobs on the N64: four
/// times as many measured no better, 256 worse).
const BATCH_COLUMNS: usize = 64;

impl<'t, P: Copy + Default> WallBatch<'t, P> {
    /// None held.
    pub(crate) fn new() -> Self {
        WallBatch {
            columns: [WallColumn::solid((0, 0, 0), P::default()); BATCH_COLUMNS],
            held: 0,
        }
    }

    /// Holds `column`, drawing those held first if the batch is full.
    #[inline]
    pub(crate) fn push(&mut self, pixels: &mut [P], stride: usize, column: WallColumn<'t, P>) {
        if self.held == BATCH_COLUMNS {
            self.flush(pixels, stride);
        }
        if let Some(slot) = self.columns.get_mut(self.held) {
            *slot = column;
            self.held += 1;
        }
    }

    /// Draws every column held.
    #[inline(never)]
    pub(crate) fn flush(&mut self, pixels: &mut [P], stride: usize) {
        for c in self.columns.iter().take(self.held) {
            c.draw_rows(pixels, stride, (c.y0, c.y1));
        }
        self.held = 0;
    }
}

/// [`fill_wall`] for a prepared texture (`N` rows, a power of two; its
/// column `c` is `columns[c & mask]`): its height wraps by a mask, so
/// the column loop takes the texel row and step below the height (as
/// `ColumnRun::tiled` gives them).
#[inline(always)]
fn prepared_column<P: Copy, const N: usize>(
    pixels: &mut [P],
    stride: usize,
    (x, y0, y1): (usize, usize, usize),
    (u, v0, step): (i32, i64, i64),
    (columns, mask): (&[[u8; N]], u32),
    shade: &[P; 256],
) {
    let wrap = ((N as i64) << 16) - 1;
    if let (Some(t), Some(col)) = (
        columns.get((u as u32 & mask) as usize),
        column_slice(pixels, stride, x, y0, y1),
    ) {
        let (frac, step) = ((v0 & wrap) as u32, (step & wrap) as u32);
        pow2_column(col, (stride, y1 - y0), frac, step, t, shade);
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
    // Rows and columns within a frame's: nothing wraps (and a wrapped
    // range would be refused by `get_mut`, or name other pixels of the
    // frame, never panic).
    let first = y0.wrapping_mul(stride).wrapping_add(x);
    let last = (y1 - 1).wrapping_mul(stride).wrapping_add(x);
    pixels.get_mut(first..=last)
}

/// Writes `run.pixel` down the run.
pub(crate) fn fill_flat<P: Copy>(pixels: &mut [P], stride: usize, run: FlatRun<P>) {
    let Some(col) = column_slice(pixels, stride, run.x, run.y0, run.y1) else {
        return;
    };
    solid_column(col, stride, run.pixel);
}

/// Writes `pixel` into every `stride`th pixel of `col` (its first and
/// last included), four rows a step as [`pow2_column`] does.
///
/// Out of line, for the same reason: inlined into the seg's column loop
/// (with `step_by`), it kept the stride, the step and the end on the
/// stack and loaded them for every pixel.
#[inline(never)]
pub(crate) fn solid_column<P: Copy>(col: &mut [P], stride: usize, pixel: P) {
    let Some(quad) = stride.checked_mul(4).filter(|&q| q > 0) else {
        if let Some(px) = col.first_mut() {
            *px = pixel;
        }
        return;
    };
    let (s2, s3) = (2 * stride, 3 * stride);
    let mut rest = &mut *col;
    while let Some(four) = rest.get_mut(..=s3) {
        if let [a, .., d] = four {
            *a = pixel;
            *d = pixel;
        }
        if let Some(b) = four.get_mut(stride) {
            *b = pixel;
        }
        if let Some(c) = four.get_mut(s2) {
            *c = pixel;
        }
        match core::mem::take(&mut rest).get_mut(quad..) {
            Some(r) => rest = r,
            None => return,
        }
    }
    // Fewer than four rows left: each of them.
    let mut i = 0;
    while let Some(px) = rest.get_mut(i) {
        *px = pixel;
        i += stride;
    }
}

/// Writes `pixel` along `row`, four pixels a step (`fill` wrote one a
/// step).
#[inline(never)]
pub(crate) fn solid_span<P: Copy>(row: &mut [P], pixel: P) {
    let mut quads = row.chunks_exact_mut(4);
    for q in &mut quads {
        if let [a, b, c, d] = q {
            *a = pixel;
            *b = pixel;
            *c = pixel;
            *d = pixel;
        }
    }
    quads.into_remainder().fill(pixel);
}

/// Writes a span of a 64x64 flat: pixel `i` of `row` shows the texel at
/// `u + i * du`, `v + i * dv` (26 fraction bits, wrapping; texel column
/// from `u`, row from `v`), through `shade`.
///
/// Both coordinates step in one 64-bit sum (DOOM steps its two in one
/// 32-bit word, at 10 fraction bits): `v` in the high half, `u` in the
/// low half, `du` added sign-extended. The low half is `u` exactly; the
/// high half is `v` but for a carry (or borrow) each time `u` wraps past
/// the flat's edge, one 2^-26th of a texel, which moves a pixel only
/// where `v` lies that near a texel's edge (of the 2.9e8 pixels of
/// `scripts/digest`'s Freedoom views, one).
///
/// Two pixels a step. A span's length is as likely odd as even, so the
/// usual odd pixel out, before or after the pairs, costs a branch that
/// no predictor gets right half the time (a span is a few dozen pixels
/// and a few dozen instructions of set-up: one mispredicted branch is a
/// good part of it). Instead the first pixel is always written, and the
/// pairs start one pixel on for an odd length, on the first pixel again
/// for an even one (writing it twice, the same texel): the start is
/// picked by a mask, not a branch.
#[inline(never)]
pub(crate) fn flat_span<P: Copy>(
    row: &mut [P],
    [u, v, du, dv]: [u32; 4],
    flat: &[u8; 4096],
    shade: &[P; 256],
) {
    // Column (the top 6 bits of `u`, bits 26..32) times 64, plus row
    // (the top 6 bits of `v`).
    let spot = |p: u64| ((p >> 20) & (63 << 6) | p >> 58) as usize & 4095;
    let texel = |p: u64| shade[flat[spot(p)] as usize];
    let mut p = (v as u64) << 32 | u as u64;
    let step = ((dv as u64) << 32).wrapping_add(du as i32 as i64 as u64);
    let odd = row.len() & 1;
    let Some(first) = row.first_mut() else {
        return;
    };
    *first = texel(p);
    let skip = (odd as u64).wrapping_neg();
    p = p.wrapping_add(step & skip);
    let step2 = step.wrapping_mul(2);
    for pair in row.get_mut(odd..).unwrap_or_default().chunks_exact_mut(2) {
        // Each stage for both pixels before the next: on the N64 a load
        // whose result the next instruction uses stalls it a cycle.
        let t = [flat[spot(p)], flat[spot(p.wrapping_add(step))]];
        let px = t.map(|t| shade[t as usize]);
        if let [a, b] = pair {
            *a = px[0];
            *b = px[1];
        }
        p = p.wrapping_add(step2);
    }
}

/// Writes a tiled texture column (walls, the sky) at one light.
/// (Inlined into its callers: see `draw_wall`.)
#[inline(always)]
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
    // Power-of-two heights (most textures) wrap by themselves: the
    // texel row is bits 16.. of a wrapping sum, masked.
    if wrap.is_power_of_two() {
        if let Ok(t) = <&[u8; 128]>::try_from(texels) {
            pow2_column(col, (stride, run.y1 - run.y0), frac, step, t, shade);
            return;
        }
        if let Ok(t) = <&[u8; 64]>::try_from(texels) {
            pow2_column(col, (stride, run.y1 - run.y0), frac, step, t, shade);
            return;
        }
    }
    // Any other height: in stretches between wraps, each a plain loop
    // (the wrap found once per stretch instead of tested per pixel).
    // `frac < wrap` and `step < wrap <= 2^26`: sums stay below 2^27.
    let mut at = 0;
    loop {
        // Rows left before `frac` reaches `wrap`: ceil((wrap - frac) / step).
        let before_wrap = match step {
            0 => usize::MAX,
            s => (wrap - frac).div_ceil(s) as usize,
        };
        for _ in 0..before_wrap {
            let Some(px) = col.get_mut(at) else {
                return;
            };
            let t = texels.get((frac >> 16) as usize).copied().unwrap_or(0);
            *px = shade[t as usize];
            frac += step;
            at += stride;
        }
        frac -= wrap;
    }
}

/// Column `column` of `texture` for [`fill_masked`], and the texel value
/// it skips (`u16::MAX`, which no texel has, unless masked).
#[inline]
pub(crate) fn masked_column<'t>(texture: &TextureView<'t>, column: i32) -> (&'t [u8], u16) {
    let clear = if texture.flags & texture_flag::MASKED != 0 {
        texture.transparent as u16
    } else {
        u16::MAX
    };
    (texture_column(texture, column), clear)
}

/// [`fill_column`] for a texture `N` (a power of two, at most 2^16) rows
/// tall, down the `rows` rows (at least one) of `col`: by
/// [`pow2_column_constant`] for the strides in
/// [`super::frame::CONSTANT_STRIDES`], by [`pow2_column_any`] for others.
///
/// The texel row is bits 16.. of `frac`, masked to `N` rows; the bits
/// above never reach them. Shifted up so that those bits are the top
/// ones (`frac` and `step` scaled by the same power of two, the wrapping
/// sums stay the same bits), the row is a single shift ([`shifted`]).
/// Four rows a step, the loop's overhead spread over four pixels (on the
/// N64, whose CPU runs an instruction a cycle, that is what counts), each
/// stage written for all four before the next, so that a load need not
/// wait on the one before it (LLVM's schedule for the N64 still has one
/// waiting about every second pixel: n64/README.md, "Where the cycles
/// go").
///
/// Not inlined: the loop needs twelve registers, and inlined into the
/// walk's column loop it had to share them with everything that loop
/// keeps (texture, light, planes, the column's window): two to six of
/// its values went to the stack and were loaded again every four
/// pixels, how many depending on what the column loop around it held.
/// Out of line it keeps them all, for the cost of a call; the stride's
/// choice is made there too (a jump on to the loop), not in each caller.
#[inline(never)]
fn pow2_column<P: Copy, const N: usize>(
    col: &mut [P],
    (stride, rows): (usize, usize),
    frac: u32,
    step: u32,
    texels: &[u8; N],
    shade: &[P; 256],
) {
    const A: usize = CONSTANT_STRIDES[0];
    const B: usize = CONSTANT_STRIDES[1];
    const C: usize = CONSTANT_STRIDES[2];
    const D: usize = CONSTANT_STRIDES[3];
    match stride {
        A => pow2_column_constant::<P, N, A>(col, frac, step, texels, shade),
        B => pow2_column_constant::<P, N, B>(col, frac, step, texels, shade),
        C => pow2_column_constant::<P, N, C>(col, frac, step, texels, shade),
        D => pow2_column_constant::<P, N, D>(col, frac, step, texels, shade),
        _ => pow2_column_any(col, (stride, rows), frac, step, texels, shade),
    }
}

/// `frac` and `step` shifted so that the texel row of a texture `N` rows
/// tall is their top bits, and the texel of a shifted `frac` (see
/// [`pow2_column`]).
#[inline(always)]
fn shifted<const N: usize>(
    frac: u32,
    step: u32,
    texels: &[u8; N],
) -> (u32, u32, impl Fn(u32) -> usize + '_) {
    let bits = N.trailing_zeros();
    let (up, down) = (16u32.saturating_sub(bits), 32u32.saturating_sub(bits));
    let at = move |frac: u32| texels[frac.checked_shr(down).unwrap_or(0) as usize % N] as usize;
    (frac << up, step << up, at)
}

/// [`pow2_column`] for rows `S` pixels apart: whole steps of four rows
/// are the slice's chunks of `4 * S` pixels, counted, each row's pixel
/// at a constant offset in its chunk; the one to four rows after the
/// last (`(rows - 1) * S + 1` pixels leave `(rows - 1) % 4 + 1`) are the
/// remainder's.
#[inline(never)]
fn pow2_column_constant<P: Copy, const N: usize, const S: usize>(
    col: &mut [P],
    frac: u32,
    step: u32,
    texels: &[u8; N],
    shade: &[P; 256],
) {
    let (frac, step, at) = shifted(frac, step, texels);
    let steps = [0, step, step.wrapping_mul(2), step.wrapping_mul(3)];
    let mut quads = col.chunks_exact_mut(4 * S);
    let mut f = frac;
    // Row by row (texel, light, store), not stage by stage for the four:
    // so scheduled, no load waits for the one before it (stage by stage,
    // the fourth texel was loaded just before its use).
    for four in &mut quads {
        four[0] = shade[at(f)];
        four[S] = shade[at(f.wrapping_add(steps[1]))];
        four[2 * S] = shade[at(f.wrapping_add(steps[2]))];
        four[3 * S] = shade[at(f.wrapping_add(steps[3]))];
        f = f.wrapping_add(step.wrapping_mul(4));
    }
    let rest = quads.into_remainder();
    for (k, s) in steps.into_iter().enumerate() {
        if let Some(px) = rest.get_mut(k * S) {
            *px = shade[at(f.wrapping_add(s))];
        }
    }
}

/// [`pow2_column`] for any stride: a range check for a step's first and
/// last rows, a compare each for the two between.
///
/// The one to three rows that four-row steps leave are not a loop of
/// their own: the run's last three rows are written after the steps
/// whatever the count, some of them a second time (the same texel, the
/// same pixel; rows before the first counted as the first). A loop of
/// zero to three turns ends on branches the predictor often misses; a
/// few stores more cost less.
#[inline(never)]
fn pow2_column_any<P: Copy, const N: usize>(
    col: &mut [P],
    (stride, rows): (usize, usize),
    frac: u32,
    step: u32,
    texels: &[u8; N],
    shade: &[P; 256],
) {
    let (frac, step, at) = shifted(frac, step, texels);
    let texel = |frac: u32| shade[at(frac)];
    let Some(quad) = stride.checked_mul(4).filter(|&p| p > 0) else {
        return;
    };
    let (s2, s3) = (2 * stride, 3 * stride);
    let (step2, step3, step4) = (
        step.wrapping_mul(2),
        step.wrapping_mul(3),
        step.wrapping_mul(4),
    );
    // Four rows a step: the first and last pixels of the slice's first
    // `3 * stride + 1`, and two between; then those rows off the front.
    // (The slice ends at the run's last pixel: the steps stop when fewer
    // than four rows are left, or none; the three stores below write
    // what is left.)
    let mut rest = &mut *col;
    let mut f = frac;
    while let Some(four) = rest.get_mut(..=s3) {
        // Two pixels at a time, each stage for both before the next (as
        // in `flat_span`).
        let t = [at(f), at(f.wrapping_add(step3))].map(|t| shade[t]);
        if let [a, .., d] = four {
            *a = t[0];
            *d = t[1];
        }
        let t = [at(f.wrapping_add(step)), at(f.wrapping_add(step2))].map(|t| shade[t]);
        if let Some(b) = four.get_mut(stride) {
            *b = t[0];
        }
        if let Some(c) = four.get_mut(s2) {
            *c = t[1];
        }
        f = f.wrapping_add(step4);
        match core::mem::take(&mut rest).get_mut(quad..) {
            Some(r) => rest = r,
            None => break,
        }
    }
    // The last three rows (the first for any before it).
    let last = rows.saturating_sub(1);
    for row in [last.saturating_sub(2), last.saturating_sub(1), last] {
        if let Some(px) = col.get_mut(row.wrapping_mul(stride)) {
            *px = texel(frac.wrapping_add(step.wrapping_mul(row as u32)));
        }
    }
}

/// Writes a texture column once (sprites, see-through wall textures),
/// skipping texels equal to `clear` (see [`masked_column`]).
///
/// A pixel under a clear texel is written back as it was, picked by a
/// select, not a branch: where a sprite's clear and solid texels
/// alternate down a column, a branch on each is missed often, and the
/// pixel's load costs less.
pub(crate) fn fill_masked<P: Copy>(
    pixels: &mut [P],
    stride: usize,
    run: MaskedRun,
    (texels, clear): (&[u8], u16),
    shade: &[P; 256],
) {
    let Some(col) = column_slice(pixels, stride, run.x, run.y0, run.y1) else {
        return;
    };
    // A texture with no clear texel (a see-through wall's middle texture
    // may be opaque: E2M3's turn draws 23 thousand such pixels a frame)
    // skips nothing: 128 or 64 rows tall, it is drawn as a wall column
    // is, when its last row lies inside the texture (as for every run
    // `MaskedRun::once` gives), so that no texel row wraps.
    let rows = run.y1 - run.y0;
    let last = run.frac as u64 + (rows as u64 - 1) * run.step as u64;
    if clear == u16::MAX
        && (opaque_column::<_, 128>(col, stride, &run, last, texels, shade)
            || opaque_column::<_, 64>(col, stride, &run, last, texels, shade))
    {
        return;
    }
    let mut frac = run.frac;
    let mut at = 0;
    while let Some(px) = col.get_mut(at) {
        if let Some(&t) = texels.get((frac >> 16) as usize) {
            *px = core::hint::select_unpredictable(t as u16 != clear, shade[t as usize], *px);
        }
        frac = frac.saturating_add(run.step);
        at += stride;
    }
}

/// [`fill_masked`] for an opaque texture `N` rows tall (`texels` its
/// column): the run's pixels `col`, drawn by [`pow2_column`] when its
/// last row's texel row, `last` (16.16), lies inside the texture;
/// `false` (nothing drawn) otherwise.
#[inline(always)]
fn opaque_column<P: Copy, const N: usize>(
    col: &mut [P],
    stride: usize,
    run: &MaskedRun,
    last: u64,
    texels: &[u8],
    shade: &[P; 256],
) -> bool {
    match <&[u8; N]>::try_from(texels) {
        Ok(t) if last < (N as u64) << 16 => {
            pow2_column(col, (stride, run.y1 - run.y0), run.frac, run.step, t, shade);
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
