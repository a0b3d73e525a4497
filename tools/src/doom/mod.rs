//! DOOM-format levels as editors write them: the on-disk structures and
//! one in-memory form for all of them.
//!
//! Like Chocolate Doom's `doomdata.h`, this module knows the *files* and
//! nothing about our engine:
//!
//! * [`binary`]: the fixed-size little-endian lumps of DOOM (and Hexen)
//!   maps: `VERTEXES`, `LINEDEFS`, `SIDEDEFS`, `SECTORS`, `THINGS`;
//! * [`udmf`]: the text format (`TEXTMAP`) Ultimate Doom Builder and
//!   SLADE write.
//!
//! Both produce the same [`DoomLevel`], which keeps the file's numbering
//! (linedef 12 is `linedefs[12]`) and its raw, unchecked indices: a
//! sidedef may name a sector that does not exist. Deciding what such a
//! level means, repairing it and warning about it is the importer's job
//! ([`crate::import`]); parsing only fails when the data cannot be read
//! at all.

pub mod binary;
pub mod udmf;

use std::fmt;

/// Linedef flag bits, DOOM's values (`ML_*` in `doomdata.h`). UDMF's
/// boolean fields are folded into these.
pub mod line_flag {
    /// `ML_BLOCKING`: blocks players and monsters.
    pub const BLOCKING: u16 = 1;
    /// `ML_BLOCKMONSTERS`.
    pub const BLOCK_MONSTERS: u16 = 2;
    /// `ML_TWOSIDED`: the middle texture is see-through.
    pub const TWO_SIDED: u16 = 4;
    /// `ML_DONTPEGTOP`: upper texture unpegged.
    pub const DONT_PEG_TOP: u16 = 8;
    /// `ML_DONTPEGBOTTOM`: lower texture unpegged.
    pub const DONT_PEG_BOTTOM: u16 = 16;
    /// `ML_SECRET`: shown as one-sided on the automap.
    pub const SECRET: u16 = 32;
    /// `ML_SOUNDBLOCK`.
    pub const BLOCK_SOUND: u16 = 64;
    /// `ML_DONTDRAW`: never on the automap.
    pub const DONT_DRAW: u16 = 128;
    /// `ML_MAPPED`: on the automap from the start.
    pub const MAPPED: u16 = 256;
    /// Hexen's `ML_REPEAT_SPECIAL`: the special acts again and again
    /// (only in [`super::SpecialSet::Hexen`] levels; Boom gives the bit
    /// another meaning).
    pub const REPEAT: u16 = 0x200;
    /// Hexen's activation field (`SPAC`), three bits from bit 10: who sets
    /// the special off, [`activation`] (only in Hexen levels).
    pub const ACTIVATION: u16 = 0x1C00;
    /// The first bit of [`ACTIVATION`].
    pub const ACTIVATION_SHIFT: u16 = 10;

    /// Hexen's activation values, as [`ACTIVATION`] holds them (UDMF's
    /// `playercross`, `playeruse` and the rest are read into the same).
    pub mod activation {
        /// The player walks over the line (`SPAC_Cross`).
        pub const CROSS: u16 = 0;
        /// The player uses the line (`SPAC_Use`).
        pub const USE: u16 = 1;
        /// Something the engine does not have sets it off: monsters,
        /// shots, pushing (`SPAC_MCross`, `SPAC_Impact`, ...).
        pub const OTHER: u16 = 3;
        /// ZDoom's use that passes through to lines behind
        /// (`SPAC_UseThrough`).
        pub const USE_THROUGH: u16 = 6;
    }
}

/// Which numbering a level's line specials use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SpecialSet {
    /// DOOM's line types (1 = DR door, ...), with Boom's generalised
    /// types: binary DOOM maps and the UDMF `doom`, `heretic`, `strife`
    /// and `zdoomtranslated` namespaces.
    Doom,
    /// Hexen's parameterised action specials (12 = `Door_Raise`, tag in
    /// `arg0`): Hexen-format maps and the other UDMF namespaces.
    Hexen,
}

/// How the level was stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    /// DOOM's binary lumps.
    Doom,
    /// Hexen's binary lumps (a `BEHAVIOR` lump, 16-byte linedefs,
    /// 20-byte things).
    Hexen,
    /// UDMF, with its namespace as written (lower-cased).
    Udmf(String),
}

/// A vertex, in map units.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Vertex {
    /// East.
    pub x: f64,
    /// North.
    pub y: f64,
}

/// A linedef: a line between two vertices with a sidedef on its right
/// (front) and, if two-sided, one on its left (back). Indices are as
/// written, unchecked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Linedef {
    /// Start vertex ([`NEGATIVE_INDEX`] for one written negative).
    pub v1: usize,
    /// End vertex.
    pub v2: usize,
    /// [`line_flag`] bits.
    pub flags: u16,
    /// The line special (see [`DoomLevel::specials`] for its numbering).
    pub special: i32,
    /// The sector tag the special acts on (DOOM's tag; UDMF's `arg0`,
    /// or `id` when a Doom-namespace map left `arg0` at 0).
    pub tag: i32,
    /// Hexen-style arguments (`arg0` is the tag for most specials).
    pub args: [i32; 5],
    /// Front (right) sidedef, if any.
    pub front: Option<usize>,
    /// Back (left) sidedef, if any.
    pub back: Option<usize>,
}

/// A required index (a linedef's vertex, a sidedef's sector) that a UDMF
/// map wrote negative: out of range, as an index past the end is, so the
/// importer drops it the same way, and names it so.
pub const NEGATIVE_INDEX: usize = usize::MAX;

/// How an index is named in messages.
pub fn shown_index(i: usize) -> String {
    if i == NEGATIVE_INDEX {
        "a negative index".to_string()
    } else {
        i.to_string()
    }
}

/// A sidedef: how one side of a linedef looks and which sector it faces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sidedef {
    /// Texture columns to skip.
    pub x_offset: f64,
    /// Texture rows to skip.
    pub y_offset: f64,
    /// Upper texture name (upper-case; `-` for none).
    pub upper: String,
    /// Lower texture name.
    pub lower: String,
    /// Middle texture name.
    pub middle: String,
    /// The sector this side faces, unchecked.
    pub sector: usize,
}

/// A sector.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sector {
    /// Floor height.
    pub floor: f64,
    /// Ceiling height.
    pub ceiling: f64,
    /// Floor flat name (upper-case).
    pub floor_texture: String,
    /// Ceiling flat name (upper-case).
    pub ceiling_texture: String,
    /// Light level as written (DOOM: 0-255).
    pub light: i32,
    /// Sector special.
    pub special: i32,
    /// Tag (UDMF `id`).
    pub tag: i32,
}

/// A thing: a spawn point for a monster, item, decoration or player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thing {
    /// East.
    pub x: f64,
    /// North.
    pub y: f64,
    /// Facing, degrees counter-clockwise from east, as written.
    pub angle: f64,
    /// DoomEdNum.
    pub kind: i32,
    /// Bit `n` set: present on skill `n + 1` (1 = "I'm too young to
    /// die" ... 5 = "Nightmare!").
    pub skills: u8,
    /// Present in single-player games.
    pub single: bool,
}

/// Features a level uses that this engine does not have, each reported
/// once per map.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Feature {
    /// Sloped floors or ceilings (UDMF plane fields, vertex heights, slope
    /// specials or things).
    Slopes,
    /// 3D floors and Boom's fake floors (`242`).
    ExtraFloors,
    /// ACS scripts (`BEHAVIOR`, `ACS_Execute`, ...).
    Scripts,
    /// Polyobjects.
    Polyobjects,
    /// Line or sector portals (Eternity, ZDoom).
    Portals,
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Feature::Slopes => "sloped floors or ceilings",
            Feature::ExtraFloors => "3D floors (or Boom fake floors)",
            Feature::Scripts => "scripts (ACS)",
            Feature::Polyobjects => "polyobjects",
            Feature::Portals => "portals",
        })
    }
}

/// One level, as read: the file's numbering and raw references.
#[derive(Clone, Debug, PartialEq)]
pub struct DoomLevel {
    /// Where it came from.
    pub format: SourceFormat,
    /// How to read [`Linedef::special`].
    pub specials: SpecialSet,
    /// Vertices.
    pub vertices: Vec<Vertex>,
    /// Linedefs.
    pub linedefs: Vec<Linedef>,
    /// Sidedefs.
    pub sidedefs: Vec<Sidedef>,
    /// Sectors.
    pub sectors: Vec<Sector>,
    /// Things.
    pub things: Vec<Thing>,
    /// Unsupported features the file itself shows (UDMF fields, a
    /// `BEHAVIOR` lump); the importer adds those it finds in specials.
    pub features: Vec<Feature>,
    /// Problems found while reading that did not stop it (a lump whose
    /// size is not a whole number of records, ...).
    pub warnings: Vec<String>,
    /// The BSP the map's node builder wrote (`SEGS`, `SSECTORS` and
    /// `NODES` in DOOM's own format), if the map has one.
    pub bsp: Option<DoomBsp>,
}

/// A DOOM-format map's BSP, as its node builder wrote it. Seg vertices
/// index [`DoomLevel::vertices`] (which hold the builder's split points
/// too).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DoomBsp {
    /// `SEGS`.
    pub segs: Vec<DoomSeg>,
    /// `SSECTORS`: each subsector's seg count and first seg.
    pub subsectors: Vec<(u16, u16)>,
    /// `NODES`, the root last.
    pub nodes: Vec<DoomNode>,
}

/// A seg: part of a linedef, seen from one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DoomSeg {
    /// Start vertex.
    pub v1: usize,
    /// End vertex.
    pub v2: usize,
    /// The linedef it lies on.
    pub linedef: usize,
    /// 0: the linedef's front side, 1: its back.
    pub side: u16,
}

/// A BSP node, in whole map units.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DoomNode {
    /// The partition line: a point and a direction.
    pub x: i16,
    /// North.
    pub y: i16,
    /// Direction, east.
    pub dx: i16,
    /// Direction, north.
    pub dy: i16,
    /// Right (front) and left boxes: top, bottom, left, right.
    pub bbox: [[i16; 4]; 2],
    /// Right and left children; bit 15 marks a subsector.
    pub child: [u16; 2],
}

impl DoomLevel {
    /// An empty level of the given format.
    pub fn new(format: SourceFormat, specials: SpecialSet) -> Self {
        DoomLevel {
            format,
            specials,
            vertices: Vec::new(),
            linedefs: Vec::new(),
            sidedefs: Vec::new(),
            sectors: Vec::new(),
            things: Vec::new(),
            features: Vec::new(),
            warnings: Vec::new(),
            bsp: None,
        }
    }

    /// Records an unsupported feature (once).
    pub fn uses(&mut self, feature: Feature) {
        if !self.features.contains(&feature) {
            self.features.push(feature);
        }
    }
}

/// Why a level could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A binary map lies about its lumps.
    Lump {
        /// The lump (`LINEDEFS`, ...).
        lump: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A UDMF text error.
    Udmf(udmf::UdmfError),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Lump { lump, message } => write!(f, "{lump}: {message}"),
            ParseError::Udmf(e) => write!(f, "TEXTMAP {e}"),
        }
    }
}

impl std::error::Error for ParseError {}

impl From<udmf::UdmfError> for ParseError {
    fn from(e: udmf::UdmfError) -> Self {
        ParseError::Udmf(e)
    }
}

/// A texture or flat name as DOOM compares it: up to the first NUL, at
/// most 8 characters, upper-case.
pub fn texture_name(raw: &[u8]) -> String {
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len()).min(8);
    raw[..end]
        .iter()
        .map(|&b| (b as char).to_ascii_uppercase())
        .collect()
}

/// Reads the level `map` of `wad`, binary or UDMF.
pub fn read_map(
    wad: &crate::wad::Wad<'_>,
    map: &crate::wad::MapEntry,
) -> Result<DoomLevel, ParseError> {
    match map.format {
        crate::wad::MapFormat::Doom => binary::read(wad, map),
        crate::wad::MapFormat::Udmf => {
            let bytes = wad.map_lump(map, "TEXTMAP").unwrap_or(&[]);
            let mut level = udmf::parse_bytes(bytes)?;
            if wad
                .map_lump(map, "BEHAVIOR")
                .is_some_and(binary::has_scripts)
            {
                level.uses(Feature::Scripts);
            }
            Ok(level)
        }
    }
}
