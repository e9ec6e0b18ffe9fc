//! Player ranks (`BR`/`WR`) on one ordered scale.
//!
//! FF\[4\] recommends `10k`/`10 kyu`, `3d`/`3 dan` (with `?` uncertain and `*` established) and
//! `9p` for professionals; archives also write `9P`, Fox's `P9段` (professional) and `9段`
//! (the server's own amateur dan, up to `10段`), `18级`, `九段`, `初段`, `业余5段`, `职业九段`,
//! `아마 5단`, `9p, Kisei`, `11k+`, and ratings such as `1805*`. Searching "games of 7d and
//! above" needs every form on one scale, so a rank is a kind and a level, ordered by
//! [`Rank::order`].
//!
//! Decisions:
//! - **Scale.** `order()` is `1 − level` for kyu (30k = −29 … 1k = 0), `level` for amateur dan
//!   (1d = 1 … 10d = 10, Fox's `10段` included), `10 + level` for professionals (1p = 11 …
//!   9p = 19). Every professional ranks above every amateur. Ranks with equal order are then
//!   ordered by their flags, so that `Ord` agrees with `Eq`.
//! - **Levels accepted:** kyu 1–50, amateur dan 1–10, professional dan 1–9; others are `None`.
//! - **Amateur or professional dan.** `p`, `pro`, a `P` prefix (Fox), `职业`/`職業`/`专业`,
//!   `プロ`, `프로` mean professional; `业余`/`業餘`, `アマ`, `아마`, `ama`/`amateur` mean
//!   amateur. Without a marker, a dan written with a Chinese numeral (`九段`, `初段`, `초단`) is
//!   professional — that is how printed and Japanese/Chinese professional records write it —
//!   and a dan written with Arabic digits (`9段`, `9단`, `3d`, `3 dan`) is amateur, which is what
//!   the Fox server and FF\[4\] mean by it.
//! - **Titles** alone (`名人`, `本因坊`, `Meijin`, and `十段`, which is a title, not a rank) and
//!   ratings (`1805*`, a number without a unit) are `None`: they cannot be placed on the scale.
//!   A rank anywhere in the value is found (`9p, Kisei`, `Kisei 9p`); the first one wins.

use std::cmp::Ordering;
use std::fmt;

use super::lex::{cjk_int, digit_len, fold, uint};

/// The kind of rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RankKind {
    Kyu,
    /// Amateur (or server) dan.
    Dan,
    /// Professional dan.
    Pro,
}

/// A rank on the kyu < amateur dan < professional dan scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rank {
    pub kind: RankKind,
    /// Kyu 1–50, dan 1–10, professional 1–9.
    pub level: u8,
    /// Written with `?`: the server is unsure of it.
    pub uncertain: bool,
    /// Written with `*`: the server considers it established.
    pub established: bool,
}

impl Rank {
    /// A rank of `kind` and `level` without flags, if the level is in range.
    pub fn new(kind: RankKind, level: u8) -> Option<Rank> {
        let max = match kind {
            RankKind::Kyu => 50,
            RankKind::Dan => 10,
            RankKind::Pro => 9,
        };
        (1..=max).contains(&level).then_some(Rank {
            kind,
            level,
            uncertain: false,
            established: false,
        })
    }

    /// The position on one scale: 30k = −29 … 1k = 0, 1d = 1 … 10d = 10, 1p = 11 … 9p = 19.
    pub fn order(&self) -> i32 {
        let level = i32::from(self.level);
        match self.kind {
            RankKind::Kyu => 1 - level,
            RankKind::Dan => level,
            RankKind::Pro => 10 + level,
        }
    }

    /// The FF\[4\] form: `10k`, `3d`, `9p`, with `?` or `*` when flagged.
    pub fn to_sgf(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.kind {
            RankKind::Kyu => 'k',
            RankKind::Dan => 'd',
            RankKind::Pro => 'p',
        };
        write!(f, "{}{unit}", self.level)?;
        if self.uncertain {
            f.write_str("?")?;
        }
        if self.established {
            f.write_str("*")?;
        }
        Ok(())
    }
}

impl Ord for Rank {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order()
            .cmp(&other.order())
            .then(self.kind.cmp(&other.kind))
            .then(self.established.cmp(&other.established))
            .then(other.uncertain.cmp(&self.uncertain))
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Marker {
    Pro,
    Amateur,
}

const PREFIXES: &[(&str, Marker)] = &[
    ("professional", Marker::Pro),
    ("pro", Marker::Pro),
    ("职业", Marker::Pro),
    ("職業", Marker::Pro),
    ("专业", Marker::Pro),
    ("專業", Marker::Pro),
    ("プロ", Marker::Pro),
    ("프로", Marker::Pro),
    ("amateur", Marker::Amateur),
    ("ama", Marker::Amateur),
    ("业余", Marker::Amateur),
    ("業餘", Marker::Amateur),
    ("業余", Marker::Amateur),
    ("アマ", Marker::Amateur),
    ("아마", Marker::Amateur),
];

const UNITS: &[(&str, RankKind)] = &[
    ("kyu", RankKind::Kyu),
    ("k", RankKind::Kyu),
    ("级", RankKind::Kyu),
    ("級", RankKind::Kyu),
    ("급", RankKind::Kyu),
    ("dan", RankKind::Dan),
    ("d", RankKind::Dan),
    ("段", RankKind::Dan),
    ("단", RankKind::Dan),
    ("pro", RankKind::Pro),
    ("p", RankKind::Pro),
];

/// Whether `s` starts with `word` (ASCII case-insensitively) and, for an ASCII word, no ASCII
/// letter follows it.
fn word_at(s: &str, word: &str) -> bool {
    s.len() >= word.len()
        && s.is_char_boundary(word.len())
        && s[..word.len()].eq_ignore_ascii_case(word)
        && (!word.is_ascii()
            || !s[word.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic()))
}

fn skip_spacing(s: &str) -> &str {
    s.trim_start_matches([' ', '-', '.', '_'])
}

/// A rank starting exactly at the start of `t`.
fn rank_at(t: &str) -> Option<Rank> {
    let mut marker = None;
    let mut rest = t;
    for &(word, m) in PREFIXES {
        if word_at(rest, word) || (word.is_ascii() && starts_then_digit(rest, word)) {
            marker = Some(m);
            rest = skip_spacing(&rest[word.len()..]);
            break;
        }
    }
    if marker.is_none() && starts_then_digit(rest, "p") {
        // Fox: P9段, P9.
        marker = Some(Marker::Pro);
        rest = &rest[1..];
    }
    let (level, len, chinese) = if let Some((v, len)) = uint(rest, 2) {
        if digit_len(rest) > 2 {
            return None;
        }
        (v, len, false)
    } else if let Some(after) = rest.strip_prefix(['初', '초']) {
        (1, rest.len() - after.len(), true)
    } else {
        let (v, len) = cjk_int(rest)?;
        (v, len, true)
    };
    let level = u8::try_from(level).ok()?;
    rest = rest[len..].trim_start_matches([' ', '-']);
    let unit = UNITS.iter().find(|&&(word, _)| word_at(rest, word));
    let kind = match unit {
        Some(&(word, kind)) => {
            rest = &rest[word.len()..];
            kind
        }
        None if marker == Some(Marker::Pro) && !chinese => RankKind::Pro,
        None => return None,
    };
    let flags = rest.trim_start();
    let uncertain = flags.starts_with('?');
    let established = flags.starts_with('*');
    // A marker after the unit: `9 dan pro`, `9-dan professional`, `5段(アマ)`.
    let after = flags.trim_start_matches([' ', '-', '(', '（', '?', '*']);
    if marker.is_none() {
        marker = PREFIXES
            .iter()
            .find(|&&(word, _)| word_at(after, word))
            .map(|&(_, m)| m);
    }
    let kind = match kind {
        RankKind::Dan => match marker {
            Some(Marker::Pro) => RankKind::Pro,
            Some(Marker::Amateur) => RankKind::Dan,
            None if chinese => RankKind::Pro,
            None => RankKind::Dan,
        },
        other => other,
    };
    let mut rank = Rank::new(kind, level)?;
    rank.uncertain = uncertain;
    rank.established = established;
    Some(rank)
}

/// Whether `s` starts with ASCII `word` (case-insensitively) directly followed by a digit.
fn starts_then_digit(s: &str, word: &str) -> bool {
    s.len() > word.len()
        && s.is_char_boundary(word.len())
        && s[..word.len()].eq_ignore_ascii_case(word)
        && s.as_bytes()[word.len()].is_ascii_digit()
}

/// Reads a rank (`BR`/`WR`); `None` when the value holds no rank. See the module documentation.
pub fn parse_rank(raw: &str) -> Option<Rank> {
    let folded = fold(raw);
    let s = folded.trim();
    let mut prev: Option<char> = None;
    for (i, c) in s.char_indices() {
        // Start only at the beginning of a word or number, never inside `1805` or `Kisei`.
        let boundary = !prev.is_some_and(|p| p.is_ascii_alphanumeric());
        if boundary {
            if let Some(rank) = rank_at(&s[i..]) {
                return Some(rank);
            }
        }
        prev = Some(c);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rk(raw: &str) -> Option<(RankKind, u8)> {
        parse_rank(raw).map(|r| (r.kind, r.level))
    }

    use RankKind::{Dan, Kyu, Pro};

    #[test]
    fn sgf_forms() {
        assert_eq!(rk("9p"), Some((Pro, 9)));
        assert_eq!(rk("9P"), Some((Pro, 9)));
        assert_eq!(rk("1p"), Some((Pro, 1)));
        assert_eq!(rk("3d"), Some((Dan, 3)));
        assert_eq!(rk("3D"), Some((Dan, 3)));
        assert_eq!(rk("3 dan"), Some((Dan, 3)));
        assert_eq!(rk("3 Dan"), Some((Dan, 3)));
        assert_eq!(rk("3-dan"), Some((Dan, 3)));
        assert_eq!(rk("10k"), Some((Kyu, 10)));
        assert_eq!(rk("10 kyu"), Some((Kyu, 10)));
        assert_eq!(rk("30k "), Some((Kyu, 30)));
        assert_eq!(rk("9 dan pro"), Some((Pro, 9)));
        assert_eq!(rk("9-dan professional"), Some((Pro, 9)));
        assert_eq!(rk("1 pro"), Some((Pro, 1)));
        assert_eq!(rk("pro 9 dan"), Some((Pro, 9)));
    }

    #[test]
    fn flags() {
        let r = parse_rank("9d*").unwrap();
        assert_eq!(
            (r.kind, r.level, r.established, r.uncertain),
            (Dan, 9, true, false)
        );
        let r = parse_rank("3k?").unwrap();
        assert_eq!(
            (r.kind, r.level, r.established, r.uncertain),
            (Kyu, 3, false, true)
        );
        let r = parse_rank("2d?").unwrap();
        assert!(r.uncertain && !r.established);
        let r = parse_rank("11k+").unwrap();
        assert_eq!(
            (r.kind, r.level, r.established, r.uncertain),
            (Kyu, 11, false, false)
        );
        assert!(!parse_rank("5d").unwrap().uncertain);
    }

    #[test]
    fn fox_forms() {
        assert_eq!(rk("P9段"), Some((Pro, 9)));
        assert_eq!(rk("P1段"), Some((Pro, 1)));
        assert_eq!(rk("P9"), Some((Pro, 9)));
        assert_eq!(rk("9段"), Some((Dan, 9)));
        assert_eq!(rk("10段"), Some((Dan, 10)));
        assert_eq!(rk("18级"), Some((Kyu, 18)));
        assert_eq!(rk("1级"), Some((Kyu, 1)));
    }

    #[test]
    fn chinese_japanese_korean() {
        assert_eq!(rk("3段"), Some((Dan, 3)));
        assert_eq!(rk("九段"), Some((Pro, 9)));
        assert_eq!(rk("初段"), Some((Pro, 1)));
        assert_eq!(rk("职业九段"), Some((Pro, 9)));
        assert_eq!(rk("职业初段"), Some((Pro, 1)));
        assert_eq!(rk("业余5段"), Some((Dan, 5)));
        assert_eq!(rk("业余五段"), Some((Dan, 5)));
        assert_eq!(rk("10级"), Some((Kyu, 10)));
        assert_eq!(rk("十五级"), Some((Kyu, 15)));
        assert_eq!(rk("10級"), Some((Kyu, 10)));
        assert_eq!(rk("アマ五段"), Some((Dan, 5)));
        assert_eq!(rk("プロ九段"), Some((Pro, 9)));
        assert_eq!(rk("9단"), Some((Dan, 9)));
        assert_eq!(rk("아마 5단"), Some((Dan, 5)));
        assert_eq!(rk("프로 9단"), Some((Pro, 9)));
        assert_eq!(rk("초단"), Some((Pro, 1)));
        assert_eq!(rk("5급"), Some((Kyu, 5)));
        assert_eq!(rk("５段"), Some((Dan, 5)));
        assert_eq!(rk("名人 九段"), Some((Pro, 9)));
    }

    #[test]
    fn titles_ratings_and_junk() {
        for raw in [
            "",
            " ",
            "-",
            "?",
            "NR",
            "NR ",
            "1805*",
            "1881*",
            "名人",
            "本因坊",
            "Meijin",
            "十段",
            "嬨抜",
            "Kisei",
            "0k",
            "0d",
            "51k",
            "11d",
            "10p",
            "P10段",
            "dan",
            "k",
            "3 days",
            "pp9",
            "9x",
            "99999999d",
        ] {
            assert_eq!(parse_rank(raw), None, "{raw:?}");
        }
    }

    #[test]
    fn rank_found_among_text() {
        assert_eq!(rk("9p, Kisei"), Some((Pro, 9)));
        assert_eq!(rk("Kisei 9p"), Some((Pro, 9)));
        assert_eq!(rk("(5d)"), Some((Dan, 5)));
    }

    #[test]
    fn scale() {
        let o = |raw: &str| parse_rank(raw).unwrap().order();
        assert_eq!(o("30k"), -29);
        assert_eq!(o("1k"), 0);
        assert_eq!(o("1d"), 1);
        assert_eq!(o("9d"), 9);
        assert_eq!(o("10段"), 10);
        assert_eq!(o("1p"), 11);
        assert_eq!(o("9p"), 19);
        let mut ranks: Vec<Rank> = ["9p", "1k", "5d", "30k", "1p", "10段", "2k"]
            .iter()
            .filter_map(|r| parse_rank(r))
            .collect();
        ranks.sort();
        let written: Vec<String> = ranks.iter().map(Rank::to_sgf).collect();
        assert_eq!(written, ["30k", "2k", "1k", "5d", "10d", "1p", "9p"]);
        assert!(parse_rank("9d").unwrap() < parse_rank("1p").unwrap());
        assert!(parse_rank("1d").unwrap() > parse_rank("1k").unwrap());
        // Same level: flags break the tie, consistently with Eq.
        let plain = parse_rank("3d").unwrap();
        let star = parse_rank("3d*").unwrap();
        let unsure = parse_rank("3d?").unwrap();
        assert!(unsure < plain && plain < star);
        assert_eq!(plain.cmp(&plain), Ordering::Equal);
    }

    #[test]
    fn canonical_sgf() {
        assert_eq!(parse_rank("P9段").unwrap().to_sgf(), "9p");
        assert_eq!(parse_rank("10 kyu").unwrap().to_sgf(), "10k");
        assert_eq!(parse_rank("业余五段").unwrap().to_sgf(), "5d");
        assert_eq!(parse_rank("3k?").unwrap().to_sgf(), "3k?");
        assert_eq!(parse_rank("9d*").unwrap().to_sgf(), "9d*");
        assert_eq!(Rank::new(RankKind::Pro, 10), None);
        assert_eq!(Rank::new(RankKind::Kyu, 0), None);
    }
}
