//! Demo lines: scripted input, the format every frontend plays and records.
//!
//! ```text
//! # walk forward for a second, then turn left for half a second
//! 35 100 0 0
//! 17 0 0 5      # 5 degrees per tick
//! ```
//!
//! Each non-blank, non-comment line is `COUNT FORWARD STRAFE TURN [USE]`:
//! hold that input for COUNT ticks. FORWARD and STRAFE are percentages of
//! full speed from -100 to 100 (backwards and left negative); TURN is whole
//! degrees per tick, left positive, at most a full turn either way: the
//! units of [`Input`]. USE is 1 to hold the use key on those ticks, 0 (or
//! left out, as every line written before it existed) not to; holding it
//! acts once, as in DOOM. `#` starts a comment.
//!
//! The grammar is defined here once, line by line and without allocation,
//! so the desktop (`--demo`, `--record`), the N64 build (which embeds a
//! demo) and the fuzzer all read the same thing.

use core::fmt;

use crate::game::Input;

/// Largest turn per tick a line may ask for, in degrees: a full turn;
/// anything larger is a typo.
pub const MAX_TURN: i64 = 360;

/// The four fields every line has, in order, as error messages name them
/// (the fifth, USE, may be left out).
pub const FIELDS: [&str; 4] = ["COUNT", "FORWARD", "STRAFE", "TURN"];

/// What is wrong with a demo line. Borrowed text is the offending field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DemoError<'a> {
    /// Fewer than four fields; names the first one missing.
    Missing(&'static str),
    /// More than five fields; the first extra one.
    Unexpected(&'a str),
    /// A field that is not a whole number.
    NotANumber {
        /// The field's name.
        field: &'static str,
        /// Its text.
        text: &'a str,
    },
    /// A whole number outside the field's range.
    OutOfRange {
        /// The field's name.
        field: &'static str,
        /// Its text.
        text: &'a str,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A negative COUNT.
    NegativeCount(&'a str),
}

impl fmt::Display for DemoError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHAPE: &str = "a demo line is `COUNT FORWARD STRAFE TURN [USE]`";
        match self {
            DemoError::Missing(field) => write!(f, "missing {field}: {SHAPE}"),
            DemoError::Unexpected(text) => write!(f, "unexpected `{text}` after USE: {SHAPE}"),
            DemoError::NotANumber { field, text } => {
                write!(f, "{field} must be a whole number, not `{text}`")
            }
            DemoError::OutOfRange {
                field,
                text,
                min,
                max,
            } => write!(f, "{field} {text} is out of range ({min} to {max})"),
            DemoError::NegativeCount(text) => {
                write!(f, "COUNT {text} is negative: it is a number of ticks")
            }
        }
    }
}

/// One demo line: `Ok(None)` for a blank or comment line, `Ok(Some((count,
/// input)))` for a run of ticks.
pub fn parse_line(line: &str) -> Result<Option<(u32, Input)>, DemoError<'_>> {
    let content = line.split('#').next().unwrap_or("");
    let mut fields = content.split_whitespace();
    let mut values = [0i64; 4];
    for (k, name) in FIELDS.iter().enumerate() {
        let Some(text) = fields.next() else {
            return if k == 0 {
                Ok(None)
            } else {
                Err(DemoError::Missing(name))
            };
        };
        let (min, max) = match k {
            0 => (0, u32::MAX as i64),
            3 => (-MAX_TURN, MAX_TURN),
            _ => (-100, 100),
        };
        values[k] = field(text, name, min, max)?;
    }
    let press_use = match fields.next() {
        None => false,
        Some(text) => field(text, "USE", 0, 1)? == 1,
    };
    if let Some(extra) = fields.next() {
        return Err(DemoError::Unexpected(extra));
    }
    let [count, forward, strafe, turn] = values;
    // The ranges above are inside Input's, so nothing is clamped.
    let input = Input::new(forward as i32, strafe as i32, turn as i32).with_use(press_use);
    Ok(Some((count as u32, input)))
}

fn field<'a>(text: &'a str, name: &'static str, min: i64, max: i64) -> Result<i64, DemoError<'a>> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DemoError::NotANumber { field: name, text });
    }
    let range = DemoError::OutOfRange {
        field: name,
        text,
        min,
        max,
    };
    // Digits that overflow i64 are a number, just far out of range.
    let n: i64 = text.parse().map_err(|_| range)?;
    if name == "COUNT" && n < 0 {
        return Err(DemoError::NegativeCount(text));
    }
    if n < min || n > max {
        return Err(range);
    }
    Ok(n)
}

/// Formats one demo line (the inverse of [`parse_line`]; USE only when
/// held, so a line without it reads as before).
#[derive(Copy, Clone, Debug)]
pub struct Line(pub u32, pub Input);

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Line(count, input) = *self;
        write!(
            f,
            "{count} {} {} {}",
            input.forward, input.strafe, input.turn
        )?;
        if input.press_use {
            f.write_str(" 1")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_comments() {
        assert_eq!(parse_line("  # nothing"), Ok(None));
        assert_eq!(parse_line(""), Ok(None));
        assert_eq!(
            parse_line("35 100 -100 +5 # go"),
            Ok(Some((35, Input::new(100, -100, 5))))
        );
    }

    #[test]
    fn every_error() {
        assert_eq!(parse_line("3 1"), Err(DemoError::Missing("STRAFE")));
        assert_eq!(parse_line("3 1 2 3 1 0"), Err(DemoError::Unexpected("0")));
        assert!(matches!(
            parse_line("3 1 2 3 2"),
            Err(DemoError::OutOfRange { field: "USE", .. })
        ));
        assert!(matches!(
            parse_line("3 1 2 3 yes"),
            Err(DemoError::NotANumber { field: "USE", .. })
        ));
        assert!(matches!(
            parse_line("x 1 2 3"),
            Err(DemoError::NotANumber { field: "COUNT", .. })
        ));
        assert!(matches!(
            parse_line("1 101 0 0"),
            Err(DemoError::OutOfRange {
                field: "FORWARD",
                ..
            })
        ));
        assert!(matches!(
            parse_line("1 0 0 361"),
            Err(DemoError::OutOfRange { field: "TURN", .. })
        ));
        assert_eq!(parse_line("-1 0 0 0"), Err(DemoError::NegativeCount("-1")));
        assert!(matches!(
            parse_line("99999999999999999999999 0 0 0"),
            Err(DemoError::OutOfRange { field: "COUNT", .. })
        ));
    }

    #[test]
    fn formatting_round_trips() {
        extern crate std;
        use std::string::ToString;
        let (count, input) = (12, Input::new(-100, 37, -360));
        let text = Line(count, input).to_string();
        assert_eq!(text, "12 -100 37 -360", "no USE field unless held");
        assert_eq!(parse_line(&text), Ok(Some((count, input))));
        let pressing = input.with_use(true);
        let text = Line(count, pressing).to_string();
        assert_eq!(text, "12 -100 37 -360 1");
        assert_eq!(parse_line(&text), Ok(Some((count, pressing))));
    }

    #[test]
    fn use_is_an_optional_fifth_field() {
        assert_eq!(parse_line("5 0 0 0"), Ok(Some((5, Input::IDLE))));
        assert_eq!(parse_line("5 0 0 0 0"), Ok(Some((5, Input::IDLE))));
        assert_eq!(
            parse_line("5 0 0 0 1 # press"),
            Ok(Some((5, Input::IDLE.with_use(true))))
        );
    }
}
