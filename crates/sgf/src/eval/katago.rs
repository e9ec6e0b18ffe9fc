//! KataGo's self-play and rating games: the evaluation in each move's comment.
//!
//! Written by KataGo (github.com/lightvector/KataGo, commit
//! 6a1fc5de9fc253723ac475a0683bf0b9d9b7bd19, `cpp/dataio/sgf.cpp`, `WriteSgf::writeSgf` with
//! its `gameData`): the root comment starts `startTurnIdx=`, and the comment of the move at
//! turn `i` (from `startTurnIdx` on) is `WIN LOSS NORESULT SCORE v=VISITS [rv=VISITS]
//! weight=W [result=…]`, preceded by `Pass for ko` on such a pass: `whiteValueTargetsByTurn[i]`,
//! White's win, loss and no-result probabilities (two decimals) and White's expected score (one
//! decimal). These are the targets of the search run in the position where move `i` was
//! chosen: they evaluate the position *before* the node's move, not after it. `v=` is the
//! visits of that search; when the game was reanalysed (`rv=`), the targets come from the
//! reanalysis, whose visits `rv=` gives and which this reader takes.
//!
//! Before 2020 (commit 5db05eab, 2018) the comment was four integers, each times 10000:
//! `WIN LOSS NORESULT SCOREVALUE`, the last a utility rather than points, so those give no
//! lead; that form is read only in games whose root comment says `startTurnIdx=`.
//!
//! Black's win probability is White's loss plus half the no-result probability (a no-result
//! is worth half a win to each).

use super::{Line, Problems};
use crate::{ids, Eval, Evals};

/// How KataGo's root comment starts.
pub(crate) const ROOT_MARK: &[u8] = b"startTurnIdx=";

/// Whether a comment holds KataGo's evaluation in its current (decimal, `v=`) form.
pub(crate) fn has_float_form(raw: &[u8]) -> bool {
    !raw.is_empty() && raw.len() < 512 && parse(raw, false).is_some()
}

pub(crate) fn read(line: &Line<'_, '_>, _problems: &mut Problems) -> Option<Evals> {
    let old_form = line
        .tree
        .root()
        .get(ids::C)
        .is_some_and(|c| c.raw().starts_with(ROOT_MARK));
    let mut out = line.blank("KataGo");
    for n in &line.nodes {
        if n.moved.is_none() {
            continue;
        }
        let Some(c) = n.node.get(ids::C) else {
            continue;
        };
        // KataGo's comments are short; a long one is someone else's.
        let raw = c.raw();
        if raw.len() > 512 {
            continue;
        }
        if let Some(eval) = parse(raw, old_form) {
            out.positions[n.before] = Some(eval);
        }
    }
    Some(out)
}

/// The evaluation in a comment, in either form (the integer one when `old_form`).
fn parse(raw: &[u8], old_form: bool) -> Option<Eval> {
    let words: Vec<&[u8]> = raw
        .split(|c| c.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    // The numbers come first, or after "Pass for ko".
    let start = words
        .iter()
        .position(|w| w.first().is_some_and(|c| c.is_ascii_digit()))?;
    let w = &words[start..];
    if w.len() < 4 {
        return None;
    }
    let tail = &w[4..];
    let tagged = |key: &[u8]| {
        tail.iter()
            .find_map(|t| t.strip_prefix(key))
            .and_then(|v| std::str::from_utf8(v).ok()?.parse::<u32>().ok())
    };
    if w[..3].iter().all(|x| x.contains(&b'.')) {
        let p: Vec<f64> = w[..3]
            .iter()
            .map(|x| super::number(x))
            .collect::<Option<_>>()?;
        let score = super::number(w[3])?;
        let visits = tagged(b"rv=").or(tagged(b"v="));
        let sum = p[0] + p[1] + p[2];
        if visits.is_none() && !old_form
            || p.iter().any(|x| !(0.0..=1.0).contains(x))
            || (sum - 1.0).abs() > 0.02
            || score.abs() > 10_000.0
        {
            return None;
        }
        return Some(Eval {
            // Rounded to two decimals, the three may sum to a little over 1.
            win: (p[1] + p[2] / 2.0).min(1.0) as f32,
            lead: Some(-score as f32),
            visits,
        });
    }
    if !old_form
        || !w[..4]
            .iter()
            .all(|x| x.iter().all(|c| c.is_ascii_digit() || *c == b'-'))
    {
        return None;
    }
    let p: Vec<f64> = w[..3]
        .iter()
        .map(|x| super::number(x))
        .collect::<Option<_>>()?;
    let sum = p[0] + p[1] + p[2];
    if p.iter().any(|x| !(0.0..=10_000.0).contains(x)) || (sum - 10_000.0).abs() > 3.0 {
        return None;
    }
    Some(Eval {
        win: ((p[1] + p[2] / 2.0) / 10_000.0).min(1.0) as f32,
        lead: None,
        visits: None,
    })
}
