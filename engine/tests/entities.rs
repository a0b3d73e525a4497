//! Entities a game adds and drives: `Game::spawn` and `Game::drive`.

mod support;

use engine::collide::BodyShape;
use engine::config::{collision::TOLERANCE, MAX_BODIES};
use engine::format::NONE;
use engine::game::{BodyId, Game, Input, SpawnError, ENTITY_MAX_SPEED};
use engine::math::{Fx, Vec2};
use engine::world::Level;
use support::rect_map;

fn shape(radius: i32) -> BodyShape {
    BodyShape {
        radius: Fx::from_num(radius),
        height: Fx::from_num(56),
        knee: Fx::from_num(24),
    }
}

/// A room 512 by 256, the player in its west end.
fn room() -> Vec<u8> {
    rect_map(&[(0, 0, 512, 256, 0, 128)], (64, 128, 0))
}

#[test]
fn a_driven_entity_moves_and_stops_at_a_wall() {
    let bytes = room();
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let id = game
        .spawn(Vec2::from_int(256, 128), shape(20), NONE)
        .unwrap();
    assert_eq!(id, BodyId(1));
    let mut xs = Vec::new();
    for _ in 0..200 {
        assert!(game.drive(id, Vec2::from_int(6, 0)));
        game.tick(Input::IDLE);
        xs.push(game.body(id).unwrap().at.pos.x);
    }
    // It moved east at its own speed, never back, and ended against the
    // east wall, no deeper than the tolerance.
    assert!(xs.windows(2).all(|w| w[1] >= w[0]));
    assert!(xs[0] > Fx::from_num(256));
    let x = *xs.last().unwrap();
    assert!(x <= Fx::from_num(512 - 20) + TOLERANCE, "x = {x}");
    assert!(x >= Fx::from_num(512 - 21), "x = {x}");
    // Left alone, friction stops it.
    for _ in 0..100 {
        game.tick(Input::IDLE);
    }
    assert_eq!(game.body(id).unwrap().vel, Vec2::ZERO);
}

#[test]
fn an_entity_is_held_to_its_top_speed() {
    let bytes = room();
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let id = game
        .spawn(Vec2::from_int(128, 128), shape(16), NONE)
        .unwrap();
    let before = game.body(id).unwrap().at.pos.x;
    game.drive(id, Vec2::from_int(100, 0));
    game.tick(Input::IDLE);
    let moved = game.body(id).unwrap().at.pos.x - before;
    assert!(moved <= ENTITY_MAX_SPEED, "moved {moved}");
    assert!(moved > ENTITY_MAX_SPEED - Fx::ONE, "moved {moved}");
}

#[test]
fn an_entity_driven_into_the_player_pushes_it() {
    let bytes = room();
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let id = game
        .spawn(Vec2::from_int(160, 128), shape(16), NONE)
        .unwrap();
    let start = game.player().pos.x;
    for _ in 0..40 {
        game.drive(id, Vec2::from_int(-4, 0));
        game.tick(Input::IDLE);
    }
    // The player, at x = 64 with radius 16, was pushed to the west wall
    // (walls win over pushes); pinned there, the entity presses into it
    // by at most the one tick's drive the push-apart undoes next tick.
    let player = game.player().pos;
    assert!(player.x < start, "player at {}", player.x);
    assert!(player.x.to_num::<f64>() < 16.5, "player at {}", player.x);
    let gap = (game.body(id).unwrap().at.pos.x - player.x).to_num::<f64>();
    assert!(gap >= 32.0 - 4.0 - 0.01, "gap {gap}");
}

#[test]
fn the_same_drives_give_the_same_game() {
    let bytes = room();
    let play = || {
        let mut game = Game::new(Level::load(&bytes).unwrap());
        let a = game
            .spawn(Vec2::from_int(200, 100), shape(16), NONE)
            .unwrap();
        let b = game
            .spawn(Vec2::from_int(300, 150), shape(24), NONE)
            .unwrap();
        for t in 0..300i32 {
            game.drive(a, Vec2::new(Fx::from_num((t % 7) - 3), Fx::from_num(2)));
            game.drive(b, Vec2::new(Fx::from_num(-3), Fx::from_num((t % 5) - 2)));
            game.tick(Input::new(50, (t % 3) * 20 - 20, t % 4 - 1));
        }
        game.bodies().to_vec()
    };
    assert_eq!(play(), play());
}

#[test]
fn spawn_says_why_it_adds_nothing() {
    let bytes = room();
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::new(level);
    let inside = Vec2::from_int(256, 128);
    let outside = Vec2::from_int(600, 128);
    assert_eq!(
        game.spawn(outside, shape(16), NONE),
        Err(SpawnError::OutsideMap)
    );
    assert_eq!(
        game.spawn(inside, shape(0), NONE),
        Err(SpawnError::BadShape)
    );
    assert_eq!(
        game.spawn(inside, shape(2000), NONE),
        Err(SpawnError::BadShape)
    );
    let mut tall_knee = shape(16);
    tall_knee.knee = Fx::from_num(57);
    assert_eq!(
        game.spawn(inside, tall_knee, NONE),
        Err(SpawnError::BadShape)
    );
    let mut no_height = shape(16);
    no_height.height = Fx::ZERO;
    assert_eq!(
        game.spawn(inside, no_height, NONE),
        Err(SpawnError::BadShape)
    );
    let textures = level.map().texture_count() as u16;
    assert_eq!(
        game.spawn(inside, shape(16), textures),
        Err(SpawnError::BadSprite)
    );
    // Nothing was added by the refusals.
    assert_eq!(game.bodies().len(), 1);
    for i in 1..MAX_BODIES {
        let at = Vec2::from_int(8 + (i as i32 % 16) * 31, 8 + (i as i32 / 16) * 60);
        assert_eq!(game.spawn(at, shape(4), NONE), Ok(BodyId(i as u8)));
    }
    assert_eq!(game.spawn(inside, shape(4), NONE), Err(SpawnError::Full));
    assert!(!game.drive(BodyId(MAX_BODIES as u8), Vec2::ZERO));
    assert!(game.body(BodyId(MAX_BODIES as u8)).is_none());
    // Crowded as it is, the game still ticks.
    for _ in 0..10 {
        game.tick(Input::new(100, 0, 3));
    }
}

#[test]
fn a_game_can_start_anywhere_in_the_map() {
    // A low room and a raised one east of it.
    let bytes = rect_map(
        &[(0, 0, 256, 256, 0, 128), (256, 0, 512, 256, 32, 160)],
        (64, 128, 0),
    );
    let level = Level::load(&bytes).unwrap();
    let angle = engine::math::Angle::from_degrees(Fx::from_num(135));
    let game = Game::starting_at(level, Vec2::from_int(400, 100), angle).unwrap();
    let p = game.player();
    assert_eq!(
        (p.pos, p.z, p.angle),
        (Vec2::from_int(400, 100), Fx::from_num(32), angle)
    );
    assert_eq!(p.sector, level.locate(p.pos).unwrap());
    // The map's start is not where it begins, and the game plays on.
    let mut game = game;
    game.tick(Input::new(100, 0, 0));
    assert!(game.player().pos.x < Fx::from_num(400));
    // Outside every sector: refused.
    let outside = Game::starting_at(level, Vec2::from_int(600, 100), angle);
    assert_eq!(outside.err(), Some(SpawnError::OutsideMap));
}
