//! Tygem's GIB: a header of `\[KEY=value\]` lines between `\HS` and `\HE`, then the game's lines
//! between `\GS` and `\GE` (`INI` for the handicap, `STO` for a move, `SKI` for a pass).
//!
//! Decisions, each pinned to a real file in `crates/sgf/tests/foreign.rs`:
//! - Players come from `GAMEBLACKNAME`/`GAMEWHITENAME` (`go48 (2K)`: name, then the rank in the
//!   last parentheses); the `*NICK` fields only stand in when those are missing, and the
//!   `*USERINFO` ids, garbled in real files, never.
//! - The result comes from the code `GRLT` in `GAMEINFOMAIN` (0/1 Black/White by count, with the
//!   margin from `ZIPSU` in tenths; 3/4 by resignation; 6 White by Black's disconnection, written
//!   `W+F`; 7/8 on time); any other code means no result. `GAMERESULT`'s free text, in the
//!   server's language, is not read.
//! - Komi is `GAMEGONGJE` (or `GONGJE`) in tenths. The handicap count is `INI`'s fourth field,
//!   its stones implied in Tygem's layout ([`super::handicap_points`]).
//! - A pass (`SKI`) carries no colour: it is the colour after the previous move's (Black first in
//!   an even game, White first with a handicap).
//! - A file may hold several `\HS … \GE` games; each becomes a game of the collection.

use super::text::{hint, Declared, Decoder};
use super::{lines, problem, trim_ascii, Converted, Foreign, GameWriter};
use crate::point::{Color, Point};

/// Converts a GIB file to SGF.
pub(crate) fn convert(bytes: &[u8]) -> Converted {
    let kind = lines(bytes).enumerate().find_map(|(i, (offset, l))| {
        let (k, v) = header_entry(l)?;
        (k == b"GIBOKIND").then(|| (i + 1, offset, String::from_utf8_lossy(v).trim().to_string()))
    });
    let text = Decoder::for_file(
        bytes,
        kind.as_ref().and_then(|k| hint(&k.2)).map(Declared::ByFile),
    );
    let mut out = Converted {
        sgf: String::new(),
        charset: text.charset(),
        diagnostics: Vec::new(),
    };
    if let Some((line, offset, label)) = &kind {
        if let Some(why) = text.unfit(&format!("`GIBOKIND={label}`")) {
            out.diagnostics
                .push(problem(Foreign::Gib, *offset, *line, why));
        }
    }
    let mut game: Option<Game> = None;
    let mut section = Section::Outside;
    let mut last_offset = 0;
    for (number, (offset, raw)) in lines(bytes).enumerate() {
        let line_no = number + 1;
        last_offset = offset;
        let line = trim_ascii(raw);
        if line.is_empty() {
            continue;
        }
        let diag = |reason: String| problem(Foreign::Gib, offset, line_no, reason);
        match line {
            b"\\HS" => {
                if let Some(g) = game.take() {
                    g.finish(
                        &mut out,
                        Some(diag("a new game starts before `\\GE`".into())),
                    );
                }
                game = Some(Game::default());
                section = Section::Header;
                continue;
            }
            b"\\HE" => {
                section = Section::Between;
                continue;
            }
            b"\\GS" => {
                game.get_or_insert_with(|| {
                    out.diagnostics
                        .push(diag("game section without a header (`\\HS`)".into()));
                    Game::default()
                });
                section = Section::Game;
                continue;
            }
            b"\\GE" => {
                if let Some(g) = game.take() {
                    g.finish(&mut out, None);
                }
                section = Section::Outside;
                continue;
            }
            _ => {}
        }
        let Some(g) = game.as_mut() else {
            out.diagnostics.push(diag(
                "line outside any game (no `\\HS` before it), skipped".into(),
            ));
            continue;
        };
        match section {
            Section::Header => match header_entry(line) {
                Some((key, value)) => g.header.push((
                    String::from_utf8_lossy(key).into_owned(),
                    text.decode(value).into_owned(),
                )),
                None => out
                    .diagnostics
                    .push(diag("header line is not `\\[KEY=value\\]`, skipped".into())),
            },
            Section::Game => {
                if let Err(reason) = g.game_line(line) {
                    out.diagnostics.push(diag(reason));
                }
            }
            Section::Between | Section::Outside => out.diagnostics.push(diag(
                "line outside the header and game sections, skipped".into(),
            )),
        }
    }
    if let Some(g) = game.take() {
        let at = last_offset;
        g.finish(
            &mut out,
            Some(problem(
                Foreign::Gib,
                at,
                0,
                "the file ends before `\\GE`: it may be truncated".into(),
            )),
        );
    }
    if text.lossy {
        out.diagnostics.push(super::undecoded(Foreign::Gib));
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Outside,
    Header,
    Between,
    Game,
}

/// `\[KEY=value\]` → (`KEY`, `value`).
fn header_entry(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let inner = trim_ascii(line)
        .strip_prefix(b"\\[")?
        .strip_suffix(b"\\]")?;
    let eq = inner.iter().position(|&b| b == b'=')?;
    Some((&inner[..eq], &inner[eq + 1..]))
}

#[derive(Default)]
struct Game {
    header: Vec<(String, String)>,
    handicap: u8,
    moves: Vec<(Color, Option<Point>)>,
}

impl Game {
    fn get(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    }

    /// A value of `GAMEINFOMAIN`'s comma list (`GRLT:1,ZIPSU:595,…`).
    fn info_main(&self, key: &str) -> Option<&str> {
        self.get("GAMEINFOMAIN")?
            .split(',')
            .filter_map(|kv| kv.split_once(':'))
            .find(|(k, _)| k.trim() == key)
            .map(|(_, v)| v.trim())
    }

    fn game_line(&mut self, line: &[u8]) -> Result<(), String> {
        // Up to six fields, without allocating: a game is hundreds of these lines.
        let mut fields: [&[u8]; 6] = [b""; 6];
        for (slot, f) in fields.iter_mut().zip(
            line.split(u8::is_ascii_whitespace)
                .filter(|f| !f.is_empty()),
        ) {
            *slot = f;
        }
        let num = |i: usize| {
            std::str::from_utf8(fields[i])
                .ok()
                .and_then(|f| f.parse::<i64>().ok())
        };
        match std::str::from_utf8(fields[0]).unwrap_or("?") {
            "INI" => {
                let h = num(3).ok_or("`INI` line without a handicap count")?;
                self.handicap = u8::try_from(h)
                    .ok()
                    .filter(|&h| h <= 9)
                    .ok_or(format!("handicap {h} is not 0 to 9: none placed"))?;
            }
            "STO" => {
                let (Some(c), Some(x), Some(y)) = (num(3), num(4), num(5)) else {
                    return Err("`STO` line needs a colour and two coordinates: skipped".into());
                };
                let color = match c {
                    1 => Color::Black,
                    2 => Color::White,
                    _ => return Err(format!("colour {c} is neither 1 (Black) nor 2 (White)")),
                };
                if !(0..19).contains(&x) || !(0..19).contains(&y) {
                    return Err(format!("move ({x}, {y}) is off the 19×19 board: skipped"));
                }
                self.moves.push((color, Some(Point::new(x as u8, y as u8))));
            }
            "SKI" => {
                let color = match self.moves.last() {
                    Some((c, _)) => c.opponent(),
                    None if self.handicap >= 2 => Color::White,
                    None => Color::Black,
                };
                self.moves.push((color, None));
            }
            // Resignation, remarks, disconnection and watcher lines carry no move.
            "SUR" | "REM" | "DSC" | "WIT" | "END" => {}
            f if f.bytes().all(|b| b.is_ascii_digit() || b == b'&') => {
                // The numeric lines before `INI` (`2 1 0`, `299 0 &4`): their meaning is not known
                // and they carry no move.
            }
            other => return Err(format!("unknown line kind `{other}`, skipped")),
        }
        Ok(())
    }

    fn finish(self, out: &mut Converted, diag: Option<crate::Diagnostic>) {
        out.diagnostics.extend(diag);
        let mut w = GameWriter::new(19);
        for (name_key, nick_key, name_id, rank_id) in [
            ("GAMEBLACKNAME", "GAMEBLACKNICK", "PB", "BR"),
            ("GAMEWHITENAME", "GAMEWHITENICK", "PW", "WR"),
        ] {
            match self.get(name_key) {
                Some(v) => {
                    let (name, rank) = split_name_rank(v);
                    w.text(name_id, name);
                    w.text(rank_id, rank.unwrap_or(""));
                }
                None => w.text(name_id, self.get(nick_key).unwrap_or("")),
            }
        }
        if let Some(dt) = self.get("GAMEDATE").and_then(date).or_else(|| {
            self.get("GAMEINFOSUB")
                .and_then(|s| date(s.split("GDATE:").nth(1)?))
        }) {
            w.text("DT", &dt);
        }
        let tenths = |v: &str| v.trim().parse::<i64>().ok().map(tenths_text);
        if let Some(km) = self
            .get("GAMEGONGJE")
            .and_then(tenths)
            .or_else(|| self.info_main("GONGJE").and_then(tenths))
        {
            w.text("KM", &km);
        }
        w.handicap(self.handicap);
        if let Some(re) = self.result() {
            w.text("RE", &re);
        }
        w.text("EV", self.get("GAMENAME").unwrap_or(""));
        w.text("PC", self.get("GAMEPLACE").unwrap_or(""));
        w.text("GC", self.get("GAMECOMMENT").unwrap_or(""));
        if let Some(t) = self.info_main("GTIME") {
            let parts: Vec<i64> = t.split('-').filter_map(|p| p.trim().parse().ok()).collect();
            if let [main, byo, periods] = parts[..] {
                w.text("TM", &main.to_string());
                if periods > 0 && byo > 0 {
                    w.text("OT", &format!("{periods}x{byo} byo-yomi"));
                }
            }
        }
        for (color, point) in self.moves {
            w.play(color, point);
        }
        w.finish_into(&mut out.sgf);
    }

    fn result(&self) -> Option<String> {
        let code: i64 = self.info_main("GRLT")?.parse().ok()?;
        let margin = self
            .get("GAMEZIPSU")
            .or_else(|| self.info_main("ZIPSU"))
            .and_then(|z| z.parse::<i64>().ok())
            .filter(|&z| z > 0)
            .map(tenths_text)
            .unwrap_or_default();
        Some(match code {
            0 => format!("B+{margin}"),
            1 => format!("W+{margin}"),
            3 => "B+R".into(),
            4 => "W+R".into(),
            6 => "W+F".into(),
            7 => "B+T".into(),
            8 => "W+T".into(),
            _ => return None,
        })
    }
}

/// `65` tenths → `6.5`, `60` → `6`, `-5` → `-0.5`.
fn tenths_text(t: i64) -> String {
    let sign = if t < 0 { "-" } else { "" };
    let a = t.unsigned_abs();
    if a.is_multiple_of(10) {
        format!("{sign}{}", a / 10)
    } else {
        format!("{sign}{}.{}", a / 10, a % 10)
    }
}

/// `2014- 1-27-17-54-54` → `2014-01-27`.
fn date(v: &str) -> Option<String> {
    let parts: Vec<u32> = v
        .split(['-', ',', ' '])
        .filter(|p| !p.is_empty())
        .take(3)
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    match parts[..] {
        [y, m, d] if (1..=12).contains(&m) && (1..=31).contains(&d) && y >= 1000 => {
            Some(format!("{y:04}-{m:02}-{d:02}"))
        }
        _ => None,
    }
}

/// `go48 (2K)` → (`go48`, `2K`); a name without parentheses has no rank.
pub(crate) fn split_name_rank(v: &str) -> (&str, Option<&str>) {
    let v = v.trim();
    if let Some(open) = v.rfind('(') {
        if let Some(inner) = v[open + 1..].strip_suffix(')') {
            let name = v[..open].trim();
            if !name.is_empty() {
                return (name, Some(inner.trim()));
            }
        }
    }
    (v, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_pieces() {
        assert_eq!(tenths_text(65), "6.5");
        assert_eq!(tenths_text(60), "6");
        assert_eq!(tenths_text(5), "0.5");
        assert_eq!(tenths_text(-55), "-5.5");
        assert_eq!(date("2014- 1-27-17-54-54").as_deref(), Some("2014-01-27"));
        assert_eq!(date("garbage"), None);
        assert_eq!(split_name_rank("go48 (2K)"), ("go48", Some("2K")));
        assert_eq!(split_name_rank("a (b) (9단)"), ("a (b)", Some("9단")));
        assert_eq!(split_name_rank("plain"), ("plain", None));
        assert_eq!(split_name_rank("(2K)"), ("(2K)", None));
    }

    #[test]
    fn broken_files_are_read_as_far_as_they_go() {
        let file = b"\\HS\n\\[GAMEBLACKNAME=a (1D)\\]\nnot a header\n\\HE\n\\GS\nINI 0 1 0 &4\n\
                     STO 0 2 1 15 3\nSTO 0 3 2 30 3\nXYZ 1 2\nSKI 0 4\nSTO 0 5 2 3 3\n";
        let c = convert(file);
        assert!(c.sgf.contains("PB[a]BR[1D]"), "{}", c.sgf);
        assert!(c.sgf.contains(";B[pd];W[];W[dd])"), "{}", c.sgf);
        let reasons: Vec<String> = c.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(
            reasons
                .iter()
                .any(|r| r.contains("line 3") && r.contains("header")),
            "{reasons:?}"
        );
        assert!(
            reasons
                .iter()
                .any(|r| r.contains("line 8") && r.contains("off the")),
            "{reasons:?}"
        );
        assert!(
            reasons
                .iter()
                .any(|r| r.contains("line 9") && r.contains("XYZ")),
            "{reasons:?}"
        );
        assert!(
            reasons.iter().any(|r| r.contains("truncated")),
            "{reasons:?}"
        );
    }
}
