//! The words a user types for a search's options (sort keys, handicap classes, colours, komi
//! ranges, ranks, months, points; a mistake's loss in [`crate::loss`]), read here once, so that the command line, the server and
//! Python accept exactly the same words, aliases included, and refuse the others with the same
//! message. Each kind lists its accepted words ([`WordKind::accepted`]) for help texts and tests.

use std::fmt;
use std::str::FromStr;

use goban::{Color, Point};

use crate::error::{Error, QueryError};
use crate::explore::Handicap;
use crate::query::Sort;
use crate::word_kind::WordKind;

/// The refusal of `word`, which is no word of `kind`.
fn refuse(kind: WordKind, word: &str) -> Error {
    QueryError::bad_word(kind, word).into()
}

impl FromStr for Sort {
    type Err = Error;

    fn from_str(word: &str) -> Result<Sort, Error> {
        Ok(match word {
            "indexed" => Sort::Indexed,
            "newest" | "date" => Sort::Newest,
            "oldest" => Sort::Oldest,
            "strongest" | "rank" => Sort::Strongest,
            "longest" | "length" => Sort::Longest,
            "most_positions" | "positions" => Sort::MostPositions,
            _ => return Err(refuse(WordKind::Sort, word)),
        })
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sort::Indexed => "indexed",
            Sort::Newest => "newest",
            Sort::Oldest => "oldest",
            Sort::Strongest => "strongest",
            Sort::Longest => "longest",
            Sort::MostPositions => "most_positions",
        })
    }
}

impl FromStr for Handicap {
    type Err = Error;

    fn from_str(word: &str) -> Result<Handicap, Error> {
        Ok(match word {
            "any" => Handicap::Any,
            "even" => Handicap::Even,
            "handicap" => Handicap::Handicap,
            _ => return Err(refuse(WordKind::Handicap, word)),
        })
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Handicap::Any => "any",
            Handicap::Even => "even",
            Handicap::Handicap => "handicap",
        })
    }
}

/// A colour as a user types it (`B`, `W`, `b`, `w`, `black`, `white`). A function rather than
/// `FromStr`: [`Color`] is the board crate's.
pub fn parse_color(word: &str) -> Result<Color, Error> {
    match word {
        "B" | "b" | "black" => Ok(Color::Black),
        "W" | "w" | "white" => Ok(Color::White),
        _ => Err(refuse(WordKind::Color, word)),
    }
}

/// A colour's canonical word: `B` or `W`.
pub fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// Komi from `low` to `high`, inclusive, as a filter takes it ([`crate::Query::komi`]): typed
/// `A..B`, or one number for exactly it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KomiRange {
    /// The lowest komi kept.
    pub low: f64,
    /// The highest komi kept.
    pub high: f64,
}

impl KomiRange {
    /// The range from `low` to `high`: both finite, `low` not above `high` (the word quoted in a
    /// refusal is `low..high`).
    pub fn new(low: f64, high: f64) -> Result<KomiRange, Error> {
        if low.is_finite() && high.is_finite() && low <= high {
            Ok(KomiRange { low, high })
        } else {
            Err(refuse(WordKind::Komi, &format!("{low}..{high}")))
        }
    }
}

impl FromStr for KomiRange {
    type Err = Error;

    fn from_str(word: &str) -> Result<KomiRange, Error> {
        let number = |t: &str| t.trim().parse::<f64>().ok().filter(|k| k.is_finite());
        let (low, high) = match word.split_once("..") {
            Some((a, b)) => (number(a), number(b)),
            None => (number(word), number(word)),
        };
        match (low, high) {
            (Some(low), Some(high)) if low <= high => Ok(KomiRange { low, high }),
            _ => Err(refuse(WordKind::Komi, word)),
        }
    }
}

impl fmt::Display for KomiRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.low, self.high)
    }
}

/// One point of a `size`×`size` board as a user types it: SGF `pd`, GTP `Q16` or quadrant
/// digits `0144` (what [`crate::Query::points`] reads in a list).
pub fn parse_point(word: &str, size: u8) -> Result<Point, Error> {
    // The list reader with one token: a word holding a separator is more than one point.
    match search::query::parse_points(word, size, size).as_deref() {
        Ok(&[point]) => Ok(point),
        _ => Err(refuse(WordKind::Point, word)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::QueryPart;
    use crate::word_kind::{COLOR_WORDS, HANDICAP_WORDS, SORT_WORDS};

    #[test]
    fn every_sort_word_reads_and_its_order_prints_its_first_word() {
        for word in SORT_WORDS {
            let sort: Sort = word.parse().unwrap();
            let canonical = sort.to_string();
            assert_eq!(canonical.parse::<Sort>().unwrap(), sort);
            // The canonical word comes before its aliases in the list.
            let at = |w: &str| SORT_WORDS.iter().position(|x| *x == w).unwrap();
            assert!(at(&canonical) <= at(word), "{word}");
        }
        for wrong in ["", "Newest", "date ", "most-positions", "random"] {
            let e = wrong.parse::<Sort>().unwrap_err();
            let q = e.query().unwrap();
            assert_eq!(q.word(), Some(WordKind::Sort));
            assert_eq!(q.part(), QueryPart::Word);
            assert!(e.to_string().contains("most_positions or positions"), "{e}");
        }
    }

    #[test]
    fn handicap_colour_komi_and_points_read_their_words_only() {
        for word in HANDICAP_WORDS {
            let h: Handicap = word.parse().unwrap();
            assert_eq!(h.to_string(), word);
        }
        assert!("Even".parse::<Handicap>().is_err());
        for word in COLOR_WORDS {
            let c = parse_color(word).unwrap();
            assert_eq!(parse_color(color_word(c)).unwrap(), c);
        }
        for wrong in ["", "Black", "x", "BW"] {
            let e = parse_color(wrong).unwrap_err();
            assert_eq!(e.query().unwrap().word(), Some(WordKind::Color));
        }
        let k: KomiRange = "6.5..7.5".parse().unwrap();
        assert_eq!((k.low, k.high), (6.5, 7.5));
        assert_eq!(k.to_string().parse::<KomiRange>().unwrap(), k);
        let k: KomiRange = "-3".parse().unwrap();
        assert_eq!((k.low, k.high), (-3.0, -3.0));
        for wrong in ["", "7.5..6.5", "inf", "6.5..", "..7", "NaN", "six"] {
            let e = wrong.parse::<KomiRange>().unwrap_err();
            assert_eq!(e.query().unwrap().part(), QueryPart::Filter, "{wrong}");
            assert!(e.to_string().contains("komi range"), "{e}");
        }
        assert!(KomiRange::new(7.0, 6.0).is_err());
        assert!(KomiRange::new(f64::NAN, 6.0).is_err());
        assert_eq!(
            parse_point("Q16", 19).unwrap(),
            parse_point("pd", 19).unwrap()
        );
        let e = parse_point("zz", 19).unwrap_err();
        assert_eq!(e.query().unwrap().word(), Some(WordKind::Point));
    }
}
