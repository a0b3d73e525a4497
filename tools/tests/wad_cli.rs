//! The `tools` binary on small hand-made WADs (DOOM-format and UDMF
//! maps) and standalone UDMF files: no Freedoom needed.

mod common;

use common::{compile, scratch, text, tools};

use std::fs;

use engine::world::Level;
use serde_json::Value;
use tools::doom::binary::write;

/// A WAD from (name, bytes) lumps.
fn wad(lumps: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut data = Vec::new();
    let mut dir = Vec::new();
    for (name, bytes) in lumps {
        dir.extend_from_slice(&(12 + data.len() as i32).to_le_bytes());
        dir.extend_from_slice(&(bytes.len() as i32).to_le_bytes());
        let mut n = [0u8; 8];
        n[..name.len()].copy_from_slice(name.as_bytes());
        dir.extend_from_slice(&n);
        data.extend_from_slice(bytes);
    }
    let mut out = b"PWAD".to_vec();
    out.extend_from_slice(&(lumps.len() as i32).to_le_bytes());
    out.extend_from_slice(&(12 + data.len() as i32).to_le_bytes());
    out.extend_from_slice(&data);
    out.extend_from_slice(&dir);
    out
}

/// The lumps of a one-room binary map (`size` units square) with a
/// player start and a barrel.
fn room(marker: &'static str, size: i16) -> Vec<(&'static str, Vec<u8>)> {
    let (mut v, mut l, mut s, mut sec, mut t) = (vec![], vec![], vec![], vec![], vec![]);
    for (x, y) in [(0, 0), (0, size), (size, size), (size, 0)] {
        write::vertex(&mut v, x, y);
    }
    for i in 0..4u16 {
        write::linedef(&mut l, i, (i + 1) % 4, 1, 0, 0, Some(i), None);
        write::sidedef(&mut s, 0, 0, "-", "-", "STARTAN3", 0);
    }
    write::sector(&mut sec, 0, 128, "FLOOR4_8", "F_SKY1", 160, 0, 0);
    write::thing(&mut t, size / 2, size / 2, 90, 1, 7);
    write::thing(&mut t, size / 4, size / 4, 0, 2035, 7);
    vec![
        (marker, vec![]),
        ("THINGS", t),
        ("LINEDEFS", l),
        ("SIDEDEFS", s),
        ("VERTEXES", v),
        ("SECTORS", sec),
    ]
}

const UDMF_ROOM: &str = r#"namespace = "doom";
vertex { x = 0.0; y = 0.0; }
vertex { x = 0.0; y = 192.0; }
vertex { x = 192.0; y = 192.0; }
vertex { x = 192.0; y = 0.0; }
linedef { v1 = 0; v2 = 1; sidefront = 0; blocking = true; }
linedef { v1 = 1; v2 = 2; sidefront = 0; blocking = true; }
linedef { v1 = 2; v2 = 3; sidefront = 0; blocking = true; }
linedef { v1 = 3; v2 = 0; sidefront = 0; blocking = true; }
sidedef { sector = 0; texturemiddle = "STARTAN3"; }
sector { texturefloor = "FLOOR4_8"; textureceiling = "CEIL3_5"; heightceiling = 128; }
thing { x = 96.0; y = 96.0; type = 1; skill3 = true; single = true; }
"#;

fn two_map_wad() -> Vec<u8> {
    let mut lumps = room("MAP01", 256);
    lumps.extend(room("MAP02", 512));
    lumps.push(("MAP03", vec![]));
    lumps.push(("TEXTMAP", UDMF_ROOM.as_bytes().to_vec()));
    lumps.push(("ENDMAP", vec![]));
    wad(&lumps)
}

#[test]
fn compile_one_map_or_all() {
    let dir = scratch("wadcli", "compile");
    let path = dir.join("maps.wad");
    fs::write(&path, two_map_wad()).unwrap();
    let p = path.to_str().unwrap();

    let out = dir.join("two.spmp");
    let r = tools(&["compile", p, "--map", "map02", "-o", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let bytes = fs::read(&out).unwrap();
    let level = Level::load(&bytes).unwrap();
    assert_eq!(level.wall_count(), 4);
    assert_eq!(level.map().title(), "MAP02");
    // No textures in this WAD: placeholders, and one warning about it.
    let e = text(&r.stderr);
    assert_eq!(
        e.lines().filter(|l| l.contains("placeholders")).count(),
        1,
        "{e}"
    );

    let all = dir.join("all");
    let r = tools(&["compile", p, "--all", "-o", all.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    for name in ["MAP01", "MAP02", "MAP03"] {
        let bytes = fs::read(all.join(format!("{name}.spmp"))).unwrap();
        Level::load(&bytes).unwrap();
    }
    // The UDMF map inside the WAD.
    let bytes = fs::read(all.join("MAP03.spmp")).unwrap();
    let level = Level::load(&bytes).unwrap();
    assert_eq!(level.wall(engine::world::WallId(0)).flags & 1, 1);

    // Skill 4: the barrel (flags 7: all skills) stays; a skill out of
    // range is a usage error.
    let r = tools(&[
        "compile",
        p,
        "--map",
        "MAP01",
        "--skill",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let r = tools(&[
        "compile",
        p,
        "--map",
        "MAP01",
        "--skill",
        "6",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("`--skill` must be 1 to 5"),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn wad_usage_errors_name_the_maps() {
    let dir = scratch("wadcli", "usage");
    let path = dir.join("maps.wad");
    fs::write(&path, two_map_wad()).unwrap();
    let p = path.to_str().unwrap();
    let out = dir.join("x.spmp");
    let o = out.to_str().unwrap();

    let r = tools(&["compile", p, "-o", o]);
    assert_eq!(r.status.code(), Some(2));
    let e = text(&r.stderr);
    assert!(
        e.contains("3 maps") && e.contains("MAP01 MAP02 MAP03"),
        "{e}"
    );

    let r = tools(&["compile", p, "--map", "E1M1", "-o", o]);
    assert_eq!(r.status.code(), Some(1));
    let e = text(&r.stderr);
    assert!(
        e.contains("no map E1M1") && e.contains("MAP01 MAP02 MAP03"),
        "{e}"
    );

    let r = tools(&["compile", p, "--map", "MAP01", "--all", "-o", o]);
    assert_eq!(r.status.code(), Some(2));

    let r = tools(&[
        "compile", p, "--map", "MAP01", "--open", "--movers", "-o", o,
    ]);
    assert_eq!(r.status.code(), Some(2));
    let e = text(&r.stderr);
    assert!(
        e.contains("`--open` compiles the doors open and `--movers` shut"),
        "{e}"
    );
    assert!(!out.exists(), "nothing written");

    let r = tools(&["dump", p, "--all"]);
    assert_eq!(r.status.code(), Some(2));

    // WAD flags on a text map.
    let map = dir.join("room.map");
    fs::write(
        &map,
        "vertex a 0 0\nvertex b 64 0\nvertex c 64 64\nsector s floor 0 ceiling 64\nloop s a b c a\nplayer 40 20 0\n",
    )
    .unwrap();
    let r = tools(&["compile", map.to_str().unwrap(), "--map", "MAP01", "-o", o]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("`--map` is for WAD files"),
        "{}",
        text(&r.stderr)
    );

    // Nothing was written by the failures.
    assert!(!out.exists());
}

#[test]
fn info_and_dump_of_wad_maps() {
    let dir = scratch("wadcli", "info");
    let path = dir.join("maps.wad");
    fs::write(&path, two_map_wad()).unwrap();
    let p = path.to_str().unwrap();

    let r = tools(&["info", p, "--map", "MAP01"]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let out = text(&r.stdout);
    assert!(out.contains("map: MAP01"), "{out}");
    assert!(out.contains("walls: 4"), "{out}");
    assert!(
        out.contains("wad map lumps (VERTEXES LINEDEFS SIDEDEFS SECTORS THINGS): 238 bytes"),
        "{out}"
    );
    assert!(out.contains("max walls per block: "), "{out}");

    let r = tools(&["info", p]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let out = text(&r.stdout);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("MAP0")).count(),
        3,
        "{out}"
    );

    let r = tools(&["dump", p, "--map", "MAP01", "--json"]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let json: Value = serde_json::from_slice(&r.stdout).unwrap();
    // The old fields and the new ones.
    for key in [
        "title",
        "vertices",
        "walls",
        "sectors",
        "things",
        "player_start",
        "blockmap",
        "sides",
        "textures",
        "sky",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    let wall = &json["walls"][0];
    for key in [
        "v1",
        "v2",
        "front",
        "back",
        "flags",
        "front_side",
        "back_side",
    ] {
        assert!(wall.get(key).is_some(), "wall {key}");
    }
    assert_eq!(wall["back"], Value::Null);
    assert_eq!(wall["flags"], 1);
    assert_eq!(json["sectors"][0]["ceiling_texture"], "sky");
    let barrel = &json["things"][1];
    assert_eq!(barrel["kind"], "decoration");
    assert_eq!(barrel["solid"], true);
    assert_eq!(json["things"][0]["solid"], false);
    assert_eq!(barrel["type"], 2035);
    assert_eq!(json["player_start"]["angle"], 90.0);
}

#[test]
fn standalone_udmf_files() {
    let dir = scratch("wadcli", "udmf");
    let src = dir.join("room.udmf");
    fs::write(&src, UDMF_ROOM).unwrap();
    let out = dir.join("room.spmp");
    let r = compile(&src, &out);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let e = text(&r.stderr);
    assert_eq!(
        e.lines().filter(|l| l.contains("placeholder")).count(),
        1,
        "{e}"
    );
    Level::load(&fs::read(&out).unwrap()).unwrap();

    // Recognised by its content too, whatever the name.
    let other = dir.join("room.txt");
    fs::write(&other, UDMF_ROOM).unwrap();
    let r = tools(&["info", other.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert!(text(&r.stdout).contains("walls: 4"));

    // And by the library's loader, as frontends use it.
    let loaded = tools::load_map_file(&other).unwrap();
    Level::load(&loaded).unwrap();

    // An error names the file, line and column.
    let bad = dir.join("bad.udmf");
    fs::write(&bad, "namespace = \"doom\";\nvertex { x = 1.0; y = ; }\n").unwrap();
    let r = compile(&bad, &out);
    assert_eq!(r.status.code(), Some(1));
    let e = text(&r.stderr);
    assert!(e.contains("bad.udmf:2:23: expected a value"), "{e}");
}

#[test]
fn damaged_wads_give_errors_not_crashes() {
    let dir = scratch("wadcli", "damaged");
    let good = two_map_wad();
    let out = dir.join("x.spmp");
    // Cut anywhere: an error or a smaller map, never a crash. (Cut
    // before its magic, it is no WAD at all: a usage error.)
    for cut in (12..good.len()).step_by(37) {
        let path = dir.join("cut.wad");
        fs::write(&path, &good[..cut]).unwrap();
        let r = tools(&[
            "compile",
            path.to_str().unwrap(),
            "--map",
            "MAP01",
            "-o",
            out.to_str().unwrap(),
        ]);
        let code = r.status.code();
        assert!(
            matches!(code, Some(0 | 1)),
            "cut {cut}: {code:?} {}",
            text(&r.stderr)
        );
        if code == Some(1) {
            assert!(text(&r.stderr).starts_with("error"), "{}", text(&r.stderr));
        }
    }
    // A map whose lumps are all garbage.
    let mut lumps = room("MAP01", 256);
    for (i, (_, bytes)) in lumps.iter_mut().enumerate().skip(1) {
        for (k, b) in bytes.iter_mut().enumerate() {
            *b = (k * 131 + i * 17) as u8;
        }
    }
    let path = dir.join("garbage.wad");
    fs::write(&path, wad(&lumps)).unwrap();
    let r = compile(&path, &out);
    assert!(
        matches!(r.status.code(), Some(0 | 1)),
        "{}",
        text(&r.stderr)
    );
}

/// A file named for a WAD that is none is reported as not a WAD, and why:
/// an empty one is not compiled as an empty text map, and with `--iwad`
/// the error is about the file, not a usage error about the flag. The same
/// for a `.spmp` that is no compiled map, and for content that is nothing.
#[test]
fn files_that_are_not_what_their_names_say() {
    let dir = scratch("wadcli", "misnamed");
    let out = dir.join("x.spmp");
    let iwad = dir.join("iwad.wad");
    fs::write(&iwad, two_map_wad()).unwrap();
    let cases: [(&str, &[u8], &[&str]); 5] = [
        ("empty.wad", b"", &["is not a WAD", "the file is empty"]),
        (
            "magic.wad",
            b"WAD2\0\0\0\0",
            &["is not a WAD", "57 41 44 32", "IWAD"],
        ),
        ("short.wad", b"PW", &["is not a WAD", "50 57"]),
        (
            "bad.spmp",
            b"SPMQ\0\0",
            &["is not a compiled map", "53 50 4d 51"],
        ),
        (
            "blob.bin",
            b"\xff\xfe\x00\x01",
            &["neither a WAD, a compiled map nor UTF-8 text"],
        ),
    ];
    for (name, bytes, want) in cases {
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        for extra in [&[][..], &["--iwad", iwad.to_str().unwrap()][..]] {
            let mut args = vec![
                "compile",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ];
            args.extend_from_slice(extra);
            let r = tools(&args);
            let err = text(&r.stderr);
            assert_eq!(r.status.code(), Some(1), "{name} {extra:?}: {err}");
            for w in want {
                assert!(err.contains(w), "{name} {extra:?}: {err}");
            }
        }
        let e = tools::load_map_file(&path).unwrap_err();
        assert!(e.contains(want[0]), "{name}: {e}");
    }
}

/// The library call frontends use for `--warp`.
#[test]
fn compile_wad_map_for_frontends() {
    let bytes = two_map_wad();
    let out =
        tools::compile_wad_map(&bytes, "maps.wad", "map02", None, &Default::default()).unwrap();
    assert_eq!(Level::load(&out.bytes).unwrap().map().title(), "MAP02");
    let e =
        tools::compile_wad_map(&bytes, "maps.wad", "MAP09", None, &Default::default()).unwrap_err();
    assert!(
        e.contains("maps.wad") && e.contains("MAP01 MAP02 MAP03"),
        "{e}"
    );
    // `load_map_bytes` takes the first map, with a note.
    let out = tools::load_map_bytes(bytes, "maps.wad", Default::default()).unwrap();
    assert_eq!(Level::load(&out.bytes).unwrap().map().title(), "MAP01");
    assert!(
        out.warnings[0].starts_with("note: `maps.wad` has 3 maps"),
        "{:?}",
        out.warnings
    );
}
