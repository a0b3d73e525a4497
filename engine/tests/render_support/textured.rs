//! Textured test maps: geometry from the real compiler (which carries no
//! textures for these maps), then sides, textures, flags and sector
//! surfaces added record by record and the map emitted again.

use engine::format::{
    BlockmapRepr, BspNodeRecord, BspRepr, BspSegRecord, MapRepr, MapView, RotationRecord,
    SectorRecord, SideRecord, SubsectorRecord, TextureRecord, ThingRecord, VertexRecord,
    WallRecord, NONE,
};
use engine::math::Vec2;
use engine::world::blockmap::{for_each_block_touching_segment, Grid};

use super::texel;

/// Every record of a map, owned and editable.
#[derive(Clone, Debug)]
pub struct Retex {
    pub vertices: Vec<VertexRecord>,
    pub walls: Vec<WallRecord>,
    pub sectors: Vec<SectorRecord>,
    pub sector_walls: Vec<u16>,
    pub things: Vec<ThingRecord>,
    /// Sprite rotation sets.
    pub rotations: Vec<RotationRecord>,
    pub grid: Grid,
    pub sides: Vec<SideRecord>,
    pub textures: Vec<TextureRecord>,
    pub pixels: Vec<u8>,
    pub sky: Option<u16>,
    /// The compiler's BSP, kept as it was (retexturing moves no wall).
    pub nodes: Vec<BspNodeRecord>,
    pub segs: Vec<BspSegRecord>,
    pub subsectors: Vec<SubsectorRecord>,
}

impl Retex {
    /// Reads every record back from compiled map bytes.
    pub fn from_bytes(bytes: &[u8]) -> Retex {
        let view = MapView::new_checked(bytes).expect("map loads");
        let bsp = view.bsp();
        let sector_walls = (0..view.sector_count())
            .flat_map(|s| view.sector_walls(s).map(|w| w as u16).collect::<Vec<_>>())
            .collect();
        let mut first = 0u32;
        let sectors = (0..view.sector_count())
            .map(|i| {
                let mut s = view.sector(i);
                s.first_wall = first;
                first += s.wall_count;
                s
            })
            .collect();
        Retex {
            vertices: (0..view.vertex_count()).map(|i| view.vertex(i)).collect(),
            walls: (0..view.wall_count()).map(|i| view.wall(i)).collect(),
            sectors,
            sector_walls,
            things: view.things().collect(),
            rotations: (0..view.rotation_set_count())
                .map(|i| view.rotation_set(i))
                .collect(),
            grid: *view.blockmap().grid(),
            sides: (0..view.side_count()).map(|i| view.side(i)).collect(),
            textures: (0..view.texture_count())
                .map(|i| view.texture_record(i))
                .collect(),
            pixels: Vec::new(),
            sky: view.sky(),
            nodes: (0..bsp.node_count()).map(|i| bsp.node(i)).collect(),
            segs: (0..bsp.seg_count()).map(|i| bsp.seg(i)).collect(),
            subsectors: (0..bsp.subsector_count())
                .map(|i| bsp.subsector(i))
                .collect(),
        }
    }

    /// Adds a texture of raw palette indices, column-major.
    pub fn texture_raw(&mut self, width: u16, height: u16, pixels: &[u8]) -> u16 {
        assert_eq!(pixels.len(), width as usize * height as usize);
        self.textures.push(TextureRecord {
            width,
            height,
            offset: self.pixels.len() as u32,
            ..Default::default()
        });
        self.pixels.extend_from_slice(pixels);
        (self.textures.len() - 1) as u16
    }

    /// Adds a `width` x `height` texture whose texel `(column, row)` prints
    /// as `f(column, row)` (a [`super::LEGEND`] character).
    pub fn texture(&mut self, width: u16, height: u16, f: impl Fn(usize, usize) -> u8) -> u16 {
        let mut px = Vec::new();
        for c in 0..width as usize {
            for r in 0..height as usize {
                px.push(texel(f(c, r)));
            }
        }
        self.texture_raw(width, height, &px)
    }

    /// Makes texture `t` masked, with the texel printing as `.` clear.
    pub fn masked(&mut self, t: u16) {
        let r = &mut self.textures[t as usize];
        r.flags |= engine::format::texture_flag::MASKED;
        r.transparent = texel(b'.');
    }

    /// Sets a sprite origin on texture `t`.
    pub fn origin(&mut self, t: u16, left: i16, top: i16) {
        let r = &mut self.textures[t as usize];
        r.left = left;
        r.top = top;
    }

    /// Adds a side record.
    pub fn side(&mut self, side: SideRecord) -> u16 {
        self.sides.push(side);
        (self.sides.len() - 1) as u16
    }

    /// The wall between the whole-unit points `a` and `b`, either way
    /// round (panics if none).
    pub fn wall_between(&self, a: (i32, i32), b: (i32, i32)) -> usize {
        let at = |v: u16| {
            let r = self.vertices[v as usize];
            (r.x.to_num::<i32>(), r.y.to_num::<i32>())
        };
        self.walls
            .iter()
            .position(|w| {
                let (p, q) = (at(w.v1), at(w.v2));
                (p, q) == (a, b) || (p, q) == (b, a)
            })
            .unwrap_or_else(|| panic!("no wall between {a:?} and {b:?}"))
    }

    /// Gives the side of wall `w` that faces sector `s` the side record
    /// `side` (a new record).
    pub fn dress(&mut self, w: usize, s: u16, side: SideRecord) {
        let id = self.side(side);
        let wall = &mut self.walls[w];
        if wall.front == s {
            wall.front_side = id;
        } else {
            assert_eq!(wall.back, s, "wall {w} does not border sector {s}");
            wall.back_side = id;
        }
    }

    /// Gives every wall side of sector `s` the side record `side`.
    pub fn dress_sector(&mut self, s: u16, side: SideRecord) {
        for w in 0..self.walls.len() {
            let wall = self.walls[w];
            if wall.front == s || wall.back == s {
                self.dress(w, s, side);
            }
        }
    }

    /// Whether wall `w`'s front is sector `s`.
    pub fn front_is(&self, w: usize, s: u16) -> bool {
        self.walls[w].front == s
    }

    /// The compiled bytes.
    pub fn bytes(&self) -> Vec<u8> {
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
        let mut offsets = vec![0u32];
        let mut entries = Vec::new();
        for l in lists {
            entries.extend(l);
            offsets.push(entries.len() as u32);
        }
        let repr = MapRepr {
            title: "textured render test",
            vertices: &self.vertices,
            walls: &self.walls,
            sides: &self.sides,
            sectors: &self.sectors,
            sector_walls: &self.sector_walls,
            things: &self.things,
            rotations: &self.rotations,
            blockmap: BlockmapRepr {
                origin_x: self.grid.origin_x,
                origin_y: self.grid.origin_y,
                block_size: self.grid.block_size,
                cols: self.grid.cols,
                rows: self.grid.rows,
                offsets: &offsets,
                entries: &entries,
            },
            textures: &self.textures,
            texture_pixels: &self.pixels,
            sky: self.sky,
            bsp: BspRepr {
                nodes: &self.nodes,
                segs: &self.segs,
                subsectors: &self.subsectors,
            },
            ..Default::default()
        };
        let mut buf = vec![0; repr.buffer_len()];
        repr.emit(&mut buf).expect("emit");
        buf
    }
}

/// A side with only a middle texture.
pub fn middle(t: u16) -> SideRecord {
    SideRecord {
        middle: t,
        ..Default::default()
    }
}

/// A side with upper and lower textures.
pub fn upper_lower(upper: u16, lower: u16) -> SideRecord {
    SideRecord {
        upper,
        lower,
        middle: NONE,
        ..Default::default()
    }
}

/// Offsets on a side record, builder style.
pub trait SideRecordExt {
    /// The same side with these offsets.
    fn with_offsets(self, x: i16, y: i16) -> Self;
}

impl SideRecordExt for SideRecord {
    fn with_offsets(self, x_offset: i16, y_offset: i16) -> Self {
        SideRecord {
            x_offset,
            y_offset,
            ..self
        }
    }
}
