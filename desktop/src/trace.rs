//! Trace lines: the player's state as one JSON object per line.
//!
//! ```text
//! {"tick":1,"x":128,"y":130.5625,"z":0,"view_z":41,"angle":90,"sector":0,"world":"5d3f0a17"}
//! ```
//!
//! Keys always come in this order (`exit` last, on the tick a level ends
//! and after; see [`engine::trace`]). Map units and degrees are printed as
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

    // (The line's format is tested with `engine::trace::StateLine`, which
    // `line` prints; the file end to end in tests/headless.rs.)

    #[test]
    fn a_trace_that_cannot_be_created_names_its_path() {
        // A path below a file: no directory there, on any machine.
        let file = std::env::temp_dir().join(format!("trace-parent-{}", std::process::id()));
        std::fs::write(&file, b"").unwrap();
        let path = file.join("t.jsonl");
        let err = Trace::create(&path).unwrap_err();
        std::fs::remove_file(&file).unwrap();
        assert!(err.starts_with("cannot create trace file "), "{err}");
        assert!(err.contains(&path.display().to_string()), "{err}");
    }
}
