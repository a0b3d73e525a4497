//! Properties of the renderer over random cameras and screen sizes: no
//! panic, every pixel written, padding untouched, deterministic. Plus the
//! awkward fixed cases (camera on every vertex and wall) and a rough
//! frame timing (ignored; run with `--release -- --ignored --nocapture`).

mod render_support;

use engine::math::{Angle, Fx, Vec2};
use engine::render::{render, Camera, Frame, RenderStats};
use engine::world::{Level, SectorId, WallId};
use proptest::prelude::*;
use render_support::*;

/// A bit of everything: a non-convex hall with a pillar, a step up, a pit,
/// a low corridor, a closed door (ceiling = floor) and a room behind it.
fn arena() -> Vec<u8> {
    build_map(&[
        Sec {
            loops: vec![
                vec![
                    (0, 0),
                    (1024, 0),
                    (1024, 512),
                    (512, 512),
                    (512, 1024),
                    (0, 1024),
                ],
                vec![(200, 200), (300, 200), (300, 300), (200, 300)],
            ],
            ..Sec::rect(0, 0, 0, 0, 0, 128).light(200)
        },
        Sec::rect(1024, 0, 1536, 512, 24, 160)
            .colors((C_CEIL2, C_FLOOR2, C_WALL2))
            .light(160),
        Sec::rect(1536, 0, 2048, 512, -64, 256)
            .colors((C_CEIL3, C_FLOOR3, C_WALL3))
            .light(100),
        Sec::rect(0, 1024, 512, 1536, 0, 72).light(230),
        Sec::rect(0, 1536, 512, 1600, 0, 0),
        Sec::rect(0, 1600, 512, 2048, 0, 128).light(40),
    ])
}

const SECTORS: u16 = 6;

/// Renders into a fresh, padded buffer and checks every frame pixel was
/// written and no padding pixel was.
fn check(
    level: &Level<'_>,
    cam: &Camera,
    ink: &Ink,
    w: usize,
    h: usize,
    pad: usize,
) -> (Vec<Px>, RenderStats) {
    let stride = w + pad;
    let mut buf = vec![Px(None); stride * h];
    let mut frame = Frame::new(&mut buf, w, h, stride).expect("frame");
    let stats = render(level, cam, &ink.shades, &mut frame);
    for y in 0..h {
        for x in 0..stride {
            let p = buf[y * stride + x];
            if x < w {
                assert!(p.0.is_some(), "pixel ({x}, {y}) not written for {cam:?}");
            } else {
                assert_eq!(p, Px(None), "padding written at ({x}, {y})");
            }
        }
    }
    assert!(stats.columns_truncated as usize <= w);
    (buf, stats)
}

fn coord() -> impl Strategy<Value = Fx> {
    prop_oneof![
        // Near and inside the map, with fractions.
        (-300i32 * 65536..2400 * 65536).prop_map(Fx::from_bits),
        // Anywhere at all.
        any::<i32>().prop_map(Fx::from_bits),
        // Exactly on the grid lines walls lie on.
        prop::sample::select(vec![0, 200, 300, 512, 1024, 1536, 1600, 2048]).prop_map(Fx::from_num),
    ]
}

fn height() -> impl Strategy<Value = Fx> {
    prop_oneof![
        (-100i32 * 65536..300 * 65536).prop_map(Fx::from_bits),
        any::<i32>().prop_map(Fx::from_bits),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn any_camera_any_size_writes_every_pixel(
        x in coord(),
        y in coord(),
        eye in height(),
        angle in any::<i32>(),
        sector in prop_oneof![Just(None), (0..SECTORS + 3).prop_map(Some)],
        w in 1usize..48,
        h in 1usize..40,
        pad in 0usize..4,
    ) {
        let map = arena();
        let level = Level::load(&map).unwrap();
        let ink = Ink::new();
        let pos = Vec2::new(x, y);
        let cam = Camera {
            pos,
            eye_z: eye,
            angle: Angle::from_degrees(Fx::from_bits(angle)),
            sector: sector
                .map(SectorId)
                .unwrap_or_else(|| level.locate(pos).unwrap_or(SectorId(0))),
        };
        let (a, sa) = check(&level, &cam, &ink, w, h, pad);
        let (b, sb) = check(&level, &cam, &ink, w, h, pad);
        prop_assert_eq!(a, b);
        prop_assert_eq!(sa, sb);
    }
}

/// Every vertex, every wall's midpoint and a point a hair to either side,
/// in every sector, at a spread of angles and eye heights.
#[test]
fn cameras_on_vertices_and_walls() {
    let map = arena();
    let level = Level::load(&map).unwrap();
    let ink = Ink::new();
    let mut spots = Vec::new();
    for i in 0..level.wall_count() {
        let wall = level.wall(WallId(i as u16));
        let mid = Vec2::new(
            Fx::from_bits(((wall.a.x.to_bits() as i64 + wall.b.x.to_bits() as i64) / 2) as i32),
            Fx::from_bits(((wall.a.y.to_bits() as i64 + wall.b.y.to_bits() as i64) / 2) as i32),
        );
        spots.extend([wall.a, wall.b, mid]);
        let hair = Fx::from_bits(1);
        spots.push(Vec2::new(mid.x + hair, mid.y + hair));
        spots.push(Vec2::new(mid.x - hair, mid.y - hair));
    }
    for pos in spots {
        for sector in 0..SECTORS {
            for deg in (0..360).step_by(15) {
                for eye in [-64, 0, 41, 128, 300] {
                    let cam = Camera {
                        pos,
                        eye_z: Fx::from_num(eye),
                        angle: Angle::from_int_degrees(deg),
                        sector: SectorId(sector),
                    };
                    check(&level, &cam, &ink, 10, 6, 1);
                }
            }
        }
    }
}

/// The corners of the coordinate range, every angle quadrant, the largest
/// and smallest frames.
#[test]
fn extremes() {
    let map = arena();
    let level = Level::load(&map).unwrap();
    let ink = Ink::new();
    let ends = [Fx::MIN, Fx::from_bits(-1), Fx::ZERO, Fx::MAX];
    for x in ends {
        for y in ends {
            for eye in ends {
                for deg in [0, 45, 90, 135, 180, 225, 270, 315] {
                    let cam = Camera {
                        pos: Vec2::new(x, y),
                        eye_z: eye,
                        angle: Angle::from_int_degrees(deg),
                        sector: SectorId(0),
                    };
                    check(&level, &cam, &ink, 3, 2, 0);
                }
            }
        }
    }
    let cam = camera(&level, 100, 100, 41, 30);
    check(&level, &cam, &ink, 1, 1, 0);
    check(&level, &cam, &ink, 1, engine::config::MAX_SCREEN_HEIGHT, 0);
    check(
        &level,
        &cam,
        &ink,
        engine::config::MAX_SCREEN_WIDTH,
        engine::config::MAX_SCREEN_HEIGHT,
        0,
    );
}

/// Rough cost of a 320x200 frame in the arena, `u32` pixels. Run with
/// `cargo test --release -p engine --test render_props -- --ignored --nocapture`.
#[test]
#[ignore]
fn frame_time_320x200() {
    let map = arena();
    let level = Level::load(&map).unwrap();
    let shades = engine::render::Shades::<u32>::new(&engine::render::Palette::builtin());
    let mut pixels = vec![0u32; 320 * 200];
    let views = [
        (50, 50, 41, 30),
        (900, 250, 41, 0),
        (250, 900, 41, 270),
        (1200, 256, 65, 0),
        (256, 1400, 41, 90),
    ];
    let frames = 400;
    let start = std::time::Instant::now();
    let mut stats = RenderStats::default();
    for i in 0..frames {
        let (x, y, eye, deg) = views[i % views.len()];
        let cam = camera(&level, x, y, eye, deg + (i / views.len()) as i32);
        let mut frame = Frame::new(&mut pixels, 320, 200, 320).unwrap();
        let s = render(&level, &cam, &shades, &mut frame);
        stats.walls_tested += s.walls_tested;
        stats.portals_crossed += s.portals_crossed;
    }
    let per = start.elapsed() / frames as u32;
    println!(
        "320x200: {per:?} per frame; per frame {} walls tested, {} portals crossed",
        stats.walls_tested / frames as u32,
        stats.portals_crossed / frames as u32
    );
}
