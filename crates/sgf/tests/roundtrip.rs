//! Write → read is the identity: whatever text a game holds, `to_sgf` writes a record that reads
//! back as the same tree with the same text in every value, and `to_wtf` one that reads back with
//! the same text wherever the Weiqi Text Format can carry it.

use proptest::prelude::*;
use sgf::value::escape;
use sgf::write::{to_sgf, to_wtf};
use sgf::{ids, GameTree, Records};

/// Every value of every property, decoded, node by node. The root's `FF` and `CA` are left out
/// (the writer sets them), and so is its `GM` when `without_gm` (the writer adds `GM[1]` to a
/// root that has none).
fn texts(tree: &GameTree<'_>, without_gm: bool) -> Vec<Vec<(String, Vec<String>)>> {
    tree.nodes()
        .map(|n| {
            n.props()
                .filter(|p| {
                    let set = [ids::FF, ids::CA];
                    !(n.parent().is_none()
                        && (set.contains(&p.id()) || without_gm && p.id() == ids::GM))
                })
                .map(|p| {
                    let values = p.texts().into_iter().map(|t| t.into_owned()).collect();
                    (p.name(), values)
                })
                .collect()
        })
        .collect()
}

/// Text as hostile as a record can hold: any characters, and runs of what confuses readers —
/// NUL bytes (alone, in runs, between letters as in UTF-16), control characters, line breaks,
/// SGF's reserved characters, U+FFFD, a BOM.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<String>(),
        "[\\x00-\\x1f\\x7f]{0,8}",
        "(\\x00{1,64})",
        "(a\\x00){1,2100}",
        "(\\x00a){1,2100}",
        "[\\\\\\]\\[:;()]{1,6}",
        "(\\r\\n|\\n\\r|\\r|\\n|\\\\\\n){1,4}",
        "[李维清陈耀烨连笑박정환井山裕太éü€\u{fffd}\u{feff}]{1,8}",
    ];
    prop::collection::vec(piece, 0..6).prop_map(|v| v.concat())
}

/// A game with `t` in names, comments (root and move), a custom property and a label.
fn record(t: &[String; 4]) -> String {
    let e = |s: &str| escape(s, false).into_owned();
    format!(
        "(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[{}]GN[{}]C[{}]XZ[{}];B[pd]C[{}]LB[dd:{}];W[dp])",
        e(&t[0]),
        e(&t[1]),
        e(&t[2]),
        e(&t[3]),
        e(&t[3]),
        escape(&t[0], true)
    )
}

fn sgf_reads_back(data: &[u8]) -> Result<(), TestCaseError> {
    let records = Records::read(data);
    prop_assert_eq!(records.len(), 1);
    let tree = records.game(0).unwrap();
    let out = to_sgf(&tree);
    let again = Records::read(out.as_bytes());
    prop_assert_eq!(again.len(), 1, "{:?}", out);
    let no_gm = tree.root().get(ids::GM).is_none();
    let t2 = again.game(0).unwrap();
    prop_assert_eq!(texts(&t2, no_gm), texts(&tree, no_gm), "{:?}", out);
    prop_assert_eq!(&to_sgf(&t2), &out);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn sgf_output_reads_back_as_itself(t in [text(), text(), text(), text()]) {
        let src = record(&t);
        let records = Records::read(src.as_bytes());
        let tree = records.game(0).unwrap();
        // The record read as written: comments keep every character.
        prop_assert_eq!(tree.root().get(ids::C).unwrap().text(), t[2].as_str());
        sgf_reads_back(src.as_bytes())?;
    }

    /// The same for raw bytes in no charset at all: whatever they decode to is written and read
    /// back unchanged.
    #[test]
    fn sgf_output_of_any_bytes_reads_back(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut data = b"(;GM[1]C[".to_vec();
        data.extend(bytes.iter().map(|b| if *b == b']' || *b == b'\\' { b'.' } else { *b }));
        data.extend_from_slice(b"];B[aa])");
        sgf_reads_back(&data)?;
    }
}

/// The text WTF output holds for `t`: its reserved characters (and `\`) made full-width.
fn full_width(t: &str) -> String {
    t.chars()
        .map(|c| match c {
            '(' => '（',
            ')' => '）',
            ';' => '；',
            '[' => '［',
            ']' => '］',
            '\\' => '＼',
            c => c,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// WTF output reads back with the same text, reserved characters full-width, wherever the
    /// format can carry the text: WTF declares no charset, so gb18030 bytes that also happen to be
    /// valid UTF-8 (a short name such as 学, D1 A7) are read as UTF-8 by any reader that has to
    /// guess, qipu included; those are left out.
    #[test]
    fn wtf_output_reads_back_with_the_same_text(t in [text(), text(), text(), text()]) {
        let src = record(&t);
        let records = Records::read(src.as_bytes());
        let tree = records.game(0).unwrap();
        let out = to_wtf(&tree);
        prop_assume!(out.is_ascii() || std::str::from_utf8(&out).is_err());
        let again = Records::read(&out);
        prop_assert_eq!(again.len(), 1, "{:?}", out);
        let t2 = again.game(0).unwrap();
        // WTF keeps the main line without FF, CA, GM and a 19×19 SZ.
        let dropped = [ids::FF, ids::CA, ids::GM, ids::SZ];
        let want: Vec<_> = texts(&tree, false)
            .into_iter()
            .map(|node| {
                node.into_iter()
                    .filter(|(name, _)| !dropped.iter().any(|id| id.letters().as_deref() == Some(name)))
                    .map(|(name, values)| (name, values.iter().map(|v| full_width(v)).collect::<Vec<_>>()))
                    .collect::<Vec<_>>()
            })
            .collect();
        prop_assert_eq!(texts(&t2, false), want, "{:?}", out);
    }
}
