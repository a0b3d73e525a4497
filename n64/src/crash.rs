//! The crash report: what a panic or a CPU exception shows instead of a
//! silent reboot. The cause and the address go to the IS-Viewer and onto
//! the screen (a red panel over the last frame), and the console stays
//! there.

use core::fmt::Write as _;
use core::panic::PanicInfo;

use engine::render::{Pixel, Rgba5551};
use n64::overlay::{draw_text, fill_rect};
use n64::text::LineBuffer;

use crate::hw::boot::CrashKit;

/// The CPU's state when an exception was taken.
#[derive(Clone, Debug)]
pub struct ExceptionState {
    /// CP0 Cause.
    pub cause: u32,
    /// CP0 EPC: the faulting instruction (or the branch before it).
    pub epc: u32,
    /// CP0 BadVAddr: the faulting address, for address and TLB errors.
    pub bad_vaddr: u32,
    /// CP0 Status.
    pub status: u32,
    /// General registers $0..$31 (k0 and k1 read as 0: the handler's).
    pub registers: [u32; 32],
}

impl ExceptionState {
    /// The ExcCode field of Cause.
    pub fn code(&self) -> u32 {
        (self.cause >> 2) & 0x1F
    }

    /// Whether the faulting instruction is in a branch delay slot (then
    /// EPC points at the branch).
    pub fn in_delay_slot(&self) -> bool {
        self.cause & 0x8000_0000 != 0
    }
}

/// What went wrong.
pub enum Crash<'a> {
    /// A CPU exception.
    Exception(&'a ExceptionState),
    /// A Rust panic.
    Panic(&'a PanicInfo<'a>),
}

/// The R4300's exception codes.
fn exception_name(code: u32) -> &'static str {
    match code {
        0 => "interrupt",
        1 => "TLB modification",
        2 => "TLB miss on load or fetch",
        3 => "TLB miss on store",
        4 => "address error on load or fetch",
        5 => "address error on store",
        6 => "bus error on fetch",
        7 => "bus error on data",
        8 => "syscall",
        9 => "breakpoint",
        10 => "reserved instruction",
        11 => "coprocessor unusable",
        12 => "arithmetic overflow",
        13 => "trap",
        15 => "floating-point exception",
        23 => "watch",
        _ => "unknown exception",
    }
}

/// MIPS register names, for the register dump.
const REGISTER_NAMES: [&str; 32] = [
    "zr", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7",
    "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "t8", "t9", "k0", "k1", "gp", "sp", "s8", "ra",
];

/// Characters per line on screen (320 pixels of 4-pixel glyphs, less a
/// margin).
const SCREEN_COLUMNS: usize = 76;

/// Reports `crash` and stops the console.
pub fn report(crash: Crash<'_>, mut kit: CrashKit) -> ! {
    let mut summary = LineBuffer::<240>::new();
    // Writing to a LineBuffer cannot fail (it truncates).
    match &crash {
        Crash::Exception(state) => {
            let _ = write!(
                summary,
                "exception: {} (code {}) at pc 0x{:08x}{}, bad address 0x{:08x}; \
                 cause 0x{:08x} status 0x{:08x} ra 0x{:08x} sp 0x{:08x}",
                exception_name(state.code()),
                state.code(),
                state.epc,
                if state.in_delay_slot() {
                    " (delay slot)"
                } else {
                    ""
                },
                state.bad_vaddr,
                state.cause,
                state.status,
                state.registers[31],
                state.registers[29],
            );
        }
        Crash::Panic(info) => {
            let _ = write!(summary, "panic: {}", info.message());
            if let Some(at) = info.location() {
                let _ = write!(summary, " at {}:{}", at.file(), at.line());
            }
        }
    }
    kit.debug.line(format_args!("{}", summary.as_str()));

    let mut frame = kit.screen.frame();
    let red = Rgba5551::from_rgb(160, 0, 0);
    let white = Rgba5551::from_rgb(255, 255, 255);
    fill_rect(&mut frame, 0, 40, 320, 160, red);
    let heading = match crash {
        Crash::Exception(_) => "CPU EXCEPTION",
        Crash::Panic(_) => "PANIC",
    };
    draw_text(&mut frame, 8, 48, heading, white, 3);

    // The summary, wrapped.
    let mut y = 72;
    let text = summary.as_str();
    let mut rest = text;
    while !rest.is_empty() && y < 150 {
        let cut = wrap_point(rest, SCREEN_COLUMNS);
        draw_text(&mut frame, 8, y, &rest[..cut], white, 1);
        rest = rest[cut..].trim_start();
        y += 8;
    }

    // The registers, four to a line.
    if let Crash::Exception(state) = crash {
        let mut y = 152;
        for row in state.registers.chunks(4).zip(REGISTER_NAMES.chunks(4)) {
            let mut line = LineBuffer::<80>::new();
            for (value, name) in row.0.iter().zip(row.1) {
                let _ = write!(line, "{name} {value:08x}   ");
            }
            draw_text(&mut frame, 8, y, line.as_str(), white, 1);
            y += 6;
        }
    }
    kit.screen.hold()
}

/// Where to break `text` to fit `columns` characters: at the last space
/// that fits, or hard at `columns` (ASCII: the report's text is ASCII, but
/// the cut is moved back to a character boundary regardless).
fn wrap_point(text: &str, columns: usize) -> usize {
    if text.len() <= columns {
        return text.len();
    }
    let mut cut = columns;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    match text[..cut].rfind(' ') {
        Some(space) if space > 0 => space,
        _ => cut,
    }
}
