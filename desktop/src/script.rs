//! Key scripts (`--script-keys FILE`): key presses at exact ticks, for
//! tests and reproducible sessions.
//!
//! ```text
//! # hold W for a second, show the automap, quit after two seconds
//! 0 W down
//! 35 W up
//! 35 Tab down
//! 36 Tab up
//! 70 quit
//! ```
//!
//! Each line is `STEP KEY down`, `STEP KEY up` or `STEP quit`: STEP is the
//! number of 35 Hz steps done before the event (0: before the first), KEY
//! a key name as in the settings file. Scripted keys go through the key
//! bindings like real ones, so a script tests what a player would do.
//! Steps count paused ones too (noclip and fly pause the game), so they
//! are game ticks only while neither is on. `quit` ends the session after
//! that many steps, window or not.

use minifb::Key;

use crate::keys::parse_key;

/// What happens at a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// These keys (one, or both of an alias's) go down.
    Down(Vec<Key>),
    /// These keys come up.
    Up(Vec<Key>),
    /// The session ends.
    Quit,
}

/// One scripted event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Steps done before it happens.
    pub step: u64,
    /// What happens.
    pub what: What,
}

/// Parses a key script. `name` is used in errors, which read
/// `NAME:LINE: message`. Events are returned in step order (events at the
/// same step in file order).
pub fn parse_script(text: &str, name: &str) -> Result<Vec<Event>, String> {
    let mut events = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let at = |m: String| format!("{name}:{}: {m}", index + 1);
        let fields: Vec<&str> = line
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if fields.is_empty() {
            continue;
        }
        const SHAPE: &str = "a key script line is `STEP KEY down`, `STEP KEY up` or `STEP quit`";
        let step: u64 = fields[0].parse().map_err(|_| {
            at(format!(
                "STEP must be a whole number of steps, not `{}`",
                fields[0]
            ))
        })?;
        let what = match fields[1..] {
            ["quit"] => What::Quit,
            [key, dir @ ("down" | "up")] => {
                let keys = parse_key(key).ok_or_else(|| {
                    at(format!(
                        "`{key}` is not a key name (names as in the settings file: W, Up, Tab, F12...)"
                    ))
                })?;
                if dir == "down" {
                    What::Down(keys)
                } else {
                    What::Up(keys)
                }
            }
            [_, other] => return Err(at(format!("`{other}` should be `down` or `up`: {SHAPE}"))),
            _ => return Err(at(SHAPE.to_string())),
        };
        events.push(Event { step, what });
    }
    events.sort_by_key(|e| e.step);
    Ok(events)
}

/// The step a script quits at, if it does.
pub fn quit_step(events: &[Event]) -> Option<u64> {
    events.iter().find(|e| e.what == What::Quit).map(|e| e.step)
}

/// A script being played.
#[derive(Clone, Debug, Default)]
pub struct KeyScript {
    events: Vec<Event>,
    next: usize,
    down: Vec<Key>,
}

/// What a script did at one step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepEvents {
    /// Keys that went down.
    pub pressed: Vec<Key>,
    /// The script says to quit.
    pub quit: bool,
}

impl KeyScript {
    /// Plays `events`.
    pub fn new(events: Vec<Event>) -> KeyScript {
        KeyScript {
            events,
            next: 0,
            down: Vec::new(),
        }
    }

    /// Applies every event due once `step` steps are done.
    pub fn advance(&mut self, step: u64) -> StepEvents {
        let mut out = StepEvents::default();
        while let Some(e) = self.events.get(self.next).filter(|e| e.step <= step) {
            match &e.what {
                What::Down(keys) => {
                    for &k in keys {
                        if !self.down.contains(&k) {
                            self.down.push(k);
                            out.pressed.push(k);
                        }
                    }
                }
                What::Up(keys) => self.down.retain(|k| !keys.contains(k)),
                What::Quit => out.quit = true,
            }
            self.next += 1;
        }
        out
    }

    /// True while the script holds `key` down.
    pub fn is_down(&self, key: Key) -> bool {
        self.down.contains(&key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_parses_and_plays_in_step_order() {
        let events = parse_script(
            "# c\n0 W down\n\n35 W up # done\n10 shift down\n70 quit\n",
            "s",
        )
        .unwrap();
        assert_eq!(events.len(), 4);
        assert_eq!(quit_step(&events), Some(70));
        let mut s = KeyScript::new(events);
        let e = s.advance(0);
        assert_eq!(e.pressed, [Key::W]);
        assert!(s.is_down(Key::W) && !e.quit);
        assert_eq!(s.advance(5), StepEvents::default());
        assert_eq!(s.advance(10).pressed, [Key::LeftShift, Key::RightShift]);
        // A late call catches up with everything due.
        let e = s.advance(100);
        assert!(e.quit);
        assert!(!s.is_down(Key::W) && s.is_down(Key::LeftShift));
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let e = |t: &str| parse_script(t, "k.script").unwrap_err();
        assert_eq!(
            e("0 W down\nsoon W up"),
            "k.script:2: STEP must be a whole number of steps, not `soon`"
        );
        assert_eq!(
            e("3 Hyper down"),
            "k.script:1: `Hyper` is not a key name (names as in the settings file: W, Up, Tab, F12...)"
        );
        assert_eq!(
            e("3 W pressed"),
            "k.script:1: `pressed` should be `down` or `up`: a key script line is \
             `STEP KEY down`, `STEP KEY up` or `STEP quit`"
        );
        assert!(e("3").starts_with("k.script:1: a key script line is"));
        assert!(e("3 W down now").starts_with("k.script:1: a key script line is"));
    }
}
