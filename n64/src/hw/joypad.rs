//! Controller 1, read over the joybus once per call.
//!
//! The command block asks channel 0 for its buttons and stick ("read
//! buttons", joybus command 0x01) and leaves the other channels alone:
//!
//! ```text
//! FF 01 04 01 | b b x y | FE ... | byte 63 = 01
//! pad tx rx cmd  reply    end        "run the commands"
//! ```

use n64::controls::PadState;

use super::si::Serial;

/// Offset of the reply's rx-length byte, whose top bits report errors.
const STATUS_BYTE: usize = 2;
/// rx-length error bits: no device (0x80), overrun (0x40).
const NO_DEVICE: u8 = 0x80;
/// Offset of the 4-byte reply.
const REPLY: usize = 4;

const fn read_command_block() -> [u8; 64] {
    let mut block = [0u8; 64];
    block[0] = 0xFF; // padding, skipped by the PIF
    block[1] = 0x01; // bytes sent
    block[2] = 0x04; // bytes expected back
    block[3] = 0x01; // command: read buttons and stick
    block[4] = 0xFF;
    block[5] = 0xFF;
    block[6] = 0xFF;
    block[7] = 0xFF;
    block[8] = 0xFE; // end of commands
    block[63] = 0x01; // PIF control: run the joybus commands
    block
}

/// Controller 1.
#[derive(Debug)]
pub struct Joypad {
    serial: Serial,
}

impl Joypad {
    pub(super) fn new(serial: Serial) -> Joypad {
        Joypad { serial }
    }

    /// Reads the buttons and the stick now. A missing controller reads as
    /// released buttons and a centred stick.
    pub fn read(&mut self) -> PadState {
        let reply = self.serial.exchange(&read_command_block());
        if reply[STATUS_BYTE] & 0xC0 != 0 {
            return PadState {
                connected: reply[STATUS_BYTE] & NO_DEVICE == 0,
                ..PadState::default()
            };
        }
        PadState {
            connected: true,
            buttons: u16::from_be_bytes([reply[REPLY], reply[REPLY + 1]]),
            stick_x: reply[REPLY + 2] as i8,
            stick_y: reply[REPLY + 3] as i8,
        }
    }
}
