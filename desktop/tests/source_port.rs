//! What a level tester gets beyond walking, checked without a window:
//! key scripts and recording, the settings file, `--warp`, the automap,
//! noclip, and the errors a user can act on.

mod common;

use common::{data, ok, read_png, run, s, scratch, stderr};

use std::fs;
use std::path::Path;

fn fail(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(1), "desktop {args:?} did not fail");
    assert!(out.stdout.is_empty());
    stderr(&out)
}

fn count_colour(rgb: &[u8], colour: u32) -> usize {
    let want = [(colour >> 16) as u8, (colour >> 8) as u8, colour as u8];
    rgb.chunks(3).filter(|p| *p == want).count()
}

#[test]
fn a_key_script_recorded_headless_replays_to_the_same_trace() {
    let dir = scratch("port", "record");
    let map = data("two_rooms.map");
    let keys = dir.join("k.script");
    fs::write(
        &keys,
        "0 W down\n20 A down\n25 W up\n30 A up\n30 Right down\n40 Right up\n50 quit\n",
    )
    .unwrap();
    let (rec, t1, t2) = (dir.join("r.demo"), dir.join("1.jsonl"), dir.join("2.jsonl"));
    let played = ok(&[
        "--headless",
        "--map",
        s(&map),
        "--script-keys",
        s(&keys),
        "--record",
        s(&rec),
        "--trace",
        s(&t1),
    ]);
    let replayed = ok(&[
        "--headless",
        "--map",
        s(&map),
        "--demo",
        s(&rec),
        "--trace",
        s(&t2),
    ]);
    let trace = fs::read_to_string(&t1).unwrap();
    assert_eq!(trace.lines().count(), 50);
    assert_eq!(trace, fs::read_to_string(&t2).unwrap());
    assert_eq!(played.stdout, replayed.stdout);
    let demo = fs::read_to_string(&rec).unwrap();
    assert!(
        demo.ends_with("\n20 100 0 0\n5 100 -100 0\n5 0 -100 0\n10 0 0 -5\n10 0 0 0\n"),
        "{demo}"
    );
}

#[test]
fn recording_a_demo_reproduces_the_demo() {
    let dir = scratch("port", "rerecord");
    let rec = dir.join("again.demo");
    let demo = data("walk_east.demo");
    ok(&[
        "--headless",
        "--map",
        s(&data("two_rooms.map")),
        "--demo",
        s(&demo),
        "--record",
        s(&rec),
    ]);
    let parse = |p: &Path| desktop::demo::parse_demo(&fs::read_to_string(p).unwrap(), "d").unwrap();
    assert_eq!(parse(&rec), parse(&demo));
}

#[test]
fn a_bad_key_script_names_the_file_and_line() {
    let dir = scratch("port", "bad-script");
    let keys = dir.join("k.script");
    fs::write(&keys, "0 W down\n5 Jump down\n").unwrap();
    let err = fail(&["--headless", "--script-keys", s(&keys)]);
    assert!(
        err.starts_with(&format!("{}:2: `Jump` is not a key name", keys.display())),
        "{err}"
    );
}

#[test]
fn the_automap_shows_in_a_screenshot() {
    let dir = scratch("port", "automap");
    let keys = dir.join("k.script");
    fs::write(&keys, "0 Tab down\n1 Tab up\n").unwrap();
    let (with, without) = (dir.join("map.png"), dir.join("view.png"));
    let map = data("two_rooms.map");
    let base = ["--headless", "--map", s(&map), "--frames", "2"];
    ok(&[
        &base[..],
        &["--script-keys", s(&keys), "--screenshot", s(&with)],
    ]
    .concat());
    ok(&[&base[..], &["--screenshot", s(&without)]].concat());
    let (_, _, map_rgb) = read_png(&with);
    let (_, _, view_rgb) = read_png(&without);
    use desktop::automap::{PLAYER_COLOR, PORTAL_COLOR, WALL_COLOR};
    assert!(count_colour(&map_rgb, WALL_COLOR) > 100);
    assert!(count_colour(&map_rgb, PORTAL_COLOR) > 10);
    assert!(count_colour(&map_rgb, PLAYER_COLOR) > 10);
    assert_eq!(count_colour(&view_rgb, WALL_COLOR), 0);
}

#[test]
fn noclip_pauses_the_trace_and_where_prints_the_position() {
    let dir = scratch("port", "noclip");
    let keys = dir.join("k.script");
    fs::write(
        &keys,
        "0 N down\n1 N up\n1 W down\n30 W up\n30 P down\n31 P up\n\
         31 N down\n32 N up\n32 P down\n33 P up\n40 quit\n",
    )
    .unwrap();
    let trace = dir.join("t.jsonl");
    let out = ok(&[
        "--headless",
        "--map",
        s(&data("two_rooms.map")),
        "--script-keys",
        s(&keys),
        "--trace",
        s(&trace),
    ]);
    // 31 steps in noclip: 9 game ticks, and the player never moved.
    let lines = fs::read_to_string(&trace).unwrap();
    assert_eq!(lines.lines().count(), 9);
    let err = stderr(&out);
    // The camera went 29 steps of 16 units east, through the portal into
    // the right room (floor 16).
    assert!(
        err.contains(
            "where: x 592 y 192 z 16 eye 57 angle 0 sector 1 floor 16 ceiling 160 \
                      light 140 tick 0 (noclip)"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "where: x 128 y 192 z 0 eye 41 angle 0 sector 0 floor 0 ceiling 128 light 200 tick 1\n"
        ),
        "{err}"
    );
    let last = String::from_utf8(out.stdout).unwrap();
    assert!(last.starts_with("{\"tick\":9,\"x\":128,"), "{last}");
}

#[test]
fn a_settings_file_with_mistakes_says_where_and_uses_the_defaults() {
    let dir = scratch("port", "config");
    let config = dir.join("desktop.cfg");
    fs::write(
        &config,
        "[keys]\nforward = I\nback = Hyper\n[mouse]\nsensitivity = fast\n",
    )
    .unwrap();
    let keys = dir.join("k.script");
    // I is forward now; S (back's default) still works.
    fs::write(&keys, "0 I down\n10 I up\n10 S down\n12 S up\n20 quit\n").unwrap();
    let out = ok(&[
        "--headless",
        "--config",
        s(&config),
        "--map",
        s(&data("two_rooms.map")),
        "--script-keys",
        s(&keys),
    ]);
    let err = stderr(&out);
    let at = config.display();
    assert!(
        err.contains(&format!(
            "error: {at}:3: `back = Hyper`: `Hyper` is not a key name"
        )),
        "{err}"
    );
    assert!(
        err.contains("note: using the default: back = S, Down"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "error: {at}:5: `sensitivity = fast`: `fast` is not a whole number from 1 to 1000\n\
             note: using the default: sensitivity = 12"
        )),
        "{err}"
    );
    let last = String::from_utf8(out.stdout).unwrap();
    assert!(last.starts_with("{\"tick\":20,"), "{last}");
    let x: f64 = last
        .split("\"x\":")
        .nth(1)
        .and_then(|v| v.split(',').next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(x > 150.0, "I did not move the player forward: {last}");
}

#[test]
fn a_missing_settings_file_is_written_with_the_defaults() {
    let dir = scratch("port", "config-new");
    let config = dir.join("new").join("desktop.cfg");
    let out = ok(&["--headless", "--config", s(&config)]);
    assert!(stderr(&out).contains("wrote the default settings"));
    assert_eq!(
        fs::read_to_string(&config).unwrap(),
        desktop::config::default_text()
    );
    // Headless without --config reads and writes no settings at all.
    let out = ok(&["--headless"]);
    assert!(!stderr(&out).contains("settings"), "{}", stderr(&out));
}

/// A WAD with empty map lumps: enough to list its maps.
fn tiny_wad(maps: &[&str]) -> Vec<u8> {
    let mut names: Vec<&str> = Vec::new();
    for m in maps {
        names.push(m);
        names.extend(["THINGS", "LINEDEFS", "SIDEDEFS", "VERTEXES", "SECTORS"]);
    }
    let mut wad = b"PWAD".to_vec();
    wad.extend((names.len() as i32).to_le_bytes());
    wad.extend(12i32.to_le_bytes());
    for n in names {
        wad.extend(0i32.to_le_bytes());
        wad.extend(0i32.to_le_bytes());
        let mut raw = [0u8; 8];
        raw[..n.len()].copy_from_slice(n.as_bytes());
        wad.extend(raw);
    }
    wad
}

#[test]
fn warp_errors_say_what_to_do() {
    let dir = scratch("port", "warp");
    let wad = dir.join("tiny.wad");
    fs::write(&wad, tiny_wad(&["E1M1", "E1M2", "E2M1"])).unwrap();

    let err = fail(&["--headless", "--map", s(&wad), "--warp", "E1M9"]);
    assert_eq!(
        err,
        format!(
            "error: there is no map E1M9 in `{}`\nnote: its maps are: E1M1 E1M2 E2M1\n",
            wad.display()
        )
    );
    let err = fail(&["--headless", "--map", s(&wad), "--warp", "3"]);
    assert!(err.starts_with("error: there is no map MAP03 in"), "{err}");
    let err = fail(&["--headless", "--map", s(&wad), "--warp", "E1 M1"]);
    assert!(
        err.starts_with("error: --warp takes a map name like E1M1 or MAP01"),
        "{err}"
    );
    let err = fail(&["--headless", "--warp", "MAP01"]);
    assert!(err.contains("give the WAD with --map"), "{err}");
    let err = fail(&[
        "--headless",
        "--map",
        s(&data("two_rooms.map")),
        "--warp",
        "MAP01",
    ]);
    assert!(err.contains("is a single map, not a WAD"), "{err}");

    let empty = dir.join("empty.wad");
    fs::write(&empty, tiny_wad(&[])).unwrap();
    let err = fail(&["--headless", "--map", s(&empty)]);
    assert!(err.contains("has no maps in it"), "{err}");
    let corrupt = dir.join("corrupt.wad");
    fs::write(&corrupt, b"PWAD\x05\0\0\0\xff\xff\0\0").unwrap();
    let err = fail(&["--headless", "--map", s(&corrupt)]);
    assert!(err.starts_with("error: cannot read `"), "{err}");
}

#[test]
fn a_missing_map_lists_what_its_folder_has() {
    let dir = scratch("port", "missing");
    fs::write(dir.join("stairs.map"), "").unwrap();
    fs::write(dir.join("doom2.wad"), "").unwrap();
    fs::write(dir.join("notes.txt"), "").unwrap();
    let missing = dir.join("stair.map");
    let err = fail(&["--headless", "--map", s(&missing)]);
    assert!(
        err.starts_with(&format!("error: cannot read map `{}`", missing.display())),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "note: {} has: doom2.wad stairs.map\n",
            dir.display()
        )),
        "{err}"
    );
}

/// A WAD of square 256-unit rooms in DOOM's binary format, one map per
/// name, the player 1 start in the middle facing east. No textures: the
/// importer warns and uses placeholders.
fn room_wad(maps: &[&str]) -> Vec<u8> {
    let mut lumps: Vec<(String, Vec<u8>)> = Vec::new();
    for m in maps {
        let mut things = Vec::new();
        for v in [128i16, 128, 0, 1, 7] {
            things.extend(v.to_le_bytes());
        }
        let mut vertexes = Vec::new();
        // Clockwise (DOOM's y points up), so every line's right side,
        // its front, is inside.
        for (x, y) in [(0i16, 0i16), (0, 256), (256, 256), (256, 0)] {
            vertexes.extend(x.to_le_bytes());
            vertexes.extend(y.to_le_bytes());
        }
        let mut linedefs = Vec::new();
        for i in 0..4u16 {
            for v in [i, (i + 1) % 4, 1, 0, 0, i, 0xFFFF] {
                linedefs.extend(v.to_le_bytes());
            }
        }
        let name8 = |n: &str| {
            let mut raw = [0u8; 8];
            raw[..n.len()].copy_from_slice(n.as_bytes());
            raw
        };
        let mut sidedefs = Vec::new();
        for _ in 0..4 {
            sidedefs.extend(0i16.to_le_bytes());
            sidedefs.extend(0i16.to_le_bytes());
            sidedefs.extend(name8("-"));
            sidedefs.extend(name8("-"));
            sidedefs.extend(name8("STARTAN3"));
            sidedefs.extend(0u16.to_le_bytes());
        }
        let mut sectors = Vec::new();
        sectors.extend(0i16.to_le_bytes());
        sectors.extend(128i16.to_le_bytes());
        sectors.extend(name8("FLOOR4_8"));
        sectors.extend(name8("CEIL3_5"));
        for v in [160i16, 0, 0] {
            sectors.extend(v.to_le_bytes());
        }
        lumps.push((m.to_string(), Vec::new()));
        lumps.push(("THINGS".into(), things));
        lumps.push(("LINEDEFS".into(), linedefs));
        lumps.push(("SIDEDEFS".into(), sidedefs));
        lumps.push(("VERTEXES".into(), vertexes));
        lumps.push(("SECTORS".into(), sectors));
    }
    let mut data: Vec<u8> = Vec::new();
    let mut dir = Vec::new();
    for (name, bytes) in &lumps {
        dir.extend(((12 + data.len()) as i32).to_le_bytes());
        dir.extend((bytes.len() as i32).to_le_bytes());
        let mut raw = [0u8; 8];
        raw[..name.len()].copy_from_slice(name.as_bytes());
        dir.extend(raw);
        data.extend(bytes);
    }
    let mut wad = b"PWAD".to_vec();
    wad.extend((lumps.len() as i32).to_le_bytes());
    wad.extend(((12 + data.len()) as i32).to_le_bytes());
    wad.extend(data);
    wad.extend(dir);
    wad
}

#[test]
fn a_map_in_a_wad_plays_with_warp() {
    let dir = scratch("port", "wad");
    let wad = dir.join("rooms.wad");
    fs::write(&wad, room_wad(&["MAP01", "MAP02"])).unwrap();
    let walk = dir.join("walk.demo");
    fs::write(&walk, "20 100 0 0\n").unwrap();
    let play = |extra: &[&str]| {
        let out = ok(&[&["--headless", "--demo", s(&walk)], extra].concat());
        let err = stderr(&out);
        (String::from_utf8(out.stdout).unwrap(), err)
    };
    let (warped, _) = play(&["--map", s(&wad), "--warp", "map02"]);
    assert!(warped.starts_with("{\"tick\":20,"), "{warped}");
    // Walked east from the middle, and stopped at the east wall.
    let x: f64 = warped
        .split("\"x\":")
        .nth(1)
        .and_then(|v| v.split(',').next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!((200.0..=240.0).contains(&x), "{warped}");
    // Without --warp: the first map, with a note; by number; or as the
    // IWAD itself.
    let (first, notes) = play(&["--map", s(&wad)]);
    assert_eq!(first, warped);
    assert!(
        notes.contains("note: playing MAP01, the first of 2 maps"),
        "{notes}"
    );
    assert_eq!(play(&["--map", s(&wad), "--warp", "1"]).0, warped);
    assert_eq!(play(&["--iwad", s(&wad), "--warp", "MAP02"]).0, warped);
    // A recording names the WAD and the map.
    let rec = dir.join("r.demo");
    play(&["--map", s(&wad), "--warp", "2", "--record", s(&rec)]);
    assert!(fs::read_to_string(&rec)
        .unwrap()
        .contains(&format!("# map: {} --warp MAP02\n", wad.display())));
    // --iwad must be a WAD, and is for WADs' maps and UDMF maps.
    let err = fail(&["--headless", "--iwad", s(&walk), "--map", s(&wad)]);
    assert!(err.contains("is not a WAD"), "{err}");
    let err = fail(&[
        "--headless",
        "--iwad",
        s(&wad),
        "--map",
        s(&data("two_rooms.map")),
    ]);
    assert!(
        err.contains("the maps of a WAD or a UDMF map") && err.contains("is neither"),
        "{err}"
    );
}
