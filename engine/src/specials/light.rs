//! Sector lights that change by themselves: DOOM's flickering, strobing,
//! glowing and fire-flicker sector types (`p_lights.c`), with its timings.
//!
//! Each light sector gets one [`Light`] when the world is made, in sector
//! order; every tick each runs once, before the movers. Where DOOM draws
//! from its random table, a light draws from the world's own generator
//! ([`Random`]), so the same map gives the same lights, tick for tick, on
//! every machine.

use super::plane::neighbours;
use crate::format::sector_special;
use crate::world::{Level, SectorId, SectorState};

/// Ticks a strobe stays bright (DOOM's `STROBEBRIGHT`).
pub const STROBE_BRIGHT: u8 = 5;
/// Ticks a fast strobe stays dark (`FASTDARK`).
pub const FAST_DARK: u8 = 15;
/// Ticks a slow strobe stays dark (`SLOWDARK`).
pub const SLOW_DARK: u8 = 35;
/// Light steps a glow moves a tick (`GLOWSPEED`).
pub const GLOW_SPEED: i16 = 8;

/// How a light changes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LightKind {
    /// Off at random moments: bright up to 64 ticks, dark up to 8.
    Flicker,
    /// Dark `dark` ticks, bright [`STROBE_BRIGHT`].
    Strobe {
        /// Ticks dark.
        dark: u8,
    },
    /// Down to the darkest neighbour and back up, 8 steps a tick.
    Glow,
    /// Like fire: every 4 ticks, up to 48 below its brightest.
    Fire,
}

/// A sector light at work.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Light {
    /// Its sector.
    pub sector: SectorId,
    /// How it changes.
    pub kind: LightKind,
    /// Its darkest level.
    pub min: u8,
    /// Its brightest.
    pub max: u8,
    /// Ticks until it next changes (glows change every tick).
    pub count: u8,
    /// A glow is getting brighter.
    pub rising: bool,
}

/// The world's random numbers: a 32-bit xorshift, one byte a draw. DOOM
/// uses a fixed table of 256; any fixed sequence keeps the game
/// deterministic, and this one is ours.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Random(pub u32);

impl Random {
    /// The generator every world starts with.
    pub const START: Random = Random(0x2545_f491);

    /// The next byte.
    pub fn byte(&mut self) -> u8 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        (x >> 24) as u8
    }
}

/// Sets the light of the sectors tagged `tag` as light action `action`
/// says ([`wall_action::is_light`](crate::format::wall_action::is_light)),
/// at once. False if no sector has the tag.
pub(crate) fn set_tagged(
    map: &Level<'_>,
    sectors: &mut [SectorState],
    tag: u16,
    action: u8,
) -> bool {
    use crate::format::wall_action::*;
    // DOOM's EV_LightTurnOn(line, 0) looks for the brightest neighbour
    // only while its level is still 0: later sectors take the first's.
    let mut bright = match action {
        LIGHT_FULL => 255,
        LIGHT_DIM => 35,
        _ => 0,
    };
    let mut any = false;
    for id in super::tagged_sectors(map, tag, sectors.len()) {
        any = true;
        let live = map.with_state(sectors);
        let level = match action {
            LIGHT_DARKEST_AROUND => darkest_around(&live, id, live.sector(id).light),
            LIGHT_BRIGHTEST_AROUND if bright == 0 => {
                bright = neighbours(&live, id).map(|s| s.light).fold(0, u8::max);
                bright
            }
            _ => bright,
        };
        if let Some(s) = sectors.get_mut(usize::from(id.0)) {
            s.light = level;
        }
    }
    any
}

/// The darkest light of the sectors next to `sector`, or `max` if none is
/// darker (DOOM's `P_FindMinSurroundingLight`).
fn darkest_around(level: &Level<'_>, sector: SectorId, max: u8) -> u8 {
    neighbours(level, sector)
        .map(|s| s.light)
        .fold(max, u8::min)
}

impl Light {
    /// The light sector special `special` makes on `sector` of `level`
    /// (as built, for the map's own; as it is, for a strobe a line
    /// starts), drawing its first wait from `random`; `None` for the
    /// specials that are not lights.
    pub(crate) fn new(
        level: &Level<'_>,
        sector: SectorId,
        special: u16,
        random: &mut Random,
    ) -> Option<Light> {
        use sector_special::*;
        // Most sectors do nothing by themselves: no walk round them.
        if special == NONE {
            return None;
        }
        let max = level.sector(sector).light;
        let darkest = darkest_around(level, sector, max);
        let strobe = |dark: u8, in_step: bool, random: &mut Random| {
            // A strobe with no darker neighbour goes fully dark.
            let min = if darkest == max { 0 } else { darkest };
            let count = if in_step { 1 } else { (random.byte() & 7) + 1 };
            (LightKind::Strobe { dark }, min, count)
        };
        let (kind, min, count) = match special {
            FLICKER => (LightKind::Flicker, darkest, (random.byte() & 64) + 1),
            STROBE_FAST => strobe(FAST_DARK, false, random),
            STROBE_SLOW => strobe(SLOW_DARK, false, random),
            STROBE_SLOW_SYNC => strobe(SLOW_DARK, true, random),
            STROBE_FAST_SYNC => strobe(FAST_DARK, true, random),
            GLOW => (LightKind::Glow, darkest, 0),
            FIRE_FLICKER => (LightKind::Fire, darkest.saturating_add(16), 4),
            _ => return None,
        };
        Some(Light {
            sector,
            kind,
            min,
            max,
            count,
            rising: false,
        })
    }

    /// One tick of the light on its sector's state.
    pub(crate) fn tick(&mut self, state: &mut SectorState, random: &mut Random) {
        if self.kind == LightKind::Glow {
            let (light, min, max) = (
                i16::from(state.light),
                i16::from(self.min),
                i16::from(self.max),
            );
            let next = if self.rising {
                light + GLOW_SPEED
            } else {
                light - GLOW_SPEED
            };
            // Past an end it steps back and turns.
            let next = if !self.rising && next <= min {
                self.rising = true;
                next + GLOW_SPEED
            } else if self.rising && next >= max {
                self.rising = false;
                next - GLOW_SPEED
            } else {
                next
            };
            state.light = next.clamp(0, 255) as u8;
            return;
        }
        self.count = self.count.saturating_sub(1);
        if self.count > 0 {
            return;
        }
        match self.kind {
            LightKind::Flicker => {
                if state.light == self.max {
                    state.light = self.min;
                    self.count = (random.byte() & 7) + 1;
                } else {
                    // DOOM masks with 64, not 63: bright 1 or 65 ticks.
                    state.light = self.max;
                    self.count = (random.byte() & 64) + 1;
                }
            }
            LightKind::Strobe { dark } => {
                if state.light == self.min {
                    state.light = self.max;
                    self.count = STROBE_BRIGHT;
                } else {
                    state.light = self.min;
                    self.count = dark;
                }
            }
            LightKind::Fire => {
                let amount = (random.byte() & 3) * 16;
                state.light = if state.light.saturating_sub(amount) < self.min {
                    self.min
                } else {
                    self.max.saturating_sub(amount)
                };
                self.count = 4;
            }
            LightKind::Glow => {}
        }
    }
}
