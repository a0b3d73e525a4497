//! Writes a demo that plays a map from its player start to an exit: the
//! way the shipped `demos/freedoom1-e1m1.demo` was made.
//!
//! ```text
//! cargo run --release -p tools --example route_demo -- WAD MAP > OUT.demo
//! ```
//!
//! It finds a path on a grid of places the player fits (planned on the map
//! compiled with its doors open and lifts lowered, so that a shut door is
//! not a wall), then steers the real game along it, tick by tick, on the
//! map compiled as the game plays it (`--movers`): turning toward the next
//! corner, running, pressing use when something stops it (a shut door),
//! planning again when it is carried off the path, and at the end facing
//! the exit switch and pressing it. What it writes is the input the game
//! received, so `desktop --demo` plays it back exactly.
//!
//! The plan has two layers, the map with its lifts up and with them down,
//! and changes layer where the player fits in both: a lift is walked onto
//! at the bottom and ridden up. A map with locked specials is walked first
//! to a key of each colour they need (the nearest reachable one, in the
//! order of their colours: blue, yellow, red), then to the exit. A way that
//! opens only after a switch raises or lowers a floor elsewhere is not
//! found.

use std::collections::BinaryHeap;
use std::process::ExitCode;

use engine::format::{trigger, wall_action};
use engine::game::{Game, Input};
use engine::math::{Fx, Vec2};
use engine::world::{Level, SectorId, WallId};

/// The grid's spacing, map units.
const CELL: f64 = 8.0;
/// The player's radius, and a little room: steering is not exact.
const ROOM: f64 = 18.0;
/// Nearer than this to a ledge, the player stands on it whatever its
/// height (half its radius: most of the disc is over it); further out, on
/// the low side of a ledge too high to climb, it is in the pit, where a
/// steering a few units off would slip anyway.
const OVERHANG: f64 = 8.0;
/// DOOM's step: the highest floor the player walks up onto.
const STEP: f64 = 24.0;
/// Head room the player needs.
const HEIGHT: f64 = 56.0;
/// Longest run before giving up.
const MAX_TICKS: usize = 35 * 60 * 10;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wad, map] = args.as_slice() else {
        eprintln!("usage: route_demo WAD MAP > OUT.demo");
        return ExitCode::from(2);
    };
    match run(wad, map) {
        Ok(demo) => {
            print!("{demo}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("route_demo: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(wad: &str, map: &str) -> Result<String, String> {
    // A bare name is looked up where source ports look (DOOMWADDIR, ...).
    let path = tools::find_wad(std::path::Path::new(wad));
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let source = tools::import::WadSource::new(&bytes, None)?;
    let entry = source.map(map)?;
    let open = source
        .compile(&entry, &tools::import::ImportOptions::default())?
        .compiled
        .bytes;
    let movers_opts = tools::import::ImportOptions {
        movers: true,
        ..tools::import::ImportOptions::default()
    };
    let moving = source.compile(&entry, &movers_opts)?.compiled.bytes;
    let plan_level = Level::load(&open).map_err(|e| format!("{e:?}"))?;
    let level = Level::load(&moving).map_err(|e| format!("{e:?}"))?;
    if plan_level.wall_count() != level.wall_count() {
        return Err("the two compilations differ in their walls".into());
    }
    // The plan's second layer: the map with every lift down.
    let lowered = lifts_down(&plan_level, &level);
    let mut grid = Grid::new(&[plan_level, plan_level.with_state(&lowered)]);
    grid.lock_doors(&level);
    let start = xy(Game::new(level).player().pos);
    let keys = keys_needed(&level, &grid, start)?;
    let from = keys.last().map_or(start, |k| k.0);
    let mut tried = Vec::new();
    for (wall, goal) in exits(&level) {
        if grid.plan(from, goal).is_none() {
            tried.push(wall);
            continue;
        }
        // Each key in turn, then the exit.
        let mut legs: Vec<Leg> = keys.iter().map(|k| Leg::Fetch(k.0)).collect();
        legs.push(Leg::Exit(wall, goal));
        grid.hold(0);
        let inputs = steer(level, &grid, &legs)?;
        return Ok(write_demo(wad, map, &inputs));
    }
    Err(format!(
        "no exit switch reachable from the start (tried walls {tried:?})"
    ))
}

/// A part of the route.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Leg {
    /// Go to the key lying here and pick it up.
    Fetch((f64, f64)),
    /// Go to the spot and press use facing the exit switch.
    Exit(WallId, (f64, f64)),
}

/// Where a key lies, and its colour bit (blue 1, yellow 2, red 4).
type KeySpot = ((f64, f64), u8);

/// Where the keys lie that the map's locked specials need, one of each
/// colour, in the order to fetch them, each with its colour bit: for each
/// colour (blue, yellow, red) the nearest key the plan reaches from the
/// last place, holding the keys before it.
fn keys_needed(level: &Level<'_>, grid: &Grid, start: (f64, f64)) -> Result<Vec<KeySpot>, String> {
    use engine::format::kind;
    let m = *level.map();
    let mut out = Vec::new();
    let mut from = start;
    grid.hold(0);
    for lock in 1..=3 {
        let locked = (0..m.wall_special_count())
            .any(|k| trigger::lock(m.wall_special_at(k).trigger) == lock);
        if !locked {
            continue;
        }
        let nearest = m
            .things()
            .filter(|t| kind::key_lock(t.kind) == lock)
            .map(|t| (t.x.to_num::<f64>(), t.y.to_num::<f64>()))
            .filter_map(|p| Some((grid.plan(from, p)?.len(), p)))
            .min_by(|a, b| a.0.cmp(&b.0).then(a.1 .0.total_cmp(&b.1 .0)));
        let Some((_, p)) = nearest else {
            return Err(format!("no key of lock {lock} reachable from {from:?}"));
        };
        out.push((p, 1 << (lock - 1)));
        from = p;
        grid.hold(grid.held.get() | 1 << (lock - 1));
    }
    Ok(out)
}

/// The sectors' state of `plan` with every sector that a lift special of
/// `level` moves at its lowest (the lowest floor around it, its own
/// included, as the game's lifts go).
fn lifts_down(plan: &Level<'_>, level: &Level<'_>) -> Vec<engine::world::SectorState> {
    use engine::world::SectorState;
    let mut state: Vec<SectorState> = (0..plan.sector_count())
        .map(|i| SectorState::of(&plan.sector(SectorId(i as u16))))
        .collect();
    let m = *level.map();
    for k in 0..m.wall_special_count() {
        let s = m.wall_special_at(k);
        if !wall_action::is_lift(s.action) {
            continue;
        }
        let sectors: Vec<SectorId> = if s.action & wall_action::BACK_SECTOR != 0 {
            level.wall(WallId(s.wall)).back.into_iter().collect()
        } else {
            (0..level.sector_count())
                .filter(|&i| s.tag != 0 && m.sector(i).tag == s.tag)
                .map(|i| SectorId(i as u16))
                .collect()
        };
        for id in sectors {
            let low = plan
                .sector_walls(id)
                .filter_map(|w| plan.wall(w).other_side(id))
                .map(|o| plan.sector(o).floor)
                .fold(plan.sector(id).floor, Fx::min);
            state[usize::from(id.0)].floor = low;
        }
    }
    state
}

/// Each exit switch (a use exit) of the map, with the place to press it
/// from: in front of the middle of its wall.
fn exits(level: &Level<'_>) -> Vec<(WallId, (f64, f64))> {
    let m = *level.map();
    (0..m.wall_special_count())
        .map(|k| m.wall_special_at(k))
        .filter(|s| s.action == wall_action::EXIT && s.trigger & trigger::USE != 0)
        .map(|s| (WallId(s.wall), front_of(level, WallId(s.wall))))
        .collect()
}

/// The spot 30 units in front of the middle of `wall`, to press it from.
fn front_of(level: &Level<'_>, wall: WallId) -> (f64, f64) {
    let w = level.wall(wall);
    let (a, b) = (xy(w.a), xy(w.b));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    // The front is the right of a -> b.
    let n = (dy / len, -dx / len);
    (mid.0 + n.0 * 30.0, mid.1 + n.1 * 30.0)
}

fn xy(v: Vec2) -> (f64, f64) {
    (v.x.to_num(), v.y.to_num())
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// Distance from `p` to the segment `a`-`b`.
fn to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    dist(p, (a.0 + t * dx, a.1 + t * dy))
}

/// Where the player fits on the planning map: per grid cell and layer,
/// the height its feet would stand at, or none. Layer 0 has the lifts up
/// (as the map has them), layer 1 down; the plan may change layer
/// anywhere the player fits in both (at a lift: riding it, or using it).
struct Grid {
    origin: (f64, f64),
    cols: usize,
    rows: usize,
    floor: Vec<Vec<Option<f32>>>,
    /// Per layer and cell: over the foot of a ledge too high to climb
    /// back (a pit's rim): the plans keep off these where they can.
    edge: Vec<Vec<bool>>,
    /// Per cell, the key colour bit (blue 1, yellow 2, red 4) of the
    /// locked door it is in, or 0.
    lock: Vec<u8>,
    /// The colour bits held: locked doors of other colours are walls.
    held: std::cell::Cell<u8>,
}

impl Grid {
    fn new(layers: &[Level<'_>]) -> Grid {
        let level = &layers[0];
        let walls: Vec<_> = (0..level.wall_count())
            .map(|i| level.wall(WallId(i as u16)))
            .collect();
        let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for w in &walls {
            for p in [xy(w.a), xy(w.b)] {
                lo = (lo.0.min(p.0), lo.1.min(p.1));
                hi = (hi.0.max(p.0), hi.1.max(p.1));
            }
        }
        let cols = ((hi.0 - lo.0) / CELL) as usize + 1;
        let rows = ((hi.1 - lo.1) / CELL) as usize + 1;
        let things: Vec<_> = level
            .map()
            .things()
            .filter(|t| t.kind == engine::format::kind::SOLID)
            .map(|t| {
                (
                    (t.x.to_num::<f64>(), t.y.to_num::<f64>()),
                    t.radius.to_num::<f64>(),
                )
            })
            .collect();
        // Walls by 64-unit bucket, for the nearness tests.
        let bucket = 64.0;
        let bcols = ((hi.0 - lo.0) / bucket) as usize + 1;
        let brows = ((hi.1 - lo.1) / bucket) as usize + 1;
        let mut buckets = vec![Vec::new(); bcols * brows];
        for (i, w) in walls.iter().enumerate() {
            let (a, b) = (xy(w.a), xy(w.b));
            let bx = |x: f64| (((x - lo.0) / bucket) as usize).min(bcols - 1);
            let by = |y: f64| (((y - lo.1) / bucket) as usize).min(brows - 1);
            for r in by(a.1.min(b.1))..=by(a.1.max(b.1)) {
                for c in bx(a.0.min(b.0))..=bx(a.0.max(b.0)) {
                    buckets[r * bcols + c].push(i);
                }
            }
        }
        let mut floors = Vec::new();
        let mut edges = Vec::new();
        for level in layers {
            let sector = |s: SectorId| {
                let s = level.sector(s);
                (s.floor.to_num::<f64>(), s.ceiling.to_num::<f64>())
            };
            let mut floor = vec![None; cols * rows];
            let mut risky = vec![false; cols * rows];
            for r in 0..rows {
                for c in 0..cols {
                    let p = (lo.0 + c as f64 * CELL, lo.1 + r as f64 * CELL);
                    let Some(s) = level.locate(Vec2::new(Fx::from_num(p.0), Fx::from_num(p.1)))
                    else {
                        continue;
                    };
                    let (mut f, mut ce) = sector(s);
                    let own = f;
                    let mut edge = false;
                    let mut fits = true;
                    let bc0 = (((p.0 - ROOM - lo.0) / bucket).max(0.0) as usize).min(bcols - 1);
                    let bc1 = (((p.0 + ROOM - lo.0) / bucket).max(0.0) as usize).min(bcols - 1);
                    let br0 = (((p.1 - ROOM - lo.1) / bucket).max(0.0) as usize).min(brows - 1);
                    let br1 = (((p.1 + ROOM - lo.1) / bucket).max(0.0) as usize).min(brows - 1);
                    'near: for br in br0..=br1 {
                        for bc in bc0..=bc1 {
                            for &i in &buckets[br * bcols + bc] {
                                let w = &walls[i];
                                if to_segment(p, xy(w.a), xy(w.b)) >= ROOM {
                                    continue;
                                }
                                let impassable =
                                    w.flags & engine::format::wall_flag::IMPASSABLE != 0;
                                let Some(back) = w.back.filter(|_| !impassable) else {
                                    fits = false;
                                    break 'near;
                                };
                                // The feet stand on the highest floor the
                                // disc is over, and near a step up on it;
                                // by the foot of a ledge too high to climb
                                // back, a slip falls off it.
                                let over = to_segment(p, xy(w.a), xy(w.b)) < OVERHANG;
                                for s in [w.front, back] {
                                    let (sf, sc) = sector(s);
                                    if over || sf <= own + STEP {
                                        f = f.max(sf);
                                    }
                                    ce = ce.min(sc);
                                    edge |= sf > own + STEP;
                                }
                            }
                        }
                    }
                    if things.iter().any(|&(t, tr)| dist(p, t) < tr + ROOM) {
                        fits = false;
                    }
                    if fits && ce - f >= HEIGHT {
                        floor[r * cols + c] = Some(f as f32);
                        risky[r * cols + c] = edge;
                    }
                }
            }
            floors.push(floor);
            edges.push(risky);
        }
        Grid {
            origin: lo,
            cols,
            rows,
            floor: floors,
            edge: edges,
            lock: Vec::new(),
            held: std::cell::Cell::new(0),
        }
    }

    /// Marks the cells in `level`'s locked doors (the sector behind a
    /// locked manual door, the tagged sectors of a locked switch).
    fn lock_doors(&mut self, level: &Level<'_>) {
        let m = *level.map();
        let mut by_sector = vec![0u8; level.sector_count()];
        for k in 0..m.wall_special_count() {
            let s = m.wall_special_at(k);
            let lock = trigger::lock(s.trigger);
            if lock == 0 || !wall_action::is_door(s.action) {
                continue;
            }
            let bit = 1 << (lock - 1);
            if s.action & wall_action::BACK_SECTOR != 0 {
                if let Some(back) = level.wall(WallId(s.wall)).back {
                    by_sector[usize::from(back.0)] |= bit;
                }
            } else if s.tag != 0 {
                for (i, lock) in by_sector.iter_mut().enumerate() {
                    if m.sector(i).tag == s.tag {
                        *lock |= bit;
                    }
                }
            }
        }
        self.lock = (0..self.cells())
            .map(|i| {
                let p = self.centre(i);
                level
                    .locate(Vec2::new(Fx::from_num(p.0), Fx::from_num(p.1)))
                    .map_or(0, |s| by_sector[usize::from(s.0)])
            })
            .collect();
    }

    /// From now on the plans hold the keys of `bits`.
    fn hold(&self, bits: u8) {
        self.held.set(bits);
    }

    fn cells(&self) -> usize {
        self.cols * self.rows
    }

    fn centre(&self, node: usize) -> (f64, f64) {
        let i = node % self.cells();
        (
            self.origin.0 + (i % self.cols) as f64 * CELL,
            self.origin.1 + (i / self.cols) as f64 * CELL,
        )
    }

    /// A node's floor: `node` is `layer * cells + cell`.
    fn floor_of(&self, node: usize) -> Option<f32> {
        let n = self.cells();
        let lock = self.lock.get(node % n).copied().unwrap_or(0);
        if lock != 0 && lock & self.held.get() == 0 {
            return None;
        }
        self.floor.get(node / n)?.get(node % n).copied().flatten()
    }

    /// The cell nearest `p` that the player fits in, within 32 units, in
    /// `layer`.
    fn nearest(&self, p: (f64, f64), layer: usize) -> Option<usize> {
        self.nearest_below(p, layer, f64::INFINITY)
    }

    /// [`Grid::nearest`] of the cells whose floor is at most `top`.
    fn nearest_below(&self, p: (f64, f64), layer: usize, top: f64) -> Option<usize> {
        let c = ((p.0 - self.origin.0) / CELL).round() as i64;
        let r = ((p.1 - self.origin.1) / CELL).round() as i64;
        let mut best: Option<(f64, usize)> = None;
        for dr in -4..=4 {
            for dc in -4..=4 {
                let Some(i) = self.index(c + dc, r + dr) else {
                    continue;
                };
                let node = layer * self.cells() + i;
                if self.floor_of(node).is_some_and(|f| f64::from(f) <= top) {
                    let d = dist(self.centre(node), p);
                    if best.is_none_or(|b| d < b.0) {
                        best = Some((d, node));
                    }
                }
            }
        }
        best.map(|b| b.1)
    }

    /// The shortest path from `from` to `to` (A*, eight ways, no step up
    /// higher than DOOM's, lifts up or down), as corners the player can
    /// run straight between.
    fn plan(&self, from: (f64, f64), to: (f64, f64)) -> Option<Vec<(f64, f64)>> {
        self.plan_standing(from, f64::INFINITY, to)
    }

    /// [`Grid::plan`] for a player whose feet are at `z`: it starts from
    /// a cell it can step onto (near a ledge, a cell's floor is the
    /// higher side's, out of reach from the foot of it).
    fn plan_standing(&self, from: (f64, f64), z: f64, to: (f64, f64)) -> Option<Vec<(f64, f64)>> {
        let nodes = self.plan_nodes_standing(from, z, to)?;
        Some(self.corners(&nodes, to))
    }

    /// [`Grid::plan_standing`]'s path, node by node.
    fn plan_nodes_standing(&self, from: (f64, f64), z: f64, to: (f64, f64)) -> Option<Vec<usize>> {
        let n = self.cells();
        let layers = self.floor.len();
        let top = z + STEP;
        let start = self
            .nearest_below(from, 0, top)
            .or_else(|| self.nearest_below(from, 1, top))?;
        let goals: Vec<usize> = (0..layers).filter_map(|l| self.nearest(to, l)).collect();
        let goal_at = self.centre(*goals.first()?);
        let mut cost = vec![f64::INFINITY; n * layers];
        let mut came = vec![usize::MAX; n * layers];
        let mut open = BinaryHeap::new();
        cost[start] = 0.0;
        open.push(Entry(-dist(self.centre(start), goal_at), start));
        let mut reached = None;
        while let Some(Entry(_, node)) = open.pop() {
            if goals.contains(&node) {
                reached = Some(node);
                break;
            }
            let (layer, i) = (node / n, node % n);
            let (c, r) = ((i % self.cols) as i64, (i / self.cols) as i64);
            let z = self.floor_of(node)? as f64;
            let mut next: Vec<(usize, f64)> = Vec::with_capacity(9);
            for (dc, dr) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let Some(j) = self.index(c + dc, r + dr) else {
                    continue;
                };
                let Some(zj) = self.floor_of(layer * n + j) else {
                    continue;
                };
                if zj as f64 > z + STEP {
                    continue;
                }
                // No corner cutting on diagonals.
                if dc != 0 && dr != 0 {
                    let side = |a, b| self.index(a, b).and_then(|k| self.floor_of(layer * n + k));
                    if side(c + dc, r).is_none() || side(c, r + dr).is_none() {
                        continue;
                    }
                }
                let step = if dc != 0 && dr != 0 {
                    CELL * 2f64.sqrt()
                } else {
                    CELL
                };
                let step = if self.edge[layer][j] {
                    4.0 * step
                } else {
                    step
                };
                next.push((layer * n + j, step));
            }
            // The lifts change under the player (or it waits for them).
            for other in 0..layers {
                if other != layer && self.floor_of(other * n + i).is_some() {
                    next.push((other * n + i, 4.0 * CELL));
                }
            }
            for (j, step) in next {
                let k = cost[node] + step;
                if k < cost[j] {
                    cost[j] = k;
                    came[j] = node;
                    open.push(Entry(-(k + dist(self.centre(j), goal_at)), j));
                }
            }
        }
        let goal = reached?;
        let mut nodes = vec![goal];
        while *nodes.last()? != start {
            nodes.push(came[*nodes.last()?]);
        }
        nodes.reverse();
        Some(nodes)
    }

    fn index(&self, c: i64, r: i64) -> Option<usize> {
        (c >= 0 && r >= 0 && (c as usize) < self.cols && (r as usize) < self.rows)
            .then(|| r as usize * self.cols + c as usize)
    }

    fn floor_at(&self, p: (f64, f64), layer: usize) -> Option<f64> {
        let c = ((p.0 - self.origin.0) / CELL).round() as i64;
        let r = ((p.1 - self.origin.1) / CELL).round() as i64;
        self.floor_of(layer * self.cells() + self.index(c, r)?)
            .map(f64::from)
    }

    /// Whether the player can run straight from `a` to `b` in `layer`:
    /// every sample of the line in a cell it fits in, no step up too high.
    fn straight(&self, a: (f64, f64), b: (f64, f64), layer: usize) -> bool {
        let n = (dist(a, b) / (CELL / 2.0)).ceil().max(1.0) as usize;
        let mut z = match self.floor_at(a, layer) {
            Some(z) => z,
            None => return false,
        };
        for k in 1..=n {
            let t = k as f64 / n as f64;
            let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            match self.floor_at(p, layer) {
                Some(zp) if zp <= z + STEP => z = zp,
                _ => return false,
            }
        }
        true
    }

    /// A path of nodes cut down to the corners between straight runs
    /// (each within one layer; a change of layer is a corner), ending at
    /// `to`.
    fn corners(&self, nodes: &[usize], to: (f64, f64)) -> Vec<(f64, f64)> {
        let n = self.cells();
        let mut out = Vec::new();
        let mut i = 0;
        while i + 1 < nodes.len() {
            let layer = nodes[i] / n;
            let mut j = i + 1;
            while j + 1 < nodes.len()
                && nodes[j + 1] / n == layer
                && nodes[j] / n == layer
                && self.straight(self.centre(nodes[i]), self.centre(nodes[j + 1]), layer)
            {
                j += 1;
            }
            let p = self.centre(nodes[j]);
            if out.last() != Some(&p) {
                out.push(p);
            }
            i = j;
        }
        out.push(to);
        out
    }
}

/// A* queue entry: priority (higher first), cell.
struct Entry(f64, usize);
impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

/// Degrees from `from` to `to`, -180..180.
fn turn_between(from: f64, to: f64) -> f64 {
    (to - from + 540.0).rem_euclid(360.0) - 180.0
}

/// Runs the game along the plan of each leg in turn: to a key, until it
/// is picked up; to the exit switch, faced and pressed. The input of
/// every tick.
fn steer(level: Level<'_>, grid: &Grid, legs: &[Leg]) -> Result<Vec<Input>, String> {
    let mut game = Game::new(level);
    let mut inputs = Vec::new();
    let goal_of = |leg: &Leg| match *leg {
        Leg::Exit(_, spot) => spot,
        Leg::Fetch(p) => p,
    };
    let mut leg = 0;
    let first = legs.first().ok_or("no legs")?;
    let mut path = grid
        .plan(xy(game.player().pos), goal_of(first))
        .ok_or_else(|| format!("no path to {:?}", goal_of(first)))?;
    let mut next = 0;
    let mut leg_from = xy(game.player().pos);
    let mut still = 0;
    let mut stuck = 0;
    let mut replans = 0;
    let mut pressed = false;
    // Ticks since the last press for a stop: a second press on a door
    // still going up sends it back down, as in DOOM.
    let mut since_press = usize::MAX / 2;
    while inputs.len() < MAX_TICKS {
        let Some(&current) = legs.get(leg) else {
            return Err("the legs ended before the exit".into());
        };
        let goal = goal_of(&current);
        let p = game.player();
        let pos = xy(p.pos);
        let facing = p.angle.degrees().to_num::<f64>();
        // At the exit switch: face it and press it.
        let press_at = match current {
            Leg::Exit(wall, _) if next >= path.len() => Some(wall),
            _ => None,
        };
        let target = if let Some(wall) = press_at {
            let w = level.wall(wall);
            let (a, b) = (xy(w.a), xy(w.b));
            ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
        } else {
            path[next.min(path.len() - 1)]
        };
        let want = (target.1 - pos.1).atan2(target.0 - pos.0).to_degrees();
        let diff = turn_between(facing, want);
        let turn = diff.round().clamp(-10.0, 10.0) as i32;
        let mut input = if press_at.is_some() {
            Input::new(0, 0, turn).with_use(diff.abs() < 3.0 && !pressed)
        } else {
            let forward = if diff.abs() < 25.0 {
                100
            } else if diff.abs() < 60.0 {
                30
            } else {
                0
            };
            Input::new(forward, 0, turn)
        };
        // Stopped while running: something in the way, a shut door most
        // likely (or a floor not down yet). Press use once (a press acts
        // once: let go in between).
        since_press += 1;
        if press_at.is_none() && still >= 6 && since_press > 80 {
            input = input.with_use(true);
            still = 0;
            stuck += 1;
            since_press = 0;
        }
        pressed = input.press_use;
        game.tick(input);
        inputs.push(input);
        if game.exit().is_some() {
            return Ok(inputs);
        }
        let now = xy(game.player().pos);
        grid.hold(game.world().keys().held_bits());
        // (The exit ends the game above.)
        if matches!(current, Leg::Fetch(_)) && game.events().picked_up.is_some() {
            leg += 1;
            let Some(after) = legs.get(leg) else {
                return Err("the legs ended before the exit".into());
            };
            let to = goal_of(after);
            let z = game.player().z.to_num::<f64>();
            path = grid
                .plan_standing(now, z, to)
                .ok_or_else(|| format!("no path from {now:?} to {to:?}"))?;
            next = 0;
            leg_from = now;
            stuck = 0;
            still = 0;
            continue;
        }
        still = if input.forward > 0 && dist(now, pos) < 0.5 {
            still + 1
        } else {
            0
        };
        if next < path.len()
            && dist(now, path[next]) < if next + 1 == path.len() { 6.0 } else { 20.0 }
        {
            leg_from = path[next];
            next += 1;
            stuck = 0;
        }
        // Carried off the path (a teleporter, a push), or stuck for good:
        // plan again from here.
        let off = next < path.len() && to_segment(now, leg_from, path[next]) > 64.0;
        if off || stuck > 4 {
            replans += 1;
            if replans > 40 {
                return Err(format!("stuck at {now:?} after {} ticks", inputs.len()));
            }
            let z = game.player().z.to_num::<f64>();
            path = grid
                .plan_standing(now, z, goal)
                .ok_or_else(|| format!("no path from {now:?} at tick {}", inputs.len()))?;
            next = 0;
            leg_from = now;
            stuck = 0;
        }
    }
    Err(format!("no exit after {MAX_TICKS} ticks"))
}

/// The inputs as demo lines, equal ticks run together.
fn write_demo(wad: &str, map: &str, inputs: &[Input]) -> String {
    let name = std::path::Path::new(wad)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = format!(
        "# {name} {map} from the player start to its exit switch, {} ticks.\n\
         # Made by `cargo run --release -p tools --example route_demo -- {name} {map}`;\n\
         # played on the map as the game plays it (doors shut, lifts up).\n",
        inputs.len()
    );
    let mut k = 0;
    while k < inputs.len() {
        let i = inputs[k];
        let mut n = 1;
        while k + n < inputs.len() && inputs[k + n] == i {
            n += 1;
        }
        out.push_str(&format!(
            "{n} {} {} {} {}\n",
            i.forward,
            i.strafe,
            i.turn,
            u8::from(i.press_use)
        ));
        k += n;
    }
    out
}
