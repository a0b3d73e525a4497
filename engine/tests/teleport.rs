//! Teleporters: walked onto from the front, they put the player at the
//! destination in the tagged sector, facing its way, standing still for
//! DOOM's 18 ticks; from behind they do nothing.

use engine::format::trigger;
use engine::game::{Game, Input};
use engine::math::{Angle, Fx, Vec2};
use engine::specials::teleport::FREEZE_TICKS;
use engine::world::Level;

/// A room (0..256) with a teleport pad in its middle (96..160, every
/// edge a teleporter facing out), and a second room far away (1000..1256,
/// floor 32, tag 3) holding the destination, facing north.
const MAP: &str = r#"
vertex a 0 0
vertex b 256 0
vertex c 256 256
vertex d 0 256
vertex p1 96 96
vertex p2 160 96
vertex p3 160 160
vertex p4 96 160
vertex e 1000 1000
vertex f 1256 1000
vertex g 1256 1256
vertex h 1000 1256
sector room floor 0 ceiling 128
sector pad floor 0 ceiling 128
sector far floor 32 ceiling 160 tag 3
loop room a b c d a
loop room p1 p2 p3 p4 p1
loop pad p1 p2 p3 p4 p1
loop far e f g h e
teleport p1 p2 tag 3
teleport p2 p3 tag 3
teleport p3 p4 tag 3
teleport p4 p1 tag 3 once
destination 1128 1128 90
player 128 32 90
"#;

fn compiled() -> Vec<u8> {
    tools::text::compile_source(MAP, "teleport.map")
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

fn degrees(d: i32) -> Angle {
    Angle::from_degrees(Fx::from_num(d))
}

#[test]
fn running_onto_the_pad_sends_the_player_to_the_destination_and_holds_it() {
    let bytes = compiled();
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let run = Input::new(100, 0, 0);
    let mut ticks = 0;
    while game.player().pos.y < Fx::from_num(200) && ticks < 35 {
        game.tick(run);
        ticks += 1;
    }
    let p = game.player();
    assert_eq!(p.pos, Vec2::from_int(1128, 1128), "after {ticks} ticks");
    assert_eq!(p.angle, degrees(90));
    assert_eq!(p.z, Fx::from_num(32), "on the far room's floor");
    // Frozen: neither running nor turning moves it for 18 ticks.
    for t in 0..FREEZE_TICKS {
        game.tick(Input::new(100, 50, 10));
        let q = game.player();
        assert_eq!((q.pos, q.angle), (p.pos, p.angle), "tick {t} of the freeze");
    }
    game.tick(run);
    assert!(
        game.player().pos.y > p.pos.y,
        "moves again after the freeze"
    );
}

#[test]
fn walking_off_the_pad_from_inside_does_nothing() {
    let bytes = compiled();
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::starting_at(level, Vec2::from_int(128, 128), degrees(0)).unwrap();
    for _ in 0..20 {
        game.tick(Input::new(100, 0, 0));
    }
    let p = game.player();
    assert!(
        p.pos.x > Fx::from_num(170),
        "walked off the pad: {:?}",
        p.pos
    );
    assert!(p.pos.x < Fx::from_num(256) && p.pos.y < Fx::from_num(256));
}

#[test]
fn a_once_only_teleporter_works_once() {
    let bytes = compiled();
    let level = Level::load(&bytes).unwrap();
    // West of the pad, facing east: the pad's west edge is the once-only
    // one.
    let start = Vec2::from_int(40, 128);
    let mut game = Game::starting_at(level, start, degrees(0)).unwrap();
    for _ in 0..20 {
        game.tick(Input::new(100, 0, 0));
    }
    assert_eq!(game.player().pos, Vec2::from_int(1128, 1128));
    let map = *level.map();
    let once = (0..map.wall_special_count())
        .find(|&k| map.wall_special_at(k).trigger & trigger::REPEAT == 0)
        .unwrap();
    let again = (once + 1) % map.wall_special_count();
    assert!(!game.set_off(once), "the west edge is spent");
    assert!(game.set_off(again), "another edge sends again");
}

#[test]
fn a_teleporter_to_a_tag_without_a_destination_does_not_compile() {
    let src = MAP.replace("destination 1128 1128 90\n", "");
    let err = tools::text::compile_source(&src, "nowhere.map").unwrap_err();
    assert!(err.to_string().contains("leads nowhere"), "{err}");
}
