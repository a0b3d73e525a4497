//! Golden frames of textured rendering: tiny maps with tiny textures
//! whose texels print as distinct characters (see `render_support`).

mod render_support;

use engine::format::{kind, wall_flag, RotationRecord, SideRecord, ThingRecord, MIRRORED, SKY};
use engine::game::Game;
use engine::math::{Fx, Vec2};
use engine::render::{render, sprites_of, Frame, Scene, Sprite};
use engine::world::Level;
use render_support::textured::*;
use render_support::*;

/// Sixteen texel columns of four units each, one character per band.
const BANDS: &[u8; 16] = b"123456789ABDEGHI";

/// Room A (0..64) and room B (64..128), floor 0, ceiling 64, a portal at
/// x = 64.
fn two_rooms() -> Retex {
    Retex::from_bytes(&build_map(&[
        Sec::rect(0, 0, 64, 64, 0, 64),
        Sec::rect(64, 0, 128, 64, 0, 64).colors((C_CEIL2, C_FLOOR2, C_WALL2)),
    ]))
}

fn load(m: &Retex) -> Vec<u8> {
    m.bytes()
}

#[test]
fn wall_textures_run_along_each_side_from_its_start() {
    let ink = Ink::new();
    let mut m = two_rooms();
    // Texel column c prints as BANDS[c / 4]; at depth 32 on a 16-wide
    // screen each column is 4 units wide, so each shows one band.
    let t = m.texture(64, 64, |c, _| BANDS[c / 4]);
    let portal = m.wall_between((64, 0), (64, 64));
    // Opaque middle texture on both sides of the portal: each side's
    // texture starts at that side's left end (v1 seen from the front, v2
    // from the back) and runs left to right.
    m.dress(portal, 0, middle(t));
    m.dress(portal, 1, middle(t));
    // The west wall, 8 units (two bands) of x offset.
    let west = m.wall_between((0, 0), (0, 64));
    m.dress(
        west,
        0,
        SideRecord {
            x_offset: 8,
            ..middle(t)
        },
    );
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    let from_a = shoot(&level, &camera(&level, 32, 32, 32, 0), &ink, 16, 4);
    assert_frame(&from_a, &ink, &["123456789ABDEGHI"; 4]);
    let from_b = shoot(&level, &camera(&level, 96, 32, 32, 180), &ink, 16, 4);
    assert_frame(&from_b, &ink, &["123456789ABDEGHI"; 4]);
    let west = shoot(&level, &camera(&level, 32, 32, 32, 180), &ink, 16, 4);
    assert_frame(&west, &ink, &["3456789ABDEGHI12"; 4]);
}

/// Room A (floor 0, ceiling 64) and room B (floor 16, ceiling 48): from
/// A, an upper and a lower wall 4 rows each; B's east wall beyond. All
/// textured with a 5-row texture (rows print 1..5), which tiles
/// vertically, and `flags` and `y_offset` on both walls.
#[test]
fn a_scrolling_wall_moves_its_texture_one_unit_a_tick() {
    let ink = Ink::new();
    let mut m = two_rooms();
    let t = m.texture(64, 64, |c, _| BANDS[c / 4]);
    let west = m.wall_between((0, 0), (0, 64));
    let east = m.wall_between((128, 0), (128, 64));
    m.dress(west, 0, middle(t));
    m.dress(east, 1, middle(t));
    m.walls[west].flags = wall_flag::SCROLL_LEFT;
    m.walls[east].flags = wall_flag::SCROLL_RIGHT;
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    let west_at = |ticks| {
        shoot(
            &level.at_time(ticks),
            &camera(&level, 32, 32, 32, 180),
            &ink,
            16,
            4,
        )
    };
    // At the start, as the map has it; 8 ticks on, two bands (8 units)
    // further along, as an x offset of 8 shows it; 64 ticks on, round.
    assert_frame(&west_at(0), &ink, &["123456789ABDEGHI"; 4]);
    assert_frame(&west_at(8), &ink, &["3456789ABDEGHI12"; 4]);
    assert_frame(&west_at(64), &ink, &["123456789ABDEGHI"; 4]);
    // The other way: back two bands.
    let east_at = |ticks| {
        shoot(
            &level.at_time(ticks),
            &camera(&level, 96, 32, 32, 0),
            &ink,
            16,
            4,
        )
    };
    assert_frame(&east_at(0), &ink, &["123456789ABDEGHI"; 4]);
    assert_frame(&east_at(8), &ink, &["HI123456789ABDEG"; 4]);
    // A game's level is as far on as its clock.
    let mut game = Game::new(level);
    for _ in 0..8 {
        game.tick(engine::game::Input::IDLE);
    }
    assert_eq!(game.level().time(), 8);
}

fn pegging(flags: u16, y_offset: i16) -> Vec<String> {
    let ink = Ink::new();
    let mut m = Retex::from_bytes(&build_map(&[
        Sec::rect(0, 0, 64, 64, 0, 64),
        Sec::rect(64, 0, 128, 64, 16, 48).colors((C_CEIL2, C_FLOOR2, C_WALL2)),
    ]));
    let t = m.texture(4, 5, |_, r| b"12345"[r]);
    let portal = m.wall_between((64, 0), (64, 64));
    m.dress(
        portal,
        0,
        SideRecord {
            y_offset,
            ..upper_lower(t, t)
        },
    );
    m.walls[portal].flags = flags;
    let east = m.wall_between((128, 0), (128, 64));
    m.dress(
        east,
        1,
        SideRecord {
            y_offset,
            ..middle(t)
        },
    );
    m.walls[east].flags = flags;
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    // One column is enough: every column shows the same rows.
    let shot = shoot(&level, &camera(&level, 32, 32, 32, 0), &ink, 16, 16);
    shot.text(&ink)
        .iter()
        .map(|r| r[7..9].to_string())
        .collect()
}

#[test]
fn upper_lower_and_middle_textures_are_pegged_as_doom_pegs_them() {
    // At depth 32 a row is 4 units: rows 0..4 see z = 62, 58, 54, 50 of
    // the upper wall, rows 12..16 z = 14, 10, 6, 2 of the lower; B's east
    // wall (depth 96, 12 units a row) shows in rows 7 and 8 at z = 38, 26.
    let column = |rows: Vec<String>| rows.concat();
    // Default: the upper's bottom at B's ceiling (texture top at 53), the
    // lower's top at B's floor (16), the one-sided middle's top at its
    // ceiling (48).
    assert_eq!(column(pegging(0, 0)), "22115544CCCCCC1133FFFFFF33221155");
    // Unpegged: the upper's top at A's ceiling (64), the lower placed as
    // if pegged to A's ceiling (64), the middle's bottom at its floor
    // (top at 16 + 5).
    assert_eq!(
        column(pegging(
            wall_flag::UPPER_UNPEGGED | wall_flag::LOWER_UNPEGGED,
            0
        )),
        "33221155CCCCCC4411FFFFFF11554433"
    );
    // A y offset of 2 moves every texture 2 rows up.
    assert_eq!(column(pegging(0, 2)), "44332211CCCCCC3355FFFFFF55443322");
}

fn quadrants(c: usize, r: usize) -> u8 {
    match (c < 32, r < 32) {
        (true, true) => b'A',
        (false, true) => b'B',
        (true, false) => b'D',
        (false, false) => b'E',
    }
}

/// A big room whose floor and ceiling show a 64x64 flat with four
/// quadrants: texel (c, r) is A, B (c >= 32), D (r >= 32) or E.
fn flat_room() -> Vec<u8> {
    let mut m = Retex::from_bytes(&build_map(&[Sec::rect(-256, 0, 320, 512, 0, 64)]));
    let f = m.texture(64, 64, quadrants);
    m.sectors[0].floor_texture = f;
    m.sectors[0].ceiling_texture = f;
    load(&m)
}

#[test]
fn flats_are_oriented_as_doom_maps_them() {
    let ink = Ink::new();
    let map = flat_room();
    let level = Level::load(&map).unwrap();
    // Facing north from (32, 8), the eye half-way up. DOOM: texel column
    // floor(x) mod 64, texel row floor(-y) mod 64. The nearest floor rows
    // (y just over 40: rows 0..32 of the flat) show A west of x = 32 and
    // B east of it; beyond y = 64 come rows 32..64 (D, E); the west
    // edge reaches x < 0 (columns 32..64 again). The ceiling mirrors it.
    let shot = shoot(&level, &camera(&level, 32, 8, 32, 90), &ink, 16, 16);
    assert_frame(
        &shot,
        &ink,
        &[
            "AAAAAAAABBBBBBBB",
            "BAAAAAAABBBBBBBA",
            "BBAAAAAABBBBBBAA",
            "EEEDDDDDEEEEEDDD",
            "DEEEDDDDEEEEDDDE",
            "AAABBAAABBBAABBB",
            "AABAABAABBABBABB",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "AABAABAABBABBABB",
            "AAABBAAABBBAABBB",
            "DEEEDDDDEEEEDDDE",
            "EEEDDDDDEEEEEDDD",
            "BBAAAAAABBBBBBAA",
            "BAAAAAAABBBBBBBA",
            "AAAAAAAABBBBBBBB",
        ],
    );
}

/// Every floor and ceiling pixel of views of `level` (one sector, floor
/// 0, ceiling 64) shows the texel DOOM's mapping gives for the map point
/// its ray meets, by an independent floating-point calculation: texel
/// `(x mod width, -y mod height)` of a flat `size` texels wide and high,
/// whose letter is `texel(column, row)`. Pixels within a hair of a
/// quadrant edge (a multiple of half the flat) are skipped.
fn check_flat_mapping(level: &Level<'_>, size: (usize, usize), texel: impl Fn(usize, usize) -> u8) {
    let ink = Ink::new();
    let (w, h) = (40usize, 30usize);
    let half = (size.0 as f64 / 2.0, size.1 as f64 / 2.0);
    let near = |v: f64, edge: f64| {
        let m = v.rem_euclid(edge);
        m.min(edge - m) < 0.25
    };
    for (cx, cy, eye, deg) in [(32, 8, 32, 90), (10, 100, 20, 30), (100, 300, 50, 200)] {
        let shot = shoot(level, &camera(level, cx, cy, eye, deg), &ink, w, h);
        let text = shot.text(&ink);
        let a = (deg as f64).to_radians();
        let (f, r) = ((a.cos(), a.sin()), (a.sin(), -a.cos()));
        let mut checked = 0;
        for (y, line) in text.iter().enumerate() {
            let off = y as f64 + 0.5 - h as f64 / 2.0;
            let dh = if off > 0.0 {
                eye as f64
            } else {
                64.0 - eye as f64
            };
            let t = dh * (w as f64 / 2.0) / off.abs();
            for x in 0..w {
                let k = (2.0 * x as f64 + 1.0 - w as f64) / w as f64;
                let px = cx as f64 + t * (f.0 + k * r.0);
                let py = cy as f64 + t * (f.1 + k * r.1);
                let got = line.as_bytes()[x];
                if got == b'w' {
                    continue;
                }
                if near(px, half.0) || near(-py, half.1) {
                    continue;
                }
                let c = (px.floor() as i64).rem_euclid(size.0 as i64) as usize;
                let rr = ((-py).floor() as i64).rem_euclid(size.1 as i64) as usize;
                assert_eq!(
                    got,
                    texel(c, rr),
                    "pixel ({x}, {y}) from {cx},{cy} at {deg}"
                );
                checked += 1;
            }
        }
        assert!(checked > w * h / 4, "{checked}");
    }
}

#[test]
fn flat_texels_match_the_map_point_each_pixel_sees() {
    // An independent floating-point check at an oblique angle: every
    // floor and ceiling pixel shows the texel DOOM's mapping gives for the
    // map point its ray meets.
    let map = flat_room();
    check_flat_mapping(&Level::load(&map).unwrap(), (64, 64), quadrants);
}

#[test]
fn flats_of_any_size_map_as_doom_maps_them() {
    // A 40x24 flat (not DOOM's 64x64: the general path), quadrants at
    // column 20 and row 12, checked against floating point as above.
    let quarters = |c: usize, r: usize| match (c < 20, r < 12) {
        (true, true) => b'A',
        (false, true) => b'B',
        (true, false) => b'D',
        (false, false) => b'E',
    };
    let mut m = Retex::from_bytes(&build_map(&[Sec::rect(-256, 0, 320, 512, 0, 64)]));
    let f = m.texture(40, 24, quarters);
    m.sectors[0].floor_texture = f;
    m.sectors[0].ceiling_texture = f;
    let map = load(&m);
    check_flat_mapping(&Level::load(&map).unwrap(), (40, 24), quarters);
}

/// A 256x128 sky whose column c prints as BANDS[c / 16] in rows 0..64
/// and as the lower-case band below.
fn sky_texture(m: &mut Retex) -> u16 {
    m.texture(256, 128, |c, r| {
        if r < 64 {
            BANDS[c / 16]
        } else {
            b"abdehijlmnopqrst"[c / 16]
        }
    })
}

#[test]
fn the_sky_turns_with_the_view_unlit() {
    let ink = Ink::new();
    let mut m = Retex::from_bytes(&build_map(&[Sec::rect(0, 0, 1024, 1024, 0, 64).light(64)]));
    let sky = sky_texture(&mut m);
    m.sky = Some(sky);
    m.sectors[0].ceiling_texture = SKY;
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    // Facing east: 1024 sky columns per turn, the texture's columns
    // running right to left across the screen as in DOOM (column 122 at
    // the left edge, 43 degrees left; 133 at the right). Rows: 20 texels
    // a row at 16 columns (DOOM: one a pixel at 320), row 100 in the
    // middle: rows 0, 20, 40, 60 above the far walls.
    let shot = shoot(&level, &camera(&level, 512, 512, 32, 0), &ink, 16, 10);
    assert_frame(
        &shot,
        &ink,
        &[
            "87765421IHEDBAA9",
            "87765421IHEDBAA9",
            "87765421IHEDBAA9",
            "87765421IHEDBAA9",
            "wwwwwwwwwwwwwwww",
            "ffffffffffffffff",
            "ffffffffffffffff",
            "ffffffffffffffff",
            "ffffffffffffffff",
            "ffffffffffffffff",
        ],
    );
    // Full bright in a dark room (the far wall is black).
    assert_eq!(shot.level(&ink, 3, 0), 31);
    assert_eq!(shot.level(&ink, 3, 4), 0);
    // Turned 90 degrees left: 256 columns on, the same texture (it
    // repeats four times around).
    let turned = shoot(&level, &camera(&level, 512, 512, 32, 90), &ink, 16, 10);
    assert_eq!(turned.text(&ink)[0], shot.text(&ink)[0]);
    // Turned 45 degrees left: 128 columns (eight bands) on.
    let half = shoot(&level, &camera(&level, 512, 512, 32, 45), &ink, 16, 10);
    assert_eq!(half.text(&ink)[0], "IHHGEDA987543221");
    // A taller view: rows -140, -120, ... (mod 128: 116, 8, 28, 48, 68,
    // 88, 108, 0, 20, 40, 60) above the walls, the texture wrapping.
    let tall = shoot(&level, &camera(&level, 512, 512, 32, 0), &ink, 16, 24);
    let column: String = tall
        .text(&ink)
        .iter()
        .map(|r| r.as_bytes()[7] as char)
        .collect();
    assert_eq!(column, "a111aaa1111wffffffffffff");
}

#[test]
fn between_two_sky_ceilings_the_upper_wall_is_sky() {
    let ink = Ink::new();
    let mut m = Retex::from_bytes(&build_map(&[
        Sec::rect(0, 0, 64, 64, 0, 64).light(64),
        Sec::rect(64, 0, 128, 64, 0, 40)
            .colors((C_CEIL2, C_FLOOR2, C_WALL2))
            .light(64),
    ]));
    let sky = sky_texture(&mut m);
    m.sky = Some(sky);
    m.sectors[0].ceiling_texture = SKY;
    let one = load(&m);
    m.sectors[1].ceiling_texture = SKY;
    let both = load(&m);
    // Only A's ceiling is sky: B's lower ceiling leaves an upper wall
    // (rows 1..5, A's untextured wall colour). (At 12 rows the top row
    // shows sky row 108: the lower-case bands.)
    let level = Level::load(&one).unwrap();
    let shot = shoot(&level, &camera(&level, 16, 32, 32, 0), &ink, 16, 12);
    assert_frame(
        &shot,
        &ink,
        &[
            "wwwihebatsqpowww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwWWWWWWWWWWwww",
            "wwwWWWWWWWWWWwww",
            "wwwWWWWWWWWWWwww",
            "wwwWWFFFFFFWWwww",
            "wwwWFFFFFFFFWwww",
            "wwwFFFFFFFFFFwww",
            "wwffffffffffffww",
        ],
    );
    // Both are sky: DOOM's hack shows the sky there instead.
    let level = Level::load(&both).unwrap();
    let shot = shoot(&level, &camera(&level, 16, 32, 32, 0), &ink, 16, 12);
    assert_frame(
        &shot,
        &ink,
        &[
            "wwwihebatsqpowww",
            "www65421IHEDBwww",
            "www65421IHEDBwww",
            "www65421IHEDBwww",
            "www65421IHEDBwww",
            "wwwWWWWWWWWWWwww",
            "wwwWWWWWWWWWWwww",
            "wwwWWWWWWWWWWwww",
            "wwwWWFFFFFFWWwww",
            "wwwWFFFFFFFFWwww",
            "wwwFFFFFFFFFFwww",
            "wwffffffffffffww",
        ],
    );
}

/// Two rooms with a grate in the portal: 40 units of an 8-wide masked
/// texture, 4 units of bars (X) and 4 clear. Plus a 16x32 sprite
/// texture, columns printing BANDS, its top corners clear, its origin at
/// the middle of its bottom.
fn grate_rooms(flags: u16) -> (Vec<u8>, u16) {
    let mut m = two_rooms();
    let g = m.texture(8, 40, |c, _| if c < 4 { b'X' } else { b'.' });
    m.masked(g);
    let portal = m.wall_between((64, 0), (64, 64));
    m.dress(portal, 0, middle(g));
    m.walls[portal].flags = flags;
    let s = m.texture(16, 32, |c, r| {
        if r < 4 && !(2..14).contains(&c) {
            b'.'
        } else {
            BANDS[c]
        }
    });
    m.masked(s);
    m.origin(s, 8, 32);
    (load(&m), s)
}

#[test]
fn a_grate_shows_the_room_behind_it() {
    let ink = Ink::new();
    let (map, _) = grate_rooms(0);
    let level = Level::load(&map).unwrap();
    let cam = camera(&level, 16, 32, 32, 0);
    // The portal at depth 48 spans columns 3..13; the grate hangs from
    // the ceiling (z 64) down to z 24 (rows 3..9), drawn once, not tiled;
    // B's ceiling (C) and far wall (W) show between the bars.
    let shot = shoot(&level, &cam, &ink, 16, 16);
    assert_frame(
        &shot,
        &ink,
        &[
            "wccccccccccccccw",
            "wwccccccccccccww",
            "wwwccccccccccwww",
            "wwwWXXCCXXCCXwww",
            "wwwWXXCCXXCWXwww",
            "wwwWXXCCXXWWXwww",
            "wwwWXXWWXXWWXwww",
            "wwwWXXWWXXWWXwww",
            "wwwWXXWWXXWWXwww",
            "wwwWWWWWWWWWWwww",
            "wwwWWFFFFFFWWwww",
            "wwwWFFFFFFFFWwww",
            "wwwFFFFFFFFFFwww",
            "wwffffffffffffww",
            "wffffffffffffffw",
            "ffffffffffffffff",
        ],
    );
    // Lower-unpegged: it stands on the floor (z 0..40, rows 7..13).
    let (map, _) = grate_rooms(wall_flag::LOWER_UNPEGGED);
    let level = Level::load(&map).unwrap();
    let shot = shoot(&level, &cam, &ink, 16, 16);
    let text = shot.text(&ink);
    assert_eq!(text[6], "wwwWWWWWWWWWWwww");
    assert_eq!(text[7], "wwwWXXWWXXWWXwww");
    assert_eq!(text[12], "wwwFXXFFXXFFXwww");
    assert_eq!(text[13], "wwffffffffffffww");
}

#[test]
fn sprites_and_grates_are_drawn_far_to_near() {
    let ink = Ink::new();
    let (map, s) = grate_rooms(0);
    let level = Level::load(&map).unwrap();
    let cam = camera(&level, 16, 32, 32, 0);
    let sprite = |x: i32| Sprite::new(Vec2::from_int(x, 32), Fx::ZERO, s);
    // Behind the grate (depth 80): the bars cover it (column 8, row 8).
    let shot = shoot_scene(&level, &cam, &ink, &[sprite(96)], 16, 16);
    let text = shot.text(&ink);
    assert_eq!(
        &text[7..11],
        [
            "wwwWXXWWXXWWXwww",
            "wwwWXXW4XXWWXwww",
            "wwwWWWW4GWWWWwww",
            "wwwWWFF4GFFWWwww"
        ]
    );
    assert_eq!(shot.stats.sprites_drawn, 1);
    // In front of it (depth 24): over the bars, its clear corners
    // showing them.
    let shot = shoot_scene(&level, &cam, &ink, &[sprite(40)], 16, 16);
    assert_frame(
        &shot,
        &ink,
        &[
            "wccccccccccccccw",
            "wwccccccccccccww",
            "wwwccccccccccwww",
            "wwwWXXCCXXCCXwww",
            "wwwWXXCCXXCWXwww",
            "wwwWXXCCXXWWXwww",
            "wwwWXXWWXXWWXwww",
            "wwwWXXWWXXWWXwww",
            "wwwWXX47AEWWXwww",
            "wwwWW147AEIWWwww",
            "wwwWW147AEIWWwww",
            "wwwWF147AEIFWwww",
            "wwwFF147AEIFFwww",
            "wwfff147AEIfffww",
            "wffff147AEIffffw",
            "fffff147AEIfffff",
        ],
    );
    // Both at once, given in either order: the same frame.
    let a = shoot_scene(&level, &cam, &ink, &[sprite(96), sprite(40)], 16, 16);
    let b = shoot_scene(&level, &cam, &ink, &[sprite(40), sprite(96)], 16, 16);
    assert_eq!(a.pixels, b.pixels);
    assert_eq!(a.text(&ink), shot.text(&ink));
}

#[test]
fn a_sprite_before_a_wall_and_one_behind_a_corner() {
    let ink = Ink::new();
    let map = build_map(&[Sec {
        loops: vec![
            vec![(0, 0), (256, 0), (256, 256), (0, 256)],
            vec![(32, 96), (48, 96), (48, 128), (32, 128)],
        ],
        ..Sec::rect(0, 0, 0, 0, 0, 128)
    }]);
    let mut m = Retex::from_bytes(&map);
    // 32 texels wide, two per band; origin at the middle of the bottom.
    let s = m.texture(32, 32, |c, _| BANDS[c / 2]);
    m.origin(s, 16, 32);
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    let sprite = |x: i32, y: i32| Sprite::new(Vec2::from_int(x, y), Fx::ZERO, s);
    // In the open, in front of the east wall: 16 columns wide at depth
    // 32 (a texel each half column), standing on the floor.
    let cam = camera(&level, 16, 200, 32, 0);
    let shot = shoot_scene(&level, &cam, &ink, &[sprite(48, 200)], 32, 16);
    let text = shot.text(&ink);
    assert_eq!(text[7], "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww");
    for row in &text[8..16] {
        assert_eq!(&row[8..24], "123456789ABDEGHI");
    }
    // Behind the pillar's corner (the pillar's north face is level with
    // the camera, hiding the right half of the view): only the sprite's
    // left half shows, clipped column by column at the corner.
    let cam = camera(&level, 16, 128, 32, 0);
    let shot = shoot_scene(&level, &cam, &ink, &[sprite(80, 128)], 32, 16);
    assert_frame(
        &shot,
        &ink,
        &[
            "wwwwwwccccccccccwwwwwwwwwwwwwwww",
            "wwwwwwwcccccccccwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwww2468wwwwwwwwwwwwwwww",
            "wwwwwwwwwwww2468wwwwwwwwwwwwwwww",
            "wwwwwwffffff2468wwwwwwwwwwwwwwww",
            "wwffffffffff2468wwwwwwwwwwwwwwww",
            "ffffffffffff2468wwwwwwwwwwwwwwww",
            "ffffffffffff2468wwwwwwwwwwwwwwww",
            "ffffffffffff2468wwwwwwwwwwwwwwww",
            "ffffffffffff2468wwwwwwwwwwwwwwww",
        ],
    );
    assert_eq!(shot.stats.sprites_drawn, 1);
    // Behind the camera, at it, beyond the walls: nothing drawn.
    let none = shoot_scene(
        &level,
        &cam,
        &ink,
        &[sprite(0, 128), sprite(16, 128), sprite(300, 128)],
        32,
        16,
    );
    let empty = shoot_scene(&level, &cam, &ink, &[], 32, 16);
    assert_eq!(none.pixels, empty.pixels);
}

#[test]
fn light_falls_off_with_distance_along_a_textured_wall() {
    let ink = Ink::new();
    let mut m = Retex::from_bytes(&build_map(&[Sec::rect(0, 0, 1024, 64, 0, 64).light(160)]));
    let t = m.texture(8, 8, |_, _| b'X');
    m.dress_sector(0, middle(t));
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    // Down a corridor: the left half of the view sees the north wall from
    // 34 units (column 0) to 512 (column 7).
    let shot = shoot(&level, &camera(&level, 16, 32, 32, 0), &ink, 16, 16);
    let levels: Vec<usize> = (0..8).map(|x| shot.level(&ink, x, 7)).collect();
    // DOOM's light 160 on a wall running east-west: light number 9,
    // light map 24 far away, brighter by half of 2560 / depth nearer.
    let doom =
        |depth: f64| 31 - (24 - ((2560.0 / depth).floor().min(47.0) as i32 / 2)).clamp(0, 31);
    for (x, &l) in levels.iter().enumerate() {
        let k = (2.0 * x as f64 + 1.0 - 16.0) / 16.0;
        assert_eq!(l as i32, doom(32.0 / -k), "column {x}: {levels:?}");
    }
    assert!(levels.windows(2).all(|p| p[0] >= p[1]), "{levels:?}");
    assert!(levels[0] > levels[7] + 10, "{levels:?}");
}

#[test]
fn a_game_draws_its_decorations_and_bodies_but_not_the_player() {
    let mut m = Retex::from_bytes(&build_map(&[Sec::rect(0, 0, 512, 256, 16, 144)]));
    let s = m.texture(16, 32, |c, _| BANDS[c]);
    m.origin(s, 8, 32);
    m.things = vec![
        ThingRecord {
            x: Fx::from_num(32),
            y: Fx::from_num(128),
            kind: kind::PLAYER_START,
            sprite: s,
            ..Default::default()
        },
        ThingRecord {
            x: Fx::from_num(200),
            y: Fx::from_num(100),
            kind: kind::DECORATION,
            sprite: s,
            ..Default::default()
        },
        ThingRecord {
            x: Fx::from_num(300),
            y: Fx::from_num(160),
            radius: Fx::from_num(16),
            kind: kind::PUSHABLE,
            sprite: s,
            ..Default::default()
        },
    ];
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    let game = Game::new(level);
    let mut out: heapless::Vec<Sprite, 4> = heapless::Vec::new();
    assert_eq!(sprites_of(&game, &mut out), 0);
    assert_eq!(
        out.as_slice(),
        [
            Sprite::new(Vec2::from_int(200, 100), Fx::from_num(16), s),
            Sprite::new(Vec2::from_int(300, 160), Fx::from_num(16), s),
        ]
    );
    let mut small: heapless::Vec<Sprite, 1> = heapless::Vec::new();
    assert_eq!(sprites_of(&game, &mut small), 1);

    let ink = Ink::new();
    let (w, h) = (32, 20);
    let mut pixels = vec![Px(None); w * h];
    let mut frame = Frame::new(&mut pixels, w, h, w).unwrap();
    let stats = render(&Scene::of_game(&game), &ink.shades, &mut frame);
    assert_eq!(stats.sprites_drawn, 2);
    let scene = shoot_scene(&level, &game.camera(), &ink, &out, w, h);
    assert_eq!(pixels, scene.pixels);
    // `render` draws the decoration only.
    let plain = shoot(&level, &game.camera(), &ink, w, h);
    assert_eq!(plain.stats.sprites_drawn, 1);
    let deco = shoot_scene(&level, &game.camera(), &ink, &out[..1], w, h);
    assert_eq!(plain.pixels, deco.pixels);
    assert_ne!(plain.pixels, scene.pixels);
}

#[test]
fn sprites_at_one_depth_keep_their_order_past_the_limit() {
    // Two sprites on one spot: the one that came first is drawn over the
    // other. With 128 farther sprites ahead of them, each replaces the
    // farthest kept; they must still be drawn in the order they came.
    let ink = Ink::new();
    let mut m = Retex::from_bytes(&build_map(&[Sec::rect(0, 0, 1024, 1024, 0, 128)]));
    let first = m.texture(64, 64, |_, _| b'1');
    let second = m.texture(64, 64, |c, _| if c % 2 == 0 { b'9' } else { b'1' });
    let far = m.texture(64, 16, |_, _| b'E');
    m.origin(first, 32, 64);
    m.origin(second, 32, 64);
    m.origin(far, 32, 16);
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    let at = |x: i32, y: i32, texture: u16| Sprite::new(Vec2::from_int(x, y), Fx::ZERO, texture);
    // Farther with every one, so the last kept is always the farthest.
    let farther: Vec<Sprite> = (0..128)
        .map(|i| at(300 + 2 * i, 500 + i % 25, far))
        .collect();
    let pair = [at(80, 512, first), at(80, 512, second)];
    let cam = camera(&level, 16, 512, 32, 0);
    let (w, h) = (16, 12);
    let crowded: Vec<Sprite> = farther.iter().chain(&pair).copied().collect();
    let shot = shoot_scene(&level, &cam, &ink, &crowded, w, h);
    assert_eq!(
        (shot.stats.sprites_drawn, shot.stats.sprites_dropped),
        (128, 2)
    );
    // The same sprites without going past the limit: the two farthest
    // left out beforehand.
    let kept: Vec<Sprite> = farther[..126].iter().chain(&pair).copied().collect();
    let expected = shoot_scene(&level, &cam, &ink, &kept, w, h);
    assert_eq!(expected.stats.sprites_dropped, 0);
    assert_eq!(shot.pixels, expected.pixels);
    // (The order shows in this view: the pair the other way round
    // differs.)
    let swapped: Vec<Sprite> = farther[..126]
        .iter()
        .chain([&pair[1], &pair[0]])
        .copied()
        .collect();
    assert_ne!(
        shoot_scene(&level, &cam, &ink, &swapped, w, h).pixels,
        expected.pixels
    );
}

#[test]
fn too_many_sprites_or_grates_are_dropped_and_counted() {
    let ink = Ink::new();
    // 200 sprites in view: the nearest 128 are drawn.
    let mut m = Retex::from_bytes(&build_map(&[Sec::rect(0, 0, 1024, 1024, 0, 128)]));
    let s = m.texture(64, 16, |c, _| BANDS[c / 4]);
    m.origin(s, 32, 16);
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    let sprites: Vec<Sprite> = (0..200)
        .map(|i| Sprite::new(Vec2::from_int(66 + 2 * i, 512 + (i % 7) - 3), Fx::ZERO, s))
        .collect();
    let cam = camera(&level, 16, 512, 32, 0);
    let shot = shoot_scene(&level, &cam, &ink, &sprites, 16, 8);
    assert_eq!(shot.stats.sprites_drawn, 128);
    assert_eq!(shot.stats.sprites_dropped, 72);
    // The nearest 128 are the ones kept: the same frame as with only them.
    let near = shoot_scene(&level, &cam, &ink, &sprites[..128], 16, 8);
    assert_eq!(shot.pixels, near.pixels);
    // Farthest first, each new one replaces the farthest kept: the same.
    let reversed: Vec<Sprite> = sprites.iter().rev().copied().collect();
    let shot = shoot_scene(&level, &cam, &ink, &reversed, 16, 8);
    assert_eq!(shot.stats.sprites_drawn, 128);
    assert_eq!(shot.stats.sprites_dropped, 72);
    assert_eq!(shot.pixels, near.pixels);

    // A grate in each of 40 portals down a chain of rooms: each column
    // keeps the nearest 32.
    let sectors: Vec<Sec> = (0..41)
        .map(|i| Sec::rect(i * 16, -1024, i * 16 + 16, 1024, -1024, 1024))
        .collect();
    let mut m = Retex::from_bytes(&build_map(&sectors));
    let g = m.texture(4, 1024, |c, _| if c == 0 { b'X' } else { b'.' });
    m.masked(g);
    for i in 1..41 {
        // The side facing west, towards the camera.
        let w = m.wall_between((i * 16, -1024), (i * 16, 1024));
        m.dress(w, (i - 1) as u16, middle(g));
    }
    let map = load(&m);
    let level = Level::load(&map).unwrap();
    let shot = shoot(&level, &camera(&level, 8, 0, 0, 0), &ink, 8, 8);
    assert_eq!(shot.stats.portals_crossed, 8 * 40);
    assert_eq!(shot.stats.masked_dropped, 8 * 8);
    assert!(!shot.text(&ink).concat().contains('?'));
}

/// A 256-unit square room with a thing in the middle facing `angle`, its
/// rotations DOOM's five lumps (`A1`, `A2A8`, `A3A7`, `A4A6`, `A5`),
/// 16 x 16 texels (`lumps`: each texel's character, rotation 1 first),
/// origin at the middle of the bottom. `seven` gives rotation 7 (A3A7
/// mirrored in DOOM) from A3's texture: a texture, [`MIRRORED`] set to
/// draw it mirrored.
type Texels<'a> = &'a dyn Fn(usize, usize) -> u8;
fn rotation_room(
    angle: i32,
    lumps: [Texels<'_>; 5],
    seven: impl FnOnce(&mut Retex, u16) -> u16,
) -> Vec<u8> {
    let mut m = Retex::from_bytes(&build_map(&[Sec::rect(0, 0, 256, 256, 0, 128)]));
    let lumps: Vec<u16> = lumps
        .iter()
        .map(|f| {
            let t = m.texture(16, 16, f);
            m.origin(t, 8, 16);
            t
        })
        .collect();
    let [a1, a2, a3, a4, a5] = lumps[..] else {
        unreachable!()
    };
    let a7 = seven(&mut m, a3);
    m.rotations = vec![RotationRecord {
        textures: [a1, a2, a3, a4, a5, a4 | MIRRORED, a7, a2 | MIRRORED],
    }];
    m.things.push(ThingRecord {
        x: Fx::from_num(128),
        y: Fx::from_num(128),
        angle: Fx::from_num(angle),
        kind: kind::DECORATION,
        sprite: a1,
        rotations: 1,
        ..Default::default()
    });
    load(&m)
}

/// Rotations 1 to 5 in four bands of four texel columns each.
fn banded(c: usize, lump: usize) -> u8 {
    [b"1234", b"5678", b"9ABD", b"EGHI", b"JKLM"][lump][c / 4]
}

/// The frame mirrored left to right.
fn mirrored(shot: &Shot) -> Vec<Px> {
    shot.pixels
        .chunks(shot.width)
        .flat_map(|row| row.iter().rev().copied())
        .collect()
}

#[test]
fn a_thing_shows_the_rotation_that_faces_the_camera() {
    let ink = Ink::new();
    let lumps: [Texels<'_>; 5] = [
        &|c, _| banded(c, 0),
        &|c, _| banded(c, 1),
        &|c, _| banded(c, 2),
        &|c, _| banded(c, 3),
        &|c, _| banded(c, 4),
    ];
    let map = rotation_room(0, lumps, |_, a3| a3 | MIRRORED);
    let level = Level::load(&map).unwrap();
    // 16 units from the thing, eye 8 units up: the sprite covers
    // columns 4..12, two a band, and rows 4..12.
    let view =
        |x: i32, y: i32, deg: i32| shoot(&level, &camera(&level, x, y, 8, deg), &ink, 16, 16);
    // In front (east of it, looking west): rotation 1.
    let front = view(144, 128, 180);
    assert_frame(
        &front,
        &ink,
        &[
            "cccccccccccccccc",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwww11223344wwww",
            "wwww11223344wwww",
            "wwww11223344wwww",
            "wwww11223344wwww",
            "ffff11223344ffff",
            "ffff11223344ffff",
            "ffff11223344ffff",
            "ffff11223344ffff",
            "ffffffffffffffff",
            "ffffffffffffffff",
            "ffffffffffffffff",
            "ffffffffffffffff",
        ],
    );
    let row = |shot: &Shot| shot.text(&ink)[8][4..12].to_string();
    // Behind it (west, looking east): rotation 5.
    assert_eq!(row(&view(112, 128, 0)), "JJKKLLMM");
    // From its left (north, looking south): rotation 3 as it is; from
    // its right (south, looking north): rotation 7, A3A7 mirrored.
    let left = view(128, 144, 270);
    let right = view(128, 112, 90);
    assert_eq!(row(&left), "99AABBDD");
    assert_eq!(row(&right), "DDBBAA99");
    // The room is the same seen from either side, and the two pictures
    // are each other's mirror, pixel for pixel.
    assert_eq!(mirrored(&right), left.pixels);
    // From in front on its left (north-east, looking south-west):
    // rotation 2; on its right (south-east): rotation 8, A2A8 mirrored.
    let seen = |shot: &Shot| {
        let mut s: Vec<char> = row(shot).chars().collect();
        s.dedup();
        s.into_iter().collect::<String>()
    };
    assert_eq!(seen(&view(140, 140, 225)), "5678");
    assert_eq!(seen(&view(140, 116, 135)), "8765");
    // Behind on its left, behind on its right: rotations 4 and 6.
    assert_eq!(seen(&view(116, 140, 315)), "EGHI");
    assert_eq!(seen(&view(116, 116, 45)), "IHGE");
    // Facing north, the thing shows rotation 1 to the north, rotation 3
    // to the west (its left) and 7, mirrored, to the east.
    let north = rotation_room(90, lumps, |_, a3| a3 | MIRRORED);
    let north = Level::load(&north).unwrap();
    let view =
        |x: i32, y: i32, deg: i32| shoot(&north, &camera(&north, x, y, 8, deg), &ink, 16, 16);
    assert_eq!(row(&view(128, 144, 270)), "11223344");
    assert_eq!(row(&view(112, 128, 0)), "99AABBDD");
    assert_eq!(row(&view(144, 128, 180)), "DDBBAA99");
    assert_eq!(row(&view(128, 112, 90)), "JJKKLLMM");
    // The player's picture (`Scene::of_game`) and the list of sprites
    // `sprites_of` gives show the same rotations.
    let game = Game::new(Level::load(&map).unwrap());
    let mut list: heapless::Vec<Sprite, 4> = heapless::Vec::new();
    assert_eq!(sprites_of(&game, &mut list), 0);
    assert_eq!(list[0].rotations, 1);
    for (x, y, deg) in [(144, 128, 180), (128, 112, 90), (116, 116, 45)] {
        let cam = camera(&level, x, y, 8, deg);
        let by_list = shoot_scene(&level, &cam, &ink, &list, 16, 16);
        assert_eq!(by_list.pixels, shoot(&level, &cam, &ink, 16, 16).pixels);
    }
}

#[test]
fn a_mirrored_rotation_is_its_texture_read_from_the_right() {
    // Rotation 7 as A3A7 mirrored, and as a texture of its own holding
    // A3's columns in the opposite order (its origin where A3's is):
    // the same pixels from anywhere the thing shows rotation 7, the
    // sprite near or far, whole or cut by the screen's edge.
    let ink = Ink::new();
    // A3: every column different.
    let a3 = |c: usize, r: usize| BANDS[(c + r) % 16];
    let plain = |_: usize, _: usize| b'x';
    let lumps: [Texels<'_>; 5] = [&plain, &plain, &a3, &plain, &plain];
    let flagged = rotation_room(0, lumps, |_, a3| a3 | MIRRORED);
    let own = rotation_room(0, lumps, |m, _| {
        let t = m.texture(16, 16, |c, r| a3(15 - c, r));
        m.origin(t, 8, 16);
        t
    });
    let flagged_level = Level::load(&flagged).unwrap();
    let own_level = Level::load(&own).unwrap();
    let mut compared = 0;
    for (x, y, deg) in [
        (128, 112, 90),
        (120, 100, 80),
        (135, 96, 95),
        (128, 60, 90),
        (128, 120, 90),
        (110, 104, 60),
        (140, 100, 120),
    ] {
        let a = shoot(
            &flagged_level,
            &camera(&flagged_level, x, y, 8, deg),
            &ink,
            24,
            16,
        );
        let b = shoot(&own_level, &camera(&own_level, x, y, 8, deg), &ink, 24, 16);
        assert_eq!(a.text(&ink), b.text(&ink), "from ({x}, {y}) at {deg}");
        assert_eq!(a.stats.sprites_drawn, 1);
        compared += 1;
    }
    assert_eq!(compared, 7);
}
