//! DOOM's light model, as tables built at compile time.
//!
//! DOOM keeps 32 light maps (COLORMAP: map 0 brightest) and picks one per
//! wall column, floor row or sprite from the sector's light level and the
//! distance:
//!
//! * the sector light `0..=255` becomes one of 16 *light numbers*
//!   (`light >> LIGHTSEGSHIFT`); walls running exactly east-west get one
//!   less, exactly north-south one more (the fake contrast);
//! * a light number `n` starts at map `(15 - n) * 4` and brightens with
//!   nearness: walls and sprites by their scale (`scalelight`: half a map
//!   per step of `scale >> 12`, at most 47 steps), floors and ceilings by
//!   their distance (`zlight`: `160 / (distance / 16 + 1) / 2` maps);
//! * the sky is drawn full bright.
//!
//! The scale is taken as DOOM takes it on a 320-column screen (a focal
//! length of 160), whatever the frame width, so the light of a surface
//! depends on its distance alone. A [`super::Shades`] level `l` is DOOM's
//! map `31 - l`.

use super::shade::LIGHT_LEVELS;

/// Sector light numbers (DOOM's `LIGHTLEVELS`).
const LIGHT_NUMBERS: usize = 16;
/// Sector light to light number (DOOM's `LIGHTSEGSHIFT`).
const LIGHT_SEG_SHIFT: u32 = 4;
/// Scale steps (DOOM's `MAXLIGHTSCALE`).
pub(crate) const MAX_LIGHT_SCALE: usize = 48;
/// Distance steps (DOOM's `MAXLIGHTZ`).
const MAX_LIGHT_Z: usize = 128;
/// A 16.16 distance to a distance step (DOOM's `LIGHTZSHIFT`).
const LIGHT_Z_SHIFT: u32 = 20;
/// DOOM's focal length at 320 columns, in pixels.
const DOOM_FOCAL: i64 = 160;
/// `(DOOM_FOCAL << 32) >> LIGHTSCALESHIFT`: divided by a 16.16 depth it
/// gives DOOM's scale step.
pub(crate) const SCALE_NUMERATOR: i64 = DOOM_FOCAL << 20;

/// The level a full-bright surface (the sky) is drawn at.
pub(crate) const FULL_BRIGHT: usize = LIGHT_LEVELS - 1;

/// DOOM's first (darkest-when-far) light map for light number `n`.
const fn start_map(n: usize) -> i32 {
    ((LIGHT_NUMBERS - 1 - n) * 2 * LIGHT_LEVELS / LIGHT_NUMBERS) as i32
}

/// A DOOM light map index as a [`super::Shades`] level.
const fn level_of(map: i32) -> u8 {
    let map = if map < 0 {
        0
    } else if map >= LIGHT_LEVELS as i32 {
        LIGHT_LEVELS as i32 - 1
    } else {
        map
    };
    (LIGHT_LEVELS as i32 - 1 - map) as u8
}

/// DOOM's `scalelight` (at 320 columns), as levels.
static SCALE_LIGHT: [[u8; MAX_LIGHT_SCALE]; LIGHT_NUMBERS] = {
    let mut t = [[0u8; MAX_LIGHT_SCALE]; LIGHT_NUMBERS];
    let mut n = 0;
    while n < LIGHT_NUMBERS {
        let mut j = 0;
        while j < MAX_LIGHT_SCALE {
            // j * SCREENWIDTH / viewwidth / DISTMAP, with viewwidth 320.
            t[n][j] = level_of(start_map(n) - j as i32 / 2);
            j += 1;
        }
        n += 1;
    }
    t
};

/// DOOM's `zlight`, as levels.
static Z_LIGHT: [[u8; MAX_LIGHT_Z]; LIGHT_NUMBERS] = {
    let mut t = [[0u8; MAX_LIGHT_Z]; LIGHT_NUMBERS];
    let mut n = 0;
    while n < LIGHT_NUMBERS {
        let mut j = 0;
        while j < MAX_LIGHT_Z {
            // FixedDiv(160 << 16, (j + 1) << 20) >> 12 == 160 / (j + 1).
            let scale = DOOM_FOCAL as i32 / (j as i32 + 1);
            t[n][j] = level_of(start_map(n) - scale / 2);
            j += 1;
        }
        n += 1;
    }
    t
};

/// The light number of a sector light plus a contrast (-1, 0 or +1).
#[inline]
pub(crate) fn number(sector_light: u8, contrast: i32) -> usize {
    ((sector_light >> LIGHT_SEG_SHIFT) as i32 + contrast).clamp(0, LIGHT_NUMBERS as i32 - 1)
        as usize
}

/// `SCALE_DEPTHS[j] = SCALE_NUMERATOR / j`: the scale step of a depth
/// `d` is at least `j` exactly when `d <= SCALE_DEPTHS[j]` (entry 0
/// holds every depth).
static SCALE_DEPTHS: [i64; MAX_LIGHT_SCALE] = {
    let mut t = [i64::MAX; MAX_LIGHT_SCALE];
    let mut j = 1;
    while j < MAX_LIGHT_SCALE {
        t[j] = SCALE_NUMERATOR / j as i64;
        j += 1;
    }
    t
};

/// Depths per entry of [`BUCKET_STEPS`]: one map unit (16.16 bits).
const BUCKET_SHIFT: u32 = 16;

/// The scale step at the first depth of each run of `2^BUCKET_SHIFT`
/// depths, up to `SCALE_NUMERATOR` (past it the step is 0). The step
/// changes at most once within a run (checked below), so the step of
/// any depth is its run's entry, or one less past the run's change.
static BUCKET_STEPS: [u8; (SCALE_NUMERATOR >> BUCKET_SHIFT) as usize + 1] = {
    let mut t = [0u8; (SCALE_NUMERATOR >> BUCKET_SHIFT) as usize + 1];
    let mut b = 0;
    while b < t.len() {
        let d = if b == 0 {
            1
        } else {
            (b as i64) << BUCKET_SHIFT
        };
        let step = SCALE_NUMERATOR / d;
        t[b] = if step > MAX_LIGHT_SCALE as i64 - 1 {
            MAX_LIGHT_SCALE as u8 - 1
        } else {
            step as u8
        };
        b += 1;
    }
    t
};

// The depths where the step changes are further apart than a run: the
// nearest two are those of steps 46 and 47.
const _: () = {
    let mut j = 1;
    while j + 1 < MAX_LIGHT_SCALE {
        assert!(SCALE_NUMERATOR / j as i64 - SCALE_NUMERATOR / (j as i64 + 1) > 1 << BUCKET_SHIFT);
        j += 1;
    }
};

/// DOOM's scale step of `depth` (16.16 map units, positive):
/// `min(SCALE_NUMERATOR / depth, 47)`, by two table look-ups instead of
/// a division (a library call for 64 bits on 32-bit targets such as the
/// N64) or a search from a nearby step (whose loops' exits the branch
/// predictor misses).
#[inline]
pub(crate) fn scale_step(depth: i64) -> usize {
    let d = depth.max(1);
    // (Converted with a check: on a 32-bit target a cast would wrap a
    // far depth into the table.)
    let run = usize::try_from(d >> BUCKET_SHIFT).unwrap_or(usize::MAX);
    let Some(&first) = BUCKET_STEPS.get(run) else {
        return 0;
    };
    let step = first as usize;
    // Past the one change in the run: a step less (entry 0 holds every
    // depth, so a step of 0 stays 0).
    let past = SCALE_DEPTHS.get(step).is_some_and(|&t| d > t);
    step.saturating_sub(past as usize)
}

/// `RECIP_STEPS[j]`: the least `r` with a scale step of `j` or more at
/// the depth `u64::MAX / r` (rounded down): the depth is at most
/// `SCALE_NUMERATOR / j` (rounded down), `D`, exactly when
/// `u64::MAX < r * (D + 1)`. Entry 0 is 0 (every `r`).
static RECIP_STEPS: [u64; MAX_LIGHT_SCALE] = {
    let mut t = [0u64; MAX_LIGHT_SCALE];
    let mut j = 1;
    while j < MAX_LIGHT_SCALE {
        let most = (SCALE_NUMERATOR / j as i64) as u64;
        t[j] = u64::MAX / (most + 1) + 1;
        j += 1;
    }
    t
};

/// Reciprocals per entry of [`RECIP_BUCKET_STEPS`] (a power of two,
/// below the least gap between entries of [`RECIP_STEPS`], checked
/// below, so that the step changes at most once within a run).
const RECIP_BUCKET_SHIFT: u32 = 36;

/// The scale step at the first reciprocal of each run of
/// `2^RECIP_BUCKET_SHIFT`, up to the run of the last step's threshold.
static RECIP_BUCKET_STEPS: [u8; (RECIP_STEPS[MAX_LIGHT_SCALE - 1] >> RECIP_BUCKET_SHIFT) as usize
    + 1] = {
    let mut t = [0u8; (RECIP_STEPS[MAX_LIGHT_SCALE - 1] >> RECIP_BUCKET_SHIFT) as usize + 1];
    let mut b = 0;
    while b < t.len() {
        let r = (b as u64) << RECIP_BUCKET_SHIFT;
        let mut step = 0;
        while step + 1 < MAX_LIGHT_SCALE && RECIP_STEPS[step + 1] <= r {
            step += 1;
        }
        t[b] = step as u8;
        b += 1;
    }
    t
};

const _: () = {
    let mut j = 1;
    while j + 1 < MAX_LIGHT_SCALE {
        assert!(RECIP_STEPS[j + 1] - RECIP_STEPS[j] > 1 << RECIP_BUCKET_SHIFT);
        j += 1;
    }
};

/// [`scale_step`] of the depth `u64::MAX / r` (rounded down; `r` at
/// least 1), from `r` itself: where a wall's depth is stepped across its
/// columns as a reciprocal, its light need not wait for the division
/// that gives the depth (the texture's step and column do).
#[inline]
pub(crate) fn scale_step_of_recip(r: u64) -> usize {
    let run = usize::try_from(r >> RECIP_BUCKET_SHIFT).unwrap_or(usize::MAX);
    let Some(&first) = RECIP_BUCKET_STEPS.get(run) else {
        return MAX_LIGHT_SCALE - 1;
    };
    let step = first as usize;
    // Past the run's one change: a step more.
    let past = RECIP_STEPS.get(step + 1).is_some_and(|&t| r >= t);
    step + past as usize
}

/// The level of a wall column or sprite of light number `n` at `depth`
/// (16.16 map units, positive): DOOM's scale step
/// `min(SCALE_NUMERATOR / depth, 47)` ([`scale_step`]).
#[inline]
pub(crate) fn by_scale(n: usize, depth: i64) -> usize {
    by_step(n, scale_step(depth) as u64)
}

/// [`by_scale`] for a depth whose scale step `SCALE_NUMERATOR / depth`
/// is already known.
#[inline]
pub(crate) fn by_step(n: usize, step: u64) -> usize {
    in_row(scale_row(n), step)
}

/// The scale-step-to-level row of a wall of light number `n`, for
/// [`in_row`]: looked up once a seg rather than in every column.
#[inline]
pub(crate) fn scale_row(n: usize) -> &'static [u8; MAX_LIGHT_SCALE] {
    &SCALE_LIGHT[n.min(LIGHT_NUMBERS - 1)]
}

/// [`by_step`] of the light number whose [`scale_row`] is `row`.
#[inline]
pub(crate) fn in_row(row: &[u8; MAX_LIGHT_SCALE], step: u64) -> usize {
    row[step.min(MAX_LIGHT_SCALE as u64 - 1) as usize] as usize
}

/// The distance-to-level row of a floor or ceiling of light number `n`.
#[inline]
pub(crate) fn z_row(n: usize) -> &'static [u8; MAX_LIGHT_Z] {
    &Z_LIGHT[n.min(LIGHT_NUMBERS - 1)]
}

/// The [`z_row`] index for a 16.16 distance (what [`PlaneLight`]
/// computes in 32 bits).
#[cfg(test)]
fn z_index(distance: u64) -> usize {
    ((distance >> LIGHT_Z_SHIFT) as usize).min(MAX_LIGHT_Z - 1)
}

/// The light down one run of a floor or ceiling, from the reciprocal
/// table alone, in 32-bit arithmetic: `zlight` at the distance
/// `height * r` of the row whose reciprocal is `r`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PlaneLight {
    row: &'static [u8; MAX_LIGHT_Z],
    /// `|plane - eye|` with 4 fraction bits (below 2^21).
    height: u32,
    /// The first reciprocal whose distance step is the last one.
    cap: u32,
}

impl PlaneLight {
    /// The light of a plane of light number `n`, `height` (16.16) above or
    /// below the eye.
    pub(crate) fn new(n: usize, height: u64) -> PlaneLight {
        let h = (height.min(1 << 33) >> 12) as u32;
        let last = (MAX_LIGHT_Z as u64 - 1) << (LIGHT_Z_SHIFT + 4);
        let cap = match h {
            0 => u32::MAX,
            h => last.div_ceil(h as u64).min(u32::MAX as u64) as u32,
        };
        PlaneLight {
            row: z_row(n),
            height: h,
            cap,
        }
    }

    /// The level of the row whose reciprocal (16.16) is `r`.
    #[inline]
    pub(crate) fn level(&self, r: u32) -> usize {
        // Below the cap, height * r < 127 << 24: no overflow.
        let step = if r >= self.cap {
            MAX_LIGHT_Z as u32 - 1
        } else {
            self.height.wrapping_mul(r) >> (LIGHT_Z_SHIFT + 4)
        };
        self.row[step as usize & (MAX_LIGHT_Z - 1)] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIT: i64 = 1 << 16;

    #[test]
    fn full_light_is_full_bright_at_any_distance() {
        let n = number(255, 0);
        assert_eq!(n, 15);
        for d in [1, 64, 1000, 30000] {
            assert_eq!(by_scale(n, d * UNIT), 31);
            assert_eq!(z_row(n)[z_index(d as u64 * UNIT as u64)], 31);
        }
    }

    #[test]
    fn the_scale_step_needs_no_division() {
        let edges = (1..=MAX_LIGHT_SCALE as i64).map(|j| SCALE_NUMERATOR / j);
        let depths = (1..5000i64).chain((0..40).map(|k| 1i64 << k)).chain(edges);
        for d in depths.flat_map(|d| [d - 1, d, d + 1]) {
            let d = d.max(1);
            let want = (SCALE_NUMERATOR / d).min(MAX_LIGHT_SCALE as i64 - 1) as usize;
            assert_eq!(scale_step(d), want, "{d}");
            for n in [0, 7, 15] {
                assert_eq!(by_scale(n, d), SCALE_LIGHT[n][want] as usize, "{d}");
                assert_eq!(by_scale(n, d * 997), {
                    let w = (SCALE_NUMERATOR / (d * 997)).min(47) as usize;
                    SCALE_LIGHT[n][w] as usize
                });
            }
        }
    }

    /// The table's step is the division's at every depth: both are
    /// constant between the depths tested here (the table's changes only
    /// at a run's first depth and one past a depth of `SCALE_DEPTHS`,
    /// the division's only at the latter), so agreeing at each of them
    /// and the depth before it is agreeing everywhere.
    #[test]
    fn the_scale_step_by_table_is_the_division_at_every_depth() {
        let step = |d: i64| (SCALE_NUMERATOR / d.max(1)).min(MAX_LIGHT_SCALE as i64 - 1) as usize;
        let runs = (0..=BUCKET_STEPS.len() as i64 + 1).map(|b| b << BUCKET_SHIFT);
        let changes = (1..MAX_LIGHT_SCALE as i64).map(|j| SCALE_NUMERATOR / j + 1);
        let far = (17..63).flat_map(|k| [1i64 << k, (1i64 << k) + (5 << BUCKET_SHIFT)]);
        let mut tested = 0;
        for d in runs.chain(changes).chain(far) {
            for d in [d - 1, d] {
                assert_eq!(scale_step(d), step(d), "{d}");
                tested += 1;
            }
        }
        assert!(tested > 2 * BUCKET_STEPS.len());
        for d in [0, -1, i64::MIN, i64::MAX] {
            assert_eq!(scale_step(d), step(d), "{d}");
        }
    }

    /// The step from the reciprocal is the step of its depth, at every
    /// reciprocal: both are constant between those tested here (each
    /// run's first, each threshold, and the one before each), and the
    /// depth's clamps ([`super::super::portal::MIN_DEPTH`] and
    /// `MAX_DEPTH`, as the BSP walk's stepped depths are clamped) change
    /// no step.
    #[test]
    fn the_scale_step_of_a_reciprocal_is_that_of_its_depth() {
        use crate::render::portal::{MAX_DEPTH, MIN_DEPTH};
        let depth = |r: u64| ((u64::MAX / r).min(MAX_DEPTH as u64) as i64).max(MIN_DEPTH);
        let runs = (0..=RECIP_BUCKET_STEPS.len() as u64 + 1).map(|b| b << RECIP_BUCKET_SHIFT);
        let thresholds = RECIP_STEPS.iter().copied();
        let far = (0..64).flat_map(|k| [1u64 << k, (1u64 << k) | 1, u64::MAX >> k]);
        let mut tested = 0;
        for r in runs.chain(thresholds).chain(far) {
            for r in [r.saturating_sub(1), r] {
                let r = r.max(1);
                assert_eq!(scale_step_of_recip(r), scale_step(depth(r)), "{r}");
                tested += 1;
            }
        }
        assert!(tested > 2 * RECIP_BUCKET_STEPS.len());
    }

    #[test]
    fn walls_follow_doom_scalelight() {
        // Light 160: light number 10, map 20 when far.
        let n = number(160, 0);
        assert_eq!(n, 10);
        assert_eq!(by_scale(n, 4000 * UNIT), 31 - 20);
        // 128 units: scale step 20, half of it off the start map.
        assert_eq!(by_scale(n, 128 * UNIT), 31 - 10);
        // Very near: step 47, 23 maps brighter, clamped at map 0.
        assert_eq!(by_scale(n, UNIT), 31);
        // The fake contrast is a whole light number: four maps.
        assert_eq!(number(160, -1), 9);
        assert_eq!(by_scale(9, 4000 * UNIT), 31 - 24);
        assert_eq!(number(250, 1), 15);
        assert_eq!(number(3, -1), 0);
    }

    #[test]
    fn plane_light_matches_the_distance_rule() {
        for n in [0, 5, 8, 15] {
            for height in [0u64, 1, 7 << 12, 41 << 16, 300 << 16, 1 << 33] {
                let pl = PlaneLight::new(n, height);
                for r in [0u32, 1, 1000, 52428, 1 << 16, 87381, 1 << 20, 1 << 27] {
                    let distance = (height * r as u64) >> 16;
                    let want = z_row(n)[z_index(distance)] as usize;
                    // Only the 12 fraction bits of the height dropped.
                    let near = z_row(n)[z_index(((height >> 12 << 12) * r as u64) >> 16)];
                    assert!(
                        pl.level(r) == want || pl.level(r) == near as usize,
                        "{n} {height} {r}"
                    );
                }
            }
        }
    }

    #[test]
    fn planes_follow_doom_zlight() {
        let n = number(128, 0); // light number 8: start map 28
        let row = z_row(n);
        // Distance below 16: 160 / 1 / 2 = 80 maps brighter.
        assert_eq!(row[z_index(8 * UNIT as u64)], 31);
        // Distance 160..176: j = 10, 160 / 11 = 14, 7 maps brighter.
        assert_eq!(row[z_index(170 * UNIT as u64)], 31 - 21);
        // Beyond 2048 units: j capped at 127, 160 / 128 = 1, 0 maps.
        assert_eq!(row[z_index(u64::MAX)], 31 - 28);
    }
}
