//! The memory map's figures (from the linker script's symbols), the
//! RDRAM the console has, the level memory, and the stack's high-water
//! mark.
//!
//! At boot the free stack is painted with a pattern; the deepest word no
//! longer holding it is how deep the stack has ever gone.

use core::ptr::addr_of;

extern "C" {
    static __image_end: u8;
    static __bss_start: u8;
    static __bss_end: u8;
    static __stack_bottom: u8;
    static __stack_top: u8;
}

/// Start of the loaded image (`_start`).
const IMAGE_START: usize = 0x8000_0400;
/// Bytes between the painted area and the stack pointer at paint time,
/// left alone because the painting code's own frame lives there.
const PAINT_MARGIN: usize = 1024;
const STACK_PAINT: u32 = 0x5AFE_C0DE;

fn address(symbol: *const u8) -> usize {
    symbol as usize
}

/// Where everything sits in RDRAM.
#[derive(Copy, Clone, Debug)]
pub struct MemoryMap {
    /// Bytes loaded from the cartridge at boot: code, read-only data
    /// (tables), initialised data. The levels are not: see
    /// [`take_level_memory`].
    pub image_bytes: usize,
    /// Zeroed statics (framebuffers, exception stack, ...).
    pub bss_bytes: usize,
    /// The stack's size.
    pub stack_bytes: usize,
}

/// The memory map of this build.
pub fn map() -> MemoryMap {
    // Only the addresses of the linker symbols are taken, never their
    // (nonexistent) values.
    let (image_end, bss_start, bss_end, stack_bottom, stack_top) = (
        address(addr_of!(__image_end)),
        address(addr_of!(__bss_start)),
        address(addr_of!(__bss_end)),
        address(addr_of!(__stack_bottom)),
        address(addr_of!(__stack_top)),
    );
    MemoryMap {
        image_bytes: image_end - IMAGE_START,
        bss_bytes: bss_end - bss_start,
        stack_bytes: stack_top + 16 - stack_bottom,
    }
}

// SAFETY: DMEM word 0, where both boot loaders leave the RDRAM size
// (libdragon's layout); nothing else in this program uses it.
const BOOT_FLAGS_WORD_0: super::Register = unsafe { super::Register::at(0x0400_0000) };

/// RDRAM every console has.
const BASE_RDRAM: usize = 4 << 20;
/// RDRAM with the Expansion Pak.
const EXPANDED_RDRAM: usize = 8 << 20;

/// The RDRAM the console has, as the boot loader found it: 4 MiB, or 8
/// with the Expansion Pak.
pub fn rdram_bytes() -> usize {
    if BOOT_FLAGS_WORD_0.read() as usize >= EXPANDED_RDRAM {
        EXPANDED_RDRAM
    } else {
        BASE_RDRAM
    }
}

/// The memory a level is copied into from the cartridge: the Expansion
/// Pak's 4 MiB when there is one (more than the first 4 MiB has left
/// over), else the first 4 MiB's RDRAM between the statics and the stack.
/// `boot` calls this once, so the slice has one owner.
pub(super) fn take_level_memory() -> &'static mut [u8] {
    let (start, end) = if rdram_bytes() >= EXPANDED_RDRAM {
        (0x8000_0000 + BASE_RDRAM, 0x8000_0000 + EXPANDED_RDRAM)
    } else {
        let bss_end = address(addr_of!(__bss_end));
        ((bss_end + 15) & !15, address(addr_of!(__stack_bottom)))
    };
    // SAFETY: RDRAM that neither the image, the statics nor the stack
    // use (the linker script keeps them below RAM_TOP, the first 4 MiB;
    // the Expansion Pak's is above it), handed out once.
    unsafe { core::slice::from_raw_parts_mut(start as *mut u8, end - start) }
}

fn stack_pointer() -> usize {
    let sp: usize;
    // SAFETY: reads a register.
    unsafe {
        core::arch::asm!(".set noat", "move {0}, $sp", ".set at", out(reg) sp, options(nomem, nostack, preserves_flags))
    };
    sp
}

/// Paints the unused part of the stack.
pub(super) fn paint_stack() {
    let bottom = address(addr_of!(__stack_bottom));
    let end = stack_pointer() - PAINT_MARGIN;
    let mut word = bottom;
    while word < end {
        // SAFETY: between the stack's bottom and (well below) the stack
        // pointer: memory no live frame and no Rust object uses.
        unsafe { core::ptr::write_volatile(word as *mut u32, STACK_PAINT) };
        word += 4;
    }
}

/// The deepest the stack has been since boot, in bytes.
pub fn stack_high_water() -> usize {
    let bottom = address(addr_of!(__stack_bottom));
    let top = address(addr_of!(__stack_top)) + 16;
    let mut word = bottom;
    // SAFETY: reads of the stack region below the live frames; a word is
    // either still the paint or was once part of a frame.
    while word < top && unsafe { core::ptr::read_volatile(word as *const u32) } == STACK_PAINT {
        word += 4;
    }
    top - word
}
