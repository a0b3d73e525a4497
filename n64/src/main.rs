//! The ROM's program: walks the embedded levels on a Nintendo 64.
//!
//! `hw` (the only module allowed `unsafe`) boots the machine and hands
//! [`main`] the hardware; `main` checks the embedded demo, then runs the
//! frame loop in [`play`] until the console is switched off (built with
//! the `tour` feature, after the timed view tour in `view_tour`). A crash
//! (panic or CPU exception) ends in [`crash::report`].
//!
//! Everything reported goes to the IS-Viewer debug port, one line each,
//! each starting with a keyword the tests look for:
//!
//! | line | when |
//! |---|---|
//! | `boot: ...` | once: TV type, levels, memory map |
//! | `demo: ...` | once at boot: the embedded demo's length and Count ticks taken |
//! | `demo final state: {...}` | once at boot: the embedded demo played from tick 0 |
//! | `level: NAME (I/N) ...` | on every level start |
//! | `input: F S T at {...}` | when the controller's input changes |
//! | `frame: level=NAME ...` | every [`play::REPORT_FRAMES`] frames: frame time in Count ticks |
//! | `demo replay final state: {...}` | when a demo started with Start ends |
//! | `test exception requested (Z + Start)` | just before the test exception |
//! | `tour: ...` | the `tour` feature's view figures (see `view_tour`) |
//! | `exception: ...` / `panic: ...` | on a crash |
#![no_std]
#![no_main]
#![deny(unsafe_code)]
#![feature(asm_experimental_arch)]

#[allow(unsafe_code)]
mod hw;

mod crash;
mod play;
mod view;
#[cfg(feature = "tour")]
mod view_tour;

use core::panic::PanicInfo;

use engine::game::Game;
use engine::world::Level;
use n64::clock::COUNT_HZ;
use n64::demo::DEFAULT_DEMO;
use n64::levels::{self, LEVELS};
use n64::trace::StateLine;

use hw::{cp0, memory, Hardware};

/// Called once by `hw::boot` with the hardware ready.
fn main(mut hardware: Hardware) -> ! {
    let map = memory::map();
    hardware.debug.line(format_args!(
        "boot: raycaster, {} video, {} levels ({} bytes), image {} bytes, statics {} bytes, \
         stack {} bytes, free {} bytes of {} MiB",
        hardware.tv.name(),
        LEVELS.len(),
        levels::total_bytes(),
        map.image_bytes,
        map.bss_bytes,
        map.stack_bytes,
        map.free_bytes,
        map.ram_bytes >> 20,
    ));

    check_demo(&mut hardware);
    #[cfg(feature = "tour")]
    view_tour::run(&mut hardware);
    play::run(hardware)
}

/// Plays the embedded demo from tick 0 on the default level, off screen
/// and as fast as the CPU goes, and reports the final state in the
/// desktop's trace format: the determinism check against the desktop's
/// `--headless --demo` run.
fn check_demo(hardware: &mut Hardware) {
    let default = levels::default_level();
    let level = load(default.bytes, default.name);
    let mut game = Game::new(level);
    let started = cp0::count();
    for input in DEFAULT_DEMO.inputs() {
        game.tick(input);
    }
    let took = cp0::count().wrapping_sub(started);
    hardware.debug.line(format_args!(
        "demo: {} on {}: {} ticks in {} Count ticks ({} ms)",
        DEFAULT_DEMO.source,
        default.source,
        DEFAULT_DEMO.total_ticks(),
        took,
        u64::from(took) * 1000 / u64::from(COUNT_HZ),
    ));
    hardware.debug.line(format_args!(
        "demo final state: {}",
        StateLine(&game.player())
    ));
}

/// Loads an embedded level. They were compiled (and so checked) by our
/// own compiler at build time: a failure here means the engine and the
/// compiler disagree about the format, which the crash report explains.
fn load(bytes: &'static [u8], name: &str) -> Level<'static> {
    match Level::load(bytes) {
        Ok(level) => level,
        Err(e) => panic!("the embedded level {name} does not load: {e}"),
    }
}

#[panic_handler]
fn panic(info: &PanicInfo<'_>) -> ! {
    crash::report(crash::Crash::Panic(info), hw::boot::crash_kit())
}
