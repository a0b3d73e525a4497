//! What each column sees. No pixels here: the walk emits [`Span`]s (row
//! ranges with a surface and a light) and the caller paints them; it also
//! records the see-through middle textures of the portals it crosses
//! ([`Masked`]) and narrows each sprite's clip window ([`SpriteClip`]) as
//! it passes walls in front of the sprite.
//!
//! ## The walk
//!
//! Column `x` casts the ray `P + t * D` with `D = F + R * k`, where `F` is
//! the facing unit vector, `R` the right vector and
//! `k = (x + 0.5 - width / 2) / focal`. `F`'s component of `D` is 1, so the
//! ray parameter `t` is the perpendicular depth (no fisheye).
//!
//! Starting in the camera's sector with the clip window `[0, height)`, each
//! step finds the nearest wall of the current sector through which the ray
//! *leaves* that sector beyond the previous crossing, draws the sector's
//! ceiling and floor up to that wall, and then either draws the wall (one
//! sided: the column is done) or the upper and lower parts of the portal,
//! narrows the window and continues in the sector behind. Testing every wall
//! of the sector, rather than walking edges of a convex polygon, is what
//! makes non-convex sectors and sectors with holes work unsplit.
//!
//! ## Exact intersection arithmetic
//!
//! Points are 16.16 bits relative to the camera, so differences fit in 33
//! bits, and the ray direction fits in 18 bits. The side tests
//! `D x (A - P)` are therefore exact in `i64`, and the depth of a hit is
//! kept as the exact fraction `((A - P) x (B - P)) / (D x (B - A))` in
//! `i128` until a hit is chosen. Comparisons between hits and against the
//! previous crossing are exact cross-multiplications, so two walls meeting
//! at a vertex the ray passes through give the *same* depth, and the walk
//! can never ping-pong between them. (The 16-fraction-bit [`crate::math::Wide`]
//! would round these products; exactness is what makes the walk's
//! decisions consistent.) Only the chosen hit is divided, once, into a
//! 16.16 depth, clamped to [`MIN_DEPTH`] so projection never divides by
//! zero.
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

use super::{light, Camera, RenderStats};
use crate::config::MAX_PORTALS_PER_COLUMN;
use crate::format::{wall_flag, TextureView, NONE, SKY};
use crate::math::Fx;
use crate::world::{Level, Sector, SectorId, Wall, WallId};
use heapless::Vec as HVec;

/// The smallest depth projection divides by: 1/64 map unit, in 16.16 bits.
pub(crate) const MIN_DEPTH: i64 = 1 << 10;
/// The largest depth kept (far beyond any map), in 16.16 bits.
const MAX_DEPTH: i64 = 1 << 40;
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
    sector: Option<SectorId>,
    /// The sky texture, if the map has one.
    pub(crate) sky: Option<TextureView<'a>>,
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
        View {
            px: camera.pos.x.to_bits() as i64,
            py: camera.pos.y.to_bits() as i64,
            fx: c,
            fy: s,
            rx: s,
            ry: -c,
            eye: camera.eye_z.to_bits() as i64,
            angle: camera.angle.degrees().to_bits() as i64,
            // Frame guarantees both are at most a few thousand.
            width: width.clamp(1, crate::config::MAX_SCREEN_WIDTH) as i64,
            height: height.min(crate::config::MAX_SCREEN_HEIGHT) as i64,
            sector,
            sky: map.sky().and_then(|t| map.texture(t)),
        }
    }

    /// Whether the camera is in a sector at all.
    pub(crate) fn has_sector(&self) -> bool {
        self.sector.is_some()
    }

    /// `k` for column `x`: the ray's sideways slope, 16.16 bits in
    /// `(-1, 1)`, positive to the right: `(2x + 1 - width) / width`,
    /// truncated towards zero so that mirrored columns get exactly
    /// mirrored rays.
    pub(crate) fn slope(&self, x: usize) -> i64 {
        ((2 * x as i64 + 1 - self.width) << 16) / self.width
    }

    /// The sky texture column seen in column `x` (not yet wrapped to the
    /// texture's width). DOOM's mapping: 1024 columns per full turn,
    /// counted with the angle (counter-clockwise), so a 256-wide sky
    /// repeats four times around, and the texture runs right to left
    /// across the screen as in DOOM.
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

    /// The ray direction for column `x`, 16.16 bits (each component at
    /// most 2 in magnitude).
    pub(crate) fn ray(&self, x: usize) -> (i64, i64) {
        let k = self.slope(x);
        (
            self.fx + (self.rx * k) / (1 << 16),
            self.fy + (self.ry * k) / (1 << 16),
        )
    }

    /// The first row whose centre lies at or below the screen image of
    /// height `h` at depth `depth` (16.16 bits, at least [`MIN_DEPTH`]).
    pub(crate) fn project(&self, h: Fx, depth: i64) -> i64 {
        self.project_rel(h.to_bits() as i64 - self.eye, depth)
    }

    /// [`View::project`] for a height relative to the eye (16.16 bits,
    /// below 2^33 in magnitude).
    pub(crate) fn project_rel(&self, dh: i64, depth: i64) -> i64 {
        // |dh| < 2^33, width <= 2^10: the product stays below 2^59.
        // (dh * focal) in 32.32 bits, with focal = width / 2.
        let off = (dh * self.width) << 15;
        // Screen y in 16.16, truncated towards zero (symmetric about the
        // horizon).
        let y = (self.height << 15) - off / depth.max(MIN_DEPTH);
        // ceil(y - 0.5)
        (y + 0x7fff) >> 16
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

/// `atan(k)` in degrees (16.16 bits) for a slope `0 <= k <= 1` (16.16
/// bits), rounded down to the sine table's 1/64 degree: a binary search
/// for the largest angle whose tangent is at most `k`.
fn atan_degrees(k: i64) -> i64 {
    const STEP: i64 = 1 << 10; // 1/64 degree in 16.16
    let (mut lo, mut hi) = (0i64, 45 * 64);
    while lo < hi {
        let mid = (lo + hi + 1) / 2;
        let (c, s) = crate::math::Angle::from_degrees(Fx::from_bits((mid * STEP) as i32)).cos_sin();
        if ((s.to_bits() as i64) << 16) <= k * c.to_bits() as i64 {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo * STEP
}

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
    /// A flat texture.
    Flat(TextureView<'a>),
    /// The sky.
    Sky,
}

/// One run of rows in one column, in screen rows `[y0, y1)`, non-empty
/// and inside the frame. The spans of one column cover each row once.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Span<'a> {
    /// A wall: a texture column, or one colour, at one light level.
    Wall {
        /// First row.
        y0: usize,
        /// One past the last row.
        y1: usize,
        /// Palette index when untextured.
        color: u8,
        /// Light level.
        level: usize,
        /// Depth of the wall in this column, 16.16 bits.
        depth: i64,
        /// The texture, if the side has one.
        tex: Option<TexSpan<'a>>,
    },
    /// A floor or ceiling: light fades per row with the plane's distance.
    Plane {
        /// First row.
        y0: usize,
        /// One past the last row.
        y1: usize,
        /// What it shows.
        surface: Surface<'a>,
        /// The sector's light number (see [`light::number`]).
        light: usize,
        /// `|plane height - eye height|`, 16.16 bits.
        height: u64,
    },
    /// Nothing seen: the background.
    Background {
        /// First row.
        y0: usize,
        /// One past the last row.
        y1: usize,
    },
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
    /// Position relative to the camera, 16.16 bits.
    pub(crate) x: i64,
    /// Position relative to the camera, 16.16 bits.
    pub(crate) y: i64,
    /// First open row.
    pub(crate) top: i64,
    /// One past the last open row.
    pub(crate) bottom: i64,
    /// The last walk step whose wall is in front of the sprite (-1: none).
    pub(crate) slot: i32,
    /// Which visible sprite.
    pub(crate) index: u32,
}

/// The depth of a hit as the exact fraction `num / den`, `den > 0`.
#[derive(Copy, Clone, Debug)]
struct Depth {
    num: i128,
    den: i128,
}

impl Depth {
    const ZERO: Depth = Depth { num: 0, den: 1 };

    /// Exact `self < other`. Numerators are below 2^66 and denominators
    /// below 2^51 in magnitude, so the products fit easily.
    #[inline]
    fn less(self, other: Depth) -> bool {
        self.num * other.den < other.num * self.den
    }

    /// 16.16 bits, clamped to `[MIN_DEPTH, MAX_DEPTH]`.
    fn bits(self) -> i64 {
        let q = (self.num << 16) / self.den.max(1);
        q.clamp(MIN_DEPTH as i128, MAX_DEPTH as i128) as i64
    }
}

/// Where a ray leaves a sector through a wall.
#[derive(Copy, Clone, Debug)]
struct Hit {
    depth: Depth,
    /// `D x (A - P)` and `D x (B - P)`: how far each end lies off the ray.
    ca: i64,
    cb: i64,
    /// The ray sees the wall's front side.
    front: bool,
}

impl Hit {
    /// The distance of the hit from the start of the side seen (`a` for
    /// the front, `b` for the back), 16.16 bits, for a wall of `length`.
    fn along(&self, length: Fx) -> i64 {
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

/// The depth at which the ray `(dx, dy)` leaves `sector` through `wall`,
/// if it does (the ray's line crosses the segment, moving from the
/// sector's side to the other). Exact; may be negative (behind).
#[inline]
fn exit_depth(view: &View<'_>, dx: i64, dy: i64, wall: &Wall, sector: SectorId) -> Option<Hit> {
    let (ax, ay) = (
        wall.a.x.to_bits() as i64 - view.px,
        wall.a.y.to_bits() as i64 - view.py,
    );
    let (bx, by) = (
        wall.b.x.to_bits() as i64 - view.px,
        wall.b.y.to_bits() as i64 - view.py,
    );
    // Which side of the ray's line each end lies on (exact: < 2^51).
    let ca = dx * ay - dy * ax;
    let cb = dx * by - dy * bx;
    // D x (B - A): negative when the ray goes from the wall's right
    // (front) to its left (back).
    let den = cb - ca;
    let leaves = match den {
        d if d < 0 => wall.front == sector && ca >= 0 && cb <= 0,
        d if d > 0 => wall.back == Some(sector) && ca <= 0 && cb >= 0,
        _ => false,
    };
    if !leaves {
        return None;
    }
    // t = ((A - P) x (B - P)) / (D x (B - A)).
    let num = ax as i128 * by as i128 - ay as i128 * bx as i128;
    let depth = if den < 0 {
        Depth {
            num: -num,
            den: -(den as i128),
        }
    } else {
        Depth {
            num,
            den: den as i128,
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
fn contrast(wall: &Wall) -> i32 {
    if wall.a.y == wall.b.y {
        -1
    } else if wall.a.x == wall.b.x {
        1
    } else {
        0
    }
}

/// A run `[y0, y1)` already clamped to the window; `None` if empty.
#[inline]
fn rows(y0: i64, y1: i64) -> Option<(usize, usize)> {
    (y0 < y1 && y0 >= 0).then_some((y0 as usize, y1 as usize))
}

/// What a sector's floor or ceiling texture shows.
fn surface<'a>(level: &Level<'a>, view: &View<'a>, texture: u16, color: u8) -> Surface<'a> {
    match texture {
        NONE => Surface::Color(color),
        SKY if view.sky.is_some() => Surface::Sky,
        SKY => Surface::Color(color),
        t => level
            .map()
            .texture(t)
            .map_or(Surface::Color(color), Surface::Flat),
    }
}

/// How a wall decides which sprites it hides: its ends' depths and its
/// line, relative to the camera.
struct Occluder {
    near: i64,
    far: i64,
    ax: i64,
    ay: i64,
    ex: i64,
    ey: i64,
    /// Which side of the line the camera is on (sign only).
    camera_side: i128,
}

impl Occluder {
    fn new(view: &View<'_>, wall: &Wall) -> Occluder {
        let ax = wall.a.x.to_bits() as i64 - view.px;
        let ay = wall.a.y.to_bits() as i64 - view.py;
        let bx = wall.b.x.to_bits() as i64 - view.px;
        let by = wall.b.y.to_bits() as i64 - view.py;
        let (da, _) = view.view_coords(ax, ay);
        let (db, _) = view.view_coords(bx, by);
        let (ex, ey) = (bx - ax, by - ay);
        // (B - A) x (P - A), with P the origin.
        let camera_side = ey as i128 * ax as i128 - ex as i128 * ay as i128;
        Occluder {
            near: da.min(db),
            far: da.max(db),
            ax,
            ay,
            ex,
            ey,
            camera_side,
        }
    }

    /// Whether the wall is in front of the sprite (DOOM's rule: wholly
    /// nearer, or spanning the sprite's depth with the sprite behind the
    /// wall's line).
    fn hides(&self, s: &SpriteClip) -> bool {
        if self.far <= s.depth {
            return true;
        }
        if self.near >= s.depth {
            return false;
        }
        let side =
            self.ex as i128 * (s.y - self.ay) as i128 - self.ey as i128 * (s.x - self.ax) as i128;
        (self.camera_side > 0 && side < 0) || (self.camera_side < 0 && side > 0)
    }
}

/// Narrows the window of every sprite `wall` hides to `[top, bottom)`.
fn clip_sprites(
    view: &View<'_>,
    wall: &Wall,
    sprites: &mut [SpriteClip],
    step: i32,
    top: i64,
    bottom: i64,
) {
    if sprites.is_empty() {
        return;
    }
    let occluder = Occluder::new(view, wall);
    for s in sprites.iter_mut() {
        if occluder.hides(s) {
            s.top = top;
            s.bottom = bottom;
            s.slot = step;
        }
    }
}

/// The side of a wall a ray hit, for placing its textures.
struct SideTex<'a, 'v> {
    level: &'v Level<'a>,
    view: &'v View<'a>,
    hit: &'v Hit,
    wall: &'v Wall,
    x_offset: i64,
    y_offset: i64,
}

impl<'a> SideTex<'a, '_> {
    /// The textured run of `texture` with its row 0 at height `peg`
    /// (16.16, before the y offset), or `None` for no texture.
    /// `pegged_bottom` puts the texture's bottom edge at `peg` instead.
    fn get(&self, texture: u16, peg: i64, pegged_bottom: bool) -> Option<TexSpan<'a>> {
        if texture == NONE {
            return None;
        }
        let t = self.level.map().texture(texture)?;
        let peg = if pegged_bottom {
            peg + ((t.height as i64) << 16)
        } else {
            peg
        };
        Some(TexSpan {
            texture: t,
            u: self.hit.along(self.wall.length) + self.x_offset,
            top: peg + self.y_offset - self.view.eye,
        })
    }
}

/// Walks column `x`, calling `emit` with spans that together cover every
/// row of the column exactly once, recording the see-through middle
/// textures it passes in `masked` (nearest first) and narrowing the
/// windows of `sprites` (all of which should start open, slot -1).
pub(crate) fn column<'a, F: FnMut(Span<'a>)>(
    level: &Level<'a>,
    view: &View<'a>,
    x: usize,
    stats: &mut RenderStats,
    masked: &mut HVec<Masked<'a>, MAX_MASKED_PER_COLUMN>,
    sprites: &mut [SpriteClip],
    mut emit: F,
) {
    let mut top: i64 = 0;
    let mut bottom: i64 = view.height;
    let background = |emit: &mut F, top: i64, bottom: i64| {
        if let Some((y0, y1)) = rows(top, bottom) {
            emit(Span::Background { y0, y1 });
        }
    };
    let Some(mut sector) = view.sector else {
        background(&mut emit, top, bottom);
        return;
    };
    let (dx, dy) = view.ray(x);
    let mut prev = Depth::ZERO;
    // The first step also takes a hit at depth 0 (a camera exactly on a
    // wall); later steps need a hit strictly beyond the last crossing.
    let mut first = true;
    let mut came_through: Option<WallId> = None;

    for step in 0..MAX_PORTALS_PER_COLUMN as i32 {
        let mut best: Option<(Hit, WallId, Wall)> = None;
        for id in level.sector_walls(sector) {
            stats.walls_tested = stats.walls_tested.saturating_add(1);
            if came_through == Some(id) {
                continue;
            }
            let wall = level.wall(id);
            let Some(hit) = exit_depth(view, dx, dy, &wall, sector) else {
                continue;
            };
            let d = hit.depth;
            let beyond = if first { !d.less(prev) } else { prev.less(d) };
            if beyond && best.is_none_or(|(b, _, _)| d.less(b.depth)) {
                best = Some((hit, id, wall));
            }
        }
        let Some((hit, id, wall)) = best else {
            // Outside the map (or a gap): nothing more to see.
            background(&mut emit, top, bottom);
            return;
        };

        let depth = hit.depth.bits();
        let here = level.sector(sector);
        let next = wall.other_side(sector);
        let there: Option<Sector> = next.map(|s| level.sector(s));
        // DOOM's sky hack: between two sky ceilings the front ceiling
        // reaches down (or up) to the back one, so no upper wall shows.
        let sky_hack =
            there.is_some_and(|t| here.ceiling_texture == SKY && t.ceiling_texture == SKY);
        let world_top = match there {
            Some(t) if sky_hack => t.ceiling.max(here.floor),
            _ => here.ceiling,
        };
        let plane_light = light::number(here.light, 0);
        let ceiling_y = view.project(world_top, depth).clamp(top, bottom);
        let floor_y = view.project(here.floor, depth).clamp(ceiling_y, bottom);
        if let Some((y0, y1)) = rows(top, ceiling_y) {
            emit(Span::Plane {
                y0,
                y1,
                surface: surface(level, view, here.ceiling_texture, here.ceiling_color),
                light: plane_light,
                height: (here.ceiling.to_bits() as i64 - view.eye).unsigned_abs(),
            });
        }
        if let Some((y0, y1)) = rows(floor_y, bottom) {
            emit(Span::Plane {
                y0,
                y1,
                surface: surface(level, view, here.floor_texture, here.floor_color),
                light: plane_light,
                height: (here.floor.to_bits() as i64 - view.eye).unsigned_abs(),
            });
        }
        let wall_level = light::by_scale(light::number(here.light, contrast(&wall)), depth);
        let side = level.map().side(if hit.front {
            wall.front_side
        } else {
            wall.back_side
        } as usize);
        let tex = SideTex {
            level,
            view,
            hit: &hit,
            wall: &wall,
            x_offset: (side.x_offset as i64) << 16,
            y_offset: (side.y_offset as i64) << 16,
        };
        let wall_span = |emit: &mut F, y0: i64, y1: i64, tex: Option<TexSpan<'a>>| {
            if let Some((y0, y1)) = rows(y0, y1) {
                emit(Span::Wall {
                    y0,
                    y1,
                    color: here.wall_color,
                    level: wall_level,
                    depth,
                    tex,
                });
            }
        };
        let bits = |h: Fx| h.to_bits() as i64;
        let lower_unpegged = wall.flags & wall_flag::LOWER_UNPEGGED != 0;

        let (Some(next), Some(there)) = (next, there) else {
            // One-sided: the middle texture, from the ceiling down, or
            // from the floor up when lower-unpegged.
            if ceiling_y < floor_y {
                let t = if lower_unpegged {
                    tex.get(side.middle, bits(here.floor), true)
                } else {
                    tex.get(side.middle, bits(here.ceiling), false)
                };
                wall_span(&mut emit, ceiling_y, floor_y, t);
            }
            clip_sprites(view, &wall, sprites, step, 0, 0);
            return;
        };
        let mut new_top = ceiling_y;
        if there.ceiling < world_top {
            new_top = view.project(there.ceiling, depth).clamp(ceiling_y, floor_y);
            if ceiling_y < new_top {
                // Upper: bottom at the back ceiling, or top at the front
                // ceiling when upper-unpegged.
                let t = if wall.flags & wall_flag::UPPER_UNPEGGED != 0 {
                    tex.get(side.upper, bits(world_top), false)
                } else {
                    tex.get(side.upper, bits(there.ceiling), true)
                };
                wall_span(&mut emit, ceiling_y, new_top, t);
            }
        }
        let mut new_bottom = floor_y;
        if there.floor > here.floor {
            new_bottom = view.project(there.floor, depth).clamp(new_top, floor_y);
            if new_bottom < floor_y {
                // Lower: top at the back floor, or placed as if pegged to
                // the front ceiling when lower-unpegged.
                let peg = if lower_unpegged {
                    world_top
                } else {
                    there.floor
                };
                wall_span(
                    &mut emit,
                    new_bottom,
                    floor_y,
                    tex.get(side.lower, bits(peg), false),
                );
            }
        }
        if new_top < new_bottom && side.middle != NONE {
            // A see-through middle texture: drawn once (no vertical
            // tiling), from the lower ceiling down, or up from the higher
            // floor when lower-unpegged.
            let t = if lower_unpegged {
                tex.get(side.middle, bits(here.floor.max(there.floor)), true)
            } else {
                tex.get(side.middle, bits(here.ceiling.min(there.ceiling)), false)
            };
            if let Some(t) = t {
                let m = Masked {
                    y0: new_top as usize,
                    y1: new_bottom as usize,
                    depth,
                    level: wall_level,
                    tex: t,
                    step,
                };
                if masked.push(m).is_err() {
                    stats.masked_dropped = stats.masked_dropped.saturating_add(1);
                }
            }
        }
        clip_sprites(view, &wall, sprites, step, new_top, new_bottom);
        top = new_top;
        bottom = new_bottom;
        if top >= bottom {
            return;
        }
        stats.portals_crossed = stats.portals_crossed.saturating_add(1);
        sector = next;
        came_through = Some(id);
        prev = hit.depth;
        first = false;
    }
    stats.columns_truncated = stats.columns_truncated.saturating_add(1);
    background(&mut emit, top, bottom);
}
