//! Tests of the whole text compiler: source in, bytes or diagnostics out.

use super::compile_source;
use crate::diag::Diagnostic;
use engine::math::{Fx, Vec2};
use engine::world::{Level, SectorId};

const ROOMS: &str = "\
title \"Two rooms\"
vertex a 0 0
vertex b 256 0
vertex c 256 256
vertex d 0 256
vertex e 512 0
vertex f 512 256
sector hall floor 0 ceiling 128 light 200 floor_color #ff0000
sector side floor 16 ceiling 120  # a step up
loop hall a b c d a
loop side b e f c b
player 64 64 -90
entity 384 128 20
";

/// The errors of `text`, as (line, column, message).
fn errors(text: &str) -> Vec<(usize, usize, String)> {
    compile_source(text, "t.map")
        .expect_err("should not compile")
        .errors
        .iter()
        .map(|d| (d.location.line, d.location.column, d.message.clone()))
        .collect()
}

/// The one error of `text`.
fn error(text: &str) -> Diagnostic {
    let d = compile_source(text, "t.map").expect_err("should not compile");
    assert_eq!(d.errors.len(), 1, "{d}");
    d.errors[0].clone()
}

/// `ROOMS` with `from` replaced by `to` (which must occur).
fn rooms_with(from: &str, to: &str) -> String {
    assert!(ROOMS.contains(from), "{from}");
    ROOMS.replacen(from, to, 1)
}

/// The underlined text of a diagnostic's main location.
fn underlined(d: &Diagnostic) -> String {
    let s = d.location.snippet.as_ref().expect("a snippet");
    s.text
        .chars()
        .skip(s.caret_start)
        .take(s.caret_len)
        .collect()
}

#[test]
fn a_clean_map_compiles_and_loads() {
    let out = compile_source(ROOMS, "t.map").unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(out.stats.sectors, 2);
    assert_eq!(out.stats.walls, 7);
    assert_eq!(out.stats.portals, 1);
    assert_eq!(out.stats.things, 2);
    let level = Level::load(&out.bytes).unwrap();
    assert_eq!(level.map().title(), "Two rooms");
    let hall = level.sector(SectorId(0));
    assert_eq!(hall.light, 200);
    assert_eq!(hall.floor_color, 9); // #ff0000 is palette red
    let side = level.sector(SectorId(1));
    assert_eq!(side.floor, Fx::from_num(16));
    assert_eq!(side.light, 160); // the default
    let start = level.map().player_start();
    assert_eq!(start.angle, Fx::from_num(270)); // -90 wrapped
    assert_eq!(level.locate(Vec2::from_int(384, 128)), Some(SectorId(1)));
}

#[test]
fn statements_may_come_in_any_order_and_decimals_are_exact() {
    let text = "\
loop s a b c a
player 0.25 0.1 0
sector s floor -0.5 ceiling 100.75
vertex a -10.5 -10
vertex b 30 -10
vertex c 0.1 30
";
    let out = compile_source(text, "t.map").unwrap();
    let level = Level::load(&out.bytes).unwrap();
    let v = level.map().vertex(2);
    assert_eq!(v.x.to_bits(), 6554); // 0.1 * 65536 rounded
    assert_eq!(level.map().vertex(0).x, Fx::from_num(-10.5));
    assert_eq!(level.sector(SectorId(0)).floor, Fx::from_num(-0.5));
    assert_eq!(level.map().player_start().y.to_bits(), 6554);
}

#[test]
fn unclosed_loop_prints_like_the_spec() {
    let mut text = String::new();
    for _ in 0..11 {
        text.push_str("# padding\n");
    }
    text.push_str("loop hall a b c d\n");
    text.push_str(&ROOMS.replace("loop hall a b c d a\n", ""));
    let d = compile_source(&text, "maps/stairs.map").unwrap_err();
    let first = d.errors[0].to_string();
    assert!(
        first.starts_with(
            "error: unclosed sector loop: ends at `d`, started at `a`\n  --> maps/stairs.map:12:6\n   |\n12 | loop hall a b c d\n   |      ^^^^^^^^^^^^\n"
        ),
        "{first}"
    );
    assert!(
        d.to_string()
            .ends_with("error: aborting due to 1 previous error"),
        "{d}"
    );
}

#[test]
fn loop_errors() {
    let d = error(&rooms_with("loop hall a b c d a", "loop hall a b b c d a"));
    assert!(d.message.contains("zero-length wall"), "{d}");
    assert_eq!(underlined(&d), "b b");

    let d = error(&rooms_with("loop hall a b c d a", "loop hall a b a"));
    assert!(d.message.contains("at least 3 distinct"), "{d}");

    let d = error(&rooms_with(
        "loop hall a b c d a",
        "loop hall a b c d a\nloop hall a",
    ));
    assert!(d.message.contains("unclosed"), "{d}");

    let e = errors(&rooms_with("loop side b e f c b", "loop sid b e g c b"));
    assert_eq!(e.len(), 3, "{e:?}"); // unknown sector, unknown vertex, `side` has no loop
                                     // In file order: the sector line, then the loop line left to right.
    assert!(e[0].2.contains("sector `side` has no loop"), "{e:?}");
    assert_eq!((e[1].0, e[1].1), (11, 6));
    assert!(e[1].2.contains("unknown sector `sid`"), "{e:?}");
    assert!(e[2].2.contains("unknown vertex `g`"), "{e:?}");

    let d = compile_source(
        &rooms_with(
            "loop side b e f c b",
            "loop side b e f c b\nloop sid a b c a",
        ),
        "t",
    )
    .unwrap_err();
    assert_eq!(d.errors[0].help, ["did you mean `side`?"]);
}

#[test]
fn definition_errors() {
    let d = error(&rooms_with(
        "vertex f 512 256",
        "vertex f 512 256\nvertex a 1 1",
    ));
    assert!(d.message.contains("vertex `a` is defined twice"), "{d}");
    assert_eq!(d.location.line, 8);
    assert_eq!(d.related[0].1.line, 2);

    let d = error(&rooms_with(
        "vertex f 512 256",
        "vertex f 512 256\nvertex g 256 0",
    ));
    assert!(d.message.contains("duplicate vertex: `g`"), "{d}");
    assert_eq!(d.related[0].1.line, 3);

    let d = error(&rooms_with("ceiling 120", "ceiling 8"));
    assert!(d.message.contains("ceiling below floor"), "{d}");
    assert_eq!(underlined(&d), "8");

    let d = error(&rooms_with(
        "player 64 64 -90",
        "player 64 64 -90\nplayer 1 1 0",
    ));
    assert!(d.message.contains("second player start"), "{d}");

    let d = error(&rooms_with("player 64 64 -90", ""));
    assert!(d.message.contains("no player start"), "{d}");
    assert_eq!((d.location.line, d.location.column), (1, 1));

    let e = errors("");
    assert!(e.iter().any(|e| e.2.contains("no sectors")), "{e:?}");
    assert!(e.iter().any(|e| e.2.contains("no player start")), "{e:?}");
}

#[test]
fn builder_errors_point_at_the_statement() {
    // A bow tie: the edges c-a and b-d cross.
    let d = error(&rooms_with("loop hall a b c d a", "loop hall a b d c a"));
    assert!(d.message.contains("crossing walls"), "{d}");
    assert_eq!(d.location.line, 10);
    assert!(["b d", "c a"].contains(&underlined(&d).as_str()), "{d}");
    assert_eq!(d.related.len(), 1);
    assert_eq!(d.related[0].1.line, 10);

    // A third sector on the shared edge b-c.
    let text = rooms_with(
        "player",
        "vertex g 384 128\nsector third floor 0 ceiling 64\nloop third b g c b\nplayer",
    );
    let d = error(&text);
    assert!(d.message.contains("used by 3 sector sides"), "{d}");

    // A platform drawn inside the hall without being a hole of it.
    let text = rooms_with(
        "player",
        "vertex p1 100 100\nvertex p2 150 100\nvertex p3 150 150\n\
         sector plat floor 8 ceiling 128\nloop plat p1 p2 p3 p1\nplayer",
    );
    let d = error(&text);
    assert!(d.message.contains("overlapping sectors"), "{d}");
    assert_eq!(d.location.line, 16);
    // ...and fixed by giving the hall that loop too.
    let fixed = format!("{text}\nloop hall p1 p2 p3 p1\n");
    let out = compile_source(&fixed, "t").unwrap();
    assert_eq!(out.stats.portals, 4);
}

#[test]
fn too_many_vertices_points_at_the_first_one_over() {
    let mut text = String::from(ROOMS);
    for i in 0..engine::config::MAX_VERTICES {
        text.push_str(&format!(
            "vertex v{i} {} {}\n",
            i % 1000 + 1000,
            i / 1000 + 1000
        ));
    }
    let d = compile_source(&text, "t").unwrap_err();
    assert!(
        d.errors[0].message.contains("too many vertices"),
        "{}",
        d.errors[0]
    );
    let first_over = ROOMS.lines().count() + engine::config::MAX_VERTICES - 6 + 1;
    assert_eq!(d.errors[0].location.line, first_over);
}

#[test]
fn warnings() {
    let out = compile_source(&rooms_with("player", "vertex lonely 900 900\nplayer"), "t").unwrap();
    assert_eq!(out.warnings.len(), 1);
    assert!(
        out.warnings[0].starts_with("warning: vertex `lonely` is never used\n  --> t:12:8"),
        "{}",
        out.warnings[0]
    );

    let out = compile_source(&rooms_with("player 64 64", "player -64 64"), "t").unwrap();
    assert!(
        out.warnings[0].contains("the player start is outside every sector"),
        "{:?}",
        out.warnings
    );

    let out = compile_source(&rooms_with("entity 384 128 20", "entity 600 128 20"), "t").unwrap();
    assert!(
        out.warnings[0].contains("this entity is outside every sector"),
        "{:?}",
        out.warnings
    );

    let out = compile_source(&rooms_with("entity 384 128 20", "entity 500 128 20"), "t").unwrap();
    assert!(
        out.warnings[0].contains("overlaps a wall"),
        "{:?}",
        out.warnings
    );

    let out = compile_source(&rooms_with("entity 384 128 20", "entity 70 70 20"), "t").unwrap();
    assert!(
        out.warnings[0].contains("overlaps the player start"),
        "{:?}",
        out.warnings
    );

    // Touching is not overlapping: 16 from a wall with radius 16.
    let out = compile_source(&rooms_with("player 64 64", "player 16 64"), "t").unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);

    // The player in a 40-unit-high sector.
    let out = compile_source(
        &rooms_with("ceiling 120", "ceiling 56").replace("player 64 64", "player 384 64"),
        "t",
    )
    .unwrap();
    assert!(
        out.warnings.iter().any(|w| w.contains("does not fit")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn errors_are_capped_and_sorted() {
    let text = "nonsense\n".repeat(1000);
    let d = compile_source(&text, "t").unwrap_err();
    assert!(d.truncated);
    assert_eq!(d.errors.len(), 50);
    assert!(d
        .errors
        .windows(2)
        .all(|w| w[0].location.line < w[1].location.line));
    assert!(d
        .to_string()
        .ends_with("error: aborting after 50 errors (too many to go on)"));
}

/// A tiny deterministic generator, so the garbage tests need no seed file.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Arbitrary characters.
    for _ in 0..300 {
        let len = (rng.next() % 200) as usize;
        let text: String = (0..len)
            .map(|_| char::from_u32((rng.next() % 0x11_0000) as u32).unwrap_or('\u{FFFD}'))
            .collect();
        let _ = compile_source(&text, "fuzz").map(|o| o.bytes.len());
        let _ = compile_source(&text, "fuzz").map_err(|d| d.to_string());
    }
    // Plausible token soup, which gets much further into the checks.
    let words = [
        "title",
        "vertex",
        "sector",
        "loop",
        "player",
        "entity",
        "obstacle",
        "floor",
        "ceiling",
        "light",
        "lights",
        "full",
        "floor_color",
        "ceiling_color",
        "wall_color",
        "a",
        "b",
        "c",
        "d",
        "s",
        "t",
        "0",
        "64",
        "-64",
        "128",
        "32767",
        "32768",
        "-32767.99999",
        "0.5",
        "1e9",
        "nan",
        "#",
        "#ff00ff",
        "\"x\"",
        "\"",
        "\\",
        "\t",
        "é",
        "999999999999999999999999",
        "\r",
    ];
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..(rng.next() % 30) {
            for _ in 0..(rng.next() % 8) {
                text.push_str(rng.pick(&words));
                text.push(' ');
            }
            text.push('\n');
        }
        if let Err(d) = compile_source(&text, "fuzz") {
            let _ = d.to_string();
        }
    }
}

#[test]
fn random_valid_shapes_compile_or_fail_cleanly() {
    // Random quadrilaterals and triangles, which sometimes cross: never
    // a panic, and whatever compiles loads.
    let mut rng = Rng(12345);
    for _ in 0..500 {
        let mut text = String::new();
        let n = 3 + rng.next() % 4;
        for i in 0..n {
            let x = (rng.next() % 512) as i64 - 256;
            let y = (rng.next() % 512) as i64 - 256;
            text.push_str(&format!("vertex v{i} {x} {y}\n"));
        }
        text.push_str("sector s floor 0 ceiling 128\nloop s");
        for i in 0..n {
            text.push_str(&format!(" v{i}"));
        }
        text.push_str(" v0\nplayer 0 0 0\n");
        match compile_source(&text, "fuzz") {
            Ok(out) => {
                Level::load(&out.bytes).unwrap();
            }
            Err(d) => {
                let _ = d.to_string();
            }
        }
    }
}

#[test]
fn windows_line_ends_and_a_byte_order_mark_are_fine() {
    let text = format!("\u{feff}{}", ROOMS.replace('\n', "\r\n"));
    let out = compile_source(&text, "t").unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let d = error(&rooms_with("loop hall a b c d a", "loop hall a b c d").replace('\n', "\r\n"));
    assert_eq!((d.location.line, d.location.column), (10, 6));
    assert_eq!(underlined(&d), "hall a b c d");
}

/// A fresh directory under the target dir holding `files` (name, bytes).
fn scratch_dir(name: &str, files: &[(&str, &[u8])]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("text-textures-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (f, bytes) in files {
        std::fs::write(dir.join(f), bytes).unwrap();
    }
    dir
}

/// A solid `w` x `h` PNG of one colour.
fn png(w: u32, h: u32, rgba: [u8; 4]) -> Vec<u8> {
    let pixels: Vec<u8> = (0..w * h).flat_map(|_| rgba).collect();
    crate::texture::encode_png(w, h, &pixels).unwrap()
}

const TEXTURED: &str = "\
texture red red.png
texture Blue blue.png
texture SKY1 sky.png
vertex a 0 0
vertex b 256 0
vertex c 256 256
vertex d 0 256
vertex e 512 0
vertex f 512 256
sector hall floor 0 ceiling 128 floor_texture BLUE ceiling_texture f_sky1 wall_texture RED
sector side floor 16 ceiling 120 wall_texture blue
loop hall a b c d a
loop side b e f c b
player 64 64 0
";

fn textured_dir(name: &str) -> std::path::PathBuf {
    scratch_dir(
        name,
        &[
            ("red.png", &png(64, 32, [255, 0, 0, 255])),
            ("blue.png", &png(64, 64, [0, 0, 255, 255])),
            ("sky.png", &png(128, 64, [0, 255, 255, 255])),
            ("junk.png", b"junk"),
        ],
    )
}

#[test]
fn png_textures_on_sectors_and_sides() {
    use engine::format::{MapView, NONE, SKY};
    let dir = textured_dir("ok");
    let path = dir.join("t.map").display().to_string();
    let out = compile_source(TEXTURED, &path).unwrap_or_else(|d| panic!("{d}"));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let v = MapView::new_checked(&out.bytes).unwrap();
    assert_eq!(v.palette(), None, "PNG textures use the built-in palette");
    let names: Vec<&str> = (0..v.texture_count()).map(|i| v.texture_name(i)).collect();
    // BLUE twice: as a flat and as a wall texture (a flat is FLAT).
    assert_eq!(names, ["BLUE", "SKY1", "RED", "BLUE"]);
    assert_eq!(v.sky(), Some(1));
    let (hall, side) = (v.sector(0), v.sector(1));
    assert_eq!((hall.floor_texture, hall.ceiling_texture), (0, SKY));
    assert_eq!((side.floor_texture, side.ceiling_texture), (NONE, NONE));
    let blue = v.texture(0).unwrap();
    assert_eq!(
        (blue.width, blue.flags),
        (64, engine::format::texture_flag::FLAT)
    );
    assert!(
        blue.pixels.iter().all(|&p| p == 12),
        "pure blue in the built-in palette"
    );
    // One-sided hall walls: RED in the middle; the portal: RED above and
    // below from the hall, BLUE from the side room.
    let mut one_sided = 0;
    for i in 0..v.wall_count() {
        let w = v.wall(i);
        let front = v.side(w.front_side as usize);
        if w.back == engine::format::NO_SECTOR {
            if w.front == 0 {
                assert_eq!((front.upper, front.middle, front.lower), (NONE, 2, NONE));
                one_sided += 1;
            }
        } else {
            let back = v.side(w.back_side as usize);
            let (hall_side, side_side) = if w.front == 0 {
                (front, back)
            } else {
                (back, front)
            };
            assert_eq!(
                (hall_side.upper, hall_side.middle, hall_side.lower),
                (2, NONE, 2)
            );
            assert_eq!(
                (side_side.upper, side_side.middle, side_side.lower),
                (3, NONE, 3)
            );
        }
    }
    assert_eq!(one_sided, 3);
    // Without textures nothing changes: no sides, no texture sections.
    let plain = compile_source(ROOMS, "t.map").unwrap();
    let v = MapView::new_checked(&plain.bytes).unwrap();
    assert_eq!((v.texture_count(), v.side_count()), (0, 0));
}

#[test]
fn side_statements_set_a_sides_textures_and_switches_flip() {
    use engine::format::{wall_flag, MapView, NONE, NO_SECTOR};
    let dir = textured_dir("sides");
    let path = dir.join("t.map").display().to_string();
    // The hall's west wall (one-sided: either order names it) is an exit
    // switch; the portal b-c shows BLUE above and RED below on its side
    // on the right of b -> c (the side room's), and the hall's side keeps
    // the hall's RED.
    let src = format!(
        "{TEXTURED}texture SW1ONE red.png\ntexture sw2one blue.png\n\
         side a d middle SW1ONE offset 8 -4 lower_unpegged\nexit d a\n\
         side b c upper blue lower red\n"
    );
    let out = compile_source(&src, &path).unwrap_or_else(|d| panic!("{d}"));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let v = MapView::new_checked(&out.bytes).unwrap();
    let index = |name: &str| {
        (0..v.texture_count())
            .find(|&i| {
                let flat = v.texture(i as u16).unwrap().flags & engine::format::texture_flag::FLAT;
                v.texture_name(i) == name && flat == 0
            })
            .unwrap_or_else(|| panic!("wall texture {name} not packed")) as u16
    };
    let (red, blue, sw1, sw2) = (
        index("RED"),
        index("BLUE"),
        index("SW1ONE"),
        index("SW2ONE"),
    );
    let west = (0..v.wall_count())
        .find(|&i| {
            let w = v.wall(i);
            let x = |k: u16| v.vertex(usize::from(k)).x;
            w.back == NO_SECTOR && x(w.v1) == 0 && x(w.v2) == 0
        })
        .unwrap();
    let w = v.wall(west);
    let front = v.side(usize::from(w.front_side));
    assert_eq!((front.upper, front.middle, front.lower), (NONE, sw1, NONE));
    assert_eq!((front.x_offset, front.y_offset), (8, -4));
    assert_eq!(
        w.flags & wall_flag::LOWER_UNPEGGED,
        wall_flag::LOWER_UNPEGGED
    );
    let switch = v.switch(west as u16).expect("the exit switch flips");
    assert_eq!(
        (switch.upper, switch.middle, switch.lower),
        (NONE, sw2, NONE)
    );
    assert_eq!(v.switch_count(), 1);
    let portal = (0..v.wall_count())
        .map(|i| v.wall(i))
        .find(|w| w.back != NO_SECTOR)
        .unwrap();
    let (hall_side, side_side) = if portal.front == 0 {
        (portal.front_side, portal.back_side)
    } else {
        (portal.back_side, portal.front_side)
    };
    let (h, s) = (
        v.side(usize::from(hall_side)),
        v.side(usize::from(side_side)),
    );
    assert_eq!((h.upper, h.middle, h.lower), (red, NONE, red));
    assert_eq!((s.upper, s.middle, s.lower), (blue, NONE, red));
    // A walk-over exit does not flip, nor does a texture without a pair.
    let walk = src.replace("exit d a", "exit d a walk");
    let out = compile_source(&walk, &path).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(MapView::new_checked(&out.bytes).unwrap().switch_count(), 0);
    let unpaired = src.replace("texture sw2one blue.png\n", "");
    let out = compile_source(&unpaired, &path).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(MapView::new_checked(&out.bytes).unwrap().switch_count(), 0);
    // Mistakes.
    let one = |text: &str| {
        let d = compile_source(&format!("{TEXTURED}{text}"), &path).expect_err(text);
        assert_eq!(d.errors.len(), 1, "{d}");
        d.errors[0].clone()
    };
    let e = one("side a c texture RED\n");
    assert!(e.message.contains("no wall runs between"), "{}", e.message);
    let e = one("side a d\n");
    assert!(
        e.message.contains("expected what the side shows"),
        "{}",
        e.message
    );
    let e = one("side a d textur RED\n");
    assert_eq!(e.help, ["did you mean `texture`?"]);
    let e = one("side a d texture REDD\n");
    assert_eq!(e.message, "unknown wall texture `REDD`");
    let e = one("side a d texture RED texture RED\n");
    assert!(e.message.contains("given twice"), "{}", e.message);
    let e = one("side a d offset 1.5 0\n");
    assert!(e.message.contains("invalid X offset"), "{}", e.message);
    let e = one("side a d texture RED\nside d a upper RED\n");
    assert!(e.message.contains("already set"), "{}", e.message);
    assert_eq!(underlined(&e), "side d a upper RED");
}

#[test]
fn texture_errors_point_at_the_name() {
    let dir = textured_dir("errors");
    let path = dir.join("t.map").display().to_string();
    let compile = |text: &str| compile_source(text, &path).expect_err("should not compile");
    let one = |text: &str| {
        let d = compile(text);
        assert_eq!(d.errors.len(), 1, "{d}");
        d.errors[0].clone()
    };
    let e = one(&TEXTURED.replace("wall_texture RED", "wall_texture REDD"));
    assert_eq!(e.message, "unknown wall texture `REDD`");
    assert_eq!(underlined(&e), "REDD");
    assert_eq!(e.help, ["did you mean `RED`?"]);
    let e = one(&TEXTURED.replace("floor_texture BLUE", "floor_texture GREEN"));
    assert_eq!(e.message, "unknown flat `GREEN`");
    let e = one(&TEXTURED.replace("red.png", "missing.png"));
    assert!(e.message.contains("cannot load PNG `missing.png`"), "{e}");
    assert_eq!(underlined(&e), "missing.png");
    let e = one(&TEXTURED.replace(
        "texture Blue blue.png",
        "texture Blue blue.png\ntexture BLUE red.png",
    ));
    assert!(e.message.contains("defined twice"), "{e}");
    let e = one(&TEXTURED.replace("texture red red.png", "texture red junk.png"));
    assert!(e.message.contains("cannot load PNG `junk.png`"), "{e}");
    assert!(
        e.notes.iter().any(|n| n.contains("not a readable PNG")),
        "{e}"
    );
    // (RED is then unknown too.)
    let d = compile(&TEXTURED.replace("texture red", "texture TOOLONGNAME"));
    assert!(
        d.errors[0].message.contains("expected a texture name"),
        "{d}"
    );
    assert_eq!(d.errors[1].message, "unknown wall texture `RED`");
    let d = compile(&TEXTURED.replace("wall_texture RED", "wall_textur RED"));
    assert_eq!(d.errors[0].help, ["did you mean `wall_texture`?"]);
    // A WAD that cannot be found: one error, and no cascade of unknown
    // names.
    let e = one(&format!(
        "textures no_such_file.wad\n{}",
        TEXTURED.replace("RED", "STARTAN3")
    ));
    assert!(
        e.message.contains("cannot find WAD `no_such_file.wad`"),
        "{e}"
    );
    let e = one(&format!("textures red.png\n{TEXTURED}"));
    assert!(e.message.contains("not a WAD"), "{e}");
}

#[test]
fn wads_next_to_the_map_give_textures_and_their_palette() {
    use crate::wad::tests::make_wad;
    use engine::format::MapView;
    // A WAD whose palette is a red ramp: index i is (i, 0, 0).
    let pal: Vec<u8> = (0..=255u8).flat_map(|i| [i, 0, 0]).collect();
    let flat = [7u8; 4096];
    let wad = make_wad(
        b"PWAD",
        &[
            ("PLAYPAL", &pal),
            ("F_START", b""),
            ("REDFLAT", &flat),
            ("F_END", b""),
        ],
    );
    let dir = scratch_dir(
        "wad",
        &[
            ("mine.wad", &wad),
            ("red.png", &png(8, 8, [200, 0, 0, 255])),
        ],
    );
    let path = dir.join("t.map").display().to_string();
    let text = "\
textures mine.wad
texture RED red.png
vertex a 0 0
vertex b 256 0
vertex c 256 256
vertex d 0 256
sector s floor 0 ceiling 128 floor_texture redflat wall_texture RED ceiling_color #800000
loop s a b c d a
player 64 64 0
";
    let out = compile_source(text, &path).unwrap_or_else(|d| panic!("{d}"));
    // The WAD has no TEXTURE1: one warning, pointing at the statement.
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(
        out.warnings[0].contains("no TEXTURE1"),
        "{}",
        out.warnings[0]
    );
    let v = MapView::new_checked(&out.bytes).unwrap();
    assert_eq!(v.palette().map(|p| p[3 * 200]), Some(200));
    let s = v.sector(0);
    assert_eq!(v.texture_name(s.floor_texture as usize), "REDFLAT");
    assert_eq!(s.ceiling_color, 128, "#800000 in the WAD's palette");
    let red = v.texture(v.side(0).middle).unwrap();
    assert!(
        red.pixels.iter().all(|&p| p == 200),
        "the PNG in the WAD's palette"
    );
}

#[test]
fn an_obstacle_is_a_solid_thing_the_player_stops_at() {
    use engine::format::kind;
    use engine::game::{Game, Input};
    // A post in the hall, east of the start (64, 64), on the player's line.
    let src = rooms_with("entity 384 128 20", "obstacle 160 64 16");
    let out = compile_source(&src, "t").unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let level = Level::load(&out.bytes).unwrap();
    let post = level
        .map()
        .things()
        .find(|t| t.kind == kind::SOLID)
        .expect("a solid thing");
    assert_eq!(
        (post.x, post.y, post.radius),
        (Fx::from_num(160), Fx::from_num(64), Fx::from_num(16))
    );
    // Facing east, running: the post holds the player 32 units off.
    let mut game = Game::new(level);
    game.tick(Input::new(0, 0, 90));
    for _ in 0..40 {
        game.tick(Input::new(100, 0, 0));
    }
    let x = game.player().pos.x.to_num::<f64>();
    assert!((127.9..128.01).contains(&x), "x = {x}");
    // The messages call it an obstacle.
    let out = compile_source(&rooms_with("entity 384 128 20", "obstacle 70 70 20"), "t").unwrap();
    assert!(
        out.warnings[0].contains("this obstacle overlaps the player start"),
        "{:?}",
        out.warnings
    );
    let e = error(&rooms_with("entity 384 128 20", "obstacle 100 100 0"));
    assert!(e.message.contains("an obstacle's radius"), "{}", e.message);
}

#[test]
fn an_exit_statement_puts_an_exit_on_the_wall_between_two_vertices() {
    use engine::format::{trigger, wall_action};
    // `side`'s far wall e-f a use exit; the portal b-c a secret walk exit.
    let src = format!("{ROOMS}exit e f\nexit c b secret walk\n");
    let out = compile_source(&src, "t").unwrap();
    let level = Level::load(&out.bytes).unwrap();
    let map = level.map();
    assert_eq!(map.wall_special_count(), 2);
    let wall_x = |w: u16| level.wall(engine::world::WallId(w)).a.x.to_num::<i32>();
    let specials: Vec<_> = (0..2).map(|k| map.wall_special_at(k)).collect();
    let by_x = |x: i32| {
        specials
            .iter()
            .find(|s| wall_x(s.wall) == x)
            .copied()
            .unwrap()
    };
    let (switch, walk) = (by_x(512), by_x(256));
    assert_eq!(
        (switch.action, switch.trigger),
        (wall_action::EXIT, trigger::USE)
    );
    assert_eq!(
        (walk.action, walk.trigger),
        (wall_action::SECRET_EXIT, trigger::WALK)
    );
    // Mistakes, each where it was written.
    let e = error(&format!("{ROOMS}exit a c\n"));
    assert!(e.message.contains("no wall runs between"), "{}", e.message);
    assert_eq!(e.location.line, 14, "{e:?}");
    let e = error(&format!("{ROOMS}exit a zz\n"));
    assert!(e.message.contains("zz"), "{}", e.message);
    let e = error(&format!("{ROOMS}exit a b now\n"));
    assert!(
        e.message.contains("expected `secret` or `walk`"),
        "{}",
        e.message
    );
}

#[test]
fn door_and_lift_statements_put_movers_on_their_walls() {
    use engine::format::{trigger, wall_action};
    use engine::world::WallId;
    // `side` is the door behind b-c seen from `hall` (to the left of
    // b -> c going north is west: so `c b`, going south, has it on the
    // left); a tagged lift on e-f, set off by walking, once.
    let src = rooms_with(
        "sector side floor 16 ceiling 120",
        "sector side floor 16 ceiling 120 tag 3",
    ) + "door c b fast\nlift e f tag 3 walk once\n";
    let out = compile_source(&src, "t").unwrap();
    let level = Level::load(&out.bytes).unwrap();
    let map = level.map();
    assert_eq!(map.wall_special_count(), 2);
    let side = level.locate(Vec2::from_int(384, 128)).unwrap();
    assert_eq!(map.sector(side.0 as usize).tag, 3);
    let specials: Vec<_> = (0..2).map(|k| map.wall_special_at(k)).collect();
    let door = specials
        .iter()
        .find(|s| wall_action::is_door(s.action))
        .unwrap();
    assert_eq!(
        (door.action, door.trigger),
        (
            wall_action::DOOR_FAST_RAISE | wall_action::BACK_SECTOR,
            trigger::USE | trigger::REPEAT
        )
    );
    // The wall turned so that the door is behind it, `hall` in front.
    let wall = level.wall(WallId(door.wall));
    assert_eq!(wall.back, Some(side));
    assert_eq!(wall.a, Vec2::from_int(256, 256));
    let lift = specials
        .iter()
        .find(|s| s.action == wall_action::LIFT)
        .unwrap();
    assert_eq!((lift.trigger, lift.tag), (trigger::WALK, 3));
    // Mistakes.
    let e = error(&format!("{ROOMS}door e f\n"));
    assert!(e.message.contains("a sector on each side"), "{}", e.message);
    let e = error(&format!("{ROOMS}door b c slowly\n"));
    assert!(e.message.contains("found `slowly`"), "{}", e.message);
    let e = error(&format!("{ROOMS}lift b c open\n"));
    assert!(e.message.contains("found `open`"), "{}", e.message);
    let e = error(&format!("{ROOMS}door b c tag 0\n"));
    assert!(e.message.contains("invalid tag"), "{}", e.message);
    let e = errors(&rooms_with("ceiling 128 light", "ceiling 128 tag x light"));
    assert!(e[0].2.contains("invalid tag `x`"), "{e:?}");
}

#[test]
fn keys_and_locked_walls() {
    use engine::format::{kind, trigger};
    // The door behind b-c, locked blue; a yellow skull and a red card in
    // the hall.
    let src = format!("{ROOMS}door c b key blue once\nkey yellow 64 64 skull\nkey red 100 100\n");
    let out = compile_source(&src, "t").unwrap();
    let level = Level::load(&out.bytes).unwrap();
    let map = level.map();
    let door = map.wall_special_at(0);
    assert_eq!(door.trigger, trigger::USE | trigger::LOCK_BLUE);
    let keys: Vec<_> = map.things().filter(|t| kind::is_key(t.kind)).collect();
    assert_eq!(keys.len(), 2);
    assert_eq!(
        (keys[0].kind, keys[0].type_id, keys[0].radius),
        (kind::YELLOW_SKULL, 39, Fx::from_num(20))
    );
    assert_eq!((keys[1].kind, keys[1].type_id), (kind::RED_CARD, 13));
    assert_eq!(
        (keys[1].x, keys[1].y),
        (Fx::from_num(100), Fx::from_num(100))
    );
    // Every mover statement takes a lock.
    for stmt in [
        "lift c b key red",
        "floor c b raise tag 2 key yellow",
        "ceiling c b lower_to_floor tag 2 key red",
        "stairs c b tag 2 key blue",
    ] {
        let src = format!(
            "{}{stmt}\n",
            rooms_with("floor 16 ceiling 120", "floor 16 ceiling 120 tag 2")
        );
        let out = compile_source(&src, "t").unwrap_or_else(|e| panic!("{stmt}: {e}"));
        let level = Level::load(&out.bytes).unwrap();
        assert_ne!(
            trigger::lock(level.map().wall_special_at(0).trigger),
            0,
            "{stmt}"
        );
    }
    // Mistakes.
    let e = error(&format!("{ROOMS}door c b key green\n"));
    assert!(
        e.message.contains("unknown key colour `green`"),
        "{}",
        e.message
    );
    let e = error(&format!("{ROOMS}door c b key blue key red\n"));
    assert!(e.message.contains("found `key`"), "{}", e.message);
    let e = error(&format!("{ROOMS}key blue 64\n"));
    assert!(e.message.contains("Y coordinate"), "{}", e.message);
    let e = error(&format!("{ROOMS}key blue 64 64 card\n"));
    assert!(e.message.contains("unexpected `card`"), "{}", e.message);
}

#[test]
fn scroll_statements_make_scrolling_walls() {
    use engine::format::wall_flag::{SCROLL_LEFT, SCROLL_RIGHT};
    use engine::world::WallId;
    // The hall's west wall scrolls left; the portal b-c right, its side
    // on the right of c -> b (facing `hall`, west of it) in front.
    let src = format!("{ROOMS}scroll d a\nscroll c b right\n");
    let out = compile_source(&src, "t").unwrap();
    let level = Level::load(&out.bytes).unwrap();
    let walls: Vec<_> = (0..level.wall_count())
        .map(|i| level.wall(WallId(i as u16)))
        .filter(|w| w.flags & (SCROLL_LEFT | SCROLL_RIGHT) != 0)
        .collect();
    assert_eq!(walls.len(), 2);
    let west = walls.iter().find(|w| w.back.is_none()).unwrap();
    assert_eq!(west.flags & SCROLL_LEFT, SCROLL_LEFT);
    let portal = walls.iter().find(|w| w.back.is_some()).unwrap();
    assert_eq!(portal.flags & SCROLL_RIGHT, SCROLL_RIGHT);
    assert_eq!(portal.a, Vec2::from_int(256, 256));
    let hall = level.locate(Vec2::from_int(64, 64)).unwrap();
    assert_eq!(portal.front, hall);
    // Mistakes.
    let e = error(&format!("{ROOMS}scroll a c\n"));
    assert!(e.message.contains("no wall runs between"), "{}", e.message);
    let e = error(&format!("{ROOMS}scroll d a up\n"));
    assert!(e.message.contains("unexpected `up`"), "{}", e.message);
    // One special a wall.
    let e = error(&format!("{ROOMS}exit d a\ndoor a d tag 3\n"));
    assert!(e.message.contains("already has a special"), "{}", e.message);
    assert_eq!(underlined(&e), "door a d tag 3");
    // A door used from the hall cannot scroll its other side.
    let e = error(&format!("{ROOMS}door c b\nscroll b c\n"));
    assert!(e.message.contains("faces the other way"), "{}", e.message);
}
