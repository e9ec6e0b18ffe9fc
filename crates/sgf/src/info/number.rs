//! Komi (`KM`), handicap (`HA`), time limit (`TM`) and player names (`PB`/`PW`).
//!
//! FF\[4\] asks for plain numbers, but archives write komi as `6.50`, `6.500000`, `5 1/2`, `3又3/4`
//! or, on the Fox server, as hundredths (`KM[650]`, `KM[375]`); time limits as `1 hour`,
//! `5:00:00(5x1:00)` or `1時間`. Search needs one number per record, so each parser reads the
//! forms found in real files and returns `None` for anything it cannot read with confidence —
//! the caller keeps the raw text beside the value.
//!
//! Decisions:
//! - **Fox hundredths.** A komi written as a three-digit non-negative integer that is a multiple
//!   of 25 (`325`, `375`, `450`, `650`, `750`) is the Fox server's komi × 100 and is divided by 100.
//!   No real komi is 100 points or more written without a decimal point; `-100.00` and `100.0`
//!   are left alone. The unit is *not* converted: Fox writes stones under Chinese rules
//!   (`375` → 3.75 stones = 7.5 points) and points under Japanese rules; [`Komi::fox_scaled`]
//!   tells the caller, who knows `RU`, that this happened.
//! - **Komi units.** A unit written in the value (`子` stones, `目`/`点`/`집`/`points` points) is
//!   reported in [`Komi::unit`]; [`parse_komi`] returns the number as written, in that unit.
//!   [`Komi::points`] converts stones to points (1 stone = 2 points under area counting).
//! - **Handicap** is returned as written, `0` and `1` included (both mean no handicap stones;
//!   archives write both); values above 255 are rejected.
//! - **Time** is in seconds. A bare number is seconds (FF\[4\]); `m:ss` and `h:mm:ss` clocks and
//!   unit words (`h`, `min`, `分`, `時間`, `시간`…) are summed; any text after the first
//!   complete time (overtime such as `(5x1:00)`, `each`) is ignored.
//! - **Names** are folded from full width to ASCII, trimmed, whitespace runs (the ideographic
//!   space included) collapsed to one space, and one pair of surrounding quotes removed.

use super::lex::{amount, any_int, decimal, fold, fold_char};

/// The unit of a score margin or komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ScoreUnit {
    /// Points (目, 집): SGF's unit, and the default when none is written.
    #[default]
    Points,
    /// Stones (子): Chinese area counting, where one stone is worth two points.
    Stones,
}

/// A komi with what was learnt about its unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Komi {
    /// The number as the file means it (Fox hundredths already divided), in [`Komi::unit`] if
    /// one was written.
    pub value: f64,
    /// The unit written in the value, if any.
    pub unit: Option<ScoreUnit>,
    /// Whether the value was written in the Fox server's hundredths (`650` → 6.5). Under
    /// Chinese rules those are stones.
    pub fox_scaled: bool,
}

impl Komi {
    /// The komi in points: stones (when the unit says so) count two points each.
    pub fn points(&self) -> f64 {
        match self.unit {
            Some(ScoreUnit::Stones) => self.value * 2.0,
            _ => self.value,
        }
    }
}

/// Whether nothing in `rest` continues the number just read (end, space, punctuation or any
/// non-ASCII text; not an ASCII letter or digit).
fn ends_cleanly(rest: &str) -> bool {
    !rest
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == '/')
}

/// Strips the first of `prefixes` that `s` starts with, then spaces and a colon.
fn strip_any<'a>(s: &'a str, prefixes: &[&str]) -> &'a str {
    for p in prefixes {
        if s.len() >= p.len() && s.is_char_boundary(p.len()) && s[..p.len()].eq_ignore_ascii_case(p)
        {
            return s[p.len()..].trim_start_matches([' ', ':', '：']);
        }
    }
    s
}

/// Reads a komi (`KM`) with its unit; see the module documentation for the decisions.
pub fn parse_komi_detail(raw: &str) -> Option<Komi> {
    let folded = fold(raw);
    let s = strip_any(
        folded.trim(),
        &["黑贴", "黑貼", "贴目", "贴", "貼", "komi", "덤", "コミ"],
    );
    let (negative, s) = match s.chars().next()? {
        '-' | '−' => (true, &s[s.chars().next()?.len_utf8()..]),
        '+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (amt, len) = amount(s)?;
    if !ends_cleanly(&s[len..]) {
        return None;
    }
    let mut value = amt.value;
    let mut fox_scaled = false;
    if !negative
        && amt.arabic
        && amt.unit.is_none()
        && len == 3
        && s[..3].bytes().all(|b| b.is_ascii_digit())
        && value >= 100.0
        && value % 25.0 == 0.0
    {
        value /= 100.0;
        fox_scaled = true;
    }
    if negative {
        value = -value;
    }
    Some(Komi {
        value,
        unit: amt.unit,
        fox_scaled,
    })
}

/// Reads a komi (`KM`): `6.5`, `0`, `-10`, `7.50`, `5 1/2`, `3又3/4`, Fox's `650`.
///
/// The number is returned in the unit it was written in (see [`parse_komi_detail`] for the unit).
pub fn parse_komi(raw: &str) -> Option<f64> {
    parse_komi_detail(raw).map(|k| k.value)
}

/// Reads a handicap (`HA`): `3`, `03`, `3.0`, `3子`, `让三子`, `9 stones`.
pub fn parse_handicap(raw: &str) -> Option<u8> {
    let folded = fold(raw);
    let s = strip_any(folded.trim(), &["让", "讓", "置"]);
    let (value, len) = match decimal(s) {
        Some((v, len, _)) if v.fract() == 0.0 => (v, len),
        Some(_) => return None,
        None => any_int(s, 3).map(|(v, len)| (f64::from(v), len))?,
    };
    let mut rest = s[len..].trim_start();
    for unit in ["子", "石", "점", "stones", "stone"] {
        if rest.len() >= unit.len()
            && rest.is_char_boundary(unit.len())
            && rest[..unit.len()].eq_ignore_ascii_case(unit)
        {
            rest = &rest[unit.len()..];
            break;
        }
    }
    if !ends_cleanly(rest) || value > 255.0 {
        return None;
    }
    Some(value as u8)
}

/// Unit words for time limits and their length in seconds, longest spelling first within each
/// unit so that `minutes` is not read as `m`.
const TIME_UNITS: &[(&str, f64)] = &[
    ("hours", 3600.0),
    ("hour", 3600.0),
    ("hrs", 3600.0),
    ("hr", 3600.0),
    ("h", 3600.0),
    ("小时", 3600.0),
    ("小時", 3600.0),
    ("時間", 3600.0),
    ("时间", 3600.0),
    ("시간", 3600.0),
    ("minutes", 60.0),
    ("minute", 60.0),
    ("mins", 60.0),
    ("min", 60.0),
    ("m", 60.0),
    ("分钟", 60.0),
    ("分鐘", 60.0),
    ("分", 60.0),
    ("분", 60.0),
    ("seconds", 1.0),
    ("second", 1.0),
    ("secs", 1.0),
    ("sec", 1.0),
    ("s", 1.0),
    ("秒", 1.0),
    ("초", 1.0),
];

fn time_unit(s: &str) -> Option<(f64, usize)> {
    TIME_UNITS.iter().find_map(|&(word, secs)| {
        let fits = s.len() >= word.len()
            && s.is_char_boundary(word.len())
            && s[..word.len()].eq_ignore_ascii_case(word);
        // An ASCII unit must not run on into a longer word ("m" in "more").
        let ascii_ok = || {
            !word.is_ascii()
                || !s[word.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
        };
        (fits && ascii_ok()).then_some((secs, word.len()))
    })
}

/// `m:ss` or `h:mm:ss` at the start of `s`, in seconds.
fn clock(s: &str) -> Option<f64> {
    let mut parts = Vec::with_capacity(3);
    let mut rest = s;
    loop {
        let (v, len) = super::lex::uint(rest, 6)?;
        parts.push((v, len));
        rest = &rest[len..];
        match rest.strip_prefix(':') {
            Some(r) if parts.len() < 3 => rest = r,
            _ => break,
        }
    }
    if parts.len() < 2 || parts[1..].iter().any(|&(v, len)| v >= 60 || len != 2) {
        return None;
    }
    let total = parts
        .iter()
        .fold(0.0, |acc, &(v, _)| acc * 60.0 + f64::from(v));
    Some(total)
}

/// Reads a time limit (`TM`) in seconds: `300`, `142.7`, `1 hour`, `3h`, `1h30m`, `30:00`,
/// `5:00:00(5x1:00)`, `1時間`, `5分`, `각 1시간`.
pub fn parse_time(raw: &str) -> Option<f64> {
    let folded = fold(raw);
    let s = strip_any(
        folded.trim(),
        &[
            "双方各",
            "雙方各",
            "双方",
            "雙方",
            "每方",
            "每人",
            "各",
            "각",
            "each",
        ],
    );
    if let Some(secs) = clock(s) {
        return Some(secs);
    }
    let mut total = 0.0;
    let mut items = 0;
    let mut rest = s;
    loop {
        let trimmed = rest.trim_start();
        let (value, len) = match decimal(trimmed) {
            Some((v, len, _)) => (v, len),
            None => match any_int(trimmed, 6) {
                Some((v, len)) => (f64::from(v), len),
                None => break,
            },
        };
        let after = trimmed[len..].trim_start();
        match time_unit(after) {
            Some((secs, ulen)) => {
                total += value * secs;
                items += 1;
                rest = &after[ulen..];
            }
            None if items == 0 => {
                // A bare number is seconds, as FF[4] asks; it must not run on into a word.
                return (trimmed.as_bytes()[0].is_ascii_digit()
                    && !trimmed[len..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | ':' | '.')))
                .then_some(value);
            }
            None => break,
        }
    }
    (items > 0).then_some(total)
}

/// Normalises a player name (`PB`/`PW`) for display and comparison; see the module documentation.
pub fn normalise_name(raw: &str) -> String {
    // Folding (see `lex::fold`) and collapsing white space in one pass, into one string: this
    // runs for a dozen fields of every game indexed.
    let mut name = String::with_capacity(raw.len());
    let mut space = false;
    for c in raw.chars().filter_map(fold_char) {
        if c.is_whitespace() {
            space = !name.is_empty();
            continue;
        }
        if space {
            name.push(' ');
            space = false;
        }
        name.push(c);
    }
    for (open, close) in [
        ('"', '"'),
        ('\'', '\''),
        ('“', '”'),
        ('‘', '’'),
        ('「', '」'),
        ('『', '』'),
        ('«', '»'),
    ] {
        let mut chars = name.chars();
        if chars.next() == Some(open) && chars.next_back() == Some(close) {
            return name[open.len_utf8()..name.len() - close.len_utf8()]
                .trim()
                .to_string();
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_plain_numbers() {
        assert_eq!(parse_komi("6.5"), Some(6.5));
        assert_eq!(parse_komi("0"), Some(0.0));
        assert_eq!(parse_komi("-10"), Some(-10.0));
        assert_eq!(parse_komi("7.50"), Some(7.5));
        assert_eq!(parse_komi("6.500000"), Some(6.5));
        assert_eq!(parse_komi("0.00"), Some(0.0));
        assert_eq!(parse_komi(" 5.5 "), Some(5.5));
        assert_eq!(parse_komi("-59.5"), Some(-59.5));
        assert_eq!(parse_komi("+7.5"), Some(7.5));
        assert_eq!(parse_komi("11"), Some(11.0));
    }

    #[test]
    fn komi_fox_hundredths() {
        assert_eq!(parse_komi("650"), Some(6.5));
        assert_eq!(parse_komi("750"), Some(7.5));
        assert_eq!(parse_komi("375"), Some(3.75));
        assert_eq!(parse_komi("325"), Some(3.25));
        assert_eq!(parse_komi("450"), Some(4.5));
        let k = parse_komi_detail("375").unwrap();
        assert!(k.fox_scaled);
        assert_eq!(k.unit, None);
        // Not Fox: a decimal point, a sign, or not a multiple of 25.
        assert_eq!(parse_komi("100.00"), Some(100.0));
        assert_eq!(parse_komi("-100"), Some(-100.0));
        assert_eq!(parse_komi("101"), Some(101.0));
        assert!(!parse_komi_detail("6.5").unwrap().fox_scaled);
    }

    #[test]
    fn komi_fractions_and_units() {
        assert_eq!(parse_komi("5 1/2"), Some(5.5));
        assert_eq!(parse_komi("3又3/4"), Some(3.75));
        assert_eq!(parse_komi("2.75"), Some(2.75));
        let k = parse_komi_detail("黑贴3又3/4子").unwrap();
        assert_eq!((k.value, k.unit), (3.75, Some(ScoreUnit::Stones)));
        assert_eq!(k.points(), 7.5);
        assert_eq!(parse_komi("6目半"), Some(6.5));
        assert_eq!(parse_komi("덤 6집반"), Some(6.5));
        assert_eq!(parse_komi("コミ6目半"), Some(6.5));
        assert_eq!(parse_komi("五又二分之一子"), Some(5.5));
        assert_eq!(parse_komi("半目"), Some(0.5));
        assert_eq!(parse_komi("６．５"), Some(6.5));
        assert_eq!(parse_komi("Komi: 6.5"), Some(6.5));
        assert_eq!(parse_komi("6.5 (Japanese)"), Some(6.5));
        assert_eq!(parse_komi_detail("6.5").unwrap().points(), 6.5);
    }

    #[test]
    fn komi_malformed() {
        assert_eq!(parse_komi(""), None);
        assert_eq!(parse_komi("-"), None);
        assert_eq!(parse_komi("?"), None);
        assert_eq!(parse_komi("none"), None);
        assert_eq!(parse_komi("6.5x"), None);
        assert_eq!(parse_komi("6.5.1"), None);
        assert_eq!(parse_komi("--6"), None);
    }

    #[test]
    fn handicap() {
        assert_eq!(parse_handicap("3"), Some(3));
        assert_eq!(parse_handicap("0"), Some(0));
        assert_eq!(parse_handicap("1"), Some(1));
        assert_eq!(parse_handicap("09"), Some(9));
        assert_eq!(parse_handicap(" 4 "), Some(4));
        assert_eq!(parse_handicap("2.0"), Some(2));
        assert_eq!(parse_handicap("3子"), Some(3));
        assert_eq!(parse_handicap("二子"), Some(2));
        assert_eq!(parse_handicap("让三子"), Some(3));
        assert_eq!(parse_handicap("9 stones"), Some(9));
        assert_eq!(parse_handicap("２"), Some(2));
    }

    #[test]
    fn handicap_malformed() {
        assert_eq!(parse_handicap(""), None);
        assert_eq!(parse_handicap("-"), None);
        assert_eq!(parse_handicap("-2"), None);
        assert_eq!(parse_handicap("2.5"), None);
        assert_eq!(parse_handicap("300"), None);
        assert_eq!(parse_handicap("3x"), None);
        assert_eq!(parse_handicap("many"), None);
    }

    #[test]
    fn time_seconds() {
        assert_eq!(parse_time("300"), Some(300.0));
        assert_eq!(parse_time("0"), Some(0.0));
        assert_eq!(parse_time("142.7"), Some(142.7));
        assert_eq!(parse_time(" 1800 "), Some(1800.0));
        assert_eq!(parse_time("1200 + byoyomi"), Some(1200.0));
    }

    #[test]
    fn time_units() {
        assert_eq!(parse_time("1 hour"), Some(3600.0));
        assert_eq!(parse_time("9 hours"), Some(32400.0));
        assert_eq!(parse_time("10 hours each"), Some(36000.0));
        assert_eq!(parse_time("3h"), Some(10800.0));
        assert_eq!(parse_time("1h30m"), Some(5400.0));
        assert_eq!(parse_time("30m"), Some(1800.0));
        assert_eq!(parse_time("30 min"), Some(1800.0));
        assert_eq!(parse_time("90 minutes"), Some(5400.0));
        assert_eq!(parse_time("45s"), Some(45.0));
        assert_eq!(parse_time("5分"), Some(300.0));
        assert_eq!(parse_time("1小时30分钟"), Some(5400.0));
        assert_eq!(parse_time("1時間"), Some(3600.0));
        assert_eq!(parse_time("各3時間"), Some(10800.0));
        assert_eq!(parse_time("각 1시간"), Some(3600.0));
        assert_eq!(parse_time("三小时"), Some(10800.0));
    }

    #[test]
    fn time_clocks() {
        assert_eq!(parse_time("60:00"), Some(3600.0));
        assert_eq!(parse_time("30:00(5x1:00)"), Some(1800.0));
        assert_eq!(parse_time("10:00(5x1:00)"), Some(600.0));
        assert_eq!(parse_time("5:00:00(5x1:00)"), Some(18000.0));
        assert_eq!(parse_time("1:30"), Some(90.0));
    }

    #[test]
    fn time_malformed() {
        assert_eq!(parse_time(""), None);
        assert_eq!(parse_time("-"), None);
        assert_eq!(parse_time("unlimited"), None);
        assert_eq!(parse_time("10more"), None);
        assert_eq!(parse_time("1:75"), None);
        assert_eq!(parse_time("-300"), None);
        assert_eq!(parse_time("5x30"), None);
    }

    #[test]
    fn names() {
        assert_eq!(normalise_name("  Lee   Sedol "), "Lee Sedol");
        assert_eq!(normalise_name("井山\u{3000}裕太"), "井山 裕太");
        assert_eq!(normalise_name("a\tb\nc"), "a b c");
        assert_eq!(normalise_name("\"Go Seigen\""), "Go Seigen");
        assert_eq!(normalise_name("“ Go Seigen ”"), "Go Seigen");
        assert_eq!(normalise_name("「本因坊秀策」"), "本因坊秀策");
        assert_eq!(normalise_name("Ｌｅｅ"), "Lee");
        assert_eq!(normalise_name("O'Neil"), "O'Neil");
        assert_eq!(normalise_name("\""), "\"");
        assert_eq!(normalise_name("   "), "");
        assert_eq!(normalise_name(""), "");
        assert_eq!(normalise_name("a\u{200B} \u{FEFF}b\u{2060}"), "a b");
        assert_eq!(normalise_name("\u{200B}'x'\u{3000}"), "x");
        assert_eq!(normalise_name("''"), "");
        assert_eq!(normalise_name("'\u{3000}'"), "");
        assert_eq!(normalise_name("Ｌｅｅ　Ｓｅｄｏｌ　９ｐ"), "Lee Sedol 9p");
    }
}
