//! q5Go's `QKGV` (KataGo) and `QLZV` (Leela Zero).
//!
//! Written by q5Go (github.com/bernds/q5Go, commit e5a003daabae58e18a1705757be25a7a086a591b,
//! `src/sgf2board.cc`, `game_state::append_to_sgf`): on a node its engine analysed, one value
//! per analysis (an engine and komi), `VISITS:WINRATE[:SCOREMEAN:SCORESTDEV][:KOMI[:ENGINE]]`
//! (or `::ENGINE` without a komi), `QKGV` when one of them has a score, else `QLZV`. `WINRATE`
//! is `std::to_string` of a probability (`0.004138`), the score `QString::number` of points:
//! both Black's (`src/goeval.h`: "The score is stored from Black's perspective, as is the
//! winrate"; `src/qgtp.cpp` turns the engine's side-to-move numbers to Black's before
//! `set_eval_data`). They evaluate the node's own position: the state the engine was asked
//! about, after the node's move. q5Go's own reader is `add_eval_1` in the same file. q5Go's
//! tutorials (`src/sgfs/lnd2.sgf`, `bentfour.sgf`, q5Go 2.1.3) are real files with `QKGV`.
//!
//! Several values on a node are several analyses: a record gives the one named by its first
//! value (the fields after the scores, komi and engine), on every node, never a mixture. A
//! node that edits the board after the first move (`AB`, `AW`, `AE`, as q5Go's tutorials do)
//! shows a position the moves do not reach: its evaluation is not read.

use super::{black_lead, black_win, number, shown, Line, Problems};
use crate::{ids, Color, Eval, Evals, PropId};

pub(crate) const QKGV: PropId = PropId::new("QKGV");
pub(crate) const QLZV: PropId = PropId::new("QLZV");

pub(crate) fn read(line: &Line<'_, '_>, problems: &mut Problems) -> Option<Evals> {
    let mut out = line.blank("q5Go");
    // The analysis read: the komi and engine fields of the first value, as written.
    let mut chosen: Option<Vec<u8>> = None;
    for n in &line.nodes {
        let edits = || {
            [ids::AB, ids::AW, ids::AE]
                .iter()
                .any(|&id| n.node.get(id).is_some())
        };
        if n.before > 0 && edits() {
            // The position before the edit is evaluated, not the one the next move is played
            // from: kept, it would make the edit's effect the next move's loss.
            out.positions[n.before] = None;
            continue;
        }
        let (prop, name, kata) = match (n.node.get(QKGV), n.node.get(QLZV)) {
            (Some(p), _) => (p, "QKGV", true),
            (None, Some(p)) => (p, "QLZV", false),
            (None, None) => continue,
        };
        for (raw, at) in prop.raw_values() {
            let (eval, id) = match parse(raw, kata) {
                Ok(v) => v,
                Err(e) => {
                    problems.push(at, name, e);
                    continue;
                }
            };
            let chosen = chosen.get_or_insert_with(|| id.to_vec());
            if *chosen != id {
                continue;
            }
            // A node without a move after one with evaluates the same position: the first
            // says it.
            out.positions[n.after].get_or_insert(eval);
            break;
        }
    }
    let chosen = chosen?;
    // `KOMI:ENGINE`: the engine is what follows the komi.
    let engine = chosen.splitn(2, |&c| c == b':').nth(1).unwrap_or(&[]);
    if !engine.is_empty() {
        out.engine = Some(String::from_utf8_lossy(engine).into_owned());
    }
    Some(out)
}

/// One value: the evaluation and the analysis it names (the fields after the numbers).
fn parse(raw: &[u8], kata: bool) -> Result<(Eval, &[u8]), String> {
    let numbers = if kata { 4 } else { 2 };
    let mut fields = raw.splitn(numbers + 1, |&c| c == b':');
    let mut next = |what: &str| {
        fields
            .next()
            .filter(|f| !f.is_empty())
            .ok_or_else(|| format!("{:?} has no {what}", shown(raw)))
    };
    let visits = next("visits")?;
    let visits = std::str::from_utf8(visits)
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .ok_or_else(|| format!("{:?} is not a number of visits", shown(visits)))?;
    let wr = next("win rate")?;
    let wr = number(wr)
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| format!("{:?} is not a probability", shown(wr)))?;
    let win = black_win(wr * 100.0, Color::Black)?;
    let lead = if kata {
        let s = next("score")?;
        let s = number(s).ok_or_else(|| format!("{:?} is not a score", shown(s)))?;
        next("score deviation")?;
        Some(black_lead(s, Color::Black)?)
    } else {
        None
    };
    let id = fields.next().unwrap_or(&[]);
    let eval = Eval {
        win,
        lead,
        visits: Some(visits),
    };
    Ok((eval, id))
}
