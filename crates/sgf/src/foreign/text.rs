//! The charset of a GIB, NGF, UGF or kifu-line file, and its text decoded line by line.
//!
//! These files name no charset, or name one by a hint that is often wrong: a GIB file's
//! `GIBOKIND=Global` stands beside EUC-KR game names (`katrain__tests__data__test.gib`), and a
//! UGF file says `Lang=SJIS` while its text is plain ASCII. Some files even mix charsets: the same
//! KaTrain file holds EUC-KR names and UTF-8 user ids. So:
//! - a file that is valid UTF-8 is UTF-8;
//! - otherwise the lines that are not valid UTF-8 decide: chardetng guesses over them; the guess
//!   is taken if it decodes all of them without error, else the hint if it does, else the guess
//!   with replacement characters (and the reader says so). The hint is thus only a fallback. "Decodes without error" alone cannot choose: Shift_JIS reads most GBK bytes as
//!   half-width katakana without complaint;
//! - each line that is valid UTF-8 is then read as UTF-8 (the mixed files), and every other line
//!   in that charset. Text in EUC-KR, GBK or Shift_JIS that happens to be valid UTF-8 is rare past
//!   two characters (their lead bytes are mostly UTF-8 continuation bytes), rarer than the mixed
//!   files this serves.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};

/// How the lines of one file are decoded.
pub(crate) struct Decoder {
    /// The file's legacy charset; `None` for a UTF-8 (or ASCII) file.
    legacy: Option<&'static Encoding>,
    /// Whether some line could not be decoded without replacement characters.
    pub lossy: bool,
    non_ascii: bool,
}

impl Decoder {
    /// Chooses the charset of `bytes`; `hint` is what the file says of itself, if anything.
    pub(crate) fn for_file(bytes: &[u8], hint: Option<&'static Encoding>) -> Decoder {
        let non_ascii = !bytes.is_ascii();
        if std::str::from_utf8(bytes).is_ok() {
            return Decoder {
                legacy: None,
                lossy: false,
                non_ascii,
            };
        }
        let bad: Vec<&[u8]> = super::lines(bytes)
            .map(|(_, l)| l)
            .filter(|l| std::str::from_utf8(l).is_err())
            .collect();
        let clean = |enc: &'static Encoding| {
            bad.iter().all(|l| {
                enc.decode_without_bom_handling_and_without_replacement(l)
                    .is_some()
            })
        };
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
        // Not biased by the hint: a wrong `Lang=SJIS` made chardetng read GBK names as EUC-JP
        // (the test below).
        let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
        let legacy = match hint {
            _ if clean(guess) => guess,
            Some(h) if h != UTF_8 && clean(h) => h,
            _ => guess,
        };
        Decoder {
            legacy: Some(legacy),
            lossy: !clean(legacy),
            non_ascii,
        }
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
            Some(enc) => match std::str::from_utf8(line) {
                Ok(text) => Cow::Borrowed(text),
                Err(_) => enc.decode_without_bom_handling(line).0,
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
        let d = Decoder::for_file("이세돌\n".as_bytes(), Some(encoding_rs::EUC_KR));
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
        let d = Decoder::for_file(&gbk, Some(encoding_rs::SHIFT_JIS));
        assert!(!d.lossy);
        assert!(d.decode(&gbk).contains("石下之臣"), "{}", d.decode(&gbk));
    }

    #[test]
    fn mixed_lines_are_each_read_in_their_own_charset() {
        let (kr, _, _) = encoding_rs::EUC_KR.encode("승강급 대국");
        let mut file = kr.to_vec();
        file.extend_from_slice("\n楷摬楳ㅭ\n".as_bytes());
        let d = Decoder::for_file(&file, Some(encoding_rs::EUC_KR));
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
