//! The camera's view of the screen's columns and of the walls: the
//! rays ([`View`]), where a ray meets a wall ([`exit_depth`], exact), a
//! wall's drawing worked out once per frame ([`prepare`], DOOM's pegging
//! and light), and the rule by which walls clip sprites. No pixels, and
//! no order of visiting: the BSP walk (`bsp`) decides that.
//!
//! ## The rays
//!
//! Column `x` casts the ray `P + t * D` with `D = F + R * k`, where `F` is
//! the facing unit vector, `R` the right vector and
//! `k = (x + 0.5 - width / 2) / focal`. `F`'s component of `D` is 1, so the
//! ray parameter `t` is the perpendicular depth (no fisheye).
//!
//! ## Exact intersection arithmetic
//!
//! Points are 16.16 bits relative to the camera, so differences fit in 33
//! bits, and the ray direction fits in 18 bits. The side tests
//! `D x (A - P)` are therefore exact in `i64`, and the depth of a hit is
//! kept as the exact fraction `((A - P) x (B - P)) / (D x (B - A))` in
//! `i128` until a hit is chosen. Comparisons between hits and against the
//! previous crossing are exact cross-multiplications, so two walls meeting
//! at a vertex the ray passes through give the *same* depth. (The
//! 16-fraction-bit [`crate::math::Wide`] would round these products;
//! exactness is what makes the walk's decisions consistent.) Only the
//! chosen hit is divided, once, into a
//! 16.16 depth, clamped to [`MIN_DEPTH`] so projection never divides by
//! zero. In the usual case (a hit in front, numerator below 2^63) the
//! comparisons are 64 x 64 -> 128-bit products and the depth takes one
//! 64-bit division, for a reciprocal of the denominator ([`Inverse`]);
//! each height is then projected with the depth's own reciprocal: a
//! multiplication and one correcting comparison, exactly the row a
//! division would give. So a column does two divisions per wall it
//! meets (a third for a texture column), however many heights it
//! projects (64-bit divisions are library calls on the N64's ABI).
//!
//! ## Textures
//!
//! A wall's texture column is the distance of the hit from the start of
//! the side seen (`v1` for the front side, `v2` for the back), plus the
//! side's x offset. Its rows are given by the height of texture row 0
//! relative to the eye (`top`), placed by DOOM's pegging rules
//! (`R_StoreWallRange`), plus the side's y offset: screen row `y` shows
//! texture row `top + (y + 0.5 - height / 2) * depth / focal`.
//!
//! ## Sprites
//!
//! A wall clips a sprite (DOOM's `R_DrawSprite` rule) when it lies wholly
//! nearer than the sprite, or when it spans the sprite's depth and the
//! sprite stands on the far side of its line. The sprite's window in a
//! column is the walk's window after the farthest such wall.

use super::cache::{Ends, SectorCache};
use super::draw::WallTexels;
use super::{light, Camera};
use crate::format::{wall_flag, TextureView, NONE, SKY};
use crate::math::Fx;
use crate::math::{div_floor_by, Division};
use crate::world::{Level, Sector, SectorId, Wall, WallId};

/// The smallest depth projection divides by: 1/64 map unit, in 16.16 bits.
pub(crate) const MIN_DEPTH: i64 = 1 << 10;
/// The largest depth kept (far beyond any map), in 16.16 bits.
pub(crate) const MAX_DEPTH: i64 = 1 << 40;
/// Most see-through middle textures recorded in one column; more are
/// dropped (and counted).
pub(crate) const MAX_MASKED_PER_COLUMN: usize = 32;

/// Everything about the camera and the screen the walk needs, in raw
/// 16.16 bits widened to `i64`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct View<'a> {
    pub(crate) px: i64,
    pub(crate) py: i64,
    /// Facing unit vector.
    pub(crate) fx: i64,
    pub(crate) fy: i64,
    /// Right vector (facing turned -90 degrees).
    pub(crate) rx: i64,
    pub(crate) ry: i64,
    pub(crate) eye: i64,
    /// Facing in degrees, 16.16 bits.
    pub(crate) angle: i64,
    pub(crate) width: i64,
    pub(crate) height: i64,
    /// Twice the vertical focal length in pixels: `width` for square
    /// pixels, `2 * width` for pixels twice as wide as tall (see
    /// [`View::with_wide_pixels`]). The horizontal focal length is always
    /// `width / 2`.
    pub(crate) focal_width: i64,
    /// `ceil(2^64 / width)`: see [`View::slope`].
    slope_magic: u128,
    /// `ceil(2^64 / focal_width)`: see [`View::per_row`].
    per_row_magic: u128,
    /// The sky's texel rows per screen row, 16.16 bits: one texel per
    /// pixel at 320 columns of square pixels (see `draw_sky`), divided
    /// once a frame.
    pub(crate) sky_step: i64,
    sector: Option<SectorId>,
    /// The sky texture, if the map has one (its columns prepared once a
    /// frame, as a wall's are once a seg).
    pub(crate) sky: Option<WallTexels<'a>>,
    /// The first and the last column's rays (see [`View::ray`]).
    pub(crate) edge_rays: ((i64, i64), (i64, i64)),
    /// The route to the picture ([`super::Routes`]: the usual one but in
    /// tests).
    pub(crate) routes: super::Routes,
    /// How the renderer divides ([`super::Scene::division`]).
    pub(crate) division: Division,
}

impl<'a> View<'a> {
    /// The view from `camera` onto a `width` x `height` screen.
    pub(crate) fn new(level: &Level<'a>, camera: &Camera, width: usize, height: usize) -> View<'a> {
        let (c, s) = camera.angle.cos_sin();
        let (c, s) = (c.to_bits() as i64, s.to_bits() as i64);
        let sector = if (camera.sector.0 as usize) < level.sector_count() {
            Some(camera.sector)
        } else {
            None
        };
        let map = level.map();
        // Frame guarantees the width and height are at most a few
        // thousand; clamped once, for every field worked out from it.
        let width = width.clamp(1, crate::config::MAX_SCREEN_WIDTH);
        View {
            px: camera.pos.x.to_bits() as i64,
            py: camera.pos.y.to_bits() as i64,
            fx: c,
            fy: s,
            rx: s,
            ry: -c,
            eye: camera.eye_z.to_bits() as i64,
            angle: camera.angle.degrees().to_bits() as i64,
            width: width as i64,
            focal_width: width as i64,
            slope_magic: (1u128 << 64).div_ceil(width as u128),
            per_row_magic: (1u128 << 64).div_ceil(width as u128),
            sky_step: (320 << 16) / width as i64,
            height: height.min(crate::config::MAX_SCREEN_HEIGHT) as i64,
            sector,
            sky: map.sky().and_then(|t| map.texture(t)).map(WallTexels::of),
            edge_rays: ((0, 0), (0, 0)),
            routes: super::Routes::default(),
            division: Division::Integer,
        }
        .with_edge_rays()
    }

    /// The same view, its [`View::edge_rays`] worked out.
    fn with_edge_rays(mut self) -> View<'a> {
        self.edge_rays = (self.ray(0), self.ray(self.width.max(1) as usize - 1));
        self
    }

    /// The view with pixels twice as wide as they are tall: the same
    /// field of view across half the columns, each row's heights and
    /// distances as at twice the width (DOOM's low detail).
    pub(crate) fn with_wide_pixels(mut self) -> Self {
        let focal_width = 2 * self.width;
        self.focal_width = focal_width;
        self.per_row_magic = (1u128 << 64).div_ceil(focal_width as u128);
        self.sky_step = (320 << 16) / focal_width;
        self
    }

    /// The same view, drawn by `routes`.
    pub(crate) fn by_routes(self, routes: super::Routes) -> Self {
        View { routes, ..self }
    }

    /// The same view, divided by `division`.
    pub(crate) fn divided_by(self, division: Division) -> Self {
        View { division, ..self }
    }

    /// Whether the camera is in a sector at all.
    pub(crate) fn has_sector(&self) -> bool {
        self.sector.is_some()
    }

    /// The camera's sector, if it exists.
    #[cfg(test)]
    pub(crate) fn sector(&self) -> Option<SectorId> {
        self.sector
    }

    /// `k` for column `x`: the ray's sideways slope, 16.16 bits in
    /// `(-1, 1)`, positive to the right: `(2x + 1 - width) / width`,
    /// truncated towards zero so that mirrored columns get exactly
    /// mirrored rays.
    #[inline]
    pub(crate) fn slope(&self, x: usize) -> i64 {
        let n = (2 * x as i64 + 1 - self.width) << 16;
        // |n| < 2^28: the division by multiplication is exact (see
        // `per_row`); truncated towards zero like `n / width`.
        let q = ((n.unsigned_abs() as u128 * self.slope_magic) >> 64) as i64;
        if n < 0 {
            -q
        } else {
            q
        }
    }

    /// The sky texture column seen in column `x` (not yet wrapped to the
    /// texture's width). DOOM's mapping: 1024 columns per full turn,
    /// counted with the angle (counter-clockwise), so a 256-wide sky
    /// repeats four times around, and the texture runs right to left
    /// across the screen as in DOOM. (One by one: what
    /// [`View::sky_column_pair`] must give.)
    #[cfg(test)]
    pub(crate) fn sky_column(&self, x: usize) -> i32 {
        let k = self.slope(x);
        let off = atan_degrees(k.abs());
        let a = if k > 0 {
            self.angle - off
        } else {
            self.angle + off
        };
        (a * 1024).div_euclid(360 << 16) as i32
    }

    /// The sky columns (DOOM's, 1024 a turn) of column `x` and of its mirror, column
    /// `width - 1 - x`: mirrored columns have mirrored slopes, so one
    /// angle off the view's centre (an arctangent) gives both.
    pub(crate) fn sky_column_pair(&self, x: usize) -> (i32, i32) {
        let k = self.slope(x);
        let off = atan_degrees(k.abs());
        let column = |a: i64| (a * 1024).div_euclid(360 << 16) as i32;
        let (right, left) = (column(self.angle - off), column(self.angle + off));
        // The mirror's slope is -k (at k = 0 the two are the same).
        if k > 0 {
            (right, left)
        } else {
            (left, right)
        }
    }

    /// The ray direction for column `x`, 16.16 bits (each component at
    /// most 2 in magnitude).
    #[inline]
    pub(crate) fn ray(&self, x: usize) -> (i64, i64) {
        let k = self.slope(x);
        (
            self.fx + (self.rx * k) / (1 << 16),
            self.fy + (self.ry * k) / (1 << 16),
        )
    }

    /// Texel rows per screen row for a texture at `depth` (16.16 bits):
    /// `depth / focal`, that is `2 * depth / focal_width`, rounded down,
    /// at least 1. Without a division for depths below 2^41: with
    /// `M = ceil(2^64 / w)`, `n * M >> 64` is exactly `n / w` for
    /// `n < 2^64 / w` (the error `n * (M - 2^64 / w) / 2^64` stays
    /// below `1 / w`).
    #[inline]
    pub(crate) fn per_row(&self, depth: i64) -> i64 {
        let n = depth.saturating_mul(2);
        let q = if (0..1 << 42).contains(&n) {
            self.per_row_within(depth)
        } else {
            n / self.focal_width
        };
        q.max(1)
    }

    /// [`View::per_row`] for a depth known to lie in `[MIN_DEPTH,
    /// MAX_DEPTH]` (a wall's, as the walks give it): `2 * depth` is below
    /// 2^42 and the quotient at least 2, so neither is tested. (Out of
    /// that range the step is wrong, never a panic.)
    #[inline]
    pub(crate) fn per_row_within(&self, depth: i64) -> i64 {
        let n = (depth as u64).wrapping_mul(2);
        ((n as u128).wrapping_mul(self.per_row_magic) >> 64) as i64
    }

    /// The texel row seen in screen row `y` (16.16) for a texture whose
    /// row 0 lies `top` above the eye, stepping `step` per row (see
    /// [`View::per_row`]).
    #[inline]
    pub(crate) fn texel_row(&self, top: i64, step: i64, y: usize) -> i64 {
        top + (((2 * y as i64 + 1 - self.height) * step) >> 1)
    }

    /// The first row whose centre lies at or below the screen image of a
    /// height `dh` relative to the eye (16.16 bits, below 2^33 in
    /// magnitude) at depth `depth` (16.16 bits, at least [`MIN_DEPTH`]),
    /// by division: what [`View::project_inv`] must give.
    #[cfg(test)]
    pub(crate) fn project_rel(&self, dh: i64, depth: i64) -> i64 {
        // |dh| < 2^33, focal_width <= 2^11: the product stays below
        // 2^60. (dh * focal) in 32.32 bits, focal = focal_width / 2.
        let off = (dh * self.focal_width) << 15;
        // Screen y in 16.16, truncated towards zero (symmetric about the
        // horizon).
        let y = (self.height << 15) - off / depth.max(MIN_DEPTH);
        // ceil(y - 0.5)
        (y + 0x7fff) >> 16
    }

    /// The screen row of a height `dh` relative to the eye at the depth
    /// whose [`Inverse`] is `inv`: the row a division would give, by
    /// multiplication.
    #[inline]
    pub(crate) fn project_inv(&self, dh: i64, inv: Inverse) -> i64 {
        (self.project_frac(dh, inv) + 0x7fff) >> 16
    }

    /// The screen image of the height `dh` at the depth of `inv`, 16.16
    /// bits (truncated towards the horizon), before
    /// [`View::project_inv`] rounds it to a row.
    #[inline]
    pub(crate) fn project_frac(&self, dh: i64, inv: Inverse) -> i64 {
        // As in `project_rel`: |off| < 2^59.
        let off = (dh * self.focal_width) << 15;
        let q = inv.divide(off.unsigned_abs()) as i64;
        (self.height << 15) - if off < 0 { -q } else { q }
    }

    /// Camera-relative (depth, sideways) coordinates of a camera-relative
    /// offset `(x, y)`, 16.16 bits.
    pub(crate) fn view_coords(&self, x: i64, y: i64) -> (i64, i64) {
        (
            (x * self.fx + y * self.fy) >> 16,
            (x * self.rx + y * self.ry) >> 16,
        )
    }
}

/// A divisor and its reciprocal, to divide by it with multiplications:
/// the walk divides by a wall's depth once per column and then projects
/// several heights with it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Inverse {
    /// The divisor, at least 1.
    divisor: u64,
    /// `floor((2^64 - 1) / divisor)`.
    recip: u64,
}

impl Inverse {
    /// The inverse of `depth` (16.16 bits; clamped to at least
    /// [`MIN_DEPTH`]).
    #[inline]
    pub(crate) fn of(depth: i64, division: Division) -> Inverse {
        Inverse::new(depth.max(MIN_DEPTH) as u64, division)
    }

    /// The inverse of `divisor` (at least 1).
    #[inline]
    pub(crate) fn new(divisor: u64, division: Division) -> Inverse {
        let divisor = divisor.max(1);
        Inverse {
            divisor,
            recip: div_floor_by(division, u64::MAX, divisor),
        }
    }

    /// `u64::MAX / divisor`.
    #[inline]
    pub(crate) fn recip(self) -> u64 {
        self.recip
    }

    /// `n / divisor`, rounded down, exactly, for `n < 2^63`.
    #[inline]
    pub(crate) fn divide(self, n: u64) -> u64 {
        // recip > 2^64 / divisor - 2, so the estimate is q or q - 1 (its
        // error below 2n / 2^64 < 1); one multiplication settles it.
        // (q + 1) * divisor <= n + divisor < 2^64.
        let q = ((n as u128 * self.recip as u128) >> 64) as u64;
        if (q + 1) * self.divisor <= n {
            q + 1
        } else {
            q
        }
    }
}

/// `atan(k)` in degrees (16.16 bits) for a slope `0 <= k <= 1` (16.16
/// bits), rounded down to the sine table's 1/64 degree: the largest angle
/// whose tangent (by the sine table) is at most `k`. [`ATAN`] gives a
/// guess within a step or so; the exact test settles it.
fn atan_degrees(k: i64) -> i64 {
    const STEP: i64 = 1 << 10; // 1/64 degree in 16.16
    const LAST: i64 = 45 * 64;
    let k = k.clamp(0, 1 << 16);
    // The sine table's tangent at step i is at most k.
    // (i is in 0..=LAST: the first quadrant's table entries.)
    let fits = |i: i64| {
        let (c, s) = crate::math::first_quadrant_cos_sin(i as usize);
        ((s as i64) << 16) <= k * c as i64
    };
    let j = (k >> 8) as usize;
    let (a, b) = (
        ATAN.get(j).copied().unwrap_or(0) as i64,
        ATAN.get(j + 1).copied().unwrap_or(0) as i64,
    );
    let guess = a + (((b - a) * (k & 255)) >> 8);
    let mut i = (guess >> 16).clamp(0, LAST);
    while i > 0 && !fits(i) {
        i -= 1;
    }
    while i < LAST && fits(i + 1) {
        i += 1;
    }
    i * STEP
}

/// `ATAN[j] = atan(j / 256)` in 1/64 degrees, 16 fraction bits, built at
/// compile time by integer series (2.60 fixed point): a guess for
/// [`atan_degrees`].
static ATAN: [u32; 257] = {
    const ONE: i128 = 1 << 60;
    // pi in 2.60.
    const PI: i128 = 3_622_036_482_794_207_510;
    /// atan(y) for |y| <= 1/2 by its series.
    const fn series(y: i128) -> i128 {
        let y2 = y * y / ONE;
        let (mut term, mut sum, mut n) = (y, y, 1);
        while n < 60 {
            term = -term * y2 / ONE;
            sum += term / (2 * n + 1);
            n += 1;
        }
        sum
    }
    let mut t = [0u32; 257];
    let mut j = 0;
    while j <= 256 {
        let x = (j as i128) << 52;
        let rad = if j <= 128 {
            series(x)
        } else {
            // atan x = pi/4 + atan((x - 1) / (x + 1)), |..| <= 1/3.
            PI / 4 + series((x - ONE) * ONE / (x + ONE))
        };
        // Radians to 1/64 degrees with 16 fraction bits.
        t[j] = (rad * (180 * 64 * 65536) / PI) as u32;
        j += 1;
    }
    t
};

/// A textured run of a wall: which texture, which column, and where its
/// rows lie.
#[derive(Copy, Clone, Debug)]
pub(crate) struct TexSpan<'a> {
    /// The texture.
    pub(crate) texture: TextureView<'a>,
    /// Texture column, 16.16 texels, not yet wrapped.
    pub(crate) u: i64,
    /// Height of texture row 0 above the eye, 16.16 bits: screen row `y`
    /// shows row `top + (y + 0.5 - height / 2) * depth / focal`.
    pub(crate) top: i64,
}

/// What a floor or ceiling shows.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Surface<'a> {
    /// One palette colour.
    Color(u8),
    /// A 64x64 flat texture (DOOM's only size), its pixels.
    Flat64(&'a [u8; 4096]),
    /// A flat texture of any other size.
    Flat(TextureView<'a>),
    /// The sky.
    Sky,
}

/// A see-through middle texture in a portal, to be drawn over what lies
/// behind it, rows `[y0, y1)` (the opening through the portal).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Masked<'a> {
    /// First row of the opening.
    pub(crate) y0: usize,
    /// One past its last row.
    pub(crate) y1: usize,
    /// Depth of the portal in this column, 16.16 bits.
    pub(crate) depth: i64,
    /// Light level.
    pub(crate) level: usize,
    /// The texture and where it lies.
    pub(crate) tex: TexSpan<'a>,
    /// The walk step that crossed the portal.
    pub(crate) step: i32,
}

/// A sprite seen in this column: where it is, and (filled in by the walk)
/// the rows walls in front of it leave open.
#[derive(Copy, Clone, Debug)]
pub(crate) struct SpriteClip {
    /// Depth, 16.16 bits.
    pub(crate) depth: i64,
    /// Where it stands, relative to the camera, 16.16 bits.
    pub(crate) at: (i64, i64),
    /// First open row.
    pub(crate) top: i16,
    /// One past the last open row.
    pub(crate) bottom: i16,
    /// The last walk step whose wall is in front of the sprite (-1: none).
    pub(crate) slot: i16,
    /// Which visible sprite.
    pub(crate) index: u8,
}

/// The depth of a hit as the exact fraction `num / den`, `den > 0`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Depth {
    num: i128,
    /// Positive, below 2^51.
    den: u64,
}

impl Depth {
    /// 16.16 bits (rounded down), clamped to `[MIN_DEPTH, MAX_DEPTH]`.
    pub(crate) fn bits(self, division: Division) -> i64 {
        let den = self.den.max(1);
        // The usual cases are hits in front (numerator at least 0).
        if let Ok(num) = u64::try_from(self.num) {
            let d = den;
            // Nearer walls (numerator below 2^47): one division of the
            // numerator shifted by 16.
            if num < 1 << 47 {
                return (div_floor_by(division, num << 16, d) as i64).clamp(MIN_DEPTH, MAX_DEPTH);
            }
            // Numerator below 2^63, denominator below 2^47: integer part
            // and 16 bits of fraction by one reciprocal of the denominator
            // (one division instead of two); the remainder shifted by 16
            // stays below 2^63.
            if d < 1 << 47 && num < 1 << 63 {
                let inv = Inverse::new(d, division);
                let q = inv.divide(num);
                if q >= (MAX_DEPTH >> 16) as u64 {
                    return MAX_DEPTH;
                }
                let f = inv.divide((num - q * d) << 16);
                return (((q << 16) | f) as i64).clamp(MIN_DEPTH, MAX_DEPTH);
            }
            if d < 1 << 56 {
                let (q, r) = (num / d, num % d);
                if q >= (MAX_DEPTH >> 16) as u64 {
                    return MAX_DEPTH;
                }
                let r = r << 8;
                let (q1, r) = (r / d, (r % d) << 8);
                let q2 = r / d;
                return (((q << 16) | (q1 << 8) | q2) as i64).clamp(MIN_DEPTH, MAX_DEPTH);
            }
        }
        let q = (self.num << 16) / den as i128;
        q.clamp(MIN_DEPTH as i128, MAX_DEPTH as i128) as i64
    }
}

/// Where a ray leaves a sector through a wall.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hit {
    pub(crate) depth: Depth,
    /// `D x (A - P)` and `D x (B - P)`: how far each end lies off the ray.
    ca: i64,
    cb: i64,
    /// The ray sees the wall's front side.
    front: bool,
}

impl Hit {
    /// The distance of the hit from the start of the side seen (`a` for
    /// the front, `b` for the back), 16.16 bits, for a wall of `length`.
    pub(crate) fn along(&self, length: Fx) -> i64 {
        let near = if self.front { self.ca } else { self.cb };
        let (n, d) = (near.unsigned_abs(), (self.ca - self.cb).unsigned_abs());
        // Keep the divisor below 2^31 so that the fraction fits.
        let shift = (64 - d.leading_zeros()).saturating_sub(31);
        let (n, d) = (n >> shift, (d >> shift).max(1));
        // The fraction of the way along, 0..=1 in 32 fraction bits.
        let s = (n.min(d) << 32) / d;
        let len = length.to_bits().max(0) as u64;
        // s <= 2^32 and len < 2^31: the product fits.
        ((s * len) >> 32) as i64
    }
}

/// The depth at which the ray `(dx, dy)` leaves a sector through the
/// wall with ends `e`, if it does (the ray's line crosses the segment,
/// moving from the sector's side to the other: through the front when
/// `front`, the sector being in front, through the back when `back`).
/// `cross` gives `e.cross()`, which does not depend on the ray (the
/// sector cache keeps it). Exact; may be negative (behind).
#[inline]
pub(crate) fn exit_depth(
    dx: i64,
    dy: i64,
    e: &Ends,
    front: bool,
    back: bool,
    cross: impl FnOnce() -> i128,
) -> Option<Hit> {
    // Which side of the ray's line each end lies on (exact: < 2^51).
    let ca = dx * e.ay - dy * e.ax;
    let cb = dx * e.by - dy * e.bx;
    // D x (B - A): negative when the ray goes from the wall's right
    // (front) to its left (back).
    let den = cb - ca;
    let leaves = match den {
        d if d < 0 => front && ca >= 0 && cb <= 0,
        d if d > 0 => back && ca <= 0 && cb >= 0,
        _ => false,
    };
    if !leaves {
        return None;
    }
    // t = ((A - P) x (B - P)) / (D x (B - A)).
    let num = cross();
    let depth = if den < 0 {
        Depth {
            num: -num,
            den: den.unsigned_abs(),
        }
    } else {
        Depth {
            num,
            den: den as u64,
        }
    };
    Some(Hit {
        depth,
        ca,
        cb,
        front: den < 0,
    })
}

/// DOOM's fake contrast: a wall running exactly east-west (facing north
/// or south) is one light number darker, one running exactly north-south
/// one brighter.
#[inline]
fn contrast(wall: &Wall) -> i32 {
    if wall.a.y == wall.b.y {
        -1
    } else if wall.a.x == wall.b.x {
        1
    } else {
        0
    }
}

/// How a wall decides which sprites it hides: its ends' depths along
/// the facing, and which side of its line the camera is on. Worked out
/// once per frame with the rest of the wall's [`Prepared`]; the ends
/// themselves are needed only for a sprite within the wall's depths.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Occluder {
    near: i64,
    far: i64,
    /// The sign of `(A - P) x (B - P)`: negative with the camera in front.
    camera_side: i8,
}

impl Occluder {
    fn new(view: &View<'_>, e: &Ends) -> Occluder {
        let (da, _) = view.view_coords(e.ax, e.ay);
        let (db, _) = view.view_coords(e.bx, e.by);
        Occluder {
            near: da.min(db),
            far: da.max(db),
            camera_side: e.cross().signum() as i8,
        }
    }

    /// Whether the wall (with ends `ends`) is in front of the sprite, by
    /// DOOM's rule: wholly nearer, or spanning the sprite's depth with the
    /// sprite on the far side of its line.
    #[inline]
    pub(crate) fn hides(&self, s: &SpriteClip, ends: impl FnOnce() -> Ends) -> bool {
        if self.far <= s.depth {
            return true;
        }
        if self.near >= s.depth {
            return false;
        }
        let e = ends();
        // (B - A) x (S - A), for the sprite at S.
        let side = (e.bx - e.ax) as i128 * (s.at.1 - e.ay) as i128
            - (e.by - e.ay) as i128 * (s.at.0 - e.ax) as i128;
        (self.camera_side > 0 && side < 0) || (self.camera_side < 0 && side > 0)
    }
}

/// One textured part of a wall as seen: its texture ([`NONE`]: none)
/// and the height of its row 0 relative to the eye, 16.16 bits, pegged
/// and offset.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Part {
    pub(crate) texture: u16,
    /// Where the sector cache keeps the texture's view (see
    /// [`SectorCache::keep_texture`]).
    pub(crate) slot: u8,
    pub(crate) top: i64,
}

impl Part {
    const NONE: Part = Part {
        texture: NONE,
        slot: u8::MAX,
        top: 0,
    };
}

/// How a wall is drawn from one side, in one frame: everything that
/// depends on the wall, its two sectors and the eye but not on the
/// column, worked out once (see [`prepare`]). Heights are 16.16 bits
/// relative to the eye.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Prepared {
    /// The side seen: the front.
    pub(crate) front: bool,
    /// The sector behind (`None`: one-sided).
    pub(crate) next: Option<SectorId>,
    /// The wall's length, 16.16 bits.
    pub(crate) length: Fx,
    /// Where the wall's top and bottom are: the sector's ceiling (or,
    /// DOOM's sky hack, the back ceiling) and floor.
    top: i64,
    pub(crate) floor: i64,
    /// A portal's back ceiling and floor, and whether the upper and lower
    /// walls show (the back ceiling lower, the back floor higher).
    back_ceiling: i64,
    back_floor: i64,
    pub(crate) upper_shows: bool,
    pub(crate) lower_shows: bool,
    /// A portal whose back floor (ceiling) is the same plane as the
    /// front's: the same height, surface and light, and an opening
    /// between them. Its columns mark no floor (ceiling) and leave the
    /// window's bottom (top) where it was: the sector behind marks the
    /// plane on from its own walls, the same pixels (DOOM's `markfloor`
    /// and `markceiling` false). See [`plane_continues`].
    pub(crate) floor_continues: bool,
    pub(crate) ceiling_continues: bool,
    /// `|ceiling - eye|` of the sector, for its plane (not `|top|`
    /// under the sky hack; the floor's is `|floor|`).
    pub(crate) ceiling_height: u64,
    /// Light numbers ([`light::number`]) of the planes and of the wall
    /// (with its fake contrast).
    pub(crate) plane_light: u8,
    pub(crate) wall_light: u8,
    /// The sector's wall colour (untextured walls).
    pub(crate) wall_color: u8,
    /// The side's x offset, 16.16.
    pub(crate) x_offset: i32,
    pub(crate) upper: Part,
    pub(crate) lower: Part,
    /// A one-sided wall's texture, or a portal's see-through one.
    pub(crate) middle: Part,
    /// Which sprites the wall hides.
    pub(crate) occluder: Occluder,
}

impl Prepared {
    /// The wall's four heights relative to the eye: top, floor, back
    /// ceiling, back floor.
    pub(crate) fn heights(&self) -> [i64; 4] {
        [self.top, self.floor, self.back_ceiling, self.back_floor]
    }

    /// A portal that changes nothing in any column: both planes continue
    /// behind it (so it is two-sided, has no middle texture, and, the
    /// heights the same on both sides, no upper or lower part shows).
    /// The BSP walk passes over its segs (DOOM's `R_AddLine` leaves such
    /// a line out).
    #[inline]
    pub(crate) fn unseen(&self) -> bool {
        self.floor_continues && self.ceiling_continues
    }

    /// The screen rows of [`Prepared::heights`] in a column, `rows`,
    /// with the edge of a plane that continues behind the wall moved far
    /// off the screen (the ceiling's above it, the floor's below): then
    /// the column marks none of that plane and leaves its window's edge
    /// where it was, with no test of its own. (A plane that continues
    /// has no wall part beside it.)
    #[inline]
    pub(crate) fn continued(&self, mut rows: [i64; 4]) -> [i64; 4] {
        const FAR_OFF: i64 = 1 << 30;
        if self.ceiling_continues {
            rows[0] = -FAR_OFF;
        }
        if self.floor_continues {
            rows[1] = FAR_OFF;
        }
        rows
    }
}

/// [`Prepared`] for `wall` seen from its front (`front`) or back, leaving
/// `sector` (decoded: `here`) for `there` (`None`: one-sided).
#[allow(clippy::too_many_arguments)]
pub(crate) fn prepare<'a>(
    level: &Level<'a>,
    view: &View<'a>,
    cache: &mut SectorCache<'a>,
    id: WallId,
    wall: &Wall,
    sector: SectorId,
    here: Sector,
    there: Option<Sector>,
    front: bool,
) -> Prepared {
    let mut side = level.map().side(if front {
        wall.front_side
    } else {
        wall.back_side
    } as usize);
    // A switch in its other position shows its other textures.
    if let Some(sw) = level.switched(id).filter(|_| front) {
        for (part, t) in [
            (&mut side.upper, sw.upper),
            (&mut side.middle, sw.middle),
            (&mut side.lower, sw.lower),
        ] {
            if t != NONE {
                *part = t;
            }
        }
    }
    let eye = view.eye;
    let bits = |h: Fx| h.to_bits() as i64;
    let y_offset = (side.y_offset as i64) << 16;
    // Row 0 of `texture` at height `peg` (its bottom edge there when
    // `pegged_bottom`).
    let mut part = |texture: u16, peg: i64, pegged_bottom: bool| -> Part {
        if texture == NONE {
            return Part::NONE;
        }
        let Some((t, slot)) = cache.keep_texture(level, texture) else {
            return Part::NONE;
        };
        let peg = if pegged_bottom {
            peg + ((t.height as i64) << 16)
        } else {
            peg
        };
        Part {
            texture,
            slot,
            top: peg + y_offset - eye,
        }
    };
    // DOOM's sky hack: between two sky ceilings the front ceiling
    // reaches down (or up) to the back one, so no upper wall shows.
    let sky_hack = there.is_some_and(|t| here.ceiling_texture == SKY && t.ceiling_texture == SKY);
    let world_top = match there {
        Some(t) if sky_hack => t.ceiling.max(here.floor),
        _ => here.ceiling,
    };
    let lower_unpegged = wall.flags & wall_flag::LOWER_UNPEGGED != 0;
    let mut p = Prepared {
        front,
        next: wall.other_side(sector),
        length: wall.length,
        top: bits(world_top) - eye,
        floor: bits(here.floor) - eye,
        back_ceiling: 0,
        back_floor: 0,
        upper_shows: false,
        lower_shows: false,
        floor_continues: false,
        ceiling_continues: false,
        ceiling_height: (bits(here.ceiling) - eye).unsigned_abs(),
        plane_light: light::number(here.light, 0) as u8,
        wall_light: light::number(here.light, contrast(wall)) as u8,
        wall_color: here.wall_color,
        // Only a front side scrolls, as DOOM moves sidedef 0's offset.
        x_offset: (side.x_offset as i32)
            .wrapping_add(if front {
                wall_flag::scrolled(wall.flags, level.time())
            } else {
                0
            })
            .wrapping_shl(16),
        upper: Part::NONE,
        lower: Part::NONE,
        middle: Part::NONE,
        occluder: Occluder::new(view, &Ends::new(view, wall)),
    };
    match there {
        None => {
            // One-sided: the middle texture, from the ceiling down, or
            // from the floor up when lower-unpegged.
            p.middle = if lower_unpegged {
                part(side.middle, bits(here.floor), true)
            } else {
                part(side.middle, bits(here.ceiling), false)
            };
        }
        Some(there) => {
            p.back_ceiling = bits(there.ceiling) - eye;
            p.back_floor = bits(there.floor) - eye;
            p.upper_shows = there.ceiling < world_top;
            p.lower_shows = there.floor > here.floor;
            // Upper: bottom at the back ceiling, or top at the front
            // ceiling when upper-unpegged.
            p.upper = if wall.flags & wall_flag::UPPER_UNPEGGED != 0 {
                part(side.upper, bits(world_top), false)
            } else {
                part(side.upper, bits(there.ceiling), true)
            };
            // Lower: top at the back floor, or placed as if pegged to the
            // front ceiling when lower-unpegged.
            let peg = if lower_unpegged {
                world_top
            } else {
                there.floor
            };
            p.lower = part(side.lower, bits(peg), false);
            // See-through middle: drawn once, from the lower ceiling
            // down, or up from the higher floor when lower-unpegged.
            p.middle = if lower_unpegged {
                part(side.middle, bits(here.floor.max(there.floor)), true)
            } else {
                part(side.middle, bits(here.ceiling.min(there.ceiling)), false)
            };
            if p.middle.texture == NONE {
                // (Left to the sector behind unless a test marks them.)
                let marked = view.routes.marked_planes;
                p.floor_continues = !marked && plane_continues(&here, &there, false);
                p.ceiling_continues = !marked && plane_continues(&here, &there, true);
            }
        }
    }
    p
}

/// Whether the floor (`ceiling`: the ceiling) of sector `there`, behind
/// a portal from `here` with no middle texture, is the same plane as
/// `here`'s: the same height, surface and light, so that the plane's
/// pixels are the same whichever sector's columns mark them; and the
/// opening between the two is not shut (DOOM's closed door, whose
/// planes are always marked).
pub(crate) fn plane_continues(here: &Sector, there: &Sector, ceiling: bool) -> bool {
    let open = there.ceiling > here.floor && there.floor < here.ceiling;
    let same = if ceiling {
        there.ceiling == here.ceiling
            && there.ceiling_texture == here.ceiling_texture
            && there.ceiling_color == here.ceiling_color
    } else {
        there.floor == here.floor
            && there.floor_texture == here.floor_texture
            && there.floor_color == here.floor_color
    };
    open && same && there.light == here.light
}

#[cfg(test)]
mod tests;
