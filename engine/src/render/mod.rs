//! The renderer: one ray per screen column through the sector graph.
//!
//! `portal` decides what each column sees (which walls, at which depth,
//! through which portals, with which clip window); `draw` touches pixels and
//! nothing else. Everything draws into a caller-owned [`Frame`].

pub mod frame;
pub mod shade;

pub use frame::{Frame, Pixel, Rgba5551};
pub use shade::{Palette, Shades, LIGHT_LEVELS};

use crate::math::{Angle, Fx, Vec2};
use crate::world::{Level, SectorId};

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
/// `shades`. (Placeholder: fills the frame; the column renderer replaces
/// it.)
pub fn render<P: Pixel>(
    level: &Level<'_>,
    camera: &Camera,
    shades: &Shades<P>,
    frame: &mut Frame<'_, P>,
) -> RenderStats {
    let _ = (level, camera, shades);
    frame.clear(P::from_rgb(0, 0, 0));
    RenderStats::default()
}
