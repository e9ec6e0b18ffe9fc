//! Byte-level scanning: where values end and where game trees start and stop.
//!
//! Everything here runs before any parsing, on raw bytes of unknown charset. The SGF structure
//! characters (`( ) ; [ ] \`) are ASCII, so a memchr-class search finds them without decoding; in
//! the few legacy multi-byte charsets whose trail bytes can equal `\` or `]` (Shift_JIS, Big5) a
//! value may close late, which the SGF standard itself cannot avoid.

use memchr::{memchr2, memchr3};

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

/// Finds the `]` that closes a value whose content starts at `from`, honouring `\` escapes when
/// `escapes` is set. Returns the index of the `]`, or `None` if the bytes end first.
#[inline]
pub fn value_end(bytes: &[u8], mut from: usize, escapes: bool) -> Option<usize> {
    if !escapes {
        return memchr::memchr(b']', &bytes[from..]).map(|i| from + i);
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
}

/// Splits a collection into its top-level game trees without building them.
///
/// This is the cheap sequential pass that lets games be parsed in parallel afterwards: it only
/// tracks parenthesis depth and skips over bracketed values. Bytes outside any tree (mail headers,
/// junk, stray `)`) are skipped. A tree that is never closed runs to the end of the file and is
/// marked truncated.
pub fn split_games(bytes: &[u8]) -> Vec<GameSpan> {
    let mut games = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        // Find the next tree start at depth 0.
        let Some(i) = memchr::memchr(b'(', &bytes[pos..]) else {
            break;
        };
        let start = pos + i;
        let mut depth = 0usize;
        let mut at = start;
        let mut end = None;
        while at < bytes.len() {
            let Some(j) = memchr3(b'(', b')', b'[', &bytes[at..]) else {
                break;
            };
            let k = at + j;
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
                _ => match value_end(bytes, k + 1, true) {
                    Some(close) => at = close + 1,
                    None => break,
                },
            }
        }
        match end {
            Some(e) => {
                games.push(GameSpan {
                    span: Span::new(start, e),
                    truncated: false,
                });
                pos = e;
            }
            None => {
                games.push(GameSpan {
                    span: Span::new(start, bytes.len()),
                    truncated: true,
                });
                pos = bytes.len();
            }
        }
    }
    games
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
        assert_eq!(value_end(br"ab]", 0, true), Some(2));
        assert_eq!(value_end(br"a\]b]", 0, true), Some(4));
        assert_eq!(value_end(br"a\\]b]", 0, true), Some(3));
        assert_eq!(value_end(br"a\", 0, true), None);
        assert_eq!(value_end(br"a\]", 0, false), Some(2));
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
        assert_eq!(spans("From: x\n)) (;)junk(;)"), vec![(11, 14, false), (18, 21, false)]);
    }

    #[test]
    fn unclosed_tree_is_truncated() {
        assert_eq!(spans("(;B[aa](;W[bb]"), vec![(0, 14, true)]);
        assert_eq!(spans("(;C[never closed"), vec![(0, 16, true)]);
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let mut s = "(".repeat(1_000_000);
        s.push(';');
        s.push_str(&")".repeat(1_000_000));
        assert_eq!(spans(&s), vec![(0, 2_000_001, false)]);
    }
}
