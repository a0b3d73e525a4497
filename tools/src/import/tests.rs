//! The importer on small hand-made levels: repairs, warnings, doors,
//! lifts, things; and hostile input.

use super::*;
use crate::doom::{binary, Linedef, Sector, Sidedef, SourceFormat, SpecialSet, Thing, Vertex};
use engine::world::{Level, SectorId};

/// A level under construction: lines get a fresh sidedef per side.
struct Lv(DoomLevel);

impl Lv {
    fn new() -> Self {
        Lv(DoomLevel::new(SourceFormat::Doom, SpecialSet::Doom))
    }

    fn v(&mut self, x: f64, y: f64) -> usize {
        self.0.vertices.push(Vertex { x, y });
        self.0.vertices.len() - 1
    }

    fn sector(&mut self, floor: f64, ceiling: f64, tag: i32) -> usize {
        self.0.sectors.push(Sector {
            floor,
            ceiling,
            floor_texture: "FLOOR4_8".into(),
            ceiling_texture: "F_SKY1".into(),
            light: 160,
            special: 0,
            tag,
        });
        self.0.sectors.len() - 1
    }

    fn side(&mut self, sector: usize) -> usize {
        self.0.sidedefs.push(Sidedef {
            sector,
            upper: "-".into(),
            lower: "-".into(),
            middle: "STARTAN3".into(),
            ..Default::default()
        });
        self.0.sidedefs.len() - 1
    }

    fn line(&mut self, v1: usize, v2: usize, front: usize, back: Option<usize>) -> usize {
        let front = Some(self.side(front));
        let back = back.map(|b| self.side(b));
        self.0.linedefs.push(Linedef {
            v1,
            v2,
            front,
            back,
            ..Default::default()
        });
        self.0.linedefs.len() - 1
    }

    /// A clockwise rectangle for `sector` (front on the inside), its
    /// edges two-sided into `outside` where given per edge.
    fn rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, sector: usize) -> [usize; 4] {
        let a = self.v(x0, y0);
        let b = self.v(x0, y1);
        let c = self.v(x1, y1);
        let d = self.v(x1, y0);
        [
            self.line(a, b, sector, None),
            self.line(b, c, sector, None),
            self.line(c, d, sector, None),
            self.line(d, a, sector, None),
        ]
    }

    fn thing(&mut self, x: f64, y: f64, kind: i32, skills: u8, single: bool) {
        self.0.things.push(Thing {
            x,
            y,
            angle: 90.0,
            kind,
            skills,
            single,
        });
    }
}

/// Two rooms joined by a door: room A (0..256), door (256..272, closed),
/// room B (272..512), all 256 deep.
fn two_rooms_and_a_door() -> Lv {
    let mut lv = Lv::new();
    let a = lv.sector(0.0, 128.0, 0);
    let door = lv.sector(0.0, 0.0, 0);
    let b = lv.sector(0.0, 160.0, 0);
    let p = [
        lv.v(0.0, 0.0),
        lv.v(0.0, 256.0),
        lv.v(256.0, 256.0),
        lv.v(256.0, 0.0),
        lv.v(272.0, 256.0),
        lv.v(272.0, 0.0),
        lv.v(512.0, 256.0),
        lv.v(512.0, 0.0),
    ];
    // Room A: west, north, (door side), south.
    lv.line(p[0], p[1], a, None);
    lv.line(p[1], p[2], a, None);
    let door_line = lv.line(p[2], p[3], a, Some(door));
    lv.0.linedefs[door_line].special = 1; // DR door: the back sector opens
    lv.line(p[3], p[0], a, None);
    // The door: north and south walls, east side into B.
    lv.line(p[2], p[4], door, None);
    lv.line(p[5], p[3], door, None);
    lv.line(p[5], p[4], b, Some(door));
    // Room B.
    lv.line(p[4], p[6], b, None);
    lv.line(p[6], p[7], b, None);
    lv.line(p[7], p[5], b, None);
    lv.thing(128.0, 128.0, 1, 0, true);
    lv.thing(400.0, 128.0, 2035, 0b00100, true);
    lv
}

fn run(lv: &Lv) -> Imported {
    import(
        &lv.0,
        "TEST",
        &TextureLibrary::empty(),
        &ImportOptions::default(),
    )
    .unwrap()
}

fn count(warnings: &[String], needle: &str) -> usize {
    warnings.iter().filter(|w| w.contains(needle)).count()
}

#[test]
fn a_door_between_two_rooms_is_open() {
    let out = run(&two_rooms_and_a_door());
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.wall_count(), 10);
    assert_eq!(level.sector_count(), 3);
    // Lowest neighbouring ceiling (A's 128) minus 4.
    let door = level.sector(SectorId(1));
    assert_eq!((door.floor, door.ceiling), (Fx::ZERO, Fx::from_num(124)));
    assert_eq!(out.summary.doors_opened, 1);
    // Sectors keep their numbers; the rooms are where they were drawn.
    assert_eq!(level.locate(Vec2::from_int(100, 100)), Some(SectorId(0)));
    assert_eq!(level.locate(Vec2::from_int(264, 100)), Some(SectorId(1)));
    assert_eq!(level.locate(Vec2::from_int(300, 100)), Some(SectorId(2)));
    // Player start and the barrel (skill 3 only: kept).
    let things: Vec<_> = level.map().things().collect();
    assert_eq!(things.len(), 2);
    assert_eq!(things[0].kind, kind::PLAYER_START);
    assert_eq!((things[1].kind, things[1].type_id), (kind::SOLID, 2035));
    assert_eq!(things[1].radius, Fx::from_num(10));
    // The sky and the walls' textures: placeholders, one warning.
    assert_eq!(level.sector(SectorId(0)).ceiling_texture, SKY);
    assert_eq!(count(&out.warnings, "placeholder"), 1, "{:?}", out.warnings);
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    // The door can be walked through: face east (the start faces north)
    // and run.
    let mut game = engine::game::Game::new(level);
    game.tick(engine::game::Input::new(0, 0, -90));
    for _ in 0..60 {
        game.tick(engine::game::Input::new(100, 0, 0));
    }
    assert_eq!(game.player().sector, SectorId(2), "{:?}", game.player());
}

#[test]
fn doors_can_be_left_closed_and_remote_doors_open_by_tag() {
    let lv = two_rooms_and_a_door();
    let opts = ImportOptions {
        open_doors: false,
        ..ImportOptions::default()
    };
    let out = import(&lv.0, "T", &TextureLibrary::empty(), &opts).unwrap();
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.sector(SectorId(1)).ceiling, Fx::ZERO);

    // A switch (S1 door, 103) somewhere tagged 7, the door tagged 7.
    let mut lv = two_rooms_and_a_door();
    lv.0.linedefs[2].special = 0;
    lv.0.sectors[1].tag = 7;
    lv.0.linedefs[0].special = 103;
    lv.0.linedefs[0].tag = 7;
    let out = run(&lv);
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.sector(SectorId(1)).ceiling, Fx::from_num(124));

    // Hexen numbering: Door_Raise (12) with arg0 = tag.
    lv.0.specials = SpecialSet::Hexen;
    lv.0.linedefs[0].special = 12;
    lv.0.linedefs[0].args = [7, 16, 150, 0, 0];
    let out = run(&lv);
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.sector(SectorId(1)).ceiling, Fx::from_num(124));
}

#[test]
fn a_raised_lift_with_no_room_is_lowered() {
    let mut lv = two_rooms_and_a_door();
    // Make the "door" a lift up at 128 under a 128 ceiling, lowered by
    // a W1 lift line (10) tagged 3.
    lv.0.linedefs[2].special = 0;
    lv.0.sectors[1] = Sector {
        floor: 128.0,
        ceiling: 128.0,
        tag: 3,
        ..lv.0.sectors[0].clone()
    };
    lv.0.linedefs[0].special = 10;
    lv.0.linedefs[0].tag = 3;
    let out = run(&lv);
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.sector(SectorId(1)).floor, Fx::ZERO);
    assert_eq!(out.summary.lifts_lowered, 1);
}

#[test]
fn broken_references_are_repaired_or_dropped_with_warnings() {
    let mut lv = two_rooms_and_a_door();
    let n = lv.0.linedefs.len();
    let v0 = 0;
    // n: a vertex that does not exist.
    lv.0.linedefs.push(Linedef {
        v1: 999,
        v2: v0,
        front: Some(0),
        ..Default::default()
    });
    // n+1: zero length.
    lv.0.linedefs.push(Linedef {
        v1: v0,
        v2: v0,
        front: Some(0),
        ..Default::default()
    });
    // n+2: no sides at all.
    lv.0.linedefs.push(Linedef {
        v1: 0,
        v2: 2,
        ..Default::default()
    });
    // n+3: a front sidedef that does not exist.
    lv.0.linedefs.push(Linedef {
        v1: 0,
        v2: 2,
        front: Some(5000),
        ..Default::default()
    });
    // n+4: a sidedef facing a sector that does not exist.
    lv.0.sidedefs.push(Sidedef {
        sector: 77,
        ..Default::default()
    });
    let bad_side = lv.0.sidedefs.len() - 1;
    lv.0.linedefs.push(Linedef {
        v1: 0,
        v2: 2,
        front: Some(bad_side),
        ..Default::default()
    });
    // The door line loses its front side: it is turned round.
    lv.0.linedefs[2].front = None;
    // A ceiling below its floor.
    lv.0.sectors[2].ceiling = -8.0;
    // Room A is left open by the turned door line: the player starts in
    // room B (a start outside every sector is an error).
    lv.0.things[0].x = 460.0;
    lv.0.things[0].y = 200.0;
    let out = run(&lv);
    let w = &out.warnings;
    assert_eq!(out.summary.lines_dropped, 5, "{w:?}");
    for (i, what) in [
        (n, "vertex 999 does not exist"),
        (n + 1, "zero length"),
        (n + 2, "no usable side"),
        (n + 3, "sidedef 5000 does not exist"),
        (n + 4, "faces sector 77, which does not exist"),
        (2, "turned round"),
    ] {
        assert!(
            w.iter()
                .any(|x| x.contains(&format!("linedef {i}: ")) && x.contains(what)),
            "{what}: {w:?}"
        );
    }
    assert!(
        count(w, "sector 2: ceiling -8 is below floor 0") == 1,
        "{w:?}"
    );
    // Everything else compiled.
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.wall_count(), 10);
}

/// A UDMF linedef's vertex written negative is dropped with a warning, as
/// one past the end is: the same mistake, the same answer.
#[test]
fn negative_and_missing_vertices_are_the_same_mistake() {
    let room = |v1: &str| {
        format!(
            "namespace = \"doom\";
             vertex {{ x = 0; y = 0; }} vertex {{ x = 0; y = 256; }}
             vertex {{ x = 256; y = 256; }} vertex {{ x = 256; y = 0; }}
             linedef {{ v1 = 0; v2 = 1; sidefront = 0; }} linedef {{ v1 = 1; v2 = 2; sidefront = 0; }}
             linedef {{ v1 = 2; v2 = 3; sidefront = 0; }} linedef {{ v1 = 3; v2 = 0; sidefront = 0; }}
             linedef {{ v1 = {v1}; v2 = 0; sidefront = 0; }}
             sidedef {{ sector = 0; }}
             sector {{ heightfloor = 0; heightceiling = 128; }}
             thing {{ x = 128; y = 128; type = 1; skill3 = true; single = true; }}"
        )
    };
    for (v1, shown) in [
        ("-3", "vertex a negative index does not exist"),
        ("99", "vertex 99 does not exist"),
    ] {
        let out = crate::import::compile_udmf(
            room(v1).as_bytes(),
            "T.udmf",
            None,
            &ImportOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{v1}: {e}"));
        assert_eq!(out.summary.lines_dropped, 1, "{v1}: {:?}", out.warnings);
        assert_eq!(count(&out.warnings, shown), 1, "{v1}: {:?}", out.warnings);
    }
}

#[test]
fn unclosed_and_self_touching_sectors_are_reported() {
    let mut lv = Lv::new();
    let s = lv.sector(0.0, 128.0, 0);
    lv.rect(0.0, 0.0, 256.0, 256.0, s);
    // A second square of the same sector touching the first at a corner.
    let c = 2; // (256, 256)
    let e = lv.v(256.0, 512.0);
    let f = lv.v(512.0, 512.0);
    let g = lv.v(512.0, 256.0);
    lv.line(c, e, s, None);
    lv.line(e, f, s, None);
    lv.line(f, g, s, None);
    lv.line(g, c, s, None);
    // An unclosed sector: three sides of a square.
    let t = lv.sector(0.0, 128.0, 0);
    let h = lv.v(600.0, 0.0);
    let i = lv.v(600.0, 100.0);
    let j = lv.v(700.0, 100.0);
    let k = lv.v(700.0, 0.0);
    let first = lv.line(h, i, t, None);
    lv.line(i, j, t, None);
    lv.line(j, k, t, None);
    lv.thing(64.0, 64.0, 1, 0, true);
    let out = run(&lv);
    let w = &out.warnings;
    assert_eq!(
        count(w, "sector 0 touches itself at (256, 256)"),
        1,
        "{w:?}"
    );
    assert_eq!(count(w, "sector 1 is not closed"), 1, "{w:?}");
    assert!(
        w.iter()
            .any(|x| x.contains(&format!("at (600, 0) (linedefs {first}) and 1 other point"))),
        "{w:?}"
    );
}

#[test]
fn things_follow_skill_and_mode_flags() {
    let mut lv = two_rooms_and_a_door();
    lv.0.things.clear();
    lv.thing(10.0, 10.0, 1, 0, true); // an earlier start
    lv.thing(20.0, 20.0, 3004, 0b00100, true); // skill 3: kept
    lv.thing(30.0, 30.0, 3004, 0b11000, true); // hard only
    lv.thing(40.0, 40.0, 3004, 0b11111, false); // multiplayer only
    lv.thing(50.0, 50.0, 2, 0b11111, true); // player 2 start
    lv.thing(60.0, 60.0, 9999, 0b00100, true); // unknown type: no sprite
    lv.thing(128.0, 128.0, 1, 0, true); // the last start wins
    lv.thing(1e6, 0.0, 2035, 0b00100, true); // outside the range
    let out = run(&lv);
    let level = Level::load(&out.compiled.bytes).unwrap();
    let things: Vec<_> = level.map().things().collect();
    let start = level.map().player_start();
    assert_eq!((start.x, start.y), (Fx::from_num(128), Fx::from_num(128)));
    let kept: Vec<u16> = things.iter().skip(1).map(|t| t.type_id).collect();
    assert_eq!(kept, [3004, 9999]);
    assert!(things.iter().all(|t| t.sprite == NONE), "empty library");
    assert_eq!(out.summary.things_skipped, 4);
    assert_eq!(count(&out.warnings, "thing 7 (type 2035) is outside"), 1);
    // Skill 4 keeps the other one instead.
    let opts = ImportOptions {
        skill: 4,
        ..ImportOptions::default()
    };
    let out = import(&lv.0, "T", &TextureLibrary::empty(), &opts).unwrap();
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.map().things().nth(1).unwrap().x, Fx::from_num(30));
}

#[test]
fn unsupported_features_are_reported_once_per_map() {
    let mut lv = two_rooms_and_a_door();
    lv.0.linedefs[0].special = 242;
    lv.0.linedefs[1].special = 242;
    lv.0.linedefs[3].special = 340;
    lv.0.uses(Feature::Slopes);
    lv.thing(50.0, 50.0, 9500, 0b11111, true);
    let out = run(&lv);
    assert_eq!(
        count(&out.warnings, "uses sloped floors"),
        1,
        "{:?}",
        out.warnings
    );
    assert_eq!(
        count(&out.warnings, "uses 3D floors"),
        1,
        "{:?}",
        out.warnings
    );
}

/// One room with the BSP a node builder gives it: no nodes, one
/// subsector of its four lines.
fn room_with_bsp() -> Lv {
    use crate::doom::{DoomBsp, DoomSeg};
    let mut lv = Lv::new();
    let s = lv.sector(0.0, 128.0, 0);
    let lines = lv.rect(0.0, 0.0, 256.0, 256.0, s);
    lv.thing(128.0, 128.0, 1, 0, true);
    let segs = lines
        .iter()
        .map(|&l| DoomSeg {
            v1: lv.0.linedefs[l].v1,
            v2: lv.0.linedefs[l].v2,
            linedef: l,
            side: 0,
        })
        .collect();
    lv.0.bsp = Some(DoomBsp {
        segs,
        subsectors: vec![(4, 0)],
        nodes: vec![],
    });
    lv
}

fn compiled_bsp(out: &Imported) -> (usize, usize, usize) {
    let view = engine::format::MapView::new_checked(&out.compiled.bytes).unwrap();
    let b = view.bsp();
    (b.node_count(), b.seg_count(), b.subsector_count())
}

/// Compiles `lv` and checks that its BSP was dropped with one warning
/// saying `why`, and replaced by our node builder's (for the one room:
/// no node, its four lines in one subsector).
fn bsp_replaced(lv: &Lv, why: &str) {
    let out = run(lv);
    assert_eq!(compiled_bsp(&out), (0, 4, 1), "{:?}", out.warnings);
    assert_eq!(count(&out.warnings, why), 1, "{:?}", out.warnings);
    assert_eq!(count(&out.warnings, "BSP"), 1, "{:?}", out.warnings);
}

#[test]
fn the_node_builders_bsp_is_kept_or_replaced_with_a_warning() {
    let out = run(&room_with_bsp());
    assert_eq!(compiled_bsp(&out), (0, 4, 1), "{:?}", out.warnings);
    assert_eq!(count(&out.warnings, "BSP"), 0, "{:?}", out.warnings);

    // A seg off its linedef's line: the segs cannot be trusted.
    let mut lv = room_with_bsp();
    let far = lv.v(100.0, 100.0);
    lv.0.bsp.as_mut().unwrap().segs[2].v1 = far;
    bsp_replaced(&lv, "does not lie on linedef 2");

    // A linedef dropped (zero length): the segs' numbers no longer name
    // the right walls.
    let mut lv = room_with_bsp();
    let v = lv.0.linedefs[0].v1;
    lv.0.linedefs.insert(
        0,
        Linedef {
            v1: v,
            v2: v,
            front: Some(0),
            ..Default::default()
        },
    );
    bsp_replaced(&lv, "linedefs were dropped");

    // A tree the engine refuses (a node that is its own child): the map
    // compiles with our node builder's instead.
    let mut lv = room_with_bsp();
    lv.0.bsp
        .as_mut()
        .unwrap()
        .nodes
        .push(crate::doom::DoomNode {
            x: 128,
            y: 0,
            dx: 0,
            dy: 256,
            bbox: [[256, 0, 0, 256]; 2],
            child: [0, 0x8000],
        });
    bsp_replaced(&lv, "BSP is not kept");

    // No BSP at all (as UDMF maps come): our node builder's, silently.
    let mut lv = room_with_bsp();
    lv.0.bsp = None;
    let out = run(&lv);
    assert_eq!(compiled_bsp(&out), (0, 4, 1), "{:?}", out.warnings);
    assert_eq!(count(&out.warnings, "BSP"), 0, "{:?}", out.warnings);
}

#[test]
fn hopeless_levels_are_errors_not_panics() {
    let empty = Lv::new();
    let e = run_err(&empty);
    assert!(e.contains("no sectors"), "{e}");
    let mut lv = Lv::new();
    lv.sector(0.0, 128.0, 0);
    assert!(run_err(&lv).contains("no usable linedefs"));
    lv.rect(0.0, 0.0, 64.0, 64.0, 0);
    let e = run_err(&lv);
    assert!(e.contains("no player 1 start"), "{e}");
    assert!(e.starts_with("error: TEST: "), "{e}");
    // A start that is there but out of range: the error says so.
    lv.thing(70000.0, 32.0, 1, 0b11111, true);
    let e = run_err(&lv);
    assert!(
        e.contains("no player 1 start") && e.contains("thing 0, at (70000, 32)"),
        "{e}"
    );
    assert!(e.contains("outside the engine's ±32767 range"), "{e}");
}

/// A deathmatch map (no player 1 start) starts the player at its first
/// deathmatch start (type 11), with a warning.
#[test]
fn a_deathmatch_map_starts_at_its_first_deathmatch_start() {
    let mut lv = Lv::new();
    let s = lv.sector(0.0, 128.0, 0);
    lv.rect(0.0, 0.0, 256.0, 256.0, s);
    lv.thing(200.0, 40.0, 11, 0b11111, true);
    lv.thing(60.0, 60.0, 11, 0b11111, true);
    let out = run(&lv);
    assert_eq!(
        count(&out.warnings, "first deathmatch start, thing 0 (200, 40)"),
        1,
        "{:?}",
        out.warnings
    );
    let level = Level::load(&out.compiled.bytes).unwrap();
    let start = level.map().player_start();
    assert_eq!((start.x, start.y), (Fx::from_num(200), Fx::from_num(40)));
    // With a player 1 start, it is the start, without a word.
    lv.thing(128.0, 128.0, 1, 0b11111, true);
    let out = run(&lv);
    assert_eq!(count(&out.warnings, "deathmatch"), 0, "{:?}", out.warnings);
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.map().player_start().x, Fx::from_num(128));
}

#[test]
fn a_player_start_outside_every_sector_is_an_error() {
    let mut lv = Lv::new();
    let s = lv.sector(0.0, 128.0, 0);
    lv.rect(0.0, 0.0, 256.0, 256.0, s);
    lv.thing(400.0, 128.0, 1, 0b11111, true);
    let e = run_err(&lv);
    assert!(
        e.starts_with("error: TEST: the player start (400, 128) is outside every sector"),
        "{e}"
    );
    lv.0.things[0].x = 128.0;
    run(&lv);
}

#[test]
fn things_outside_the_engines_range_are_left_out_with_a_warning() {
    let mut lv = Lv::new();
    let s = lv.sector(0.0, 128.0, 0);
    lv.rect(0.0, 0.0, 256.0, 256.0, s);
    lv.thing(128.0, 128.0, 1, 0b11111, true);
    lv.thing(-40000.0, 128.0, 2001, 0b11111, true);
    lv.thing(128.0, f64::NAN, 2001, 0b11111, true);
    let out = run(&lv);
    assert_eq!(
        count(&out.warnings, "outside the engine's"),
        2,
        "{:?}",
        out.warnings
    );
    assert_eq!(
        count(&out.warnings, "thing 1 (type 2001)"),
        1,
        "{:?}",
        out.warnings
    );
}

fn run_err(lv: &Lv) -> String {
    import(
        &lv.0,
        "TEST",
        &TextureLibrary::empty(),
        &ImportOptions::default(),
    )
    .unwrap_err()
}

#[test]
fn warnings_of_one_kind_are_capped() {
    let mut lv = two_rooms_and_a_door();
    for _ in 0..25 {
        lv.0.linedefs.push(Linedef {
            v1: 0,
            v2: 0,
            front: Some(0),
            ..Default::default()
        });
    }
    let out = run(&lv);
    assert_eq!(count(&out.warnings, "zero length"), MAX_PER_KIND);
    assert_eq!(
        count(
            &out.warnings,
            "15 more broken linedefs not shown (25 in all)"
        ),
        1,
        "{:?}",
        out.warnings
    );
}

/// Random damage to the binary lumps of a small map: every result is a
/// level or an error, every level imports or fails with a message.
#[test]
fn damaged_lumps_never_panic() {
    let lv = two_rooms_and_a_door();
    let (mut v, mut l, mut s, mut sec, mut t) = (vec![], vec![], vec![], vec![], vec![]);
    for p in &lv.0.vertices {
        binary::write::vertex(&mut v, p.x as i16, p.y as i16);
    }
    for x in &lv.0.linedefs {
        binary::write::linedef(
            &mut l,
            x.v1 as u16,
            x.v2 as u16,
            x.flags,
            x.special as u16,
            x.tag as u16,
            x.front.map(|f| f as u16),
            x.back.map(|b| b as u16),
        );
    }
    for x in &lv.0.sidedefs {
        binary::write::sidedef(&mut s, 0, 0, &x.upper, &x.lower, &x.middle, x.sector as u16);
    }
    for x in &lv.0.sectors {
        binary::write::sector(
            &mut sec,
            x.floor as i16,
            x.ceiling as i16,
            &x.floor_texture,
            &x.ceiling_texture,
            x.light as i16,
            0,
            x.tag as u16,
        );
    }
    for x in &lv.0.things {
        binary::write::thing(&mut t, x.x as i16, x.y as i16, 0, x.kind as u16, 7);
    }
    let lib = TextureLibrary::empty();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut imported = 0;
    for round in 0..400 {
        let mut lumps = [v.clone(), l.clone(), s.clone(), sec.clone(), t.clone()];
        for _ in 0..1 + round % 6 {
            let which = (rand() % 5) as usize;
            let lump = &mut lumps[which];
            if lump.is_empty() {
                continue;
            }
            let at = (rand() as usize) % lump.len();
            match rand() % 4 {
                0 => lump[at] = rand() as u8,
                1 => lump[at] = 0xFF,
                2 => lump.truncate(at),
                _ => lump[at] ^= 0x80,
            }
        }
        let parsed = binary::parse(&binary::MapLumps {
            vertexes: Some(&lumps[0]),
            linedefs: Some(&lumps[1]),
            sidedefs: Some(&lumps[2]),
            sectors: Some(&lumps[3]),
            things: Some(&lumps[4]),
            ..binary::MapLumps::default()
        });
        let Ok(level) = parsed else { continue };
        match import(&level, "FUZZ", &lib, &ImportOptions::default()) {
            Ok(out) => {
                Level::load(&out.compiled.bytes).unwrap();
                imported += 1;
            }
            Err(e) => assert!(e.starts_with("error: FUZZ: "), "{e}"),
        }
    }
    assert!(imported > 50, "{imported}");
}

/// A WAD of sprite lumps, each a solid `w` x 8 picture of colour `c`,
/// origin at its bottom middle.
fn sprite_wad(lumps: &[(&str, u16, u8)]) -> Vec<u8> {
    let pictures: Vec<(String, Vec<u8>)> = lumps
        .iter()
        .map(|&(name, w, c)| {
            let mut img = crate::texture::Image::new(w, 8);
            for x in 0..w as usize {
                for y in 0..8 {
                    img.set(x, y, c);
                }
            }
            img.left = (w / 2) as i16;
            img.top = 8;
            (name.to_string(), crate::texture::encode_picture(&img))
        })
        .collect();
    let mut all: Vec<(&str, &[u8])> = vec![("S_START", b"")];
    all.extend(pictures.iter().map(|(n, b)| (n.as_str(), b.as_slice())));
    all.push(("S_END", b""));
    crate::wad::tests::make_wad(b"IWAD", &all)
}

#[test]
fn monsters_with_all_eight_rotations_get_a_rotation_set() {
    // The former human's five lumps (rotations 2 to 4 paired with 8 to
    // 6, drawn mirrored); the imp's frame A lacks rotations 3 to 8; the
    // barrel has one picture.
    let bytes = sprite_wad(&[
        ("POSSA1", 4, 10),
        ("POSSA2A8", 6, 11),
        ("POSSA3A7", 8, 12),
        ("POSSA4A6", 10, 13),
        ("POSSA5", 12, 14),
        ("POSSB1", 4, 15),
        ("TROOA1", 4, 16),
        ("TROOA2A8", 4, 17),
        ("BAR1A0", 4, 18),
    ]);
    let wad = crate::wad::Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    assert_eq!(lib.sprite_count(), 9);
    let mut lv = two_rooms_and_a_door();
    lv.0.things.clear();
    lv.thing(128.0, 128.0, 1, 0, true);
    lv.thing(40.0, 40.0, 3004, 0b00100, true);
    lv.thing(60.0, 40.0, 3004, 0b00100, true);
    lv.thing(80.0, 40.0, 3001, 0b00100, true);
    lv.thing(100.0, 40.0, 2035, 0b00100, true);
    lv.thing(120.0, 40.0, 9, 0b00100, true); // no SPOS lumps at all
    lv.0.things[2].angle = 225.0;
    let out = import(&lv.0, "TEST", &lib, &ImportOptions::default()).unwrap();
    let view = engine::format::MapView::new_checked(&out.compiled.bytes).unwrap();
    let things: Vec<ThingRecord> = view.things().collect();
    let name = |t: u16| view.texture_name(t as usize).to_string();
    // One set, shared by both former humans.
    assert_eq!(view.rotation_set_count(), 1);
    assert_eq!((things[1].rotations, things[2].rotations), (1, 1));
    assert_eq!(things[2].angle, Fx::from_num(225));
    let set = view.thing_rotations(1).unwrap();
    let got: Vec<(String, bool)> = (0..8)
        .map(|r| {
            let (t, mirrored) = set.rotation(r);
            (name(t), mirrored)
        })
        .collect();
    let want = [
        ("POSSA1", false),
        ("POSSA2A8", false),
        ("POSSA3A7", false),
        ("POSSA4A6", false),
        ("POSSA5", false),
        ("POSSA4A6", true),
        ("POSSA3A7", true),
        ("POSSA2A8", true),
    ];
    assert_eq!(
        got,
        want.map(|(n, m)| (n.to_string(), m)),
        "rotations 1 to 8"
    );
    // Its sprite is rotation 1; a pair is packed once for both halves.
    assert_eq!(things[1].sprite, set.rotation(0).0);
    assert_eq!(name(things[1].sprite), "POSSA1");
    let packed: Vec<String> = (0..view.texture_count()).map(|i| name(i as u16)).collect();
    assert_eq!(packed.iter().filter(|n| *n == "POSSA2A8").count(), 1);
    assert!(!packed.iter().any(|n| n == "POSSB1"), "{packed:?}");
    // The imp (rotations missing) and the barrel (none to have) keep one
    // picture; the unknown sprite none.
    assert_eq!(
        (name(things[3].sprite), things[3].rotations),
        ("TROOA1".into(), 0)
    );
    assert_eq!(
        (name(things[4].sprite), things[4].rotations),
        ("BAR1A0".into(), 0)
    );
    assert_eq!((things[5].sprite, things[5].rotations), (NONE, 0));
    // And the compiled map's dump shows them.
    let json = crate::inspect::to_json(&view);
    let rotations = &json["things"][1]["rotations"];
    assert_eq!(rotations.as_array().map(Vec::len), Some(8));
    assert_eq!(rotations[6]["texture"], set.rotation(6).0);
    assert_eq!(rotations[6]["mirrored"], true);
    assert_eq!(rotations[0]["mirrored"], false);
    assert!(json["things"][3]["rotations"].is_null());
    assert_eq!(json["things"][1]["sprite"], things[1].sprite);
}

#[test]
fn doom_exits_become_wall_specials() {
    use engine::format::{trigger, wall_action};
    // The door's east side a W1 exit (52) and room B's east wall an S1
    // secret exit (51); everything else as it was.
    let mut lv = two_rooms_and_a_door();
    lv.0.linedefs[6].special = 52;
    lv.0.linedefs[8].special = 51;
    let out = run(&lv);
    assert_eq!(out.summary.exits, 2);
    let level = Level::load(&out.compiled.bytes).unwrap();
    let map = level.map();
    assert_eq!(map.wall_special_count(), 2);
    let specials: Vec<_> = (0..2).map(|k| map.wall_special_at(k)).collect();
    let (walk, switch) = (specials[0], specials[1]);
    assert_eq!(
        (walk.action, walk.trigger),
        (wall_action::EXIT, trigger::WALK)
    );
    assert_eq!(
        (switch.action, switch.trigger),
        (wall_action::SECRET_EXIT, trigger::USE)
    );
    // On the walls of those linedefs: the door's east side at x = 272,
    // room B's east wall at x = 512.
    let x_of = |w: u16| {
        let wall = level.wall(engine::world::WallId(w));
        (wall.a.x.to_num::<i32>(), wall.b.x.to_num::<i32>())
    };
    assert_eq!(x_of(walk.wall), (272, 272));
    assert_eq!(x_of(switch.wall), (512, 512));
    // Walking east from the start, through the open door, crosses the
    // exit line: the level ends.
    let mut game = engine::game::Game::new(level);
    game.tick(engine::game::Input::new(0, 0, -90));
    for _ in 0..60 {
        game.tick(engine::game::Input::new(100, 0, 0));
    }
    assert_eq!(game.exit(), Some(engine::game::Exit::Normal));
}

/// [`run`] with the movers written as wall specials, for the game.
fn run_with_movers(lv: &Lv) -> Imported {
    let opts = ImportOptions {
        movers: true,
        ..ImportOptions::default()
    };
    import(&lv.0, "T", &TextureLibrary::empty(), &opts).unwrap()
}

/// [`two_rooms_and_a_door`] in Hexen numbering, its door line given
/// `special`, `args` and activation `flags`.
fn hexen_door_level(special: i32, args: [i32; 5], flags: u16) -> Lv {
    let mut lv = two_rooms_and_a_door();
    lv.0.specials = SpecialSet::Hexen;
    lv.0.linedefs[2].special = special;
    lv.0.linedefs[2].args = args;
    lv.0.linedefs[2].tag = args[0];
    lv.0.linedefs[2].flags |= flags;
    lv
}

/// The wall specials of [`hexen_door_level`], compiled with the movers.
fn hexen_door(special: i32, args: [i32; 5], flags: u16) -> Vec<engine::format::WallSpecialRecord> {
    let out = run_with_movers(&hexen_door_level(special, args, flags));
    let level = Level::load(&out.compiled.bytes).unwrap();
    let m = *level.map();
    (0..m.wall_special_count())
        .map(|k| m.wall_special_at(k))
        .collect()
}

#[test]
fn hexen_doors_lifts_teleports_and_exits_are_the_games_to_move() {
    use crate::doom::line_flag::{activation, ACTIVATION_SHIFT, REPEAT};
    use engine::format::{trigger, wall_action as act};
    let used = activation::USE << ACTIVATION_SHIFT;
    let crossed = activation::CROSS << ACTIVATION_SHIFT;
    let shot = activation::OTHER << ACTIVATION_SHIFT;
    let only = |v: Vec<engine::format::WallSpecialRecord>| {
        assert_eq!(v.len(), 1, "{v:?}");
        (v[0].action, v[0].trigger, v[0].tag)
    };
    // Door_Raise at DOOM's speed and wait, tag 0: DOOM's manual door.
    assert_eq!(
        only(hexen_door(12, [0, 16, 150, 0, 0], used | REPEAT)),
        (
            act::DOOR_RAISE | act::BACK_SECTOR,
            trigger::USE | trigger::REPEAT,
            0
        )
    );
    // Faster and shorter: Boom's nearest (8 units a tick, 35 ticks).
    assert_eq!(
        only(hexen_door(12, [0, 60, 40, 0, 0], used)),
        (act::BOOM_DOOR | 2 << 2 | act::BACK_SECTOR, trigger::USE, 0)
    );
    // Door_LockedRaise with ZDoom's blue skull (5), walked over.
    assert_eq!(
        only(hexen_door(13, [0, 64, 150, 5, 0], crossed)),
        (
            act::DOOR_FAST_RAISE | act::BACK_SECTOR,
            trigger::WALK | trigger::LOCK_BLUE,
            0
        )
    );
    // Plat_DownWaitUpStay by tag, Teleport to tag 3, Exit_Normal.
    assert_eq!(
        only(hexen_door(62, [7, 32, 105, 0, 0], crossed)),
        (act::LIFT, trigger::WALK, 7)
    );
    assert_eq!(
        only(hexen_door(70, [0, 3, 0, 0, 0], crossed | REPEAT)),
        (act::TELEPORT, trigger::WALK | trigger::REPEAT, 3)
    );
    assert_eq!(
        only(hexen_door(243, [0; 5], used)),
        (act::EXIT, trigger::USE, 0)
    );
    // Set off by a shot, or locked to "any key": not read.
    assert!(hexen_door(12, [0, 16, 150, 0, 0], shot).is_empty());
    assert!(hexen_door(13, [0, 16, 150, 100, 0], used).is_empty());
}

#[test]
fn hexen_floors_ceilings_stairs_platforms_and_lights_at_dooms_speeds_are_read() {
    use crate::doom::line_flag::{activation, ACTIVATION_SHIFT};
    use engine::format::{trigger, wall_action as act};
    let crossed = activation::CROSS << ACTIVATION_SHIFT;
    let one = |special, args: [i32; 5]| {
        let v = hexen_door(special, args, crossed);
        assert!(v.len() <= 1, "{v:?}");
        v.first().map(|s| (s.action, s.trigger, s.tag))
    };
    let w = trigger::WALK;
    // The forms ZDoom gives DOOM's own specials (its translation table).
    for (special, args, action) in [
        (21, [5, 8, 0, 0, 0], act::FLOOR_LOWER_TO_LOWEST),
        (241, [5, 8, 0, 0, 0], act::FLOOR_LOWER_TO_LOWEST_CHANGE),
        (242, [5, 8, 128, 0, 0], act::FLOOR_LOWER),
        (242, [5, 32, 136, 0, 0], act::FLOOR_LOWER_FAST),
        (238, [5, 8, 0, 0, 0], act::FLOOR_RAISE),
        (25, [5, 32, 0, 0, 0], act::FLOOR_RAISE_TO_NEXT_FAST),
        (23, [5, 8, 24, 0, 0], act::FLOOR_RAISE_24),
        (35, [5, 8, 64, 0, 0], act::FLOOR_RAISE_512),
        (28, [5, 8, 10, 0, 0], act::FLOOR_RAISE_CRUSH),
        (250, [5, 4, 4, 0, 0], act::DONUT),
        (254, [5, 8, 0, 0, 0], act::CEILING_LOWER_TO_FLOOR),
        (201, [5, 8, 0, 1, 8], act::CEILING_RAISE_TO_HIGHEST),
        (196, [5, 16, 16, 10, 0], act::CEILING_CRUSHER_FAST),
        (197, [5, 8, 8, 10, 0], act::CEILING_CRUSHER),
        (44, [5, 0, 0, 0, 0], act::CEILING_CRUSHER_STOP),
        (217, [5, 2, 8, 0, 0], act::STAIRS_8),
        (217, [5, 32, 16, 0, 0], act::STAIRS_16_FAST),
        (206, [5, 32, 105, 0, 0], act::LIFT),
        (207, [5, 8, 105, 0, 0], act::LIFT_PERPETUAL),
        (61, [5, 0, 0, 0, 0], act::LIFT_STOP),
        (228, [5, 4, 0, 0, 0], act::PLAT_RAISE_TO_NEXT_CHANGE),
        (230, [5, 4, 4, 0, 0], act::PLAT_RAISE_32_CHANGE),
        (112, [5, 255, 0, 0, 0], act::LIGHT_FULL),
        (112, [5, 35, 0, 0, 0], act::LIGHT_DIM),
        (234, [5, 0, 0, 0, 0], act::LIGHT_BRIGHTEST_AROUND),
        (233, [5, 0, 0, 0, 0], act::LIGHT_DARKEST_AROUND),
        (232, [5, 5, 35, 0, 0], act::LIGHT_START_STROBE),
        (249, [5, 16, 240, 0, 0], act::DOOR_CLOSE_WAIT_OPEN),
    ] {
        assert_eq!(
            one(special, args),
            Some((action, w, 5)),
            "{special} {args:?}"
        );
    }
    // Another speed or amount is no DOOM special; nor is a floor that
    // names no sector.
    assert_eq!(one(21, [5, 16, 0, 0, 0]), None);
    assert_eq!(one(23, [5, 8, 32, 0, 0]), None);
    assert_eq!(one(206, [5, 32, 105, 8, 0]), None);
    assert_eq!(one(112, [5, 100, 0, 0, 0]), None);
    assert_eq!(one(21, [0, 8, 0, 0, 0]), None);
}

#[test]
fn a_hexen_door_stays_shut_until_the_player_uses_it() {
    use crate::doom::line_flag::{activation, ACTIVATION_SHIFT, REPEAT};
    let used = activation::USE << ACTIVATION_SHIFT | REPEAT;
    let out = run_with_movers(&hexen_door_level(12, [0, 16, 150, 0, 0], used));
    let level = Level::load(&out.compiled.bytes).unwrap();
    assert_eq!(level.sector(SectorId(1)).ceiling, Fx::ZERO, "shut");
    let mut game = engine::game::Game::new(level);
    assert!(game.set_off(0));
    for _ in 0..70 {
        game.tick(engine::game::Input::IDLE);
    }
    assert_eq!(game.level().sector(SectorId(1)).ceiling, Fx::from_num(124));
}

#[test]
fn line_specials_the_game_does_not_act_on_are_reported_once_per_map() {
    let mut lv = two_rooms_and_a_door();
    // A gun door (46) on two walls and a switch door (103) with no tag.
    lv.0.linedefs[0].special = 46;
    lv.0.linedefs[0].tag = 3;
    lv.0.linedefs[1].special = 46;
    lv.0.linedefs[1].tag = 3;
    lv.0.linedefs[3].special = 103;
    let out = run_with_movers(&lv);
    let said: Vec<&String> = out
        .warnings
        .iter()
        .filter(|w| w.contains("does not act on"))
        .collect();
    assert_eq!(said.len(), 1, "{:?}", out.warnings);
    assert!(said[0].ends_with(": 46 (2 lines), 103"), "{}", said[0]);
    // The manual door (1) is acted on: not in the list. Walk-throughs
    // say nothing (the compiler opens what it can).
    let out = run(&lv);
    assert_eq!(count(&out.warnings, "does not act on"), 0);
}
