//! Each game's facts as statistics and filters need them (`facts.bin`): the month of its date,
//! both players' ranks on one scale, handicap, komi and the result's class, in 8 fixed bytes.
//!
//! A continuation table or a date profile reads these for every game of an answer (400,000 for
//! the empty board of all shared games), and a filter on them narrows a position's hits in the
//! search loop: the metadata index would need a stored-document look-up per game, about a
//! microsecond each, where a byte array costs a few nanoseconds. The values are coarse on
//! purpose: a month (not a day), a rank step, a quarter point of komi.
//!
//! Komi is kept to the quarter point, since servers write quarters (Fox gives its Chinese-rules
//! games 3.75 or 3.25, in stones): a komi filter must not take 3.75 for 4. The byte holds it in
//! half points, rounded away from zero, and the month byte's top bit says that it was a quarter
//! (format 23; in older indexes the bit is never set, and quarters were rounded).

use sgf::info::{Rank, Winner};
use sgf::GameInfo;

/// One game's facts. Unknown values are 0 (komi: [`Facts::NO_KOMI`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Facts {
    /// The year its date starts in, 1 to 65,535; 0 when undated (or dated before year 1).
    pub year: u16,
    /// The month, 1 to 12, when the date lies within one month; 0 otherwise (a whole year, a
    /// range, undated).
    pub month: u8,
    /// Black's rank as [`rank_code`] writes it; 0 unknown.
    pub black_rank: u8,
    /// White's rank; 0 unknown.
    pub white_rank: u8,
    /// Handicap stones as `HA` says (0 when not given).
    pub handicap: u8,
    /// Komi in quarter points, −254 to 254 (−63.5 to 63.5); [`Facts::NO_KOMI`] when not given,
    /// unreadable or beyond.
    pub komi_quarters: i16,
    /// The result: 0 unknown, 1 Black won, 2 White won, 3 a draw, 4 void.
    pub result: u8,
}

/// A rank on one scale as a byte: 50k = 1 … 1k = 50, 1d = 51 … 10d = 60, 1p = 61 … 9p = 69
/// ([`Rank::order`] + 50). 0 is "unknown".
pub fn rank_code(rank: &Rank) -> u8 {
    (rank.order() + 50).clamp(1, 255) as u8
}

impl Facts {
    /// Bytes of one game's facts in `facts.bin`.
    pub const SIZE: usize = 8;
    /// The komi of a game that gives none.
    pub const NO_KOMI: i16 = i16::MIN;
    /// The month byte's bit saying that the komi is a quarter point.
    const QUARTER: u8 = 0x80;

    /// The facts of a game's information.
    pub fn of(info: &GameInfo) -> Facts {
        let (year, month) = match info.date.as_ref().and_then(|d| d.value) {
            Some(d) if d.start.year >= 1 => {
                let same_month = (d.start.year, d.start.month) == (d.end.year, d.end.month);
                (
                    d.start.year.min(i32::from(u16::MAX)) as u16,
                    if same_month { d.start.month } else { 0 },
                )
            }
            _ => (0, 0),
        };
        let rank = |r: &Option<sgf::gameinfo::Field<Rank>>| {
            r.as_ref()
                .and_then(|f| f.value)
                .map_or(0, |r| rank_code(&r))
        };
        let komi_quarters = match info.komi.as_ref().and_then(|k| k.value) {
            Some(k) if k.is_finite() && (k * 4.0).round().abs() <= 254.0 => {
                (k * 4.0).round() as i16
            }
            _ => Facts::NO_KOMI,
        };
        let result = match info.result.as_ref().and_then(|r| r.value).map(|r| r.winner) {
            Some(Winner::Black) => 1,
            Some(Winner::White) => 2,
            Some(Winner::Draw) => 3,
            Some(Winner::Void) => 4,
            Some(Winner::Unknown) | None => 0,
        };
        Facts {
            year,
            month,
            black_rank: rank(&info.black_rank),
            white_rank: rank(&info.white_rank),
            handicap: info.handicap.as_ref().and_then(|h| h.value).unwrap_or(0),
            komi_quarters,
            result,
        }
    }

    /// The komi in half points, quarters rounded away from zero (3.75 is 8, −3.75 is −8); `None`
    /// when unknown. What the exports' `komi_halves` columns hold.
    pub fn komi_halves(&self) -> Option<i8> {
        let q = self.komi_quarters;
        (q != Facts::NO_KOMI).then(|| ((q + q.signum() * (q & 1)) / 2) as i8)
    }

    /// The bytes of `facts.bin` for this game.
    pub fn to_bytes(&self) -> [u8; Facts::SIZE] {
        let y = self.year.to_le_bytes();
        [
            y[0],
            y[1],
            self.month | (Facts::QUARTER * (self.komi_quarters & 1) as u8),
            self.black_rank,
            self.white_rank,
            self.handicap,
            self.komi_halves().unwrap_or(i8::MIN) as u8,
            self.result,
        ]
    }

    /// The facts these bytes hold.
    pub fn from_bytes(b: [u8; Facts::SIZE]) -> Facts {
        Facts {
            year: u16::from_le_bytes([b[0], b[1]]),
            month: b[2] & !Facts::QUARTER,
            black_rank: b[3],
            white_rank: b[4],
            handicap: b[5],
            komi_quarters: match b[6] as i8 {
                i8::MIN => Facts::NO_KOMI,
                h => {
                    let h = i16::from(h);
                    match b[2] & Facts::QUARTER {
                        0 => 2 * h,
                        _ => 2 * h - h.signum(),
                    }
                }
            },
            result: b[7],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(record: &str) -> Facts {
        let records = sgf::Records::read(record.as_bytes());
        let tree = records.game(0).unwrap();
        Facts::of(&GameInfo::read(&tree))
    }

    #[test]
    fn a_games_information_becomes_its_facts_and_reads_back() {
        let f = facts("(;SZ[19]DT[2016-03-13]BR[9p]WR[3k]HA[2]KM[0.5]RE[W+R];B[pd])");
        assert_eq!((f.year, f.month), (2016, 3));
        assert_eq!((f.black_rank, f.white_rank), (69, 48));
        assert_eq!((f.handicap, f.komi_quarters, f.result), (2, 2, 2));
        assert_eq!(Facts::from_bytes(f.to_bytes()), f);
        // A whole year has no month; nothing given is all unknown.
        let f = facts("(;DT[2016]KM[-6.5]RE[Draw])");
        assert_eq!(
            (f.year, f.month, f.komi_quarters, f.result),
            (2016, 0, -26, 3)
        );
        let f = facts("(;SZ[19])");
        assert_eq!(
            f,
            Facts {
                komi_quarters: Facts::NO_KOMI,
                ..Facts::default()
            }
        );
        assert_eq!(Facts::from_bytes(f.to_bytes()), f);
    }

    #[test]
    fn komi_is_kept_to_the_quarter_point() {
        for (km, quarters, halves) in [
            ("3.75", 15, 8),
            ("3.25", 13, 7),
            ("-3.75", -15, -8),
            ("-0.25", -1, -1),
            ("0.25", 1, 1),
            ("4", 16, 8),
            ("6.5", 26, 13),
            ("0", 0, 0),
            ("63.5", 254, 127),
            ("-63.5", -254, -127),
            ("6.3", 25, 13),
        ] {
            let f = facts(&format!("(;DT[2016-03]KM[{km}])"));
            assert_eq!(f.komi_quarters, quarters, "{km}");
            assert_eq!(f.komi_halves(), Some(halves), "{km}");
            let back = Facts::from_bytes(f.to_bytes());
            assert_eq!(back, f, "{km}");
            assert_eq!(back.month, 3, "{km}");
        }
        for km in ["64", "-64", "1e9", "x"] {
            let f = facts(&format!("(;KM[{km}])"));
            assert_eq!(f.komi_quarters, Facts::NO_KOMI, "{km}");
            assert_eq!(Facts::from_bytes(f.to_bytes()), f, "{km}");
        }
        // An older index's byte: half points, no quarter bit.
        let mut b = facts("(;DT[2016-03]KM[7.5])").to_bytes();
        b[6] = 8;
        assert_eq!(Facts::from_bytes(b).komi_quarters, 16);
    }
}
