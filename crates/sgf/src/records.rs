//! The entry point: the bytes of one file → its games, whatever the format.
//!
//! [`Records::read`] recognises the format from the content (never from the file name), splits a
//! collection into game spans in one cheap pass, and leaves each game to be parsed on demand with
//! [`Records::game`] — from any thread, so a 10,000-game file parses in parallel.

use std::borrow::Cow;
use std::sync::OnceLock;

use encoding_rs::Encoding;

use crate::charset;
use crate::diag::{Diagnostic, Problem};
use crate::foreign;
use crate::parse::{parse_game, parse_with};
use crate::quadrant;
use crate::scan::{find_tree_start, split_games, Dialect, Escapes, GameSpan};
use crate::tree::GameTree;
use crate::KifuIndexFile;

/// A record format qipu reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// SGF FF[1]–FF[4].
    Sgf,
    /// The Weiqi Text Format: SGF-like, gb18030, no escapes.
    Wtf,
    /// The quadrant digit notation (one game per file).
    Quadrant,
    /// Tygem's GIB.
    Gib,
    /// WBaduk / Cyberoro's NGF.
    Ngf,
    /// Pandanet's UGF and UGI.
    Ugf,
    /// A Tygem/Tom kifu-line file: move lines (read alone or joined with their index, see
    /// [`Records::read_kifu_pair`]) or the index alone (which holds no game).
    KifuLine,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Sgf => "sgf",
            Format::Wtf => "wtf",
            Format::Quadrant => "quadrant",
            Format::Gib => "gib",
            Format::Ngf => "ngf",
            Format::Ugf => "ugf",
            Format::KifuLine => "kifu-line",
        }
    }
}

/// The games of one file.
pub struct Records<'a> {
    bytes: Cow<'a, [u8]>,
    format: Format,
    file_charset: Option<&'static Encoding>,
    games: Vec<GameSpan>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Records<'a> {
    /// Recognises the format of `bytes` and finds its games. Never fails: a file with no game has
    /// no games and a diagnostic saying so.
    pub fn read(bytes: &'a [u8]) -> Records<'a> {
        if let Some((indexes, moves)) = unpack_kifu_pair(bytes) {
            return Records::read_kifu_indexes(&indexes, moves);
        }
        let mut diagnostics = Vec::new();
        let (bytes, file_charset): (Cow<'a, [u8]>, _) = match charset::transcode_utf16(bytes) {
            Some((text, enc)) => (Cow::Owned(text.into_bytes()), Some(enc)),
            None => (Cow::Borrowed(bytes), None),
        };
        let foreign = foreign::detect(&bytes);
        let format = detect_format(&bytes);
        let mut file_charset = file_charset;
        let bytes = if let Some(f) = foreign {
            let converted = foreign::convert(f, &bytes);
            diagnostics.extend(converted.diagnostics);
            file_charset = file_charset.or(converted.charset);
            Cow::Owned(converted.sgf.into_bytes())
        } else if format == Format::Quadrant {
            let text = decode_plain(&bytes);
            match quadrant::parse(&text) {
                Ok(rec) => Cow::Owned(quadrant_to_sgf(&rec).into_bytes()),
                Err(e) => {
                    let offset = match e {
                        quadrant::QuadrantError::Parse { byte, .. } => byte,
                        _ => 0,
                    };
                    diagnostics.push(Diagnostic {
                        offset,
                        problem: Problem::Quadrant(e.to_string()),
                    });
                    Cow::Owned(Vec::new())
                }
            }
        } else {
            bytes
        };
        Records::finish(bytes, format, file_charset, diagnostics)
    }

    /// Reads a Tygem/Tom kifu-line pair: the games of the move file `moves`, with the players,
    /// date, komi and result that the index file `index` gives for their ids. Problems of either
    /// file are in [`Records::diagnostics`] (at byte offsets of the file they name).
    pub fn read_kifu_pair(index: &[u8], moves: &[u8]) -> Records<'static> {
        let converted = foreign::kifu::join(index, moves);
        Records::finish(
            Cow::Owned(converted.sgf.into_bytes()),
            Format::KifuLine,
            converted.charset,
            converted.diagnostics,
        )
    }

    /// Reads a kifu-line move file with the index files near it, in the order given: an id is
    /// taken from the first that has it (the move file's own index should come first), and an id
    /// two of them give differently is a diagnostic naming both.
    pub fn read_kifu_indexes(indexes: &[KifuIndexFile<'_>], moves: &[u8]) -> Records<'static> {
        let converted = foreign::kifu::join_named(indexes, moves);
        Records::finish(
            Cow::Owned(converted.sgf.into_bytes()),
            Format::KifuLine,
            converted.charset,
            converted.diagnostics,
        )
    }

    fn finish(
        bytes: Cow<'a, [u8]>,
        format: Format,
        file_charset: Option<&'static Encoding>,
        mut diagnostics: Vec<Diagnostic>,
    ) -> Records<'a> {
        let games = split_games(&bytes);
        if games.is_empty()
            && !diagnostics
                .iter()
                .any(|d| matches!(d.problem, Problem::Quadrant(_)))
        {
            diagnostics.push(Diagnostic {
                offset: 0,
                problem: Problem::NoGame,
            });
        }
        Records {
            bytes,
            format,
            file_charset,
            games,
            diagnostics,
        }
    }

    /// The format the content was recognised as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Number of game trees in the file (broken ones included).
    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Where each game lies.
    pub fn spans(&self) -> &[GameSpan] {
        &self.games
    }

    /// Problems of the file as a whole (no game found, undecodable quadrant record).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The bytes games are parsed from (the file, or its UTF-8 transcoding).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Parses game `index` (0-based). An error means the tree held no node at all.
    pub fn game(&self, index: usize) -> Result<GameTree<'_>, Diagnostic> {
        let span = *self.games.get(index).ok_or(Diagnostic {
            offset: self.bytes.len(),
            problem: Problem::NoGame,
        })?;
        let dialect = match self.format {
            Format::Wtf => Dialect::Wtf,
            _ => Dialect::Sgf,
        };
        let mut tree = parse_game(&self.bytes, span, dialect)?;
        tree.file_charset = self.file_charset;
        tree.converted = matches!(
            self.format,
            Format::Gib | Format::Ngf | Format::Ugf | Format::KifuLine
        );
        tree.charset = OnceLock::new();
        if dialect == Dialect::Sgf
            && self.file_charset.is_none()
            && is_double_byte(tree.charset().encoding)
            && has_trail_backslash(&self.bytes[span.span.start..span.span.end])
        {
            // A trail byte that equals `\\` was read as an escape: read again, skipping whole
            // characters, so that a name like 申眞ソ does not swallow the bracket after it.
            if let Ok(again) = parse_with(&self.bytes, span, dialect, Escapes::SgfDoubleByte) {
                tree = again;
            }
        }
        if dialect == Dialect::Wtf
            && self.file_charset.is_none()
            && tree.charset().encoding != encoding_rs::UTF_8
            && has_trail_bracket(&self.bytes[span.span.start..span.span.end])
        {
            // Likewise for WTF, which has no escapes but whose gb18030 trail bytes may be `]`
            // (⺌ is FE 5D). Cut there, the text does not decode as gb18030 and the trail `]`
            // is left over between properties; the read skipping whole characters is kept when it
            // has the same nodes and properties, fewer problems, and text in a double-byte
            // charset (a lone Latin-1 £ before `]` would swallow the rest of the game instead).
            if let Ok(again) = parse_with(&self.bytes, span, dialect, Escapes::WtfDoubleByte) {
                if again.nodes.len() == tree.nodes.len()
                    && again.props.len() == tree.props.len()
                    && again.diagnostics.len() < tree.diagnostics.len()
                    && is_double_byte(again.charset().encoding)
                {
                    tree = again;
                }
            }
        }
        Ok(tree)
    }
}

/// What started a kifu-line pair packed as one record before index files were named: a NUL,
/// which no text record starts with, then a name; then the index lines' length and the moves.
/// Still read, as one index without a name.
const KIFU_PAIR_MAGIC: &[u8] = b"\0qipu kifu-line pair\n";

/// What starts a kifu-line move file packed with its named index files by [`pack_kifu_indexes`]:
/// then the number of index files (u32), each as its name's length (u32), name, its kept lines'
/// length (u64) and lines, then the move file.
const KIFU_NAMED_MAGIC: &[u8] = b"\0qipu kifu-line pair, named\n";

/// Packs a kifu-line move file with the lines of its index that name its games into one record,
/// which [`Records::read`] reads as [`Records::read_kifu_pair`] would read the two files.
pub fn pack_kifu_pair(index: &[u8], moves: &[u8]) -> Vec<u8> {
    pack_kifu_indexes(
        &[KifuIndexFile {
            name: "",
            bytes: index,
        }],
        moves,
    )
}

/// Packs a kifu-line move file with the lines of its index files that name its games into one
/// record, which [`Records::read`] reads as [`Records::read_kifu_indexes`] would read the files:
/// their names and order are kept, so that the move file's own index still comes first and a
/// diagnostic can name the file it speaks of. Readers of folders use it so that a move file and
/// the index files beside it travel as one record (and are stored as one); the indexes' other
/// lines (a dataset's one index serves all its month files) are left out.
pub fn pack_kifu_indexes(indexes: &[KifuIndexFile<'_>], moves: &[u8]) -> Vec<u8> {
    let ids: std::collections::HashSet<&[u8]> = moves
        .split(|&b| b == b'\n')
        .filter_map(|l| l.split(|&b| b == b'\t').next())
        .filter(|id| !id.is_empty())
        .collect();
    let mut out = Vec::with_capacity(KIFU_NAMED_MAGIC.len() + 4 + moves.len());
    out.extend_from_slice(KIFU_NAMED_MAGIC);
    out.extend_from_slice(&(indexes.len() as u32).to_le_bytes());
    for index in indexes {
        let mut kept = Vec::new();
        for line in index.bytes.split(|&b| b == b'\n') {
            let id = line.split(|&b| b == b'\t').next().unwrap_or_default();
            if ids.contains(id) {
                kept.extend_from_slice(line);
                kept.push(b'\n');
            }
        }
        out.extend_from_slice(&(index.name.len() as u32).to_le_bytes());
        out.extend_from_slice(index.name.as_bytes());
        out.extend_from_slice(&(kept.len() as u64).to_le_bytes());
        out.extend_from_slice(&kept);
    }
    out.extend_from_slice(moves);
    out
}

/// The index files and the move file of a packed pair; `None` when `bytes` are not one (or are
/// cut or garbled inside the packing).
fn unpack_kifu_pair(bytes: &[u8]) -> Option<(Vec<KifuIndexFile<'_>>, &[u8])> {
    if let Some(rest) = bytes.strip_prefix(KIFU_PAIR_MAGIC) {
        let (index, moves) = take_sized(rest, 8)?;
        return Some((
            vec![KifuIndexFile {
                name: "",
                bytes: index,
            }],
            moves,
        ));
    }
    let mut rest = bytes.strip_prefix(KIFU_NAMED_MAGIC)?;
    let count = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?);
    rest = &rest[4..];
    let mut indexes = Vec::new();
    for _ in 0..count {
        let (name, after) = take_sized(rest, 4)?;
        let (lines, after) = take_sized(after, 8)?;
        indexes.push(KifuIndexFile {
            name: std::str::from_utf8(name).ok()?,
            bytes: lines,
        });
        rest = after;
    }
    Some((indexes, rest))
}

/// Splits off a little-endian length of `width` bytes (4 or 8) and the bytes it counts.
fn take_sized(bytes: &[u8], width: usize) -> Option<(&[u8], &[u8])> {
    let mut len = [0u8; 8];
    len[..width].copy_from_slice(bytes.get(..width)?);
    let rest = &bytes[width..];
    let len = usize::try_from(u64::from_le_bytes(len))
        .ok()
        .filter(|&l| l <= rest.len())?;
    Some(rest.split_at(len))
}

fn foreign_format(f: foreign::Foreign) -> Format {
    match f {
        foreign::Foreign::Gib => Format::Gib,
        foreign::Foreign::Ngf => Format::Ngf,
        foreign::Foreign::Ugf => Format::Ugf,
        foreign::Foreign::KifuMoves | foreign::Foreign::KifuIndex => Format::KifuLine,
    }
}

fn is_double_byte(enc: &'static Encoding) -> bool {
    use encoding_rs::{BIG5, GB18030, GBK, SHIFT_JIS};
    [SHIFT_JIS, BIG5, GBK, GB18030].contains(&enc)
}

/// Whether some `]` follows a byte that may lead a double-byte character.
fn has_trail_bracket(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b']', bytes).any(|i| i > 0 && bytes[i - 1] >= 0x81)
}

/// Whether some `\\` follows a byte that may lead a double-byte character.
fn has_trail_backslash(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\\', bytes).any(|i| i > 0 && bytes[i - 1] >= 0x81)
}

/// Text of a non-SGF file: UTF-8 when valid, otherwise GB18030 (the Chinese tools' default).
fn decode_plain(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.trim_start_matches('\u{feff}').to_string(),
        Err(_) => encoding_rs::GB18030
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

/// Whether `bytes` start as the move file of a kifu-line pair (`id<TAB>;B[pd]…`), which wants its
/// index beside it ([`Records::read_kifu_pair`]) rather than being read alone.
pub fn is_kifu_moves(bytes: &[u8]) -> bool {
    foreign::detect(bytes) == Some(foreign::Foreign::KifuMoves)
}

/// Recognises the format from the first bytes that carry structure.
///
/// - GIB, NGF, UGF/UGI and kifu-line files are recognised first, by their own marks (see
///   `foreign::detect`);
/// - A `(` followed by `;` (white space allowed between) makes a bracketed record: SGF, unless it
///   looks like the Weiqi Text Format — no `CA`, no `GM`, no `FF[3]`/`FF[4]`, no `\` (in gb18030
///   text, a `5C` byte that ends a two-byte character is none), and
///   gb18030 text or a space-separated point list. (WTF and SGF read the same bytes the same way
///   except for `\`, so a wrong guess costs little.)
/// - Text that starts with a two-digit quadrant mark followed by `：` or `:`, or with a four-digit
///   point, is the quadrant notation.
/// - Anything else is read as SGF (and will most likely report that it holds no game).
pub fn detect_format(bytes: &[u8]) -> Format {
    if let Some(f) = foreign::detect(bytes) {
        return foreign_format(f);
    }
    if let Some(start) = find_tree_start(bytes) {
        return if looks_like_wtf(&bytes[start..]) {
            Format::Wtf
        } else {
            Format::Sgf
        };
    }
    let text = decode_plain(&bytes[..bytes.len().min(256)]);
    let t: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(6)
        .collect();
    let digit = |i: usize| t.get(i).is_some_and(|c| c.is_ascii_digit());
    let colon = |i: usize| matches!(t.get(i), Some('：') | Some(':'));
    if digit(0) && digit(1) && (colon(2) || (digit(2) && digit(3)) || t.len() == 2) {
        return Format::Quadrant;
    }
    Format::Sgf
}

fn looks_like_wtf(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    let has = |needle: &[u8]| memchr::memmem::find(head, needle).is_some();
    if has(b"CA[") || has(b"GM[") || has(b"FF[3]") || has(b"FF[4]") {
        return false;
    }
    let gb_text = std::str::from_utf8(head).is_err()
        && encoding_rs::GB18030
            .decode_without_bom_handling_and_without_replacement(head)
            .is_some();
    // In gb18030 text a `5C` byte may be the second byte of a character (‐ is A9 5C), which no
    // reader takes for an escape; only a `\` of its own makes the record SGF.
    let backslash = if gb_text {
        has_gb18030_backslash(head)
    } else {
        has(b"\\")
    };
    if backslash {
        return false;
    }
    let spaced_points = [b"AB[".as_slice(), b"AW[", b"AE["].iter().any(|p| {
        memchr::memmem::find_iter(head, p).any(|i| {
            let v = &head[i + 3..];
            let end = memchr::memchr(b']', v).unwrap_or(v.len());
            v[..end].contains(&b' ')
        })
    });
    spaced_points || gb_text
}

/// Whether `bytes`, gb18030 text, hold a `\` character (not a byte of a multi-byte one):
/// a walk character by character, a lead byte (81–FE) taking its trail byte, or three more
/// bytes when a digit follows it (the four-byte form).
fn has_gb18030_backslash(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += match b {
            b'\\' => return true,
            0x81..=0xFE if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => 4,
            0x81..=0xFE => 2,
            _ => 1,
        };
    }
    false
}

/// Writes a quadrant record as an SGF game so that it is read like every other game.
fn quadrant_to_sgf(rec: &quadrant::QuadrantRecord) -> String {
    let mut s = String::from("(;GM[1]FF[4]CA[UTF-8]SZ[19]");
    if let Some(loser) = rec.resigned {
        s.push_str(&format!("RE[{}+R]", loser.opponent().letter()));
    }
    for (color, p) in &rec.moves {
        s.push_str(&format!(";{}[{}]", color.letter(), p.sgf_string()));
    }
    s.push(')');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_recognised_from_content() {
        assert_eq!(detect_format(b"(;GM[1]FF[4];B[aa])"), Format::Sgf);
        assert_eq!(detect_format(b"junk\n(\n;FF[4])"), Format::Sgf);
        let (wtf, _, _) = encoding_rs::GB18030.encode("(;PB[孙策]PW[吕范]AB[pd][dp];W[cn])");
        assert_eq!(detect_format(&wtf), Format::Wtf);
        assert_eq!(detect_format(b"(;AB[pd dp];W[cn])"), Format::Wtf);
        // ‐ is A9 5C in gb18030: a byte `\\` that is no backslash. 𝔖 takes four bytes.
        let (dash, _, _) = encoding_rs::GB18030.encode("(;C[‐𝔖A];B[pd])");
        assert!(dash.contains(&b'\\'));
        assert_eq!(detect_format(&dash), Format::Wtf);
        // A backslash of its own in gb18030 text is SGF's escape.
        let (escaped, _, _) = encoding_rs::GB18030.encode("(;C[孙策\\]];B[pd])");
        assert_eq!(detect_format(&escaped), Format::Sgf);
        let (after_dash, _, _) = encoding_rs::GB18030.encode("(;C[‐\\]];B[pd])");
        assert_eq!(detect_format(&after_dash), Format::Sgf);
        assert_eq!(
            detect_format("01：44、36，63、24，".as_bytes()),
            Format::Quadrant
        );
        assert_eq!(detect_format(b"hello"), Format::Sgf);
        assert_eq!(detect_format(b""), Format::Sgf);
    }

    #[test]
    fn a_file_without_games_says_so() {
        let r = Records::read(b"\0\0\0\0");
        assert!(r.is_empty());
        assert_eq!(r.diagnostics()[0].problem, Problem::NoGame);
    }

    #[test]
    fn a_board_size_that_cannot_be_read_is_said() {
        for sz in ["53", "0", "-1", "abc", "", "53:19", "1000000000000"] {
            let text = format!("(;GM[1]SZ[{sz}];B[aa])");
            let r = Records::read(text.as_bytes());
            let g = r.game(0).unwrap();
            assert_eq!(g.board_size(), (19, 19), "{sz}");
            let d = g.diagnostics();
            assert_eq!(d.len(), 1, "{sz}: {d:?}");
            assert_eq!(d[0].offset, 10, "{sz}");
            assert_eq!(d[0].problem, Problem::BadSize(sz.to_string()), "{sz}");
        }
        for sz in ["19", "9", "52", "19:13", "1"] {
            let text = format!("(;GM[1]SZ[{sz}];B[aa])");
            let r = Records::read(text.as_bytes());
            assert!(r.game(0).unwrap().diagnostics().is_empty(), "{sz}");
        }
    }

    #[test]
    fn games_parse_independently() {
        let r = Records::read(b"(;B[aa])(;W[bb]");
        assert_eq!(r.len(), 2);
        assert!(r.game(0).unwrap().diagnostics().is_empty());
        let g1 = r.game(1).unwrap();
        assert!(g1
            .diagnostics()
            .iter()
            .any(|d| d.problem == Problem::Unclosed));
        assert!(r.game(2).is_err());
    }

    #[test]
    fn a_game_without_its_closing_parenthesis_keeps_the_next_games_apart() {
        let r = Records::read(b"(;GM[1]PB[a];B[aa]\n(;GM[1]PB[b];W[bb])\n(;GM[1]PB[c];B[cc])");
        assert_eq!(r.len(), 3);
        let a = r.game(0).unwrap();
        assert_eq!(a.main_line().count(), 2);
        let d = a.diagnostics();
        assert_eq!(d.len(), 1);
        assert_eq!(
            (d[0].offset, &d[0].problem),
            (19, &Problem::UnclosedBeforeNextGame)
        );
        for i in 1..3 {
            let g = r.game(i).unwrap();
            assert!(g.diagnostics().is_empty());
            assert_eq!(g.main_line().count(), 2);
        }
    }
}
