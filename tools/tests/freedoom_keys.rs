//! Freedoom's keys and locks, found from the map data alone: every key
//! lying in a map is picked up by a player walking to it and then drawn
//! no more; every locked special refuses a player without its key,
//! saying which, and acts for one holding it; and every map that locks
//! something lays a key of that colour.

mod common;

use std::collections::BTreeSet;

use common::{approaches, compile_with_movers, freedoom_maps};
use engine::format::{kind, trigger};
use engine::game::{Game, Input};
use engine::math::{Angle, Fx, Vec2};
use engine::render::sprites_of;
use engine::specials::KeyColour;
use engine::world::Level;

/// What happened at one key.
#[derive(Debug, PartialEq)]
enum AtKey {
    /// Picked up, of its colour, and no longer drawn.
    PickedUp,
    /// Picked up but still drawn, or picked up as another colour.
    Wrong,
    /// Not picked up by a player standing on it.
    Missed,
    /// The player cannot stand there (no room, outside the map).
    NoStart,
}

/// Starts the player 64 units from the key in each of 8 directions (and
/// on it), facing it, and walks it there: picked up from the first start
/// the player fits at?
fn try_key(bytes: &[u8], thing: usize) -> AtKey {
    let level = Level::load(bytes).unwrap();
    let t = level.map().thing(thing);
    let colour = KeyColour::of_lock(kind::key_lock(t.kind)).unwrap();
    let drawn = |g: &Game<'_>| {
        let mut out = heapless::Vec::<_, 1024>::new();
        sprites_of(g, &mut out);
        out.len()
    };
    let (x, y) = (t.x.to_num::<f64>(), t.y.to_num::<f64>());
    let mut tried = false;
    for octant in 0..9 {
        let (d, a) = if octant == 8 {
            (0.0, 0.0)
        } else {
            (64.0, f64::from(octant) * 45.0)
        };
        let (dx, dy) = (a.to_radians().cos(), a.to_radians().sin());
        let from = Vec2::new(Fx::from_num(x + d * dx), Fx::from_num(y + d * dy));
        let facing = Angle::from_degrees(Fx::from_num((a + 180.0).rem_euclid(360.0)));
        let Ok(mut game) = Game::starting_at(level, from, facing) else {
            continue;
        };
        let s = game.level().sector(game.player().sector);
        if s.ceiling - s.floor < engine::config::player::HEIGHT {
            continue;
        }
        tried = true;
        for _ in 0..20 {
            let before = drawn(&game);
            game.tick(Input::new(100, 0, 0));
            let Some(p) = game.events().picked_up else {
                continue;
            };
            // A key with a sprite leaves the picture.
            let gone = usize::from(t.sprite != engine::format::NONE);
            if p.colour == colour && usize::from(p.thing) == thing && drawn(&game) + gone == before
            {
                return AtKey::PickedUp;
            }
            return AtKey::Wrong;
        }
    }
    if tried {
        AtKey::Missed
    } else {
        AtKey::NoStart
    }
}

#[test]
fn every_key_of_every_freedoom_map_is_picked_up_where_it_lies() {
    let mut all = Vec::new();
    for (wad, map) in freedoom_maps() {
        let bytes = compile_with_movers(wad, &map);
        let level = Level::load(&bytes).unwrap();
        let keys: Vec<usize> = (0..level.map().thing_count())
            .filter(|&i| kind::is_key(level.map().thing(i).kind))
            .collect();
        for i in keys {
            all.push((wad, map.clone(), i, try_key(&bytes, i)));
        }
    }
    let picked = all.iter().filter(|k| k.3 == AtKey::PickedUp).count();
    let not: Vec<_> = all.iter().filter(|k| k.3 != AtKey::PickedUp).collect();
    assert!(all.len() >= 100, "{} keys found", all.len());
    assert!(!all.iter().any(|k| k.3 == AtKey::Wrong), "{not:?}");
    // On 2026-12-03, 141 of 157. The rest lie where the map's own movers
    // must first take the player (a pit whose floor rises, a shelf under
    // a low ceiling that lowers): DOOM's rule refuses them there too.
    assert!(
        picked * 100 >= all.len() * 85,
        "{picked} of {} keys picked up; not: {not:?}",
        all.len()
    );
}

/// Every locked special of both IWADs: from in front of its wall (use)
/// or running at it (walk), without the key nothing moves and the game
/// names the key; with it the special acts.
#[test]
fn every_locked_special_of_every_freedoom_map_needs_its_key() {
    let (mut locked, mut checked, mut unkeyed) = (0, 0, Vec::new());
    for (wad, map) in freedoom_maps() {
        let bytes = compile_with_movers(wad, &map);
        let level = Level::load(&bytes).unwrap();
        let m = level.map();
        let colours: BTreeSet<u8> = m
            .things()
            .filter(|t| kind::is_key(t.kind))
            .map(|t| kind::key_lock(t.kind))
            .collect();
        for k in 0..m.wall_special_count() {
            let s = m.wall_special_at(k);
            let lock = trigger::lock(s.trigger);
            let Some(colour) = KeyColour::of_lock(lock) else {
                continue;
            };
            locked += 1;
            if !colours.contains(&lock) {
                unkeyed.push((wad, map.clone(), k, colour));
            }
            let (starts, input) = approaches(level, &s);
            // The nearest start from which setting it off is tried at all
            // (another wall may be in the way of some).
            let Some((start, without)) = starts.into_iter().rev().find_map(|start| {
                let mut without = start.clone();
                without.tick(input);
                let said = without.events().locked.map(|l| l.colour);
                (said == Some(colour)).then_some((start, without))
            }) else {
                continue;
            };
            // Nothing started that standing still would not have.
            let mut still = start.clone();
            still.tick(Input::IDLE);
            assert_eq!(
                without.world().movers(),
                still.world().movers(),
                "{wad} {map} special {k}"
            );
            assert!(!without.world().is_spent(k));
            // With the key, the same press acts.
            let mut with = start;
            with.give_key(colour);
            with.tick(input);
            assert_eq!(with.events().locked, None);
            assert_ne!(
                with.world().movers(),
                still.world().movers(),
                "{wad} {map} special {k} with its key"
            );
            checked += 1;
        }
    }
    assert!(locked >= 50, "{locked} locked specials");
    assert!(checked * 10 >= locked * 9, "{checked} of {locked} tried");
    assert!(
        unkeyed.is_empty(),
        "locked with no key in the map: {unkeyed:?}"
    );
}

#[test]
fn e1m1_lays_its_blue_card_and_locks_doors_blue() {
    let bytes = compile_with_movers("freedoom1.wad", "E1M1");
    let level = Level::load(&bytes).unwrap();
    let m = level.map();
    let cards: Vec<_> = m.things().filter(|t| t.kind == kind::BLUE_CARD).collect();
    assert_eq!(cards.len(), 1);
    assert_ne!(cards[0].sprite, engine::format::NONE);
    assert_eq!(cards[0].radius, Fx::from_num(20));
    let blue = (0..m.wall_special_count())
        .filter(|&k| trigger::lock(m.wall_special_at(k).trigger) == 1)
        .count();
    assert!(blue >= 1);
}
