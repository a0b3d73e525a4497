//! Fixed views of a level, for benchmarks: the same map and seed give the
//! same cameras on every machine, so the desktop's timedemo and the N64's
//! view tour render the same frames.
//!
//! * [`player_starts`]: every player start, facing its own angle;
//! * [`turning`]: one camera turned through equal steps of a whole turn;
//! * [`sampled`]: points drawn from the map's bounding box by a seeded
//!   generator ([`Rng`]), kept when they are inside a sector the player
//!   fits in (ceiling at least [`player::HEIGHT`] above the floor), each
//!   with a random facing.
//!
//! Every camera has the eye [`player::EYE_HEIGHT`] above the floor of the
//! sector it stands in. No allocation: each is an iterator.

use crate::config::player;
use crate::format::kind;
use crate::math::{Angle, Fx, Vec2};
use crate::world::{Camera, Level};

/// Random points a benchmark tries per viewpoint it wants before giving
/// up (a map whose sectors fill little of its bounding box gets fewer).
pub const TRIES_PER_VIEWPOINT: usize = 200;

/// A small, fast, seeded generator (xorshift64*): the same numbers on
/// every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        // SplitMix64's finaliser spreads nearby seeds apart; `| 1` keeps
        // the state non-zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut s = self.0;
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        self.0 = s;
        s.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `lo..hi` (`lo` if the range is empty).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = hi.abs_diff(lo);
        lo.wrapping_add((self.next_u64() % span) as i64)
    }
}

/// The camera at eye height above the floor of the sector at `pos`,
/// facing `angle`, and the room there (ceiling minus floor); `None`
/// outside every sector.
pub fn camera_at(level: &Level<'_>, pos: Vec2, angle: Angle) -> Option<(Camera, Fx)> {
    let sector = level.locate(pos)?;
    let s = level.sector(sector);
    let camera = Camera {
        pos,
        eye_z: s.floor + player::EYE_HEIGHT,
        angle,
        sector,
    };
    Some((camera, s.ceiling - s.floor))
}

/// Every player start inside a sector, in the map's order, facing its own
/// angle.
pub fn player_starts<'l>(level: &'l Level<'_>) -> impl Iterator<Item = Camera> + 'l {
    level
        .map()
        .things()
        .filter(|t| t.kind == kind::PLAYER_START)
        .filter_map(move |t| {
            camera_at(level, Vec2::new(t.x, t.y), Angle::from_degrees(t.angle)).map(|(c, _)| c)
        })
}

/// `first` and `facings - 1` more, each `360 / facings` degrees
/// counter-clockwise of the last.
pub fn turning(first: Camera, facings: usize) -> impl Iterator<Item = Camera> {
    let count = i32::try_from(facings).unwrap_or(i32::MAX).max(1);
    let step = Fx::from_num(360) / count;
    (0..count).map(move |i| Camera {
        angle: Angle::from_degrees(first.angle.degrees() + step * i),
        ..first
    })
}

/// Points sampled inside `level` for `seed` (see the module docs), at most
/// `tries` points drawn in all; each draw is made whether or not its point
/// is kept, so the sequence depends only on the seed and the map.
pub fn sampled<'l, 'a>(level: &'l Level<'a>, seed: u64, tries: usize) -> Sampled<'l, 'a> {
    let map = level.map();
    let (mut lo, mut hi) = ((i32::MAX, i32::MAX), (i32::MIN, i32::MIN));
    for i in 0..map.vertex_count() {
        let v = map.vertex(i);
        let (x, y) = (v.x.to_bits(), v.y.to_bits());
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    Sampled {
        level,
        rng: Rng::new(seed),
        lo,
        hi,
        // A map without vertices has nothing to sample.
        tries: if lo.0 > hi.0 { 0 } else { tries },
    }
}

/// The iterator of [`sampled`].
#[derive(Clone, Debug)]
pub struct Sampled<'l, 'a> {
    level: &'l Level<'a>,
    rng: Rng,
    lo: (i32, i32),
    hi: (i32, i32),
    tries: usize,
}

impl Iterator for Sampled<'_, '_> {
    type Item = Camera;

    fn next(&mut self) -> Option<Camera> {
        let full_turn = i64::from(Fx::from_num(360).to_bits());
        while self.tries > 0 {
            self.tries -= 1;
            let x = self.rng.range(i64::from(self.lo.0), i64::from(self.hi.0)) as i32;
            let y = self.rng.range(i64::from(self.lo.1), i64::from(self.hi.1)) as i32;
            let a = self.rng.range(0, full_turn) as i32;
            let pos = Vec2::new(Fx::from_bits(x), Fx::from_bits(y));
            let angle = Angle::from_degrees(Fx::from_bits(a));
            if let Some((camera, room)) = camera_at(self.level, pos, angle) {
                if room >= player::HEIGHT {
                    return Some(camera);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    fn hangar() -> Vec<u8> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/e1_hangar.map");
        tools::load_map(std::path::Path::new(path))
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .bytes
    }

    #[test]
    fn turning_steps_through_a_whole_turn_in_place() {
        let bytes = hangar();
        let level = Level::load(&bytes).unwrap();
        let start = player_starts(&level).next().expect("a player start");
        let views: Vec<Camera> = turning(start, 8).collect();
        assert_eq!(views.len(), 8);
        assert_eq!(views[0], start);
        for (i, v) in views.iter().enumerate() {
            assert_eq!(
                (v.pos, v.eye_z, v.sector),
                (start.pos, start.eye_z, start.sector)
            );
            let want = start.angle.degrees() + Fx::from_num(45 * i as i32);
            assert_eq!(
                *v,
                Camera {
                    angle: Angle::from_degrees(want),
                    ..start
                },
                "facing {i}"
            );
        }
    }

    #[test]
    fn sampled_points_depend_on_the_seed_alone_and_fit_the_player() {
        let bytes = hangar();
        let level = Level::load(&bytes).unwrap();
        let a: Vec<Camera> = sampled(&level, 1, 2000).take(16).collect();
        let b: Vec<Camera> = sampled(&level, 1, 2000).take(16).collect();
        let c: Vec<Camera> = sampled(&level, 2, 2000).take(16).collect();
        assert_eq!(a.len(), 16);
        assert_eq!(a, b);
        assert_ne!(a, c);
        for v in &a {
            assert_eq!(level.locate(v.pos), Some(v.sector));
            let s = level.sector(v.sector);
            assert_eq!(v.eye_z, s.floor + player::EYE_HEIGHT);
            assert!(s.ceiling - s.floor >= player::HEIGHT);
        }
        // The draws are bounded: no tries, no points.
        assert_eq!(sampled(&level, 1, 0).count(), 0);
    }

    #[test]
    fn the_generator_is_fixed() {
        // Pinned: every benchmark's viewpoints depend on these numbers.
        let mut rng = Rng::new(1);
        let first = [rng.next_u64(), rng.next_u64(), rng.next_u64()];
        assert_eq!(
            first,
            [
                0x4b46_a55d_f361_1b9b,
                0xd7e1_f141_0e76_3ef4,
                0x5f14_ec66_975f_9b06
            ]
        );
        assert_eq!(Rng::new(0).next_u64(), 0x7bbc_b40d_5506_82d0);
        let mut r = Rng::new(7);
        for _ in 0..1000 {
            let v = r.range(-5, 5);
            assert!((-5..5).contains(&v));
        }
        assert_eq!(r.range(3, 3), 3);
        assert_eq!(r.range(5, 4), 5);
        // The widest range does not overflow.
        let _ = r.range(i64::MIN, i64::MAX);
    }
}
