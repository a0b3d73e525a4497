//! Finding the map to play: the built-in level, a text map (compiled on
//! the fly), a compiled map, or a map inside a WAD picked with `--warp`,
//! as the source ports do.
//!
//! Compiling runs on a worker thread; when it takes more than a moment
//! ([`PROGRESS_AFTER`]) a progress line says what is happening.

use std::io::Write;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tools::wad::Wad;

use crate::{MapFile, DEFAULT_MAP_FILES, DEFAULT_MAP_NAME, DEFAULT_MAP_SOURCE};

/// How long compiling may take before a progress line appears.
pub const PROGRESS_AFTER: Duration = Duration::from_millis(300);

/// True for bytes that start like a WAD (`IWAD` or `PWAD`).
pub fn is_wad(bytes: &[u8]) -> bool {
    bytes.starts_with(b"IWAD") || bytes.starts_with(b"PWAD")
}

/// The map lump name `--warp` asks for: `E1M1`, `MAP01`, any other map
/// marker name (case does not matter), or a bare number `N` for `MAPNN`
/// (`--warp 1` is `MAP01`, as in DOOM II's source ports).
pub fn warp_name(warp: &str) -> Result<String, String> {
    let w = warp.trim();
    if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
        return match w.parse::<u32>() {
            Ok(n) if (1..=99).contains(&n) => Ok(format!("MAP{n:02}")),
            _ => Err(format!(
                "--warp {w}: a map number is 1 to 99 (MAP01 to MAP99); name others, e.g. --warp E1M1"
            )),
        };
    }
    let ok = (1..=8).contains(&w.len())
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !ok {
        return Err(format!(
            "--warp takes a map name like E1M1 or MAP01 (or a number for MAPnn), not `{warp}`"
        ));
    }
    Ok(w.to_ascii_uppercase())
}

/// Loads the map the command line asks for: `path` (`None`: the built-in
/// level), `warp` (a map inside a WAD) and `iwad` (a WAD whose textures a
/// PWAD's maps use; on its own, the WAD to play, as `-iwad` is in the
/// source ports). Compiler warnings and notes come back for the caller to
/// print; progress goes to `progress` as it happens. Errors are ready to
/// print.
pub fn load(
    path: Option<&Path>,
    warp: Option<&str>,
    iwad: Option<&Path>,
    movers: bool,
    progress: &mut dyn Write,
) -> Result<(MapFile, Vec<String>), String> {
    // Bare WAD names are looked up where source ports look for them.
    let found_path = path.map(tools::find_wad);
    let found_iwad = iwad.map(tools::find_wad);
    let (path, iwad) = (found_path.as_deref(), found_iwad.as_deref());
    let (path, iwad) = match (path, iwad) {
        // `--iwad doom2.wad --warp 7`: play the IWAD itself.
        (None, Some(i)) => (Some(i), None),
        (p, Some(i)) => {
            let bytes = std::fs::read(i)
                .map_err(|e| format!("error: cannot read the IWAD `{}`: {e}", i.display()))?;
            if !is_wad(&bytes) {
                return Err(format!(
                    "error: `{}` is not a WAD (it does not start with IWAD or PWAD)",
                    i.display()
                ));
            }
            (p, Some(bytes))
        }
        (p, None) => (p, None),
    };
    let Some(path) = path else {
        if let Some(w) = warp {
            return Err(format!(
                "error: --warp {w} picks a map inside a WAD: give the WAD with --map \
                 (e.g. --map doom.wad --warp {w})"
            ));
        }
        let out = compile_with_progress(DEFAULT_MAP_NAME, progress, || {
            tools::compile_source_with_files(
                DEFAULT_MAP_SOURCE,
                DEFAULT_MAP_NAME,
                DEFAULT_MAP_FILES,
            )
            .map_err(|e| e.to_string())
        })?;
        let map = MapFile {
            bytes: out.bytes,
            title: stem(Path::new(DEFAULT_MAP_NAME)),
            name: format!("{DEFAULT_MAP_NAME} (built in)"),
            maps: Vec::new(),
        };
        return Ok((map, out.warnings));
    };
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| unreadable(path, &e))?;
    let kind = tools::input_kind(&shown, &bytes)?;
    if kind == tools::InputKind::Wad {
        return load_wad(path, bytes, warp, iwad, movers, progress);
    }
    if let Some(w) = warp {
        return Err(format!(
            "error: --warp {w} picks a map inside a WAD, but `{shown}` is a single map, not a \
             WAD\nnote: leave out --warp to play it"
        ));
    }
    let name = shown.clone();
    let out = if kind == tools::InputKind::Udmf {
        // A standalone UDMF map takes its textures from --iwad, as
        // `tools compile` does.
        compile_with_progress(&shown, progress, move || {
            tools::compile_udmf_map(&bytes, &name, iwad.as_deref(), &import_options(movers))
        })?
    } else {
        if iwad.is_some() {
            return Err(format!(
                "error: --iwad gives textures to the maps of a WAD or a UDMF map, but `{shown}` \
                 is neither\nnote: leave out --iwad to play it"
            ));
        }
        compile_with_progress(&shown, progress, move || {
            tools::load_map_bytes(bytes, &name, tools::build::BuildOptions::default())
        })?
    };
    let map = MapFile {
        bytes: out.bytes,
        title: stem(path),
        name: shown,
        maps: Vec::new(),
    };
    Ok((map, out.warnings))
}

fn load_wad(
    path: &Path,
    bytes: Vec<u8>,
    warp: Option<&str>,
    iwad: Option<Vec<u8>>,
    movers: bool,
    progress: &mut dyn Write,
) -> Result<(MapFile, Vec<String>), String> {
    let shown = path.display().to_string();
    let wad = Wad::parse(&bytes).map_err(|e| format!("error: cannot read `{shown}`: {e}"))?;
    let names: Vec<String> = wad.maps().into_iter().map(|m| m.name).collect();
    if names.is_empty() {
        return Err(format!("error: `{shown}` has no maps in it"));
    }
    let mut notes = Vec::new();
    let name = match warp {
        Some(w) => {
            let want = warp_name(w).map_err(|e| format!("error: {e}"))?;
            if !names.contains(&want) {
                return Err(format!(
                    "error: there is no map {want} in `{shown}`\nnote: its maps are: {}",
                    names.join(" ")
                ));
            }
            want
        }
        None => {
            let first = names[0].clone();
            if names.len() > 1 {
                notes.push(format!(
                    "note: playing {first}, the first of {} maps in `{shown}` (pick one with --warp)",
                    names.len()
                ));
            }
            first
        }
    };
    let label = format!("{name} from {shown}");
    let (wad_name, map_name) = (shown.clone(), name.clone());
    let out = compile_with_progress(&label, progress, move || {
        let opts = import_options(movers);
        tools::compile_wad_map(&bytes, &wad_name, &map_name, iwad.as_deref(), &opts)
    })?;
    notes.extend(out.warnings);
    let map = MapFile {
        bytes: out.bytes,
        title: name.clone(),
        name: format!("{shown} --warp {name}"),
        maps: names,
    };
    Ok((map, notes))
}

/// The map an exit from `current` goes on to, among the WAD's `maps`, as
/// DOOM orders them ([`engine::episode`]), spelt as the WAD spells it.
/// `None` at the end (E1M8, MAP30, or a map the WAD does not have): the
/// level stays ended.
pub fn next_map(current: &str, exit: engine::game::Exit, maps: &[String]) -> Option<String> {
    let find = |name: &str| maps.iter().find(|m| m.eq_ignore_ascii_case(name));
    let next = engine::episode::next_map(current, exit, |name| find(name).is_some())?;
    find(&next).cloned()
}

/// The importer's settings: skill 3, and the doors, lifts and
/// teleporters kept for the game to move (`movers`), or compiled open for
/// a walk-through.
pub fn import_options(movers: bool) -> tools::import::ImportOptions {
    tools::import::ImportOptions {
        movers,
        ..tools::import::ImportOptions::default()
    }
}

/// Compiles map `map` of the WAD `bytes` (read from `wad_name`), with
/// textures from `iwad` under the WAD's own: the map compiler's importer,
/// with its defaults (skill 3, doors open).
pub fn compile_wad_map(
    bytes: &[u8],
    wad_name: &str,
    map: &str,
    iwad: Option<&[u8]>,
) -> Result<tools::Output, String> {
    let opts = tools::import::ImportOptions::default();
    tools::compile_wad_map(bytes, wad_name, map, iwad, &opts)
}

/// Runs `compile` on a worker thread; if it is still going after
/// [`PROGRESS_AFTER`], writes `compiling LABEL...` to `progress`, and the
/// time taken when it ends.
pub fn compile_with_progress<F>(
    label: &str,
    progress: &mut dyn Write,
    compile: F,
) -> Result<tools::Output, String>
where
    F: FnOnce() -> Result<tools::Output, String> + Send + 'static,
{
    with_progress(label, PROGRESS_AFTER, progress, compile)
}

/// [`compile_with_progress`] with any job and any delay.
pub fn with_progress<T, F>(label: &str, after: Duration, progress: &mut dyn Write, job: F) -> T
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let start = Instant::now();
    let (send, receive) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        // The receiver outlives the worker; a failed send cannot happen.
        let _ = send.send(job());
    });
    let result = match receive.recv_timeout(after) {
        Ok(r) => Some(r),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            let _ = write!(progress, "compiling {label}...");
            let _ = progress.flush();
            let r = receive.recv().ok();
            let _ = writeln!(progress, " {:.1} s", start.elapsed().as_secs_f64());
            r
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => None,
    };
    match result {
        Some(r) => r,
        // No result: the worker panicked; let the panic through.
        None => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the worker sends its result before it ends"),
        },
    }
}

/// Says why a map file cannot be read, and for a missing one, which maps
/// its folder does have.
fn unreadable(path: &Path, e: &std::io::Error) -> String {
    let mut message = format!("error: cannot read map `{}`: {e}", path.display());
    if e.kind() == std::io::ErrorKind::NotFound {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut found: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|n| {
                let lower = n.to_ascii_lowercase();
                [".map", ".wad", ".spmp"].iter().any(|x| lower.ends_with(x))
            })
            .collect();
        found.sort();
        if !found.is_empty() {
            message.push_str(&format!(
                "\nnote: {} has: {}",
                dir.display(),
                found.join(" ")
            ));
        }
        message.push_str(
            "\nnote: --map takes a text map, a compiled map, or a WAD (with --warp to pick a map)",
        );
    }
    message
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exits_go_on_as_dooms_do_among_the_wads_maps() {
        use engine::game::Exit::{Normal, Secret};
        let doom1: Vec<String> = (1..=4)
            .flat_map(|e| (1..=9).map(move |m| format!("e{e}m{m}")))
            .collect();
        // DOOM's order (engine::episode), in the WAD's spelling.
        assert_eq!(next_map("E1M3", Secret, &doom1).as_deref(), Some("e1m9"));
        assert_eq!(next_map("E1M9", Normal, &doom1).as_deref(), Some("e1m4"));
        assert_eq!(next_map("E1M8", Normal, &doom1), None);
        let short = vec!["MAP01".to_string()];
        assert_eq!(next_map("MAP01", Normal, &short), None);
        assert_eq!(next_map("START", Normal, &short), None);
        let no_secret: Vec<String> = (1..=8).map(|m| format!("E1M{m}")).collect();
        assert_eq!(
            next_map("E1M3", Secret, &no_secret).as_deref(),
            Some("E1M4")
        );
    }

    #[test]
    fn warp_names() {
        assert_eq!(warp_name("e1m1").unwrap(), "E1M1");
        assert_eq!(warp_name("MAP07").unwrap(), "MAP07");
        assert_eq!(warp_name("7").unwrap(), "MAP07");
        assert_eq!(warp_name("32").unwrap(), "MAP32");
        assert!(warp_name("0").unwrap_err().contains("1 to 99"));
        assert!(warp_name("100").unwrap_err().contains("1 to 99"));
        assert!(warp_name("").unwrap_err().contains("like E1M1"));
        assert!(warp_name("E1 M1").unwrap_err().contains("not `E1 M1`"));
        assert!(warp_name("LONGERTHAN8").is_err());
    }

    #[test]
    fn progress_shows_only_for_slow_jobs() {
        let mut out = Vec::new();
        let fast = with_progress("quick", Duration::from_secs(5), &mut out, || 7);
        assert_eq!(fast, 7);
        assert!(out.is_empty());
        let slow = with_progress("big.map", Duration::from_millis(1), &mut out, || {
            std::thread::sleep(Duration::from_millis(50));
            8
        });
        assert_eq!(slow, 8);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("compiling big.map... "), "{text}");
        assert!(text.ends_with(" s\n"), "{text}");
    }

    #[test]
    fn warp_without_a_wad_is_an_error() {
        let mut sink = Vec::new();
        let e = load(None, Some("E1M1"), None, true, &mut sink).unwrap_err();
        assert!(e.contains("--map doom.wad --warp E1M1"), "{e}");
    }

    /// A standalone UDMF map takes its textures from `--iwad`, as `tools
    /// compile` does; a text map refuses it.
    #[test]
    fn a_udmf_map_takes_its_textures_from_the_iwad() {
        let iwad = Path::new("/usr/share/games/doom/freedoom2.wad");
        let dir = std::env::temp_dir().join(format!("desktop-udmf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let room = dir.join("room.udmf");
        let mut text = String::from("namespace = \"doom\";\n");
        for (x, y) in [(0, 0), (0, 256), (256, 256), (256, 0)] {
            text.push_str(&format!("vertex {{ x = {x}; y = {y}; }}\n"));
        }
        for i in 0..4 {
            text.push_str(&format!(
                "linedef {{ v1 = {i}; v2 = {}; sidefront = 0; blocking = true; }}\n",
                (i + 1) % 4
            ));
        }
        text.push_str("sidedef { sector = 0; texturemiddle = \"ASHWALL2\"; }\n");
        text.push_str(
            "sector { heightfloor = 0; heightceiling = 128; texturefloor = \"FLAT1\"; \
             textureceiling = \"FLAT1\"; lightlevel = 160; }\n",
        );
        text.push_str(
            "thing { x = 128; y = 128; angle = 90; type = 1; skill3 = true; single = true; }\n",
        );
        std::fs::write(&room, text).unwrap();
        let placeholders = |w: &[String]| w.iter().any(|w| w.contains("placeholder"));
        let (_, warnings) = load(Some(&room), None, None, true, &mut Vec::new()).unwrap();
        assert!(placeholders(&warnings), "{warnings:?}");
        let (map, warnings) = load(Some(&room), None, Some(iwad), true, &mut Vec::new()).unwrap();
        assert!(!placeholders(&warnings), "{warnings:?}");
        let view = engine::format::MapView::new_checked(&map.bytes).unwrap();
        assert!(view.texture_count() >= 2, "the wall's and the flat's");
        let text_map = dir.join("room.map");
        std::fs::write(&text_map, DEFAULT_MAP_SOURCE).unwrap();
        let e = load(Some(&text_map), None, Some(iwad), true, &mut Vec::new()).unwrap_err();
        assert!(e.contains("leave out --iwad"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_built_in_level_names_itself() {
        let (map, _) = load(None, None, None, true, &mut Vec::new()).unwrap();
        assert_eq!(map.title, "e1_hangar");
        assert_eq!(map.name, "maps/e1_hangar.map (built in)");
    }
}
