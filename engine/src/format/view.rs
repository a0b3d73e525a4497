//! The checked, zero-copy view over a compiled map.

use super::blockmap::{blocks_touching_disc, for_each_block_touching_segment, Grid};
use super::bsp::BspView;
use super::bytes::{i32_at, u16_at, u32_at, u8_at};
use super::error::BlockmapFault;
use super::{
    kind, sector_special, size, tag, trigger, wall_action, LoadError, RotationRecord, SectorRecord,
    SideRecord, SwitchRecord, TextureRecord, ThingRecord, VertexRecord, WallRecord,
    WallSpecialRecord, DIR_ENTRY_LEN, HEADER_LEN, MAGIC, MAX_SECTIONS, MIRRORED, NONE, NO_SECTOR,
    SKY, VERSION,
};
use crate::config;
use crate::math::{Fx, Vec2};

/// A compiled map, validated once, read in place.
///
/// Every accessor is total: given an index the view handed out (or any
/// index below the matching `*_count`) it returns that record; given any
/// other index it returns a zeroed record rather than panicking.
#[derive(Copy, Clone, Debug)]
pub struct MapView<'a> {
    vertices: &'a [u8],
    walls: &'a [u8],
    sides: &'a [u8],
    textures: &'a [u8],
    texture_pixels: &'a [u8],
    texture_names: &'a [u8],
    palette: Option<&'a [u8]>,
    colormap: Option<&'a [u8]>,
    sky: Option<u16>,
    sectors: &'a [u8],
    sector_walls: &'a [u8],
    things: &'a [u8],
    rotations: &'a [u8],
    wall_specials: &'a [u8],
    switches: &'a [u8],
    title: &'a [u8],
    blockmap: BlockmapView<'a>,
    solid_things: BlockLists<'a>,
    bsp: BspView<'a>,
}

/// The blockmap part of a [`MapView`].
#[derive(Copy, Clone, Debug, Default)]
pub struct BlockmapView<'a> {
    grid: Grid,
    walls: BlockLists<'a>,
}

/// One list of `u16` indices per block: `blocks + 1` `u32` offsets into
/// the entries, then the entries (the wall lists of `BMAP`, the solid
/// thing lists of `STBK`).
#[derive(Copy, Clone, Debug, Default)]
struct BlockLists<'a> {
    offsets: &'a [u8],
    entries: &'a [u8],
}

const KNOWN: [[u8; 4]; 21] = [
    tag::VERTICES,
    tag::WALLS,
    tag::SECTORS,
    tag::SECTOR_WALLS,
    tag::THINGS,
    tag::BLOCKMAP,
    tag::INFO,
    tag::SIDES,
    tag::TEXTURES,
    tag::TEXTURE_PIXELS,
    tag::TEXTURE_NAMES,
    tag::PALETTE,
    tag::COLORMAP,
    tag::SKY,
    tag::BSP_NODES,
    tag::BSP_SEGS,
    tag::BSP_SUBSECTORS,
    tag::SOLID_THINGS,
    tag::WALL_SPECIALS,
    tag::SPRITE_ROTATIONS,
    tag::SWITCHES,
];

struct Sections<'a> {
    found: [Option<&'a [u8]>; KNOWN.len()],
}

fn read_directory(bytes: &[u8]) -> Result<Sections<'_>, LoadError> {
    if bytes.len() < HEADER_LEN {
        return Err(LoadError::Truncated {
            needed: HEADER_LEN,
            len: bytes.len(),
        });
    }
    if bytes.get(0..4) != Some(&MAGIC[..]) {
        return Err(LoadError::BadMagic);
    }
    let version = u16_at(bytes, 4);
    if version != VERSION {
        return Err(LoadError::UnsupportedVersion(version));
    }
    let count = u16_at(bytes, 6);
    if count as usize > MAX_SECTIONS {
        return Err(LoadError::TooManySections(count));
    }
    let dir_end = HEADER_LEN + count as usize * DIR_ENTRY_LEN;
    if bytes.len() < dir_end {
        return Err(LoadError::Truncated {
            needed: dir_end,
            len: bytes.len(),
        });
    }
    let mut sections = Sections {
        found: [None; KNOWN.len()],
    };
    for i in 0..count as usize {
        let at = HEADER_LEN + i * DIR_ENTRY_LEN;
        let mut t = [0u8; 4];
        for (k, b) in t.iter_mut().enumerate() {
            *b = u8_at(bytes, at + k);
        }
        let offset = u32_at(bytes, at + 4) as usize;
        let len = u32_at(bytes, at + 8) as usize;
        let body = offset
            .checked_add(len)
            .and_then(|end| bytes.get(offset..end))
            .ok_or(LoadError::SectionOutOfBounds(t))?;
        if let Some(slot) = KNOWN.iter().position(|k| *k == t) {
            if sections.found[slot].is_some() {
                return Err(LoadError::DuplicateSection(t));
            }
            sections.found[slot] = Some(body);
        }
    }
    Ok(sections)
}

impl<'a> Sections<'a> {
    fn get(&self, t: [u8; 4]) -> Option<&'a [u8]> {
        let slot = KNOWN.iter().position(|k| *k == t)?;
        self.found[slot]
    }

    fn records(&self, t: [u8; 4], record: usize) -> Result<&'a [u8], LoadError> {
        whole_records(self.get(t).ok_or(LoadError::MissingSection(t))?, t, record)
    }
}

/// `body`, the section tagged `t`, if it is a whole number of `record`s.
pub(super) fn whole_records(body: &[u8], t: [u8; 4], record: usize) -> Result<&[u8], LoadError> {
    if !body.len().is_multiple_of(record) {
        return Err(LoadError::BadSectionLength(t));
    }
    Ok(body)
}

pub(super) fn in_range(v: Fx) -> bool {
    let limit = Fx::from_num(config::MAX_COORDINATE);
    v >= -limit && v <= limit
}

/// The index of `wall`'s entry in a list of `count` entries sorted by
/// wall (`wall_of(i)` is entry `i`'s), by binary search.
fn index_by_wall(count: usize, wall_of: impl Fn(usize) -> u16, wall: u16) -> Option<usize> {
    let (mut lo, mut hi) = (0, count);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match wall_of(mid).cmp(&wall) {
            core::cmp::Ordering::Equal => return Some(mid),
            core::cmp::Ordering::Less => lo = mid + 1,
            core::cmp::Ordering::Greater => hi = mid,
        }
    }
    None
}

pub(super) fn too_many(what: &'static str, count: usize, max: usize) -> Result<(), LoadError> {
    if count > max {
        Err(LoadError::TooMany { what, count, max })
    } else {
        Ok(())
    }
}

impl<'a> MapView<'a> {
    /// Validates `bytes` as a compiled map and returns a view over it.
    ///
    /// Checks the header, the directory, every record's indices and values
    /// against the capacity limits in [`crate::config`], every sector's
    /// wall list and the blockmap's structure and contents. Time and memory
    /// are linear in the file size (no allocation at all).
    pub fn new_checked(bytes: &'a [u8]) -> Result<Self, LoadError> {
        let sections = read_directory(bytes)?;
        let vertices = sections.records(tag::VERTICES, size::VERTEX)?;
        let walls = sections.records(tag::WALLS, size::WALL)?;
        let sectors = sections.records(tag::SECTORS, size::SECTOR)?;
        let sector_walls = sections.records(tag::SECTOR_WALLS, size::SECTOR_WALL)?;
        let things = sections.records(tag::THINGS, size::THING)?;
        let rotations = match sections.get(tag::SPRITE_ROTATIONS) {
            Some(body) => whole_records(body, tag::SPRITE_ROTATIONS, size::SPRITE_ROTATIONS)?,
            None => &[],
        };
        let wall_specials = match sections.get(tag::WALL_SPECIALS) {
            Some(body) => whole_records(body, tag::WALL_SPECIALS, size::WALL_SPECIAL)?,
            None => &[],
        };
        let switches = match sections.get(tag::SWITCHES) {
            Some(body) => whole_records(body, tag::SWITCHES, size::SWITCH)?,
            None => &[],
        };
        let bmap = sections
            .get(tag::BLOCKMAP)
            .ok_or(LoadError::MissingSection(tag::BLOCKMAP))?;
        let title = sections.get(tag::INFO).unwrap_or(&[]);
        if title.len() > size::MAX_TITLE {
            return Err(LoadError::BadSectionLength(tag::INFO));
        }
        let sides = sections.records(tag::SIDES, size::SIDE)?;
        let textures = sections.records(tag::TEXTURES, size::TEXTURE)?;
        let texture_pixels = sections
            .get(tag::TEXTURE_PIXELS)
            .ok_or(LoadError::MissingSection(tag::TEXTURE_PIXELS))?;
        let texture_names = sections.get(tag::TEXTURE_NAMES).unwrap_or(&[]);
        if !texture_names.is_empty()
            && texture_names.len() != textures.len() / size::TEXTURE * size::TEXTURE_NAME
        {
            return Err(LoadError::BadSectionLength(tag::TEXTURE_NAMES));
        }
        let exact = |t: [u8; 4], len: usize| match sections.get(t) {
            Some(b) if b.len() != len => Err(LoadError::BadSectionLength(t)),
            other => Ok(other),
        };
        let palette = exact(tag::PALETTE, size::PALETTE)?;
        let colormap = exact(tag::COLORMAP, size::COLORMAP)?;
        let sky = exact(tag::SKY, 2)?.map(|b| u16_at(b, 0));

        let nv = vertices.len() / size::VERTEX;
        let nw = walls.len() / size::WALL;
        let ns = sectors.len() / size::SECTOR;
        let nsw = sector_walls.len() / size::SECTOR_WALL;
        let nt = things.len() / size::THING;
        too_many("vertices", nv, config::MAX_VERTICES)?;
        too_many("walls", nw, config::MAX_WALLS)?;
        too_many("sectors", ns, config::MAX_SECTORS)?;
        too_many("sector wall entries", nsw, 2 * config::MAX_WALLS)?;
        too_many("things", nt, config::MAX_THINGS)?;
        // (Each set is some thing's, or no thing's: never more sets than
        // things are useful.)
        too_many(
            "sprite rotation sets",
            rotations.len() / size::SPRITE_ROTATIONS,
            config::MAX_THINGS,
        )?;
        too_many("sides", sides.len() / size::SIDE, 2 * config::MAX_WALLS)?;
        too_many(
            "textures",
            textures.len() / size::TEXTURE,
            config::MAX_TEXTURES,
        )?;
        if ns == 0 {
            return Err(LoadError::NoSectors);
        }

        let blockmap = BlockmapView::parse(bmap)?;
        let mut view = MapView {
            vertices,
            walls,
            sides,
            textures,
            texture_pixels,
            texture_names,
            palette,
            colormap,
            sky,
            sectors,
            sector_walls,
            things,
            rotations,
            wall_specials,
            switches,
            title,
            blockmap,
            solid_things: BlockLists::default(),
            bsp: BspView::default(),
        };
        view.check_textures()?;
        view.check_vertices()?;
        view.check_sides()?;
        view.check_walls()?;
        view.check_sectors()?;
        view.check_rotations()?;
        view.check_wall_specials()?;
        view.check_switches()?;
        view.check_things()?;
        view.check_blockmap()?;
        view.solid_things = view.check_solid_things(sections.get(tag::SOLID_THINGS))?;
        // After the walls and sectors, which the BSP refers to.
        view.bsp = BspView::parse(
            sections.get(tag::BSP_NODES),
            sections.get(tag::BSP_SEGS),
            sections.get(tag::BSP_SUBSECTORS),
            &view,
        )?;
        // Keep the view honest even if a check above is ever relaxed.
        view.title = title;
        Ok(view)
    }

    fn check_textures(&self) -> Result<(), LoadError> {
        for i in 0..self.texture_count() {
            let t = self.texture_record(i);
            let bytes = t.width as usize * t.height as usize;
            let fits = (t.offset as usize)
                .checked_add(bytes)
                .is_some_and(|end| end <= self.texture_pixels.len());
            if t.width == 0
                || t.height == 0
                || t.width > size::MAX_TEXTURE_WIDTH
                || t.height > size::MAX_TEXTURE_HEIGHT
                || !fits
            {
                return Err(LoadError::ValueOutOfRange {
                    what: "texture",
                    index: i,
                });
            }
        }
        if let Some(sky) = self.sky {
            self.check_texture_ref("sky", 0, sky, false)?;
        }
        Ok(())
    }

    /// A texture index must be in range, [`NONE`], or (for sector
    /// surfaces) [`SKY`].
    fn check_texture_ref(
        &self,
        what: &'static str,
        index: usize,
        t: u16,
        sky_ok: bool,
    ) -> Result<(), LoadError> {
        if t == NONE || (sky_ok && t == SKY) || (t as usize) < self.texture_count() {
            Ok(())
        } else {
            Err(LoadError::IndexOutOfRange {
                what,
                index,
                value: t as u32,
            })
        }
    }

    fn check_sides(&self) -> Result<(), LoadError> {
        for i in 0..self.side_count() {
            let s = self.side(i);
            for t in [s.upper, s.middle, s.lower] {
                self.check_texture_ref("side", i, t, false)?;
            }
        }
        Ok(())
    }

    fn check_vertices(&self) -> Result<(), LoadError> {
        for i in 0..self.vertex_count() {
            let v = self.vertex(i);
            if !in_range(v.x) || !in_range(v.y) {
                return Err(LoadError::ValueOutOfRange {
                    what: "vertex",
                    index: i,
                });
            }
        }
        Ok(())
    }

    fn check_walls(&self) -> Result<(), LoadError> {
        let nv = self.vertex_count();
        let ns = self.sector_count();
        for i in 0..self.wall_count() {
            let w = self.wall(i);
            for v in [w.v1, w.v2] {
                if v as usize >= nv {
                    return Err(LoadError::IndexOutOfRange {
                        what: "wall",
                        index: i,
                        value: v as u32,
                    });
                }
            }
            if w.front as usize >= ns {
                return Err(LoadError::IndexOutOfRange {
                    what: "wall",
                    index: i,
                    value: w.front as u32,
                });
            }
            if w.back != NO_SECTOR && w.back as usize >= ns {
                return Err(LoadError::IndexOutOfRange {
                    what: "wall",
                    index: i,
                    value: w.back as u32,
                });
            }
            for side in [w.front_side, w.back_side] {
                if side != NONE && side as usize >= self.side_count() {
                    return Err(LoadError::IndexOutOfRange {
                        what: "wall",
                        index: i,
                        value: side as u32,
                    });
                }
            }
            if self.vertex(w.v1 as usize) == self.vertex(w.v2 as usize) {
                return Err(LoadError::ZeroLengthWall(i));
            }
        }
        Ok(())
    }

    fn check_sectors(&self) -> Result<(), LoadError> {
        let nsw = self.sector_walls.len() / size::SECTOR_WALL;
        let nw = self.wall_count();
        for i in 0..self.sector_count() {
            let s = self.sector(i);
            if !in_range(s.floor) || !in_range(s.ceiling) {
                return Err(LoadError::ValueOutOfRange {
                    what: "sector",
                    index: i,
                });
            }
            if s.ceiling < s.floor {
                return Err(LoadError::CeilingBelowFloor(i));
            }
            if !sector_special::is_known(s.special) {
                return Err(LoadError::ValueOutOfRange {
                    what: "sector special",
                    index: i,
                });
            }
            self.check_texture_ref("sector", i, s.floor_texture, true)?;
            self.check_texture_ref("sector", i, s.ceiling_texture, true)?;
            let end = (s.first_wall as usize).checked_add(s.wall_count as usize);
            if end.is_none_or(|e| e > nsw) {
                return Err(LoadError::IndexOutOfRange {
                    what: "sector",
                    index: i,
                    value: s.first_wall,
                });
            }
            for k in 0..s.wall_count as usize {
                let w = u16_at(self.sector_walls, (s.first_wall as usize + k) * 2) as usize;
                if w >= nw {
                    return Err(LoadError::IndexOutOfRange {
                        what: "sector wall entry",
                        index: s.first_wall as usize + k,
                        value: w as u32,
                    });
                }
                let wall = self.wall(w);
                if wall.front as usize != i && wall.back as usize != i {
                    return Err(LoadError::ForeignWall { sector: i, wall: w });
                }
            }
        }
        Ok(())
    }

    fn check_things(&self) -> Result<(), LoadError> {
        let mut player = false;
        let mut keys = 0;
        for i in 0..self.thing_count() {
            let t = self.thing(i);
            keys += usize::from(kind::is_key(t.kind));
            let bad_radius =
                (t.kind == kind::PUSHABLE || t.kind == kind::SOLID || kind::is_key(t.kind))
                    && (t.radius <= Fx::ZERO || t.radius > Fx::from_num(config::MAX_BODY_SIZE));
            if !in_range(t.x)
                || !in_range(t.y)
                || t.angle < Fx::ZERO
                || t.angle >= Fx::from_num(360)
                || bad_radius
            {
                return Err(LoadError::ValueOutOfRange {
                    what: "thing",
                    index: i,
                });
            }
            self.check_texture_ref("thing", i, t.sprite, false)?;
            if t.rotations as usize > self.rotation_set_count() {
                return Err(LoadError::IndexOutOfRange {
                    what: "thing's rotations",
                    index: i,
                    value: t.rotations as u32,
                });
            }
            player |= t.kind == kind::PLAYER_START;
        }
        too_many("keys", keys, config::MAX_KEY_THINGS)?;
        if !player {
            return Err(LoadError::NoPlayerStart);
        }
        Ok(())
    }

    /// Every special names a wall, in order, once, with an action and a
    /// trigger this engine knows.
    fn check_wall_specials(&self) -> Result<(), LoadError> {
        let mut prev: Option<u16> = None;
        for i in 0..self.wall_special_count() {
            let s = self.wall_special_at(i);
            self.check_listed_wall(
                i,
                s.wall,
                prev,
                "wall special's wall",
                "wall special (not sorted by wall, or a wall twice)",
            )?;
            if !wall_action::is_known(s.action) || !trigger::is_valid(s.trigger) {
                return Err(LoadError::ValueOutOfRange {
                    what: "wall special",
                    index: i,
                });
            }
            prev = Some(s.wall);
        }
        Ok(())
    }

    /// Entry `i` of a list sorted by wall (the wall specials, the
    /// switches) names wall `wall`, after `prev`, the one before: a wall
    /// the map has, in order, once. `what_wall` and `what_order` name the
    /// two faults.
    fn check_listed_wall(
        &self,
        i: usize,
        wall: u16,
        prev: Option<u16>,
        what_wall: &'static str,
        what_order: &'static str,
    ) -> Result<(), LoadError> {
        if wall as usize >= self.wall_count() {
            return Err(LoadError::IndexOutOfRange {
                what: what_wall,
                index: i,
                value: wall as u32,
            });
        }
        if prev.is_some_and(|p| p >= wall) {
            return Err(LoadError::ValueOutOfRange {
                what: what_order,
                index: i,
            });
        }
        Ok(())
    }

    /// Every switch names a wall, in order, once, and textures the map
    /// has (or none).
    fn check_switches(&self) -> Result<(), LoadError> {
        let mut prev: Option<u16> = None;
        for i in 0..self.switch_count() {
            let s = self.switch_at(i);
            self.check_listed_wall(
                i,
                s.wall,
                prev,
                "switch's wall",
                "switch (not sorted by wall, or a wall twice)",
            )?;
            for t in [s.upper, s.middle, s.lower] {
                self.check_texture_ref("switch's texture", i, t, false)?;
            }
            prev = Some(s.wall);
        }
        Ok(())
    }

    /// Every rotation names a texture, as a thing's sprite may (but not
    /// [`NONE`]: a set has all eight).
    fn check_rotations(&self) -> Result<(), LoadError> {
        for i in 0..self.rotation_set_count() {
            for e in self.rotation_set(i).textures {
                if (e & !MIRRORED) as usize >= self.texture_count() {
                    return Err(LoadError::IndexOutOfRange {
                        what: "sprite rotation set",
                        index: i,
                        value: e as u32,
                    });
                }
            }
        }
        Ok(())
    }

    fn check_blockmap(&self) -> Result<(), LoadError> {
        let bm = &self.blockmap;
        let grid = bm.grid;
        let nw = self.wall_count();
        let fault = |f| Err(LoadError::BadBlockmap(f));
        // The grid covers every vertex, so every wall lies inside it.
        for i in 0..self.vertex_count() {
            let v = self.vertex(i);
            if grid.block_of(Vec2::new(v.x, v.y)).is_none() {
                return fault(BlockmapFault::DoesNotCoverMap);
            }
        }
        bm.walls
            .check_sorted(grid.block_count(), nw, "blockmap entry")?;
        // Every wall listed in every block it touches, and nowhere else:
        // with the lists unique, equal totals prove there are no extras.
        let mut expected: usize = 0;
        for w in 0..nw {
            let (a, b) = self.wall_points(w);
            let mut missing: Option<usize> = None;
            for_each_block_touching_segment(&grid, a, b, |block| {
                expected += 1;
                if missing.is_none() && !bm.walls.contains(block, w as u16) {
                    missing = Some(block);
                }
            });
            if let Some(block) = missing {
                return fault(BlockmapFault::MissingWall { wall: w, block });
            }
        }
        if expected != bm.walls.len() {
            return fault(BlockmapFault::ExtraEntries);
        }
        Ok(())
    }

    /// The solid things' lists: present exactly when a thing is solid,
    /// over the blockmap's grid, each solid thing listed in every block
    /// of its disc and nothing else listed.
    fn check_solid_things(&self, body: Option<&'a [u8]>) -> Result<BlockLists<'a>, LoadError> {
        let any_solid = self.things().any(|t| t.kind == kind::SOLID);
        let body = match body {
            None if any_solid => return Err(LoadError::MissingSection(tag::SOLID_THINGS)),
            None => return Ok(BlockLists::default()),
            Some(b) => b,
        };
        let fault = |f| Err(LoadError::BadSolidThings(f));
        // The lists' faults are the blockmap's kinds, named as these lists'.
        let of_things = |e| match e {
            LoadError::BadBlockmap(f) => LoadError::BadSolidThings(f),
            other => other,
        };
        let grid = self.blockmap.grid;
        let blocks = grid.block_count();
        let max = config::MAX_BLOCK_ENTRIES;
        let lists =
            BlockLists::parse(body, blocks, max, "solid thing entries").map_err(of_things)?;
        lists
            .check_sorted(blocks, self.thing_count(), "solid thing entry")
            .map_err(of_things)?;
        let mut expected: usize = 0;
        for (i, t) in self.things().enumerate() {
            if t.kind != kind::SOLID {
                continue;
            }
            let Some(range) = blocks_touching_disc(&grid, Vec2::new(t.x, t.y), t.radius) else {
                continue;
            };
            expected += range.len();
            if let Some(block) = range
                .blocks(grid.cols)
                .find(|&b| !lists.contains(b, i as u16))
            {
                return fault(BlockmapFault::MissingThing { thing: i, block });
            }
        }
        // Lists sorted and unique, every solid thing in each of its
        // blocks: equal totals leave no room for anything else.
        if expected != lists.len() {
            return fault(BlockmapFault::ExtraEntries);
        }
        Ok(lists)
    }

    /// The map's BSP.
    pub fn bsp(&self) -> BspView<'a> {
        self.bsp
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len() / size::VERTEX
    }

    /// Number of walls.
    pub fn wall_count(&self) -> usize {
        self.walls.len() / size::WALL
    }

    /// Number of sectors.
    pub fn sector_count(&self) -> usize {
        self.sectors.len() / size::SECTOR
    }

    /// Number of things.
    pub fn thing_count(&self) -> usize {
        self.things.len() / size::THING
    }

    /// The map's title (empty if none or not UTF-8).
    pub fn title(&self) -> &'a str {
        core::str::from_utf8(self.title).unwrap_or("")
    }

    /// Vertex `i`.
    pub fn vertex(&self, i: usize) -> VertexRecord {
        let d = record(self.vertices, i).unwrap_or(&[0; size::VERTEX]);
        VertexRecord {
            x: Fx::from_bits(i32_at(d, 0)),
            y: Fx::from_bits(i32_at(d, 4)),
        }
    }

    /// Wall `i`.
    pub fn wall(&self, i: usize) -> WallRecord {
        let d = record(self.walls, i).unwrap_or(&[0; size::WALL]);
        let r = |o: usize| u16_at(d, o);
        WallRecord {
            v1: r(0),
            v2: r(2),
            front: r(4),
            back: r(6),
            flags: r(8),
            front_side: r(10),
            back_side: r(12),
            length: Fx::from_bits(i32_at(d, 16)),
        }
    }

    /// Number of wall sides.
    pub fn side_count(&self) -> usize {
        self.sides.len() / size::SIDE
    }

    /// Side `i` (an untextured side for [`NONE`] or any index out of range).
    pub fn side(&self, i: usize) -> SideRecord {
        let Some(d) = record::<{ size::SIDE }>(self.sides, i) else {
            return SideRecord::default();
        };
        let r = |o: usize| u16_at(d, o);
        SideRecord {
            x_offset: r(0) as i16,
            y_offset: r(2) as i16,
            upper: r(4),
            middle: r(6),
            lower: r(8),
        }
    }

    /// Number of textures.
    pub fn texture_count(&self) -> usize {
        self.textures.len() / size::TEXTURE
    }

    /// Texture record `i`.
    pub fn texture_record(&self, i: usize) -> TextureRecord {
        let d = record(self.textures, i).unwrap_or(&[0; size::TEXTURE]);
        TextureRecord {
            width: u16_at(d, 0),
            height: u16_at(d, 2),
            offset: u32_at(d, 4),
            flags: u8_at(d, 8),
            transparent: u8_at(d, 9),
            left: u16_at(d, 10) as i16,
            top: u16_at(d, 12) as i16,
        }
    }

    /// Texture `i` with its pixels, or `None` for [`NONE`], [`SKY`] or any
    /// index out of range.
    pub fn texture(&self, i: u16) -> Option<TextureView<'a>> {
        if i as usize >= self.texture_count() {
            return None;
        }
        let r = self.texture_record(i as usize);
        let len = r.width as usize * r.height as usize;
        let pixels = self
            .texture_pixels
            .get(r.offset as usize..r.offset as usize + len)?;
        Some(TextureView {
            width: r.width,
            height: r.height,
            flags: r.flags,
            transparent: r.transparent,
            left: r.left,
            top: r.top,
            pixels,
        })
    }

    /// The name of texture `i` (empty if the map carries no names).
    pub fn texture_name(&self, i: usize) -> &'a str {
        let at = i.wrapping_mul(size::TEXTURE_NAME);
        let raw = self
            .texture_names
            .get(at..at.wrapping_add(size::TEXTURE_NAME))
            .unwrap_or(&[]);
        let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
        core::str::from_utf8(&raw[..end]).unwrap_or("")
    }

    /// The palette (768 bytes of RGB), if the map has its own.
    pub fn palette(&self) -> Option<&'a [u8]> {
        self.palette
    }

    /// The light table (32 maps of 256 palette indices, brightest first),
    /// if the map has one.
    pub fn colormap(&self) -> Option<&'a [u8]> {
        self.colormap
    }

    /// The sky texture, if the map has one.
    pub fn sky(&self) -> Option<u16> {
        self.sky
    }

    /// The two end points of wall `i`.
    pub fn wall_points(&self, i: usize) -> (Vec2, Vec2) {
        let w = self.wall(i);
        let a = self.vertex(w.v1 as usize);
        let b = self.vertex(w.v2 as usize);
        (Vec2::new(a.x, a.y), Vec2::new(b.x, b.y))
    }

    /// Sector `i`.
    pub fn sector(&self, i: usize) -> SectorRecord {
        let d = record(self.sectors, i).unwrap_or(&[0; size::SECTOR]);
        SectorRecord {
            floor: Fx::from_bits(i32_at(d, 0)),
            ceiling: Fx::from_bits(i32_at(d, 4)),
            light: u8_at(d, 8),
            floor_color: u8_at(d, 9),
            ceiling_color: u8_at(d, 10),
            wall_color: u8_at(d, 11),
            first_wall: u32_at(d, 12),
            wall_count: u32_at(d, 16),
            floor_texture: u16_at(d, 20),
            ceiling_texture: u16_at(d, 22),
            tag: u16_at(d, 24),
            special: u16_at(d, 26),
        }
    }

    /// Sector `i`'s floor, ceiling and wall colours (zeros out of range).
    #[inline]
    pub fn sector_colors(&self, i: usize) -> [u8; 3] {
        let d = record(self.sectors, i).unwrap_or(&[0; size::SECTOR]);
        [u8_at(d, 9), u8_at(d, 10), u8_at(d, 11)]
    }

    /// The walls that border sector `i`.
    pub fn sector_walls(&self, i: usize) -> impl Iterator<Item = usize> + 'a {
        let s = self.sector(i);
        let list = self.sector_walls;
        let first = s.first_wall as usize;
        (0..s.wall_count as usize).map(move |k| u16_at(list, (first + k) * 2) as usize)
    }

    /// Thing `i`.
    pub fn thing(&self, i: usize) -> ThingRecord {
        record(self.things, i).map_or_else(ThingRecord::default, thing_record)
    }

    /// All things, in order: record by record, each range checked once
    /// (the renderer reads every thing of the map each frame).
    pub fn things(&self) -> impl Iterator<Item = ThingRecord> + 'a {
        let things: &'a [u8] = self.things;
        things
            .chunks_exact(size::THING)
            .filter_map(|r| <&[u8; size::THING]>::try_from(r).ok())
            .map(thing_record)
    }

    /// Number of wall specials (entries of `WSPC`).
    pub fn wall_special_count(&self) -> usize {
        self.wall_specials.len() / size::WALL_SPECIAL
    }

    /// Wall special `i` in the list (all zeros for an index out of range).
    pub fn wall_special_at(&self, i: usize) -> WallSpecialRecord {
        let d = record(self.wall_specials, i).unwrap_or(&[0; size::WALL_SPECIAL]);
        WallSpecialRecord {
            wall: u16_at(d, 0),
            action: u8_at(d, 2),
            trigger: u8_at(d, 3),
            tag: u16_at(d, 4),
        }
    }

    /// Number of switches (entries of `SWTX`).
    pub fn switch_count(&self) -> usize {
        self.switches.len() / size::SWITCH
    }

    /// Switch `i` in the list (all zeros for an index out of range).
    pub fn switch_at(&self, i: usize) -> SwitchRecord {
        let d = record(self.switches, i).unwrap_or(&[0; size::SWITCH]);
        SwitchRecord {
            wall: u16_at(d, 0),
            upper: u16_at(d, 2),
            middle: u16_at(d, 4),
            lower: u16_at(d, 6),
        }
    }

    /// The switch textures of wall `wall`, if it has them (a binary
    /// search: the list is sorted by wall).
    pub fn switch(&self, wall: u16) -> Option<SwitchRecord> {
        index_by_wall(self.switch_count(), |i| self.switch_at(i).wall, wall)
            .map(|i| self.switch_at(i))
    }

    /// The special of wall `wall`, if it has one (a binary search: the
    /// list is sorted by wall).
    pub fn wall_special(&self, wall: u16) -> Option<WallSpecialRecord> {
        self.wall_special_index(wall)
            .map(|i| self.wall_special_at(i))
    }

    /// Where in the list wall `wall`'s special is, if it has one.
    pub fn wall_special_index(&self, wall: u16) -> Option<usize> {
        index_by_wall(
            self.wall_special_count(),
            |i| self.wall_special_at(i).wall,
            wall,
        )
    }

    /// Number of sprite rotation sets (entries of `SROT`).
    pub fn rotation_set_count(&self) -> usize {
        self.rotations.len() / size::SPRITE_ROTATIONS
    }

    /// Sprite rotation set `i` (all zeros for an index out of range).
    pub fn rotation_set(&self, i: usize) -> RotationRecord {
        let d = record(self.rotations, i).unwrap_or(&[0; size::SPRITE_ROTATIONS]);
        RotationRecord {
            textures: core::array::from_fn(|r| u16_at(d, 2 * r)),
        }
    }

    /// The rotation set a thing's `rotations` field names (`n` for set
    /// `n - 1`), or `None` for 0 (or, in a view that did not check it, a
    /// set that does not exist).
    #[inline]
    pub fn thing_rotations(&self, rotations: u16) -> Option<RotationRecord> {
        let i = (rotations as usize).checked_sub(1)?;
        (i < self.rotation_set_count()).then(|| self.rotation_set(i))
    }

    /// The first player start (validation guarantees there is one).
    pub fn player_start(&self) -> ThingRecord {
        self.things()
            .find(|t| t.kind == kind::PLAYER_START)
            .unwrap_or_default()
    }

    /// The blockmap.
    pub fn blockmap(&self) -> &BlockmapView<'a> {
        &self.blockmap
    }

    /// The solid things listed in block `block` of the blockmap's grid
    /// (row-major index): every [`kind::SOLID`] thing whose disc comes
    /// into the block, by index, ascending.
    pub fn block_solid_things(&self, block: usize) -> impl Iterator<Item = usize> + 'a {
        self.solid_things
            .list(block, self.blockmap.grid.block_count())
    }

    /// Total solid thing references over all blocks (0: no thing is
    /// solid).
    pub fn solid_thing_entry_count(&self) -> usize {
        self.solid_things.len()
    }
}

/// A texture's shape and pixels.
#[derive(Copy, Clone, Debug)]
pub struct TextureView<'a> {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
    /// [`super::texture_flag`] bits.
    pub flags: u8,
    /// The transparent palette index, when masked.
    pub transparent: u8,
    /// Sprite origin: columns left of the centre.
    pub left: i16,
    /// Sprite origin: rows above the feet.
    pub top: i16,
    /// `width * height` palette indices, column-major.
    pub pixels: &'a [u8],
}

impl<'a> TextureView<'a> {
    /// Column `x` (wrapped into the texture's width): `height` pixels.
    #[inline]
    pub fn column(&self, x: i32) -> &'a [u8] {
        let w = self.width.max(1) as i32;
        let x = x.rem_euclid(w) as usize;
        let h = self.height as usize;
        self.pixels.get(x * h..x * h + h).unwrap_or(&[])
    }
}

impl<'a> BlockmapView<'a> {
    fn parse(body: &'a [u8]) -> Result<Self, LoadError> {
        let fault = |f| Err(LoadError::BadBlockmap(f));
        if body.len() < size::BLOCKMAP_HEADER {
            return fault(BlockmapFault::Length);
        }
        let grid = Grid {
            origin_x: i32_at(body, 0),
            origin_y: i32_at(body, 4),
            block_size: u16_at(body, 8),
            cols: u16_at(body, 10),
            rows: u16_at(body, 12),
        };
        if !(config::MIN_BLOCK_SIZE..=config::MAX_BLOCK_SIZE).contains(&grid.block_size) {
            return fault(BlockmapFault::BlockSize(grid.block_size));
        }
        let blocks = grid.cols as usize * grid.rows as usize;
        if blocks == 0 || blocks > config::MAX_BLOCKS {
            return fault(BlockmapFault::GridSize);
        }
        let limit = 2 * config::MAX_COORDINATE as i64 + 2 * config::MAX_BLOCK_SIZE as i64;
        for (origin, n) in [(grid.origin_x, grid.cols), (grid.origin_y, grid.rows)] {
            let far = origin as i64 + n as i64 * grid.block_size as i64;
            if (origin as i64).abs() > limit || far.abs() > limit {
                return fault(BlockmapFault::GridSize);
            }
        }
        let walls = BlockLists::parse(
            body.get(size::BLOCKMAP_HEADER..).unwrap_or(&[]),
            blocks,
            config::MAX_BLOCK_ENTRIES,
            "blockmap entries",
        )?;
        Ok(BlockmapView { grid, walls })
    }

    /// The grid geometry.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The walls listed in block `block` (row-major index).
    pub fn block_walls(&self, block: usize) -> impl Iterator<Item = usize> + 'a {
        self.walls.list(block, self.grid.block_count())
    }

    /// Number of walls listed in block `block`.
    pub fn block_len(&self, block: usize) -> usize {
        self.walls.list(block, self.grid.block_count()).len()
    }

    /// Total wall references over all blocks.
    pub fn entry_count(&self) -> usize {
        self.walls.len()
    }
}

impl<'a> BlockLists<'a> {
    /// The offsets and entries of `body` for `blocks` lists; the offsets
    /// start at 0, never decrease and end at the number of entries.
    fn parse(
        body: &'a [u8],
        blocks: usize,
        max_entries: usize,
        what: &'static str,
    ) -> Result<Self, LoadError> {
        let fault = |f| Err(LoadError::BadBlockmap(f));
        let offsets_len = (blocks + 1) * 4;
        let Some(offsets) = body.get(..offsets_len) else {
            return fault(BlockmapFault::Length);
        };
        let entries = body.get(offsets_len..).unwrap_or(&[]);
        if entries.len() % 2 != 0 {
            return fault(BlockmapFault::Length);
        }
        let n_entries = entries.len() / 2;
        if n_entries > max_entries {
            return Err(LoadError::TooMany {
                what,
                count: n_entries,
                max: max_entries,
            });
        }
        if u32_at(offsets, 0) != 0 || u32_at(offsets, blocks * 4) as usize != n_entries {
            return fault(BlockmapFault::Offsets);
        }
        for b in 0..blocks {
            if u32_at(offsets, b * 4) > u32_at(offsets, (b + 1) * 4) {
                return fault(BlockmapFault::Offsets);
            }
        }
        Ok(BlockLists { offsets, entries })
    }

    /// Every list sorted and unique, every entry below `limit`.
    fn check_sorted(
        &self,
        blocks: usize,
        limit: usize,
        what: &'static str,
    ) -> Result<(), LoadError> {
        for b in 0..blocks {
            let (start, end) = self.bounds(b);
            let mut prev: Option<u16> = None;
            for k in start..end {
                let v = u16_at(self.entries, k * 2);
                if v as usize >= limit {
                    return Err(LoadError::IndexOutOfRange {
                        what,
                        index: k,
                        value: v as u32,
                    });
                }
                if prev.is_some_and(|p| p >= v) {
                    return Err(LoadError::BadBlockmap(BlockmapFault::UnsortedList(b)));
                }
                prev = Some(v);
            }
        }
        Ok(())
    }

    fn bounds(&self, block: usize) -> (usize, usize) {
        let start = u32_at(self.offsets, block.wrapping_mul(4)) as usize;
        let end = u32_at(self.offsets, block.wrapping_add(1).wrapping_mul(4)) as usize;
        (start, end.max(start))
    }

    /// The entries of block `block`, or none for a block not below
    /// `blocks`.
    fn list(&self, block: usize, blocks: usize) -> impl ExactSizeIterator<Item = usize> + 'a {
        let (start, end) = if block < blocks {
            self.bounds(block)
        } else {
            (0, 0)
        };
        let entries = self.entries;
        (start..end).map(move |k| u16_at(entries, k * 2) as usize)
    }

    /// Total entries over all blocks.
    fn len(&self) -> usize {
        self.entries.len() / 2
    }

    fn contains(&self, block: usize, v: u16) -> bool {
        let (start, end) = self.bounds(block);
        // Binary search over the sorted list.
        let (mut lo, mut hi) = (start, end);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let e = u16_at(self.entries, mid * 2);
            if e == v {
                return true;
            }
            if e < v {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        false
    }
}

/// A thing's record from its bytes (a fixed-size array: the field reads
/// need no range checks).
#[inline]
fn thing_record(d: &[u8; size::THING]) -> ThingRecord {
    ThingRecord {
        x: Fx::from_bits(i32_at(d, 0)),
        y: Fx::from_bits(i32_at(d, 4)),
        angle: Fx::from_bits(i32_at(d, 8)),
        radius: Fx::from_bits(i32_at(d, 12)),
        kind: u16_at(d, 16),
        type_id: u16_at(d, 18),
        sprite: u16_at(d, 20),
        rotations: u16_at(d, 22),
    }
}

/// Record `i` of a table of `N`-byte records, if the table holds it
/// whole: one range check, after which the fields are read at fixed
/// offsets of a fixed-size array (no check each).
#[inline]
pub(super) fn record<const N: usize>(table: &[u8], i: usize) -> Option<&[u8; N]> {
    let at = i.checked_mul(N)?;
    table.get(at..at.checked_add(N)?)?.try_into().ok()
}
