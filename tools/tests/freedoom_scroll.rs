//! Freedoom's scrolling walls (DOOM's line special 48): compiled as
//! scrolling walls, and seen from in front of each one-sided one, the
//! picture moves as the level's clock runs.

mod common;

use common::{compile_with_movers, freedoom_maps, starts_facing};
use engine::format::wall_flag;
use engine::render::{render, Frame, Scene, Shades};
use engine::world::{Level, WallId};

fn picture(level: &Level<'_>, camera: engine::world::Camera) -> Vec<u32> {
    let shades: Shades<u32> = Shades::for_map(level.map());
    let mut pixels = vec![0u32; 160 * 100];
    let mut frame = Frame::new(&mut pixels, 160, 100, 160).unwrap();
    render(&Scene::new(level, camera), &shades, &mut frame);
    pixels
}

#[test]
fn every_scrolling_line_of_freedoom_scrolls() {
    let (mut walls, mut seen, mut moved) = (0, 0, 0);
    for (wad, map) in freedoom_maps() {
        let bytes = compile_with_movers(wad, &map);
        let level = Level::load(&bytes).unwrap();
        for i in 0..level.wall_count() {
            let wall = level.wall(WallId(i as u16));
            if wall.flags & (wall_flag::SCROLL_LEFT | wall_flag::SCROLL_RIGHT) == 0 {
                continue;
            }
            walls += 1;
            // A one-sided wall shows its texture from floor to ceiling;
            // a portal's upper or lower part may be out of the picture.
            if wall.back.is_some() {
                continue;
            }
            // In the sector the wall faces, not past some other wall.
            let Some(game) = starts_facing(level, WallId(i as u16), 1.0, &[48.0, 32.0, 24.0, 96.0])
                .into_iter()
                .find(|g| g.player().sector == wall.front)
            else {
                continue;
            };
            seen += 1;
            let camera = game.camera();
            let still = picture(&level.at_time(0), camera);
            if [3, 8, 21, 40]
                .iter()
                .any(|&t| picture(&level.at_time(t), camera) != still)
            {
                moved += 1;
            } else {
                eprintln!("{wad} {map}: wall {i} did not move");
            }
        }
    }
    assert!(walls >= 500, "{walls} scrolling walls");
    // Many one-sided ones stand where the player does not fit in front.
    assert!(seen >= 100, "{seen} of {walls} seen");
    assert_eq!(moved, seen, "{moved} of {seen} moved");
}
