//! GoReviewPartner's reviews (`.rsgf`): `BWWR`, `VNWR` or `MCWR` on each analysed move.
//!
//! Written by GoReviewPartner (github.com/pnprog/goreviewpartner, commit
//! cbcc486cd4c51fb6fc3bc0a1eab61ff34298dadf, one module per bot: `leela_analysis.py`,
//! `leela_zero_analysis.py`, `aq_analysis.py`, `ray_analysis.py`, `pachi_analysis.py`,
//! `phoenixgo_analysis.py`, each `run_analysis`): for move `N` of the game, `toolbox.py`'s
//! `run_all_analysis` asks the bot in the position *before* that move (the game's move is
//! played to the bot only after), hangs the bot's variations beside the move, and sets on the
//! move's own node its best variation's win rate as `BLACK%/WHITE%`, Black's first whatever
//! the side to move (`if player_color=='b': black_value=…; else: white_value=…;
//! black_value=opposite_rate(white_value)`). The property says which estimate: `BWWR` the
//! bot's win rate (Leela, AQ, Ray, Pachi), `VNWR` the value network's (Leela Zero and PhoenixGo
//! write only this one; Leela, AQ and Ray beside `BWWR`), `MCWR` the Monte Carlo rollouts'.
//! GoReviewPartner's own viewer (`dual_view.py`) reads the number before the first `%` as
//! Black's. The root names the bot: `BOT` and `BOTV`.
//!
//! A record gives one estimate for all its positions, the first of `BWWR`, `VNWR`, `MCWR` it
//! holds on its main line. No lead (the `ES` some bots write is a GTP `final_score` string,
//! not an evaluation of this position) and no visits (the `PLYO` of a variation is its first
//! move's playouts, not the position's). No public `.rsgf` file was found: the fixture is
//! written by hand after these functions. GoReviewPartner saves the review beside the game
//! (`toolbox.py`: the file's name with `.rsgf` for its ending), so a folder walk does not take
//! `.rsgf` files, which would count each game twice; one named as an input is read.

use super::{black_win, number, shown, Line, Problems};
use crate::{Color, Eval, Evals, PropId};

pub(crate) const BWWR: PropId = PropId::new("BWWR");
pub(crate) const VNWR: PropId = PropId::new("VNWR");
pub(crate) const MCWR: PropId = PropId::new("MCWR");

pub(crate) fn read(line: &Line<'_, '_>, problems: &mut Problems) -> Option<Evals> {
    let (id, name) = [(BWWR, "BWWR"), (VNWR, "VNWR"), (MCWR, "MCWR")]
        .into_iter()
        .find(|(id, _)| line.nodes.iter().any(|n| n.node.get(*id).is_some()))?;
    let mut out = line.blank("GoReviewPartner");
    let root = line.tree.root();
    let text = |id| {
        root.get(PropId::new(id))
            .map(|p| p.text().trim().to_string())
    };
    out.engine = match (text("BOT"), text("BOTV")) {
        (Some(bot), Some(v)) if !v.is_empty() => Some(format!("{bot} {v}")),
        (Some(bot), _) => Some(bot),
        _ => None,
    }
    .filter(|e| !e.is_empty());
    for n in &line.nodes {
        if n.moved.is_none() {
            continue;
        }
        let Some((raw, at)) = n.node.get(id).and_then(|p| p.raw_values().next()) else {
            continue;
        };
        match black(raw) {
            Ok(win) => {
                out.positions[n.before] = Some(Eval {
                    win,
                    lead: None,
                    visits: None,
                })
            }
            Err(e) => problems.push(at, name, e),
        }
    }
    Some(out)
}

/// Black's win probability from `BLACK%/WHITE%`.
fn black(raw: &[u8]) -> Result<f32, String> {
    let bad = || format!("{:?} is not BLACK%/WHITE%", shown(raw));
    let end = raw.iter().position(|&c| c == b'%').ok_or_else(bad)?;
    let percent = number(raw[..end].trim_ascii()).ok_or_else(bad)?;
    black_win(percent, Color::Black)
}
