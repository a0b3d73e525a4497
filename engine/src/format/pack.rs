//! A level pack: many compiled maps in one file, their common bytes stored
//! once, for a cartridge (or any medium read piecewise) to carry a whole
//! game.
//!
//! A level is not stored whole: it is a list of *pieces*, byte ranges of
//! the pack that, copied one after another, give back the compiled map
//! exactly as the compiler wrote it. Pieces that several levels share (a
//! texture's pixels, a palette, a light table) are stored once and listed
//! by each level that uses them. So a reader needs no texture logic at all:
//! it copies the pieces into a buffer and hands the buffer to
//! [`crate::world::Level::load`], whose checks run on the copy as on any
//! map.
//!
//! # Layout (big-endian, see [`super::bytes`])
//!
//! ```text
//! header   magic "SPCK" | version u16 | level count u16 | piece count u32 |
//!          pieces offset u32 | pack length u32 | 0 u32                  (24 bytes)
//! levels   count x { name [u8; 24] | title [u8; 40] | first piece u32 |
//!                    piece count u32 | map length u32 | 0 u32 }        (80 bytes each)
//! pieces   piece count x { offset u32 | length u32 }                   (8 bytes each)
//! data     the pieces' bytes, anywhere after the piece table
//! ```
//!
//! The *index* (header and level table) is small and read whole:
//! [`PackIndex::new_checked`] validates it once, after which its accessors
//! cannot panic. The piece table can be large (a piece per texture per
//! level) and is read a few entries at a time as a level is copied, each
//! entry checked as it is read ([`copy_level`]). Names and titles are
//! NUL-padded UTF-8: a name is the map's lump name (`E1M1`) or file stem,
//! a title what the game calls it (`Outer Prison`), empty if nothing does.

use core::fmt;

use super::bytes::{u32_at, u8_at, Writer};

/// First four bytes of a level pack.
pub const MAGIC: [u8; 4] = *b"SPCK";
/// The pack version this engine reads and writes.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER_LEN: usize = 24;
/// Bytes of one level record.
pub const LEVEL_LEN: usize = 80;
/// Bytes of one piece record.
pub const PIECE_LEN: usize = 8;
/// Bytes of a level's name field.
pub const NAME_LEN: usize = 24;
/// Bytes of a level's title field.
pub const TITLE_LEN: usize = 40;
/// Most levels in one pack (its index is read whole into a fixed buffer).
pub const MAX_LEVELS: usize = 255;
/// The largest index: header and level table of [`MAX_LEVELS`] levels.
pub const MAX_INDEX_LEN: usize = HEADER_LEN + MAX_LEVELS * LEVEL_LEN;

/// Why a pack, or one of its levels, was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// Fewer bytes than the header or the level table needs.
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes present.
        len: usize,
    },
    /// The first four bytes are not `SPCK`.
    BadMagic,
    /// A version this engine does not read.
    UnsupportedVersion(u16),
    /// No levels, or more than [`MAX_LEVELS`].
    LevelCount(u16),
    /// The piece table does not lie between the level table and the end.
    BadPieceTable,
    /// A level's name or title is not NUL-padded UTF-8, or its pieces lie
    /// outside the piece table.
    BadLevel(usize),
    /// A piece of a level lies outside the pack, or the level's pieces do
    /// not add up to its length.
    BadPiece {
        /// The level.
        level: usize,
        /// The piece, counted within the level.
        piece: usize,
    },
    /// The level is larger than the memory it is to be copied into.
    TooLarge {
        /// The level's bytes.
        needed: usize,
        /// The memory's.
        room: usize,
    },
    /// The medium could not be read at this pack offset.
    Read(u32),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PackError::Truncated { needed, len } => {
                write!(f, "pack truncated: {needed} bytes needed, {len} present")
            }
            PackError::BadMagic => write!(f, "not a level pack (no SPCK magic)"),
            PackError::UnsupportedVersion(v) => {
                write!(f, "pack version {v} (this engine reads {VERSION})")
            }
            PackError::LevelCount(n) => {
                write!(f, "pack has {n} levels (1 to {MAX_LEVELS} allowed)")
            }
            PackError::BadPieceTable => write!(f, "pack piece table out of place"),
            PackError::BadLevel(i) => write!(f, "pack level {i}: bad name, title or piece range"),
            PackError::BadPiece { level, piece } => {
                write!(f, "pack level {level}: piece {piece} out of range")
            }
            PackError::TooLarge { needed, room } => {
                write!(f, "level of {needed} bytes does not fit in {room} bytes")
            }
            PackError::Read(at) => write!(f, "cannot read the pack at offset {at}"),
        }
    }
}

/// Where a pack's bytes come from: a slice in memory, a cartridge, a file.
pub trait PackSource {
    /// Fills `into` with the pack's bytes from offset `at`; an error if
    /// any of them cannot be read.
    fn read(&mut self, at: u32, into: &mut [u8]) -> Result<(), PackError>;
}

impl PackSource for &[u8] {
    fn read(&mut self, at: u32, into: &mut [u8]) -> Result<(), PackError> {
        let start = at as usize;
        let bytes = start
            .checked_add(into.len())
            .and_then(|end| self.get(start..end))
            .ok_or(PackError::Read(at))?;
        into.copy_from_slice(bytes);
        Ok(())
    }
}

/// One level of a pack, as its record gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PackLevel<'a> {
    /// Lump name or file stem (`E1M1`, `e1_hangar`).
    pub name: &'a str,
    /// The game's name for it (`Outer Prison`), or empty.
    pub title: &'a str,
    /// The compiled map's length in bytes.
    pub map_len: u32,
    first_piece: u32,
    piece_count: u32,
}

/// A pack's checked header and level table.
#[derive(Copy, Clone, Debug)]
pub struct PackIndex<'a> {
    bytes: &'a [u8],
    levels: usize,
    pieces: u32,
    pieces_at: u32,
    pack_len: u32,
}

/// The index's length as the header at the start of `bytes` gives it
/// (header and level table), so a reader knows how much to read before
/// [`PackIndex::new_checked`]. `bytes` needs only the header.
pub fn index_len(header: &[u8]) -> Result<usize, PackError> {
    if header.len() < HEADER_LEN {
        return Err(PackError::Truncated {
            needed: HEADER_LEN,
            len: header.len(),
        });
    }
    if header[0..4] != MAGIC {
        return Err(PackError::BadMagic);
    }
    let version = u16::from_be_bytes([header[4], header[5]]);
    if version != VERSION {
        return Err(PackError::UnsupportedVersion(version));
    }
    let levels = u16::from_be_bytes([header[6], header[7]]);
    if levels == 0 || levels as usize > MAX_LEVELS {
        return Err(PackError::LevelCount(levels));
    }
    Ok(HEADER_LEN + levels as usize * LEVEL_LEN)
}

impl<'a> PackIndex<'a> {
    /// Validates the header and every level record. `bytes` holds at least
    /// the index ([`index_len`]); more is ignored.
    pub fn new_checked(bytes: &'a [u8]) -> Result<PackIndex<'a>, PackError> {
        let len = index_len(bytes)?;
        if bytes.len() < len {
            return Err(PackError::Truncated {
                needed: len,
                len: bytes.len(),
            });
        }
        let levels = (len - HEADER_LEN) / LEVEL_LEN;
        let pieces = u32_at(bytes, 8);
        let pieces_at = u32_at(bytes, 12);
        let pack_len = u32_at(bytes, 16);
        let table_end = u64::from(pieces_at) + u64::from(pieces) * PIECE_LEN as u64;
        if (pieces_at as usize) < len || table_end > u64::from(pack_len) {
            return Err(PackError::BadPieceTable);
        }
        let index = PackIndex {
            bytes: &bytes[..len],
            levels,
            pieces,
            pieces_at,
            pack_len,
        };
        for i in 0..levels {
            let at = HEADER_LEN + i * LEVEL_LEN;
            let record = &bytes[at..at + LEVEL_LEN];
            let first = u32_at(record, 64);
            let count = u32_at(record, 68);
            let in_table = u64::from(first) + u64::from(count) <= u64::from(pieces);
            if text(&record[..NAME_LEN]).is_none()
                || text(&record[NAME_LEN..NAME_LEN + TITLE_LEN]).is_none()
                || !in_table
            {
                return Err(PackError::BadLevel(i));
            }
        }
        Ok(index)
    }

    /// A view of an index that [`PackIndex::new_checked`] has already
    /// accepted, without checking it again (a reader that keeps the bytes
    /// asks for names every frame). Given any other bytes it cannot panic
    /// either: it sees only the level records that `bytes` holds, the
    /// accessors fall back to empty names, and [`copy_level`] checks every
    /// piece it copies.
    pub fn new_unchecked(bytes: &'a [u8]) -> PackIndex<'a> {
        let stated = usize::from(u16::from_be_bytes([u8_at(bytes, 6), u8_at(bytes, 7)]));
        let held = bytes.len().saturating_sub(HEADER_LEN) / LEVEL_LEN;
        let levels = stated.min(held);
        PackIndex {
            bytes: &bytes[..bytes.len().min(HEADER_LEN + levels * LEVEL_LEN)],
            levels,
            pieces: u32_at(bytes, 8),
            pieces_at: u32_at(bytes, 12),
            pack_len: u32_at(bytes, 16),
        }
    }

    /// Entries in the piece table.
    pub fn piece_count(&self) -> u32 {
        self.pieces
    }

    /// Number of levels (at least one).
    pub fn len(&self) -> usize {
        self.levels
    }

    /// Always false: a pack has at least one level.
    pub fn is_empty(&self) -> bool {
        self.levels == 0
    }

    /// The whole pack's length in bytes, as its header gives it.
    pub fn pack_len(&self) -> u32 {
        self.pack_len
    }

    /// Level `i`, or `None` past the last.
    pub fn level(&self, i: usize) -> Option<PackLevel<'a>> {
        if i >= self.levels {
            return None;
        }
        let at = HEADER_LEN + i * LEVEL_LEN;
        let record = self.bytes.get(at..at + LEVEL_LEN)?;
        Some(PackLevel {
            name: text(&record[..NAME_LEN]).unwrap_or(""),
            title: text(&record[NAME_LEN..NAME_LEN + TITLE_LEN]).unwrap_or(""),
            first_piece: u32_at(record, 64),
            piece_count: u32_at(record, 68),
            map_len: u32_at(record, 72),
        })
    }

    /// The first level named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        (0..self.levels).find(|&i| self.level(i).is_some_and(|l| l.name == name))
    }

    /// The largest level's length in bytes.
    pub fn largest(&self) -> u32 {
        (0..self.levels)
            .filter_map(|i| self.level(i))
            .map(|l| l.map_len)
            .max()
            .unwrap_or(0)
    }
}

/// The NUL-padded UTF-8 in `field`, or `None` if it is not that.
fn text(field: &[u8]) -> Option<&str> {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    if field[end..].iter().any(|&b| b != 0) {
        return None;
    }
    core::str::from_utf8(&field[..end]).ok()
}

/// Piece entries read from the medium at once while copying a level.
const PIECE_BATCH: usize = 32;

/// Copies level `i` of the pack (`index` read from `source`) into the
/// start of `into`, piece by piece, and returns its length. Every piece
/// entry is checked as it is read: it lies in the pack, and the pieces add
/// up to the level's length, which fits in `into`. The bytes are a compiled
/// map still to be loaded (and checked) as any other.
pub fn copy_level<S: PackSource>(
    index: &PackIndex<'_>,
    i: usize,
    source: &mut S,
    into: &mut [u8],
) -> Result<usize, PackError> {
    let level = index.level(i).ok_or(PackError::BadLevel(i))?;
    let needed = level.map_len as usize;
    if needed > into.len() {
        return Err(PackError::TooLarge {
            needed,
            room: into.len(),
        });
    }
    let mut filled = 0usize;
    let mut batch = [0u8; PIECE_BATCH * PIECE_LEN];
    let mut done = 0u32;
    while done < level.piece_count {
        let n = (level.piece_count - done).min(PIECE_BATCH as u32) as usize;
        // A checked index keeps these in the table and the table in the
        // pack; an unchecked one gets an error, not an overflow.
        let first = level.first_piece.checked_add(done);
        let at = first
            .filter(|&f| u64::from(f) + n as u64 <= u64::from(index.pieces))
            .and_then(|f| f.checked_mul(PIECE_LEN as u32))
            .and_then(|offset| index.pieces_at.checked_add(offset))
            .ok_or(PackError::BadPieceTable)?;
        source.read(at, &mut batch[..n * PIECE_LEN])?;
        for k in 0..n {
            let piece = done as usize + k;
            let bad = PackError::BadPiece { level: i, piece };
            let offset = u32_at(&batch, k * PIECE_LEN);
            let len = u32_at(&batch, k * PIECE_LEN + 4) as usize;
            let end = u64::from(offset) + len as u64;
            if offset < index.pieces_at || end > u64::from(index.pack_len) {
                return Err(bad);
            }
            let dest = filled
                .checked_add(len)
                .filter(|&e| e <= needed)
                .and_then(|e| into.get_mut(filled..e))
                .ok_or(bad)?;
            source.read(offset, dest)?;
            filled += len;
        }
        done += n as u32;
    }
    if filled != needed {
        return Err(PackError::BadPiece {
            level: i,
            piece: level.piece_count as usize,
        });
    }
    Ok(needed)
}

/// One level for [`PackRepr::emit`]: its record's fields and its pieces,
/// each a range of the pack's data.
#[derive(Copy, Clone, Debug)]
pub struct LevelRepr<'a> {
    /// Lump name or file stem, at most [`NAME_LEN`] bytes.
    pub name: &'a str,
    /// Title, at most [`TITLE_LEN`] bytes (cut at a character boundary).
    pub title: &'a str,
    /// The level's pieces, in order: (offset into `data`, length).
    pub pieces: &'a [(u32, u32)],
}

/// A whole pack as plain parts: the writer's inverse of [`PackIndex`] and
/// [`copy_level`].
#[derive(Copy, Clone, Debug)]
pub struct PackRepr<'a> {
    /// The levels, in play order.
    pub levels: &'a [LevelRepr<'a>],
    /// Every piece's bytes; pieces are ranges of it.
    pub data: &'a [u8],
}

impl PackRepr<'_> {
    /// Bytes [`PackRepr::emit`] writes.
    pub fn len(&self) -> usize {
        self.data_at() + self.data.len()
    }

    /// Always false: a pack has a header.
    pub fn is_empty(&self) -> bool {
        false
    }

    fn piece_count(&self) -> usize {
        self.levels.iter().map(|l| l.pieces.len()).sum()
    }

    fn data_at(&self) -> usize {
        // The data starts 8-aligned, so a piece the writer aligned stays
        // aligned in the pack (a DMA engine's liking).
        let table = HEADER_LEN + self.levels.len() * LEVEL_LEN + self.piece_count() * PIECE_LEN;
        (table + 7) & !7
    }

    /// Writes the pack into `out` (at least [`PackRepr::len`] bytes) and
    /// returns its length; `None` if a field does not fit its record (a
    /// name too long, too many levels, a piece outside `data`, a pack over
    /// 4 GiB) or `out` is short.
    pub fn emit(&self, out: &mut [u8]) -> Option<usize> {
        let len = self.len();
        if self.levels.is_empty()
            || self.levels.len() > MAX_LEVELS
            || len > u32::MAX as usize
            || out.len() < len
        {
            return None;
        }
        let data_at = self.data_at() as u32;
        let mut w = Writer::new(out);
        w.bytes(&MAGIC);
        w.u16(VERSION);
        w.u16(self.levels.len() as u16);
        w.u32(self.piece_count() as u32);
        w.u32((HEADER_LEN + self.levels.len() * LEVEL_LEN) as u32);
        w.u32(len as u32);
        w.u32(0);
        let mut first = 0u32;
        for level in self.levels {
            if level.name.len() > NAME_LEN {
                return None;
            }
            w.bytes(level.name.as_bytes());
            w.bytes(&[0; NAME_LEN][level.name.len()..]);
            let title = cut(level.title, TITLE_LEN);
            w.bytes(title.as_bytes());
            w.bytes(&[0; TITLE_LEN][title.len()..]);
            w.u32(first);
            w.u32(level.pieces.len() as u32);
            let map_len: u64 = level.pieces.iter().map(|&(_, n)| u64::from(n)).sum();
            w.u32(u32::try_from(map_len).ok()?);
            w.u32(0);
            first += level.pieces.len() as u32;
        }
        for level in self.levels {
            for &(offset, n) in level.pieces {
                if u64::from(offset) + u64::from(n) > self.data.len() as u64 {
                    return None;
                }
                w.u32(data_at + offset);
                w.u32(n);
            }
        }
        while w.position() < data_at as usize {
            w.u8(0);
        }
        w.bytes(self.data);
        (!w.overflowed() && w.position() == len).then_some(len)
    }
}

/// `s` cut to at most `max` bytes, at a character boundary.
fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two levels over ten bytes of data, sharing the first four.
    fn sample(out: &mut [u8]) -> usize {
        let data = b"AAAABBBBCC";
        let a = [(0, 4), (8, 2)];
        let b = [(4, 4), (0, 4)];
        let levels = [
            LevelRepr {
                name: "E1M1",
                title: "Outer Prison",
                pieces: &a,
            },
            LevelRepr {
                name: "e1_hangar",
                title: "",
                pieces: &b,
            },
        ];
        PackRepr {
            levels: &levels,
            data,
        }
        .emit(out)
        .unwrap()
    }

    #[test]
    fn levels_come_back_piece_by_piece() {
        let mut buf = [0u8; 512];
        let len = sample(&mut buf);
        let pack = &buf[..len];
        let index = PackIndex::new_checked(pack).unwrap();
        assert_eq!(index.len(), 2);
        let first = index.level(0).unwrap();
        assert_eq!(
            (first.name, first.title, first.map_len),
            ("E1M1", "Outer Prison", 6)
        );
        assert_eq!(index.find("e1_hangar"), Some(1));
        assert_eq!(index.largest(), 8);
        let mut into = [0u8; 8];
        let n = copy_level(&index, 0, &mut { pack }, &mut into).unwrap();
        assert_eq!(&into[..n], b"AAAACC");
        let n = copy_level(&index, 1, &mut { pack }, &mut into).unwrap();
        assert_eq!(&into[..n], b"BBBBAAAA");
        let mut small = [0u8; 7];
        assert_eq!(
            copy_level(&index, 1, &mut { pack }, &mut small),
            Err(PackError::TooLarge { needed: 8, room: 7 })
        );
    }

    #[test]
    fn a_name_too_long_is_not_written() {
        let data = b"x";
        let levels = [LevelRepr {
            name: "a_name_longer_than_24_bytes",
            title: "",
            pieces: &[(0, 1)],
        }];
        let mut out = [0u8; 256];
        assert_eq!(
            PackRepr {
                levels: &levels,
                data
            }
            .emit(&mut out),
            None
        );
    }

    #[test]
    fn a_truncated_or_damaged_pack_is_refused_or_reads_in_range() {
        let mut buf = [0u8; 512];
        let len = sample(&mut buf);
        let expected: [&[u8]; 2] = [b"AAAACC", b"BBBBAAAA"];
        // Cut anywhere: a level either comes back whole and right, or is
        // refused (its bytes lie past the cut).
        for cut in 0..len {
            let pack = &buf[..cut];
            if let Ok(index) = PackIndex::new_checked(pack) {
                for (i, want) in expected.iter().enumerate() {
                    let mut into = [0u8; 64];
                    if let Ok(n) = copy_level(&index, i, &mut { pack }, &mut into) {
                        assert_eq!(&into[..n], *want, "cut at {cut}");
                    }
                }
            }
        }
        // Any bit flipped: never a panic, never a level longer than the
        // buffer.
        for at in 0..len {
            for bit in 0..8 {
                let mut bad = buf;
                bad[at] ^= 1 << bit;
                let pack = &bad[..len];
                if let Ok(index) = PackIndex::new_checked(pack) {
                    for i in 0..index.len() {
                        let mut into = [0u8; 16];
                        if let Ok(n) = copy_level(&index, i, &mut { pack }, &mut into) {
                            assert!(n <= into.len());
                        }
                    }
                }
            }
        }
    }
    #[test]
    fn an_unchecked_view_is_the_checked_one_and_never_panics() {
        let mut buf = [0u8; 512];
        let len = sample(&mut buf);
        let checked = PackIndex::new_checked(&buf[..len]).unwrap();
        let unchecked = PackIndex::new_unchecked(&buf[..len]);
        assert_eq!(unchecked.len(), checked.len());
        for i in 0..3 {
            assert_eq!(unchecked.level(i), checked.level(i));
        }
        // Whatever the bytes, the view and a copy through it stay in range:
        // every truncation and every flipped bit, the copy from the whole
        // (undamaged) pack's data.
        let pack = &buf[..len];
        let check = |bytes: &[u8]| {
            let index = PackIndex::new_unchecked(bytes);
            assert!(index.len() <= 2);
            let _ = (index.largest(), index.find("E1M1"), index.pack_len());
            for i in 0..=index.len() {
                let _ = index.level(i);
                let mut into = [0u8; 16];
                if let Ok(n) = copy_level(&index, i, &mut { pack }, &mut into) {
                    assert!(n <= into.len());
                }
            }
        };
        for cut in 0..len {
            check(&buf[..cut]);
        }
        for at in 0..len {
            for bit in 0..8 {
                let mut bad = buf;
                bad[at] ^= 1 << bit;
                check(&bad[..len]);
            }
        }
    }
}
