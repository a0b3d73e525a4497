//! Freedoom's floor specials, from the map data alone: each one set off
//! moves every floor it names to where DOOM's kind of floor stops (or to
//! the sector's own ceiling, if that comes first), with the player never
//! left where it does not fit.

mod common;

use common::{compile_with_movers, freedoom_maps};

use engine::format::wall_action;
use engine::game::{Game, Input};
use engine::specials::Mover;
use engine::world::Level;

#[test]
fn every_floor_of_every_freedoom_map_moves_to_its_height() {
    let (mut specials, mut floors, mut arrived, mut idle) = (0, 0, 0, 0);
    for (wad, map) in freedoom_maps() {
        let compiled = compile_with_movers(wad, &map);
        let level = Level::load(&compiled).unwrap();
        let m = *level.map();
        for k in 0..m.wall_special_count() {
            if !wall_action::is_floor(m.wall_special_at(k).action) {
                continue;
            }
            specials += 1;
            let mut game = Game::new(level);
            if !game.set_off(k) {
                // No sector it names could start (none has state).
                idle += 1;
                continue;
            }
            let movers: Vec<_> = game
                .world()
                .movers()
                .iter()
                .filter_map(|m| match m {
                    Mover::Floor(f) => Some(*f),
                    _ => None,
                })
                .collect();
            floors += movers.len();
            // MAP20's longest goes down 1,584 units at 1 a tick.
            for _ in 0..4000 {
                game.tick(Input::IDLE);
                let p = game.player();
                let s = game.level().sector(p.sector);
                assert!(
                    p.z >= s.floor && p.z + engine::config::player::HEIGHT <= s.ceiling,
                    "{wad} {map} special {k}: the player does not fit: {p:?}"
                );
                if movers.iter().all(|f| !game.world().is_busy(f.sector)) {
                    break;
                }
            }
            for f in &movers {
                let s = game.level().sector(f.sector);
                let want = if f.up { f.dest.min(s.ceiling) } else { f.dest };
                // A floor sent down to a height above it (or up to one
                // below) does not move.
                let start = level.sector(f.sector).floor;
                let stays = (f.up && start >= want) || (!f.up && start <= want);
                assert!(
                    s.floor == want || stays && s.floor == start,
                    "{wad} {map} special {k}: sector {} at {}, not {want}",
                    f.sector.0,
                    s.floor
                );
                arrived += 1;
            }
        }
    }
    eprintln!("{specials} floor specials; {floors} floors moved, {arrived} arrived; {idle} started nothing");
    assert!(specials > 100, "{specials} floor specials");
    assert_eq!(arrived, floors);
}
