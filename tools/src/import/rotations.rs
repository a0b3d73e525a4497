//! DOOM's sprite rotations: the eight lumps of a frame seen from eight
//! sides, found among a WAD's sprite lumps by their names.
//!
//! A sprite lump is named `NAMEFR`: four characters of sprite, a frame
//! letter, a rotation digit (1 in front of the thing, then every 45
//! degrees counter-clockwise round it; 0 for one picture from every
//! side). A lump may carry a second frame and rotation, `NAMEFRfr`, drawn
//! mirrored: `POSSA2A8` is rotation 2 as it is and rotation 8 mirrored,
//! as DOOM's `R_InitSprites` installs it.

/// Where each of a frame's eight rotations is: the lump and whether it is
/// drawn mirrored, rotation 1 first.
pub type Rotations = [(String, bool); 8];

/// The eight rotations of the frame of `front`, the lump of its rotation
/// 1 (`POSSA1`), among the sprite lump names `names` (upper case), or
/// `None` if `front` is not a rotation 1 or some rotation has no lump.
///
/// A rotation named by several lumps (which DOOM refuses) comes from a
/// lump that shows it as it is before one that mirrors it, a lump of its
/// own (`POSSA5`) before a pair, then the first by name.
pub fn find<'n>(front: &str, names: impl Iterator<Item = &'n str>) -> Option<Rotations> {
    let b = front.as_bytes();
    if b.len() != 6 || b[5] != b'1' {
        return None;
    }
    let (base, frame) = (&front[..4], b[4]);
    // Each rotation's best lump so far: (mirrored, a pair, name).
    let mut best: [Option<(bool, bool, &str)>; 8] = Default::default();
    for name in names.filter(|n| n.starts_with(base)) {
        let n = name.as_bytes();
        let pair = n.len() == 8;
        if n.len() != 6 && !pair {
            continue;
        }
        let halves = [Some((n[4], n[5], false)), pair.then(|| (n[6], n[7], true))];
        for (f, r, mirrored) in halves.into_iter().flatten() {
            if f != frame || !(b'1'..=b'8').contains(&r) {
                continue;
            }
            let slot = &mut best[(r - b'1') as usize];
            let candidate = (mirrored, pair, name);
            if slot.is_none_or(|s| candidate < s) {
                *slot = Some(candidate);
            }
        }
    }
    let mut out: Rotations = Default::default();
    for (o, b) in out.iter_mut().zip(best) {
        let (mirrored, _, name) = b?;
        *o = (name.to_string(), mirrored);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names<'l>(list: &'l [&'static str]) -> impl Iterator<Item = &'static str> + 'l {
        list.iter().copied()
    }

    #[test]
    fn pairs_give_two_rotations_the_second_mirrored() {
        let wad = [
            "POSSA1", "POSSA2A8", "POSSA3A7", "POSSA4A6", "POSSA5", "POSSB1", "TROOA1",
        ];
        let r = find("POSSA1", names(&wad)).unwrap();
        let want = [
            ("POSSA1", false),
            ("POSSA2A8", false),
            ("POSSA3A7", false),
            ("POSSA4A6", false),
            ("POSSA5", false),
            ("POSSA4A6", true),
            ("POSSA3A7", true),
            ("POSSA2A8", true),
        ];
        for (got, (name, mirrored)) in r.iter().zip(want) {
            assert_eq!((got.0.as_str(), got.1), (name, mirrored));
        }
        // Another frame's rotations are not this frame's.
        assert!(find("POSSB1", names(&wad)).is_none());
        // Not a rotation 1.
        assert!(find("POSSA5", names(&wad)).is_none());
        assert!(find("BAR1A0", names(&["BAR1A0"])).is_none());
    }

    #[test]
    fn a_missing_rotation_gives_none_and_own_lumps_come_first() {
        let some = ["SARGA1", "SARGA2A8", "SARGA3A7", "SARGA4A6"];
        assert!(find("SARGA1", names(&some)).is_none());
        // Rotation 1 in a pair with another frame (`SPIDA1D1`), rotations
        // 2 and 8 both in a pair and in lumps of their own.
        let wad = [
            "SPIDA1D1", "SPIDA2", "SPIDA2A8", "SPIDA3A7", "SPIDA4A6", "SPIDA5", "SPIDA8",
        ];
        let r = find("SPIDA1", names(&wad)).unwrap();
        assert_eq!(r[0], ("SPIDA1D1".to_string(), false));
        assert_eq!(r[1], ("SPIDA2".to_string(), false));
        assert_eq!(r[7], ("SPIDA8".to_string(), false));
        assert_eq!(r[6], ("SPIDA3A7".to_string(), true));
        // The frame D half of SPIDA1D1 is frame D's rotation 1, mirrored.
        assert!(find("SPIDD1", names(&wad)).is_none());
    }
}
