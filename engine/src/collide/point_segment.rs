//! The closest point on a segment to a point.

use crate::math::{WVec, Wide};

/// Where on a segment the closest point landed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SegmentLocation {
    /// At the start point (the point lies in the start's Voronoi region).
    OnStart,
    /// At the end point.
    OnEnd,
    /// Strictly between the two.
    OnEdge,
}

/// The closest point on a segment, and where it lies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PointProjection {
    /// The closest point.
    pub point: WVec,
    /// Which feature of the segment it is on.
    pub location: SegmentLocation,
}

/// Projects `p` onto the segment `a`-`b` (three Voronoi regions: before
/// `a`, after `b`, and the edge between). A zero-length segment projects
/// everything onto `a`.
pub fn project_point_segment(p: WVec, a: WVec, b: WVec) -> PointProjection {
    let ab = b.sub(a);
    let ap = p.sub(a);
    let along = ab.dot(ap);
    if along <= Wide::ZERO {
        return PointProjection {
            point: a,
            location: SegmentLocation::OnStart,
        };
    }
    let len2 = ab.length_squared();
    if along >= len2 {
        return PointProjection {
            point: b,
            location: SegmentLocation::OnEnd,
        };
    }
    // 0 < along < len2, so len2 > 0 and the point lies strictly inside.
    // Multiply before dividing, in 128 bits (|ab| < 2^33 raw, along <
    // 2^50 raw), rounding to nearest: a wide `along / len2` would round
    // the fraction to 16 bits first and miss by up to |ab| / 65536.
    let (num, den) = (along.to_bits() as i128, len2.to_bits() as i128);
    let part = |d: Wide| {
        let p = d.to_bits() as i128 * num;
        let q = (p + p.signum() * den / 2) / den;
        Wide::from_bits(q as i64)
    };
    PointProjection {
        point: a.add(WVec::new(part(ab.x), part(ab.y))),
        location: SegmentLocation::OnEdge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: i32, y: i32) -> WVec {
        WVec::new(Wide::from_num(x), Wide::from_num(y))
    }

    #[test]
    fn the_three_regions() {
        let (a, b) = (v(0, 0), v(10, 0));
        let before = project_point_segment(v(-3, 4), a, b);
        assert_eq!(
            (before.point, before.location),
            (a, SegmentLocation::OnStart)
        );
        let after = project_point_segment(v(13, -4), a, b);
        assert_eq!((after.point, after.location), (b, SegmentLocation::OnEnd));
        let mid = project_point_segment(v(4, 7), a, b);
        assert_eq!(
            (mid.point, mid.location),
            (v(4, 0), SegmentLocation::OnEdge)
        );
    }

    #[test]
    fn degenerate_segment_projects_to_its_point() {
        let p = project_point_segment(v(5, 5), v(1, 1), v(1, 1));
        assert_eq!(p.point, v(1, 1));
    }
}
