//! The whole sequence, with no window: load a map, play two seconds of
//! input, and write what the player sees to a PPM image.
//!
//! ```text
//! cargo run -p engine --example headless -- [MAP] [OUT.ppm]
//! ```
//!
//! `MAP` is a text map or a compiled one (default `maps/e1_hangar.map`,
//! compiled here by the map compiler, `tools`); `OUT.ppm` defaults to
//! `headless.ppm`. The engine itself needs no heap and no files: the
//! caller owns the map's bytes, the pixels and the clock.

use std::path::PathBuf;
use std::process::ExitCode;

use engine::game::{Game, Input};
use engine::render::{render, Frame, Scene, Shades};
use engine::world::Level;

const WIDTH: usize = 320;
const HEIGHT: usize = 200;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let default_map = concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/e1_hangar.map");
    let map = args
        .next()
        .map_or_else(|| PathBuf::from(default_map), PathBuf::from);
    let out = args
        .next()
        .map_or_else(|| PathBuf::from("headless.ppm"), PathBuf::from);

    // The map's bytes: compiled from text if need be. The engine reads
    // them in place, after checking every index once.
    let bytes = match tools::load_map_file(&map) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("headless: {e}");
            return ExitCode::FAILURE;
        }
    };
    let level = match Level::load(&bytes) {
        Ok(level) => level,
        Err(e) => {
            eprintln!("headless: {}: {e}", map.display());
            return ExitCode::FAILURE;
        }
    };

    // 35 ticks a second; the game never reads a clock. Two seconds of
    // walking forward, the second half turning left.
    let mut game = Game::new(level);
    for t in 0..70 {
        let turn = if t < 35 { 0 } else { 2 };
        game.tick(Input::new(50, 0, turn));
    }
    let player = game.player();
    println!(
        "after {} ticks: x {} y {} z {} facing {} in sector {}",
        player.tick,
        player.pos.x,
        player.pos.y,
        player.z,
        player.angle.degrees(),
        player.sector.0
    );

    // The map's palette and light table (or the built-in ones), then the
    // frame: the caller's pixels, rows `WIDTH` pixels apart.
    let shades = Shades::<u32>::for_map(game.level().map());
    let mut pixels = vec![0u32; WIDTH * HEIGHT];
    let Some(mut frame) = Frame::new(&mut pixels, WIDTH, HEIGHT, WIDTH) else {
        eprintln!("headless: the frame does not fit its pixels");
        return ExitCode::FAILURE;
    };
    let stats = render(&Scene::of_game(&game), &shades, &mut frame);
    println!(
        "rendered {WIDTH}x{HEIGHT}: {} walls tested, {} sprites drawn, {} columns leaked",
        stats.walls_tested, stats.sprites_drawn, stats.columns_leaked
    );

    let mut ppm = format!("P6\n{WIDTH} {HEIGHT}\n255\n").into_bytes();
    for p in &pixels {
        ppm.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, *p as u8]);
    }
    if let Err(e) = std::fs::write(&out, ppm) {
        eprintln!("headless: cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", out.display());
    ExitCode::SUCCESS
}
