//! The node builder's BSP (`SEGS`, `SSECTORS`, `NODES`), carried into the
//! compiled map.
//!
//! A seg names a linedef, and linedefs become walls one for one, so it is
//! kept only when the importer kept every linedef, in order. Each seg is
//! then checked against its wall: it must lie on the wall's line (within
//! the node builder's rounding of split points to whole units), and its
//! direction says which side of the wall it is, whatever the WAD's side
//! field says (so a line the importer turned round stays right). The
//! tree's own rules (children numbered below their parents, depth) are
//! the engine loader's: [`crate::build::build_walls`] compiles the map
//! without the BSP, with a warning, if the loader refuses it.

use engine::format::{BspBox, BspNodeRecord, BspSegRecord, SubsectorRecord, VertexRecord};
use engine::math::{Fx, Vec2};

use crate::build::{BspRecords, SourceWall};
use crate::doom::{DoomBsp, Vertex};

/// How far (map units) a seg's ends may lie off its wall's line: DOOM's
/// node builders round the points where they split a line to whole units.
const OFF_LINE: f64 = 1.5;

/// `bsp` as the compiled format's records, for walls `walls` (with ends
/// in `points`) made from the WAD's linedefs, `linedefs` of them;
/// `vertices` are the WAD's, which the segs index. `Err` says why it
/// cannot be kept.
pub(super) fn convert(
    bsp: &DoomBsp,
    vertices: &[Vertex],
    linedefs: usize,
    walls: &[SourceWall],
    points: &[Vec2],
) -> Result<BspRecords, String> {
    if walls.len() != linedefs || walls.iter().enumerate().any(|(i, w)| w.origin != i) {
        return Err("some linedefs were dropped, so its segs name the wrong walls".into());
    }
    let fx = |v: f64| super::to_fx(v).ok_or_else(|| format!("a coordinate ({v}) is out of range"));
    let point = |i: usize| -> Result<VertexRecord, String> {
        let v = vertices
            .get(i)
            .ok_or_else(|| format!("a seg names vertex {i}, which does not exist"))?;
        Ok(VertexRecord {
            x: fx(v.x)?,
            y: fx(v.y)?,
        })
    };
    let mut segs = Vec::with_capacity(bsp.segs.len());
    for (i, s) in bsp.segs.iter().enumerate() {
        let wall = walls
            .get(s.linedef)
            .ok_or_else(|| format!("seg {i} names linedef {}, which does not exist", s.linedef))?;
        let (from, to) = (point(s.v1)?, point(s.v2)?);
        let (a, b) = (points[wall.v1], points[wall.v2]);
        let f = |v: Fx| v.to_num::<f64>();
        let (wx, wy) = (f(b.x) - f(a.x), f(b.y) - f(a.y));
        let len = wx.hypot(wy);
        let off = |p: &VertexRecord| ((f(p.x) - f(a.x)) * wy - (f(p.y) - f(a.y)) * wx).abs() / len;
        if len == 0.0 || off(&from) > OFF_LINE || off(&to) > OFF_LINE {
            return Err(format!("seg {i} does not lie on linedef {}", s.linedef));
        }
        let back = (f(to.x) - f(from.x)) * wx + (f(to.y) - f(from.y)) * wy < 0.0;
        if back && wall.back.is_none() {
            return Err(format!(
                "seg {i} is the back of linedef {}, which has one side",
                s.linedef
            ));
        }
        segs.push(BspSegRecord {
            from,
            to,
            wall: i_u16(s.linedef)?,
            back,
        });
    }
    let mut subsectors = Vec::with_capacity(bsp.subsectors.len());
    for (i, &(count, first)) in bsp.subsectors.iter().enumerate() {
        let seg = (count > 0)
            .then(|| segs.get(first as usize))
            .flatten()
            .filter(|_| first as usize + count as usize <= segs.len())
            .ok_or_else(|| format!("subsector {i} names segs that do not exist"))?;
        let wall = &walls[seg.wall as usize];
        let sector = if seg.back {
            wall.back
        } else {
            Some(wall.front)
        };
        subsectors.push(SubsectorRecord {
            first_seg: first as u32,
            seg_count: count,
            sector: i_u16(sector.unwrap_or(0))?,
        });
    }
    let nodes = bsp
        .nodes
        .iter()
        .map(|n| {
            let c = |v: i16| Fx::from_num(v);
            let bbox = |b: [i16; 4]| BspBox {
                top: c(b[0]),
                bottom: c(b[1]),
                left: c(b[2]),
                right: c(b[3]),
            };
            BspNodeRecord {
                x: c(n.x),
                y: c(n.y),
                dx: c(n.dx),
                dy: c(n.dy),
                bbox: n.bbox.map(bbox),
                child: n.child,
            }
        })
        .collect::<Vec<_>>();
    Ok(BspRecords {
        nodes,
        segs,
        subsectors,
    })
}

/// An index as the format's `u16`.
fn i_u16(i: usize) -> Result<u16, String> {
    u16::try_from(i).map_err(|_| format!("index {i} does not fit the format"))
}
