//! Collision at its exact limits: knee height, head room, a corridor as wide
//! as the player, corners, sliding, tunnelling.

mod support;

use engine::collide::mover::{slide_move, Placement};
use engine::config::{collision::TOLERANCE, player};
use engine::game::{Game, Input, PLAYER_SHAPE};
use engine::math::{Fx, Vec2, WVec, Wide};
use engine::world::{Level, SectorId, WallId};
use support::{rect_map, rect_map_with};

fn run(game: &mut Game<'_>, input: Input, ticks: u32) {
    for _ in 0..ticks {
        game.tick(input);
    }
}

fn x_of(game: &Game<'_>) -> f64 {
    game.player().pos.x.to_num()
}

/// Closest distance from `p` to any wall that blocks the player at `z`.
fn clearance(level: &Level<'_>, p: Vec2, z: Fx) -> f64 {
    let mut best = f64::MAX;
    for i in 0..level.wall_count() {
        let w = level.wall(WallId(i as u16));
        if engine::collide::wall_blocks(level, &w, &PLAYER_SHAPE, z).is_none() {
            continue;
        }
        let q = engine::collide::project_point_segment(p.wide(), w.a.wide(), w.b.wide()).point;
        let d = p.wide().sub(q).length().to_num::<f64>();
        best = best.min(d);
    }
    best
}

/// A corridor running east from a room, `width` units wide.
fn corridor(width: i32) -> Vec<u8> {
    rect_map(
        &[
            (0, 0, 256, 256, 0, 128),
            (256, 128 - width / 2, 768, 128 + width / 2, 0, 128),
            (768, 0, 1024, 256, 0, 128),
        ],
        (128, 128, 0),
    )
}

#[test]
fn a_corridor_exactly_as_wide_as_the_player_is_passable() {
    let bytes = corridor(32);
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    run(&mut game, Input::new(100, 0, 0), 120);
    assert!(x_of(&game) > 800.0, "stuck at x = {}", x_of(&game));
    assert_eq!(game.player().sector, SectorId(2));
}

#[test]
fn a_corridor_one_unit_narrower_is_not() {
    let bytes = corridor(30);
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    run(&mut game, Input::new(100, 0, 0), 120);
    // It nestles between the two corners of the mouth, 15 units either side
    // of its centre line: sqrt(16^2 - 15^2) = 5.57 short of the mouth.
    assert!(
        x_of(&game) <= 256.0 - 5.5,
        "got into it: x = {}",
        x_of(&game)
    );
    assert!(clearance(&level, game.player().pos, game.player().z) > 16.0 - 0.01);
}

fn step(height: i32) -> Vec<u8> {
    rect_map(
        &[(0, 0, 256, 256, 0, 200), (256, 0, 512, 256, height, 200)],
        (128, 128, 0),
    )
}

#[test]
fn a_step_at_the_knee_height_is_walked_up_and_one_unit_more_is_not() {
    let bytes = step(24);
    let mut game = Game::new(Level::load(&bytes).unwrap());
    run(&mut game, Input::new(100, 0, 0), 60);
    assert!(x_of(&game) > 300.0);
    assert_eq!(game.player().z, Fx::from_num(24));

    let bytes = step(25);
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    run(&mut game, Input::new(100, 0, 0), 60);
    assert!(x_of(&game) <= 240.01, "climbed: x = {}", x_of(&game));
    assert_eq!(game.player().z, Fx::ZERO);
}

#[test]
fn stepping_up_eases_the_view_instead_of_snapping() {
    let bytes = step(24);
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let mut views = Vec::new();
    for _ in 0..60 {
        game.tick(Input::new(100, 0, 0));
        views.push(game.player().view_z.to_num::<f64>());
    }
    let eye = player::EYE_HEIGHT.to_num::<f64>();
    // At some tick the feet are on the step but the eyes are still below
    // their final height, and they never jump the whole 24 at once.
    assert!(
        views.iter().any(|&v| v > eye && v < eye + 24.0),
        "{views:?}"
    );
    assert!(views.windows(2).all(|w| w[1] - w[0] < 24.0));
    assert_eq!(*views.last().unwrap(), eye + 24.0);
}

fn low_ceiling(height: i32) -> Vec<u8> {
    rect_map(
        &[
            (0, 0, 256, 256, 0, 128),
            (256, 0, 512, 256, 0, height),
            (512, 0, 768, 256, 0, 128),
        ],
        (128, 128, 0),
    )
}

#[test]
fn a_ceiling_exactly_the_players_height_is_passable_and_one_lower_is_not() {
    let bytes = low_ceiling(56);
    let mut game = Game::new(Level::load(&bytes).unwrap());
    run(&mut game, Input::new(100, 0, 0), 90);
    assert!(x_of(&game) > 520.0, "x = {}", x_of(&game));
    // The view stays under the low ceiling while passing.
    let bytes = low_ceiling(55);
    let mut game = Game::new(Level::load(&bytes).unwrap());
    run(&mut game, Input::new(100, 0, 0), 90);
    assert!(x_of(&game) <= 240.01, "x = {}", x_of(&game));
}

#[test]
fn walking_off_a_ledge_falls_under_gravity() {
    let bytes = rect_map(
        &[(0, 0, 256, 256, 64, 256), (256, 0, 512, 256, 0, 256)],
        (128, 128, 0),
    );
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let mut zs = Vec::new();
    for _ in 0..40 {
        game.tick(Input::new(100, 0, 0));
        zs.push(game.player().z.to_num::<f64>());
    }
    assert_eq!(zs[0], 64.0);
    assert_eq!(*zs.last().unwrap(), 0.0);
    // Falling accelerates: some tick drops by more than one unit, and no
    // tick drops the whole 64.
    let drops: Vec<f64> = zs.windows(2).map(|w| w[0] - w[1]).collect();
    assert!(
        drops.iter().any(|&d| d > 1.5) && drops.iter().all(|&d| d < 64.0),
        "{zs:?}"
    );
}

#[test]
fn sliding_along_a_wall_keeps_the_tangential_speed() {
    let bytes = rect_map(&[(0, 0, 2048, 256, 0, 128)], (64, 128, 0));
    let level = Level::load(&bytes).unwrap();
    // Run at 45 degrees into the north wall (y = 256).
    let mut game = Game::new(level);
    game.tick(Input::new(0, 0, 45));
    run(&mut game, Input::new(100, 0, 0), 70);
    let p = game.player();
    assert!(p.pos.y.to_num::<f64>() >= 256.0 - 16.0 - 0.01);
    // Free running at 45 degrees for 70 ticks covers about 70*16.7*0.707
    // east; against the wall the whole thrust's east part remains.
    let east = p.pos.x.to_num::<f64>() - 64.0;
    assert!(east > 650.0, "slid only {east}");
}

#[test]
fn corners_inner_and_outer_settle_without_overlap() {
    // An L-shaped room: inner corner at (256, 256) seen from inside, outer
    // (reflex) corner where the arms meet.
    let bytes = rect_map(
        &[
            (0, 0, 256, 256, 0, 128),
            (256, 0, 512, 256, 0, 128),
            (0, 256, 256, 512, 0, 128),
        ],
        (128, 128, 45),
    );
    let level = Level::load(&bytes).unwrap();
    for angle in [0, 30, 45, 60, 90, 135, 200, 315] {
        let mut game = Game::new(level);
        game.tick(Input::new(0, 0, angle));
        run(&mut game, Input::new(100, 0, 0), 80);
        let p = game.player();
        let c = clearance(&level, p.pos, p.z);
        assert!(
            c >= 16.0 - TOLERANCE.to_num::<f64>() - 1e-3,
            "angle {angle}: {c}"
        );
    }
}

#[test]
fn no_speed_tunnels_through_a_thin_wall() {
    // Two rooms separated by a 1-unit-thick solid divider (no sector
    // between x = 256 and x = 257).
    let bytes = rect_map(
        &[(0, 0, 256, 256, 0, 128), (257, 0, 8000, 256, 0, 128)],
        (128, 128, 0),
    );
    let level = Level::load(&bytes).unwrap();
    let start = Placement {
        pos: Vec2::from_int(200, 128),
        z: Fx::ZERO,
        sector: SectorId(0),
    };
    for speed in [10, 17, 31, 33, 100, 1000, 7999, 30000] {
        let delta = WVec::new(Wide::from_num(speed), Wide::from_num(3));
        let (end, _) = slide_move(&level, &PLAYER_SHAPE, start, delta);
        assert!(
            end.pos.x.to_num::<f64>() <= 240.01,
            "speed {speed}: x = {}",
            end.pos.x
        );
        assert_eq!(end.sector, SectorId(0));
    }
}

#[test]
fn bodies_push_each_other_and_a_spawn_on_top_gains_no_speed() {
    let bytes = rect_map_with(
        &[(0, 0, 1024, 1024, 0, 128)],
        (100, 512, 0),
        &[(300, 512, 20), (300, 512, 20)],
    );
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    game.tick(Input::IDLE);
    // The two entities spawned on the same spot are separated...
    let b = game.bodies();
    let d = b[1]
        .at
        .pos
        .wide()
        .sub(b[2].at.pos.wide())
        .length()
        .to_num::<f64>();
    assert!(d > 39.0, "still overlapping: {d}");
    // ...without flying apart.
    assert!(b[1].vel == Vec2::ZERO && b[2].vel == Vec2::ZERO);
    run(&mut game, Input::IDLE, 5);
    let before = game.bodies()[1].at.pos;
    // The player walks into them and shoves them.
    run(&mut game, Input::new(100, 0, 0), 30);
    let after = game.bodies()[1].at.pos;
    assert!(after != before, "entity did not move");
    for (i, body) in game.bodies().iter().enumerate() {
        assert!(
            body.vel.x.abs() <= 30 && body.vel.y.abs() <= 30,
            "body {i} too fast"
        );
    }
}

#[test]
fn the_same_inputs_give_the_same_state() {
    let bytes = corridor(32);
    let level = Level::load(&bytes).unwrap();
    let inputs: Vec<Input> = (0..300)
        .map(|i| Input::new((i * 37 % 201) - 100, (i * 53 % 201) - 100, (i % 11) - 5))
        .collect();
    let play = || {
        let mut g = Game::new(level);
        let mut trace = Vec::new();
        for &inp in &inputs {
            g.tick(inp);
            trace.push(g.player());
        }
        trace
    };
    assert_eq!(play(), play());
}

#[test]
fn leaving_a_vertex_keeps_the_sector_the_centre_is_really_in() {
    // Found by the Freedoom soak (MAP12): a sector inside another, the
    // player exactly on one of its corners, moving off the corner on the
    // outer side. The path crosses one wall's line at its end point and
    // must not count as entering the inner sector.
    use engine::format::{kind, ThingRecord};
    use tools::build::{build, BuildOptions, SourceMap, SourceSector};
    let v = |x, y| Vec2::from_int(x, y);
    let map = SourceMap {
        specials: Vec::new(),
        scrolls: Vec::new(),
        sides: Vec::new(),
        title: "nested".into(),
        vertices: vec![
            v(-512, -256),
            v(0, -256),
            v(0, 512),
            v(-512, 512),
            v(-416, 0),
            v(-272, 0),
            v(-272, 160),
            v(-416, 160),
        ],
        sectors: vec![
            SourceSector {
                floor: Fx::from_num(-40),
                ceiling: Fx::from_num(160),
                loops: vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]],
                ..Default::default()
            },
            SourceSector {
                floor: Fx::from_num(-40),
                ceiling: Fx::from_num(168),
                loops: vec![vec![4, 5, 6, 7]],
                ..Default::default()
            },
        ],
        things: vec![ThingRecord {
            x: Fx::from_num(-100),
            y: Fx::from_num(300),
            kind: kind::PLAYER_START,
            ..Default::default()
        }],
    };
    let bytes = build(&map, BuildOptions::default()).unwrap().bytes;
    let level = Level::load(&bytes).unwrap();
    let corner = Placement {
        pos: Vec2::from_int(-272, 160),
        z: Fx::from_num(-40),
        sector: SectorId(0),
    };
    for (dx, dy) in [
        (0.00024, -0.0537),
        (3.0, -5.0),
        (0.5, 0.0),
        (0.0, 0.5),
        (3.0, 3.0),
    ] {
        let delta = WVec::new(Wide::from_num(dx), Wide::from_num(dy));
        let (end, _) = slide_move(
            &level,
            &engine::collide::BodyShape {
                radius: Fx::from_num(1),
                ..PLAYER_SHAPE
            },
            corner,
            delta,
        );
        assert_eq!(
            level.locate(end.pos),
            Some(end.sector),
            "moving by ({dx}, {dy}) to {:?}",
            end.pos
        );
    }
    // And into the inner sector, it is tracked.
    let (end, _) = slide_move(
        &level,
        &engine::collide::BodyShape {
            radius: Fx::from_num(1),
            ..PLAYER_SHAPE
        },
        corner,
        WVec::new(Wide::from_num(-3), Wide::from_num(-3)),
    );
    assert_eq!(end.sector, SectorId(1));
}

/// Distance from the player's centre to `(x, y)`.
fn distance_to(game: &Game<'_>, x: i32, y: i32) -> f64 {
    let p = game.player().pos;
    let (dx, dy) = (
        p.x.to_num::<f64>() - x as f64,
        p.y.to_num::<f64>() - y as f64,
    );
    (dx * dx + dy * dy).sqrt()
}

#[test]
fn a_solid_thing_stops_the_player_at_the_two_radii() {
    // Running east along y = 128 into a post of radius 20 at x = 400.
    let bytes = support::rect_map_with_obstacles(
        &[(0, 0, 1024, 256, 0, 128)],
        (100, 128, 0),
        &[],
        &[(400, 128, 20)],
    );
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    run(&mut game, Input::new(100, 0, 0), 60);
    let d = distance_to(&game, 400, 128);
    let tol = TOLERANCE.to_num::<f64>();
    assert!(d >= 36.0 - tol - 1e-9, "inside the post: {d}");
    // Pressed against it, not bounced off or through.
    assert!(
        d < 36.5 && x_of(&game) < 400.0,
        "at {d}, x = {}",
        x_of(&game)
    );
    // Without the post the same run goes on to the far wall.
    let open = rect_map(&[(0, 0, 1024, 256, 0, 128)], (100, 128, 0));
    let mut free = Game::new(Level::load(&open).unwrap());
    run(&mut free, Input::new(100, 0, 0), 60);
    assert!(x_of(&free) > 900.0, "x = {}", x_of(&free));
}

#[test]
fn the_player_slides_round_a_solid_thing_hit_off_centre() {
    // The post's centre 8 units south of the player's line: the push
    // turns the run to the north of it, and the player goes on past.
    let bytes = support::rect_map_with_obstacles(
        &[(0, 0, 1024, 256, 0, 128)],
        (100, 128, 0),
        &[],
        &[(400, 120, 20)],
    );
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    for _ in 0..90 {
        game.tick(Input::new(100, 0, 0));
        let d = distance_to(&game, 400, 120);
        assert!(d >= 36.0 - TOLERANCE.to_num::<f64>() - 1e-9, "inside: {d}");
    }
    assert!(x_of(&game) > 600.0, "stuck at x = {}", x_of(&game));
}

#[test]
fn a_pushed_entity_stops_at_a_solid_thing_and_so_does_the_player() {
    // The player shoves an entity east into a post.
    let bytes = support::rect_map_with_obstacles(
        &[(0, 0, 1024, 256, 0, 128)],
        (100, 128, 0),
        &[(200, 128, 20)],
        &[(400, 128, 20)],
    );
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    let limit = |radii: f64| radii - TOLERANCE.to_num::<f64>() - 1e-9;
    for _ in 0..80 {
        game.tick(Input::new(100, 0, 0));
        let e = game.bodies()[1].at.pos;
        let (dx, dy) = (e.x.to_num::<f64>() - 400.0, e.y.to_num::<f64>() - 128.0);
        let d = (dx * dx + dy * dy).sqrt();
        assert!(d >= limit(40.0), "entity inside the post: {d}");
        assert!(distance_to(&game, 400, 128) >= limit(36.0));
    }
    // Pushed up against the post, and held west of it.
    let e = game.bodies()[1].at.pos.x.to_num::<f64>();
    assert!(e > 300.0 && e < 400.0, "the entity is at x = {e}");
}

#[test]
fn a_solid_thing_blocks_at_every_height() {
    // A post in the low room by a ledge 64 units up; the player walks off
    // the ledge's edge above the post's disc and may not come down in it
    // (DOOM's solid things reach from floor to ceiling for the player).
    let bytes = support::rect_map_with_obstacles(
        &[(0, 0, 256, 256, 64, 256), (256, 0, 1024, 256, 0, 256)],
        (100, 128, 0),
        &[],
        &[(280, 128, 20)],
    );
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    for _ in 0..60 {
        game.tick(Input::new(100, 0, 0));
        let d = distance_to(&game, 280, 128);
        assert!(
            d >= 36.0 - TOLERANCE.to_num::<f64>() - 1e-9,
            "inside at z {}: {d}",
            game.player().z
        );
    }
    assert!(x_of(&game) < 280.0);
}
