//! Shared pieces of the benchmarks: loading maps by name, seeded walks,
//! simple statistics.

use engine::game::Input;

/// The Freedoom IWADs, where Debian's `freedoom` package puts them.
pub const FREEDOOM: [&str; 2] = [
    "/usr/share/games/doom/freedoom1.wad",
    "/usr/share/games/doom/freedoom2.wad",
];

/// A compiled map and the name to print for it.
pub struct Map {
    /// `freedoom1.wad:E1M1` or a file name.
    pub name: String,
    /// The compiled bytes.
    pub bytes: Vec<u8>,
    /// The WAD's own BLOCKMAP lump, for DOOM-format maps.
    pub doom_blockmap: Option<Vec<u8>>,
}

/// Every map of every WAD given, and every text or compiled map given.
pub fn load_maps(paths: &[String]) -> Result<Vec<Map>, String> {
    let mut out = Vec::new();
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        if bytes.starts_with(b"IWAD") || bytes.starts_with(b"PWAD") {
            let source = tools::import::WadSource::new(&bytes, None)?;
            let short = path.rsplit('/').next().unwrap_or(path);
            for entry in source.maps() {
                let imported = source.compile(&entry, &tools::import::ImportOptions::default())?;
                out.push(Map {
                    name: format!("{short}:{}", entry.name),
                    bytes: imported.compiled.bytes,
                    doom_blockmap: source
                        .wad()
                        .map_lump(&entry, "BLOCKMAP")
                        .map(<[u8]>::to_vec),
                });
            }
        } else {
            let loaded = tools::load_map(std::path::Path::new(path))?;
            out.push(Map {
                name: path.clone(),
                bytes: loaded.bytes,
                doom_blockmap: None,
            });
        }
    }
    Ok(out)
}

/// A seeded walk that runs at walls: [`tools::walk::seeded`], the soak
/// test's generator.
pub fn walk(seed: u64, ticks: usize) -> Vec<Input> {
    tools::walk::seeded(seed, ticks)
}

/// The value at quantile `q` (0..=1) of `v` (sorted in place).
pub fn quantile<T: Copy + Ord>(v: &mut [T], q: f64) -> Option<T> {
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    Some(v[i])
}

/// DOOM's own blockmap (the BLOCKMAP lump): the lines DOOM's
/// `P_CheckPosition` would test for a thing of `radius` at (x, y): every
/// block of the thing's box widened by `MAXRADIUS` (32), unique lines.
pub fn doom_lines_checked(lump: &[u8], x: f64, y: f64, radius: f64) -> Option<usize> {
    let word = |i: usize| -> Option<i16> {
        Some(i16::from_le_bytes([
            *lump.get(i * 2)?,
            *lump.get(i * 2 + 1)?,
        ]))
    };
    let (ox, oy) = (word(0)? as f64, word(1)? as f64);
    let (cols, rows) = (word(2)? as i64, word(3)? as i64);
    const MAXRADIUS: f64 = 32.0;
    let block = |v: f64, o: f64| ((v - o) / 128.0).floor() as i64;
    let (xl, xh) = (
        block(x - radius - MAXRADIUS, ox),
        block(x + radius + MAXRADIUS, ox),
    );
    let (yl, yh) = (
        block(y - radius - MAXRADIUS, oy),
        block(y + radius + MAXRADIUS, oy),
    );
    let mut lines = Vec::new();
    for by in yl.max(0)..=yh.min(rows - 1) {
        for bx in xl.max(0)..=xh.min(cols - 1) {
            let offset = word(4 + (by * cols + bx) as usize)? as u16 as usize;
            // Each list starts with a 0 delimiter and ends with -1.
            let mut i = offset + 1;
            loop {
                let l = word(i)?;
                if l == -1 {
                    break;
                }
                lines.push(l as u16);
                i += 1;
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    Some(lines.len())
}
