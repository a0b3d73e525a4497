//! The player's state as the desktop prints it: one JSON object per line,
//! keys in a fixed order, 16.16 numbers as their exact decimal value.
//!
//! ```text
//! {"tick":1,"x":128,"y":130.5625,"z":0,"view_z":41,"angle":90,"sector":0,"world":"5d3f0a17"}
//! {"tick":812,"x":3008,"y":-4800,"z":0,"view_z":41,"angle":90,"sector":67,"world":"0c61e2b9","exit":"normal"}
//! ```
//!
//! The seven keys of the player always come first, in this order; then
//! `world`, the hash of every sector's state and every mover
//! ([`crate::specials::World::hash`]) as eight hex digits, so that a
//! line checks the whole level; `exit` follows only once the level has
//! ended (`"normal"` or `"secret"`). A reader of the first seven keys
//! reads every line.
//!
//! Every frontend prints this same line (the desktop's `--trace`, the N64's
//! final demo state over ISViewer), so traces from different machines
//! compare byte for byte. It needs no allocation.

use core::fmt::{self, Display};

use crate::game::PlayerState;
use crate::math::Fx;

/// Displays a 16.16 number as its exact decimal expansion: at most 16
/// fractional digits, trailing zeros dropped, no exponent.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Exact(pub Fx);

impl Display for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits = self.0.to_bits();
        // i32::MIN has no positive i32; u64 holds every magnitude.
        let magnitude = u64::from(bits.unsigned_abs());
        let sign = if bits < 0 { "-" } else { "" };
        let whole = magnitude >> 16;
        let frac = magnitude & 0xFFFF;
        if frac == 0 {
            return write!(f, "{sign}{whole}");
        }
        // frac / 2^16 = frac * 5^16 / 10^16: exactly 16 decimal digits.
        let mut digits = frac * 152_587_890_625;
        let mut text = [b'0'; 16];
        for slot in text.iter_mut().rev() {
            *slot = b'0' + (digits % 10) as u8;
            digits /= 10;
        }
        let kept = 16 - text.iter().rev().take_while(|&&d| d == b'0').count();
        // ASCII digits are valid UTF-8.
        let fraction = core::str::from_utf8(&text[..kept]).map_err(|_| fmt::Error)?;
        write!(f, "{sign}{whole}.{fraction}")
    }
}

/// The trace line for `state`, without the newline.
#[derive(Copy, Clone, Debug)]
pub struct StateLine<'a>(pub &'a PlayerState);

impl Display for StateLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.0;
        write!(
            f,
            "{{\"tick\":{},\"x\":{},\"y\":{},\"z\":{},\"view_z\":{},\"angle\":{},\"sector\":{}",
            state.tick,
            Exact(state.pos.x),
            Exact(state.pos.y),
            Exact(state.z),
            Exact(state.view_z),
            Exact(state.angle.degrees()),
            state.sector.0,
        )?;
        write!(f, ",\"world\":\"{:08x}\"", state.world)?;
        if let Some(exit) = state.exit {
            write!(f, ",\"exit\":\"{}\"", exit.name())?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::{String, ToString};

    use super::*;
    use crate::math::{Angle, Vec2};
    use crate::world::SectorId;

    fn exact(bits: i32) -> String {
        Exact(Fx::from_bits(bits)).to_string()
    }

    // The same cases as desktop/src/trace.rs, so the two stay in step.
    #[test]
    fn whole_numbers_have_no_point() {
        assert_eq!(exact(0), "0");
        assert_eq!(exact(128 << 16), "128");
        assert_eq!(exact(-(5 << 16)), "-5");
    }

    #[test]
    fn fractions_are_exact() {
        assert_eq!(exact(0x8000), "0.5");
        assert_eq!(exact(-0x8000), "-0.5");
        assert_eq!(exact(1), "0.0000152587890625");
        assert_eq!(exact(-1), "-0.0000152587890625");
        assert_eq!(exact(0xFFFF), "0.9999847412109375");
        assert_eq!(exact(6554), "0.100006103515625");
        assert_eq!(exact((3 << 16) + 0x2000), "3.125");
    }

    #[test]
    fn the_extremes() {
        assert_eq!(exact(i32::MAX), "32767.9999847412109375");
        assert_eq!(exact(i32::MIN), "-32768");
    }

    #[test]
    fn exact_agrees_with_f64_for_every_kind_of_value() {
        // Every 16.16 value is an exact f64, so parsing the text must give
        // back the very same bits.
        for bits in [
            1,
            -1,
            6554,
            0x7FFF_FFFF,
            -0x7FFF_FFFF,
            123_456_789,
            -987_654,
        ] {
            let text = exact(bits);
            let back: f64 = text.parse().unwrap();
            assert_eq!(back, Fx::from_bits(bits).to_num::<f64>(), "{text}");
        }
    }

    #[test]
    fn a_line_has_the_keys_in_order() {
        let state = PlayerState {
            tick: 7,
            pos: Vec2::new(Fx::from_num(128), Fx::from_bits((130 << 16) + 0x9000)),
            z: Fx::ZERO,
            view_z: Fx::from_num(41),
            angle: Angle::from_int_degrees(-90),
            sector: SectorId(3),
            exit: None,
            world: 0x00c0_ffee,
        };
        assert_eq!(
            StateLine(&state).to_string(),
            r#"{"tick":7,"x":128,"y":130.5625,"z":0,"view_z":41,"angle":270,"sector":3,"world":"00c0ffee"}"#
        );
        // The tick a level ends, and after: one more key, last.
        let ended = PlayerState {
            exit: Some(crate::game::Exit::Secret),
            ..state
        };
        assert_eq!(
            StateLine(&ended).to_string(),
            r#"{"tick":7,"x":128,"y":130.5625,"z":0,"view_z":41,"angle":270,"sector":3,"world":"00c0ffee","exit":"secret"}"#
        );
    }
}
