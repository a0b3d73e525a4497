//! Numbers and small geometry: the only module that names the `fixed` crate.
//!
//! * [`Fx`] (16.16) holds every stored world quantity: coordinates, heights,
//!   radii, angles in degrees. Doom-format maps stay inside ±32767 units, and
//!   16.16 holds ±32767.99998.
//! * [`Wide`] (48.16) holds every intermediate that can leave that range: the
//!   difference of two coordinates (up to 65534), cross and dot products (up to
//!   about 8.6e9) and squared lengths. Multiplying two `Wide`s goes through
//!   128-bit arithmetic inside `fixed`, so nothing overflows for any two points
//!   of a ±32767 map.
//! * [`Angle`] is degrees in `[0, 360)`, counter-clockwise, 0 = east (+x), so
//!   that whole-degree turns from a demo file are exact.
//!
//! All of it is integer arithmetic: the same inputs give the same bits on
//! every machine (x86-64, the N64's MIPS, a Cortex-M).

use fixed::types::{I16F16, I48F16};

/// The world number: 16 integer bits, 16 fraction bits.
pub type Fx = I16F16;
/// The wide intermediate: 48 integer bits, 16 fraction bits.
pub type Wide = I48F16;

/// Converts a world number to the wide type (exact).
#[inline]
pub fn wide(v: Fx) -> Wide {
    Wide::from_bits(v.to_bits() as i64)
}

/// Narrows a wide value back to a world number, saturating at the ends of
/// the range (only used where the value is known to be in range, or where
/// saturation is the right answer, such as projected screen coordinates).
#[inline]
pub fn narrow(v: Wide) -> Fx {
    let bits = v.to_bits();
    Fx::from_bits(bits.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
}

/// A point or displacement in map units.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vec2 {
    /// East.
    pub x: Fx,
    /// North.
    pub y: Fx,
}

impl Vec2 {
    /// The origin.
    pub const ZERO: Vec2 = Vec2 {
        x: Fx::ZERO,
        y: Fx::ZERO,
    };

    /// A point from world numbers.
    #[inline]
    pub const fn new(x: Fx, y: Fx) -> Self {
        Vec2 { x, y }
    }

    /// A point from whole map units (saturating outside ±32767).
    pub fn from_int(x: i32, y: i32) -> Self {
        Vec2::new(Fx::saturating_from_num(x), Fx::saturating_from_num(y))
    }

    /// The same point in the wide type.
    #[inline]
    pub fn wide(self) -> WVec {
        WVec {
            x: wide(self.x),
            y: wide(self.y),
        }
    }
}

/// A displacement in the wide type: differences of points and everything
/// derived from them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct WVec {
    /// East.
    pub x: Wide,
    /// North.
    pub y: Wide,
}

impl WVec {
    /// The zero vector.
    pub const ZERO: WVec = WVec {
        x: Wide::ZERO,
        y: Wide::ZERO,
    };

    /// A vector from components.
    #[inline]
    pub const fn new(x: Wide, y: Wide) -> Self {
        WVec { x, y }
    }

    /// `self - other`, exact. (Also `-` via `core::ops::Sub`; the method
    /// form reads better in chains.)
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, o: WVec) -> WVec {
        WVec::new(self.x - o.x, self.y - o.y)
    }

    /// `self + other`, exact. (Also `+` via `core::ops::Add`.)
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, o: WVec) -> WVec {
        WVec::new(self.x + o.x, self.y + o.y)
    }

    /// Scales by `k`.
    #[inline]
    pub fn scale(self, k: Wide) -> WVec {
        WVec::new(self.x * k, self.y * k)
    }

    /// The dot product.
    #[inline]
    pub fn dot(self, o: WVec) -> Wide {
        self.x * o.x + self.y * o.y
    }

    /// The z component of the cross product: positive when `o` is
    /// counter-clockwise of `self`.
    #[inline]
    pub fn cross(self, o: WVec) -> Wide {
        self.x * o.y - self.y * o.x
    }

    /// The squared length.
    #[inline]
    pub fn length_squared(self) -> Wide {
        self.dot(self)
    }

    /// The length, by integer square root (deterministic everywhere).
    pub fn length(self) -> Wide {
        sqrt_wide(self.length_squared())
    }

    /// Back to a point, saturating at the ends of the world range.
    #[inline]
    pub fn narrow(self) -> Vec2 {
        Vec2::new(narrow(self.x), narrow(self.y))
    }
}

impl core::ops::Add for WVec {
    type Output = WVec;
    #[inline]
    fn add(self, o: WVec) -> WVec {
        WVec::new(self.x + o.x, self.y + o.y)
    }
}

impl core::ops::Sub for WVec {
    type Output = WVec;
    #[inline]
    fn sub(self, o: WVec) -> WVec {
        WVec::new(self.x - o.x, self.y - o.y)
    }
}

/// `v` within `[lo, hi]`: `v.clamp(lo, hi)` where `lo <= hi`, and `hi`
/// otherwise, where `clamp` would panic. For bounds that hold by the
/// renderer's invariants but that the compiler cannot see (a column's
/// window, read back from memory): no check and no panic on the hot
/// path.
#[inline(always)]
pub(crate) fn within(v: i64, lo: i64, hi: i64) -> i64 {
    v.max(lo).min(hi)
}

/// How the renderer divides ([`div_floor_by`]). The quotient is the same
/// either way, bit for bit; only the time differs, and which way is faster
/// depends on the processor, so the frontend chooses (a render's
/// [`crate::render::Scene::division`]) and no result depends on the
/// choice.
///
/// Why a choice: a 64-bit integer division is the slowest instruction the
/// renderer runs, once per wall column and more. Where it is slow and
/// does not pipeline (Skylake-family Xeons), guessing the quotient with
/// a double-precision division and settling it in integers is faster;
/// where the integer divider is fast (AMD Zen 5), the guess is slower.
/// Neither is right everywhere (the figures are in
/// `docs/performance-log.md`, *How the renderer divides*).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Division {
    /// The integer division (an instruction, or the N64's library call):
    /// the default, and what every machine without a hardware double
    /// divider the engine knows of (anything but x86-64) always does.
    #[default]
    Integer,
    /// Guessed in doubles and settled in integers (x86-64 with SSE2; on
    /// other machines the same as [`Division::Integer`]). The guess is
    /// within one of the quotient (the dividend's, the divisor's and the
    /// quotient's roundings to 53 bits are each a relative error of at
    /// most 2^-53, so for the quotients the renderer asks for, below
    /// 2^51, it is off by less than one), and one 128-bit product says
    /// which of the guess, one more or one less it is. Should a guess be
    /// further off (a quotient of 2^51 or more) the integer division
    /// answers. The result never depends on how the double rounded.
    GuessedInDoubles,
}

/// Whether this machine can guess in doubles ([`Division::GuessedInDoubles`]
/// is otherwise the same as [`Division::Integer`]): x86-64 with SSE2.
pub const fn can_guess_in_doubles() -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "sse2"))
}

/// `n / d` rounded down (`d` at least 1; 0 is taken as 1) by the integer
/// division.
#[inline]
pub fn div_floor(n: u64, d: u64) -> u64 {
    div_floor_by(Division::Integer, n, d)
}

/// `n / d` rounded down (`d` at least 1; 0 is taken as 1) by the way
/// `division` says: exactly the integer division's quotient either way.
#[inline]
pub fn div_floor_by(division: Division, n: u64, d: u64) -> u64 {
    let d = d.max(1);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if division == Division::GuessedInDoubles {
        // Converted as signed numbers (one instruction each way, where
        // unsigned ones take a dozen): a divisor of 2^63 or more, or a
        // quotient that large, gives a negative or saturated guess,
        // which the tests below turn away like any wrong guess.
        let guess = (n as f64 / d as i64 as f64) as i64 as u64;
        // Exact for every guess: the product is below 2^128 - 2^65, so
        // where it exceeds n the difference wraps to more than 2d.
        let (d, rest) = (
            d as u128,
            (n as u128).wrapping_sub(guess as u128 * d as u128),
        );
        if rest < d {
            return guess;
        }
        if rest < 2 * d {
            return guess.wrapping_add(1);
        }
        if rest.wrapping_add(d) < d {
            // guess * d - n in [1, d]: guess is at least 1.
            return guess.wrapping_sub(1);
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let _ = division;
    n / d
}

/// `n / d` rounded towards zero, as `/` rounds (`d` 0 is taken as 1;
/// `i64::MIN / -1` wraps, to `i64::MIN`), by the integer division.
#[inline]
pub fn div_toward_zero(n: i64, d: i64) -> i64 {
    div_toward_zero_by(Division::Integer, n, d)
}

/// [`div_toward_zero`] by the way `division` says: by [`div_floor_by`] on
/// the magnitudes.
#[inline]
pub fn div_toward_zero_by(division: Division, n: i64, d: i64) -> i64 {
    let q = div_floor_by(division, n.unsigned_abs(), d.unsigned_abs());
    if (n < 0) != (d < 0) {
        (q as i64).wrapping_neg()
    } else {
        q as i64
    }
}

/// The square root of a non-negative wide value (0 for negative input).
pub fn sqrt_wide(v: Wide) -> Wide {
    let bits = v.to_bits();
    if bits <= 0 {
        return Wide::ZERO;
    }
    // value = bits / 2^16, sqrt(value) = sqrt(bits * 2^16) / 2^16.
    let scaled = (bits as u128) << 16;
    Wide::from_bits(isqrt_u128(scaled) as i64)
}

/// Floor of the square root of `n`.
pub fn isqrt_u128(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    // Start from a power of two above the root and run Newton's method down.
    let bits = 128 - n.leading_zeros();
    let mut x: u128 = 1u128 << bits.div_ceil(2);
    loop {
        let y = (x + n / x) >> 1;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// An angle in degrees, kept in `[0, 360)`; counter-clockwise from east.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Angle(Fx);

/// Table resolution: 1/64 of a degree.
const STEPS_PER_DEGREE: i32 = 64;
const QUARTER_STEPS: usize = 90 * STEPS_PER_DEGREE as usize;

impl Angle {
    /// East.
    pub const ZERO: Angle = Angle(Fx::ZERO);

    /// An angle from degrees, wrapped into `[0, 360)`.
    pub fn from_degrees(deg: Fx) -> Angle {
        let full = Fx::from_num(360);
        // rem_euclid on the raw bits: exact, never overflows.
        let bits = deg.to_bits().rem_euclid(full.to_bits());
        Angle(Fx::from_bits(bits))
    }

    /// An angle from whole degrees.
    pub fn from_int_degrees(deg: i32) -> Angle {
        Angle::from_degrees(Fx::from_bits((deg.rem_euclid(360)) << 16))
    }

    /// The angle in degrees, in `[0, 360)`.
    #[inline]
    pub fn degrees(self) -> Fx {
        self.0
    }

    /// This angle turned counter-clockwise by `deg` degrees.
    pub fn turned(self, deg: Fx) -> Angle {
        let full = Fx::from_num(360).to_bits() as i64;
        let sum = self.0.to_bits() as i64 + deg.to_bits() as i64;
        Angle(Fx::from_bits(sum.rem_euclid(full) as i32))
    }

    /// Cosine and sine, from the table.
    pub fn cos_sin(self) -> (Fx, Fx) {
        // Index in 1/64 degree steps, rounded to nearest.
        let idx = ((self.0.to_bits() as i64 * STEPS_PER_DEGREE as i64 + (1 << 15)) >> 16) as usize;
        let idx = idx % (4 * QUARTER_STEPS);
        (sin_index(idx + QUARTER_STEPS), sin_index(idx))
    }

    /// The unit vector this angle points along.
    pub fn unit(self) -> Vec2 {
        let (c, s) = self.cos_sin();
        Vec2::new(c, s)
    }
}

/// The cosine and sine, as raw 16.16 bits, of `steps` table steps (1/64
/// degree) in the first quadrant (`steps` at most 90 degrees' worth; more
/// is taken as 90): exactly [`Angle::cos_sin`] of that angle, without the
/// wrapping a general angle needs (for work done per screen column).
#[inline]
pub(crate) fn first_quadrant_cos_sin(steps: usize) -> (i32, i32) {
    let i = steps.min(QUARTER_STEPS);
    (
        SIN_TABLE.get(QUARTER_STEPS - i).copied().unwrap_or(0),
        SIN_TABLE.get(i).copied().unwrap_or(0),
    )
}

/// The sine of `idx` table steps (any non-negative index, wrapped).
fn sin_index(idx: usize) -> Fx {
    let idx = idx % (4 * QUARTER_STEPS);
    let quadrant = idx / QUARTER_STEPS;
    let rem = idx % QUARTER_STEPS;
    let raw = match quadrant {
        0 => SIN_TABLE.get(rem).copied().unwrap_or(0),
        1 => SIN_TABLE.get(QUARTER_STEPS - rem).copied().unwrap_or(0),
        2 => -SIN_TABLE.get(rem).copied().unwrap_or(0),
        _ => -SIN_TABLE.get(QUARTER_STEPS - rem).copied().unwrap_or(0),
    };
    Fx::from_bits(raw)
}

/// `sin` over a quarter turn, 16.16 raw bits, built at compile time by an
/// integer Taylor series so that no floating point is ever involved.
static SIN_TABLE: [i32; QUARTER_STEPS + 1] = build_sin_table();

const fn build_sin_table() -> [i32; QUARTER_STEPS + 1] {
    // Work in 2.60 fixed point inside i128.
    const ONE: i128 = 1 << 60;
    // pi/2 in 2.60: 1.5707963267948966 * 2^60
    const HALF_PI: i128 = 1_811_018_241_397_103_755;
    let mut table = [0i32; QUARTER_STEPS + 1];
    let mut i = 0;
    while i <= QUARTER_STEPS {
        let x = HALF_PI * i as i128 / QUARTER_STEPS as i128;
        let x2 = x * x / ONE;
        // sin x = x - x^3/3! + x^5/5! - ...
        let mut term = x;
        let mut sum = x;
        let mut k = 1;
        while k < 12 {
            term = -term * x2 / ONE / ((2 * k) * (2 * k + 1)) as i128;
            sum += term;
            k += 1;
        }
        // Round 2.60 to 16.16.
        let raw = (sum + (1 << 43)) >> 44;
        table[i] = raw as i32;
        i += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Divisions whose quotients sit at the guess's edges: every size of
    /// quotient and divisor, dividends a multiple of the divisor and one
    /// either side of it, the extremes, and a million pseudo-random pairs
    /// of every bit length: always the integer division's quotient.
    #[test]
    fn div_floor_is_the_integer_quotient() {
        let check = |n: u64, d: u64| {
            for way in [Division::Integer, Division::GuessedInDoubles] {
                assert_eq!(div_floor_by(way, n, d), n / d.max(1), "{n} / {d} {way:?}");
            }
            assert_eq!(div_floor(n, d), n / d.max(1), "{n} / {d}");
            let (sn, sd) = (n as i64, d as i64);
            if sd != 0 && !(sn == i64::MIN && sd == -1) {
                assert_eq!(div_toward_zero(sn, sd), sn / sd, "{sn} / {sd}");
            }
        };
        for d in [
            1,
            2,
            3,
            7,
            1 << 20,
            (1 << 32) - 1,
            1 << 32,
            u64::MAX / 3,
            u64::MAX,
        ] {
            for n in [
                0,
                1,
                d - 1,
                d,
                d.saturating_add(1),
                u64::MAX - 1,
                u64::MAX,
                1 << 63,
            ] {
                check(n, d);
            }
        }
        for qbits in 0..64 {
            for dbits in 0..64 - qbits {
                let (q, d) = ((1u64 << qbits) | 1, (1u64 << dbits) | 1);
                let Some(n) = q.checked_mul(d) else { continue };
                for n in [n - 1, n, n.saturating_add(1), n.saturating_add(d - 1)] {
                    check(n, d);
                }
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..1_000_000 {
            let (a, b) = (next(), next());
            let (n, d) = (a >> (b & 63), b >> (a & 63));
            check(n, d);
            check(n, d.saturating_sub(1));
        }
        assert_eq!(div_floor(5, 0), 5);
        assert_eq!(div_toward_zero(-7, 2), -3);
        assert_eq!(div_toward_zero(7, -2), -3);
        assert_eq!(div_toward_zero(-7, -2), 3);
        assert_eq!(div_toward_zero(i64::MIN, -1), i64::MIN);
        assert_eq!(div_toward_zero(-5, 0), -5);
    }

    #[test]
    fn first_quadrant_lookups_match_the_general_ones() {
        for steps in 0..=QUARTER_STEPS {
            let a = Angle::from_degrees(Fx::from_bits((steps as i32) << 10));
            let (c, s) = a.cos_sin();
            assert_eq!(
                first_quadrant_cos_sin(steps),
                (c.to_bits(), s.to_bits()),
                "{steps}"
            );
        }
        assert_eq!(first_quadrant_cos_sin(QUARTER_STEPS + 7), (0, 1 << 16));
    }

    #[test]
    fn sine_table_endpoints_are_exact() {
        assert_eq!(SIN_TABLE[0], 0);
        assert_eq!(SIN_TABLE[QUARTER_STEPS], 1 << 16);
        // sin 30 = 0.5 exactly
        assert_eq!(SIN_TABLE[30 * 64], 1 << 15);
    }

    #[test]
    fn cardinal_directions() {
        assert_eq!(Angle::from_int_degrees(0).unit(), Vec2::from_int(1, 0));
        assert_eq!(Angle::from_int_degrees(90).unit(), Vec2::from_int(0, 1));
        assert_eq!(Angle::from_int_degrees(180).unit(), Vec2::from_int(-1, 0));
        assert_eq!(Angle::from_int_degrees(270).unit(), Vec2::from_int(0, -1));
        assert_eq!(Angle::from_int_degrees(-90), Angle::from_int_degrees(270));
    }

    #[test]
    fn turning_wraps_both_ways() {
        let a = Angle::from_int_degrees(350).turned(Fx::from_num(20));
        assert_eq!(a.degrees(), Fx::from_num(10));
        let b = Angle::from_int_degrees(10).turned(Fx::from_num(-20));
        assert_eq!(b.degrees(), Fx::from_num(350));
    }

    #[test]
    fn sqrt_is_floor_of_root() {
        assert_eq!(sqrt_wide(Wide::from_num(16)), Wide::from_num(4));
        assert_eq!(sqrt_wide(Wide::from_num(2)).to_bits(), 92681); // 1.41421 * 65536
        for n in [0u128, 1, 2, 3, 4, 15, 16, 17, 1 << 40, (1 << 80) + 12345] {
            let r = isqrt_u128(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
        }
    }

    #[test]
    fn wide_products_do_not_overflow_at_map_extremes() {
        let a = Vec2::from_int(-32767, -32767).wide();
        let b = Vec2::from_int(32767, 32767).wide();
        let d = b.sub(a);
        assert_eq!(d.length_squared(), Wide::from_num(2i64 * 65534 * 65534));
        assert_eq!(
            d.cross(WVec::new(d.x, -d.y)),
            Wide::from_num(-2i64 * 65534 * 65534)
        );
    }
}
