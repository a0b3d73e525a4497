//! The settings file: key bindings, mouse, gamepad and window settings.
//!
//! It lives in the platform's configuration folder
//! (`~/.config/portalcast/desktop.cfg` on Linux; see [`default_path`]),
//! or wherever `--config FILE` says, and is written with the defaults the
//! first time the window opens. The format is sections and `key = value`
//! lines, `#` to the end of a line being a comment:
//!
//! ```text
//! [keys]
//! forward = W, Up     # one or more key names, or `none`
//! [mouse]
//! enabled = true
//! ```
//!
//! A mistake never stops the program: each bad line is reported with the
//! file, the line and the bad value, and that setting keeps its default.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::controls::PadLayout;
use crate::keys::{parse_key, Action, Bindings};

/// The settings file's name inside the configuration folder.
pub const FILE_NAME: &str = "desktop.cfg";

/// Default mouse sensitivity: degrees turned per 100 pixels of movement.
pub const DEFAULT_SENSITIVITY: u32 = 12;
/// Largest mouse sensitivity.
pub const MAX_SENSITIVITY: u32 = 1000;
/// Default gamepad stick dead zone, in percent of full deflection.
pub const DEFAULT_DEADZONE: u32 = 20;
/// Default frame rate cap (0: none). `minifb`'s own default.
pub const DEFAULT_FPS_CAP: u32 = 250;
/// Largest frame rate cap.
pub const MAX_FPS_CAP: u32 = 1000;

/// Mouse settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mouse {
    /// Turn with the mouse (off by default; the `mouse_look` key toggles
    /// it while playing).
    pub enabled: bool,
    /// Degrees turned per 100 pixels of mouse movement, 1 to 1000.
    pub sensitivity: u32,
}

/// Gamepad settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Gamepad {
    /// Read gamepads at all.
    pub enabled: bool,
    /// Which stick and button does what.
    pub layout: PadLayout,
    /// Stick dead zone, percent of full deflection (0 to 90).
    pub deadzone: u32,
}

/// Window settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Video {
    /// Window scale, 1 to 8; 0 picks the largest whole scale that fits
    /// the screen. `--scale` overrides it.
    pub scale: usize,
    /// Show the picture 4:3 as DOOM was (320x200 as 320x240). `--aspect`
    /// turns it on.
    pub aspect: bool,
    /// Most frames shown per second; 0 for no cap. `--fps-cap` overrides
    /// it.
    pub fps_cap: u32,
}

/// Every setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The keys.
    pub bindings: Bindings,
    /// Run unless the run key is held (true, the default), or walk unless
    /// it is held.
    pub always_run: bool,
    /// The mouse.
    pub mouse: Mouse,
    /// Gamepads.
    pub gamepad: Gamepad,
    /// The window.
    pub video: Video,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bindings: Bindings::default(),
            always_run: true,
            mouse: Mouse {
                enabled: false,
                sensitivity: DEFAULT_SENSITIVITY,
            },
            gamepad: Gamepad {
                enabled: true,
                layout: PadLayout::N64,
                deadzone: DEFAULT_DEADZONE,
            },
            video: Video {
                scale: 0,
                aspect: false,
                fps_cap: DEFAULT_FPS_CAP,
            },
        }
    }
}

/// One mistake in a settings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong, naming the bad value.
    pub message: String,
    /// What is used instead (`forward = W, Up`), or `None` when the line
    /// is simply ignored.
    pub default: Option<String>,
}

impl ConfigError {
    /// The error as printed: `error: FILE:LINE: message`, then a note on
    /// what is used instead.
    pub fn render(&self, file: &str) -> String {
        let mut s = format!("error: {file}:{}: {}", self.line, self.message);
        match &self.default {
            Some(d) => {
                let _ = write!(s, "\nnote: using the default: {d}");
            }
            None => s.push_str("\nnote: the line is ignored"),
        }
        s
    }
}

const SECTIONS: [&str; 5] = ["keys", "controls", "mouse", "gamepad", "video"];

/// Reads settings from `text`. Every mistake is returned, and the setting
/// it concerns keeps its default; the rest of the file still applies.
pub fn parse(text: &str) -> (Config, Vec<ConfigError>) {
    let mut config = Config::default();
    let defaults = Config::default();
    let mut errors = Vec::new();
    // `Some("")` inside an unknown or broken section, whose lines are
    // skipped (the header was reported).
    let mut section: Option<&str> = None;
    let mut seen: Vec<(String, usize)> = Vec::new();
    let sections = || list(SECTIONS.iter().map(|s| format!("[{s}]")));
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut fail = |message: String, default: Option<String>| {
            errors.push(ConfigError {
                line,
                message,
                default,
            })
        };
        if let Some(header) = content.strip_prefix('[') {
            section = Some("");
            match header.strip_suffix(']').map(str::trim) {
                Some(name) => match SECTIONS.iter().find(|&&s| s == name) {
                    Some(&known) => section = Some(known),
                    None => fail(
                        format!(
                            "unknown section `[{name}]` (the sections are {}); \
                             its settings are ignored",
                            sections()
                        ),
                        None,
                    ),
                },
                None => fail(
                    format!("`{content}` is not a section header: write `[name]`"),
                    None,
                ),
            }
            continue;
        }
        let Some((key, value)) = content.split_once('=') else {
            fail(
                format!("`{content}` is not a setting: write `name = value`"),
                None,
            );
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        let sec = match section {
            None => {
                fail(
                    format!(
                        "`{key}` comes before any section: put it under one of {}",
                        sections()
                    ),
                    None,
                );
                continue;
            }
            Some("") => continue,
            Some(s) => s,
        };
        let full = format!("{sec}.{key}");
        match seen.iter().find(|(k, _)| *k == full) {
            Some(&(_, first)) => fail(
                format!(
                    "`{key}` is set twice in [{sec}] (first on line {first}); \
                     this line is ignored"
                ),
                None,
            ),
            None => seen.push((full, line)),
        }
        if errors.last().is_some_and(|e| e.line == line) {
            continue;
        }
        let result = match sec {
            "keys" => set_keys(&mut config, key, value),
            "controls" => match key {
                "always_run" => boolean(value).map(|b| config.always_run = b),
                _ => Err(unknown(sec, key, &["always_run"])),
            },
            "mouse" => match key {
                "enabled" => boolean(value).map(|b| config.mouse.enabled = b),
                "sensitivity" => {
                    number(value, 1, MAX_SENSITIVITY).map(|n| config.mouse.sensitivity = n)
                }
                _ => Err(unknown(sec, key, &["enabled", "sensitivity"])),
            },
            "gamepad" => match key {
                "enabled" => boolean(value).map(|b| config.gamepad.enabled = b),
                "layout" => PadLayout::from_name(value)
                    .map(|l| config.gamepad.layout = l)
                    .ok_or_else(|| {
                        format!(
                            "`{value}` is not a gamepad layout: use {}",
                            list(PadLayout::ALL.iter().map(|l| format!("`{}`", l.name())))
                        )
                    }),
                "deadzone" => number(value, 0, 90).map(|n| config.gamepad.deadzone = n),
                _ => Err(unknown(sec, key, &["enabled", "layout", "deadzone"])),
            },
            _ => match key {
                "scale" => number(value, 0, crate::args::MAX_SCALE as u32)
                    .map(|n| config.video.scale = n as usize),
                "aspect" => boolean(value).map(|b| config.video.aspect = b),
                "fps_cap" => number(value, 0, MAX_FPS_CAP).map(|n| config.video.fps_cap = n),
                _ => Err(unknown(sec, key, &["scale", "aspect", "fps_cap"])),
            },
        };
        if let Err(message) = result {
            errors.push(ConfigError {
                line,
                message: format!("`{key} = {value}`: {message}"),
                default: default_of(&defaults, sec, key),
            });
        }
    }
    (config, errors)
}

fn unknown(section: &str, key: &str, known: &[&str]) -> String {
    format!(
        "there is no setting `{key}` in [{section}] (there: {})",
        list(known.iter().map(|k| format!("`{k}`")))
    )
}

fn list(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

fn set_keys(config: &mut Config, key: &str, value: &str) -> Result<(), String> {
    let Some(action) = Action::from_name(key) else {
        let names: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
        return Err(format!(
            "there is no action `{key}` (the actions are {})",
            names.join(", ")
        ));
    };
    let mut keys = Vec::new();
    if !value.eq_ignore_ascii_case("none") {
        for name in value.split(',').map(str::trim) {
            if name.is_empty() {
                return Err("a key name is missing: separate key names with `,`".into());
            }
            match parse_key(name) {
                Some(k) => keys.extend(k),
                None => {
                    return Err(format!(
                        "`{name}` is not a key name (letters, digits, F1..F15, Up, Space, \
                         LeftShift, Shift, PageUp, NumPadPlus...: see the list in the README)"
                    ))
                }
            }
        }
    }
    config.bindings.set(action, keys);
    Ok(())
}

fn boolean(value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("`{value}` is neither `true` nor `false`")),
    }
}

fn number(value: &str, min: u32, max: u32) -> Result<u32, String> {
    match value.parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{value}` is not a whole number from {min} to {max}"
        )),
    }
}

/// `key = default` for the setting `section.key`, as the file spells it.
fn default_of(d: &Config, section: &str, key: &str) -> Option<String> {
    let value = match (section, key) {
        ("keys", k) => d.bindings.describe(Action::from_name(k)?),
        ("controls", "always_run") => d.always_run.to_string(),
        ("mouse", "enabled") => d.mouse.enabled.to_string(),
        ("mouse", "sensitivity") => d.mouse.sensitivity.to_string(),
        ("gamepad", "enabled") => d.gamepad.enabled.to_string(),
        ("gamepad", "layout") => d.gamepad.layout.name().to_string(),
        ("gamepad", "deadzone") => d.gamepad.deadzone.to_string(),
        ("video", "scale") => d.video.scale.to_string(),
        ("video", "aspect") => d.video.aspect.to_string(),
        ("video", "fps_cap") => d.video.fps_cap.to_string(),
        _ => return None,
    };
    Some(format!("{key} = {value}"))
}

/// The settings file written on first run: every setting at its default,
/// with comments.
pub fn default_text() -> String {
    let d = Config::default();
    let mut s = String::from(
        "# portalcast desktop settings. Written with the defaults on first run;\n\
         # delete this file to get them back. `#` starts a comment.\n\
         \n\
         [keys]\n\
         # One or more key names separated by commas, or `none`. Names: A-Z,\n\
         # 0-9, F1-F15, Up, Down, Left, Right, Space, Tab, Enter, Escape,\n\
         # Backspace, Delete, Insert, Home, End, PageUp, PageDown, LeftShift,\n\
         # RightShift, LeftCtrl, RightCtrl, LeftAlt, RightAlt, Shift, Ctrl, Alt,\n\
         # Minus, Equal, Comma, Period, Slash, Semicolon, Apostrophe, Backquote,\n\
         # Backslash, LeftBracket, RightBracket, NumPad0-NumPad9, NumPadPlus,\n\
         # NumPadMinus, NumPadAsterisk, NumPadSlash, NumPadDot, NumPadEnter.\n",
    );
    for action in Action::ALL {
        let _ = writeln!(s, "{} = {}", action.name(), d.bindings.describe(action));
    }
    let _ = write!(
        s,
        "\n\
         [controls]\n\
         # true: run unless the run key is held; false: walk unless it is held.\n\
         always_run = {}\n\
         \n\
         [mouse]\n\
         # Turn with the mouse (the mouse_look key toggles it while playing).\n\
         enabled = {}\n\
         # Degrees turned per 100 pixels of mouse movement (1 to {MAX_SENSITIVITY}).\n\
         sensitivity = {}\n\
         \n\
         [gamepad]\n\
         enabled = {}\n\
         # n64: stick moves forward/back and turns, C buttons (right stick)\n\
         #      and L/R strafe, Z walks, Start shows the automap;\n\
         # modern: left stick moves and strafes, right stick turns.\n\
         layout = {}\n\
         # Stick dead zone, percent of full deflection (0 to 90).\n\
         deadzone = {}\n\
         \n\
         [video]\n\
         # Window scale 1 to 8; 0 picks the largest that fits the screen.\n\
         scale = {}\n\
         # true: show the picture 4:3, as DOOM was (320x200 shown as 320x240).\n\
         aspect = {}\n\
         # Most frames per second (0: no cap). Game ticks stay at 35 Hz.\n\
         fps_cap = {}\n",
        d.always_run,
        d.mouse.enabled,
        d.mouse.sensitivity,
        d.gamepad.enabled,
        d.gamepad.layout.name(),
        d.gamepad.deadzone,
        d.video.scale,
        d.video.aspect,
        d.video.fps_cap,
    );
    s
}

/// Where the settings file lives when `--config` does not say: the
/// platform's configuration folder (`$XDG_CONFIG_HOME/portalcast` or
/// `~/.config/portalcast` on Linux, `~/Library/Application
/// Support/portalcast` on macOS, `%APPDATA%\portalcast\config` on
/// Windows). `None` when the platform has no home folder.
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "portalcast").map(|d| d.config_dir().join(FILE_NAME))
}

/// Loads the settings at `path`, writing the defaults there first if the
/// file does not exist. Never fails: problems come back as ready-to-print
/// messages, and the defaults are used for whatever could not be read.
pub fn load(path: &Path) -> (Config, Vec<String>) {
    let shown = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let (config, errors) = parse(&text);
            let messages = errors.iter().map(|e| e.render(&shown)).collect();
            (config, messages)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let written = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(path, default_text()));
            let message = match written {
                Ok(()) => format!("note: wrote the default settings to {shown}"),
                Err(e) => format!(
                    "note: cannot write the default settings to {shown}: {e}; using the defaults"
                ),
            };
            (Config::default(), vec![message])
        }
        Err(e) => (
            Config::default(),
            vec![format!(
                "error: cannot read the settings file {shown}: {e}\nnote: using the defaults"
            )],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minifb::Key;

    fn errors(text: &str) -> Vec<String> {
        parse(text).1.iter().map(|e| e.render("t.cfg")).collect()
    }

    #[test]
    fn the_default_file_reads_back_as_the_defaults() {
        let (config, errors) = parse(&default_text());
        assert_eq!(errors, []);
        assert_eq!(config, Config::default());
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(parse(""), (Config::default(), Vec::new()));
        assert_eq!(parse("# nothing\n\n[keys]\n").0, Config::default());
    }

    #[test]
    fn settings_apply() {
        let (c, e) = parse(
            "[keys]\nforward = I, Up   # comment\nautomap = none\nrun = Shift\n\
             [controls]\nalways_run = false\n\
             [mouse]\n enabled = true \nsensitivity = 30\n\
             [gamepad]\nlayout = modern\ndeadzone = 5\nenabled = false\n\
             [video]\nscale = 2\naspect = true\nfps_cap = 60\n",
        );
        assert_eq!(e, []);
        assert_eq!(c.bindings.keys(Action::Forward), [Key::I, Key::Up]);
        assert_eq!(c.bindings.keys(Action::Automap), []);
        assert_eq!(
            c.bindings.keys(Action::Run),
            [Key::LeftShift, Key::RightShift]
        );
        assert!(!c.always_run);
        assert_eq!(
            c.mouse,
            Mouse {
                enabled: true,
                sensitivity: 30
            }
        );
        assert_eq!(
            c.gamepad,
            Gamepad {
                enabled: false,
                layout: PadLayout::Modern,
                deadzone: 5
            }
        );
        assert_eq!(
            c.video,
            Video {
                scale: 2,
                aspect: true,
                fps_cap: 60
            }
        );
    }

    #[test]
    fn a_bad_value_names_the_line_and_value_and_keeps_the_default() {
        let text = "[mouse]\nenabled = true\nsensitivity = fast\n";
        let (c, _) = parse(text);
        // The good line applies; the bad one keeps its default.
        assert!(c.mouse.enabled);
        assert_eq!(c.mouse.sensitivity, DEFAULT_SENSITIVITY);
        assert_eq!(
            errors(text),
            ["error: t.cfg:3: `sensitivity = fast`: `fast` is not a whole number from 1 to 1000\n\
              note: using the default: sensitivity = 12"]
        );
        assert_eq!(
            errors("[keys]\nforward = W, Hyper\n"),
            ["error: t.cfg:2: `forward = W, Hyper`: `Hyper` is not a key name (letters, digits, \
              F1..F15, Up, Space, LeftShift, Shift, PageUp, NumPadPlus...: see the list in the \
              README)\nnote: using the default: forward = W, Up"]
        );
        assert_eq!(parse("[keys]\nforward = W, Hyper\n").0, Config::default());
        assert_eq!(
            errors("[video]\naspect = yes\n"),
            [
                "error: t.cfg:2: `aspect = yes`: `yes` is neither `true` nor `false`\n\
              note: using the default: aspect = false"
            ]
        );
        assert_eq!(
            errors("[gamepad]\nlayout = snes\n"),
            [
                "error: t.cfg:2: `layout = snes`: `snes` is not a gamepad layout: use `n64`, \
              `modern`\nnote: using the default: layout = n64"
            ]
        );
        assert_eq!(
            errors("[video]\nscale = 9\n"),
            [
                "error: t.cfg:2: `scale = 9`: `9` is not a whole number from 0 to 8\n\
              note: using the default: scale = 0"
            ]
        );
        assert!(errors("[keys]\nforward = W,,S\n")[0].contains("a key name is missing"));
    }

    #[test]
    fn unknown_names_and_broken_lines_are_ignored_with_a_message() {
        assert_eq!(
            errors("[keys]\njump = Space\n"),
            [
                "error: t.cfg:2: `jump = Space`: there is no action `jump` (the actions are \
              forward, back, strafe_left, strafe_right, turn_left, turn_right, run, strafe, use, \
              automap, zoom_in, zoom_out, noclip, fly, fly_up, fly_down, where, screenshot, \
              mouse_look, quit)\nnote: the line is ignored"
            ]
        );
        assert_eq!(
            errors("[mouse]\nspeed = 3\n"),
            [
                "error: t.cfg:2: `speed = 3`: there is no setting `speed` in [mouse] (there: \
              `enabled`, `sensitivity`)\nnote: the line is ignored"
            ]
        );
        assert_eq!(
            errors("[sound]\nvolume = 3\n[mouse]\nenabled = true\n"),
            [
                "error: t.cfg:1: unknown section `[sound]` (the sections are [keys], [controls], \
              [mouse], [gamepad], [video]); its settings are ignored\nnote: the line is ignored"
            ]
        );
        assert!(
            parse("[sound]\nvolume = 3\n[mouse]\nenabled = true\n")
                .0
                .mouse
                .enabled
        );
        assert_eq!(
            errors("enabled = true\n"),
            [
                "error: t.cfg:1: `enabled` comes before any section: put it under one of [keys], \
              [controls], [mouse], [gamepad], [video]\nnote: the line is ignored"
            ]
        );
        assert_eq!(
            errors("[mouse\n"),
            [
                "error: t.cfg:1: `[mouse` is not a section header: write `[name]`\n\
              note: the line is ignored"
            ]
        );
        assert_eq!(
            errors("[mouse]\nenabled\n"),
            [
                "error: t.cfg:2: `enabled` is not a setting: write `name = value`\n\
              note: the line is ignored"
            ]
        );
        let twice = "[mouse]\nsensitivity = 5\nsensitivity = 50\n";
        assert_eq!(
            errors(twice),
            [
                "error: t.cfg:3: `sensitivity` is set twice in [mouse] (first on line 2); this \
              line is ignored\nnote: the line is ignored"
            ]
        );
        assert_eq!(parse(twice).0.mouse.sensitivity, 5);
    }

    #[test]
    fn loading_creates_the_file_once_and_reports_errors() {
        let dir = std::env::temp_dir().join(format!("desktop-cfg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("sub").join(FILE_NAME);
        let (c, messages) = load(&path);
        assert_eq!(c, Config::default());
        assert_eq!(
            messages,
            [format!(
                "note: wrote the default settings to {}",
                path.display()
            )]
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), default_text());
        // The second time it is just read.
        assert_eq!(load(&path), (Config::default(), Vec::new()));
        std::fs::write(&path, "[video]\nfps_cap = lots\n").unwrap();
        let (c, messages) = load(&path);
        assert_eq!(c, Config::default());
        assert_eq!(messages.len(), 1);
        assert!(
            messages[0].starts_with(&format!("error: {}:2: ", path.display())),
            "{messages:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
