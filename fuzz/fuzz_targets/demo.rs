//! The demo-file parser: any text parses or gives a `FILE:LINE:` error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match desktop::demo::parse_demo(text, "fuzz.demo") {
        Ok(demo) => {
            let _ = format!("{demo:?}");
        }
        Err(message) => assert!(message.starts_with("fuzz.demo:"), "{message}"),
    }
});
