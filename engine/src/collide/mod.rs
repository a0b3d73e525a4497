//! Collision queries and the mover.
