//! Typed readings of raw property values: the FF[4] value types.
//!
//! Each function takes the raw bytes of one value (still escaped) and returns `None` for a value
//! that does not fit its type, so that callers can report it and go on.

use std::borrow::Cow;

use crate::point::{Color, Point};
use crate::scan::Escapes;

/// Removes escapes from raw value bytes by the rule that delimited them (see [`Escapes`]): `\\x`
/// becomes `x`, and `\\` followed by a line break (a soft line break) disappears with the break.
pub fn unescape_bytes(raw: &[u8], escapes: Escapes) -> Cow<'_, [u8]> {
    if matches!(escapes, Escapes::None | Escapes::WtfDoubleByte) || !raw.contains(&b'\\') {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let c = raw[i];
        if c >= 0x81 && escapes == Escapes::SgfDoubleByte {
            out.extend_from_slice(&raw[i..(i + 2).min(raw.len())]);
            i += 2;
            continue;
        }
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        match raw.get(i + 1) {
            Some(b'\n') => i += 2 + (raw.get(i + 2) == Some(&b'\r')) as usize,
            Some(b'\r') => i += 2 + (raw.get(i + 2) == Some(&b'\n')) as usize,
            Some(&other) => {
                out.push(other);
                i += 2;
            }
            None => i += 1,
        }
    }
    Cow::Owned(out)
}

/// SimpleText: line breaks and other white space become single spaces.
pub fn simplify(text: Cow<'_, str>) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_whitespace() && c != ' ') {
        return text;
    }
    Cow::Owned(
        text.chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect(),
    )
}

/// Escapes text for writing inside an SGF value: `\` and `]` get a backslash; with `colon`, so
/// does `:` (for halves of composed values).
pub fn escape(text: &str, colon: bool) -> Cow<'_, str> {
    if !(text.contains(['\\', ']']) || colon && text.contains(':')) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 4);
    for c in text.chars() {
        if c == '\\' || c == ']' || (colon && c == ':') {
            out.push('\\');
        }
        out.push(c);
    }
    Cow::Owned(out)
}

fn trimmed(raw: &[u8]) -> &str {
    std::str::from_utf8(raw).map(str::trim).unwrap_or("\u{0}")
}

/// Number: `[+-]digits`.
pub fn number(raw: &[u8]) -> Option<i64> {
    let s = trimmed(raw);
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Real: a number with an optional fraction.
pub fn real(raw: &[u8]) -> Option<f64> {
    let s = trimmed(raw);
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let ok = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !ok(int) || !ok(frac) {
        return None;
    }
    s.parse().ok()
}

/// Double: `1` normal, `2` emphasised.
pub fn double(raw: &[u8]) -> Option<u8> {
    match trimmed(raw) {
        "1" => Some(1),
        "2" => Some(2),
        _ => None,
    }
}

/// Color: `B` or `W`.
pub fn color(raw: &[u8]) -> Option<Color> {
    match trimmed(raw) {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    }
}

/// Splits a composed value at its first unescaped `:`.
pub fn compose(raw: &[u8]) -> Option<(&[u8], &[u8])> {
    compose_with(raw, Escapes::Sgf)
}

/// [`compose`] under a given escape rule.
pub fn compose_with(raw: &[u8], escapes: Escapes) -> Option<(&[u8], &[u8])> {
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'\\' if matches!(escapes, Escapes::Sgf | Escapes::SgfDoubleByte) => i += 2,
            0x81.. if matches!(escapes, Escapes::SgfDoubleByte | Escapes::WtfDoubleByte) => i += 2,
            b':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => i += 1,
        }
    }
    None
}

/// Board size: `19`, or `19:13` (columns:rows). Both sides must be 1–52.
pub fn size(raw: &[u8]) -> Option<(u8, u8)> {
    let side = |b: &[u8]| number(b).filter(|n| (1..=52).contains(n)).map(|n| n as u8);
    match compose(raw) {
        Some((a, b)) => Some((side(a)?, side(b)?)),
        None => side(raw).map(|n| (n, n)),
    }
}

/// A list of points: each value is a point, or a rectangle `aa:cc` (compressed list). The Weiqi
/// Text Format also writes several points space-separated in one value (`AB[pd dp]`); that form is
/// accepted here for both dialects. Points are expanded into `out`; returns false if any part is
/// malformed (the well-formed parts are still expanded).
pub fn point_list(raw: &[u8], out: &mut Vec<Point>) -> bool {
    let mut ok = true;
    for part in raw.split(|b| b.is_ascii_whitespace()) {
        if part.is_empty() {
            continue;
        }
        match compose(part) {
            Some((a, b)) => match (Point::parse_sgf(a), Point::parse_sgf(b)) {
                (Some(p), Some(q)) => {
                    let (x0, x1) = (p.x.min(q.x), p.x.max(q.x));
                    let (y0, y1) = (p.y.min(q.y), p.y.max(q.y));
                    for x in x0..=x1 {
                        for y in y0..=y1 {
                            out.push(Point::new(x, y));
                        }
                    }
                }
                _ => ok = false,
            },
            None => match Point::parse_sgf(part) {
                Some(p) => out.push(p),
                None => ok = false,
            },
        }
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescape_and_soft_breaks() {
        let u = |s: &str| {
            String::from_utf8(unescape_bytes(s.as_bytes(), Escapes::Sgf).into_owned()).unwrap()
        };
        assert_eq!(u(r"a\]b"), "a]b");
        assert_eq!(u("a\\\nb"), "ab");
        assert_eq!(u("a\\\r\nb"), "ab");
        assert_eq!(u(r"a\\b\:c"), r"a\b:c");
        assert_eq!(u("a\nb"), "a\nb");
        assert_eq!(unescape_bytes(br"a\]", Escapes::None), &br"a\]"[..]);
        // Shift_JIS ソ (0x83 0x5C) keeps its trail byte in double-byte mode.
        assert_eq!(
            unescape_bytes(b"\x83\x5c\\]", Escapes::SgfDoubleByte),
            &b"\x83\x5c]"[..]
        );
    }

    #[test]
    fn simple_text_flattens_white_space() {
        assert_eq!(simplify("a\nb\tc".into()), "a b c");
    }

    #[test]
    fn escape_round_trips() {
        for s in ["plain", r"a]b\c", "x:y"] {
            for colon in [true, false] {
                let e = escape(s, colon);
                assert_eq!(unescape_bytes(e.as_bytes(), Escapes::Sgf), s.as_bytes());
            }
        }
    }

    #[test]
    fn numbers_reals_doubles_colors() {
        assert_eq!(number(b"19"), Some(19));
        assert_eq!(number(b" -3 "), Some(-3));
        assert_eq!(number(b"+7"), Some(7));
        assert_eq!(number(b"1.5"), None);
        assert_eq!(number(b""), None);
        assert_eq!(real(b"6.5"), Some(6.5));
        assert_eq!(real(b"-10"), Some(-10.0));
        assert_eq!(real(b".5"), Some(0.5));
        assert_eq!(real(b"6,5"), None);
        assert_eq!(real(b"."), None);
        assert_eq!(double(b"2"), Some(2));
        assert_eq!(double(b"3"), None);
        assert_eq!(color(b"W"), Some(Color::White));
        assert_eq!(color(b"X"), None);
    }

    #[test]
    fn compose_and_size() {
        assert_eq!(compose(b"aa:bb"), Some((&b"aa"[..], &b"bb"[..])));
        assert_eq!(compose(br"a\:b:c"), Some((&br"a\:b"[..], &b"c"[..])));
        assert_eq!(compose(b"ab"), None);
        assert_eq!(size(b"19"), Some((19, 19)));
        assert_eq!(size(b"19:13"), Some((19, 13)));
        assert_eq!(size(b"52"), Some((52, 52)));
        assert_eq!(size(b"53"), None);
        assert_eq!(size(b"0"), None);
    }

    #[test]
    fn point_lists_expand_rectangles() {
        let mut v = Vec::new();
        assert!(point_list(b"aa:bc", &mut v));
        assert_eq!(v.len(), 6);
        v.clear();
        assert!(point_list(b"pd dp", &mut v));
        assert_eq!(v, vec![Point::new(15, 3), Point::new(3, 15)]);
        v.clear();
        assert!(!point_list(b"a1 bb", &mut v));
        assert_eq!(v, vec![Point::new(1, 1)]);
        v.clear();
        assert!(point_list(b"cc:aa", &mut v), "reversed corners");
        assert_eq!(v.len(), 9);
    }
}
