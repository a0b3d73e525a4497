//! The binary map loader: any bytes either load or give a typed error, and
//! a map that loads survives play and rendering.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod exercise;

fuzz_target!(|data: &[u8]| {
    if let Ok(level) = engine::world::Level::load(data) {
        exercise::exercise(level, exercise::seed_of(data));
    }
});
