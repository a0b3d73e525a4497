//! Freedoom, the corpus no one here made: every map of `freedoom1.wad`,
//! `freedoom2.wad` and `freedm.wad` compiles, and a scripted walk from each player start
//! (running, turning, strafing into walls) never ends a tick inside a wall
//! or in the wrong sector. E1M1 and MAP01 are also checked through the
//! `tools` binary (`compile`, `dump --json`) against the dumped geometry,
//! and walked by the `desktop` binary headless.
//!
//! The WADs come from Debian's `freedoom` and `freedm` packages
//! (`scripts/setup` installs them); `FREEDOOM_DIR` points elsewhere. A missing WAD fails the
//! test: it is not skipped.

mod common;

use common::{read_wad, scratch, wad_path};

use std::fs;
use std::path::Path;
use std::process::Command;

use engine::collide::{wall_blocks, Blocked};
use engine::config::collision::TOLERANCE;
use engine::format::wall_flag;
use engine::game::{Game, Input, PlayerState, PLAYER_SHAPE};
use engine::math::{Fx, Vec2};
use engine::world::{Level, WallId};
use serde_json::Value;
use tools::import::{ImportOptions, WadSource};

/// The walk: `(ticks, forward, strafe, turn)` runs, like a desktop demo.
/// Long runs straight ahead end against walls; the turns and strafes then
/// slide along them and into corners.
const WALK: &[(u32, i32, i32, i32)] = &[
    (40, 100, 0, 0),
    (20, 100, 0, 9),
    (30, 100, 100, 0),
    (10, 0, 0, -18),
    (40, 100, 0, 0),
    (25, -100, 0, 3),
    (30, 0, -100, 0),
    (20, 100, 0, -9),
    (40, 100, 50, 2),
    (15, 0, 0, 12),
    (30, 100, -100, 0),
];

fn walk_inputs() -> impl Iterator<Item = Input> {
    WALK.iter()
        .flat_map(|&(n, f, s, t)| std::iter::repeat_n(Input::new(f, s, t), n as usize))
}

fn tol() -> f64 {
    TOLERANCE.to_num::<f64>() + 1e-3
}

fn f(v: Fx) -> f64 {
    v.to_num::<f64>()
}

/// Distance from `p` to the segment `a`-`b`.
fn distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
}

/// True if `p` lies exactly on some wall's line segment (where the
/// sector is a matter of convention).
fn on_a_wall(level: &Level<'_>, p: Vec2) -> bool {
    (0..level.wall_count()).any(|i| {
        let w = level.wall(WallId(i as u16));
        let (a, b) = (w.a.wide(), w.b.wide());
        let q = p.wide();
        b.sub(a).cross(q.sub(a)) == engine::math::Wide::ZERO
            && q.x >= a.x.min(b.x)
            && q.x <= a.x.max(b.x)
            && q.y >= a.y.min(b.y)
            && q.y <= a.y.max(b.y)
    })
}

/// After a tick: the player's circle overlaps no wall that blocks it
/// (checked against every wall, not through the blockmap), and the
/// sector it tracked is the one `Level::locate` finds.
fn check_tick(level: &Level<'_>, map: &str, p: &PlayerState) -> Result<(), String> {
    let r = PLAYER_SHAPE.radius.to_num::<f64>();
    let pos = (f(p.pos.x), f(p.pos.y));
    for i in 0..level.wall_count() {
        let id = WallId(i as u16);
        let w = level.wall(id);
        let (a, b) = ((f(w.a.x), f(w.a.y)), (f(w.b.x), f(w.b.y)));
        // Cheap box test first: most walls are far away.
        if pos.0 < a.0.min(b.0) - r
            || pos.0 > a.0.max(b.0) + r
            || pos.1 < a.1.min(b.1) - r
            || pos.1 > a.1.max(b.1) + r
        {
            continue;
        }
        // Walls that block whatever the height. (A wall that blocks only
        // because of the feet's height may be overlapped after a step up
        // within the same tick: the engine checks walls at the height the
        // move started from.)
        let why = wall_blocks(level, &w, &PLAYER_SHAPE, p.z);
        if let Some(why @ (Blocked::OneSided | Blocked::Impassable | Blocked::OpeningTooLow)) = why
        {
            let d = distance(pos, a, b);
            if d < r - tol() {
                return Err(format!(
                    "{map} tick {}: the player at {pos:?} (z {}) is {d} from wall {i} \
                     ({a:?}-{b:?}, {why:?})",
                    p.tick, p.z
                ));
            }
        }
    }
    if !on_a_wall(level, p.pos) {
        let found = level.locate(p.pos);
        if found != Some(p.sector) {
            return Err(format!(
                "{map} tick {}: the player at {pos:?} tracked sector {} but is in {found:?}",
                p.tick, p.sector.0
            ));
        }
    }
    Ok(())
}

/// Walks `bytes` from the player start; returns the states, tick by tick.
fn walk(bytes: &[u8], map: &str) -> Vec<PlayerState> {
    walk_for(bytes, map, usize::MAX)
}

/// [`walk`] for at most `ticks` ticks.
fn walk_for(bytes: &[u8], map: &str, ticks: usize) -> Vec<PlayerState> {
    let level = Level::load(bytes).unwrap_or_else(|e| panic!("{map}: {e}"));
    let mut game = Game::new(level);
    let start = game.player();
    // A start pushed clear of a solid thing may land on a wall's line,
    // where either side's sector is right (as check_tick allows).
    if !on_a_wall(&level, start.pos) {
        assert_eq!(
            level.locate(start.pos),
            Some(start.sector),
            "{map}: the player start is not in the sector it spawned in"
        );
    }
    let mut states = vec![start];
    // A start the spawn could not push clear of a solid thing stays in it
    // until the player walks out; after that it never goes back in.
    let mut clear = solid_thing_depth(&level, start.pos) <= tol();
    for input in walk_inputs().take(ticks) {
        game.tick(input);
        let p = game.player();
        if let Err(e) = check_tick(&level, map, &p) {
            panic!("{e}");
        }
        let depth = solid_thing_depth(&level, p.pos);
        assert!(
            !clear || depth <= tol(),
            "{map} tick {}: the player at {:?} is {depth} into a solid thing",
            p.tick,
            p.pos
        );
        clear |= depth <= tol();
        states.push(p);
    }
    states
}

/// How deep the player's circle at `pos` is inside the deepest solid
/// thing (0 if in none), from every thing of the map.
fn solid_thing_depth(level: &Level<'_>, pos: Vec2) -> f64 {
    let r = PLAYER_SHAPE.radius.to_num::<f64>();
    level
        .map()
        .things()
        .filter(|t| t.kind == engine::format::kind::SOLID)
        .map(|t| {
            let (dx, dy) = (f(pos.x) - f(t.x), f(pos.y) - f(t.y));
            r + f(t.radius) - (dx * dx + dy * dy).sqrt()
        })
        .fold(0.0, f64::max)
}

/// `bytes` with the player start moved to `(x, y)` (raw 16.16 bits),
/// written straight into the `THNG` section (see `engine::format`): a
/// way to start walks elsewhere in a map without recompiling it.
fn with_start(bytes: &[u8], x: i32, y: i32) -> Vec<u8> {
    let view = engine::format::MapView::new_checked(bytes).unwrap();
    let index = view
        .things()
        .position(|t| t.kind == engine::format::kind::PLAYER_START)
        .unwrap();
    let count = u16::from_be_bytes([bytes[6], bytes[7]]) as usize;
    let entry = (0..count)
        .map(|i| engine::format::HEADER_LEN + i * engine::format::DIR_ENTRY_LEN)
        .find(|&at| bytes[at..at + 4] == engine::format::tag::THINGS)
        .unwrap();
    let offset = u32::from_be_bytes(bytes[entry + 4..entry + 8].try_into().unwrap()) as usize;
    let at = offset + index * engine::format::size::THING;
    let mut out = bytes.to_vec();
    out[at..at + 4].copy_from_slice(&x.to_be_bytes());
    out[at + 4..at + 8].copy_from_slice(&y.to_be_bytes());
    out
}

/// More walks, from things spread over the map (those inside a sector,
/// not solid, and clear of every wall and solid thing): `count` starts, `ticks` ticks each. Map
/// angles are multiples of 45 degrees and vertices sit on whole units, so
/// these straight runs often pass exactly through vertices: see
/// [`a_path_touching_a_vertex_keeps_its_sector`].
fn walks_from_things(bytes: &[u8], map: &str, count: usize, ticks: usize) {
    let level = Level::load(bytes).unwrap();
    let r = PLAYER_SHAPE.radius.to_num::<f64>();
    let solid: Vec<_> = level
        .map()
        .things()
        .filter(|t| t.kind == engine::format::kind::SOLID)
        .collect();
    let things: Vec<_> = level
        .map()
        .things()
        .filter(|t| {
            let p = (f(t.x), f(t.y));
            let clear_of = |u: &engine::format::ThingRecord| {
                let (dx, dy) = (p.0 - f(u.x), p.1 - f(u.y));
                (dx * dx + dy * dy).sqrt() > r + f(u.radius) + 1.0
            };
            t.kind != engine::format::kind::SOLID
                && solid.iter().all(clear_of)
                && level.locate(Vec2::new(t.x, t.y)).is_some()
                && (0..level.wall_count()).all(|i| {
                    let w = level.wall(WallId(i as u16));
                    distance(p, (f(w.a.x), f(w.a.y)), (f(w.b.x), f(w.b.y))) > r + 1.0
                })
        })
        .collect();
    let n = count.min(things.len());
    for k in 0..n {
        let t = things[k * things.len() / n];
        let moved = with_start(bytes, t.x.to_bits(), t.y.to_bits());
        walk_for(&moved, &format!("{map} from ({}, {})", t.x, t.y), ticks);
    }
}

/// The compiled map keeps the WAD's BSP whole: as many nodes, segs and
/// subsectors as its lumps hold, each seg on the side of its wall the
/// WAD's seg names (found from the seg's direction), each subsector in
/// the sector of its first seg (DOOM's rule: a few of Freedoom's
/// subsectors mix sectors), and every node's children where the WAD's
/// node has them.
fn check_bsp(wad: &[u8], map: &str, compiled: &[u8]) {
    let wad = tools::wad::Wad::parse(wad).unwrap();
    let entry = wad.map(map).unwrap();
    let records = |lump: &str, size: usize| wad.map_lump(&entry, lump).unwrap().len() / size;
    let view = engine::format::MapView::new_checked(compiled).unwrap();
    // The WAD's own BSP, kept: its records one for one.
    let bsp = view.bsp();
    assert_eq!(bsp.node_count(), records("NODES", 28), "{map}");
    assert_eq!(bsp.seg_count(), records("SEGS", 12), "{map}");
    assert_eq!(bsp.subsector_count(), records("SSECTORS", 4), "{map}");
    let nodes = wad.map_lump(&entry, "NODES").unwrap();
    for i in 0..bsp.node_count() {
        let raw = |at: usize| u16::from_le_bytes([nodes[i * 28 + at], nodes[i * 28 + at + 1]]);
        assert_eq!(bsp.node(i).child, [raw(24), raw(26)], "{map} node {i}");
    }
    let segs = wad.map_lump(&entry, "SEGS").unwrap();
    for k in 0..bsp.seg_count() {
        let side = u16::from_le_bytes([segs[k * 12 + 8], segs[k * 12 + 9]]);
        assert_eq!(bsp.seg(k).back, side == 1, "{map} seg {k}");
    }
    for i in 0..bsp.subsector_count() {
        let sub = bsp.subsector(i);
        let seg = bsp.seg(sub.first_seg as usize);
        let wall = view.wall(seg.wall as usize);
        let sector = if seg.back { wall.back } else { wall.front };
        assert_eq!(sector, sub.sector, "{map}: subsector {i}");
    }
}

/// Our node builder on real, untidy geometry (crossing lines, sectors that
/// touch themselves): it builds a BSP of every Freedoom map's walls within
/// the depth limit, about as large as the WAD's own.
fn check_node_builder(map: &str, compiled: &[u8]) {
    let view = engine::format::MapView::new_checked(compiled).unwrap();
    let vertices: Vec<Vec2> = (0..view.vertex_count())
        .map(|i| Vec2::new(view.vertex(i).x, view.vertex(i).y))
        .collect();
    let walls: Vec<_> = (0..view.wall_count()).map(|i| view.wall(i)).collect();
    let ours = tools::nodes::build(&vertices, &walls).unwrap_or_else(|e| panic!("{map}: {e}"));
    let theirs = view.bsp();
    let ratio = ours.segs.len() as f64 / theirs.seg_count() as f64;
    assert!(
        (0.8..1.5).contains(&ratio),
        "{map}: {} segs against the WAD's {}",
        ours.segs.len(),
        theirs.seg_count()
    );
}

/// Compiles and walks every map of one IWAD; returns (map, warnings).
fn compile_and_walk_all(wad: &str, expected_maps: usize) -> Vec<(String, usize)> {
    let bytes = read_wad(wad);
    let source = WadSource::new(&bytes, None).unwrap();
    assert!(source.warnings.is_empty(), "{:?}", source.warnings);
    let maps = source.maps();
    assert_eq!(maps.len(), expected_maps, "{wad}");
    let mut counts = Vec::new();
    for map in &maps {
        let imported = source
            .compile(map, &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{wad} {}: {e}", map.name));
        // The builder already ran the engine's loader; load it once more
        // the way a frontend does.
        engine::format::MapView::new_checked(&imported.compiled.bytes).unwrap();
        let states = walk(&imported.compiled.bytes, &map.name);
        // The walk went somewhere: the demo is not stuck at the start.
        let (a, b) = (states[0].pos, states.last().unwrap().pos);
        assert!(
            a != b || states.iter().any(|s| s.pos != a),
            "{}: the player never moved",
            map.name
        );
        walks_from_things(&imported.compiled.bytes, &map.name, 6, 150);
        check_bsp(&bytes, &map.name, &imported.compiled.bytes);
        check_node_builder(&map.name, &imported.compiled.bytes);
        counts.push((map.name.clone(), imported.warnings.len()));
    }
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let line: Vec<String> = counts.iter().map(|(m, n)| format!("{m}:{n}")).collect();
    println!(
        "{wad}: {} maps, {total} warnings: {}",
        counts.len(),
        line.join(" ")
    );
    counts
}

#[test]
fn every_freedoom1_map_compiles_and_walks() {
    compile_and_walk_all("freedoom1.wad", 36);
}

#[test]
fn every_freedoom2_map_compiles_and_walks() {
    compile_and_walk_all("freedoom2.wad", 32);
}

/// FreeDM's deathmatch maps (Debian's `freedm`): no player 1 start, so the
/// walk begins at the first deathmatch start.
#[test]
fn every_freedm_map_compiles_and_walks() {
    compile_and_walk_all("freedm.wad", 32);
}

fn run(bin: &Path, args: &[&str]) -> std::process::Output {
    let out = Command::new(bin).args(args).output().expect("run");
    assert!(
        out.status.success(),
        "{} {args:?} failed: {}",
        bin.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The geometry `tools dump --json` shows, in plain numbers.
struct Dumped {
    vertices: Vec<(f64, f64)>,
    /// (v1, v2, front, back, flags)
    walls: Vec<(usize, usize, usize, Option<usize>, u64)>,
    /// (floor, ceiling)
    sectors: Vec<(f64, f64)>,
}

impl Dumped {
    fn parse(json: &Value) -> Dumped {
        let n = |v: &Value| v.as_f64().unwrap();
        let u = |v: &Value| v.as_u64().unwrap() as usize;
        Dumped {
            vertices: json["vertices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| (n(&v["x"]), n(&v["y"])))
                .collect(),
            walls: json["walls"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| {
                    (
                        u(&w["v1"]),
                        u(&w["v2"]),
                        u(&w["front"]),
                        w["back"].as_u64().map(|b| b as usize),
                        w["flags"].as_u64().unwrap(),
                    )
                })
                .collect(),
            sectors: json["sectors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| (n(&s["floor"]), n(&s["ceiling"])))
                .collect(),
        }
    }

    /// The sector at `p` by a ray towards +x through every wall (no
    /// blockmap): the side of the nearest wall crossed. `None` if the ray
    /// meets a vertex first or `p` is on a wall (ambiguous) or outside.
    fn sector_at(&self, p: (f64, f64)) -> Option<usize> {
        let mut best: Option<(f64, usize, bool)> = None;
        for (i, &(v1, v2, ..)) in self.walls.iter().enumerate() {
            let (a, b) = (self.vertices[v1], self.vertices[v2]);
            let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
            let inside_box = p.0 >= a.0.min(b.0)
                && p.0 <= a.0.max(b.0)
                && p.1 >= a.1.min(b.1)
                && p.1 <= a.1.max(b.1);
            if cross == 0.0 && inside_box {
                // On the wall itself: either side is right.
                return None;
            }
            if (a.1 > p.1) == (b.1 > p.1) {
                continue;
            }
            let x = a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1);
            if x < p.0 {
                continue;
            }
            let at_vertex = a.1 == p.1 || b.1 == p.1;
            if best.is_none_or(|(bx, _, _)| x < bx) {
                best = Some((x, i, at_vertex));
            }
        }
        let (x, i, at_vertex) = best?;
        if at_vertex || x == p.0 {
            return None;
        }
        let (v1, v2, front, back, _) = self.walls[i];
        let (a, b) = (self.vertices[v1], self.vertices[v2]);
        let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
        if cross > 0.0 {
            back
        } else {
            Some(front)
        }
    }

    /// Checks a position against the dumped geometry: no one-sided or
    /// impassable wall within the player's radius, and (where the ray
    /// test is unambiguous) the expected sector.
    fn check(&self, what: &str, pos: (f64, f64), sector: usize) {
        let r = PLAYER_SHAPE.radius.to_num::<f64>();
        for (i, &(v1, v2, _, back, flags)) in self.walls.iter().enumerate() {
            let solid = back.is_none() || flags & wall_flag::IMPASSABLE as u64 != 0;
            if solid {
                let d = distance(pos, self.vertices[v1], self.vertices[v2]);
                assert!(d >= r - tol(), "{what}: {pos:?} is {d} from solid wall {i}");
            }
        }
        if let Some(s) = self.sector_at(pos) {
            assert_eq!(s, sector, "{what}: {pos:?}");
        }
    }
}

/// E1M1 and MAP01 through the binaries: `tools compile` and `tools dump
/// --json` (of the WAD map and of the compiled file: the same JSON), the
/// dump's geometry against the engine's, the walk checked against the
/// dumped geometry, and the `desktop` binary walking the compiled map
/// headless with the same demo.
#[test]
fn e1m1_and_map01_through_the_binaries() {
    let tools = Path::new(env!("CARGO_BIN_EXE_tools"));
    let desktop = tools.with_file_name(format!("desktop{}", std::env::consts::EXE_SUFFIX));
    let dir = scratch("freedoom", "binaries");
    let demo: String = WALK
        .iter()
        .map(|(n, fw, s, t)| format!("{n} {fw} {s} {t}\n"))
        .collect();
    let demo_path = dir.join("walk.demo");
    fs::write(&demo_path, demo).unwrap();
    for (wad, map) in [("freedoom1.wad", "E1M1"), ("freedoom2.wad", "MAP01")] {
        let wad_file = wad_path(wad);
        read_wad(wad); // a clear message if it is missing
        let wad_arg = wad_file.to_str().unwrap();
        let out = dir.join(format!("{map}.spmp"));
        let out_arg = out.to_str().unwrap();
        run(tools, &["compile", wad_arg, "--map", map, "-o", out_arg]);
        let bytes = fs::read(&out).unwrap();

        let from_file = run(tools, &["dump", out_arg, "--json"]);
        let from_wad = run(tools, &["dump", wad_arg, "--map", map, "--json"]);
        assert_eq!(from_file.stdout, from_wad.stdout, "{map}: two dumps differ");
        let json: Value = serde_json::from_slice(&from_file.stdout).unwrap();
        let dumped = Dumped::parse(&json);

        // The dump is the engine's geometry.
        let level = Level::load(&bytes).unwrap();
        let bsp = level.map().bsp();
        let (nodes, segs) = (&json["bsp"]["nodes"], &json["bsp"]["segs"]);
        assert_eq!(nodes.as_array().map(Vec::len), Some(bsp.node_count()));
        assert_eq!(segs.as_array().map(Vec::len), Some(bsp.seg_count()));
        let root = bsp.node(bsp.node_count() - 1);
        assert_eq!(nodes[bsp.node_count() - 1]["x"], f(root.x));
        assert_eq!(segs[0]["wall"], bsp.seg(0).wall);
        assert_eq!(dumped.walls.len(), level.wall_count());
        for (i, &(v1, v2, front, back, flags)) in dumped.walls.iter().enumerate() {
            let w = level.wall(WallId(i as u16));
            assert_eq!(dumped.vertices[v1], (f(w.a.x), f(w.a.y)));
            assert_eq!(dumped.vertices[v2], (f(w.b.x), f(w.b.y)));
            assert_eq!(front, w.front.0 as usize);
            assert_eq!(back, w.back.map(|b| b.0 as usize));
            assert_eq!(flags, w.flags as u64);
        }
        for (i, &(floor, ceiling)) in dumped.sectors.iter().enumerate() {
            let s = level.sector(engine::world::SectorId(i as u16));
            assert_eq!((floor, ceiling), (f(s.floor), f(s.ceiling)));
        }
        let start = &json["player_start"];
        let spawn = level.map().player_start();
        assert_eq!(start["x"].as_f64(), Some(f(spawn.x)));

        // The walk, checked against the dump.
        let states = walk(&bytes, map);
        for p in &states {
            dumped.check(
                &format!("{map} tick {}", p.tick),
                (f(p.pos.x), f(p.pos.y)),
                p.sector.0 as usize,
            );
        }

        // The desktop, headless, with the same walk as a demo.
        if !desktop.exists() {
            eprintln!(
                "note: {} is not built; `cargo test --workspace` builds it. Skipping the \
                 desktop run.",
                desktop.display()
            );
            continue;
        }
        let trace = dir.join(format!("{map}.trace"));
        run(
            &desktop,
            &[
                "--headless",
                "--map",
                out_arg,
                "--demo",
                demo_path.to_str().unwrap(),
                "--trace",
                trace.to_str().unwrap(),
            ],
        );
        let lines = fs::read_to_string(&trace).unwrap();
        let mut ticks = 0;
        for line in lines.lines() {
            let t: Value = serde_json::from_str(line).unwrap();
            let pos = (t["x"].as_f64().unwrap(), t["y"].as_f64().unwrap());
            let sector = t["sector"].as_u64().unwrap() as usize;
            dumped.check(&format!("desktop {map} {line}"), pos, sector);
            ticks += 1;
        }
        assert_eq!(ticks, walk_inputs().count(), "{map}: desktop trace length");
    }
}

/// The same map as binary lumps and as UDMF text compiles to the same
/// geometry: E1M1 is written out as a TEXTMAP (by this test) and compiled
/// standalone with `--iwad`.
#[test]
fn e1m1_as_udmf_compiles_to_the_same_map() {
    let bytes = read_wad("freedoom1.wad");
    let source = WadSource::new(&bytes, None).unwrap();
    let map = source.map("E1M1").unwrap();
    let level = tools::doom::read_map(source.wad(), &map).unwrap();
    let mut text = String::from("// E1M1, converted by the test\nnamespace = \"doom\";\n");
    for v in &level.vertices {
        text.push_str(&format!("vertex {{ x = {:.3}; y = {}; }}\n", v.x, v.y));
    }
    for l in &level.linedefs {
        text.push_str(&format!(
            "linedef {{ v1 = {}; v2 = {}; special = {}; arg0 = {}; id = {}; sidefront = {}; sideback = {};{}{}{}{} }}\n",
            l.v1,
            l.v2,
            l.special,
            l.tag,
            l.tag,
            l.front.map_or(-1, |s| s as i64),
            l.back.map_or(-1, |s| s as i64),
            if l.flags & 1 != 0 { " blocking = true;" } else { "" },
            if l.flags & 4 != 0 { " twosided = true;" } else { "" },
            if l.flags & 8 != 0 { " dontpegtop = true;" } else { "" },
            if l.flags & 16 != 0 { " dontpegbottom = true;" } else { "" },
        ));
    }
    for s in &level.sidedefs {
        text.push_str(&format!(
            "sidedef {{ offsetx = {}; offsety = {}; texturetop = \"{}\"; texturebottom = \"{}\"; texturemiddle = \"{}\"; sector = {}; }}\n",
            s.x_offset, s.y_offset, s.upper, s.lower, s.middle, s.sector
        ));
    }
    for s in &level.sectors {
        text.push_str(&format!(
            "sector {{ heightfloor = {}; heightceiling = {}; texturefloor = \"{}\"; textureceiling = \"{}\"; lightlevel = {}; special = {}; id = {}; }}\n",
            s.floor, s.ceiling, s.floor_texture, s.ceiling_texture, s.light, s.special, s.tag
        ));
    }
    for t in &level.things {
        let mut flags = String::new();
        for k in 0..5 {
            if t.skills & (1 << k) != 0 {
                flags.push_str(&format!(" skill{} = true;", k + 1));
            }
        }
        if t.single {
            flags.push_str(" single = true;");
        }
        text.push_str(&format!(
            "thing {{ x = {}; y = {}; angle = {}; type = {};{flags} }}\n",
            t.x, t.y, t.angle, t.kind
        ));
    }
    let dir = scratch("freedoom", "udmf");
    let udmf = dir.join("e1m1.udmf");
    fs::write(&udmf, &text).unwrap();
    let from_udmf = tools::import::compile_udmf(
        text.as_bytes(),
        "e1m1.udmf",
        Some(&bytes),
        &ImportOptions::default(),
    )
    .unwrap();
    let from_wad = source.compile(&map, &ImportOptions::default()).unwrap();
    let (a, b) = (
        Level::load(&from_udmf.compiled.bytes).unwrap(),
        Level::load(&from_wad.compiled.bytes).unwrap(),
    );
    assert_eq!(a.wall_count(), b.wall_count());
    for i in 0..a.wall_count() {
        assert_eq!(
            a.wall(WallId(i as u16)),
            b.wall(WallId(i as u16)),
            "wall {i}"
        );
    }
    assert_eq!(a.sector_count(), b.sector_count());
    for i in 0..a.sector_count() {
        let id = engine::world::SectorId(i as u16);
        assert_eq!(a.sector(id), b.sector(id), "sector {i}");
    }
    // Only the title (the file's name, not the map's) differs.
    assert_eq!(a.map().thing_count(), b.map().thing_count());
    // UDMF has no nodes: our node builder gives it a BSP (the binary
    // map keeps its own).
    let own = a.map().bsp();
    assert!(own.node_count() > 0 && own.subsector_count() > 1);
    assert_ne!(
        own.seg_count(),
        b.map().bsp().seg_count(),
        "ours, not the WAD's"
    );

    // And through the binary: with the IWAD, the same textures; without,
    // placeholders and one warning about it.
    let tools = Path::new(env!("CARGO_BIN_EXE_tools"));
    let out = dir.join("e1m1.spmp");
    let wad = wad_path("freedoom1.wad");
    run(
        tools,
        &[
            "compile",
            udmf.to_str().unwrap(),
            "--iwad",
            wad.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
    );
    let r = run(
        tools,
        &[
            "compile",
            udmf.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&r.stderr);
    let placeholder_lines = err.lines().filter(|l| l.contains("placeholder")).count();
    assert_eq!(placeholder_lines, 1, "{err}");
    assert!(err.contains("--iwad"), "{err}");
}

/// `tools info` on WAD maps: the figures the README quotes.
#[test]
fn info_reports_sizes_against_the_wad() {
    let tools = Path::new(env!("CARGO_BIN_EXE_tools"));
    let wad = wad_path("freedoom2.wad");
    read_wad("freedoom2.wad");
    let r = run(tools, &["info", wad.to_str().unwrap(), "--map", "map01"]);
    let out = String::from_utf8_lossy(&r.stdout);
    for key in [
        "map: MAP01",
        "bytes: ",
        "texture bytes: ",
        "wad map lumps (VERTEXES LINEDEFS SIDEDEFS SECTORS THINGS): ",
        "wad map lumps (all, node builder's included): ",
        "max walls per block: ",
        "doors opened: ",
    ] {
        assert!(out.contains(key), "{key} missing from:\n{out}");
    }
    let r = run(tools, &["info", wad.to_str().unwrap(), "--all"]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("MAP")).count(),
        32,
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("total")), "{out}");
}

/// A regression the walks above found in the engine (E3M6, from the
/// thing at (-256, 1056) running north along x = -256; the soak in
/// `soak.rs` met its twin on MAP12, where the player leaves the vertex
/// (-272, 160) it was wedged on): a straight path that only *touches* a
/// vertex (the tip of another sector poking into the player's), or that
/// *starts* on one, must not change the tracked sector.
#[test]
fn a_path_touching_a_vertex_keeps_its_sector() {
    // A room with a triangular platform whose tip (100, 0) points west.
    let src = "
vertex a 0 -100
vertex b 0 100
vertex c 300 100
vertex d 300 -100
vertex t 100 0
vertex u 200 50
vertex v 200 -50
sector room floor 0 ceiling 128
sector tri floor 8 ceiling 128
loop room a b c d a
loop room t u v t
loop tri t u v t
player 50 0 0
";
    let out = tools::compile_source(src, "graze.map").unwrap();
    let level = Level::load(&out.bytes).unwrap();
    let room = level.locate(Vec2::from_int(50, 0)).unwrap();
    let wide = |x: i32, y: i32| {
        engine::math::WVec::new(
            engine::math::Wide::from_num(x),
            engine::math::Wide::from_num(y),
        )
    };
    let mut failures = Vec::new();
    // North along x = 100 through the tip; then from the tip itself,
    // away into the room (north-east, above the platform).
    for (from, delta) in [((100, -60), wide(0, 120)), ((100, 0), wide(10, 30))] {
        let at = engine::collide::Placement {
            pos: Vec2::from_int(from.0, from.1),
            z: Fx::ZERO,
            sector: room,
        };
        let (next, _) = engine::collide::slide_move(&level, &PLAYER_SHAPE, at, delta);
        assert_eq!(level.locate(next.pos), Some(room));
        if next.sector != room {
            failures.push(format!(
                "from {from:?}: tracked {:?} at {:?}",
                next.sector, next.pos
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}
