//! Freedoom's flickering, strobing and glowing sectors, from the map data
//! alone: every one gets a light at work, and over five seconds each
//! changes, staying between its darkest and brightest levels; and every
//! light switch (DOOM's 12, 13, 35, 79-81, 104, 138, 139) sets the
//! sectors it names.

mod common;

use common::{compile_with_movers, freedoom_maps};

use engine::format::{sector_special, wall_action};
use engine::game::{Game, Input};
use engine::specials::LightKind;
use engine::world::Level;

fn is_light(s: u16) -> bool {
    use sector_special::*;
    matches!(
        s,
        FLICKER
            | STROBE_FAST
            | STROBE_SLOW
            | GLOW
            | STROBE_SLOW_SYNC
            | STROBE_FAST_SYNC
            | FIRE_FLICKER
    )
}

#[test]
fn every_light_of_every_freedoom_map_runs_between_its_levels() {
    let (mut total, mut most) = (0, 0);
    for (wad, map) in freedoom_maps() {
        let compiled = compile_with_movers(wad, &map);
        let level = Level::load(&compiled).unwrap();
        let m = *level.map();
        let want: Vec<u16> = (0..m.sector_count())
            .filter(|&i| is_light(m.sector(i).special))
            .map(|i| i as u16)
            .collect();
        let mut game = Game::new(level);
        let lights = game.world().lights().to_vec();
        let got: Vec<u16> = lights.iter().map(|l| l.sector.0).collect();
        assert_eq!(got, want, "{wad} {map}: a light per light sector, in order");
        total += lights.len();
        most = most.max(lights.len());
        let mut changed = vec![false; lights.len()];
        for _ in 0..175 {
            game.tick(Input::IDLE);
            for (k, l) in lights.iter().enumerate() {
                let now = game.level().sector(l.sector).light;
                // A fire with nothing darker around has its darkest above
                // its brightest, and flares up to it, as in DOOM.
                let (lo, hi) = (l.min.min(l.max), l.min.max(l.max));
                assert!(
                    (lo..=hi).contains(&now),
                    "{wad} {map}: sector {} at {now}, outside {}..={}",
                    l.sector.0,
                    l.min,
                    l.max
                );
                changed[k] |= now != l.max;
            }
        }
        for (k, l) in lights.iter().enumerate() {
            // A light with nothing darker around it has nowhere to go
            // (strobes then go black, the rest stay); a glow needs more
            // than one step of 8 (DOOM steps back from either end).
            let room = match l.kind {
                LightKind::Strobe { .. } => true,
                LightKind::Glow => l.max - l.min > 8,
                _ => l.min != l.max,
            };
            assert!(
                changed[k] || !room,
                "{wad} {map}: sector {} ({:?}) never changed",
                l.sector.0,
                l.kind
            );
        }
    }
    eprintln!("{total} lights; at most {most} in a map");
    assert!(total > 300, "{total} lights");
}

#[test]
fn every_light_switch_of_every_freedoom_map_sets_its_sectors() {
    use wall_action::*;
    let (mut switches, mut sectors_set) = (0, 0);
    for (wad, map) in freedoom_maps() {
        let compiled = compile_with_movers(wad, &map);
        let level = Level::load(&compiled).unwrap();
        let m = *level.map();
        for k in 0..m.wall_special_count() {
            let special = m.wall_special_at(k);
            if !wall_action::is_light(special.action) {
                continue;
            }
            switches += 1;
            let tagged: Vec<usize> = (0..m.sector_count())
                .filter(|&i| m.sector(i).tag == special.tag)
                .collect();
            let mut game = Game::new(level);
            assert!(game.set_off(k), "{wad} {map} special {k}");
            let now = game.level();
            for &i in &tagged {
                let id = engine::world::SectorId(i as u16);
                let light = now.sector(id).light;
                let around: Vec<u8> = now
                    .sector_walls(id)
                    .filter_map(|w| now.wall(w).other_side(id))
                    .filter(|&o| o != id)
                    .map(|o| now.sector(o).light)
                    .collect();
                let ok = match special.action {
                    LIGHT_FULL => light == 255,
                    LIGHT_DIM => light == 35,
                    // DOOM's first tagged sector's brightest neighbour,
                    // for them all: some sector's light, at least.
                    LIGHT_BRIGHTEST_AROUND => {
                        i != tagged[0] || around.iter().copied().max().unwrap_or(0) == light
                    }
                    _ => light == around.iter().copied().fold(level.sector(id).light, u8::min),
                };
                assert!(ok, "{wad} {map} special {k}: sector {i} at {light}");
                sectors_set += 1;
            }
        }
    }
    eprintln!("{switches} light switches set {sectors_set} sectors");
    assert!(switches > 5, "{switches} light switches");
}
