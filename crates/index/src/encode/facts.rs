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

pub use model::Facts;

/// Bytes of one game's facts in `facts.bin`.
pub const SIZE: usize = 8;
/// The month byte's bit saying that the komi is a quarter point.
const QUARTER: u8 = 0x80;

/// A rank on the facts' one scale ([`model::rank`]) as a byte.
pub fn rank_code(rank: &Rank) -> u8 {
    model::rank::code(rank.order())
}

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
        Some(k) if k.is_finite() && (k * 4.0).round().abs() <= 254.0 => (k * 4.0).round() as i16,
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

/// The bytes of `facts.bin` for a game.
pub fn to_bytes(f: &Facts) -> [u8; SIZE] {
    let y = f.year.to_le_bytes();
    [
        y[0],
        y[1],
        f.month | (QUARTER * (f.komi_quarters & 1) as u8),
        f.black_rank,
        f.white_rank,
        f.handicap,
        f.komi_halves().unwrap_or(i8::MIN) as u8,
        f.result,
    ]
}

/// The facts these bytes hold.
pub fn from_bytes(b: [u8; SIZE]) -> Facts {
    Facts {
        year: u16::from_le_bytes([b[0], b[1]]),
        month: b[2] & !QUARTER,
        black_rank: b[3],
        white_rank: b[4],
        handicap: b[5],
        komi_quarters: match b[6] as i8 {
            i8::MIN => Facts::NO_KOMI,
            h => {
                let h = i16::from(h);
                match b[2] & QUARTER {
                    0 => 2 * h,
                    _ => 2 * h - h.signum(),
                }
            }
        },
        result: b[7],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(record: &str) -> Facts {
        let records = sgf::Records::read(record.as_bytes());
        let tree = records.game(0).unwrap();
        of(&GameInfo::read(&tree))
    }

    #[test]
    fn a_games_information_becomes_its_facts_and_reads_back() {
        let f = facts("(;SZ[19]DT[2016-03-13]BR[9p]WR[3k]HA[2]KM[0.5]RE[W+R];B[pd])");
        assert_eq!((f.year, f.month), (2016, 3));
        assert_eq!((f.black_rank, f.white_rank), (69, 48));
        assert_eq!((f.handicap, f.komi_quarters, f.result), (2, 2, 2));
        assert_eq!(from_bytes(to_bytes(&f)), f);
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
        assert_eq!(from_bytes(to_bytes(&f)), f);
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
            let back = from_bytes(to_bytes(&f));
            assert_eq!(back, f, "{km}");
            assert_eq!(back.month, 3, "{km}");
        }
        for km in ["64", "-64", "1e9", "x"] {
            let f = facts(&format!("(;KM[{km}])"));
            assert_eq!(f.komi_quarters, Facts::NO_KOMI, "{km}");
            assert_eq!(from_bytes(to_bytes(&f)), f, "{km}");
        }
        // An older index's byte: half points, no quarter bit.
        let mut b = to_bytes(&facts("(;DT[2016-03]KM[7.5])"));
        b[6] = 8;
        assert_eq!(from_bytes(b).komi_quarters, 16);
    }
}
