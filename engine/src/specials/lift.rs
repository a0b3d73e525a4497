//! Lifts: a sector whose floor goes down to its lowest neighbour's,
//! waits and comes back up, as DOOM's `p_plats.c` moves its
//! `downWaitUpStay` platforms.

use super::light::Random;
use super::plane::{neighbours, Plane, SectorBox, Stage, Step};
use crate::format::wall_action;
use crate::math::Fx;
use crate::world::{Level, SectorId};

/// How fast a lift moves, units a tick (DOOM's `PLATSPEED * 4`).
pub const SPEED: Fx = Fx::lit("4");
/// How fast a fast lift moves (DOOM's blazing lifts, `PLATSPEED * 8`).
pub const FAST_SPEED: Fx = Fx::lit("8");
/// How fast a perpetual platform moves (DOOM's `PLATSPEED`).
pub const PERPETUAL_SPEED: Fx = Fx::lit("1");
/// Ticks a lift waits at the bottom (DOOM's `PLATWAIT` seconds).
pub const WAIT: u16 = 35 * 3;
/// Boom's generalised lift delays, ticks, by the delay field of
/// [`wall_action::BOOM_LIFT`] (its speeds are [`super::door::BOOM_SPEEDS`]).
pub const BOOM_WAITS: [u16; 4] = [35, WAIT, 35 * 5, 35 * 10];

/// Which way a lift is going.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LiftMotion {
    /// Going down.
    Down,
    /// Waiting at the bottom.
    Waiting,
    /// Coming back up.
    Up,
    /// A perpetual platform waiting at the top.
    WaitingTop,
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
    /// Ticks it waits at each end ([`WAIT`]; Boom's lifts say their own).
    pub wait: u16,
    /// A perpetual platform: down and up for ever, until stopped.
    pub perpetual: bool,
    pub(crate) near: SectorBox,
}

/// The lowest floor of the sectors next to `sector`, or its own if that
/// is lower (DOOM's `P_FindLowestFloorSurrounding`, as `EV_DoPlat` uses
/// it, and `p_floor.c`'s `lowerFloorToLowest`).
pub(super) fn lowest_floor_around(level: &Level<'_>, sector: SectorId) -> Fx {
    neighbours(level, sector)
        .map(|s| s.floor)
        .fold(level.sector(sector).floor, Fx::min)
}

impl Lift {
    /// A lift for `action` on `sector`, of the level as it is now; a
    /// perpetual platform starts up or down as `random` says (DOOM's
    /// `P_Random() & 1`).
    pub(crate) fn new(
        level: &Level<'_>,
        sector: SectorId,
        action: u8,
        random: &mut Random,
    ) -> Option<Lift> {
        let floor = level.sector(sector).floor;
        let a = action & !wall_action::BACK_SECTOR;
        let (speed, wait, perpetual) = match a {
            wall_action::LIFT => (SPEED, WAIT, false),
            wall_action::LIFT_FAST => (FAST_SPEED, WAIT, false),
            wall_action::LIFT_PERPETUAL => (PERPETUAL_SPEED, WAIT, true),
            wall_action::BOOM_LIFT..=wall_action::BOOM_LIFT_LAST => {
                let (_, speed, delay) = wall_action::boom_fields(a);
                (super::door::BOOM_SPEEDS[speed], BOOM_WAITS[delay], false)
            }
            _ => return None,
        };
        let (high, motion) = if perpetual {
            // Up to the highest floor around, or its own if higher.
            let highest = neighbours(level, sector)
                .map(|s| s.floor)
                .fold(floor, Fx::max);
            let motion = if random.byte() & 1 == 0 {
                LiftMotion::Down
            } else {
                LiftMotion::Up
            };
            (highest, motion)
        } else {
            (floor, LiftMotion::Down)
        };
        Some(Lift {
            sector,
            motion,
            low: lowest_floor_around(level, sector),
            high,
            speed,
            countdown: 0,
            wait,
            perpetual,
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
                    self.countdown = self.wait;
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
            LiftMotion::WaitingTop => {
                self.countdown = self.countdown.saturating_sub(1);
                if self.countdown == 0 {
                    self.motion = LiftMotion::Down;
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
                    Step::Arrived if self.perpetual => {
                        self.motion = LiftMotion::WaitingTop;
                        self.countdown = self.wait;
                        true
                    }
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
