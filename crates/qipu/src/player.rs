//! A player judged by the engine: over the analysed games of a player (those whose records
//! carry an engine's evaluations, kept in the index), how much his own moves lost, year by year.
//!
//! The rules, the same for every client:
//! - his games are found by his name as a metadata query reads it (`black:"NAME"`,
//!   `white:"NAME"`, his aliases with it), as a search of his mistakes finds them
//!   ([`crate::Mistakes::by`]); hidden games are left out;
//! - a game counts when it keeps evaluations; a move counts when it is his (Black's in the games
//!   he played Black, White's in the others) and the positions before and after it both have an
//!   evaluation; its loss is [`sgf::Eval::loss`], in the index's units;
//! - a move that gained (negative loss: the engine's noise at few visits, or an earlier mistake
//!   it saw late) counts as no loss in the means, so that gains do not hide losses; the score
//!   mean is over the moves with a lead on both sides;
//! - a mistake is a move that lost at least the threshold asked ([`PlayerOptions::mistakes`],
//!   [`DEFAULT_PLAYER_MISTAKE`] by default), both parts when both are given;
//! - rows are by the year of the game's date, oldest first, undated games last (`year: None`).

use serde::Serialize;

use crate::error::Error;
use crate::loss::LossThreshold;
use crate::reader::Index;
use crate::shards::Shards;
use crate::Mistakes;

/// The threshold a player's mistakes are counted at when none is asked: ten points of win
/// probability, a loss that turns a close game and that engines at a few hundred visits do not
/// make from noise alone.
pub const DEFAULT_PLAYER_MISTAKE: LossThreshold = LossThreshold {
    win: Some(0.10),
    points: None,
};

/// What [`Index::player`] is asked beside the name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerOptions {
    /// The loss from which a move is a mistake.
    pub mistakes: LossThreshold,
}

impl Default for PlayerOptions {
    fn default() -> PlayerOptions {
        PlayerOptions {
            mistakes: DEFAULT_PLAYER_MISTAKE,
        }
    }
}

/// A player's play as the engine judged it: a row per year and their total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerStats {
    /// The name asked.
    pub player: String,
    /// The threshold mistakes were counted at, as its word (`10%`, `3pt`, `10%,3pt`).
    #[serde(serialize_with = "threshold_word")]
    pub mistake: LossThreshold,
    /// His games in the index, analysed or not.
    pub games: u64,
    /// One row per year he has analysed games in, oldest first, undated last.
    pub years: Vec<PlayerYear>,
    /// All years together.
    pub total: PlayerYear,
}

/// A player's figures over one year's analysed games (or all of them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerYear {
    /// The year; `None` for undated games (and for the total).
    pub year: Option<u16>,
    /// His games that keep evaluations.
    pub games: u64,
    /// His moves with an evaluation before and after.
    pub moves: u64,
    /// The mean win probability he lost per move (0.02: two points of win rate); `None`
    /// without moves.
    pub mean_win_loss: Option<f64>,
    /// Of `moves`, those with a lead before and after.
    pub score_moves: u64,
    /// The mean points he lost per move, over `score_moves`; `None` without.
    pub mean_score_loss: Option<f64>,
    /// His moves that lost at least the threshold.
    pub mistakes: u64,
    /// `mistakes` per analysed game; `None` without games.
    pub mistakes_per_game: Option<f64>,
}

fn threshold_word<S: serde::Serializer>(t: &LossThreshold, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(t)
}

/// Sums in the index's units (win in 1/10,000, lead in tenths), exact, merged across indexes
/// before the means are taken.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    games: u64,
    moves: u64,
    win_lost: i64,
    score_moves: u64,
    lead_lost: i64,
    mistakes: u64,
}

impl Sums {
    fn add(&mut self, o: &Sums) {
        self.games += o.games;
        self.moves += o.moves;
        self.win_lost += o.win_lost;
        self.score_moves += o.score_moves;
        self.lead_lost += o.lead_lost;
        self.mistakes += o.mistakes;
    }

    fn row(&self, year: Option<u16>) -> PlayerYear {
        let mean = |sum: i64, n: u64, units: f32| {
            (n > 0).then(|| sum as f64 / f64::from(units) / n as f64)
        };
        PlayerYear {
            year,
            games: self.games,
            moves: self.moves,
            mean_win_loss: mean(self.win_lost, self.moves, index::evals::WIN_UNITS),
            score_moves: self.score_moves,
            mean_score_loss: mean(self.lead_lost, self.score_moves, index::evals::LEAD_UNITS),
            mistakes: self.mistakes,
            mistakes_per_game: (self.games > 0).then(|| self.mistakes as f64 / self.games as f64),
        }
    }
}

/// Per year (0: undated), and his games analysed or not.
#[derive(Default)]
struct Tally {
    by_year: std::collections::BTreeMap<u16, Sums>,
    games: u64,
}

impl Index {
    /// `name`'s play as the engine judged it, by year; see the module's rules. A name no game
    /// has is an answer of zeros, not an error.
    pub fn player(&self, name: &str, options: &PlayerOptions) -> Result<PlayerStats, Error> {
        answer(&[self], name, options)
    }

    fn tally(&self, name: &str, options: &PlayerOptions, tally: &mut Tally) -> Result<(), Error> {
        let q = Mistakes::new(options.mistakes)?.in_units();
        let (black, white) = self.games_by_side(name)?;
        let inner = &self.inner;
        let mut games: Vec<u32> = black.iter().chain(&white).copied().collect();
        games.sort_unstable();
        games.dedup();
        tally.games += games.len() as u64;
        for g in games {
            let Some(evals) = inner.evals(g) else {
                continue;
            };
            let (as_black, as_white) = (
                black.binary_search(&g).is_ok(),
                white.binary_search(&g).is_ok(),
            );
            let sums = tally.by_year.entry(inner.facts(g).year).or_default();
            sums.games += 1;
            for lost in evals.losses() {
                if !(if lost.black { as_black } else { as_white }) {
                    continue;
                }
                sums.moves += 1;
                sums.win_lost += i64::from(lost.win.max(0));
                if let Some(lead) = lost.lead {
                    sums.score_moves += 1;
                    sums.lead_lost += i64::from(lead.max(0));
                }
                if q.takes(&lost) {
                    sums.mistakes += 1;
                }
            }
        }
        // The evaluations and facts read: no answer from a damaged block.
        inner.check_intact()?;
        Ok(())
    }
}

impl Shards {
    /// [`Index::player`] over every index of the set, their games together.
    pub fn player(&self, name: &str, options: &PlayerOptions) -> Result<PlayerStats, Error> {
        let parts: Vec<&Index> = self.indexes().iter().collect();
        answer(&parts, name, options)
    }
}

fn answer(parts: &[&Index], name: &str, options: &PlayerOptions) -> Result<PlayerStats, Error> {
    let mut tally = Tally::default();
    for part in parts {
        part.tally(name, options, &mut tally)?;
    }
    let mut total = Sums::default();
    let mut years: Vec<PlayerYear> = Vec::new();
    // Dated years in order, then the undated.
    let undated = tally.by_year.remove(&0);
    for (year, sums) in &tally.by_year {
        total.add(sums);
        years.push(sums.row(Some(*year)));
    }
    if let Some(sums) = undated {
        total.add(&sums);
        years.push(sums.row(None));
    }
    Ok(PlayerStats {
        player: name.to_string(),
        mistake: options.mistakes,
        games: tally.games,
        years,
        total: total.row(None),
    })
}
