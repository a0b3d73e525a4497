//! The automap overlay: the level's walls drawn over the 3D view, centred
//! on the player and turning with the view (facing is always up).
//!
//! One-sided walls are [`WALL_COLOR`], portals [`PORTAL_COLOR`], other
//! bodies [`BODY_COLOR`] crosses, the player a [`PLAYER_COLOR`] arrow. The
//! view underneath is dimmed so the lines read. Lines are clipped to the
//! frame, then drawn with Bresenham's algorithm, so any wall, however far
//! off screen, costs only its visible pixels.

use engine::math::Vec2;
use engine::world::{Level, WallId};

/// One-sided walls.
pub const WALL_COLOR: u32 = 0x00FC_4040;
/// Portals (two-sided walls).
pub const PORTAL_COLOR: u32 = 0x00E8_C040;
/// The player's arrow.
pub const PLAYER_COLOR: u32 = 0x00FF_FFFF;
/// Other bodies (pushable things).
pub const BODY_COLOR: u32 = 0x0040_E040;

/// Default zoom: screen pixels per map unit at 320 columns (wider
/// pictures scale it up, so the map covers the same area).
pub const DEFAULT_ZOOM: f64 = 0.2;
/// Closest zoom.
pub const MAX_ZOOM: f64 = 4.0;
/// Farthest zoom.
pub const MIN_ZOOM: f64 = 0.01;
/// Zoom change per tick while a zoom key is held (DOOM's 2% per tic).
pub const ZOOM_STEP: f64 = 1.02;

/// Whether the automap shows, and how close.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Automap {
    /// Drawn over the view.
    pub shown: bool,
    /// Zoom relative to [`DEFAULT_ZOOM`].
    pub zoom: f64,
}

impl Default for Automap {
    fn default() -> Self {
        Automap {
            shown: false,
            zoom: 1.0,
        }
    }
}

impl Automap {
    /// Zooms in (`steps` > 0) or out by [`ZOOM_STEP`] per step, within
    /// [`MIN_ZOOM`]..[`MAX_ZOOM`].
    pub fn zoom_by(&mut self, steps: i32) {
        let z = self.zoom * ZOOM_STEP.powi(steps);
        self.zoom = z.clamp(MIN_ZOOM / DEFAULT_ZOOM, MAX_ZOOM / DEFAULT_ZOOM);
    }
}

/// Where the automap looks from: a map point at the centre of the frame,
/// the facing that points up, and pixels per map unit.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MapView {
    /// Map point at the centre of the frame.
    pub x: f64,
    /// Map point at the centre of the frame.
    pub y: f64,
    /// Facing, degrees counter-clockwise from east; drawn pointing up.
    pub angle: f64,
    /// Screen pixels per map unit.
    pub scale: f64,
}

impl MapView {
    /// Screen position of map point `(x, y)` in a `width` x `height`
    /// frame, whose centre pixel (where the arrow is) is
    /// `(width / 2, height / 2)`.
    pub fn to_screen(&self, x: f64, y: f64, width: usize, height: usize) -> (f64, f64) {
        let (dx, dy) = (x - self.x, y - self.y);
        let (sin, cos) = self.angle.to_radians().sin_cos();
        // Along the facing is up the screen; to its right is right.
        let ahead = dx * cos + dy * sin;
        let right = dx * sin - dy * cos;
        (
            (width / 2) as f64 + right * self.scale,
            (height / 2) as f64 - ahead * self.scale,
        )
    }
}

/// Halves every pixel's brightness, so lines drawn over it stand out.
pub fn dim(pixels: &mut [u32]) {
    for p in pixels {
        *p = (*p >> 1) & 0x007F_7F7F;
    }
}

/// Draws the automap over `pixels` (`width` x `height`, rows `width`
/// apart): dims the picture, then walls, other bodies and the player's
/// arrow.
pub fn draw(
    pixels: &mut [u32],
    width: usize,
    height: usize,
    level: &Level<'_>,
    view: &MapView,
    bodies: &[Vec2],
) {
    dim(pixels);
    for i in 0..level.wall_count() {
        let wall = level.wall(WallId(i as u16));
        let a = view.to_screen(wall.a.x.to_num(), wall.a.y.to_num(), width, height);
        let b = view.to_screen(wall.b.x.to_num(), wall.b.y.to_num(), width, height);
        let color = if wall.back.is_some() {
            PORTAL_COLOR
        } else {
            WALL_COLOR
        };
        draw_line(pixels, width, height, a, b, color);
    }
    for body in bodies {
        let (x, y) = view.to_screen(body.x.to_num(), body.y.to_num(), width, height);
        draw_line(
            pixels,
            width,
            height,
            (x - 2.0, y),
            (x + 2.0, y),
            BODY_COLOR,
        );
        draw_line(
            pixels,
            width,
            height,
            (x, y - 2.0),
            (x, y + 2.0),
            BODY_COLOR,
        );
    }
    draw_arrow(pixels, width, height);
}

/// The player's arrow at the centre of the frame, pointing up: a shaft,
/// a head and a tail, 11 pixels long.
pub fn draw_arrow(pixels: &mut [u32], width: usize, height: usize) {
    let (cx, cy) = ((width / 2) as f64, (height / 2) as f64);
    let segments = [
        ((0.0, 5.0), (0.0, -5.0)),
        ((0.0, -5.0), (-3.0, -2.0)),
        ((0.0, -5.0), (3.0, -2.0)),
        ((0.0, 5.0), (-2.0, 7.0)),
        ((0.0, 5.0), (2.0, 7.0)),
    ];
    for ((x0, y0), (x1, y1)) in segments {
        draw_line(
            pixels,
            width,
            height,
            (cx + x0, cy + y0),
            (cx + x1, cy + y1),
            PLAYER_COLOR,
        );
    }
}

/// Draws the line from `a` to `b` (pixel centres at whole coordinates),
/// clipped to the frame. Both end points are drawn.
pub fn draw_line(
    pixels: &mut [u32],
    width: usize,
    height: usize,
    a: (f64, f64),
    b: (f64, f64),
    color: u32,
) {
    if width == 0 || height == 0 || pixels.len() < width * height {
        return;
    }
    let max = ((width - 1) as f64, (height - 1) as f64);
    let Some((a, b)) = clip(a, b, max) else {
        return;
    };
    let (mut x, mut y) = (a.0.round() as i64, a.1.round() as i64);
    let (x1, y1) = (b.0.round() as i64, b.1.round() as i64);
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = ((x1 - x).signum(), (y1 - y).signum());
    let mut err = dx + dy;
    let (w, h) = (width as i64, height as i64);
    loop {
        if (0..w).contains(&x) && (0..h).contains(&y) {
            pixels[(y * w + x) as usize] = color;
        }
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

/// Liang-Barsky: the part of the segment `a`-`b` inside
/// `[0, max.0] x [0, max.1]`, or `None`.
fn clip(a: (f64, f64), b: (f64, f64), max: (f64, f64)) -> Option<((f64, f64), (f64, f64))> {
    if ![a.0, a.1, b.0, b.1].iter().all(|v| v.is_finite()) {
        return None;
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0), (dx, max.0 - a.0), (-dy, a.1), (dy, max.1 - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
            continue;
        }
        let r = q / p;
        if p < 0.0 {
            t0 = t0.max(r);
        } else {
            t1 = t1.min(r);
        }
        if t0 > t1 {
            return None;
        }
    }
    Some((
        (a.0 + t0 * dx, a.1 + t0 * dy),
        (a.0 + t1 * dx, a.1 + t1 * dy),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: u32 = 0x00FF_FFFF;

    /// The frame as text, one string per row: `.` for black, `#` for
    /// white, `W` walls, `P` portals, `B` bodies, `?` anything else.
    fn ascii(pixels: &[u32], width: usize) -> Vec<String> {
        pixels
            .chunks(width)
            .map(|row| {
                row.iter()
                    .map(|&p| match p {
                        0 => '.',
                        W => '#',
                        WALL_COLOR => 'W',
                        PORTAL_COLOR => 'P',
                        BODY_COLOR => 'B',
                        _ => '?',
                    })
                    .collect()
            })
            .collect()
    }

    fn line(width: usize, height: usize, a: (f64, f64), b: (f64, f64)) -> Vec<String> {
        let mut px = vec![0; width * height];
        draw_line(&mut px, width, height, a, b, W);
        ascii(&px, width)
    }

    #[test]
    fn lines_in_every_octant() {
        assert_eq!(
            line(8, 4, (0.0, 0.0), (7.0, 3.0)),
            ["##......", "..##....", "....##..", "......##"]
        );
        // The same line drawn backwards covers the same pixels.
        assert_eq!(
            line(8, 4, (7.0, 3.0), (0.0, 0.0)),
            line(8, 4, (0.0, 0.0), (7.0, 3.0))
        );
        assert_eq!(
            line(4, 5, (3.0, 0.0), (0.0, 4.0)),
            ["...#", "..#.", ".#..", ".#..", "#..."]
        );
        assert_eq!(
            line(5, 3, (0.0, 1.0), (4.0, 1.0)),
            [".....", "#####", "....."]
        );
        assert_eq!(
            line(3, 4, (1.0, 3.0), (1.0, 0.0)),
            [".#.", ".#.", ".#.", ".#."]
        );
        assert_eq!(line(3, 3, (1.0, 1.0), (1.0, 1.0)), ["...", ".#.", "..."]);
    }

    #[test]
    fn lines_are_clipped_to_the_frame() {
        // From far outside, across, to far outside: only the inside shows.
        assert_eq!(
            line(6, 3, (-1000.0, 1.0), (1000.0, 1.0)),
            ["......", "######", "......"]
        );
        assert_eq!(
            line(4, 4, (-2.0, -2.0), (10.0, 10.0)),
            ["#...", ".#..", "..#.", "...#"]
        );
        // Entirely outside, or not a number: nothing, and no panic.
        assert_eq!(line(3, 2, (-5.0, -1.0), (10.0, -1.0)), ["...", "..."]);
        assert_eq!(line(3, 2, (f64::NAN, 0.0), (1.0, 1.0)), ["...", "..."]);
        assert_eq!(line(3, 2, (1e300, 0.0), (-1e300, 1.0))[0].len(), 3);
        let mut tiny: Vec<u32> = Vec::new();
        draw_line(&mut tiny, 0, 0, (0.0, 0.0), (1.0, 1.0), W);
    }

    #[test]
    fn the_arrow_points_up_from_the_centre() {
        let mut px = vec![0; 9 * 15];
        draw_arrow(&mut px, 9, 15);
        assert_eq!(
            ascii(&px, 9),
            [
                ".........",
                ".........",
                "....#....",
                "...###...",
                "..#.#.#..",
                ".#..#..#.",
                "....#....",
                "....#....",
                "....#....",
                "....#....",
                "....#....",
                "....#....",
                "....#....",
                "...#.#...",
                "..#...#..",
            ]
        );
    }

    #[test]
    fn the_view_turns_with_the_facing() {
        // Facing east (0 degrees), a point east of the player is straight
        // up the screen; facing north (90), a point east is to the right.
        let east = MapView {
            x: 100.0,
            y: 100.0,
            angle: 0.0,
            scale: 0.5,
        };
        let (x, y) = east.to_screen(120.0, 100.0, 40, 40);
        assert!(
            (x - 20.0).abs() < 1e-9 && (y - 10.0).abs() < 1e-9,
            "{x} {y}"
        );
        let north = MapView {
            angle: 90.0,
            ..east
        };
        let (x, y) = north.to_screen(120.0, 100.0, 40, 40);
        assert!(
            (x - 30.0).abs() < 1e-9 && (y - 20.0).abs() < 1e-9,
            "{x} {y}"
        );
        // And a point north, facing north, is up.
        let (x, y) = north.to_screen(100.0, 110.0, 40, 40);
        assert!(
            (x - 20.0).abs() < 1e-9 && (y - 15.0).abs() < 1e-9,
            "{x} {y}"
        );
    }

    #[test]
    fn a_level_draws_walls_and_portals_in_their_colours() {
        // Two 64-unit rooms side by side, seen from the middle of the
        // left one facing north, at 1/8 pixel per unit, with a body in the
        // right one.
        let source = "vertex a 0 0\nvertex b 64 0\nvertex c 64 64\nvertex d 0 64\n\
                      vertex e 128 0\nvertex f 128 64\n\
                      sector l floor 0 ceiling 64\nsector r floor 0 ceiling 64\n\
                      loop l a b c d a\nloop r b e f c b\nplayer 32 32 90\n";
        let map = tools::compile_source(source, "t.map").unwrap();
        let level = Level::load(&map.bytes).unwrap();
        let view = MapView {
            x: 32.0,
            y: 32.0,
            angle: 90.0,
            scale: 0.125,
        };
        let (w, h) = (29, 17);
        let mut px = vec![0; w * h];
        draw(&mut px, w, h, &level, &view, &[Vec2::from_int(96, 32)]);
        let rows = ascii(&px, w);
        // The arrow at the centre (14, 8); the left room spans x 10..18
        // and y 4..12; the shared wall at x 18 is a portal; the right
        // room ends at x 26; the body is a cross at (22, 8).
        assert_eq!(
            rows,
            [
                ".............................",
                ".............................",
                ".............................",
                "..............#..............",
                "..........WWW###WWWWWWWWWWW..",
                "..........W.#.#.#.P.......W..",
                "..........W#..#..#P...B...W..",
                "..........W...#...P...B...W..",
                "..........W...#...P.BBBBB.W..",
                "..........W...#...P...B...W..",
                "..........W...#...P...B...W..",
                "..........W...#...P.......W..",
                "..........WWWW#WWWWWWWWWWWW..",
                "..............#..............",
                ".............#.#.............",
                "............#...#............",
                ".............................",
            ]
        );
    }
}
