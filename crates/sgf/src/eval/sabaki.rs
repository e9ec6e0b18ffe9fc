//! Sabaki's `SBKV` and `SBKS`.
//!
//! Written by Sabaki (github.com/SabakiHQ/Sabaki, commit 5e3d874a6302e58e2c8652c2fca1dc68ab12866a,
//! `src/modules/sabaki.js`, the engine syncer's `analysis-update` handler in
//! `attachEngines`): `SBKV` is the best candidate's win rate and `SBKS` its score lead, both
//! turned to Black's side there (`if (sign < 0) { winrate = 100 - winrate; scoreLead =
//! -scoreLead }`, `sign` being the side the engine was asked to analyse for, the player to
//! move), rounded to two decimals, the win rate in percent. They are set on
//! `syncer.treePosition`, the node whose position was analysed: they evaluate the position
//! *after* that node's move. Sabaki's own graph (`winrateData`, `scoreLeadData` in the same
//! file) reads them back unchanged as Black's. `SBKS` came with Sabaki 0.52 (2021); older files
//! have `SBKV` alone. Sabaki names neither the engine nor the visits.

use super::{black_lead, black_win, number, Line, Problems, SBKS, SBKV};
use crate::{Color, Evals};

pub(crate) fn read(line: &Line<'_, '_>, problems: &mut Problems) -> Option<Evals> {
    let mut out = line.blank("Sabaki");
    for n in &line.nodes {
        let Some(v) = n.node.get(SBKV) else { continue };
        let Some((raw, at)) = v.raw_values().next() else {
            continue;
        };
        let win = match number(raw)
            .ok_or_else(|| bad(raw))
            .and_then(|p| black_win(p, Color::Black))
        {
            Ok(w) => w,
            Err(e) => {
                problems.push(at, "SBKV", e);
                continue;
            }
        };
        let lead = n.node.get(SBKS).and_then(|s| {
            let (raw, at) = s.raw_values().next()?;
            match number(raw)
                .ok_or_else(|| bad(raw))
                .and_then(|l| black_lead(l, Color::Black))
            {
                Ok(l) => Some(l),
                Err(e) => {
                    problems.push(at, "SBKS", e);
                    None
                }
            }
        });
        out.positions[n.after] = Some(super::Eval {
            win,
            lead,
            visits: None,
        });
    }
    Some(out)
}

fn bad(raw: &[u8]) -> String {
    format!("{:?} is not a number", super::shown(raw))
}
