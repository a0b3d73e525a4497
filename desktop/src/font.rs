//! Text for the frame-time readout and labels, drawn with the engine's 3x5
//! glyphs (`engine::render::font`, shared with the N64's overlay) into the
//! window's `0x00RRGGBB` buffer.

pub use engine::render::font::{glyph, text_width, Glyph, ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH};

/// Draws `text` with its top-left corner at (`x`, `y`) into a
/// `width` x `height` buffer of `0x00RRGGBB` pixels (rows `width` apart).
/// Whatever falls outside the buffer is clipped.
pub fn draw_text(
    pixels: &mut [u32],
    width: usize,
    height: usize,
    x: usize,
    y: usize,
    text: &str,
    color: u32,
) {
    for (i, c) in text.chars().enumerate() {
        let gx = x + i * ADVANCE;
        for (row, bits) in glyph(c).iter().enumerate() {
            for col in 0..GLYPH_WIDTH {
                if bits & (0b100 >> col) != 0 {
                    put(pixels, width, height, gx + col, y + row, color);
                }
            }
        }
    }
}

/// Draws `text` on a dark box with one pixel of margin, so it reads over
/// any scene; (`x`, `y`) is the box's top-left corner.
pub fn draw_label(pixels: &mut [u32], width: usize, height: usize, x: usize, y: usize, text: &str) {
    let box_w = text_width(text) + 2;
    let box_h = GLYPH_HEIGHT + 2;
    for py in y..y + box_h {
        for px in x..x + box_w {
            put(pixels, width, height, px, py, 0x00_10_10_10);
        }
    }
    draw_text(pixels, width, height, x + 1, y + 1, text, 0x00_FF_FF_60);
}

fn put(pixels: &mut [u32], width: usize, height: usize, x: usize, y: usize, color: u32) {
    if x < width && y < height {
        if let Some(p) = pixels.get_mut(y * width + x) {
            *p = color;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str) -> Vec<String> {
        let w = text_width(text);
        let mut buf = vec![0u32; w * GLYPH_HEIGHT];
        draw_text(&mut buf, w, GLYPH_HEIGHT, 0, 0, text, 1);
        buf.chunks(w)
            .map(|row| {
                row.iter()
                    .map(|&p| if p == 1 { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn glyphs_draw_where_expected() {
        assert_eq!(
            render("1.5"),
            vec![
                ".#......###",
                "##......#..",
                ".#......###",
                ".#........#",
                "###..#..###",
            ]
        );
    }

    #[test]
    fn every_readout_character_has_its_own_glyph() {
        let unknown = glyph('\u{1}');
        for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.:-/% ".chars() {
            assert_ne!(glyph(c), unknown, "{c:?}");
        }
        assert_eq!(glyph('m'), glyph('M'));
    }

    #[test]
    fn drawing_clips_at_the_edges() {
        let mut buf = vec![0u32; 4 * 3];
        draw_label(&mut buf, 4, 3, 2, 1, "FPS 60");
        // Nothing was written outside the buffer (no panic); the box
        // starts at (2, 1) and the first glyph's corner is at (3, 2).
        assert_eq!(buf[4 + 2], 0x00_10_10_10);
        assert_eq!(buf[2 * 4 + 3], 0x00_FF_FF_60);
        assert_eq!(buf[0], 0);
        assert_eq!(text_width(""), 0);
        assert_eq!(text_width("MS"), 7);
    }
}
