//! Floors moved by specials, as DOOM's `p_floor.c` moves them: to the
//! height their kind finds when they start, 1 unit a tick (4 for the fast
//! ones), carrying the bodies on them, and stopping under a body that
//! would have no room.

use engine::config::player::HEIGHT;
use engine::game::{Game, Input};
use engine::math::{Angle, Fx, Vec2};
use engine::world::{Level, SectorId};

/// A hall (floor 0, ceiling 128) between two rooms: `mid` (x 256..384,
/// floor F, ceiling 128, tag 1) and `far` (x 384..512, floor 32, ceiling
/// 160). The wall between hall and mid carries `floor hm KIND tag 1`.
fn map(kind: &str, floor: i32) -> String {
    format!(
        "vertex a 0 0\nvertex b 256 0\nvertex c 256 256\nvertex d 0 256\n\
         vertex e 384 0\nvertex f 384 256\nvertex g 512 0\nvertex h 512 256\n\
         sector hall floor 0 ceiling 128\n\
         sector mid floor {floor} ceiling 128 tag 1\n\
         sector far floor 32 ceiling 160\n\
         loop hall a b c d a\nloop mid b e f c b\nloop far e g h f e\n\
         floor b c {kind} tag 1\n\
         player 64 128 0\n"
    )
}

fn compiled(kind: &str, floor: i32) -> Vec<u8> {
    tools::text::compile_source(&map(kind, floor), "floors.map")
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

const MID: SectorId = SectorId(1);

/// The middle room's floor after each tick, from the special set off
/// until its floor stops (or `limit` ticks).
fn floor_heights(game: &mut Game<'_>, limit: usize) -> Vec<Fx> {
    assert!(game.set_off(0));
    heights_until_still(game, limit)
}

/// The middle room's floor after each tick until it stops (or `limit`
/// ticks).
fn heights_until_still(game: &mut Game<'_>, limit: usize) -> Vec<Fx> {
    let mut out = Vec::new();
    for _ in 0..limit {
        game.tick(Input::IDLE);
        out.push(game.level().sector(MID).floor);
        if !game.world().is_busy(MID) {
            break;
        }
    }
    out
}

fn fx(v: i32) -> Fx {
    Fx::from_num(v)
}

#[test]
fn each_kind_stops_where_dooms_does() {
    // (kind, start floor, where it stops, units a tick)
    let cases = [
        ("lower", 64, 32, 1),          // the highest floor around
        ("lower_to_lowest", 64, 0, 1), // the lowest floor around
        ("lower_fast", 64, 40, 4),     // 8 above the highest around
        ("raise", -64, 128, 1),        // the lowest ceiling around
        ("raise_crush", -64, 120, 1),  // 8 below it
        ("raise_to_next", -64, 0, 1),  // the next floor up around
        ("raise_to_next_fast", 8, 32, 4),
        ("raise_24", -64, -40, 1),
        ("raise_512", -600, -88, 1),
    ];
    for (kind, start, stop, speed) in cases {
        let bytes = compiled(kind, start);
        let mut game = Game::new(Level::load(&bytes).unwrap());
        let heights = floor_heights(&mut game, 2000);
        assert_eq!(heights.last(), Some(&fx(stop)), "{kind}: {heights:?}");
        assert_eq!(
            heights[0],
            fx(start + speed * (stop - start).signum()),
            "{kind}"
        );
        let ticks = ((stop - start).abs() + speed - 1) / speed;
        assert_eq!(heights.len() as i32, ticks, "{kind}: {heights:?}");
        assert!(!game.world().is_busy(MID), "{kind}: done");
    }
}

#[test]
fn a_rising_floor_carries_the_player_and_stops_under_its_head() {
    let bytes = compiled("raise", -64);
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::starting_at(level, Vec2::from_int(320, 128), Angle::ZERO).unwrap();
    assert_eq!(game.player().z, fx(-64));
    assert!(game.set_off(0));
    for _ in 0..300 {
        game.tick(Input::IDLE);
        let p = game.player();
        let s = game.level().sector(p.sector);
        assert_eq!(p.z, s.floor, "feet on the floor");
        assert!(p.z + HEIGHT <= s.ceiling, "head under the ceiling");
    }
    // Stopped with the head at the ceiling, and still trying.
    assert_eq!(game.level().sector(MID).floor, fx(128) - HEIGHT);
    assert!(game.world().is_busy(MID));
    // Step off, and it goes on to the ceiling.
    for _ in 0..60 {
        game.tick(Input::new(-100, 0, 0));
    }
    assert!(game.player().pos.x < fx(240), "{:?}", game.player());
    for _ in 0..80 {
        game.tick(Input::IDLE);
    }
    assert_eq!(game.level().sector(MID).floor, fx(128));
    assert!(!game.world().is_busy(MID));
}

#[test]
fn a_lowering_floor_takes_the_player_down_without_floating() {
    let bytes = compiled("lower_to_lowest", 64);
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::starting_at(level, Vec2::from_int(320, 128), Angle::ZERO).unwrap();
    assert!(game.set_off(0));
    for _ in 0..70 {
        game.tick(Input::IDLE);
        let p = game.player();
        assert_eq!(p.z, game.level().sector(p.sector).floor);
    }
    assert_eq!(game.player().z, fx(0));
}

#[test]
fn a_floor_at_work_is_not_started_again_and_hashes_in_the_world() {
    let bytes = compiled("raise_24", 0);
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let before = game.player().world;
    assert!(game.set_off(0));
    assert!(!game.set_off(0), "busy");
    assert_ne!(game.player().world, before);
    for _ in 0..30 {
        game.tick(Input::IDLE);
    }
    assert!(game.set_off(0), "done, so again");
}

#[test]
fn a_floor_without_its_kind_or_tag_is_a_compile_error() {
    let text = map("raise", 0).replace("floor b c raise tag 1", "floor b c tag 1");
    let e = tools::text::compile_source(&text, "f.map")
        .unwrap_err()
        .to_string();
    assert!(e.contains("a floor needs its kind"), "{e}");
    let text = map("raise", 0).replace("floor b c raise tag 1", "floor b c raise");
    let e = tools::text::compile_source(&text, "f.map")
        .unwrap_err()
        .to_string();
    assert!(e.contains("a floor needs `tag N`"), "{e}");
    let text = map("sideways", 0);
    let e = tools::text::compile_source(&text, "f.map")
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown floor kind `sideways`"), "{e}");
}

/// [`map`] with flats: the hall's TILES, the middle room's BRICKS and the
/// far room's PANELS (the repository's own textures).
fn compiled_with_flats(kind: &str, floor: i32) -> Vec<u8> {
    let text = map(kind, floor)
        .replace(
            "sector hall floor 0 ceiling 128\n",
            "texture TILES textures/tiles.png\ntexture BRICKS textures/bricks.png\n\
             texture PANELS textures/panels.png\n\
             sector hall floor 0 ceiling 128 floor_texture TILES\n",
        )
        .replace(
            "ceiling 128 tag 1\n",
            "ceiling 128 tag 1 floor_texture BRICKS\n",
        )
        .replace("ceiling 160\n", "ceiling 160 floor_texture PANELS\n");
    // Texture files are found beside the map file.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/flats.map");
    tools::text::compile_source(&text, file)
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

const HALL: SectorId = SectorId(0);
const FAR: SectorId = SectorId(2);

#[test]
fn a_floor_lowered_to_the_lowest_takes_the_flat_there_when_it_arrives() {
    let bytes = compiled_with_flats("lower_to_lowest_change", 64);
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let flat = |g: &Game<'_>, s| g.level().sector(s).floor_texture;
    let (hall, own) = (flat(&game, HALL), flat(&game, MID));
    assert_ne!(hall, own);
    assert_ne!(flat(&game, FAR), hall);
    assert!(game.set_off(0));
    let mut ticks = 0;
    while game.world().is_busy(MID) {
        assert_eq!(flat(&game, MID), own, "its own flat on the way down");
        game.tick(Input::IDLE);
        ticks += 1;
        assert!(ticks < 100);
    }
    assert_eq!(ticks, 64);
    assert_eq!(game.level().sector(MID).floor, fx(0));
    // The hall's floor is at 0, where it stopped: the hall is its model.
    assert_eq!(flat(&game, MID), hall);
}

#[test]
fn platforms_that_change_their_flat_take_the_front_sectors_as_they_start() {
    // (kind, start floor, where it stops): half a unit a tick.
    let cases = [
        ("plat_raise_to_next_change", -64, 0),
        ("plat_raise_24_change", -64, -40),
        ("plat_raise_32_change", -64, -32),
    ];
    for (kind, start, stop) in cases {
        let bytes = compiled_with_flats(kind, start);
        let mut game = Game::new(Level::load(&bytes).unwrap());
        let hall = game.level().sector(HALL).floor_texture;
        assert_ne!(game.level().sector(MID).floor_texture, hall);
        let before = game.player().world;
        assert!(game.set_off(0));
        // The wall's front is the hall: its flat, at once.
        assert_eq!(game.level().sector(MID).floor_texture, hall, "{kind}");
        let heights = heights_until_still(&mut game, 1000);
        assert_eq!(heights[0], fx(start) + Fx::from_num(0.5), "{kind}");
        assert_eq!(heights.last(), Some(&fx(stop)), "{kind}");
        assert_eq!(heights.len() as i32, (stop - start) * 2, "{kind}");
        assert_ne!(game.player().world, before);
    }
    // The floor kind at a unit a tick.
    let bytes = compiled_with_flats("raise_24_change", -64);
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let hall = game.level().sector(HALL).floor_texture;
    assert!(game.set_off(0));
    assert_eq!(game.level().sector(MID).floor_texture, hall);
    let heights = heights_until_still(&mut game, 1000);
    assert_eq!(heights.len(), 24);
    assert_eq!(heights.last(), Some(&fx(-40)));
}

/// A room (x -256..0, floor 0, TILES), east of it a ring of slime (x
/// 0..128, floor -16, BRICKS) and east of that a pillar (x 128..256,
/// floor 64, PANELS, tag 1) whose first wall faces the ring. The room's
/// west wall is a donut switch.
fn donut_map() -> Vec<u8> {
    let text = "texture TILES textures/tiles.png\ntexture BRICKS textures/bricks.png\n\
         texture PANELS textures/panels.png\n\
         vertex a -256 0\nvertex b 0 0\nvertex c 0 128\nvertex d -256 128\n\
         vertex e 128 0\nvertex f 128 128\nvertex g 256 0\nvertex h 256 128\n\
         sector room floor 0 ceiling 128 floor_texture TILES\n\
         sector ring floor -16 ceiling 128 floor_texture BRICKS\n\
         sector pillar floor 64 ceiling 128 floor_texture PANELS tag 1\n\
         loop room a b c d a\nloop ring b e f c b\nloop pillar f e g h f\n\
         floor d a donut tag 1 once\n\
         player -128 64 0\n";
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/donut.map");
    tools::text::compile_source(text, file)
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

#[test]
fn a_donut_lowers_the_pillar_and_raises_the_ring_to_the_floor_beyond() {
    let bytes = donut_map();
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let (room, ring, pillar) = (SectorId(0), SectorId(1), SectorId(2));
    let tiles = game.level().sector(room).floor_texture;
    let bricks = game.level().sector(ring).floor_texture;
    assert!(game.set_off(0));
    assert!(game.world().is_busy(ring) && game.world().is_busy(pillar));
    let mut ticks = 0;
    while game.world().is_busy(ring) || game.world().is_busy(pillar) {
        // The ring keeps its slime until it arrives.
        if game.world().is_busy(ring) {
            assert_eq!(game.level().sector(ring).floor_texture, bricks);
        }
        game.tick(Input::IDLE);
        ticks += 1;
        assert!(ticks < 1000);
    }
    // Half a unit a tick: the pillar's 64 down is the longer.
    assert_eq!(ticks, 128);
    assert_eq!(game.level().sector(ring).floor, fx(0));
    assert_eq!(game.level().sector(pillar).floor, fx(0));
    assert_eq!(game.level().sector(ring).floor_texture, tiles);
    assert!(!game.set_off(0), "once");
}
