//! Lizzie's and lizzieyzy's `LZ`, and lizzieyzy's root `LZOP`.
//!
//! Lizzie (github.com/featurecat/lizzie, commit ebeb4469ebf7b28d6b4ca34006cb3f7059fdc9c3,
//! `src/main/java/featurecat/lizzie/rules/SGFParser.java`, `formatNodeData`, called from
//! `generateNode` for every move node) writes `LZ[VERSION WINRATE PLAYOUTS\nBEST MOVES]`:
//! Lizzie's own version, `100 - data.winrate` with one decimal, the playouts shortened by
//! `Utils.getPlayoutsString` (`850`, `1.5k`, `12k`, `1.2m`), then the candidates as
//! `move Q16 visits 38 winrate 5404 [scoreMean 1.2] pv Q16 D4 … info move …`.
//!
//! lizzieyzy (github.com/yzyray/lizzieyzy, commit 741c301495947608b0cebc36e9c123caf0c90901,
//! same file, `formatNodeData`; root: `LZOP` in `saveToStream`, move nodes: `LZ` in
//! `generateNode`, a second engine's `LZ2`/`LZOP2` beside, not read here) writes
//! `LZ[ENGINE WINRATE PLAYOUTS [SCOREMEAN STDEV [PDA]]\nBEST MOVES [ownership …]]`, the
//! engine's name first, and only for nodes with playouts.
//!
//! Whose side: `data.winrate` is the engine's win rate for the player to move in the node's
//! position (both readers set it back as `100 - field`), so the written `WINRATE` is the
//! player's who just moved, the node's own move (at the root, the player not to move).
//! lizzieyzy's `SCOREMEAN` is the best candidate's score lead as KataGo's `kata-analyze`
//! reports it, for the player to move, written and read back unchanged; Lizzie's lead is the
//! candidates' `scoreMean`, also the player to move's, averaged by visits as Lizzie's
//! `getScoreMeanFromBestMoves` shows it. Each evaluates the position *after* the node's move.
//!
//! Lizzie writes `LZ` on every move node, analysed or not; one with 0 playouts carries a made-up
//! win rate (`100 - last`) and is skipped.

use super::{black_lead, black_win, number, shown, Line, LineNode, Problems, LZ, LZOP};
use crate::{Eval, Evals, PropId};

pub(crate) fn read(line: &Line<'_, '_>, problems: &mut Problems) -> Option<Evals> {
    let root = line.tree.root();
    // lizzieyzy writes `DZ` (its engine-game marker) and `LZOP`; Lizzie neither, and a version
    // where lizzieyzy writes the engine.
    let mut yzy = root.get(LZOP).is_some() || root.get(PropId::new("DZ")).is_some();
    let mut found: Vec<(usize, Eval, &[u8])> = Vec::new();
    for n in &line.nodes {
        let prop = match n.node.get(LZ) {
            Some(p) => Some((p, "LZ")),
            None if n.before == 0 && n.moved.is_none() => n.node.get(LZOP).map(|p| (p, "LZOP")),
            None => None,
        };
        let Some((prop, name)) = prop else { continue };
        let Some((raw, at)) = prop.raw_values().next() else {
            continue;
        };
        match parse(raw, n, line) {
            Ok(Some((eval, first, extended))) => {
                yzy |= extended || !is_version(first);
                found.push((n.after, eval, first));
            }
            Ok(None) => {}
            Err(e) => problems.push(at, name, e),
        }
    }
    if found.is_empty() {
        return None;
    }
    let mut out = line.blank(if yzy { "lizzieyzy" } else { "Lizzie" });
    if yzy {
        out.engine = found
            .iter()
            .map(|f| f.2)
            .find(|e| !e.is_empty())
            .map(|e| String::from_utf8_lossy(e).into_owned());
    }
    for (k, eval, _) in found {
        out.positions[k] = Some(eval);
    }
    Some(out)
}

/// One `LZ` value read: the evaluation, the first field (Lizzie's version or lizzieyzy's
/// engine), and whether the first line had lizzieyzy's extra fields.
type Read<'r> = (Eval, &'r [u8], bool);

/// One `LZ` value; `Ok(None)` for a node Lizzie wrote without playouts.
fn parse<'r>(
    raw: &'r [u8],
    n: &LineNode<'_, '_>,
    line: &Line<'_, '_>,
) -> Result<Option<Read<'r>>, String> {
    let (head, rest) = match raw.iter().position(|&c| c == b'\n') {
        Some(i) => (&raw[..i], &raw[i + 1..]),
        None => (raw, &[][..]),
    };
    let head = head.strip_suffix(b"\r").unwrap_or(head);
    let fields: Vec<&[u8]> = head
        .split(|&c| c == b' ')
        .filter(|f| !f.is_empty())
        .collect();
    if fields.len() < 3 {
        return Err(format!("{:?} is not ENGINE WINRATE PLAYOUTS", shown(head)));
    }
    let visits = playouts(fields[2])
        .ok_or_else(|| format!("{:?} is not a number of playouts", shown(fields[2])))?;
    if visits == 0 {
        return Ok(None);
    }
    let to_move = n.to_move(line);
    let mover = to_move.opponent();
    let percent =
        number(fields[1]).ok_or_else(|| format!("{:?} is not a win rate", shown(fields[1])))?;
    let win = black_win(percent, mover)?;
    let lead = match fields.get(3) {
        Some(s) => {
            let l = number(s).ok_or_else(|| format!("{:?} is not a score", shown(s)))?;
            Some(black_lead(l, to_move)?)
        }
        None => candidates_lead(rest)
            .map(|l| black_lead(l, to_move))
            .transpose()?,
    };
    Ok(Some((
        Eval {
            win,
            lead,
            visits: Some(visits),
        },
        fields[0],
        fields.len() > 3,
    )))
}

/// Playouts as `Utils.getPlayoutsString` shortens them: `850`, `1.5k`, `12k`, `1.2m`.
fn playouts(raw: &[u8]) -> Option<u32> {
    let (digits, scale) = match raw.last()? {
        b'k' | b'K' => (&raw[..raw.len() - 1], 1e3),
        b'm' | b'M' => (&raw[..raw.len() - 1], 1e6),
        _ => (raw, 1.0),
    };
    let v = number(digits)? * scale;
    (0.0..=u32::MAX as f64)
        .contains(&v)
        .then_some(v.round() as u32)
}

/// The candidates' `scoreMean`, averaged by their visits (Lizzie's
/// `getScoreMeanFromBestMoves`); `None` when no candidate has both.
fn candidates_lead(moves: &[u8]) -> Option<f64> {
    let (mut sum, mut total) = (0.0, 0.0);
    let mut visits: Option<f64> = None;
    let mut words = moves
        .split(|c| c.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    while let Some(w) = words.next() {
        match w {
            b"move" => visits = None,
            b"visits" => visits = words.next().and_then(number).filter(|v| *v >= 0.0),
            b"scoreMean" => {
                if let (Some(v), Some(s)) = (visits, words.next().and_then(number)) {
                    sum += v * s;
                    total += v;
                }
            }
            _ => {}
        }
    }
    (total > 0.0).then(|| sum / total)
}

/// Lizzie's version, as its first field: digits and dots.
fn is_version(field: &[u8]) -> bool {
    !field.is_empty() && field.iter().all(|c| c.is_ascii_digit() || *c == b'.')
}
