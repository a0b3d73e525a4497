//! Boot: `_start` (boot.s) sets up the CPU, the stack and `.bss`, then
//! calls [`rust_entry`], which readies the hardware and hands it to
//! `main`. Also assembles our emulator IPL3 (ipl3_emu.s) and stand-in PIF
//! boot ROM (pif_emu.s) into the ELF sections that build.sh cuts out, for
//! `nust64 --ipl3` and for cen64.
//!
//! Boot flags: both boot loaders leave the TV type in DMEM byte 9 (the
//! layout of libdragon's IPL3, which ours copies).

use core::arch::global_asm;

use super::isviewer::DebugPort;
use super::joypad::Joypad;
use super::si::Serial;
use super::vi::TvType;
use super::video::{CrashScreen, Video};
use super::{cache, exception, memory, Hardware, Register};

global_asm!(include_str!("boot.s"));
global_asm!(include_str!("ipl3_emu.s"));
global_asm!(include_str!("pif_emu.s"));

// SAFETY: DMEM word 8..12, which holds boot flag byte 9; nothing else in
// this program uses DMEM below 0xFC0.
const BOOT_FLAGS_WORD_2: Register = unsafe { Register::at(0x0400_0008) };

fn tv_type() -> TvType {
    // Big-endian: byte 9 is the second byte of the word at 8.
    TvType::from_boot_flag((BOOT_FLAGS_WORD_2.read() >> 16) as u8)
}

/// Called once by `_start`.
#[no_mangle]
extern "C" fn rust_entry() -> ! {
    // `_start` zeroed .bss through the cache: push it all to RDRAM so
    // that memory the program only touches uncached (the PIF block) holds
    // no stale dirty line.
    cache::write_back_invalidate_all_data();
    memory::paint_stack();
    exception::install();
    let tv = tv_type();
    let hardware = Hardware {
        debug: DebugPort::detect(),
        video: Video::init(tv),
        joypad: Joypad::new(Serial::take()),
        tv,
        #[cfg(feature = "tour")]
        sampler: super::sampler::Sampler::install(),
    };
    let storage = super::Storage {
        cartridge: super::pi::Cartridge::take(),
        level_memory: memory::take_level_memory(),
    };
    crate::main(hardware, storage)
}

/// What the crash report needs, once the main loop has stopped.
pub struct CrashKit {
    /// The debug port.
    pub debug: DebugPort,
    /// The screen.
    pub screen: CrashScreen,
}

/// Hands the crash report its hardware (see [`CrashScreen::take`]).
pub fn crash_kit() -> CrashKit {
    CrashKit {
        debug: DebugPort::for_crash_report(),
        screen: CrashScreen::take(tv_type()),
    }
}
