//! The window: `minifb` for pixels and keys, the wall clock for the
//! 35 Hz game tick.
//!
//! Each displayed frame: read the clock, run as many ticks as are due
//! (at most [`MAX_CATCH_UP`]), render once, draw the frame-time readout,
//! show. The game itself never sees the clock.

use std::time::{Duration, Instant};

use engine::config::TICKS_PER_SECOND;
use engine::game::{Game, Input, PlayerState};
use engine::render::{render, Frame};
use engine::world::Level;
use minifb::{Key, Scale, ScaleMode, Window, WindowOptions};

use crate::args::Args;
use crate::demo;
use crate::font::draw_label;
use crate::screenshot::write_png;
use crate::trace::Trace;

/// Most ticks run for one displayed frame. After a stall (a dragged
/// window, a breakpoint) the game skips ahead no more than this rather
/// than fast-forwarding through everything it missed.
pub const MAX_CATCH_UP: u32 = 10;

/// Forward and strafe percentages when running (the default).
pub const RUN_SPEED: i32 = 100;
/// Forward and strafe percentages while Shift is held.
pub const WALK_SPEED: i32 = 50;
/// Degrees turned per tick when running.
pub const RUN_TURN: i32 = 5;
/// Degrees turned per tick while Shift is held.
pub const WALK_TURN: i32 = 3;

/// How often the readout changes: often enough to follow, rarely enough
/// to read.
const READOUT_PERIOD: Duration = Duration::from_millis(250);

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

/// Which movement keys are held.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// W or Up.
    pub forward: bool,
    /// S or Down.
    pub back: bool,
    /// A.
    pub strafe_left: bool,
    /// D.
    pub strafe_right: bool,
    /// Left or Q.
    pub turn_left: bool,
    /// Right or E.
    pub turn_right: bool,
    /// Either Shift.
    pub walk: bool,
}

impl Held {
    /// Reads the keyboard.
    pub fn read(window: &Window) -> Held {
        let any = |keys: &[Key]| keys.iter().any(|&k| window.is_key_down(k));
        Held {
            forward: any(&[Key::W, Key::Up]),
            back: any(&[Key::S, Key::Down]),
            strafe_left: any(&[Key::A]),
            strafe_right: any(&[Key::D]),
            turn_left: any(&[Key::Left, Key::Q]),
            turn_right: any(&[Key::Right, Key::E]),
            walk: any(&[Key::LeftShift, Key::RightShift]),
        }
    }

    /// The engine input these keys mean: the same units as a demo line,
    /// so a recorded session and a demo drive the game identically.
    pub fn input(self) -> Input {
        let (speed, turn) = if self.walk {
            (WALK_SPEED, WALK_TURN)
        } else {
            (RUN_SPEED, RUN_TURN)
        };
        // Opposite keys cancel out.
        let axis = |plus: bool, minus: bool| i32::from(plus) - i32::from(minus);
        Input::new(
            axis(self.forward, self.back) * speed,
            axis(self.strafe_right, self.strafe_left) * speed,
            axis(self.turn_left, self.turn_right) * turn,
        )
    }
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
fn check_display() -> Result<(), String> {
    if cfg!(all(unix, not(target_os = "macos"))) {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            return Err(no_display("neither DISPLAY nor WAYLAND_DISPLAY is set"));
        }
    }
    Ok(())
}

/// Opens a window on `level` and runs until it is closed, Esc is pressed
/// or `--frames` frames have been shown. The demo, if any, plays first at
/// 35 Hz; then the keyboard drives. Returns the player's final state.
pub fn run(
    args: &Args,
    level: Level<'_>,
    demo: Option<&[(u32, Input)]>,
    map_title: &str,
) -> Result<PlayerState, String> {
    check_display()?;
    let (width, height) = (args.width, args.height);
    // The window is the picture times the scale; minifb stretches the
    // small buffer to fill it. Scale::X1 because minifb's own factors are
    // powers of two only, and the default here is 3.
    let options = WindowOptions {
        scale: Scale::X1,
        scale_mode: ScaleMode::Stretch,
        resize: false,
        ..WindowOptions::default()
    };
    let mut window = Window::new(map_title, width * args.scale, height * args.scale, options)
        .map_err(|e| no_display(&e.to_string()))?;

    let mut trace = args.trace.as_deref().map(Trace::create).transpose()?;
    let mut script = demo::ticks(demo.unwrap_or(&[]));
    let shades = crate::shades();
    let mut game = Game::new(level);
    let mut pixels = vec![0u32; width * height];
    let mut clock = TickClock::default();
    let mut last = Instant::now();
    let mut readout = Readout::new(last);
    let mut shown: u64 = 0;

    while window.is_open() && !window.is_key_down(Key::Escape) {
        if args.frames.is_some_and(|n| shown >= n) {
            break;
        }
        let now = Instant::now();
        let due = clock.advance(now.duration_since(last));
        last = now;
        // One keyboard sample per frame serves every tick due in it.
        let keys = Held::read(&window).input();
        for _ in 0..due {
            // While the demo lasts it drives; the keyboard takes over after.
            game.tick(script.next().unwrap_or(keys));
            if let Some(t) = trace.as_mut() {
                t.record(&game.player())?;
            }
        }

        let render_time = draw(&game, &shades, &mut pixels, width, height)?;
        if readout.frame(Instant::now(), render_time, map_title) {
            window.set_title(&readout.title);
        }
        if !readout.text.is_empty() {
            draw_label(&mut pixels, width, height, 1, 1, &readout.text);
        }
        window
            .update_with_buffer(&pixels, width, height)
            .map_err(|e| format!("cannot update the window: {e}"))?;
        shown += 1;
    }

    if let Some(t) = trace {
        t.finish()?;
    }
    if let Some(path) = &args.screenshot {
        // Drawn again so the picture has no readout on it.
        draw(&game, &shades, &mut pixels, width, height)?;
        write_png(path, &pixels, width, height)?;
    }
    Ok(game.player())
}

/// Renders the current view; returns the time the renderer took.
fn draw(
    game: &Game<'_>,
    shades: &engine::render::Shades<u32>,
    pixels: &mut [u32],
    width: usize,
    height: usize,
) -> Result<Duration, String> {
    let mut frame = Frame::new(pixels, width, height, width)
        .ok_or_else(|| format!("cannot render at {width}x{height}"))?;
    let start = Instant::now();
    render(game.level(), &game.camera(), shades, &mut frame);
    Ok(start.elapsed())
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

    #[test]
    fn keys_map_to_demo_units() {
        let run = Held {
            forward: true,
            strafe_left: true,
            turn_right: true,
            ..Held::default()
        };
        assert_eq!(run.input(), Input::new(100, -100, -5));
        let walk = Held { walk: true, ..run };
        assert_eq!(walk.input(), Input::new(50, -50, -3));
        let back = Held {
            back: true,
            strafe_right: true,
            turn_left: true,
            ..Held::default()
        };
        assert_eq!(back.input(), Input::new(-100, 100, 5));
        assert_eq!(Held::default().input(), Input::IDLE);
        let both = Held {
            forward: true,
            back: true,
            turn_left: true,
            turn_right: true,
            ..Held::default()
        };
        assert_eq!(both.input(), Input::IDLE);
    }
}
