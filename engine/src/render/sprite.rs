//! Sprites: billboards facing the camera, placed as DOOM places them.
//!
//! A map thing with rotations (DOOM's `A1`..`A8`) shows the one that
//! faces the camera, chosen as DOOM's `R_ProjectSprite` chooses it (see
//! [`crate::format::RotationRecord`]); a mirrored one reads its
//! texture's columns from the right over the same columns of the screen.
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
use crate::math::{Angle, Fx, Vec2};
use crate::specials::Keys;
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
    /// Its facing, degrees counter-clockwise from east (what chooses
    /// among its rotations).
    pub angle: Fx,
    /// Its rotations as a map thing gives them: 0 for none (`texture`
    /// from every side), `n` for the map's rotation set `n - 1` (see
    /// [`crate::format::ThingRecord::rotations`]).
    pub rotations: u16,
}

impl Sprite {
    /// A sprite showing `texture` from every side.
    pub const fn new(pos: Vec2, z: Fx, texture: u16) -> Sprite {
        Sprite {
            pos,
            z,
            texture,
            angle: Fx::ZERO,
            rotations: 0,
        }
    }
}

/// A sprite as the renderer takes it in: the feet's height and the sector
/// may be left to point location (only done for sprites in view).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Source {
    pub(crate) pos: Vec2,
    pub(crate) z: Option<Fx>,
    pub(crate) sector: Option<SectorId>,
    pub(crate) texture: u16,
    /// Facing, degrees, and rotations, as [`Sprite`]'s.
    pub(crate) angle: Fx,
    pub(crate) rotations: u16,
}

impl From<&Sprite> for Source {
    fn from(s: &Sprite) -> Source {
        Source {
            pos: s.pos,
            z: Some(s.z),
            sector: None,
            texture: s.texture,
            angle: s.angle,
            rotations: s.rotations,
        }
    }
}

/// The map's decorations: things that stay where they stand
/// and the keys ([`kind::is_drawn`]) with a sprite, on the floor, with
/// their rotations; but the keys `keys` says are picked up (none without
/// it).
pub(crate) fn decorations<'a>(
    level: &Level<'a>,
    keys: Option<&'a Keys>,
) -> impl Iterator<Item = Source> + 'a {
    level.map().things().enumerate().filter_map(move |(i, t)| {
        let taken = || kind::is_key(t.kind) && keys.is_some_and(|k| k.is_taken(i));
        let shown = kind::is_drawn(t.kind) && !taken();
        (shown && t.sprite != NONE).then_some(Source {
            pos: Vec2::new(t.x, t.y),
            z: None,
            sector: None,
            texture: t.sprite,
            angle: t.angle,
            rotations: t.rotations,
        })
    })
}

/// Every body of `game` but the player's that has a sprite (one picture
/// from every side: a body has no facing).
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
            angle: Fx::ZERO,
            rotations: 0,
        })
}

/// Appends the sprites of `game` to `out`: the map's decorations (on the
/// floor of the sector they stand in) and every body except the player's
/// that has a sprite. Returns how many did not fit.
pub fn sprites_of<const N: usize>(game: &Game<'_>, out: &mut HVec<Sprite, N>) -> usize {
    let level = game.level();
    let mut dropped = 0;
    for s in decorations(&level, Some(game.world().keys())).chain(bodies(game)) {
        let z = s.z.unwrap_or_else(|| floor_at(&level, s.pos));
        let sprite = Sprite {
            pos: s.pos,
            z,
            texture: s.texture,
            angle: s.angle,
            rotations: s.rotations,
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
    /// Its texture (the rotation seen, for a thing with rotations).
    pub(crate) texture: TextureView<'a>,
    /// Whether the texture is drawn mirrored: column `c` from its left
    /// edge shows texture column `width - 1 - c`.
    pub(crate) mirrored: bool,
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
        let (texture, mirrored) = match map.thing_rotations(s.rotations) {
            Some(set) => set.rotation(rotation_seen(x, y, s.angle)),
            None => (s.texture, false),
        };
        let Some(texture) = map.texture(texture) else {
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
            mirrored,
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

/// Which of its eight rotations (0 for DOOM's rotation 1) a thing facing
/// `angle` (degrees) shows to a camera `(x, y)` (16.16 bits) away from it
/// (the thing minus the camera): DOOM's `R_ProjectSprite`,
/// `(angle to the thing - its angle + 202.5 degrees) / 45 degrees`
/// rounded down, modulo 8. Exactly that, without an arctangent: the
/// offset turned by `202.5 - angle` degrees, and the eighth of the circle
/// it points into.
pub(crate) fn rotation_seen(x: i64, y: i64, angle: Fx) -> usize {
    // 202.5 degrees less the angle, in [0, 360) for any angle.
    let turn = ((202 << 16) + (1 << 15) - angle.to_bits() as i64).rem_euclid(360 << 16);
    let turn = Angle::from_degrees(Fx::from_bits(turn as i32));
    let (c, s) = turn.cos_sin();
    let (c, s) = (c.to_bits() as i64, s.to_bits() as i64);
    // |x|, |y| < 2^33 and |c|, |s| <= 2^16: no overflow.
    octant(x * c - y * s, x * s + y * c)
}

/// The eighth of the circle `(x, y)` points into: its angle from east,
/// counter-clockwise, divided by 45 degrees and rounded down (0 to 7;
/// a boundary belongs to the eighth it starts).
pub(crate) fn octant(x: i64, y: i64) -> usize {
    // The lower half, turned half a turn, is the upper half.
    let (x, y, half) = if y < 0 || (y == 0 && x < 0) {
        (-x, -y, 4)
    } else {
        (x, y, 0)
    };
    // Now the angle lies in [0, 180): y >= 0, and x >= 0 where y = 0.
    half + if x > y {
        0
    } else if x > 0 {
        1
    } else if y > -x {
        2
    } else {
        3
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;

    /// DOOM's rule in floating point: the angle from the camera to the
    /// thing less the thing's, plus 202.5 degrees, in eighths of a turn.
    fn doom_rotation(x: f64, y: f64, angle: f64) -> usize {
        let to_thing = y.atan2(x).to_degrees();
        ((to_thing - angle + 202.5).rem_euclid(360.0) / 45.0).floor() as usize % 8
    }

    #[test]
    fn octants_split_the_circle_at_every_45_degrees() {
        // On the axes and diagonals: each boundary opens its eighth.
        let points = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        for (i, (x, y)) in points.into_iter().enumerate() {
            assert_eq!(octant(x << 20, y << 20), i, "({x}, {y})");
            // Just short of the boundary: the eighth before.
            let (bx, by) = (x * (1 << 20) + y, y * (1 << 20) - x);
            assert_eq!(octant(bx, by), (i + 7) % 8, "before ({x}, {y})");
        }
        // Every direction a few degrees off the boundaries, far and near.
        for tenth in 0..3600 {
            let deg = tenth as f64 / 10.0;
            if (deg % 45.0).min(45.0 - deg % 45.0) < 0.01 {
                continue;
            }
            for r in [1000.0, 65536.0, 4.0e9] {
                let (x, y) = (r * deg.to_radians().cos(), r * deg.to_radians().sin());
                let want = (deg / 45.0) as usize;
                assert_eq!(octant(x as i64, y as i64), want, "{deg} degrees, {r}");
            }
        }
    }

    #[test]
    fn the_rotation_seen_is_dooms() {
        // A thing facing east, seen from in front (east of it), from its
        // left (north), from behind and from its right: DOOM's rotations
        // 1, 3, 5 and 7 (0, 2, 4 and 6 counted from 0).
        let d = 64 << 16;
        let east = Fx::ZERO;
        assert_eq!(rotation_seen(-d, 0, east), 0);
        assert_eq!(rotation_seen(0, -d, east), 2);
        assert_eq!(rotation_seen(d, 0, east), 4);
        assert_eq!(rotation_seen(0, d, east), 6);
        // Facing north, seen from the north: in front.
        assert_eq!(rotation_seen(0, -d, Fx::from_num(90)), 0);
        // Against the rule in floating point, for every thing angle DOOM
        // maps use and some others, from all round (off the boundaries,
        // where the sine table's rounding may fall either way).
        for angle in [
            0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0, 30.0, 359.5,
        ] {
            for tenth in 0..3600 {
                let deg = tenth as f64 / 10.0;
                let off = (deg - angle + 202.5).rem_euclid(45.0);
                if off.min(45.0 - off) < 0.05 {
                    continue;
                }
                let (x, y) = (-deg.to_radians().cos(), -deg.to_radians().sin());
                // (x, y): the thing less the camera, the camera at `deg`
                // round from the thing.
                let (x, y) = (x * 200.0, y * 200.0);
                let fx = |v: f64| (v * 65536.0) as i64;
                assert_eq!(
                    rotation_seen(fx(x), fx(y), Fx::from_num(angle)),
                    doom_rotation(x, y, angle),
                    "thing at {angle}, camera at {deg}"
                );
            }
        }
        // Any angle, however far out of [0, 360): no overflow, the same
        // answer as the angle wrapped.
        for bits in [i32::MIN, i32::MAX, -(1 << 16)] {
            let wrapped = Fx::from_bits((bits as i64).rem_euclid(360 << 16) as i32);
            for (x, y) in [(-d, 0), (3 * d, -d), (0, d)] {
                assert_eq!(
                    rotation_seen(x, y, Fx::from_bits(bits)),
                    rotation_seen(x, y, wrapped)
                );
            }
        }
    }
}
