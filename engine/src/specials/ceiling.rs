//! Ceilings and crushers: a sector's ceiling going down or up to a height
//! found when it starts, or a crusher going down and up for ever, as
//! DOOM's `p_ceilng.c` moves them.
//!
//! A ceiling coming down onto a head stops there and tries again next
//! tick: DOOM's crushers hurt what they press on, and the engine has no
//! health, so nothing is crushed and the crusher waits for the body to
//! leave.

use super::plane::{neighbours, Plane, SectorBox, Stage, Step};
use crate::format::wall_action;
use crate::math::Fx;
use crate::world::{Level, SectorId};

/// How fast a ceiling moves, units a tick (DOOM's `CEILSPEED`).
pub const SPEED: Fx = Fx::lit("1");
/// How fast a fast crusher moves (`CEILSPEED * 2`).
pub const FAST_SPEED: Fx = Fx::lit("2");
/// How far above the floor a crusher comes down.
pub const CRUSH_GAP: Fx = Fx::lit("8");

/// A moving ceiling.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ceiling {
    /// Its sector.
    pub sector: SectorId,
    /// Its lowest height (where a lowering one stops).
    pub bottom: Fx,
    /// Its highest (where a rising one stops).
    pub top: Fx,
    /// Units a tick.
    pub speed: Fx,
    /// Going down.
    pub down: bool,
    /// A crusher: it turns at each end instead of stopping.
    pub crusher: bool,
    pub(crate) near: SectorBox,
}

/// The highest ceiling next to `sector`, its own left out (DOOM's
/// `P_FindHighestCeilingSurrounding`, which starts from 0).
fn highest_ceiling_around(level: &Level<'_>, sector: SectorId) -> Fx {
    neighbours(level, sector)
        .map(|s| s.ceiling)
        .fold(Fx::ZERO, Fx::max)
}

impl Ceiling {
    /// A ceiling for `action` on `sector`, of the level as it is now.
    pub(crate) fn new(level: &Level<'_>, sector: SectorId, action: u8) -> Option<Ceiling> {
        use wall_action::*;
        let here = level.sector(sector);
        let gap = here.floor.saturating_add(CRUSH_GAP);
        let (bottom, top, speed, down, crusher) = match action & !BACK_SECTOR {
            CEILING_LOWER_TO_FLOOR => (here.floor, here.ceiling, SPEED, true, false),
            CEILING_RAISE_TO_HIGHEST => (
                here.ceiling,
                highest_ceiling_around(level, sector),
                SPEED,
                false,
                false,
            ),
            CEILING_LOWER_AND_CRUSH => (gap, here.ceiling, SPEED, true, false),
            CEILING_CRUSHER => (gap, here.ceiling, SPEED, true, true),
            CEILING_CRUSHER_FAST => (gap, here.ceiling, FAST_SPEED, true, true),
            _ => return None,
        };
        Some(Ceiling {
            sector,
            bottom,
            top,
            speed,
            down,
            crusher,
            near: SectorBox::of(level, sector),
        })
    }

    /// One tick (DOOM's `T_MoveCeiling`). False once it is done (a
    /// crusher never is, until stopped).
    pub(crate) fn tick(&mut self, stage: &mut Stage<'_, '_>) -> bool {
        let dest = if self.down { self.bottom } else { self.top };
        let step = stage.step(
            self.sector,
            &self.near,
            Plane::Ceiling,
            self.speed,
            dest,
            !self.down,
        );
        match step {
            Step::Arrived if self.crusher => {
                self.down = !self.down;
                true
            }
            Step::Arrived => false,
            // Blocked by a head, or moved: go on next tick.
            Step::Blocked | Step::Moved => true,
        }
    }
}
