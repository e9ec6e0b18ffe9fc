//! Corner regions: what a corner of the board holds, as one key, while it holds few stones.
//!
//! The index maps each key to the games whose corner ever held that content, so that a pattern
//! fixing a whole corner square (every point black, white or empty) is answered by a lookup and
//! a check of the few games found, instead of a scan of every game that ever had its stones.
//! This module is the one definition of the square, the stone limit and the key, shared by the
//! index (which stores keys) and the search (which asks for them): the two cannot disagree.
//!
//! A corner's square is the [`SIDE`]×[`SIDE`] points nearest to it. Its content is written in the
//! corner's own frame: `i` counts columns from the nearer vertical edge, `j` rows from the nearer
//! horizontal edge, so the four corners of a board share one frame. The key is the smaller of
//! the content's Zobrist hash in that frame and in its transpose (`i` and `j` swapped). Every
//! symmetry of a square board maps a corner square onto a corner square, in the frame either
//! unchanged or transposed, so all images of a corner content have the same key: a symmetric
//! search asks for one key per colouring, not eight. On a rectangular board the transpose is not
//! a symmetry, and the key then stands for two contents; a key only ever names candidates that a
//! scan checks, so the answer stays exact.

use crate::zobrist::splitmix64;
use crate::{Bitboard, Color, Point};

/// Points on a side of a corner square. Seven covers the corner patterns people ask for (the
/// 3-3, 3-4, 4-4 and 5-4 joseki up to the third line from the square's inner edges) and keeps
/// the four squares of a 19×19 board apart; the measurements behind it are in `DESIGN-index.md`.
pub const SIDE: u8 = 7;

/// A corner content is keyed while it holds from [`MIN_STONES`] to this many stones. A pattern
/// with more stones is already rare enough for the occupancy filter.
pub const MAX_STONES: u32 = 6;

/// The fewest stones of a keyed content. An empty corner is in every game, and a lone stone in
/// an empty corner (a 4-4 or 3-4 point) in nearly every one: keyed, each would be four events a
/// game (16 B of the index's 1 KB a game) for patterns the occupancy filter and the scan's early
/// end already serve.
pub const MIN_STONES: u32 = 2;

/// Points of a square.
const AREA: usize = SIDE as usize * SIDE as usize;

/// Keys of a black stone at `(i, j)` of the frame, at index `j * SIDE + i`; white's follow.
/// Drawn from the position keys' stream far past its start, so they are unrelated to them.
static KEYS: [u64; 2 * AREA] = {
    let mut keys = [0u64; 2 * AREA];
    let mut n = 0;
    while n < 2 * AREA {
        keys[n] = splitmix64((1 << 40) + n as u64);
        n += 1;
    }
    keys
};

/// Whether a `width`×`height` board has corner squares that do not overlap.
pub fn has_corners(width: u8, height: u8) -> bool {
    width >= 2 * SIDE && height >= 2 * SIDE && width <= 52 && height <= 52
}

/// The corner square holding `p` on a `width`×`height` board (see [`has_corners`]), and `p` in
/// the corner's frame; `None` outside the four squares. Corners: 0 top left, 1 top right,
/// 2 bottom left, 3 bottom right.
#[inline]
pub fn locate(p: Point, width: u8, height: u8) -> Option<(usize, u8, u8)> {
    let (i, right) = if p.x < SIDE {
        (p.x, 0)
    } else if p.x < width && p.x >= width - SIDE {
        (width - 1 - p.x, 1)
    } else {
        return None;
    };
    let (j, bottom) = if p.y < SIDE {
        (p.y, 0)
    } else if p.y < height && p.y >= height - SIDE {
        (height - 1 - p.y, 2)
    } else {
        return None;
    };
    Some((right + bottom, i, j))
}

/// The point at `(i, j)` of corner `corner`'s frame on a `width`×`height` board.
#[inline]
pub fn point(corner: usize, i: u8, j: u8, width: u8, height: u8) -> Point {
    let x = if corner & 1 == 0 { i } else { width - 1 - i };
    let y = if corner & 2 == 0 { j } else { height - 1 - j };
    Point::new(x, y)
}

/// A corner content's key, built stone by stone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyBuilder {
    plain: u64,
    transposed: u64,
    stones: u32,
}

impl KeyBuilder {
    /// Adds a stone of `color` at `(i, j)` of the frame (both below [`SIDE`]).
    #[inline]
    pub fn add(&mut self, color: Color, i: u8, j: u8) {
        self.toggle(color, i, j);
        self.stones += 1;
    }

    /// Takes off the stone of `color` at `(i, j)` that [`KeyBuilder::add`] put there.
    #[inline]
    pub fn remove(&mut self, color: Color, i: u8, j: u8) {
        self.toggle(color, i, j);
        self.stones = self.stones.saturating_sub(1);
    }

    #[inline]
    fn toggle(&mut self, color: Color, i: u8, j: u8) {
        let base = if color == Color::Black { 0 } else { AREA };
        let (i, j) = (i as usize, j as usize);
        self.plain ^= KEYS[base + j * SIDE as usize + i];
        self.transposed ^= KEYS[base + i * SIDE as usize + j];
    }

    /// Stones added.
    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// The key, when the content is keyed ([`MIN_STONES`] to [`MAX_STONES`] stones).
    pub fn key(&self) -> Option<u64> {
        self.oriented().map(|(key, _)| key)
    }

    /// The key, and whether it is the hash of the transposed content rather than of the content
    /// as it stands in the frame (`false` for a content equal to its transpose), when the
    /// content is keyed. The index stores both, so that a search knows which orientation of a
    /// keyed content a corner held without replaying the game.
    pub fn oriented(&self) -> Option<(u64, bool)> {
        (MIN_STONES..=MAX_STONES).contains(&self.stones).then(|| {
            (
                self.plain.min(self.transposed),
                self.transposed < self.plain,
            )
        })
    }

    /// The hashes of the content in the frame and of its transpose: the content in the frame is
    /// the one a stored key (with its orientation, see [`KeyBuilder::oriented`]) names when the
    /// first (or, for a transposed key, the second) equals the key.
    pub fn hashes(&self) -> (u64, u64) {
        (self.plain, self.transposed)
    }
}

/// The key of corner `corner`'s content on a `width`×`height` board with these stones (see
/// [`has_corners`]), or `None` when it holds fewer than [`MIN_STONES`] or more than
/// [`MAX_STONES`].
pub fn key(
    black: &Bitboard,
    white: &Bitboard,
    width: u8,
    height: u8,
    corner: usize,
) -> Option<u64> {
    content(black, white, width, height, corner).and_then(|b| b.key())
}

/// Corner `corner`'s content on a `width`×`height` board with these stones (see
/// [`has_corners`]), or `None` when it holds more than [`MAX_STONES`] stones.
pub fn content(
    black: &Bitboard,
    white: &Bitboard,
    width: u8,
    height: u8,
    corner: usize,
) -> Option<KeyBuilder> {
    let mask = (1u64 << SIDE) - 1;
    let shift = |row: u64| {
        if corner & 1 == 0 {
            row & mask
        } else {
            // Column width-1-i at bit i.
            (row >> (width - SIDE)).reverse_bits() >> (64 - SIDE) & mask
        }
    };
    let mut rows = [[0u64; 2]; SIDE as usize];
    let mut stones = 0;
    for (j, row) in rows.iter_mut().enumerate() {
        let y = if corner & 2 == 0 {
            j as u8
        } else {
            height - 1 - j as u8
        };
        *row = [shift(black.row(y)), shift(white.row(y))];
        stones += row[0].count_ones() + row[1].count_ones();
        if stones > MAX_STONES {
            return None;
        }
    }
    let mut b = KeyBuilder::default();
    for (j, row) in rows.iter().enumerate() {
        for (c, color) in [Color::Black, Color::White].into_iter().enumerate() {
            let mut bits = row[c];
            while bits != 0 {
                b.add(color, bits.trailing_zeros() as u8, j as u8);
                bits &= bits - 1;
            }
        }
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Symmetry;

    fn board(stones: &[(Color, u8, u8)]) -> [Bitboard; 2] {
        let mut b = [Bitboard::EMPTY, Bitboard::EMPTY];
        for &(c, x, y) in stones {
            b[c as usize].insert(Point::new(x, y));
        }
        b
    }

    #[test]
    fn every_image_of_a_corner_has_its_key_at_the_image_corner() {
        // A 3-4 approach shape in the top-right corner, and an outside stone.
        let shape = [
            (Color::Black, 15, 3),
            (Color::White, 16, 5),
            (Color::Black, 14, 5),
            (Color::White, 9, 9),
        ];
        let [b, w] = board(&shape);
        let k = key(&b, &w, 19, 19, 1).unwrap();
        for s in Symmetry::ALL {
            let moved: Vec<_> = shape
                .iter()
                .map(|&(c, x, y)| {
                    let p = s.apply(Point::new(x, y), 19, 19);
                    (c, p.x, p.y)
                })
                .collect();
            let [b2, w2] = board(&moved);
            let corner = locate(s.apply(Point::new(15, 3), 19, 19), 19, 19)
                .unwrap()
                .0;
            assert_eq!(key(&b2, &w2, 19, 19, corner), Some(k), "{s:?}");
            for other in (0..4).filter(|&c| c != corner) {
                assert_eq!(key(&b2, &w2, 19, 19, other), None);
            }
        }
    }

    #[test]
    fn keys_tell_contents_apart_and_stop_at_the_limit() {
        let [b, w] = board(&[(Color::Black, 3, 3), (Color::White, 2, 5)]);
        let [b2, w2] = board(&[(Color::White, 3, 3), (Color::White, 2, 5)]);
        let [b3, w3] = board(&[(Color::Black, 3, 2), (Color::White, 2, 5)]);
        let keys = [
            key(&b, &w, 19, 19, 0),
            key(&b2, &w2, 19, 19, 0),
            key(&b3, &w3, 19, 19, 0),
        ];
        assert!(keys.iter().all(Option::is_some));
        assert_ne!(keys[0], keys[1]);
        assert_ne!(keys[0], keys[2]);
        // A lone stone is below the limit too.
        let [b, w] = board(&[(Color::Black, 3, 3)]);
        assert_eq!(key(&b, &w, 19, 19, 0), None);
        let many: Vec<_> = (0..=MAX_STONES as u8)
            .map(|i| (Color::Black, i, 0))
            .collect();
        let [b, w] = board(&many);
        assert_eq!(key(&b, &w, 19, 19, 0), None);
        assert_eq!(key(&Bitboard::EMPTY, &Bitboard::EMPTY, 19, 19, 0), None);
    }

    #[test]
    fn points_and_frames_agree() {
        for (w, h) in [(19, 19), (14, 20), (52, 52)] {
            for corner in 0..4 {
                for i in 0..SIDE {
                    for j in 0..SIDE {
                        let p = point(corner, i, j, w, h);
                        assert_eq!(locate(p, w, h), Some((corner, i, j)));
                    }
                }
            }
            if w > 2 * SIDE {
                assert_eq!(locate(Point::new(SIDE, 0), w, h), None);
            }
        }
    }
}
