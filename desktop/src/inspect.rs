//! Noclip and fly: an inspection camera, detached from the game.
//!
//! The engine's [`Game`] keeps its player to itself (there is no way to
//! place the player from outside, and the frontend must not bend the
//! game's rules), so noclip and fly do not move the player: they detach a
//! camera that starts at the player's eyes and moves on its own, while
//! the game is paused. Turning both off snaps the view back to the player,
//! who is where they were, and the game resumes. Paused ticks are not
//! game ticks: traces and recordings skip them, so a recorded demo still
//! replays exactly.
//!
//! * **noclip** goes through walls; the camera's feet follow the floor of
//!   the sector under it (unless flying too).
//! * **fly** moves up and down freely (the fly-up and fly-down keys);
//!   without noclip it still collides with walls, through the engine's own
//!   mover ([`slide_move`]), as the player's body would at that height.
//!
//! Outside every sector (noclip can go there) the view is black and the
//! automap still draws.

use engine::collide::{slide_move, Placement};
use engine::config::player;
use engine::game::{Game, Input, PLAYER_SHAPE};
use engine::math::{wide, Angle, Fx, Vec2, WVec, Wide};
use engine::render::Camera;
use engine::world::{Level, SectorId};

/// Map units moved per tick at full forward input: about the player's top
/// running speed.
pub const MOVE_SPEED: i32 = 16;
/// Map units the fly keys move up or down per tick.
pub const FLY_SPEED: i32 = 8;

/// The sector id the camera reports when it is outside every sector (the
/// renderer draws black from a sector that does not exist).
pub const OUTSIDE: SectorId = SectorId(u16::MAX);

/// The inspection camera.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Inspector {
    /// Walls do not stop the camera.
    pub noclip: bool,
    /// The camera moves up and down freely.
    pub fly: bool,
    at: Placement,
    angle: Angle,
}

impl Inspector {
    /// A camera at the player's feet and facing, neither mode on yet.
    pub fn at_player(game: &Game<'_>) -> Inspector {
        let p = game.player();
        let at = game.bodies().first().map_or(
            Placement {
                pos: p.pos,
                z: p.z,
                sector: p.sector,
            },
            |b| b.at,
        );
        Inspector {
            noclip: false,
            fly: false,
            at,
            angle: p.angle,
        }
    }

    /// True while either mode is on (the game is paused).
    pub fn active(&self) -> bool {
        self.noclip || self.fly
    }

    /// Where the camera's feet are, and its sector ([`OUTSIDE`] outside
    /// the map).
    pub fn placement(&self) -> Placement {
        self.at
    }

    /// The camera's facing.
    pub fn angle(&self) -> Angle {
        self.angle
    }

    /// The eye height: the player's eye height over the feet.
    pub fn eye_z(&self) -> Fx {
        self.at.z.saturating_add(player::EYE_HEIGHT)
    }

    /// The view to render.
    pub fn camera(&self) -> Camera {
        Camera {
            pos: self.at.pos,
            eye_z: self.eye_z(),
            angle: self.angle,
            sector: self.at.sector,
        }
    }

    /// Moves the camera one tick: `input` in demo units (percent of
    /// [`MOVE_SPEED`], whole degrees), `rise` -1, 0 or 1 for the fly keys.
    pub fn tick(&mut self, level: &Level<'_>, input: Input, rise: i32) {
        self.angle = self.angle.turned(Fx::from_num(input.turn));
        let facing = self.angle.unit();
        let right = Vec2::new(facing.y, -facing.x);
        let speed = |pct: i8| wide(Fx::from_num(MOVE_SPEED)) * Wide::from_num(pct) / 100;
        let delta = facing
            .wide()
            .scale(speed(input.forward))
            .add(right.wide().scale(speed(input.strafe)));
        if self.noclip {
            let pos = clamp_to_map(self.at.pos.wide().add(delta));
            self.at.pos = pos;
            self.at.sector = level.locate(pos).unwrap_or(OUTSIDE);
        } else if delta != WVec::ZERO {
            // Only reachable while flying (one of the modes is on), and
            // only from inside the map: the mover keeps it there.
            if self.at.sector != OUTSIDE {
                self.at = slide_move(level, &PLAYER_SHAPE, self.at, delta).0;
            }
        }
        let inside = self.at.sector != OUTSIDE;
        let sector = inside.then(|| level.sector(self.at.sector));
        if self.fly {
            let step = Fx::from_num(FLY_SPEED * rise.signum());
            self.at.z = self.at.z.saturating_add(step);
            if !self.noclip {
                if let Some(s) = sector {
                    // Feet on or over the floor, eyes under the ceiling.
                    let top = s.ceiling - player::EYE_HEIGHT - player::CEILING_VIEW_MARGIN;
                    self.at.z = self.at.z.min(top).max(s.floor);
                }
            }
        } else if let Some(s) = sector {
            // Noclip without fly: walk over everything, at floor level.
            self.at.z = s.floor;
        }
    }
}

/// Keeps a noclip camera inside the range map coordinates can have.
fn clamp_to_map(p: WVec) -> Vec2 {
    let limit = Wide::from_num(engine::config::MAX_COORDINATE);
    WVec::new(p.x.clamp(-limit, limit), p.y.clamp(-limit, limit)).narrow()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_ROOMS: &str = include_str!("../tests/data/two_rooms.map");

    fn level(bytes: &[u8]) -> Level<'_> {
        Level::load(bytes).unwrap()
    }

    #[test]
    fn the_camera_starts_at_the_players_eyes() {
        let map = tools::compile_source(TWO_ROOMS, "two_rooms.map").unwrap();
        let game = Game::new(level(&map.bytes));
        let cam = Inspector::at_player(&game);
        assert!(!cam.active());
        assert_eq!(cam.camera(), game.camera());
    }

    #[test]
    fn noclip_goes_through_walls_and_follows_floors() {
        let map = tools::compile_source(TWO_ROOMS, "two_rooms.map").unwrap();
        let lvl = level(&map.bytes);
        let game = Game::new(lvl);
        let mut cam = Inspector::at_player(&game);
        cam.noclip = true;
        // Facing east from (128, 192): 40 ticks at 16 units is x 768, in
        // the right room, whose floor is 16.
        for _ in 0..40 {
            cam.tick(&lvl, Input::new(100, 0, 0), 0);
        }
        let at = cam.placement();
        assert_eq!(at.pos, Vec2::from_int(768, 192));
        assert_eq!(at.sector, SectorId(1));
        assert_eq!(at.z, Fx::from_num(16));
        // On through the east wall at 1024: outside.
        for _ in 0..20 {
            cam.tick(&lvl, Input::new(100, 0, 0), 0);
        }
        assert_eq!(cam.placement().sector, OUTSIDE);
        assert_eq!(cam.camera().sector, OUTSIDE);
        // And back in.
        for _ in 0..20 {
            cam.tick(&lvl, Input::new(-100, 0, 0), 0);
        }
        assert_eq!(cam.placement().sector, SectorId(1));
    }

    #[test]
    fn fly_without_noclip_stops_at_walls_and_stays_under_the_ceiling() {
        let map = tools::compile_source(TWO_ROOMS, "two_rooms.map").unwrap();
        let lvl = level(&map.bytes);
        let game = Game::new(lvl);
        let mut cam = Inspector::at_player(&game);
        cam.fly = true;
        // Up as far as it goes: the left room's ceiling is 128.
        for _ in 0..30 {
            cam.tick(&lvl, Input::IDLE, 1);
        }
        assert_eq!(cam.placement().z, Fx::from_num(128 - 41 - 4));
        // Turn to face west (18 x 10 degrees) and fly into the wall at 0:
        // the body stops one radius short.
        for _ in 0..18 {
            cam.tick(&lvl, Input::new(0, 0, 10), 0);
        }
        for _ in 0..30 {
            cam.tick(&lvl, Input::new(100, 0, 0), 0);
        }
        let x: f64 = cam.placement().pos.x.to_num();
        assert!((15.9..=16.1).contains(&x), "x = {x}");
        // Down to the floor and no further.
        for _ in 0..30 {
            cam.tick(&lvl, Input::IDLE, -1);
        }
        assert_eq!(cam.placement().z, Fx::ZERO);
    }

    #[test]
    fn noclip_and_fly_together_go_anywhere() {
        let map = tools::compile_source(TWO_ROOMS, "two_rooms.map").unwrap();
        let lvl = level(&map.bytes);
        let game = Game::new(lvl);
        let mut cam = Inspector::at_player(&game);
        cam.noclip = true;
        cam.fly = true;
        for _ in 0..40 {
            cam.tick(&lvl, Input::IDLE, 1);
        }
        assert_eq!(cam.placement().z, Fx::from_num(320));
        for _ in 0..3000 {
            cam.tick(&lvl, Input::new(100, 0, 0), 0);
        }
        assert_eq!(cam.placement().pos.x, Fx::from_num(32767));
    }
}
