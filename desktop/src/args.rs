//! The command line, parsed by hand (a dozen flags do not need a parser
//! crate).
//!
//! Every flag takes the form `--name VALUE` or `--name=VALUE`. The shapes
//! documented in [`USAGE`] are a stable interface: tests, benchmarks and
//! other programs drive the binary with them.

use std::ffi::OsString;
use std::path::PathBuf;

use engine::config::{MAX_SCREEN_HEIGHT, MAX_SCREEN_WIDTH};
use engine::math::{Division, Fx};

use crate::config::MAX_FPS_CAP;

/// The `--help` text.
pub const USAGE: &str = "\
desktop: walk a level in a window, or run it headless

USAGE:
    desktop [OPTIONS]

With no options, opens a window on the built-in level (maps/e1_hangar.map).

CONTROLS (the defaults; rebind them in the settings file):
    W/S or Up/Down      forward / back
    A/D                 strafe left / right
    Left/Right          turn
    E or Space          use: open the door, press the switch in front
    Shift (held)        walk (running is the default; always_run = false
                        makes Shift run instead)
    Alt (held)          the turn keys strafe
    Tab                 automap (+ and - zoom)
    N                   noclip: a free camera through walls (the game waits)
    F                   fly: a camera that moves up and down (R/PageUp,
                        C/PageDown); with noclip, anywhere
    P                   print the position, sector and heights
    F12                 screenshot, next to the settings file
    M                   mouse turning on/off
    Esc                 quit
    Gamepad             N64 layout: stick moves and turns, C buttons (right
                        stick) and L/R strafe, Z walks, Start automap

SETTINGS:
    Keys, mouse, gamepad and window settings are read from desktop.cfg in
    the platform's configuration folder (~/.config/portalcast/ on Linux),
    written with the defaults on first run. Headless runs read it only when
    --config is given.

OPTIONS:
    --map FILE          play FILE: map source text, a compiled map, or a WAD
    --warp MAP          the map to play in a WAD: E1M1, MAP01, or a number
                        N for MAPnn (default: the WAD's first map). In
                        a window an exit goes on to the WAD's next map,
                        as DOOM's do (E1M1 to E1M2, a secret exit to
                        E1M9 or MAP31); headless, the run stops there
    --open              play a WAD's map with its doors open and lifts
                        lowered for good, as a walk-through (default: as
                        the game plays it, doors shut and lifts up, moved
                        by use and walk-over; --timedemo always compiles
                        them open, as the benchmark tables were measured)
    --watch             in the window, compile the map again whenever its
                        file changes and go on there, where the player
                        stands (a compile error is shown and the old
                        level kept); not headless
    --iwad FILE         textures for a PWAD's maps from this IWAD; without
                        --map, play the IWAD's own maps
    --demo FILE         play an input script: each line is
                        `COUNT FORWARD STRAFE TURN [USE]` for COUNT
                        ticks; FORWARD, STRAFE -100..100 (back/left
                        negative), TURN -360..360 whole degrees per tick
                        (left positive), USE 1 to hold use (0 or left
                        out: not); `#` starts a comment. In a window the
                        demo plays at 35 Hz, then the keyboard takes over.
    --record FILE       write the input the game received, every tick, to
                        FILE as a demo that --demo plays back exactly
    --trace FILE        write the player's state after every tick to FILE,
                        one JSON object per line; the final state is also
                        printed on stdout when the run ends
    --headless          no window: one game tick and one rendered frame per
                        step, as fast as possible; prints the final state
    --frames N          stop after N frames; headless, one tick each
                        (default: the key script's quit step, else the
                        demo's length, else 1); in a window, N shown
                        frames (default: until Esc); with --timedemo,
                        frames per run (default 500)
    --screenshot FILE   write the last frame to FILE as an RGB PNG
    --script-keys FILE  press keys at given ticks, for tests: each line is
                        `STEP KEY down`, `STEP KEY up` or `STEP quit`
                        (STEP: 35 Hz steps done before it; KEY as in the
                        settings file); `quit` ends the run after STEP steps
    --config FILE       read settings from FILE instead (written with the
                        defaults if missing)
    --timedemo          benchmark the renderer: no window, no blit, no
                        PNG; render --frames frames (default 500) from a
                        fixed, seeded set of viewpoints (the player starts
                        and points sampled inside the map, all facings) at
                        --width x --height, --runs times (default 5), and
                        print microseconds per frame and frames per second
                        per run and their median, min and max:
                        `timedemo: MAP WxH: N frames, median X µs/frame
                        (min A, max B over R runs), Y fps`
    --runs R            timedemo runs, 1 to 1000 (default 5)
    --seed S            timedemo viewpoint seed (default 1)
    --spin              timedemo views of a DOOM demo that turns in place:
                        the first player start, 256 facings 1.40625 degrees
                        apart (angleturn 256 a tic) from its own angle,
                        counter-clockwise, instead of the seeded set
    --walk bsp          the timedemo names its walk in its first line (the
                        only one: through the map's BSP, nearest subsector
                        first, as DOOM draws)
    --start X,Y,ANGLE   begin at (X, Y), facing ANGLE degrees (counter-
                        clockwise from east), on the floor there, instead
                        of the map's player start (a map editor's \"test
                        from here\"); an error if the point is outside
                        every sector
    --division WAY      how the renderer divides: `integer` or `doubles`
                        (guessed in doubles, settled in integers); the
                        same pictures either way, only the speed differs.
                        Default: in the window and the timedemo, each way
                        timed on a few frames at start-up and the faster
                        kept (the timedemo says which on stderr);
                        integer otherwise. Named in the timedemo's first
                        line when given
    --stride S          the timedemo frame's row stride in pixels, at least
                        the width (default: rows an odd number of 64-byte
                        cache lines apart, 336 at width 320; see the
                        engine's Frame::spread_stride); named in the
                        timedemo's first line when given
    --width W           render width in pixels (default 320, at most 1024)
    --height H          render height in pixels (default 200, at most 768)
    --scale N           window size: N times the picture, 1 to 8
                        (default: the largest that fits the screen)
    --aspect            show the picture 4:3, as DOOM was (320x200 shown
                        as 320x240)
    --fps-cap N         show at most N frames per second, 0 for no cap
                        (default 250); the game always ticks at 35 Hz
    --mouse             turn with the mouse (off by default)
    -h, --help          print this help and exit
";
/// Largest `--stride`: four screens' width.
pub const MAX_STRIDE: usize = 4 * MAX_SCREEN_WIDTH;
/// Default render width.
pub const DEFAULT_WIDTH: usize = 320;
/// Default render height.
pub const DEFAULT_HEIGHT: usize = 200;
/// Window scale when neither `--scale`, the settings nor the screen size
/// say.
pub const DEFAULT_SCALE: usize = 3;
/// Largest window scale: 8 x 320 is already wider than most screens.
pub const MAX_SCALE: usize = 8;

/// Everything the command line can say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// `--map`: a map file instead of the built-in level.
    pub map: Option<PathBuf>,
    /// `--warp`: the map to play inside a WAD.
    pub warp: Option<String>,
    /// `--iwad`: the IWAD under a PWAD (or the WAD to play).
    pub iwad: Option<PathBuf>,
    /// `--demo`: an input script.
    pub demo: Option<PathBuf>,
    /// `--record`: where to write the input played, as a demo.
    pub record: Option<PathBuf>,
    /// `--script-keys`: scripted key presses.
    pub script_keys: Option<PathBuf>,
    /// `--config`: the settings file instead of the default one.
    pub config: Option<PathBuf>,
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
    /// `--scale`: window scale factor (`None`: the settings say, else fit
    /// the screen).
    pub scale: Option<usize>,
    /// `--aspect`: show 4:3.
    pub aspect: bool,
    /// `--open`: a WAD's doors open and lifts lowered for good.
    pub open: bool,
    /// `--watch`: reload the map when its file changes (window only).
    pub watch: bool,
    /// `--fps-cap`: most frames per second (0: no cap).
    pub fps_cap: Option<u32>,
    /// `--mouse`: turn with the mouse.
    pub mouse: bool,
    /// `--timedemo`: benchmark the renderer (see [`crate::timedemo`]).
    pub timedemo: bool,
    /// `--runs`: timedemo runs.
    pub runs: Option<u32>,
    /// `--seed`: the timedemo's viewpoint seed.
    pub seed: Option<u64>,
    /// `--spin`: the timedemo turns in place at the player start.
    pub spin: bool,
    /// `--walk bsp`: the timedemo names its walk.
    pub walk: bool,
    /// `--start X,Y,ANGLE`: begin there instead of the map's player
    /// start (exact 16.16 values; the angle in degrees).
    pub start: Option<(Fx, Fx, Fx)>,
    /// `--division`: how the renderer divides (`None`: measured at
    /// start-up where speed shows, see `division::choose`).
    pub division: Option<Division>,
    /// `--stride`: the timedemo frame's row stride (`None`: the engine's
    /// `Frame::spread_stride`).
    pub stride: Option<usize>,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            map: None,
            warp: None,
            iwad: None,
            demo: None,
            record: None,
            script_keys: None,
            config: None,
            trace: None,
            headless: false,
            frames: None,
            screenshot: None,
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            scale: None,
            aspect: false,
            open: false,
            watch: false,
            fps_cap: None,
            mouse: false,
            timedemo: false,
            runs: None,
            seed: None,
            spin: false,
            walk: false,
            division: None,
            stride: None,
            start: None,
        }
    }
}

/// `X,Y,ANGLE` as exact 16.16 values: X and Y within the engine's
/// coordinate range, any angle (wrapped into a turn).
fn start(v: &std::ffi::OsStr) -> Result<(Fx, Fx, Fx), String> {
    let form = || {
        format!(
            "--start takes X,Y,ANGLE (e.g. `--start 128,-64.5,90`), not `{}`",
            v.to_string_lossy()
        )
    };
    let text = v.to_str().ok_or_else(form)?;
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [x, y, angle] = parts[..] else {
        return Err(form());
    };
    let limit = i64::from(engine::config::MAX_COORDINATE) << 16;
    let coordinate = |w: &str| match tools::text::number::parse_raw(w) {
        Ok(raw) if raw.abs() <= limit => Ok(Fx::from_bits(raw as i32)),
        Ok(_) => Err(format!(
            "--start: {w} is outside the engine's ±{} range",
            engine::config::MAX_COORDINATE
        )),
        Err(e) => Err(format!("--start: `{w}`: {e}")),
    };
    let (x, y) = (coordinate(x)?, coordinate(y)?);
    let angle = match tools::text::number::parse_raw(angle) {
        // Wrapped into a turn here, so any value fits.
        Ok(raw) => Fx::from_bits(raw.rem_euclid(360 << 16) as i32),
        Err(e) => return Err(format!("--start: `{angle}`: {e}")),
    };
    Ok((x, y, angle))
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
// Made once per run: its size does not matter.
#[allow(clippy::large_enum_variant)]
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
        let no_value = |flag: &mut bool| {
            if inline.is_some() {
                return Err(format!("{name} takes no value"));
            }
            *flag = true;
            Ok(())
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "--headless" => no_value(&mut out.headless)?,
            "--aspect" => no_value(&mut out.aspect)?,
            "--open" => no_value(&mut out.open)?,
            "--watch" => no_value(&mut out.watch)?,
            "--mouse" => no_value(&mut out.mouse)?,
            "--timedemo" => no_value(&mut out.timedemo)?,
            "--spin" => no_value(&mut out.spin)?,
            "--walk" => {
                out.walk = match value(name)?.to_str() {
                    Some("bsp") => true,
                    Some("columns") => {
                        return Err("--walk columns: the column walk is gone; every map \
                                    is drawn through its BSP (--walk bsp)"
                            .into())
                    }
                    _ => return Err("--walk takes `bsp`".into()),
                }
            }
            "--start" => out.start = Some(start(&value(name)?)?),
            "--division" => {
                out.division = Some(match value(name)?.to_str() {
                    Some("integer") => Division::Integer,
                    Some("doubles") => Division::GuessedInDoubles,
                    _ => return Err("--division takes `integer` or `doubles`".into()),
                })
            }
            "--runs" => out.runs = Some(number(name, &value(name)?, 1, MAX_RUNS as u64)? as u32),
            "--seed" => out.seed = Some(number(name, &value(name)?, 0, u64::MAX)?),
            "--map" => out.map = Some(value(name)?.into()),
            "--warp" => out.warp = Some(value(name)?.to_string_lossy().into_owned()),
            "--iwad" => out.iwad = Some(value(name)?.into()),
            "--demo" => out.demo = Some(value(name)?.into()),
            "--record" => out.record = Some(value(name)?.into()),
            "--script-keys" => out.script_keys = Some(value(name)?.into()),
            "--config" => out.config = Some(value(name)?.into()),
            "--fps-cap" => {
                out.fps_cap = Some(number(name, &value(name)?, 0, MAX_FPS_CAP as u64)? as u32)
            }
            "--trace" => out.trace = Some(value(name)?.into()),
            "--screenshot" => out.screenshot = Some(value(name)?.into()),
            "--frames" => out.frames = Some(number(name, &value(name)?, 0, u64::MAX)?),
            "--stride" => {
                out.stride = Some(number(name, &value(name)?, 1, MAX_STRIDE as u64)? as usize)
            }
            "--width" => {
                out.width = number(name, &value(name)?, 1, MAX_SCREEN_WIDTH as u64)? as usize
            }
            "--height" => {
                out.height = number(name, &value(name)?, 1, MAX_SCREEN_HEIGHT as u64)? as usize
            }
            "--scale" => {
                out.scale = Some(number(name, &value(name)?, 1, MAX_SCALE as u64)? as usize)
            }
            _ if name.starts_with('-') => {
                return Err(format!("unknown option {name} (try --help)"));
            }
            _ => return Err(format!("unexpected argument {name} (try --help)")),
        }
    }
    check_timedemo(&out)?;
    if out.watch && (out.headless || out.timedemo) {
        return Err(
            "--watch reloads the map in the window: not with --headless or --timedemo".into(),
        );
    }
    if out.watch && out.map.is_none() {
        return Err("--watch needs the map file to watch: give it with --map".into());
    }
    Ok(Command::Run(out))
}

/// Most `--runs`.
pub const MAX_RUNS: u32 = 1000;

/// `--timedemo` renders fixed viewpoints and shows nothing: the flags that
/// play, show or write a session make no sense with it, and its own flags
/// make no sense without it.
fn check_timedemo(a: &Args) -> Result<(), String> {
    if !a.timedemo {
        if a.runs.is_some() {
            return Err("--runs goes with --timedemo".into());
        }
        if a.seed.is_some() {
            return Err("--seed goes with --timedemo".into());
        }
        if a.spin {
            return Err("--spin goes with --timedemo".into());
        }
        if a.walk {
            return Err("--walk goes with --timedemo".into());
        }
        if a.stride.is_some() {
            return Err("--stride goes with --timedemo".into());
        }
        return Ok(());
    }
    if let Some(s) = a.stride.filter(|&s| s < a.width) {
        return Err(format!(
            "--stride {s} is less than the width ({}): rows would overlap",
            a.width
        ));
    }
    let conflicts = [
        ("--demo", a.demo.is_some()),
        ("--record", a.record.is_some()),
        ("--trace", a.trace.is_some()),
        ("--screenshot", a.screenshot.is_some()),
        ("--script-keys", a.script_keys.is_some()),
        ("--scale", a.scale.is_some()),
        ("--aspect", a.aspect),
        ("--fps-cap", a.fps_cap.is_some()),
        ("--mouse", a.mouse),
    ];
    if a.spin && a.seed.is_some() {
        return Err("--spin turns at the player start: it takes no --seed".into());
    }
    if let Some((flag, _)) = conflicts.iter().find(|(_, set)| *set) {
        return Err(format!(
            "--timedemo renders fixed viewpoints without a window: it takes no {flag}"
        ));
    }
    if a.frames == Some(0) {
        return Err("--timedemo needs at least one frame (--frames 1 or more)".into());
    }
    Ok(())
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
        assert_eq!((a.width, a.height, a.scale), (320, 200, None));
        assert!(!a.headless && !a.aspect && !a.mouse && !a.open);
        assert_eq!((a.fps_cap, a.warp.as_deref()), (None, None));
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
        assert_eq!((a.width, a.height, a.scale), (640, 400, Some(2)));
        assert_eq!(a.demo, Some(PathBuf::from("walk.demo")));
        assert_eq!(a.trace, Some(PathBuf::from("t.jsonl")));
        assert_eq!(a.map, Some(PathBuf::from("m.map")));
    }

    #[test]
    fn the_source_port_flags() {
        let a = run(&[
            "--map",
            "doom.wad",
            "--warp",
            "E1M1",
            "--iwad",
            "doom2.wad",
            "--record=out.demo",
            "--script-keys",
            "keys.txt",
            "--config",
            "my.cfg",
            "--aspect",
            "--fps-cap",
            "60",
            "--mouse",
            "--open",
        ])
        .unwrap();
        assert_eq!(a.warp.as_deref(), Some("E1M1"));
        assert_eq!(a.iwad, Some(PathBuf::from("doom2.wad")));
        assert_eq!(a.record, Some(PathBuf::from("out.demo")));
        assert_eq!(a.script_keys, Some(PathBuf::from("keys.txt")));
        assert_eq!(a.config, Some(PathBuf::from("my.cfg")));
        assert!(a.aspect && a.mouse && a.open);
        assert_eq!(a.fps_cap, Some(60));
        let e = |args: &[&str]| run(args).unwrap_err();
        assert_eq!(e(&["--warp"]), "--warp needs a value");
        assert_eq!(e(&["--aspect=yes"]), "--aspect takes no value");
        assert!(run(&["--map", "m.map", "--watch"]).unwrap().watch);
        assert_eq!(
            e(&["--map", "m.map", "--watch", "--headless"]),
            "--watch reloads the map in the window: not with --headless or --timedemo"
        );
        assert_eq!(
            e(&["--watch"]),
            "--watch needs the map file to watch: give it with --map"
        );
        assert_eq!(
            e(&["--fps-cap", "1001"]),
            "--fps-cap must be from 0 to 1000, not 1001"
        );
    }

    #[test]
    fn the_timedemo_flags() {
        let a = run(&["--timedemo"]).unwrap();
        assert!(a.timedemo);
        assert_eq!((a.frames, a.runs, a.seed), (None, None, None));
        assert_eq!((a.width, a.height), (320, 200));
        let a = run(&[
            "--timedemo",
            "--map",
            "freedoom1.wad",
            "--warp=E1M1",
            "--frames",
            "200",
            "--runs=3",
            "--seed",
            "42",
            "--width",
            "640",
            "--height=400",
            "--headless",
            "--iwad",
            "doom.wad",
            "--config",
            "x.cfg",
        ])
        .unwrap();
        assert!(a.timedemo && a.headless);
        assert_eq!((a.frames, a.runs, a.seed), (Some(200), Some(3), Some(42)));
        assert_eq!((a.width, a.height), (640, 400));
        assert_eq!(a.warp.as_deref(), Some("E1M1"));
        assert_eq!(a.map, Some(PathBuf::from("freedoom1.wad")));
        let e = |args: &[&str]| run(args).unwrap_err();
        assert_eq!(e(&["--timedemo=yes"]), "--timedemo takes no value");
        assert_eq!(e(&["--runs", "3"]), "--runs goes with --timedemo");
        assert_eq!(e(&["--seed", "3"]), "--seed goes with --timedemo");
        assert_eq!(e(&["--spin"]), "--spin goes with --timedemo");
        assert_eq!(e(&["--walk", "bsp"]), "--walk goes with --timedemo");
        assert_eq!(e(&["--stride", "400"]), "--stride goes with --timedemo");
        assert_eq!(
            e(&["--timedemo", "--stride", "319"]),
            "--stride 319 is less than the width (320): rows would overlap"
        );
        assert_eq!(
            run(&["--timedemo", "--width", "64", "--stride=64"])
                .unwrap()
                .stride,
            Some(64)
        );
        assert_eq!(run(&["--timedemo"]).unwrap().stride, None);
        assert_eq!(e(&["--timedemo", "--walk", "rays"]), "--walk takes `bsp`");
        assert!(e(&["--timedemo", "--walk", "columns"]).contains("the column walk is gone"));
        assert_eq!(
            e(&["--division", "float"]),
            "--division takes `integer` or `doubles`"
        );
        assert_eq!(run(&["--timedemo"]).unwrap().division, None);
        let (x, y, a) = run(&["--start", "128,-64.5,-90"]).unwrap().start.unwrap();
        assert_eq!(
            (x, y, a),
            (Fx::from_num(128), Fx::from_num(-64.5), Fx::from_num(270))
        );
        assert_eq!(
            run(&["--start", " 1 , 2 , 720.25"])
                .unwrap()
                .start
                .unwrap()
                .2,
            Fx::from_num(0.25)
        );
        assert!(e(&["--start", "1,2"]).starts_with("--start takes X,Y,ANGLE"));
        assert!(e(&["--start", "1,2,3,4"]).starts_with("--start takes X,Y,ANGLE"));
        assert_eq!(
            e(&["--start", "1,1e3,0"]),
            "--start: `1e3`: exponents are not supported; write the digits out"
        );
        assert_eq!(
            e(&["--start", "40000,0,0"]),
            "--start: 40000 is outside the engine's ±32767 range"
        );
        assert_eq!(run(&["--timedemo"]).unwrap().start, None);
        assert_eq!(
            run(&["--timedemo", "--division=doubles"]).unwrap().division,
            Some(Division::GuessedInDoubles)
        );
        // Not only in the timedemo: a window renders too.
        assert_eq!(
            run(&["--division", "integer"]).unwrap().division,
            Some(Division::Integer)
        );
        assert!(run(&["--timedemo", "--walk=bsp"]).unwrap().walk);
        assert_eq!(
            e(&["--timedemo", "--spin", "--seed", "2"]),
            "--spin turns at the player start: it takes no --seed"
        );
        assert!(run(&["--timedemo", "--spin"]).unwrap().spin);
        assert_eq!(
            e(&["--timedemo", "--runs", "0"]),
            "--runs must be from 1 to 1000, not 0"
        );
        assert_eq!(
            e(&["--timedemo", "--seed", "x"]),
            "--seed takes a whole number, not `x`"
        );
        assert_eq!(
            e(&["--timedemo", "--frames", "0"]),
            "--timedemo needs at least one frame (--frames 1 or more)"
        );
        for flag in [
            &["--demo", "d"][..],
            &["--record", "r"],
            &["--trace", "t"],
            &["--screenshot", "s.png"],
            &["--script-keys", "k"],
            &["--scale", "2"],
            &["--aspect"],
            &["--fps-cap", "60"],
            &["--mouse"],
        ] {
            let mut args = vec!["--timedemo"];
            args.extend_from_slice(flag);
            assert_eq!(
                e(&args),
                format!(
                    "--timedemo renders fixed viewpoints without a window: it takes no {}",
                    flag[0]
                )
            );
        }
        // --help still wins.
        assert_eq!(parse(["--help", "--timedemo"]), Ok(Command::Help));
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
            "--warp",
            "--iwad",
            "--record",
            "--script-keys",
            "--config",
            "--aspect",
            "--fps-cap",
            "--mouse",
            "--timedemo",
            "--runs",
            "--seed",
        ] {
            assert!(USAGE.contains(flag), "{flag} missing from USAGE");
        }
    }
}
