//! The title and level menu: the cartridge's levels listed by name and
//! title, one chosen with the stick or the D-pad and started with A (or
//! Start); B goes back to the level being played, if there is one. Shown
//! at boot, and over a level when A is pressed.
//!
//! This is the menu's state and its rows; the ROM draws them
//! ([`crate::overlay`]'s text) and loads the level chosen.

use core::fmt::Write as _;

use crate::controls::Actions;
use crate::text::LineBuffer;

/// Level rows shown at once; the list scrolls to keep the choice in view.
pub const ROWS: usize = 15;

/// What the player asked of the menu.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MenuChoice {
    /// Nothing yet: keep showing it.
    Stay,
    /// Play level `n` (from its start).
    Play(usize),
    /// Back to the level being played.
    Resume,
}

/// The menu's selection over `count` levels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    count: usize,
    selected: usize,
    first_row: usize,
    /// Whether B goes back to a level.
    can_resume: bool,
}

impl Menu {
    /// A menu over `count` levels (at least one) with `selected` chosen;
    /// `can_resume` when a level is being played under it.
    pub fn new(count: usize, selected: usize, can_resume: bool) -> Menu {
        let count = count.max(1);
        let mut menu = Menu {
            count,
            selected: selected.min(count - 1),
            first_row: 0,
            can_resume,
        };
        menu.scroll();
        menu
    }

    /// The level chosen now.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// Takes one controller reading's actions.
    pub fn update(&mut self, actions: &Actions) -> MenuChoice {
        if actions.menu || actions.play_demo {
            return MenuChoice::Play(self.selected);
        }
        if actions.back && self.can_resume {
            return MenuChoice::Resume;
        }
        // Up from the first goes round to the last, and down from the
        // last to the first, as L and R do in play.
        if actions.up {
            self.selected = (self.selected + self.count - 1) % self.count;
        }
        if actions.down {
            self.selected = (self.selected + 1) % self.count;
        }
        if actions.previous_level {
            self.selected = self.selected.saturating_sub(ROWS);
        }
        if actions.next_level {
            self.selected = (self.selected + ROWS).min(self.count - 1);
        }
        self.scroll();
        MenuChoice::Stay
    }

    fn scroll(&mut self) {
        if self.selected < self.first_row {
            self.first_row = self.selected;
        }
        if self.selected >= self.first_row + ROWS {
            self.first_row = self.selected + 1 - ROWS;
        }
    }

    /// The levels in view, first to last: (level, whether it is the
    /// chosen one).
    pub fn rows(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        (self.first_row..self.count.min(self.first_row + ROWS)).map(|i| (i, i == self.selected))
    }

    /// The help line under the list.
    pub fn help(&self) -> &'static str {
        if self.can_resume {
            "A PLAY  B BACK  L/R PAGE"
        } else {
            "A PLAY  L/R PAGE"
        }
    }
}

/// A row's text.
pub type RowText = LineBuffer<52>;

/// A level's row: its number, name and title.
pub fn row_text(number: usize, name: &str, title: &str) -> RowText {
    let mut line = LineBuffer::new();
    // Writing to a LineBuffer cannot fail (it truncates).
    let _ = write!(line, "{number:2} {name}");
    if !title.is_empty() && !title.eq_ignore_ascii_case(name) {
        let _ = write!(line, "  {title}");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(f: impl Fn(&mut Actions)) -> Actions {
        let mut a = Actions::default();
        f(&mut a);
        a
    }

    #[test]
    fn up_and_down_move_the_choice_round_and_a_plays_it() {
        let mut m = Menu::new(3, 0, false);
        assert_eq!(m.update(&press(|a| a.up = true)), MenuChoice::Stay);
        assert_eq!(m.selected(), 2);
        m.update(&press(|a| a.down = true));
        m.update(&press(|a| a.down = true));
        assert_eq!(m.selected(), 1);
        assert_eq!(m.update(&press(|a| a.menu = true)), MenuChoice::Play(1));
        assert_eq!(
            m.update(&press(|a| a.play_demo = true)),
            MenuChoice::Play(1)
        );
        // No level under it: B does nothing.
        assert_eq!(m.update(&press(|a| a.back = true)), MenuChoice::Stay);
        let mut over = Menu::new(3, 2, true);
        assert_eq!(over.update(&press(|a| a.back = true)), MenuChoice::Resume);
    }

    #[test]
    fn the_rows_scroll_to_keep_the_choice_in_view() {
        let mut m = Menu::new(40, 0, false);
        assert_eq!(m.rows().count(), ROWS);
        m.update(&press(|a| a.up = true));
        assert_eq!(m.selected(), 39);
        let rows: heapless::Vec<(usize, bool), ROWS> = m.rows().collect();
        assert_eq!(rows.first().map(|r| r.0), Some(40 - ROWS));
        assert_eq!(rows.last(), Some(&(39, true)));
        m.update(&press(|a| a.previous_level = true));
        assert_eq!(m.selected(), 39 - ROWS);
        assert!(m.rows().any(|(i, chosen)| chosen && i == 39 - ROWS));
        let small = Menu::new(2, 5, false);
        assert_eq!(small.selected(), 1);
        assert_eq!(small.rows().count(), 2);
    }

    #[test]
    fn a_row_shows_the_title_unless_it_repeats_the_name() {
        assert_eq!(
            row_text(1, "E1M1", "Outer Prison").as_str(),
            " 1 E1M1  Outer Prison"
        );
        assert_eq!(
            row_text(12, "e1_hangar", "E1_HANGAR").as_str(),
            "12 e1_hangar"
        );
    }
}
