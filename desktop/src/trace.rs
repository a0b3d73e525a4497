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
    use engine::math::{Angle, Fx, Vec2};
    use engine::world::SectorId;

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
