//! What the search asks of an index, and nothing more: the games and their boards, copies and
//! removals, the position table's occurrences of a hash, the games that could hold some stones,
//! and each game's stored moves replayed. How the index stores these (its encodings, its limits,
//! which boards it keeps occupancy for) stays behind this trait; the face crate implements it
//! for the index on disk. The search is generic over it, so each call is monomorphised and
//! inlined: no dynamic dispatch in the loops over games and moves.

use goban::{Bitboard, Color, Point};

pub use model::{CellKey, Change, CornerEvent, Facts, GameCell, MoveCell, Occurrence, NO_NEXT};

/// One part of the store's pre-aggregated continuations of a hash: the cells summing the
/// table entries of every stored game (not copies) of `games` with that hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aggregated {
    pub games: std::ops::Range<u32>,
    pub moves: Vec<MoveCell>,
    pub cells: Vec<GameCell>,
}

/// What the engine thought of one move of an analysed game, in the store's units (win in
/// 1/10,000, points in tenths): the evaluation after it, from Black's side as the mistakes
/// answer gives it, and what it cost the player who made it (`sgf::Eval::loss`: positive is a
/// loss). Known only where the positions before and after the move are both evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEval {
    /// Black's win probability after the move.
    pub win_after: i32,
    /// The mover's loss of win probability.
    pub win_loss: i32,
    /// Black's lead after the move and the mover's loss of points, where both positions have a
    /// lead.
    pub lead: Option<(i32, i32)>,
}

/// A position reached while replaying a game ([`Walk::next_position`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The position: after `k` moves.
    pub k: u32,
    /// The move played from it, as a code of the store, or [`NO_NEXT`].
    pub next: u16,
}

/// A stored game's changes as a pattern scan reads them ([`Store::changes`]): one at a time
/// while it follows a fight, and passing over the rest, which only count moves.
pub trait Changes: Iterator<Item = Change> {
    /// Passes over the changes on points the scan does not follow ([`Store::watch`]) and takes
    /// the next one on a point it does: how many moves were passed, and that change (`None` at
    /// the end).
    fn next_watched(&mut self) -> (u32, Option<Change>);
}

/// The number of `p` in tables indexed by [`Change::point`]: `y * 52 + x`.
#[inline(always)]
pub fn point_index(p: Point) -> usize {
    p.y as usize * 52 + p.x as usize
}

/// The point numbered `i` by [`point_index`].
#[inline(always)]
pub fn index_point(i: usize) -> Point {
    Point::new((i % 52) as u8, (i / 52) as u8)
}

/// A game's stones followed through its positions, without a rules engine.
pub trait Walk {
    /// Advances to the next position; `on_change` sees every point whose content changed on the
    /// way (a point may be seen more than once). `None` after the last position.
    fn next_position(&mut self, on_change: impl FnMut(Point)) -> Option<Step>;
    /// The position's hash ([`goban::Position::hash`]), when the walk was made with hashing.
    fn hash(&self) -> u64;
    /// The stones of `color` at the position last returned.
    fn stones(&self, color: Color) -> &Bitboard;
}

/// An index as the search sees it. Games are numbered `0..len()`; an exact copy of an earlier
/// game is answered through that game (its original), whose stored moves it shares.
pub trait Store: Sync {
    /// A replay of one game's stored moves, borrowing the buffer they were loaded into.
    type Walk<'a>: Walk;
    /// The points a scan follows, in the form the store's [`Changes`] read them.
    type Watch: Sync;

    /// Number of games.
    fn len(&self) -> u32;
    /// Whether there is no game.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Columns and rows of game `g`'s board.
    fn board(&self, g: u32) -> (u8, u8);
    /// Who won game `g`: 1 Black, 2 White, 0 neither or unknown.
    fn winner(&self, g: u32) -> u8;
    /// The earlier game `g` is an exact copy of, if it is one.
    fn original(&self, g: u32) -> Option<u32>;
    /// Whether game `g` is an exact copy of an earlier game.
    fn is_copy(&self, g: u32) -> bool;
    /// The exact copies of game `g`, ascending.
    fn copies(&self, g: u32) -> &[u32];
    /// The games that have exact copies, ascending.
    fn copied(&self) -> &[u32];
    /// The cell game `g`'s positions are summed in ([`Store::aggregates`]), from its facts: the
    /// store's own keying, so that a filter on cells and a test of one game agree.
    fn cell(&self, g: u32) -> CellKey;
    /// Whether game `g` is hidden (its input changed or went away); its moves still serve its
    /// copies.
    fn is_removed(&self, g: u32) -> bool;
    /// Whether any game is hidden.
    fn has_removed(&self) -> bool;
    /// Game `g`'s own facts (a copy has its own date, players and result).
    fn facts(&self, g: u32) -> Facts;
    /// Whether every exact copy counts in continuation tables (the oracle's tables do), or
    /// only the first of each set of copies in the answer (what a player asking who played
    /// what wants: a game entered twice is one game). Hits list every copy either way.
    /// Default: every copy counts.
    fn each_copy_counts(&self) -> bool {
        true
    }
    /// Whether game `g` counts in no statistics because an exact copy of it is counted in
    /// another index of a set searched as one (an earlier index of the set, whose copy is in
    /// the answer): as with copies in one index, a game entered twice is one game. Asked only
    /// when copies count once ([`Store::each_copy_counts`] is false). Default: never.
    fn counted_elsewhere(&self, _g: u32) -> bool {
        false
    }
    /// Whether some games are variation lines of a record rather than games played (see
    /// [`Store::branch`]). Default: none is.
    fn has_lines(&self) -> bool {
        false
    }
    /// For a variation line of a record, the first position it answers at: the positions
    /// before are those of the line it branched from, already answered there, so its hits
    /// there are dropped; and its next moves count in a row's [`crate::Tally::variations`],
    /// not as played. `None` for a game played. Default: `None`.
    fn branch(&self, _g: u32) -> Option<u32> {
        None
    }
    /// Whether some games carry engine evaluations ([`Store::move_eval`]): when none does, a
    /// continuation table reads nothing more than it always did. Default: none does.
    fn has_evals(&self) -> bool {
        false
    }
    /// The games (copies included) that carry engine evaluations, ascending: the only games
    /// whose table entries an answer read from cells must read one by one for the rows'
    /// evaluations. Default: none.
    fn analysed(&self) -> Vec<u32> {
        Vec::new()
    }
    /// The evaluation of the move game `g` played from its position after `k` moves (game
    /// `g`'s own record's, a copy's included), or `None`. Default: `None`.
    fn move_eval(&self, _g: u32, _k: u32) -> Option<MoveEval> {
        None
    }
    /// Whether the caller has given up on this search (a time budget spent, a client gone):
    /// checked once per game replayed, after which the search skips the remaining games and
    /// returns an incomplete answer that the caller must throw away. Default: never.
    fn stopped(&self) -> bool {
        false
    }

    /// Every position with at most this many stones of every game is in the position table,
    /// except those of [`Store::long_games`] past [`Store::table_moves`].
    fn table_stones(&self) -> u32;
    /// The last position number the table holds for a game.
    fn table_moves(&self) -> u32;
    /// Games (originals only) with positions past [`Store::table_moves`].
    fn long_games(&self) -> &[u32];
    /// The pre-aggregated continuations of `hash`, per part of the store that keeps them: its
    /// table entries with `hash` summed by (next move, [`CellKey`]) and the games reaching it
    /// by cell. A part not given is read from its entries. Default: none.
    fn aggregates(&self, _hash: u64) -> Vec<Aggregated> {
        Vec::new()
    }
    /// How many table entries have `hash`.
    fn count_occurrences(&self, hash: u64) -> usize;
    /// The table entries with `hash` of the games `games`, in (game, k) order, found without
    /// reading the others' (a look-up per part of the store, not a pass over the hash's entries).
    fn occurrences_of(
        &self,
        hash: u64,
        games: std::ops::Range<u32>,
    ) -> impl Iterator<Item = Occurrence> + '_;
    /// The table entries with `hash` of each of `games` (ascending), in (game, k) order: the
    /// hash looked up once per part of the store, each game by binary search.
    fn occurrences_of_games(&self, hash: u64, games: &[u32]) -> Vec<Occurrence>;
    /// The table entries with `hash`, in (game, k) order within each part of the store.
    fn occurrences(&self, hash: u64) -> impl Iterator<Item = Occurrence> + '_;
    /// The move a next-move code stands for: colour and point (`None` for a pass); `None` for
    /// [`NO_NEXT`] or a code that is not a move.
    fn next_move(&self, code: u16) -> Option<(Color, Option<Point>)>;

    /// Games (copies included), ascending, that ever had every stone of at least one of
    /// `needs` on a `width`×`height` board, or `None` when the store cannot tell for these
    /// (then any game of that board may).
    fn covering(&self, width: u8, height: u8, needs: &[Vec<(Color, Point)>]) -> Option<Vec<u32>>;
    /// [`Store::covering`] with, for each game, which of `needs` (up to 64: bit i = need i) it
    /// covers, so that a scan knows from the start which shapes a game can never show; `None`
    /// when the store cannot tell, or for more than 64 needs. Default: `None`.
    fn covering_each(
        &self,
        _width: u8,
        _height: u8,
        _needs: &[Vec<(Color, Point)>],
    ) -> Option<Vec<(u32, u64)>> {
        None
    }

    /// Of `games` (ascending), those that ever had every stone of at least one of `needs` on a
    /// `width`×`height` board, looked up game by game ([`Store::covering`] reads every game's
    /// occupancy; this, a few words per candidate), in order; `None` when the store cannot tell
    /// (then any of them may). Default: `None`.
    fn covering_among(
        &self,
        _width: u8,
        _height: u8,
        _games: &[u32],
        _needs: &[Vec<(Color, Point)>],
    ) -> Option<Vec<u32>> {
        None
    }

    /// What [`Store::corner_events`] reads for `key`, in bytes (about four an event), so that a
    /// search can choose the rarest of several keys before reading any; `None` when the store
    /// does not key the corners of that board. Default: `None`.
    fn corner_events_size(&self, _width: u8, _height: u8, _key: u64) -> Option<usize> {
        None
    }

    /// The games of [`Store::corner_events`] for one key, ascending, each once, read without
    /// their events (for a search that intersects several keys' games). They may include games
    /// of another board whose corner held the same content: the caller checks the board of the
    /// few it keeps. `None` when the store does not key the corners of that board. Default:
    /// from [`Store::corner_events`].
    fn corner_games(&self, width: u8, height: u8, key: u64) -> Option<Vec<u32>> {
        let mut games: Vec<u32> = self
            .corner_events(width, height, &[key])?
            .into_iter()
            .map(|(_, e)| e.game)
            .collect();
        games.dedup();
        Some(games)
    }

    /// Every time a corner square of an original game of a `width`×`height` board came to hold
    /// one of the contents these keys name ([`goban::corner`]), in (game, k) order, or `None`
    /// when the store does not key the corners of that board (then any game may). Each event
    /// comes with the key its corner came to hold.
    fn corner_events(&self, width: u8, height: u8, keys: &[u64])
        -> Option<Vec<(u64, CornerEvent)>>;

    /// For a game of a 19×19 board, the points (bit `y * 19 + x`) whose stone ever left or
    /// changed colour, when the store knows them: at every other point a stone, once put, stays
    /// to the end. `None` when the store cannot tell (then any point may have).
    fn vacated(&self, g: u32) -> Option<[u64; 6]>;
    /// Whether game `g` of a 19×19 board ever had a stone of `color` at `p`, when the store can
    /// tell (`None`: it may have).
    fn had(&self, g: u32, color: Color, p: Point) -> Option<bool>;

    /// Loads game `g`'s stored moves (its original's, for a copy) into `program`, replacing
    /// what was there.
    fn load(&self, g: u32, program: &mut Vec<u16>);
    /// A walk over a loaded program on a `width`×`height` board (`None` if that board cannot
    /// be); with `hashing` it keeps the hash up to date.
    fn walk<'a>(
        &self,
        program: &'a [u16],
        width: u8,
        height: u8,
        hashing: bool,
    ) -> Option<Self::Walk<'a>>;
    /// The changes game `g`'s stored moves make (its original's, for a copy), in order, read
    /// from the store as the caller takes them (a scan that ends early reads no further), when
    /// each of its positions falls just before a move (and after the last); `None` when it has
    /// positions elsewhere (setup beside a move, two moves in a node), which only a [`Walk`]
    /// over the [`Store::load`]ed program places.
    fn changes<'a>(&'a self, g: u32, watch: &'a Self::Watch) -> Option<impl Changes + 'a>;
    /// A hint that [`Store::changes`] and [`Store::vacated`] of game `g` will be read soon.
    /// Default: nothing.
    fn prefetch_changes(&self, _g: u32) {}
    /// A hint that [`Store::prefetch_changes`] of game `g` will be asked soon (what it reads to
    /// find the program). Default: nothing.
    fn prefetch_record(&self, _g: u32) {}
    /// The points (bit [`point_index`]) a scan over [`Store::changes`] follows: the others'
    /// changes only count moves ([`Changes::next_watched`]).
    fn watch(&self, points: &[u64]) -> Self::Watch;
    /// The program's moves in order: colour and point (`None` for a pass).
    fn moves<'a>(&self, program: &'a [u16]) -> impl Iterator<Item = (Color, Option<Point>)> + 'a;
}
