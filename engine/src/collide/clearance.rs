//! Whether a wall stops a body: DOOM's rules, each reason on its own line.

use crate::format::wall_flag;
use crate::math::Fx;
use crate::world::{Level, Sector, Wall};

/// The vertical dimensions of a moving body.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BodyShape {
    /// Radius of the body's circle.
    pub radius: Fx,
    /// From the feet to the top of the head.
    pub height: Fx,
    /// The highest step the body walks up.
    pub knee: Fx,
}

/// Why a wall stops a body.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// A one-sided wall: nothing behind it.
    OneSided,
    /// A two-sided wall marked impassable.
    Impassable,
    /// The floor behind is more than the knee height above the feet.
    StepTooHigh,
    /// The opening (lowest ceiling minus highest floor) is lower than the
    /// body.
    OpeningTooLow,
    /// The ceiling behind is lower than the top of the head.
    CeilingTooLow,
}

/// The vertical gap a two-sided wall leaves open.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The higher of the two floors.
    pub floor: Fx,
    /// The lower of the two ceilings.
    pub ceiling: Fx,
}

impl Opening {
    /// The gap between two sectors.
    pub fn between(a: &Sector, b: &Sector) -> Opening {
        Opening {
            floor: a.floor.max(b.floor),
            ceiling: a.ceiling.min(b.ceiling),
        }
    }
}

/// Whether `wall` stops a body of `shape` whose feet are at `z`, and why.
/// For a two-sided wall the test looks at both sides, so it needs no
/// notion of which side the body is on: from the higher side the step is
/// a drop, which never blocks.
pub fn wall_blocks(level: &Level<'_>, wall: &Wall, shape: &BodyShape, z: Fx) -> Option<Blocked> {
    let Some(back) = wall.back else {
        // Nothing behind a one-sided wall.
        return Some(Blocked::OneSided);
    };
    if wall.flags & wall_flag::IMPASSABLE != 0 {
        // Marked to block, whatever is behind.
        return Some(Blocked::Impassable);
    }
    let open = Opening::between(&level.sector(wall.front), &level.sector(back));
    if open.floor.saturating_sub(z) > shape.knee {
        // Too high to step up onto.
        return Some(Blocked::StepTooHigh);
    }
    if open.ceiling.saturating_sub(open.floor) < shape.height {
        // The gap is too low to fit through at all.
        return Some(Blocked::OpeningTooLow);
    }
    if open.ceiling.saturating_sub(z) < shape.height {
        // The body would have to lower itself to fit.
        return Some(Blocked::CeilingTooLow);
    }
    None
}
