//! Switch textures: which walls flip when used, and to what. Shared by
//! the importer (DOOM's sidedefs) and the text format (its sides), so
//! that a `SW1`/`SW2` texture means the same in both.

use engine::format::{trigger, wall_action, SwitchRecord, WallSpecialRecord, NONE};

use super::{Packer, TextureLibrary};

/// The other texture of a switch (DOOM's `alphSwitchList` pairs every
/// `SW1name` with `SW2name`, and P_ChangeSwitchTexture turns either
/// into the other): `None` for a texture that is no switch.
pub fn switch_pair(name: &str) -> Option<String> {
    let upper = name.to_ascii_uppercase();
    let rest = upper.get(3..).filter(|r| !r.is_empty())?;
    match upper.get(..3)? {
        "SW1" => Some(format!("SW2{rest}")),
        "SW2" => Some(format!("SW1{rest}")),
        _ => None,
    }
}

/// The switch `special`'s wall becomes, given the names of its front
/// side's upper, middle and lower textures: each switch texture whose
/// pair `lib` has flips to it. `None` when nothing flips: the special is
/// not used (walked over), it is a manual door (DOOM flips none of
/// those), or no part shows a switch.
pub fn switch_record(
    special: &WallSpecialRecord,
    [upper, middle, lower]: [&str; 3],
    lib: &TextureLibrary,
    packer: &mut Packer,
) -> Option<SwitchRecord> {
    let action = special.action;
    let manual_door = wall_action::is_door(action) && action & wall_action::BACK_SECTOR != 0;
    if special.trigger & trigger::USE == 0 || manual_door {
        return None;
    }
    let mut other = |name: &str| match switch_pair(name) {
        Some(pair) if lib.has_wall(&pair) => packer.wall(&pair),
        _ => NONE,
    };
    let record = SwitchRecord {
        wall: special.wall,
        upper: other(upper),
        middle: other(middle),
        lower: other(lower),
    };
    ((record.upper, record.middle, record.lower) != (NONE, NONE, NONE)).then_some(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_textures_pair_sw1_with_sw2() {
        assert_eq!(switch_pair("SW1BRCOM").as_deref(), Some("SW2BRCOM"));
        assert_eq!(switch_pair("sw2exit").as_deref(), Some("SW1EXIT"));
        assert_eq!(switch_pair("SW1"), None);
        assert_eq!(switch_pair("STARTAN3"), None);
        assert_eq!(switch_pair("-"), None);
    }
}
