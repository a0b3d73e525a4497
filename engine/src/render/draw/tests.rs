//! Tests of the pixel loops: each against a pixel-by-pixel form of itself.
use super::*;
extern crate std;
use std::vec;

/// A wall texture (no clear texel) of `width` x `height` `pixels`,
/// column by column.
fn wall_texture(width: usize, height: usize, pixels: &[u8]) -> TextureView<'_> {
    TextureView {
        width: width as u16,
        height: height as u16,
        flags: 0,
        transparent: 0,
        left: 0,
        top: 0,
        pixels,
    }
}

/// A random run of rows `[y0, y1)` (not empty) in a column of `rows`.
fn random_run(next: &mut impl FnMut() -> u64, rows: usize) -> (usize, usize) {
    let y0 = (next() % rows as u64) as usize;
    let y1 = y0 + 1 + (next() % (rows - y0) as u64) as usize;
    (y0, y1)
}

/// Rows of a byte buffer as strings (padding included).
fn text(buf: &[u8], stride: usize) -> [&str; 6] {
    let mut out = [""; 6];
    for (row, o) in buf.chunks(stride).zip(out.iter_mut()) {
        *o = core::str::from_utf8(row).unwrap();
    }
    out
}

#[test]
fn a_flat_span_shows_each_pixels_own_texel_whatever_its_length() {
    // A flat whose texels name their place, a shade that passes
    // them through, and spans of every length up to 9, odd and even
    // (the pairs start differently for each), written into the
    // middle of a row whose other pixels must stay as they were.
    let mut flat = [0u8; 4096];
    for (i, t) in flat.iter_mut().enumerate() {
        *t = (i * 7 % 251) as u8;
    }
    let shade: [u16; 256] = core::array::from_fn(|i| i as u16);
    let mut seed = 0x5eed_f1a7;
    for len in 0..=9 {
        for _ in 0..20 {
            let mut next = || crate::render::tests::xorshift(&mut seed) as u32;
            let uvs = [next(), next(), next(), next()];
            let [u, v, du, dv] = uvs;
            let mut row = [u16::MAX; 12];
            flat_span(&mut row[1..1 + len], uvs, &flat, &shade);
            for (i, &px) in row.iter().enumerate() {
                let want = match i.checked_sub(1).filter(|&k| k < len) {
                    Some(k) => {
                        let u = u.wrapping_add(du.wrapping_mul(k as u32));
                        let v = v.wrapping_add(dv.wrapping_mul(k as u32));
                        // Column-major: column from `u`, row from `v`.
                        let (texel_column, texel_row) = (u >> 26, v >> 26);
                        flat[(texel_column * 64 + texel_row) as usize] as u16
                    }
                    None => u16::MAX,
                };
                assert_eq!(px, want, "length {len}, pixel {i}, {uvs:x?}");
            }
        }
    }
}

#[test]
fn solid_fills_write_every_row_and_pixel_and_nothing_else() {
    // Columns: every length from 1 to 11 rows at strides 1 to 5, in a
    // slice from the first row's pixel to the last's, as column_slice
    // gives; a plain loop says what it should hold.
    for stride in 1..=5usize {
        for rows in 1..=11usize {
            let len = (rows - 1) * stride + 1;
            let mut got = [0u8; 64];
            solid_column(&mut got[..len], stride, 7);
            let want: [u8; 64] =
                core::array::from_fn(|i| if i < len && i % stride == 0 { 7 } else { 0 });
            assert_eq!(got, want, "stride {stride}, {rows} rows");
        }
    }
    for len in 0..=13usize {
        let mut got = [0u8; 16];
        solid_span(&mut got[1..=len], 9);
        let want: [u8; 16] = core::array::from_fn(|i| if (1..=len).contains(&i) { 9 } else { 0 });
        assert_eq!(got, want, "length {len}");
    }
}

#[test]
fn flat_runs_fill_exactly_their_rows() {
    // 5 wide, 6 tall, stride 7: the last two bytes of each row are
    // padding the fills must not touch.
    let (w, h, stride) = (5usize, 6usize, 7usize);
    let mut buf = [b'|'; 7 * 6];
    for y in 0..h {
        for x in 0..w {
            buf[y * stride + x] = b'.';
        }
    }
    let runs = [
        (0, 0, 6, b'a'),
        (1, 2, 4, b'b'),
        (2, 5, 6, b'c'),
        (3, 3, 3, b'X'), // empty
        (4, 0, 1, b'd'),
        (4, 1, 7, b'Y'), // past the bottom: refused whole
    ];
    for (x, y0, y1, p) in runs {
        fill_flat(
            &mut buf,
            stride,
            FlatRun {
                x,
                y0,
                y1,
                pixel: p,
            },
        );
    }
    assert_eq!(
        text(&buf, stride),
        [
            "a...d||", //
            "a....||", "ab...||", "ab...||", "a....||", "a.c..||",
        ]
    );
}

#[test]
fn tiled_columns_match_a_pixel_by_pixel_wrap() {
    // Every height up to 130 (powers of two and not), steps from 0 to
    // just under the height, runs of every length from 1 to 40 rows
    // with a stride (the power-of-two loop's four-row steps and the
    // rows after them, every remainder): the stretches between wraps
    // give what testing each pixel gives, and no pixel outside the
    // run is written.
    let mut seed = 7u64;
    let mut next = |m: u64| crate::render::tests::xorshift(&mut seed) % m;
    let shade: [u8; 256] = core::array::from_fn(|i| i as u8);
    let texels: [u8; 130] = core::array::from_fn(|i| (i * 7 + 3) as u8);
    for height in 1..=130u32 {
        for rows in 1..=40 {
            let wrap = height << 16;
            let frac = next(wrap as u64) as u32;
            let step = match next(4) {
                0 => 0,
                1 => wrap - 1,
                _ => next(wrap as u64) as u32,
            };
            let stride = 3;
            let run = ColumnRun {
                x: 1,
                y0: 0,
                y1: rows,
                frac,
                step,
                wrap,
            };
            let tex = &texels[..height as usize];
            let mut got = [0u8; 40 * 3];
            let got = &mut got[..rows * stride];
            fill_column(got, stride, run, tex, &shade);
            let mut want = [0u8; 40 * 3];
            let want = &mut want[..rows * stride];
            let mut f = frac;
            for y in 0..rows {
                want[y * stride + 1] = tex[(f >> 16) as usize];
                f += step;
                if f >= wrap {
                    f -= wrap;
                }
            }
            assert_eq!(got, want, "height {height}, frac {frac}, step {step}");
        }
    }
}

#[test]
fn tiled_columns_wrap_at_any_height() {
    // A 3-row texture, one texel per pixel, starting at texel -1
    // (row 2).
    let run = ColumnRun::tiled(0, 0, 6, -(1 << 16), 1 << 16, 3);
    assert_eq!((run.frac, run.step, run.wrap), (2 << 16, 1 << 16, 3 << 16));
    let mut px = [0u8; 6];
    fill_column(&mut px, 1, run, b"abc", &core::array::from_fn(|i| i as u8));
    assert_eq!(&px, b"cabcab");
    // Steps longer than the texture wrap too.
    let run = ColumnRun::tiled(0, 0, 4, 0, 4 << 16, 3);
    fill_column(&mut px, 1, run, b"abc", &core::array::from_fn(|i| i as u8));
    assert_eq!(&px[..4], b"abca");
}

/// A sprite's rows worked out once give each column's run exactly as
/// `once` gives it from the column's own first row: windows, texel
/// rows and steps over the ranges the renderer uses, and past them.
#[test]
fn shown_rows_give_what_once_gives() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: u64| crate::render::tests::xorshift(&mut seed) % n;
    let mut runs = 0;
    for _ in 0..200_000 {
        let height = [1, 4, 64, 72, 128, 200, 4096][next(7) as usize];
        let step = match next(4) {
            0 => 1 + next(1 << 8) as i64,
            1 => 1 + next(1 << 17) as i64,
            2 => 1 + next(1 << 24) as i64,
            _ => (1 << 31) - 2 + next(4) as i64,
        };
        // Mostly near the texture's rows (below 2^28 in 16.16 for
        // 4096 rows), sometimes far off.
        let v0 = match next(4) {
            0 => next(1 << 34) as i64 - (1 << 33),
            _ => next(1 << 29) as i64 - (1 << 28) - (next(769) as i64 * step),
        };
        let y1 = next(769) as usize;
        let y0 = next(y1 as u64 + 1) as usize;
        let shown = MaskedRun::shown_rows(v0, step, height);
        let got = MaskedRun::shown(5, (y0, y1), shown, v0, step);
        let want = MaskedRun::once(5, y0, y1, v0 + y0 as i64 * step, step, height);
        assert_eq!(
            got, want,
            "v0 {v0} step {step} height {height} rows {y0}..{y1}"
        );
        runs += want.is_some() as u32;
    }
    // Enough of them show something for the comparison to mean much.
    assert!(runs > 10_000, "{runs}");
}

#[test]
fn masked_runs_cover_only_the_texture() {
    // Texture rows 0..4 seen from v0 = -2.5 at 1 row per pixel: rows
    // 3..7 of a 0..10 window (texels 0.5, 1.5, 2.5, 3.5).
    let run = MaskedRun::once(0, 0, 10, -(5 << 15), 1 << 16, 4).unwrap();
    assert_eq!((run.y0, run.y1, run.frac), (3, 7, 1 << 15));
    // Starting inside, clipped by the window.
    let run = MaskedRun::once(0, 2, 4, 1 << 16, 1 << 16, 4).unwrap();
    assert_eq!((run.y0, run.y1, run.frac), (2, 4, 1 << 16));
    // Entirely below or above.
    assert_eq!(MaskedRun::once(0, 0, 10, 4 << 16, 1 << 16, 4), None);
    assert_eq!(MaskedRun::once(0, 0, 10, -(20 << 16), 1 << 16, 4), None);
    // Transparent texels are skipped.
    let tex = TextureView {
        width: 1,
        height: 4,
        flags: texture_flag::MASKED,
        transparent: b'.',
        left: 0,
        top: 0,
        pixels: b"a.cd",
    };
    let mut px = [b'-'; 10];
    let run = MaskedRun::once(0, 0, 10, -(5 << 15), 1 << 16, 4).unwrap();
    let texels = masked_column(&tex, 0);
    fill_masked(&mut px, 1, run, texels, &core::array::from_fn(|i| i as u8));
    assert_eq!(&px, b"---a-cd---");
}

#[test]
fn odd_heights_have_a_horizon_row() {
    let mut recip = [0u32; 5];
    build_recip(&mut recip, 10, 5);
    assert_eq!(recip[2], 10 << 17);
    assert_eq!(recip[1], recip[3]);
    assert_eq!(recip[0], (10 << 16) / 4);
}

#[test]
fn a_wall_column_draws_the_same_from_prepared_columns_as_from_the_texture() {
    // Textures of 128, 64, 32, 16 and 8 rows (prepared: a masked
    // index) and of other heights and widths (not prepared), each
    // drawn at random texture columns (negative ones too), texel
    // rows, steps and runs through `fill_wall` with its columns
    // prepared by `WallTexels::of` and left as they are (`Any`, the
    // generic path): the same pixels, and none outside the run.
    let mut seed = 0x7e57_c011_u64;
    let sizes = [
        (64, 128),
        (128, 128),
        (256, 64),
        (8, 64),
        (64, 72),
        (96, 128),
        (1, 128),
        (32, 16),
        (64, 32),
        (32, 8),
        (24, 16),
    ];
    for (width, height) in sizes {
        let all: [u8; 16384] = core::array::from_fn(|i| (i * 13 % 251) as u8);
        let pixels = &all[..width * height];
        let texture = wall_texture(width, height, pixels);
        let prepared = WallTexels::of(texture);
        let expect_prepared = width.is_power_of_two() && [128, 64, 32, 16, 8].contains(&height);
        assert_eq!(
            !matches!(prepared, WallTexels::Any(_)),
            expect_prepared,
            "{width}x{height}"
        );
        let shade: [u16; 256] = core::array::from_fn(|i| i as u16 + 1);
        let (stride, rows) = (3, 40);
        for _ in 0..400 {
            let mut next = || crate::render::tests::xorshift(&mut seed);
            let u = next() as i32 >> 8;
            let v0 = (next() as i64) >> 20;
            let step = 1 + (next() % (4 << 16)) as i64;
            let (y0, y1) = random_run(&mut next, rows);
            let job = ((1, y0, y1), (u, v0, step));
            let mut a = [0u16; 120];
            let mut b = a;
            fill_wall(&mut a, stride, job.0, job.1, &prepared, &shade);
            fill_wall(
                &mut b,
                stride,
                job.0,
                job.1,
                &WallTexels::Any(texture),
                &shade,
            );
            assert_eq!(a, b, "{width}x{height} {job:?}");
            let drawn = a.iter().filter(|&&p| p != 0).count();
            assert_eq!(drawn, y1 - y0, "{width}x{height} {job:?}");
        }
    }
}

#[test]
fn an_opaque_texture_drawn_once_shows_each_rows_texel() {
    // Opaque textures (no clear texel) of 128 and 64 rows, which
    // `fill_masked` draws as wall columns, and of 72 (drawn texel by
    // texel), at random texel rows and steps from `MaskedRun::once`
    // (runs shorter than four rows included, and steps of many
    // texels): each pixel of the run shows the texel of its own row,
    // and no other pixel is written.
    let mut seed = 0x0b5c_0a1e_u64;
    let all: [u8; 128] = core::array::from_fn(|i| (i * 37 % 251) as u8);
    let shade: [u16; 256] = core::array::from_fn(|i| i as u16 + 1);
    let (stride, rows) = (3, 40);
    for height in [128usize, 64, 72] {
        let texels = &all[..height];
        for _ in 0..2000 {
            let mut next = || crate::render::tests::xorshift(&mut seed);
            let (y0, y1) = random_run(&mut next, rows);
            let v0 = ((next() % height as u64) << 16) as i64 - (4 << 16);
            let step = 1 + (next() % (1 << (12 + next() % 12))) as i64;
            let Some(run) = MaskedRun::once(1, y0, y1, v0, step, height as u16) else {
                continue;
            };
            let mut got = [0u16; 120];
            fill_masked(&mut got, stride, run, (texels, u16::MAX), &shade);
            let mut want = [0u16; 120];
            for y in run.y0..run.y1 {
                let v = run.frac as usize + (y - run.y0) * run.step as usize;
                want[y * stride + 1] = shade[texels[v >> 16] as usize];
            }
            assert_eq!(got, want, "{height} {run:?}");
        }
    }
}

#[test]
fn a_wall_column_shows_each_rows_texel_at_any_height() {
    // Textures of heights that are not 128 or 64 (drawn from a
    // window of 128 texels when the run does not wrap, else texel by
    // texel between wraps), at random texture columns, texel rows,
    // steps and runs, wrapping or not: each pixel shows its row's
    // texel of the right column, the rows wrapped into the height,
    // and no other pixel is written.
    let mut seed = 0x0a11_4e16_u64;
    let all: [u8; 16384] = core::array::from_fn(|i| (i * 29 % 251) as u8);
    let shade: [u16; 256] = core::array::from_fn(|i| i as u16 + 1);
    let (stride, rows) = (3, 40);
    for (width, height) in [(64, 72), (16, 96), (32, 24), (8, 100), (4, 200), (3, 72)] {
        let pixels = &all[..width * height];
        let texture = wall_texture(width, height, pixels);
        let texels = WallTexels::of(texture);
        for _ in 0..3000 {
            let mut next = || crate::render::tests::xorshift(&mut seed);
            let u = (next() as i32) >> 20;
            // Half the runs start at the texture's top (as a wall
            // of the texture's height does), half anywhere.
            let v0 = if next() % 2 == 0 {
                (next() % 3) as i64 * 0x4000
            } else {
                (next() as i64) >> 24
            };
            let step = 1 + (next() % (3 << 16)) as i64;
            let (y0, y1) = random_run(&mut next, rows);
            let mut got = [0u16; 120];
            fill_wall(
                &mut got,
                stride,
                (1, y0, y1),
                (u, v0, step),
                &texels,
                &shade,
            );
            let mut want = [0u16; 120];
            let column = u.rem_euclid(width as i32) as usize * height;
            for y in y0..y1 {
                let v = (v0 + (y - y0) as i64 * step).rem_euclid((height as i64) << 16);
                want[y * stride + 1] = shade[pixels[column + (v >> 16) as usize] as usize];
            }
            assert_eq!(
                got, want,
                "{width}x{height} u {u} v0 {v0} step {step} rows {y0}..{y1}"
            );
        }
    }
}

#[test]
fn a_wall_column_is_the_same_at_the_constant_strides_as_at_any() {
    // The loop built for each of CONSTANT_STRIDES (counted steps of four
    // rows, then the remainder's one to four) against a pixel-by-pixel
    // column, as the loop for any stride is: random texture columns,
    // texel rows, steps and runs of 1 to 240 rows, every power-of-two
    // height and one that is not.
    let mut seed = 0x5772_1de5_u64;
    let all: [u8; 16384] = core::array::from_fn(|i| (i * 29 % 251) as u8);
    let shade: [u16; 256] = core::array::from_fn(|i| i as u16 + 1);
    let rows = 240;
    for stride in CONSTANT_STRIDES.into_iter().chain([329]) {
        for (width, height) in [(64, 128), (128, 64), (16, 32), (8, 16), (4, 8), (64, 72)] {
            let pixels = &all[..width * height];
            let texels = WallTexels::of(wall_texture(width, height, pixels));
            for _ in 0..300 {
                let mut next = || crate::render::tests::xorshift(&mut seed);
                let u = (next() as i32) >> 20;
                let v0 = (next() as i64) >> 24;
                let step = 1 + (next() % (3 << 16)) as i64;
                let (y0, y1) = if next() % 4 == 0 {
                    let y0 = (next() % 8) as usize;
                    (y0, y0 + 1 + (next() % 6) as usize)
                } else {
                    random_run(&mut next, rows)
                };
                let x = (next() % stride as u64) as usize;
                let mut got = vec![0u16; stride * rows];
                fill_wall(
                    &mut got,
                    stride,
                    (x, y0, y1),
                    (u, v0, step),
                    &texels,
                    &shade,
                );
                let mut want = vec![0u16; stride * rows];
                let column = u.rem_euclid(width as i32) as usize * height;
                for y in y0..y1 {
                    let v = (v0 + (y - y0) as i64 * step).rem_euclid((height as i64) << 16);
                    want[y * stride + x] = shade[pixels[column + (v >> 16) as usize] as usize];
                }
                assert!(
                    got == want,
                    "stride {stride}, {width}x{height} u {u} v0 {v0} step {step} rows {y0}..{y1}"
                );
            }
        }
    }
}
