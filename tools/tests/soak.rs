//! The collision soak: long seeded random walks on every map we ship and
//! every Freedoom and FreeDM map, checked after every tick against the geometry that
//! `tools dump --json` reports (parsed here, checked with this file's own
//! floating-point geometry, independent of the engine's fixed-point code):
//!
//! * the player never overlaps a wall that blocks it by more than the
//!   engine's stated tolerance (1/128 unit) plus float slack;
//! * it never crosses a one-sided wall between two ticks;
//! * it never stands in a sector it cannot be in: the sector it reports
//!   contains its centre, is tall enough for it, and its feet are not below
//!   that sector's floor.
//!
//! `SOAK_TICKS=N` sets the ticks per map (default 3000 for our maps, 2000
//! for each Freedoom map); the figures are printed at the end.

use engine::game::{Game, Input};
use engine::world::Level;
use serde_json::Value;

const RADIUS: f64 = 16.0;
const HEIGHT: f64 = 56.0;
const KNEE: f64 = 24.0;
/// The engine's push-out tolerance, plus slack for float round-off.
const TOLERANCE: f64 = 1.0 / 128.0 + 1e-3;
const FREEDOOM: [&str; 3] = [
    "/usr/share/games/doom/freedoom1.wad",
    "/usr/share/games/doom/freedoom2.wad",
    "/usr/share/games/doom/freedm.wad",
];

struct Wall {
    a: (f64, f64),
    b: (f64, f64),
    front: usize,
    back: Option<usize>,
    impassable: bool,
}

struct Sector {
    floor: f64,
    ceiling: f64,
    walls: Vec<usize>,
}

/// The geometry from the dump, with a coarse grid of walls for speed.
struct Geometry {
    walls: Vec<Wall>,
    sectors: Vec<Sector>,
    grid: std::collections::HashMap<(i64, i64), Vec<usize>>,
}

const CELL: f64 = 64.0;

fn num(v: &Value) -> f64 {
    v.as_f64().expect("number in dump")
}

impl Geometry {
    fn from_dump(dump: &Value) -> Geometry {
        let verts: Vec<(f64, f64)> = dump["vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| (num(&v["x"]), num(&v["y"])))
            .collect();
        let walls: Vec<Wall> = dump["walls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| Wall {
                a: verts[w["v1"].as_u64().unwrap() as usize],
                b: verts[w["v2"].as_u64().unwrap() as usize],
                front: w["front"].as_u64().unwrap() as usize,
                back: w["back"].as_u64().map(|b| b as usize),
                // DOOM's ML_BLOCKING bit, if the dump carries flags.
                impassable: w["flags"].as_u64().is_some_and(|f| f & 1 != 0),
            })
            .collect();
        let sectors = dump["sectors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| Sector {
                floor: num(&s["floor"]),
                ceiling: num(&s["ceiling"]),
                walls: s["walls"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|w| w.as_u64().unwrap() as usize)
                    .collect(),
            })
            .collect();
        let mut grid: std::collections::HashMap<(i64, i64), Vec<usize>> = Default::default();
        for (i, w) in walls.iter().enumerate() {
            let (x0, x1) = (w.a.0.min(w.b.0), w.a.0.max(w.b.0));
            let (y0, y1) = (w.a.1.min(w.b.1), w.a.1.max(w.b.1));
            for cx in (x0 / CELL).floor() as i64..=(x1 / CELL).floor() as i64 {
                for cy in (y0 / CELL).floor() as i64..=(y1 / CELL).floor() as i64 {
                    grid.entry((cx, cy)).or_default().push(i);
                }
            }
        }
        Geometry {
            walls,
            sectors,
            grid,
        }
    }

    fn near(&self, p: (f64, f64), r: f64) -> Vec<usize> {
        let mut out = Vec::new();
        for cx in ((p.0 - r) / CELL).floor() as i64..=((p.0 + r) / CELL).floor() as i64 {
            for cy in ((p.1 - r) / CELL).floor() as i64..=((p.1 + r) / CELL).floor() as i64 {
                if let Some(list) = self.grid.get(&(cx, cy)) {
                    out.extend_from_slice(list);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// DOOM's rules, restated: does wall `i` stop a body with feet at `z`?
    fn blocks(&self, i: usize, z: f64) -> bool {
        let w = &self.walls[i];
        let Some(back) = w.back else { return true };
        if w.impassable {
            return true;
        }
        let (f, b) = (&self.sectors[w.front], &self.sectors[back]);
        let floor = f.floor.max(b.floor);
        let ceiling = f.ceiling.min(b.ceiling);
        floor - z > KNEE || ceiling - floor < HEIGHT || ceiling - z < HEIGHT
    }

    /// Even-odd test of `p` against the walls of sector `s`.
    fn contains(&self, s: usize, p: (f64, f64)) -> bool {
        let mut inside = false;
        for &i in &self.sectors[s].walls {
            let w = &self.walls[i];
            if w.back == Some(w.front) {
                continue;
            }
            if (w.a.1 > p.1) != (w.b.1 > p.1) {
                let x = w.a.0 + (p.1 - w.a.1) * (w.b.0 - w.a.0) / (w.b.1 - w.a.1);
                if x > p.0 {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// True if `p` lies within `eps` of some wall: there, which sector a
    /// point is in is a matter of round-off.
    fn on_a_wall(&self, p: (f64, f64), eps: f64) -> bool {
        self.near(p, eps)
            .iter()
            .any(|&i| distance(p, &self.walls[i]) < eps)
    }
}

fn distance(p: (f64, f64), w: &Wall) -> f64 {
    let (dx, dy) = (w.b.0 - w.a.0, w.b.1 - w.a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - w.a.0) * dx + (p.1 - w.a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (qx, qy) = (w.a.0 + dx * t, w.a.1 + dy * t);
    ((p.0 - qx).powi(2) + (p.1 - qy).powi(2)).sqrt()
}

/// Proper intersection of segment p-q with wall w (touching does not count).
fn crosses(p: (f64, f64), q: (f64, f64), w: &Wall) -> bool {
    let orient = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    let (d1, d2) = (orient(w.a, w.b, p), orient(w.a, w.b, q));
    let (d3, d4) = (orient(p, q, w.a), orient(p, q, w.b));
    let eps = 1e-6;
    ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps))
        && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
}

/// The soak's walk: [`tools::walk::seeded`].
fn walk(seed: u64, ticks: usize) -> Vec<Input> {
    tools::walk::seeded(seed, ticks)
}

#[derive(Default)]
struct Figures {
    maps: usize,
    ticks: usize,
    /// Ticks with a mover at work (the movers soak).
    busy: usize,
    violations: Vec<String>,
}

fn soak(name: &str, bytes: &[u8], ticks: usize, seed: u64, figures: &mut Figures) {
    soak_with(name, bytes, ticks, seed, false, figures)
}

/// [`soak`], and with `movers`, the walk presses use now and then and
/// the checks read each sector's heights as the game has them after the
/// tick (doors, lifts, floors, ceilings and crushers move them).
fn soak_with(
    name: &str,
    bytes: &[u8],
    ticks: usize,
    seed: u64,
    movers: bool,
    figures: &mut Figures,
) {
    let level = Level::load(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let view = engine::format::MapView::new_checked(bytes).unwrap();
    let mut geo = Geometry::from_dump(&tools::inspect::to_json(&view));
    let mut game = Game::new(level);
    let mut prev = game.player();
    let mut report = |what: String| {
        if figures.violations.len() < 50 {
            figures.violations.push(format!("{name}: {what}"));
        }
    };
    for (tick, input) in walk(seed, ticks).into_iter().enumerate() {
        // Use about once a second, at seeded moments.
        let press = movers && (tick as u64 * 7919 + seed * 104_729).is_multiple_of(37);
        game.tick(input.with_use(press));
        if movers {
            figures.busy += usize::from(!game.world().movers().is_empty());
            let live = game.level();
            for (k, sector) in geo.sectors.iter_mut().enumerate() {
                let now = live.sector(engine::world::SectorId(k as u16));
                sector.floor = now.floor.to_num();
                sector.ceiling = now.ceiling.to_num();
            }
        }
        let p = game.player();
        let pos = (p.pos.x.to_num::<f64>(), p.pos.y.to_num::<f64>());
        let was = (prev.pos.x.to_num::<f64>(), prev.pos.y.to_num::<f64>());
        let z = p.z.to_num::<f64>();
        for i in geo.near(pos, RADIUS + 1.0) {
            let d = distance(pos, &geo.walls[i]);
            if d < RADIUS - TOLERANCE && geo.blocks(i, z) {
                report(format!(
                    "tick {tick}: overlaps wall {i} by {:.4} at {pos:?}",
                    RADIUS - d
                ));
            }
        }
        // A move is at most the top speed, 30 units; a longer one is a
        // teleporter's, which may go anywhere.
        let teleported = movers && (pos.0 - was.0).hypot(pos.1 - was.1) > 64.0;
        for i in geo.near(((pos.0 + was.0) / 2.0, (pos.1 + was.1) / 2.0), 64.0) {
            if teleported {
                break;
            }
            let w = &geo.walls[i];
            if w.back.is_none() && crosses(was, pos, w) {
                report(format!(
                    "tick {tick}: crossed one-sided wall {i} from {was:?} to {pos:?}"
                ));
            }
        }
        let s = p.sector.0 as usize;
        let sector = &geo.sectors[s];
        if !geo.on_a_wall(pos, 0.01) && !geo.contains(s, pos) {
            report(format!(
                "tick {tick}: says sector {s} but is not inside it at {pos:?}"
            ));
        }
        if sector.ceiling - sector.floor < HEIGHT {
            report(format!("tick {tick}: in sector {s}, too low to stand in"));
        }
        if z < sector.floor - 1e-9 {
            report(format!(
                "tick {tick}: feet at {z} below sector {s}'s floor {}",
                sector.floor
            ));
        }
        prev = p;
    }
    figures.maps += 1;
    figures.ticks += ticks;
}

fn ticks_or(default: usize) -> usize {
    std::env::var("SOAK_TICKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn our_maps_soak_clean() {
    let mut figures = Figures::default();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../maps");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    paths.sort();
    for (k, path) in paths.iter().enumerate() {
        let out = tools::load_map(path).unwrap();
        for seed in 0..3 {
            soak(
                &path.display().to_string(),
                &out.bytes,
                ticks_or(3000),
                seed * 31 + k as u64,
                &mut figures,
            );
        }
    }
    println!(
        "soak: our maps: {} walks, {} ticks, {} violations",
        figures.maps,
        figures.ticks,
        figures.violations.len()
    );
    assert!(figures.maps >= 3);
    assert!(
        figures.violations.is_empty(),
        "{}",
        figures.violations.join("\n")
    );
}

#[test]
fn every_freedoom_map_soaks_clean_with_its_movers() {
    let mut figures = Figures::default();
    for (w, path) in FREEDOOM[..2].iter().enumerate() {
        let wad = std::fs::read(path)
            .unwrap_or_else(|e| panic!("{path}: {e}: install Freedoom with scripts/setup"));
        let source = tools::import::WadSource::new(&wad, None).unwrap();
        let opts = tools::import::ImportOptions {
            movers: true,
            ..tools::import::ImportOptions::default()
        };
        for (m, entry) in source.maps().iter().enumerate() {
            let imported = source
                .compile(entry, &opts)
                .unwrap_or_else(|e| panic!("{}: {e}", entry.name));
            let name = format!(
                "{}:{} (movers)",
                path.rsplit('/').next().unwrap_or(path),
                entry.name
            );
            let bytes = &imported.compiled.bytes;
            soak_with(
                &name,
                bytes,
                ticks_or(2000),
                (w * 100 + m) as u64 + 7,
                true,
                &mut figures,
            );
        }
    }
    println!(
        "soak: Freedoom with movers: {} maps, {} ticks ({} with a mover at work), {} violations",
        figures.maps,
        figures.ticks,
        figures.busy,
        figures.violations.len()
    );
    assert_eq!(figures.maps, 68);
    assert!(
        figures.busy > figures.ticks / 20,
        "{} ticks busy",
        figures.busy
    );
    assert!(
        figures.violations.is_empty(),
        "{}",
        figures.violations.join("\n")
    );
}

#[test]
fn every_freedoom_and_freedm_map_soaks_clean() {
    let mut figures = Figures::default();
    for (w, path) in FREEDOOM.iter().enumerate() {
        let wad = std::fs::read(path)
            .unwrap_or_else(|e| panic!("{path}: {e}: install Freedoom with scripts/setup"));
        let source = tools::import::WadSource::new(&wad, None).unwrap();
        for (m, entry) in source.maps().iter().enumerate() {
            let imported = source
                .compile(entry, &tools::import::ImportOptions::default())
                .unwrap_or_else(|e| panic!("{}: {e}", entry.name));
            let name = format!("{}:{}", path.rsplit('/').next().unwrap_or(path), entry.name);
            soak(
                &name,
                &imported.compiled.bytes,
                ticks_or(2000),
                (w * 100 + m) as u64,
                &mut figures,
            );
        }
    }
    println!(
        "soak: Freedoom and FreeDM: {} maps, {} ticks, {} violations",
        figures.maps,
        figures.ticks,
        figures.violations.len()
    );
    assert_eq!(figures.maps, 100);
    assert!(
        figures.violations.is_empty(),
        "{}",
        figures.violations.join("\n")
    );
}
