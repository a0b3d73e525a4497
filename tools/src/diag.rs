//! Diagnostics in rustc's style: a headline, `--> file:line:column`, the
//! source line and a caret underline, then notes.
//!
//! Front ends record places as byte [`Span`]s of the source text; a
//! [`SourceFile`] turns a span into a [`Location`] (line, column and the
//! snippet to show) once, when the diagnostic is made, so a
//! [`Diagnostic`] owns everything it prints and outlives the text.

use std::fmt;

/// A byte range of the source text. Spans never cross a line break (the
/// text format is line based), and both ends lie on character boundaries.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte (`start` for an empty span, shown as one
    /// caret at that point).
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The empty span just after this one (where something is missing).
    pub fn after(self) -> Span {
        Span::new(self.end, self.end)
    }
}

/// User text for quoting in a message: escaped (no control characters
/// reach the terminal) and cut short, so a megabyte-long token does not
/// become a megabyte-long headline (the snippet shows it, windowed).
pub fn shown(text: &str) -> String {
    const MAX: usize = 40;
    let escaped: String = text.escape_debug().collect();
    if escaped.chars().count() <= MAX {
        escaped
    } else {
        let cut: String = escaped.chars().take(MAX - 3).collect();
        format!("{cut}...")
    }
}

/// How bad a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The map cannot be compiled.
    Error,
    /// The map compiles, but probably not as meant.
    Warning,
}

/// The line shown under a location, with the part to underline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// The source line, made printable (tabs expanded, control
    /// characters replaced) and cut to a window around the underline if
    /// it is very long.
    pub text: String,
    /// Display columns before the underline.
    pub caret_start: usize,
    /// Display columns underlined (at least 1).
    pub caret_len: usize,
}

/// A place in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file name as given by the caller.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// The source line to show, if the place is a span rather than the
    /// whole file.
    pub snippet: Option<Snippet>,
}

/// One message about the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The headline.
    pub message: String,
    /// Where.
    pub location: Location,
    /// Printed after the underline.
    pub label: Option<String>,
    /// Other places involved, each with a headline ("first defined here").
    pub related: Vec<(String, Location)>,
    /// `= note: ...` lines.
    pub notes: Vec<String>,
    /// `= help: ...` lines.
    pub help: Vec<String>,
}

impl Diagnostic {
    /// Adds a label under the carets.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Adds a `= note:` line.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds a `= help:` line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help.push(help.into());
        self
    }

    /// Adds a related place.
    pub fn related(mut self, message: impl Into<String>, at: Location) -> Self {
        self.related.push((message.into(), at));
        self
    }
}

/// Longest source line shown whole; longer ones are cut to a window
/// around the underline, so a one-megabyte line prints as one screen line.
const MAX_SHOWN: usize = 160;

/// The source text and its name, for turning spans into locations.
pub struct SourceFile<'a> {
    text: &'a str,
    name: &'a str,
    /// Byte offset of the start of every line.
    line_starts: Vec<usize>,
}

impl<'a> SourceFile<'a> {
    /// Indexes the lines of `text`.
    pub fn new(text: &'a str, name: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            text,
            name,
            line_starts,
        }
    }

    /// The file name.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The place of the whole file (line 1, column 1, no snippet), for
    /// problems that belong to no line, such as a missing player start.
    pub fn whole_file(&self) -> Location {
        Location {
            file: self.name.to_string(),
            line: 1,
            column: 1,
            snippet: None,
        }
    }

    /// The place of `span`, with its line for display.
    pub fn locate(&self, span: Span) -> Location {
        let start = floor_boundary(self.text, span.start.min(self.text.len()));
        let line_idx = match self.line_starts.binary_search(&start) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let line_start = self.line_starts.get(line_idx).copied().unwrap_or(0);
        let rest = self.text.get(line_start..).unwrap_or("");
        let line_len = rest.find('\n').unwrap_or(rest.len());
        let line = rest.get(..line_len).unwrap_or("");
        let line = line.strip_suffix('\r').unwrap_or(line);
        // Clamp the span to this line (spans never cross lines, but a
        // clamp is cheaper than a panic if one ever did).
        let rel_start = (start - line_start).min(line.len());
        let rel_end = floor_boundary(
            line,
            span.end
                .saturating_sub(line_start)
                .clamp(rel_start, line.len()),
        );
        let column = line.get(..rel_start).map_or(0, |s| s.chars().count()) + 1;
        Location {
            file: self.name.to_string(),
            line: line_idx + 1,
            column,
            snippet: Some(snippet(line, rel_start, rel_end)),
        }
    }
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Makes `line` printable and measures the underline of bytes
/// `start..end` in display columns.
fn snippet(line: &str, start: usize, end: usize) -> Snippet {
    let mut shown: Vec<char> = Vec::new();
    let (mut caret_start, mut caret_end) = (None, None);
    for (i, c) in line.char_indices() {
        if i == start {
            caret_start = Some(shown.len());
        }
        if i == end {
            caret_end = Some(shown.len());
        }
        match c {
            // rustc shows a tab as four spaces.
            '\t' => shown.extend([' '; 4]),
            c if c.is_control() => shown.push('\u{FFFD}'),
            c => shown.push(c),
        }
    }
    let caret_start = caret_start.unwrap_or(shown.len());
    let caret_end = caret_end.unwrap_or(shown.len()).max(caret_start);
    let caret_len = (caret_end - caret_start).max(1);
    if shown.len() <= MAX_SHOWN {
        return Snippet {
            text: shown.into_iter().collect(),
            caret_start,
            caret_len,
        };
    }
    // A window that starts a little before the underline.
    let from = caret_start.saturating_sub(40).min(shown.len());
    let to = (from + MAX_SHOWN).min(shown.len());
    let mut text = String::new();
    let mut shift = 0;
    if from > 0 {
        text.push_str("...");
        shift = 3;
    }
    text.extend(&shown[from..to]);
    if to < shown.len() {
        text.push_str("...");
    }
    let caret_start = caret_start - from + shift;
    let visible = (to - from + shift + 1).saturating_sub(caret_start).max(1);
    Snippet {
        text,
        caret_start,
        caret_len: caret_len.min(visible),
    }
}

fn write_location(
    f: &mut fmt::Formatter<'_>,
    at: &Location,
    gutter: usize,
    label: Option<&str>,
) -> fmt::Result {
    let pad = " ".repeat(gutter);
    writeln!(f, "{pad}--> {}:{}:{}", at.file, at.line, at.column)?;
    if let Some(s) = &at.snippet {
        writeln!(f, "{pad} |")?;
        writeln!(f, "{:>gutter$} | {}", at.line, s.text)?;
        write!(
            f,
            "{pad} | {}{}",
            " ".repeat(s.caret_start),
            "^".repeat(s.caret_len)
        )?;
        if let Some(l) = label {
            write!(f, " {l}")?;
        }
        writeln!(f)?;
    }
    Ok(())
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = |n: usize| n.to_string().len();
        let gutter = self
            .related
            .iter()
            .map(|(_, l)| digits(l.line))
            .chain([digits(self.location.line)])
            .max()
            .unwrap_or(1);
        let pad = " ".repeat(gutter);
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(f, "{kind}: {}", self.message)?;
        write_location(f, &self.location, gutter, self.label.as_deref())?;
        if !self.notes.is_empty() || !self.help.is_empty() {
            writeln!(f, "{pad} |")?;
        }
        for n in &self.notes {
            writeln!(f, "{pad} = note: {n}")?;
        }
        for h in &self.help {
            writeln!(f, "{pad} = help: {h}")?;
        }
        for (message, at) in &self.related {
            writeln!(f, "note: {message}")?;
            write_location(f, at, gutter, None)?;
        }
        Ok(())
    }
}

/// Why a text map did not compile: one or more errors, printed like
/// rustc's (see [`Diagnostic`]). `Display` renders them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics {
    /// The errors, in the order found.
    pub errors: Vec<Diagnostic>,
    /// Whether checking stopped early because there were too many.
    pub truncated: bool,
}

impl Diagnostics {
    /// The number of errors.
    pub fn error_count(&self) -> usize {
        self.errors.len()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.errors {
            writeln!(f, "{d}")?;
        }
        let n = self.errors.len();
        if self.truncated {
            write!(f, "error: aborting after {n} errors (too many to go on)")
        } else {
            let s = if n == 1 { "" } else { "s" };
            write!(f, "error: aborting due to {n} previous error{s}")
        }
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_is_escaped_and_short() {
        assert_eq!(shown("abc"), "abc");
        assert_eq!(shown("a\u{7}"), "a\\u{7}");
        assert_eq!(shown(&"x".repeat(1000)), format!("{}...", "x".repeat(37)));
    }

    #[test]
    fn locations_count_lines_and_characters_from_one() {
        let text = "first\nloop hall a b c d\r\nlast";
        let src = SourceFile::new(text, "m.map");
        let start = text.find("hall").unwrap();
        let end = text.find("d\r").unwrap() + 1;
        let at = src.locate(Span::new(start, end));
        assert_eq!((at.line, at.column), (2, 6));
        let s = at.snippet.unwrap();
        assert_eq!(s.text, "loop hall a b c d");
        assert_eq!((s.caret_start, s.caret_len), (5, 12));
    }

    #[test]
    fn rendering_matches_rustc_layout() {
        let text = "\n\n\n\n\n\n\n\n\n\n\nloop hall a b c d\n";
        let src = SourceFile::new(text, "maps/stairs.map");
        let start = text.find("hall").unwrap();
        let d = Diagnostic {
            severity: Severity::Error,
            message: "unclosed sector loop: ends at `d`, started at `a`".into(),
            location: src.locate(Span::new(start, text.len() - 1)),
            label: None,
            related: vec![],
            notes: vec![],
            help: vec![],
        };
        assert_eq!(
            d.to_string(),
            "error: unclosed sector loop: ends at `d`, started at `a`\n  --> maps/stairs.map:12:6\n   |\n12 | loop hall a b c d\n   |      ^^^^^^^^^^^^\n"
        );
    }

    #[test]
    fn tabs_control_characters_and_wide_text_are_shown_safely() {
        let text = "\tvertex\u{7} a";
        let src = SourceFile::new(text, "t");
        let at = src.locate(Span::new(text.find('a').unwrap(), text.len()));
        assert_eq!(at.column, 10);
        let s = at.snippet.unwrap();
        assert_eq!(s.text, "    vertex\u{FFFD} a");
        assert_eq!(s.caret_start, 12);

        let long = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let src = SourceFile::new(&long, "t");
        let at = src.locate(Span::new(5000, 5001));
        let s = at.snippet.unwrap();
        assert!(s.text.len() < 200);
        assert_eq!(s.text.chars().nth(s.caret_start), Some('X'));
        // Out-of-range and mid-character spans are clamped, not a panic.
        let src = SourceFile::new("é", "t");
        let _ = src.locate(Span::new(1, 99));
        let _ = src.locate(Span::new(99, 1));
    }
}
