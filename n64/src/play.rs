//! The frame loop: read the controller, run the game ticks that are due,
//! render into the back buffer, draw the readout, show it at the next
//! vertical blank.
//!
//! The game ticks 35 times a second of Count time whatever the frame rate
//! ([`TickClock`]); the renderer runs once per shown frame. The frame time
//! (controller, ticks, render and readout, not the wait for the blank) is
//! measured in Count ticks and shown on screen every frame (the last
//! frame's); its average and worst over [`REPORT_FRAMES`] frames are
//! reported over the IS-Viewer.

use core::fmt::Write as _;

use engine::game::{Game, Input};
use n64::clock::{TickClock, THIRTIETH_OF_A_SECOND};
use n64::controls::{input_from_pad, Buttons};
use n64::demo::{DemoInputs, DEFAULT_DEMO};
use n64::levels::LEVELS;
use n64::message::MessageLine;
use n64::text::LineBuffer;
use n64::trace::StateLine;
use n64::view_mode::ViewMode;

use crate::hw::{cp0, exception, memory, Hardware};
use crate::view::{self, ViewShades};

/// Frames per frame-time report.
pub const REPORT_FRAMES: u32 = 32;

/// What drives the player.
enum Driver {
    /// Controller 1.
    Controller,
    /// The embedded demo, replayed on screen (Start).
    Demo(DemoInputs),
}

/// One level being played.
struct Session {
    index: usize,
    game: Game<'static>,
    clock: TickClock,
    driver: Driver,
    /// The controller's input at the last change, for the `input:` lines.
    last_input: Input,
    /// What the game last reported to tell the player.
    message: MessageLine,
}

impl Session {
    fn start(index: usize, driver: Driver, hardware: &mut Hardware) -> Session {
        let embedded = &LEVELS[index];
        let level = crate::load(embedded.bytes, embedded.name);
        hardware.debug.line(format_args!(
            "level: {} ({}/{}) {}: {} bytes, {} sectors, {} walls",
            embedded.name,
            index + 1,
            LEVELS.len(),
            embedded.source,
            embedded.bytes.len(),
            level.sector_count(),
            level.wall_count(),
        ));
        Session {
            index,
            game: Game::new(level),
            clock: TickClock::new(cp0::count()),
            driver,
            last_input: Input::IDLE,
            message: MessageLine::new(),
        }
    }

    /// Runs the ticks due now; `controller` is this frame's controller
    /// input.
    fn tick(&mut self, controller: Input, hardware: &mut Hardware) {
        let due = self.clock.advance(cp0::count());
        for _ in 0..due {
            let input = match &mut self.driver {
                Driver::Controller => controller,
                Driver::Demo(inputs) => match inputs.next() {
                    Some(input) => input,
                    None => {
                        hardware.debug.line(format_args!(
                            "demo replay final state: {}",
                            StateLine(&self.game.player())
                        ));
                        self.driver = Driver::Controller;
                        controller
                    }
                },
            };
            let secrets = self.game.world().secrets_found();
            self.game.tick(input);
            let found = self.game.world().secrets_found() > secrets;
            self.message.after_tick(self.game.events(), found);
        }
    }
}

/// Frame-time figures over one report period.
#[derive(Default)]
struct FrameStats {
    frames: u32,
    frame_total: u64,
    frame_max: u32,
    render_total: u64,
}

impl FrameStats {
    fn add(&mut self, frame: u32, render: u32) {
        self.frames += 1;
        self.frame_total += u64::from(frame);
        self.frame_max = self.frame_max.max(frame);
        self.render_total += u64::from(render);
    }

    fn frame_average(&self) -> u64 {
        self.frame_total / u64::from(self.frames.max(1))
    }

    fn render_average(&self) -> u64 {
        self.render_total / u64::from(self.frames.max(1))
    }
}

/// The on-screen readout: the level, and the last frame's time.
struct Readout {
    top: LineBuffer<48>,
    bottom: LineBuffer<48>,
}

impl Readout {
    fn new() -> Readout {
        Readout {
            top: LineBuffer::new(),
            bottom: LineBuffer::new(),
        }
    }

    /// Rewrites both lines; `last` is the last frame's (frame, render)
    /// Count ticks, if it was of this session.
    fn update(&mut self, session: &Session, mode: ViewMode, last: Option<(u32, u32)>) {
        self.top.clear();
        self.bottom.clear();
        // Writing to a LineBuffer cannot fail (it truncates).
        if let Some(message) = session.message.current() {
            // The message line, for its two seconds.
            let _ = write!(self.top, "{message}");
        } else {
            let _ = write!(
                self.top,
                "{} {}/{}",
                LEVELS[session.index].name,
                session.index + 1,
                LEVELS.len()
            );
            if matches!(session.driver, Driver::Demo(_)) {
                let _ = write!(self.top, " DEMO");
            }
            if mode != ViewMode::FULL {
                let _ = write!(self.top, " {}", mode.name());
            }
        }
        let _ = match last {
            Some((frame, render)) => {
                write!(self.bottom, "FRAME {frame} CT RENDER {render} CT")
            }
            None => write!(self.bottom, "FRAME - CT"),
        };
    }
}

/// Plays forever, starting on the default level.
pub fn run(mut hardware: Hardware) -> ! {
    let mut session = Session::start(0, Driver::Controller, &mut hardware);
    // The level's light tables (48 KiB), kept apart from the session and
    // rebuilt in place: a session replaced holds the old and the new one
    // at once for a moment, on the stack.
    let mut shades = ViewShades::for_level(&session.game.level());
    let mut buttons = Buttons::new();
    let mut stats = FrameStats::default();
    let mut readout = Readout::new();
    let mut mode = ViewMode::FULL;
    readout.update(&session, mode, None);

    loop {
        let frame_start = cp0::count();

        let pad = hardware.joypad.read();
        let actions = buttons.update(&pad);
        if actions.test_exception {
            hardware
                .debug
                .line(format_args!("test exception requested (Z + Start)"));
            exception::raise_test_exception();
        }
        let switch_to = if actions.next_level {
            Some(((session.index + 1) % LEVELS.len(), Driver::Controller))
        } else if actions.previous_level {
            Some((
                (session.index + LEVELS.len() - 1) % LEVELS.len(),
                Driver::Controller,
            ))
        } else if actions.play_demo {
            Some((0, Driver::Demo(DEFAULT_DEMO.inputs())))
        } else if let Some(exit) = session.game.exit() {
            // The level ended: on to the next (a secret exit too, as the
            // ROM's levels have no secret ones).
            hardware.debug.line(format_args!(
                "exit: {} on level {}",
                exit.name(),
                session.index + 1
            ));
            Some(((session.index + 1) % LEVELS.len(), Driver::Controller))
        } else {
            None
        };
        if actions.toggle_low_detail || actions.toggle_status_bar {
            mode.low_detail ^= actions.toggle_low_detail;
            mode.status_bar ^= actions.toggle_status_bar;
            hardware.debug.line(format_args!("view: {}", mode.name()));
            stats = FrameStats::default();
            readout.update(&session, mode, None);
        }
        if let Some((index, driver)) = switch_to {
            session = Session::start(index, driver, &mut hardware);
            shades.rebuild(&session.game.level());
            stats = FrameStats::default();
            readout.update(&session, mode, None);
        }

        let input = input_from_pad(&pad);
        if input != session.last_input && matches!(session.driver, Driver::Controller) {
            hardware.debug.line(format_args!(
                "input: {} {} {} at {}",
                input.forward,
                input.strafe,
                input.turn,
                StateLine(&session.game.player())
            ));
            session.last_input = input;
        }
        session.tick(input, &mut hardware);

        let render_start = cp0::count();
        let camera = session.game.camera();
        view::render(&mut hardware.video, mode, &session.game, &camera, &shades);
        let render_ticks = cp0::count().wrapping_sub(render_start);
        view::readout(
            &mut hardware.video,
            mode,
            readout.top.as_str(),
            readout.bottom.as_str(),
        );
        let drawn = hardware.video.present();
        let frame_ticks = drawn.wrapping_sub(frame_start);

        // The next frame shows this one's time.
        readout.update(&session, mode, Some((frame_ticks, render_ticks)));
        stats.add(frame_ticks, render_ticks);
        if stats.frames == REPORT_FRAMES {
            hardware.debug.line(format_args!(
                "frame: level={} frames={} avg={} max={} render_avg={} budget={} stack={} view={}",
                LEVELS[session.index].name,
                stats.frames,
                stats.frame_average(),
                stats.frame_max,
                stats.render_average(),
                THIRTIETH_OF_A_SECOND,
                memory::stack_high_water(),
                mode.name(),
            ));
            stats = FrameStats::default();
        }
    }
}
