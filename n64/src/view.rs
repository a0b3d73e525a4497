//! The view drawn into the back buffer in the player's [`ViewMode`], and
//! the readout over it (or in the status bar), for the frame loop and the
//! view tour alike.

use core::fmt::{self, Write as _};

use engine::game::Game;
use engine::render::{render as draw_scene, Camera, Pixel, Rgba5551, Scene, Shades};
use engine::world::Level;
use n64::overlay::{draw_menu_frame, draw_menu_row, draw_readout_at, draw_text, READOUT_Y};
use n64::text::LineBuffer;
use n64::view_mode::{PixelPair, ViewMode, BAR_VIEW_HEIGHT};

use crate::hw::video::Video;

/// A level's light tables for both kinds of pixel (16 and 32 KiB).
pub struct ViewShades {
    full: Shades<Rgba5551>,
    pairs: Shades<PixelPair>,
}

impl ViewShades {
    /// The light tables of `level`'s map (its own palette and light table
    /// when it has them, as on the desktop).
    pub fn for_level(level: &Level<'_>) -> ViewShades {
        ViewShades {
            full: Shades::for_map(level.map()),
            pairs: Shades::for_map(level.map()),
        }
    }

    /// Makes these `level`'s, one table at a time.
    pub fn rebuild(&mut self, level: &Level<'_>) {
        self.full = Shades::for_map(level.map());
        self.pairs = Shades::for_map(level.map());
    }
}

/// Renders `game` seen from `camera` into the back buffer's view.
pub fn render(
    video: &mut Video,
    mode: ViewMode,
    game: &Game<'_>,
    camera: &Camera,
    shades: &ViewShades,
) {
    if mode.status_bar {
        video.black_below(BAR_VIEW_HEIGHT);
    }
    let rows = mode.view_height();
    if mode.low_detail {
        let scene = Scene::of_game(game).seen_from(*camera);
        draw_scene(&scene, &shades.pairs, &mut video.wide_view_frame(rows));
    } else {
        let scene = Scene::of_game(game).seen_from(*camera);
        draw_scene(&scene, &shades.full, &mut video.view_frame(rows));
    }
}

/// Draws the readout's two lines: over the view's top left, or in the
/// status bar.
pub fn readout(video: &mut Video, mode: ViewMode, first: &str, second: &str) {
    let y = if mode.status_bar {
        BAR_VIEW_HEIGHT + 4
    } else {
        READOUT_Y
    };
    draw_readout_at(&mut video.back_frame(), y, first, second);
}

/// Draws the level menu into the back buffer: `heading`, `note`, the rows
/// (text, chosen) and the help line.
pub fn menu<'r>(
    video: &mut Video,
    heading: &str,
    note: fmt::Arguments<'_>,
    help: &str,
    rows: impl Iterator<Item = (&'r str, bool)>,
) {
    let mut frame = video.cleared_frame();
    let mut line = LineBuffer::<80>::new();
    // Writing to a LineBuffer cannot fail (it truncates).
    let _ = line.write_fmt(note);
    draw_menu_frame(&mut frame, heading, line.as_str(), help);
    for (k, (text, chosen)) in rows.enumerate() {
        draw_menu_row(&mut frame, k, text, chosen);
    }
}

/// Draws a notice into the back buffer: a heading, one line of what
/// happened (split in two if long) and what to do.
pub fn notice(video: &mut Video, heading: &str, what: fmt::Arguments<'_>, help: &str) {
    let mut frame = video.cleared_frame();
    let mut line = LineBuffer::<160>::new();
    let _ = line.write_fmt(what);
    let ink = Rgba5551::from_rgb(255, 255, 255);
    draw_menu_frame(&mut frame, heading, "", help);
    // 78 glyphs of 4 pixels fit a 320-pixel row with margins.
    let text = line.as_str();
    let cut = text
        .char_indices()
        .map(|(i, _)| i)
        .take_while(|&i| i <= 78)
        .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b' ')
        .last()
        .filter(|_| text.len() > 78)
        .unwrap_or(text.len());
    draw_text(&mut frame, 8, 60, &text[..cut], ink, 1);
    draw_text(&mut frame, 8, 70, &text[cut..], ink, 1);
}
