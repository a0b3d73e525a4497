//! The fixed-tick simulation (placeholder until the mover lands).
