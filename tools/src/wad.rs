//! Reading WAD files: the container DOOM and every Doom editor use.
//!
//! A WAD is a 12-byte header (`IWAD` or `PWAD`, the number of lumps and the
//! offset of the directory, little-endian `i32`s) and a directory of 16-byte
//! entries (offset, size, an 8-byte NUL-padded name). This module is the
//! one place that knows that layout and its byte order (little-endian,
//! unlike our own compiled maps).
//!
//! Every offset and size is checked when the WAD is opened, so asking for a
//! lump's bytes afterwards cannot fail. A map is a marker lump (`E1M1`,
//! `MAP01`, or any name followed by map lumps) followed either by the
//! binary lumps (`THINGS`, `LINEDEFS`, `SIDEDEFS`, `VERTEXES`, `SEGS`, ...)
//! or by `TEXTMAP` ... `ENDMAP` (UDMF).

use std::fmt;

/// Bytes in the header.
pub const HEADER_LEN: usize = 12;
/// Bytes per directory entry.
pub const ENTRY_LEN: usize = 16;

/// Why a WAD could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WadError {
    /// Shorter than the header.
    TooShort(usize),
    /// The first four bytes are not `IWAD` or `PWAD`.
    BadMagic([u8; 4]),
    /// The lump count or directory offset is negative.
    NegativeHeader,
    /// The directory reaches past the end of the file.
    DirectoryOutOfBounds {
        /// Directory offset.
        offset: u64,
        /// Entries it claims.
        count: u64,
        /// File length.
        len: usize,
    },
    /// A lump reaches past the end of the file.
    LumpOutOfBounds {
        /// Its position in the directory.
        index: usize,
        /// Its name.
        name: String,
    },
}

impl fmt::Display for WadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WadError::TooShort(n) => write!(f, "not a WAD: only {n} bytes (a WAD header is 12)"),
            WadError::BadMagic(m) => write!(
                f,
                "not a WAD: it starts with {:?}, not IWAD or PWAD",
                String::from_utf8_lossy(m)
            ),
            WadError::NegativeHeader => write!(f, "corrupt WAD: negative lump count or directory offset"),
            WadError::DirectoryOutOfBounds { offset, count, len } => write!(
                f,
                "corrupt WAD: its directory ({count} entries at byte {offset}) reaches past the end of the file ({len} bytes)"
            ),
            WadError::LumpOutOfBounds { index, name } => write!(
                f,
                "corrupt WAD: lump {index} ({name}) reaches past the end of the file"
            ),
        }
    }
}

impl std::error::Error for WadError {}

/// One directory entry, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lump {
    /// The name, upper-cased, NULs removed.
    pub name: String,
    /// Byte offset in the file.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
}

/// How a map's geometry is stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MapFormat {
    /// DOOM's binary lumps.
    Doom,
    /// A `TEXTMAP` lump.
    Udmf,
}

/// A map found in a WAD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapEntry {
    /// The marker's name (`E1M1`, `MAP01`, ...).
    pub name: String,
    /// Directory index of the marker.
    pub marker: usize,
    /// Binary or UDMF.
    pub format: MapFormat,
    /// Directory indices of the map's lumps (after the marker).
    pub lumps: std::ops::Range<usize>,
}

/// The lumps that may follow a binary map marker.
pub const DOOM_MAP_LUMPS: [&str; 11] = [
    "THINGS", "LINEDEFS", "SIDEDEFS", "VERTEXES", "SEGS", "SSECTORS", "NODES", "SECTORS", "REJECT",
    "BLOCKMAP", "BEHAVIOR",
];

/// An opened WAD: the bytes and the checked directory.
#[derive(Clone, Debug)]
pub struct Wad<'a> {
    bytes: &'a [u8],
    lumps: Vec<Lump>,
    /// True for an IWAD.
    pub is_iwad: bool,
}

fn le_i32(b: &[u8], at: usize) -> i32 {
    match b.get(at..at + 4) {
        Some(&[a, b1, c, d]) => i32::from_le_bytes([a, b1, c, d]),
        _ => 0,
    }
}

/// An 8-byte lump name as a string: up to the first NUL, upper-cased
/// (DOOM compares names case-insensitively).
pub fn lump_name(raw: &[u8]) -> String {
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len()).min(8);
    raw[..end]
        .iter()
        .map(|&b| (b as char).to_ascii_uppercase())
        .collect()
}

impl<'a> Wad<'a> {
    /// Opens a WAD held in memory, checking the header, the directory and
    /// every lump's extent.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, WadError> {
        if bytes.len() < HEADER_LEN {
            return Err(WadError::TooShort(bytes.len()));
        }
        let magic = [bytes[0], bytes[1], bytes[2], bytes[3]];
        let is_iwad = match &magic {
            b"IWAD" => true,
            b"PWAD" => false,
            _ => return Err(WadError::BadMagic(magic)),
        };
        let count = le_i32(bytes, 4);
        let dir = le_i32(bytes, 8);
        if count < 0 || dir < 0 {
            return Err(WadError::NegativeHeader);
        }
        let (count, dir) = (count as u64, dir as u64);
        let end = dir + count * ENTRY_LEN as u64;
        if end > bytes.len() as u64 {
            return Err(WadError::DirectoryOutOfBounds {
                offset: dir,
                count,
                len: bytes.len(),
            });
        }
        let mut lumps = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let at = dir as usize + i * ENTRY_LEN;
            let offset = le_i32(bytes, at);
            let size = le_i32(bytes, at + 4);
            let name = lump_name(&bytes[at + 8..at + 16]);
            // Zero-size marker lumps often carry junk offsets: only lumps
            // with bytes must lie inside the file.
            let ok = size == 0
                || (offset >= 0 && size > 0 && (offset as u64 + size as u64) <= bytes.len() as u64);
            if !ok {
                return Err(WadError::LumpOutOfBounds { index: i, name });
            }
            lumps.push(Lump {
                name,
                offset: if size == 0 { 0 } else { offset as usize },
                size: size.max(0) as usize,
            });
        }
        Ok(Wad {
            bytes,
            lumps,
            is_iwad,
        })
    }

    /// The directory.
    pub fn lumps(&self) -> &[Lump] {
        &self.lumps
    }

    /// The bytes of lump `index` (empty for an index out of range).
    pub fn data(&self, index: usize) -> &'a [u8] {
        match self.lumps.get(index) {
            Some(l) => &self.bytes[l.offset..l.offset + l.size],
            None => &[],
        }
    }

    /// The last lump called `name` (the one DOOM would use), if any.
    pub fn find(&self, name: &str) -> Option<usize> {
        let name = name.to_ascii_uppercase();
        self.lumps.iter().rposition(|l| l.name == name)
    }

    /// The bytes of the last lump called `name`.
    pub fn lump(&self, name: &str) -> Option<&'a [u8]> {
        self.find(name).map(|i| self.data(i))
    }

    /// Directory indices strictly between every `start` .. `end` marker
    /// pair (e.g. `F_START` .. `F_END`; `FF_START` and `F1_START` style
    /// markers from PWADs are matched by `start_names`/`end_names`).
    pub fn between(&self, start_names: &[&str], end_names: &[&str]) -> Vec<usize> {
        let mut out = Vec::new();
        let mut inside = false;
        for (i, l) in self.lumps.iter().enumerate() {
            if start_names.contains(&l.name.as_str()) {
                inside = true;
            } else if end_names.contains(&l.name.as_str()) {
                inside = false;
            } else if inside && l.size > 0 {
                out.push(i);
            }
        }
        out
    }

    /// Every map in the WAD, in directory order.
    pub fn maps(&self) -> Vec<MapEntry> {
        let mut maps = Vec::new();
        let mut i = 0;
        while i < self.lumps.len() {
            let next = self.lumps.get(i + 1).map(|l| l.name.as_str());
            if next == Some("TEXTMAP") {
                let start = i + 1;
                let mut end = start;
                while end < self.lumps.len() && self.lumps[end].name != "ENDMAP" {
                    end += 1;
                }
                maps.push(MapEntry {
                    name: self.lumps[i].name.clone(),
                    marker: i,
                    format: MapFormat::Udmf,
                    lumps: start..end,
                });
                i = end + 1;
                continue;
            }
            if next.is_some_and(|n| DOOM_MAP_LUMPS.contains(&n)) && next != Some("BEHAVIOR") {
                let start = i + 1;
                let mut end = start;
                while end < self.lumps.len()
                    && DOOM_MAP_LUMPS.contains(&self.lumps[end].name.as_str())
                {
                    end += 1;
                }
                maps.push(MapEntry {
                    name: self.lumps[i].name.clone(),
                    marker: i,
                    format: MapFormat::Doom,
                    lumps: start..end,
                });
                i = end;
                continue;
            }
            i += 1;
        }
        maps
    }

    /// The map called `name` (case-insensitive; the last one if repeated).
    pub fn map(&self, name: &str) -> Option<MapEntry> {
        let name = name.to_ascii_uppercase();
        self.maps().into_iter().rev().find(|m| m.name == name)
    }

    /// The bytes of lump `lump` of `map` (e.g. `"LINEDEFS"`, `"TEXTMAP"`).
    pub fn map_lump(&self, map: &MapEntry, lump: &str) -> Option<&'a [u8]> {
        map.lumps
            .clone()
            .find(|&i| self.lumps[i].name == lump)
            .map(|i| self.data(i))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Builds a WAD from (name, bytes) lumps.
    pub(crate) fn make_wad(magic: &[u8; 4], lumps: &[(&str, &[u8])]) -> Vec<u8> {
        let mut data = Vec::new();
        let mut dir = Vec::new();
        for (name, bytes) in lumps {
            let offset = HEADER_LEN + data.len();
            data.extend_from_slice(bytes);
            dir.extend_from_slice(&(offset as i32).to_le_bytes());
            dir.extend_from_slice(&(bytes.len() as i32).to_le_bytes());
            let mut n = [0u8; 8];
            n[..name.len()].copy_from_slice(name.as_bytes());
            dir.extend_from_slice(&n);
        }
        let mut out = Vec::new();
        out.extend_from_slice(magic);
        out.extend_from_slice(&(lumps.len() as i32).to_le_bytes());
        out.extend_from_slice(&((HEADER_LEN + data.len()) as i32).to_le_bytes());
        out.extend_from_slice(&data);
        out.extend_from_slice(&dir);
        out
    }

    #[test]
    fn finds_binary_and_udmf_maps() {
        let bytes = make_wad(
            b"PWAD",
            &[
                ("E1M1", b""),
                ("THINGS", b"0123456789"),
                ("LINEDEFS", b""),
                ("VERTEXES", b""),
                ("PLAYPAL", b"x"),
                ("MAP01", b""),
                ("TEXTMAP", b"namespace=\"doom\";"),
                ("ENDMAP", b""),
            ],
        );
        let wad = Wad::parse(&bytes).unwrap();
        let maps = wad.maps();
        assert_eq!(maps.len(), 2);
        assert_eq!(
            (maps[0].name.as_str(), maps[0].format),
            ("E1M1", MapFormat::Doom)
        );
        assert_eq!(maps[0].lumps, 1..4);
        assert_eq!(
            (maps[1].name.as_str(), maps[1].format),
            ("MAP01", MapFormat::Udmf)
        );
        assert_eq!(wad.map_lump(&maps[0], "THINGS"), Some(&b"0123456789"[..]));
        assert_eq!(wad.map_lump(&maps[1], "TEXTMAP").unwrap().len(), 17);
        assert_eq!(wad.lump("playpal"), Some(&b"x"[..]));
        assert!(wad.map("e1m1").is_some() && wad.map("E1M2").is_none());
    }

    #[test]
    fn hostile_headers_give_errors() {
        assert_eq!(Wad::parse(b"IWAD").unwrap_err(), WadError::TooShort(4));
        assert!(matches!(
            Wad::parse(b"XWAD\0\0\0\0\0\0\0\0"),
            Err(WadError::BadMagic(_))
        ));
        let mut neg = b"IWAD".to_vec();
        neg.extend_from_slice(&(-1i32).to_le_bytes());
        neg.extend_from_slice(&0i32.to_le_bytes());
        assert_eq!(Wad::parse(&neg).unwrap_err(), WadError::NegativeHeader);
        // A directory pointing past the end.
        let mut far = b"IWAD".to_vec();
        far.extend_from_slice(&1i32.to_le_bytes());
        far.extend_from_slice(&1000i32.to_le_bytes());
        assert!(matches!(
            Wad::parse(&far),
            Err(WadError::DirectoryOutOfBounds { .. })
        ));
        // A lump pointing past the end.
        let mut bytes = make_wad(b"IWAD", &[("DATA", b"abcd")]);
        let dir = bytes.len() - ENTRY_LEN;
        bytes[dir + 4..dir + 8].copy_from_slice(&5000i32.to_le_bytes());
        assert!(matches!(
            Wad::parse(&bytes),
            Err(WadError::LumpOutOfBounds { index: 0, .. })
        ));
        // Huge counts do not allocate or overflow.
        let mut huge = b"PWAD".to_vec();
        huge.extend_from_slice(&i32::MAX.to_le_bytes());
        huge.extend_from_slice(&i32::MAX.to_le_bytes());
        assert!(Wad::parse(&huge).is_err());
    }

    #[test]
    fn every_truncation_is_an_error_or_a_smaller_wad() {
        let bytes = make_wad(b"IWAD", &[("A", b"12345678"), ("B", b"xyz")]);
        for n in 0..bytes.len() {
            let _ = Wad::parse(&bytes[..n]);
        }
    }
}
