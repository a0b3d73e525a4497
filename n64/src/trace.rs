//! The trace line: the engine's own, shared with the desktop so the two
//! compare byte for byte.

pub use engine::trace::{Exact, StateLine};
