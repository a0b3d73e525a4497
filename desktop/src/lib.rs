//! The desktop frontend: walk a level in a window, or run it headless for
//! tests and benchmarks.
//!
//! The engine owns the game and the picture; this crate only owns what the
//! engine must not: the command line, files, the wall clock, the keyboard
//! and the window.
//!
//! * [`args`]: the command line;
//! * [`maps`]: finding and compiling the map (text, compiled, WAD);
//! * [`config`]: the settings file; [`keys`]: actions and key bindings;
//! * [`controls`]: keys, mouse and gamepad to one input per tick;
//!   [`gamepad`]: reading gamepads;
//! * [`session`]: a play session, the same in the window and headless;
//! * [`demo`]: input scripts; [`record`]: writing them;
//!   [`script`]: key scripts;
//! * [`trace`]: the per-tick JSON lines;
//! * [`inspect`]: noclip and fly; [`automap`]: the map overlay;
//! * [`headless`]: the window-free run (opens no window);
//!   [`timedemo`]: the renderer's benchmark (no window either);
//! * [`window`]: the `minifb` window and the 35 Hz clock;
//!   [`display`]: scaling, the aspect mode, the screen and the pointer;
//! * [`font`]: the readout's bitmap font;
//! * [`screenshot`]: PNG output.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod args;
pub mod automap;
pub mod config;
pub mod controls;
pub mod demo;
pub mod display;
pub mod division;
pub mod font;
pub mod gamepad;
pub mod headless;
pub mod inspect;
pub mod keys;
pub mod maps;
pub mod record;
pub mod screenshot;
pub mod script;
pub mod session;
pub mod timedemo;
pub mod trace;
pub mod window;

use std::path::Path;

use engine::render::{Palette, Shades};
use engine::world::Level;

/// Where the built-in level lives in the repository (named in messages).
pub const DEFAULT_MAP_NAME: &str = "maps/e1_hangar.map";

/// The built-in level's source, compiled at startup so that `cargo run`
/// needs no files next to the binary.
pub const DEFAULT_MAP_SOURCE: &str = include_str!("../../maps/e1_hangar.map");

/// A file of `maps/`, as [`DEFAULT_MAP_FILES`] lists it.
macro_rules! embedded {
    ($path:literal) => {
        ($path, include_bytes!(concat!("../../maps/", $path)))
    };
}

/// The PNG files the built-in level's `texture` statements name, built
/// in with it (each under the path the statement writes).
pub const DEFAULT_MAP_FILES: &[(&str, &[u8])] = &[
    embedded!("textures/bricks.png"),
    embedded!("textures/tiles.png"),
    embedded!("textures/panels.png"),
    embedded!("textures/sky.png"),
    embedded!("textures/concrete.png"),
    embedded!("textures/plate.png"),
    embedded!("textures/ceil.png"),
    embedded!("textures/grass.png"),
    embedded!("textures/dirt.png"),
    embedded!("textures/wood.png"),
    embedded!("textures/computer.png"),
    embedded!("textures/doortrak.png"),
    embedded!("textures/door.png"),
    embedded!("textures/sw1exit.png"),
    embedded!("textures/sw2exit.png"),
    embedded!("textures/lift.png"),
    embedded!("textures/gate.png"),
];

/// A map ready to load, with a short name for the window title.
#[derive(Clone, Debug)]
pub struct MapFile {
    /// Compiled map bytes.
    pub bytes: Vec<u8>,
    /// The file's name without directories or extension (for a WAD, the
    /// map's name).
    pub title: String,
    /// Where it came from, as the command line said it (a demo's header
    /// names the map with it).
    pub name: String,
    /// The maps of the WAD it came from, in order; empty for a single map.
    pub maps: Vec<String>,
}

/// Compiles the built-in level, or reads (and if need be compiles) the map
/// at `path`. Compiler warnings are returned for the caller to print.
/// ([`maps::load`] does more: WADs, `--warp`, progress.)
pub fn load_map(path: Option<&Path>) -> Result<(MapFile, Vec<String>), String> {
    maps::load(path, None, None, true, &mut std::io::sink())
}

/// The light table for `u32` pixels, on the heap: it is 32 KiB, too big to
/// pass around by value.
pub fn shades() -> Box<Shades<u32>> {
    Box::new(Shades::new(&Palette::builtin()))
}

/// The light table `level` asks for: its own palette and light table when
/// it has them, else the built-in palette's.
pub fn shades_for(level: &Level<'_>) -> Box<Shades<u32>> {
    Box::new(Shades::for_map(level.map()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_level_compiles_and_loads() {
        let (map, _warnings) = load_map(None).unwrap();
        assert_eq!(map.title, "e1_hangar");
        engine::world::Level::load(&map.bytes).unwrap();
    }

    #[test]
    fn the_built_in_level_carries_every_texture_it_names() {
        // From a directory without the PNGs: only the files built in.
        let out = tools::compile_source_with_files(
            DEFAULT_MAP_SOURCE,
            "/nonexistent/e1_hangar.map",
            DEFAULT_MAP_FILES,
        )
        .unwrap_or_else(|d| panic!("{d}"));
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let view = engine::format::MapView::new_checked(&out.bytes).unwrap();
        let statements = DEFAULT_MAP_SOURCE
            .lines()
            .filter(|l| l.starts_with("texture "))
            .count();
        assert_eq!(
            statements,
            DEFAULT_MAP_FILES.len(),
            "one file per statement"
        );
        assert!(view.texture_count() >= statements);
        assert!(view.switch_count() >= 1, "the exit switch flips");
    }
}
