//! Where a body stands once a floor or ceiling near it has moved: DOOM's
//! `P_ThingHeightClip`, asked of the bodies a mover touches.
//!
//! The heights that count are those of every sector the body's circle
//! overlaps by more than the push-out tolerance (a body touching a wall,
//! as push-out leaves it, is not over the sector behind it). A body on
//! the ground follows the highest floor under it, up or down (a lift
//! takes it along without it floating); one in the air keeps its height
//! where that still lies between the floor and the ceiling. The body
//! fits if the lowest ceiling over it is at least its height above the
//! highest floor; a mover that leaves a body unfit goes back to where it
//! was (DOOM's `crush == false`).

use super::clearance::BodyShape;
use super::mover::{span_within, Placement, Support};
use super::point_segment::project_point_segment;
use crate::config::collision::TOLERANCE;
use crate::math::{wide, Fx, Wide};
use crate::world::{Level, SectorId};

/// A body's height after a plane moved, and whether it fits there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HeightClip {
    /// Where its feet go.
    pub z: Fx,
    /// The floor and ceiling over it.
    pub span: Support,
    /// The ceiling is at least the body's height above the floor.
    pub fits: bool,
}

/// The highest floor and lowest ceiling of the sectors the circle at
/// `at` overlaps by more than [`TOLERANCE`], blocking or not.
pub fn span_under(level: &Level<'_>, shape: &BodyShape, at: &Placement) -> Support {
    let r = wide(shape.radius - TOLERANCE).max(Wide::ZERO);
    span_within(level, at, r, |_| true)
}

/// Whether the circle at `at` is over `sector`: its centre is in it, or
/// it overlaps one of the sector's two-sided walls by more than
/// [`TOLERANCE`].
pub fn over_sector(level: &Level<'_>, shape: &BodyShape, at: &Placement, sector: SectorId) -> bool {
    if at.sector == sector {
        return true;
    }
    let r = wide(shape.radius - TOLERANCE).max(Wide::ZERO);
    let p = at.pos.wide();
    level.sector_walls(sector).any(|id| {
        let wall = level.wall(id);
        if wall.back.is_none() {
            return false;
        }
        let proj = project_point_segment(p, wall.a.wide(), wall.b.wide());
        p.sub(proj.point).length_squared() < r * r
    })
}

/// Where a body at `at` stands now (`on_ground`: its feet were on the
/// floor), and whether it fits.
pub fn height_clip(
    level: &Level<'_>,
    shape: &BodyShape,
    at: &Placement,
    on_ground: bool,
) -> HeightClip {
    let span = span_under(level, shape, at);
    let z = if on_ground {
        span.floor
    } else {
        // Pushed down by a ceiling, up by a floor, else where it was.
        at.z.min(span.ceiling.saturating_sub(shape.height))
            .max(span.floor)
    };
    HeightClip {
        z,
        span,
        fits: span.ceiling.saturating_sub(span.floor) >= shape.height,
    }
}
