//! DOOM's order of maps: where an exit leads.
//!
//! A normal exit goes on to the next map of the episode (E1M1 to E1M2,
//! MAP01 to MAP02); a secret exit to the secret map (ExM9; MAP15 to MAP31,
//! MAP31 to MAP32); a secret map's exit back to the map after the one it
//! was found from (E1M9 to E1M4, E2M9 to E2M6, E3M9 to E3M7, E4M9 to E4M3;
//! MAP31 and MAP32 to MAP16). E*M8 and MAP30 end the game. Frontends ask
//! [`next_map`] with the maps they have, so both pick the same map.

use core::fmt::Write;

use crate::game::Exit;

/// A map name as DOOM spells it (`E1M2`, `MAP31`).
pub type MapName = heapless::String<8>;

/// Where an exit from `current` leads by DOOM's order, whether or not a
/// WAD has that map: `Some(None)` where the game ends (E*M8, MAP30), `None`
/// when `current` is not a DOOM map name. Case is ignored.
pub fn doom_next(current: &str, exit: Exit) -> Option<Option<MapName>> {
    let secret = exit == Exit::Secret;
    let b = current.as_bytes();
    let digit = |c: u8| (c as char).to_digit(10);
    let mut name = MapName::new();
    if b.len() == 5 && b[..3].eq_ignore_ascii_case(b"MAP") {
        let n = digit(b[3])? * 10 + digit(b[4])?;
        let n = match (n, secret) {
            (15, true) => 31,
            (31, true) => 32,
            (31 | 32, _) => 16,
            (30, _) => return Some(None),
            _ => n + 1,
        };
        write!(name, "MAP{n:02}").ok()?;
    } else if b.len() == 4 && b[0].eq_ignore_ascii_case(&b'E') && b[2].eq_ignore_ascii_case(&b'M') {
        let (e, m) = (digit(b[1])?, digit(b[3])?);
        let m = match (m, secret) {
            (9, _) => match e {
                1 => 4,
                2 => 6,
                3 => 7,
                4 => 3,
                _ => return Some(None),
            },
            (8, _) => return Some(None),
            (_, true) => 9,
            _ => m + 1,
        };
        write!(name, "E{e}M{m}").ok()?;
    } else {
        return None;
    }
    Some(Some(name))
}

/// The map an exit from `current` goes on to among the maps `has` says a
/// WAD (or a cartridge) holds: [`doom_next`], or for a secret exit where
/// there is no secret map, the normal exit's map. `None` where the game
/// ends, where that map is missing, or when `current` is not a DOOM name.
pub fn next_map(current: &str, exit: Exit, has: impl Fn(&str) -> bool) -> Option<MapName> {
    match doom_next(current, exit)? {
        Some(name) if has(&name) => Some(name),
        _ if exit == Exit::Secret => next_map(current, Exit::Normal, has),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Exit::{Normal, Secret};

    fn doom1(name: &str) -> bool {
        doom_next(name, Normal).is_some() && name.len() == 4 && name.as_bytes()[1] <= b'4'
    }

    fn doom2(name: &str) -> bool {
        name.len() == 5
            && name[3..]
                .parse::<u32>()
                .is_ok_and(|n| (1..=32).contains(&n))
    }

    fn next(current: &str, exit: Exit, has: fn(&str) -> bool) -> Option<MapName> {
        next_map(current, exit, has)
    }

    #[test]
    fn doom_order() {
        let n = |c, x| next(c, x, doom1);
        assert_eq!(n("E1M1", Normal).as_deref(), Some("E1M2"));
        assert_eq!(n("e1m3", Secret).as_deref(), Some("E1M9"));
        assert_eq!(n("E1M9", Normal).as_deref(), Some("E1M4"));
        assert_eq!(n("E2M9", Secret).as_deref(), Some("E2M6"));
        assert_eq!(n("E3M9", Secret).as_deref(), Some("E3M7"));
        assert_eq!(n("E4M9", Normal).as_deref(), Some("E4M3"));
        assert_eq!(n("E1M8", Normal), None);
        assert_eq!(doom_next("E1M8", Secret), Some(None));
        let n = |c, x| next(c, x, doom2);
        assert_eq!(n("MAP01", Normal).as_deref(), Some("MAP02"));
        assert_eq!(n("MAP15", Secret).as_deref(), Some("MAP31"));
        assert_eq!(n("MAP15", Normal).as_deref(), Some("MAP16"));
        assert_eq!(n("MAP31", Secret).as_deref(), Some("MAP32"));
        assert_eq!(n("MAP31", Normal).as_deref(), Some("MAP16"));
        assert_eq!(n("MAP32", Normal).as_deref(), Some("MAP16"));
        assert_eq!(n("MAP30", Normal), None);
    }

    #[test]
    fn a_missing_secret_map_is_the_normal_exit() {
        assert_eq!(
            next("MAP05", Secret, doom2).as_deref(),
            Some("MAP06"),
            "MAP05 has no secret map in DOOM's order: its secret exit is MAP06"
        );
        let no_secret = |n: &str| doom1(n) && !n.ends_with('9');
        assert_eq!(next_map("E1M3", Secret, no_secret).as_deref(), Some("E1M4"));
        let short = |n: &str| n == "MAP01";
        assert_eq!(next_map("MAP01", Normal, short), None);
    }

    #[test]
    fn not_doom_names() {
        for name in [
            "START",
            "e1_hangar",
            "MAPXX",
            "E1MX",
            "",
            "MAP1",
            "EXM1",
            "ÉÉ",
        ] {
            assert_eq!(doom_next(name, Normal), None, "{name}");
            assert_eq!(next(name, Secret, doom2), None, "{name}");
        }
    }
}
