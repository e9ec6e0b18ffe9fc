//! What a search for mistakes asks: how much a move must have lost ([`LossThreshold`], read
//! from the words a player writes) and whose moves count ([`Mistakes`]). Apart from the search
//! itself ([`crate::mistakes`]) so that a [`crate::Query`] holds it without depending on the
//! reader.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, QueryError};
use crate::word_kind::WordKind;

/// The refusal of `word`, which is no loss.
fn refuse(kind: WordKind, word: &str) -> Error {
    QueryError::bad_word(kind, word).into()
}

/// How much a move must have lost to be a mistake, as a player writes it: `10%` of win
/// probability, `3pt` (or `3pts`, `3points`) of score, or both (`10%,3pt`: both must hold).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossThreshold {
    /// Win probability lost, from 0.0 to 1.0 (`10%` is 0.1).
    pub win: Option<f64>,
    /// Points lost, 0 or more.
    pub points: Option<f64>,
}

impl LossThreshold {
    /// A threshold of `win` (0.0 to 1.0) and/or `points` (0 or more); at least one.
    pub fn new(win: Option<f64>, points: Option<f64>) -> Result<LossThreshold, Error> {
        let t = LossThreshold { win, points };
        let win_ok = win.is_none_or(|w| (0.0..=1.0).contains(&w));
        let points_ok = points.is_none_or(|p| p.is_finite() && p >= 0.0);
        if (win.is_some() || points.is_some()) && win_ok && points_ok {
            Ok(t)
        } else {
            Err(refuse(WordKind::Loss, &t.to_string()))
        }
    }
}

impl FromStr for LossThreshold {
    type Err = Error;

    fn from_str(word: &str) -> Result<LossThreshold, Error> {
        let bad = || refuse(WordKind::Loss, word);
        let (mut win, mut points) = (None, None);
        for part in word.split(',').map(str::trim) {
            let number = |t: &str| t.trim().parse::<f64>().ok().filter(|n| n.is_finite());
            if let Some(n) = part.strip_suffix('%') {
                let n = number(n).filter(|n| (0.0..=100.0).contains(n));
                if win.is_some() || n.is_none() {
                    return Err(bad());
                }
                win = n.map(|n| n / 100.0);
            } else if let Some(n) = ["points", "point", "pts", "pt"]
                .iter()
                .find_map(|unit| part.strip_suffix(unit))
            {
                let n = number(n).filter(|&n| n >= 0.0);
                if points.is_some() || n.is_none() {
                    return Err(bad());
                }
                points = n;
            } else {
                return Err(bad());
            }
        }
        LossThreshold::new(win, points).map_err(|_| bad())
    }
}

impl fmt::Display for LossThreshold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // In hundredths of a percent, as the index keeps a win probability: 0.05 prints 5%.
        let win = self.win.map(|w| format!("{}%", (w * 1e4).round() / 100.0));
        let points = self.points.map(|p| format!("{p}pt"));
        let parts: Vec<String> = win.into_iter().chain(points).collect();
        f.write_str(&parts.join(","))
    }
}

/// What a search for mistakes asks beside what narrows it: how much a move lost, and whose.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistakes {
    loss: LossThreshold,
    player: Option<String>,
}

// A threshold is checked finite when made (`LossThreshold::new` and its words), so equality is
// an equivalence.
impl Eq for Mistakes {}

impl Mistakes {
    /// The moves that lost at least `loss`.
    pub fn new(loss: LossThreshold) -> Result<Mistakes, Error> {
        let loss = LossThreshold::new(loss.win, loss.points)?;
        Ok(Mistakes { loss, player: None })
    }

    /// Only `player`'s moves (his name as a metadata query reads it: `black:"NAME"`, with his
    /// aliases), in the games where he played.
    pub fn by(mut self, player: impl Into<String>) -> Mistakes {
        self.player = Some(player.into());
        self
    }

    /// How much a move must have lost.
    pub fn loss(&self) -> LossThreshold {
        self.loss
    }

    /// The player whose moves count, if one is named.
    pub fn player(&self) -> Option<&str> {
        self.player.as_deref()
    }

    /// The threshold in the index's units, and the loss the hits are sorted by.
    pub(crate) fn in_units(&self) -> index::MistakeQuery {
        let win = self
            .loss
            .win
            .map(|w| (w * f64::from(index::evals::WIN_UNITS)).round() as i32);
        let lead = self
            .loss
            .points
            .map(|p| (p * f64::from(index::evals::LEAD_UNITS)).round() as i32);
        index::MistakeQuery {
            win,
            lead,
            order: match win {
                Some(_) => index::LossOrder::Win,
                None => index::LossOrder::Lead,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_reads_as_a_percentage_and_or_points() {
        let t = |w: &str| w.parse::<LossThreshold>().unwrap();
        assert_eq!(
            t("10%"),
            LossThreshold {
                win: Some(0.1),
                points: None
            }
        );
        assert_eq!(
            t("3pt"),
            LossThreshold {
                win: None,
                points: Some(3.0)
            }
        );
        assert_eq!(
            t("2.5pts"),
            LossThreshold {
                win: None,
                points: Some(2.5)
            }
        );
        assert_eq!(t("3 points").points, Some(3.0));
        let both = t("10%, 3pt");
        assert_eq!((both.win, both.points), (Some(0.1), Some(3.0)));
        assert_eq!(t(&both.to_string()), both);
        assert_eq!(
            t("3pt,0%"),
            LossThreshold {
                win: Some(0.0),
                points: Some(3.0)
            }
        );
        for wrong in [
            "", "10", "101%", "-1%", "-2pt", "10%,20%", "3pt,1pt", "NaN%", "3p", "x%",
        ] {
            let e = wrong.parse::<LossThreshold>().unwrap_err();
            assert_eq!(e.query().unwrap().word(), Some(WordKind::Loss), "{wrong}");
            assert!(e.to_string().contains("10%,3pt"), "{e}");
        }
        assert!(LossThreshold::new(None, None).is_err());
        assert!(LossThreshold::new(Some(1.5), None).is_err());
    }
}
