//! Statements to a [`SourceMap`]: names resolved, loops checked, then the
//! builder, whose errors are mapped back to the statements that caused
//! them; then the warnings, checked on the compiled level.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::parse::{parse_line, Looks, SectorTextures, SideLooks, Spanned, Stmt};
use super::suggest;
use crate::build::{
    self, BuildOptions, Site, SourceMap, SourceScroll, SourceSector, SourceSide, SourceSpecial,
};
use crate::diag::{shown, Diagnostic, Diagnostics, Location, Severity, SourceFile, Span};
use crate::texture::TextureLibrary;
use crate::wad::Wad;
use crate::Output;
use engine::config;
use engine::format::{kind, trigger, wall_action, ThingRecord, WallSpecialRecord};
use engine::math::{Fx, Vec2, WVec, Wide};
use engine::render::Palette;
use engine::world::{Level, SectorId};

/// Errors collected before giving up: enough to fix a batch, few enough
/// that a file of garbage does not print a million lines.
const MAX_ERRORS: usize = 50;
/// Warnings shown; the rest are counted in one last line.
const MAX_WARNINGS: usize = 100;

struct VertexDef<'a> {
    name: &'a str,
    name_span: Span,
    pos: Vec2,
    span: Span,
    used: bool,
}

struct SectorDef<'a> {
    name: &'a str,
    name_span: Span,
    floor: Spanned<Fx>,
    ceiling: Spanned<Fx>,
    looks: Looks,
    textures: SectorTextures<'a>,
    tag: u16,
    special: u16,
    loops: Vec<LoopDef>,
    /// Some loop statement names this sector (even one with errors), so
    /// a missing loop is already reported.
    named_by_loop: bool,
}

struct LoopDef {
    /// Vertex indices, without the closing repeat of the first.
    vertices: Vec<usize>,
    /// The span of every vertex token, the closing one included, so edge
    /// `k` runs from token `k` to token `k + 1`.
    spans: Vec<Span>,
}

struct ThingDef {
    record: ThingRecord,
    span: Span,
}

struct PendingLoop<'a> {
    sector: Spanned<&'a str>,
    vertices: Vec<Spanned<&'a str>>,
    span: Span,
}

struct PendingExit<'a> {
    v1: Spanned<&'a str>,
    v2: Spanned<&'a str>,
    special: WallSpecialRecord,
    span: Span,
}

struct Compiler<'a> {
    src: SourceFile<'a>,
    errors: Vec<Diagnostic>,
    truncated: bool,
    title: Option<(String, Span)>,
    vertices: Vec<VertexDef<'a>>,
    vertex_names: HashMap<&'a str, usize>,
    sectors: Vec<SectorDef<'a>>,
    sector_names: HashMap<&'a str, usize>,
    loops: Vec<PendingLoop<'a>>,
    things: Vec<ThingDef>,
    /// `exit` statements, resolved after the loops.
    exits: Vec<PendingExit<'a>>,
    /// The specials they became, and where each was written.
    specials: Vec<(SourceSpecial, Span)>,
    /// `scroll` statements, resolved with the exits: the walls and where
    /// each was written.
    scrolls: Vec<(Spanned<&'a str>, Spanned<&'a str>, u16, Span)>,
    resolved_scrolls: Vec<(SourceScroll, Span)>,
    /// `side` statements, resolved with the exits.
    sides: Vec<(Spanned<&'a str>, Spanned<&'a str>, SideLooks<'a>, Span)>,
    resolved_sides: Vec<(SourceSide, Span)>,
    player: Option<Span>,
    /// Where `textures` and `texture` files are looked for: the map
    /// file's directory.
    base_dir: PathBuf,
    /// Files given with the source, looked up by the path as written
    /// before the disk is searched ([`super::EmbeddedFiles`]).
    files: super::EmbeddedFiles<'a>,
    /// The WADs' textures and the PNG images.
    library: TextureLibrary,
    /// A `textures` file could not be read: texture names are not checked.
    library_failed: bool,
    /// `texture` names (upper-cased), where each was defined.
    images: HashMap<String, Span>,
    /// Warnings from reading the texture files.
    texture_warnings: Vec<Diagnostic>,
}

/// Directories searched for a WAD named without a directory (after the
/// map's own directory and `$DOOMWADDIR`): where Debian and others install
/// the Freedoom and DOOM IWADs.
pub const WAD_DIRS: [&str; 3] = [
    "/usr/share/games/doom",
    "/usr/local/share/games/doom",
    "/usr/share/doom",
];

/// Compiles a text map; see [`super`] for the format.
pub fn compile<'a>(
    text: &'a str,
    file_name: &str,
    opts: BuildOptions,
    files: super::EmbeddedFiles<'a>,
) -> Result<Output, Diagnostics> {
    let mut c = Compiler {
        src: SourceFile::new(text, file_name),
        errors: Vec::new(),
        truncated: false,
        title: None,
        vertices: Vec::new(),
        vertex_names: HashMap::new(),
        sectors: Vec::new(),
        sector_names: HashMap::new(),
        loops: Vec::new(),
        things: Vec::new(),
        exits: Vec::new(),
        specials: Vec::new(),
        scrolls: Vec::new(),
        resolved_scrolls: Vec::new(),
        sides: Vec::new(),
        resolved_sides: Vec::new(),
        player: None,
        base_dir: Path::new(file_name)
            .parent()
            .map_or_else(PathBuf::new, Path::to_path_buf),
        files,
        library: TextureLibrary::empty(),
        library_failed: false,
        images: HashMap::new(),
        texture_warnings: Vec::new(),
    };
    c.statements(text);
    if !c.truncated {
        c.check_texture_names();
    }
    if !c.truncated {
        c.resolve_loops();
        c.resolve_exits();
    }
    if !c.truncated {
        c.whole_map_checks();
    }
    if !c.errors.is_empty() {
        return Err(c.diagnostics());
    }
    let map = c.source_map();
    let (compiled, pack_warnings) = match build::build_textured(&map, &c.library, opts) {
        Ok(compiled) => compiled,
        Err(e) => {
            let mut d = c.diag(Severity::Error, c.site_location(&e.site), e.message.clone());
            for (site, label) in &e.notes {
                d = d.related(label.clone(), c.site_location(site));
            }
            if let Some(h) = &e.help {
                d = d.help(h.clone());
            }
            c.errors.push(d);
            return Err(c.diagnostics());
        }
    };
    let mut warnings = render(std::mem::take(&mut c.texture_warnings));
    warnings.extend(
        pack_warnings
            .into_iter()
            .map(|w| c.diag(Severity::Warning, c.src.whole_file(), w).to_string()),
    );
    warnings.extend(c.warnings(&compiled.bytes));
    Ok(Output {
        bytes: compiled.bytes,
        stats: compiled.stats,
        warnings,
    })
}

impl<'a> Compiler<'a> {
    fn diag(&self, severity: Severity, location: Location, message: String) -> Diagnostic {
        Diagnostic {
            severity,
            message,
            location,
            label: None,
            related: Vec::new(),
            notes: Vec::new(),
            help: Vec::new(),
        }
    }

    fn error(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.diag(Severity::Error, self.src.locate(span), message.into())
    }

    fn push(&mut self, d: Diagnostic) {
        if self.errors.len() >= MAX_ERRORS {
            self.truncated = true;
        } else {
            self.errors.push(d);
        }
    }

    fn diagnostics(&mut self) -> Diagnostics {
        let mut errors = std::mem::take(&mut self.errors);
        // In file order, whole-file problems last (checks run in passes,
        // so they find errors out of order).
        errors.sort_by_key(|d| {
            let l = &d.location;
            (l.snippet.is_none(), l.line, l.column)
        });
        Diagnostics {
            errors,
            truncated: self.truncated,
        }
    }

    /// Parses every line and records definitions; loops wait until every
    /// name is known, so a file may use a name before defining it.
    fn statements(&mut self, text: &'a str) {
        // `textures` statements first: the WAD's palette is the one every
        // colour of the map is read in.
        let builtin = Palette::builtin();
        let mut wads = Vec::new();
        let mut base = 0;
        for raw_line in text.split('\n') {
            let line = raw_line.strip_suffix('\r').unwrap_or(raw_line);
            let line_base = base;
            base += raw_line.len() + 1;
            if !line.contains("textures") {
                continue;
            }
            // Errors in these lines are reported by the main pass.
            if let Ok(Some(Stmt::Textures { file, span })) = parse_line(line, line_base, &builtin) {
                if let Some(bytes) = self.read_wad(&file) {
                    wads.push((bytes, file, span));
                }
            }
        }
        self.load_wads(&wads);
        let palette = self.library.palette_or_builtin();
        let mut base = 0;
        for raw_line in text.split('\n') {
            let line = raw_line.strip_suffix('\r').unwrap_or(raw_line);
            let line_base = base;
            base += raw_line.len() + 1;
            if self.truncated {
                return;
            }
            match parse_line(line, line_base, &palette) {
                Ok(None) => {}
                Ok(Some(stmt)) => self.statement(stmt),
                Err(e) => {
                    let mut d = self.error(e.span, e.message);
                    if let Some(h) = e.help {
                        d = d.help(h);
                    }
                    self.push(d);
                }
            }
        }
    }

    fn redefined(&mut self, what: &str, name: Spanned<&str>, first: Span) {
        let d = self
            .error(
                name.span,
                format!("{what} `{}` is defined twice", shown(name.value)),
            )
            .label("redefined here")
            .related("first defined here", self.src.locate(first))
            .note("vertex names and sector names must each be unique");
        self.push(d);
    }

    fn statement(&mut self, stmt: Stmt<'a>) {
        match stmt {
            Stmt::Title { text, span } => {
                if let Some((_, first)) = &self.title {
                    let d = self
                        .error(span, "the title is given twice")
                        .related("first given here", self.src.locate(*first));
                    self.push(d);
                } else {
                    self.title = Some((text, span));
                }
            }
            Stmt::Vertex { name, x, y, span } => {
                if let Some(&first) = self.vertex_names.get(name.value) {
                    let first = self.vertices[first].name_span;
                    self.redefined("vertex", name, first);
                    return;
                }
                if self.vertices.len() == config::MAX_VERTICES {
                    let d = self.error(
                        span,
                        format!(
                            "too many vertices: a map holds at most {}",
                            config::MAX_VERTICES
                        ),
                    );
                    self.push(d);
                }
                self.vertex_names.insert(name.value, self.vertices.len());
                self.vertices.push(VertexDef {
                    name: name.value,
                    name_span: name.span,
                    pos: Vec2::new(x, y),
                    span,
                    used: false,
                });
            }
            Stmt::Textures { .. } => {}
            Stmt::Texture { name, file, span } => self.add_image(name, file, span),
            Stmt::Sector {
                name,
                floor,
                ceiling,
                looks,
                textures,
                tag,
                special,
                span: _,
            } => {
                if let Some(&first) = self.sector_names.get(name.value) {
                    let first = self.sectors[first].name_span;
                    self.redefined("sector", name, first);
                    return;
                }
                if self.sectors.len() == config::MAX_SECTORS {
                    let d = self.error(
                        name.span,
                        format!(
                            "too many sectors: a map holds at most {}",
                            config::MAX_SECTORS
                        ),
                    );
                    self.push(d);
                }
                if ceiling.value < floor.value {
                    let d = self
                        .error(
                            ceiling.span,
                            format!(
                                "ceiling below floor: sector `{}` has its ceiling at {} and its \
                                 floor at {}",
                                shown(name.value),
                                ceiling.value,
                                floor.value
                            ),
                        )
                        .label("below the floor")
                        .note("a ceiling equal to the floor is allowed (a closed door)");
                    self.push(d);
                }
                self.sector_names.insert(name.value, self.sectors.len());
                self.sectors.push(SectorDef {
                    name: name.value,
                    name_span: name.span,
                    floor,
                    ceiling,
                    looks,
                    textures,
                    tag,
                    special,
                    loops: Vec::new(),
                    named_by_loop: false,
                });
            }
            Stmt::Loop {
                sector,
                vertices,
                span,
            } => self.loops.push(PendingLoop {
                sector,
                vertices,
                span,
            }),
            Stmt::Player { x, y, angle, span } => {
                if let Some(first) = self.player {
                    let d = self
                        .error(span, "a second player start")
                        .related("the first one is here", self.src.locate(first))
                        .note("a map has exactly one player start");
                    self.push(d);
                    return;
                }
                self.player = Some(span);
                self.thing(ThingDef {
                    record: ThingRecord {
                        x,
                        y,
                        angle,
                        radius: config::player::RADIUS,
                        kind: kind::PLAYER_START,
                        type_id: 1,
                        sprite: engine::format::NONE,
                        rotations: 0,
                    },
                    span,
                });
            }
            Stmt::Destination { x, y, angle, span } => self.thing(ThingDef {
                record: ThingRecord {
                    x,
                    y,
                    angle,
                    radius: Fx::ZERO,
                    kind: kind::TELEPORT_DESTINATION,
                    // DOOM's teleport destination.
                    type_id: 14,
                    sprite: engine::format::NONE,
                    rotations: 0,
                },
                span,
            }),
            Stmt::Key {
                lock,
                skull,
                x,
                y,
                span,
            } => {
                // DOOM's thing numbers, cards then skulls, blue, yellow, red.
                let (kind, type_id) = match (lock, skull) {
                    (1, false) => (kind::BLUE_CARD, 5),
                    (2, false) => (kind::YELLOW_CARD, 6),
                    (3, false) => (kind::RED_CARD, 13),
                    (1, true) => (kind::BLUE_SKULL, 40),
                    (2, true) => (kind::YELLOW_SKULL, 39),
                    _ => (kind::RED_SKULL, 38),
                };
                if self
                    .things
                    .iter()
                    .filter(|t| kind::is_key(t.record.kind))
                    .count()
                    == config::MAX_KEY_THINGS
                {
                    let d = self.error(
                        span,
                        format!(
                            "too many keys: a map holds at most {}",
                            config::MAX_KEY_THINGS
                        ),
                    );
                    self.push(d);
                    return;
                }
                self.thing(ThingDef {
                    record: ThingRecord {
                        x,
                        y,
                        angle: Fx::ZERO,
                        // DOOM's pickups' radius.
                        radius: Fx::from_num(20),
                        kind,
                        type_id,
                        sprite: engine::format::NONE,
                        rotations: 0,
                    },
                    span,
                })
            }
            Stmt::Entity { x, y, radius, span } => self.thing(ThingDef {
                record: ThingRecord {
                    x,
                    y,
                    angle: Fx::ZERO,
                    radius,
                    kind: kind::PUSHABLE,
                    type_id: 0,
                    sprite: engine::format::NONE,
                    rotations: 0,
                },
                span,
            }),
            Stmt::Exit {
                v1,
                v2,
                secret,
                walk,
                span,
            } => self.exits.push(PendingExit {
                v1,
                v2,
                special: WallSpecialRecord {
                    wall: 0,
                    action: if secret {
                        wall_action::SECRET_EXIT
                    } else {
                        wall_action::EXIT
                    },
                    trigger: if walk { trigger::WALK } else { trigger::USE },
                    tag: 0,
                },
                span,
            }),
            Stmt::Scroll { v1, v2, flag, span } => self.scrolls.push((v1, v2, flag, span)),
            Stmt::Side {
                v1,
                v2,
                looks,
                span,
            } => self.sides.push((v1, v2, looks, span)),
            Stmt::Door {
                v1,
                v2,
                special,
                span,
            } => self.exits.push(PendingExit {
                v1,
                v2,
                special,
                span,
            }),
            Stmt::Obstacle { x, y, radius, span } => self.thing(ThingDef {
                record: ThingRecord {
                    x,
                    y,
                    angle: Fx::ZERO,
                    radius,
                    kind: kind::SOLID,
                    type_id: 0,
                    sprite: engine::format::NONE,
                    rotations: 0,
                },
                span,
            }),
        }
    }

    /// The file a `textures` or `texture` statement names: relative to the
    /// map's directory; a WAD named without a directory is also looked
    /// for in `$DOOMWADDIR` and [`WAD_DIRS`].
    fn find_file(&self, file: &str, wad: bool) -> Result<PathBuf, String> {
        let here = self.base_dir.join(file);
        if here.is_file() {
            return Ok(here);
        }
        let bare = !file.contains(['/', '\\']);
        if wad && bare {
            let env = std::env::var_os("DOOMWADDIR").map(PathBuf::from);
            let dirs = env.into_iter().chain(WAD_DIRS.iter().map(PathBuf::from));
            let mut looked = vec![here.display().to_string()];
            for dir in dirs {
                let p = dir.join(file);
                if p.is_file() {
                    return Ok(p);
                }
                looked.push(p.display().to_string());
            }
            return Err(format!("looked for {}", looked.join(", ")));
        }
        Err(format!("looked for {}", here.display()))
    }

    /// The bytes of the file a `textures` or `texture` statement names,
    /// and the name to show for it: a file given with the source, else
    /// one [`Compiler::find_file`] finds.
    fn read_file(&self, file: &str, wad: bool) -> Result<(String, Vec<u8>), String> {
        if let Some((name, bytes)) = self.files.iter().find(|(name, _)| *name == file) {
            return Ok((name.to_string(), bytes.to_vec()));
        }
        let path = self.find_file(file, wad)?;
        Ok((path.display().to_string(), read_limited(&path)?))
    }

    /// Reads the file of a `textures` statement (an error if it cannot).
    fn read_wad(&mut self, file: &Spanned<String>) -> Option<Vec<u8>> {
        match self.read_file(&file.value, true) {
            Ok((_, bytes)) => Some(bytes),
            Err(why) => {
                let d = self
                    .error(
                        file.span,
                        format!("cannot find WAD `{}`", shown(&file.value)),
                    )
                    .note(why)
                    .help(
                        "give a path relative to the map file, or install the Freedoom WADs \
                         (Debian package `freedoom`, which scripts/setup installs)",
                    );
                self.library_failed = true;
                self.push(d);
                None
            }
        }
    }

    /// Builds the library from the WADs read, later ones on top.
    fn load_wads(&mut self, wads: &[(Vec<u8>, Spanned<String>, Span)]) {
        let mut parsed = Vec::new();
        for (bytes, file, _) in wads {
            match Wad::parse(bytes) {
                Ok(w) => parsed.push(w),
                Err(e) => {
                    let d = self.error(file.span, format!("`{}`: {e}", shown(&file.value)));
                    self.library_failed = true;
                    self.push(d);
                }
            }
        }
        if parsed.is_empty() {
            return;
        }
        let refs: Vec<&Wad> = parsed.iter().collect();
        let (library, warnings) = TextureLibrary::from_wads(&refs);
        self.library = library;
        if let Some((_, _, span)) = wads.first() {
            for w in warnings {
                let d = self.diag(Severity::Warning, self.src.locate(*span), w);
                self.texture_warnings.push(d);
            }
        }
    }

    /// A `texture NAME FILE.png` statement.
    fn add_image(&mut self, name: Spanned<&str>, file: Spanned<String>, span: Span) {
        let key = name.value.to_ascii_uppercase();
        if let Some(&first) = self.images.get(&key) {
            let d = self
                .error(
                    name.span,
                    format!("texture `{}` is defined twice", shown(name.value)),
                )
                .related("first defined here", self.src.locate(first))
                .note("texture names are case-insensitive");
            self.push(d);
            return;
        }
        self.images.insert(key, span);
        let result = self.read_file(&file.value, false).and_then(|(p, bytes)| {
            self.library
                .add_png(name.value, &bytes)
                .map_err(|e| format!("{p}: {e}"))
        });
        if let Err(why) = result {
            let d = self
                .error(
                    file.span,
                    format!("cannot load PNG `{}`", shown(&file.value)),
                )
                .note(why)
                .help("give the path of a PNG file, relative to the map file");
            self.push(d);
        }
    }

    /// Every texture a sector names must exist (checked here, with the
    /// statement to point at, rather than left to a placeholder).
    fn check_texture_names(&mut self) {
        if self.library_failed {
            return;
        }
        let mut unknown: Vec<(Spanned<&str>, &'static str)> = Vec::new();
        for s in &self.sectors {
            // A `texture` whose PNG failed to load is already an error.
            let defined = |k: &str| k == "-" || self.images.contains_key(k);
            for t in [s.textures.floor, s.textures.ceiling].into_iter().flatten() {
                let k = t.value.to_ascii_uppercase();
                if !k.starts_with("F_SKY") && !defined(&k) && !self.library.has_flat(&k) {
                    unknown.push((t, "flat"));
                }
            }
            if let Some(t) = s.textures.wall {
                let k = t.value.to_ascii_uppercase();
                if !defined(&k) && !self.library.has_wall(&k) {
                    unknown.push((t, "wall texture"));
                }
            }
        }
        for (_, _, looks, _) in &self.sides {
            let defined = |k: &str| k == "-" || self.images.contains_key(k);
            let named = [looks.texture, looks.upper, looks.middle, looks.lower];
            for t in named.into_iter().flatten() {
                let k = t.value.to_ascii_uppercase();
                if !defined(&k) && !self.library.has_wall(&k) {
                    unknown.push((t, "wall texture"));
                }
            }
        }
        for (t, what) in unknown {
            let k = t.value.to_ascii_uppercase();
            let lib = &self.library;
            let mut d = self.error(t.span, format!("unknown {what} `{}`", shown(t.value)));
            let found = if what == "flat" {
                suggest(&k, lib.flat_names().chain(lib.image_names()))
            } else {
                suggest(&k, lib.wall_names().chain(lib.image_names()))
            };
            d = match found {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None if lib.texture_count() + lib.flat_count() == 0 => d.help(
                    "name textures from a WAD (`textures freedoom2.wad`) or from a PNG file \
                     (`texture NAME FILE.png`)",
                ),
                None => d,
            };
            self.push(d);
        }
    }

    fn thing(&mut self, t: ThingDef) {
        if self.things.len() == config::MAX_THINGS {
            let d = self.error(
                t.span,
                format!(
                    "too many things: a map holds at most {} (the player start and entities)",
                    config::MAX_THINGS
                ),
            );
            self.push(d);
        }
        self.things.push(t);
    }

    fn unknown(&mut self, what: &str, name: Spanned<&str>) {
        let mut d = self.error(name.span, format!("unknown {what} `{}`", shown(name.value)));
        let candidates: Vec<&str> = if what == "vertex" {
            self.vertex_names.keys().copied().collect()
        } else {
            self.sector_names.keys().copied().collect()
        };
        if let Some(s) = suggest(name.value, candidates.iter().copied()) {
            d = d.help(format!("did you mean `{s}`?"));
        }
        let other_kind = if what == "vertex" {
            self.sector_names
                .contains_key(name.value)
                .then_some("sector")
        } else {
            self.vertex_names
                .contains_key(name.value)
                .then_some("vertex")
        };
        if let Some(k) = other_kind {
            d = d.note(format!(
                "there is a {k} `{}`, but a {what} is needed here",
                shown(name.value)
            ));
        }
        self.push(d);
    }

    /// Each `exit`'s vertices by name (the builder then finds the wall
    /// between them, or says there is none).
    fn resolve_exits(&mut self) {
        let exits = std::mem::take(&mut self.exits);
        for e in exits {
            if let Some((v1, v2)) = self.wall_ends(e.v1, e.v2) {
                let special = SourceSpecial {
                    v1,
                    v2,
                    special: e.special,
                };
                self.specials.push((special, e.span));
            }
        }
        for (v1, v2, flag, span) in std::mem::take(&mut self.scrolls) {
            if let Some((v1, v2)) = self.wall_ends(v1, v2) {
                self.resolved_scrolls
                    .push((SourceScroll { v1, v2, flag }, span));
            }
        }
        for (v1, v2, looks, span) in std::mem::take(&mut self.sides) {
            if let Some((v1, v2)) = self.wall_ends(v1, v2) {
                let name = |t: Option<Spanned<&str>>| t.map(|t| t.value.to_string());
                let side = SourceSide {
                    v1,
                    v2,
                    texture: name(looks.texture),
                    upper: name(looks.upper),
                    middle: name(looks.middle),
                    lower: name(looks.lower),
                    x_offset: looks.x_offset,
                    y_offset: looks.y_offset,
                    flags: looks.flags,
                };
                self.resolved_sides.push((side, span));
            }
        }
    }

    /// The vertices a wall statement names, each unknown name an error.
    fn wall_ends(&mut self, v1: Spanned<&str>, v2: Spanned<&str>) -> Option<(usize, usize)> {
        let a = self.vertex_names.get(v1.value).copied();
        let b = self.vertex_names.get(v2.value).copied();
        if a.is_none() {
            self.unknown("vertex", v1);
        }
        if b.is_none() {
            self.unknown("vertex", v2);
        }
        a.zip(b)
    }

    fn resolve_loops(&mut self) {
        let loops = std::mem::take(&mut self.loops);
        for lp in loops {
            if self.truncated {
                return;
            }
            let sector = self.sector_names.get(lp.sector.value).copied();
            if sector.is_none() {
                self.unknown("sector", lp.sector);
            }
            let mut ids = Vec::with_capacity(lp.vertices.len());
            for v in &lp.vertices {
                match self.vertex_names.get(v.value) {
                    Some(&i) => ids.push(i),
                    None => self.unknown("vertex", *v),
                }
            }
            let Some(sector) = sector else { continue };
            self.sectors[sector].named_by_loop = true;
            if ids.len() != lp.vertices.len() {
                continue;
            }
            let (first, last) = (lp.vertices[0], lp.vertices[lp.vertices.len() - 1]);
            if lp.vertices.len() < 2 || first.value != last.value {
                let d = self
                    .error(
                        lp.span,
                        format!(
                            "unclosed sector loop: ends at `{}`, started at `{}`",
                            shown(last.value),
                            shown(first.value)
                        ),
                    )
                    .help(format!(
                        "end the loop with `{}` to close it: `loop SECTOR V1 V2 ... Vn V1`",
                        shown(first.value)
                    ));
                self.push(d);
                continue;
            }
            let mut ok = true;
            for k in 0..ids.len() - 1 {
                if ids[k] == ids[k + 1] {
                    let span = lp.vertices[k].span.to(lp.vertices[k + 1].span);
                    let d = self
                        .error(
                            span,
                            format!(
                                "zero-length wall: `{}` twice in a row",
                                shown(lp.vertices[k].value)
                            ),
                        )
                        .help("remove one of them");
                    self.push(d);
                    ok = false;
                }
            }
            let distinct = ids.iter().collect::<HashSet<_>>().len();
            if ok && distinct < 3 {
                let d = self
                    .error(
                        lp.span,
                        format!(
                            "a loop needs at least 3 distinct vertices; this one has {distinct}"
                        ),
                    )
                    .help("a loop is a closed outline: `loop SECTOR a b c a`");
                self.push(d);
                ok = false;
            }
            if !ok {
                continue;
            }
            ids.pop();
            for &i in &ids {
                self.vertices[i].used = true;
            }
            self.sectors[sector].loops.push(LoopDef {
                vertices: ids,
                spans: lp.vertices.iter().map(|v| v.span).collect(),
            });
        }
    }

    fn whole_map_checks(&mut self) {
        if self.sectors.is_empty() {
            let d = self
                .diag(
                    Severity::Error,
                    self.src.whole_file(),
                    "the map has no sectors".into(),
                )
                .help("add `sector NAME floor F ceiling C` and a `loop` for it");
            self.push(d);
        }
        for i in 0..self.sectors.len() {
            if !self.sectors[i].named_by_loop {
                let s = &self.sectors[i];
                let d = self
                    .error(
                        s.name_span,
                        format!("sector `{}` has no loop", shown(s.name)),
                    )
                    .help(format!(
                        "give it an outline: `loop {} V1 V2 V3 V1`",
                        shown(s.name)
                    ));
                self.push(d);
            }
        }
        if self.player.is_none() {
            let d = self
                .diag(
                    Severity::Error,
                    self.src.whole_file(),
                    "the map has no player start".into(),
                )
                .help("add `player X Y ANGLE` with X, Y inside a sector");
            self.push(d);
        }
        // Every duplicate position at once (the builder stops at the first).
        let mut at: HashMap<(i32, i32), usize> = HashMap::new();
        for i in 0..self.vertices.len() {
            let p = self.vertices[i].pos;
            if let Some(&first) = at.get(&(p.x.to_bits(), p.y.to_bits())) {
                let (a, b) = (&self.vertices[first], &self.vertices[i]);
                let d = self
                    .error(
                        b.span,
                        format!(
                            "duplicate vertex: `{}` is at the same position as `{}` ({}, {})",
                            shown(b.name), shown(a.name), p.x, p.y
                        ),
                    )
                    .related(format!("`{}` is defined here", shown(a.name)), self.src.locate(a.span))
                    .note("two vertices at one spot make walls that look joined but are not; use one name");
                self.push(d);
            } else {
                at.insert((p.x.to_bits(), p.y.to_bits()), i);
            }
        }
        if !self.errors.is_empty() {
            return;
        }
        // Walls: one per distinct edge, counted in the builder's order so
        // the error points at the edge that goes over.
        let mut edges: HashSet<(usize, usize)> = HashSet::new();
        for s in &self.sectors {
            for lp in &s.loops {
                for k in 0..lp.vertices.len() {
                    let (a, b) = (lp.vertices[k], lp.vertices[(k + 1) % lp.vertices.len()]);
                    edges.insert((a.min(b), a.max(b)));
                    if edges.len() > config::MAX_WALLS {
                        let d = self.error(
                            lp.spans[k].to(lp.spans[k + 1]),
                            format!("too many walls: a map holds at most {}", config::MAX_WALLS),
                        );
                        self.push(d);
                        return;
                    }
                }
            }
        }
    }

    fn source_map(&self) -> SourceMap {
        SourceMap {
            specials: self.specials.iter().map(|(s, _)| s.clone()).collect(),
            scrolls: self
                .resolved_scrolls
                .iter()
                .map(|(s, _)| s.clone())
                .collect(),
            sides: self.resolved_sides.iter().map(|(s, _)| s.clone()).collect(),
            title: self.title.as_ref().map_or(String::new(), |t| t.0.clone()),
            vertices: self.vertices.iter().map(|v| v.pos).collect(),
            sectors: self
                .sectors
                .iter()
                .map(|s| SourceSector {
                    floor: s.floor.value,
                    ceiling: s.ceiling.value,
                    light: s.looks.light,
                    floor_color: s.looks.floor_color,
                    ceiling_color: s.looks.ceiling_color,
                    wall_color: s.looks.wall_color,
                    loops: s.loops.iter().map(|l| l.vertices.clone()).collect(),
                    floor_texture: s.textures.floor.map(|t| t.value.to_string()),
                    ceiling_texture: s.textures.ceiling.map(|t| t.value.to_string()),
                    wall_texture: s.textures.wall.map(|t| t.value.to_string()),
                    tag: s.tag,
                    special: s.special,
                })
                .collect(),
            things: self.things.iter().map(|t| t.record).collect(),
        }
    }

    /// Where a builder site was written.
    fn site_location(&self, site: &Site) -> Location {
        let span = match *site {
            Site::Map => None,
            Site::Vertex(i) => self.vertices.get(i).map(|v| v.span),
            Site::Sector(i) => self.sectors.get(i).map(|s| s.name_span),
            Site::LoopEdge {
                sector,
                loop_index,
                index,
            } => self
                .sectors
                .get(sector)
                .and_then(|s| s.loops.get(loop_index))
                .and_then(|l| Some(l.spans.get(index)?.to(*l.spans.get(index + 1)?))),
            Site::Thing(i) => self.things.get(i).map(|t| t.span),
            Site::Special(i) => self.specials.get(i).map(|s| s.1),
            Site::Scroll(i) => self.resolved_scrolls.get(i).map(|s| s.1),
            Site::Side(i) => self.resolved_sides.get(i).map(|s| s.1),
            // Only `build_walls` names linedefs; the text format has none.
            Site::Line(_) => None,
        };
        span.map_or_else(|| self.src.whole_file(), |s| self.src.locate(s))
    }

    /// Non-fatal problems, checked on the compiled level with the
    /// engine's own point location.
    fn warnings(&self, bytes: &[u8]) -> Vec<String> {
        let mut out: Vec<Diagnostic> = Vec::new();
        let warn = |span: Span, message: String| {
            self.diag(Severity::Warning, self.src.locate(span), message)
        };
        for v in self.vertices.iter().filter(|v| !v.used) {
            out.push(
                warn(
                    v.name_span,
                    format!("vertex `{}` is never used", shown(v.name)),
                )
                .note("no loop goes through it"),
            );
        }
        let Ok(level) = Level::load(bytes) else {
            return render(out);
        };
        let bodies = self
            .things
            .iter()
            .filter(|t| t.record.kind == kind::PUSHABLE)
            .count();
        let mut entities_seen = 0;
        for (i, t) in self.things.iter().enumerate() {
            let r = t.record;
            if kind::is_key(r.kind) {
                // A key blocks nothing: only where it lies matters.
                if level.locate(Vec2::new(r.x, r.y)).is_none() {
                    out.push(
                        warn(t.span, "this key is outside every sector".to_string())
                            .note("it must lie inside a sector's loops to be picked up"),
                    );
                }
                continue;
            }
            let is_player = r.kind == kind::PLAYER_START;
            let what = thing_name(r.kind, "the player start", "this entity", "this obstacle");
            let pos = Vec2::new(r.x, r.y);
            if r.kind == kind::PUSHABLE {
                entities_seen += 1;
                if entities_seen == config::MAX_BODIES {
                    out.push(warn(
                        t.span,
                        format!(
                            "too many entities ({bodies}): the game moves at most {} bodies, \
                             the player included, and this is entity number {}",
                            config::MAX_BODIES,
                            entities_seen
                        ),
                    ));
                }
            }
            let Some(sector) = level.locate(pos) else {
                out.push(
                    warn(t.span, format!("{what} is outside every sector"))
                        .note("it must stand inside a sector's loops to be spawned"),
                );
                continue;
            };
            let s = level.sector(sector);
            if is_player && s.ceiling - s.floor < config::player::HEIGHT {
                out.push(warn(
                    t.span,
                    format!(
                        "the player does not fit here: the sector is {} units high, the \
                         player {}",
                        s.ceiling - s.floor,
                        config::player::HEIGHT
                    ),
                ));
            }
            if blocking_wall_within(&level, sector, pos, r.radius, is_player) {
                out.push(
                    warn(
                        t.span,
                        format!(
                            "{what} overlaps a wall: a wall is closer than its radius ({})",
                            r.radius
                        ),
                    )
                    .note("it may start stuck or be pushed out on the first tick"),
                );
            }
            // Bodies overlapping each other (pairs reported once).
            for u in self.things.iter().take(i) {
                let q = u.record;
                if kind::is_key(q.kind) {
                    continue;
                }
                let reach = r.radius.to_num::<f64>() + q.radius.to_num::<f64>();
                let (dx, dy) = ((r.x - q.x).to_num::<f64>(), (r.y - q.y).to_num::<f64>());
                if dx * dx + dy * dy < reach * reach {
                    let other =
                        thing_name(q.kind, "the player start", "another entity", "an obstacle");
                    out.push(
                        warn(t.span, format!("{what} overlaps {other}"))
                            .related("the other one", self.src.locate(u.span)),
                    );
                }
            }
        }
        render(out)
    }
}

/// What a message calls a thing of `kind`: one of the three names given.
fn thing_name(
    kind: u16,
    player: &'static str,
    entity: &'static str,
    obstacle: &'static str,
) -> &'static str {
    match kind {
        kind::PLAYER_START => player,
        kind::SOLID => obstacle,
        _ => entity,
    }
}

/// Largest file a `textures` or `texture` statement reads (WAD offsets are
/// 32-bit; this also keeps a map that names a device or a huge file from
/// reading it).
pub const MAX_TEXTURE_FILE: u64 = 1 << 30;

/// Reads a texture file of at most [`MAX_TEXTURE_FILE`] bytes.
fn read_limited(path: &Path) -> Result<Vec<u8>, String> {
    let fail = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let len = std::fs::metadata(path).map_err(fail)?.len();
    if len > MAX_TEXTURE_FILE {
        return Err(format!(
            "{} is {len} bytes, more than a texture file may be ({MAX_TEXTURE_FILE})",
            path.display()
        ));
    }
    std::fs::read(path).map_err(fail)
}

fn render(warnings: Vec<Diagnostic>) -> Vec<String> {
    let n = warnings.len();
    let mut out: Vec<String> = warnings
        .into_iter()
        .take(MAX_WARNINGS)
        .map(|w| w.to_string())
        .collect();
    if n > MAX_WARNINGS {
        out.push(format!(
            "warning: {} more warnings not shown\n",
            n - MAX_WARNINGS
        ));
    }
    out
}

/// A wall that blocks a body of `radius` at `pos` in `sector` and comes
/// closer than the radius. One-sided walls block everything; for the
/// player, so do portals too high to step up or too low to pass under.
fn blocking_wall_within(
    level: &Level<'_>,
    sector: SectorId,
    pos: Vec2,
    radius: Fx,
    is_player: bool,
) -> bool {
    let rw = Wide::from_num(radius);
    let p = pos.wide();
    let (min, max) = (WVec::new(p.x - rw, p.y - rw), WVec::new(p.x + rw, p.y + rw));
    let here = level.sector(sector);
    let mut found = false;
    level.walls_in_box(min, max, |id| {
        if found {
            return;
        }
        let w = level.wall(id);
        let blocks = match w.other_side(sector) {
            None => true,
            Some(other) if is_player => {
                let o = level.sector(other);
                let floor = here.floor.max(o.floor);
                let ceiling = here.ceiling.min(o.ceiling);
                o.floor - here.floor > config::player::KNEE_HEIGHT
                    || ceiling - floor < config::player::HEIGHT
            }
            Some(_) => false,
        };
        // A wall of another sector (listed in the box, not ours) blocks
        // too if it is one-sided: the body would poke through it.
        let ours = w.front == sector || w.back == Some(sector);
        let blocks = if ours { blocks } else { w.back.is_none() };
        if blocks && distance(pos, w.a, w.b) < radius.to_num::<f64>() {
            found = true;
        }
    });
    found
}

/// Distance from `p` to the segment `a`-`b`, map units.
fn distance(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    let f = |v: Fx| v.to_num::<f64>();
    let (px, py, ax, ay, bx, by) = (f(p.x), f(p.y), f(a.x), f(a.y), f(b.x), f(b.y));
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cy) = (ax + t * dx - px, ay + t * dy - py);
    (cx * cx + cy * cy).sqrt()
}
