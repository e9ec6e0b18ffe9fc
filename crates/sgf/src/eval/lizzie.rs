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
//! `generateNode`) writes `LZ[ENGINE WINRATE PLAYOUTS [SCOREMEAN STDEV [PDA]]\nBEST MOVES
//! [ownership …]]`, the engine's name first, and only for nodes with playouts.
//!
//! `LZ2` and root `LZOP2` are lizzieyzy's double-engine mode (`Config.isDoubleEngineMode`): a
//! second engine (`Lizzie.leelaz2`) analyses each position beside the first, its results kept
//! apart (`BoardData.tryToSetBestMoves2`: `winrate2`, `scoreMean2`, `playouts2`), and a save in
//! that mode writes them right after the node's `LZ`/`LZOP`, where the second engine has
//! playouts (`formatNodeData2`, same file). The head line is `LZ`'s, fields and sides alike (the
//! second engine's name, `100 - winrate2`, its playouts, `scoreMean2`, `scoreStdev2`, then the
//! *first* engine's PDA where it has one); the candidates differ (`bestMovesToString2`: the
//! score mean unrounded, no `pvVisits`, every candidate followed by ` info `). lizzieyzy reads
//! them back (`parse`, tag `LZ2`) as `LZ`, into the second engine's fields. Not one public file
//! with `LZ2` was found: the fixture is written by hand after these functions.
//!
//! `LZ` and `LZ2` are two engines' opinions, and the loss of a move measured from one to the
//! other would be their disagreement, not the move's: a record gives one of them for all its
//! positions, never a mixture. Each is a candidate like another program's (the rule in
//! [`super`]: the most positions, then leads, then visits), `LZ` first on a tie; an `LZ2` takes
//! nothing from Sabaki's properties, which no second engine wrote.
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
//! win rate (`100 - last`) and is skipped. The playouts are read as written: `12k` is 12 000
//! (lizzieyzy's own reader, which turns `k` into `00`, shows 1 200).

use super::{black_lead, black_win, number, shown, Line, LineNode, Problems, LZ, LZ2, LZOP, LZOP2};
use crate::{Eval, Evals, PropId};

/// Which of lizzieyzy's engines: the first (`LZ`, `LZOP`; Lizzie's too) or the second of its
/// double-engine mode (`LZ2`, `LZOP2`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Engine {
    First,
    Second,
}

/// The program [`Evals::program`] names for the second engine's evaluations.
pub const SECOND: &str = "lizzieyzy LZ2";

pub(crate) fn read(line: &Line<'_, '_>, problems: &mut Problems, engine: Engine) -> Option<Evals> {
    let root = line.tree.root();
    let (lz, lzop, names) = match engine {
        Engine::First => (LZ, LZOP, ("LZ", "LZOP")),
        Engine::Second => (LZ2, LZOP2, ("LZ2", "LZOP2")),
    };
    // lizzieyzy writes `DZ` (its engine-game marker) and `LZOP`; Lizzie neither, and a version
    // where lizzieyzy writes the engine.
    let mut yzy = root.get(LZOP).is_some() || root.get(PropId::new("DZ")).is_some();
    let mut found: Vec<(usize, Eval, &[u8])> = Vec::new();
    for n in &line.nodes {
        let prop = match n.node.get(lz) {
            Some(p) => Some((p, names.0)),
            None if n.before == 0 && n.moved.is_none() => n.node.get(lzop).map(|p| (p, names.1)),
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
    let mut out = line.blank(match engine {
        Engine::Second => SECOND,
        Engine::First if yzy => "lizzieyzy",
        Engine::First => "Lizzie",
    });
    if yzy || engine == Engine::Second {
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

/// Playouts as `Utils.getPlayoutsString` shortens them: `850`, `1.5k`, `12k`, `1.2m` (Lizzie
/// from a million; lizzieyzy writes `1200k` up to ten million, `12.3m` from there).
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
