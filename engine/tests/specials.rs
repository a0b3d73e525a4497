//! Wall specials: exits set off by use (facing the wall's front, within
//! reach, nothing in between) and by walking over.

use engine::format::{trigger, wall_action, WallSpecialRecord};
use engine::game::{Exit, Game, Input};
use engine::math::{Fx, Vec2};
use engine::world::Level;
use tools::build::{build, BuildOptions, SourceMap, SourceSector, SourceSpecial};

/// A room 512 x 256 (vertices 0-3), and east of it a closet 64 deep
/// (vertices 4, 5) behind the portal 1-2, whose ceiling is `closet_ceiling`
/// (0: shut, as a closed door). The special goes on the wall `v1`-`v2`.
fn rooms(special: (usize, usize, u8, u8), closet_ceiling: i32) -> Vec<u8> {
    let v = |x, y| Vec2::from_int(x, y);
    let sector = |floor: i32, ceiling: i32, l: Vec<usize>| SourceSector {
        floor: Fx::from_num(floor),
        ceiling: Fx::from_num(ceiling),
        light: 160,
        floor_color: 3,
        ceiling_color: 7,
        wall_color: 8,
        loops: vec![l],
        ..Default::default()
    };
    let (v1, v2, action, trig) = special;
    let map = SourceMap {
        scrolls: Vec::new(),
        sides: Vec::new(),
        title: "exits".into(),
        vertices: vec![
            v(0, 0),
            v(512, 0),
            v(512, 256),
            v(0, 256),
            v(576, 0),
            v(576, 256),
        ],
        sectors: vec![
            sector(0, 128, vec![0, 1, 2, 3]),
            sector(0, closet_ceiling, vec![1, 4, 5, 2]),
        ],
        things: vec![engine::format::ThingRecord {
            x: Fx::from_num(64),
            y: Fx::from_num(128),
            kind: engine::format::kind::PLAYER_START,
            ..Default::default()
        }],
        specials: vec![SourceSpecial {
            v1,
            v2,
            special: WallSpecialRecord {
                wall: 0,
                action,
                trigger: trig,
                tag: 0,
            },
        }],
    };
    build(&map, BuildOptions::default())
        .expect("compiles")
        .bytes
}

/// The game with the player at `(x, 128)` facing east.
fn at(bytes: &[u8], x: i32) -> Game<'_> {
    let level = Level::load(bytes).unwrap();
    let east = engine::math::Angle::from_degrees(Fx::ZERO);
    Game::starting_at(level, Vec2::from_int(x, 128), east).unwrap()
}

fn press(game: &mut Game<'_>) {
    game.tick(Input::IDLE.with_use(true));
}

#[test]
fn use_sets_off_an_exit_switch_within_reach() {
    // The closet's far wall, 4-5 at x = 576, is the switch.
    let bytes = rooms((4, 5, wall_action::EXIT, trigger::USE), 128);
    // 64 units is the reach: from 520 (56 away) it works...
    let mut game = at(&bytes, 520);
    press(&mut game);
    assert_eq!(game.exit(), Some(Exit::Normal));
    assert_eq!(game.player().exit, Some(Exit::Normal));
    // ...and the game stands still after it.
    let tick = game.tick_count();
    game.tick(Input::new(100, 0, 0));
    assert_eq!(game.tick_count(), tick);
    // From 500 (76 away), not.
    let mut game = at(&bytes, 500);
    press(&mut game);
    assert_eq!(game.exit(), None);
    // Facing away, not.
    let mut game = at(&bytes, 520);
    game.tick(Input::new(0, 0, 180));
    press(&mut game);
    assert_eq!(game.exit(), None);
}

#[test]
fn holding_use_acts_once_and_a_new_press_acts_again() {
    let bytes = rooms((4, 5, wall_action::SECRET_EXIT, trigger::USE), 128);
    // Held from out of reach while walking up to the switch: no new press.
    let mut game = at(&bytes, 400);
    for _ in 0..30 {
        game.tick(Input::new(100, 0, 0).with_use(true));
    }
    assert!(game.player().pos.x > Fx::from_num(520));
    assert_eq!(game.exit(), None, "held, not pressed again");
    game.tick(Input::IDLE);
    press(&mut game);
    assert_eq!(game.exit(), Some(Exit::Secret));
}

#[test]
fn a_shut_opening_blocks_use_and_a_back_side_is_never_used() {
    // The switch behind a shut closet (its ceiling at its floor): blocked.
    let bytes = rooms((4, 5, wall_action::EXIT, trigger::USE), 0);
    let mut game = at(&bytes, 490);
    press(&mut game);
    assert_eq!(game.exit(), None);
    // The portal 1-2 as the switch, its front facing into the room (the
    // room is its front sector): used from the room...
    let bytes = rooms((1, 2, wall_action::EXIT, trigger::USE), 128);
    let mut game = at(&bytes, 480);
    press(&mut game);
    assert_eq!(game.exit(), Some(Exit::Normal));
    // ...but not from the closet, facing west at its back.
    let level = Level::load(&bytes).unwrap();
    let west = engine::math::Angle::from_degrees(Fx::from_num(180));
    let mut game = Game::starting_at(level, Vec2::from_int(544, 128), west).unwrap();
    press(&mut game);
    assert_eq!(game.exit(), None);
}

#[test]
fn walking_over_a_walk_exit_ends_the_level() {
    let bytes = rooms((1, 2, wall_action::EXIT, trigger::WALK), 128);
    let mut game = at(&bytes, 400);
    let mut ticks = 0;
    while game.exit().is_none() && ticks < 100 {
        game.tick(Input::new(100, 0, 0));
        ticks += 1;
    }
    assert_eq!(game.exit(), Some(Exit::Normal));
    // The centre crossed x = 512 on the tick it ended.
    assert!(
        game.player().pos.x > Fx::from_num(512),
        "{:?}",
        game.player()
    );
    // Use does nothing with a walk special, and walking short of it
    // neither.
    let mut game = at(&bytes, 400);
    press(&mut game);
    for _ in 0..3 {
        game.tick(Input::new(30, 0, 0));
    }
    assert_eq!(game.exit(), None);
}
