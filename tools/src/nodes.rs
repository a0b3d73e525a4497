//! A node builder: the BSP of a level that has none (our text maps), in
//! the compiled format's records (see [`engine::format::BspView`]).
//!
//! Every side of a wall that faces a sector is a seg (a portal gives two,
//! one a side). A set of segs that all lie on or in front of each other's
//! lines bounds a convex region: a subsector. Otherwise a partition line
//! is chosen among the segs' own lines, the one that splits fewest segs
//! and best balances the two sides (over at most 32 lines,
//! spread over the set), and each side is built in turn. Sides follow
//! DOOM's rule: the right of the line (`cross < 0` below) is the front,
//! child 0; a seg on the line goes with its direction.
//!
//! Side tests are exact (`i128` over 16.16 coordinates); a split point is
//! rounded to 16.16. Nodes are written after their children, so each
//! node's children are numbered below it and the root is the last, as
//! the loader requires. A level too tangled to split within
//! [`engine::config::MAX_BSP_DEPTH`] gets no BSP (an error the caller turns
//! into a warning).

use engine::config;
use engine::format::{
    BspBox, BspNodeRecord, BspSegRecord, SubsectorRecord, VertexRecord, WallRecord, NO_SECTOR,
    SUBSECTOR_CHILD,
};
use engine::math::{Fx, Vec2};

use crate::build::BspRecords;

/// Most partition lines tried at each node.
const CANDIDATES: usize = 32;
/// How far (16.16 units, here 1/16384 of a map unit) a point may lie off
/// a line and still count as on it.
const ON_LINE: f64 = 4.0;
/// A split costs this many segs of imbalance.
const SPLIT_COST: i64 = 8;
/// Most side tests spent proving one piece convex (a fraction of a second).
const MAX_SIDE_TESTS: usize = 50_000_000;

/// A seg while building: its ends in 16.16 bits, its wall and side, and
/// the sector it faces.
#[derive(Copy, Clone, Debug)]
struct Seg {
    a: (i64, i64),
    b: (i64, i64),
    wall: u16,
    back: bool,
    sector: u16,
}

impl Seg {
    fn dir(&self) -> (i64, i64) {
        (self.b.0 - self.a.0, self.b.1 - self.a.1)
    }
}

/// Which side of the line through `s` (in its direction) point `p` is
/// on: negative on the right (front), positive on the left, 0 on it.
fn side(s: &Seg, p: (i64, i64)) -> i128 {
    let (dx, dy) = s.dir();
    dx as i128 * (p.1 - s.a.1) as i128 - dy as i128 * (p.0 - s.a.0) as i128
}

/// Where `seg` goes against partition `p`.
enum Split {
    Front,
    Back,
    /// Cut at this point: the piece from `a` is on the front when `true`.
    Cut((i64, i64), bool),
}

fn classify(p: &Seg, seg: &Seg) -> Split {
    // A point within ON_LINE of the line counts as on it: split points are
    // rounded, and without this a piece whose rounded end lies a hair
    // behind its partition would be shaved again at every level below.
    let (dx, dy) = p.dir();
    let tolerance = ON_LINE * (dx as f64).hypot(dy as f64);
    let snap = |side: i128| {
        if (side as f64).abs() <= tolerance {
            0
        } else {
            side
        }
    };
    let (sa, sb) = (snap(side(p, seg.a)), snap(side(p, seg.b)));
    if sa <= 0 && sb <= 0 {
        if sa == 0 && sb == 0 {
            // On the line: with its direction.
            let (pd, sd) = (p.dir(), seg.dir());
            let dot = pd.0 as i128 * sd.0 as i128 + pd.1 as i128 * sd.1 as i128;
            return if dot > 0 { Split::Front } else { Split::Back };
        }
        return Split::Front;
    }
    if sa >= 0 && sb >= 0 {
        return Split::Back;
    }
    // Strictly on both sides: the crossing, rounded to 16.16.
    let t_num = sa;
    let t_den = sa - sb;
    let lerp = |a: i64, b: i64| a + ((b - a) as i128 * t_num / t_den) as i64;
    let cut = (lerp(seg.a.0, seg.b.0), lerp(seg.a.1, seg.b.1));
    if cut == seg.a || cut == seg.b {
        // Too short to cut at this precision: it goes where its other
        // end is.
        let other = if cut == seg.a { sb } else { sa };
        return if other < 0 { Split::Front } else { Split::Back };
    }
    Split::Cut(cut, sa < 0)
}

/// The BSP of a level's walls (`vertices` indexed by the walls), or why
/// it cannot be built.
pub fn build(vertices: &[Vec2], walls: &[WallRecord]) -> Result<BspRecords, String> {
    let bits = |v: Vec2| (v.x.to_bits() as i64, v.y.to_bits() as i64);
    let mut segs = Vec::with_capacity(walls.len() * 2);
    for (i, w) in walls.iter().enumerate() {
        let (a, b) = (bits(vertices[w.v1 as usize]), bits(vertices[w.v2 as usize]));
        let wall = u16::try_from(i).map_err(|_| "too many walls for a BSP".to_string())?;
        segs.push(Seg {
            a,
            b,
            wall,
            back: false,
            sector: w.front,
        });
        if w.back != NO_SECTOR {
            segs.push(Seg {
                a: b,
                b: a,
                wall,
                back: true,
                sector: w.back,
            });
        }
    }
    if segs.is_empty() {
        return Err("the level has no walls".into());
    }
    let mut out = BspRecords::default();
    let root = node(segs, 1, &mut out)?;
    // With no nodes the root is subsector 0, as the loader expects.
    debug_assert!(out.nodes.is_empty() == (root & SUBSECTOR_CHILD != 0));
    Ok(out)
}

/// Builds the subtree of `segs` at `depth`; returns the child that names
/// it.
fn node(segs: Vec<Seg>, depth: usize, out: &mut BspRecords) -> Result<u16, String> {
    if depth > config::MAX_BSP_DEPTH {
        return Err(format!(
            "it would be deeper than {} nodes",
            config::MAX_BSP_DEPTH
        ));
    }
    let Some(p) = choose(&segs)? else {
        return subsector(segs, out);
    };
    let (mut front, mut back) = (Vec::new(), Vec::new());
    for s in segs {
        match classify(&p, &s) {
            Split::Front => front.push(s),
            Split::Back => back.push(s),
            Split::Cut(at, first_in_front) => {
                let (first, second) = (Seg { b: at, ..s }, Seg { a: at, ..s });
                let (f, k) = if first_in_front {
                    (first, second)
                } else {
                    (second, first)
                };
                front.push(f);
                back.push(k);
            }
        }
    }
    let boxes = [bbox(&front), bbox(&back)];
    let right = node(front, depth + 1, out)?;
    let left = node(back, depth + 1, out)?;
    let fx = |v: i64| Fx::from_bits(v as i32);
    let (dx, dy) = p.dir();
    out.nodes.push(BspNodeRecord {
        x: fx(p.a.0),
        y: fx(p.a.1),
        dx: fx(dx),
        dy: fx(dy),
        bbox: boxes,
        child: [right, left],
    });
    u16::try_from(out.nodes.len() - 1)
        .ok()
        .filter(|&n| (n as usize) < config::MAX_BSP_NODES)
        .ok_or_else(|| "it would have too many nodes".to_string())
}

/// The best partition among the segs' lines that leaves segs behind it;
/// `None` if there is none (the segs bound a convex region).
fn choose(segs: &[Seg]) -> Result<Option<Seg>, String> {
    // The cost of partition `p`, if it leaves anything behind it.
    let cost = |p: &Seg| {
        let (mut front, mut back, mut cuts) = (0i64, 0i64, 0i64);
        for s in segs {
            match classify(p, s) {
                Split::Front => front += 1,
                Split::Back => back += 1,
                Split::Cut(..) => cuts += 1,
            }
        }
        (back + cuts > 0).then_some(cuts * SPLIT_COST + (front - back).abs())
    };
    let step = segs.len().div_ceil(CANDIDATES).max(1);
    let best = segs
        .iter()
        .step_by(step)
        .filter_map(|p| cost(p).map(|c| (c, *p)))
        .min_by_key(|(c, _)| *c)
        .map(|(_, p)| p);
    if best.is_some() || step == 1 {
        return Ok(best);
    }
    // The sample saw a convex set: any line with segs behind it will do.
    // Proving a set convex takes a side test per pair, so a set too large
    // to prove within the budget gets no BSP rather than a slow compile.
    let mut budget = MAX_SIDE_TESTS;
    for p in segs {
        budget = budget
            .checked_sub(segs.len())
            .ok_or("a piece has too many segs to prove it convex")?;
        if cost(p).is_some() {
            return Ok(Some(*p));
        }
    }
    Ok(None)
}

fn subsector(segs: Vec<Seg>, out: &mut BspRecords) -> Result<u16, String> {
    let first = u32::try_from(out.segs.len()).map_err(|_| "too many segs".to_string())?;
    let count = u16::try_from(segs.len()).map_err(|_| "a subsector with too many segs")?;
    let sector = segs.first().map_or(0, |s| s.sector);
    let fx = |v: i64| Fx::from_bits(v as i32);
    for s in &segs {
        out.segs.push(BspSegRecord {
            from: VertexRecord {
                x: fx(s.a.0),
                y: fx(s.a.1),
            },
            to: VertexRecord {
                x: fx(s.b.0),
                y: fx(s.b.1),
            },
            wall: s.wall,
            back: s.back,
        });
    }
    out.subsectors.push(SubsectorRecord {
        first_seg: first,
        seg_count: count,
        sector,
    });
    let n = out.subsectors.len() - 1;
    if n >= config::MAX_BSP_SUBSECTORS || out.segs.len() > config::MAX_BSP_SEGS {
        return Err("it would have too many subsectors or segs".into());
    }
    Ok(SUBSECTOR_CHILD | n as u16)
}

/// The box around `segs` (empty: a zero box).
fn bbox(segs: &[Seg]) -> BspBox {
    let points = || segs.iter().flat_map(|s| [s.a, s.b]);
    let fx = |v: Option<i64>| Fx::from_bits(v.unwrap_or(0) as i32);
    BspBox {
        top: fx(points().map(|p| p.1).max()),
        bottom: fx(points().map(|p| p.1).min()),
        left: fx(points().map(|p| p.0).min()),
        right: fx(points().map(|p| p.0).max()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(v1: u16, v2: u16, front: u16, back: u16) -> WallRecord {
        WallRecord {
            v1,
            v2,
            front,
            back,
            ..WallRecord::default()
        }
    }

    /// Every subsector convex: each seg on or in front of every other
    /// seg's line in it.
    fn convex(bsp: &BspRecords) -> bool {
        bsp.subsectors.iter().all(|sub| {
            let segs = &bsp.segs[sub.first_seg as usize..][..sub.seg_count as usize];
            let s = |r: &BspSegRecord| Seg {
                a: (r.from.x.to_bits() as i64, r.from.y.to_bits() as i64),
                b: (r.to.x.to_bits() as i64, r.to.y.to_bits() as i64),
                wall: r.wall,
                back: r.back,
                sector: 0,
            };
            segs.iter().all(|p| {
                segs.iter()
                    .all(|q| matches!(classify(&s(p), &s(q)), Split::Front))
            })
        })
    }

    #[test]
    fn a_convex_room_of_many_walls_is_one_subsector() {
        // The parabola y = x^2 / 2 from x = 0 to 180, closed by its chord:
        // strictly convex, with more walls than the partitions sampled, so
        // convexity is proven line by line.
        let mut points: Vec<Vec2> = (0..=180).map(|x| Vec2::from_int(x, x * x / 2)).collect();
        points.reverse();
        let n = points.len() as u16;
        let walls: Vec<WallRecord> = (0..n).map(|i| wall(i, (i + 1) % n, 0, NO_SECTOR)).collect();
        let bsp = build(&points, &walls).unwrap();
        assert_eq!((bsp.nodes.len(), bsp.subsectors.len()), (0, 1));
        assert_eq!(bsp.segs.len(), walls.len());
    }

    #[test]
    fn a_convex_room_is_one_subsector_and_an_l_shaped_one_is_split() {
        let v = |x: i32, y: i32| Vec2::from_int(x, y);
        // A square, clockwise (inside on the right).
        let square = [v(0, 0), v(0, 64), v(64, 64), v(64, 0)];
        let walls: Vec<WallRecord> = (0..4).map(|i| wall(i, (i + 1) % 4, 0, NO_SECTOR)).collect();
        let bsp = build(&square, &walls).unwrap();
        assert_eq!((bsp.nodes.len(), bsp.subsectors.len()), (0, 1));
        // An L: not convex, so at least one node; every piece convex and
        // every wall's length covered once.
        let l = [
            v(0, 0),
            v(0, 128),
            v(64, 128),
            v(64, 64),
            v(128, 64),
            v(128, 0),
        ];
        let walls: Vec<WallRecord> = (0..6).map(|i| wall(i, (i + 1) % 6, 0, NO_SECTOR)).collect();
        let bsp = build(&l, &walls).unwrap();
        assert!(!bsp.nodes.is_empty());
        assert!(convex(&bsp));
        let length = |a: VertexRecord, b: VertexRecord| {
            let (dx, dy) = ((b.x - a.x).to_num::<f64>(), (b.y - a.y).to_num::<f64>());
            dx.hypot(dy)
        };
        for (i, w) in walls.iter().enumerate() {
            let whole = length(
                VertexRecord {
                    x: l[w.v1 as usize].x,
                    y: l[w.v1 as usize].y,
                },
                VertexRecord {
                    x: l[w.v2 as usize].x,
                    y: l[w.v2 as usize].y,
                },
            );
            let pieces: f64 = bsp
                .segs
                .iter()
                .filter(|s| s.wall as usize == i)
                .map(|s| length(s.from, s.to))
                .sum();
            assert!(
                (whole - pieces).abs() < 1e-3,
                "wall {i}: {whole} vs {pieces}"
            );
        }
    }
}
