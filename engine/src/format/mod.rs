//! The compiled map format, defined once for the compiler and the engine.
//!
//! A compiled map is read in place from a `&[u8]` (a file, a `static` in a
//! ROM): nothing is copied and nothing is allocated. [`MapView::new_checked`]
//! validates the whole file once; after it succeeds no accessor can panic,
//! and every index the view hands out is in range. The compiler builds a
//! [`MapRepr`] from plain records and calls [`MapRepr::emit`], the exact
//! inverse of the view.
//!
//! # Layout (all integers big-endian, see [`bytes`])
//!
//! ```text
//! header      magic "SPMP" | version u16 | section count u16
//! directory   count x { tag [u8; 4] | offset u32 | length u32 }
//! sections    in any order, anywhere after the directory
//! ```
//!
//! | tag    | record                      | bytes | contents                                  |
//! |--------|-----------------------------|-------|-------------------------------------------|
//! | `VRTX` | [`VertexRecord`]            | 8     | x, y: 16.16                               |
//! | `WALL` | [`WallRecord`]              | 12    | v1, v2, front, back (`0xFFFF` = none), flags, reserved |
//! | `SECT` | [`SectorRecord`]            | 20    | floor, ceiling: 16.16; light, 3 colours; first, count into `SWAL` |
//! | `SWAL` | `u16`                       | 2     | wall indices, each sector's run contiguous |
//! | `THNG` | [`ThingRecord`]             | 20    | x, y, angle (degrees), radius: 16.16; kind, flags |
//! | `BMAP` | [`BlockmapRepr`]            | var.  | origin x, y: i32 units; size, cols, rows, 0: u16; then cols*rows+1 `u32` list offsets; then `u16` wall indices |
//! | `INFO` | UTF-8 map title             | var.  | optional                                  |
//!
//! Unknown tags are skipped, so a later minor addition does not break an
//! older engine; a change to any record above bumps [`VERSION`].
//!
//! Walls follow DOOM's convention: the front sector lies to the right of
//! `v1 -> v2`. A wall with a back sector is a portal.

pub mod bytes;
mod emit;
mod error;
mod view;

pub use emit::{EmitError, MapRepr};
pub use error::{BlockmapFault, LoadError};
pub use view::{BlockmapView, MapView};

use crate::math::Fx;

/// First four bytes of every compiled map.
pub const MAGIC: [u8; 4] = *b"SPMP";
/// The format version this engine reads and writes.
pub const VERSION: u16 = 1;
/// Bytes before the directory.
pub const HEADER_LEN: usize = 8;
/// Bytes per directory entry.
pub const DIR_ENTRY_LEN: usize = 12;
/// Most directory entries in one file.
pub const MAX_SECTIONS: usize = 32;

/// The `u16` that marks "no sector" in a wall's back field.
pub const NO_SECTOR: u16 = u16::MAX;

/// Section tags.
pub mod tag {
    /// Vertices.
    pub const VERTICES: [u8; 4] = *b"VRTX";
    /// Walls.
    pub const WALLS: [u8; 4] = *b"WALL";
    /// Sectors.
    pub const SECTORS: [u8; 4] = *b"SECT";
    /// Each sector's wall list.
    pub const SECTOR_WALLS: [u8; 4] = *b"SWAL";
    /// Things.
    pub const THINGS: [u8; 4] = *b"THNG";
    /// Blockmap.
    pub const BLOCKMAP: [u8; 4] = *b"BMAP";
    /// Optional title.
    pub const INFO: [u8; 4] = *b"INFO";
}

/// Record sizes in bytes.
pub mod size {
    /// [`super::VertexRecord`].
    pub const VERTEX: usize = 8;
    /// [`super::WallRecord`].
    pub const WALL: usize = 12;
    /// [`super::SectorRecord`].
    pub const SECTOR: usize = 20;
    /// One entry of the sector wall lists.
    pub const SECTOR_WALL: usize = 2;
    /// [`super::ThingRecord`].
    pub const THING: usize = 20;
    /// The blockmap's fixed header.
    pub const BLOCKMAP_HEADER: usize = 16;
    /// Longest map title.
    pub const MAX_TITLE: usize = 128;
}

/// Thing kinds.
pub mod kind {
    /// Where player 1 starts.
    pub const PLAYER_START: u16 = 1;
    /// A round body that can be pushed around.
    pub const PUSHABLE: u16 = 2;
}

/// A vertex.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct VertexRecord {
    /// East.
    pub x: Fx,
    /// North.
    pub y: Fx,
}

/// A wall: a segment between two vertices with a sector on its right
/// (front) and, for a portal, one on its left (back).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct WallRecord {
    /// Start vertex index.
    pub v1: u16,
    /// End vertex index.
    pub v2: u16,
    /// Sector on the right of `v1 -> v2`.
    pub front: u16,
    /// Sector on the left, or [`NO_SECTOR`].
    pub back: u16,
    /// Reserved flag bits (0).
    pub flags: u16,
}

/// A sector: a floor, a ceiling, a light level and its walls.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SectorRecord {
    /// Floor height.
    pub floor: Fx,
    /// Ceiling height (never below the floor).
    pub ceiling: Fx,
    /// Light level, 0 (dark) to 255 (full bright).
    pub light: u8,
    /// Floor colour (palette index).
    pub floor_color: u8,
    /// Ceiling colour (palette index).
    pub ceiling_color: u8,
    /// Colour of the walls seen from inside this sector (palette index).
    pub wall_color: u8,
    /// First entry of this sector's run in the sector wall lists.
    pub first_wall: u32,
    /// Number of entries in that run.
    pub wall_count: u32,
}

/// A thing: a player start or an entity spawn.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ThingRecord {
    /// East.
    pub x: Fx,
    /// North.
    pub y: Fx,
    /// Facing, degrees counter-clockwise from east, in `[0, 360)`.
    pub angle: Fx,
    /// Radius of a round body (ignored for player starts).
    pub radius: Fx,
    /// See [`kind`].
    pub kind: u16,
    /// Reserved flag bits (0).
    pub flags: u16,
}

/// The blockmap, as the compiler builds it: a grid of square blocks, each
/// with the sorted list of walls that touch it (see
/// [`crate::world::blockmap`] for the exact rule).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockmapRepr<'a> {
    /// West edge of the grid, whole map units.
    pub origin_x: i32,
    /// South edge of the grid, whole map units.
    pub origin_y: i32,
    /// Edge of one block, map units.
    pub block_size: u16,
    /// Blocks from west to east.
    pub cols: u16,
    /// Blocks from south to north.
    pub rows: u16,
    /// `cols * rows + 1` offsets into `entries`; block `row * cols + col`
    /// lists `entries[offsets[i]..offsets[i + 1]]`.
    pub offsets: &'a [u32],
    /// Wall indices.
    pub entries: &'a [u16],
}
