//! WBaduk / Cyberoro / Orobaduk's NGF: fixed header lines, then one `PM` line per move.
//!
//! Two layouts are found in real files (both pinned in `crates/sgf/tests/foreign.rs`):
//! - the usual one: 1 title, 2 board size, 3 White `name rank`, 4 Black, 5 site, 6 handicap,
//!   7 unknown, 8 komi, 9 date `YYYYMMDD [HH:MM]`, 10 unknown, 11 result in English, 12 move
//!   count; a file whose first line is already the board size lacks the title and is read one
//!   line up;
//! - an older one whose header lines start with `GI`: title, White, Black, two empty lines, date
//!   `Y-M-D`, size, handicap, unknown, komi, move count; the result follows the moves as
//!   `IDB[N] 黑中盘胜…[EndTxt]`. That White comes first there as in the usual layout is an
//!   assumption: the one real file cannot tell.
//!
//! Decisions:
//! - Komi is an integer with a half point implied when there is no handicap (`7` → 7.5, as the
//!   spec and Sabaki's test of `even.NGF` read it); a komi written with a decimal point is taken
//!   as written.
//! - Ranks `9DP` (professional), `7D*`, `10K` are written in their FF\[4\] forms `9p`, `7d*`,
//!   `10k`; other rank texts (`初段`) are kept for the rank reader.
//! - A move line is `PM`, two counter letters, `B`/`W`, then x and y as letters with `B` = 0; an
//!   off-board pair (`AA`) is a pass. The two letters after them repeat the point and are ignored.
//! - Results: `Black wins by resignation!` → `B+R`, `White wins by 18.5 points!` → `W+18.5`,
//!   `White loses on time` → `B+T`, `Progressing!` (unfinished) → `Void`.

use super::text::{Declared, Decoder};
use super::{lines, problem, trim_ascii, Converted, Foreign, GameWriter};
use crate::info::parse_result;
use crate::point::{Color, Point};

/// Whether `line` is a move line: `PM` + two letters + `B`/`W` + four letters.
pub(crate) fn is_move_line(line: &[u8]) -> bool {
    line.len() >= 9
        && line.starts_with(b"PM")
        && line[2..4].iter().all(u8::is_ascii_uppercase)
        && matches!(line[4], b'B' | b'W')
        && line[5..9].iter().all(u8::is_ascii_uppercase)
}

/// Whether `lines` (non-empty, trimmed) begin as the usual NGF header does: the board size
/// (a number of 2 to 52) on the first or second line, and the date `YYYYMMDD [HH:MM]` on the
/// ninth or the one before it (the title may be missing).
pub(crate) fn is_header<'a>(lines: impl Iterator<Item = &'a [u8]>) -> bool {
    let head: Vec<&[u8]> = lines.take(9).collect();
    let size = |l: &[u8]| {
        !l.is_empty()
            && l.len() <= 2
            && l.iter().all(u8::is_ascii_digit)
            && std::str::from_utf8(l)
                .ok()
                .and_then(|s| s.parse::<u8>().ok())
                .is_some_and(|n| (2..=52).contains(&n))
    };
    let date = |l: &[u8]| {
        l.len() >= 8
            && l[..8].iter().all(u8::is_ascii_digit)
            && matches!(trim_ascii(&l[8..]), [] | [b'[', .., b']'])
    };
    (0..2).any(|i| head.get(i).is_some_and(|l| size(l)) && head.get(i + 7).is_some_and(|l| date(l)))
}

/// Converts an NGF file to SGF.
pub(crate) fn convert(bytes: &[u8]) -> Converted {
    // NGF names no charset; its files are GB18030 when they are not ASCII (the format's own
    // declaration, as the WTF dialect's is for SGF).
    let text = Decoder::for_file(bytes, Some(Declared::ByFormat(encoding_rs::GB18030)));
    let mut out = Converted {
        sgf: String::new(),
        charset: text.charset(),
        diagnostics: Vec::new(),
    };
    if let Some(why) = text.unfit("the NGF format") {
        out.diagnostics.push(problem(Foreign::Ngf, 0, 0, why));
    }
    let all: Vec<(usize, &[u8])> = lines(bytes).collect();
    let first_move = all.iter().position(|(_, l)| is_move_line(trim_ascii(l)));
    let head_end = first_move.unwrap_or(all.len());
    let mut header: Vec<String> = all[..head_end]
        .iter()
        .map(|(_, l)| text.decode(trim_ascii(l)).into_owned())
        .collect();
    while header.last().is_some_and(|l| l.is_empty()) {
        header.pop();
    }
    let gi = header.iter().any(|l| l.starts_with("GI"));
    let field = |i: usize| header.get(i).map(|s| s.as_str()).unwrap_or("");
    let h = Header::read(gi, &header, field);

    let size = h.size.unwrap_or(19);
    let mut w = GameWriter::new(size);
    if h.size.is_none() {
        out.diagnostics.push(problem(
            Foreign::Ngf,
            0,
            0,
            "no board size found in the header: 19×19 assumed".into(),
        ));
    }
    for (line, name_id, rank_id) in [(h.white, "PW", "WR"), (h.black, "PB", "BR")] {
        let (name, rank) = split_player(line);
        w.text(name_id, name);
        if let Some(rank) = rank {
            w.text(rank_id, &rank);
        }
    }
    if let Some(dt) = date(h.date) {
        w.text("DT", &dt);
    }
    let handicap = h.handicap.trim().parse::<u8>().unwrap_or(0);
    let komi = h.komi.trim();
    if !komi.is_empty() {
        match komi.parse::<i32>() {
            Ok(k) if handicap == 0 => w.text("KM", &format!("{k}.5")),
            Ok(k) => w.text("KM", &k.to_string()),
            Err(_) if komi.parse::<f64>().is_ok() => w.text("KM", komi),
            Err(_) => {}
        }
    }
    w.handicap(handicap);
    w.text("PC", h.site);
    w.text("EV", h.title);

    let mut result = result_text(h.result);
    let after = first_move.map_or(all.len(), |f| f);
    for (i, (offset, raw)) in all.iter().enumerate().skip(after) {
        let line = trim_ascii(raw);
        if line.is_empty() {
            continue;
        }
        let diag = |reason: String| problem(Foreign::Ngf, *offset, i + 1, reason);
        if is_move_line(line) {
            let color = if line[4] == b'B' {
                Color::Black
            } else {
                Color::White
            };
            let coord = |b: u8| b.checked_sub(b'B').filter(|&c| c < size);
            let point = match (coord(line[5]), coord(line[6])) {
                (Some(x), Some(y)) => Some(Point::new(x, y)),
                _ => None,
            };
            w.play(color, point);
        } else if line.starts_with(b"IDB[") {
            let t = text.decode(line);
            let body = t.split_once(']').map_or("", |(_, r)| r);
            let body = body.split("[EndTxt]").next().unwrap_or("").trim();
            if result.is_none() {
                let core = body.split(['(', '（']).next().unwrap_or("");
                result = parse_result(core.trim()).to_sgf();
            }
            if !body.is_empty() {
                w.comment(body);
            }
        } else if line.starts_with(b"GI") {
            // Trailing `GI` lines of the older layout: their meaning is not known.
        } else {
            out.diagnostics.push(diag(
                "line is neither a move nor a known trailer, skipped".into(),
            ));
        }
    }
    if let Some(re) = result {
        w.text("RE", &re);
    }
    if let Some(count) = h
        .count
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|&c| c != w.moves())
    {
        out.diagnostics.push(problem(
            Foreign::Ngf,
            0,
            0,
            format!(
                "the header counts {count} moves, the file holds {}: truncated or padded",
                w.moves()
            ),
        ));
    }
    // A game the header counts no move for (resigned at once, unfinished) holds none rightly.
    if first_move.is_none() && h.count.trim().parse::<usize>().ok() != Some(0) {
        out.diagnostics
            .push(problem(Foreign::Ngf, 0, 0, "no move line found".into()));
    }
    if text.lossy {
        out.diagnostics.push(super::undecoded(Foreign::Ngf));
    }
    w.finish_into(&mut out.sgf);
    out
}

/// The fixed fields of a header, found by layout.
struct Header<'a> {
    title: &'a str,
    size: Option<u8>,
    white: &'a str,
    black: &'a str,
    site: &'a str,
    handicap: &'a str,
    komi: &'a str,
    date: &'a str,
    result: &'a str,
    count: &'a str,
}

impl<'a> Header<'a> {
    fn read(gi: bool, lines: &'a [String], field: impl Fn(usize) -> &'a str) -> Header<'a> {
        let size = |s: &str| {
            s.trim()
                .parse::<u8>()
                .ok()
                .filter(|&n| (2..=52).contains(&n))
        };
        if gi {
            let f = |i: usize| {
                let v = field(i);
                v.strip_prefix("GI").unwrap_or(v)
            };
            return Header {
                title: f(0),
                white: f(1),
                black: f(2),
                site: "",
                date: f(5),
                size: size(f(6)),
                handicap: f(7),
                komi: f(9),
                result: "",
                count: f(10),
            };
        }
        // Without a title line, the first line is the board size.
        let shift = usize::from(lines.first().is_some_and(|l| size(l).is_some()));
        let f = |i: usize| if i < shift { "" } else { field(i - shift) };
        Header {
            title: f(0),
            size: size(f(1)),
            white: f(2),
            black: f(3),
            site: f(4),
            handicap: f(5),
            komi: f(7),
            date: f(8),
            result: f(10),
            count: f(11),
        }
    }
}

/// `LQC         9DP` → (`LQC`, `9p`); the last word is a rank only if it looks like one.
fn split_player(line: &str) -> (&str, Option<String>) {
    let line = line.trim();
    if let Some((name, last)) = line.rsplit_once(char::is_whitespace) {
        if let Some(rank) = rank(last) {
            return (name.trim(), Some(rank));
        }
    }
    (line, None)
}

fn rank(word: &str) -> Option<String> {
    if ['段', '级', '級', '단', '급']
        .iter()
        .any(|c| word.ends_with(*c))
    {
        return Some(word.to_string());
    }
    let flags_at = word.find(['*', '?']).unwrap_or(word.len());
    let (core, flags) = word.split_at(flags_at);
    let digits = core.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let unit = match core[digits..].to_ascii_uppercase().as_str() {
        "DP" | "P" => "p",
        "D" => "d",
        "K" => "k",
        _ => return None,
    };
    Some(format!("{}{unit}{flags}", &core[..digits]))
}

/// `20170316 [09:37]` or `2006-9-5` → `2017-03-16`, `2006-09-05`.
fn date(v: &str) -> Option<String> {
    let v = v.trim();
    let (y, m, d) = if v.len() >= 8 && v.as_bytes()[..8].iter().all(u8::is_ascii_digit) {
        (
            v[..4].parse().ok()?,
            v[4..6].parse().ok()?,
            v[6..8].parse().ok()?,
        )
    } else {
        let mut p = v.split(['-', '/', '.']).map(|s| s.trim().parse::<u32>());
        (p.next()?.ok()?, p.next()?.ok()?, p.next()?.ok()?)
    };
    let ok: bool = (1000..=9999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d);
    ok.then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// The English result line → its SGF form.
fn result_text(v: &str) -> Option<String> {
    let l = v.to_ascii_lowercase();
    if l.trim().is_empty() {
        return None;
    }
    if l.contains("progress") {
        return Some("Void".into());
    }
    let black = l.contains("black win") || l.contains("white lose");
    let white = l.contains("white win") || l.contains("black lose");
    let winner = match (black, white) {
        (true, false) => 'B',
        (false, true) => 'W',
        _ => return None,
    };
    let how = if l.contains("resign") {
        "R".to_string()
    } else if l.contains("time") {
        "T".to_string()
    } else if l.contains("forfeit") || l.contains("disconnect") {
        "F".to_string()
    } else {
        l.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .rfind(|w| !w.is_empty() && w.parse::<f64>().is_ok())
            .map(|w| w.trim_end_matches('.').to_string())
            .unwrap_or_default()
    };
    Some(format!("{winner}+{how}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header of Sabaki's `even.NGF` with `moves` of its move lines.
    fn even(moves: usize, title: bool) -> String {
        let mut lines = vec![
            "Rated game",
            "19",
            "LQC         9DP",
            "CYY         9DP",
            "www.cyberoro.com",
            "0",
            "0",
            "7",
            "20170316 [09:37]",
            "5",
            "Black wins by 0.5!",
        ];
        if !title {
            lines.remove(0);
        }
        let count = moves.to_string();
        lines.push(&count);
        let all = ["PMABBREER", "PMACWEEEE", "PMADBQPPQ"];
        lines.extend(&all[..moves]);
        lines.join("\r\n") + "\r\n"
    }

    #[test]
    fn games_of_fewer_than_three_moves_are_ngf_too() {
        for moves in 0..=3 {
            for title in [true, false] {
                let text = even(moves, title);
                assert_eq!(
                    super::super::detect(text.as_bytes()),
                    Some(Foreign::Ngf),
                    "{moves} moves, title {title}"
                );
                let c = convert(text.as_bytes());
                assert!(c.sgf.contains("PW[LQC]"), "{moves}: {}", c.sgf);
                // The header counts what the file holds: nothing to say.
                assert!(c.diagnostics.is_empty(), "{moves}: {:?}", c.diagnostics);
                assert_eq!(
                    c.sgf.matches(";B[").count() + c.sgf.matches(";W[").count(),
                    moves
                );
            }
        }
        // Text that only looks a little like it is not.
        for text in ["19\nsome notes\n", "Rated game\n19\nx\n", "PM is a time\n"] {
            assert_eq!(super::super::detect(text.as_bytes()), None, "{text:?}");
        }
    }

    #[test]
    fn ranks_dates_and_results() {
        assert_eq!(split_player("LQC         9DP"), ("LQC", Some("9p".into())));
        assert_eq!(
            split_player("ace550      7D*"),
            ("ace550", Some("7d*".into()))
        );
        assert_eq!(
            split_player("Lin.H.C     7DP"),
            ("Lin.H.C", Some("7p".into()))
        );
        assert_eq!(split_player("朴承华 初段"), ("朴承华", Some("初段".into())));
        assert_eq!(split_player("just a name"), ("just a name", None));
        assert_eq!(date("20170316 [09:37]").as_deref(), Some("2017-03-16"));
        assert_eq!(date("2006-9-5").as_deref(), Some("2006-09-05"));
        assert_eq!(date("x"), None);
        let r = |s: &str| result_text(s);
        assert_eq!(r("Black wins by resignation!").as_deref(), Some("B+R"));
        assert_eq!(r("White wins by  resign!").as_deref(), Some("W+R"));
        assert_eq!(r("White wins by 18.5 points!").as_deref(), Some("W+18.5"));
        assert_eq!(r("Black wins by 0.5!").as_deref(), Some("B+0.5"));
        assert_eq!(r("White loses on time").as_deref(), Some("B+T"));
        assert_eq!(r("Progressing!").as_deref(), Some("Void"));
        assert_eq!(r(""), None);
    }

    #[test]
    fn a_truncated_file_says_so() {
        let file = b"t\n19\nw 1D\nb 2D\ns\n0\n0\n6\n20200101\n0\nBlack wins by 3.5!\n5\n\
                     PMABBREER\nPMACWEEEE\nPMADBZZQQ\nnonsense\n";
        let c = convert(file);
        assert!(
            c.sgf
                .contains("PW[w]WR[1d]PB[b]BR[2d]DT[2020-01-01]KM[6.5]"),
            "{}",
            c.sgf
        );
        assert!(c.sgf.contains(";B[qd];W[dd];B[])"), "{}", c.sgf);
        let reasons: Vec<String> = c.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(reasons.iter().any(|r| r.contains("line 16")), "{reasons:?}");
        assert!(
            reasons.iter().any(|r| r.contains("counts 5 moves")),
            "{reasons:?}"
        );
    }
}
