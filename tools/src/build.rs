//! From a source level (vertices, sectors as loops of vertices, things) to
//! the engine's compiled bytes.
//!
//! Two entry points share one tail (sector wall lists, blockmap, crossing
//! test, emit, and the engine's own loader as the final judge):
//!
//! * [`build`] takes a [`SourceMap`] with sectors as loops of vertices (our
//!   text format) and works out the walls itself, refusing any broken
//!   geometry;
//! * [`build_walls`] takes a [`WallMap`] whose walls are already known,
//!   with their sides and textures (DOOM's linedefs and sidedefs), and
//!   reports crossing walls as warnings, as real maps have them.
//!
//! [`build`] does this:
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
//! 4. a BSP from our node builder ([`crate::nodes`]; [`build_walls`] keeps
//!    the DOOM map's own instead);
//! 5. [`engine::format::MapRepr::emit`].
//!
//! Non-convex sectors and sectors with holes are kept whole: the renderer
//! and the collision code handle them directly, so nothing is split (the
//! BSP's subsectors are convex pieces of them, beside the sectors).
//!
//! The compiler may use floating point for its decisions (it runs on the
//! host, once); everything it writes is fixed-point.

use std::collections::{HashMap, HashSet};

use engine::config;
use engine::format::blockmap::{for_each_block_touching_segment, Grid};
use engine::format::{
    BlockmapRepr, BspNodeRecord, BspRepr, BspSegRecord, MapRepr, RotationRecord, SectorRecord,
    SideRecord, SubsectorRecord, SwitchRecord, ThingRecord, VertexRecord, WallRecord,
    WallSpecialRecord, MIRRORED, NONE, NO_SECTOR,
};
use engine::math::{Fx, Vec2};

use crate::texture::{PackedTextures, Packer, TextureLibrary};

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
    /// Floor texture: a flat name for [`crate::texture::Packer::flat`]
    /// (`F_SKY1` shows the sky); `None` for the flat colour.
    pub floor_texture: Option<String>,
    /// Ceiling texture, as for `floor_texture`.
    pub ceiling_texture: Option<String>,
    /// Texture of this sector's sides of its walls (a one-sided wall's
    /// middle, a portal's upper and lower parts seen from this sector), a
    /// wall texture name for [`crate::texture::Packer::wall`]; `None` for
    /// the wall colour.
    pub wall_texture: Option<String>,
    /// The tag wall specials name it by (0: none).
    pub tag: u16,
    /// What it does by itself ([`engine::format::sector_special`]).
    pub special: u16,
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
    /// Wall specials, each on the wall between two vertices (either way
    /// round; its `wall` field is filled in by the builder).
    pub specials: Vec<SourceSpecial>,
    /// Walls that scroll, each between two vertices: the side on the
    /// right of `v1 -> v2` moves
    /// ([`engine::format::wall_flag::SCROLL_LEFT`] or `SCROLL_RIGHT`).
    pub scrolls: Vec<SourceScroll>,
    /// Sides whose textures are set by hand rather than by their
    /// sectors' `wall_texture`.
    pub sides: Vec<SourceSide>,
}

/// The textures of one side of a wall of a [`SourceMap`]: the wall
/// between `v1` and `v2`, its side on the right of `v1 -> v2` (either way
/// round for a one-sided wall, which has one side). What is `None` stays
/// as the sector's `wall_texture` gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceSide {
    /// One end.
    pub v1: usize,
    /// The other end.
    pub v2: usize,
    /// Every part the side shows: a one-sided wall's middle, a portal
    /// side's upper and lower (overridden by the three below).
    pub texture: Option<String>,
    /// Above a portal's opening.
    pub upper: Option<String>,
    /// The wall, or a see-through texture in a portal.
    pub middle: Option<String>,
    /// Below a portal's opening.
    pub lower: Option<String>,
    /// Texture columns to skip.
    pub x_offset: i16,
    /// Texture rows to skip.
    pub y_offset: i16,
    /// [`engine::format::wall_flag::UPPER_UNPEGGED`] and
    /// `LOWER_UNPEGGED`, for the whole wall.
    pub flags: u16,
}

/// A scrolling wall of a [`SourceMap`]: the wall between `v1` and `v2`,
/// its side on the right of `v1 -> v2` moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceScroll {
    /// One end.
    pub v1: usize,
    /// The other end.
    pub v2: usize,
    /// [`engine::format::wall_flag::SCROLL_LEFT`] or `SCROLL_RIGHT`.
    pub flag: u16,
}

/// A special on the wall between vertices `v1` and `v2` of a
/// [`SourceMap`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceSpecial {
    /// One end.
    pub v1: usize,
    /// The other end.
    pub v2: usize,
    /// What it does and how it is set off (its `wall` is ignored).
    pub special: WallSpecialRecord,
}

/// Compiler settings.
#[derive(Copy, Clone, Debug)]
pub struct BuildOptions {
    /// Blockmap block edge in map units (a power of two is customary).
    pub block_size: u16,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { block_size: 64 }
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
    /// A wall of a [`WallMap`], by its [`SourceWall::origin`] (a DOOM
    /// map's linedef number).
    Line(usize),
    /// A special of a [`SourceMap`] ([`SourceMap::specials`]).
    Special(usize),
    /// A scrolling wall of a [`SourceMap`] ([`SourceMap::scrolls`]).
    Scroll(usize),
    /// A side of a [`SourceMap`] ([`SourceMap::sides`]).
    Side(usize),
}

/// A reason the level cannot be compiled.
///
/// Messages never name elements by index: a front end shows the element
/// at [`BuildError::site`] (and at each note's site) in its own terms, such
/// as a source line, so the words must make sense next to that.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    /// Where.
    pub site: Site,
    /// What, in words.
    pub message: String,
    /// Other places involved (the other crossing wall, the first of two
    /// duplicate vertices...), each with a short label.
    pub notes: Vec<(Site, String)>,
    /// How to fix it, when there is a likely fix.
    pub help: Option<String>,
}

impl BuildError {
    /// Adds a related place.
    fn note(mut self, site: Site, label: impl Into<String>) -> Self {
        self.notes.push((site, label.into()));
        self
    }

    /// Adds a hint.
    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", describe(&self.site), self.message)?;
        for (site, label) in &self.notes {
            write!(f, "; {}: {}", describe(site), label)?;
        }
        if let Some(h) = &self.help {
            write!(f, " (help: {h})")?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildError {}

fn err(site: Site, message: impl Into<String>) -> BuildError {
    BuildError {
        site,
        message: message.into(),
        notes: Vec::new(),
        help: None,
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
    /// Wall references over all blocks.
    pub block_entries: usize,
    /// Total bytes of the compiled map.
    pub bytes: usize,
    /// Of those, the bytes of the texture sections (directory, pixels,
    /// names, palette, light table and sky).
    pub texture_bytes: usize,
    /// Textures.
    pub textures: usize,
    /// BSP nodes, segs and subsectors.
    pub bsp: (usize, usize, usize),
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

fn side_site(side: &Side) -> Site {
    Site::LoopEdge {
        sector: side.sector,
        loop_index: side.loop_index,
        index: side.index,
    }
}

fn f(v: Fx) -> f64 {
    v.to_num::<f64>()
}

/// Segments bucketed by the blocks of a grid, for casting rays: which
/// segments does the ray from a point towards +x cross? Used for the
/// even-odd tests (which side of an edge is inside its sector, and which
/// sectors enclose a point), which would otherwise test every segment of
/// a sector for every edge of it: quadratic, and minutes for a
/// 60 000-edge sector.
struct SegmentIndex<'g> {
    grid: &'g Grid,
    /// End points.
    segs: Vec<((f64, f64), (f64, f64))>,
    /// Per block, the segments touching it (the blockmap rule).
    lists: Vec<Vec<u32>>,
    /// `stamp[i] == ray` marks segment `i` as seen by the current ray: a
    /// segment listed in several blocks of the row counts once.
    stamp: Vec<usize>,
    ray: usize,
}

impl<'g> SegmentIndex<'g> {
    fn new(grid: &'g Grid, segs: &[(Vec2, Vec2)]) -> Self {
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); grid.block_count()];
        for (i, &(a, b)) in segs.iter().enumerate() {
            for_each_block_touching_segment(grid, a, b, |block| lists[block].push(i as u32));
        }
        SegmentIndex {
            grid,
            segs: segs
                .iter()
                .map(|&(a, b)| ((f(a.x), f(a.y)), (f(b.x), f(b.y))))
                .collect(),
            lists,
            stamp: vec![usize::MAX; segs.len()],
            ray: 0,
        }
    }

    /// Calls `hit` once for every segment that the ray from `p` towards
    /// +x crosses, with the half-open rule (a vertex on the ray counts
    /// for exactly one of the two segments meeting there).
    fn crossings(&mut self, p: (f64, f64), mut hit: impl FnMut(usize)) {
        self.ray += 1;
        let size = self.grid.block_size as f64;
        let row = ((p.1 - self.grid.origin_y as f64) / size).floor();
        if !(row >= 0.0 && row < self.grid.rows as f64) {
            return;
        }
        let col = ((p.0 - self.grid.origin_x as f64) / size).floor().max(0.0);
        let cols = self.grid.cols as usize;
        let (row, col) = (row as usize, (col as usize).min(cols));
        for c in col..cols {
            for &i in &self.lists[row * cols + c] {
                let i = i as usize;
                if self.stamp[i] == self.ray {
                    continue;
                }
                self.stamp[i] = self.ray;
                let (a, b) = self.segs[i];
                if (a.1 > p.1) == (b.1 > p.1) {
                    continue;
                }
                let x = a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1);
                if x > p.0 {
                    hit(i);
                }
            }
        }
    }
}

/// The midpoint of `a`-`b` (exact in `f64`: 16.16 values have few bits).
fn midpoint(a: Vec2, b: Vec2) -> (f64, f64) {
    ((f(a.x) + f(b.x)) / 2.0, (f(a.y) + f(b.y)) / 2.0)
}

/// Which side of the segment `a -> b` a ray cast from its midpoint
/// describes. The half-open crossing rule makes such a ray count other
/// segments exactly as a ray from a point just *east* of the midpoint
/// would, or, for a horizontal segment (which the ray runs along, never
/// crossing it), just *north*. Returns whether that reference point is on
/// the segment's left. Testing on the segment itself, rather than at a
/// point some distance off it, is what keeps the answer right for
/// features thinner than any fixed distance.
fn reference_is_left(a: Vec2, b: Vec2) -> bool {
    let (dx, dy) = (
        b.x.to_bits() as i64 - a.x.to_bits() as i64,
        b.y.to_bits() as i64 - a.y.to_bits() as i64,
    );
    // Going south, east is on the left; going east, north is on the left.
    if dy != 0 {
        dy < 0
    } else {
        dx > 0
    }
}

/// Inside the engine's coordinate range.
fn in_range(v: Fx) -> bool {
    let limit = Fx::from_num(config::MAX_COORDINATE);
    v >= -limit && v <= limit
}

/// A capacity error if `n` exceeds `max`.
fn too_many(what: &str, n: usize, max: usize) -> Option<BuildError> {
    (n > max).then(|| err(Site::Map, format!("{n} {what} exceeds the limit of {max}")))
}

/// The first of several optional errors.
fn first_error<const N: usize>(errors: [Option<BuildError>; N]) -> Result<(), BuildError> {
    errors.into_iter().flatten().next().map_or(Ok(()), Err)
}

/// Every vertex inside the coordinate range.
fn check_vertices(vertices: &[Vec2]) -> Result<(), BuildError> {
    for (i, v) in vertices.iter().enumerate() {
        if !in_range(v.x) || !in_range(v.y) {
            return Err(err(
                Site::Vertex(i),
                format!("vertex outside ±{}", config::MAX_COORDINATE),
            ));
        }
    }
    Ok(())
}

/// Sector `i`'s heights in range and its ceiling not below its floor.
fn check_heights(i: usize, floor: Fx, ceiling: Fx) -> Result<(), BuildError> {
    if !in_range(floor) || !in_range(ceiling) {
        return Err(err(
            Site::Sector(i),
            format!("height outside ±{}", config::MAX_COORDINATE),
        ));
    }
    if ceiling < floor {
        return Err(err(
            Site::Sector(i),
            format!("ceiling {ceiling} is below floor {floor}"),
        ));
    }
    Ok(())
}

/// Things in range, with valid angles, radii, sprites (`sprite_ok`) and
/// rotations (one of the `rotation_sets`), and a player start among them.
fn check_things(
    things: &[ThingRecord],
    rotation_sets: usize,
    sprite_ok: impl Fn(u16) -> bool,
) -> Result<(), BuildError> {
    for (i, t) in things.iter().enumerate() {
        if !in_range(t.x) || !in_range(t.y) {
            return Err(err(
                Site::Thing(i),
                "thing outside the map's coordinate range",
            ));
        }
        if t.angle < Fx::ZERO || t.angle >= Fx::from_num(360) {
            return Err(err(Site::Thing(i), "angle outside [0, 360)"));
        }
        if t.kind == engine::format::kind::PUSHABLE
            && (t.radius <= Fx::ZERO || t.radius > Fx::from_num(1024))
        {
            return Err(err(
                Site::Thing(i),
                "an entity's radius must be above 0 and at most 1024",
            ));
        }
        if !sprite_ok(t.sprite) {
            return Err(err(Site::Thing(i), "sprite index out of range"));
        }
        if t.rotations as usize > rotation_sets {
            return Err(err(Site::Thing(i), "rotation set index out of range"));
        }
    }
    if !things
        .iter()
        .any(|t| t.kind == engine::format::kind::PLAYER_START)
    {
        return Err(err(Site::Map, "the map has no player start"));
    }
    Ok(())
}

fn check_values(map: &SourceMap) -> Result<(), BuildError> {
    if map.sectors.is_empty() {
        return Err(err(Site::Map, "the map has no sectors"));
    }
    first_error([
        too_many("vertices", map.vertices.len(), config::MAX_VERTICES),
        too_many("sectors", map.sectors.len(), config::MAX_SECTORS),
        too_many("things", map.things.len(), config::MAX_THINGS),
    ])?;
    check_vertices(&map.vertices)?;
    // Duplicate vertices: two vertices at one spot make walls that look
    // joined but are not.
    let mut at: HashMap<(i32, i32), usize> = HashMap::new();
    for (i, v) in map.vertices.iter().enumerate() {
        if let Some(first) = at.insert((v.x.to_bits(), v.y.to_bits()), i) {
            return Err(err(
                Site::Vertex(i),
                format!(
                    "duplicate vertex: another vertex is already at ({}, {})",
                    v.x, v.y
                ),
            )
            .note(Site::Vertex(first), "the other vertex"));
        }
    }
    for (i, s) in map.sectors.iter().enumerate() {
        check_heights(i, s.floor, s.ceiling)?;
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
    // Text maps give things no sprites.
    check_things(&map.things, 0, |t| t == NONE)
}

/// A point as raw 16.16 bits, for exact integer geometry.
type RawPoint = (i64, i64);

fn raw(v: Vec2) -> RawPoint {
    (v.x.to_bits() as i64, v.y.to_bits() as i64)
}

/// The sign of the cross product `(q - p) x (r - p)`, exactly: raw
/// coordinates fit 32 bits, their differences 33, the products 66, so
/// `i128` never overflows. (Floating point would round products of
/// fractional coordinates and could call a crossing a touch.)
fn orient(p: RawPoint, q: RawPoint, r: RawPoint) -> i32 {
    let v = (q.0 - p.0) as i128 * (r.1 - p.1) as i128 - (q.1 - p.1) as i128 * (r.0 - p.0) as i128;
    v.signum() as i32
}

/// Proper intersection of two segments that share no end point: they
/// cross or overlap somewhere other than at a common vertex.
fn segments_cross(a: RawPoint, b: RawPoint, c: RawPoint, d: RawPoint) -> bool {
    let on_segment = |p: RawPoint, q: RawPoint, r: RawPoint| {
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

/// Compiles a source level. Texture names in its sectors are packed from
/// an empty library (each becomes a placeholder): use [`build_textured`]
/// for maps that name textures.
pub fn build(map: &SourceMap, opts: BuildOptions) -> Result<Compiled, BuildError> {
    build_textured(map, &TextureLibrary::empty(), opts).map(|(c, _)| c)
}

/// Compiles a source level whose sectors may name textures, packing them
/// from `lib` (only those the map uses). Returns the compiled map and the
/// packer's warnings (unknown names, damaged lumps). A map that names no
/// texture compiles exactly as [`build`] compiles it.
pub fn build_textured(
    map: &SourceMap,
    lib: &TextureLibrary,
    opts: BuildOptions,
) -> Result<(Compiled, Vec<String>), BuildError> {
    check_values(map)?;

    let grid = choose_grid(&map.vertices, opts.block_size);

    // 1. Every loop edge, with the side its sector lies on: a point is
    // inside the sector if a ray from it crosses the sector's loops an odd
    // number of times (see `reference_is_left` for the point used).
    let mut loop_edges: Vec<(usize, usize, usize, usize)> = Vec::new(); // sector, loop, k, from
    let mut segs: Vec<(Vec2, Vec2)> = Vec::new();
    let mut seg_sector: Vec<usize> = Vec::new();
    for (si, s) in map.sectors.iter().enumerate() {
        for (li, lp) in s.loops.iter().enumerate() {
            for k in 0..lp.len() {
                let (from, to) = (lp[k], lp[(k + 1) % lp.len()]);
                loop_edges.push((si, li, k, from));
                segs.push((map.vertices[from], map.vertices[to]));
                seg_sector.push(si);
            }
        }
    }
    let key_of = |&(si, li, k, from): &(usize, usize, usize, usize)| {
        let lp = &map.sectors[si].loops[li];
        let to = lp[(k + 1) % lp.len()];
        (from.min(to), from.max(to))
    };
    let seg_key: Vec<(usize, usize)> = loop_edges.iter().map(key_of).collect();
    // How many times each sector uses each edge: crossing the edge itself
    // flips the sector's parity once per use.
    let mut uses: HashMap<(usize, (usize, usize)), usize> = HashMap::new();
    for (e, key) in seg_key.iter().enumerate() {
        *uses.entry((seg_sector[e], *key)).or_default() += 1;
    }
    let mut index = SegmentIndex::new(&grid, &segs);
    let mut edges: HashMap<(usize, usize), Vec<Side>> = HashMap::new();
    let mut edge_order: Vec<(usize, usize)> = Vec::new();
    for (e, &(si, li, k, from)) in loop_edges.iter().enumerate() {
        let lp = &map.sectors[si].loops[li];
        let to = lp[(k + 1) % lp.len()];
        let key = seg_key[e];
        // Parity at the reference point beside the edge, from every other
        // edge of this sector...
        let mut parity = false;
        index.crossings(midpoint(segs[e].0, segs[e].1), |j| {
            if seg_sector[j] == si && seg_key[j] != key {
                parity = !parity;
            }
        });
        // ...and the other side differs by the uses of this very edge.
        let flips = uses.get(&(si, key)).is_some_and(|n| n % 2 == 1);
        let interior_left = if reference_is_left(segs[e].0, segs[e].1) {
            parity
        } else {
            parity ^ flips
        };
        let list = edges.entry(key).or_default();
        if list.is_empty() {
            edge_order.push(key);
        }
        list.push(Side {
            sector: si,
            loop_index: li,
            index: k,
            interior_left,
            from,
            to,
        });
    }
    drop(index);

    // 2. Walls, front on the right. Two sectors on the same side of an
    // edge is reported after the crossing test: crossing walls also cause
    // it, and "crossing" is the clearer message then.
    let mut overlap: Option<BuildError> = None;
    let mut walls: Vec<WallRecord> = Vec::new();
    let mut wall_sites: Vec<Site> = Vec::new();
    for key in &edge_order {
        let sides = &edges[key];
        let first = &sides[0];
        let site = side_site(first);
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
                front_side: NONE,
                back_side: NONE,
                length: wall_length(map, v1, v2),
            },
            2 => {
                let second = &sides[1];
                // Is the second sector's interior on the left of v1 -> v2?
                let second_left = if (second.from, second.to) == (v1, v2) {
                    second.interior_left
                } else {
                    !second.interior_left
                };
                if !second_left && overlap.is_none() {
                    overlap = Some(if second.sector == first.sector {
                        err(
                            site.clone(),
                            "this edge is used twice by one sector, so the sector lies on both \
                             sides of it (or on neither)",
                        )
                        .note(side_site(second), "the other use")
                        .help("join the two loops into one outline, or make them two sectors")
                    } else {
                        err(
                            site.clone(),
                            "overlapping sectors: the two sectors that share this edge both \
                             lie on the same side of it",
                        )
                        .note(side_site(second), "the other use")
                        .help("check that the two sectors' loops do not overlap")
                    });
                }
                WallRecord {
                    v1: v1 as u16,
                    v2: v2 as u16,
                    front: first.sector as u16,
                    back: second.sector as u16,
                    flags: 0,
                    front_side: NONE,
                    back_side: NONE,
                    length: wall_length(map, v1, v2),
                }
            }
            n => {
                let mut e = err(
                    site,
                    format!(
                        "this edge is used by {n} sector sides; at most two (one on each side) \
                         may share an edge"
                    ),
                );
                for other in &sides[1..] {
                    e = e.note(side_site(other), "also used here");
                }
                return Err(e);
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
    let sector_records: Vec<SectorRecord> = map
        .sectors
        .iter()
        .map(|s| SectorRecord {
            floor: s.floor,
            ceiling: s.ceiling,
            light: s.light,
            floor_color: s.floor_color,
            ceiling_color: s.ceiling_color,
            wall_color: s.wall_color,
            tag: s.tag,
            special: s.special,
            ..SectorRecord::default()
        })
        .collect();
    let (mut sectors, sector_walls) = sector_wall_lists(&sector_records, &walls);

    // 4. Blockmap.
    let lists = block_lists(&grid, &map.vertices, &walls);

    // 5. Crossing walls, tested pairwise inside each block.
    if let Some(e) = crossings(&map.vertices, &walls, &wall_sites, &lists, 1).pop() {
        return Err(e);
    }

    if let Some(e) = overlap {
        return Err(e);
    }

    // 6. Nesting: just beside every wall, the sectors whose loops enclose
    // the spot must be exactly the wall's sector on that side. This catches
    // a sector drawn inside another without being a hole of it (a pillar
    // or platform whose loop the room forgot), which no crossing shows.
    check_nesting(map, &walls, &wall_sites, &grid)?;

    // 8. Specials, on the walls their vertices name.
    let mut specials = Vec::with_capacity(map.specials.len());
    let mut special_of_wall: HashMap<usize, usize> = HashMap::new();
    for (i, s) in map.specials.iter().enumerate() {
        let Some(wall) = wall_between(&walls, s.v1, s.v2) else {
            return Err(
                err(Site::Special(i), "no wall runs between these two vertices")
                    .help("a special goes on a wall: two vertices next to each other in a loop"),
            );
        };
        // A wall carries one special (DOOM's linedef has one): a second
        // would be silently lost.
        if let Some(&first) = special_of_wall.get(&wall) {
            return Err(err(Site::Special(i), "this wall already has a special")
                .note(Site::Special(first), "the wall's first special")
                .help("a wall does one thing: split it with a vertex to give it two"));
        }
        special_of_wall.insert(wall, i);
        let action = s.special.action;
        let manual = engine::format::wall_action::is_mover(action)
            && action & engine::format::wall_action::BACK_SECTOR != 0;
        let teleport = action == engine::format::wall_action::TELEPORT;
        if manual || teleport {
            // A door behind its wall: the door lies to the left of
            // v1 -> v2, on the wall's back, and is used from its front. A
            // teleporter works when crossed from its front, the right of
            // v1 -> v2.
            let w = &mut walls[wall];
            if w.back == NO_SECTOR && manual {
                return Err(err(
                    Site::Special(i),
                    "a door or lift needs a sector on each side of its wall: its own and the side it is \
                     used from",
                ));
            }
            if w.back == NO_SECTOR {
                return Err(err(
                    Site::Special(i),
                    "a teleporter needs a sector on each side of its wall: it is walked over",
                ));
            }
            turn_from(w, s.v1, s.v2);
        }
        specials.push(WallSpecialRecord {
            wall: wall as u16,
            ..s.special
        });
    }

    // 8b. Scrolling walls: the side on the right of v1 -> v2 is the
    // front (a portal turned so, unless a door or teleporter on it faces
    // the other way).
    for (i, sc) in map.scrolls.iter().enumerate() {
        let Some(wall) = wall_between(&walls, sc.v1, sc.v2) else {
            return Err(
                err(Site::Scroll(i), "no wall runs between these two vertices")
                    .help("a scrolling wall is two vertices next to each other in a loop"),
            );
        };
        let w = &mut walls[wall];
        if w.back != NO_SECTOR && (w.v1 as usize, w.v2 as usize) != (sc.v1, sc.v2) {
            if specials.iter().any(|s| usize::from(s.wall) == wall) {
                return Err(err(
                    Site::Scroll(i),
                    "this wall's special faces the other way: its scrolling side is the one \
                     the special is used or crossed from",
                )
                .help("write the two vertices the other way round"));
            }
            turn_from(w, sc.v1, sc.v2);
        }
        w.flags |= sc.flag;
    }

    // 9. Textures, when the sectors or sides name any (after the specials
    // and scrolls have turned the walls they need turned, so that a
    // `side`'s right is the wall's front or back for good).
    let TexturedSides {
        sides,
        switches,
        packed,
    } = texture_sides(map, lib, &mut walls, &mut sectors, &specials)?;
    let warnings = packed
        .as_ref()
        .map_or_else(Vec::new, |p| p.warnings.clone());

    // 10. The BSP, from our own node builder: every map has one (the
    // renderer draws by it).
    let bsp = crate::nodes::build(&map.vertices, &walls).map_err(no_bsp)?;
    let parts = Parts {
        title: &map.title,
        vertices: &map.vertices,
        walls: &walls,
        sides: &sides,
        sectors: &sectors,
        sector_walls: &sector_walls,
        things: &map.things,
        wall_specials: &specials,
        switches: &switches,
        rotations: &[],
        grid: &grid,
        lists: &lists,
        textures: packed.as_ref(),
    };
    let compiled = emit(parts, &bsp)?;
    check_teleports(map, &compiled)?;
    Ok((compiled, warnings))
}

/// Every teleporter leads somewhere: a destination stands in a sector
/// with its tag (found by the engine's own search, on the compiled map).
fn check_teleports(map: &SourceMap, compiled: &Compiled) -> Result<(), BuildError> {
    let teleports = map
        .specials
        .iter()
        .enumerate()
        .filter(|(_, s)| s.special.action == engine::format::wall_action::TELEPORT);
    let mut level = None;
    for (i, s) in teleports {
        let level = match &level {
            Some(l) => l,
            None => level.insert(
                engine::world::Level::load(&compiled.bytes)
                    .map_err(|e| err(Site::Special(i), format!("the compiled map: {e}")))?,
            ),
        };
        if engine::specials::teleport::destination(level, s.special.tag).is_none() {
            return Err(err(
                Site::Special(i),
                format!(
                    "this teleporter leads nowhere: no destination stands in a sector with tag {}",
                    s.special.tag
                ),
            )
            .help("put `destination X Y ANGLE` inside a sector with the teleporter's tag"));
        }
    }
    Ok(())
}

/// What [`texture_sides`] gives the walls.
struct TexturedSides {
    sides: Vec<SideRecord>,
    switches: Vec<SwitchRecord>,
    packed: Option<PackedTextures>,
}

/// The texture names of one side of a wall, before packing.
#[derive(Clone, Debug, Default)]
struct SideNames {
    upper: Option<String>,
    middle: Option<String>,
    lower: Option<String>,
    x_offset: i16,
    y_offset: i16,
}

/// Packs the textures a [`SourceMap`]'s sectors and sides name and gives
/// the walls their sides: a one-sided wall shows its sector's wall
/// texture as its middle; each side of a portal shows the texture of the
/// sector it faces as its upper and lower parts; a `side`
/// ([`SourceMap::sides`]) replaces what it names. Identical sides are
/// shared. A use special's wall whose front shows a switch texture
/// becomes a switch ([`crate::texture::switch_record`]). Nothing (no
/// sides, no texture sections) when nothing names a texture and `lib`
/// has no palette of its own (with one, the map's colours are in it, so
/// the map carries it).
fn texture_sides(
    map: &SourceMap,
    lib: &TextureLibrary,
    walls: &mut [WallRecord],
    sectors: &mut [SectorRecord],
    specials: &[WallSpecialRecord],
) -> Result<TexturedSides, BuildError> {
    let named = map.sectors.iter().any(|s| {
        s.floor_texture.is_some() || s.ceiling_texture.is_some() || s.wall_texture.is_some()
    }) || map.sides.iter().any(|s| {
        s.texture.is_some() || s.upper.is_some() || s.middle.is_some() || s.lower.is_some()
    });
    let mut out = TexturedSides {
        sides: Vec::new(),
        switches: Vec::new(),
        packed: None,
    };
    // The flags and offsets of `side` statements apply without textures.
    let mut fronts = vec![SideNames::default(); walls.len()];
    let mut backs = vec![SideNames::default(); walls.len()];
    for (w, (front, back)) in walls.iter().zip(fronts.iter_mut().zip(backs.iter_mut())) {
        let texture = |sector: u16| {
            map.sectors
                .get(usize::from(sector))
                .and_then(|s| s.wall_texture.clone())
        };
        if w.back == NO_SECTOR {
            front.middle = texture(w.front);
        } else {
            (front.upper, front.lower) = (texture(w.front), texture(w.front));
            (back.upper, back.lower) = (texture(w.back), texture(w.back));
        }
    }
    let mut set = HashSet::new();
    for (i, sd) in map.sides.iter().enumerate() {
        let Some(wall) = wall_between(walls, sd.v1, sd.v2) else {
            return Err(
                err(Site::Side(i), "no wall runs between these two vertices")
                    .help("a side belongs to a wall: two vertices next to each other in a loop"),
            );
        };
        let w = &mut walls[wall];
        let one_sided = w.back == NO_SECTOR;
        let front = one_sided || (w.v1 as usize, w.v2 as usize) == (sd.v1, sd.v2);
        if !set.insert((wall, front)) {
            return Err(err(
                Site::Side(i),
                "this side is already set by an earlier `side` statement",
            )
            .help("say everything the side shows in one statement"));
        }
        w.flags |= sd.flags;
        let names = if front {
            &mut fronts[wall]
        } else {
            &mut backs[wall]
        };
        if let Some(t) = &sd.texture {
            if one_sided {
                names.middle = Some(t.clone());
            } else {
                (names.upper, names.lower) = (Some(t.clone()), Some(t.clone()));
            }
        }
        for (part, given) in [
            (&mut names.upper, &sd.upper),
            (&mut names.middle, &sd.middle),
            (&mut names.lower, &sd.lower),
        ] {
            if given.is_some() {
                part.clone_from(given);
            }
        }
        (names.x_offset, names.y_offset) = (sd.x_offset, sd.y_offset);
    }
    let offsets = |n: &SideNames| n.x_offset != 0 || n.y_offset != 0;
    if !named && lib.palette().is_none() && !fronts.iter().chain(&backs).any(offsets) {
        return Ok(out);
    }

    let mut packer = Packer::new(lib);
    for (s, rec) in map.sectors.iter().zip(sectors.iter_mut()) {
        if let Some(name) = &s.floor_texture {
            rec.floor_texture = packer.flat(name);
        }
        if let Some(name) = &s.ceiling_texture {
            rec.ceiling_texture = packer.flat(name);
        }
        if let Some(name) = &s.wall_texture {
            packer.wall(name);
        }
    }
    let mut shared: HashMap<(u16, u16, u16, i16, i16), u16> = HashMap::new();
    let sides = &mut out.sides;
    let mut side = |packer: &mut Packer, n: &SideNames| {
        let mut pack = |t: &Option<String>| t.as_deref().map_or(NONE, |t| packer.wall(t));
        let key = (
            pack(&n.upper),
            pack(&n.middle),
            pack(&n.lower),
            n.x_offset,
            n.y_offset,
        );
        if key == (NONE, NONE, NONE, 0, 0) {
            return NONE;
        }
        *shared.entry(key).or_insert_with(|| {
            let (upper, middle, lower, x_offset, y_offset) = key;
            sides.push(SideRecord {
                x_offset,
                y_offset,
                upper,
                middle,
                lower,
            });
            (sides.len() - 1) as u16
        })
    };
    for (w, (front, back)) in walls.iter_mut().zip(fronts.iter().zip(&backs)) {
        w.front_side = side(&mut packer, front);
        if w.back != NO_SECTOR {
            w.back_side = side(&mut packer, back);
        }
    }
    // Side indices are 16 bits, NONE the last: each `side` with its own
    // offsets is a side of its own, so a hostile map can have too many.
    if let Some(e) = too_many(
        "different wall sides",
        out.sides.len(),
        usize::from(NONE) - 1,
    ) {
        return Err(e);
    }
    for special in specials {
        let Some(n) = fronts.get(usize::from(special.wall)) else {
            continue;
        };
        let names = [&n.upper, &n.middle, &n.lower].map(|t| t.as_deref().unwrap_or("-"));
        if let Some(r) = crate::texture::switch_record(special, names, lib, &mut packer) {
            out.switches.push(r);
        }
    }
    out.packed = Some(packer.finish());
    Ok(out)
}

/// The wall between vertices `v1` and `v2`, either way round.
fn wall_between(walls: &[WallRecord], v1: usize, v2: usize) -> Option<usize> {
    walls.iter().position(|w| {
        let (a, b) = (w.v1 as usize, w.v2 as usize);
        (a, b) == (v1, v2) || (b, a) == (v1, v2)
    })
}

/// Turns portal `w` round, if need be, so that it runs `v1 -> v2`: its
/// front (right) is then the sector on the right of `v1 -> v2`.
fn turn_from(w: &mut WallRecord, v1: usize, v2: usize) {
    if (w.v1 as usize, w.v2 as usize) != (v1, v2) {
        *w = WallRecord {
            v1: w.v2,
            v2: w.v1,
            front: w.back,
            back: w.front,
            front_side: w.back_side,
            back_side: w.front_side,
            ..*w
        };
    }
}

/// Each sector's run of walls (a wall is listed for its front sector and,
/// if different, its back sector): the sectors with `first_wall` and
/// `wall_count` filled in, and the lists.
fn sector_wall_lists(
    sectors: &[SectorRecord],
    walls: &[WallRecord],
) -> (Vec<SectorRecord>, Vec<u16>) {
    let mut per_sector: Vec<Vec<u16>> = vec![Vec::new(); sectors.len()];
    for (i, w) in walls.iter().enumerate() {
        per_sector[w.front as usize].push(i as u16);
        if w.back != NO_SECTOR && w.back != w.front {
            per_sector[w.back as usize].push(i as u16);
        }
    }
    let mut sector_walls: Vec<u16> = Vec::new();
    let mut out: Vec<SectorRecord> = Vec::with_capacity(sectors.len());
    for (s, list) in sectors.iter().zip(&per_sector) {
        out.push(SectorRecord {
            first_wall: sector_walls.len() as u32,
            wall_count: list.len() as u32,
            ..*s
        });
        sector_walls.extend_from_slice(list);
    }
    (out, sector_walls)
}

/// Per block of `grid`, the walls touching it (the engine's rule), sorted.
fn block_lists(grid: &Grid, vertices: &[Vec2], walls: &[WallRecord]) -> Vec<Vec<u16>> {
    let mut lists: Vec<Vec<u16>> = vec![Vec::new(); grid.block_count()];
    for (i, w) in walls.iter().enumerate() {
        let a = vertices[w.v1 as usize];
        let b = vertices[w.v2 as usize];
        for_each_block_touching_segment(grid, a, b, |block| lists[block].push(i as u16));
    }
    lists
}

/// Pairs of walls that cross or overlap (other than at a shared vertex),
/// tested pairwise inside each block: up to `limit` problems, each pair
/// once, in a fixed order.
fn crossings(
    vertices: &[Vec2],
    walls: &[WallRecord],
    wall_sites: &[Site],
    lists: &[Vec<u16>],
    limit: usize,
) -> Vec<BuildError> {
    let mut found = Vec::new();
    let mut seen: std::collections::HashSet<(u16, u16)> = std::collections::HashSet::new();
    for list in lists {
        for (k, &i) in list.iter().enumerate() {
            for &j in &list[k + 1..] {
                let (wi, wj) = (&walls[i as usize], &walls[j as usize]);
                let shared = [wi.v1, wi.v2]
                    .iter()
                    .filter(|v| **v == wj.v1 || **v == wj.v2)
                    .count();
                let p = |v: u16| raw(vertices[v as usize]);
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
                        let dot = (pa.0 - ps.0) as i128 * (pb.0 - ps.0) as i128
                            + (pa.1 - ps.1) as i128 * (pb.1 - ps.1) as i128;
                        orient(ps, pa, pb) == 0 && dot > 0
                    }
                    // Both ends shared: the same segment twice.
                    _ => true,
                };
                if crosses && seen.insert((i.min(j), i.max(j))) {
                    found.push(
                        err(
                            wall_sites[j as usize].clone(),
                            "crossing walls: this wall crosses or overlaps another",
                        )
                        .note(wall_sites[i as usize].clone(), "the other wall"),
                    );
                    if found.len() >= limit {
                        return found;
                    }
                }
            }
        }
    }
    found
}

/// A wall of a [`WallMap`]: DOOM's linedef with its sidedefs resolved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SourceWall {
    /// Start vertex (index into [`WallMap::vertices`]).
    pub v1: usize,
    /// End vertex.
    pub v2: usize,
    /// The sector on the right of `v1 -> v2`.
    pub front: usize,
    /// The sector on the left, for a portal.
    pub back: Option<usize>,
    /// [`engine::format::wall_flag`] bits.
    pub flags: u16,
    /// Side record (index into [`WallMap::sides`]) seen from the front,
    /// or [`NONE`].
    pub front_side: u16,
    /// Side record seen from the back, or [`NONE`].
    pub back_side: u16,
    /// The number messages use for this wall ([`Site::Line`]): the DOOM
    /// linedef it came from.
    pub origin: usize,
}

/// A level whose walls are already known, with their sides and textures:
/// what [`build_walls`] compiles.
#[derive(Clone, Debug, Default)]
pub struct WallMap {
    /// Title.
    pub title: String,
    /// Vertex positions; every vertex should be used by a wall (an unused
    /// one still widens the blockmap).
    pub vertices: Vec<Vec2>,
    /// Walls, front on the right.
    pub walls: Vec<SourceWall>,
    /// Side records the walls refer to.
    pub sides: Vec<SideRecord>,
    /// Sectors; `first_wall` and `wall_count` are filled in by the builder.
    pub sectors: Vec<SectorRecord>,
    /// Player starts and entity spawns.
    pub things: Vec<ThingRecord>,
    /// Wall specials, `wall` indexing [`WallMap::walls`].
    pub specials: Vec<WallSpecialRecord>,
    /// Switch textures, `wall` indexing [`WallMap::walls`].
    pub switches: Vec<SwitchRecord>,
    /// The sprite rotation sets things refer to (`rotations` n: entry
    /// n - 1).
    pub rotations: Vec<RotationRecord>,
    /// The textures sides, sectors and things refer to.
    pub textures: PackedTextures,
    /// A BSP to keep (a DOOM map's own), walls numbered as in `walls`;
    /// without one (or if the engine refuses it) our node builder makes
    /// one.
    pub bsp: Option<BspRecords>,
}

/// A BSP as the compiled format's records (see [`engine::format::BspView`]
/// for the rules the engine holds it to).
#[derive(Clone, Debug, Default)]
pub struct BspRecords {
    /// Nodes, children first, the root last.
    pub nodes: Vec<BspNodeRecord>,
    /// Segs.
    pub segs: Vec<BspSegRecord>,
    /// Subsectors.
    pub subsectors: Vec<SubsectorRecord>,
}

/// A problem [`build_walls`] reports without refusing the map: the same
/// shape as a [`BuildError`].
pub type BuildWarning = BuildError;

/// Most crossing-wall warnings [`build_walls`] lists one by one; the rest
/// are counted in one last warning.
pub const MAX_CROSSING_WARNINGS: usize = 20;

/// Compiles a level whose walls are already known (a DOOM map's linedefs):
/// the values are checked as [`build`] checks them, but the geometry is
/// taken as given: crossing or overlapping walls are warnings (real maps
/// have them, and the engine copes), and nothing tests that the sectors
/// close. Returns the compiled map and the warnings.
pub fn build_walls(
    map: &WallMap,
    opts: BuildOptions,
) -> Result<(Compiled, Vec<BuildWarning>), BuildError> {
    check_wall_map(map)?;
    let grid = choose_grid(&map.vertices, opts.block_size);
    let walls: Vec<WallRecord> = map
        .walls
        .iter()
        .map(|w| WallRecord {
            v1: w.v1 as u16,
            v2: w.v2 as u16,
            front: w.front as u16,
            back: w.back.map_or(NO_SECTOR, |b| b as u16),
            flags: w.flags,
            front_side: w.front_side,
            back_side: w.back_side,
            length: wall_length_between(map.vertices[w.v1], map.vertices[w.v2]),
        })
        .collect();
    let wall_sites: Vec<Site> = map.walls.iter().map(|w| Site::Line(w.origin)).collect();
    let (sectors, sector_walls) = sector_wall_lists(&map.sectors, &walls);
    let lists = block_lists(&grid, &map.vertices, &walls);
    let mut warnings = crossings(&map.vertices, &walls, &wall_sites, &lists, usize::MAX);
    if warnings.len() > MAX_CROSSING_WARNINGS {
        let more = warnings.len() - MAX_CROSSING_WARNINGS;
        warnings.truncate(MAX_CROSSING_WARNINGS);
        warnings.push(err(
            Site::Map,
            format!("{more} more pairs of crossing or overlapping walls"),
        ));
    }
    let parts = Parts {
        title: &map.title,
        vertices: &map.vertices,
        walls: &walls,
        sides: &map.sides,
        sectors: &sectors,
        sector_walls: &sector_walls,
        things: &map.things,
        wall_specials: &map.specials,
        switches: &map.switches,
        rotations: &map.rotations,
        grid: &grid,
        lists: &lists,
        textures: Some(&map.textures),
    };
    // The map's own BSP; else (a UDMF map, ZDoom's nodes, a BSP that did
    // not convert or that the engine refuses) our node builder's: every
    // compiled map has one (the renderer draws by it).
    let own_bsp = || {
        crate::nodes::build(&map.vertices, &walls)
            .map_err(no_bsp)
            .and_then(|own| emit(parts, &own))
    };
    let compiled = match &map.bsp {
        Some(theirs) => match emit(parts, theirs) {
            Ok(compiled) => compiled,
            Err(e) => {
                warnings.push(err(
                    Site::Map,
                    format!(
                        "the map's BSP is not kept: {}; built another",
                        e.message.trim_start_matches("internal: ")
                    ),
                ));
                own_bsp()?
            }
        },
        None => own_bsp()?,
    };
    Ok((compiled, warnings))
}

/// The error for a map our node builder cannot make a BSP of.
fn no_bsp(why: String) -> BuildError {
    err(Site::Map, format!("cannot build the map's BSP: {why}"))
}

/// The value checks of [`build_walls`]: everything the engine's loader
/// would refuse, named by the wall's origin.
fn check_wall_map(map: &WallMap) -> Result<(), BuildError> {
    if map.sectors.is_empty() {
        return Err(err(Site::Map, "the map has no sectors"));
    }
    if map.walls.is_empty() {
        return Err(err(Site::Map, "the map has no walls"));
    }
    first_error([
        too_many("vertices", map.vertices.len(), config::MAX_VERTICES),
        too_many("walls", map.walls.len(), config::MAX_WALLS),
        too_many("sectors", map.sectors.len(), config::MAX_SECTORS),
        too_many("things", map.things.len(), config::MAX_THINGS),
        too_many(
            "sprite rotation sets",
            map.rotations.len(),
            config::MAX_THINGS,
        ),
        too_many("wall sides", map.sides.len(), 2 * config::MAX_WALLS),
        too_many("textures", map.textures.records.len(), config::MAX_TEXTURES),
    ])?;
    check_vertices(&map.vertices)?;
    let textures = map.textures.records.len();
    let texture_ok = |t: u16, sky_ok: bool| {
        t == NONE || (sky_ok && t == engine::format::SKY) || (t as usize) < textures
    };
    for (i, s) in map.sectors.iter().enumerate() {
        check_heights(i, s.floor, s.ceiling)?;
        if !texture_ok(s.floor_texture, true) || !texture_ok(s.ceiling_texture, true) {
            return Err(err(Site::Sector(i), "texture index out of range"));
        }
    }
    for (i, s) in map.sides.iter().enumerate() {
        if ![s.upper, s.middle, s.lower]
            .iter()
            .all(|&t| texture_ok(t, false))
        {
            return Err(err(
                Site::Map,
                format!("wall side {i}: texture index out of range"),
            ));
        }
    }
    let side_ok = |s: u16| s == NONE || (s as usize) < map.sides.len();
    for w in &map.walls {
        let site = Site::Line(w.origin);
        if w.v1 >= map.vertices.len() || w.v2 >= map.vertices.len() {
            return Err(err(site, "vertex index out of range"));
        }
        if w.front >= map.sectors.len() || w.back.is_some_and(|b| b >= map.sectors.len()) {
            return Err(err(site, "sector index out of range"));
        }
        if !side_ok(w.front_side) || !side_ok(w.back_side) {
            return Err(err(site, "side index out of range"));
        }
        if map.vertices[w.v1] == map.vertices[w.v2] {
            return Err(err(site, "zero-length wall: both ends at the same point"));
        }
    }
    for (i, r) in map.rotations.iter().enumerate() {
        if !r
            .textures
            .iter()
            .all(|&t| ((t & !MIRRORED) as usize) < textures)
        {
            return Err(err(
                Site::Map,
                format!("sprite rotation set {i}: texture index out of range"),
            ));
        }
    }
    check_things(&map.things, map.rotations.len(), |t| texture_ok(t, false))
}

/// Everything the shared tail emits.
#[derive(Copy, Clone)]
struct Parts<'a> {
    title: &'a str,
    vertices: &'a [Vec2],
    walls: &'a [WallRecord],
    sides: &'a [SideRecord],
    sectors: &'a [SectorRecord],
    sector_walls: &'a [u16],
    things: &'a [ThingRecord],
    wall_specials: &'a [WallSpecialRecord],
    switches: &'a [SwitchRecord],
    rotations: &'a [RotationRecord],
    grid: &'a Grid,
    lists: &'a [Vec<u16>],
    textures: Option<&'a PackedTextures>,
}

/// Writes the compiled map with `bsp` and checks it with the engine's own
/// loader.
fn emit(p: Parts<'_>, bsp: &BspRecords) -> Result<Compiled, BuildError> {
    let grid = p.grid;
    let mut offsets: Vec<u32> = Vec::with_capacity(p.lists.len() + 1);
    let mut entries: Vec<u16> = Vec::new();
    offsets.push(0);
    for list in p.lists {
        entries.extend_from_slice(list);
        offsets.push(entries.len() as u32);
    }
    if entries.len() > config::MAX_BLOCK_ENTRIES {
        return Err(err(
            Site::Map,
            "the blockmap is too large; use a larger block size",
        ));
    }
    let max_walls_per_block = p.lists.iter().map(Vec::len).max().unwrap_or(0);
    let vertices: Vec<VertexRecord> = p
        .vertices
        .iter()
        .map(|v| VertexRecord { x: v.x, y: v.y })
        .collect();

    // The format holds at most MAX_TITLE bytes: cut at a character boundary.
    let mut title_len = p.title.len().min(engine::format::size::MAX_TITLE);
    while !p.title.is_char_boundary(title_len) {
        title_len -= 1;
    }
    let title = &p.title[..title_len];
    // Sorted by wall, one special a wall (the first given wins).
    let mut wall_specials = p.wall_specials.to_vec();
    wall_specials.sort_by_key(|s| s.wall);
    wall_specials.dedup_by_key(|s| s.wall);
    let mut switches = p.switches.to_vec();
    switches.sort_by_key(|s| s.wall);
    switches.dedup_by_key(|s| s.wall);
    let mut repr = MapRepr {
        title,
        vertices: &vertices,
        walls: p.walls,
        sides: p.sides,
        sectors: p.sectors,
        sector_walls: p.sector_walls,
        things: p.things,
        rotations: p.rotations,
        wall_specials: &wall_specials,
        switches: &switches,
        blockmap: BlockmapRepr {
            origin_x: grid.origin_x,
            origin_y: grid.origin_y,
            block_size: grid.block_size,
            cols: grid.cols,
            rows: grid.rows,
            offsets: &offsets,
            entries: &entries,
        },
        ..MapRepr::default()
    };
    if let Some(t) = p.textures {
        repr.textures = &t.records;
        repr.texture_pixels = &t.pixels;
        repr.texture_names = &t.names;
        repr.palette = t.palette.as_ref();
        repr.colormap = t.colormap.as_deref();
        repr.sky = t.sky;
    }
    repr.bsp = BspRepr {
        nodes: &bsp.nodes,
        segs: &bsp.segs,
        subsectors: &bsp.subsectors,
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
    let texture_bytes = p.textures.map_or(0, |t| {
        use engine::format::size;
        t.records.len() * size::TEXTURE
            + t.pixels.len()
            + t.names.len() * size::TEXTURE_NAME
            + t.palette.map_or(0, |_| size::PALETTE)
            + t.colormap.as_ref().map_or(0, |_| size::COLORMAP)
            + t.sky.map_or(0, |_| 2)
    });
    let stats = BuildStats {
        vertices: vertices.len(),
        walls: p.walls.len(),
        portals: p.walls.iter().filter(|w| w.back != NO_SECTOR).count(),
        sectors: p.sectors.len(),
        things: p.things.len(),
        block_size: grid.block_size,
        block_cols: grid.cols,
        block_rows: grid.rows,
        max_walls_per_block,
        block_entries: entries.len(),
        bytes: bytes.len(),
        texture_bytes,
        textures: p.textures.map_or(0, |t| t.records.len()),
        bsp: (bsp.nodes.len(), bsp.segs.len(), bsp.subsectors.len()),
    };
    Ok(Compiled { bytes, stats })
}

/// See step 6 of [`build`]. Checking the right (front) side is enough:
/// the left side differs from it exactly by the wall's own sectors, so if
/// the right side is enclosed by the front sector alone, the left side is
/// enclosed by the back sector alone (or by none, behind a one-sided wall).
fn check_nesting(
    map: &SourceMap,
    walls: &[WallRecord],
    wall_sites: &[Site],
    grid: &Grid,
) -> Result<(), BuildError> {
    let segs: Vec<(Vec2, Vec2)> = walls
        .iter()
        .map(|w| (map.vertices[w.v1 as usize], map.vertices[w.v2 as usize]))
        .collect();
    let mut index = SegmentIndex::new(grid, &segs);
    let mut parity: Vec<bool> = vec![false; map.sectors.len()];
    let mut touched: Vec<usize> = Vec::new();
    let sides = |w: &WallRecord| {
        // A wall with one sector on both sides is two edges of that
        // sector's loops: it toggles twice, which is not at all.
        let back = (w.back != NO_SECTOR && w.back != w.front).then_some(w.back as usize);
        [Some(w.front as usize), back].into_iter().flatten()
    };
    for (wi, w) in walls.iter().enumerate() {
        index.crossings(midpoint(segs[wi].0, segs[wi].1), |o| {
            if o != wi {
                for s in sides(&walls[o]) {
                    parity[s] = !parity[s];
                    touched.push(s);
                }
            }
        });
        // The reference point is on the left: cross this wall to the right.
        if reference_is_left(segs[wi].0, segs[wi].1) {
            for s in sides(w) {
                parity[s] = !parity[s];
                touched.push(s);
            }
        }
        let front = w.front as usize;
        let intruder = touched.iter().copied().find(|&s| parity[s] && s != front);
        for &s in &touched {
            parity[s] = false;
        }
        touched.clear();
        if let Some(s) = intruder {
            return Err(err(
                wall_sites[wi].clone(),
                "overlapping sectors: the area beside this wall is inside another sector too",
            )
            .note(Site::Sector(s), "the other sector")
            .help(
                "a platform, pillar or pool of light inside a sector must also be a loop of \
                 that sector (a hole in it)",
            ));
        }
    }
    Ok(())
}

/// The length of the wall from vertex `a` to vertex `b`, for texture
/// coordinates (host floating point, rounded once to 16.16).
fn wall_length(map: &SourceMap, a: usize, b: usize) -> Fx {
    wall_length_between(map.vertices[a], map.vertices[b])
}

/// The length from `p` to `q` (host floating point, rounded once).
fn wall_length_between(p: Vec2, q: Vec2) -> Fx {
    let dx = q.x.to_num::<f64>() - p.x.to_num::<f64>();
    let dy = q.y.to_num::<f64>() - p.y.to_num::<f64>();
    Fx::saturating_from_num((dx * dx + dy * dy).sqrt())
}

fn describe(site: &Site) -> String {
    match site {
        Site::LoopEdge {
            sector,
            loop_index,
            index,
        } => format!("sector {sector}, loop {loop_index}, edge {index}"),
        Site::Map => "map".to_string(),
        Site::Vertex(i) => format!("vertex {i}"),
        Site::Sector(i) => format!("sector {i}"),
        Site::Thing(i) => format!("thing {i}"),
        Site::Line(i) => format!("linedef {i}"),
        Site::Special(i) => format!("special {i}"),
        Site::Scroll(i) => format!("scrolling wall {i}"),
        Site::Side(i) => format!("side {i}"),
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
            specials: Vec::new(),
            scrolls: Vec::new(),
            sides: Vec::new(),
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
    fn a_sector_inside_another_must_be_a_hole_of_it() {
        let mut m = square_room();
        for (x, y) in [(100, 100), (150, 100), (150, 150)] {
            m.vertices.push(Vec2::from_int(x, y));
        }
        m.sectors.push(SourceSector {
            floor: Fx::from_num(8),
            ceiling: Fx::from_num(128),
            loops: vec![vec![4, 5, 6]],
            ..Default::default()
        });
        let e = build(&m, BuildOptions::default()).unwrap_err();
        assert!(e.message.contains("overlapping sectors"), "{e}");
        assert!(matches!(e.site, Site::LoopEdge { sector: 1, .. }), "{e:?}");
        assert_eq!(e.notes[0].0, Site::Sector(0));
        assert!(e.help.is_some());
        // As a hole of the room too, it is a platform with portals.
        m.sectors[0].loops.push(vec![4, 5, 6]);
        let c = build(&m, BuildOptions::default()).unwrap();
        assert_eq!(c.stats.portals, 3);
        let level = engine::world::Level::load(&c.bytes).unwrap();
        let id = |x, y| level.locate(Vec2::from_int(x, y));
        assert_eq!(id(140, 110), Some(engine::world::SectorId(1)));
        assert_eq!(id(20, 20), Some(engine::world::SectorId(0)));
        // A hole with no sector is a pillar: outside everything.
        m.sectors.pop();
        let c = build(&m, BuildOptions::default()).unwrap();
        let level = engine::world::Level::load(&c.bytes).unwrap();
        assert_eq!(level.locate(Vec2::from_int(140, 110)), None);
    }

    #[test]
    fn crossings_are_exact_for_fractional_coordinates() {
        // A triangle east of the room whose west point is a hair
        // (1/65536) inside the room's east wall crosses it; exactly on it
        // is a T-junction; both refused, while a hair outside is fine.
        let hair = Fx::from_bits(1);
        for (dx, refused) in [(-hair, true), (Fx::ZERO, true), (hair, false)] {
            let mut m = square_room();
            let x = Fx::from_num(256) + dx;
            m.vertices.push(Vec2::new(x, Fx::from_num(100.3)));
            m.vertices
                .push(Vec2::new(Fx::from_num(300), Fx::from_num(120.7)));
            m.vertices
                .push(Vec2::new(Fx::from_num(300), Fx::from_num(80.1)));
            m.sectors.push(SourceSector {
                ceiling: Fx::from_num(64),
                loops: vec![vec![4, 5, 6]],
                ..Default::default()
            });
            let r = build(&m, BuildOptions::default());
            assert_eq!(r.is_err(), refused, "{dx}: {r:?}");
        }
    }

    #[test]
    fn long_titles_are_cut_at_a_character_boundary() {
        let mut m = square_room();
        m.title = "é".repeat(100); // 200 bytes
        let c = build(&m, BuildOptions::default()).unwrap();
        let level = engine::world::Level::load(&c.bytes).unwrap();
        assert_eq!(level.map().title(), "é".repeat(64));
    }

    #[test]
    fn errors_name_their_sites_and_notes() {
        let mut m = square_room();
        m.vertices.push(Vec2::from_int(256, 0));
        let e = build(&m, BuildOptions::default()).unwrap_err();
        assert_eq!(e.site, Site::Vertex(4));
        assert_eq!(e.notes, [(Site::Vertex(1), "the other vertex".to_string())]);
        assert_eq!(
            e.to_string(),
            "vertex 4: duplicate vertex: another vertex is already at (256, 0); vertex 1: the \
             other vertex"
        );
    }

    #[test]
    fn output_is_deterministic() {
        let a = build(&square_room(), BuildOptions::default()).unwrap();
        let b = build(&square_room(), BuildOptions::default()).unwrap();
        assert_eq!(a.bytes, b.bytes);
    }
}
