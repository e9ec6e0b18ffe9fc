//! Writers: SGF FF[4] in UTF-8, the Weiqi Text Format in gb18030, and the quadrant notation.
//!
//! SGF output keeps every node, property and variation (custom properties included) so that
//! parse → write → parse gives the same tree; only the charset changes (to UTF-8, with `CA[UTF-8]`
//! and `FF[4]` in the root) and FF[3] ids lose their lower-case letters. The tree is walked with an
//! explicit stack: a million-deep variation tree writes as well as it reads.

use std::fmt::Write as _;

use crate::info::{parse_date, parse_result, Winner};
use crate::prop::{ids, PropId, ValueType};
use crate::quadrant;
use crate::tree::{GameTree, Node};
use crate::value;
use crate::Color;

/// Why a record cannot be written in the asked format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error("the quadrant notation is defined for 19×19 boards only (this game is {0}×{1})")]
    QuadrantSize(u8, u8),
    #[error("the quadrant notation cannot record setup stones (AB/AW/AE in node {0})")]
    QuadrantSetup(usize),
    #[error("move {index}: {source}")]
    Quadrant {
        index: usize,
        source: quadrant::QuadrantError,
    },
    #[error("move {0}: malformed point value")]
    BadMove(usize),
}

/// Writes one game tree as FF[4] UTF-8 SGF.
///
/// Text is written as it reads, NUL bytes and other control characters included: a value may
/// hold any bytes in SGF's grammar, and dropping or replacing them would make write → read lose
/// text. Reading the output back never takes its NULs for UTF-16 (see
/// [`crate::charset::transcode_utf16`]).
pub fn to_sgf(tree: &GameTree<'_>) -> String {
    enum Step<'t, 'a> {
        Node(Node<'t, 'a>, bool),
        Close,
    }
    let mut out = String::with_capacity(tree.span().len() + 64);
    out.push('(');
    let mut stack = vec![Step::Node(tree.root(), false)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.push(')'),
            Step::Node(node, wrap) => {
                if wrap {
                    out.push('(');
                }
                out.push(';');
                write_props(&mut out, node, node.parent().is_none());
                let children: Vec<_> = node.children().collect();
                match children.len() {
                    0 => {}
                    1 => stack.push(Step::Node(children[0], false)),
                    _ => {
                        for c in children.into_iter().rev() {
                            stack.push(Step::Close);
                            stack.push(Step::Node(c, true));
                        }
                    }
                }
            }
        }
    }
    out.push_str(")\n");
    out
}

fn write_props(out: &mut String, node: Node<'_, '_>, root: bool) {
    let tree = node.tree();
    if root {
        out.push_str("FF[4]CA[UTF-8]");
        if node.get(ids::GM).is_none() {
            out.push_str("GM[1]");
        }
    }
    for p in node.props() {
        if root && (p.id() == ids::FF || p.id() == ids::CA) {
            continue;
        }
        let name = p.name();
        if name.is_empty() {
            // An identifier without an upper-case letter (`alive[…]` in a comment that lost its
            // bracket) names no property: written as found, it reads back as the same nameless
            // property, where upper-casing it would invent `ALIVE`.
            out.push_str(&String::from_utf8_lossy(p.raw_name()));
        } else {
            out.push_str(&name);
        }
        let composed = matches!(p.value_type(), ValueType::Compose(..) | ValueType::Size);
        for (raw, _) in p.raw_values() {
            // Text is unescaped and decoded, then escaped again for UTF-8 output: the bytes may
            // change (charset, soft line breaks) but the text read back is the same.
            out.push('[');
            match value::compose_with(raw, tree.escapes).filter(|_| composed) {
                Some((a, b)) => {
                    out.push_str(&value::escape(&tree.decode(a, false), true));
                    out.push(':');
                    out.push_str(&value::escape(&tree.decode(b, false), true));
                }
                None => out.push_str(&value::escape(&tree.decode(raw, false), false)),
            }
            out.push(']');
        }
    }
    // A line break after the root and every tenth node keeps lines readable.
    if root || node.id().0.is_multiple_of(10) {
        out.push('\n');
    }
}

/// Writes the main line of a game in the Weiqi Text Format, as gb18030 bytes.
///
/// WTF has no variations (only the main line is written) and no escapes: the reserved characters
/// `( ) ; [ ]` inside text become their full-width forms `（ ）；［ ］`, and so does `\` (`＼`),
/// which WTF does not reserve but whose presence makes a record SGF to every reader that has to
/// tell the two apart (qipu's included), where it would be taken for an escape. Results and dates are
/// written in WTF's own forms (黑中盘胜, `1985-8-27`); `SZ` is left out for 19×19.
pub fn to_wtf(tree: &GameTree<'_>) -> Vec<u8> {
    let mut out = String::from("(");
    for (i, node) in tree.main_line().enumerate() {
        out.push(';');
        for p in node.props() {
            let id = p.id();
            if i == 0 && (id == ids::CA || id == ids::FF || id == ids::GM) {
                continue;
            }
            if i == 0 && id == ids::SZ && p.raw().trim_ascii() == b"19" {
                continue;
            }
            let name = p.name();
            if name.is_empty() {
                continue;
            }
            out.push_str(&name);
            let texts = p.texts();
            for t in texts {
                let t = match id {
                    ids::RE => parse_result(&t).to_wtf(),
                    ids::DT => parse_date(&t).map_or_else(|| t.to_string(), |d| d.to_wtf()),
                    ids::B | ids::W if t.is_empty() => "tt".to_string(),
                    _ => t.to_string(),
                };
                out.push('[');
                for c in t.chars() {
                    out.push(match c {
                        '(' => '（',
                        ')' => '）',
                        ';' => '；',
                        '[' => '［',
                        ']' => '］',
                        '\\' => '＼',
                        c => c,
                    });
                }
                out.push(']');
            }
        }
        if i == 0 {
            out.push('\n');
        }
    }
    out.push_str(")\n");
    encoding_rs::GB18030.encode(&out).0.into_owned()
}

/// Writes the main line's moves in the quadrant notation (19×19 only, no setup, no passes).
pub fn to_quadrant(tree: &GameTree<'_>) -> Result<String, WriteError> {
    let (w, h) = tree.board_size();
    if (w, h) != (19, 19) {
        return Err(WriteError::QuadrantSize(w, h));
    }
    for (i, node) in tree.main_line().enumerate() {
        if [ids::AB, ids::AW, ids::AE]
            .iter()
            .any(|id| node.get(*id).is_some())
        {
            return Err(WriteError::QuadrantSetup(i));
        }
    }
    let moves = tree
        .main_line_moves()
        .map_err(|index| WriteError::BadMove(index + 1))?;
    let resigned = tree.root().get(ids::RE).and_then(|re| {
        let r = parse_result(&re.text());
        if r.how != Some(crate::info::WinKind::Resignation) {
            return None;
        }
        match r.winner {
            Winner::Black => Some(Color::White),
            Winner::White => Some(Color::Black),
            _ => None,
        }
    });
    let mut text = quadrant::write(&moves, resigned).map_err(|e| WriteError::Quadrant {
        index: match e {
            quadrant::QuadrantError::Pass { index } => index + 1,
            quadrant::QuadrantError::OffBoard { index, .. } => index + 1,
            _ => 0,
        },
        source: e,
    })?;
    text.push('\n');
    Ok(text)
}

impl GameTree<'_> {
    /// Board size from the root's `SZ` (columns, rows); 19×19 when absent or malformed.
    pub fn board_size(&self) -> (u8, u8) {
        self.root()
            .get(ids::SZ)
            .and_then(|p| value::size(p.raw()))
            .unwrap_or((19, 19))
    }

    /// The moves of the main line in order, passes as `None`. The colour is the property's. A
    /// malformed move value gives `Err(i)` with its 0-based move index.
    pub fn main_line_moves(&self) -> Result<Vec<(Color, Option<crate::Point>)>, usize> {
        let (w, h) = self.board_size();
        let mut moves = Vec::new();
        for node in self.main_line() {
            for (id, color) in [(ids::B, Color::Black), (ids::W, Color::White)] {
                if let Some(p) = node.get(id) {
                    let m = crate::Point::parse_move(p.raw(), w, h).map_err(|_| moves.len())?;
                    moves.push((color, m));
                }
            }
        }
        Ok(moves)
    }
}

/// Writes a property list as SGF text, for callers that build records (e.g. converters).
pub fn push_prop(out: &mut String, id: PropId, values: &[&str]) {
    if let Some(name) = id.letters() {
        out.push_str(&name);
        for v in values {
            let _ = write!(out, "[{}]", value::escape(v, false));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Records;

    fn first(bytes: &[u8]) -> (Records<'_>,) {
        (Records::read(bytes),)
    }

    #[test]
    fn sgf_round_trip_keeps_the_tree() {
        let src = "(;GM[1]FF[3]CA[ISO-8859-1]AddBlack[aa:bb]PB[Jos\u{e9}]C[a \\] b\\\nc]XX[custom]\
                   ;B[cc]LZ2[x 1](;W[dd];B[ee])(;W[ff]LB[dd:A\\:b]))";
        let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode(src);
        let (r,) = first(&latin1);
        let t = r.game(0).unwrap();
        let out = to_sgf(&t);
        assert!(
            out.starts_with("(;FF[4]CA[UTF-8]GM[1]AB[aa:bb]PB[José]"),
            "{out}"
        );
        let r2 = Records::read(out.as_bytes());
        let t2 = r2.game(0).unwrap();
        assert_eq!(t.node_count(), t2.node_count());
        for (a, b) in t.nodes().zip(t2.nodes()) {
            let pa: Vec<_> = a
                .props()
                .filter(|p| p.id() != ids::FF && p.id() != ids::CA)
                .map(|p| (p.name(), p.texts().concat()))
                .collect();
            let pb: Vec<_> = b
                .props()
                .filter(|p| p.id() != ids::FF && p.id() != ids::CA)
                .map(|p| (p.name(), p.texts().concat()))
                .collect();
            assert_eq!(pa, pb);
        }
        // lizzieyzy's second engine keeps its digit.
        assert!(out.contains(";B[cc]LZ2[x 1]"), "{out}");
        // Writing again gives the same bytes.
        assert_eq!(to_sgf(&t2), out);
    }

    #[test]
    fn deep_trees_write_without_recursion() {
        let n = 200_000;
        let mut s = String::new();
        for _ in 0..n {
            s.push_str("(;B[aa]");
        }
        s.push_str(&")".repeat(n));
        let r = Records::read(s.as_bytes());
        let out = to_sgf(&r.game(0).unwrap());
        assert_eq!(
            Records::read(out.as_bytes()).game(0).unwrap().node_count(),
            n
        );
    }

    #[test]
    fn wtf_output_is_gb18030_main_line() {
        let src = "(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[孙策]PW[吕范]DT[0200]RE[B+R]C[a [b\\]];B[pd](;W[dd])(;W[cc]))";
        let r = Records::read(src.as_bytes());
        let bytes = to_wtf(&r.game(0).unwrap());
        let text = encoding_rs::GB18030.decode(&bytes).0.into_owned();
        assert_eq!(
            text,
            "(;PB[孙策]PW[吕范]DT[200]RE[黑中盘胜]C[a ［b］]\n;B[pd];W[dd])\n"
        );
        let back = Records::read(&bytes);
        assert_eq!(back.format(), crate::Format::Wtf);
        let g = back.game(0).unwrap();
        assert_eq!(g.root().get(ids::PB).unwrap().text(), "孙策");
        assert_eq!(g.main_line().count(), 3);
    }

    #[test]
    fn quadrant_output() {
        let r = Records::read(b"(;SZ[19]RE[W+R];B[pd];W[qf];B[nc];W[rd];B[qc];W[qi])");
        let q = to_quadrant(&r.game(0).unwrap()).unwrap();
        assert_eq!(q, "01\u{ff1a}44\u{3001}36\u{ff0c}63\u{3001}24\u{ff0c}33\u{3001}39\u{ff0c}\u{3001}\u{3002}\n");
        let r = Records::read(b"(;SZ[9];B[cc])");
        assert_eq!(
            to_quadrant(&r.game(0).unwrap()),
            Err(WriteError::QuadrantSize(9, 9))
        );
        let r = Records::read(b"(;AB[pd];W[dd])");
        assert_eq!(
            to_quadrant(&r.game(0).unwrap()),
            Err(WriteError::QuadrantSetup(0))
        );
    }
}
