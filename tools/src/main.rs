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
use tools::import::{ImportOptions, WadSource};
use tools::wad::MapEntry;

const HELP: &str = "\
tools: the map compiler

USAGE:
    tools compile IN -o OUT [--block-size N]
        Compile the text map IN to OUT. If IN is already compiled it is
        checked and copied. OUT is written whole or not at all: a failed
        compile leaves an existing OUT untouched.
    tools compile FILE.wad --map NAME -o OUT [--iwad IWAD] [--skill N] [--open]
    tools compile FILE.wad --all -o DIR/ [--iwad IWAD] [--skill N] [--open]
        Compile map NAME (E1M1, MAP01, ...) of a WAD (DOOM-format or UDMF
        maps) to OUT, or every map to DIR/NAME.spmp (DIR is created if
        need be). A WAD with one map needs neither option. Textures come
        from the WAD, on top of IWAD's if given. Things are those of skill
        N (1-5, default 3, \"Hurt me plenty\"). The map is compiled as the
        game plays it: DOOM's doors and lifts (manual, walk and switch
        ones, and the locked ones, which open for the player holding the
        key) stay as the map has them, and the game opens and lowers
        them; keycards and skull keys are picked up; its floor,
        ceiling, crusher and stair specials move sectors, its light
        sectors flicker, and its teleporters (W1 39, WR 97) send the player
        on. With --open, doors are compiled open and lifts lowered for
        good, a level to walk end to end (before 2026-12-02 the default;
        --movers, the old way to ask for the game's, is still accepted).
    tools compile LEVEL.udmf [--iwad IWAD] -o OUT
        Compile a standalone UDMF text map (TEXTMAP), with the textures of
        IWAD; without --iwad every texture is a placeholder.
    tools info MAP | FILE.wad [--map NAME | --all] | LEVEL.udmf
        Counts, size and blockmap figures of MAP (text or compiled), or of
        the compiled form of a WAD's map: its bytes against the WAD's map
        lumps, texture bytes, the most walls in one block. Without --map a
        WAD's maps are shown as a table.
    tools dump MAP | FILE.wad --map NAME | LEVEL.udmf [--json]
        The map as JSON on stdout: vertices, walls, sides, sectors,
        things, player start, textures and blockmap, in map units.
    tools pack INPUT... -o OUT [--iwad IWAD] [--skill N] [--open]
        Compile every INPUT into one level pack for a cartridge: a map
        (text, UDMF or compiled) is one level named by its file stem; a
        WAD gives each of its maps in order, named E1M1, MAP01, ... and
        titled as its DEHACKED lump titles them. Textures, palettes and
        light tables that several levels share are stored once. Prints
        the pack's figures on stderr.
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
        Some("pack") => pack(rest),
        _ => Err(Failure::Usage(format!(
            "unknown command `{}` (expected compile, info, dump, pack or help)",
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
    /// `--map NAME`: a map inside a WAD.
    map: Option<String>,
    /// `--all`: every map of a WAD.
    all: bool,
    /// `--iwad FILE`: where textures come from.
    iwad: Option<PathBuf>,
    /// `--skill N`.
    skill: Option<u8>,
    /// `--movers`: doors shut and lifts up, moved by the game (the
    /// default; kept for the command lines that name it).
    movers: bool,
    /// `--open`: doors open and lifts lowered for good, for a walk-through.
    open: bool,
}

/// The flags every command that reads a WAD takes.
const WAD_FLAGS: [&str; 6] = ["--map", "--all", "--iwad", "--skill", "--movers", "--open"];

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
            "--movers" => {
                if inline.is_some() {
                    return Err(Failure::Usage("`--movers` takes no value".into()));
                }
                out.movers = true;
            }
            "--open" => {
                if inline.is_some() {
                    return Err(Failure::Usage("`--open` takes no value".into()));
                }
                out.open = true;
            }
            "--all" => {
                if inline.is_some() {
                    return Err(Failure::Usage("`--all` takes no value".into()));
                }
                out.all = true;
            }
            "--map" => {
                let v = value(&flag)?;
                let name = v.to_string_lossy().trim().to_string();
                if name.is_empty() || name.len() > 8 {
                    return Err(Failure::Usage(format!(
                        "`--map` takes a map name like E1M1 or MAP01, not `{}`",
                        v.to_string_lossy()
                    )));
                }
                out.map = Some(name);
            }
            "--iwad" => out.iwad = Some(PathBuf::from(value(&flag)?)),
            "--skill" => {
                let v = value(&flag)?;
                let n = v
                    .to_str()
                    .and_then(|s| s.parse::<u8>().ok())
                    .filter(|n| (1..=5).contains(n))
                    .ok_or_else(|| {
                        Failure::Usage(format!(
                            "`--skill` must be 1 to 5, not `{}`",
                            v.to_string_lossy()
                        ))
                    })?;
                out.skill = Some(n);
            }
            _ => return Err(Failure::Usage(format!("unknown option `{text}`"))),
        }
    }
    if out.movers && out.open {
        return Err(Failure::Usage(
            "`--open` compiles the doors open and `--movers` shut: give one".into(),
        ));
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

fn compile(args: &[OsString]) -> Result<(), Failure> {
    let mut allowed = vec!["-o", "--output", "--block-size"];
    allowed.extend(WAD_FLAGS);
    let a = parse_args(args, &allowed)?;
    if a.help {
        return say(HELP);
    }
    let input = single_input(&a, "input map")?;
    let Some(output) = a.output.clone() else {
        return Err(Failure::Usage("no output given: use `-o OUT`".into()));
    };
    let bytes = read_file(&input, "map")?;
    match input_kind(&input, &bytes)? {
        Kind::Wad => compile_wad(&a, &input, &bytes, &output),
        Kind::Udmf => {
            no_wad_flags(&a, &input, true)?;
            let out = udmf(&a, &input, &bytes)?;
            write_output(&output, &out.bytes)
        }
        Kind::Other => {
            no_wad_flags(&a, &input, false)?;
            let out = load(&input, bytes, build_options(&a))?;
            write_output(&output, &out.bytes)
        }
    }
}

fn write_output(output: &Path, bytes: &[u8]) -> Result<(), Failure> {
    write_atomically(output, bytes)
        .map_err(|e| Failure::Map(format!("error: cannot write `{}`: {e}", output.display())))
}

/// What an input file is.
enum Kind {
    /// An IWAD or PWAD.
    Wad,
    /// UDMF text.
    Udmf,
    /// Our text format or a compiled map.
    Other,
}

/// What the input is ([`tools::input_kind`]); a file named for one kind
/// but holding another is a map error, before any flag is looked at.
fn input_kind(path: &Path, bytes: &[u8]) -> Result<Kind, Failure> {
    let kind = tools::input_kind(&path.display().to_string(), bytes).map_err(Failure::Map)?;
    Ok(match kind {
        tools::InputKind::Wad => Kind::Wad,
        tools::InputKind::Udmf => Kind::Udmf,
        tools::InputKind::Compiled | tools::InputKind::Text => Kind::Other,
    })
}

/// Refuses the WAD flags for an input that is not a WAD (`--iwad` is
/// fine for UDMF).
fn no_wad_flags(a: &Args, input: &Path, udmf: bool) -> Result<(), Failure> {
    let what = if udmf { "a UDMF file" } else { "not a WAD" };
    let used = [
        (a.map.is_some(), "--map"),
        (a.all, "--all"),
        (a.iwad.is_some() && !udmf, "--iwad"),
    ];
    match used.iter().find(|(on, _)| *on) {
        Some((_, flag)) => Err(Failure::Usage(format!(
            "`{flag}` is for WAD files, and `{}` is {what}",
            input.display()
        ))),
        None => Ok(()),
    }
}

fn read_file(path: &Path, what: &str) -> Result<Vec<u8>, Failure> {
    fs::read(path).map_err(|e| {
        Failure::Map(format!(
            "error: cannot read {what} `{}`: {e}",
            path.display()
        ))
    })
}

fn build_options(a: &Args) -> BuildOptions {
    let mut opts = BuildOptions::default();
    if let Some(n) = a.block_size {
        opts.block_size = n;
    }
    opts
}

fn import_options(a: &Args) -> ImportOptions {
    let mut opts = ImportOptions {
        build: build_options(a),
        ..ImportOptions::default()
    };
    if let Some(s) = a.skill {
        opts.skill = s;
    }
    // As the game plays it unless asked for the walk-through.
    opts.movers = !a.open;
    opts
}

/// Prints warnings and a count line.
fn print_warnings(name: &str, warnings: &[String]) {
    for w in warnings {
        say_err(w);
    }
    if !warnings.is_empty() {
        let n = warnings.len();
        say_err(&format!(
            "warning: `{name}` generated {n} warning{}",
            if n == 1 { "" } else { "s" }
        ));
    }
}

/// Compiles a standalone UDMF file, printing its warnings.
fn udmf(a: &Args, input: &Path, bytes: &[u8]) -> Result<tools::Output, Failure> {
    let iwad = a.iwad.as_ref().map(|p| read_file(p, "IWAD")).transpose()?;
    let shown = input.display().to_string();
    let imported = tools::import::compile_udmf(bytes, &shown, iwad.as_deref(), &import_options(a))
        .map_err(Failure::Map)?;
    print_warnings(&shown, &imported.warnings);
    Ok(tools::Output {
        bytes: imported.compiled.bytes,
        stats: imported.compiled.stats,
        warnings: imported.warnings,
    })
}

/// Opens a WAD (and the IWAD) for importing.
fn open_wad<'b>(
    input: &Path,
    bytes: &'b [u8],
    iwad: Option<&[u8]>,
) -> Result<WadSource<'b>, Failure> {
    let source = WadSource::new(bytes, iwad)
        .map_err(|e| Failure::Map(format!("error: cannot read `{}`: {e}", input.display())))?;
    for w in &source.warnings {
        say_err(&format!("warning: {}: {w}", input.display()));
    }
    Ok(source)
}

/// The one map of a WAD a command works on: `--map NAME`, or the only
/// map there is.
fn pick_map(a: &Args, input: &Path, source: &WadSource<'_>) -> Result<MapEntry, Failure> {
    if let Some(name) = &a.map {
        return source
            .map(name)
            .map_err(|e| Failure::Map(format!("error: `{}`: {e}", input.display())));
    }
    let maps = source.maps();
    match maps.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Failure::Map(format!(
            "error: `{}` has no maps in it",
            input.display()
        ))),
        _ => {
            let names: Vec<&str> = maps.iter().map(|m| m.name.as_str()).collect();
            Err(Failure::Usage(format!(
                "`{}` has {} maps: pick one with `--map NAME` (or use `--all`): {}",
                input.display(),
                maps.len(),
                names.join(" ")
            )))
        }
    }
}

fn compile_wad(a: &Args, input: &Path, bytes: &[u8], output: &Path) -> Result<(), Failure> {
    if a.all && a.map.is_some() {
        return Err(Failure::Usage(
            "give `--map NAME` or `--all`, not both".into(),
        ));
    }
    let iwad = a.iwad.as_ref().map(|p| read_file(p, "IWAD")).transpose()?;
    let source = open_wad(input, bytes, iwad.as_deref())?;
    let opts = import_options(a);
    if !a.all {
        let map = pick_map(a, input, &source)?;
        let imported = source.compile(&map, &opts).map_err(Failure::Map)?;
        print_warnings(&map.name, &imported.warnings);
        return write_output(output, &imported.compiled.bytes);
    }
    let maps = source.maps();
    if maps.is_empty() {
        return Err(Failure::Map(format!(
            "error: `{}` has no maps in it",
            input.display()
        )));
    }
    fs::create_dir_all(output).map_err(|e| {
        Failure::Map(format!(
            "error: cannot create the directory `{}`: {e}",
            output.display()
        ))
    })?;
    let mut failed = Vec::new();
    for map in &maps {
        match source.compile(map, &opts) {
            Ok(imported) => {
                print_warnings(&map.name, &imported.warnings);
                let path = output.join(format!("{}.spmp", map.name));
                if let Err(Failure::Map(m) | Failure::Usage(m)) =
                    write_output(&path, &imported.compiled.bytes)
                {
                    say_err(&m);
                    failed.push(map.name.clone());
                }
            }
            Err(e) => {
                say_err(&e);
                failed.push(map.name.clone());
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::Map(format!(
            "error: {} of {} maps failed: {}",
            failed.len(),
            maps.len(),
            failed.join(" ")
        )))
    }
}

fn pack(args: &[OsString]) -> Result<(), Failure> {
    let allowed = [
        "-o",
        "--output",
        "--block-size",
        "--iwad",
        "--skill",
        "--open",
    ];
    let a = parse_args(args, &allowed)?;
    if a.help {
        return say(HELP);
    }
    if a.inputs.is_empty() {
        return Err(Failure::Usage("no input maps given".into()));
    }
    let Some(output) = a.output.clone() else {
        return Err(Failure::Usage("no output given: use `-o OUT`".into()));
    };
    // A WAD by bare name is looked for where the source ports look.
    let iwad = a
        .iwad
        .as_ref()
        .map(|p| read_file(&tools::find_wad(p), "IWAD"))
        .transpose()?;
    let mut builder = tools::pack::PackBuilder::new();
    let add = |builder: &mut tools::pack::PackBuilder, name: &str, title: &str, bytes: &[u8]| {
        builder.add(name, title, bytes).map_err(Failure::Map)
    };
    for input in &a.inputs {
        let input = &tools::find_wad(input);
        let bytes = read_file(input, "map")?;
        let stem = input
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match input_kind(input, &bytes)? {
            Kind::Wad => {
                let source = open_wad(input, &bytes, iwad.as_deref())?;
                let mut titles = iwad
                    .as_deref()
                    .map(tools::pack::dehacked_titles)
                    .unwrap_or_default();
                titles.extend(tools::pack::dehacked_titles(&bytes));
                let maps = source.maps();
                if maps.is_empty() {
                    return Err(Failure::Map(format!(
                        "error: `{}` has no maps in it",
                        input.display()
                    )));
                }
                for map in &maps {
                    let imported = source
                        .compile(map, &import_options(&a))
                        .map_err(Failure::Map)?;
                    print_warnings(&map.name, &imported.warnings);
                    let title = titles.get(&map.name).map(String::as_str).unwrap_or("");
                    add(&mut builder, &map.name, title, &imported.compiled.bytes)?;
                }
            }
            Kind::Udmf => {
                let out = udmf(&a, input, &bytes)?;
                add(
                    &mut builder,
                    &tools::pack::level_name(&stem),
                    "",
                    &out.bytes,
                )?;
            }
            Kind::Other => {
                let out = load(input, bytes, build_options(&a))?;
                let title = engine::format::MapView::new_checked(&out.bytes)
                    .map(|v| v.title().to_string())
                    .unwrap_or_default();
                add(
                    &mut builder,
                    &tools::pack::level_name(&stem),
                    &title,
                    &out.bytes,
                )?;
            }
        }
    }
    let bytes = builder.finish().map_err(Failure::Map)?;
    let stats = builder.stats();
    say_err(&format!(
        "pack: {} levels, {} bytes compiled (largest {}), {} bytes packed: {} shared bytes \
         stored once, {} not stored again; {} pieces",
        stats.levels,
        stats.map_bytes,
        stats.largest,
        bytes.len(),
        stats.shared_bytes,
        stats.saved_bytes,
        stats.pieces
    ));
    write_output(&output, &bytes)
}

/// Loads a map (text or compiled), printing its warnings.
fn load(path: &Path, bytes: Vec<u8>, opts: BuildOptions) -> Result<tools::Output, Failure> {
    let out =
        tools::load_map_bytes(bytes, &path.display().to_string(), opts).map_err(Failure::Map)?;
    print_warnings(&path.display().to_string(), &out.warnings);
    Ok(out)
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
    let a = parse_args(args, &WAD_FLAGS)?;
    if a.help {
        return say(HELP);
    }
    let path = single_input(&a, "map")?;
    let bytes = read_file(&path, "map")?;
    match input_kind(&path, &bytes)? {
        Kind::Wad => return info_wad(&a, &path, &bytes),
        Kind::Udmf => {
            no_wad_flags(&a, &path, true)?;
            let out = udmf(&a, &path, &bytes)?;
            return say(&stats_text(&path.display().to_string(), &out.bytes, None)?);
        }
        Kind::Other => no_wad_flags(&a, &path, false)?,
    }
    let out = load(&path, bytes, BuildOptions::default())?;
    say(&stats_text(&path.display().to_string(), &out.bytes, None)?)
}

/// The `info` lines for compiled `bytes`; `wad` adds the lines about a
/// WAD map.
fn stats_text(name: &str, bytes: &[u8], wad: Option<&WadInfo>) -> Result<String, Failure> {
    // Figures from the bytes as the engine reads them, not from the
    // compiler, so a compiled input gets the same report.
    let s = tools::inspect::stats(bytes)
        .map_err(|e| Failure::Map(format!("error: `{name}` is not a valid compiled map: {e}")))?;
    let title = engine::format::MapView::new_checked(bytes)
        .map(|v| v.title().to_string())
        .unwrap_or_default();
    let mut text = format!(
        "map: {name}\ntitle: {title}\nvertices: {}\nwalls: {}\nportals: {}\nsectors: {}\n\
         things: {}\nbytes: {}\nblock size: {}\nblocks: {} x {}\nblock entries: {}\n\
         max walls per block: {}\ntextures: {}\ntexture bytes: {}\nBSP: {}",
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
        s.textures,
        s.texture_bytes,
        match s.bsp {
            (0, 0, 0) => "none".to_string(),
            (n, g, u) => format!("{n} nodes, {g} segs, {u} subsectors"),
        },
    );
    if let Some(w) = wad {
        let ratio = |n: usize| {
            if n == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", s.bytes as f64 / n as f64)
            }
        };
        text.push_str(&format!(
            "\nwad map lumps (VERTEXES LINEDEFS SIDEDEFS SECTORS THINGS): {} bytes\n\
             wad map lumps (all, node builder's included): {} bytes\n\
             compiled / editable lumps: {}\ncompiled / all lumps: {}\n\
             compiled without textures: {} bytes\ndoors opened: {}\nlifts lowered: {}\n\
             lines dropped: {}\nthings kept: {} (skipped {})\nwarnings: {}",
            w.lumps.editable,
            w.lumps.all,
            ratio(w.lumps.editable),
            ratio(w.lumps.all),
            s.bytes - s.texture_bytes,
            w.summary.doors_opened,
            w.summary.lifts_lowered,
            w.summary.lines_dropped,
            w.summary.things_kept,
            w.summary.things_skipped,
            w.warnings,
        ));
    }
    Ok(text)
}

/// What `info` says about a WAD map beyond the compiled figures.
struct WadInfo {
    lumps: tools::import::LumpBytes,
    summary: tools::import::Summary,
    warnings: usize,
}

fn info_wad(a: &Args, path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let iwad = a.iwad.as_ref().map(|p| read_file(p, "IWAD")).transpose()?;
    let source = open_wad(path, bytes, iwad.as_deref())?;
    let opts = import_options(a);
    let one = if a.all {
        None
    } else if a.map.is_some() || source.maps().len() == 1 {
        Some(pick_map(a, path, &source)?)
    } else {
        None
    };
    if let Some(map) = one {
        let imported = source.compile(&map, &opts).map_err(Failure::Map)?;
        print_warnings(&map.name, &imported.warnings);
        let w = WadInfo {
            lumps: source.lump_bytes(&map),
            summary: imported.summary.clone(),
            warnings: imported.warnings.len(),
        };
        let name = format!("{} ({})", map.name, path.display());
        return say(&stats_text(&name, &imported.compiled.bytes, Some(&w))?);
    }
    let maps = source.maps();
    if maps.is_empty() {
        return Err(Failure::Map(format!(
            "error: `{}` has no maps in it",
            path.display()
        )));
    }
    let mut table = format!(
        "{:<8} {:>6} {:>7} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>5} {:>8}\n",
        "map",
        "walls",
        "sectors",
        "things",
        "bytes",
        "textures",
        "geometry",
        "lumps(5)",
        "lumps",
        "block",
        "doors",
        "warnings"
    );
    let mut total = [0usize; 10];
    let mut failed = 0;
    for map in &maps {
        let imported = match source.compile(map, &opts) {
            Ok(i) => i,
            Err(e) => {
                say_err(&e);
                failed += 1;
                continue;
            }
        };
        let s = tools::inspect::stats(&imported.compiled.bytes).map_err(|e| {
            Failure::Map(format!(
                "error: {}: the engine refuses the output: {e}",
                map.name
            ))
        })?;
        let lumps = source.lump_bytes(map);
        let row = [
            s.walls,
            s.sectors,
            s.things,
            s.bytes,
            s.texture_bytes,
            s.bytes - s.texture_bytes,
            lumps.editable,
            lumps.all,
            s.max_walls_per_block,
            imported.summary.doors_opened,
        ];
        for (k, (t, v)) in total.iter_mut().zip(row).enumerate() {
            // The block column's total is the worst block, not a sum.
            *t = if k == 8 { (*t).max(v) } else { *t + v };
        }
        let n = imported.warnings.len();
        table.push_str(&format!(
            "{:<8} {:>6} {:>7} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>5} {:>8}\n",
            map.name,
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            row[6],
            row[7],
            row[8],
            row[9],
            n
        ));
    }
    table.push_str(&format!(
        "{:<8} {:>6} {:>7} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>5}\n\
         (bytes: the compiled map; textures: its texture sections; geometry: the rest; \
         lumps(5): the WAD's VERTEXES, LINEDEFS, SIDEDEFS, SECTORS and THINGS; lumps: all the \
         map's lumps; block: the most walls in one block)",
        "total",
        total[0],
        total[1],
        total[2],
        total[3],
        total[4],
        total[5],
        total[6],
        total[7],
        total[8],
        total[9]
    ));
    say(&table)?;
    if failed > 0 {
        return Err(Failure::Map(format!(
            "error: {failed} of {} maps failed",
            maps.len()
        )));
    }
    Ok(())
}

fn dump(args: &[OsString]) -> Result<(), Failure> {
    let mut allowed = vec!["--json"];
    allowed.extend(WAD_FLAGS);
    let a = parse_args(args, &allowed)?;
    if a.help {
        return say(HELP);
    }
    // JSON is the only format so far; `--json` keeps scripts explicit.
    let _ = a.json;
    let path = single_input(&a, "map")?;
    let bytes = read_file(&path, "map")?;
    let compiled = match input_kind(&path, &bytes)? {
        Kind::Wad => {
            if a.all {
                return Err(Failure::Usage(
                    "`dump` shows one map: use `--map NAME`, not `--all`".into(),
                ));
            }
            let iwad = a.iwad.as_ref().map(|p| read_file(p, "IWAD")).transpose()?;
            let source = open_wad(&path, &bytes, iwad.as_deref())?;
            let map = pick_map(&a, &path, &source)?;
            let imported = source
                .compile(&map, &import_options(&a))
                .map_err(Failure::Map)?;
            print_warnings(&map.name, &imported.warnings);
            imported.compiled.bytes
        }
        Kind::Udmf => {
            no_wad_flags(&a, &path, true)?;
            udmf(&a, &path, &bytes)?.bytes
        }
        Kind::Other => {
            no_wad_flags(&a, &path, false)?;
            load(&path, bytes, BuildOptions::default())?.bytes
        }
    };
    let view = engine::format::MapView::new_checked(&compiled).map_err(|e| {
        Failure::Map(format!(
            "error: `{}` is not a valid compiled map: {e}",
            path.display()
        ))
    })?;
    let json = serde_json::to_string_pretty(&tools::inspect::to_json(&view))
        .map_err(|e| Failure::Map(format!("error: cannot format JSON: {e}")))?;
    say(&json)
}
