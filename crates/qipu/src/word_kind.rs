//! The kinds of words an option takes and the words each accepts: what a refusal names
//! ([`crate::QueryError::word`]) and lists, apart from the parsing ([`crate::words`]) so that
//! the error type names a kind without depending on the parsers.

use serde::Serialize;

/// A kind of word an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum WordKind {
    /// The order of the hits: [`crate::Sort`].
    Sort,
    /// Which games by their handicap: [`crate::Handicap`].
    Handicap,
    /// A colour (the side to move): [`crate::parse_color`].
    Color,
    /// A komi range: [`crate::KomiRange`].
    Komi,
    /// A rank: `5k`, `3d`, `9p`.
    Rank,
    /// A month: `YYYY` or `YYYY-MM`.
    Month,
    /// A point of the board: [`crate::parse_point`].
    Point,
    /// How much a move lost, for a search of mistakes: [`crate::LossThreshold`].
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
}

/// Every word [`crate::Sort`] reads, each order's canonical word (its `Display`) first, then its
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

/// Every word [`crate::Handicap`] reads.
pub const HANDICAP_WORDS: [&str; 3] = ["any", "even", "handicap"];

/// Every word [`crate::parse_color`] reads.
pub const COLOR_WORDS: [&str; 6] = ["B", "W", "b", "w", "black", "white"];

/// The forms [`crate::LossThreshold`] reads.
pub const LOSS_WORDS: [&str; 3] = [
    "N% (win probability lost, e.g. 10%)",
    "Npt (points lost, e.g. 3pt)",
    "both, comma-separated (10%,3pt)",
];
