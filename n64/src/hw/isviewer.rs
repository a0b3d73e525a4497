//! The IS-Viewer 64 debug port: text out to a development cartridge, a
//! flash cartridge that emulates one (SummerCart64), or an emulator
//! (mupen64plus prints each line as `Core: IS64: <line>`).
//!
//! Protocol, as mupen64plus and the SummerCart64 implement it: the text
//! goes into the buffer at cartridge address 0x13FF0020 as big-endian
//! words, then its length is written to 0x13FF0014; the receiver prints
//! complete lines. mupen64plus keeps at most 512 bytes of an unfinished
//! line, so this module only ever sends whole lines, each at most
//! [`MAX_LINE`] bytes.
//!
//! A plain console has nothing at that address, so the port is probed at
//! boot (libdragon's way: write a magic word, read it back) and every
//! write is skipped when it is absent.

use core::fmt;

use n64::text::LineBuffer;

use super::pi::CartWord;

// SAFETY (all): the IS-Viewer window in cartridge space, used by nothing
// else in this program.
const MAGIC: CartWord = unsafe { CartWord::at(0x13FF_0000) };
const LENGTH: CartWord = unsafe { CartWord::at(0x13FF_0014) };
const BUFFER: u32 = 0x13FF_0020;

/// "IS64".
const MAGIC_VALUE: u32 = 0x4953_3634;

/// Longest line sent, newline included.
pub const MAX_LINE: usize = 256;

/// The debug port; writes go nowhere when no IS-Viewer answered.
#[derive(Copy, Clone, Debug)]
pub struct DebugPort {
    present: bool,
}

impl DebugPort {
    /// Probes the port.
    pub(super) fn detect() -> DebugPort {
        MAGIC.write(MAGIC_VALUE);
        DebugPort {
            present: MAGIC.read() == MAGIC_VALUE,
        }
    }

    /// A second handle for the exception and panic reports, which run
    /// after the main loop has stopped.
    pub(super) fn for_crash_report() -> DebugPort {
        DebugPort::detect()
    }

    /// Sends one line (the newline is added), cut at [`MAX_LINE`] bytes.
    pub fn line(&mut self, args: fmt::Arguments<'_>) {
        if !self.present {
            return;
        }
        let mut text = LineBuffer::<MAX_LINE>::new();
        // A full buffer truncates; formatting itself cannot fail.
        let _ = fmt::write(&mut text, args);
        text.truncate(MAX_LINE - 1);
        text.push_byte(b'\n');
        self.send(text.as_bytes());
    }

    fn send(&mut self, bytes: &[u8]) {
        for (i, chunk) in bytes.chunks(4).enumerate() {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            // SAFETY: inside the IS-Viewer buffer: at most MAX_LINE bytes
            // from 0x13FF0020, well below its end at 0x13FF1000.
            let cell = unsafe { CartWord::at(BUFFER + 4 * i as u32) };
            cell.write(u32::from_be_bytes(word));
        }
        LENGTH.write(bytes.len() as u32);
    }
}
