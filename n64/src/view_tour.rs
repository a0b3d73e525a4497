//! The view tour on the hardware (see [`n64::tour`]), built in with the
//! `tour` feature. For each level: every fixed view rendered twice and the
//! second timed in Count ticks, the sampler stopped; then every view again
//! with the sampling profiler running over the second rendering, its
//! samples reported by code address. Everything is shown on screen as it
//! goes and reported over the IS-Viewer; then the ROM plays as usual.
//!
//! Lines, per level:
//!
//! * `tour: level=NAME load=T bytes=B`: Count ticks to copy the level from
//!   the cartridge and load it;
//! * `tour: level=NAME view=K frame=F render=R at X,Y,ANGLE` for each view;
//! * `tour: level=NAME views=N frame_median=F render_median=R worst_frame=W worst_render=WR worst_view=K`;
//! * `profile: level=NAME interval=I`, then `profile: ADDRESS SAMPLES`
//!   for each 32 bytes of code sampled (hex address, decimal count), then
//!   `profile: level=NAME samples=S`;
//! * for each view mode but the default (`n64::view_mode`), timed the same
//!   way: `tour: level=NAME mode=MODE views=N frame_median=F
//!   render_median=R worst_frame=W worst_render=WR worst_view=K`;
//!
//! and at the end `tour: done: L levels, V views`.

use core::fmt::Write as _;

use engine::game::Game;
use engine::render::Camera;
use n64::text::LineBuffer;
use n64::tour::{self, Timings, ViewTime};
use n64::view_mode::ViewMode;

use crate::hw::sampler::INTERVAL;
use crate::hw::{cp0, Hardware};
use crate::view::{self, ViewShades};
use crate::CartLevels;

/// Runs the tour over every level of the cartridge, each copied into
/// `memory` in turn.
pub fn run(hardware: &mut Hardware, levels: &mut CartLevels, memory: &mut [u8]) {
    if !hardware.sampler.covers_all_code() {
        hardware.debug.line(format_args!(
            "profile: the code is larger than the sampler's buckets: samples past them are lost"
        ));
    }
    let mut views_done = 0;
    let count = levels.len();
    for index in 0..count {
        let mut name = LineBuffer::<{ engine::format::pack::NAME_LEN }>::new();
        let _ = write!(name, "{}", levels.name(index));
        let name = name.as_str();
        let started = cp0::count();
        let level = match levels.load(index, &mut *memory) {
            Ok(level) => level,
            Err(e) => {
                hardware
                    .debug
                    .line(format_args!("tour: level={name} skipped: {e}"));
                continue;
            }
        };
        hardware.debug.line(format_args!(
            "tour: level={name} load={} bytes={}",
            cp0::count().wrapping_sub(started),
            levels.level(index).map_or(0, |l| l.map_len),
        ));
        let shades = ViewShades::for_level(&level);
        let views = tour::views(&level);
        let game = Game::new(level);
        let scene = Scene {
            game: &game,
            shades: &shades,
            name,
            number: index + 1,
            count,
            views: views.len(),
        };

        let mut timings = Timings::new();
        for (k, camera) in views.iter().enumerate() {
            let time = scene.show(hardware, k, camera, ViewMode::FULL, false);
            timings.add(time);
            hardware.debug.line(format_args!(
                "tour: level={} view={} frame={} render={} at {},{},{}",
                name,
                k,
                time.frame,
                time.render,
                camera.pos.x,
                camera.pos.y,
                camera.angle.degrees(),
            ));
        }
        views_done += timings.len();
        let (worst_view, worst) = timings.worst().unwrap_or_default();
        hardware.debug.line(format_args!(
            "tour: level={} views={} frame_median={} render_median={} worst_frame={} \
             worst_render={} worst_view={}",
            name,
            timings.len(),
            timings.frame_median(),
            timings.render_median(),
            worst.frame,
            worst.render,
            worst_view,
        ));

        for (k, camera) in views.iter().enumerate() {
            scene.show(hardware, k, camera, ViewMode::FULL, true);
        }
        hardware.debug.line(format_args!(
            "profile: level={} interval={}",
            name, INTERVAL
        ));
        let mut samples = 0u64;
        let Hardware { sampler, debug, .. } = hardware;
        sampler.drain(|address, n| {
            samples += u64::from(n);
            debug.line(format_args!("profile: {address:08x} {n}"));
        });
        hardware
            .debug
            .line(format_args!("profile: level={} samples={}", name, samples));

        for mode in ViewMode::ALL.into_iter().skip(1) {
            let mut timings = Timings::new();
            for (k, camera) in views.iter().enumerate() {
                timings.add(scene.show(hardware, k, camera, mode, false));
            }
            let (worst_view, worst) = timings.worst().unwrap_or_default();
            hardware.debug.line(format_args!(
                "tour: level={} mode={} views={} frame_median={} render_median={} \
                 worst_frame={} worst_render={} worst_view={}",
                name,
                mode.name(),
                timings.len(),
                timings.frame_median(),
                timings.render_median(),
                worst.frame,
                worst.render,
                worst_view,
            ));
        }
    }
    hardware.debug.line(format_args!(
        "tour: done: {} levels, {} views",
        count, views_done
    ));
}

/// One level, as the tour draws it.
struct Scene<'g, 'l> {
    game: &'g Game<'l>,
    shades: &'g ViewShades,
    name: &'g str,
    /// The level's number, from 1.
    number: usize,
    /// Levels on the cartridge.
    count: usize,
    /// Its views.
    views: usize,
}

impl Scene<'_, '_> {
    /// Renders view `k` in `mode` twice, the first to warm the caches, and
    /// shows the second; returns the second's figures. With `profile`, the
    /// sampler runs from the second rendering until the frame is shown.
    fn show(
        &self,
        hardware: &mut Hardware,
        k: usize,
        camera: &Camera,
        mode: ViewMode,
        profile: bool,
    ) -> ViewTime {
        let mut top = LineBuffer::<48>::new();
        let _ = write!(
            top,
            "{} {}/{} {} {}",
            self.name,
            self.number,
            self.count,
            if profile { "PROFILE" } else { "TOUR" },
            mode.name(),
        );
        let mut bottom = LineBuffer::<48>::new();
        let _ = write!(bottom, "VIEW {}/{}", k + 1, self.views);

        view::render(&mut hardware.video, mode, self.game, camera, self.shades);
        if profile {
            hardware.sampler.start();
        }
        let start = cp0::count();
        view::render(&mut hardware.video, mode, self.game, camera, self.shades);
        let rendered = cp0::count();
        view::readout(&mut hardware.video, mode, top.as_str(), bottom.as_str());
        let drawn = hardware.video.present();
        if profile {
            hardware.sampler.stop();
        }
        ViewTime {
            frame: drawn.wrapping_sub(start),
            render: rendered.wrapping_sub(start),
        }
    }
}
