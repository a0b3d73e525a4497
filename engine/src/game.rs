//! The fixed-tick simulation.
