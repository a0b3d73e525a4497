//! DOOM's thing types (doomednums) that have a sprite: the sprite a still
//! picture of the thing uses, and its radius (from DOOM's `mobjinfo`).
//!
//! Monsters show rotation 1 of their first frame (`POSSA1`: facing the
//! viewer); items and decorations frame `A0` (one picture for all
//! angles); corpses their last frame. Types not listed (teleport
//! destinations, spawn spots, other games' things) have no sprite.

/// `(doomednum, sprite lump, radius)`.
const TABLE: &[(i32, &str, u8)] = &[
    // Monsters.
    (3004, "POSSA1", 20),
    (9, "SPOSA1", 20),
    (65, "CPOSA1", 20),
    (3001, "TROOA1", 20),
    (3002, "SARGA1", 30),
    (58, "SARGA1", 30),
    (3006, "SKULA1", 16),
    (3005, "HEADA1", 31),
    (3003, "BOSSA1", 24),
    (69, "BOS2A1", 24),
    (68, "BSPIA1", 64),
    (71, "PAINA1", 31),
    (66, "SKELA1", 20),
    (67, "FATTA1", 48),
    (64, "VILEA1", 20),
    (16, "CYBRA1", 40),
    (7, "SPIDA1", 128),
    (84, "SSWVA1", 20),
    (72, "KEENA0", 16),
    (88, "BBRNA0", 16),
    // Weapons.
    (2005, "CSAWA0", 20),
    (2001, "SHOTA0", 20),
    (82, "SGN2A0", 20),
    (2002, "MGUNA0", 20),
    (2003, "LAUNA0", 20),
    (2004, "PLASA0", 20),
    (2006, "BFUGA0", 20),
    // Ammunition.
    (2007, "CLIPA0", 20),
    (2048, "AMMOA0", 20),
    (2008, "SHELA0", 20),
    (2049, "SBOXA0", 20),
    (2010, "ROCKA0", 20),
    (2046, "BROKA0", 20),
    (2047, "CELLA0", 20),
    (17, "CELPA0", 20),
    (8, "BPAKA0", 20),
    // Health, armour, power-ups.
    (2011, "STIMA0", 20),
    (2012, "MEDIA0", 20),
    (2014, "BON1A0", 20),
    (2015, "BON2A0", 20),
    (2018, "ARM1A0", 20),
    (2019, "ARM2A0", 20),
    (2013, "SOULA0", 20),
    (83, "MEGAA0", 20),
    (2022, "PINVA0", 20),
    (2023, "PSTRA0", 20),
    (2024, "PINSA0", 20),
    (2025, "SUITA0", 20),
    (2026, "PMAPA0", 20),
    (2045, "PVISA0", 20),
    // Keys.
    (5, "BKEYA0", 20),
    (40, "BSKUA0", 20),
    (13, "RKEYA0", 20),
    (38, "RSKUA0", 20),
    (6, "YKEYA0", 20),
    (39, "YSKUA0", 20),
    // Obstacles and lights.
    (2035, "BAR1A0", 10),
    (70, "FCANA0", 10),
    (43, "TRE1A0", 16),
    (47, "SMITA0", 16),
    (54, "TRE2A0", 32),
    (2028, "COLUA0", 16),
    (85, "TLMPA0", 16),
    (86, "TLP2A0", 16),
    (34, "CANDA0", 20),
    (35, "CBRAA0", 16),
    (44, "TBLUA0", 16),
    (45, "TGRNA0", 16),
    (46, "TREDA0", 16),
    (55, "SMBTA0", 16),
    (56, "SMGTA0", 16),
    (57, "SMRTA0", 16),
    (48, "ELECA0", 16),
    (30, "COL1A0", 16),
    (31, "COL2A0", 16),
    (32, "COL3A0", 16),
    (33, "COL4A0", 16),
    (36, "COL5A0", 16),
    (37, "COL6A0", 16),
    (41, "CEYEA0", 16),
    (42, "FSKUA0", 16),
    // Hanging and impaled bodies.
    (49, "GOR1A0", 16),
    (50, "GOR2A0", 16),
    (51, "GOR3A0", 16),
    (52, "GOR4A0", 16),
    (53, "GOR5A0", 16),
    (59, "GOR2A0", 20),
    (60, "GOR4A0", 20),
    (61, "GOR3A0", 20),
    (62, "GOR5A0", 20),
    (63, "GOR1A0", 20),
    (73, "HDB1A0", 16),
    (74, "HDB2A0", 16),
    (75, "HDB3A0", 16),
    (76, "HDB4A0", 16),
    (77, "HDB5A0", 16),
    (78, "HDB6A0", 16),
    (25, "POL1A0", 16),
    (26, "POL6A0", 16),
    (27, "POL4A0", 16),
    (28, "POL2A0", 16),
    (29, "POL3A0", 16),
    // Corpses and gore.
    (10, "PLAYW0", 20),
    (12, "PLAYW0", 20),
    (15, "PLAYN0", 20),
    (18, "POSSL0", 20),
    (19, "SPOSL0", 20),
    (20, "TROOM0", 20),
    (21, "SARGN0", 20),
    (22, "HEADL0", 20),
    (24, "POL5A0", 20),
    (79, "POB1A0", 20),
    (80, "POB2A0", 20),
    (81, "BRS1A0", 20),
];

/// The sprite lump (frame and rotation included, e.g. `BAR1A0`) and
/// radius of thing type `kind`, if it is one of DOOM's with a picture.
pub fn sprite(kind: i32) -> Option<(&'static str, u8)> {
    TABLE
        .iter()
        .find(|(k, _, _)| *k == kind)
        .map(|&(_, s, r)| (s, r))
}

/// The thing types DOOM makes solid (`MF_SOLID` in `mobjinfo`): every
/// monster, and the columns, lamps, torches, trees, barrels, impaled and
/// hanging bodies; not items, corpses, pools of blood, the candle or the
/// hanging bodies DOOM has in a second, walk-through version (59-63).
const SOLID: &[i32] = &[
    // Monsters.
    3004, 9, 65, 3001, 3002, 58, 3006, 3005, 3003, 69, 68, 71, 66, 67, 64, 16, 7, 84, 72, 88,
    // Obstacles and lights.
    2035, 70, 43, 47, 54, 2028, 85, 86, 35, 44, 45, 46, 55, 56, 57, 48, 30, 31, 32, 33, 36, 37, 41,
    42, // Hanging and impaled bodies.
    49, 50, 51, 52, 53, 73, 74, 75, 76, 77, 78, 25, 26, 27, 28, 29,
];

/// DOOM's teleport destination (`MT_TELEPORTMAN`).
pub const TELEPORT_DESTINATION: i32 = 14;

/// The engine's key kind for DOOM's keycards (5 blue, 6 yellow, 13 red)
/// and skull keys (40 blue, 39 yellow, 38 red), or `None`.
pub fn key_kind(kind: i32) -> Option<u16> {
    use engine::format::kind::*;
    Some(match kind {
        5 => BLUE_CARD,
        6 => YELLOW_CARD,
        13 => RED_CARD,
        40 => BLUE_SKULL,
        39 => YELLOW_SKULL,
        38 => RED_SKULL,
        _ => return None,
    })
}

/// Whether DOOM's thing type `kind` blocks the player (see [`SOLID`]).
pub fn is_solid(kind: i32) -> bool {
    SOLID.contains(&kind)
}

/// Player starts (1-4) and deathmatch starts (11): never entities.
pub fn is_start(kind: i32) -> bool {
    matches!(kind, 1..=4 | 11)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sane() {
        for (i, (k, s, r)) in TABLE.iter().enumerate() {
            assert_eq!(s.len(), 6, "{s}");
            assert!(*r > 0);
            assert!(!TABLE[..i].iter().any(|(k2, _, _)| k2 == k), "{k} twice");
        }
        assert_eq!(sprite(2035), Some(("BAR1A0", 10)));
        assert_eq!(sprite(14), None);
        assert!(is_start(1) && is_start(11) && !is_start(5));
        // Every solid type has a picture and a radius; none is listed twice.
        for (i, k) in SOLID.iter().enumerate() {
            assert!(sprite(*k).is_some(), "{k}");
            assert!(!SOLID[..i].contains(k), "{k} twice");
        }
        assert!(is_solid(2035) && is_solid(3004) && is_solid(49));
        // Every key has a picture and a radius, and a card and a skull of
        // a colour open the same locks.
        for k in [5, 6, 13, 38, 39, 40] {
            assert!(sprite(k).is_some_and(|(_, r)| r == 20), "{k}");
        }
        use engine::format::kind::key_lock;
        let lock = |k| key_kind(k).map(key_lock);
        assert_eq!((lock(5), lock(40)), (Some(1), Some(1)));
        assert_eq!((lock(6), lock(39)), (Some(2), Some(2)));
        assert_eq!((lock(13), lock(38)), (Some(3), Some(3)));
        assert_eq!(key_kind(2011), None);
        assert!(!is_solid(34) && !is_solid(59) && !is_solid(2011) && !is_solid(10));
    }
}
