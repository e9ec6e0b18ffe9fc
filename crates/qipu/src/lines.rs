//! The JSON shapes of an answer that clients send on: `qipu search --json` prints them as JSON
//! Lines and `qipu serve` answers with them, so that the two say the same thing in the same
//! words (one definition, not two kept in step by hand).

use serde::Serialize;

use crate::answer::{Answer, Continuation, Hit};
use crate::explore::Profile;

/// One line of an answer: a hit game, a row of the continuation table, the date profile, or
/// the closing summary. Serialised with its kind in a `"type"` field (`"hit"`,
/// `"continuation"`, `"profile"`, `"summary"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Line<'a> {
    /// A hit game.
    Hit(HitLine<'a>),
    /// A row of the continuation table (`color`, `point`, `count`, `black_wins`,
    /// `white_wins` as the oracle names them; then `other`, `mover_rank`, `mover_ranked`,
    /// `opponent_rank`, `opponent_ranked`, `first_year`, `last_year`, `example`).
    Continuation(&'a Continuation),
    /// The hit games by year (`years`: `year`, `games`, `black_wins`, `white_wins`; by month
    /// also `months`), and `undated`.
    Profile(&'a Profile),
    /// Counts over all hits and the search's time.
    Summary(SummaryLine),
}

/// A hit game as a client sees it: named by its record file and its place in that file (as
/// the oracle and `qipu show FILE` name games), not by the index's internal number, which a
/// rebuild changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HitLine<'a> {
    /// The record file, as named when indexed.
    pub file: &'a str,
    /// The game's place in that file (0 the first).
    pub game: u32,
    /// The positions where it hits (k: after k moves of the main line).
    pub moves: &'a [u32],
    /// Black's name with the rank when known.
    pub black: Option<&'a str>,
    /// White's name with the rank when known.
    pub white: Option<&'a str>,
    /// The first day of its date, or the date as written.
    pub date: Option<&'a str>,
    /// The result as written.
    pub result: Option<&'a str>,
    /// The event.
    pub event: Option<&'a str>,
    /// Whether it is an exact copy of an earlier game.
    pub copy: bool,
    /// On a variation line of the record, which (`path`, `from`: see [`crate::Variation`]);
    /// absent on a game's main line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variation: Option<VariationLine<'a>>,
}

/// The variation line a hit is on, as a client names it: its path in the record's game tree
/// and the first position it answers at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VariationLine<'a> {
    /// `depth:child` choices, joined by commas ([`crate::Variation::path`]).
    pub path: &'a str,
    /// [`crate::Variation::from`].
    pub from: u32,
}

impl<'a> From<&'a Hit> for HitLine<'a> {
    fn from(hit: &'a Hit) -> HitLine<'a> {
        let d = &hit.info;
        HitLine {
            file: &d.file,
            game: d.game_in_file,
            moves: &hit.moves,
            black: d.black.as_deref(),
            white: d.white.as_deref(),
            date: d.date.as_deref(),
            result: d.result.as_deref(),
            event: d.event.as_deref(),
            copy: d.copy,
            variation: hit.variation.as_ref().map(|v| VariationLine {
                path: &v.path,
                from: v.from,
            }),
        }
    }
}

/// The closing line: hit games and positions over the whole answer (not only the lines
/// given), and the search's time in milliseconds, to the microsecond.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SummaryLine {
    /// Hit games.
    pub games: usize,
    /// Hit positions, summed over the hit games.
    pub positions: usize,
    /// Hit variation lines, when any ([`crate::Summary::variations`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub variations: usize,
    /// For patterns and move sequences, hit positions after which nothing was played inside
    /// the region ([`crate::Summary::no_continuation`]); absent for the other kinds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_continuation: Option<usize>,
    /// [`crate::Timings::search_ms`], rounded to three decimals.
    pub elapsed_ms: f64,
}

impl SummaryLine {
    /// The summary of `answer`.
    pub fn of(answer: &Answer) -> SummaryLine {
        SummaryLine {
            games: answer.summary.games,
            positions: answer.summary.positions,
            variations: answer.summary.variations,
            no_continuation: answer.summary.no_continuation,
            elapsed_ms: (answer.timings.search_ms * 1000.0).round() / 1000.0,
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The lines of `answer`, in the order they are printed: its first `max_hits` hits (of those
/// returned), every continuation, the profile, then the summary.
pub fn lines(answer: &Answer, max_hits: usize) -> impl Iterator<Item = Line<'_>> {
    answer
        .hits
        .iter()
        .take(max_hits)
        .map(|h| Line::Hit(h.into()))
        .chain(answer.continuations.iter().map(Line::Continuation))
        .chain(std::iter::once(Line::Profile(&answer.profile)))
        .chain(std::iter::once(Line::Summary(SummaryLine::of(answer))))
}
