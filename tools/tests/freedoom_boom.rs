//! Boom's generalised doors and lifts where Freedoom uses them (a door of
//! E3M7, the lifts of MAP26), from the map data alone: each set off moves
//! its sectors at its own speed, waits its own time and comes back.

mod common;

use common::{compile_with_movers, freedoom_maps};

use engine::format::wall_action;
use engine::game::{Game, Input};
use engine::math::Fx;
use engine::specials::Mover;
use engine::world::Level;

#[test]
fn every_boom_door_and_lift_of_every_freedoom_map_moves_waits_and_returns() {
    let (mut doors, mut lifts) = (0, 0);
    for (wad, map) in freedoom_maps() {
        let compiled = compile_with_movers(wad, &map);
        let level = Level::load(&compiled).unwrap();
        let m = *level.map();
        for k in 0..m.wall_special_count() {
            let a = m.wall_special_at(k).action & !wall_action::BACK_SECTOR;
            let door = wall_action::is_boom_door(a);
            if !door && !(wall_action::BOOM_LIFT..=wall_action::BOOM_LIFT_LAST).contains(&a) {
                continue;
            }
            let mut game = Game::new(level);
            assert!(game.set_off(k), "{wad} {map} special {k}");
            let movers = game.world().movers().to_vec();
            assert!(!movers.is_empty());
            for mover in movers {
                let sector = mover.sector();
                let start = level.sector(sector);
                let (speed, wait) = match mover {
                    Mover::Door(d) => (d.speed, d.wait),
                    Mover::Lift(l) => (l.speed, l.wait),
                    other => panic!("{wad} {map} special {k}: {other:?}"),
                };
                // The plane that moves: a door's ceiling, a lift's floor.
                let plane = |g: &Game<'_>| {
                    let s = g.level().sector(sector);
                    if door {
                        s.ceiling
                    } else {
                        s.floor
                    }
                };
                let from = plane(&game);
                game.tick(Input::IDLE);
                let step = (plane(&game) - from).abs();
                assert!(
                    step > Fx::ZERO && step <= speed,
                    "{wad} {map}: first step {step} at speed {speed}"
                );
                // The longest it stays still: its wait.
                let mut longest_still = 0;
                let (mut still, mut last) = (0, plane(&game));
                for _ in 0..5000 {
                    if !game.world().is_busy(sector) {
                        break;
                    }
                    game.tick(Input::IDLE);
                    let now = plane(&game);
                    still = if now == last { still + 1 } else { 0 };
                    longest_still = longest_still.max(still);
                    last = now;
                }
                assert!(!game.world().is_busy(sector), "{wad} {map}: done");
                // Back where it started, after waiting its own time.
                let back = if door { start.ceiling } else { start.floor };
                assert_eq!(plane(&game), back, "{wad} {map}: back");
                assert_eq!(longest_still, usize::from(wait), "{wad} {map} special {k}");
                if door {
                    doors += 1;
                } else {
                    lifts += 1;
                }
            }
        }
    }
    eprintln!("{doors} Boom doors and {lifts} Boom lifts moved, waited and returned");
    assert!(doors >= 1 && lifts >= 1, "{doors} doors, {lifts} lifts");
}
