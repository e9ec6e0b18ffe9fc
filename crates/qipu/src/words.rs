//! The words a user types for a search's options (sort keys, handicap classes, colours, komi
//! ranges, ranks, months, points), read here once, so that the command line, the server and
//! Python accept exactly the same words, aliases included, and refuse the others with the same
//! message. Each kind lists its accepted words ([`WordKind::accepted`]) for help texts and tests.

use std::fmt;
use std::str::FromStr;

use goban::{Color, Point};
use serde::Serialize;

use crate::error::{Error, QueryError, QueryPart};
use crate::explore::Handicap;
use crate::query::Sort;

/// A kind of word an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum WordKind {
    /// The order of the hits: [`Sort`].
    Sort,
    /// Which games by their handicap: [`Handicap`].
    Handicap,
    /// A colour (the side to move): [`parse_color`].
    Color,
    /// A komi range: [`KomiRange`].
    Komi,
    /// A rank: `5k`, `3d`, `9p`.
    Rank,
    /// A month: `YYYY` or `YYYY-MM`.
    Month,
    /// A point of the board: [`parse_point`].
    Point,
    /// How much a move lost, for a search of mistakes: [`LossThreshold`].
    Loss,
}

impl WordKind {
    /// Every kind, for tests and help texts that walk them all.
    pub const ALL: [WordKind; 8] = [
        WordKind::Sort,
        WordKind::Handicap,
        WordKind::Color,
        WordKind::Komi,
        WordKind::Rank,
        WordKind::Month,
        WordKind::Point,
        WordKind::Loss,
    ];

    /// How a message names the kind.
    pub fn name(self) -> &'static str {
        match self {
            WordKind::Sort => "sort",
            WordKind::Handicap => "handicap class",
            WordKind::Color => "colour",
            WordKind::Komi => "komi range",
            WordKind::Rank => "rank",
            WordKind::Month => "date",
            WordKind::Point => "point",
            WordKind::Loss => "loss",
        }
    }

    /// The words the kind accepts: every word where the kind is a list (aliases included), the
    /// forms where it is a grammar.
    pub fn accepted(self) -> &'static [&'static str] {
        match self {
            WordKind::Sort => &SORT_WORDS,
            WordKind::Handicap => &HANDICAP_WORDS,
            WordKind::Color => &COLOR_WORDS,
            WordKind::Komi => &["A..B (e.g. 6.5..7.5, inclusive)", "one komi (e.g. 6.5)"],
            WordKind::Rank => &["1k to 50k (kyu)", "1d to 10d (amateur dan)", "1p to 9p"],
            WordKind::Month => &["YYYY", "YYYY-MM (e.g. 2016 or 2016-03)"],
            WordKind::Point => &["pd (SGF)", "Q16 (GTP)", "0144 (quadrant digits)"],
            WordKind::Loss => &LOSS_WORDS,
        }
    }

    /// The accepted words as a message lists them: `a, b or c`.
    pub fn listed(self) -> String {
        match self.accepted() {
            [] => String::new(),
            [one] => one.to_string(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// The part of a query a word of this kind belongs to.
    pub(crate) fn part(self) -> QueryPart {
        match self {
            WordKind::Sort | WordKind::Color | WordKind::Loss => QueryPart::Word,
            WordKind::Point => QueryPart::Points,
            _ => QueryPart::Filter,
        }
    }

    fn refuse(self, word: &str) -> Error {
        QueryError::bad_word(self, word).into()
    }
}

/// Every word [`Sort`] reads, each order's canonical word (its `Display`) first, then its
/// aliases: `date` for newest, `rank` for strongest, `length` for longest, `positions` for
/// most_positions.
pub const SORT_WORDS: [&str; 10] = [
    "indexed",
    "newest",
    "date",
    "oldest",
    "strongest",
    "rank",
    "longest",
    "length",
    "most_positions",
    "positions",
];

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
            _ => return Err(WordKind::Sort.refuse(word)),
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

/// Every word [`Handicap`] reads.
pub const HANDICAP_WORDS: [&str; 3] = ["any", "even", "handicap"];

impl FromStr for Handicap {
    type Err = Error;

    fn from_str(word: &str) -> Result<Handicap, Error> {
        Ok(match word {
            "any" => Handicap::Any,
            "even" => Handicap::Even,
            "handicap" => Handicap::Handicap,
            _ => return Err(WordKind::Handicap.refuse(word)),
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

/// Every word [`parse_color`] reads.
pub const COLOR_WORDS: [&str; 6] = ["B", "W", "b", "w", "black", "white"];

/// A colour as a user types it (`B`, `W`, `b`, `w`, `black`, `white`). A function rather than
/// `FromStr`: [`Color`] is the board crate's.
pub fn parse_color(word: &str) -> Result<Color, Error> {
    match word {
        "B" | "b" | "black" => Ok(Color::Black),
        "W" | "w" | "white" => Ok(Color::White),
        _ => Err(WordKind::Color.refuse(word)),
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
            Err(WordKind::Komi.refuse(&format!("{low}..{high}")))
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
            _ => Err(WordKind::Komi.refuse(word)),
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
        _ => Err(WordKind::Point.refuse(word)),
    }
}

/// The forms [`LossThreshold`] reads.
pub const LOSS_WORDS: [&str; 3] = [
    "N% (win probability lost, e.g. 10%)",
    "Npt (points lost, e.g. 3pt)",
    "both, comma-separated (10%,3pt)",
];

/// How much a move must have lost to be a mistake, as a player writes it: `10%` of win
/// probability, `3pt` (or `3pts`, `3points`) of score, or both (`10%,3pt`: both must hold).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossThreshold {
    /// Win probability lost, from 0.0 to 1.0 (`10%` is 0.1).
    pub win: Option<f64>,
    /// Points lost, 0 or more.
    pub points: Option<f64>,
}

impl LossThreshold {
    /// A threshold of `win` (0.0 to 1.0) and/or `points` (0 or more); at least one.
    pub fn new(win: Option<f64>, points: Option<f64>) -> Result<LossThreshold, Error> {
        let t = LossThreshold { win, points };
        let win_ok = win.is_none_or(|w| (0.0..=1.0).contains(&w));
        let points_ok = points.is_none_or(|p| p.is_finite() && p >= 0.0);
        if (win.is_some() || points.is_some()) && win_ok && points_ok {
            Ok(t)
        } else {
            Err(WordKind::Loss.refuse(&t.to_string()))
        }
    }
}

impl FromStr for LossThreshold {
    type Err = Error;

    fn from_str(word: &str) -> Result<LossThreshold, Error> {
        let refuse = || WordKind::Loss.refuse(word);
        let (mut win, mut points) = (None, None);
        for part in word.split(',').map(str::trim) {
            let number = |t: &str| t.trim().parse::<f64>().ok().filter(|n| n.is_finite());
            if let Some(n) = part.strip_suffix('%') {
                let n = number(n).filter(|n| (0.0..=100.0).contains(n));
                if win.is_some() || n.is_none() {
                    return Err(refuse());
                }
                win = n.map(|n| n / 100.0);
            } else if let Some(n) = ["points", "point", "pts", "pt"]
                .iter()
                .find_map(|unit| part.strip_suffix(unit))
            {
                let n = number(n).filter(|&n| n >= 0.0);
                if points.is_some() || n.is_none() {
                    return Err(refuse());
                }
                points = n;
            } else {
                return Err(refuse());
            }
        }
        LossThreshold::new(win, points).map_err(|_| refuse())
    }
}

impl fmt::Display for LossThreshold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // In hundredths of a percent, as the index keeps a win probability: 0.05 prints 5%.
        let win = self.win.map(|w| format!("{}%", (w * 1e4).round() / 100.0));
        let points = self.points.map(|p| format!("{p}pt"));
        let parts: Vec<String> = win.into_iter().chain(points).collect();
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_loss_reads_as_a_percentage_and_or_points() {
        let t = |w: &str| w.parse::<LossThreshold>().unwrap();
        assert_eq!(
            t("10%"),
            LossThreshold {
                win: Some(0.1),
                points: None
            }
        );
        assert_eq!(
            t("3pt"),
            LossThreshold {
                win: None,
                points: Some(3.0)
            }
        );
        assert_eq!(
            t("2.5pts"),
            LossThreshold {
                win: None,
                points: Some(2.5)
            }
        );
        assert_eq!(t("3 points").points, Some(3.0));
        let both = t("10%, 3pt");
        assert_eq!((both.win, both.points), (Some(0.1), Some(3.0)));
        assert_eq!(t(&both.to_string()), both);
        assert_eq!(
            t("3pt,0%"),
            LossThreshold {
                win: Some(0.0),
                points: Some(3.0)
            }
        );
        for wrong in [
            "", "10", "101%", "-1%", "-2pt", "10%,20%", "3pt,1pt", "NaN%", "3p", "x%",
        ] {
            let e = wrong.parse::<LossThreshold>().unwrap_err();
            assert_eq!(e.query().unwrap().word(), Some(WordKind::Loss), "{wrong}");
            assert!(e.to_string().contains("10%,3pt"), "{e}");
        }
        assert!(LossThreshold::new(None, None).is_err());
        assert!(LossThreshold::new(Some(1.5), None).is_err());
    }
}
