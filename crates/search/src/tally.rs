//! What one row of a continuation table adds up: how often the move followed, how those games
//! ended, how strong the players who chose it and their opponents were, when it was played, and
//! one game to look at. Positions and patterns count their rows with the same [`Tally`], so the
//! two tables say the same things in the same way.

use std::collections::HashMap;

use goban::{Color, Point};

use crate::back::{map_back, Back};
use crate::query::Filter;
use crate::store::{Facts, Store};

/// The sums behind one continuation row, over the positions (not games) it counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Positions where the move followed, in games played (variation lines apart).
    pub count: u32,
    /// Positions of variation lines ([`Store::branch`]) where the move followed: a
    /// commentary's or a dictionary's move, not one played; nothing else in the row counts
    /// them.
    pub variations: u32,
    /// Of `count`, the positions where the move came after moves elsewhere: a pattern's or a
    /// sequence's row is the first move played later inside its region, which is not always
    /// the next move of the game (always 0 for positions, whose rows are the next move).
    pub tenuki: u32,
    /// Of those, in games Black won (as the oracle reads `RE`).
    pub black_wins: u32,
    /// Of those, in games White won.
    pub white_wins: u32,
    /// Sum of the rank codes ([`Facts::black_rank`]) of the player who made the move, over the
    /// `mover_ranked` positions where that player's rank is known.
    pub mover_rank_sum: u64,
    pub mover_ranked: u32,
    /// The same for the opponent of the player who made the move.
    pub opponent_rank_sum: u64,
    pub opponent_ranked: u32,
    /// The first and last year it was played in (over dated games); `None` when no game is
    /// dated.
    pub years: Option<(u16, u16)>,
    /// The game to show for it: the one whose weaker player is strongest, then the most recent
    /// (by month), then the first indexed; with its key.
    pub example: Option<(Example, u32)>,
    /// What the engine thought of the move, over the positions of `count` whose game carries
    /// evaluations of the position and of the one after the move ([`Tally::add_eval`]).
    pub evals: EvalSums,
}

/// The sums of the evaluations of a row's analysed moves, in the store's units (win in
/// 1/10,000, points in tenths; see [`crate::MoveEval`]): exact, so that rows merged in any
/// order say the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalSums {
    /// Positions counted with an evaluation before and after the move.
    pub analysed: u32,
    /// Sum of Black's win probability after the move.
    pub win_after: i64,
    /// Sum of the mover's loss of win probability.
    pub win_loss: i64,
    /// Of `analysed`, those with a lead before and after the move.
    pub led: u32,
    /// Sum of Black's lead after the move, over `led`.
    pub lead_after: i64,
    /// Sum of the mover's loss of points, over `led`.
    pub lead_loss: i64,
}

impl EvalSums {
    /// Adds one analysed move.
    #[inline]
    pub fn add(&mut self, e: &crate::MoveEval) {
        self.analysed += 1;
        self.win_after += i64::from(e.win_after);
        self.win_loss += i64::from(e.win_loss);
        if let Some((after, loss)) = e.lead {
            self.led += 1;
            self.lead_after += i64::from(after);
            self.lead_loss += i64::from(loss);
        }
    }

    /// Adds another row's sums.
    pub fn merge(&mut self, o: &EvalSums) {
        self.analysed += o.analysed;
        self.win_after += o.win_after;
        self.win_loss += o.win_loss;
        self.led += o.led;
        self.lead_after += o.lead_after;
        self.lead_loss += o.lead_loss;
    }
}

/// One row of a continuation table: a next move, in the query's orientation and colours, and
/// what the positions it followed add up to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Continuation {
    pub color: Color,
    /// `None` for a pass.
    pub point: Option<Point>,
    pub tally: Tally,
}

/// What makes a game a better example of a row: greater is better (see [`Tally::example`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Example {
    weaker_rank: u8,
    year: u16,
    month: u8,
    /// `u32::MAX - game`: of equals, the first indexed.
    earlier: u32,
}

impl Tally {
    /// Counts one position of game `game`, whose move was played by `mover` (in the game's
    /// colours), with the game's winner byte ([`Store::winner`]) and facts.
    #[inline]
    pub fn add(&mut self, game: u32, mover: Color, winner: u8, f: &Facts) {
        self.count += 1;
        self.black_wins += u32::from(winner == 1);
        self.white_wins += u32::from(winner == 2);
        let (own, other) = match mover {
            Color::Black => (f.black_rank, f.white_rank),
            Color::White => (f.white_rank, f.black_rank),
        };
        if own != 0 {
            self.mover_rank_sum += u64::from(own);
            self.mover_ranked += 1;
        }
        if other != 0 {
            self.opponent_rank_sum += u64::from(other);
            self.opponent_ranked += 1;
        }
        if f.year != 0 {
            self.years = Some(match self.years {
                Some((a, b)) => (a.min(f.year), b.max(f.year)),
                None => (f.year, f.year),
            });
        }
        let key = Example {
            weaker_rank: f.black_rank.min(f.white_rank),
            year: f.year,
            month: f.month,
            earlier: u32::MAX - game,
        };
        if self.example.is_none_or(|(best, _)| key > best) {
            self.example = Some((key, game));
        }
    }

    /// Adds the evaluation of a move [`Tally::add`] counted (or one a pre-aggregated cell
    /// counted, [`Tally::of_cell`]).
    #[inline]
    pub fn add_eval(&mut self, e: &crate::MoveEval) {
        self.evals.add(e);
    }

    /// Renumbers the example game as game `offset + g` (an index searched as part of a set,
    /// whose games are numbered after those of the indexes before it), so that of equal
    /// examples the first in the set's order wins when tallies of several indexes are merged.
    pub fn rebase(&mut self, offset: u32) {
        if let Some((key, game)) = &mut self.example {
            *game += offset;
            key.earlier = u32::MAX - *game;
        }
    }

    /// Counts one position of a variation line: only [`Tally::variations`].
    #[inline]
    pub fn add_line(&mut self) {
        self.variations += 1;
    }

    /// The tally of a pre-aggregated cell: its sums, its year, its first game as the example
    /// (the cell's games share the weaker rank and the month, so the scan's order picks it).
    pub(crate) fn of_cell(c: &crate::store::MoveCell) -> Tally {
        Tally {
            count: c.count,
            black_wins: c.black_wins,
            white_wins: c.white_wins,
            mover_rank_sum: c.mover_rank_sum,
            mover_ranked: c.mover_ranked,
            opponent_rank_sum: c.opponent_rank_sum,
            opponent_ranked: c.opponent_ranked,
            years: (c.key.year != 0).then_some((c.key.year, c.key.year)),
            example: Some((
                Example {
                    weaker_rank: c.key.weaker_rank,
                    year: c.key.year,
                    month: c.key.month,
                    earlier: u32::MAX - c.example,
                },
                c.example,
            )),
            variations: 0,
            tenuki: 0,
            evals: EvalSums::default(),
        }
    }

    /// Adds another tally's counts to this one's.
    pub fn merge(&mut self, o: &Tally) {
        self.count += o.count;
        self.variations += o.variations;
        self.tenuki += o.tenuki;
        self.black_wins += o.black_wins;
        self.white_wins += o.white_wins;
        self.mover_rank_sum += o.mover_rank_sum;
        self.mover_ranked += o.mover_ranked;
        self.opponent_rank_sum += o.opponent_rank_sum;
        self.opponent_ranked += o.opponent_ranked;
        self.evals.merge(&o.evals);
        self.years = match (self.years, o.years) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (x, None) => x,
            (None, y) => y,
        };
        if let Some((key, game)) = o.example {
            if self.example.is_none_or(|(best, _)| key > best) {
                self.example = Some((key, game));
            }
        }
    }
}

/// Whether game `g`'s positions count in statistics when exact copies count once: an original
/// always does; a copy only when neither its original nor an earlier copy of it is in the
/// answer (`member` says which games are).
pub(crate) fn counts_once<S: Store>(index: &S, g: u32, member: impl Fn(u32) -> bool) -> bool {
    let Some(original) = index.original(g) else {
        return true;
    };
    !member(original)
        && index
            .copies(original)
            .iter()
            .take_while(|&&c| c < g)
            .all(|&c| !member(c))
}

/// The move that followed a hit, as the store gives it: colour and point (`None` for a pass),
/// or `None` after the last move.
pub(crate) type NextMove = Option<(Color, Option<Point>)>;

/// What one hit position contributes to a pattern's or a sequence's continuation table, once
/// for each region the query appeared in there: the key of what appeared (placements,
/// orientations of a sequence) in that region, the first move played later inside the region
/// (`None`: none ever was), whether moves elsewhere came first, and the position that move was
/// played from: the row's move, whose evaluation is that move's own (before it against after
/// it, not the hit position's), as `docs/queries.md` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Followed<K> {
    pub(crate) key: K,
    pub(crate) next: NextMove,
    pub(crate) tenuki: bool,
    pub(crate) from: u32,
}

/// The continuation table of pattern or sequence hits, and how many hit positions had no
/// continuation ([`crate::Answer::no_continuation`]). Both key each hit's moves by what
/// appeared there: few distinct keys for many hits, so the moves are tallied first by (key,
/// move as played) and each key is mapped back into the query's frame once, through the
/// mappings `images_of` gives for it (the smallest SGF point among them, as for positions).
/// Each hit counts for its game (an original) and for the copies the answer holds — only the
/// first of them when copies count once ([`Store::each_copy_counts`]) — and counted in chunks
/// on all cores, small enough that a few thousand hits keep both busy.
pub(crate) fn continuation_rows<S, T, K, I>(
    index: &S,
    found: &[T],
    of: impl Fn(&T) -> (u32, &[Followed<K>]) + Sync,
    filter: Filter<'_>,
    images_of: impl Fn(K) -> I,
) -> (Vec<Continuation>, usize)
where
    S: Store,
    T: Sync,
    K: Copy + Eq + std::hash::Hash + Send,
    I: Iterator<Item = Back>,
{
    use rayon::prelude::*;
    type Raw<K> = ahash::AHashMap<(K, Color, Option<Point>), Tally>;
    let each_copy = index.each_copy_counts();
    let removed = index.has_removed();
    let lines = index.has_lines();
    let evals = index.has_evals();
    let count = |(mut raw, mut none): (Raw<K>, usize), chunk: &[T]| {
        for item in chunk {
            let (game, nexts) = of(item);
            let games = std::iter::once(game)
                .chain(index.copies(game).iter().copied())
                .filter(|&g| !(removed && index.is_removed(g)))
                .filter(|g| filter.is_none_or(|f| f.binary_search(g).is_ok()))
                .filter(|&g| each_copy || !index.counted_elsewhere(g))
                .take(if each_copy { usize::MAX } else { 1 });
            for g in games {
                let (winner, facts) = (index.winner(g), index.facts(g));
                let line = lines && index.branch(g).is_some();
                for f in nexts {
                    let Some((color, point)) = f.next else {
                        none += usize::from(!line);
                        continue;
                    };
                    let row = raw.entry((f.key, color, point)).or_default();
                    match line {
                        true => row.add_line(),
                        false => {
                            row.add(g, color, winner, &facts);
                            row.tenuki += u32::from(f.tenuki);
                            if let Some(e) = evals.then(|| index.move_eval(g, f.from)).flatten() {
                                row.add_eval(&e);
                            }
                        }
                    }
                }
            }
        }
        (raw, none)
    };
    // Each of rayon's split jobs counts its run of chunks into one table (fold), so that the
    // tables merged are a few, not one per chunk.
    let (raw, none) = found
        .par_chunks(1 << 11)
        .fold(|| (Raw::<K>::new(), 0), count)
        .reduce(
            || (Raw::<K>::new(), 0),
            |(mut a, n), (b, m)| {
                for (k, v) in b {
                    a.entry(k).or_default().merge(&v);
                }
                (a, n + m)
            },
        );
    let mut table: std::collections::HashMap<(Color, Option<Point>), Tally> =
        std::collections::HashMap::new();
    for ((key, color, point), tally) in raw {
        let Some(row) = map_back(images_of(key), color, point) else {
            continue;
        };
        table.entry(row).or_default().merge(&tally);
    }
    (sorted_rows(table), none)
}

/// The rows of a continuation table, most frequent first (ties by colour, then SGF point).
pub fn sorted_rows(table: HashMap<(Color, Option<Point>), Tally>) -> Vec<Continuation> {
    let mut rows: Vec<Continuation> = table
        .into_iter()
        .map(|((color, point), tally)| Continuation {
            color,
            point,
            tally,
        })
        .collect();
    // Rows played by no game (variation lines only) come after the played ones, by how many
    // lines play them.
    rows.sort_by(|a, b| {
        (b.tally.count, b.tally.variations)
            .cmp(&(a.tally.count, a.tally.variations))
            .then_with(|| {
                (a.color, a.point.map(|p| p.sgf_string()))
                    .cmp(&(b.color, b.point.map(|p| p.sgf_string())))
            })
    });
    rows
}
