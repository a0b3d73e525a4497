//! The renderer: the map's BSP walked nearest subsector first, as DOOM
//! walks it.
//!
//! `bsp` decides what the screen shows: which segs face the camera,
//! which columns each covers and which of those are still open, and
//! where each seg's wall meets each column's ray (exactly, with
//! `portal`'s camera view and wall preparation, from the sectors
//! `cache` decodes once per frame); `sprite` decides which sprites are
//! in view and where; `planes` draws floors and ceilings in horizontal
//! spans, as DOOM does; `draw` touches pixels and nothing else.
//! Everything draws into a caller-owned [`Frame`]. Every compiled map
//! carries a BSP (the format requires it), so there is one walk; tests
//! hold it to a plain reference walk (`reference`: a ray a column, every
//! wall tested, in doubles).
//!
//! ## What is drawn, and how DOOM would draw it
//!
//! * Walls: a side's upper, middle and lower textures, placed by DOOM's
//!   pegging rules and the side's offsets; textures tile vertically with
//!   a correct wrap for any height. A see-through middle texture in a
//!   portal (a grate) is drawn once, over what lies behind it.
//! * Floors and ceilings: 64x64 flats mapped as DOOM maps them (texel
//!   column `x mod 64`, row `-y mod 64`); the sky (full bright, 1024
//!   columns per turn, as DOOM draws it) where a sector's texture is
//!   [`crate::format::SKY`], including DOOM's hack that shows sky instead
//!   of the upper wall between two sky ceilings.
//! * Sprites: billboards at their texture's origin, the rotation that
//!   faces the camera for a thing with DOOM's eight, clipped column by
//!   column against the walls in front of them, drawn far to near
//!   together with the see-through wall textures.
//! * Light: DOOM's model (see `light`): 32 light maps chosen by sector
//!   light, distance and the fake contrast of axis-aligned walls.
//! * A surface without a texture is drawn in its sector's colour, so maps
//!   need no textures at all.
//!
//! Everything stays a palette index and a light level until the last
//! step, one lookup in [`Shades`] per pixel. Per pixel there are only
//! adds, shifts, masks and table lookups; divisions happen once per run
//! of pixels (walls) or per span (floors, none). Walls and the sky are
//! drawn as the walk reaches them, floors and ceilings once the walk is
//! done, see-through textures and sprites last, over them.
//!
//! All storage is bounded and on the stack (under 128 KiB with 64-bit
//! pointers, see `stack_scratch_stays_small`). What does not fit in the
//! per-frame tables is worked out the slow way, with the same pixels (a
//! sector decoded again, a floor run drawn on the spot); what the frame
//! cannot hold at all is dropped and counted in [`RenderStats`].

mod bsp;
mod cache;
mod draw;
pub mod font;
pub mod frame;
mod light;
mod planes;
mod portal;
#[cfg(test)]
mod reference;
pub mod shade;
mod sprite;

pub use frame::{Frame, Pixel, Rgba5551, CONSTANT_STRIDES};
pub use shade::{Palette, Shades, LIGHT_LEVELS};
pub use sprite::{sprites_of, Sprite, MAX_VISIBLE_SPRITES};

use heapless::Vec as HVec;

use crate::config::MAX_SCREEN_HEIGHT;
use crate::format::TextureView;
use crate::game::Game;
use crate::math::Division;
pub use crate::world::Camera;
use crate::world::Level;
use cache::SectorCache;
use draw::{FlatRun, MaskedRun};
use portal::{Masked, SpriteClip, View, MAX_MASKED_PER_COLUMN};
use sprite::{Source, Visible};

/// Figures from one rendered frame.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Portals crossed, over all columns.
    pub portals_crossed: u32,
    /// Exact wall intersection tests, over all columns: one for each
    /// column still open that a seg facing the camera covers.
    pub walls_tested: u32,
    /// Columns that hit [`crate::config::MAX_PORTALS_PER_COLUMN`].
    pub columns_truncated: u32,
    /// Sprites in view (projected onto at least one column).
    pub sprites_drawn: u32,
    /// Sprites in view left out because more than
    /// [`MAX_VISIBLE_SPRITES`] were (the farthest go).
    pub sprites_dropped: u32,
    /// See-through wall textures left out because one column crossed
    /// more portals with them than it keeps (the farthest go).
    pub masked_dropped: u32,
    /// Columns that no wall closed: the view leaks out of the map there
    /// (a gap in a sector's walls, or a camera outside the map), and the
    /// rest of the column shows the background.
    pub columns_leaked: u32,
    /// Window columns kept for sprites: copied from the columns as they
    /// were when each sprite arrived (the first seg across it that did not
    /// hide it), for clipping it after the walk.
    pub sprite_windows: u32,
}

/// Other routes to the same picture, each off in a game: a test turns
/// one on and checks that the picture is what the usual route draws.
/// Not for games, so hidden from the docs; public so that the
/// integration tests can take them as the engine's own tests do.
#[doc(hidden)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Routes {
    /// Every sprite arrives before the first seg, not at the first seg
    /// that does not hide it.
    pub eager_sprites: bool,
    /// No middle texture closes a column.
    pub open_middles: bool,
    /// Every sector decoded the slow way, as when the frame's tables are
    /// full.
    pub slow_sectors: bool,
    /// No plane continues behind a portal: every portal marks the planes
    /// in front of it.
    pub marked_planes: bool,
    /// Each seg's depth and texture column worked out exactly in every
    /// column, not stepped across the seg.
    pub exact_segs: bool,
}

/// What a frame shows: a level seen from a camera, and the sprites in it.
///
/// ```
/// # use engine::render::{Scene, Sprite};
/// # fn show(game: &engine::game::Game<'_>, free: engine::render::Camera, mine: &[Sprite]) {
/// let players_view = Scene::of_game(game); // the map's decorations and the game's bodies
/// let inspection = Scene::of_game(game).seen_from(free); // the same, from another camera
/// let mine_only = Scene::new(game.level(), free).with_sprites(mine);
/// # }
/// ```
#[derive(Copy, Clone, Debug)]
pub struct Scene<'s, 'a> {
    /// The level, as it is this frame.
    pub level: Level<'s>,
    /// Where the view is.
    pub camera: Camera,
    /// What is drawn as sprites.
    pub sprites: Sprites<'s, 'a>,
    /// How the renderer divides: a matter of speed alone, the same
    /// pixels either way ([`crate::math::Division`]; integer divisions
    /// unless set with [`Scene::divided_by`]).
    pub division: Division,
    /// The route to the picture: the usual one but in tests.
    #[doc(hidden)]
    pub routes: Routes,
}

/// Where a [`Scene`]'s sprites come from.
#[derive(Copy, Clone, Debug)]
pub enum Sprites<'s, 'a> {
    /// The map's decorations (things drawn where the map puts them,
    /// [`crate::format::kind::is_drawn`]).
    OfMap,
    /// The map's decorations and every body of the game but the player's
    /// that has a sprite (see [`sprites_of`]).
    OfGame(&'s Game<'a>),
    /// These alone.
    List(&'s [Sprite]),
}

impl<'s, 'a: 's> Scene<'s, 'a> {
    /// `level` (a [`Level`] or a reference to one) from `camera`, with
    /// the map's decorations.
    pub fn new(level: impl Into<Level<'s>>, camera: Camera) -> Self {
        Scene {
            level: level.into(),
            camera,
            sprites: Sprites::OfMap,
            division: Division::Integer,
            routes: Routes::default(),
        }
    }

    /// What the player of `game` sees: its level from [`Game::camera`],
    /// with the map's decorations and the game's other bodies.
    pub fn of_game(game: &'s Game<'a>) -> Self {
        Scene {
            level: game.level(),
            camera: game.camera(),
            sprites: Sprites::OfGame(game),
            division: Division::Integer,
            routes: Routes::default(),
        }
    }

    /// The same scene from `camera` (a free inspection camera, say).
    pub fn seen_from(self, camera: Camera) -> Self {
        Scene { camera, ..self }
    }

    /// The same scene drawn with divisions done `division`'s way (the
    /// faster on this machine: see [`crate::math::Division`]).
    pub fn divided_by(self, division: Division) -> Self {
        Scene { division, ..self }
    }

    /// The same scene drawn by `routes` (tests only).
    #[doc(hidden)]
    pub fn by_routes(self, routes: Routes) -> Self {
        Scene { routes, ..self }
    }

    /// The same scene with `sprites` as its only sprites.
    pub fn with_sprites(self, sprites: &'s [Sprite]) -> Self {
        Scene {
            sprites: Sprites::List(sprites),
            ..self
        }
    }

    /// The sprites to project, in one iterator type whatever their
    /// source (so the renderer is compiled once per pixel type).
    fn sources(&self) -> impl Iterator<Item = Source> + 's {
        let (map, game, list) = match self.sprites {
            Sprites::OfMap => (true, None, &[][..]),
            Sprites::OfGame(game) => (true, Some(game), &[][..]),
            Sprites::List(list) => (false, None, list),
        };
        let keys = game.map(|g| g.world().keys());
        let decorations = map.then(|| sprite::decorations(&self.level, keys));
        let bodies = game.map(sprite::bodies);
        decorations
            .into_iter()
            .flatten()
            .chain(bodies.into_iter().flatten())
            .chain(list.iter().map(Source::from))
    }
}

/// Renders `scene` into `frame`, converting colours through `shades`:
/// the one way the engine draws.
///
/// The map's BSP is walked nearest subsector first, as DOOM walks it (see
/// the `bsp` module); horizontal field of view 90 degrees, the same focal
/// length (`width / 2` pixels) vertically. Every pixel of the frame is
/// written, whatever the camera: what no wall closes (a gap in the map's
/// walls, a camera outside the map, a camera sector that does not exist)
/// is black. Integer-only, so the same inputs give the same pixels
/// everywhere.
///
/// Surfaces with textures are drawn textured the way DOOM draws them
/// (pegging, offsets, flats, the sky, see-through middle textures);
/// untextured ones in their sector's colours. Light follows DOOM's model:
/// sector light, distance and the fake contrast of axis-aligned walls.
///
/// Sprites are billboards facing the camera, one texel per map unit,
/// placed by their texture's origin (`left` columns left of `pos`, row
/// `top` at `z`); one with rotations shows the one that faces the camera
/// ([`crate::format::RotationRecord`]; a mirrored one reads its texture's
/// columns from the right, over the same screen columns, as DOOM does);
/// lit by the sector they stand in, clipped column by
/// column against the walls in front of them and drawn far to near,
/// interleaved with see-through wall textures. Sprites nearer than 4
/// units are not drawn; past [`MAX_VISIBLE_SPRITES`] in view the farthest
/// are dropped (and counted).
pub fn render<P: Pixel>(
    scene: &Scene<'_, '_>,
    shades: &Shades<P>,
    frame: &mut Frame<'_, P>,
) -> RenderStats {
    let sources = scene.sources();
    let how = (scene.division, scene.routes);
    render_sources(&scene.level, &scene.camera, shades, sources, frame, how)
}

/// [`render`] of the sprites `sources`, divided and routed as `how` says.
fn render_sources<'a, P: Pixel>(
    level: &Level<'a>,
    camera: &Camera,
    shades: &Shades<P>,
    sources: impl Iterator<Item = Source>,
    frame: &mut Frame<'_, P>,
    (division, routes): (Division, Routes),
) -> RenderStats {
    let (width, height, stride) = (frame.width(), frame.height(), frame.stride());
    let view = View::new(level, camera, width, height)
        .divided_by(division)
        .by_routes(routes);
    let view = if frame.has_wide_pixels() {
        view.with_wide_pixels()
    } else {
        view
    };
    let mut stats = RenderStats::default();
    if !view.has_sector() {
        // No sector to see from: nothing is in view.
        let pixels = frame.pixels_mut();
        for x in 0..width {
            draw_background(pixels, stride, x, (0, height));
        }
        stats.columns_leaked = width as u32;
        return stats;
    }
    let mut planes = planes::Planes::new(&view);
    // Filled row by row: a zeroed array first would be 3 KB of stores a
    // frame.
    let mut recip: HVec<u32, MAX_SCREEN_HEIGHT> = HVec::new();
    for r in draw::recip_rows(view.focal_width as usize, height) {
        let _ = recip.push(r);
    }
    let mut visible: HVec<Visible<'a>, MAX_VISIBLE_SPRITES> = HVec::new();
    sprite::project(level, &view, sources, &mut visible, &mut stats);
    stats.sprites_drawn = visible.len() as u32;
    let batched_walls = frame.has_batched_walls();
    let mut context = FrameContext {
        level,
        pixels: frame.pixels_mut(),
        stride,
        batched_walls,
        x: 0,
        view: &view,
        recip: &recip,
        planes: &mut planes,
        shades,
    };
    bsp_frame(&mut context, &level.map().bsp(), &mut visible, &mut stats);
    stats
}

/// The sprites covering each column in turn.
struct ActiveSprites {
    /// The sprites by first column, as `x0 << 8 | i` (small keys, no
    /// look-ups while sorting; x0 is at most the screen width, below 2^11,
    /// and i below 2^8), and the next to start.
    order: HVec<u32, MAX_VISIBLE_SPRITES>,
    next: usize,
    /// Those covering the current column.
    active: HVec<u8, MAX_VISIBLE_SPRITES>,
}

impl ActiveSprites {
    /// Those of `visible` that `keep` keeps.
    fn of(visible: &[Visible<'_>], keep: impl Fn(usize) -> bool) -> ActiveSprites {
        let mut order: HVec<u32, MAX_VISIBLE_SPRITES> = visible
            .iter()
            .enumerate()
            .filter(|&(i, _)| keep(i))
            .map(|(i, v)| ((v.x0 as u32) << 8) | i as u32)
            .collect();
        order.sort_unstable();
        ActiveSprites {
            order,
            next: 0,
            active: HVec::new(),
        }
    }

    /// Moves on to column `x`: the sprites covering it.
    fn at(&mut self, x: usize, visible: &[Visible<'_>]) -> &[u8] {
        while let Some(&key) = self.order.get(self.next) {
            if (key >> 8) as usize > x {
                break;
            }
            let _ = self.active.push(key as u8);
            self.next += 1;
        }
        self.active
            .retain(|&i| visible.get(i as usize).is_some_and(|v| x < v.x1));
        &self.active
    }
}

/// The BSP walk (see `bsp`), then column by column the floor and ceiling
/// runs it recorded, see-through textures and sprites.
///
/// The tables live in this function's frame and the walk in another's:
/// on the N64's MIPS, a local more than 32 KiB from the stack pointer
/// takes extra instructions at every use, and the tables are larger
/// than that.
#[inline(never)]
fn bsp_frame<'a, P: Pixel>(
    context: &mut FrameContext<'_, '_, 'a, P>,
    bsp_view: &crate::format::BspView<'a>,
    visible: &mut HVec<Visible<'a>, MAX_VISIBLE_SPRITES>,
    stats: &mut RenderStats,
) {
    let mut sector_cache = SectorCache::new();
    // Each table empty and a local of its own, so that starting the frame
    // clears none of them (see `bsp::FrameTables`).
    let mut columns = HVec::new();
    let mut open = bsp::OpenColumns::default();
    let mut windows = HVec::new();
    let mut masked = HVec::new();
    let mut masked_windows = HVec::new();
    let mut visplanes = HVec::new();
    let mut cells = HVec::new();
    let mut current = [0; planes::MAX_PLANES];
    let mut sky = HVec::new();
    let mut rays = HVec::new();
    let mut scratch = bsp::FrameTables::new(
        context.view,
        &mut columns,
        &mut open,
        &mut windows,
        &mut masked,
        &mut masked_windows,
        &mut visplanes,
        &mut cells,
        &mut current,
        &mut sky,
        &mut rays,
    );
    bsp_walk(
        context,
        bsp_view,
        &mut sector_cache,
        &mut scratch,
        visible,
        stats,
    );
}

/// The BSP walk's part of [`bsp_walk`]: walls, the sky and the planes'
/// runs recorded, with wall columns held back in batches if `HOLD` (see
/// [`Frame::with_batched_walls`]). Not inlined: the two are never live
/// together, and inlined both into one frame they would need the stack
/// of both.
#[inline(never)]
fn record_walk<'a, P: Pixel, const HOLD: bool>(
    context: &mut FrameContext<'_, '_, 'a, P>,
    bsp_view: &crate::format::BspView<'a>,
    cache: &mut SectorCache<'a>,
    scratch: &mut bsp::FrameTables<'_>,
    visible: &mut HVec<Visible<'a>, MAX_VISIBLE_SPRITES>,
    stats: &mut RenderStats,
) {
    let (level, view) = (context.level, context.view);
    let bsp::FrameTables {
        walk: state,
        visplanes,
        sky,
    } = scratch;
    let mut walls = draw::WallBatch::new();
    let mut rec = bsp::RunWriter::<'_, 'a, P, HOLD> {
        level,
        view,
        pixels: &mut *context.pixels,
        stride: context.stride,
        recip: context.recip,
        shades: context.shades,
        walls: &mut walls,
        planes: &mut *context.planes,
        visplanes: visplanes.reborrow(),
        sky,
        x: 0,
    };
    bsp::walk(
        level, view, bsp_view, cache, &mut rec, state, visible, stats,
    );
    rec.flush_walls();
    rec.flush_sky();
}

#[inline(never)]
fn bsp_walk<'a, P: Pixel>(
    context: &mut FrameContext<'_, '_, 'a, P>,
    bsp_view: &crate::format::BspView<'a>,
    cache: &mut SectorCache<'a>,
    scratch: &mut bsp::FrameTables<'_>,
    visible: &mut HVec<Visible<'a>, MAX_VISIBLE_SPRITES>,
    stats: &mut RenderStats,
) {
    let (level, view) = (context.level, context.view);
    // The walk compiled both ways, so that the frames that do not batch
    // their walls run it as if batches did not exist: a test of the
    // choice in the seg's column loop is paid in every column.
    if context.batched_walls {
        record_walk::<P, true>(context, bsp_view, cache, scratch, visible, stats);
    } else {
        record_walk::<P, false>(context, bsp_view, cache, scratch, visible, stats);
    }
    let bsp::FrameTables {
        walk: state,
        visplanes,
        ..
    } = scratch;
    // The floors and ceilings, before what is drawn over them.
    let mut target = planes::Target {
        pixels: &mut *context.pixels,
        stride: context.stride,
        recip: context.recip,
        shades: context.shades,
    };
    context.planes.draw_visplanes(visplanes, &mut target);
    let mut masked: HVec<Masked<'a>, MAX_MASKED_PER_COLUMN> = HVec::new();
    let mut clips: HVec<SpriteClip, MAX_VISIBLE_SPRITES> = HVec::new();
    // Only the sprites the walk kept windows for may show.
    let mut sprites = ActiveSprites::of(visible, |i| state.has_windows(i));
    for x in 0..view.width as usize {
        masked.clear();
        clips.clear();
        context.x = x;
        let active = sprites.at(x, visible);
        bsp::column_overlays(
            level,
            view,
            cache,
            state,
            visible,
            active,
            x,
            &mut clips,
            &mut masked,
            stats,
        );
        context.overlays_of_column(&mut clips, &masked, visible);
    }
}

/// What the walk and the overlays draw with: the frame, the view and the
/// tables of one frame.
struct FrameContext<'p, 'v, 'a, P> {
    level: &'v Level<'a>,
    pixels: &'p mut [P],
    stride: usize,
    /// See [`Frame::with_batched_walls`].
    batched_walls: bool,
    x: usize,
    view: &'v View<'a>,
    recip: &'v [u32],
    /// Floors and ceilings, kept over the frame.
    planes: &'v mut planes::Planes<'a>,
    shades: &'v Shades<P>,
}

impl<'a, P: Pixel> FrameContext<'_, '_, 'a, P> {
    /// Draws this column's see-through textures (`masked`, nearest
    /// first) and sprites (`clips`), far to near, over the finished
    /// floors. (Most columns have none, and are spared the call.)
    #[inline(always)]
    fn overlays_of_column(
        &mut self,
        clips: &mut [SpriteClip],
        masked: &[Masked<'a>],
        visible: &mut [Visible<'a>],
    ) {
        if !(clips.is_empty() && masked.is_empty()) {
            self.draw_overlays(clips, masked, visible);
        }
    }

    /// [`FrameContext::overlays_of_column`] for a column that has some.
    fn draw_overlays(
        &mut self,
        clips: &mut [SpriteClip],
        masked: &[Masked<'a>],
        visible: &mut [Visible<'a>],
    ) {
        // Far to near: a see-through texture whose portal is in front of
        // a sprite (its step at most the sprite's slot) goes after it.
        clips.sort_unstable_by_key(|c| core::cmp::Reverse((c.slot, c.depth, c.index)));
        let level = self.level;
        let mut m = masked.len();
        for c in clips.iter() {
            while let Some(mk) = m.checked_sub(1).and_then(|i| masked.get(i)) {
                if mk.step <= c.slot as i32 {
                    break;
                }
                self.masked(mk);
                m -= 1;
            }
            if let Some(v) = visible.get_mut(c.index as usize) {
                self.sprite(level, c, v);
            }
        }
        for mk in masked.get(..m).unwrap_or(&[]).iter().rev() {
            self.masked(mk);
        }
    }
}

/// DOOM's sky in rows `(y0, y1)` of column `x`: unlit, one texel per
/// pixel at 320 columns, texture row 100 at the middle row, sky column
/// `column` (see [`View::sky_column_pair`]); black if the map has no sky.
fn draw_sky<P: Pixel>(
    pixels: &mut [P],
    stride: usize,
    view: &View<'_>,
    shades: &Shades<P>,
    x: usize,
    column: i32,
    (y0, y1): (usize, usize),
) {
    let Some(sky) = view.sky else {
        // (The walks only ask for the sky when the map has one.)
        draw_background(pixels, stride, x, (y0, y1));
        return;
    };
    let step = view.sky_step;
    let v0 = (100 << 16) + (y0 as i64 - view.height / 2) * step;
    let shade = shades.row(light::FULL_BRIGHT);
    draw::fill_wall(pixels, stride, (x, y0, y1), (column, v0, step), &sky, shade);
}

/// Nothing seen in rows `(y0, y1)` of column `x`: black.
fn draw_background<P: Pixel>(pixels: &mut [P], stride: usize, x: usize, (y0, y1): (usize, usize)) {
    let pixel = P::from_rgb(0, 0, 0);
    draw::fill_flat(pixels, stride, FlatRun { x, y0, y1, pixel });
}

impl<P: Pixel> FrameContext<'_, '_, '_, P> {
    /// A see-through middle texture, drawn once within its opening.
    fn masked(&mut self, m: &Masked<'_>) {
        let step = self.view.per_row(m.depth);
        let v0 = self.view.texel_row(m.tex.top, step, m.y0);
        let t = &m.tex.texture;
        if let Some(run) = MaskedRun::once(self.x, m.y0, m.y1, v0, step, t.height) {
            let column = (m.tex.u >> 16) as i32;
            self.overlay(run, column, m.level, t);
        }
    }

    /// One column of a sprite, within the window the walk left it.
    fn sprite(&mut self, level: &Level<'_>, c: &SpriteClip, v: &mut Visible<'_>) {
        let (top, bottom) = (c.top.max(0) as i64, (c.bottom as i64).min(self.view.height));
        if top >= bottom {
            return;
        }
        let (v_top, v_level, shown) = v.lit(level, self.view);
        // Where this column's ray passes the sprite's plane, from the
        // texture's left edge, in texels.
        let side = (self.view.slope(self.x) * v.depth) >> 16;
        let last = v.texture.width as i64 - 1;
        let column = ((side - v.left) >> 16).clamp(0, last) as i32;
        // Mirrored: the same span, its columns from the right.
        let column = if v.mirrored {
            last as i32 - column
        } else {
            column
        };
        let step = self.view.per_row(v.depth);
        let (y0, y1) = (top as usize, bottom as usize);
        // (The texel row of screen row 0: the rows are worked out once a
        // sprite, by `Visible::lit`.)
        let v0 = self.view.texel_row(v_top, step, 0);
        if let Some(run) = MaskedRun::shown(self.x, (y0, y1), shown, v0, step) {
            let texture = v.texture;
            self.overlay(run, column, v_level, &texture);
        }
    }

    /// Draws `run` of `texture`'s column `column` at light `level`.
    fn overlay(&mut self, run: MaskedRun, column: i32, level: usize, texture: &TextureView<'_>) {
        let texels = draw::masked_column(texture, column);
        draw::fill_masked(
            self.pixels,
            self.stride,
            run,
            texels,
            self.shades.row(level),
        );
    }
}

#[cfg(test)]
mod tests;
