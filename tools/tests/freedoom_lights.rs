//! Freedoom's flickering, strobing and glowing sectors, from the map data
//! alone: every one gets a light at work, and over five seconds each
//! changes, staying between its darkest and brightest levels.

mod common;

use common::{compile_with_movers, freedoom_maps};

use engine::format::sector_special;
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
