//! Pre-aggregated continuations (`aggregates.*`): for every position the segment's games reached
//! often enough, the sums a continuation row and a date profile need, per next move and per
//! *cell* of the game facts that the explorer's filters read.
//!
//! A continuation table of a popular position (the empty board: every game) otherwise reads the
//! winner and the facts of every game holding it; from the cells it reads a few thousand sums.
//! A cell is keyed by what the filters `--since/--until` (the month, a year-only date counting
//! as its January), `--min-rank` (the weaker player's rank code: "both at least R" is "the
//! weaker at least R") and `--even/--handicap` (whether `HA` ≥ 2) test, so a filter keeps or
//! drops whole cells and the sums of the cells kept are exactly the sums over the games kept.
//! Every column of a row is such a sum or follows from the cell key: counts, wins, rank sums,
//! the years (a cell has one), and the example (the cell's games share weaker rank and month,
//! so the scan's order picks the first game of the cell).
//!
//! Only the segment's stored games (not exact copies, whose positions are their originals') are
//! summed; the search adds copies, games past the table's last move and games a query reaches
//! through two of its images one by one. Each aggregated hash holds:
//! - *move cells*: per (next move, cell): positions, Black's and White's wins (the winner byte),
//!   the mover's and the opponent's rank sums and counts, the first game of the cell;
//! - *game cells*: per cell, the games reaching the position at least once, of those the games
//!   whose result class says Black, or White, won (what the date profile counts), and the
//!   positions those games reach it at (what an answer's summary counts, so that a popular
//!   position's hits need not be counted one by one).
//!
//! Files: `aggregates.keys` (the aggregated hashes, ascending, `u64`), `aggregates.starts`
//! (where each one's bytes start in `aggregates.bin`, `u32`, and one where the last ends), and
//! `aggregates.bin`: per hash the number of move cells, the move cells, the number of game cells,
//! the game cells, every number in LEB128.

use crate::store::leb::{push_leb, push_leb64, read_leb, read_leb64};
use crate::store::{PosEntry, NO_NEXT};
use crate::Facts;
pub use model::{CellKey, GameCell, MoveCell};

/// Positions reached by at least this many entries of a segment's table are aggregated. See
/// DESIGN-index.md ("Pre-aggregated continuations") for the measurements behind it.
pub const DEFAULT_MIN_ENTRIES: u32 = 2000;

/// The cells of one aggregated hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cells {
    pub moves: Vec<MoveCell>,
    pub games: Vec<GameCell>,
}

/// Sums the entries of one hash (in (game, k) order, games within the segment) into cells.
/// `facts` and `winners` are the segment's, by game within the segment; `mover` says who plays
/// a next-move code; `is_line` whether a game (within the segment) is a variation line, whose
/// entries are left out: the cells count games played, and the search counts lines one by one.
pub(crate) fn cells_of(
    entries: &[PosEntry],
    first_game: u32,
    facts: &[Facts],
    winners: &[u8],
    mover: impl Fn(u16) -> Option<goban::Color>,
    is_line: impl Fn(usize) -> bool,
) -> Cells {
    let mut moves: ahash::AHashMap<(u16, CellKey), MoveCell> = ahash::AHashMap::new();
    let mut games: ahash::AHashMap<CellKey, GameCell> = ahash::AHashMap::new();
    let mut last_game = None;
    for e in entries {
        let i = (e.game - first_game) as usize;
        if is_line(i) {
            continue;
        }
        let f = facts.get(i).copied().unwrap_or_default();
        let key = CellKey::of(&f);
        let c = games.entry(key).or_insert(GameCell {
            key,
            ..GameCell::default()
        });
        c.positions += 1;
        if last_game != Some(e.game) {
            last_game = Some(e.game);
            c.games += 1;
            c.black_wins += u32::from(f.result == 1);
            c.white_wins += u32::from(f.result == 2);
        }
        if e.next == NO_NEXT {
            continue;
        }
        let Some(color) = mover(e.next) else {
            continue;
        };
        let winner = winners.get(i).copied().unwrap_or(0);
        let c = moves.entry((e.next, key)).or_insert(MoveCell {
            next: e.next,
            key,
            example: e.game,
            ..MoveCell::default()
        });
        c.count += 1;
        c.black_wins += u32::from(winner == 1);
        c.white_wins += u32::from(winner == 2);
        let (own, other) = match color {
            goban::Color::Black => (f.black_rank, f.white_rank),
            goban::Color::White => (f.white_rank, f.black_rank),
        };
        if own != 0 {
            c.mover_rank_sum += u64::from(own);
            c.mover_ranked += 1;
        }
        if other != 0 {
            c.opponent_rank_sum += u64::from(other);
            c.opponent_ranked += 1;
        }
        c.example = c.example.min(e.game);
    }
    let mut moves: Vec<MoveCell> = moves.into_values().collect();
    moves.sort_unstable_by_key(|c| (c.next, c.key));
    let mut games: Vec<GameCell> = games.into_values().collect();
    games.sort_unstable_by_key(|c| c.key);
    Cells { moves, games }
}

fn push_key(k: &CellKey, out: &mut Vec<u8>) {
    push_leb(u32::from(k.year), out);
    out.push(k.month);
    out.push(k.weaker_rank);
    out.push(u8::from(k.handicap));
}

fn read_key(bytes: &[u8], at: &mut usize) -> Option<CellKey> {
    let year = u16::try_from(read_leb(bytes, at)?).ok()?;
    let b = bytes.get(*at..*at + 3)?;
    *at += 3;
    Some(CellKey {
        year,
        month: b[0],
        weaker_rank: b[1],
        handicap: b[2] != 0,
    })
}

/// Appends the cells' bytes (games within the segment: `first_game` is taken off).
pub(crate) fn encode(cells: &Cells, first_game: u32, out: &mut Vec<u8>) {
    push_leb(cells.moves.len() as u32, out);
    for c in &cells.moves {
        push_leb(u32::from(c.next), out);
        push_key(&c.key, out);
        for v in [c.count, c.black_wins, c.white_wins] {
            push_leb(v, out);
        }
        push_leb64(c.mover_rank_sum, out);
        push_leb(c.mover_ranked, out);
        push_leb64(c.opponent_rank_sum, out);
        push_leb(c.opponent_ranked, out);
        push_leb(c.example - first_game, out);
    }
    push_leb(cells.games.len() as u32, out);
    for c in &cells.games {
        push_key(&c.key, out);
        for v in [c.games, c.black_wins, c.white_wins, c.positions] {
            push_leb(v, out);
        }
    }
}

/// The cells these bytes hold, games as global ids; `None` when the bytes are damaged (they
/// run short, or name a game past the segment's `games`).
pub(crate) fn decode(bytes: &[u8], first_game: u32, games: u32) -> Option<Cells> {
    let at = &mut 0;
    // Every cell takes at least 4 bytes: a damaged count cannot ask for more than the bytes.
    let n = read_leb(bytes, at)? as usize;
    let mut moves = Vec::with_capacity(n.min(bytes.len() / 4));
    for _ in 0..n {
        let next = u16::try_from(read_leb(bytes, at)?).ok()?;
        let key = read_key(bytes, at)?;
        let (count, black_wins, white_wins) = (
            read_leb(bytes, at)?,
            read_leb(bytes, at)?,
            read_leb(bytes, at)?,
        );
        let mover_rank_sum = read_leb64(bytes, at)?;
        let mover_ranked = read_leb(bytes, at)?;
        let opponent_rank_sum = read_leb64(bytes, at)?;
        let opponent_ranked = read_leb(bytes, at)?;
        let example = read_leb(bytes, at)?;
        if example >= games {
            return None;
        }
        moves.push(MoveCell {
            next,
            key,
            count,
            black_wins,
            white_wins,
            mover_rank_sum,
            mover_ranked,
            opponent_rank_sum,
            opponent_ranked,
            example: first_game + example,
        });
    }
    let n = read_leb(bytes, at)? as usize;
    let mut game_cells = Vec::with_capacity(n.min(bytes.len() / 4));
    for _ in 0..n {
        let key = read_key(bytes, at)?;
        game_cells.push(GameCell {
            key,
            games: read_leb(bytes, at)?,
            black_wins: read_leb(bytes, at)?,
            white_wins: read_leb(bytes, at)?,
            positions: read_leb(bytes, at)?,
        });
    }
    Some(Cells {
        moves,
        games: game_cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_sum_their_entries_and_read_back() {
        let facts = [
            Facts {
                year: 2016,
                month: 3,
                black_rank: 60,
                white_rank: 58,
                result: 1,
                ..Facts::default()
            },
            Facts {
                year: 2016,
                month: 3,
                black_rank: 58,
                white_rank: 61,
                result: 2,
                ..Facts::default()
            },
            Facts {
                handicap: 3,
                ..Facts::default()
            },
        ];
        let winners = [1, 2, 0];
        let e = |game, k, next| PosEntry {
            hash: 7,
            game,
            k,
            next,
        };
        // Games 100 and 101 share a cell; 101 reaches the position twice; 102 ends there.
        let entries = [e(100, 0, 5), e(101, 0, 5), e(101, 4, 9), e(102, 0, NO_NEXT)];
        let mover = |code: u16| {
            Some(if code % 2 == 1 {
                goban::Color::Black
            } else {
                goban::Color::White
            })
        };
        let cells = cells_of(&entries, 100, &facts, &winners, mover, |_| false);
        let shared = CellKey {
            year: 2016,
            month: 3,
            weaker_rank: 58,
            handicap: false,
        };
        assert_eq!(cells.moves.len(), 2);
        let five = cells.moves[0];
        assert_eq!((five.next, five.key, five.count), (5, shared, 2));
        assert_eq!((five.black_wins, five.white_wins), (1, 1));
        assert_eq!((five.mover_rank_sum, five.mover_ranked), (60 + 58, 2));
        assert_eq!((five.opponent_rank_sum, five.example), (58 + 61, 100));
        assert_eq!(cells.games.len(), 2);
        assert_eq!(
            (
                cells.games[1].games,
                cells.games[1].black_wins,
                cells.games[1].white_wins
            ),
            (2, 1, 1)
        );
        assert!(cells.games[0].key.handicap && cells.games[0].games == 1);
        // Game 101's two positions count, and game 102's, which ends there.
        assert_eq!((cells.games[1].positions, cells.games[0].positions), (3, 1));
        let mut bytes = Vec::new();
        encode(&cells, 100, &mut bytes);
        assert_eq!(decode(&bytes, 100, 3), Some(cells.clone()));
        // A game past the segment, or bytes cut short, are damage.
        assert_eq!(decode(&bytes, 100, 1), None);
        for n in 0..bytes.len() {
            assert_eq!(decode(&bytes[..n], 100, 3), None);
        }
        // A variation line (game 101 here) is not summed: its positions are counted one by
        // one by the search, apart from the games played.
        let played = cells_of(&entries, 100, &facts, &winners, mover, |i| i == 1);
        assert_eq!(played.moves.len(), 1);
        assert_eq!((played.moves[0].count, played.moves[0].black_wins), (1, 1));
        assert_eq!(played.games.iter().map(|c| c.games).sum::<u32>(), 2);
        assert_eq!(played.games.iter().map(|c| c.positions).sum::<u32>(), 2);
    }
}
