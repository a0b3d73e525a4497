//! Writing a compiled map: the exact inverse of [`super::MapView`].

use super::bytes::Writer;
use super::{
    size, tag, BlockmapRepr, SectorRecord, ThingRecord, VertexRecord, WallRecord, DIR_ENTRY_LEN,
    HEADER_LEN, MAGIC, VERSION,
};

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
    /// Sectors.
    pub sectors: &'a [SectorRecord],
    /// The sector wall lists that the sectors' `first_wall`/`wall_count` index.
    pub sector_walls: &'a [u16],
    /// Things.
    pub things: &'a [ThingRecord],
    /// The blockmap.
    pub blockmap: BlockmapRepr<'a>,
}

/// The buffer given to [`MapRepr::emit`] was too small.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    /// Bytes needed.
    pub needed: usize,
}

const SECTION_COUNT: usize = 7;

impl MapRepr<'_> {
    fn section_lengths(&self) -> [([u8; 4], usize); SECTION_COUNT] {
        [
            (tag::VERTICES, self.vertices.len() * size::VERTEX),
            (tag::WALLS, self.walls.len() * size::WALL),
            (tag::SECTORS, self.sectors.len() * size::SECTOR),
            (
                tag::SECTOR_WALLS,
                self.sector_walls.len() * size::SECTOR_WALL,
            ),
            (tag::THINGS, self.things.len() * size::THING),
            (
                tag::BLOCKMAP,
                size::BLOCKMAP_HEADER
                    + self.blockmap.offsets.len() * 4
                    + self.blockmap.entries.len() * 2,
            ),
            (tag::INFO, self.title.len()),
        ]
    }

    /// The exact number of bytes [`MapRepr::emit`] writes.
    pub fn buffer_len(&self) -> usize {
        HEADER_LEN
            + SECTION_COUNT * DIR_ENTRY_LEN
            + self.section_lengths().iter().map(|(_, l)| l).sum::<usize>()
    }

    /// Writes the map into `buf`, returning the number of bytes written.
    /// Sections follow the directory in a fixed order, so the same map
    /// always gives the same bytes.
    pub fn emit(&self, buf: &mut [u8]) -> Result<usize, EmitError> {
        let needed = self.buffer_len();
        if buf.len() < needed {
            return Err(EmitError { needed });
        }
        let mut w = Writer::new(buf);
        w.bytes(&MAGIC);
        w.u16(VERSION);
        w.u16(SECTION_COUNT as u16);
        let mut offset = HEADER_LEN + SECTION_COUNT * DIR_ENTRY_LEN;
        for (t, len) in self.section_lengths() {
            w.bytes(&t);
            w.u32(offset as u32);
            w.u32(len as u32);
            offset += len;
        }
        for v in self.vertices {
            w.i32(v.x.to_bits());
            w.i32(v.y.to_bits());
        }
        for wall in self.walls {
            w.u16(wall.v1);
            w.u16(wall.v2);
            w.u16(wall.front);
            w.u16(wall.back);
            w.u16(wall.flags);
            w.u16(0);
        }
        for s in self.sectors {
            w.i32(s.floor.to_bits());
            w.i32(s.ceiling.to_bits());
            w.u8(s.light);
            w.u8(s.floor_color);
            w.u8(s.ceiling_color);
            w.u8(s.wall_color);
            w.u32(s.first_wall);
            w.u32(s.wall_count);
        }
        for &sw in self.sector_walls {
            w.u16(sw);
        }
        for t in self.things {
            w.i32(t.x.to_bits());
            w.i32(t.y.to_bits());
            w.i32(t.angle.to_bits());
            w.i32(t.radius.to_bits());
            w.u16(t.kind);
            w.u16(t.flags);
        }
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
        w.bytes(self.title.as_bytes());
        debug_assert!(!w.overflowed() && w.position() == needed);
        Ok(w.position())
    }
}
