//! Lifts: a sector whose floor goes down to its lowest neighbour's,
//! waits and comes back up, as DOOM's `p_plats.c` moves its
//! `downWaitUpStay` platforms.

use super::plane::{neighbours, Plane, SectorBox, Stage, Step};
use crate::format::wall_action;
use crate::math::Fx;
use crate::world::{Level, SectorId};

/// How fast a lift moves, units a tick (DOOM's `PLATSPEED * 4`).
pub const SPEED: Fx = Fx::lit("4");
/// How fast a fast lift moves (DOOM's blazing lifts, `PLATSPEED * 8`).
pub const FAST_SPEED: Fx = Fx::lit("8");
/// Ticks a lift waits at the bottom (DOOM's `PLATWAIT` seconds).
pub const WAIT: u16 = 35 * 3;

/// Which way a lift is going.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LiftMotion {
    /// Going down.
    Down,
    /// Waiting at the bottom.
    Waiting,
    /// Coming back up.
    Up,
}

/// A moving lift.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lift {
    /// The lift's sector.
    pub sector: SectorId,
    /// Which way it is going.
    pub motion: LiftMotion,
    /// Its floor at the bottom.
    pub low: Fx,
    /// Its floor at the top, where it started.
    pub high: Fx,
    /// Units a tick.
    pub speed: Fx,
    /// Ticks left to wait.
    pub countdown: u16,
    pub(crate) near: SectorBox,
}

/// The lowest floor of the sectors next to `sector`, or its own if that
/// is lower (DOOM's `P_FindLowestFloorSurrounding`, as `EV_DoPlat` uses
/// it).
fn lowest_floor_around(level: &Level<'_>, sector: SectorId) -> Fx {
    neighbours(level, sector)
        .map(|s| s.floor)
        .fold(level.sector(sector).floor, Fx::min)
}

impl Lift {
    /// A lift for `action` on `sector`, of the level as it is now.
    pub(crate) fn new(level: &Level<'_>, sector: SectorId, action: u8) -> Option<Lift> {
        let speed = match action & !wall_action::BACK_SECTOR {
            wall_action::LIFT => SPEED,
            wall_action::LIFT_FAST => FAST_SPEED,
            _ => return None,
        };
        Some(Lift {
            sector,
            motion: LiftMotion::Down,
            low: lowest_floor_around(level, sector),
            high: level.sector(sector).floor,
            speed,
            countdown: 0,
            near: SectorBox::of(level, sector),
        })
    }

    /// One tick (DOOM's `T_PlatRaise`). False once the lift is done.
    pub(crate) fn tick(&mut self, stage: &mut Stage<'_, '_>) -> bool {
        match self.motion {
            LiftMotion::Down => {
                let step = stage.step(
                    self.sector,
                    &self.near,
                    Plane::Floor,
                    self.speed,
                    self.low,
                    false,
                );
                if step == Step::Arrived {
                    self.motion = LiftMotion::Waiting;
                    self.countdown = WAIT;
                }
                true
            }
            LiftMotion::Waiting => {
                self.countdown = self.countdown.saturating_sub(1);
                if self.countdown == 0 {
                    self.motion = LiftMotion::Up;
                }
                true
            }
            LiftMotion::Up => {
                let step = stage.step(
                    self.sector,
                    &self.near,
                    Plane::Floor,
                    self.speed,
                    self.high,
                    true,
                );
                match step {
                    Step::Arrived => false,
                    // No room for a body on it: back down, and wait again.
                    Step::Blocked => {
                        self.motion = LiftMotion::Down;
                        true
                    }
                    Step::Moved => true,
                }
            }
        }
    }
}
