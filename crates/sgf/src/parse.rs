//! Builds a [`GameTree`] from the bytes of one game tree, without recursion.
//!
//! The parser is a single forward pass over bytes with an explicit stack of variation starts, so a
//! file of a million nested `(` costs a vector of a million entries, not a stack overflow. It never
//! fails half-way: what does not fit the grammar is skipped with a diagnostic, and everything that
//! was well-formed is kept.

use std::sync::OnceLock;

use crate::diag::{DiagList, Diagnostic, Problem};
use crate::prop::{ids, PropId};
use crate::scan::{value_end, Dialect, Escapes, GameSpan};
use crate::tree::{GameTree, NodeData, PropData, Spare, ValueSpan, NONE};

/// Parses the game tree found at `game` in `src`.
///
/// Returns an error only when the tree holds no node at all; every other problem becomes a
/// diagnostic on the returned tree.
pub fn parse_game<'a>(
    src: &'a [u8],
    game: GameSpan,
    dialect: Dialect,
) -> Result<GameTree<'a>, Diagnostic> {
    let escapes = match dialect {
        Dialect::Sgf => Escapes::Sgf,
        Dialect::Wtf => Escapes::None,
    };
    parse_with(src, game, dialect, escapes)
}

/// [`parse_game`] with an explicit escape rule (see [`Escapes`]).
pub(crate) fn parse_with<'a>(
    src: &'a [u8],
    game: GameSpan,
    dialect: Dialect,
    escapes: Escapes,
) -> Result<GameTree<'a>, Diagnostic> {
    if game.span.len() >= u32::MAX as usize {
        return Err(Diagnostic {
            offset: game.span.start,
            problem: Problem::TooLarge,
        });
    }
    // Room for every node at once: a move node takes about 6 bytes (`;B[pd]`). Capped: a 100 MB
    // comment must not reserve room for 17 M nodes.
    let guess = (game.span.len() / 6 + 4).min(1 << 20);
    let spare = Spare::take(guess);
    let mut p = Parser {
        src: &src[..game.span.end],
        pos: game.span.start,
        escapes,
        base: game.span.start,
        pending_values: 0,
        last_child: spare.last_child,
        nodes: spare.nodes,
        props: spare.props,
        values: spare.values,
        diags: DiagList::default(),
        end_of_long: 0,
    };
    if game.implicit_open {
        p.diags.push(game.span.start, Problem::MissingOpen);
    }
    p.run(game.implicit_open);
    if game.truncated {
        let problem = match game.next_game {
            true => Problem::UnclosedBeforeNextGame,
            false => Problem::Unclosed,
        };
        p.diags.push(game.span.end, problem);
    }
    if let Some(left) = game.left {
        p.diags
            .push(left.start, Problem::LeftBetweenGames(left.len()));
    }
    Spare::keep_last_child(std::mem::take(&mut p.last_child));
    if p.nodes.is_empty() {
        return Err(Diagnostic {
            offset: game.span.start,
            problem: Problem::EmptyTree,
        });
    }
    Ok(GameTree {
        src,
        span: game.span,
        dialect,
        escapes,
        nodes: p.nodes,
        props: p.props,
        values: p.values,
        diagnostics: p.diags.items,
        end_of_long: p.end_of_long,
        file_charset: None,
        converted: false,
        charset: OnceLock::new(),
    })
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    escapes: Escapes,
    /// Start of the game in `src`: stored offsets are relative to it.
    base: usize,
    /// First value of the property being read.
    pending_values: u32,
    /// Last child of each node, while linking siblings.
    last_child: Vec<u32>,
    nodes: Vec<NodeData>,
    props: Vec<PropData>,
    values: Vec<ValueSpan>,
    diags: DiagList,
    /// Index of the last property whose id is longer than one letter, plus one (0: none); see
    /// `GameTree::end_of_long`.
    end_of_long: u32,
}

impl Parser<'_> {
    fn run(&mut self, implicit_open: bool) {
        // `current` is the last node of the sequence being read: the parent of the next node.
        let mut current = NONE;
        let mut stack: Vec<u32> = Vec::new();
        if implicit_open {
            stack.push(NONE);
        }
        // Offset of the last unexpected byte reported, so that a run of junk gives one diagnostic.
        let mut junk_run_end = usize::MAX;
        let src = self.src;
        while self.pos < src.len() {
            let c = src[self.pos];
            match c {
                b'(' => {
                    stack.push(current);
                    self.pos += 1;
                }
                b')' => {
                    self.pos += 1;
                    match stack.pop() {
                        Some(prev) => current = prev,
                        None => break,
                    }
                    if stack.is_empty() {
                        break;
                    }
                }
                b';' => {
                    current = self.new_node(current, self.pos);
                    self.pos += 1;
                    // Most nodes of a record are one move, `;B[pd]`: read those in one step.
                    // (Only when what follows cannot be a second value of the same property.)
                    if let Some(&[c @ (b'B' | b'W'), b'[', x, y, b']', next]) =
                        src.get(self.pos..self.pos + 6)
                    {
                        let plain = |b: u8| b != b'\\' && b != b']';
                        if plain(x) && plain(y) && matches!(next, b';' | b'(' | b')' | b'A'..=b'Z')
                        {
                            let first_value = self.values.len() as u32;
                            self.values
                                .push(self.value_span(self.pos + 2, self.pos + 4));
                            self.props.push(PropData {
                                id: if c == b'B' { ids::B } else { ids::W },
                                name: (self.pos - self.base) as u32,
                                first_value,
                            });
                            self.pos += 5;
                        }
                    }
                }
                b'A'..=b'Z' | b'a'..=b'z' => {
                    if current == NONE {
                        let name = self.peek_name();
                        self.diags
                            .push(self.pos, Problem::PropertyOutsideNode(name.clone()));
                        current = self.new_node(current, self.pos);
                    }
                    if !self.property(current) {
                        break;
                    }
                }
                b'[' => {
                    self.diags.push(self.pos, Problem::ValueWithoutProperty);
                    match value_end(src, self.pos + 1, self.escapes) {
                        Some(e) => self.pos = e + 1,
                        None => {
                            self.diags.push(self.pos, Problem::UnclosedValue);
                            break;
                        }
                    }
                }
                c if c.is_ascii_whitespace() => self.pos += 1,
                _ => {
                    if junk_run_end != self.pos {
                        self.diags
                            .push(self.pos, Problem::UnexpectedByte(c as char));
                    }
                    self.pos += 1;
                    junk_run_end = self.pos;
                }
            }
        }
    }

    fn peek_name(&self) -> String {
        let end = self.src[self.pos..]
            .iter()
            .position(|c| !c.is_ascii_alphanumeric())
            .map_or(self.src.len(), |i| self.pos + i);
        String::from_utf8_lossy(&self.src[self.pos..end]).into_owned()
    }

    #[inline]
    fn new_node(&mut self, parent: u32, offset: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let mut parent = parent;
        if parent == NONE && id != 0 {
            self.diags.push(offset, Problem::ExtraRoot);
            parent = 0;
        }
        self.nodes.push(NodeData {
            first_prop: self.props.len() as u32,
            parent,
            first_child: NONE,
            next_sibling: NONE,
            offset: (offset - self.base) as u32,
        });
        self.last_child.push(NONE);
        if parent != NONE {
            let last = self.last_child[parent as usize];
            if last == NONE {
                self.nodes[parent as usize].first_child = id;
            } else {
                self.nodes[last as usize].next_sibling = id;
            }
            self.last_child[parent as usize] = id;
        }
        id
    }

    /// Reads `Name[v][v]…` into node `node`. Returns false when the input ended inside a value.
    fn property(&mut self, node: u32) -> bool {
        let src = self.src;
        let start = self.pos;
        // A letter (the caller saw one), then letters, and digits once an upper-case letter
        // came: lizzieyzy's `LZ2` is one id, while junk such as `a1B[cc]` stays a lower-case
        // `a`, a stray `1` and the move it always was.
        let mut upper = false;
        while let Some(&c) = src.get(self.pos) {
            if c.is_ascii_alphabetic() {
                upper |= c.is_ascii_uppercase();
            } else if !(upper && c.is_ascii_digit()) {
                break;
            }
            self.pos += 1;
        }
        let name_end = self.pos;
        let id = PropId::from_name(&src[start..name_end]);
        let first_value = self.values.len() as u32;
        self.pending_values = first_value;
        loop {
            while self.pos < src.len() && src[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos >= src.len() || src[self.pos] != b'[' {
                break;
            }
            match value_end(src, self.pos + 1, self.escapes) {
                Some(e) => {
                    self.values.push(self.value_span(self.pos + 1, e));
                    self.pos = e + 1;
                }
                None => {
                    // Keep what there is of the value: it may be a long comment cut short.
                    self.values.push(self.value_span(self.pos + 1, src.len()));
                    self.diags.push(self.pos, Problem::UnclosedValue);
                    self.pos = src.len();
                    self.finish_property(node, id, start);
                    return false;
                }
            }
        }
        let raw_name = || String::from_utf8_lossy(&src[start..name_end]).into_owned();
        if self.values.len() as u32 == first_value {
            self.diags.push(start, Problem::NoValue(raw_name()));
            return true;
        }
        if id.is_empty() {
            self.diags.push(start, Problem::NoUpperCase(raw_name()));
        }
        self.finish_property(node, id, start);
        true
    }

    /// Records a property whose values were just pushed, starting at `first_value`.
    fn finish_property(&mut self, node: u32, id: PropId, name: usize) {
        // A node's properties are contiguous because nodes are read in order, except when a
        // property follows a variation that closed back to an earlier node (`(;A[] (;B[]) C[])`):
        // such a property is moved into a node of its own below that node rather than lost.
        if node as usize + 1 != self.nodes.len() {
            self.new_node(node, name);
        }
        let first_value = self.pending_values;
        self.pending_values = self.values.len() as u32;
        if !id.is_one_letter() {
            self.end_of_long = self.props.len() as u32 + 1;
        }
        self.props.push(PropData {
            id,
            name: (name - self.base) as u32,
            first_value,
        });
    }

    fn value_span(&self, start: usize, end: usize) -> ValueSpan {
        ValueSpan {
            start: (start - self.base) as u32,
            end: (end - self.base) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{split_games, Span};

    fn parse(s: &str) -> GameTree<'_> {
        let g = split_games(s.as_bytes())[0];
        parse_game(s.as_bytes(), g, Dialect::Sgf).unwrap()
    }

    #[test]
    fn sequence_and_variations() {
        let t = parse("(;GM[1]FF[4];B[aa](;W[bb];B[cc])(;W[dd]))");
        assert_eq!(t.node_count(), 5);
        let main: Vec<_> = t.main_line().map(|n| n.props().count()).collect();
        assert_eq!(main, vec![2, 1, 1, 1]);
        let b = t.root().first_child().unwrap();
        let kids: Vec<_> = b
            .children()
            .map(|n| n.get(ids::W).unwrap().text())
            .collect();
        assert_eq!(kids, vec!["bb", "dd"]);
        assert!(t.diagnostics().is_empty());
    }

    #[test]
    fn lower_case_ids_and_whitespace() {
        let t = parse("( ; AddBlack [aa] [bb]\n CoPyright[x] ; B\n[cc] )");
        let root = t.root();
        assert_eq!(root.get(ids::AB).unwrap().len(), 2);
        assert_eq!(root.get(ids::CP).unwrap().name(), "CP");
        assert_eq!(
            root.first_child().unwrap().get(ids::B).unwrap().raw(),
            b"cc"
        );
    }

    /// lizzieyzy writes a second engine's analysis as `LZ2`/`LZOP2`: ids with a digit, which FF[4]
    /// does not allow but a reader must keep, not split into `LZ`, junk and a lost value.
    #[test]
    fn ids_with_digits_are_their_own_properties() {
        let t = parse("(;GM[1]LZOP2[a b];B[pd]LZ[x]LZ2[y 2];W[dd]LZ2[z])");
        assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
        let (lz, lz2, lzop2) = (PropId::new("LZ"), PropId::new("LZ2"), PropId::new("LZOP2"));
        assert_ne!(lz, lz2);
        assert_ne!(lz2, PropId::new("LZ3"));
        assert_eq!(PropId::from_name(b"LZ2"), lz2);
        assert_eq!(t.root().get(lzop2).unwrap().text(), "a b");
        let b = t.root().first_child().unwrap();
        assert_eq!(b.get(lz).unwrap().text(), "x");
        assert_eq!(b.get(lz2).unwrap().text(), "y 2");
        assert_eq!(b.get(lz2).unwrap().name(), "LZ2");
        assert_eq!(b.get(lz2).unwrap().raw_name(), b"LZ2");
        let w = b.first_child().unwrap();
        assert!(w.get(lz).is_none());
        assert_eq!(w.get(lz2).unwrap().text(), "z");
        // Digits after lower-case letters alone are no id: the move after them is still read.
        let t = parse("(;GM[1];a1B[cc])");
        let n = t.root().first_child().unwrap();
        assert_eq!(n.get(ids::B).unwrap().text(), "cc");
    }

    #[test]
    fn escaped_brackets_stay_in_values() {
        let t = parse(r"(;C[a \] b \\];B[aa])");
        assert_eq!(t.root().get(ids::C).unwrap().text(), r"a ] b \");
        assert_eq!(t.node_count(), 2);
    }

    #[test]
    fn junk_is_reported_not_fatal() {
        let t = parse("(;B[aa]%%;W[bb]X)");
        assert_eq!(t.node_count(), 2);
        let d = t.diagnostics();
        assert!(
            matches!(d[0].problem, Problem::UnexpectedByte('%')),
            "{d:?}"
        );
        assert!(matches!(d[1].problem, Problem::NoValue(_)), "{d:?}");
    }

    #[test]
    fn truncated_value_keeps_text() {
        let t = parse("(;B[aa];C[long comment cut");
        assert_eq!(t.node_count(), 2);
        let c = t
            .nodes()
            .nth(1)
            .unwrap()
            .get(ids::C)
            .unwrap()
            .text()
            .into_owned();
        assert_eq!(c, "long comment cut");
        assert!(t
            .diagnostics()
            .iter()
            .any(|d| d.problem == Problem::Unclosed));
    }

    #[test]
    fn property_outside_node_gets_one() {
        let t = parse("(GM[1];B[aa])");
        assert_eq!(t.node_count(), 2);
        assert!(t.root().get(ids::GM).is_some());
    }

    #[test]
    fn empty_tree_is_an_error() {
        let s = "( )";
        let g = GameSpan {
            span: Span::new(0, 3),
            truncated: false,
            implicit_open: false,
            next_game: false,
            left: None,
        };
        assert!(parse_game(s.as_bytes(), g, Dialect::Sgf).is_err());
    }

    #[test]
    fn deep_nesting_parses_without_recursion() {
        let n = 1_000_000;
        let mut s = String::with_capacity(3 * n + 10);
        for _ in 0..n {
            s.push_str("(;");
        }
        s.push_str(&")".repeat(n));
        let t = parse(&s);
        assert_eq!(t.node_count(), n);
        assert_eq!(t.main_line().count(), n);
    }

    #[test]
    fn property_after_variation_is_kept() {
        let t = parse("(;A[1](;B[aa])C[x])");
        assert!(t.nodes().any(|n| n.get(PropId::new("C")).is_some()));
    }
}
