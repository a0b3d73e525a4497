//! `--timedemo`: the renderer's benchmark. No window, no blit, no PNG: it
//! renders frames of a map from a fixed, seeded set of viewpoints into a
//! buffer that is never shown, and prints microseconds per frame and
//! frames per second over several runs.
//!
//! The viewpoints ([`viewpoints`]) are every player start and points
//! sampled inside the map: random points of the map's bounding box, kept
//! when they are inside a sector the player fits in (ceiling at least
//! 56 above the floor), with the eye 41 above the floor and a random
//! facing. The same map and seed always give the same viewpoints, so runs
//! on different builds and machines render the same frames.
//!
//! With `--spin` ([`spin_viewpoints`]) the views are instead those of a
//! DOOM demo that stands at the first player start and turns in place
//! (`angleturn` 256 a tic, 256 tics a turn, counter-clockwise from the
//! start's own facing): views a Chocolate Doom `-timedemo` of such a demo
//! (`scripts/bench` writes one per map) renders too, so the two renderers
//! can be timed on the same frames of the same map. Such a demo runs
//! with `-nomonsters` (monsters would walk into the views and kill the
//! player), so the spin leaves out the things DOOM's `-nomonsters` leaves
//! out too ([`DOOM_MONSTERS`]): both renderers draw the same sprites.
//!
//! Each run renders `frames` frames, cycling through the viewpoints, with
//! [`Scene::of_game`] (the map's decorations and its pushable bodies as
//! sprites, into `u32` pixels through the map's light table); only the
//! rendering loop is timed, not loading, compiling or the warm-up pass
//! (every viewpoint rendered once before the first run). Times are wall
//! time, so other programs busy on the same core show in them: compare
//! runs on a quiet machine, and the min as well as the median. The output
//! (see [`summary_line`]) is a stable interface: `scripts/bench` parses
//! it.

use std::io::Write;
use std::time::Instant;

use engine::game::Game;
use engine::math::{Angle, Division, Fx, Vec2};
use engine::render::{render, Camera, Frame, RenderStats, Scene, Sprite};
use engine::viewpoints;
use engine::world::Level;

/// Frames per run when `--frames` does not say.
pub const DEFAULT_FRAMES: u64 = 500;
/// Runs when `--runs` does not say.
pub const DEFAULT_RUNS: u32 = 5;
/// The sampling seed when `--seed` does not say.
pub const DEFAULT_SEED: u64 = 1;
/// How many viewpoints to aim for, player starts included.
pub const VIEWPOINTS: usize = 64;

/// The fixed views of one map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Viewpoints {
    /// Player starts first, then the sampled points.
    pub cameras: Vec<Camera>,
    /// How many of `cameras` are player starts.
    pub starts: usize,
}

use engine::viewpoints::TRIES_PER_VIEWPOINT;

/// The viewpoints of `level` for `seed`: every player start (facing its
/// own angle), then up to `count` in all sampled points (see the module
/// docs and [`engine::viewpoints::sampled`]), each with a random facing
/// to 1/65536 of a degree. Deterministic.
pub fn viewpoints(level: &Level<'_>, count: usize, seed: u64) -> Viewpoints {
    let mut cameras: Vec<Camera> = viewpoints::player_starts(level).collect();
    let starts = cameras.len();
    let tries = count.saturating_mul(TRIES_PER_VIEWPOINT);
    cameras.extend(viewpoints::sampled(level, seed, tries).take(count.saturating_sub(starts)));
    Viewpoints { cameras, starts }
}

/// Facings in one turn of a `--spin` timedemo: DOOM's `angleturn` 256 a
/// tic turns by `256 << 16` of `2^32`, 1/256 of a turn.
pub const SPIN_FACINGS: usize = 256;

/// The views of a DOOM demo turning in place at the first player start
/// (see the module docs): [`SPIN_FACINGS`] facings, each `360 / 256`
/// degrees counter-clockwise of the last, the first the start's own.
/// None without a player start inside a sector.
pub fn spin_viewpoints(level: &Level<'_>) -> Viewpoints {
    // The first player start in the map's things, if it is inside a
    // sector (a later start is not a stand-in for it).
    let first = level
        .map()
        .things()
        .find(|t| t.kind == engine::format::kind::PLAYER_START)
        .and_then(|t| {
            viewpoints::camera_at(level, Vec2::new(t.x, t.y), Angle::from_degrees(t.angle))
        });
    let Some((first, _)) = first else {
        return Viewpoints {
            cameras: Vec::new(),
            starts: 0,
        };
    };
    // 360 / 256 degrees is 1.40625: exact in 16 fraction bits.
    let cameras = viewpoints::turning(first, SPIN_FACINGS).collect();
    Viewpoints { cameras, starts: 1 }
}

/// DOOM's monsters by type number (doomednum): what `-nomonsters` leaves
/// out (`P_SpawnMapThing`: the things that count as kills, and the lost
/// soul). Zombieman, shotgun guy, heavy weapon dude, imp, demon, spectre,
/// lost soul, cacodemon, hell knight, baron, arachnotron, pain elemental,
/// revenant, mancubus, arch-vile, spider mastermind, cyberdemon, SS
/// officer, Commander Keen.
pub const DOOM_MONSTERS: [u16; 19] = [
    3004, 9, 65, 3001, 3002, 58, 3006, 3005, 69, 3003, 68, 71, 66, 67, 64, 7, 16, 84, 72,
];

/// The sprites of a `--spin` timedemo: the map's decorations (every
/// thing with a sprite, on the floor where it stands) but DOOM's monsters,
/// as a `-nomonsters` demo shows them.
pub fn spin_sprites(level: &Level<'_>) -> Vec<Sprite> {
    level
        .map()
        .things()
        .filter(|t| {
            engine::format::kind::is_drawn(t.kind)
                && t.sprite != engine::format::NONE
                && !DOOM_MONSTERS.contains(&t.type_id)
        })
        .map(|t| {
            let pos = Vec2::new(t.x, t.y);
            let z = level
                .locate(pos)
                .map_or(Fx::ZERO, |s| level.sector(s).floor);
            Sprite::new(pos, z, t.sprite)
        })
        .collect()
}

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The map's name, for the output (`E1M1`, `e1_hangar`).
    pub title: String,
    /// Frame size.
    pub width: usize,
    /// Frame size.
    pub height: usize,
    /// Frames per run.
    pub frames: u64,
    /// Runs.
    pub runs: u32,
    /// The viewpoint seed.
    pub seed: u64,
    /// Turn in place at the player start ([`spin_viewpoints`]) instead.
    pub spin: bool,
    /// Name the walk (the BSP walk, the only one) in the first line.
    pub walk: bool,
    /// The frame's row stride in pixels (`None`:
    /// [`Frame::spread_stride`]).
    pub stride: Option<usize>,
    /// How the renderer divides (`None`: each way timed on the
    /// viewpoints after the warm-up, the faster kept; see
    /// [`crate::division::choose`]).
    pub division: Option<Division>,
}

/// What a timedemo measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Microseconds per frame of each run, in run order (wall time).
    pub per_run: Vec<f64>,
    /// The same in the rendering thread's CPU time, where the system
    /// tells it (Unix): what another process on a shared machine does not
    /// inflate.
    pub cpu_per_run: Option<Vec<f64>>,
    /// Renderer figures over one run's frames (the same in every run).
    pub stats: RenderStats,
    /// The viewpoints' count.
    pub viewpoints: usize,
}

impl Summary {
    /// The median of [`Summary::per_run`] (the mean of the middle two
    /// for an even count).
    pub fn median(&self) -> f64 {
        median(&self.per_run)
    }
}

/// The median of `v` (0 for none).
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    match s.len() {
        0 => 0.0,
        n if n % 2 == 1 => s[n / 2],
        n => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

/// The last line a timedemo prints, the one other programs read:
///
/// `timedemo: MAP WxH: N frames, median X µs/frame (min A, max B over R runs), Y fps`
///
/// (`X`, `A`, `B` with two decimals; `Y`, frames per second at the
/// median, whole.)
pub fn summary_line(opts: &Options, s: &Summary) -> String {
    let med = s.median();
    let fps = if med > 0.0 { 1e6 / med } else { f64::INFINITY };
    format!(
        "timedemo: {} {}x{}: {} frames, {}, {fps:.0} fps",
        opts.title,
        opts.width,
        opts.height,
        opts.frames,
        spread(&s.per_run)
    )
}

/// The CPU line (printed before [`summary_line`] when the CPU time is
/// known):
///
/// `timedemo: CPU time: median X µs/frame (min A, max B over R runs)`
pub fn cpu_line(cpu_per_run: &[f64]) -> String {
    format!("timedemo: CPU time: {}", spread(cpu_per_run))
}

/// `median X µs/frame (min A, max B over R runs)` for figures per run
/// (two decimals), as both lines print them.
fn spread(per_run: &[f64]) -> String {
    let min = per_run.iter().copied().fold(f64::INFINITY, f64::min);
    let max = per_run.iter().copied().fold(0.0, f64::max);
    format!(
        "median {:.2} µs/frame (min {min:.2}, max {max:.2} over {} runs)",
        median(per_run),
        per_run.len()
    )
}

/// Nanoseconds this thread has run on a CPU (`CLOCK_THREAD_CPUTIME_ID`),
/// where the system tells it.
#[cfg(unix)]
fn thread_cpu_ns() -> Option<u64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    let ns = i128::from(t.tv_sec) * 1_000_000_000 + i128::from(t.tv_nsec);
    u64::try_from(ns).ok()
}

/// Not known here.
#[cfg(not(unix))]
fn thread_cpu_ns() -> Option<u64> {
    None
}

/// Runs the timedemo on `level` as `opts` say, printing a header line,
/// one line per run, the renderer's figures per frame, the CPU time per
/// frame ([`cpu_line`], where known) and [`summary_line`] to `out`.
pub fn run(level: Level<'_>, opts: &Options, out: &mut dyn Write) -> Result<Summary, String> {
    let io = |e: std::io::Error| format!("cannot write the timedemo's output: {e}");
    let views = if opts.spin {
        spin_viewpoints(&level)
    } else {
        viewpoints(&level, VIEWPOINTS, opts.seed)
    };
    if opts.spin && views.cameras.is_empty() {
        return Err(format!(
            "the map `{}` has no player start inside a sector to turn at (--spin)",
            opts.title
        ));
    }
    if views.cameras.is_empty() {
        return Err(format!(
            "the map `{}` has no viewpoint: no player start and no sector the player fits in",
            opts.title
        ));
    }
    let shades = crate::shades_for(&level);
    let game = Game::new(level);
    let (w, h) = (opts.width, opts.height);
    // Rows an odd number of cache lines apart, unless asked otherwise:
    // walls and sprites are drawn down columns (see
    // `Frame::spread_stride`).
    let stride = opts.stride.unwrap_or(Frame::<u32>::spread_stride(w));
    let mut pixels = vec![0u32; stride * h];
    let mut frame = Frame::new(&mut pixels, w, h, stride)
        .ok_or_else(|| format!("cannot render at {w}x{h} with rows {stride} pixels apart"))?;
    // The spin draws DOOM's `-nomonsters` sprites; the seeded views
    // every decoration and body.
    let spin_sprites = if opts.spin {
        spin_sprites(&game.level())
    } else {
        Vec::new()
    };
    let draw = |camera: &Camera, division: Division, frame: &mut Frame<'_, u32>| {
        let scene = if opts.spin {
            Scene::new(game.level(), *camera).with_sprites(&spin_sprites)
        } else {
            Scene::of_game(&game).seen_from(*camera)
        };
        render(&scene.divided_by(division), &shades, frame)
    };
    let which = if opts.spin {
        "the player start turning in place".to_string()
    } else {
        format!(
            "{} player start{}, {} sampled; seed {}",
            views.starts,
            if views.starts == 1 { "" } else { "s" },
            views.cameras.len() - views.starts,
            opts.seed,
        )
    };
    // The walk is named only when asked for, so the line stays as it
    // was for every run that does not ask for one.
    let walk = if opts.walk { ", BSP walk" } else { "" };
    // So is the stride, when given.
    let rows = match opts.stride {
        Some(s) => format!(", rows {s} pixels apart"),
        None => String::new(),
    };
    // And the way of dividing, when given.
    let division = match opts.division {
        None => "",
        Some(Division::Integer) => ", integer divisions",
        Some(Division::GuessedInDoubles) => ", divisions guessed in doubles",
    };
    writeln!(
        out,
        "timedemo: {} {w}x{h}: {} viewpoints ({which}), {} frames x {} runs{walk}{rows}{division}",
        opts.title,
        views.cameras.len(),
        opts.frames,
        opts.runs,
    )
    .map_err(io)?;

    // Warm-up, untimed: every viewpoint once (caches, page faults).
    for camera in &views.cameras {
        draw(camera, Division::Integer, &mut frame);
    }
    // Then the way of dividing: as asked, or the faster on these views.
    let division = match opts.division {
        Some(d) => d,
        None => {
            let choice = crate::division::choose_over(&views.cameras, |camera, division| {
                draw(camera, division, &mut frame);
            });
            // On stderr: stdout's lines are the interface, and the
            // per-frame line depends only on the frames drawn.
            eprintln!("timedemo: divisions: {}", choice.line());
            choice.division
        }
    };
    let n = opts.frames.max(1) as f64;
    let mut per_run = Vec::with_capacity(opts.runs as usize);
    let mut cpu_per_run = Some(Vec::with_capacity(opts.runs as usize));
    let mut stats = RenderStats::default();
    for r in 0..opts.runs {
        let mut run_stats = RenderStats::default();
        let cpu_start = thread_cpu_ns();
        let start = Instant::now();
        for (_, camera) in (0..opts.frames).zip(views.cameras.iter().cycle()) {
            let s = draw(camera, division, &mut frame);
            add(&mut run_stats, &s);
        }
        let took = start.elapsed();
        let cpu = cpu_start.zip(thread_cpu_ns());
        std::hint::black_box(frame.pixels_mut());
        cpu_per_run = match (cpu_per_run, cpu) {
            (Some(mut v), Some((a, b))) => {
                v.push(b.saturating_sub(a) as f64 / 1e3 / n);
                Some(v)
            }
            _ => None,
        };
        let us = took.as_secs_f64() * 1e6 / n;
        per_run.push(us);
        stats = run_stats;
        writeln!(
            out,
            "timedemo: run {}/{}: {} frames in {:.3} ms: {us:.2} µs/frame, {:.0} fps",
            r + 1,
            opts.runs,
            opts.frames,
            took.as_secs_f64() * 1e3,
            if us > 0.0 { 1e6 / us } else { f64::INFINITY },
        )
        .map_err(io)?;
    }
    let summary = Summary {
        per_run,
        cpu_per_run,
        stats,
        viewpoints: views.cameras.len(),
    };
    writeln!(
        out,
        "timedemo: per frame: {:.1} walls tested, {:.1} portals crossed, {:.1} sprites drawn, {:.2} columns truncated",
        f64::from(stats.walls_tested) / n,
        f64::from(stats.portals_crossed) / n,
        f64::from(stats.sprites_drawn) / n,
        f64::from(stats.columns_truncated) / n,
    )
    .map_err(io)?;
    if let Some(cpu) = &summary.cpu_per_run {
        writeln!(out, "{}", cpu_line(cpu)).map_err(io)?;
    }
    writeln!(out, "{}", summary_line(opts, &summary)).map_err(io)?;
    Ok(summary)
}

fn add(total: &mut RenderStats, s: &RenderStats) {
    total.portals_crossed = total.portals_crossed.saturating_add(s.portals_crossed);
    total.walls_tested = total.walls_tested.saturating_add(s.walls_tested);
    total.columns_truncated = total.columns_truncated.saturating_add(s.columns_truncated);
    total.sprites_drawn = total.sprites_drawn.saturating_add(s.sprites_drawn);
    total.sprites_dropped = total.sprites_dropped.saturating_add(s.sprites_dropped);
    total.masked_dropped = total.masked_dropped.saturating_add(s.masked_dropped);
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::config::player;

    const TWO_ROOMS: &str = include_str!("../tests/data/two_rooms.map");

    fn level_bytes() -> Vec<u8> {
        tools::compile_source(TWO_ROOMS, "t").unwrap().bytes
    }

    #[test]
    fn viewpoints_are_the_same_for_a_seed() {
        let bytes = level_bytes();
        let level = Level::load(&bytes).unwrap();
        let a = viewpoints(&level, 32, 1);
        let b = viewpoints(&level, 32, 1);
        assert_eq!(a, b);
        assert_eq!(a.cameras.len(), 32);
        assert_ne!(a, viewpoints(&level, 32, 2));
        // A longer list starts with the shorter one.
        let longer = viewpoints(&level, 48, 1);
        assert_eq!(longer.cameras[..32], a.cameras[..]);
    }

    #[test]
    fn viewpoints_start_at_the_player_start_and_stay_inside() {
        let bytes = level_bytes();
        let level = Level::load(&bytes).unwrap();
        let v = viewpoints(&level, 40, 9);
        assert_eq!(v.starts, 1);
        let start = Game::new(level).camera();
        assert_eq!(
            (v.cameras[0].pos, v.cameras[0].angle),
            (start.pos, start.angle)
        );
        assert_eq!(v.cameras[0].eye_z, start.eye_z);
        let mut angles = std::collections::BTreeSet::new();
        for c in &v.cameras {
            assert_eq!(level.locate(c.pos), Some(c.sector));
            let s = level.sector(c.sector);
            assert!(s.ceiling - s.floor >= player::HEIGHT);
            assert_eq!(c.eye_z, s.floor + player::EYE_HEIGHT);
            angles.insert(c.angle.degrees().to_num::<i32>() / 90);
        }
        // All directions: every quadrant is faced.
        assert_eq!(angles.len(), 4);
    }

    #[test]
    fn spin_views_turn_in_place_at_the_player_start() {
        let bytes = level_bytes();
        let level = Level::load(&bytes).unwrap();
        let v = spin_viewpoints(&level);
        let start = viewpoints(&level, 1, 1).cameras[0];
        assert_eq!((v.cameras.len(), v.starts), (SPIN_FACINGS, 1));
        assert_eq!(v.cameras[0], start);
        for (i, c) in v.cameras.iter().enumerate() {
            assert_eq!(
                (c.pos, c.eye_z, c.sector),
                (start.pos, start.eye_z, start.sector)
            );
            // i * 1.40625 degrees on from the start's facing, exactly.
            let turned = start.angle.degrees().to_bits() as i64 + i as i64 * 92_160;
            assert_eq!(
                c.angle.degrees().to_bits() as i64,
                turned.rem_euclid(360 << 16),
                "facing {i}"
            );
        }
    }

    #[test]
    fn spin_sprites_leave_out_dooms_monsters() {
        // Freedoom's E1M1 (the freedoom package; scripts/setup installs
        // it): its monsters, items and decorations.
        let Ok(wad) = std::fs::read("/usr/share/games/doom/freedoom1.wad") else {
            eprintln!("skipped: no /usr/share/games/doom/freedoom1.wad");
            return;
        };
        let out = crate::maps::compile_wad_map(&wad, "freedoom1.wad", "E1M1", None).unwrap();
        let level = Level::load(&out.bytes).unwrap();
        let drawn = |t: &engine::format::ThingRecord| {
            engine::format::kind::is_drawn(t.kind) && t.sprite != engine::format::NONE
        };
        let things: Vec<_> = level.map().things().filter(drawn).collect();
        let monsters = things
            .iter()
            .filter(|t| DOOM_MONSTERS.contains(&t.type_id))
            .count();
        let sprites = spin_sprites(&level);
        assert!(
            monsters > 0 && !sprites.is_empty(),
            "{monsters} {}",
            sprites.len()
        );
        assert_eq!(sprites.len() + monsters, things.len());
        // The rest, in map order, on the floor.
        let kept = things
            .iter()
            .filter(|t| !DOOM_MONSTERS.contains(&t.type_id));
        for (s, t) in sprites.iter().zip(kept) {
            assert_eq!((s.pos, s.texture), (Vec2::new(t.x, t.y), t.sprite));
            let sector = level.locate(s.pos).unwrap();
            assert_eq!(s.z, level.sector(sector).floor);
        }
    }

    #[test]
    fn a_run_prints_one_line_per_run_and_the_summary() {
        let bytes = level_bytes();
        let level = Level::load(&bytes).unwrap();
        let opts = Options {
            title: "two_rooms".into(),
            width: 64,
            height: 40,
            frames: 10,
            runs: 3,
            seed: 1,
            spin: false,
            walk: false,
            stride: None,
            division: None,
        };
        let mut out = Vec::new();
        let s = run(level, &opts, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let cpu_lines = usize::from(s.cpu_per_run.is_some());
        assert_eq!(lines.len(), 1 + 3 + 1 + cpu_lines + 1, "{text}");
        if let Some(cpu) = &s.cpu_per_run {
            assert_eq!(cpu.len(), 3);
            assert!(cpu.iter().all(|&c| c > 0.0), "{cpu:?}");
            assert_eq!(lines[5], cpu_line(cpu));
        }
        assert!(lines[0].starts_with("timedemo: two_rooms 64x40: 64 viewpoints (1 player start, 63 sampled; seed 1), 10 frames x 3 runs"), "{text}");
        // The first line of a run with `o`.
        let first_line = |o: &Options| {
            let mut out = Vec::new();
            run(Level::load(&bytes).unwrap(), o, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            text.lines().next().unwrap_or_default().to_string()
        };
        let seeded = "timedemo: two_rooms 64x40: 64 viewpoints (1 player start, 63 sampled; seed 1), 10 frames x 3 runs";
        let spin = Options {
            spin: true,
            ..opts.clone()
        };
        assert_eq!(
            first_line(&spin),
            "timedemo: two_rooms 64x40: 256 viewpoints (the player start turning in place), 10 frames x 3 runs"
        );
        let bsp = Options {
            walk: true,
            ..opts.clone()
        };
        assert_eq!(first_line(&bsp), format!("{seeded}, BSP walk"));
        let strided = Options {
            stride: Some(100),
            division: None,
            ..opts.clone()
        };
        assert_eq!(
            first_line(&strided),
            format!("{seeded}, rows 100 pixels apart")
        );
        assert!(
            lines[1].starts_with("timedemo: run 1/3: 10 frames in "),
            "{text}"
        );
        assert!(lines[4].starts_with("timedemo: per frame: "), "{text}");
        assert_eq!(s.per_run.len(), 3);
        assert_eq!(lines[lines.len() - 1], summary_line(&opts, &s));
    }

    #[test]
    fn the_summary_line_is_stable() {
        let opts = Options {
            title: "E1M1".into(),
            width: 320,
            height: 200,
            frames: 500,
            runs: 3,
            seed: 1,
            spin: false,
            walk: false,
            stride: None,
            division: None,
        };
        let s = Summary {
            per_run: vec![250.0, 200.0, 400.0],
            cpu_per_run: Some(vec![240.0, 190.0, 390.0]),
            stats: RenderStats::default(),
            viewpoints: 64,
        };
        assert_eq!(
            summary_line(&opts, &s),
            "timedemo: E1M1 320x200: 500 frames, median 250.00 µs/frame (min 200.00, max 400.00 over 3 runs), 4000 fps"
        );
        assert_eq!(
            cpu_line(&[240.0, 190.0, 390.0]),
            "timedemo: CPU time: median 240.00 µs/frame (min 190.00, max 390.00 over 3 runs)"
        );
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }
}
