//! One frame or one tick, for counting instructions: deterministic, so a
//! regression shows in CI without timing noise. `scripts/icount` runs it
//! under `valgrind --tool=callgrind`, collecting only inside
//! `icount_measured_frame` or `icount_measured_tick` (everything else,
//! compiling and loading the map included, is not counted).
//!
//! `icount frame|tick MAP [WARP]`: MAP a text or compiled map, or a WAD
//! with WARP the map in it (`freedoom2.wad MAP01`).
//!
//! * `frame`: one 320x200 frame from the player start, the game's view
//!   (`Scene::of_game`: decorations and bodies as sprites) into `u32` pixels;
//! * `tick`: [`WARM_UP`] ticks running forward (not counted), then one
//!   tick running forward and turning: the player moving at full speed,
//!   so collision does real work.
//!
//! Run natively it prints what it did (and the frame's figures).

use engine::game::{Game, Input};
use engine::render::{render, Frame, RenderStats, Scene, Shades};
use engine::world::Level;

/// Ticks run before the measured one.
const WARM_UP: usize = 20;
/// The frame's size.
const WIDTH: usize = 320;
/// The frame's size.
const HEIGHT: usize = 200;

#[inline(never)]
fn icount_measured_frame(
    game: &Game<'_>,
    shades: &Shades<u32>,
    frame: &mut Frame<'_, u32>,
) -> RenderStats {
    render(&Scene::of_game(game), shades, frame)
}

#[inline(never)]
fn icount_measured_tick(game: &mut Game<'_>, input: Input) {
    game.tick(input);
}

fn load(path: &str, warp: Option<&str>) -> Result<Vec<u8>, String> {
    match warp {
        Some(map) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let opts = tools::import::ImportOptions::default();
            Ok(tools::compile_wad_map(&bytes, path, map, None, &opts)?.bytes)
        }
        None => Ok(tools::load_map(std::path::Path::new(path))?.bytes),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: icount frame|tick MAP [WARP]";
    let (mode, path, warp) = match args.as_slice() {
        [m, p] => (m.as_str(), p.as_str(), None),
        [m, p, w] => (m.as_str(), p.as_str(), Some(w.as_str())),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let bytes = match load(path, warp) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}", e.trim_end());
            std::process::exit(1);
        }
    };
    let level = Level::load(&bytes).expect("compiled maps load");
    let mut game = Game::new(level);
    match mode {
        "frame" => {
            let shades = Box::new(Shades::for_map(level.map()));
            let mut pixels = vec![0u32; WIDTH * HEIGHT];
            let mut frame = Frame::new(&mut pixels, WIDTH, HEIGHT, WIDTH).expect("320x200 fits");
            let s = icount_measured_frame(&game, &shades, &mut frame);
            let sum = pixels
                .iter()
                .fold(0u64, |a, &p| a.wrapping_mul(31).wrapping_add(u64::from(p)));
            println!(
                "frame: {WIDTH}x{HEIGHT}, {} walls tested, {} portals crossed, {} sprites, pixel hash {sum:016x}",
                s.walls_tested, s.portals_crossed, s.sprites_drawn
            );
        }
        "tick" => {
            for _ in 0..WARM_UP {
                game.tick(Input::new(100, 0, 0));
            }
            icount_measured_tick(&mut game, Input::new(100, 0, 3));
            let p = game.player();
            println!(
                "tick: after {} ticks at ({}, {}) sector {}",
                WARM_UP + 1,
                p.pos.x,
                p.pos.y,
                p.sector.0
            );
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
