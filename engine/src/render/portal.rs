//! What each column sees. No pixels here: the walk emits [`Span`]s (row
//! ranges with a colour and a light) and the caller paints them.
//!
//! ## The walk
//!
//! Column `x` casts the ray `P + t * D` with `D = F + R * k`, where `F` is
//! the facing unit vector, `R` the right vector and
//! `k = (x + 0.5 - width / 2) / focal`. `F`'s component of `D` is 1, so the
//! ray parameter `t` is the perpendicular depth (no fisheye).
//!
//! Starting in the camera's sector with the clip window `[0, height)`, each
//! step finds the nearest wall of the current sector through which the ray
//! *leaves* that sector beyond the previous crossing, draws the sector's
//! ceiling and floor up to that wall, and then either draws the wall (one
//! sided: the column is done) or the upper and lower parts of the portal,
//! narrows the window and continues in the sector behind. Testing every wall
//! of the sector, rather than walking edges of a convex polygon, is what
//! makes non-convex sectors and sectors with holes work unsplit.
//!
//! ## Exact intersection arithmetic
//!
//! Points are 16.16 bits relative to the camera, so differences fit in 33
//! bits, and the ray direction fits in 18 bits. The side tests
//! `D x (A - P)` are therefore exact in `i64`, and the depth of a hit is
//! kept as the exact fraction `((A - P) x (B - P)) / (D x (B - A))` in
//! `i128` until a hit is chosen. Comparisons between hits and against the
//! previous crossing are exact cross-multiplications, so two walls meeting
//! at a vertex the ray passes through give the *same* depth, and the walk
//! can never ping-pong between them. (The 16-fraction-bit [`crate::math::Wide`]
//! would round these products; exactness is what makes the walk's
//! decisions consistent.) Only the chosen hit is divided, once, into a
//! 16.16 depth, clamped to [`MIN_DEPTH`] so projection never divides by
//! zero.

use super::{Camera, RenderStats};
use crate::config::MAX_PORTALS_PER_COLUMN;
use crate::math::Fx;
use crate::world::{Level, SectorId, Wall, WallId};

/// The smallest depth projection divides by: 1/64 map unit, in 16.16 bits.
pub(crate) const MIN_DEPTH: i64 = 1 << 10;
/// The largest depth kept (far beyond any map), in 16.16 bits.
const MAX_DEPTH: i64 = 1 << 40;
/// How much darker (in light levels) a wall facing east or west is, and
/// how much brighter one facing north or south (DOOM's fake contrast).
pub(crate) const CONTRAST: i32 = 1;

/// Everything about the camera and the screen the walk needs, in raw
/// 16.16 bits widened to `i64`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct View {
    px: i64,
    py: i64,
    /// Facing unit vector.
    fx: i64,
    fy: i64,
    /// Right vector (facing turned -90 degrees).
    rx: i64,
    ry: i64,
    eye: i64,
    width: i64,
    height: i64,
    sector: Option<SectorId>,
}

impl View {
    /// The view from `camera` onto a `width` x `height` screen.
    pub(crate) fn new(level: &Level<'_>, camera: &Camera, width: usize, height: usize) -> View {
        let (c, s) = camera.angle.cos_sin();
        let (c, s) = (c.to_bits() as i64, s.to_bits() as i64);
        let sector = if (camera.sector.0 as usize) < level.sector_count() {
            Some(camera.sector)
        } else {
            None
        };
        View {
            px: camera.pos.x.to_bits() as i64,
            py: camera.pos.y.to_bits() as i64,
            fx: c,
            fy: s,
            rx: s,
            ry: -c,
            eye: camera.eye_z.to_bits() as i64,
            // Frame guarantees both are at most a few thousand.
            width: width.min(crate::config::MAX_SCREEN_WIDTH) as i64,
            height: height.min(crate::config::MAX_SCREEN_HEIGHT) as i64,
            sector,
        }
    }

    /// The ray direction for column `x`, 16.16 bits (each component at
    /// most 2 in magnitude).
    fn ray(&self, x: usize) -> (i64, i64) {
        let w = self.width.max(1);
        // k = (2x + 1 - w) / w, truncated towards zero so that mirrored
        // columns get exactly mirrored rays.
        let k = ((2 * x as i64 + 1 - w) << 16) / w;
        (
            self.fx + (self.rx * k) / (1 << 16),
            self.fy + (self.ry * k) / (1 << 16),
        )
    }

    /// The first row whose centre lies at or below the screen image of
    /// height `h` at depth `depth` (16.16 bits, at least [`MIN_DEPTH`]).
    fn project(&self, h: Fx, depth: i64) -> i64 {
        let dh = h.to_bits() as i64 - self.eye;
        // |dh| < 2^32, width <= 2^10: the product stays below 2^58.
        // (dh * focal) in 32.32 bits, with focal = width / 2.
        let off = (dh * self.width) << 15;
        // Screen y in 16.16, truncated towards zero (symmetric about the
        // horizon).
        let y = (self.height << 15) - off / depth.max(MIN_DEPTH);
        // ceil(y - 0.5)
        (y + 0x7fff) >> 16
    }
}

/// One run of rows in one column, in screen rows `[y0, y1)`, non-empty
/// and inside the frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Span {
    /// A wall: one colour at one light level.
    Wall {
        /// First row.
        y0: usize,
        /// One past the last row.
        y1: usize,
        /// Palette index.
        color: u8,
        /// Light level.
        level: usize,
    },
    /// A floor or ceiling: light fades per row with the plane's distance.
    Plane {
        /// First row.
        y0: usize,
        /// One past the last row.
        y1: usize,
        /// Palette index.
        color: u8,
        /// The sector's light level before fading.
        light: i32,
        /// `|plane height - eye height|`, 16.16 bits.
        height: u64,
    },
    /// Nothing seen: the background.
    Background {
        /// First row.
        y0: usize,
        /// One past the last row.
        y1: usize,
    },
}

/// The depth of a hit as the exact fraction `num / den`, `den > 0`.
#[derive(Copy, Clone, Debug)]
struct Depth {
    num: i128,
    den: i128,
}

impl Depth {
    const ZERO: Depth = Depth { num: 0, den: 1 };

    /// Exact `self < other`. Numerators are below 2^66 and denominators
    /// below 2^51 in magnitude, so the products fit easily.
    #[inline]
    fn less(self, other: Depth) -> bool {
        self.num * other.den < other.num * self.den
    }

    /// 16.16 bits, clamped to `[MIN_DEPTH, MAX_DEPTH]`.
    fn bits(self) -> i64 {
        let q = (self.num << 16) / self.den.max(1);
        q.clamp(MIN_DEPTH as i128, MAX_DEPTH as i128) as i64
    }
}

/// The depth at which the ray `(dx, dy)` leaves `sector` through `wall`,
/// if it does (the ray's line crosses the segment, moving from the
/// sector's side to the other). Exact; may be negative (behind).
#[inline]
fn exit_depth(view: &View, dx: i64, dy: i64, wall: &Wall, sector: SectorId) -> Option<Depth> {
    let (ax, ay) = (
        wall.a.x.to_bits() as i64 - view.px,
        wall.a.y.to_bits() as i64 - view.py,
    );
    let (bx, by) = (
        wall.b.x.to_bits() as i64 - view.px,
        wall.b.y.to_bits() as i64 - view.py,
    );
    // Which side of the ray's line each end lies on (exact: < 2^51).
    let ca = dx * ay - dy * ax;
    let cb = dx * by - dy * bx;
    // D x (B - A): negative when the ray goes from the wall's right
    // (front) to its left (back).
    let den = cb - ca;
    let leaves = match den {
        d if d < 0 => wall.front == sector && ca >= 0 && cb <= 0,
        d if d > 0 => wall.back == Some(sector) && ca <= 0 && cb >= 0,
        _ => false,
    };
    if !leaves {
        return None;
    }
    // t = ((A - P) x (B - P)) / (D x (B - A)).
    let num = ax as i128 * by as i128 - ay as i128 * bx as i128;
    Some(if den < 0 {
        Depth {
            num: -num,
            den: -(den as i128),
        }
    } else {
        Depth {
            num,
            den: den as i128,
        }
    })
}

/// Light contrast for a wall by the way it faces: east/west-facing walls
/// (running north-south) a little darker, north/south-facing ones a little
/// brighter, diagonals neutral.
fn contrast(wall: &Wall) -> i32 {
    let dx = (wall.b.x.to_bits() as i64 - wall.a.x.to_bits() as i64).abs();
    let dy = (wall.b.y.to_bits() as i64 - wall.a.y.to_bits() as i64).abs();
    match dy.cmp(&dx) {
        core::cmp::Ordering::Greater => -CONTRAST,
        core::cmp::Ordering::Less => CONTRAST,
        core::cmp::Ordering::Equal => 0,
    }
}

/// A run `[y0, y1)` already clamped to the window; `None` if empty.
#[inline]
fn rows(y0: i64, y1: i64) -> Option<(usize, usize)> {
    (y0 < y1 && y0 >= 0).then_some((y0 as usize, y1 as usize))
}

/// Walks column `x`, calling `emit` with spans that together cover every
/// row of the column exactly once.
pub(crate) fn column<F: FnMut(Span)>(
    level: &Level<'_>,
    view: &View,
    x: usize,
    stats: &mut RenderStats,
    mut emit: F,
) {
    let mut top: i64 = 0;
    let mut bottom: i64 = view.height;
    let background = |emit: &mut F, top: i64, bottom: i64| {
        if let Some((y0, y1)) = rows(top, bottom) {
            emit(Span::Background { y0, y1 });
        }
    };
    let Some(mut sector) = view.sector else {
        background(&mut emit, top, bottom);
        return;
    };
    let (dx, dy) = view.ray(x);
    let mut prev = Depth::ZERO;
    // The first step also takes a hit at depth 0 (a camera exactly on a
    // wall); later steps need a hit strictly beyond the last crossing.
    let mut first = true;
    let mut came_through: Option<WallId> = None;

    for _ in 0..MAX_PORTALS_PER_COLUMN {
        let mut best: Option<(Depth, WallId, Wall)> = None;
        for id in level.sector_walls(sector) {
            stats.walls_tested = stats.walls_tested.saturating_add(1);
            if came_through == Some(id) {
                continue;
            }
            let wall = level.wall(id);
            let Some(d) = exit_depth(view, dx, dy, &wall, sector) else {
                continue;
            };
            let beyond = if first { !d.less(prev) } else { prev.less(d) };
            if beyond && best.is_none_or(|(b, _, _)| d.less(b)) {
                best = Some((d, id, wall));
            }
        }
        let Some((hit, id, wall)) = best else {
            // Outside the map (or a gap): nothing more to see.
            background(&mut emit, top, bottom);
            return;
        };

        let depth = hit.bits();
        let here = level.sector(sector);
        let light = (here.light >> 3) as i32;
        let ceiling_y = view.project(here.ceiling, depth).clamp(top, bottom);
        let floor_y = view.project(here.floor, depth).clamp(ceiling_y, bottom);
        if let Some((y0, y1)) = rows(top, ceiling_y) {
            emit(Span::Plane {
                y0,
                y1,
                color: here.ceiling_color,
                light,
                height: (here.ceiling.to_bits() as i64 - view.eye).unsigned_abs(),
            });
        }
        if let Some((y0, y1)) = rows(floor_y, bottom) {
            emit(Span::Plane {
                y0,
                y1,
                color: here.floor_color,
                light,
                height: (here.floor.to_bits() as i64 - view.eye).unsigned_abs(),
            });
        }
        let wall_level = super::draw::fade(light + contrast(&wall), depth as u64);
        let wall_span = |emit: &mut F, y0: i64, y1: i64| {
            if let Some((y0, y1)) = rows(y0, y1) {
                emit(Span::Wall {
                    y0,
                    y1,
                    color: here.wall_color,
                    level: wall_level,
                });
            }
        };

        let Some(next) = wall.other_side(sector) else {
            wall_span(&mut emit, ceiling_y, floor_y);
            return;
        };
        let there = level.sector(next);
        let mut new_top = ceiling_y;
        if there.ceiling < here.ceiling {
            new_top = view.project(there.ceiling, depth).clamp(ceiling_y, floor_y);
            wall_span(&mut emit, ceiling_y, new_top);
        }
        let mut new_bottom = floor_y;
        if there.floor > here.floor {
            new_bottom = view.project(there.floor, depth).clamp(new_top, floor_y);
            wall_span(&mut emit, new_bottom, floor_y);
        }
        top = new_top;
        bottom = new_bottom;
        if top >= bottom {
            return;
        }
        stats.portals_crossed = stats.portals_crossed.saturating_add(1);
        sector = next;
        came_through = Some(id);
        prev = hit;
        first = false;
    }
    stats.columns_truncated = stats.columns_truncated.saturating_add(1);
    background(&mut emit, top, bottom);
}
