//! From a source level (vertices, sectors as loops of vertices, things) to
//! the engine's compiled bytes.
//!
//! Every front end (our text format, later DOOM-format maps) produces a
//! [`SourceMap`]; [`build`] does the rest:
//!
//! 1. walls: every loop edge becomes a wall side; an edge that two sectors
//!    share becomes one portal wall; which side of an edge a sector lies on
//!    is decided by an even-odd test against that sector's own loops, so
//!    loops may be written in either direction and holes need no marking;
//! 2. checks: zero-length and duplicate geometry, ceilings below floors,
//!    edges claimed by more than two sector sides, walls that cross,
//!    capacity limits;
//! 3. the blockmap, with the engine's own rule for which blocks a wall
//!    touches;
//! 4. [`engine::format::MapRepr::emit`].
//!
//! Non-convex sectors and sectors with holes are kept whole: the renderer
//! and the collision code handle them directly, so nothing is split.
//!
//! The compiler may use floating point for its decisions (it runs on the
//! host, once); everything it writes is fixed-point.

use std::collections::HashMap;

use engine::config;
use engine::format::{
    BlockmapRepr, MapRepr, SectorRecord, ThingRecord, VertexRecord, WallRecord, NO_SECTOR,
};
use engine::math::{Fx, Vec2};
use engine::world::blockmap::{for_each_block_touching_segment, Grid};

/// A sector before compilation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceSector {
    /// Floor height.
    pub floor: Fx,
    /// Ceiling height.
    pub ceiling: Fx,
    /// Light, 0..=255.
    pub light: u8,
    /// Floor colour.
    pub floor_color: u8,
    /// Ceiling colour.
    pub ceiling_color: u8,
    /// Wall colour.
    pub wall_color: u8,
    /// Closed loops of vertex indices (the closing edge from the last
    /// vertex back to the first is implied).
    pub loops: Vec<Vec<usize>>,
}

/// A level before compilation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceMap {
    /// Title.
    pub title: String,
    /// Vertex positions.
    pub vertices: Vec<Vec2>,
    /// Sectors.
    pub sectors: Vec<SourceSector>,
    /// Player starts and entity spawns.
    pub things: Vec<ThingRecord>,
}

/// Compiler settings.
#[derive(Copy, Clone, Debug)]
pub struct BuildOptions {
    /// Blockmap block edge in map units (a power of two is customary).
    pub block_size: u16,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { block_size: 128 }
    }
}

/// Where a build error points: the front end maps these to source spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// The map as a whole.
    Map,
    /// A vertex.
    Vertex(usize),
    /// A sector.
    Sector(usize),
    /// Position `index` in loop `loop_index` of sector `sector`: the edge
    /// from that vertex to the next.
    LoopEdge {
        /// Sector.
        sector: usize,
        /// Loop within the sector.
        loop_index: usize,
        /// Position within the loop.
        index: usize,
    },
    /// A thing.
    Thing(usize),
}

/// A reason the level cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    /// Where.
    pub site: Site,
    /// What, in words.
    pub message: String,
}

fn err(site: Site, message: impl Into<String>) -> BuildError {
    BuildError {
        site,
        message: message.into(),
    }
}

/// Figures about a compiled map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Vertices.
    pub vertices: usize,
    /// Walls (portals included).
    pub walls: usize,
    /// Walls with a sector on both sides.
    pub portals: usize,
    /// Sectors.
    pub sectors: usize,
    /// Things.
    pub things: usize,
    /// Blockmap block edge.
    pub block_size: u16,
    /// Blockmap columns.
    pub block_cols: u16,
    /// Blockmap rows.
    pub block_rows: u16,
    /// The most walls listed in one block.
    pub max_walls_per_block: usize,
    /// Total bytes of the compiled map.
    pub bytes: usize,
}

/// A compiled map.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The bytes the engine loads.
    pub bytes: Vec<u8>,
    /// Figures about them.
    pub stats: BuildStats,
}

struct Side {
    sector: usize,
    loop_index: usize,
    index: usize,
    /// The sector's interior lies to the left of the edge as written.
    interior_left: bool,
    from: usize,
    to: usize,
}

fn f(v: Fx) -> f64 {
    v.to_num::<f64>()
}

/// Even-odd test of `p` against every loop of `sector`.
fn inside(map: &SourceMap, sector: &SourceSector, p: (f64, f64)) -> bool {
    let mut inside = false;
    for lp in &sector.loops {
        for k in 0..lp.len() {
            let a = map.vertices[lp[k]];
            let b = map.vertices[lp[(k + 1) % lp.len()]];
            let (ax, ay, bx, by) = (f(a.x), f(a.y), f(b.x), f(b.y));
            if (ay > p.1) != (by > p.1) {
                let x = ax + (p.1 - ay) * (bx - ax) / (by - ay);
                if x > p.0 {
                    inside = !inside;
                }
            }
        }
    }
    inside
}

fn check_values(map: &SourceMap) -> Result<(), BuildError> {
    let limit = Fx::from_num(config::MAX_COORDINATE);
    let ok = |v: Fx| v >= -limit && v <= limit;
    if map.sectors.is_empty() {
        return Err(err(Site::Map, "the map has no sectors"));
    }
    if map.vertices.len() > config::MAX_VERTICES {
        return Err(err(
            Site::Map,
            format!(
                "{} vertices exceeds the limit of {}",
                map.vertices.len(),
                config::MAX_VERTICES
            ),
        ));
    }
    if map.sectors.len() > config::MAX_SECTORS {
        return Err(err(
            Site::Map,
            format!(
                "{} sectors exceeds the limit of {}",
                map.sectors.len(),
                config::MAX_SECTORS
            ),
        ));
    }
    if map.things.len() > config::MAX_THINGS {
        return Err(err(
            Site::Map,
            format!(
                "{} things exceeds the limit of {}",
                map.things.len(),
                config::MAX_THINGS
            ),
        ));
    }
    for (i, v) in map.vertices.iter().enumerate() {
        if !ok(v.x) || !ok(v.y) {
            return Err(err(
                Site::Vertex(i),
                format!("vertex outside ±{}", config::MAX_COORDINATE),
            ));
        }
    }
    // Duplicate vertices: two vertices at one spot make walls that look
    // joined but are not.
    let mut at: HashMap<(i32, i32), usize> = HashMap::new();
    for (i, v) in map.vertices.iter().enumerate() {
        if let Some(first) = at.insert((v.x.to_bits(), v.y.to_bits()), i) {
            return Err(err(
                Site::Vertex(i),
                format!("duplicate vertex: same position as vertex {}", first),
            ));
        }
    }
    for (i, s) in map.sectors.iter().enumerate() {
        if !ok(s.floor) || !ok(s.ceiling) {
            return Err(err(
                Site::Sector(i),
                format!("height outside ±{}", config::MAX_COORDINATE),
            ));
        }
        if s.ceiling < s.floor {
            return Err(err(
                Site::Sector(i),
                format!("ceiling {} is below floor {}", s.ceiling, s.floor),
            ));
        }
        if s.loops.is_empty() {
            return Err(err(Site::Sector(i), "sector has no loops"));
        }
        for (li, lp) in s.loops.iter().enumerate() {
            if lp.len() < 3 {
                return Err(err(
                    Site::LoopEdge {
                        sector: i,
                        loop_index: li,
                        index: 0,
                    },
                    "a loop needs at least three vertices",
                ));
            }
            for (k, &v) in lp.iter().enumerate() {
                let site = Site::LoopEdge {
                    sector: i,
                    loop_index: li,
                    index: k,
                };
                if v >= map.vertices.len() {
                    return Err(err(site, format!("vertex index {v} does not exist")));
                }
                if lp[(k + 1) % lp.len()] == v {
                    return Err(err(
                        site,
                        "zero-length wall: the same vertex twice in a row",
                    ));
                }
            }
        }
    }
    for (i, t) in map.things.iter().enumerate() {
        if !ok(t.x) || !ok(t.y) {
            return Err(err(
                Site::Thing(i),
                "thing outside the map's coordinate range",
            ));
        }
        if t.kind == engine::format::kind::PUSHABLE
            && (t.radius <= Fx::ZERO || t.radius > Fx::from_num(1024))
        {
            return Err(err(
                Site::Thing(i),
                "an entity's radius must be above 0 and at most 1024",
            ));
        }
    }
    if !map
        .things
        .iter()
        .any(|t| t.kind == engine::format::kind::PLAYER_START)
    {
        return Err(err(Site::Map, "the map has no player start"));
    }
    Ok(())
}

/// Proper intersection of two segments that share no end point: they
/// cross or overlap somewhere other than at a common vertex.
fn segments_cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let orient = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        let v = (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0);
        if v > 0.0 {
            1
        } else if v < 0.0 {
            -1
        } else {
            0
        }
    };
    let on_segment = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        r.0 >= p.0.min(q.0) && r.0 <= p.0.max(q.0) && r.1 >= p.1.min(q.1) && r.1 <= p.1.max(q.1)
    };
    let (o1, o2, o3, o4) = (
        orient(a, b, c),
        orient(a, b, d),
        orient(c, d, a),
        orient(c, d, b),
    );
    if o1 != o2 && o3 != o4 && o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0 {
        return true;
    }
    // Touching or collinear overlap counts too: a vertex lying on another
    // wall's interior is a T-junction the walls do not share.
    (o1 == 0 && on_segment(a, b, c))
        || (o2 == 0 && on_segment(a, b, d))
        || (o3 == 0 && on_segment(c, d, a))
        || (o4 == 0 && on_segment(c, d, b))
}

/// Compiles a source level.
pub fn build(map: &SourceMap, opts: BuildOptions) -> Result<Compiled, BuildError> {
    check_values(map)?;

    // 1. Every loop edge, with the side its sector lies on.
    let mut edges: HashMap<(usize, usize), Vec<Side>> = HashMap::new();
    let mut edge_order: Vec<(usize, usize)> = Vec::new();
    for (si, s) in map.sectors.iter().enumerate() {
        for (li, lp) in s.loops.iter().enumerate() {
            for k in 0..lp.len() {
                let (from, to) = (lp[k], lp[(k + 1) % lp.len()]);
                let (a, b) = (map.vertices[from], map.vertices[to]);
                let (dx, dy) = (f(b.x) - f(a.x), f(b.y) - f(a.y));
                let len = (dx * dx + dy * dy).sqrt();
                // A point just left of the edge's midpoint.
                let eps = (len * 1e-3).min(1.0 / 64.0);
                let mid = ((f(a.x) + f(b.x)) / 2.0, (f(a.y) + f(b.y)) / 2.0);
                let left = (mid.0 - dy / len * eps, mid.1 + dx / len * eps);
                let key = (from.min(to), from.max(to));
                let list = edges.entry(key).or_default();
                if list.is_empty() {
                    edge_order.push(key);
                }
                list.push(Side {
                    sector: si,
                    loop_index: li,
                    index: k,
                    interior_left: inside(map, s, left),
                    from,
                    to,
                });
            }
        }
    }

    // 2. Walls, front on the right.
    let mut walls: Vec<WallRecord> = Vec::new();
    let mut wall_sites: Vec<Site> = Vec::new();
    for key in &edge_order {
        let sides = &edges[key];
        let first = &sides[0];
        let site = Site::LoopEdge {
            sector: first.sector,
            loop_index: first.loop_index,
            index: first.index,
        };
        // Orient so that the first side's sector is in front (right).
        let (v1, v2) = if first.interior_left {
            (first.to, first.from)
        } else {
            (first.from, first.to)
        };
        let wall = match sides.len() {
            1 => WallRecord {
                v1: v1 as u16,
                v2: v2 as u16,
                front: first.sector as u16,
                back: NO_SECTOR,
                flags: 0,
            },
            2 => {
                let second = &sides[1];
                // Is the second sector's interior on the left of v1 -> v2?
                let second_left = if (second.from, second.to) == (v1, v2) {
                    second.interior_left
                } else {
                    !second.interior_left
                };
                if !second_left {
                    let other = &map.sectors[second.sector];
                    let _ = other;
                    return Err(err(
                        site,
                        format!(
                            "sectors {} and {} overlap: both lie on the same side of this wall",
                            first.sector, second.sector
                        ),
                    ));
                }
                WallRecord {
                    v1: v1 as u16,
                    v2: v2 as u16,
                    front: first.sector as u16,
                    back: second.sector as u16,
                    flags: 0,
                }
            }
            n => {
                return Err(err(
                    site,
                    format!("this wall is claimed by {n} sector sides; at most two may share one"),
                ))
            }
        };
        walls.push(wall);
        wall_sites.push(site);
    }
    if walls.len() > config::MAX_WALLS {
        return Err(err(
            Site::Map,
            format!(
                "{} walls exceeds the limit of {}",
                walls.len(),
                config::MAX_WALLS
            ),
        ));
    }

    // 3. Sector wall lists.
    let mut per_sector: Vec<Vec<u16>> = vec![Vec::new(); map.sectors.len()];
    for (i, w) in walls.iter().enumerate() {
        per_sector[w.front as usize].push(i as u16);
        if w.back != NO_SECTOR && w.back != w.front {
            per_sector[w.back as usize].push(i as u16);
        }
    }
    let mut sector_walls: Vec<u16> = Vec::new();
    let mut sectors: Vec<SectorRecord> = Vec::new();
    for (s, list) in map.sectors.iter().zip(&per_sector) {
        sectors.push(SectorRecord {
            floor: s.floor,
            ceiling: s.ceiling,
            light: s.light,
            floor_color: s.floor_color,
            ceiling_color: s.ceiling_color,
            wall_color: s.wall_color,
            first_wall: sector_walls.len() as u32,
            wall_count: list.len() as u32,
        });
        sector_walls.extend_from_slice(list);
    }

    // 4. Blockmap.
    let vertices: Vec<VertexRecord> = map
        .vertices
        .iter()
        .map(|v| VertexRecord { x: v.x, y: v.y })
        .collect();
    let grid = choose_grid(&map.vertices, opts.block_size);
    let mut lists: Vec<Vec<u16>> = vec![Vec::new(); grid.block_count()];
    for (i, w) in walls.iter().enumerate() {
        let a = map.vertices[w.v1 as usize];
        let b = map.vertices[w.v2 as usize];
        for_each_block_touching_segment(&grid, a, b, |block| lists[block].push(i as u16));
    }

    // 5. Crossing walls, tested pairwise inside each block.
    for list in &lists {
        for (k, &i) in list.iter().enumerate() {
            for &j in &list[k + 1..] {
                let (wi, wj) = (&walls[i as usize], &walls[j as usize]);
                let shared = [wi.v1, wi.v2]
                    .iter()
                    .filter(|v| **v == wj.v1 || **v == wj.v2)
                    .count();
                let p = |v: u16| {
                    let q = map.vertices[v as usize];
                    (f(q.x), f(q.y))
                };
                let crosses = match shared {
                    0 => segments_cross(p(wi.v1), p(wi.v2), p(wj.v1), p(wj.v2)),
                    // Sharing one end: only a collinear overlap is wrong.
                    1 => {
                        let (s, a_other) = if wi.v1 == wj.v1 || wi.v1 == wj.v2 {
                            (wi.v1, wi.v2)
                        } else {
                            (wi.v2, wi.v1)
                        };
                        let b_other = if wj.v1 == s { wj.v2 } else { wj.v1 };
                        let (ps, pa, pb) = (p(s), p(a_other), p(b_other));
                        let cross = (pa.0 - ps.0) * (pb.1 - ps.1) - (pa.1 - ps.1) * (pb.0 - ps.0);
                        let dot = (pa.0 - ps.0) * (pb.0 - ps.0) + (pa.1 - ps.1) * (pb.1 - ps.1);
                        cross == 0.0 && dot > 0.0
                    }
                    _ => false,
                };
                if crosses {
                    return Err(err(
                        wall_sites[j as usize].clone(),
                        format!(
                            "crossing walls: this wall crosses or overlaps another ({})",
                            describe(&wall_sites[i as usize])
                        ),
                    ));
                }
            }
        }
    }

    let mut offsets: Vec<u32> = Vec::with_capacity(lists.len() + 1);
    let mut entries: Vec<u16> = Vec::new();
    offsets.push(0);
    for list in &lists {
        entries.extend_from_slice(list);
        offsets.push(entries.len() as u32);
    }
    if entries.len() > config::MAX_BLOCK_ENTRIES {
        return Err(err(
            Site::Map,
            "the blockmap is too large; use a larger block size",
        ));
    }
    let max_walls_per_block = lists.iter().map(Vec::len).max().unwrap_or(0);

    let title: String = map.title.chars().take(64).collect();
    let repr = MapRepr {
        title: &title,
        vertices: &vertices,
        walls: &walls,
        sectors: &sectors,
        sector_walls: &sector_walls,
        things: &map.things,
        blockmap: BlockmapRepr {
            origin_x: grid.origin_x,
            origin_y: grid.origin_y,
            block_size: grid.block_size,
            cols: grid.cols,
            rows: grid.rows,
            offsets: &offsets,
            entries: &entries,
        },
    };
    let mut bytes = vec![0u8; repr.buffer_len()];
    let written = repr.emit(&mut bytes).map_err(|e| {
        err(
            Site::Map,
            format!("internal: emit needed {} bytes", e.needed),
        )
    })?;
    bytes.truncate(written);
    // The engine's own loader is the final judge.
    engine::format::MapView::new_checked(&bytes).map_err(|e| {
        err(
            Site::Map,
            format!("internal: the engine refuses the output: {e}"),
        )
    })?;
    let stats = BuildStats {
        vertices: vertices.len(),
        walls: walls.len(),
        portals: walls.iter().filter(|w| w.back != NO_SECTOR).count(),
        sectors: sectors.len(),
        things: map.things.len(),
        block_size: grid.block_size,
        block_cols: grid.cols,
        block_rows: grid.rows,
        max_walls_per_block,
        bytes: bytes.len(),
    };
    Ok(Compiled { bytes, stats })
}

fn describe(site: &Site) -> String {
    match site {
        Site::LoopEdge {
            sector,
            loop_index,
            index,
        } => format!("sector {sector}, loop {loop_index}, edge {index}"),
        other => format!("{other:?}"),
    }
}

/// A grid over the map's vertices with blocks of `block_size` (grown in
/// powers of two until the grid fits the engine's limit).
fn choose_grid(vertices: &[Vec2], block_size: u16) -> Grid {
    let min_x = vertices
        .iter()
        .map(|v| v.x.floor().to_num::<i32>())
        .min()
        .unwrap_or(0);
    let min_y = vertices
        .iter()
        .map(|v| v.y.floor().to_num::<i32>())
        .min()
        .unwrap_or(0);
    let max_x = vertices
        .iter()
        .map(|v| v.x.ceil().to_num::<i32>())
        .max()
        .unwrap_or(0);
    let max_y = vertices
        .iter()
        .map(|v| v.y.ceil().to_num::<i32>())
        .max()
        .unwrap_or(0);
    let mut size = block_size.clamp(config::MIN_BLOCK_SIZE, config::MAX_BLOCK_SIZE) as i32;
    loop {
        // One unit of margin so no vertex sits on the grid's outer edge.
        let origin_x = min_x - 1;
        let origin_y = min_y - 1;
        let cols = ((max_x + 1 - origin_x) / size + 1).max(1);
        let rows = ((max_y + 1 - origin_y) / size + 1).max(1);
        if (cols * rows) as usize <= config::MAX_BLOCKS || size >= config::MAX_BLOCK_SIZE as i32 {
            return Grid {
                origin_x,
                origin_y,
                block_size: size as u16,
                cols: cols as u16,
                rows: rows as u16,
            };
        }
        size *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::format::kind;

    pub(crate) fn square_room() -> SourceMap {
        SourceMap {
            title: "room".into(),
            vertices: vec![
                Vec2::from_int(0, 0),
                Vec2::from_int(256, 0),
                Vec2::from_int(256, 256),
                Vec2::from_int(0, 256),
            ],
            sectors: vec![SourceSector {
                floor: Fx::ZERO,
                ceiling: Fx::from_num(128),
                light: 200,
                loops: vec![vec![0, 1, 2, 3]],
                ..Default::default()
            }],
            things: vec![ThingRecord {
                x: Fx::from_num(128),
                y: Fx::from_num(128),
                kind: kind::PLAYER_START,
                ..Default::default()
            }],
        }
    }

    #[test]
    fn a_room_compiles_and_loads() {
        let c = build(&square_room(), BuildOptions::default()).unwrap();
        let level = engine::world::Level::load(&c.bytes).unwrap();
        assert_eq!(level.wall_count(), 4);
        assert_eq!(c.stats.portals, 0);
        // Loops in either direction give the same walls: front inside.
        let mut cw = square_room();
        cw.sectors[0].loops[0].reverse();
        let c2 = build(&cw, BuildOptions::default()).unwrap();
        let l2 = engine::world::Level::load(&c2.bytes).unwrap();
        for i in 0..4 {
            let w = l2.wall(engine::world::WallId(i));
            let mid = Vec2::from_int(128, 128);
            assert_eq!(w.sector_on_side_of(mid), Some(engine::world::SectorId(0)));
        }
        assert_eq!(
            level.locate(Vec2::from_int(10, 10)),
            Some(engine::world::SectorId(0))
        );
        assert_eq!(level.locate(Vec2::from_int(-10, 10)), None);
    }

    #[test]
    fn shared_edges_become_portals() {
        let mut m = square_room();
        m.vertices.push(Vec2::from_int(512, 0));
        m.vertices.push(Vec2::from_int(512, 256));
        m.sectors.push(SourceSector {
            floor: Fx::from_num(8),
            ceiling: Fx::from_num(120),
            loops: vec![vec![1, 4, 5, 2]],
            ..Default::default()
        });
        let c = build(&m, BuildOptions::default()).unwrap();
        assert_eq!(c.stats.portals, 1);
        assert_eq!(c.stats.walls, 7);
        let level = engine::world::Level::load(&c.bytes).unwrap();
        assert_eq!(
            level.locate(Vec2::from_int(300, 10)),
            Some(engine::world::SectorId(1))
        );
        assert_eq!(
            level.locate(Vec2::from_int(200, 10)),
            Some(engine::world::SectorId(0))
        );
    }

    #[test]
    fn crossing_walls_are_refused() {
        let mut m = square_room();
        // A bow tie: 0-1-3-2 crosses itself.
        m.sectors[0].loops[0] = vec![0, 1, 3, 2];
        let e = build(&m, BuildOptions::default()).unwrap_err();
        assert!(e.message.contains("crossing"), "{e:?}");
    }

    #[test]
    fn ceiling_below_floor_is_refused() {
        let mut m = square_room();
        m.sectors[0].ceiling = Fx::from_num(-1);
        let e = build(&m, BuildOptions::default()).unwrap_err();
        assert_eq!(e.site, Site::Sector(0));
    }

    #[test]
    fn output_is_deterministic() {
        let a = build(&square_room(), BuildOptions::default()).unwrap();
        let b = build(&square_room(), BuildOptions::default()).unwrap();
        assert_eq!(a.bytes, b.bytes);
    }
}
