//! Which charset a game's text is in: `CA[]` when it tells the truth, detection when it lies.
//!
//! Archives in the wild carry GBK text under `CA[UTF-8]`, UTF-8 under no `CA` at all, Shift_JIS
//! under `CA[ISO-8859-1]`, and UTF-8 broken by a server that cut multi-byte characters in half. The
//! rules, in order:
//! 1. a file transcoded from UTF-16 before parsing is UTF-8 now; its original charset is reported;
//! 2. text that is pure ASCII needs no decision (ISO-2022-JP, which is 7-bit, is checked first);
//! 3. text that is valid UTF-8 is UTF-8, whatever `CA` says (multi-byte UTF-8 by accident is rare);
//! 4. a declared multi-byte charset (GB18030, Big5, Shift_JIS, EUC-KR, …) that decodes without an
//!    error is believed;
//! 5. text that is mostly valid UTF-8, or declared UTF-8, is UTF-8 decoded with replacement
//!    characters, and a diagnostic says so;
//! 6. otherwise chardetng (Firefox's detector) guesses from the bytes, starting from the declared
//!    charset when it is a single-byte one that the guess agrees with.
//!
//! Decoding uses encoding_rs; nothing here hand-decodes a charset.

use std::borrow::Cow;

use encoding_rs::{Encoding, BIG5, EUC_KR, GB18030, GBK, SHIFT_JIS, UTF_16BE, UTF_16LE, UTF_8};

use crate::diag::{Diagnostic, Problem};
use crate::tree::Dialect;

/// How the charset of a game was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharsetSource {
    /// `CA[]` named it and the text fits it.
    Declared,
    /// No `CA[]` (or one that lied); found from the bytes.
    Detected,
    /// The text is plain ASCII: no decision was needed.
    Ascii,
    /// The whole file was UTF-16 and was transcoded before parsing.
    FileLevel,
}

/// The charset a game's text is decoded with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charset {
    pub encoding: &'static Encoding,
    pub source: CharsetSource,
    /// The encoding the file had before transcoding, for UTF-16 files.
    pub original: Option<&'static Encoding>,
}

impl Charset {
    /// The name to show a user (the file's own charset for transcoded files).
    pub fn name(&self) -> &'static str {
        if self.source == CharsetSource::Ascii {
            return "ASCII";
        }
        self.original.unwrap_or(self.encoding).name()
    }

    /// Decodes raw bytes, with replacement characters for bytes that do not decode.
    pub fn decode<'b>(&self, raw: &'b [u8]) -> Cow<'b, str> {
        if raw.is_ascii() && self.encoding != encoding_rs::ISO_2022_JP {
            // ASCII is ASCII in every charset we pick (all are ASCII-compatible but ISO-2022-JP).
            return Cow::Borrowed(std::str::from_utf8(raw).unwrap_or_default());
        }
        self.encoding.decode_without_bom_handling(raw).0
    }
}

/// Finds the charset for a game whose non-ASCII text bytes are `sample`.
pub(crate) fn detect(
    declared: Option<(&[u8], usize)>,
    sample: &[u8],
    file_charset: Option<&'static Encoding>,
    dialect: Dialect,
    game_offset: usize,
) -> (Charset, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mk = |encoding, source| Charset {
        encoding,
        source,
        original: None,
    };
    if let Some(original) = file_charset {
        let c = Charset {
            encoding: UTF_8,
            source: CharsetSource::FileLevel,
            original: Some(original),
        };
        if std::str::from_utf8(sample).is_err() {
            diags.push(diag(game_offset, Problem::Undecodable(original.name())));
        }
        return (c, diags);
    }
    let declared_label = declared.map(|(b, _)| String::from_utf8_lossy(b).trim().to_string());
    let declared_enc = match &declared_label {
        Some(label) if !label.is_empty() => {
            let e = lookup(label);
            if e.is_none() {
                let off = declared.map_or(game_offset, |d| d.1);
                diags.push(diag(off, Problem::UnknownCharset(label.clone())));
            }
            e
        }
        _ => None,
    };
    // The WTF standard fixes gb18030 as its charset.
    let default = if dialect == Dialect::Wtf {
        Some(GB18030)
    } else {
        None
    };
    let declared_or_default = declared_enc.or(default);

    if sample.contains(&0x1b) {
        let jis = encoding_rs::ISO_2022_JP;
        if jis
            .decode_without_bom_handling_and_without_replacement(sample)
            .is_some()
        {
            return (mk(jis, source_for(declared_enc, jis)), diags);
        }
    }
    if sample.is_empty() {
        let enc = declared_or_default.unwrap_or(UTF_8);
        return (mk(enc, CharsetSource::Ascii), diags);
    }
    let mismatch = |diags: &mut Vec<Diagnostic>, used: &'static Encoding| {
        if let (Some(label), Some(enc)) = (&declared_label, declared_enc) {
            if enc != used && !(enc == GBK && used == GB18030) {
                let off = declared.map_or(game_offset, |d| d.1);
                diags.push(diag(
                    off,
                    Problem::CharsetMismatch {
                        declared: label.clone(),
                        used: used.name(),
                    },
                ));
            }
        }
    };
    if std::str::from_utf8(sample).is_ok() {
        mismatch(&mut diags, UTF_8);
        return (mk(UTF_8, source_for(declared_enc, UTF_8)), diags);
    }
    if let Some(enc) = declared_or_default {
        if enc != UTF_8
            && is_multibyte(enc)
            && enc
                .decode_without_bom_handling_and_without_replacement(sample)
                .is_some()
        {
            return (mk(enc, source_for(declared_enc, enc)), diags);
        }
    }
    if declared_enc == Some(UTF_8) || mostly_utf8(sample) {
        mismatch(&mut diags, UTF_8);
        diags.push(diag(game_offset, Problem::Undecodable("UTF-8")));
        return (mk(UTF_8, source_for(declared_enc, UTF_8)), diags);
    }
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    det.feed(sample, true);
    let mut guess = det.guess(None, chardetng::Utf8Detection::Deny);
    // Prefer the superset: GBK text is GB18030 text.
    if guess == GBK {
        guess = GB18030;
    }
    if let Some(enc) = declared_enc {
        if !is_multibyte(enc) && !is_multibyte(guess) {
            // Both single-byte: the declaration is as good a guess and tells what the writer meant.
            guess = enc;
        }
    }
    mismatch(&mut diags, guess);
    if guess
        .decode_without_bom_handling_and_without_replacement(sample)
        .is_none()
    {
        diags.push(diag(game_offset, Problem::Undecodable(guess.name())));
    }
    (mk(guess, source_for(declared_enc, guess)), diags)
}

fn diag(offset: usize, problem: Problem) -> Diagnostic {
    Diagnostic { offset, problem }
}

fn source_for(declared: Option<&'static Encoding>, used: &'static Encoding) -> CharsetSource {
    match declared {
        Some(d) if d == used || (d == GBK && used == GB18030) => CharsetSource::Declared,
        _ => CharsetSource::Detected,
    }
}

fn is_multibyte(enc: &'static Encoding) -> bool {
    [
        GB18030,
        GBK,
        BIG5,
        SHIFT_JIS,
        EUC_KR,
        UTF_8,
        encoding_rs::EUC_JP,
    ]
    .contains(&enc)
}

/// Charset labels as SGF files write them, mapped to encodings. WHATWG labels cover most; a few
/// spellings seen in archives are added.
fn lookup(label: &str) -> Option<&'static Encoding> {
    let l = label.trim().to_ascii_lowercase();
    let l = l.as_str();
    let alias = match l {
        "utf8" => "utf-8",
        "gb2312-80" | "cp936" | "gb_2312" | "euc-cn" => "gbk",
        "sjis" | "shift-jis" | "cp932" | "ms932" => "shift_jis",
        "big-5" | "cp950" => "big5",
        "cp949" | "uhc" | "ks_c_5601" => "euc-kr",
        "latin1" | "latin-1" | "iso8859-1" | "iso-8859-1" => "windows-1252",
        other => other,
    };
    let enc = Encoding::for_label(alias.as_bytes())?;
    // A UTF-16 label on an ASCII-structured file cannot be right: the file was readable as bytes.
    if enc == UTF_16LE || enc == UTF_16BE {
        return Some(UTF_8);
    }
    Some(enc)
}

/// True when most multi-byte sequences in `bytes` are valid UTF-8: text written as UTF-8 and then
/// damaged (cut characters), rather than text in another charset.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let mut good = 0usize;
    let mut bad = 0usize;
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                good += s.bytes().filter(|b| *b >= 0xc0).count();
                break;
            }
            Err(e) => {
                let (ok, after) = rest.split_at(e.valid_up_to());
                good += ok.iter().filter(|b| **b >= 0xc0).count();
                bad += 1;
                let skip = e.error_len().unwrap_or(after.len()).max(1);
                rest = &after[skip.min(after.len())..];
            }
        }
    }
    good >= 2 * bad && good > 0
}

/// If `bytes` is a UTF-16 file (by BOM, or by the NUL bytes that ASCII structure leaves in every
/// other position), returns its UTF-8 transcoding and the original encoding.
pub fn transcode_utf16(bytes: &[u8]) -> Option<(String, &'static Encoding)> {
    let enc = match bytes {
        [0xff, 0xfe, ..] => UTF_16LE,
        [0xfe, 0xff, ..] => UTF_16BE,
        _ => {
            let head = &bytes[..bytes.len().min(4096) & !1];
            if head.len() < 4 {
                return None;
            }
            let even_nul = head.iter().step_by(2).filter(|b| **b == 0).count();
            let odd_nul = head.iter().skip(1).step_by(2).filter(|b| **b == 0).count();
            let half = head.len() / 2;
            if odd_nul * 10 >= half * 6 && even_nul * 10 < half {
                UTF_16LE
            } else if even_nul * 10 >= half * 6 && odd_nul * 10 < half {
                UTF_16BE
            } else {
                return None;
            }
        }
    };
    let (text, _, _) = enc.decode(bytes);
    Some((text.into_owned(), enc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(declared: Option<&str>, text: &[u8]) -> (&'static str, usize) {
        let (c, d) = detect(
            declared.map(|s| (s.as_bytes(), 0)),
            text,
            None,
            Dialect::Sgf,
            0,
        );
        (c.encoding.name(), d.len())
    }

    #[test]
    fn utf8_wins_over_a_lying_declaration() {
        assert_eq!(pick(Some("GB2312"), "李世石".as_bytes()), ("UTF-8", 1));
        assert_eq!(pick(None, "李世石".as_bytes()), ("UTF-8", 0));
    }

    #[test]
    fn honest_declarations_are_believed() {
        let (gbk, _, _) = GBK.encode("古力 九段 对 李世石 九段");
        assert_eq!(pick(Some("GB2312"), &gbk), ("GBK", 0));
        let (big5, _, _) = BIG5.encode("周俊勳 九段");
        assert_eq!(pick(Some("Big5"), &big5), ("Big5", 0));
        let (sjis, _, _) = SHIFT_JIS.encode("本因坊秀策");
        assert_eq!(pick(Some("Shift_JIS"), &sjis), ("Shift_JIS", 0));
    }

    #[test]
    fn missing_declarations_are_detected() {
        let (gbk, _, _) = GB18030.encode("第十届农心辛拉面杯世界围棋团体锦标赛 古力 常昊 黑中盘胜");
        assert_eq!(pick(None, &gbk).0, "gb18030");
        let (kr, _, _) = EUC_KR.encode("이세돌 구단 대 이창호 구단 백 불계승");
        assert_eq!(pick(None, &kr).0, "EUC-KR");
        let (sjis, _, _) =
            SHIFT_JIS.encode("本因坊秀策 対 井上幻庵因碩 黒 中押し勝ち ですね これは");
        assert_eq!(pick(None, &sjis).0, "Shift_JIS");
    }

    #[test]
    fn broken_utf8_decodes_with_replacement_and_a_diagnostic() {
        let mut b = "野狐职业棋手精英赛".as_bytes().to_vec();
        b[4] = b'?';
        let (c, d) = detect(None, &b, None, Dialect::Sgf, 7);
        assert_eq!(c.encoding, UTF_8);
        assert!(d.iter().any(|d| d.problem == Problem::Undecodable("UTF-8")));
        assert!(c.decode(&b).contains('\u{fffd}'));
    }

    #[test]
    fn latin1_is_kept_when_declared() {
        assert_eq!(pick(Some("ISO-8859-1"), b"Jos\xe9"), ("windows-1252", 0));
    }

    #[test]
    fn utf16_files_are_found() {
        let s = "(;PB[李])";
        let le: Vec<u8> = s.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = s.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(transcode_utf16(&le).unwrap().0, s);
        assert_eq!(transcode_utf16(&be).unwrap().1, UTF_16BE);
        let mut bom = vec![0xff, 0xfe];
        bom.extend_from_slice(&le);
        assert_eq!(transcode_utf16(&bom).unwrap().0, s);
        assert!(transcode_utf16(b"(;B[aa])").is_none());
    }
}
