//! The peripheral interface: the cartridge bus.
//!
//! The CPU reads and writes cartridge space one 32-bit word at a time
//! through the PI; a write must wait until the PI is idle, or it is lost.

use super::Register;

// SAFETY (all): PI register addresses from the N64 memory map.
const PI_STATUS: Register = unsafe { Register::at(0x0460_0010) };

/// PI_STATUS bits: DMA busy, I/O busy.
const BUSY: u32 = 0b11;

/// Waits until the PI has finished its current DMA or I/O access.
fn wait_idle() {
    while PI_STATUS.read() & BUSY != 0 {}
}

/// A 32-bit word of cartridge space, accessed through the PI.
#[derive(Copy, Clone, Debug)]
pub(super) struct CartWord(Register);

impl CartWord {
    /// The word at cartridge (physical) address `physical`.
    ///
    /// # Safety
    ///
    /// `physical` must be a 4-byte-aligned address in cartridge space
    /// (0x1000_0000..0x1FC0_0000) that is safe to read and write.
    pub(super) const unsafe fn at(physical: u32) -> CartWord {
        // SAFETY: forwarded to the caller.
        CartWord(unsafe { Register::at(physical) })
    }

    /// Reads the word.
    pub(super) fn read(self) -> u32 {
        wait_idle();
        self.0.read()
    }

    /// Writes the word.
    pub(super) fn write(self, value: u32) {
        wait_idle();
        self.0.write(value);
    }
}
