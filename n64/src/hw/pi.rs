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

// SAFETY (all): PI DMA registers from the N64 memory map.
const PI_DRAM_ADDR: Register = unsafe { Register::at(0x0460_0000) };
const PI_CART_ADDR: Register = unsafe { Register::at(0x0460_0004) };
const PI_WR_LEN: Register = unsafe { Register::at(0x0460_000C) };

/// PI_STATUS write: clear the PI interrupt.
const CLEAR_INTERRUPT: u32 = 0b10;
/// Cartridge ROM in the PI's address space (domain 1).
const CART_ROM: u32 = 0x1000_0000;
/// The most cartridge ROM there can be: 64 MiB.
pub const ROM_MAX: u32 = 64 << 20;
/// Bytes of the DMA bounce buffer.
const BOUNCE_LEN: usize = 16 * 1024;

/// Where DMA from the cartridge lands before it is copied to its place:
/// the PI wants an 8-byte-aligned RDRAM address and an even cartridge
/// address, which a level's pieces rarely both have. Whole data-cache
/// lines, shared with nothing, so invalidating them loses nothing else.
#[repr(C, align(16))]
struct Bounce([u8; BOUNCE_LEN]);

static mut BOUNCE: Bounce = Bounce([0; BOUNCE_LEN]);

/// Reads cartridge ROM: by DMA for bulk, word by word for a probe. One
/// exists, handed out at boot, so its DMA buffer has one user.
#[derive(Debug)]
pub struct Cartridge {
    _private: (),
}

impl Cartridge {
    /// The cartridge reader; `boot` calls this once.
    pub(super) fn take() -> Cartridge {
        Cartridge { _private: () }
    }

    /// The 32-bit word of ROM at `at` (4-byte aligned, below [`ROM_MAX`]),
    /// read by the CPU: for probing, where a DMA past the ROM's end might
    /// not be harmless in every emulator.
    pub fn word(&mut self, at: u32) -> Option<u32> {
        if !at.is_multiple_of(4) || at >= ROM_MAX {
            return None;
        }
        // SAFETY: an aligned address in cartridge ROM space; reading ROM
        // has no side effects.
        Some(unsafe { CartWord::at(CART_ROM + at) }.read())
    }

    /// Fills `into` with ROM bytes from offset `at`; false (and `into`
    /// partly filled) if any lie past [`ROM_MAX`].
    pub fn read(&mut self, at: u32, into: &mut [u8]) -> bool {
        let end = u64::from(at) + into.len() as u64;
        if end > u64::from(ROM_MAX) {
            return false;
        }
        // SAFETY: `&mut self` on the one `Cartridge` is the only way to
        // the bounce buffer.
        let bounce = unsafe { &mut (*core::ptr::addr_of_mut!(BOUNCE)).0 };
        let mut done = 0usize;
        while done < into.len() {
            let source = at + done as u32;
            let even = source & !1;
            let skip = (source - even) as usize;
            let n = (into.len() - done).min(BOUNCE_LEN - 8);
            // Whole doublewords: at most 7 bytes past the piece, which the
            // pack's padding (or the next piece) provides.
            let dma_len = (skip + n + 7) & !7;
            super::cache::invalidate_data(&bounce[..dma_len]);
            wait_idle();
            PI_DRAM_ADDR.write(super::physical_address(bounce.as_ptr()));
            PI_CART_ADDR.write(CART_ROM + even);
            PI_WR_LEN.write(dma_len as u32 - 1);
            wait_idle();
            PI_STATUS.write(CLEAR_INTERRUPT);
            // The DMA wrote RDRAM behind the cache: drop whatever lines
            // were fetched meanwhile (none should have been).
            super::cache::invalidate_data(&bounce[..dma_len]);
            into[done..done + n].copy_from_slice(&bounce[skip..skip + n]);
            done += n;
        }
        true
    }
}
