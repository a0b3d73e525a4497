//! Every level in `maps/` compiles cleanly, and the features the comments
//! at the top of each map promise are where they say.

use std::path::{Path, PathBuf};

use engine::config::player;
use engine::format::kind;
use engine::math::{Fx, Vec2};
use engine::world::{Level, Sector, SectorId};

fn maps_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps")
}

fn compile(name: &str) -> Vec<u8> {
    let path = maps_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let out =
        tools::compile_source(&text, &path.display().to_string()).unwrap_or_else(|d| panic!("{d}"));
    assert!(out.warnings.is_empty(), "{}", out.warnings.join("\n"));
    out.bytes
}

/// The sector at `(x, y)`, which must exist.
fn at(level: &Level<'_>, x: f64, y: f64) -> Sector {
    let id = level
        .locate(Vec2::new(Fx::from_num(x), Fx::from_num(y)))
        .unwrap_or_else(|| panic!("({x}, {y}) is outside every sector"));
    level.sector(id)
}

fn id_at(level: &Level<'_>, x: f64, y: f64) -> Option<SectorId> {
    level.locate(Vec2::new(Fx::from_num(x), Fx::from_num(y)))
}

fn fx(v: i32) -> Fx {
    Fx::from_num(v)
}

#[test]
fn every_map_compiles_without_errors_or_warnings() {
    let mut names: Vec<String> = std::fs::read_dir(maps_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".map"))
        .collect();
    names.sort();
    assert!(names.len() >= 3, "{names:?}");
    for name in &names {
        let bytes = compile(name);
        Level::load(&bytes).unwrap();
        // And through the path the desktop uses.
        assert_eq!(tools::load_map_file(&maps_dir().join(name)).unwrap(), bytes);
    }
}

/// Every level's BSP, from the node builder: each subsector convex (every
/// seg on or in front of every other seg's line, within the rounding of
/// split points) and in one sector, and each side of each wall covered by
/// its segs exactly once.
#[test]
fn every_map_has_a_convex_bsp_covering_its_walls() {
    let f = |v: Fx| v.to_num::<f64>();
    for name in [
        "corners.map",
        "e1_hangar.map",
        "stairs.map",
        "textured.map",
        "wad_textures.map",
    ] {
        let bytes = compile(name);
        let view = engine::format::MapView::new_checked(&bytes).unwrap();
        let bsp = view.bsp();
        let mut covered = vec![[0.0f64; 2]; view.wall_count()];
        for i in 0..bsp.subsector_count() {
            let sub = bsp.subsector(i);
            let segs: Vec<_> = (0..sub.seg_count as usize)
                .map(|k| bsp.seg(sub.first_seg as usize + k))
                .collect();
            for p in &segs {
                let (ax, ay) = (f(p.from.x), f(p.from.y));
                let (dx, dy) = (f(p.to.x) - ax, f(p.to.y) - ay);
                let len = dx.hypot(dy);
                covered[p.wall as usize][p.back as usize] += len;
                let wall = view.wall(p.wall as usize);
                let sector = if p.back { wall.back } else { wall.front };
                assert_eq!(sector, sub.sector, "{name}: subsector {i}");
                for q in &segs {
                    for e in [q.from, q.to] {
                        // Distance to the left of p's line: at most rounding.
                        let left = (dx * (f(e.y) - ay) - dy * (f(e.x) - ax)) / len;
                        assert!(left < 0.01, "{name}: subsector {i} is not convex ({left})");
                    }
                }
            }
        }
        for (i, [front, back]) in covered.iter().enumerate() {
            let w = view.wall(i);
            let (a, b) = (view.vertex(w.v1 as usize), view.vertex(w.v2 as usize));
            let len = (f(b.x) - f(a.x)).hypot(f(b.y) - f(a.y));
            assert!(
                (front - len).abs() < 0.01,
                "{name}: wall {i} front {front} of {len}"
            );
            let want = if w.back == engine::format::NO_SECTOR {
                0.0
            } else {
                len
            };
            assert!(
                (back - want).abs() < 0.01,
                "{name}: wall {i} back {back} of {want}"
            );
        }
        println!(
            "{name}: {} walls, BSP {} nodes, {} segs, {} subsectors",
            view.wall_count(),
            bsp.node_count(),
            bsp.seg_count(),
            bsp.subsector_count()
        );
    }
}

#[test]
fn stairs_features() {
    let bytes = compile("stairs.map");
    let l = Level::load(&bytes).unwrap();
    let start = l.map().player_start();
    assert_eq!((start.x, start.y, start.angle), (fx(128), fx(128), fx(90)));
    let hub = at(&l, 640.0, 128.0);
    assert_eq!((hub.floor, hub.ceiling), (fx(0), fx(192)));
    // A: four steps of exactly 24, each changing the ceiling too.
    let mut prev = hub;
    for (k, y) in [288.0, 352.0, 416.0, 480.0, 600.0].into_iter().enumerate() {
        let s = at(&l, 128.0, y);
        let want = 24 * (k as i32 + 1).min(4);
        assert_eq!(s.floor, fx(want), "step at y {y}");
        if k < 4 {
            assert_eq!(s.floor - prev.floor, player::KNEE_HEIGHT);
            assert_ne!(s.ceiling, prev.ceiling);
        }
        prev = s;
    }
    // Step edges where the comment says.
    assert_eq!(at(&l, 128.0, 255.5).floor, fx(0));
    assert_eq!(at(&l, 128.0, 256.5).floor, fx(24));
    // B: 25 (one over the knee); E: exactly 24.
    assert_eq!(at(&l, 384.0, 320.0).floor, player::KNEE_HEIGHT + fx(1));
    assert_eq!(at(&l, 1152.0, 320.0).floor, player::KNEE_HEIGHT);
    assert_eq!(id_at(&l, 384.0, 400.0), None);
    // C: exactly the player's height; D: one less. Rooms behind both.
    let c = at(&l, 640.0, 352.0);
    assert_eq!(c.ceiling - c.floor, player::HEIGHT);
    let d = at(&l, 896.0, 352.0);
    assert_eq!(d.ceiling - d.floor, player::HEIGHT - fx(1));
    assert_eq!(at(&l, 640.0, 544.0).ceiling, fx(128));
    assert_eq!(at(&l, 896.0, 544.0).ceiling, fx(128));
    // The passages are 128 wide: x 576..704 and 832..960.
    assert_eq!(id_at(&l, 575.0, 352.0), None);
    assert_eq!(id_at(&l, 705.0, 352.0), None);
}

#[test]
fn corners_features() {
    let bytes = compile("corners.map");
    let l = Level::load(&bytes).unwrap();
    let start = l.map().player_start();
    assert_eq!((start.x, start.y, start.angle), (fx(256), fx(256), fx(0)));
    // The corridor: exactly 2 radii wide, y 240..272, x 512..1024.
    let corr = id_at(&l, 768.0, 256.0).unwrap();
    assert_eq!(id_at(&l, 768.0, 240.5), Some(corr));
    assert_eq!(id_at(&l, 768.0, 271.5), Some(corr));
    assert_eq!(id_at(&l, 768.0, 239.5), None);
    assert_eq!(id_at(&l, 768.0, 272.5), None);
    assert_eq!(fx(272 - 240), player::RADIUS * 2);
    assert_ne!(id_at(&l, 511.5, 256.0), Some(corr));
    assert_ne!(id_at(&l, 1024.5, 256.0), Some(corr));
    // The wedge: a 30-degree apex at (256, 989.7025).
    let (a, b) = (Vec2::new(fx(128), fx(512)), Vec2::new(fx(384), fx(512)));
    let apex = Vec2::new(fx(256), Fx::from_num(989.7025));
    let dir = |p: Vec2| {
        (
            (p.x - apex.x).to_num::<f64>(),
            (p.y - apex.y).to_num::<f64>(),
        )
    };
    let ((ax, ay), (bx, by)) = (dir(a), dir(b));
    let cos = (ax * bx + ay * by) / (ax.hypot(ay) * bx.hypot(by));
    let degrees = cos.acos().to_degrees();
    assert!((degrees - 30.0).abs() < 0.001, "{degrees}");
    assert!(id_at(&l, 256.0, 980.0).is_some());
    assert_eq!(id_at(&l, 256.0, 990.0), None);
    // Pillar and spike are holes in `start`.
    assert_eq!(id_at(&l, 128.0, 384.0), None);
    assert_eq!(id_at(&l, 200.0, 96.0), None);
    assert_eq!(id_at(&l, 216.0, 96.0), id_at(&l, 256.0, 256.0));
    // The thin wall: 1 unit thick at y -225..-224, x 256..1344.
    let hall = id_at(&l, 800.0, -300.0).unwrap();
    assert_eq!(id_at(&l, 800.0, -224.5), None);
    assert_eq!(id_at(&l, 300.0, -224.5), None);
    assert_eq!(id_at(&l, 1340.0, -224.5), None);
    assert_eq!(id_at(&l, 800.0, -223.5), Some(hall));
    assert_eq!(id_at(&l, 800.0, -225.5), Some(hall));
    assert_eq!(id_at(&l, 255.5, -224.5), Some(hall));
    assert_eq!(id_at(&l, 1344.5, -224.5), Some(hall));
    // Pushables, radius 16 to 24, all in the push room.
    let room = id_at(&l, 1280.0, 256.0).unwrap();
    let bodies: Vec<_> = l
        .map()
        .things()
        .filter(|t| t.kind == kind::PUSHABLE)
        .collect();
    assert_eq!(bodies.len(), 6);
    for t in bodies {
        assert!(t.radius >= fx(16) && t.radius <= fx(24));
        assert_eq!(l.locate(Vec2::new(t.x, t.y)), Some(room));
    }
}

#[test]
fn hangar_features() {
    let bytes = compile("e1_hangar.map");
    let l = Level::load(&bytes).unwrap();
    assert!(
        (15..=40).contains(&l.sector_count()),
        "{}",
        l.sector_count()
    );
    let start = l.map().player_start();
    let lobby = at(&l, 192.0, 256.0);
    assert_eq!((start.x, start.y), (fx(192), fx(256)));
    assert_eq!((lobby.floor, lobby.ceiling), (fx(0), fx(128)));
    // The tall hangar, its pillars and dock.
    let hangar = at(&l, 700.0, 300.0);
    assert_eq!((hangar.floor, hangar.ceiling), (fx(0), fx(320)));
    for (x, y) in [(608.0, 416.0), (1120.0, 768.0), (608.0, 1120.0)] {
        assert_eq!(id_at(&l, x, y), None, "pillar at ({x}, {y})");
    }
    assert_eq!(at(&l, 864.0, 768.0).floor, fx(16));
    // The window: a raised sill and a lowered lintel on both sides.
    let control = at(&l, 224.0, 1152.0);
    let window = at(&l, 400.0, 1152.0);
    let inside = at(&l, 480.0, 1152.0);
    assert_eq!((control.floor, control.ceiling), (fx(64), fx(192)));
    assert_eq!((window.floor, window.ceiling), (fx(112), fx(160)));
    assert_eq!(inside, hangar);
    assert!(window.floor - control.floor > player::KNEE_HEIGHT);
    assert!(window.floor > inside.floor && window.ceiling < inside.ceiling);
    assert!(window.ceiling < control.ceiling);
    // Stairs of 16 from the lobby to the control room.
    let floors: Vec<Fx> = [576.0, 800.0, 864.0, 928.0, 992.0]
        .iter()
        .map(|&y| at(&l, 192.0, y).floor)
        .collect();
    assert_eq!(floors, [fx(0), fx(16), fx(32), fx(48), fx(64)]);
    // The yard is taller still; the planters are a walkable 24 up.
    let yard = at(&l, 864.0, 1600.0);
    assert!(yard.ceiling - yard.floor > hangar.ceiling - hangar.floor);
    assert_eq!(
        at(&l, 600.0, 1700.0).floor - yard.floor,
        player::KNEE_HEIGHT
    );
    assert_eq!(id_at(&l, 640.0, 1728.0), None);
    // Lights differ from room to room.
    let mut lights: Vec<u8> = (0..l.sector_count())
        .map(|i| l.sector(SectorId(i as u16)).light)
        .collect();
    lights.sort();
    lights.dedup();
    assert!(lights.len() >= 8, "{lights:?}");
    // Crates in the storage room.
    let storage = id_at(&l, 1536.0, 448.0).unwrap();
    let crates = l
        .map()
        .things()
        .filter(|t| t.kind == kind::PUSHABLE)
        .inspect(|t| assert_eq!(l.locate(Vec2::new(t.x, t.y)), Some(storage)))
        .count();
    assert!(crates >= 3);
    // The tunnel loops back round to the lobby.
    assert_eq!(at(&l, 700.0, -128.0).floor, fx(-48));
    assert_eq!(at(&l, 192.0, -16.0).floor, fx(-16));
}

#[test]
fn the_hangars_teleporter_sends_the_player_from_the_lookout_to_the_lobby() {
    use engine::game::{Game, Input};
    use engine::math::Angle;
    let bytes = compile("e1_hangar.map");
    let l = Level::load(&bytes).unwrap();
    let lobby = id_at(&l, 192.0, 256.0).unwrap();
    // In the lookout, west of the pad, facing it (east).
    let start = Vec2::new(fx(880), fx(2368));
    let mut game = Game::starting_at(l, start, Angle::ZERO).unwrap();
    let mut went = None;
    for t in 0..70 {
        game.tick(Input::new(50, 0, 0));
        if game.player().sector == lobby {
            went = Some(t);
            break;
        }
    }
    assert!(went.is_some(), "never teleported: {:?}", game.player());
    let p = game.player();
    assert_eq!((p.pos.x, p.pos.y), (fx(96), fx(96)), "{p:?}");
    assert_eq!(p.angle, Angle::ZERO);
}

#[test]
fn the_hangars_exit_switch_flips_as_the_level_ends() {
    use engine::game::{Game, Input};
    use engine::math::Angle;
    use engine::render::{render, Frame, Scene, Shades};
    use engine::world::WallId;
    let bytes = compile("e1_hangar.map");
    let l = Level::load(&bytes).unwrap();
    let view = l.map();
    let sw2 = (0..view.texture_count())
        .find(|&i| view.texture_name(i) == "SW2EXIT")
        .expect("SW2EXIT is packed") as u16;
    let switch = (0..view.switch_count())
        .map(|i| view.switch_at(i))
        .find(|s| s.middle == sw2)
        .expect("a wall flips to SW2EXIT");
    // In the control room, facing the switch (west).
    let start = Vec2::new(fx(100), fx(1152));
    let mut game = Game::starting_at(l, start, Angle::from_degrees(fx(180))).unwrap();
    let picture = |level: &Level<'_>, game: &Game<'_>| {
        let shades: Shades<u32> = Shades::for_map(level.map());
        let mut pixels = vec![0u32; 160 * 100];
        let mut frame = Frame::new(&mut pixels, 160, 100, 160).unwrap();
        render(&Scene::new(level, game.camera()), &shades, &mut frame);
        pixels
    };
    let before = picture(&game.level(), &game);
    game.tick(Input::IDLE.with_use(true));
    assert!(game.exit().is_some(), "the exit switch ends the level");
    assert!(game.level().switched(WallId(switch.wall)).is_some());
    assert_ne!(
        picture(&game.level(), &game),
        before,
        "the switch shows SW2EXIT"
    );
}
