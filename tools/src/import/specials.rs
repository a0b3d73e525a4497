//! What a line special does, as far as the importer cares: doors it opens,
//! lifts it lowers, and features the engine does not have.
//!
//! DOOM numbering (`linux/p_spec.c`, `p_doors.c`, `p_plats.c` and Boom's
//! generalised ranges) and Hexen numbering (ZDoom's `actionspecials.h`)
//! are both covered; [`SpecialSet`] says which a level uses.

use crate::doom::{Feature, SpecialSet};
use engine::format::{trigger, wall_action};

/// Whom a door or lift special moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The sector behind the line (a door the player "uses").
    Back,
    /// Every sector with this tag.
    Tag(i32),
}

/// What a special means for the importer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing the importer acts on.
    None,
    /// Opens a door (raises the ceiling to the lowest neighbouring
    /// ceiling minus 4).
    OpenDoor(Target),
    /// Lowers a lift (the floor to the lowest neighbouring floor).
    LowerLift(Target),
    /// Uses a feature the engine does not have.
    Unsupported(Feature),
}

/// DOOM's manual doors: the door is the sector behind the line.
const DOOM_MANUAL_DOORS: [i32; 10] = [1, 26, 27, 28, 31, 32, 33, 34, 117, 118];

/// DOOM's remote doors that open (walk, switch and gun triggers; keyed
/// switches); the doors that only close are left out.
const DOOM_REMOTE_DOORS: [i32; 23] = [
    2, 4, 29, 46, 61, 63, 86, 90, 99, 103, 105, 106, 108, 109, 111, 112, 114, 115, 133, 134, 135,
    136, 137,
];

/// DOOM's lifts (down, wait, up) and perpetual platforms.
const DOOM_LIFTS: [i32; 10] = [10, 21, 53, 62, 87, 88, 120, 121, 122, 123];

/// Boom's generalised triggers that are manual (`D1`, `DR`): they act on
/// the sector behind the line.
fn boom_manual(special: i32) -> bool {
    special & 7 >= 6
}

/// The meaning of `special` (with its tag and arguments) in `set`.
pub fn classify(set: SpecialSet, special: i32, tag: i32, args: &[i32; 5]) -> Action {
    match set {
        SpecialSet::Doom => doom(special, tag),
        SpecialSet::Hexen => hexen(special, args),
    }
}

fn doom(special: i32, tag: i32) -> Action {
    let remote = Target::Tag(tag);
    match special {
        s if DOOM_MANUAL_DOORS.contains(&s) => Action::OpenDoor(Target::Back),
        s if DOOM_REMOTE_DOORS.contains(&s) => Action::OpenDoor(remote),
        s if DOOM_LIFTS.contains(&s) => Action::LowerLift(remote),
        // Boom generalised doors: kind in bits 5-6; 0 (open, wait, close)
        // and 1 (open and stay) open.
        0x3C00..=0x3FFF if (special >> 5) & 3 <= 1 => Action::OpenDoor(if boom_manual(special) {
            Target::Back
        } else {
            remote
        }),
        // Boom generalised locked doors: all open.
        0x3800..=0x3BFF => Action::OpenDoor(if boom_manual(special) {
            Target::Back
        } else {
            remote
        }),
        // Boom generalised lifts.
        0x3400..=0x37FF => Action::LowerLift(if boom_manual(special) {
            Target::Back
        } else {
            remote
        }),
        // Boom's fake floors and ceilings; Legacy's 3D floors.
        242 | 280 | 281 | 289 => Action::Unsupported(Feature::ExtraFloors),
        // Eternity's and ZDoom's DOOM-format slopes (Plane_Align).
        340..=347 => Action::Unsupported(Feature::Slopes),
        _ => Action::None,
    }
}

fn hexen(special: i32, args: &[i32; 5]) -> Action {
    let target = if args[0] == 0 {
        Target::Back
    } else {
        Target::Tag(args[0])
    };
    match special {
        // Door_Open, Door_Raise, Door_LockedRaise, Door_Animated.
        11..=14 => Action::OpenDoor(target),
        // Generic_Door: type in arg2 (0 raise, 1 open and stay).
        202 if args[2] & 63 <= 1 => Action::OpenDoor(target),
        // Plat_PerpetualRaise, Plat_DownWaitUpStay, Plat_DownByValue,
        // Generic_Lift, Plat_DownWaitUpStayLip, Plat_PerpetualRaiseLip.
        60 | 62 | 63 | 203 | 206 | 207 => Action::LowerLift(target),
        // ACS_Execute and friends.
        80..=84 | 226 | 227 => Action::Unsupported(Feature::Scripts),
        // Polyobj_*.
        1..=8 | 59 | 86..=93 => Action::Unsupported(Feature::Polyobjects),
        // Plane_Align, Plane_Copy.
        181 | 118 => Action::Unsupported(Feature::Slopes),
        // Sector_Set3dFloor.
        160 => Action::Unsupported(Feature::ExtraFloors),
        // Sector_SetPortal, Line_SetPortal, Line_QuickPortal.
        57 | 156 | 301 => Action::Unsupported(Feature::Portals),
        _ => Action::None,
    }
}

/// The wall flag a scrolling line special gives its wall: DOOM's 48
/// (left) and Boom's 85 (right), one unit a tick; 0 for any other.
/// Hexen's `Scroll_Texture_*` (with a speed) are not read yet.
pub fn scroll(set: SpecialSet, special: i32) -> u16 {
    match (set, special) {
        (SpecialSet::Doom, 48) => engine::format::wall_flag::SCROLL_LEFT,
        (SpecialSet::Doom, 85) => engine::format::wall_flag::SCROLL_RIGHT,
        _ => 0,
    }
}

/// The exit a line special is, as the compiled map's
/// `(`[`wall_action`]`, `[`trigger`]`)`: DOOM's S1 and W1 exits, normal
/// and secret (11, 51, 52, 124). The gun-triggered ones (G1 197, 198)
/// and Hexen numbering's exits are not read yet.
pub fn exit(set: SpecialSet, special: i32) -> Option<(u8, u8)> {
    if set != SpecialSet::Doom {
        return None;
    }
    match special {
        11 => Some((wall_action::EXIT, trigger::USE)),
        51 => Some((wall_action::SECRET_EXIT, trigger::USE)),
        52 => Some((wall_action::EXIT, trigger::WALK)),
        124 => Some((wall_action::SECRET_EXIT, trigger::WALK)),
        _ => None,
    }
}

/// The door, lift or floor a line special is, as the compiled map's
/// `(`[`wall_action`]`, `[`trigger`]`)`, in DOOM numbering: the manual
/// doors (DR 1 and 117, D1 31 and 118: the sector behind the line) and
/// the tagged doors, lifts and floors set off by walking (W1, WR) or a
/// switch (S1, SR), and the locked doors (manual DR 26-28 and D1 32-34,
/// switched 99 and 133-137: their [`trigger`] lock names the key). The
/// floors and platforms that change their flat (37 and 84, 59 and 93,
/// 14, 15, 20, 22, 66-68 and 95), ceilings, crushers, perpetual platforms
/// and stairs are read too, and Boom's generalised doors and lifts
/// ([`boom_generalised`]), and the donut (9). The gun-triggered ones and
/// Hexen's specials are not read yet.
pub fn mover(set: SpecialSet, special: i32) -> Option<(u8, u8)> {
    use wall_action::*;
    if set != SpecialSet::Doom {
        return None;
    }
    let (once, again) = (0, trigger::REPEAT);
    let (action, how) = match special {
        1 => (DOOR_RAISE | BACK_SECTOR, trigger::USE | again),
        // Locked doors (p_doors.c's EV_VerticalDoor and EV_DoLockedDoor).
        26 => (
            DOOR_RAISE | BACK_SECTOR,
            trigger::USE | again | trigger::LOCK_BLUE,
        ),
        27 => (
            DOOR_RAISE | BACK_SECTOR,
            trigger::USE | again | trigger::LOCK_YELLOW,
        ),
        28 => (
            DOOR_RAISE | BACK_SECTOR,
            trigger::USE | again | trigger::LOCK_RED,
        ),
        32 => (
            DOOR_OPEN | BACK_SECTOR,
            trigger::USE | once | trigger::LOCK_BLUE,
        ),
        33 => (
            DOOR_OPEN | BACK_SECTOR,
            trigger::USE | once | trigger::LOCK_RED,
        ),
        34 => (
            DOOR_OPEN | BACK_SECTOR,
            trigger::USE | once | trigger::LOCK_YELLOW,
        ),
        99 => (DOOR_FAST_OPEN, trigger::USE | again | trigger::LOCK_BLUE),
        133 => (DOOR_FAST_OPEN, trigger::USE | once | trigger::LOCK_BLUE),
        134 => (DOOR_FAST_OPEN, trigger::USE | again | trigger::LOCK_RED),
        135 => (DOOR_FAST_OPEN, trigger::USE | once | trigger::LOCK_RED),
        136 => (DOOR_FAST_OPEN, trigger::USE | again | trigger::LOCK_YELLOW),
        137 => (DOOR_FAST_OPEN, trigger::USE | once | trigger::LOCK_YELLOW),
        117 => (DOOR_FAST_RAISE | BACK_SECTOR, trigger::USE | again),
        31 => (DOOR_OPEN | BACK_SECTOR, trigger::USE | once),
        118 => (DOOR_FAST_OPEN | BACK_SECTOR, trigger::USE | once),
        2 => (DOOR_OPEN, trigger::WALK | once),
        3 => (DOOR_CLOSE, trigger::WALK | once),
        4 => (DOOR_RAISE, trigger::WALK | once),
        16 => (DOOR_CLOSE_WAIT_OPEN, trigger::WALK | once),
        108 => (DOOR_FAST_RAISE, trigger::WALK | once),
        109 => (DOOR_FAST_OPEN, trigger::WALK | once),
        110 => (DOOR_FAST_CLOSE, trigger::WALK | once),
        86 => (DOOR_OPEN, trigger::WALK | again),
        75 => (DOOR_CLOSE, trigger::WALK | again),
        90 => (DOOR_RAISE, trigger::WALK | again),
        76 => (DOOR_CLOSE_WAIT_OPEN, trigger::WALK | again),
        105 => (DOOR_FAST_RAISE, trigger::WALK | again),
        106 => (DOOR_FAST_OPEN, trigger::WALK | again),
        107 => (DOOR_FAST_CLOSE, trigger::WALK | again),
        103 => (DOOR_OPEN, trigger::USE | once),
        50 => (DOOR_CLOSE, trigger::USE | once),
        29 => (DOOR_RAISE, trigger::USE | once),
        111 => (DOOR_FAST_RAISE, trigger::USE | once),
        112 => (DOOR_FAST_OPEN, trigger::USE | once),
        113 => (DOOR_FAST_CLOSE, trigger::USE | once),
        61 => (DOOR_OPEN, trigger::USE | again),
        42 => (DOOR_CLOSE, trigger::USE | again),
        63 => (DOOR_RAISE, trigger::USE | again),
        114 => (DOOR_FAST_RAISE, trigger::USE | again),
        115 => (DOOR_FAST_OPEN, trigger::USE | again),
        116 => (DOOR_FAST_CLOSE, trigger::USE | again),
        10 => (LIFT, trigger::WALK | once),
        88 => (LIFT, trigger::WALK | again),
        21 => (LIFT, trigger::USE | once),
        62 => (LIFT, trigger::USE | again),
        121 => (LIFT_FAST, trigger::WALK | once),
        120 => (LIFT_FAST, trigger::WALK | again),
        122 => (LIFT_FAST, trigger::USE | once),
        123 => (LIFT_FAST, trigger::USE | again),
        // Floors (p_floor.c), walked over once and again, switched once
        // and again.
        19 => (FLOOR_LOWER, trigger::WALK | once),
        83 => (FLOOR_LOWER, trigger::WALK | again),
        102 => (FLOOR_LOWER, trigger::USE | once),
        45 => (FLOOR_LOWER, trigger::USE | again),
        38 => (FLOOR_LOWER_TO_LOWEST, trigger::WALK | once),
        82 => (FLOOR_LOWER_TO_LOWEST, trigger::WALK | again),
        23 => (FLOOR_LOWER_TO_LOWEST, trigger::USE | once),
        60 => (FLOOR_LOWER_TO_LOWEST, trigger::USE | again),
        36 => (FLOOR_LOWER_FAST, trigger::WALK | once),
        98 => (FLOOR_LOWER_FAST, trigger::WALK | again),
        71 => (FLOOR_LOWER_FAST, trigger::USE | once),
        70 => (FLOOR_LOWER_FAST, trigger::USE | again),
        5 => (FLOOR_RAISE, trigger::WALK | once),
        91 => (FLOOR_RAISE, trigger::WALK | again),
        101 => (FLOOR_RAISE, trigger::USE | once),
        64 => (FLOOR_RAISE, trigger::USE | again),
        119 => (FLOOR_RAISE_TO_NEXT, trigger::WALK | once),
        128 => (FLOOR_RAISE_TO_NEXT, trigger::WALK | again),
        18 => (FLOOR_RAISE_TO_NEXT, trigger::USE | once),
        69 => (FLOOR_RAISE_TO_NEXT, trigger::USE | again),
        130 => (FLOOR_RAISE_TO_NEXT_FAST, trigger::WALK | once),
        129 => (FLOOR_RAISE_TO_NEXT_FAST, trigger::WALK | again),
        131 => (FLOOR_RAISE_TO_NEXT_FAST, trigger::USE | once),
        132 => (FLOOR_RAISE_TO_NEXT_FAST, trigger::USE | again),
        58 => (FLOOR_RAISE_24, trigger::WALK | once),
        92 => (FLOOR_RAISE_24, trigger::WALK | again),
        140 => (FLOOR_RAISE_512, trigger::USE | once),
        56 => (FLOOR_RAISE_CRUSH, trigger::WALK | once),
        94 => (FLOOR_RAISE_CRUSH, trigger::WALK | again),
        55 => (FLOOR_RAISE_CRUSH, trigger::USE | once),
        65 => (FLOOR_RAISE_CRUSH, trigger::USE | again),
        // Floors and platforms that change their flat (p_floor.c's
        // lowerAndChange and raiseFloor24AndChange, p_plats.c's
        // raiseToNearestAndChange and raiseAndChange).
        37 => (FLOOR_LOWER_TO_LOWEST_CHANGE, trigger::WALK | once),
        84 => (FLOOR_LOWER_TO_LOWEST_CHANGE, trigger::WALK | again),
        59 => (FLOOR_RAISE_24_CHANGE, trigger::WALK | once),
        93 => (FLOOR_RAISE_24_CHANGE, trigger::WALK | again),
        22 => (PLAT_RAISE_TO_NEXT_CHANGE, trigger::WALK | once),
        95 => (PLAT_RAISE_TO_NEXT_CHANGE, trigger::WALK | again),
        20 => (PLAT_RAISE_TO_NEXT_CHANGE, trigger::USE | once),
        68 => (PLAT_RAISE_TO_NEXT_CHANGE, trigger::USE | again),
        15 => (PLAT_RAISE_24_CHANGE, trigger::USE | once),
        66 => (PLAT_RAISE_24_CHANGE, trigger::USE | again),
        14 => (PLAT_RAISE_32_CHANGE, trigger::USE | once),
        67 => (PLAT_RAISE_32_CHANGE, trigger::USE | again),
        9 => (DONUT, trigger::USE | once),
        // Ceilings and crushers (p_ceilng.c). 40 also tries to lower the
        // floor, but DOOM's sector is busy with the ceiling by then, so
        // only the ceiling moves, here too.
        40 => (CEILING_RAISE_TO_HIGHEST, trigger::WALK | once),
        41 => (CEILING_LOWER_TO_FLOOR, trigger::USE | once),
        43 => (CEILING_LOWER_TO_FLOOR, trigger::USE | again),
        44 => (CEILING_LOWER_AND_CRUSH, trigger::WALK | once),
        72 => (CEILING_LOWER_AND_CRUSH, trigger::WALK | again),
        25 | 141 => (CEILING_CRUSHER, trigger::WALK | once),
        73 => (CEILING_CRUSHER, trigger::WALK | again),
        49 => (CEILING_CRUSHER, trigger::USE | once),
        6 => (CEILING_CRUSHER_FAST, trigger::WALK | once),
        77 => (CEILING_CRUSHER_FAST, trigger::WALK | again),
        57 => (CEILING_CRUSHER_STOP, trigger::WALK | once),
        74 => (CEILING_CRUSHER_STOP, trigger::WALK | again),
        // Perpetual platforms and their stop (p_plats.c).
        53 => (LIFT_PERPETUAL, trigger::WALK | once),
        87 => (LIFT_PERPETUAL, trigger::WALK | again),
        54 => (LIFT_STOP, trigger::WALK | once),
        89 => (LIFT_STOP, trigger::WALK | again),
        // Stairs (EV_BuildStairs).
        8 => (STAIRS_8, trigger::WALK | once),
        7 => (STAIRS_8, trigger::USE | once),
        100 => (STAIRS_16_FAST, trigger::WALK | once),
        127 => (STAIRS_16_FAST, trigger::USE | once),
        _ => return boom_generalised(special),
    };
    Some((action, how))
}

/// Boom's generalised doors (0x3C00-0x3FFF) and lifts (0x3400-0x37FF),
/// whose numbers pack their trigger, speed, kind and delay
/// (`p_genlin.c`), as [`wall_action::BOOM_DOOR`] and
/// [`wall_action::BOOM_LIFT`]. Gun triggers, the lifts to other targets
/// than the lowest neighbouring floor, the locked doors and the other
/// generalised kinds are not read; the monster bit means nothing here.
fn boom_generalised(special: i32) -> Option<(u8, u8)> {
    use wall_action::*;
    let bits = |v: i32, shift: u32| ((v >> shift) & 3) as u8;
    // Boom's trigger field: W1, WR, S1, SR, G1, GR, D1, DR; D is the
    // sector behind the line.
    let trigger_of = |v: i32| -> Option<(u8, u8)> {
        let repeat = if v & 1 != 0 { trigger::REPEAT } else { 0 };
        match v & 7 {
            0 | 1 => Some((trigger::WALK | repeat, 0)),
            2 | 3 => Some((trigger::USE | repeat, 0)),
            6 | 7 => Some((trigger::USE | repeat, BACK_SECTOR)),
            _ => None,
        }
    };
    match special {
        0x3c00..=0x3fff => {
            let v = special - 0x3c00;
            let (how, back) = trigger_of(v)?;
            Some((boom_door(bits(v, 5), bits(v, 3), bits(v, 8)) | back, how))
        }
        0x3400..=0x37ff => {
            let v = special - 0x3400;
            if bits(v, 8) != 0 {
                return None;
            }
            let (how, back) = trigger_of(v)?;
            Some((boom_lift(bits(v, 3), bits(v, 6)) | back, how))
        }
        _ => None,
    }
}

/// What a sector special makes the sector do by itself, as the compiled
/// map's [`engine::format::sector_special`] (0: nothing we act on): DOOM's light types
/// (1, 2, 3, 8, 12, 13, 17; 4, strobe with damage, strobes) and its secret
/// (9). Boom's generalised sector types (32 and up) keep DOOM's type in
/// their low five bits, and their secret in bit 7; a light wins over a
/// secret. Damage, the door timers (10, 14) and Hexen's sector types are
/// not read.
pub fn sector_effect(set: SpecialSet, special: i32) -> u16 {
    use engine::format::sector_special::*;
    if set != SpecialSet::Doom || special <= 0 {
        return NONE;
    }
    let secret = special >= 32 && special & 128 != 0;
    let kind = if special >= 32 { special & 31 } else { special };
    match kind {
        1 => FLICKER,
        2 | 4 => STROBE_FAST,
        3 => STROBE_SLOW,
        8 => GLOW,
        9 => SECRET,
        12 => STROBE_SLOW_SYNC,
        13 => STROBE_FAST_SYNC,
        17 => FIRE_FLICKER,
        _ if secret => SECRET,
        _ => NONE,
    }
}

/// The light switch a line special is, as the compiled map's
/// `(`[`wall_action`]`, `[`trigger`]`)`: DOOM's lights to the brightest
/// neighbour (W1 12, WR 80), to 255 (W1 13, WR 81, SR 138), to 35 (W1
/// 35, WR 79, SR 139), to the darkest neighbour (W1 104), and the strobe
/// it starts (W1 17); and Boom's further ones: S1 169-173 and SR 192-194
/// (brightest, 35, 255, strobe, darkest), WR 156 (strobe) and 157
/// (darkest).
pub fn light(set: SpecialSet, special: i32) -> Option<(u8, u8)> {
    use wall_action::*;
    if set != SpecialSet::Doom {
        return None;
    }
    let (once, again) = (0, trigger::REPEAT);
    Some(match special {
        12 => (LIGHT_BRIGHTEST_AROUND, trigger::WALK | once),
        80 => (LIGHT_BRIGHTEST_AROUND, trigger::WALK | again),
        13 => (LIGHT_FULL, trigger::WALK | once),
        81 => (LIGHT_FULL, trigger::WALK | again),
        138 => (LIGHT_FULL, trigger::USE | again),
        35 => (LIGHT_DIM, trigger::WALK | once),
        79 => (LIGHT_DIM, trigger::WALK | again),
        139 => (LIGHT_DIM, trigger::USE | again),
        104 => (LIGHT_DARKEST_AROUND, trigger::WALK | once),
        17 => (LIGHT_START_STROBE, trigger::WALK | once),
        156 => (LIGHT_START_STROBE, trigger::WALK | again),
        157 => (LIGHT_DARKEST_AROUND, trigger::WALK | again),
        169 => (LIGHT_BRIGHTEST_AROUND, trigger::USE | once),
        170 => (LIGHT_DIM, trigger::USE | once),
        171 => (LIGHT_FULL, trigger::USE | once),
        172 => (LIGHT_START_STROBE, trigger::USE | once),
        173 => (LIGHT_DARKEST_AROUND, trigger::USE | once),
        192 => (LIGHT_BRIGHTEST_AROUND, trigger::USE | again),
        193 => (LIGHT_START_STROBE, trigger::USE | again),
        194 => (LIGHT_DARKEST_AROUND, trigger::USE | again),
        _ => return None,
    })
}

/// The teleporter a line special is, as the compiled map's
/// `(`[`wall_action`]`, `[`trigger`]`)`: DOOM's W1 and WR teleports (39,
/// 97), to the destination in the tagged sector. The monster-only ones
/// (125, 126) and Boom's silent and line-to-line teleports are not read.
pub fn teleport(set: SpecialSet, special: i32) -> Option<(u8, u8)> {
    if set != SpecialSet::Doom {
        return None;
    }
    match special {
        39 => Some((wall_action::TELEPORT, trigger::WALK)),
        97 => Some((wall_action::TELEPORT, trigger::WALK | trigger::REPEAT)),
        _ => None,
    }
}

/// The wall special line `l` of a level numbered by `set` becomes, as
/// the compiled map's `(`[`wall_action`]`, `[`trigger`]`, tag)`: an exit,
/// mover, teleporter or light switch ([`exit`], [`mover`], [`teleport`],
/// [`light`] in DOOM numbering, [`hexen_wall_special`] in Hexen's), or
/// `None` for a special the game does not act on.
pub fn wall_special(set: SpecialSet, l: &crate::doom::Linedef) -> Option<(u8, u8, u16)> {
    match set {
        SpecialSet::Hexen => hexen_wall_special(l.special, &l.args, l.flags),
        SpecialSet::Doom => {
            let (action, trigger) = exit(set, l.special)
                .or_else(|| mover(set, l.special))
                .or_else(|| teleport(set, l.special))
                .or_else(|| light(set, l.special))?;
            // DOOM's exits act on no sector, whatever the line's tag.
            let tag = if matches!(action, wall_action::EXIT | wall_action::SECRET_EXIT) {
                0
            } else {
                u16::try_from(l.tag).unwrap_or(0)
            };
            Some((action, trigger, tag))
        }
    }
}

/// The wall special a Hexen-numbered line is (Hexen maps and ZDoom's
/// UDMF namespaces), as the compiled map's `(`[`wall_action`]`,
/// `[`trigger`]`, tag)`: `Door_Close`, `Door_Open`, `Door_Raise` and
/// `Door_LockedRaise` (10-13; tag 0 is the door behind the line),
/// `Door_CloseWaitOpen` (249), `Plat_DownWaitUpStay` (62), `Teleport`
/// (70, to the tagged sector's destination) and `Exit_Normal`,
/// `Exit_Secret` (243, 244), set off by the player crossing or using the
/// line (`flags`' activation bits) and repeatable with its repeat bit. A
/// door or lift of DOOM's speed and wait is DOOM's; any other takes
/// Boom's nearest speed and wait ([`wall_action::BOOM_DOOR`],
/// [`wall_action::BOOM_LIFT`]). The floors, ceilings, stairs, platforms
/// and lights DOOM has are read in the forms ZDoom gives DOOM's own
/// specials ([`doom_plane_special`]). Other specials, activations and
/// locks (`any key`, `all keys`) are not read.
pub fn hexen_wall_special(special: i32, args: &[i32; 5], flags: u16) -> Option<(u8, u8, u16)> {
    use crate::doom::line_flag::{activation, ACTIVATION, ACTIVATION_SHIFT, REPEAT};
    use wall_action::*;
    let how = match (flags & ACTIVATION) >> ACTIVATION_SHIFT {
        activation::CROSS => trigger::WALK,
        activation::USE | activation::USE_THROUGH => trigger::USE,
        _ => return None,
    };
    let how = how
        | if flags & REPEAT != 0 {
            trigger::REPEAT
        } else {
            0
        };
    let tag = u16::try_from(args[0]).ok()?;
    // Hexen speeds are in eighths of a unit a tick.
    let nearest = |table: &[i32; 4], v: i32| -> u8 {
        (0..4).min_by_key(|&i| (table[i] - v).abs()).unwrap_or(0) as u8
    };
    const SPEEDS: [i32; 4] = [16, 32, 64, 128];
    let door = |kind: u8, speed: i32, wait: i32| -> u8 {
        let dooms = match (kind, speed) {
            (0, 16) if wait == 150 => Some(DOOR_RAISE),
            (0, 64) if wait == 150 => Some(DOOR_FAST_RAISE),
            (1, 16) => Some(DOOR_OPEN),
            (2, 16) if wait == 1050 => Some(DOOR_CLOSE_WAIT_OPEN),
            (1, 64) => Some(DOOR_FAST_OPEN),
            (3, 16) => Some(DOOR_CLOSE),
            (3, 64) => Some(DOOR_FAST_CLOSE),
            _ => None,
        };
        let waits = engine::specials::door::BOOM_WAITS.map(i32::from);
        let action = dooms.unwrap_or(boom_door(
            kind,
            nearest(&SPEEDS, speed),
            nearest(&waits, wait),
        ));
        if tag == 0 {
            action | BACK_SECTOR
        } else {
            action
        }
    };
    // ZDoom's lock numbers: 1-3 cards, 4-6 skulls, 129-131 either.
    let lock = |n: i32| -> Option<u8> {
        match n {
            1 | 4 | 129 => Some(trigger::LOCK_RED),
            2 | 5 | 130 => Some(trigger::LOCK_BLUE),
            3 | 6 | 131 => Some(trigger::LOCK_YELLOW),
            _ => None,
        }
    };
    Some(match special {
        10 => (door(3, args[1], 150), how, tag),
        11 => (door(1, args[1], 150), how, tag),
        12 => (door(0, args[1], args[2]), how, tag),
        13 if args[3] == 0 => (door(0, args[1], args[2]), how, tag),
        13 => (door(0, args[1], args[2]), how | lock(args[3])?, tag),
        62 if tag != 0 => {
            let action = match (args[1], args[2]) {
                (32, 105) => LIFT,
                (64, 105) => LIFT_FAST,
                (speed, wait) => {
                    let waits = engine::specials::lift::BOOM_WAITS.map(i32::from);
                    boom_lift(nearest(&SPEEDS, speed), nearest(&waits, wait))
                }
            };
            (action, how, tag)
        }
        // Door_CloseWaitOpen: its wait in eighths of a second.
        249 => (door(2, args[1], args[2] * 35 / 8), how, tag),
        70 => (
            TELEPORT,
            how,
            u16::try_from(args[1]).ok().filter(|&t| t != 0)?,
        ),
        243 => (EXIT, how, 0),
        244 => (SECRET_EXIT, how, 0),
        // A floor, ceiling or light special moves the tagged sectors.
        _ if tag == 0 => return None,
        _ => (doom_plane_special(special, args)?, how, tag),
    })
}

/// The floor, ceiling, stairs, platform and light specials of Hexen
/// numbering that are DOOM's own: the speeds and amounts ZDoom's
/// translation of DOOM's line specials gives them (its `xlat` table:
/// floors in eighths of a unit a tick, 8 for DOOM's 1 unit; stairs 2 and
/// 32; platforms 32 and 64, waiting 105 ticks). Any other speed or amount
/// is no DOOM special, and is not read.
fn doom_plane_special(special: i32, args: &[i32; 5]) -> Option<u8> {
    use wall_action::*;
    let a = (args[1], args[2], args[3], args[4]);
    Some(match (special, a) {
        // Floor_LowerToLowest, Floor_LowerToLowestTxTy.
        (21, (8, ..)) => FLOOR_LOWER_TO_LOWEST,
        (241, (8, ..)) => FLOOR_LOWER_TO_LOWEST_CHANGE,
        // Floor_LowerToHighest: an adjust of 128 is none, 136 is 8 above.
        (242, (8, 128, ..)) => FLOOR_LOWER,
        (242, (32, 136, ..)) => FLOOR_LOWER_FAST,
        // Floor_RaiseToLowestCeiling, Floor_RaiseToNearest.
        (238, (8, ..)) => FLOOR_RAISE,
        (25, (8, ..)) => FLOOR_RAISE_TO_NEXT,
        (25, (32, ..)) => FLOOR_RAISE_TO_NEXT_FAST,
        // Floor_RaiseByValue, Floor_RaiseByValueTxTy, Floor_RaiseByValueTimes8.
        (23, (8, 24, ..)) => FLOOR_RAISE_24,
        (239, (8, 24, ..)) => FLOOR_RAISE_24_CHANGE,
        (35, (8, 64, ..)) => FLOOR_RAISE_512,
        // Floor_RaiseAndCrush (the engine has no health: any damage).
        (28, (8, ..)) => FLOOR_RAISE_CRUSH,
        // Floor_Donut.
        (250, (4, 4, ..)) => DONUT,
        // Ceiling_LowerToFloor, Ceiling_LowerAndCrush, and Generic_Ceiling
        // as DOOM's 40 (up to the highest neighbouring ceiling).
        (254, (8, ..)) => CEILING_LOWER_TO_FLOOR,
        (43, (8, ..)) => CEILING_LOWER_AND_CRUSH,
        (201, (8, 0, 1, 8)) => CEILING_RAISE_TO_HIGHEST,
        // Ceiling_CrushAndRaiseA and its silent twin; Ceiling_CrushStop.
        (196 | 197, (8, 8, ..)) => CEILING_CRUSHER,
        (196 | 197, (16, 16, ..)) => CEILING_CRUSHER_FAST,
        (44, _) => CEILING_CRUSHER_STOP,
        // Stairs_BuildUpDoom.
        (217, (2, 8, ..)) => STAIRS_8,
        (217, (32, 16, ..)) => STAIRS_16_FAST,
        // Plat_DownWaitUpStayLip with no lip, Plat_PerpetualRaiseLip,
        // Plat_Stop, Plat_RaiseAndStayTx0, Plat_UpByValueStayTx (by 8s).
        (206, (32, 105, 0, _)) => LIFT,
        (206, (64, 105, 0, _)) => LIFT_FAST,
        (207, (8, 105, 0, _)) => LIFT_PERPETUAL,
        (61, _) => LIFT_STOP,
        (228, (4, ..)) => PLAT_RAISE_TO_NEXT_CHANGE,
        (230, (4, 3, ..)) => PLAT_RAISE_24_CHANGE,
        (230, (4, 4, ..)) => PLAT_RAISE_32_CHANGE,
        // Light_ChangeToValue, Light_MaxNeighbor, Light_MinNeighbor.
        (112, (255, ..)) => LIGHT_FULL,
        (112, (35, ..)) => LIGHT_DIM,
        (234, _) => LIGHT_BRIGHTEST_AROUND,
        (233, _) => LIGHT_DARKEST_AROUND,
        // Light_StrobeDoom as DOOM's 17: bright 5 ticks, dark 35.
        (232, (5, 35, ..)) => LIGHT_START_STROBE,
        _ => return None,
    })
}

/// Features a thing type stands for (slope and polyobject things, which
/// mean the same in every ZDoom-family port).
pub fn thing_feature(kind: i32) -> Option<Feature> {
    match kind {
        1500 | 1501 | 1504 | 1505 | 9500..=9503 | 9510 | 9511 => Some(Feature::Slopes),
        9300..=9303 => Some(Feature::Polyobjects),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doom_doors_and_lifts() {
        let a = [0; 5];
        let c = |s, t| classify(SpecialSet::Doom, s, t, &a);
        assert_eq!(c(1, 0), Action::OpenDoor(Target::Back));
        assert_eq!(c(117, 0), Action::OpenDoor(Target::Back));
        assert_eq!(c(29, 5), Action::OpenDoor(Target::Tag(5)));
        assert_eq!(c(3, 5), Action::None, "W1 close door does not open");
        assert_eq!(c(62, 9), Action::LowerLift(Target::Tag(9)));
        // Boom generalised: DR open-wait-close, manual; W1 open-stay.
        assert_eq!(c(0x3C00 | 7, 0), Action::OpenDoor(Target::Back));
        assert_eq!(c(0x3C00 | (1 << 5), 4), Action::OpenDoor(Target::Tag(4)));
        assert_eq!(c(0x3C00 | (3 << 5), 4), Action::None, "close-and-stay");
        assert_eq!(c(242, 1), Action::Unsupported(Feature::ExtraFloors));
    }

    #[test]
    fn doom_exits() {
        let e = |s| exit(SpecialSet::Doom, s);
        assert_eq!(e(11), Some((wall_action::EXIT, trigger::USE)));
        assert_eq!(e(51), Some((wall_action::SECRET_EXIT, trigger::USE)));
        assert_eq!(e(52), Some((wall_action::EXIT, trigger::WALK)));
        assert_eq!(e(124), Some((wall_action::SECRET_EXIT, trigger::WALK)));
        assert_eq!(e(1), None);
        // Hexen's 11 is Door_Open, not an exit.
        assert_eq!(exit(SpecialSet::Hexen, 11), None);
    }

    #[test]
    fn doom_teleports() {
        let t = |s| teleport(SpecialSet::Doom, s);
        assert_eq!(t(39), Some((wall_action::TELEPORT, trigger::WALK)));
        assert_eq!(
            t(97),
            Some((wall_action::TELEPORT, trigger::WALK | trigger::REPEAT))
        );
        assert_eq!(t(125), None, "monsters only");
        assert_eq!(teleport(SpecialSet::Hexen, 39), None);
    }

    #[test]
    fn doom_doors_and_lifts_as_movers() {
        use wall_action::*;
        let m = |s| mover(SpecialSet::Doom, s);
        assert_eq!(
            m(1),
            Some((DOOR_RAISE | BACK_SECTOR, trigger::USE | trigger::REPEAT))
        );
        assert_eq!(m(31), Some((DOOR_OPEN | BACK_SECTOR, trigger::USE)));
        assert_eq!(m(4), Some((DOOR_RAISE, trigger::WALK)));
        assert_eq!(m(42), Some((DOOR_CLOSE, trigger::USE | trigger::REPEAT)));
        assert_eq!(m(62), Some((LIFT, trigger::USE | trigger::REPEAT)));
        assert_eq!(m(121), Some((LIFT_FAST, trigger::WALK)));
        // Locked doors keep their key in the trigger; exits are not movers.
        let blue = trigger::USE | trigger::REPEAT | trigger::LOCK_BLUE;
        assert_eq!(m(26), Some((DOOR_RAISE | BACK_SECTOR, blue)));
        assert_eq!(trigger::lock(m(33).unwrap().1), 3);
        assert_eq!(trigger::lock(m(137).unwrap().1), 2);
        assert_eq!(m(99), Some((DOOR_FAST_OPEN, blue)));
        use engine::format::wall_flag;
        assert_eq!(scroll(SpecialSet::Doom, 48), wall_flag::SCROLL_LEFT);
        assert_eq!(scroll(SpecialSet::Doom, 85), wall_flag::SCROLL_RIGHT);
        assert_eq!(scroll(SpecialSet::Doom, 1), 0);
        assert_eq!(scroll(SpecialSet::Hexen, 48), 0);
        use wall_action::{LIGHT_DARKEST_AROUND, LIGHT_START_STROBE};
        let strobe_once = Some((LIGHT_START_STROBE, trigger::WALK));
        assert_eq!(light(SpecialSet::Doom, 17), strobe_once);
        let switch_again = Some((LIGHT_START_STROBE, trigger::USE | trigger::REPEAT));
        assert_eq!(light(SpecialSet::Doom, 193), switch_again);
        assert_eq!(
            light(SpecialSet::Doom, 173),
            Some((LIGHT_DARKEST_AROUND, trigger::USE))
        );
        assert_eq!(light(SpecialSet::Hexen, 17), None);
        assert_eq!(m(11), None);
        assert_eq!(mover(SpecialSet::Hexen, 12), None);
    }

    #[test]
    fn hexen_doors_and_features() {
        let c = |s, a: [i32; 5]| classify(SpecialSet::Hexen, s, a[0], &a);
        assert_eq!(c(12, [0, 16, 150, 0, 0]), Action::OpenDoor(Target::Back));
        assert_eq!(c(12, [7, 16, 150, 0, 0]), Action::OpenDoor(Target::Tag(7)));
        assert_eq!(c(202, [3, 16, 2, 0, 0]), Action::None);
        assert_eq!(
            c(80, [1, 0, 0, 0, 0]),
            Action::Unsupported(Feature::Scripts)
        );
        assert_eq!(
            c(181, [1, 0, 0, 0, 0]),
            Action::Unsupported(Feature::Slopes)
        );
        // Hexen 1 is a polyobject, DOOM 1 a door.
        assert_eq!(
            c(1, [1, 0, 0, 0, 0]),
            Action::Unsupported(Feature::Polyobjects)
        );
    }
}
