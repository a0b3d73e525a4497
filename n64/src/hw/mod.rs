//! Every piece of hardware the frontend touches, and all of its `unsafe`.
//!
//! One file per hardware block, in the style of libdragon and `n64-pac`:
//!
//! * [`boot`]: `_start`, our emulator IPL3, the boot flags, the Rust entry;
//! * [`cp0`]: the CPU's Count register (the frame and tick clock);
//! * [`cache`]: write-back and invalidation, for memory the RCP reads;
//! * [`vi`]: the video interface registers and timings;
//! * [`video`]: the two framebuffers and their swap at vertical blank;
//! * [`si`] and [`joypad`]: the serial interface, the PIF and controller 1;
//! * [`pi`] and [`isviewer`]: the cartridge bus (the levels' DMA) and the
//!   IS-Viewer debug port on it;
//! * [`rsp`]: the per-frame marker task that emulators count as a frame;
//! * [`exception`]: the CPU exception vectors and their report;
//! * `sampler` (with the `tour` feature): a sampling profiler on the CPU's
//!   timer interrupt;
//! * [`memory`]: the memory map's figures and the stack's high-water mark;
//! * `mem`: `memcpy` and `memset` for this CPU.
//!
//! Everything outside this module is `#![deny(unsafe_code)]` and reaches
//! the hardware only through the safe types here, which are handed out
//! once, by [`boot`], in a [`Hardware`].

pub mod boot;
pub mod cache;
pub mod cp0;
pub mod exception;
pub mod isviewer;
pub mod joypad;
mod mem;
pub mod memory;
pub mod pi;
pub mod rsp;
#[cfg(feature = "tour")]
pub mod sampler;
pub mod si;
pub mod vi;
pub mod video;

/// The hardware blocks the main loop drives, handed out once at boot.
pub struct Hardware {
    /// Framebuffers and vertical blank.
    pub video: video::Video,
    /// Controller 1.
    pub joypad: joypad::Joypad,
    /// The IS-Viewer debug port (absent on a plain console).
    pub debug: isviewer::DebugPort,
    /// The TV standard the console was booted for.
    pub tv: vi::TvType,
    /// The sampling profiler.
    #[cfg(feature = "tour")]
    pub sampler: sampler::Sampler,
}

/// Where the levels are and where they go, handed out once at boot apart
/// from [`Hardware`], whose borrows the frame loop takes and gives back
/// every frame while a level borrows its memory for as long as it is
/// played.
pub struct Storage {
    /// The cartridge ROM, where the levels are.
    pub cartridge: pi::Cartridge,
    /// The RDRAM a level is copied into ([`memory::take_level_memory`]).
    pub level_memory: &'static mut [u8],
}

/// A 32-bit memory-mapped register, accessed uncached (through KSEG1).
#[derive(Copy, Clone, Debug)]
struct Register {
    address: usize,
}

impl Register {
    /// The register at physical address `physical`.
    ///
    /// # Safety
    ///
    /// `physical` must be the address of a 32-bit register (or of a word
    /// of RSP or PIF memory) that no Rust reference covers; reads and
    /// writes through the result go straight to the hardware.
    const unsafe fn at(physical: u32) -> Register {
        Register {
            address: (physical | 0xA000_0000) as usize,
        }
    }

    /// Reads the register.
    #[inline]
    fn read(self) -> u32 {
        // SAFETY: `at`'s contract: an aligned device word outside Rust's
        // memory.
        unsafe { core::ptr::read_volatile(self.address as *const u32) }
    }

    /// Writes the register.
    #[inline]
    fn write(self, value: u32) {
        // SAFETY: as for `read`.
        unsafe { core::ptr::write_volatile(self.address as *mut u32, value) }
    }
}

/// The physical address of a static in RDRAM (KSEG0 or KSEG1), as DMA
/// engines and the VI want it.
#[inline]
fn physical_address<T: ?Sized>(data: *const T) -> u32 {
    (data as *const u8 as usize as u32) & 0x1FFF_FFFF
}
