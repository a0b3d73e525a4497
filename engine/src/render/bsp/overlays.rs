//! What is drawn over the walk, column by column, once the floors are
//! down: each column's see-through middle textures and the clip windows
//! of the sprites that cover it, worked out again from what the walk
//! recorded (DOOM's `R_DrawMasked`: its drawsegs and sprite clipping).

use super::*;

/// The sprites' clip windows and see-through textures of column `x`, as
/// the walk left them: `clips` for the sprites covering
/// it (of those with windows: the rest show nowhere, or were counted as
/// dropped), and `masked` nearest first.
#[allow(clippy::too_many_arguments)]
pub(crate) fn column_overlays<'a>(
    level: &Level<'a>,
    view: &View<'a>,
    cache: &SectorCache<'a>,
    scratch: &WalkState<'_>,
    visible: &[Visible<'a>],
    active: &[u8],
    x: usize,
    clips: &mut HVec<SpriteClip, { crate::render::MAX_VISIBLE_SPRITES }>,
    masked: &mut HVec<Masked<'a>, MAX_MASKED_PER_COLUMN>,
    stats: &mut RenderStats,
) {
    for &i in active {
        let Some(v) = visible.get(i as usize) else {
            continue;
        };
        if let Some(w) = scratch.sprite_window(i as usize, v, x, view.height) {
            let _ = clips.push(SpriteClip {
                depth: v.depth,
                at: (v.x, v.y),
                top: w.top(),
                bottom: w.bottom(),
                slot: w.step(),
                index: i,
            });
        }
    }
    // The ray, worked out for the first see-through wall in the column.
    let mut ray = None;
    let sight = TableRays {
        view,
        rays: scratch.rays,
    };
    for m in scratch.masked.iter() {
        if !(m.x0 as usize..m.x1 as usize).contains(&x) {
            continue;
        }
        let Some(w) = scratch
            .masked_windows
            .get(m.first as usize + x - m.x0 as usize)
        else {
            continue;
        };
        if w.step() < 0 {
            continue;
        }
        let front = m.front;
        let met = match &m.at {
            MaskedAt::Stepped(steps) => {
                crossing_in_column(&steps.from(m.x0 as usize, m.length), x, m.length)
            }
            MaskedAt::Exact(ends) => {
                let (dx, dy) = *ray.get_or_insert_with(|| sight.ray(x));
                let Some(hit) = exit_depth(dx, dy, ends, front, !front, || ends.cross()) else {
                    continue;
                };
                let depth = hit.depth.bits(sight.division());
                crossing_in_column(ExactAt { hit, depth }, x, m.length)
            }
        };
        let rows = (w.top() as usize, w.bottom() as usize);
        if let Some(mk) = see_through(level, cache, m, met, rows, w.step() as i32) {
            if masked.push(mk).is_err() {
                stats.masked_dropped = stats.masked_dropped.saturating_add(1);
            }
        }
    }
}

/// The depth, the distance along the wall (16.16 bits) and the light
/// scale step in column `x` of a wall `length` long met at `at`, as a
/// wall part is met there.
#[inline]
pub(super) fn crossing_in_column(
    at: impl WallAt,
    x: usize,
    length: crate::math::Fx,
) -> (i64, i64, usize) {
    let depth = at.depth(x);
    (depth, at.along(x, depth, length), at.scale_step(x))
}

/// The see-through middle texture of the wall `m` met at depth `depth`,
/// distance `along` it (16.16 bits) and light scale step `scale_step`,
/// over rows `rows` of the opening, crossed at walk step `step` (what the
/// walk records per column); `None` if its texture is missing.
pub(super) fn see_through<'a>(
    level: &Level<'a>,
    cache: &SectorCache<'a>,
    m: &MaskedWall,
    (depth, along, scale_step): (i64, i64, usize),
    (y0, y1): (usize, usize),
    step: i32,
) -> Option<Masked<'a>> {
    let part = m.middle;
    let texture = cache
        .kept_texture(part.slot)
        .or_else(|| level.map().texture(part.texture))?;
    let lit = light::by_step(m.wall_light as usize, scale_step as u64);
    Some(Masked {
        y0,
        y1,
        depth,
        level: lit,
        tex: TexSpan {
            texture,
            u: along + m.x_offset as i64,
            top: part.top,
        },
        step,
    })
}
