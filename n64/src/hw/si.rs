//! The serial interface: 64-byte DMA transfers between RDRAM and the
//! PIF's RAM, which is how the CPU talks to the controllers (joybus).
//!
//! The PIF block lives in a static that is only ever accessed through its
//! uncached (KSEG1) alias, so the DMA and the CPU never disagree about its
//! contents and no cache maintenance is needed. (`_start` leaves no dirty
//! cache line over it: `boot` writes back and invalidates the whole data
//! cache after `.bss` is zeroed.)

use core::cell::UnsafeCell;

use super::{physical_address, Register};

// SAFETY (all): SI register addresses from the N64 memory map.
const SI_DRAM_ADDR: Register = unsafe { Register::at(0x0480_0000) };
const SI_PIF_AD_RD64B: Register = unsafe { Register::at(0x0480_0004) };
const SI_PIF_AD_WR64B: Register = unsafe { Register::at(0x0480_0010) };
const SI_STATUS: Register = unsafe { Register::at(0x0480_0018) };

/// Physical address of the PIF's 64 bytes of RAM.
const PIF_RAM: u32 = 0x1FC0_07C0;

/// SI_STATUS bits: DMA busy, I/O read busy.
const BUSY: u32 = 0b11;

/// One PIF RAM image: 64 bytes, aligned for the SI DMA.
#[repr(C, align(16))]
struct PifBlock(UnsafeCell<[u8; 64]>);

// SAFETY: one core, no interrupts; only `Serial` (a singleton) touches it.
unsafe impl Sync for PifBlock {}

static PIF_BLOCK: PifBlock = PifBlock(UnsafeCell::new([0; 64]));

/// The serial interface; one exists.
#[derive(Debug)]
pub(super) struct Serial {
    _private: (),
}

impl Serial {
    /// The only instance (see `boot`).
    pub(super) fn take() -> Serial {
        Serial { _private: () }
    }

    /// Sends `block` to PIF RAM, lets the PIF run it, and returns PIF RAM
    /// afterwards (the commands with the devices' replies filled in).
    pub(super) fn exchange(&mut self, block: &[u8; 64]) -> [u8; 64] {
        let uncached = (PIF_BLOCK.0.get() as usize | 0xA000_0000) as *mut [u8; 64];
        wait_idle();
        // SAFETY: the uncached alias of a static only this singleton uses;
        // no DMA is running (waited above).
        unsafe { core::ptr::write_volatile(uncached, *block) };
        SI_DRAM_ADDR.write(physical_address(PIF_BLOCK.0.get()));
        SI_PIF_AD_WR64B.write(PIF_RAM);
        wait_idle();
        SI_DRAM_ADDR.write(physical_address(PIF_BLOCK.0.get()));
        SI_PIF_AD_RD64B.write(PIF_RAM);
        wait_idle();
        // SAFETY: as above; the DMA into it has finished.
        unsafe { core::ptr::read_volatile(uncached) }
    }
}

fn wait_idle() {
    while SI_STATUS.read() & BUSY != 0 {}
    // Writing SI_STATUS acknowledges the SI interrupt (it is masked, but
    // MI_INTR would keep reporting it).
    SI_STATUS.write(0);
}
