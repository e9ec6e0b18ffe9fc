//! Feeds arbitrary bytes through everything a record goes through: format detection, splitting,
//! parsing, charset detection and decoding, game information, the three writers, and replay.
//! Nothing may panic, and a written SGF must read back with the same number of nodes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let records = sgf::Records::read(data);
    for i in 0..records.len().min(8) {
        let Ok(tree) = records.game(i) else { continue };
        let _ = tree.diagnostics();
        let _ = sgf::GameInfo::read(&tree);
        let out = sgf::write::to_sgf(&tree);
        let again = sgf::Records::read(out.as_bytes());
        let t2 = again.game(0).expect("written SGF must parse");
        assert_eq!(t2.node_count(), tree.node_count());
        let _ = sgf::write::to_wtf(&tree);
        let _ = sgf::write::to_quadrant(&tree);
        let _ = goban::replay_main_line(&tree, None, true, |_, _| {});
    }
});
