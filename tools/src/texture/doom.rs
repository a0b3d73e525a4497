//! DOOM's texture lumps: `PLAYPAL`, `COLORMAP`, `PNAMES`, `TEXTURE1` /
//! `TEXTURE2` and flats. Every count and offset is checked against the
//! lump; damage gives warnings, never a panic.
//!
//! ```text
//! PNAMES     count i32 | count x name[8]
//! TEXTUREx   count i32 | count x offset i32 | maptexture_t ...
//! maptexture name[8] | masked i32 | width, height i16 | columndirectory i32 |
//!            patchcount i16 | patchcount x mappatch_t
//! mappatch   originx, originy, patch (PNAMES index), stepdir, colormap: i16
//! ```

use std::collections::{HashMap, HashSet};

use engine::format::size::{MAX_TEXTURE_HEIGHT, MAX_TEXTURE_WIDTH};

use super::{le_i16, le_i32, picture, Image};
use crate::wad::lump_name;

/// Bytes of a `maptexture_t` before its patches.
const MAPTEXTURE_LEN: usize = 22;
/// Bytes of a `mappatch_t`.
const MAPPATCH_LEN: usize = 10;
/// Most patch references read from one TEXTURE lump (real ones have a few
/// thousand; a hostile one could otherwise claim billions).
const MAX_PATCH_REFS: usize = 1 << 20;
/// Problems of one lump listed one by one; the rest are counted.
const MAX_LISTED_PROBLEMS: usize = 10;
/// Most pixels one texture's patches may write together (a budget against
/// hostile textures with thousands of huge patches).
const MAX_COMPOSE_PIXELS: usize = 1 << 26;

/// One patch of a composite texture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchRef {
    /// Column of the patch's left edge in the texture (may be negative).
    pub x: i16,
    /// Row of the patch's top edge in the texture (may be negative).
    pub y: i16,
    /// The PNAMES index as written.
    pub index: i16,
    /// The patch's lump name, or `None` when the index is not in PNAMES.
    pub name: Option<String>,
}

/// A composite wall texture as TEXTURE1/TEXTURE2 define it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureDef {
    /// Upper-cased name.
    pub name: String,
    /// Columns (already limited to what the engine holds).
    pub width: u16,
    /// Rows (already limited to what the engine holds).
    pub height: u16,
    /// Its patches, drawn in order (later ones on top).
    pub patches: Vec<PatchRef>,
    /// The lump it came from (`TEXTURE1`, `TEXTURE2`), for messages.
    pub source: &'static str,
    /// How many names the PNAMES it indexes held, for messages.
    pub pnames_len: usize,
}

/// The PNAMES list. Warns (and keeps what fits) when the lump is shorter
/// than its count says.
pub fn parse_pnames(bytes: &[u8], warnings: &mut Vec<String>) -> Vec<String> {
    let Some(count) = le_i32(bytes, 0) else {
        warnings.push(format!(
            "PNAMES is {} bytes long, too short for its count; no patch names",
            bytes.len()
        ));
        return Vec::new();
    };
    let fit = (bytes.len() - 4) / 8;
    let n = if count < 0 {
        warnings.push(format!(
            "PNAMES has a negative count ({count}); no patch names"
        ));
        0
    } else if count as usize > fit {
        warnings.push(format!(
            "PNAMES claims {count} names but its {} bytes hold only {fit}; the rest are missing",
            bytes.len()
        ));
        fit
    } else {
        count as usize
    };
    (0..n)
        .map(|i| lump_name(&bytes[4 + 8 * i..12 + 8 * i]))
        .collect()
}

/// The texture definitions of one TEXTURE1/TEXTURE2 lump. Damaged entries
/// are skipped (or cut short) with a warning that names them.
pub fn parse_textures(
    source: &'static str,
    bytes: &[u8],
    pnames: &[String],
    warnings: &mut Vec<String>,
) -> Vec<TextureDef> {
    let len = bytes.len();
    let Some(count) = le_i32(bytes, 0) else {
        warnings.push(format!(
            "{source} is {len} bytes long, too short for its count; no textures from it"
        ));
        return Vec::new();
    };
    if count < 0 {
        warnings.push(format!(
            "{source} has a negative texture count ({count}); no textures from it"
        ));
        return Vec::new();
    }
    let fit = (len - 4) / 4;
    let count = if count as usize > fit {
        warnings.push(format!(
            "{source} claims {count} textures but has room for only {fit} offsets; reading those"
        ));
        fit
    } else {
        count as usize
    };
    let mut defs = Vec::new();
    // Within one lump the first texture of a name is the one DOOM finds.
    let mut seen: HashSet<String> = HashSet::new();
    let mut patch_budget = MAX_PATCH_REFS;
    // A hostile lump can be damaged millions of times over: the first few
    // problems are listed, the rest counted.
    let mut problems = 0usize;
    let mut problem = |warnings: &mut Vec<String>, msg: &dyn Fn() -> String| {
        problems += 1;
        if problems <= MAX_LISTED_PROBLEMS {
            warnings.push(format!("{source}: {}", msg()));
        }
    };
    for i in 0..count {
        let offset = le_i32(bytes, 4 + 4 * i).unwrap_or(-1);
        let at = offset as usize;
        if offset < 0 || at.checked_add(MAPTEXTURE_LEN).is_none_or(|end| end > len) {
            problem(warnings, &|| {
                format!(
                    "texture #{i} starts at byte {offset}, outside the lump ({len} bytes); skipped"
                )
            });
            continue;
        }
        let name = lump_name(&bytes[at..at + 8]);
        if seen.contains(&name) {
            continue;
        }
        let width = le_i16(bytes, at + 12).unwrap_or(0);
        let height = le_i16(bytes, at + 14).unwrap_or(0);
        let patch_count = le_i16(bytes, at + 20).unwrap_or(0);
        if width <= 0 || height <= 0 {
            problem(warnings, &|| {
                format!("texture `{name}` is {width}x{height}; skipped")
            });
            continue;
        }
        let (mut w, mut h) = (width as u16, height as u16);
        if w > MAX_TEXTURE_WIDTH || h > MAX_TEXTURE_HEIGHT {
            w = w.min(MAX_TEXTURE_WIDTH);
            h = h.min(MAX_TEXTURE_HEIGHT);
            problem(warnings, &|| {
                format!(
                    "texture `{name}` is {width}x{height}, larger than the engine's \
                     {MAX_TEXTURE_WIDTH}x{MAX_TEXTURE_HEIGHT}; cropped to {w}x{h}"
                )
            });
        }
        let mut n = patch_count.max(0) as usize;
        if patch_count < 0 {
            problem(warnings, &|| {
                format!("texture `{name}` has a negative patch count ({patch_count})")
            });
        }
        let room = (len - at - MAPTEXTURE_LEN) / MAPPATCH_LEN;
        if n > room {
            problem(warnings, &|| {
                format!("texture `{name}` claims {n} patches but the lump ends after {room}")
            });
            n = room;
        }
        if n > patch_budget {
            problem(warnings, &|| {
                format!(
                    "more than {MAX_PATCH_REFS} patches in all; `{name}` and the textures \
                     after it are skipped"
                )
            });
            break;
        }
        patch_budget -= n;
        let patches = (0..n)
            .map(|k| {
                let p = at + MAPTEXTURE_LEN + k * MAPPATCH_LEN;
                let index = le_i16(bytes, p + 4).unwrap_or(-1);
                PatchRef {
                    x: le_i16(bytes, p).unwrap_or(0),
                    y: le_i16(bytes, p + 2).unwrap_or(0),
                    index,
                    name: usize::try_from(index)
                        .ok()
                        .and_then(|i| pnames.get(i))
                        .cloned(),
                }
            })
            .collect();
        seen.insert(name.clone());
        defs.push(TextureDef {
            name,
            width: w,
            height: h,
            patches,
            source,
            pnames_len: pnames.len(),
        });
    }
    if problems > MAX_LISTED_PROBLEMS {
        warnings.push(format!(
            "{source}: {} more problems like these",
            problems - MAX_LISTED_PROBLEMS
        ));
    }
    defs
}

/// Composes a texture from its patches, as DOOM's `R_GenerateComposite`
/// does (later patches on top, each clipped to the texture), without
/// DOOM's clipping bug for patches above the top edge. `patch` finds a
/// patch lump's bytes by name. Returns `None`, with warnings, when no
/// patch could be drawn at all.
pub fn compose<'p>(
    def: &TextureDef,
    patch: impl Fn(&str) -> Option<&'p [u8]>,
    warnings: &mut Vec<String>,
) -> Option<Image> {
    let what = format!("texture `{}` ({})", def.name, def.source);
    let mut image = Image::new(def.width, def.height);
    let mut decoded: HashMap<&str, Option<Image>> = HashMap::new();
    let mut reported: Vec<String> = Vec::new();
    let mut drawn = 0usize;
    let mut budget = MAX_COMPOSE_PIXELS;
    let (tw, th) = (def.width as i32, def.height as i32);
    for p in &def.patches {
        let Some(name) = p.name.as_deref() else {
            let msg = format!(
                "{what}: patch index {} is not in PNAMES ({} names); left out",
                p.index, def.pnames_len
            );
            if !reported.contains(&msg) {
                reported.push(msg);
            }
            continue;
        };
        let pic = decoded.entry(name).or_insert_with(|| match patch(name) {
            Some(bytes) => picture::decode(&format!("patch `{name}` (in {what})"), bytes, warnings),
            None => {
                reported.push(format!(
                    "{what}: patch `{name}` is not in the WAD; left out"
                ));
                None
            }
        });
        let Some(pic) = pic else { continue };
        drawn += 1;
        let (pw, ph) = (pic.width() as i32, pic.height() as i32);
        let x0 = (p.x as i32).max(0);
        let x1 = (p.x as i32 + pw).min(tw);
        let y0 = (p.y as i32).max(0);
        let y1 = (p.y as i32 + ph).min(th);
        if x0 >= x1 || y0 >= y1 {
            continue;
        }
        let area = ((x1 - x0) * (y1 - y0)) as usize;
        if area > budget {
            reported.push(format!(
                "{what}: its patches add up to more pixels than any real texture; the rest are left out"
            ));
            break;
        }
        budget -= area;
        for tx in x0..x1 {
            let px = (tx - p.x as i32) as usize;
            for ty in y0..y1 {
                let py = (ty - p.y as i32) as usize;
                if let Some(c) = pic.get(px, py) {
                    image.set(tx as usize, ty as usize, c);
                }
            }
        }
    }
    warnings.extend(reported);
    if drawn == 0 {
        warnings.push(format!("{what} has no patch that could be drawn"));
        return None;
    }
    Some(image)
}

/// A flat: 64x64 palette indices, row-major in the WAD, into a column-major
/// [`Image`]. Heretic's 64x65 flats lose their spare row; 128x128 and
/// 256x256 flats (from some PWADs) are scaled down to the 64x64 the engine
/// expects, with a warning; anything else shorter than 4096 bytes is not a
/// flat.
pub fn decode_flat(name: &str, bytes: &[u8], warnings: &mut Vec<String>) -> Option<Image> {
    const SIZE: usize = 64;
    let side = match bytes.len() {
        16384 => 128,
        65536 => 256,
        n if n >= SIZE * SIZE => {
            if n != 4096 && n != 4160 {
                warnings.push(format!(
                    "flat `{name}` is {n} bytes, not 4096; using its first 64x64 pixels"
                ));
            }
            SIZE
        }
        n => {
            warnings.push(format!(
                "flat `{name}` is {n} bytes, too short for 64x64 (4096 bytes)"
            ));
            return None;
        }
    };
    if side != SIZE {
        warnings.push(format!(
            "flat `{name}` is {side}x{side}; scaled down to 64x64"
        ));
    }
    let step = side / SIZE;
    let mut image = Image::new(SIZE as u16, SIZE as u16);
    for y in 0..SIZE {
        for x in 0..SIZE {
            image.set(x, y, bytes[(y * step) * side + x * step]);
        }
    }
    Some(image)
}
