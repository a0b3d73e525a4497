//! The overlay font: the engine's 3x5 glyphs.

pub use engine::render::font::{glyph, text_width, Glyph, ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH};
