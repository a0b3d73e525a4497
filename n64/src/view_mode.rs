//! How the view is drawn: the settings DOOM's console ports offered to
//! trade picture for speed, and the pixel pairs that low detail writes.
//!
//! * Low detail: half the columns, each pixel two wide (the engine's
//!   `Frame::with_wide_pixels`), written as one 32-bit [`PixelPair`].
//! * Status bar: a 320x200 view, DOOM's own shape, over a 40-row bar that
//!   holds the readout.
//!
//! The default is neither: every pixel of the 320x240 screen drawn.

use engine::render::{Pixel, Rgba5551};

/// Screen width in pixels.
pub const SCREEN_WIDTH: usize = 320;
/// Screen height in pixels.
pub const SCREEN_HEIGHT: usize = 240;
/// Rows of the view above the status bar.
pub const BAR_VIEW_HEIGHT: usize = 200;

/// The view's settings.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewMode {
    /// Columns two pixels wide.
    pub low_detail: bool,
    /// A 320x200 view over a status bar.
    pub status_bar: bool,
}

impl ViewMode {
    /// Every pixel drawn.
    pub const FULL: ViewMode = ViewMode {
        low_detail: false,
        status_bar: false,
    };

    /// Every mode, the default first.
    pub const ALL: [ViewMode; 4] = [
        ViewMode::FULL,
        ViewMode {
            low_detail: false,
            status_bar: true,
        },
        ViewMode {
            low_detail: true,
            status_bar: false,
        },
        ViewMode {
            low_detail: true,
            status_bar: true,
        },
    ];

    /// The view's rows.
    pub fn view_height(self) -> usize {
        if self.status_bar {
            BAR_VIEW_HEIGHT
        } else {
            SCREEN_HEIGHT
        }
    }

    /// The view's columns (each two pixels wide in low detail).
    pub fn view_columns(self) -> usize {
        if self.low_detail {
            SCREEN_WIDTH / 2
        } else {
            SCREEN_WIDTH
        }
    }

    /// A short name, for the readout and the reports.
    pub fn name(self) -> &'static str {
        match (self.low_detail, self.status_bar) {
            (false, false) => "full",
            (false, true) => "bar",
            (true, false) => "low",
            (true, true) => "low+bar",
        }
    }
}

/// Two equal 16-bit pixels side by side, as one 32-bit store writes them:
/// a low-detail pixel.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct PixelPair(pub u32);

impl Pixel for PixelPair {
    #[inline]
    fn from_rgb(r: u8, g: u8, b: u8) -> Self {
        let one = u32::from(Rgba5551::from_rgb(r, g, b).0);
        PixelPair(one << 16 | one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_its_pixel_twice() {
        let one = Rgba5551::from_rgb(200, 100, 50).0;
        let pair = PixelPair::from_rgb(200, 100, 50).0;
        assert_eq!((pair >> 16) as u16, one);
        assert_eq!(pair as u16, one);
    }

    #[test]
    fn the_modes_shapes() {
        let shapes: [(usize, usize); 4] =
            ViewMode::ALL.map(|m| (m.view_columns(), m.view_height()));
        assert_eq!(shapes, [(320, 240), (320, 200), (160, 240), (160, 200)]);
        assert_eq!(ViewMode::default(), ViewMode::FULL);
        let names = ViewMode::ALL.map(ViewMode::name);
        assert_eq!(names, ["full", "bar", "low", "low+bar"]);
    }
}
