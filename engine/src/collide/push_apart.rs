//! Round bodies pushing each other apart.
//!
//! Every overlapping pair is separated by its overlap, split evenly between
//! the two. Pairs come from a uniform grid with cells as wide as the
//! largest body, so only bodies in neighbouring cells are compared, never
//! all n² pairs.
//!
//! A body marked unstable (one that has just appeared, possibly on top of
//! another) passes its instability on to whatever it touches; the game
//! changes only the positions of unstable bodies, not their velocities, so
//! a body spawned inside a crowd is separated without shooting off.

use heapless::Vec as HVec;

use crate::config::MAX_BODIES;
use crate::math::{sqrt_wide, wide, Fx, Vec2, WVec, Wide};

/// A body as the pair test sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Disc {
    /// Centre.
    pub pos: Vec2,
    /// Feet.
    pub z: Fx,
    /// Radius.
    pub radius: Fx,
    /// Height.
    pub height: Fx,
}

/// The result for one body.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Separation {
    /// How far to move it.
    pub adjust: WVec,
    /// It overlapped at least one other body.
    pub collided: bool,
}

/// Computes the separation of every overlapping pair among `discs`.
/// `stable[i]` is cleared for every body that touched an unstable one.
/// Bodies beyond [`MAX_BODIES`] are ignored. Returns the number of pairs
/// tested.
pub fn push_apart(discs: &[Disc], stable: &mut [bool], out: &mut [Separation]) -> usize {
    let n = discs.len().min(MAX_BODIES).min(out.len()).min(stable.len());
    for s in out.iter_mut() {
        *s = Separation::default();
    }
    let max_r = discs[..n].iter().map(|d| d.radius).max().unwrap_or(Fx::ONE);
    let cell = (wide(max_r) * 2).max(Wide::ONE);
    let key_of = |p: Vec2| -> (i64, i64) {
        let c = |v: Fx| (wide(v) / cell).floor().to_num::<i64>();
        (c(p.x), c(p.y))
    };
    // Bodies sorted by cell, so each cell's bodies form one run.
    let mut order: HVec<((i64, i64), usize), MAX_BODIES> = HVec::new();
    for (i, d) in discs[..n].iter().enumerate() {
        let _ = order.push((key_of(d.pos), i));
    }
    order.sort_unstable();
    let mut tested = 0;
    for i in 0..n {
        let (cx, cy) = key_of(discs[i].pos);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let key = (cx + dx, cy + dy);
                let start = order.partition_point(|e| e.0 < key);
                for &(k, j) in order[start..].iter() {
                    if k != key {
                        break;
                    }
                    if j <= i {
                        continue;
                    }
                    tested += 1;
                    separate(discs, i, j, stable, out);
                }
            }
        }
    }
    tested
}

fn separate(discs: &[Disc], i: usize, j: usize, stable: &mut [bool], out: &mut [Separation]) {
    let (a, b) = (&discs[i], &discs[j]);
    // Bodies one above the other do not touch.
    if a.z + a.height <= b.z || b.z + b.height <= a.z {
        return;
    }
    let delta = a.pos.wide().sub(b.pos.wide());
    let reach = wide(a.radius) + wide(b.radius);
    if delta.x.abs() >= reach || delta.y.abs() >= reach {
        return;
    }
    let d2 = delta.length_squared();
    if d2 >= reach * reach {
        return;
    }
    let dist = sqrt_wide(d2);
    let half = (reach - dist) / 2;
    let push = if dist == Wide::ZERO {
        // Exactly on top of each other: a fixed direction keeps it
        // deterministic.
        WVec::new(half, Wide::ZERO)
    } else {
        WVec::new(delta.x * half / dist, delta.y * half / dist)
    };
    out[i].adjust = out[i].adjust.add(push);
    out[j].adjust = out[j].adjust.sub(push);
    out[i].collided = true;
    out[j].collided = true;
    let both = stable[i] && stable[j];
    stable[i] = both;
    stable[j] = both;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(x: i32, y: i32, r: i32) -> Disc {
        Disc {
            pos: Vec2::from_int(x, y),
            z: Fx::ZERO,
            radius: Fx::from_num(r),
            height: Fx::from_num(56),
        }
    }

    #[test]
    fn overlap_is_split_between_the_pair() {
        let d = [disc(0, 0, 10), disc(15, 0, 10)];
        let mut stable = [true, true];
        let mut out = [Separation::default(); 2];
        push_apart(&d, &mut stable, &mut out);
        assert_eq!(out[0].adjust, WVec::new(Wide::from_num(-2.5), Wide::ZERO));
        assert_eq!(out[1].adjust, WVec::new(Wide::from_num(2.5), Wide::ZERO));
    }

    #[test]
    fn far_and_stacked_bodies_do_not_interact() {
        let mut high = disc(5, 0, 10);
        high.z = Fx::from_num(60);
        let d = [disc(0, 0, 10), disc(100, 0, 10), high];
        let mut stable = [true; 3];
        let mut out = [Separation::default(); 3];
        push_apart(&d, &mut stable, &mut out);
        assert!(out.iter().all(|s| !s.collided));
    }

    #[test]
    fn instability_spreads_to_what_it_touches() {
        let d = [disc(0, 0, 10), disc(5, 0, 10), disc(200, 0, 10)];
        let mut stable = [true, false, true];
        let mut out = [Separation::default(); 3];
        push_apart(&d, &mut stable, &mut out);
        assert_eq!(stable, [false, false, true]);
    }

    #[test]
    fn grid_finds_the_same_pairs_as_all_pairs() {
        // A ring of bodies around cell corners.
        let mut d: [Disc; 12] = [disc(0, 0, 10); 12];
        for (k, item) in d.iter_mut().enumerate() {
            *item = disc((k as i32 % 4) * 17 - 20, (k as i32 / 4) * 17 - 20, 10);
        }
        let mut stable = [true; 12];
        let mut out = [Separation::default(); 12];
        push_apart(&d, &mut stable, &mut out);
        let mut brute = [Separation::default(); 12];
        let mut st2 = [true; 12];
        for i in 0..12 {
            for j in i + 1..12 {
                separate(&d, i, j, &mut st2, &mut brute);
            }
        }
        assert_eq!(out, brute);
    }
}
