//! The window-free run: one game tick and one rendered frame per step, as
//! fast as the machine goes. Tests, benchmarks and other programs use it;
//! it opens no window, so it works without a display.
//!
//! It plays the same [`Session`] as the window: a demo, then a key script
//! (`--script-keys`) if there is one, idle otherwise.

use std::time::{Duration, Instant};

use engine::game::{Game, Input, PlayerState};
use engine::render::RenderStats;
use engine::world::Level;

use crate::args::Args;
use crate::demo;
use crate::screenshot::write_png;
use crate::session::{Live, Notice, Session, Setup};

/// What a headless run did.
#[derive(Copy, Clone, Debug)]
pub struct Report {
    /// The player's state after the last tick.
    pub last: PlayerState,
    /// Ticks run (one per frame).
    pub ticks: u64,
    /// Frames rendered: one per tick, or one if no tick ran.
    pub frames: u64,
    /// Wall time spent ticking and rendering (not loading or writing).
    pub elapsed: Duration,
    /// Wall time spent in the renderer alone.
    pub render_time: Duration,
    /// Renderer figures, summed over all frames.
    pub stats: RenderStats,
}

/// How many ticks a headless run without a key script lasts: `--frames`
/// if given, else the demo's length if there is a demo, else 1. (With a
/// key script, its `quit` step comes before the demo's length.)
pub fn tick_count(frames: Option<u64>, demo: Option<&[(u32, Input)]>) -> u64 {
    match (frames, demo) {
        (Some(n), _) => n,
        (None, Some(d)) => demo::total_ticks(d),
        (None, None) => 1,
    }
}

/// Runs `level` headless as `args` say: ticks the game (with the demo's
/// input, idle once it ends), renders after every tick, writes the trace
/// and the screenshot. The simple form of [`run_session`].
pub fn run(args: &Args, level: Level<'_>, demo: Option<&[(u32, Input)]>) -> Result<Report, String> {
    let setup = Setup {
        always_run: true,
        demo: demo.map(<[_]>::to_vec).unwrap_or_default(),
        trace: args
            .trace
            .as_deref()
            .map(crate::trace::Trace::create)
            .transpose()?,
        ..Setup::default()
    };
    let ticks = tick_count(args.frames, demo);
    run_session(args, Session::new(Game::new(level), setup), ticks)
}

/// Runs `session` headless for at most `ticks` steps (fewer if its key
/// script quits), rendering after each, then writes the screenshot.
pub fn run_session(args: &Args, mut session: Session<'_>, ticks: u64) -> Result<Report, String> {
    let shades = crate::shades_for(&session.game().level());
    let mut pixels = vec![0u32; args.width * args.height];
    let mut stats = RenderStats::default();
    let mut render_time = Duration::ZERO;
    let mut draw = |session: &Session<'_>, pixels: &mut [u32]| -> Result<(), String> {
        let (s, took) = session.draw(&shades, pixels, args.width, args.height)?;
        render_time += took;
        // Saturating: a long benchmark can pass 2^32 wall tests.
        stats.portals_crossed = stats.portals_crossed.saturating_add(s.portals_crossed);
        stats.walls_tested = stats.walls_tested.saturating_add(s.walls_tested);
        stats.columns_truncated = stats.columns_truncated.saturating_add(s.columns_truncated);
        Ok(())
    };

    let start = Instant::now();
    let mut done = 0;
    while done < ticks {
        session.step(&Live::default())?;
        if session.quit() {
            break;
        }
        done += 1;
        for notice in session.notices() {
            if let Notice::Where { full, .. } = notice {
                eprintln!("{full}");
            }
        }
        draw(&session, &mut pixels)?;
        // The level ended: the run ends there, its last line saying how.
        if session.game().exit().is_some() {
            break;
        }
    }
    if done == 0 {
        // No tick, but a screenshot still needs a picture: the start.
        draw(&session, &mut pixels)?;
    }
    let elapsed = start.elapsed();

    let last = session.finish()?;
    if let Some(path) = &args.screenshot {
        write_png(path, &pixels, args.width, args.height)?;
    }
    Ok(Report {
        last,
        ticks: done,
        frames: done.max(1),
        elapsed,
        render_time,
        stats,
    })
}

impl Report {
    /// A one-line human summary (for stderr: stdout carries the state).
    pub fn summary(&self) -> String {
        let per_frame = |d: Duration| d.as_secs_f64() * 1000.0 / self.frames as f64;
        format!(
            "{} ticks, {} frames in {:.1} ms: {:.3} ms/frame ({:.3} ms rendering); \
             {} portals crossed, {} walls tested, {} columns truncated",
            self.ticks,
            self.frames,
            self.elapsed.as_secs_f64() * 1000.0,
            per_frame(self.elapsed),
            per_frame(self.render_time),
            self.stats.portals_crossed,
            self.stats.walls_tested,
            self.stats.columns_truncated,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_win_then_the_demo_then_one() {
        let d = [(10, Input::IDLE), (5, Input::IDLE)];
        assert_eq!(tick_count(Some(3), Some(&d)), 3);
        assert_eq!(tick_count(Some(0), None), 0);
        assert_eq!(tick_count(None, Some(&d)), 15);
        assert_eq!(tick_count(None, Some(&[])), 0);
        assert_eq!(tick_count(None, None), 1);
    }
}
