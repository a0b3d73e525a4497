//! Freedoom's floor, ceiling, crusher, platform, stair and donut specials, from
//! the map data alone: each one set off moves every sector it names to
//! where DOOM's kind of mover stops (a floor at most to its ceiling, a
//! ceiling at least to its floor), crushers and perpetual platforms keep
//! moving, those that change their flat on arrival take their model's,
//! and the player is never left where it does not fit.

mod common;

use common::{compile_with_movers, freedoom_maps};

use engine::format::wall_action;
use engine::game::{Game, Input};
use engine::math::Fx;
use engine::specials::Mover;
use engine::world::{Level, SectorId};

fn fits(game: &Game<'_>) -> bool {
    let p = game.player();
    let s = game.level().sector(p.sector);
    p.z >= s.floor && p.z + engine::config::player::HEIGHT <= s.ceiling
}

/// Where a mover that ends would stop, given the sector's other plane
/// now: `(sector, floor or ceiling, height)`.
fn stop_of(m: &Mover, level: &Level<'_>) -> Option<(SectorId, bool, Fx)> {
    match m {
        Mover::Floor(f) => {
            let s = level.sector(f.sector);
            let want = if f.up { f.dest.min(s.ceiling) } else { f.dest };
            Some((f.sector, true, want))
        }
        Mover::Ceiling(c) if !c.crusher => {
            let s = level.sector(c.sector);
            let want = if c.down { c.bottom.max(s.floor) } else { c.top };
            Some((c.sector, false, want))
        }
        _ => None,
    }
}

#[test]
fn every_floor_ceiling_and_stairs_of_every_freedoom_map_moves_to_its_height() {
    let (mut specials, mut movers_seen, mut arrived, mut perpetual) = (0, 0, 0, 0);
    let (mut flats_changed, mut donuts) = (0, 0);
    for (wad, map) in freedoom_maps() {
        let compiled = compile_with_movers(wad, &map);
        let level = Level::load(&compiled).unwrap();
        let m = *level.map();
        for k in 0..m.wall_special_count() {
            let a = m.wall_special_at(k).action;
            let moves_planes = wall_action::is_floor(a)
                || wall_action::is_ceiling(a)
                || wall_action::is_stairs(a)
                || a == wall_action::DONUT
                || a == wall_action::LIFT_PERPETUAL;
            if !moves_planes {
                continue;
            }
            specials += 1;
            donuts += usize::from(a == wall_action::DONUT);
            let mut game = Game::new(level);
            if !game.set_off(k) {
                continue;
            }
            let movers: Vec<Mover> = game.world().movers().to_vec();
            movers_seen += movers.len();
            let starts: Vec<(Fx, Fx)> = movers
                .iter()
                .map(|m| {
                    let s = level.sector(m.sector());
                    (s.floor, s.ceiling)
                })
                .collect();
            // Crushers and platforms: watched for 300 ticks (a platform
            // waits 105 at each end).
            let watch = if movers.iter().any(Mover::is_perpetual) {
                300
            } else {
                0
            };
            let mut changed = vec![false; movers.len()];
            // MAP20's longest floor goes down 1,584 units at 1 a tick.
            for t in 0..4000 {
                game.tick(Input::IDLE);
                assert!(fits(&game), "{wad} {map} special {k}: {:?}", game.player());
                for (i, m) in movers.iter().enumerate() {
                    let s = game.level().sector(m.sector());
                    changed[i] |= (s.floor, s.ceiling) != starts[i];
                }
                let ending = movers.iter().filter(|m| !m.is_perpetual());
                if t >= watch && ending.clone().all(|m| !game.world().is_busy(m.sector())) {
                    break;
                }
            }
            for (i, (m, start)) in movers.iter().zip(starts).enumerate() {
                let now = game.level().sector(m.sector());
                if m.is_perpetual() {
                    perpetual += 1;
                    assert!(changed[i], "{wad} {map} special {k}: {m:?} never moved");
                    continue;
                }
                let (sector, is_floor, want) = stop_of(m, &game.level()).unwrap();
                let (height, from) = if is_floor {
                    (now.floor, start.0)
                } else {
                    (now.ceiling, start.1)
                };
                // One sent the wrong way (down to a height above it) stays.
                let stays = height == from;
                assert!(
                    height == want || stays,
                    "{wad} {map} special {k}: sector {} at {height}, not {want} ({m:?})",
                    sector.0
                );
                arrived += 1;
                if let Mover::Floor(f) = m {
                    if let Some(flat) = f.flat_at_end.filter(|_| height == want) {
                        assert_eq!(now.floor_texture, flat, "{wad} {map} special {k}: {m:?}");
                        flats_changed += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "{specials} specials; {movers_seen} movers; {arrived} arrived, {perpetual} perpetual; \
         {flats_changed} took a neighbour's flat; {donuts} donuts"
    );
    assert_eq!(donuts, 1, "MAP05's");
    assert!(specials > 100, "{specials} specials");
    // Freedoom lowers many floors to the lowest and changes their flat
    // (37): most find a neighbour level with where they stop.
    assert!(flats_changed > 20, "{flats_changed} flats changed");
    assert_eq!(arrived + perpetual, movers_seen);
}
