//! Builders for small test levels, through the real map compiler.
#![allow(dead_code)]

use engine::format::{kind, trigger, ThingRecord, WallSpecialRecord};
use engine::math::{Fx, Vec2};
use tools::build::{build, BuildOptions, SourceMap, SourceSector, SourceSpecial};

/// A rectangle sector description: (x0, y0, x1, y1, floor, ceiling).
pub type Rect = (i32, i32, i32, i32, i32, i32);

/// Builds a level from axis-aligned rectangles that meet edge to edge.
/// Rectangles sharing a whole edge become portals. Edges are split at
/// every vertex lying on them so shared parts line up exactly.
pub fn rect_map(rects: &[Rect], start: (i32, i32, i32)) -> Vec<u8> {
    rect_map_with(rects, start, &[])
}

/// As [`rect_map`], plus pushable entities `(x, y, radius)`.
pub fn rect_map_with(
    rects: &[Rect],
    start: (i32, i32, i32),
    entities: &[(i32, i32, i32)],
) -> Vec<u8> {
    rect_map_with_obstacles(rects, start, entities, &[])
}

/// As [`rect_map_with`], plus solid things `(x, y, radius)`.
pub fn rect_map_with_obstacles(
    rects: &[Rect],
    start: (i32, i32, i32),
    entities: &[(i32, i32, i32)],
    obstacles: &[(i32, i32, i32)],
) -> Vec<u8> {
    let mut map = SourceMap::default();
    let mut points: Vec<(i32, i32)> = Vec::new();
    for &(x0, y0, x1, y1, _, _) in rects {
        for p in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
            if !points.contains(&p) {
                points.push(p);
            }
        }
    }
    map.vertices = points.iter().map(|&(x, y)| Vec2::from_int(x, y)).collect();
    let idx = |p: (i32, i32)| points.iter().position(|q| *q == p).unwrap();
    for &(x0, y0, x1, y1, floor, ceiling) in rects {
        // Walk the rectangle counter-clockwise, picking up every vertex on
        // its boundary (T-junctions from neighbours).
        let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
        let mut lp = Vec::new();
        for k in 0..4 {
            let (a, b) = (corners[k], corners[(k + 1) % 4]);
            let mut on: Vec<(i32, i32)> = points
                .iter()
                .copied()
                .filter(|&p| {
                    p != b
                        && ((a.0 == b.0 && p.0 == a.0 && between(p.1, a.1, b.1))
                            || (a.1 == b.1 && p.1 == a.1 && between(p.0, a.0, b.0)))
                })
                .collect();
            on.sort_by_key(|p| (p.0 - a.0).abs() + (p.1 - a.1).abs());
            lp.extend(on.into_iter().map(idx));
        }
        map.sectors.push(SourceSector {
            floor: Fx::from_num(floor),
            ceiling: Fx::from_num(ceiling),
            light: 200,
            floor_color: 3,
            ceiling_color: 7,
            wall_color: 8,
            loops: vec![lp],
            ..Default::default()
        });
    }
    map.things.push(ThingRecord {
        x: Fx::from_num(start.0),
        y: Fx::from_num(start.1),
        angle: Fx::from_num(start.2),
        kind: kind::PLAYER_START,
        ..Default::default()
    });
    for &(x, y, r) in entities {
        map.things.push(ThingRecord {
            x: Fx::from_num(x),
            y: Fx::from_num(y),
            radius: Fx::from_num(r),
            kind: kind::PUSHABLE,
            ..Default::default()
        });
    }
    for &(x, y, r) in obstacles {
        map.things.push(ThingRecord {
            x: Fx::from_num(x),
            y: Fx::from_num(y),
            radius: Fx::from_num(r),
            kind: kind::SOLID,
            ..Default::default()
        });
    }
    build(&map, BuildOptions { block_size: 64 })
        .expect("test map compiles")
        .bytes
}

fn between(v: i32, a: i32, b: i32) -> bool {
    v >= a.min(b) && v <= a.max(b)
}

/// A grid of `cols x rows` cells of 64 units; `cells[r * cols + c]` is
/// `None` (solid) or `(floor, ceiling)`. Interior grid points are moved by
/// `jitter(i)` (each within ±16) so walls are not axis-aligned. Returns
/// `None` if the compiler refuses the result.
pub fn grid_map(
    cols: usize,
    rows: usize,
    cells: &[Option<(i32, i32)>],
    jitter: &[(i32, i32)],
    start_cell: usize,
    entities: &[(usize, i32)],
) -> Option<Vec<u8>> {
    grid_map_with(cols, rows, cells, jitter, start_cell, entities, &[])
}

/// As [`grid_map`], plus solid things `(x, y, radius)` anywhere.
pub fn grid_map_with(
    cols: usize,
    rows: usize,
    cells: &[Option<(i32, i32)>],
    jitter: &[(i32, i32)],
    start_cell: usize,
    entities: &[(usize, i32)],
    obstacles: &[(i32, i32, i32)],
) -> Option<Vec<u8>> {
    grid_map_with_movers(
        cols,
        rows,
        cells,
        jitter,
        start_cell,
        entities,
        obstacles,
        &[],
    )
}

/// As [`grid_map_with`], plus movers `(cell, action, tag)`: the cell's
/// sector gets `tag`, and the wall along the cell's south edge a
/// repeatable use special with `action` (a [`wall_action`]) on that tag
/// (set it off with `Game::set_off`; the specials are in wall order).
///
/// [`wall_action`]: engine::format::wall_action
/// Movers on solid cells, or a second one on a cell, are left out.
#[allow(clippy::too_many_arguments)]
pub fn grid_map_with_movers(
    cols: usize,
    rows: usize,
    cells: &[Option<(i32, i32)>],
    jitter: &[(i32, i32)],
    start_cell: usize,
    entities: &[(usize, i32)],
    obstacles: &[(i32, i32, i32)],
    movers: &[(usize, u8, u16)],
) -> Option<Vec<u8>> {
    let mut map = SourceMap::default();
    let vid = |c: usize, r: usize| r * (cols + 1) + c;
    let mut pts = Vec::new();
    for r in 0..=rows {
        for c in 0..=cols {
            let interior = c > 0 && r > 0 && c < cols && r < rows;
            let (jx, jy) = if interior {
                jitter[vid(c, r) % jitter.len()]
            } else {
                (0, 0)
            };
            pts.push((
                c as i32 * 64 + jx.clamp(-16, 16),
                r as i32 * 64 + jy.clamp(-16, 16),
            ));
        }
    }
    map.vertices = pts.iter().map(|&(x, y)| Vec2::from_int(x, y)).collect();
    let centre = |cell: usize| {
        let (c, r) = (cell % cols, cell / cols);
        let corners = [vid(c, r), vid(c + 1, r), vid(c + 1, r + 1), vid(c, r + 1)];
        let sx: i32 = corners.iter().map(|&v| pts[v].0).sum();
        let sy: i32 = corners.iter().map(|&v| pts[v].1).sum();
        (sx / 4, sy / 4)
    };
    let mut sector_of_cell = vec![None; cols * rows];
    for (cell, spec) in cells.iter().enumerate().take(cols * rows) {
        let Some((floor, ceiling)) = *spec else {
            continue;
        };
        let (c, r) = (cell % cols, cell / cols);
        sector_of_cell[cell] = Some(map.sectors.len());
        map.sectors.push(SourceSector {
            floor: Fx::from_num(floor),
            ceiling: Fx::from_num(ceiling),
            light: 160 + (cell as u8 % 6) * 16,
            floor_color: (cell % 200) as u8 + 16,
            ceiling_color: 7,
            wall_color: 8,
            loops: vec![vec![
                vid(c, r),
                vid(c + 1, r),
                vid(c + 1, r + 1),
                vid(c, r + 1),
            ]],
            ..Default::default()
        });
    }
    sector_of_cell.get(start_cell).copied().flatten()?;
    let (sx, sy) = centre(start_cell);
    map.things.push(ThingRecord {
        x: Fx::from_num(sx),
        y: Fx::from_num(sy),
        kind: kind::PLAYER_START,
        ..Default::default()
    });
    for &(cell, radius) in entities {
        if sector_of_cell.get(cell).copied().flatten().is_none() {
            continue;
        }
        let (x, y) = centre(cell);
        map.things.push(ThingRecord {
            x: Fx::from_num(x),
            y: Fx::from_num(y),
            radius: Fx::from_num(radius),
            kind: kind::PUSHABLE,
            ..Default::default()
        });
    }
    for &(x, y, radius) in obstacles {
        map.things.push(ThingRecord {
            x: Fx::from_num(x),
            y: Fx::from_num(y),
            radius: Fx::from_num(radius),
            kind: kind::SOLID,
            ..Default::default()
        });
    }
    let mut moving = vec![false; cols * rows];
    for &(cell, action, tag) in movers {
        let Some(Some(sector)) = sector_of_cell.get(cell).copied() else {
            continue;
        };
        if std::mem::replace(&mut moving[cell], true) {
            continue;
        }
        map.sectors[sector].tag = tag;
        let (c, r) = (cell % cols, cell / cols);
        map.specials.push(SourceSpecial {
            v1: vid(c, r),
            v2: vid(c + 1, r),
            special: WallSpecialRecord {
                wall: 0,
                action,
                trigger: trigger::USE | trigger::REPEAT,
                tag,
            },
        });
    }
    build(&map, BuildOptions { block_size: 64 })
        .ok()
        .map(|c| c.bytes)
}
