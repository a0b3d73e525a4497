//! A tiny 3x5 bitmap font for frontends' text overlays (frame times, crash
//! reports, labels), so no frontend needs a font file. Only the glyphs live
//! here; each frontend draws them into its own buffer.
//!
//! Digits, capital letters (lower case draws as upper case) and
//! `. , : ; - + = / % _ ( ) [ ] ! ? # > < ' "` and space; anything else
//! draws as `?`.

/// Glyph width in pixels.
pub const GLYPH_WIDTH: usize = 3;
/// Glyph height in pixels.
pub const GLYPH_HEIGHT: usize = 5;
/// Horizontal distance from one glyph to the next.
pub const ADVANCE: usize = GLYPH_WIDTH + 1;

/// Five rows of three bits, the leftmost pixel in bit 2.
pub type Glyph = [u8; GLYPH_HEIGHT];

/// Width in pixels of `text` drawn one glyph per [`ADVANCE`] (no trailing
/// gap).
pub fn text_width(text: &str) -> usize {
    (text.chars().count() * ADVANCE).saturating_sub(1)
}

/// The glyph for `c`.
pub fn glyph(c: char) -> Glyph {
    match c.to_ascii_uppercase() {
        '0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        '1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        '2' => [0b111, 0b001, 0b111, 0b100, 0b111],
        '3' => [0b111, 0b001, 0b111, 0b001, 0b111],
        '4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        '5' => [0b111, 0b100, 0b111, 0b001, 0b111],
        '6' => [0b111, 0b100, 0b111, 0b101, 0b111],
        '7' => [0b111, 0b001, 0b001, 0b001, 0b001],
        '8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        '9' => [0b111, 0b101, 0b111, 0b001, 0b111],
        'A' => [0b010, 0b101, 0b111, 0b101, 0b101],
        'B' => [0b110, 0b101, 0b110, 0b101, 0b110],
        'C' => [0b011, 0b100, 0b100, 0b100, 0b011],
        'D' => [0b110, 0b101, 0b101, 0b101, 0b110],
        'E' => [0b111, 0b100, 0b110, 0b100, 0b111],
        'F' => [0b111, 0b100, 0b110, 0b100, 0b100],
        'G' => [0b011, 0b100, 0b101, 0b101, 0b011],
        'H' => [0b101, 0b101, 0b111, 0b101, 0b101],
        'I' => [0b111, 0b010, 0b010, 0b010, 0b111],
        'J' => [0b001, 0b001, 0b001, 0b101, 0b010],
        'K' => [0b101, 0b101, 0b110, 0b101, 0b101],
        'L' => [0b100, 0b100, 0b100, 0b100, 0b111],
        'M' => [0b101, 0b111, 0b111, 0b101, 0b101],
        'N' => [0b110, 0b101, 0b101, 0b101, 0b101],
        'O' => [0b010, 0b101, 0b101, 0b101, 0b010],
        'P' => [0b110, 0b101, 0b110, 0b100, 0b100],
        'Q' => [0b010, 0b101, 0b101, 0b110, 0b011],
        'R' => [0b110, 0b101, 0b110, 0b101, 0b101],
        'S' => [0b011, 0b100, 0b010, 0b001, 0b110],
        'T' => [0b111, 0b010, 0b010, 0b010, 0b010],
        'U' => [0b101, 0b101, 0b101, 0b101, 0b111],
        'V' => [0b101, 0b101, 0b101, 0b101, 0b010],
        'W' => [0b101, 0b101, 0b111, 0b111, 0b101],
        'X' => [0b101, 0b101, 0b010, 0b101, 0b101],
        'Y' => [0b101, 0b101, 0b010, 0b010, 0b010],
        'Z' => [0b111, 0b001, 0b010, 0b100, 0b111],
        '.' => [0b000, 0b000, 0b000, 0b000, 0b010],
        ',' => [0b000, 0b000, 0b000, 0b010, 0b100],
        ':' => [0b000, 0b010, 0b000, 0b010, 0b000],
        ';' => [0b000, 0b010, 0b000, 0b010, 0b100],
        '-' => [0b000, 0b000, 0b111, 0b000, 0b000],
        '+' => [0b000, 0b010, 0b111, 0b010, 0b000],
        '=' => [0b000, 0b111, 0b000, 0b111, 0b000],
        '/' => [0b001, 0b001, 0b010, 0b100, 0b100],
        '%' => [0b101, 0b001, 0b010, 0b100, 0b101],
        '_' => [0b000, 0b000, 0b000, 0b000, 0b111],
        '(' => [0b001, 0b010, 0b010, 0b010, 0b001],
        ')' => [0b100, 0b010, 0b010, 0b010, 0b100],
        '[' => [0b011, 0b010, 0b010, 0b010, 0b011],
        ']' => [0b110, 0b010, 0b010, 0b010, 0b110],
        '!' => [0b010, 0b010, 0b010, 0b000, 0b010],
        '#' => [0b101, 0b111, 0b101, 0b111, 0b101],
        '>' => [0b100, 0b010, 0b001, 0b010, 0b100],
        '<' => [0b001, 0b010, 0b100, 0b010, 0b001],
        '\'' => [0b010, 0b010, 0b000, 0b000, 0b000],
        '"' => [0b101, 0b101, 0b000, 0b000, 0b000],
        ' ' => [0; GLYPH_HEIGHT],
        _ => [0b111, 0b001, 0b011, 0b000, 0b010],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_case_draws_as_upper_case_and_unknowns_as_a_question_mark() {
        assert_eq!(glyph('a'), glyph('A'));
        assert_eq!(glyph('\u{e9}'), glyph('~'));
        assert_ne!(glyph('?'), glyph(' '));
    }

    #[test]
    fn glyphs_fit_in_three_columns() {
        for c in (' '..='~').chain(['\u{e9}']) {
            assert!(glyph(c).iter().all(|row| *row < 8), "{c:?}");
        }
    }
}
