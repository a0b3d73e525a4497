//! Moving one floor or ceiling a step, with the bodies over it: DOOM's
//! `T_MovePlane` and `P_ChangeSector`, heap-free.

use crate::collide::height_clip::{height_clip, over_sector};
use crate::game::Body;
use crate::math::{Fx, WVec};
use crate::world::{Level, Sector, SectorId, SectorState};

/// Which of a sector's planes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Plane {
    Floor,
    Ceiling,
}

/// What a step of a plane did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// It moved by its speed.
    Moved,
    /// It would have left a body without room: it stayed where it was.
    Blocked,
    /// It reached its destination.
    Arrived,
}

/// The sectors on the other side of `sector`'s two-sided walls, as they
/// are now (once per wall: a sector next to it along two walls comes
/// twice), itself left out.
pub(crate) fn neighbours<'l>(
    level: &'l Level<'_>,
    sector: SectorId,
) -> impl Iterator<Item = Sector> + 'l {
    level.sector_walls(sector).filter_map(move |id| {
        let other = level.wall(id).other_side(sector)?;
        (other != sector).then(|| level.sector(other))
    })
}

/// The box round a sector, for finding the bodies near it cheaply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SectorBox {
    pub(crate) lo: WVec,
    pub(crate) hi: WVec,
}

impl SectorBox {
    /// The box round `sector`'s walls.
    pub(crate) fn of(level: &Level<'_>, sector: SectorId) -> SectorBox {
        let mut b: Option<SectorBox> = None;
        for id in level.sector_walls(sector) {
            let w = level.wall(id);
            for p in [w.a.wide(), w.b.wide()] {
                let bb = b.get_or_insert(SectorBox { lo: p, hi: p });
                bb.lo = WVec::new(bb.lo.x.min(p.x), bb.lo.y.min(p.y));
                bb.hi = WVec::new(bb.hi.x.max(p.x), bb.hi.y.max(p.y));
            }
        }
        b.unwrap_or(SectorBox {
            lo: WVec::ZERO,
            hi: WVec::ZERO,
        })
    }

    fn near(&self, body: &Body) -> bool {
        let (p, r) = (body.at.pos.wide(), crate::math::wide(body.shape.radius));
        p.x + r > self.lo.x && p.x - r < self.hi.x && p.y + r > self.lo.y && p.y - r < self.hi.y
    }
}

/// Everything a plane's step touches: the level as built (its walls), the
/// sectors' state and the bodies.
pub(crate) struct Stage<'s, 'a> {
    pub(crate) map: Level<'a>,
    pub(crate) sectors: &'s mut [SectorState],
    pub(crate) bodies: &'s mut [Body],
}

impl Stage<'_, '_> {
    fn height(&self, sector: SectorId, plane: Plane) -> Option<Fx> {
        let s = self.sectors.get(sector.0 as usize)?;
        Some(match plane {
            Plane::Floor => s.floor,
            Plane::Ceiling => s.ceiling,
        })
    }

    fn set(&mut self, sector: SectorId, plane: Plane, h: Fx) {
        if let Some(s) = self.sectors.get_mut(sector.0 as usize) {
            match plane {
                Plane::Floor => s.floor = h,
                Plane::Ceiling => s.ceiling = h,
            }
        }
    }

    /// Gives `sector`'s floor the flat `flat`.
    pub(crate) fn set_floor_flat(&mut self, sector: SectorId, flat: u16) {
        if let Some(s) = self.sectors.get_mut(sector.0 as usize) {
            s.floor_texture = flat;
        }
    }

    /// Puts every body over `sector` where the planes now say (DOOM's
    /// `P_ChangeSector`). False if one of them does not fit.
    fn change_sector(&mut self, sector: SectorId, near: &SectorBox) -> bool {
        let level = self.map.with_state(self.sectors);
        let mut all_fit = true;
        for body in self.bodies.iter_mut() {
            if !near.near(body) || !over_sector(&level, &body.shape, &body.at, sector) {
                continue;
            }
            let clip = height_clip(&level, &body.shape, &body.at, body.on_ground);
            body.at.z = clip.z;
            all_fit &= clip.fits;
        }
        all_fit
    }

    /// Moves `plane` of `sector` by `speed` towards `dest` (`up` or down),
    /// as DOOM's `T_MovePlane` with `crush == false`: a step that would
    /// leave a body without room is undone.
    pub(crate) fn step(
        &mut self,
        sector: SectorId,
        near: &SectorBox,
        plane: Plane,
        speed: Fx,
        dest: Fx,
        up: bool,
    ) -> Step {
        let Some(now) = self.height(sector, plane) else {
            return Step::Arrived;
        };
        // Already there (a door opened higher than it opens): no jump.
        if (up && now >= dest) || (!up && now <= dest) {
            return Step::Arrived;
        }
        let (next, last) = if up {
            let n = now.saturating_add(speed);
            if n >= dest {
                (dest, true)
            } else {
                (n, false)
            }
        } else {
            let n = now.saturating_sub(speed);
            if n <= dest {
                (dest, true)
            } else {
                (n, false)
            }
        };
        // A plane never passes its opposite: a floor stops at the ceiling.
        let next = match (plane, self.sectors.get(sector.0 as usize)) {
            (Plane::Floor, Some(s)) => next.min(s.ceiling),
            (Plane::Ceiling, Some(s)) => next.max(s.floor),
            _ => next,
        };
        self.set(sector, plane, next);
        // A ceiling going up leaves more room: DOOM does not check it.
        let rising_ceiling = up && plane == Plane::Ceiling;
        if !self.change_sector(sector, near) && !rising_ceiling {
            self.set(sector, plane, now);
            self.change_sector(sector, near);
            // (DOOM calls a blocked last step arrived, and a door then
            // stays a crack open over the body; here it goes back up.)
            return Step::Blocked;
        }
        if last {
            Step::Arrived
        } else {
            Step::Moved
        }
    }
}
