//! Answers as plain data: every type here derives `serde::Serialize`, so a server can send an
//! answer as it is, and holds owned values only (no borrow of the index).

use goban::{Color, Point};
use serde::{Serialize, Serializer};

/// A game's number in an index: 0, 1, 2… in the order the games were indexed. Stable while the
/// index is only added to; a rebuild numbers the games anew.
pub type GameId = u32;

/// The answer to a [`crate::Query`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Answer {
    /// The hit games asked for (after the query's sort, offset and limit), each with its
    /// information.
    pub hits: Vec<Hit>,
    /// What was played next, over all hits (not only the returned ones), most frequent first:
    /// from a position, the next move; from where a pattern appeared or a move sequence was
    /// completed, the first later move inside its region or area ([`Continuation::tenuki`]).
    /// A pattern or sequence that may lie `anywhere` answers in its own frame (a pattern's: its
    /// diagram; a sequence's: its points' rectangle with two lines around it, the rectangle's
    /// top-left at `cc`).
    /// Empty for metadata queries.
    pub continuations: Vec<Continuation>,
    /// The hit games by year (and month), with how they ended: over all hits (not only the
    /// returned ones), copies counted once unless [`crate::Query::with_copies`].
    pub profile: crate::Profile,
    /// Counts over all hits.
    pub summary: Summary,
    /// Where the time went.
    pub timings: Timings,
}

/// A game that hits.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// The game's number in the index.
    pub game: GameId,
    /// The positions where it hits, ascending: k is the position after k moves of the main line
    /// (0 the start). A move sequence hits at the move that completes it; a metadata query
    /// names no positions.
    pub moves: Vec<u32>,
    /// Who played, when, the result: what a hit list shows (a variation line's are its
    /// game's).
    pub info: GameInfo,
    /// For a hit on a variation line of a record (an index built with variations), which line:
    /// `None` for a game's main line. Its `moves` are positions of that line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variation: Option<Variation>,
}

/// A variation line of a record: a root-to-leaf path of its game tree other than the main
/// line, indexed as a line of its own ([`crate::BuildOptions::variations`]). It is not a game
/// that was played: its hits are listed, and its next moves counted in
/// [`Continuation::variations`], but no game count, win rate or date profile counts it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variation {
    /// The game (its main line) this is a variation of; [`Hit::info`] is that game's.
    pub game: GameId,
    /// The choices that lead to the line, each `depth:child`: at the node that many nodes
    /// below the root (the root is 0), the child of that index (0 the first, the main line's
    /// way), only where the line does not take the first child; joined by commas (`12:1,15:2`).
    pub path: String,
    /// The line answers at positions from this one on: before it, it is the line it branched
    /// from (the moves of the nodes down to its last choice).
    pub from: u32,
}

/// What an index knows of a game without reading its record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    /// The record file it was read from, as named when indexed (an archive member as
    /// `archive/member`).
    pub file: String,
    /// Its place in that file (0 the first game).
    pub game_in_file: u32,
    /// Black's name, with the rank when known (`Lee Sedol 9p`).
    pub black: Option<String>,
    /// White's name, with the rank when known.
    pub white: Option<String>,
    /// The first day of its date (`2016-03-13`), or the date as written when it is not one.
    pub date: Option<String>,
    /// The result as written (`W+R`).
    pub result: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// Whether it is an exact copy of an earlier game (same main line), answered through it.
    pub copy: bool,
}

/// One row of a continuation table: a next move and how the games that played it ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Continuation {
    /// Who played it, in the query's colours; serialised as `"B"` or `"W"`.
    #[serde(serialize_with = "color_letter")]
    pub color: Color,
    /// Where, in the query's orientation; `None` for a pass. Serialised as an SGF point
    /// (`"pd"`), a pass as `""`.
    #[serde(serialize_with = "sgf_point")]
    pub point: Option<Point>,
    /// Positions (not games) where it followed, in games played.
    pub count: u32,
    /// Positions of variation lines where it followed (a commentary's or a dictionary's move,
    /// not one played; no other column counts them). Serialised only when not 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub variations: u32,
    /// Of `count`, the positions where it came after moves elsewhere: a pattern's or a move
    /// sequence's row is the first move played later inside its region (the rectangle of the
    /// pattern's constrained points, the sequence's area), which need not be the next move of
    /// the game; `count - tenuki` came directly. Always 0 for positions, whose rows are the next
    /// move.
    pub tenuki: u32,
    /// Of those, in games Black won.
    pub black_wins: u32,
    /// Of those, in games White won.
    pub white_wins: u32,
    /// Of those, in games neither won: draws, void games, results unknown or unreadable.
    pub other: u32,
    /// The mean rank of the player who made the move, over the positions where that rank is
    /// known, on one scale: 1k = 0 (kyu below: 5k = −4), 1d = 1 … 10d = 10, 1p = 11 … 9p =
    /// 19. `None` when no rank is known.
    pub mover_rank: Option<f64>,
    /// How many positions `mover_rank` is the mean of.
    pub mover_ranked: u32,
    /// The mean rank of the mover's opponent, on the same scale.
    pub opponent_rank: Option<f64>,
    /// How many positions `opponent_rank` is the mean of.
    pub opponent_ranked: u32,
    /// The first year it was played in (over dated games).
    pub first_year: Option<u16>,
    /// The last year it was played in.
    pub last_year: Option<u16>,
    /// A game to look at, named `FILE#GAME` as hits name theirs: of the games that played it,
    /// the one whose weaker player is strongest, then the most recent.
    pub example: Option<String>,
    /// Of `count`, the positions whose game carries an engine evaluation of the position and
    /// of the one after the move (an analysed game): the means below are over these, and 0
    /// with every mean `None` where no game is analysed.
    pub analysed: u32,
    /// The mean of Black's win probability (0 to 1) after the move, from Black's side as a
    /// mistake's evaluations are.
    pub black_win_after: Option<f64>,
    /// The mean of Black's lead in points after the move, over the analysed positions with a
    /// lead before and after it.
    pub black_lead_after: Option<f64>,
    /// The mean win probability the move lost the player who made it
    /// ([`sgf::Eval::loss`]: the evaluation before less the one after, from the mover's side;
    /// a gain counts negative).
    pub win_loss: Option<f64>,
    /// The mean points the move lost its player, over the positions `black_lead_after` is over.
    pub points_loss: Option<f64>,
}

/// Counts over the whole answer, whatever part of it was returned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Hit games (variation lines not counted).
    pub games: usize,
    /// Hit positions, summed over the hit games.
    pub positions: usize,
    /// Hit variation lines ([`Hit::variation`]); serialised only when not 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub variations: usize,
    /// Hit games left out before the returned ones (the query's offset, or fewer).
    pub skipped: usize,
    /// For patterns and move sequences: hit positions (as the continuation rows count them,
    /// once per region the pattern appeared in) after which no move was ever played inside the
    /// region. Not serialised for positions and metadata queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_continuation: Option<usize>,
}

/// Where an answer's time went, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Timings {
    /// Finding the hits and continuations, the metadata query included.
    pub search_ms: f64,
    /// Sorting the hits and looking up the returned games' information.
    pub describe_ms: f64,
    /// Of `search_ms`, adding up what the hits found: the continuation table and the date
    /// profile (finding the hits, and noting each one's next move as it is found, not
    /// included). What an explorer's answer costs beyond its hits.
    pub tally_ms: f64,
}

/// A game's main line as read from its original record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MainLine {
    /// Columns and rows of its board.
    pub board: (u8, u8),
    /// The moves, in order; a pass has no point.
    pub moves: Vec<Move>,
}

/// One move of a main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Move {
    /// Who played; serialised as `"B"` or `"W"`.
    #[serde(serialize_with = "color_letter")]
    pub color: Color,
    /// Where; `None` for a pass (serialised as an SGF point, a pass as `""`).
    #[serde(serialize_with = "sgf_point")]
    pub point: Option<Point>,
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

pub(crate) fn color_letter<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_char(c.letter())
}

pub(crate) fn sgf_point<S: Serializer>(p: &Option<Point>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&p.map_or(String::new(), |p| p.sgf_string()))
}
