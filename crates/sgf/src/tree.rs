//! One game tree, as spans into the bytes it was read from.
//!
//! Nodes, properties and values live in three flat vectors (one allocation each per game, none per
//! value); a value is a byte span of the source, still escaped and in its original charset, decoded
//! only when someone asks for its text. Children are linked first-child / next-sibling so that no
//! walk over the tree needs recursion, however deep the input nests.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::charset::{self, Charset};
use crate::diag::{Diagnostic, Problem};
use crate::prop::{ids, PropId, ValueType};
use crate::scan::{Dialect, Escapes, Span};
use crate::value;
use crate::Color;

pub(crate) const NONE: u32 = u32::MAX;

// The three records below are kept small (20, 16 and 8 bytes) because a game of 300 moves has 300
// of each and writing them is most of what parsing costs. Offsets are `u32`s relative to the start
// of the game; a node's properties run to the next node's first one, a property's values to the
// next property's first one.

#[derive(Clone, Debug)]
pub(crate) struct NodeData {
    pub(crate) first_prop: u32,
    pub(crate) parent: u32,
    pub(crate) first_child: u32,
    pub(crate) next_sibling: u32,
    /// Offset of the node's `;` from the start of the game.
    pub(crate) offset: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct PropData {
    pub(crate) id: PropId,
    /// Offset of the identifier's first letter from the start of the game.
    pub(crate) name: u32,
    pub(crate) first_value: u32,
}

/// A value's bytes, as offsets from the start of the game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ValueSpan {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

/// A parsed game tree borrowing the bytes of its file.
#[derive(Debug)]
pub struct GameTree<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) span: Span,
    pub(crate) dialect: Dialect,
    /// The escape rule the values were delimited with; unescaping follows the same rule.
    pub(crate) escapes: Escapes,
    pub(crate) nodes: Vec<NodeData>,
    pub(crate) props: Vec<PropData>,
    pub(crate) values: Vec<ValueSpan>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// One past the last property whose id has more than one letter (0: none), noted while
    /// parsing: whether a game holds anything but moves and comments after its root is then
    /// one comparison (the engine evaluations' reader asks it of every game).
    pub(crate) end_of_long: u32,
    /// Charset of a whole file that was transcoded before parsing (UTF-16), if any.
    pub(crate) file_charset: Option<&'static encoding_rs::Encoding>,
    /// The text was converted from a server format's file, whose converter said what did not
    /// decode (at the file's own offsets): U+FFFD in it is not counted again, since a file may
    /// hold the character itself and the converted text's offsets are not the file's.
    pub(crate) converted: bool,
    pub(crate) charset: OnceLock<(Charset, Vec<Diagnostic>)>,
}

impl Drop for GameTree<'_> {
    fn drop(&mut self) {
        Spare::keep(
            std::mem::take(&mut self.nodes),
            std::mem::take(&mut self.props),
            std::mem::take(&mut self.values),
        );
    }
}

/// The vectors of the last tree dropped on this thread, kept for the next tree to parse:
/// building trees is most of what reading a record costs, and allocating the vectors afresh
/// for each tree was a visible part of it (BENCHMARKS.md, Parsing: tree vectors kept per
/// thread).
#[derive(Default)]
pub(crate) struct Spare {
    pub(crate) last_child: Vec<u32>,
    pub(crate) nodes: Vec<NodeData>,
    pub(crate) props: Vec<PropData>,
    pub(crate) values: Vec<ValueSpan>,
}

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::default();
}

/// Vectors larger than this many entries are not kept (a huge game must not pin its memory).
const MAX_SPARE: usize = 1 << 16;

impl Spare {
    /// Empty vectors with room for `n` entries each, reused when this thread has some.
    pub(crate) fn take(n: usize) -> Spare {
        // A thread being torn down (its slot gone) or a nested parse (slot borrowed) starts
        // from new vectors.
        let mut s = SPARE
            .try_with(|s| s.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)))
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        s.last_child.clear();
        s.nodes.clear();
        s.props.clear();
        s.values.clear();
        s.last_child.reserve(n);
        s.nodes.reserve(n);
        s.props.reserve(n);
        s.values.reserve(n);
        s
    }

    pub(crate) fn keep_last_child(v: Vec<u32>) {
        if v.capacity() <= MAX_SPARE {
            let _ = SPARE.try_with(|s| {
                if let Ok(mut s) = s.try_borrow_mut() {
                    s.last_child = v;
                }
            });
        }
    }

    /// Keeps a dropped tree's vectors for the next parse on this thread.
    pub(crate) fn keep(nodes: Vec<NodeData>, props: Vec<PropData>, values: Vec<ValueSpan>) {
        if nodes
            .capacity()
            .max(props.capacity())
            .max(values.capacity())
            > MAX_SPARE
        {
            return;
        }
        // During thread teardown the slot may be gone: then the vectors are simply freed.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                s.nodes = nodes;
                s.props = props;
                s.values = values;
            }
        });
    }
}

/// Index of a node inside its tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl<'a> GameTree<'a> {
    /// The root node (every tree that parsed has one).
    pub fn root(&self) -> Node<'_, 'a> {
        Node { tree: self, id: 0 }
    }

    /// A node by id.
    pub fn node(&self, id: NodeId) -> Node<'_, 'a> {
        Node {
            tree: self,
            id: id.0,
        }
    }

    /// Number of nodes in the whole tree, variations included.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The main line: the root, then always the first child.
    pub fn main_line(&self) -> impl Iterator<Item = Node<'_, 'a>> + '_ {
        let mut next = Some(self.root());
        std::iter::from_fn(move || {
            let cur = next?;
            next = cur.first_child();
            Some(cur)
        })
    }

    /// Every node in document (depth-first, pre-) order; no recursion.
    pub fn nodes(&self) -> impl Iterator<Item = Node<'_, 'a>> + '_ {
        (0..self.nodes.len() as u32).map(move |id| Node { tree: self, id })
    }

    /// Where this tree lies in its file.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The dialect the tree was read as.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Structural problems met while parsing, then a board size that cannot be read (the game
    /// is then read on 19×19, see [`GameTree::board_size`]), then charset problems (once text
    /// was decoded).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = self.diagnostics.clone();
        if let Some(sz) = self.root().get(ids::SZ) {
            if let Some((raw, offset)) = sz
                .raw_values()
                .next()
                .filter(|(raw, _)| crate::value::size(raw).is_none())
            {
                out.push(Diagnostic {
                    offset,
                    // A value of any length, named by its first bytes.
                    problem: Problem::BadSize(
                        String::from_utf8_lossy(&raw[..raw.len().min(40)]).into_owned(),
                    ),
                });
            }
        }
        out.extend(self.charset_state().1.iter().cloned());
        out
    }

    /// The charset of this game's text: `CA[]` when it fits the bytes, otherwise detected.
    pub fn charset(&self) -> Charset {
        self.charset_state().0
    }

    fn charset_state(&self) -> &(Charset, Vec<Diagnostic>) {
        self.charset.get_or_init(|| {
            let declared = self
                .root()
                .get(ids::CA)
                .and_then(|p| p.raw_values().next())
                .map(|raw| (raw.0, raw.1));
            let mut sample = charset::Sample::default();
            for (i, p) in self.props.iter().enumerate() {
                if !ValueType::of(p.id).is_text() && p.id != ids::CA {
                    continue;
                }
                for v in &self.values[self.value_range(i)] {
                    let bytes = self.value_bytes(*v);
                    if !bytes.is_ascii() {
                        sample.push(bytes, self.span.start + v.start as usize);
                    }
                }
            }
            charset::detect(
                declared,
                &sample,
                self.file_charset,
                !self.converted,
                self.dialect,
                self.span.start,
            )
        })
    }

    /// The values of property `i`.
    pub(crate) fn value_range(&self, i: usize) -> std::ops::Range<usize> {
        let end = self
            .props
            .get(i + 1)
            .map_or(self.values.len(), |p| p.first_value as usize);
        self.props[i].first_value as usize..end
    }

    /// The properties of node `i`.
    pub(crate) fn prop_range(&self, i: usize) -> std::ops::Range<usize> {
        let end = self
            .nodes
            .get(i + 1)
            .map_or(self.props.len(), |n| n.first_prop as usize);
        self.nodes[i].first_prop as usize..end
    }

    pub(crate) fn value_bytes(&self, v: ValueSpan) -> &'a [u8] {
        let src: &'a [u8] = self.src;
        &src[self.span.start + v.start as usize..self.span.start + v.end as usize]
    }

    /// Decodes raw value bytes to text in this game's charset, escapes removed (SGF), soft line
    /// breaks removed, and for simple text newlines turned into spaces.
    ///
    /// Escapes are removed from the bytes before the charset decodes them, by the very rule that
    /// delimited the value, so that a double-byte character whose trail byte is `\\` stays whole.
    pub fn decode<'r>(&self, raw: &'r [u8], simple: bool) -> Cow<'r, str> {
        let text = match value::unescape_bytes(raw, self.escapes) {
            Cow::Borrowed(b) => self.charset().decode(b),
            Cow::Owned(b) => Cow::Owned(self.charset().decode(&b).into_owned()),
        };
        if simple {
            value::simplify(text)
        } else {
            text
        }
    }
}

/// A node of a tree.
#[derive(Clone, Copy)]
pub struct Node<'t, 'a> {
    tree: &'t GameTree<'a>,
    id: u32,
}

impl<'t, 'a> Node<'t, 'a> {
    fn data(&self) -> &'t NodeData {
        &self.tree.nodes[self.id as usize]
    }

    pub fn id(&self) -> NodeId {
        NodeId(self.id)
    }

    /// Byte offset of the node's `;` in the file.
    pub fn offset(&self) -> usize {
        self.tree.span.start + self.data().offset as usize
    }

    pub fn parent(&self) -> Option<Node<'t, 'a>> {
        self.wrap(self.data().parent)
    }

    pub fn first_child(&self) -> Option<Node<'t, 'a>> {
        self.wrap(self.data().first_child)
    }

    pub fn next_sibling(&self) -> Option<Node<'t, 'a>> {
        self.wrap(self.data().next_sibling)
    }

    /// The children in order; the first is the main line.
    pub fn children(&self) -> impl Iterator<Item = Node<'t, 'a>> + 't {
        let mut next = self.first_child();
        std::iter::from_fn(move || {
            let cur = next?;
            next = cur.next_sibling();
            Some(cur)
        })
    }

    fn wrap(&self, id: u32) -> Option<Node<'t, 'a>> {
        (id != NONE).then_some(Node {
            tree: self.tree,
            id,
        })
    }

    /// The node's properties in file order.
    pub fn props(&self) -> impl Iterator<Item = Prop<'t, 'a>> + 't {
        let tree = self.tree;
        tree.prop_range(self.id as usize)
            .map(move |i| Prop { tree, i: i as u32 })
    }

    /// The node's move when the node holds nothing else: one `B` or `W` property, the shape of
    /// almost every node of a game record, with its colour. `None` for any other node. Turning
    /// a main line into moves takes these without walking each node's properties.
    #[inline]
    pub fn lone_move(&self) -> Option<(Color, Prop<'t, 'a>)> {
        let tree = self.tree;
        let props = tree.prop_range(self.id as usize);
        if props.len() != 1 {
            return None;
        }
        let color = match tree.props[props.start].id {
            ids::B => Color::Black,
            ids::W => Color::White,
            _ => return None,
        };
        Some((
            color,
            Prop {
                tree,
                i: props.start as u32,
            },
        ))
    }

    /// The first property with this id.
    pub fn get(&self, id: PropId) -> Option<Prop<'t, 'a>> {
        self.props().find(|p| p.id() == id)
    }

    /// The raw values of the node's setup properties in the order setup applies them — `AB`, then
    /// `AW`, then `AE` (`None`: empty the points) — each still a point or a compressed list
    /// (expand with [`crate::value::point_list`]).
    pub fn setup_values(&self) -> impl Iterator<Item = (Option<Color>, &'a [u8])> + 't {
        let node = *self;
        [
            (ids::AB, Some(Color::Black)),
            (ids::AW, Some(Color::White)),
            (ids::AE, None),
        ]
        .into_iter()
        .flat_map(move |(id, content)| {
            node.props()
                .filter(move |p| p.id() == id)
                .flat_map(|p| p.raw_values().map(|(raw, _)| raw))
                .map(move |raw| (content, raw))
        })
    }

    /// The tree this node belongs to.
    pub fn tree(&self) -> &'t GameTree<'a> {
        self.tree
    }
}

/// A property of a node.
#[derive(Clone, Copy)]
pub struct Prop<'t, 'a> {
    tree: &'t GameTree<'a>,
    i: u32,
}

impl<'t, 'a> Prop<'t, 'a> {
    fn data(&self) -> &'t PropData {
        &self.tree.props[self.i as usize]
    }

    pub fn id(&self) -> PropId {
        self.data().id
    }

    /// The identifier as written, reduced to its upper-case letters and digits (`AddBlack` →
    /// `AB`, lizzieyzy's `LZ2` kept); empty when it has no upper-case letter.
    pub fn name(&self) -> String {
        let raw = self.raw_name();
        if !raw.iter().any(u8::is_ascii_uppercase) {
            return String::new();
        }
        raw.iter()
            .filter(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            .map(|&c| c as char)
            .collect()
    }

    /// The identifier exactly as written in the file.
    pub fn raw_name(&self) -> &'a [u8] {
        let src: &'a [u8] = self.tree.src;
        let start = self.offset();
        let len = src[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        &src[start..start + len]
    }

    /// Byte offset of the identifier in the file.
    pub fn offset(&self) -> usize {
        self.tree.span.start + self.data().name as usize
    }

    /// The value type the FF[4] property list gives this property.
    pub fn value_type(&self) -> ValueType {
        ValueType::of(self.id())
    }

    /// Number of bracketed values.
    pub fn len(&self) -> usize {
        self.tree.value_range(self.i as usize).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Raw bytes of each value (still escaped, original charset) with their offsets in the file.
    pub fn raw_values(&self) -> impl Iterator<Item = (&'a [u8], usize)> + 't {
        let tree = self.tree;
        tree.values[tree.value_range(self.i as usize)]
            .iter()
            .map(move |&v| (tree.value_bytes(v), tree.span.start + v.start as usize))
    }

    /// The first value's raw bytes.
    pub fn raw(&self) -> &'a [u8] {
        self.raw_values().next().map(|v| v.0).unwrap_or(&[])
    }

    /// The first value as text (decoded, unescaped; simple text has its newlines made spaces).
    pub fn text(&self) -> Cow<'t, str> {
        let simple = self.value_type() != ValueType::Text;
        self.tree.decode(self.raw(), simple)
    }

    /// Every value as text.
    pub fn texts(&self) -> Vec<Cow<'t, str>> {
        let simple = self.value_type() != ValueType::Text;
        self.raw_values()
            .map(|(raw, _)| self.tree.decode(raw, simple))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_move_is_a_node_of_one_move_property_and_nothing_else() {
        let src = b"(;GM[1]SZ[19];B[pd];W[dd]C[hi];B[];AB[aa];B[cc][dd];BL[10];W[qq];Black[dp])";
        let records = crate::Records::read(src);
        let tree = records.game(0).unwrap();
        let at = |s: &[u8]| src.windows(s.len()).position(|w| w == s).unwrap() + 2;
        let got: Vec<_> = tree
            .main_line()
            .map(|n| {
                n.lone_move().map(|(color, prop)| {
                    let (raw, at) = prop.raw_values().next().unwrap_or((&[], usize::MAX));
                    (color, raw, at)
                })
            })
            .collect();
        assert_eq!(
            got,
            [
                None,
                Some((Color::Black, &b"pd"[..], at(b"B[pd]"))),
                None,
                Some((Color::Black, &b""[..], at(b"B[]"))),
                None,
                Some((Color::Black, &b"cc"[..], at(b"B[cc]"))),
                None,
                Some((Color::White, &b"qq"[..], at(b"W[qq]"))),
                // A long (FF[3]) name is its upper-case letters.
                Some((Color::Black, &b"dp"[..], at(b"Black[dp]") + 4)),
            ]
        );
    }
}
