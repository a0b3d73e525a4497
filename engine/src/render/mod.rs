//! The renderer: one ray per screen column through the sector graph.
//!
//! `portal` decides what each column sees (which walls, at which depth,
//! through which portals, with which clip window); `draw` touches pixels and
//! nothing else. Everything draws into a caller-owned [`Frame`].

mod draw;
pub mod frame;
mod portal;
pub mod shade;

pub use frame::{Frame, Pixel, Rgba5551};
pub use shade::{Palette, Shades, LIGHT_LEVELS};

use crate::config::MAX_SCREEN_HEIGHT;
use crate::math::{Angle, Fx, Vec2};
use crate::world::{Level, SectorId};
use draw::{FlatRun, PlaneRun};
use portal::Span;

/// Where the view is: a point, an eye height, a facing and the sector the
/// point is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Camera {
    /// Position in the map.
    pub pos: Vec2,
    /// Absolute height of the eye.
    pub eye_z: Fx,
    /// Facing.
    pub angle: Angle,
    /// The sector `pos` is in.
    pub sector: SectorId,
}

/// Figures from one rendered frame.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Portals crossed, over all columns.
    pub portals_crossed: u32,
    /// Wall intersection tests, over all columns.
    pub walls_tested: u32,
    /// Columns that hit [`crate::config::MAX_PORTALS_PER_COLUMN`].
    pub columns_truncated: u32,
}

/// Renders the view from `camera` into `frame`, converting colours through
/// `shades`.
///
/// One ray per column walks the sector graph from `camera.sector` (see the
/// `portal` module); horizontal field of view 90 degrees, the same focal
/// length (`width / 2` pixels) vertically. Every pixel of the frame is
/// written, whatever the camera: what no ray reaches (outside the map, a
/// camera sector that does not exist, a column past
/// [`crate::config::MAX_PORTALS_PER_COLUMN`]) is black. Integer-only, so
/// the same inputs give the same pixels everywhere.
pub fn render<P: Pixel>(
    level: &Level<'_>,
    camera: &Camera,
    shades: &Shades<P>,
    frame: &mut Frame<'_, P>,
) -> RenderStats {
    let (width, height, stride) = (frame.width(), frame.height(), frame.stride());
    let view = portal::View::new(level, camera, width, height);
    let mut recip = [0u32; MAX_SCREEN_HEIGHT];
    draw::build_recip(&mut recip, width, height);
    let background = P::from_rgb(0, 0, 0);
    let pixels = frame.pixels_mut();
    let mut stats = RenderStats::default();
    for x in 0..width {
        portal::column(level, &view, x, &mut stats, |span| match span {
            Span::Wall {
                y0,
                y1,
                color,
                level,
            } => draw::fill_flat(
                pixels,
                stride,
                FlatRun {
                    x,
                    y0,
                    y1,
                    pixel: shades.get(level, color),
                },
            ),
            Span::Plane {
                y0,
                y1,
                color,
                light,
                height,
            } => draw::fill_plane(
                pixels,
                stride,
                PlaneRun {
                    x,
                    y0,
                    y1,
                    color,
                    light,
                    height,
                },
                &recip,
                shades,
            ),
            Span::Background { y0, y1 } => draw::fill_flat(
                pixels,
                stride,
                FlatRun {
                    x,
                    y0,
                    y1,
                    pixel: background,
                },
            ),
        });
    }
    stats
}
