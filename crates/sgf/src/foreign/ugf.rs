//! Pandanet's UGF (a game) and UGI (a reviewed game): INI-like sections `[Header]`, `[Data]` and,
//! in reviews, `[ReviewNode]` (the game tree with variations) and `[ReviewComment]`.
//!
//! Decisions, pinned to the real files in `crates/sgf/tests/foreign.rs`:
//! - `[Data]` lines are `XY,C,N,T`: column letter (`A` = left, none skipped), row letter, colour
//!   with a digit (`B1`), move number (0: a setup stone), time. With `CoordinateType=IGS` the row
//!   counts from the bottom (`QP` is `qd`), otherwise from the top. An off-board pair (`YA`) is a
//!   pass.
//! - `[ReviewNode]` lines are `NODE,id,colour,x,y` with 1-based coordinates, the row from the
//!   bottom under IGS coordinates; `VARIATION,` … `VARIATIONEND,` wrap an alternative to the node
//!   after the one before it (the block after Black's node 54 starts with White's node 225: an
//!   alternative to node 55), and nest. When the section is there it is the game tree (the main
//!   line equals `[Data]`'s moves, and the variations and comments hang on it); a node of colour 0
//!   past the root ends the tree.
//! - `.Comment,N` in `[ReviewComment]` holds the comment of node N (1 is the root), up to the next
//!   `.` line.
//! - `Hdcp=handicap,komi`: the komi is kept as written, sign included, though one real file has
//!   `0,-5.50` beside `Winner=B,7.50`: a reader cannot know which of the two is wrong.
//! - `Winner=B,7.50` → `B+7.5`; a margin `C` (chuuban, resignation) → `B+R`; `T` → on time.
//! - `Lang` names the charset (`SJIS`): the text is read in it when it fits (see [`super::text`]).

use super::text::{hint, Declared, Decoder};
use super::{lines, problem, trim_ascii, Converted, Foreign, GameWriter};
use crate::point::{Color, Point};

/// Converts a UGF or UGI file to SGF.
pub(crate) fn convert(bytes: &[u8]) -> Converted {
    let lang = lines(bytes).enumerate().find_map(|(i, (offset, l))| {
        let v = trim_ascii(l).strip_prefix(b"Lang=")?;
        Some((i + 1, offset, String::from_utf8_lossy(v).trim().to_string()))
    });
    let text = Decoder::for_file(
        bytes,
        lang.as_ref().and_then(|l| hint(&l.2)).map(Declared::ByFile),
    );
    let mut out = Converted {
        sgf: String::new(),
        charset: text.charset(),
        diagnostics: Vec::new(),
    };
    if let Some((line, offset, label)) = &lang {
        if let Some(why) = text.unfit(&format!("`Lang={label}`")) {
            out.diagnostics
                .push(problem(Foreign::Ugf, *offset, *line, why));
        }
    }
    let mut header: Vec<(String, String)> = Vec::new();
    let mut data: Vec<(usize, usize, String)> = Vec::new();
    let mut review: Vec<(usize, usize, String)> = Vec::new();
    let mut comments: Vec<(usize, String)> = Vec::new();
    let mut section = String::new();
    for (i, (offset, raw)) in lines(bytes).enumerate() {
        let line = text.decode(trim_ascii(raw)).into_owned();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') && line.ends_with(']') {
            section = line[1..line.len() - 1].to_ascii_lowercase();
            continue;
        }
        match section.as_str() {
            "header" => match line.split_once('=') {
                Some((k, v)) => header.push((k.trim().to_string(), v.trim().to_string())),
                None => out.diagnostics.push(problem(
                    Foreign::Ugf,
                    offset,
                    i + 1,
                    "header line is not `Key=value`, skipped".into(),
                )),
            },
            "data" => data.push((offset, i + 1, line)),
            "reviewnode" => review.push((offset, i + 1, line)),
            "reviewcomment" => {
                if let Some(n) = line.strip_prefix(".Comment,") {
                    comments.push((n.trim().parse().unwrap_or(0), String::new()));
                } else if let Some((_, c)) = comments.last_mut() {
                    if !c.is_empty() {
                        c.push('\n');
                    }
                    c.push_str(line.trim());
                }
            }
            _ => out.diagnostics.push(problem(
                Foreign::Ugf,
                offset,
                i + 1,
                format!("line outside the known sections (in `[{section}]`), skipped"),
            )),
        }
    }
    let get = |key: &str| {
        header
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    };
    let size = get("Size")
        .parse::<u8>()
        .ok()
        .filter(|s| (2..=52).contains(s));
    if size.is_none() {
        out.diagnostics.push(problem(
            Foreign::Ugf,
            0,
            0,
            "no board size (`Size=`) in the header: 19×19 assumed".into(),
        ));
    }
    let size = size.unwrap_or(19);
    let from_bottom = get("CoordinateType").eq_ignore_ascii_case("IGS");
    let mut w = GameWriter::new(size);
    for (key, name_id, rank_id) in [("PlayerB", "PB", "BR"), ("PlayerW", "PW", "WR")] {
        let mut parts = get(key).split(',');
        w.text(name_id, parts.next().unwrap_or(""));
        w.text(rank_id, parts.next().unwrap_or(""));
    }
    let date: Vec<&str> = get("Date").split(',').collect();
    if let Some(dt) = date.first().and_then(|d| ymd(d)) {
        w.text("DT", &dt);
    }
    let mut hdcp = get("Hdcp").split(',');
    let handicap = hdcp
        .next()
        .and_then(|h| h.trim().parse::<u8>().ok())
        .unwrap_or(0);
    w.text("KM", hdcp.next().unwrap_or(""));
    if let Some(re) = winner(get("Winner")) {
        w.text("RE", &re);
    }
    w.text("PC", get("Place"));
    w.text("EV", get("Title").trim_matches(','));
    w.text("RU", rules(get("Rule")));
    w.text("CP", get("Copyright"));

    let root_comment = comments
        .iter()
        .filter(|(n, _)| *n == 1)
        .map(|(_, c)| c.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    // Setup stones (move number 0) and the main line from `[Data]`.
    let mut setup: Vec<(Color, Point)> = Vec::new();
    let mut moves: Vec<(Color, Option<Point>)> = Vec::new();
    for (offset, line_no, line) in &data {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = (|| {
            let xy = f.first()?.as_bytes();
            let color = match f.get(1)?.as_bytes().first()? {
                b'B' => Color::Black,
                b'W' => Color::White,
                _ => return None,
            };
            let number: u32 = f.get(2)?.parse().ok()?;
            if xy.len() != 2 {
                return None;
            }
            let coord = |c: u8| c.checked_sub(b'A').filter(|&v| v < size);
            let point = match (coord(xy[0]), coord(xy[1])) {
                (Some(x), Some(y)) => {
                    Some(Point::new(x, if from_bottom { size - 1 - y } else { y }))
                }
                _ => None,
            };
            Some((color, number, point))
        })();
        match parsed {
            Some((color, 0, Some(p))) => setup.push((color, p)),
            Some((color, _, point)) => moves.push((color, point)),
            None => out.diagnostics.push(problem(
                Foreign::Ugf,
                *offset,
                *line_no,
                "data line is not `XY,B1,N,T`, skipped".into(),
            )),
        }
    }
    if handicap >= 2 {
        w.text("HA", &handicap.to_string());
        if setup.is_empty() {
            // Stones not listed: the usual layout.
            w.handicap_stones(handicap);
        }
    }
    for color in [Color::Black, Color::White] {
        let pts: Vec<String> = setup
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|(_, p)| p.sgf_string())
            .collect();
        w.points(if color == Color::Black { "AB" } else { "AW" }, &pts);
    }
    if !root_comment.is_empty() {
        w.comment(&root_comment);
    }
    if review.is_empty() {
        for (color, point) in moves {
            w.play(color, point);
        }
    } else {
        let tree = review_tree(&review, size, from_bottom, &comments, &mut out.diagnostics);
        w.raw_moves(&tree.sgf, tree.moves);
    }
    if text.lossy {
        out.diagnostics.push(super::undecoded(Foreign::Ugf));
    }
    w.finish_into(&mut out.sgf);
    out
}

/// `2019/03/08` → `2019-03-08`.
fn ymd(d: &str) -> Option<String> {
    let mut p = d.split(['/', '-']).map(|s| s.trim().parse::<u32>());
    let (y, m, dd) = (p.next()?.ok()?, p.next()?.ok()?, p.next()?.ok()?);
    ((1000..=9999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&dd))
        .then(|| format!("{y:04}-{m:02}-{dd:02}"))
}

fn winner(v: &str) -> Option<String> {
    let (who, how) = v.split_once(',').unwrap_or((v, ""));
    let who = match who.trim() {
        "B" => 'B',
        "W" => 'W',
        _ => return None,
    };
    let how = how.trim();
    let how = match how {
        "C" | "R" => "R".to_string(),
        "T" => "T".to_string(),
        "F" => "F".to_string(),
        m => match m.parse::<f64>() {
            Ok(x) => format!("{x}"),
            Err(_) => String::new(),
        },
    };
    Some(format!("{who}+{how}"))
}

fn rules(v: &str) -> &str {
    match v.trim() {
        "JPN" => "Japanese",
        "CHN" => "Chinese",
        "KOR" => "Korean",
        other => other,
    }
}

struct Tree {
    sgf: String,
    moves: usize,
}

struct RNode {
    color: Option<Color>,
    point: Option<Point>,
    id: u32,
    /// How many `VARIATION` blocks enclose the node: the child at its parent's depth is the one
    /// that continues the parent's line, and goes first.
    depth: usize,
    children: Vec<usize>,
}

/// The `[ReviewNode]` lines as SGF nodes (the root's own node excluded), built and written
/// without recursion.
fn review_tree(
    lines: &[(usize, usize, String)],
    size: u8,
    from_bottom: bool,
    comments: &[(usize, String)],
    diags: &mut Vec<crate::Diagnostic>,
) -> Tree {
    let mut nodes = vec![RNode {
        color: None,
        point: None,
        id: 1,
        depth: 0,
        children: Vec::new(),
    }];
    let mut cur = 0usize;
    let mut stack: Vec<usize> = Vec::new();
    let mut ended = false;
    for (offset, line_no, line) in lines {
        let diag = |reason: &str| problem(Foreign::Ugf, *offset, *line_no, reason.into());
        let f: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        match f[0] {
            "VARIATION" => stack.push(cur),
            "VARIATIONEND" => match stack.pop() {
                Some(c) => cur = c,
                None => diags.push(diag("`VARIATIONEND` without its `VARIATION`, skipped")),
            },
            "NODE" => {
                let n = |i: usize| f.get(i).and_then(|v| v.parse::<u32>().ok());
                let (Some(id), Some(c), Some(x), Some(y)) = (n(1), n(2), n(3), n(4)) else {
                    diags.push(diag("`NODE` line is not `NODE,id,colour,x,y`, skipped"));
                    continue;
                };
                if id == 1 {
                    continue; // the root
                }
                let color = match c {
                    1 => Color::Black,
                    2 => Color::White,
                    _ => {
                        if stack.is_empty() {
                            ended = true;
                        }
                        continue;
                    }
                };
                if ended && stack.is_empty() {
                    diags.push(diag("node after the end of the game tree, skipped"));
                    continue;
                }
                let on = |v: u32| (1..=u32::from(size)).contains(&v);
                let point = (on(x) && on(y)).then(|| {
                    let (x, y) = (x as u8 - 1, y as u8 - 1);
                    Point::new(x, if from_bottom { size - 1 - y } else { y })
                });
                nodes.push(RNode {
                    color: Some(color),
                    point,
                    id,
                    depth: stack.len(),
                    children: Vec::new(),
                });
                let new = nodes.len() - 1;
                nodes[cur].children.push(new);
                cur = new;
            }
            _ => diags.push(diag("unknown review line, skipped")),
        }
    }
    if !stack.is_empty() {
        diags.push(problem(
            Foreign::Ugf,
            0,
            0,
            "a `VARIATION` is not closed: the file may be truncated".into(),
        ));
    }
    for i in 0..nodes.len() {
        let depth = nodes[i].depth;
        let mut ch = std::mem::take(&mut nodes[i].children);
        ch.sort_by_key(|&c| nodes[c].depth != depth);
        nodes[i].children = ch;
    }
    // Each node's comments, gathered once: looking them up node by node would cost nodes ×
    // comments on a crafted file.
    let mut by_node: std::collections::HashMap<usize, String> = std::collections::HashMap::new();
    for (n, c) in comments {
        let e = by_node.entry(*n).or_default();
        if !e.is_empty() {
            e.push('\n');
        }
        e.push_str(c);
    }
    let comment = |id: u32| by_node.get(&(id as usize)).cloned().unwrap_or_default();
    enum Step {
        Open,
        Close,
        Node(usize),
    }
    let mut sgf = String::new();
    let mut moves = 0;
    let mut steps: Vec<Step> = Vec::new();
    let push_children = |steps: &mut Vec<Step>, ch: &[usize]| {
        if ch.len() == 1 {
            steps.push(Step::Node(ch[0]));
        } else {
            for &c in ch.iter().rev() {
                steps.push(Step::Close);
                steps.push(Step::Node(c));
                steps.push(Step::Open);
            }
        }
    };
    push_children(&mut steps, &nodes[0].children);
    while let Some(step) = steps.pop() {
        match step {
            Step::Open => sgf.push('('),
            Step::Close => sgf.push(')'),
            Step::Node(i) => {
                let n = &nodes[i];
                let color = n.color.unwrap_or(Color::Black);
                sgf.push(';');
                sgf.push(color.letter());
                sgf.push('[');
                if let Some(p) = n.point {
                    sgf.push_str(&p.sgf_string());
                }
                sgf.push(']');
                let c = comment(n.id);
                if !c.is_empty() {
                    sgf.push_str("C[");
                    sgf.push_str(&crate::value::escape(&c, false));
                    sgf.push(']');
                }
                moves += 1;
                push_children(&mut steps, &n.children);
            }
        }
    }
    Tree { sgf, moves }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variations_hang_on_the_node_before_them_and_nest() {
        let file = "[Header]\nSize=9\nCoordinateType=IGS\n[Data]\nAI,B1,1,0\n[ReviewNode]\n\
                    NODE,1,0,0,0\nNODE,2,1,1,9\nNODE,3,2,2,9\n  VARIATION,\n    NODE,4,2,3,9\n\
                    \x20     VARIATION,\n      NODE,6,1,5,5\n      VARIATIONEND,\n    NODE,5,1,4,9\n\
                    \x20 VARIATIONEND,\nNODE,7,1,9,1\nNODE,8,0,0,0\n[ReviewComment]\n.Comment,4\n hi\n";
        let c = convert(file.as_bytes());
        assert!(
            c.sgf
                .contains(";B[aa];W[ba](;B[ii])(;W[ca]C[hi](;B[da])(;B[ee])))"),
            "{}",
            c.sgf
        );
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(winner("B,7.50").as_deref(), Some("B+7.5"));
        assert_eq!(winner("W,C").as_deref(), Some("W+R"));
        assert_eq!(winner("?"), None);
    }
}
