//! Record formats other than SGF that real archives hold: Tygem's GIB, WBaduk/Cyberoro's NGF,
//! Pandanet's UGF/UGI and the Tygem/Tom "kifu-line" files of public AI datasets.
//!
//! None of them has an official specification (`../shared/specs/other-formats.md` gathers what is
//! known, checked against real files). Each reader here turns one file into the text of an FF\[4\]
//! SGF collection in UTF-8, which [`crate::Records`] then parses like any other record, as it does
//! for the quadrant notation. Going through SGF text keeps one game-tree type, one set of
//! game-information rules (ranks, dates, results) and one writer for every format, at the cost of
//! formatting a few kilobytes per game — far below the cost of reading the file.
//!
//! What the conversion promises:
//! - every move, pass and handicap stone of the original is in the SGF, in order, with the colour
//!   the original gives (or, where the format gives none, as for GIB's passes, the colour implied
//!   by alternation);
//! - game information the format carries (players, ranks, date, komi, handicap, result, place,
//!   event, time) becomes the SGF property of the same meaning, in its FF\[4\] form;
//! - anything the reader cannot place — an unknown line kind, a move off the board, a missing
//!   section — is a [`Diagnostic`](crate::Diagnostic) at the byte offset of the line in the
//!   original file, and reading goes on with the next line.
//!
//! Charsets: the text of these files is UTF-8, EUC-KR, GB2312/GBK/GB18030 or Shift_JIS, and the
//! files' own hints (`GIBOKIND`, `Lang`) are often wrong; see [`text`].

pub(crate) mod gib;
pub(crate) mod kifu;
pub(crate) mod ngf;
mod text;
pub(crate) mod ugf;

use std::fmt::Write as _;

use encoding_rs::Encoding;

use crate::diag::{Diagnostic, Problem};
use crate::point::{Color, Point};
use crate::value::escape;

/// The formats of this module, as recognised from content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Foreign {
    Gib,
    Ngf,
    Ugf,
    /// Move lines of a kifu-line pair (`id<TAB>;B[pd];W[dp]…`).
    KifuMoves,
    /// The index of a kifu-line pair (one game's information per line, no moves).
    KifuIndex,
}

/// Recognises one of this module's formats from the first kilobytes of a file.
///
/// - GIB: a line `\HS` (the header's start) or `\GS` (the game's) among the first lines;
/// - UGF/UGI: a first section line `[Header]`;
/// - NGF: at least three move lines `PM` + two counter letters + `B`/`W` + four letters, and no
///   SGF tree start;
/// - kifu-line moves: lines of a number, a tab and `;B[` or `;W[`;
/// - kifu-line index: lines of a number, a tab and a date `YYYY.MM.DD` (Tom) or `CYYYY.MM.DD`
///   (Tygem), with at least six tab-separated fields.
pub(crate) fn detect(bytes: &[u8]) -> Option<Foreign> {
    let head = &bytes[..bytes.len().min(16 * 1024)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let lines = Lines(Some(head)).map(trim_ascii).filter(|l| !l.is_empty());
    let first = lines.clone().next()?;
    if lines.clone().take(8).any(|l| l == b"\\HS" || l == b"\\GS") {
        return Some(Foreign::Gib);
    }
    if first.eq_ignore_ascii_case(b"[Header]") {
        return Some(Foreign::Ugf);
    }
    if first.first() == Some(&b'(') || memchr::memmem::find(head, b"(;").is_some() {
        return None;
    }
    if kifu::is_move_line(first) {
        return Some(Foreign::KifuMoves);
    }
    if kifu::is_index_line(first) {
        return Some(Foreign::KifuIndex);
    }
    // A move line is specific enough alone (`PMABBREER`); a game of no move (unfinished, or
    // resigned at once) is known by its header.
    if lines.clone().any(ngf::is_move_line) || ngf::is_header(lines) {
        return Some(Foreign::Ngf);
    }
    None
}

/// The lines of a text (what `split` on `\n` gives, an empty last line after a final newline
/// included), found with `memchr`: an SGF file is often one long line, and detection looks at
/// its first line several times for every file read, so a byte-by-byte split was a noticeable
/// part of reading a folder of one-game files.
#[derive(Clone)]
struct Lines<'a>(Option<&'a [u8]>);

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.0?;
        match memchr::memchr(b'\n', rest) {
            Some(i) => {
                self.0 = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.0 = None;
                Some(rest)
            }
        }
    }
}

/// A file of one of these formats, as SGF text.
pub(crate) struct Converted {
    /// An SGF collection in UTF-8 (empty when nothing could be read).
    pub sgf: String,
    /// The charset the original text was found in (`None` when it was all ASCII).
    pub charset: Option<&'static Encoding>,
    /// Problems, at byte offsets of the original file.
    pub diagnostics: Vec<Diagnostic>,
}

/// Converts `bytes` of format `format` to SGF.
pub(crate) fn convert(format: Foreign, bytes: &[u8]) -> Converted {
    match format {
        Foreign::Gib => gib::convert(bytes),
        Foreign::Ngf => ngf::convert(bytes),
        Foreign::Ugf => ugf::convert(bytes),
        Foreign::KifuMoves => kifu::convert(None, bytes),
        Foreign::KifuIndex => kifu::convert_index_alone(bytes),
    }
}

/// The name of a format, for diagnostics and `qipu info`.
pub(crate) fn name(format: Foreign) -> &'static str {
    match format {
        Foreign::Gib => "GIB",
        Foreign::Ngf => "NGF",
        Foreign::Ugf => "UGF",
        Foreign::KifuMoves | Foreign::KifuIndex => "kifu-line",
    }
}

/// The lines of a file with the byte offset each starts at; `\r` before `\n` is dropped, so
/// CRLF, LF and mixed endings read alike.
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = 0;
    bytes.split(|&b| b == b'\n').map(move |l| {
        let start = at;
        at += l.len() + 1;
        (start, l.strip_suffix(b"\r").unwrap_or(l))
    })
}

pub(crate) fn trim_ascii(b: &[u8]) -> &[u8] {
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &b[start..end]
}

/// One game being written as SGF: the root's properties, then the moves.
pub(crate) struct GameWriter {
    size: u8,
    root: String,
    moves: String,
    moves_written: usize,
}

impl GameWriter {
    pub(crate) fn new(size: u8) -> GameWriter {
        let mut root = String::from("(;GM[1]FF[4]CA[UTF-8]");
        let _ = write!(root, "SZ[{size}]");
        GameWriter {
            size,
            root,
            moves: String::new(),
            moves_written: 0,
        }
    }

    /// A root property holding text (escaped as SGF requires); empty values are left out.
    pub(crate) fn text(&mut self, id: &str, value: &str) {
        let value = value.trim();
        if value.is_empty() {
            return;
        }
        self.root.push_str(id);
        self.root.push('[');
        self.root.push_str(&escape(value, false));
        self.root.push(']');
    }

    /// The handicap `count` and its stones in the layout Tygem, WBaduk and Cyberoro use.
    pub(crate) fn handicap(&mut self, count: u8) {
        if count < 2 {
            return;
        }
        let _ = write!(self.root, "HA[{count}]");
        self.handicap_stones(count);
    }

    /// The stones of a handicap of `count` in that layout, without `HA`.
    pub(crate) fn handicap_stones(&mut self, count: u8) {
        let stones: Vec<String> = handicap_points(self.size, count)
            .iter()
            .map(|p| p.sgf_string())
            .collect();
        self.points("AB", &stones);
    }

    /// A root property of point values (`AB[dd][pp]`); nothing when `points` is empty.
    pub(crate) fn points(&mut self, id: &str, points: &[String]) {
        if points.is_empty() {
            return;
        }
        self.root.push_str(id);
        for p in points {
            let _ = write!(self.root, "[{p}]");
        }
    }

    /// Nodes already written as SGF (a tree of variations), holding `moves` moves.
    pub(crate) fn raw_moves(&mut self, sgf: &str, moves: usize) {
        self.moves.push_str(sgf);
        self.moves_written += moves;
    }

    /// A move, or a pass when `point` is `None`.
    pub(crate) fn play(&mut self, color: Color, point: Option<Point>) {
        self.moves.push(';');
        self.moves.push(color.letter());
        self.moves.push('[');
        if let Some(p) = point {
            let [a, b] = p.to_sgf();
            self.moves.push(char::from(a));
            self.moves.push(char::from(b));
        }
        self.moves.push(']');
        self.moves_written += 1;
    }

    /// A comment on the last move (or on the root before any move).
    pub(crate) fn comment(&mut self, text: &str) {
        let target = if self.moves_written == 0 {
            &mut self.root
        } else {
            &mut self.moves
        };
        target.push_str("C[");
        target.push_str(&escape(text, false));
        target.push(']');
    }

    pub(crate) fn moves(&self) -> usize {
        self.moves_written
    }

    /// The whole game tree, appended to `out`.
    pub(crate) fn finish_into(self, out: &mut String) {
        out.push_str(&self.root);
        out.push_str(&self.moves);
        out.push_str(")\n");
    }
}

/// Handicap stones as the Korean and Chinese servers place them: the star points in the order
/// upper right, lower left, then — unlike the Japanese order, which takes the lower right third —
/// **upper left** (Tygem's third stone, pinned by `sabaki_app__test__gib__utf8.gib`), lower
/// right, then centre for odd counts of five and more, the left and right sides for six and more,
/// the top and bottom sides for eight and more. Boards below 7×7 have no star points: none.
pub(crate) fn handicap_points(size: u8, count: u8) -> Vec<Point> {
    if size < 7 || count < 2 {
        return Vec::new();
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let (lo, hi) = (edge, size - 1 - edge);
    let mid = size / 2;
    let odd = size % 2 == 1;
    let count = count.min(if odd { 9 } else { 4 });
    let p = Point::new;
    let corners = [p(hi, lo), p(lo, hi), p(lo, lo), p(hi, hi)];
    let mut out: Vec<Point> = corners
        .iter()
        .copied()
        .take(count.min(4) as usize)
        .collect();
    if count >= 5 {
        let sides_lr = [p(lo, mid), p(hi, mid)];
        let sides_tb = [p(mid, lo), p(mid, hi)];
        if count >= 6 {
            out.extend(sides_lr);
        }
        if count >= 8 {
            out.extend(sides_tb);
        }
        if count % 2 == 1 {
            out.push(p(mid, mid));
        }
    }
    out
}

/// A problem of a line of an original file.
/// The file's text had bytes in no charset recognised: what the converted text holds as U+FFFD
/// came from them (the games' own charset check leaves converted text alone, since its offsets
/// are not the file's).
pub(crate) fn undecoded(format: Foreign) -> Diagnostic {
    problem(
        format,
        0,
        0,
        "some text is in no charset qipu recognised: decoded with replacement characters".into(),
    )
}

pub(crate) fn problem(format: Foreign, offset: usize, line: usize, reason: String) -> Diagnostic {
    Diagnostic {
        offset,
        problem: Problem::Foreign {
            format: name(format),
            line,
            reason,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(size: u8, n: u8) -> Vec<String> {
        handicap_points(size, n)
            .iter()
            .map(|p| p.sgf_string())
            .collect()
    }

    #[test]
    fn lines_are_what_split_gives() {
        for text in [
            &b""[..],
            b"\n",
            b"\n\n",
            b"one",
            b"one\n",
            b"one\ntwo",
            b"\none\n\ntwo\n\n",
            b"(;GM[1]FF[4]SZ[19];B[pd];W[dp])",
        ] {
            let ours: Vec<&[u8]> = Lines(Some(text)).collect();
            let split: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
            assert_eq!(ours, split, "{:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn handicap_layout_puts_the_third_stone_upper_left() {
        assert_eq!(pts(19, 2), ["pd", "dp"]);
        assert_eq!(pts(19, 3), ["pd", "dp", "dd"]);
        assert_eq!(pts(19, 4), ["pd", "dp", "dd", "pp"]);
        assert_eq!(pts(19, 5), ["pd", "dp", "dd", "pp", "jj"]);
        assert_eq!(pts(19, 6), ["pd", "dp", "dd", "pp", "dj", "pj"]);
        assert_eq!(pts(19, 7), ["pd", "dp", "dd", "pp", "dj", "pj", "jj"]);
        assert_eq!(pts(19, 9).len(), 9);
        assert_eq!(pts(9, 2), ["gc", "cg"]);
        assert_eq!(pts(19, 1), Vec::<String>::new());
        assert!(pts(5, 4).is_empty());
    }

    #[test]
    fn formats_are_recognised_from_content() {
        assert_eq!(
            detect(b"\\HS\r\n\\[GIBOKIND=Global\\]\r\n"),
            Some(Foreign::Gib)
        );
        assert_eq!(detect(b"[Header]\nLang=SJIS\n[Data]\n"), Some(Foreign::Ugf));
        assert_eq!(
            detect(b"354460\t;B[nd];W[pp]\n355131\t;B[pd]\n"),
            Some(Foreign::KifuMoves)
        );
        assert_eq!(
            detect("354460\t2003.09.25 20:21\ta\tb\t6.5\tB+0.5\t321\t30/3 5m\n".as_bytes()),
            Some(Foreign::KifuIndex)
        );
        assert_eq!(
            detect(b"x\n19\nw 1d\nb 1d\n\n0\n0\n7\n\n\n\n3\nPMABBREER\nPMACWEEEE\nPMADBQRRQ\n"),
            Some(Foreign::Ngf)
        );
        assert_eq!(detect(b"(;GM[1]PMABBREER\nPMACWEEEE\nPMADBQRRQ\n"), None);
        assert_eq!(detect(b"hello"), None);
        assert_eq!(detect(b""), None);
    }
}
