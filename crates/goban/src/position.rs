//! A plain snapshot of a board — size and the two stone sets — for comparing and verifying.
//!
//! [`Position`] is what the oracle calls a position: equality is same size, same black stones, same
//! white stones (side to move, ko and prisoners ignored). Its hash is computed from scratch, so it is
//! the reference the incremental hashes of [`crate::Board`] are checked against.

use std::fmt;

use sgf::{Color, Point, MAX_SIZE};

use crate::bitboard::Bitboard;
use crate::symmetry::Symmetry;
use crate::zobrist::{mul_alpha, point_key, size_key};

/// A board size outside 1..=52.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSizeError {
    pub width: u8,
    pub height: u8,
}

impl fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size {}x{} outside 1..={MAX_SIZE} on a side",
            self.width, self.height
        )
    }
}

impl std::error::Error for BoardSizeError {}

/// Checks a board size.
pub(crate) fn check_size(width: u8, height: u8) -> Result<(), BoardSizeError> {
    if (1..=MAX_SIZE).contains(&width) && (1..=MAX_SIZE).contains(&height) {
        Ok(())
    } else {
        Err(BoardSizeError { width, height })
    }
}

/// Board size and stones, nothing else.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) width: u8,
    pub(crate) height: u8,
    /// Indexed by colour: 0 black, 1 white. Disjoint, and within the board.
    pub(crate) stones: [Bitboard; 2],
}

impl Position {
    /// The empty `width`×`height` board.
    pub fn new(width: u8, height: u8) -> Result<Position, BoardSizeError> {
        check_size(width, height)?;
        Ok(Position {
            width,
            height,
            stones: [Bitboard::EMPTY, Bitboard::EMPTY],
        })
    }

    /// Number of columns.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Whether `p` lies on the board.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// The stones of one colour.
    pub fn stones(&self, color: Color) -> &Bitboard {
        &self.stones[color as usize]
    }

    /// What stands on `p` (`None` also off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if self.stones[0].contains(p) {
            Some(Color::Black)
        } else if self.stones[1].contains(p) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Puts `content` on `p` (`None` empties it), capturing nothing. Returns `false`, changing nothing,
    /// when `p` is off the board.
    pub fn set(&mut self, p: Point, content: Option<Color>) -> bool {
        if !self.contains(p) {
            return false;
        }
        self.stones[0].remove(p);
        self.stones[1].remove(p);
        if let Some(c) = content {
            self.stones[c as usize].insert(p);
        }
        true
    }

    /// The Zobrist hash, computed from scratch (see the `zobrist` module for the definition). Equal
    /// positions have equal hashes; [`crate::Board::hashes`] reproduces it incrementally.
    pub fn hash(&self) -> u64 {
        let black = self.stones[0].iter().fold(0, |h, p| h ^ point_key(p));
        let white = self.stones[1].iter().fold(0, |h, p| h ^ point_key(p));
        size_key(self.width, self.height) ^ black ^ mul_alpha(white)
    }

    /// The hash of the empty `width`×`height` board: [`Position::hash`] with no stones.
    pub fn empty_hash(width: u8, height: u8) -> u64 {
        size_key(width, height)
    }

    /// What one stone of `color` on `p` contributes to [`Position::hash`]: two positions that differ
    /// by that stone have hashes that differ by this XOR, so a follower of a game can keep the hash
    /// up to date for the price of one lookup per changed point.
    pub fn stone_key(color: Color, p: Point) -> u64 {
        match color {
            Color::Black => point_key(p),
            Color::White => mul_alpha(point_key(p)),
        }
    }

    /// The image of this position under `s` (on a `height`×`width` board if `s` swaps the axes).
    pub fn transformed(&self, s: Symmetry) -> Position {
        let (width, height) = s.image_size(self.width, self.height);
        let map = |b: &Bitboard| -> Bitboard {
            b.iter()
                .map(|p| s.apply(p, self.width, self.height))
                .collect()
        };
        Position {
            width,
            height,
            stones: [map(&self.stones[0]), map(&self.stones[1])],
        }
    }

    /// The same stones with the colours exchanged.
    pub fn color_swapped(&self) -> Position {
        Position {
            width: self.width,
            height: self.height,
            stones: [self.stones[1].clone(), self.stones[0].clone()],
        }
    }

    /// The symmetry-free key, from scratch: the least hash of `s(self)` over the symmetries of the
    /// board ([`Symmetry::of_board`]). Matches [`crate::Board::canonical_key`].
    pub fn canonical_key(&self) -> u64 {
        Symmetry::of_board(self.width, self.height)
            .iter()
            .map(|&s| self.transformed(s).hash())
            .min()
            .unwrap_or(0)
    }

    /// The stones of `color` as SGF point strings, sorted as strings (see [`sorted_sgf_points`]).
    pub fn sgf_points(&self, color: Color) -> Vec<String> {
        sorted_sgf_points(self.stones(color).iter())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Position {}x{}", self.width, self.height)?;
        write_diagram(f, self.width, self.height, |p| self.get(p))
    }
}

/// Writes one line per row: `X` black, `O` white, `.` empty.
pub(crate) fn write_diagram(
    f: &mut fmt::Formatter<'_>,
    width: u8,
    height: u8,
    get: impl Fn(Point) -> Option<Color>,
) -> fmt::Result {
    for y in 0..height {
        let row: String = (0..width)
            .map(|x| match get(Point::new(x, y)) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            })
            .collect();
        writeln!(f, "{row}")?;
    }
    Ok(())
}

/// SGF point strings sorted as strings, the order the oracle lists final positions in. Byte order puts
/// the upper-case letters (coordinates 26–51) before the lower-case ones (0–25), so this is not the
/// numeric order of the coordinates.
pub fn sorted_sgf_points(points: impl IntoIterator<Item = Point>) -> Vec<String> {
    let mut v: Vec<[u8; 2]> = points.into_iter().map(Point::to_sgf).collect();
    v.sort_unstable();
    v.into_iter()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_sort_is_string_order() {
        let pts = [
            Point::new(26, 0),
            Point::new(0, 1),
            Point::new(0, 0),
            Point::new(25, 51),
        ];
        assert_eq!(sorted_sgf_points(pts), ["Aa", "aa", "ab", "zZ"]);
    }

    #[test]
    fn size_checked() {
        assert!(Position::new(0, 5).is_err());
        assert!(Position::new(53, 5).is_err());
        assert!(Position::new(52, 1).is_ok());
        assert!(BoardSizeError {
            width: 0,
            height: 0
        }
        .to_string()
        .contains("0x0"));
    }

    #[test]
    fn sizes_hash_apart() {
        let a = Position::new(19, 19).unwrap();
        let b = Position::new(13, 13).unwrap();
        assert_ne!(a.hash(), b.hash());
        let mut c = Position::new(19, 13).unwrap();
        let mut d = Position::new(13, 19).unwrap();
        assert_ne!(c.hash(), d.hash());
        c.set(Point::new(0, 0), Some(Color::Black));
        d.set(Point::new(0, 0), Some(Color::Black));
        assert_ne!(c, d);
        assert!(!c.set(Point::new(19, 0), Some(Color::Black)));
        assert!(c.set(Point::new(18, 0), Some(Color::Black)));
    }

    #[test]
    fn stone_keys_update_the_hash() {
        let mut p = Position::new(13, 9).unwrap();
        let mut h = Position::empty_hash(13, 9);
        assert_eq!(h, p.hash());
        for (i, (x, y)) in [(0, 0), (12, 8), (5, 3), (5, 4)].into_iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            p.set(Point::new(x, y), Some(c));
            h ^= Position::stone_key(c, Point::new(x, y));
            assert_eq!(h, p.hash());
        }
        p.set(Point::new(12, 8), None);
        h ^= Position::stone_key(Color::White, Point::new(12, 8));
        assert_eq!(h, p.hash());
    }
}
