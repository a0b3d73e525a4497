//! # A sector/portal raycaster for small machines
//!
//! This crate is the whole engine: the compiled map format, the runtime
//! level, collision, the game tick and the renderer. It has no heap, no
//! clock, no I/O and no `unsafe`; it builds for bare-metal targets (the
//! Nintendo 64, a Cortex-M) as well as for desktops. Frontends are thin: they
//! own the window or the video hardware, the clock and the input devices, and
//! call into the engine.
//!
//! ## The whole sequence
//!
//! Load a map's bytes (compiled by the map compiler, `tools`), start a
//! game, tick it with input 35 times a second, and draw what the player
//! sees into pixels of the caller's:
//!
//! ```
//! use engine::game::{Game, Input};
//! use engine::render::{render, Frame, Scene, Shades};
//! use engine::world::Level;
//!
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/e1_hangar.map");
//! # let bytes = tools::load_map_file(std::path::Path::new(path)).unwrap();
//! // `bytes`: a compiled map, from a file, a cartridge or `include_bytes!`.
//! let level = Level::load(&bytes).expect("a map the loader accepts");
//! let mut game = Game::new(level);
//! for _ in 0..35 {
//!     game.tick(Input::new(100, 0, 0)); // one second, running forward
//! }
//! assert!(game.player().tick == 35);
//!
//! let shades = Shades::<u32>::for_map(game.level().map());
//! let mut pixels = vec![0u32; 320 * 200];
//! let mut frame = Frame::new(&mut pixels, 320, 200, 320).unwrap();
//! let stats = render(&Scene::of_game(&game), &shades, &mut frame);
//! assert_eq!(stats.columns_leaked, 0); // every column shows the level
//! ```
//!
//! `engine/examples/` has it as programs: `headless` (a map, two seconds
//! of input, a PPM of the view) and `custom_entity` (a body of the game's
//! own, driven each tick with `Game::spawn` and `Game::drive`).
//!
//! ## The layers, bottom up
//!
//! * [`math`]: the one fixed-point type ([`math::Fx`], 16.16) for every world
//!   quantity, a 48.16 [`math::Wide`] for products, angles and an integer
//!   sine table. No result depends on floating point (a division may be
//!   guessed in doubles, then settled exactly in integers), so the same
//!   inputs give the same bits on every machine.
//! * [`config`]: every capacity limit and tuning constant, shared with the
//!   map compiler.
//! * [`format`]: the compiled map, defined once. [`format::MapView`] reads it
//!   in place from a `&[u8]` after checking every index and count once
//!   (`new_checked`); [`format::MapRepr`] writes it. Big-endian on disk, so
//!   the N64 reads the same bytes in place. [`format::blockmap`] is the
//!   rule for which blocks list a wall, shared by compiler and loader.
//! * [`world`]: the runtime level: sectors and walls linked by index
//!   newtypes, the blockmap broadphase, point location and the
//!   [`world::Camera`]. Each layer uses only those above it in this list,
//!   and `render` (which draws a [`game::Game`]) is the one above `game`.
//! * [`collide`]: one query per file: closest point on a segment, segment
//!   crossings, and the mover that slides a circle through the level
//!   (sub-steps, push-out, knee and head checks, portal tracking).
//! * [`game`]: the fixed-tick simulation. [`game::Game::tick`] takes one
//!   tick of input; time is passed in by calling it, never read.
//! * [`demo`]: demo lines (`COUNT FORWARD STRAFE TURN [USE]`), the scripted
//!   input every frontend plays and records.
//! * [`episode`]: DOOM's order of maps, where a normal or a secret exit
//!   leads, for every frontend alike.
//! * [`trace`]: the player's state as one line of JSON with exact decimal
//!   numbers, the shape every frontend prints.
//! * [`render`]: a walk through the map's BSP as DOOM's, nearest
//!   subsector first, drawing into a caller-owned [`render::Frame`] whose
//!   pixel type is a parameter. `render::bsp` decides what each column
//!   sees; `render::draw` touches pixels.
//! * [`viewpoints`]: fixed, seeded cameras in a level, the frames every
//!   frontend's benchmark renders.
//!
//! ## Three promises
//!
//! 1. **No heap.** Storage with a capacity is `heapless`; the map is
//!    borrowed; framebuffers belong to the caller.
//! 2. **Validated once, then panic-free.** Bad bytes give a
//!    [`format::LoadError`]; after a successful load nothing panics, whatever
//!    the camera or the input.
//! 3. **Deterministic.** `tick` is a pure function of the state and the
//!    input: same inputs, same state, bit for bit, on desktop and console.
//!    The engine keeps no process-wide state: how the renderer divides
//!    ([`render::Scene::divided_by`]) is passed in with each frame, and
//!    changes the speed, never a pixel.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod collide;
pub mod config;
pub mod demo;
pub mod episode;
pub mod format;
pub mod game;
pub mod math;
pub mod render;
pub mod specials;
pub mod trace;
pub mod viewpoints;
pub mod world;
