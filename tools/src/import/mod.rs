//! From a DOOM-format level ([`DoomLevel`], binary or UDMF) to compiled
//! bytes, through [`build::build_walls`].
//!
//! DOOM's linedef/sidedef model is our wall model (front = right of
//! `v1 -> v2`, a back side makes a portal), so linedefs become walls one
//! for one, in order, and sectors keep their numbers. What the importer
//! adds:
//!
//! * **Repairs**, each with a warning naming the linedef, sidedef, sector
//!   or thing: lines with a missing or out-of-range vertex, no usable
//!   side, or zero length are dropped; a line with only a back side is
//!   turned round; a side naming a missing sector or sidedef is left off
//!   (a two-sided line missing a side becomes one-sided); a ceiling below
//!   its floor is raised to it; coordinates outside the engine's range
//!   drop what uses them. Vertices at the same point are merged, and
//!   vertices no line uses (the node builder's) are left out.
//! * **Checks**, as warnings: sector outlines that do not close or that
//!   touch themselves, crossing or overlapping walls
//!   (from the builder), a player start outside every sector, and, once
//!   per map, each unsupported feature (slopes, 3D floors, scripts,
//!   polyobjects, portals).
//! * **Doors and lifts** ([`ImportOptions::open_doors`],
//!   [`ImportOptions::lower_lifts`]): the engine has no moving sectors
//!   yet, so a door is compiled open, as DOOM opens it (ceiling at the
//!   lowest neighbouring ceiling minus 4), and a lift whose floor leaves
//!   no room to stand is compiled lowered (floor at the lowest
//!   neighbouring floor), so that levels can be walked end to end.
//! * **Things**: the last player 1 start becomes the player start; other
//!   things present in single player on the chosen skill become
//!   decorations with their sprite ([`things`]) and, for a monster whose
//!   WAD has all eight rotations of its frame, those ([`rotations`]: one
//!   rotation set per distinct eight, shared by the things that show
//!   it); keycards and skull keys become keys ([`things::key_kind`]),
//!   picked up in the game; starts for other players and deathmatch are
//!   left out.
//! * **The BSP** (`bsp`): the node builder's `SEGS`, `SSECTORS` and
//!   `NODES`, kept when every linedef was kept as it was (or dropped,
//!   with a warning saying why).
//! * **Textures**: every texture, flat and sprite the map uses goes
//!   through one [`Packer`]; `F_SKY*` is the sky; sectors get their flats'
//!   average colours for untextured drawing.
//!
//! Warnings read `warning: MAP: linedef 12: ...`; each kind is listed at
//! most [`MAX_PER_KIND`] times per map, then counted.

mod bsp;
pub mod rotations;
pub mod specials;
pub mod things;

use std::collections::{BTreeMap, HashMap};

use engine::config::player;
use engine::format::{
    kind, wall_flag, RotationRecord, SectorRecord, SideRecord, ThingRecord, WallSpecialRecord,
    MIRRORED, NONE, SKY,
};
use engine::math::{Fx, Vec2};

use crate::build::{self, BuildOptions, Compiled, SourceWall, WallMap};
use crate::doom::{line_flag, DoomLevel, Feature};
use crate::texture::{sky_for_map, Packer, TextureLibrary};
use specials::{Action, Target};

/// How to import.
#[derive(Copy, Clone, Debug)]
pub struct ImportOptions {
    /// Which skill's things to keep, 1 ("I'm too young to die") to 5
    /// ("Nightmare!"); DOOM's default, 3, is "Hurt me plenty".
    pub skill: u8,
    /// Compile doors open.
    pub open_doors: bool,
    /// Compile lifts that leave no room to stand lowered.
    pub lower_lifts: bool,
    /// Write the doors and lifts the engine moves, the teleporters and
    /// the light switches ([`specials::wall_special`]) as wall specials, with
    /// the sectors' tags, and leave the sectors
    /// they move as the map has them (shut, up): the game opens and
    /// lowers them (the locked doors for a player holding their key).
    /// `open_doors` and `lower_lifts` then act only on the rest (Boom's
    /// generalised doors, say), so that the level stays walkable.
    pub movers: bool,
    /// Builder settings.
    pub build: BuildOptions,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            skill: 3,
            open_doors: true,
            lower_lifts: true,
            movers: false,
            build: BuildOptions::default(),
        }
    }
}

/// Figures about one import, for reports and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Linedefs dropped as broken.
    pub lines_dropped: usize,
    /// Vertices merged into another at the same point.
    pub vertices_merged: usize,
    /// Door sectors compiled open.
    pub doors_opened: usize,
    /// Lift sectors compiled lowered.
    pub lifts_lowered: usize,
    /// Things kept (the player start included).
    pub things_kept: usize,
    /// Things left out (other skills, multiplayer, other players' starts).
    pub things_skipped: usize,
    /// Exit lines kept (walls that end the level).
    pub exits: usize,
}

/// A compiled DOOM map.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The bytes and their figures.
    pub compiled: Compiled,
    /// Warnings, ready to print.
    pub warnings: Vec<String>,
    /// What the importer did.
    pub summary: Summary,
}

/// Most warnings of one kind listed per map; the rest are counted.
pub const MAX_PER_KIND: usize = 10;

/// Warnings of one map, capped per kind.
struct Warnings<'m> {
    map: &'m str,
    list: Vec<String>,
    counts: BTreeMap<&'static str, usize>,
}

impl<'m> Warnings<'m> {
    fn new(map: &'m str) -> Self {
        Warnings {
            map,
            list: Vec::new(),
            counts: BTreeMap::new(),
        }
    }

    /// Adds a warning of `kind` (a plural noun: "broken linedefs").
    fn add(&mut self, kind: &'static str, text: impl std::fmt::Display) {
        let n = self.counts.entry(kind).or_default();
        *n += 1;
        if *n <= MAX_PER_KIND {
            self.list.push(format!("warning: {}: {text}", self.map));
        }
    }

    fn finish(mut self) -> Vec<String> {
        for (kind, n) in &self.counts {
            if *n > MAX_PER_KIND {
                self.list.push(format!(
                    "warning: {}: {} more {kind} not shown ({n} in all)",
                    self.map,
                    n - MAX_PER_KIND
                ));
            }
        }
        self.list
    }
}

/// A coordinate or height within the engine's range, as 16.16.
fn to_fx(v: f64) -> Option<Fx> {
    let limit = engine::config::MAX_COORDINATE as f64;
    if v.is_finite() && v.abs() <= limit {
        Fx::checked_from_num(v)
    } else {
        None
    }
}

/// A linedef after its references were checked.
#[derive(Clone, Debug)]
struct Line {
    origin: usize,
    v1: usize,
    v2: usize,
    front_side: usize,
    back_side: Option<usize>,
    front: usize,
    back: Option<usize>,
    flags: u16,
}

/// Compiles `level` (called `map` in messages) with textures from `lib`.
///
/// Fails only when nothing sensible can be built (no sectors, no usable
/// walls, no player start, more than the engine can hold); everything
/// else is repaired or reported as a warning.
pub fn import(
    level: &DoomLevel,
    map: &str,
    lib: &TextureLibrary,
    opts: &ImportOptions,
) -> Result<Imported, String> {
    let mut w = Warnings::new(map);
    let mut summary = Summary::default();
    let fail = |m: String| format!("error: {map}: {m}");
    for msg in &level.warnings {
        w.add("reading problems", msg);
    }
    if level.sectors.is_empty() {
        return Err(fail("the map has no sectors".into()));
    }

    // Vertices: in range, or nothing may use them.
    let points: Vec<Option<Vec2>> = level
        .vertices
        .iter()
        .map(|v| Some(Vec2::new(to_fx(v.x)?, to_fx(v.y)?)))
        .collect();

    let lines = resolve_lines(level, &points, &mut w, &mut summary);
    if lines.is_empty() {
        return Err(fail("the map has no usable linedefs".into()));
    }

    // Unsupported features, once per map each.
    let mut features: Vec<Feature> = level.features.clone();
    let mut note = |f: Feature| {
        if !features.contains(&f) {
            features.push(f);
        }
    };
    for l in &level.linedefs {
        if let Action::Unsupported(f) =
            specials::classify(level.specials, l.special, l.tag, &l.args)
        {
            note(f);
        }
    }
    for t in &level.things {
        if let Some(f) = specials::thing_feature(t.kind) {
            note(f);
        }
    }
    features.sort();
    for f in &features {
        w.add(
            "unsupported features",
            format!("uses {f}, which this engine does not have; drawn flat / ignored"),
        );
    }

    // Heights, then doors and lifts.
    let mut floors: Vec<f64> = level.sectors.iter().map(|s| s.floor).collect();
    let mut ceilings: Vec<f64> = level.sectors.iter().map(|s| s.ceiling).collect();
    move_sectors(
        level,
        &lines,
        &mut floors,
        &mut ceilings,
        opts,
        &mut summary,
    );

    // Vertices used by a line, merged by position, in first-use order.
    let mut vertex_of: HashMap<(i32, i32), usize> = HashMap::new();
    let mut new_index: Vec<Option<usize>> = vec![None; level.vertices.len()];
    let mut vertices: Vec<Vec2> = Vec::new();
    for l in &lines {
        for v in [l.v1, l.v2] {
            if new_index[v].is_some() {
                continue;
            }
            // `resolve_lines` kept only lines whose vertices are in range.
            let Some(p) = points[v] else { continue };
            let key = (p.x.to_bits(), p.y.to_bits());
            let i = *vertex_of.entry(key).or_insert_with(|| {
                vertices.push(p);
                vertices.len() - 1
            });
            new_index[v] = Some(i);
        }
    }
    summary.vertices_merged = new_index.iter().flatten().count() - vertices.len();
    if summary.vertices_merged > 0 {
        w.add(
            "merged vertices",
            format!(
                "{} vertices lie exactly on another vertex; merged",
                summary.vertices_merged
            ),
        );
    }

    // Textures.
    let mut packer = Packer::new(lib);
    packer.set_sky(sky_for_map(map));
    let palette = lib.palette_or_builtin();
    let grey = palette.nearest([128, 128, 128]);

    let mut sides: Vec<SideRecord> = Vec::new();
    let mut side_index: HashMap<(i16, i16, u16, u16, u16), u16> = HashMap::new();
    let mut side_of_sidedef: HashMap<usize, u16> = HashMap::new();
    // The first wall texture each sector shows: its untextured colour.
    let mut wall_texture: Vec<Option<u16>> = vec![None; level.sectors.len()];
    let mut side = |sd: usize, packer: &mut Packer<'_>| -> u16 {
        if let Some(&i) = side_of_sidedef.get(&sd) {
            return i;
        }
        let s = &level.sidedefs[sd];
        let offset = |v: f64| v.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        let rec = SideRecord {
            x_offset: offset(s.x_offset),
            y_offset: offset(s.y_offset),
            upper: packer.wall(&s.upper),
            middle: packer.wall(&s.middle),
            lower: packer.wall(&s.lower),
        };
        let shown = [rec.middle, rec.upper, rec.lower]
            .into_iter()
            .find(|&t| t != NONE);
        if let (Some(slot), Some(t)) = (wall_texture.get_mut(s.sector), shown) {
            slot.get_or_insert(t);
        }
        let key = (rec.x_offset, rec.y_offset, rec.upper, rec.middle, rec.lower);
        let i = *side_index.entry(key).or_insert_with(|| {
            sides.push(rec);
            (sides.len() - 1) as u16
        });
        side_of_sidedef.insert(sd, i);
        i
    };

    let mut walls: Vec<SourceWall> = Vec::with_capacity(lines.len());
    // Each wall's front sidedef (its textures' names, for the switches).
    let mut front_sidedef: Vec<usize> = Vec::with_capacity(lines.len());
    for l in &lines {
        let (Some(v1), Some(v2)) = (new_index[l.v1], new_index[l.v2]) else {
            continue;
        };
        front_sidedef.push(l.front_side);
        walls.push(SourceWall {
            v1,
            v2,
            front: l.front,
            back: l.back,
            flags: l.flags
                & (wall_flag::IMPASSABLE | wall_flag::UPPER_UNPEGGED | wall_flag::LOWER_UNPEGGED)
                | level
                    .linedefs
                    .get(l.origin)
                    .map_or(0, |d| specials::scroll(level.specials, d.special)),
            front_side: side(l.front_side, &mut packer),
            back_side: l.back_side.map_or(NONE, |s| side(s, &mut packer)),
            origin: l.origin,
        });
    }

    // Sectors.
    let mut sectors: Vec<SectorRecord> = Vec::with_capacity(level.sectors.len());
    for (i, s) in level.sectors.iter().enumerate() {
        let height = |v: f64, what: &str, w: &mut Warnings<'_>| match to_fx(v) {
            Some(h) => h,
            None => {
                let limit = engine::config::MAX_COORDINATE;
                w.add(
                    "broken sectors",
                    format!("sector {i}: {what} height {v} is outside ±{limit}; clamped"),
                );
                Fx::from_num(v.clamp(-(limit as f64), limit as f64).round() as i32)
            }
        };
        let floor = height(floors[i], "floor", &mut w);
        let mut ceiling = height(ceilings[i], "ceiling", &mut w);
        if ceiling < floor {
            w.add(
                "broken sectors",
                format!("sector {i}: ceiling {ceiling} is below floor {floor}; raised to it"),
            );
            ceiling = floor;
        }
        let floor_texture = packer.flat(&s.floor_texture);
        let ceiling_texture = packer.flat(&s.ceiling_texture);
        let color = |t: u16, packer: &Packer<'_>| match t {
            NONE => grey,
            SKY if packer.flat_color(SKY) == 0 => grey,
            t => packer.flat_color(t),
        };
        sectors.push(SectorRecord {
            floor,
            ceiling,
            // DOOM clamps light levels when drawing (256, which editors
            // offer as "full bright", is common): no warning.
            light: s.light.clamp(0, 255) as u8,
            floor_color: color(floor_texture, &packer),
            ceiling_color: color(ceiling_texture, &packer),
            wall_color: wall_texture[i].map_or(grey, |t| packer.flat_color(t)),
            floor_texture,
            ceiling_texture,
            // Tags outside a u16 name nothing the engine's specials can.
            tag: u16::try_from(s.tag).unwrap_or(0),
            // The lights run in the game, as the doors do.
            special: if opts.movers {
                specials::sector_effect(level.specials, s.special)
            } else {
                0
            },
            ..SectorRecord::default()
        });
    }

    let (things, rotations) = convert_things(level, lib, opts, &mut packer, &mut w, &mut summary)?;

    check_outlines(&walls, &vertices, sectors.len(), &mut w);

    // Exits, on the walls of their linedefs.
    let specials: Vec<WallSpecialRecord> = walls
        .iter()
        .enumerate()
        .filter_map(|(i, wall)| {
            let l = level.linedefs.get(wall.origin)?;
            let (action, trigger, tag) = specials::wall_special(level.specials, l)?;
            // Exits are written whether or not the movers are.
            if matches!(
                action,
                engine::format::wall_action::EXIT | engine::format::wall_action::SECRET_EXIT
            ) {
                return Some(WallSpecialRecord {
                    wall: i as u16,
                    action,
                    trigger,
                    tag,
                });
            }
            if !opts.movers {
                return None;
            }
            // A tagged special without a tag moves nothing; a manual one
            // needs the sector behind its wall.
            let manual = action & engine::format::wall_action::BACK_SECTOR != 0;
            if (manual && wall.back.is_none()) || (!manual && tag == 0) {
                return None;
            }
            Some(WallSpecialRecord {
                wall: i as u16,
                action,
                trigger,
                tag,
            })
        })
        .collect();

    // The line specials the game will not act on, once per map: what a
    // mapper needs to know when a trigger does nothing here.
    if opts.movers {
        let written: std::collections::HashSet<usize> = specials
            .iter()
            .filter_map(|s| walls.get(usize::from(s.wall)).map(|w| w.origin))
            .collect();
        let mut ignored: BTreeMap<i32, usize> = BTreeMap::new();
        for (i, l) in level.linedefs.iter().enumerate() {
            let feature = matches!(
                specials::classify(level.specials, l.special, l.tag, &l.args),
                Action::Unsupported(_)
            );
            if l.special == 0
                || written.contains(&i)
                || feature
                || specials::scroll(level.specials, l.special) != 0
            {
                continue;
            }
            *ignored.entry(l.special).or_default() += 1;
        }
        if !ignored.is_empty() {
            let list: Vec<String> = ignored
                .iter()
                .map(|(s, n)| match n {
                    1 => format!("{s}"),
                    n => format!("{s} ({n} lines)"),
                })
                .collect();
            w.add(
                "ignored line specials",
                format!(
                    "line specials this engine does not act on (or whose lines have no \
                     tag or no sector behind): {}",
                    list.join(", ")
                ),
            );
        }
    }

    // Switches: the other texture of each SW1/SW2 on the front of a use
    // special's wall (but a manual door's: DOOM flips none of those).
    let mut switches = Vec::new();
    for special in &specials {
        let i = usize::from(special.wall);
        let Some(sd) = front_sidedef.get(i).and_then(|&f| level.sidedefs.get(f)) else {
            continue;
        };
        let names = [sd.upper.as_str(), sd.middle.as_str(), sd.lower.as_str()];
        if let Some(r) = crate::texture::switch_record(special, names, lib, &mut packer) {
            switches.push(r);
        }
    }

    let textures = packer.finish();
    if lib.texture_count() + lib.flat_count() + lib.sprite_count() == 0 {
        // No textures at all (a standalone UDMF file without an IWAD):
        // one warning, not one per name.
        if !textures.records.is_empty() {
            w.add(
                "texture problems",
                format!(
                    "no textures to draw from (give an IWAD, e.g. --iwad freedoom2.wad): \
                     {} textures are placeholders",
                    textures.records.len()
                ),
            );
        }
    } else {
        for t in &textures.warnings {
            w.add("texture problems", t);
        }
    }
    // The node builder's BSP, if it can be kept.
    let bsp = level.bsp.as_ref().and_then(|b| {
        bsp::convert(b, &level.vertices, level.linedefs.len(), &walls, &vertices)
            .map_err(|why| {
                w.add(
                    "BSP not kept",
                    format!("the map's BSP is not kept: {why}; our node builder makes one"),
                )
            })
            .ok()
    });
    summary.exits = specials
        .iter()
        .filter(|s| {
            use engine::format::wall_action::{EXIT, SECRET_EXIT};
            matches!(s.action, EXIT | SECRET_EXIT)
        })
        .count();
    let wall_map = WallMap {
        title: map.to_string(),
        vertices,
        walls,
        specials,
        switches,
        sides,
        sectors,
        things,
        rotations,
        textures,
        bsp,
    };
    let (compiled, build_warnings) =
        build::build_walls(&wall_map, opts.build).map_err(|e| fail(e.to_string()))?;
    for b in build_warnings {
        w.add("crossing walls", b);
    }
    check_start(&compiled.bytes, w.map)?;
    Ok(Imported {
        compiled,
        warnings: w.finish(),
        summary,
    })
}

/// Checks every linedef's references; returns the usable lines.
fn resolve_lines(
    level: &DoomLevel,
    points: &[Option<Vec2>],
    w: &mut Warnings<'_>,
    summary: &mut Summary,
) -> Vec<Line> {
    let nsec = level.sectors.len();
    // A sidedef's sector, if the sidedef and its sector exist.
    let side_sector = |sd: Option<usize>, i: usize, which: &str, w: &mut Warnings<'_>| {
        let sd = sd?;
        let Some(s) = level.sidedefs.get(sd) else {
            w.add(
                "broken linedefs",
                format!(
                    "linedef {i}: its {which} sidedef {sd} does not exist (there are {}); that side is left off",
                    level.sidedefs.len()
                ),
            );
            return None;
        };
        if s.sector >= nsec {
            w.add(
                "broken linedefs",
                format!(
                    "linedef {i}: its {which} sidedef {sd} faces sector {}, which does not exist (there are {nsec}); that side is left off",
                    crate::doom::shown_index(s.sector)
                ),
            );
            return None;
        }
        Some((sd, s.sector))
    };
    let mut lines = Vec::with_capacity(level.linedefs.len());
    for (i, l) in level.linedefs.iter().enumerate() {
        let mut drop = |why: String, w: &mut Warnings<'_>| {
            w.add("broken linedefs", format!("linedef {i}: {why}; dropped"));
            summary.lines_dropped += 1;
        };
        let (p1, p2) = match (points.get(l.v1), points.get(l.v2)) {
            (Some(Some(a)), Some(Some(b))) => (*a, *b),
            (a, _) => {
                let bad = if !matches!(a, Some(Some(_))) {
                    l.v1
                } else {
                    l.v2
                };
                let why = if bad < points.len() {
                    format!(
                        "vertex {bad} is outside the engine's ±{} range",
                        engine::config::MAX_COORDINATE
                    )
                } else {
                    format!(
                        "vertex {} does not exist (there are {})",
                        crate::doom::shown_index(bad),
                        points.len()
                    )
                };
                drop(why, w);
                continue;
            }
        };
        let front = side_sector(l.front, i, "front", w);
        let back = side_sector(l.back, i, "back", w);
        let (v1, v2, front, back) = match (front, back) {
            (Some(f), b) => (l.v1, l.v2, f, b),
            (None, Some(b)) => {
                w.add(
                    "broken linedefs",
                    format!("linedef {i}: has a back side but no front side; turned round"),
                );
                (l.v2, l.v1, b, None)
            }
            (None, None) => {
                drop("has no usable side".into(), w);
                continue;
            }
        };
        if p1 == p2 {
            drop(
                format!("zero length (both ends at ({}, {}))", p1.x, p1.y),
                w,
            );
            continue;
        }
        lines.push(Line {
            origin: i,
            v1,
            v2,
            front_side: front.0,
            back_side: back.map(|b| b.0),
            front: front.1,
            back: back.map(|b| b.1),
            flags: l.flags
                & (line_flag::BLOCKING | line_flag::DONT_PEG_TOP | line_flag::DONT_PEG_BOTTOM),
        });
    }
    lines
}

/// Opens doors and lowers lifts (see the module docs), changing the
/// heights in place.
fn move_sectors(
    level: &DoomLevel,
    lines: &[Line],
    floors: &mut [f64],
    ceilings: &mut [f64],
    opts: &ImportOptions,
    summary: &mut Summary,
) {
    let n = level.sectors.len();
    // Neighbours through two-sided lines.
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for l in lines {
        if let Some(b) = l.back {
            if b != l.front {
                neighbours[l.front].push(b);
                neighbours[b].push(l.front);
            }
        }
    }
    let mut by_tag: HashMap<i32, Vec<usize>> = HashMap::new();
    for (i, s) in level.sectors.iter().enumerate() {
        by_tag.entry(s.tag).or_default().push(i);
    }
    // The back sector of each usable line, by linedef number.
    let back_of: HashMap<usize, usize> = lines
        .iter()
        .filter_map(|l| Some((l.origin, l.back?)))
        .collect();
    let mut doors: Vec<usize> = Vec::new();
    let mut lifts: Vec<usize> = Vec::new();
    for (i, l) in level.linedefs.iter().enumerate() {
        let game_moves = specials::wall_special(level.specials, l)
            .is_some_and(|(a, _, _)| engine::format::wall_action::is_mover(a));
        if opts.movers && game_moves {
            // The game moves these: left as they are.
            continue;
        }
        let (list, target) = match specials::classify(level.specials, l.special, l.tag, &l.args) {
            Action::OpenDoor(t) => (&mut doors, t),
            Action::LowerLift(t) => (&mut lifts, t),
            _ => continue,
        };
        match target {
            Target::Back => list.extend(back_of.get(&i)),
            // Tag 0 would move every untagged sector (a vanilla bug no
            // map relies on): ignore it.
            Target::Tag(0) => {}
            Target::Tag(t) => list.extend(by_tag.get(&t).into_iter().flatten()),
        }
    }
    for list in [&mut doors, &mut lifts] {
        list.sort_unstable();
        list.dedup();
    }
    if opts.open_doors {
        // DOOM opens a door to its lowest neighbouring ceiling (at the
        // time) minus 4. Neighbouring doors open in turn, so repeat until
        // nothing changes (each round only raises ceilings: it ends).
        let mut opened = vec![false; n];
        for _ in 0..8 {
            let mut changed = false;
            for &d in &doors {
                let lowest = neighbours[d]
                    .iter()
                    .map(|&s| ceilings[s])
                    .fold(f64::INFINITY, f64::min);
                let top = lowest - 4.0;
                if lowest.is_finite() && top > ceilings[d] {
                    ceilings[d] = top;
                    opened[d] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        summary.doors_opened = opened.iter().filter(|&&o| o).count();
    }
    if opts.lower_lifts {
        let room = player::HEIGHT.to_num::<f64>();
        for &l in &lifts {
            if ceilings[l] - floors[l] >= room {
                continue;
            }
            // DOOM's lift goes down to the lowest floor around it (its
            // own included).
            let low = neighbours[l]
                .iter()
                .map(|&s| floors[s])
                .fold(floors[l], f64::min);
            if low < floors[l] {
                floors[l] = low;
                summary.lifts_lowered += 1;
            }
        }
    }
}

/// The things present in single player on the chosen skill, and the
/// player start; and the rotation sets they refer to.
fn convert_things(
    level: &DoomLevel,
    lib: &TextureLibrary,
    opts: &ImportOptions,
    packer: &mut Packer<'_>,
    w: &mut Warnings<'_>,
    summary: &mut Summary,
) -> Result<(Vec<ThingRecord>, Vec<RotationRecord>), String> {
    let skill_bit = 1u8 << (opts.skill.clamp(1, 5) - 1);
    let angle = |a: f64| {
        let a = if a.is_finite() {
            a.rem_euclid(360.0)
        } else {
            0.0
        };
        let fx = Fx::from_num(a);
        if fx >= Fx::from_num(360) {
            Fx::ZERO
        } else {
            fx
        }
    };
    // Sprite lumps that hold two frames (`SPIDA1D1`), by their first.
    let mut paired: HashMap<&str, &str> = HashMap::new();
    for name in lib.sprite_names() {
        if let Some(first) = name.get(..6).filter(|_| name.len() == 8) {
            paired.entry(first).or_insert(name);
        }
    }
    // Each table lump's rotations (0 for none), found and packed once,
    // and the distinct sets.
    let mut rotations_of: HashMap<&str, u16> = HashMap::new();
    let mut sets: Vec<RotationRecord> = Vec::new();
    let mut set_numbers: HashMap<RotationRecord, u16> = HashMap::new();
    let mut things: Vec<ThingRecord> = Vec::new();
    let mut start: Option<ThingRecord> = None;
    // A player 1 start left out for its coordinates, for the error if no
    // other is kept.
    let mut far_start: Option<usize> = None;
    // The first deathmatch start, for a map that has no player 1 start
    // (a deathmatch map).
    let mut deathmatch: Option<(usize, ThingRecord)> = None;
    let mut keys = 0;
    for (i, t) in level.things.iter().enumerate() {
        let (Some(x), Some(y)) = (to_fx(t.x), to_fx(t.y)) else {
            if t.kind == 1 {
                far_start = Some(i);
            }
            w.add(
                "broken things",
                format!(
                    "thing {i} (type {}) is outside the engine's ±{} range; left out",
                    t.kind,
                    engine::config::MAX_COORDINATE
                ),
            );
            summary.things_skipped += 1;
            continue;
        };
        // DOOM spawns player starts before looking at skill flags; with
        // several player 1 starts the last one is the player.
        if t.kind == 1 {
            start = Some(ThingRecord {
                x,
                y,
                angle: angle(t.angle),
                radius: player::RADIUS,
                kind: kind::PLAYER_START,
                type_id: 1,
                sprite: NONE,
                rotations: 0,
            });
            continue;
        }
        if t.kind == 11 && deathmatch.is_none() {
            let record = ThingRecord {
                x,
                y,
                angle: angle(t.angle),
                radius: player::RADIUS,
                kind: kind::PLAYER_START,
                type_id: 1,
                sprite: NONE,
                rotations: 0,
            };
            deathmatch = Some((i, record));
        }
        if things::is_start(t.kind) || !t.single || t.skills & skill_bit == 0 {
            summary.things_skipped += 1;
            continue;
        }
        if things.len() + 1 >= engine::config::MAX_THINGS {
            w.add(
                "broken things",
                format!(
                    "more than {} things; thing {i} and later ones are left out",
                    engine::config::MAX_THINGS
                ),
            );
            summary.things_skipped += level.things.len() - i;
            break;
        }
        let key = things::key_kind(t.kind).filter(|_| {
            keys += 1;
            if keys <= engine::config::MAX_KEY_THINGS {
                return true;
            }
            w.add(
                "broken things",
                format!(
                    "more than {} keys; thing {i} is only drawn, not picked up",
                    engine::config::MAX_KEY_THINGS
                ),
            );
            false
        });
        let (sprite, radius, name) = match things::sprite(t.kind) {
            Some((name, r)) => {
                let lump = match paired.get(name) {
                    Some(pair) if !lib.sprite_names().any(|n| n == name) => pair,
                    _ => name,
                };
                (packer.sprite(lump), Fx::from_num(r), Some(name))
            }
            None => (NONE, Fx::ZERO, None),
        };
        let rotations = match name {
            Some(name) if sprite != NONE => *rotations_of.entry(name).or_insert_with(|| {
                let Some(set) = rotation_set(name, lib, packer) else {
                    return 0;
                };
                *set_numbers.entry(set).or_insert_with(|| {
                    sets.push(set);
                    sets.len() as u16
                })
            }),
            _ => 0,
        };
        let sprite = match rotations.checked_sub(1).and_then(|i| sets.get(i as usize)) {
            // Rotation 1 (the lump the table names, or its pair's first
            // half: the same texture as `sprite` but for a rotation 1
            // only found mirrored).
            Some(set) => match set.rotation(0) {
                (front, false) => front,
                _ => sprite,
            },
            None => sprite,
        };
        things.push(ThingRecord {
            x,
            y,
            angle: angle(t.angle),
            radius,
            // A solid type without a picture (none today) has no radius
            // to block with.
            kind: if things::is_solid(t.kind) && radius > Fx::ZERO {
                kind::SOLID
            } else if let Some(k) = key {
                k
            } else if t.kind == things::TELEPORT_DESTINATION {
                kind::TELEPORT_DESTINATION
            } else {
                kind::DECORATION
            },
            type_id: t.kind.clamp(0, u16::MAX as i32) as u16,
            sprite,
            rotations,
        });
    }
    let start = match (start, deathmatch) {
        (Some(s), _) => Some(s),
        (None, Some((i, dm))) => {
            w.add(
                "misplaced things",
                format!(
                    "no player 1 start: the player starts at the first deathmatch start, thing {i} \
                     ({}, {})",
                    level.things[i].x, level.things[i].y
                ),
            );
            Some(dm)
        }
        (None, None) => None,
    };
    let Some(start) = start else {
        let why = match far_start {
            Some(i) => format!(
                ": thing {i}, at ({}, {}), is one, outside the engine's ±{} range",
                level.things[i].x,
                level.things[i].y,
                engine::config::MAX_COORDINATE
            ),
            None => String::new(),
        };
        return Err(format!(
            "error: {}: the map has no player 1 start (thing type 1){why}",
            w.map
        ));
    };
    things.insert(0, start);
    summary.things_kept = things.len();
    Ok((things, sets))
}

/// The rotation set of the frame whose rotation 1 is the lump `front`
/// (`POSSA1`), its eight textures packed, if the library has a lump for
/// every rotation and each packs.
fn rotation_set(
    front: &str,
    lib: &TextureLibrary,
    packer: &mut Packer<'_>,
) -> Option<RotationRecord> {
    let found = rotations::find(front, lib.sprite_names())?;
    let mut set = RotationRecord::default();
    for (entry, (lump, mirrored)) in set.textures.iter_mut().zip(&found) {
        let texture = packer.sprite(lump);
        if texture == NONE || texture & MIRRORED != 0 {
            return None;
        }
        *entry = if *mirrored {
            texture | MIRRORED
        } else {
            texture
        };
    }
    Some(set)
}

/// Sector outlines: walking each sector's walls with the sector on the
/// right, every vertex must be left as often as it is reached (else the
/// outline breaks off there: "not closed"), and reached at most once
/// (else the outline "touches itself"). Sides of a wall with the same
/// sector on both sides cancel out; a sector with only such walls is
/// DOOM's self-referencing trick. One warning per sector and problem,
/// naming a vertex and the linedefs that meet there.
fn check_outlines(walls: &[SourceWall], vertices: &[Vec2], sectors: usize, w: &mut Warnings<'_>) {
    // (sector, vertex) -> (leaving minus reaching, reaching, linedefs).
    let mut at: HashMap<(usize, usize), (i32, u32, Vec<usize>)> = HashMap::new();
    let mut edge = |s: usize, from: usize, to: usize, origin: usize| {
        let a = at.entry((s, from)).or_default();
        a.0 += 1;
        a.2.push(origin);
        let b = at.entry((s, to)).or_default();
        b.0 -= 1;
        b.1 += 1;
        b.2.push(origin);
    };
    // Per sector: (has walls, has a wall with another side).
    let mut kinds = vec![(false, false); sectors];
    for wall in walls {
        kinds[wall.front].0 = true;
        if wall.back == Some(wall.front) {
            continue;
        }
        kinds[wall.front].1 = true;
        if let Some(b) = wall.back {
            kinds[b] = (true, true);
        }
        edge(wall.front, wall.v1, wall.v2, wall.origin);
        if let Some(b) = wall.back {
            edge(b, wall.v2, wall.v1, wall.origin);
        }
    }
    let mut open: Vec<Vec<(usize, Vec<usize>)>> = vec![Vec::new(); sectors];
    let mut touching: Vec<Vec<(usize, Vec<usize>)>> = vec![Vec::new(); sectors];
    let mut keys: Vec<&(usize, usize)> = at.keys().collect();
    keys.sort_unstable();
    for key in keys {
        let (balance, reached, lines) = &at[key];
        let (s, v) = *key;
        let mut lines = lines.clone();
        lines.sort_unstable();
        lines.dedup();
        if *balance != 0 {
            open[s].push((v, lines));
        } else if *reached >= 2 {
            touching[s].push((v, lines));
        }
    }
    let describe = |list: &[(usize, Vec<usize>)]| {
        let (v, lines) = &list[0];
        let p = vertices[*v];
        let names: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let more = match list.len() {
            1 => String::new(),
            2 => " and 1 other point".to_string(),
            n => format!(" and {} other points", n - 1),
        };
        format!("({}, {}) (linedefs {}){more}", p.x, p.y, names.join(", "))
    };
    for s in 0..sectors {
        if kinds[s] == (true, false) {
            w.add(
                "self-referencing sectors",
                format!(
                    "sector {s} refers only to itself (every line around it has it on both \
                     sides): DOOM draws such a sector as its surroundings, a trick for deep \
                     water and invisible bridges; here it is drawn as what it is"
                ),
            );
        }
        if !open[s].is_empty() {
            w.add(
                "unclosed sectors",
                format!(
                    "sector {s} is not closed: its outline breaks off at {}",
                    describe(&open[s])
                ),
            );
        }
        if !touching[s].is_empty() {
            w.add(
                "self-touching sectors",
                format!("sector {s} touches itself at {}", describe(&touching[s])),
            );
        }
    }
}

/// Warns when the player start is outside every sector.
/// The player start must stand in a sector: outside every one the player
/// would walk in the void.
fn check_start(bytes: &[u8], map: &str) -> Result<(), String> {
    let Ok(level) = engine::world::Level::load(bytes) else {
        return Ok(());
    };
    let s = level.map().player_start();
    if level.locate(Vec2::new(s.x, s.y)).is_none() {
        return Err(format!(
            "error: {map}: the player start ({}, {}) is outside every sector",
            s.x, s.y
        ));
    }
    Ok(())
}

/// A WAD opened for importing its maps: the directory and the texture
/// library (read once, shared by every map).
pub struct WadSource<'a> {
    wad: crate::wad::Wad<'a>,
    lib: TextureLibrary,
    /// Problems with the WADs' textures, palette and so on (not with any
    /// one map).
    pub warnings: Vec<String>,
}

/// A map's lump sizes in its WAD.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LumpBytes {
    /// `VERTEXES`, `LINEDEFS`, `SIDEDEFS`, `SECTORS` and `THINGS` (or
    /// `TEXTMAP`): what an editor edits.
    pub editable: usize,
    /// Every lump of the map, the node builder's (`SEGS`, `SSECTORS`,
    /// `NODES`, `BLOCKMAP`, `REJECT`, ...) included.
    pub all: usize,
}

impl<'a> WadSource<'a> {
    /// Opens `wad`; textures come from `iwad` (if given) with the WAD's
    /// own on top, as a source port loads a PWAD.
    pub fn new(wad: &'a [u8], iwad: Option<&[u8]>) -> Result<Self, String> {
        let wad = crate::wad::Wad::parse(wad).map_err(|e| e.to_string())?;
        let iwad = iwad
            .map(crate::wad::Wad::parse)
            .transpose()
            .map_err(|e| format!("the IWAD: {e}"))?;
        let (lib, warnings) = match &iwad {
            Some(i) => TextureLibrary::from_wads(&[i, &wad]),
            None => TextureLibrary::from_wad(&wad),
        };
        Ok(WadSource { wad, lib, warnings })
    }

    /// The WAD.
    pub fn wad(&self) -> &crate::wad::Wad<'a> {
        &self.wad
    }

    /// The texture library.
    pub fn library(&self) -> &TextureLibrary {
        &self.lib
    }

    /// Its maps, in directory order.
    pub fn maps(&self) -> Vec<crate::wad::MapEntry> {
        self.wad.maps()
    }

    /// The map called `name` (case-insensitive), or an error listing the
    /// maps there are.
    pub fn map(&self, name: &str) -> Result<crate::wad::MapEntry, String> {
        self.wad.map(name).ok_or_else(|| {
            let names: Vec<String> = self.maps().into_iter().map(|m| m.name).collect();
            if names.is_empty() {
                format!(
                    "there is no map {} (the WAD has no maps)",
                    name.to_ascii_uppercase()
                )
            } else {
                format!(
                    "there is no map {}; the maps are: {}",
                    name.to_ascii_uppercase(),
                    names.join(" ")
                )
            }
        })
    }

    /// Reads and compiles `map`.
    pub fn compile(
        &self,
        map: &crate::wad::MapEntry,
        opts: &ImportOptions,
    ) -> Result<Imported, String> {
        let level = crate::doom::read_map(&self.wad, map)
            .map_err(|e| format!("error: {}: {e}", map.name))?;
        import(&level, &map.name, &self.lib, opts)
    }

    /// The sizes of `map`'s lumps.
    pub fn lump_bytes(&self, map: &crate::wad::MapEntry) -> LumpBytes {
        let lumps = &self.wad.lumps()[map.lumps.clone()];
        const EDITABLE: [&str; 6] = [
            "VERTEXES", "LINEDEFS", "SIDEDEFS", "SECTORS", "THINGS", "TEXTMAP",
        ];
        LumpBytes {
            editable: lumps
                .iter()
                .filter(|l| EDITABLE.contains(&l.name.as_str()))
                .map(|l| l.size)
                .sum(),
            all: lumps.iter().map(|l| l.size).sum(),
        }
    }
}

/// Whether `bytes` look like UDMF text rather than our text format: the
/// first word (after white space and `//` or `/* */` comments) is followed
/// by `=` or `{`, which never happens in our format.
pub fn looks_like_udmf(bytes: &[u8]) -> bool {
    let mut i = 0;
    let skip = |mut i: usize| loop {
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(c), _) if c.is_ascii_whitespace() => i += 1,
            (Some(b'/'), Some(b'/')) => {
                while bytes.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
            }
            (Some(b'/'), Some(b'*')) => {
                i += 2;
                while i < bytes.len() && !bytes[i..].starts_with(b"*/") {
                    i += 1;
                }
                i += 2;
            }
            _ => return i,
        }
    };
    i = skip(i);
    let start = i;
    while bytes
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        i += 1;
    }
    if i == start {
        return false;
    }
    matches!(bytes.get(skip(i)), Some(b'=' | b'{'))
}

/// Compiles a standalone UDMF text (`name` in messages) with textures
/// from `iwad`; without one, every texture is a placeholder (one warning
/// says so).
pub fn compile_udmf(
    text: &[u8],
    name: &str,
    iwad: Option<&[u8]>,
    opts: &ImportOptions,
) -> Result<Imported, String> {
    let level = crate::doom::udmf::parse_bytes(text).map_err(|e| format!("error: {name}:{e}"))?;
    let (lib, mut lib_warnings) = match iwad {
        Some(b) => {
            let wad = crate::wad::Wad::parse(b).map_err(|e| format!("error: the IWAD: {e}"))?;
            TextureLibrary::from_wad(&wad)
        }
        None => (TextureLibrary::empty(), Vec::new()),
    };
    let title = std::path::Path::new(name)
        .file_stem()
        .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned());
    let mut imported = import(&level, &title, &lib, opts)?;
    lib_warnings.append(&mut imported.warnings);
    imported.warnings = lib_warnings;
    Ok(imported)
}

#[cfg(test)]
mod tests;
