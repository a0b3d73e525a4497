//! Tests of the BSP walk.
extern crate std;
use super::*;
use crate::render::tests::{maps, views_from_things};
use std::vec::Vec;

/// The box test by where the corners project takes in every column
/// the exact side tests give (it may take more, never fewer): corners
/// near and far, on the screen and off it, from the test maps'
/// things at several widths, with a column to spare (a range two
/// columns narrower each way misses some).
#[test]
fn the_rough_box_columns_hold_the_exact_ones() {
    let bytes = maps().into_iter().next().expect("a test map").1;
    let level = Level::load(&bytes).expect("the test map loads");
    let cameras = views_from_things(&level, |_, _, _| true);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || crate::render::tests::xorshift(&mut seed);
    let (mut compared, mut least_spare) = (0, usize::MAX);
    for w in [1usize, 2, 3, 64, 320, 321, 1024] {
        for cam in cameras.iter().take(12) {
            let view = View::new(&level, cam, w, 200);
            for _ in 0..3000 {
                // Corners up to 2^(10..26) units away (16.16 bits).
                let mut corner = || {
                    let reach = 1i64 << (26 + next() % 17);
                    let r = |v: u64| (v % (2 * reach as u64)) as i64 - reach;
                    (r(next()), r(next()))
                };
                let (c1, c2) = (corner(), corner());
                let turn = c1.0 as i128 * c2.1 as i128 - c1.1 as i128 * c2.0 as i128;
                if turn >= 0 {
                    continue;
                }
                let Some((r0, r1)) = box_columns_near(&view, c1, c2, w) else {
                    continue;
                };
                let (x0, x1) = box_columns(&view, c1, c2, w);
                compared += 1;
                if x0 < x1 {
                    assert!(
                        r0 <= x0 && x1 <= r1,
                        "{w} {c1:?} {c2:?}: {r0}..{r1} {x0}..{x1}"
                    );
                    // The columns to spare, where an end is not the
                    // screen's.
                    if r0 > 0 {
                        least_spare = least_spare.min(x0 - r0);
                    }
                    if r1 < w {
                        least_spare = least_spare.min(r1 - x1);
                    }
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
    // (31,500 compared: at least one column to spare each way.)
    assert!(least_spare >= 1, "{least_spare}");
}

/// A facing seg's columns, with the ends off the screen found before
/// either end's search, are the side tests' columns: the same range
/// where that is not empty, an empty one where it is; ends near and
/// far, on the screen, off it and behind the camera.
#[test]
fn facing_columns_are_the_side_tests_columns() {
    let bytes = maps().into_iter().next().expect("a test map").1;
    let level = Level::load(&bytes).expect("the test map loads");
    let cameras = views_from_things(&level, |_, _, _| true);
    let mut seed = 0x0ff5_c4ee_u64;
    let mut next = move || crate::render::tests::xorshift(&mut seed);
    let (mut shown, mut off) = (0, 0);
    for w in [1usize, 2, 64, 320, 1024] {
        for cam in cameras.iter().take(12) {
            let view = View::new(&level, cam, w, 200);
            for _ in 0..3000 {
                let mut end = || {
                    let reach = 1i64 << (12 + next() % 24);
                    let r = |v: u64| (v % (2 * reach as u64)) as i64 - reach;
                    (r(next()), r(next()))
                };
                let (f, t) = (end(), end());
                let Some((x0, x1)) = facing_columns(&view, f, t, w) else {
                    continue;
                };
                let (e0, e1) =
                    column_overlap(sides(&view, f.0, f.1).nonneg, sides(&view, t.0, t.1).nonpos);
                let e1 = e1.min(w);
                if e0 < e1 {
                    shown += 1;
                    assert_eq!((x0, x1), (e0, e1), "{w} {f:?} {t:?}");
                } else {
                    off += 1;
                    assert!(x0 >= x1, "{w} {f:?} {t:?}: {x0}..{x1}");
                }
            }
        }
    }
    assert!(shown > 1000 && off > 1000, "{shown} {off}");
}

/// A middle texture covers a two-sided wall's opening when it reaches
/// from the lower ceiling to the higher floor, or beyond.
#[test]
fn a_middle_texture_covers_the_opening_from_the_lower_ceiling_to_the_higher_floor() {
    let u = |n: i64| n << 16;
    // Ceilings 64 and 80, floors -64 and -48 (from the eye): the
    // opening is 64 down to -48, 112 units.
    let heights = [u(80), u(-64), u(64), u(-48)];
    assert!(middle_covers(u(64), 112, heights));
    assert!(middle_covers(u(64), 128, heights));
    assert!(middle_covers(u(72), 128, heights));
    // Short of the floor, or of the ceiling.
    assert!(!middle_covers(u(64), 111, heights));
    assert!(!middle_covers(u(63), 128, heights));
    assert!(!middle_covers(u(100), 128, heights));
}

/// The stepped ray table holds each column's [`View::ray`], at every
/// width up to the widest and facings all round.
#[test]
fn the_ray_table_holds_each_columns_ray() {
    let bytes = maps().into_iter().next().expect("a test map").1;
    let level = Level::load(&bytes).expect("the test map loads");
    let cameras = views_from_things(&level, |_, _, _| true);
    let mut rays = RayTable::new();
    let mut tested = 0;
    for w in 1..=MAX_SCREEN_WIDTH {
        for cam in cameras.iter().skip(w % 7).step_by(7).take(3) {
            let view = View::new(&level, cam, w, 200);
            fill_rays(&view, &mut rays);
            assert_eq!(rays.len(), w);
            for (x, &(dx, dy)) in rays.iter().enumerate() {
                assert_eq!((dx as i64, dy as i64), view.ray(x), "width {w}, column {x}");
                tested += 1;
            }
        }
    }
    assert!(tested > 1_000_000);
}

/// A column's sky column and its kept rows, packed in one word, come
/// back as they were put in, whichever was set last.
#[test]
fn a_sky_column_keeps_its_column_and_rows_apart() {
    let s = SkyColumn::UNKNOWN;
    assert_eq!((s.column(), s.pending()), (None, (0, 0)));
    let s = s.with_pending((3, crate::config::MAX_SCREEN_HEIGHT));
    assert_eq!(s.column(), None);
    for c in [-128, -1, 0, 1, 1151, 2046] {
        let t = s.with_column(c);
        assert_eq!(t.column(), Some(c));
        assert_eq!(t.pending(), (3, crate::config::MAX_SCREEN_HEIGHT));
        let u = t.with_pending((0, 0));
        assert_eq!((u.column(), u.pending()), (Some(c), (0, 0)));
    }
    // Out of range: clamped, never the marker of no column.
    assert_eq!(s.with_column(5000).column(), Some(2046));
    assert_eq!(s.with_column(-5000).column(), Some(-2048));
}

/// A packed window gives back the rows and step it was made of, at
/// every row of the tallest screen and every step.
#[test]
fn windows_keep_their_rows_and_step() {
    let rows = 0..=crate::config::MAX_SCREEN_HEIGHT as i16;
    for (top, bottom) in rows.clone().zip(rows.rev()) {
        for step in -1..MAX_PORTALS_PER_COLUMN as i16 {
            let w = Window::new(top, bottom, step);
            assert_eq!((w.top(), w.bottom(), w.step()), (top, bottom, step));
        }
    }
    assert_eq!(core::mem::size_of::<Window>(), 4);
}

/// A seg's sprite candidates include every sprite that covers one of
/// its columns (and, of the rest, only those in its blocks), for
/// sprites and segs at random columns of the widest screen.
#[test]
fn near_sprites_include_every_sprite_a_seg_covers() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| (crate::render::tests::xorshift(&mut seed) % n as u64) as usize;
    for _ in 0..200 {
        let sprites: Vec<(usize, usize)> = (0..1 + next(128))
            .map(|_| {
                let x0 = next(MAX_SCREEN_WIDTH);
                // Some empty, as sprites without windows are.
                (x0, (x0 + next(80)).min(MAX_SCREEN_WIDTH))
            })
            .collect();
        let near = NearSprites::new(sprites.iter().copied());
        for _ in 0..50 {
            let x0 = next(MAX_SCREEN_WIDTH);
            let x1 = x0 + 1 + next((MAX_SCREEN_WIDTH - x0).min(200));
            let found = near.within(x0, x1);
            for (k, &(s0, s1)) in sprites.iter().enumerate() {
                let covers = s0 < s1 && s0 < x1 && x0 < s1;
                let blocks_meet = s0 < s1
                    && s0 / SPRITE_BLOCK <= (x1 - 1) / SPRITE_BLOCK
                    && x0 / SPRITE_BLOCK <= (s1 - 1) / SPRITE_BLOCK;
                let bit = found >> k & 1 == 1;
                assert!(!covers || bit, "sprite {k} {s0}..{s1} missed by {x0}..{x1}");
                assert_eq!(bit, blocks_meet, "sprite {k} {s0}..{s1}, seg {x0}..{x1}");
            }
        }
    }
}

/// Across every wall side seen from every thing of the test maps, in
/// eight directions, the stepped depth and texture column of each
/// column stay near the exact ones: the depth within 2^-9 of itself
/// (the exact depth carries the rounding of each column's ray, which
/// a wall seen at a slant magnifies: up to about 2^-10 here), the
/// texture column within a sixteenth of a column's width on the wall
/// there (or of 1/64 map unit, where a column covers less).
#[test]
fn stepped_depths_and_texture_columns_stay_near_the_exact_ones() {
    let (w, h) = (160usize, 100usize);
    for (name, bytes) in maps() {
        let level = Level::load(&bytes).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let (mut n, mut worst_depth, mut worst_along) = (0u64, 0f64, 0f64);
        let mut ratios: Vec<f64> = Vec::new();
        for cam in views_from_things(&level, |_, _, _| true) {
            let view = View::new(&level, &cam, w, h);
            for i in 0..level.wall_count() {
                let wall = level.wall(WallId(i as u16));
                let ends = Ends::new(&view, &wall);
                let cross = ends.cross();
                for front in [true, false] {
                    if !front && wall.back.is_none() {
                        continue;
                    }
                    let (f, t) = if front {
                        ((ends.ax, ends.ay), (ends.bx, ends.by))
                    } else {
                        ((ends.bx, ends.by), (ends.ax, ends.ay))
                    };
                    let Some((x0, x1)) = facing_columns(&view, f, t, w) else {
                        continue;
                    };
                    if x1 <= x0 + 1 {
                        continue;
                    }
                    let columns = (x0, x1 - 1);
                    let Some(hits) = end_hits(&view, &ends, cross, front, columns) else {
                        continue;
                    };
                    let step =
                        DepthStep::new(&ends, front, wall.length, hits, columns, Division::Integer)
                            .expect("two columns or more");
                    let exact = |x: usize| {
                        let (dx, dy) = view.ray(x);
                        exit_depth(dx, dy, &ends, front, !front, || cross)
                            .map(|hit| (hit.depth.bits(Division::Integer), hit.along(wall.length)))
                    };
                    for x in x0..x1 {
                        let Some((depth, along)) = exact(x) else {
                            continue;
                        };
                        n += 1;
                        let stepped = step.depth(x);
                        let e = (stepped - depth).abs() as f64 / depth as f64;
                        worst_depth = worst_depth.max(e);
                        assert!(
                            e <= 1.0 / 512.0,
                            "{name} {cam:?} wall {i} column {x}: depth {stepped}, exactly {depth}"
                        );
                        // A column's width on the wall here.
                        let next = exact(x + 1).or_else(|| exact(x.wrapping_sub(1)));
                        let width = next.map_or(0, |(_, a)| (a - along).abs()).max(1 << 10);
                        let off = (step.along(x, stepped) - along).abs() as f64;
                        let ratio = off / width as f64;
                        ratios.push(ratio);
                        worst_along = worst_along.max(ratio);
                        assert!(
                            ratio <= 1.0 / 16.0,
                            "{name} {cam:?} wall {i} column {x}: along {}, exactly {along}, a column {width}",
                            step.along(x, stepped)
                        );
                    }
                }
            }
        }
        ratios.sort_by(f64::total_cmp);
        let p99 = ratios.get(ratios.len() * 99 / 100).copied().unwrap_or(0.0);
        std::println!(
            "{name}: {n} columns; depth off by at most {worst_depth:.2e} of itself; texture column by at most {worst_along:.3} of a column's width, 99% within {p99:.4}"
        );
    }
}
