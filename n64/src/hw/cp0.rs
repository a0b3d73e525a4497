//! Coprocessor 0: the Count register, the console's clock.
//!
//! Count runs at half the CPU clock: 46,875,000 ticks per second on every
//! console (93.75 MHz / 2; `n64::clock::COUNT_HZ`), and wraps every 91.6 s, so callers take
//! wrapping differences of nearby readings.

use core::arch::asm;

/// The current value of Count.
#[inline]
pub fn count() -> u32 {
    let value: u32;
    // SAFETY: reading Count has no side effect.
    unsafe {
        asm!(".set noat", "mfc0 {0}, $9", ".set at", out(reg) value, options(nomem, nostack, preserves_flags))
    };
    value
}

/// The Status register.
#[cfg(feature = "tour")]
pub(super) fn status() -> u32 {
    let value: u32;
    // SAFETY: reading Status has no side effect.
    unsafe {
        asm!(".set noat", "mfc0 {0}, $12", ".set at", out(reg) value, options(nomem, nostack, preserves_flags))
    };
    value
}

/// Writes the Status register. Not `nomem`: enabling interrupts must not
/// move across the program's memory accesses.
#[cfg(feature = "tour")]
pub(super) fn set_status(value: u32) {
    // SAFETY: the callers change only the interrupt-enable and mask bits,
    // for a handler that is installed.
    unsafe {
        asm!(".set noat", "mtc0 {0}, $12", "nop", "nop", ".set at", in(reg) value, options(nostack, preserves_flags))
    };
}

/// Writes Compare: the timer interrupt is raised when Count reaches it,
/// and the write acknowledges a pending one.
#[cfg(feature = "tour")]
pub(super) fn set_compare(value: u32) {
    // SAFETY: Compare only schedules the timer interrupt, which stays
    // masked unless Status unmasks it.
    unsafe {
        asm!(".set noat", "mtc0 {0}, $11", ".set at", in(reg) value, options(nostack, preserves_flags))
    };
}
