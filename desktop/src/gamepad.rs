//! Gamepads, through `gilrs` (the `gamepad` cargo feature, on by
//! default). The layouts themselves are in [`crate::controls`]; this only
//! reads the pad.

use crate::config;
use crate::controls::{Analog, Held, PadLayout};
#[cfg(feature = "gamepad")]
use crate::controls::{PadButton, PadState};
use crate::keys::Action;

/// One frame's reading of the gamepads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PadInput {
    /// Buttons held, as movement actions.
    pub held: Held,
    /// Stick positions.
    pub analog: Analog,
    /// One-press actions pressed since the last reading.
    pub pressed: Vec<Action>,
}

/// The gamepads, if any can be read.
pub struct Gamepads {
    layout: PadLayout,
    deadzone: f32,
    #[cfg(feature = "gamepad")]
    gilrs: gilrs::Gilrs,
    #[cfg(feature = "gamepad")]
    active: Option<gilrs::GamepadId>,
}

impl std::fmt::Debug for Gamepads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gamepads")
            .field("layout", &self.layout)
            .field("deadzone", &self.deadzone)
            .finish()
    }
}

impl Gamepads {
    /// Starts reading gamepads as `settings` say. `Ok(None)` when they are
    /// turned off (or this build has no gamepad support); `Err` says why
    /// they cannot be read, for a note (the game goes on without them).
    pub fn open(settings: &config::Gamepad) -> Result<Option<Gamepads>, String> {
        if !settings.enabled {
            return Ok(None);
        }
        Gamepads::start(settings)
    }

    #[cfg(feature = "gamepad")]
    fn start(settings: &config::Gamepad) -> Result<Option<Gamepads>, String> {
        let gilrs = match gilrs::Gilrs::new() {
            Ok(g) => g,
            Err(gilrs::Error::NotImplemented(g)) => g,
            Err(e) => return Err(format!("gamepads cannot be read: {e}")),
        };
        Ok(Some(Gamepads {
            layout: settings.layout,
            deadzone: settings.deadzone as f32,
            gilrs,
            active: None,
        }))
    }

    #[cfg(not(feature = "gamepad"))]
    fn start(_settings: &config::Gamepad) -> Result<Option<Gamepads>, String> {
        Ok(None)
    }

    /// Reads every pending event and the active pad's state (the last
    /// pad used, or the first connected).
    #[cfg(feature = "gamepad")]
    pub fn poll(&mut self) -> PadInput {
        use gilrs::{Axis, Button, EventType};
        let mut out = PadInput::default();
        while let Some(event) = self.gilrs.next_event() {
            self.active = Some(event.id);
            if let EventType::ButtonPressed(button, _) = event.event {
                let b = match button {
                    Button::Start => PadButton::Start,
                    Button::Select => PadButton::Select,
                    _ => PadButton::Other,
                };
                out.pressed.extend(self.layout.button_action(b));
            }
        }
        let pad = self
            .active
            .map(|id| self.gilrs.gamepad(id))
            .filter(|g| g.is_connected())
            .or_else(|| self.gilrs.gamepads().map(|(_, g)| g).next());
        let Some(pad) = pad else {
            return out;
        };
        let state = PadState {
            left_x: pad.value(Axis::LeftStickX),
            left_y: pad.value(Axis::LeftStickY),
            right_x: pad.value(Axis::RightStickX),
            right_y: pad.value(Axis::RightStickY),
            dpad_up: pad.is_pressed(Button::DPadUp),
            dpad_down: pad.is_pressed(Button::DPadDown),
            dpad_left: pad.is_pressed(Button::DPadLeft),
            dpad_right: pad.is_pressed(Button::DPadRight),
            l: pad.is_pressed(Button::LeftTrigger),
            r: pad.is_pressed(Button::RightTrigger),
            z: pad.is_pressed(Button::LeftTrigger2),
        };
        let (held, analog) = self.layout.map(&state, self.deadzone);
        out.held = held;
        out.analog = analog;
        out
    }

    /// Without gamepad support there is nothing to read.
    #[cfg(not(feature = "gamepad"))]
    pub fn poll(&mut self) -> PadInput {
        let _ = (self.layout, self.deadzone);
        PadInput::default()
    }
}
