//! Inputs the fuzzer found (`fuzz/`), kept as tests: each once broke a property the fuzz target
//! checks (no panic; written SGF reads back with the same tree).

use sgf::write::to_sgf;
use sgf::{ids, Records};

fn round_trip(data: &[u8]) {
    let records = Records::read(data);
    for i in 0..records.len() {
        let Ok(tree) = records.game(i) else { continue };
        let out = to_sgf(&tree);
        let again = Records::read(out.as_bytes());
        let t2 = again.game(0).expect("written SGF parses");
        assert_eq!(t2.node_count(), tree.node_count(), "game {i}: {out}");
        assert_eq!(to_sgf(&t2), out, "game {i}: second write differs");
    }
}

/// A double-byte-charset game whose decoded text held a `\` that was not an escape in the bytes.
#[test]
fn escapes_follow_the_rule_that_delimited_the_value() {
    round_trip(&[
        40, 59, 67, 91, 233, 1, 67, 91, 233, 67, 91, 233, 1, 2, 233, 233, 1, 75, 79, 123, 58, 40,
        59, 70, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220,
        220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 0, 0, 1, 80, 112, 220,
        220, 220, 220, 220, 220, 220, 220, 220, 220, 220, 93, 59, 66, 91, 97, 97, 91, 59, 255, 255,
        7, 79, 92, 92, 59, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149,
        149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 1, 0, 0, 0,
        0, 231, 130, 185, 0, 0, 70, 149, 149, 149, 149, 149, 149, 149, 66, 91, 97, 103, 93, 91, 41,
        91, 97, 59, 66, 91, 97, 103, 92, 92, 92, 93, 97, 91, 93, 41, 103, 40, 59, 66, 91, 97, 103,
        93, 91, 41, 91, 97, 59, 149, 149, 149, 149, 149, 149, 149, 91, 56, 93, 59, 149, 149, 149,
        149, 149, 39, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 40, 59,
        66, 91, 66, 91, 97, 91, 93, 41, 103, 40, 59, 66, 91, 97, 103, 93, 91, 41, 91, 97, 59, 66,
        91, 97, 103, 92, 92, 92, 93, 97, 91, 93, 41, 103, 40, 59, 66, 91, 97, 103, 93, 91, 41, 91,
        97, 59, 149, 149, 149, 149, 149, 149, 149, 91, 57, 93, 59, 87, 91, 97, 97, 93, 59, 66, 66,
        91, 97, 103, 91, 149, 149, 149, 149, 59, 59, 66, 99, 43, 106, 91, 93, 79, 106, 91, 93, 79,
        91, 149, 66, 91, 92, 178, 178, 178, 178, 178, 178, 178, 178, 178, 178, 178, 178, 178, 178,
        178, 178, 92, 92, 93, 59, 93, 75, 79, 91, 93, 41, 17, 0, 41, 97, 98, 93, 41, 111, 10, 93,
        58, 59, 59, 66, 40, 91, 106, 98, 93, 41,
    ]);
}

/// Every value of every property, decoded, node by node. The root's `FF` and `CA` are left out
/// (the writer sets them), and so is its `GM` when `without_gm` (the writer adds `GM[1]` to a
/// root that has none).
fn texts(tree: &sgf::GameTree<'_>, without_gm: bool) -> Vec<Vec<(String, Vec<String>)>> {
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

/// Written SGF reads back as one game with the same text in every value.
fn reads_back_as_itself(data: &[u8]) {
    let records = Records::read(data);
    assert!(!records.is_empty(), "{:?}", records.diagnostics());
    for i in 0..records.len() {
        let Ok(tree) = records.game(i) else { continue };
        let out = to_sgf(&tree);
        let again = Records::read(out.as_bytes());
        assert_eq!(again.len(), 1, "game {i}: {out:?}");
        let no_gm = tree.root().get(ids::GM).is_none();
        let t2 = again.game(0).expect("written SGF parses");
        assert_eq!(texts(&t2, no_gm), texts(&tree, no_gm), "game {i}: {out:?}");
    }
}

/// A comment of NUL-separated letters after soft line breaks: the input reads as one game, but
/// qipu's output (`(;FF[4]CA[UTF-8]…`, the soft breaks gone) was taken for UTF-16 by the NUL
/// bytes in every other position of its first 4 KiB, transcoded, and read as no game.
#[test]
fn output_with_nul_bytes_is_not_taken_for_utf16() {
    for nul_first in [true, false] {
        let mut data = b"(;GM[1]C[".to_vec();
        for _ in 0..1000 {
            data.extend_from_slice(b"\\\n");
        }
        for _ in 0..2000 {
            data.extend_from_slice(if nul_first { b"\0x" } else { b"x\0" });
        }
        data.extend_from_slice(b"];B[aa])");
        reads_back_as_itself(&data);
    }
}

/// A root with no `GM` (the fuzzer's `(;`): the writer adds `GM[1]`, and nothing else changes.
#[test]
fn a_root_without_gm_gains_only_gm() {
    reads_back_as_itself(b"(;");
    let out = to_sgf(&Records::read(b"(;C[x])").game(0).unwrap());
    assert_eq!(out, "(;FF[4]CA[UTF-8]GM[1]C[x]\n)\n");
}

/// A KGS comment whose closing bracket came early (pachi's `…S8:alive[falseeye]…` in the
/// `diverse/` pachi regression games): the text after it parsed as an identifier `alive` with no
/// upper-case letter, which the writer upper-cased into a property `ALIVE` the game never had.
#[test]
fn identifiers_without_upper_case_are_written_as_found() {
    reads_back_as_itself(b"(;GM[1]GC[J16:must[semeai] pachi S8:alive[falseeye] T13];B[aa])");
}

/// ⺌ is FE 5D in gb18030: WTF output holding it was cut at its trail byte `]` when read back (the
/// proptest of `tests/roundtrip.rs` found it), and decoded as windows-1252 `þ`.
#[test]
fn wtf_trail_bytes_equal_to_a_bracket_stay_in_their_character() {
    let records = Records::read("(;GM[1]FF[4]CA[UTF-8]PB[李⺌]C[⺌ x]XZ[⺌];B[pd])".as_bytes());
    let wtf = sgf::write::to_wtf(&records.game(0).unwrap());
    assert!(wtf.windows(2).any(|w| w == [0xfe, 0x5d]));
    let back = Records::read(&wtf);
    assert_eq!(back.format(), sgf::Format::Wtf);
    let tree = back.game(0).unwrap();
    let root = tree.root();
    assert_eq!(root.get(ids::PB).unwrap().text(), "李⺌");
    assert_eq!(root.get(ids::C).unwrap().text(), "⺌ x");
    assert_eq!(tree.charset().encoding, encoding_rs::GB18030);
    assert_eq!(tree.main_line().count(), 2);
}
