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
