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
    let (map, notes) = maps::load(
        args.map.as_deref(),
        args.warp.as_deref(),
        args.iwad.as_deref(),
        !args.open && !args.timedemo,
        &mut std::io::stderr(),
    )
    .map_err(error)?;
    for w in &notes {
        eprintln!("{}", w.trim_end());
    }
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
        let next = |maps: &[String], title: &str| {
            let (maps, title) = (maps.to_vec(), title.to_owned());
            move |exit| maps::next_map(&title, exit, &maps)
        };
        let mut end = screen
            .play(args, &map.title, &mut session, &next(&map.maps, &map.title))
            .map_err(error)?;
        let mut last = session.finish().map_err(error)?;
        // An exit goes on to the WAD's next map, in the same window; the
        // demo, key script, trace and recording were the first map's.
        while let window::End::Next(name) = end {
            let (map, notes) = maps::load(
                args.map.as_deref(),
                Some(&name),
                args.iwad.as_deref(),
                !args.open,
                &mut std::io::stderr(),
            )
            .map_err(error)?;
            for w in &notes {
                eprintln!("{}", w.trim_end());
            }
            let level = Level::load(&map.bytes)
                .map_err(|e| error(format!("the map `{}` does not load: {e}", map.title)))?;
            let setup = Setup {
                bindings: config.bindings.clone(),
                always_run: config.always_run,
                ..Setup::default()
            };
            let mut session = Session::new(Game::new(level), setup).divided_by(division);
            end = screen
                .play(args, &map.title, &mut session, &next(&map.maps, &map.title))
                .map_err(error)?;
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

/// Reads a text file the user named, for an error that says which.
fn read(path: &std::path::Path, what: &str) -> Result<String, String> {
    std::fs::read_to_string(path)
        .map_err(|e| error(format!("cannot read {what} `{}`: {e}", path.display())))
}
