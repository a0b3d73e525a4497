//! The menu and the frame loop. The menu (at boot, and when A is pressed)
//! picks a level; the level is copied from the cartridge into the level
//! memory and played: read the controller, run the game ticks that are
//! due, render into the back buffer, draw the readout, show it at the
//! next vertical blank. L and R, an exit, or the menu end a level and
//! start the next, over it in the same memory.
//!
//! The game ticks 35 times a second of Count time whatever the frame rate
//! ([`TickClock`]); the renderer runs once per shown frame. The frame time
//! (controller, ticks, render and readout, not the wait for the blank) is
//! measured in Count ticks and shown on screen every frame (the last
//! frame's); its average and worst over [`REPORT_FRAMES`] frames are
//! reported over the IS-Viewer.

use core::fmt::Write as _;

use engine::game::{Game, Input};
use engine::world::Level;
use n64::cartridge::CartError;
use n64::clock::{TickClock, COUNT_HZ, THIRTIETH_OF_A_SECOND};
use n64::controls::{input_from_pad, Actions, Buttons, PadState};
use n64::demo::{DemoInputs, DEFAULT_DEMO, DEFAULT_LEVEL};
use n64::menu::{self, Menu, MenuChoice};
use n64::message::MessageLine;
use n64::text::LineBuffer;
use n64::trace::StateLine;
use n64::view_mode::ViewMode;

use crate::hw::{cp0, exception, memory, Hardware};
use crate::view::{self, ViewShades};
use crate::CartLevels;

/// Frames per frame-time report.
pub const REPORT_FRAMES: u32 = 32;

/// What drives the player.
enum Driver {
    /// Controller 1.
    Controller,
    /// The embedded demo, replayed on screen (Start).
    Demo(DemoInputs),
}

/// What to play next.
struct Next {
    /// The level.
    index: usize,
    /// Who drives the player.
    driver: Driver,
    /// Whether the menu comes first (with `index` chosen).
    menu: bool,
}

/// One level being played.
struct Session<'m> {
    index: usize,
    game: Game<'m>,
    clock: TickClock,
    driver: Driver,
    /// The controller's input at the last change, for the `input:` lines.
    last_input: Input,
    /// What the game last reported to tell the player.
    message: MessageLine,
}

impl<'m> Session<'m> {
    fn start(index: usize, level: Level<'m>, driver: Driver) -> Session<'m> {
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
    fn update(
        &mut self,
        session: &Session<'_>,
        levels: &CartLevels,
        mode: ViewMode,
        last: Option<(u32, u32)>,
    ) {
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
                levels.name(session.index),
                session.index + 1,
                levels.len()
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

/// What lasts from level to level: the buttons' state, the view mode,
/// the readout and the light tables' memory.
struct Ui {
    buttons: Buttons,
    mode: ViewMode,
    readout: Readout,
}

/// Plays forever: the menu first, on the default level (the first if the
/// cartridge has no such level).
pub fn run(mut hardware: Hardware, mut levels: CartLevels, memory: &'static mut [u8]) -> ! {
    let mut ui = Ui {
        buttons: Buttons::new(),
        mode: ViewMode::FULL,
        readout: Readout::new(),
    };
    // The level's light tables (48 KiB), rebuilt in place for each level.
    let mut shades: Option<ViewShades> = None;
    let mut next = Next {
        index: levels.find_level(DEFAULT_LEVEL).unwrap_or(0),
        driver: Driver::Controller,
        menu: true,
    };
    loop {
        if next.menu {
            if let MenuChoice::Play(index) =
                menu(&mut hardware, &mut ui, &levels, next.index, false)
            {
                next = Next {
                    index,
                    driver: Driver::Controller,
                    menu: false,
                };
            }
        }
        let index = next.index;
        let started = cp0::count();
        let level = match levels.load(index, &mut *memory) {
            Ok(level) => level,
            Err(error) => {
                refused(&mut hardware, &mut ui, &levels, index, error);
                next.menu = true;
                continue;
            }
        };
        let took = cp0::count().wrapping_sub(started);
        let entry = levels.level(index);
        hardware.debug.line(format_args!(
            "level: {} ({}/{}) {:?}: {} bytes, loaded in {} Count ticks ({} ms), {} sectors, {} walls",
            levels.name(index),
            index + 1,
            levels.len(),
            entry.map_or("", |l| l.title),
            entry.map_or(0, |l| l.map_len),
            took,
            u64::from(took) * 1000 / u64::from(COUNT_HZ),
            level.sector_count(),
            level.wall_count(),
        ));
        match &mut shades {
            Some(shades) => shades.rebuild(&level),
            None => shades = Some(ViewShades::for_level(&level)),
        }
        let Some(shades) = &shades else {
            continue;
        };
        let session = Session::start(index, level, next.driver);
        next = play(&mut hardware, &mut ui, &levels, shades, session);
    }
}

/// This frame's controller reading and the actions it asks for; Z + Start
/// raises the test exception here, in the menu and in play alike.
fn read_controller(hardware: &mut Hardware, ui: &mut Ui) -> (PadState, Actions) {
    let pad = hardware.joypad.read();
    let actions = ui.buttons.update(&pad);
    if actions.test_exception {
        hardware
            .debug
            .line(format_args!("test exception requested (Z + Start)"));
        exception::raise_test_exception();
    }
    (pad, actions)
}

/// The level menu, its own frame loop, until a level is chosen (or, with
/// `can_resume`, B goes back).
fn menu(
    hardware: &mut Hardware,
    ui: &mut Ui,
    levels: &CartLevels,
    selected: usize,
    can_resume: bool,
) -> MenuChoice {
    hardware.debug.line(format_args!(
        "menu: {} levels, on {} ({})",
        levels.len(),
        levels.name(selected),
        selected + 1
    ));
    let mut menu = Menu::new(levels.len(), selected, can_resume);
    loop {
        let (_, actions) = read_controller(hardware, ui);
        match menu.update(&actions) {
            MenuChoice::Stay => {}
            choice => return choice,
        }
        let mut rows: heapless::Vec<(menu::RowText, bool), { menu::ROWS }> = heapless::Vec::new();
        for (i, chosen) in menu.rows() {
            let (name, title) = levels.level(i).map_or(("", ""), |l| (l.name, l.title));
            let _ = rows.push((menu::row_text(i + 1, name, title), chosen));
        }
        view::menu(
            &mut hardware.video,
            "RAYCASTER",
            format_args!("{} LEVELS ON THE CARTRIDGE", levels.len()),
            menu.help(),
            rows.iter().map(|(text, chosen)| (text.as_str(), *chosen)),
        );
        hardware.video.present();
    }
}

/// A level that cannot be played: said over the debug port and on
/// screen until a button is pressed.
fn refused(
    hardware: &mut Hardware,
    ui: &mut Ui,
    levels: &CartLevels,
    index: usize,
    error: CartError,
) {
    let name = levels.name(index);
    hardware
        .debug
        .line(format_args!("level: {name} does not load: {error}"));
    let help = match error {
        CartError::Pack(engine::format::pack::PackError::TooLarge { .. })
            if memory::rdram_bytes() <= 4 << 20 =>
        {
            "AN EXPANSION PAK HOLDS LARGER LEVELS. A: MENU"
        }
        _ => "A: MENU",
    };
    loop {
        let pad = hardware.joypad.read();
        let actions = ui.buttons.update(&pad);
        if actions.menu || actions.back || actions.play_demo {
            return;
        }
        view::notice(
            &mut hardware.video,
            "CANNOT PLAY THIS LEVEL",
            format_args!("{name}: {error}"),
            help,
        );
        hardware.video.present();
    }
}

/// Plays `session` until it ends: returns what comes next.
fn play(
    hardware: &mut Hardware,
    ui: &mut Ui,
    levels: &CartLevels,
    shades: &ViewShades,
    mut session: Session<'_>,
) -> Next {
    let mut stats = FrameStats::default();
    let count = levels.len();
    ui.readout.update(&session, levels, ui.mode, None);

    loop {
        let frame_start = cp0::count();

        let (pad, actions) = read_controller(hardware, ui);
        let to = |index: usize, driver: Driver| Next {
            index,
            driver,
            menu: false,
        };
        if actions.next_level {
            return to((session.index + 1) % count, Driver::Controller);
        }
        if actions.previous_level {
            return to((session.index + count - 1) % count, Driver::Controller);
        }
        if actions.play_demo {
            match levels.find_level(DEFAULT_LEVEL) {
                Some(index) => return to(index, Driver::Demo(DEFAULT_DEMO.inputs())),
                None => hardware.debug.line(format_args!(
                    "demo: not played: the cartridge has no level {DEFAULT_LEVEL}"
                )),
            }
        }
        if let Some(exit) = session.game.exit() {
            // The level ended: on to the next, in DOOM's order where the
            // cartridge holds a WAD's maps (a secret exit to the secret map).
            let after = levels.after_exit(session.index, exit);
            hardware.debug.line(format_args!(
                "exit: {} on level {}, on to {} ({})",
                exit.name(),
                session.index + 1,
                levels.name(after),
                after + 1
            ));
            return to(after, Driver::Controller);
        }
        if actions.menu {
            match menu(hardware, ui, levels, session.index, true) {
                MenuChoice::Play(index) => return to(index, Driver::Controller),
                _ => {
                    // Back to the level, whose clock did not run meanwhile.
                    session.clock = TickClock::new(cp0::count());
                    stats = FrameStats::default();
                    ui.readout.update(&session, levels, ui.mode, None);
                    continue;
                }
            }
        }
        if actions.toggle_low_detail || actions.toggle_status_bar {
            ui.mode.low_detail ^= actions.toggle_low_detail;
            ui.mode.status_bar ^= actions.toggle_status_bar;
            hardware
                .debug
                .line(format_args!("view: {}", ui.mode.name()));
            stats = FrameStats::default();
            ui.readout.update(&session, levels, ui.mode, None);
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
        session.tick(input, hardware);

        let render_start = cp0::count();
        let camera = session.game.camera();
        view::render(&mut hardware.video, ui.mode, &session.game, &camera, shades);
        let render_ticks = cp0::count().wrapping_sub(render_start);
        view::readout(
            &mut hardware.video,
            ui.mode,
            ui.readout.top.as_str(),
            ui.readout.bottom.as_str(),
        );
        let drawn = hardware.video.present();
        let frame_ticks = drawn.wrapping_sub(frame_start);

        // The next frame shows this one's time.
        ui.readout
            .update(&session, levels, ui.mode, Some((frame_ticks, render_ticks)));
        stats.add(frame_ticks, render_ticks);
        if stats.frames == REPORT_FRAMES {
            hardware.debug.line(format_args!(
                "frame: level={} frames={} avg={} max={} render_avg={} budget={} stack={} view={}",
                levels.name(session.index),
                stats.frames,
                stats.frame_average(),
                stats.frame_max,
                stats.render_average(),
                THIRTIETH_OF_A_SECOND,
                memory::stack_high_water(),
                ui.mode.name(),
            ));
            stats = FrameStats::default();
        }
    }
}
