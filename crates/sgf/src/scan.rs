//! Byte-level scanning: where values end and where game trees start and stop.
//!
//! Everything here runs before any parsing, on raw bytes of unknown charset. The SGF structure
//! characters (`( ) ; [ ] \`) are ASCII, so a memchr-class search finds them without decoding; in
//! the few legacy multi-byte charsets whose trail bytes can equal `\` or `]` (Shift_JIS, Big5) a
//! value may close late, which the SGF standard itself cannot avoid.

use memchr::memchr2;

/// How values are written: SGF escapes with `\`; the Weiqi Text Format has no escapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sgf,
    Wtf,
}

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
    /// The tree's closing parenthesis was never found (it ends at the end of the bytes, or where
    /// another game starts: see `next_game`).
    pub truncated: bool,
    /// The tree ends where a game starts inside it (see [`split_games`]): its closing
    /// parenthesis is missing, or stands after games that are not its own. Without the cut,
    /// every later game of the file would be read as a variation of this one.
    pub next_game: bool,
    /// The tree starts with node data (`;GM[1]…`) but no `(`: a parenthesis is implied before it.
    pub implicit_open: bool,
    /// Bytes after this tree, up to the next game found, that belong to no game: what a cut tree
    /// held after this game, found inside it, closed (the cut tree's own variations). They are
    /// not read; this game says so.
    pub left: Option<Span>,
}

/// Splits a collection into its game trees without building them.
///
/// This is the cheap sequential pass that lets games be parsed in parallel afterwards: it tracks
/// parenthesis depth, skips over bracketed values and notes the root properties of each node.
/// Bytes outside any tree (mail headers, junk, stray `)`) are skipped. Node data outside any tree
/// (`;GM[1]…` with its `(` missing, a common corruption) starts a tree of its own, with the `(`
/// implied, so that its root is not lost.
///
/// A game's root node starts a game wherever it stands: parentheses balance by accident in a
/// broken collection (a game that lost its `)`, later one that lost its `(`), and a game read as
/// another's variation is a game lost. Inside a tree, a new game starts at
/// - a nested tree whose first node holds a root property (`AP CA FF GM ST SZ`, the root
///   properties of FF\[4\]),
/// - a node after a closed variation (`(;B[aa]) ;GM[1]…`, or properties there without their
///   `;`, which the grammar does not allow) that holds one,
/// - a node of a sequence that holds two different ones: a whole root node (one stray `GM` or
///   `SZ` in a sequence stays where it is).
///
/// Of the shared datasets' 11,000 SGF files only torture tests (sgfc's, sgf-parse's) hold a root
/// property where these rules look; no well-formed file, Kogo's joseki dictionary among them, is
/// cut. The tree a game starts in ends there ([`GameSpan::next_game`]); what that tree held after
/// the new game closed, up to the next game or its own end, is named by the game before it
/// ([`GameSpan::left`]). One pass, however the games nest.
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
        pos = Inside::start(bytes, &mut games, start, implicit_open).run();
    }
    games
}

/// Where a node stands, which decides what makes it a game's root.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeAt {
    /// The first node of the game being read.
    Own,
    /// The first node of a tree (starting at this offset) inside a game.
    First(usize),
    /// A node after a closed variation.
    AfterClose,
    /// A node after another in a sequence.
    Sequence,
}

/// The scan of one top-level tree and of the games found inside it (see [`split_games`]). The
/// byte loop keeps its state in locals; what it rarely does (a node holding a root property, a
/// game closing) is done by methods out of it.
struct Inside<'a, 'g> {
    bytes: &'a [u8],
    games: &'g mut Vec<GameSpan>,
    /// Where the top-level tree starts (its `(`, or its first `;` when the `(` is implied).
    start: usize,
    /// The depth below which the top-level tree ends: 1, or 0 when its `(` is implied (the
    /// depth counts the parentheses open since it started).
    floor: isize,
    /// The game being read (its index in `games`).
    game: Option<usize>,
    /// While no game is being read but the top-level tree is still open: the game that closed
    /// last and where the bytes after it start.
    orphan: Option<(usize, usize)>,
}

impl<'a, 'g> Inside<'a, 'g> {
    /// Starts the game whose tree opens at `start` (its `(`, or its first `;` if implicit).
    fn start(
        bytes: &'a [u8],
        games: &'g mut Vec<GameSpan>,
        start: usize,
        implicit_open: bool,
    ) -> Self {
        games.push(GameSpan {
            span: Span::new(start, bytes.len()),
            truncated: true,
            implicit_open,
            next_game: false,
            left: None,
        });
        Inside {
            game: Some(games.len() - 1),
            bytes,
            games,
            start,
            // An implied `(` is not counted: the game ends at the `)` that takes the depth
            // below 0.
            floor: !implicit_open as isize,
            orphan: None,
        }
    }

    /// Scans to the end of the top-level tree (or of the bytes) and returns where it ends.
    fn run(mut self) -> usize {
        let bytes = self.bytes;
        let mut depth = self.floor;
        let mut at = self.start + depth as usize;
        // The depth below which the game being read ends (`isize::MIN` while none is).
        let mut base = depth;
        // Where the next node stands, and the node being read: its start, where it stands, its
        // root properties (bits), and whether there is one.
        let mut next_node = NodeAt::Own;
        let mut node = (at, NodeAt::Own);
        let mut roots = 0u8;
        let mut in_node = false;
        // The upper-case letters of the property identifier being read (the last two) and how
        // many there were: FF[3]'s `GaMe` is `GM`.
        let (mut id, mut id_len) = (0u16, 0u32);
        // Whether the game being read has had a move or setup stones (`moved`), and had them
        // before the node being read began (`node_moved`): until then, a node of its sequence
        // that holds root properties is still its root's (`(;GM[1];FF[4]SZ[19];B[pd]…)`,
        // `(;;GM[1]…)`, which older readers take as one game), not a new game. Setup counts:
        // problems written one after another as a sequence (`;GM[1]…AB[..];GM[1]…AB[..]`) are
        // games.
        let (mut moved, mut node_moved) = (false, false);
        // Between values SGF is dense (`;B[pd];W[dp]`): a plain byte loop beats a search call per
        // token here; long runs are skipped inside `value_end`.
        while at < bytes.len() {
            let k = at;
            match bytes[k] {
                b'(' => {
                    if roots != 0 {
                        if let Some(b) = self.root_node(node, roots, depth, node_moved) {
                            (base, moved) = (b, false);
                        }
                        roots = 0;
                    }
                    in_node = false;
                    id_len = 0;
                    next_node = NodeAt::First(k);
                    depth += 1;
                    at = k + 1;
                }
                b')' => {
                    if roots != 0 {
                        if let Some(b) = self.root_node(node, roots, depth, node_moved) {
                            (base, moved) = (b, false);
                        }
                        roots = 0;
                    }
                    in_node = false;
                    id_len = 0;
                    next_node = NodeAt::AfterClose;
                    depth -= 1;
                    at = k + 1;
                    if depth < base {
                        self.game_closed(at);
                        base = isize::MIN;
                    }
                    if depth < self.floor {
                        self.name_last_gap(at);
                        return at;
                    }
                }
                b';' => {
                    if roots != 0 {
                        if let Some(b) = self.root_node(node, roots, depth, node_moved) {
                            (base, moved) = (b, false);
                        }
                        roots = 0;
                    }
                    in_node = true;
                    id_len = 0;
                    node = (k, next_node);
                    node_moved = moved;
                    next_node = NodeAt::Sequence;
                    at = k + 1;
                    // Most nodes of a record are one move, `;B[pd]`: skipped in one step.
                    if let Some(&[b'B' | b'W', b'[', x, y, b']']) = bytes.get(k + 1..k + 6) {
                        if x != b'\\' && x != b']' && y != b'\\' && y != b']' {
                            at = k + 6;
                            moved = true;
                        }
                    }
                }
                b'A'..=b'Z' => {
                    if !in_node && next_node == NodeAt::AfterClose {
                        // Properties after a closed variation, without a `;`: the parser makes
                        // them a node below the variation's parent, which a writer writes as one.
                        in_node = true;
                        node = (k, NodeAt::AfterClose);
                        node_moved = moved;
                        next_node = NodeAt::Sequence;
                    }
                    id = id << 8 | bytes[k] as u16;
                    id_len += 1;
                    at = k + 1;
                }
                b'[' => {
                    if id_len == 2 && in_node {
                        roots |= root_bit(id);
                        // `AB[`, `AW[`, `AE[`: setup, a problem's position.
                        moved |= matches!(id, 0x4142 | 0x4157 | 0x4145);
                    } else if id_len == 1 && in_node && matches!(id, 0x42 | 0x57) {
                        // `B[` or `W[`: a move.
                        moved = true;
                    }
                    id_len = 0;
                    // A two-letter value (`[pd]`, the bulk of a record) needs no search at all.
                    if matches!(bytes.get(k + 1..k + 4), Some(&[x, y, b']'])
                        if x != b'\\' && x != b']' && y != b'\\' && y != b']')
                    {
                        at = k + 4;
                    } else {
                        match value_end(bytes, k + 1, Escapes::Sgf) {
                            Some(close) => at = close + 1,
                            None => at = bytes.len(),
                        }
                    }
                }
                _ => at = k + 1,
            }
        }
        if roots != 0 {
            self.root_node(node, roots, depth, node_moved);
        }
        self.name_last_gap(bytes.len());
        bytes.len()
    }

    /// The game being read closed just before `at`.
    #[cold]
    fn game_closed(&mut self, at: usize) {
        if let Some(g) = self.game.take() {
            let game = &mut self.games[g];
            game.span.end = at;
            game.truncated = false;
            self.orphan = Some((g, at));
        }
    }

    /// The top-level tree ends at `at`: the bytes after the last game closed in it are named.
    fn name_last_gap(&mut self, at: usize) {
        if let Some((prev, from)) = self.orphan.take() {
            self.name_gap(prev, from, at);
        }
    }

    /// A node (its start and where it stands) that holds the root properties `roots` ended at
    /// `depth`: when it is a game's root (see [`split_games`]), the game being read ends and a
    /// new one starts. Returns the depth below which the new game ends.
    #[cold]
    #[inline(never)]
    fn root_node(
        &mut self,
        node: (usize, NodeAt),
        roots: u8,
        depth: isize,
        moved: bool,
    ) -> Option<isize> {
        let (start, implicit_open) = match node.1 {
            NodeAt::Own => return None,
            NodeAt::Sequence if roots.count_ones() < 2 || !moved => return None,
            NodeAt::First(tree) => (tree, false),
            NodeAt::AfterClose | NodeAt::Sequence => (node.0, true),
        };
        if let Some(g) = self.game {
            let game = &mut self.games[g];
            game.span.end = start;
            game.next_game = true;
        }
        if let Some((prev, from)) = self.orphan.take() {
            self.name_gap(prev, from, start);
        }
        self.games.push(GameSpan {
            span: Span::new(start, self.bytes.len()),
            truncated: true,
            implicit_open,
            next_game: false,
            left: None,
        });
        self.game = Some(self.games.len() - 1);
        // Its `)` (or the one closing the tree its implied `(` stands in) takes the depth below
        // this one.
        Some(depth)
    }

    /// Names, on the game before them, the bytes from `from` to `to` that belong to no game
    /// (what a cut tree held after a game inside it closed), unless they are only closing
    /// parentheses and white space.
    fn name_gap(&mut self, prev: usize, from: usize, to: usize) {
        let gap = &self.bytes[from..to];
        if gap.iter().any(|b| !b.is_ascii_whitespace() && *b != b')') {
            self.games[prev].left = Some(Span::new(from, to));
        }
    }
}

/// The bit of a root property of FF[4] (`id` is its two upper-case letters), 0 for any other.
fn root_bit(id: u16) -> u8 {
    match &id.to_be_bytes() {
        b"GM" => 1,
        b"FF" => 2,
        b"CA" => 4,
        b"SZ" => 8,
        b"AP" => 16,
        b"ST" => 32,
        _ => 0,
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

/// Offset of the first `(` followed (white space allowed) by `;`.
pub(crate) fn find_tree_start(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'(', &bytes[from..]) {
        let at = from + i;
        let next = bytes[at + 1..].iter().find(|b| !b.is_ascii_whitespace());
        if next == Some(&b';') {
            return Some(at);
        }
        from = at + 1;
    }
    None
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
    fn a_game_found_inside_a_tree_is_cut_out_of_it() {
        // A tree that closes is cut too: its closing parenthesis may be another game's.
        let inner = "(;GM[1];B[aa](;GM[1];W[bb]))";
        assert_eq!(spans(inner), vec![(0, 13, true), (13, 27, false)]);
        let s = format!("(;GM[1];B[cc]{inner}");
        assert_eq!(
            spans(&s),
            vec![(0, 13, true), (13, 26, true), (26, 40, false)]
        );
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
        // Each root property of FF[4] is one, in a tree's first node.
        for p in ["AP[x:1]", "CA[UTF-8]", "FF[4]", "GM[1]", "ST[2]", "SZ[19]"] {
            let s = format!("(;GM[1];B[aa](;C[x]{p};W[bb]))");
            assert_eq!(
                spans(&s),
                vec![(0, 13, true), (13, s.len() - 1, false)],
                "{p}"
            );
        }
        // A property that only looks like one, inside a value, starts nothing; nor do
        // identifiers that only end with one, nor other properties.
        assert_eq!(spans("(;GM[1];C[(;GM[1]];B[aa]"), vec![(0, 24, true)]);
        assert_eq!(
            spans("(;GM[1];B[aa](;XGM[1]PB[x]KM[6.5];W[bb]))"),
            vec![(0, 41, false)]
        );
    }

    #[test]
    fn problems_written_as_one_sequence_are_games() {
        // Setup stones make a problem's position: the next node holding a whole root starts the
        // next problem.
        let text = b"(;GM[1]FF[4]SZ[19]AB[aa][ba]AW[ca];GM[1]FF[4]SZ[19]AB[bb]AW[cc];W[dd])";
        assert_eq!(split_games(text).len(), 2);
    }

    #[test]
    fn a_root_split_over_the_first_nodes_is_one_game() {
        // Root properties in the second node, before any move: still the game's root, as older
        // readers took it, not a game of its own.
        for text in [
            &b"(;GM[1];FF[4]SZ[19];B[pd];W[dp])"[..],
            b"(;;GM[1]FF[4];B[pd];W[dp])",
            b"(;GM[1]\n;FF[4]CA[UTF-8]SZ[19]\n;B[pd])",
            b"(;GM[1];FF[4]SZ[19]B[pd];W[dp])",
        ] {
            let games = split_games(text);
            assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(text));
            assert!(!games[0].next_game && !games[0].truncated);
        }
    }

    #[test]
    fn a_root_node_in_a_sequence_starts_a_game_without_its_parenthesis() {
        // After a closed variation (which the grammar does not allow), one root property.
        let s = "(;GM[1];B[aa](;W[bb]) ;SZ[19];B[cc])";
        let g = split_games(s.as_bytes());
        let got: Vec<_> = g
            .iter()
            .map(|g| (g.span.start, g.span.end, g.truncated, g.implicit_open))
            .collect();
        assert_eq!(got, [(0, 22, true, false), (22, 36, false, true)]);
        // The same without the `;`.
        assert_eq!(
            spans("(;GM[1];B[aa](;W[bb]) SZ[19];B[cc])"),
            vec![(0, 22, true), (22, 35, false)]
        );
        assert_eq!(spans("(;GM[1](;W[bb]) C[x];B[cc])"), vec![(0, 27, false)]);
        // In a sequence, a whole root node: two of them.
        assert_eq!(
            spans("(;GM[1];B[aa];W[bb]\n;GM[1]FF[4];B[cc])"),
            vec![(0, 20, true), (20, 38, false)]
        );
        // One stray root property in a sequence stays where it is.
        assert_eq!(spans("(;SZ[9]C[x];GM[1])"), vec![(0, 18, false)]);
        assert_eq!(spans("(;GM[1];B[aa];SZ[9];W[bb])"), vec![(0, 26, false)]);
    }

    #[test]
    fn parentheses_that_balance_by_accident_keep_every_game() {
        // Five games, the first without its `)`, the third without its `(`.
        let game = |i: usize| format!("(;GM[1]FF[4]SZ[19]PB[p{i}];B[pd];W[dp](;B[pp])(;B[dd]))");
        let mut s = String::new();
        let mut starts = Vec::new();
        for i in 0..5 {
            let mut g = game(i);
            match i {
                0 => {
                    g.pop();
                }
                2 => {
                    g.remove(0);
                }
                _ => {}
            }
            starts.push(s.len());
            s.push_str(&g);
            s.push('\n');
        }
        let g = split_games(s.as_bytes());
        let got: Vec<_> = g
            .iter()
            .map(|g| (g.span.start, g.truncated, g.next_game, g.implicit_open))
            .collect();
        assert_eq!(
            got,
            [
                (starts[0], true, true, false),
                (starts[1], false, false, false),
                (starts[2], false, false, true),
                (starts[3], false, false, false),
                (starts[4], false, false, false),
            ]
        );
        for (i, g) in g.iter().enumerate().skip(1) {
            let text = &s[g.span.start..g.span.end];
            let whole = game(i);
            assert_eq!(text, &whole[(i == 2) as usize..], "game {i}");
        }
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
