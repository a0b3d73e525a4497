//! An entity of the game's own: a hound that chases the player.
//!
//! ```text
//! cargo run -p engine --example custom_entity -- [MAP] [OUT.ppm]
//! ```
//!
//! The engine moves bodies (through the walls, up steps, pushed apart
//! from each other); the game decides where they want to go. Here the
//! game spawns one body beside the player, and each tick, before the
//! engine's tick, sets its velocity toward the player: `Game::spawn`,
//! then `Game::drive`, then `Game::tick`. The player walks a square; the
//! hound follows it round, and a frame of the end goes to `OUT.ppm`
//! (default `custom_entity.ppm`). `MAP` defaults to `maps/textured.map`,
//! whose textures give the hound something to be drawn with.

use std::path::PathBuf;
use std::process::ExitCode;

use engine::collide::BodyShape;
use engine::game::{Game, Input};
use engine::math::{Fx, Vec2};
use engine::render::{render, Frame, Scene, Shades};
use engine::world::Level;

const WIDTH: usize = 320;
const HEIGHT: usize = 200;
/// The hound's speed, map units a tick (the player runs at about 16).
const HOUND_SPEED: i32 = 6;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let default_map = concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/textured.map");
    let map = args
        .next()
        .map_or_else(|| PathBuf::from(default_map), PathBuf::from);
    let out = args
        .next()
        .map_or_else(|| PathBuf::from("custom_entity.ppm"), PathBuf::from);
    let bytes = match tools::load_map_file(&map) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("custom_entity: {e}");
            return ExitCode::FAILURE;
        }
    };
    let level = match Level::load(&bytes) {
        Ok(level) => level,
        Err(e) => {
            eprintln!("custom_entity: {}: {e}", map.display());
            return ExitCode::FAILURE;
        }
    };
    let mut game = Game::new(level);

    // The hound: smaller than the player, drawn with the map's first
    // texture if it has one (`NONE`: not drawn).
    let shape = BodyShape {
        radius: Fx::from_num(12),
        height: Fx::from_num(32),
        knee: Fx::from_num(24),
    };
    let sprite = if game.level().map().texture_count() > 0 {
        0
    } else {
        engine::format::NONE
    };
    let start = game.player().pos;
    let spot = [(-48, 0), (48, 0), (0, -48), (0, 48)]
        .into_iter()
        .map(|(dx, dy)| Vec2::new(start.x + Fx::from_num(dx), start.y + Fx::from_num(dy)))
        .find_map(|p| game.spawn(p, shape, sprite).ok());
    let Some(hound) = spot else {
        eprintln!("custom_entity: no room for the hound beside the player start");
        return ExitCode::FAILURE;
    };

    // Ten seconds: the player walks a square (forward, then a quarter
    // turn), the hound heads for it every tick.
    for t in 0..350 {
        let player = game.player().pos;
        if let Some(me) = game.body(hound) {
            let toward = |from: Fx, to: Fx| {
                ((to - from) / 8).clamp(Fx::from_num(-HOUND_SPEED), Fx::from_num(HOUND_SPEED))
            };
            let vel = Vec2::new(toward(me.at.pos.x, player.x), toward(me.at.pos.y, player.y));
            game.drive(hound, vel);
        }
        let input = if t % 50 < 40 {
            Input::new(60, 0, 0)
        } else {
            Input::new(0, 0, 9)
        };
        game.tick(input);
        if t % 70 == 69 {
            let me = game.body(hound).map_or(Vec2::ZERO, |b| b.at.pos);
            let gap = me.wide().sub(game.player().pos.wide()).length();
            println!(
                "second {}: the hound is {:.1} units from the player",
                (t + 1) / 35,
                gap
            );
        }
    }

    let shades = Shades::<u32>::for_map(game.level().map());
    let mut pixels = vec![0u32; WIDTH * HEIGHT];
    let Some(mut frame) = Frame::new(&mut pixels, WIDTH, HEIGHT, WIDTH) else {
        eprintln!("custom_entity: the frame does not fit its pixels");
        return ExitCode::FAILURE;
    };
    render(&Scene::of_game(&game), &shades, &mut frame);
    let mut ppm = format!("P6\n{WIDTH} {HEIGHT}\n255\n").into_bytes();
    for p in &pixels {
        ppm.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, *p as u8]);
    }
    if let Err(e) = std::fs::write(&out, ppm) {
        eprintln!("custom_entity: cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", out.display());
    ExitCode::SUCCESS
}
