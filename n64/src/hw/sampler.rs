//! A sampling profiler: where the CPU's time goes, by code address.
//!
//! While it runs, the CPU's timer interrupt (Count reaching Compare)
//! fires every [`INTERVAL`] Count ticks; its handler (`sampler.s`) adds
//! one to the bucket of the 32 bytes of code (an instruction-cache line)
//! the program was in and returns. Each sample stands for the same stretch of time, so a bucket's
//! share of the samples is its share of the time, cache misses and stalls
//! included: the cycles by function once the buckets are matched with the
//! ELF's symbols (`tools/tour_profile.py`). In mupen64plus, whose Count
//! counts instructions, the same samples give instructions instead.
//!
//! Taking a sample costs about 30 instructions and a data-cache line or
//! two, 2-4% of the time at this interval: figures are timed with the
//! sampler stopped. Built in with the `tour` feature only.

use core::arch::global_asm;
use core::sync::atomic::{AtomicU16, Ordering};

use super::{cache, cp0};

/// Count ticks between samples: a prime, so that no loop of the program
/// runs in step with it.
pub const INTERVAL: u32 = 1009;
/// Bytes of code per bucket: an instruction-cache line.
pub const BUCKET_BYTES: u32 = 32;
/// Buckets, from 0x80000000: 768 KiB of code, in 48 KiB of 16-bit counts.
const BUCKETS: usize = 24576;

global_asm!(include_str!("sampler.s"), buckets = const BUCKETS, interval = const INTERVAL);

extern "C" {
    static sampler_vector_stub: [u32; 4];
    static __text_end: u8;
}

/// The samples, written by the interrupt handler (each stops at 65535).
#[export_name = "sampler_counts"]
static COUNTS: [AtomicU16; BUCKETS] = [const { AtomicU16::new(0) }; BUCKETS];

/// The general exception vector, which the timer interrupt takes.
const GENERAL_VECTOR: usize = 0x8000_0180;
/// Status: interrupts enabled, and the timer's (IP7) unmasked.
const STATUS_TIMER: u32 = 0x8001;

/// The profiler; one exists, stopped until [`Sampler::start`].
#[derive(Debug)]
pub struct Sampler {
    running: bool,
}

impl Sampler {
    /// Routes the general exception vector through the sampler's handler
    /// (after `exception::install`, which it overrides there).
    pub(super) fn install() -> Sampler {
        // SAFETY: a 16-byte code template defined in sampler.s.
        let stub = unsafe { sampler_vector_stub };
        for (i, word) in stub.iter().enumerate() {
            // SAFETY: the vector area below the image belongs to no Rust
            // object (exception.rs).
            unsafe { core::ptr::write_volatile((GENERAL_VECTOR as *mut u32).add(i), *word) };
        }
        cache::sync_instructions(GENERAL_VECTOR, stub.len() * 4);
        Sampler { running: false }
    }

    /// Whether every byte of code has a bucket (if not, samples past the
    /// last bucket are not counted).
    pub fn covers_all_code(&self) -> bool {
        let end = core::ptr::addr_of!(__text_end) as usize;
        end <= 0x8000_0000 + BUCKETS * BUCKET_BYTES as usize
    }

    /// Starts taking samples.
    pub fn start(&mut self) {
        cp0::set_compare(cp0::count().wrapping_add(INTERVAL));
        cp0::set_status(cp0::status() | STATUS_TIMER);
        self.running = true;
    }

    /// Stops taking samples.
    pub fn stop(&mut self) {
        cp0::set_status(cp0::status() & !STATUS_TIMER);
        self.running = false;
    }

    /// Calls `f` with each bucket's first code address and samples, for
    /// every bucket with samples, and empties them. Stops the sampler
    /// first.
    pub fn drain(&mut self, mut f: impl FnMut(u32, u32)) {
        if self.running {
            self.stop();
        }
        for (i, bucket) in COUNTS.iter().enumerate() {
            // A load and a store, not a swap: an atomic read-modify-write
            // is LL/SC here, which cen64 does not implement (and the
            // handler is not running).
            let samples = bucket.load(Ordering::Relaxed);
            bucket.store(0, Ordering::Relaxed);
            if samples != 0 {
                f(0x8000_0000 + i as u32 * BUCKET_BYTES, u32::from(samples));
            }
        }
    }
}
