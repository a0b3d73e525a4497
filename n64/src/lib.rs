//! The Nintendo 64 frontend's portable half: everything the ROM does that
//! is not hardware access, so that it builds and is unit tested on the
//! host too. The ROM's program (`src/main.rs`) adds the hardware (`hw`,
//! the only module with `unsafe`) and the main loop.
//!
//! * [`controls`]: controller state → the engine's [`engine::game::Input`],
//!   in the units of the desktop's demo lines, plus the button actions;
//! * [`clock`]: CP0 Count ticks → 35 Hz game ticks;
//! * [`cartridge`]: the levels, a level pack on the cartridge, each copied
//!   into RDRAM when it starts; [`menu`]: the title and level menu;
//! * [`demo`]: the demo embedded at build time, and the level it plays on;
//! * [`trace`]: the desktop's exact state line (`{"tick":..,"x":..}`);
//! * [`text`], [`font`], [`overlay`]: fixed-size text and the on-screen
//!   readout; [`message`]: the message line (keys, locks, secrets);
//! * [`tour`]: the fixed views of a level that the measuring ROM times;
//! * [`view_mode`]: low detail and the status bar, and the pixel pairs
//!   low detail writes.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod cartridge;
pub mod clock;
pub mod controls;
pub mod demo;
pub mod font;
pub mod menu;
pub mod message;
pub mod overlay;
pub mod text;
pub mod tour;
pub mod trace;
pub mod view_mode;
