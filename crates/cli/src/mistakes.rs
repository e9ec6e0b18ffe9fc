//! `qipu search --mistakes`: the moves of analysed games that lost at least a win probability
//! and/or score, answered by the library (`qipu::Shards::mistakes`); this module only prints.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use qipu::{Mistake, MistakesAnswer, Query, Shards};
use serde_json::json;

use crate::color;
use crate::inputs::shown_path;
use crate::table::{Cell, Table};

/// Prints `answer` (at most `limit` hits for a person, every one with `--json`); exit code 1
/// when no move hit, as for any search.
pub fn print(
    index: &Shards,
    query: &Query,
    answer: &MistakesAnswer,
    json: bool,
    offset: usize,
) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if json {
        for hit in &answer.hits {
            let mut v = serde_json::to_value(hit)?;
            v["type"] = json!("mistake");
            v["path"] = json!(index.path(hit.game).map(|p| shown_path(&p)));
            writeln!(out, "{v}")?;
        }
        writeln!(
            out,
            "{}",
            json!({
                "type": "summary",
                "mistakes": answer.total,
                "analysed_games": answer.analysed_games,
                "search_ms": answer.search_ms,
            })
        )?;
    } else {
        write!(out, "{}", human(index, query, answer, offset))?;
    }
    Ok(match answer.total {
        0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

fn percent(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

fn points(v: Option<f64>) -> String {
    v.map_or(String::new(), |p| format!("{p:+.1}"))
}

/// `FILE#GAME` as the other hit lists name a game (what `qipu show` takes back).
fn identity(index: &Shards, hit: &Mistake) -> String {
    let file = index
        .path(hit.game)
        .map_or_else(|| hit.info.file.clone(), |p| shown_path(&p));
    format!("{file}#{}", hit.info.game_in_file)
}

fn human(index: &Shards, query: &Query, answer: &MistakesAnswer, offset: usize) -> String {
    let mut s = String::new();
    let asked = query.mistakes_asked().map_or(String::new(), |m| {
        let by = m.player().map_or(String::new(), |p| format!(" by {p}"));
        format!(" that lost at least {}{by}", m.loss())
    });
    let _ = writeln!(
        s,
        "{}",
        color::paint(
            color::HEADER,
            &format!(
                "{} {}{asked} (in {} analysed {}) in {:.1} ms",
                answer.total,
                if answer.total == 1 { "move" } else { "moves" },
                answer.analysed_games,
                if answer.analysed_games == 1 {
                    "game"
                } else {
                    "games"
                },
                answer.search_ms
            )
        )
    );
    if answer.hits.is_empty() {
        return s;
    }
    s.push('\n');
    let mut t = Table::new(&[
        ("lost", true),
        ("points", true),
        ("move", false),
        ("B win before → after", false),
        ("B lead before → after", false),
        ("black", false),
        ("white", false),
        ("date", false),
        ("game", false),
    ]);
    for h in &answer.hits {
        let at = h
            .point
            .map_or("pass".to_string(), |p| crate::show::gtp(p, h.board.1));
        let letter = match h.color {
            qipu::Color::Black => 'B',
            qipu::Color::White => 'W',
        };
        let leads = match (h.before.black_lead, h.after.black_lead) {
            (None, None) => String::new(),
            (b, a) => format!("{} → {}", points(b), points(a)),
        };
        t.row(vec![
            Cell::styled(percent(h.loss.win), color::HEADER),
            h.loss
                .points
                .map_or(String::new(), |p| format!("{p:.1}"))
                .into(),
            format!("{} {letter} {at}", h.move_number).into(),
            format!(
                "{} → {}",
                percent(h.before.black_win),
                percent(h.after.black_win)
            )
            .into(),
            leads.into(),
            h.info.black.as_deref().unwrap_or("?").into(),
            h.info.white.as_deref().unwrap_or("?").into(),
            h.info.date.as_deref().unwrap_or_default().into(),
            identity(index, h).into(),
        ]);
    }
    let shown = (answer.hits.len() + offset) as u64;
    if answer.total > shown {
        t.note(format!(
            "… {} more moves (--limit N shows more, --json all of them)",
            answer.total - shown
        ));
    }
    s.push_str(&t.render("  "));
    s
}
