//! What the screen shows, walked through the map's BSP (DOOM's `r_bsp`;
//! `segs` is its `r_segs`, the wall columns of one seg, and `overlays`
//! what is drawn over the walk, its `R_DrawMasked`). It draws by DOOM's
//! rules (pegging, light, the sky hack, see-through textures, sprite
//! clipping); a test holds its pictures to the plain reference walk
//! (`super::reference`).
//!
//! This file is the walk and the state it keeps for a frame (the
//! windows, the pools of sprite and see-through windows, the sky rows,
//! the run writer that hands columns to `draw`): one stage, longer than
//! the others, whose state its two children share without it being
//! visible to the rest of the renderer.
//!
//! ## The walk
//!
//! The tree is walked nearer side first, so subsectors come nearest
//! first. A seg facing the camera covers the columns whose rays pass
//! between its ends, found with exact side tests of the ends against
//! the columns' rays ([`sides`]). What does not change across the seg is
//! worked out once per seg (DOOM's `R_StoreWallRange`: the wall's
//! [`Prepared`] drawing, its textures, its floor and ceiling planes,
//! and its heights' screen images at the first and last column, stepped
//! in between as DOOM steps `topfrac`); then in each of its columns
//! still open the ray meets the seg's wall ([`exit_depth`], exact), and
//! the crossing is drawn within the column's window, which it then
//! narrows (`SegDraw::column`, DOOM's `R_RenderSegLoop`). A column whose
//! window closes (a one-sided wall, a closed door) is closed for good: a
//! bitset of the open columns skips closed ones (a count of trailing
//! zeros a word), and tells when a seg, or a node's bounding box seen
//! from the camera, covers no open column, so that the walk skips it.
//! Columns left open at the end show the background: the view leaks out
//! of the map there.
//!
//! Because subsectors come nearest first, each column sees its walls in
//! the order a ray cast down the column would meet them. The pictures
//! differ from such a ray's where the stepped rows round the other way
//! (a pixel at a wall's edge), where a ray passes within rounding of a
//! split point the node builder placed off its wall, and where the
//! map's sectors are not closed (a ray sees the background there, this
//! walk the walls beyond).
//!
//! ## What waits for the end of the walk
//!
//! Walls, the sky and the background are drawn as they are met. Floors
//! and ceilings are drawn in horizontal spans, which need the columns in
//! order (see `planes`): their runs are recorded plane by plane, at most
//! one a column in each of a plane's visplanes (DOOM's), and each
//! visplane's spans are drawn once the walk is done, before anything is
//! drawn over them. See-through middle textures and the sprites' clip
//! windows are recorded per column (the rows and the walk step; the
//! rest is worked out again when they are drawn). What does not fit in
//! the pools is drawn on the spot (a floor run: the same pixels) or
//! dropped and counted (a see-through texture, a sprite).

use heapless::Vec as HVec;

use super::cache::{column_overlap, sides, Ends, Rays, SectorCache};
use super::draw::{self, WallBatch, WallColumn, WallTexels};
use super::light;
use super::planes::{
    Cells, Current, Found, Planes, Target, VisPlane, VisPlanes, MAX_PLANE_BLOCKS, MAX_VISPLANES,
    NO_PLANE, SKY_PLANE,
};
use super::portal::{
    exit_depth, prepare, Hit, Inverse, Masked, Part, Prepared, SpriteClip, View, MAX_DEPTH,
    MAX_MASKED_PER_COLUMN, MIN_DEPTH,
};
use super::sprite::Visible;
use super::{cache::SectorRef, portal::TexSpan};
use super::{draw_background, draw_sky, Pixel, RenderStats, Shades};
use crate::config::{MAX_BSP_DEPTH, MAX_PORTALS_PER_COLUMN, MAX_SCREEN_WIDTH};
use crate::format::{BspBox, BspNodeRecord, BspView, SUBSECTOR_CHILD};
use crate::math::{div_floor_by, div_toward_zero_by, within, Division};
use crate::world::{Level, WallId};

mod overlays;
mod segs;
pub(crate) use overlays::column_overlays;
use segs::*;

/// Most sprite columns whose clip windows one frame records; a sprite
/// that does not fit is dropped (and counted).
const MAX_SPRITE_COLUMNS: usize = 2048;
/// Most walls with see-through middle textures one frame records, and
/// most of their columns; what does not fit is dropped (and counted).
const MAX_MASKED_WALLS: usize = 40;
const MAX_MASKED_COLUMNS: usize = 1792;
/// No entry.
const NONE: u16 = u16::MAX;

/// A clip window left in one column: rows `[top, bottom)`, and the walk
/// step that left it (-1: none), packed into 32 bits (rows 10 bits each,
/// the step 9 bits, offset by one): the pools hold thousands, and at 4
/// bytes rather than 6 they leave room on the stack for the rays
/// ([`RayTable`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window(u32);

// Rows `0..=MAX_SCREEN_HEIGHT` fit 10 bits, steps `-1..MAX_PORTALS_PER_COLUMN`
// 9 bits.
const _: () = assert!(crate::config::MAX_SCREEN_HEIGHT < 1 << 10);
const _: () = assert!(MAX_PORTALS_PER_COLUMN < 1 << 9);

impl Window {
    /// Rows `[top, bottom)` (within the screen), left by walk step `step`
    /// (-1: none).
    #[inline]
    fn new(top: i16, bottom: i16, step: i16) -> Window {
        let field = |v: i16, bits: u32| (v as u32) & ((1 << bits) - 1);
        Window(field(top, 10) | field(bottom, 10) << 10 | field(step.wrapping_add(1), 9) << 20)
    }

    fn top(self) -> i16 {
        (self.0 & 0x3ff) as i16
    }

    fn bottom(self) -> i16 {
        (self.0 >> 10 & 0x3ff) as i16
    }

    fn step(self) -> i16 {
        (self.0 >> 20 & 0x1ff) as i16 - 1
    }
}

/// Where a see-through wall's columns meet it: stepped across the seg's
/// columns as its wall parts are (where they are: a column's texture and
/// light then a column off the exact ones now and then, as a wall's),
/// or worked out exactly in each column from the wall's ends (the ray's
/// exit, a division a column).
#[derive(Copy, Clone, Debug)]
enum MaskedAt {
    /// [`DepthStep`]'s steps from the wall's first see-through column
    /// (its `x0` and `length` are the [`MaskedWall`]'s: the table of
    /// walls stays as large as with the ends alone).
    Stepped(Steps),
    Exact(Ends),
}

/// A wall with a see-through middle texture, seen from one side: how to
/// work out its texture column by column again (what [`overlays::see_through`]
/// needs of its [`Prepared`]), and where its columns' windows are in the
/// pool.
#[derive(Copy, Clone, Debug)]
pub(crate) struct MaskedWall {
    middle: Part,
    wall_light: u8,
    front: bool,
    length: crate::math::Fx,
    x_offset: i32,
    at: MaskedAt,
    /// Its columns `[x0, x1)`, their windows from `first` in the pool.
    x0: u16,
    x1: u16,
    first: u16,
}

/// Everything the BSP walk keeps for a frame (68 KiB on a 64-bit host,
/// sized for a 1024-column screen): what the walk itself keeps, the
/// floor and ceiling runs and the sky columns.
///
/// The tables are the caller's, each an empty local of its own (see
/// [`FrameTables::new`]): built inside one value, the empty tables would be
/// one constant, which the compiler copies in with a memset of all of
/// it every frame (tens of kilobytes through the N64's 8 KB data cache);
/// an empty table of its own is a length set to zero.
pub(crate) struct FrameTables<'s> {
    pub(crate) walk: WalkState<'s>,
    pub(crate) visplanes: VisPlanes<'s>,
    /// Each column's sky column once needed (a column's mirror is worked
    /// out with it, see [`View::sky_column_pair`]): in `-128..1152`
    /// (DOOM's 1024 a turn, from 45 degrees right of north to 45 left of
    /// it past a full turn), so 12 bits hold it; and the sky rows kept
    /// for it ([`SkyColumn`]).
    pub(crate) sky: &'s mut HVec<SkyColumn, MAX_SCREEN_WIDTH>,
}

/// A screen column's sky, in 32 bits (the table is one a column, on the
/// stack): its sky column (bits 20..32, offset by 2048; all set: not
/// worked out yet) and the rows `[y0, y1)` of sky met in it and not
/// drawn yet (bits 0..10 and 10..20; both 0: none; see
/// [`RunWriter::sky_rows`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct SkyColumn(u32);

// Rows up to the screen's height fit 10 bits.
const _: () = assert!(crate::config::MAX_SCREEN_HEIGHT < 1 << 10);

impl SkyColumn {
    /// No sky column worked out, no rows kept.
    const UNKNOWN: SkyColumn = SkyColumn(0xfff << 20);

    /// The sky column, if worked out.
    fn column(self) -> Option<i32> {
        let c = self.0 >> 20;
        (c != 0xfff).then_some(c as i32 - 2048)
    }

    /// The same rows kept, with sky column `c` (in `-2048..2047`:
    /// DOOM's sky columns are in `-128..1152`).
    fn with_column(self, c: i32) -> SkyColumn {
        let c = (c.clamp(-2048, 2046) + 2048) as u32;
        SkyColumn(self.0 & 0xf_ffff | c << 20)
    }

    /// The rows kept (`(0, 0)`: none).
    fn pending(self) -> (usize, usize) {
        ((self.0 & 0x3ff) as usize, (self.0 >> 10 & 0x3ff) as usize)
    }

    /// The same sky column, with rows `(y0, y1)` kept instead.
    fn with_pending(self, (y0, y1): (usize, usize)) -> SkyColumn {
        let rows = (y0 as u32 & 0x3ff) | (y1 as u32 & 0x3ff) << 10;
        SkyColumn(self.0 & !0xf_ffff | rows)
    }
}

/// The bytes the BSP walk's tables take on the stack: [`FrameTables`], the
/// tables it borrows, and the walk's own [`NearSprites`].
#[cfg(test)]
pub(crate) const STACK_BYTES: usize = {
    use core::mem::size_of;
    size_of::<FrameTables<'static>>()
        + size_of::<HVec<Column, MAX_SCREEN_WIDTH>>()
        + size_of::<OpenColumns>()
        + size_of::<HVec<Window, MAX_SPRITE_COLUMNS>>()
        + size_of::<HVec<MaskedWall, MAX_MASKED_WALLS>>()
        + size_of::<HVec<Window, MAX_MASKED_COLUMNS>>()
        + size_of::<HVec<VisPlane, MAX_VISPLANES>>()
        + size_of::<HVec<Cells, MAX_PLANE_BLOCKS>>()
        + size_of::<Current>()
        + size_of::<HVec<SkyColumn, MAX_SCREEN_WIDTH>>()
        + size_of::<NearSprites>()
        + size_of::<RayTable>()
};

impl<'s> FrameTables<'s> {
    /// The walk's tables, ready for `view`'s screen (every column open,
    /// no seg seen, no run, window or sky column kept), from empty ones
    /// (only what the screen needs is written).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        view: &View<'_>,
        columns: &'s mut HVec<Column, MAX_SCREEN_WIDTH>,
        open: &'s mut OpenColumns,
        windows: &'s mut HVec<Window, MAX_SPRITE_COLUMNS>,
        masked: &'s mut HVec<MaskedWall, MAX_MASKED_WALLS>,
        masked_windows: &'s mut HVec<Window, MAX_MASKED_COLUMNS>,
        visplanes: &'s mut HVec<VisPlane, MAX_VISPLANES>,
        cells: &'s mut HVec<Cells, MAX_PLANE_BLOCKS>,
        current: &'s mut Current,
        sky: &'s mut HVec<SkyColumn, MAX_SCREEN_WIDTH>,
        rays: &'s mut RayTable,
    ) -> FrameTables<'s> {
        let width = (view.width as usize).min(MAX_SCREEN_WIDTH);
        // (Elsewhere the table has no room, and stays empty.)
        if RAYS_IN_A_TABLE {
            fill_rays(view, rays);
        }
        // Every column open, with the whole screen's rows.
        columns.clear();
        let _ = columns.resize(
            width,
            Column {
                top: 0,
                bottom: view.height as i16,
                steps: 0,
                last_wall: NONE,
            },
        );
        // Bits 0..=width: the columns, and one past them, always open, so
        // that a search for the next open column ends there.
        for (i, word) in open.iter_mut().enumerate() {
            let first = i * 64;
            *word = match (width + 1).checked_sub(first) {
                None | Some(0) => 0,
                Some(n) if n >= 64 => u64::MAX,
                Some(n) => (1u64 << n) - 1,
            };
        }
        windows.clear();
        masked.clear();
        masked_windows.clear();
        sky.clear();
        let _ = sky.resize(width, SkyColumn::UNKNOWN);
        FrameTables {
            walk: WalkState {
                columns,
                open,
                sprite_first: [NONE; crate::render::MAX_VISIBLE_SPRITES],
                windows,
                masked,
                masked_windows,
                rays,
            },
            visplanes: VisPlanes::new(visplanes, cells, current),
            sky,
        }
    }
}

/// The open columns, a bit each (bit `x % 64` of word `x / 64`), and
/// the one past the screen's last, always set: where the walk's column
/// loops find the next column to draw with a count of trailing zeros
/// (DOOM keeps `solidsegs`, a list of closed ranges). 136 bytes, where a
/// table of the next open column was 2 KiB.
pub(crate) type OpenColumns = [u64; MAX_SCREEN_WIDTH / 64 + 1];

/// Each column's ray ([`View::ray`]), worked out once a frame: the walk
/// asks for rays thousands of times a frame, most of them in [`sides`]'
/// searches, where each ray worked out anew (a 128-bit product and two
/// more) lengthened a chain of dependent steps. A ray's components are
/// at most 2 in 16.16 bits: 32 bits hold them. 8 KiB.
///
/// On 64-bit targets only ([`RAYS_IN_A_TABLE`]; elsewhere the table
/// holds nothing and takes no room): the N64's in-order core measured
/// no faster with it, so there the rays are worked out where asked for.
/// They are the same rays.
#[cfg(target_pointer_width = "64")]
pub(crate) type RayTable = HVec<(i32, i32), MAX_SCREEN_WIDTH>;
#[cfg(not(target_pointer_width = "64"))]
pub(crate) type RayTable = HVec<(i32, i32), 0>;

/// Whether the walk reads rays from its [`RayTable`].
const RAYS_IN_A_TABLE: bool = cfg!(target_pointer_width = "64");

/// Fills `rays` with the screen's columns' rays, each as [`View::ray`]
/// gives it, by steps: a column's slope is its numerator
/// `(2x + 1 - width) << 16` divided by the width, and the numerator
/// grows by the same amount from column to column, so the quotient and
/// remainder are carried along (one division, at the centre), and the
/// columns left of the centre mirror those right of it (the slope
/// rounds towards zero: mirrored columns, mirrored slopes, and the
/// rays' sideways parts round so too). Worked out one by one, a ray
/// takes a 128-bit product, a library call on the N64.
fn fill_rays(view: &View<'_>, rays: &mut RayTable) {
    let w = (view.width.max(1) as usize).min(MAX_SCREEN_WIDTH);
    rays.clear();
    let _ = rays.resize(w, (0, 0));
    let wide = w as i64;
    // The first column whose numerator is not negative.
    let centre = w / 2;
    let n = (2 * centre as i64 + 1 - wide) << 16;
    let (mut q, mut r) = (n / wide, n % wide);
    let (dq, dr) = ((2 << 16) / wide, (2 << 16) % wide);
    let side = |f: i64, r: i64, k: i64| f + (r * k) / (1 << 16);
    for ray in rays.iter_mut().skip(centre) {
        let (dx, dy) = (side(view.fx, view.rx, q), side(view.fy, view.ry, q));
        // Components at most 2 in 16.16 bits: 32 bits hold them.
        *ray = (dx as i32, dy as i32);
        q += dq;
        r += dr;
        if r >= wide {
            r -= wide;
            q += 1;
        }
    }
    // Column x mirrors column w - 1 - x, right of the centre.
    for x in 0..centre {
        let Some(&(dx, dy)) = rays.get(w - 1 - x) else {
            continue;
        };
        if let Some(ray) = rays.get_mut(x) {
            *ray = (
                (2 * view.fx - dx as i64) as i32,
                (2 * view.fy - dy as i64) as i32,
            );
        }
    }
}

/// [`View::ray`] for a column the table does not hold (none: it holds
/// every column of the screen; out of line, so that the searches that
/// read the table carry none of it).
#[cold]
#[inline(never)]
fn ray_past_the_table(view: &View<'_>, x: usize) -> (i64, i64) {
    view.ray(x)
}

/// The view's rays, read from the frame's [`RayTable`].
#[derive(Copy, Clone)]
struct TableRays<'t, 'a> {
    view: &'t View<'a>,
    rays: &'t [(i32, i32)],
}

impl Rays for TableRays<'_, '_> {
    #[inline]
    fn division(&self) -> crate::math::Division {
        self.view.division
    }

    fn columns(&self) -> usize {
        self.view.columns()
    }

    #[inline]
    fn ray(&self, x: usize) -> (i64, i64) {
        if !RAYS_IN_A_TABLE {
            return self.view.ray(x);
        }
        match self.rays.get(x) {
            Some(&(dx, dy)) => (dx as i64, dy as i64),
            None => ray_past_the_table(self.view, x),
        }
    }

    #[inline]
    fn edge_rays(&self) -> ((i64, i64), (i64, i64)) {
        self.view.edge_rays
    }

    fn guess(&self, x: i64, y: i64) -> usize {
        self.view.guess(x, y)
    }
}

/// One column's state in the walk.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Column {
    /// The open window.
    top: i16,
    bottom: i16,
    /// Walk steps taken, and the wall last crossed.
    steps: u16,
    last_wall: u16,
}

/// What the walk keeps per column and per sprite.
pub(crate) struct WalkState<'s> {
    /// Each column's open window, the walk steps taken in it and the wall
    /// last crossed.
    columns: &'s mut HVec<Column, MAX_SCREEN_WIDTH>,
    /// Which columns are open (see [`OpenColumns`]).
    open: &'s mut OpenColumns,
    /// Each visible sprite's first window in `windows` ([`NONE`]: not
    /// kept), and the windows.
    sprite_first: [u16; crate::render::MAX_VISIBLE_SPRITES],
    windows: &'s mut HVec<Window, MAX_SPRITE_COLUMNS>,
    masked: &'s mut HVec<MaskedWall, MAX_MASKED_WALLS>,
    masked_windows: &'s mut HVec<Window, MAX_MASKED_COLUMNS>,
    /// Each column's ray.
    rays: &'s RayTable,
}

impl WalkState<'_> {
    /// The first open column at or after `x` (the width if none, or
    /// [`MAX_SCREEN_WIDTH`] past it).
    #[inline]
    fn first_open(&self, x: usize) -> usize {
        let mut word = x / 64;
        let Some(&first) = self.open.get(word) else {
            return MAX_SCREEN_WIDTH;
        };
        let mut bits = first & (u64::MAX << (x % 64));
        loop {
            if bits != 0 {
                return word * 64 + bits.trailing_zeros() as usize;
            }
            word += 1;
            bits = match self.open.get(word) {
                Some(&b) => b,
                None => return MAX_SCREEN_WIDTH,
            };
        }
    }

    /// The first closed column at or after `x` (past the screen if
    /// none: the bit past its last column is always set): an open run of
    /// columns from an open `x` ends there.
    #[inline]
    fn first_closed(&self, x: usize) -> usize {
        let mut word = x / 64;
        let Some(&first) = self.open.get(word) else {
            return MAX_SCREEN_WIDTH;
        };
        let mut bits = !first & (u64::MAX << (x % 64));
        loop {
            if bits != 0 {
                return word * 64 + bits.trailing_zeros() as usize;
            }
            word += 1;
            bits = match self.open.get(word) {
                Some(&b) => !b,
                None => return MAX_SCREEN_WIDTH,
            };
        }
    }

    /// Closes column `x` for the rest of the walk.
    #[inline]
    fn close(&mut self, x: usize) {
        if let Some(word) = self.open.get_mut(x / 64) {
            *word &= !(1u64 << (x % 64));
        }
    }

    /// Whether visible sprite `i` has windows (see [`BspWalk::arrive`]).
    pub(crate) fn has_windows(&self, i: usize) -> bool {
        self.sprite_first.get(i).is_some_and(|&f| f != NONE)
    }

    /// The clip window of visible sprite `i` in column `x` (all rows, no
    /// step, if no wall hides it there); `None` if it was not kept.
    fn sprite_window(&self, i: usize, v: &Visible<'_>, x: usize, height: i64) -> Option<Window> {
        let first = *self.sprite_first.get(i)?;
        if first == NONE {
            return None;
        }
        let w = self.windows.get(first as usize + x.checked_sub(v.x0)?)?;
        Some(if w.step() < 0 {
            Window::new(0, height as i16, -1)
        } else {
            *w
        })
    }
}

/// `n` windows `fill` added at the end of `pool`, and where they start;
/// `None` (nothing added) if they do not fit.
fn reserve<const N: usize>(pool: &mut HVec<Window, N>, n: usize, fill: Window) -> Option<u16> {
    let first = pool.len();
    if first + n > N {
        return None;
    }
    for _ in 0..n {
        let _ = pool.push(fill);
    }
    Some(first as u16)
}

/// Hands the walk's runs to the screen: walls, the sky and the background
/// drawn now, floor and ceiling runs recorded for the replay.
pub(crate) struct RunWriter<'r, 'a, P, const HOLD: bool> {
    pub(crate) level: &'r Level<'a>,
    pub(crate) view: &'r View<'a>,
    pub(crate) pixels: &'r mut [P],
    pub(crate) stride: usize,
    pub(crate) recip: &'r [u32],
    pub(crate) shades: &'r Shades<P>,
    /// Wall columns held back to be drawn with their neighbours, if
    /// `HOLD` (see [`WallBatch`]): flushed by [`RunWriter::flush_walls`].
    pub(crate) walls: &'r mut WallBatch<'r, P>,
    pub(crate) planes: &'r mut Planes<'a>,
    pub(crate) visplanes: VisPlanes<'r>,
    /// Each column's sky column, once needed (see [`FrameTables::sky`]).
    pub(crate) sky: &'r mut [SkyColumn],
    /// The column being drawn.
    pub(crate) x: usize,
}

impl<'r, 'a, P: Pixel, const HOLD: bool> RunWriter<'r, 'a, P, HOLD> {
    /// Nothing seen in rows `rows` of this column: the background.
    fn background(&mut self, rows: (usize, usize)) {
        draw_background(self.pixels, self.stride, self.x, rows);
    }

    /// The sky in rows `rows` of this column: kept, and grown by the
    /// rows of sky met next in the column when the two touch (the sky
    /// ceilings of the sectors a column's ray crosses one after another
    /// meet: one fill instead of one a sector); rows apart from the kept
    /// ones draw those and are kept instead ([`RunWriter::flush_sky`]
    /// draws what is left). (Not inlined: called from the seg's column
    /// loop, whose registers it would crowd.)
    #[inline(never)]
    fn sky_rows(&mut self, (y0, y1): (usize, usize)) {
        let x = self.x;
        let Some(sky) = self.sky.get_mut(x) else {
            return;
        };
        let (k0, k1) = sky.pending();
        let rows = if (k0, k1) == (0, 0) {
            (y0, y1)
        } else if k1 == y0 {
            // Just below the kept rows.
            (k0, y1)
        } else if y1 == k0 {
            // Just above.
            (y0, k1)
        } else {
            // Apart: the kept rows drawn, these kept.
            *sky = sky.with_pending((y0, y1));
            return self.draw_sky_rows(x, (k0, k1));
        };
        *sky = sky.with_pending(rows);
    }

    /// Draws the sky rows still kept, in every column.
    /// Draws the wall columns still held (see [`RunWriter::walls`]):
    /// before anything is drawn over the walls.
    pub(crate) fn flush_walls(&mut self) {
        self.walls.flush(self.pixels, self.stride);
    }

    /// Holds a textured wall column back (see [`RunWriter::walls`]), or
    /// draws it now if its texture is not prepared. Out of line, so that
    /// the seg's column loop, which calls it or `fill_wall`, is compiled
    /// as it is without batches.
    #[inline(never)]
    fn hold_textured(
        &mut self,
        run: (usize, usize, usize),
        texel_rows: (i32, i64, i64),
        texels: WallTexels<'a>,
        shade: &'r [P; 256],
    ) {
        match WallColumn::textured(run, texel_rows, &texels, shade) {
            Some(column) => self.walls.push(self.pixels, self.stride, column),
            None => draw::fill_wall(self.pixels, self.stride, run, texel_rows, &texels, shade),
        }
    }

    /// Holds an untextured wall column back (see [`RunWriter::walls`]).
    #[inline(never)]
    fn hold_solid(&mut self, run: (usize, usize, usize), pixel: P) {
        self.walls
            .push(self.pixels, self.stride, WallColumn::solid(run, pixel));
    }

    pub(crate) fn flush_sky(&mut self) {
        for x in 0..self.sky.len() {
            let rows = self.sky.get(x).map_or((0, 0), |s| s.pending());
            if rows != (0, 0) {
                self.draw_sky_rows(x, rows);
            }
        }
    }

    /// The sky in rows `rows` of column `x`.
    fn draw_sky_rows(&mut self, x: usize, rows: (usize, usize)) {
        let known = self.sky.get(x).and_then(|s| s.column());
        let column = match known {
            Some(c) => c,
            None => {
                // This column's and, for when it is needed, its mirror's.
                let (here, mirror) = self.view.sky_column_pair(x);
                if let Some(c) = self.sky.get_mut(x) {
                    *c = c.with_column(here);
                }
                let m = (self.view.width as usize).wrapping_sub(1 + x);
                if let Some(c) = self.sky.get_mut(m) {
                    *c = c.with_column(mirror);
                }
                here.clamp(-2048, 2046)
            }
        };
        draw_sky(
            self.pixels,
            self.stride,
            self.view,
            self.shades,
            x,
            column,
            rows,
        );
    }
}

/// The side of `node`'s partition the point `(px, py)` (16.16 bits) is
/// on: 0 (the right, the front) or 1 (the left, or on the line),
/// exactly.
fn side_of(px: i64, py: i64, node: &BspNodeRecord) -> usize {
    let bits = |f: crate::math::Fx| f.to_bits() as i128;
    let (px, py) = (px as i128, py as i128);
    let cross = bits(node.dx) * (py - bits(node.y)) - bits(node.dy) * (px - bits(node.x));
    (cross >= 0) as usize
}

/// Walks `bsp` from the camera of `view`, drawing walls, the sky and the
/// background into the run writer's frame and recording floor and ceiling
/// runs, see-through textures and the clip windows of `visible` in
/// `scratch`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn walk<'a, P: Pixel, const HOLD: bool>(
    level: &Level<'a>,
    view: &View<'a>,
    bsp: &BspView<'a>,
    cache: &mut SectorCache<'a>,
    rec: &mut RunWriter<'_, 'a, P, HOLD>,
    scratch: &mut WalkState<'_>,
    visible: &[Visible<'a>],
    stats: &mut RenderStats,
) {
    let width = (view.width as usize).min(MAX_SCREEN_WIDTH);
    // Every visible sprite may show; none has windows yet (see
    // `BspWalk::arrive`).
    let near = NearSprites::new(visible.iter().map(|v| (v.x0, v.x1)));
    let mut w = BspWalk {
        level,
        view,
        cache,
        scratch,
        visible,
        near,
        arrived: 0,
        stats,
        width,
    };
    if w.view.routes.eager_sprites {
        for k in 0..visible.len() {
            w.arrive(k);
        }
    }
    // Nearer sides first; each pending far side waits on the stack with
    // its node (the depth was bounded at load, so it fits).
    let mut stack: HVec<(u16, usize), { MAX_BSP_DEPTH + 1 }> = HVec::new();
    let mut child = bsp.root();
    loop {
        while child & SUBSECTOR_CHILD == 0 {
            let node = bsp.node(child as usize);
            let side = side_of(view.px, view.py, &node);
            if stack.push((child, side)).is_err() {
                break;
            }
            child = node.child.get(side).copied().unwrap_or(SUBSECTOR_CHILD);
        }
        if child & SUBSECTOR_CHILD != 0 {
            let s = bsp.subsector((child & !SUBSECTOR_CHILD) as usize);
            for i in s.first_seg as usize..s.first_seg as usize + s.seg_count as usize {
                w.seg(bsp, i, rec);
            }
        }
        if w.scratch.first_open(0) >= width {
            break;
        }
        let mut far = None;
        while let Some((n, side)) = stack.pop() {
            let node = bsp.node(n as usize);
            let (Some(b), Some(&c)) = (node.bbox.get(side ^ 1), node.child.get(side ^ 1)) else {
                continue;
            };
            if w.box_in_view(b) {
                far = Some(c);
                break;
            }
        }
        match far {
            Some(c) => child = c,
            None => break,
        }
    }
    // A sprite that no seg left in front of it never arrived: every seg
    // across its columns hid it, and each column's last such seg left it
    // the window the column ends with. (Where all its columns are
    // closed, it shows nowhere: no windows needed.)
    for (k, v) in visible.iter().enumerate() {
        if w.arrived >> k & 1 == 0 && w.scratch.first_open(v.x0) < v.x1 {
            w.arrive(k);
        }
    }
    w.stats.sprite_windows = w.scratch.windows.len() as u32;
    // What no wall closed shows the background, as where the column
    // walk's ray leaves the map.
    for x in 0..width {
        let Some(&Column {
            top: t,
            bottom: b,
            steps: s,
            ..
        }) = w.scratch.columns.get(x)
        else {
            break;
        };
        if t < b {
            rec.x = x;
            rec.background((t as usize, b as usize));
            let stats = &mut *w.stats;
            if s as usize >= MAX_PORTALS_PER_COLUMN {
                stats.columns_truncated = stats.columns_truncated.saturating_add(1);
            } else {
                stats.columns_leaked = stats.columns_leaked.saturating_add(1);
            }
        }
    }
}

struct BspWalk<'w, 's, 'a> {
    level: &'w Level<'a>,
    view: &'w View<'a>,
    cache: &'w mut SectorCache<'a>,
    scratch: &'w mut WalkState<'s>,
    visible: &'w [Visible<'a>],
    /// Which of them each block of columns may show.
    near: NearSprites,
    /// Which of them have arrived (a bit each; see [`BspWalk::arrive`]).
    arrived: u128,
    stats: &'w mut RenderStats,
    width: usize,
}

/// Columns to a block of [`NearSprites`]: about a short seg's width, so
/// that a seg's blocks seldom name a sprite that covers none of its
/// columns (coarser blocks do, often enough for the overlap test to be
/// mispredicted). Finer blocks cost more to OR together across a long
/// seg than they save. The masks take 2 KiB.
const SPRITE_BLOCK: usize = 8;

/// The visible sprites, by blocks of [`SPRITE_BLOCK`] columns: bit `k`
/// of a block's mask says sprite `k` covers a column of it. A seg tests
/// only the sprites its blocks may show (a frame has tens of sprites
/// and hundreds of segs, and the test of each pair was a branch the
/// predictor often missed: on MAP12's turn, 700 of its mispredictions
/// a frame).
struct NearSprites {
    blocks: [u128; MAX_SCREEN_WIDTH.div_ceil(SPRITE_BLOCK)],
}

// A bit for every visible sprite.
const _: () = assert!(crate::render::MAX_VISIBLE_SPRITES <= u128::BITS as usize);

impl NearSprites {
    /// Sprite `k` covers the `k`th columns `[x0, x1)` (empty: none).
    fn new(columns: impl IntoIterator<Item = (usize, usize)>) -> NearSprites {
        let mut blocks = [0u128; MAX_SCREEN_WIDTH.div_ceil(SPRITE_BLOCK)];
        for (k, (x0, x1)) in columns.into_iter().enumerate() {
            if x0 >= x1 || k >= u128::BITS as usize {
                continue;
            }
            let last = (x1 - 1) / SPRITE_BLOCK;
            for b in blocks.iter_mut().take(last + 1).skip(x0 / SPRITE_BLOCK) {
                *b |= 1 << k;
            }
        }
        NearSprites { blocks }
    }

    /// The sprites that may cover columns `[x0, x1)` (not empty).
    #[inline]
    fn within(&self, x0: usize, x1: usize) -> u128 {
        let last = x1.saturating_sub(1) / SPRITE_BLOCK;
        self.blocks
            .iter()
            .take(last + 1)
            .skip(x0 / SPRITE_BLOCK)
            .fold(0, |m, &b| m | b)
    }
}

impl<'a> BspWalk<'_, '_, 'a> {
    /// Visible sprite `k` arrives: its clip windows, from here on kept
    /// seg by seg, start as its columns are now. A sprite's window in a
    /// column is what the last seg across the column that hides it left
    /// there; while every seg across its columns hides it, that is the
    /// column as it is, so the walk keeps no windows for it and copies
    /// none: it arrives at the first seg across its columns that does
    /// not hide it (before that seg is drawn), or after the walk if some
    /// column shows it. The pictures are the same (a test checks); most
    /// sprites in view on a large map stand behind walls and never
    /// arrive, so their windows are never copied seg after seg. One that
    /// does not fit the pool is dropped (and counted).
    fn arrive(&mut self, k: usize) {
        if k >= u128::BITS as usize {
            return;
        }
        self.arrived |= 1 << k;
        let sc = &mut *self.scratch;
        let Some(v) = self.visible.get(k) else {
            return;
        };
        let first = sc.windows.len();
        let (Some(columns), Some(slot)) = (sc.columns.get(v.x0..v.x1), sc.sprite_first.get_mut(k))
        else {
            return;
        };
        if first + columns.len() > MAX_SPRITE_COLUMNS {
            let stats = &mut *self.stats;
            stats.sprites_dropped = stats.sprites_dropped.saturating_add(1);
            stats.sprites_drawn = stats.sprites_drawn.saturating_sub(1);
            return;
        }
        for c in columns {
            let _ = sc
                .windows
                .push(Window::new(c.top, c.bottom, c.steps as i16 - 1));
        }
        *slot = first as u16;
    }

    /// Whether any open column may see into box `b` (DOOM's
    /// `R_CheckBBox`): the columns between the two corners that bound it
    /// as seen from the camera, by the exact side tests, one column wider
    /// each way.
    fn box_in_view(&mut self, b: &BspBox) -> bool {
        let v = self.view;
        let bits = |f: crate::math::Fx| f.to_bits() as i64;
        let (t, bo, l, r) = (bits(b.top), bits(b.bottom), bits(b.left), bits(b.right));
        let (px, py) = (v.px, v.py);
        let bx = if px <= l {
            0
        } else if px < r {
            1
        } else {
            2
        };
        let by = if py >= t {
            0
        } else if py > bo {
            1
        } else {
            2
        };
        // The corner seen on the left, then the one on the right.
        let corners = match (bx, by) {
            (0, 0) => ((r, t), (l, bo)),
            (1, 0) => ((r, t), (l, t)),
            (2, 0) => ((r, bo), (l, t)),
            (0, 1) => ((l, t), (l, bo)),
            (2, 1) => ((r, bo), (r, t)),
            (0, 2) => ((l, t), (r, bo)),
            (1, 2) => ((l, bo), (r, bo)),
            (2, 2) => ((l, bo), (r, t)),
            // The camera is inside.
            _ => return true,
        };
        let (c1, c2) = (
            (corners.0 .0 - px, corners.0 .1 - py),
            (corners.1 .0 - px, corners.1 .1 - py),
        );
        // Half a turn or more between them (the camera on the box's
        // edge): anything may show.
        let turn = c1.0 as i128 * c2.1 as i128 - c1.1 as i128 * c2.0 as i128;
        let (x0, x1) = if turn >= 0 {
            (0, self.width)
        } else if let Some(rough) = box_columns_near(v, c1, c2, self.width) {
            rough
        } else {
            let sight = TableRays {
                view: v,
                rays: self.scratch.rays,
            };
            box_columns(&sight, c1, c2, self.width)
        };
        self.scratch.first_open(x0) < x1
    }

    /// Draws seg `i` in the open columns it covers.
    fn seg<P: Pixel, const HOLD: bool>(
        &mut self,
        bsp: &BspView<'a>,
        i: usize,
        rec: &mut RunWriter<'_, 'a, P, HOLD>,
    ) {
        let (level, view) = (self.level, self.view);
        let s = bsp.seg(i);
        let rel = |x: crate::math::Fx, y: crate::math::Fx| {
            (x.to_bits() as i64 - view.px, y.to_bits() as i64 - view.py)
        };
        let (f, t) = (rel(s.from.x, s.from.y), rel(s.to.x, s.to.y));
        let sight = TableRays {
            view,
            rays: self.scratch.rays,
        };
        let Some((x0, x1)) = facing_columns(&sight, f, t, self.width) else {
            return;
        };
        let x = self.scratch.first_open(x0);
        if x >= x1 {
            return;
        }
        let id = WallId(s.wall);
        let wall = level.wall(id);
        let front = !s.back;
        let sector = match (front, wall.back) {
            (true, _) => wall.front,
            (false, Some(b)) => b,
            (false, None) => return,
        };
        let here_ref = self.cache.sector(level, view, sector);
        let next_ref = wall
            .other_side(sector)
            .map(|o| self.cache.sector(level, view, o));
        let here = self.cache.get(here_ref);
        let there = next_ref.map(|r| self.cache.get(r));
        let prep = prepare(
            level, view, self.cache, id, &wall, sector, here, there, front,
        );
        if prep.unseen() {
            return;
        }
        let ends = Ends::new(view, &wall);
        let cross = ends.cross();
        // The sprites in these columns that the wall hides.
        let mut hidden: HVec<u8, { crate::render::MAX_VISIBLE_SPRITES }> = HVec::new();
        let mut near = self.near.within(x, x1);
        while near != 0 {
            let k = near.trailing_zeros() as usize;
            near &= near - 1;
            let Some(v) = self.visible.get(k) else {
                break;
            };
            if v.x1 <= x || v.x0 >= x1 {
                continue;
            }
            let probe = SpriteClip {
                depth: v.depth,
                at: (v.x, v.y),
                top: 0,
                bottom: 0,
                slot: -1,
                index: k as u8,
            };
            let arrived = self.arrived >> k & 1 != 0;
            if prep.occluder.hides(&probe, || ends) {
                if arrived {
                    let _ = hidden.push(k as u8);
                }
            } else if !arrived {
                self.arrive(k);
            }
        }
        let columns = (x, x1 - 1);
        let hits = end_hits(&sight, &ends, cross, front, columns);
        let stepped = hits.and_then(|h| Stepped::new(view, &prep, h.inverses, columns));
        // A wall none of whose parts shows needs no depth stepping.
        let passes = prep.next.is_some()
            && !prep.upper_shows
            && !prep.lower_shows
            && prep.middle.texture == crate::format::NONE;
        let across = match hits {
            Some(h) if !rec.view.routes.exact_segs && !passes => {
                DepthStep::new(&ends, front, prep.length, h, columns, view.division)
            }
            _ => None,
        };
        let cache: &SectorCache<'a> = self.cache;
        let planes = [false, true].map(|ceiling| rec.planes.known(here_ref, ceiling));
        let visplanes = planes.map(|p| rec.visplanes.visplane_of(p));
        let mut draw = SegDraw::new(level, cache, &prep, here_ref, planes, visplanes);
        // (A test opens every middle, to check that closing changes no pixel.)
        draw.middle_closes &= !self.view.routes.open_middles;
        let span = SegSpan {
            id,
            columns: (x, x1),
            ends,
        };
        let masked_before = self.scratch.masked.len();
        // Five copies of the column loop, so that the usual ones carry
        // nothing of the others: stepped depths (where both ends were
        // met: all but a handful of a frame's columns) for one-sided
        // walls, for two-sided walls, for two-sided walls whose opaque
        // middle texture closes the column and for two-sided walls none
        // of whose parts shows, and each column worked out exactly
        // otherwise.
        match (&across, &stepped) {
            (Some(a), Some(st)) => {
                let hit_at = |x| Some((a, st.rows(x)));
                match prep.next {
                    None => self.columns::<_, _, OneSided, HOLD>(&span, &mut draw, rec, hit_at),
                    Some(_) if draw.middle_closes => {
                        self.columns::<_, _, Closing, HOLD>(&span, &mut draw, rec, hit_at)
                    }
                    Some(_) => self.columns::<_, _, TwoSided, HOLD>(&span, &mut draw, rec, hit_at),
                }
            }
            (None, Some(st)) if passes && !rec.view.routes.exact_segs => {
                let hit_at = |x| Some((Unseen, st.rows(x)));
                self.columns::<_, _, Portal, HOLD>(&span, &mut draw, rec, hit_at)
            }
            _ => self.columns::<_, _, EitherSide, HOLD>(&span, &mut draw, rec, |x| {
                let (dx, dy) = sight.ray(x);
                let hit = exit_depth(dx, dy, &ends, front, !front, || cross)?;
                let depth = hit.depth.bits(self.view.division);
                let rows = match &stepped {
                    Some(st) => st.rows(x),
                    None => {
                        let inv = Inverse::of(depth, self.view.division);
                        prep.continued(prep.heights().map(|dh| view.project_inv(dh, inv)))
                    }
                };
                Some((ExactAt { hit, depth }, rows))
            }),
        }
        let sc = &mut *self.scratch;
        // Its see-through texture's columns stepped as its walls' were
        // (set here, not in the column loop, which then carries nothing
        // of it).
        if let (Some(a), Some(_)) = (&across, &stepped) {
            for m in sc.masked.get_mut(masked_before..).unwrap_or_default() {
                m.at = MaskedAt::Stepped(a.steps_from(m.x0 as usize));
            }
        }
        // The windows this seg left the sprites it hides, in the columns
        // its wall crossed: those whose wall last crossed is its own (a
        // ray crosses a wall once; a column another seg of the wall
        // crossed before was left as this one would leave it, its
        // sprites' windows with it).
        for &k in hidden.iter() {
            let (Some(v), Some(&first)) = (
                self.visible.get(k as usize),
                sc.sprite_first.get(k as usize),
            ) else {
                continue;
            };
            if first == NONE {
                continue;
            }
            // Columns [a, b) (the sprite's columns from `a - v.x0` on),
            // as slices: no look-up a column.
            let (a, b) = (v.x0.max(x0), v.x1.min(x1));
            let columns = sc.columns.get(a..b.min(sc.columns.len()));
            let from = first as usize + (a - v.x0);
            let windows = sc.windows.get_mut(from..).unwrap_or_default();
            // Which columns this seg crossed follows the map, not a
            // pattern: a select, not a branch.
            for (c, w) in columns.unwrap_or_default().iter().zip(windows) {
                let crossed = Window::new(c.top, c.bottom, c.steps as i16 - 1);
                *w = core::hint::select_unpredictable(c.last_wall == id.0, crossed, *w);
            }
        }
    }

    /// The columns of the seg `span` that are still open, each met at
    /// `hit_at(x)` (`None`: the column's ray misses the wall), drawn with
    /// `draw`. (Not inlined: each copy is allocated registers for
    /// itself, with none of the seg's set-up live around it.)
    #[inline(never)]
    fn columns<P: Pixel, A: WallAt, S: SegKind, const HOLD: bool>(
        &mut self,
        span: &SegSpan,
        draw: &mut SegDraw<'_, 'a>,
        rec: &mut RunWriter<'_, 'a, P, HOLD>,
        hit_at: impl Fn(usize) -> Option<(A, [i64; 4])>,
    ) {
        let SegSpan {
            id,
            columns: (mut x, x1),
            ends,
        } = *span;
        let cache: &SectorCache<'a> = self.cache;
        let sc = &mut *self.scratch;
        let mut masked_wall: Option<usize> = None;
        // Counted here and added once (the counts in memory would be
        // loaded and stored in every column).
        let (mut tested, mut crossed_portals) = (0u32, 0u32);
        // Column by column through each run of open columns (`x` is
        // open): the run's end found once, not the next open column
        // after each (closing a column leaves the rest of its run open).
        let mut run_end = sc.first_closed(x).min(x1);
        while x < x1 {
            if x >= run_end {
                x = sc.first_open(x);
                if x >= x1 {
                    break;
                }
                run_end = sc.first_closed(x).min(x1);
            }
            let Some(&Column {
                top,
                bottom,
                steps: step,
                last_wall: last,
                ..
            }) = sc.columns.get(x)
            else {
                break;
            };
            tested += 1;
            let Some((at, rows)) = hit_at(x) else {
                x += 1;
                continue;
            };
            if last == id.0 || step as usize >= MAX_PORTALS_PER_COLUMN {
                x += 1;
                continue;
            }
            rec.x = x;
            let crossed =
                draw.column::<P, A, S, HOLD>(rec, cache, &at, rows, (top as i64, bottom as i64));
            let (new_top, new_bottom) = crossed.window.unwrap_or((0, 0));
            if let Some(c) = sc.columns.get_mut(x) {
                *c = Column {
                    top: new_top as i16,
                    bottom: new_bottom as i16,
                    steps: step + 1,
                    last_wall: id.0,
                };
            }
            let open = new_top < new_bottom;
            if open {
                crossed_portals += 1;
            }
            if let Some((y0, y1)) = crossed.see_through {
                if masked_wall.is_none() {
                    masked_wall = new_masked_wall(sc, draw.prep, ends, (x, x1));
                }
                let entry = masked_wall
                    .and_then(|m| sc.masked.get(m))
                    .map(|m| m.first as usize + x - m.x0 as usize);
                match entry.and_then(|e| sc.masked_windows.get_mut(e)) {
                    Some(w) => *w = Window::new(y0 as i16, y1 as i16, step as i16),
                    None => {
                        self.stats.masked_dropped = self.stats.masked_dropped.saturating_add(1);
                    }
                }
            }
            if !open {
                sc.close(x);
            }
            x += 1;
        }
        let stats = &mut *self.stats;
        stats.walls_tested = stats.walls_tested.saturating_add(tested);
        stats.portals_crossed = stats.portals_crossed.saturating_add(crossed_portals);
    }
}

/// Whether the two-sided wall `prep`'s middle texture is opaque (not
/// masked: every texel is drawn) and covers the opening between the
/// lower ceiling and the higher floor ([`Closing`]).
fn middle_closes(level: &Level<'_>, prep: &Prepared) -> bool {
    let middle = prep.middle;
    if middle.texture == crate::format::NONE {
        return false;
    }
    let Some(texture) = level.map().texture(middle.texture) else {
        return false;
    };
    if texture.flags & crate::format::texture_flag::MASKED != 0 {
        return false;
    }
    middle_covers(middle.top, texture.height, prep.heights())
}

/// Whether a texture `height` texels tall whose row 0 is at `top` (16.16
/// bits, from the eye) covers the opening of a two-sided wall whose
/// `heights` are [`Prepared::heights`]: from the lower ceiling down to
/// the higher floor.
fn middle_covers(top: i64, height: u16, heights: [i64; 4]) -> bool {
    let [front_top, front_floor, back_ceiling, back_floor] = heights;
    top >= front_top.min(back_ceiling)
        && top - ((height as i64) << 16) <= front_floor.max(back_floor)
}

/// A see-through wall drawn by `prep`, with ends `ends`, whose first
/// see-through column is `x` of the seg's `[x, x1)`: its place in the
/// walk's table (its windows reserved, none kept yet); `None` if the
/// table or the pool is full. Worked out exactly in each column until
/// the seg steps it (after its column loop). (Out of the column loop,
/// which meets one a few times a frame.)
#[cold]
#[inline(never)]
fn new_masked_wall(
    sc: &mut WalkState<'_>,
    prep: &Prepared,
    ends: Ends,
    (x, x1): (usize, usize),
) -> Option<usize> {
    if sc.masked.is_full() {
        return None;
    }
    let first = reserve(sc.masked_windows, x1 - x, Window::new(0, 0, -1))?;
    sc.masked
        .push(MaskedWall {
            middle: prep.middle,
            wall_light: prep.wall_light,
            front: prep.front,
            length: prep.length,
            x_offset: prep.x_offset,
            at: MaskedAt::Exact(ends),
            x0: x as u16,
            x1: x1 as u16,
            first,
        })
        .ok()?;
    Some(sc.masked.len() - 1)
}

/// The columns that may see into a BSP node's box whose silhouette's
/// corners are `c1` (seen on the left) and `c2` (camera-relative, 16.16
/// bits, less than half a turn apart): those between the corners by
/// the exact side tests, one column wider each way (empty: `(0, 0)`).
fn box_columns(view: &impl Rays, c1: (i64, i64), c2: (i64, i64), width: usize) -> (usize, usize) {
    let (x0, x1) = column_overlap(
        sides(view, c1.0, c1.1).nonneg,
        sides(view, c2.0, c2.1).nonpos,
    );
    if x0 >= x1 {
        return (0, 0);
    }
    (x0.saturating_sub(1), (x1 + 1).min(width))
}

/// [`box_columns`], or more (a box is only culled by it: a wider range
/// walks a node in vain, never hides one), from where the corners
/// project ([`Rays::guess`]) without the side tests, for corners at
/// least a map unit in front of the camera; `None` for nearer ones.
/// There a corner's change of side is at its guess, the column before
/// or the two after (the guess's roundings are far below a column's
/// width): from three columns before the left corner's guess to four
/// after the right one's holds the exact range, widened, with a column
/// to spare.
fn box_columns_near(
    view: &View<'_>,
    c1: (i64, i64),
    c2: (i64, i64),
    width: usize,
) -> Option<(usize, usize)> {
    const NEAR: i64 = 1 << 16;
    let in_front = |(x, y): (i64, i64)| view.view_coords(x, y).0 >= NEAR;
    if !(in_front(c1) && in_front(c2)) {
        return None;
    }
    let (g1, g2) = (view.guess(c1.0, c1.1), view.guess(c2.0, c2.1));
    Some((g1.saturating_sub(3), (g2 + 4).min(width)))
}

/// The columns `[x0, x1)` (within `width`) whose rays pass between the
/// ends `f` and `t` (camera-relative, 16.16 bits) of a side seen from
/// its front, by the exact side tests; `None` if it is seen from behind
/// or edge on (not drawn).
fn facing_columns(
    view: &impl Rays,
    f: (i64, i64),
    t: (i64, i64),
    width: usize,
) -> Option<(usize, usize)> {
    if f.0 as i128 * t.1 as i128 - f.1 as i128 * t.0 as i128 >= 0 {
        return None;
    }
    // Off the screen (an end on the far side of both edge rays' lines:
    // the seg is, in no column), found before either end's search.
    let (first, last) = view.edge_rays();
    let sign = |(dx, dy): (i64, i64), (x, y): (i64, i64)| (dx * y - dy * x).signum();
    if sign(first, t) > 0 && sign(last, t) > 0 || sign(first, f) < 0 && sign(last, f) < 0 {
        return Some((0, 0));
    }
    let (x0, x1) = column_overlap(sides(view, f.0, f.1).nonneg, sides(view, t.0, t.1).nonpos);
    Some((x0, x1.min(width)))
}

#[cfg(test)]
mod tests;
