//! The renderer on real maps (compiled Freedoom levels), when they are
//! there: a digest of many views (to show an optimisation changed no
//! pixel), one frame for instruction counting and a frame timing. All
//! ignored; they read the compiled maps named by `SPMP` (a list separated
//! by `:`; default `/tmp/e1m1.spmp:/tmp/map01.spmp`) and skip missing ones.
//!
//! ```text
//! cargo run --release -p tools -- compile /usr/share/games/doom/freedoom1.wad --map E1M1 -o /tmp/e1m1.spmp
//! cargo run --release -p tools -- compile /usr/share/games/doom/freedoom2.wad --map MAP01 -o /tmp/map01.spmp
//! cargo test --release -p engine --test render_freedoom -- --ignored --nocapture
//! ```
//!
//! `scripts/digest` compiles five maps and runs `freedoom_digest` against
//! the digests recorded in `bench/digests.txt` (CI checks them).

use engine::format::kind;
use engine::game::Game;
use engine::math::{Angle, Fx, Vec2};
use engine::render::{render, Camera, Frame, Scene, Shades};
use engine::world::Level;

const W: usize = 320;
const H: usize = 200;

/// The compiled maps to use: `(path, bytes)` for those that exist.
fn maps() -> Vec<(String, Vec<u8>)> {
    let list = std::env::var("SPMP").unwrap_or_else(|_| "/tmp/e1m1.spmp:/tmp/map01.spmp".into());
    list.split(':')
        .filter_map(|p| std::fs::read(p).ok().map(|b| (p.to_string(), b)))
        .collect()
}

/// FNV-1a over the pixels.
fn digest(pixels: &[u32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in pixels {
        for b in p.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Views over the whole map: from every thing's spot, eye 41 above the
/// floor, in eight directions (plus the odd angle).
fn views(level: &Level<'_>) -> Vec<Camera> {
    let mut out = Vec::new();
    for (i, t) in level.map().things().enumerate() {
        if t.kind == kind::PLAYER_START && i > 0 {
            continue;
        }
        let pos = Vec2::new(t.x, t.y);
        let Some(sector) = level.locate(pos) else {
            continue;
        };
        let floor = level.sector(sector).floor;
        for k in 0..8 {
            out.push(Camera {
                pos,
                eye_z: floor + Fx::from_num(41),
                angle: Angle::from_degrees(Fx::from_bits(((k * 45) << 16) + i as i32 * 1237)),
                sector,
            });
        }
    }
    out
}

/// Digests of every view of every map, one line per map and (with
/// `DIGEST_OUT=file`) one per view written to a file, to compare the
/// pixels of two versions of the renderer.
#[test]
#[ignore]
fn freedoom_digest() {
    let mut lines = Vec::new();
    for (path, bytes) in maps() {
        freedoom_digest_of(&path, &bytes, &mut lines);
    }
    if let Ok(out) = std::env::var("DIGEST_OUT") {
        std::fs::write(out, lines.join("\n") + "\n").unwrap();
    }
}

/// [`freedoom_digest`]'s line for one map, adding one line per view to
/// `lines`.
fn freedoom_digest_of(path: &str, bytes: &[u8], lines: &mut Vec<String>) {
    let level = Level::load(bytes).unwrap();
    let shades = Shades::<u32>::for_map(level.map());
    let mut pixels = vec![0u32; W * H];
    let mut all: u64 = 0;
    let cams = views(&level);
    for (i, cam) in cams.iter().enumerate() {
        let mut frame = Frame::new(&mut pixels, W, H, W).unwrap();
        let stats = render(&Scene::new(level, *cam), &shades, &mut frame);
        let d = digest(&pixels);
        all = all.rotate_left(5) ^ d;
        // `DUMP_DIR=dir`: every tenth frame's pixels, to compare two
        // versions pixel by pixel.
        if let (Ok(dir), 0) = (std::env::var("DUMP_DIR"), i % 10) {
            let name = path.rsplit('/').next().unwrap_or("map");
            let bytes: Vec<u8> = pixels.iter().flat_map(|p| p.to_le_bytes()).collect();
            std::fs::write(format!("{dir}/{name}-{i}.raw"), bytes).unwrap();
        }
        lines.push(format!("{path} {i} {d:016x} {stats:?}"));
    }
    let game = Game::new(level);
    let mut frame = Frame::new(&mut pixels, W, H, W).unwrap();
    render(&Scene::of_game(&game), &shades, &mut frame);
    let first = digest(&pixels);
    println!(
        "{path}: {} views, digest {all:016x}; first view {first:016x}",
        cams.len()
    );
}

/// `FRAMES` (default 1) frames of the first view of the first map, for
/// `valgrind --tool=callgrind --toggle-collect='*render_sources*'`.
#[test]
#[ignore]
fn freedoom_first_view() {
    let frames: usize = std::env::var("FRAMES")
        .ok()
        .and_then(|f| f.parse().ok())
        .unwrap_or(1);
    let Some((_, bytes)) = maps().into_iter().next() else {
        return;
    };
    let level = Level::load(&bytes).unwrap();
    let shades = Shades::<u32>::for_map(level.map());
    let mut pixels = vec![0u32; W * H];
    // `VIEW=i`: the digest's view `i` instead.
    if let Some(i) = std::env::var("VIEW")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let cam = views(&level)[i];
        for _ in 0..frames {
            let mut frame = Frame::new(&mut pixels, W, H, W).unwrap();
            std::hint::black_box(render(&Scene::new(level, cam), &shades, &mut frame));
        }
        println!("{:016x}", digest(&pixels));
        return;
    }
    let game = Game::new(level);
    for _ in 0..frames {
        let mut frame = Frame::new(&mut pixels, W, H, W).unwrap();
        std::hint::black_box(render(&Scene::of_game(&game), &shades, &mut frame));
    }
    println!("{:016x}", digest(&pixels));
}

/// Median and best time of the first view of every map, and the median
/// over all the digest's views.
#[test]
#[ignore]
fn freedoom_frame_time() {
    for (path, bytes) in maps() {
        let level = Level::load(&bytes).unwrap();
        let shades = Shades::<u32>::for_map(level.map());
        let mut pixels = vec![0u32; W * H];
        let game = Game::new(level);
        let mut times = Vec::new();
        for _ in 0..2000 {
            let mut frame = Frame::new(&mut pixels, W, H, W).unwrap();
            let start = std::time::Instant::now();
            std::hint::black_box(render(&Scene::of_game(&game), &shades, &mut frame));
            times.push(start.elapsed());
        }
        times.sort();
        let cams = views(&level);
        let mut all = Vec::new();
        let mut per_view = vec![std::time::Duration::MAX; cams.len()];
        for _ in 0..3 {
            for (i, cam) in cams.iter().enumerate() {
                let mut frame = Frame::new(&mut pixels, W, H, W).unwrap();
                let start = std::time::Instant::now();
                std::hint::black_box(render(&Scene::new(level, *cam), &shades, &mut frame));
                all.push(start.elapsed());
                per_view[i] = per_view[i].min(start.elapsed());
            }
        }
        all.sort();
        let mut slow: Vec<usize> = (0..cams.len()).collect();
        slow.sort_by_key(|&i| std::cmp::Reverse(per_view[i]));
        println!(
            "{path}: slowest views {:?}",
            slow.iter()
                .take(5)
                .map(|&i| (i, per_view[i]))
                .collect::<Vec<_>>()
        );
        println!(
            "{path}: first view median {:?} (best {:?}); {} views: median {:?}, 90th percentile {:?}",
            times[times.len() / 2],
            times[0],
            cams.len(),
            all[all.len() / 2],
            all[all.len() * 9 / 10],
        );
    }
}
