//! The textured benchmark scene: the property tests' arena with DOOM-like
//! textures everywhere (64x128 walls, 64x64 flats, a sky over the pit, a
//! grate in one portal) and a dozen decorations.

use engine::format::{kind, ThingRecord, NONE, SKY};
use engine::math::Fx;

use super::textured::{middle, Retex, SideRecordExt};

/// Compiled bytes of the scene built on `arena` (the compiled arena).
pub fn textured_scene(arena: &[u8]) -> Vec<u8> {
    let mut m = Retex::from_bytes(arena);
    let pattern = |c: usize, r: usize| b"123456789ABDEGHI"[(c * 7 + r * 3) % 16];
    let wall = m.texture(64, 128, pattern);
    let flat = m.texture(64, 64, pattern);
    let sky = m.texture(256, 128, pattern);
    let grate = m.texture(
        64,
        128,
        |c, r| if (c / 8 + r / 8) % 2 == 0 { b'X' } else { b'.' },
    );
    m.masked(grate);
    let sprite = m.texture(32, 56, |c, r| {
        if (c as i32 - 16).abs() * 2 > r as i32 {
            b'.'
        } else {
            b'Z'
        }
    });
    m.masked(sprite);
    m.origin(sprite, 16, 56);
    m.sky = Some(sky);
    for w in 0..m.walls.len() {
        let side = m.side(
            engine::format::SideRecord {
                upper: wall,
                lower: wall,
                middle: if m.walls[w].back == NONE { wall } else { NONE },
                ..middle(NONE)
            }
            .with_offsets(w as i16 * 8, 0),
        );
        m.walls[w].front_side = side;
        m.walls[w].back_side = side;
    }
    // The grate between the hall and the step-up room.
    if let Some(w) = (0..m.walls.len()).find(|&w| m.walls[w].back != NONE) {
        let side = m.side(middle(grate));
        m.walls[w].front_side = side;
    }
    for (i, s) in m.sectors.iter_mut().enumerate() {
        s.floor_texture = flat;
        s.ceiling_texture = if i == 2 { SKY } else { flat };
    }
    for (x, y) in [
        (100, 100),
        (400, 100),
        (700, 100),
        (900, 300),
        (400, 400),
        (150, 700),
        (350, 800),
        (1200, 200),
        (1300, 400),
        (1700, 100),
        (1800, 400),
        (256, 1300),
    ] {
        m.things.push(ThingRecord {
            x: Fx::from_num(x),
            y: Fx::from_num(y),
            kind: kind::DECORATION,
            sprite,
            ..Default::default()
        });
    }
    m.bytes()
}
