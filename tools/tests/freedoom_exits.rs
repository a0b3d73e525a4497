//! Freedoom's exits, found from the map data alone: the player starts in
//! front of each exit switch and presses use, or runs at each exit line,
//! and the level must end, normal or secret as the special says.

mod common;

use common::{compile_with_movers, crosses, read_wad, starts_facing};

use engine::format::{trigger, wall_action, WallSpecialRecord};
use engine::game::{Exit, Input};
use engine::world::{Level, WallId};
use tools::import::WadSource;

/// What happened at one exit.
#[derive(Debug, PartialEq)]
enum AtExit {
    /// The level ended as the special says.
    Ended,
    /// The level ended the other way (normal for secret or back).
    Wrong(Exit),
    /// The player pressed use facing it, or ran across it, and nothing
    /// ended.
    Stayed,
    /// The player never got across the exit line (a step too high, too
    /// little room).
    Blocked,
    /// No room to stand in front of it.
    NoStart,
    /// Its front is shut (no room between floor and ceiling): the map
    /// opens it some other way first (MAP07's, when the monsters die).
    Shut,
}

fn try_exit(level: Level<'_>, s: &WallSpecialRecord) -> AtExit {
    let expected = if s.action == wall_action::SECRET_EXIT {
        Exit::Secret
    } else {
        Exit::Normal
    };
    let front = level.sector(level.wall(WallId(s.wall)).front);
    if front.ceiling - front.floor < engine::config::player::HEIGHT {
        return AtExit::Shut;
    }
    let (sides, input): (&[f64], _) = if s.trigger & trigger::USE != 0 {
        (&[1.0], Input::IDLE.with_use(true))
    } else {
        (&[1.0, -1.0], Input::new(100, 0, 0))
    };
    let mut started = false;
    for &side in sides {
        for mut game in starts_facing(level, WallId(s.wall), side, &[40.0, 32.0, 24.0, 18.0]) {
            started = true;
            for _ in 0..20 {
                let from = game.player().pos;
                game.tick(input);
                match game.exit() {
                    Some(e) if e == expected => return AtExit::Ended,
                    Some(e) => return AtExit::Wrong(e),
                    None => {}
                }
                let to = game.player().pos;
                // Crossed either way: a walk exit works from both sides.
                let wall = WallId(s.wall);
                if crosses(&level, wall, from, to) || crosses(&level, wall, to, from) {
                    return AtExit::Stayed;
                }
            }
        }
    }
    if started && s.trigger & trigger::USE != 0 {
        AtExit::Stayed
    } else if started {
        AtExit::Blocked
    } else {
        AtExit::NoStart
    }
}

/// Every exit of both Freedoom IWADs that the player can reach from the
/// map as built ends its level, the right way. On 2026-12-02: 184 exits,
/// 157 ended the level; the rest are exit lines behind a step or ceiling
/// the player cannot pass and one switch in a shut sector.
#[test]
fn every_exit_of_every_freedoom_map_ends_the_level() {
    let mut all = Vec::new();
    for wad in ["freedoom1.wad", "freedoom2.wad"] {
        let bytes = read_wad(wad);
        let source = WadSource::new(&bytes, None).unwrap();
        for map in source.maps() {
            let compiled = compile_with_movers(wad, &map.name);
            let level = Level::load(&compiled).unwrap();
            let m = *level.map();
            for k in 0..m.wall_special_count() {
                let s = m.wall_special_at(k);
                if matches!(s.action, wall_action::EXIT | wall_action::SECRET_EXIT) {
                    all.push((wad, map.name.clone(), s.wall, try_exit(level, &s)));
                }
            }
        }
    }
    let ended = all.iter().filter(|e| e.3 == AtExit::Ended).count();
    let bad: Vec<_> = all
        .iter()
        .filter(|e| !matches!(e.3, AtExit::Ended | AtExit::Blocked | AtExit::Shut))
        .collect();
    assert!(all.len() >= 60, "{} exits found", all.len());
    assert!(
        bad.is_empty(),
        "{ended} of {} exits ended the level; not: {bad:?}",
        all.len()
    );
}
