//! The demo embedded at build time (`n64/demos/default.demo`, in the
//! desktop's `COUNT FORWARD STRAFE TURN` format, parsed by `build.rs`).
//!
//! At boot the ROM plays it from tick 0 on the default level and reports
//! the final player state; the desktop's `--headless --demo` must print
//! the same line, byte for byte.

use engine::game::Input;

/// The level the demo plays on, by its name in the level pack: the
/// desktop's built-in level (`desktop::DEFAULT_MAP_NAME`), so the two
/// frontends' demo results can be compared. The ROM starts on it too
/// when its pack has it.
pub const DEFAULT_LEVEL: &str = "e1_hangar";

/// `count` ticks of the same input.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DemoRun {
    /// Ticks.
    pub count: u32,
    /// The input held for them.
    pub input: Input,
}

/// A demo: runs of input, in order.
#[derive(Copy, Clone, Debug)]
pub struct Demo {
    /// Where it came from, relative to the repository.
    pub source: &'static str,
    /// Its runs.
    pub runs: &'static [DemoRun],
}

include!(concat!(env!("OUT_DIR"), "/demo.rs"));

impl Demo {
    /// Total ticks.
    pub fn total_ticks(&self) -> u64 {
        self.runs.iter().map(|r| u64::from(r.count)).sum()
    }

    /// Plays the demo: one input per tick, then `None`.
    pub fn inputs(&self) -> DemoInputs {
        DemoInputs {
            runs: self.runs,
            run: 0,
            done_in_run: 0,
        }
    }
}

/// The inputs of a demo, tick by tick.
#[derive(Clone, Debug)]
pub struct DemoInputs {
    runs: &'static [DemoRun],
    run: usize,
    done_in_run: u32,
}

impl Iterator for DemoInputs {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        loop {
            let run = self.runs.get(self.run)?;
            if self.done_in_run < run.count {
                self.done_in_run += 1;
                return Some(run.input);
            }
            self.run += 1;
            self.done_in_run = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_expand_tick_by_tick_and_skip_empty_runs() {
        static RUNS: [DemoRun; 3] = [
            DemoRun {
                count: 2,
                input: Input {
                    forward: 100,
                    strafe: 0,
                    turn: 0,
                    press_use: false,
                },
            },
            DemoRun {
                count: 0,
                input: Input {
                    forward: -1,
                    strafe: 0,
                    turn: 0,
                    press_use: false,
                },
            },
            DemoRun {
                count: 1,
                input: Input {
                    forward: 0,
                    strafe: 0,
                    turn: 5,
                    press_use: false,
                },
            },
        ];
        let demo = Demo {
            source: "test",
            runs: &RUNS,
        };
        let mut inputs = demo.inputs();
        assert_eq!(inputs.next(), Some(Input::new(100, 0, 0)));
        assert_eq!(inputs.next(), Some(Input::new(100, 0, 0)));
        assert_eq!(inputs.next(), Some(Input::new(0, 0, 5)));
        assert_eq!(inputs.next(), None);
        assert_eq!(demo.total_ticks(), 3);
    }

    #[test]
    fn the_embedded_demo_is_not_empty() {
        assert!(DEFAULT_DEMO.total_ticks() > 0);
    }
}
