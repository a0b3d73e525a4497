//! What the level does as the game plays: the sectors' changing state and
//! the movers that change it (DOOM's thinkers: doors, lifts, floors, and
//! the sectors' own lights), set off
//! by wall specials, where teleporters lead, the keys that locked
//! specials ask for ([`keys`]), and the switches in their other position
//! (DOOM's SW1/SW2 textures, [`crate::world::SwitchState`]).
//!
//! [`World`] holds a [`SectorState`] for each sector (up to
//! [`MAX_LIVE_SECTORS`]: sectors past it keep the map's heights and never
//! move) and the movers at work, in the order they started. Each tick the
//! game runs every mover once, in that order ([`World::tick`]); a mover
//! steps its plane and puts the bodies over it where the planes now say
//! ([`crate::collide::height_clip`]): a floor carries the bodies on it, a
//! closing door that meets a head goes back up, and nothing ends a tick
//! with a body that does not fit under its ceiling. Everything is in
//! fixed-size tables, and the same specials set off in the same ticks
//! give the same world, bit for bit ([`World::hash`]).

pub mod ceiling;
pub mod door;
pub mod floor;
pub mod keys;
pub mod lift;
pub mod light;
mod plane;
pub mod teleport;

use heapless::Vec as HVec;

use crate::config::{
    MAX_LIGHTS, MAX_LIVE_SECTORS, MAX_MOVERS, MAX_SECRETS, MAX_SPENT_SPECIALS, MAX_SWITCHES,
};
use crate::format::{trigger, wall_action, WallSpecialRecord};
use crate::game::{Body, Exit};
use crate::math::{Fx, Vec2};
use crate::world::{Level, SectorId, SectorState, SwitchState, WallId};
pub use ceiling::Ceiling;
pub use door::{Door, DoorKind, Motion};
pub use floor::Floor;
pub use keys::{KeyColour, Keys, PickedUp};
pub use lift::{Lift, LiftMotion};
pub use light::{Light, LightKind, Random};
use plane::Stage;
pub use teleport::Destination;

/// Something moving a sector.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mover {
    /// A door.
    Door(Door),
    /// A lift.
    Lift(Lift),
    /// A floor.
    Floor(Floor),
    /// A ceiling or crusher.
    Ceiling(Ceiling),
}

impl Mover {
    /// The sector it moves.
    pub fn sector(&self) -> SectorId {
        match self {
            Mover::Door(d) => d.sector,
            Mover::Lift(l) => l.sector,
            Mover::Floor(f) => f.sector,
            Mover::Ceiling(c) => c.sector,
        }
    }

    /// Whether it goes on for ever until stopped (a crusher, a perpetual
    /// platform).
    pub fn is_perpetual(&self) -> bool {
        match self {
            Mover::Lift(l) => l.perpetual,
            Mover::Ceiling(c) => c.crusher,
            _ => false,
        }
    }
}

/// What setting off a special did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing (every sector it names is busy or cannot move).
    Nothing,
    /// Something started or changed.
    Acted,
    /// The level ended.
    Exit(Exit),
    /// The player is to go here.
    Teleport(Destination),
    /// Nothing: the special is locked and the player lacks its key (a
    /// once-only special stays unspent).
    Locked(KeyColour),
}

/// The level's changing part: each sector's state, the movers at work and
/// the once-only specials already spent.
#[derive(Clone, Debug)]
pub struct World {
    sectors: HVec<SectorState, MAX_LIVE_SECTORS>,
    movers: HVec<Mover, MAX_MOVERS>,
    /// Indices (into the map's wall specials) of once-only specials that
    /// have acted, sorted.
    spent: HVec<u16, MAX_SPENT_SPECIALS>,
    /// The sectors' own lights, in sector order.
    lights: HVec<Light, MAX_LIGHTS>,
    /// The lights' random numbers.
    random: Random,
    /// The secret sectors the player has found, in the order found.
    secrets: HVec<u16, MAX_SECRETS>,
    /// The keys lying in the level and held.
    keys: Keys,
    /// The switches in their other position, in the order used.
    switches: HVec<SwitchState, MAX_SWITCHES>,
}

/// The sectors of `map` with `tag`, in sector order, among the first
/// `live` (those the world holds a state for).
pub(crate) fn tagged_sectors<'m>(
    map: &'m Level<'_>,
    tag: u16,
    live: usize,
) -> impl Iterator<Item = SectorId> + 'm {
    (0..map.sector_count().min(live))
        .filter(move |&i| map.map().sector(i).tag == tag)
        .map(|i| SectorId(i as u16))
}

/// How long a repeatable switch stays in its other position, in ticks
/// (DOOM's `BUTTONTIME`).
pub const SWITCH_TICKS: u16 = 35;

impl World {
    /// The world as `level`'s map builds it.
    pub fn new(level: &Level<'_>) -> World {
        let level = level.as_built();
        let mut sectors = HVec::new();
        let mut lights = HVec::new();
        let mut random = Random::START;
        for i in 0..level.sector_count().min(MAX_LIVE_SECTORS) {
            let id = SectorId(i as u16);
            let _ = sectors.push(SectorState::of(&level.sector(id)));
            let special = level.map().sector(i).special;
            if let Some(light) = Light::new(&level, id, special, &mut random) {
                // Past the table's end, lights stay as the map has them.
                let _ = lights.push(light);
            }
        }
        World {
            sectors,
            movers: HVec::new(),
            spent: HVec::new(),
            lights,
            random,
            secrets: HVec::new(),
            keys: Keys::new(&level),
            switches: HVec::new(),
        }
    }

    /// The switches in their other position.
    pub fn switches(&self) -> &[SwitchState] {
        &self.switches
    }

    /// The keys: which lie in the level, which the player holds.
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// The player now holds a key of `colour`.
    pub(crate) fn give_key(&mut self, colour: KeyColour) {
        self.keys.give(colour);
    }

    /// The player, of `shape`, stands at `pos` with its feet at `z`: the
    /// keys it touches are picked up. Returns the last one that was.
    pub(crate) fn pick_up(
        &mut self,
        level: &Level<'_>,
        pos: Vec2,
        z: Fx,
        shape: &crate::collide::BodyShape,
    ) -> Option<PickedUp> {
        if !self.keys.any_lying() {
            return None;
        }
        let live = level.with_state(&self.sectors);
        self.keys.touch(&live, pos, z, shape)
    }

    /// How many secret sectors the player has found.
    pub fn secrets_found(&self) -> usize {
        self.secrets.len()
    }

    /// The player's feet are at `z` in `sector`: if it is a secret not
    /// yet found and they touch its floor (when DOOM counts it), it is
    /// found now. True if this found one.
    pub(crate) fn stand_in(&mut self, level: &Level<'_>, sector: SectorId, z: Fx) -> bool {
        let i = usize::from(sector.0);
        if i >= level.sector_count()
            || level.map().sector(i).special != crate::format::sector_special::SECRET
            || self.secrets.contains(&sector.0)
        {
            return false;
        }
        if z != level.with_state(&self.sectors).sector(sector).floor {
            return false;
        }
        self.secrets.push(sector.0).is_ok()
    }

    /// The sector lights at work, in sector order.
    pub fn lights(&self) -> &[Light] {
        &self.lights
    }

    /// Every sector's state, by sector index.
    pub fn sectors(&self) -> &[SectorState] {
        &self.sectors
    }

    /// The movers at work, in the order they run.
    pub fn movers(&self) -> &[Mover] {
        &self.movers
    }

    /// Whether a mover is at work on `sector`.
    pub fn is_busy(&self, sector: SectorId) -> bool {
        self.movers.iter().any(|m| m.sector() == sector)
    }

    /// Whether once-only special `index` has acted.
    pub fn is_spent(&self, index: usize) -> bool {
        u16::try_from(index).is_ok_and(|i| self.spent.binary_search(&i).is_ok())
    }

    /// A hash of every sector's state, every mover and the spent
    /// specials (FNV-1a, 32 bits): equal worlds hash equal on every
    /// machine.
    pub fn hash(&self) -> u32 {
        let mut h = Fnv::new();
        for s in self.sectors.iter() {
            h.i32(s.floor.to_bits());
            h.i32(s.ceiling.to_bits());
            h.u32(u32::from(s.floor_texture) << 16 | u32::from(s.ceiling_texture));
            h.u32(u32::from(s.light));
        }
        for m in self.movers.iter() {
            match m {
                Mover::Door(d) => {
                    h.u32(1 << 16 | u32::from(d.sector.0));
                    h.u32(d.kind as u32 | (d.motion as u32) << 8 | u32::from(d.countdown) << 16);
                    h.i32(d.top.to_bits());
                    h.i32(d.speed.to_bits());
                    // Only a door with a wait of its own (Boom's) hashes
                    // it: DOOM's hash as they did.
                    if d.wait != d.kind.dooms_wait() {
                        h.u32(11 << 16 | u32::from(d.wait));
                    }
                }
                Mover::Lift(l) => {
                    h.u32(2 << 16 | u32::from(l.sector.0));
                    h.u32(l.motion as u32 | u32::from(l.countdown) << 16);
                    h.i32(l.low.to_bits());
                    h.i32(l.high.to_bits());
                    h.i32(l.speed.to_bits());
                    if l.wait != lift::WAIT {
                        h.u32(12 << 16 | u32::from(l.wait));
                    }
                    if l.perpetual {
                        h.u32(1);
                    }
                }
                Mover::Ceiling(c) => {
                    h.u32(6 << 16 | u32::from(c.sector.0));
                    h.i32(c.bottom.to_bits());
                    h.i32(c.top.to_bits());
                    h.i32(c.speed.to_bits());
                    h.u32(u32::from(c.down) | u32::from(c.crusher) << 1);
                }
                Mover::Floor(f) => {
                    h.u32(4 << 16 | u32::from(f.sector.0));
                    h.i32(f.dest.to_bits());
                    h.i32(f.speed.to_bits());
                    h.u32(u32::from(f.up));
                    // Only a floor that changes its flat hashes it, so
                    // that other floors hash as they did before.
                    if let Some(flat) = f.flat_at_end {
                        h.u32(10 << 16 | u32::from(flat));
                    }
                }
            }
        }
        for &s in self.spent.iter() {
            h.u32(u32::from(s));
        }
        // Only maps with lights hash them: a world without any hashes as
        // it did before lights ran.
        for l in self.lights.iter() {
            h.u32(3 << 16 | u32::from(l.sector.0));
            h.u32(u32::from(l.count) | u32::from(l.rising) << 8 | u32::from(l.min) << 16);
        }
        if !self.lights.is_empty() {
            h.u32(self.random.0);
        }
        for &s in self.secrets.iter() {
            h.u32(5 << 16 | u32::from(s));
        }
        // Only a player with keys hashes them.
        for &t in self.keys.taken() {
            h.u32(7 << 16 | u32::from(t));
        }
        if self.keys.held_bits() != 0 {
            h.u32(8 << 16 | u32::from(self.keys.held_bits()));
        }
        for s in self.switches.iter() {
            h.u32(9 << 16 | u32::from(s.wall));
            h.u32(u32::from(s.back_in));
        }
        h.0
    }

    /// Sets off wall special `index` of the map (the player used it or
    /// walked over it). Once-only specials act once; a locked one acts
    /// only while the player holds its key.
    pub(crate) fn set_off(&mut self, level: &Level<'_>, index: usize) -> Outcome {
        let map = *level.map();
        if index >= map.wall_special_count() || self.is_spent(index) {
            return Outcome::Nothing;
        }
        let special = map.wall_special_at(index);
        if let Some(colour) = KeyColour::of_lock(trigger::lock(special.trigger)) {
            if !self.keys.holds(colour) {
                return Outcome::Locked(colour);
            }
        }
        let outcome = self.act(level, &special);
        let acted = !matches!(outcome, Outcome::Nothing | Outcome::Locked(_));
        let used = acted && special.trigger & trigger::USE != 0;
        if used && map.switch(special.wall).is_some() {
            // DOOM's P_ChangeSwitchTexture: a repeatable switch flips
            // back after a second; a once-only one stays.
            if !self.switches.iter().any(|s| s.wall == special.wall) {
                let back_in = if special.trigger & trigger::REPEAT != 0 {
                    SWITCH_TICKS
                } else {
                    0
                };
                let _ = self.switches.push(SwitchState {
                    wall: special.wall,
                    back_in,
                });
            }
        }
        if acted && special.trigger & trigger::REPEAT == 0 {
            if let Ok(i) = u16::try_from(index) {
                if let Err(at) = self.spent.binary_search(&i) {
                    // A full list leaves the special usable again.
                    let _ = self.spent.insert(at, i);
                }
            }
        }
        outcome
    }

    fn act(&mut self, level: &Level<'_>, special: &WallSpecialRecord) -> Outcome {
        match special.action {
            wall_action::EXIT => return Outcome::Exit(Exit::Normal),
            wall_action::SECRET_EXIT => return Outcome::Exit(Exit::Secret),
            wall_action::TELEPORT => {
                return teleport::destination(level, special.tag)
                    .map_or(Outcome::Nothing, Outcome::Teleport)
            }
            wall_action::LIGHT_START_STROBE => return self.start_strobes(level, special.tag),
            _ => {}
        }
        if wall_action::is_light(special.action) {
            let map = level.as_built();
            return if special.tag != 0
                && light::set_tagged(&map, &mut self.sectors, special.tag, special.action)
            {
                Outcome::Acted
            } else {
                Outcome::Nothing
            };
        }
        if !wall_action::is_mover(special.action) {
            // The loader refuses actions it does not know.
            return Outcome::Nothing;
        }
        // Walls and tags never change: the map as built has them.
        let map = level.as_built();
        if special.action & wall_action::BACK_SECTOR != 0 {
            let Some(sector) = map.wall(WallId(special.wall)).back else {
                return Outcome::Nothing;
            };
            match self.movers.iter_mut().find(|m| m.sector() == sector) {
                // Boom's manual doors leave a busy door as it is.
                Some(Mover::Door(_)) if wall_action::is_boom_door(special.action) => {
                    return Outcome::Nothing
                }
                Some(Mover::Door(d)) => {
                    d.used_again();
                    return Outcome::Acted;
                }
                Some(_) => return Outcome::Nothing,
                None => return self.start(&map, sector, special),
            }
        }
        if special.tag == 0 {
            return Outcome::Nothing;
        }
        if wall_action::is_stop(special.action) {
            return self.stop(&map, special.tag, special.action);
        }
        if wall_action::is_stairs(special.action) {
            return self.build_stairs(&map, special.tag, special.action);
        }
        if special.action == wall_action::DONUT {
            return self.donut(&map, special.tag);
        }
        let mut outcome = Outcome::Nothing;
        for sector in tagged_sectors(&map, special.tag, self.sectors.len()) {
            if self.start(&map, sector, special) == Outcome::Acted {
                outcome = Outcome::Acted;
            }
        }
        outcome
    }

    /// Line special 17: each sector tagged `tag` that no mover holds gets
    /// a slow strobe from its light now, appended after the others (as
    /// DOOM's new thinkers are); past [`MAX_LIGHTS`] a sector keeps its
    /// light. DOOM gives a sector that already strobes a second strobe,
    /// and so does this.
    fn start_strobes(&mut self, level: &Level<'_>, tag: u16) -> Outcome {
        if tag == 0 {
            return Outcome::Nothing;
        }
        let map = level.as_built();
        let mut any = false;
        for id in tagged_sectors(&map, tag, self.sectors.len()) {
            if self.is_busy(id) {
                continue;
            }
            let live = map.with_state(&self.sectors);
            let strobe = Light::new(
                &live,
                id,
                crate::format::sector_special::STROBE_SLOW,
                &mut self.random,
            );
            if let Some(light) = strobe {
                any |= self.lights.push(light).is_ok();
            }
        }
        if any {
            Outcome::Acted
        } else {
            Outcome::Nothing
        }
    }

    /// Starts the mover `special`'s action names on `sector`, unless one
    /// is at work there already.
    fn start(&mut self, map: &Level<'_>, sector: SectorId, special: &WallSpecialRecord) -> Outcome {
        let action = special.action;
        if sector.0 as usize >= self.sectors.len() || self.is_busy(sector) {
            return Outcome::Nothing;
        }
        let live = map.with_state(&self.sectors);
        // The flat a platform takes as it starts: its wall's front sector's.
        let front_flat = wall_action::takes_front_flat(action).then(|| {
            live.sector(live.wall(WallId(special.wall)).front)
                .floor_texture
        });
        let mover = if wall_action::is_door(action) {
            Door::new(&live, sector, action).map(Mover::Door)
        } else if wall_action::is_floor(action) {
            Floor::new(&live, sector, action).map(Mover::Floor)
        } else if wall_action::is_ceiling(action) {
            Ceiling::new(&live, sector, action).map(Mover::Ceiling)
        } else {
            Lift::new(&live, sector, action, &mut self.random).map(Mover::Lift)
        };
        let Some(mover) = mover else {
            return Outcome::Nothing;
        };
        if self.movers.push(mover).is_err() {
            return Outcome::Nothing;
        }
        if let (Some(flat), Some(state)) = (front_flat, self.sectors.get_mut(usize::from(sector.0)))
        {
            state.floor_texture = flat;
        }
        Outcome::Acted
    }

    /// Stops the perpetual movers (crushers for
    /// [`wall_action::CEILING_CRUSHER_STOP`], platforms for
    /// [`wall_action::LIFT_STOP`]) of the sectors with `tag`, where they
    /// are.
    fn stop(&mut self, map: &Level<'_>, tag: u16, action: u8) -> Outcome {
        let before = self.movers.len();
        let crushers = action & !wall_action::BACK_SECTOR == wall_action::CEILING_CRUSHER_STOP;
        self.movers.retain(|m| {
            let i = usize::from(m.sector().0);
            let tagged = i < map.sector_count() && map.map().sector(i).tag == tag;
            let kind = match m {
                Mover::Ceiling(_) => crushers,
                Mover::Lift(_) => !crushers,
                _ => false,
            };
            !(tagged && kind && m.is_perpetual())
        });
        if self.movers.len() < before {
            Outcome::Acted
        } else {
            Outcome::Nothing
        }
    }

    /// Builds stairs from each sector with `tag` (DOOM's
    /// `EV_BuildStairs`): its floor rises one step; then the sector
    /// behind the first of its front walls with the same floor flat rises
    /// two, and so on from there, each step one higher.
    fn build_stairs(&mut self, map: &Level<'_>, tag: u16, action: u8) -> Outcome {
        let (size, speed) = if action & !wall_action::BACK_SECTOR == wall_action::STAIRS_8 {
            (Fx::from_num(8), floor::STAIRS_SPEED)
        } else {
            (Fx::from_num(16), floor::FAST_SPEED)
        };
        let mut outcome = Outcome::Nothing;
        for first in tagged_sectors(map, tag, self.sectors.len()) {
            if self.is_busy(first) {
                continue;
            }
            let live = map.with_state(&self.sectors);
            let flat = live.sector(first).floor_texture;
            let mut height = live.sector(first).floor.saturating_add(size);
            let mut step = Floor::rising_to(&live, first, height, speed);
            let mut sector = first;
            // Each sector of the stairs is a step: at most every sector.
            for _ in 0..self.sectors.len() {
                if self.movers.push(Mover::Floor(step)).is_err() {
                    return outcome;
                }
                outcome = Outcome::Acted;
                let live = map.with_state(&self.sectors);
                let mut next = None;
                for id in live.sector_walls(sector) {
                    let w = live.wall(id);
                    let Some(back) = w.back.filter(|&b| w.front == sector && b != sector) else {
                        continue;
                    };
                    if live.sector(back).floor_texture != flat {
                        continue;
                    }
                    // DOOM counts the step before it skips a busy sector.
                    height = height.saturating_add(size);
                    if self.is_busy(back) || usize::from(back.0) >= self.sectors.len() {
                        continue;
                    }
                    next = Some(back);
                    break;
                }
                let Some(back) = next else {
                    break;
                };
                sector = back;
                step = Floor::rising_to(&live, back, height, speed);
            }
        }
        outcome
    }

    /// Donuts round each sector with `tag` (DOOM's `EV_DoDonut`): the
    /// ring across the pillar's first wall rises, and the pillar goes
    /// down, to the floor of the sector across the first of the ring's
    /// two-sided walls that does not lead back to the pillar.
    fn donut(&mut self, map: &Level<'_>, tag: u16) -> Outcome {
        let mut outcome = Outcome::Nothing;
        for pillar in tagged_sectors(map, tag, self.sectors.len()) {
            if self.is_busy(pillar) {
                continue;
            }
            let live = map.with_state(&self.sectors);
            // (Vanilla DOOM reads past the map when the first wall has no
            // other side; Chocolate Doom and this skip it.)
            let Some(ring) = live
                .sector_walls(pillar)
                .next()
                .and_then(|w| live.wall(w).other_side(pillar))
            else {
                continue;
            };
            if ring == pillar || self.is_busy(ring) || usize::from(ring.0) >= self.sectors.len() {
                continue;
            }
            // DOOM takes the wall's back sector, which is the ring itself
            // on a wall drawn the other way (a donut that does nothing,
            // which no map ships); the other side is the same on every
            // wall that works in DOOM, and works on ours too.
            let beyond = live
                .sector_walls(ring)
                .filter_map(|w| live.wall(w).other_side(ring))
                .find(|&b| b != pillar && b != ring);
            let Some(beyond) = beyond else {
                continue;
            };
            let model = live.sector(beyond);
            let mut rise = Floor::rising_to(&live, ring, model.floor, floor::PLAT_SPEED);
            rise.flat_at_end = Some(model.floor_texture);
            let fall = Floor::moving_to(&live, pillar, model.floor, floor::PLAT_SPEED, false);
            if self.movers.push(Mover::Floor(rise)).is_err() {
                return outcome;
            }
            // The ring moves even if the pillar finds the table full.
            let _ = self.movers.push(Mover::Floor(fall));
            outcome = Outcome::Acted;
        }
        outcome
    }

    /// Runs every mover once, in the order they started, moving `bodies`
    /// with the planes. Movers that are done leave the list.
    pub(crate) fn tick(&mut self, level: &Level<'_>, bodies: &mut [Body]) {
        // Repeatable switches count down and flip back.
        if !self.switches.is_empty() {
            self.switches.retain_mut(|s| match s.back_in {
                0 => true,
                1 => false,
                _ => {
                    s.back_in -= 1;
                    true
                }
            });
        }
        // Lights first: DOOM made their thinkers at the level's start,
        // before any mover's.
        for light in self.lights.iter_mut() {
            if let Some(state) = self.sectors.get_mut(usize::from(light.sector.0)) {
                light.tick(state, &mut self.random);
            }
        }
        let mut stage = Stage {
            map: level.as_built(),
            sectors: &mut self.sectors,
            bodies,
        };
        self.movers.retain_mut(|m| match m {
            Mover::Door(d) => d.tick(&mut stage),
            Mover::Lift(l) => l.tick(&mut stage),
            Mover::Floor(f) => f.tick(&mut stage),
            Mover::Ceiling(c) => c.tick(&mut stage),
        });
    }
}

/// FNV-1a over 32-bit words, byte by byte, little end first.
struct Fnv(u32);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0x811c_9dc5)
    }

    fn u32(&mut self, v: u32) {
        for b in v.to_le_bytes() {
            self.0 ^= u32::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0193);
        }
    }

    fn i32(&mut self, v: i32) {
        self.u32(v as u32);
    }
}
