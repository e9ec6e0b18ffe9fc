//! The index's tables as rows, for clients that hand them to other engines (a Parquet export):
//! the position table entry by entry and each game's facts, in plain types. Searches never need
//! these; they are the raw material an answer is computed from, so that a column engine given
//! the same rows can compute the same answers.

use goban::Color;

use crate::answer::{GameId, Move};
use crate::error::{Error, QueryError, QueryPart};
use crate::reader::Index;

/// Positions with at most this many stones are all in the position table (larger ones are
/// found by replaying games): a client answering from [`Index::position_table`] alone can
/// answer exactly the positions this small.
pub const TABLE_STONES: u32 = index::MAX_INDEXED_STONES;

/// Positions after this move number are not in the position table; the games that have such
/// positions are [`GameFacts::long`].
pub const TABLE_MOVES: u32 = index::MAX_TABLE_MOVE;

/// One entry of the position table: game `game` reached the position with hash `hash` (see
/// [`crate::Position::hash`]) after `k` moves of its main line, and `next` was played from it.
/// Only stored games have entries: an exact copy is answered through its original
/// ([`GameFacts::copy_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableEntry {
    /// The position's Zobrist hash, in the orientation the game played it.
    pub hash: u64,
    /// The game.
    pub game: GameId,
    /// The number of moves played before the position (0: the start).
    pub k: u32,
    /// The move played from it, `None` at the end of the game.
    pub next: Option<Move>,
}

/// What the index's game table says of a game, beside its information ([`crate::GameInfo`]):
/// what a client needs to combine position-table entries into answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameFacts {
    /// Columns and rows of its board.
    pub board: (u8, u8),
    /// Moves of its main line, passes included.
    pub moves: u32,
    /// Who won, as the oracle reads `RE` (`None`: a draw, no result, or unreadable).
    #[serde(serialize_with = "winner_letter")]
    pub winner: Option<Color>,
    /// The earlier game it is an exact copy of (same main line): it has no table entries of its
    /// own, and hits wherever that game hits.
    pub copy_of: Option<GameId>,
    /// Hidden: its input changed or was deleted since it was indexed. Never answered.
    pub removed: bool,
    /// It has positions past move [`TABLE_MOVES`], which the table does not hold.
    pub long: bool,
    /// The year its date starts in; 0 when undated.
    pub year: u16,
    /// The month (1 to 12) when its date lies within one month; 0 otherwise (a whole year, a
    /// range, undated). Filters count a game without a month as its year's January.
    pub month: u8,
    /// Black's rank as a code on one scale: 50k = 1 … 1k = 50, 1d = 51 … 10d = 60, 1p = 61 …
    /// 9p = 69; 0 unknown. Continuation tables show a mean of codes minus 50 (1k = 0, 1d = 1).
    pub black_rank: u8,
    /// White's rank, as [`GameFacts::black_rank`].
    pub white_rank: u8,
    /// Handicap stones as `HA` says (0 when not given).
    pub handicap: u8,
    /// Komi in quarter points (Fox's 3.75 is 15, not 16); `None` when not given or unreadable.
    pub komi_quarters: Option<i16>,
}

fn winner_letter<S: serde::Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_some(&c.letter()),
        None => s.serialize_none(),
    }
}

impl Index {
    /// Whether everything the table readers handed out so far was read from sound bytes: the
    /// streams are infallible (a damaged block's bytes are still handed out, see
    /// `index::Index::check_intact`), so a client that read the tables asks this before it
    /// trusts what it made of them; the error names each damaged file.
    pub fn check_intact(&self) -> Result<(), Error> {
        Ok(self.inner.check_intact()?)
    }

    /// Every entry of the position table, streamed from the memory-mapped files (nothing is
    /// collected): segment after segment, each by hash and then by game. A client that needs
    /// the table's entries in one order sorts them itself.
    pub fn position_table(&self) -> impl Iterator<Item = TableEntry> + '_ {
        self.inner.all_positions().map(entry)
    }

    /// The game table's facts about game `id`.
    pub fn facts(&self, id: GameId) -> Result<GameFacts, Error> {
        if id >= self.len() {
            return Err(QueryError::new(
                QueryPart::Game,
                format!("game {id}: the index holds {} games", self.len()),
            )
            .into());
        }
        let rec = self.inner.game(id);
        let f = self.inner.facts(id);
        Ok(GameFacts {
            board: (rec.width, rec.height),
            moves: rec.moves,
            winner: match self.inner.winner(id) {
                1 => Some(Color::Black),
                2 => Some(Color::White),
                _ => None,
            },
            copy_of: self.inner.is_copy(id).then_some(rec.duplicate_of),
            removed: self.inner.is_removed(id),
            long: rec.flags & index::FLAG_LONG != 0,
            year: f.year,
            month: f.month,
            black_rank: f.black_rank,
            white_rank: f.white_rank,
            handicap: f.handicap,
            komi_quarters: (f.komi_quarters != index::Facts::NO_KOMI).then_some(f.komi_quarters),
        })
    }

    /// The position table in hash order, then game order: every entry of a position comes
    /// together, as a client aggregating per position needs them. Merged from the segments'
    /// sorted runs as it is read (memory: one entry per segment).
    pub fn position_table_by_hash(&self) -> impl Iterator<Item = TableEntry> + '_ {
        self.inner.positions_by_hash().map(entry)
    }

    /// The exact copies of game `id` (same main line, later in the index), in id order: they
    /// have no table entries of their own and hit wherever `id` hits. Empty for a copy, for a
    /// game without copies and for an id the index does not hold.
    pub fn copies_of(&self, id: GameId) -> &[GameId] {
        if id >= self.len() {
            return &[];
        }
        self.inner.copies(id)
    }
}

/// A stored table entry as the face gives it.
fn entry(e: index::PosEntry) -> TableEntry {
    TableEntry {
        hash: e.hash,
        game: e.game,
        k: u32::from(e.k),
        next: next_move(e.next),
    }
}

/// A table entry's next move as a [`Move`] (a stored code that is no move reads as none).
fn next_move(code: u16) -> Option<Move> {
    if code == index::NO_NEXT {
        return None;
    }
    match index::ops::Op::decode(code) {
        index::ops::Op::Move(color, point) => Some(Move { color, point }),
        _ => None,
    }
}
