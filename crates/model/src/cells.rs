//! The cells a popular position's continuations are summed in: the index sums them when it is
//! built, the search keeps or drops whole cells by its filters and adds their sums.

use crate::Facts;

/// What a cell is keyed by: the facts the filters that cells answer test (`--since/--until`
/// the month, `--min-rank` the weaker player's rank, `--even/--handicap` two or more stones),
/// so that a filter keeps or drops whole cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellKey {
    /// The year (0: undated).
    pub year: u16,
    /// The month, 1 to 12; 0 when the date names no single month.
    pub month: u8,
    /// The weaker player's rank ([`Facts::black_rank`]'s scale; 0 when either is unknown).
    pub weaker_rank: u8,
    /// Whether the game gives two or more handicap stones.
    pub handicap: bool,
}

impl CellKey {
    /// The cell of a game with these facts: the one keying, so that a filter on cells and a
    /// test of one game agree.
    pub fn of(f: &Facts) -> CellKey {
        CellKey {
            year: f.year,
            month: f.month,
            weaker_rank: f.black_rank.min(f.white_rank),
            handicap: f.handicap >= 2,
        }
    }
}

/// The sums of the positions of one (next move, cell).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCell {
    /// The move played next, as the position table codes it (never [`crate::NO_NEXT`]).
    pub next: u16,
    pub key: CellKey,
    /// Positions, and of those the ones in games Black won, White won (the winner byte).
    pub count: u32,
    pub black_wins: u32,
    pub white_wins: u32,
    /// Rank sums and counts of the mover and of the opponent (ranks on [`crate::rank`]'s
    /// scale; unknown ranks are not counted).
    pub mover_rank_sum: u64,
    pub mover_ranked: u32,
    pub opponent_rank_sum: u64,
    pub opponent_ranked: u32,
    /// The cell's first game.
    pub example: u32,
}

/// The games of one cell that reach a position at least once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCell {
    pub key: CellKey,
    pub games: u32,
    /// The table entries of those games: every time one of them reached the position,
    /// whatever followed (the game's end included).
    pub positions: u32,
    /// Of those games, the ones whose result ([`Facts::result`]) is a win of Black, of White.
    pub black_wins: u32,
    pub white_wins: u32,
}
