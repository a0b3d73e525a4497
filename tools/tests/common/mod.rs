//! Helpers shared by the tests that run the `tools` binary or read the
//! Freedoom WADs.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty directory for one test, named `PREFIX-NAME`.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the `tools` binary with `args`.
pub fn tools(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tools"))
        .args(args)
        .output()
        .expect("run tools")
}

/// Runs `tools compile SRC -o OUT`.
pub fn compile(src: &Path, out: &Path) -> Output {
    tools(&[
        "compile",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Where the Freedoom WAD `name` is (`FREEDOOM_DIR`, else Debian's
/// directory).
pub fn wad_path(name: &str) -> PathBuf {
    let dir = std::env::var_os("FREEDOOM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/games/doom"));
    dir.join(name)
}

/// The bytes of the Freedoom WAD `name`, or a panic that says how to
/// install it.
pub fn read_wad(name: &str) -> Vec<u8> {
    let path = wad_path(name);
    fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): install Freedoom with `scripts/setup` (Debian package \
             `freedoom`), or point FREEDOOM_DIR at a directory holding {name}",
            path.display()
        )
    })
}

/// Map `map` of Freedoom WAD `wad`, compiled with the doors, lifts and
/// teleporters kept for the game ([`tools::import::ImportOptions::movers`]).
pub fn compile_with_movers(wad: &str, map: &str) -> Vec<u8> {
    let bytes = read_wad(wad);
    let source = tools::import::WadSource::new(&bytes, None).unwrap();
    let entry = source.map(map).unwrap();
    let opts = tools::import::ImportOptions {
        movers: true,
        ..tools::import::ImportOptions::default()
    };
    source.compile(&entry, &opts).unwrap().compiled.bytes
}

/// A point of the map, from floats.
pub fn point(x: f64, y: f64) -> engine::math::Vec2 {
    use engine::math::Fx;
    engine::math::Vec2::new(Fx::from_num(x), Fx::from_num(y))
}

/// The way `(x, y)` points.
pub fn angle_of(x: f64, y: f64) -> engine::math::Angle {
    let degrees = y.atan2(x).to_degrees().rem_euclid(360.0);
    engine::math::Angle::from_degrees(engine::math::Fx::from_num(degrees))
}

/// Games with the player `d` units in front of wall `wall` for each `d`
/// of `distances` (`side` 1.0: on its front, the right of `a -> b`;
/// -1.0: behind it), facing it, that really start on that side (a start
/// is pushed clear of walls, and may be pushed past the line).
pub fn starts_facing<'a>(
    level: engine::world::Level<'a>,
    wall: engine::world::WallId,
    side: f64,
    distances: &[f64],
) -> Vec<engine::game::Game<'a>> {
    use engine::math::Wide;
    let w = level.wall(wall);
    let f = |v: engine::math::Vec2| (v.x.to_num::<f64>(), v.y.to_num::<f64>());
    let (a, b) = (f(w.a), f(w.b));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (nx, ny) = (dy / len * side, -dx / len * side);
    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    distances
        .iter()
        .filter_map(|d| {
            let start = point(mid.0 + nx * d, mid.1 + ny * d);
            let game = engine::game::Game::starting_at(level, start, angle_of(-nx, -ny)).ok()?;
            let on = w.side_of(game.player().pos) * Wide::from_num(side);
            (on < Wide::ZERO).then_some(game)
        })
        .collect()
}

/// Whether the path `from -> to` crosses wall `wall` of `level` from its
/// front (the right of `a -> b`) to its back, between its ends.
pub fn crosses(
    level: &engine::world::Level<'_>,
    wall: engine::world::WallId,
    from: engine::math::Vec2,
    to: engine::math::Vec2,
) -> bool {
    use engine::math::Wide;
    let w = level.wall(wall);
    let f = |v: engine::math::Vec2| (v.x.to_num::<f64>(), v.y.to_num::<f64>());
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let (a, b, p, q) = (f(w.a), f(w.b), f(from), f(to));
    w.side_of(from) < Wide::ZERO
        && w.side_of(to) > Wide::ZERO
        && cross(p, q, a) * cross(p, q, b) <= 0.0
}

/// Every map of both Freedoom IWADs, in order: `(wad, map name)`.
pub fn freedoom_maps() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for wad in ["freedoom1.wad", "freedoom2.wad"] {
        let bytes = read_wad(wad);
        let source = tools::import::WadSource::new(&bytes, None).unwrap();
        out.extend(source.maps().into_iter().map(|m| (wad, m.name)));
    }
    out
}

/// How the player sets wall special `s` off: for a use special, starts
/// in front of its wall facing it, pressing use; for a walk special,
/// starts on either side, running at it. Nearest start last.
pub fn approaches<'a>(
    level: engine::world::Level<'a>,
    s: &engine::format::WallSpecialRecord,
) -> (Vec<engine::game::Game<'a>>, engine::game::Input) {
    use engine::game::Input;
    let wall = engine::world::WallId(s.wall);
    let distances = [40.0, 32.0, 24.0, 18.0];
    if s.trigger & engine::format::trigger::USE != 0 {
        let starts = starts_facing(level, wall, 1.0, &distances);
        (starts, Input::IDLE.with_use(true))
    } else {
        let mut starts = starts_facing(level, wall, 1.0, &distances);
        starts.extend(starts_facing(level, wall, -1.0, &distances));
        (starts, Input::new(100, 0, 0))
    }
}
