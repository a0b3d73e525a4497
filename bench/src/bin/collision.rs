//! Collision cost on real maps: microseconds per player tick, and walls
//! tested per position check with our blockmap, against testing every wall
//! and against DOOM's own broadphase (its BLOCKMAP lump, the box widened by
//! MAXRADIUS as `P_CheckPosition` does).
//!
//! `cargo run --release -p bench --bin collision -- [TICKS] [MAP or WAD ...]`
//! (default: 3000 ticks on every Freedoom map).

use std::time::Instant;

use bench::{doom_lines_checked, load_maps, quantile, walk};
use engine::game::{Game, PLAYER_SHAPE};
use engine::math::{wide, WVec};
use engine::world::Level;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let ticks = match args.first().and_then(|a| a.parse::<usize>().ok()) {
        Some(t) => {
            args.remove(0);
            t
        }
        None => 3000,
    };
    if args.is_empty() {
        args = bench::FREEDOOM.iter().map(|s| s.to_string()).collect();
    }
    let maps = match load_maps(&args) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!(
        "{:<22} {:>7} {:>9} {:>9} | {:>6} {:>6} | {:>6} {:>6} | {:>6}",
        "map", "walls", "tick µs", "tick p99", "ours", "worst", "doom", "worst", "all"
    );
    let (mut all_ticks, mut all_ours, mut all_doom) = (Vec::new(), Vec::new(), Vec::new());
    let mut ours_beats_doom = true;
    for (k, map) in maps.iter().enumerate() {
        let level = Level::load(&map.bytes).expect("compiled maps load");
        let mut game = Game::new(level);
        let mut times = Vec::with_capacity(ticks);
        let mut ours = Vec::with_capacity(ticks);
        let mut doom = Vec::with_capacity(ticks);
        let r = wide(PLAYER_SHAPE.radius);
        for input in walk(k as u64 + 7, ticks) {
            let start = Instant::now();
            game.tick(input);
            times.push(start.elapsed().as_nanos() as u64);
            // One position check: the walls the mover examines for the
            // circle at this position (the push-out query).
            let p = game.player().pos.wide();
            let n = level.walls_in_box(
                WVec::new(p.x - r, p.y - r),
                WVec::new(p.x + r, p.y + r),
                |_| {},
            );
            ours.push(n);
            if let Some(lump) = &map.doom_blockmap {
                let (x, y) = (p.x.to_num::<f64>(), p.y.to_num::<f64>());
                if let Some(d) = doom_lines_checked(lump, x, y, 16.0) {
                    doom.push(d);
                }
            }
        }
        let tick_med = quantile(&mut times, 0.5).unwrap_or(0) as f64 / 1000.0;
        let tick_p99 = quantile(&mut times, 0.99).unwrap_or(0) as f64 / 1000.0;
        let (om, ow) = (
            quantile(&mut ours, 0.5).unwrap_or(0),
            quantile(&mut ours, 1.0).unwrap_or(0),
        );
        let (dm, dw) = (quantile(&mut doom, 0.5), quantile(&mut doom, 1.0));
        if let (Some(dm), Some(dw)) = (dm, dw) {
            ours_beats_doom &= om <= dm && ow <= dw;
        }
        println!(
            "{:<22} {:>7} {:>9.2} {:>9.2} | {:>6} {:>6} | {:>6} {:>6} | {:>6}",
            map.name,
            level.wall_count(),
            tick_med,
            tick_p99,
            om,
            ow,
            dm.map_or("-".into(), |v| v.to_string()),
            dw.map_or("-".into(), |v| v.to_string()),
            level.wall_count()
        );
        all_ticks.extend(times);
        all_ours.extend(ours);
        all_doom.extend(doom);
    }
    println!(
        "all maps: tick median {:.2} µs, p99 {:.2} µs; walls per check median {} worst {} (DOOM's broadphase: median {} worst {}); fewer than DOOM's on every map: {}",
        quantile(&mut all_ticks, 0.5).unwrap_or(0) as f64 / 1000.0,
        quantile(&mut all_ticks, 0.99).unwrap_or(0) as f64 / 1000.0,
        quantile(&mut all_ours, 0.5).unwrap_or(0),
        quantile(&mut all_ours, 1.0).unwrap_or(0),
        quantile(&mut all_doom, 0.5).map_or("-".into(), |v: usize| v.to_string()),
        quantile(&mut all_doom, 1.0).map_or("-".into(), |v: usize| v.to_string()),
        ours_beats_doom
    );
}
