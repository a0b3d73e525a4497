//! How the engine divides on this machine: by measuring, at start-up.
//!
//! The renderer's 64-bit divisions give the same quotients by either of
//! the engine's two ways ([`engine::math::Division`]), so the choice is a
//! matter of speed alone, and which way is faster depends on the
//! processor: guessing in doubles took 6% off a frame on a Cascade Lake
//! Xeon and added 5-8% on a Zen 5 EPYC. So where the speed shows (the
//! window, the timedemo) the desktop renders a few frames of the level
//! each way, in alternating rounds, and keeps the faster way; `--division
//! integer | doubles` fixes it instead (to compare the two, and for
//! instruction counts that must not depend on a measurement).

use std::time::Instant;

use engine::math::Division;
use engine::render::{render, Camera, Frame, Scene};
use engine::world::Level;

/// Rounds of each way: the fastest round of each counts, so that a
/// moment the machine was busy elsewhere does not decide.
const ROUNDS: usize = 3;

/// What [`choose`] measured and chose.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Choice {
    /// The way kept (for each render's [`Scene::divided_by`]).
    pub division: Division,
    /// The integer way's fastest round, in microseconds a frame (0 if
    /// not measured).
    pub integer_us: f64,
    /// The guessing way's fastest round, likewise.
    pub doubles_us: f64,
}

impl Choice {
    /// `integer (timed: 52.1 µs a frame by integer divisions, 55.3
    /// guessed in doubles)`: what the timedemo prints on stderr after
    /// `timedemo: divisions: `.
    pub fn line(&self) -> String {
        format!(
            "{} (timed: {:.1} µs a frame by integer divisions, {:.1} guessed in doubles)",
            name(self.division),
            self.integer_us,
            self.doubles_us
        )
    }
}

/// The way's name as `--division` takes it.
pub fn name(division: Division) -> &'static str {
    match division {
        Division::Integer => "integer",
        Division::GuessedInDoubles => "doubles",
    }
}

/// Times `render_frame(i, way)` for `frames` frames (`i` counting up
/// from 0) each way, [`ROUNDS`] alternating rounds, and keeps the way
/// whose fastest round was faster (integer divisions on a tie). With
/// `frames` 0, or where the engine cannot guess in doubles, measures
/// nothing and keeps integer divisions.
pub fn choose(frames: usize, mut render_frame: impl FnMut(usize, Division)) -> Choice {
    let mut best = [f64::INFINITY; 2];
    let ways = [Division::Integer, Division::GuessedInDoubles];
    if frames > 0 && engine::math::can_guess_in_doubles() {
        for _ in 0..ROUNDS {
            for (way, best) in ways.iter().zip(best.iter_mut()) {
                let start = Instant::now();
                for i in 0..frames {
                    render_frame(i, *way);
                }
                let us = start.elapsed().as_secs_f64() * 1e6 / frames as f64;
                *best = best.min(us);
            }
        }
    }
    let division = if best[1] < best[0] {
        Division::GuessedInDoubles
    } else {
        Division::Integer
    };
    Choice {
        division,
        integer_us: if best[0].is_finite() { best[0] } else { 0.0 },
        doubles_us: if best[1].is_finite() { best[1] } else { 0.0 },
    }
}

/// [`choose`] on `level` at `width` x `height` pixels: the views turning
/// in place at its first player start (`timedemo::spin_viewpoints`),
/// with its decorations, [`FRAMES_ON_A_LEVEL`] frames a round (about 25
/// ms in all on a Freedoom map). Integer divisions for a level with no
/// player start to look from, or a size no frame takes.
pub fn choose_on(level: &Level<'_>, width: usize, height: usize) -> Choice {
    let cameras = crate::timedemo::spin_viewpoints(level).cameras;
    let sprites = crate::timedemo::spin_sprites(level);
    let shades = crate::shades_for(level);
    let stride = Frame::<u32>::spread_stride(width);
    let mut pixels = vec![0u32; stride * height];
    let frame = Frame::new(&mut pixels, width, height, stride);
    match frame {
        Some(mut frame) => choose_over(&cameras, |camera, division| {
            render(
                &Scene::new(level, *camera)
                    .with_sprites(&sprites)
                    .divided_by(division),
                &shades,
                &mut frame,
            );
        }),
        None => choose(0, |_, _| {}),
    }
}

/// [`choose`] with [`FRAMES_ON_A_LEVEL`] frames a round, `draw`ing views
/// spread evenly over `cameras` (none, and integer divisions, if there
/// are none).
pub fn choose_over(cameras: &[Camera], mut draw: impl FnMut(&Camera, Division)) -> Choice {
    let frames = if cameras.is_empty() {
        0
    } else {
        FRAMES_ON_A_LEVEL
    };
    choose(frames, |i, division| {
        if let Some(camera) = cameras.get(i * cameras.len() / FRAMES_ON_A_LEVEL) {
            draw(camera, division);
        }
    })
}

/// Frames a round when timing the two ways of dividing (spread over the
/// views): about 4 ms a round at Freedoom's 60 µs a frame.
const FRAMES_ON_A_LEVEL: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    /// The faster way is kept; with nothing to measure, integer
    /// divisions. (The frames here are a busy loop whose length depends
    /// on the way given: the way that spins less must win.)
    #[test]
    fn the_faster_way_is_kept() {
        let spin = |n: u64| {
            let mut x = 0u64;
            for i in 0..n {
                x = std::hint::black_box(x.wrapping_add(i));
            }
        };
        let doubles_slow = choose(4, |_, way| {
            spin(if way == Division::Integer {
                2_000
            } else {
                200_000
            })
        });
        assert_eq!(doubles_slow.division, Division::Integer, "{doubles_slow:?}");
        assert!(doubles_slow.integer_us < doubles_slow.doubles_us);
        if engine::math::can_guess_in_doubles() {
            let integer_slow = choose(4, |_, way| {
                spin(if way == Division::Integer {
                    200_000
                } else {
                    2_000
                })
            });
            assert_eq!(integer_slow.division, Division::GuessedInDoubles);
        }
        let none = choose(0, |_, _| unreachable!());
        assert_eq!(none.division, Division::Integer);
        assert!(none.line().starts_with("integer (timed: 0.0 µs a frame"));
    }
}
