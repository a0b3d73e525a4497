//! Secret sectors: found, once, when the player's feet touch their floor,
//! as DOOM counts them.

use engine::game::{Game, Input};
use engine::world::Level;

const MAP: &str = "vertex a 0 0\nvertex b 256 0\nvertex c 256 256\nvertex d 0 256\n\
    vertex e 512 0\nvertex f 512 256\n\
    sector hall floor 0 ceiling 128\n\
    sector nook floor -16 ceiling 128 effect secret\n\
    loop hall a b c d a\nloop nook b e f c b\n\
    player 64 128 0\n";

#[test]
fn walking_into_a_secret_finds_it_once() {
    let bytes = tools::text::compile_source(MAP, "s.map").unwrap().bytes;
    let mut game = Game::new(Level::load(&bytes).unwrap());
    let before = game.player().world;
    let mut found_at = None;
    for t in 0..60 {
        game.tick(Input::new(100, 0, 0));
        if found_at.is_none() && game.world().secrets_found() == 1 {
            found_at = Some(t);
            // Its feet are on the nook's floor by then.
            assert_eq!(game.player().z, engine::math::Fx::from_num(-16));
        }
    }
    assert!(found_at.is_some(), "{:?}", game.player());
    assert_ne!(game.player().world, before, "the world hash counts it");
    // Back out and in again: still one.
    for _ in 0..40 {
        game.tick(Input::new(-100, 0, 0));
    }
    for _ in 0..40 {
        game.tick(Input::new(100, 0, 0));
    }
    assert_eq!(game.world().secrets_found(), 1);
}

#[test]
fn a_map_without_secrets_finds_none() {
    let src = MAP.replace(" effect secret", "");
    let bytes = tools::text::compile_source(&src, "s.map").unwrap().bytes;
    let mut game = Game::new(Level::load(&bytes).unwrap());
    for _ in 0..60 {
        game.tick(Input::new(100, 0, 0));
    }
    assert_eq!(game.world().secrets_found(), 0);
}
