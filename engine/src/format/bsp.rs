//! The BSP of a compiled map: DOOM's nodes, segs and subsectors,
//! validated once and read in place (see the format's essay in
//! [`super`]).

use super::bytes::{i32_at, u16_at, u32_at};
use super::error::BspFault;
use super::view::{in_range, record, too_many, whole_records};
use super::{
    size, tag, BspBox, BspNodeRecord, BspSegRecord, LoadError, MapView, SubsectorRecord,
    VertexRecord, NO_SECTOR, SUBSECTOR_CHILD,
};
use crate::config;
use crate::math::Fx;

/// A map's BSP: every index it holds is in range, the tree has no cycles
/// and no node is shared, and it is at most
/// [`config::MAX_BSP_DEPTH`] deep. Accessors return a zeroed record for
/// an index out of range instead of panicking.
#[derive(Copy, Clone, Debug, Default)]
pub struct BspView<'a> {
    nodes: &'a [u8],
    segs: &'a [u8],
    subsectors: &'a [u8],
}

impl<'a> BspView<'a> {
    /// The BSP of three section bodies (all three required), checked against the
    /// rest of `map` (its walls and sectors already checked).
    pub(super) fn parse(
        nodes: Option<&'a [u8]>,
        segs: Option<&'a [u8]>,
        subsectors: Option<&'a [u8]>,
        map: &MapView<'_>,
    ) -> Result<BspView<'a>, LoadError> {
        let (nodes, segs, subsectors) = match (nodes, segs, subsectors) {
            (Some(n), Some(s), Some(u)) => (n, s, u),
            (None, _, _) => return Err(LoadError::MissingSection(tag::BSP_NODES)),
            (_, None, _) => return Err(LoadError::MissingSection(tag::BSP_SEGS)),
            (_, _, None) => return Err(LoadError::MissingSection(tag::BSP_SUBSECTORS)),
        };
        let view = BspView {
            nodes: whole_records(nodes, tag::BSP_NODES, size::BSP_NODE)?,
            segs: whole_records(segs, tag::BSP_SEGS, size::BSP_SEG)?,
            subsectors: whole_records(subsectors, tag::BSP_SUBSECTORS, size::BSP_SUBSECTOR)?,
        };
        too_many("BSP nodes", view.node_count(), config::MAX_BSP_NODES)?;
        too_many("BSP segs", view.seg_count(), config::MAX_BSP_SEGS)?;
        too_many(
            "subsectors",
            view.subsector_count(),
            config::MAX_BSP_SUBSECTORS,
        )?;
        if view.subsector_count() == 0 {
            return Err(LoadError::BadBsp(BspFault::Empty));
        }
        view.check_segs(map)?;
        view.check_subsectors(map)?;
        view.check_nodes()?;
        Ok(view)
    }

    fn check_segs(&self, map: &MapView<'_>) -> Result<(), LoadError> {
        let walls = map.wall_count();
        for i in 0..self.seg_count() {
            let d = self.seg_bytes(i);
            let s = self.seg(i);
            if s.wall as usize >= walls {
                return Err(LoadError::IndexOutOfRange {
                    what: "BSP seg",
                    index: i,
                    value: s.wall as u32,
                });
            }
            let side = u16_at(d, 18);
            if side > 1 || (side == 1 && map.wall(s.wall as usize).back == NO_SECTOR) {
                return Err(LoadError::BadBsp(BspFault::BadSide { seg: i }));
            }
            if ![s.from.x, s.from.y, s.to.x, s.to.y]
                .into_iter()
                .all(in_range)
            {
                return Err(LoadError::ValueOutOfRange {
                    what: "BSP seg",
                    index: i,
                });
            }
        }
        Ok(())
    }

    fn check_subsectors(&self, map: &MapView<'_>) -> Result<(), LoadError> {
        let segs = self.seg_count();
        for i in 0..self.subsector_count() {
            let s = self.subsector(i);
            let end = (s.first_seg as usize).checked_add(s.seg_count as usize);
            if s.seg_count == 0 {
                return Err(LoadError::BadBsp(BspFault::Empty));
            }
            if end.is_none_or(|e| e > segs) {
                return Err(LoadError::IndexOutOfRange {
                    what: "subsector",
                    index: i,
                    value: s.first_seg,
                });
            }
            if s.sector as usize >= map.sector_count() {
                return Err(LoadError::IndexOutOfRange {
                    what: "subsector",
                    index: i,
                    value: s.sector as u32,
                });
            }
        }
        Ok(())
    }

    /// Children numbered below their parents and named once, every
    /// subsector child in range, and the depth bounded. The first two make
    /// the nodes a forest with no cycles (a bit a node, 4 KiB at most,
    /// says which are named); the depth is then found by walking the tree
    /// from the root with one pending node a level, as a renderer walks
    /// it, so that walk's stack is known to fit.
    fn check_nodes(&self) -> Result<(), LoadError> {
        let mut named = [0u32; config::MAX_BSP_NODES.div_ceil(32)];
        let subsectors = self.subsector_count();
        for i in 0..self.node_count() {
            let n = self.node(i);
            let coords = [n.x, n.y, n.dx, n.dy].into_iter().chain(
                n.bbox
                    .iter()
                    .flat_map(|b| [b.top, b.bottom, b.left, b.right]),
            );
            if !coords.into_iter().all(in_range) {
                return Err(LoadError::ValueOutOfRange {
                    what: "BSP node",
                    index: i,
                });
            }
            for c in n.child {
                if c & SUBSECTOR_CHILD != 0 {
                    let s = (c & !SUBSECTOR_CHILD) as usize;
                    if s >= subsectors {
                        return Err(LoadError::IndexOutOfRange {
                            what: "BSP node",
                            index: i,
                            value: s as u32,
                        });
                    }
                    continue;
                }
                let c = c as usize;
                let (word, bit) = (c / 32, 1u32 << (c % 32));
                let Some(w) = named.get_mut(word).filter(|_| c < i) else {
                    return Err(LoadError::BadBsp(BspFault::ChildOrder { node: i }));
                };
                if *w & bit != 0 {
                    return Err(LoadError::BadBsp(BspFault::SharedChild { node: c }));
                }
                *w |= bit;
            }
        }
        if self.node_count() == 0 {
            return Ok(());
        }
        // Each entry: a node to visit and its depth (the root's is 1).
        let mut pending = [(0u16, 0u8); config::MAX_BSP_DEPTH + 1];
        let mut len = 0;
        fn push(
            pending: &mut [(u16, u8)],
            len: &mut usize,
            node: u16,
            depth: usize,
        ) -> Result<(), LoadError> {
            let too_deep = LoadError::BadBsp(BspFault::TooDeep {
                node: node as usize,
            });
            let slot = pending
                .get_mut(*len)
                .filter(|_| depth <= config::MAX_BSP_DEPTH)
                .ok_or(too_deep)?;
            *slot = (node, depth as u8);
            *len += 1;
            Ok(())
        }
        push(&mut pending, &mut len, self.root(), 1)?;
        while let Some(&(node, depth)) = len.checked_sub(1).and_then(|k| pending.get(k)) {
            len -= 1;
            for c in self.node(node as usize).child {
                if c & SUBSECTOR_CHILD == 0 {
                    push(&mut pending, &mut len, c, depth as usize + 1)?;
                }
            }
        }
        Ok(())
    }

    /// Number of nodes (0: the map is subsector 0 alone).
    pub fn node_count(&self) -> usize {
        self.nodes.len() / size::BSP_NODE
    }

    /// Number of segs.
    pub fn seg_count(&self) -> usize {
        self.segs.len() / size::BSP_SEG
    }

    /// Number of subsectors.
    pub fn subsector_count(&self) -> usize {
        self.subsectors.len() / size::BSP_SUBSECTOR
    }

    /// The node a walk starts from: the last node, or with no nodes
    /// subsector 0 (as a child, [`SUBSECTOR_CHILD`] set).
    pub fn root(&self) -> u16 {
        match self.node_count() {
            0 => SUBSECTOR_CHILD,
            n => (n - 1) as u16,
        }
    }

    /// Node `i`.
    pub fn node(&self, i: usize) -> BspNodeRecord {
        let d = record(self.nodes, i).unwrap_or(&[0; size::BSP_NODE]);
        let fx = |o: usize| Fx::from_bits(i32_at(d, o));
        let bbox = |o: usize| BspBox {
            top: fx(o),
            bottom: fx(o + 4),
            left: fx(o + 8),
            right: fx(o + 12),
        };
        BspNodeRecord {
            x: fx(0),
            y: fx(4),
            dx: fx(8),
            dy: fx(12),
            bbox: [bbox(16), bbox(32)],
            child: [u16_at(d, 48), u16_at(d, 50)],
        }
    }

    fn seg_bytes(&self, i: usize) -> &'a [u8; size::BSP_SEG] {
        record(self.segs, i).unwrap_or(&[0; size::BSP_SEG])
    }

    /// Seg `i`.
    pub fn seg(&self, i: usize) -> BspSegRecord {
        let d = self.seg_bytes(i);
        let fx = |o: usize| Fx::from_bits(i32_at(d, o));
        BspSegRecord {
            from: VertexRecord { x: fx(0), y: fx(4) },
            to: VertexRecord {
                x: fx(8),
                y: fx(12),
            },
            wall: u16_at(d, 16),
            back: u16_at(d, 18) == 1,
        }
    }

    /// Subsector `i`.
    pub fn subsector(&self, i: usize) -> SubsectorRecord {
        let d = record(self.subsectors, i).unwrap_or(&[0; size::BSP_SUBSECTOR]);
        SubsectorRecord {
            first_seg: u32_at(d, 0),
            seg_count: u16_at(d, 4),
            sector: u16_at(d, 6),
        }
    }
}
