//! Trace lines: the player's state as one JSON object per line.
//!
//! ```text
//! {"tick":1,"x":128,"y":130.5625,"z":0,"view_z":41,"angle":90,"sector":0}
//! ```
//!
//! Keys always come in this order. Map units and degrees are printed as
//! the exact decimal value of the 16.16 number (at most 16 fractional
//! digits, trailing zeros dropped, no exponent), so a trace compares byte
//! for byte across machines and nothing is lost on the way out.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use engine::game::PlayerState;

pub use engine::trace::Exact;

/// One trace line for `state`, without the newline.
pub fn line(state: &PlayerState) -> String {
    engine::trace::StateLine(state).to_string()
}

/// A trace file being written, one line per [`Trace::record`].
#[derive(Debug)]
pub struct Trace {
    path: PathBuf,
    out: BufWriter<File>,
}

impl Trace {
    /// Creates (or truncates) the file at `path`.
    pub fn create(path: &Path) -> Result<Trace, String> {
        let file = File::create(path)
            .map_err(|e| format!("cannot create trace file {}: {e}", path.display()))?;
        Ok(Trace {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        })
    }

    /// Appends the line for `state`.
    pub fn record(&mut self, state: &PlayerState) -> Result<(), String> {
        writeln!(self.out, "{}", line(state)).map_err(|e| self.write_error(e))
    }

    /// Flushes everything to disk (dropping would swallow a late error).
    pub fn finish(mut self) -> Result<(), String> {
        self.out.flush().map_err(|e| self.write_error(e))
    }

    fn write_error(&self, e: std::io::Error) -> String {
        format!("cannot write trace file {}: {e}", self.path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::math::Fx;
    use engine::math::{Angle, Vec2};
    use engine::world::SectorId;

    fn exact(bits: i32) -> String {
        Exact(Fx::from_bits(bits)).to_string()
    }

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
        // 0.1 as 16.16 is 6554/65536.
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
        };
        assert_eq!(
            line(&state),
            r#"{"tick":7,"x":128,"y":130.5625,"z":0,"view_z":41,"angle":270,"sector":3}"#
        );
    }
}
