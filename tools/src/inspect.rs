//! Figures and a JSON dump of a compiled map, read back through the
//! engine's own [`MapView`], so they describe exactly what the engine
//! loads (and work for files compiled elsewhere).

use crate::build::BuildStats;
use engine::format::{kind, LoadError, MapView, NO_SECTOR};
use engine::math::Fx;
use serde_json::{json, Value};

/// Figures about a compiled map; fails if the engine would refuse it.
pub fn stats(bytes: &[u8]) -> Result<BuildStats, LoadError> {
    let view = MapView::new_checked(bytes)?;
    let bm = view.blockmap();
    let grid = *bm.grid();
    let walls = view.wall_count();
    Ok(BuildStats {
        vertices: view.vertex_count(),
        walls,
        portals: (0..walls)
            .filter(|&w| view.wall(w).back != NO_SECTOR)
            .count(),
        sectors: view.sector_count(),
        things: view.thing_count(),
        block_size: grid.block_size,
        block_cols: grid.cols,
        block_rows: grid.rows,
        max_walls_per_block: (0..grid.block_count())
            .map(|b| bm.block_len(b))
            .max()
            .unwrap_or(0),
        block_entries: bm.entry_count(),
        bytes: bytes.len(),
    })
}

/// A fixed-point value as a JSON number. 16.16 values are dyadic
/// fractions with at most 16 bits after the point, so the `f64` is exact
/// and prints as the shortest decimal that reads back to it.
fn num(v: Fx) -> Value {
    json!(v.to_num::<f64>())
}

/// The map as JSON, geometry in map units. The shape is an interface
/// (scripts and tests read it): add fields, never rename or remove them.
///
/// ```text
/// {"title", "vertices":[{"x","y"}], "walls":[{"v1","v2","front","back"}],
///  "sectors":[{"floor","ceiling","light","floor_color","ceiling_color",
///              "wall_color","walls":[..]}],
///  "things":[{"x","y","angle","radius","kind"}], "player_start":{"x","y","angle"},
///  "blockmap":{"origin_x","origin_y","block_size","cols","rows","entries"}}
/// ```
///
/// `back` is `null` for a one-sided wall; `kind` is `"player_start"`,
/// `"pushable"` or the raw number; `player_start` is `null` only for a map
/// the engine would refuse anyway.
pub fn to_json(view: &MapView<'_>) -> Value {
    let vertices: Vec<Value> = (0..view.vertex_count())
        .map(|i| {
            let v = view.vertex(i);
            json!({"x": num(v.x), "y": num(v.y)})
        })
        .collect();
    let walls: Vec<Value> = (0..view.wall_count())
        .map(|i| {
            let w = view.wall(i);
            let back = if w.back == NO_SECTOR {
                Value::Null
            } else {
                json!(w.back)
            };
            json!({"v1": w.v1, "v2": w.v2, "front": w.front, "back": back})
        })
        .collect();
    let sectors: Vec<Value> = (0..view.sector_count())
        .map(|i| {
            let s = view.sector(i);
            let walls: Vec<usize> = view.sector_walls(i).collect();
            json!({
                "floor": num(s.floor),
                "ceiling": num(s.ceiling),
                "light": s.light,
                "floor_color": s.floor_color,
                "ceiling_color": s.ceiling_color,
                "wall_color": s.wall_color,
                "walls": walls,
            })
        })
        .collect();
    let things: Vec<Value> = view
        .things()
        .map(|t| {
            let kind = match t.kind {
                kind::PLAYER_START => json!("player_start"),
                kind::PUSHABLE => json!("pushable"),
                k => json!(k),
            };
            json!({
                "x": num(t.x),
                "y": num(t.y),
                "angle": num(t.angle),
                "radius": num(t.radius),
                "kind": kind,
            })
        })
        .collect();
    let player_start = view.things().find(|t| t.kind == kind::PLAYER_START).map_or(
        Value::Null,
        |t| json!({"x": num(t.x), "y": num(t.y), "angle": num(t.angle)}),
    );
    let bm = view.blockmap();
    let g = bm.grid();
    json!({
        "title": view.title(),
        "vertices": vertices,
        "walls": walls,
        "sectors": sectors,
        "things": things,
        "player_start": player_start,
        "blockmap": {
            "origin_x": g.origin_x,
            "origin_y": g.origin_y,
            "block_size": g.block_size,
            "cols": g.cols,
            "rows": g.rows,
            "entries": bm.entry_count(),
        },
    })
}
