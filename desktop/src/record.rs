//! Recording demos: the inputs the game received, tick by tick, written
//! in the format `--demo` plays ([`crate::demo`]), runs of identical ticks
//! on one line.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use engine::game::Input;

/// Run-length encodes inputs into demo lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Runs {
    current: Option<(u32, Input)>,
}

impl Runs {
    /// Adds one tick of `input`; returns a finished line when the run
    /// before it ended.
    pub fn push(&mut self, input: Input) -> Option<String> {
        match &mut self.current {
            Some((count, same)) if *same == input && *count < u32::MAX => {
                *count += 1;
                None
            }
            _ => self.current.replace((1, input)).map(line_of),
        }
    }

    /// The line of the run in progress, if any; the encoder is then empty.
    pub fn finish(&mut self) -> Option<String> {
        self.current.take().map(line_of)
    }
}

fn line_of((count, i): (u32, Input)) -> String {
    format!("{count} {} {} {}", i.forward, i.strafe, i.turn)
}

/// The whole demo text for `ticks`, after a header naming the map.
pub fn demo_text(map: &str, ticks: impl IntoIterator<Item = Input>) -> String {
    let mut text = header(map);
    let mut runs = Runs::default();
    for input in ticks {
        if let Some(l) = runs.push(input) {
            text.push_str(&l);
            text.push('\n');
        }
    }
    if let Some(l) = runs.finish() {
        text.push_str(&l);
        text.push('\n');
    }
    text
}

/// The header comment: what this is and which map it was played on.
pub fn header(map: &str) -> String {
    format!(
        "# portalcast demo recorded by desktop: COUNT FORWARD STRAFE TURN [USE] per line\n\
         # map: {map}\n"
    )
}

/// A demo file being recorded.
#[derive(Debug)]
pub struct Recorder {
    path: PathBuf,
    out: BufWriter<File>,
    runs: Runs,
}

impl Recorder {
    /// Creates (or truncates) `path` and writes the header naming `map`.
    pub fn create(path: &Path, map: &str) -> Result<Recorder, String> {
        let file = File::create(path)
            .map_err(|e| format!("cannot create demo file {}: {e}", path.display()))?;
        let mut r = Recorder {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            runs: Runs::default(),
        };
        let text = header(map);
        r.out
            .write_all(text.as_bytes())
            .map_err(|e| r.write_error(e))?;
        Ok(r)
    }

    /// Records one tick of `input`.
    pub fn record(&mut self, input: Input) -> Result<(), String> {
        if let Some(line) = self.runs.push(input) {
            writeln!(self.out, "{line}").map_err(|e| self.write_error(e))?;
        }
        Ok(())
    }

    /// Writes the last run and flushes the file.
    pub fn finish(mut self) -> Result<(), String> {
        if let Some(line) = self.runs.finish() {
            writeln!(self.out, "{line}").map_err(|e| self.write_error(e))?;
        }
        self.out.flush().map_err(|e| self.write_error(e))
    }

    fn write_error(&self, e: std::io::Error) -> String {
        format!("cannot write demo file {}: {e}", self.path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::{parse_demo, ticks};

    #[test]
    fn runs_collapse_identical_ticks() {
        let inputs = [
            Input::new(100, 0, 0),
            Input::new(100, 0, 0),
            Input::new(100, 0, 0),
            Input::new(50, -50, 3),
            Input::IDLE,
            Input::IDLE,
        ];
        let text = demo_text("maps/x.map", inputs);
        assert_eq!(
            text,
            "# portalcast demo recorded by desktop: COUNT FORWARD STRAFE TURN [USE] per line\n\
             # map: maps/x.map\n\
             3 100 0 0\n1 50 -50 3\n2 0 0 0\n"
        );
    }

    #[test]
    fn a_recording_parses_back_to_the_same_ticks() {
        let inputs: Vec<Input> = (0..200)
            .map(|i| Input::new((i % 7) * 30 - 100, -(i % 3) * 50, (i / 10) % 5 - 2))
            .collect();
        let text = demo_text("m", inputs.iter().copied());
        let demo = parse_demo(&text, "rec.demo").unwrap();
        assert_eq!(ticks(&demo).collect::<Vec<_>>(), inputs);
        assert_eq!(demo_text("m", []), header("m"));
    }

    #[test]
    fn the_recorder_writes_the_file() {
        let path = std::env::temp_dir().join(format!("desktop-rec-{}.demo", std::process::id()));
        let mut r = Recorder::create(&path, "built-in").unwrap();
        for _ in 0..5 {
            r.record(Input::new(0, 0, 5)).unwrap();
        }
        r.record(Input::IDLE).unwrap();
        r.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.ends_with("# map: built-in\n5 0 0 5\n1 0 0 0\n"),
            "{text}"
        );
        std::fs::remove_file(&path).unwrap();
    }
}
