//! Sector lights that change by themselves, with DOOM's timings: strobes
//! dark 15 or 35 ticks and bright 5, glows 8 levels a tick between the
//! darkest neighbour and their own, flickers and fire between the two.

use engine::game::{Game, Input};
use engine::math::Vec2;
use engine::world::{Level, SectorId};

/// A hall (light 96) with five rooms off it, each its own light effect
/// at 200.
fn map(effect: &str) -> String {
    format!(
        "vertex a 0 0\nvertex b 512 0\nvertex c 512 256\nvertex d 0 256\n\
         vertex e 512 -256\nvertex f 0 -256\n\
         sector hall floor 0 ceiling 128 light 96\n\
         sector room floor 0 ceiling 128 light 200 effect {effect}\n\
         loop hall a b c d a\nloop room f e b a f\n\
         player 64 128 0\n"
    )
}

fn game_on(bytes: &[u8]) -> Game<'_> {
    Game::new(Level::load(bytes).unwrap())
}

fn compiled(effect: &str) -> Vec<u8> {
    tools::text::compile_source(&map(effect), "lights.map")
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

/// The room's light after each of `ticks` ticks.
fn lights(effect: &str, ticks: usize) -> Vec<u8> {
    let bytes = compiled(effect);
    let mut game = game_on(&bytes);
    let room = game.level().locate(Vec2::from_int(256, -128)).unwrap();
    (0..ticks)
        .map(|_| {
            game.tick(Input::IDLE);
            game.level().sector(room).light
        })
        .collect()
}

/// Lengths of the runs of equal values, and the values.
fn runs(v: &[u8]) -> Vec<(u8, usize)> {
    let mut out: Vec<(u8, usize)> = Vec::new();
    for &x in v {
        match out.last_mut() {
            Some((y, n)) if *y == x => *n += 1,
            _ => out.push((x, 1)),
        }
    }
    out
}

#[test]
fn a_sync_strobe_is_dark_then_bright_with_dooms_timings() {
    for (effect, dark) in [("strobe_sync", 15), ("strobe_slow_sync", 35)] {
        let r = runs(&lights(effect, 200));
        // In step: the first change is on the first tick, to dark.
        assert_eq!(r[0], (96, dark), "{effect}: {r:?}");
        for pair in r[1..r.len() - 1].chunks(2) {
            assert_eq!(pair[0], (200, 5), "{effect}: {r:?}");
            if pair.len() == 2 {
                assert_eq!(pair[1], (96, dark), "{effect}: {r:?}");
            }
        }
    }
}

#[test]
fn a_strobe_with_no_darker_neighbour_goes_black() {
    let src = map("strobe").replace("light 96", "light 200");
    let bytes = tools::text::compile_source(&src, "l.map").unwrap().bytes;
    let mut game = game_on(&bytes);
    let room = game.level().locate(Vec2::from_int(256, -128)).unwrap();
    let mut seen = Vec::new();
    for _ in 0..100 {
        game.tick(Input::IDLE);
        seen.push(game.level().sector(room).light);
    }
    assert!(seen.contains(&0) && seen.contains(&200), "{seen:?}");
    assert!(seen.iter().all(|&l| l == 0 || l == 200), "{seen:?}");
}

#[test]
fn a_glow_goes_down_to_the_darkest_neighbour_and_back_by_eights() {
    let v = lights("glow", 60);
    assert_eq!(v[..3], [192, 184, 176]);
    assert_eq!(*v.iter().min().unwrap(), 104, "{v:?}");
    // At each end DOOM steps back: the same level two ticks running.
    assert_eq!(*v.iter().max().unwrap(), 192, "{v:?}");
    for w in v.windows(2) {
        assert!(
            matches!((i16::from(w[1]) - i16::from(w[0])).abs(), 0 | 8),
            "{v:?}"
        );
    }
    assert_eq!(runs(&v).iter().filter(|r| r.1 == 2).count(), 4, "{v:?}");
}

#[test]
fn flicker_and_fire_stay_between_their_levels_and_change() {
    let flicker = lights("flicker", 700);
    assert!(flicker.iter().all(|&l| l == 96 || l == 200), "{flicker:?}");
    assert!(runs(&flicker).len() > 4, "{:?}", runs(&flicker));
    let fire = lights("fire", 200);
    // Every 4 ticks, 0 to 48 below 200; where that step from the light
    // now would go under the darkest neighbour + 16, that (DOOM's rule).
    assert!(
        fire.iter().all(|l| [112, 152, 168, 184, 200].contains(l)),
        "{fire:?}"
    );
    let r = runs(&fire);
    assert!(r[1..r.len() - 1].iter().all(|&(_, n)| n % 4 == 0), "{r:?}");
    assert!(r.len() > 10, "{r:?}");
}

#[test]
fn lights_are_the_same_every_run_and_in_the_world_hash() {
    let bytes = compiled("flicker");
    let (mut a, mut b) = (game_on(&bytes), game_on(&bytes));
    let before = a.player().world;
    let mut changed = false;
    for _ in 0..300 {
        a.tick(Input::IDLE);
        b.tick(Input::IDLE);
        assert_eq!(a.player().world, b.player().world);
        changed |= a.player().world != before;
    }
    assert!(changed);
    // The hall has no effect: its light never moves.
    assert_eq!(a.level().sector(SectorId(0)).light, 96);
}

#[test]
fn a_map_without_effects_has_no_lights_running() {
    let src = map("glow").replace(" effect glow", "");
    let bytes = tools::text::compile_source(&src, "l.map").unwrap().bytes;
    let game = game_on(&bytes);
    assert!(game.world().lights().is_empty());
}

#[test]
fn an_unknown_effect_is_a_compile_error() {
    let e = tools::text::compile_source(&map("disco"), "l.map").unwrap_err();
    let text = e.to_string();
    assert!(text.contains("unknown sector effect `disco`"), "{text}");
    assert!(text.contains("`flicker`"), "{text}");
}

/// A hall (light 96) between two rooms tagged 1, `low` (light 200) and
/// `high` (light 40), and past `high` a bright room (250). The wall
/// between hall and `low` carries `lights a b KIND tag 1`.
fn switched(kind: &str) -> Vec<u8> {
    let src = format!(
        "vertex a 0 0\nvertex b 512 0\nvertex c 512 256\nvertex d 0 256\n\
         vertex e 512 -256\nvertex f 0 -256\nvertex g 512 512\nvertex h 0 512\n\
         vertex i 512 768\nvertex j 0 768\n\
         sector hall floor 0 ceiling 128 light 96\n\
         sector low floor 0 ceiling 128 light 200 tag 1\n\
         sector high floor 0 ceiling 128 light 40 tag 1\n\
         sector bright floor 0 ceiling 128 light 250\n\
         loop hall a b c d a\nloop low f e b a f\nloop high d c g h d\nloop bright h g i j h\n\
         lights a b {kind} tag 1\n\
         player 64 128 0\n"
    );
    tools::text::compile_source(&src, "switched.map")
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

#[test]
fn light_switches_set_the_tagged_sectors_as_dooms_do() {
    let (hall, low, high, bright) = (SectorId(0), SectorId(1), SectorId(2), SectorId(3));
    // (kind, low's light, high's light)
    let cases = [
        ("full", 255, 255),
        ("dim", 35, 35),
        // DOOM finds the brightest neighbour for the first tagged sector
        // (the hall's 96) and gives every later one the same, though
        // `high` has a brighter neighbour.
        ("brightest", 96, 96),
        // Each its own darkest of itself and its neighbours.
        ("darkest", 96, 40),
    ];
    for (kind, want_low, want_high) in cases {
        let bytes = switched(kind);
        let mut game = game_on(&bytes);
        let before = game.player().world;
        assert_eq!(game.level().sector(low).light, 200);
        assert!(game.set_off(0), "{kind}");
        let light = |s| game.level().sector(s).light;
        assert_eq!((light(low), light(high)), (want_low, want_high), "{kind}");
        assert_eq!((light(hall), light(bright)), (96, 250), "{kind}: untagged");
        assert_ne!(game.player().world, before, "{kind}: in the world hash");
        game.tick(Input::IDLE);
        assert_eq!(game.level().sector(low).light, want_low, "{kind}: it stays");
    }
    // Once only: spent after the first.
    let bytes = switched("full once");
    let mut game = game_on(&bytes);
    assert!(game.set_off(0));
    assert!(!game.set_off(0));
}

#[test]
fn an_unknown_light_switch_kind_is_a_compile_error() {
    let src = "vertex a 0 0\nlights a a disco tag 1\n";
    let e = tools::text::compile_source(src, "l.map")
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown lights kind `disco`"), "{e}");
    assert!(e.contains("`brightest`, `full`, `dim`, `darkest`"), "{e}");
}

#[test]
fn a_line_starts_dooms_slow_strobe_in_the_tagged_sectors() {
    let (hall, low, high) = (SectorId(0), SectorId(1), SectorId(2));
    let bytes = switched("strobe");
    let mut game = game_on(&bytes);
    assert!(game.world().lights().is_empty(), "nothing strobes before");
    assert!(game.set_off(0));
    assert_eq!(game.world().lights().len(), 2);
    let mut seen = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..300 {
        game.tick(Input::IDLE);
        for (v, s) in seen.iter_mut().zip([hall, low, high]) {
            v.push(game.level().sector(s).light);
        }
    }
    // `low` between its 200 and the hall's 96; `high`, with no darker
    // neighbour, between its 40 and black; both dark 35 ticks, bright 5
    // (the first run, before the first change, is the random wait).
    for (v, (bright, dark)) in seen[1..].iter().zip([(200, 96), (40, 0)]) {
        let r = runs(v);
        assert!(r.len() > 10, "{r:?}");
        for &(level, len) in &r[1..r.len() - 1] {
            let want = if level == bright { 5 } else { 35 };
            assert!(level == bright || level == dark, "{r:?}");
            assert_eq!(len, want, "{r:?}");
        }
    }
    assert!(seen[0].iter().all(|&l| l == 96), "the hall is not tagged");
}
