//! `qipu info`: what each game is, as the library understands it.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use goban::{Color, MoveFlags, Note, NoteKind};
use serde_json::{json, Value};
use sgf::{Diagnostic, GameInfo, Records};

use crate::color;
use crate::inputs::{self, Input};
use crate::table::{Cell, Table};

/// An input that holds no game or could not be read, as a row.
fn failed(name: &str, path: &str, msg: String) -> Vec<Row> {
    vec![file_row(name, path, &[msg])]
}

/// What is printed for one game (or for a file that yielded none).
struct Row {
    json: Value,
    table: Vec<Cell>,
    diagnostics: Vec<String>,
}

/// The table's columns: the game's identity (`FILE#GAME`, as `qipu show` takes it back) first.
const COLUMNS: [(&str, bool); 9] = [
    ("game", false),
    ("size", true),
    ("moves", true),
    ("black", false),
    ("white", false),
    ("date", false),
    ("result", false),
    ("charset", false),
    ("diag", true),
];

pub fn run(paths: &[PathBuf], json: bool) -> Result<ExitCode> {
    let rows: Vec<Vec<Row>> = inputs::map_records(paths, read_file, failed)?;
    let files = rows.len();
    let mut out = std::io::stdout().lock();
    let mut table = Table::new(&COLUMNS);
    let (mut games, mut problems) = (0usize, 0usize);
    for row in rows.into_iter().flatten() {
        games += row.json.get("game").is_some_and(|g| !g.is_null()) as usize;
        problems += !row.diagnostics.is_empty() as usize;
        if json {
            serde_json::to_writer(&mut out, &row.json)?;
            writeln!(out)?;
        } else {
            table.row(row.table);
            for d in &row.diagnostics {
                table.note(format!("  ! {d}"));
            }
        }
    }
    if !json {
        out.write_all(table.render("").as_bytes())?;
        writeln!(
            out,
            "{files} files, {games} games, {problems} with diagnostics"
        )?;
    }
    Ok(if inputs::asked_for_a_missing_game() {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn read_file(input: &Input<'_>) -> Vec<Row> {
    let records = Records::read(input.bytes);
    let mut rows = Vec::new();
    let file_diags: Vec<String> = records
        .diagnostics()
        .iter()
        .map(|d| d.to_string())
        .collect();
    if records.is_empty() {
        return vec![file_row(input.name, input.path, &file_diags)];
    }
    let range = match inputs::games(input, records.len()) {
        Ok(r) => r,
        Err(e) => return vec![file_row(input.name, input.path, &[e])],
    };
    // What the file says of itself though it holds games (a kifu-line move file read without
    // its index, a line of a server format skipped): a row of its own, before its games.
    if !file_diags.is_empty() {
        rows.push(file_note_row(input.name, input.path, &file_diags));
    }
    for i in range {
        rows.push(match records.game(i) {
            Ok(tree) => game_row(input, i, records.format().name(), &tree),
            Err(d) => rejected_row(input, i, &d),
        });
    }
    rows
}

/// The main line's moves that cannot be played as written: a point that cannot be read (played
/// as a pass) or one off the board (nothing placed), said as a replay's notes say them (`qipu
/// show` gives the same of the moves up to where it stops), without replaying.
fn move_problems(tree: &sgf::GameTree<'_>, w: u8, h: u8) -> Vec<String> {
    let mut out = Vec::new();
    let mut moves = 0;
    for node in tree.main_line() {
        for (id, color) in [(sgf::ids::B, Color::Black), (sgf::ids::W, Color::White)] {
            let Some(p) = node.get(id) else { continue };
            let kind = match sgf::Point::parse_move(p.raw(), w, h) {
                Err(_) => Some(NoteKind::MalformedMove(
                    color,
                    String::from_utf8_lossy(p.raw()).into_owned(),
                )),
                Ok(Some(q)) if q.x >= w || q.y >= h => {
                    Some(NoteKind::Move(color, Some(q), MoveFlags::OFF_BOARD))
                }
                Ok(_) => None,
            };
            if let Some(kind) = kind {
                let offset = node.offset();
                out.push(
                    Note {
                        moves,
                        offset,
                        kind,
                    }
                    .to_string(),
                );
            }
            moves += 1;
        }
    }
    out
}

fn game_row(input: &Input<'_>, index: usize, format: &str, tree: &sgf::GameTree<'_>) -> Row {
    let info = GameInfo::read(tree);
    // Moves as a replay counts them (a node holding both B and W plays two), so that the move
    // numbers of the diagnostics below stay within it.
    let moves: usize = tree
        .main_line()
        .map(|n| n.get(sgf::ids::B).is_some() as usize + n.get(sgf::ids::W).is_some() as usize)
        .sum();
    let charset = tree.charset().name();
    let mut diagnostics: Vec<String> = tree.diagnostics().iter().map(|d| d.to_string()).collect();
    let (w, h) = info.size;
    diagnostics.extend(move_problems(tree, w, h));
    let (evals, eval_problems) = sgf::eval::read_checked(tree);
    diagnostics.extend(eval_problems.iter().map(|d| d.to_string()));
    let evaluations = evals
        .as_ref()
        .map(|e| serde_json::to_value(qipu::records::Evaluations::from(e)).unwrap_or_default());
    let size = if w == h {
        format!("{w}")
    } else {
        format!("{w}:{h}")
    };
    let result = info.result.as_ref().map(|r| {
        let v = r.value.as_ref();
        json!({
            "raw": r.raw,
            "winner": v.map(|v| format!("{:?}", v.winner).to_lowercase()),
            "how": v.and_then(|v| v.how).map(|h| format!("{h:?}").to_lowercase()),
            "margin": v.and_then(|v| v.margin),
            "sgf": v.and_then(|v| v.to_sgf()),
        })
    });
    let date = info.date.as_ref().map(|d| {
        json!({
            "raw": d.raw,
            "start": d.value.map(|v| v.start.to_string()),
            "end": d.value.map(|v| v.end.to_string()),
        })
    });
    let rank = |r: &Option<sgf::gameinfo::Field<sgf::info::Rank>>| {
        r.as_ref().map(|r| {
            json!({"raw": r.raw, "rank": r.value.map(|v| v.to_string()), "order": r.value.map(|v| v.order())})
        })
    };
    let num = |f: &Option<sgf::gameinfo::Field<f64>>| {
        f.as_ref().map(|f| json!({"raw": f.raw, "value": f.value}))
    };
    let json = json!({
        "file": input.name,
        "path": input.path,
        "game": index,
        "format": format,
        "size": size,
        "moves": moves,
        "nodes": tree.node_count(),
        "black": info.black,
        "white": info.white,
        "black_rank": rank(&info.black_rank),
        "white_rank": rank(&info.white_rank),
        "event": info.event,
        "round": info.round,
        "place": info.place,
        "rules": info.rules,
        "date": date,
        "result": result,
        "komi": num(&info.komi),
        "handicap": info.handicap.as_ref().map(|f| json!({"raw": f.raw, "value": f.value})),
        "time": num(&info.time),
        "charset": charset,
        "evaluations": evaluations,
        "diagnostics": diagnostics,
    });
    let player = |name: &Option<String>, rank: &Option<sgf::gameinfo::Field<sgf::info::Rank>>| {
        let mut s = name.clone().unwrap_or_default();
        if let Some(r) = rank.as_ref().and_then(|r| r.value) {
            s.push_str(&format!(" {r}"));
        }
        s
    };
    let winner = info
        .result
        .as_ref()
        .and_then(|r| r.value.as_ref())
        .map(|v| format!("{:?}", v.winner));
    let name_style = |side: &str| match winner.as_deref() {
        Some(w) if w == side => color::WINNER,
        _ => anstyle::Style::new(),
    };
    let table = vec![
        format!("{}#{index}", input.path).into(),
        size.into(),
        moves.to_string().into(),
        Cell::styled(player(&info.black, &info.black_rank), name_style("Black")),
        Cell::styled(player(&info.white, &info.white_rank), name_style("White")),
        info.date
            .as_ref()
            .and_then(|d| d.value)
            .map(|d| d.start.to_string())
            .unwrap_or_default()
            .into(),
        info.result
            .as_ref()
            .map(|r| {
                r.value
                    .as_ref()
                    .and_then(|v| v.to_sgf())
                    .unwrap_or_else(|| r.raw.clone())
            })
            .unwrap_or_default()
            .into(),
        charset.into(),
        diagnostics.len().to_string().into(),
    ];
    Row {
        json,
        table,
        diagnostics,
    }
}

fn rejected_row(input: &Input<'_>, index: usize, d: &Diagnostic) -> Row {
    let msg = d.to_string();
    Row {
        json: json!({
            "file": input.name, "path": input.path, "game": index, "rejected": true,
            "diagnostics": [msg],
        }),
        table: vec![format!("{}#{index}", input.path).into(), "rejected".into()],
        diagnostics: vec![msg],
    }
}

/// A file that yielded no game, with why.
fn file_row(name: &str, path: &str, diags: &[String]) -> Row {
    file_level_row(name, path, diags, true)
}

/// The problems of a file that holds games, as a row that is no game (`"rejected": false`).
fn file_note_row(name: &str, path: &str, diags: &[String]) -> Row {
    file_level_row(name, path, diags, false)
}

/// A row of a file itself, not of one of its games (`"game": null`).
fn file_level_row(name: &str, path: &str, diags: &[String], rejected: bool) -> Row {
    Row {
        json: json!({
            "file": name, "path": path, "game": null, "rejected": rejected, "diagnostics": diags,
        }),
        table: vec![
            path.into(),
            if rejected { "no game" } else { "file" }.into(),
        ],
        diagnostics: diags.to_vec(),
    }
}
