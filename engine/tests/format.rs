//! The compiled format: emit/read round trips, and one test per load error.

use engine::format::bytes::u32_at;
use engine::format::{
    kind, trigger, wall_action, BlockmapRepr, BspBox, BspFault, BspNodeRecord, BspRepr,
    BspSegRecord, LoadError, MapRepr, MapView, RotationRecord, SectorRecord, SideRecord,
    SubsectorRecord, SwitchRecord, TextureRecord, ThingRecord, VertexRecord, WallRecord,
    WallSpecialRecord, DIR_ENTRY_LEN, HEADER_LEN, MIRRORED, NONE, NO_SECTOR, SUBSECTOR_CHILD,
};
use engine::math::{Fx, Vec2};
use engine::world::blockmap::{for_each_block_touching_segment, Grid};

/// A square room with one portal to a second room, built by hand.
struct Owned {
    vertices: Vec<VertexRecord>,
    walls: Vec<WallRecord>,
    sectors: Vec<SectorRecord>,
    sector_walls: Vec<u16>,
    things: Vec<ThingRecord>,
    rotations: Vec<RotationRecord>,
    specials: Vec<WallSpecialRecord>,
    switches: Vec<SwitchRecord>,
    grid: Grid,
    offsets: Vec<u32>,
    entries: Vec<u16>,
    sides: Vec<SideRecord>,
    textures: Vec<TextureRecord>,
    pixels: Vec<u8>,
    palette: Option<[u8; 768]>,
    sky: Option<u16>,
    bsp: Bsp,
}

/// A BSP as plain records.
#[derive(Clone)]
struct Bsp {
    nodes: Vec<BspNodeRecord>,
    segs: Vec<BspSegRecord>,
    subsectors: Vec<SubsectorRecord>,
}

/// The two rooms' BSP: one node on the portal's line (x = 128, pointing
/// north, so room B on its right), a subsector a room.
fn two_room_bsp() -> Bsp {
    let seg = |a: (i32, i32), b: (i32, i32), wall: u16, back: bool| BspSegRecord {
        from: v(a.0, a.1),
        to: v(b.0, b.1),
        wall,
        back,
    };
    let bbox = |left: i32, right: i32| BspBox {
        top: Fx::from_num(128),
        bottom: Fx::ZERO,
        left: Fx::from_num(left),
        right: Fx::from_num(right),
    };
    Bsp {
        nodes: vec![BspNodeRecord {
            x: Fx::from_num(128),
            y: Fx::ZERO,
            dx: Fx::ZERO,
            dy: Fx::from_num(128),
            bbox: [bbox(128, 256), bbox(0, 128)],
            child: [SUBSECTOR_CHILD | 1, SUBSECTOR_CHILD],
        }],
        segs: vec![
            seg((0, 0), (0, 128), 0, false),
            seg((0, 128), (128, 128), 1, false),
            seg((128, 128), (128, 0), 2, false),
            seg((128, 0), (0, 0), 3, false),
            seg((128, 0), (128, 128), 2, true),
            seg((128, 0), (256, 0), 4, false),
            seg((256, 0), (256, 128), 5, false),
            seg((256, 128), (128, 128), 6, false),
        ],
        subsectors: vec![
            SubsectorRecord {
                first_seg: 0,
                seg_count: 4,
                sector: 0,
            },
            SubsectorRecord {
                first_seg: 4,
                seg_count: 4,
                sector: 1,
            },
        ],
    }
}

fn v(x: i32, y: i32) -> VertexRecord {
    VertexRecord {
        x: Fx::from_num(x),
        y: Fx::from_num(y),
    }
}

fn wall(v1: u16, v2: u16, front: u16, back: u16) -> WallRecord {
    WallRecord {
        v1,
        v2,
        front,
        back,
        flags: 0,
        front_side: NONE,
        back_side: NONE,
        length: Fx::from_num(128),
    }
}

impl Owned {
    fn new() -> Owned {
        // 0-1-2-3 room A (0..128), 1-4-5-2 room B (128..256); clockwise
        // loops so each room is on the right of its walls.
        let vertices = vec![
            v(0, 0),
            v(128, 0),
            v(128, 128),
            v(0, 128),
            v(256, 0),
            v(256, 128),
        ];
        let walls = vec![
            wall(0, 3, 0, NO_SECTOR),
            wall(3, 2, 0, NO_SECTOR),
            wall(2, 1, 0, 1),
            wall(1, 0, 0, NO_SECTOR),
            wall(1, 4, 1, NO_SECTOR),
            wall(4, 5, 1, NO_SECTOR),
            wall(5, 2, 1, NO_SECTOR),
        ];
        let sector = |floor: i32, first: u32, count: u32| SectorRecord {
            floor: Fx::from_num(floor),
            ceiling: Fx::from_num(128),
            light: 200,
            floor_color: 1,
            ceiling_color: 2,
            wall_color: 3,
            first_wall: first,
            wall_count: count,
            floor_texture: NONE,
            ceiling_texture: NONE,
            tag: 0,
            special: 0,
        };
        let sectors = vec![sector(0, 0, 4), sector(16, 4, 4)];
        let sector_walls = vec![0, 1, 2, 3, 2, 4, 5, 6];
        let things = vec![
            ThingRecord {
                x: Fx::from_num(64),
                y: Fx::from_num(64),
                angle: Fx::from_num(90),
                kind: kind::PLAYER_START,
                ..Default::default()
            },
            ThingRecord {
                x: Fx::from_num(200),
                y: Fx::from_num(64),
                radius: Fx::from_num(20),
                kind: kind::PUSHABLE,
                ..Default::default()
            },
        ];
        let grid = Grid {
            origin_x: -8,
            origin_y: -8,
            block_size: 64,
            cols: 5,
            rows: 3,
        };
        let mut o = Owned {
            vertices,
            walls,
            sectors,
            sector_walls,
            things,
            rotations: vec![],
            specials: vec![],
            switches: vec![],
            grid,
            offsets: vec![],
            entries: vec![],
            sides: vec![SideRecord {
                middle: 0,
                ..Default::default()
            }],
            textures: vec![TextureRecord {
                width: 2,
                height: 3,
                offset: 1,
                ..Default::default()
            }],
            pixels: vec![9, 1, 2, 3, 4, 5, 6],
            palette: None,
            sky: None,
            bsp: two_room_bsp(),
        };
        o.walls[0].front_side = 0;
        o.rebuild_blockmap();
        o
    }

    fn rebuild_blockmap(&mut self) {
        let mut lists = vec![Vec::new(); self.grid.block_count()];
        for (i, w) in self.walls.iter().enumerate() {
            let p = |k: u16| {
                let r = self.vertices[k as usize];
                Vec2::new(r.x, r.y)
            };
            for_each_block_touching_segment(&self.grid, p(w.v1), p(w.v2), |b| {
                lists[b].push(i as u16)
            });
        }
        self.offsets = vec![0];
        self.entries.clear();
        for l in lists {
            self.entries.extend(l);
            self.offsets.push(self.entries.len() as u32);
        }
    }

    fn bytes(&self) -> Vec<u8> {
        let repr = MapRepr {
            title: "two rooms",
            vertices: &self.vertices,
            walls: &self.walls,
            sectors: &self.sectors,
            sector_walls: &self.sector_walls,
            things: &self.things,
            rotations: &self.rotations,
            wall_specials: &self.specials,
            switches: &self.switches,
            blockmap: BlockmapRepr {
                origin_x: self.grid.origin_x,
                origin_y: self.grid.origin_y,
                block_size: self.grid.block_size,
                cols: self.grid.cols,
                rows: self.grid.rows,
                offsets: &self.offsets,
                entries: &self.entries,
            },
            sides: &self.sides,
            textures: &self.textures,
            texture_pixels: &self.pixels,
            palette: self.palette.as_ref(),
            sky: self.sky,
            bsp: BspRepr {
                nodes: &self.bsp.nodes,
                segs: &self.bsp.segs,
                subsectors: &self.bsp.subsectors,
            },
            ..Default::default()
        };
        let mut buf = vec![0; repr.buffer_len()];
        let n = repr.emit(&mut buf).unwrap();
        assert_eq!(n, buf.len());
        buf
    }
}

fn load(bytes: &[u8]) -> Result<(), LoadError> {
    MapView::new_checked(bytes).map(|_| ())
}

/// Offset of the section with tag `t` in a file we emitted.
fn section(bytes: &[u8], t: &[u8; 4]) -> (usize, usize) {
    let at = directory_entry(bytes, t).expect("no section");
    (
        u32_at(bytes, at + 4) as usize,
        u32_at(bytes, at + 8) as usize,
    )
}

/// Where the directory entry of the section tagged `t` is, if any.
fn directory_entry(bytes: &[u8], t: &[u8; 4]) -> Option<usize> {
    let count = u16::from_be_bytes([bytes[6], bytes[7]]) as usize;
    (0..count)
        .map(|i| HEADER_LEN + i * DIR_ENTRY_LEN)
        .find(|&at| &bytes[at..at + 4] == t)
}

#[test]
fn round_trip_reads_back_every_record() {
    let o = Owned::new();
    let bytes = o.bytes();
    let view = MapView::new_checked(&bytes).unwrap();
    assert_eq!(view.title(), "two rooms");
    assert_eq!(view.vertex_count(), o.vertices.len());
    for (i, r) in o.vertices.iter().enumerate() {
        assert_eq!(view.vertex(i), *r);
    }
    for (i, r) in o.walls.iter().enumerate() {
        assert_eq!(view.wall(i), *r);
    }
    for (i, r) in o.sectors.iter().enumerate() {
        assert_eq!(view.sector(i), *r);
    }
    for (i, r) in o.things.iter().enumerate() {
        assert_eq!(view.thing(i), *r);
    }
    // The iterator reads the same records.
    assert_eq!(view.things().collect::<Vec<_>>(), o.things);
    assert_eq!(view.thing(usize::MAX), ThingRecord::default());
    assert_eq!(view.sector_walls(1).collect::<Vec<_>>(), [2, 4, 5, 6]);
    assert_eq!(view.blockmap().entry_count(), o.entries.len());
    // Out-of-range accessors return zeroes instead of panicking.
    let nothing = view.wall(9999);
    assert_eq!((nothing.v1, nothing.v2, nothing.length), (0, 0, Fx::ZERO));
    assert_eq!(view.sector(usize::MAX).wall_count, 0);
    assert!(view.texture(1).is_none() && view.texture(NONE).is_none());
    assert_eq!(view.blockmap().block_walls(usize::MAX).count(), 0);
}

#[test]
fn the_byte_order_is_big_endian() {
    let bytes = Owned::new().bytes();
    assert_eq!(&bytes[0..4], b"SPMP");
    let (at, _) = section(&bytes, b"VRTX");
    // Vertex 1 is (128, 0): 128 in 16.16 is 0x0080_0000.
    assert_eq!(&bytes[at + 8..at + 12], &[0x00, 0x80, 0x00, 0x00]);
}

#[test]
fn emit_refuses_a_short_buffer() {
    let o = Owned::new();
    let len = o.bytes().len();
    let repr = MapRepr {
        vertices: &o.vertices,
        ..Default::default()
    };
    let mut small = vec![0u8; 10];
    assert!(repr.emit(&mut small).is_err());
    assert!(len > 10);
}

fn mutate(f: impl FnOnce(&mut Owned)) -> Result<(), LoadError> {
    let mut o = Owned::new();
    f(&mut o);
    load(&o.bytes())
}

#[test]
fn empty_and_truncated_files() {
    assert!(matches!(load(&[]), Err(LoadError::Truncated { .. })));
    let bytes = Owned::new().bytes();
    // Every prefix fails cleanly.
    for n in 0..bytes.len() {
        assert!(load(&bytes[..n]).is_err(), "prefix {n} loaded");
    }
}

#[test]
fn bad_magic_and_newer_version() {
    let mut bytes = Owned::new().bytes();
    bytes[0] = b'X';
    assert_eq!(load(&bytes), Err(LoadError::BadMagic));
    let mut bytes = Owned::new().bytes();
    assert_eq!(bytes[5], 4);
    bytes[5] = 5;
    assert_eq!(load(&bytes), Err(LoadError::UnsupportedVersion(5)));
    // Older ones too: version 3's sectors were 24 bytes, version 2's BSP
    // was optional.
    bytes[5] = 3;
    assert_eq!(load(&bytes), Err(LoadError::UnsupportedVersion(3)));
    bytes[5] = 2;
    assert_eq!(load(&bytes), Err(LoadError::UnsupportedVersion(2)));
    let message = LoadError::UnsupportedVersion(2).to_string();
    assert!(message.contains("compile the map again"), "{message}");
}

#[test]
fn directory_faults() {
    let mut bytes = Owned::new().bytes();
    bytes[6] = 0xFF;
    assert!(matches!(load(&bytes), Err(LoadError::TooManySections(_))));
    // A section pointing past the end.
    let mut bytes = Owned::new().bytes();
    bytes[HEADER_LEN + 4..HEADER_LEN + 8].copy_from_slice(&u32::MAX.to_be_bytes());
    assert_eq!(load(&bytes), Err(LoadError::SectionOutOfBounds(*b"VRTX")));
    // The same tag twice.
    let mut bytes = Owned::new().bytes();
    let second = HEADER_LEN + DIR_ENTRY_LEN;
    bytes[second..second + 4].copy_from_slice(b"VRTX");
    assert_eq!(load(&bytes), Err(LoadError::DuplicateSection(*b"VRTX")));
    // A required tag renamed away.
    let mut bytes = Owned::new().bytes();
    bytes[second..second + 4].copy_from_slice(b"ZZZZ");
    assert_eq!(load(&bytes), Err(LoadError::MissingSection(*b"WALL")));
    // A length that is not a whole number of records.
    let mut bytes = Owned::new().bytes();
    let len = u32_at(&bytes, HEADER_LEN + 8) - 1;
    bytes[HEADER_LEN + 8..HEADER_LEN + 12].copy_from_slice(&len.to_be_bytes());
    assert_eq!(load(&bytes), Err(LoadError::BadSectionLength(*b"VRTX")));
}

#[test]
fn record_faults() {
    assert_eq!(mutate(|o| o.sectors.clear()), Err(LoadError::NoSectors));
    assert_eq!(
        mutate(|o| {
            o.things.remove(0);
        }),
        Err(LoadError::NoPlayerStart)
    );
    assert!(matches!(
        mutate(|o| o.vertices[5].x = Fx::MAX),
        Err(LoadError::ValueOutOfRange {
            what: "vertex",
            index: 5
        })
    ));
    assert!(matches!(
        mutate(|o| o.vertices[0].y = Fx::from_num(-32768)),
        Err(LoadError::ValueOutOfRange { .. })
    ));
    assert!(matches!(
        mutate(|o| o.walls[3].v2 = 6),
        Err(LoadError::IndexOutOfRange {
            what: "wall",
            index: 3,
            value: 6
        })
    ));
    assert!(matches!(
        mutate(|o| o.walls[2].back = 2),
        Err(LoadError::IndexOutOfRange {
            what: "wall",
            index: 2,
            value: 2
        })
    ));
    assert!(matches!(
        mutate(|o| o.walls[0].front = 2),
        Err(LoadError::IndexOutOfRange { .. })
    ));
    assert_eq!(
        mutate(|o| {
            o.vertices[3] = o.vertices[0];
            o.rebuild_blockmap();
        }),
        Err(LoadError::ZeroLengthWall(0))
    );
    assert_eq!(
        mutate(|o| o.sectors[1].ceiling = Fx::from_num(15)),
        Err(LoadError::CeilingBelowFloor(1))
    );
    assert!(matches!(
        mutate(|o| o.sectors[1].wall_count = 5),
        Err(LoadError::IndexOutOfRange { what: "sector", .. })
    ));
    assert!(matches!(
        mutate(|o| o.sectors[1].first_wall = u32::MAX),
        Err(LoadError::IndexOutOfRange { what: "sector", .. })
    ));
    assert!(matches!(
        mutate(|o| o.sector_walls[7] = 99),
        Err(LoadError::IndexOutOfRange {
            what: "sector wall entry",
            ..
        })
    ));
    assert_eq!(
        mutate(|o| o.sector_walls[7] = 0),
        Err(LoadError::ForeignWall { sector: 1, wall: 0 })
    );
    assert!(matches!(
        mutate(|o| o.things[1].radius = Fx::ZERO),
        Err(LoadError::ValueOutOfRange { what: "thing", .. })
    ));
    assert!(matches!(
        mutate(|o| o.things[0].angle = Fx::from_num(360)),
        Err(LoadError::ValueOutOfRange { what: "thing", .. })
    ));
}

#[test]
fn blockmap_faults() {
    use engine::format::BlockmapFault;
    let bad = |f: BlockmapFault| Err(LoadError::BadBlockmap(f));
    assert_eq!(
        mutate(|o| o.grid.block_size = 8),
        bad(BlockmapFault::BlockSize(8))
    );
    assert_eq!(
        mutate(|o| {
            o.grid.cols = 0;
            o.offsets = vec![0];
            o.entries.clear();
        }),
        bad(BlockmapFault::GridSize)
    );
    assert_eq!(
        mutate(|o| {
            o.grid.origin_x = 100;
            o.rebuild_blockmap();
        }),
        bad(BlockmapFault::DoesNotCoverMap)
    );
    assert_eq!(
        mutate(|o| o.offsets[3] = 10_000),
        bad(BlockmapFault::Offsets)
    );
    // An entry pointing past the walls.
    assert!(matches!(
        mutate(|o| {
            let k = o.entries.len() - 1;
            o.entries[k] = 500;
        }),
        Err(LoadError::IndexOutOfRange {
            what: "blockmap entry",
            ..
        })
    ));
    // A block list out of order.
    assert!(matches!(
        mutate(|o| {
            let b = (0..o.offsets.len() - 1)
                .find(|&b| o.offsets[b + 1] - o.offsets[b] >= 2)
                .unwrap();
            let s = o.offsets[b] as usize;
            o.entries.swap(s, s + 1);
        }),
        Err(LoadError::BadBlockmap(BlockmapFault::UnsortedList(_)))
    ));
    // A wall dropped from a block it touches.
    assert!(matches!(
        mutate(|o| {
            o.entries.remove(0);
            for off in o.offsets.iter_mut().skip(1) {
                *off = off.saturating_sub(1);
            }
        }),
        Err(LoadError::BadBlockmap(BlockmapFault::MissingWall { .. }))
    ));
    // A wall listed in a block it does not touch.
    assert_eq!(
        mutate(|o| {
            // Block 14 is the far corner; wall 0 is at x = 0.
            let last = o.offsets.len() - 1;
            let at = o.offsets[last - 1] as usize;
            if !o.entries[at..].contains(&0) {
                o.entries.insert(at, 0);
                o.offsets[last] += 1;
            }
        }),
        bad(BlockmapFault::ExtraEntries)
    );
    // A section length that disagrees with the header.
    let mut bytes = Owned::new().bytes();
    let (at, _) = section(&bytes, b"BMAP");
    bytes[at + 10..at + 12].copy_from_slice(&100u16.to_be_bytes());
    assert!(matches!(load(&bytes), Err(LoadError::BadBlockmap(_))));
}

#[test]
fn flipping_any_single_byte_never_panics() {
    let bytes = Owned::new().bytes();
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            if let Ok(view) = MapView::new_checked(&b) {
                // Whatever loads must be usable.
                let level = engine::world::Level::load(&b).unwrap();
                let _ = level.locate(Vec2::from_int(64, 64));
                let _ = view.player_start();
            }
        }
    }
}

#[test]
fn the_bsp_reads_back() {
    let bytes = Owned::new().bytes();
    let view = MapView::new_checked(&bytes).unwrap();
    let bsp = view.bsp();
    let want = two_room_bsp();
    assert_eq!(bsp.node_count(), 1);
    assert_eq!(bsp.root(), 0);
    assert_eq!(bsp.node(0), want.nodes[0]);
    assert_eq!((0..8).map(|i| bsp.seg(i)).collect::<Vec<_>>(), want.segs);
    assert_eq!(bsp.subsector(1), want.subsectors[1]);
    // Out of range: zeroes, no panic.
    assert_eq!(bsp.seg(8), BspSegRecord::default());
    assert_eq!(bsp.node(usize::MAX), BspNodeRecord::default());
    // One subsector and no nodes: the root is subsector 0.
    let mut o = Owned::new();
    let b = &mut o.bsp;
    b.nodes.clear();
    b.subsectors.truncate(1);
    let view_bytes = o.bytes();
    let view = MapView::new_checked(&view_bytes).unwrap();
    assert_eq!(view.bsp().root(), SUBSECTOR_CHILD);
}

#[test]
fn bsp_faults() {
    let bsp = |f: &dyn Fn(&mut Bsp)| mutate(|o| f(&mut o.bsp));
    let bad = |f| LoadError::BadBsp(f);
    // Children: below the parent, named once, subsectors in range.
    assert_eq!(
        bsp(&|b: &mut Bsp| b.nodes[0].child[0] = 0),
        Err(bad(BspFault::ChildOrder { node: 0 }))
    );
    assert_eq!(
        bsp(&|b: &mut Bsp| {
            let n = b.nodes[0];
            b.nodes.push(BspNodeRecord {
                child: [0, SUBSECTOR_CHILD],
                ..n
            });
            b.nodes.push(BspNodeRecord {
                child: [SUBSECTOR_CHILD | 1, 0],
                ..n
            });
        }),
        Err(bad(BspFault::SharedChild { node: 0 }))
    );
    assert!(matches!(
        bsp(&|b: &mut Bsp| b.nodes[0].child[1] = SUBSECTOR_CHILD | 2),
        Err(LoadError::IndexOutOfRange {
            what: "BSP node",
            value: 2,
            ..
        })
    ));
    // A chain one deeper than the limit; at the limit it loads.
    fn chain(b: &mut Bsp, len: usize) {
        let n = b.nodes[0];
        for i in 1..len {
            b.nodes.push(BspNodeRecord {
                child: [(i - 1) as u16, SUBSECTOR_CHILD],
                ..n
            });
        }
    }
    assert_eq!(
        bsp(&|b: &mut Bsp| chain(b, engine::config::MAX_BSP_DEPTH)),
        Ok(())
    );
    // (Node 0 is the one too deep: the root is the last.)
    assert_eq!(
        bsp(&|b: &mut Bsp| chain(b, engine::config::MAX_BSP_DEPTH + 1)),
        Err(bad(BspFault::TooDeep { node: 0 }))
    );
    // A wide tree is not a deep one: a node whose children are both
    // chains half the limit long.
    assert_eq!(
        bsp(&|b: &mut Bsp| {
            let n = b.nodes[0];
            let half = engine::config::MAX_BSP_DEPTH / 2;
            for i in 1..2 * half {
                let below = if i == half {
                    SUBSECTOR_CHILD
                } else {
                    (i - 1) as u16
                };
                b.nodes.push(BspNodeRecord {
                    child: [below, SUBSECTOR_CHILD],
                    ..n
                });
            }
            b.nodes.push(BspNodeRecord {
                child: [(half - 1) as u16, (2 * half - 1) as u16],
                ..n
            });
        }),
        Ok(())
    );
    // Segs: a wall that exists, a side it has, coordinates in range.
    assert!(matches!(
        bsp(&|b: &mut Bsp| b.segs[3].wall = 7),
        Err(LoadError::IndexOutOfRange {
            what: "BSP seg",
            index: 3,
            value: 7
        })
    ));
    assert_eq!(
        bsp(&|b: &mut Bsp| b.segs[0].back = true),
        Err(bad(BspFault::BadSide { seg: 0 }))
    );
    assert!(matches!(
        bsp(&|b: &mut Bsp| b.segs[1].to.x = Fx::MAX),
        Err(LoadError::ValueOutOfRange {
            what: "BSP seg",
            ..
        })
    ));
    assert!(matches!(
        bsp(&|b: &mut Bsp| b.nodes[0].bbox[1].left = Fx::MIN),
        Err(LoadError::ValueOutOfRange {
            what: "BSP node",
            ..
        })
    ));
    // Subsectors: segs in range, at least one, a sector that exists.
    assert!(matches!(
        bsp(&|b: &mut Bsp| b.subsectors[1].seg_count = 5),
        Err(LoadError::IndexOutOfRange {
            what: "subsector",
            ..
        })
    ));
    assert!(matches!(
        bsp(&|b: &mut Bsp| b.subsectors[1].first_seg = u32::MAX),
        Err(LoadError::IndexOutOfRange {
            what: "subsector",
            ..
        })
    ));
    assert_eq!(
        bsp(&|b: &mut Bsp| b.subsectors[0].seg_count = 0),
        Err(bad(BspFault::Empty))
    );
    assert_eq!(
        bsp(&|b: &mut Bsp| b.subsectors.clear()),
        Err(bad(BspFault::Empty))
    );
    assert!(matches!(
        bsp(&|b: &mut Bsp| b.subsectors[0].sector = 2),
        Err(LoadError::IndexOutOfRange {
            what: "subsector",
            value: 2,
            ..
        })
    ));
    // A side field that is neither 0 nor 1, written by hand.
    let mut bytes = Owned::new().bytes();
    let (at, _) = section(&bytes, b"BSEG");
    bytes[at + 18..at + 20].copy_from_slice(&2u16.to_be_bytes());
    assert_eq!(load(&bytes), Err(bad(BspFault::BadSide { seg: 0 })));
    // Every map has all three sections.
    for tag in [b"BNOD", b"BSEG", b"BSUB"] {
        let mut bytes = Owned::new().bytes();
        let count = u16::from_be_bytes([bytes[6], bytes[7]]) as usize;
        let entry = (0..count)
            .map(|i| HEADER_LEN + i * DIR_ENTRY_LEN)
            .find(|&at| &bytes[at..at + 4] == tag)
            .unwrap();
        bytes[entry..entry + 4].copy_from_slice(b"ZZZZ");
        assert_eq!(load(&bytes), Err(LoadError::MissingSection(*tag)));
    }
    // Nor can a map leave its BSP out by leaving it empty.
    assert_eq!(
        mutate(|o| o.bsp = Bsp {
            nodes: vec![],
            segs: vec![],
            subsectors: vec![]
        }),
        Err(bad(BspFault::Empty))
    );
}

#[test]
fn texture_faults() {
    // The fixture's texture reads back column-major.
    let bytes = Owned::new().bytes();
    let view = MapView::new_checked(&bytes).unwrap();
    let t = view.texture(0).unwrap();
    assert_eq!(
        (t.column(0), t.column(1), t.column(-1)),
        (&[1, 2, 3][..], &[4, 5, 6][..], &[4, 5, 6][..])
    );
    assert_eq!(view.side(0).middle, 0);
    assert_eq!(view.wall(0).front_side, 0);

    assert!(matches!(
        mutate(|o| o.textures[0].offset = 2),
        Err(LoadError::ValueOutOfRange {
            what: "texture",
            ..
        })
    ));
    assert!(matches!(
        mutate(|o| o.textures[0].width = 0),
        Err(LoadError::ValueOutOfRange {
            what: "texture",
            ..
        })
    ));
    assert!(matches!(
        mutate(|o| o.textures[0].offset = u32::MAX),
        Err(LoadError::ValueOutOfRange {
            what: "texture",
            ..
        })
    ));
    assert!(matches!(
        mutate(|o| o.sides[0].upper = 1),
        Err(LoadError::IndexOutOfRange {
            what: "side",
            index: 0,
            value: 1
        })
    ));
    assert!(matches!(
        mutate(|o| o.walls[3].back_side = 1),
        Err(LoadError::IndexOutOfRange {
            what: "wall",
            index: 3,
            value: 1
        })
    ));
    assert!(matches!(
        mutate(|o| o.sectors[0].floor_texture = 7),
        Err(LoadError::IndexOutOfRange {
            what: "sector",
            index: 0,
            value: 7
        })
    ));
    assert_eq!(
        mutate(|o| o.sectors[0].ceiling_texture = engine::format::SKY),
        Ok(())
    );
    assert!(matches!(
        mutate(|o| o.things[1].sprite = 3),
        Err(LoadError::IndexOutOfRange { what: "thing", .. })
    ));
    assert!(matches!(
        mutate(|o| o.sky = Some(engine::format::SKY)),
        Err(LoadError::IndexOutOfRange { what: "sky", .. })
    ));
    assert_eq!(mutate(|o| o.palette = Some([7; 768])), Ok(()));
    // A palette section of the wrong length.
    let mut o = Owned::new();
    o.palette = Some([7; 768]);
    let mut bytes = o.bytes();
    let count = u16::from_be_bytes([bytes[6], bytes[7]]) as usize;
    for i in 0..count {
        let at = HEADER_LEN + i * DIR_ENTRY_LEN;
        if &bytes[at..at + 4] == b"PALT" {
            bytes[at + 8..at + 12].copy_from_slice(&767u32.to_be_bytes());
        }
    }
    assert_eq!(load(&bytes), Err(LoadError::BadSectionLength(*b"PALT")));
}

/// The two rooms with a solid thing of radius 16 at (64, 100): over the
/// grid from (-8, -8) in blocks of 64 its square (48..80, 84..116) is in
/// blocks 5 and 6 (row 1, columns 0 and 1).
fn with_solid_thing() -> Owned {
    let mut o = Owned::new();
    o.things.push(ThingRecord {
        x: Fx::from_num(64),
        y: Fx::from_num(100),
        radius: Fx::from_num(16),
        kind: kind::SOLID,
        ..Default::default()
    });
    o
}

/// The fixture with a second texture and two rotation sets, the pushable
/// thing showing the second.
fn with_rotations() -> Owned {
    let mut o = Owned::new();
    o.textures.push(TextureRecord {
        width: 1,
        height: 3,
        offset: 4,
        ..Default::default()
    });
    o.rotations = vec![
        RotationRecord { textures: [0; 8] },
        RotationRecord {
            textures: [0, 1, 1 | MIRRORED, 0, MIRRORED, 1, 0, 1 | MIRRORED],
        },
    ];
    o.things[1].sprite = 0;
    o.things[1].rotations = 2;
    o
}

#[test]
fn solid_things_are_listed_by_block() {
    let bytes = with_solid_thing().bytes();
    let view = MapView::new_checked(&bytes).unwrap();
    for b in 0..15 {
        let want: &[usize] = if b == 5 || b == 6 { &[2] } else { &[] };
        assert_eq!(
            view.block_solid_things(b).collect::<Vec<_>>(),
            want,
            "block {b}"
        );
    }
    assert_eq!(view.solid_thing_entry_count(), 2);
    assert_eq!(view.block_solid_things(usize::MAX).count(), 0);
    // The level finds it near its disc and nowhere else.
    let level = engine::world::Level::load(&bytes).unwrap();
    let near = |x: i32, y: i32| {
        let mut found = Vec::new();
        let p = Vec2::from_int(x, y).wide();
        let r = engine::math::Wide::from_num(4);
        let lo = engine::math::WVec::new(p.x - r, p.y - r);
        let hi = engine::math::WVec::new(p.x + r, p.y + r);
        level.solid_things_in_box(lo, hi, |o| found.push(o));
        found
    };
    assert_eq!(near(70, 110).len(), 1);
    assert_eq!(near(70, 110)[0].radius, Fx::from_num(16));
    assert!(near(200, 20).is_empty());
    // A map without solid things has no lists: its bytes are as before.
    let plain = Owned::new().bytes();
    assert_eq!(
        MapView::new_checked(&plain)
            .unwrap()
            .solid_thing_entry_count(),
        0
    );
    assert!(!plain.windows(4).any(|w| w == b"STBK"));
}

#[test]
fn solid_thing_list_faults() {
    use engine::format::BlockmapFault;
    let bytes = with_solid_thing().bytes();
    let (at, len) = section(&bytes, b"STBK");
    // 15 blocks: 16 offsets, then the two entries.
    assert_eq!(len, 16 * 4 + 2 * 2);
    let entries = at + 16 * 4;
    let patched = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.clone();
        f(&mut b);
        load(&b)
    };
    // The section's tag renamed: a solid thing without its lists.
    let dir = (0..u16::from_be_bytes([bytes[6], bytes[7]]) as usize)
        .map(|i| HEADER_LEN + i * DIR_ENTRY_LEN)
        .find(|&d| &bytes[d..d + 4] == b"STBK")
        .unwrap();
    assert_eq!(
        patched(&|b| b[dir..dir + 4].copy_from_slice(b"XXXX")),
        Err(LoadError::MissingSection(*b"STBK"))
    );
    // An entry past the things.
    assert!(matches!(
        patched(&|b| b[entries..entries + 2].copy_from_slice(&500u16.to_be_bytes())),
        Err(LoadError::IndexOutOfRange {
            what: "solid thing entry",
            ..
        })
    ));
    // Block 5 names the player start instead: the solid thing is missing.
    assert_eq!(
        patched(&|b| b[entries..entries + 2].copy_from_slice(&0u16.to_be_bytes())),
        Err(LoadError::BadSolidThings(BlockmapFault::MissingThing {
            thing: 2,
            block: 5
        }))
    );
    // The thing no longer solid: its entries are extras.
    let (things, _) = section(&bytes, b"THNG");
    let kind_at = things + 2 * 24 + 16;
    assert_eq!(
        patched(&|b| b[kind_at..kind_at + 2].copy_from_slice(&kind::DECORATION.to_be_bytes())),
        Err(LoadError::BadSolidThings(BlockmapFault::ExtraEntries))
    );
    // Offsets that do not end at the entry count.
    assert_eq!(
        patched(&|b| b[at + 15 * 4..at + 16 * 4].copy_from_slice(&7u32.to_be_bytes())),
        Err(LoadError::BadSolidThings(BlockmapFault::Offsets))
    );
    // Every prefix fails cleanly; no flipped bit of the lists panics.
    for n in 0..bytes.len() {
        assert!(load(&bytes[..n]).is_err(), "prefix {n} loaded");
    }
    for i in at..at + len {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            if let Ok(level) = engine::world::Level::load(&b) {
                let p = Vec2::from_int(64, 90).wide();
                let _ = level.solid_things_in_box(p, p, |_| {});
            }
        }
    }
}

#[test]
fn sprite_rotations_read_back() {
    let o = with_rotations();
    let bytes = o.bytes();
    let view = MapView::new_checked(&bytes).unwrap();
    assert_eq!(view.rotation_set_count(), 2);
    for (i, r) in o.rotations.iter().enumerate() {
        assert_eq!(view.rotation_set(i), *r);
    }
    assert_eq!(view.things().collect::<Vec<_>>(), o.things);
    assert_eq!(view.thing(1).rotations, 2);
    let set = view.thing_rotations(2).unwrap();
    assert_eq!(set, o.rotations[1]);
    assert_eq!(
        (0..9).map(|r| set.rotation(r)).collect::<Vec<_>>(),
        [
            (0, false),
            (1, false),
            (1, true),
            (0, false),
            (0, true),
            (1, false),
            (0, false),
            (1, true),
            (0, false), // modulo 8
        ]
    );
    // 0 is none; out of range gives none and zeroes, never a panic.
    assert_eq!(view.thing_rotations(0), None);
    assert_eq!(view.thing_rotations(3), None);
    assert_eq!(view.thing_rotations(u16::MAX), None);
    assert_eq!(view.rotation_set(usize::MAX), RotationRecord::default());
    // The record's last field, at bytes 22..24 of thing 1.
    let (at, len) = section(&bytes, b"THNG");
    assert_eq!(len, 2 * 24);
    assert_eq!(&bytes[at + 24 + 22..at + 48], &[0, 2]);
    let (at, len) = section(&bytes, b"SROT");
    assert_eq!(len, 2 * 16);
    assert_eq!(&bytes[at + 16 + 4..at + 16 + 6], &[0x80, 0x01]);

    // Without rotations there is no section, and the field is 0: the
    // bytes of a map written before rotations existed.
    let plain = Owned::new().bytes();
    assert_eq!(directory_entry(&plain, b"SROT"), None);
    let view = MapView::new_checked(&plain).unwrap();
    assert_eq!(view.rotation_set_count(), 0);
    assert!(view.things().all(|t| t.rotations == 0));
}

fn mutate_rotations(f: impl FnOnce(&mut Owned)) -> Result<(), LoadError> {
    let mut o = with_rotations();
    f(&mut o);
    load(&o.bytes())
}

#[test]
fn sprite_rotation_faults() {
    assert_eq!(mutate_rotations(|_| ()), Ok(()));
    // A thing naming a set past the last.
    assert_eq!(
        mutate_rotations(|o| o.things[1].rotations = 3),
        Err(LoadError::IndexOutOfRange {
            what: "thing's rotations",
            index: 1,
            value: 3
        })
    );
    assert_eq!(
        mutate(|o| o.things[0].rotations = 1),
        Err(LoadError::IndexOutOfRange {
            what: "thing's rotations",
            index: 0,
            value: 1
        })
    );
    // A texture past the last, mirrored or not, or none.
    for bad in [2, 2 | MIRRORED, NONE, 0x7fff] {
        assert_eq!(
            mutate_rotations(|o| o.rotations[1].textures[6] = bad),
            Err(LoadError::IndexOutOfRange {
                what: "sprite rotation set",
                index: 1,
                value: bad as u32
            }),
            "{bad:#x}"
        );
    }
    // A section that is not a whole number of sets: shortened by a byte
    // (the byte still there, past the section's end) or by a texture.
    for cut in [1, 2, 15] {
        let mut bytes = with_rotations().bytes();
        let at = directory_entry(&bytes, b"SROT").unwrap();
        let len = u32_at(&bytes, at + 8) - cut;
        bytes[at + 8..at + 12].copy_from_slice(&len.to_be_bytes());
        assert_eq!(
            load(&bytes),
            Err(LoadError::BadSectionLength(*b"SROT")),
            "{cut}"
        );
    }
    // Shortened by a whole set: the thing names a set that is gone.
    let mut bytes = with_rotations().bytes();
    let at = directory_entry(&bytes, b"SROT").unwrap();
    bytes[at + 8..at + 12].copy_from_slice(&16u32.to_be_bytes());
    assert!(matches!(
        load(&bytes),
        Err(LoadError::IndexOutOfRange {
            what: "thing's rotations",
            ..
        })
    ));
    // Reaching past the end of the file.
    let mut bytes = with_rotations().bytes();
    let at = directory_entry(&bytes, b"SROT").unwrap();
    bytes[at + 8..at + 12].copy_from_slice(&u32::MAX.to_be_bytes());
    assert_eq!(load(&bytes), Err(LoadError::SectionOutOfBounds(*b"SROT")));
    // Any single byte flipped: refused or usable, never a panic.
    let bytes = with_rotations().bytes();
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            if let Ok(view) = MapView::new_checked(&b) {
                for t in view.things() {
                    if let Some(set) = view.thing_rotations(t.rotations) {
                        for r in 0..8 {
                            assert!(view.texture(set.rotation(r).0).is_some());
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn switches_read_back_and_bad_ones_are_refused() {
    let switch = |wall, middle| SwitchRecord {
        wall,
        upper: NONE,
        middle,
        lower: NONE,
    };
    let mut o = Owned::new();
    o.switches = vec![switch(1, 0), switch(4, 0)];
    let bytes = o.bytes();
    let view = MapView::new_checked(&bytes).unwrap();
    assert_eq!(view.switch_count(), 2);
    assert_eq!(view.switch(4), Some(switch(4, 0)));
    assert_eq!(view.switch(2), None);
    assert_eq!(view.switch_at(9), SwitchRecord::default());
    // None without the section.
    assert!(!Owned::new().bytes().windows(4).any(|w| w == b"SWTX"));
    let with = |switches: Vec<SwitchRecord>| {
        let mut o = Owned::new();
        o.switches = switches;
        load(&o.bytes())
    };
    assert!(matches!(
        with(vec![switch(99, 0)]),
        Err(LoadError::IndexOutOfRange {
            what: "switch's wall",
            ..
        })
    ));
    assert!(matches!(
        with(vec![switch(4, 0), switch(1, 0)]),
        Err(LoadError::ValueOutOfRange { .. })
    ));
    assert!(matches!(
        with(vec![switch(1, 0), switch(1, 0)]),
        Err(LoadError::ValueOutOfRange { .. })
    ));
    assert!(matches!(
        with(vec![switch(1, 7)]),
        Err(LoadError::IndexOutOfRange {
            what: "switch's texture",
            ..
        })
    ));
    let (_, len) = section(&bytes, b"SWTX");
    assert_eq!(len, 16);
    for n in 0..bytes.len() {
        assert!(load(&bytes[..n]).is_err(), "prefix {n} loaded");
    }
}

#[test]
fn keys_load_within_their_limits() {
    let key = |kind, radius: i32| ThingRecord {
        x: Fx::from_num(64),
        y: Fx::from_num(64),
        radius: Fx::from_num(radius),
        kind,
        ..Default::default()
    };
    for (k, lock) in [
        (kind::BLUE_CARD, 1),
        (kind::YELLOW_CARD, 2),
        (kind::RED_CARD, 3),
        (kind::BLUE_SKULL, 1),
        (kind::YELLOW_SKULL, 2),
        (kind::RED_SKULL, 3),
    ] {
        assert!(mutate(|o| o.things.push(key(k, 20))).is_ok(), "{k}");
        assert_eq!(kind::key_lock(k), lock);
        assert!(kind::is_key(k) && kind::is_drawn(k) && !kind::is_fixed(k));
    }
    assert_eq!(kind::key_lock(kind::DECORATION), 0);
    // A key has a radius to be touched by, within a body's.
    for r in [0, -4, engine::config::MAX_BODY_SIZE + 1] {
        assert!(matches!(
            mutate(|o| o.things.push(key(kind::RED_CARD, r))),
            Err(LoadError::ValueOutOfRange { what: "thing", .. })
        ));
    }
    // At most MAX_KEY_THINGS.
    let max = engine::config::MAX_KEY_THINGS;
    let many = |n: usize| {
        mutate(|o| {
            for _ in 0..n {
                o.things.push(key(kind::BLUE_SKULL, 20));
            }
        })
    };
    assert!(many(max).is_ok());
    assert!(matches!(
        many(max + 1),
        Err(LoadError::TooMany { what: "keys", .. })
    ));
}

#[test]
fn wall_specials_read_back_and_bad_ones_are_refused() {
    let special = |wall, action, trig| WallSpecialRecord {
        wall,
        action,
        trigger: trig,
        tag: 0,
    };
    let mut o = Owned::new();
    o.specials = vec![
        special(1, wall_action::EXIT, trigger::USE),
        special(5, wall_action::SECRET_EXIT, trigger::WALK | trigger::REPEAT),
    ];
    let bytes = o.bytes();
    let view = MapView::new_checked(&bytes).unwrap();
    assert_eq!(view.wall_special_count(), 2);
    assert_eq!(view.wall_special(1), Some(o.specials[0]));
    assert_eq!(view.wall_special(5), Some(o.specials[1]));
    assert_eq!(view.wall_special(0), None);
    assert_eq!(view.wall_special(u16::MAX), None);
    assert_eq!(view.wall_special_at(99), WallSpecialRecord::default());
    // A map without specials has no section.
    assert!(!Owned::new().bytes().windows(4).any(|w| w == b"WSPC"));
    // Refusals: a wall out of range, out of order, twice, an unknown
    // action, a trigger that is neither use nor walk, or both.
    let with = |specials: Vec<WallSpecialRecord>| {
        let mut o = Owned::new();
        o.specials = specials;
        // Emitted as given, not sorted: the loader must catch it.
        load(&o.bytes())
    };
    assert!(matches!(
        with(vec![special(7, wall_action::EXIT, trigger::USE)]),
        Err(LoadError::IndexOutOfRange {
            what: "wall special's wall",
            ..
        })
    ));
    let order = vec![
        special(3, wall_action::EXIT, trigger::USE),
        special(2, wall_action::EXIT, trigger::USE),
    ];
    assert!(matches!(
        with(order),
        Err(LoadError::ValueOutOfRange { .. })
    ));
    let twice = vec![
        special(3, wall_action::EXIT, trigger::USE),
        special(3, wall_action::EXIT, trigger::WALK),
    ];
    assert!(matches!(
        with(twice),
        Err(LoadError::ValueOutOfRange { .. })
    ));
    for (action, trig) in [
        (0, trigger::USE),
        // Between the donut and Boom's lifts: no action.
        (47, trigger::USE),
        (wall_action::EXIT, 0),
        (wall_action::EXIT, trigger::REPEAT),
        (wall_action::EXIT, trigger::USE | trigger::WALK),
        (wall_action::EXIT, 8),
        // Past the lock's two bits.
        (wall_action::EXIT, trigger::USE | 0x20),
        (wall_action::EXIT, trigger::USE | 0x80),
    ] {
        assert!(
            matches!(
                with(vec![special(0, action, trig)]),
                Err(LoadError::ValueOutOfRange { .. })
            ),
            "{action} {trig}"
        );
    }
    // Every lock loads and reads back.
    for lock in [trigger::LOCK_BLUE, trigger::LOCK_YELLOW, trigger::LOCK_RED] {
        let s = special(2, wall_action::DOOR_OPEN, trigger::USE | lock);
        let mut o = Owned::new();
        o.specials = vec![s];
        let b = o.bytes();
        let view = MapView::new_checked(&b).unwrap();
        assert_eq!(trigger::lock(view.wall_special_at(0).trigger), lock >> 3);
    }
    // A section of a length that is not whole records, and every prefix.
    let (at, len) = section(&bytes, b"WSPC");
    assert_eq!(len, 12);
    for n in 0..bytes.len() {
        assert!(load(&bytes[..n]).is_err(), "prefix {n} loaded");
    }
    for i in at..at + len {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            if let Ok(view) = MapView::new_checked(&b) {
                for w in 0..8 {
                    let _ = view.wall_special(w);
                }
            }
        }
    }
}
