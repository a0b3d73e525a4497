//! The renderer.
