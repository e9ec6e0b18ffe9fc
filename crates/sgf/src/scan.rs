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
    /// The tree was not closed and ends where the next game starts: a tree inside it whose first
    /// node holds a root property (`GM` or `FF`), which only a game's root may hold. This is a
    /// collection whose game lost its closing parenthesis; without the cut, every later game of
    /// the file would be read as a variation of this one.
    pub next_game: bool,
    /// The tree starts with node data (`;GM[1]…`) but no `(`: a parenthesis is implied before it.
    pub implicit_open: bool,
    /// Bytes after this tree, up to the next game found, that belong to no game: what an
    /// unclosed tree held between the games found inside it (its own variations). They are not
    /// read; the tree before them says so.
    pub left: Option<Span>,
}

/// Splits a collection into its top-level game trees without building them.
///
/// This is the cheap sequential pass that lets games be parsed in parallel afterwards: it only
/// tracks parenthesis depth and skips over bracketed values. Bytes outside any tree (mail headers,
/// junk, stray `)`) are skipped. Node data outside any tree (`;GM[1]…` with its `(` missing, a
/// common corruption) starts a tree of its own, with the `(` implied, so that its root is not
/// lost.
///
/// A tree that is never closed runs to the end of the file and is marked truncated, unless a
/// game starts inside it (a nested tree whose first node holds `GM` or `FF`, see
/// [`GameSpan::next_game`]): then it ends there, and each game found inside it is a tree of its
/// own, closed or not. Trees that close are never cut, whatever their variations hold.
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
        let span = |end, truncated, next_game| GameSpan {
            span: Span::new(start, end),
            truncated,
            implicit_open,
            next_game,
            left: None,
        };
        match tree_end(bytes, start, implicit_open, |_, _| {}) {
            Some(e) => {
                games.push(span(e, false, false));
                pos = e;
            }
            None => {
                // Rare (a broken file): a second pass over the tree finds the games inside it.
                let roots = nested_games(bytes, start, implicit_open);
                let cut = roots.first().map_or(bytes.len(), |r| r.0);
                games.push(span(cut, true, cut < bytes.len()));
                split_nested(&roots, bytes, &mut games);
                pos = bytes.len();
            }
        }
    }
    games
}

/// Where the tree starting at `start` ends (just past its closing parenthesis), or `None` when
/// the bytes end first. `paren(at, depth)` is told of every parenthesis inside it, with the depth
/// after it.
#[inline(always)]
fn tree_end(
    bytes: &[u8],
    start: usize,
    implicit_open: bool,
    mut paren: impl FnMut(usize, usize),
) -> Option<usize> {
    let mut depth = implicit_open as usize;
    let mut at = start;
    // Between values SGF is dense (`;B[pd];W[dp]`): a plain byte loop beats a search call per
    // token here; long runs are skipped inside `value_end`.
    while at < bytes.len() {
        let k = at;
        match bytes[k] {
            b'(' => {
                depth += 1;
                paren(k, depth);
                at = k + 1;
            }
            b')' => {
                depth -= 1;
                at = k + 1;
                if depth == 0 {
                    return Some(at);
                }
                paren(k, depth);
            }
            // A two-letter value (`[pd]`, the bulk of a record) needs no search at all.
            b'[' if matches!(bytes.get(k + 1..k + 4), Some(&[x, y, b']'])
                if x != b'\\' && x != b']' && y != b'\\' && y != b']') =>
            {
                at = k + 4
            }
            b'[' => match value_end(bytes, k + 1, Escapes::Sgf) {
                Some(close) => at = close + 1,
                None => return None,
            },
            _ => at = k + 1,
        }
    }
    None
}

/// The games inside an unclosed tree: each nested tree whose first node holds a root property,
/// in the order they start, with the end of each that closes. One pass, however many there are.
fn nested_games(bytes: &[u8], start: usize, implicit_open: bool) -> Vec<(usize, Option<usize>)> {
    // (start, depth inside it, end)
    let mut roots: Vec<(usize, usize, Option<usize>)> = Vec::new();
    // Those not closed yet, innermost last.
    let mut open: Vec<usize> = Vec::new();
    tree_end(bytes, start, implicit_open, |at, depth| {
        if bytes[at] == b'(' {
            if depth >= 2 && starts_root_node(&bytes[at + 1..]) {
                open.push(roots.len());
                roots.push((at, depth, None));
            }
        } else if let Some(&r) = open.last() {
            if depth < roots[r].1 {
                roots[r].2 = Some(at + 1);
                open.pop();
            }
        }
    });
    roots.into_iter().map(|(s, _, e)| (s, e)).collect()
}

/// The trees of the games [`nested_games`] found, as [`split_games`] gives them: a game that
/// closes is whole (games inside it stay in it), one that does not runs to the next game found.
///
/// What lies between a game that closes and the next game found (or the end) is the unclosed
/// tree's own: the game before it names those bytes ([`GameSpan::left`]) when they hold more than
/// closing parentheses and white space.
fn split_nested(roots: &[(usize, Option<usize>)], bytes: &[u8], games: &mut Vec<GameSpan>) {
    let len = bytes.len();
    let mut covered = 0;
    for (i, &(start, end)) in roots.iter().enumerate() {
        if start < covered {
            continue;
        }
        let (end, truncated) = match end {
            Some(e) => (e, false),
            // Every later game lies inside this unclosed one.
            None => (roots.get(i + 1).map_or(len, |r| r.0), true),
        };
        covered = end;
        let left = match truncated {
            true => None,
            false => {
                let next = roots[i + 1..]
                    .iter()
                    .find(|r| r.0 >= end)
                    .map_or(len, |r| r.0);
                let gap = &bytes[end..next];
                gap.iter()
                    .any(|b| !b.is_ascii_whitespace() && *b != b')')
                    .then(|| Span::new(end, next))
            }
        };
        games.push(GameSpan {
            span: Span::new(start, end),
            truncated,
            implicit_open: false,
            next_game: truncated && end < len,
            left,
        });
    }
}

/// Whether `bytes` starts (after white space) with a node holding a root property: `;`, then
/// properties, one of them `GM` or `FF` (the upper-case letters of the identifier, as FF[3]'s
/// `GaMe` is `GM`).
fn starts_root_node(bytes: &[u8]) -> bool {
    let skip_space = |mut i: usize| {
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    let mut i = skip_space(0);
    if bytes.get(i) != Some(&b';') {
        return false;
    }
    i += 1;
    loop {
        i = skip_space(i);
        let (mut id, mut len) = ([0u8; 2], 0);
        while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_alphabetic()) {
            if b.is_ascii_uppercase() {
                if len < 2 {
                    id[len] = b;
                }
                len += 1;
            }
            i += 1;
        }
        if len == 2 && matches!(&id, b"GM" | b"FF") {
            return true;
        }
        i = skip_space(i);
        if len == 0 || bytes.get(i) != Some(&b'[') {
            return false;
        }
        // The property's values.
        while bytes.get(i) == Some(&b'[') {
            match value_end(bytes, i + 1, Escapes::Sgf) {
                Some(close) => i = skip_space(close + 1),
                None => return false,
            }
        }
    }
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

    /// A collection of `n` games, `(;GM[1]…)` each on a line, with the closing parenthesis of
    /// the games in `unclosed` left out.
    fn collection(n: usize, unclosed: &[usize]) -> (String, Vec<usize>) {
        let mut s = String::new();
        let mut starts = Vec::new();
        for i in 0..n {
            starts.push(s.len());
            s.push_str(&format!("(;GM[1]FF[4]PB[b{i}];B[pd](;W[dd])(;W[dp];B[pp])"));
            if !unclosed.contains(&i) {
                s.push(')');
            }
            s.push('\n');
        }
        (s, starts)
    }

    #[test]
    fn a_game_that_lost_its_parenthesis_ends_where_the_next_starts() {
        let (s, starts) = collection(10, &[3]);
        let g = split_games(s.as_bytes());
        assert_eq!(g.len(), 10);
        for (i, g) in g.iter().enumerate() {
            assert_eq!(g.span.start, starts[i], "game {i}");
            assert_eq!(g.truncated, i == 3, "game {i}");
            assert_eq!(g.next_game, i == 3, "game {i}");
        }
        assert_eq!(g[3].span.end, starts[4]);
        assert_eq!(
            &s[g[4].span.start..g[4].span.end],
            &s[starts[4]..starts[5] - 1]
        );

        // Several, the last among them: the last runs to the end of the file.
        let (s, starts) = collection(10, &[0, 4, 5, 9]);
        let g = split_games(s.as_bytes());
        let got: Vec<_> = g
            .iter()
            .map(|g| (g.span.start, g.truncated, g.next_game))
            .collect();
        let want: Vec<_> = (0..10)
            .map(|i| (starts[i], [0, 4, 5, 9].contains(&i), [0, 4, 5].contains(&i)))
            .collect();
        assert_eq!(got, want);
        assert_eq!(g[9].span.end, s.len());
        assert_eq!(g[5].span.end, starts[6]);
    }

    #[test]
    fn games_that_close_are_never_cut() {
        // A closed tree keeps a variation holding GM, and so does a game found inside an
        // unclosed one.
        let inner = "(;GM[1];B[aa](;GM[1];W[bb]))";
        assert_eq!(spans(inner), vec![(0, inner.len(), false)]);
        let s = format!("(;GM[1];B[cc]{inner}");
        assert_eq!(spans(&s), vec![(0, 13, true), (13, s.len(), false)]);
        // Without a root property inside, an unclosed tree runs to the end, as before.
        assert_eq!(
            spans("(;GM[1];B[aa](;W[bb])(;B[cc];PB[x]"),
            vec![(0, 34, true)]
        );
        // FF[3]'s lower-case letters in the identifier, values before it, white space.
        assert_eq!(
            spans("(;GM[1];B[aa]\n( ; PB[a\\]b] C[x] GaMe [1];W[bb])"),
            vec![(0, 14, true), (14, 47, false)]
        );
        // A property that only looks like one, inside a value, starts nothing.
        assert_eq!(spans("(;GM[1];C[(;GM[1]];B[aa]"), vec![(0, 24, true)]);
    }

    #[test]
    fn what_lies_between_the_games_found_is_named_not_lost() {
        let s = "(;GM[1];B[aa](;GM[1];W[bb])(;W[cc];B[dd];W[ee])(;GM[1];B[ff])";
        let g = split_games(s.as_bytes());
        let got: Vec<_> = g
            .iter()
            .map(|g| {
                (
                    g.span.start,
                    g.span.end,
                    g.truncated,
                    g.left.map(|l| (l.start, l.end)),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (0, 13, true, None),
                (13, 27, false, Some((27, 47))),
                (47, 61, false, None)
            ]
        );
        // Only closing parentheses and white space between: nothing to name.
        let s = "(;GM[1];B[aa](;GM[1];W[bb]) ) \n(;GM[1];B[ff])";
        assert!(split_games(s.as_bytes()).iter().all(|g| g.left.is_none()));
        let r = crate::Records::read(b"(;GM[1];B[aa](;GM[1];W[bb])(;W[cc])(;GM[1];B[ff])");
        let d = r.game(1).unwrap().diagnostics();
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            (d[0].offset, &d[0].problem),
            (27, &crate::Problem::LeftBetweenGames(8))
        );
    }

    #[test]
    fn games_nested_without_end_are_split_in_one_pass() {
        let n = 200_000;
        let s = "(;GM[1];B[aa]".repeat(n);
        let g = split_games(s.as_bytes());
        assert_eq!(g.len(), n);
        assert!(g.iter().enumerate().all(|(i, g)| g.span.start == 13 * i
            && g.span.end == 13 * (i + 1)
            && g.truncated
            && g.next_game == (i + 1 < n)));
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
