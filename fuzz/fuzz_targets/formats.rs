//! Feeds arbitrary bytes to the readers of the other formats (GIB, NGF, UGF/UGI, kifu-line), each
//! steered by the first byte to a header that makes the content be recognised as that format, and
//! to the kifu-line pair reader (index and move file split at the first 0xFF). Nothing may panic,
//! and every game read must write as SGF that reads back with as many nodes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fn check(records: &sgf::Records<'_>) {
    for i in 0..records.len().min(8) {
        let Ok(tree) = records.game(i) else { continue };
        let _ = sgf::GameInfo::read(&tree);
        let out = sgf::write::to_sgf(&tree);
        let again = sgf::Records::read(out.as_bytes());
        let t2 = again.game(0).expect("written SGF must parse");
        assert_eq!(t2.node_count(), tree.node_count());
        let _ = goban::replay_main_line(&tree, None, true, |_, _| {});
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&steer, rest)) = data.split_first() else { return };
    let head: &[u8] = match steer % 5 {
        0 => b"\\HS\n",
        1 => b"[Header]\n",
        2 => b"t\n19\nw 1D\nb 1D\n\n0\n0\n6\n20200101\n\n\n\nPMABBREER\nPMACWEEEE\nPMADBQRRQ\n",
        3 => b"1\t;B[pd]\n",
        _ => b"",
    };
    let mut bytes = head.to_vec();
    bytes.extend_from_slice(rest);
    check(&sgf::Records::read(&bytes));
    let (index, moves) = match rest.iter().position(|&b| b == 0xFF) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b""[..]),
    };
    check(&sgf::Records::read_kifu_pair(index, moves));
});
