//! The text map parser and compiler: any text compiles or gives
//! diagnostics, and what compiles loads in the engine.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod exercise;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match tools::compile_source(text, "fuzz.map") {
        Ok(out) => {
            let level = engine::world::Level::load(&out.bytes)
                .expect("the compiler's output must load");
            exercise::exercise(level, exercise::seed_of(data));
        }
        Err(diagnostics) => {
            // Rendering the diagnostics must not panic either.
            let _ = diagnostics.to_string();
        }
    }
});
