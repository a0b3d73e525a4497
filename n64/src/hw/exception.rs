//! CPU exceptions: instead of a silent reboot (the vectors in RDRAM are
//! zeros until something is put there, and execution would slide into
//! `_start`), every exception is reported over the IS-Viewer and on
//! screen, and the console stops there.
//!
//! `install` copies a four-instruction stub (`exception.s`) to each
//! vector; the stub jumps to `exception_entry`, which saves the registers
//! and calls [`exception_report`] on a stack of its own.

use core::arch::global_asm;
use core::sync::atomic::{AtomicBool, Ordering};

use super::{boot, cache};
use crate::crash::{self, Crash, ExceptionState};

global_asm!(include_str!("exception.s"));

extern "C" {
    static exception_vector_stub: [u32; 4];
    static exception_saved_registers: [u32; 32];
}

/// The vectors: TLB refill, 64-bit TLB refill, cache error (fetched
/// uncached, through 0xA0000100: same RDRAM), everything else.
const VECTORS: [usize; 4] = [0x8000_0000, 0x8000_0080, 0x8000_0100, 0x8000_0180];

/// Set once the report has started: an exception inside the report can
/// only loop, since the first one's state would be overwritten.
static REPORTING: AtomicBool = AtomicBool::new(false);

/// Points every exception vector at `exception_entry`.
pub(super) fn install() {
    // SAFETY: a 16-byte code template defined in exception.s.
    let stub = unsafe { exception_vector_stub };
    for vector in VECTORS {
        for (i, word) in stub.iter().enumerate() {
            // SAFETY: the vectors' 0x400 bytes at the bottom of RDRAM
            // belong to no Rust object (the image starts at 0x80000400).
            unsafe { core::ptr::write_volatile((vector as *mut u32).add(i), *word) };
        }
        cache::sync_instructions(vector, stub.len() * 4);
    }
}

/// Called by `exception_entry` with interrupts off and EXL set; never
/// returns.
#[no_mangle]
extern "C" fn exception_report(cause: u32, epc: u32, bad_vaddr: u32, status: u32) -> ! {
    if REPORTING.swap(true, Ordering::Relaxed) {
        #[allow(clippy::empty_loop)]
        loop {}
    }
    // SAFETY: written by exception_entry just before this call; nothing
    // writes it again (see REPORTING).
    let registers = unsafe { exception_saved_registers };
    let state = ExceptionState {
        cause,
        epc,
        bad_vaddr,
        status,
        registers,
    };
    crash::report(Crash::Exception(&state), boot::crash_kit())
}

/// Triggers an exception on purpose, to check the handler (on real
/// hardware too): a word load from address 0, the classic null pointer.
/// Address 0 is in KUSEG, which goes through the TLB, and `_start` left
/// every TLB entry invalid, so the load raises a TLB miss (code 2) with
/// BadVAddr 0.
pub fn raise_test_exception() -> ! {
    let value: u32;
    // SAFETY: the load faults before it reads anything; the handler
    // never returns here.
    unsafe { core::arch::asm!(".set noat", "lw {0}, 0($zero)", ".set at", out(reg) value) };
    // Only reached if the load did not fault (an emulator without a TLB).
    panic!("the test exception did not fire (address 0 read {value:#x})")
}
