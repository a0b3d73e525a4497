//! Floors: a sector's floor going up or down to a height found when it
//! starts, as DOOM's `p_floor.c` moves them (`EV_DoFloor`, `T_MoveFloor`).
//!
//! A floor rising under a body carries it up; one that would leave a body
//! no room under its ceiling stays where it is and tries again next tick
//! (DOOM's non-crushing floors; its crushing ones hurt, and the engine
//! has no health, so they stop the same way).

use super::lift::lowest_floor_around;
use super::plane::{neighbours, Plane, SectorBox, Stage, Step};
use crate::format::wall_action;
use crate::math::Fx;
use crate::world::{Level, SectorId};

/// How fast a floor moves, units a tick (DOOM's `FLOORSPEED`).
pub const SPEED: Fx = Fx::lit("1");
/// How fast a fast floor moves (`FLOORSPEED * 4`).
pub const FAST_SPEED: Fx = Fx::lit("4");
/// How fast slow stairs rise (`FLOORSPEED / 4`).
pub const STAIRS_SPEED: Fx = Fx::lit("0.25");
/// How fast a platform that changes its flat rises (`PLATSPEED / 2`),
/// and a donut's floors move (`FLOORSPEED / 2`).
pub const PLAT_SPEED: Fx = Fx::lit("0.5");

/// A moving floor.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Floor {
    /// Its sector.
    pub sector: SectorId,
    /// Where it stops.
    pub dest: Fx,
    /// Units a tick.
    pub speed: Fx,
    /// Going up.
    pub up: bool,
    /// The flat its floor takes when it arrives, if it changes then.
    pub flat_at_end: Option<u16>,
    pub(crate) near: SectorBox,
}

/// The highest floor next to `sector`, its own left out (DOOM's
/// `P_FindHighestFloorSurrounding`, which starts from -500).
fn highest_floor_around(level: &Level<'_>, sector: SectorId) -> Fx {
    neighbours(level, sector)
        .map(|s| s.floor)
        .fold(Fx::from_num(-500), Fx::max)
}

/// The lowest ceiling next to `sector`, its own left out, or `None`
/// (`P_FindLowestCeilingSurrounding`).
fn lowest_ceiling_around(level: &Level<'_>, sector: SectorId) -> Option<Fx> {
    neighbours(level, sector).map(|s| s.ceiling).reduce(Fx::min)
}

/// The lowest floor next to `sector` above `height`, or `height` if none
/// is (`P_FindNextHighestFloor`).
fn next_floor_above(level: &Level<'_>, sector: SectorId, height: Fx) -> Fx {
    neighbours(level, sector)
        .map(|s| s.floor)
        .filter(|&f| f > height)
        .reduce(Fx::min)
        .unwrap_or(height)
}

/// The flat of the first neighbour of `sector` whose floor is at
/// `height`, found along its two-sided walls in order (as
/// `lowerAndChange` finds its model), or `None`.
fn flat_level_with(level: &Level<'_>, sector: SectorId, height: Fx) -> Option<u16> {
    neighbours(level, sector)
        .find(|s| s.floor == height)
        .map(|s| s.floor_texture)
}

impl Floor {
    /// A floor for `action` on `sector`, of the level as it is now.
    pub(crate) fn new(level: &Level<'_>, sector: SectorId, action: u8) -> Option<Floor> {
        use wall_action::*;
        let here = level.sector(sector);
        // Up to the lowest ceiling around, never past its own.
        let to_ceiling = || {
            lowest_ceiling_around(level, sector)
                .unwrap_or(here.ceiling)
                .min(here.ceiling)
        };
        let (dest, speed, up) = match action & !BACK_SECTOR {
            FLOOR_LOWER => (highest_floor_around(level, sector), SPEED, false),
            FLOOR_LOWER_TO_LOWEST | FLOOR_LOWER_TO_LOWEST_CHANGE => {
                (lowest_floor_around(level, sector), SPEED, false)
            }
            FLOOR_LOWER_FAST => {
                let highest = highest_floor_around(level, sector);
                // DOOM stops a turbo floor 8 above a lower neighbour.
                let dest = if highest != here.floor {
                    highest.saturating_add(Fx::from_num(8))
                } else {
                    highest
                };
                (dest, FAST_SPEED, false)
            }
            FLOOR_RAISE => (to_ceiling(), SPEED, true),
            FLOOR_RAISE_CRUSH => (to_ceiling().saturating_sub(Fx::from_num(8)), SPEED, true),
            FLOOR_RAISE_TO_NEXT => (next_floor_above(level, sector, here.floor), SPEED, true),
            FLOOR_RAISE_TO_NEXT_FAST => (
                next_floor_above(level, sector, here.floor),
                FAST_SPEED,
                true,
            ),
            FLOOR_RAISE_24 | FLOOR_RAISE_24_CHANGE => {
                (here.floor.saturating_add(Fx::from_num(24)), SPEED, true)
            }
            PLAT_RAISE_TO_NEXT_CHANGE => (
                next_floor_above(level, sector, here.floor),
                PLAT_SPEED,
                true,
            ),
            PLAT_RAISE_24_CHANGE => (
                here.floor.saturating_add(Fx::from_num(24)),
                PLAT_SPEED,
                true,
            ),
            PLAT_RAISE_32_CHANGE => (
                here.floor.saturating_add(Fx::from_num(32)),
                PLAT_SPEED,
                true,
            ),
            FLOOR_RAISE_512 => (here.floor.saturating_add(Fx::from_num(512)), SPEED, true),
            _ => return None,
        };
        let flat_at_end = if action & !BACK_SECTOR == FLOOR_LOWER_TO_LOWEST_CHANGE {
            flat_level_with(level, sector, dest)
        } else {
            None
        };
        Some(Floor {
            sector,
            dest,
            speed,
            up,
            flat_at_end,
            near: SectorBox::of(level, sector),
        })
    }

    /// A floor rising to `dest` at `speed` (a step of stairs).
    pub(crate) fn rising_to(level: &Level<'_>, sector: SectorId, dest: Fx, speed: Fx) -> Floor {
        Floor::moving_to(level, sector, dest, speed, true)
    }

    /// A floor going to `dest` at `speed`, `up` or down.
    pub(crate) fn moving_to(
        level: &Level<'_>,
        sector: SectorId,
        dest: Fx,
        speed: Fx,
        up: bool,
    ) -> Floor {
        Floor {
            sector,
            dest,
            speed,
            up,
            flat_at_end: None,
            near: SectorBox::of(level, sector),
        }
    }

    /// One tick (DOOM's `T_MoveFloor`). False once the floor is there.
    pub(crate) fn tick(&mut self, stage: &mut Stage<'_, '_>) -> bool {
        let step = stage.step(
            self.sector,
            &self.near,
            Plane::Floor,
            self.speed,
            self.dest,
            self.up,
        );
        if step != Step::Arrived {
            // Blocked: a body has no room; try again next tick.
            return true;
        }
        if let Some(flat) = self.flat_at_end {
            stage.set_floor_flat(self.sector, flat);
        }
        false
    }
}
