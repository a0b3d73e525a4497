//! DOOM's picture format (patches and sprites).
//!
//! ```text
//! header   width, height, left offset, top offset: i16 (little-endian)
//! columns  width x u32: byte offset of each column's first post
//! post     top delta u8 (0xFF ends the column) | length u8 | unused u8 |
//!          length pixels | unused u8
//! ```
//!
//! Tall patches (DeePsea's extension, read by every modern port): a top
//! delta not greater than the previous post's top is relative to it, so
//! columns can reach past row 254. Offsets and lengths are checked;
//! whatever lies outside the lump is left transparent and reported once
//! per picture.

use super::{le_i16, le_u32, Image};

/// Widest picture decoded (pictures wider than a texture can be are of no
/// use and a hostile header could otherwise ask for a huge allocation).
pub const MAX_PICTURE_WIDTH: i32 = 4096;
/// Tallest picture decoded.
pub const MAX_PICTURE_HEIGHT: i32 = 4096;
/// Most posts read in one column before giving up on it (each post takes
/// at least four bytes, so only a hostile lump comes near this).
const MAX_POSTS_PER_COLUMN: usize = 4096;
/// Most post bytes read in one picture, so a hostile picture whose
/// columns all point at the same long run of posts stays cheap.
const MAX_POST_BYTES: usize = 1 << 26;

/// Decodes a DOOM picture. `what` names it in warnings (e.g. "patch
/// `WALL00_1`"). Returns `None`, with a warning, when the lump is not a
/// picture at all; damage inside the columns gives one warning and the
/// rest of the picture.
pub fn decode(what: &str, bytes: &[u8], warnings: &mut Vec<String>) -> Option<Image> {
    if bytes.starts_with(b"\x89PNG") {
        warnings.push(format!(
            "{what} is a PNG image; only DOOM-format pictures are read from WADs"
        ));
        return None;
    }
    let (Some(width), Some(height), Some(left), Some(top)) = (
        le_i16(bytes, 0),
        le_i16(bytes, 2),
        le_i16(bytes, 4),
        le_i16(bytes, 6),
    ) else {
        warnings.push(format!(
            "{what} is not a picture: {} bytes, shorter than the 8-byte header",
            bytes.len()
        ));
        return None;
    };
    let (w, h) = (width as i32, height as i32);
    if w <= 0 || h <= 0 || w > MAX_PICTURE_WIDTH || h > MAX_PICTURE_HEIGHT {
        warnings.push(format!(
            "{what} is not a picture: its header says {w}x{h} (at most \
             {MAX_PICTURE_WIDTH}x{MAX_PICTURE_HEIGHT})"
        ));
        return None;
    }
    let (w, h) = (w as usize, h as usize);
    let mut image = Image::new(w as u16, h as u16);
    image.left = left;
    image.top = top;

    let mut problems = 0usize;
    let mut first: Option<String> = None;
    let mut problem = |msg: String| {
        problems += 1;
        first.get_or_insert(msg);
    };
    let mut budget = MAX_POST_BYTES;
    let len = bytes.len();
    'columns: for x in 0..w {
        let Some(start) = le_u32(bytes, 8 + 4 * x) else {
            problem(format!(
                "its column directory is cut short at column {x} of {w} (the lump has {len} bytes)"
            ));
            break;
        };
        let mut p = start as usize;
        if p >= len {
            problem(format!(
                "column {x} starts at byte {start}, past the end of the lump ({len} bytes)"
            ));
            continue;
        }
        // Row of the previous post's top, for tall patches.
        let mut post_top: i64 = -1;
        let mut posts = 0;
        loop {
            let Some(&delta) = bytes.get(p) else {
                problem(format!(
                    "column {x} runs past the end of the lump without its 0xFF end mark"
                ));
                break;
            };
            if delta == 0xFF {
                break;
            }
            posts += 1;
            if posts > MAX_POSTS_PER_COLUMN {
                problem(format!(
                    "column {x} has more than {MAX_POSTS_PER_COLUMN} posts"
                ));
                break;
            }
            let delta = delta as i64;
            post_top = if delta <= post_top {
                post_top + delta
            } else {
                delta
            };
            let Some(&count) = bytes.get(p + 1) else {
                problem(format!("column {x} is cut short in a post header"));
                break;
            };
            let count = count as usize;
            let from = (p + 3).min(len);
            let to = (p + 3 + count).min(len);
            let data = &bytes[from..to];
            if budget < data.len() {
                problem("its posts add up to more bytes than any real picture".to_string());
                break 'columns;
            }
            budget -= data.len();
            for (i, &px) in data.iter().enumerate() {
                let y = post_top + i as i64;
                if y >= h as i64 {
                    break;
                }
                image.set(x, y as usize, px);
            }
            if data.len() < count {
                problem(format!(
                    "a post of column {x} runs past the end of the lump ({len} bytes)"
                ));
                break;
            }
            // Pixels, then the unused byte after them.
            p += 4 + count;
        }
    }
    if let Some(first) = first {
        let more = match problems - 1 {
            0 => String::new(),
            1 => " (and 1 more problem)".to_string(),
            n => format!(" (and {n} more problems)"),
        };
        warnings.push(format!(
            "{what} is damaged: {first}{more}; the missing parts are left transparent"
        ));
    }
    Some(image)
}

/// Encodes an image as a DOOM picture (one post per run of opaque pixels,
/// split at 254 rows; tall columns use relative top deltas). The inverse
/// of [`decode`]; used by tests to build WADs.
#[cfg(test)]
pub fn encode(image: &Image) -> Vec<u8> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let mut out = Vec::new();
    out.extend_from_slice(&(w as i16).to_le_bytes());
    out.extend_from_slice(&(h as i16).to_le_bytes());
    out.extend_from_slice(&image.left.to_le_bytes());
    out.extend_from_slice(&image.top.to_le_bytes());
    let dir = out.len();
    out.resize(dir + 4 * w, 0);
    for x in 0..w {
        let at = out.len() as u32;
        out[dir + 4 * x..dir + 4 * x + 4].copy_from_slice(&at.to_le_bytes());
        let mut y = 0;
        let mut last_top: i64 = -1;
        while y < h {
            if image.get(x, y).is_none() {
                y += 1;
                continue;
            }
            let mut run = Vec::new();
            let start = y;
            while y < h && run.len() < 128 {
                match image.get(x, y) {
                    Some(c) => run.push(c),
                    None => break,
                }
                y += 1;
            }
            // Absolute if it fits and is below the last top; else relative.
            let delta = if (start as i64) > last_top && start < 255 {
                start as i64
            } else {
                let d = start as i64 - last_top;
                // A relative step must not exceed the previous top (nor
                // 254); tests keep to pictures that do not need more.
                assert!((0..=254).contains(&d) && d <= last_top, "cannot encode");
                d
            };
            last_top = start as i64;
            out.push(delta as u8);
            out.push(run.len() as u8);
            out.push(0);
            out.extend_from_slice(&run);
            out.push(0);
        }
        out.push(0xFF);
    }
    out
}
