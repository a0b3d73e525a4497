//! The CPU's data and instruction caches.
//!
//! The RCP (video, DMA) reads and writes RDRAM directly, behind the CPU's
//! write-back data cache: whatever the CPU wrote through KSEG0 and the
//! RCP must see has to be written back first. Emulators do not model the
//! caches, so a missing write-back shows only on a console.
//!
//! R4300: data cache 8 KiB in 16-byte lines; instruction cache 16 KiB in
//! 32-byte lines.

use core::arch::asm;

const DATA_LINE: usize = 16;
const DATA_SIZE: usize = 8 * 1024;
const INSTRUCTION_LINE: usize = 32;

/// Writes back every data-cache line holding part of `bytes` (they stay
/// valid in the cache).
pub fn write_back_data<T: ?Sized>(data: &T) {
    let start = data as *const T as *const u8 as usize & !(DATA_LINE - 1);
    let end = data as *const T as *const u8 as usize + core::mem::size_of_val(data);
    let mut line = start;
    while line < end {
        // SAFETY: Hit_Write_Back_D (0x19) only copies a dirty line of the
        // given address to RDRAM; it never changes what the program sees.
        unsafe {
            asm!(".set noat", "cache 0x19, 0({0})", ".set at", in(reg) line, options(nostack, preserves_flags))
        };
        line += DATA_LINE;
    }
}

/// Writes back and invalidates the whole data cache.
pub fn write_back_invalidate_all_data() {
    let mut line = 0x8000_0000usize;
    while line < 0x8000_0000 + DATA_SIZE {
        // SAFETY: Index_Write_Back_Invalidate_D (0x01): dirty data reaches
        // RDRAM before the line is dropped, so no write is lost.
        unsafe {
            asm!(".set noat", "cache 0x01, 0({0})", ".set at", in(reg) line, options(nostack, preserves_flags))
        };
        line += DATA_LINE;
    }
}

/// Makes freshly written code at `address..address + len` visible to
/// instruction fetch: writes the data back, then drops stale instructions.
pub(super) fn sync_instructions(address: usize, len: usize) {
    let end = address + len;
    let mut line = address & !(DATA_LINE - 1);
    while line < end {
        // SAFETY: as in `write_back_data`.
        unsafe {
            asm!(".set noat", "cache 0x19, 0({0})", ".set at", in(reg) line, options(nostack, preserves_flags))
        };
        line += DATA_LINE;
    }
    let mut line = address & !(INSTRUCTION_LINE - 1);
    while line < end {
        // SAFETY: Hit_Invalidate_I (0x10) only drops cached instructions;
        // the next fetch reads RDRAM.
        unsafe {
            asm!(".set noat", "cache 0x10, 0({0})", ".set at", in(reg) line, options(nostack, preserves_flags))
        };
        line += INSTRUCTION_LINE;
    }
}

/// Drops every data-cache line holding part of `data` without writing it
/// back, so the next read comes from RDRAM (after a DMA wrote it). The
/// lines must hold nothing else: `data` starts and ends on line bounds.
pub fn invalidate_data<T: ?Sized>(data: &T) {
    let start = data as *const T as *const u8 as usize;
    let end = start + core::mem::size_of_val(data);
    debug_assert!(start.is_multiple_of(DATA_LINE));
    let mut line = start & !(DATA_LINE - 1);
    while line < end {
        // SAFETY: Hit_Invalidate_D (0x11) drops the line of this address;
        // the caller's lines hold only bytes it is about to overwrite.
        unsafe {
            asm!(".set noat", "cache 0x11, 0({0})", ".set at", in(reg) line, options(nostack, preserves_flags))
        };
        line += DATA_LINE;
    }
}
