//! `desktop`: walk a level in a window, or run it headless. See
//! [`desktop::args::USAGE`] (`desktop --help`) for the command line.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use desktop::args::{self, Args, Command};
use desktop::config::{self, Config};
use desktop::demo::{parse_demo, total_ticks};
use desktop::record::Recorder;
use desktop::script::{parse_script, quit_step};
use desktop::session::{Session, Setup};
use desktop::trace::Trace;
use desktop::window::WindowSetup;
use desktop::{headless, maps, timedemo, trace, window};
use engine::game::Game;
use engine::world::Level;

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1)) {
        Ok(c) => c,
        Err(e) => return fail(&error(e)),
    };
    let args = match command {
        Command::Help => {
            print!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Command::Run(a) => a,
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

/// Prints a ready-to-print error and gives the failure exit code (1).
fn fail(message: &str) -> ExitCode {
    eprintln!("{}", message.trim_end());
    ExitCode::FAILURE
}

/// Makes a message ready to print: `error: ` in front, unless it is
/// already there (the map compiler's diagnostics arrive rendered
/// rustc-style, `error:` and all).
fn error(message: String) -> String {
    if message.starts_with("error") {
        message
    } else {
        format!("error: {message}")
    }
}

/// Runs as `args` say. Errors come back ready to print.
fn run(args: &Args) -> Result<(), String> {
    // Everything that can fail on the user's files fails before a window
    // opens, an output file is created or a frame is run.
    let map = load_map(args, None)?;
    // Demo and key-script errors read `FILE:LINE: message`, with no
    // prefix, so that editors and scripts can jump to the line.
    let demo = match &args.demo {
        None => None,
        Some(path) => Some(parse_demo(
            &read(path, "demo")?,
            &path.display().to_string(),
        )?),
    };
    let script = match &args.script_keys {
        None => Vec::new(),
        Some(path) => parse_script(&read(path, "key script")?, &path.display().to_string())?,
    };
    let level = Level::load(&map.bytes)
        .map_err(|e| error(format!("the map `{}` does not load: {e}", map.title)))?;

    if args.timedemo {
        // No window, no settings, no session: the renderer alone.
        let opts = timedemo::Options {
            title: map.title.clone(),
            width: args.width,
            height: args.height,
            frames: args.frames.unwrap_or(timedemo::DEFAULT_FRAMES),
            runs: args.runs.unwrap_or(timedemo::DEFAULT_RUNS),
            seed: args.seed.unwrap_or(timedemo::DEFAULT_SEED),
            spin: args.spin,
            walk: args.walk,
            stride: args.stride,
            division: args.division,
        };
        let mut out = std::io::stdout().lock();
        timedemo::run(level, &opts, &mut out).map_err(error)?;
        return Ok(());
    }

    if !args.headless {
        window::check_display().map_err(error)?;
    }

    // The settings: always in a window; headless only when asked for, so
    // tests and benchmarks neither depend on nor create a user's file.
    let settings_path = args.config.clone().or_else(|| {
        if args.headless {
            None
        } else {
            config::default_path()
        }
    });
    let config = match &settings_path {
        Some(path) => {
            let (config, messages) = config::load(path);
            for m in messages {
                eprintln!("{m}");
            }
            config
        }
        None => Config::default(),
    };

    let ticks = args
        .frames
        .or_else(|| quit_step(&script))
        .or_else(|| demo.as_deref().map(total_ticks))
        .unwrap_or(1);
    let setup = Setup {
        bindings: config.bindings.clone(),
        always_run: config.always_run,
        demo: demo.unwrap_or_default(),
        script,
        trace: args
            .trace
            .as_deref()
            .map(Trace::create)
            .transpose()
            .map_err(error)?,
        record: args
            .record
            .as_deref()
            .map(|p| Recorder::create(p, &map.name))
            .transpose()
            .map_err(error)?,
    };
    // How the renderer divides: as asked, or in a window, the faster way
    // on this machine (a few frames each way, before the window opens).
    let division = match args.division {
        Some(d) => d,
        None if !args.headless => {
            desktop::division::choose_on(&level, args.width, args.height).division
        }
        None => engine::math::Division::Integer,
    };
    let game = match args.start {
        None => Game::new(level),
        Some((x, y, angle)) => Game::starting_at(
            level,
            engine::math::Vec2::new(x, y),
            engine::math::Angle::from_degrees(angle),
        )
        .map_err(|_| {
            error(format!(
                "--start {x},{y}: the point is outside every sector of {}",
                map.name
            ))
        })?,
    };
    let session = Session::new(game, setup).divided_by(division);

    if args.headless {
        let report = headless::run_session(args, session, ticks).map_err(error)?;
        eprintln!("{}", report.summary());
        println!("{}", trace::line(&report.last));
    } else {
        let setup = WindowSetup {
            config: &config,
            screenshot_dir: settings_path.as_deref().and_then(|p| p.parent()).map(|d| {
                if d.as_os_str().is_empty() {
                    ".".into()
                } else {
                    d.to_path_buf()
                }
            }),
            title: map.title.clone(),
        };
        let mut screen = window::Screen::open(args, &setup).map_err(error)?;
        let mut session = session;
        let mut watcher = args.watch.then(|| Watcher::new(args.map.as_deref()));
        let mut end = play_level(args, &mut screen, &mut session, &map, watcher.as_mut())?;
        let mut last = session.finish().map_err(error)?;
        // An exit goes on to the WAD's next map, and a changed file (with
        // --watch) is compiled again, in the same window; the demo, key
        // script, trace and recording were the first map's.
        loop {
            let (map, start) = match end {
                Ended::Quit => break,
                Ended::Next(name) => (load_map(args, Some(&name))?, None),
                Ended::Reload(map) => (map, Some((last.pos, last.angle))),
            };
            let level = Level::load(&map.bytes)
                .map_err(|e| error(format!("the map `{}` does not load: {e}", map.title)))?;
            let game = match start {
                // Where the player stood, if that is still in the map.
                Some((pos, angle)) => {
                    Game::starting_at(level, pos, angle).unwrap_or_else(|_| Game::new(level))
                }
                None => Game::new(level),
            };
            let setup = Setup {
                bindings: config.bindings.clone(),
                always_run: config.always_run,
                ..Setup::default()
            };
            let mut session = Session::new(game, setup).divided_by(division);
            end = play_level(args, &mut screen, &mut session, &map, watcher.as_mut())?;
            last = session.finish().map_err(error)?;
        }
        // A traced window session ends like a headless one, so the two can
        // be compared; an untraced one just ends.
        if args.trace.is_some() {
            println!("{}", trace::line(&last));
        }
    }
    Ok(())
}

/// How a level in the window ended.
enum Ended {
    /// The player quit.
    Quit,
    /// An exit to this map of the WAD.
    Next(String),
    /// The watched file changed and compiled: this map, where the player
    /// stands.
    Reload(desktop::MapFile),
}

/// Plays `session` (of `map`) in the window until it quits, an exit leads
/// on, or the watched file changes and compiles again; a file that does
/// not compile is said on the message line (and the terminal) and the
/// level goes on.
fn play_level(
    args: &Args,
    screen: &mut window::Screen,
    session: &mut Session<'_>,
    map: &desktop::MapFile,
    mut watcher: Option<&mut Watcher>,
) -> Result<Ended, String> {
    let (title, maps) = (map.title.clone(), map.maps.clone());
    let next = move |exit| desktop::maps::next_map(&title, exit, &maps);
    loop {
        let watching = watcher.is_some();
        let mut check = || watcher.as_deref_mut().is_some_and(Watcher::changed);
        let changed = watching.then_some(&mut check as &mut dyn FnMut() -> bool);
        let end = screen
            .play(args, &map.title, session, &next, changed)
            .map_err(error)?;
        match end {
            window::End::Quit => return Ok(Ended::Quit),
            window::End::Next(name) => return Ok(Ended::Next(name)),
            window::End::Reload => {
                let warp = (!map.maps.is_empty()).then_some(map.title.as_str());
                match load_map(args, warp) {
                    Ok(new) => {
                        eprintln!("{}: compiled again", map.name);
                        return Ok(Ended::Reload(new));
                    }
                    Err(e) => {
                        eprintln!("{e}");
                        let first = e.lines().next().unwrap_or_default().to_uppercase();
                        screen.say(&first);
                    }
                }
            }
        }
    }
}

/// Loads the command line's map (`warp`: that map of its WAD instead of
/// `--warp`'s), printing the compiler's notes; a WAD's map as the game
/// plays it unless `--open`, or for the timedemo.
fn load_map(args: &Args, warp: Option<&str>) -> Result<desktop::MapFile, String> {
    let (map, notes) = maps::load(
        args.map.as_deref(),
        warp.or(args.warp.as_deref()),
        args.iwad.as_deref(),
        !args.open && !args.timedemo,
        &mut std::io::stderr(),
    )
    .map_err(error)?;
    for w in &notes {
        eprintln!("{}", w.trim_end());
    }
    Ok(map)
}

/// `--watch`: notices when the map file's modification time changes.
struct Watcher {
    path: Option<std::path::PathBuf>,
    seen: Option<std::time::SystemTime>,
}

impl Watcher {
    fn new(path: Option<&std::path::Path>) -> Watcher {
        let path = path.map(tools::find_wad);
        let seen = path.as_deref().and_then(modified);
        Watcher { path, seen }
    }
}

impl Watcher {
    /// Whether the file was written since the last call (or since it was
    /// first seen).
    fn changed(&mut self) -> bool {
        let now = self.path.as_deref().and_then(modified);
        if now.is_some() && now != self.seen {
            self.seen = now;
            return true;
        }
        false
    }
}

/// When `path` was last written, if it can be read.
fn modified(path: &std::path::Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Reads a text file the user named, for an error that says which.
fn read(path: &std::path::Path, what: &str) -> Result<String, String> {
    std::fs::read_to_string(path)
        .map_err(|e| error(format!("cannot read {what} `{}`: {e}", path.display())))
}
