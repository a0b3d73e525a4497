//! Ceilings, crushers, perpetual platforms and stairs, as DOOM's
//! `p_ceilng.c`, `p_plats.c` and `EV_BuildStairs` move them.

use engine::config::player::HEIGHT;
use engine::game::{Game, Input};
use engine::math::{Angle, Fx, Vec2};
use engine::world::{Level, SectorId};

fn fx(v: f64) -> Fx {
    Fx::from_num(v)
}

/// A hall (floor 0, ceiling 128) and a room east of it (x 256..384,
/// `room`), a third room beyond (x 384..512, floor 32, ceiling 192), and
/// the specials `specials`.
fn compiled(room: &str, specials: &str) -> Vec<u8> {
    let src = format!(
        "vertex a 0 0\nvertex b 256 0\nvertex c 256 256\nvertex d 0 256\n\
         vertex e 384 0\nvertex f 384 256\nvertex g 512 0\nvertex h 512 256\n\
         sector hall floor 0 ceiling 128\n\
         sector room {room} tag 1\n\
         sector far floor 32 ceiling 192\n\
         loop hall a b c d a\nloop room b e f c b\nloop far e g h f e\n\
         {specials}\nplayer 64 128 0\n"
    );
    tools::text::compile_source(&src, "m.map")
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

const ROOM: SectorId = SectorId(1);

fn run(game: &mut Game<'_>, ticks: usize) {
    for _ in 0..ticks {
        game.tick(Input::IDLE);
    }
}

#[test]
fn ceilings_lower_and_rise_to_dooms_heights() {
    // (kind, where the ceiling stops)
    for (kind, stop) in [
        ("lower_to_floor", 0.0),
        ("lower_and_crush", 8.0),
        ("raise_to_highest", 192.0),
    ] {
        let bytes = compiled("floor 0 ceiling 128", &format!("ceiling b c {kind} tag 1"));
        let mut game = Game::new(Level::load(&bytes).unwrap());
        assert!(game.set_off(0), "{kind}");
        run(&mut game, 10);
        let moved = (game.level().sector(ROOM).ceiling - fx(128.0)).abs();
        assert_eq!(moved, fx(10.0), "{kind}: 1 unit a tick");
        run(&mut game, 200);
        assert_eq!(game.level().sector(ROOM).ceiling, fx(stop), "{kind}");
        assert!(!game.world().is_busy(ROOM), "{kind}: done");
    }
}

#[test]
fn a_crusher_goes_down_and_up_until_stopped_and_waits_over_a_head() {
    let bytes = compiled(
        "floor 0 ceiling 128",
        "ceiling b c crusher tag 1\nceiling d a stop tag 1",
    );
    let mut game = Game::new(Level::load(&bytes).unwrap());
    assert!(game.set_off(0));
    let mut lows = 0;
    let mut heights = Vec::new();
    for _ in 0..600 {
        game.tick(Input::IDLE);
        let c = game.level().sector(ROOM).ceiling;
        heights.push(c);
        lows += usize::from(c == fx(8.0));
    }
    assert!(lows >= 2, "it turned at the bottom: {lows}");
    assert!(heights.contains(&fx(128.0)), "and came back to the top");
    assert!(game.world().is_busy(ROOM));
    // Stopped where it is.
    assert!(game.set_off(1));
    assert!(!game.world().is_busy(ROOM));
    let here = game.level().sector(ROOM).ceiling;
    run(&mut game, 50);
    assert_eq!(game.level().sector(ROOM).ceiling, here);

    // With the player under it: it comes down to the head and waits.
    let level = Level::load(&bytes).unwrap();
    let mut game = Game::starting_at(level, Vec2::from_int(320, 128), Angle::ZERO).unwrap();
    assert!(game.set_off(0));
    for _ in 0..300 {
        game.tick(Input::IDLE);
        let p = game.player();
        assert!(p.z + HEIGHT <= game.level().sector(p.sector).ceiling);
    }
    assert_eq!(game.level().sector(ROOM).ceiling, HEIGHT);
}

#[test]
fn a_perpetual_platform_goes_between_its_floors_until_stopped() {
    let bytes = compiled(
        "floor 16 ceiling 192",
        "lift b c perpetual tag 1\nlift d a stop tag 1",
    );
    let mut game = Game::new(Level::load(&bytes).unwrap());
    assert!(game.set_off(0));
    let mut seen = Vec::new();
    for _ in 0..1000 {
        game.tick(Input::IDLE);
        seen.push(game.level().sector(ROOM).floor);
    }
    // Between the lowest floor around (the hall's 0) and the highest (32).
    assert!(
        seen.contains(&fx(0.0)) && seen.contains(&fx(32.0)),
        "{seen:?}"
    );
    assert!(seen.iter().all(|&f| f >= fx(0.0) && f <= fx(32.0)));
    assert!(game.set_off(1));
    let here = game.level().sector(ROOM).floor;
    run(&mut game, 200);
    assert_eq!(game.level().sector(ROOM).floor, here);
    assert!(!game.set_off(1), "nothing left to stop");
}

/// Four steps east of a hall, all of one flat, the first tagged.
fn stairs(kind: &str) -> Vec<u8> {
    let mut src = String::from(
        "vertex a 0 0\nvertex b 256 0\nvertex c 256 256\nvertex d 0 256\n\
         sector hall floor 0 ceiling 256\nloop hall a b c d a\n",
    );
    for k in 0..4 {
        let (x0, x1) = (256 + 64 * k, 320 + 64 * k);
        src.push_str(&format!(
            "vertex s{k}a {x1} 0\nvertex s{k}b {x1} 256\n\
             sector step{k} floor 0 ceiling 256{}\n",
            if k == 0 { " tag 1" } else { "" }
        ));
        let (l0, l1) = if k == 0 {
            ("b".to_string(), "c".to_string())
        } else {
            (format!("s{}a", k - 1), format!("s{}b", k - 1))
        };
        src.push_str(&format!("loop step{k} {l0} s{k}a s{k}b {l1} {l0}\n"));
        let _ = x0;
    }
    src.push_str(&format!("stairs d a {kind} tag 1\nplayer 64 128 0\n"));
    tools::text::compile_source(&src, "stairs.map")
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes
}

#[test]
fn stairs_rise_one_step_more_each_sector() {
    for (kind, size, ticks) in [("", 8.0, 4 * 8 * 4 + 1), ("fast", 16.0, 4 * 16 / 4 + 1)] {
        let bytes = stairs(kind);
        let mut game = Game::new(Level::load(&bytes).unwrap());
        assert!(game.set_off(0), "{kind}");
        assert_eq!(game.world().movers().len(), 4, "{kind}: a floor a step");
        run(&mut game, ticks);
        for k in 0..4u16 {
            let floor = game.level().sector(SectorId(1 + k)).floor;
            assert_eq!(floor, fx(size * f64::from(k + 1)), "{kind}: step {k}");
        }
        assert!(game.world().movers().is_empty(), "{kind}");
    }
}
