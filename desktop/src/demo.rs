//! Demo files: scripted input, one line per run of identical ticks.
//!
//! ```text
//! # walk forward for a second, then turn left for half a second
//! 35 100 0 0
//! 17 0 0 5      # 5 degrees per tick
//! ```
//!
//! Each non-blank, non-comment line is `COUNT FORWARD STRAFE TURN`: hold
//! that input for COUNT ticks. FORWARD and STRAFE are percentages of full
//! speed from -100 to 100 (backwards and left negative); TURN is whole
//! degrees per tick, left positive, the units of [`engine::game::Input`].

use engine::game::Input;

/// Largest turn per tick a demo line may ask for, in degrees: a full turn;
/// anything larger is a typo.
pub const MAX_TURN: i64 = 360;

/// A parsed demo: `(count, input)` runs, in order.
pub type Demo = Vec<(u32, Input)>;

/// Parses a demo file. `name` is used in error messages, which read
/// `NAME:LINE: message`.
pub fn parse_demo(text: &str, name: &str) -> Result<Demo, String> {
    let mut runs = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let at = |message: String| format!("{name}:{}: {message}", index + 1);
        let content = line.split('#').next().unwrap_or("");
        let fields: Vec<&str> = content.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        const NAMES: [&str; 4] = ["COUNT", "FORWARD", "STRAFE", "TURN"];
        if fields.len() < NAMES.len() {
            return Err(at(format!(
                "missing {}: a demo line is `COUNT FORWARD STRAFE TURN`",
                NAMES[fields.len()]
            )));
        }
        if fields.len() > NAMES.len() {
            return Err(at(format!(
                "unexpected `{}` after TURN: a demo line is `COUNT FORWARD STRAFE TURN`",
                fields[NAMES.len()]
            )));
        }
        let count = field(fields[0], "COUNT", 0, u32::MAX as i64).map_err(at)?;
        let forward = field(fields[1], "FORWARD", -100, 100).map_err(at)?;
        let strafe = field(fields[2], "STRAFE", -100, 100).map_err(at)?;
        let turn = field(fields[3], "TURN", -MAX_TURN, MAX_TURN).map_err(at)?;
        // The ranges above are inside Input's, so nothing is clamped.
        runs.push((
            count as u32,
            Input::new(forward as i32, strafe as i32, turn as i32),
        ));
    }
    Ok(runs)
}

/// One whole number within `min..=max`.
fn field(text: &str, what: &str, min: i64, max: i64) -> Result<i64, String> {
    let n: i64 = match text.parse() {
        Ok(n) => n,
        // Digits that overflow i64 are a number, just far out of range.
        Err(_) if is_integer_text(text) => {
            return Err(format!("{what} {text} is out of range ({min} to {max})"))
        }
        Err(_) => return Err(format!("{what} must be a whole number, not `{text}`")),
    };
    if what == "COUNT" && n < 0 {
        return Err(format!("COUNT {n} is negative: it is a number of ticks"));
    }
    if n < min || n > max {
        return Err(format!("{what} {n} is out of range ({min} to {max})"));
    }
    Ok(n)
}

fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Total ticks in a demo.
pub fn total_ticks(demo: &[(u32, Input)]) -> u64 {
    demo.iter().map(|&(n, _)| u64::from(n)).sum()
}

/// The demo's input, one item per tick.
pub fn ticks(demo: &[(u32, Input)]) -> impl Iterator<Item = Input> + '_ {
    demo.iter()
        .flat_map(|&(n, input)| std::iter::repeat_n(input, n as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Demo {
        parse_demo(text, "t.demo").unwrap()
    }

    fn err(text: &str) -> String {
        parse_demo(text, "t.demo").unwrap_err()
    }

    #[test]
    fn lines_become_runs() {
        let d = ok("35 100 0 0\n10 -50 25 -5\n");
        assert_eq!(
            d,
            vec![(35, Input::new(100, 0, 0)), (10, Input::new(-50, 25, -5)),]
        );
        assert_eq!(total_ticks(&d), 45);
    }

    #[test]
    fn comments_blank_lines_and_spacing() {
        let d = ok("# a demo\n\n   \n  2\t100  0 0   # run\n#1 1 1 1\n1 +5 -0 3#tight\r\n");
        assert_eq!(
            d,
            vec![(2, Input::new(100, 0, 0)), (1, Input::new(5, 0, 3))]
        );
        assert!(ok("").is_empty());
        assert!(ok("# nothing\n").is_empty());
    }

    #[test]
    fn a_zero_count_is_allowed_and_plays_nothing() {
        let d = ok("0 100 0 0\n1 0 0 0\n");
        assert_eq!(ticks(&d).collect::<Vec<_>>(), vec![Input::IDLE]);
    }

    #[test]
    fn ticks_expand_runs_in_order() {
        let d = ok("2 10 0 0\n1 0 0 1\n");
        let t: Vec<Input> = ticks(&d).collect();
        assert_eq!(
            t,
            vec![
                Input::new(10, 0, 0),
                Input::new(10, 0, 0),
                Input::new(0, 0, 1)
            ]
        );
    }

    #[test]
    fn extremes_are_in_range() {
        let d = ok("4294967295 -100 100 360\n1 100 -100 -360\n");
        assert_eq!(d[0], (u32::MAX, Input::new(-100, 100, 360)));
        assert_eq!(d[1], (1, Input::new(100, -100, -360)));
    }

    #[test]
    fn errors_name_the_file_and_line() {
        assert_eq!(
            err("1 0 0 0\n\n# c\n5 101 0 0\n"),
            "t.demo:4: FORWARD 101 is out of range (-100 to 100)"
        );
        assert_eq!(
            err("1 0 -101 0"),
            "t.demo:1: STRAFE -101 is out of range (-100 to 100)"
        );
        assert_eq!(
            err("1 0 0 361"),
            "t.demo:1: TURN 361 is out of range (-360 to 360)"
        );
        assert_eq!(
            err("1 0 0"),
            "t.demo:1: missing TURN: a demo line is `COUNT FORWARD STRAFE TURN`"
        );
        assert_eq!(
            err("7"),
            "t.demo:1: missing FORWARD: a demo line is `COUNT FORWARD STRAFE TURN`"
        );
        assert_eq!(
            err("1 0 0 0 0"),
            "t.demo:1: unexpected `0` after TURN: a demo line is `COUNT FORWARD STRAFE TURN`"
        );
        assert_eq!(
            err("1 fast 0 0"),
            "t.demo:1: FORWARD must be a whole number, not `fast`"
        );
        assert_eq!(
            err("1 0.5 0 0"),
            "t.demo:1: FORWARD must be a whole number, not `0.5`"
        );
        assert_eq!(
            err("-3 0 0 0"),
            "t.demo:1: COUNT -3 is negative: it is a number of ticks"
        );
        assert_eq!(
            err("4294967296 0 0 0"),
            "t.demo:1: COUNT 4294967296 is out of range (0 to 4294967295)"
        );
        assert_eq!(
            err("1 99999999999999999999 0 0"),
            "t.demo:1: FORWARD 99999999999999999999 is out of range (-100 to 100)"
        );
    }

    #[test]
    fn a_comment_can_hide_a_bad_field() {
        assert_eq!(ok("1 0 0 0 # 5 extra fields"), vec![(1, Input::IDLE)]);
    }
}
