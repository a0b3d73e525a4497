//! The desktop frontend: walk a level in a window, or run it headless for
//! tests and benchmarks.
//!
//! The engine owns the game and the picture; this crate only owns what the
//! engine must not: the command line, files, the wall clock, the keyboard
//! and the window.
//!
//! * [`args`]: the command line;
//! * [`demo`]: input scripts;
//! * [`trace`]: the per-tick JSON lines;
//! * [`headless`]: the window-free run (never touches `minifb`);
//! * [`window`]: the `minifb` window, keyboard and 35 Hz clock;
//! * [`font`]: the frame-time readout's bitmap font;
//! * [`screenshot`]: PNG output.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod args;
pub mod demo;
pub mod font;
pub mod headless;
pub mod screenshot;
pub mod trace;
pub mod window;

use std::path::Path;

use engine::render::{Palette, Shades};

/// Where the built-in level lives in the repository (named in messages).
pub const DEFAULT_MAP_NAME: &str = "maps/e1_hangar.map";

/// The built-in level's source, compiled at startup so that `cargo run`
/// needs no files next to the binary.
pub const DEFAULT_MAP_SOURCE: &str = include_str!("../../maps/e1_hangar.map");

/// A map ready to load, with a short name for the window title.
#[derive(Clone, Debug)]
pub struct MapFile {
    /// Compiled map bytes.
    pub bytes: Vec<u8>,
    /// The file's name without directories or extension.
    pub title: String,
}

/// Compiles the built-in level, or reads (and if need be compiles) the map
/// at `path`. Compiler warnings are returned for the caller to print.
pub fn load_map(path: Option<&Path>) -> Result<(MapFile, Vec<String>), String> {
    let (bytes, warnings, name) = match path {
        None => {
            let out = tools::compile_source(DEFAULT_MAP_SOURCE, DEFAULT_MAP_NAME)
                .map_err(|e| e.to_string())?;
            (out.bytes, out.warnings, Path::new(DEFAULT_MAP_NAME))
        }
        Some(p) => {
            let out = tools::load_map(p)?;
            (out.bytes, out.warnings, p)
        }
    };
    let title = name
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.display().to_string());
    Ok((MapFile { bytes, title }, warnings))
}

/// The light table for `u32` pixels, on the heap: it is 32 KiB, too big to
/// pass around by value.
pub fn shades() -> Box<Shades<u32>> {
    Box::new(Shades::new(&Palette::builtin()))
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
}
