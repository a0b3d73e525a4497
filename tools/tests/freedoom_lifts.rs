//! Freedoom's lifts, found from the map data alone: compiled with the
//! movers kept ([`ImportOptions::movers`]), each lift is set off from its
//! wall as the player would (use in front of a switch, or a walk across
//! the line), and ridden: the player stands on the lift, the special is
//! set off, and the lift must come down with the player on its floor and
//! go back up with it.

mod common;

use common::{approaches, compile_with_movers, freedoom_maps, point};

use engine::format::{wall_action, WallSpecialRecord};
use engine::game::{Game, Input};
use engine::math::{Angle, Fx, Vec2};
use engine::world::{Level, SectorId, WallId};

/// Ticks allowed for a whole trip: DOOM's slowest lift (4 a tick) over
/// 1,024 units and back, with its wait of 105.
const TRIP_TICKS: u32 = 2 * 1024 / 4 + 105 + 35;

/// What happened when the player set a lift off from its wall.
#[derive(Debug, PartialEq)]
enum SetOff {
    /// The lift started down.
    Moved,
    /// It did not move.
    Still,
    /// No room to stand in front of the wall.
    NoStart,
}

/// What happened to a player riding a lift.
#[derive(Debug, PartialEq)]
enum Ride {
    /// Down and back up, the player's feet on the lift's floor all along.
    Rode,
    /// The lift did not go down (already at its lowest).
    NotDown,
    /// The lift did not come back up within [`TRIP_TICKS`].
    NotUp,
    /// The player left the lift's floor (floated or sank) at this tick.
    OffTheFloor(u32),
    /// No room to stand on the lift.
    NoStart,
}

/// The sectors a lift special moves.
fn lift_sectors(level: &Level<'_>, s: &WallSpecialRecord) -> Vec<SectorId> {
    if s.action & wall_action::BACK_SECTOR != 0 {
        return level.wall(WallId(s.wall)).back.into_iter().collect();
    }
    (0..level.sector_count())
        .filter(|&i| s.tag != 0 && level.map().sector(i).tag == s.tag)
        .map(|i| SectorId(i as u16))
        .collect()
}

/// Sets the lift off as the player would: a use special is used from in
/// front of its wall, a walk special crossed (from either side).
fn set_off(level: Level<'_>, s: &WallSpecialRecord, lift: SectorId) -> SetOff {
    let top = level.sector(lift).floor;
    let moved = |g: &Game<'_>| g.level().sector(lift).floor < top;
    // Each start in turn, nearest last (a start pushed out of the way may
    // be out of reach, or blocked from the line).
    let (starts, input) = approaches(level, s);
    let started = !starts.is_empty();
    for mut game in starts {
        for t in 0..40 {
            game.tick(if t < 20 { input } else { Input::IDLE });
            if moved(&game) {
                return SetOff::Moved;
            }
        }
    }
    if started {
        SetOff::Still
    } else {
        SetOff::NoStart
    }
}

/// A point on `sector` where the player stands on the lift alone with
/// room to stand: its centre in the sector and its disc over it or over
/// the other sectors the special moves at the same height (a lift drawn
/// as several sectors), so that no other floor holds it up; found on a
/// grid over the sector's box.
fn standing_on<'a>(level: Level<'a>, sector: SectorId, lift: &[SectorId]) -> Option<Game<'a>> {
    let s = level.sector(sector);
    if s.ceiling - s.floor < engine::config::player::HEIGHT {
        return None;
    }
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    for w in level.sector_walls(sector) {
        let w = level.wall(w);
        for v in [w.a, w.b] {
            let (x, y) = (v.x.to_num::<f64>(), v.y.to_num::<f64>());
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
    }
    if lo.0 > hi.0 {
        return None;
    }
    let on_lift = |p: Vec2| {
        level
            .locate(p)
            .is_some_and(|o| o == sector || lift.contains(&o) && level.sector(o).floor == s.floor)
    };
    // Just inside the disc's edge: a lift as wide as the player holds it
    // centred (a body touching a neighbour's edge is not over it).
    let reach = engine::config::player::RADIUS.to_num::<f64>() - 1.0 / 64.0;
    let inside = |x: f64, y: f64| {
        (0..16).all(|k| {
            let a = f64::from(k) * std::f64::consts::PI / 8.0;
            on_lift(point(x + reach * a.cos(), y + reach * a.sin()))
        })
    };
    let mut points = vec![((lo.0 + hi.0) / 2.0, (lo.1 + hi.1) / 2.0)];
    const N: i32 = 16;
    for i in 1..N {
        for j in 1..N {
            let t = |k: i32, a: f64, b: f64| a + (b - a) * f64::from(k) / f64::from(N);
            points.push((t(i, lo.0, hi.0), t(j, lo.1, hi.1)));
        }
    }
    points.into_iter().find_map(|(x, y)| {
        if level.locate(point(x, y)) != Some(sector) || !inside(x, y) {
            return None;
        }
        let game = Game::starting_at(level, point(x, y), Angle::ZERO).ok()?;
        let p = game.player();
        (p.pos == point(x, y) && p.z == s.floor).then_some(game)
    })
}

/// The lowest floor next to `sector` (DOOM's
/// `P_FindLowestFloorSurrounding`), or its own if lower: where the lift
/// goes down to.
fn lowest_floor_around(level: &Level<'_>, sector: SectorId) -> Fx {
    level
        .sector_walls(sector)
        .filter_map(|w| level.wall(w).other_side(sector))
        .map(|o| level.sector(o).floor)
        .fold(level.sector(sector).floor, Fx::min)
}

/// Rides lift `sector` set off by special `index`.
fn ride(level: Level<'_>, index: usize, sector: SectorId, lift: &[SectorId]) -> Ride {
    let Some(mut game) = standing_on(level, sector, lift) else {
        return Ride::NoStart;
    };
    let top = game.level().sector(sector).floor;
    if !game.set_off(index) {
        return Ride::NotDown;
    }
    let mut low = top;
    for t in 0..TRIP_TICKS {
        game.tick(Input::IDLE);
        let floor = game.level().sector(sector).floor;
        low = low.min(floor);
        let p = game.player();
        if p.sector != sector || p.z != floor {
            return Ride::OffTheFloor(t);
        }
        if low < top && floor == top && game.world().movers().is_empty() {
            return Ride::Rode;
        }
    }
    if low == top {
        Ride::NotDown
    } else {
        Ride::NotUp
    }
}

struct Lift {
    wad: &'static str,
    map: String,
    wall: u16,
    sector: SectorId,
    set_off: SetOff,
    ride: Ride,
}

fn lifts_of(wad: &'static str, map: &str) -> Vec<Lift> {
    let compiled = compile_with_movers(wad, map);
    let level = Level::load(&compiled).unwrap();
    let m = *level.map();
    let mut out = Vec::new();
    for k in 0..m.wall_special_count() {
        let s = m.wall_special_at(k);
        if !wall_action::is_lift(s.action) {
            continue;
        }
        let sectors = lift_sectors(&level, &s);
        for &sector in &sectors {
            if lowest_floor_around(&level, sector) >= level.sector(sector).floor {
                // Down already: DOOM's lift goes nowhere either.
                continue;
            }
            out.push(Lift {
                wad,
                map: map.to_string(),
                wall: s.wall,
                sector,
                set_off: set_off(level, &s, sector),
                ride: ride(level, k, sector, &sectors),
            });
        }
    }
    out
}

fn describe(lifts: &[&Lift]) -> String {
    lifts
        .iter()
        .map(|l| {
            format!(
                "{} {} wall {} sector {}: {:?}, {:?}",
                l.wad, l.map, l.wall, l.sector.0, l.set_off, l.ride
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_lift_of_e1m1_is_set_off_from_its_wall_and_ridden() {
    let lifts = lifts_of("freedoom1.wad", "E1M1");
    assert!(!lifts.is_empty(), "E1M1 has lifts");
    let bad: Vec<_> = lifts
        .iter()
        .filter(|l| l.set_off != SetOff::Moved || l.ride != Ride::Rode)
        .collect();
    assert!(bad.is_empty(), "{}", describe(&bad));
}

/// Every lift of both Freedoom IWADs, counted once per wall and sector it
/// moves. On 2026-12-02: 688, of which 672 were set off from their walls
/// (the rest sit behind a shut door or a step the probe cannot pass) and
/// all 541 with room for the player to stand on rode down and back up;
/// 147 are no place to stand (narrow strips, shut pillars, parts of a
/// lift too small for the player's disc). Every lift with room must ride;
/// 95 in 100 must be set off; the failure message lists the rest.
#[test]
fn the_lifts_of_every_freedoom_map_are_set_off_and_ridden() {
    let all: Vec<_> = freedoom_maps()
        .iter()
        .flat_map(|(wad, map)| lifts_of(wad, map))
        .collect();
    let rode = all.iter().filter(|l| l.ride == Ride::Rode).count();
    let moved = all.iter().filter(|l| l.set_off == SetOff::Moved).count();
    let fell_off: Vec<_> = all
        .iter()
        .filter(|l| l.ride != Ride::Rode && l.ride != Ride::NoStart)
        .collect();
    let still: Vec<_> = all.iter().filter(|l| l.set_off != SetOff::Moved).collect();
    assert!(all.len() >= 600, "{} lifts found", all.len());
    assert!(rode >= 500, "{rode} of {} lifts ridden", all.len());
    assert!(
        fell_off.is_empty(),
        "rides that failed:\n{}",
        describe(&fell_off)
    );
    assert!(
        moved * 100 >= all.len() * 95,
        "{moved} of {} set off from their walls; not:\n{}",
        all.len(),
        describe(&still)
    );
}
