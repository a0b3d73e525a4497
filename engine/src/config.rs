//! Every capacity limit and tuning constant, in one place.
//!
//! The map compiler checks maps against these same numbers before it writes
//! a file, and the loader checks them again on every load, so a map that
//! compiles is a map the engine can hold.

use crate::math::Fx;

/// Most vertices in one map (indices are `u16`; `u16::MAX` is reserved).
pub const MAX_VERTICES: usize = 65_534;
/// Most walls in one map (indices are `u16`; `u16::MAX` means "no sector").
pub const MAX_WALLS: usize = 65_534;
/// Most sectors in one map.
pub const MAX_SECTORS: usize = 65_534;
/// Most nodes in a map's BSP (a child is numbered in 15 bits).
pub const MAX_BSP_NODES: usize = 32_767;
/// Most subsectors (convex leaves) in a map's BSP.
pub const MAX_BSP_SUBSECTORS: usize = 32_767;
/// Most segs (the pieces of walls that bound the subsectors) in a map's BSP.
pub const MAX_BSP_SEGS: usize = 262_144;
/// Deepest BSP accepted: nodes from the root to the farthest subsector. A
/// front-to-back walk keeps one pending node per level, so this bounds
/// its stack. Freedoom's own trees are 16 to 64 deep (median 31); our
/// node builder's, on the same maps' walls, at most 53.
pub const MAX_BSP_DEPTH: usize = 96;
/// Most things (player starts and entity spawns) in one map.
pub const MAX_THINGS: usize = 8_192;
/// Most textures (walls, flats and sprites together) in one map.
pub const MAX_TEXTURES: usize = 8_192;
/// Most blocks in the blockmap grid.
pub const MAX_BLOCKS: usize = 65_536;
/// Most wall references in all the blockmap's lists together.
pub const MAX_BLOCK_ENTRIES: usize = 1 << 20;
/// Smallest and largest blockmap block edge, in map units.
pub const MIN_BLOCK_SIZE: u16 = 16;
/// See [`MIN_BLOCK_SIZE`].
pub const MAX_BLOCK_SIZE: u16 = 4096;
/// Every coordinate and height lies within ±this many map units.
pub const MAX_COORDINATE: i32 = 32_767;

/// Most sectors whose state a game keeps: sectors numbered from here on
/// keep the map's heights and never move (Freedoom's largest map has
/// 1,692 sectors).
pub const MAX_LIVE_SECTORS: usize = 2048;
/// Most movers (doors, lifts, floors) at work at once; a special that
/// would start more starts none of the rest.
pub const MAX_MOVERS: usize = 128;
/// Most sectors whose light changes by itself (DOOM's flickering,
/// strobing and glowing sector types); past it a light stays as built
/// (Freedoom's maps have at most 72).
pub const MAX_LIGHTS: usize = 256;
/// Most secret sectors counted as found in one level (past it, more are
/// found but not counted).
pub const MAX_SECRETS: usize = 64;
/// Most keys (cards and skulls) lying in one level; a map with more is
/// refused at load (Freedoom's maps have at most a few).
pub const MAX_KEY_THINGS: usize = 64;
/// Most switches in their other position at once; past it a switch
/// acts but does not flip.
pub const MAX_SWITCHES: usize = 64;
/// Most once-only wall specials that can be spent in one level; past it a
/// once-only special acts again.
pub const MAX_SPENT_SPECIALS: usize = 512;

/// Most moving round bodies in a game, the player included.
pub const MAX_BODIES: usize = 64;
/// The largest radius (and, for an entity a game spawns, height) of a
/// body, in map units.
pub const MAX_BODY_SIZE: i32 = 1024;

/// Widest framebuffer the renderer draws into.
pub const MAX_SCREEN_WIDTH: usize = 1024;
/// Tallest framebuffer the renderer draws into.
pub const MAX_SCREEN_HEIGHT: usize = 768;
/// Most sectors one column's ray walks through before it gives up (a
/// budget, not an error: the rest of the column keeps its background).
pub const MAX_PORTALS_PER_COLUMN: usize = 256;

/// Game ticks per second.
pub const TICKS_PER_SECOND: u32 = 35;

/// The player's dimensions and speeds: DOOM's, so DOOM-format maps are
/// walkable without tuning.
pub mod player {
    use super::Fx;

    /// Radius of the player's circle.
    pub const RADIUS: Fx = Fx::lit("16");
    /// Height from feet to the top of the head.
    pub const HEIGHT: Fx = Fx::lit("56");
    /// Height of the eyes above the feet.
    pub const EYE_HEIGHT: Fx = Fx::lit("41");
    /// Highest step the player walks up.
    pub const KNEE_HEIGHT: Fx = Fx::lit("24");
    /// Forward thrust per tick at 100% input (DOOM's running
    /// `forwardmove` 0x32 scaled by 2048/65536).
    pub const FORWARD_THRUST: Fx = Fx::lit("1.5625");
    /// Sideways thrust per tick at 100% input (DOOM's running `sidemove`).
    pub const STRAFE_THRUST: Fx = Fx::lit("1.25");
    /// Velocity kept from one tick to the next on the ground (DOOM's
    /// `FRICTION` 0xe800).
    pub const FRICTION: Fx = Fx::lit("0.90625");
    /// Fastest horizontal speed, in map units per tick (DOOM's `MAXMOVE`).
    pub const MAX_SPEED: Fx = Fx::lit("30");
    /// Downward acceleration per tick (DOOM's `GRAVITY`).
    pub const GRAVITY: Fx = Fx::lit("1");
    /// The eye stays this far below the ceiling (DOOM clamps `viewz` so).
    pub const CEILING_VIEW_MARGIN: Fx = Fx::lit("4");
    /// How far use reaches from the player's centre (DOOM's `USERANGE`).
    pub const USE_RANGE: Fx = Fx::lit("64");
}

/// Collision tuning.
pub mod collision {
    use super::Fx;

    /// A body overlapping a blocking wall by less than this is touching,
    /// not overlapping: push-out stops here, so round-off cannot make two
    /// opposite walls of an exactly-wide-enough corridor fight forever.
    pub const TOLERANCE: Fx = Fx::lit("0.0078125");
    /// Most push-out passes per sub-step before the sub-step is refused.
    pub const MAX_PUSH_ITERATIONS: usize = 8;
    /// Most walls one position check collects (more are still tested, once
    /// each, without de-duplication).
    pub const MAX_QUERY_WALLS: usize = 256;
    /// Most portal crossings followed in one sub-step.
    pub const MAX_CROSSINGS: usize = 32;
}
