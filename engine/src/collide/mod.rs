//! Collision: one query per file, each returning a small result.
//!
//! * [`point_segment`]: the closest point on a wall to a point, and which
//!   feature (end or edge) it is on.
//! * [`crossing`]: where a moving point's path crosses a wall.
//! * [`clearance`]: whether a wall stops a body (one-sided, step too high,
//!   opening too low, ceiling too low), each reason on its own line.
//! * [`height_clip`]: where a body stands once a floor or ceiling near it
//!   has moved, and whether it still fits (DOOM's `P_ThingHeightClip`).
//! * [`mover`]: sliding a circle through the level: sub-steps, portal
//!   tracking, push-out from walls and corners.
//! * [`push_apart`]: round bodies pushing each other apart, with pairs
//!   found through a grid.
//! * [`use_line`]: what the player's use press reaches (DOOM's
//!   `P_UseLines`).

pub mod clearance;
pub mod crossing;
pub mod height_clip;
pub mod mover;
pub mod point_segment;
pub mod push_apart;
pub mod use_line;

pub use clearance::{wall_blocks, Blocked, BodyShape, Opening};
pub use mover::{slide_move, MoveOutcome, Placement, Support};
pub use point_segment::{project_point_segment, PointProjection, SegmentLocation};
