//! Tygem / Tom "kifu-line" pairs, as public AI datasets ship them: an index file of one game's
//! information per tab-separated line, and month files of `id<TAB>;B[pd];W[dp]…` move lines,
//! joined on the id.
//!
//! Index columns (White comes before Black in both):
//! - Tom: id, date `YYYY.MM.DD HH:MM`, White, Black, komi, result, move count, time;
//! - Tygem: id, `C` + date, White's name, id and nation, Black's name, id and nation, result,
//!   move count, time. Tygem's index has no komi; the dataset's README gives 6.5 for all its
//!   games, and so does this reader.
//!
//! Results `B+Resign`, `W+6.5`, `B+Time` and `W+Offline` (the opponent disconnected) become
//! `B+R`, `W+6.5`, `B+T` and `W+F`. Times `30/3 5m` (30 seconds, 3 periods, 5 minutes main time)
//! become `TM[300]OT[3x30 byo-yomi]`.
//!
//! A move file read without its index gives its games without information (and says so); an
//! index read alone gives no game (and says where the games are). [`join`] reads a pair.

use std::collections::HashMap;

use super::{lines, problem, trim_ascii, Converted, Foreign, GameWriter};
use crate::point::{Color, Point};

/// Whether `line` is a move line: digits, a tab, then `;B[` or `;W[`.
pub(crate) fn is_move_line(line: &[u8]) -> bool {
    let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0
        && line.get(digits) == Some(&b'\t')
        && matches!(
            line.get(digits + 1..digits + 4),
            Some(b";B[") | Some(b";W[")
        )
}

/// Whether `line` is an index line: digits, a tab, a date (`C` first in Tygem's), and at least
/// six fields.
pub(crate) fn is_index_line(line: &[u8]) -> bool {
    let mut fields = line.split(|&b| b == b'\t');
    let id_ok = fields
        .next()
        .is_some_and(|id| !id.is_empty() && id.iter().all(u8::is_ascii_digit));
    let date_ok = fields.next().is_some_and(|d| {
        let d = d.strip_prefix(b"C").unwrap_or(d);
        d.len() >= 10 && d[4] == b'.' && d[7] == b'.' && d[..4].iter().all(u8::is_ascii_digit)
    });
    id_ok && date_ok && line.split(|&b| b == b'\t').count() >= 6
}

/// The games of a move file, with the information of `index` where its ids are found.
pub fn join(index: &[u8], moves: &[u8]) -> Converted {
    convert(Some(index), moves)
}

pub(crate) fn convert(index: Option<&[u8]>, moves: &[u8]) -> Converted {
    let mut out = Converted {
        sgf: String::new(),
        charset: None,
        diagnostics: Vec::new(),
    };
    let mut info: HashMap<&[u8], Vec<String>> = HashMap::new();
    let mut index_order: Vec<&[u8]> = Vec::new();
    if let Some(index) = index {
        let non_utf8 = std::str::from_utf8(index).is_err();
        if !index.is_ascii() {
            out.charset = Some(encoding_rs::UTF_8);
        }
        if non_utf8 {
            out.diagnostics.push(problem(
                Foreign::KifuIndex,
                0,
                0,
                "the index is not valid UTF-8 (the datasets' charset): decoded with replacement \
                 characters"
                    .into(),
            ));
        }
        for (i, (offset, raw)) in lines(index).enumerate() {
            let line = trim_ascii(raw);
            if line.is_empty() {
                continue;
            }
            if !is_index_line(line) {
                out.diagnostics.push(problem(
                    Foreign::KifuIndex,
                    offset,
                    i + 1,
                    "index line is not `id<TAB>date<TAB>…`, skipped".into(),
                ));
                continue;
            }
            let id_end = line.iter().position(|&b| b == b'\t').unwrap_or(line.len());
            let fields = String::from_utf8_lossy(line)
                .split('\t')
                .map(|s| s.trim().to_string())
                .collect();
            if info.insert(&line[..id_end], fields).is_none() {
                index_order.push(&line[..id_end]);
            }
        }
    } else {
        out.diagnostics.push(problem(
            Foreign::KifuMoves,
            0,
            0,
            "kifu-line move file read without its index: games have no players, dates or \
             results (give the index too, or their folder)"
                .into(),
        ));
    }
    let mut used: HashMap<&[u8], bool> = HashMap::new();
    for (i, (offset, raw)) in lines(moves).enumerate() {
        let line = trim_ascii(raw);
        if line.is_empty() {
            continue;
        }
        let diag = |reason: String| problem(Foreign::KifuMoves, offset, i + 1, reason);
        if !is_move_line(line) {
            out.diagnostics
                .push(diag("line is not `id<TAB>;B[..];W[..]…`, skipped".into()));
            continue;
        }
        let tab = line.iter().position(|&b| b == b'\t').unwrap_or(0);
        let id = &line[..tab];
        let mut w = GameWriter::new(19);
        match info.get(id) {
            Some(fields) => {
                used.insert(id, true);
                root_info(&mut w, fields);
            }
            None if index.is_some() => {
                out.diagnostics.push(diag(format!(
                    "game {} is not in the index",
                    String::from_utf8_lossy(id)
                )));
            }
            None => {}
        }
        w.text("GN", &String::from_utf8_lossy(id));
        if let Err(reason) = play(&mut w, &line[tab + 1..]) {
            out.diagnostics.push(diag(reason));
        }
        if let Some(count) = info
            .get(id)
            .and_then(|f| f.get(move_count_column(f)))
            .and_then(|c| c.parse::<usize>().ok())
            .filter(|&c| c != w.moves())
        {
            out.diagnostics.push(diag(format!(
                "the index counts {count} moves, the line holds {}",
                w.moves()
            )));
        }
        w.finish_into(&mut out.sgf);
    }
    let missing = index_order
        .iter()
        .filter(|id| !used.contains_key(*id))
        .count();
    if missing > 0 && !moves.is_empty() {
        out.diagnostics.push(problem(
            Foreign::KifuIndex,
            0,
            0,
            format!("{missing} games of the index have no move line in this file"),
        ));
    }
    out
}

/// An index read alone: no game, and a word on where they are.
pub(crate) fn convert_index_alone(_index: &[u8]) -> Converted {
    Converted {
        sgf: String::new(),
        charset: None,
        diagnostics: vec![problem(
            Foreign::KifuIndex,
            0,
            0,
            "this is the index of a kifu-line pair: its games are in the move file beside it \
             (give that file with it, or their folder)"
                .into(),
        )],
    }
}

fn is_tygem(fields: &[String]) -> bool {
    fields.get(1).is_some_and(|d| d.starts_with('C'))
}

fn move_count_column(fields: &[String]) -> usize {
    if is_tygem(fields) {
        9
    } else {
        6
    }
}

fn root_info(w: &mut GameWriter, f: &[String]) {
    let get = |i: usize| f.get(i).map(String::as_str).unwrap_or("");
    let tygem = is_tygem(f);
    let date = get(1).trim_start_matches('C');
    let day = date.split_whitespace().next().unwrap_or("");
    let ymd: Vec<&str> = day.split('.').collect();
    if let [y, m, d] = ymd[..] {
        if y.len() == 4
            && [y, m, d]
                .iter()
                .all(|p| p.bytes().all(|b| b.is_ascii_digit()))
        {
            w.text("DT", &format!("{y}-{m:0>2}-{d:0>2}"));
        }
    }
    let (white, black, komi, result, time) = if tygem {
        (get(2), get(5), "6.5", get(8), get(10))
    } else {
        (get(2), get(3), get(4), get(5), get(7))
    };
    w.text("PW", white);
    w.text("PB", black);
    if komi.parse::<f64>().is_ok() {
        w.text("KM", komi);
    }
    w.text("RE", &result_text(result));
    if let Some((main, periods, byo)) = time_text(time) {
        w.text("TM", &main.to_string());
        w.text("OT", &format!("{periods}x{byo} byo-yomi"));
    }
}

fn result_text(r: &str) -> String {
    let Some((who, how)) = r.split_once('+') else {
        return r.to_string();
    };
    let how = match how.to_ascii_lowercase().as_str() {
        "resign" | "r" => "R".to_string(),
        "time" | "t" => "T".to_string(),
        "offline" | "forfeit" | "f" => "F".to_string(),
        _ => how.to_string(),
    };
    format!("{who}+{how}")
}

/// `30/3 5m` → (300 s, 3 periods, 30 s).
fn time_text(t: &str) -> Option<(u32, u32, u32)> {
    let (byo, main) = t.split_once(' ')?;
    let (secs, periods) = byo.split_once('/')?;
    let minutes: u32 = main.trim().strip_suffix('m')?.parse().ok()?;
    Some((
        minutes.checked_mul(60)?,
        periods.parse().ok()?,
        secs.parse().ok()?,
    ))
}

/// Plays `;B[pd];W[dp]…` (passes `B[]`, `B[tt]`); stops at the first token that is not a move.
fn play(w: &mut GameWriter, mut rest: &[u8]) -> Result<(), String> {
    let mut n = 0;
    while !rest.is_empty() {
        n += 1;
        let tok = rest.strip_prefix(b";").unwrap_or(rest);
        let color = match tok.first() {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => {
                return Err(format!(
                    "move {n} is not `;B[..]` or `;W[..]`: the rest is skipped"
                ))
            }
        };
        let Some(close) = tok.iter().position(|&b| b == b']') else {
            return Err(format!("move {n} is not closed: the rest is skipped"));
        };
        let value = tok.get(2..close).filter(|_| tok.get(1) == Some(&b'['));
        let point = match value {
            Some(b"") | Some(b"tt") => None,
            Some([a, b]) => match (Point::coord_from_letter(*a), Point::coord_from_letter(*b)) {
                (Some(x), Some(y)) if x < 19 && y < 19 => Some(Point::new(x, y)),
                _ => return Err(format!("move {n} is off the board: the rest is skipped")),
            },
            _ => return Err(format!("move {n} is not a point: the rest is skipped")),
        };
        w.play(color, point);
        rest = &tok[close + 1..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces() {
        assert_eq!(result_text("B+Resign"), "B+R");
        assert_eq!(result_text("W+Offline"), "W+F");
        assert_eq!(result_text("W+6.5"), "W+6.5");
        assert_eq!(time_text("30/3 5m"), Some((300, 3, 30)));
        assert_eq!(time_text("30/3 99999999m"), None);
        assert!(is_move_line(b"1\t;B[pd]"));
        assert!(!is_move_line(b"1\tB[pd]"));
        assert!(is_index_line(
            "1\tC2009.01.01 10:00\tw\twid\tKOR\tb\tbid\tCHN\tB+Resign\t200\tx".as_bytes()
        ));
    }

    #[test]
    fn a_pair_is_joined_on_the_id_and_broken_lines_are_reported() {
        let index = "7\t2003.09.25 20:21\t白\t黑\t6.5\tB+0.5\t3\t30/3 5m\n8\t2003.09.26 01:00\ta\tb\t6.5\tW+Time\t1\tx\n";
        let moves = b"7\t;B[pd];W[dp];B[]\nbroken\n9\t;B[aa];X[bb]\n";
        let c = join(index.as_bytes(), moves);
        assert!(
            c.sgf.contains("DT[2003-09-25]PW[白]PB[黑]KM[6.5]RE[B+0.5]TM[300]OT[3x30 byo-yomi]GN[7];B[pd];W[dp];B[])"),
            "{}",
            c.sgf
        );
        let reasons: Vec<String> = c.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(reasons.iter().any(|r| r.contains("line 2")), "{reasons:?}");
        assert!(
            reasons
                .iter()
                .any(|r| r.contains("game 9 is not in the index")),
            "{reasons:?}"
        );
        assert!(
            reasons.iter().any(|r| r.contains("move 2 is not")),
            "{reasons:?}"
        );
        assert!(
            reasons.iter().any(|r| r.contains("1 games of the index")),
            "{reasons:?}"
        );
    }
}
