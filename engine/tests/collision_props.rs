//! Property tests over random levels: the collision guarantees hold for
//! levels and moves nobody wrote by hand.

mod support;

use engine::collide::height_clip::span_under;
use engine::collide::mover::slide_move;
use engine::collide::{project_point_segment, wall_blocks};
use engine::config::collision::TOLERANCE;
use engine::format::{kind, wall_action};
use engine::game::{Game, Input, PLAYER_SHAPE};
use engine::math::{Fx, Vec2, WVec, Wide};
use engine::world::{Level, WallId};
use proptest::prelude::*;
use std::collections::BTreeSet;

const FLOORS: [i32; 7] = [0, 8, 16, 24, 25, 40, 64];
const ROOMS: [i32; 5] = [50, 56, 57, 72, 128];

fn cells(cols: usize, rows: usize) -> impl Strategy<Value = Vec<Option<(i32, i32)>>> {
    prop::collection::vec(
        prop_oneof![
            1 => Just(None),
            3 => (0..FLOORS.len(), 0..ROOMS.len()).prop_map(|(f, r)| Some((FLOORS[f], FLOORS[f] + ROOMS[r]))),
        ],
        cols * rows,
    )
}

#[derive(Debug, Clone)]
struct Case {
    bytes: Vec<u8>,
    moves: Vec<(i32, i32)>,
    inputs: Vec<(i32, i32, i32)>,
}

fn case() -> impl Strategy<Value = Case> {
    (3usize..7, 3usize..7)
        .prop_flat_map(|(cols, rows)| {
            (
                Just((cols, rows)),
                cells(cols, rows),
                prop::collection::vec((-16i32..=16, -16i32..=16), 64),
                0..cols * rows,
                prop::collection::vec((0..cols * rows, 8i32..24), 0..4),
                prop::collection::vec(
                    prop_oneof![
                        4 => (-40i32..=40, -40i32..=40),
                        1 => (-3000i32..=3000, -3000i32..=3000),
                    ],
                    1..40,
                ),
                prop::collection::vec((-100i32..=100, -100i32..=100, -20i32..=20), 1..200),
                prop::collection::vec((0..cols as i32 * 64, 0..rows as i32 * 64, 2i32..48), 0..5),
            )
        })
        .prop_filter_map(
            "map must compile with an open start",
            |((cols, rows), mut cells, jitter, start, ents, moves, inputs, obstacles)| {
                if cells[start].is_none() {
                    cells[start] = Some((0, 128));
                }
                let bytes =
                    support::grid_map_with(cols, rows, &cells, &jitter, start, &ents, &obstacles)?;
                Some(Case {
                    bytes,
                    moves,
                    inputs,
                })
            },
        )
}

/// The movers a random level may have: DOOM's doors, lifts, floors,
/// ceilings, crushers, platforms and stairs
/// (new ones go at the end: the kept regression seeds index this).
const MOVERS: [u8; 23] = [
    wall_action::DOOR_RAISE,
    wall_action::DOOR_OPEN,
    wall_action::DOOR_CLOSE,
    wall_action::DOOR_CLOSE_WAIT_OPEN,
    wall_action::DOOR_FAST_RAISE,
    wall_action::DOOR_FAST_CLOSE,
    wall_action::LIFT,
    wall_action::LIFT_FAST,
    wall_action::LIFT,
    wall_action::FLOOR_RAISE,
    wall_action::FLOOR_RAISE_CRUSH,
    wall_action::FLOOR_RAISE_24,
    wall_action::FLOOR_RAISE_TO_NEXT_FAST,
    wall_action::FLOOR_LOWER,
    wall_action::FLOOR_LOWER_FAST,
    wall_action::CEILING_CRUSHER,
    wall_action::CEILING_LOWER_TO_FLOOR,
    wall_action::CEILING_RAISE_TO_HIGHEST,
    wall_action::LIFT_PERPETUAL,
    wall_action::STAIRS_16_FAST,
    wall_action::FLOOR_LOWER_TO_LOWEST_CHANGE,
    wall_action::PLAT_RAISE_TO_NEXT_CHANGE,
    wall_action::DONUT,
];

#[derive(Debug, Clone)]
struct MoverCase {
    bytes: Vec<u8>,
    /// Per tick: FORWARD, STRAFE, TURN, USE.
    inputs: Vec<(i32, i32, i32, bool)>,
    /// `(tick, special)`: set the special off (modulo their count) before
    /// that tick, as a game's script would.
    set_offs: Vec<(usize, usize)>,
}

/// A random grid level (as [`case`]) where some cells are doors (some
/// shut) and lifts on a few tags, with entities about, random input
/// with use, and the specials set off at random ticks.
fn mover_case() -> impl Strategy<Value = MoverCase> {
    (3usize..7, 3usize..7)
        .prop_flat_map(|(cols, rows)| {
            (
                Just((cols, rows)),
                cells(cols, rows),
                prop::collection::vec((-16i32..=16, -16i32..=16), 64),
                0..cols * rows,
                prop::collection::vec((0..cols * rows, 8i32..24), 0..4),
                prop::collection::vec(
                    (0..cols * rows, 0..MOVERS.len(), 1u16..4, any::<bool>()),
                    1..6,
                ),
                prop::collection::vec(
                    (
                        -100i32..=100,
                        -100i32..=100,
                        -20i32..=20,
                        prop::bool::weighted(0.1),
                    ),
                    1..300,
                ),
                prop::collection::vec((0usize..300, 0usize..8), 1..12),
            )
        })
        .prop_filter_map(
            "map must compile with an open start",
            |((cols, rows), mut cells, jitter, start, ents, movers, inputs, set_offs)| {
                for &(cell, m, _, shut) in &movers {
                    let door = wall_action::is_door(MOVERS[m]);
                    if let (Some((floor, ceiling)), true) = (cells[cell], door && shut) {
                        let _ = ceiling;
                        cells[cell] = Some((floor, floor));
                    }
                }
                if cells[start].is_none_or(|(f, c)| c - f < 56) {
                    cells[start] = Some((0, 128));
                }
                let movers: Vec<_> = movers
                    .iter()
                    .filter(|m| m.0 != start)
                    .map(|&(cell, m, tag, _)| (cell, MOVERS[m], tag))
                    .collect();
                let bytes = support::grid_map_with_movers(
                    cols,
                    rows,
                    &cells,
                    &jitter,
                    start,
                    &ents,
                    &[],
                    &movers,
                )?;
                Some(MoverCase {
                    bytes,
                    inputs,
                    set_offs,
                })
            },
        )
}

fn distance(level: &Level<'_>, id: WallId, p: Vec2) -> f64 {
    let w = level.wall(id);
    let q = project_point_segment(p.wide(), w.a.wide(), w.b.wide()).point;
    p.wide().sub(q).length().to_num::<f64>()
}

fn on_some_wall_line(level: &Level<'_>, p: Vec2) -> bool {
    (0..level.wall_count()).any(|i| {
        let w = level.wall(WallId(i as u16));
        w.side_of(p) == Wide::ZERO && distance(level, WallId(i as u16), p) < 1.0
    })
}

/// The distance from `p` to wall `id` in doubles, from the coordinates'
/// exact values: not the engine's own fixed-point projection, whose
/// rounding the engine's guarantee must allow for itself.
fn exact_distance(level: &Level<'_>, id: WallId, p: Vec2) -> f64 {
    let w = level.wall(id);
    let f = |v: Fx| v.to_num::<f64>();
    let (ax, ay, bx, by, px, py) = (f(w.a.x), f(w.a.y), f(w.b.x), f(w.b.y), f(p.x), f(p.y));
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0)
    };
    ((px - ax - t * dx).powi(2) + (py - ay - t * dy).powi(2)).sqrt()
}

/// The solid things of the level, as `(x, y, radius)` in doubles.
fn obstacles(level: &Level<'_>) -> Vec<(f64, f64, f64)> {
    let f = |v: Fx| v.to_num::<f64>();
    level
        .map()
        .things()
        .filter(|t| t.kind == kind::SOLID)
        .map(|t| (f(t.x), f(t.y), f(t.radius)))
        .collect()
}

/// How deep a body of radius `r` at `p` is inside the deepest solid thing
/// (0 if in none), measured exactly.
fn obstacle_depth(obstacles: &[(f64, f64, f64)], r: f64, p: Vec2) -> f64 {
    let (px, py) = (p.x.to_num::<f64>(), p.y.to_num::<f64>());
    obstacles
        .iter()
        .map(|&(x, y, tr)| (r + tr) - ((px - x).powi(2) + (py - y).powi(2)).sqrt())
        .fold(0.0, f64::max)
}

/// 96 cases by default; `PROPTEST_CASES=N` for a longer run.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(96)
}

fn tol() -> f64 {
    TOLERANCE.to_num::<f64>() + 1e-3
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// After any move the body overlaps no wall that blocks it (beyond the
    /// tolerance), and the sector it tracked through portals is the one
    /// its centre is really in: it crossed no wall it may not cross.
    #[test]
    fn moves_never_end_inside_a_wall_or_in_the_wrong_sector(c in case()) {
        let level = Level::load(&c.bytes).unwrap();
        let game = Game::new(level);
        let mut at = game.bodies()[0].at;
        prop_assume!(level.locate(at.pos) == Some(at.sector));
        let r = PLAYER_SHAPE.radius.to_num::<f64>();
        let solid = obstacles(&level);
        // A start the spawn could not push clear of a thing stays stuck.
        prop_assume!(obstacle_depth(&solid, r, at.pos) <= tol());
        for &(dx, dy) in &c.moves {
            let delta = WVec::new(Wide::from_num(dx), Wide::from_num(dy));
            let (next, _) = slide_move(&level, &PLAYER_SHAPE, at, delta);
            for i in 0..level.wall_count() {
                let id = WallId(i as u16);
                let w = level.wall(id);
                if wall_blocks(&level, &w, &PLAYER_SHAPE, next.z).is_some() {
                    let d = distance(&level, id, next.pos);
                    prop_assert!(d >= r - tol(), "wall {i} at {d} from {:?}", next.pos);
                }
            }
            let depth = obstacle_depth(&solid, r, next.pos);
            prop_assert!(depth <= tol(), "{depth} into a solid thing at {:?}", next.pos);
            if !on_some_wall_line(&level, next.pos) {
                prop_assert_eq!(level.locate(next.pos), Some(next.sector), "at {:?} from {:?} by {:?}", next.pos, at, (dx, dy));
            }
            at = next;
        }
    }

    /// The tolerance is the engine's to keep, without slack: measured
    /// exactly, no move ends deeper than [`TOLERANCE`] into a wall that
    /// blocks the body (the push-out's rounding lands outside).
    #[test]
    fn moves_end_within_the_tolerance_measured_exactly(c in case()) {
        let level = Level::load(&c.bytes).unwrap();
        let game = Game::new(level);
        let mut at = game.bodies()[0].at;
        prop_assume!(level.locate(at.pos) == Some(at.sector));
        let r = PLAYER_SHAPE.radius.to_num::<f64>();
        let limit = r - TOLERANCE.to_num::<f64>() - 1e-9;
        let solid = obstacles(&level);
        prop_assume!(obstacle_depth(&solid, r, at.pos) <= TOLERANCE.to_num::<f64>());
        for &(dx, dy) in &c.moves {
            let delta = WVec::new(Wide::from_num(dx), Wide::from_num(dy));
            let (next, _) = slide_move(&level, &PLAYER_SHAPE, at, delta);
            let depth = obstacle_depth(&solid, r, next.pos);
            prop_assert!(
                depth <= TOLERANCE.to_num::<f64>() + 1e-9,
                "{depth} into a solid thing at {:?}", next.pos
            );
            for i in 0..level.wall_count() {
                let id = WallId(i as u16);
                let w = level.wall(id);
                if wall_blocks(&level, &w, &PLAYER_SHAPE, next.z).is_some() {
                    let d = exact_distance(&level, id, next.pos);
                    prop_assert!(d >= limit, "wall {i} at {d} (limit {limit}) from {:?}", next.pos);
                }
            }
            at = next;
        }
    }

    /// The whole game, ticks of random input with entities about: the
    /// player never overlaps a one-sided wall and never leaves the map.
    #[test]
    fn ticks_keep_the_player_inside_the_map(c in case()) {
        let level = Level::load(&c.bytes).unwrap();
        let mut game = Game::new(level);
        let r = PLAYER_SHAPE.radius.to_num::<f64>();
        let start = game.player();
        prop_assume!(level.locate(start.pos) == Some(start.sector));
        let solid = obstacles(&level);
        let depth_of = |b: &engine::game::Body| {
            obstacle_depth(&solid, b.shape.radius.to_num::<f64>(), b.at.pos)
        };
        // A body the spawn could not push clear of a thing stays stuck.
        let free: Vec<bool> = game.bodies().iter().map(|b| depth_of(b) <= tol()).collect();
        prop_assume!(free[0]);
        for &(f, s, t) in &c.inputs {
            game.tick(Input::new(f, s, t));
            let p = game.player();
            // Bodies push each other, but by checked moves: none that
            // started clear enters a solid thing.
            for (b, &free) in game.bodies().iter().zip(&free) {
                let depth = depth_of(b);
                prop_assert!(!free || depth <= tol(), "{depth} into a solid thing at {:?}", b.at.pos);
            }
            for i in 0..level.wall_count() {
                let id = WallId(i as u16);
                if level.wall(id).back.is_none() {
                    let d = distance(&level, id, p.pos);
                    prop_assert!(d >= r - tol(), "one-sided wall {i} at {d}");
                }
            }
            if !on_some_wall_line(&level, p.pos) {
                prop_assert_eq!(level.locate(p.pos), Some(p.sector));
            }
            prop_assert!(p.z >= level.sector(p.sector).floor - Fx::from_num(0) || p.z >= Fx::ZERO);
        }
    }

    /// Doors and lifts at work under random play: after every tick every
    /// body that spawned clear (random rooms may be lower than a body, and
    /// a spawn wedged against a high step stays there) stands on or over the highest floor under it and under the
    /// lowest ceiling over it (a closing door goes back up, a rising lift
    /// back down, nothing is crushed), and the player overlaps no
    /// one-sided wall.
    #[test]
    fn ticks_with_movers_keep_every_body_fitting_where_it_stands(c in mover_case()) {
        let level = Level::load(&c.bytes).unwrap();
        let mut game = Game::new(level);
        let start = game.player();
        prop_assume!(level.locate(start.pos) == Some(start.sector));
        let specials = level.map().wall_special_count();
        let tolerance = TOLERANCE + TOLERANCE;
        let fitted: Vec<bool> = game
            .bodies()
            .iter()
            .map(|b| {
                // Spawned clear: with room, and not stuck against a step
                // it cannot climb (a spawn the push-out could not free).
                let span = span_under(&game.level(), &b.shape, &b.at);
                span.ceiling - span.floor >= b.shape.height && b.at.z >= span.floor
            })
            .collect();
        let r = PLAYER_SHAPE.radius.to_num::<f64>();
        for (t, &(f, s, turn, press)) in c.inputs.iter().enumerate() {
            for &(when, k) in &c.set_offs {
                if when == t && specials > 0 {
                    let _ = game.set_off(k % specials);
                }
            }
            game.tick(Input::new(f, s, turn).with_use(press));
            let live = game.level();
            for (i, (b, &fitted)) in game.bodies().iter().zip(&fitted).enumerate() {
                let span = span_under(&live, &b.shape, &b.at);
                prop_assert!(
                    !fitted || b.at.z >= span.floor - tolerance,
                    "tick {t}: body {i}'s feet at {} under the floor {}", b.at.z, span.floor
                );
                prop_assert!(
                    !fitted || b.at.z + b.shape.height <= span.ceiling + tolerance,
                    "tick {t}: body {i}'s head at {} over the ceiling {}",
                    b.at.z + b.shape.height, span.ceiling
                );
            }
            let p = game.player();
            for w in 0..level.wall_count() {
                let id = WallId(w as u16);
                if level.wall(id).back.is_none() {
                    let d = distance(&level, id, p.pos);
                    prop_assert!(d >= r - tol(), "tick {t}: one-sided wall {w} at {d}");
                }
            }
        }
    }

    /// The solid things' block lists never miss one: every solid thing
    /// whose disc comes within a radius of a point of the blockmap's grid
    /// (where every body's centre is) is among those a box query returns.
    #[test]
    fn block_queries_find_every_nearby_solid_thing(c in case(), px in -50i32..450, py in -50i32..450, radius in 1i32..40) {
        let level = Level::load(&c.bytes).unwrap();
        // The point moved into the grid.
        let g = *level.map().blockmap().grid();
        let size = i32::from(g.block_size);
        let px = px.clamp(g.origin_x, g.origin_x + i32::from(g.cols) * size - 1);
        let py = py.clamp(g.origin_y, g.origin_y + i32::from(g.rows) * size - 1);
        let p = Vec2::from_int(px, py);
        prop_assert!(g.block_of(p).is_some());
        let rw = Wide::from_num(radius);
        let mut found = Vec::new();
        level.solid_things_in_box(
            WVec::new(p.wide().x - rw, p.wide().y - rw),
            WVec::new(p.wide().x + rw, p.wide().y + rw),
            |o| found.push((o.pos, o.radius)),
        );
        for (x, y, tr) in obstacles(&level) {
            let d = ((px as f64 - x).powi(2) + (py as f64 - y).powi(2)).sqrt();
            if d <= radius as f64 + tr {
                prop_assert!(
                    found.iter().any(|(q, r)| q.x.to_num::<f64>() == x && q.y.to_num::<f64>() == y && r.to_num::<f64>() == tr),
                    "solid thing at ({x}, {y}) missed"
                );
            }
        }
    }

    /// The blockmap never misses a wall: every wall within a radius of a
    /// point (checked against all walls) is among those a box query
    /// returns.
    #[test]
    fn blockmap_queries_find_every_nearby_wall(c in case(), px in -50i32..450, py in -50i32..450, radius in 1i32..200) {
        let level = Level::load(&c.bytes).unwrap();
        let p = Vec2::from_int(px, py);
        let rw = Wide::from_num(radius);
        let mut found = BTreeSet::new();
        level.walls_in_box(
            WVec::new(p.wide().x - rw, p.wide().y - rw),
            WVec::new(p.wide().x + rw, p.wide().y + rw),
            |id| { found.insert(id.0); },
        );
        for i in 0..level.wall_count() {
            if distance(&level, WallId(i as u16), p) <= radius as f64 {
                prop_assert!(found.contains(&(i as u16)), "wall {i} missed");
            }
        }
    }
}
