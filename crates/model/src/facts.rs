//! What statistics and filters know of a game besides its moves.

/// One game's facts, coarse on purpose (a month, a rank step, a quarter point of komi): a
/// continuation table reads them for every game of an answer, so they fit in a few bytes.
/// Unknown values are 0 (komi: [`Facts::NO_KOMI`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Facts {
    /// The year its date starts in, 1 to 65,535; 0 when undated (or dated before year 1).
    pub year: u16,
    /// The month, 1 to 12, when the date lies within one month; 0 otherwise (a whole year, a
    /// range, undated).
    pub month: u8,
    /// Black's rank on the [`rank`] scale; 0 unknown.
    pub black_rank: u8,
    /// White's rank on the same scale; 0 unknown.
    pub white_rank: u8,
    /// Handicap stones as `HA` says (0 when not given).
    pub handicap: u8,
    /// Komi in quarter points, −254 to 254 (−63.5 to 63.5); [`Facts::NO_KOMI`] when not given,
    /// unreadable or beyond.
    pub komi_quarters: i16,
    /// The result: 0 unknown, 1 Black won, 2 White won, 3 a draw, 4 void.
    pub result: u8,
}

impl Facts {
    /// The komi of a game that gives none.
    pub const NO_KOMI: i16 = i16::MIN;

    /// The komi in half points, quarters rounded away from zero (3.75 is 8, −3.75 is −8); `None`
    /// when unknown. What the index stores and the exports' `komi_halves` columns hold.
    pub fn komi_halves(&self) -> Option<i8> {
        let q = self.komi_quarters;
        (q != Facts::NO_KOMI).then(|| ((q + q.signum() * (q & 1)) / 2) as i8)
    }
}

/// The one rank scale of [`Facts::black_rank`] and [`Facts::white_rank`]: a byte, 50k = 1 … 1k =
/// 50, 1d = 51 … 10d = 60, 1p = 61 … 9p = 69, so that "stronger" is "greater" and a mean of
/// ranks is a mean of bytes. 0 is unknown.
pub mod rank {
    /// The rank nobody gave.
    pub const UNKNOWN: u8 = 0;

    /// The byte of a rank given by its order (50k = −49, 1k = 0, 1d = 1, 1p = 11, 9p = 19: the order of
    /// `sgf::info::Rank`), clamped to the scale's bytes.
    pub fn code(order: i32) -> u8 {
        (order.saturating_add(50)).clamp(1, 255) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_halves_round_quarters_away_from_zero() {
        for (quarters, halves) in [(15, 8), (13, 7), (-15, -8), (-1, -1), (1, 1), (26, 13)] {
            let f = Facts {
                komi_quarters: quarters,
                ..Facts::default()
            };
            assert_eq!(f.komi_halves(), Some(halves), "{quarters}");
        }
        let unknown = Facts {
            komi_quarters: Facts::NO_KOMI,
            ..Facts::default()
        };
        assert_eq!(unknown.komi_halves(), None);
    }

    #[test]
    fn the_rank_scale_orders_kyu_dan_and_pro() {
        assert_eq!(rank::code(-49), 1);
        assert_eq!(rank::code(0), 50);
        assert_eq!(rank::code(1), 51);
        assert_eq!(rank::code(19), 69);
        assert_eq!(rank::code(i32::MIN), 1);
        assert_eq!(rank::code(i32::MAX), 255);
    }
}
