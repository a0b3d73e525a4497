//! Texture extraction on the Freedoom IWADs: every texture, flat and
//! sprite decodes, and packed textures pass the engine's loader.
//!
//! The WADs come from Debian's `freedoom` package (scripts/setup).

use engine::format::{
    texture_flag, BlockmapRepr, MapRepr, MapView, SectorRecord, SideRecord, ThingRecord,
    VertexRecord, WallRecord, NONE, SKY,
};
use engine::math::{Fx, Vec2};
use tools::texture::{PackedTextures, Packer, TextureLibrary};
use tools::wad::Wad;

const WAD_DIR: &str = "/usr/share/games/doom";

fn read_wad(name: &str) -> Vec<u8> {
    let path = format!("{WAD_DIR}/{name}");
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {path} ({e}): the texture tests need the Freedoom WADs; \
             run scripts/setup (Debian package `freedoom`)"
        )
    })
}

/// A one-triangle map carrying `packed`, emitted and checked by the
/// engine's loader: the side, the sector and the thing use `wall`, `flat`
/// and `sprite`.
fn load_in_engine(packed: &PackedTextures, wall: u16, flat: u16, sprite: u16) {
    let v = |x: i32, y: i32| VertexRecord {
        x: Fx::from_num(x),
        y: Fx::from_num(y),
    };
    let vertices = [v(0, 0), v(0, 64), v(64, 0)];
    let wall_rec = |v1: u16, v2: u16| WallRecord {
        v1,
        v2,
        front: 0,
        front_side: 0,
        length: Fx::from_num(64),
        ..Default::default()
    };
    let walls = [wall_rec(0, 1), wall_rec(1, 2), wall_rec(2, 0)];
    let sides = [SideRecord {
        middle: wall,
        ..Default::default()
    }];
    let sectors = [SectorRecord {
        ceiling: Fx::from_num(128),
        light: 160,
        wall_count: 3,
        floor_texture: flat,
        ceiling_texture: SKY,
        ..Default::default()
    }];
    let things = [ThingRecord {
        x: Fx::from_num(10),
        y: Fx::from_num(10),
        radius: Fx::from_num(16),
        kind: engine::format::kind::PLAYER_START,
        sprite,
        ..Default::default()
    }];
    let points: Vec<_> = vertices.iter().map(|v| Vec2::new(v.x, v.y)).collect();
    let bsp = tools::nodes::build(&points, &walls).unwrap();
    let repr = MapRepr {
        title: "textures",
        vertices: &vertices,
        walls: &walls,
        sides: &sides,
        sectors: &sectors,
        sector_walls: &[0, 1, 2],
        things: &things,
        rotations: &[],
        wall_specials: &[],
        switches: &[],
        blockmap: BlockmapRepr {
            origin_x: 0,
            origin_y: 0,
            block_size: 128,
            cols: 1,
            rows: 1,
            offsets: &[0, 3],
            entries: &[0, 1, 2],
        },
        textures: &packed.records,
        texture_pixels: &packed.pixels,
        texture_names: &packed.names,
        palette: packed.palette.as_ref(),
        colormap: packed.colormap.as_deref(),
        sky: packed.sky,
        bsp: engine::format::BspRepr {
            nodes: &bsp.nodes,
            segs: &bsp.segs,
            subsectors: &bsp.subsectors,
        },
    };
    let needed = repr.emit(&mut []).unwrap_err().needed;
    let mut bytes = vec![0u8; needed];
    repr.emit(&mut bytes).unwrap();
    let view = MapView::new_checked(&bytes).unwrap_or_else(|e| panic!("loader refused: {e:?}"));
    assert_eq!(view.texture_count(), packed.records.len());
    for (i, n) in packed.names.iter().enumerate() {
        let name = view.texture_name(i);
        assert_eq!(name.as_bytes(), &n[..name.len()]);
        assert!(view.texture(i as u16).is_some());
    }
}

/// Decodes everything in one WAD; returns (textures, flats, sprites,
/// decoded bytes).
fn check_wad(file: &str) -> (usize, usize, usize, usize) {
    let bytes = read_wad(file);
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, warnings) = TextureLibrary::from_wad(&wad);
    assert!(warnings.is_empty(), "{file}: {warnings:#?}");
    assert!(lib.palette().is_some() && lib.colormap().is_some());
    let mut total = 0usize;
    let mut problems = Vec::new();
    for name in lib.wall_names() {
        match lib.wall_image(name, &mut problems) {
            Some(img) => total += img.width() as usize * img.height() as usize,
            None => problems.push(format!("wall texture {name} did not compose")),
        }
    }
    for name in lib.flat_names() {
        match lib.flat_image(name, &mut problems) {
            Some(img) => total += img.width() as usize * img.height() as usize,
            None => problems.push(format!("flat {name} did not decode")),
        }
    }
    for name in lib.sprite_names() {
        match lib.sprite_image(name, &mut problems) {
            Some(img) => total += img.width() as usize * img.height() as usize,
            None => problems.push(format!("sprite {name} did not decode")),
        }
    }
    assert!(problems.is_empty(), "{file}: {problems:#?}");
    let counts = (
        lib.texture_count(),
        lib.flat_count(),
        lib.sprite_count(),
        total,
    );
    println!(
        "{file}: {} wall textures, {} flats, {} sprite lumps; {} bytes decoded",
        counts.0, counts.1, counts.2, counts.3
    );
    assert!(counts.0 > 100 && counts.1 > 100 && counts.2 > 500);
    counts
}

#[test]
fn freedoom1_decodes() {
    check_wad("freedoom1.wad");
}

#[test]
fn freedoom2_decodes() {
    check_wad("freedoom2.wad");
}

#[test]
fn packed_freedoom_textures_load_in_the_engine() {
    let bytes = read_wad("freedoom2.wad");
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    let mut p = Packer::new(&lib);
    let walls = ["STARTAN3", "BIGDOOR2", "MIDGRATE", "SW1BRCOM", "startan3"];
    let walls = walls.map(|n| p.wall(n));
    assert_eq!(walls[0], walls[4]);
    let flat = p.flat("FLOOR0_1");
    assert_eq!(p.flat("F_SKY1"), SKY);
    let _ = p.flat("NUKAGE1");
    let sprite = p.sprite("BAR1A0");
    let troop = p.sprite("TROOA1");
    let possessed = p.sprite("POSSA0");
    assert!([flat, sprite, troop, possessed].iter().all(|&i| i != NONE));
    let packed = p.finish();
    assert!(packed.warnings.is_empty(), "{:#?}", packed.warnings);
    let r = |i: u16| packed.records[i as usize];
    assert_eq!(
        r(walls[2]).flags & texture_flag::MASKED,
        texture_flag::MASKED
    );
    assert_eq!(r(walls[0]).flags, 0);
    assert_eq!(
        (r(flat).width, r(flat).height, r(flat).flags),
        (64, 64, texture_flag::FLAT)
    );
    assert!(r(sprite).top > 0 && r(sprite).left > 0);
    let sky = packed.sky.expect("F_SKY1 packs SKY1");
    assert_eq!(&packed.names[sky as usize][..4], b"SKY1");
    println!(
        "packed {} textures, {} pixel bytes",
        packed.records.len(),
        packed.pixels.len()
    );
    load_in_engine(&packed, walls[2], flat, sprite);
}
