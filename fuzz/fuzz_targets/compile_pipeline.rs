//! The whole pipeline from bytes to a loaded map: text source or a
//! compiled map, detected by its magic, as frontends load files.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod exercise;

fuzz_target!(|data: &[u8]| {
    if let Ok(out) = tools::load_map_bytes(data.to_vec(), "fuzz", Default::default()) {
        let level = engine::world::Level::load(&out.bytes).expect("accepted bytes must load");
        exercise::exercise(level, exercise::seed_of(data));
    }
});
