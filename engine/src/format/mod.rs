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
//! | tag    | record              | bytes | contents |
//! |--------|---------------------|-------|----------|
//! | `VRTX` | [`VertexRecord`]    | 8     | x, y: 16.16 |
//! | `WALL` | [`WallRecord`]      | 20    | v1, v2, front, back, flags, front side, back side, 0: u16; length: 16.16 |
//! | `SIDE` | [`SideRecord`]      | 10    | x offset, y offset: i16; upper, middle, lower texture: u16 |
//! | `SECT` | [`SectorRecord`]    | 28    | floor, ceiling: 16.16; light, 3 colours: u8; first, count into `SWAL`: u32; floor, ceiling texture, tag, special: u16 |
//! | `SWAL` | `u16`               | 2     | wall indices, each sector's run contiguous |
//! | `THNG` | [`ThingRecord`]     | 24    | x, y, angle (degrees), radius: 16.16; kind, type, sprite, rotations: u16 |
//! | `SROT` | [`RotationRecord`]  | 16    | optional sprite rotations: 8 x u16, the texture of rotation 1..8 ([`MIRRORED`] set: drawn mirrored) |
//! | `WSPC` | [`WallSpecialRecord`] | 6   | optional wall specials, sorted by wall: wall: u16; action ([`wall_action`]), trigger: u8; tag: u16 |
//! | `BMAP` | [`BlockmapRepr`]    | var.  | origin x, y: i32 units; size, cols, rows, 0: u16; cols*rows+1 `u32` list offsets; `u16` wall indices |
//! | `TXDR` | [`TextureRecord`]   | 16    | width, height: u16; pixel offset: u32; flags, transparent index: u8; left, top offset: i16; 0: u16 |
//! | `TXPX` | `u8`                | var.  | texture pixels (palette indices), each texture column-major |
//! | `TXNM` | `[u8; 8]`           | 8     | optional texture names (NUL-padded ASCII), one per texture |
//! | `PALT` | `[u8; 3]`           | 768   | optional palette (else [`crate::render::Palette::builtin`]) |
//! | `CMAP` | `[u8; 256]`         | 8192  | optional light table: 32 maps, brightest first (DOOM's COLORMAP) |
//! | `SKYT` | `u16`               | 2     | optional sky texture |
//! | `INFO` | UTF-8 map title     | var.  | optional |
//! | `BNOD` | [`BspNodeRecord`]   | 52    | BSP: partition x, y, dx, dy: 16.16; right and left boxes (top, bottom, left, right: 16.16); right, left child: u16 |
//! | `BSEG` | [`BspSegRecord`]    | 20    | from x, y, to x, y: 16.16; wall: u16; side: u16 (0 front, 1 back) |
//! | `BSUB` | [`SubsectorRecord`] | 8     | first seg: u32; seg count, sector: u16 |
//! | `SWTX` | [`SwitchRecord`]    | 8     | optional: wall, then the upper, middle and lower textures its front shows when switched (`0xFFFF`: unchanged); sorted by wall, each once |
//! | `STBK` | `u32`, `u16`        | var.  | solid things by block, over `BMAP`'s grid: cols*rows+1 `u32` list offsets; `u16` thing indices; present when a thing is [`kind::SOLID`] |
//!
//! `0xFFFF` means "none" for every optional index ([`NONE`]); a sector
//! texture of [`SKY`] shows the sky. Unknown tags are skipped, so a later
//! minor addition does not break an older engine; a change to any record
//! above bumps [`VERSION`].
//!
//! Walls follow DOOM's convention: the front sector lies to the right of
//! `v1 -> v2`. A wall with a back sector is a portal. A wall side without
//! a texture (or without a side record) is drawn in its sector's flat
//! colour, so levels need no textures at all.
//!
//! A [`kind::SOLID`] thing is listed in `STBK` in exactly the blocks
//! [`blockmap::blocks_touching_disc`] gives for its centre and radius, each
//! block's list sorted; [`MapRepr::emit`] builds the lists from the things
//! and the blockmap's grid, and the loader checks them as it checks the
//! walls' lists, so collision finds a solid thing by its block.
//!
//! A thing's `rotations` is 0 for a thing drawn with its `sprite` from
//! every side, or `n` for entry `n - 1` of `SROT`: DOOM's eight rotations
//! of a frame (`POSSA1`, `POSSA2A8`, ...), one texture for each eighth of
//! the circle around the thing, chosen as DOOM's `R_ProjectSprite`
//! chooses them (see [`RotationRecord`]). Its `sprite` is then rotation
//! 1's texture, so a reader that ignores rotations still draws the
//! thing's front. (The field was written 0 before `SROT` existed, with
//! the same meaning, and an older engine skips the section: no version
//! change.)
//!
//! A key thing ([`kind::BLUE_CARD`] to [`kind::RED_SKULL`], at most
//! [`crate::config::MAX_KEY_THINGS`] of them) is picked up by the player
//! touching it, and a wall special whose [`trigger`] names a lock
//! ([`trigger::LOCK_MASK`]) acts only for a player holding a key of that
//! colour. (Both are values in fields that were there before: an older
//! engine refuses a locked special as an unknown trigger, and draws a key
//! it does not know as nothing; no version change.)
//!
//! The three BSP sections are DOOM's `NODES`, `SEGS` and `SSECTORS` (the
//! WAD's own for a DOOM-format map when it can be kept, else the
//! compiler's node builder's), and every map has them: the renderer draws
//! by them. A child with [`SUBSECTOR_CHILD`] set is a subsector, else a node numbered below its parent, and no node is the
//! child of two; the root is the last node (or, with no nodes, subsector
//! 0). So the tree has no cycles, a walk visits each node once, and the
//! loader also bounds its depth ([`crate::config::MAX_BSP_DEPTH`]).

pub mod blockmap;
mod bsp;
pub mod bytes;
mod emit;
mod error;
pub mod pack;
mod view;

pub use bsp::BspView;
pub use emit::{BspRepr, EmitError, MapRepr};
pub use error::{BlockmapFault, BspFault, LoadError};
pub use view::TextureView;
pub use view::{BlockmapView, MapView};

use crate::math::Fx;

/// First four bytes of every compiled map.
pub const MAGIC: [u8; 4] = *b"SPMP";
/// The format version this engine reads and writes (3: the BSP sections
/// became required; 4: sectors gained a tag and a special, and a map's
/// doors may be compiled shut, for the engine to open).
pub const VERSION: u16 = 4;
/// Bytes before the directory.
pub const HEADER_LEN: usize = 8;
/// Bytes per directory entry.
pub const DIR_ENTRY_LEN: usize = 12;
/// Most directory entries in one file.
pub const MAX_SECTIONS: usize = 32;

/// The bit of a BSP node's child that makes it a subsector (the rest is
/// the subsector's number).
pub const SUBSECTOR_CHILD: u16 = 0x8000;
/// The `u16` that marks "none" in any optional index field.
pub const NONE: u16 = u16::MAX;
/// The `u16` that marks "no sector" in a wall's back field.
pub const NO_SECTOR: u16 = NONE;
/// A sector texture that shows the sky.
pub const SKY: u16 = u16::MAX - 1;
/// The bit of a [`RotationRecord`] entry that draws its texture mirrored
/// (the rest is the texture's index).
pub const MIRRORED: u16 = 0x8000;

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
    /// Wall sides.
    pub const SIDES: [u8; 4] = *b"SIDE";
    /// Texture directory.
    pub const TEXTURES: [u8; 4] = *b"TXDR";
    /// Texture pixels.
    pub const TEXTURE_PIXELS: [u8; 4] = *b"TXPX";
    /// Optional texture names.
    pub const TEXTURE_NAMES: [u8; 4] = *b"TXNM";
    /// Optional palette.
    pub const PALETTE: [u8; 4] = *b"PALT";
    /// Optional light table.
    pub const COLORMAP: [u8; 4] = *b"CMAP";
    /// Optional sky texture.
    pub const SKY: [u8; 4] = *b"SKYT";
    /// Optional BSP nodes.
    pub const BSP_NODES: [u8; 4] = *b"BNOD";
    /// The BSP's segs.
    pub const BSP_SEGS: [u8; 4] = *b"BSEG";
    /// The BSP's subsectors.
    pub const BSP_SUBSECTORS: [u8; 4] = *b"BSUB";
    /// Solid things by block.
    pub const SOLID_THINGS: [u8; 4] = *b"STBK";
    /// Optional wall specials.
    pub const WALL_SPECIALS: [u8; 4] = *b"WSPC";
    /// Optional sprite rotation sets.
    pub const SPRITE_ROTATIONS: [u8; 4] = *b"SROT";
    /// Optional switch textures.
    pub const SWITCHES: [u8; 4] = *b"SWTX";
}

/// Record sizes in bytes.
pub mod size {
    /// [`super::VertexRecord`].
    pub const VERTEX: usize = 8;
    /// [`super::WallRecord`].
    pub const WALL: usize = 20;
    /// [`super::SideRecord`].
    pub const SIDE: usize = 10;
    /// [`super::SectorRecord`].
    pub const SECTOR: usize = 28;
    /// One entry of the sector wall lists.
    pub const SECTOR_WALL: usize = 2;
    /// [`super::ThingRecord`].
    pub const THING: usize = 24;
    /// [`super::TextureRecord`].
    pub const TEXTURE: usize = 16;
    /// One texture name.
    pub const TEXTURE_NAME: usize = 8;
    /// The palette.
    pub const PALETTE: usize = 768;
    /// The light table: 32 maps of 256.
    pub const COLORMAP: usize = 32 * 256;
    /// Widest texture.
    pub const MAX_TEXTURE_WIDTH: u16 = 4096;
    /// Tallest texture.
    pub const MAX_TEXTURE_HEIGHT: u16 = 1024;
    /// The blockmap's fixed header.
    pub const BLOCKMAP_HEADER: usize = 16;
    /// Longest map title.
    pub const MAX_TITLE: usize = 128;
    /// [`super::BspNodeRecord`].
    pub const BSP_NODE: usize = 52;
    /// [`super::BspSegRecord`].
    pub const BSP_SEG: usize = 20;
    /// [`super::RotationRecord`].
    pub const SPRITE_ROTATIONS: usize = 16;
    /// [`super::WallSpecialRecord`].
    pub const WALL_SPECIAL: usize = 6;
    /// [`super::SwitchRecord`].
    pub const SWITCH: usize = 8;
    /// [`super::SubsectorRecord`].
    pub const BSP_SUBSECTOR: usize = 8;
}

/// Thing kinds.
pub mod kind {
    /// Where player 1 starts.
    pub const PLAYER_START: u16 = 1;
    /// A round body that can be pushed around.
    pub const PUSHABLE: u16 = 2;
    /// Something drawn as a sprite that blocks nothing.
    pub const DECORATION: u16 = 3;
    /// Something that never moves and that bodies cannot enter: a disc of
    /// its radius at every height, as DOOM's solid things (columns, lamps,
    /// trees, monsters) block at every height. Drawn as a decoration is.
    pub const SOLID: u16 = 4;
    /// Where a [`TELEPORT`](super::wall_action::TELEPORT) special sends
    /// the player, facing the thing's angle. Not drawn, blocks nothing.
    pub const TELEPORT_DESTINATION: u16 = 5;
    /// A blue keycard: the player picks it up by touching it (a box of
    /// the thing's radius around it, as DOOM's pickups), and it opens
    /// the walls locked [`super::trigger::LOCK_BLUE`]. Drawn as a
    /// decoration is until it is picked up.
    pub const BLUE_CARD: u16 = 6;
    /// A yellow keycard ([`BLUE_CARD`]'s rules, for yellow locks).
    pub const YELLOW_CARD: u16 = 7;
    /// A red keycard ([`BLUE_CARD`]'s rules, for red locks).
    pub const RED_CARD: u16 = 8;
    /// A blue skull key: opens what a [`BLUE_CARD`] opens, as in DOOM.
    pub const BLUE_SKULL: u16 = 9;
    /// A yellow skull key.
    pub const YELLOW_SKULL: u16 = 10;
    /// A red skull key.
    pub const RED_SKULL: u16 = 11;

    /// Whether a thing of kind `k` stays where the map puts it, drawn
    /// with its sprite (a decoration or a solid thing), rather than
    /// becoming a body or a start.
    pub const fn is_fixed(k: u16) -> bool {
        k == DECORATION || k == SOLID
    }

    /// Whether a thing of kind `k` is drawn with its sprite where the map
    /// puts it: a decoration, a solid thing, or a key (until picked up).
    pub const fn is_drawn(k: u16) -> bool {
        is_fixed(k) || is_key(k)
    }

    /// Whether kind `k` is a key, a card or a skull.
    pub const fn is_key(k: u16) -> bool {
        k >= BLUE_CARD && k <= RED_SKULL
    }

    /// The lock a key of kind `k` opens (a [`super::trigger`] lock value,
    /// 1 blue, 2 yellow, 3 red), or 0 for a kind that is no key.
    pub const fn key_lock(k: u16) -> u8 {
        if is_key(k) {
            ((k - BLUE_CARD) % 3 + 1) as u8
        } else {
            0
        }
    }
}

/// Wall flag bits (DOOM's linedef flag values).
pub mod wall_flag {
    /// Blocks bodies even where it has two sides (DOOM's `ML_BLOCKING`).
    pub const IMPASSABLE: u16 = 1;
    /// Upper texture pegged to the top (DOOM's `ML_DONTPEGTOP`).
    pub const UPPER_UNPEGGED: u16 = 8;
    /// Lower (and one-sided middle) texture pegged to the bottom (DOOM's
    /// `ML_DONTPEGBOTTOM`).
    pub const LOWER_UNPEGGED: u16 = 16;
    /// The front side's textures move left one unit a tick (DOOM's line
    /// special 48). Not a DOOM flag: the compiler sets it.
    pub const SCROLL_LEFT: u16 = 0x4000;
    /// The front side's textures move right one unit a tick (Boom's line
    /// special 85).
    pub const SCROLL_RIGHT: u16 = 0x8000;

    /// How far the front side of a wall with `flags` has scrolled after
    /// `ticks`, in texels added to its x offset: wrapping at 65,536, where
    /// the 16.16 offset does (seamless for textures a power of two wide).
    pub const fn scrolled(flags: u16, ticks: u32) -> i32 {
        let t = ticks as i32;
        match (flags & SCROLL_LEFT != 0, flags & SCROLL_RIGHT != 0) {
            (true, false) => t,
            (false, true) => t.wrapping_neg(),
            _ => 0,
        }
    }
}

/// Texture flag bits.
pub mod texture_flag {
    /// Pixels equal to the texture's transparent index are not drawn.
    pub const MASKED: u8 = 1;
    /// A 64x64 floor or ceiling texture.
    pub const FLAT: u8 = 2;
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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WallRecord {
    /// Start vertex index.
    pub v1: u16,
    /// End vertex index.
    pub v2: u16,
    /// Sector on the right of `v1 -> v2`.
    pub front: u16,
    /// Sector on the left, or [`NO_SECTOR`].
    pub back: u16,
    /// [`wall_flag`] bits.
    pub flags: u16,
    /// Side record seen from the front, or [`NONE`].
    pub front_side: u16,
    /// Side record seen from the back, or [`NONE`].
    pub back_side: u16,
    /// Length of the wall (for texture coordinates; any value is safe).
    pub length: Fx,
}

/// How one side of a wall is textured.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SideRecord {
    /// Texture columns to skip at the wall's start.
    pub x_offset: i16,
    /// Texture rows to skip at the top.
    pub y_offset: i16,
    /// Above a portal's opening, or [`NONE`].
    pub upper: u16,
    /// The wall itself (or a see-through texture in a portal), or [`NONE`].
    pub middle: u16,
    /// Below a portal's opening, or [`NONE`].
    pub lower: u16,
}

/// One texture: a wall texture, a flat or a sprite.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TextureRecord {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
    /// Where its pixels start in `TXPX`; pixel (x, y) is at
    /// `offset + x * height + y`.
    pub offset: u32,
    /// [`texture_flag`] bits.
    pub flags: u8,
    /// The palette index that stands for "transparent" when masked.
    pub transparent: u8,
    /// Sprite origin: columns left of the centre.
    pub left: i16,
    /// Sprite origin: rows above the feet.
    pub top: i16,
}

/// A sector: a floor, a ceiling, a light level and its walls.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
    /// Floor texture, [`NONE`] (flat colour) or [`SKY`].
    pub floor_texture: u16,
    /// Ceiling texture, [`NONE`] (flat colour) or [`SKY`].
    pub ceiling_texture: u16,
    /// The tag that wall specials name it by (0: none).
    pub tag: u16,
    /// What the sector does by itself ([`sector_special`]; 0: nothing).
    pub special: u16,
}

/// What a sector does by itself ([`SectorRecord::special`]): DOOM's sector
/// types, by DOOM's numbers, for the ones this engine acts on.
pub mod sector_special {
    /// Nothing.
    pub const NONE: u16 = 0;
    /// The light goes off at random moments (DOOM 1).
    pub const FLICKER: u16 = 1;
    /// The light blinks off every half second (DOOM 2).
    pub const STROBE_FAST: u16 = 2;
    /// The light blinks off every second (DOOM 3).
    pub const STROBE_SLOW: u16 = 3;
    /// The light glows down to the darkest neighbour and back (DOOM 8).
    pub const GLOW: u16 = 8;
    /// A secret: found when the player enters it (DOOM 9).
    pub const SECRET: u16 = 9;
    /// Strobes every second, in step with its neighbours (DOOM 12).
    pub const STROBE_SLOW_SYNC: u16 = 12;
    /// Strobes every half second, in step (DOOM 13).
    pub const STROBE_FAST_SYNC: u16 = 13;
    /// Flickers like fire (DOOM 17).
    pub const FIRE_FLICKER: u16 = 17;

    /// Whether `s` is a special this engine knows.
    pub const fn is_known(s: u16) -> bool {
        matches!(
            s,
            NONE | FLICKER
                | STROBE_FAST
                | STROBE_SLOW
                | GLOW
                | SECRET
                | STROBE_SLOW_SYNC
                | STROBE_FAST_SYNC
                | FIRE_FLICKER
        )
    }
}

/// A thing: a player start or an entity spawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
    /// The editor's type number (DOOM's doomednum), kept for tools.
    pub type_id: u16,
    /// Sprite texture, or [`NONE`].
    pub sprite: u16,
    /// 0 for none (`sprite` from every side), else `n` for the rotation
    /// set `n - 1` of `SROT` (see [`RotationRecord`]); `sprite` is then
    /// its rotation 1.
    pub rotations: u16,
}

/// A sprite frame seen from eight sides (DOOM's `A1`..`A8`): the texture
/// of each rotation, [`MIRRORED`] set for one drawn mirrored (the
/// texture's columns read from the right over the same span, as DOOM
/// draws `POSSA8` from the lump `POSSA2A8`).
///
/// Rotation 1 is seen from in front of the thing, and rotation `r + 1`
/// from `45 * r` degrees counter-clockwise round from there (3 from the
/// thing's left, 5 from behind, 7 from its right): DOOM's
/// `(angle from the viewer to the thing - thing's angle + 202.5 degrees)
/// / 45 degrees`, rounded down, taken modulo 8.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RotationRecord {
    /// Rotations 1 to 8: a texture index, with [`MIRRORED`] set to draw
    /// it mirrored.
    pub textures: [u16; 8],
}

impl RotationRecord {
    /// Rotation `r` (0 for DOOM's rotation 1, taken modulo 8): its
    /// texture and whether it is drawn mirrored.
    #[inline]
    pub fn rotation(&self, r: usize) -> (u16, bool) {
        let e = self.textures[r % 8];
        (e & !MIRRORED, e & MIRRORED != 0)
    }
}

/// What a wall special does ([`WallSpecialRecord::action`]). A door
/// action moves the sectors with the special's tag, or, with
/// [`BACK_SECTOR`](wall_action::BACK_SECTOR) set, the sector behind the
/// wall (DOOM's manual doors, which ignore the tag). Doors move as DOOM's
/// do (`p_doors.c`): 2 units a tick (8 for the fast ones), up to 4 below
/// the lowest neighbouring ceiling, and wait 150 ticks before closing.
pub mod wall_action {
    /// Ends the level; the game goes on to the next.
    pub const EXIT: u8 = 1;
    /// Ends the level; the game goes on to the secret level.
    pub const SECRET_EXIT: u8 = 2;
    /// A door opens, waits and closes (DOOM's `normal`).
    pub const DOOR_RAISE: u8 = 3;
    /// A door opens and stays open (DOOM's `open`).
    pub const DOOR_OPEN: u8 = 4;
    /// A door closes and stays closed (DOOM's `close`).
    pub const DOOR_CLOSE: u8 = 5;
    /// A door closes, waits 30 seconds and opens (DOOM's `close30ThenOpen`).
    pub const DOOR_CLOSE_WAIT_OPEN: u8 = 6;
    /// [`DOOR_RAISE`] at four times the speed (DOOM's `blazeRaise`).
    pub const DOOR_FAST_RAISE: u8 = 7;
    /// [`DOOR_OPEN`] at four times the speed (DOOM's `blazeOpen`).
    pub const DOOR_FAST_OPEN: u8 = 8;
    /// [`DOOR_CLOSE`] at four times the speed (DOOM's `blazeClose`).
    pub const DOOR_FAST_CLOSE: u8 = 9;
    /// A lift goes down to the lowest neighbouring floor, waits 105
    /// ticks and comes back up, 4 units a tick (DOOM's `downWaitUpStay`).
    pub const LIFT: u8 = 10;
    /// [`LIFT`] at 8 units a tick (DOOM's `blazeDWUS`).
    pub const LIFT_FAST: u8 = 11;
    /// The player goes to the [`kind::TELEPORT_DESTINATION`](super::kind)
    /// in the first sector with the special's tag, facing its angle, and
    /// stands still for 18 ticks (DOOM's `EV_Teleport`). Walked over,
    /// only from the wall's front.
    pub const TELEPORT: u8 = 12;
    /// A floor goes down to the highest neighbouring floor, 1 unit a tick
    /// (DOOM's `lowerFloor`).
    pub const FLOOR_LOWER: u8 = 13;
    /// A floor goes down to the lowest neighbouring floor (`lowerFloorToLowest`).
    pub const FLOOR_LOWER_TO_LOWEST: u8 = 14;
    /// A floor goes down to 8 above the highest neighbouring floor, 4
    /// units a tick (`turboLower`).
    pub const FLOOR_LOWER_FAST: u8 = 15;
    /// A floor goes up to the lowest neighbouring ceiling (`raiseFloor`).
    pub const FLOOR_RAISE: u8 = 16;
    /// A floor goes up to the next higher neighbouring floor
    /// (`raiseFloorToNearest`).
    pub const FLOOR_RAISE_TO_NEXT: u8 = 17;
    /// [`FLOOR_RAISE_TO_NEXT`] at 4 units a tick (`raiseFloorTurbo`).
    pub const FLOOR_RAISE_TO_NEXT_FAST: u8 = 18;
    /// A floor goes up 24 units (`raiseFloor24`).
    pub const FLOOR_RAISE_24: u8 = 19;
    /// A floor goes up 512 units (`raiseFloor512`).
    pub const FLOOR_RAISE_512: u8 = 20;
    /// A floor goes up to 8 below the lowest neighbouring ceiling
    /// (`raiseFloorCrush`); with no health in the engine, a body in the
    /// way stops it there.
    pub const FLOOR_RAISE_CRUSH: u8 = 21;
    /// A ceiling comes down to the floor, 1 unit a tick (DOOM's
    /// `lowerToFloor`).
    pub const CEILING_LOWER_TO_FLOOR: u8 = 22;
    /// A ceiling goes up to the highest neighbouring ceiling
    /// (`raiseToHighest`).
    pub const CEILING_RAISE_TO_HIGHEST: u8 = 23;
    /// A ceiling comes down to 8 above the floor (`lowerAndCrush`).
    pub const CEILING_LOWER_AND_CRUSH: u8 = 24;
    /// A crusher: the ceiling goes down to 8 above the floor and back up,
    /// again and again, 1 unit a tick (`crushAndRaise`); a body in the way
    /// stops it until the body leaves (no health in the engine).
    pub const CEILING_CRUSHER: u8 = 25;
    /// [`CEILING_CRUSHER`] at 2 units a tick (`fastCrushAndRaise`).
    pub const CEILING_CRUSHER_FAST: u8 = 26;
    /// The tagged sectors' crushers stop where they are (`ceilingCrushStop`).
    pub const CEILING_CRUSHER_STOP: u8 = 27;
    /// A platform goes between its lowest and highest neighbouring floors,
    /// 1 unit a tick, waiting 105 ticks at each end, for ever
    /// (`perpetualRaise`).
    pub const LIFT_PERPETUAL: u8 = 28;
    /// The tagged sectors' perpetual platforms stop where they are
    /// (`EV_StopPlat`).
    pub const LIFT_STOP: u8 = 29;
    /// Stairs: the tagged sector's floor goes up 8, the next sector of the
    /// same floor flat behind its front walls 16, and so on, a quarter
    /// unit a tick (`build8`).
    pub const STAIRS_8: u8 = 30;
    /// Stairs of 16 at 4 units a tick (`turbo16`).
    pub const STAIRS_16_FAST: u8 = 31;
    /// [`FLOOR_LOWER_TO_LOWEST`], and on arrival the floor takes the flat
    /// of the neighbour whose floor it stopped level with (DOOM's
    /// `lowerAndChange`; the sector special it also copies is not kept).
    pub const FLOOR_LOWER_TO_LOWEST_CHANGE: u8 = 32;
    /// [`FLOOR_RAISE_24`], the floor taking the flat of the wall's front
    /// sector as it starts (`raiseFloor24AndChange`).
    pub const FLOOR_RAISE_24_CHANGE: u8 = 33;
    /// A platform goes up to the next higher neighbouring floor, half a
    /// unit a tick, taking the flat of the wall's front sector as it
    /// starts (`p_plats.c`'s `raiseToNearestAndChange`).
    pub const PLAT_RAISE_TO_NEXT_CHANGE: u8 = 34;
    /// A platform goes up 24 units, half a unit a tick, taking the front
    /// sector's flat as it starts (`raiseAndChange` by 24).
    pub const PLAT_RAISE_24_CHANGE: u8 = 35;
    /// [`PLAT_RAISE_24_CHANGE`] by 32 units.
    pub const PLAT_RAISE_32_CHANGE: u8 = 36;
    /// The tagged sectors' light goes to the brightest of their
    /// neighbours', at once (DOOM's `EV_LightTurnOn` with 0: the level
    /// found for the first tagged sector with a lit neighbour is used for
    /// the rest, as DOOM's does).
    pub const LIGHT_BRIGHTEST_AROUND: u8 = 37;
    /// The tagged sectors' light goes to 255 (`EV_LightTurnOn` with 255).
    pub const LIGHT_FULL: u8 = 38;
    /// The tagged sectors' light goes to 35 (`EV_LightTurnOn` with 35).
    pub const LIGHT_DIM: u8 = 39;
    /// Each tagged sector's light goes to the darkest of its own and its
    /// neighbours' (`EV_TurnTagLightsOff`).
    pub const LIGHT_DARKEST_AROUND: u8 = 40;
    /// A donut (DOOM's `EV_DoDonut`): the tagged sector (a pillar) goes
    /// down, and the sector round it (across the pillar's first wall) up,
    /// both to the floor of the sector beyond that ring, half a unit a
    /// tick; the ring then takes that sector's flat.
    pub const DONUT: u8 = 41;
    /// The tagged sectors start strobing (DOOM's `EV_StartLightStrobing`):
    /// dark 35 ticks, bright 5, between their light and their darkest
    /// neighbour's (none darker: fully dark), as a slow-strobe sector
    /// does. A sector whose floor or ceiling is moving is left alone.
    pub const LIGHT_START_STROBE: u8 = 42;
    /// Boom's generalised lifts that go down to the lowest neighbouring
    /// floor, wait and come back up: `BOOM_LIFT | speed << 2 | delay`,
    /// speed 0-3 for 2, 4, 8 or 16 units a tick, delay 0-3 for 35, 105,
    /// 175 or 350 ticks (`p_genlin.c`'s `EV_DoGenLift`, its first target;
    /// the others are not read).
    pub const BOOM_LIFT: u8 = 0x30;
    /// The last [`BOOM_LIFT`] action.
    pub const BOOM_LIFT_LAST: u8 = 0x3f;
    /// Boom's generalised doors: `BOOM_DOOR | kind << 4 | speed << 2 |
    /// delay`, kind 0-3 for open-wait-close, open, close-wait-open and
    /// close, speed 0-3 for 2, 4, 8 or 16 units a tick, delay 0-3 for 35,
    /// 150, 300 or 1050 ticks (`EV_DoGenDoor`). With [`BACK_SECTOR`], a
    /// busy door is left as it is.
    pub const BOOM_DOOR: u8 = 0x40;
    /// The last [`BOOM_DOOR`] action.
    pub const BOOM_DOOR_LAST: u8 = 0x7f;
    /// Set on a door or lift action: it moves the sector behind the
    /// wall, not the tagged ones. Using such a door again while it moves
    /// or waits turns it round, as DOOM's `EV_VerticalDoor` does.
    pub const BACK_SECTOR: u8 = 0x80;

    /// Whether `a` is a door action (with or without [`BACK_SECTOR`]).
    pub const fn is_door(a: u8) -> bool {
        matches!(
            a & !BACK_SECTOR,
            DOOR_RAISE..=DOOR_FAST_CLOSE | BOOM_DOOR..=BOOM_DOOR_LAST
        )
    }

    /// A [`BOOM_DOOR`] action: `kind`, `speed` and `delay` 0-3 each.
    pub const fn boom_door(kind: u8, speed: u8, delay: u8) -> u8 {
        BOOM_DOOR | (kind & 3) << 4 | (speed & 3) << 2 | (delay & 3)
    }

    /// A [`BOOM_LIFT`] action: `speed` and `delay` 0-3 each.
    pub const fn boom_lift(speed: u8, delay: u8) -> u8 {
        BOOM_LIFT | (speed & 3) << 2 | (delay & 3)
    }

    /// The fields of a [`BOOM_DOOR`] or [`BOOM_LIFT`] action (with or
    /// without [`BACK_SECTOR`]): `(kind, speed, delay)`, each 0-3, a
    /// lift's kind 0.
    pub const fn boom_fields(a: u8) -> (usize, usize, usize) {
        let a = a & !BACK_SECTOR;
        let kind = if a >= BOOM_DOOR { (a >> 4) & 3 } else { 0 };
        (kind as usize, ((a >> 2) & 3) as usize, (a & 3) as usize)
    }

    /// Whether `a` is one of Boom's generalised doors ([`BOOM_DOOR`]).
    pub const fn is_boom_door(a: u8) -> bool {
        matches!(a & !BACK_SECTOR, BOOM_DOOR..=BOOM_DOOR_LAST)
    }

    /// Whether `a` is a floor action (with or without [`BACK_SECTOR`]).
    pub const fn is_floor(a: u8) -> bool {
        matches!(
            a & !BACK_SECTOR,
            FLOOR_LOWER..=FLOOR_RAISE_CRUSH | FLOOR_LOWER_TO_LOWEST_CHANGE..=PLAT_RAISE_32_CHANGE
        )
    }

    /// Whether floor action `a` gives the floor the flat of the wall's
    /// front sector as it starts ([`FLOOR_LOWER_TO_LOWEST_CHANGE`] changes
    /// it as it arrives instead).
    pub const fn takes_front_flat(a: u8) -> bool {
        matches!(
            a & !BACK_SECTOR,
            FLOOR_RAISE_24_CHANGE..=PLAT_RAISE_32_CHANGE
        )
    }

    /// Whether `a` is a lift action that goes down, waits and comes back
    /// up (with or without [`BACK_SECTOR`]).
    pub const fn is_lift(a: u8) -> bool {
        matches!(
            a & !BACK_SECTOR,
            LIFT | LIFT_FAST | BOOM_LIFT..=BOOM_LIFT_LAST
        )
    }

    /// Whether `a` is a ceiling action that starts a mover.
    pub const fn is_ceiling(a: u8) -> bool {
        matches!(
            a & !BACK_SECTOR,
            CEILING_LOWER_TO_FLOOR..=CEILING_CRUSHER_FAST
        )
    }

    /// Whether `a` stops the tagged sectors' perpetual movers.
    pub const fn is_stop(a: u8) -> bool {
        matches!(a & !BACK_SECTOR, CEILING_CRUSHER_STOP | LIFT_STOP)
    }

    /// Whether `a` builds stairs.
    pub const fn is_stairs(a: u8) -> bool {
        matches!(a & !BACK_SECTOR, STAIRS_8 | STAIRS_16_FAST)
    }

    /// Whether `a` moves sectors (or stops them): a door, a lift, a
    /// floor, a ceiling, stairs.
    pub const fn is_mover(a: u8) -> bool {
        is_door(a)
            || is_floor(a)
            || is_lift(a)
            || a & !BACK_SECTOR == LIFT_PERPETUAL
            || is_ceiling(a)
            || is_stop(a)
            || is_stairs(a)
            || a == DONUT
    }

    /// Whether `a` sets the tagged sectors' light.
    pub const fn is_light(a: u8) -> bool {
        matches!(a, LIGHT_BRIGHTEST_AROUND..=LIGHT_DARKEST_AROUND)
    }

    /// Whether `a` is an action this engine knows.
    pub const fn is_known(a: u8) -> bool {
        matches!(a, EXIT | SECRET_EXIT | TELEPORT | LIGHT_START_STROBE)
            || is_mover(a)
            || is_light(a)
    }
}

/// How a wall special is set off ([`WallSpecialRecord::trigger`] bits:
/// exactly one of [`USE`](trigger::USE) and [`WALK`](trigger::WALK),
/// perhaps with [`REPEAT`](trigger::REPEAT)).
pub mod trigger {
    /// The player presses use facing the wall's front, within DOOM's use
    /// range, nothing blocking in between (DOOM's S and D lines).
    pub const USE: u8 = 1;
    /// The player's centre crosses the wall (DOOM's W lines).
    pub const WALK: u8 = 2;
    /// It can be set off again (DOOM's SR and WR); else once.
    pub const REPEAT: u8 = 4;
    /// Where the lock is kept: two bits, 0 for none, else the key the
    /// player must hold for the special to act (DOOM's locked doors
    /// 26-28, 32-34, 99 and 133-137); without it nothing happens, and the
    /// game says which key was missing.
    pub const LOCK_MASK: u8 = 0x18;
    /// The first bit of [`LOCK_MASK`].
    pub const LOCK_SHIFT: u8 = 3;
    /// Locked: needs a blue card or skull.
    pub const LOCK_BLUE: u8 = 1 << LOCK_SHIFT;
    /// Locked: needs a yellow card or skull.
    pub const LOCK_YELLOW: u8 = 2 << LOCK_SHIFT;
    /// Locked: needs a red card or skull.
    pub const LOCK_RED: u8 = 3 << LOCK_SHIFT;

    /// Whether `t` is a valid set of bits.
    pub const fn is_valid(t: u8) -> bool {
        t & !(USE | WALK | REPEAT | LOCK_MASK) == 0 && (t & USE == 0) != (t & WALK == 0)
    }

    /// The lock of trigger `t`: 0 none, 1 blue, 2 yellow, 3 red (a
    /// [`super::kind::key_lock`] value).
    pub const fn lock(t: u8) -> u8 {
        (t & LOCK_MASK) >> LOCK_SHIFT
    }
}

/// A wall's special: what happens when the player sets it off.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct WallSpecialRecord {
    /// The wall.
    pub wall: u16,
    /// See [`wall_action`].
    pub action: u8,
    /// See [`trigger`].
    pub trigger: u8,
    /// The sectors it acts on, by tag (0: none; an exit has none).
    pub tag: u16,
}

/// A switch: what the front side of a wall with a use special shows once
/// it is used (DOOM's `SW1*` textures become their `SW2*` pair, and back).
/// Listed in `SWTX`, sorted by wall, a wall at most once.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SwitchRecord {
    /// The wall.
    pub wall: u16,
    /// The upper texture shown when switched, or [`NONE`]: unchanged.
    pub upper: u16,
    /// The middle texture, or [`NONE`].
    pub middle: u16,
    /// The lower texture, or [`NONE`].
    pub lower: u16,
}

/// A box on one side of a BSP node's partition, 16.16 map units.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BspBox {
    /// North edge.
    pub top: Fx,
    /// South edge.
    pub bottom: Fx,
    /// West edge.
    pub left: Fx,
    /// East edge.
    pub right: Fx,
}

/// A BSP node: a partition line and what lies on each side of it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BspNodeRecord {
    /// A point of the partition line.
    pub x: Fx,
    /// North.
    pub y: Fx,
    /// The line's direction.
    pub dx: Fx,
    /// North.
    pub dy: Fx,
    /// The boxes bounding everything on the right (index 0, the front)
    /// and on the left (1) of the line.
    pub bbox: [BspBox; 2],
    /// The children on the right and on the left: a node below this one,
    /// or a subsector with [`SUBSECTOR_CHILD`] set.
    pub child: [u16; 2],
}

/// A seg: the piece of a wall that bounds a subsector, seen from the
/// subsector's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BspSegRecord {
    /// Where it starts (the subsector on its right).
    pub from: VertexRecord,
    /// Where it ends.
    pub to: VertexRecord,
    /// The wall it lies on.
    pub wall: u16,
    /// Whether it is the wall's back side (0: the front).
    pub back: bool,
}

/// A subsector: a convex piece of one sector, bounded by its segs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SubsectorRecord {
    /// Its first seg.
    pub first_seg: u32,
    /// How many segs (at least one).
    pub seg_count: u16,
    /// The sector it is part of.
    pub sector: u16,
}

/// The blockmap, as the compiler builds it: a grid of square blocks, each
/// with the sorted list of walls that touch it (see
/// [`blockmap`] for the exact rule).
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

// Defaults use NONE for every optional index, so `..Default::default()`
// never invents a reference to texture or side 0.
impl Default for WallRecord {
    fn default() -> Self {
        WallRecord {
            v1: 0,
            v2: 0,
            front: 0,
            back: NO_SECTOR,
            flags: 0,
            front_side: NONE,
            back_side: NONE,
            length: Fx::ZERO,
        }
    }
}

impl Default for SideRecord {
    fn default() -> Self {
        SideRecord {
            x_offset: 0,
            y_offset: 0,
            upper: NONE,
            middle: NONE,
            lower: NONE,
        }
    }
}

impl Default for SectorRecord {
    fn default() -> Self {
        SectorRecord {
            floor: Fx::ZERO,
            ceiling: Fx::ZERO,
            light: 0,
            floor_color: 0,
            ceiling_color: 0,
            wall_color: 0,
            first_wall: 0,
            wall_count: 0,
            floor_texture: NONE,
            ceiling_texture: NONE,
            tag: 0,
            special: 0,
        }
    }
}

impl Default for ThingRecord {
    fn default() -> Self {
        ThingRecord {
            x: Fx::ZERO,
            y: Fx::ZERO,
            angle: Fx::ZERO,
            radius: Fx::ZERO,
            kind: 0,
            type_id: 0,
            sprite: NONE,
            rotations: 0,
        }
    }
}
