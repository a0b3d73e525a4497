//! Shared by the targets: everything a loaded map must survive.
//!
//! Any map that loads is played for a few dozen ticks of varied input and
//! rendered, with and without sprites, from cameras at its vertices, at its things
//! and far outside it, at several angles and into a small frame. None of it may panic,
//! loop forever or read out of range.

use engine::game::{Game, Input};
use engine::math::{Angle, Fx, Vec2};
use engine::render::{render, Camera, Frame, Palette, Scene, Shades};
use engine::world::{Level, SectorId};

pub fn exercise(level: Level<'_>, seed: u64) {
    let shades: Shades<u32> = Shades::for_map(level.map());
    let mut pixels = [0u32; 40 * 25];
    let mut s = seed | 1;
    let mut next = || {
        // xorshift: deterministic variety from the input's own bytes.
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut game = Game::new(level);
    for _ in 0..40 {
        let r = next();
        let input = Input::new(
            (r % 201) as i32 - 100,
            ((r >> 8) % 201) as i32 - 100,
            ((r >> 16) % 61) as i32 - 30,
        )
        // Use now and then: doors and lifts start and move.
        .with_use((r >> 24) % 4 == 0);
        game.tick(input);
    }
    // The level as the movers left it.
    if let Some(mut frame) = Frame::new(&mut pixels, 40, 25, 40) {
        render(&Scene::of_game(&game), &shades, &mut frame);
    }
    let mut cameras = heapless_cameras(&level, &mut next);
    cameras.push(game.camera());
    for cam in cameras {
        if let Some(mut frame) = Frame::new(&mut pixels, 40, 25, 40) {
            render(&Scene::new(&level, cam), &shades, &mut frame);
        }
        // Without the map's sprites, and in wide pixels.
        if let Some(frame) = Frame::new(&mut pixels, 40, 25, 40) {
            let scene = Scene::new(&level, cam).with_sprites(&[]);
            render(&scene, &shades, &mut frame.with_wide_pixels());
        }
    }
}

fn heapless_cameras(level: &Level<'_>, next: &mut impl FnMut() -> u64) -> Vec<Camera> {
    let map = level.map();
    let mut out = Vec::new();
    let n = map.vertex_count().min(8);
    for i in 0..n {
        let v = map.vertex(i);
        let pos = Vec2::new(v.x, v.y);
        out.push(Camera {
            pos,
            eye_z: Fx::from_num(41),
            angle: Angle::from_int_degrees((next() % 360) as i32),
            sector: level.locate(pos).unwrap_or(SectorId((next() % 4) as u16)),
        });
    }
    for far in [Vec2::from_int(32767, -32768), Vec2::from_int(-32768, 32767)] {
        out.push(Camera {
            pos: far,
            eye_z: Fx::from_bits(next() as i32),
            angle: Angle::from_int_degrees((next() % 360) as i32),
            sector: SectorId(0),
        });
    }
    let _ = Palette::builtin();
    out
}

/// A seed from the input bytes (FNV-1a).
pub fn seed_of(data: &[u8]) -> u64 {
    data.iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}
