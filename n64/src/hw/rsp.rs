//! The frame marker: an empty RSP task sent once per shown frame.
//!
//! This program draws with the CPU alone, but mupen64plus counts frames
//! (for `--testshots`) in graphics tasks, not in vertical blanks: without
//! a task per frame it never takes a screenshot. So every shown frame
//! sends a graphics task whose 8-byte microcode is one rsp-hle knows as
//! "nothing to emulate" (its checksum is 0x278), which completes at once
//! and sends nothing to the video plugin (a real display list would stop
//! glide64mk2 from showing the CPU's framebuffer).
//!
//! On a console the RSP runs IMEM, not the task description: IMEM is set
//! to a single `break`, so the RSP halts again at once and nothing else
//! happens.

use super::{physical_address, Register};

// SAFETY (all): RSP memory and register addresses from the N64 memory
// map; DMEM 0xFC0.. (the task description) and IMEM 0 are used by nothing
// else in this program.
const SP_STATUS: Register = unsafe { Register::at(0x0404_0010) };
const SP_PC: Register = unsafe { Register::at(0x0408_0000) };
const IMEM_FIRST_WORD: Register = unsafe { Register::at(0x0400_1000) };
/// Where the RSP boot code (and rsp-hle) expects the task description.
const DMEM_TASK: u32 = 0x0400_0FC0;

/// SP_STATUS read bit: halted.
const STATUS_HALT: u32 = 1 << 0;
/// SP_STATUS write: clear halt, clear broke, clear interrupt, clear single
/// step, set "interrupt on break". mupen64plus re-halts the RSP only
/// through that interrupt; without it the next task would wait forever.
const START_TASK: u32 = 0x12D;

/// OSTask type of a graphics task.
const TASK_TYPE_GRAPHICS: u32 = 1;
/// RSP opcode `break`.
const RSP_BREAK: u32 = 0x0000_000D;

/// The "nothing to emulate" microcode: rsp-hle sums its first
/// `ucode_size / 2` bytes to 0x278 and completes the task.
#[repr(C, align(8))]
struct Microcode([u8; 8]);
static EMPTY_MICROCODE: Microcode = Microcode([0x9E, 0x9E, 0x9E, 0x9E, 0, 0, 0, 0]);

/// Polls of SP_STATUS before giving up on one frame's marker (the RSP
/// should be halted long before; a missing marker only costs a
/// screenshot, never the frame).
const HALT_WAIT_POLLS: u32 = 100_000;

/// Sends one frame marker.
pub(super) fn mark_frame() {
    let mut polls = 0;
    while SP_STATUS.read() & STATUS_HALT == 0 {
        polls += 1;
        if polls == HALT_WAIT_POLLS {
            return;
        }
    }
    // The RSP reads RDRAM directly: make sure it sees the bytes.
    super::cache::write_back_data(&EMPTY_MICROCODE);
    let mut task = [0u32; 16];
    task[0] = TASK_TYPE_GRAPHICS;
    task[4] = physical_address(&EMPTY_MICROCODE);
    task[5] = core::mem::size_of::<Microcode>() as u32;
    for (i, word) in task.iter().enumerate() {
        // SAFETY: the 64-byte task description area at the end of DMEM.
        unsafe { Register::at(DMEM_TASK + 4 * i as u32) }.write(*word);
    }
    IMEM_FIRST_WORD.write(RSP_BREAK);
    SP_PC.write(0);
    SP_STATUS.write(START_TASK);
}
