//! Where a moving point's path crosses a wall.

use crate::math::{WVec, Wide};

/// A path `from -> to` crossing a wall.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// How far along the path, from 0 (at `from`) to 1 (at `to`).
    pub t: Wide,
    /// The crossing is at one of the wall's end points, or the path
    /// starts on the wall's line: which side the path ends on is then a
    /// question for the walls meeting there, not for this one alone.
    pub at_end: bool,
}

/// Whether `p` lies on the segment `a`-`b` (exactly: on its line and
/// within its extent).
pub fn point_on_segment(p: WVec, a: WVec, b: WVec) -> bool {
    let ab = b.sub(a);
    if ab.cross(p.sub(a)) != Wide::ZERO {
        return false;
    }
    let along = ab.dot(p.sub(a));
    along >= Wide::ZERO && along <= ab.length_squared()
}

/// Whether the path `from -> to` crosses the segment `a`-`b` from one side
/// of its line to the other. Ending exactly on the line is not a crossing
/// (the point is still on its side); starting exactly on it is one if the
/// path leaves to the side `start_side` says it was not on (`start_side`:
/// the sign of the side the mover counts itself on, used only then).
pub fn path_crosses_segment(
    from: WVec,
    to: WVec,
    a: WVec,
    b: WVec,
    start_side: i8,
) -> Option<Crossing> {
    let ab = b.sub(a);
    let side_from = ab.cross(from.sub(a));
    let side_to = ab.cross(to.sub(a));
    let sign = |v: Wide| (v > Wide::ZERO) as i8 - (v < Wide::ZERO) as i8;
    let (sf, st) = (sign(side_from), sign(side_to));
    if st == 0 {
        return None;
    }
    let effective_from = if sf == 0 { start_side } else { sf };
    if effective_from == st || effective_from == 0 && sf == 0 {
        return None;
    }
    // The wall's end points must straddle (or touch) the path's line.
    let path = to.sub(from);
    let ca = sign(path.cross(a.sub(from)));
    let cb = sign(path.cross(b.sub(from)));
    if ca == cb && ca != 0 {
        return None;
    }
    let denom = side_from - side_to;
    let t = if denom == Wide::ZERO {
        Wide::ZERO
    } else {
        (side_from / denom).clamp(Wide::ZERO, Wide::ONE)
    };
    Some(Crossing {
        t,
        at_end: ca == 0 || cb == 0 || sf == 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: i32, y: i32) -> WVec {
        WVec::new(Wide::from_num(x), Wide::from_num(y))
    }

    #[test]
    fn crossing_in_the_middle() {
        let c = path_crosses_segment(v(0, -5), v(0, 15), v(-10, 0), v(10, 0), 0).unwrap();
        assert_eq!(c.t, Wide::from_num(0.25));
    }

    #[test]
    fn passing_beside_the_segment_is_no_crossing() {
        assert!(path_crosses_segment(v(20, -5), v(20, 5), v(-10, 0), v(10, 0), 0).is_none());
    }

    #[test]
    fn ending_on_the_line_is_no_crossing_but_leaving_it_is() {
        assert!(path_crosses_segment(v(0, -5), v(0, 0), v(-10, 0), v(10, 0), 0).is_none());
        // Starting on the line, counted on the right (negative) side,
        // moving left: a crossing at t = 0.
        let (a, b) = (v(-10, 0), v(10, 0));
        let left = path_crosses_segment(v(0, 0), v(0, 5), a, b, -1).unwrap();
        assert_eq!(left.t, Wide::ZERO);
        assert!(path_crosses_segment(v(0, 0), v(0, -5), a, b, -1).is_none());
    }
}
