//! The message line: what a tick of the game reported that the player
//! should be told (a key picked up, a lock that needs one, a secret
//! found), in DOOM's words, shown for two seconds in place of the
//! readout's first line, as the desktop's window shows it on its own.

use core::fmt::Write as _;

use engine::game::Events;
use engine::specials::KeyColour;

use crate::text::LineBuffer;

/// How long a message stays, in game ticks (two seconds).
pub const SHOWN_TICKS: u16 = 70;

/// The message shown now, if any, and for how long yet.
#[derive(Clone, Default)]
pub struct MessageLine {
    text: LineBuffer<48>,
    ticks_left: u16,
}

impl MessageLine {
    /// No message.
    pub const fn new() -> MessageLine {
        MessageLine {
            text: LineBuffer::new(),
            ticks_left: 0,
        }
    }

    /// One game tick ran: it reported `events`, and `secret` if a secret
    /// was found in it. A new message replaces the old one.
    pub fn after_tick(&mut self, events: Events, secret: bool) {
        self.ticks_left = self.ticks_left.saturating_sub(1);
        let mut text = LineBuffer::new();
        // Writing to a LineBuffer cannot fail (it truncates).
        if let Some(lock) = events.locked {
            let what = if lock.door {
                "OPEN THIS DOOR"
            } else {
                "ACTIVATE THIS OBJECT"
            };
            let _ = write!(text, "YOU NEED A {} KEY TO {what}", upper(lock.colour));
        } else if let Some(key) = events.picked_up {
            let what = if key.skull { "SKULL KEY" } else { "KEYCARD" };
            let _ = write!(text, "PICKED UP A {} {what}.", upper(key.colour));
        } else if secret {
            let _ = write!(text, "A SECRET IS REVEALED!");
        } else {
            return;
        }
        self.text = text;
        self.ticks_left = SHOWN_TICKS;
    }

    /// The message to show, while it lasts.
    pub fn current(&self) -> Option<&str> {
        (self.ticks_left > 0).then(|| self.text.as_str())
    }
}

/// The colour's name in capitals (the font has no small letters).
fn upper(colour: KeyColour) -> &'static str {
    match colour {
        KeyColour::Blue => "BLUE",
        KeyColour::Yellow => "YELLOW",
        KeyColour::Red => "RED",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::game::Locked;
    use engine::specials::PickedUp;

    #[test]
    fn each_report_is_told_for_two_seconds() {
        let mut line = MessageLine::new();
        assert_eq!(line.current(), None);
        line.after_tick(Events::default(), false);
        assert_eq!(line.current(), None);
        let locked = Events {
            locked: Some(Locked {
                colour: KeyColour::Blue,
                door: true,
            }),
            ..Events::default()
        };
        line.after_tick(locked, false);
        assert_eq!(
            line.current(),
            Some("YOU NEED A BLUE KEY TO OPEN THIS DOOR")
        );
        for _ in 1..SHOWN_TICKS {
            line.after_tick(Events::default(), false);
            assert!(line.current().is_some());
        }
        line.after_tick(Events::default(), false);
        assert_eq!(line.current(), None);
        let picked = Events {
            picked_up: Some(PickedUp {
                colour: KeyColour::Yellow,
                skull: true,
                thing: 3,
            }),
            ..Events::default()
        };
        line.after_tick(picked, false);
        assert_eq!(line.current(), Some("PICKED UP A YELLOW SKULL KEY."));
        // A later report replaces it.
        line.after_tick(Events::default(), true);
        assert_eq!(line.current(), Some("A SECRET IS REVEALED!"));
        let switch = Events {
            locked: Some(Locked {
                colour: KeyColour::Red,
                door: false,
            }),
            ..Events::default()
        };
        line.after_tick(switch, false);
        assert_eq!(
            line.current(),
            Some("YOU NEED A RED KEY TO ACTIVATE THIS OBJECT")
        );
    }
}
