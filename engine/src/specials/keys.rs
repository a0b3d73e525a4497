//! Keys: the keycards and skull keys lying in the level, the ones the
//! player holds, and the locks that ask for them (DOOM's `it_bluecard`
//! and the rest, and its locked doors).
//!
//! A key is picked up when the player's box touches the key's, as DOOM's
//! `PIT_CheckThing` touches a pickup: the centres closer than the two
//! radii on both axes, and the key's height (the floor it lies on)
//! between 8 below the feet and the top of the head. A card and a skull
//! of one colour open the same locks, as in DOOM's doors.

use heapless::Vec as HVec;

use crate::collide::BodyShape;
use crate::config::MAX_KEY_THINGS;
use crate::format::kind;
use crate::math::{wide, Fx, Vec2, Wide};
use crate::world::Level;

/// A key's colour: what a lock asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyColour {
    /// Blue.
    Blue,
    /// Yellow.
    Yellow,
    /// Red.
    Red,
}

impl KeyColour {
    /// The colour of a [`crate::format::trigger::lock`] or
    /// [`kind::key_lock`] value (1 blue, 2 yellow, 3 red), or `None` (0:
    /// no lock).
    pub fn of_lock(lock: u8) -> Option<KeyColour> {
        match lock {
            1 => Some(KeyColour::Blue),
            2 => Some(KeyColour::Yellow),
            3 => Some(KeyColour::Red),
            _ => None,
        }
    }

    /// `"blue"`, `"yellow"` or `"red"`.
    pub fn name(self) -> &'static str {
        match self {
            KeyColour::Blue => "blue",
            KeyColour::Yellow => "yellow",
            KeyColour::Red => "red",
        }
    }

    fn bit(self) -> u8 {
        match self {
            KeyColour::Blue => 1,
            KeyColour::Yellow => 2,
            KeyColour::Red => 4,
        }
    }
}

/// A key the player has just picked up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PickedUp {
    /// Its colour.
    pub colour: KeyColour,
    /// A skull key (else a keycard).
    pub skull: bool,
    /// The thing it was (its index in the map's things).
    pub thing: u16,
}

/// A key not yet picked up: its thing's fields that touching it reads,
/// copied once so that a tick need not decode the thing again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Lying {
    thing: u16,
    pos: Vec2,
    radius: Fx,
    colour: KeyColour,
    skull: bool,
}

/// The keys of a level: which lie where the map put them, which the
/// player holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    /// The keys not yet picked up, in map order.
    lying: HVec<Lying, MAX_KEY_THINGS>,
    /// Indices of the key things picked up, in the order they were.
    taken: HVec<u16, MAX_KEY_THINGS>,
    /// One bit per [`KeyColour`] held.
    held: u8,
}

impl Keys {
    /// The keys of `level`'s map, all lying, none held. (The loader
    /// refuses a map with more than [`MAX_KEY_THINGS`].)
    pub fn new(level: &Level<'_>) -> Keys {
        let mut lying = HVec::new();
        for (i, t) in level.map().things().enumerate() {
            if let Some(colour) = KeyColour::of_lock(kind::key_lock(t.kind)) {
                let _ = lying.push(Lying {
                    thing: i as u16,
                    pos: Vec2::new(t.x, t.y),
                    radius: t.radius,
                    colour,
                    skull: t.kind >= kind::BLUE_SKULL,
                });
            }
        }
        Keys {
            lying,
            taken: HVec::new(),
            held: 0,
        }
    }

    /// Whether the player holds a key of `colour`.
    pub fn holds(&self, colour: KeyColour) -> bool {
        self.held & colour.bit() != 0
    }

    /// The player now holds a key of `colour` (one given, not picked up).
    pub(crate) fn give(&mut self, colour: KeyColour) {
        self.held |= colour.bit();
    }

    /// The colours held, one bit each (blue 1, yellow 2, red 4).
    pub fn held_bits(&self) -> u8 {
        self.held
    }

    /// Whether any key is still lying in the level.
    pub fn any_lying(&self) -> bool {
        !self.lying.is_empty()
    }

    /// Whether thing `index` is a key the player has picked up.
    pub fn is_taken(&self, index: usize) -> bool {
        self.taken.iter().any(|&t| usize::from(t) == index)
    }

    /// The key things picked up, in the order they were.
    pub fn taken(&self) -> &[u16] {
        &self.taken
    }

    /// The body of `shape` stands at `pos`, feet at `z`: every key it
    /// touches is picked up. Returns the last one picked up this way.
    pub(crate) fn touch(
        &mut self,
        level: &Level<'_>,
        pos: Vec2,
        z: Fx,
        shape: &BodyShape,
    ) -> Option<PickedUp> {
        let mut picked = None;
        let mut k = 0;
        while let Some(&key) = self.lying.get(k) {
            // Wide: centres and sums of radii may not fit in 16.16.
            let reach = wide(key.radius) + wide(shape.radius);
            let near = (wide(key.pos.x) - wide(pos.x)).abs() < reach
                && (wide(key.pos.y) - wide(pos.y)).abs() < reach;
            // Only a key in reach asks where its floor is.
            let touches = near
                && level.locate(key.pos).is_some_and(|s| {
                    let above = wide(level.sector(s).floor) - wide(z);
                    above <= wide(shape.height) && above >= Wide::from_num(-8)
                });
            if !touches {
                k += 1;
                continue;
            }
            self.lying.remove(k);
            // As many are taken as ever lay: the list has room.
            let _ = self.taken.push(key.thing);
            self.held |= key.colour.bit();
            picked = Some(PickedUp {
                colour: key.colour,
                skull: key.skull,
                thing: key.thing,
            });
        }
        picked
    }
}
