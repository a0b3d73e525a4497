//! Golden frames: tiny renders through real compiled maps, compared as
//! text. `c f w` are the first sector's ceiling, floor and wall colours,
//! `C F W` the second's; a space is the black background, `?` a pixel the
//! renderer never wrote.

mod render_support;

use engine::math::{Angle, Fx, Vec2};
use engine::render::{render, Camera, Frame, Scene};
use engine::world::{Level, SectorId};
use render_support::*;

fn room() -> Vec<u8> {
    build_map(&[Sec::rect(0, 0, 256, 256, 0, 128)])
}

/// Room A (0..256) and room B (256..512) side by side, a portal between.
fn two_rooms(b_floor: i32, b_ceiling: i32) -> Vec<u8> {
    build_map(&[
        Sec::rect(0, 0, 256, 256, 0, 128),
        Sec::rect(256, 0, 512, 256, b_floor, b_ceiling).colors((C_CEIL2, C_FLOOR2, C_WALL2)),
    ])
}

fn assert_mirrored(shot: &Shot, ink: &Ink) {
    for row in shot.text(ink) {
        let rev: String = row.chars().rev().collect();
        assert_eq!(row, rev, "frame is not left-right symmetric");
    }
}

#[test]
fn wall_straight_ahead_in_a_square_room() {
    let ink = Ink::new();
    let map = room();
    let level = Level::load(&map).unwrap();
    // Centre of the room, facing east: the east wall 128 away fills every
    // column at the same (perpendicular) depth: no fisheye.
    let shot = shoot(&level, &camera(&level, 128, 128, 64, 0), &ink, 16, 10);
    assert_frame(
        &shot,
        &ink,
        &[
            "cccccccccccccccc",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "ffffffffffffffff",
        ],
    );
    assert_eq!(shot.stats.portals_crossed, 0);
    assert_eq!(shot.stats.columns_truncated, 0);
    // One exact test per column: the other walls face away or lie off
    // the column, and are culled once per frame.
    assert_eq!(shot.stats.walls_tested, 16);
    // Same depth everywhere: the same light in every wall pixel.
    let l = shot.level(&ink, 0, 4);
    for x in 0..16 {
        assert_eq!(shot.level(&ink, x, 4), l);
    }

    // Further back: the east wall 192 away, the side walls nearer at the
    // edges of the view.
    let shot = shoot(&level, &camera(&level, 64, 128, 64, 0), &ink, 16, 10);
    assert_frame(
        &shot,
        &ink,
        &[
            "cccccccccccccccc",
            "wccccccccccccccw",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wffffffffffffffw",
            "ffffffffffffffff",
        ],
    );
    assert_mirrored(&shot, &ink);
}

#[test]
fn looking_into_a_corner() {
    let ink = Ink::new();
    let map = build_map(&[Sec::rect(0, 0, 256, 256, 0, 128).light(160)]);
    let level = Level::load(&map).unwrap();
    let shot = shoot(&level, &camera(&level, 128, 128, 64, 45), &ink, 16, 10);
    assert_frame(
        &shot,
        &ink,
        &[
            "wwwccccccccccwww",
            "wwwwwwccccwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwww",
            "wwwwwwffffwwwwww",
            "wwwffffffffffwww",
        ],
    );
    assert_mirrored(&shot, &ink);
    // Left: the north wall (facing south), right: the east wall (facing
    // west). Mirrored columns are at the same depth; DOOM's fake contrast
    // makes the wall running east-west one light number (four light maps)
    // darker, the one running north-south one brighter.
    for x in 0..8 {
        let north = shot.level(&ink, x, 5);
        let east = shot.level(&ink, 15 - x, 5);
        assert_eq!(east, north + 8, "column {x}");
    }
    // The corner is further away than the edges of the view: darker.
    assert!(shot.level(&ink, 7, 5) < shot.level(&ink, 0, 5));
}

#[test]
fn portal_with_a_step_up() {
    let ink = Ink::new();
    let map = two_rooms(32, 128);
    let level = Level::load(&map).unwrap();
    let cam = camera(&level, 64, 128, 64, 0);
    assert_eq!(cam.sector, SectorId(0));
    let shot = shoot(&level, &cam, &ink, 32, 16);
    // Rows 11-12: the lower wall (room A's colour) under the opening; B's
    // floor, ceiling and walls beyond it.
    assert_frame(
        &shot,
        &ink,
        &[
            "wccccccccccccccccccccccccccccccw",
            "wwwccccccccccccccccccccccccccwww",
            "wwwwwccccccccccccccccccccccwwwww",
            "wwwwwWWCCCCCCCCCCCCCCCCCCWWwwwww",
            "wwwwwWWWWCCCCCCCCCCCCCCWWWWwwwww",
            "wwwwwWWWWWWCCCCCCCCCCWWWWWWwwwww",
            "wwwwwWWWWWWWWWWWWWWWWWWWWWWwwwww",
            "wwwwwWWWWWWWWWWWWWWWWWWWWWWwwwww",
            "wwwwwWWWWWWWWWWWWWWWWWWWWWWwwwww",
            "wwwwwWWWWWFFFFFFFFFFFFWWWWWwwwww",
            "wwwwwWFFFFFFFFFFFFFFFFFFFFWwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwffffffffffffffffffffffwwwww",
            "wwwffffffffffffffffffffffffffwww",
            "wffffffffffffffffffffffffffffffw",
        ],
    );
    assert_mirrored(&shot, &ink);
    // Columns 5..=26 look through the portal.
    assert_eq!(shot.stats.portals_crossed, 22);
    // One exact test per sector entered: the wall each ray leaves by.
    assert_eq!(shot.stats.walls_tested, 32 + 22);
}

#[test]
fn portal_with_a_lower_ceiling() {
    let ink = Ink::new();
    let map = two_rooms(0, 80);
    let level = Level::load(&map).unwrap();
    let shot = shoot(&level, &camera(&level, 64, 128, 64, 0), &ink, 32, 16);
    // Rows 3-6: the upper wall over the opening.
    assert_frame(
        &shot,
        &ink,
        &[
            "wccccccccccccccccccccccccccccccw",
            "wwwccccccccccccccccccccccccccwww",
            "wwwwwccccccccccccccccccccccwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwWWWWWWWWWWWWWWWWWWWWWWwwwww",
            "wwwwwWWWWWWWWWWWWWWWWWWWWWWwwwww",
            "wwwwwWWWWWWWWWWWWWWWWWWWWWWwwwww",
            "wwwwwWWWWWWFFFFFFFFFFWWWWWWwwwww",
            "wwwwwWWWWFFFFFFFFFFFFFFWWWWwwwww",
            "wwwwwWWFFFFFFFFFFFFFFFFFFWWwwwww",
            "wwwwwffffffffffffffffffffffwwwww",
            "wwwffffffffffffffffffffffffffwww",
            "wffffffffffffffffffffffffffffffw",
        ],
    );
}

#[test]
fn looking_back_through_the_portal_uses_the_near_side_colours() {
    let ink = Ink::new();
    let map = two_rooms(32, 128);
    let level = Level::load(&map).unwrap();
    // From room B looking west: B's floor is higher, so no lower wall is
    // seen from this side, and A's floor shows beyond the edge.
    let cam = camera(&level, 448, 128, 96, 180);
    assert_eq!(cam.sector, SectorId(1));
    let shot = shoot(&level, &cam, &ink, 32, 16);
    let text = shot.text(&ink);
    let middle: String = text.iter().map(|r| r.as_bytes()[16] as char).collect();
    // Top to bottom in the middle column: B's ceiling, A's ceiling, A's far
    // wall (A's own colour, seen from A), A's floor, B's floor; no wall
    // under the opening, as A's floor is the lower one.
    assert_eq!(middle, "CCCCCccwwwwffFFF");
    assert_mirrored(&shot, &ink);
}

#[test]
fn non_convex_l_shaped_sector() {
    let ink = Ink::new();
    let map = build_map(&[Sec {
        loops: vec![vec![
            (0, 0),
            (256, 0),
            (256, 128),
            (128, 128),
            (128, 256),
            (0, 256),
        ]],
        ..Sec::rect(0, 0, 0, 0, 0, 128)
    }]);
    let level = Level::load(&map).unwrap();
    // From the corner of the L, facing 60 degrees: the inner corner's two
    // walls hide the far arm in the middle; the arms' ends show at the
    // sides (the far north wall on the left, the far east end on the
    // right).
    let shot = shoot(&level, &camera(&level, 40, 60, 64, 60), &ink, 32, 16);
    assert_frame(
        &shot,
        &ink,
        &[
            "wccccccccccccccccccwwwwwwwwwcccc",
            "wwwwcccccccccccccwwwwwwwwwwwwwcc",
            "wwwwwwwwwwcccccwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwfffffwwwwwwwwwwwwwwwww",
            "wwwwfffffffffffffwwwwwwwwwwwwwff",
            "wffffffffffffffffffwwwwwwwwwffff",
        ],
    );
    assert_eq!(shot.stats.portals_crossed, 0);
}

#[test]
fn sector_with_a_hole() {
    let ink = Ink::new();
    let map = build_map(&[Sec {
        loops: vec![
            vec![(0, 0), (512, 0), (512, 512), (0, 512)],
            vec![(224, 224), (288, 224), (288, 288), (224, 288)],
        ],
        // Below full light, so that distance darkens (DOOM's light 255 is
        // full bright at any distance).
        ..Sec::rect(0, 0, 0, 0, 0, 128).light(160)
    }]);
    let level = Level::load(&map).unwrap();
    // The pillar (a hole in the one sector) stands in the middle of the
    // view, nearer and so taller than the east wall behind it.
    let shot = shoot(&level, &camera(&level, 64, 256, 64, 0), &ink, 32, 16);
    assert_frame(
        &shot,
        &ink,
        &[
            "cccccccccccccccccccccccccccccccc",
            "cccccccccccccccccccccccccccccccc",
            "cccccccccccccwwwwwwccccccccccccc",
            "cccccccccccccwwwwwwccccccccccccc",
            "wwcccccccccccwwwwwwcccccccccccww",
            "wwwwwwcccccccwwwwwwcccccccwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "wwwwwwfffffffwwwwwwfffffffwwwwww",
            "wwfffffffffffwwwwwwfffffffffffww",
            "fffffffffffffwwwwwwfffffffffffff",
            "fffffffffffffwwwwwwfffffffffffff",
            "ffffffffffffffffffffffffffffffff",
            "ffffffffffffffffffffffffffffffff",
        ],
    );
    assert_mirrored(&shot, &ink);
    // The pillar is nearer than the wall behind it: brighter.
    assert!(shot.level(&ink, 15, 7) > shot.level(&ink, 10, 7));
}

#[test]
fn nothing_is_seen_from_outside_the_map_but_every_pixel_is_black() {
    let ink = Ink::new();
    let map = room();
    let level = Level::load(&map).unwrap();
    // Outside, looking away from the room.
    let cam = camera(&level, -100, 128, 64, 180);
    let shot = shoot(&level, &cam, &ink, 8, 4);
    assert_frame(&shot, &ink, &["        "; 4]);
    // A sector that does not exist.
    let cam = Camera {
        sector: SectorId(7),
        ..camera(&level, 128, 128, 64, 0)
    };
    let shot = shoot(&level, &cam, &ink, 8, 4);
    assert_frame(&shot, &ink, &["        "; 4]);
}

#[test]
fn the_frame_is_overwritten_whole_and_padding_is_left_alone() {
    let ink = Ink::new();
    let map = two_rooms(32, 96);
    let level = Level::load(&map).unwrap();
    let cam = camera(&level, 100, 40, 50, 20);
    let (w, h, stride) = (24, 12, 29);
    let sentinel = Px(Some([1, 2, 3]));
    let mut a = vec![sentinel; stride * h];
    let mut b = vec![Px(None); stride * h];
    for buf in [&mut a, &mut b] {
        let mut frame = Frame::new(buf, w, h, stride).unwrap();
        render(&Scene::new(level, cam), &ink.shades, &mut frame);
    }
    for y in 0..h {
        for x in 0..stride {
            let (pa, pb) = (a[y * stride + x], b[y * stride + x]);
            if x < w {
                assert_eq!(pa, pb, "pixel ({x}, {y}) depends on the old frame");
                assert_ne!(pb, Px(None));
            } else {
                assert_eq!(pa, sentinel, "padding written at ({x}, {y})");
                assert_eq!(pb, Px(None));
            }
        }
    }
}

#[test]
fn a_camera_on_a_wall_or_a_vertex_still_sees_the_room() {
    let ink = Ink::new();
    let map = two_rooms(32, 96);
    let level = Level::load(&map).unwrap();
    // Exactly on the portal, looking into room B (the camera still says
    // room A): the walk crosses at depth 0 and shows B.
    let cam = Camera {
        pos: Vec2::from_int(256, 128),
        eye_z: Fx::from_num(64),
        angle: Angle::from_int_degrees(0),
        sector: SectorId(0),
    };
    let shot = shoot(&level, &cam, &ink, 16, 8);
    let all = shot.text(&ink).concat();
    assert!(
        all.contains('W') && all.contains('F') && !all.contains(' '),
        "{all}"
    );
    // On a corner vertex, looking into the room: no background.
    let cam = Camera {
        pos: Vec2::from_int(0, 0),
        angle: Angle::from_int_degrees(45),
        ..cam
    };
    let shot = shoot(&level, &cam, &ink, 16, 8);
    assert!(!shot.text(&ink).concat().contains(' '));
}

#[test]
fn long_chains_of_sectors_are_truncated_not_looped() {
    let ink = Ink::new();
    let n = engine::config::MAX_PORTALS_PER_COLUMN as i32 + 40;
    // Floors a unit apart from one sector to the next: between two
    // sectors with the same floor and ceiling the BSP walk passes over
    // the portal (nothing of it shows), so that would be no chain.
    let sectors: Vec<Sec> = (0..n)
        .map(|i| Sec::rect(i * 8, -1024, i * 8 + 8, 1024, -1024 + i % 2, 1024))
        .collect();
    let map = build_map(&sectors);
    let level = Level::load(&map).unwrap();
    // The middle columns look down the whole chain of thin sectors.
    let cam = camera(&level, 4, 0, 0, 0);
    let shot = shoot(&level, &cam, &ink, 4, 6);
    assert!(shot.stats.columns_truncated > 0);
    assert!(shot.stats.portals_crossed as usize >= engine::config::MAX_PORTALS_PER_COLUMN);
    // Truncated columns end in the background, fully written.
    let all = shot.text(&ink).concat();
    assert!(!all.contains('?'));
    assert!(all.contains(' '));
}
