//! `tools`: compile, inspect and dump maps. See `tools --help`.
//!
//! Exit status: 0 on success, 1 when a map has errors or a file cannot be
//! read or written, 2 on a usage error.

use std::ffi::OsString;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tools::build::BuildOptions;

const HELP: &str = "\
tools: the map compiler

USAGE:
    tools compile IN -o OUT [--block-size N]
        Compile the text map IN to OUT. If IN is already compiled it is
        checked and copied. OUT is written whole or not at all: a failed
        compile leaves an existing OUT untouched.
    tools info MAP
        Counts, size and blockmap figures of MAP (text or compiled).
    tools dump MAP [--json]
        MAP (text or compiled) as JSON on stdout: vertices, walls,
        sectors, things, player start and blockmap, in map units.
    tools help | --help | -h
        This text.

Errors and warnings go to stderr. Exit status: 0 on success, 1 if the map
has errors or a file cannot be read or written, 2 on a usage error.
";

/// How a command failed.
enum Failure {
    /// Bad command line: the message, then the usage.
    Usage(String),
    /// The map or a file: the message is printed as is.
    Map(String),
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Map(message)) => {
            say_err(&message);
            ExitCode::from(1)
        }
        Err(Failure::Usage(message)) => {
            say_err(&format!(
                "error: {message}\n\nRun `tools --help` for usage."
            ));
            ExitCode::from(2)
        }
    }
}

/// Writes to stderr, ignoring failure (`eprintln!` would panic on a
/// closed stderr; there is nowhere left to report that anyway).
fn say_err(text: &str) {
    let mut e = io::stderr().lock();
    let _ = writeln!(e, "{}", text.trim_end());
}

/// Writes to stdout; a closed pipe (`tools dump m | head`) is an error,
/// not a panic.
fn say(text: &str) -> Result<(), Failure> {
    let mut o = io::stdout().lock();
    writeln!(o, "{text}")
        .and_then(|_| o.flush())
        .map_err(|e| Failure::Map(format!("error: cannot write to stdout: {e}")))
}

fn run(args: &[OsString]) -> Result<(), Failure> {
    let Some(command) = args.first() else {
        return Err(Failure::Usage("no command given".into()));
    };
    let rest = &args[1..];
    match command.to_str() {
        Some("help" | "--help" | "-h") => say(HELP),
        Some("compile") => compile(rest),
        Some("info") => info(rest),
        Some("dump") => dump(rest),
        _ => Err(Failure::Usage(format!(
            "unknown command `{}` (expected compile, info, dump or help)",
            command.to_string_lossy()
        ))),
    }
}

/// Parsed arguments of one command.
#[derive(Default)]
struct Args {
    inputs: Vec<PathBuf>,
    output: Option<PathBuf>,
    block_size: Option<u16>,
    json: bool,
    help: bool,
}

/// Splits `args` into positionals and the flags `allowed` lists.
fn parse_args(args: &[OsString], allowed: &[&str]) -> Result<Args, Failure> {
    let mut out = Args::default();
    let mut it = args.iter();
    let mut only_positionals = false;
    while let Some(arg) = it.next() {
        let text = arg.to_string_lossy();
        if only_positionals || !text.starts_with('-') || text == "-" {
            out.inputs.push(PathBuf::from(arg));
            continue;
        }
        // `--flag=value` as well as `--flag value`.
        let (flag, inline) = match text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(OsString::from(v))),
            _ => (text.to_string(), None),
        };
        if flag == "--" {
            only_positionals = true;
            continue;
        }
        if flag == "-h" || flag == "--help" {
            out.help = true;
            continue;
        }
        if !allowed.contains(&flag.as_str()) {
            return Err(Failure::Usage(format!("unknown option `{text}`")));
        }
        let mut value = |name: &str| -> Result<OsString, Failure> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| Failure::Usage(format!("`{name}` needs a value")))
        };
        match flag.as_str() {
            "-o" | "--output" => {
                if out.output.is_some() {
                    return Err(Failure::Usage("the output is given twice".into()));
                }
                out.output = Some(PathBuf::from(value(&flag)?));
            }
            "--block-size" => {
                let v = value(&flag)?;
                let n = v
                    .to_str()
                    .and_then(|s| s.parse::<u16>().ok())
                    .filter(|n| {
                        (engine::config::MIN_BLOCK_SIZE..=engine::config::MAX_BLOCK_SIZE)
                            .contains(n)
                    })
                    .ok_or_else(|| {
                        Failure::Usage(format!(
                            "`--block-size` must be a whole number from {} to {}, not `{}`",
                            engine::config::MIN_BLOCK_SIZE,
                            engine::config::MAX_BLOCK_SIZE,
                            v.to_string_lossy()
                        ))
                    })?;
                out.block_size = Some(n);
            }
            "--json" => {
                if inline.is_some() {
                    return Err(Failure::Usage("`--json` takes no value".into()));
                }
                out.json = true;
            }
            _ => return Err(Failure::Usage(format!("unknown option `{text}`"))),
        }
    }
    Ok(out)
}

/// The one input file of a command.
fn single_input(a: &Args, what: &str) -> Result<PathBuf, Failure> {
    match a.inputs.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Failure::Usage(format!("no {what} given"))),
        [_, extra, ..] => Err(Failure::Usage(format!(
            "unexpected argument `{}` (one {what} only)",
            extra.display()
        ))),
    }
}

/// Loads a map (text or compiled), printing its warnings.
fn load(path: &Path, opts: BuildOptions) -> Result<tools::Output, Failure> {
    let bytes = fs::read(path)
        .map_err(|e| Failure::Map(format!("error: cannot read map `{}`: {e}", path.display())))?;
    let out =
        tools::load_map_bytes(bytes, &path.display().to_string(), opts).map_err(Failure::Map)?;
    for w in &out.warnings {
        say_err(w);
    }
    if !out.warnings.is_empty() {
        let n = out.warnings.len();
        say_err(&format!(
            "warning: `{}` generated {n} warning{}",
            path.display(),
            if n == 1 { "" } else { "s" }
        ));
    }
    Ok(out)
}

fn compile(args: &[OsString]) -> Result<(), Failure> {
    let a = parse_args(args, &["-o", "--output", "--block-size"])?;
    if a.help {
        return say(HELP);
    }
    let input = single_input(&a, "input map")?;
    let Some(output) = a.output.clone() else {
        return Err(Failure::Usage("no output given: use `-o OUT`".into()));
    };
    let mut opts = BuildOptions::default();
    if let Some(n) = a.block_size {
        opts.block_size = n;
    }
    let out = load(&input, opts)?;
    write_atomically(&output, &out.bytes)
        .map_err(|e| Failure::Map(format!("error: cannot write `{}`: {e}", output.display())))?;
    Ok(())
}

/// Writes `bytes` to a new file beside `path`, then renames it over
/// `path`: readers see the old file or the new one, never half of one,
/// and a failure leaves the old one alone.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the output is not a file name")
    })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut last_err = None;
    // A stale temporary file of the same name (a killed earlier run with
    // the same process id) is never overwritten: try another name.
    for attempt in 0..16 {
        let mut tmp_name = OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".tmp-{}-{attempt}", std::process::id()));
        let tmp = dir.join(tmp_name);
        let mut file = match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                last_err = Some(e);
                continue;
            }
            Err(e) => return Err(e),
        };
        let written = file.write_all(bytes).and_then(|_| file.sync_all());
        drop(file);
        let result = written.and_then(|_| fs::rename(&tmp, path));
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        return result;
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("no temporary file name was free")))
}

fn info(args: &[OsString]) -> Result<(), Failure> {
    let a = parse_args(args, &[])?;
    if a.help {
        return say(HELP);
    }
    let path = single_input(&a, "map")?;
    let out = load(&path, BuildOptions::default())?;
    // Figures from the bytes as the engine reads them, not from the
    // compiler, so a compiled input gets the same report.
    let s = tools::inspect::stats(&out.bytes).map_err(|e| {
        Failure::Map(format!(
            "error: `{}` is not a valid compiled map: {e}",
            path.display()
        ))
    })?;
    let title = engine::format::MapView::new_checked(&out.bytes)
        .map(|v| v.title().to_string())
        .unwrap_or_default();
    say(&format!(
        "map: {}\ntitle: {title}\nvertices: {}\nwalls: {}\nportals: {}\nsectors: {}\n\
         things: {}\nbytes: {}\nblock size: {}\nblocks: {} x {}\nblock entries: {}\n\
         max walls per block: {}",
        path.display(),
        s.vertices,
        s.walls,
        s.portals,
        s.sectors,
        s.things,
        s.bytes,
        s.block_size,
        s.block_cols,
        s.block_rows,
        s.block_entries,
        s.max_walls_per_block,
    ))
}

fn dump(args: &[OsString]) -> Result<(), Failure> {
    let a = parse_args(args, &["--json"])?;
    if a.help {
        return say(HELP);
    }
    // JSON is the only format so far; `--json` keeps scripts explicit.
    let _ = a.json;
    let path = single_input(&a, "map")?;
    let out = load(&path, BuildOptions::default())?;
    let view = engine::format::MapView::new_checked(&out.bytes).map_err(|e| {
        Failure::Map(format!(
            "error: `{}` is not a valid compiled map: {e}",
            path.display()
        ))
    })?;
    let json = serde_json::to_string_pretty(&tools::inspect::to_json(&view))
        .map_err(|e| Failure::Map(format!("error: cannot format JSON: {e}")))?;
    say(&json)
}
