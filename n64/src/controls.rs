//! The controller: its raw state, its mapping to the engine's
//! [`Input`], and the button actions.
//!
//! The mapping produces exactly what a demo line says (`COUNT FORWARD
//! STRAFE TURN`): percentages of full speed and whole degrees per tick,
//! so a recorded session and a demo drive the game the same way on the
//! console and on the desktop.
//!
//! * Stick up/down: forward/back, proportional, up to 100%.
//! * Stick left/right: turn, proportional, up to [`MAX_TURN`] degrees per
//!   tick (the desktop's running turn speed), left positive.
//! * C-left / C-right: strafe left / right at 100%.
//! * A dead zone of [`DEAD_ZONE`] around the centre reads as zero: sticks
//!   rarely rest at exactly 0, and a resting stick must not creep.
//! * L / R: previous / next level; Start: play the embedded demo; Z held
//!   with Start: raise a test exception (a null pointer read; checks the
//!   crash report).
//! * D-pad left or right: low detail on and off; D-pad up or down: the
//!   status bar on and off (see [`crate::view_mode`]).

use engine::game::Input;

/// Joybus button bits, as the controller sends them.
pub mod button {
    /// A.
    pub const A: u16 = 0x8000;
    /// B.
    pub const B: u16 = 0x4000;
    /// Z trigger.
    pub const Z: u16 = 0x2000;
    /// Start.
    pub const START: u16 = 0x1000;
    /// D-pad up.
    pub const D_UP: u16 = 0x0800;
    /// D-pad down.
    pub const D_DOWN: u16 = 0x0400;
    /// D-pad left.
    pub const D_LEFT: u16 = 0x0200;
    /// D-pad right.
    pub const D_RIGHT: u16 = 0x0100;
    /// L trigger.
    pub const L: u16 = 0x0020;
    /// R trigger.
    pub const R: u16 = 0x0010;
    /// C-up.
    pub const C_UP: u16 = 0x0008;
    /// C-down.
    pub const C_DOWN: u16 = 0x0004;
    /// C-left.
    pub const C_LEFT: u16 = 0x0002;
    /// C-right.
    pub const C_RIGHT: u16 = 0x0001;
}

/// Stick readings within this distance of the centre count as centred.
pub const DEAD_ZONE: i32 = 10;
/// Stick reading that counts as full deflection (a new stick reaches
/// about 85, a worn one about 70).
pub const FULL_DEFLECTION: i32 = 70;
/// Degrees per tick at full sideways deflection: the desktop's turn speed
/// while running.
pub const MAX_TURN: i32 = 5;
/// Strafe percentage of a C-button.
pub const STRAFE_SPEED: i32 = 100;

/// One reading of a controller.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PadState {
    /// False when no controller answered.
    pub connected: bool,
    /// Held buttons ([`button`] bits).
    pub buttons: u16,
    /// Stick, right positive.
    pub stick_x: i8,
    /// Stick, up positive.
    pub stick_y: i8,
}

impl PadState {
    /// Whether all of `buttons` are held.
    pub fn holds(&self, buttons: u16) -> bool {
        self.buttons & buttons == buttons
    }
}

/// How far past the dead zone `value` is, scaled so that
/// [`FULL_DEFLECTION`] (or more) gives `full`, rounded to nearest, with
/// the stick's sign.
fn scale_axis(value: i8, full: i32) -> i32 {
    let v = i32::from(value);
    let past = (v.abs() - DEAD_ZONE).max(0);
    let span = FULL_DEFLECTION - DEAD_ZONE;
    let scaled = ((past * full + span / 2) / span).min(full);
    scaled * v.signum()
}

/// The engine input for one controller reading.
pub fn input_from_pad(pad: &PadState) -> Input {
    let strafe_axis = i32::from(pad.holds(button::C_RIGHT)) - i32::from(pad.holds(button::C_LEFT));
    Input::new(
        scale_axis(pad.stick_y, 100),
        strafe_axis * STRAFE_SPEED,
        // Stick right turns right, which is negative (left positive).
        -scale_axis(pad.stick_x, MAX_TURN),
    )
    // B is use, as in DOOM 64 (held: the game acts once a press).
    .with_use(pad.holds(button::B))
}

/// What a controller reading asks for beyond movement.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Actions {
    /// L pressed: switch to the previous level.
    pub previous_level: bool,
    /// R pressed: switch to the next level.
    pub next_level: bool,
    /// Start pressed (without Z): play the embedded demo.
    pub play_demo: bool,
    /// Start pressed with Z held: raise a test exception.
    pub test_exception: bool,
    /// D-pad left or right pressed: low detail on or off.
    pub toggle_low_detail: bool,
    /// D-pad up or down pressed: the status bar on or off.
    pub toggle_status_bar: bool,
    /// A pressed: open the level menu, or (in it) play the chosen level.
    pub menu: bool,
    /// B pressed: (in the menu) back to the level being played.
    pub back: bool,
    /// D-pad up pressed, or the stick pushed up past [`MENU_STICK`].
    pub up: bool,
    /// D-pad down pressed, or the stick pushed down past [`MENU_STICK`].
    pub down: bool,
}

/// How far the stick must be pushed to move the menu's selection (once
/// per push).
pub const MENU_STICK: i8 = 40;

/// Turns readings into actions on the press, not while held.
#[derive(Copy, Clone, Debug, Default)]
pub struct Buttons {
    held: u16,
    stick_y: i8,
}

impl Buttons {
    /// Starts with nothing held.
    pub fn new() -> Buttons {
        Buttons::default()
    }

    /// Takes the next reading and returns the actions of the buttons
    /// pressed since the last one.
    pub fn update(&mut self, pad: &PadState) -> Actions {
        let pressed = pad.buttons & !self.held;
        self.held = pad.buttons;
        let start = pressed & button::START != 0;
        let was = self.stick_y;
        self.stick_y = pad.stick_y;
        let pushed_up = pad.stick_y > MENU_STICK && was <= MENU_STICK;
        let pushed_down = pad.stick_y < -MENU_STICK && was >= -MENU_STICK;
        Actions {
            previous_level: pressed & button::L != 0,
            next_level: pressed & button::R != 0,
            play_demo: start && !pad.holds(button::Z),
            test_exception: start && pad.holds(button::Z),
            toggle_low_detail: pressed & (button::D_LEFT | button::D_RIGHT) != 0,
            toggle_status_bar: pressed & (button::D_UP | button::D_DOWN) != 0,
            menu: pressed & button::A != 0,
            back: pressed & button::B != 0,
            up: pressed & button::D_UP != 0 || pushed_up,
            down: pressed & button::D_DOWN != 0 || pushed_down,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pad(x: i8, y: i8, buttons: u16) -> PadState {
        PadState {
            connected: true,
            buttons,
            stick_x: x,
            stick_y: y,
        }
    }

    #[test]
    fn a_resting_stick_does_nothing() {
        for (x, y) in [(0, 0), (10, -10), (-7, 9), (10, 10)] {
            assert_eq!(input_from_pad(&pad(x, y, 0)), Input::IDLE, "{x},{y}");
        }
    }

    #[test]
    fn full_deflection_is_full_speed_and_turn() {
        assert_eq!(input_from_pad(&pad(0, 70, 0)), Input::new(100, 0, 0));
        assert_eq!(input_from_pad(&pad(0, 85, 0)), Input::new(100, 0, 0));
        assert_eq!(input_from_pad(&pad(0, -128, 0)), Input::new(-100, 0, 0));
        assert_eq!(input_from_pad(&pad(80, 0, 0)), Input::new(0, 0, -5));
        assert_eq!(input_from_pad(&pad(-80, 0, 0)), Input::new(0, 0, 5));
        assert_eq!(input_from_pad(&pad(127, 127, 0)), Input::new(100, 0, -5));
    }

    #[test]
    fn partial_deflection_is_proportional() {
        // Halfway through the live range: 10 + 30 = 40.
        assert_eq!(input_from_pad(&pad(0, 40, 0)), Input::new(50, 0, 0));
        assert_eq!(input_from_pad(&pad(0, -40, 0)), Input::new(-50, 0, 0));
        // 3 past the dead zone: 5% (rounded), and a 0.25-degree turn
        // rounds to none.
        assert_eq!(input_from_pad(&pad(13, 13, 0)), Input::new(5, 0, 0));
        assert_eq!(input_from_pad(&pad(40, 0, 0)), Input::new(0, 0, -3));
    }

    #[test]
    fn c_buttons_strafe_and_cancel_out() {
        assert_eq!(
            input_from_pad(&pad(0, 0, button::C_LEFT)),
            Input::new(0, -100, 0)
        );
        assert_eq!(
            input_from_pad(&pad(0, 0, button::C_RIGHT)),
            Input::new(0, 100, 0)
        );
        assert_eq!(
            input_from_pad(&pad(0, 0, button::C_LEFT | button::C_RIGHT)),
            Input::IDLE
        );
    }

    #[test]
    fn actions_fire_once_per_press() {
        let mut b = Buttons::new();
        let r = b.update(&pad(0, 0, button::R));
        assert!(r.next_level && !r.previous_level);
        assert_eq!(b.update(&pad(0, 0, button::R)), Actions::default());
        assert_eq!(b.update(&pad(0, 0, 0)), Actions::default());
        assert!(b.update(&pad(0, 0, button::L)).previous_level);
        let s = b.update(&pad(0, 0, button::START));
        assert!(s.play_demo && !s.test_exception);
        b.update(&pad(0, 0, button::Z));
        let crash = b.update(&pad(0, 0, button::Z | button::START));
        assert!(crash.test_exception && !crash.play_demo);
        let low = b.update(&pad(0, 0, button::D_RIGHT));
        assert!(low.toggle_low_detail && !low.toggle_status_bar);
        assert_eq!(b.update(&pad(0, 0, button::D_RIGHT)), Actions::default());
        let bar = b.update(&pad(0, 0, button::D_UP));
        assert!(bar.toggle_status_bar && !bar.toggle_low_detail && bar.up);
    }

    #[test]
    fn the_stick_moves_the_menu_once_per_push() {
        let mut b = Buttons::new();
        assert!(b.update(&pad(0, 60, 0)).up);
        assert!(!b.update(&pad(0, 80, 0)).up);
        assert!(!b.update(&pad(0, 20, 0)).up);
        assert!(b.update(&pad(0, 50, 0)).up);
        let down = b.update(&pad(0, -60, 0));
        assert!(down.down && !down.up);
        let a = b.update(&pad(0, 0, button::A));
        assert!(a.menu && !a.back);
        assert!(b.update(&pad(0, 0, button::B)).back);
    }
}
