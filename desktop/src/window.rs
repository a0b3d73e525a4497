//! The window: `minifb` for pixels and keys, the wall clock for the
//! 35 Hz game tick.
//!
//! Each displayed frame: read the clock; read the keyboard, the mouse and
//! the gamepad; do the one-press actions; run as many steps of the
//! [`Session`] as are due (at most [`MAX_CATCH_UP`]); render once (and the
//! automap); draw the readout and any message; scale to the window; show.
//! The game itself never sees the clock, and rendering runs as fast as
//! the frame cap (`--fps-cap`) lets it, whatever the tick rate.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant, SystemTime};

use engine::config::TICKS_PER_SECOND;
use engine::game::Exit;
use minifb::{InputCallback, Key, MouseMode, Scale, ScaleMode, Window, WindowOptions};

use crate::args::{Args, DEFAULT_SCALE, MAX_SCALE};
use crate::config::Config;
use crate::display::{self, X11};
use crate::font::{draw_label, GLYPH_HEIGHT};
use crate::gamepad::{Gamepads, PadInput};
use crate::keys::{ActionSet, Bindings};
use crate::screenshot::{free_path, write_png};
use crate::session::{Live, Notice, Session};

/// Most ticks run for one displayed frame. After a stall (a dragged
/// window, a breakpoint) the game skips ahead no more than this rather
/// than fast-forwarding through everything it missed.
pub const MAX_CATCH_UP: u32 = 10;

/// How often the readout changes: often enough to follow, rarely enough
/// to read.
const READOUT_PERIOD: Duration = Duration::from_millis(250);

/// How long a message stays on screen.
const MESSAGE_TIME: Duration = Duration::from_secs(3);

/// Turns wall time into whole game ticks at exactly
/// [`TICKS_PER_SECOND`], with no drift.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TickClock {
    /// Elapsed time not yet spent on ticks, in nanoseconds times
    /// `TICKS_PER_SECOND`, so one tick is exactly 10^9 units (1/35 s
    /// is not a whole number of nanoseconds).
    pending: u128,
}

const TICK_UNITS: u128 = 1_000_000_000;

impl TickClock {
    /// Adds `elapsed` wall time and returns how many ticks are now due,
    /// at most [`MAX_CATCH_UP`]; time beyond the cap is dropped.
    pub fn advance(&mut self, elapsed: Duration) -> u32 {
        self.pending += elapsed.as_nanos() * u128::from(TICKS_PER_SECOND);
        let due = self.pending / TICK_UNITS;
        self.pending %= TICK_UNITS;
        // Below the cap the value fits; above it, the cap applies.
        u32::try_from(due).unwrap_or(u32::MAX).min(MAX_CATCH_UP)
    }
}

/// Key presses as they happen: `minifb` reports a key as pressed only if
/// it is still down at the next frame, so a quick tap (press and release
/// between two frames) would be lost; its key callback sees every event.
#[derive(Clone, Debug, Default)]
struct Presses {
    shared: Rc<RefCell<PressLog>>,
}

#[derive(Debug, Default)]
struct PressLog {
    down: Vec<Key>,
    pressed: Vec<Key>,
}

impl InputCallback for Presses {
    fn add_char(&mut self, _uni_char: u32) {}

    fn set_key_state(&mut self, key: Key, state: bool) {
        let mut log = self.shared.borrow_mut();
        if state {
            // Auto-repeat sends more presses without releases: one counts.
            if !log.down.contains(&key) {
                log.down.push(key);
                log.pressed.push(key);
            }
        } else {
            log.down.retain(|&k| k != key);
        }
    }
}

impl Presses {
    /// The keys pressed since the last call, in order.
    fn take(&self) -> Vec<Key> {
        std::mem::take(&mut self.shared.borrow_mut().pressed)
    }
}

/// The actions whose keys are down on the keyboard.
pub fn held_actions(window: &Window, bindings: &Bindings) -> ActionSet {
    ActionSet::from_fn(|a| bindings.held(a, |k| window.is_key_down(k)))
}

/// Frame-time figures, averaged over one readout period.
#[derive(Debug)]
struct Readout {
    since: Instant,
    frames: u32,
    render: Duration,
    text: String,
    title: String,
}

impl Readout {
    fn new(now: Instant) -> Readout {
        Readout {
            since: now,
            frames: 0,
            render: Duration::ZERO,
            text: String::new(),
            title: String::new(),
        }
    }

    /// Counts one shown frame; true when the text has just changed.
    fn frame(&mut self, now: Instant, render: Duration, map_title: &str) -> bool {
        self.frames += 1;
        self.render += render;
        let span = now.duration_since(self.since);
        if span < READOUT_PERIOD {
            return false;
        }
        let frames = f64::from(self.frames);
        let ms = span.as_secs_f64() * 1000.0 / frames;
        let fps = frames / span.as_secs_f64();
        let render_ms = self.render.as_secs_f64() * 1000.0 / frames;
        self.text = format!("{ms:.1} MS {fps:.0} FPS");
        self.title =
            format!("{map_title} - {ms:.2} ms/frame, {fps:.0} fps (render {render_ms:.2} ms)");
        self.since = now;
        self.frames = 0;
        self.render = Duration::ZERO;
        true
    }
}

/// Says why no window could be opened, and what to do instead.
fn no_display(detail: &str) -> String {
    format!(
        "cannot open a window: {detail}\n\
         note: with no display (over SSH, in CI), run without a window: \
         --headless (e.g. `desktop --headless --frames 35 --screenshot out.png`)"
    )
}

/// On X11/Wayland systems, a missing display is detected before asking
/// `minifb`, whose failure there can be a bare library-loading error.
pub fn check_display() -> Result<(), String> {
    if cfg!(all(unix, not(target_os = "macos"))) {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            return Err(no_display("neither DISPLAY nor WAYLAND_DISPLAY is set"));
        }
    }
    Ok(())
}

/// Mouse turning: pixels moved since the last frame.
///
/// On X11 the pointer is put back in the middle of the window every frame
/// (the window does not lose it at the screen's edge, as in the source
/// ports); elsewhere the pointer's movement over the window is used.
#[derive(Debug)]
struct Mouse {
    on: bool,
    sensitivity: i64,
    /// The X11 connection and our window's id, when the window is X11.
    x11: Option<(X11, u32)>,
    last: Option<(f32, f32)>,
    /// Where the pointer was last put (the window's middle then).
    warped_to: Option<(i32, i32)>,
}

impl Mouse {
    /// Horizontal pixels moved since the last call (right positive), or 0
    /// when mouse turning is off or the window is not focused.
    fn moved(&mut self, window: &Window) -> i64 {
        if !self.on || !window.is_active() {
            self.last = None;
            self.warped_to = None;
            return 0;
        }
        if let Some((x11, id)) = &self.x11 {
            let Some((x, y)) = x11.pointer(*id) else {
                return 0;
            };
            let dx = self.warped_to.map_or(0, |(from, _)| i64::from(x - from));
            // Back to the middle of the window as it is now (it may have
            // been resized), by a relative move: whatever the user moves
            // meanwhile still counts next frame.
            let (w, h) = window.get_size();
            let middle = ((w / 2) as i32, (h / 2) as i32);
            x11.warp_by(middle.0 - x, middle.1 - y);
            self.warped_to = Some(middle);
            return dx;
        }
        let now = window.get_unscaled_mouse_pos(MouseMode::Pass);
        let dx = match (self.last, now) {
            (Some((a, _)), Some((b, _))) => (b - a).round() as i64,
            _ => 0,
        };
        self.last = now;
        dx
    }
}

/// Where the window's files go and how it is set up.
#[derive(Debug)]
pub struct WindowSetup<'c> {
    /// The settings.
    pub config: &'c Config,
    /// Where the screenshot key writes (the settings file's folder).
    pub screenshot_dir: Option<PathBuf>,
    /// The window title.
    pub title: String,
}

/// How long an ended level stays on screen before the next one loads.
const EXIT_PAUSE: Duration = Duration::from_millis(1500);

/// Why [`Screen::play`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The window was closed, the quit key pressed, the key script quit
    /// or `--frames` frames were shown.
    Quit,
    /// The level ended by an exit that goes on to this map.
    Next(String),
    /// The watched map file changed (`--watch`).
    Reload,
}

/// How often `--watch` looks at the map file.
const WATCH_PERIOD: Duration = Duration::from_millis(500);

/// The open window and everything that lasts from one level to the next:
/// the input devices, the buffers, the clock, the message line.
pub struct Screen {
    window: Window,
    mouse: Mouse,
    presses: Presses,
    pads: Option<Gamepads>,
    bindings: Bindings,
    pixels: Vec<u32>,
    shown_pixels: Vec<u32>,
    clock: TickClock,
    last: Instant,
    readout: Readout,
    message: Option<(String, Instant)>,
    shown: u64,
    shown_h: usize,
    screenshot_dir: Option<PathBuf>,
}

impl Screen {
    /// Opens the window as `args` and `setup` say.
    pub fn open(args: &Args, setup: &WindowSetup<'_>) -> Result<Screen, String> {
        check_display()?;
        let config = setup.config;
        let (width, height) = (args.width, args.height);
        let aspect = args.aspect || config.video.aspect;
        let x11 = X11::connect();
        let shown_h = display::display_height(height, aspect);
        let scale = args
            .scale
            .or((config.video.scale > 0).then_some(config.video.scale))
            .or_else(|| {
                x11.as_ref()
                    .map(|x| display::fit_scale(width, shown_h, x.screen_size(), MAX_SCALE))
            })
            .unwrap_or(DEFAULT_SCALE);
        // The frontend scales the picture itself; minifb only centres it.
        let options = WindowOptions {
            scale: Scale::X1,
            scale_mode: ScaleMode::Center,
            resize: true,
            ..WindowOptions::default()
        };
        let mut window = Window::new(&setup.title, width * scale, shown_h * scale, options)
            .map_err(|e| no_display(&e.to_string()))?;
        // 0: no cap.
        window.set_target_fps(args.fps_cap.unwrap_or(config.video.fps_cap) as usize);

        let window_id = window.get_window_handle() as usize as u32;
        let mouse = Mouse {
            on: args.mouse || config.mouse.enabled,
            sensitivity: i64::from(config.mouse.sensitivity),
            x11: x11
                .filter(|x| x.is_window(window_id))
                .map(|x| (x, window_id)),
            last: None,
            warped_to: None,
        };
        window.set_cursor_visibility(!mouse.on);
        let presses = Presses::default();
        window.set_input_callback(Box::new(presses.clone()));
        let pads = match Gamepads::open(&config.gamepad) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("note: {e}; playing without a gamepad");
                None
            }
        };
        let last = Instant::now();
        Ok(Screen {
            window,
            mouse,
            presses,
            pads,
            bindings: config.bindings.clone(),
            pixels: vec![0u32; width * height],
            shown_pixels: Vec::new(),
            clock: TickClock::default(),
            last,
            readout: Readout::new(last),
            message: None,
            shown: 0,
            shown_h,
            screenshot_dir: setup.screenshot_dir.clone(),
        })
    }

    /// Plays `session` (its map called `title`) until the window is
    /// closed, the quit key is pressed, the key script quits or `--frames`
    /// frames have been shown ([`End::Quit`], after writing
    /// `--screenshot`), or until its level ends by an exit that `next`
    /// names a map for, shown for a moment first ([`End::Next`]). An
    /// exit with nowhere to go leaves the level standing still, said on
    /// the message line. With `changed` (`--watch`), asked twice a second,
    /// returns [`End::Reload`] when it says the map file changed.
    pub fn play(
        &mut self,
        args: &Args,
        title: &str,
        session: &mut Session<'_>,
        next: &dyn Fn(Exit) -> Option<String>,
        mut changed: Option<&mut dyn FnMut() -> bool>,
    ) -> Result<End, String> {
        let (width, height) = (args.width, args.height);
        let shades = crate::shades_for(&session.game().level());
        let mut ended: Option<(Option<String>, Instant)> = None;
        self.window.set_title(title);
        // Loading this level is not time the game should catch up on.
        self.last = Instant::now();
        let mut watched = self.last;

        while self.window.is_open() && !session.quit() {
            if args.frames.is_some_and(|n| self.shown >= n) {
                break;
            }
            let now = Instant::now();
            if let Some((Some(name), since)) = &ended {
                if now.duration_since(*since) >= EXIT_PAUSE {
                    return Ok(End::Next(name.clone()));
                }
            }
            if now.duration_since(watched) >= WATCH_PERIOD {
                watched = now;
                if changed.as_mut().is_some_and(|c| c()) {
                    return Ok(End::Reload);
                }
            }
            let due = self.clock.advance(now.duration_since(self.last));
            self.last = now;

            // One-press actions happen now; held ones serve every tick due.
            let pad = self.pads.as_mut().map(Gamepads::poll).unwrap_or_default();
            let PadInput {
                held: pad_held,
                analog,
                pressed: pad_pressed,
            } = pad;
            for key in self.presses.take() {
                for action in self.bindings.actions(key).filter(|a| a.is_toggle()) {
                    session.press(action);
                }
            }
            for action in pad_pressed {
                session.press(action);
            }
            session.add_turn_hundredths(-self.mouse.moved(&self.window) * self.mouse.sensitivity);
            let live = Live {
                held: held_actions(&self.window, &self.bindings),
                pad: pad_held,
                analog,
            };
            let mut screenshot = false;
            for _ in 0..due {
                session.step(&live)?;
                if session.quit() {
                    break;
                }
            }
            for notice in session.notices() {
                match notice {
                    Notice::Message(text) => self.message = Some((text, now)),
                    Notice::Where { full, short } => {
                        eprintln!("{full}");
                        self.message = Some((short, now));
                    }
                    Notice::Screenshot => screenshot = true,
                    Notice::MouseLook => {
                        self.mouse.on = !self.mouse.on;
                        self.window.set_cursor_visibility(!self.mouse.on);
                        let state = if self.mouse.on { "ON" } else { "OFF" };
                        self.message = Some((format!("MOUSE TURNING {state}"), now));
                    }
                    Notice::Exit(exit) => {
                        let to = next(exit);
                        let what = match exit {
                            Exit::Normal => "LEVEL COMPLETE",
                            Exit::Secret => "SECRET EXIT",
                        };
                        let text = match &to {
                            Some(name) => format!("{what}: ON TO {name}"),
                            None => format!("{what}: THE END"),
                        };
                        eprintln!("{title}: {}", text.to_lowercase());
                        self.message = Some((text, now));
                        ended = Some((to, now));
                    }
                }
            }
            if session.quit() {
                break;
            }

            let (_, render_time) = session.draw(&shades, &mut self.pixels, width, height)?;
            if screenshot {
                let text = shoot(self.screenshot_dir.as_deref(), &self.pixels, width, height);
                self.message = Some((text, now));
            }
            self.show(title, render_time, width, height, now)?;
        }

        self.window.set_cursor_visibility(true);
        if let Some(path) = &args.screenshot {
            // Drawn again so the picture has no readout on it.
            session.draw(&shades, &mut self.pixels, width, height)?;
            write_png(path, &self.pixels, width, height)?;
        }
        Ok(End::Quit)
    }

    /// Shows `text` on the message line.
    pub fn say(&mut self, text: &str) {
        self.message = Some((text.to_string(), Instant::now()));
    }

    /// Puts the frame in `pixels` on screen with the readout and the
    /// message line.
    fn show(
        &mut self,
        title: &str,
        render_time: Duration,
        width: usize,
        height: usize,
        now: Instant,
    ) -> Result<(), String> {
        let pixels = &mut self.pixels;
        if self.readout.frame(Instant::now(), render_time, title) {
            self.window.set_title(&self.readout.title);
        }
        if !self.readout.text.is_empty() {
            draw_label(pixels, width, height, 1, 1, &self.readout.text);
        }
        if let Some((text, since)) = &self.message {
            if now.duration_since(*since) < MESSAGE_TIME {
                let y = height.saturating_sub(GLYPH_HEIGHT + 3);
                draw_label(pixels, width, height, 1, y, text);
            }
        }
        let (out_w, out_h) = display::fit_in_window(width, self.shown_h, self.window.get_size());
        display::scale_into(pixels, width, height, &mut self.shown_pixels, out_w, out_h);
        self.window
            .update_with_buffer(&self.shown_pixels, out_w, out_h)
            .map_err(|e| format!("cannot update the window: {e}"))?;
        self.shown += 1;
        Ok(())
    }
}

/// Writes a screenshot into `dir`, named by date and time; returns the
/// message to show (and prints where it went, or why it could not).
fn shoot(dir: Option<&Path>, pixels: &[u32], width: usize, height: usize) -> String {
    let Some(dir) = dir else {
        eprintln!("note: no folder for screenshots (no settings folder on this system)");
        return "NO SCREENSHOT FOLDER".into();
    };
    let _ = std::fs::create_dir_all(dir);
    let path = free_path(dir, SystemTime::now());
    match write_png(&path, pixels, width, height) {
        Ok(()) => {
            eprintln!("screenshot: {}", path.display());
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            format!("SCREENSHOT {name}")
        }
        Err(e) => {
            eprintln!("error: {e}");
            "SCREENSHOT FAILED".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_runs_at_exactly_35_hz() {
        let mut c = TickClock::default();
        // A second in uneven frames is 35 ticks, with nothing left over.
        let mut total = 0;
        for ms in [16, 17, 16, 17, 16, 18] {
            for _ in 0..10 {
                total += c.advance(Duration::from_millis(ms));
            }
        }
        assert_eq!(total, 35);
        assert_eq!(c, TickClock::default());
        // A tick is 28571428.57... ns: one nanosecond short is not a tick.
        assert_eq!(c.advance(Duration::from_nanos(28_571_428)), 0);
        assert_eq!(c.advance(Duration::from_nanos(1)), 1);
    }

    #[test]
    fn a_minute_of_60_hz_frames_is_2100_ticks() {
        let mut c = TickClock::default();
        let frame = Duration::from_nanos(1_000_000_000 / 60);
        let total: u32 = (0..3600).map(|_| c.advance(frame)).sum();
        // 3600 frames of 16666666 ns is 60 s minus 2.4 us: one tick short
        // of 2100 would be wrong only if drift crept in; it cannot.
        assert_eq!(total, 2099);
        assert_eq!(c.advance(Duration::from_micros(3)), 1);
    }

    #[test]
    fn a_stall_catches_up_at_most_ten_ticks() {
        let mut c = TickClock::default();
        assert_eq!(c.advance(Duration::from_secs(5)), MAX_CATCH_UP);
        // The backlog is dropped, not carried into later frames.
        assert_eq!(c.advance(Duration::from_millis(1)), 0);
        assert_eq!(c.advance(Duration::from_secs(u64::MAX)), MAX_CATCH_UP);
    }
}
