//! What the walk learns once per frame instead of once per column: each
//! column's ray, and for every sector a ray enters, the sector decoded and
//! the walls a ray can leave it through, with the screen columns whose
//! rays do.
//!
//! ## Exits and their columns
//!
//! A ray leaves sector `S` through wall `A -> B` (points relative to the
//! camera) at a depth `t >= 0` only if
//!
//! * it crosses the wall from `S`'s side: from the front (right) when `S`
//!   is the front sector, which needs `D x A >= 0 >= D x B`, or from the
//!   back when `S` is the back sector, `D x A <= 0 <= D x B`;
//! * and the camera is on that side too (or on the line): `A x B <= 0`
//!   for the front, `>= 0` for the back, else the crossing is behind.
//!
//! The second test is per frame. For the first, the rays of successive
//! columns turn strictly clockwise through less than half a turn (they
//! are `F + k R` with `k` in `(-1, 1)`, and the truncation of their
//! components moves them by at most a unit in the last place against a
//! step of at least 2^7 between neighbours), so the sign of `D x A` over
//! the columns changes at most once, with at most one zero where it does:
//! the columns where `D x A >= 0` (or `<= 0`) are a prefix or a suffix of
//! the screen, found by a binary search on the exact sign. A wall's
//! columns are the intersection of its two ends' ranges, exactly the
//! columns whose rays cross it the right way. Only those columns test it
//! (exactly, as before); walls facing away or off screen are never
//! tested at all.
//!
//! ## Which of two exits
//!
//! A non-convex sector (a room with a pillar, the camera's own room seen
//! past a corner) often has two exits live in the same columns, and the
//! walk would test both and compare their depths. But which of two walls
//! a ray meets first changes at most once across the screen: with hits
//! `t = n / (D x v)` (signs aside) for each wall's vector `v`,
//! `t_a < t_b` comes down to the sign of `D x W` for one vector `W`
//! (see [`FrameCache::live_exits`]), and that sign changes at most once
//! as the rays turn, like `D x A` above. So when two exits stay the only
//! live ones for a few columns, one binary search says which is nearer
//! in each of them, and the walk tests that one first: if the ray leaves
//! through it beyond the last crossing, the other need not be tested.
//!
//! ## Walls drawn
//!
//! For each exit the walk goes through, what does not change from column
//! to column (its heights relative to the eye, its textures placed by
//! the pegging rules, its light numbers, the sector behind) is worked out
//! on the first column that needs it ([`Prepared`]) and kept for the
//! rest of the frame, as are the wall textures it uses. Per column there
//! is then one exact depth, one division for its reciprocal, and a
//! multiplication per projected height.
//!
//! ## Bounds
//!
//! Everything is in fixed-size tables (about 78 KiB with 64-bit
//! pointers): 128 sectors, 512 exits and 256 prepared walls per frame,
//! more than any view of Freedoom's maps needs but one open map (MAP12:
//! 303 sectors, 1240 exits). A sector that does not fit, or whose exits do not fit, is
//! walked the slow way (every wall decoded and tested per column): the
//! same pixels, later.

use heapless::Vec as HVec;

use super::portal::{Prepared, Surface, View};
use crate::config::MAX_SCREEN_WIDTH;
use crate::format::{TextureView, NONE, SKY};
use crate::world::{Level, Sector, SectorId, Wall, WallId};

/// Most sectors whose data one frame keeps.
pub(crate) const MAX_CACHED_SECTORS: usize = 128;
/// Most exits (wall, sector pairs) one frame keeps.
pub(crate) const MAX_CACHED_EXITS: usize = 512;
/// Slots of the sector index: a power of two, at least twice
/// [`MAX_CACHED_SECTORS`].
const INDEX_SLOTS: usize = 256;
/// Most distinct floor and ceiling textures one frame keeps.
const MAX_FLATS: usize = 32;
/// An empty slot.
const EMPTY: u16 = u16::MAX;
/// Two live exits of a sector are put in order (see
/// [`FrameCache::live_exits`]) when they stay the only two for at least
/// this many columns; for fewer, the search costs more than it saves.
const MIN_PAIR_COLUMNS: u16 = 4;
/// Most wall textures one frame keeps (more are looked up at each use).
const MAX_KEPT_TEXTURES: usize = 64;
/// Most walls whose drawing one frame keeps worked out (more are worked
/// out at each column): the walls the walk actually passes, fewer than
/// the exits (the views of `scripts/digest`: up to 250 on E1M1, 219 on
/// E3M7; MAP12's widest views fill the table).
const MAX_PREPARED: usize = 256;

/// A wall a ray can leave a sector through.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Exit {
    /// The wall.
    pub(crate) id: WallId,
    /// Rays may leave through its front (the sector is in front).
    pub(crate) front: bool,
    /// Rays may leave through its back.
    pub(crate) back: bool,
    /// The slot of the sector on the other side, once looked up
    /// ([`EMPTY`] before).
    next: u16,
    /// The sector on the other side (`None`: one-sided).
    other: Option<SectorId>,
    /// Where [`FrameCache::prepared`] keeps how it is drawn, once worked
    /// out ([`EMPTY`] before).
    prep: u16,
    /// Its ends relative to the camera.
    pub(crate) ends: Ends,
    /// `ends.cross()`: the numerator of the depth of every hit on the
    /// wall, the same in every column, so worked out once per frame.
    pub(crate) cross: i128,
}

/// A wall's ends relative to the camera, and what follows from them
/// alone: worked out once per frame for the walls the walk meets.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Ends {
    /// `A - P` and `B - P`, 16.16 bits (below 2^33 in magnitude).
    pub(crate) ax: i64,
    pub(crate) ay: i64,
    pub(crate) bx: i64,
    pub(crate) by: i64,
}

impl Ends {
    /// The ends of `wall` seen from `view`.
    #[inline]
    pub(crate) fn new(view: &View<'_>, wall: &Wall) -> Ends {
        let ax = wall.a.x.to_bits() as i64 - view.px;
        let ay = wall.a.y.to_bits() as i64 - view.py;
        let bx = wall.b.x.to_bits() as i64 - view.px;
        let by = wall.b.y.to_bits() as i64 - view.py;
        Ends { ax, ay, bx, by }
    }

    /// `(A - P) x (B - P)`, exact: its sign says which side of the wall's
    /// line the camera is on (negative: in front).
    #[inline]
    pub(crate) fn cross(&self) -> i128 {
        self.ax as i128 * self.by as i128 - self.ay as i128 * self.bx as i128
    }
}

/// The exits that may hold a column, from [`FrameCache::live_exits`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct Live {
    /// `spans[first..end]`.
    pub(crate) first: usize,
    pub(crate) end: usize,
    /// With exactly two, which of them the ray leaves through first if
    /// it crosses both beyond the last crossing (ties going to the exit
    /// first in the map's order), when known.
    pub(crate) nearer: Option<usize>,
}

/// The columns `[x0, end)` whose rays may leave a sector through exit
/// `exit`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Span {
    pub(crate) x0: u16,
    pub(crate) end: u16,
    pub(crate) exit: u16,
}

/// The exits of a sector.
#[derive(Copy, Clone, Debug)]
enum Exits {
    /// Not worked out yet.
    Unknown,
    /// `spans[start..end]` for the `start` the spans were built from,
    /// sorted by first column; `spans[start..live]` have ended (see
    /// [`FrameCache::live_exits`]), so only `live..end` is kept.
    Cached { live: u16, end: u16 },
    /// Too many to keep: walk the map's wall list.
    Uncached,
}

/// What a floor or ceiling shows, for a sector slot.
#[derive(Copy, Clone, Debug)]
enum Surf {
    /// Not kept (too many textures): looked up at each use.
    Unknown,
    /// One palette colour.
    Color(u8),
    /// `flats[i]`.
    Flat(u8),
    /// The sky.
    Sky,
}

/// A sector, decoded, its exits and its floor and ceiling.
#[derive(Copy, Clone, Debug)]
struct CachedSector {
    id: SectorId,
    sector: Sector,
    exits: Exits,
    /// While the walk is left of `memo_end`, `spans[memo..memo +
    /// memo_len]` are the only live exits (see
    /// [`FrameCache::live_exits`]).
    memo: u16,
    memo_end: u16,
    memo_len: u8,
    /// Of two: whether the first is the nearer left of column `switch`
    /// (the other from there on); `ordered` false if that is not known.
    ordered: bool,
    first_nearer: bool,
    switch: u16,
    floor: Surf,
    ceiling: Surf,
}

/// The per-frame tables both walks use: the sectors seen, decoded, with
/// their floor and ceiling textures, and the wall textures drawn.
pub(crate) struct SectorCache<'a> {
    /// Sector id to slot in `sectors` ([`EMPTY`]: none), open addressing.
    index: [u16; INDEX_SLOTS],
    sectors: HVec<CachedSector, MAX_CACHED_SECTORS>,
    /// The floor and ceiling textures of the sectors in slots.
    flats: HVec<(u16, Surface<'a>), MAX_FLATS>,
    /// The wall textures of the walls drawn, by id.
    kept: HVec<(u16, TextureView<'a>), MAX_KEPT_TEXTURES>,
}

/// The column walk's per-frame tables: the [`SectorCache`] (which it
/// derefs to), and each sector's exits, their columns and how the walls
/// the walk went through are drawn.
pub(crate) struct FrameCache<'a> {
    base: SectorCache<'a>,
    /// The columns whose rays may leave through each exit.
    spans: HVec<Span, MAX_CACHED_EXITS>,
    exits: HVec<Exit, MAX_CACHED_EXITS>,
    /// How the exits the walk went through are drawn.
    preps: HVec<Prepared, MAX_PREPARED>,
}

impl<'a> core::ops::Deref for FrameCache<'a> {
    type Target = SectorCache<'a>;

    fn deref(&self) -> &SectorCache<'a> {
        &self.base
    }
}

impl<'a> core::ops::DerefMut for FrameCache<'a> {
    fn deref_mut(&mut self) -> &mut SectorCache<'a> {
        &mut self.base
    }
}

/// Where a sector's data is: a slot of the cache, or (the cache full)
/// the sector itself.
#[derive(Copy, Clone, Debug)]
pub(crate) enum SectorRef {
    /// Slot `n`.
    Slot(u16),
    /// Not cached.
    Direct(Sector),
}

impl<'a> FrameCache<'a> {
    /// Empty tables.
    pub(crate) fn new() -> FrameCache<'a> {
        FrameCache {
            base: SectorCache::new(),
            spans: HVec::new(),
            exits: HVec::new(),
            preps: HVec::new(),
        }
    }
}

impl<'a> SectorCache<'a> {
    /// Empty tables.
    pub(crate) fn new() -> SectorCache<'a> {
        SectorCache {
            index: [EMPTY; INDEX_SLOTS],
            sectors: HVec::new(),
            flats: HVec::new(),
            kept: HVec::new(),
        }
    }

    /// Texture `id` and where it is kept for [`FrameCache::kept_texture`]
    /// (`u8::MAX`: not kept, the table full); `None` if there is no such
    /// texture.
    pub(crate) fn keep_texture(
        &mut self,
        level: &Level<'a>,
        id: u16,
    ) -> Option<(TextureView<'a>, u8)> {
        if let Some(i) = self.kept.iter().position(|&(k, _)| k == id) {
            return self.kept.get(i).map(|&(_, t)| (t, i as u8));
        }
        let t = level.map().texture(id)?;
        match self.kept.push((id, t)) {
            Ok(()) => Some((t, (self.kept.len() - 1) as u8)),
            Err(_) => Some((t, u8::MAX)),
        }
    }

    /// The texture kept in `slot` by [`FrameCache::keep_texture`].
    #[inline]
    pub(crate) fn kept_texture(&self, slot: u8) -> Option<TextureView<'a>> {
        self.kept.get(slot as usize).map(|&(_, t)| t)
    }

    /// The slot of sector `id` (which must exist), filled on first use.
    pub(crate) fn sector(&mut self, level: &Level<'a>, view: &View<'a>, id: SectorId) -> SectorRef {
        let mut h = (id.0 as usize).wrapping_mul(0x9e37) % INDEX_SLOTS;
        while let Some(&slot) = self.index.get(h) {
            if slot == EMPTY {
                break;
            }
            if let Some(c) = self.sectors.get(slot as usize) {
                if c.id == id {
                    return SectorRef::Slot(slot);
                }
            }
            h = (h + 1) % INDEX_SLOTS;
        }
        self.new_sector(level, view, id, h)
    }

    /// [`FrameCache::sector`] for a sector not seen yet this frame, to go
    /// in index slot `h`.
    #[cold]
    #[inline(never)]
    fn new_sector(
        &mut self,
        level: &Level<'a>,
        view: &View<'a>,
        id: SectorId,
        h: usize,
    ) -> SectorRef {
        let sector = level.sector(id);
        if self.sectors.is_full() || slow::always() {
            return SectorRef::Direct(sector);
        }
        let floor = self.surf(level, view, sector.floor_texture, sector.floor_color);
        let ceiling = self.surf(level, view, sector.ceiling_texture, sector.ceiling_color);
        let slot = self.sectors.len();
        let entry = CachedSector {
            id,
            sector,
            exits: Exits::Unknown,
            memo: 0,
            memo_end: 0,
            memo_len: 0,
            ordered: false,
            first_nearer: false,
            switch: 0,
            floor,
            ceiling,
        };
        match (self.sectors.push(entry), self.index.get_mut(h)) {
            (Ok(()), Some(i)) => {
                *i = slot as u16;
                SectorRef::Slot(slot as u16)
            }
            _ => SectorRef::Direct(sector),
        }
    }

    /// A floor or ceiling for a slot: its surface, textures kept in
    /// `flats` (or, that full, looked up at each use).
    fn surf(&mut self, level: &Level<'a>, view: &View<'a>, texture: u16, color: u8) -> Surf {
        match resolve(level, view, texture, color) {
            Surface::Color(c) => Surf::Color(c),
            Surface::Sky => Surf::Sky,
            surface => match self.flats.iter().position(|&(id, _)| id == texture) {
                Some(i) => Surf::Flat(i as u8),
                None => match self.flats.push((texture, surface)) {
                    Ok(()) => Surf::Flat((self.flats.len() - 1) as u8),
                    Err(_) => Surf::Unknown,
                },
            },
        }
    }

    /// The decoded sector behind `r`.
    #[inline]
    pub(crate) fn get(&self, r: SectorRef) -> Sector {
        match r {
            SectorRef::Slot(s) => match self.sectors.get(s as usize) {
                Some(c) => c.sector,
                None => EMPTY_SECTOR,
            },
            SectorRef::Direct(s) => s,
        }
    }

    /// What the ceiling (or the floor) of the sector behind `r` shows.
    #[inline]
    pub(crate) fn surface(
        &self,
        level: &Level<'a>,
        view: &View<'a>,
        r: SectorRef,
        ceiling: bool,
    ) -> Surface<'a> {
        let (surf, s) = match r {
            SectorRef::Slot(slot) => match self.sectors.get(slot as usize) {
                Some(c) => (if ceiling { c.ceiling } else { c.floor }, c.sector),
                None => return Surface::Color(0),
            },
            SectorRef::Direct(s) => (Surf::Unknown, s),
        };
        match surf {
            Surf::Color(c) => Surface::Color(c),
            Surf::Sky => Surface::Sky,
            Surf::Flat(i) => match self.flats.get(i as usize) {
                Some(&(_, t)) => t,
                None => Surface::Color(0),
            },
            Surf::Unknown if ceiling => resolve(level, view, s.ceiling_texture, s.ceiling_color),
            Surf::Unknown => resolve(level, view, s.floor_texture, s.floor_color),
        }
    }
}

impl<'a> FrameCache<'a> {
    /// The slot of the sector on the other side of exit `i` (from the
    /// sector it belongs to), if the wall is a portal.
    pub(crate) fn next(
        &mut self,
        level: &Level<'a>,
        view: &View<'a>,
        i: usize,
    ) -> Option<SectorRef> {
        let e = self.exits.get(i)?;
        if e.next != EMPTY {
            return Some(SectorRef::Slot(e.next));
        }
        let r = self.base.sector(level, view, e.other?);
        if let (SectorRef::Slot(s), Some(e)) = (r, self.exits.get_mut(i)) {
            e.next = s;
        }
        Some(r)
    }

    /// The exits of the sector in slot `r` whose columns may hold column
    /// `x`: `Some(range)` of [`FrameCache::span`], or `None` if the
    /// sector's exits are not kept.
    ///
    /// The walk asks for columns left to right, so a span that has ended
    /// never holds a later column: the spans are sorted by first column
    /// when built, and every call moves those that have ended to the
    /// front, out of the range it returns. A caller that meets a span
    /// with `x0 > x` can stop (the rest start later still); one that meets
    /// a span that has ended may skip it.
    ///
    /// The exits live in column `x` stay so until one ends or the next
    /// starts: the sector remembers that column, and until then the call
    /// returns them without looking at the spans. Of two, it also says
    /// which is nearer in column `x` (see [`Live::nearer`]).
    #[inline]
    pub(crate) fn live_exits(
        &mut self,
        level: &Level<'_>,
        view: &View<'_>,
        r: SectorRef,
        x: u16,
    ) -> Option<Live> {
        let SectorRef::Slot(slot) = r else {
            return None;
        };
        let c = self.base.sectors.get(slot as usize)?;
        if x < c.memo_end {
            let first = c.memo as usize;
            let nearer = (c.memo_len == 2 && c.ordered)
                .then_some(first + ((x < c.switch) != c.first_nearer) as usize);
            return Some(Live {
                first,
                end: first + c.memo_len as usize,
                nearer,
            });
        }
        let (live, end) = match c.exits {
            Exits::Cached { live, end } => (live, end),
            Exits::Uncached => return None,
            Exits::Unknown => {
                let e = self.build_exits(level, view, c.id);
                if let Some(c) = self.base.sectors.get_mut(slot as usize) {
                    c.exits = e;
                }
                match e {
                    Exits::Cached { live, end } => (live, end),
                    _ => return None,
                }
            }
        };
        // Move the spans that have ended, among those that have started,
        // in front of `live`.
        let mut new_live = live as usize;
        let mut k = live as usize;
        while let Some(&sp) = self.spans.get(k) {
            if k >= end as usize || x < sp.x0 {
                break;
            }
            if x >= sp.end {
                self.spans.swap(k, new_live);
                new_live += 1;
            }
            k += 1;
        }
        // The live exits stay the only ones until one ends or the next
        // starts, and until then no span of this sector moves.
        let count = k - new_live;
        let mut memo_end = 0;
        if (1..=u8::MAX as usize).contains(&count) {
            memo_end = match self.spans.get(k) {
                Some(next) if k < end as usize => next.x0,
                _ => u16::MAX,
            };
            for sp in self.spans.get(new_live..k).unwrap_or(&[]) {
                memo_end = memo_end.min(sp.end);
            }
        }
        // Of two, which is nearer, and from which column the other is.
        let order = match self.spans.get(new_live..k) {
            // (Worth it for a few columns or more.)
            Some(&[a, b]) if memo_end >= x.saturating_add(MIN_PAIR_COLUMNS) => {
                self.pair_order(view, a.exit, b.exit, x, memo_end)
            }
            _ => None,
        };
        if let Some(c) = self.base.sectors.get_mut(slot as usize) {
            c.exits = Exits::Cached {
                live: new_live as u16,
                end,
            };
            c.memo = new_live as u16;
            c.memo_end = memo_end;
            c.memo_len = count as u8;
            c.ordered = order.is_some();
            (c.first_nearer, c.switch) = order.unwrap_or((false, 0));
        }
        let nearer = order.map(|(first_nearer, _)| new_live + !first_nearer as usize);
        Some(Live {
            first: new_live,
            end: k,
            nearer,
        })
    }

    /// Which of exits `a` and `b`, both live in columns `[x, end)`, a ray
    /// leaves through first: `(a is nearer in column x, the first column
    /// from which the other is)`. `None` if an exit can be left both ways
    /// (the camera on its line), the order then unknown.
    ///
    /// Hits are `t = n / d` with `d = s (D x v)` for the wall's vector `v`
    /// and `s = -1` when it is left through its front (so that `d > 0`),
    /// `n = s (A - P) x (B - P)`. Cross-multiplying, `t_a < t_b` exactly
    /// when `s_a s_b (D x W) < 0` for the one vector
    /// `W = cross_a v_b - cross_b v_a`; and as the rays turn across the
    /// columns, the sign of `D x W` changes at most once (the module's
    /// note), so the nearer exit changes at most once, at a column found
    /// by a binary search. On a tie the exit first in the map's order is
    /// the nearer, as in the walk's comparison.
    #[inline(never)]
    fn pair_order(
        &self,
        rays: &impl Rays,
        a: u16,
        b: u16,
        x: u16,
        end: u16,
    ) -> Option<(bool, u16)> {
        let (ea, eb) = (self.exits.get(a as usize)?, self.exits.get(b as usize)?);
        if ea.front == ea.back || eb.front == eb.back {
            return None;
        }
        // Products below 2^67 * 2^34: no overflow in `i128`.
        let w = |e: &Exit| {
            (
                (e.ends.bx - e.ends.ax) as i128,
                (e.ends.by - e.ends.ay) as i128,
            )
        };
        let ((vax, vay), (vbx, vby)) = (w(ea), w(eb));
        let (wx, wy) = (
            ea.cross * vbx - eb.cross * vax,
            ea.cross * vby - eb.cross * vay,
        );
        // W shifted down to below 2^44, for a test in `i64` that usually
        // decides: W = 2^k W' + r with 0 <= r < 2^k, so D x W differs
        // from 2^k (D x W') by less than (|dx| + |dy|) 2^k <= 2^18 2^k.
        let k = (128 - wx.unsigned_abs().max(wy.unsigned_abs()).leading_zeros()).saturating_sub(44);
        let (sx, sy) = ((wx >> k) as i64, (wy >> k) as i64);
        let same = ea.front == eb.front;
        let a_first = a < b;
        let a_nearer = |x: u16| {
            let (dx, dy) = rays.ray(x as usize);
            // |D| <= 2^17 a component: below 2^62.
            let rough = dx * sy - dy * sx;
            let g = if rough.unsigned_abs() >= 1 << 19 {
                rough.signum() as i128
            } else {
                // |D| <= 2^17, |W| < 2^102.
                dx as i128 * wy - dy as i128 * wx
            };
            let g = if same { g } else { -g };
            g < 0 || (g == 0 && a_first)
        };
        let at_x = a_nearer(x);
        // The first column of (x, end) where the nearer one differs.
        let (mut lo, mut hi) = (x.saturating_add(1), end);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if a_nearer(mid) == at_x {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Some((at_x, lo))
    }

    /// Span `k`.
    #[inline]
    pub(crate) fn span(&self, k: usize) -> Option<Span> {
        self.spans.get(k).copied()
    }

    /// Exit `i`.
    #[inline]
    pub(crate) fn exit(&self, i: usize) -> Option<&Exit> {
        self.exits.get(i)
    }

    /// How exit `i` is drawn, if worked out this frame.
    #[inline]
    pub(crate) fn prepared(&self, i: usize) -> Option<&Prepared> {
        let e = self.exits.get(i)?;
        self.preps.get(e.prep as usize)
    }

    /// Remembers how exit `i` is drawn (replacing what was); `false` if
    /// there is no room (the caller then keeps it itself).
    pub(crate) fn set_prepared(&mut self, i: usize, prep: Prepared) -> bool {
        let Some(e) = self.exits.get_mut(i) else {
            return false;
        };
        if let Some(p) = self.preps.get_mut(e.prep as usize) {
            *p = prep;
            return true;
        }
        if self.preps.push(prep).is_err() {
            return false;
        }
        e.prep = (self.preps.len() - 1) as u16;
        true
    }

    #[cold]
    #[inline(never)]
    fn build_exits(&mut self, level: &Level<'_>, view: &View<'_>, id: SectorId) -> Exits {
        let start = self.exits.len();
        let mut memo = SidesMemo::default();
        for wid in level.sector_walls(id) {
            let wall = level.wall(wid);
            let front = wall.front == id;
            let back = wall.back == Some(id);
            // Which side the camera is on, exactly.
            let ends = Ends::new(view, &wall);
            let num = ends.cross();
            let front = front && num <= 0;
            let back = back && num >= 0;
            if !front && !back {
                continue;
            }
            // Walls of a loop share ends: B of one is A of the next.
            let (sa, sb) = (
                memo.get(view, ends.ax, ends.ay),
                memo.get(view, ends.bx, ends.by),
            );
            let mut span = (usize::MAX, 0usize);
            let mut add = |(lo, hi): (usize, usize)| {
                if lo < hi {
                    span = (span.0.min(lo), span.1.max(hi));
                }
            };
            if front {
                add(meet(sa.nonneg, sb.nonpos));
            }
            if back {
                add(meet(sa.nonpos, sb.nonneg));
            }
            if span.0 >= span.1 {
                continue;
            }
            let exit = Exit {
                id: wid,
                front,
                back,
                next: EMPTY,
                other: wall.other_side(id),
                prep: EMPTY,
                ends,
                cross: num,
            };
            let sp = Span {
                x0: span.0 as u16,
                end: span.1 as u16,
                exit: self.exits.len() as u16,
            };
            if self.exits.push(exit).is_err() || self.spans.push(sp).is_err() {
                self.exits.truncate(start);
                self.spans.truncate(start);
                return Exits::Uncached;
            }
        }
        if let Some(spans) = self.spans.get_mut(start..) {
            spans.sort_unstable_by_key(|s| s.x0);
        }
        Exits::Cached {
            live: start as u16,
            end: self.exits.len() as u16,
        }
    }
}

test_switch! {
    /// A switch for tests: every sector walked the slow way, as when the
    /// tables are full, to check that the tables change no pixel.
    slow
}

/// Which columns' rays a point lies on either side of: the columns whose
/// rays `D` have `D x P >= 0` and those with `D x P <= 0`, each a prefix
/// or a suffix of the screen (see the module's notes).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sides {
    pub(crate) nonneg: (usize, usize),
    pub(crate) nonpos: (usize, usize),
}

/// [`Sides`] of a point `(x, y)` (below 2^34 in magnitude): the sign of
/// `D x P` at both ends of the screen and, if it changes, a binary search
/// for where.
pub(crate) fn sides(rays: &impl Rays, x: i64, y: i64) -> Sides {
    let w = rays.columns();
    let sign = |(dx, dy): (i64, i64)| (dx * y - dy * x).signum();
    let g = |i: usize| sign(rays.ray(i));
    if w == 0 {
        return Sides::default();
    }
    let (all, none) = ((0, w), (0, 0));
    let (first, last) = rays.edge_rays();
    let (g0, g1) = (sign(first), sign(last));
    match (g0, g1) {
        (1, 1) => Sides {
            nonneg: all,
            nonpos: none,
        },
        (-1, -1) => Sides {
            nonneg: none,
            nonpos: all,
        },
        // Zero at column 0: one sign after it.
        (0, _) => Sides {
            nonneg: if g1 >= 0 { all } else { (0, 1) },
            nonpos: if g1 <= 0 { all } else { (0, 1) },
        },
        // Zero at the last column only.
        (_, 0) => {
            let end = (w - 1, w);
            if g0 > 0 {
                Sides {
                    nonneg: all,
                    nonpos: end,
                }
            } else {
                Sides {
                    nonneg: end,
                    nonpos: all,
                }
            }
        }
        _ => {
            // The first column whose sign is not g0's: bracketed from a
            // guess (g(lo) == g0, g(hi) != g0), then a binary search.
            let guess = rays.guess(x, y).clamp(1, w - 1);
            // `g_hi` is g(hi), kept as hi moves rather than asked again.
            let (mut lo, mut hi, mut g_hi) = (0, w - 1, g1);
            let mut step = 1;
            let g_guess = g(guess);
            if g_guess == g0 {
                lo = guess;
                while lo + step < hi {
                    let g_next = g(lo + step);
                    if g_next != g0 {
                        (hi, g_hi) = (lo + step, g_next);
                        break;
                    }
                    lo += step;
                    step *= 2;
                }
            } else {
                (hi, g_hi) = (guess, g_guess);
                while hi > lo + step {
                    let g_next = g(hi - step);
                    if g_next == g0 {
                        lo = hi - step;
                        break;
                    }
                    (hi, g_hi) = (hi - step, g_next);
                    step *= 2;
                }
            }
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                let g_mid = g(mid);
                if g_mid == g0 {
                    lo = mid;
                } else {
                    (hi, g_hi) = (mid, g_mid);
                }
            }
            // A zero at `hi` belongs to both sides.
            let (before, after) = if g_hi == 0 {
                ((0, hi + 1), (hi, w))
            } else {
                ((0, hi), (hi, w))
            };
            if g0 > 0 {
                Sides {
                    nonneg: before,
                    nonpos: after,
                }
            } else {
                Sides {
                    nonneg: after,
                    nonpos: before,
                }
            }
        }
    }
}

/// The last point [`sides`] was asked about.
#[derive(Default)]
struct SidesMemo {
    last: Option<((i64, i64), Sides)>,
}

impl SidesMemo {
    fn get(&mut self, rays: &impl Rays, x: i64, y: i64) -> Sides {
        match self.last {
            Some((p, s)) if p == (x, y) => s,
            _ => {
                let s = sides(rays, x, y);
                self.last = Some(((x, y), s));
                s
            }
        }
    }
}

/// Each column's ray.
pub(crate) trait Rays {
    /// Columns.
    fn columns(&self) -> usize;
    /// Column `x`'s ray, 16.16 bits (each component below 2^18).
    fn ray(&self, x: usize) -> (i64, i64);
    /// The rays of the first and the last column (which every [`sides`]
    /// looks at).
    fn edge_rays(&self) -> ((i64, i64), (i64, i64)) {
        (self.ray(0), self.ray(self.columns().saturating_sub(1)))
    }
    /// About the first column right of the point `(x, y)` (any column
    /// will do: it only starts the search).
    fn guess(&self, x: i64, y: i64) -> usize;
}

impl Rays for View<'_> {
    fn columns(&self) -> usize {
        self.width.clamp(1, MAX_SCREEN_WIDTH as i64) as usize
    }

    fn ray(&self, x: usize) -> (i64, i64) {
        View::ray(self, x)
    }

    #[inline]
    fn edge_rays(&self) -> ((i64, i64), (i64, i64)) {
        self.edge_rays
    }

    /// (More than a start here: the BSP walk's box test takes it, for
    /// points a map unit or more in front, as within a column before
    /// and two after the change of side; `bsp::box_columns_near`.)
    fn guess(&self, x: i64, y: i64) -> usize {
        // Where the point projects: k = side / depth, column
        // (k + 1) * width / 2.
        let (depth, side) = self.view_coords(x, y);
        if depth <= 0 {
            return 0;
        }
        let w = self.width;
        let k = crate::math::div_toward_zero(side.saturating_mul(w), depth).clamp(-2 * w, 2 * w);
        ((k + w) / 2).clamp(0, w) as usize
    }
}

/// The intersection of two column ranges.
pub(crate) fn meet(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    (a.0.max(b.0), a.1.min(b.1))
}

/// What a floor or ceiling texture shows (`color` if untextured).
fn resolve<'a>(level: &Level<'a>, view: &View<'a>, texture: u16, color: u8) -> Surface<'a> {
    match texture {
        NONE => Surface::Color(color),
        SKY if view.sky.is_some() => Surface::Sky,
        SKY => Surface::Color(color),
        t => match level.map().texture(t) {
            None => Surface::Color(color),
            Some(v) => match (v.width, v.height, <&[u8; 4096]>::try_from(v.pixels)) {
                (64, 64, Ok(pixels)) => Surface::Flat64(pixels),
                _ => Surface::Flat(v),
            },
        },
    }
}

/// What a slot that is not there reads as (never, after `sector`).
const EMPTY_SECTOR: Sector = Sector {
    floor: crate::math::Fx::ZERO,
    ceiling: crate::math::Fx::ZERO,
    light: 0,
    floor_color: 0,
    ceiling_color: 0,
    wall_color: 0,
    floor_texture: crate::format::NONE,
    ceiling_texture: crate::format::NONE,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Angle, Fx};

    /// The rays [`View::ray`] gives a `width`-wide screen facing
    /// `angle` (1/64 degrees).
    fn rays(width: usize, angle: i32) -> [(i32, i32); MAX_SCREEN_WIDTH] {
        let (c, s) = Angle::from_degrees(Fx::from_bits(angle << 10)).cos_sin();
        let (fx, fy) = (c.to_bits() as i64, s.to_bits() as i64);
        let (rx, ry) = (fy, -fx);
        let w = width as i64;
        core::array::from_fn(|x| {
            let k = ((2 * x as i64 + 1 - w) << 16) / w;
            (
                (fx + rx * k / (1 << 16)) as i32,
                (fy + ry * k / (1 << 16)) as i32,
            )
        })
    }

    /// Rays from a table.
    struct Table<'r>(&'r [(i32, i32)]);

    impl Rays for Table<'_> {
        fn columns(&self) -> usize {
            self.0.len()
        }
        fn ray(&self, x: usize) -> (i64, i64) {
            let (dx, dy) = self.0[x];
            (dx as i64, dy as i64)
        }
        fn guess(&self, x: i64, y: i64) -> usize {
            // Any guess must do.
            (x ^ y).unsigned_abs() as usize % (self.0.len() + 3)
        }
    }

    /// A small deterministic generator.
    fn next(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 17
    }

    #[test]
    fn the_columns_on_one_side_of_a_point_are_one_range() {
        let mut seed = 7;
        for _ in 0..300 {
            let width = [1, 2, 3, 16, 320, 1024][next(&mut seed) as usize % 6];
            let angle = (next(&mut seed) % (360 * 64)) as i32;
            let all = rays(width, angle);
            let rays = &all[..width];
            for _ in 0..40 {
                // Points near and far, on the axes and off them.
                let scale = [1, 1 << 8, 1 << 16, 1 << 24, 1 << 33][next(&mut seed) as usize % 5];
                let mut coord = || {
                    let r = next(&mut seed) as i64;
                    match r % 7 {
                        0 => 0,
                        _ => (r % (2 * scale + 1)) - scale,
                    }
                };
                let (x, y) = (coord(), coord());
                let got = sides(&Table(rays), x, y);
                for negate in [false, true] {
                    let (lo, hi) = if negate { got.nonpos } else { got.nonneg };
                    for (i, &(dx, dy)) in rays.iter().enumerate() {
                        let c = dx as i64 * y - dy as i64 * x;
                        let want = if negate { c <= 0 } else { c >= 0 };
                        assert_eq!(
                            want,
                            lo <= i && i < hi,
                            "{width} {angle} {x} {y} {negate} {i}"
                        );
                    }
                }
            }
        }
    }

    /// Which of two exits a ray leaves through first, as `pair_order`
    /// works it out once for a run of columns, is what comparing the two
    /// exact depths in each column gives (ties to the exit first in the
    /// map's order): walls near and far, at every angle, both ways.
    #[test]
    fn the_nearer_of_two_exits_changes_at_most_once() {
        let mut seed = 11;
        let mut runs = 0;
        for _ in 0..4000 {
            let width = [2, 3, 16, 320, 1024][next(&mut seed) as usize % 5];
            let angle = (next(&mut seed) % (360 * 64)) as i32;
            let all = rays(width, angle);
            let rays = &all[..width];
            let scale = [1 << 12, 1 << 16, 1 << 24, 1 << 32][next(&mut seed) as usize % 4];
            let mut coord = || {
                let r = next(&mut seed) as i64;
                (r % (2 * scale + 1)) - scale
            };
            let mut cache = FrameCache::new();
            // Often the two share an end, as walls of one sector do: the
            // ray through the corner meets both at the same depth.
            // Often on a column's ray, where the two tie exactly.
            let (cx, cy, pick) = (coord(), coord(), coord());
            let on = rays[pick.unsigned_abs() as usize % width];
            let m = pick.abs() >> 17;
            let corner = match pick % 3 {
                0 => (cx, cy),
                _ => (on.0 as i64 * m, on.1 as i64 * m),
            };
            let shared = cx % 4 != 0;
            for id in 0..2u16 {
                let mut ends = Ends {
                    ax: coord(),
                    ay: coord(),
                    bx: coord(),
                    by: coord(),
                };
                if shared && id == 0 {
                    (ends.bx, ends.by) = corner;
                } else if shared {
                    (ends.ax, ends.ay) = corner;
                }
                let front = ends.cross() <= 0;
                let exit = Exit {
                    id: WallId(id),
                    front,
                    back: !front,
                    next: EMPTY,
                    other: None,
                    prep: EMPTY,
                    ends,
                    cross: ends.cross(),
                };
                assert!(cache.exits.push(exit).is_ok());
            }
            // The exact depth `(n, d)`, `d > 0`, where column `x`'s ray
            // leaves through exit `i`, if it does.
            let hit = |i: usize, x: usize| {
                let e = cache.exits[i];
                let (dx, dy) = (rays[x].0 as i64, rays[x].1 as i64);
                let ca = dx * e.ends.ay - dy * e.ends.ax;
                let cb = dx * e.ends.by - dy * e.ends.bx;
                let den = cb - ca;
                let leaves = if e.front {
                    den < 0 && ca >= 0 && cb <= 0
                } else {
                    den > 0 && ca <= 0 && cb >= 0
                };
                let s: i128 = if e.front { -1 } else { 1 };
                leaves.then_some((s * e.cross, s * den as i128))
            };
            let a_nearer = |x: usize| {
                let ((na, da), (nb, db)) = (hit(0, x).unwrap(), hit(1, x).unwrap());
                na * db <= nb * da
            };
            // Each run of columns where the rays leave through both.
            let mut x = 0;
            while x < width {
                if hit(0, x).is_none() || hit(1, x).is_none() {
                    x += 1;
                    continue;
                }
                let mut end = x;
                while end < width && hit(0, end).is_some() && hit(1, end).is_some() {
                    end += 1;
                }
                // From any column of the run on.
                let start = x + next(&mut seed) as usize % (end - x);
                let (first, switch) = cache
                    .pair_order(&Table(rays), 0, 1, start as u16, end as u16)
                    .unwrap();
                for c in start..end {
                    let want = a_nearer(c);
                    let got = if c < switch as usize { first } else { !first };
                    assert_eq!(got, want, "{width} {angle} {scale} {start}..{end} at {c}");
                }
                runs += 1;
                x = end;
            }
        }
        assert!(runs > 500, "{runs} runs");
    }
}
