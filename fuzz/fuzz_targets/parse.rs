//! Feeds arbitrary bytes through everything a record goes through: format detection, splitting,
//! parsing, charset detection and decoding, game information, the three writers, and replay.
//! Nothing may panic, and a written SGF must read back as one game with the same tree: the same
//! nodes, and the same text in every value of every property.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Every value of every property, decoded, node by node. The root's `FF` and `CA` are left out
/// (the writer sets them), and so is its `GM` when `without_gm` (the writer adds `GM[1]` to a
/// root that has none).
fn texts(tree: &sgf::GameTree<'_>, without_gm: bool) -> Vec<Vec<(String, Vec<String>)>> {
    tree.nodes()
        .map(|n| {
            n.props()
                .filter(|p| {
                    let set = [sgf::ids::FF, sgf::ids::CA];
                    !(n.parent().is_none()
                        && (set.contains(&p.id()) || without_gm && p.id() == sgf::ids::GM))
                })
                .map(|p| {
                    let values = p.texts().into_iter().map(|t| t.into_owned()).collect();
                    (p.name(), values)
                })
                .collect()
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let records = sgf::Records::read(data);
    for i in 0..records.len().min(8) {
        let Ok(tree) = records.game(i) else { continue };
        let _ = tree.diagnostics();
        let _ = sgf::GameInfo::read(&tree);
        let out = sgf::write::to_sgf(&tree);
        let again = sgf::Records::read(out.as_bytes());
        assert_eq!(again.len(), 1, "written SGF must read as one game");
        let no_gm = tree.root().get(sgf::ids::GM).is_none();
        let t2 = again.game(0).expect("written SGF must parse");
        assert_eq!(t2.node_count(), tree.node_count());
        assert_eq!(
            texts(&t2, no_gm),
            texts(&tree, no_gm),
            "written SGF must read back with the same text"
        );
        let _ = sgf::write::to_wtf(&tree);
        let _ = sgf::write::to_quadrant(&tree);
        let _ = goban::replay_main_line(&tree, None, true, |_, _| {});
    }
});
