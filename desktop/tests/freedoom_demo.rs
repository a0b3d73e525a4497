//! The shipped demos of Freedoom's E1M1 and MAP01: from the player start
//! to the exit switch, played on the map as the game plays it.

mod common;

use common::{ok, s};
use std::path::{Path, PathBuf};

fn freedoom(wad: &str) -> PathBuf {
    let dir = std::env::var_os("FREEDOOM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/games/doom"));
    let wad = dir.join(wad);
    assert!(
        wad.is_file(),
        "{} is missing: install Freedoom with `scripts/setup` (Debian package `freedoom`), \
         or point FREEDOOM_DIR at a directory holding it",
        wad.display()
    );
    wad
}

fn demo(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../demos")
        .join(name)
}

/// The demo's length in ticks, from its lines.
fn demo_ticks(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    desktop::demo::total_ticks(&desktop::demo::parse_demo(&text, "demo").unwrap())
}

fn last_line(args: &[&str]) -> String {
    let out = ok(args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines().last().unwrap_or_default().to_owned()
}

/// Plays `demo` on `map` of `wad` and checks that it ends with the exit
/// switch pressed on its last tick (a headless run stops there). If the
/// game's movement changes, make the demo again with `cargo run --release
/// -p tools --example route_demo -- WAD MAP > demos/NAME`.
fn plays_to_the_exit(wad: &str, map: &str, name: &str) {
    let (wad, demo) = (freedoom(wad), demo(name));
    let last = last_line(&[
        "--headless",
        "--map",
        s(&wad),
        "--warp",
        map,
        "--demo",
        s(&demo),
    ]);
    assert!(last.ends_with(",\"exit\":\"normal\"}"), "{name}: {last}");
    let tick = format!("{{\"tick\":{},", demo_ticks(&demo));
    assert!(
        last.starts_with(&tick),
        "{name}: {last}: not the demo's last tick"
    );
}

#[test]
fn the_e1m1_demo_plays_from_the_start_to_the_exit() {
    plays_to_the_exit("freedoom1.wad", "E1M1", "freedoom1-e1m1.demo");
}

#[test]
fn the_map01_demo_plays_from_the_start_to_the_exit() {
    plays_to_the_exit("freedoom2.wad", "MAP01", "freedoom2-map01.demo");
}

#[test]
fn with_open_the_same_demo_ends_nowhere() {
    // `--open` compiles the map for a walk-through: no specials, so the
    // switch does nothing.
    let (wad, demo) = (freedoom("freedoom1.wad"), demo("freedoom1-e1m1.demo"));
    let last = last_line(&[
        "--headless",
        "--map",
        s(&wad),
        "--warp",
        "E1M1",
        "--open",
        "--demo",
        s(&demo),
    ]);
    assert!(last.starts_with('{') && !last.contains("exit"), "{last}");
}
