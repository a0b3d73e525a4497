//! The runtime level: typed, index-linked views of a loaded map.
//!
//! [`Level`] wraps a validated [`MapView`] and speaks in index newtypes
//! ([`SectorId`], [`WallId`]) instead of raw `u16`s. Walls and sectors refer
//! to each other only by index; nothing holds a pointer.
//!
//! The map's bytes never change. What a game changes as it plays (floor and
//! ceiling heights, light, flats: doors and lifts move) is a
//! [`SectorState`] per sector, held by the game; a level seen
//! [`Level::with_state`] reads those in place of the map's, so the renderer
//! and collision, which read sectors only through [`Level::sector`], see
//! the world as it is this tick.

/// The blockmap's rule, defined with the format (kept here under its old
/// path).
pub use crate::format::blockmap;

use crate::config::collision::MAX_QUERY_WALLS;
use crate::format::{LoadError, MapView, NO_SECTOR};
use crate::math::{Angle, Fx, Vec2, WVec, Wide};
use heapless::Vec as HVec;

/// Where the view is: a point, an eye height, a facing and the sector the
/// point is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Camera {
    /// Position in the map.
    pub pos: Vec2,
    /// Absolute height of the eye.
    pub eye_z: Fx,
    /// Facing.
    pub angle: Angle,
    /// The sector `pos` is in.
    pub sector: SectorId,
}

/// Index of a sector.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SectorId(pub u16);

/// Index of a wall.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WallId(pub u16);

/// A wall, decoded: its end points and the sectors on each side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wall {
    /// Start point.
    pub a: Vec2,
    /// End point.
    pub b: Vec2,
    /// The sector to the right of `a -> b`.
    pub front: SectorId,
    /// The sector to the left, if this wall is a portal.
    pub back: Option<SectorId>,
    /// [`crate::format::wall_flag`] bits.
    pub flags: u16,
    /// Side record seen from the front ([`crate::format::NONE`] if none).
    pub front_side: u16,
    /// Side record seen from the back ([`crate::format::NONE`] if none).
    pub back_side: u16,
    /// Length, as the compiler measured it (texture coordinates only).
    pub length: Fx,
}

impl Wall {
    /// The sector on the other side from `s`, if any (for a wall whose
    /// both sides are the same sector, that sector).
    pub fn other_side(&self, s: SectorId) -> Option<SectorId> {
        match self.back {
            None => None,
            Some(back) if back == s => Some(self.front),
            Some(_) if self.front == s => self.back,
            // `s` is on neither side: treat the wall as opaque.
            Some(_) => None,
        }
    }

    /// The sector on the side of the wall where `p` lies (`front` for a
    /// point exactly on the line), or `None` for the back of a one-sided
    /// wall.
    pub fn sector_on_side_of(&self, p: Vec2) -> Option<SectorId> {
        if self.side_of(p) > Wide::ZERO {
            self.back
        } else {
            Some(self.front)
        }
    }

    /// The cross product of `b - a` with `p - a`: negative when `p` is to
    /// the right (the front side), positive to the left, zero on the line.
    /// In map units squared.
    pub fn side_of(&self, p: Vec2) -> Wide {
        let a = self.a.wide();
        self.b.wide().sub(a).cross(p.wide().sub(a))
    }

    /// The wall's direction `b - a`.
    pub fn delta(&self) -> WVec {
        self.b.wide().sub(self.a.wide())
    }
}

/// A sector, decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sector {
    /// Floor height.
    pub floor: Fx,
    /// Ceiling height.
    pub ceiling: Fx,
    /// Light, 0..=255.
    pub light: u8,
    /// Floor colour (palette index).
    pub floor_color: u8,
    /// Ceiling colour (palette index).
    pub ceiling_color: u8,
    /// Wall colour (palette index).
    pub wall_color: u8,
    /// Floor texture, [`crate::format::NONE`] or [`crate::format::SKY`].
    pub floor_texture: u16,
    /// Ceiling texture, [`crate::format::NONE`] or [`crate::format::SKY`].
    pub ceiling_texture: u16,
}

/// What a game may change of a sector as it plays: the part of
/// [`Sector`] that movers and light specials write.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SectorState {
    /// Floor height.
    pub floor: Fx,
    /// Ceiling height (never below the floor).
    pub ceiling: Fx,
    /// Floor texture, as [`Sector::floor_texture`].
    pub floor_texture: u16,
    /// Ceiling texture, as [`Sector::ceiling_texture`].
    pub ceiling_texture: u16,
    /// Light, 0..=255.
    pub light: u8,
}

impl SectorState {
    /// The state `sector` starts in.
    pub fn of(sector: &Sector) -> SectorState {
        SectorState {
            floor: sector.floor,
            ceiling: sector.ceiling,
            floor_texture: sector.floor_texture,
            ceiling_texture: sector.ceiling_texture,
            light: sector.light,
        }
    }
}

/// A solid thing as collision sees it: a disc that no body enters, at
/// every height.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Obstacle {
    /// Centre.
    pub pos: Vec2,
    /// Radius.
    pub radius: Fx,
}

/// A switch in its other position (its wall's front side shows its
/// [`crate::format::SwitchRecord`] textures).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SwitchState {
    /// The wall.
    pub wall: u16,
    /// Ticks until it flips back; 0 for one that stays (a once-only
    /// switch).
    pub back_in: u16,
}

/// A loaded level: the validated map, read in place, and perhaps the
/// sectors' state as a game has changed it.
#[derive(Copy, Clone, Debug)]
pub struct Level<'a> {
    map: MapView<'a>,
    /// Sector `i`'s state is `state[i]` where there is one, else the map's.
    state: &'a [SectorState],
    /// Ticks since the level began (scrolling walls have moved that far).
    time: u32,
    /// The switches in their other position.
    switched: &'a [SwitchState],
}

impl<'a> Level<'a> {
    /// Validates and wraps a compiled map.
    pub fn load(bytes: &'a [u8]) -> Result<Self, LoadError> {
        Ok(Level {
            map: MapView::new_checked(bytes)?,
            state: &[],
            time: 0,
            switched: &[],
        })
    }

    /// The same level with sector `i` in `state[i]` (sectors past the end
    /// of `state` as the map has them).
    pub fn with_state<'b>(&self, state: &'b [SectorState]) -> Level<'b>
    where
        'a: 'b,
    {
        Level {
            map: self.map,
            state,
            time: self.time,
            switched: self.switched,
        }
    }

    /// The same level with the switches `switched` in their other
    /// position.
    pub fn with_switches<'b>(&self, switched: &'b [SwitchState]) -> Level<'b>
    where
        'a: 'b,
    {
        Level {
            map: self.map,
            state: self.state,
            time: self.time,
            switched,
        }
    }

    /// The textures wall `wall`'s front side shows instead of its own,
    /// where it is a switch in its other position.
    pub fn switched(&self, wall: WallId) -> Option<crate::format::SwitchRecord> {
        if !self.switched.iter().any(|s| s.wall == wall.0) {
            return None;
        }
        self.map.switch(wall.0)
    }

    /// The same level `ticks` after it began: its scrolling walls
    /// ([`crate::format::wall_flag::SCROLL_LEFT`]) moved on that far.
    pub fn at_time(&self, ticks: u32) -> Level<'a> {
        Level {
            time: ticks,
            ..*self
        }
    }

    /// Ticks since the level began, as [`Level::at_time`] set them (0 for
    /// a level no game has played).
    pub fn time(&self) -> u32 {
        self.time
    }

    /// The same level as the map has it, whatever a game has changed.
    pub fn as_built(&self) -> Level<'a> {
        Level {
            map: self.map,
            state: &[],
            time: 0,
            switched: &[],
        }
    }

    /// The underlying format view.
    pub fn map(&self) -> &MapView<'a> {
        &self.map
    }

    /// Number of walls.
    pub fn wall_count(&self) -> usize {
        self.map.wall_count()
    }

    /// Number of sectors.
    pub fn sector_count(&self) -> usize {
        self.map.sector_count()
    }

    /// Wall `id`.
    pub fn wall(&self, id: WallId) -> Wall {
        // One read of the record (`wall_points` would read it again).
        let r = self.map.wall(id.0 as usize);
        let (a, b) = (
            self.map.vertex(r.v1 as usize),
            self.map.vertex(r.v2 as usize),
        );
        Wall {
            a: Vec2::new(a.x, a.y),
            b: Vec2::new(b.x, b.y),
            front: SectorId(r.front),
            back: if r.back == NO_SECTOR {
                None
            } else {
                Some(SectorId(r.back))
            },
            flags: r.flags,
            front_side: r.front_side,
            back_side: r.back_side,
            length: r.length,
        }
    }

    /// Sector `id`, as it is now.
    pub fn sector(&self, id: SectorId) -> Sector {
        let i = id.0 as usize;
        if let Some(now) = self.state.get(i) {
            // Only the colours come from the map: the rest changes.
            let [floor_color, ceiling_color, wall_color] = self.map.sector_colors(i);
            return Sector {
                floor: now.floor,
                ceiling: now.ceiling,
                light: now.light,
                floor_color,
                ceiling_color,
                wall_color,
                floor_texture: now.floor_texture,
                ceiling_texture: now.ceiling_texture,
            };
        }
        let r = self.map.sector(i);
        Sector {
            floor: r.floor,
            ceiling: r.ceiling,
            light: r.light,
            floor_color: r.floor_color,
            ceiling_color: r.ceiling_color,
            wall_color: r.wall_color,
            floor_texture: r.floor_texture,
            ceiling_texture: r.ceiling_texture,
        }
    }

    /// The walls bordering sector `id`.
    pub fn sector_walls(&self, id: SectorId) -> impl Iterator<Item = WallId> + 'a {
        self.map
            .sector_walls(id.0 as usize)
            .map(|w| WallId(w as u16))
    }

    /// Calls `f` once for every wall that comes within the box
    /// `[min, max]`, and possibly for some walls near it. Each wall is
    /// reported once while the box holds at most
    /// [`MAX_QUERY_WALLS`] distinct walls; beyond that some may be
    /// reported twice (never missed). Returns the number of calls.
    pub fn walls_in_box(&self, min: WVec, max: WVec, mut f: impl FnMut(WallId)) -> usize {
        let bm = self.map.blockmap();
        let Some(range) = bm.grid().blocks_in_box((min.x, min.y), (max.x, max.y)) else {
            return 0;
        };
        let cols = bm.grid().cols as usize;
        let mut seen: HVec<u16, MAX_QUERY_WALLS> = HVec::new();
        let mut calls = 0;
        for r in range.r0..=range.r1 {
            for c in range.c0..=range.c1 {
                for w in bm.block_walls(r as usize * cols + c as usize) {
                    let w = w as u16;
                    if range.len() > 1 {
                        if seen.contains(&w) {
                            continue;
                        }
                        // A full list only costs duplicates, never misses.
                        let _ = seen.push(w);
                    }
                    calls += 1;
                    f(WallId(w));
                }
            }
        }
        calls
    }

    /// Calls `f` with every solid thing (a [`crate::format::kind::SOLID`]
    /// thing: a disc that bodies cannot enter) whose disc may come into
    /// the box `[min, max]`, found by the blockmap's blocks under the box.
    /// None is missed while the box overlaps the grid, as every box round
    /// a body inside the map does: both the box and a thing's square then
    /// share a block wherever they overlap (clamping a common point into
    /// the grid keeps it in both).
    /// A thing whose disc spans several of those blocks is reported once
    /// for each (collision wants the deepest overlap, which repeats do not
    /// change, and a small box rarely spans two blocks). Returns the
    /// number of calls.
    pub fn solid_things_in_box(&self, min: WVec, max: WVec, mut f: impl FnMut(Obstacle)) -> usize {
        let map = &self.map;
        if map.solid_thing_entry_count() == 0 {
            return 0;
        }
        let grid = map.blockmap().grid();
        let Some(range) = grid.blocks_in_box((min.x, min.y), (max.x, max.y)) else {
            return 0;
        };
        let mut calls = 0;
        for block in range.blocks(grid.cols) {
            for i in map.block_solid_things(block) {
                let t = map.thing(i);
                calls += 1;
                f(Obstacle {
                    pos: Vec2::new(t.x, t.y),
                    radius: t.radius,
                });
            }
        }
        calls
    }

    /// The sector that contains `p`: cast a ray from `p` along an axis and
    /// take the side of the first wall it crosses. A ray that first meets
    /// a vertex (where the nearest wall is ambiguous) is cast again along
    /// the next axis. `None` if `p` is outside every sector.
    pub fn locate(&self, p: Vec2) -> Option<SectorId> {
        let mut ambiguous = None;
        for axis in [Axis::PlusX, Axis::PlusY, Axis::MinusX, Axis::MinusY] {
            match self.cast_along(p, axis) {
                Cast::Clean(id) => return self.wall(id).sector_on_side_of(p),
                Cast::AtVertex(id) => {
                    ambiguous.get_or_insert(id);
                }
                // Open space in some direction: outside the map.
                Cast::Nothing => return None,
            }
        }
        ambiguous.and_then(|id| self.wall(id).sector_on_side_of(p))
    }

    /// The first wall a ray from `p` along `axis` crosses.
    fn cast_along(&self, p: Vec2, axis: Axis) -> Cast {
        let bm = self.map.blockmap();
        let grid = *bm.grid();
        let origin = p.wide();
        let (col, row) = (grid.col_of(origin.x), grid.row_of(origin.y));
        let (mut c, mut r) = (col, row);
        let (dc, dr) = axis.step();
        let in_grid =
            |c: i64, r: i64| c >= 0 && r >= 0 && c < grid.cols as i64 && r < grid.rows as i64;
        // Clamp a start outside the grid onto it along the ray's direction.
        if dc == 0 && !(0..grid.cols as i64).contains(&c) {
            return Cast::Nothing;
        }
        if dr == 0 && !(0..grid.rows as i64).contains(&r) {
            return Cast::Nothing;
        }
        if dc > 0 {
            c = c.max(0);
        } else if dc < 0 {
            c = c.min(grid.cols as i64 - 1);
        }
        if dr > 0 {
            r = r.max(0);
        } else if dr < 0 {
            r = r.min(grid.rows as i64 - 1);
        }
        let size = Wide::from_num(grid.block_size);
        let mut best: Option<(Wide, WallId, bool)> = None;
        while in_grid(c, r) {
            let block = r as usize * grid.cols as usize + c as usize;
            for w in bm.block_walls(block) {
                let id = WallId(w as u16);
                let wall = self.wall(id);
                let a = axis.rotate(wall.a.wide().sub(origin));
                let b = axis.rotate(wall.b.wide().sub(origin));
                // Half-open rule: a vertex on the ray counts for exactly
                // one of the two walls that meet there.
                if (a.y > Wide::ZERO) == (b.y > Wide::ZERO) {
                    continue;
                }
                let u = a.x - a.y * (b.x - a.x) / (b.y - a.y);
                if u < Wide::ZERO {
                    continue;
                }
                let at_vertex = a.y == Wide::ZERO || b.y == Wide::ZERO;
                if best.is_none_or(|(bu, _, _)| u < bu) {
                    best = Some((u, id, at_vertex));
                }
            }
            // Distance along the ray to the far edge of this block: a hit
            // nearer than that cannot be beaten by a later block.
            let edge = match axis {
                Axis::PlusX => {
                    Wide::from_num(grid.origin_x) + size * Wide::from_num(c + 1) - origin.x
                }
                Axis::MinusX => origin.x - Wide::from_num(grid.origin_x) - size * Wide::from_num(c),
                Axis::PlusY => {
                    Wide::from_num(grid.origin_y) + size * Wide::from_num(r + 1) - origin.y
                }
                Axis::MinusY => origin.y - Wide::from_num(grid.origin_y) - size * Wide::from_num(r),
            };
            if best.is_some_and(|(bu, _, _)| bu <= edge) {
                break;
            }
            c += dc;
            r += dr;
        }
        match best {
            None => Cast::Nothing,
            Some((_, id, true)) => Cast::AtVertex(id),
            Some((_, id, false)) => Cast::Clean(id),
        }
    }
}

impl<'s, 'a: 's> From<&'s Level<'a>> for Level<'s> {
    fn from(level: &'s Level<'a>) -> Level<'s> {
        *level
    }
}

/// The four directions [`Level::locate`] casts along.
#[derive(Copy, Clone, Debug)]
enum Axis {
    PlusX,
    PlusY,
    MinusX,
    MinusY,
}

impl Axis {
    /// Block steps along this axis.
    fn step(self) -> (i64, i64) {
        match self {
            Axis::PlusX => (1, 0),
            Axis::PlusY => (0, 1),
            Axis::MinusX => (-1, 0),
            Axis::MinusY => (0, -1),
        }
    }

    /// Rotates `v` so that this axis becomes +x (exact: only swaps and
    /// negations).
    fn rotate(self, v: WVec) -> WVec {
        match self {
            Axis::PlusX => v,
            Axis::PlusY => WVec::new(v.y, -v.x),
            Axis::MinusX => WVec::new(-v.x, -v.y),
            Axis::MinusY => WVec::new(-v.y, v.x),
        }
    }
}

/// What a cast along an axis found.
enum Cast {
    /// The nearest crossing is in the middle of this wall.
    Clean(WallId),
    /// The nearest crossing is at an end of this wall.
    AtVertex(WallId),
    /// Nothing: open space.
    Nothing,
}
