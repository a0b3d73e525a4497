//! Sprites: billboards facing the camera, placed as DOOM places them.
//!
//! A sprite's texture stands upright at the sprite's position, one texel
//! per map unit: texture column `left` (the texture's origin) over the
//! position, row `top` at the feet. Projection (this module) decides which
//! screen columns a sprite covers, its depth and its light; the walk
//! (`portal`) decides, column by column, which rows the walls in front of
//! it leave open; `mod.rs` draws what is left, far to near, interleaved
//! with see-through wall textures.

use heapless::binary_heap::{BinaryHeap, Max};
use heapless::Vec as HVec;

use super::draw::MaskedRun;
use super::light;
use super::portal::View;
use super::RenderStats;
use crate::format::{kind, TextureView, NONE};
use crate::game::Game;
use crate::math::{Fx, Vec2};
use crate::world::{Level, SectorId};

/// Most sprites drawn in one frame (DOOM's `MAXVISSPRITES`); the farthest
/// beyond it are dropped (and counted).
pub const MAX_VISIBLE_SPRITES: usize = 128;

/// Sprites nearer than this (16.16 map units: 4) are not drawn (DOOM's
/// `MINZ`).
const MIN_SPRITE_DEPTH: i64 = 4 << 16;

/// Something drawn as a billboard.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sprite {
    /// Where it stands.
    pub pos: Vec2,
    /// Height of its feet.
    pub z: Fx,
    /// Its texture (its `left` and `top` place it; [`NONE`] draws nothing).
    pub texture: u16,
}

/// A sprite as the renderer takes it in: the feet's height and the sector
/// may be left to point location (only done for sprites in view).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Source {
    pub(crate) pos: Vec2,
    pub(crate) z: Option<Fx>,
    pub(crate) sector: Option<SectorId>,
    pub(crate) texture: u16,
}

impl From<&Sprite> for Source {
    fn from(s: &Sprite) -> Source {
        Source {
            pos: s.pos,
            z: Some(s.z),
            sector: None,
            texture: s.texture,
        }
    }
}

/// The map's decorations: things that stay where they stand
/// ([`kind::is_fixed`]: decorations and solid things) with a sprite, on
/// the floor.
pub(crate) fn decorations<'a>(level: &Level<'a>) -> impl Iterator<Item = Source> + 'a {
    level.map().things().filter_map(|t| {
        (kind::is_fixed(t.kind) && t.sprite != NONE).then_some(Source {
            pos: Vec2::new(t.x, t.y),
            z: None,
            sector: None,
            texture: t.sprite,
        })
    })
}

/// Every body of `game` but the player's that has a sprite.
pub(crate) fn bodies<'g>(game: &'g Game<'_>) -> impl Iterator<Item = Source> + 'g {
    game.bodies()
        .iter()
        .skip(1)
        .filter(|b| b.sprite != NONE)
        .map(|b| Source {
            pos: b.at.pos,
            z: Some(b.at.z),
            sector: Some(b.at.sector),
            texture: b.sprite,
        })
}

/// Appends the sprites of `game` to `out`: the map's decorations (on the
/// floor of the sector they stand in) and every body except the player's
/// that has a sprite. Returns how many did not fit.
pub fn sprites_of<const N: usize>(game: &Game<'_>, out: &mut HVec<Sprite, N>) -> usize {
    let level = game.level();
    let mut dropped = 0;
    for s in decorations(level).chain(bodies(game)) {
        let z = s.z.unwrap_or_else(|| floor_at(level, s.pos));
        let sprite = Sprite {
            pos: s.pos,
            z,
            texture: s.texture,
        };
        if out.push(sprite).is_err() {
            dropped += 1;
        }
    }
    dropped
}

/// The floor height under `pos` (0 outside the map).
fn floor_at(level: &Level<'_>, pos: Vec2) -> Fx {
    level
        .locate(pos)
        .map_or(Fx::ZERO, |s| level.sector(s).floor)
}

/// A sprite in view, projected.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Visible<'a> {
    /// Its texture.
    pub(crate) texture: TextureView<'a>,
    /// Depth, 16.16 bits, at least 4 units.
    pub(crate) depth: i64,
    /// Position relative to the camera, 16.16 bits.
    pub(crate) x: i64,
    /// Position relative to the camera, 16.16 bits.
    pub(crate) y: i64,
    /// Sideways position of the left edge of texture column 0, 16.16
    /// bits, positive to the right.
    pub(crate) left: i64,
    /// First screen column covered.
    pub(crate) x0: usize,
    /// One past the last.
    pub(crate) x1: usize,
    /// Order of arrival (ties in depth go by it).
    pub(crate) index: u32,
    /// Where it stands, its feet (if given) and its sector (if known),
    /// for [`Visible::lit`].
    pos: Vec2,
    z: Option<Fx>,
    sector: Option<SectorId>,
    /// Height of texture row 0 above the eye (16.16 bits), light level
    /// and the screen rows the texture spans, once worked out.
    lit: Option<(i64, u8, (i16, i16))>,
}

impl Visible<'_> {
    /// The height of texture row 0 above the eye (16.16 bits), the light
    /// level and the screen rows the texture spans in every column
    /// ([`MaskedRun::shown_rows`], for the texel rows of
    /// [`View::texel_row`] at [`View::per_row`] of its depth): from the
    /// sector the sprite stands in, which is found (by point location,
    /// for decorations) only for sprites that some column actually shows.
    pub(crate) fn lit(&mut self, level: &Level<'_>, view: &View<'_>) -> (i64, usize, (i16, i16)) {
        if let Some((top, light, rows)) = self.lit {
            return (top, light as usize, rows);
        }
        let sector = self.sector.or_else(|| level.locate(self.pos));
        let here = sector
            .filter(|s| (s.0 as usize) < level.sector_count())
            .map(|s| level.sector(s));
        let z = self.z.unwrap_or(here.map_or(Fx::ZERO, |h| h.floor));
        let light_number = here.map_or(light::number(255, 0), |h| light::number(h.light, 0));
        let top = z.to_bits() as i64 + ((self.texture.top as i64) << 16) - view.eye;
        let level = light::by_scale(light_number, self.depth).min(u8::MAX as usize) as u8;
        let step = view.per_row(self.depth);
        let rows = MaskedRun::shown_rows(view.texel_row(top, step, 0), step, self.texture.height);
        self.lit = Some((top, level, rows));
        (top, level as usize, rows)
    }
}

/// The kept sprites' depths and orders of arrival, farthest on top, with
/// their places in the list.
type Farthest = BinaryHeap<(i64, u32, u8), Max, MAX_VISIBLE_SPRITES>;

// Places in the list fit a byte.
const _: () = assert!(MAX_VISIBLE_SPRITES <= 256);

/// Projects `sources` seen from `view` into `out`, in their order, so
/// that a sprite's place in `out` settles ties in depth as its `index`
/// would. Those behind the camera, nearer than 4 units, off the screen
/// or without a texture are skipped; past [`MAX_VISIBLE_SPRITES`], the
/// farthest are dropped and counted in `stats`.
// Not sorted by depth: the renderer orders each column's sprites itself,
// and sorting the whole list here would move large entries for nothing.
// Once a frame: kept out of the walk, whose per-column loops are the hot
// part and should keep the instruction cache to themselves.
#[inline(never)]
pub(crate) fn project<'a>(
    level: &Level<'a>,
    view: &View<'a>,
    sources: impl Iterator<Item = Source>,
    out: &mut HVec<Visible<'a>, MAX_VISIBLE_SPRITES>,
    stats: &mut RenderStats,
) {
    let map = level.map();
    let w = view.width;
    let mut replaced = false;
    let mut farthest: Option<Farthest> = None;
    for (i, s) in sources.enumerate() {
        let x = s.pos.x.to_bits() as i64 - view.px;
        let y = s.pos.y.to_bits() as i64 - view.py;
        let (depth, side) = view.view_coords(x, y);
        if depth < MIN_SPRITE_DEPTH {
            continue;
        }
        let Some(texture) = map.texture(s.texture) else {
            continue;
        };
        let left = side - ((texture.left as i64) << 16);
        let right = left + ((texture.width as i64) << 16);
        // Wholly left of the view's left edge (a 90-degree view: the
        // edge's sideways offset is the depth) or right of its right edge:
        // `screen` below would put it off the screen, so no column shows
        // it. (Things in front of the camera but outside the view are
        // spared the two divisions.)
        if right < -depth || left > depth {
            continue;
        }
        // Screen x of a sideways offset: w/2 + offset * focal / depth, in
        // 16.16 (|offset| < 2^34, so the product stays below 2^60).
        let division = view.division;
        let screen = |o: i64| {
            (w << 15) + crate::math::div_toward_zero_by(division, o * w * (1 << 15), depth)
        };
        // Columns whose centre lies in [left, right).
        let x0 = (screen(left) + 0x7fff) >> 16;
        let x1 = (screen(right) + 0x7fff) >> 16;
        let (x0, x1) = (x0.clamp(0, w), x1.clamp(0, w));
        if x0 >= x1 {
            continue;
        }
        let v = Visible {
            texture,
            depth,
            x,
            y,
            left,
            x0: x0 as usize,
            x1: x1 as usize,
            index: i.min(u32::MAX as usize) as u32,
            pos: s.pos,
            z: s.z,
            sector: s.sector,
            lit: None,
        };
        if out.is_full() {
            // Keep the nearest: this one replaces the farthest if nearer
            // (the order of arrival is put back below). The farthest is
            // the top of a heap of the kept ones' keys, built at the first
            // sprite past the limit, rather than a scan of all the kept
            // ones for each sprite past it.
            stats.sprites_dropped = stats.sprites_dropped.saturating_add(1);
            let far = farthest.get_or_insert_with(|| {
                let mut heap = Farthest::new();
                for (slot, o) in out.iter().enumerate() {
                    let _ = heap.push((o.depth, o.index, slot as u8));
                }
                heap
            });
            if let Some(&(depth, index, slot)) = far.peek() {
                if (v.depth, v.index) < (depth, index) {
                    if let Some(o) = out.get_mut(slot as usize) {
                        let _ = far.pop();
                        let _ = far.push((v.depth, v.index, slot));
                        *o = v;
                        replaced = true;
                    }
                }
            }
        } else {
            let _ = out.push(v);
        }
    }
    if replaced {
        // Only past the limit: arrival order (the indices are distinct).
        out.sort_unstable_by_key(|v| v.index);
    }
}
