//! The text map format: hand-writable, line based.
//!
//! ```text
//! # comment to end of line (also after statements)
//! title "Stairs and steps"
//! vertex NAME X Y                      # X, Y: integer or decimal (e.g. -12.5), within ±32767
//! sector NAME floor F ceiling C [light L] [floor_color COL] [ceiling_color COL] [wall_color COL]
//!        [floor_texture T] [ceiling_texture T] [wall_texture T]
//! loop SECTOR V1 V2 ... Vn V1          # a closed boundary of SECTOR: ends on the vertex it started with
//! textures FILE.wad                    # textures (and palette) from a WAD
//! texture NAME FILE.png                # a texture from a PNG file
//! player X Y ANGLE                     # player 1 start; ANGLE in degrees, counter-clockwise from east (+x)
//! entity X Y RADIUS                    # a pushable round body
//! obstacle X Y RADIUS                  # a round post that never moves and no body enters
//! exit V1 V2 [secret] [walk]           # the wall V1-V2 ends the level: used (or walked over)
//! key blue|yellow|red X Y [skull]      # a keycard (skull key) to pick up; walls take `key COLOUR`
//! scroll V1 V2 [left|right]            # the side on the right of V1 -> V2 scrolls, a unit a tick
//! side V1 V2 [texture T] [upper T] [middle T] [lower T] [offset X Y] [upper_unpegged] [lower_unpegged]
//!                                      # the textures of the side on the right of V1 -> V2
//! ```
//!
//! * One statement per line; tokens are separated by white space. A `#`
//!   starts a comment to the end of the line, except right after
//!   `floor_color`, `ceiling_color` or `wall_color`, where it starts a
//!   `#RRGGBB` colour.
//! * Names are `[A-Za-z_][A-Za-z0-9_]*`. Vertices and sectors have
//!   separate namespaces; defining a name twice is an error. Statements may
//!   come in any order: a loop may name a sector or vertex defined further
//!   down.
//! * A sector has one or more loops: its outer boundary, holes (pillars)
//!   and disjoint pieces. Holes need no marking: a point is inside the
//!   sector if it is inside an odd number of its loops. A loop may go
//!   either way round. Where two sectors' loops share an edge (the same
//!   two vertices, in either order) the edge becomes a portal. A pillar or
//!   platform inside a room must also be a loop of the room.
//! * Numbers are decimal (`12`, `-12.5`, `+0.25`), converted exactly to
//!   16.16 fixed point by integer arithmetic (rounded to the nearest
//!   1/65536, ties away from zero). Coordinates, heights and angles lie
//!   within ±32767. Exponents, `nan`, `inf` and hexadecimal are refused.
//! * `floor`/`ceiling` are required; the ceiling may not be below the
//!   floor. `light` is 0 (dark) to 255, default 160. A colour `COL` is a
//!   palette index 0-255 or `#RRGGBB`, mapped to the nearest colour of
//!   [`engine::render::Palette::builtin`] (the xterm-256 layout). Defaults:
//!   floor 137 (tan), ceiling 250 (light grey), walls 244 (mid grey).
//! * `player`: exactly one. The angle is wrapped into `[0, 360)`. Its
//!   radius is the engine's player radius.
//! * `exit`: the wall between two vertices that follow each other in a
//!   loop (either order) ends the level when the player uses its front
//!   (facing it within 64 units), or with `walk` when the player's centre
//!   crosses it; `secret` goes on to the secret level.
//! * `entity`, `obstacle`: radius above 0 and at most 1024. An obstacle
//!   blocks at every height, as DOOM's solid things (columns, lamps,
//!   monsters) do; neither is drawn (text maps have no sprites).
//! * `title`: at most once, in double quotes (`\"` and `\\` escape), at
//!   most 128 bytes.
//! * Textures (see [`crate::texture`]): `textures FILE.wad` makes the
//!   WAD's wall textures, flats and palette available (a path relative to
//!   the map file; a bare name like `freedoom2.wad` is also looked for in
//!   `$DOOMWADDIR` and `/usr/share/games/doom`; several WADs stack, later
//!   ones on top). With a WAD, every colour of the map (`#RRGGBB` and the
//!   defaults) is taken from the WAD's palette, which the compiled map
//!   carries. `texture NAME FILE.png` defines a texture from a PNG file
//!   (relative to the map file), quantised to that palette (else the
//!   built-in one); alpha below 128 is transparent. It can be used as a
//!   wall texture, a flat (resized to 64x64) or the sky (name it `SKY1`),
//!   and comes before a WAD texture of the same name. Paths with spaces
//!   go in double quotes. Texture names are 1 to 8 characters, any case.
//! * `floor_texture`/`ceiling_texture` name flats (`F_SKY1` shows the sky
//!   texture `SKY1`); `wall_texture` names the wall texture of the
//!   sector's sides: the middle of its one-sided walls and, on a portal,
//!   the parts above and below the opening seen from this sector. `side
//!   V1 V2` sets one side by hand: the wall's side on the right of
//!   `V1 -> V2` (a one-sided wall's only side, either way round);
//!   `texture T` is what `wall_texture` would give it, `upper`, `middle`
//!   and `lower` one part each (a portal's `middle` is drawn see-through),
//!   `offset X Y` skips texture columns and rows, and `upper_unpegged` /
//!   `lower_unpegged` are DOOM's linedef flags, for the whole wall. A
//!   side set twice is an error. A used special (an `exit`, a switched
//!   `door`, `floor`... not a door opened from its own face) whose wall's
//!   front shows an `SW1name` texture becomes a switch when `SW2name` is
//!   also defined: it flips to it, as DOOM's switches do, and back after
//!   a second if the special can be used again. A surface without a
//!   texture keeps its colour. An unknown name is an
//!   error.
//!
//! Errors print like rustc's, with `file:line:column` and the offending
//! tokens underlined; checking goes on after an error to report up to 50
//! at once (the geometry checks of [`crate::build`] run only once the
//! file is otherwise clean, and stop at their first error). Warnings
//! (never fatal) report unused vertices, things outside every sector or
//! overlapping walls or each other, and a player start too low to stand
//! in.

mod lex;
mod lower;
pub mod number;
mod parse;

pub use lower::WAD_DIRS;

/// The name `tools dump --json` gives a floor, ceiling, stairs or lights
/// action: the text format's statement and kind (`floor_lower`,
/// `ceiling_crusher`, `stairs_fast`, `lights_full`), or `None` for
/// another action.
pub fn mover_action_name(action: u8) -> Option<String> {
    let find = |kinds: &[(&'static str, u8)]| kinds.iter().find(|k| k.1 == action).map(|k| k.0);
    if let Some(k) = find(&parse::FLOOR_KINDS) {
        return Some(format!("floor_{k}"));
    }
    if let Some(k) = find(&parse::CEILING_KINDS) {
        return Some(format!("ceiling_{k}"));
    }
    if let Some(k) = find(&parse::STAIRS_KINDS) {
        return Some(format!("stairs_{k}"));
    }
    if let Some(k) = find(&parse::LIGHT_KINDS) {
        return Some(format!("lights_{k}"));
    }
    match action {
        engine::format::wall_action::STAIRS_8 => Some("stairs".into()),
        engine::format::wall_action::LIFT_PERPETUAL => Some("lift_perpetual".into()),
        engine::format::wall_action::LIFT_STOP => Some("lift_stop".into()),
        _ => None,
    }
}

use crate::build::BuildOptions;
use crate::{Diagnostics, Output};

/// Compiles a text map. `file_name` is used in messages, and its
/// directory is where `texture` and `textures` files are looked for.
///
/// On success the [`Output`] holds the compiled bytes, their figures and
/// the warnings, each rendered like rustc's. On failure the
/// [`Diagnostics`] print every error found.
pub fn compile_source(text: &str, file_name: &str) -> Result<Output, Diagnostics> {
    compile_source_with(text, file_name, BuildOptions::default())
}

/// [`compile_source`] with builder options (such as the block size).
pub fn compile_source_with(
    text: &str,
    file_name: &str,
    opts: BuildOptions,
) -> Result<Output, Diagnostics> {
    lower::compile(text, file_name, opts, &[])
}

/// Files a text map's `texture` and `textures` statements read, given
/// with the source rather than read from the disk: each as the path the
/// statement writes and the file's bytes. A level built into a program
/// carries its textures this way, so that it needs no files beside the
/// binary.
pub type EmbeddedFiles<'f> = &'f [(&'f str, &'f [u8])];

/// [`compile_source`] with files given with the source: a statement
/// naming one of `files` reads it from there, any other from the disk
/// (relative to `file_name`'s directory).
pub fn compile_source_with_files<'a>(
    text: &'a str,
    file_name: &str,
    files: EmbeddedFiles<'a>,
) -> Result<Output, Diagnostics> {
    lower::compile(text, file_name, BuildOptions::default(), files)
}

/// The candidate closest to `word` by edit distance, if it is close enough
/// to be a likely typo.
pub(crate) fn suggest<'c>(
    word: &str,
    candidates: impl Iterator<Item = &'c str>,
) -> Option<&'c str> {
    // Long words are never typos of our short names, and comparing them
    // would cost time on hostile input.
    if word.len() > 64 {
        return None;
    }
    // A third of the letters may be wrong: `hal` finds `hall`, but `x`
    // finds nothing rather than every one-letter name.
    let limit = word.chars().count() / 3;
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c.len() > 64 {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(word) {
            0
        } else if c.len().abs_diff(word.len()) > limit {
            continue;
        } else {
            edit_distance(word, c)
        };
        if d <= limit && best.is_none_or(|(bd, bc)| (d, c) < (bd, bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests;
