//! The state a kill leaves between the metadata commit and the manifest: readers must not see the
//! metadata of games the manifest does not hold, and the next run must drop it.

use std::path::PathBuf;

use index::{build, BuildOptions, Index};
use meta::MetaWriter;

#[test]
fn metadata_ahead_of_the_manifest_is_invisible_and_then_dropped() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
    let dir = std::env::temp_dir().join(format!("qipu-meta-ahead-{}", std::process::id()));
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir, std::slice::from_ref(&samples), &opts, |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();
    let games = index.len();
    assert_eq!(games, 9);
    let stats = |index: &Index| {
        let m = index.meta();
        (
            m.top("player", 100, index.len()).unwrap(),
            m.top("event", 100, index.len()).unwrap(),
            m.date_range(index.len()).unwrap(),
        )
    };
    let before = stats(&index);
    drop(index);

    // What a run killed after committing metadata for a new game, before its manifest, leaves.
    let record = std::fs::read(samples.join("maruyama-ito.sgf")).unwrap();
    let records = sgf::Records::read(&record);
    let info = sgf::GameInfo::read(&records.game(0).unwrap());
    let mut w = MetaWriter::open(&dir.join("meta"), 64 << 20).unwrap();
    w.add(games, &info, 235, None, "ghost.sgf").unwrap();
    w.finish().unwrap();

    let index = Index::open(&dir).unwrap();
    assert_eq!(
        index.meta().search("size:[1 TO 52]").unwrap().len(),
        10,
        "the ghost is in tantivy"
    );
    let ids = index.search_meta("size:[1 TO 52]").unwrap();
    assert_eq!(ids.len(), 9, "but not visible through the index");
    assert!(ids.iter().all(|&g| g < games));
    assert_eq!(stats(&index), before, "statistics do not count the ghost");
    drop(index);

    // The next run drops it for good.
    let again = BuildOptions {
        rebuild: false,
        ..BuildOptions::default()
    };
    build(&dir, &[samples], &again, |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();
    assert_eq!(index.meta().search("size:[1 TO 52]").unwrap().len(), 9);
    let _ = std::fs::remove_dir_all(&dir);
}
