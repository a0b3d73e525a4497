//! The renderer: one ray per screen column through the sector graph.
//!
//! `portal` decides what each column sees (which walls, at which depth,
//! through which portals, with which clip window, and which rows of each
//! sprite the walls in front of it leave open); `sprite` decides which
//! sprites are in view and where; `draw` touches pixels and nothing else.
//! Everything draws into a caller-owned [`Frame`].
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
//! * Sprites: billboards at their texture's origin, clipped column by
//!   column against the walls in front of them, drawn far to near
//!   together with the see-through wall textures.
//! * Light: DOOM's model (see `light`): 32 light maps chosen by sector
//!   light, distance and the fake contrast of axis-aligned walls.
//! * A surface without a texture is drawn in its sector's colour, so maps
//!   need no textures at all.
//!
//! Everything stays a palette index and a light level until the last
//! step, one lookup in [`Shades`] per pixel. Per pixel there are only
//! adds, shifts, multiplies and table lookups; divisions happen once per
//! run of pixels. All storage is bounded and on the stack (about 25 KiB);
//! what does not fit is dropped and counted in [`RenderStats`].

mod draw;
pub mod font;
pub mod frame;
mod light;
mod portal;
pub mod shade;
mod sprite;

pub use frame::{Frame, Pixel, Rgba5551};
pub use shade::{Palette, Shades, LIGHT_LEVELS};
pub use sprite::{sprites_of, Sprite, MAX_VISIBLE_SPRITES};

use heapless::Vec as HVec;

use crate::config::MAX_SCREEN_HEIGHT;
use crate::game::Game;
use crate::math::{Angle, Fx, Vec2};
use crate::world::{Level, SectorId};
use draw::{ColumnRun, FlatRun, MaskedRun, PlaneRun, TexPlaneRun};
use portal::{Masked, Span, SpriteClip, Surface, View, MAX_MASKED_PER_COLUMN};
use sprite::{Source, Visible};

/// Where the view is: a point, an eye height, a facing and the sector the
/// point is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Camera {
    /// Position in the map.
    pub pos: Vec2,
    /// Absolute height of the eye.
    pub eye_z: Fx,
    /// Facing.
    pub angle: Angle,
    /// The sector `pos` is in.
    pub sector: SectorId,
}

/// Figures from one rendered frame.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Portals crossed, over all columns.
    pub portals_crossed: u32,
    /// Wall intersection tests, over all columns.
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
}

/// Renders the view from `camera` into `frame`, converting colours through
/// `shades`, with the map's decorations (things of kind
/// [`crate::format::kind::DECORATION`]) as sprites.
///
/// One ray per column walks the sector graph from `camera.sector` (see the
/// `portal` module); horizontal field of view 90 degrees, the same focal
/// length (`width / 2` pixels) vertically. Every pixel of the frame is
/// written, whatever the camera: what no ray reaches (outside the map, a
/// camera sector that does not exist, a column past
/// [`crate::config::MAX_PORTALS_PER_COLUMN`]) is black. Integer-only, so
/// the same inputs give the same pixels everywhere.
///
/// Surfaces with textures are drawn textured the way DOOM draws them
/// (pegging, offsets, flats, the sky, see-through middle textures);
/// untextured ones in their sector's colours. Light follows DOOM's model:
/// sector light, distance and the fake contrast of axis-aligned walls.
pub fn render<P: Pixel>(
    level: &Level<'_>,
    camera: &Camera,
    shades: &Shades<P>,
    frame: &mut Frame<'_, P>,
) -> RenderStats {
    render_sources(level, camera, shades, sprite::decorations(level), frame)
}

/// [`render`] with `sprites` instead of the map's decorations.
///
/// Sprites are billboards facing the camera, one texel per map unit,
/// placed by their texture's origin (`left` columns left of `pos`, row
/// `top` at `z`), lit by the sector they stand in, clipped column by
/// column against the walls in front of them and drawn far to near,
/// interleaved with see-through wall textures. Sprites nearer than 4
/// units are not drawn; past [`MAX_VISIBLE_SPRITES`] in view the farthest
/// are dropped (and counted).
pub fn render_scene<P: Pixel>(
    level: &Level<'_>,
    camera: &Camera,
    shades: &Shades<P>,
    sprites: &[Sprite],
    frame: &mut Frame<'_, P>,
) -> RenderStats {
    render_sources(
        level,
        camera,
        shades,
        sprites.iter().map(Source::from),
        frame,
    )
}

/// Renders what the player of `game` sees: [`render_scene`] from
/// [`Game::camera`] with the map's decorations and every body but the
/// player's that has a sprite (see [`sprites_of`]).
pub fn render_game<P: Pixel>(
    game: &Game<'_>,
    shades: &Shades<P>,
    frame: &mut Frame<'_, P>,
) -> RenderStats {
    render_game_from(game, &game.camera(), shades, frame)
}

/// [`render_game`] from another camera (a free inspection camera, say):
/// the map's decorations and every body but the player, seen from
/// `camera`.
pub fn render_game_from<P: Pixel>(
    game: &Game<'_>,
    camera: &Camera,
    shades: &Shades<P>,
    frame: &mut Frame<'_, P>,
) -> RenderStats {
    let level = game.level();
    let sources = sprite::decorations(level).chain(sprite::bodies(game));
    render_sources(level, camera, shades, sources, frame)
}

fn render_sources<'a, P: Pixel>(
    level: &Level<'a>,
    camera: &Camera,
    shades: &Shades<P>,
    sources: impl Iterator<Item = Source>,
    frame: &mut Frame<'_, P>,
) -> RenderStats {
    let (width, height, stride) = (frame.width(), frame.height(), frame.stride());
    let view = View::new(level, camera, width, height);
    let mut recip = [0u32; MAX_SCREEN_HEIGHT];
    draw::build_recip(&mut recip, width, height);
    let mut stats = RenderStats::default();
    let mut visible: HVec<Visible<'a>, MAX_VISIBLE_SPRITES> = HVec::new();
    if view.has_sector() {
        sprite::project(level, &view, sources, &mut visible, &mut stats);
    }
    stats.sprites_drawn = visible.len() as u32;
    let pixels = frame.pixels_mut();
    let mut masked: HVec<Masked<'a>, MAX_MASKED_PER_COLUMN> = HVec::new();
    let mut clips: HVec<SpriteClip, MAX_VISIBLE_SPRITES> = HVec::new();
    for x in 0..width {
        masked.clear();
        clips.clear();
        for (i, v) in visible.iter().enumerate() {
            if v.x0 <= x && x < v.x1 {
                let _ = clips.push(SpriteClip {
                    depth: v.depth,
                    x: v.x,
                    y: v.y,
                    top: 0,
                    bottom: view.height,
                    slot: -1,
                    index: i as u32,
                });
            }
        }
        let mut painter = Painter {
            pixels: &mut *pixels,
            stride,
            x,
            view: &view,
            recip: &recip,
            shades,
            sky_column: None,
        };
        portal::column(
            level,
            &view,
            x,
            &mut stats,
            &mut masked,
            &mut clips,
            |span| painter.span(span),
        );
        // Far to near: a see-through texture whose portal is in front of
        // a sprite (its step at most the sprite's slot) goes after it.
        clips.sort_unstable_by_key(|c| core::cmp::Reverse((c.slot, c.depth, c.index)));
        let mut m = masked.len();
        for c in clips.iter() {
            while let Some(mk) = m.checked_sub(1).and_then(|i| masked.get(i)) {
                if mk.step <= c.slot {
                    break;
                }
                painter.masked(mk);
                m -= 1;
            }
            if let Some(v) = visible.get(c.index as usize) {
                painter.sprite(c, v);
            }
        }
        for mk in masked[..m].iter().rev() {
            painter.masked(mk);
        }
    }
    stats
}

/// Turns one column's spans, see-through textures and sprites into fills.
struct Painter<'p, 'v, 'a, P> {
    pixels: &'p mut [P],
    stride: usize,
    x: usize,
    view: &'v View<'a>,
    recip: &'v [u32],
    shades: &'v Shades<P>,
    /// The sky column for this screen column, once needed.
    sky_column: Option<i32>,
}

impl<P: Pixel> Painter<'_, '_, '_, P> {
    /// Texel rows per screen row at `depth`: `depth / focal`, 16.16.
    fn step(&self, depth: i64) -> i64 {
        ((depth * 2) / self.view.width).max(1)
    }

    /// The texel row seen in screen row `y` (16.16) for a texture whose
    /// row 0 lies `top` above the eye, stepping `step` per row.
    fn row_at(&self, top: i64, step: i64, y: usize) -> i64 {
        top + (((2 * y as i64 + 1 - self.view.height) * step) >> 1)
    }

    fn span(&mut self, span: Span<'_>) {
        let (stride, x) = (self.stride, self.x);
        match span {
            Span::Wall {
                y0,
                y1,
                color,
                level,
                depth,
                tex,
            } => match tex {
                Some(t) => {
                    let step = self.step(depth);
                    let v0 = self.row_at(t.top, step, y0);
                    let run = ColumnRun::tiled(x, y0, y1, v0, step, t.texture.height);
                    let texels = t.texture.column((t.u >> 16) as i32);
                    draw::fill_column(self.pixels, stride, run, texels, self.shades.row(level));
                }
                None => {
                    let pixel = self.shades.get(level, color);
                    draw::fill_flat(self.pixels, stride, FlatRun { x, y0, y1, pixel });
                }
            },
            Span::Plane {
                y0,
                y1,
                surface,
                light,
                height,
            } => match surface {
                Surface::Color(color) => {
                    let run = PlaneRun {
                        x,
                        y0,
                        y1,
                        color,
                        light,
                        height,
                    };
                    draw::fill_plane(self.pixels, stride, run, self.recip, self.shades);
                }
                Surface::Flat(texture) => {
                    let (dx, dy) = self.view.ray(x);
                    let h = height.min(1 << 33) as i64;
                    let run = TexPlaneRun {
                        x,
                        y0,
                        y1,
                        light,
                        height,
                        px: self.view.px,
                        py: self.view.py,
                        du: (dx * h) >> 16,
                        dv: (dy * h) >> 16,
                    };
                    draw::fill_plane_texture(
                        self.pixels,
                        stride,
                        run,
                        &texture,
                        self.recip,
                        self.shades,
                    );
                }
                Surface::Sky => self.sky(y0, y1),
            },
            Span::Background { y0, y1 } => {
                let pixel = P::from_rgb(0, 0, 0);
                draw::fill_flat(self.pixels, stride, FlatRun { x, y0, y1, pixel });
            }
        }
    }

    /// DOOM's sky: unlit, one texel per pixel at 320 columns, texture row
    /// 100 at the middle row, the column from the view angle.
    fn sky(&mut self, y0: usize, y1: usize) {
        let Some(sky) = self.view.sky else {
            // (The walk only asks for the sky when the map has one.)
            let (x, pixel) = (self.x, P::from_rgb(0, 0, 0));
            draw::fill_flat(self.pixels, self.stride, FlatRun { x, y0, y1, pixel });
            return;
        };
        let column = *self
            .sky_column
            .get_or_insert_with(|| self.view.sky_column(self.x));
        let step = (320 << 16) / self.view.width;
        let v0 = (100 << 16) + (y0 as i64 - self.view.height / 2) * step;
        let run = ColumnRun::tiled(self.x, y0, y1, v0, step, sky.height);
        let shade = self.shades.row(light::FULL_BRIGHT);
        draw::fill_column(self.pixels, self.stride, run, sky.column(column), shade);
    }

    /// A see-through middle texture, drawn once within its opening.
    fn masked(&mut self, m: &Masked<'_>) {
        let step = self.step(m.depth);
        let v0 = self.row_at(m.tex.top, step, m.y0);
        let t = &m.tex.texture;
        if let Some(run) = MaskedRun::once(self.x, m.y0, m.y1, v0, step, t.height) {
            let column = (m.tex.u >> 16) as i32;
            let shade = self.shades.row(m.level);
            draw::fill_masked(self.pixels, self.stride, run, t, column, shade);
        }
    }

    /// One column of a sprite, within the window the walk left it.
    fn sprite(&mut self, c: &SpriteClip, v: &Visible<'_>) {
        let (top, bottom) = (c.top.max(0), c.bottom.min(self.view.height));
        if top >= bottom {
            return;
        }
        // Where this column's ray passes the sprite's plane, from the
        // texture's left edge, in texels.
        let side = (self.view.slope(self.x) * v.depth) >> 16;
        let column = ((side - v.left) >> 16).clamp(0, v.texture.width as i64 - 1) as i32;
        let step = self.step(v.depth);
        let (y0, y1) = (top as usize, bottom as usize);
        let v0 = self.row_at(v.top, step, y0);
        if let Some(run) = MaskedRun::once(self.x, y0, y1, v0, step, v.texture.height) {
            let shade = self.shades.row(v.level);
            draw::fill_masked(self.pixels, self.stride, run, &v.texture, column, shade);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The renderer's own storage lives on the stack: keep it well under
    /// what a console's stack affords (the N64's frontend gives 64 KiB).
    #[test]
    fn stack_scratch_stays_small() {
        use core::mem::size_of;
        let scratch = size_of::<[u32; MAX_SCREEN_HEIGHT]>()
            + size_of::<HVec<Visible<'static>, MAX_VISIBLE_SPRITES>>()
            + size_of::<HVec<SpriteClip, MAX_VISIBLE_SPRITES>>()
            + size_of::<HVec<Masked<'static>, MAX_MASKED_PER_COLUMN>>();
        // On a 64-bit host; a 32-bit console's is smaller still.
        assert!(scratch < 32 * 1024, "{scratch} bytes");
    }
}
