//! Teleporters: where a [`TELEPORT`](crate::format::wall_action::TELEPORT)
//! special sends the player (DOOM's `EV_Teleport`).

use crate::format::kind;
use crate::math::{Angle, Vec2};
use crate::world::{Level, SectorId};

/// Ticks the player stands still after a teleport, whatever its input
/// (DOOM's `reactiontime` of 18).
pub const FREEZE_TICKS: u8 = 18;

/// Where a teleport puts the player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Destination {
    /// The destination thing's position.
    pub pos: Vec2,
    /// The way it faces.
    pub angle: Angle,
    /// The sector it stands in.
    pub sector: SectorId,
}

/// The destination of a teleport to `tag`: the
/// [`kind::TELEPORT_DESTINATION`] thing in the lowest-numbered sector
/// with that tag that has one, the first in the map's order there (the
/// one DOOM's search over sectors, then thinkers, finds). None for tag 0
/// or when no tagged sector has one.
pub fn destination(level: &Level<'_>, tag: u16) -> Option<Destination> {
    if tag == 0 {
        return None;
    }
    let map = level.map();
    let mut best: Option<Destination> = None;
    for t in map.things() {
        if t.kind != kind::TELEPORT_DESTINATION {
            continue;
        }
        let pos = Vec2::new(t.x, t.y);
        let Some(sector) = level.locate(pos) else {
            continue;
        };
        if map.sector(sector.0 as usize).tag != tag || best.is_some_and(|b| b.sector <= sector) {
            continue;
        }
        best = Some(Destination {
            pos,
            angle: Angle::from_degrees(t.angle),
            sector,
        });
    }
    best
}
