//! Shared helpers for the renderer's integration tests: maps through the
//! real compiler, a pixel type that remembers whether it was written, and
//! a palette whose every (colour, light level) pair is distinct, so frames
//! can be read back as text.
#![allow(dead_code)]

pub mod bench;
pub mod textured;

use std::collections::HashMap;

use engine::format::{kind, ThingRecord};
use engine::math::{Angle, Fx, Vec2};
use engine::render::{
    render, Camera, Frame, Palette, Pixel, RenderStats, Scene, Shades, Sprite, LIGHT_LEVELS,
};
use engine::world::{Level, SectorId};
use tools::build::{build, BuildOptions, SourceMap, SourceSector};

/// A sector for [`build_map`]: heights, light, colours and loops of
/// whole-unit points.
#[derive(Clone, Debug)]
pub struct Sec {
    pub floor: i32,
    pub ceiling: i32,
    pub light: u8,
    /// (ceiling, floor, wall) palette indices.
    pub colors: (u8, u8, u8),
    pub loops: Vec<Vec<(i32, i32)>>,
}

impl Sec {
    /// An axis-aligned rectangle sector.
    pub fn rect(x0: i32, y0: i32, x1: i32, y1: i32, floor: i32, ceiling: i32) -> Sec {
        Sec {
            floor,
            ceiling,
            light: 255,
            colors: (C_CEIL, C_FLOOR, C_WALL),
            loops: vec![vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)]],
        }
    }

    pub fn colors(mut self, c: (u8, u8, u8)) -> Sec {
        self.colors = c;
        self
    }

    pub fn light(mut self, l: u8) -> Sec {
        self.light = l;
        self
    }
}

/// Palette indices used by the tests, and the characters they print as.
pub const C_CEIL: u8 = 1;
pub const C_FLOOR: u8 = 2;
pub const C_WALL: u8 = 3;
pub const C_CEIL2: u8 = 4;
pub const C_FLOOR2: u8 = 5;
pub const C_WALL2: u8 = 6;
pub const C_CEIL3: u8 = 7;
pub const C_FLOOR3: u8 = 8;
pub const C_WALL3: u8 = 9;
/// Index `i` prints as `LEGEND[i]`; black (the background) as a space and
/// a pixel never written as `?`. The first ten are the sector colours
/// above; the rest are for texels (see [`texel`]).
pub const LEGEND: &[u8] = b"0cfwCFWkgx123456789ABDEGHIJKLMNOPQRSTUVXYZabdehijlmnopqrstuvyz*.";

/// The palette index that prints as `c` (panics if none).
pub fn texel(c: u8) -> u8 {
    LEGEND
        .iter()
        .position(|&l| l == c)
        .unwrap_or_else(|| panic!("no palette index prints as {:?}", c as char)) as u8
}

/// Compiles `sectors` (vertices shared by position) into map bytes.
// The compiler's sectors gain fields (textures) that these maps leave
// at their defaults.
#[allow(clippy::needless_update)]
pub fn build_map(sectors: &[Sec]) -> Vec<u8> {
    let mut points: Vec<(i32, i32)> = Vec::new();
    let mut map = SourceMap {
        title: "render test".into(),
        ..Default::default()
    };
    for s in sectors {
        let loops = s
            .loops
            .iter()
            .map(|lp| {
                lp.iter()
                    .map(|&p| {
                        points.iter().position(|q| *q == p).unwrap_or_else(|| {
                            points.push(p);
                            points.len() - 1
                        })
                    })
                    .collect()
            })
            .collect();
        map.sectors.push(SourceSector {
            floor: Fx::from_num(s.floor),
            ceiling: Fx::from_num(s.ceiling),
            light: s.light,
            ceiling_color: s.colors.0,
            floor_color: s.colors.1,
            wall_color: s.colors.2,
            loops,
            ..Default::default()
        });
    }
    map.vertices = points.iter().map(|&(x, y)| Vec2::from_int(x, y)).collect();
    map.things.push(ThingRecord {
        kind: kind::PLAYER_START,
        ..Default::default()
    });
    build(&map, BuildOptions::default())
        .unwrap_or_else(|e| panic!("test map does not compile: {e:?}"))
        .bytes
}

/// A pixel that knows whether the renderer wrote it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Px(pub Option<[u8; 3]>);

impl Pixel for Px {
    fn from_rgb(r: u8, g: u8, b: u8) -> Self {
        Px(Some([r, g, b]))
    }
}

/// Index `p < 64` is `[255, 32 * (p % 8), 32 * (p / 8)]`: red gives the
/// light level away, green and blue the index, at every level.
pub fn palette() -> Palette {
    let mut p = Palette::builtin();
    for (i, c) in p.0.iter_mut().enumerate().take(64) {
        *c = [255, 32 * (i % 8) as u8, 32 * (i / 8) as u8];
    }
    p
}

/// The test shades and their inverse.
pub struct Ink {
    pub shades: Shades<Px>,
    back: HashMap<Px, (u8, usize)>,
}

impl Ink {
    pub fn new() -> Ink {
        let shades = Shades::new(&palette());
        let mut back = HashMap::new();
        for level in 0..LIGHT_LEVELS {
            for c in 0..64u8 {
                let old = back.insert(shades.get(level, c), (c, level));
                assert!(old.is_none(), "test palette is ambiguous");
            }
        }
        Ink { shades, back }
    }

    /// (palette index, light level) of a written, non-black pixel.
    pub fn decode(&self, p: Px) -> Option<(u8, usize)> {
        self.back.get(&p).copied()
    }

    pub fn char_of(&self, p: Px) -> char {
        match p {
            Px(None) => '?',
            Px(Some([0, 0, 0])) => ' ',
            p => match self.decode(p) {
                Some((c, _)) => LEGEND.get(c as usize).map(|&b| b as char).unwrap_or('#'),
                None => '!',
            },
        }
    }
}

/// A rendered frame, read back.
pub struct Shot {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<Px>,
    pub stats: RenderStats,
}

impl Shot {
    pub fn at(&self, x: usize, y: usize) -> Px {
        self.pixels[y * self.width + x]
    }

    /// Rows as colour characters.
    pub fn text(&self, ink: &Ink) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| ink.char_of(self.at(x, y)))
                    .collect()
            })
            .collect()
    }

    /// The light level of a pixel (panics on background).
    pub fn level(&self, ink: &Ink, x: usize, y: usize) -> usize {
        ink.decode(self.at(x, y)).expect("not a shaded pixel").1
    }
}

/// A camera at whole-unit `(x, y, eye)` facing `deg` degrees, in the
/// sector found by point location (sector 0 if outside).
pub fn camera(level: &Level<'_>, x: i32, y: i32, eye: i32, deg: i32) -> Camera {
    let pos = Vec2::from_int(x, y);
    Camera {
        pos,
        eye_z: Fx::from_num(eye),
        angle: Angle::from_int_degrees(deg),
        sector: level.locate(pos).unwrap_or(SectorId(0)),
    }
}

/// Renders `width` x `height` into a fresh buffer of unwritten pixels.
pub fn shoot(level: &Level<'_>, cam: &Camera, ink: &Ink, width: usize, height: usize) -> Shot {
    let mut pixels = vec![Px(None); width * height];
    let mut frame = Frame::new(&mut pixels, width, height, width).expect("frame");
    let stats = render(&Scene::new(level, *cam), &ink.shades, &mut frame);
    Shot {
        width,
        height,
        pixels,
        stats,
    }
}

/// [`shoot`] with `sprites` instead of the map's decorations.
pub fn shoot_scene(
    level: &Level<'_>,
    cam: &Camera,
    ink: &Ink,
    sprites: &[Sprite],
    width: usize,
    height: usize,
) -> Shot {
    let mut pixels = vec![Px(None); width * height];
    let mut frame = Frame::new(&mut pixels, width, height, width).expect("frame");
    let stats = render(
        &Scene::new(level, *cam).with_sprites(sprites),
        &ink.shades,
        &mut frame,
    );
    Shot {
        width,
        height,
        pixels,
        stats,
    }
}

/// Asserts the frame reads as `expected`, printing both on failure.
pub fn assert_frame(shot: &Shot, ink: &Ink, expected: &[&str]) {
    let got = shot.text(ink);
    if got != expected {
        let mut msg = String::from("frame differs\n got:\n");
        for r in &got {
            msg.push_str(&format!("    \"{r}\",\n"));
        }
        msg.push_str(" expected:\n");
        for r in expected {
            msg.push_str(&format!("    \"{r}\",\n"));
        }
        panic!("{msg}");
    }
}
