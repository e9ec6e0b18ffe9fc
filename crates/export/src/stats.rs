//! The continuation statistics table: the position table aggregated by what an explorer asks of
//! a position — per (position hash, move played next, the game's month, both ranks, handicap,
//! komi), how many games played it and how they ended. A position's continuations are then
//! the rows of its images' hashes, one range each of a table sorted by this key, summed.
//!
//! Computed at export time from the index's position table (read in hash order, merged from
//! the segments as it is read) and each game's facts: the rows of one hash are gathered,
//! summed and written before the next hash is read, so memory holds one position's distinct
//! keys (7,460 rows for the busiest, the empty board of all 434,782 shared games), whatever
//! the index's size.
//!
//! Counting follows `qipu search`: every entry stands for its game and that game's exact copies
//! (which have no entries of their own), removed games left out. `games` counts each copy, as
//! the oracle and `--with-copies` do; `games_once` counts a set of copies once, in the row of
//! its first game that is not removed, as `qipu search` does by default. (With a filter on the
//! facts, `qipu search` counts the first copy that passes it: the two differ only when copies
//! of one game carry different dates, ranks, handicap or komi.)

use std::collections::HashMap;
use std::iter::Peekable;

use qipu::{Color, Index, Move, TableEntry};

/// One row of the statistics table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsRow {
    /// The position's Zobrist hash, in the orientation the games played it.
    pub hash: u64,
    /// The move played from it, as played (colour and point in the game's orientation); `None`
    /// where the games ended at the position.
    pub next: Option<Move>,
    /// The games' year (0: undated).
    pub year: u16,
    /// Their month, 1 to 12 (0: dated without a month, or undated).
    pub month: u8,
    /// Black's rank code ([`qipu::GameFacts::black_rank`]; 0 unknown).
    pub black_rank: u8,
    /// White's rank code.
    pub white_rank: u8,
    /// Handicap stones (`HA`; 0 when not given).
    pub handicap: u8,
    /// Komi in quarter points (3.75 is 15, not 16), as the index keeps it; `None` when not
    /// given.
    pub komi_quarters: Option<i16>,
    /// Occurrences, each exact copy of a game counted.
    pub games: u32,
    /// Of those, in games Black won (as the oracle reads `RE`).
    pub black_wins: u32,
    /// Of those, in games White won.
    pub white_wins: u32,
    /// Occurrences with each set of exact copies counted once.
    pub games_once: u32,
    /// Of those, in games Black won.
    pub black_wins_once: u32,
    /// Of those, in games White won.
    pub white_wins_once: u32,
    /// The first game (lowest id) of `games`: the row's example, since every game of a row has
    /// the same month and ranks, which is what `qipu search` picks its example by.
    pub example: u32,
    /// The first game of `games_once`; `None` when `games_once` is 0.
    pub example_once: Option<u32>,
}

/// The part of a row's key beside the hash.
type Key = (Option<Move>, u16, u8, u8, u8, u8, Option<i16>);

/// The statistics rows of `index`, by hash, then by key in the order the exported table is
/// sorted (next colour `""` < `B` < `W`, then the next point's SGF string, then the facts).
pub fn stats_rows(index: &Index) -> StatsRows<'_, impl Iterator<Item = TableEntry> + '_> {
    StatsRows {
        index,
        // Games played only: a variation line's entries are no game's (as in the Parquet
        // export's position table).
        entries: index
            .position_table_by_hash()
            .filter(|e| !index.is_variation(e.game))
            .peekable(),
        ready: Vec::new(),
    }
}

/// The iterator [`stats_rows`] returns.
pub struct StatsRows<'a, I: Iterator<Item = TableEntry>> {
    index: &'a Index,
    entries: Peekable<I>,
    /// The current hash's rows, last first.
    ready: Vec<StatsRow>,
}

impl<I: Iterator<Item = TableEntry>> Iterator for StatsRows<'_, I> {
    type Item = Result<StatsRow, qipu::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.ready.is_empty() {
            let first = self.entries.next()?;
            if let Err(e) = self.gather(first) {
                return Some(Err(e));
            }
        }
        self.ready.pop().map(Ok)
    }
}

impl<I: Iterator<Item = TableEntry>> StatsRows<'_, I> {
    /// Sums every entry of `first`'s hash into `ready`.
    fn gather(&mut self, first: TableEntry) -> Result<(), qipu::Error> {
        let hash = first.hash;
        let mut rows: HashMap<Key, StatsRow> = HashMap::new();
        let mut entry = Some(first);
        while let Some(e) = entry {
            self.tally(e, &mut rows)?;
            entry = self.entries.next_if(|n| n.hash == hash);
        }
        let mut rows: Vec<StatsRow> = rows.into_values().collect();
        // Sorted as the table's key, then reversed: `ready` is popped from its end.
        rows.sort_by_cached_key(|r| {
            let (color, point) = move_key(r.next);
            std::cmp::Reverse((
                color,
                point,
                r.year,
                r.month,
                r.black_rank,
                r.white_rank,
                r.handicap,
                r.komi_quarters,
            ))
        });
        self.ready = rows;
        Ok(())
    }

    /// Counts entry `e` for its game and that game's copies, removed games left out.
    fn tally(&self, e: TableEntry, rows: &mut HashMap<Key, StatsRow>) -> Result<(), qipu::Error> {
        let members = std::iter::once(e.game).chain(self.index.copies_of(e.game).iter().copied());
        let mut first = true;
        for g in members {
            let f = self.index.facts(g)?;
            if f.removed {
                continue;
            }
            let key = (
                e.next,
                f.year,
                f.month,
                f.black_rank,
                f.white_rank,
                f.handicap,
                f.komi_quarters,
            );
            let row = rows.entry(key).or_insert(StatsRow {
                hash: e.hash,
                next: e.next,
                year: f.year,
                month: f.month,
                black_rank: f.black_rank,
                white_rank: f.white_rank,
                handicap: f.handicap,
                komi_quarters: f.komi_quarters,
                games: 0,
                black_wins: 0,
                white_wins: 0,
                games_once: 0,
                black_wins_once: 0,
                white_wins_once: 0,
                example: g,
                example_once: None,
            });
            let (b, w) = (
                u32::from(f.winner == Some(Color::Black)),
                u32::from(f.winner == Some(Color::White)),
            );
            row.games += 1;
            row.black_wins += b;
            row.white_wins += w;
            row.example = row.example.min(g);
            if first {
                row.games_once += 1;
                row.black_wins_once += b;
                row.white_wins_once += w;
                row.example_once = Some(row.example_once.map_or(g, |x| x.min(g)));
                first = false;
            }
        }
        Ok(())
    }
}

/// A next move as the table writes it: colour (`""` where the game ended, `B`, `W`) and SGF
/// point (`""` for a pass or the end).
pub fn move_key(m: Option<Move>) -> (&'static str, String) {
    match m {
        None => ("", String::new()),
        Some(m) => (
            crate::color_str(m.color),
            m.point.map(|p| p.sgf_string()).unwrap_or_default(),
        ),
    }
}
