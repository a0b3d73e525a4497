//! A play session, the same in the window and headless: the game, who
//! drives it (demo, key script, keyboard, mouse, gamepad), the inspection
//! camera, the automap, and what is written down (trace, recording).
//!
//! The frontend calls [`Session::step`] at 35 Hz (the window by the wall
//! clock, headless as fast as it goes) and [`Session::press`] for each
//! one-press action. Each step, in order:
//!
//! 1. the key script's events due by now happen (its presses included);
//! 2. the held keys (keyboard, gamepad buttons, scripted) and the sticks
//!    and the mouse's carried turn make one [`Input`];
//! 3. with noclip or fly on, that input moves the inspection camera and
//!    the game waits; otherwise the game ticks, with the demo's input while
//!    the demo lasts and this input after it, and the input it got goes to
//!    the trace's and the recording's tick.

use std::time::{Duration, Instant};

use engine::game::{Game, Input, PlayerState};
use engine::math::Division;
use engine::render::{render, Camera, Frame, RenderStats, Scene, Shades};
use engine::world::SectorId;

use crate::automap::{self, Automap, MapView};
use crate::controls::{compose, Analog, Held, TurnCarry};
use crate::inspect::{Inspector, OUTSIDE};
use crate::keys::{Action, ActionSet, Bindings};
use crate::record::Recorder;
use crate::script::{Event as ScriptEvent, KeyScript};
use crate::trace::{Exact, Trace};

/// What the frontend reads each frame and hands to [`Session::step`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Live {
    /// Actions whose keys are held on the keyboard.
    pub held: ActionSet,
    /// Gamepad buttons held.
    pub pad: Held,
    /// Gamepad sticks.
    pub analog: Analog,
}

/// Something for the frontend to do or show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A short message for the screen (`NOCLIP ON`).
    Message(String),
    /// The `where` key: a line to print (exact values) and a short one for
    /// the screen.
    Where {
        /// For the terminal.
        full: String,
        /// For the screen.
        short: String,
    },
    /// The screenshot key was pressed.
    Screenshot,
    /// The mouse-look key was pressed.
    MouseLook,
    /// The last step ended the level.
    Exit(engine::game::Exit),
}

/// How a session starts.
#[derive(Debug, Default)]
pub struct Setup {
    /// The keys.
    pub bindings: Bindings,
    /// Run unless the run key is held.
    pub always_run: bool,
    /// The demo to play first.
    pub demo: Vec<(u32, Input)>,
    /// Scripted key events.
    pub script: Vec<ScriptEvent>,
    /// Where the trace goes.
    pub trace: Option<Trace>,
    /// Where the recording goes.
    pub record: Option<Recorder>,
}

/// A play session.
#[derive(Debug)]
pub struct Session<'a> {
    game: Game<'a>,
    bindings: Bindings,
    always_run: bool,
    demo: Vec<(u32, Input)>,
    demo_run: usize,
    demo_used: u32,
    script: KeyScript,
    carry: TurnCarry,
    inspector: Inspector,
    /// The automap's state.
    pub automap: Automap,
    trace: Option<Trace>,
    record: Option<Recorder>,
    /// How its frames divide ([`Scene::divided_by`]).
    division: Division,
    steps: u64,
    quit: bool,
    notices: Vec<Notice>,
}

impl<'a> Session<'a> {
    /// A session on `game` as `setup` says.
    pub fn new(game: Game<'a>, setup: Setup) -> Session<'a> {
        let inspector = Inspector::at_player(&game);
        Session {
            game,
            bindings: setup.bindings,
            always_run: setup.always_run,
            demo: setup.demo,
            demo_run: 0,
            demo_used: 0,
            script: KeyScript::new(setup.script),
            carry: TurnCarry::default(),
            inspector,
            automap: Automap::default(),
            trace: setup.trace,
            record: setup.record,
            division: Division::Integer,
            steps: 0,
            quit: false,
            notices: Vec::new(),
        }
    }

    /// The same session, its frames divided `division`'s way (see
    /// [`crate::division`]).
    pub fn divided_by(self, division: Division) -> Session<'a> {
        Session { division, ..self }
    }

    /// The game.
    pub fn game(&self) -> &Game<'a> {
        &self.game
    }

    /// The inspection camera (active while noclip or fly is on).
    pub fn inspector(&self) -> &Inspector {
        &self.inspector
    }

    /// Steps done (35 Hz, paused ones included).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// True once the quit key was pressed or the key script quit.
    pub fn quit(&self) -> bool {
        self.quit
    }

    /// Adds mouse turning, in hundredths of a degree (left positive); the
    /// next steps turn by it in whole degrees.
    pub fn add_turn_hundredths(&mut self, hundredths: i64) {
        self.carry.add_hundredths(hundredths);
    }

    /// Takes what the frontend should do or show since the last call.
    pub fn notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// Does a one-press action now.
    pub fn press(&mut self, action: Action) {
        match action {
            Action::Automap => self.automap.shown = !self.automap.shown,
            Action::Noclip | Action::Fly => {
                if !self.inspector.active() {
                    // Detach from wherever the player is now.
                    self.inspector = Inspector::at_player(&self.game);
                }
                let (flag, name) = if action == Action::Noclip {
                    (&mut self.inspector.noclip, "NOCLIP")
                } else {
                    (&mut self.inspector.fly, "FLY")
                };
                *flag = !*flag;
                let state = if *flag { "ON" } else { "OFF" };
                let mut text = format!("{name} {state}");
                if !self.inspector.active() {
                    text.push_str(": BACK TO THE PLAYER");
                }
                self.notices.push(Notice::Message(text));
            }
            Action::Where => {
                let (full, short) = self.where_text();
                self.notices.push(Notice::Where { full, short });
            }
            Action::Screenshot => self.notices.push(Notice::Screenshot),
            Action::MouseLook => self.notices.push(Notice::MouseLook),
            Action::Quit => self.quit = true,
            // Held actions do nothing on a press.
            _ => {}
        }
    }

    /// Runs one 35 Hz step with what the frontend read (see the module
    /// docs). Does nothing once the session has quit.
    pub fn step(&mut self, live: &Live) -> Result<(), String> {
        if self.quit {
            return Ok(());
        }
        let events = self.script.advance(self.steps);
        for key in events.pressed {
            let actions: Vec<Action> = self.bindings.actions(key).collect();
            for a in actions.into_iter().filter(|a| a.is_toggle()) {
                self.press(a);
            }
        }
        if events.quit {
            self.quit = true;
        }
        if self.quit {
            return Ok(());
        }
        let scripted = ActionSet::from_fn(|a| {
            self.bindings
                .keys(a)
                .iter()
                .any(|&k| self.script.is_down(k))
        });
        let held = live.held.union(scripted);
        let movement = Held::from_actions(|a| held.contains(a)).or(live.pad);
        let input = compose(movement, live.analog, self.always_run, &mut self.carry);
        if self.automap.shown {
            let zoom = i32::from(held.contains(Action::ZoomIn))
                - i32::from(held.contains(Action::ZoomOut));
            self.automap.zoom_by(zoom);
        }
        if self.inspector.active() {
            let rise =
                i32::from(held.contains(Action::FlyUp)) - i32::from(held.contains(Action::FlyDown));
            let level = self.game.level();
            self.inspector.tick(&level, input, rise);
        } else {
            let input = self.next_demo_input().unwrap_or(input);
            let running = self.game.exit().is_none();
            let secrets = self.game.world().secrets_found();
            self.game.tick(input);
            if let Some(exit) = self.game.exit().filter(|_| running) {
                self.notices.push(Notice::Exit(exit));
            }
            if self.game.world().secrets_found() > secrets {
                self.notices
                    .push(Notice::Message("A SECRET IS REVEALED!".into()));
            }
            if let Some(text) = key_message(self.game.events()) {
                self.notices.push(Notice::Message(text));
            }
            if let Some(t) = self.trace.as_mut() {
                t.record(&self.game.player())?;
            }
            if let Some(r) = self.record.as_mut() {
                r.record(input)?;
            }
        }
        self.steps += 1;
        Ok(())
    }

    fn next_demo_input(&mut self) -> Option<Input> {
        while let Some(&(count, input)) = self.demo.get(self.demo_run) {
            if self.demo_used < count {
                self.demo_used += 1;
                return Some(input);
            }
            self.demo_run += 1;
            self.demo_used = 0;
        }
        None
    }

    /// The view: the inspection camera while it is active, else the
    /// player's eyes.
    pub fn camera(&self) -> Camera {
        if self.inspector.active() {
            self.inspector.camera()
        } else {
            self.game.camera()
        }
    }

    /// Renders the view into `pixels` (`width` x `height`) and, when it is
    /// shown, the automap over it. Returns the renderer's figures and time
    /// (the automap's not included).
    pub fn draw(
        &self,
        shades: &Shades<u32>,
        pixels: &mut [u32],
        width: usize,
        height: usize,
    ) -> Result<(RenderStats, Duration), String> {
        let camera = self.camera();
        let (stats, took) = {
            let mut frame = Frame::new(pixels, width, height, width)
                .ok_or_else(|| format!("cannot render at {width}x{height}"))?;
            let start = Instant::now();
            let stats = render(
                &Scene::of_game(&self.game)
                    .seen_from(camera)
                    .divided_by(self.division),
                shades,
                &mut frame,
            );
            (stats, start.elapsed())
        };
        if self.automap.shown {
            let view = MapView {
                x: camera.pos.x.to_num(),
                y: camera.pos.y.to_num(),
                angle: camera.angle.degrees().to_num(),
                scale: automap::DEFAULT_ZOOM * self.automap.zoom * width as f64 / 320.0,
            };
            let skip = usize::from(!self.inspector.active());
            let bodies: Vec<_> = self
                .game
                .bodies()
                .iter()
                .skip(skip)
                .map(|b| b.at.pos)
                .collect();
            automap::draw(pixels, width, height, &self.game.level(), &view, &bodies);
        }
        Ok((stats, took))
    }

    /// The `where` key's text: position, facing, sector, its heights and
    /// light, exact (for the terminal) and short (for the screen).
    pub fn where_text(&self) -> (String, String) {
        let cam = self.camera();
        let (z, mode) = if self.inspector.active() {
            let mode = match (self.inspector.noclip, self.inspector.fly) {
                (true, true) => " (noclip, fly)",
                (true, false) => " (noclip)",
                _ => " (fly)",
            };
            (self.inspector.placement().z, mode)
        } else {
            (self.game.player().z, "")
        };
        let level = self.game.level();
        let sector = (cam.sector != OUTSIDE && usize::from(cam.sector.0) < level.sector_count())
            .then(|| level.sector(cam.sector));
        let where_sector = |exact: bool| match sector {
            Some(s) => {
                let n = |v: engine::math::Fx| {
                    if exact {
                        Exact(v).to_string()
                    } else {
                        format!("{:.1}", v.to_num::<f64>())
                    }
                };
                let SectorId(id) = cam.sector;
                format!(
                    "sector {id} floor {} ceiling {} light {}",
                    n(s.floor),
                    n(s.ceiling),
                    s.light
                )
            }
            None => "outside the map".to_string(),
        };
        let full = format!(
            "where: x {} y {} z {} eye {} angle {} {} tick {}{mode}",
            Exact(cam.pos.x),
            Exact(cam.pos.y),
            Exact(z),
            Exact(cam.eye_z),
            Exact(cam.angle.degrees()),
            where_sector(true),
            self.game.tick_count(),
        );
        let f = |v: engine::math::Fx| format!("{:.0}", v.to_num::<f64>());
        let short = format!(
            "X {} Y {} Z {} A {} {}",
            f(cam.pos.x),
            f(cam.pos.y),
            f(z),
            f(cam.angle.degrees()),
            where_sector(false)
                .replace("sector", "S")
                .replace("floor", "F")
                .replace("ceiling", "C")
                .replace("light", "L")
        );
        (full, short)
    }

    /// Ends the session: finishes the trace and the recording. Returns
    /// the player's final state.
    pub fn finish(self) -> Result<PlayerState, String> {
        if let Some(t) = self.trace {
            t.finish()?;
        }
        if let Some(r) = self.record {
            r.finish()?;
        }
        Ok(self.game.player())
    }
}

/// What the message line says of a tick's keys, DOOM's words: a key
/// picked up, or the one a lock asked for.
fn key_message(events: engine::game::Events) -> Option<String> {
    if let Some(lock) = events.locked {
        let what = if lock.door {
            "OPEN THIS DOOR"
        } else {
            "ACTIVATE THIS OBJECT"
        };
        let colour = lock.colour.name().to_uppercase();
        return Some(format!("YOU NEED A {colour} KEY TO {what}"));
    }
    let key = events.picked_up?;
    let colour = key.colour.name().to_uppercase();
    let what = if key.skull { "SKULL KEY" } else { "KEYCARD" };
    Some(format!("PICKED UP A {colour} {what}."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::parse_script;
    use engine::world::Level;

    const TWO_ROOMS: &str = include_str!("../tests/data/two_rooms.map");

    fn session<'a>(level: Level<'a>, script: &str) -> Session<'a> {
        Session::new(
            Game::new(level),
            Setup {
                always_run: true,
                script: parse_script(script, "t").unwrap(),
                ..Setup::default()
            },
        )
    }

    #[test]
    fn scripted_keys_drive_the_game_like_a_demo() {
        let map = tools::compile_source(TWO_ROOMS, "t").unwrap();
        let level = Level::load(&map.bytes).unwrap();
        let mut s = session(
            level,
            "0 W down\n10 W up\n10 Left down\n12 Left up\n20 quit\n",
        );
        let mut demo_game = Game::new(level);
        while !s.quit() {
            s.step(&Live::default()).unwrap();
        }
        assert_eq!(s.steps(), 20);
        for t in 0..20 {
            let i = match t {
                0..10 => Input::new(100, 0, 0),
                10..12 => Input::new(0, 0, 5),
                _ => Input::IDLE,
            };
            demo_game.tick(i);
        }
        assert_eq!(s.game().player(), demo_game.player());
    }

    /// Every notice of a session on the text map `src`, played by `script`.
    fn notices_of(src: &str, script: &str) -> Vec<Notice> {
        let map = tools::compile_source(src, "t").unwrap();
        let level = Level::load(&map.bytes).unwrap();
        let mut s = session(level, script);
        let mut notices = Vec::new();
        while !s.quit() {
            s.step(&Live::default()).unwrap();
            notices.extend(s.notices());
        }
        notices
    }

    #[test]
    fn a_secret_and_an_exit_are_noticed_once() {
        let src = "vertex a 0 0\nvertex b 256 0\nvertex c 256 256\nvertex d 0 256\n\
                   vertex e 512 0\nvertex f 512 256\nvertex g 768 0\nvertex h 768 256\n\
                   sector hall floor 0 ceiling 128\n\
                   sector nook floor 0 ceiling 128 effect secret\n\
                   sector out floor 0 ceiling 128\n\
                   loop hall a b c d a\nloop nook b e f c b\nloop out e g h f e\n\
                   player 64 128 0\nexit e f walk\n";
        assert_eq!(
            notices_of(src, "0 W down\n100 quit\n"),
            [
                Notice::Message("A SECRET IS REVEALED!".into()),
                Notice::Exit(engine::game::Exit::Normal)
            ]
        );
    }

    #[test]
    fn a_lock_and_a_key_are_told_on_the_message_line() {
        // The player faces a blue door with the card behind it: use is
        // refused, then the walk back picks the card up.
        let src = "vertex a 0 0\nvertex b 256 0\nvertex c 256 128\nvertex d 0 128\n\
                   vertex e 272 0\nvertex f 272 128\n\
                   sector hall floor 0 ceiling 128\nsector door floor 0 ceiling 0\n\
                   loop hall a b c d a\nloop door b e f c b\n\
                   door c b key blue\nkey blue 40 64\nplayer 220 64 0\n";
        assert_eq!(
            notices_of(src, "0 E down\n1 E up\n2 S down\n40 S up\n41 quit\n"),
            [
                Notice::Message("YOU NEED A BLUE KEY TO OPEN THIS DOOR".into()),
                Notice::Message("PICKED UP A BLUE KEYCARD.".into()),
            ]
        );
    }

    #[test]
    fn noclip_pauses_the_game_and_comes_back() {
        let map = tools::compile_source(TWO_ROOMS, "t").unwrap();
        let level = Level::load(&map.bytes).unwrap();
        // Noclip on at step 0, walk for 10 steps, noclip off.
        let mut s = session(
            level,
            "0 N down\n1 N up\n1 W down\n11 W up\n11 N down\n12 N up\n15 quit\n",
        );
        let start = s.game().player();
        let mut moved_camera = None;
        while !s.quit() {
            s.step(&Live::default()).unwrap();
            if s.steps() == 11 {
                moved_camera = Some(s.camera());
            }
        }
        let cam = moved_camera.unwrap();
        assert_eq!(cam.pos.x, start.pos.x + engine::math::Fx::from_num(160));
        // The game ran only once noclip was off again: steps 11 to 14.
        assert_eq!(s.game().tick_count(), 4);
        assert_eq!(s.game().player().pos, start.pos);
        assert_eq!(s.camera(), s.game().camera());
        let notices = s.notices();
        assert_eq!(
            notices,
            [
                Notice::Message("NOCLIP ON".into()),
                Notice::Message("NOCLIP OFF: BACK TO THE PLAYER".into())
            ]
        );
    }

    #[test]
    fn where_names_the_sector_and_heights() {
        let map = tools::compile_source(TWO_ROOMS, "t").unwrap();
        let level = Level::load(&map.bytes).unwrap();
        let mut s = session(level, "");
        s.press(Action::Where);
        let Some(Notice::Where { full, short }) = s.notices().pop() else {
            panic!("no where notice");
        };
        assert_eq!(
            full,
            "where: x 128 y 192 z 0 eye 41 angle 0 sector 0 floor 0 ceiling 128 light 200 tick 0"
        );
        assert_eq!(short, "X 128 Y 192 Z 0 A 0 S 0 F 0.0 C 128.0 L 200");
    }

    #[test]
    fn the_automap_toggles_and_zooms_while_held() {
        let map = tools::compile_source(TWO_ROOMS, "t").unwrap();
        let level = Level::load(&map.bytes).unwrap();
        let mut s = session(level, "0 Tab down\n0 Equal down\n10 quit\n");
        while !s.quit() {
            s.step(&Live::default()).unwrap();
        }
        assert!(s.automap.shown);
        assert!((s.automap.zoom - 1.02f64.powi(10)).abs() < 1e-9);
    }
}
