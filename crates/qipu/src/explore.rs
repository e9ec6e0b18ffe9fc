//! What an explorer adds to an answer: filters that narrow the whole answer by the games' facts
//! (dates, ranks, handicap, komi, board), the date profile of the hit games, and the rank and
//! year columns of the continuation table.
//!
//! Everything here reads the index's per-game facts (`facts.bin`, 8 bytes a game; a profile by
//! year only their year and the winner, 2 bytes in `years.bin`), never the metadata index: a
//! filter is one pass over them (a millisecond for 400,000 games), and a profile of the empty
//! board's 400,000 hits costs a few milliseconds more than the answer.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, QueryError};

/// Which games a filter keeps by their handicap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Handicap {
    /// Every game (the default).
    #[default]
    Any,
    /// Even games: no handicap given, or `HA` 0 or 1 (one stone is no handicap).
    Even,
    /// Handicap games: `HA` 2 or more.
    Handicap,
}

/// A month of the calendar, as dates filters take them: `year` and `month` 1 to 12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Month {
    /// The year.
    pub year: u16,
    /// 1 to 12.
    pub month: u8,
}

impl Month {
    /// Reads `YYYY` or `YYYY-MM` (a day, `YYYY-MM-DD`, is read as its month: the index keeps
    /// months). A bare year is its first month as a start (`since`) and its last as an end
    /// (`until`).
    pub fn parse(text: &str, end: bool) -> Result<Month, Error> {
        let bad = || {
            Error::from(QueryError::bad_word(
                crate::word_kind::WordKind::Month,
                text,
            ))
        };
        let mut parts = text.trim().split('-');
        let year: u16 = parts
            .next()
            .filter(|y| y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|y| y.parse().ok())
            .filter(|&y| y >= 1)
            .ok_or_else(bad)?;
        let month = match parts.next() {
            None => {
                if end {
                    12
                } else {
                    1
                }
            }
            Some(m) => m
                .parse::<u8>()
                .ok()
                .filter(|m| (1..=12).contains(m))
                .ok_or_else(bad)?,
        };
        if let Some(day) = parts.next() {
            day.parse::<u8>()
                .ok()
                .filter(|d| (1..=31).contains(d))
                .ok_or_else(bad)?;
        }
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(Month { year, month })
    }
}

/// Filters on the games' facts that narrow a whole answer — hits, continuations and profile —
/// set with [`crate::Query::since`] and the others. A game whose fact a filter needs and the
/// index does not know (no date, no rank, no komi) is left out by that filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Narrow {
    pub(crate) since: Option<Month>,
    pub(crate) until: Option<Month>,
    /// Both players at least this rank code (see `index::facts::rank_code`).
    pub(crate) min_rank: Option<u8>,
    pub(crate) handicap: Handicap,
    /// Komi from and to, in quarter points, inclusive.
    pub(crate) komi: Option<(i16, i16)>,
    /// Only games of this board (columns, rows).
    pub(crate) board: Option<(u8, u8)>,
}

impl Narrow {
    /// Whether any filter is set.
    pub(crate) fn is_set(&self) -> bool {
        *self != Narrow::default()
    }

    /// Whether game `g` passes every filter set.
    #[inline]
    pub(crate) fn keeps(&self, index: &index::Index, g: u32) -> bool {
        let f = index.facts(g);
        // A game dated by year only (or by a range across months) counts as its first month.
        let month = Month {
            year: f.year,
            month: f.month.max(1),
        };
        if (self.since.is_some() || self.until.is_some()) && f.year == 0 {
            return false;
        }
        if self.since.is_some_and(|s| month < s) || self.until.is_some_and(|u| month > u) {
            return false;
        }
        if let Some(r) = self.min_rank {
            if f.black_rank < r || f.white_rank < r {
                return false;
            }
        }
        let handicap_ok = match self.handicap {
            Handicap::Any => true,
            Handicap::Even => f.handicap <= 1,
            Handicap::Handicap => f.handicap >= 2,
        };
        if !handicap_ok {
            return false;
        }
        if let Some((lo, hi)) = self.komi {
            let k = f.komi_quarters;
            if k == index::Facts::NO_KOMI || k < lo || k > hi {
                return false;
            }
        }
        if self.board.is_some_and(|b| index.board(g) != b) {
            return false;
        }
        true
    }

    /// The games (ascending) of `within` — every game of the index when `None` — that pass,
    /// hidden games left out.
    pub(crate) fn games(&self, index: &index::Index, within: Option<Vec<u32>>) -> Vec<u32> {
        match within {
            Some(mut ids) => {
                ids.retain(|&g| self.keeps(index, g));
                ids
            }
            None => (0..index.len())
                .into_par_iter()
                .filter(|&g| !index.is_removed(g) && self.keeps(index, g))
                .collect(),
        }
    }
}

/// The rank code of a rank as written (`5d`, `3k`, `9p`), or the caller's error.
pub(crate) fn rank_code(text: &str) -> Result<u8, Error> {
    sgf::info::parse_rank(text)
        .map(|r| index::facts::rank_code(&r))
        .ok_or_else(|| QueryError::bad_word(crate::word_kind::WordKind::Rank, text).into())
}

/// A rank code's place on the scale [`crate::Continuation::mover_rank`] uses: 1k = 0, 1d = 1 …
/// 10d = 10, 1p = 11 … 9p = 19 (kyu below 0).
pub(crate) fn scale(code_mean: f64) -> f64 {
    code_mean - 50.0
}

/// The hit games counted by year (and by month), with how they ended: the date profile of an
/// answer. With copies counted once (the default), a set of exact copies among the hits counts
/// as its first game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// Per year with hit games, ascending.
    pub years: Vec<Period>,
    /// Per month, ascending, when asked for ([`crate::Query::by_month`]); games dated by year
    /// only are then in `no_month`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub months: Option<Vec<Period>>,
    /// Dated games without a month, when months are asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_month: Option<u64>,
    /// Hit games without a date.
    pub undated: u64,
}

impl Profile {
    /// Adds another profile's counts (of other games: another index of a set searched as
    /// one) to this one's, period by period.
    pub(crate) fn merge(&mut self, other: Profile) {
        fn add(into: &mut Vec<Period>, from: Vec<Period>) {
            for p in from {
                let key = (p.year, p.month);
                match into.binary_search_by_key(&key, |q| (q.year, q.month)) {
                    Ok(i) => {
                        let q = &mut into[i];
                        q.games += p.games;
                        q.black_wins += p.black_wins;
                        q.white_wins += p.white_wins;
                    }
                    Err(i) => into.insert(i, p),
                }
            }
        }
        add(&mut self.years, other.years);
        if let Some(theirs) = other.months {
            add(self.months.get_or_insert_with(Vec::new), theirs);
        }
        if let Some(n) = other.no_month {
            *self.no_month.get_or_insert(0) += n;
        }
        self.undated += other.undated;
    }
}

/// One year (or month) of a [`Profile`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Period {
    /// The year.
    pub year: u16,
    /// The month (1 to 12), in a profile by month.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub month: Option<u8>,
    /// Hit games.
    pub games: u64,
    /// Of those, games Black won (as continuation tables count wins).
    pub black_wins: u64,
    /// Of those, games White won.
    pub white_wins: u64,
}

/// The profile of `hits` (in ascending order of `game(hit)`: search hits, or game ids); with
/// copies counted once, the games `elsewhere` names are counted through another index of a set
/// searched as one.
pub(crate) fn profile<H: Sync>(
    index: &index::Index,
    hits: &[H],
    game: impl Fn(&H) -> u32 + Sync,
    each_copy: bool,
    by_month: bool,
    elsewhere: impl Fn(u32) -> bool + Sync,
) -> Profile {
    let member = |g: u32| hits.binary_search_by_key(&g, &game).is_ok();
    let counted = |g: u32| {
        if each_copy {
            return true;
        }
        if elsewhere(g) {
            return false;
        }
        if !index.is_copy(g) {
            return true;
        }
        let original = index.game(g).duplicate_of;
        !member(original)
            && index
                .copies(original)
                .iter()
                .take_while(|&&c| c < g)
                .all(|&c| !member(c))
    };
    // Years 0 to 65535 by (year, month 0–12): a sparse map, summed over chunks on all cores.
    type Counts = std::collections::BTreeMap<(u16, u8), [u64; 3]>;
    let counts = hits
        .par_chunks(1 << 14)
        .map(|chunk| {
            let mut c = Counts::new();
            let mut last: Option<((u16, u8), [u64; 3])> = None;
            let lines = index.has_lines();
            let mut add = |h: &H, year: u16, month: u8, winner: u8| {
                let g = game(h);
                // Variation lines were not played: the profile is of games.
                if lines && index.is_line(g) || !counted(g) {
                    return;
                }
                let key = (year, month);
                let add = [1, u64::from(winner == 1), u64::from(winner == 2)];
                // Games of one period come in runs: summed before the map is touched.
                match &mut last {
                    Some((k, v)) if *k == key => (0..3).for_each(|i| v[i] += add[i]),
                    _ => {
                        if let Some((k, v)) = last.take() {
                            let e = c.entry(k).or_default();
                            (0..3).for_each(|i| e[i] += v[i]);
                        }
                        last = Some((key, add));
                    }
                }
            };
            if by_month {
                // The facts' result class reads `RE` as the winner byte does (1 Black, 2 White).
                index.each_facts(chunk, &game, |h, f| add(h, f.year, f.month, f.result));
            } else {
                // By year, two bytes a game instead of the facts' eight: an answer of a tenth of
                // the games touches a quarter of the pages and half the cache lines
                // (BENCHMARKS.md, Metadata queries: years in two bytes a game).
                index.each_year_and_winner(chunk, &game, |h, (year, winner)| {
                    add(h, year, 0, winner)
                });
            }
            if let Some((k, v)) = last {
                let e = c.entry(k).or_default();
                (0..3).for_each(|i| e[i] += v[i]);
            }
            c
        })
        .reduce(Counts::new, |mut a, b| {
            for (k, v) in b {
                let e = a.entry(k).or_default();
                (0..3).for_each(|i| e[i] += v[i]);
            }
            a
        });
    shape(counts, by_month)
}

/// A profile from hit games counted by (year, month as the facts give it: 0 when the date names
/// no month; year 0 undated), with Black's and White's wins: by year, and by month when asked.
pub(crate) fn shape(
    counts: std::collections::BTreeMap<(u16, u8), [u64; 3]>,
    by_month: bool,
) -> Profile {
    let mut p = Profile {
        months: by_month.then(Vec::new),
        no_month: by_month.then_some(0),
        ..Profile::default()
    };
    for ((year, month), [games, black_wins, white_wins]) in counts {
        if year == 0 {
            p.undated += games;
            continue;
        }
        let period = Period {
            year,
            month: None,
            games,
            black_wins,
            white_wins,
        };
        match p.years.last_mut() {
            Some(y) if y.year == year => {
                y.games += games;
                y.black_wins += black_wins;
                y.white_wins += white_wins;
            }
            _ => p.years.push(period),
        }
        if let Some(months) = &mut p.months {
            if month == 0 {
                *p.no_month.get_or_insert(0) += games;
            } else {
                months.push(Period {
                    month: Some(month),
                    ..period
                });
            }
        }
    }
    p
}
