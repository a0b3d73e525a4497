//! From keys, mouse and gamepad to one [`Input`] per tick.
//!
//! The game only ever sees [`Input`]: whole percentages of speed and whole
//! degrees of turn, the units of a demo line. Mouse and analog-stick
//! turning come in fractions of a degree; [`TurnCarry`] adds them up and
//! hands the game whole degrees, keeping the remainder for the next tick,
//! so nothing is lost and what the game received can be written to a demo
//! and replayed exactly.

use engine::game::Input;

use crate::demo::MAX_TURN;
use crate::keys::Action;

/// Forward and strafe percentages when running.
pub const RUN_SPEED: i32 = 100;
/// Forward and strafe percentages when walking.
pub const WALK_SPEED: i32 = 50;
/// Degrees turned per tick by the turn keys when running.
pub const RUN_TURN: i32 = 5;
/// Degrees turned per tick by the turn keys when walking.
pub const WALK_TURN: i32 = 3;

/// Which movement actions are held this tick (keyboard, gamepad buttons
/// and scripted keys together).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Forward.
    pub forward: bool,
    /// Back.
    pub back: bool,
    /// Strafe left.
    pub strafe_left: bool,
    /// Strafe right.
    pub strafe_right: bool,
    /// Turn left.
    pub turn_left: bool,
    /// Turn right.
    pub turn_right: bool,
    /// The run modifier.
    pub run: bool,
    /// The strafe modifier: the turn keys strafe.
    pub strafe: bool,
    /// Use.
    pub use_key: bool,
}

impl Held {
    /// The movement actions `is_held` says are held.
    pub fn from_actions(is_held: impl Fn(Action) -> bool) -> Held {
        Held {
            forward: is_held(Action::Forward),
            back: is_held(Action::Back),
            strafe_left: is_held(Action::StrafeLeft),
            strafe_right: is_held(Action::StrafeRight),
            turn_left: is_held(Action::TurnLeft),
            turn_right: is_held(Action::TurnRight),
            run: is_held(Action::Run),
            strafe: is_held(Action::Strafe),
            use_key: is_held(Action::Use),
        }
    }

    /// Either held.
    pub fn or(self, o: Held) -> Held {
        Held {
            forward: self.forward || o.forward,
            back: self.back || o.back,
            strafe_left: self.strafe_left || o.strafe_left,
            strafe_right: self.strafe_right || o.strafe_right,
            turn_left: self.turn_left || o.turn_left,
            turn_right: self.turn_right || o.turn_right,
            run: self.run || o.run,
            strafe: self.strafe || o.strafe,
            use_key: self.use_key || o.use_key,
        }
    }

    /// True when moving at running speed: the run key inverts
    /// `always_run`.
    pub fn running(self, always_run: bool) -> bool {
        always_run != self.run
    }

    /// The input these keys alone mean (no mouse, no stick): the same
    /// units as a demo line.
    pub fn input(self, always_run: bool) -> Input {
        compose(
            self,
            Analog::default(),
            always_run,
            &mut TurnCarry::default(),
        )
    }
}

/// Stick input for one tick, each axis -1.0 to 1.0 after the dead zone.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Analog {
    /// Forward (positive) or back.
    pub forward: f32,
    /// Right (positive) or left.
    pub strafe: f32,
    /// Left (positive) or right, as a fraction of the full turn speed.
    pub turn: f32,
}

/// Fractions of a degree of turn not yet given to the game, counted in
/// hundredths of a degree so that adding up is exact (mouse movement,
/// pixels times a whole sensitivity per 100 pixels, always is).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnCarry {
    hundredths: i64,
}

impl TurnCarry {
    /// Adds `hundredths` of a degree of turn (left positive).
    pub fn add_hundredths(&mut self, hundredths: i64) {
        // A wild jump (a warp gone wrong) must not spin the view for
        // seconds: a tick takes at most MAX_TURN anyway.
        let cap = MAX_TURN * 4 * 100;
        self.hundredths = self.hundredths.saturating_add(hundredths).clamp(-cap, cap);
    }

    /// Adds `degrees` of turn (left positive), rounded to a hundredth.
    pub fn add(&mut self, degrees: f64) {
        if degrees.is_finite() {
            let cap = (MAX_TURN * 4 * 100) as f64;
            self.add_hundredths((degrees * 100.0).round().clamp(-cap, cap) as i64);
        }
    }

    /// Takes the whole degrees due (rounded towards zero), keeping the
    /// fraction for later.
    pub fn take(&mut self) -> i32 {
        let whole = self.hundredths / 100;
        self.hundredths -= whole * 100;
        whole as i32
    }

    /// Degrees not yet handed out.
    pub fn pending(&self) -> f64 {
        self.hundredths as f64 / 100.0
    }

    /// Forgets anything pending.
    pub fn clear(&mut self) {
        self.hundredths = 0;
    }
}

/// One tick's input from held keys, stick positions and the turn carried
/// over (mouse movement since the last tick already added to `carry`).
/// Everything is clamped to a demo line's ranges, so a recording of it
/// reads back.
pub fn compose(held: Held, analog: Analog, always_run: bool, carry: &mut TurnCarry) -> Input {
    let running = held.running(always_run);
    let (speed, turn_speed) = if running {
        (RUN_SPEED, RUN_TURN)
    } else {
        (WALK_SPEED, WALK_TURN)
    };
    // Opposite keys cancel out.
    let axis = |plus: bool, minus: bool| i32::from(plus) - i32::from(minus);
    let turn_keys = axis(held.turn_left, held.turn_right);
    let (turn_keys, strafe_from_turn) = if held.strafe {
        (0, -turn_keys)
    } else {
        (turn_keys, 0)
    };
    let stick = |v: f32| (v * speed as f32).round() as i32;
    let forward = axis(held.forward, held.back) * speed + stick(analog.forward);
    let strafe = (axis(held.strafe_right, held.strafe_left) + strafe_from_turn).clamp(-1, 1)
        * speed
        + stick(analog.strafe);
    carry.add(f64::from(analog.turn) * f64::from(turn_speed));
    let turn = turn_keys * turn_speed + carry.take();
    let limit = MAX_TURN as i32;
    Input::new(
        forward.clamp(-RUN_SPEED, RUN_SPEED),
        strafe.clamp(-RUN_SPEED, RUN_SPEED),
        turn.clamp(-limit, limit),
    )
    .with_use(held.use_key)
}

/// How gamepad sticks and buttons map to actions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PadLayout {
    /// The N64 controller's: the stick moves forward and back and turns;
    /// the C buttons (a modern pad's right stick) strafe left and right and
    /// move forward and back; L and R strafe; Z (a modern pad's left
    /// trigger) is the run modifier; the D-pad moves like the arrow keys;
    /// Start shows the automap.
    N64,
    /// Dual analog: the left stick moves and strafes, the right stick
    /// turns; the left trigger is the run modifier; L1/R1 strafe; the
    /// D-pad moves like the arrow keys; Start shows the automap.
    Modern,
}

impl PadLayout {
    /// Every layout.
    pub const ALL: [PadLayout; 2] = [PadLayout::N64, PadLayout::Modern];

    /// The name in the settings file.
    pub fn name(self) -> &'static str {
        match self {
            PadLayout::N64 => "n64",
            PadLayout::Modern => "modern",
        }
    }

    /// The layout called `name` (case does not matter).
    pub fn from_name(name: &str) -> Option<PadLayout> {
        PadLayout::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }

    /// What the pad's sticks and held buttons mean this tick.
    pub fn map(self, pad: &PadState, deadzone: f32) -> (Held, Analog) {
        let dz = |v: f32| dead_zone(v, deadzone);
        let digital = Held {
            forward: pad.dpad_up,
            back: pad.dpad_down,
            turn_left: pad.dpad_left,
            turn_right: pad.dpad_right,
            strafe_left: pad.l,
            strafe_right: pad.r,
            run: pad.z,
            strafe: false,
            use_key: false,
        };
        let analog = match self {
            PadLayout::N64 => Analog {
                forward: (dz(pad.left_y) + dz(pad.right_y)).clamp(-1.0, 1.0),
                strafe: dz(pad.right_x),
                turn: -dz(pad.left_x),
            },
            PadLayout::Modern => Analog {
                forward: dz(pad.left_y),
                strafe: dz(pad.left_x),
                turn: -dz(pad.right_x),
            },
        };
        (digital, analog)
    }

    /// The one-press action of a pad button, if any.
    pub fn button_action(self, button: PadButton) -> Option<Action> {
        match button {
            PadButton::Start => Some(Action::Automap),
            PadButton::Select => Some(Action::Where),
            _ => None,
        }
    }
}

/// Buttons that do something once per press.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PadButton {
    /// Start.
    Start,
    /// Select, Back or Minus.
    Select,
    /// Anything else.
    Other,
}

/// A gamepad's state, in a modern pad's terms (gilrs's): the N64 layout
/// reads an N64 pad through an adapter or a modern pad the same way.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct PadState {
    /// Left stick, right positive, -1.0 to 1.0.
    pub left_x: f32,
    /// Left stick, up positive.
    pub left_y: f32,
    /// Right stick (the N64's C buttons), right positive.
    pub right_x: f32,
    /// Right stick, up positive.
    pub right_y: f32,
    /// D-pad up.
    pub dpad_up: bool,
    /// D-pad down.
    pub dpad_down: bool,
    /// D-pad left.
    pub dpad_left: bool,
    /// D-pad right.
    pub dpad_right: bool,
    /// Left shoulder (L, L1).
    pub l: bool,
    /// Right shoulder (R, R1).
    pub r: bool,
    /// Left trigger (the N64's Z, L2).
    pub z: bool,
}

/// `v` with the dead zone (percent of full deflection) cut out and the
/// rest rescaled to reach 1.0 at full deflection.
pub fn dead_zone(v: f32, deadzone_percent: f32) -> f32 {
    let dz = (deadzone_percent / 100.0).clamp(0.0, 0.95);
    let v = v.clamp(-1.0, 1.0);
    if v.abs() <= dz {
        0.0
    } else {
        v.signum() * (v.abs() - dz) / (1.0 - dz)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_demo_units() {
        let run = Held {
            forward: true,
            strafe_left: true,
            turn_right: true,
            ..Held::default()
        };
        assert_eq!(run.input(true), Input::new(100, -100, -5));
        // The run key walks when always_run is on, and runs when it is off.
        let walk = Held { run: true, ..run };
        assert_eq!(walk.input(true), Input::new(50, -50, -3));
        assert_eq!(walk.input(false), Input::new(100, -100, -5));
        assert_eq!(run.input(false), Input::new(50, -50, -3));
        let back = Held {
            back: true,
            strafe_right: true,
            turn_left: true,
            ..Held::default()
        };
        assert_eq!(back.input(true), Input::new(-100, 100, 5));
        assert_eq!(Held::default().input(true), Input::IDLE);
        let both = Held {
            forward: true,
            back: true,
            turn_left: true,
            turn_right: true,
            ..Held::default()
        };
        assert_eq!(both.input(true), Input::IDLE);
    }

    #[test]
    fn the_strafe_modifier_makes_turn_keys_strafe() {
        let left = Held {
            turn_left: true,
            strafe: true,
            ..Held::default()
        };
        assert_eq!(left.input(true), Input::new(0, -100, 0));
        let right = Held {
            turn_right: true,
            strafe: true,
            ..Held::default()
        };
        assert_eq!(right.input(true), Input::new(0, 100, 0));
        // Strafe key and modifier together are still full speed, not double.
        let both = Held {
            strafe_right: true,
            ..right
        };
        assert_eq!(both.input(true), Input::new(0, 100, 0));
    }

    #[test]
    fn fractional_turns_are_carried_not_lost() {
        let mut carry = TurnCarry::default();
        let mut total = 0;
        // 0.4 degrees a tick for 10 ticks is 4 whole degrees, given out as
        // they become whole.
        let mut given = Vec::new();
        for _ in 0..10 {
            carry.add(0.4);
            let t = compose(Held::default(), Analog::default(), true, &mut carry).turn;
            given.push(t);
            total += i32::from(t);
        }
        assert_eq!(given, [0, 0, 1, 0, 1, 0, 0, 1, 0, 1]);
        assert_eq!(total, 4);
        assert_eq!(carry.pending(), 0.0);
        // Right turns are negative and truncate towards zero too.
        carry.add(-2.75);
        assert_eq!(carry.take(), -2);
        assert_eq!(carry.take(), 0);
        assert_eq!(carry.pending(), -0.75);
    }

    #[test]
    fn a_huge_mouse_jump_is_clamped_to_a_demo_turn() {
        let mut carry = TurnCarry::default();
        carry.add(1e9);
        let t = compose(Held::default(), Analog::default(), true, &mut carry);
        assert_eq!(t.turn, 360);
        carry.clear();
        carry.add(f64::NAN);
        assert_eq!(carry.pending(), 0.0);
    }

    #[test]
    fn sticks_add_to_keys_and_stay_in_range() {
        let mut carry = TurnCarry::default();
        let analog = Analog {
            forward: 0.5,
            strafe: -1.0,
            turn: 1.0,
        };
        let i = compose(Held::default(), analog, true, &mut carry);
        assert_eq!(i, Input::new(50, -100, 5));
        let i = compose(
            Held {
                forward: true,
                ..Held::default()
            },
            analog,
            true,
            &mut carry,
        );
        assert_eq!(i.forward, 100);
        // Walking halves the stick too; a half-turn stick carries.
        let half = Analog {
            turn: 0.5,
            ..Analog::default()
        };
        let walk = Held {
            run: true,
            ..Held::default()
        };
        let turns: Vec<i16> = (0..4)
            .map(|_| compose(walk, half, true, &mut carry).turn)
            .collect();
        assert_eq!(turns, [1, 2, 1, 2]);
    }

    #[test]
    fn dead_zones_cut_and_rescale() {
        assert_eq!(dead_zone(0.1, 20.0), 0.0);
        assert_eq!(dead_zone(-0.2, 20.0), 0.0);
        assert_eq!(dead_zone(1.0, 20.0), 1.0);
        assert_eq!(dead_zone(-1.0, 20.0), -1.0);
        assert!((dead_zone(0.6, 20.0) - 0.5).abs() < 1e-6);
        assert_eq!(dead_zone(2.0, 0.0), 1.0);
    }

    #[test]
    fn the_n64_layout_turns_with_the_stick_and_strafes_with_c() {
        let pad = PadState {
            left_x: 1.0,
            left_y: 1.0,
            right_x: -1.0,
            z: true,
            dpad_left: true,
            ..PadState::default()
        };
        let (held, analog) = PadLayout::N64.map(&pad, 0.0);
        assert_eq!(
            analog,
            Analog {
                forward: 1.0,
                strafe: -1.0,
                turn: -1.0
            }
        );
        assert!(held.run && held.turn_left && !held.forward);
        let (_, modern) = PadLayout::Modern.map(&pad, 0.0);
        assert_eq!(
            modern,
            Analog {
                forward: 1.0,
                strafe: 1.0,
                turn: 1.0
            }
        );
        assert_eq!(
            PadLayout::N64.button_action(PadButton::Start),
            Some(Action::Automap)
        );
        assert_eq!(PadLayout::from_name("N64"), Some(PadLayout::N64));
        assert_eq!(PadLayout::from_name("snes"), None);
    }
}
