//! Lines to statements: syntax and values, no cross-references (names
//! are resolved in `lower`, so statements may come in any order).

use super::lex::{lex_line, Token, TokenKind};
use super::number::{parse_int, parse_raw, NumberError};
use crate::diag::{shown, Span};
use engine::config::MAX_COORDINATE;
use engine::format::{trigger, wall_action, WallSpecialRecord};
use engine::math::Fx;
use engine::render::Palette;

/// A value with the span it came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

/// The sector colours and light a statement may set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Looks {
    /// Light, 0..=255.
    pub light: u8,
    /// Floor colour.
    pub floor_color: u8,
    /// Ceiling colour.
    pub ceiling_color: u8,
    /// Wall colour.
    pub wall_color: u8,
}

/// Used where a sector does not say: a mid light and the greys and
/// browns of a plain room.
pub const DEFAULT_LOOKS: Looks = Looks {
    light: 160,
    // (175, 135, 95): a warm tan floor.
    floor_color: 137,
    // (188, 188, 188): a light grey ceiling.
    ceiling_color: 250,
    // (128, 128, 128): mid-grey walls.
    wall_color: 244,
};

/// The textures a sector statement names (`None` where not given).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SectorTextures<'a> {
    /// `floor_texture NAME`: a flat.
    pub floor: Option<Spanned<&'a str>>,
    /// `ceiling_texture NAME`: a flat.
    pub ceiling: Option<Spanned<&'a str>>,
    /// `wall_texture NAME`: a wall texture.
    pub wall: Option<Spanned<&'a str>>,
}

/// What a `side` statement sets on one side of a wall (`None` and 0
/// where not given).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SideLooks<'a> {
    /// `texture NAME`: every part the side shows (a one-sided wall's
    /// middle, a portal side's upper and lower), as a sector's
    /// `wall_texture` does.
    pub texture: Option<Spanned<&'a str>>,
    /// `upper NAME`: above a portal's opening.
    pub upper: Option<Spanned<&'a str>>,
    /// `middle NAME`: a one-sided wall, or a see-through texture in a
    /// portal.
    pub middle: Option<Spanned<&'a str>>,
    /// `lower NAME`: below a portal's opening.
    pub lower: Option<Spanned<&'a str>>,
    /// `offset X Y`: texture columns and rows to skip.
    pub x_offset: i16,
    /// See `x_offset`.
    pub y_offset: i16,
    /// `upper_unpegged`, `lower_unpegged`: [`engine::format::wall_flag`]
    /// bits, for the whole wall (as DOOM's linedef flags).
    pub flags: u16,
}

/// The options of `side V1 V2 ...`.
pub const SIDE_KEYS: [&str; 7] = [
    "texture",
    "upper",
    "middle",
    "lower",
    "offset",
    "upper_unpegged",
    "lower_unpegged",
];

/// Longest texture name (DOOM's lump names; the compiled map stores 8
/// bytes).
pub const MAX_TEXTURE_NAME: usize = 8;

/// One statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt<'a> {
    /// `title "..."`.
    Title {
        /// The text.
        text: String,
        /// The whole statement.
        span: Span,
    },
    /// `vertex NAME X Y`.
    Vertex {
        /// Its name.
        name: Spanned<&'a str>,
        /// X.
        x: Fx,
        /// Y.
        y: Fx,
        /// From the name to Y.
        span: Span,
    },
    /// `sector NAME floor F ceiling C ...`.
    Sector {
        /// Its name.
        name: Spanned<&'a str>,
        /// Floor height.
        floor: Spanned<Fx>,
        /// Ceiling height.
        ceiling: Spanned<Fx>,
        /// Light and colours (defaults where not given).
        looks: Looks,
        /// Texture names.
        textures: SectorTextures<'a>,
        /// The tag door specials name it by (0: none).
        tag: u16,
        /// What it does by itself (`effect KIND`: a
        /// [`engine::format::sector_special`]; 0: nothing).
        special: u16,
        /// The whole statement.
        span: Span,
    },
    /// `textures FILE.wad`.
    Textures {
        /// The path as written.
        file: Spanned<String>,
        /// The whole statement.
        span: Span,
    },
    /// `texture NAME FILE.png`.
    Texture {
        /// The texture's name.
        name: Spanned<&'a str>,
        /// The path as written.
        file: Spanned<String>,
        /// The whole statement.
        span: Span,
    },
    /// `loop SECTOR V1 ... V1`.
    Loop {
        /// The sector it bounds.
        sector: Spanned<&'a str>,
        /// Every vertex as written, the closing one included.
        vertices: Vec<Spanned<&'a str>>,
        /// From the sector name to the last vertex.
        span: Span,
    },
    /// `player X Y ANGLE`.
    Player {
        /// Position.
        x: Fx,
        /// Position.
        y: Fx,
        /// Facing in `[0, 360)`.
        angle: Fx,
        /// The whole statement.
        span: Span,
    },
    /// `destination X Y ANGLE`: where a teleporter to the sector's tag
    /// sends the player, facing `angle`.
    Destination {
        /// Position.
        x: Fx,
        /// Position.
        y: Fx,
        /// Facing in `[0, 360)`.
        angle: Fx,
        /// The whole statement.
        span: Span,
    },
    /// `scroll V1 V2 [left|right]`: the wall's side on the right of
    /// `v1 -> v2` moves one unit a tick (`flag` is the wall flag).
    Scroll {
        /// One end.
        v1: Spanned<&'a str>,
        /// The other end.
        v2: Spanned<&'a str>,
        /// [`engine::format::wall_flag::SCROLL_LEFT`] or `SCROLL_RIGHT`.
        flag: u16,
        /// The whole statement.
        span: Span,
    },
    /// `side V1 V2 [texture T] [upper T] [middle T] [lower T] [offset X Y]
    /// [upper_unpegged] [lower_unpegged]`: the textures of the wall's
    /// side on the right of `v1 -> v2` (either way round for a one-sided
    /// wall), in place of its sector's `wall_texture`.
    Side {
        /// One end.
        v1: Spanned<&'a str>,
        /// The other end.
        v2: Spanned<&'a str>,
        /// What it sets.
        looks: SideLooks<'a>,
        /// The whole statement.
        span: Span,
    },
    /// `key COLOUR X Y [skull]`: a keycard (or skull key) the player
    /// picks up by touching it; `lock` is its colour as a
    /// [`trigger::lock`] value.
    Key {
        /// 1 blue, 2 yellow, 3 red.
        lock: u8,
        /// A skull key rather than a card.
        skull: bool,
        /// Position.
        x: Fx,
        /// Position.
        y: Fx,
        /// The whole statement.
        span: Span,
    },
    /// `entity X Y RADIUS`.
    Entity {
        /// Position.
        x: Fx,
        /// Position.
        y: Fx,
        /// Radius.
        radius: Fx,
        /// The whole statement.
        span: Span,
    },
    /// `exit V1 V2 [secret] [walk]`.
    Exit {
        /// The wall's two vertices.
        v1: Spanned<&'a str>,
        /// The other.
        v2: Spanned<&'a str>,
        /// To the secret level.
        secret: bool,
        /// Set off by walking over it, not by use.
        walk: bool,
        /// The whole statement.
        span: Span,
    },
    /// `door V1 V2 [KIND] [fast] [tag N] [walk] [once]`: a special that
    /// moves a door, on the wall between the two vertices.
    Door {
        /// The wall's two vertices: the door, without a tag, lies to the
        /// left of `v1 -> v2`, and it is used from the right.
        v1: Spanned<&'a str>,
        /// The other.
        v2: Spanned<&'a str>,
        /// The special (its `wall` is set later).
        special: WallSpecialRecord,
        /// The whole statement.
        span: Span,
    },
    /// `obstacle X Y RADIUS`.
    Obstacle {
        /// Position.
        x: Fx,
        /// Position.
        y: Fx,
        /// Radius.
        radius: Fx,
        /// The whole statement.
        span: Span,
    },
}

/// A syntax or value error in one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where.
    pub span: Span,
    /// What.
    pub message: String,
    /// Optional `= help:` text.
    pub help: Option<String>,
}

fn error(span: Span, message: impl Into<String>) -> ParseError {
    ParseError {
        span,
        message: message.into(),
        help: None,
    }
}

impl ParseError {
    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// The statement keywords, for messages and suggestions.
pub const KEYWORDS: [&str; 21] = [
    "title",
    "vertex",
    "sector",
    "loop",
    "player",
    "entity",
    "obstacle",
    "exit",
    "door",
    "lift",
    "floor",
    "ceiling",
    "stairs",
    "lights",
    "teleport",
    "destination",
    "key",
    "scroll",
    "side",
    "textures",
    "texture",
];

/// The floor kinds of `floor V1 V2 KIND`, by DOOM's floor specials.
pub const FLOOR_KINDS: [(&str, u8); 15] = [
    ("lower", wall_action::FLOOR_LOWER),
    ("lower_to_lowest", wall_action::FLOOR_LOWER_TO_LOWEST),
    ("lower_fast", wall_action::FLOOR_LOWER_FAST),
    ("raise", wall_action::FLOOR_RAISE),
    ("raise_crush", wall_action::FLOOR_RAISE_CRUSH),
    ("raise_to_next", wall_action::FLOOR_RAISE_TO_NEXT),
    ("raise_to_next_fast", wall_action::FLOOR_RAISE_TO_NEXT_FAST),
    ("raise_24", wall_action::FLOOR_RAISE_24),
    ("raise_512", wall_action::FLOOR_RAISE_512),
    (
        "lower_to_lowest_change",
        wall_action::FLOOR_LOWER_TO_LOWEST_CHANGE,
    ),
    ("raise_24_change", wall_action::FLOOR_RAISE_24_CHANGE),
    (
        "plat_raise_to_next_change",
        wall_action::PLAT_RAISE_TO_NEXT_CHANGE,
    ),
    ("plat_raise_24_change", wall_action::PLAT_RAISE_24_CHANGE),
    ("plat_raise_32_change", wall_action::PLAT_RAISE_32_CHANGE),
    ("donut", wall_action::DONUT),
];

/// The ceiling kinds of `ceiling V1 V2 KIND`, by DOOM's ceiling specials.
pub const CEILING_KINDS: [(&str, u8); 6] = [
    ("lower_to_floor", wall_action::CEILING_LOWER_TO_FLOOR),
    ("raise_to_highest", wall_action::CEILING_RAISE_TO_HIGHEST),
    ("lower_and_crush", wall_action::CEILING_LOWER_AND_CRUSH),
    ("crusher", wall_action::CEILING_CRUSHER),
    ("crusher_fast", wall_action::CEILING_CRUSHER_FAST),
    ("stop", wall_action::CEILING_CRUSHER_STOP),
];

/// The kinds of `lights V1 V2 KIND`, by DOOM's light specials: the tagged
/// sectors' light goes to their brightest neighbour's, 255, 35, or their
/// darkest neighbour's, or starts strobing.
pub const LIGHT_KINDS: [(&str, u8); 5] = [
    ("brightest", wall_action::LIGHT_BRIGHTEST_AROUND),
    ("full", wall_action::LIGHT_FULL),
    ("dim", wall_action::LIGHT_DIM),
    ("darkest", wall_action::LIGHT_DARKEST_AROUND),
    ("strobe", wall_action::LIGHT_START_STROBE),
];

/// The kinds of `stairs V1 V2 [fast]`: 8-unit steps, slowly, or 16, fast.
pub const STAIRS_KINDS: [(&str, u8); 1] = [("fast", wall_action::STAIRS_16_FAST)];

/// The sector options.
pub const SECTOR_KEYS: [&str; 11] = [
    "tag",
    "effect",
    "floor",
    "ceiling",
    "light",
    "floor_color",
    "ceiling_color",
    "wall_color",
    "floor_texture",
    "ceiling_texture",
    "wall_texture",
];

/// Largest entity radius the engine accepts.
pub const MAX_RADIUS: i64 = 1024;

/// Parses one line (starting at byte `base` of the file): `Ok(None)` for a
/// blank or comment-only line.
pub fn parse_line<'a>(
    line: &'a str,
    base: usize,
    palette: &Palette,
) -> Result<Option<Stmt<'a>>, ParseError> {
    let tokens = lex_line(line, base).map_err(|(span, message)| error(span, message))?;
    let Some(first) = tokens.first() else {
        return Ok(None);
    };
    let mut p = Parser {
        tokens: &tokens,
        pos: 1,
        keyword: first.text,
        palette,
    };
    if first.kind != TokenKind::Word {
        return Err(error(first.span, "expected a statement keyword").help(keyword_help()));
    }
    let stmt_span = first.span.to(tokens[tokens.len() - 1].span);
    let stmt = match first.text {
        "title" => {
            let t = p.next("the title, in double quotes")?;
            let TokenKind::Str(text) = &t.kind else {
                return Err(error(t.span, "the title must be in double quotes")
                    .help(format!("write `title \"{}\"`", shown(t.text))));
            };
            let max = engine::format::size::MAX_TITLE;
            if text.len() > max {
                return Err(error(
                    t.span,
                    format!(
                        "the title is {} bytes long; at most {max} fit in a map",
                        text.len()
                    ),
                ));
            }
            Stmt::Title {
                text: text.clone(),
                span: stmt_span,
            }
        }
        "vertex" => {
            let name = p.name("vertex")?;
            let x = p.coordinate("X coordinate")?;
            let y = p.coordinate("Y coordinate")?;
            Stmt::Vertex {
                name,
                x: x.value,
                y: y.value,
                span: name.span.to(y.span),
            }
        }
        "sector" => p.sector(stmt_span)?,
        "loop" => {
            let sector = p.name("sector")?;
            let mut vertices = Vec::new();
            while p.pos < tokens.len() {
                vertices.push(p.name("vertex")?);
            }
            let Some(last) = vertices.last() else {
                return Err(error(
                    sector.span.after(),
                    "expected the loop's vertices after the sector name",
                )
                .help("write `loop SECTOR V1 V2 V3 V1`: the vertex names in order, ending on the first"));
            };
            let span = sector.span.to(last.span);
            Stmt::Loop {
                sector,
                vertices,
                span,
            }
        }
        "exit" => {
            let v1 = p.name("vertex")?;
            let v2 = p.name("vertex")?;
            let (mut secret, mut walk) = (false, false);
            while p.pos < tokens.len() {
                let t = p.next("`secret` or `walk`")?;
                match t.text {
                    "secret" if !secret => secret = true,
                    "walk" if !walk => walk = true,
                    _ => {
                        let found =
                            format!("expected `secret` or `walk`, found `{}`", shown(t.text));
                        return Err(error(t.span, found).help(
                            "write `exit V1 V2`, then `secret` for the secret exit and `walk` \
                             to set it off by walking over the wall (else by use)",
                        ));
                    }
                }
            }
            Stmt::Exit {
                v1,
                v2,
                secret,
                walk,
                span: stmt_span,
            }
        }
        "door" | "lift" => p.door(stmt_span)?,
        "teleport" => p.teleport(stmt_span)?,
        "floor" | "ceiling" | "stairs" | "lights" => p.tagged_mover(stmt_span)?,
        "textures" => {
            let file = p.file("WAD file")?;
            Stmt::Textures {
                file,
                span: stmt_span,
            }
        }
        "texture" => {
            let name = p.texture_name()?;
            let file = p.file("PNG file")?;
            Stmt::Texture {
                name,
                file,
                span: stmt_span,
            }
        }
        "player" | "destination" => {
            let x = p.coordinate("X coordinate")?;
            let y = p.coordinate("Y coordinate")?;
            let angle = p.number("angle in degrees")?;
            let angle = engine::math::Angle::from_degrees(angle.value).degrees();
            let (x, y, span) = (x.value, y.value, stmt_span);
            if first.text == "player" {
                Stmt::Player { x, y, angle, span }
            } else {
                Stmt::Destination { x, y, angle, span }
            }
        }
        "scroll" => {
            let v1 = p.name("vertex")?;
            let v2 = p.name("vertex")?;
            use engine::format::wall_flag::{SCROLL_LEFT, SCROLL_RIGHT};
            let flag = match p.tokens.get(p.pos).map(|t| t.text) {
                Some("left") => SCROLL_LEFT,
                Some("right") => SCROLL_RIGHT,
                _ => 0,
            };
            p.pos += usize::from(flag != 0);
            Stmt::Scroll {
                v1,
                v2,
                flag: if flag == 0 { SCROLL_LEFT } else { flag },
                span: stmt_span,
            }
        }
        "side" => {
            let v1 = p.name("vertex")?;
            let v2 = p.name("vertex")?;
            let looks = p.side_looks(v2.span)?;
            Stmt::Side {
                v1,
                v2,
                looks,
                span: stmt_span,
            }
        }
        "key" => {
            let lock = p.key_colour()?;
            let x = p.coordinate("X coordinate")?;
            let y = p.coordinate("Y coordinate")?;
            let skull = p.tokens.get(p.pos).is_some_and(|t| t.text == "skull");
            p.pos += usize::from(skull);
            Stmt::Key {
                lock,
                skull,
                x: x.value,
                y: y.value,
                span: stmt_span,
            }
        }
        "entity" | "obstacle" => {
            let x = p.coordinate("X coordinate")?;
            let y = p.coordinate("Y coordinate")?;
            let r = p.number("radius")?;
            if r.value <= Fx::ZERO || r.value > Fx::from_num(MAX_RADIUS) {
                let what = if first.text == "entity" {
                    "an entity"
                } else {
                    "an obstacle"
                };
                return Err(error(
                    r.span,
                    format!("{what}'s radius must be above 0 and at most {MAX_RADIUS}"),
                ));
            }
            let (x, y, radius, span) = (x.value, y.value, r.value, stmt_span);
            if first.text == "entity" {
                Stmt::Entity { x, y, radius, span }
            } else {
                Stmt::Obstacle { x, y, radius, span }
            }
        }
        other => {
            let mut e = error(first.span, format!("unknown statement `{}`", shown(other)));
            e.help = Some(match super::suggest(other, KEYWORDS.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => keyword_help(),
            });
            return Err(e);
        }
    };
    p.end()?;
    Ok(Some(stmt))
}

fn keyword_help() -> String {
    format!("a line starts with one of: {}", KEYWORDS.join(", "))
}

struct Parser<'t, 'a> {
    tokens: &'t [Token<'a>],
    pos: usize,
    keyword: &'a str,
    palette: &'t Palette,
}

impl<'a> Parser<'_, 'a> {
    /// The next token, or an error naming `what` was expected.
    fn next(&mut self, what: &str) -> Result<&Token<'a>, ParseError> {
        let Some(t) = self.tokens.get(self.pos) else {
            let after = self
                .tokens
                .get(self.pos.wrapping_sub(1))
                .map_or(Span::default(), |t| t.span.after());
            return Err(error(after, format!("expected {what} here")).help(self.usage()));
        };
        self.pos += 1;
        Ok(t)
    }

    fn usage(&self) -> String {
        let form = match self.keyword {
            "title" => "title \"TEXT\"",
            "vertex" => "vertex NAME X Y",
            "sector" => {
                "sector NAME floor F ceiling C [light L] [floor_color COL] [ceiling_color COL] \
                 [wall_color COL] [floor_texture T] [ceiling_texture T] [wall_texture T] [tag N] \
                 [effect E]"
            }
            "textures" => "textures FILE.wad",
            "texture" => "texture NAME FILE.png",
            "loop" => "loop SECTOR V1 V2 ... Vn V1",
            "player" => "player X Y ANGLE",
            "obstacle" => "obstacle X Y RADIUS",
            "exit" => "exit V1 V2 [secret] [walk]",
            "door" => {
                "door V1 V2 [raise|open|close|close_wait_open] [fast|speed S] [wait T] [tag N] \
                 [walk] [once] [key COLOUR]"
            }
            "lift" => {
                "lift V1 V2 [fast|perpetual|stop|speed S] [wait T] [tag N] [walk] [once] \
                 [key COLOUR]"
            }
            "floor" => "floor V1 V2 KIND tag N [walk] [once] [key COLOUR]",
            "ceiling" => "ceiling V1 V2 KIND tag N [walk] [once] [key COLOUR]",
            "stairs" => "stairs V1 V2 [fast] tag N [walk] [once] [key COLOUR]",
            "lights" => "lights V1 V2 KIND tag N [walk] [once] [key COLOUR]",
            "key" => "key blue|yellow|red X Y [skull]",
            "scroll" => "scroll V1 V2 [left|right]",
            "side" => {
                "side V1 V2 [texture T] [upper T] [middle T] [lower T] [offset X Y] \
                 [upper_unpegged] [lower_unpegged]"
            }
            "teleport" => "teleport V1 V2 tag N [once]",
            "destination" => "destination X Y ANGLE",
            _ => "entity X Y RADIUS",
        };
        format!("the form is `{form}`")
    }

    fn end(&self) -> Result<(), ParseError> {
        let rest = self.tokens.get(self.pos..).unwrap_or(&[]);
        match (rest.first(), rest.last()) {
            (Some(first), Some(last)) => Err(error(
                first.span.to(last.span),
                format!(
                    "unexpected `{}` after the end of the statement",
                    shown(first.text)
                ),
            )
            .help(self.usage())),
            _ => Ok(()),
        }
    }

    fn name(&mut self, what: &str) -> Result<Spanned<&'a str>, ParseError> {
        let t = self.next(&format!("a {what} name"))?;
        let valid = t.kind == TokenKind::Word && is_name(t.text);
        if !valid {
            let e = error(
                t.span,
                format!("expected a {what} name, found `{}`", shown(t.text)),
            );
            return Err(e.help(
                "names are letters, digits and `_`, not starting with a digit (like `hall_2`)",
            ));
        }
        Ok(Spanned {
            value: t.text,
            span: t.span,
        })
    }

    /// Any number in ±32767 (the map range).
    fn number(&mut self, what: &str) -> Result<Spanned<Fx>, ParseError> {
        let t = self.next(&format!("the {what}"))?;
        let bad =
            |e: NumberError| error(t.span, format!("invalid {what} `{}`: {e}", shown(t.text)));
        if t.kind != TokenKind::Word {
            return Err(bad(NumberError::Invalid));
        }
        let raw = parse_raw(t.text).map_err(bad)?;
        let limit = (MAX_COORDINATE as i64) << 16;
        if raw.abs() > limit {
            return Err(error(
                t.span,
                format!(
                    "the {what} {} is out of range: it must lie within ±{MAX_COORDINATE}",
                    shown(t.text)
                ),
            ));
        }
        Ok(Spanned {
            value: Fx::from_bits(raw as i32),
            span: t.span,
        })
    }

    /// A file path: a word, or a quoted string for paths with spaces.
    fn file(&mut self, what: &str) -> Result<Spanned<String>, ParseError> {
        let t = self.next(&format!("the {what}"))?;
        let value = match &t.kind {
            TokenKind::Str(s) => s.clone(),
            _ => t.text.to_string(),
        };
        if value.is_empty() {
            return Err(error(t.span, format!("the {what} is empty")));
        }
        Ok(Spanned {
            value,
            span: t.span,
        })
    }

    /// A texture name: 1 to 8 printable ASCII characters (DOOM's lump
    /// names, like `STARTAN3`, `F_SKY1` or `SW1BRN1`), any case.
    fn texture_name(&mut self) -> Result<Spanned<&'a str>, ParseError> {
        let t = self.next("a texture name")?;
        let ok = t.kind == TokenKind::Word
            && t.text.len() <= MAX_TEXTURE_NAME
            && t.text.bytes().all(|b| b.is_ascii_graphic());
        if !ok {
            return Err(error(
                t.span,
                format!("expected a texture name, found `{}`", shown(t.text)),
            )
            .help(format!(
                "a texture name is 1 to {MAX_TEXTURE_NAME} letters, digits or symbols, \
                 like `STARTAN3`"
            )));
        }
        Ok(Spanned {
            value: t.text,
            span: t.span,
        })
    }

    fn coordinate(&mut self, what: &str) -> Result<Spanned<Fx>, ParseError> {
        self.number(what)
    }

    /// A whole number in `0..=255`.
    fn byte(&mut self, what: &str) -> Result<u8, ParseError> {
        let t = self.next(&format!("the {what} (0 to 255)"))?;
        let v = parse_int(t.text).ok().filter(|v| (0..=255).contains(v));
        match v {
            Some(v) if t.kind == TokenKind::Word => Ok(v as u8),
            _ => Err(error(
                t.span,
                format!(
                    "invalid {what} `{}`: expected a whole number from 0 to 255",
                    shown(t.text)
                ),
            )),
        }
    }

    /// A palette index or `#RRGGBB`.
    fn color(&mut self, what: &str) -> Result<u8, ParseError> {
        let t = self.next(&format!("the {what} (a palette index or #RRGGBB)"))?;
        if t.kind == TokenKind::Color {
            let hex = &t.text[1..];
            let channel = |i: usize| {
                hex.get(i..i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            };
            let rgb = (hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| Some([channel(0)?, channel(2)?, channel(4)?]))
                .flatten();
            return match rgb {
                Some(rgb) => Ok(self.palette.nearest(rgb)),
                None => Err(error(
                    t.span,
                    format!(
                        "invalid {what} `{}`: expected `#` and six hex digits, like `#80a0ff`",
                        shown(t.text)
                    ),
                )
                .help(
                    "after a colour keyword `#` starts a colour, not a comment; \
                     give the colour first",
                )),
            };
        }
        let v = parse_int(t.text).ok().filter(|v| (0..=255).contains(v));
        match v {
            Some(v) if t.kind == TokenKind::Word => Ok(v as u8),
            _ => Err(error(
                t.span,
                format!(
                    "invalid {what} `{}`: expected a palette index from 0 to 255 or #RRGGBB",
                    shown(t.text)
                ),
            )),
        }
    }

    fn sector(&mut self, span: Span) -> Result<Stmt<'a>, ParseError> {
        let name = self.name("sector")?;
        let mut floor: Option<Spanned<Fx>> = None;
        let mut ceiling: Option<Spanned<Fx>> = None;
        let mut looks = default_looks(self.palette);
        let mut textures = SectorTextures::default();
        let mut tag = 0;
        let mut special = 0;
        let mut seen: Vec<&str> = Vec::new();
        while self.pos < self.tokens.len() {
            match self.option("sector", &SECTOR_KEYS, &mut seen)? {
                "tag" => tag = self.tag()?,
                "effect" => special = self.effect()?,
                "floor" => floor = Some(self.number("floor height")?),
                "ceiling" => ceiling = Some(self.number("ceiling height")?),
                "light" => looks.light = self.byte("light level")?,
                "floor_color" => looks.floor_color = self.color("floor colour")?,
                "ceiling_color" => looks.ceiling_color = self.color("ceiling colour")?,
                "wall_color" => looks.wall_color = self.color("wall colour")?,
                "floor_texture" => textures.floor = Some(self.texture_name()?),
                "ceiling_texture" => textures.ceiling = Some(self.texture_name()?),
                // The last of SECTOR_KEYS: "wall_texture".
                _ => textures.wall = Some(self.texture_name()?),
            }
        }
        let missing = |what: &str| {
            error(
                name.span,
                format!("sector `{}` has no {what} height", shown(name.value)),
            )
            .help(format!("add `{what} HEIGHT` to the line"))
        };
        let floor = floor.ok_or_else(|| missing("floor"))?;
        let ceiling = ceiling.ok_or_else(|| missing("ceiling"))?;
        Ok(Stmt::Sector {
            name,
            floor,
            ceiling,
            looks,
            textures,
            tag,
            special,
            span,
        })
    }

    /// The next token as one of a statement's options `keys`: an error
    /// for any other word (with the nearest option as a hint) and for one
    /// already in `seen`, where it is then added.
    fn option(
        &mut self,
        statement: &str,
        keys: &[&'static str],
        seen: &mut Vec<&'a str>,
    ) -> Result<&'a str, ParseError> {
        let key = &self.tokens[self.pos];
        self.pos += 1;
        let k = key.text;
        if key.kind != TokenKind::Word || !keys.contains(&k) {
            let help = match super::suggest(k, keys.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the options are: {}", keys.join(", ")),
            };
            let message = format!("unknown {statement} option `{}`", shown(k));
            return Err(error(key.span, message).help(help));
        }
        if seen.contains(&k) {
            return Err(error(key.span, format!("`{}` is given twice", shown(k))));
        }
        seen.push(k);
        Ok(k)
    }

    /// The options of a `side` statement: at least one, none twice.
    fn side_looks(&mut self, after: Span) -> Result<SideLooks<'a>, ParseError> {
        let mut looks = SideLooks::default();
        let mut seen: Vec<&str> = Vec::new();
        while self.pos < self.tokens.len() {
            use engine::format::wall_flag::{LOWER_UNPEGGED, UPPER_UNPEGGED};
            match self.option("side", &SIDE_KEYS, &mut seen)? {
                "texture" => looks.texture = Some(self.texture_name()?),
                "upper" => looks.upper = Some(self.texture_name()?),
                "middle" => looks.middle = Some(self.texture_name()?),
                "lower" => looks.lower = Some(self.texture_name()?),
                "offset" => {
                    looks.x_offset = self.offset("X offset")?;
                    looks.y_offset = self.offset("Y offset")?;
                }
                "upper_unpegged" => looks.flags |= UPPER_UNPEGGED,
                // The last of SIDE_KEYS: "lower_unpegged".
                _ => looks.flags |= LOWER_UNPEGGED,
            }
        }
        if seen.is_empty() {
            return Err(error(
                after.after(),
                "expected what the side shows after its vertices",
            )
            .help(self.usage()));
        }
        Ok(looks)
    }

    /// A whole number of texels within ±32767 (a side's offset).
    fn offset(&mut self, what: &str) -> Result<i16, ParseError> {
        let t = self.next(&format!("the {what}"))?;
        let v = parse_int(t.text)
            .ok()
            .filter(|v| (-32767..=32767).contains(v));
        match v {
            Some(v) if t.kind == TokenKind::Word => Ok(v as i16),
            _ => Err(error(
                t.span,
                format!(
                    "invalid {what} `{}`: expected a whole number from -32767 to 32767",
                    shown(t.text)
                ),
            )),
        }
    }

    /// A sector's `effect`: what its light does by itself, by the names
    /// of DOOM's sector types.
    fn effect(&mut self) -> Result<u16, ParseError> {
        use engine::format::sector_special::*;
        const EFFECTS: [(&str, u16); 8] = [
            ("flicker", FLICKER),
            ("strobe", STROBE_FAST),
            ("strobe_slow", STROBE_SLOW),
            ("strobe_sync", STROBE_FAST_SYNC),
            ("strobe_slow_sync", STROBE_SLOW_SYNC),
            ("glow", GLOW),
            ("fire", FIRE_FLICKER),
            ("secret", SECRET),
        ];
        let names = || EFFECTS.map(|e| format!("`{}`", e.0)).join(", ");
        let t = self.next("an effect")?;
        match EFFECTS.iter().find(|e| e.0 == t.text) {
            Some(&(_, special)) => Ok(special),
            None => Err(
                error(t.span, format!("unknown sector effect `{}`", shown(t.text)))
                    .help(format!("the effects are: {}", names())),
            ),
        }
    }

    /// A tag: 1 to 65535.
    fn tag(&mut self) -> Result<u16, ParseError> {
        let t = self.next("a tag, 1 to 65535")?;
        match parse_int(t.text).ok().filter(|v| (1..=65535).contains(v)) {
            Some(v) if t.kind == TokenKind::Word => Ok(v as u16),
            _ => Err(error(
                t.span,
                format!("invalid tag `{}`: expected 1 to 65535", shown(t.text)),
            )),
        }
    }

    /// `teleport V1 V2 tag N [once]`: walking over the wall from the
    /// right of `v1 -> v2` sends the player to the `destination` in the
    /// sector with tag `N`; again and again unless `once`.
    fn teleport(&mut self, span: Span) -> Result<Stmt<'a>, ParseError> {
        let v1 = self.name("vertex")?;
        let v2 = self.name("vertex")?;
        let (mut tag, mut once) = (0, false);
        const WORDS: &str = "`tag` or `once`";
        while self.pos < self.tokens.len() {
            let t = self.next(WORDS)?;
            match t.text {
                "tag" if tag == 0 => tag = self.tag()?,
                "once" if !once => once = true,
                _ => {
                    return Err(error(
                        t.span,
                        format!("expected {WORDS}, found `{}`", shown(t.text)),
                    )
                    .help(self.usage()))
                }
            }
        }
        if tag == 0 {
            return Err(error(span, "a teleporter needs `tag N`")
                .help("give the destination's sector `tag N` and the teleporter the same tag"));
        }
        Ok(wall_special(
            v1,
            v2,
            wall_action::TELEPORT,
            true,
            once,
            tag,
            span,
        ))
    }

    /// `floor V1 V2 KIND tag N [walk] [once]`, `ceiling V1 V2 KIND tag N
    /// [walk] [once]`, `stairs V1 V2 [fast] tag N [walk] [once]` or
    /// `lights V1 V2 KIND tag N [walk] [once]`: the wall moves (or
    /// lights) the tagged sectors as DOOM's floor, ceiling, stair and
    /// light specials do ([`FLOOR_KINDS`], [`CEILING_KINDS`],
    /// [`STAIRS_KINDS`], [`LIGHT_KINDS`]); used unless `walk`, again and
    /// again unless `once`.
    fn tagged_mover(&mut self, span: Span) -> Result<Stmt<'a>, ParseError> {
        let (kinds, default): (&[(&str, u8)], Option<u8>) = match self.keyword {
            "ceiling" => (&CEILING_KINDS, None),
            "lights" => (&LIGHT_KINDS, None),
            "stairs" => (&STAIRS_KINDS, Some(wall_action::STAIRS_8)),
            _ => (&FLOOR_KINDS, None),
        };
        let what = self.keyword;
        let v1 = self.name("vertex")?;
        let v2 = self.name("vertex")?;
        let (mut kind, mut tag, mut walk, mut once, mut lock) = (None, 0, false, false, 0);
        let words = format!("a {what} kind, `tag`, `walk`, `once` or `key`");
        while self.pos < self.tokens.len() {
            let t = self.next(&words)?;
            match t.text {
                "tag" if tag == 0 => tag = self.tag()?,
                "key" if lock == 0 => lock = self.key_colour()?,
                "walk" if !walk => walk = true,
                "once" if !once => once = true,
                k if kind.is_none() => match kinds.iter().find(|f| f.0 == k) {
                    Some(&(_, action)) => kind = Some(action),
                    None => {
                        let names: Vec<String> =
                            kinds.iter().map(|f| format!("`{}`", f.0)).collect();
                        return Err(error(t.span, format!("unknown {what} kind `{}`", shown(k)))
                            .help(format!("the kinds are: {}", names.join(", "))));
                    }
                },
                _ => {
                    return Err(error(
                        t.span,
                        format!("expected {words}, found `{}`", shown(t.text)),
                    )
                    .help(self.usage()))
                }
            }
        }
        let Some(action) = kind.or(default) else {
            return Err(error(span, format!("a {what} needs its kind")).help(self.usage()));
        };
        if tag == 0 {
            return Err(error(span, format!("a {what} needs `tag N`"))
                .help("give the sectors it moves `tag N` and the wall the same tag"));
        }
        Ok(locked(
            wall_special(v1, v2, action, walk, once, tag, span),
            lock,
        ))
    }

    /// `door V1 V2 [KIND] [fast] [tag N] [walk] [once]`, or `lift V1 V2
    /// [fast] [tag N] [walk] [once]`. Without a tag the door or lift is
    /// the sector behind the wall (DOOM's manual doors); with one, every
    /// sector with that tag. Used unless `walk`, and again and again
    /// unless `once`.
    fn door(&mut self, span: Span) -> Result<Stmt<'a>, ParseError> {
        let lift = self.keyword == "lift";
        let v1 = self.name("vertex")?;
        let v2 = self.name("vertex")?;
        let (mut kind, mut fast, mut tag, mut walk, mut once) = (None, false, 0, false, false);
        let (mut lock, mut speed, mut wait) = (0, None, None);
        const WORDS: &str = "`raise`, `open`, `close`, `close_wait_open` (doors), `perpetual`, \
             `stop` (lifts), `fast`, `speed`, `wait`, `tag`, `walk`, `once` or `key`";
        // Boom's generalised doors and lifts: a speed and a wait of their
        // own, from these.
        const SPEEDS: [u16; 4] = [2, 4, 8, 16];
        let waits: [u16; 4] = if lift {
            engine::specials::lift::BOOM_WAITS
        } else {
            engine::specials::door::BOOM_WAITS
        };
        while self.pos < self.tokens.len() {
            let t = self.next(WORDS)?;
            match t.text {
                "raise" | "open" | "close" | "close_wait_open" if kind.is_none() && !lift => {
                    kind = Some(t.text)
                }
                "perpetual" | "stop" if kind.is_none() && lift => kind = Some(t.text),
                "fast" if !fast => fast = true,
                "speed" if speed.is_none() => speed = Some(self.one_of("speed", &SPEEDS)?),
                "wait" if wait.is_none() => wait = Some(self.one_of("wait", &waits)?),
                "key" if lock == 0 => lock = self.key_colour()?,
                "tag" if tag == 0 => tag = self.tag()?,
                "walk" if !walk => walk = true,
                "once" if !once => once = true,
                _ => {
                    return Err(error(
                        t.span,
                        format!("expected {WORDS}, found `{}`", shown(t.text)),
                    )
                    .help(self.usage()))
                }
            }
        }
        let kind = kind.unwrap_or(if lift { "lift" } else { "raise" });
        let boom = if speed.is_some() || wait.is_some() {
            let field = match kind {
                "raise" => 0,
                "open" => 1,
                "close_wait_open" => 2,
                "close" => 3,
                "lift" => 0,
                _ => {
                    return Err(error(
                        span,
                        "a perpetual or stopping lift has no `speed` or `wait`",
                    )
                    .help("leave them out"))
                }
            };
            if fast {
                return Err(error(span, "`fast` and `speed` together").help("give one of them"));
            }
            // Left out, the speed is Boom's slow one and the wait DOOM's.
            let (speed, wait) = (speed.unwrap_or(0), wait.unwrap_or(1));
            Some(if lift {
                wall_action::boom_lift(speed, wait)
            } else {
                wall_action::boom_door(field, speed, wait)
            })
        } else {
            None
        };
        let action = if let Some(a) = boom {
            a
        } else {
            match (kind, fast) {
                ("lift", false) => wall_action::LIFT,
                ("lift", true) => wall_action::LIFT_FAST,
                ("perpetual" | "stop", _) if tag == 0 => {
                    return Err(error(span, "a perpetual or stopping lift needs `tag N`")
                        .help("give the platforms `tag N` and the wall the same tag"))
                }
                ("perpetual", false) => wall_action::LIFT_PERPETUAL,
                ("stop", false) => wall_action::LIFT_STOP,
                ("perpetual" | "stop", true) => {
                    return Err(
                        error(span, "a perpetual lift has one speed").help("leave out `fast`")
                    )
                }
                ("raise", false) => wall_action::DOOR_RAISE,
                ("raise", true) => wall_action::DOOR_FAST_RAISE,
                ("open", false) => wall_action::DOOR_OPEN,
                ("open", true) => wall_action::DOOR_FAST_OPEN,
                ("close", false) => wall_action::DOOR_CLOSE,
                ("close", true) => wall_action::DOOR_FAST_CLOSE,
                ("close_wait_open", false) => wall_action::DOOR_CLOSE_WAIT_OPEN,
                _ => {
                    return Err(error(span, "there is no fast `close_wait_open` door")
                        .help("leave out `fast`"))
                }
            }
        };
        let action = if tag == 0 {
            action | wall_action::BACK_SECTOR
        } else {
            action
        };
        Ok(locked(
            wall_special(v1, v2, action, walk, once, tag, span),
            lock,
        ))
    }

    /// A number that must be one of `values`: its index.
    fn one_of(&mut self, what: &str, values: &[u16]) -> Result<u8, ParseError> {
        let list: Vec<String> = values.iter().map(u16::to_string).collect();
        let t = self.next(&format!("a {what}: {}", list.join(", ")))?;
        let at = parse_int(t.text)
            .ok()
            .filter(|_| t.kind == TokenKind::Word)
            .and_then(|v| values.iter().position(|&x| i64::from(x) == v));
        match at {
            Some(i) => Ok(i as u8),
            None => Err(error(
                t.span,
                format!(
                    "invalid {what} `{}`: expected {}",
                    shown(t.text),
                    list.join(", ")
                ),
            )),
        }
    }

    /// A key's colour, `blue`, `yellow` or `red`, as a [`trigger::lock`]
    /// value.
    fn key_colour(&mut self) -> Result<u8, ParseError> {
        let t = self.next("a key colour (`blue`, `yellow` or `red`)")?;
        match t.text {
            "blue" => Ok(1),
            "yellow" => Ok(2),
            "red" => Ok(3),
            other => Err(
                error(t.span, format!("unknown key colour `{}`", shown(other)))
                    .help("the colours are `blue`, `yellow` and `red`"),
            ),
        }
    }
}

/// `stmt`, a wall special, locked with `lock` (0: not locked).
fn locked(stmt: Stmt<'_>, lock: u8) -> Stmt<'_> {
    match stmt {
        Stmt::Door {
            v1,
            v2,
            mut special,
            span,
        } => {
            special.trigger |= (lock << trigger::LOCK_SHIFT) & trigger::LOCK_MASK;
            Stmt::Door {
                v1,
                v2,
                special,
                span,
            }
        }
        other => other,
    }
}

/// The statement for a special on the wall `v1`-`v2`: walked over if
/// `walk`, else used; again and again unless `once`.
fn wall_special<'a>(
    v1: Spanned<&'a str>,
    v2: Spanned<&'a str>,
    action: u8,
    walk: bool,
    once: bool,
    tag: u16,
    span: Span,
) -> Stmt<'a> {
    let trigger =
        if walk { trigger::WALK } else { trigger::USE } | if once { 0 } else { trigger::REPEAT };
    Stmt::Door {
        v1,
        v2,
        special: WallSpecialRecord {
            wall: 0,
            action,
            trigger,
            tag,
        },
        span,
    }
}

/// [`DEFAULT_LOOKS`] in `palette`: the same colours, as near as that
/// palette has them (a map textured from a WAD uses the WAD's palette).
pub fn default_looks(palette: &Palette) -> Looks {
    let builtin = Palette::builtin();
    if *palette == builtin {
        return DEFAULT_LOOKS;
    }
    let map = |i: u8| palette.nearest(builtin.0[i as usize]);
    Looks {
        floor_color: map(DEFAULT_LOOKS.floor_color),
        ceiling_color: map(DEFAULT_LOOKS.ceiling_color),
        wall_color: map(DEFAULT_LOOKS.wall_color),
        ..DEFAULT_LOOKS
    }
}

/// `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_name(s: &str) -> bool {
    let mut b = s.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Option<Stmt<'_>>, ParseError> {
        parse_line(line, 0, &Palette::builtin())
    }

    #[test]
    fn statements() {
        assert_eq!(parse("  # nothing").unwrap(), None);
        let Some(Stmt::Vertex { name, x, y, .. }) = parse("vertex a1 -12.5 64").unwrap() else {
            panic!()
        };
        assert_eq!(
            (name.value, x, y),
            ("a1", Fx::from_num(-12.5), Fx::from_num(64))
        );
        let Some(Stmt::Sector {
            floor,
            ceiling,
            looks,
            ..
        }) = parse("sector s ceiling 128 floor -8 wall_color #ff0000 light 200").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (floor.value, ceiling.value),
            (Fx::from_num(-8), Fx::from_num(128))
        );
        assert_eq!(looks.light, 200);
        assert_eq!(looks.wall_color, 9);
        assert_eq!(looks.floor_color, DEFAULT_LOOKS.floor_color);
        let Some(Stmt::Player { angle, .. }) = parse("player 0 0 -90").unwrap() else {
            panic!()
        };
        assert_eq!(angle, Fx::from_num(270));
        let Some(Stmt::Loop { vertices, .. }) = parse("loop s a b c a").unwrap() else {
            panic!()
        };
        assert_eq!(vertices.len(), 4);
    }

    #[test]
    fn errors_point_at_the_token() {
        let cases = [
            ("vertex 1a 0 0", "vertex name", "1a"),
            ("vertex a 0", "expected the Y", ""),
            ("vertex a 0 1e3", "exponents", "1e3"),
            ("vertex a 0 nan", "finite", "nan"),
            ("vertex a 40000 0", "out of range", "40000"),
            ("vertex a 0 0 0", "unexpected `0`", "0"),
            ("sector s floor 0", "no ceiling", "s"),
            ("sector s floor 0 ceiling 8 light 256", "0 to 255", "256"),
            (
                "sector s floor 0 ceiling 8 lite 2",
                "unknown sector option",
                "lite",
            ),
            ("sector s floor 0 floor 1 ceiling 8", "twice", "floor"),
            (
                "sector s floor 0 ceiling 8 floor_color #12345",
                "six hex",
                "#12345",
            ),
            ("sector s floor 0 ceiling 8 floor_color # c", "six hex", "#"),
            ("vertx a 0 0", "unknown statement", "vertx"),
            ("title untitled", "double quotes", "untitled"),
            ("\"x\"", "keyword", "\"x\""),
            ("loop s", "vertices", ""),
            ("entity 0 0 0", "radius", "0"),
            ("entity 0 0 2000", "radius", "2000"),
        ];
        for (line, msg, at) in cases {
            let e = parse(line).unwrap_err();
            assert!(e.message.contains(msg), "{line}: {e:?}");
            assert_eq!(&line[e.span.start..e.span.end], at, "{line}: {e:?}");
        }
        let e = parse("vertx a 0 0").unwrap_err();
        assert_eq!(e.help.as_deref(), Some("did you mean `vertex`?"));
    }
}
