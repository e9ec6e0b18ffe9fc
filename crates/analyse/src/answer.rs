//! KataGo's answers, one JSON object a line (`docs/Analysis_Engine.md` of github
//! lightvector/KataGo): an analysed turn, a refused query, or a warning.

use serde_json::Value;

use crate::props::{Candidate, TurnEval};

/// What one line of KataGo's output says.
#[derive(Debug)]
pub enum Answer {
    /// One position of a query: its turn and evaluation (`None`: KataGo said `noResults`).
    Turn {
        id: String,
        turn: usize,
        eval: Option<TurnEval>,
    },
    /// A query KataGo would not analyse (an illegal move, an unknown rule), with its message.
    Refused { id: Option<String>, message: String },
    /// A warning about a query KataGo still analyses (an unused field).
    Warning { id: Option<String>, message: String },
    /// A report while a search runs (only when asked for; never here), or another kind of
    /// line this crate has no use for.
    Other,
}

/// Why a line is not an answer.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotAnswer(pub String);

/// Reads one line of KataGo's output (win rates and leads asked as Black's).
pub fn read(line: &str) -> Result<Answer, NotAnswer> {
    let v: Value = serde_json::from_str(line).map_err(|e| NotAnswer(format!("not JSON: {e}")))?;
    let id = v.get("id").and_then(Value::as_str).map(str::to_string);
    let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    if let Some(message) = text("error") {
        let field = text("field")
            .map(|f| format!(" (field {f})"))
            .unwrap_or_default();
        return Ok(Answer::Refused {
            id,
            message: format!("{message}{field}"),
        });
    }
    if let Some(message) = text("warning") {
        return Ok(Answer::Warning { id, message });
    }
    if v.get("isDuringSearch").and_then(Value::as_bool) == Some(true) {
        return Ok(Answer::Other);
    }
    let Some(id) = id else {
        return Ok(Answer::Other);
    };
    let turn = v
        .get("turnNumber")
        .and_then(Value::as_u64)
        .ok_or_else(|| NotAnswer("an answer without turnNumber".into()))? as usize;
    if v.get("noResults").and_then(Value::as_bool) == Some(true) {
        return Ok(Answer::Turn {
            id,
            turn,
            eval: None,
        });
    }
    let root = v
        .get("rootInfo")
        .ok_or_else(|| NotAnswer("an answer without rootInfo".into()))?;
    let num = |o: &Value, k: &str| {
        o.get(k)
            .and_then(Value::as_f64)
            .filter(|x| x.is_finite())
            .ok_or_else(|| NotAnswer(format!("an answer without a number for {k}")))
    };
    let win = num(root, "winrate")?;
    if !(0.0..=1.0).contains(&win) {
        return Err(NotAnswer(format!("a win rate of {win}")));
    }
    let black_to_move = match root.get("currentPlayer").and_then(Value::as_str) {
        Some("B") => true,
        Some("W") => false,
        _ => return Err(NotAnswer("an answer without rootInfo.currentPlayer".into())),
    };
    let mut candidates = Vec::new();
    if let Some(infos) = v.get("moveInfos").and_then(Value::as_array) {
        let mut infos: Vec<&Value> = infos.iter().collect();
        infos.sort_by_key(|m| m.get("order").and_then(Value::as_u64).unwrap_or(u64::MAX));
        for m in infos {
            candidates.push(Candidate {
                name: m
                    .get("move")
                    .and_then(Value::as_str)
                    .ok_or_else(|| NotAnswer("a candidate without its move".into()))?
                    .to_string(),
                visits: num(m, "visits")? as u64,
                win: num(m, "winrate")?,
                prior: num(m, "prior")?,
                lead: num(m, "scoreLead")?,
                pv: m
                    .get("pv")
                    .and_then(Value::as_array)
                    .map(|pv| {
                        pv.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
            });
        }
    }
    Ok(Answer::Turn {
        id,
        turn,
        eval: Some(TurnEval {
            win,
            lead: num(root, "scoreLead")?,
            stdev: num(root, "scoreStdev").unwrap_or(0.0),
            visits: num(root, "visits")? as u64,
            black_to_move,
            candidates,
        }),
    })
}
