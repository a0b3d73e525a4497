//! Freedoom's teleporters, found from the map data alone: compiled with
//! the movers kept ([`tools::import::ImportOptions::movers`]), the player
//! runs at each teleporter line from its front and must arrive at the
//! destination in the tagged sector, facing its way, and stand there for
//! DOOM's 18 ticks whatever it presses.

mod common;

use common::{compile_with_movers, crosses, freedoom_maps, starts_facing};

use engine::format::wall_action;
use engine::game::{Game, Input};
use engine::math::{Fx, Vec2};
use engine::specials::teleport::{destination, Destination, FREEZE_TICKS};
use engine::world::{Level, WallId};

/// What happened at one teleporter.
#[derive(Debug, PartialEq)]
enum AtTeleport {
    /// The player arrived, facing the destination's way, and stood still.
    Arrived,
    /// The player crossed the line and was not sent anywhere.
    Stayed,
    /// The player never got across the line: a step too high, too little
    /// room or a thing in the way (most are monsters' teleporters).
    Blocked,
    /// It arrived but moved before its 18 ticks were up.
    Moved,
    /// On its way to the line it crossed another teleporter, which sent
    /// it to that one's destination.
    Elsewhere,
    /// No room to stand in front of the line.
    NoStart,
    /// The tag names no sector with a destination: DOOM's teleport does
    /// nothing either.
    Nowhere,
}

/// Whether the tick that took the player from `from` to where it is now
/// was a teleport to `to`: a jump further than running goes in a tick,
/// to the spot (or pushed clear of the walls or things next to it),
/// facing its way.
fn arrived(game: &Game<'_>, from: Vec2, to: &Destination) -> bool {
    let p = game.player();
    let jump = (p.pos.x - from.x).abs() + (p.pos.y - from.y).abs();
    let (dx, dy) = (p.pos.x - to.pos.x, p.pos.y - to.pos.y);
    let near = Fx::from_num(64);
    jump > Fx::from_num(32) && p.angle == to.angle && dx.abs() <= near && dy.abs() <= near
}

/// Whether the tick was a jump: a teleport somewhere.
fn jumped(game: &Game<'_>, from: Vec2) -> bool {
    let p = game.player().pos;
    (p.x - from.x).abs() + (p.y - from.y).abs() > Fx::from_num(32)
}

fn try_teleport(level: Level<'_>, wall: WallId, tag: u16) -> AtTeleport {
    let Some(to) = destination(&level, tag) else {
        return AtTeleport::Nowhere;
    };
    let starts = starts_facing(level, wall, 1.0, &[40.0, 32.0, 24.0, 18.0]);
    if starts.is_empty() {
        return AtTeleport::NoStart;
    }
    for mut game in starts {
        for _ in 0..20 {
            let from = game.player().pos;
            game.tick(Input::new(100, 0, 0));
            if arrived(&game, from, &to) {
                let there = game.player();
                for _ in 0..FREEZE_TICKS {
                    game.tick(Input::new(100, 0, 10));
                    let p = game.player();
                    if (p.pos, p.angle) != (there.pos, there.angle) {
                        return AtTeleport::Moved;
                    }
                }
                return AtTeleport::Arrived;
            }
            if jumped(&game, from) {
                return AtTeleport::Elsewhere;
            }
            if crosses(&level, wall, from, game.player().pos) {
                return AtTeleport::Stayed;
            }
        }
    }
    AtTeleport::Blocked
}

fn teleports_of(wad: &str, map: &str) -> Vec<(u16, AtTeleport)> {
    let compiled = compile_with_movers(wad, map);
    let level = Level::load(&compiled).unwrap();
    let m = *level.map();
    (0..m.wall_special_count())
        .map(|k| m.wall_special_at(k))
        .filter(|s| s.action == wall_action::TELEPORT)
        .map(|s| (s.wall, try_teleport(level, WallId(s.wall), s.tag)))
        .collect()
}

/// Every teleporter of both Freedoom IWADs. Each that the player crosses
/// from its front must send it to its destination; the failure message
/// lists those that did not. Many cannot be crossed (a step too high or a
/// ceiling too low behind them: monsters' teleporters in DOOM too). On
/// 2026-12-02: of 1,064, 728 sent the player on; 292 could not be
/// crossed, 24 had no room in front, 10 lead nowhere (no destination in
/// the tagged sectors) and 10 runs crossed another teleporter first.
#[test]
fn every_teleporter_of_every_freedoom_map_sends_the_player_to_its_destination() {
    let mut all = Vec::new();
    for (wad, map) in freedoom_maps() {
        for t in teleports_of(wad, &map) {
            all.push((wad, map.clone(), t));
        }
    }
    let arrived = all.iter().filter(|t| t.2 .1 == AtTeleport::Arrived).count();
    let bad: Vec<_> = all
        .iter()
        .filter(|t| {
            !matches!(
                t.2 .1,
                AtTeleport::Arrived
                    | AtTeleport::Nowhere
                    | AtTeleport::Blocked
                    | AtTeleport::NoStart
                    | AtTeleport::Elsewhere
            )
        })
        .collect();
    let blocked = all.iter().filter(|t| t.2 .1 == AtTeleport::Blocked).count();
    let elsewhere = all
        .iter()
        .filter(|t| t.2 .1 == AtTeleport::Elsewhere)
        .count();
    assert!(all.len() >= 1000, "{} teleporters found", all.len());
    assert!(
        arrived * 3 >= all.len() * 2,
        "only {arrived} of {} teleporters sent the player on ({blocked} blocked, {elsewhere} \
         crossed another on the way)",
        all.len()
    );
    assert!(
        bad.is_empty(),
        "{arrived} of {} teleporters sent the player on; not: {bad:?}",
        all.len()
    );
}

/// A teleporter works from its front only: running back across the line
/// from the destination side does nothing.
#[test]
fn a_teleporter_crossed_from_behind_does_nothing() {
    let compiled = compile_with_movers("freedoom2.wad", "MAP01");
    let level = Level::load(&compiled).unwrap();
    let m = *level.map();
    let mut tried = 0;
    for k in 0..m.wall_special_count() {
        let s = m.wall_special_at(k);
        if s.action != wall_action::TELEPORT {
            continue;
        }
        let Some(to) = destination(&level, s.tag) else {
            continue;
        };
        for mut game in starts_facing(level, WallId(s.wall), -1.0, &[40.0, 24.0]) {
            tried += 1;
            for _ in 0..20 {
                game.tick(Input::new(100, 0, 0));
                let p = game.player();
                let far = (p.pos.x - to.pos.x).abs() + (p.pos.y - to.pos.y).abs();
                assert!(
                    far > Fx::from_num(64) || p.angle != to.angle,
                    "wall {}: teleported from behind",
                    s.wall
                );
            }
        }
    }
    assert!(tried > 0, "MAP01 has a teleporter to run at from behind");
}
