//! Which charset a game's text is in: `CA[]` when it tells the truth, detection when it lies.
//!
//! Archives in the wild carry GBK text under `CA[UTF-8]`, UTF-8 under no `CA` at all, Shift_JIS
//! under `CA[ISO-8859-1]`, and UTF-8 broken by a server that cut multi-byte characters in half. The
//! rules, in order:
//! 1. a file transcoded from UTF-16 before parsing is UTF-8 now; its original charset is reported;
//! 2. text that is pure ASCII needs no decision (ISO-2022-JP, which is 7-bit, is checked first);
//! 3. text that is valid UTF-8 is UTF-8, whatever `CA` says, but for UTF-8 by accident: legacy
//!    CJK bytes that happen to be two-byte UTF-8 sequences, taken in the declared CJK charset
//!    when it fits, or when nothing is declared and the UTF-8 reading mixes scripts, in a CJK
//!    one that fits ([`accidental_utf8`]);
//! 4. a declared multi-byte charset (GB18030, Big5, Shift_JIS, EUC-KR, …) that decodes without an
//!    error is believed;
//! 5. text that is mostly valid UTF-8, or declared UTF-8, is UTF-8 decoded with replacement
//!    characters, and a diagnostic says how many sequences were bad and where the first was.
//!    "Mostly" is measured (see [`Utf8Evidence`]): a character with one byte replaced by `?` (the
//!    Fox server's damage) counts for UTF-8, any other bad sequence against it;
//! 6. otherwise chardetng (Firefox's detector) guesses from the bytes, starting from the declared
//!    charset when it is a single-byte one that the guess agrees with; a guess whose reading is
//!    full of odd symbols (`¸Â´ú`) gives way to a CJK charset that reads the same bytes cleanly
//!    in CJK scripts alone ([`cjk_reading`]).
//!
//! Decoding uses encoding_rs; nothing here hand-decodes a charset.

use std::borrow::Cow;

use encoding_rs::{Encoding, BIG5, EUC_KR, GB18030, GBK, SHIFT_JIS, UTF_16BE, UTF_16LE, UTF_8};

use crate::diag::{Diagnostic, Problem};
use crate::scan::{find_tree_start, Dialect};

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

/// The non-ASCII text values of a game, one after another (each followed by a line break), and
/// where each lies in the file, so that a problem found in the sample is reported at its byte.
#[derive(Default)]
pub(crate) struct Sample {
    bytes: Vec<u8>,
    /// (start in `bytes`, offset in the file) of each value.
    starts: Vec<(usize, usize)>,
}

impl Sample {
    pub(crate) fn push(&mut self, value: &[u8], file_offset: usize) {
        self.starts.push((self.bytes.len(), file_offset));
        self.bytes.extend_from_slice(value);
        self.bytes.push(b'\n');
    }

    /// The file offset of byte `i` of the sample.
    fn file_offset(&self, i: usize) -> usize {
        let k = self.starts.partition_point(|s| s.0 <= i);
        match k.checked_sub(1).map(|k| self.starts[k]) {
            Some((start, file)) => file + (i - start),
            None => 0,
        }
    }
}

/// Finds the charset for a game whose non-ASCII text values are `sample`.
pub(crate) fn detect(
    declared: Option<(&[u8], usize)>,
    sample: &Sample,
    file_charset: Option<&'static Encoding>,
    count_replacements: bool,
    dialect: Dialect,
    game_offset: usize,
) -> (Charset, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mk = |encoding, source| Charset {
        encoding,
        source,
        original: None,
    };
    let undecodable = |diags: &mut Vec<Diagnostic>, enc: &'static Encoding, shown: &'static str| {
        if let Some((bad, first)) = malformed(enc, &sample.bytes) {
            let offset = sample.file_offset(first);
            diags.push(diag(
                offset,
                Problem::Undecodable {
                    charset: shown,
                    bad,
                },
            ));
        }
    };
    let text = sample.bytes.as_slice();
    if let Some(original) = file_charset {
        let c = Charset {
            encoding: UTF_8,
            source: CharsetSource::FileLevel,
            original: Some(original),
        };
        // The transcoding already replaced what did not decode; its replacement characters are
        // what was bad in the original.
        let bad = std::str::from_utf8(text).map_or(0, |t| t.matches('\u{fffd}').count());
        if bad > 0 && count_replacements {
            let first = text
                .windows(3)
                .position(|w| w == "\u{fffd}".as_bytes())
                .unwrap_or(0);
            let offset = sample.file_offset(first);
            diags.push(diag(
                offset,
                Problem::Undecodable {
                    charset: original.name(),
                    bad,
                },
            ));
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

    if text.contains(&0x1b) {
        let jis = encoding_rs::ISO_2022_JP;
        if jis
            .decode_without_bom_handling_and_without_replacement(text)
            .is_some()
        {
            return (mk(jis, source_for(declared_enc, jis)), diags);
        }
    }
    if text.is_empty() {
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
    if let Ok(utf8) = std::str::from_utf8(text) {
        if let Some(enc) = accidental_utf8(utf8, declared_or_default) {
            mismatch(&mut diags, enc);
            return (mk(enc, source_for(declared_enc, enc)), diags);
        }
        mismatch(&mut diags, UTF_8);
        return (mk(UTF_8, source_for(declared_enc, UTF_8)), diags);
    }
    if let Some(enc) = declared_or_default {
        if enc != UTF_8
            && is_multibyte(enc)
            && enc
                .decode_without_bom_handling_and_without_replacement(text)
                .is_some()
        {
            return (mk(enc, source_for(declared_enc, enc)), diags);
        }
    }
    if declared_enc == Some(UTF_8) || Utf8Evidence::of(text).mostly_utf8() {
        mismatch(&mut diags, UTF_8);
        undecodable(&mut diags, UTF_8, "UTF-8");
        return (mk(UTF_8, source_for(declared_enc, UTF_8)), diags);
    }
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    det.feed(text, true);
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
    // Short text fools the detector; a reading full of odd symbols gives way to a CJK one.
    let odd = odd_chars(&guess.decode_without_bom_handling(text).0);
    if let Some(better) = cjk_reading(text, odd) {
        guess = better;
    }
    mismatch(&mut diags, guess);
    undecodable(&mut diags, guess, guess.name());
    (mk(guess, source_for(declared_enc, guess)), diags)
}

/// How many sequences of `bytes` do not decode in `enc`, and where the first one starts; `None`
/// when all decode.
fn malformed(enc: &'static Encoding, bytes: &[u8]) -> Option<(usize, usize)> {
    use encoding_rs::DecoderResult;
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut out = [0u8; 1024];
    let (mut pos, mut bad, mut first) = (0, 0, None);
    loop {
        let (result, read, _) =
            decoder.decode_to_utf8_without_replacement(&bytes[pos..], &mut out, true);
        pos += read;
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(len, after) => {
                bad += 1;
                first.get_or_insert(pos - len as usize - after as usize);
            }
        }
    }
    first.map(|f| (bad, f))
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

/// What the bytes of a text say about it being UTF-8: text written as UTF-8 and then damaged,
/// rather than text in another charset.
///
/// Measured on the shared datasets (`tests/charsets.rs`): the broken Fox games hold at least as
/// many intact multi-byte sequences as bad ones, and every bad one is a character with one byte
/// replaced by `?` (`E5 3F 83`, `E5 AD 3F`); the GBK, Big5, Shift_JIS, EUC-KR, Latin-1 and
/// Windows-125x files hold at most one intact sequence for every four bad ones, and their bad
/// ones are not `?` holes. The rule below sits between the two.
#[derive(Debug, Default, PartialEq, Eq)]
struct Utf8Evidence {
    /// Valid multi-byte sequences.
    intact: usize,
    /// Multi-byte characters with bytes replaced by `?` (the lead, or one or more continuation
    /// bytes), what a server does with a byte it cannot pass on.
    holes: usize,
    /// Every other invalid sequence.
    broken: usize,
}

impl Utf8Evidence {
    fn of(b: &[u8]) -> Utf8Evidence {
        let is_cont = |x: u8| (0x80..0xc0).contains(&x);
        let mut e = Utf8Evidence::default();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c == b'?' {
                // A lead byte replaced by `?`: the continuation bytes are left after it.
                let conts = b[i + 1..]
                    .iter()
                    .take(3)
                    .take_while(|x| is_cont(**x))
                    .count();
                e.holes += (conts > 0) as usize;
                i += 1 + conts;
                continue;
            }
            if c < 0x80 {
                i += 1;
                continue;
            }
            let n = match c {
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf4 => 4,
                _ => 0,
            };
            let seq = &b[i..(i + n).min(b.len())];
            if n == 0 || seq.len() < n {
                e.broken += 1;
                i += 1;
            } else if std::str::from_utf8(seq).is_ok() {
                e.intact += 1;
                i += n;
            } else if is_hole(seq) {
                e.holes += 1;
                i += n;
            } else {
                e.broken += 1;
                i += 1 + seq[1..].iter().take_while(|x| is_cont(**x)).count();
            }
        }
        e
    }

    /// Mostly valid UTF-8: some intact sequences, holes (which only UTF-8 damaged by `?` makes)
    /// and at most one other bad sequence for every two intact ones.
    fn mostly_utf8(&self) -> bool {
        self.intact > 0 && 2 * self.broken <= self.intact
    }
}

/// Whether `seq` (a lead byte and as many bytes as it needs) is a valid character but for some
/// of its continuation bytes being `?`: one (`E5 AD 3F`) or all (`E5 3F 3F`, seen in a Fox name
/// whose only other character was intact, `х??хИИчЇ` when a lone `?`-hole was the rule).
fn is_hole(seq: &[u8]) -> bool {
    if !seq[1..].contains(&b'?') {
        return false;
    }
    // The byte a `?` stood for is unknown; any one that makes the sequence valid will do.
    [0x80u8, 0x90, 0xa0].iter().any(|&stand_in| {
        let mut s = [0u8; 4];
        for (d, b) in s.iter_mut().zip(seq) {
            *d = if *b == b'?' { stand_in } else { *b };
        }
        std::str::from_utf8(&s[..seq.len()]).is_ok()
    })
}

/// How many characters of a reading a text written in that charset would seldom hold: U+FFFD,
/// C1 controls, and symbols that are not letters (`¸´¬‚¥€×±`) outside the CJK punctuation
/// and full-width blocks, each counted only beside another character that is not ASCII. A
/// legacy CJK text read in a single-byte charset is full of them, every character of it becoming
/// two non-ASCII ones: 嘎代 in GB18030 read as windows-1252 is `¸Â´ú` (two), サム in Shift_JIS
/// is `ƒTƒ€` (one), 小小羊4 read as windows-1251 is `Џ¬Џ¬—r4` (two: the dash is one CJK text
/// holds too). The same bytes read in their own charset hold none, and neither do real names:
/// the middle dot of transliterated names (`·`, U+00B7) and the Latin letters of European names
/// are not counted, nor a lone symbol between ASCII characters (sgfmill's test `C[£]`).
pub(crate) fn odd_chars(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let odd = |c: char| {
        let u = c as u32;
        if c.is_ascii() {
            return false;
        }
        let cjk_marks = (0x3000..=0x303f).contains(&u) // CJK symbols and punctuation
            || (0xff00..=0xffef).contains(&u) // full-width and half-width forms
            || matches!(u, 0xb7 | 0x2014..=0x2016 | 0x2018 | 0x2019 | 0x201c | 0x201d | 0x2025 | 0x2026);
        c == '\u{fffd}' || c.is_control() || !(c.is_alphanumeric() || cjk_marks)
    };
    let wide = |i: Option<usize>| i.and_then(|i| chars.get(i)).is_some_and(|c| !c.is_ascii());
    (0..chars.len())
        .filter(|&i| odd(chars[i]) && (wide(i.checked_sub(1)) || wide(Some(i + 1))))
        .count()
}

/// The CJK charsets a text may be in when the detector's reading of it is odd, in the order a
/// tie is settled: GB18030 first (most Go records are Chinese), then Big5, Shift_JIS, EUC-KR.
const CJK: [&Encoding; 4] = [GB18030, BIG5, SHIFT_JIS, EUC_KR];

/// The CJK charset whose reading of `bytes` decodes without error, holds no odd character
/// ([`odd_chars`]) and is in CJK scripts only ([`cjk_only`]), when the reading it would replace
/// holds `odd` > 0; ties go to the first of [`CJK`].
///
/// Why: on short text chardetng's guess is often a single-byte charset (the GB18030 of
/// 酷的想自杀 as windows-1251, `¿áµÄÏë×ÔÉ±`, three odd characters; the Shift_JIS of でぇもん as
/// windows-1252, `‚Å‚¥‚à‚ñ`, five), while real Latin-1 and Cyrillic names read in their own
/// charset hold none, so they never give way (`tests::legacy_charsets_are_not_broken_utf8`).
pub(crate) fn cjk_reading(bytes: &[u8], odd: usize) -> Option<&'static Encoding> {
    if odd == 0 {
        return None;
    }
    CJK.into_iter().find(|enc| {
        enc.decode_without_bom_handling_and_without_replacement(bytes)
            .is_some_and(|text| odd_chars(&text) == 0 && cjk_only(&text))
    })
}

/// Whether every character of `text` that is not ASCII is of a CJK script: Han, kana, Hangul, or
/// the CJK punctuation and full-width forms. Not half-width katakana: Shift_JIS reads most single
/// bytes `A1`–`DF` as those, UTF-8's `¥` (`C2 A5`) as `ﾂ･` (sgfc's `mixed-encoding.source`).
pub(crate) fn cjk_only(text: &str) -> bool {
    text.chars().filter(|c| !c.is_ascii()).all(|c| {
        matches!(c as u32,
            0x1100..=0x11ff // Hangul jamo
            | 0x2e80..=0x9fff // radicals, CJK punctuation, kana, compatibility jamo, Han
            | 0xac00..=0xd7af // Hangul syllables
            | 0xf900..=0xfaff // compatibility ideographs
            | 0xff00..=0xff60 | 0xffe0..=0xffef // full-width forms
            | 0x20000..=0x3ffff) // Han, extensions
            || matches!(c, '·' | '—' | '‖' | '‘' | '’' | '“' | '”' | '‥' | '…')
    })
}

/// Whether `enc` reads `bytes` as a text in its own script could be: without error, with no odd
/// character ([`odd_chars`]) and, for a multi-byte charset, in CJK scripts only.
pub(crate) fn fits(enc: &'static Encoding, bytes: &[u8]) -> bool {
    enc.decode_without_bom_handling_and_without_replacement(bytes)
        .is_some_and(|t| odd_chars(&t) == 0 && (!is_multibyte(enc) || cjk_only(&t)))
}

/// For `text`, valid UTF-8, the CJK charset it is more likely written in: `declared` when the
/// text may be UTF-8 by accident and `declared` fits it, else (nothing declared) the first of
/// [`CJK`] that fits when the UTF-8 reading mixes scripts.
///
/// UTF-8 by accident: legacy CJK bytes make valid UTF-8 only as two-byte sequences (a lead
/// `C2`–`DF` then one byte `80`–`BF`) in all but rare cases, and read so they mix letters of
/// unrelated scripts: GB18030's 喜越 is UTF-8's `ϲԽ` (Greek, Armenian), 什么1 is `ʲô1`; a
/// three-byte sequence is what CJK text in UTF-8 is made of. So text holding one is UTF-8.
pub(crate) fn accidental_utf8(
    text: &str,
    declared: Option<&'static Encoding>,
) -> Option<&'static Encoding> {
    if text.chars().any(|c| c as u32 >= 0x800) || text.is_ascii() {
        return None;
    }
    match declared {
        Some(d) if d != UTF_8 => Some(d).filter(|d| is_multibyte(d) && fits(d, text.as_bytes())),
        Some(_) => None,
        None if mixed_scripts(text) => CJK.into_iter().find(|enc| fits(enc, text.as_bytes())),
        None => None,
    }
}

/// Whether `text` holds odd characters, or two letters of different scripts side by side outside
/// ASCII (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, or any other block below U+0800 as
/// one). Side by side, in one run of non-ASCII characters, because that is how legacy CJK bytes
/// read as UTF-8 look (喜越 as `ϲԽ`, 什么 as `ʲô`), while a file of real names may hold a Latin
/// name and a Cyrillic one (`Jörg`, `Иван`) without being anything but UTF-8.
fn mixed_scripts(text: &str) -> bool {
    let script = |c: char| match c as u32 {
        0x80..=0x24f => 0,
        0x370..=0x3ff => 1,
        0x400..=0x52f => 2,
        0x530..=0x58f => 3,
        0x590..=0x5ff => 4,
        0x600..=0x6ff => 5,
        _ => 6,
    };
    if odd_chars(text) > 0 {
        return true;
    }
    let mut last: Option<u8> = None;
    for c in text.chars() {
        if c.is_ascii() {
            last = None;
        } else if c.is_alphabetic() {
            let s = script(c);
            if last.is_some_and(|l| l != s) {
                return true;
            }
            last = Some(s);
        }
    }
    false
}

/// If `bytes` is a UTF-16 file (by BOM, or by the NUL bytes that ASCII structure leaves in every
/// other position), returns its UTF-8 transcoding and the original encoding.
///
/// NUL bytes alone do not make UTF-16: a text value may hold any bytes, NULs included (qipu's own
/// output keeps them), so a file whose game tree opens as 8-bit bytes before its first NUL, or
/// whose `CA[]` is readable as 8-bit bytes and names a charset the file decodes in, is read as it
/// declares, never as UTF-16.
pub fn transcode_utf16(bytes: &[u8]) -> Option<(String, &'static Encoding)> {
    let enc = match bytes {
        [0xff, 0xfe, ..] => UTF_16LE,
        [0xfe, 0xff, ..] => UTF_16BE,
        _ => {
            let head = &bytes[..bytes.len().min(4096) & !1];
            if head.len() < 4 || is_eight_bit_sgf(bytes, head) {
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

/// Whether the file shows SGF structure as 8-bit bytes: a tree opening (`(;`) before its first NUL,
/// or a `CA[]` in its first 4 KiB naming a charset other than UTF-16 that the whole file decodes in.
fn is_eight_bit_sgf(bytes: &[u8], head: &[u8]) -> bool {
    let before_nul = &head[..memchr::memchr(0, head).unwrap_or(head.len())];
    if find_tree_start(before_nul).is_some() {
        return true;
    }
    memchr::memmem::find_iter(head, b"CA[").any(|i| {
        let label = &head[i + 3..];
        let Some(end) = memchr::memchr(b']', label) else {
            return false;
        };
        let Ok(label) = std::str::from_utf8(&label[..end]) else {
            return false;
        };
        let enc = Encoding::for_label(label.trim().as_bytes()).or_else(|| lookup(label));
        enc.is_some_and(|e| {
            e != UTF_16LE
                && e != UTF_16BE
                && e.decode_without_bom_handling_and_without_replacement(bytes)
                    .is_some()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &[u8]) -> Sample {
        let mut s = Sample::default();
        s.push(text, 100);
        s
    }

    fn pick(declared: Option<&str>, text: &[u8]) -> (&'static str, usize) {
        let (c, d) = detect(
            declared.map(|s| (s.as_bytes(), 0)),
            &sample(text),
            None,
            true,
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
        let (c, d) = detect(None, &sample(&b), None, true, Dialect::Sgf, 7);
        assert_eq!(c.encoding, UTF_8);
        // 0xe9 0x87 0x8e, then 0xe7 '?' 0x90: two bad sequences, the first at byte 3 + 100.
        let want = Problem::Undecodable {
            charset: "UTF-8",
            bad: 2,
        };
        assert_eq!(d, vec![diag(103, want)]);
        assert!(c.decode(&b).contains('\u{fffd}'));
    }

    /// Fox's damage: short names whose characters have a byte replaced by `?`, more of them broken
    /// than intact (7p/1428128502019999836.sgf of the shared fox-pro set: its sample, verbatim).
    /// chardetng calls this windows-1252.
    #[test]
    fn utf8_with_bytes_replaced_by_question_marks_is_utf8() {
        let b = b"\xe5?\x83\xe5\x96?\xe7\x8e\xa9\xe4\xb9?\n\xe7\x8e\x8b\xe5\x85\x83\xe5?\x87\n9\xe6\xae\xb5\nP7\xe6\xae\xb5\n";
        let e = Utf8Evidence::of(b);
        assert_eq!(
            e,
            Utf8Evidence {
                intact: 5,
                holes: 4,
                broken: 0
            }
        );
        let (c, d) = detect(None, &sample(b), None, true, Dialect::Sgf, 0);
        assert_eq!(c.encoding, UTF_8);
        assert!(matches!(
            d[..],
            [Diagnostic {
                offset: 100,
                problem: Problem::Undecodable { bad: 6, .. }
            }]
        ));
        assert_eq!(c.decode("\u{738b}\u{5143}".as_bytes()), "王元");
        // Lead byte replaced: `?` then the continuation bytes.
        assert_eq!(pick(None, b"?\xb0\x8f\xe7\x8e\x8b\xe7\x8e\x8b").0, "UTF-8");
    }

    /// The Fox name: a character with both continuation bytes replaced by `?`, one intact,
    /// one with its last byte replaced, and nothing else that is not ASCII (read as ISO-8859-5,
    /// `х??хИИчЇ?`, when only one `?` made a hole).
    #[test]
    fn names_of_two_scripts_apart_stay_utf8() {
        // A Latin name and a Cyrillic one in one file are UTF-8, not GB18030 read wrongly
        // (`J枚rg 袠胁邪薪`); letters of two scripts side by side are the accidental kind.
        assert_eq!(accidental_utf8("PB[Jörg]PW[Иван]", None), None);
        assert!(accidental_utf8("PB[ϲԽ]", None).is_some());
    }

    #[test]
    fn a_character_with_all_its_continuation_bytes_replaced_is_a_hole() {
        let b = b"\xe5??\xe5\xb8\xb8\xe7\xa7?\n";
        let e = Utf8Evidence::of(b);
        assert_eq!((e.intact, e.holes, e.broken), (1, 2, 0));
        assert_eq!(pick(None, b).0, "UTF-8");
    }

    /// Short CJK names that chardetng reads in a single-byte charset, and legacy bytes that are
    /// UTF-8 by accident, read in the CJK charset whose reading holds no odd symbol.
    #[test]
    fn odd_readings_give_way_to_cjk_ones() {
        let (b, _, _) = GB18030.encode("酷的想自杀");
        assert_eq!(pick(None, &b).0, "gb18030");
        let (b, _, _) = GB18030.encode("什么1");
        assert!(std::str::from_utf8(&b).is_ok());
        assert_eq!(pick(None, &b).0, "gb18030");
        assert_eq!(pick(Some("GB2312"), &b).0, "GBK");
        // Real European and Cyrillic names keep their charset.
        assert_eq!(odd_chars("José Müller · Иванов"), 0);
        assert_eq!(pick(None, "Müller".as_bytes()).0, "UTF-8");
    }

    /// Real single-byte and double-byte text is not mistaken for broken UTF-8, short names
    /// included, nor when it holds a `?`.
    #[test]
    fn legacy_charsets_are_not_broken_utf8() {
        for text in ["José Müller", "Ça va? Très bien", "Hervé?"] {
            let (l1, _, _) = encoding_rs::WINDOWS_1252.encode(text);
            assert!(!Utf8Evidence::of(&l1).mostly_utf8(), "{text}");
            // chardetng may name windows-1250 for so short a text: é is the same byte there.
            let (c, _) = detect(None, &sample(&l1), None, true, Dialect::Sgf, 0);
            assert_eq!(c.decode(&l1), text);
        }
        for (enc, text) in [
            (GBK, "古力 对 柯洁?"),
            (GBK, "常昊"),
            (BIG5, "周俊勳"),
            (SHIFT_JIS, "井山裕太"),
            (EUC_KR, "이세돌"),
            (encoding_rs::WINDOWS_1251, "Иванов Пётр"),
        ] {
            let (bytes, _, _) = enc.encode(text);
            assert!(!Utf8Evidence::of(&bytes).mostly_utf8(), "{text}");
        }
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
        // NUL bytes in every other position of an 8-bit record: its tree opens before the first
        // NUL, or its `CA[]` names a charset it decodes in.
        let nuls = "a\0".repeat(500);
        assert!(transcode_utf16(format!("(;FF[4]CA[UTF-8]C[{nuls}])").as_bytes()).is_none());
        assert!(transcode_utf16(format!("\0{nuls}(;CA[UTF-8]C[{nuls}])").as_bytes()).is_none());
        // A UTF-16 file's own `CA[]` is not readable as 8-bit bytes.
        let declared: Vec<u8> = "(;CA[UTF-16]PB[李])"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        assert_eq!(transcode_utf16(&declared).unwrap().1, UTF_16LE);
    }
}
