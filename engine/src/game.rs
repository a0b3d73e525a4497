//! The fixed-tick simulation.
//!
//! [`Game::tick`] advances the world by one tick (1/35 s) given one tick of
//! [`Input`]. The game never reads a clock: a frontend calls `tick` 35 times
//! per second of its own time, a test calls it as fast as it likes, and the
//! same inputs give the same state, bit for bit, on every machine.
//!
//! One tick, in order:
//! 1. the player turns and, when on the ground, gains thrust from the input
//!    (DOOM's running thrust and friction, so DOOM's top speed); a use
//!    press sets off the wall special in front ([`crate::collide::use_line`]);
//! 2. every body slides by its velocity through the walls
//!    ([`crate::collide::mover`]); the velocity loses its component into
//!    each wall touched, and keeps the rest;
//! 3. overlapping bodies are pushed apart ([`crate::collide::push_apart`]),
//!    each push itself a wall-checked move; stable bodies gain the push as
//!    velocity, capped at their top speed;
//! 4. feet snap up onto a higher floor within the knee height (the view
//!    eases up after them), fall under gravity off ledges, and stay under
//!    the ceiling;
//! 5. friction;
//! 6. the keys the player touches are picked up ([`crate::specials::keys`]);
//!    a walk special whose wall the player's centre crossed is set off;
//! 7. every mover (a door, a lift) steps its plane, carrying or stopping at the
//!    bodies over it ([`crate::specials`]).
//!
//! An exit ends the level: [`Game::exit`] says how, and the game stands
//! still from then on.

use heapless::Vec as HVec;

use crate::collide::crossing::path_crosses_segment;
use crate::collide::mover::{pad_box, push_out, slide_move, support, Placement};
use crate::collide::push_apart::{push_apart, Disc, Separation};
use crate::collide::use_line::{use_target, UseTarget};
use crate::collide::BodyShape;
use crate::config::{player, MAX_BODIES, MAX_BODY_SIZE};
use crate::format::{kind, trigger, wall_action};
use crate::math::{wide, Angle, Fx, Vec2, WVec, Wide};
use crate::specials::{teleport, Destination, KeyColour, Outcome, PickedUp, World};
use crate::world::{Camera, Level, SectorId, WallId};

/// One tick of player input, in the units of a demo line.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// Percent of full forward speed, -100 (back) to 100.
    pub forward: i8,
    /// Percent of full sideways speed, -100 (left) to 100 (right).
    pub strafe: i8,
    /// Whole degrees to turn this tick, left positive.
    pub turn: i16,
    /// The use key is held (DOOM's use: a press acts once, however long
    /// it is held).
    pub press_use: bool,
}

impl Input {
    /// No input.
    pub const IDLE: Input = Input {
        forward: 0,
        strafe: 0,
        turn: 0,
        press_use: false,
    };

    /// An input with its percentages clamped to ±100.
    pub fn new(forward: i32, strafe: i32, turn: i32) -> Input {
        Input {
            forward: forward.clamp(-100, 100) as i8,
            strafe: strafe.clamp(-100, 100) as i8,
            turn: turn.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            press_use: false,
        }
    }

    /// The same input with the use key held (`on`) or not.
    pub fn with_use(self, on: bool) -> Input {
        Input {
            press_use: on,
            ..self
        }
    }
}

/// A moving round body: the player or a pushable entity.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Body {
    /// Where it is.
    pub at: Placement,
    /// Horizontal velocity, map units per tick.
    pub vel: Vec2,
    /// Vertical velocity, map units per tick (negative: falling).
    pub vz: Fx,
    /// Its dimensions.
    pub shape: BodyShape,
    /// Fastest horizontal speed after a push.
    pub max_speed: Fx,
    /// False until the body has spent a tick without touching an unstable
    /// one; pushes move unstable bodies but give them no speed.
    pub stable: bool,
    /// The texture it is drawn with, or [`crate::format::NONE`].
    pub sprite: u16,
    /// Its feet rest on the highest floor under it. Set by each tick's
    /// vertical step, where that floor is found anyway, so the next tick's
    /// thrust need not ask the level again (nothing moves in between).
    pub on_ground: bool,
}

/// The player's state as frontends, traces and tests see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayerState {
    /// Ticks since the game began.
    pub tick: u32,
    /// Centre.
    pub pos: Vec2,
    /// Height of the feet.
    pub z: Fx,
    /// Height of the eyes (eased after steps, kept under the ceiling).
    pub view_z: Fx,
    /// Facing.
    pub angle: Angle,
    /// The sector the centre is in.
    pub sector: SectorId,
    /// How the level ended, from the tick it did ([`Game::exit`]).
    pub exit: Option<Exit>,
    /// [`World::hash`]: the sectors' state and the movers.
    pub world: u32,
}

/// The game: a level, its bodies (the player is body 0) and the clock in
/// ticks.
#[derive(Clone, Debug)]
pub struct Game<'a> {
    /// The level as the map builds it; [`Game::level`] adds `world`.
    level: Level<'a>,
    world: World,
    bodies: HVec<Body, MAX_BODIES>,
    angle: Angle,
    /// Eye height above the feet; dips on steps and landings, then eases
    /// back to [`player::EYE_HEIGHT`].
    view_height: Fx,
    view_delta: Fx,
    tick: u32,
    /// The use key was held last tick (a press acts once).
    use_held: bool,
    /// How the level ended, if it has.
    exit: Option<Exit>,
    /// Ticks the player still stands still after a teleport.
    frozen: u8,
    /// What the last tick did that the player should be told.
    events: Events,
}

/// What a tick did that a frontend may tell the player (DOOM's message
/// line): a key picked up, a lock that refused.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// The key picked up (the last, if several were).
    pub picked_up: Option<PickedUp>,
    /// The locked special the player set off without its key (the last,
    /// if several were).
    pub locked: Option<Locked>,
}

/// A locked special that refused: the player lacked its key.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Locked {
    /// The key it needs.
    pub colour: KeyColour,
    /// It is a door opened from its own wall (DOOM says "to open this
    /// door" for these, "to activate this object" for a locked switch).
    pub door: bool,
}

/// How a level ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Exit {
    /// To the next level.
    Normal,
    /// To the secret level.
    Secret,
}

impl Exit {
    /// `"normal"` or `"secret"`, as traces name it.
    pub fn name(self) -> &'static str {
        match self {
            Exit::Normal => "normal",
            Exit::Secret => "secret",
        }
    }
}

/// The player's shape.
pub const PLAYER_SHAPE: BodyShape = BodyShape {
    radius: player::RADIUS,
    height: player::HEIGHT,
    knee: player::KNEE_HEIGHT,
};

/// How much faster the eyes rise each tick while catching up with the feet
/// (DOOM's `FRACUNIT / 4`). A `const`, so the literal is parsed at compile
/// time, not on every tick.
const VIEW_EASE: Fx = Fx::lit("0.25");
/// Below this speed on both axes, with no input, a body stops dead (DOOM's
/// `STOPSPEED`).
const STOP_SPEED: Fx = Fx::lit("0.0625");

/// Top speed of a pushable entity after a push.
pub const ENTITY_MAX_SPEED: Fx = Fx::lit("8");

/// A body's place in [`Game::bodies`]; the player is body 0. Bodies are
/// never removed, so an id stays good for the game's life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BodyId(pub u8);

// Every body's index fits in a `BodyId`.
const _: () = assert!(MAX_BODIES <= 256);

impl BodyId {
    /// The player.
    pub const PLAYER: BodyId = BodyId(0);
}

/// Why [`Game::spawn`] added no body.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SpawnError {
    /// [`MAX_BODIES`] are in play already.
    Full,
    /// The point is in no sector of the level.
    OutsideMap,
    /// The radius or height is not in `(0, MAX_BODY_SIZE]`, or the knee
    /// is negative or above the height.
    BadShape,
    /// The sprite names no texture of the map (and is not
    /// [`crate::format::NONE`]).
    BadSprite,
}

fn spawn(level: &Level<'_>, pos: Vec2, shape: BodyShape, max_speed: Fx, sprite: u16) -> Body {
    let sector = level.locate(pos).unwrap_or_default();
    let floor = level.sector(sector).floor;
    let mut at = Placement {
        pos,
        z: floor,
        sector,
    };
    // A spawn overlapping a wall is pushed clear if it can be.
    let mut contacts = HVec::new();
    let mut tested = 0;
    if let Some(p) = push_out(level, &shape, at, &mut contacts, &mut tested) {
        at = p;
    }
    Body {
        at,
        vel: Vec2::ZERO,
        vz: Fx::ZERO,
        shape,
        max_speed,
        stable: false,
        sprite,
        // Spawned on its sector's floor, which no floor under it is below.
        on_ground: true,
    }
}

impl<'a> Game<'a> {
    /// A new game at the map's player 1 start, with one body per pushable
    /// thing (as many as fit in [`MAX_BODIES`]).
    pub fn new(level: Level<'a>) -> Self {
        let start = level.map().player_start();
        let angle = Angle::from_degrees(start.angle);
        Game::with_player_at(level, Vec2::new(start.x, start.y), angle)
    }

    /// A new game with the player at `pos`, facing `angle`, feet on the
    /// floor of the sector there (a map editor's "test from here"); the
    /// map's player start is not used. The map's pushable things are
    /// bodies as in [`Game::new`]. [`SpawnError::OutsideMap`] if `pos` is
    /// in no sector. (A point overlapping a wall is pushed clear if it
    /// can be, as any spawn is.)
    pub fn starting_at(level: Level<'a>, pos: Vec2, angle: Angle) -> Result<Self, SpawnError> {
        if level.locate(pos).is_none() {
            return Err(SpawnError::OutsideMap);
        }
        Ok(Game::with_player_at(level, pos, angle))
    }

    fn with_player_at(level: Level<'a>, pos: Vec2, angle: Angle) -> Self {
        let mut bodies = HVec::new();
        let _ = bodies.push(spawn(
            &level,
            pos,
            PLAYER_SHAPE,
            player::MAX_SPEED,
            crate::format::NONE,
        ));
        for t in level.map().things() {
            if t.kind == kind::PUSHABLE {
                let shape = BodyShape {
                    radius: t.radius,
                    height: player::HEIGHT,
                    knee: player::KNEE_HEIGHT,
                };
                if bodies
                    .push(spawn(
                        &level,
                        Vec2::new(t.x, t.y),
                        shape,
                        ENTITY_MAX_SPEED,
                        t.sprite,
                    ))
                    .is_err()
                {
                    break;
                }
            }
        }
        Game {
            world: World::new(&level),
            level,
            bodies,
            angle,
            view_height: player::EYE_HEIGHT,
            view_delta: Fx::ZERO,
            tick: 0,
            use_held: false,
            exit: None,
            frozen: 0,
            events: Events::default(),
        }
    }

    /// Adds a pushable body (an entity of the game's own: a monster, a
    /// crate, a ball) standing on the floor at `pos`, drawn with texture
    /// `sprite` ([`crate::format::NONE`]: not drawn). It moves as the
    /// map's pushable things do: by its velocity each tick, through the
    /// walls, pushed apart from the other bodies, slowed by friction; set
    /// its velocity with [`Game::drive`]. A spawn overlapping a wall is
    /// pushed clear if it can be.
    pub fn spawn(
        &mut self,
        pos: Vec2,
        shape: BodyShape,
        sprite: u16,
    ) -> Result<BodyId, SpawnError> {
        let size_ok = |v: Fx| v > Fx::ZERO && v <= Fx::from_num(MAX_BODY_SIZE);
        if self.bodies.is_full() {
            return Err(SpawnError::Full);
        }
        if !size_ok(shape.radius) || !size_ok(shape.height) {
            return Err(SpawnError::BadShape);
        }
        if shape.knee < Fx::ZERO || shape.knee > shape.height {
            return Err(SpawnError::BadShape);
        }
        let textures = self.level.map().texture_count();
        if sprite != crate::format::NONE && usize::from(sprite) >= textures {
            return Err(SpawnError::BadSprite);
        }
        if self.level.locate(pos).is_none() {
            return Err(SpawnError::OutsideMap);
        }
        let level = self.level.with_state(self.world.sectors());
        let body = spawn(&level, pos, shape, ENTITY_MAX_SPEED, sprite);
        let id = BodyId(self.bodies.len() as u8);
        self.bodies.push(body).map_err(|_| SpawnError::Full)?;
        Ok(id)
    }

    /// Sets the horizontal velocity of body `id` (map units a tick; the
    /// next tick moves it, at most its top speed, [`ENTITY_MAX_SPEED`]
    /// for an entity). Friction acts on it after each move, so a body
    /// driven every tick keeps its speed and one left alone slows to a
    /// stop. The player's velocity is the input's: driving body 0 works
    /// but the next input adds to it. False, and nothing changes, if
    /// there is no body `id`.
    pub fn drive(&mut self, id: BodyId, vel: Vec2) -> bool {
        match self.bodies.get_mut(usize::from(id.0)) {
            Some(body) => {
                body.vel = vel;
                true
            }
            None => false,
        }
    }

    /// Body `id`, if there is one.
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        self.bodies.get(usize::from(id.0))
    }

    /// The level as it is this tick (its doors where they are, its
    /// switches flipped, its scrolling walls moved on).
    pub fn level(&self) -> Level<'_> {
        self.level
            .with_state(self.world.sectors())
            .with_switches(self.world.switches())
            .at_time(self.tick)
    }

    /// The level's changing part: sectors and movers.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// All bodies; the player is first.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Ticks since the game began.
    pub fn tick_count(&self) -> u32 {
        self.tick
    }

    /// The player's state.
    pub fn player(&self) -> PlayerState {
        let body = self.bodies.first().copied().unwrap_or_else(|| {
            spawn(
                &self.level,
                Vec2::ZERO,
                PLAYER_SHAPE,
                player::MAX_SPEED,
                crate::format::NONE,
            )
        });
        PlayerState {
            tick: self.tick,
            pos: body.at.pos,
            z: body.at.z,
            view_z: self.view_z(&body),
            angle: self.angle,
            sector: body.at.sector,
            exit: self.exit,
            world: self.world.hash(),
        }
    }

    fn view_z(&self, body: &Body) -> Fx {
        let ceiling = self.level().sector(body.at.sector).ceiling;
        (body.at.z + self.view_height)
            .min(ceiling - player::CEILING_VIEW_MARGIN)
            .max(body.at.z)
    }

    /// The camera at the player's eyes.
    pub fn camera(&self) -> Camera {
        // Not through `player`, which hashes the world.
        let Some(body) = self.bodies.first() else {
            let p = self.player();
            return Camera {
                pos: p.pos,
                eye_z: p.view_z,
                angle: p.angle,
                sector: p.sector,
            };
        };
        Camera {
            pos: body.at.pos,
            eye_z: self.view_z(body),
            angle: self.angle,
            sector: body.at.sector,
        }
    }

    /// How the level ended, once it has (an exit wall set off): the game
    /// then stands still, and [`Game::tick`] does nothing.
    pub fn exit(&self) -> Option<Exit> {
        self.exit
    }

    /// Gives the player a key of `colour`, as if picked up (a game's
    /// scripts, a cheat, a test): the locks of that colour open for it.
    pub fn give_key(&mut self, colour: KeyColour) {
        self.world.give_key(colour);
    }

    /// What the last tick did that the player should be told: a key
    /// picked up, a locked special refused.
    pub fn events(&self) -> Events {
        self.events
    }

    /// Advances the game by one tick (none once the level has ended).
    pub fn tick(&mut self, input: Input) {
        if self.exit.is_some() {
            return;
        }
        self.events = Events::default();
        self.tick = self.tick.wrapping_add(1);
        // Just teleported: the player neither moves nor turns, but can
        // use (DOOM's reactiontime).
        let input = if self.frozen > 0 {
            self.frozen -= 1;
            Input::IDLE.with_use(input.press_use)
        } else {
            input
        };
        self.apply_input(input);
        // Use acts on the press, from where the player stands, as DOOM's
        // P_PlayerThink uses lines before the player moves.
        if input.press_use && !self.use_held {
            self.press_use();
        }
        self.use_held = input.press_use;
        let level = self.level.with_state(self.world.sectors());
        let from = self.bodies.first().map(|b| b.at.pos);
        for body in self.bodies.iter_mut() {
            move_body(&level, body);
        }
        self.push_bodies_apart();
        let level = self.level.with_state(self.world.sectors());
        for (i, body) in self.bodies.iter_mut().enumerate() {
            let step = settle_vertically(&level, body);
            if i == 0 {
                if step > Fx::ZERO {
                    lag_eyes(&mut self.view_height, &mut self.view_delta, step);
                } else if step < Fx::ZERO {
                    // Landed from a fall: the knees give a little.
                    self.view_delta = step / 8;
                }
            }
            apply_friction(body, i == 0 && input != Input::IDLE);
            body.stable = true;
        }
        self.ease_view();
        if let Some(player) = self.bodies.first() {
            let (pos, z, shape) = (player.at.pos, player.at.z, player.shape);
            if let Some(key) = self.world.pick_up(&self.level, pos, z, &shape) {
                self.events.picked_up = Some(key);
            }
        }
        if let (Some(from), Some(player)) = (from, self.bodies.first()) {
            let to = player.at.pos;
            self.walk_over(from, to);
        }
        let before = self.bodies.first().map(|b| b.at.z);
        self.world.tick(&self.level, &mut self.bodies);
        if let (Some(before), Some(player)) = (before, self.bodies.first()) {
            // Carried up by a floor: the eyes lag as on a step.
            let rise = player.at.z - before;
            if rise > Fx::ZERO {
                lag_eyes(&mut self.view_height, &mut self.view_delta, rise);
            }
        }
        if let Some(player) = self.bodies.first() {
            self.world
                .stand_in(&self.level, player.at.sector, player.at.z);
        }
    }

    /// The player pressed use: the wall in front of it within reach, if it
    /// has a use special, is set off.
    fn press_use(&mut self) {
        let Some(player) = self.bodies.first() else {
            return;
        };
        let target = use_target(
            &self.level(),
            player.at.pos,
            self.angle.unit(),
            player::USE_RANGE,
        );
        if let UseTarget::Special(wall, special) = target {
            if special.trigger & trigger::USE != 0 {
                if let Some(index) = self.level.map().wall_special_index(wall.0) {
                    let _ = self.act_on(index);
                }
            }
        }
    }

    /// The player's centre went from `from` to `to` this tick: every walk
    /// special whose wall the path crosses is set off, nearest first, as
    /// DOOM's `P_TryMove` crosses each special line of a move; a teleport
    /// or an exit ends the walk (the player is no longer on that path).
    fn walk_over(&mut self, from: Vec2, to: Vec2) {
        if from == to || self.level.map().wall_special_count() == 0 {
            return;
        }
        // Crossings in path order, found one at a time (a map has few walk
        // specials; no list to hold them).
        let mut after: Option<(Wide, usize)> = None;
        while let Some((t, index)) = self.next_crossing(from, to, after) {
            after = Some((t, index));
            if let Outcome::Exit(_) | Outcome::Teleport(_) = self.act_on(index) {
                return;
            }
        }
    }

    /// The walk special whose wall the path `from -> to` crosses nearest
    /// after `after` (the path parameter and special of the last one
    /// taken; ties go in special order). Each walk special is tested
    /// against the path's box, cheaper than asking the blockmap for every
    /// wall near the path.
    fn next_crossing(
        &self,
        from: Vec2,
        to: Vec2,
        after: Option<(Wide, usize)>,
    ) -> Option<(Wide, usize)> {
        let map = *self.level.map();
        let (p, q) = (from.wide(), to.wide());
        let (lo, hi) = pad_box(p, q, Wide::ZERO);
        let mut next: Option<(Wide, usize)> = None;
        for k in 0..map.wall_special_count() {
            let special = map.wall_special_at(k);
            if special.trigger & trigger::WALK == 0 || self.world.is_spent(k) {
                continue;
            }
            let wall = self.level.wall(WallId(special.wall));
            // A teleporter works from its front only, so the way out of
            // one crosses its line back without sending the player again.
            if special.action == wall_action::TELEPORT && wall.side_of(from) > Wide::ZERO {
                continue;
            }
            let (a, b) = (wall.a.wide(), wall.b.wide());
            if a.x.max(b.x) < lo.x
                || a.x.min(b.x) > hi.x
                || a.y.max(b.y) < lo.y
                || a.y.min(b.y) > hi.y
            {
                continue;
            }
            let Some(c) = path_crosses_segment(p, q, a, b, 0) else {
                continue;
            };
            let key = (c.t, k);
            if after.is_some_and(|f| key <= f) {
                continue;
            }
            if next.is_none_or(|n| key < n) {
                next = Some(key);
            }
        }
        next
    }

    /// Sets off wall special `index` of the map (an index below
    /// [`MapView::wall_special_count`](crate::format::MapView::wall_special_count))
    /// as if the player had used or crossed its wall, from wherever the
    /// player is: a game's scripts open doors and start lifts this way.
    /// True if it acted (started a mover, turned a door round, or ended
    /// the level); false for an index past the list, a spent once-only
    /// special, a mover already at work, or a locked special whose key
    /// the player lacks.
    pub fn set_off(&mut self, index: usize) -> bool {
        !matches!(self.act_on(index), Outcome::Nothing | Outcome::Locked(_))
    }

    /// Sets off wall special `index` and carries out what it did: an exit
    /// ends the level, a teleport moves the player.
    fn act_on(&mut self, index: usize) -> Outcome {
        if self.exit.is_some() {
            return Outcome::Nothing;
        }
        let outcome = self.world.set_off(&self.level, index);
        match outcome {
            Outcome::Exit(exit) => self.exit = Some(exit),
            Outcome::Teleport(to) => self.teleport(to),
            Outcome::Locked(colour) => {
                let map = self.level.map();
                let action = map.wall_special_at(index).action;
                let door = wall_action::is_door(action) && action & wall_action::BACK_SECTOR != 0;
                self.events.locked = Some(Locked { colour, door });
            }
            Outcome::Nothing | Outcome::Acted => {}
        }
        outcome
    }

    /// Puts the player at `to`, on the floor there, facing its angle,
    /// stopped; it stands still for [`teleport::FREEZE_TICKS`] (a spot
    /// overlapping a wall is pushed clear, as a spawn is).
    fn teleport(&mut self, to: Destination) {
        let level = self.level.with_state(self.world.sectors());
        let Some(player) = self.bodies.first_mut() else {
            return;
        };
        *player = spawn(
            &level,
            to.pos,
            player.shape,
            player.max_speed,
            player.sprite,
        );
        self.angle = to.angle;
        self.view_height = player::EYE_HEIGHT;
        self.view_delta = Fx::ZERO;
        self.frozen = teleport::FREEZE_TICKS;
    }

    fn apply_input(&mut self, input: Input) {
        self.angle = self.angle.turned(Fx::from_num(input.turn));
        let Some(player) = self.bodies.first_mut() else {
            return;
        };
        if !player.on_ground {
            // No thrust in mid-air.
            return;
        }
        let facing = self.angle.unit();
        // Right of the facing: the facing turned -90 degrees.
        let right = Vec2::new(facing.y, -facing.x);
        let fwd = player::FORWARD_THRUST * Fx::from_num(input.forward) / 100;
        let side = player::STRAFE_THRUST * Fx::from_num(input.strafe) / 100;
        let thrust = facing
            .wide()
            .scale(wide(fwd))
            .add(right.wide().scale(wide(side)));
        player.vel = player.vel.wide().add(thrust).narrow();
    }

    fn push_bodies_apart(&mut self) {
        let n = self.bodies.len();
        if n < 2 {
            return;
        }
        let mut discs: HVec<Disc, MAX_BODIES> = HVec::new();
        let mut stable: HVec<bool, MAX_BODIES> = HVec::new();
        for b in self.bodies.iter() {
            let _ = discs.push(Disc {
                pos: b.at.pos,
                z: b.at.z,
                radius: b.shape.radius,
                height: b.shape.height,
            });
            let _ = stable.push(b.stable);
        }
        let mut out = [Separation::default(); MAX_BODIES];
        push_apart(&discs, &mut stable, &mut out);
        // The level as the movers left it: a shut door stops a push as it
        // stops a walk.
        let level = self.level.with_state(self.world.sectors());
        for ((body, sep), &is_stable) in self.bodies.iter_mut().zip(out.iter()).zip(stable.iter()) {
            if !sep.collided {
                continue;
            }
            // Walls win: the push is itself a checked move.
            let (at, _) = slide_move(&level, &body.shape, body.at, sep.adjust);
            let moved = at.pos.wide().sub(body.at.pos.wide());
            body.at = at;
            body.stable = is_stable;
            if is_stable {
                body.vel = cap_speed(body.vel.wide().add(moved), body.max_speed).narrow();
            }
        }
    }

    fn ease_view(&mut self) {
        // DOOM's P_CalcHeight: the offset accelerates back to eye height.
        if self.view_delta != Fx::ZERO || self.view_height != player::EYE_HEIGHT {
            self.view_height += self.view_delta;
            if self.view_height > player::EYE_HEIGHT {
                self.view_height = player::EYE_HEIGHT;
                self.view_delta = Fx::ZERO;
            }
            if self.view_height < player::EYE_HEIGHT / 2 {
                self.view_height = player::EYE_HEIGHT / 2;
                if self.view_delta <= Fx::ZERO {
                    self.view_delta = Fx::ONE;
                }
            }
            if self.view_height < player::EYE_HEIGHT {
                self.view_delta += VIEW_EASE;
            }
        }
    }
}

/// The feet rose by `rise` (a step, a lift): the eyes lag behind them
/// and catch up ([`Game::tick`]'s easing).
fn lag_eyes(view_height: &mut Fx, view_delta: &mut Fx, rise: Fx) {
    *view_height = (*view_height - rise).max(player::EYE_HEIGHT / 2);
    *view_delta = (player::EYE_HEIGHT - *view_height) / 8;
}

fn cap_speed(v: WVec, max: Fx) -> WVec {
    let max = wide(max);
    let len2 = v.length_squared();
    if len2 <= max * max {
        return v;
    }
    let len = v.length();
    if len == Wide::ZERO {
        return v;
    }
    WVec::new(v.x * max / len, v.y * max / len)
}

fn move_body(level: &Level<'_>, body: &mut Body) {
    let vel = cap_speed(body.vel.wide(), body.max_speed);
    let (at, outcome) = slide_move(level, &body.shape, body.at, vel);
    body.at = at;
    // Keep the velocity along the walls touched, drop the part into them.
    let mut v = vel;
    for push in outcome.contacts.iter() {
        let into = v.dot(*push);
        let len2 = push.length_squared();
        if into < Wide::ZERO && len2 > Wide::ZERO {
            v = v.sub(push.scale(into / len2));
        }
    }
    if outcome.refused > 0 && outcome.contacts.is_empty() {
        // Refused without sliding (a wedge, a blocked crossing): stop.
        v = WVec::ZERO;
    }
    body.vel = v.narrow();
}

/// Applies steps, gravity and the ceiling. Returns how far the feet rose
/// onto a step (positive) or the landing speed (negative) this tick, or 0.
fn settle_vertically(level: &Level<'_>, body: &mut Body) -> Fx {
    let s = support(level, &body.shape, &body.at);
    let mut event = Fx::ZERO;
    if body.at.z < s.floor {
        // Onto a step: the feet go straight up (the walls already
        // checked it is within the knee height).
        event = s.floor - body.at.z;
        body.at.z = s.floor;
        body.vz = Fx::ZERO;
    } else if body.at.z > s.floor {
        body.vz -= player::GRAVITY;
        body.at.z = (body.at.z + body.vz).max(s.floor);
        if body.at.z == s.floor {
            if body.vz < Fx::from_num(-8) {
                event = body.vz;
            }
            body.vz = Fx::ZERO;
        }
    }
    // The head stays under the ceiling where it can.
    if body.at.z + body.shape.height > s.ceiling {
        body.at.z = (s.ceiling - body.shape.height).max(s.floor);
    }
    body.on_ground = body.at.z <= s.floor;
    event
}

fn apply_friction(body: &mut Body, thrusting: bool) {
    // DOOM: stop dead below a small speed when there is no input.
    let stop = STOP_SPEED;
    if !thrusting && body.vel.x.abs() < stop && body.vel.y.abs() < stop {
        body.vel = Vec2::ZERO;
        return;
    }
    body.vel = Vec2::new(body.vel.x * player::FRICTION, body.vel.y * player::FRICTION);
}
