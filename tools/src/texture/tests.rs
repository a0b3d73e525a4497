//! Unit tests on tiny hand-made WADs.

use super::*;
use crate::wad::tests::make_wad;
use engine::format::texture_flag::{FLAT, MASKED};

/// A grey ramp: index i is (i, i, i), so every colour is distinct.
fn playpal() -> Vec<u8> {
    (0..=255u8).flat_map(|i| [i, i, i]).collect()
}

fn pnames(names: &[&str]) -> Vec<u8> {
    let mut b = (names.len() as i32).to_le_bytes().to_vec();
    for n in names {
        let mut raw = [0u8; 8];
        raw[..n.len()].copy_from_slice(n.as_bytes());
        b.extend_from_slice(&raw);
    }
    b
}

/// A TEXTURE1 lump: (name, width, height, [(x, y, patch index)]).
type Def<'a> = (&'a str, i16, i16, &'a [(i16, i16, i16)]);

fn texture_lump(defs: &[Def]) -> Vec<u8> {
    let mut head = (defs.len() as i32).to_le_bytes().to_vec();
    let mut body = Vec::new();
    let base = 4 + 4 * defs.len();
    for (name, w, h, patches) in defs {
        head.extend_from_slice(&((base + body.len()) as i32).to_le_bytes());
        let mut raw = [0u8; 8];
        raw[..name.len()].copy_from_slice(name.as_bytes());
        body.extend_from_slice(&raw);
        body.extend_from_slice(&0i32.to_le_bytes());
        body.extend_from_slice(&w.to_le_bytes());
        body.extend_from_slice(&h.to_le_bytes());
        body.extend_from_slice(&0i32.to_le_bytes());
        body.extend_from_slice(&(patches.len() as i16).to_le_bytes());
        for (x, y, p) in patches.iter() {
            for v in [*x, *y, *p, 1, 0] {
                body.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    head.extend_from_slice(&body);
    head
}

/// A solid picture of one colour.
fn solid(w: u16, h: u16, color: u8) -> Image {
    let mut img = Image::new(w, h);
    for x in 0..w as usize {
        for y in 0..h as usize {
            img.set(x, y, color);
        }
    }
    img
}

fn pic(img: &Image) -> Vec<u8> {
    picture::encode(img)
}

/// Pixel (x, y) of packed texture `i`.
fn px(p: &PackedTextures, i: u16, x: usize, y: usize) -> u8 {
    let r = p.records[i as usize];
    p.pixels[r.offset as usize + x * r.height as usize + y]
}

/// The engine's loader rules for every record.
fn assert_loadable(p: &PackedTextures) {
    assert_eq!(p.records.len(), p.names.len());
    for (i, r) in p.records.iter().enumerate() {
        assert!(
            r.width >= 1 && r.width <= size::MAX_TEXTURE_WIDTH,
            "{i}: {r:?}"
        );
        assert!(
            r.height >= 1 && r.height <= size::MAX_TEXTURE_HEIGHT,
            "{i}: {r:?}"
        );
        let end = r.offset as usize + r.width as usize * r.height as usize;
        assert!(end <= p.pixels.len(), "{i}: {r:?}");
    }
    if let Some(s) = p.sky {
        assert!((s as usize) < p.records.len());
    }
}

#[test]
fn decodes_posts() {
    // 2x4: column 0 has rows 1-2; column 1 rows 0 and 3.
    let mut b = Vec::new();
    for v in [2i16, 4, 1, 3] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&23u32.to_le_bytes());
    b.extend_from_slice(&[1, 2, 0, 5, 6, 0, 0xFF]);
    b.extend_from_slice(&[0, 1, 0, 7, 0, 3, 1, 0, 8, 0, 0xFF]);
    let mut w = Vec::new();
    let img = picture::decode("test", &b, &mut w).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!((img.width(), img.height(), img.left, img.top), (2, 4, 1, 3));
    let col = |x| (0..4).map(|y| img.get(x, y)).collect::<Vec<_>>();
    assert_eq!(col(0), [None, Some(5), Some(6), None]);
    assert_eq!(col(1), [Some(7), None, None, Some(8)]);
    assert!(!img.is_opaque());
}

#[test]
fn decodes_tall_patches() {
    // One column, 400 rows: posts at 0 (absolute), 250 (absolute, above
    // the previous top), then delta 100 <= 250: relative, row 350.
    let mut b = Vec::new();
    for v in [1i16, 400, 0, 0] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&12u32.to_le_bytes());
    b.extend_from_slice(&[0, 2, 0, 1, 2, 0]);
    b.extend_from_slice(&[250, 2, 0, 3, 4, 0]);
    b.extend_from_slice(&[100, 2, 0, 5, 6, 0]);
    b.push(0xFF);
    let mut w = Vec::new();
    let img = picture::decode("tall", &b, &mut w).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(img.get(0, 0), Some(1));
    assert_eq!(img.get(0, 251), Some(4));
    assert_eq!(img.get(0, 350), Some(5));
    assert_eq!(img.get(0, 351), Some(6));
    assert_eq!(img.get(0, 100), None);
    // A fully opaque 3x700 picture round-trips through the encoder, which
    // needs relative deltas past row 254.
    let mut tall = Image::new(3, 700);
    for x in 0..3 {
        for y in 0..700 {
            tall.set(x, y, (x * 7 + y) as u8);
        }
    }
    let back = picture::decode("tall", &pic(&tall), &mut w).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(back, tall);
}

#[test]
fn damaged_pictures_warn_not_panic() {
    let good = pic(&solid(4, 4, 9));
    // A column offset far past the end.
    let mut bad = good.clone();
    bad[8..12].copy_from_slice(&99999u32.to_le_bytes());
    let mut w = Vec::new();
    let img = picture::decode("patch `X`", &bad, &mut w).unwrap();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("column 0 starts at byte 99999"), "{}", w[0]);
    assert_eq!(img.get(0, 0), None);
    assert_eq!(img.get(1, 0), Some(9));
    // Headers that are not pictures.
    for bytes in [&b"\x89PNG\r\n\x1a\n"[..], b"abc", &[0, 0, 4, 0, 0, 0, 0, 0]] {
        let mut w = Vec::new();
        assert!(picture::decode("p", bytes, &mut w).is_none());
        assert_eq!(w.len(), 1);
    }
    // Every truncation and many corruptions decode or refuse cleanly.
    for n in 0..good.len() {
        let _ = picture::decode("p", &good[..n], &mut Vec::new());
    }
    let mut seed = 12345u32;
    for _ in 0..2000 {
        let mut b = good.clone();
        for _ in 0..3 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let at = (seed >> 8) as usize % b.len();
            b[at] = (seed >> 20) as u8;
        }
        let _ = picture::decode("p", &b, &mut Vec::new());
    }
}

/// A WAD with two patches, textures over them, a flat and sprites.
fn test_wad() -> Vec<u8> {
    let pa = pic(&solid(3, 3, 1));
    let pb = pic(&solid(3, 3, 2));
    let mut grate = Image::new(4, 4);
    for x in [0, 2] {
        for y in 0..4 {
            grate.set(x, y, 3);
        }
    }
    let pgrate = pic(&grate);
    let textures = texture_lump(&[
        // Two overlapping patches, the first at a negative origin.
        ("TWO", 4, 4, &[(-1, -1, 0), (1, 1, 1)]),
        ("FULL", 4, 4, &[(0, 0, 0), (2, 0, 1), (0, 2, 1), (2, 2, 0)]),
        ("GRATE", 4, 4, &[(0, 0, 2)]),
        ("MISSING", 4, 4, &[(0, 0, 3), (0, 0, 0)]),
        ("BADINDEX", 4, 4, &[(0, 0, 9), (0, 0, 1)]),
        ("NOTHING", 4, 4, &[(0, 0, 3)]),
        (
            "SKY1",
            8,
            4,
            &[
                (0, 0, 0),
                (3, 0, 0),
                (6, 0, 0),
                (0, 3, 0),
                (3, 3, 0),
                (6, 3, 0),
            ],
        ),
        ("SKY3", 4, 4, &[(0, 0, 1), (2, 2, 1), (0, 2, 1), (2, 0, 1)]),
    ]);
    let flat: Vec<u8> = (0..4096).map(|i| (i % 64 + 3 * (i / 64)) as u8).collect();
    let mut sprite = solid(5, 7, 4);
    sprite.left = 2;
    sprite.top = 6;
    let mut side = Image::new(5, 7);
    side.set(0, 0, 5);
    side.left = 1;
    side.top = 7;
    let pal = playpal();
    let cmap = vec![7u8; 34 * 256];
    let pn = pnames(&["PA", "PB", "PGRATE", "PGONE"]);
    let (s1, s2, s3) = (pic(&sprite), pic(&side), pic(&sprite));
    make_wad(
        b"IWAD",
        &[
            ("PLAYPAL", &pal),
            ("COLORMAP", &cmap),
            ("PNAMES", &pn),
            ("TEXTURE1", &textures),
            ("S_START", b""),
            ("BAR1A0", &s1),
            ("TROOA2A8", &s2),
            ("POSSA1", &s3),
            ("S_END", b""),
            ("P_START", b""),
            ("PA", &pa),
            ("PB", &pb),
            ("PGRATE", &pgrate),
            ("P_END", b""),
            ("F_START", b""),
            ("FLOOR0", &flat),
            ("F_END", b""),
        ],
    )
}

#[test]
fn reads_the_lumps() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, w) = TextureLibrary::from_wad(&wad);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(lib.palette().unwrap()[..6], [0, 0, 0, 1, 1, 1]);
    assert_eq!(lib.colormap().unwrap().len(), 8192);
    assert_eq!(lib.texture_count(), 8);
    assert_eq!(lib.flat_count(), 1);
    assert_eq!(lib.sprite_count(), 3);
    assert!(lib.has_wall("two") && lib.has_wall("FLOOR0") && !lib.has_wall("nope"));
}

#[test]
fn composes_overlapping_patches_with_negative_origins() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    let mut p = Packer::new(&lib);
    let two = p.wall("two");
    let full = p.wall("FULL");
    assert_eq!(
        p.wall("Two"),
        two,
        "names are case-insensitive, packed once"
    );
    let out = p.finish();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(out.records.len(), 2);
    assert_loadable(&out);
    let r = out.records[two as usize];
    assert_eq!((r.width, r.height), (4, 4));
    // PA (colour 1) covers x, y in 0..2; PB (2) covers 1..4 on top.
    assert_eq!(px(&out, two, 0, 0), 1);
    assert_eq!(px(&out, two, 1, 0), 1);
    assert_eq!(px(&out, two, 1, 1), 2);
    assert_eq!(px(&out, two, 3, 3), 2);
    // (0, 3) and (3, 0) are uncovered: masked, with an unused index.
    assert_eq!(r.flags, MASKED);
    assert!(r.transparent != 1 && r.transparent != 2);
    assert_eq!(px(&out, two, 0, 3), r.transparent);
    assert_eq!(px(&out, two, 3, 0), r.transparent);
    // Column-major layout: pixel (x, y) at offset + x * height + y.
    assert_eq!(out.pixels[r.offset as usize + 4 + 1], 2); // (1, 1)
    assert_eq!(out.pixels[r.offset as usize + 4], 1); // (1, 0)
                                                      // Fully covered: not masked.
    assert_eq!(out.records[full as usize].flags, 0);
    assert_eq!(&out.names[two as usize], b"TWO\0\0\0\0\0");
    assert_eq!(out.palette.map(|p| p[3]), Some(1));
    assert!(out.colormap.is_some());
}

#[test]
fn grates_are_masked() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    let mut p = Packer::new(&lib);
    let g = p.wall("GRATE");
    let out = p.finish();
    let r = out.records[g as usize];
    assert_eq!(r.flags, MASKED);
    assert_eq!(r.transparent, 255, "the highest unused index");
    assert_eq!(px(&out, g, 0, 2), 3);
    assert_eq!(px(&out, g, 1, 2), 255);
}

#[test]
fn transparent_index_when_all_256_are_used() {
    let mut img = Image::new(17, 16);
    for i in 0..256 {
        img.set(i / 16, i % 16, i as u8);
    }
    img.set(16, 0, 200); // 200 used twice; (16, 1..) transparent
    let pal = Palette::from_rgb_bytes(&playpal()).unwrap();
    let (t, remap) = choose_transparent(&img, &pal);
    assert_eq!(t, 255, "least used, highest index");
    assert_eq!(remap, Some((255, 254)), "nearest other grey");
    let mut lib = TextureLibrary::empty();
    lib.palette = Some(playpal().try_into().unwrap());
    lib.add_image("all", img);
    let mut p = Packer::new(&lib);
    let i = p.wall("ALL");
    let out = p.finish();
    let r = out.records[i as usize];
    assert_eq!((r.flags, r.transparent), (MASKED, 255));
    assert_eq!(px(&out, i, 15, 15), 254, "255 redrawn as 254");
    assert_eq!(px(&out, i, 16, 5), 255);
}

#[test]
fn flats_become_column_major() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    let mut p = Packer::new(&lib);
    let f = p.flat("floor0");
    let out = p.finish();
    let r = out.records[f as usize];
    assert_eq!((r.width, r.height, r.flags), (64, 64, FLAT));
    let flat = wad.lump("FLOOR0").unwrap();
    for (x, y) in [(0, 0), (1, 0), (0, 1), (63, 2), (5, 63)] {
        assert_eq!(out.pixels[r.offset as usize + x * 64 + y], flat[y * 64 + x]);
    }
    // Odd flat sizes.
    let mut w = Vec::new();
    assert!(doom::decode_flat("F", &[0; 100], &mut w).is_none());
    assert_eq!(w.len(), 1);
    let big: Vec<u8> = (0..16384).map(|i| (i % 128) as u8).collect();
    let img = doom::decode_flat("F", &big, &mut w).unwrap();
    assert_eq!((img.width(), img.get(3, 0)), (64, Some(6)));
    assert!(doom::decode_flat("F", &[1; 4160], &mut Vec::new()).is_some());
}

#[test]
fn missing_patches_and_pnames_entries_warn() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    let mut p = Packer::new(&lib);
    let m = p.wall("MISSING");
    let b = p.wall("BADINDEX");
    let n = p.wall("NOTHING");
    let out = p.finish();
    let w = &out.warnings;
    assert_eq!(w.len(), 4, "{w:?}");
    assert!(w[0].contains("patch `PGONE` is not in the WAD"), "{}", w[0]);
    assert!(
        w[1].contains("patch index 9 is not in PNAMES (4 names)"),
        "{}",
        w[1]
    );
    assert!(w[2].contains("patch `PGONE` is not in the WAD"), "{}", w[2]);
    assert!(
        w[3].ends_with(
            "`NOTHING` (TEXTURE1) has no patch that could be drawn; drawn as a checkerboard"
        ),
        "{}",
        w[3]
    );
    // The textures keep the patches that exist.
    assert_eq!(px(&out, m, 0, 0), 1);
    assert_eq!(px(&out, b, 0, 0), 2);
    assert_eq!(
        (out.records[n as usize].width, out.records[n as usize].flags),
        (64, 0)
    );
    assert_loadable(&out);
}

#[test]
fn placeholders_and_one_warning_per_name() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    let mut p = Packer::new(&lib);
    assert_eq!(p.wall("-"), NONE);
    assert_eq!(p.wall(""), NONE);
    assert_eq!(p.flat("-"), NONE);
    let a = p.wall("NOPE");
    assert_eq!(p.wall("nope"), a);
    assert_eq!(p.wall("NOPE\0\0\0\0"), a);
    let f = p.flat("NOFLAT");
    assert_eq!(p.flat("NOFLAT"), f);
    assert_ne!(a, f);
    assert_eq!(p.sprite("NONEA0"), NONE);
    assert_eq!(p.sprite("NONEA0"), NONE);
    let color = p.flat_color(a);
    let out = p.finish();
    assert_eq!(out.warnings.len(), 3, "{:?}", out.warnings);
    assert!(out.warnings[0].contains("unknown wall texture `NOPE`"));
    assert!(out.warnings[1].contains("unknown flat `NOFLAT`"));
    assert!(out.warnings[2].contains("unknown sprite `NONEA0`"));
    let (ra, rf) = (out.records[a as usize], out.records[f as usize]);
    assert_eq!((ra.width, ra.height, ra.flags), (64, 64, 0));
    assert_eq!((rf.width, rf.height, rf.flags), (64, 64, FLAT));
    // A checkerboard of two colours.
    assert_ne!(px(&out, a, 0, 0), px(&out, a, 8, 0));
    assert_eq!(px(&out, a, 0, 0), px(&out, a, 8, 8));
    // Magenta and black average to a dark purple; on a grey ramp, a grey.
    assert!(color > 0 && color < 128, "{color}");
}

/// ZDoom's merged namespaces: a wall texture named as a flat is that
/// texture, of its own size, and a flat named as a wall texture is that
/// flat; neither is a checkerboard.
#[test]
fn wall_textures_and_flats_stand_in_for_each_other() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    assert!(lib.has_flat("two") && lib.has_wall("FLOOR0"));
    let mut p = Packer::new(&lib);
    let wall_as_flat = p.flat("two");
    let flat_as_wall = p.wall("FLOOR0");
    let out = p.finish();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_loadable(&out);
    let r = out.records[wall_as_flat as usize];
    assert_eq!((r.width, r.height), (4, 4));
    assert_eq!(px(&out, wall_as_flat, 1, 1), 2);
    let r = out.records[flat_as_wall as usize];
    assert_eq!((r.width, r.height), (64, 64));
}

#[test]
fn sky_flats_pack_the_sky() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    let mut p = Packer::new(&lib);
    assert_eq!(p.flat("f_sky1"), SKY);
    assert_eq!(p.flat("F_SKY"), SKY);
    assert_eq!(p.flat_color(SKY), 1);
    let out = p.finish();
    assert_eq!(out.sky, Some(0));
    assert_eq!(&out.names[0], b"SKY1\0\0\0\0");
    assert_eq!((out.records[0].width, out.records[0].flags), (8, 0));
    // No sky flat, no sky texture; set_sky picks another.
    let mut p = Packer::new(&lib);
    p.flat("FLOOR0");
    assert_eq!(p.finish().sky, None);
    let mut p = Packer::new(&lib);
    p.set_sky(sky_for_map("MAP25"));
    p.flat("F_SKY1");
    let out = p.finish();
    assert_eq!(out.records.len(), 1);
    assert_eq!(&out.names[0], b"SKY3\0\0\0\0");
    // A change of sky after use replaces it.
    let mut p = Packer::new(&lib);
    p.flat("F_SKY1");
    p.set_sky("SKY3");
    assert_eq!(p.finish().sky, Some(1));
    assert_eq!(sky_for_map("e3m1"), "SKY3");
    assert_eq!(sky_for_map("MAP12"), "SKY2");
    assert_eq!(sky_for_map("MAP11"), "SKY1");
    assert_eq!(sky_for_map("whatever"), "SKY1");
}

#[test]
fn sprites_keep_offsets_and_find_rotations() {
    let bytes = test_wad();
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, _) = TextureLibrary::from_wad(&wad);
    let mut p = Packer::new(&lib);
    let bar = p.sprite("bar1a0");
    let poss = p.sprite("POSSA0"); // front view POSSA1
    let troo = p.sprite("TROOA8"); // mirrored half of TROOA2A8
    let out = p.finish();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let r = out.records[bar as usize];
    assert_eq!(
        (r.width, r.height, r.left, r.top, r.flags),
        (5, 7, 2, 6, MASKED)
    );
    assert_ne!(r.transparent, 4);
    assert_eq!(&out.names[poss as usize], b"POSSA0\0\0");
    let t = out.records[troo as usize];
    assert_eq!((t.left, t.top), (4, 7));
    assert_eq!(px(&out, troo, 4, 0), 5, "mirrored");
    assert_eq!(px(&out, troo, 0, 0), t.transparent);
}

#[test]
fn png_images_are_textures_flats_and_sprites() {
    // 2x2 RGBA: white, black, red, transparent.
    let rgba = [
        255, 255, 255, 255, 0, 0, 0, 255, //
        255, 0, 0, 255, 0, 0, 0, 0,
    ];
    let png = encode_png(2, 2, &rgba).unwrap();
    let mut lib = TextureLibrary::empty();
    lib.add_png("dot", &png).unwrap();
    assert!(lib.add_png("bad", b"not a png").is_err());
    let mut p = Packer::new(&lib);
    let w = p.wall("DOT");
    let f = p.flat("dot");
    let s = p.sprite("Dot");
    let out = p.finish();
    assert_eq!(out.palette, None, "the built-in palette");
    let r = out.records[w as usize];
    assert_eq!((r.width, r.height, r.flags), (2, 2, MASKED));
    assert_eq!(px(&out, w, 0, 0), 15, "white in the built-in palette");
    assert_eq!(px(&out, w, 1, 0), 0, "black");
    assert_eq!(px(&out, w, 0, 1), 9, "red");
    assert_eq!(px(&out, w, 1, 1), r.transparent);
    let rf = out.records[f as usize];
    assert_eq!((rf.width, rf.height, rf.flags), (64, 64, FLAT | MASKED));
    let rs = out.records[s as usize];
    assert_eq!((rs.left, rs.top), (1, 2));
    assert_eq!(
        out.warnings.len(),
        1,
        "resized for a flat: {:?}",
        out.warnings
    );
}

#[test]
fn hostile_texture_lumps_warn_not_panic() {
    let mut w = Vec::new();
    assert!(doom::parse_pnames(b"", &mut w).is_empty());
    assert_eq!(
        doom::parse_pnames(&pnames(&["A", "B"])[..15], &mut w),
        ["A"]
    );
    assert!(doom::parse_pnames(&(-5i32).to_le_bytes(), &mut w).is_empty());
    assert_eq!(w.len(), 3, "{w:?}");
    let names = vec!["PA".to_string()];
    let mut w = Vec::new();
    let mut huge = i32::MAX.to_le_bytes().to_vec();
    huge.extend_from_slice(&(-8i32).to_le_bytes());
    huge.extend_from_slice(&1000i32.to_le_bytes());
    assert!(doom::parse_textures("TEXTURE1", &huge, &names, &mut w).is_empty());
    assert_eq!(w.len(), 3, "{w:?}");
    // Zero, negative and oversized dimensions; a patch count past the end.
    let mut lump = texture_lump(&[
        ("ZERO", 0, 8, &[]),
        ("NEG", 8, -1, &[]),
        ("WIDE", 8000, 2000, &[(0, 0, 0)]),
        ("CUT", 8, 8, &[(0, 0, 0)]),
    ]);
    let n = lump.len();
    lump[n - 12..n - 10].copy_from_slice(&500i16.to_le_bytes());
    let mut w = Vec::new();
    let defs = doom::parse_textures("TEXTURE1", &lump, &names, &mut w);
    assert_eq!(w.len(), 4, "{w:?}");
    assert_eq!(defs.len(), 2);
    assert_eq!((defs[0].width, defs[0].height), (4096, 1024));
    assert_eq!(defs[1].patches.len(), 1);

    // Many damaged entries: ten listed, the rest counted.
    let mut many = 100i32.to_le_bytes().to_vec();
    for _ in 0..100 {
        many.extend_from_slice(&(-1i32).to_le_bytes());
    }
    let mut w = Vec::new();
    assert!(doom::parse_textures("TEXTURE2", &many, &names, &mut w).is_empty());
    assert_eq!(w.len(), 11, "{w:?}");
    assert_eq!(w[10], "TEXTURE2: 90 more problems like these");
    // The first of two textures with one name wins.
    let dup = texture_lump(&[("SAME", 8, 8, &[]), ("SAME", 16, 16, &[])]);
    let defs = doom::parse_textures("TEXTURE1", &dup, &names, &mut w);
    assert_eq!((defs.len(), defs[0].width), (1, 8));

    // Random damage to a whole WAD's texture lumps: never a panic, and
    // whatever packs is loadable.
    let good = test_wad();
    let mut seed = 99u32;
    for round in 0..400 {
        let mut b = good.clone();
        // The lumps sit between the 12-byte header and the directory.
        let dir = u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize;
        for _ in 0..1 + round % 8 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let at = 12 + 768 + (seed >> 8) as usize % (dir - 12 - 768);
            b[at] = (seed >> 16) as u8;
        }
        let Ok(wad) = Wad::parse(&b) else { continue };
        let (lib, _) = TextureLibrary::from_wad(&wad);
        let mut p = Packer::new(&lib);
        for name in lib.wall_names().chain(["NOPE"]) {
            p.wall(name);
        }
        for name in ["FLOOR0", "F_SKY1"] {
            p.flat(name);
        }
        for name in ["BAR1A0", "POSSA0", "TROOA8", "TROOA2"] {
            p.sprite(name);
        }
        assert_loadable(&p.finish());
    }
}

#[test]
fn empty_wad_gives_warnings() {
    let bytes = make_wad(b"PWAD", &[("PLAYPAL", b"short")]);
    let wad = Wad::parse(&bytes).unwrap();
    let (lib, w) = TextureLibrary::from_wad(&wad);
    assert_eq!(w.len(), 3, "{w:?}");
    assert!(lib.palette().is_none());
    let mut p = Packer::new(&lib);
    let i = p.wall("ANY");
    let out = p.finish();
    assert_eq!((i, out.records.len(), out.warnings.len()), (0, 1, 1));
}

#[test]
fn pwads_stack_on_the_iwad() {
    let iwad = test_wad();
    // A PWAD without PNAMES or PLAYPAL: its TEXTURE1 indexes the IWAD's
    // PNAMES, its flat replaces the IWAD's, its texture adds to them.
    let textures = texture_lump(&[(
        "NEWTEX",
        4,
        4,
        &[(0, 0, 1), (2, 0, 1), (0, 2, 1), (2, 2, 1)],
    )]);
    let flat = [9u8; 4096];
    let pwad = make_wad(
        b"PWAD",
        &[
            ("TEXTURE1", &textures),
            ("FF_START", b""),
            ("FLOOR0", &flat),
            ("FF_END", b""),
        ],
    );
    let (iwad, pwad) = (Wad::parse(&iwad).unwrap(), Wad::parse(&pwad).unwrap());
    let (lib, w) = TextureLibrary::from_wads(&[&iwad, &pwad]);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(lib.texture_count(), 9);
    let mut p = Packer::new(&lib);
    let t = p.wall("NEWTEX");
    let f = p.flat("FLOOR0");
    let out = p.finish();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(px(&out, t, 3, 3), 2);
    assert_eq!(px(&out, f, 5, 5), 9);
    assert!(out.palette.is_some());
}
