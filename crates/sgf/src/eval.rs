//! Engine evaluations that game records carry: what an engine (KataGo, Leela Zero, …) thought
//! of each position of the main line, as the program that ran it wrote it into the record.
//!
//! Every program writes its own property and takes its own side: some give the win rate of
//! the player to move, some of the player who just moved, some Black's. What this module
//! hands on is one shape, from Black's side whatever the file said, so that the index, the
//! search and every client read the same numbers.

/// An engine's evaluation of one position, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    /// Black's probability of winning, from 0.0 to 1.0.
    pub win: f32,
    /// Black's lead in points (negative when White leads), where the program wrote one.
    pub lead: Option<f32>,
    /// The visits (playouts) behind the evaluation, where the program wrote them.
    pub visits: Option<u32>,
}

/// What a move cost the player who made it: the evaluation before it less the evaluation after
/// it, both from the mover's side. Positive is a loss; a move that gained is negative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    /// Of the mover's probability of winning (0.10 = ten points of win rate).
    pub win: f32,
    /// Of the mover's lead in points, where both evaluations have a lead.
    pub lead: Option<f32>,
}

impl Eval {
    /// What the move from `self` (the position before it) to `after` cost its player, Black when
    /// `black_moved`. The one place the sign of a loss is decided.
    pub fn loss(&self, after: &Eval, black_moved: bool) -> Loss {
        let sign = if black_moved { 1.0 } else { -1.0 };
        Loss {
            win: sign * (self.win - after.win),
            lead: match (self.lead, after.lead) {
                (Some(b), Some(a)) => Some(sign * (b - a)),
                _ => None,
            },
        }
    }
}

/// The evaluations a game record carries for its main line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evals {
    /// `positions[k]` evaluates the position after the main line's first `k` moves (passes are
    /// moves; `positions[0]` is the starting position, setup stones included); `None` where the
    /// record says nothing of that position. Never longer than the main line's moves plus one.
    pub positions: Vec<Option<Eval>>,
    /// The program whose property the evaluations were read from (`"Sabaki"`, `"Lizzie"`, …).
    pub program: &'static str,
    /// The engine or network the record names, where it names one.
    pub engine: Option<String>,
}

impl Evals {
    /// How many positions have an evaluation.
    pub fn count(&self) -> usize {
        self.positions.iter().filter(|e| e.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(win: f32, lead: f32) -> Eval {
        Eval {
            win,
            lead: Some(lead),
            visits: None,
        }
    }

    #[test]
    fn a_loss_is_taken_from_the_movers_side() {
        // Black 60% and 3 points ahead; after Black's move 40% and 1 point behind: Black lost.
        let (before, after) = (eval(0.6, 3.0), eval(0.4, -1.0));
        let black = before.loss(&after, true);
        assert!((black.win - 0.2).abs() < 1e-6);
        assert!((black.lead.unwrap() - 4.0).abs() < 1e-6);
        // The same change after White's move is White's gain.
        let white = before.loss(&after, false);
        assert!((white.win + 0.2).abs() < 1e-6);
        assert!((white.lead.unwrap() + 4.0).abs() < 1e-6);
        // No lead on one side: no lead loss.
        let bare = Eval {
            lead: None,
            ..after
        };
        assert_eq!(before.loss(&bare, true).lead, None);
    }
}
