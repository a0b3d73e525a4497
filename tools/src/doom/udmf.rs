//! UDMF, the Universal Doom Map Format (v1.1): the `TEXTMAP` lump, or a
//! standalone text file.
//!
//! ```text
//! translation_unit := (block | assignment)*
//! block            := identifier '{' assignment* '}'
//! assignment       := identifier '=' value ';'
//! value            := integer | float | "quoted string" | true | false
//! ```
//!
//! As the specification asks, names and keywords are case-insensitive,
//! unknown keys, blocks and global assignments are ignored, `//` and
//! `/* */` comments are skipped, and missing fields take their defaults.
//! Beyond the letter of the grammar (as every editor's output needs):
//! a bare `0` is an integer, integers with leading zeros are decimal (not
//! octal), a float may start or end with its point (`.5`, `5.`), strings
//! may hold any escape (`\x` is `x`) and any bytes (read as UTF-8, lossily).
//!
//! Values keep their position, so every error reads `line:column:
//! message`: a syntax error, a known field with the wrong type
//! (`x = "a"`), a number that does not fit (`1e999`, an integer beyond 64
//! bits, a vertex index beyond 32 bits), a missing required field (a
//! vertex without `x`). Unknown keyword values (`nan`, `inf`) are only an
//! error where a known field needs a number. The parser never panics and
//! is linear in the input.
//!
//! Fields read: `namespace`; vertex `x y`; linedef `v1 v2 sidefront
//! sideback special arg0..arg4 id` and the flags `blocking
//! blockmonsters twosided dontpegtop dontpegbottom secret blocksound
//! dontdraw mapped` (plus ZDoom's `blockplayers` and `blockeverything`,
//! read as `blocking`); sidedef `offsetx offsety texturetop
//! texturebottom texturemiddle sector`; sector `heightfloor heightceiling
//! texturefloor textureceiling lightlevel special id`; thing `x y angle
//! type skill1..skill5 single`. Slopes (a leaning `floorplane_*` or
//! `ceilingplane_*`, vertex `zfloor`/`zceiling`) and portals (Eternity's
//! `portalceiling`, `portalfloor` and linedef `portal`) are recorded as
//! unsupported [`Feature`]s when a map uses them: fields at their default
//! (what editors such as SLADE write on every sector) are not a use.

use std::fmt;

use super::{
    line_flag, DoomLevel, Feature, Linedef, Sector, Sidedef, SourceFormat, SpecialSet, Thing,
    Vertex, NEGATIVE_INDEX,
};

/// A UDMF error: where (1-based line and column, in characters) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UdmfError {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for UdmfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for UdmfError {}

/// A place in the text.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Pos {
    line: usize,
    column: usize,
}

impl Pos {
    fn error(self, message: impl Into<String>) -> UdmfError {
        UdmfError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

/// A value as written.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    /// Any other bare word (`nan`, a port's own keyword).
    Keyword(String),
}

impl Value {
    /// Whether the value says something is there: not `false`, 0 or an
    /// empty string (what editors write for a field left at its default).
    fn is_set(&self) -> bool {
        match self {
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Bool(b) => *b,
            Value::Keyword(_) => true,
        }
    }

    fn describe(&self) -> String {
        match self {
            Value::Int(_) => "an integer".into(),
            Value::Float(_) => "a float".into(),
            Value::Str(_) => "a string".into(),
            Value::Bool(_) => "true or false".into(),
            Value::Keyword(k) => format!("the word `{}`", crate::diag::shown(k)),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    LBrace,
    RBrace,
    Equals,
    Semicolon,
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{}`", crate::diag::shown(s)),
            Tok::Int(_) | Tok::Float(_) => "a number".into(),
            Tok::Str(_) => "a string".into(),
            Tok::LBrace => "`{`".into(),
            Tok::RBrace => "`}`".into(),
            Tok::Equals => "`=`".into(),
            Tok::Semicolon => "`;`".into(),
            Tok::End => "the end of the text".into(),
        }
    }
}

/// Splits the text into tokens, one at a time, tracking line and column.
struct Lexer<'a> {
    b: &'a [u8],
    at: usize,
    pos: Pos,
    /// The start of the last string that ran over a line break, and the
    /// line it ended on: a string whose closing `"` is missing ends at the
    /// next string's opening one, and parsing fails somewhere after.
    multiline: Option<(Pos, usize)>,
}

impl<'a> Lexer<'a> {
    fn new(b: &'a [u8]) -> Self {
        Lexer {
            b,
            at: 0,
            pos: Pos { line: 1, column: 1 },
            multiline: None,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn peek2(&self) -> Option<u8> {
        self.b.get(self.at + 1).copied()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.at += 1;
            if c == b'\n' {
                self.pos.line += 1;
                self.pos.column = 1;
            } else if c & 0xC0 != 0x80 {
                // Count characters, not UTF-8 continuation bytes.
                self.pos.column += 1;
            }
        }
    }

    /// Skips white space and comments.
    fn skip(&mut self) -> Result<(), UdmfError> {
        loop {
            match (self.peek(), self.peek2()) {
                (Some(c), _) if c.is_ascii_whitespace() => self.bump(),
                (Some(b'/'), Some(b'/')) => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.bump();
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    let start = self.pos;
                    self.bump();
                    self.bump();
                    loop {
                        match (self.peek(), self.peek2()) {
                            (Some(b'*'), Some(b'/')) => {
                                self.bump();
                                self.bump();
                                break;
                            }
                            (Some(_), _) => self.bump(),
                            (None, _) => {
                                return Err(start.error("unterminated `/*` comment"));
                            }
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// The next token and where it starts.
    fn next(&mut self) -> Result<(Tok, Pos), UdmfError> {
        self.skip()?;
        let pos = self.pos;
        let Some(c) = self.peek() else {
            return Ok((Tok::End, pos));
        };
        let single = match c {
            b'{' => Some(Tok::LBrace),
            b'}' => Some(Tok::RBrace),
            b'=' => Some(Tok::Equals),
            b';' => Some(Tok::Semicolon),
            _ => None,
        };
        if let Some(t) = single {
            self.bump();
            return Ok((t, pos));
        }
        if c == b'"' {
            return self.string(pos);
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = self.at;
            while self
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
            {
                self.bump();
            }
            let word = String::from_utf8_lossy(&self.b[start..self.at]).to_ascii_lowercase();
            return Ok((Tok::Ident(word), pos));
        }
        if c.is_ascii_digit() || c == b'+' || c == b'-' || c == b'.' {
            return self.number(pos);
        }
        let shown: String =
            String::from_utf8_lossy(&self.b[self.at..(self.at + 4).min(self.b.len())])
                .chars()
                .next()
                .map(|ch| ch.escape_debug().collect())
                .unwrap_or_default();
        Err(pos.error(format!("unexpected character `{shown}`")))
    }

    fn string(&mut self, pos: Pos) -> Result<(Tok, Pos), UdmfError> {
        self.bump();
        let mut bytes = Vec::new();
        loop {
            match self.peek() {
                None => return Err(pos.error("unterminated string: no closing `\"`")),
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(b'\\') => {
                    self.bump();
                    match self.peek() {
                        None => return Err(pos.error("unterminated string: no closing `\"`")),
                        // `\x` stands for `x`: the grammar's `\\.`; `\n`
                        // is a line break, as C writers expect.
                        Some(b'n') => bytes.push(b'\n'),
                        Some(b't') => bytes.push(b'\t'),
                        Some(e) => bytes.push(e),
                    }
                    self.bump();
                }
                Some(c) => {
                    bytes.push(c);
                    self.bump();
                }
            }
        }
        if self.pos.line != pos.line {
            self.multiline = Some((pos, self.pos.line));
        }
        Ok((Tok::Str(String::from_utf8_lossy(&bytes).into_owned()), pos))
    }

    fn number(&mut self, pos: Pos) -> Result<(Tok, Pos), UdmfError> {
        let start = self.at;
        if matches!(self.peek(), Some(b'+' | b'-')) {
            self.bump();
        }
        // Hexadecimal: 0x...
        if self.peek() == Some(b'0') && matches!(self.peek2(), Some(b'x' | b'X')) {
            self.bump();
            self.bump();
            let digits = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                self.bump();
            }
            self.no_word_tail(pos)?;
            let text = std::str::from_utf8(&self.b[digits..self.at]).unwrap_or("");
            let negative = self.b[start] == b'-';
            let v = i64::from_str_radix(text, 16)
                .map_err(|_| pos.error("hexadecimal number without digits, or too large"))?;
            return Ok((Tok::Int(if negative { -v } else { v }), pos));
        }
        let mut digits = 0;
        let mut float = false;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            digits += 1;
        }
        if self.peek() == Some(b'.') {
            float = true;
            self.bump();
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
                digits += 1;
            }
        }
        if digits == 0 {
            let what = String::from_utf8_lossy(&self.b[start..self.at]).into_owned();
            return Err(pos.error(format!("`{what}` is not a number: digits expected")));
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            float = true;
            self.bump();
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.bump();
            }
            let exp = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
            if self.at == exp {
                return Err(pos.error("a number's exponent needs digits (`1e5`)"));
            }
        }
        self.no_word_tail(pos)?;
        let text = std::str::from_utf8(&self.b[start..self.at]).unwrap_or("");
        if float {
            let v: f64 = text
                .parse()
                .map_err(|_| pos.error(format!("`{text}` is not a number")))?;
            if !v.is_finite() {
                return Err(pos.error(format!("`{}` is too large", crate::diag::shown(text))));
            }
            Ok((Tok::Float(v), pos))
        } else {
            let v: i64 = text.parse().map_err(|_| {
                pos.error(format!(
                    "`{}` is too large for an integer",
                    crate::diag::shown(text)
                ))
            })?;
            Ok((Tok::Int(v), pos))
        }
    }

    /// A number must not run straight into letters (`12abc`).
    fn no_word_tail(&self, pos: Pos) -> Result<(), UdmfError> {
        if self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        {
            return Err(pos.error("malformed number: letters or a second `.` right after it"));
        }
        Ok(())
    }
}

/// The fields of one block, in order (a repeated key: the last wins).
struct Block {
    kind: String,
    pos: Pos,
    fields: Vec<(String, Value, Pos)>,
}

impl Block {
    fn get(&self, key: &str) -> Option<(&Value, Pos)> {
        self.fields
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, p)| (v, *p))
    }

    /// Whether `key` is there with a value that is set (see
    /// [`Value::is_set`]).
    fn is_set(&self, key: &str) -> bool {
        self.get(key).is_some_and(|(v, _)| v.is_set())
    }

    fn wrong(&self, key: &str, v: &Value, p: Pos, want: &str) -> UdmfError {
        p.error(format!(
            "{} field `{key}` must be {want}, not {}",
            self.kind,
            v.describe()
        ))
    }

    fn float(&self, key: &str) -> Result<Option<f64>, UdmfError> {
        match self.get(key) {
            None => Ok(None),
            Some((Value::Int(i), _)) => Ok(Some(*i as f64)),
            Some((Value::Float(f), _)) => Ok(Some(*f)),
            Some((v, p)) => Err(self.wrong(key, v, p, "a number")),
        }
    }

    fn float_or(&self, key: &str, default: f64) -> Result<f64, UdmfError> {
        Ok(self.float(key)?.unwrap_or(default))
    }

    fn required_float(&self, key: &str, index: usize) -> Result<f64, UdmfError> {
        self.float(key)?.ok_or_else(|| self.missing(key, index))
    }

    /// An integer field within `i32`; a float with no fraction is
    /// accepted (some editors write `heightfloor = 16.0`).
    fn int(&self, key: &str) -> Result<Option<i32>, UdmfError> {
        let (v, p) = match self.get(key) {
            None => return Ok(None),
            Some(x) => x,
        };
        let n = match v {
            Value::Int(i) => *i,
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e18 => *f as i64,
            _ => return Err(self.wrong(key, v, p, "an integer")),
        };
        i32::try_from(n).map(Some).map_err(|_| {
            p.error(format!(
                "{} field `{key}` is {n}, outside the 32-bit range",
                self.kind
            ))
        })
    }

    fn int_or(&self, key: &str, default: i32) -> Result<i32, UdmfError> {
        Ok(self.int(key)?.unwrap_or(default))
    }

    /// An index into another array: a non-negative integer, or a negative
    /// one (conventionally -1) for "none".
    fn index(&self, key: &str) -> Result<Option<usize>, UdmfError> {
        Ok(self.int(key)?.and_then(|i| usize::try_from(i).ok()))
    }

    /// A required index; a negative one is [`NEGATIVE_INDEX`], out of
    /// range like one past the end (the importer drops what it names,
    /// with a warning, the same way).
    fn required_index(&self, key: &str, index: usize) -> Result<usize, UdmfError> {
        match self.int(key)? {
            None => Err(self.missing(key, index)),
            Some(i) => Ok(usize::try_from(i).unwrap_or(NEGATIVE_INDEX)),
        }
    }

    fn boolean(&self, key: &str) -> Result<bool, UdmfError> {
        match self.get(key) {
            None => Ok(false),
            Some((Value::Bool(b), _)) => Ok(*b),
            Some((v, p)) => Err(self.wrong(key, v, p, "true or false")),
        }
    }

    /// A texture name, upper-cased (DOOM's names are case-insensitive).
    fn texture(&self, key: &str) -> Result<String, UdmfError> {
        match self.get(key) {
            None => Ok("-".into()),
            Some((Value::Str(s), _)) => Ok(s.to_ascii_uppercase()),
            Some((v, p)) => Err(self.wrong(key, v, p, "a string")),
        }
    }

    fn missing(&self, key: &str, index: usize) -> UdmfError {
        self.pos.error(format!(
            "{} {index} has no `{key}` (it has no default)",
            self.kind
        ))
    }
}

/// Parses a `TEXTMAP` lump or file.
pub fn parse_bytes(bytes: &[u8]) -> Result<DoomLevel, UdmfError> {
    let mut lx = Lexer::new(bytes);
    match parse_tokens(&mut lx) {
        Ok((namespace, blocks)) => level_from_blocks(namespace, &blocks),
        // A syntax error after a string that ran over lines: most likely
        // that string lacks its closing `"`, and the error is reported
        // where it started.
        Err(e) => match lx.multiline {
            Some((start, end)) if (start.line, start.column) < (e.line, e.column) => Err(start
                .error(format!(
                    "unterminated string? this string runs to line {end}, where a later \
                     string's `\"` ends it; parsing then failed at {}:{}: {}",
                    e.line, e.column, e.message
                ))),
            _ => Err(e),
        },
    }
}

/// The namespace and the blocks of the text.
#[allow(clippy::type_complexity)]
fn parse_tokens(lx: &mut Lexer<'_>) -> Result<(Option<(String, Pos)>, Vec<Block>), UdmfError> {
    let mut namespace: Option<(String, Pos)> = None;
    let mut blocks: Vec<Block> = Vec::new();
    loop {
        let (tok, pos) = lx.next()?;
        let name = match tok {
            Tok::End => break,
            Tok::Ident(name) => name,
            other => {
                return Err(pos.error(format!(
                    "expected a block (`linedef {{ ... }}`) or an assignment, found {}",
                    other.describe()
                )))
            }
        };
        let (tok, p2) = lx.next()?;
        match tok {
            Tok::Equals => {
                let (value, vpos) = value(lx)?;
                if name == "namespace" {
                    match value {
                        Value::Str(s) => namespace = Some((s.to_ascii_lowercase(), vpos)),
                        v => {
                            return Err(vpos.error(format!(
                                "`namespace` must be a string, not {}",
                                v.describe()
                            )))
                        }
                    }
                }
            }
            Tok::LBrace => {
                let mut block = Block {
                    kind: name,
                    pos,
                    fields: Vec::new(),
                };
                loop {
                    let (tok, kpos) = lx.next()?;
                    match tok {
                        Tok::RBrace => break,
                        Tok::Ident(key) => {
                            expect(lx, Tok::Equals, &key)?;
                            let (v, vpos) = value(lx)?;
                            block.fields.push((key, v, vpos));
                        }
                        Tok::End => {
                            return Err(block.pos.error(format!(
                                "`{}` block is not closed: no `}}` before the end",
                                crate::diag::shown(&block.kind)
                            )))
                        }
                        other => {
                            return Err(kpos.error(format!(
                                "expected a field name or `}}`, found {}",
                                other.describe()
                            )))
                        }
                    }
                }
                blocks.push(block);
            }
            other => {
                return Err(p2.error(format!(
                    "expected `=` or `{{` after `{}`, found {}",
                    crate::diag::shown(&name),
                    other.describe()
                )))
            }
        }
    }
    Ok((namespace, blocks))
}

/// Parses UDMF text.
pub fn parse(text: &str) -> Result<DoomLevel, UdmfError> {
    parse_bytes(text.as_bytes())
}

/// `= value ;` after a key (the `=` already read).
fn value(lx: &mut Lexer<'_>) -> Result<(Value, Pos), UdmfError> {
    let (tok, pos) = lx.next()?;
    let v = match tok {
        Tok::Int(i) => Value::Int(i),
        Tok::Float(f) => Value::Float(f),
        Tok::Str(s) => Value::Str(s),
        Tok::Ident(w) if w == "true" => Value::Bool(true),
        Tok::Ident(w) if w == "false" => Value::Bool(false),
        Tok::Ident(w) => Value::Keyword(w),
        other => return Err(pos.error(format!("expected a value, found {}", other.describe()))),
    };
    let (tok, p) = lx.next()?;
    if tok != Tok::Semicolon {
        return Err(p.error(format!(
            "expected `;` after the value, found {}",
            tok.describe()
        )));
    }
    Ok((v, pos))
}

fn expect(lx: &mut Lexer<'_>, want: Tok, after: &str) -> Result<(), UdmfError> {
    let (tok, pos) = lx.next()?;
    if tok == want {
        Ok(())
    } else {
        Err(pos.error(format!(
            "expected {} after `{}`, found {}",
            want.describe(),
            crate::diag::shown(after),
            tok.describe()
        )))
    }
}

/// Which special numbering a namespace uses, or `None` if unknown.
pub fn namespace_specials(namespace: &str) -> Option<SpecialSet> {
    match namespace {
        "doom" | "heretic" | "strife" | "zdoomtranslated" | "chex" => Some(SpecialSet::Doom),
        "hexen" | "zdoom" | "eternity" | "vavoom" | "dsda" | "gzdoom" => Some(SpecialSet::Hexen),
        _ => None,
    }
}

fn level_from_blocks(
    namespace: Option<(String, Pos)>,
    blocks: &[Block],
) -> Result<DoomLevel, UdmfError> {
    let ns = namespace
        .as_ref()
        .map(|(n, _)| n.clone())
        .unwrap_or_default();
    let specials = namespace_specials(&ns);
    let mut level = DoomLevel::new(
        SourceFormat::Udmf(ns.clone()),
        specials.unwrap_or(SpecialSet::Doom),
    );
    match (&namespace, specials) {
        (None, _) => level
            .warnings
            .push("TEXTMAP has no `namespace`: reading it as the `doom` namespace".into()),
        (Some((n, p)), None) => level.warnings.push(format!(
            "TEXTMAP {}:{}: unknown namespace `{}`: its specials are read as DOOM's",
            p.line,
            p.column,
            crate::diag::shown(n)
        )),
        _ => {}
    }
    let doom_tags = level.specials == SpecialSet::Doom;
    // Block counts per kind, for "vertex 3 has no `x`".
    let (mut nv, mut nl, mut ns_, mut nt) = (0, 0, 0, 0);
    for b in blocks {
        match b.kind.as_str() {
            "vertex" => {
                level.vertices.push(Vertex {
                    x: b.required_float("x", nv)?,
                    y: b.required_float("y", nv)?,
                });
                if b.get("zfloor").is_some() || b.get("zceiling").is_some() {
                    level.uses(Feature::Slopes);
                }
                nv += 1;
            }
            "linedef" => {
                let mut flags = 0;
                for (key, bit) in [
                    ("blocking", line_flag::BLOCKING),
                    ("blockmonsters", line_flag::BLOCK_MONSTERS),
                    ("twosided", line_flag::TWO_SIDED),
                    ("dontpegtop", line_flag::DONT_PEG_TOP),
                    ("dontpegbottom", line_flag::DONT_PEG_BOTTOM),
                    ("secret", line_flag::SECRET),
                    ("blocksound", line_flag::BLOCK_SOUND),
                    ("dontdraw", line_flag::DONT_DRAW),
                    ("mapped", line_flag::MAPPED),
                    // ZDoom: blocks the player too, which is all we have.
                    ("blockplayers", line_flag::BLOCKING),
                    ("blockeverything", line_flag::BLOCKING),
                ] {
                    if b.boolean(key)? {
                        flags |= bit;
                    }
                }
                if !doom_tags {
                    // Hexen numbering: who sets the special off, in
                    // Hexen's own bits (the player's use first).
                    let who = if b.boolean("playeruse")? {
                        line_flag::activation::USE
                    } else if b.boolean("playercross")? {
                        line_flag::activation::CROSS
                    } else {
                        line_flag::activation::OTHER
                    };
                    flags |= who << line_flag::ACTIVATION_SHIFT;
                    if b.boolean("repeatspecial")? {
                        flags |= line_flag::REPEAT;
                    }
                }
                let mut args = [0; 5];
                for (k, a) in args.iter_mut().enumerate() {
                    *a = b.int_or(&format!("arg{k}"), 0)?;
                }
                let id = b.int_or("id", if doom_tags { 0 } else { -1 })?;
                // Doom namespaces store the tag as both `id` and `arg0`;
                // trust `arg0`, fall back on `id` for writers that only
                // set that.
                let tag = if doom_tags && args[0] == 0 {
                    id.max(0)
                } else {
                    args[0]
                };
                // Eternity's line portal (ZDoom's are line specials,
                // classified with the others).
                if b.is_set("portal") {
                    level.uses(Feature::Portals);
                }
                level.linedefs.push(Linedef {
                    v1: b.required_index("v1", nl)?,
                    v2: b.required_index("v2", nl)?,
                    flags,
                    special: b.int_or("special", 0)?,
                    tag,
                    args,
                    front: b.index("sidefront")?,
                    back: b.index("sideback")?,
                });
                nl += 1;
            }
            "sidedef" => {
                level.sidedefs.push(Sidedef {
                    x_offset: b.float_or("offsetx", 0.0)?,
                    y_offset: b.float_or("offsety", 0.0)?,
                    upper: b.texture("texturetop")?,
                    lower: b.texture("texturebottom")?,
                    middle: b.texture("texturemiddle")?,
                    sector: b.required_index("sector", ns_)?,
                });
                ns_ += 1;
            }
            "sector" => {
                // What a map uses, not the fields an editor writes on every
                // sector: a plane is sloped when it leans (a or b), and
                // the `portal_ceil_*`/`portal_floor_*` fields SLADE
                // writes (`portal_ceil_disabled = false`) only describe
                // a portal set elsewhere; Eternity's sector portals are
                // `portalceiling`/`portalfloor`.
                let leans = [
                    "floorplane_a",
                    "floorplane_b",
                    "ceilingplane_a",
                    "ceilingplane_b",
                ];
                if leans.iter().any(|k| b.is_set(k)) {
                    level.uses(Feature::Slopes);
                }
                if b.is_set("portalceiling") || b.is_set("portalfloor") {
                    level.uses(Feature::Portals);
                }
                level.sectors.push(Sector {
                    floor: b.float_or("heightfloor", 0.0)?,
                    ceiling: b.float_or("heightceiling", 0.0)?,
                    floor_texture: b.texture("texturefloor")?,
                    ceiling_texture: b.texture("textureceiling")?,
                    light: b.int_or("lightlevel", 160)?,
                    special: b.int_or("special", 0)?,
                    tag: b.int_or("id", 0)?,
                });
            }
            "thing" => {
                let mut skills = 0u8;
                for s in 0..5 {
                    if b.boolean(&format!("skill{}", s + 1))? {
                        skills |= 1 << s;
                    }
                }
                let kind = match b.int("type")? {
                    Some(t) => t,
                    None => return Err(b.missing("type", nt)),
                };
                level.things.push(Thing {
                    x: b.required_float("x", nt)?,
                    y: b.required_float("y", nt)?,
                    angle: b.float_or("angle", 0.0)?,
                    kind,
                    skills,
                    single: b.boolean("single")?,
                });
                nt += 1;
            }
            // Unknown blocks are ignored, as the specification asks.
            _ => {}
        }
    }
    Ok(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOM: &str = r#"
// A square room, as Ultimate Doom Builder writes it.
namespace = "Doom";
/* vertices
   in order */
vertex { x = 0.0; y = 0.0; }
vertex { x = 0; y = 128.5; }
VERTEX { X = 128.0; Y = 128.0; }
vertex { x = 1.28e2; y = -0.0; }
linedef { v1 = 0; v2 = 1; sidefront = 0; blocking = true; special = 1; arg0 = 0; id = 7; }
linedef { v1 = 1; v2 = 2; sidefront = 0; sideback = -1; dontpegbottom = true; }
linedef { v1 = 2; v2 = 3; sidefront = 0; user_color = "red"; unknownflag = true; }
linedef { v1 = 3; v2 = 0; sidefront = 0; }
sidedef { sector = 0; texturemiddle = "startan3"; offsetx = 8; offsety = -4.5; comment = "a \"quoted\" \\ note"; }
sector { texturefloor = "FLOOR4_8"; textureceiling = "F_SKY1"; heightceiling = 128; }
thing { x = 64.0; y = 64.0; angle = 90; type = 1; skill1 = true; skill2 = true; skill3 = true; single = true; }
somefutureblock { a = 1; b = nan; }
globalthing = 0x1F;
"#;

    #[test]
    fn reads_a_room() {
        let level = parse(ROOM).unwrap();
        assert_eq!(level.format, SourceFormat::Udmf("doom".into()));
        assert_eq!(level.specials, SpecialSet::Doom);
        assert_eq!(level.vertices.len(), 4);
        assert_eq!(level.vertices[1], Vertex { x: 0.0, y: 128.5 });
        assert_eq!(level.vertices[3].x, 128.0);
        assert_eq!(level.linedefs.len(), 4);
        let l0 = &level.linedefs[0];
        assert_eq!((l0.v1, l0.v2, l0.front, l0.back), (0, 1, Some(0), None));
        assert_eq!(l0.flags, line_flag::BLOCKING);
        // Doom namespace: the tag is `id` when `arg0` is 0.
        assert_eq!((l0.special, l0.tag), (1, 7));
        assert_eq!(level.linedefs[1].flags, line_flag::DONT_PEG_BOTTOM);
        assert_eq!(level.linedefs[1].back, None);
        let s = &level.sidedefs[0];
        assert_eq!(s.middle, "STARTAN3");
        assert_eq!((s.upper.as_str(), s.lower.as_str()), ("-", "-"));
        assert_eq!((s.x_offset, s.y_offset), (8.0, -4.5));
        let sec = &level.sectors[0];
        assert_eq!((sec.floor, sec.ceiling, sec.light), (0.0, 128.0, 160));
        assert_eq!(sec.ceiling_texture, "F_SKY1");
        let t = &level.things[0];
        assert_eq!(
            (t.x, t.y, t.angle, t.kind, t.skills, t.single),
            (64.0, 64.0, 90.0, 1, 0b111, true)
        );
        assert!(level.warnings.is_empty(), "{:?}", level.warnings);
    }

    fn err(text: &str) -> UdmfError {
        parse(text).expect_err(text)
    }

    #[test]
    fn errors_say_line_and_column() {
        let e = err("namespace = \"doom\";\nvertex { x = 1; y = ; }");
        assert_eq!((e.line, e.column), (2, 21), "{e}");
        assert!(e.message.contains("expected a value"), "{e}");
        assert_eq!(e.to_string(), format!("2:21: {}", e.message));

        let e = err("vertex { x = 1 y = 2; }");
        assert_eq!((e.line, e.column), (1, 16), "{e}");
        assert!(e.message.contains("expected `;`"), "{e}");

        let e = err("vertex { x = \"1\"; y = 2; }");
        assert!(e.message.contains("must be a number, not a string"), "{e}");
        assert_eq!(e.column, 14);

        let e = err("vertex { y = 2; }");
        assert!(e.message.contains("vertex 0 has no `x`"), "{e}");

        let e = err("vertex { x = nan; y = 0; }");
        assert!(e.message.contains("`nan`"), "{e}");
        let e = err("vertex { x = inf; y = 0; }");
        assert!(e.message.contains("`inf`"), "{e}");
        let e = err("vertex { x = 1e999; y = 0; }");
        assert!(e.message.contains("too large"), "{e}");
        let e = err("vertex { x = 99999999999999999999999; y = 0; }");
        assert!(e.message.contains("too large"), "{e}");
        let e = err("linedef { v1 = 99999999999; v2 = 0; }");
        assert!(e.message.contains("32-bit"), "{e}");
        // A negative vertex index is out of range, as one past the end is:
        // kept for the importer, which drops the line with a warning.
        let level = parse("linedef { v1 = -3; v2 = 0; }").unwrap();
        assert_eq!(level.linedefs[0].v1, NEGATIVE_INDEX);
        let e = err("vertex { x = 1; y = 2;");
        assert!(e.message.contains("not closed"), "{e}");
        let e = err("/* open");
        assert!(e.message.contains("unterminated"), "{e}");
        let e = err("namespace = \"doom");
        assert!(e.message.contains("unterminated string"), "{e}");
        // A string whose closing quote is missing runs to the next
        // string's opening one, and parsing fails lines later: the error
        // is where the string started.
        let mut text = String::from(
            "namespace = \"doom\";\nsidedef { sector = 0; texturemiddle = \"STARTAN3; }\n",
        );
        for _ in 0..200 {
            text.push_str("vertex { x = 0; y = 0; }\n");
        }
        text.push_str("sidedef { sector = 0; texturetop = \"X\"; }\n");
        let e = err(&text);
        assert_eq!((e.line, e.column), (2, 39), "{e}");
        assert!(
            e.message.contains("unterminated string?") && e.message.contains("line 203"),
            "{e}"
        );
        let e = err("vertex { x = 12abc; }");
        assert!(e.message.contains("malformed number"), "{e}");
        let e = err("thing { x = 0; y = 0; skill1 = 1; type = 1; }");
        assert!(e.message.contains("true or false"), "{e}");
        let e = err("} ");
        assert_eq!((e.line, e.column), (1, 1));
        let e = err("vertex { x = 1; } @");
        assert!(e.message.contains("unexpected character `@`"), "{e}");
        let e = err("a b");
        assert!(e.message.contains("expected `=` or `{`"), "{e}");
        let e = err("block { { }");
        assert!(e.message.contains("expected a field name"), "{e}");
        let e = err("vertex { x = -; }");
        assert!(e.message.contains("digits expected"), "{e}");
        let e = err("vertex { x = 1e; }");
        assert!(e.message.contains("exponent"), "{e}");
    }

    #[test]
    fn grammar_details() {
        // A bare 0, hex, signs, leading zeros, floats of every shape.
        let level = parse(
            "vertex{x=0;y=-0;}vertex{x=+5.;y=.25;}vertex{x=010;y=0x10;}vertex{x=-2E2;y=1.5e-1;}",
        )
        .unwrap();
        let xy: Vec<(f64, f64)> = level.vertices.iter().map(|v| (v.x, v.y)).collect();
        assert_eq!(xy, [(0.0, 0.0), (5.0, 0.25), (10.0, 16.0), (-200.0, 0.15)]);
        // No namespace: a warning, DOOM numbering.
        assert_eq!(level.specials, SpecialSet::Doom);
        assert_eq!(level.warnings.len(), 1);
        // Comments anywhere, keys and block names in any case, strings
        // with escapes, unknown keys of every type.
        let level = parse(
            "NameSpace = \"ZDoom\"; // trailing\n sidedef /* here */ { SECTOR = 3; TextureTop = \"a\\\"b\\\\c\\q\"; \
             user_x = \"\"; user_y = 1.5; user_z = true; user_w = someword; }",
        )
        .unwrap();
        assert_eq!(level.specials, SpecialSet::Hexen);
        assert_eq!(level.sidedefs[0].sector, 3);
        assert_eq!(level.sidedefs[0].upper, "A\"B\\CQ");
        // Unknown namespace: a warning.
        let level = parse("namespace = \"mystery\";").unwrap();
        assert!(
            level.warnings[0].contains("unknown namespace"),
            "{:?}",
            level.warnings
        );
        // Hexen numbering takes the tag from arg0 only.
        let level = parse("namespace=\"zdoom\"; linedef { v1=0; v2=1; id=5; special=12; arg0=9; }")
            .unwrap();
        assert_eq!(level.linedefs[0].tag, 9);
        // Slopes and portals are noticed.
        let level =
            parse("sector { floorplane_a = 1.0; } vertex { x = 0; y = 0; zfloor = 8; }").unwrap();
        assert_eq!(level.features, [Feature::Slopes]);
        let level =
            parse("sector { portalceiling = 3; } linedef { v1 = 0; v2 = 1; portal = 2; }").unwrap();
        assert_eq!(level.features, [Feature::Portals]);
        // But not the fields SLADE writes on every sector at their
        // defaults, nor a plane that does not lean.
        let level = parse(
            "sector { portal_ceil_disabled = false; portal_ceil_alpha = 1.0; \
             portal_floor_blocksound = false; portal_floor_overlaytype = \"\"; \
             floorplane_a = 0.0; floorplane_b = 0.0; floorplane_c = 1.0; floorplane_d = -8.0; \
             portalceiling = 0; } linedef { v1 = 0; v2 = 1; portal = 0; }",
        )
        .unwrap();
        assert!(level.features.is_empty(), "{:?}", level.features);
        // Integral floats are accepted for integer fields.
        let level = parse("sector { heightfloor = 16.0; lightlevel = 200.0; }").unwrap();
        assert_eq!(
            (level.sectors[0].floor, level.sectors[0].light),
            (16.0, 200)
        );
    }

    #[test]
    fn never_panics_on_any_prefix_or_mutation() {
        let bytes = ROOM.as_bytes();
        for n in 0..=bytes.len() {
            let _ = parse_bytes(&bytes[..n]);
        }
        // Every single-byte substitution with a troublesome byte.
        for (i, _) in bytes.iter().enumerate().step_by(3) {
            for c in [
                b'"', b'{', b'}', b';', b'=', b'/', b'*', b'\\', b'-', b'.', b'e', 0xFF, 0, b'9',
            ] {
                let mut m = bytes.to_vec();
                m[i] = c;
                let _ = parse_bytes(&m);
            }
        }
        // Pseudo-random garbage.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        const ALPHABET: &[u8] = b"{}=;\"/*\\ \nabx0123.e-+";
        for len in 0..200 {
            let g: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    ALPHABET[(x % ALPHABET.len() as u64) as usize]
                })
                .collect();
            let _ = parse_bytes(&g);
        }
        // Huge inputs stay linear: a long comment, a long string.
        let big = format!(
            "/*{}*/ namespace = \"{}\";",
            "x".repeat(1 << 20),
            "y".repeat(1 << 20)
        );
        assert!(parse(&big).is_ok());
    }
}
