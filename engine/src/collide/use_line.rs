//! What the player's use press reaches: DOOM's `P_UseLines`.
//!
//! A line runs from the player's centre along its facing for
//! [`crate::config::player::USE_RANGE`]; the walls it crosses are taken
//! nearest first. The first wall with a special ends the search: used if
//! the player stands on its front side, else nothing (DOOM never uses a
//! back side). A wall without one lets the line on only if something can
//! be seen through it: a one-sided wall, or an opening shut from floor to
//! ceiling, stops it there.

use heapless::Vec as HVec;

use super::clearance::Opening;
use super::crossing::path_crosses_segment;
use super::mover::pad_box;
use crate::config::collision::MAX_CROSSINGS;
use crate::format::WallSpecialRecord;
use crate::math::{wide, Fx, Vec2, Wide};
use crate::world::{Level, WallId};

/// Where a use press ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UseTarget {
    /// The front of a wall with a special: it is set off.
    Special(WallId, WallSpecialRecord),
    /// A wall that stops the press: one-sided, shut, or a special's back.
    Blocked(WallId),
    /// Nothing within reach.
    Nothing,
}

/// What a use press from `from`, facing the unit vector `facing`, reaches
/// within `range`.
pub fn use_target(level: &Level<'_>, from: Vec2, facing: Vec2, range: Fx) -> UseTarget {
    let (p, r) = (from.wide(), wide(range));
    let to = p.add(facing.wide().scale(r));
    let (lo, hi) = pad_box(p, to, Wide::ZERO);
    let mut hits: HVec<(Wide, WallId), MAX_CROSSINGS> = HVec::new();
    level.walls_in_box(lo, hi, |id| {
        let wall = level.wall(id);
        let crossing = path_crosses_segment(p, to, wall.a.wide(), wall.b.wide(), 0);
        if let Some(c) = crossing {
            if !hits.iter().any(|(_, w)| *w == id) {
                // Beyond MAX_CROSSINGS walls in 64 units: the farthest
                // are not looked at.
                let _ = hits.push((c.t, id));
            }
        }
    });
    // Nearest first; ties by wall index, so the order is fixed.
    hits.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    for &(_, id) in hits.iter() {
        let wall = level.wall(id);
        if let Some(special) = level.map().wall_special(id.0) {
            // A point on the line counts as in front, as DOOM's side test.
            return if wall.side_of(from) > Wide::ZERO {
                UseTarget::Blocked(id)
            } else {
                UseTarget::Special(id, special)
            };
        }
        let Some(back) = wall.back else {
            return UseTarget::Blocked(id);
        };
        let open = Opening::between(&level.sector(wall.front), &level.sector(back));
        if open.ceiling <= open.floor {
            return UseTarget::Blocked(id);
        }
    }
    UseTarget::Nothing
}
