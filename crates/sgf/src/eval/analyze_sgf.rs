//! analyze-sgf's reviews: Sabaki's `SBKV` and, in each move's comment, the lead and visits.
//!
//! Written by analyze-sgf (github.com/9beach/analyze-sgf, commit
//! 7fb7932aa6d3905636be677805a41ff5e2f8f1e1, `src/node.js`, `setProperties` and
//! `getWinratesInfo`; the root's report in `src/game-report.js` starts `# Analyze-SGF Report`):
//! from KataGo's analysis engine's `rootInfo`, Black's side (`formatWinrate` and
//! `formatScoreLead` print `B` above 50% or above 0, else `W` and the complement), it writes
//! `SBKV[` Black's win rate in percent, two decimals `]` and a comment holding
//! `* Win rate: W 95.10%`, `* Score lead: W 19.82` and `* Visits: 2001`. `src/gametree.js`
//! gives node `t` the `rootInfo` of KataGo's turn `t + 1`: the position *after* the node's
//! move. The lead is read from the comment (the side letter giving its sign), since `SBKV` is
//! its only property; the win rate from `SBKV`, as Sabaki reads it.

use super::{number, sabaki, Line, Problems};
use crate::{ids, Evals};

/// How the root comment of a review starts.
pub(crate) const ROOT_MARK: &[u8] = b"# Analyze-SGF Report";

pub(crate) fn read(line: &Line<'_, '_>, problems: &mut Problems) -> Option<Evals> {
    let mut out = sabaki::read(line, problems)?;
    out.program = "analyze-sgf";
    let root = line.tree.root();
    if root
        .get(ids::C)
        .is_some_and(|c| memchr::memmem::find(c.raw(), b"Analyzed by KataGo").is_some())
    {
        out.engine = Some("KataGo".into());
    }
    for n in &line.nodes {
        let Some(eval) = out.positions[n.after].as_mut() else {
            continue;
        };
        let Some(c) = n.node.get(ids::C) else {
            continue;
        };
        let raw = c.raw();
        if let Some(rest) = after(raw, b"* Score lead: ") {
            let (side, value) = match rest {
                [b'B', b' ', v @ ..] => (1.0, v),
                [b'W', b' ', v @ ..] => (-1.0, v),
                _ => continue,
            };
            if let Some(l) = number(word(value)).filter(|l| l.abs() <= 10_000.0) {
                eval.lead = Some((side * l) as f32);
            }
        }
        if let Some(rest) = after(raw, b"* Visits: ") {
            eval.visits = std::str::from_utf8(word(rest))
                .ok()
                .and_then(|v| v.parse().ok());
        }
    }
    Some(out)
}

/// The bytes after the first `key`.
fn after<'r>(raw: &'r [u8], key: &[u8]) -> Option<&'r [u8]> {
    memchr::memmem::find(raw, key).map(|i| &raw[i + key.len()..])
}

/// The bytes up to the next white space.
fn word(raw: &[u8]) -> &[u8] {
    let end = raw
        .iter()
        .position(|c| c.is_ascii_whitespace())
        .unwrap_or(raw.len());
    &raw[..end]
}
