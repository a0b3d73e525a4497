//! The map compiler.
//!
//! * [`build`]: from a [`build::SourceMap`] (vertices, sectors as loops,
//!   things) to the engine's compiled bytes, with the map checks.
pub mod build;
