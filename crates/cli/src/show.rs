//! `qipu show`: the board of each game after move K, as a diagram or as JSON.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use goban::{replay_main_line, Board, Color, Point};
use serde_json::json;
use sgf::Records;

use crate::color;
use crate::inputs::{self, Input};

pub fn run(paths: &[PathBuf], at: Option<usize>, json: bool) -> Result<ExitCode> {
    let outputs = inputs::map_records(
        paths,
        |input| show_file(input, at, json),
        |name, path, msg| problem(name, path, None, &msg, json),
    )?;
    let mut out = std::io::stdout().lock();
    for o in outputs {
        out.write_all(o.as_bytes())?;
    }
    Ok(if inputs::asked_for_a_missing_game() {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn show_file(input: &Input<'_>, at: Option<usize>, json: bool) -> String {
    let mut out = String::new();
    let records = Records::read(input.bytes);
    for d in records.diagnostics() {
        out.push_str(&problem(input.name, input.path, None, &d.to_string(), json));
    }
    let range = match inputs::games(input, records.len()) {
        Ok(r) => r,
        Err(e) => {
            out.push_str(&problem(input.name, input.path, None, &e, json));
            return out;
        }
    };
    for i in range {
        let tree = match records.game(i) {
            Ok(t) => t,
            Err(d) => {
                out.push_str(&problem(
                    input.name,
                    input.path,
                    Some(i),
                    &d.to_string(),
                    json,
                ));
                continue;
            }
        };
        let mut last = None;
        let replay =
            match replay_main_line(&tree, at, false, |_, m| last = Some((m.color, m.point))) {
                Ok(r) => r,
                Err(e) => {
                    out.push_str(&problem(
                        input.name,
                        input.path,
                        Some(i),
                        &e.to_string(),
                        json,
                    ));
                    continue;
                }
            };
        let notes: Vec<String> = replay.notes.iter().map(|n| n.to_string()).collect();
        let evals = sgf::eval::read(&tree);
        let here = evals
            .as_ref()
            .and_then(|e| e.positions.get(replay.moves).copied().flatten());
        if json {
            let line = json!({
                "file": input.name,
                "path": input.path,
                "game": i,
                "size": replay.board.width(),
                "height": replay.board.height(),
                "moves": replay.total_moves,
                "at": replay.moves,
                "black": replay.board.sgf_points(Color::Black),
                "white": replay.board.sgf_points(Color::White),
                "flags": notes,
                "evaluation": here.map(|e| qipu::records::Evaluation::new(replay.moves, &e)),
                "evaluations": evals.as_ref().map(qipu::records::Evaluations::from),
            });
            let _ = writeln!(out, "{line}");
        } else {
            let head = format!(
                "{}#{i}: after move {} of {}{}",
                input.path,
                replay.moves,
                replay.total_moves,
                match last {
                    Some((c, Some(p))) =>
                        format!(" (last: {} {})", c.letter(), gtp(p, replay.board.height())),
                    Some((c, None)) => format!(" (last: {} pass)", c.letter()),
                    None => String::new(),
                }
            );
            let _ = writeln!(out, "{}", color::paint(color::HEADER, &head));
            out.push_str(&diagram(&replay.board, last.and_then(|l| l.1)));
            if let (Some(e), Some(all)) = (here, &evals) {
                let _ = writeln!(out, "  {}", evaluation_line(&e, all));
            }
            for n in notes {
                let _ = writeln!(out, "  ! {n}");
            }
            out.push('\n');
        }
    }
    out
}

/// The shown position's evaluation in a line: `Black 56.3%, Black +0.3, 2001 visits (KataGo,
/// analyze-sgf)`, the win rate and lead of the side ahead.
fn evaluation_line(e: &sgf::Eval, all: &sgf::Evals) -> String {
    let (side, win) = if e.win >= 0.5 {
        ("Black", e.win)
    } else {
        ("White", 1.0 - e.win)
    };
    let mut s = format!("{side} {:.1}%", win * 100.0);
    if let Some(l) = e.lead {
        let (side, l) = if l >= 0.0 {
            ("Black", l)
        } else {
            ("White", -l)
        };
        let _ = write!(s, ", {side} +{l:.1}");
    }
    if let Some(v) = e.visits {
        let _ = write!(s, ", {v} visits");
    }
    match &all.engine {
        Some(engine) => {
            let _ = write!(s, " ({engine}, {})", all.program);
        }
        None => {
            let _ = write!(s, " ({})", all.program);
        }
    }
    s
}

fn problem(name: &str, path: &str, game: Option<usize>, msg: &str, json: bool) -> String {
    if json {
        format!(
            "{}\n",
            json!({"file": name, "path": path, "game": game, "rejected": true, "flags": [msg]})
        )
    } else {
        match game {
            Some(g) => format!("{path}#{g}: {msg}\n\n"),
            None => format!("{path}: {msg}\n\n"),
        }
    }
}

/// Column letters as Go programs print them: A–T without I up to 25 columns, SGF letters beyond.
fn column_label(x: u8, width: u8) -> char {
    if width <= 25 {
        let c = b'A' + x + (x >= 8) as u8;
        c as char
    } else {
        Point::letter_from_coord(x).unwrap_or(b'?') as char
    }
}

/// A point as GTP writes it (`Q16`).
pub fn gtp(p: Point, height: u8) -> String {
    format!("{}{}", column_label(p.x, 25), height - p.y)
}

/// An ASCII diagram: `X` black, `O` white, `.` empty, `+` star points, the last move in brackets.
pub fn diagram(board: &Board, last: Option<Point>) -> String {
    diagram_with_labels(board, last, &[])
}

/// [`diagram`] with letters written on empty points (continuations). With colour on, stones
/// and letters are painted; the characters are the same either way.
pub fn diagram_with_labels(board: &Board, last: Option<Point>, labels: &[(Point, char)]) -> String {
    diagram_of(
        board.width(),
        board.height(),
        last,
        labels,
        |p| match board.get(p) {
            Some(Color::Black) => Some('X'),
            Some(Color::White) => Some('O'),
            None => None,
        },
    )
}

/// A diagram of a `w`×`h` board whose points show `at(p)` (`None`: empty, drawn `.` or `+`
/// on a star point, or a label's letter), with coordinates around it.
pub fn diagram_of(
    w: u8,
    h: u8,
    last: Option<Point>,
    labels: &[(Point, char)],
    at: impl Fn(Point) -> Option<char>,
) -> String {
    diagram_window(w, h, (0, 0, w - 1, h - 1), last, labels, at)
}

/// [`diagram_of`] drawn over the columns `x0..=x1` and rows `y0..=y1` of the board only (both
/// within it), with the board's own coordinates: a pattern's corner without the rest of the
/// board.
pub fn diagram_window(
    w: u8,
    h: u8,
    (x0, y0, x1, y1): (u8, u8, u8, u8),
    last: Option<Point>,
    labels: &[(Point, char)],
    at: impl Fn(Point) -> Option<char>,
) -> String {
    let coordinates = {
        let mut s = String::new();
        for x in x0..=x1 {
            s.push(column_label(x, w));
            s.push(' ');
        }
        format!("    {}\n", color::paint(color::DIM, s.trim_end()))
    };
    let mut s = coordinates.clone();
    for y in y0..=y1 {
        // The last move is drawn in brackets, which take the places of the spaces around it.
        let before_first = if last == Some(Point::new(x0, y)) {
            '['
        } else {
            ' '
        };
        let _ = write!(
            s,
            "{}{before_first}",
            color::paint(color::DIM, &format!("{:>3}", h - y))
        );
        for x in x0..=x1 {
            let p = Point::new(x, y);
            let (c, style) = match at(p) {
                Some(c @ 'X') => (c, color::BLACK),
                Some(c @ 'O') => (c, color::WHITE),
                Some(c) => (c, anstyle::Style::new()),
                None => match labels.iter().find(|l| l.0 == p) {
                    Some(l) => (l.1, color::LABEL),
                    None if is_star(x, y, w, h) => ('+', anstyle::Style::new()),
                    None => ('.', anstyle::Style::new()),
                },
            };
            let c = color::paint(style, &c.to_string());
            let next_is_last = x < x1 && last == Some(Point::new(x + 1, y));
            if last == Some(p) {
                let _ = write!(s, "{c}]");
            } else if next_is_last {
                let _ = write!(s, "{c}[");
            } else {
                let _ = write!(s, "{c} ");
            }
        }
        let _ = writeln!(s, " {}", color::paint(color::DIM, &(h - y).to_string()));
    }
    s.push_str(&coordinates);
    s
}

fn is_star(x: u8, y: u8, w: u8, h: u8) -> bool {
    let lines = |n: u8| -> Vec<u8> {
        match n {
            19 => vec![3, 9, 15],
            13 => vec![3, 6, 9],
            9 => vec![2, 4, 6],
            _ => vec![],
        }
    };
    lines(w).contains(&x) && lines(h).contains(&y)
}
