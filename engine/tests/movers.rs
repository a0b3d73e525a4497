//! Doors and lifts: set off by use or by walking over, moving at DOOM's
//! speeds, carrying the player, and never closing onto a head.

use engine::collide::height_clip::span_under;
use engine::format::wall_action;
use engine::game::{Game, Input};
use engine::math::{Angle, Fx, Vec2};
use engine::world::{Level, SectorId};

/// A room (x 0..256), a door 16 deep (x 256..272, shut) and a second
/// room (x 272..528); south of the first room a lift 64 high (y -128..0)
/// that goes down to the pit beside it (y -256..-128, floor -64).
const MAP: &str = r#"
title "movers"
vertex a 0 0
vertex b 256 0
vertex c 256 128
vertex d 0 128
vertex e 272 0
vertex f 272 128
vertex g 528 0
vertex h 528 128
vertex i 0 -128
vertex j 256 -128
vertex k 0 -256
vertex l 256 -256
sector west floor 0 ceiling 128
sector door floor 0 ceiling 0
sector east floor 0 ceiling 128
sector lift floor 0 ceiling 160 tag 7
sector pit floor -64 ceiling 160
loop west a b c d a
loop door b e f c b
loop east e g h f e
loop lift i j b a i
loop pit k l j i k
door c b
door e f
lift a b tag 7 walk
player 128 64 0
"#;

fn compiled() -> Vec<u8> {
    tools::text::compile_source(MAP, "movers.map")
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

/// The game with the player 36 units west of the door, facing it.
fn facing_the_door(bytes: &[u8]) -> Game<'_> {
    let level = Level::load(bytes).unwrap();
    let east = Angle::from_degrees(Fx::ZERO);
    Game::starting_at(level, Vec2::from_int(220, 64), east).unwrap()
}

fn sector_named(game: &Game<'_>, at: (i32, i32)) -> SectorId {
    game.level().locate(Vec2::from_int(at.0, at.1)).unwrap()
}

fn run(game: &mut Game<'_>, ticks: usize, input: Input) {
    for _ in 0..ticks {
        game.tick(input);
    }
}

/// After every tick, the player's head is under the ceiling and its feet
/// on or over the floor of the sector it stands in.
fn fits(game: &Game<'_>) -> bool {
    let p = game.player();
    let s = game.level().sector(p.sector);
    p.z >= s.floor && p.z + engine::config::player::HEIGHT <= s.ceiling
}

#[test]
fn a_door_opens_on_use_lets_the_player_through_and_closes() {
    let bytes = compiled();
    let mut game = facing_the_door(&bytes);
    let door = sector_named(&game, (264, 64));
    assert_eq!(game.level().sector(door).ceiling, Fx::ZERO);
    game.tick(Input::IDLE.with_use(true));
    assert!(game.world().is_busy(door));
    // 2 units a tick, up to 4 below the lowest neighbouring ceiling.
    run(&mut game, 10, Input::IDLE);
    assert_eq!(game.level().sector(door).ceiling, Fx::from_num(22));
    run(&mut game, 60, Input::IDLE);
    assert_eq!(game.level().sector(door).ceiling, Fx::from_num(124));
    // Walk through into the east room.
    for _ in 0..40 {
        game.tick(Input::new(100, 0, 0));
        assert!(fits(&game));
    }
    assert!(
        game.player().pos.x > Fx::from_num(300),
        "{:?}",
        game.player()
    );
    // It waits 150 ticks open, then closes, and is done.
    run(&mut game, 250, Input::IDLE);
    assert_eq!(game.level().sector(door).ceiling, Fx::ZERO);
    assert!(!game.world().is_busy(door));
}

#[test]
fn a_closing_door_goes_back_up_from_a_head() {
    let bytes = compiled();
    let mut game = facing_the_door(&bytes);
    let door = sector_named(&game, (264, 64));
    game.tick(Input::IDLE.with_use(true));
    run(&mut game, 70, Input::IDLE);
    // Into the doorway, and stand there while it closes.
    run(&mut game, 6, Input::new(50, 0, 0));
    run(&mut game, 30, Input::IDLE);
    let x = game.player().pos.x;
    assert!(x > Fx::from_num(250) && x < Fx::from_num(280), "{x}");
    let mut lowest = Fx::from_num(1000);
    for _ in 0..400 {
        game.tick(Input::IDLE);
        lowest = lowest.min(game.level().sector(door).ceiling);
        // Under every ceiling the body's circle is over, the door's too.
        let body = game.bodies()[0];
        let span = span_under(&game.level(), &body.shape, &body.at);
        assert!(span.ceiling <= game.level().sector(door).ceiling);
        assert!(body.at.z + body.shape.height <= span.ceiling, "{span:?}");
    }
    // It came down to the head and no further, again and again.
    assert!(lowest >= Fx::from_num(56), "{lowest}");
    assert!(lowest < Fx::from_num(124), "it never closed at all");
}

#[test]
fn using_a_waiting_door_again_closes_it() {
    let bytes = compiled();
    let mut game = facing_the_door(&bytes);
    let door = sector_named(&game, (264, 64));
    game.tick(Input::IDLE.with_use(true));
    run(&mut game, 80, Input::IDLE);
    game.tick(Input::IDLE.with_use(true));
    run(&mut game, 70, Input::IDLE);
    assert_eq!(game.level().sector(door).ceiling, Fx::ZERO);
}

#[test]
fn a_lift_goes_down_with_the_player_and_back_up() {
    let bytes = compiled();
    let level = Level::load(&bytes).unwrap();
    let south = Angle::from_degrees(Fx::from_num(270));
    let mut game = Game::starting_at(level, Vec2::from_int(128, 40), south).unwrap();
    let lift = sector_named(&game, (128, -64));
    // Walk over the lift's wall onto it.
    for _ in 0..20 {
        game.tick(Input::new(60, 0, 0));
        if game.world().is_busy(lift) {
            break;
        }
    }
    assert!(game.world().is_busy(lift), "walking over set it off");
    run(&mut game, 20, Input::IDLE);
    assert_eq!(game.player().sector, lift);
    let mut lowest = Fx::ZERO;
    for _ in 0..200 {
        game.tick(Input::IDLE);
        assert!(fits(&game), "{:?}", game.player());
        let p = game.player();
        // On the floor all the way: carried, never floating.
        assert_eq!(p.z, game.level().sector(lift).floor);
        lowest = lowest.min(p.z);
    }
    assert_eq!(lowest, Fx::from_num(-64));
    assert_eq!(game.level().sector(lift).floor, Fx::ZERO, "back up");
    assert!(!game.world().is_busy(lift));
}

#[test]
fn the_world_hash_follows_the_movers() {
    let bytes = compiled();
    let mut a = facing_the_door(&bytes);
    let mut b = a.clone();
    let start = a.player().world;
    a.tick(Input::IDLE.with_use(true));
    b.tick(Input::IDLE);
    assert_ne!(a.player().world, start);
    assert_eq!(b.player().world, start);
    b.tick(Input::IDLE.with_use(true));
    a.tick(Input::IDLE);
    // One tick apart: different.
    assert_ne!(a.player().world, b.player().world);
}

/// [`MAP`] with its first door and its lift made Boom's generalised
/// kinds, with speeds and waits of their own.
fn boom_compiled(door: &str, lift: &str) -> Vec<u8> {
    let src = MAP
        .replace("door c b\n", &format!("door c b {door}\n"))
        .replace(
            "lift a b tag 7 walk\n",
            &format!("lift a b tag 7 walk {lift}\n"),
        );
    tools::text::compile_source(&src, "boom.map")
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

/// The index of the first wall special whose action `is`.
fn special_where(game: &Game<'_>, is: fn(u8) -> bool) -> usize {
    let m = *game.level().map();
    (0..m.wall_special_count())
        .find(|&k| is(m.wall_special_at(k).action))
        .expect("a special of that kind")
}

/// The ticks a sector's plane spends at each height, in runs, from the
/// special set off until it is still (or `limit` ticks).
fn plane_runs(
    game: &mut Game<'_>,
    sector: SectorId,
    ceiling: bool,
    limit: usize,
) -> Vec<(Fx, usize)> {
    let mut out: Vec<(Fx, usize)> = Vec::new();
    for _ in 0..limit {
        game.tick(Input::IDLE);
        let s = game.level().sector(sector);
        let h = if ceiling { s.ceiling } else { s.floor };
        match out.last_mut() {
            Some((v, n)) if *v == h => *n += 1,
            _ => out.push((h, 1)),
        }
        if !game.world().is_busy(sector) {
            break;
        }
    }
    out
}

#[test]
fn boom_doors_and_lifts_keep_their_own_speed_and_wait() {
    let bytes = boom_compiled("speed 8 wait 300", "speed 16 wait 35");
    let mut game = facing_the_door(&bytes);
    let door = sector_named(&game, (264, 64));
    assert!(game.set_off(special_where(&game, wall_action::is_boom_door)));
    let runs = plane_runs(&mut game, door, true, 1000);
    // Up 8 a tick to 124 (4 below the lowest ceiling around) ...
    assert_eq!(runs[0], (Fx::from_num(8), 1));
    let top = runs.iter().position(|r| r.0 == Fx::from_num(124)).unwrap();
    assert_eq!(top, 15, "{runs:?}");
    // ... where it waits 300 ticks (the tick it arrived counts too) and
    // comes down 8 a tick.
    assert_eq!(runs[top].1, 301, "{runs:?}");
    assert_eq!(runs[top + 1].0, Fx::from_num(116));
    assert_eq!(runs.last(), Some(&(Fx::ZERO, 1)));
    assert_eq!(runs.len(), 1 + 15 + 16, "{runs:?}");

    let lift = sector_named(&game, (128, -64));
    assert!(game.set_off(special_where(&game, wall_action::is_lift)));
    let runs = plane_runs(&mut game, lift, false, 1000);
    // Down 16 a tick to the pit's -64, 35 ticks there, back up.
    assert_eq!(runs[0].0, Fx::from_num(-16));
    assert_eq!(runs[3], (Fx::from_num(-64), 36), "{runs:?}");
    assert_eq!(runs[4].0, Fx::from_num(-48));
    assert_eq!(runs.last(), Some(&(Fx::ZERO, 1)));
}

#[test]
fn a_boom_manual_door_is_not_turned_round_by_using_it_again() {
    let bytes = boom_compiled("speed 2", "");
    let mut game = facing_the_door(&bytes);
    let door = sector_named(&game, (264, 64));
    let k = special_where(&game, wall_action::is_boom_door);
    assert!(game.set_off(k));
    run(&mut game, 10, Input::IDLE);
    let before = game.world().movers().to_vec();
    assert!(!game.set_off(k), "busy: left as it is");
    assert_eq!(game.world().movers(), &before[..]);
    // DOOM's own manual door turns round.
    let bytes = compiled();
    let mut game = facing_the_door(&bytes);
    let manual = |a: u8| wall_action::is_door(a) && a & wall_action::BACK_SECTOR != 0;
    let k = special_where(&game, manual);
    let wall = game.level().map().wall_special_at(k).wall;
    assert!(game.set_off(k));
    run(&mut game, 10, Input::IDLE);
    assert!(game.set_off(k));
    assert!(game.world().is_busy(door), "wall {wall}");
}

#[test]
fn speeds_and_waits_outside_booms_are_compile_errors() {
    for (door, want) in [
        ("speed 3", "invalid speed `3`: expected 2, 4, 8, 16"),
        (
            "wait 100",
            "invalid wait `100`: expected 35, 150, 300, 1050",
        ),
        ("fast speed 8", "`fast` and `speed` together"),
    ] {
        let src = MAP.replace("door c b\n", &format!("door c b {door}\n"));
        let e = tools::text::compile_source(&src, "boom.map")
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{door}: {e}");
    }
    let src = MAP.replace("lift a b tag 7 walk\n", "lift a b tag 7 walk wait 150\n");
    let e = tools::text::compile_source(&src, "boom.map")
        .unwrap_err()
        .to_string();
    assert!(e.contains("expected 35, 105, 175, 350"), "{e}");
}
