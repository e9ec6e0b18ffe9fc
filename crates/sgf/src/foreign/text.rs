//! The charset of a GIB, NGF, UGF or kifu-line file, and its text decoded line by line.
//!
//! A file may say how it is written: UGF's `Lang=SJIS`, GIB's `GIBOKIND=China`, and NGF, which
//! names nothing, by the format itself (its files are GB18030 when not ASCII). Some files mix
//! charsets: the KaTrain GIB file holds EUC-KR names and UTF-8 user ids. So:
//! - a file that is valid UTF-8 is UTF-8, but for text that reads in the declared charset and
//!   is UTF-8 by accident or declared by the file itself; UTF-8 whose text is CJK of three-byte
//!   characters stays UTF-8 whatever the file declares;
//! - otherwise the lines that are not valid UTF-8, all of them at once, decide. The declared
//!   charset is taken when it decodes every one of them without error and its reading holds no
//!   odd character ([`crate::charset::odd_chars`]: Latin symbols such as `¸´¬‚` among the
//!   letters, C1 controls). Only when nothing is declared or the declaration does not fit does
//!   chardetng guess, and a declaration that did not fit is said ([`Decoder::unfit`]). Short names
//!   are why the declaration comes first: chardetng read the Shift_JIS of サム as windows-1252
//!   (`ƒTƒ€`) and the GB18030 of 嘎代 as windows-1252 (`¸Â´ú`);
//! - a guess whose reading holds odd characters gives way to a CJK charset whose reading holds
//!   fewer ([`crate::charset::cjk_reading`]); "decodes without error" alone cannot choose, since
//!   Shift_JIS reads most GBK bytes as half-width katakana without complaint;
//! - each line that is valid UTF-8 is then read as UTF-8 (the mixed files), and every other line
//!   in that charset. Text in EUC-KR, GBK or Shift_JIS that happens to be valid UTF-8 is rare past
//!   two characters (their lead bytes are mostly UTF-8 continuation bytes), rarer than the mixed
//!   files this serves.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};

use crate::charset::{accidental_utf8, cjk_only, cjk_reading, fits, odd_chars};

/// How the lines of one file are decoded.
pub(crate) struct Decoder {
    /// The file's legacy charset; `None` for a UTF-8 (or ASCII) file.
    legacy: Option<&'static Encoding>,
    /// Whether some line could not be decoded without replacement characters.
    pub lossy: bool,
    non_ascii: bool,
    /// The declared charset, when the text did not fit it.
    unfit: Option<&'static Encoding>,
    /// Whether every line is read in `legacy`, those that are valid UTF-8 too.
    every_line: bool,
}

/// What says a file's charset: the file itself (`Lang=SJIS`), or its format (NGF's GB18030),
/// which is believed over text that is valid UTF-8 only when that is UTF-8 by accident.
#[derive(Clone, Copy)]
pub(crate) enum Declared {
    ByFile(&'static Encoding),
    ByFormat(&'static Encoding),
}

impl Declared {
    fn encoding(self) -> &'static Encoding {
        match self {
            Declared::ByFile(e) | Declared::ByFormat(e) => e,
        }
    }
}

impl Decoder {
    /// Chooses the charset of `bytes`; `declared` is what the file (or its format) says of
    /// itself, if anything.
    pub(crate) fn for_file(bytes: &[u8], declared: Option<Declared>) -> Decoder {
        let non_ascii = !bytes.is_ascii();
        let wide: Vec<u8> = super::lines(bytes)
            .map(|(_, l)| l)
            .filter(|l| !l.is_ascii())
            .flat_map(|l| l.iter().copied().chain([b'\n']))
            .collect();
        let utf8 = std::str::from_utf8(bytes).is_ok();
        let said = declared.map(|d| d.encoding()).filter(|d| *d != UTF_8);
        // Text that is valid UTF-8 is read in the declaration when it fits, only when the file
        // itself said so or the UTF-8 is of the accidental kind ([`accidental_utf8`]); then
        // every line is read in it.
        if let Some(d) = said.filter(|d| utf8 && non_ascii && fits(d, &wide)) {
            // Except text that reads as UTF-8 CJK, two characters of three bytes or more and
            // nothing else outside ASCII: legacy bytes almost never make that (one such
            // character they do: Shift_JIS 邱峻 is UTF-8 `総s`), a converted file keeping its
            // header does.
            let cjk_utf8 = std::str::from_utf8(&wide).is_ok_and(|t| {
                t.chars().filter(|&c| c as u32 >= 0x800).nth(1).is_some() && cjk_only(t)
            });
            let by_file = matches!(declared, Some(Declared::ByFile(_))) && !cjk_utf8;
            if by_file
                || std::str::from_utf8(&wide).is_ok_and(|t| accidental_utf8(t, Some(d)).is_some())
            {
                return Decoder {
                    legacy: Some(d),
                    every_line: true,
                    lossy: false,
                    non_ascii,
                    unfit: None,
                };
            }
        }
        if utf8 {
            let accidental = std::str::from_utf8(&wide)
                .ok()
                .and_then(|t| accidental_utf8(t, None));
            return Decoder {
                legacy: accidental,
                every_line: accidental.is_some(),
                lossy: false,
                non_ascii,
                unfit: said.filter(|_| accidental.is_some()),
            };
        }
        let bad: Vec<&[u8]> = super::lines(bytes)
            .map(|(_, l)| l)
            .filter(|l| std::str::from_utf8(l).is_err())
            .collect();
        // The lines read in `enc`, if all decode without error.
        let reading = |enc: &'static Encoding| -> Option<String> {
            let mut all = String::new();
            for l in &bad {
                all.push_str(&enc.decode_without_bom_handling_and_without_replacement(l)?);
                all.push('\n');
            }
            Some(all)
        };
        let clean = |enc: &'static Encoding| reading(enc).is_some();
        if let Some(d) = said {
            if reading(d).is_some_and(|t| odd_chars(&t) == 0) {
                return Decoder {
                    legacy: Some(d),
                    every_line: false,
                    lossy: false,
                    non_ascii,
                    unfit: None,
                };
            }
        }
        let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        // Only the non-ASCII runs (a space between them): the detector's cost is per byte, and
        // the ASCII around them (keys, numbers) says nothing of a CJK charset.
        for l in &bad {
            let mut rest: &[u8] = l;
            while let Some(start) = rest.iter().position(|b| !b.is_ascii()) {
                let len = rest[start..]
                    .iter()
                    .position(u8::is_ascii)
                    .unwrap_or(rest.len() - start);
                detector.feed(&rest[start..start + len], false);
                detector.feed(b" ", false);
                rest = &rest[start + len..];
            }
        }
        detector.feed(b"", true);
        // Not biased by the declaration: a wrong `Lang=SJIS` made chardetng read GBK names as
        // EUC-JP (the test below).
        let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
        let mut legacy = match said {
            _ if clean(guess) => guess,
            Some(d) if clean(d) => d,
            _ => guess,
        };
        if let Some(text) = reading(legacy) {
            let mut joined = Vec::new();
            for l in &bad {
                joined.extend_from_slice(l);
                joined.push(b'\n');
            }
            if let Some(better) = cjk_reading(&joined, odd_chars(&text)) {
                legacy = better;
            }
        }
        Decoder {
            legacy: Some(legacy),
            every_line: false,
            lossy: !clean(legacy),
            non_ascii,
            unfit: said.filter(|d| *d != legacy),
        }
    }

    /// What to say when the file declared a charset its text did not fit, `what` naming the
    /// declaration (`Lang=SJIS`); the caller reports it where the declaration stands.
    pub(crate) fn unfit(&self, what: &str) -> Option<String> {
        let used = self.legacy?;
        self.unfit.map(|d| {
            format!(
                "{what} declares {} but the text does not fit it: read as {}",
                d.name(),
                used.name()
            )
        })
    }

    /// The charset the text was found in, for the game's charset report (`None`: ASCII).
    pub(crate) fn charset(&self) -> Option<&'static Encoding> {
        match self.legacy {
            Some(enc) => Some(enc),
            None if self.non_ascii => Some(UTF_8),
            None => None,
        }
    }

    /// One line (or value) of the file as text.
    pub(crate) fn decode<'a>(&self, line: &'a [u8]) -> Cow<'a, str> {
        match self.legacy {
            None => String::from_utf8_lossy(line),
            Some(enc) if self.every_line => enc.decode_without_bom_handling(line).0,
            Some(enc) => match std::str::from_utf8(line) {
                Ok(text) if accidental_utf8(text, Some(enc)).is_none() => Cow::Borrowed(text),
                _ => enc.decode_without_bom_handling(line).0,
            },
        }
    }
}

/// The charset a file's own label names (`SJIS`, `Korea`, `GB2312`, …), if it is a known one.
pub(crate) fn hint(label: &str) -> Option<&'static Encoding> {
    let l = label.trim().to_ascii_lowercase();
    match l.as_str() {
        "korea" | "korean" | "kor" | "ko" => Some(encoding_rs::EUC_KR),
        "china" | "chinese" | "chn" | "zh" | "cn" => Some(encoding_rs::GBK),
        "japan" | "japanese" | "jpn" | "ja" | "jp" | "sjis" => Some(encoding_rs::SHIFT_JIS),
        "global" | "" => None,
        other => Encoding::for_label(other.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_files_stay_utf8() {
        let d = Decoder::for_file(
            "이세돌\n".as_bytes(),
            Some(Declared::ByFile(encoding_rs::EUC_KR)),
        );
        assert_eq!(d.charset(), Some(UTF_8));
        assert_eq!(d.decode("이세돌".as_bytes()), "이세돌");
        assert_eq!(Decoder::for_file(b"abc", None).charset(), None);
    }

    #[test]
    fn a_wrong_hint_gives_way_to_what_the_bytes_say() {
        let (gbk, _, _) = encoding_rs::GBK.encode(
            "\\[GAMEBLACKNAME=石下之臣 (9段)\\]\n\\[GAMERESULT=黑方中盘胜\\]\n\\[GAMEPLACE=弈城围棋网\\]\n",
        );
        // Shift_JIS cannot decode these bytes without error; GBK can.
        let d = Decoder::for_file(&gbk, Some(Declared::ByFile(encoding_rs::SHIFT_JIS)));
        assert!(!d.lossy);
        assert!(d.decode(&gbk).contains("石下之臣"), "{}", d.decode(&gbk));
    }

    #[test]
    fn mixed_lines_are_each_read_in_their_own_charset() {
        let (kr, _, _) = encoding_rs::EUC_KR.encode("승강급 대국");
        let mut file = kr.to_vec();
        file.extend_from_slice("\n楷摬楳ㅭ\n".as_bytes());
        let d = Decoder::for_file(&file, Some(Declared::ByFile(encoding_rs::EUC_KR)));
        assert_eq!(d.charset(), Some(encoding_rs::EUC_KR));
        assert_eq!(d.decode(&kr), "승강급 대국");
        assert_eq!(d.decode("楷摬楳ㅭ".as_bytes()), "楷摬楳ㅭ");
    }

    #[test]
    fn labels_name_charsets() {
        assert_eq!(hint("SJIS"), Some(encoding_rs::SHIFT_JIS));
        assert_eq!(hint("Korea"), Some(encoding_rs::EUC_KR));
        assert_eq!(hint("China"), Some(encoding_rs::GBK));
        assert_eq!(hint("Global"), None);
        assert_eq!(hint("utf-8"), Some(UTF_8));
    }
}
