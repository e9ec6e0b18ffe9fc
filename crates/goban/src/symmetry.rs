//! The eight symmetries of a square board, four of which also keep a rectangle.
//!
//! A symmetry is stored as three independent bits — mirror the columns, mirror the rows, then swap
//! the axes — which makes composition and inversion a few bit operations and gives the variants a
//! fixed order: the first four ([`Symmetry::KEEPS_SHAPE`]) never swap the axes, so they are exactly
//! the symmetries of a rectangular board.

use sgf::Point;

const FLIP_X: u8 = 1;
const FLIP_Y: u8 = 2;
const SWAP: u8 = 4;

/// One of the 8 transformations of the square. Directions are as seen on screen (row 0 at the top).
///
/// Applied to a point `(x, y)` of a `width`×`height` board: first mirror `x` if asked, then mirror `y`,
/// then swap the axes if asked (the image lives on a `height`×`width` board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Symmetry {
    /// `(x, y)`.
    Identity = 0,
    /// Mirror left–right: `(w-1-x, y)`.
    FlipX = FLIP_X,
    /// Mirror top–bottom: `(x, h-1-y)`.
    FlipY = FLIP_Y,
    /// Half turn: `(w-1-x, h-1-y)`.
    Rotate180 = FLIP_X | FLIP_Y,
    /// Mirror in the main diagonal: `(y, x)`.
    Transpose = SWAP,
    /// Quarter turn counter-clockwise: `(y, w-1-x)`.
    Rotate270 = SWAP | FLIP_X,
    /// Quarter turn clockwise: `(h-1-y, x)`.
    Rotate90 = SWAP | FLIP_Y,
    /// Mirror in the anti-diagonal: `(h-1-y, w-1-x)`.
    AntiTranspose = SWAP | FLIP_X | FLIP_Y,
}

impl Symmetry {
    /// All eight, in index order ([`Symmetry::index`]).
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::Rotate270,
        Symmetry::Rotate90,
        Symmetry::AntiTranspose,
    ];

    /// The four that keep the axes, hence the symmetries of a rectangle.
    pub const KEEPS_SHAPE: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::Rotate180,
    ];

    /// The symmetries of a `width`×`height` board: all 8 on a square, the 4 of [`Symmetry::KEEPS_SHAPE`]
    /// on a rectangle.
    pub fn of_board(width: u8, height: u8) -> &'static [Symmetry] {
        if width == height {
            &Symmetry::ALL
        } else {
            &Symmetry::KEEPS_SHAPE
        }
    }

    /// Position in [`Symmetry::ALL`], 0..8; hash arrays are indexed by it.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The symmetry at `index` in [`Symmetry::ALL`] (taken modulo 8).
    #[inline]
    pub const fn from_index(index: usize) -> Symmetry {
        Symmetry::ALL[index & 7]
    }

    /// Whether the axes are swapped (the image of a `w`×`h` board is `h`×`w`).
    #[inline]
    pub const fn swaps_axes(self) -> bool {
        self as u8 & SWAP != 0
    }

    /// Size `(width, height)` of the image of a `width`×`height` board.
    #[inline]
    pub const fn image_size(self, width: u8, height: u8) -> (u8, u8) {
        if self.swaps_axes() {
            (height, width)
        } else {
            (width, height)
        }
    }

    /// The image of `p`, a point of a `width`×`height` board. For points off that board the result is
    /// meaningless (coordinates wrap) but nothing panics.
    #[inline]
    pub const fn apply(self, p: Point, width: u8, height: u8) -> Point {
        let bits = self as u8;
        let x = if bits & FLIP_X != 0 {
            width.wrapping_sub(1).wrapping_sub(p.x)
        } else {
            p.x
        };
        let y = if bits & FLIP_Y != 0 {
            height.wrapping_sub(1).wrapping_sub(p.y)
        } else {
            p.y
        };
        if bits & SWAP != 0 {
            Point::new(y, x)
        } else {
            Point::new(x, y)
        }
    }

    /// The symmetry that undoes this one: `s.inverse().apply(s.apply(p, w, h), s.image_size(w, h))`
    /// is `p`.
    #[inline]
    pub const fn inverse(self) -> Symmetry {
        let b = self as u8;
        if b & SWAP != 0 {
            // Swapping moves the x-mirror onto y and back.
            Symmetry::from_index((SWAP | (b & FLIP_X) << 1 | (b & FLIP_Y) >> 1) as usize)
        } else {
            self
        }
    }

    /// `self` first, then `next` (on the image board): `s.then(t).apply(p, w, h)` equals
    /// `t.apply(s.apply(p, w, h), ..s.image_size(w, h))`.
    #[inline]
    pub const fn then(self, next: Symmetry) -> Symmetry {
        let a = self as u8;
        let mut b = next as u8;
        if a & SWAP != 0 {
            // After a swap, `next`'s column mirror acts on what were rows, and vice versa.
            b = (b & SWAP) | (b & FLIP_X) << 1 | (b & FLIP_Y) >> 1;
        }
        Symmetry::from_index((a ^ b) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_points(w: u8, h: u8) -> impl Iterator<Item = Point> {
        (0..h).flat_map(move |y| (0..w).map(move |x| Point::new(x, y)))
    }

    #[test]
    fn named_maps() {
        let (w, h) = (5, 3);
        let p = Point::new(1, 0);
        assert_eq!(Symmetry::Identity.apply(p, w, h), Point::new(1, 0));
        assert_eq!(Symmetry::FlipX.apply(p, w, h), Point::new(3, 0));
        assert_eq!(Symmetry::FlipY.apply(p, w, h), Point::new(1, 2));
        assert_eq!(Symmetry::Rotate180.apply(p, w, h), Point::new(3, 2));
        assert_eq!(Symmetry::Transpose.apply(p, w, h), Point::new(0, 1));
        // Clockwise: the top-left corner goes to the top-right one.
        assert_eq!(
            Symmetry::Rotate90.apply(Point::new(0, 0), w, h),
            Point::new(2, 0)
        );
        assert_eq!(
            Symmetry::Rotate270.apply(Point::new(0, 0), w, h),
            Point::new(0, 4)
        );
        assert_eq!(
            Symmetry::AntiTranspose.apply(Point::new(0, 0), w, h),
            Point::new(2, 4)
        );
    }

    #[test]
    fn bijective_inverse_and_composition() {
        for (w, h) in [(1, 1), (5, 3), (4, 7), (19, 19), (52, 51)] {
            for s in Symmetry::ALL {
                let (w2, h2) = s.image_size(w, h);
                let mut seen = std::collections::HashSet::new();
                for p in all_points(w, h) {
                    let q = s.apply(p, w, h);
                    assert!(q.x < w2 && q.y < h2);
                    assert!(seen.insert(q));
                    assert_eq!(s.inverse().apply(q, w2, h2), p);
                    for t in Symmetry::ALL {
                        let (w3, h3) = t.image_size(w2, h2);
                        let r = t.apply(q, w2, h2);
                        assert_eq!(s.then(t).apply(p, w, h), r, "{s:?} then {t:?}");
                        assert_eq!(s.then(t).image_size(w, h), (w3, h3));
                    }
                }
                assert_eq!(s.then(s.inverse()), Symmetry::Identity);
                assert_eq!(s.inverse().then(s), Symmetry::Identity);
            }
        }
    }

    #[test]
    fn rectangle_group_is_closed() {
        for s in Symmetry::KEEPS_SHAPE {
            assert!(!s.swaps_axes());
            assert!(Symmetry::KEEPS_SHAPE.contains(&s.inverse()));
            for t in Symmetry::KEEPS_SHAPE {
                assert!(Symmetry::KEEPS_SHAPE.contains(&s.then(t)));
            }
        }
        assert_eq!(Symmetry::of_board(19, 13).len(), 4);
        assert_eq!(Symmetry::of_board(9, 9).len(), 8);
        for (i, s) in Symmetry::ALL.iter().enumerate() {
            assert_eq!(s.index(), i);
            assert_eq!(Symmetry::from_index(i), *s);
        }
    }
}
