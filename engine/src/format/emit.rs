//! Writing a compiled map: the exact inverse of [`super::MapView`].

use super::blockmap::{blocks_touching_disc, BlockRange, Grid};
use super::bytes::Writer;
use super::{
    kind, size, tag, BlockmapRepr, BspNodeRecord, BspSegRecord, RotationRecord, SectorRecord,
    SideRecord, SubsectorRecord, SwitchRecord, TextureRecord, ThingRecord, VertexRecord,
    WallRecord, WallSpecialRecord, DIR_ENTRY_LEN, HEADER_LEN, MAGIC, VERSION,
};
use crate::math::Vec2;

/// Everything a compiled map holds, as plain records. The compiler fills
/// one in (owning the storage) and calls [`MapRepr::emit`].
#[derive(Copy, Clone, Debug, Default)]
pub struct MapRepr<'a> {
    /// Optional title (at most 128 bytes of UTF-8).
    pub title: &'a str,
    /// Vertices.
    pub vertices: &'a [VertexRecord],
    /// Walls.
    pub walls: &'a [WallRecord],
    /// Wall sides.
    pub sides: &'a [SideRecord],
    /// Sectors.
    pub sectors: &'a [SectorRecord],
    /// The sector wall lists that the sectors' `first_wall`/`wall_count` index.
    pub sector_walls: &'a [u16],
    /// Things.
    pub things: &'a [ThingRecord],
    /// The sprite rotation sets things refer to (none: no `SROT`).
    pub rotations: &'a [RotationRecord],
    /// Wall specials, sorted by wall, one at most for each.
    pub wall_specials: &'a [WallSpecialRecord],
    /// Switch textures, sorted by wall, one at most for each.
    pub switches: &'a [SwitchRecord],
    /// The blockmap.
    pub blockmap: BlockmapRepr<'a>,
    /// The texture directory.
    pub textures: &'a [TextureRecord],
    /// All texture pixels.
    pub texture_pixels: &'a [u8],
    /// Texture names, one per texture, or empty for none.
    pub texture_names: &'a [[u8; 8]],
    /// The palette, if not the built-in one.
    pub palette: Option<&'a [u8; size::PALETTE]>,
    /// The light table, if not derived from the palette.
    pub colormap: Option<&'a [u8; size::COLORMAP]>,
    /// The sky texture, if any.
    pub sky: Option<u16>,
    /// The BSP (every map has one: the default, empty, is refused by the
    /// loader).
    pub bsp: BspRepr<'a>,
}

/// A map's BSP as plain records (see [`super::BspView`] for the rules the
/// loader holds it to).
#[derive(Copy, Clone, Debug, Default)]
pub struct BspRepr<'a> {
    /// Nodes, children first, the root last.
    pub nodes: &'a [BspNodeRecord],
    /// Segs.
    pub segs: &'a [BspSegRecord],
    /// Subsectors.
    pub subsectors: &'a [SubsectorRecord],
}

/// The buffer given to [`MapRepr::emit`] was too small.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    /// Bytes needed.
    pub needed: usize,
}

const MAX_EMITTED: usize = 21;

impl MapRepr<'_> {
    fn grid(&self) -> Grid {
        let bm = &self.blockmap;
        Grid {
            origin_x: bm.origin_x,
            origin_y: bm.origin_y,
            block_size: bm.block_size,
            cols: bm.cols,
            rows: bm.rows,
        }
    }

    /// Each solid thing's index and the blocks it is listed in.
    fn solid_things(&self) -> impl Iterator<Item = (u16, BlockRange)> + '_ {
        let grid = self.grid();
        self.things.iter().enumerate().filter_map(move |(i, t)| {
            if t.kind != kind::SOLID {
                return None;
            }
            let range = blocks_touching_disc(&grid, Vec2::new(t.x, t.y), t.radius)?;
            Some((i as u16, range))
        })
    }

    /// The sections this map has, in file order, with their lengths.
    fn sections(&self) -> ([([u8; 4], usize); MAX_EMITTED], usize) {
        let mut out = [([0u8; 4], 0usize); MAX_EMITTED];
        let mut n = 0;
        let mut add = |t: [u8; 4], len: usize| {
            out[n] = (t, len);
            n += 1;
        };
        add(tag::VERTICES, self.vertices.len() * size::VERTEX);
        add(tag::WALLS, self.walls.len() * size::WALL);
        add(tag::SIDES, self.sides.len() * size::SIDE);
        add(tag::SECTORS, self.sectors.len() * size::SECTOR);
        add(
            tag::SECTOR_WALLS,
            self.sector_walls.len() * size::SECTOR_WALL,
        );
        add(tag::THINGS, self.things.len() * size::THING);
        if !self.rotations.is_empty() {
            add(
                tag::SPRITE_ROTATIONS,
                self.rotations.len() * size::SPRITE_ROTATIONS,
            );
        }
        if !self.wall_specials.is_empty() {
            add(
                tag::WALL_SPECIALS,
                self.wall_specials.len() * size::WALL_SPECIAL,
            );
        }
        if !self.switches.is_empty() {
            add(tag::SWITCHES, self.switches.len() * size::SWITCH);
        }
        add(
            tag::BLOCKMAP,
            size::BLOCKMAP_HEADER
                + self.blockmap.offsets.len() * 4
                + self.blockmap.entries.len() * 2,
        );
        add(tag::TEXTURES, self.textures.len() * size::TEXTURE);
        add(tag::TEXTURE_PIXELS, self.texture_pixels.len());
        if !self.texture_names.is_empty() {
            add(
                tag::TEXTURE_NAMES,
                self.texture_names.len() * size::TEXTURE_NAME,
            );
        }
        if self.palette.is_some() {
            add(tag::PALETTE, size::PALETTE);
        }
        if self.colormap.is_some() {
            add(tag::COLORMAP, size::COLORMAP);
        }
        if self.sky.is_some() {
            add(tag::SKY, 2);
        }
        if self.things.iter().any(|t| t.kind == kind::SOLID) {
            let entries: usize = self.solid_things().map(|(_, r)| r.len()).sum();
            add(
                tag::SOLID_THINGS,
                (self.grid().block_count() + 1) * 4 + entries * 2,
            );
        }
        add(tag::INFO, self.title.len());
        let b = &self.bsp;
        add(tag::BSP_NODES, b.nodes.len() * size::BSP_NODE);
        add(tag::BSP_SEGS, b.segs.len() * size::BSP_SEG);
        add(
            tag::BSP_SUBSECTORS,
            b.subsectors.len() * size::BSP_SUBSECTOR,
        );
        (out, n)
    }

    /// The exact number of bytes [`MapRepr::emit`] writes.
    pub fn buffer_len(&self) -> usize {
        let (sections, n) = self.sections();
        HEADER_LEN + n * DIR_ENTRY_LEN + sections[..n].iter().map(|(_, l)| l).sum::<usize>()
    }

    /// Writes the map into `buf`, returning the number of bytes written.
    /// Sections follow the directory in a fixed order, so the same map
    /// always gives the same bytes.
    pub fn emit(&self, buf: &mut [u8]) -> Result<usize, EmitError> {
        let needed = self.buffer_len();
        if buf.len() < needed {
            return Err(EmitError { needed });
        }
        let (sections, n) = self.sections();
        let mut w = Writer::new(buf);
        w.bytes(&MAGIC);
        w.u16(VERSION);
        w.u16(n as u16);
        let mut offset = HEADER_LEN + n * DIR_ENTRY_LEN;
        for (t, len) in &sections[..n] {
            w.bytes(t);
            w.u32(offset as u32);
            w.u32(*len as u32);
            offset += len;
        }
        for (t, _) in &sections[..n] {
            self.emit_section(*t, &mut w);
        }
        debug_assert!(!w.overflowed() && w.position() == needed);
        Ok(w.position())
    }

    fn emit_section(&self, t: [u8; 4], w: &mut Writer<'_>) {
        match t {
            tag::VERTICES => {
                for v in self.vertices {
                    w.i32(v.x.to_bits());
                    w.i32(v.y.to_bits());
                }
            }
            tag::WALLS => {
                for wall in self.walls {
                    w.u16(wall.v1);
                    w.u16(wall.v2);
                    w.u16(wall.front);
                    w.u16(wall.back);
                    w.u16(wall.flags);
                    w.u16(wall.front_side);
                    w.u16(wall.back_side);
                    w.u16(0);
                    w.i32(wall.length.to_bits());
                }
            }
            tag::SIDES => {
                for s in self.sides {
                    w.u16(s.x_offset as u16);
                    w.u16(s.y_offset as u16);
                    w.u16(s.upper);
                    w.u16(s.middle);
                    w.u16(s.lower);
                }
            }
            tag::SECTORS => {
                for s in self.sectors {
                    w.i32(s.floor.to_bits());
                    w.i32(s.ceiling.to_bits());
                    w.u8(s.light);
                    w.u8(s.floor_color);
                    w.u8(s.ceiling_color);
                    w.u8(s.wall_color);
                    w.u32(s.first_wall);
                    w.u32(s.wall_count);
                    w.u16(s.floor_texture);
                    w.u16(s.ceiling_texture);
                    w.u16(s.tag);
                    w.u16(s.special);
                }
            }
            tag::SECTOR_WALLS => {
                for &sw in self.sector_walls {
                    w.u16(sw);
                }
            }
            tag::THINGS => {
                for t in self.things {
                    w.i32(t.x.to_bits());
                    w.i32(t.y.to_bits());
                    w.i32(t.angle.to_bits());
                    w.i32(t.radius.to_bits());
                    w.u16(t.kind);
                    w.u16(t.type_id);
                    w.u16(t.sprite);
                    w.u16(t.rotations);
                }
            }
            tag::SPRITE_ROTATIONS => {
                for r in self.rotations {
                    for &e in &r.textures {
                        w.u16(e);
                    }
                }
            }
            tag::WALL_SPECIALS => {
                for s in self.wall_specials {
                    w.u16(s.wall);
                    w.u8(s.action);
                    w.u8(s.trigger);
                    w.u16(s.tag);
                }
            }
            tag::SWITCHES => {
                for s in self.switches {
                    w.u16(s.wall);
                    w.u16(s.upper);
                    w.u16(s.middle);
                    w.u16(s.lower);
                }
            }
            tag::BLOCKMAP => {
                let bm = &self.blockmap;
                w.i32(bm.origin_x);
                w.i32(bm.origin_y);
                w.u16(bm.block_size);
                w.u16(bm.cols);
                w.u16(bm.rows);
                w.u16(0);
                for &o in bm.offsets {
                    w.u32(o);
                }
                for &e in bm.entries {
                    w.u16(e);
                }
            }
            tag::SOLID_THINGS => {
                // Block by block, each list in thing order: so sorted.
                let cols = self.blockmap.cols;
                let blocks = self.grid().block_count();
                let mut offset = 0u32;
                w.u32(0);
                for b in 0..blocks {
                    offset += self
                        .solid_things()
                        .filter(|(_, r)| r.contains(b, cols))
                        .count() as u32;
                    w.u32(offset);
                }
                for b in 0..blocks {
                    for (i, _) in self.solid_things().filter(|(_, r)| r.contains(b, cols)) {
                        w.u16(i);
                    }
                }
            }
            tag::TEXTURES => {
                for t in self.textures {
                    w.u16(t.width);
                    w.u16(t.height);
                    w.u32(t.offset);
                    w.u8(t.flags);
                    w.u8(t.transparent);
                    w.u16(t.left as u16);
                    w.u16(t.top as u16);
                    w.u16(0);
                }
            }
            tag::TEXTURE_PIXELS => w.bytes(self.texture_pixels),
            tag::TEXTURE_NAMES => {
                for name in self.texture_names {
                    w.bytes(name);
                }
            }
            tag::PALETTE => {
                if let Some(p) = self.palette {
                    w.bytes(p);
                }
            }
            tag::COLORMAP => {
                if let Some(c) = self.colormap {
                    w.bytes(c);
                }
            }
            tag::SKY => w.u16(self.sky.unwrap_or(super::NONE)),
            tag::INFO => w.bytes(self.title.as_bytes()),
            tag::BSP_NODES => {
                for n in self.bsp.nodes {
                    for v in [n.x, n.y, n.dx, n.dy] {
                        w.i32(v.to_bits());
                    }
                    for b in &n.bbox {
                        for v in [b.top, b.bottom, b.left, b.right] {
                            w.i32(v.to_bits());
                        }
                    }
                    w.u16(n.child[0]);
                    w.u16(n.child[1]);
                }
            }
            tag::BSP_SEGS => {
                for s in self.bsp.segs {
                    for v in [s.from.x, s.from.y, s.to.x, s.to.y] {
                        w.i32(v.to_bits());
                    }
                    w.u16(s.wall);
                    w.u16(s.back as u16);
                }
            }
            tag::BSP_SUBSECTORS => {
                for s in self.bsp.subsectors {
                    w.u32(s.first_seg);
                    w.u16(s.seg_count);
                    w.u16(s.sector);
                }
            }
            _ => {}
        }
    }
}
