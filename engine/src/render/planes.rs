//! Floors and ceilings, drawn as DOOM draws them: in horizontal spans,
//! one light level and one texture step per span.
//!
//! A plane (everything that decides a floor's pixels: its texture or
//! colour, its light number and its height relative to the eye) gets a
//! number the first time it is seen in the frame. The walk meets the
//! columns in no order, so its runs are kept plane by plane in
//! visplanes, as DOOM keeps them: one run a column in each
//! ([`VisPlanes`]; a run that does not touch the one its column holds
//! goes to another visplane of the plane), stored in blocks of 32
//! columns taken as needed, so that a frame's few dozen visplanes fit in
//! about 28 KiB. After the walk, each visplane's columns are compared in
//! turn (DOOM's `R_MakeSpans`), so each plane's spans are drawn
//! together, its flat and light rows in the cache, before anything is
//! drawn over them.
//!
//! ## The mapping
//!
//! Row `y` of a plane `h` above or below the eye lies at the distance
//! `t = h * recip[y]` (see `draw::recip_rows`), and column `x` shows the
//! map point `P + t * (F + k R)` with `k = (2x + 1 - width) / width`:
//! affine in `x`. Per row, the map coordinates of column 0 and their step
//! per column are worked out once (40 fraction bits for the ray terms,
//! wrapping products keep the bits that matter); per pixel there are two
//! additions. For 64x64 flats the coordinates are kept as DOOM keeps them,
//! 26 fraction bits wrapping in 32, since only the 6 texel bits above
//! matter. A span is the same pixels whichever columns it is split into,
//! so deferring, splitting or (when the tables are full) drawing a run on
//! the spot never changes a pixel.

use heapless::Vec as HVec;

use super::cache::{SectorCache, SectorRef, MAX_CACHED_SECTORS};
use super::draw;
use super::frame::Pixel;
use super::light::PlaneLight;
use super::portal::{Surface, View};
use super::shade::Shades;
use crate::config::{MAX_SCREEN_HEIGHT, MAX_SCREEN_WIDTH};
use crate::world::Level;

/// Most planes one frame keeps; runs of more are drawn on the spot.
pub(crate) const MAX_PLANES: usize = 128;
/// No plane (not looked up yet).
pub(crate) const NO_PLANE: u16 = u16::MAX;
/// The sky, drawn in columns.
pub(crate) const SKY_PLANE: u16 = u16::MAX - 1;

/// A floor or ceiling: everything that decides its pixels.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Plane<'a> {
    /// What it shows (never the sky).
    surface: Surface<'a>,
    /// Its texture, or `0x1_0000 +` its colour: with `n` and `height`,
    /// what tells planes apart.
    id: u32,
    n: u8,
    /// `|plane height - eye height|`, 16.16 bits, at most 2^33.
    height: u64,
    light: PlaneLight,
}

/// How a sector's floor or ceiling is drawn (see [`Planes::resolve`]).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Found<'a> {
    /// The sky, drawn in columns.
    Sky,
    /// Plane `n` of the frame's table.
    Listed(u16),
    /// A plane the table had no room for: its runs are drawn on the spot.
    Unlisted(Plane<'a>),
}

/// Where spans go.
pub(crate) struct Target<'t, P> {
    pub(crate) pixels: &'t mut [P],
    pub(crate) stride: usize,
    /// The frame's reciprocal table, one entry per row.
    pub(crate) recip: &'t [u32],
    pub(crate) shades: &'t Shades<P>,
}

/// The floors and ceilings of one frame.
pub(crate) struct Planes<'a> {
    planes: HVec<Plane<'a>, MAX_PLANES>,
    /// The plane of each sector slot's floor (even) and ceiling (odd), once
    /// looked up.
    memo: [u16; 2 * MAX_CACHED_SECTORS],
    /// The column where each row's open span started.
    start: [u16; MAX_SCREEN_HEIGHT],
    /// What every span needs of the camera.
    frame: SpanConstants,
}

impl<'a> Planes<'a> {
    /// No planes yet, for `view`.
    pub(crate) fn new(view: &View<'_>) -> Planes<'a> {
        let w = view.width.max(1);
        // F + k R with k = (1 - w) / w at column 0, stepping 2 / w.
        let g0 = |f: i64, r: i64| (f << 24) + ((r << 24) * (1 - w)) / w;
        Planes {
            planes: HVec::new(),
            memo: [NO_PLANE; 2 * MAX_CACHED_SECTORS],
            start: [0; MAX_SCREEN_HEIGHT],
            frame: SpanConstants {
                u0: (view.px as u32).wrapping_shl(10),
                v0: (view.py.wrapping_neg() as u32).wrapping_shl(10),
                px: view.px,
                py: view.py,
                g0: (g0(view.fx, view.rx), g0(view.fy, view.ry)),
                s: ((view.rx << 25) / w, (view.ry << 25) / w),
            },
        }
    }

    /// The plane of the ceiling (`ceiling`) or floor of `sector` if known
    /// ([`SKY_PLANE`] for the sky), else `NO_PLANE`: then
    /// [`Planes::resolve`] works it out.
    #[inline]
    pub(crate) fn known(&self, sector: SectorRef, ceiling: bool) -> u16 {
        match sector {
            SectorRef::Slot(s) => self
                .memo
                .get(s as usize * 2 + ceiling as usize)
                .copied()
                .unwrap_or(NO_PLANE),
            SectorRef::Direct(_) => NO_PLANE,
        }
    }

    /// How the ceiling (`ceiling`) or floor of `sector` is drawn, from
    /// what [`Planes::known`] said of it (`known`): the sky, a listed
    /// plane, or, not known yet, [`Planes::find`]'s answer.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn resolve(
        &mut self,
        known: u16,
        level: &Level<'a>,
        view: &View<'a>,
        cache: &SectorCache<'a>,
        sector: SectorRef,
        ceiling: bool,
        n: usize,
        height: u64,
    ) -> Found<'a> {
        match known {
            SKY_PLANE => Found::Sky,
            NO_PLANE => self.find(level, view, cache, sector, ceiling, n, height),
            p => Found::Listed(p),
        }
    }

    /// How the ceiling (`ceiling`) or floor of `sector` is drawn, when it
    /// is not [`Planes::known`] yet: its surface looked up (the sky, or a
    /// plane of light number `n` and `height` from the eye, added to the
    /// table), and memorised. A plane the table has no room for is given
    /// back itself, for its runs to be drawn on the spot.
    #[allow(clippy::too_many_arguments)]
    fn find(
        &mut self,
        level: &Level<'a>,
        view: &View<'a>,
        cache: &SectorCache<'a>,
        sector: SectorRef,
        ceiling: bool,
        n: usize,
        height: u64,
    ) -> Found<'a> {
        let surface = cache.surface(level, view, sector, ceiling);
        if let Surface::Sky = surface {
            self.remember(sector, ceiling, SKY_PLANE);
            return Found::Sky;
        }
        let s = cache.get(sector);
        let texture = if ceiling {
            s.ceiling_texture
        } else {
            s.floor_texture
        };
        let id = match surface {
            Surface::Color(c) => 0x1_0000 | c as u32,
            _ => texture as u32,
        };
        let new = Plane {
            surface,
            id,
            n: n as u8,
            height: height.min(1 << 33),
            light: PlaneLight::new(n, height),
        };
        let plane = self.plane_of(new);
        if plane == NO_PLANE {
            return Found::Unlisted(new);
        }
        self.remember(sector, ceiling, plane);
        Found::Listed(plane)
    }

    /// Draws rows `(y0, y1)` of column `x` of plane `plane` now, one
    /// pixel a span (the same pixels as in longer spans).
    pub(crate) fn draw_now<P: Pixel>(
        &self,
        plane: u16,
        rows: (usize, usize),
        x: usize,
        target: &mut Target<'_, P>,
    ) {
        if let Some(p) = self.planes.get(plane as usize) {
            self.draw_plane_now(p, rows, x, target);
        }
    }

    /// [`Planes::draw_now`] for a plane not in the table.
    pub(crate) fn draw_plane_now<P: Pixel>(
        &self,
        p: &Plane<'_>,
        rows: (usize, usize),
        x: usize,
        target: &mut Target<'_, P>,
    ) {
        draw_rows(target, p, self.frame, rows, x);
    }

    /// Memorises the plane of a sector slot's ceiling or floor.
    pub(crate) fn remember(&mut self, sector: SectorRef, ceiling: bool, plane: u16) {
        if let SectorRef::Slot(s) = sector {
            if let Some(m) = self.memo.get_mut(s as usize * 2 + ceiling as usize) {
                *m = plane;
            }
        }
    }

    /// The number of `p`'s plane, added if new (`NO_PLANE` if full).
    fn plane_of(&mut self, p: Plane<'a>) -> u16 {
        let same = |q: &Plane<'_>| q.id == p.id && q.n == p.n && q.height == p.height;
        if let Some(i) = self.planes.iter().position(same) {
            return i as u16;
        }
        match self.planes.push(p) {
            Ok(()) => (self.planes.len() - 1) as u16,
            Err(_) => NO_PLANE,
        }
    }

    /// Draws every visplane's spans (DOOM's `R_DrawPlanes` and
    /// `R_MakeSpans`): across its columns, a row that its run leaves
    /// closes a span (drawn), and one it takes opens a span.
    pub(crate) fn draw_visplanes<P: Pixel>(
        &mut self,
        visplanes: &VisPlanes<'_>,
        target: &mut Target<'_, P>,
    ) {
        const NONE: &Cells = &[0; BLOCK];
        let frame = self.frame;
        let cells: &[Cells] = visplanes.cells;
        for v in visplanes.list.iter() {
            let Some(p) = self.planes.get(v.plane as usize) else {
                continue;
            };
            let mut prev = 0u32;
            for (b, &block) in v.blocks.iter().enumerate() {
                let block = match cells.get(block as usize) {
                    Some(c) => c,
                    // No runs in these columns, and none open.
                    None if prev == 0 => continue,
                    None => NONE,
                };
                // The columns whose run differs from the last column's,
                // as a mask (compared side by side, not a branch a
                // column: where runs change follows the picture), then
                // visited by their bits.
                let mut changes = (block[0] != prev) as u32;
                for (i, pair) in block.windows(2).enumerate() {
                    changes |= ((pair[1] != pair[0]) as u32) << (i + 1);
                }
                while changes != 0 {
                    let i = changes.trailing_zeros() as usize;
                    changes &= changes - 1;
                    let cur = block.get(i).copied().unwrap_or(0);
                    make_spans(
                        target,
                        p,
                        frame,
                        &mut self.start,
                        (prev, cur),
                        b * BLOCK + i,
                    );
                    prev = cur;
                }
            }
            make_spans(
                target,
                p,
                frame,
                &mut self.start,
                (prev, 0),
                MAX_SCREEN_WIDTH,
            );
        }
    }
}

/// Columns per block of a visplane's cells.
const BLOCK: usize = 32;
/// Most blocks of cells one frame's visplanes take (24 KiB); runs that
/// find no room are drawn on the spot.
pub(crate) const MAX_PLANE_BLOCKS: usize = 192;
/// Most visplanes one frame keeps.
pub(crate) const MAX_VISPLANES: usize = 128;
/// No block of cells yet (in [`VisPlane::blocks`]).
const NO_BLOCK: u8 = u8::MAX;
/// No visplane yet (in [`VisPlanes::current`]).
const NO_VISPLANE: u8 = u8::MAX;
/// Blocks of columns on the widest screen.
const BLOCKS_PER_VISPLANE: usize = MAX_SCREEN_WIDTH.div_ceil(BLOCK);
// Block and visplane numbers are bytes, with room for the markers.
const _: () = assert!(MAX_PLANE_BLOCKS < NO_BLOCK as usize && MAX_VISPLANES < NO_VISPLANE as usize);

/// A block of cells: one column's run each, rows `[y0, y1)` as
/// `y0 | y1 << 16`; 0 (no rows) for none.
pub(crate) type Cells = [u32; BLOCK];

/// One plane's rows, at most one run a column (DOOM's visplane).
#[derive(Copy, Clone, Debug)]
pub(crate) struct VisPlane {
    plane: u16,
    /// Column `x`'s cell is `x % BLOCK` of block `blocks[x / BLOCK]`;
    /// columns without a block have no run.
    blocks: [u8; BLOCKS_PER_VISPLANE],
}

/// The cell `cell` of a visplane's column with the rows `run` (both
/// `y0 | y1 << 16`, `run` not empty) added: into an empty cell, or grown
/// onto the run there if the two touch (the same plane on both sides of
/// a wall: DOOM leaves such a wall's floor unmarked, to the same
/// effect); `None` if they do not.
#[inline(always)]
fn grow(cell: u32, run: u32) -> Option<u32> {
    let (low, high) = (0xffff, 0xffff_0000);
    if cell == 0 {
        Some(run)
    } else if cell >> 16 == run & low {
        // Just below the run there.
        Some((cell & low) | (run & high))
    } else if run >> 16 == cell & low {
        // Just above.
        Some((run & low) | (cell & high))
    } else {
        None
    }
}

/// Column `x`'s cell in `cells`, by a visplane's `blocks`; `None` if the
/// column has no block.
#[inline(always)]
fn cell_mut<'c>(
    blocks: &[u8; BLOCKS_PER_VISPLANE],
    cells: &'c mut [Cells],
    x: usize,
) -> Option<&'c mut u32> {
    let b = blocks.get(x / BLOCK).copied().unwrap_or(NO_BLOCK);
    cells.get_mut(b as usize).and_then(|c| c.get_mut(x % BLOCK))
}

/// What became of a run offered to a visplane.
enum Put {
    Done,
    /// The visplane's column holds a run this one does not touch.
    Taken,
    /// No room for its block.
    Full,
}

impl VisPlane {
    /// Adds rows `run` (`y0 | y1 << 16`, not empty) to column `x` (see
    /// [`grow`]), giving the column a block of cells if it has none.
    fn put(&mut self, cells: &mut HVec<Cells, MAX_PLANE_BLOCKS>, x: usize, run: u32) -> Put {
        let Some(b) = self.blocks.get_mut(x / BLOCK) else {
            return Put::Full;
        };
        if *b == NO_BLOCK {
            if cells.push([0; BLOCK]).is_err() {
                return Put::Full;
            }
            *b = (cells.len() - 1) as u8;
        }
        let Some(cell) = cell_mut(&self.blocks, cells, x) else {
            return Put::Full;
        };
        let Some(grown) = grow(*cell, run) else {
            return Put::Taken;
        };
        *cell = grown;
        Put::Done
    }

    /// Column `x`'s cell (0 if none).
    #[cfg(test)]
    fn cell(&self, cells: &[Cells], x: usize) -> u32 {
        let b = self.blocks.get(x / BLOCK).copied().unwrap_or(NO_BLOCK);
        cells
            .get(b as usize)
            .and_then(|c| c.get(x % BLOCK))
            .copied()
            .unwrap_or(0)
    }
}

/// A frame's floor and ceiling runs, plane by plane: each plane's runs
/// in visplanes (DOOM's), one run a column in each, so that its spans
/// are found column by column in one pass over its columns
/// ([`Planes::draw_visplanes`]). The storage is the caller's.
pub(crate) struct VisPlanes<'s> {
    list: &'s mut HVec<VisPlane, MAX_VISPLANES>,
    cells: &'s mut HVec<Cells, MAX_PLANE_BLOCKS>,
    /// Each plane's visplane that takes its runs (`NO_VISPLANE`: none
    /// yet).
    current: &'s mut Current,
}

/// Each plane's visplane that takes its runs (see [`VisPlanes`]).
pub(crate) type Current = [u8; MAX_PLANES];

impl<'s> VisPlanes<'s> {
    /// No runs, in the caller's tables.
    pub(crate) fn new(
        list: &'s mut HVec<VisPlane, MAX_VISPLANES>,
        cells: &'s mut HVec<Cells, MAX_PLANE_BLOCKS>,
        current: &'s mut Current,
    ) -> VisPlanes<'s> {
        list.clear();
        cells.clear();
        *current = [NO_VISPLANE; MAX_PLANES];
        VisPlanes {
            list,
            cells,
            current,
        }
    }

    /// The same tables, borrowed.
    pub(crate) fn reborrow(&mut self) -> VisPlanes<'_> {
        VisPlanes {
            list: &mut *self.list,
            cells: &mut *self.cells,
            current: &mut *self.current,
        }
    }

    /// The visplane that takes plane `plane`'s runs now (`NO_VISPLANE`:
    /// none yet), for [`VisPlanes::mark_in`].
    #[inline]
    pub(crate) fn visplane_of(&self, plane: u16) -> u8 {
        self.current
            .get(plane as usize)
            .copied()
            .unwrap_or(NO_VISPLANE)
    }

    /// [`VisPlanes::mark`] into the visplane `visplane` (a seg's copy of
    /// [`VisPlanes::visplane_of`], brought up to date here when the
    /// plane's runs move to another): no look-up of the plane's visplane
    /// in each column. (A run kept in an earlier visplane of the same
    /// plane, where that visplane's column takes it, draws the same
    /// pixels: a plane's spans depend on the plane and the rows only.)
    #[inline(always)]
    pub(crate) fn mark_in(
        &mut self,
        x: usize,
        (y0, y1): (usize, usize),
        plane: u16,
        visplane: &mut u8,
    ) -> bool {
        let run = y0 as u32 | (y1 as u32) << 16;
        if let Some(v) = self.list.get_mut(*visplane as usize) {
            if let Some(cell) = cell_mut(&v.blocks, self.cells, x) {
                if let Some(grown) = grow(*cell, run) {
                    *cell = grown;
                    return true;
                }
            }
        }
        let kept = self.mark_slow(x, run, plane);
        *visplane = self.visplane_of(plane);
        kept
    }

    /// Keeps rows `(y0, y1)` (within the screen, not empty: an empty or
    /// upside-down run is kept but draws nothing) of column `x` of plane
    /// `plane` (from [`Planes::known`] or [`Planes::resolve`], not the
    /// sky); `false` (nothing kept) if there is no room. The usual case, a
    /// column of the plane's visplane with a block and no run, or one
    /// this one touches, is here; the rest is [`VisPlanes::mark_slow`]'s,
    /// out of the way of the walk's column loop.
    #[inline(always)]
    pub(crate) fn mark(&mut self, x: usize, rows: (usize, usize), plane: u16) -> bool {
        let mut visplane = self.visplane_of(plane);
        self.mark_in(x, rows, plane, &mut visplane)
    }

    /// [`VisPlanes::mark`] where the column has no block yet, the
    /// plane no visplane, or its visplane's column a run this one does
    /// not touch.
    #[inline(never)]
    fn mark_slow(&mut self, x: usize, run: u32, plane: u16) -> bool {
        let Some(current) = self.current.get_mut(plane as usize) else {
            return false;
        };
        if let Some(v) = self.list.get_mut(*current as usize) {
            match v.put(self.cells, x, run) {
                Put::Done => return true,
                Put::Full => return false,
                Put::Taken => {}
            }
        }
        // The plane's first visplane, or its last one's column is taken:
        // a new one takes its runs from here on.
        let new = VisPlane {
            plane,
            blocks: [NO_BLOCK; BLOCKS_PER_VISPLANE],
        };
        if self.list.push(new).is_err() {
            return false;
        }
        *current = (self.list.len() - 1) as u8;
        match self.list.last_mut() {
            Some(v) => matches!(v.put(self.cells, x, run), Put::Done),
            None => false,
        }
    }

    /// Column `x`'s run in each visplane of plane `plane`, as `(y0, y1)`.
    #[cfg(test)]
    fn runs_of(&self, plane: u16, x: usize) -> impl Iterator<Item = (u16, u16)> + '_ {
        self.list
            .iter()
            .filter(move |v| v.plane == plane)
            .map(move |v| v.cell(self.cells, x))
            .filter(|&c| c != 0)
            .map(|c| (c as u16, (c >> 16) as u16))
    }
}

/// Column `x` of a visplane holds the rows `cur` where the last column
/// held `prev` (both `y0 | y1 << 16`, 0 for none): rows only in `prev`
/// close their spans (drawn through `x - 1`), rows only in `cur` open
/// spans at `x`.
#[inline(always)]
fn make_spans<P: Pixel>(
    target: &mut Target<'_, P>,
    p: &Plane<'_>,
    frame: SpanConstants,
    start: &mut [u16; MAX_SCREEN_HEIGHT],
    (prev, cur): (u32, u32),
    x: usize,
) {
    let (t1, b1) = ((prev & 0xffff) as usize, (prev >> 16) as usize);
    let (t2, b2) = ((cur & 0xffff) as usize, (cur >> 16) as usize);
    // Rows in the last run and not in this one (above it, below it),
    // then the other way round; no run is rows [0, 0). (A run before
    // column 0 is none: `last` is there.)
    if let Some(last) = x.checked_sub(1) {
        // (Two loops: a chain of the two ranges tests which one it is in
        // at every row.)
        for y in t1..b1.min(t2) {
            if let Some(&s) = start.get(y) {
                draw_span(target, p, frame, y, s as usize, last);
            }
        }
        for y in t1.max(b2)..b1 {
            if let Some(&s) = start.get(y) {
                draw_span(target, p, frame, y, s as usize, last);
            }
        }
    }
    for rows in [t2..b2.min(t1), t2.max(b1)..b2] {
        for s in start.get_mut(rows).unwrap_or(&mut []) {
            *s = x as u16;
        }
    }
}

/// The frame's constants a span needs (see the module's essay).
#[derive(Copy, Clone, Debug)]
struct SpanConstants {
    /// The camera: its position in 64x64 flat coordinates (26 fraction
    /// bits, wrapping; y negated), and in 16.16 bits.
    u0: u32,
    v0: u32,
    px: i64,
    py: i64,
    /// The ray of column 0 and its step per column, 40 fraction bits.
    g0: (i64, i64),
    s: (i64, i64),
}

/// Draws rows `[y0, y1)` of column `x` of plane `p`, one pixel a span
/// (the same pixels as in longer spans).
fn draw_rows<P: Pixel>(
    t: &mut Target<'_, P>,
    p: &Plane<'_>,
    f: SpanConstants,
    (y0, y1): (usize, usize),
    x: usize,
) {
    for y in y0..y1 {
        draw_span(t, p, f, y, x, x);
    }
}

/// Draws columns `[xs, xe]` of row `y` of plane `p`.
fn draw_span<P: Pixel>(
    t: &mut Target<'_, P>,
    p: &Plane<'_>,
    f: SpanConstants,
    y: usize,
    xs: usize,
    xe: usize,
) {
    if xs > xe {
        return;
    }
    let first = y * t.stride + xs;
    let Some(row) = t.pixels.get_mut(first..=y * t.stride + xe) else {
        return;
    };
    let Some(&r) = t.recip.get(y) else {
        return;
    };
    let shade = t.shades.row(p.light.level(r));
    // The distance of the row, 16.16 bits (below 2^61 / 2^16).
    let dist = ((p.height * r as u64) >> 16) as i64;
    match p.surface {
        Surface::Color(c) => draw::solid_span(row, shade[c as usize]),
        Surface::Flat64(flat) => {
            // Column 0's coordinates and the step, 26 fraction bits: the
            // products wrap, but bits 30..62 of them are exact.
            let wide = |a: i64, b: i64| (a.wrapping_mul(b) >> 30) as u32;
            let du = wide(dist, f.s.0);
            let dv = wide(dist, f.s.1).wrapping_neg();
            let x = xs as u32;
            let u =
                f.u0.wrapping_add(wide(dist, f.g0.0))
                    .wrapping_add(x.wrapping_mul(du));
            let v =
                f.v0.wrapping_sub(wide(dist, f.g0.1))
                    .wrapping_add(x.wrapping_mul(dv));
            draw::flat_span(row, [u, v, du, dv], flat, shade);
        }
        Surface::Flat(texture) => {
            // Any other size: map coordinates in 32 fraction bits, and a
            // division per pixel (only for odd data).
            let (w, h) = (texture.width.max(1) as i64, texture.height.max(1) as i64);
            let at = |g: i64, s: i64| {
                let ray = g as i128 + xs as i128 * s as i128;
                ((dist as i128 * ray) >> 24) as i64
            };
            let step = |s: i64| ((dist as i128 * s as i128) >> 24) as i64;
            let (mut u, du) = ((f.px << 16).wrapping_add(at(f.g0.0, f.s.0)), step(f.s.0));
            // v is -y (DOOM's texel row is floor(-y)).
            let (mut v, dv) = (
                (-(f.py << 16)).wrapping_sub(at(f.g0.1, f.s.1)),
                step(f.s.1).wrapping_neg(),
            );
            for px in row.iter_mut() {
                let (c, rr) = ((u >> 32).rem_euclid(w), (v >> 32).rem_euclid(h));
                let texel = texture
                    .pixels
                    .get((c * h + rr) as usize)
                    .copied()
                    .unwrap_or(0);
                *px = shade[texel as usize];
                u = u.wrapping_add(du);
                v = v.wrapping_add(dv);
            }
        }
        Surface::Sky => {}
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::render::shade::{Palette, LIGHT_LEVELS};
    use std::vec;
    use std::vec::Vec;

    /// A plane of one colour, `n` and `height`, drawn at `(x, y)` of a
    /// `w`-wide frame.
    fn color_plane(n: usize, height: u64) -> Plane<'static> {
        Plane {
            surface: Surface::Color(1),
            id: 0x1_0001,
            n: n as u8,
            height,
            light: PlaneLight::new(n, height),
        }
    }

    const FRAME: SpanConstants = SpanConstants {
        u0: 0,
        v0: 0,
        px: 0,
        py: 0,
        g0: (0, 0),
        s: (0, 0),
    };

    #[test]
    fn plane_rows_fade_with_distance() {
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
        draw::build_recip(&mut recip, w, h);
        // focal 2: rows at 0.5, 1.5, 2.5 from the horizon.
        assert_eq!(recip, [52428, 87381, 262144, 262144, 87381, 52428]);
        let mut px = [0u32; 24];
        let mut t = Target {
            pixels: &mut px,
            stride: w,
            recip: &recip,
            shades: &shades,
        };
        // Floor 128 below the eye at sector light 128 (light number 8,
        // DOOM's map 28 when far): depths 512, 170.7, 102.4 for rows 3,
        // 4, 5; zlight takes 160 / (depth / 16 + 1) / 2 maps off.
        for y in 3..6 {
            draw_span(&mut t, &color_plane(8, 128 << 16), FRAME, y, 1, 1);
        }
        // A full-bright ceiling 16 above: bright at any distance.
        for y in 0..3 {
            draw_span(&mut t, &color_plane(15, 16 << 16), FRAME, y, 2, 2);
        }
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

    /// A 64x64 flat of distinct texels (as near as 251 values go).
    fn distinct_flat() -> [u8; 4096] {
        core::array::from_fn(|i| (i * 7 % 251) as u8)
    }

    /// A camera off the grid, at an odd angle.
    const ODD_CAMERA: SpanConstants = SpanConstants {
        u0: 0x1234_5678,
        v0: 0x8765_4321,
        px: 0,
        py: 0,
        g0: (0x12_3456_7890, -0x3_2109_8765),
        s: (0x5_4321, 0x1_2345),
    };

    /// `flat` 37 below the eye, at light number 9.
    fn flat_plane(flat: &[u8; 4096]) -> Plane<'_> {
        Plane {
            surface: Surface::Flat64(flat),
            id: 3,
            n: 9,
            height: 37 << 16,
            light: PlaneLight::new(9, 37 << 16),
        }
    }

    #[test]
    fn a_span_is_the_same_pixels_however_it_is_split() {
        // A 64x64 flat of distinct texels, a camera off the grid at an
        // odd angle: drawing row y whole or in pieces gives the same.
        let flat = distinct_flat();
        let shades: Shades<u32> = Shades::new(&Palette::builtin());
        let (w, h) = (50usize, 20usize);
        let mut recip = [0u32; 20];
        draw::build_recip(&mut recip, w, h);
        let (f, plane) = (ODD_CAMERA, flat_plane(&flat));
        let (mut a, mut b) = ([0u32; 1000], [0u32; 1000]);
        for y in 11..20 {
            let mut t = Target {
                pixels: &mut a,
                stride: w,
                recip: &recip,
                shades: &shades,
            };
            draw_span(&mut t, &plane, f, y, 0, w - 1);
            let mut t = Target {
                pixels: &mut b,
                stride: w,
                recip: &recip,
                shades: &shades,
            };
            let mut x = 0;
            for len in [1, 7, 2, 13, 1, 30].iter().cycle() {
                if x >= w {
                    break;
                }
                let end = (x + len - 1).min(w - 1);
                draw_span(&mut t, &plane, f, y, x, end);
                x = end + 1;
            }
        }
        assert!(a == b);
        assert!(a[11 * w..].iter().any(|&p| p != a[11 * w]));
    }

    /// A run next to the one a visplane's column holds grows it; one
    /// that does not touch it goes to a new visplane of the same plane,
    /// which takes the plane's runs from then on; each block of columns
    /// gets its cells when first marked.
    #[test]
    fn visplanes_keep_one_run_a_column() {
        let mut list = HVec::new();
        let mut cells = HVec::new();
        let mut current = [0; MAX_PLANES];
        let mut v = VisPlanes::new(&mut list, &mut cells, &mut current);
        let runs = |v: &VisPlanes<'_>, plane, x| v.runs_of(plane, x).collect::<Vec<_>>();
        // Ceilings met top down, floors bottom up: both grow.
        assert!(v.mark(5, (0, 10), 3));
        assert!(v.mark(5, (10, 20), 3));
        assert!(v.mark(5, (150, 200), 4));
        assert!(v.mark(5, (120, 150), 4));
        assert_eq!(runs(&v, 3, 5), [(0, 20)]);
        assert_eq!(runs(&v, 4, 5), [(120, 200)]);
        // A visplane each, with a block of cells each.
        assert_eq!((v.list.len(), v.cells.len()), (2, 2));
        // A gap: a second visplane of plane 3.
        assert!(v.mark(5, (30, 40), 3));
        assert_eq!(runs(&v, 3, 5), [(0, 20), (30, 40)]);
        assert_eq!((v.list.len(), v.cells.len()), (3, 3));
        // Which takes the plane's next runs, in any column; a column
        // in another block of 32 gets a block of its own.
        assert!(v.mark(6, (0, 8), 3));
        assert!(v.mark(40, (1, 2), 3));
        assert_eq!(runs(&v, 3, 6), [(0, 8)]);
        assert_eq!(runs(&v, 3, 40), [(1, 2)]);
        assert_eq!((v.list.len(), v.cells.len()), (3, 4));
        // No column past the widest screen, no plane past the table.
        assert!(!v.mark(MAX_SCREEN_WIDTH, (0, 1), 3));
        assert!(!v.mark(0, (0, 1), MAX_PLANES as u16));
    }

    /// A seg's copy of its plane's visplane: runs go into it while it
    /// takes them, and it is brought up to date when the plane's runs
    /// move to a new visplane; a copy left behind by another seg's move
    /// still keeps runs where its visplane's column takes them, every run
    /// kept once.
    #[test]
    fn a_segs_copy_of_the_visplane_follows_the_plane() {
        let mut list = HVec::new();
        let mut cells = HVec::new();
        let mut current = [0; MAX_PLANES];
        let mut v = VisPlanes::new(&mut list, &mut cells, &mut current);
        let runs = |v: &VisPlanes<'_>, plane, x| v.runs_of(plane, x).collect::<Vec<_>>();
        let mut copy = v.visplane_of(3);
        assert_eq!(copy, NO_VISPLANE);
        assert!(v.mark_in(5, (0, 10), 3, &mut copy));
        assert_eq!(copy, 0);
        assert!(v.mark_in(6, (0, 12), 3, &mut copy));
        // A gap in column 5: a new visplane, and the copy follows.
        let mut stale = copy;
        assert!(v.mark_in(5, (30, 40), 3, &mut copy));
        assert_eq!((copy, v.visplane_of(3)), (1, 1));
        // The copy left behind keeps a run its visplane's column takes.
        assert!(v.mark_in(7, (2, 4), 3, &mut stale));
        assert_eq!(stale, 0);
        assert_eq!(v.list.len(), 2);
        // And one it does not take goes where the plane's runs go now.
        assert!(v.mark_in(6, (50, 60), 3, &mut stale));
        assert_eq!(stale, 1);
        assert_eq!(runs(&v, 3, 5), [(0, 10), (30, 40)]);
        assert_eq!(runs(&v, 3, 6), [(0, 12), (50, 60)]);
        assert_eq!(runs(&v, 3, 7), [(2, 4)]);
        assert_eq!(v.list.len(), 2);
    }

    /// When the visplanes or the blocks run out, a run is refused (the
    /// caller draws it on the spot), and nothing kept is lost.
    #[test]
    fn full_visplanes_refuse_runs() {
        let mut list = HVec::new();
        let mut cells = HVec::new();
        let mut current = [0; MAX_PLANES];
        let mut v = VisPlanes::new(&mut list, &mut cells, &mut current);
        for plane in 0..MAX_VISPLANES as u16 {
            assert!(v.mark(0, (1, 2), plane));
        }
        // A run of plane 0 that needs a visplane of its own.
        assert!(!v.mark(0, (5, 6), 0));
        // Blocks in other columns, until there are none.
        'fill: for plane in 0..MAX_VISPLANES as u16 {
            for x in (BLOCK..MAX_SCREEN_WIDTH).step_by(BLOCK) {
                if v.cells.is_full() {
                    break 'fill;
                }
                assert!(v.mark(x, (1, 2), plane));
            }
        }
        assert!(!v.mark(MAX_SCREEN_WIDTH - 1, (1, 2), MAX_VISPLANES as u16 - 1));
        // Room where a block is.
        assert!(v.mark(1, (5, 6), 0));
        assert_eq!(v.runs_of(0, 1).collect::<Vec<_>>(), [(5, 6)]);
        assert_eq!(v.runs_of(0, 0).collect::<Vec<_>>(), [(1, 2)]);
        assert_eq!(v.runs_of(0, BLOCK).collect::<Vec<_>>(), [(1, 2)]);
    }

    /// Any columns' runs of a visplane, turned into spans, are the
    /// pixels of the runs drawn one by one: each pixel once, no other.
    #[test]
    fn visplane_spans_draw_exactly_the_runs() {
        let flat = distinct_flat();
        let shades: Shades<u32> = Shades::new(&Palette::builtin());
        let (w, h) = (40usize, 30usize);
        let mut recip = [0u32; 30];
        draw::build_recip(&mut recip, w, h);
        let (f, plane) = (ODD_CAMERA, flat_plane(&flat));
        // Columns' runs that grow, shrink, jump, vanish and come back
        // (0: none), ending at the last column; a few upside down (what
        // `VisPlanes::mark` keeps if handed one).
        let mut seed = 7u64;
        let runs: Vec<u32> = (0..w)
            .map(|_| {
                let seed = crate::render::tests::xorshift(&mut seed);
                let (a, b) = ((seed >> 8) as usize % h, (seed >> 20) as usize % h);
                if seed.is_multiple_of(5) || a == b {
                    0
                } else if seed.is_multiple_of(7) {
                    // Upside down: drawn by neither.
                    (a.max(b) | a.min(b) << 16) as u32
                } else {
                    (a.min(b) | a.max(b) << 16) as u32
                }
            })
            .collect();
        const UNDRAWN: u32 = u32::MAX;
        let (mut spans, mut pixels) = (vec![UNDRAWN; w * h], vec![UNDRAWN; w * h]);
        let mut start = [0u16; MAX_SCREEN_HEIGHT];
        let mut t = Target {
            pixels: &mut spans,
            stride: w,
            recip: &recip,
            shades: &shades,
        };
        let mut prev = 0;
        for (x, &cur) in runs.iter().enumerate().chain([(w, &0)]) {
            make_spans(&mut t, &plane, f, &mut start, (prev, cur), x);
            prev = cur;
        }
        let mut t = Target {
            pixels: &mut pixels,
            stride: w,
            recip: &recip,
            shades: &shades,
        };
        for (x, &r) in runs.iter().enumerate() {
            draw_rows(
                &mut t,
                &plane,
                f,
                ((r & 0xffff) as usize, (r >> 16) as usize),
                x,
            );
        }
        assert!(spans == pixels);
        // (No pixel of the table is all ones: 0x00RRGGBB.)
        let drawn = pixels.iter().filter(|&&p| p != UNDRAWN).count();
        assert!(drawn > w * h / 8, "{drawn} pixels drawn");
    }
}
