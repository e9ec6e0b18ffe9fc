//! What qipu promises about an index folder (DESIGN-index.md, "What qipu promises"): one writer
//! at a time, rebuilds that replace the index whole, readers that write nothing, and damaged
//! files reported by name, never answered from and never a panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use index::{build, BuildOptions, Index, IndexError};

fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games")
}

/// A fresh folder under the temporary directory, removed when dropped.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let d = std::env::temp_dir().join(format!("qipu-safety-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        Temp(d)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn opts(rebuild: bool, segment_games: u32) -> BuildOptions {
    BuildOptions {
        rebuild,
        segment_games,
        ..BuildOptions::default()
    }
}

fn build_samples(dir: &Path) {
    build(dir, &[samples()], &opts(false, 250_000), |_| {}).unwrap();
}

/// Every game's id, file and record, through every reader of the index: what a search can see.
fn contents(index: &Index) -> Vec<(u32, String, u32, usize)> {
    let ids = index.search_meta("size:[1 TO 52]").unwrap();
    assert_eq!(ids.len() as u32, index.len());
    ids.into_iter()
        .map(|g| {
            let (file, n) = index.identity(g);
            (g, file.to_string(), n, index.record(g).unwrap().len())
        })
        .collect()
}

#[test]
fn a_second_writer_is_refused_while_the_first_writes_and_the_first_is_unharmed() {
    let tmp = Temp::new("two-writers");
    let dir = tmp.0.clone();
    let (at_work_tx, at_work) = mpsc::channel();
    let (go_on, go_on_rx) = mpsc::channel::<()>();
    let first = {
        let dir = dir.clone();
        std::thread::spawn(move || {
            // The first writer pauses in the middle of its run, segment open, until told.
            let mut told = false;
            build(&dir, &[samples()], &opts(false, 250_000), |_| {
                if !told {
                    told = true;
                    at_work_tx.send(()).unwrap();
                    go_on_rx.recv().unwrap();
                }
            })
        })
    };
    at_work.recv().unwrap();
    for rebuild in [false, true] {
        let err = build(&dir, &[samples()], &opts(rebuild, 250_000), |_| {}).unwrap_err();
        assert!(
            matches!(err, IndexError::Locked { pid: Some(p), .. } if p == std::process::id()),
            "{err}"
        );
        let text = err.to_string();
        assert!(
            text.starts_with("another qipu is writing to ") && !text.contains('\n'),
            "{text}"
        );
    }
    go_on.send(()).unwrap();
    first.join().unwrap().unwrap();
    let index = Index::open(&dir).unwrap();
    assert_eq!(contents(&index).len(), 9);
    assert!(Index::verify(&dir).unwrap().is_empty());
    // The lock ends with its writer.
    drop(index);
    build_samples(&dir);
}

#[test]
fn a_rebuild_leaves_the_old_index_searchable_until_it_replaces_it_whole() {
    let tmp = Temp::new("rebuild");
    let dir = tmp.0.join("index");
    let few = tmp.0.join("few");
    std::fs::create_dir_all(&few).unwrap();
    for f in ["maruyama-ito.sgf", "melkisheva-shikshina.sgf"] {
        std::fs::copy(samples().join(f), few.join(f)).unwrap();
    }
    build(
        &dir,
        std::slice::from_ref(&few),
        &opts(false, 250_000),
        |_| {},
    )
    .unwrap();
    let old = contents(&Index::open(&dir).unwrap());
    assert_eq!(old.len(), 2);
    // A rebuild of one game per segment: it commits a segment after every game, and at each of
    // those moments a search still sees the old index, whole.
    let mut looks = 0;
    build(&dir, &[samples()], &opts(true, 1), |_| {
        let index = Index::open(&dir).unwrap();
        assert_eq!(contents(&index), old);
        looks += 1;
    })
    .unwrap();
    assert!(looks > 0);
    let index = Index::open(&dir).unwrap();
    assert_eq!(contents(&index).len(), 9);
    assert!(Index::verify(&dir).unwrap().is_empty());
    // The old parts are gone: one metadata folder, and only the segments the manifest names.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("seg-") || n.starts_with("meta"))
        .collect();
    names.sort();
    let mut named: Vec<String> = index
        .manifest()
        .segments
        .iter()
        .map(|s| s.dir.clone())
        .collect();
    named.push(index.manifest().meta_dir());
    named.sort();
    assert_eq!(names, named);
}

/// Name, length, modification time and mode of everything under `dir`.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let m = e.metadata().unwrap();
            if m.is_dir() {
                stack.push(e.path());
            }
            out.insert(
                e.path().strip_prefix(dir).unwrap().to_path_buf(),
                (m.len(), m.modified().unwrap(), m.permissions().mode()),
            );
        }
    }
    out
}

fn set_modes(dir: &Path, file: u32, folder: u32) {
    use std::os::unix::fs::PermissionsExt;
    for (p, _) in snapshot(dir) {
        let p = dir.join(p);
        let mode = if p.is_dir() { folder } else { file };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(folder)).unwrap();
}

#[test]
fn searching_creates_changes_and_locks_nothing_and_others_may_read() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = Temp::new("read-only");
    let dir = tmp.0.join("index");
    build_samples(&dir);
    // What the umask leaves for a new file and folder here (0644 and 0755 by default): every
    // file and folder of the index has that mode, none is private to its writer.
    let probe = tmp.0.join("probe");
    std::fs::write(&probe, b"").unwrap();
    std::fs::create_dir(tmp.0.join("probe-dir")).unwrap();
    let file_mode = std::fs::metadata(&probe).unwrap().permissions().mode() & 0o777;
    let dir_mode = std::fs::metadata(tmp.0.join("probe-dir"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    for (p, (_, _, mode)) in snapshot(&dir) {
        let want = if dir.join(&p).is_dir() {
            dir_mode
        } else {
            file_mode
        };
        assert_eq!(mode & 0o777, want, "{}", p.display());
    }
    // An index as a copy without the writers' lock files arrives, read-only.
    for lock in [
        "meta/.tantivy-meta.lock",
        "meta/.tantivy-writer.lock",
        "meta/values/.tantivy-meta.lock",
        "meta/values/.tantivy-writer.lock",
        "qipu-index.lock",
    ] {
        let _ = std::fs::remove_file(dir.join(lock));
    }
    set_modes(&dir, 0o444, 0o555);
    let before = snapshot(&dir);
    let index = Index::open(&dir).unwrap();
    assert_eq!(contents(&index).len(), 9);
    let m = index.meta();
    assert!(!m.top("player", 10, index.len()).unwrap().is_empty());
    assert!(m.date_range(index.len()).unwrap().is_some());
    assert!(!index.search_meta("Maruyama").unwrap().is_empty());
    assert!(m.summary(0).unwrap().is_some());
    for g in 0..index.len() {
        let _ = index.ops(g);
        let _ = index.winner(g);
    }
    drop(index);
    assert!(Index::verify(&dir).unwrap().is_empty());
    assert_eq!(snapshot(&dir), before, "a search changed the index folder");
    set_modes(&dir, 0o644, 0o755);
}

fn first_segment(dir: &Path) -> PathBuf {
    dir.join(&Index::open(dir).unwrap().manifest().segments[0].dir)
}

#[test]
fn a_truncated_segment_file_is_refused_at_open_naming_it() {
    let tmp = Temp::new("truncated");
    let dir = tmp.0.clone();
    build_samples(&dir);
    let seg = first_segment(&dir);
    for name in [
        "games.bin",
        "ops.bin",
        "positions.bin",
        "occ.bin",
        "years.bin",
    ] {
        let p = seg.join(name);
        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
        let err = Index::open(&dir)
            .err()
            .expect("a truncated file is refused");
        assert!(matches!(err, IndexError::Corrupt(_)), "{err}");
        let text = err.to_string();
        assert!(text.contains(&p.display().to_string()), "{text}");
        let damaged = Index::verify(&dir).unwrap();
        assert_eq!(damaged.len(), 1, "{damaged:?}");
        assert_eq!(damaged[0].path, p);
        std::fs::write(&p, bytes).unwrap();
        assert_eq!(contents(&Index::open(&dir).unwrap()).len(), 9);
    }
}

#[test]
fn verify_names_each_segment_file_with_a_flipped_byte() {
    let tmp = Temp::new("flipped");
    let dir = tmp.0.clone();
    build_samples(&dir);
    assert!(Index::verify(&dir).unwrap().is_empty());
    let seg = first_segment(&dir);
    let files = Index::open(&dir).unwrap().manifest().segments[0]
        .files
        .clone();
    assert!(files.len() >= 14, "{files:?}");
    let mut checked = 0;
    for f in files.iter().filter(|f| f.len > 0) {
        let p = seg.join(&f.name);
        let bytes = std::fs::read(&p).unwrap();
        let mut flipped = bytes.clone();
        flipped[bytes.len() / 2] ^= 0x10;
        std::fs::write(&p, &flipped).unwrap();
        let damaged = Index::verify(&dir).unwrap();
        assert_eq!(
            damaged.iter().map(|d| &d.path).collect::<Vec<_>>(),
            [&p],
            "{damaged:?}"
        );
        assert!(damaged[0].problem.contains("checksum"), "{damaged:?}");
        std::fs::write(&p, bytes).unwrap();
        checked += 1;
    }
    assert!(checked >= 10);
    assert!(Index::verify(&dir).unwrap().is_empty());
}

/// Opens and searches the index every way a search can, returning the first error. A panic
/// fails the test.
fn use_index(dir: &Path) -> Result<(), IndexError> {
    let index = Index::open(dir)?;
    index.search_meta("size:[1 TO 52]")?;
    index.search_meta("Maruyama")?;
    index.search_meta("black:\"Ito\" AND date:[1900 TO 2030]")?;
    let m = index.meta();
    m.top("player", 10, index.len())?;
    m.top("event", 10, index.len())?;
    m.date_range(index.len())?;
    for g in 0..index.len() {
        m.summary(g)?;
    }
    Ok(())
}

#[test]
fn flipped_bytes_in_tantivy_files_give_an_error_never_a_panic() {
    let tmp = Temp::new("tantivy");
    let dir = tmp.0.clone();
    build_samples(&dir);
    use_index(&dir).unwrap();
    let meta = dir.join("meta");
    let mut files: Vec<PathBuf> = Vec::new();
    for d in [meta.clone(), meta.join("values")] {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_file() && !name.starts_with('.') {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 8, "{files:?}");
    let (mut errors, mut named) = (0, 0);
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        for at in 0..8 {
            let mut damaged = bytes.clone();
            let i = at * bytes.len() / 8;
            damaged[i] ^= 0xff;
            std::fs::write(p, &damaged).unwrap();
            if let Err(e) = use_index(&dir) {
                errors += 1;
                assert!(!e.to_string().contains('\n'), "{e}");
            }
            let report = Index::verify(&dir).unwrap();
            assert!(
                !report.is_empty(),
                "{} at {i}: not found damaged",
                p.display()
            );
            named += report.iter().any(|d| &d.path == p) as u32;
        }
        std::fs::write(p, bytes).unwrap();
    }
    eprintln!(
        "{} damaged copies: {errors} refused by a search, {named} named by verify",
        files.len() * 8
    );
    use_index(&dir).unwrap();
    assert!(Index::verify(&dir).unwrap().is_empty());
}

#[test]
fn small_files_are_read_so_truncating_them_under_an_open_index_changes_nothing() {
    let tmp = Temp::new("under");
    let dir = tmp.0.clone();
    build_samples(&dir);
    let index = Index::open(&dir).unwrap();
    let seg = dir.join(&index.manifest().segments[0].dir);
    let long = index.long_games().to_vec();
    let copies: Vec<Vec<u32>> = (0..index.len()).map(|g| index.copies(g).to_vec()).collect();
    for name in ["copies.bin", "long.bin"] {
        std::fs::File::create(seg.join(name)).unwrap();
    }
    assert_eq!(index.long_games(), long);
    assert_eq!(
        (0..index.len())
            .map(|g| index.copies(g).to_vec())
            .collect::<Vec<_>>(),
        copies
    );
}

#[test]
fn mapped_per_game_files_truncated_under_an_open_index_are_reported() {
    let tmp = Temp::new("under-mapped");
    let dir = tmp.0.clone();
    build_samples(&dir);
    let index = Index::open(&dir).unwrap();
    let seg = dir.join(&index.manifest().segments[0].dir);
    // Years and facts are mapped (a whole read made every opening pay for 10 bytes a game):
    // cut short under the open index, they read as zeros, never SIGBUS, and the next answer
    // is refused, naming them.
    for name in ["years.bin", "facts.bin"] {
        std::fs::File::create(seg.join(name)).unwrap();
    }
    for g in 0..index.len() {
        std::hint::black_box((index.winner(g), index.facts(g)));
    }
    let err = index.check_intact().unwrap_err().to_string();
    assert!(
        err.contains("years.bin") && err.contains("facts.bin"),
        "{err}"
    );
}

/// Reads everything a search can read of every game, catching a panic that the zeros of a cut
/// file may cause: what matters is that the process lives and the damage is reported after.
fn read_everything(index: &Index) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for g in 0..index.len() {
            let _ = index.game(g);
            let _ = index.ops(g);
            let _ = index.record(g);
            let _ = index.identity(g);
        }
        let _ = index.positions(0x1234_5678_9abc_def0).count();
        let _ = index.covering(&[]);
    }));
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = index.search_meta("size:[1 TO 52]");
        let _ = index.search_meta("black:\"Ito\" AND date:[1900 TO 2030]");
        let m = index.meta();
        let _ = m.top("player", 10, index.len());
        for g in 0..index.len() {
            let _ = m.summary(g);
        }
    }));
}

#[test]
fn mapped_files_truncated_under_an_open_index_are_reported_never_sigbus() {
    let tmp = Temp::new("sigbus");
    let dir = tmp.0.clone();
    build_samples(&dir);
    let index = Index::open(&dir).unwrap();
    // Every search opens its index anew: each one reads the files at their current length.
    read_everything(&index);
    index.check_intact().unwrap();
    let seg = dir.join(&index.manifest().segments[0].dir);
    let mut cut = Vec::new();
    for name in ["games.bin", "ops.bin", "positions.keys", "records.zst"] {
        let p = seg.join(name);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(0)
            .unwrap();
        cut.push(p);
    }
    // Without the guard, the first read of a page of a cut file kills the process (SIGBUS).
    read_everything(&index);
    let err = index.check_intact().unwrap_err();
    let text = err.to_string();
    let IndexError::Changed { files } = err else {
        panic!("{text}")
    };
    // Those read after the cut are named (ops.bin is read only where games.bin says, now zeros).
    assert!(files.contains(&cut[0]), "{text}");
    assert!(files.iter().all(|f| cut.contains(f)), "{text}");
    assert!(files.len() >= 3, "{text}");
    drop(index);

    // tantivy's files, cut under an open index (rebuilt first: the cut ones are refused at open).
    build(&dir, &[samples()], &opts(true, 250_000), |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();
    read_everything(&index);
    index.check_intact().unwrap();
    let meta = dir.join(index.manifest().meta_dir());
    let mut files = Vec::new();
    for e in std::fs::read_dir(&meta).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_file() && !name.starts_with('.') && !name.ends_with(".json") {
            files.push(p);
        }
    }
    assert!(!files.is_empty());
    for p in &files {
        std::fs::OpenOptions::new()
            .write(true)
            .open(p)
            .unwrap()
            .set_len(0)
            .unwrap();
    }
    read_everything(&index);
    let err = index.check_intact().unwrap_err();
    assert!(matches!(err, IndexError::Changed { .. }), "{err}");
}

#[test]
fn verify_checks_tantivy_files_even_when_tantivy_lost_its_list_of_them() {
    let tmp = Temp::new("managed");
    let dir = tmp.0.clone();
    build_samples(&dir);
    let meta = dir.join(Index::open(&dir).unwrap().manifest().meta_dir());
    let managed = meta.join(".managed.json");
    std::fs::remove_file(&managed).unwrap();
    let report = Index::verify(&dir).unwrap();
    assert!(report.iter().any(|d| d.path == managed), "{report:?}");
    // With the list gone, a damaged segment file of tantivy's is still found by name.
    let file = std::fs::read_dir(&meta)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "fieldnorm"))
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[0] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let report = Index::verify(&dir).unwrap();
    assert!(report.iter().any(|d| d.path == file), "{report:?}");
}

/// Everything a search can answer from the metadata: the games of a few queries, the top
/// players and events, the date range and every game's stored information, as text.
fn meta_answers(dir: &Path) -> Result<String, IndexError> {
    let index = Index::open(dir)?;
    let m = index.meta();
    let mut out = String::new();
    for q in [
        "size:[1 TO 52]",
        "Maruyama",
        "black:\"Ito\" AND date:[1900 TO 2030]",
        "winner:B",
        "komi:[6 TO 7]",
    ] {
        out += &format!("{q}: {:?}\n", index.search_meta(q)?);
    }
    out += &format!("{:?}\n", m.top("player", 10, index.len())?);
    out += &format!("{:?}\n", m.top("event", 10, index.len())?);
    out += &format!("{:?}\n", m.date_range(index.len())?);
    for g in 0..index.len() {
        out += &format!("{:?}\n", m.summary(g)?);
    }
    Ok(out)
}

/// Writes `bytes` to `p` with a modification time of its own: a reader checks each file once
/// per process, by path, length and modification time, and the clock the file system stamps
/// with may not tick between two writes of a test.
fn write_stamped(p: &Path, bytes: &[u8], stamp: u64) {
    std::fs::write(p, bytes).unwrap();
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000 + stamp);
    std::fs::File::options()
        .write(true)
        .open(p)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

#[test]
fn a_flipped_byte_in_a_metadata_file_gives_the_same_answer_or_an_error_naming_it() {
    let tmp = Temp::new("meta-answers");
    let dir = tmp.0.clone();
    build_samples(&dir);
    let sound = meta_answers(&dir).unwrap();
    let meta = dir.join("meta");
    let mut files: Vec<PathBuf> = Vec::new();
    for d in [meta.clone(), meta.join("values")] {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let tantivy = [
                ".store",
                ".idx",
                ".term",
                ".pos",
                ".fast",
                ".fieldnorm",
                ".del",
            ]
            .iter()
            .any(|ext| name.ends_with(ext));
            if p.is_file() && tantivy {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut stamp = 0;
    let (mut same, mut refused) = (0, 0);
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        // Every byte of a small file; an even sample of a larger one, its first and last too.
        let step = (bytes.len() / 150).max(1);
        let at: Vec<usize> = (0..bytes.len())
            .step_by(step)
            .chain([bytes.len() - 1])
            .collect();
        for i in at {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x20;
            stamp += 1;
            write_stamped(p, &damaged, stamp);
            match meta_answers(&dir) {
                Ok(answer) => {
                    assert!(
                        answer == sound,
                        "{} with byte {i} flipped: a changed answer",
                        p.display()
                    );
                    same += 1;
                }
                Err(e) => {
                    let text = e.to_string();
                    assert!(
                        text.contains(&p.display().to_string()),
                        "{} with byte {i} flipped: {text}",
                        p.display()
                    );
                    assert!(!text.contains('\n'), "{text}");
                    refused += 1;
                }
            }
        }
        stamp += 1;
        write_stamped(p, &bytes, stamp);
    }
    eprintln!(
        "{} files: {same} flips gave the same answer, {refused} an error naming the file",
        files.len()
    );
    assert_eq!(meta_answers(&dir).unwrap(), sound);
}
