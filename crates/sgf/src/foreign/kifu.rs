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
//! index read alone gives no game (and says where the games are). [`join`] reads a pair;
//! [`join_named`] a move file with several named index files (a dataset's months), the first that
//! has an id giving it, so that a server's reused id keeps the move file's own month's players.

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
    convert(
        Some(&[IndexFile {
            name: "",
            bytes: index,
        }]),
        moves,
    )
}

/// One index file of a kifu-line move file: its name as a diagnostic should give it (empty when
/// unknown) and its bytes.
#[derive(Clone, Copy, Debug)]
pub struct IndexFile<'a> {
    pub name: &'a str,
    pub bytes: &'a [u8],
}

/// The games of a move file, with the information the first of `indexes` that has an id gives
/// for it. The order is the caller's: the move file's own index (same name stem) first, so that
/// an id another month's index also holds keeps its own month's players and komi. An id two
/// index files give differently is a diagnostic on its move line naming both.
pub fn join_named(indexes: &[IndexFile<'_>], moves: &[u8]) -> Converted {
    convert(Some(indexes), moves)
}

/// Where an id's information was taken from, and the first index line that disagrees with it.
struct Entry {
    fields: Vec<String>,
    file: usize,
    conflict: Option<(usize, &'static str)>,
}

pub(crate) fn convert(indexes: Option<&[IndexFile<'_>]>, moves: &[u8]) -> Converted {
    let mut out = Converted {
        sgf: String::new(),
        charset: None,
        diagnostics: Vec::new(),
    };
    let mut info: HashMap<&[u8], Entry> = HashMap::new();
    let mut index_order: Vec<&[u8]> = Vec::new();
    if let Some(indexes) = indexes {
        for (n, index) in indexes.iter().enumerate() {
            read_index(n, index, &mut info, &mut index_order, &mut out);
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
            Some(entry) => {
                used.insert(id, true);
                root_info(&mut w, &entry.fields);
                if let (Some((other, what)), Some(indexes)) = (entry.conflict, indexes) {
                    out.diagnostics.push(diag(conflict_text(
                        &String::from_utf8_lossy(id),
                        indexes[entry.file].name,
                        indexes[other].name,
                        what,
                    )));
                }
            }
            None if indexes.is_some() => {
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
            .and_then(|e| e.fields.get(move_count_column(&e.fields)))
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

/// Reads index file number `n` into `info`: an id already there (from an index that comes
/// first, or an earlier line) keeps its information, and a line giving it differently is kept as
/// its conflict.
fn read_index<'a>(
    n: usize,
    index: &IndexFile<'a>,
    info: &mut HashMap<&'a [u8], Entry>,
    index_order: &mut Vec<&'a [u8]>,
    out: &mut Converted,
) {
    let bytes = index.bytes;
    let of = if index.name.is_empty() {
        String::new()
    } else {
        format!(" of {}", index.name)
    };
    if !bytes.is_ascii() {
        out.charset = Some(encoding_rs::UTF_8);
    }
    if std::str::from_utf8(bytes).is_err() {
        out.diagnostics.push(problem(
            Foreign::KifuIndex,
            0,
            0,
            format!(
                "the index{of} is not valid UTF-8 (the datasets' charset): decoded with \
                 replacement characters"
            ),
        ));
    }
    for (i, (offset, raw)) in lines(bytes).enumerate() {
        let line = trim_ascii(raw);
        if line.is_empty() {
            continue;
        }
        if !is_index_line(line) {
            out.diagnostics.push(problem(
                Foreign::KifuIndex,
                offset,
                i + 1,
                format!("index line{of} is not `id<TAB>date<TAB>…`, skipped"),
            ));
            continue;
        }
        let id_end = line.iter().position(|&b| b == b'\t').unwrap_or(line.len());
        let fields: Vec<String> = String::from_utf8_lossy(line)
            .split('\t')
            .map(|s| s.trim().to_string())
            .collect();
        match info.get_mut(&line[..id_end]) {
            Some(kept) => {
                if kept.conflict.is_none() {
                    if let Some(what) = difference(&kept.fields, &fields) {
                        kept.conflict = Some((n, what));
                    }
                }
            }
            None => {
                info.insert(
                    &line[..id_end],
                    Entry {
                        fields,
                        file: n,
                        conflict: None,
                    },
                );
                index_order.push(&line[..id_end]);
            }
        }
    }
}

/// What two index lines of one id give differently, of what a game takes from them (players,
/// komi, date, result); `None` when they agree on all of it.
fn difference(a: &[String], b: &[String]) -> Option<&'static str> {
    let (a, b) = (Facts::of(a), Facts::of(b));
    let players = (a.white, a.black) != (b.white, b.black);
    let komi = a.komi != b.komi;
    let date = a.date != b.date;
    let result = a.result != b.result;
    Some(match (players, komi, date, result) {
        (false, false, false, false) => return None,
        (true, true, _, _) => "players and komi",
        (true, _, _, _) => "players",
        (_, true, _, _) => "komi",
        (_, _, true, _) => "date",
        _ => "result",
    })
}

/// The diagnostic of a game whose id `kept` and `other` give differently (`kept`'s taken).
fn conflict_text(id: &str, kept: &str, other: &str, what: &str) -> String {
    let name = |n: &str| {
        if n.is_empty() {
            "the index".to_string()
        } else {
            n.to_string()
        }
    };
    if kept == other {
        format!(
            "game {id} is in {} twice, with different {what}: the first line's are taken",
            name(kept)
        )
    } else {
        format!(
            "game {id} is in {} and in {}, with different {what}: those of {} are taken",
            name(kept),
            name(other),
            name(kept)
        )
    }
}

/// What a game takes from its index line, by column (White comes before Black in both layouts).
struct Facts<'f> {
    date: &'f str,
    white: &'f str,
    black: &'f str,
    komi: &'f str,
    result: &'f str,
    time: &'f str,
}

impl<'f> Facts<'f> {
    fn of(f: &'f [String]) -> Facts<'f> {
        let get = |i: usize| f.get(i).map(String::as_str).unwrap_or("");
        let date = get(1).trim_start_matches('C');
        if is_tygem(f) {
            Facts {
                date,
                white: get(2),
                black: get(5),
                komi: "6.5",
                result: get(8),
                time: get(10),
            }
        } else {
            Facts {
                date,
                white: get(2),
                black: get(3),
                komi: get(4),
                result: get(5),
                time: get(7),
            }
        }
    }
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
    let Facts {
        date,
        white,
        black,
        komi,
        result,
        time,
    } = Facts::of(f);
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

    #[test]
    fn an_id_is_taken_from_the_first_index_that_has_it_and_a_disagreement_is_said() {
        let own = "7\t2010.01.05 20:21\t白\t黑\t6.5\tB+0.5\t1\tx\n\
                   7\t2010.01.05 20:21\t白\t黑\t6.5\tB+0.5\t1\tx\n";
        let other = "7\t2010.01.05 20:21\t白\t黑\t6.5\tW+R\t1\tx\n\
                     8\t2010.02.01 10:00\ta\tb\t0.5\tW+R\t1\tx\n\
                     8\t2010.02.01 10:00\ta\tc\t0.5\tW+R\t1\tx\n";
        let moves = b"7\t;B[pd]\n8\t;B[dp]\n";
        let files = [
            IndexFile {
                name: "2010-01.index",
                bytes: own.as_bytes(),
            },
            IndexFile {
                name: "2010-02.index",
                bytes: other.as_bytes(),
            },
        ];
        let c = join_named(&files, moves);
        assert!(c.sgf.contains("RE[B+0.5]GN[7]"), "{}", c.sgf);
        assert!(c.sgf.contains("PB[b]KM[0.5]RE[W+R]GN[8]"), "{}", c.sgf);
        let reasons: Vec<String> = c.diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            reasons,
            [
                "byte 0: kifu-line line 1: game 7 is in 2010-01.index and in 2010-02.index, with \
                 different result: those of 2010-01.index are taken",
                "byte 9: kifu-line line 2: game 8 is in 2010-02.index twice, with different players: \
                 the first line's are taken",
            ]
        );
    }
}
