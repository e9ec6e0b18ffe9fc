//! Game information, normalised: results, dates, ranks and numbers, each kept beside its raw text.
//!
//! Game-info values are free text in practice. FF\[4\] prescribes formats (`B+3.5`, `YYYY-MM-DD`,
//! `9p`, `KM[6.5]`), but real archives break them in every direction: Fox writes `KM[650]` and
//! `BR[P9段]`, WTF files write `RE[黑中盘胜]` and `DT[1985-8-27]`, Japanese files `黒中押し勝ち`,
//! old files `DT[29.11.2012]` or `TM[1 hour]`. Search and statistics need one value per property,
//! so each parser here reads the forms found in the datasets, returns a small normalised type, and
//! says `None`/`Unknown` for anything it can't read with confidence. The caller keeps the raw string
//! beside the normalised value, so nothing is lost and a wrong guess can be re-done.
//!
//! All functions take text that is already decoded (charset detection happens elsewhere), accept
//! any input without panicking, and fold full-width characters (`９ｐ`, `Ｂ＋Ｒ`) first. Each
//! submodule's documentation lists the decisions it makes on ambiguous forms.

mod date;
mod lex;
mod number;
mod rank;
mod result;

pub use date::{days_in_month, parse_date, Date, DateRange};
pub use number::{
    normalise_name, parse_handicap, parse_komi, parse_komi_detail, parse_time, Komi, ScoreUnit,
};
pub use rank::{parse_rank, Rank, RankKind};
pub use result::{parse_result, GameResult, WinKind, Winner};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parser on every prefix and suffix of awkward strings, and on pseudo-random strings
    /// over an alphabet of the characters the parsers care about: no panics.
    #[test]
    fn no_input_panics() {
        let seeds = [
            "B+3.5",
            "W++1.0",
            "黑胜3又3/4子",
            "白番3目半勝ち",
            "백 반집승",
            "1996-12-27,28,1997-01-03,04",
            "2003年5月6日-8日",
            "平成15年",
            "April 14-15, 1957",
            "29.11.2012",
            "P9段",
            "职业初段",
            "9-dan professional",
            "5:00:00(5x1:00)",
            "1h30m",
            "黑贴3又3/4子",
            "五又二分之一子",
            "“ Go Seigen ”",
            "１２３",
            "20030506",
            "0800 approx.",
            "十五级",
            "二十五",
            "半",
        ];
        let check = |s: &str| {
            let _ = parse_result(s).to_sgf();
            let _ = parse_result(s).to_wtf();
            if let Some(d) = parse_date(s) {
                let _ = (d.to_sgf(), d.to_wtf(), d.start.days_since_epoch());
                assert!(d.start <= d.end, "{s:?}");
            }
            let _ = parse_rank(s).map(|r| (r.to_sgf(), r.order()));
            let _ = parse_komi_detail(s);
            let _ = parse_handicap(s);
            let _ = parse_time(s);
            let _ = normalise_name(s);
        };
        for seed in seeds {
            for (i, _) in seed.char_indices() {
                check(&seed[i..]);
                check(&seed[..i]);
            }
        }
        let alphabet: Vec<char> = "0123456789 +-./:,~*?年月日号段级胜负白黑黒中盘半目子又分之一二十九初pPdkKBWRT集집반승흑백단급時間分秒hms"
            .chars()
            .collect();
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        for _ in 0..20_000 {
            let len = next() % 14;
            let s: String = (0..len)
                .map(|_| alphabet[next() % alphabet.len()])
                .collect();
            check(&s);
        }
    }
}
