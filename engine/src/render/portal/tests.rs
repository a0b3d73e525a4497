//! Tests of the camera view and its exact arithmetic: each fast form
//! against a division or a search.
use super::*;

/// A plane continues behind a portal only when the sector behind has
/// the same height, texture, colour and light, and an opening.
#[test]
fn a_plane_continues_only_into_the_same_plane_through_an_opening() {
    let here = Sector {
        floor: Fx::from_num(0),
        ceiling: Fx::from_num(128),
        light: 160,
        floor_color: 1,
        ceiling_color: 2,
        wall_color: 3,
        floor_texture: 4,
        ceiling_texture: 5,
    };
    for ceiling in [false, true] {
        assert!(plane_continues(&here, &here, ceiling));
        let same = |s: &Sector| plane_continues(&here, s, ceiling);
        // The other plane may differ.
        let mut other = here;
        if ceiling {
            other.floor = Fx::from_num(24);
            other.floor_texture = 9;
        } else {
            other.ceiling = Fx::from_num(96);
            other.ceiling_texture = 9;
        }
        assert!(same(&other));
        let changed: [fn(&mut Sector); 4] = [
            |s| s.light = 150,
            |s| {
                s.floor = Fx::from_num(8);
                s.ceiling = Fx::from_num(136);
            },
            |s| {
                s.floor_texture = 7;
                s.ceiling_texture = 7;
            },
            |s| {
                s.floor_color = 7;
                s.ceiling_color = 7;
            },
        ];
        for (i, change) in changed.iter().enumerate() {
            let mut there = here;
            change(&mut there);
            assert!(!same(&there), "change {i}, ceiling {ceiling}");
        }
        // Shut behind (a door: floor and ceiling meet), the plane
        // itself unchanged.
        let mut shut = here;
        if ceiling {
            shut.floor = shut.ceiling;
        } else {
            shut.ceiling = shut.floor;
        }
        assert!(!same(&shut), "shut, ceiling {ceiling}");
    }
}

/// A small deterministic generator.
fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 11
}

/// The view from the origin facing east (+x), eye at 0, on a
/// `width` x `height` screen.
fn facing_east(width: i64, height: i64) -> View<'static> {
    View {
        px: 0,
        py: 0,
        fx: 1 << 16,
        fy: 0,
        rx: 0,
        ry: -1 << 16,
        eye: 0,
        angle: 0,
        width,
        height,
        focal_width: width,
        slope_magic: (1u128 << 64).div_ceil(width as u128),
        per_row_magic: (1u128 << 64).div_ceil(width as u128),
        sky_step: (320 << 16) / width,
        sector: None,
        sky: None,
        edge_rays: ((0, 0), (0, 0)),
        routes: crate::render::Routes::default(),
        division: Division::Integer,
    }
    .with_edge_rays()
}

#[test]
fn wide_pixels_keep_the_columns_rays_and_the_rows_of_twice_the_width() {
    let (narrow, wide, square) = (
        facing_east(160, 120),
        facing_east(160, 120).with_wide_pixels(),
        facing_east(320, 120),
    );
    for x in 0..160 {
        assert_eq!(wide.slope(x), narrow.slope(x), "column {x}");
        assert_eq!(wide.ray(x), narrow.ray(x), "column {x}");
    }
    for depth in [MIN_DEPTH, 1 << 16, 37 << 16, 1000 << 16, 1 << 40, 1 << 50] {
        assert_eq!(wide.per_row(depth), square.per_row(depth), "depth {depth}");
        let inv = Inverse::of(depth, Division::Integer);
        for dh in [-(41i64 << 16), -1, 0, 1, 7 << 16, 1 << 32] {
            assert_eq!(
                wide.project_inv(dh, inv),
                square.project_inv(dh, inv),
                "{dh} {depth}"
            );
            assert_eq!(wide.project_rel(dh, depth), square.project_rel(dh, depth));
        }
    }
    assert_eq!(wide.sky_step, square.sky_step);
    assert_ne!(wide.per_row(1000 << 16), narrow.per_row(1000 << 16));
    let rows = super::super::draw::recip_rows;
    assert!(rows(wide.focal_width as usize, 120).eq(rows(320, 120)));
}

#[test]
fn a_sky_column_and_its_mirror_are_those_worked_out_one_by_one() {
    // At every width up to the widest screen, at angles all round.
    let mut seed = 5;
    for width in 1..=crate::config::MAX_SCREEN_WIDTH as i64 {
        let mut view = facing_east(width, 8);
        for _ in 0..3 {
            view.angle = (next(&mut seed) % (720 << 16)) as i64 - (360 << 16);
            for x in 0..width as usize {
                let mirror = width as usize - 1 - x;
                assert_eq!(
                    view.sky_column_pair(x),
                    (view.sky_column(x), view.sky_column(mirror)),
                    "width {width}, angle {}, column {x}",
                    view.angle
                );
            }
        }
    }
}

#[test]
fn inverses_divide_exactly() {
    let mut seed = 11;
    for _ in 0..50000 {
        let d = (next(&mut seed) >> (next(&mut seed) % 53)).max(1);
        let n = next(&mut seed) << 10 >> (next(&mut seed) % 63);
        for (n, d) in [
            (n, d),
            (n, 1),
            (d - 1, d),
            (d, d),
            ((1 << 63) - 1, d),
            (n, (1 << 47) - 1),
        ] {
            assert_eq!(
                Inverse::new(d, Division::Integer).divide(n),
                n / d,
                "{n} / {d}"
            );
        }
    }
}

#[test]
fn projections_by_inverse_match_division() {
    let mut seed = 13;
    for width in [1i64, 7, 320, 1024] {
        let v = facing_east(width, 200);
        for _ in 0..20000 {
            let dh = (next(&mut seed) as i64 >> (next(&mut seed) % 50)) - (1 << 32);
            let dh = dh.clamp(-(1 << 33) + 1, (1 << 33) - 1);
            let depth = (next(&mut seed) as i64 >> (next(&mut seed) % 53)).max(MIN_DEPTH);
            for depth in [depth, MIN_DEPTH, MAX_DEPTH] {
                assert_eq!(
                    v.project_inv(dh, Inverse::of(depth, Division::Integer)),
                    v.project_rel(dh, depth),
                    "{dh} {depth} {width}"
                );
            }
        }
    }
}

#[test]
fn depths_divide_exactly() {
    let mut seed = 3;
    for _ in 0..20000 {
        let bits = next(&mut seed) as u32 % 67;
        let num = (next(&mut seed) as i128 * next(&mut seed) as i128) >> (106 - bits.min(106));
        let den = (next(&mut seed) as i128 >> (next(&mut seed) % 53)).max(1);
        for (num, den) in [(num, den), (-num, den), (num, 1), (num, den << 4)] {
            let d = Depth {
                num,
                den: den as u64,
            };
            let want = ((num << 16) / den).clamp(MIN_DEPTH as i128, MAX_DEPTH as i128) as i64;
            assert_eq!(d.bits(Division::Integer), want, "{num} / {den}");
        }
    }
}

#[test]
fn texel_steps_divide_exactly() {
    let mut seed = 5;
    for width in [1i64, 2, 3, 7, 160, 320, 321, 640, 1023, 1024] {
        let v = facing_east(width, 200);
        let view = |depth: i64| v.per_row(depth);
        for _ in 0..5000 {
            let depth = next(&mut seed) as i64 >> (next(&mut seed) % 53);
            for d in [depth, depth + 1, (1 << 40) - 1, 1 << 40, MIN_DEPTH] {
                assert_eq!(view(d), ((d * 2) / width).max(1), "{d} {width}");
                if (MIN_DEPTH..=MAX_DEPTH).contains(&d) {
                    assert_eq!(v.per_row_within(d), (d * 2) / width, "{d} {width}");
                }
            }
        }
    }
}

#[test]
fn arctangents_match_a_search_of_the_sine_table() {
    let search = |k: i64| {
        let (mut lo, mut hi) = (0i64, 45 * 64);
        while lo < hi {
            let mid = (lo + hi + 1) / 2;
            let (c, s) =
                crate::math::Angle::from_degrees(Fx::from_bits((mid << 10) as i32)).cos_sin();
            if ((s.to_bits() as i64) << 16) <= k * c.to_bits() as i64 {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo << 10
    };
    for k in (0..=1 << 16)
        .step_by(7)
        .chain([1 << 16, (1 << 16) - 1, 1, 2])
    {
        assert_eq!(atan_degrees(k), search(k), "{k}");
    }
}
