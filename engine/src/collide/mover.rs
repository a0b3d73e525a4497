//! Sliding a round body through the level: sub-steps, portal tracking and
//! push-out from walls.
//!
//! One move is split into sub-steps no longer than half the radius along
//! either axis. Each sub-step:
//!
//! 1. **advances** the centre along a straight path, following every portal
//!    it crosses (so the body's sector is always the one its centre is in)
//!    and refusing the sub-step outright if the path would cross a wall
//!    that blocks: the centre never crosses a blocking wall, whatever the
//!    speed;
//! 2. **pushes out** of every blocking wall the circle overlaps, deepest
//!    first, along the line from the closest point on the segment (end
//!    points included, so outer corners round off) to exactly one radius
//!    away, and of every solid thing (a disc, at every height) straight
//!    away from its centre; this repeats until nothing overlaps by more than
//!    [`TOLERANCE`], so inner corners and corridors exactly two radii wide
//!    settle;
//! 3. if that does not settle within [`MAX_PUSH_ITERATIONS`], the sub-step
//!    is refused and the body stays where it was, which was valid.
//!
//! Pushing out moves the body only along the wall normal, so the part of
//! the move along the wall survives: bodies slide, they do not stick.

use heapless::Vec as HVec;

use super::clearance::{wall_blocks, BodyShape, Opening};
use super::crossing::{path_crosses_segment, point_on_segment};
use super::point_segment::{project_point_segment, SegmentLocation};
use crate::config::collision::{MAX_CROSSINGS, MAX_PUSH_ITERATIONS, TOLERANCE};
use crate::math::{sqrt_wide, wide, Fx, Vec2, WVec, Wide};
use crate::world::{Level, SectorId, Wall, WallId};

/// Most push directions a move remembers for velocity clipping.
pub const MAX_CONTACTS: usize = 16;

/// Where a body is: its centre, its feet and the sector its centre is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Centre of the circle.
    pub pos: Vec2,
    /// Height of the feet.
    pub z: Fx,
    /// The sector the centre is in.
    pub sector: SectorId,
}

/// What a move did.
#[derive(Clone, Debug, Default)]
pub struct MoveOutcome {
    /// Sub-steps refused (the body stayed put for those).
    pub refused: u32,
    /// Push-out displacements applied, for clipping velocity against the
    /// walls touched: the velocity's component against each is removed.
    pub contacts: HVec<WVec, MAX_CONTACTS>,
    /// Walls examined, over all queries.
    pub walls_tested: u32,
}

/// The floor and ceiling under a body: the highest floor and the lowest
/// ceiling of every sector its circle overlaps (DOOM's `tmfloorz` and
/// `tmceilingz`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Support {
    /// Highest floor under the circle.
    pub floor: Fx,
    /// Lowest ceiling over the circle.
    pub ceiling: Fx,
}

fn side_sign(wall: &Wall, sector: SectorId) -> i8 {
    // Front is to the right of a -> b, where the cross product is negative.
    if wall.front == sector {
        -1
    } else if wall.back == Some(sector) {
        1
    } else {
        0
    }
}

pub(crate) fn pad_box(a: WVec, b: WVec, pad: Wide) -> (WVec, WVec) {
    (
        WVec::new(a.x.min(b.x) - pad, a.y.min(b.y) - pad),
        WVec::new(a.x.max(b.x) + pad, a.y.max(b.y) + pad),
    )
}

/// Moves the centre straight from `at.pos` to `to`, following portals.
/// Returns `None` if the path crosses a wall that blocks (or more walls
/// than it can sort): the caller keeps the old placement.
pub fn advance(
    level: &Level<'_>,
    shape: &BodyShape,
    at: Placement,
    to: Vec2,
    walls_tested: &mut u32,
) -> Option<Placement> {
    let (from_w, to_w) = (at.pos.wide(), to.wide());
    if from_w == to_w {
        return Some(at);
    }
    // The box of the whole circle swept along the path: every block it
    // overlaps is visited, never only the one under the centre.
    let (lo, hi) = pad_box(from_w, to_w, wide(shape.radius) + Wide::ONE);
    let mut hits: HVec<(Wide, WallId), MAX_CROSSINGS> = HVec::new();
    let mut overflow = false;
    // Set when the path starts on a wall or passes through a wall's end
    // point: near a vertex the side a point is on depends on every wall
    // meeting there, so the sector is then found from scratch.
    let mut degenerate = false;
    *walls_tested += level.walls_in_box(lo, hi, |id| {
        let wall = level.wall(id);
        let (a, b) = (wall.a.wide(), wall.b.wide());
        degenerate |= point_on_segment(from_w, a, b);
        let start_side = side_sign(&wall, at.sector);
        if let Some(c) = path_crosses_segment(from_w, to_w, a, b, start_side) {
            degenerate |= c.at_end;
            if hits.iter().any(|(_, w)| *w == id) {
                return;
            }
            overflow |= hits.push((c.t, id)).is_err();
        }
    }) as u32;
    if overflow {
        return None;
    }
    // Nearest first; ties broken by wall index so the order is fixed.
    hits.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut sector = at.sector;
    for &(_, id) in hits.iter() {
        let wall = level.wall(id);
        if wall_blocks(level, &wall, shape, at.z).is_some() {
            return None;
        }
        sector = match wall.sector_on_side_of(to) {
            Some(s) => s,
            None => wall.other_side(sector).unwrap_or(sector),
        };
    }
    if degenerate {
        if let Some(s) = level.locate(to) {
            sector = s;
        }
    }
    Some(Placement {
        pos: to,
        z: at.z,
        sector,
    })
}

/// How far the fixed-point distance to a wall may be from the exact one
/// (the projection's and the normal's truncations, 1/65536 each, times the
/// radius): 8/65536 of a unit. A walk on a Hexen-format map once ended
/// 3.5e-6 deeper than the tolerance without it.
const PROJECTION_ROUNDING: Fx = Fx::lit("0.0001220703125");

/// The most-overlapped blocking wall near `pos`, as the point one radius
/// out from it that the centre should move to.
fn deepest_overlap(
    level: &Level<'_>,
    shape: &BodyShape,
    at: &Placement,
    walls_tested: &mut u32,
) -> Option<WVec> {
    let r = wide(shape.radius);
    let p = at.pos.wide();
    let (lo, hi) = pad_box(p, p, r);
    // A body closer than the tolerance allows, less what the fixed-point
    // projection may be off by: measured exactly, the body then never ends
    // deeper than [`TOLERANCE`] (the push lands it about a radius out).
    let limit = (r - wide(TOLERANCE) + wide(PROJECTION_ROUNDING)).max(Wide::ZERO);
    let limit2 = limit * limit;
    // (squared distance, target): the closest wall wins.
    let mut best: Option<(Wide, WVec)> = None;
    *walls_tested += level.walls_in_box(lo, hi, |id| {
        let wall = level.wall(id);
        if wall_blocks(level, &wall, shape, at.z).is_none() {
            return;
        }
        let (a, b) = (wall.a.wide(), wall.b.wide());
        let proj = project_point_segment(p, a, b);
        let off = p.sub(proj.point);
        let d2 = off.length_squared();
        if d2 >= limit2 || best.is_some_and(|(bd2, _)| d2 >= bd2) {
            return;
        }
        let dir = if proj.location == SegmentLocation::OnEdge || d2 == Wide::ZERO {
            // Off the middle of the wall: along its exact normal, towards
            // the side the body's sector lies on (the centre never
            // crosses a blocking wall, so that is the side it came
            // from); for a wall that does not border the body's sector,
            // towards the side the centre is on.
            let d = b.sub(a);
            let right = WVec::new(d.y, -d.x);
            let len = right.length();
            if len == Wide::ZERO {
                return;
            }
            let towards_right = match side_sign(&wall, at.sector) {
                -1 => true,
                1 => false,
                _ => right.dot(off) >= Wide::ZERO,
            };
            let k = if towards_right { Wide::ONE } else { -Wide::ONE };
            WVec::new(right.x * k / len, right.y * k / len)
        } else {
            // Off an end point: straight away from the corner.
            let len = sqrt_wide(d2);
            WVec::new(off.x / len, off.y / len)
        };
        best = Some((d2, proj.point.add(dir.scale(r))));
    }) as u32;
    let Some(thing) = deepest_thing_overlap(level, r, p, (lo, hi)) else {
        return best.map(|(_, target)| target);
    };
    match best {
        // The deeper overlap first: the nearer surface of the two.
        Some((d2, target)) if sqrt_wide(d2) <= thing.0 => Some(target),
        _ => Some(thing.1),
    }
}

/// The solid thing whose disc a body of radius `r` at `p` overlaps
/// deepest, as the distance from `p` to the thing's edge (negative inside
/// it) and the point the centre should move to: straight away from the
/// thing's centre, the two radii apart. `(lo, hi)`: the body's box, as
/// [`deepest_overlap`] worked it out for the walls.
fn deepest_thing_overlap(
    level: &Level<'_>,
    r: Wide,
    p: WVec,
    (lo, hi): (WVec, WVec),
) -> Option<(Wide, WVec)> {
    let mut best: Option<(Wide, WVec)> = None;
    level.solid_things_in_box(lo, hi, |thing| {
        let c = thing.pos.wide();
        let reach = r + wide(thing.radius);
        let limit = (reach - wide(TOLERANCE) + wide(PROJECTION_ROUNDING)).max(Wide::ZERO);
        let off = p.sub(c);
        if off.x.abs() >= limit || off.y.abs() >= limit {
            return;
        }
        let d2 = off.length_squared();
        if d2 >= limit * limit {
            return;
        }
        let d = sqrt_wide(d2);
        let gap = d - wide(thing.radius);
        if best.is_some_and(|(g, _)| gap >= g) {
            return;
        }
        // Multiplied before dividing, so the target is as exact as the
        // distance (a unit direction would lose the radii's worth of it).
        let target = if d == Wide::ZERO {
            // Dead centre: out along +x, any fixed way will do.
            WVec::new(c.x + reach, c.y)
        } else {
            WVec::new(c.x + off.x * reach / d, c.y + off.y * reach / d)
        };
        best = Some((gap, target));
    });
    best
}

/// Pushes the body out of every blocking wall it overlaps. Returns the
/// settled placement, or `None` if it does not settle.
pub fn push_out(
    level: &Level<'_>,
    shape: &BodyShape,
    mut at: Placement,
    contacts: &mut HVec<WVec, MAX_CONTACTS>,
    walls_tested: &mut u32,
) -> Option<Placement> {
    for _ in 0..MAX_PUSH_ITERATIONS {
        let Some(target) = deepest_overlap(level, shape, &at, walls_tested) else {
            return Some(at);
        };
        let to = target.narrow();
        let push = to.wide().sub(at.pos.wide());
        if push == WVec::ZERO {
            // Round-off leaves it where it is: it cannot settle.
            return None;
        }
        at = advance(level, shape, at, to, walls_tested)?;
        if !contacts.contains(&push) {
            let _ = contacts.push(push);
        }
    }
    match deepest_overlap(level, shape, &at, walls_tested) {
        None => Some(at),
        Some(_) => None,
    }
}

/// Slides a body by `delta`, in sub-steps. The body ends where the walls
/// let it; see the module docs.
pub fn slide_move(
    level: &Level<'_>,
    shape: &BodyShape,
    start: Placement,
    delta: WVec,
) -> (Placement, MoveOutcome) {
    let mut out = MoveOutcome::default();
    let mut at = start;
    if delta == WVec::ZERO {
        return (at, out);
    }
    // Sub-steps: at most half a radius (and at least one unit) per axis.
    let step_limit = (wide(shape.radius) / 2).max(Wide::ONE);
    let longest = delta.x.abs().max(delta.y.abs());
    let n = (longest / step_limit)
        .ceil()
        .to_num::<i64>()
        .clamp(1, 1 << 16);
    let nw = Wide::from_num(n);
    let mut done = WVec::ZERO;
    for i in 1..=n {
        // Exact partial sums, so the sub-steps add up to `delta`.
        let upto = WVec::new(
            delta.x * Wide::from_num(i) / nw,
            delta.y * Wide::from_num(i) / nw,
        );
        let step = upto.sub(done);
        done = upto;
        let to = at.pos.wide().add(step).narrow();
        let moved = advance(level, shape, at, to, &mut out.walls_tested)
            .and_then(|p| push_out(level, shape, p, &mut out.contacts, &mut out.walls_tested))
            // DOOM's P_TryMove test over everything the circle touches:
            // the highest floor under it and the lowest ceiling over it
            // may come from different walls, and together leave no room.
            .filter(|p| {
                let room = headroom(level, shape, p);
                room >= Fx::ZERO || room >= headroom(level, shape, &at)
            });
        match moved {
            Some(p) => at = p,
            None => out.refused += 1,
        }
    }
    (at, out)
}

/// Room left over the body's head where it stands: the lowest ceiling
/// over its circle, minus the height of its head once its feet are on the
/// highest floor under the circle (negative: it does not fit).
fn headroom(level: &Level<'_>, shape: &BodyShape, at: &Placement) -> Fx {
    let s = support(level, shape, at);
    s.ceiling
        .saturating_sub(at.z.max(s.floor).saturating_add(shape.height))
}

/// The highest floor and lowest ceiling under a body's circle.
pub fn support(level: &Level<'_>, shape: &BodyShape, at: &Placement) -> Support {
    // A portal the body cannot pass is a wall it stands against, not a
    // floor under it; one it only touches (within the tolerance the
    // push-out leaves) is not under it either, or a body resting against
    // a step it cannot climb would count that step's floor and ceiling.
    let r = wide(shape.radius - TOLERANCE).max(Wide::ZERO);
    span_within(level, at, r, |wall| {
        wall_blocks(level, wall, shape, at.z).is_none()
    })
}

/// The highest floor and lowest ceiling of the sector at `at` and of both
/// sides of every portal closer than `r` to its centre that `counts`.
pub(crate) fn span_within(
    level: &Level<'_>,
    at: &Placement,
    r: Wide,
    mut counts: impl FnMut(&Wall) -> bool,
) -> Support {
    let own = level.sector(at.sector);
    let mut s = Support {
        floor: own.floor,
        ceiling: own.ceiling,
    };
    let p = at.pos.wide();
    let (lo, hi) = pad_box(p, p, r);
    level.walls_in_box(lo, hi, |id| {
        let wall = level.wall(id);
        let Some(back) = wall.back else {
            return;
        };
        if !counts(&wall) {
            return;
        }
        let proj = project_point_segment(p, wall.a.wide(), wall.b.wide());
        if p.sub(proj.point).length_squared() >= r * r {
            return;
        }
        let open = Opening::between(&level.sector(wall.front), &level.sector(back));
        s.floor = s.floor.max(open.floor);
        s.ceiling = s.ceiling.min(open.ceiling);
    });
    s
}
