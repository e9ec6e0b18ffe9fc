//! Names read back exactly from the charsets and layouts the servers write.
//!
//! Real players' names are taken from the shared Fox set (its `PB[]`/`PW[]` values, intact UTF-8,
//! two to five characters: short names are the hard case), re-encoded into each server's
//! charset and laid out as its files are (Pandanet UGF in Shift_JIS under `Lang=SJIS`, WBaduk NGF
//! in GB18030, Tygem GIB in GBK under `GIBOKIND=China` and EUC-KR under `GIBOKIND=Korea`, Fox SGF
//! with characters broken by `?`), one game per name against an ASCII opponent so that the name is
//! the file's only text that is not ASCII. Every name must come back as it was written.

use std::collections::BTreeSet;

use encoding_rs::{Encoding, EUC_KR, GB18030, GBK, SHIFT_JIS};
use sgf::{ids, Records};
use testdata::dataset;

/// The distinct `PB[]`/`PW[]` values of the Fox set that are intact UTF-8 of two to five
/// characters, at least one of them not ASCII, and no `?`, `\` or space.
fn fox_names() -> Option<Vec<String>> {
    let root = dataset("fox-pro")?;
    let mut names = BTreeSet::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            for key in [&b"PB["[..], b"PW["] {
                let Some(at) = memchr::memmem::find(&bytes, key) else {
                    continue;
                };
                let value = &bytes[at + 3..];
                let Some(end) = memchr::memchr(b']', value) else {
                    continue;
                };
                let Ok(name) = std::str::from_utf8(&value[..end]) else {
                    continue;
                };
                let n = name.chars().count();
                if (2..=5).contains(&n)
                    && !name.is_ascii()
                    && !name.contains(['?', '\\', ' ', '\u{fffd}'])
                {
                    names.insert(name.to_string());
                }
            }
        }
    }
    Some(names.into_iter().collect())
}

/// `name` in `enc`, if every character has a code there.
fn encode(enc: &'static Encoding, name: &str) -> Option<Vec<u8>> {
    let (bytes, _, lossy) = enc.encode(name);
    (!lossy).then(|| bytes.into_owned())
}

/// The names each test uses: the Fox names that `enc` can write and that `keep` accepts, then
/// the issue's own examples.
fn names_in(
    enc: &'static Encoding,
    keep: impl Fn(&str) -> bool,
    extra: &[&str],
) -> Option<Vec<(String, Vec<u8>)>> {
    let mut out: Vec<(String, Vec<u8>)> = fox_names()?
        .into_iter()
        .filter(|n| keep(n))
        .filter_map(|n| encode(enc, &n).map(|b| (n, b)))
        .collect();
    for n in extra {
        out.push((n.to_string(), encode(enc, n).unwrap()));
    }
    Some(out)
}

/// The black player's name of the one game `file` holds.
fn black(file: &[u8]) -> String {
    let records = Records::read(file);
    let tree = records.game(0).unwrap();
    tree.root()
        .get(ids::PB)
        .map(|p| p.text().into_owned())
        .unwrap_or_default()
}

/// Checks every name and fails with the ones read wrong, and how many there were.
fn check(what: &str, names: &[(String, Vec<u8>)], layout: impl Fn(&[u8]) -> Vec<u8>) {
    assert!(names.len() > 20, "{what}: only {} names", names.len());
    let wrong: Vec<String> = names
        .iter()
        .filter_map(|(name, bytes)| {
            let got = black(&layout(bytes));
            (got != *name).then(|| format!("{name} → {got}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{what}: {} of {} names read wrong: {}",
        wrong.len(),
        names.len(),
        wrong.join(", ")
    );
}

fn has_kana(name: &str) -> bool {
    name.chars().any(|c| ('\u{3040}'..='\u{30ff}').contains(&c))
}

fn has_hangul(name: &str) -> bool {
    name.chars().any(|c| ('\u{ac00}'..='\u{d7af}').contains(&c))
}

/// Pandanet UGF: `Lang=SJIS` says the names are Shift_JIS, short ones included.
#[test]
fn ugf_shift_jis_names_under_lang_sjis() {
    let Some(names) = names_in(
        SHIFT_JIS,
        |n| !has_hangul(n),
        &["小小羊4", "でぇもん", "サム"],
    ) else {
        return;
    };
    check("UGF", &names, |name| {
        let mut f = b"[Header]\r\nVer=UGF3,200\r\nLang=SJIS\r\nTitle=2019,PANDA-NET,\r\n\
            Place=PANDA-NET\r\nDate=2019/03/08,22:09:00,2019/03/09,07:16:59\r\nRule=JPN\r\n\
            Size=19\r\nHdcp=0,6.50\r\nWinner=B,C\r\nCoordinateType=IGS\r\nPlayerB="
            .to_vec();
        f.extend_from_slice(name);
        f.extend_from_slice(b",3d,,\r\nPlayerW=YINNI,8d,,\r\n[Data]\r\nQP,B1,1,0\r\nDP,W1,2,0\r\n");
        f
    });
}

/// WBaduk NGF: GB18030 names, the format's charset, though the file names none.
#[test]
fn ngf_gb18030_names() {
    let Some(names) = names_in(
        GB18030,
        |n| !has_hangul(n) && !has_kana(n),
        &["嘎代", "酷的想自杀", "果V康康"],
    ) else {
        return;
    };
    check("NGF", &names, |name| {
        let mut f = b"Rated game\r\n19\r\nLQC         9DP\r\n".to_vec();
        f.extend_from_slice(name);
        f.extend_from_slice(
            b"         5D\r\nwww.cyberoro.com\r\n0\r\n0\r\n7\r\n20170316 [09:37]\r\n5\r\n\
              Black wins by resignation!\r\n2\r\nPMABBREER\r\nPMACWEEEE\r\n",
        );
        f
    });
}

fn gib(kind: &str, name: &[u8]) -> Vec<u8> {
    let mut f = format!(
        "\\HS\r\n\\[GIBOKIND={kind}\\]\r\n\\[GAMEWHITENAME=harpmaster (3D)\\]\r\n\\[GAMEBLACKNAME="
    )
    .into_bytes();
    f.extend_from_slice(name);
    f.extend_from_slice(
        b" (2D)\\]\r\n\\[GAMEINFOMAIN=GBKIND:5,GTYPE:0,GRLT:3,ZIPSU:0,GONGJE:65\\]\r\n\\HE\r\n\
          \\GS\r\nINI 0 1 0 &4\r\nSTO 0 2 1 15 3\r\nSTO 0 3 2 3 15\r\n\\GE\r\n",
    );
    f
}

/// Tygem GIB: GBK names under `GIBOKIND=China`, EUC-KR under `GIBOKIND=Korea`.
#[test]
fn gib_names_in_the_charset_gibokind_names() {
    let Some(chinese) = names_in(GBK, |n| !has_hangul(n) && !has_kana(n), &[]) else {
        return;
    };
    check("GIB China", &chinese, |name| gib("China", name));
    let korean = names_in(EUC_KR, has_hangul, &[]).unwrap();
    check("GIB Korea", &korean, |name| gib("Korea", name));
}

/// Fox SGF: UTF-8 with bytes replaced by `?`, the only text of the file that is not ASCII: one
/// character with all its continuation bytes replaced, the last with one. The name must read
/// as its bytes do in UTF-8, broken characters as U+FFFD, never in a Latin or Cyrillic charset.
#[test]
fn fox_names_broken_by_question_marks_stay_utf8() {
    let Some(names) = fox_names() else { return };
    let names: Vec<(String, Vec<u8>)> = names
        .iter()
        .filter(|n| n.chars().count() >= 3 && n.chars().all(|c| c.len_utf8() == 3))
        .map(|n| {
            let mut b = n.as_bytes().to_vec();
            b[1] = b'?';
            b[2] = b'?';
            let last = b.len() - 1;
            b[last] = b'?';
            (String::from_utf8_lossy(&b).into_owned(), b)
        })
        .collect();
    check("Fox", &names, |name| {
        let mut f = b"(;GM[1]FF[4]  SZ[19]  DT[2013-09-08]  PB[".to_vec();
        f.extend_from_slice(name);
        f.extend_from_slice(b"]  PW[worsag]  KM[650]RE[B+R]  ;B[dp];W[cd])");
        f
    });
}

/// A GIB whose names are UTF-8 (a converted file that kept its `GIBOKIND=China` header) reads
/// them as UTF-8: most UTF-8 Han reads cleanly in GBK too (井山裕太 as `浜曞北瑁曞お`), but two
/// characters of three bytes in CJK scripts alone are not what legacy bytes make.
#[test]
fn utf8_names_under_a_legacy_gibokind_stay_utf8() {
    let names: Vec<(String, Vec<u8>)> = ["井山裕太", "古力", "常昊", "芝野虎丸", "申真谞", "柯洁"]
        .iter()
        .map(|n| (n.to_string(), n.as_bytes().to_vec()))
        .collect();
    let wrong: Vec<String> = names
        .iter()
        .filter_map(|(name, bytes)| {
            let got = black(&gib("China", bytes));
            (got != *name).then(|| format!("{name} → {got}"))
        })
        .collect();
    assert!(wrong.is_empty(), "read wrong: {}", wrong.join(", "));
}
