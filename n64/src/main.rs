//! The ROM's program: plays the cartridge's levels on a Nintendo 64.
//!
//! `hw` (the only module allowed `unsafe`) boots the machine and hands
//! [`main`] the hardware; `main` finds the levels on the cartridge
//! ([`n64::cartridge`]), checks the embedded demo, then runs the menu and
//! the frame loop in [`play`] until the console is switched off (built
//! with the `tour` feature, after the timed view tour in `view_tour`). A
//! crash (panic or CPU exception) ends in [`crash::report`].
//!
//! Everything reported goes to the IS-Viewer debug port, one line each,
//! each starting with a keyword the tests look for:
//!
//! | line | when |
//! |---|---|
//! | `boot: ...` | once: TV type, the cartridge's levels, memory map |
//! | `demo: ...` | once at boot: the embedded demo's length and Count ticks taken |
//! | `demo final state: {...}` | once at boot: the embedded demo played from tick 0 |
//! | `level: NAME (I/N) ...` | on every level start (`level: NAME does not load: ...` if it cannot) |
//! | `menu: ...` | when the level menu opens |
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
use n64::cartridge::{CartError, Levels};
use n64::clock::COUNT_HZ;
use n64::demo::{DEFAULT_DEMO, DEFAULT_LEVEL};
use n64::trace::StateLine;

use hw::{cp0, memory, pi::Cartridge, Hardware, Storage};

/// The cartridge's levels, as the program reads them.
pub type CartLevels = Levels<RomReader>;

/// [`Cartridge`] as [`n64::cartridge::Rom`].
pub struct RomReader(Cartridge);

impl n64::cartridge::Rom for RomReader {
    fn word(&mut self, at: u32) -> Option<u32> {
        self.0.word(at)
    }

    fn read(&mut self, at: u32, into: &mut [u8]) -> bool {
        self.0.read(at, into)
    }
}

/// Called once by `hw::boot` with the hardware ready.
fn main(mut hardware: Hardware, storage: Storage) -> ! {
    let Storage {
        cartridge,
        level_memory,
    } = storage;
    let mut levels = match Levels::find(RomReader(cartridge)) {
        Ok(levels) => levels,
        Err(e) => no_levels(&mut hardware, e),
    };
    let map = memory::map();
    let rdram = memory::rdram_bytes();
    hardware.debug.line(format_args!(
        "boot: raycaster, {} video, {} levels (pack {} bytes at cartridge 0x{:x}, largest level {}), \
         image {} bytes, statics {} bytes, stack {} bytes, level memory {} bytes, \
         {} MiB RDRAM ({})",
        hardware.tv.name(),
        levels.len(),
        levels.pack_len(),
        levels.base(),
        levels.largest(),
        map.image_bytes,
        map.bss_bytes,
        map.stack_bytes,
        level_memory.len(),
        rdram >> 20,
        if rdram > 4 << 20 {
            "Expansion Pak"
        } else {
            "no Expansion Pak"
        },
    ));

    check_demo(&mut hardware, &mut levels, level_memory);
    #[cfg(feature = "tour")]
    view_tour::run(&mut hardware, &mut levels, level_memory);
    play::run(hardware, levels, level_memory)
}

/// Plays the embedded demo from tick 0 on the default level, off screen
/// and as fast as the CPU goes, and reports the final state in the
/// desktop's trace format: the determinism check against the desktop's
/// `--headless --demo` run. A cartridge without that level (one built
/// from a WAD) skips it, and says so.
fn check_demo(hardware: &mut Hardware, levels: &mut CartLevels, memory: &mut [u8]) {
    let Some(index) = levels.find_level(DEFAULT_LEVEL) else {
        hardware.debug.line(format_args!(
            "demo: skipped: the cartridge has no level {DEFAULT_LEVEL}"
        ));
        return;
    };
    let level = match levels.load(index, memory) {
        Ok(level) => level,
        Err(e) => {
            hardware.debug.line(format_args!(
                "demo: skipped: {DEFAULT_LEVEL} does not load: {e}"
            ));
            return;
        }
    };
    let mut game = Game::new(level);
    let started = cp0::count();
    for input in DEFAULT_DEMO.inputs() {
        game.tick(input);
    }
    let took = cp0::count().wrapping_sub(started);
    hardware.debug.line(format_args!(
        "demo: {} on {}: {} ticks in {} Count ticks ({} ms)",
        DEFAULT_DEMO.source,
        DEFAULT_LEVEL,
        DEFAULT_DEMO.total_ticks(),
        took,
        u64::from(took) * 1000 / u64::from(COUNT_HZ),
    ));
    hardware.debug.line(format_args!(
        "demo final state: {}",
        StateLine(&game.player())
    ));
}

/// No levels on the cartridge (a ROM built without its pack, or a damaged
/// one): said over the debug port and on screen, for good.
fn no_levels(hardware: &mut Hardware, error: CartError) -> ! {
    hardware
        .debug
        .line(format_args!("boot: no levels: {error}"));
    loop {
        view::notice(
            &mut hardware.video,
            "NO LEVELS",
            format_args!("{error}"),
            "BUILD THE ROM WITH N64/BUILD.SH",
        );
        hardware.video.present();
    }
}

#[panic_handler]
fn panic(info: &PanicInfo<'_>) -> ! {
    crash::report(crash::Crash::Panic(info), hw::boot::crash_kit())
}
