//! The memory map's figures (from the linker script's symbols) and the
//! stack's high-water mark.
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
    /// Bytes loaded from the cartridge: code, read-only data (levels,
    /// tables), initialised data.
    pub image_bytes: usize,
    /// Zeroed statics (framebuffers, exception stack, ...).
    pub bss_bytes: usize,
    /// The stack's size.
    pub stack_bytes: usize,
    /// RDRAM neither the image, the statics nor the stack use, below
    /// [`MemoryMap::ram_bytes`].
    pub free_bytes: usize,
    /// The RDRAM this build uses: the 4 MiB every console has (8 MiB for
    /// the measuring build, see link.x).
    pub ram_bytes: usize,
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
        free_bytes: stack_bottom - bss_end + (bss_start - image_end),
        ram_bytes: stack_top + 16 - 0x8000_0000,
    }
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
