//! Demo files: scripted input, one line per run of identical ticks.
//!
//! ```text
//! # walk forward for a second, then turn left for half a second
//! 35 100 0 0
//! 17 0 0 5      # 5 degrees per tick
//! ```
//!
//! Each non-blank, non-comment line is `COUNT FORWARD STRAFE TURN [USE]`: hold
//! that input for COUNT ticks. FORWARD and STRAFE are percentages of full
//! speed from -100 to 100 (backwards and left negative); TURN is whole
//! degrees per tick, left positive, the units of [`engine::game::Input`];
//! USE, 1 or 0 (or left out), holds the use key.

use engine::game::Input;

pub use engine::demo::MAX_TURN;

/// A parsed demo: `(count, input)` runs, in order.
pub type Demo = Vec<(u32, Input)>;

/// Parses a demo file (the grammar is [`engine::demo`]'s). `name` is used
/// in error messages, which read `NAME:LINE: message`.
pub fn parse_demo(text: &str, name: &str) -> Result<Demo, String> {
    let mut runs = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match engine::demo::parse_line(line) {
            Ok(Some(run)) => runs.push(run),
            Ok(None) => {}
            Err(e) => return Err(format!("{name}:{}: {e}", index + 1)),
        }
    }
    Ok(runs)
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
            "t.demo:1: missing TURN: a demo line is `COUNT FORWARD STRAFE TURN [USE]`"
        );
        assert_eq!(
            err("7"),
            "t.demo:1: missing FORWARD: a demo line is `COUNT FORWARD STRAFE TURN [USE]`"
        );
        assert_eq!(
            err("1 0 0 0 0 0"),
            "t.demo:1: unexpected `0` after USE: a demo line is `COUNT FORWARD STRAFE TURN [USE]`"
        );
        assert_eq!(err("1 0 0 0 2"), "t.demo:1: USE 2 is out of range (0 to 1)");
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
