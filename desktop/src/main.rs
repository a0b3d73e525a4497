//! `desktop`: walk a level in a window, or run it headless. See
//! [`desktop::args::USAGE`] (`desktop --help`) for the command line.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use desktop::args::{self, Args, Command};
use desktop::demo::parse_demo;
use desktop::{headless, load_map, trace, window};
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
    // opens or a frame is run.
    let (map, warnings) = load_map(args.map.as_deref()).map_err(error)?;
    for w in &warnings {
        eprintln!("{}", w.trim_end());
    }
    let demo = match &args.demo {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| error(format!("cannot read demo `{}`: {e}", path.display())))?;
            // A demo error reads `FILE:LINE: message`, with no prefix, so
            // that editors and scripts can jump to the line.
            Some(parse_demo(&text, &path.display().to_string())?)
        }
    };
    let level = Level::load(&map.bytes)
        .map_err(|e| error(format!("the map `{}` does not load: {e}", map.title)))?;

    if args.headless {
        let report = headless::run(args, level, demo.as_deref()).map_err(error)?;
        eprintln!("{}", report.summary());
        println!("{}", trace::line(&report.last));
    } else {
        let last = window::run(args, level, demo.as_deref(), &map.title).map_err(error)?;
        // A traced window session ends like a headless one, so the two can
        // be compared; an untraced one just ends.
        if args.trace.is_some() {
            println!("{}", trace::line(&last));
        }
    }
    Ok(())
}
