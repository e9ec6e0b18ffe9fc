//! Sets of board points as bits: one `u64` per board row.
//!
//! A row of at most 52 points fits one word, so the horizontal neighbours of a set are a shift by one
//! bit and the vertical neighbours are the words above and below: flood fills and liberty tests are
//! a handful of word operations per row touched, on every board size from 1×1 to 52×52 with one code
//! path. Two always-empty guard rows (one above the board, one below) let the code read the rows next
//! to any board row without a bounds branch; bits at or beyond the board width are never set.

use std::fmt;

use sgf::{Point, MAX_SIZE};

/// Words stored: the 52 possible board rows plus one guard row above and one below.
pub(crate) const ROWS: usize = MAX_SIZE as usize + 2;

/// A set of points, row by row: bit `x` of [`Bitboard::row`]`(y)` is the point `(x, y)`.
///
/// Equality and hashing compare the sets; a bit board does not know its board size.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Bitboard {
    /// `rows[y + 1]` holds board row `y`; `rows[0]` and `rows[ROWS - 1]` stay zero.
    pub(crate) rows: [u64; ROWS],
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard { rows: [0; ROWS] };

    /// Every point of a `width`×`height` board (both clamped to 0..=52).
    pub fn full(width: u8, height: u8) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        let mask = row_mask(width);
        for y in 0..height.min(MAX_SIZE) as usize {
            b.rows[y + 1] = mask;
        }
        b
    }

    /// Whether `p` is in the set (points beyond 52×52 never are).
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x < MAX_SIZE && p.y < MAX_SIZE && self.rows[p.y as usize + 1] >> p.x & 1 != 0
    }

    /// Adds `p`; returns whether it was absent. Points beyond 52×52 are ignored (returns `false`).
    pub fn insert(&mut self, p: Point) -> bool {
        if p.x >= MAX_SIZE || p.y >= MAX_SIZE {
            return false;
        }
        let row = &mut self.rows[p.y as usize + 1];
        let bit = 1u64 << p.x;
        let absent = *row & bit == 0;
        *row |= bit;
        absent
    }

    /// Removes `p`; returns whether it was present.
    pub fn remove(&mut self, p: Point) -> bool {
        if p.x >= MAX_SIZE || p.y >= MAX_SIZE {
            return false;
        }
        let row = &mut self.rows[p.y as usize + 1];
        let bit = 1u64 << p.x;
        let present = *row & bit != 0;
        *row &= !bit;
        present
    }

    /// Row `y` as bits (bit `x` = column `x`); 0 for rows beyond 52. Pattern matchers can test a
    /// whole row of a diagram with one mask this way.
    #[inline]
    pub fn row(&self, y: u8) -> u64 {
        if y < MAX_SIZE {
            self.rows[y as usize + 1]
        } else {
            0
        }
    }

    /// Number of points in the set.
    pub fn len(&self) -> usize {
        self.rows.iter().map(|r| r.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// The points, row by row from the top, left to right in each row.
    pub fn iter(&self) -> Points<'_> {
        Points {
            rows: &self.rows,
            y: 0,
            bits: 0,
        }
    }

    /// Whether every point lies on a `width`×`height` board.
    pub fn fits(&self, width: u8, height: u8) -> bool {
        let mask = row_mask(width);
        self.rows
            .iter()
            .enumerate()
            .all(|(i, &r)| r == 0 || (i >= 1 && i <= height as usize && r & !mask == 0))
    }
}

impl Default for Bitboard {
    fn default() -> Self {
        Bitboard::EMPTY
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|p| p.sgf_string()))
            .finish()
    }
}

impl<'a> IntoIterator for &'a Bitboard {
    type Item = Point;
    type IntoIter = Points<'a>;
    fn into_iter(self) -> Points<'a> {
        self.iter()
    }
}

impl FromIterator<Point> for Bitboard {
    /// Collects points; those beyond 52×52 are dropped.
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Self {
        let mut b = Bitboard::EMPTY;
        for p in iter {
            b.insert(p);
        }
        b
    }
}

/// Iterator over the points of a [`Bitboard`], in row-major order.
#[derive(Clone, Debug)]
pub struct Points<'a> {
    rows: &'a [u64; ROWS],
    /// Index into `rows` of the row `bits` came from.
    y: usize,
    bits: u64,
}

impl Iterator for Points<'_> {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        while self.bits == 0 {
            self.y += 1;
            if self.y >= ROWS - 1 {
                return None;
            }
            self.bits = self.rows[self.y];
        }
        let x = self.bits.trailing_zeros() as u8;
        self.bits &= self.bits - 1;
        Some(Point::new(x, (self.y - 1) as u8))
    }
}

/// The bits of the columns of a board `width` wide (clamped to 52).
#[inline]
pub(crate) fn row_mask(width: u8) -> u64 {
    (1u64 << width.min(MAX_SIZE)) - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_iterate_remove() {
        let pts = [
            Point::new(3, 0),
            Point::new(0, 0),
            Point::new(51, 51),
            Point::new(2, 7),
        ];
        let mut b: Bitboard = pts.iter().copied().collect();
        assert_eq!(b.len(), 4);
        let got: Vec<Point> = b.iter().collect();
        assert_eq!(got, vec![pts[1], pts[0], pts[3], pts[2]]);
        assert!(b.contains(Point::new(51, 51)));
        assert!(!b.contains(Point::new(52, 0)));
        assert!(!b.insert(Point::new(60, 0)));
        assert!(b.remove(Point::new(51, 51)));
        assert!(!b.remove(Point::new(51, 51)));
        assert_eq!(b.len(), 3);
        assert!(b.fits(4, 8));
        assert!(!b.fits(3, 8));
        assert!(!b.fits(4, 7));
        assert_eq!(Bitboard::full(52, 52).len(), 2704);
        assert!(Bitboard::EMPTY.is_empty());
    }
}
