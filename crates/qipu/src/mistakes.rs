//! Mistakes: the moves of analysed games (records that carry an engine's evaluations, kept in
//! the index: `index::evals`) whose player lost at least a given win probability and/or score
//! by the engine's evaluation before and after the move.
//!
//! The rules, the same for every client:
//! - a move's loss is the mover's evaluation before it less the one after it
//!   ([`sgf::Eval::loss`]); a move whose position before or after has no evaluation is no hit;
//! - with a player named ([`Mistakes::by`]), only that player's moves count: Black's moves in
//!   the games where he is Black, White's where he is White;
//! - everything that narrows a search narrows this one (a metadata query, dates, ranks,
//!   handicap, komi, a list of games);
//! - with a position, a pattern or a move sequence, the moves weighed are those its
//!   continuation rows count: of a position, the move played from each place it was reached;
//!   of a pattern or sequence, the first move played later inside its region, after tenuki
//!   too (`docs/queries.md`): a row's mean loss weighs those moves. A move is one hit however
//!   many regions it continued, and each exact copy of a game is a game of its own;
//! - hits are sorted by the loss asked (win probability when both are; ties by game, then
//!   move), or by date ([`Sort::Oldest`], [`Sort::Newest`]: year and month, then the loss);
//!   offset and limit page them as any answer.

use std::time::Instant;

use goban::{Color, Point};
use serde::Serialize;

use crate::answer::{GameId, GameInfo};
use crate::error::{Error, QueryError, QueryPart};
use crate::loss::Mistakes;
use crate::query::{Plan, Query, Sort};
use crate::reader::Index;
use crate::shards::Shards;

/// The answer to a search for mistakes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MistakesAnswer {
    /// The hits asked for (after the sort, offset and limit).
    pub hits: Vec<Mistake>,
    /// How many moves hit in all.
    pub total: u64,
    /// The games of the index that keep evaluations (a search finds mistakes in these only).
    pub analysed_games: u64,
    /// The search's time, in milliseconds.
    pub search_ms: f64,
}

/// A move that lost at least what was asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mistake {
    /// The game's number.
    pub game: GameId,
    /// The move's number in the main line (1 the first; passes count): it leads from the
    /// position after `move_number - 1` moves to the one after `move_number`.
    pub move_number: u32,
    /// Who played it; serialised as `"B"` or `"W"`.
    #[serde(serialize_with = "crate::answer::color_letter")]
    pub color: Color,
    /// Where; `None` for a pass. Serialised as an SGF point (`"pd"`), a pass as `""`.
    #[serde(serialize_with = "crate::answer::sgf_point")]
    pub point: Option<Point>,
    /// The game's board (columns, rows), to name the point as a player reads it.
    pub board: (u8, u8),
    /// What it cost its player.
    pub loss: Loss,
    /// The evaluation of the position before the move.
    pub before: Evaluation,
    /// The evaluation of the position after it.
    pub after: Evaluation,
    /// Who played, when, the result.
    pub info: GameInfo,
}

/// What a move cost its player, from the player's side: positive is lost.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Loss {
    /// Win probability lost (0.1 is ten percentage points).
    pub win: f64,
    /// Points lost, where both evaluations have a lead.
    pub points: Option<f64>,
}

/// An engine's evaluation of a position, from Black's side, as the index keeps it (win to
/// 1/10,000, lead to a tenth of a point).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// Black's probability of winning, 0.0 to 1.0.
    pub black_win: f64,
    /// Black's lead in points (negative: White leads), where the record gave one.
    pub black_lead: Option<f64>,
    /// The visits behind it, where the record gave them.
    pub visits: Option<u32>,
}

impl From<sgf::Eval> for Evaluation {
    fn from(e: sgf::Eval) -> Evaluation {
        // Through the decimal the index's units print as, so that 0.1235 is 0.1235, not
        // 0.12349999.
        let exact = |v: f32| v.to_string().parse::<f64>().unwrap_or(f64::from(v));
        Evaluation {
            black_win: exact(e.win),
            black_lead: e.lead.map(exact),
            visits: e.visits,
        }
    }
}

/// A hit found, before it is described: its game numbered in the set searched, and the month
/// of its date for a sort by date.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found {
    hit: index::MistakeHit,
    /// `year * 16 + month` (month 0 when unknown); 0 undated.
    month: u32,
}

/// How hits are ordered and how many of them are kept before paging.
struct Order {
    q: index::MistakeQuery,
    sort: Sort,
}

impl Order {
    fn of(query: &Query, mistakes: &Mistakes) -> Result<Order, Error> {
        match query.sort {
            Sort::Indexed | Sort::Oldest | Sort::Newest => Ok(Order {
                q: mistakes.in_units(),
                sort: query.sort,
            }),
            other => Err(QueryError::new(
                QueryPart::Word,
                format!(
                    "mistakes are sorted by their loss (the default) or by date (oldest, \
                     newest), not {other}"
                ),
            )
            .into()),
        }
    }

    fn by_date(&self) -> bool {
        self.sort != Sort::Indexed
    }

    fn cmp(&self, a: &Found, b: &Found) -> std::cmp::Ordering {
        self.cmp_dated((a.month, &a.hit), (b.month, &b.hit))
    }

    /// Hits with their games' months (0: undated) in this order.
    fn cmp_dated(
        &self,
        (a_month, a): (u32, &index::MistakeHit),
        (b_month, b): (u32, &index::MistakeHit),
    ) -> std::cmp::Ordering {
        let (a_dated, b_dated) = (a_month != 0, b_month != 0);
        let date = match self.sort {
            Sort::Oldest => b_dated.cmp(&a_dated).then(a_month.cmp(&b_month)),
            Sort::Newest => b_dated.cmp(&a_dated).then(b_month.cmp(&a_month)),
            _ => std::cmp::Ordering::Equal,
        };
        date.then_with(|| self.q.cmp(a, b))
    }

    /// Keeps the first `first` of `hits` in this order, sorted.
    fn keep_first(&self, hits: &mut Vec<Found>, first: usize) {
        if hits.len() > first {
            if first == 0 {
                hits.clear();
                return;
            }
            hits.select_nth_unstable_by(first - 1, |a, b| self.cmp(a, b));
            hits.truncate(first);
        }
        hits.sort_unstable_by(|a, b| self.cmp(a, b));
    }
}

/// Games selected are read one by one when they are at most one analysed game in this many: a
/// game read costs about 8 µs, an analysed game's entries at the front of a list about 10 ns
/// (BENCHMARKS.md, Evaluations: mistakes).
const FEW_GAMES: usize = 1000;

/// The hits `query` pages out of `total`: offset and limit.
fn first_wanted(query: &Query) -> usize {
    query
        .limit
        .map_or(usize::MAX, |l| query.offset.saturating_add(l))
}

impl Index {
    /// The moves that lost what `query`'s mistakes part asks ([`Query::mistakes`],
    /// [`Query::and_mistakes`]), narrowed as the query says; see the module's rules. A query
    /// without a mistakes part is refused; a stopped one ([`Query::stop_when`]) answers
    /// [`crate::ErrorKind::Stopped`].
    pub fn mistakes(&self, query: &Query) -> Result<MistakesAnswer, Error> {
        answer(&[self], query)
    }

    /// `query`'s hits in this index, among the games `within` allows (this index's numbers):
    /// how many, and the first `first` in `order`.
    fn find_mistakes(
        &self,
        query: &Query,
        mistakes: &Mistakes,
        order: &Order,
        within: Option<&[u32]>,
        first: usize,
    ) -> Result<(Vec<Found>, u64), Error> {
        let inner = &self.inner;
        // A player's games by colour: his moves are Black's in the first, White's in the other.
        let sides = match mistakes.player() {
            Some(name) => Some(self.games_by_side(name)?),
            None => None,
        };
        let his = |g: u32, black: bool| {
            sides.as_ref().is_none_or(|(b, w)| {
                let games = if black { b } else { w };
                games.binary_search(&g).is_ok()
            })
        };
        let months = order.by_date().then(|| inner.months());
        let month = |g: u32| {
            months
                .and_then(|m| m.get(g as usize))
                .map_or(0, |&m| u32::from(m))
        };
        let q = &order.q;
        // A sort by loss reads the front of lists sorted so; a sort by date weighs every hit
        // by its game's month (the index's months, read once).
        let by_date = |a: &index::MistakeHit, b: &index::MistakeHit| {
            order.cmp_dated((month(a.game), a), (month(b.game), b))
        };
        let stop = query.stop.as_ref();
        let stopped = || stop.is_some_and(crate::Stop::is_stopped);
        let want = index::evals::Wanted {
            q,
            first,
            by: order
                .by_date()
                .then_some(&by_date as index::evals::HitOrder),
            stopped: Some(&stopped),
        };
        let (mut hits, total) = if !query.metadata_only() {
            let mut searched = query.clone();
            searched.mistakes = None;
            searched.limit = None;
            searched.offset = 0;
            searched.sort = Sort::Indexed;
            let mut plan = searched.plan()?;
            // A pattern's or a sequence's rows count the first move played later in its
            // region: the search names those moves.
            match &mut plan {
                Plan::Pattern(p) => p.continued = true,
                Plan::Sequence(s) => s.continued = true,
                Plan::Position(_) | Plan::Metadata { .. } => {}
            }
            let found = self.find(&searched, &plan, within, None)?;
            // (game, the position each move weighed was played from): a position's rows
            // count the move played from each position hit.
            let played: Vec<(u32, u32)> = match plan {
                Plan::Position(_) => found
                    .hits
                    .iter()
                    .flat_map(|h| h.moves.iter().map(move |&k| (h.game, k)))
                    .collect(),
                _ => found.continued,
            };
            // On all cores, each run of moves into hits of its own (bounded as the page is),
            // then merged.
            use rayon::prelude::*;
            let parts: Vec<(Vec<index::MistakeHit>, u64)> = played
                .par_chunks(index::evals::STOP_EVERY)
                .map(|run| {
                    let (mut hits, mut total) = (Vec::new(), 0u64);
                    if stopped() {
                        return (hits, total);
                    }
                    for &(g, k) in run {
                        // Only the move's two positions are read, not the game's evaluations.
                        let Some((_, lost)) = inner.move_from(g, k as usize) else {
                            continue;
                        };
                        if q.takes(&lost) && his(g, lost.black) {
                            total += 1;
                            want.push(&mut hits, index::MistakeHit { game: g, lost });
                        }
                    }
                    (hits, total)
                })
                .collect();
            let (mut hits, mut total) = (Vec::new(), 0u64);
            for (part, n) in parts {
                total += n;
                for h in part {
                    want.push(&mut hits, h);
                }
            }
            want.finish(&mut hits);
            (hits, total)
        } else {
            let mut games = match query.metadata_query() {
                Some(text) => Some(
                    inner
                        .search_meta(text)
                        .map_err(|e| crate::error::in_users_words(e, text))?,
                ),
                None => None,
            };
            if let Some(allowed) = within {
                games = Some(match games {
                    Some(mut ids) => {
                        ids.retain(|g| allowed.binary_search(g).is_ok());
                        ids
                    }
                    None => allowed.to_vec(),
                });
            }
            if query.narrow.is_set() {
                games = Some(query.narrow.games(inner, games));
            }
            // The games whose Black moves count, and those whose White moves do: the same
            // unless a player is named. `None`: every game.
            let (black, white) = match sides {
                Some((b, w)) => {
                    let of = |side: Vec<u32>| match &games {
                        Some(ids) => side
                            .into_iter()
                            .filter(|g| ids.binary_search(g).is_ok())
                            .collect(),
                        None => side,
                    };
                    (Some(of(b)), Some(of(w)))
                }
                None => (games.clone(), games),
            };
            let selected = match (&black, &white) {
                (Some(b), Some(w)) => b.len() + w.len(),
                _ => usize::MAX,
            };
            // A game bit per side, so that each entry of the lists costs one bit test.
            let bits = |side: &Option<Vec<u32>>| {
                side.as_ref().map(|ids| {
                    let mut bits = vec![0u64; inner.len() as usize / 64 + 1];
                    for &g in ids {
                        bits[g as usize / 64] |= 1 << (g % 64);
                    }
                    bits
                })
            };
            let (black_bits, white_bits) = (bits(&black), bits(&white));
            let keep = |g: u32, is_black: bool| {
                let side = if is_black { &black_bits } else { &white_bits };
                side.as_ref().is_none_or(|b| {
                    b.get(g as usize / 64)
                        .is_some_and(|w| w >> (g % 64) & 1 != 0)
                })
            };
            // Few games (a player's, an event's): read theirs; else the lists' front.
            let found = if selected.saturating_mul(FEW_GAMES) <= inner.analysed_games() {
                let mut union: Vec<u32> = black.into_iter().chain(white).flatten().collect();
                union.sort_unstable();
                union.dedup();
                inner.mistakes_of(want, &union, &keep)
            } else {
                inner.mistakes(want, &keep)
            };
            (found.hits, found.count)
        };
        // A stopped search read only some of them: what it found is not the answer.
        if stopped() {
            return Err(Error::stopped());
        }
        // The lists, evaluations and facts read: no answer from a damaged block.
        inner.check_intact()?;
        let mut found: Vec<Found> = hits
            .drain(..)
            .map(|hit| Found {
                hit,
                month: if order.by_date() { month(hit.game) } else { 0 },
            })
            .collect();
        order.keep_first(&mut found, first);
        Ok((found, total))
    }

    /// The games `name` played as Black and as White (each sorted): his name as a metadata
    /// query reads it (`black:"NAME"`, his aliases with it), so that every client and every
    /// answer about a player finds the same games.
    pub(crate) fn games_by_side(&self, name: &str) -> Result<(Vec<u32>, Vec<u32>), Error> {
        let name = name.replace('"', " ");
        let games = |field: &str| {
            let q = format!("{field}:\"{}\"", name.trim());
            self.inner
                .search_meta(&q)
                .map_err(|e| crate::error::in_users_words(e, &q))
        };
        Ok((games("black")?, games("white")?))
    }

    /// Hit `f` (numbered in this index) described as game `shown` of the set searched.
    fn describe_mistake(&self, f: &Found, shown: GameId) -> Result<Mistake, Error> {
        let (game, lost) = (f.hit.game, f.hit.lost);
        let damaged = |why: &str| {
            Error::from(index::IndexError::Corrupt(format!(
                "game {game}, move {}: {why}",
                lost.k
            )))
        };
        let evals = self
            .inner
            .evals(game)
            .ok_or_else(|| damaged("its evaluations do not read"))?;
        let at = |k: u32| evals.positions.get(k as usize).copied().flatten();
        let (Some(before), Some(after)) = (at(lost.k - 1), at(lost.k)) else {
            return Err(damaged("an evaluation the mistakes list names is missing"));
        };
        let program = self.inner.ops(game);
        let (color, point) = index::ops::moves(&program)
            .nth(lost.k as usize - 1)
            .ok_or_else(|| damaged("the main line is shorter"))?;
        let info = self.info(game)?;
        let rec = self.inner.game(game);
        self.inner.check_intact()?;
        let units = |v: i32, u: f32| f64::from(v) / f64::from(u);
        Ok(Mistake {
            game: shown,
            move_number: lost.k,
            color,
            point,
            board: (rec.width, rec.height),
            loss: Loss {
                win: units(lost.win, index::evals::WIN_UNITS),
                points: lost.lead.map(|l| units(l, index::evals::LEAD_UNITS)),
            },
            before: before.into(),
            after: after.into(),
            info,
        })
    }
}

impl Shards {
    /// [`Index::mistakes`] over every index of the set, numbered as the set numbers games.
    pub fn mistakes(&self, query: &Query) -> Result<MistakesAnswer, Error> {
        let parts: Vec<&Index> = self.indexes().iter().collect();
        answer(&parts, query)
    }
}

/// `query`'s mistakes over `parts` searched as one, their games numbered in that order.
fn answer(parts: &[&Index], query: &Query) -> Result<MistakesAnswer, Error> {
    {
        let started = Instant::now();
        let Some(mistakes) = &query.mistakes else {
            return Err(QueryError::new(
                QueryPart::Nothing,
                "no mistakes asked: give how much a move lost (Query::mistakes)",
            )
            .into());
        };
        let order = Order::of(query, mistakes)?;
        let first = first_wanted(query);
        let mut all = Vec::new();
        let mut total = 0;
        let mut analysed = 0;
        let mut start: GameId = 0;
        let mut starts = Vec::new();
        for part in parts {
            starts.push(start);
            let len = part.len();
            let within: Option<Vec<u32>> = query.allowed().map(|ids| {
                ids.iter()
                    .filter(|&&g| g >= start && g - start < len)
                    .map(|&g| g - start)
                    .collect()
            });
            let (found, n) =
                part.find_mistakes(query, mistakes, &order, within.as_deref(), first)?;
            total += n;
            analysed += part.inner.analysed_games() as u64;
            all.extend(found.into_iter().map(|mut f| {
                f.hit.game += start;
                f
            }));
            start += len;
        }
        order.keep_first(&mut all, first);
        let hits = all
            .iter()
            .skip(query.offset)
            .map(|f| {
                // Every hit was numbered from its part's start above.
                let i = starts.partition_point(|&s| s <= f.hit.game) - 1;
                let local = f.hit.game - starts[i];
                let local_found = Found {
                    hit: index::MistakeHit {
                        game: local,
                        ..f.hit
                    },
                    ..*f
                };
                parts[i].describe_mistake(&local_found, f.hit.game)
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(MistakesAnswer {
            hits,
            total,
            analysed_games: analysed,
            search_ms: started.elapsed().as_secs_f64() * 1e3,
        })
    }
}
