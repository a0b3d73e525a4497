//! The walk's plain reference, for tests: one ray per column, every wall
//! tested, in doubles. It says which surface each pixel shows (a
//! sector's ceiling, floor or walls, or nothing), so that the BSP walk's
//! pictures can be checked against a walk simple enough to be plainly
//! right, as Quake kept its C reference beside the assembly.
//!
//! Column `x` casts the view's own ray from the camera; starting in the
//! camera's sector with the whole column open, each step finds the
//! nearest wall beyond the last crossing through which the ray leaves
//! the current sector, labels the sector's ceiling and floor rows in
//! front of it, then its wall (one-sided: the column ends) or the upper
//! and lower walls of the portal, and goes on in the sector behind with
//! the opening that is left. Rows follow DOOM's rule: a surface covers
//! the rows whose centres lie within its image.

extern crate std;

use std::vec;
use std::vec::Vec;

use super::portal::View;
use crate::format::SKY;
use crate::world::{Level, SectorId, WallId};

/// What a pixel shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shows {
    /// Nothing: outside the map or a gap in its walls.
    Nothing,
    /// A sector's ceiling (the sky, if its texture is the sky and the map
    /// has one).
    Ceiling(SectorId),
    /// A sector's floor (likewise).
    Floor(SectorId),
    /// A wall seen from inside a sector (drawn in that sector's colour).
    Wall(SectorId),
}

/// How far ahead of the camera a column starts, in map units: the walks'
/// nearest depth.
const EPSILON: f64 = 1.0 / 64.0;

/// Most crossings one column follows before giving up (a ray that
/// grazes a vertex could otherwise go back and forth).
const MAX_STEPS: usize = 512;

/// What each pixel of `view` shows, row by row (`width * height`), and
/// for each column whether the walk settled it (`false`: it gave up).
pub(crate) fn shows(level: &Level<'_>, view: &View<'_>) -> (Vec<Shows>, Vec<bool>) {
    let (w, h) = (view.width as usize, view.height as usize);
    let mut out = vec![Shows::Nothing; w * h];
    let mut settled = vec![true; w];
    let Some(start) = view_sector(level, view) else {
        return (out, settled);
    };
    let f = |bits: i64| bits as f64 / 65536.0;
    let (px, py, eye) = (f(view.px), f(view.py), f(view.eye));
    // Half the vertical focal length times two: rows per unit of height
    // at depth 1 is focal_width / 2.
    let focal = view.focal_width as f64 / 2.0;
    // The first row whose centre lies at or below the image of height
    // `z` at depth `t`, clamped to the screen.
    let row = |z: f64, t: f64| -> usize {
        let y = h as f64 / 2.0 - (z - eye) * focal / t;
        (y - 0.5).ceil().clamp(0.0, h as f64) as usize
    };
    for x in 0..w {
        let (dx, dy) = view.ray(x);
        let (dx, dy) = (f(dx), f(dy));
        let mut label = |rows: (usize, usize), what: Shows| {
            for y in rows.0..rows.1.min(h) {
                out[y * w + x] = what;
            }
        };
        // The column starts in the sector just ahead of the camera along
        // its ray (a camera on a wall or a vertex is in several).
        let ahead = crate::math::Vec2::new(
            crate::math::Fx::from_num(px + dx * EPSILON),
            crate::math::Fx::from_num(py + dy * EPSILON),
        );
        let mut sector = level.locate(ahead).unwrap_or(start);
        let (mut top, mut bottom) = (0usize, h);
        // The depth of the last crossing, and the walls crossed there (a
        // ray through a vertex crosses several at one depth).
        let (mut last_t, mut crossed) = (EPSILON, Vec::<WallId>::new());
        let mut steps = 0;
        loop {
            steps += 1;
            if steps > MAX_STEPS {
                settled[x] = false;
                break;
            }
            // The nearest wall beyond the last crossing through which the
            // ray leaves `sector`.
            let mut exit: Option<(f64, WallId, Option<SectorId>)> = None;
            for i in 0..level.wall_count() {
                let id = WallId(i as u16);
                if crossed.contains(&id) {
                    continue;
                }
                let wall = level.wall(id);
                let (ax, ay, bx, by) = (
                    f64_of(wall.a.x),
                    f64_of(wall.a.y),
                    f64_of(wall.b.x),
                    f64_of(wall.b.y),
                );
                let (ex, ey) = (bx - ax, by - ay);
                let den = dx * ey - dy * ex;
                if den == 0.0 {
                    continue;
                }
                let (qx, qy) = (ax - px, ay - py);
                let t = (qx * ey - qy * ex) / den;
                let s = (qx * dy - qy * dx) / den;
                // (At or beyond it: a camera on a wall, or a ray through a
                // vertex, crosses several lines at one depth.)
                if !(0.0..=1.0).contains(&s) || t < last_t {
                    continue;
                }
                // The ray crosses from the wall's right (the front) when it
                // heads to the left of `a -> b`.
                let from_front = ex * dy - ey * dx > 0.0;
                let (from, to) = if from_front {
                    (Some(wall.front), wall.back)
                } else {
                    (wall.back, Some(wall.front))
                };
                if from != Some(sector) {
                    continue;
                }
                if exit.is_none_or(|(best, _, _)| t < best) {
                    exit = Some((t, id, to));
                }
            }
            let Some((t, id, to)) = exit else {
                // The ray leaves the map: nothing in the rest of the column.
                break;
            };
            let here = level.sector(sector);
            let there = to.map(|s| level.sector(s));
            let sky_hack =
                there.is_some_and(|b| here.ceiling_texture == SKY && b.ceiling_texture == SKY);
            let world_top = match there {
                Some(b) if sky_hack => b.ceiling.max(here.floor),
                _ => here.ceiling,
            };
            let z = |v: crate::math::Fx| f64_of(v);

            let (c, fl) = (row(z(world_top), t), row(z(here.floor), t));
            let clip = |r: usize| r.clamp(top, bottom.max(top));
            label((top, clip(c)), Shows::Ceiling(sector));
            label((clip(fl), bottom), Shows::Floor(sector));
            let Some(b) = there else {
                label((clip(c), clip(fl)), Shows::Wall(sector));
                break;
            };
            // The opening between the two sectors, and the walls above
            // and below it.
            let open_top = row(z(world_top.min(b.ceiling)), t);
            let open_bottom = row(z(here.floor.max(b.floor)), t);
            label((clip(c), clip(open_top.max(c))), Shows::Wall(sector));
            label((clip(open_bottom.min(fl)), clip(fl)), Shows::Wall(sector));
            let (new_top, new_bottom) = (clip(open_top.max(c)), clip(open_bottom.min(fl)));
            (top, bottom) = (new_top, new_bottom);
            if top >= bottom {
                break;
            }
            let Some(next) = to else { break };
            if t > last_t {
                crossed.clear();
            }
            crossed.push(id);
            (sector, last_t) = (next, t);
        }
    }
    (out, settled)
}

fn f64_of(v: crate::math::Fx) -> f64 {
    v.to_num::<f64>()
}

/// The camera's sector, if it has one.
fn view_sector(level: &Level<'_>, view: &View<'_>) -> Option<SectorId> {
    view.sector()
        .filter(|s| (s.0 as usize) < level.sector_count())
}
