//! The `tools` binary, run as a user would.

mod common;

use common::{compile, scratch, text, tools};

use std::fs;
use std::path::Path;

use engine::math::Fx;
use engine::world::Level;
use serde_json::Value;

const ROOMS: &str = "\
title \"Two rooms\"
vertex a 0 0
vertex b 256 0
vertex c 256 256
vertex d 0 256
vertex e 512 0.1
vertex f 512 256
sector hall floor 0 ceiling 128 light 200
sector side floor 16 ceiling 120.5  # a step up
loop hall a b c d a
loop side b e f c b
player 64 64 -90
entity 384 128 20
";

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn compile_writes_a_loadable_map() {
    let dir = scratch("cli", "compile");
    let src = dir.join("rooms.map");
    let out = dir.join("rooms.spmp");
    fs::write(&src, ROOMS).unwrap();
    let r = compile(&src, &out);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(text(&r.stderr), "");
    let bytes = fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"SPMP"));
    let level = Level::load(&bytes).unwrap();
    assert_eq!(level.sector_count(), 2);
    // Only the output: no temporary file is left behind.
    assert_eq!(files_in(&dir), ["rooms.map", "rooms.spmp"]);

    // A compiled input is checked and copied as is.
    let copy = dir.join("copy.spmp");
    let r = compile(&out, &copy);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(fs::read(&copy).unwrap(), bytes);

    // Recompiling over an existing output replaces it.
    let r = tools(&[
        "compile",
        src.to_str().unwrap(),
        "--output",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(fs::read(&copy).unwrap(), bytes);
}

#[test]
fn errors_print_like_rustc_and_leave_no_output() {
    let dir = scratch("cli", "errors");
    let src = dir.join("bad.map");
    let out = dir.join("bad.spmp");
    let bad = ROOMS.replace("loop hall a b c d a", "loop hall a b c d");
    fs::write(&src, &bad).unwrap();
    let r = compile(&src, &out);
    assert_eq!(r.status.code(), Some(1));
    let err = text(&r.stderr);
    let expected = format!(
        "error: unclosed sector loop: ends at `d`, started at `a`\n  --> {}:10:6\n   |\n10 | loop hall a b c d\n   |      ^^^^^^^^^^^^\n",
        src.display()
    );
    assert!(err.starts_with(&expected), "{err}");
    assert!(
        err.contains("error: aborting due to 1 previous error"),
        "{err}"
    );
    assert_eq!(files_in(&dir), ["bad.map"]);

    // An existing output survives a failed compile untouched.
    fs::write(&out, b"old contents").unwrap();
    let r = compile(&src, &out);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(fs::read(&out).unwrap(), b"old contents");
    assert_eq!(files_in(&dir), ["bad.map", "bad.spmp"]);

    // A broken compiled file is refused with the loader's reason.
    let broken = dir.join("broken.spmp");
    fs::write(&broken, b"SPMP\x00\x01\x00\x09").unwrap();
    let r = compile(&broken, &out);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).contains("not a valid compiled map"),
        "{}",
        text(&r.stderr)
    );
    assert_eq!(fs::read(&out).unwrap(), b"old contents");

    // A missing input names the path.
    let missing = dir.join("nope.map");
    let r = tools(&["info", missing.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stderr).contains("nope.map"), "{}", text(&r.stderr));

    // An output in a directory that does not exist: an error, no panic.
    let r = compile(&src, Path::new("/nonexistent-dir/x.spmp"));
    assert_eq!(r.status.code(), Some(1));
}

#[test]
fn warnings_go_to_stderr_and_do_not_fail() {
    let dir = scratch("cli", "warnings");
    let src = dir.join("w.map");
    fs::write(&src, format!("{ROOMS}vertex lonely 900 900\n")).unwrap();
    let out = dir.join("w.spmp");
    let r = compile(&src, &out);
    assert_eq!(r.status.code(), Some(0));
    let err = text(&r.stderr);
    assert!(
        err.contains("warning: vertex `lonely` is never used"),
        "{err}"
    );
    assert!(err.contains(":14:8"), "{err}");
    assert!(out.exists());
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["compile", "x.map"],
        &["compile", "-o", "y"],
        &["compile", "x.map", "-o"],
        &["compile", "x.map", "-o", "y", "--fast"],
        &["compile", "x.map", "-o", "y", "--block-size", "7"],
        &["info"],
        &["info", "a", "b"],
    ] {
        let r = tools(args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", text(&r.stderr));
        assert!(text(&r.stderr).starts_with("error: "), "{args:?}");
    }
    let r = tools(&["--help"]);
    assert_eq!(r.status.code(), Some(0));
    assert!(text(&r.stdout).contains("tools compile IN -o OUT"));
}

#[test]
fn info_reports_the_same_figures_for_text_and_compiled() {
    let dir = scratch("cli", "info");
    let src = dir.join("rooms.map");
    let out = dir.join("rooms.spmp");
    fs::write(&src, ROOMS).unwrap();
    assert_eq!(compile(&src, &out).status.code(), Some(0));
    let figures = |path: &Path| {
        let r = tools(&["info", path.to_str().unwrap()]);
        assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
        text(&r.stdout)
            .lines()
            .filter(|l| !l.starts_with("map:"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let from_text = figures(&src);
    assert_eq!(from_text, figures(&out));
    let size = fs::metadata(&out).unwrap().len();
    let expected = [
        "title: Two rooms".to_string(),
        "vertices: 6".into(),
        "walls: 7".into(),
        "portals: 1".into(),
        "sectors: 2".into(),
        "things: 2".into(),
        format!("bytes: {size}"),
        "block size: 64".into(),
        "blocks: 9 x 5".into(),
        "block entries: 35".into(),
        "max walls per block: 3".into(),
        "textures: 0".into(),
        "texture bytes: 0".into(),
        "BSP: 1 nodes, 8 segs, 2 subsectors".into(),
    ];
    assert_eq!(from_text, expected);
}

#[test]
fn dump_json_describes_the_geometry() {
    let dir = scratch("cli", "dump");
    let src = dir.join("rooms.map");
    fs::write(&src, ROOMS).unwrap();
    let r = tools(&["dump", src.to_str().unwrap(), "--json"]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let j: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(j["title"], "Two rooms");

    let vertices = j["vertices"].as_array().unwrap();
    assert_eq!(vertices.len(), 6);
    assert_eq!(vertices[1]["x"], 256.0);
    // 0.1 as 16.16 is exactly 6554/65536, and JSON carries it exactly.
    let y = vertices[4]["y"].as_f64().unwrap();
    assert_eq!(y, 6554.0 / 65536.0);
    assert_eq!(Fx::from_num(y).to_bits(), 6554);

    let walls = j["walls"].as_array().unwrap();
    assert_eq!(walls.len(), 7);
    let portals: Vec<&Value> = walls.iter().filter(|w| !w["back"].is_null()).collect();
    assert_eq!(portals.len(), 1);
    let p = portals[0];
    let ends = [p["v1"].as_u64().unwrap(), p["v2"].as_u64().unwrap()];
    assert!(ends.contains(&1) && ends.contains(&2), "{p}");
    let sides = [p["front"].as_u64().unwrap(), p["back"].as_u64().unwrap()];
    assert!(sides.contains(&0) && sides.contains(&1), "{p}");

    let sectors = j["sectors"].as_array().unwrap();
    assert_eq!(sectors[0]["floor"], 0.0);
    assert_eq!(sectors[0]["ceiling"], 128.0);
    assert_eq!(sectors[0]["light"], 200);
    assert_eq!(sectors[1]["floor"], 16.0);
    assert_eq!(sectors[1]["ceiling"], 120.5);
    assert_eq!(sectors[1]["light"], 160);
    assert_eq!(sectors[0]["walls"].as_array().unwrap().len(), 4);
    assert_eq!(sectors[1]["walls"].as_array().unwrap().len(), 4);

    let things = j["things"].as_array().unwrap();
    assert_eq!(things.len(), 2);
    assert_eq!(things[0]["kind"], "player_start");
    assert_eq!(things[1]["kind"], "pushable");
    assert_eq!(things[1]["radius"], 20.0);
    assert_eq!(j["player_start"]["x"], 64.0);
    assert_eq!(j["player_start"]["y"], 64.0);
    assert_eq!(j["player_start"]["angle"], 270.0);

    let bm = &j["blockmap"];
    assert_eq!(bm["block_size"], 64);
    assert_eq!(bm["origin_x"], -1);
    assert_eq!(bm["origin_y"], -1);
    assert_eq!(bm["cols"], 9);
    assert_eq!(bm["rows"], 5);
    // The node builder's BSP: one node splits the two rooms, one
    // subsector a room, a seg a side of each wall (the portal's two).
    let bsp = &j["bsp"];
    assert_eq!(bsp["nodes"].as_array().map(Vec::len), Some(1));
    assert_eq!(bsp["segs"].as_array().map(Vec::len), Some(8));
    assert_eq!(
        bsp["nodes"][0]["right"],
        serde_json::json!({"subsector": 0})
    );
    assert_eq!(bsp["nodes"][0]["left"], serde_json::json!({"subsector": 1}));
    let sectors: Vec<_> = (0..2)
        .map(|i| bsp["subsectors"][i]["sector"].clone())
        .collect();
    assert_ne!(sectors[0], sectors[1]);

    // The same JSON from the compiled file.
    let out = dir.join("rooms.spmp");
    compile(&src, &out);
    let r2 = tools(&["dump", out.to_str().unwrap(), "--json"]);
    assert_eq!(r2.stdout, r.stdout);
}

#[test]
fn dump_json_lists_doors_lifts_and_tags() {
    let dir = scratch("cli", "dump-movers");
    let src = dir.join("rooms.map");
    let map = ROOMS.replace("ceiling 120.5", "ceiling 120.5 tag 9")
        + "door c b
lift a d tag 9 walk
";
    fs::write(&src, map).unwrap();
    let r = tools(&["dump", src.to_str().unwrap(), "--json"]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let j: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(j["sectors"][0]["tag"], 0);
    assert_eq!(j["sectors"][1]["tag"], 9);
    assert_eq!(j["sectors"][1]["special"], 0);
    let specials = j["specials"].as_array().unwrap();
    let door = specials
        .iter()
        .find(|s| s["action"] == "door_raise")
        .unwrap();
    assert_eq!(door["trigger"], "use");
    assert_eq!(door["repeat"], true);
    assert_eq!(door["back_sector"], true);
    let lift = specials.iter().find(|s| s["action"] == "lift").unwrap();
    assert_eq!(lift["trigger"], "walk");
    assert_eq!(lift["tag"], 9);
    assert_eq!(lift["back_sector"], false);
    // DOOM's kinds carry no speed or wait: their names say them.
    assert_eq!(door.get("speed"), None);
}

#[test]
fn dump_json_names_boom_movers_light_switches_and_flat_changing_floors() {
    let dir = scratch("cli", "dump-boom");
    let src = dir.join("rooms.map");
    let map = ROOMS.replace("ceiling 120.5", "ceiling 120.5 tag 9")
        + "door c b close_wait_open speed 8 wait 300
lift a d tag 9 walk speed 16 wait 35
lights d c dim tag 9
lights e f strobe tag 9
floor b a plat_raise_to_next_change tag 9 once
";
    fs::write(&src, map).unwrap();
    let r = tools(&["dump", src.to_str().unwrap(), "--json"]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let j: Value = serde_json::from_slice(&r.stdout).unwrap();
    let specials = j["specials"].as_array().unwrap();
    let named = |a: &str| specials.iter().find(|s| s["action"] == a).cloned();
    let door = named("boom_door_close_wait_open").expect("the Boom door");
    assert_eq!(
        (door["speed"].as_f64(), door["wait"].as_u64()),
        (Some(8.0), Some(300))
    );
    assert_eq!(door["back_sector"], true);
    let lift = named("boom_lift").expect("the Boom lift");
    assert_eq!(
        (lift["speed"].as_f64(), lift["wait"].as_u64()),
        (Some(16.0), Some(35))
    );
    assert!(named("lights_dim").is_some(), "{specials:?}");
    assert!(named("lights_strobe").is_some(), "{specials:?}");
    let floor = named("floor_plat_raise_to_next_change").expect("the floor");
    assert_eq!(floor["repeat"], false);
}
