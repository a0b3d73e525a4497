//! Splitting one line into tokens.

use crate::diag::Span;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A run of characters up to whitespace, `"` or `#`: a keyword, a
    /// name or a number (the parser decides which it expects).
    Word,
    /// A `"quoted string"`, with its escapes resolved.
    Str(String),
    /// `#...` right after a colour keyword: a colour, not a comment.
    Color,
}

/// One token of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: TokenKind,
    /// The exact source text.
    pub text: &'a str,
    /// Where.
    pub span: Span,
}

/// A lexing error: where and what.
pub type LexError = (Span, String);

/// The keywords after which `#` starts a colour rather than a comment.
pub const COLOR_KEYS: [&str; 3] = ["floor_color", "ceiling_color", "wall_color"];

/// Splits `line` (which starts at byte `base` of the file, without its
/// line break) into tokens, dropping a trailing comment.
pub fn lex_line(line: &str, base: usize) -> Result<Vec<Token<'_>>, LexError> {
    let mut tokens: Vec<Token<'_>> = Vec::new();
    let mut chars = line.char_indices().peekable();
    let span = |a: usize, b: usize| Span::new(base + a, base + b);
    while let Some(&(start, c)) = chars.peek() {
        if is_space(c) {
            chars.next();
            continue;
        }
        if c == '#' {
            let after_color_key = tokens
                .last()
                .is_some_and(|t| t.kind == TokenKind::Word && COLOR_KEYS.contains(&t.text));
            if !after_color_key {
                break; // A comment: the rest of the line.
            }
            chars.next();
            let end = word_end(line, start + 1);
            while chars.peek().is_some_and(|&(i, _)| i < end) {
                chars.next();
            }
            tokens.push(Token {
                kind: TokenKind::Color,
                text: &line[start..end],
                span: span(start, end),
            });
            continue;
        }
        if c == '"' {
            chars.next();
            let mut value = String::new();
            let mut closed = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '"' => {
                        closed = Some(i + 1);
                        break;
                    }
                    '\\' => match chars.next() {
                        Some((_, e @ ('"' | '\\'))) => value.push(e),
                        Some((j, e)) => {
                            return Err((
                                span(i, j + e.len_utf8()),
                                format!(
                                    "unknown escape `\\{}` in a string (only `\\\"` and `\\\\` \
                                     are allowed)",
                                    e.escape_debug()
                                ),
                            ))
                        }
                        None => break,
                    },
                    c => value.push(c),
                }
            }
            let Some(end) = closed else {
                return Err((
                    span(start, line.len()),
                    "unterminated string: a `\"` is missing".to_string(),
                ));
            };
            tokens.push(Token {
                kind: TokenKind::Str(value),
                text: &line[start..end],
                span: span(start, end),
            });
            continue;
        }
        let end = word_end(line, start);
        while chars.peek().is_some_and(|&(i, _)| i < end) {
            chars.next();
        }
        tokens.push(Token {
            kind: TokenKind::Word,
            text: &line[start..end],
            span: span(start, end),
        });
    }
    Ok(tokens)
}

/// Separators: Unicode white space, and the byte-order mark an editor may
/// put at the start of a file.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// The end of the word starting at byte `from`.
fn word_end(line: &str, from: usize) -> usize {
    line[from..]
        .char_indices()
        .find(|&(_, c)| is_space(c) || c == '"' || c == '#')
        .map_or(line.len(), |(i, _)| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        lex_line(line, 0)
            .unwrap()
            .into_iter()
            .map(|t| match t.kind {
                TokenKind::Str(s) => format!("str:{s}"),
                TokenKind::Color => format!("color:{}", t.text),
                TokenKind::Word => t.text.to_string(),
            })
            .collect()
    }

    #[test]
    fn words_strings_comments_and_colours() {
        assert_eq!(
            words("vertex a -12.5 3 # note"),
            ["vertex", "a", "-12.5", "3"]
        );
        assert_eq!(words("# only a comment"), Vec::<String>::new());
        assert_eq!(words("x#comment"), ["x"]);
        assert_eq!(
            words(r#"title "A \"big\" \\ room" # c"#),
            ["title", r#"str:A "big" \ room"#]
        );
        assert_eq!(
            words("sector s floor_color #ff8000 wall_color 7 #trailing"),
            [
                "sector",
                "s",
                "floor_color",
                "color:#ff8000",
                "wall_color",
                "7"
            ]
        );
        assert_eq!(words("\tloop\u{a0}a  b"), ["loop", "a", "b"]);
    }

    #[test]
    fn spans_are_byte_offsets_in_the_file() {
        let t = lex_line("é ab", 100).unwrap();
        assert_eq!(t[1].span, Span::new(103, 105));
    }

    #[test]
    fn bad_strings() {
        assert!(lex_line(r#"title "open"#, 0)
            .unwrap_err()
            .1
            .contains("unterminated"));
        assert!(lex_line(r#"title "a\"#, 0)
            .unwrap_err()
            .1
            .contains("unterminated"));
        assert!(lex_line(r#"title "a\n""#, 0)
            .unwrap_err()
            .1
            .contains("escape"));
    }
}
