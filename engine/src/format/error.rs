//! Why a compiled map was refused.

use core::fmt;

/// A compiled map failed validation. Each variant names what was wrong and
/// where, so a tool can print it and a fuzzer can tell errors apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Fewer bytes than the header and directory need.
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes present.
        len: usize,
    },
    /// The first four bytes are not `SPMP`.
    BadMagic,
    /// A version this engine does not read.
    UnsupportedVersion(u16),
    /// More directory entries than allowed.
    TooManySections(u16),
    /// A section reaches past the end of the file.
    SectionOutOfBounds([u8; 4]),
    /// The same section appears twice.
    DuplicateSection([u8; 4]),
    /// A required section is absent.
    MissingSection([u8; 4]),
    /// A section's length is not a whole number of records.
    BadSectionLength([u8; 4]),
    /// More records of a kind than the engine holds.
    TooMany {
        /// What overflowed.
        what: &'static str,
        /// How many the file has.
        count: usize,
        /// The capacity.
        max: usize,
    },
    /// The map has no sectors.
    NoSectors,
    /// The map has no player 1 start.
    NoPlayerStart,
    /// A coordinate, height or radius outside ±32767 (or not positive
    /// where it must be).
    ValueOutOfRange {
        /// Which record kind.
        what: &'static str,
        /// Which record.
        index: usize,
    },
    /// An index that points past the end of what it refers to.
    IndexOutOfRange {
        /// Which record kind holds the bad index.
        what: &'static str,
        /// Which record.
        index: usize,
        /// The bad value.
        value: u32,
    },
    /// A wall whose two ends are the same point.
    ZeroLengthWall(usize),
    /// A sector whose ceiling is below its floor.
    CeilingBelowFloor(usize),
    /// A sector lists a wall that does not border it.
    ForeignWall {
        /// The sector.
        sector: usize,
        /// The wall.
        wall: usize,
    },
    /// The blockmap is malformed.
    BadBlockmap(BlockmapFault),
    /// The BSP is malformed.
    BadBsp(BspFault),
    /// The solid things' block lists are malformed.
    BadSolidThings(BlockmapFault),
}

/// What is wrong with a BSP (beyond indices out of range and values out
/// of range, which have their own errors).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BspFault {
    /// Nodes but no subsectors, or a subsector without segs.
    Empty,
    /// A node's child is not numbered below it.
    ChildOrder {
        /// The node.
        node: usize,
    },
    /// A node is the child of two.
    SharedChild {
        /// The node named twice.
        node: usize,
    },
    /// A node lies deeper than [`crate::config::MAX_BSP_DEPTH`].
    TooDeep {
        /// The node.
        node: usize,
    },
    /// A seg's side is neither 0 nor 1, or it is the back of a one-sided
    /// wall.
    BadSide {
        /// The seg.
        seg: usize,
    },
}

/// What is wrong with a blockmap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BlockmapFault {
    /// Block size outside the allowed range.
    BlockSize(u16),
    /// No blocks, or more than allowed.
    GridSize,
    /// The grid does not cover every vertex.
    DoesNotCoverMap,
    /// The section length does not match its header.
    Length,
    /// List offsets that decrease, or do not end at the entry count.
    Offsets,
    /// A block's list is not sorted, or repeats a wall.
    UnsortedList(usize),
    /// A wall is missing from a block it touches.
    MissingWall {
        /// The wall.
        wall: usize,
        /// The block.
        block: usize,
    },
    /// A solid thing is missing from a block its disc comes into.
    MissingThing {
        /// The thing.
        thing: usize,
        /// The block.
        block: usize,
    },
    /// Lists name walls (or things) in blocks they do not touch.
    ExtraEntries,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Truncated { needed, len } => {
                write!(f, "file truncated: {len} bytes, at least {needed} needed")
            }
            LoadError::BadMagic => write!(f, "not a compiled map (bad magic)"),
            LoadError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "format version {v} is not supported (this engine reads {}): \
                     compile the map again with this version's tools",
                    super::VERSION
                )
            }
            LoadError::TooManySections(n) => write!(f, "{n} sections is too many"),
            LoadError::SectionOutOfBounds(t) => {
                write!(f, "section {} reaches past the end of the file", Tag(t))
            }
            LoadError::DuplicateSection(t) => write!(f, "section {} appears twice", Tag(t)),
            LoadError::MissingSection(t) => write!(f, "section {} is missing", Tag(t)),
            LoadError::BadSectionLength(t) => {
                write!(
                    f,
                    "section {} has a length that is not a whole number of records",
                    Tag(t)
                )
            }
            LoadError::TooMany { what, count, max } => {
                write!(f, "{count} {what} exceeds the limit of {max}")
            }
            LoadError::NoSectors => write!(f, "the map has no sectors"),
            LoadError::NoPlayerStart => write!(f, "the map has no player start"),
            LoadError::ValueOutOfRange { what, index } => {
                write!(f, "{what} {index} has a value out of range")
            }
            LoadError::IndexOutOfRange { what, index, value } => {
                write!(
                    f,
                    "{what} {index} refers to index {value}, which does not exist"
                )
            }
            LoadError::ZeroLengthWall(i) => write!(f, "wall {i} has zero length"),
            LoadError::CeilingBelowFloor(i) => {
                write!(f, "sector {i} has its ceiling below its floor")
            }
            LoadError::ForeignWall { sector, wall } => {
                write!(
                    f,
                    "sector {sector} lists wall {wall}, which does not border it"
                )
            }
            LoadError::BadBlockmap(fault) => write!(f, "bad blockmap: {fault:?}"),
            LoadError::BadBsp(fault) => write!(f, "bad BSP: {fault:?}"),
            LoadError::BadSolidThings(fault) => {
                write!(f, "bad solid thing lists: {fault:?}")
            }
        }
    }
}

struct Tag<'a>(&'a [u8; 4]);

impl fmt::Display for Tag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in self.0 {
            let c = if b.is_ascii_graphic() { b as char } else { '?' };
            write!(f, "{c}")?;
        }
        Ok(())
    }
}
