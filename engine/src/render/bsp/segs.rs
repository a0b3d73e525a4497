//! The wall columns of one seg: what does not change across the seg,
//! worked out once (DOOM's `R_StoreWallRange`: [`SegDraw`]), the depth and
//! texture column stepped across its columns ([`DepthStep`], [`Stepped`]),
//! and each column's crossing drawn within its window (DOOM's
//! `R_RenderSegLoop`), compiled once per kind of seg ([`SegKind`]) so
//! that no column tests what the seg already knows.

use super::*;

/// A seg's first and last columns: each one's ray and the inverse of
/// the exact depth (16.16 bits) at which it meets the wall, as the
/// column itself works it out (both the heights' and the depth's
/// stepping start from the inverses: one division each, not two).
#[derive(Copy, Clone, Debug)]
pub(super) struct EndHits {
    pub(super) rays: [(i64, i64); 2],
    pub(super) inverses: (Inverse, Inverse),
}

/// [`EndHits`] at columns `x0` and `x1` of the wall with ends `ends`
/// (and `ends.cross()`, `cross`), seen from its front (`front`) or back;
/// `None` if either depth is not kept exactly (too near or too far) or
/// a ray misses.
pub(super) fn end_hits(
    view: &impl Rays,
    ends: &Ends,
    cross: i128,
    front: bool,
    (x0, x1): (usize, usize),
) -> Option<EndHits> {
    let rays = [view.ray(x0), view.ray(x1)];
    let depth = |(dx, dy): (i64, i64)| {
        let d = exit_depth(dx, dy, ends, front, !front, || cross)?
            .depth
            .bits(view.division());
        (MIN_DEPTH < d && d < MAX_DEPTH).then_some(d)
    };
    let depths = (depth(rays[0])?, depth(rays[1])?);
    let division = view.division();
    let inverses = (
        Inverse::of(depths.0, division),
        Inverse::of(depths.1, division),
    );
    Some(EndHits { rays, inverses })
}

/// A wall's four heights stepped across its columns (DOOM's `topfrac`
/// and `topstep`): a height's screen image is affine in the column, so
/// its exact images at the seg's first and last columns give every
/// column's, to a small fraction of a row, with no division.
pub(super) struct Stepped {
    /// The first column, and each height's image there and its step per
    /// column, 32 fraction bits (the images biased by just under half a
    /// row, so that the row is the integer part).
    pub(super) x0: usize,
    pub(super) y0: [i64; 4],
    pub(super) step: [i64; 4],
}

impl Stepped {
    /// Stepping for columns `x0..=x1` of the wall drawn by `prep`, whose
    /// depths there have the inverses `(a, b)` (see [`EndHits`]); `None`
    /// where stepping would not pay (one column) or not hold (an image
    /// too far off the screen for the steps to stay in range).
    pub(super) fn new(
        view: &View<'_>,
        prep: &Prepared,
        (a, b): (Inverse, Inverse),
        (x0, x1): (usize, usize),
    ) -> Option<Stepped> {
        if x1 <= x0 {
            return None;
        }
        let heights = prep.heights();
        let span = (x1 - x0) as i64;
        let (y0, y1) = (
            heights.map(|dh| view.project_frac(dh, a)),
            heights.map(|dh| view.project_frac(dh, b)),
        );
        // Images within 2^14 rows of the screen (in 16.16 bits) keep the
        // stepping below 2^58 for any column; a wall so near that its
        // image lies further out is projected column by column.
        const FAR: i64 = 1 << 30;
        if y0
            .iter()
            .chain(y1.iter())
            .any(|y| !(-FAR..=FAR).contains(y))
        {
            return None;
        }
        let (y0, y1) = (y0.map(|y| y << 16), y1.map(|y| y << 16));
        let mut step = [0; 4];
        for (s, (p, q)) in step.iter_mut().zip(y0.iter().zip(y1.iter())) {
            *s = div_toward_zero_by(view.division, q - p, span);
        }
        // As `View::project_inv` rounds: ((y >> 16) + 0x7fff) >> 16 is
        // (y + (0x7fff << 16)) >> 32.
        let mut y0 = y0.map(|y| y + (0x7fff << 16));
        // A plane that continues behind the wall: its edge far off the
        // screen (as `Prepared::continued` puts it), in every column.
        let far = prep.continued([0; 4]);
        for ((y, s), f) in y0.iter_mut().zip(step.iter_mut()).zip(far) {
            if f != 0 {
                (*y, *s) = (f << 32, 0);
            }
        }
        Some(Stepped { x0, y0, step })
    }

    /// The four rows in column `x` (of the seg's, at or after `x0`; the
    /// steppings' column counts below wrap to a negative one before it,
    /// which they are never asked for): as [`View::project_inv`] rounds.
    #[inline]
    pub(super) fn rows(&self, x: usize) -> [i64; 4] {
        let k = x.wrapping_sub(self.x0) as i64;
        let mut rows = [0; 4];
        for (r, (y, s)) in rows.iter_mut().zip(self.y0.iter().zip(self.step.iter())) {
            *r = (y + k * s) >> 32;
        }
        rows
    }
}

/// A wall's depth and texture column stepped across its columns (DOOM's
/// `rw_scale` and `rw_scalestep`), instead of the exact hit worked out
/// in each column: the inverse of the depth is affine in the column, so
/// the exact depths at the seg's first and last columns give every
/// column's with one division; and the distance along the wall is the
/// camera's foot on the wall's line plus the depth times the ray's run
/// along the wall per unit of depth, which is affine in the column too.
/// Both stay within a small fraction of the exact values (the exact ones
/// carry the rounding of each column's ray, the stepped ones that of the
/// end columns'), so a wall's texture or light may fall a column
/// earlier or later than the exact one's, where the two round
/// differently.
#[derive(Copy, Clone, Debug)]
pub(super) struct DepthStep {
    pub(super) x0: usize,
    /// `u64::MAX / depth` at `x0`, and its step per column, with 8 more
    /// fraction bits.
    pub(super) recip: i64,
    pub(super) recip_step: i64,
    /// The distance along the side seen (16.16 bits) to the camera's foot
    /// on its line.
    pub(super) foot: i64,
    /// The ray's run along the side seen per unit of depth at `x0`, and
    /// its step per column, 32 fraction bits.
    pub(super) run: i64,
    pub(super) run_step: i64,
    /// The wall's length, 16.16 bits.
    pub(super) length: i64,
    /// How the depth is divided out ([`View::division`]).
    pub(super) division: Division,
}

/// A [`DepthStep`]'s values at its first column and steps, without the
/// column and the length.
#[derive(Copy, Clone, Debug)]
pub(super) struct Steps {
    pub(super) recip: i64,
    pub(super) recip_step: i64,
    pub(super) foot: i64,
    pub(super) run: i64,
    pub(super) run_step: i64,
    pub(super) division: Division,
}

impl Steps {
    /// The stepping these steps give from column `x0`, for a wall
    /// `length` long.
    #[inline]
    pub(super) fn from(&self, x0: usize, length: crate::math::Fx) -> DepthStep {
        DepthStep {
            x0,
            recip: self.recip,
            recip_step: self.recip_step,
            foot: self.foot,
            run: self.run,
            run_step: self.run_step,
            length: length.to_bits().max(0) as i64,
            division: self.division,
        }
    }
}

impl DepthStep {
    /// The same stepping from column `x` on (at or after `x0`): its
    /// values there, by the same sums as the columns take.
    pub(super) fn steps_from(&self, x: usize) -> Steps {
        let k = x.wrapping_sub(self.x0) as i64;
        Steps {
            recip: self.recip.wrapping_add(k.wrapping_mul(self.recip_step)),
            recip_step: self.recip_step,
            foot: self.foot,
            run: self.run.wrapping_add(k.wrapping_mul(self.run_step)),
            run_step: self.run_step,
            division: self.division,
        }
    }

    /// Stepping for columns `x0..=x1` of the wall with ends `ends`, seen
    /// from its front (`front`) or back, `length` long, met there at
    /// `hits`; `None` for one column, or where the length does not fit
    /// the ends (below).
    pub(super) fn new(
        ends: &Ends,
        front: bool,
        length: crate::math::Fx,
        hits: EndHits,
        (x0, x1): (usize, usize),
        division: Division,
    ) -> Option<DepthStep> {
        if x1 <= x0 {
            return None;
        }
        let span = (x1 - x0) as i64;
        // The side seen runs from S to S + W (both below 2^34 in 16.16
        // bits, so the products below stay within 2^69 in an i128).
        let (sx, sy, wx, wy) = if front {
            (ends.ax, ends.ay, ends.bx - ends.ax, ends.by - ends.ay)
        } else {
            (ends.bx, ends.by, ends.ax - ends.bx, ends.ay - ends.by)
        };
        let len = length.to_bits().max(1) as i128;
        let foot = divide(
            -(sx as i128 * wx as i128 + sy as i128 * wy as i128),
            len,
            division,
        );
        // A ray's components are at most 2 (16.16 bits): the run is at
        // most 2^33 in 32 fraction bits.
        let run = |(dx, dy): (i64, i64)| {
            divide(
                (dx as i128 * wx as i128 + dy as i128 * wy as i128) << 16,
                len,
                division,
            )
        };
        let (g0, g1) = (run(hits.rays[0]), run(hits.rays[1]));
        // So they are, and the foot below 2^50, when the map's length is
        // the wall's; where it is not (a map not from our compiler), the
        // columns are worked out exactly. Within these bounds no sum or
        // product below leaves an i64.
        const RUN: i128 = 1 << 36;
        const FOOT: i128 = 1 << 50;
        if !(-FOOT..FOOT).contains(&foot)
            || !(-RUN..RUN).contains(&g0)
            || !(-RUN..RUN).contains(&g1)
        {
            return None;
        }
        let (foot, g0, g1) = (foot as i64, g0 as i64, g1 as i64);
        // Depths in [MIN_DEPTH, MAX_DEPTH]: reciprocals below 2^54, 2^62
        // with the fraction bits.
        let recip = |inverse: Inverse| (inverse.recip() << 8) as i64;
        let (r0, r1) = (recip(hits.inverses.0), recip(hits.inverses.1));
        Some(DepthStep {
            x0,
            recip: r0,
            recip_step: div_toward_zero_by(division, r1 - r0, span),
            foot,
            run: g0,
            run_step: div_toward_zero_by(division, g1 - g0, span),
            length: length.to_bits().max(0) as i64,
            division,
        })
    }

    /// `u64::MAX / depth` in column `x` (at least 1).
    #[inline]
    pub(super) fn recip(&self, x: usize) -> u64 {
        let k = x.wrapping_sub(self.x0) as i64;
        ((self.recip + k * self.recip_step) >> 8).max(1) as u64
    }

    /// The depth in column `x` (16.16 bits): one division.
    #[inline]
    pub(super) fn depth(&self, x: usize) -> i64 {
        let recip = self.recip(x);
        (div_floor_by(self.division, u64::MAX, recip).min(MAX_DEPTH as u64) as i64).max(MIN_DEPTH)
    }

    /// The distance along the side seen of the point met in column `x`
    /// at `depth` (16.16 bits), within the wall, as [`Hit::along`] gives
    /// it.
    #[inline]
    pub(super) fn along(&self, x: usize, depth: i64) -> i64 {
        let k = x.wrapping_sub(self.x0) as i64;
        let run = self.run + k * self.run_step;
        // depth <= 2^40, |run| < 2^36: the product fits in an i128, and
        // shifted, in an i64.
        let run = ((depth as i128 * run as i128) >> 32) as i64;
        within(self.foot + run, 0, self.length)
    }
}

/// `n / d` (`d` positive), rounded towards zero; by a 64-bit division
/// where both fit, as they do for all but the largest maps (a 128-bit
/// division is a library call on the N64).
pub(super) fn divide(n: i128, d: i128, division: Division) -> i128 {
    match (i64::try_from(n), i64::try_from(d)) {
        (Ok(n), Ok(d)) if n != i64::MIN => div_toward_zero_by(division, n, d.max(1)) as i128,
        _ => n / d.max(1),
    }
}

/// What a crossing leaves.
#[derive(Copy, Clone, Debug)]
pub(super) struct Crossed {
    /// The window open behind the wall (`None`: one-sided, the column is
    /// done).
    pub(super) window: Option<(i64, i64)>,
    /// The rows of the opening, when the wall has a see-through middle
    /// texture to draw over it (see [`super::overlays::see_through`]).
    pub(super) see_through: Option<(usize, usize)>,
}

/// A wall part's texture, looked up (and its columns prepared for the
/// column loop) once per seg.
#[derive(Copy, Clone, Debug)]
pub(super) struct PartTexture<'a> {
    pub(super) texels: WallTexels<'a>,
    pub(super) top: i64,
}

/// What one seg visit draws with, worked out once (DOOM's
/// `R_StoreWallRange`), so that each column (`SegDraw::column`, DOOM's
/// `R_RenderSegLoop`) only projects, records and fills.
pub(super) struct SegDraw<'p, 'a> {
    pub(super) prep: &'p Prepared,
    pub(super) here: SectorRef,
    pub(super) upper: Option<PartTexture<'a>>,
    pub(super) lower: Option<PartTexture<'a>>,
    pub(super) middle: Option<PartTexture<'a>>,
    /// The planes of the sector's floor and ceiling, as
    /// [`Planes::known`] last gave them (looked up once a seg, as DOOM's
    /// `R_StoreWallRange` picks its floor and ceiling planes, not in
    /// every column).
    pub(super) known_planes: [u16; 2],
    /// Their visplanes ([`VisPlanes::visplane_of`]), kept as the runs
    /// go in.
    pub(super) visplanes: [u8; 2],
    /// The wall's light by scale step ([`light::scale_row`]).
    pub(super) lights: &'static [u8; light::MAX_LIGHT_SCALE],
    /// Its middle texture closes the column ([`middle_closes`]).
    pub(super) middle_closes: bool,
}

impl<'p, 'a> SegDraw<'p, 'a> {
    /// What the wall `prep` of sector `here` draws with; `known_planes`:
    /// [`Planes::known`] of its floor and ceiling.
    pub(super) fn new(
        level: &Level<'a>,
        cache: &SectorCache<'a>,
        prep: &'p Prepared,
        here: SectorRef,
        known_planes: [u16; 2],
        visplanes: [u8; 2],
    ) -> SegDraw<'p, 'a> {
        let texture = |part: Part| {
            if part.texture == crate::format::NONE {
                return None;
            }
            let texture = cache
                .kept_texture(part.slot)
                .or_else(|| level.map().texture(part.texture))?;
            Some(PartTexture {
                texels: WallTexels::of(texture),
                top: part.top,
            })
        };
        SegDraw {
            prep,
            here,
            upper: texture(prep.upper),
            lower: texture(prep.lower),
            middle: texture(prep.middle),
            known_planes,
            visplanes,
            lights: light::scale_row(prep.wall_light as usize),
            middle_closes: prep.next.is_some() && middle_closes(level, prep),
        }
    }

    /// One column's crossing at `at` (the rows of the wall's heights
    /// `rows`), within the window `[top, bottom)`: the sector's ceiling
    /// and floor up to the wall, then the wall.
    #[inline]
    pub(super) fn column<P: Pixel, A: WallAt, S: SegKind, const HOLD: bool>(
        &mut self,
        rec: &mut RunWriter<'_, 'a, P, HOLD>,
        cache: &SectorCache<'a>,
        at: &A,
        rows: [i64; 4],
        (top, bottom): (i64, i64),
    ) -> Crossed {
        let prep = self.prep;
        let [top_y, floor_y, back_ceiling_y, back_floor_y] = rows;
        let ceiling_y = within(top_y, top, bottom);
        let floor_y = within(floor_y, ceiling_y, bottom);
        if top < ceiling_y {
            let (height, n) = (prep.ceiling_height, prep.plane_light as usize);
            let known = (&mut self.known_planes[1], &mut self.visplanes[1]);
            rec.plane_run(cache, self.here, true, (top, ceiling_y), (n, height), known);
        }
        if floor_y < bottom {
            let (height, n) = (prep.floor.unsigned_abs(), prep.plane_light as usize);
            let known = (&mut self.known_planes[0], &mut self.visplanes[0]);
            rec.plane_run(
                cache,
                self.here,
                false,
                (floor_y, bottom),
                (n, height),
                known,
            );
        }
        if S::PASSES {
            return Crossed {
                window: Some((ceiling_y, floor_y)),
                see_through: None,
            };
        }
        // The wall's light and texture column, worked out when first
        // needed.
        let mut lit = Lit {
            depth: None,
            level: None,
            u: None,
        };
        if S::one_sided(prep) {
            self.part(rec, &mut lit, at, self.middle, (ceiling_y, floor_y));
            return Crossed {
                window: None,
                see_through: None,
            };
        }
        let mut new_top = ceiling_y;
        if prep.upper_shows {
            new_top = within(back_ceiling_y, ceiling_y, floor_y);
            self.part(rec, &mut lit, at, self.upper, (ceiling_y, new_top));
        }
        let mut new_bottom = floor_y;
        if prep.lower_shows {
            new_bottom = within(back_floor_y, new_top, floor_y);
            self.part(rec, &mut lit, at, self.lower, (new_bottom, floor_y));
        }
        if S::closes(self.middle_closes) {
            self.part(rec, &mut lit, at, self.middle, (new_top, new_bottom));
            return Crossed {
                window: None,
                see_through: None,
            };
        }
        let see_through = (new_top < new_bottom && prep.middle.texture != crate::format::NONE)
            .then_some((new_top as usize, new_bottom as usize));
        Crossed {
            window: Some((new_top, new_bottom)),
            see_through,
        }
    }
}

/// Where a column meets the wall: its depth, and the distance along the
/// side seen, by the seg's stepping ([`DepthStep`]) or worked out in
/// the column ([`ExactAt`]).
pub(super) trait WallAt {
    /// The wall's depth in column `x` (16.16 bits).
    fn depth(&self, x: usize) -> i64;
    /// The distance along the side seen (16.16 bits, within the wall of
    /// `length`) in column `x`, where the depth is `depth`.
    fn along(&self, x: usize, depth: i64, length: crate::math::Fx) -> i64;
    /// The scale step of the depth in column `x` ([`light::scale_step`]).
    fn scale_step(&self, x: usize) -> usize;
}

impl WallAt for &DepthStep {
    #[inline(always)]
    fn depth(&self, x: usize) -> i64 {
        DepthStep::depth(self, x)
    }

    #[inline(always)]
    fn along(&self, x: usize, depth: i64, _length: crate::math::Fx) -> i64 {
        DepthStep::along(self, x, depth)
    }

    /// From the stepped reciprocal: not waiting for the depth's division.
    #[inline(always)]
    fn scale_step(&self, x: usize) -> usize {
        light::scale_step_of_recip(self.recip(x))
    }
}

/// Whether a wall is drawn as one-sided (its middle, closing the column)
/// or two-sided (upper and lower parts, leaving a window): known per seg
/// ([`OneSided`], [`TwoSided`]), so that a copy of the column loop for
/// each tests nothing of it per column, or looked up ([`EitherSide`]).
pub(super) trait SegKind {
    /// The wall `prep` is drawn as one-sided.
    fn one_sided(prep: &Prepared) -> bool;
    /// None of the wall's parts shows: the column's ray only passes
    /// into the sector behind ([`Portal`]).
    const PASSES: bool = false;
    /// Whether the wall's middle texture closes the column (drawn as a
    /// wall part over the opening: [`Closing`]); `middle_closes`:
    /// [`middle_closes`] of the seg.
    #[inline(always)]
    fn closes(_middle_closes: bool) -> bool {
        false
    }
}

/// Two-sided walls whose opaque middle texture covers the opening: the
/// texture is drawn there as a wall part and the column closes, where a
/// see-through wall is recorded and drawn after the walk, over all that
/// the walk drew behind it (DOOM draws such a texture as a masked seg,
/// over what is behind; behind an opaque one nothing shows).
/// Freedoom's E2M3 has 65 sides so (falls, grates that are not
/// see-through): its turn drew about 15 thousand pixels a frame twice.
pub(super) struct Closing;

impl SegKind for Closing {
    #[inline(always)]
    fn one_sided(_: &Prepared) -> bool {
        false
    }

    #[inline(always)]
    fn closes(_middle_closes: bool) -> bool {
        true
    }
}

/// Walls with no sector behind.
pub(super) struct OneSided;
/// Walls with a sector behind.
pub(super) struct TwoSided;
/// Either, by the wall.
pub(super) struct EitherSide;
/// Walls with a sector behind whose parts do not show (no upper or
/// lower wall, no see-through texture): the usual crossing on maps of
/// many sectors, which needs the wall's rows and the planes before it,
/// and nothing of its depth, light or texture.
pub(super) struct Portal;

impl SegKind for OneSided {
    #[inline(always)]
    fn one_sided(_: &Prepared) -> bool {
        true
    }
}

impl SegKind for TwoSided {
    #[inline(always)]
    fn one_sided(_: &Prepared) -> bool {
        false
    }
}

impl SegKind for Portal {
    #[inline(always)]
    fn one_sided(_: &Prepared) -> bool {
        false
    }

    const PASSES: bool = true;
}

impl SegKind for EitherSide {
    #[inline(always)]
    fn one_sided(prep: &Prepared) -> bool {
        prep.next.is_none()
    }

    #[inline(always)]
    fn closes(middle_closes: bool) -> bool {
        middle_closes
    }
}

/// Where a column meets a wall none of whose parts shows
/// ([`Portal`]'s column loop): never asked.
pub(super) struct Unseen;

impl WallAt for Unseen {
    fn depth(&self, _x: usize) -> i64 {
        MAX_DEPTH
    }

    fn along(&self, _x: usize, _depth: i64, _length: crate::math::Fx) -> i64 {
        0
    }

    fn scale_step(&self, _x: usize) -> usize {
        0
    }
}

/// A column's exact hit on the wall, and its depth.
pub(super) struct ExactAt {
    pub(super) hit: Hit,
    pub(super) depth: i64,
}

impl WallAt for ExactAt {
    #[inline(always)]
    fn depth(&self, _x: usize) -> i64 {
        self.depth
    }

    #[inline(always)]
    fn along(&self, _x: usize, _depth: i64, length: crate::math::Fx) -> i64 {
        self.hit.along(length)
    }

    #[inline(always)]
    fn scale_step(&self, _x: usize) -> usize {
        light::scale_step(self.depth)
    }
}

/// A seg's columns and what its column loop ([`BspWalk::columns`])
/// records besides the pixels.
#[derive(Copy, Clone)]
pub(super) struct SegSpan {
    pub(super) id: WallId,
    /// The first open column and the end, `[x, x1)`.
    pub(super) columns: (usize, usize),
    pub(super) ends: Ends,
}

/// A column's wall depth, light level and texture column, once worked
/// out.
pub(super) struct Lit {
    pub(super) depth: Option<i64>,
    pub(super) level: Option<usize>,
    pub(super) u: Option<i64>,
}

impl<'a> SegDraw<'_, 'a> {
    /// Rows `(y0, y1)` of one of the wall's parts, textured with `t` (or
    /// in the sector's wall colour), in this column.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn part<P: Pixel, A: WallAt, const HOLD: bool>(
        &mut self,
        rec: &mut RunWriter<'_, 'a, P, HOLD>,
        lit: &mut Lit,
        at: &A,
        t: Option<PartTexture<'a>>,
        (y0, y1): (i64, i64),
    ) {
        if y0 >= y1 || y0 < 0 {
            return;
        }
        let prep = self.prep;
        let x = rec.x;
        let depth = *lit.depth.get_or_insert_with(|| at.depth(x));
        let level = match lit.level {
            Some(l) => l,
            None => {
                let step = at.scale_step(x) as u64;
                let l = light::in_row(self.lights, step);
                lit.level = Some(l);
                l
            }
        };
        let (x, rows) = (rec.x, (y0 as usize, y1 as usize));
        match t {
            Some(t) => {
                let u = *lit
                    .u
                    .get_or_insert_with(|| at.along(x, depth, prep.length) + prep.x_offset as i64);
                // (Walls' depths are kept within the bounds.)
                let step = rec.view.per_row_within(depth);
                let v0 = rec.view.texel_row(t.top, step, rows.0);
                let run = (x, rows.0, rows.1);
                let texel_rows = ((u >> 16) as i32, v0, step);
                let shade = rec.shades.row(level);
                if HOLD {
                    rec.hold_textured(run, texel_rows, t.texels, shade);
                } else {
                    draw::fill_wall(rec.pixels, rec.stride, run, texel_rows, &t.texels, shade);
                }
            }
            None => {
                let pixel = rec.shades.get(level, prep.wall_color);
                let run = (x, rows.0, rows.1);
                if HOLD {
                    rec.hold_solid(run, pixel);
                } else {
                    let (x, y0, y1) = run;
                    let run = draw::FlatRun { x, y0, y1, pixel };
                    draw::fill_flat(rec.pixels, rec.stride, run);
                }
            }
        }
    }
}

impl<'a, P: Pixel, const HOLD: bool> RunWriter<'_, 'a, P, HOLD> {
    /// Rows `(y0, y1)` of this column show the ceiling (`ceiling`) or
    /// floor of sector `sector` (light number `n`, `height` from the
    /// eye), whose plane [`Planes::known`] gave as `known` (the seg's
    /// copy, brought up to date here). The usual case, a plane seen
    /// before and room in the pool, is a push.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn plane_run(
        &mut self,
        cache: &SectorCache<'a>,
        sector: SectorRef,
        ceiling: bool,
        (y0, y1): (i64, i64),
        (n, height): (usize, u64),
        (known, visplane): (&mut u16, &mut u8),
    ) {
        if y0 < 0 {
            return;
        }
        let rows = (y0 as usize, y1 as usize);
        let plane = *known;
        if plane < SKY_PLANE && self.visplanes.mark_in(self.x, rows, plane, visplane) {
            return;
        }
        // The sky, once known, is drawn at once, with no look-up (214
        // columns a frame on the MAP02 turn went through `plane_slow`).
        if plane == SKY_PLANE {
            return self.sky_rows(rows);
        }
        self.plane_slow(cache, sector, ceiling, rows, n, height, plane);
        *known = self.planes.known(sector, ceiling);
        *visplane = self.visplanes.visplane_of(*known);
    }

    /// [`RunWriter::plane_run`] for the sky, a plane not known yet, or no
    /// room in the pool (`plane`: what [`Planes::known`] said).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn plane_slow(
        &mut self,
        cache: &SectorCache<'a>,
        sector: SectorRef,
        ceiling: bool,
        rows: (usize, usize),
        n: usize,
        height: u64,
        plane: u16,
    ) {
        let (level, view) = (self.level, self.view);
        let found = self
            .planes
            .resolve(plane, level, view, cache, sector, ceiling, n, height);
        let x = self.x;
        let unlisted = match found {
            Found::Listed(p) if plane == NO_PLANE && self.visplanes.mark(x, rows, p) => return,
            Found::Sky => return self.sky_rows(rows),
            // No room in the pool, or none in the table: drawn now, the
            // same pixels.
            Found::Listed(p) => Err(p),
            Found::Unlisted(p) => Ok(p),
        };
        let planes: &Planes<'a> = self.planes;
        let mut target = Target {
            pixels: &mut *self.pixels,
            stride: self.stride,
            recip: self.recip,
            shades: self.shades,
        };
        match unlisted {
            Ok(p) => planes.draw_plane_now(&p, rows, x, &mut target),
            Err(p) => planes.draw_now(p, rows, x, &mut target),
        }
    }
}
