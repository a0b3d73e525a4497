//! The blockmap: a grid of square blocks, each listing the walls that touch
//! it. It is the broadphase for collision and point location.
//!
//! The rule for which blocks list a wall is defined here once and used by
//! both the compiler (to build the lists) and the loader (to check them):
//! a wall is listed in every block whose closed square its segment comes
//! within [`PAD`] of. The padding makes the rule conservative under
//! fixed-point rounding, so "every wall that touches a block is listed in
//! it" holds exactly, and a query that visits every block its box overlaps
//! finds every wall that comes inside the box. DOOM's broadphase looked only
//! at the block under a thing's centre line in places and missed walls;
//! queries here always cover the whole box.
//!
//! Solid things have lists of their own over the same grid (DOOM links
//! its things into the blockmap too): a thing is listed in every block its
//! bounding square, padded by [`PAD`], overlaps
//! ([`blocks_touching_disc`]).

use crate::math::{wide, Fx, Vec2, Wide};

/// Slack, in map units, added around a segment when deciding which blocks
/// it touches.
pub const PAD: Fx = Fx::lit("0.00390625");

/// The geometry of the grid.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    /// West edge, whole map units.
    pub origin_x: i32,
    /// South edge, whole map units.
    pub origin_y: i32,
    /// Block edge, map units.
    pub block_size: u16,
    /// Blocks from west to east.
    pub cols: u16,
    /// Blocks from south to north.
    pub rows: u16,
}

impl Grid {
    /// Number of blocks.
    pub fn block_count(&self) -> usize {
        self.cols as usize * self.rows as usize
    }

    fn cell(&self, v: Wide, origin: i32) -> i64 {
        let rel = v.to_bits() - ((origin as i64) << 16);
        let size = (self.block_size.max(1) as i64) << 16;
        rel.div_euclid(size)
    }

    /// Column of x, unclamped.
    pub fn col_of(&self, x: Wide) -> i64 {
        self.cell(x, self.origin_x)
    }

    /// Row of y, unclamped.
    pub fn row_of(&self, y: Wide) -> i64 {
        self.cell(y, self.origin_y)
    }

    /// The block holding `p`, if it is inside the grid.
    pub fn block_of(&self, p: Vec2) -> Option<usize> {
        let c = self.col_of(wide(p.x));
        let r = self.row_of(wide(p.y));
        if c < 0 || r < 0 || c >= self.cols as i64 || r >= self.rows as i64 {
            None
        } else {
            Some(r as usize * self.cols as usize + c as usize)
        }
    }

    /// The inclusive column and row ranges of blocks that the box
    /// `[min, max]` overlaps, clamped to the grid; `None` if the box misses
    /// the grid entirely.
    pub fn blocks_in_box(&self, min: (Wide, Wide), max: (Wide, Wide)) -> Option<BlockRange> {
        let c0 = self.col_of(min.0).max(0);
        let r0 = self.row_of(min.1).max(0);
        let c1 = self.col_of(max.0).min(self.cols as i64 - 1);
        let r1 = self.row_of(max.1).min(self.rows as i64 - 1);
        if c0 > c1 || r0 > r1 {
            return None;
        }
        Some(BlockRange {
            c0: c0 as u16,
            r0: r0 as u16,
            c1: c1 as u16,
            r1: r1 as u16,
        })
    }
}

/// An inclusive rectangle of blocks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BlockRange {
    /// First column.
    pub c0: u16,
    /// First row.
    pub r0: u16,
    /// Last column.
    pub c1: u16,
    /// Last row.
    pub r1: u16,
}

impl BlockRange {
    /// Whether block `block` of a grid `cols` wide is in the range.
    pub fn contains(&self, block: usize, cols: u16) -> bool {
        let cols = usize::from(cols.max(1));
        let (r, c) = (block / cols, block % cols);
        (usize::from(self.r0)..=usize::from(self.r1)).contains(&r)
            && (usize::from(self.c0)..=usize::from(self.c1)).contains(&c)
    }

    /// Every block of the range, row by row, as indices into a grid
    /// `cols` wide.
    pub fn blocks(&self, cols: u16) -> impl Iterator<Item = usize> {
        let (c0, c1) = (usize::from(self.c0), usize::from(self.c1));
        let cols = usize::from(cols);
        (usize::from(self.r0)..=usize::from(self.r1))
            .flat_map(move |r| (c0..=c1).map(move |c| r * cols + c))
    }

    /// Number of blocks in the range.
    pub fn len(&self) -> usize {
        (self.c1 - self.c0 + 1) as usize * (self.r1 - self.r0 + 1) as usize
    }

    /// Never empty (an empty range is `None` from [`Grid::blocks_in_box`]).
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// The blocks a disc of `radius` around `centre` is listed in: every
/// block its bounding square, padded by [`PAD`], overlaps, clamped to the
/// grid; `None` if the square misses the grid.
pub fn blocks_touching_disc(grid: &Grid, centre: Vec2, radius: Fx) -> Option<BlockRange> {
    let reach = wide(radius) + wide(PAD);
    let (x, y) = (wide(centre.x), wide(centre.y));
    grid.blocks_in_box((x - reach, y - reach), (x + reach, y + reach))
}

/// Calls `f` with the index of every block the segment `a`-`b` touches
/// (padded by [`PAD`]), each once, row by row. Blocks outside the grid are
/// skipped.
pub fn for_each_block_touching_segment(grid: &Grid, a: Vec2, b: Vec2, mut f: impl FnMut(usize)) {
    if grid.cols == 0 || grid.rows == 0 {
        return;
    }
    let pad = wide(PAD);
    let (ax, ay, bx, by) = (wide(a.x), wide(a.y), wide(b.x), wide(b.y));
    let (ymin, ymax) = (ay.min(by), ay.max(by));
    let (xmin, xmax) = (ax.min(bx), ax.max(bx));
    let size = Wide::from_num(grid.block_size);
    let r0 = grid.row_of(ymin - pad).max(0);
    let r1 = grid.row_of(ymax + pad).min(grid.rows as i64 - 1);
    let mut r = r0;
    while r <= r1 {
        let band_lo = Wide::from_num(grid.origin_y) + size * Wide::from_num(r);
        let band_hi = band_lo + size;
        let lo = (band_lo - pad).max(ymin);
        let hi = (band_hi + pad).min(ymax);
        let (x_lo, x_hi) = if by == ay {
            (xmin, xmax)
        } else {
            // x along the segment at the band's two edges; x is linear in y,
            // so these bound the segment's x extent inside the band.
            let at = |y: Wide| ax + (y - ay) * (bx - ax) / (by - ay);
            let (p, q) = (at(lo), at(hi));
            (p.min(q).max(xmin), p.max(q).min(xmax))
        };
        let c0 = grid.col_of(x_lo - pad).max(0);
        let c1 = grid.col_of(x_hi + pad).min(grid.cols as i64 - 1);
        let mut c = c0;
        while c <= c1 {
            f(r as usize * grid.cols as usize + c as usize);
            c += 1;
        }
        r += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    fn grid() -> Grid {
        Grid {
            origin_x: 0,
            origin_y: 0,
            block_size: 64,
            cols: 4,
            rows: 4,
        }
    }

    fn blocks(a: (i32, i32), b: (i32, i32)) -> Vec<usize> {
        let mut v = Vec::new();
        for_each_block_touching_segment(
            &grid(),
            Vec2::from_int(a.0, a.1),
            Vec2::from_int(b.0, b.1),
            |i| v.push(i),
        );
        v
    }

    #[test]
    fn a_short_wall_inside_one_block() {
        assert_eq!(blocks((10, 10), (20, 30)), [0]);
    }

    #[test]
    fn a_diagonal_visits_the_blocks_it_crosses_not_the_bounding_box() {
        // From (1,1) to (255,255): the diagonal blocks, plus the corner
        // neighbours it touches exactly at block corners.
        let b = blocks((1, 1), (255, 255));
        for d in [0, 5, 10, 15] {
            assert!(b.contains(&d), "{b:?}");
        }
        assert!(!b.contains(&3) && !b.contains(&12), "{b:?}");
    }

    #[test]
    fn a_wall_on_a_block_edge_is_listed_on_both_sides() {
        // x = 64 is the edge between columns 0 and 1.
        let b = blocks((64, 10), (64, 20));
        assert_eq!(b, [0, 1]);
    }

    #[test]
    fn box_queries_clamp_to_the_grid() {
        let g = grid();
        let r = g
            .blocks_in_box(
                (Wide::from_num(-100), Wide::from_num(-5)),
                (Wide::from_num(70), Wide::from_num(10)),
            )
            .unwrap();
        assert_eq!((r.c0, r.r0, r.c1, r.r1), (0, 0, 1, 0));
        assert!(g
            .blocks_in_box(
                (Wide::from_num(300), Wide::from_num(0)),
                (Wide::from_num(400), Wide::from_num(10))
            )
            .is_none());
    }
}
