//! Actions, key names and key bindings.
//!
//! Everything the player can do at the keyboard is an [`Action`]; the
//! [`Bindings`] say which keys do it. Key names are the ones the
//! configuration file and key scripts use: letters, digits, `F1`..`F15`,
//! and the names in [`NAMED_KEYS`] (case does not matter), plus the
//! either-side aliases `Shift`, `Ctrl` and `Alt`.

use minifb::Key;

/// Something a key can do.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Move forward (held).
    Forward,
    /// Move backward (held).
    Back,
    /// Strafe left (held).
    StrafeLeft,
    /// Strafe right (held).
    StrafeRight,
    /// Turn left (held).
    TurnLeft,
    /// Turn right (held).
    TurnRight,
    /// The run modifier (held): walks while held when `always_run` is on
    /// (the default), runs while held when it is off.
    Run,
    /// The strafe modifier (held): the turn keys strafe instead.
    Strafe,
    /// Use (held; acts once a press): the switch or door in front.
    Use,
    /// Show or hide the automap.
    Automap,
    /// Zoom the automap in (held).
    ZoomIn,
    /// Zoom the automap out (held).
    ZoomOut,
    /// Toggle noclip: a free camera that goes through walls.
    Noclip,
    /// Toggle fly: a camera that moves up and down freely.
    Fly,
    /// Fly up (held, in fly mode).
    FlyUp,
    /// Fly down (held, in fly mode).
    FlyDown,
    /// Print the position, sector and heights.
    Where,
    /// Write a screenshot next to the configuration file.
    Screenshot,
    /// Turn mouse turning on or off.
    MouseLook,
    /// Close the window.
    Quit,
}

impl Action {
    /// Every action, in the order the configuration file lists them.
    pub const ALL: [Action; 20] = [
        Action::Forward,
        Action::Back,
        Action::StrafeLeft,
        Action::StrafeRight,
        Action::TurnLeft,
        Action::TurnRight,
        Action::Run,
        Action::Strafe,
        Action::Use,
        Action::Automap,
        Action::ZoomIn,
        Action::ZoomOut,
        Action::Noclip,
        Action::Fly,
        Action::FlyUp,
        Action::FlyDown,
        Action::Where,
        Action::Screenshot,
        Action::MouseLook,
        Action::Quit,
    ];

    /// The action's name in the configuration file (`[keys]` section).
    pub fn name(self) -> &'static str {
        match self {
            Action::Forward => "forward",
            Action::Back => "back",
            Action::StrafeLeft => "strafe_left",
            Action::StrafeRight => "strafe_right",
            Action::TurnLeft => "turn_left",
            Action::TurnRight => "turn_right",
            Action::Run => "run",
            Action::Strafe => "strafe",
            Action::Use => "use",
            Action::Automap => "automap",
            Action::ZoomIn => "zoom_in",
            Action::ZoomOut => "zoom_out",
            Action::Noclip => "noclip",
            Action::Fly => "fly",
            Action::FlyUp => "fly_up",
            Action::FlyDown => "fly_down",
            Action::Where => "where",
            Action::Screenshot => "screenshot",
            Action::MouseLook => "mouse_look",
            Action::Quit => "quit",
        }
    }

    /// The action called `name` in the configuration file.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The keys bound to this action unless the configuration says
    /// otherwise: WASD and the arrows, like the source ports.
    pub fn default_keys(self) -> &'static [Key] {
        match self {
            Action::Forward => &[Key::W, Key::Up],
            Action::Back => &[Key::S, Key::Down],
            Action::StrafeLeft => &[Key::A],
            Action::StrafeRight => &[Key::D],
            Action::TurnLeft => &[Key::Left],
            Action::TurnRight => &[Key::Right],
            Action::Use => &[Key::E, Key::Space],
            Action::Run => &[Key::LeftShift, Key::RightShift],
            Action::Strafe => &[Key::LeftAlt, Key::RightAlt],
            Action::Automap => &[Key::Tab],
            Action::ZoomIn => &[Key::Equal, Key::NumPadPlus],
            Action::ZoomOut => &[Key::Minus, Key::NumPadMinus],
            Action::Noclip => &[Key::N],
            Action::Fly => &[Key::F],
            Action::FlyUp => &[Key::PageUp, Key::R],
            Action::FlyDown => &[Key::PageDown, Key::C],
            Action::Where => &[Key::P],
            Action::Screenshot => &[Key::F12],
            Action::MouseLook => &[Key::M],
            Action::Quit => &[Key::Escape],
        }
    }

    /// True for actions that do something once per press; false for
    /// actions that last while the key is held.
    pub fn is_toggle(self) -> bool {
        matches!(
            self,
            Action::Automap
                | Action::Noclip
                | Action::Fly
                | Action::Where
                | Action::Screenshot
                | Action::MouseLook
                | Action::Quit
        )
    }
}

/// A set of actions (held this tick, say).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionSet(u32);

impl ActionSet {
    fn bit(action: Action) -> u32 {
        1 << Action::ALL
            .iter()
            .position(|&a| a == action)
            .unwrap_or_default()
    }

    /// The actions `is_in` says are in.
    pub fn from_fn(is_in: impl Fn(Action) -> bool) -> ActionSet {
        let mut s = ActionSet::default();
        for a in Action::ALL {
            if is_in(a) {
                s.insert(a);
            }
        }
        s
    }

    /// Adds `action`.
    pub fn insert(&mut self, action: Action) {
        self.0 |= ActionSet::bit(action);
    }

    /// True if `action` is in.
    pub fn contains(self, action: Action) -> bool {
        self.0 & ActionSet::bit(action) != 0
    }

    /// Both sets together.
    pub fn union(self, other: ActionSet) -> ActionSet {
        ActionSet(self.0 | other.0)
    }
}

/// Keys with a name other than their letter, digit or `F` number, as the
/// configuration file spells them.
pub const NAMED_KEYS: &[(&str, Key)] = &[
    ("Up", Key::Up),
    ("Down", Key::Down),
    ("Left", Key::Left),
    ("Right", Key::Right),
    ("Space", Key::Space),
    ("Tab", Key::Tab),
    ("Enter", Key::Enter),
    ("Escape", Key::Escape),
    ("Backspace", Key::Backspace),
    ("Delete", Key::Delete),
    ("Insert", Key::Insert),
    ("Home", Key::Home),
    ("End", Key::End),
    ("PageUp", Key::PageUp),
    ("PageDown", Key::PageDown),
    ("LeftShift", Key::LeftShift),
    ("RightShift", Key::RightShift),
    ("LeftCtrl", Key::LeftCtrl),
    ("RightCtrl", Key::RightCtrl),
    ("LeftAlt", Key::LeftAlt),
    ("RightAlt", Key::RightAlt),
    ("LeftSuper", Key::LeftSuper),
    ("RightSuper", Key::RightSuper),
    ("Menu", Key::Menu),
    ("CapsLock", Key::CapsLock),
    ("NumLock", Key::NumLock),
    ("ScrollLock", Key::ScrollLock),
    ("Pause", Key::Pause),
    ("Apostrophe", Key::Apostrophe),
    ("Backquote", Key::Backquote),
    ("Backslash", Key::Backslash),
    ("Comma", Key::Comma),
    ("Equal", Key::Equal),
    ("LeftBracket", Key::LeftBracket),
    ("RightBracket", Key::RightBracket),
    ("Minus", Key::Minus),
    ("Period", Key::Period),
    ("Semicolon", Key::Semicolon),
    ("Slash", Key::Slash),
    ("NumPad0", Key::NumPad0),
    ("NumPad1", Key::NumPad1),
    ("NumPad2", Key::NumPad2),
    ("NumPad3", Key::NumPad3),
    ("NumPad4", Key::NumPad4),
    ("NumPad5", Key::NumPad5),
    ("NumPad6", Key::NumPad6),
    ("NumPad7", Key::NumPad7),
    ("NumPad8", Key::NumPad8),
    ("NumPad9", Key::NumPad9),
    ("NumPadDot", Key::NumPadDot),
    ("NumPadSlash", Key::NumPadSlash),
    ("NumPadAsterisk", Key::NumPadAsterisk),
    ("NumPadMinus", Key::NumPadMinus),
    ("NumPadPlus", Key::NumPadPlus),
    ("NumPadEnter", Key::NumPadEnter),
];

const LETTERS: [Key; 26] = [
    Key::A,
    Key::B,
    Key::C,
    Key::D,
    Key::E,
    Key::F,
    Key::G,
    Key::H,
    Key::I,
    Key::J,
    Key::K,
    Key::L,
    Key::M,
    Key::N,
    Key::O,
    Key::P,
    Key::Q,
    Key::R,
    Key::S,
    Key::T,
    Key::U,
    Key::V,
    Key::W,
    Key::X,
    Key::Y,
    Key::Z,
];

const DIGITS: [Key; 10] = [
    Key::Key0,
    Key::Key1,
    Key::Key2,
    Key::Key3,
    Key::Key4,
    Key::Key5,
    Key::Key6,
    Key::Key7,
    Key::Key8,
    Key::Key9,
];

const FUNCTION_KEYS: [Key; 15] = [
    Key::F1,
    Key::F2,
    Key::F3,
    Key::F4,
    Key::F5,
    Key::F6,
    Key::F7,
    Key::F8,
    Key::F9,
    Key::F10,
    Key::F11,
    Key::F12,
    Key::F13,
    Key::F14,
    Key::F15,
];

/// The keys a name means: one key, or two for the aliases `Shift`,
/// `Ctrl` and `Alt` (and `Esc` for `Escape`). Case does not matter.
/// `None` for a name that is no key.
pub fn parse_key(name: &str) -> Option<Vec<Key>> {
    let upper = name.to_ascii_uppercase();
    let one = |k: Key| Some(vec![k]);
    match upper.as_str() {
        "SHIFT" => return Some(vec![Key::LeftShift, Key::RightShift]),
        "CTRL" => return Some(vec![Key::LeftCtrl, Key::RightCtrl]),
        "ALT" => return Some(vec![Key::LeftAlt, Key::RightAlt]),
        "ESC" => return one(Key::Escape),
        _ => {}
    }
    let bytes = upper.as_bytes();
    if bytes.len() == 1 {
        let b = bytes[0];
        if b.is_ascii_uppercase() {
            return one(LETTERS[usize::from(b - b'A')]);
        }
        if b.is_ascii_digit() {
            return one(DIGITS[usize::from(b - b'0')]);
        }
    }
    if let Some(n) = upper.strip_prefix('F') {
        if let Ok(n) = n.parse::<usize>() {
            return (1..=FUNCTION_KEYS.len())
                .contains(&n)
                .then(|| vec![FUNCTION_KEYS[n - 1]]);
        }
    }
    NAMED_KEYS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, k)| vec![k])
}

/// The name [`parse_key`] reads back as `key`.
pub fn key_name(key: Key) -> String {
    if let Some(i) = LETTERS.iter().position(|&k| k == key) {
        return char::from(b'A' + i as u8).to_string();
    }
    if let Some(i) = DIGITS.iter().position(|&k| k == key) {
        return char::from(b'0' + i as u8).to_string();
    }
    if let Some(i) = FUNCTION_KEYS.iter().position(|&k| k == key) {
        return format!("F{}", i + 1);
    }
    NAMED_KEYS
        .iter()
        .find(|&&(_, k)| k == key)
        .map(|&(n, _)| n.to_string())
        .unwrap_or_else(|| format!("{key:?}"))
}

/// Which keys do which action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bindings {
    keys: Vec<Vec<Key>>,
}

impl Default for Bindings {
    fn default() -> Self {
        Bindings {
            keys: Action::ALL
                .iter()
                .map(|a| a.default_keys().to_vec())
                .collect(),
        }
    }
}

impl Bindings {
    fn index(action: Action) -> usize {
        Action::ALL
            .iter()
            .position(|&a| a == action)
            .unwrap_or_default()
    }

    /// The keys bound to `action`.
    pub fn keys(&self, action: Action) -> &[Key] {
        &self.keys[Bindings::index(action)]
    }

    /// Binds `action` to exactly `keys` (none: the action has no key).
    pub fn set(&mut self, action: Action, keys: Vec<Key>) {
        self.keys[Bindings::index(action)] = keys;
    }

    /// The actions `key` is bound to, in [`Action::ALL`] order.
    pub fn actions(&self, key: Key) -> impl Iterator<Item = Action> + '_ {
        Action::ALL
            .into_iter()
            .filter(move |&a| self.keys(a).contains(&key))
    }

    /// True when any key bound to `action` is down, as `is_down` says.
    pub fn held(&self, action: Action, is_down: impl Fn(Key) -> bool) -> bool {
        self.keys(action).iter().any(|&k| is_down(k))
    }

    /// The configuration-file spelling of `action`'s keys: names joined by
    /// `, `, or `none`.
    pub fn describe(&self, action: Action) -> String {
        let keys = self.keys(action);
        if keys.is_empty() {
            return "none".into();
        }
        keys.iter()
            .map(|&k| key_name(k))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for action in Action::ALL {
            assert_eq!(Action::from_name(action.name()), Some(action));
            for &key in action.default_keys() {
                assert_eq!(parse_key(&key_name(key)), Some(vec![key]), "{key:?}");
            }
        }
        for &(name, key) in NAMED_KEYS {
            assert_eq!(key_name(key), name);
        }
        for key in LETTERS.iter().chain(&DIGITS).chain(&FUNCTION_KEYS) {
            assert_eq!(parse_key(&key_name(*key)), Some(vec![*key]));
        }
    }

    #[test]
    fn key_names_ignore_case_and_have_aliases() {
        assert_eq!(parse_key("w"), Some(vec![Key::W]));
        assert_eq!(parse_key("pageup"), Some(vec![Key::PageUp]));
        assert_eq!(parse_key("f12"), Some(vec![Key::F12]));
        assert_eq!(parse_key("7"), Some(vec![Key::Key7]));
        assert_eq!(parse_key("esc"), Some(vec![Key::Escape]));
        assert_eq!(
            parse_key("Shift"),
            Some(vec![Key::LeftShift, Key::RightShift])
        );
        assert_eq!(parse_key("F16"), None);
        assert_eq!(parse_key("F0"), None);
        assert_eq!(parse_key("Hyper"), None);
        assert_eq!(parse_key(""), None);
    }

    #[test]
    fn default_bindings_are_the_documented_ones() {
        let b = Bindings::default();
        assert_eq!(b.describe(Action::Forward), "W, Up");
        assert_eq!(b.describe(Action::Automap), "Tab");
        assert_eq!(b.describe(Action::Run), "LeftShift, RightShift");
        assert_eq!(b.actions(Key::Tab).collect::<Vec<_>>(), [Action::Automap]);
        assert!(b.held(Action::Back, |k| k == Key::Down));
        assert!(!b.held(Action::Back, |k| k == Key::Up));
        let mut b = b;
        b.set(Action::Noclip, Vec::new());
        assert_eq!(b.describe(Action::Noclip), "none");
    }

    #[test]
    fn action_sets() {
        let mut s = ActionSet::default();
        assert!(!s.contains(Action::Quit));
        s.insert(Action::Quit);
        assert!(s.contains(Action::Quit) && !s.contains(Action::Forward));
        let t = ActionSet::from_fn(|a| a == Action::Forward);
        let u = s.union(t);
        assert!(u.contains(Action::Quit) && u.contains(Action::Forward));
        assert_eq!(ActionSet::from_fn(|_| true).0, (1 << Action::ALL.len()) - 1);
    }
}
