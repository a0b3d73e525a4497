//! The command line, parsed by hand (a dozen flags do not need a parser
//! crate).
//!
//! Every flag takes the form `--name VALUE` or `--name=VALUE`. The shapes
//! documented in [`USAGE`] are a stable interface: tests, benchmarks and
//! other programs drive the binary with them.

use std::ffi::OsString;
use std::path::PathBuf;

use engine::config::{MAX_SCREEN_HEIGHT, MAX_SCREEN_WIDTH};

/// The `--help` text.
pub const USAGE: &str = "\
desktop: walk a level in a window, or run it headless

USAGE:
    desktop [OPTIONS]

With no options, opens a window on the built-in level (maps/e1_hangar.map).

CONTROLS:
    W/S or Up/Down      forward / back
    A/D                 strafe left / right
    Left/Right or Q/E   turn
    Shift (held)        walk at half speed (running is the default)
    Esc                 quit

OPTIONS:
    --map FILE          play FILE: map source text or a compiled map
    --demo FILE         play an input script: each line is
                        `COUNT FORWARD STRAFE TURN` for COUNT ticks;
                        FORWARD, STRAFE -100..100 (back/left negative),
                        TURN -360..360 whole degrees per tick (left
                        positive); `#` starts a comment. In a window the
                        demo plays at 35 Hz, then the keyboard takes over.
    --trace FILE        write the player's state after every tick to FILE,
                        one JSON object per line; the final state is also
                        printed on stdout when the run ends
    --headless          no window: one game tick and one rendered frame per
                        step, as fast as possible; prints the final state
    --frames N          stop after N frames; headless, one tick each
                        (default 1, or the demo's length with --demo);
                        in a window, N shown frames (default: until Esc)
    --screenshot FILE   write the last frame to FILE as an RGB PNG
    --width W           render width in pixels (default 320, at most 1024)
    --height H          render height in pixels (default 200, at most 768)
    --scale N           window size: N times the render size, 1 to 8
                        (default 3)
    -h, --help          print this help and exit
";

/// Default render width.
pub const DEFAULT_WIDTH: usize = 320;
/// Default render height.
pub const DEFAULT_HEIGHT: usize = 200;
/// Default window scale.
pub const DEFAULT_SCALE: usize = 3;
/// Largest window scale: 8 x 320 is already wider than most screens.
pub const MAX_SCALE: usize = 8;

/// Everything the command line can say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// `--map`: a map file instead of the built-in level.
    pub map: Option<PathBuf>,
    /// `--demo`: an input script.
    pub demo: Option<PathBuf>,
    /// `--trace`: where to write one JSON line per tick.
    pub trace: Option<PathBuf>,
    /// `--headless`: never open a window.
    pub headless: bool,
    /// `--frames`: how many frames to run.
    pub frames: Option<u64>,
    /// `--screenshot`: where to write the last frame.
    pub screenshot: Option<PathBuf>,
    /// Render width in pixels.
    pub width: usize,
    /// Render height in pixels.
    pub height: usize,
    /// Window scale factor.
    pub scale: usize,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            map: None,
            demo: None,
            trace: None,
            headless: false,
            frames: None,
            screenshot: None,
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            scale: DEFAULT_SCALE,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Print [`USAGE`] and exit successfully.
    Help,
    /// Run with these settings.
    Run(Args),
}

/// Parses the arguments after the program name. Errors are one line,
/// ready to print after `error: `.
pub fn parse<I>(args: I) -> Result<Command, String>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let mut out = Args::default();
    let mut iter = args.into_iter().map(Into::into);
    while let Some(raw) = iter.next() {
        let Some(arg) = raw.to_str() else {
            return Err(format!(
                "argument {} is not valid UTF-8",
                raw.to_string_lossy()
            ));
        };
        // `--name=value` carries its value inline; `--name value` takes
        // the next argument (which may itself start with `-`, as a file
        // name can).
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(OsString::from(v))),
            _ => (arg, None),
        };
        let mut value = |name: &str| -> Result<OsString, String> {
            match inline.clone().or_else(|| iter.next()) {
                Some(v) => Ok(v),
                None => Err(format!("{name} needs a value")),
            }
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "--headless" => {
                if inline.is_some() {
                    return Err("--headless takes no value".into());
                }
                out.headless = true;
            }
            "--map" => out.map = Some(value(name)?.into()),
            "--demo" => out.demo = Some(value(name)?.into()),
            "--trace" => out.trace = Some(value(name)?.into()),
            "--screenshot" => out.screenshot = Some(value(name)?.into()),
            "--frames" => out.frames = Some(number(name, &value(name)?, 0, u64::MAX)?),
            "--width" => {
                out.width = number(name, &value(name)?, 1, MAX_SCREEN_WIDTH as u64)? as usize
            }
            "--height" => {
                out.height = number(name, &value(name)?, 1, MAX_SCREEN_HEIGHT as u64)? as usize
            }
            "--scale" => out.scale = number(name, &value(name)?, 1, MAX_SCALE as u64)? as usize,
            _ if name.starts_with('-') => {
                return Err(format!("unknown option {name} (try --help)"));
            }
            _ => return Err(format!("unexpected argument {name} (try --help)")),
        }
    }
    Ok(Command::Run(out))
}

/// A whole number in `min..=max`.
fn number(name: &str, value: &OsString, min: u64, max: u64) -> Result<u64, String> {
    let text = value.to_string_lossy();
    let n: u64 = text
        .parse()
        .map_err(|_| format!("{name} takes a whole number, not `{text}`"))?;
    if n < min || n > max {
        return Err(format!("{name} must be from {min} to {max}, not {n}"));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Args, String> {
        match parse(args.iter().copied())? {
            Command::Run(a) => Ok(a),
            Command::Help => Err("help".into()),
        }
    }

    #[test]
    fn no_arguments_mean_the_defaults() {
        assert_eq!(run(&[]).unwrap(), Args::default());
        let a = Args::default();
        assert_eq!((a.width, a.height, a.scale), (320, 200, 3));
        assert!(!a.headless);
    }

    #[test]
    fn every_flag_in_both_spellings() {
        let a = run(&[
            "--headless",
            "--frames",
            "10",
            "--screenshot",
            "out.png",
            "--width=640",
            "--height",
            "400",
            "--demo",
            "walk.demo",
            "--trace=t.jsonl",
            "--map",
            "m.map",
            "--scale",
            "2",
        ])
        .unwrap();
        assert!(a.headless);
        assert_eq!(a.frames, Some(10));
        assert_eq!(a.screenshot, Some(PathBuf::from("out.png")));
        assert_eq!((a.width, a.height, a.scale), (640, 400, 2));
        assert_eq!(a.demo, Some(PathBuf::from("walk.demo")));
        assert_eq!(a.trace, Some(PathBuf::from("t.jsonl")));
        assert_eq!(a.map, Some(PathBuf::from("m.map")));
    }

    #[test]
    fn help_wins_wherever_it_is() {
        assert_eq!(parse(["--frames", "3", "--help"]), Ok(Command::Help));
        assert_eq!(parse(["-h"]), Ok(Command::Help));
    }

    #[test]
    fn a_value_may_look_like_a_flag() {
        // A file really can be called `-x`; the flag's value is the next
        // argument whatever it looks like.
        assert_eq!(run(&["--map", "-x"]).unwrap().map, Some("-x".into()));
    }

    #[test]
    fn frames_may_be_zero() {
        assert_eq!(run(&["--frames", "0"]).unwrap().frames, Some(0));
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        let e = |args: &[&str]| run(args).unwrap_err();
        assert_eq!(e(&["--map"]), "--map needs a value");
        assert_eq!(
            e(&["--frames", "ten"]),
            "--frames takes a whole number, not `ten`"
        );
        assert_eq!(
            e(&["--frames", "-1"]),
            "--frames takes a whole number, not `-1`"
        );
        assert_eq!(
            e(&["--width", "0"]),
            "--width must be from 1 to 1024, not 0"
        );
        assert_eq!(
            e(&["--height", "769"]),
            "--height must be from 1 to 768, not 769"
        );
        assert_eq!(e(&["--scale", "9"]), "--scale must be from 1 to 8, not 9");
        assert_eq!(e(&["--fast"]), "unknown option --fast (try --help)");
        assert_eq!(e(&["map.map"]), "unexpected argument map.map (try --help)");
        assert_eq!(e(&["--headless=yes"]), "--headless takes no value");
    }

    #[test]
    fn the_help_text_names_every_flag() {
        for flag in [
            "--map",
            "--demo",
            "--trace",
            "--headless",
            "--frames",
            "--screenshot",
            "--width",
            "--height",
            "--scale",
            "--help",
        ] {
            assert!(USAGE.contains(flag), "{flag} missing from USAGE");
        }
    }
}
