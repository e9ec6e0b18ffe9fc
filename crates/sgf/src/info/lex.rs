//! Small scanners shared by the game-info parsers: width folding, Arabic and Chinese numerals,
//! and amounts such as `3.5`, `3又3/4`, `5 1/2`, `四分之三`, `3目半` or `반집`.
//!
//! They live in one place because results (`黑胜3又3/4子`), komi (`3又3/4`) and ranks (`九段`)
//! spell numbers the same ways, and every spelling found in real archives should be read by all
//! three. Every function here works on `&str` slices, returns byte lengths that are always char
//! boundaries, and never panics.

use super::number::ScoreUnit;

/// Folds full-width ASCII (`０`–`９`, `＋`, `．`, `Ａ`…) to ASCII, turns the ideographic space into
/// a plain space and drops zero-width characters and byte-order marks.
///
/// Chinese, Japanese and Korean records type digits and punctuation in full width about as often
/// as in ASCII; folding first lets every parser deal with one spelling.
pub(crate) fn fold(raw: &str) -> String {
    raw.chars().filter_map(fold_char).collect()
}

/// [`fold`] for one character: `None` for a character it drops.
#[inline]
pub(crate) fn fold_char(c: char) -> Option<char> {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        '\u{3000}' => Some(' '),
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => None,
        _ => Some(c),
    }
}

/// The length in bytes of the leading run of ASCII digits.
pub(crate) fn digit_len(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// A leading unsigned decimal `123` or `12.50`: its value, its length in bytes and whether it was
/// written without a fractional part.
pub(crate) fn decimal(s: &str) -> Option<(f64, usize, bool)> {
    let int = digit_len(s);
    if int == 0 {
        return None;
    }
    let mut len = int;
    let rest = &s[int..];
    if let Some(after) = rest.strip_prefix('.') {
        let frac = digit_len(after);
        if frac > 0 {
            len += 1 + frac;
        }
    }
    let value: f64 = s[..len].parse().ok()?;
    value.is_finite().then_some((value, len, len == int))
}

/// A leading unsigned integer of at most `max_digits` digits.
pub(crate) fn uint(s: &str, max_digits: usize) -> Option<(u32, usize)> {
    let n = digit_len(s);
    if n == 0 || n > max_digits {
        return None;
    }
    s[..n].parse().ok().map(|v| (v, n))
}

/// The value of one Chinese/Japanese digit character, `〇`/`零` through `九` (`两`/`兩` = 2).
fn cjk_digit(c: char) -> Option<u32> {
    Some(match c {
        '〇' | '零' | '○' => 0,
        '一' | '壹' => 1,
        '二' | '两' | '兩' | '贰' | '貳' => 2,
        '三' | '叁' | '參' => 3,
        '四' | '肆' => 4,
        '五' | '伍' => 5,
        '六' | '陆' | '陸' => 6,
        '七' | '柒' => 7,
        '八' | '捌' => 8,
        '九' | '玖' => 9,
        _ => return None,
    })
}

/// A leading Chinese numeral: `九`, `十`, `十五`, `二十五`, `一百零八`, or digit-by-digit as years
/// are written (`一九八五`, `二〇〇三`). Returns the value and its length in bytes.
pub(crate) fn cjk_int(s: &str) -> Option<(u32, usize)> {
    let mut len = 0;
    let mut any_multiplier = false;
    let mut count = 0;
    for c in s.chars() {
        if cjk_digit(c).is_some() || matches!(c, '十' | '拾' | '百' | '佰') {
            any_multiplier |= cjk_digit(c).is_none();
            len += c.len_utf8();
            count += 1;
            if count > 9 {
                return None;
            }
        } else {
            break;
        }
    }
    if len == 0 {
        return None;
    }
    let text = &s[..len];
    if !any_multiplier {
        // Positional, as in years: 一九八五.
        let mut value: u32 = 0;
        for c in text.chars() {
            value = value * 10 + cjk_digit(c)?;
        }
        return Some((value, len));
    }
    let (mut total, mut current) = (0u32, 0u32);
    for c in text.chars() {
        match c {
            '十' | '拾' => {
                total += current.max(1) * 10;
                current = 0;
            }
            '百' | '佰' => {
                total += current.max(1) * 100;
                current = 0;
            }
            _ => current = cjk_digit(c)?,
        }
    }
    Some((total + current, len))
}

/// A leading integer, Arabic or Chinese.
pub(crate) fn any_int(s: &str, max_digits: usize) -> Option<(u32, usize)> {
    uint(s, max_digits).or_else(|| cjk_int(s))
}

/// An amount with an optional unit, as found in results and komi.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Amount {
    pub value: f64,
    pub unit: Option<ScoreUnit>,
    /// Whether the amount was written with Arabic digits (as opposed to only Chinese numerals
    /// or `半`/`반`), so that a caller can refuse bare Chinese numerals without a unit.
    pub arabic: bool,
}

fn starts_with_ci(s: &str, word: &str) -> bool {
    s.len() >= word.len()
        && s.is_char_boundary(word.len())
        && s[..word.len()].eq_ignore_ascii_case(word)
}

/// Whether the byte after `len` in `s` does not continue an ASCII word.
fn word_ends(s: &str, len: usize) -> bool {
    !s[len..]
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
}

/// A leading unit word: `目`, `点`, `집` (points) or `子` (stones), or the English words.
pub(crate) fn unit(s: &str) -> Option<(ScoreUnit, usize)> {
    for (word, unit) in [
        ("目", ScoreUnit::Points),
        ("点", ScoreUnit::Points),
        ("點", ScoreUnit::Points),
        ("집", ScoreUnit::Points),
        ("子", ScoreUnit::Stones),
    ] {
        if s.starts_with(word) {
            return Some((unit, word.len()));
        }
    }
    for (word, unit) in [
        ("points", ScoreUnit::Points),
        ("point", ScoreUnit::Points),
        ("pts", ScoreUnit::Points),
        ("pt", ScoreUnit::Points),
        ("stones", ScoreUnit::Stones),
        ("stone", ScoreUnit::Stones),
    ] {
        if starts_with_ci(s, word) && word_ends(s, word.len()) {
            return Some((unit, word.len()));
        }
    }
    None
}

/// A fraction `a/b` in ASCII or `b分之a` in Chinese; `b` must be non-zero and `a < b`.
fn fraction(s: &str) -> Option<(f64, usize)> {
    if let Some((a, la)) = uint(s, 4) {
        let rest = &s[la..];
        let (b, lb) = uint(rest.strip_prefix('/')?, 4)?;
        return (b != 0 && a < b).then(|| (f64::from(a) / f64::from(b), la + 1 + lb));
    }
    let (b, lb) = cjk_int(s)?;
    let rest = s[lb..].strip_prefix("分之")?;
    let (a, la) = any_int(rest, 4)?;
    (b != 0 && a < b).then(|| (f64::from(a) / f64::from(b), lb + "分之".len() + la))
}

/// A leading amount: a decimal (`3.5`), an integer with a fraction joined by `又`, `and` or one
/// space (`3又3/4`, `5 1/2`, `二又四分之三`), a bare fraction (`1/4`, `四分之三`), or `半`/`반`
/// (a half); then an optional unit (`目`, `子`, `집`, `points`…); then an optional trailing half
/// (`3目半`, `3집반`). Returns the amount and its length in bytes.
pub(crate) fn amount(s: &str) -> Option<(Amount, usize)> {
    let mut pos;
    let mut value;
    let mut whole_number = false;
    let mut arabic = false;
    if let Some((f, len)) = fraction(s) {
        value = f;
        pos = len;
        arabic = s.as_bytes()[0].is_ascii_digit();
    } else if let Some((v, len, integer)) = decimal(s) {
        value = v;
        pos = len;
        whole_number = integer;
        arabic = true;
    } else if let Some((v, len)) = cjk_int(s) {
        value = f64::from(v);
        pos = len;
        whole_number = true;
    } else if let Some(rest) = s.strip_prefix('半').or_else(|| s.strip_prefix('반')) {
        // 半目, 반집: half a point.
        let half_len = s.len() - rest.len();
        let (unit, ulen) = unit(rest)?;
        return Some((
            Amount {
                value: 0.5,
                unit: Some(unit),
                arabic: false,
            },
            half_len + ulen,
        ));
    } else {
        return None;
    }
    let mut has_fraction = !whole_number;
    if whole_number {
        let rest = &s[pos..];
        for joiner in ["又", " and ", "and", " "] {
            if let Some(after) = rest.strip_prefix(joiner) {
                if let Some((f, flen)) = fraction(after) {
                    value += f;
                    pos += joiner.len() + flen;
                    has_fraction = true;
                    break;
                }
            }
        }
    }
    let mut unit_found = None;
    let rest = &s[pos..];
    let spaces = rest.len() - rest.trim_start_matches(' ').len();
    if let Some((u, ulen)) = unit(&rest[spaces..]) {
        unit_found = Some(u);
        pos += spaces + ulen;
        if !has_fraction {
            for half in ["半", "반"] {
                if s[pos..].starts_with(half) {
                    value += 0.5;
                    pos += half.len();
                    break;
                }
            }
        }
    }
    Some((
        Amount {
            value,
            unit: unit_found,
            arabic,
        },
        pos,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amt(s: &str) -> Option<(f64, Option<ScoreUnit>, usize)> {
        amount(s).map(|(a, len)| (a.value, a.unit, len))
    }

    #[test]
    fn fold_full_width_and_zero_width() {
        assert_eq!(fold("Ｂ＋３．５"), "B+3.5");
        assert_eq!(fold("井山\u{3000}裕太"), "井山 裕太");
        assert_eq!(fold("\u{FEFF}9d\u{200B}"), "9d");
        assert_eq!(fold(""), "");
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal("3.5x"), Some((3.5, 3, false)));
        assert_eq!(decimal("12"), Some((12.0, 2, true)));
        assert_eq!(decimal("7."), Some((7.0, 1, true)));
        assert_eq!(decimal(".5"), None);
        assert_eq!(decimal(""), None);
        assert_eq!(decimal("x1"), None);
    }

    #[test]
    fn chinese_integers() {
        assert_eq!(cjk_int("九段"), Some((9, 3)));
        assert_eq!(cjk_int("十"), Some((10, 3)));
        assert_eq!(cjk_int("十五级"), Some((15, 6)));
        assert_eq!(cjk_int("二十五"), Some((25, 9)));
        assert_eq!(cjk_int("一百零八"), Some((108, 12)));
        assert_eq!(cjk_int("一九八五年"), Some((1985, 12)));
        assert_eq!(cjk_int("二〇〇三"), Some((2003, 12)));
        assert_eq!(cjk_int("两"), Some((2, 3)));
        assert_eq!(cjk_int("段"), None);
        assert_eq!(cjk_int(""), None);
    }

    #[test]
    fn amounts() {
        assert_eq!(amt("3.5"), Some((3.5, None, 3)));
        assert_eq!(amt("2.5目"), Some((2.5, Some(ScoreUnit::Points), 6)));
        assert_eq!(amt("3又3/4子"), Some((3.75, Some(ScoreUnit::Stones), 10)));
        assert_eq!(amt("1/4子"), Some((0.25, Some(ScoreUnit::Stones), 6)));
        assert_eq!(amt("5 1/2"), Some((5.5, None, 5)));
        assert_eq!(amt("二又四分之三子").map(|a| a.0), Some(2.75));
        assert_eq!(amt("四分之三").map(|a| a.0), Some(0.75));
        assert_eq!(amt("3目半"), Some((3.5, Some(ScoreUnit::Points), 7)));
        assert_eq!(amt("半目"), Some((0.5, Some(ScoreUnit::Points), 6)));
        assert_eq!(amt("반집"), Some((0.5, Some(ScoreUnit::Points), 6)));
        assert_eq!(amt("3집반"), Some((3.5, Some(ScoreUnit::Points), 7)));
        assert_eq!(amt("12 points"), Some((12.0, Some(ScoreUnit::Points), 9)));
        assert_eq!(amt("12 pointy").map(|a| a.2), Some(2));
        assert_eq!(amt("3 x"), Some((3.0, None, 1)));
        assert_eq!(amt("3/0"), Some((3.0, None, 1)));
        assert_eq!(amt("5/4"), Some((5.0, None, 1)));
        assert_eq!(amt("半"), None);
        assert_eq!(amt("x"), None);
        assert_eq!(amt(""), None);
    }
}
