//! What the walk learns once per frame instead of once per column: the
//! sectors it enters, decoded, with their floor and ceiling textures
//! ([`SectorCache`]), the wall textures it draws, and which screen
//! columns' rays pass on either side of a point ([`sides`]).
//!
//! ## The columns on either side of a point
//!
//! A ray `D` crosses the wall `A -> B` (points relative to the camera)
//! from its front (right) only if `D x A >= 0 >= D x B`, from its back
//! if `D x A <= 0 <= D x B`. The rays of successive columns turn
//! strictly clockwise through less than half a turn (they are `F + k R`
//! with `k` in `(-1, 1)`, and the truncation of their components moves
//! them by at most a unit in the last place against a step of at least
//! 2^7 between neighbours), so the sign of `D x A` over the columns
//! changes at most once, with at most one zero where it does: the
//! columns where `D x A >= 0` (or `<= 0`) are a prefix or a suffix of
//! the screen, found by a binary search on the exact sign. A seg's
//! columns are the intersection of its two ends' ranges ([`column_overlap`]),
//! exactly the columns whose rays cross it the right way.
//!
//! ## Bounds
//!
//! Everything is in fixed-size tables: 128 sectors, 32 flats and 64 wall
//! textures per frame. A sector that does not fit is decoded again at
//! each use, a texture looked up again: the same pixels, later.

use crate::math::{div_toward_zero_by, Division};
use heapless::Vec as HVec;

use super::portal::{Surface, View};
use crate::config::MAX_SCREEN_WIDTH;
use crate::format::{TextureView, NONE, SKY};
use crate::world::{Level, Sector, SectorId, Wall};

/// Most sectors whose data one frame keeps.
pub(crate) const MAX_CACHED_SECTORS: usize = 128;
/// Slots of the sector index: a power of two, at least twice
/// [`MAX_CACHED_SECTORS`].
const INDEX_SLOTS: usize = 256;
/// Most distinct floor and ceiling textures one frame keeps.
const MAX_FLATS: usize = 32;
/// An empty slot.
const EMPTY: u16 = u16::MAX;
/// Most wall textures one frame keeps (more are looked up at each use).
const MAX_KEPT_TEXTURES: usize = 64;

/// A wall's ends relative to the camera, and what follows from them
/// alone: worked out once per frame for the walls the walk meets.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Ends {
    /// `A - P` and `B - P`, 16.16 bits (below 2^33 in magnitude).
    pub(crate) ax: i64,
    pub(crate) ay: i64,
    pub(crate) bx: i64,
    pub(crate) by: i64,
}

impl Ends {
    /// The ends of `wall` seen from `view`.
    #[inline]
    pub(crate) fn new(view: &View<'_>, wall: &Wall) -> Ends {
        let ax = wall.a.x.to_bits() as i64 - view.px;
        let ay = wall.a.y.to_bits() as i64 - view.py;
        let bx = wall.b.x.to_bits() as i64 - view.px;
        let by = wall.b.y.to_bits() as i64 - view.py;
        Ends { ax, ay, bx, by }
    }

    /// `(A - P) x (B - P)`, exact: its sign says which side of the wall's
    /// line the camera is on (negative: in front).
    #[inline]
    pub(crate) fn cross(&self) -> i128 {
        self.ax as i128 * self.by as i128 - self.ay as i128 * self.bx as i128
    }
}

/// What a floor or ceiling shows, for a sector slot.
#[derive(Copy, Clone, Debug)]
enum Surf {
    /// Not kept (too many textures): looked up at each use.
    Unknown,
    /// One palette colour.
    Color(u8),
    /// `flats[i]`.
    Flat(u8),
    /// The sky.
    Sky,
}

/// A sector, decoded, and its floor and ceiling.
#[derive(Copy, Clone, Debug)]
struct CachedSector {
    id: SectorId,
    sector: Sector,
    floor: Surf,
    ceiling: Surf,
}

/// The per-frame tables the walk uses: the sectors seen, decoded, with
/// their floor and ceiling textures, and the wall textures drawn.
pub(crate) struct SectorCache<'a> {
    /// Sector id to slot in `sectors` ([`EMPTY`]: none), open addressing.
    index: [u16; INDEX_SLOTS],
    sectors: HVec<CachedSector, MAX_CACHED_SECTORS>,
    /// The floor and ceiling textures of the sectors in slots.
    flats: HVec<(u16, Surface<'a>), MAX_FLATS>,
    /// The wall textures of the walls drawn, by id.
    kept: HVec<(u16, TextureView<'a>), MAX_KEPT_TEXTURES>,
}

/// Where a sector's data is: a slot of the cache, or (the cache full)
/// the sector itself.
#[derive(Copy, Clone, Debug)]
pub(crate) enum SectorRef {
    /// Slot `n`.
    Slot(u16),
    /// Not cached.
    Direct(Sector),
}

impl<'a> SectorCache<'a> {
    /// Empty tables.
    pub(crate) fn new() -> SectorCache<'a> {
        SectorCache {
            index: [EMPTY; INDEX_SLOTS],
            sectors: HVec::new(),
            flats: HVec::new(),
            kept: HVec::new(),
        }
    }

    /// Texture `id` and where it is kept for [`SectorCache::kept_texture`]
    /// (`u8::MAX`: not kept, the table full); `None` if there is no such
    /// texture.
    pub(crate) fn keep_texture(
        &mut self,
        level: &Level<'a>,
        id: u16,
    ) -> Option<(TextureView<'a>, u8)> {
        if let Some(i) = self.kept.iter().position(|&(k, _)| k == id) {
            return self.kept.get(i).map(|&(_, t)| (t, i as u8));
        }
        let t = level.map().texture(id)?;
        match self.kept.push((id, t)) {
            Ok(()) => Some((t, (self.kept.len() - 1) as u8)),
            Err(_) => Some((t, u8::MAX)),
        }
    }

    /// The texture kept in `slot` by [`SectorCache::keep_texture`].
    #[inline]
    pub(crate) fn kept_texture(&self, slot: u8) -> Option<TextureView<'a>> {
        self.kept.get(slot as usize).map(|&(_, t)| t)
    }

    /// The slot of sector `id` (which must exist), filled on first use.
    pub(crate) fn sector(&mut self, level: &Level<'a>, view: &View<'a>, id: SectorId) -> SectorRef {
        let mut h = (id.0 as usize).wrapping_mul(0x9e37) % INDEX_SLOTS;
        while let Some(&slot) = self.index.get(h) {
            if slot == EMPTY {
                break;
            }
            if let Some(c) = self.sectors.get(slot as usize) {
                if c.id == id {
                    return SectorRef::Slot(slot);
                }
            }
            h = (h + 1) % INDEX_SLOTS;
        }
        self.new_sector(level, view, id, h)
    }

    /// [`SectorCache::sector`] for a sector not seen yet this frame, to go
    /// in index slot `h`.
    #[cold]
    #[inline(never)]
    fn new_sector(
        &mut self,
        level: &Level<'a>,
        view: &View<'a>,
        id: SectorId,
        h: usize,
    ) -> SectorRef {
        let sector = level.sector(id);
        if self.sectors.is_full() || view.routes.slow_sectors {
            return SectorRef::Direct(sector);
        }
        let floor = self.surf(level, view, sector.floor_texture, sector.floor_color);
        let ceiling = self.surf(level, view, sector.ceiling_texture, sector.ceiling_color);
        let slot = self.sectors.len();
        let entry = CachedSector {
            id,
            sector,
            floor,
            ceiling,
        };
        match (self.sectors.push(entry), self.index.get_mut(h)) {
            (Ok(()), Some(i)) => {
                *i = slot as u16;
                SectorRef::Slot(slot as u16)
            }
            _ => SectorRef::Direct(sector),
        }
    }

    /// A floor or ceiling for a slot: its surface, textures kept in
    /// `flats` (or, that full, looked up at each use).
    fn surf(&mut self, level: &Level<'a>, view: &View<'a>, texture: u16, color: u8) -> Surf {
        match resolve(level, view, texture, color) {
            Surface::Color(c) => Surf::Color(c),
            Surface::Sky => Surf::Sky,
            surface => match self.flats.iter().position(|&(id, _)| id == texture) {
                Some(i) => Surf::Flat(i as u8),
                None => match self.flats.push((texture, surface)) {
                    Ok(()) => Surf::Flat((self.flats.len() - 1) as u8),
                    Err(_) => Surf::Unknown,
                },
            },
        }
    }

    /// The decoded sector behind `r`.
    #[inline]
    pub(crate) fn get(&self, r: SectorRef) -> Sector {
        match r {
            SectorRef::Slot(s) => match self.sectors.get(s as usize) {
                Some(c) => c.sector,
                None => EMPTY_SECTOR,
            },
            SectorRef::Direct(s) => s,
        }
    }

    /// What the ceiling (or the floor) of the sector behind `r` shows.
    #[inline]
    pub(crate) fn surface(
        &self,
        level: &Level<'a>,
        view: &View<'a>,
        r: SectorRef,
        ceiling: bool,
    ) -> Surface<'a> {
        let (surf, s) = match r {
            SectorRef::Slot(slot) => match self.sectors.get(slot as usize) {
                Some(c) => (if ceiling { c.ceiling } else { c.floor }, c.sector),
                None => return Surface::Color(0),
            },
            SectorRef::Direct(s) => (Surf::Unknown, s),
        };
        match surf {
            Surf::Color(c) => Surface::Color(c),
            Surf::Sky => Surface::Sky,
            Surf::Flat(i) => match self.flats.get(i as usize) {
                Some(&(_, t)) => t,
                None => Surface::Color(0),
            },
            Surf::Unknown if ceiling => resolve(level, view, s.ceiling_texture, s.ceiling_color),
            Surf::Unknown => resolve(level, view, s.floor_texture, s.floor_color),
        }
    }
}

/// Which columns' rays a point lies on either side of: the columns whose
/// rays `D` have `D x P >= 0` and those with `D x P <= 0`, each a prefix
/// or a suffix of the screen (see the module's notes).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PointSides {
    pub(crate) nonneg: (usize, usize),
    pub(crate) nonpos: (usize, usize),
}

/// [`PointSides`] of a point `(x, y)` (below 2^34 in magnitude): the sign of
/// `D x P` at both ends of the screen and, if it changes, a binary search
/// for where.
pub(crate) fn sides(rays: &impl Rays, x: i64, y: i64) -> PointSides {
    let w = rays.columns();
    let sign = |(dx, dy): (i64, i64)| (dx * y - dy * x).signum();
    let g = |i: usize| sign(rays.ray(i));
    if w == 0 {
        return PointSides::default();
    }
    let (all, none) = ((0, w), (0, 0));
    let (first, last) = rays.edge_rays();
    let (g0, g1) = (sign(first), sign(last));
    match (g0, g1) {
        (1, 1) => PointSides {
            nonneg: all,
            nonpos: none,
        },
        (-1, -1) => PointSides {
            nonneg: none,
            nonpos: all,
        },
        // Zero at column 0: one sign after it.
        (0, _) => PointSides {
            nonneg: if g1 >= 0 { all } else { (0, 1) },
            nonpos: if g1 <= 0 { all } else { (0, 1) },
        },
        // Zero at the last column only.
        (_, 0) => {
            let end = (w - 1, w);
            if g0 > 0 {
                PointSides {
                    nonneg: all,
                    nonpos: end,
                }
            } else {
                PointSides {
                    nonneg: end,
                    nonpos: all,
                }
            }
        }
        _ => {
            // The first column whose sign is not g0's: bracketed from a
            // guess (g(lo) == g0, g(hi) != g0), then a binary search.
            let guess = rays.guess(x, y).clamp(1, w - 1);
            // `g_hi` is g(hi), kept as hi moves rather than asked again.
            let (mut lo, mut hi, mut g_hi) = (0, w - 1, g1);
            let mut step = 1;
            let g_guess = g(guess);
            if g_guess == g0 {
                lo = guess;
                while lo + step < hi {
                    let g_next = g(lo + step);
                    if g_next != g0 {
                        (hi, g_hi) = (lo + step, g_next);
                        break;
                    }
                    lo += step;
                    step *= 2;
                }
            } else {
                (hi, g_hi) = (guess, g_guess);
                while hi > lo + step {
                    let g_next = g(hi - step);
                    if g_next == g0 {
                        lo = hi - step;
                        break;
                    }
                    (hi, g_hi) = (hi - step, g_next);
                    step *= 2;
                }
            }
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                let g_mid = g(mid);
                if g_mid == g0 {
                    lo = mid;
                } else {
                    (hi, g_hi) = (mid, g_mid);
                }
            }
            // A zero at `hi` belongs to both sides.
            let (before, after) = if g_hi == 0 {
                ((0, hi + 1), (hi, w))
            } else {
                ((0, hi), (hi, w))
            };
            if g0 > 0 {
                PointSides {
                    nonneg: before,
                    nonpos: after,
                }
            } else {
                PointSides {
                    nonneg: after,
                    nonpos: before,
                }
            }
        }
    }
}

/// Each column's ray.
pub(crate) trait Rays {
    /// Columns.
    fn columns(&self) -> usize;
    /// Column `x`'s ray, 16.16 bits (each component below 2^18).
    fn ray(&self, x: usize) -> (i64, i64);
    /// The rays of the first and the last column (which every [`sides`]
    /// looks at).
    fn edge_rays(&self) -> ((i64, i64), (i64, i64)) {
        (self.ray(0), self.ray(self.columns().saturating_sub(1)))
    }
    /// About the first column right of the point `(x, y)` (any column
    /// will do: it only starts the search).
    fn guess(&self, x: i64, y: i64) -> usize;
    /// How the renderer divides ([`View::division`]).
    fn division(&self) -> Division {
        Division::Integer
    }
}

impl Rays for View<'_> {
    #[inline]
    fn division(&self) -> Division {
        self.division
    }

    fn columns(&self) -> usize {
        self.width.clamp(1, MAX_SCREEN_WIDTH as i64) as usize
    }

    fn ray(&self, x: usize) -> (i64, i64) {
        View::ray(self, x)
    }

    #[inline]
    fn edge_rays(&self) -> ((i64, i64), (i64, i64)) {
        self.edge_rays
    }

    /// (More than a start here: the BSP walk's box test takes it, for
    /// points a map unit or more in front, as within a column before
    /// and two after the change of side; `bsp::box_columns_near`.)
    fn guess(&self, x: i64, y: i64) -> usize {
        // Where the point projects: k = side / depth, column
        // (k + 1) * width / 2.
        let (depth, side) = self.view_coords(x, y);
        if depth <= 0 {
            return 0;
        }
        let w = self.width;
        let k =
            div_toward_zero_by(self.division, side.saturating_mul(w), depth).clamp(-2 * w, 2 * w);
        ((k + w) / 2).clamp(0, w) as usize
    }
}

/// The intersection of two column ranges.
pub(crate) fn column_overlap(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    (a.0.max(b.0), a.1.min(b.1))
}

/// What a floor or ceiling texture shows (`color` if untextured).
fn resolve<'a>(level: &Level<'a>, view: &View<'a>, texture: u16, color: u8) -> Surface<'a> {
    match texture {
        NONE => Surface::Color(color),
        SKY if view.sky.is_some() => Surface::Sky,
        SKY => Surface::Color(color),
        t => match level.map().texture(t) {
            None => Surface::Color(color),
            Some(v) => match (v.width, v.height, <&[u8; 4096]>::try_from(v.pixels)) {
                (64, 64, Ok(pixels)) => Surface::Flat64(pixels),
                _ => Surface::Flat(v),
            },
        },
    }
}

/// What a slot that is not there reads as (never, after `sector`).
const EMPTY_SECTOR: Sector = Sector {
    floor: crate::math::Fx::ZERO,
    ceiling: crate::math::Fx::ZERO,
    light: 0,
    floor_color: 0,
    ceiling_color: 0,
    wall_color: 0,
    floor_texture: crate::format::NONE,
    ceiling_texture: crate::format::NONE,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Angle, Fx};

    /// The rays [`View::ray`] gives a `width`-wide screen facing
    /// `angle` (1/64 degrees).
    fn rays(width: usize, angle: i32) -> [(i32, i32); MAX_SCREEN_WIDTH] {
        let (c, s) = Angle::from_degrees(Fx::from_bits(angle << 10)).cos_sin();
        let (fx, fy) = (c.to_bits() as i64, s.to_bits() as i64);
        let (rx, ry) = (fy, -fx);
        let w = width as i64;
        core::array::from_fn(|x| {
            let k = ((2 * x as i64 + 1 - w) << 16) / w;
            (
                (fx + rx * k / (1 << 16)) as i32,
                (fy + ry * k / (1 << 16)) as i32,
            )
        })
    }

    /// Rays from a table.
    struct Table<'r>(&'r [(i32, i32)]);

    impl Rays for Table<'_> {
        fn columns(&self) -> usize {
            self.0.len()
        }
        fn ray(&self, x: usize) -> (i64, i64) {
            let (dx, dy) = self.0[x];
            (dx as i64, dy as i64)
        }
        fn guess(&self, x: i64, y: i64) -> usize {
            // Any guess must do.
            (x ^ y).unsigned_abs() as usize % (self.0.len() + 3)
        }
    }

    /// A small deterministic generator.
    fn next(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 17
    }

    #[test]
    fn the_columns_on_one_side_of_a_point_are_one_range() {
        let mut seed = 7;
        for _ in 0..300 {
            let width = [1, 2, 3, 16, 320, 1024][next(&mut seed) as usize % 6];
            let angle = (next(&mut seed) % (360 * 64)) as i32;
            let all = rays(width, angle);
            let rays = &all[..width];
            for _ in 0..40 {
                // Points near and far, on the axes and off them.
                let scale = [1, 1 << 8, 1 << 16, 1 << 24, 1 << 33][next(&mut seed) as usize % 5];
                let mut coord = || {
                    let r = next(&mut seed) as i64;
                    match r % 7 {
                        0 => 0,
                        _ => (r % (2 * scale + 1)) - scale,
                    }
                };
                let (x, y) = (coord(), coord());
                let got = sides(&Table(rays), x, y);
                for negate in [false, true] {
                    let (lo, hi) = if negate { got.nonpos } else { got.nonneg };
                    for (i, &(dx, dy)) in rays.iter().enumerate() {
                        let c = dx as i64 * y - dy as i64 * x;
                        let want = if negate { c <= 0 } else { c >= 0 };
                        assert_eq!(
                            want,
                            lo <= i && i < hi,
                            "{width} {angle} {x} {y} {negate} {i}"
                        );
                    }
                }
            }
        }
    }
}
