//! One game tree, as spans into the bytes it was read from.
//!
//! Nodes, properties and values live in three flat vectors (one allocation each per game, none per
//! value); a value is a byte span of the source, still escaped and in its original charset, decoded
//! only when someone asks for its text. Children are linked first-child / next-sibling so that no
//! walk over the tree needs recursion, however deep the input nests.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::charset::{self, Charset};
use crate::diag::Diagnostic;
use crate::prop::{ids, PropId, ValueType};
use crate::scan::Span;
use crate::value;

pub(crate) const NONE: u32 = u32::MAX;

/// How values are written: SGF escapes with `\`; the Weiqi Text Format has no escapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sgf,
    Wtf,
}

#[derive(Clone, Debug)]
pub(crate) struct NodeData {
    pub(crate) props: (u32, u32),
    pub(crate) parent: u32,
    pub(crate) first_child: u32,
    pub(crate) last_child: u32,
    pub(crate) next_sibling: u32,
    /// Offset of the node's `;` in the file.
    pub(crate) offset: usize,
}

#[derive(Clone, Debug)]
pub(crate) struct PropData {
    pub(crate) id: PropId,
    pub(crate) name: Span,
    pub(crate) values: (u32, u32),
}

/// A parsed game tree borrowing the bytes of its file.
#[derive(Debug)]
pub struct GameTree<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) span: Span,
    pub(crate) dialect: Dialect,
    pub(crate) nodes: Vec<NodeData>,
    pub(crate) props: Vec<PropData>,
    pub(crate) values: Vec<Span>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Charset of a whole file that was transcoded before parsing (UTF-16), if any.
    pub(crate) file_charset: Option<&'static encoding_rs::Encoding>,
    pub(crate) charset: OnceLock<(Charset, Vec<Diagnostic>)>,
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

    /// Structural problems met while parsing, then charset problems (once text was decoded).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = self.diagnostics.clone();
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
            let mut sample = Vec::new();
            for p in &self.props {
                if !ValueType::of(p.id).is_text() && p.id != ids::CA {
                    continue;
                }
                for v in &self.values[p.values.0 as usize..p.values.1 as usize] {
                    let bytes = &self.src[v.start..v.end];
                    if !bytes.is_ascii() {
                        sample.extend_from_slice(bytes);
                        sample.push(b'\n');
                    }
                }
            }
            charset::detect(
                declared,
                &sample,
                self.file_charset,
                self.dialect,
                self.span.start,
            )
        })
    }

    /// Decodes raw value bytes to text in this game's charset, escapes removed (SGF), soft line
    /// breaks removed, and for simple text newlines turned into spaces.
    pub fn decode<'r>(&self, raw: &'r [u8], simple: bool) -> Cow<'r, str> {
        let text = self.charset().decode(raw);
        let unescaped = match self.dialect {
            Dialect::Sgf => value::unescape(text),
            Dialect::Wtf => text,
        };
        if simple {
            value::simplify(unescaped)
        } else {
            unescaped
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
        self.data().offset
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
        let (a, b) = self.data().props;
        let tree = self.tree;
        (a..b).map(move |i| Prop { tree, i })
    }

    /// The first property with this id.
    pub fn get(&self, id: PropId) -> Option<Prop<'t, 'a>> {
        self.props().find(|p| p.id() == id)
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

    /// The identifier as written, reduced to its upper-case letters (`AddBlack` → `AB`).
    pub fn name(&self) -> String {
        let s = self.data().name;
        self.tree.src[s.start..s.end]
            .iter()
            .filter(|c| c.is_ascii_uppercase())
            .map(|&c| c as char)
            .collect()
    }

    /// The identifier exactly as written in the file.
    pub fn raw_name(&self) -> &'a [u8] {
        let s = self.data().name;
        &self.tree.src[s.start..s.end]
    }

    /// Byte offset of the identifier in the file.
    pub fn offset(&self) -> usize {
        self.data().name.start
    }

    /// The value type the FF[4] property list gives this property.
    pub fn value_type(&self) -> ValueType {
        ValueType::of(self.id())
    }

    /// Number of bracketed values.
    pub fn len(&self) -> usize {
        let (a, b) = self.data().values;
        (b - a) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Raw bytes of each value (still escaped, original charset) with their offsets in the file.
    pub fn raw_values(&self) -> impl Iterator<Item = (&'a [u8], usize)> + 't {
        let (a, b) = self.data().values;
        let tree = self.tree;
        let src: &'a [u8] = tree.src;
        tree.values[a as usize..b as usize]
            .iter()
            .map(move |s| (&src[s.start..s.end], s.start))
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
