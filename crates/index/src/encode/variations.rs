//! Variation lines: every root-to-leaf path of a record's game tree other than its main line,
//! indexed (with `qipu index --variations`) as lines of their own, each marked as a variation
//! of the game it belongs to.
//!
//! A variation line is stored as a game is — replay program, occupancy, vacated points,
//! position and corner tables — so that every search finds it the way it finds a game; it has
//! no metadata document (it answers to its game's information), no record of its own (its
//! game's), no signatures (it is never a copy, nor copied), winner 0 and its game's facts.
//! Its id comes right after its game's and its siblings', so the lines of game `g` are the ids
//! `g + 1 ..` that name `g` as their game.
//!
//! **Positions are not counted twice.** A line shares with the line it branched from every
//! position up to its branch point: the position after the moves of the nodes from the root to
//! the deepest node where it leaves the first child. It answers only from there on
//! ([`Variation::from`]): the position table and corner table hold its entries from that
//! position, and searches drop its hits before it. The branch position itself is the line's
//! too, since its next move is another one.
//!
//! **The path** is the list of choices that are not the first child, each as (node depth,
//! child index): at the node that many nodes below the root (the root is 0), the child of that
//! index (0 the first, which is the main line's). Written `12:1,15:2`; a line whose only choice
//! is the second child of the root's child is `1:1`.
//!
//! **Bounds.** A tree's lines are found without recursion, in one walk over the nodes in
//! document order that keeps the path from the root ([`plan`]: each node visited once, however
//! wide or deep the tree), and at most [`Limits::lines`] lines and
//! [`Limits::nodes`] nodes over all lines are indexed per record; what is left is counted and
//! reported, never dropped silently.

use sgf::{GameTree, Node};

use crate::store::leb::{push_leb, read_leb};

/// How a variation line of a game is reached, and where it starts to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The game (its main line's id) the line is a variation of.
    pub game: u32,
    /// The line answers at positions `k >= from`: the moves before its branch point are its
    /// parent line's.
    pub from: u32,
    /// The choices that are not a first child: (node depth, child index), by depth.
    pub path: Vec<(u32, u32)>,
}

impl Variation {
    /// The path as text: `depth:child` choices joined by commas (`12:1,15:2`).
    pub fn path_text(&self) -> String {
        path_text(&self.path)
    }
}

/// `depth:child` choices joined by commas.
pub fn path_text(path: &[(u32, u32)]) -> String {
    path.iter()
        .map(|(d, c)| format!("{d}:{c}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads a path as [`path_text`] writes it; `None` when it is not one.
pub fn parse_path(text: &str) -> Option<Vec<(u32, u32)>> {
    let text = text.trim();
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(',')
        .map(|choice| {
            let (d, c) = choice.trim().split_once(':')?;
            Some((d.trim().parse().ok()?, c.trim().parse().ok()?))
        })
        .collect()
}

/// Bounds on the variation lines indexed per record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Lines per record at most (the main line not counted).
    pub lines: usize,
    /// Nodes over all its lines at most: a line costs its whole length from the root.
    pub nodes: usize,
}

impl Default for Limits {
    /// Kogo's joseki dictionary, the largest tree of the shared datasets, has 7,720 variation
    /// lines over 159,202 nodes (each line counted from the root): these bounds take it whole,
    /// at about 25 and 12 times that, and hold any one record to a few tens of megabytes of
    /// replay programs (2 bytes a node) while it is analysed.
    fn default() -> Self {
        Limits {
            lines: 200_000,
            nodes: 2_000_000,
        }
    }
}

/// One variation line of a tree: its nodes from the root, the choices that are not a first
/// child, and the number of moves before its branch point.
pub struct LinePlan<'t, 'a> {
    pub nodes: Vec<Node<'t, 'a>>,
    pub path: Vec<(u32, u32)>,
    pub from: u32,
}

/// The variation lines of `tree` within `limits`, in document order of their leaves, and how
/// many lines were left out.
pub fn plan<'t, 'a>(tree: &'t GameTree<'a>, limits: Limits) -> (Vec<LinePlan<'t, 'a>>, u64) {
    plan_counted(tree, limits, &mut 0)
}

/// One node of the path from the root to the node being visited, in [`plan_counted`]'s walk.
struct Step<'t, 'a> {
    node: Node<'t, 'a>,
    /// Children of this node visited so far: the index the next one has among its siblings.
    children: u32,
    /// Moves of the nodes from the root down to this one, this one included.
    moves: u32,
}

/// [`plan`], adding to `steps` one for each node visited and each node of a line copied out: the
/// work done, which tests bound by the tree's size plus the lines' (no node is visited once per
/// sibling, as finding a child's index by scanning its siblings would).
///
/// The nodes are in document (pre-)order, so the walk keeps the path from the root to the node
/// it is at, as a stack: a node's parent is on it, each node's index among its siblings is how
/// many of them came before it, and at a leaf the stack is the leaf's whole line. Each node is
/// pushed and popped once, whatever the tree's width or depth.
pub(crate) fn plan_counted<'t, 'a>(
    tree: &'t GameTree<'a>,
    limits: Limits,
    steps: &mut u64,
) -> (Vec<LinePlan<'t, 'a>>, u64) {
    let mut lines = Vec::new();
    let mut nodes_used = 0usize;
    let mut left = 0u64;
    let mut stack: Vec<Step<'t, 'a>> = Vec::new();
    // The choices that are not a first child along the stack, as (depth of the parent, index).
    let mut path: Vec<(u32, u32)> = Vec::new();
    for node in tree.nodes() {
        *steps += 1;
        let parent = node.parent().map(|p| p.id());
        while stack.last().is_some_and(|s| Some(s.node.id()) != parent) {
            stack.pop();
            let depth = stack.len() as u32;
            // A choice made at the node just left's parent goes with it.
            if path.last().is_some_and(|&(d, _)| d + 1 == depth) {
                path.pop();
            }
        }
        let moves = stack
            .last()
            .map_or(0, |s| s.moves)
            .saturating_add(moves_in(&node));
        if let Some(top) = stack.last_mut() {
            let child = top.children;
            top.children += 1;
            if child > 0 {
                path.push((stack.len() as u32 - 1, child));
            }
        }
        stack.push(Step {
            node,
            children: 0,
            moves,
        });
        // A leaf ends a line; the one reached by first children only is the main line.
        if node.first_child().is_some() || path.is_empty() {
            continue;
        }
        if lines.len() >= limits.lines || nodes_used + stack.len() > limits.nodes {
            left += 1;
            continue;
        }
        nodes_used += stack.len();
        *steps += stack.len() as u64;
        // The moves of the nodes down to the deepest choice (its node included).
        let branch_depth = path.last().map_or(0, |&(d, _)| d as usize);
        lines.push(LinePlan {
            nodes: stack.iter().map(|s| s.node).collect(),
            path: path.clone(),
            from: stack[branch_depth].moves,
        });
    }
    (lines, left)
}

/// Moves a node holds (a `B` and a `W` in one node are two), as the replay program counts them.
fn moves_in(node: &Node<'_, '_>) -> u32 {
    let (mut b, mut w) = (false, false);
    for prop in node.props() {
        let id = prop.id();
        b |= id == sgf::ids::B;
        w |= id == sgf::ids::W;
    }
    u32::from(b) + u32::from(w)
}

/// Appends one line's entry of `variations.bin`: the line's number within the segment, how far
/// before it its game is, `from`, the number of choices, then each choice's depth and child,
/// all LEB128.
pub(crate) fn encode(line: u32, v: &Variation, first_game: u32, out: &mut Vec<u8>) {
    let id = first_game + line;
    push_leb(line, out);
    push_leb(id.saturating_sub(v.game), out);
    push_leb(v.from, out);
    push_leb(v.path.len() as u32, out);
    for &(d, c) in &v.path {
        push_leb(d, out);
        push_leb(c, out);
    }
}

/// The entries of a segment's `variations.bin`, as (line id, variation); `None` when the bytes
/// are not such a list.
pub(crate) fn decode(bytes: &[u8], first_game: u32) -> Option<Vec<(u32, Variation)>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let line = read_leb(bytes, &mut at)?;
        let id = first_game.checked_add(line)?;
        let game = id.checked_sub(read_leb(bytes, &mut at)?)?;
        let from = read_leb(bytes, &mut at)?;
        let n = read_leb(bytes, &mut at)? as usize;
        // Each choice takes at least two bytes: a count past them is damage.
        if n > (bytes.len() - at) / 2 {
            return None;
        }
        let mut path = Vec::with_capacity(n);
        for _ in 0..n {
            path.push((read_leb(bytes, &mut at)?, read_leb(bytes, &mut at)?));
        }
        out.push((id, Variation { game, from, path }));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_paths_and_branch_points() {
        // Main line B[aa] W[bb] B[cc]; at the root's child (depth 1, after move 1) a second
        // child W[dd] with two children of its own; at depth 2 a second child B[ee].
        let text = b"(;SZ[19];B[aa](;W[bb](;B[cc])(;B[ee]))(;W[dd](;B[ff])(;B[gg];W[hh])))";
        let records = sgf::Records::read(text);
        let tree = records.game(0).unwrap();
        let (lines, left) = plan(&tree, Limits::default());
        assert_eq!(left, 0);
        let got: Vec<(String, u32, usize)> = lines
            .iter()
            .map(|l| (path_text(&l.path), l.from, l.nodes.len()))
            .collect();
        assert_eq!(
            got,
            [
                ("2:1".to_string(), 2, 4),
                ("1:1".to_string(), 1, 4),
                ("1:1,2:1".to_string(), 2, 5)
            ]
        );
        let (lines, left) = plan(
            &tree,
            Limits {
                lines: 2,
                nodes: 100,
            },
        );
        assert_eq!((lines.len(), left), (2, 1));
        let (lines, left) = plan(&tree, Limits { lines: 9, nodes: 8 });
        assert_eq!((lines.len(), left), (2, 1));
        assert_eq!(parse_path("1:1, 2:1"), Some(vec![(1, 1), (2, 1)]));
        assert_eq!(parse_path("1-1"), None);
    }

    /// A line as the tests compare them: its nodes, path and branch point.
    type Line = (Vec<sgf::NodeId>, Vec<(u32, u32)>, u32);

    /// The lines as the parent links give them, one leaf at a time: what [`plan`] must agree
    /// with, however it finds them.
    fn by_parent_links(tree: &GameTree<'_>) -> Vec<Line> {
        let main_leaf = tree.main_line().last().map(|n| n.id());
        let mut out = Vec::new();
        for leaf in tree.nodes().filter(|n| n.first_child().is_none()) {
            if Some(leaf.id()) == main_leaf {
                continue;
            }
            let mut line = vec![leaf];
            while let Some(p) = line.last().unwrap().parent() {
                line.push(p);
            }
            line.reverse();
            let mut path = Vec::new();
            for (depth, pair) in line.windows(2).enumerate() {
                let child = pair[0].children().position(|c| c.id() == pair[1].id());
                if let Some(c @ 1..) = child {
                    path.push((depth as u32, c as u32));
                }
            }
            let branch = path.last().map_or(0, |&(d, _)| d as usize);
            let from = line[..=branch].iter().map(moves_in).sum();
            out.push((line.iter().map(|n| n.id()).collect(), path, from));
        }
        out
    }

    fn planned(tree: &GameTree<'_>, steps: &mut u64) -> Vec<Line> {
        let (lines, left) = plan_counted(tree, Limits::default(), steps);
        assert_eq!(left, 0);
        lines
            .into_iter()
            .map(|l| (l.nodes.iter().map(|n| n.id()).collect(), l.path, l.from))
            .collect()
    }

    #[test]
    fn lines_are_those_the_parent_links_give() {
        let texts: [&[u8]; 4] = [
            b"(;SZ[19];B[aa](;W[bb](;B[cc])(;B[ee]))(;W[dd](;B[ff])(;B[gg];W[hh])))",
            b"(;SZ[19]AB[dd](;B[aa];W[bb])(;B[cc]W[ee](;B[ff])(;;W[gg](;B[hh])(;B[ii]))(;W[jj]))(;C[x]))",
            b"(;SZ[9](;B[aa](;W[ab](;B[ac](;W[ad])(;W[ae]))(;B[af]))(;W[ag]))(;B[ah]))",
            b"(;SZ[19];B[aa];W[bb];B[cc])",
        ];
        for text in texts {
            let records = sgf::Records::read(text);
            let tree = records.game(0).unwrap();
            assert_eq!(planned(&tree, &mut 0), by_parent_links(&tree));
        }
    }

    /// One root with many sibling variations (and a few of them with siblings again): each node
    /// is visited once and each line's nodes copied once, however many siblings a node has.
    /// Finding a child's index by scanning its siblings made this quadratic in their number.
    #[test]
    fn each_node_is_visited_a_bounded_number_of_times() {
        let n = 3_000;
        let mut text = String::from("(;GM[1]SZ[19]");
        for i in 0..n {
            let (x, y) = (
                (b'a' + (i % 19) as u8) as char,
                (b'a' + (i / 19 % 19) as u8) as char,
            );
            if i % 100 == 0 {
                text.push_str(&format!("(;B[{x}{y}](;W[aa])(;W[bb])(;W[cc]))"));
            } else {
                text.push_str(&format!("(;B[{x}{y}])"));
            }
        }
        text.push(')');
        let records = sgf::Records::read(text.as_bytes());
        let tree = records.game(0).unwrap();
        let mut steps = 0;
        let lines = planned(&tree, &mut steps);
        assert_eq!(lines, by_parent_links(&tree));
        let line_nodes: usize = lines.iter().map(|l| l.0.len()).sum();
        assert_eq!(lines.len(), n - 1 + 2 * (n / 100));
        assert!(
            steps <= (tree.node_count() + line_nodes) as u64,
            "{steps} steps for {} nodes and {line_nodes} nodes of lines",
            tree.node_count()
        );
    }

    #[test]
    fn entries_read_back() {
        let v = [
            Variation {
                game: 100,
                from: 3,
                path: vec![(2, 1)],
            },
            Variation {
                game: 100,
                from: 40,
                path: vec![(2, 1), (300, 7)],
            },
        ];
        let mut bytes = Vec::new();
        encode(1, &v[0], 100, &mut bytes);
        encode(2, &v[1], 100, &mut bytes);
        let back = decode(&bytes, 100).unwrap();
        assert_eq!(back, [(101, v[0].clone()), (102, v[1].clone())]);
        assert!(decode(&bytes[..bytes.len() - 1], 100).is_none());
    }
}
