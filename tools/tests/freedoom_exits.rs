//! Freedoom's exits, found from the map data alone: the player starts in
//! front of each exit switch and presses use, or runs at each exit line,
//! and the level must end, normal or secret as the special says.

mod common;

use common::{approaches, compile_with_movers, crosses, freedoom_maps};

use engine::format::{trigger, wall_action, WallSpecialRecord};
use engine::game::Exit;
use engine::world::{Level, WallId};

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
    let (starts, input) = approaches(level, s);
    let started = !starts.is_empty();
    for mut game in starts {
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
    for (wad, map) in freedoom_maps() {
        let compiled = compile_with_movers(wad, &map);
        let level = Level::load(&compiled).unwrap();
        let m = *level.map();
        for k in 0..m.wall_special_count() {
            let s = m.wall_special_at(k);
            if matches!(s.action, wall_action::EXIT | wall_action::SECRET_EXIT) {
                all.push((wad, map.clone(), s.wall, try_exit(level, &s)));
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
