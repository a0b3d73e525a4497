//! Text on the frame: the frame-time readout and the crash report.
//!
//! Everything is drawn with the CPU straight into the framebuffer after
//! the renderer, with [`crate::font`]'s 3x5 glyphs, optionally scaled.

use engine::render::{Frame, Pixel};

use crate::font::{glyph, ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH};

/// The readout's panel: fixed, so that tests can leave exactly this
/// rectangle out when comparing a screenshot with the desktop's render.
pub const READOUT_X: usize = 0;
/// See [`READOUT_X`].
pub const READOUT_Y: usize = 0;
/// See [`READOUT_X`].
pub const READOUT_WIDTH: usize = 168;
/// See [`READOUT_X`].
pub const READOUT_HEIGHT: usize = 15;
/// Distance between the readout's two lines.
pub const LINE_HEIGHT: usize = GLYPH_HEIGHT + 2;

/// Fills a rectangle (clipped to the frame).
pub fn fill_rect<P: Pixel>(
    frame: &mut Frame<'_, P>,
    x: usize,
    y: usize,
    w: usize,
    h: usize,
    color: P,
) {
    let (width, height, stride) = (frame.width(), frame.height(), frame.stride());
    let x_end = (x + w).min(width);
    let pixels = frame.pixels_mut();
    for row in y..(y + h).min(height) {
        if x < x_end {
            if let Some(span) = pixels.get_mut(row * stride + x..row * stride + x_end) {
                span.fill(color);
            }
        }
    }
}

/// Width in pixels of `text` at `scale`.
pub fn text_width(text: &str, scale: usize) -> usize {
    text.chars().count() * ADVANCE * scale
}

/// Draws `text` with its top-left corner at (`x`, `y`); each font pixel
/// becomes a `scale` x `scale` square. Clipped to the frame. Returns the
/// x just after the text.
pub fn draw_text<P: Pixel>(
    frame: &mut Frame<'_, P>,
    x: usize,
    y: usize,
    text: &str,
    color: P,
    scale: usize,
) -> usize {
    let mut pen = x;
    let (width, height, stride) = (frame.width(), frame.height(), frame.stride());
    for c in text.chars() {
        let rows = glyph(c);
        for (gy, bits) in rows.iter().enumerate() {
            for gx in 0..GLYPH_WIDTH {
                if bits & (0b100 >> gx) == 0 {
                    continue;
                }
                let (px, py) = (pen + gx * scale, y + gy * scale);
                if scale == 1 {
                    // The readout's case: one pixel, without a rectangle's
                    // clipping and loops (it is drawn every frame).
                    if px < width && py < height {
                        if let Some(p) = frame.pixels_mut().get_mut(py * stride + px) {
                            *p = color;
                        }
                    }
                } else {
                    fill_rect(frame, px, py, scale, scale, color);
                }
            }
        }
        pen += ADVANCE * scale;
    }
    pen
}

/// The frame-time readout: two lines on a dark panel at the top left.
pub fn draw_readout<P: Pixel>(frame: &mut Frame<'_, P>, first: &str, second: &str) {
    draw_readout_at(frame, READOUT_Y, first, second);
}

/// [`draw_readout`] with the panel's top at row `y` (in the status bar,
/// say).
pub fn draw_readout_at<P: Pixel>(frame: &mut Frame<'_, P>, y: usize, first: &str, second: &str) {
    let panel = P::from_rgb(0, 0, 0);
    let ink = P::from_rgb(255, 255, 0);
    fill_rect(frame, READOUT_X, y, READOUT_WIDTH, READOUT_HEIGHT, panel);
    draw_text(frame, READOUT_X + 2, y + 2, first, ink, 1);
    draw_text(frame, READOUT_X + 2, y + 2 + LINE_HEIGHT, second, ink, 1);
}

/// Top of the menu's first level row.
pub const MENU_ROWS_Y: usize = 40;
/// Rows of the menu's list apart, in pixels (its text is drawn 2x).
pub const MENU_ROW_HEIGHT: usize = 12;

/// The menu's heading (3x), a note under it, and the help line at the
/// bottom, on a frame the caller has cleared.
pub fn draw_menu_frame<P: Pixel>(frame: &mut Frame<'_, P>, heading: &str, note: &str, help: &str) {
    let ink = P::from_rgb(255, 255, 0);
    let dim = P::from_rgb(160, 160, 160);
    draw_text(frame, 8, 8, heading, ink, 3);
    draw_text(frame, 8, 28, note, dim, 1);
    let bottom = frame.height().saturating_sub(GLYPH_HEIGHT + 4);
    draw_text(frame, 8, bottom, help, dim, 1);
}

/// Row `k` of the menu's list: `text` at 2x, the chosen row dark on a
/// yellow bar.
pub fn draw_menu_row<P: Pixel>(frame: &mut Frame<'_, P>, k: usize, text: &str, chosen: bool) {
    let y = MENU_ROWS_Y + k * MENU_ROW_HEIGHT;
    let (ink, bar) = (P::from_rgb(255, 255, 0), P::from_rgb(0, 0, 0));
    let (ink, bar) = if chosen { (bar, ink) } else { (ink, bar) };
    let width = frame.width();
    fill_rect(frame, 4, y - 1, width - 8, MENU_ROW_HEIGHT, bar);
    draw_text(frame, 8, y, text, ink, 2);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lands_where_asked_and_is_clipped() {
        let mut pixels = [0u32; 16 * 8];
        let mut frame = Frame::new(&mut pixels, 16, 8, 16).unwrap();
        let end = draw_text(&mut frame, 1, 1, "1", 0xFFFFFF, 1);
        assert_eq!(end, 5);
        // '1' row 0 is 0b010: only the middle pixel.
        assert_eq!(frame.get(1, 1), Some(0));
        assert_eq!(frame.get(2, 1), Some(0xFFFFFF));
        assert_eq!(frame.get(3, 1), Some(0));
        // Row 4 is 0b111.
        assert_eq!(frame.get(1, 5), Some(0xFFFFFF));
        // Far off the edge: nothing happens, nothing panics.
        draw_text(&mut frame, 14, 6, "888", 0xFFFFFF, 3);
        assert_eq!(text_width("abc", 2), 24);
    }

    #[test]
    fn the_chosen_menu_row_is_a_bar_and_the_others_are_not() {
        let mut pixels = [0u32; 320 * 240];
        let mut frame = Frame::new(&mut pixels, 320, 240, 320).unwrap();
        draw_menu_frame(&mut frame, "RAYCASTER", "2 LEVELS", "A PLAY");
        draw_menu_row(&mut frame, 0, " 1 E1M1", false);
        draw_menu_row(&mut frame, 1, " 2 E1M2", true);
        let yellow = 0xFFFF00;
        // The bar of row 1 is lit past its text; row 0's is not.
        let far = 300;
        assert_eq!(
            frame.get(far, MENU_ROWS_Y + MENU_ROW_HEIGHT + 2),
            Some(yellow)
        );
        assert_eq!(frame.get(far, MENU_ROWS_Y + 2), Some(0));
        // The heading's R (3x): its top-left pixel is lit.
        assert_eq!(frame.get(8, 8), Some(yellow));
    }

    #[test]
    fn the_readout_panel_covers_its_rectangle_only() {
        let mut pixels = [7u32; 320 * 20];
        let mut frame = Frame::new(&mut pixels, 320, 20, 320).unwrap();
        draw_readout(&mut frame, "E1_HANGAR", "FRAME 1234567");
        assert_eq!(frame.get(READOUT_WIDTH - 1, READOUT_HEIGHT - 1), Some(0));
        assert_eq!(frame.get(READOUT_WIDTH, 0), Some(7));
        assert_eq!(frame.get(0, READOUT_HEIGHT), Some(7));
    }
}
