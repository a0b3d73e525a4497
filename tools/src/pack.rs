//! Level packs ([`engine::format::pack`]): many compiled maps in one file,
//! for a cartridge to carry a whole game, each texture's pixels (and each
//! palette and light table) stored once however many levels use them.
//!
//! A level is cut into pieces at its shareable ranges: each texture's
//! pixels in `TXPX`, and the `PALT` and `CMAP` sections. A shareable range
//! whose bytes are already in the pack is listed again, not stored again;
//! everything between is the level's own. Copying the pieces back in
//! order gives the compiled map byte for byte, so a pack changes nothing
//! about what a level is.
//!
//! Level names: a WAD's map is called by its lump name, and titled from
//! the WAD's `DEHACKED` lump where it names the map (`HUSTR_E1M1 = C1M1:
//! Outer Prison` gives `Outer Prison`); one of our maps is called by its
//! file stem and titled by its `title`.

use std::collections::HashMap;

use engine::format::bytes::u32_at;
use engine::format::pack::{self, LevelRepr, PackRepr};
use engine::format::{tag, MapView, DIR_ENTRY_LEN, HEADER_LEN};

/// Shareable ranges shorter than this stay in the level's own bytes: a
/// piece entry costs 8 bytes and a DMA of its own.
const MIN_SHARED: usize = 256;

/// Builds a pack one level at a time.
#[derive(Default)]
pub struct PackBuilder {
    data: Vec<u8>,
    /// Where each shared range's bytes already are in `data`.
    shared: HashMap<Vec<u8>, u32>,
    levels: Vec<PackedLevel>,
    stats: PackStats,
}

/// A level added: its name, title and pieces.
struct PackedLevel {
    name: String,
    title: String,
    pieces: Vec<(u32, u32)>,
}

/// What a pack holds and what sharing saved.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PackStats {
    /// Levels.
    pub levels: usize,
    /// The compiled maps' bytes, all together.
    pub map_bytes: usize,
    /// The largest compiled map's bytes.
    pub largest: usize,
    /// Bytes of shared ranges stored once.
    pub shared_bytes: usize,
    /// Bytes of shared ranges listed again instead of stored again.
    pub saved_bytes: usize,
    /// Piece entries.
    pub pieces: usize,
}

impl PackBuilder {
    /// An empty pack.
    pub fn new() -> PackBuilder {
        PackBuilder::default()
    }

    /// Adds a compiled map (checked with the engine's loader first) as the
    /// next level. `name` is at most 24 bytes (a lump name or a file
    /// stem, see [`level_name`]); `title` is cut to fit its field.
    pub fn add(&mut self, name: &str, title: &str, map: &[u8]) -> Result<(), String> {
        let view = MapView::new_checked(map).map_err(|e| format!("error: `{name}`: {e}"))?;
        if name.is_empty() || name.len() > pack::NAME_LEN {
            return Err(format!(
                "error: level name `{name}` must be 1 to {} bytes",
                pack::NAME_LEN
            ));
        }
        if self.levels.len() == pack::MAX_LEVELS {
            return Err(format!(
                "error: a pack holds at most {} levels",
                pack::MAX_LEVELS
            ));
        }
        let mut pieces = Vec::new();
        let mut cursor = 0usize;
        for (start, end) in shareable_ranges(map, &view) {
            if start < cursor {
                continue; // overlapping ranges: the first one wins
            }
            if start > cursor {
                pieces.push(self.store(&map[cursor..start]));
            }
            pieces.push(self.share(&map[start..end]));
            cursor = end;
        }
        if cursor < map.len() {
            pieces.push(self.store(&map[cursor..]));
        }
        // Adjacent own pieces are one piece: fewer entries to read.
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(pieces.len());
        for p in pieces {
            match merged.last_mut() {
                Some(last) if last.0 + last.1 == p.0 => last.1 += p.1,
                _ => merged.push(p),
            }
        }
        self.stats.levels += 1;
        self.stats.map_bytes += map.len();
        self.stats.largest = self.stats.largest.max(map.len());
        self.stats.pieces += merged.len();
        self.levels.push(PackedLevel {
            name: name.to_string(),
            title: title.to_string(),
            pieces: merged,
        });
        Ok(())
    }

    /// Stores `bytes` as a new piece, 8-aligned.
    fn store(&mut self, bytes: &[u8]) -> (u32, u32) {
        while !self.data.len().is_multiple_of(8) {
            self.data.push(0);
        }
        let at = self.data.len() as u32;
        self.data.extend_from_slice(bytes);
        (at, bytes.len() as u32)
    }

    /// A shared piece: the stored copy if there is one, else a new one.
    fn share(&mut self, bytes: &[u8]) -> (u32, u32) {
        if let Some(&at) = self.shared.get(bytes) {
            self.stats.saved_bytes += bytes.len();
            return (at, bytes.len() as u32);
        }
        let piece = self.store(bytes);
        self.stats.shared_bytes += bytes.len();
        self.shared.insert(bytes.to_vec(), piece.0);
        piece
    }

    /// The figures so far.
    pub fn stats(&self) -> PackStats {
        self.stats
    }

    /// The pack's bytes.
    pub fn finish(&self) -> Result<Vec<u8>, String> {
        if self.levels.is_empty() {
            return Err("error: a pack needs at least one level".into());
        }
        let levels: Vec<LevelRepr<'_>> = self
            .levels
            .iter()
            .map(|l| LevelRepr {
                name: &l.name,
                title: &l.title,
                pieces: &l.pieces,
            })
            .collect();
        let repr = PackRepr {
            levels: &levels,
            data: &self.data,
        };
        let mut out = vec![0u8; repr.len()];
        repr.emit(&mut out)
            .ok_or_else(|| "error: the pack is larger than 4 GiB".to_string())?;
        Ok(out)
    }
}

/// The byte ranges of `map` worth sharing with other levels, sorted:
/// every texture's pixels, the palette and the light table.
fn shareable_ranges(map: &[u8], view: &MapView<'_>) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let sections = u16::from_be_bytes([map[6], map[7]]) as usize;
    for s in 0..sections {
        let at = HEADER_LEN + s * DIR_ENTRY_LEN;
        let section_tag = &map[at..at + 4];
        let offset = u32_at(map, at + 4) as usize;
        let len = u32_at(map, at + 8) as usize;
        if section_tag == tag::PALETTE || section_tag == tag::COLORMAP {
            ranges.push((offset, offset + len));
        }
        if section_tag == tag::TEXTURE_PIXELS {
            for t in 0..view.texture_count() {
                let r = view.texture_record(t);
                let start = offset + r.offset as usize;
                let end = start + r.width as usize * r.height as usize;
                // The loader checked every texture against TXPX.
                if end <= offset + len {
                    ranges.push((start, end));
                }
            }
        }
    }
    ranges.retain(|&(a, b)| b - a >= MIN_SHARED && b <= map.len());
    ranges.sort_unstable();
    ranges.dedup();
    ranges
}

/// The titles a WAD's `DEHACKED` lump gives its maps, by map name
/// (`E1M1`, `MAP01`): DOOM's `HUSTR_E1M1` and `HUSTR_1` strings, with a
/// leading `C1M1: ` (the automap's label) cut off.
pub fn dehacked_titles(wad: &[u8]) -> HashMap<String, String> {
    let mut titles = HashMap::new();
    let Ok(wad) = crate::wad::Wad::parse(wad) else {
        return titles;
    };
    let Some(lump) = wad.lump("DEHACKED") else {
        return titles;
    };
    let text = String::from_utf8_lossy(lump);
    for line in text.lines() {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let Some(id) = key.trim().strip_prefix("HUSTR_") else {
            continue;
        };
        let map = if let Ok(n) = id.parse::<u32>() {
            format!("MAP{n:02}")
        } else if id.len() == 4 && id.starts_with('E') && id.as_bytes()[2] == b'M' {
            id.to_string()
        } else {
            continue;
        };
        let value = value.trim();
        let title = match value.split_once(": ") {
            Some((label, rest)) if !label.contains(' ') => rest,
            _ => value,
        };
        titles.insert(map, title.trim().to_string());
    }
    titles
}

/// A level name for a map file: its stem, cut to 24 bytes at a character
/// boundary.
pub fn level_name(stem: &str) -> String {
    let mut end = stem.len().min(pack::NAME_LEN);
    while !stem.is_char_boundary(end) {
        end -= 1;
    }
    stem[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::format::pack::{copy_level, PackIndex};

    fn compile(path: &str) -> Vec<u8> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        crate::load_map(&root.join(path)).unwrap().bytes
    }

    #[test]
    fn every_level_comes_back_byte_for_byte() {
        let maps = ["maps/e1_hangar.map", "maps/textured.map", "maps/stairs.map"];
        let mut builder = PackBuilder::new();
        let compiled: Vec<Vec<u8>> = maps.iter().map(|m| compile(m)).collect();
        for (i, bytes) in compiled.iter().enumerate() {
            builder.add(&format!("L{i}"), "title", bytes).unwrap();
        }
        // The textured map twice: its textures are stored once.
        builder.add("again", "", &compiled[1]).unwrap();
        let stats = builder.stats();
        assert!(stats.saved_bytes > 0, "{stats:?}");
        let pack = builder.finish().unwrap();
        assert!(pack.len() < stats.map_bytes, "{} vs {stats:?}", pack.len());
        let index = PackIndex::new_checked(&pack).unwrap();
        assert_eq!(index.len(), 4);
        for (i, want) in compiled.iter().chain([&compiled[1]]).enumerate() {
            let mut into = vec![0u8; want.len()];
            let n = copy_level(&index, i, &mut &pack[..], &mut into).unwrap();
            assert_eq!(&into[..n], &want[..], "level {i}");
        }
    }

    #[test]
    fn bad_names_and_bad_maps_are_refused() {
        let bytes = compile("maps/e1_hangar.map");
        let mut builder = PackBuilder::new();
        assert!(builder.add("", "", &bytes).is_err());
        assert!(builder
            .add("a_name_longer_than_24_bytes", "", &bytes)
            .is_err());
        assert!(builder.add("x", "", &bytes[..bytes.len() / 2]).is_err());
        assert!(builder.finish().is_err());
    }

    #[test]
    fn titles_come_from_dehacked() {
        let lump = b"Patch File for DeHackEd v3.0\n[STRINGS]\nHUSTR_E1M1 = C1M1: Outer Prison\nHUSTR_12 = MAP12: Railroads\nHUSTR_PLRRED = r:\nHUSTR_E2M3 = Plain\n";
        let mut wad = Vec::new();
        wad.extend_from_slice(b"PWAD");
        wad.extend_from_slice(&1u32.to_le_bytes());
        wad.extend_from_slice(&((12 + lump.len()) as u32).to_le_bytes());
        wad.extend_from_slice(lump);
        wad.extend_from_slice(&12u32.to_le_bytes());
        wad.extend_from_slice(&(lump.len() as u32).to_le_bytes());
        wad.extend_from_slice(b"DEHACKED");
        let titles = dehacked_titles(&wad);
        assert_eq!(titles.get("E1M1").map(String::as_str), Some("Outer Prison"));
        assert_eq!(titles.get("MAP12").map(String::as_str), Some("Railroads"));
        assert_eq!(titles.get("E2M3").map(String::as_str), Some("Plain"));
        assert_eq!(titles.len(), 3);
        assert_eq!(
            level_name("a_file_stem_longer_than_24"),
            "a_file_stem_longer_than_"
        );
    }
}
