//! Two framebuffers, swapped at vertical blank: the program draws into
//! the one not on screen, then [`Video::present`] waits for the blank and
//! shows it. The VI never scans a buffer that is being drawn, so there is
//! no tearing.
//!
//! Each buffer is 320x240 RGBA5551 in rows [`STRIDE`] pixels apart
//! (154 KiB), 64-byte aligned, in `.bss`.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, Ordering};

use engine::render::{Frame, Rgba5551};
use n64::view_mode::PixelPair;

use super::vi::{self, TvType};
use super::{cache, cp0, physical_address, rsp};

/// Framebuffer width in pixels.
pub const WIDTH: usize = 320;
/// Framebuffer height in pixels.
pub const HEIGHT: usize = 240;
/// Pixels from one row's start to the next's: 41 data-cache lines of 16
/// bytes. The data cache is direct-mapped, 512 lines: at 320 pixels (40
/// lines, even) rows r and r + 64 of a column share a line, so a column
/// drawn top to bottom evicts itself and the next column misses on every
/// pixel again. An odd number of lines apart, no two of the 240 rows
/// share one, and the 8 columns of a line are drawn for one miss. The VI
/// shows the first 320 pixels of each row (its WIDTH register is this
/// stride).
pub const STRIDE: usize = 328;
// The engine's wall column loop is built for this stride (and half of it,
// low detail's pixel pairs) as a constant: a frame of another would be
// drawn by its general loop, a fifth slower.
const _: () = assert!(
    STRIDE == engine::render::CONSTANT_STRIDES[0]
        && STRIDE / 2 == engine::render::CONSTANT_STRIDES[1],
    "engine::render::CONSTANT_STRIDES no longer names the framebuffer's stride"
);
const PIXELS: usize = STRIDE * HEIGHT;

#[repr(C, align(64))]
struct FrameBuffers(UnsafeCell<[[Rgba5551; PIXELS]; 2]>);

// SAFETY: one core, no interrupts. The main loop reaches the buffers only
// through the one `Video`; the crash report reaches them only after the
// main loop has stopped for good.
unsafe impl Sync for FrameBuffers {}

static FRAMEBUFFERS: FrameBuffers = FrameBuffers(UnsafeCell::new([[Rgba5551(0); PIXELS]; 2]));

/// Which buffer the VI shows; read by the crash report.
static SHOWN_IS_SECOND: AtomicBool = AtomicBool::new(false);
/// Whether the VI has been programmed; the crash report programs it if not.
static VI_READY: AtomicBool = AtomicBool::new(false);

fn buffer_pointer(index: usize) -> *mut [Rgba5551; PIXELS] {
    // In bounds: index is 0 or 1.
    (FRAMEBUFFERS.0.get() as *mut [Rgba5551; PIXELS]).wrapping_add(index & 1)
}

fn pair_pointer(index: usize) -> *mut [PixelPair; PIXELS / 2] {
    // The same buffer: 64-byte aligned, an even number of 16-bit pixels.
    buffer_pointer(index) as *mut [PixelPair; PIXELS / 2]
}

/// The framebuffers and the VI; one exists.
#[derive(Debug)]
pub struct Video {
    shown: usize,
    /// Per buffer, the first row from which it is known to be black to
    /// the bottom ([`HEIGHT`]: none).
    black_from: [usize; 2],
}

impl Video {
    /// Programs the VI for `tv` and shows the (black) first buffer.
    pub(super) fn init(tv: TvType) -> Video {
        vi::init(tv, physical_address(buffer_pointer(0)));
        VI_READY.store(true, Ordering::Relaxed);
        SHOWN_IS_SECOND.store(false, Ordering::Relaxed);
        Video {
            shown: 0,
            black_from: [HEIGHT; 2],
        }
    }

    /// The buffer not on screen, to draw the next frame into.
    pub fn back_frame(&mut self) -> Frame<'_, Rgba5551> {
        // SAFETY: the back buffer is not the one the VI scans, and this
        // `&mut self` borrow is the only way to reach it until `present`.
        let pixels = unsafe { &mut *buffer_pointer(self.shown ^ 1) };
        full_frame(pixels)
    }

    /// The back buffer's top `rows` rows, for the view.
    pub fn view_frame(&mut self, rows: usize) -> Frame<'_, Rgba5551> {
        let back = self.shown ^ 1;
        self.black_from[back] = self.black_from[back].max(rows.min(HEIGHT));
        // SAFETY: as in `back_frame`.
        let pixels = unsafe { &mut *buffer_pointer(back) };
        match Frame::new(pixels, WIDTH, rows.clamp(1, HEIGHT), STRIDE) {
            Some(frame) => frame.with_batched_walls(),
            None => unreachable!("at most 320x240 is a valid frame"),
        }
    }

    /// The back buffer's top `rows` rows as pixel pairs, 160 wide pixels
    /// a row (low detail).
    pub fn wide_view_frame(&mut self, rows: usize) -> Frame<'_, PixelPair> {
        let back = self.shown ^ 1;
        self.black_from[back] = self.black_from[back].max(rows.min(HEIGHT));
        // SAFETY: as in `back_frame`; the pairs are the same bytes seen
        // as 32-bit words (`PixelPair` is a transparent u32, any bits a
        // valid pair), and the buffer is 64-byte aligned.
        let pairs = unsafe { &mut *pair_pointer(back) };
        match Frame::new(pairs, WIDTH / 2, rows.clamp(1, HEIGHT), STRIDE / 2) {
            Some(frame) => frame.with_wide_pixels().with_batched_walls(),
            None => unreachable!("at most 160x240 is a valid frame"),
        }
    }

    /// The back buffer made all black, for a screen drawn from nothing
    /// (the menu): what is drawn on it next is not known to be black.
    pub fn cleared_frame(&mut self) -> Frame<'_, Rgba5551> {
        let back = self.shown ^ 1;
        self.black_from[back] = HEIGHT;
        // SAFETY: as in `back_frame`.
        let pixels = unsafe { &mut *buffer_pointer(back) };
        pixels.fill(Rgba5551(0));
        full_frame(pixels)
    }

    /// Makes the back buffer black from row `first` to the bottom (where
    /// no view is drawn), unless it is already.
    pub fn black_below(&mut self, first: usize) {
        let back = self.shown ^ 1;
        if self.black_from[back] <= first {
            return;
        }
        // SAFETY: as in `back_frame`.
        let pixels = unsafe { &mut *buffer_pointer(back) };
        for row in pixels.chunks_exact_mut(STRIDE).skip(first) {
            row.fill(Rgba5551(0));
        }
        self.black_from[back] = first;
    }

    /// Shows the back buffer from the next vertical blank; the old front
    /// buffer becomes the back buffer. Returns the Count reading taken
    /// when the frame had been written back from the data cache for the
    /// VI, before waiting: where drawing the frame ends.
    pub fn present(&mut self) -> u32 {
        let back = self.shown ^ 1;
        // The whole data cache (512 lines) rather than the buffer's 9,840
        // lines one by one: only what the cache holds can be dirty.
        cache::write_back_invalidate_all_data();
        let drawn = cp0::count();
        vi::wait_for_vertical_blank();
        vi::set_origin(physical_address(buffer_pointer(back)));
        self.shown = back;
        SHOWN_IS_SECOND.store(back == 1, Ordering::Relaxed);
        rsp::mark_frame();
        drawn
    }
}

fn full_frame(pixels: &mut [Rgba5551; PIXELS]) -> Frame<'_, Rgba5551> {
    match Frame::new(pixels, WIDTH, HEIGHT, STRIDE) {
        Some(frame) => frame,
        // 320x240 is far inside the renderer's limits.
        None => unreachable!("320x240 is a valid frame"),
    }
}

/// The screen as the crash report draws on it: the buffer on screen.
pub struct CrashScreen {
    pixels: &'static mut [Rgba5551; PIXELS],
}

impl CrashScreen {
    /// Takes the buffer on screen (programming the VI first if the crash
    /// came before it was).
    ///
    /// Only for the crash report: the main loop has stopped for good and
    /// will never touch its `Video` again.
    pub(super) fn take(tv: TvType) -> CrashScreen {
        if !VI_READY.load(Ordering::Relaxed) {
            vi::init(tv, physical_address(buffer_pointer(0)));
            VI_READY.store(true, Ordering::Relaxed);
            SHOWN_IS_SECOND.store(false, Ordering::Relaxed);
        }
        let shown = usize::from(SHOWN_IS_SECOND.load(Ordering::Relaxed));
        // SAFETY: the main loop is stopped (see above), so nothing else
        // holds a reference into the buffers; the crash path runs once.
        let pixels = unsafe { &mut *buffer_pointer(shown) };
        CrashScreen { pixels }
    }

    /// The shown buffer, to draw on.
    pub fn frame(&mut self) -> Frame<'_, Rgba5551> {
        full_frame(self.pixels)
    }

    /// Keeps the picture up forever: writes it back for the VI and keeps
    /// sending frame markers (so an emulator can still take screenshots).
    pub fn hold(self) -> ! {
        loop {
            cache::write_back_data(&*self.pixels);
            vi::wait_for_vertical_blank();
            rsp::mark_frame();
        }
    }
}
