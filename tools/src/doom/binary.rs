//! The binary map lumps, DOOM's and Hexen's (little-endian records).
//!
//! | lump       | DOOM record                                          | Hexen record |
//! |------------|------------------------------------------------------|--------------|
//! | `VERTEXES` | 4: x, y: i16                                          | same |
//! | `LINEDEFS` | 14: v1, v2, flags, special, tag, front, back: u16     | 16: v1, v2, flags: u16; special, args: 5 x u8; front, back: u16 |
//! | `SIDEDEFS` | 30: x, y offset: i16; upper, lower, middle: [u8; 8]; sector: u16 | same |
//! | `SECTORS`  | 26: floor, ceiling: i16; floor, ceiling flat: [u8; 8]; light: i16; special, tag: u16 | same |
//! | `THINGS`   | 10: x, y, angle: i16; type, flags: u16                | 20: tid: u16; x, y, z, angle: i16; type, flags: u16; special, args: 5 x u8 |
//!
//! A sidedef index of `0xFFFF` means "no side". Indices are kept as
//! written (vertex and sector numbers are unsigned, as Boom reads them);
//! the importer checks them. A lump whose length is not a whole number of
//! records loses its partial last record, with a warning.

use super::{
    texture_name, DoomBsp, DoomLevel, DoomNode, DoomSeg, Linedef, ParseError, Sector, Sidedef,
    SourceFormat, SpecialSet, Thing, Vertex,
};
use crate::wad::{MapEntry, Wad};

/// Bytes per record.
pub mod size {
    /// A vertex.
    pub const VERTEX: usize = 4;
    /// A DOOM linedef.
    pub const LINEDEF: usize = 14;
    /// A Hexen linedef.
    pub const HEXEN_LINEDEF: usize = 16;
    /// A sidedef.
    pub const SIDEDEF: usize = 30;
    /// A sector.
    pub const SECTOR: usize = 26;
    /// A DOOM thing.
    pub const THING: usize = 10;
    /// A Hexen thing.
    pub const HEXEN_THING: usize = 20;
    /// A seg.
    pub const SEG: usize = 12;
    /// A subsector.
    pub const SUBSECTOR: usize = 4;
    /// A node.
    pub const NODE: usize = 28;
}

/// DOOM thing flag bits (`MTF_*`).
pub mod thing_flag {
    /// Skills 1 and 2.
    pub const EASY: u16 = 1;
    /// Skill 3.
    pub const NORMAL: u16 = 2;
    /// Skills 4 and 5.
    pub const HARD: u16 = 4;
    /// DOOM: only in multiplayer games.
    pub const NOT_SINGLE: u16 = 16;
    /// Hexen: present in single-player games.
    pub const HEXEN_SINGLE: u16 = 256;
}

/// The "no sidedef" index.
pub const NO_SIDE: u16 = 0xFFFF;

fn u16_at(b: &[u8], at: usize) -> u16 {
    match b.get(at..at + 2) {
        Some(&[lo, hi]) => u16::from_le_bytes([lo, hi]),
        _ => 0,
    }
}

fn i16_at(b: &[u8], at: usize) -> i16 {
    u16_at(b, at) as i16
}

/// The whole records of `bytes`, warning about a partial last one.
fn records<'b>(
    bytes: &'b [u8],
    record: usize,
    lump: &str,
    warnings: &mut Vec<String>,
) -> std::slice::ChunksExact<'b, u8> {
    let rest = bytes.len() % record;
    if rest != 0 {
        warnings.push(format!(
            "{lump} is {} bytes, not a whole number of {record}-byte records: the last {rest} \
             bytes are ignored",
            bytes.len()
        ));
    }
    bytes.chunks_exact(record)
}

/// Which of DOOM's skill bits give which of our five skills.
fn skills_from_doom_flags(flags: u16) -> u8 {
    let mut s = 0;
    if flags & thing_flag::EASY != 0 {
        s |= 0b00011;
    }
    if flags & thing_flag::NORMAL != 0 {
        s |= 0b00100;
    }
    if flags & thing_flag::HARD != 0 {
        s |= 0b11000;
    }
    s
}

/// The lumps of one binary map, as bytes: what [`parse`] reads.
#[derive(Copy, Clone, Debug, Default)]
pub struct MapLumps<'a> {
    /// `VERTEXES`.
    pub vertexes: Option<&'a [u8]>,
    /// `LINEDEFS`.
    pub linedefs: Option<&'a [u8]>,
    /// `SIDEDEFS`.
    pub sidedefs: Option<&'a [u8]>,
    /// `SECTORS`.
    pub sectors: Option<&'a [u8]>,
    /// `THINGS`.
    pub things: Option<&'a [u8]>,
    /// `BEHAVIOR`: present means Hexen format.
    pub behavior: Option<&'a [u8]>,
    /// `SEGS`, `SSECTORS` and `NODES`: the node builder's BSP, if any.
    pub segs: Option<&'a [u8]>,
    /// See `segs`.
    pub ssectors: Option<&'a [u8]>,
    /// See `segs`.
    pub nodes: Option<&'a [u8]>,
}

/// Reads map `map` of `wad`.
pub fn read(wad: &Wad<'_>, map: &MapEntry) -> Result<DoomLevel, ParseError> {
    let lump = |name| wad.map_lump(map, name);
    parse(&MapLumps {
        vertexes: lump("VERTEXES"),
        linedefs: lump("LINEDEFS"),
        sidedefs: lump("SIDEDEFS"),
        sectors: lump("SECTORS"),
        things: lump("THINGS"),
        behavior: lump("BEHAVIOR"),
        segs: lump("SEGS"),
        ssectors: lump("SSECTORS"),
        nodes: lump("NODES"),
    })
}

/// Whether a `BEHAVIOR` lump holds any compiled ACS. An empty ACS object
/// (no scripts, no strings) is 16 bytes; anything longer has content.
pub fn has_scripts(behavior: &[u8]) -> bool {
    behavior.len() > 16
}

/// Parses the lumps of a binary map. Fails only when a lump the geometry
/// needs is missing; everything else becomes a warning.
pub fn parse(lumps: &MapLumps<'_>) -> Result<DoomLevel, ParseError> {
    let hexen = lumps.behavior.is_some();
    let mut level = if hexen {
        DoomLevel::new(SourceFormat::Hexen, SpecialSet::Hexen)
    } else {
        DoomLevel::new(SourceFormat::Doom, SpecialSet::Doom)
    };
    if lumps.behavior.is_some_and(has_scripts) {
        level.uses(super::Feature::Scripts);
    }
    fn need<'b>(lump: Option<&'b [u8]>, name: &'static str) -> Result<&'b [u8], ParseError> {
        lump.ok_or(ParseError::Lump {
            lump: name,
            message: "missing: the map has no such lump".into(),
        })
    }
    let vertexes = need(lumps.vertexes, "VERTEXES")?;
    let linedefs = need(lumps.linedefs, "LINEDEFS")?;
    let sidedefs = need(lumps.sidedefs, "SIDEDEFS")?;
    let sectors = need(lumps.sectors, "SECTORS")?;
    let things = lumps.things.unwrap_or_else(|| {
        level
            .warnings
            .push("THINGS is missing: the map has no things (and no player start)".into());
        &[]
    });
    let w = &mut level.warnings;

    level.vertices = records(vertexes, size::VERTEX, "VERTEXES", w)
        .map(|r| Vertex {
            x: i16_at(r, 0) as f64,
            y: i16_at(r, 2) as f64,
        })
        .collect();

    let side = |v: u16| (v != NO_SIDE).then_some(v as usize);
    level.linedefs = if hexen {
        records(linedefs, size::HEXEN_LINEDEF, "LINEDEFS", w)
            .map(|r| {
                let args = [r[7], r[8], r[9], r[10], r[11]].map(i32::from);
                Linedef {
                    v1: u16_at(r, 0) as usize,
                    v2: u16_at(r, 2) as usize,
                    // Above DOOM's nine bits, Hexen's repeat and
                    // activation bits; the rest mean nothing here.
                    flags: u16_at(r, 4)
                        & (0x1FF
                            | crate::doom::line_flag::REPEAT
                            | crate::doom::line_flag::ACTIVATION),
                    special: r[6] as i32,
                    tag: args[0],
                    args,
                    front: side(u16_at(r, 12)),
                    back: side(u16_at(r, 14)),
                }
            })
            .collect()
    } else {
        records(linedefs, size::LINEDEF, "LINEDEFS", w)
            .map(|r| {
                let tag = u16_at(r, 8) as i32;
                Linedef {
                    v1: u16_at(r, 0) as usize,
                    v2: u16_at(r, 2) as usize,
                    flags: u16_at(r, 4),
                    special: u16_at(r, 6) as i32,
                    tag,
                    args: [tag, 0, 0, 0, 0],
                    front: side(u16_at(r, 10)),
                    back: side(u16_at(r, 12)),
                }
            })
            .collect()
    };

    level.sidedefs = records(sidedefs, size::SIDEDEF, "SIDEDEFS", w)
        .map(|r| Sidedef {
            x_offset: i16_at(r, 0) as f64,
            y_offset: i16_at(r, 2) as f64,
            upper: texture_name(&r[4..12]),
            lower: texture_name(&r[12..20]),
            middle: texture_name(&r[20..28]),
            sector: u16_at(r, 28) as usize,
        })
        .collect();

    level.sectors = records(sectors, size::SECTOR, "SECTORS", w)
        .map(|r| Sector {
            floor: i16_at(r, 0) as f64,
            ceiling: i16_at(r, 2) as f64,
            floor_texture: texture_name(&r[4..12]),
            ceiling_texture: texture_name(&r[12..20]),
            light: i16_at(r, 20) as i32,
            special: u16_at(r, 22) as i32,
            tag: u16_at(r, 24) as i32,
        })
        .collect();

    level.things = if hexen {
        records(things, size::HEXEN_THING, "THINGS", w)
            .map(|r| {
                // tid 0, x 2, y 4, z 6, angle 8, type 10, flags 12, then
                // the special and its five arguments.
                let flags = u16_at(r, 12);
                Thing {
                    x: i16_at(r, 2) as f64,
                    y: i16_at(r, 4) as f64,
                    angle: i16_at(r, 8) as f64,
                    kind: u16_at(r, 10) as i32,
                    skills: skills_from_doom_flags(flags),
                    single: flags & thing_flag::HEXEN_SINGLE != 0,
                }
            })
            .collect()
    } else {
        records(things, size::THING, "THINGS", w)
            .map(|r| {
                let flags = u16_at(r, 8);
                Thing {
                    x: i16_at(r, 0) as f64,
                    y: i16_at(r, 2) as f64,
                    angle: i16_at(r, 4) as f64,
                    kind: u16_at(r, 6) as i32,
                    skills: skills_from_doom_flags(flags),
                    single: flags & thing_flag::NOT_SINGLE == 0,
                }
            })
            .collect()
    };
    level.bsp = read_bsp(lumps);
    Ok(level)
}

/// The node builder's BSP in DOOM's own format, if the map has one whose
/// lumps are whole records. ZDoom's extended and GL nodes (a `NODES` lump
/// that starts with their signature) are not read: such a map goes without.
fn read_bsp(lumps: &MapLumps<'_>) -> Option<DoomBsp> {
    let (segs, ssectors, nodes) = (lumps.segs?, lumps.ssectors?, lumps.nodes?);
    let extended = [
        b"XNOD", b"ZNOD", b"XGLN", b"ZGLN", b"XGL2", b"ZGL2", b"XGL3", b"ZGL3",
    ];
    if extended.iter().any(|sig| nodes.starts_with(*sig))
        || ssectors.is_empty()
        || segs.len() % size::SEG != 0
        || ssectors.len() % size::SUBSECTOR != 0
        || nodes.len() % size::NODE != 0
    {
        return None;
    }
    let i16s = |r: &[u8], at: usize| i16_at(r, at);
    Some(DoomBsp {
        segs: segs
            .chunks_exact(size::SEG)
            .map(|r| DoomSeg {
                v1: u16_at(r, 0) as usize,
                v2: u16_at(r, 2) as usize,
                linedef: u16_at(r, 6) as usize,
                side: u16_at(r, 8),
            })
            .collect(),
        subsectors: ssectors
            .chunks_exact(size::SUBSECTOR)
            .map(|r| (u16_at(r, 0), u16_at(r, 2)))
            .collect(),
        nodes: nodes
            .chunks_exact(size::NODE)
            .map(|r| DoomNode {
                x: i16s(r, 0),
                y: i16s(r, 2),
                dx: i16s(r, 4),
                dy: i16s(r, 6),
                bbox: [
                    [i16s(r, 8), i16s(r, 10), i16s(r, 12), i16s(r, 14)],
                    [i16s(r, 16), i16s(r, 18), i16s(r, 20), i16s(r, 22)],
                ],
                child: [u16_at(r, 24), u16_at(r, 26)],
            })
            .collect(),
    })
}

/// Encoders for tests and tools that write binary lumps (the inverse of
/// [`parse`] for DOOM-format records).
pub mod write {
    use super::NO_SIDE;

    fn name8(out: &mut Vec<u8>, name: &str) {
        let mut n = [0u8; 8];
        for (d, s) in n.iter_mut().zip(name.bytes()) {
            *d = s;
        }
        out.extend_from_slice(&n);
    }

    /// One `VERTEXES` record.
    pub fn vertex(out: &mut Vec<u8>, x: i16, y: i16) {
        out.extend_from_slice(&x.to_le_bytes());
        out.extend_from_slice(&y.to_le_bytes());
    }

    /// One DOOM `LINEDEFS` record (`None` sides become `0xFFFF`).
    #[allow(clippy::too_many_arguments)]
    pub fn linedef(
        out: &mut Vec<u8>,
        v1: u16,
        v2: u16,
        flags: u16,
        special: u16,
        tag: u16,
        front: Option<u16>,
        back: Option<u16>,
    ) {
        for v in [
            v1,
            v2,
            flags,
            special,
            tag,
            front.unwrap_or(NO_SIDE),
            back.unwrap_or(NO_SIDE),
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// One `SIDEDEFS` record.
    pub fn sidedef(
        out: &mut Vec<u8>,
        x: i16,
        y: i16,
        upper: &str,
        lower: &str,
        middle: &str,
        sector: u16,
    ) {
        out.extend_from_slice(&x.to_le_bytes());
        out.extend_from_slice(&y.to_le_bytes());
        name8(out, upper);
        name8(out, lower);
        name8(out, middle);
        out.extend_from_slice(&sector.to_le_bytes());
    }

    /// One `SECTORS` record.
    #[allow(clippy::too_many_arguments)]
    pub fn sector(
        out: &mut Vec<u8>,
        floor: i16,
        ceiling: i16,
        floor_flat: &str,
        ceiling_flat: &str,
        light: i16,
        special: u16,
        tag: u16,
    ) {
        out.extend_from_slice(&floor.to_le_bytes());
        out.extend_from_slice(&ceiling.to_le_bytes());
        name8(out, floor_flat);
        name8(out, ceiling_flat);
        out.extend_from_slice(&light.to_le_bytes());
        out.extend_from_slice(&special.to_le_bytes());
        out.extend_from_slice(&tag.to_le_bytes());
    }

    /// One DOOM `THINGS` record.
    pub fn thing(out: &mut Vec<u8>, x: i16, y: i16, angle: i16, kind: u16, flags: u16) {
        for v in [x as u16, y as u16, angle as u16, kind, flags] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// VERTEXES, LINEDEFS, SIDEDEFS, SECTORS, THINGS.
    type Lumps = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

    fn room_lumps() -> Lumps {
        let (mut v, mut l, mut s, mut sec, mut t) = (vec![], vec![], vec![], vec![], vec![]);
        for (x, y) in [(0, 0), (0, 128), (128, 128), (128, 0)] {
            write::vertex(&mut v, x, y);
        }
        for i in 0..4u16 {
            write::linedef(&mut l, i, (i + 1) % 4, 1, 0, 0, Some(i), None);
            write::sidedef(&mut s, 0, 0, "-", "-", "STARTAN3", 0);
        }
        write::sector(&mut sec, 0, 128, "FLOOR4_8", "CEIL3_5", 160, 0, 0);
        write::thing(&mut t, 64, 64, 90, 1, 7);
        (v, l, s, sec, t)
    }

    fn lumps<'a>(
        v: &'a [u8],
        l: &'a [u8],
        s: &'a [u8],
        sec: &'a [u8],
        t: &'a [u8],
    ) -> MapLumps<'a> {
        MapLumps {
            vertexes: Some(v),
            linedefs: Some(l),
            sidedefs: Some(s),
            sectors: Some(sec),
            things: Some(t),
            ..MapLumps::default()
        }
    }

    #[test]
    fn reads_a_room() {
        let (v, l, s, sec, t) = room_lumps();
        let level = parse(&lumps(&v, &l, &s, &sec, &t)).unwrap();
        assert_eq!(level.vertices.len(), 4);
        assert_eq!(level.vertices[1], Vertex { x: 0.0, y: 128.0 });
        assert_eq!(level.linedefs[3].v2, 0);
        assert_eq!(level.linedefs[0].front, Some(0));
        assert_eq!(level.linedefs[0].back, None);
        assert_eq!(level.sidedefs[2].middle, "STARTAN3");
        assert_eq!(level.sidedefs[2].upper, "-");
        assert_eq!(level.sectors[0].ceiling_texture, "CEIL3_5");
        assert_eq!(level.sectors[0].light, 160);
        assert_eq!(level.things[0].kind, 1);
        assert_eq!(level.things[0].skills, 0b11111);
        assert!(level.things[0].single);
        assert!(level.warnings.is_empty());
        assert_eq!(level.specials, SpecialSet::Doom);
    }

    #[test]
    fn truncated_lumps_lose_their_partial_record_with_a_warning() {
        let (v, l, s, sec, t) = room_lumps();
        for cut in 1..size::LINEDEF {
            let level = parse(&lumps(&v, &l[..l.len() - cut], &s, &sec, &t)).unwrap();
            assert_eq!(level.linedefs.len(), 3);
            assert_eq!(level.warnings.len(), 1, "{:?}", level.warnings);
            assert!(
                level.warnings[0].contains("LINEDEFS"),
                "{:?}",
                level.warnings
            );
        }
        // Every prefix of every lump parses (or names the missing lump).
        let all = [&v, &l, &s, &sec, &t];
        for which in 0..5 {
            for n in 0..=all[which].len() {
                let mut parts: Vec<&[u8]> = all.iter().map(|x| x.as_slice()).collect();
                parts[which] = &all[which][..n];
                let _ = parse(&lumps(parts[0], parts[1], parts[2], parts[3], parts[4])).unwrap();
            }
        }
    }

    #[test]
    fn missing_lumps_are_errors_except_things() {
        let (v, l, s, sec, t) = room_lumps();
        let mut m = lumps(&v, &l, &s, &sec, &t);
        m.things = None;
        let level = parse(&m).unwrap();
        assert!(level.things.is_empty());
        assert!(level.warnings[0].contains("THINGS"));
        m.sidedefs = None;
        let e = parse(&m).unwrap_err();
        assert!(e.to_string().starts_with("SIDEDEFS: missing"), "{e}");
    }

    #[test]
    fn out_of_range_indices_are_kept_for_the_importer() {
        let (v, _, s, sec, t) = room_lumps();
        let mut l = Vec::new();
        write::linedef(&mut l, 9999, 65535, 0, 0, 0, Some(500), Some(0xFFFE));
        let level = parse(&lumps(&v, &l, &s, &sec, &t)).unwrap();
        let line = &level.linedefs[0];
        assert_eq!(
            (line.v1, line.v2, line.front, line.back),
            (9999, 65535, Some(500), Some(0xFFFE))
        );
    }

    #[test]
    fn skill_and_mode_flags() {
        let (v, l, s, sec, _) = room_lumps();
        let mut t = Vec::new();
        write::thing(&mut t, 0, 0, 0, 3004, 2); // skill 3 only
        write::thing(&mut t, 0, 0, 0, 3004, 4 | 16); // hard, multiplayer only
        let level = parse(&lumps(&v, &l, &s, &sec, &t)).unwrap();
        assert_eq!(level.things[0].skills, 0b00100);
        assert!(level.things[0].single);
        assert_eq!(level.things[1].skills, 0b11000);
        assert!(!level.things[1].single);
    }

    #[test]
    fn hexen_format_is_recognised_by_its_behavior_lump() {
        let (v, _, s, sec, _) = room_lumps();
        let mut l = Vec::new();
        // v1 0, v2 1, flags 0x201 (blocking + repeat), Door_Raise tag 7.
        for x in [0u16, 1, 0x201] {
            l.extend_from_slice(&x.to_le_bytes());
        }
        l.extend_from_slice(&[12, 7, 16, 150, 0, 0]);
        l.extend_from_slice(&0u16.to_le_bytes());
        l.extend_from_slice(&NO_SIDE.to_le_bytes());
        // Two things: a player start in single-player games at every
        // skill, and an imp (3001) in multiplayer games only, skills 4 and
        // 5, each with a special and arguments after its flags.
        let mut t = vec![0u8; 40];
        let thing = |t: &mut [u8], kind: u16, flags: u16| {
            t[2..4].copy_from_slice(&64i16.to_le_bytes());
            t[10..12].copy_from_slice(&kind.to_le_bytes());
            t[12..14].copy_from_slice(&flags.to_le_bytes());
            t[14..20].copy_from_slice(&[80, 1, 2, 3, 4, 5]);
        };
        thing(&mut t[..20], 1, 256 | 7);
        thing(&mut t[20..], 3001, 512 | 1024 | 4);
        let mut m = lumps(&v, &l, &s, &sec, &t);
        m.behavior = Some(b"ACS\0\x08\0\0\0\0\0\0\0\0\0\0\0");
        let level = parse(&m).unwrap();
        assert_eq!(level.format, SourceFormat::Hexen);
        assert_eq!(level.specials, SpecialSet::Hexen);
        let line = &level.linedefs[0];
        // The repeat bit is kept: Hexen's specials read it.
        assert_eq!((line.flags, line.special, line.tag), (0x201, 12, 7));
        assert_eq!(line.args, [7, 16, 150, 0, 0]);
        assert_eq!(line.back, None);
        assert_eq!(level.things.len(), 2);
        let (start, imp) = (&level.things[0], &level.things[1]);
        assert_eq!(
            (start.kind, start.x, start.skills, start.single),
            (1, 64.0, 0b11111, true)
        );
        assert_eq!((imp.kind, imp.skills, imp.single), (3001, 0b11000, false));
        assert!(
            level.features.is_empty(),
            "an empty BEHAVIOR has no scripts"
        );
    }
}
