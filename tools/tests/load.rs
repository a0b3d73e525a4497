//! `tools::load_map_file`, the entry point frontends use.

use std::fs;
use std::path::Path;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("load-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

const ROOM: &str = "\
vertex a 0 0
vertex b 128 0
vertex c 128 128
vertex d 0 128
sector s floor 0 ceiling 128
loop s a b c d a
player 64 64 0
";

#[test]
fn text_and_compiled_files_load_to_the_same_bytes() {
    let dir = scratch("both");
    let text = dir.join("room.map");
    fs::write(&text, ROOM).unwrap();
    let bytes = tools::load_map_file(&text).unwrap();
    assert_eq!(bytes, tools::compile_source(ROOM, "x").unwrap().bytes);
    let compiled = dir.join("room.spmp");
    fs::write(&compiled, &bytes).unwrap();
    assert_eq!(tools::load_map_file(&compiled).unwrap(), bytes);
}

#[test]
fn failures_are_readable_messages() {
    let dir = scratch("fail");
    let missing = dir.join("missing.map");
    let e = tools::load_map_file(&missing).unwrap_err();
    assert!(
        e.contains("cannot read map") && e.contains("missing.map"),
        "{e}"
    );

    let truncated = dir.join("bad.spmp");
    fs::write(&truncated, b"SPMP\x00").unwrap();
    let e = tools::load_map_file(&truncated).unwrap_err();
    assert!(
        e.contains("not a valid compiled map") && e.contains("truncated"),
        "{e}"
    );

    let binary = dir.join("binary.map");
    fs::write(&binary, b"vertex a 0 0\n\xff\xfe").unwrap();
    let e = tools::load_map_file(&binary).unwrap_err();
    assert!(e.contains("UTF-8") && e.contains("line 2"), "{e}");

    let broken = dir.join("broken.map");
    fs::write(&broken, ROOM.replace("d a\n", "d\n")).unwrap();
    let e = tools::load_map_file(&broken).unwrap_err();
    assert!(e.starts_with("error: unclosed sector loop"), "{e}");
    assert!(e.contains("broken.map:6:6"), "{e}");
}

#[test]
fn load_map_keeps_the_warnings() {
    let dir = scratch("warn");
    let path = dir.join("w.map");
    fs::write(&path, format!("{ROOM}vertex spare 500 500\n")).unwrap();
    let out = tools::load_map(&path).unwrap();
    assert_eq!(out.warnings.len(), 1);
    assert_eq!(out.stats.sectors, 1);
}
