//! The game clock: CP0 Count ticks in, 35 Hz game ticks out, whatever the
//! frame rate.
//!
//! Count runs at [`COUNT_HZ`]; one game tick is `COUNT_HZ / 35` Count
//! ticks, which is not a whole number, so the clock keeps its remainder in
//! units of 1/35 Count tick and never drifts. After a long stall (a level
//! switch) the game skips ahead at most [`MAX_CATCH_UP`] ticks rather than
//! fast-forwarding through everything missed, as the desktop does.

use engine::config::TICKS_PER_SECOND;

/// Count ticks per second: half the R4300's 93.75 MHz.
pub const COUNT_HZ: u32 = 46_875_000;

/// Most game ticks run for one shown frame.
pub const MAX_CATCH_UP: u32 = 10;

/// Count ticks in one thirtieth of a second: the frame-time budget the
/// README's figures are measured against.
pub const THIRTIETH_OF_A_SECOND: u32 = COUNT_HZ / 30;

/// Turns Count readings into whole game ticks.
#[derive(Copy, Clone, Debug)]
pub struct TickClock {
    last_count: u32,
    /// Count ticks not yet spent on game ticks, times TICKS_PER_SECOND.
    pending: u64,
}

impl TickClock {
    /// A clock starting at Count reading `now`, with nothing due.
    pub fn new(now: u32) -> TickClock {
        TickClock {
            last_count: now,
            pending: 0,
        }
    }

    /// Takes a Count reading and returns how many game ticks are now due
    /// (at most [`MAX_CATCH_UP`]; time beyond that is dropped).
    pub fn advance(&mut self, now: u32) -> u32 {
        // Count wraps every 91 s; readings are always far closer.
        let elapsed = now.wrapping_sub(self.last_count);
        self.last_count = now;
        self.pending += u64::from(elapsed) * u64::from(TICKS_PER_SECOND);
        let due = self.pending / u64::from(COUNT_HZ);
        self.pending %= u64::from(COUNT_HZ);
        if due > u64::from(MAX_CATCH_UP) {
            return MAX_CATCH_UP;
        }
        due as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_second_is_exactly_35_ticks_in_any_slicing() {
        for step in [1_000u32, 781_250, 1_339_285, 1_562_500, 3_000_017] {
            let mut clock = TickClock::new(0);
            let mut now = 0u32;
            let mut ticks = 0;
            let mut elapsed = 0u64;
            while elapsed + u64::from(step) <= u64::from(COUNT_HZ) * 10 {
                now = now.wrapping_add(step);
                elapsed += u64::from(step);
                ticks += clock.advance(now);
            }
            let rest = (u64::from(COUNT_HZ) * 10 - elapsed) as u32;
            ticks += clock.advance(now.wrapping_add(rest));
            assert_eq!(ticks, 350, "step {step}");
        }
    }

    #[test]
    fn count_wraparound_is_seamless() {
        // Two ticks' worth of Count, straddling the wrap.
        let start = u32::MAX - 100;
        let mut clock = TickClock::new(start);
        let two_ticks = (2 * COUNT_HZ).div_ceil(TICKS_PER_SECOND);
        assert_eq!(clock.advance(start.wrapping_add(two_ticks)), 2);
    }

    #[test]
    fn a_stall_catches_up_at_most_ten_ticks() {
        let mut clock = TickClock::new(0);
        assert_eq!(clock.advance(COUNT_HZ * 2), MAX_CATCH_UP);
        assert_eq!(clock.advance(COUNT_HZ * 2), 0);
    }

    #[test]
    fn the_budget_is_one_thirtieth() {
        assert_eq!(THIRTIETH_OF_A_SECOND, 1_562_500);
    }
}
