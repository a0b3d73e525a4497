//! Freedoom's switches, found from the map data alone: the player starts
//! in front of each, presses use, and the switch's front shows its other
//! texture (DOOM's SW1/SW2 pairs) in the picture; a repeatable one flips
//! back a second later, a once-only one stays.

mod common;

use common::{approaches, compile_with_movers, freedoom_maps};
use engine::format::trigger;
use engine::game::Game;
use engine::render::{render, Frame, Scene, Shades};
use engine::specials::SWITCH_TICKS;
use engine::world::{Level, WallId};

fn picture(level: &Level<'_>, game: &Game<'_>) -> Vec<u32> {
    let shades: Shades<u32> = Shades::for_map(level.map());
    let mut pixels = vec![0u32; 160 * 100];
    let mut frame = Frame::new(&mut pixels, 160, 100, 160).unwrap();
    render(
        &Scene::new(level, game.camera()).with_sprites(&[]),
        &shades,
        &mut frame,
    );
    pixels
}

#[derive(Debug, PartialEq)]
enum AtSwitch {
    /// Flipped, and back (or not) as its trigger says; `seen` if the
    /// picture changed (a pair may differ only where the wall does not
    /// show it: Freedoom's SW1COMP and SW2COMP only in rows 78-87, on
    /// E1M2's 64-high wall pegged at the top).
    Flipped { seen: bool },
    /// Set off, flipped, but did not flip back (or flipped back once-only).
    WrongTime,
    /// Not set off from any start (something in the way, nothing to move).
    NotSetOff,
}

fn try_switch(level: Level<'_>, wall: u16) -> AtSwitch {
    let Some(special) = level.map().wall_special(wall) else {
        return AtSwitch::NotSetOff;
    };
    let (starts, input) = approaches(level, &special);
    for start in starts.into_iter().rev() {
        let mut game = start;
        // Keys are not what this tests.
        for colour in [
            engine::specials::KeyColour::Blue,
            engine::specials::KeyColour::Yellow,
            engine::specials::KeyColour::Red,
        ] {
            game.give_key(colour);
        }
        game.tick(input);
        if game.level().switched(WallId(wall)).is_none() {
            continue;
        }
        // The switch's own textures, and the level as the game has it:
        // only the switch differs.
        let now = game.level();
        let seen = picture(&now, &game) != picture(&now.with_switches(&[]), &game);
        if game.exit().is_some() {
            return AtSwitch::Flipped { seen };
        }
        let repeat = special.trigger & trigger::REPEAT != 0;
        for _ in 0..SWITCH_TICKS + 5 {
            game.tick(engine::game::Input::IDLE);
        }
        let still = game.level().switched(WallId(wall)).is_some();
        return if still != repeat {
            AtSwitch::Flipped { seen }
        } else {
            AtSwitch::WrongTime
        };
    }
    AtSwitch::NotSetOff
}

#[test]
fn every_switch_of_every_freedoom_map_flips() {
    let mut all = Vec::new();
    for (wad, map) in freedoom_maps() {
        let bytes = compile_with_movers(wad, &map);
        let level = Level::load(&bytes).unwrap();
        for k in 0..level.map().switch_count() {
            let wall = level.map().switch_at(k).wall;
            all.push((wad, map.clone(), wall, try_switch(level, wall)));
        }
    }
    let set_off = all.iter().filter(|s| s.3 != AtSwitch::NotSetOff).count();
    let seen = all
        .iter()
        .filter(|s| s.3 == AtSwitch::Flipped { seen: true })
        .count();
    let wrong: Vec<_> = all.iter().filter(|s| s.3 == AtSwitch::WrongTime).collect();
    assert!(all.len() >= 300, "{} switches", all.len());
    assert!(
        set_off * 10 >= all.len() * 7,
        "{set_off} of {} set off",
        all.len()
    );
    assert!(
        wrong.is_empty(),
        "flipped back at the wrong time: {wrong:?}"
    );
    // On 2026-12-03, 478 of the 557 set off changed the picture.
    assert!(
        seen * 100 >= set_off * 80,
        "{seen} of {set_off} seen to flip"
    );
}
