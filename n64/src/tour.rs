//! The view tour: a fixed set of views of every level, each rendered and
//! timed, for measuring the renderer where time is modelled (cen64, a
//! console). A ROM built with the `tour` feature runs it at boot.
//!
//! The views of a level ([`views`]) are the desktop timedemo's kinds of
//! view, from the engine's [`engine::viewpoints`]: the first player start
//! turning through [`FACINGS`] facings, then the first [`SAMPLED`] points
//! the desktop's default seed ([`SEED`]) samples. The same level gives the
//! same views on every machine, so a view's figures can be compared
//! between commits, emulators and the desktop.
//!
//! Each view is rendered twice and the second is timed: the first brings
//! the view's code and data into the caches, as the frame before it would
//! in play. [`Timings`] gathers a level's figures: the median and the
//! worst over its views.

use engine::render::Camera;
use engine::viewpoints::{self, TRIES_PER_VIEWPOINT};
use engine::world::Level;

/// Facings at the player start, 45 degrees apart.
pub const FACINGS: usize = 8;
/// Sampled points after them.
pub const SAMPLED: usize = 8;
/// The sampling seed: the desktop timedemo's default.
pub const SEED: u64 = 1;
/// Most views of a level.
pub const MAX_VIEWS: usize = FACINGS + SAMPLED;

/// The views of `level`: [`FACINGS`] facings at its first player start
/// (none without one), then [`SAMPLED`] sampled points (fewer where the
/// map has little room).
pub fn views(level: &Level<'_>) -> heapless::Vec<Camera, MAX_VIEWS> {
    let mut out = heapless::Vec::new();
    let facings = viewpoints::player_starts(level)
        .next()
        .into_iter()
        .flat_map(|start| viewpoints::turning(start, FACINGS));
    let sampled = viewpoints::sampled(level, SEED, SAMPLED * TRIES_PER_VIEWPOINT).take(SAMPLED);
    for camera in facings.chain(sampled) {
        // At most FACINGS + SAMPLED: never full.
        let _ = out.push(camera);
    }
    out
}

/// One view's figures, in Count ticks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewTime {
    /// The whole frame: rendering, the readout, the write-back of the
    /// framebuffer for the video interface.
    pub frame: u32,
    /// The renderer alone.
    pub render: u32,
}

/// A level's figures over its views.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    times: heapless::Vec<ViewTime, MAX_VIEWS>,
}

impl Timings {
    /// No views yet.
    pub fn new() -> Timings {
        Timings::default()
    }

    /// Adds the next view's figures (past [`MAX_VIEWS`] they are left
    /// out).
    pub fn add(&mut self, time: ViewTime) {
        let _ = self.times.push(time);
    }

    /// Views added.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether no view was added.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The median whole frame (of an even count, the lower of the middle
    /// two: a figure some view really took).
    pub fn frame_median(&self) -> u32 {
        median(self.times.iter().map(|t| t.frame))
    }

    /// The median render time, as [`Timings::frame_median`].
    pub fn render_median(&self) -> u32 {
        median(self.times.iter().map(|t| t.render))
    }

    /// The slowest view's number (from 0) and figures.
    pub fn worst(&self) -> Option<(usize, ViewTime)> {
        self.times
            .iter()
            .copied()
            .enumerate()
            .max_by_key(|&(i, t)| (t.frame, core::cmp::Reverse(i)))
    }
}

fn median(values: impl Iterator<Item = u32>) -> u32 {
    let mut sorted: heapless::Vec<u32, MAX_VIEWS> = values.collect();
    sorted.sort_unstable();
    match sorted.len() {
        0 => 0,
        n => sorted[(n - 1) / 2],
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn every_level_has_its_start_turning_then_sampled_points() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps");
        for entry in std::fs::read_dir(&root).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "map") {
                continue;
            }
            let bytes = tools::load_map(&path).unwrap().bytes;
            let name = path.display();
            let level = Level::load(&bytes).unwrap();
            let views = views(&level);
            assert_eq!(views.len(), MAX_VIEWS, "{name}");
            let start = viewpoints::player_starts(&level).next().unwrap();
            for (i, v) in views[..FACINGS].iter().enumerate() {
                assert_eq!(v.pos, start.pos, "{name} view {i}");
            }
            assert_ne!(views[0].angle, views[1].angle);
            // The sampled points are the desktop's first ones for the seed.
            let sampled: heapless::Vec<Camera, SAMPLED> =
                viewpoints::sampled(&level, SEED, SAMPLED * TRIES_PER_VIEWPOINT)
                    .take(SAMPLED)
                    .collect();
            assert_eq!(&views[FACINGS..], &sampled[..], "{name}");
        }
    }

    #[test]
    fn the_median_and_the_worst_are_of_the_views_added() {
        let mut t = Timings::new();
        assert!(t.is_empty());
        assert_eq!((t.frame_median(), t.worst()), (0, None));
        for (frame, render) in [(30, 20), (10, 5), (40, 35), (20, 15)] {
            t.add(ViewTime { frame, render });
        }
        assert_eq!(t.len(), 4);
        // Sorted frames 10 20 30 40: the lower middle.
        assert_eq!(t.frame_median(), 20);
        assert_eq!(t.render_median(), 15);
        assert_eq!(
            t.worst(),
            Some((
                2,
                ViewTime {
                    frame: 40,
                    render: 35
                }
            ))
        );
        // A tie goes to the first of the slowest.
        t.add(ViewTime {
            frame: 40,
            render: 1,
        });
        assert_eq!(t.worst().map(|(i, _)| i), Some(2));
        for _ in 0..2 * MAX_VIEWS {
            t.add(ViewTime::default());
        }
        assert_eq!(t.len(), MAX_VIEWS);
    }
}
