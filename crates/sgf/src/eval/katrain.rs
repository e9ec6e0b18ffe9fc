//! KaTrain's `KT` (with the root's `KTV`, the format's version).
//!
//! Written by KaTrain (github.com/sanderland/katrain, commit
//! 30ccf864b0c1cae96dd0aad43880a17d76dba2bc, `katrain/core/game_node.py`, `analysis_dumps`,
//! called from `GameNode.sgf_properties` when analysis is saved): three values, each the
//! base64 of a gzip stream: the ownership and the policy packed as floats, then a JSON object
//! of the node's analysis, `{"moves": {…}, "root": {…}, "completed": …}`, where `root` is
//! KataGo's `rootInfo` for the node's position (`winrate`, `scoreLead`, `visits`, …). KaTrain
//! asks KataGo for Black's side (`reportAnalysisWinratesAs: BLACK`, forced in
//! `katrain/core/engine.py`), so `winrate` (0 to 1) and `scoreLead` are Black's. The node's
//! position is the one after its move. `KTV` is `1.0` in every KaTrain so far; KaTrain refuses
//! a later one, and so does this reader.
//!
//! Only the JSON is decoded. A value's base64 is bounded, its gzip is read through a bound
//! (a small blob cannot unpack to gigabytes), and a blob that fails is skipped with a problem.

use std::io::Read;

use base64::Engine as _;
use serde::Deserialize;

use super::{black_lead, shown, Line, Problems, KT};
use crate::{Color, Eval, Evals, PropId};

/// Base64 longer than this is not read (KaTrain's JSON of a node is a few tens of kilobytes).
const MAX_BASE64: usize = 8 << 20;
/// Nor is JSON that unpacks to more than this.
const MAX_JSON: u64 = 16 << 20;

#[derive(Deserialize)]
struct Analysis {
    root: Option<Root>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Root {
    winrate: Option<f64>,
    score_lead: Option<f64>,
    visits: Option<f64>,
}

pub(crate) fn read(line: &Line<'_, '_>, problems: &mut Problems) -> Option<Evals> {
    if let Some(v) = line.tree.root().get(PropId::new("KTV")) {
        let raw = v.raw();
        if super::number(raw).is_none_or(|v| v >= 2.0) {
            problems.push(
                v.offset(),
                "KTV",
                format!("KaTrain's format {:?} is not known", shown(raw)),
            );
            return None;
        }
    }
    let mut out = line.blank("KaTrain");
    for n in &line.nodes {
        let Some(kt) = n.node.get(KT) else { continue };
        // Ownership, policy, then the JSON.
        let Some((raw, at)) = kt.raw_values().nth(2) else {
            problems.push(kt.offset(), "KT", "fewer than three values".into());
            continue;
        };
        match decode(raw) {
            Ok(Some(eval)) => out.positions[n.after] = Some(eval),
            Ok(None) => {}
            Err(e) => problems.push(at, "KT", e),
        }
    }
    Some(out)
}

/// One node's JSON, unpacked; `Ok(None)` when it has no root evaluation (not analysed).
fn decode(raw: &[u8]) -> Result<Option<Eval>, String> {
    if raw.len() > MAX_BASE64 {
        return Err(format!("{} bytes of base64, more than read", raw.len()));
    }
    let text: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'\\')
        .collect();
    let gz = base64::engine::general_purpose::STANDARD
        .decode(&text)
        .map_err(|e| format!("not base64: {e}"))?;
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .take(MAX_JSON + 1)
        .read_to_end(&mut json)
        .map_err(|e| format!("not gzip: {e}"))?;
    if json.len() as u64 > MAX_JSON {
        return Err(format!("unpacks to more than {MAX_JSON} bytes"));
    }
    let analysis: Analysis =
        serde_json::from_slice(&json).map_err(|e| format!("not KaTrain's JSON: {e}"))?;
    let Some(root) = analysis.root else {
        return Ok(None);
    };
    let Some(w) = root.winrate else {
        return Ok(None);
    };
    if !(0.0..=1.0).contains(&w) {
        return Err(format!("winrate {w} is not a probability"));
    }
    let lead = root
        .score_lead
        .map(|l| black_lead(l, Color::Black))
        .transpose()?;
    let visits = root
        .visits
        .filter(|v| (0.0..=u32::MAX as f64).contains(v))
        .map(|v| v as u32);
    Ok(Some(Eval {
        win: w as f32,
        lead,
        visits,
    }))
}
