//! Properties of the renderer over random cameras and screen sizes: no
//! panic, every pixel written, padding untouched, deterministic. Plus the
//! awkward fixed cases (camera on every vertex and wall) and a rough
//! frame timing (ignored; run with `--release -- --ignored --nocapture`).

mod render_support;

use engine::format::{texture_flag, SideRecord, TextureRecord, NONE, SKY};
use engine::math::{Angle, Fx, Vec2};
use engine::render::{render, Camera, Frame, RenderStats, Scene, Sprite};
use engine::world::{Level, SectorId, WallId};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use render_support::textured::Retex;
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
    check_scene(level, cam, ink, None, w, h, pad)
}

/// [`check`] with `sprites` (`None`: the map's decorations).
fn check_scene(
    level: &Level<'_>,
    cam: &Camera,
    ink: &Ink,
    sprites: Option<&[Sprite]>,
    w: usize,
    h: usize,
    pad: usize,
) -> (Vec<Px>, RenderStats) {
    let stride = w + pad;
    let mut buf = vec![Px(None); stride * h];
    let mut frame = Frame::new(&mut buf, w, h, stride).expect("frame");
    let stats = match sprites {
        Some(s) => render(
            &Scene::new(level, *cam).with_sprites(s),
            &ink.shades,
            &mut frame,
        ),
        None => render(&Scene::new(level, *cam), &ink.shades, &mut frame),
    };
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

/// A texture for the textured arena: any size (1..300 each way, rarely
/// a power of two), maybe masked, any origin.
#[derive(Clone, Debug)]
struct Tex {
    width: u16,
    height: u16,
    masked: bool,
    transparent: u8,
    left: i16,
    top: i16,
    seed: u32,
}

fn tex() -> impl Strategy<Value = Tex> {
    (
        prop_oneof![1u16..300, Just(64), Just(1), Just(299)],
        prop_oneof![1u16..300, Just(64), Just(128), Just(1)],
        any::<bool>(),
        any::<u8>(),
        prop_oneof![3 => -64i16..300, 1 => any::<i16>()],
        prop_oneof![3 => -64i16..300, 1 => any::<i16>()],
        any::<u32>(),
    )
        .prop_map(
            |(width, height, masked, transparent, left, top, seed)| Tex {
                width,
                height,
                masked,
                transparent,
                left,
                top,
                seed,
            },
        )
}

/// A texture reference: none, the sky marker, any texture, or out of
/// range (which the loader refuses, so it is clamped below).
fn texref(n: usize) -> impl Strategy<Value = u16> {
    prop_oneof![Just(NONE), Just(SKY), 0..n as u16]
}

/// The arena with textures everywhere: random textures, sides with
/// random offsets and flags, sector surfaces (some sky), a sky texture.
fn textured_arena(
    textures: &[Tex],
    sides: &[(u16, u16, u16, i16, i16, u16)],
    surfaces: &[(u16, u16)],
    sky: Option<u16>,
) -> Vec<u8> {
    let mut m = Retex::from_bytes(&arena());
    let n = textures.len() as u16;
    for t in textures {
        let mut x = t.seed;
        let pixels: Vec<u8> = (0..t.width as usize * t.height as usize)
            .map(|_| {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (x >> 24) as u8
            })
            .collect();
        let id = m.texture_raw(t.width, t.height, &pixels);
        let r: &mut TextureRecord = &mut m.textures[id as usize];
        if t.masked {
            r.flags |= texture_flag::MASKED;
        }
        r.transparent = t.transparent;
        r.left = t.left;
        r.top = t.top;
    }
    // Walls may only name real textures or none.
    let wall_tex = |t: u16| if t == SKY || t >= n { NONE } else { t };
    for (w, &(upper, middle, lower, x_offset, y_offset, flags)) in
        (0..m.walls.len()).zip(sides.iter().cycle())
    {
        let side = SideRecord {
            x_offset,
            y_offset,
            upper: wall_tex(upper),
            middle: wall_tex(middle),
            lower: wall_tex(lower),
        };
        let id = m.side(side);
        m.walls[w].front_side = id;
        m.walls[w].back_side = if flags & 1 == 0 { id } else { NONE };
        m.walls[w].flags = flags;
    }
    for (s, &(floor, ceiling)) in (0..m.sectors.len()).zip(surfaces.iter().cycle()) {
        let surf = |t: u16| if t != SKY && t >= n { NONE } else { t };
        m.sectors[s].floor_texture = surf(floor);
        m.sectors[s].ceiling_texture = surf(ceiling);
    }
    m.sky = sky.map(|t| t % n);
    m.bytes()
}

fn sprite_at(cam: Vec2) -> impl Strategy<Value = Sprite> {
    (
        prop_oneof![
            (coord(), coord()).prop_map(|(x, y)| Vec2::new(x, y)),
            Just(cam),
            // Around the camera.
            (-512i32..512, -512i32..512).prop_map(move |(dx, dy)| Vec2::new(
                cam.x.saturating_add(Fx::from_num(dx)),
                cam.y.saturating_add(Fx::from_num(dy))
            )),
            // A hair off the camera, any way.
            (-8i32..8, -8i32..8).prop_map(move |(dx, dy)| Vec2::new(
                cam.x.saturating_add(Fx::from_bits(dx << 14)),
                cam.y.saturating_add(Fx::from_bits(dy << 14))
            )),
        ],
        prop_oneof![(-100i32..200).prop_map(Fx::from_num), height()],
        prop_oneof![4 => 0u16..8, 1 => Just(NONE), 1 => any::<u16>()],
    )
        .prop_map(|(pos, z, texture)| Sprite::new(pos, z, texture))
}

/// 300 cases by default; `PROPTEST_CASES=N` for a longer run.
fn textured_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(textured_cases()))]

    #[test]
    fn textured_maps_with_sprites_write_every_pixel(
        textures in prop::collection::vec(tex(), 1..6),
        sides in prop::collection::vec(
            (texref(8), texref(8), texref(8), any::<i16>(), any::<i16>(), any::<u16>()),
            1..8,
        ),
        surfaces in prop::collection::vec((texref(8), texref(8)), 1..6),
        sky in prop::option::of(0u16..8),
        (x, y) in (coord(), coord()),
        eye in height(),
        angle in any::<i32>(),
        sprite_seed in any::<u64>(),
        w in 1usize..48,
        h in 1usize..40,
        pad in 0usize..3,
    ) {
        let map = textured_arena(&textures, &sides, &surfaces, sky);
        let level = Level::load(&map).unwrap();
        let ink = Ink::new();
        let pos = Vec2::new(x, y);
        let cam = Camera {
            pos,
            eye_z: eye,
            angle: Angle::from_degrees(Fx::from_bits(angle)),
            sector: level.locate(pos).unwrap_or(SectorId(0)),
        };
        // Sprites from a seeded runner: anywhere, at the camera, a hair
        // off it, with real, missing and bogus textures.
        let mut runner = proptest::test_runner::TestRunner::new_with_rng(
            ProptestConfig::default(),
            proptest::test_runner::TestRng::from_seed(
                proptest::test_runner::RngAlgorithm::ChaCha,
                &[sprite_seed.to_le_bytes(), [7; 8], [1; 8], [2; 8]].concat(),
            ),
        );
        let sprites: Vec<Sprite> = prop::collection::vec(sprite_at(pos), 0..24)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let (a, sa) = check_scene(&level, &cam, &ink, Some(&sprites), w, h, pad);
        let (b, sb) = check_scene(&level, &cam, &ink, Some(&sprites), w, h, pad);
        prop_assert_eq!(a, b);
        prop_assert_eq!(sa, sb);
        prop_assert!(sa.sprites_drawn as usize <= sprites.len());

        check(&level, &cam, &ink, w, h, pad);
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

/// The same extremes in the textured scene, with sprites at the ends of
/// the coordinate range, at the camera and at every wall's ends.
#[test]
fn textured_extremes() {
    let map = render_support::bench::textured_scene(&arena());
    let level = Level::load(&map).unwrap();
    let ink = Ink::new();
    let ends = [Fx::MIN, Fx::from_bits(-1), Fx::ZERO, Fx::MAX];
    let mut sprites = Vec::new();
    for x in ends {
        for y in ends {
            for z in ends {
                for texture in [0, 4, NONE] {
                    sprites.push(Sprite::new(Vec2::new(x, y), z, texture));
                }
            }
        }
    }
    for i in 0..level.wall_count() {
        let wall = level.wall(WallId(i as u16));
        for pos in [wall.a, wall.b] {
            sprites.push(Sprite::new(pos, Fx::ZERO, 4));
        }
    }
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
                    check_scene(&level, &cam, &ink, Some(&sprites), 3, 2, 0);
                }
            }
        }
    }
    for (x, y, eye, deg) in [(100, 100, 41, 30), (1200, 256, 65, 0), (1800, 300, 41, 180)] {
        let cam = camera(&level, x, y, eye, deg);
        let mut here = sprites.clone();
        here.push(Sprite::new(cam.pos, Fx::ZERO, 4));
        check_scene(&level, &cam, &ink, Some(&here), 1, 1, 0);
        check_scene(
            &level,
            &cam,
            &ink,
            Some(&here),
            1,
            engine::config::MAX_SCREEN_HEIGHT,
            0,
        );
        let (_, stats) = check_scene(
            &level,
            &cam,
            &ink,
            Some(&here),
            engine::config::MAX_SCREEN_WIDTH,
            engine::config::MAX_SCREEN_HEIGHT,
            0,
        );
        assert!(stats.sprites_drawn > 0, "{stats:?}");
    }
}

/// Rough cost of a 320x200 frame in the arena, `u32` pixels. Run with
/// `cargo test --release -p engine --test render_props -- --ignored --nocapture`.
#[test]
#[ignore]
fn frame_time_320x200() {
    frame_time(&arena(), "flat colours");
    frame_time(
        &render_support::bench::textured_scene(&arena()),
        "textured, 12 sprites",
    );
}

fn frame_time(map: &[u8], what: &str) {
    // `BENCH=flat` or `BENCH=textured` runs one of the two.
    if std::env::var("BENCH").is_ok_and(|b| !what.starts_with(&b)) {
        return;
    }
    let level = Level::load(map).unwrap();
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
    // The best of five rounds: the least disturbed by other work.
    let mut best = std::time::Duration::MAX;
    let mut stats = RenderStats::default();
    for _ in 0..5 {
        stats = RenderStats::default();
        let start = std::time::Instant::now();
        for i in 0..frames {
            let (x, y, eye, deg) = views[i % views.len()];
            let cam = camera(&level, x, y, eye, deg + (i / views.len()) as i32);
            let mut frame = Frame::new(&mut pixels, 320, 200, 320).unwrap();
            let s = render(&Scene::new(level, cam), &shades, &mut frame);
            stats.walls_tested += s.walls_tested;
            stats.portals_crossed += s.portals_crossed;
        }
        best = best.min(start.elapsed() / frames as u32);
    }
    println!(
        "320x200, {what}: {best:?} per frame; per frame {} walls tested, {} portals crossed",
        stats.walls_tested / frames as u32,
        stats.portals_crossed / frames as u32
    );
}
