//! Every game's record reads back from the index byte for byte, whether it was stored whole or as
//! a skeleton restored from the replay program: the samples always, and the shared `diverse`
//! collection (broken files, other formats, charsets, variations) when it is present (required
//! under `QIPU_REQUIRE_DATASETS=1`, as in CI).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use index::store::FLAG_SKELETON;
use index::{build, BuildOptions, Index};
use inputs::{discover, read_source};

fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut inputs = vec![root.join("samples/games")];
    inputs.extend(testdata::dataset("diverse"));
    inputs
}

#[test]
fn every_record_reads_back_exactly() {
    let inputs = inputs();
    let dir = std::env::temp_dir().join(format!("qipu-records-{}", std::process::id()));
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir, &inputs, &opts, |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();

    let mut files: HashMap<String, Vec<u8>> = HashMap::new();
    for source in discover(&inputs).unwrap() {
        let _ = read_source(&source, &mut |r| {
            files.insert(r.name, r.bytes.to_vec());
        });
    }
    let (mut skeletons, mut copies) = (0, 0);
    for id in 0..index.len() {
        let (name, i) = index.identity(id);
        let bytes = &files[name];
        let records = sgf::Records::read(bytes);
        let span = records.game(i as usize).unwrap().span();
        let original = &records.bytes()[span.start..span.end];
        let got = index.record(id).unwrap();
        assert!(got == original, "{name} game {i} reads back differently");
        skeletons += (index.game(id).flags & FLAG_SKELETON != 0) as u32;
        copies += index.is_copy(id) as u32;
    }
    assert!(copies < index.len());
    // Most records are plain SGF with canonical moves and are stored as skeletons.
    assert!(
        skeletons * 10 > index.len() * 7,
        "{skeletons} skeletons of {} games",
        index.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
