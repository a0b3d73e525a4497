//! Figures and a JSON dump of a compiled map, read back through the
//! engine's own [`MapView`], so they describe exactly what the engine
//! loads (and work for files compiled elsewhere).

use crate::build::BuildStats;
use engine::format::{
    kind, tag, BspBox, LoadError, MapView, VertexRecord, DIR_ENTRY_LEN, HEADER_LEN, NONE,
    NO_SECTOR, SKY, SUBSECTOR_CHILD,
};
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
        texture_bytes: sections(bytes)
            .iter()
            .filter(|(t, _)| TEXTURE_TAGS.contains(t))
            .map(|(_, len)| len)
            .sum(),
        textures: view.texture_count(),
        bsp: {
            let b = view.bsp();
            (b.node_count(), b.seg_count(), b.subsector_count())
        },
    })
}

/// The sections that hold textures and their colours.
const TEXTURE_TAGS: [[u8; 4]; 6] = [
    tag::TEXTURES,
    tag::TEXTURE_PIXELS,
    tag::TEXTURE_NAMES,
    tag::PALETTE,
    tag::COLORMAP,
    tag::SKY,
];

/// Every section of a compiled map as (tag, length), from its directory
/// (see [`engine::format`] for the layout); empty if the header is cut
/// short. Call it on bytes the engine accepted.
pub fn sections(bytes: &[u8]) -> Vec<([u8; 4], usize)> {
    let be16 = |at: usize| {
        bytes
            .get(at..at + 2)
            .map(|b| u16::from_be_bytes([b[0], b[1]]))
    };
    let be32 = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let count = be16(6).unwrap_or(0) as usize;
    (0..count)
        .filter_map(|i| {
            let at = HEADER_LEN + i * DIR_ENTRY_LEN;
            let t = bytes.get(at..at + 4)?;
            Some(([t[0], t[1], t[2], t[3]], be32(at + 8)? as usize))
        })
        .collect()
}

/// An optional index: `null` for [`NONE`].
fn index(i: u16) -> Value {
    if i == NONE {
        Value::Null
    } else {
        json!(i)
    }
}

/// A sector texture: an index, `null` or `"sky"`.
fn surface(i: u16) -> Value {
    if i == SKY {
        json!("sky")
    } else {
        index(i)
    }
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
/// {"title", "vertices":[{"x","y"}],
///  "walls":[{"v1","v2","front","back","flags","front_side","back_side"}],
///  "sides":[{"x_offset","y_offset","upper","middle","lower"}],
///  "sectors":[{"floor","ceiling","light","floor_color","ceiling_color",
///              "wall_color","walls":[..],"floor_texture","ceiling_texture",
///              "tag","special"}],
///  "things":[{"x","y","angle","radius","kind","type","sprite",
///             "rotations":[{"texture","mirrored"}]}],
///  "player_start":{"x","y","angle"},
///  "specials":[{"wall","action","trigger","repeat","tag","back_sector","key"}],
///  "textures":[{"name","width","height","flags"}], "sky",
///  "blockmap":{"origin_x","origin_y","block_size","cols","rows","entries"},
///  "bsp":{"nodes":[{"x","y","dx","dy","right_box","left_box","right","left"}],
///         "segs":[{"from":{"x","y"},"to":{"x","y"},"wall","back"}],
///         "subsectors":[{"first_seg","seg_count","sector"}]}}
/// ```
///
/// `back` is `null` for a one-sided wall; a wall's `flags` are DOOM's
/// linedef flags (1, 8, 16) and the engine's scrolling bits
/// ([`engine::format::wall_flag::SCROLL_LEFT`], `SCROLL_RIGHT`); `kind` is `"player_start"`,
/// `"pushable"`, `"decoration"`, `"teleport_destination"`, a key
/// (`"blue_card"`, `"yellow_card"`, `"red_card"`, `"blue_skull"`,
/// `"yellow_skull"`, `"red_skull"`) or the raw number; a special's `key`
/// is the colour a locked one needs (`"blue"`, `"yellow"`, `"red"`),
/// else `null`; `player_start` is
/// `null` only for a map the engine would refuse anyway. Texture indices
/// (`front_side`/`back_side` into `sides`; `upper`, `middle`, `lower`,
/// `sprite`, `sky` and the sector textures into `textures`) are `null` for
/// none; a sector texture may also be `"sky"`. A thing's `rotations` are
/// `null` for a thing drawn with its `sprite` from every side, else the
/// eight textures of its rotations 1 to 8 (see
/// [`engine::format::RotationRecord`]), each with whether it is drawn
/// mirrored. `bsp` is `null` for a map
/// without one; a box is `[top, bottom, left, right]`, a child
/// `{"node": i}` or `{"subsector": i}`, the root the last node.
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
            json!({
                "v1": w.v1,
                "v2": w.v2,
                "front": w.front,
                "back": back,
                "flags": w.flags,
                "front_side": index(w.front_side),
                "back_side": index(w.back_side),
            })
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
                "floor_texture": surface(s.floor_texture),
                "ceiling_texture": surface(s.ceiling_texture),
                "tag": s.tag,
                "special": s.special,
            })
        })
        .collect();
    let things: Vec<Value> = view
        .things()
        .map(|t| {
            let kind = match t.kind {
                kind::PLAYER_START => json!("player_start"),
                kind::PUSHABLE => json!("pushable"),
                // A solid thing is a decoration that blocks: named so, and
                // told apart by "solid", so readers of "kind" keep working.
                kind::DECORATION | kind::SOLID => json!("decoration"),
                kind::TELEPORT_DESTINATION => json!("teleport_destination"),
                kind::BLUE_CARD => json!("blue_card"),
                kind::YELLOW_CARD => json!("yellow_card"),
                kind::RED_CARD => json!("red_card"),
                kind::BLUE_SKULL => json!("blue_skull"),
                kind::YELLOW_SKULL => json!("yellow_skull"),
                kind::RED_SKULL => json!("red_skull"),
                k => json!(k),
            };
            json!({
                "x": num(t.x),
                "y": num(t.y),
                "angle": num(t.angle),
                "radius": num(t.radius),
                "kind": kind,
                "type": t.type_id,
                "sprite": index(t.sprite),
                "solid": t.kind == kind::SOLID,
                "rotations": view.thing_rotations(t.rotations).map_or(Value::Null, |set| {
                    (0..8)
                        .map(|r| {
                            let (texture, mirrored) = set.rotation(r);
                            json!({"texture": texture, "mirrored": mirrored})
                        })
                        .collect::<Vec<Value>>()
                        .into()
                }),
            })
        })
        .collect();
    let player_start = view.things().find(|t| t.kind == kind::PLAYER_START).map_or(
        Value::Null,
        |t| json!({"x": num(t.x), "y": num(t.y), "angle": num(t.angle)}),
    );
    let sides: Vec<Value> = (0..view.side_count())
        .map(|i| {
            let s = view.side(i);
            json!({
                "x_offset": s.x_offset,
                "y_offset": s.y_offset,
                "upper": index(s.upper),
                "middle": index(s.middle),
                "lower": index(s.lower),
            })
        })
        .collect();
    let textures: Vec<Value> = (0..view.texture_count())
        .map(|i| {
            let t = view.texture_record(i);
            json!({
                "name": view.texture_name(i),
                "width": t.width,
                "height": t.height,
                "flags": t.flags,
            })
        })
        .collect();
    let bm = view.blockmap();
    let g = bm.grid();
    let bsp = {
        let b = view.bsp();
        let child = |c: u16| {
            if c & SUBSECTOR_CHILD != 0 {
                json!({"subsector": c & !SUBSECTOR_CHILD})
            } else {
                json!({"node": c})
            }
        };
        let bbox = |b: &BspBox| json!([num(b.top), num(b.bottom), num(b.left), num(b.right)]);
        let point = |v: &VertexRecord| json!({"x": num(v.x), "y": num(v.y)});
        let nodes: Vec<Value> = (0..b.node_count())
            .map(|i| {
                let n = b.node(i);
                json!({
                    "x": num(n.x),
                    "y": num(n.y),
                    "dx": num(n.dx),
                    "dy": num(n.dy),
                    "right_box": bbox(&n.bbox[0]),
                    "left_box": bbox(&n.bbox[1]),
                    "right": child(n.child[0]),
                    "left": child(n.child[1]),
                })
            })
            .collect();
        let segs: Vec<Value> = (0..b.seg_count())
            .map(|i| {
                let s = b.seg(i);
                json!({"from": point(&s.from), "to": point(&s.to), "wall": s.wall, "back": s.back})
            })
            .collect();
        let subsectors: Vec<Value> = (0..b.subsector_count())
            .map(|i| {
                let s = b.subsector(i);
                json!({"first_seg": s.first_seg, "seg_count": s.seg_count, "sector": s.sector})
            })
            .collect();
        json!({"nodes": nodes, "segs": segs, "subsectors": subsectors})
    };
    // A wall's special: `action` by name ("exit", "door_raise", "lift",
    // ...), `trigger` "use" or "walk", `back_sector` when it moves the
    // sector behind the wall rather than the tagged ones.
    let specials: Vec<Value> = (0..view.wall_special_count())
        .map(|k| {
            use engine::format::wall_action as act;
            let s = view.wall_special_at(k);
            let action = match s.action & !act::BACK_SECTOR {
                act::EXIT => json!("exit"),
                act::SECRET_EXIT => json!("secret_exit"),
                act::DOOR_RAISE => json!("door_raise"),
                act::DOOR_OPEN => json!("door_open"),
                act::DOOR_CLOSE => json!("door_close"),
                act::DOOR_CLOSE_WAIT_OPEN => json!("door_close_wait_open"),
                act::DOOR_FAST_RAISE => json!("door_fast_raise"),
                act::DOOR_FAST_OPEN => json!("door_fast_open"),
                act::DOOR_FAST_CLOSE => json!("door_fast_close"),
                act::LIFT => json!("lift"),
                act::LIFT_FAST => json!("lift_fast"),
                act::TELEPORT => json!("teleport"),
                a @ act::BOOM_DOOR..=act::BOOM_DOOR_LAST => {
                    let kinds = ["raise", "open", "close_wait_open", "close"];
                    json!(format!("boom_door_{}", kinds[act::boom_fields(a).0]))
                }
                act::BOOM_LIFT..=act::BOOM_LIFT_LAST => json!("boom_lift"),
                a => match crate::text::mover_action_name(a) {
                    Some(name) => json!(name),
                    None => json!(a),
                },
            };
            let on_use = s.trigger & engine::format::trigger::USE != 0;
            let mut out = json!({
                "wall": s.wall,
                "action": action,
                "trigger": if on_use { "use" } else { "walk" },
                "repeat": s.trigger & engine::format::trigger::REPEAT != 0,
                "tag": s.tag,
                "back_sector": s.action & act::BACK_SECTOR != 0,
                "key": engine::specials::KeyColour::of_lock(engine::format::trigger::lock(s.trigger))
                    .map(|c| c.name()),
            });
            // Boom's generalised doors and lifts carry their speed (units
            // a tick) and wait (ticks).
            let a = s.action & !act::BACK_SECTOR;
            let timing = match a {
                act::BOOM_DOOR..=act::BOOM_DOOR_LAST => Some(engine::specials::door::BOOM_WAITS),
                act::BOOM_LIFT..=act::BOOM_LIFT_LAST => Some(engine::specials::lift::BOOM_WAITS),
                _ => None,
            };
            if let Some(waits) = timing {
                let (_, speed, delay) = act::boom_fields(a);
                let speed = engine::specials::door::BOOM_SPEEDS[speed];
                out["speed"] = json!(speed.to_num::<f64>());
                out["wait"] = json!(waits[delay]);
            }
            out
        })
        .collect();
    json!({
        "title": view.title(),
        "vertices": vertices,
        "walls": walls,
        "sides": sides,
        "sectors": sectors,
        "things": things,
        "player_start": player_start,
        "specials": specials,
        "textures": textures,
        "sky": view.sky().map_or(Value::Null, |s| json!(s)),
        "blockmap": {
            "origin_x": g.origin_x,
            "origin_y": g.origin_y,
            "block_size": g.block_size,
            "cols": g.cols,
            "rows": g.rows,
            "entries": bm.entry_count(),
        },
        "bsp": bsp,
    })
}
