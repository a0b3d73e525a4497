//! The UDMF parser and the DOOM-map importer behind it: any text parses
//! or gives an error with a line and column; what parses either imports
//! (and the output loads and plays) or gives a clear error.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod exercise;

fuzz_target!(|data: &[u8]| {
    match tools::doom::udmf::parse_bytes(data) {
        Ok(_) => {
            let opts = tools::import::ImportOptions::default();
            if let Ok(imported) = tools::import::compile_udmf(data, "fuzz.udmf", None, &opts) {
                let level = engine::world::Level::load(&imported.compiled.bytes)
                    .expect("the importer's output must load");
                exercise::exercise(level, exercise::seed_of(data));
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
