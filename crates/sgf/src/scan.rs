//! Byte-level scanning: where values end and where game trees start and stop.
//!
//! Everything here runs before any parsing, on raw bytes of unknown charset. The SGF structure
//! characters (`( ) ; [ ] \`) are ASCII, so a memchr-class search finds them without decoding; in
//! the few legacy multi-byte charsets whose trail bytes can equal `\` or `]` (Shift_JIS, Big5) a
//! value may close late, which the SGF standard itself cannot avoid.

use memchr::memchr2;

/// A byte range `[start, end)` into the bytes a tree was parsed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// How the end of a value is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escapes {
    /// The Weiqi Text Format: no escapes, the first `]` ends the value.
    None,
    /// SGF: `\` escapes the next byte.
    Sgf,
    /// SGF in a double-byte charset (Shift_JIS, Big5, GBK) whose trail bytes may be `\` or `]`:
    /// a byte from 0x81 up starts a two-byte character that is skipped whole.
    SgfDoubleByte,
    /// The Weiqi Text Format in its gb18030, whose two-byte characters may have `]` (0x5D) as
    /// trail byte (⺌ is FE 5D): a byte from 0x81 up starts a character that is skipped whole; no
    /// escapes.
    WtfDoubleByte,
}

/// Finds the `]` that closes a value whose content starts at `from`. Returns the index of the
/// `]`, or `None` if the bytes end first.
#[inline]
pub fn value_end(bytes: &[u8], mut from: usize, escapes: Escapes) -> Option<usize> {
    match escapes {
        Escapes::None => return memchr::memchr(b']', &bytes[from..]).map(|i| from + i),
        Escapes::SgfDoubleByte => {
            while from < bytes.len() {
                match bytes[from] {
                    b']' => return Some(from),
                    b'\\' => from += 2,
                    0x81.. => from += 2,
                    _ => from += 1,
                }
            }
            return None;
        }
        Escapes::WtfDoubleByte => {
            while from < bytes.len() {
                match bytes[from] {
                    b']' => return Some(from),
                    0x81.. => from += 2,
                    _ => from += 1,
                }
            }
            return None;
        }
        Escapes::Sgf => {}
    }
    // Most values are short (`[pd]`): look at a few bytes directly before paying for a search.
    let short_end = (from + 8).min(bytes.len());
    while from < short_end {
        match bytes[from] {
            b']' => return Some(from),
            b'\\' => from += 2,
            _ => from += 1,
        }
    }
    if from >= bytes.len() {
        return None;
    }
    loop {
        let i = from + memchr2(b']', b'\\', &bytes[from..])?;
        if bytes[i] == b']' {
            return Some(i);
        }
        // Skip the escaped byte, whatever it is.
        from = i + 2;
        if from > bytes.len() {
            return None;
        }
    }
}

/// Where one game tree lies in a file, found by [`split_games`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpan {
    /// The bytes of the tree, from its opening `(` to its closing `)` inclusive (or to the end of the
    /// file when it is not closed).
    pub span: Span,
    /// The tree's closing parenthesis was never found.
    pub truncated: bool,
    /// The tree starts with node data (`;GM[1]…`) but no `(`: a parenthesis is implied before it.
    pub implicit_open: bool,
}

/// Splits a collection into its top-level game trees without building them.
///
/// This is the cheap sequential pass that lets games be parsed in parallel afterwards: it only
/// tracks parenthesis depth and skips over bracketed values. Bytes outside any tree (mail headers,
/// junk, stray `)`) are skipped. A tree that is never closed runs to the end of the file and is
/// marked truncated. Node data outside any tree (`;GM[1]…` with its `(` missing, a common
/// corruption) starts a tree of its own, with the `(` implied, so that its root is not lost.
pub fn split_games(bytes: &[u8]) -> Vec<GameSpan> {
    let mut games = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        // Find the next tree start at depth 0.
        let Some(i) = memchr::memchr2(b'(', b';', &bytes[pos..]) else {
            break;
        };
        let start = pos + i;
        let implicit_open = bytes[start] == b';';
        let starts_tree = if implicit_open {
            starts_property(&bytes[start + 1..])
        } else {
            // `(;` starts a tree, as in every common reader; so does `(GM[1]` (a lost `;`). A
            // parenthesis in free text (`(see below)`) does not, nor does `((`, a wrapper that
            // readers skip to the first real tree inside it.
            bytes[start + 1..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b';')
                || starts_property(&bytes[start + 1..])
        };
        if !starts_tree {
            pos = start + 1;
            continue;
        }
        let mut depth = implicit_open as usize;
        let mut at = start;
        let mut end = None;
        // Between values SGF is dense (`;B[pd];W[dp]`): a plain byte loop beats a search call
        // per token here; long runs are skipped inside `value_end`.
        while at < bytes.len() {
            let k = at;
            match bytes[k] {
                b'(' => {
                    depth += 1;
                    at = k + 1;
                }
                b')' => {
                    depth -= 1;
                    at = k + 1;
                    if depth == 0 {
                        end = Some(at);
                        break;
                    }
                }
                // A two-letter value (`[pd]`, the bulk of a record) needs no search at all.
                b'[' if matches!(bytes.get(k + 1..k + 4), Some(&[x, y, b']'])
                    if x != b'\\' && x != b']' && y != b'\\' && y != b']') =>
                {
                    at = k + 4
                }
                b'[' => match value_end(bytes, k + 1, Escapes::Sgf) {
                    Some(close) => at = close + 1,
                    None => break,
                },
                _ => at = k + 1,
            }
        }
        match end {
            Some(e) => {
                games.push(GameSpan {
                    span: Span::new(start, e),
                    truncated: false,
                    implicit_open,
                });
                pos = e;
            }
            None => {
                games.push(GameSpan {
                    span: Span::new(start, bytes.len()),
                    truncated: true,
                    implicit_open,
                });
                pos = bytes.len();
            }
        }
    }
    games
}

/// Whether `bytes` starts (after white space) with a property: letters, then `[`.
fn starts_property(bytes: &[u8]) -> bool {
    let mut i = 0;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    let letters = i;
    while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
        i += 1;
    }
    if i == letters || !bytes[letters].is_ascii_uppercase() {
        return false;
    }
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    bytes.get(i) == Some(&b'[')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(s: &str) -> Vec<(usize, usize, bool)> {
        split_games(s.as_bytes())
            .into_iter()
            .map(|g| (g.span.start, g.span.end, g.truncated))
            .collect()
    }

    #[test]
    fn value_end_honours_escapes() {
        assert_eq!(value_end(br"ab]", 0, Escapes::Sgf), Some(2));
        assert_eq!(value_end(br"a\]b]", 0, Escapes::Sgf), Some(4));
        assert_eq!(value_end(br"a\\]b]", 0, Escapes::Sgf), Some(3));
        assert_eq!(value_end(br"a\", 0, Escapes::Sgf), None);
        assert_eq!(value_end(br"a\]", 0, Escapes::None), Some(2));
        // Shift_JIS ソ is 0x83 0x5C: its trail byte is not an escape.
        assert_eq!(
            value_end(b"\x83\x5c]x]", 0, Escapes::SgfDoubleByte),
            Some(2)
        );
        assert_eq!(value_end(b"\x83\x5c]x]", 0, Escapes::Sgf), Some(4));
        assert_eq!(value_end(b"\xfe\x5d]", 0, Escapes::WtfDoubleByte), Some(2));
        assert_eq!(value_end(b"a\\]", 0, Escapes::WtfDoubleByte), Some(2));
    }

    #[test]
    fn splits_collections() {
        assert_eq!(
            spans("(;B[aa])\n(;W[bb](;B[cc])(;B[dd]))"),
            vec![(0, 8, false), (9, 33, false)]
        );
    }

    #[test]
    fn parentheses_inside_values_do_not_count() {
        assert_eq!(spans("(;C[a ) ( \\] b])"), vec![(0, 16, false)]);
    }

    #[test]
    fn junk_around_trees_is_skipped() {
        assert_eq!(
            spans("From: x\n)) (;)junk(;)"),
            vec![(11, 14, false), (18, 21, false)]
        );
    }

    #[test]
    fn node_data_without_parenthesis_starts_a_tree() {
        let g = split_games(b"x ;GM[1];B[aa](;W[bb])(;W[cc]))(;B[dd])");
        assert_eq!(g.len(), 2);
        assert!(g[0].implicit_open && !g[0].truncated);
        assert_eq!((g[0].span.start, g[0].span.end), (2, 31));
        assert!(!g[1].implicit_open);
        // A lone `;` in junk is not node data, nor is a parenthesis in prose.
        assert_eq!(spans("; hello (;)"), vec![(8, 11, false)]);
        assert_eq!(
            spans("i.e. Go; (MA property) x\n(;B[aa])"),
            vec![(25, 33, false)]
        );
    }

    #[test]
    fn unclosed_tree_is_truncated() {
        assert_eq!(spans("(;B[aa](;W[bb]"), vec![(0, 14, true)]);
        assert_eq!(spans("(;C[never closed"), vec![(0, 16, true)]);
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let mut s = "(;".repeat(1_000_000);
        s.push_str(&")".repeat(1_000_000));
        assert_eq!(spans(&s), vec![(0, 3_000_000, false)]);
    }

    #[test]
    fn wrappers_are_skipped_to_the_first_tree() {
        assert_eq!(
            spans("(( (;X[1](;B[bc])) ();) (;Y[1]) )(Nonsense"),
            vec![(3, 18, false), (24, 31, false)]
        );
    }
}
