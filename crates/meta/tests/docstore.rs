//! A flipped byte in a large document store (past the size a reader checks whole) gives every
//! game's summary as written or an error naming the store: lz4 keeps most text as literals, so
//! such a flip used to change one letter of a name in the hits shown, silently.

use std::path::{Path, PathBuf};

use meta::{GameSummary, MetaIndex, MetaWriter};
use sgf::GameInfo;
use testdata::{Rng, Scratch};

fn info(sgf: &str) -> GameInfo {
    let records = sgf::Records::read(sgf.as_bytes());
    let tree = records.game(0).expect("a game");
    GameInfo::read(&tree)
}

/// Names lz4 cannot shorten much (hex of a xorshift sequence), so that few games make a
/// document store of several MiB.
fn names(rng: &mut Rng) -> String {
    format!("{:016x}", rng.next_u64())
}

/// Adds games `from..to` to the metadata index in `dir` (created if missing).
fn add(dir: &Path, from: u32, to: u32, rng: &mut Rng) {
    let mut w = MetaWriter::open_or_create(dir, 50_000_000).unwrap();
    for g in from..to {
        let sgf = format!(
            "(;GM[1]SZ[19]PB[{}{}]PW[{}{}]EV[{}]DT[2005-03-15]RE[B+R]KM[6.5])",
            names(rng),
            names(rng),
            names(rng),
            names(rng),
            names(rng)
        );
        w.add(g, &info(&sgf), 100, None, &format!("f/{g}.sgf"))
            .unwrap();
    }
    w.finish().unwrap();
}

fn summaries(dir: &Path, games: u32) -> Result<Vec<Option<GameSummary>>, String> {
    let m = MetaIndex::open(dir).map_err(|e| e.to_string())?;
    (0..games)
        .map(|g| m.summary(g).map_err(|e| e.to_string()))
        .collect()
}

/// The document stores of the folder, with their lengths.
fn stores(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "store"))
        .map(|p| {
            let len = std::fs::metadata(&p).unwrap().len();
            (p, len)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_flipped_byte_in_a_large_store_is_refused_naming_it() {
    let dir = Scratch::new("docstore-flip");
    let games = 30_000;
    let mut seed = Rng::new(0x9e37_79b9_7f4a_7c15);
    add(&dir.0, 0, games, &mut seed);
    let (store, len) = stores(&dir.0)
        .into_iter()
        .max_by_key(|s| s.1)
        .expect("a store");
    // Larger than what a reader checks whole, else this tests nothing new.
    assert!(len > 2 << 20, "{} has only {len} bytes", store.display());
    let before = summaries(&dir.0, games).unwrap();
    assert!(before.iter().all(|s| s.is_some()));

    let name = store.file_name().unwrap().to_string_lossy().into_owned();
    let mut changed = Vec::new();
    let flips = 40;
    // The compressed blocks are the first part of the file (the block index and footer
    // follow them).
    for i in 1..=flips {
        let at = (len * 9 / 10 * i / (flips + 1)) as usize;
        let clean = std::fs::read(&store).unwrap();
        let mut bad = clean.clone();
        bad[at] ^= 0x01;
        std::fs::write(&store, &bad).unwrap();
        match summaries(&dir.0, games) {
            Ok(after) => {
                if let Some(g) = (0..games as usize).find(|&g| after[g] != before[g]) {
                    changed.push(format!(
                        "byte {at}: game {g} {:?} became {:?}",
                        before[g].as_ref().map(|s| &s.black),
                        after[g].as_ref().map(|s| &s.black)
                    ));
                }
            }
            Err(e) => assert!(e.contains(&name), "byte {at}: {e} does not name {name}"),
        }
        std::fs::write(&store, &clean).unwrap();
    }
    assert!(
        changed.is_empty(),
        "answered from a damaged store: {changed:#?}"
    );
}

/// The sidecars of block sums follow the stores they describe across runs: each large store of
/// a later run gets one, one whose store is gone is deleted, and a damaged one is named by a
/// read and by `qipu verify`'s checksums rather than trusted.
#[test]
fn block_sums_follow_their_stores_and_a_damaged_one_is_named() {
    let dir = Scratch::new("docstore-sidecars");
    let mut seed = Rng::new(0x2545_f491_4f6c_dd1d);
    add(&dir.0, 0, 20_000, &mut seed);
    let stray = dir
        .0
        .join("blocksums-0123456789abcdef0123456789abcdef.store");
    std::fs::write(&stray, b"left by a store merged away").unwrap();
    // Left by a crash after a merge: harmless, not damage.
    assert!(meta::damaged_files(&dir.0).unwrap().is_empty());
    add(&dir.0, 20_000, 40_000, &mut seed);
    assert!(!stray.exists(), "a sidecar without its store is kept");
    let large: Vec<_> = stores(&dir.0)
        .into_iter()
        .filter(|s| s.1 > 1 << 20)
        .collect();
    assert!(large.len() >= 2, "{large:?}");
    let sidecar = |p: &Path| {
        let mut name = std::ffi::OsString::from("blocksums-");
        name.push(p.file_name().unwrap());
        p.with_file_name(name)
    };
    for (store, _) in &large {
        assert!(
            sidecar(store).is_file(),
            "{} has no block sums",
            store.display()
        );
    }
    let before = summaries(&dir.0, 40_000).unwrap();
    assert!(before.iter().all(|s| s.is_some()));
    assert!(meta::damaged_files(&dir.0).unwrap().is_empty());

    let side = sidecar(&large[0].0);
    let clean = std::fs::read(&side).unwrap();
    let mut bad = clean.clone();
    bad[clean.len() / 2] ^= 0x01;
    std::fs::write(&side, &bad).unwrap();
    let name = side.file_name().unwrap().to_string_lossy().into_owned();
    let e = summaries(&dir.0, 40_000).unwrap_err();
    assert!(e.contains(&name), "{e} does not name {name}");
    assert_eq!(meta::damaged_files(&dir.0).unwrap(), vec![side.clone()]);
    std::fs::write(&side, &clean).unwrap();
    assert_eq!(summaries(&dir.0, 40_000).unwrap(), before);
}

/// The sidecar of a store's block sums.
fn sidecar_of(p: &Path) -> PathBuf {
    let mut name = std::ffi::OsString::from("blocksums-");
    name.push(p.file_name().unwrap());
    p.with_file_name(name)
}

/// A damaged sidecar, which makes every read of its sound store fail, is written again by the
/// next commit; and block sums are taken only of a store whose footer vouches for it (sums of
/// damaged bytes would let readers, which then skip the footer, answer from them).
#[test]
fn sums_are_taken_of_sound_stores_only_and_a_damaged_sidecar_is_written_again() {
    let dir = Scratch::new("docstore-resum");
    let mut seed = Rng::new(0x0f1e_2d3c_4b5a_6978);
    add(&dir.0, 0, 30_000, &mut seed);
    let (store, len) = stores(&dir.0).into_iter().max_by_key(|s| s.1).unwrap();
    assert!(len > 2 << 20, "{} has only {len} bytes", store.display());
    let side = sidecar_of(&store);
    let clean = std::fs::read(&side).unwrap();
    let mut bad = clean.clone();
    bad[clean.len() / 2] ^= 0x01;
    std::fs::write(&side, &bad).unwrap();
    assert!(summaries(&dir.0, 30_000).is_err());
    add(&dir.0, 30_000, 30_010, &mut seed);
    assert!(meta::damaged_files(&dir.0).unwrap().is_empty());
    let sound = summaries(&dir.0, 30_010).unwrap();

    // An index whose store has no sums yet (written before them) and is damaged.
    std::fs::remove_file(&side).unwrap();
    let bytes = std::fs::read(&store).unwrap();
    let mut bad = bytes.clone();
    bad[bytes.len() / 3] ^= 0x01;
    std::fs::write(&store, &bad).unwrap();
    let w = MetaWriter::open_or_create(&dir.0, 50_000_000).unwrap();
    let name = store.file_name().unwrap().to_string_lossy().into_owned();
    match w.finish() {
        Ok(_) => panic!("block sums were taken of a damaged store"),
        Err(e) => assert!(e.to_string().contains(&name), "{e} does not name {name}"),
    }
    assert!(!side.exists());
    std::fs::write(&store, &bytes).unwrap();
    add(&dir.0, 30_010, 30_010, &mut seed);
    assert!(side.exists());
    assert_eq!(summaries(&dir.0, 30_010).unwrap(), sound);
}
