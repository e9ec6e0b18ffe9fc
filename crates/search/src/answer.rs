//! What a search answers: the games that hit and where ([`Hit`]), the continuation table's rows
//! ([`crate::Continuation`]), the counts and the date profile when the store's cells gave them,
//! all in one [`Answer`].

use crate::tally::Continuation;

/// The position numbers of a hit: nearly always one or two, so they live inline (a million-hit
/// answer is then one allocation, not a million).
pub type Moves = smallvec::SmallVec<[u32; 2]>;

/// A game that hits, with the position numbers where it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hit {
    pub game: u32,
    /// Sorted, distinct k.
    pub moves: Moves,
}

/// The answer to a position or pattern query.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    pub hits: Vec<Hit>,
    pub continuations: Vec<Continuation>,
    /// The date profile's counts, when the answer was read from pre-aggregated cells (which
    /// know them without reading each hit game); `None`: the caller counts the hits.
    pub profile: Option<ProfileCounts>,
    /// The hits' counts, when `hits` holds only the first ones
    /// ([`crate::PositionQuery::first_hits`]); `None`: `hits` is every hit.
    pub counts: Option<Counts>,
    /// For patterns and sequences, whose rows are the first move played later inside the
    /// query's region: how many hit positions (counted as the rows count them) never saw one.
    /// `None` for positions, whose rows are simply the next move.
    pub no_continuation: Option<usize>,
    /// For a pattern or sequence that asked for them (`continued`) instead of its rows, the moves
    /// its continuation rows count, each as (game, the position it was played from: the hit's, or a later one
    /// after tenuki), ascending and distinct, a hit game's exact copies with it: the moves a
    /// search for mistakes from a pattern or sequence weighs. Empty otherwise.
    pub continued: Vec<(u32, u32)>,
    /// Milliseconds of the search spent adding up what the hits found: the continuation table,
    /// and the profile's counts when given (finding the hits, and noting each one's next move
    /// as it is found, not included).
    pub tally_ms: f64,
}

impl Answer {
    /// The empty answer of a pattern or a sequence, which no game can show (off the board, no
    /// move): no hit, so no hit waiting for a continuation either.
    pub(crate) fn nothing_there() -> Answer {
        Answer {
            no_continuation: Some(0),
            ..Answer::default()
        }
    }
}

/// Milliseconds since `started`.
pub(crate) fn ms_since(started: std::time::Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1e3
}

/// How many games and positions hit, over the whole answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Hit games: stored games and exact copies alike.
    pub games: usize,
    /// Hit positions, summed over the hit games.
    pub positions: usize,
}

/// Hit games by (year, month as the game's facts give it: 0 when the date names no month; year
/// 0 undated): games, of those Black's and White's wins by result. With copies counted once, a
/// set of exact copies among the hits counts as its first game.
pub type ProfileCounts = std::collections::BTreeMap<(u16, u8), [u64; 3]>;
