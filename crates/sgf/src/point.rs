//! Colours and board points, the two value types every other module speaks.
//!
//! Coordinates follow SGF: `x` is the column from the left, `y` the row from the top, both 0-based.
//! A point is stored in two bytes so that move lists stay compact; boards go up to 52×52, the
//! largest size the SGF letters `a`–`z`, `A`–`Z` can address.

use std::fmt;

/// The largest board side SGF can address (`a`–`z` then `A`–`Z`).
pub const MAX_SIZE: u8 = 52;

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `'B'` or `'W'`, as SGF writes it.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

/// A point value that is neither two coordinate letters nor a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed point: expected two letters a-z or A-Z")]
pub struct MalformedPoint;

/// A point on the board: column `x` from the left, row `y` from the top, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Decodes one SGF coordinate letter (`a`=0 … `z`=25, `A`=26 … `Z`=51).
    #[inline]
    pub fn coord_from_letter(c: u8) -> Option<u8> {
        match c {
            b'a'..=b'z' => Some(c - b'a'),
            b'A'..=b'Z' => Some(c - b'A' + 26),
            _ => None,
        }
    }

    /// Encodes one coordinate as its SGF letter; `None` past 51.
    #[inline]
    pub fn letter_from_coord(v: u8) -> Option<u8> {
        match v {
            0..=25 => Some(b'a' + v),
            26..=51 => Some(b'A' + v - 26),
            _ => None,
        }
    }

    /// Parses a two-letter SGF point such as `pd`. Does not know about passes; see [`Point::parse_move`].
    pub fn parse_sgf(s: &[u8]) -> Option<Point> {
        match s {
            [a, b] => Some(Point::new(
                Self::coord_from_letter(*a)?,
                Self::coord_from_letter(*b)?,
            )),
            _ => None,
        }
    }

    /// Parses a move value on a board of `width`×`height`: `Ok(None)` is a pass (`[]`, or `[tt]` when both
    /// sides are ≤ 19), `Ok(Some(p))` a point. Points off the board are returned as they are; the
    /// engine decides what to do with them.
    pub fn parse_move(s: &[u8], width: u8, height: u8) -> Result<Option<Point>, MalformedPoint> {
        let s = trim_ascii(s);
        if s.is_empty() || (s == b"tt" && width <= 19 && height <= 19) {
            return Ok(None);
        }
        Point::parse_sgf(s).map(Some).ok_or(MalformedPoint)
    }

    /// The two SGF letters of this point.
    pub fn to_sgf(self) -> [u8; 2] {
        [
            Self::letter_from_coord(self.x).unwrap_or(b'?'),
            Self::letter_from_coord(self.y).unwrap_or(b'?'),
        ]
    }

    /// The SGF letters as a `String`, e.g. `"pd"`.
    pub fn sgf_string(self) -> String {
        let [a, b] = self.to_sgf();
        String::from_utf8_lossy(&[a, b]).into_owned()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sgf_string())
    }
}

fn trim_ascii(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if last.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for v in 0..52u8 {
            let c = Point::letter_from_coord(v).unwrap();
            assert_eq!(Point::coord_from_letter(c), Some(v));
        }
        assert_eq!(Point::letter_from_coord(52), None);
        assert_eq!(Point::coord_from_letter(b'1'), None);
    }

    #[test]
    fn moves_and_passes() {
        assert_eq!(
            Point::parse_move(b"pd", 19, 19),
            Ok(Some(Point::new(15, 3)))
        );
        assert_eq!(Point::parse_move(b"", 19, 19), Ok(None));
        assert_eq!(Point::parse_move(b"tt", 19, 19), Ok(None));
        assert_eq!(
            Point::parse_move(b"tt", 21, 21),
            Ok(Some(Point::new(19, 19)))
        );
        assert_eq!(
            Point::parse_move(b"ZZ", 52, 52),
            Ok(Some(Point::new(51, 51)))
        );
        assert!(Point::parse_move(b"p", 19, 19).is_err());
        assert!(Point::parse_move(b"p1", 19, 19).is_err());
    }
}
