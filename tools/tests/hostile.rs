//! The table of hostile inputs: each file is given to `tools compile`, which
//! must exit non-zero with the expected error and leave no output file.

use std::path::{Path, PathBuf};
use std::process::Command;

use engine::format::{DIR_ENTRY_LEN, HEADER_LEN};

const ROOM: &str = "\
vertex a 0 0
vertex b 256 0
vertex c 256 256
vertex d 0 256
sector room floor 0 ceiling 128
loop room a b c d a
player 128 128 0
";

fn valid_map() -> Vec<u8> {
    tools::compile_source(ROOM, "room.map").unwrap().bytes
}

/// Offset and length of a section of a compiled map.
fn section(bytes: &[u8], tag: &[u8; 4]) -> (usize, usize) {
    let n = u16::from_be_bytes([bytes[6], bytes[7]]) as usize;
    (0..n)
        .map(|i| HEADER_LEN + i * DIR_ENTRY_LEN)
        .find(|&at| &bytes[at..at + 4] == tag)
        .map(|at| {
            let r = |o: usize| {
                u32::from_be_bytes(bytes[at + o..at + o + 4].try_into().unwrap()) as usize
            };
            (r(4), r(8))
        })
        .expect("section present")
}

fn with(f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut b = valid_map();
    f(&mut b);
    b
}

fn put_u16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_be_bytes());
}

fn put_i32(b: &mut [u8], at: usize, v: i32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

fn wad(count: i32, dir: i32, body: &[u8]) -> Vec<u8> {
    let mut w = b"PWAD".to_vec();
    w.extend_from_slice(&count.to_le_bytes());
    w.extend_from_slice(&dir.to_le_bytes());
    w.extend_from_slice(body);
    w
}

struct Case {
    name: &'static str,
    file: &'static str,
    bytes: Vec<u8>,
    expect: &'static str,
}

fn cases() -> Vec<Case> {
    let text = |name, src: &str, expect| Case {
        name,
        file: "in.map",
        bytes: src.as_bytes().to_vec(),
        expect,
    };
    let bin = |name, bytes: Vec<u8>, expect| Case {
        name,
        file: "in.spmp",
        bytes,
        expect,
    };
    vec![
        text("empty file", "", "no sectors"),
        bin("compiled magic only", b"SPMP".to_vec(), "truncated"),
        bin(
            "wrong magic",
            with(|b| b[0..4].copy_from_slice(b"SPMQ")),
            "is not a compiled map",
        ),
        bin("a newer version", with(|b| put_u16(b, 4, 99)), "version 99"),
        bin("section count 0", with(|b| put_u16(b, 6, 0)), "missing"),
        bin(
            "section count at its maximum",
            with(|b| put_u16(b, 6, u16::MAX)),
            "sections",
        ),
        bin(
            "vertex count 0",
            with(|b| {
                let at = HEADER_LEN + 8;
                put_i32(b, at, 0);
            }),
            "refers to index",
        ),
        bin(
            "sector count 0",
            with(|b| {
                let n = u16::from_be_bytes([b[6], b[7]]) as usize;
                for i in 0..n {
                    let at = HEADER_LEN + i * DIR_ENTRY_LEN;
                    if &b[at..at + 4] == b"SECT" {
                        put_i32(b, at + 8, 0);
                    }
                }
            }),
            "no sectors",
        ),
        bin(
            "a wall's vertex one past the end",
            with(|b| {
                let (at, _) = section(b, b"WALL");
                put_u16(b, at, 4);
            }),
            "refers to index 4",
        ),
        bin(
            "a wall's sector one past the end",
            with(|b| {
                let (at, _) = section(b, b"WALL");
                put_u16(b, at + 4, 1);
            }),
            "refers to index 1",
        ),
        bin(
            "a sector's wall run one past the end",
            with(|b| {
                let (at, _) = section(b, b"SECT");
                put_i32(b, at + 16, 5);
            }),
            "sector 0 refers",
        ),
        bin(
            "blockmap with zero columns",
            with(|b| {
                let (at, _) = section(b, b"BMAP");
                put_u16(b, at + 10, 0);
            }),
            "blockmap",
        ),
        bin(
            "blockmap with the most columns and rows",
            with(|b| {
                let (at, _) = section(b, b"BMAP");
                put_u16(b, at + 10, u16::MAX);
                put_u16(b, at + 12, u16::MAX);
            }),
            "blockmap",
        ),
        bin(
            "blockmap offsets pointing outside its lists",
            with(|b| {
                let (at, _) = section(b, b"BMAP");
                put_i32(b, at + 16 + 4, 1_000_000);
            }),
            "blockmap",
        ),
        bin(
            "blockmap entry one past the walls",
            with(|b| {
                let (at, len) = section(b, b"BMAP");
                put_u16(b, at + len - 2, 4);
            }),
            "blockmap entry",
        ),
        bin(
            "a vertex beyond +32767",
            with(|b| {
                let (at, _) = section(b, b"VRTX");
                put_i32(b, at, 32768 << 16);
            }),
            "out of range",
        ),
        bin(
            "a vertex beyond -32767",
            with(|b| {
                let (at, _) = section(b, b"VRTX");
                put_i32(b, at + 4, i32::MIN);
            }),
            "out of range",
        ),
        bin(
            "truncated by one byte",
            with(|b| {
                b.pop();
            }),
            "past the end",
        ),
        text(
            "a coordinate at 32768",
            &ROOM.replace("vertex b 256 0", "vertex b 32768 0"),
            "32767",
        ),
        text(
            "a coordinate at -32768",
            &ROOM.replace("vertex a 0 0", "vertex a -32768 0"),
            "32767",
        ),
        text(
            "NaN in a text map",
            &ROOM.replace("floor 0", "floor NaN"),
            "number",
        ),
        text(
            "infinity in a text map",
            &ROOM.replace("ceiling 128", "ceiling inf"),
            "number",
        ),
        text(
            "an exponent in a text map",
            &ROOM.replace("256 256", "2.56e2 256"),
            "exponent",
        ),
        text(
            "a loop that never closes",
            &ROOM.replace("loop room a b c d a", "loop room a b c d"),
            "unclosed",
        ),
        text(
            "no player start",
            &ROOM.replace("player 128 128 0\n", ""),
            "player start",
        ),
        text(
            "ceiling below floor",
            &ROOM.replace("ceiling 128", "ceiling -1"),
            "below",
        ),
        Case {
            name: "a WAD whose directory points past the end",
            file: "in.wad",
            bytes: wad(4, 1_000_000, b""),
            expect: "past the end",
        },
        Case {
            name: "a WAD with a negative lump count",
            file: "in.wad",
            bytes: wad(-1, 12, b""),
            expect: "negative",
        },
        Case {
            name: "a WAD shorter than its header",
            file: "in.wad",
            bytes: b"IWAD\x01\x00".to_vec(),
            expect: "",
        },
    ]
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("tools-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn compile(input: &Path, output: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tools"))
        .arg("compile")
        .arg(input)
        .arg("-o")
        .arg(output)
        .output()
        .expect("run tools");
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn every_hostile_input_gives_its_error_and_no_output() {
    let root = scratch();
    let mut failures = Vec::new();
    for (i, case) in cases().into_iter().enumerate() {
        let dir = root.join(format!("case{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join(case.file);
        std::fs::write(&input, &case.bytes).unwrap();
        let output = dir.join("out.spmp");
        let _ = std::fs::remove_file(&output);
        let (code, text) = compile(&input, &output);
        let lower = text.to_lowercase();
        if code == 0 {
            failures.push(format!("{}: compiled (exit 0)", case.name));
        } else if !lower.contains(&case.expect.to_lowercase()) {
            failures.push(format!(
                "{}: expected {:?} in:\n{text}",
                case.name, case.expect
            ));
        }
        if output.exists() {
            failures.push(format!("{}: left an output file", case.name));
        }
        // No temporary files left beside the output either.
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != case.file)
            .collect();
        if !leftovers.is_empty() {
            failures.push(format!("{}: left {leftovers:?}", case.name));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_failed_compile_never_touches_an_existing_output() {
    let dir = std::env::temp_dir().join(format!("tools-hostile-keep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = dir.join("out.spmp");
    std::fs::write(&output, b"previous contents").unwrap();
    let input = dir.join("bad.map");
    std::fs::write(&input, "vertex a 0 0\nloop nowhere a\n").unwrap();
    let (code, _) = compile(&input, &output);
    assert_ne!(code, 0);
    assert_eq!(std::fs::read(&output).unwrap(), b"previous contents");
    let _ = std::fs::remove_dir_all(&dir);
}
