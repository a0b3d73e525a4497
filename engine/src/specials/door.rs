//! Doors: a sector whose ceiling rises to open and falls to close, as
//! DOOM's `p_doors.c` moves them.

use super::plane::{neighbours, Plane, SectorBox, Stage, Step};
use crate::format::wall_action;
use crate::math::Fx;
use crate::world::{Level, SectorId};

/// How fast a door moves, units a tick (DOOM's `VDOORSPEED`).
pub const SPEED: Fx = Fx::lit("2");
/// How fast a fast door moves (DOOM's blazing doors: four times).
pub const FAST_SPEED: Fx = Fx::lit("8");
/// Ticks an opened door waits before it closes (DOOM's `VDOORWAIT`).
pub const WAIT: u16 = 150;
/// Ticks a closed [`wall_action::DOOR_CLOSE_WAIT_OPEN`] door waits.
pub const LONG_WAIT: u16 = 35 * 30;
/// An open door's ceiling stops this far below the lowest neighbouring
/// ceiling.
pub const LIP: Fx = Fx::lit("4");
/// Boom's generalised speeds, units a tick, by the speed field of
/// [`wall_action::BOOM_DOOR`] and [`wall_action::BOOM_LIFT`] (slow,
/// normal, fast, turbo).
pub const BOOM_SPEEDS: [Fx; 4] = [Fx::lit("2"), Fx::lit("4"), Fx::lit("8"), Fx::lit("16")];
/// Boom's generalised door delays, ticks, by the delay field.
pub const BOOM_WAITS: [u16; 4] = [35, WAIT, 2 * WAIT, 7 * WAIT];

/// What a door does in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DoorKind {
    /// Opens, waits, closes.
    Raise,
    /// Opens and stays open.
    Open,
    /// Closes and stays closed.
    Close,
    /// Closes, waits, opens.
    CloseWaitOpen,
}

impl DoorKind {
    /// How long DOOM's doors of this kind wait: [`LONG_WAIT`] shut for
    /// [`DoorKind::CloseWaitOpen`], else [`WAIT`] open.
    pub const fn dooms_wait(self) -> u16 {
        match self {
            DoorKind::CloseWaitOpen => LONG_WAIT,
            _ => WAIT,
        }
    }
}

/// Which way a door is going.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// Opening.
    Up,
    /// Waiting, open or shut.
    Waiting,
    /// Closing.
    Down,
}

/// A moving door.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Door {
    /// The door's sector.
    pub sector: SectorId,
    /// What it does.
    pub kind: DoorKind,
    /// Which way it is going.
    pub motion: Motion,
    /// Where its ceiling stops, open.
    pub top: Fx,
    /// Units a tick.
    pub speed: Fx,
    /// Ticks left to wait.
    pub countdown: u16,
    /// Ticks it waits, open ([`WAIT`]) or, closing to open again, shut
    /// ([`LONG_WAIT`]); Boom's doors say their own.
    pub wait: u16,
    pub(crate) near: SectorBox,
}

/// The lowest ceiling of the sectors next to `sector` (its own if it has
/// no neighbour): DOOM's `P_FindLowestCeilingSurrounding`.
fn lowest_neighbour_ceiling(level: &Level<'_>, sector: SectorId) -> Fx {
    neighbours(level, sector)
        .map(|s| s.ceiling)
        .min()
        .unwrap_or_else(|| level.sector(sector).ceiling)
}

impl Door {
    /// A door for `action` (a door action of [`wall_action`]) on
    /// `sector`, of the level as it is now. `None` for an action that is
    /// not a door's.
    pub(crate) fn new(level: &Level<'_>, sector: SectorId, action: u8) -> Option<Door> {
        let a = action & !wall_action::BACK_SECTOR;
        let (kind, speed, wait) = match a {
            wall_action::DOOR_RAISE => (DoorKind::Raise, SPEED, WAIT),
            wall_action::DOOR_OPEN => (DoorKind::Open, SPEED, WAIT),
            wall_action::DOOR_CLOSE => (DoorKind::Close, SPEED, WAIT),
            wall_action::DOOR_CLOSE_WAIT_OPEN => (DoorKind::CloseWaitOpen, SPEED, LONG_WAIT),
            wall_action::DOOR_FAST_RAISE => (DoorKind::Raise, FAST_SPEED, WAIT),
            wall_action::DOOR_FAST_OPEN => (DoorKind::Open, FAST_SPEED, WAIT),
            wall_action::DOOR_FAST_CLOSE => (DoorKind::Close, FAST_SPEED, WAIT),
            wall_action::BOOM_DOOR..=wall_action::BOOM_DOOR_LAST => {
                let (kind, speed, delay) = wall_action::boom_fields(a);
                let kind = [
                    DoorKind::Raise,
                    DoorKind::Open,
                    DoorKind::CloseWaitOpen,
                    DoorKind::Close,
                ][kind];
                (kind, BOOM_SPEEDS[speed], BOOM_WAITS[delay])
            }
            _ => return None,
        };
        let here = level.sector(sector);
        let (motion, top) = match kind {
            DoorKind::CloseWaitOpen => (Motion::Down, here.ceiling),
            DoorKind::Close => (
                Motion::Down,
                lowest_neighbour_ceiling(level, sector).saturating_sub(LIP),
            ),
            DoorKind::Raise | DoorKind::Open => (
                Motion::Up,
                lowest_neighbour_ceiling(level, sector).saturating_sub(LIP),
            ),
        };
        Some(Door {
            sector,
            kind,
            motion,
            // A door never opens below its own floor.
            top: top.max(here.floor),
            speed,
            countdown: 0,
            wait,
            near: SectorBox::of(level, sector),
        })
    }

    /// Used again while it moves or waits (DOOM's `EV_VerticalDoor` on a
    /// busy door): a raising door closing goes back up, else it closes.
    /// Other kinds ignore it.
    pub(crate) fn used_again(&mut self) {
        if self.kind == DoorKind::Raise {
            self.motion = match self.motion {
                Motion::Down => Motion::Up,
                Motion::Up | Motion::Waiting => Motion::Down,
            };
        }
    }

    /// One tick (DOOM's `T_VerticalDoor`). False once the door is done.
    pub(crate) fn tick(&mut self, stage: &mut Stage<'_, '_>) -> bool {
        match self.motion {
            Motion::Waiting => {
                self.countdown = self.countdown.saturating_sub(1);
                if self.countdown == 0 {
                    match self.kind {
                        DoorKind::Raise => self.motion = Motion::Down,
                        DoorKind::CloseWaitOpen => self.motion = Motion::Up,
                        DoorKind::Open | DoorKind::Close => return false,
                    }
                }
                true
            }
            Motion::Down => {
                let floor = stage
                    .sectors
                    .get(self.sector.0 as usize)
                    .map_or(Fx::ZERO, |s| s.floor);
                let step = stage.step(
                    self.sector,
                    &self.near,
                    Plane::Ceiling,
                    self.speed,
                    floor,
                    false,
                );
                match (step, self.kind) {
                    (Step::Arrived, DoorKind::CloseWaitOpen) => {
                        self.motion = Motion::Waiting;
                        self.countdown = self.wait;
                        true
                    }
                    (Step::Arrived, _) => false,
                    // A closing door that meets a head goes back up; one
                    // that only closes keeps pressing, without crushing.
                    (Step::Blocked, DoorKind::Close) => true,
                    (Step::Blocked, _) => {
                        self.motion = Motion::Up;
                        true
                    }
                    (Step::Moved, _) => true,
                }
            }
            Motion::Up => {
                let step = stage.step(
                    self.sector,
                    &self.near,
                    Plane::Ceiling,
                    self.speed,
                    self.top,
                    true,
                );
                match (step, self.kind) {
                    (Step::Arrived, DoorKind::Raise) => {
                        self.motion = Motion::Waiting;
                        self.countdown = self.wait;
                        true
                    }
                    (Step::Arrived, _) => false,
                    _ => true,
                }
            }
        }
    }
}
