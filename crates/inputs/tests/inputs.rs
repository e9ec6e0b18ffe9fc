//! Tests of the `inputs` crate: discovery, names and bytes for every source kind, damage handling,
//! and (when the shared datasets are present) the real archives.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use testdata::Scratch;

use inputs::{
    discover, discover_all, path_key, path_of_key, read_source, InputError, RecordBytes, Source,
    SourceKind,
};

fn game(n: usize) -> Vec<u8> {
    format!("(;GM[1]SZ[19]PB[b{n}];B[pd];W[dp])").into_bytes()
}

/// A long game with pseudo-random moves, so that archives of it span many compressed blocks.
fn long_game(seed: usize, moves: usize) -> Vec<u8> {
    let mut out = format!("(;GM[1]SZ[19]PB[p{seed}]").into_bytes();
    let mut x = seed as u32 ^ 0x9e37_79b9;
    for m in 0..moves {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let (a, b) = (b'a' + (x >> 16) as u8 % 19, b'a' + (x >> 24) as u8 % 19);
        let colour = if m % 2 == 0 { 'B' } else { 'W' };
        out.extend(format!(";{colour}[{}{}]", a as char, b as char).bytes());
    }
    out.push(b')');
    out
}

fn zst(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

/// A tar of `members` (name, bytes), with the end-of-archive marker.
fn tar_of(members: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, bytes) in members {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(tar::EntryType::Regular);
        // Raw name bytes: `set_path` refuses `/abs` names, which real archives may hold.
        header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        header.set_cksum();
        builder.append(&header, &bytes[..]).unwrap();
    }
    builder.into_inner().unwrap()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn zip_of(members: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        if name.ends_with('/') {
            writer.add_directory(*name, options).unwrap();
        } else {
            writer.start_file(*name, options).unwrap();
            writer.write_all(bytes).unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

/// A delivered record: name, bytes, damaged.
type Got = (String, Vec<u8>, bool);

/// Every record of a source, and the result.
fn read_all(source: &Source) -> (Vec<Got>, Result<(), InputError>) {
    let mut records = Vec::new();
    let mut last_consumed = 0;
    let result = read_source(source, &mut |record| {
        assert!(record.consumed >= last_consumed, "consumed goes backwards");
        assert!(record.consumed <= source.len, "consumed beyond the file");
        last_consumed = record.consumed;
        records.push((record.name, record.bytes.to_vec(), record.damaged));
    });
    (records, result)
}

fn names(records: &[Got]) -> Vec<&str> {
    records.iter().map(|(name, _, _)| name.as_str()).collect()
}

fn only_source(path: &Path) -> Source {
    let mut sources = discover(&[path.to_path_buf()]).unwrap();
    assert_eq!(sources.len(), 1);
    sources.pop().unwrap()
}

#[test]
fn directory_walk_takes_the_right_files_in_sorted_order() {
    let scratch = Scratch::new("inputs-walk");
    for rel in [
        "b.sgf",
        "A.SGF",
        "notes.txt",
        "sub/z.wtf",
        "sub/deeper/c.Sgf",
        "sub/m.sgf.zst",
        "sub/n.WTF.ZST",
        "a.sgf/inside.sgf", // a directory named like a record
        "t.tar",
        "t.tar.gz",
        "t.tgz",
        "t.tar.zst",
        "t.tzst",
        "t.zip",
        "loose.zst",
        "loose.gz",
        "game.gib",
        "sgf",
    ] {
        scratch.write(rel, b"x");
    }
    let sources = discover(std::slice::from_ref(&scratch.0)).unwrap();
    let got: Vec<(&str, SourceKind)> = sources.iter().map(|s| (s.name.as_str(), s.kind)).collect();
    use SourceKind::*;
    assert_eq!(
        got,
        [
            ("A.SGF", Plain),
            ("a.sgf/inside.sgf", Plain),
            ("b.sgf", Plain),
            ("game.gib", Plain),
            ("sub/deeper/c.Sgf", Plain),
            ("sub/m.sgf.zst", Zstd),
            ("sub/n.WTF.ZST", Zstd),
            ("sub/z.wtf", Plain),
            ("t.tar", Tar),
            ("t.tar.gz", TarGz),
            ("t.tar.zst", TarZst),
            ("t.tgz", TarGz),
            ("t.tzst", TarZst),
            ("t.zip", Zip),
        ]
    );
    assert!(sources.iter().all(|s| s.len == 1));
    assert!(sources.iter().all(|s| s.path.starts_with(&scratch.0)));
    assert_eq!(
        sources.iter().filter(|s| s.is_archive()).count(),
        6,
        "tar, tar.gz, tgz, tar.zst, tzst, zip"
    );
}

#[test]
fn files_given_directly_are_always_taken_under_their_cleaned_path() {
    let scratch = Scratch::new("inputs-given");
    let notes = scratch.write("d/notes.txt", &game(1));
    let loose = scratch.write("d/loose.zst", &zst(&game(2)));
    let dotted = scratch.0.join("d/./notes.txt");
    let sources = discover(&[notes.clone(), loose, dotted, scratch.0.join("d")]).unwrap();
    let base = scratch.0.to_string_lossy().into_owned();
    let got: Vec<(String, SourceKind)> = sources.iter().map(|s| (s.name.clone(), s.kind)).collect();
    assert_eq!(
        got,
        [
            (format!("{base}/d/notes.txt"), SourceKind::Plain),
            (format!("{base}/d/loose.zst"), SourceKind::Zstd),
            // `d/./notes.txt` is the same file: taken once, under its first spelling; the
            // directory holds neither a record file nor an archive by name
        ]
    );
    let (records, result) = read_all(&sources[1]);
    result.unwrap();
    assert_eq!(records, [(format!("{base}/d/loose.zst"), game(2), false)]);
}

#[test]
fn the_same_folder_twice_or_through_a_link_is_taken_once() {
    let scratch = Scratch::new("inputs-twice");
    scratch.write("d/a.sgf", &game(1));
    scratch.write("d/sub/b.sgf", &game(2));
    std::os::unix::fs::symlink(scratch.0.join("d"), scratch.0.join("link")).unwrap();
    let d = scratch.0.join("d");
    let inputs = [
        d.clone(),
        scratch.0.join("./d/"),
        scratch.0.join("link"),
        d.join("a.sgf"),
    ];
    let sources = discover(&inputs).unwrap();
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a.sgf", "sub/b.sgf"]);
    let canonical = fs::canonicalize(&d).unwrap();
    assert!(sources.iter().all(|s| s.canonical.starts_with(&canonical)));
    assert!(sources
        .iter()
        .all(|s| s.root.as_deref() == Some(canonical.as_path())));
}

#[test]
fn link_diamonds_and_loops_walk_each_folder_once() {
    // Each level links twice to the next: 2^depth paths lead to the bottom, one folder each.
    let scratch = Scratch::new("inputs-diamond");
    let depth = 24;
    for level in 0..depth {
        let dir = scratch.0.join(format!("l{level}"));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(format!("g{level}.sgf")), game(level)).unwrap();
        for side in ["left", "right"] {
            let target = scratch.0.join(format!("l{}", level + 1));
            std::os::unix::fs::symlink(&target, dir.join(side)).unwrap();
        }
        // And a loop back to the top.
        std::os::unix::fs::symlink(&scratch.0, dir.join("up")).unwrap();
    }
    fs::create_dir_all(scratch.0.join(format!("l{depth}"))).unwrap();
    let sources = discover(&[scratch.0.join("l0")]).unwrap();
    assert_eq!(sources.len(), depth, "each file once");
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"g0.sgf"), "{names:?}");
    // The first link in name order names what lies behind it.
    assert!(names.contains(&"left/g1.sgf"), "{names:?}");
    assert!(names.contains(&"left/left/g2.sgf"), "{names:?}");
}

#[test]
fn a_fifo_in_a_folder_is_skipped_with_a_reason_and_never_opened() {
    let scratch = Scratch::new("inputs-fifo-walk");
    scratch.write("a.sgf", &game(1));
    let fifo = scratch.0.join("pipe.sgf");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Opening it would block for ever: nobody writes to it.
    let found = discover_all(std::slice::from_ref(&scratch.0)).unwrap();
    let names: Vec<&str> = found.sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a.sgf"]);
    assert_eq!(found.skipped.len(), 1);
    assert_eq!(found.skipped[0].path, fifo);
    assert!(found.unreadable.is_empty());
}

#[test]
fn broken_links_named_as_records_are_skipped_with_a_reason() {
    let scratch = Scratch::new("inputs-broken-links");
    scratch.write("a.sgf", &game(1));
    let dir = &scratch.0;
    std::os::unix::fs::symlink(dir.join("gone.sgf"), dir.join("dangling.sgf")).unwrap();
    std::os::unix::fs::symlink(dir.join("loop.sgf"), dir.join("loop.sgf")).unwrap();
    std::os::unix::fs::symlink(dir.join("z.zip"), dir.join("y.zip")).unwrap();
    std::os::unix::fs::symlink(dir.join("x.zip"), dir.join("x.zip")).unwrap();
    // A broken link of a name no record file has is passed over, as such a file is.
    std::os::unix::fs::symlink(dir.join("gone"), dir.join("notes.txt")).unwrap();
    let found = discover_all(std::slice::from_ref(dir)).unwrap();
    let names: Vec<&str> = found.sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a.sgf"]);
    let skipped: Vec<_> = found
        .skipped
        .iter()
        .map(|s| {
            (
                s.path.strip_prefix(dir).unwrap().to_str().unwrap(),
                s.reason,
            )
        })
        .collect();
    let dangling = "a symbolic link to nothing (its target does not exist)";
    let cycle = "a symbolic link in a loop (it leads back to itself)";
    assert_eq!(
        skipped,
        [
            ("dangling.sgf", dangling),
            ("loop.sgf", cycle),
            ("x.zip", cycle),
            ("y.zip", dangling)
        ]
    );
    assert!(found.unreadable.is_empty());
}

#[test]
fn packed_files_that_are_not_read_are_skipped_with_a_reason() {
    let scratch = Scratch::new("inputs-packed-walk");
    scratch.write("a.sgf", &game(1));
    scratch.write("b.sgf.gz", &gz(&game(2)));
    scratch.write("sub/c.tar.xz", b"not read");
    // Renamed out of the way, and anything else: passed over without a word.
    scratch.write("d.sgf.bak", &game(4));
    scratch.write("notes.txt", b"notes");
    let found = discover_all(std::slice::from_ref(&scratch.0)).unwrap();
    let names: Vec<&str> = found.sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a.sgf"]);
    let skipped: Vec<_> = found
        .skipped
        .iter()
        .map(|s| s.path.strip_prefix(&scratch.0).unwrap().to_path_buf())
        .collect();
    assert_eq!(
        skipped,
        [PathBuf::from("b.sgf.gz"), PathBuf::from("sub/c.tar.xz")]
    );
    assert!(found.skipped.iter().all(|s| s.reason.contains("not read")));
}

#[test]
fn archives_inside_archives_are_handed_over_unread_with_a_reason() {
    let scratch = Scratch::new("inputs-nested");
    let inner = tar_of(&[("x.sgf", game(9))]);
    let members = vec![
        ("a.sgf", game(1)),
        ("inner.tar.gz", gz(&inner)),
        ("inner.zip", zip_of(&[("y.sgf", game(8))])),
        ("b.sgf.gz", gz(&game(2))),
        ("notes.txt", b"notes".to_vec()),
        ("c.sgf.zst", zst(&game(3))),
    ];
    for (name, bytes) in [("n.tar", tar_of(&members)), ("n.zip", zip_of(&members))] {
        let path = scratch.write(name, &bytes);
        let source = only_source(&path);
        let mut got = Vec::new();
        read_source(&source, &mut |r| {
            let member = r.name.rsplit('/').next().unwrap().to_string();
            got.push((member, r.unread.is_some(), r.bytes.is_empty()));
        })
        .unwrap();
        let want = [
            ("a.sgf", false, false),
            ("inner.tar.gz", true, true),
            ("inner.zip", true, true),
            ("b.sgf.gz", true, true),
            ("c.sgf.zst", false, false),
        ]
        .map(|(m, u, e)| (m.to_string(), u, e));
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn members_sharing_a_name_are_all_read_under_names_of_their_own() {
    let scratch = Scratch::new("inputs-same-name");
    let named = |archive: &str, members: &[(&str, Vec<u8>)]| -> Vec<Got> {
        members
            .iter()
            .map(|(m, b)| (format!("{archive}/{m}"), b.clone(), false))
            .collect()
    };
    // The zip writer refuses a name twice: `h.sgf` is renamed `g.sgf` in the bytes (local
    // header and central directory; the checksums cover the content only).
    let mut zip = zip_of(&[("g.sgf", game(1)), ("h.sgf", game(2)), ("k.sgf", game(3))]);
    for i in 0..zip.len() - 5 {
        if &zip[i..i + 5] == b"h.sgf" {
            zip[i] = b'g';
        }
    }
    let source = only_source(&scratch.write("same.zip", &zip));
    let (records, result) = read_all(&source);
    result.unwrap();
    let want = [
        ("g.sgf", game(1)),
        ("g.sgf (2)", game(2)),
        ("k.sgf", game(3)),
    ];
    assert_eq!(records, named(&source.name, &want));
    // tar appends a new version of a file under its name.
    let tar = tar_of(&[("g.sgf", game(1)), ("h.sgf", game(2)), ("g.sgf", game(4))]);
    let source = only_source(&scratch.write("same.tar", &tar));
    let (records, result) = read_all(&source);
    result.unwrap();
    let want = [
        ("g.sgf", game(1)),
        ("h.sgf", game(2)),
        ("g.sgf (2)", game(4)),
    ];
    assert_eq!(records, named(&source.name, &want));
}

/// A zip of stored members written as a stream writes them: each local header without sizes
/// (flag bit 3), the data, then a data descriptor; the central directory has the sizes.
fn streamed_zip(members: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let all: Vec<(&str, Vec<u8>, bool, bool)> = members
        .iter()
        .map(|(n, d)| (*n, d.clone(), true, false))
        .collect();
    zip_by_hand(&all)
}

/// A zip of stored members (name, data, written with a data descriptor, its CRC wrong).
fn zip_by_hand(members: &[(&str, Vec<u8>, bool, bool)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data, descriptor, bad_crc) in members {
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let (crc, len) = (crc.sum() ^ *bad_crc as u32, data.len() as u32);
        let flags = if *descriptor { 8u16 } else { 0 };
        let offset = out.len() as u32;
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes()); // version needed
        out.extend(flags.to_le_bytes());
        out.extend(0u16.to_le_bytes()); // stored
        out.extend([0u8; 4]); // time, date
        if *descriptor {
            out.extend([0u8; 12]); // crc, sizes: in the descriptor
        } else {
            out.extend(crc.to_le_bytes());
            out.extend(len.to_le_bytes());
            out.extend(len.to_le_bytes());
        }
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(name.as_bytes());
        out.extend(data);
        if *descriptor {
            out.extend(0x0807_4b50u32.to_le_bytes());
            out.extend(crc.to_le_bytes());
            out.extend(len.to_le_bytes());
            out.extend(len.to_le_bytes());
        }
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend(20u16.to_le_bytes()); // made by
        central.extend(20u16.to_le_bytes());
        central.extend(flags.to_le_bytes());
        central.extend(0u16.to_le_bytes());
        central.extend([0u8; 4]);
        central.extend(crc.to_le_bytes());
        central.extend(len.to_le_bytes());
        central.extend(len.to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        central.extend([0u8; 12]); // extra, comment, disk, attributes
        central.extend(offset.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let (start, size) = (out.len() as u32, central.len() as u32);
    out.extend(central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]); // disks
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((members.len() as u16).to_le_bytes());
    out.extend(size.to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

#[test]
fn members_sharing_a_name_that_local_headers_cannot_give_come_from_the_central_directory() {
    let scratch = Scratch::new("inputs-same-name-streamed");
    let members = [("g.sgf", game(1)), ("k.sgf", game(2)), ("g.sgf", game(3))];
    // Without a name twice, such a zip is read whole by its central directory.
    let source = only_source(&scratch.write("plain.zip", &streamed_zip(&members[..2])));
    let (records, result) = read_all(&source);
    result.unwrap();
    assert_eq!(records.len(), 2);
    // With one, what the local headers cannot give comes from the central directory, one
    // member of each name, and the archive is said to be read so.
    let source = only_source(&scratch.write("same.zip", &streamed_zip(&members)));
    let (records, result) = read_all(&source);
    let err = result.unwrap_err().to_string();
    assert!(err.contains("share a name"), "{err}");
    let mut got: Vec<_> = records
        .iter()
        .map(|r| (r.0.rsplit('/').next().unwrap().to_string(), r.1.clone()))
        .collect();
    got.sort();
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[1], ("k.sgf".to_string(), game(2)));
    assert_eq!(got[0].0, "g.sgf");
    // The local headers give the first members, the central directory the rest; progress never
    // goes back (`read_all` asserts it), and a broken member met there is named.
    let members = [
        ("g.sgf", game(1), false, false),
        ("g.sgf", game(2), false, false),
        ("k.sgf", game(3), true, true),
    ];
    let source = only_source(&scratch.write("mixed.zip", &zip_by_hand(&members)));
    let (records, result) = read_all(&source);
    let err = result.unwrap_err().to_string();
    assert!(err.contains("there, k.sgf"), "{err}");
    let names: Vec<&str> = records
        .iter()
        .map(|r| r.0.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(names, ["g.sgf", "g.sgf (2)", "k.sgf"]);
    assert!(records[2].2, "the broken member is flagged");
}

/// A folder whose path is longer than the system takes (PATH_MAX), made by a shell stepping
/// down into it (bash: dash refuses a working directory that long): it cannot be listed by its
/// path, even by root, so it stands for any folder
/// that cannot be read.
fn unreadable_folder(under: &Path) -> PathBuf {
    let part = "d".repeat(250);
    fs::create_dir_all(under).unwrap();
    let script = format!("cd '{}' && for i in $(seq 18); do mkdir {part} && cd {part}; done && echo '(;B[aa])' > deep.sgf", under.display());
    let made = std::process::Command::new("bash")
        .arg("-c")
        .arg(&script)
        .status()
        .unwrap();
    assert!(made.success());
    let mut path = under.to_path_buf();
    for _ in 0..18 {
        path.push(&part);
    }
    path
}

#[test]
fn an_unreadable_subfolder_is_reported_and_the_walk_goes_on() {
    let scratch = Scratch::new("inputs-unreadable");
    scratch.write("a.sgf", &game(1));
    scratch.write("z/b.sgf", &game(2));
    unreadable_folder(&scratch.0.join("m"));
    let found = discover_all(std::slice::from_ref(&scratch.0)).unwrap();
    let names: Vec<&str> = found.sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a.sgf", "z/b.sgf"]);
    assert_eq!(found.unreadable.len(), 1, "{:?}", found.unreadable);
    let message = found.unreadable[0].to_string();
    assert!(
        message.contains("ddd") && message.contains("too long"),
        "{message}"
    );
    // `discover` (for `info` and `show`) still says so as an error.
    assert!(discover(std::slice::from_ref(&scratch.0)).is_err());
}

#[test]
fn names_that_are_not_utf8_stay_apart() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = Scratch::new("inputs-not-utf8");
    let mut paths = Vec::new();
    for byte in [0xFE, 0xFF] {
        let bytes = [b'a', byte, b'.', b's', b'g', b'f'];
        let path = scratch.0.join(std::ffi::OsStr::from_bytes(&bytes));
        fs::write(&path, game(byte as usize)).unwrap();
        paths.push(path);
    }
    let sources = discover(std::slice::from_ref(&scratch.0)).unwrap();
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a\\xFE.sgf", "a\\xFF.sgf"]);
    // Given directly, the same escaping; bookkeeping keys give the path back.
    let given = discover(&paths).unwrap();
    assert!(given[0].name.ends_with("/a\\xFE.sgf"), "{}", given[0].name);
    for (path, source) in paths.iter().zip(&given) {
        let key = path_key(&source.canonical);
        assert_eq!(
            path_of_key(&key).as_deref(),
            Some(source.canonical.as_path())
        );
        assert!(source.canonical.ends_with(path.file_name().unwrap()));
    }
    assert_ne!(path_key(&given[0].canonical), path_key(&given[1].canonical));
    // A backslash in a valid name is kept; in a key it is doubled, so keys stay apart from
    // escapes.
    let odd = Path::new("/x/a\\xFF.sgf");
    assert_eq!(path_of_key(&path_key(odd)).as_deref(), Some(odd));
}

#[test]
fn a_pipe_given_directly_is_read_as_a_stream() {
    let scratch = Scratch::new("inputs-fifo-given");
    let fifo = scratch.0.join("games");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // More than a pipe holds at once, so the writer blocks until it is read.
    let text: Vec<u8> = (0..4000).flat_map(game).collect();
    let writer = {
        let (fifo, text) = (fifo.clone(), text.clone());
        std::thread::spawn(move || fs::write(fifo, text).unwrap())
    };
    let source = only_source(&fifo);
    assert!(source.stream);
    let (records, result) = read_all(&source);
    result.unwrap();
    writer.join().unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].1, text);
}

#[test]
fn a_missing_input_is_an_error_naming_it() {
    let scratch = Scratch::new("inputs-missing");
    scratch.write("a.sgf", &game(1));
    let missing = scratch.0.join("nope.sgf");
    let err = discover(&[scratch.0.clone(), missing.clone()]).unwrap_err();
    assert!(matches!(&err, InputError::Missing { path } if *path == missing));
    assert!(err.to_string().contains("nope.sgf"), "{err}");
}

#[test]
fn plain_and_compressed_files() {
    let scratch = Scratch::new("inputs-plain");
    scratch.write("small.sgf", &game(1));
    scratch.write("empty.sgf", b"");
    let big: Vec<u8> = (0..10_000).flat_map(game).collect();
    assert!(big.len() > 256 * 1024);
    scratch.write("big.sgf", &big);
    scratch.write("coll/2009-01.sgf.zst", &zst(&big));
    let sources = discover(std::slice::from_ref(&scratch.0)).unwrap();
    let by_name = |name: &str| sources.iter().find(|s| s.name == name).unwrap();

    let mut mapped = false;
    read_source(by_name("big.sgf"), &mut |record| {
        mapped = matches!(record.bytes, RecordBytes::Mapped(_));
        assert_eq!(&record.bytes[..], &big[..]);
        assert_eq!(record.consumed, big.len() as u64);
    })
    .unwrap();
    assert!(mapped, "a large plain file is mapped");

    let mut empty = false;
    read_source(by_name("empty.sgf"), &mut |record| {
        empty = matches!(record.bytes, RecordBytes::Empty) && record.bytes.is_empty();
    })
    .unwrap();
    assert!(empty);

    let (records, result) = read_all(by_name("small.sgf"));
    result.unwrap();
    assert_eq!(records, [("small.sgf".to_string(), game(1), false)]);

    let (records, result) = read_all(by_name("coll/2009-01.sgf.zst"));
    result.unwrap();
    assert_eq!(records, [("coll/2009-01.sgf.zst".to_string(), big, false)]);
}

/// Members of every archive kind: names, bytes, what is skipped.
fn sample_members() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("./kgs/2001/a.sgf", game(1)),
        ("kgs/2001/readme.txt", b"not a record".to_vec()),
        ("kgs/2001/B.SGF", game(2)),
        ("/abs/c.wtf", game(3)),
        ("coll/2017-05.sgf.zst", zst(&game(4))),
        ("empty.sgf", Vec::new()),
        ("nested.zip", b"PK not opened".to_vec()),
    ]
}

fn sample_expected(archive: &str) -> Vec<Got> {
    [
        ("kgs/2001/a.sgf", game(1)),
        ("kgs/2001/B.SGF", game(2)),
        ("abs/c.wtf", game(3)),
        ("coll/2017-05.sgf.zst", game(4)),
        ("empty.sgf", Vec::new()),
        // Handed over unread, to be reported (`Record::unread`).
        ("nested.zip", Vec::new()),
    ]
    .into_iter()
    .map(|(name, bytes)| (format!("{archive}/{name}"), bytes, false))
    .collect()
}

#[test]
fn archives_of_every_kind_yield_their_records() {
    let scratch = Scratch::new("inputs-archives");
    let members = sample_members();
    let tar = tar_of(&members);
    scratch.write("in/x.tar", &tar);
    scratch.write("in/x.tar.gz", &gz(&tar));
    scratch.write("in/x.tgz", &gz(&tar));
    scratch.write("in/x.tar.zst", &zst(&tar));
    scratch.write("in/x.TZST", &zst(&tar));
    // a zip: `/abs/c.wtf` is stored as written; directories are skipped
    let mut zip_members = members.clone();
    zip_members.insert(0, ("kgs/", Vec::new()));
    scratch.write("in/x.zip", &zip_of(&zip_members));

    let sources = discover(&[scratch.0.join("in")]).unwrap();
    assert_eq!(sources.len(), 6);
    for source in &sources {
        let (records, result) = read_all(source);
        result.unwrap_or_else(|err| panic!("{}: {err}", source.name));
        assert_eq!(records, sample_expected(&source.name), "{}", source.name);
    }
}

#[test]
fn gzip_members_concatenated_are_read_whole() {
    let scratch = Scratch::new("inputs-multigz");
    let tar = tar_of(&[("a.sgf", game(1)), ("b.sgf", game(2))]);
    let (head, tail) = tar.split_at(700);
    let mut two = gz(head);
    two.extend(gz(tail));
    let path = scratch.write("two.tar.gz", &two);
    let (records, result) = read_all(&only_source(&path));
    result.unwrap();
    assert_eq!(names(&records).len(), 2);
}

#[test]
fn archives_concatenated_are_read_whole() {
    let scratch = Scratch::new("inputs-catted");
    let a = tar_of(&[("a.sgf", game(1)), ("b.sgf", game(2))]);
    let b = tar_of(&[("c.sgf", game(3))]);
    // `tar` pads an archive to whole records of 10,240 bytes: zeros after the marker.
    let mut padded = a.clone();
    padded.resize(a.len().div_ceil(10_240) * 10_240, 0);
    for (name, bytes) in [
        ("cat.tar", [padded.clone(), b.clone()].concat()),
        ("cat.tar.gz", [gz(&a), gz(&b)].concat()),
        ("cat.tar.zst", [zst(&padded), zst(&b)].concat()),
        (
            "padded.tar",
            [padded.clone(), b.clone(), vec![0; 1500]].concat(),
        ),
    ] {
        let path = scratch.write(name, &bytes);
        let source = only_source(&path);
        let (records, result) = read_all(&source);
        result.unwrap_or_else(|e| panic!("{name}: {e}"));
        let want: Vec<String> = ["a.sgf", "b.sgf", "c.sgf"]
            .iter()
            .map(|m| format!("{}/{m}", source.name))
            .collect();
        assert_eq!(names(&records), want, "{name}");
        assert_eq!(records[2].1, game(3));
    }
}

#[test]
fn padding_after_an_archive_is_not_damage() {
    let scratch = Scratch::new("inputs-padding");
    let tar = tar_of(&[("a.sgf", game(1)), ("b.sgf", game(2))]);
    // Zeros after the compressed stream (tape blocks), as gzip -d takes them; and after a
    // member that another follows.
    let mut gz_padded = gz(&tar);
    gz_padded.resize(gz_padded.len().div_ceil(10_240) * 10_240 + 512, 0);
    // A record's padding an older writer left unzeroed: old bytes after the marker, up to the
    // end of the record.
    let mut stale = tar.clone();
    let marker_end = stale.len();
    stale.resize(marker_end.div_ceil(10_240) * 10_240, 0);
    for (i, b) in stale[marker_end + 700..].iter_mut().enumerate() {
        *b = b"old text "[i % 9];
    }
    let (head, tail) = tar.split_at(700);
    let two_padded = [gz(head), vec![0; 100], gz(tail), vec![0; 300]].concat();
    for (name, bytes) in [
        ("gz-padded.tar.gz", gz_padded),
        ("two-padded.tar.gz", two_padded),
        ("stale.tar", stale),
    ] {
        let source = only_source(&scratch.write(name, &bytes));
        let (records, result) = read_all(&source);
        result.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(records.len(), 2, "{name}");
    }
}

#[test]
fn damage_after_the_end_of_archive_marker_is_reported() {
    let scratch = Scratch::new("inputs-after-marker");
    let tar = tar_of(&[("a.sgf", game(1)), ("b.sgf", game(2))]);
    let all = ["a.sgf", "b.sgf"];
    // gzip's CRC and length come last: a byte of the CRC changed, or the trailer cut, is only
    // seen once the stream is read to its end.
    let mut crc = gz(&tar);
    let at = crc.len() - 6;
    crc[at] ^= 1;
    let cut = gz(&tar);
    // zstd hands out a block only once it is whole: the members' block must come before the
    // block that is cut, here one of zeros padding the archive (pseudo-random members first, so
    // that the first block ends before the padding).
    let mut padded = tar_of(&[("a.sgf", long_game(1, 30_000)), ("b.sgf", game(2))]);
    padded.resize(padded.len() + 400_000, 0);
    let zcut = zst(&padded);
    let mut text = tar.clone();
    text.extend(b"some text appended to the archive");
    for (name, bytes) in [
        ("crc.tar.gz", crc),
        ("trailer.tar.gz", cut[..cut.len() - 3].to_vec()),
        ("end.tar.zst", zcut[..zcut.len() - 2].to_vec()),
        ("text.tar", text),
    ] {
        let path = scratch.write(name, &bytes);
        let (records, err) = assert_damaged(&path, &all);
        assert_eq!(records.len(), 2, "{name}");
        assert!(records.iter().all(|r| !r.2), "{name}");
        let text = err.to_string();
        assert!(
            text.contains("after the end-of-archive marker"),
            "{name}: {text}"
        );
        assert!(text.contains("(after 2 records)"), "{name}: {text}");
    }
}

/// Checks that a damaged source delivered `good` first, then reported an error.
fn assert_damaged(path: &Path, good: &[&str]) -> (Vec<Got>, InputError) {
    let source = only_source(path);
    let (records, result) = read_all(&source);
    let err = result.expect_err("damage must be reported");
    let good: Vec<String> = good
        .iter()
        .map(|m| format!("{}/{m}", source.name))
        .collect();
    let got: Vec<String> = names(&records).iter().map(|n| n.to_string()).collect();
    assert!(
        got.len() >= good.len() && got[..good.len()] == good[..],
        "{}: got {got:?}, want {good:?} first; error {err}",
        source.name
    );
    assert!(err.to_string().contains(&source.path.display().to_string()));
    (records, err)
}

#[test]
fn truncated_archives_deliver_the_members_before_the_damage() {
    let scratch = Scratch::new("inputs-truncated");
    let members: Vec<(String, Vec<u8>)> = (0..50)
        .map(|i| (format!("g/{i:02}.sgf"), long_game(i, 4000)))
        .collect();
    let members: Vec<(&str, Vec<u8>)> = members
        .iter()
        .map(|(n, b)| (n.as_str(), b.clone()))
        .collect();
    let tar = tar_of(&members);
    let half = tar.len() / 2;
    let first: Vec<String> = (0..10).map(|i| format!("g/{i:02}.sgf")).collect();

    // tar cut in the middle of a member: that member comes out damaged
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    let path = scratch.write("cut.tar", &tar[..half + 100]);
    let (records, err) = assert_damaged(&path, &first);
    let (_, last, damaged) = records.last().unwrap();
    assert!(*damaged, "the cut member is delivered, flagged");
    assert!(!last.is_empty());
    assert!(records[..records.len() - 1].iter().all(|r| !r.2));
    assert!(
        matches!(
            err,
            InputError::Damaged {
                member: Some(_),
                ..
            }
        ),
        "{err}"
    );

    // tar cut exactly between two members: no end-of-archive marker
    let boundary = {
        // header (512) + data rounded up to 512, for each of the first 7 members
        let per = 512 + members[0].1.len().div_ceil(512) * 512;
        7 * per
    };
    let path = scratch.write("boundary.tar", &tar[..boundary]);
    let (records, err) = assert_damaged(&path, &[]);
    assert_eq!(records.len(), 7);
    assert!(records.iter().all(|r| !r.2));
    assert!(err.to_string().contains("end-of-archive"), "{err}");

    for (name, bytes) in [
        ("cut.tar.zst", zst(&tar)),
        ("cut.tar.gz", gz(&tar)),
        ("cut.zip", zip_of(&members)),
    ] {
        let path = scratch.write(name, &bytes[..bytes.len() * 2 / 3]);
        let (records, _) = assert_damaged(&path, &first);
        for (i, (_, bytes, damaged)) in records.iter().enumerate() {
            if !damaged {
                assert_eq!(*bytes, members[i].1, "{name}: member {i}");
            }
        }
    }

    // a cut collection: what decoded is delivered, flagged
    let big: Vec<u8> = (0..20).flat_map(|i| long_game(i, 4000)).collect();
    let compressed = zst(&big);
    let path = scratch.write("cut.sgf.zst", &compressed[..compressed.len() / 2]);
    let (records, _) = assert_damaged(&path, &[]);
    assert_eq!(records.len(), 1);
    assert!(records[0].2);
    assert!(big.starts_with(&records[0].1));
}

#[test]
fn a_broken_zip_member_is_skipped_and_the_rest_are_read() {
    let scratch = Scratch::new("inputs-zipmember");
    let members: Vec<(String, Vec<u8>)> = (0..5)
        .map(|i| (format!("{i}.sgf"), (0..50).flat_map(|_| game(i)).collect()))
        .collect();
    let members: Vec<(&str, Vec<u8>)> = members
        .iter()
        .map(|(n, b)| (n.as_str(), b.clone()))
        .collect();
    let mut bytes = zip_of(&members);
    // Wreck the compressed data of member 2 (its local header starts with PK\3\4).
    let starts: Vec<usize> = bytes
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == b"PK\x03\x04")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), 5);
    for b in &mut bytes[starts[2] + 40..starts[3] - 4] {
        *b ^= 0x5a;
    }
    let path = scratch.write("broken.zip", &bytes);
    let source = only_source(&path);
    let (records, result) = read_all(&source);
    let err = result.unwrap_err();
    let good: Vec<&Got> = records.iter().filter(|r| !r.2).collect();
    let good_names: Vec<&str> = good.iter().map(|r| r.0.as_str()).collect();
    let want: Vec<String> = [0, 1, 3, 4]
        .iter()
        .map(|i| format!("{}/{i}.sgf", source.name))
        .collect();
    assert_eq!(good_names, want);
    match &err {
        InputError::Damaged { member, more, .. } => {
            assert_eq!(member.as_deref(), Some("2.sgf"));
            assert_eq!(*more, 0);
        }
        other => panic!("unexpected {other}"),
    }
}

#[test]
fn garbage_never_panics() {
    let scratch = Scratch::new("inputs-garbage");
    let mut noise = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..100_000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        noise.push((x >> 16) as u8);
    }
    let tar = tar_of(&[("a.sgf", game(1)), ("b.sgf", game(2))]);
    let zip = zip_of(&[("a.sgf", game(1)), ("b.sgf", game(2))]);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("n.tar", noise.clone()),
        ("n.tar.gz", noise.clone()),
        ("n.tar.zst", noise.clone()),
        ("n.zip", noise.clone()),
        ("n.sgf.zst", noise.clone()),
        ("e.tar", Vec::new()),
        ("e.zip", Vec::new()),
        ("e.tar.zst", Vec::new()),
        ("h.tar", tar[..300].to_vec()),
        ("h.zip", zip[..20].to_vec()),
    ];
    for (name, bytes) in cases {
        let path = scratch.write(name, &bytes);
        let (records, result) = read_all(&only_source(&path));
        assert!(result.is_err(), "{name}: {records:?}");
    }
    // flip bytes all over a small archive: errors are fine, panics are not
    for (name, original) in [("f.tar", &tar), ("f.zip", &zip)] {
        for at in (0..original.len()).step_by(37) {
            let mut bytes = original.clone();
            bytes[at] ^= 0xff;
            let path = scratch.write(name, &bytes);
            let _ = read_all(&only_source(&path));
        }
    }
}

/// The shared datasets folder (required under `QIPU_REQUIRE_DATASETS=1`).
fn datasets() -> Option<PathBuf> {
    testdata::dataset("big").and_then(|big| big.parent().map(Path::to_path_buf))
}

#[test]
fn shared_tygem_ai_tar_yields_its_collections() {
    let Some(datasets) = datasets() else {
        eprintln!("shared datasets absent: skipped");
        return;
    };
    let sources = discover(&[datasets.join("big")]).unwrap();
    let source = sources
        .iter()
        .find(|s| s.name == "tygem-ai.tar.zst")
        .unwrap();
    assert_eq!(source.kind, SourceKind::TarZst);
    let (records, result) = read_all(source);
    result.unwrap();
    assert_eq!(records.len(), 32);
    let names = names(&records);
    assert!(
        names.contains(&"tygem-ai.tar.zst/DolBaram/2017-05.sgf"),
        "{names:?}"
    );
    assert!(
        names.contains(&"tygem-ai.tar.zst/DeepZen(B)/2017-07.sgf"),
        "{names:?}"
    );
    for name in &names {
        let member = name.strip_prefix("tygem-ai.tar.zst/").unwrap();
        let (account, month) = member.split_once('/').unwrap();
        assert!(
            !account.is_empty() && month.len() == "2017-05.sgf".len(),
            "{name}"
        );
    }
    let games: usize = records
        .iter()
        .map(|(_, bytes, _)| bytes.windows(2).filter(|w| *w == b"(;").count())
        .sum();
    assert_eq!(games, 7720);

    let monthly = sources
        .iter()
        .find(|s| s.name == "tygem-9d/2009-01.sgf.zst")
        .unwrap();
    assert_eq!(monthly.kind, SourceKind::Zstd);
    let (records, result) = read_all(monthly);
    result.unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].1.len(), 15_079_178);
}

#[test]
fn shared_kgs_tar_yields_every_game() {
    let Some(datasets) = datasets() else {
        eprintln!("shared datasets absent: skipped");
        return;
    };
    let source = only_source(&datasets.join("big/kgs-6d.tar.zst"));
    assert!(
        source.name.ends_with("big/kgs-6d.tar.zst"),
        "{}",
        source.name
    );
    let mut count = 0;
    let mut last_consumed = 0;
    let mut first = None;
    read_source(&source, &mut |record| {
        count += 1;
        last_consumed = record.consumed;
        assert!(record.bytes.starts_with(b"(;"), "{}", record.name);
        first.get_or_insert(record.name);
    })
    .unwrap();
    assert_eq!(count, 32_047);
    assert_eq!(
        first.unwrap(),
        format!("{}/kgs-6d/KGS2002/2002-07-17-5.sgf", source.name)
    );
    assert!(last_consumed > source.len / 2);
}

#[test]
fn shared_diverse_sources_match_the_oracle_files() {
    let Some(datasets) = datasets() else {
        eprintln!("shared datasets absent: skipped");
        return;
    };
    let oracle = datasets.join("../oracle/diverse");
    let mut want = std::collections::BTreeSet::new();
    for file in ["universe.jsonl", "excluded.jsonl"] {
        let Ok(text) = fs::read_to_string(oracle.join(file)) else {
            eprintln!("oracle absent: skipped");
            return;
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            want.insert(value["file"].as_str().unwrap().to_string());
        }
    }
    let sources = discover(&[datasets.join("diverse")]).unwrap();
    let got: std::collections::BTreeSet<String> = sources.iter().map(|s| s.name.clone()).collect();
    assert_eq!(got.len(), sources.len(), "names are unique");
    // The oracle's universe is the SGF-family files; the walk also takes the GIB, NGF, UGF/UGI
    // and kifu-line files (read by `sgf::foreign`), among them every file of `other_formats/`.
    let foreign = |n: &str| {
        let n = n.to_ascii_lowercase();
        [".gib", ".ngf", ".ugf", ".ugi", ".kifu"]
            .iter()
            .any(|e| n.ends_with(e))
    };
    let (other, sgf): (std::collections::BTreeSet<String>, _) =
        got.into_iter().partition(|n| foreign(n));
    assert_eq!(sgf, want);
    assert_eq!(
        other
            .iter()
            .filter(|n| n.starts_with("other_formats/"))
            .count(),
        13,
        "{other:?}"
    );
    assert!(
        other.contains("kifu_line_format/tom_2003-09.kifu"),
        "{other:?}"
    );
    let mut sorted = sources.clone();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(sorted, sources, "sources come sorted by name");
}

#[test]
fn a_large_file_cut_while_mapped_reads_zeros_past_the_cut_and_says_so() {
    let scratch = Scratch::new("inputs-cut");
    let mut bytes = Vec::new();
    let mut n = 0;
    while bytes.len() < 1 << 20 {
        bytes.extend(game(n));
        n += 1;
    }
    let path = scratch.write("big.sgf", &bytes);
    let source = only_source(&path);
    let mut got = Vec::new();
    read_source(&source, &mut |rec| {
        assert!(
            matches!(rec.bytes, RecordBytes::Mapped(_)),
            "a large file is mapped"
        );
        assert!(!rec.bytes.cut_while_read());
        // Another program cuts the file to a quarter while its record is being read.
        fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(bytes.len() as u64 / 4)
            .unwrap();
        // Without the guard, this read kills the process with SIGBUS.
        let zeros = rec.bytes[bytes.len() / 2..].iter().all(|&b| b == 0);
        got.push((
            zeros,
            rec.bytes[..100] == bytes[..100],
            rec.bytes.cut_while_read(),
        ));
    })
    .unwrap();
    assert_eq!(got, [(true, true, true)]);
}

/// Rewrites `path` in place, the same size, with other bytes, and a modification time a minute
/// later than it had (as a writer's clock gives it; set here so that the check cannot depend on
/// the file system's clock resolution).
fn rewrite_in_place(path: &Path) {
    let meta = fs::metadata(path).unwrap();
    let file = fs::OpenOptions::new().write(true).open(path).unwrap();
    use std::os::unix::fs::FileExt;
    file.write_all_at(&vec![b'x'; meta.len() as usize / 2], 0)
        .unwrap();
    let later = meta.modified().unwrap() + std::time::Duration::from_secs(60);
    file.set_modified(later).unwrap();
}

#[test]
fn a_large_file_rewritten_while_mapped_says_so() {
    let scratch = Scratch::new("inputs-torn");
    let mut bytes = Vec::new();
    let mut n = 0;
    while bytes.len() < 1 << 20 {
        bytes.extend(game(n));
        n += 1;
    }
    let path = scratch.write("big.sgf", &bytes);
    let source = only_source(&path);
    let mut got = Vec::new();
    read_source(&source, &mut |rec| {
        assert!(matches!(rec.bytes, RecordBytes::Mapped(_)));
        let before = rec.changed_while_read();
        // Another program overwrites the file in place while its record is being read: the
        // map now shows its new bytes, torn from the old.
        rewrite_in_place(&path);
        got.push((
            before,
            rec.bytes[..10] == bytes[..10],
            rec.changed_while_read(),
            rec.bytes.cut_while_read(),
        ));
    })
    .unwrap();
    assert_eq!(got, [(false, false, true, false)]);
}

#[test]
fn a_small_file_read_whole_is_not_torn_by_a_later_rewrite() {
    let scratch = Scratch::new("inputs-torn-small");
    let path = scratch.write("small.sgf", &game(1));
    let source = only_source(&path);
    let mut got = Vec::new();
    read_source(&source, &mut |rec| {
        assert!(matches!(rec.bytes, RecordBytes::Owned(_)));
        // Its bytes are a copy made before the rewrite.
        rewrite_in_place(&path);
        got.push((rec.bytes[..] == game(1)[..], rec.changed_while_read()));
    })
    .unwrap();
    assert_eq!(got, [(true, false)]);
}

/// The root properties PW, PB, KM and DT of each game of a kifu-line move file read with the
/// index files near it, by game id; and the file's diagnostics.
type KifuGames = (Vec<(String, [String; 4])>, Vec<String>);

fn kifu_games(move_file: &Path) -> KifuGames {
    let (records, result) = read_all(&only_source(move_file));
    result.unwrap();
    let read = sgf::Records::read(&records[0].1);
    let games = (0..read.len())
        .map(|i| {
            let tree = read.game(i).unwrap();
            let prop = |id| {
                tree.root()
                    .get(id)
                    .map(|p| p.text().into_owned())
                    .unwrap_or_default()
            };
            use sgf::ids::{DT, GN, KM, PB, PW};
            (prop(GN), [prop(PW), prop(PB), prop(KM), prop(DT)])
        })
        .collect();
    let diagnostics = read.diagnostics().iter().map(|d| d.to_string()).collect();
    (games, diagnostics)
}

#[test]
fn a_kifu_move_file_takes_an_id_from_its_own_index_first() {
    let Some(diverse) = testdata::dataset("diverse") else {
        return;
    };
    // Two months of Tom's dataset made from the shared example's real lines, edited: game A is
    // in both months' move files and both months' indexes, each month's with other players and
    // komi (a server reusing an id); game B is in January's moves and only in February's index.
    let from = diverse.join("kifu_line_format");
    let moves = fs::read_to_string(from.join("tom_2003-09.kifu")).unwrap();
    let index = fs::read_to_string(from.join("tom_2003-09.index")).unwrap();
    let line = |text: &str, id: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{id}\t")))
            .unwrap()
            .to_string()
    };
    let (a, b) = ("354460", "355131");
    let scratch = Scratch::new("inputs-kifu-own-index");
    let january = scratch.write(
        "2010-01.kifu",
        format!("{}\n{}\n", line(&moves, a), line(&moves, b)).as_bytes(),
    );
    let february = scratch.write("2010-02.kifu", format!("{}\n", line(&moves, a)).as_bytes());
    let a_january = line(&index, a).replace("2003.09", "2010.01");
    scratch.write("2010-01.index", format!("{a_january}\n").as_bytes());
    let a_february = line(&index, a)
        .replace("2003.09", "2010.02")
        .replace("忧郁的孤影\t楚阳春\t6.5", "江城子\tkanyin111\t0.5");
    let b_february = line(&index, b).replace("2003.09", "2010.02");
    scratch.write(
        "2010-02.index",
        format!("{a_february}\n{b_february}\n").as_bytes(),
    );
    let facts = |w: &str, b: &str, km: &str, dt: &str| [w, b, km, dt].map(String::from);

    // January's own index gives A (though February's sorts after it); B comes from February's.
    let (games, diagnostics) = kifu_games(&january);
    assert_eq!(
        games,
        [
            (a.into(), facts("忧郁的孤影", "楚阳春", "6.5", "2010-01-25")),
            (b.into(), facts("江城子", "楚阳春", "6.5", "2010-02-25")),
        ]
    );
    let conflict = "game 354460 is in 2010-01.index and in 2010-02.index, with different \
                    players and komi: those of 2010-01.index are taken";
    assert!(
        diagnostics.iter().any(|d| d.contains(conflict)),
        "{diagnostics:?}"
    );
    assert_eq!(diagnostics.len(), 1, "only A's: {diagnostics:?}");

    // February's own index gives A (though January's sorts before it).
    let (games, diagnostics) = kifu_games(&february);
    assert_eq!(
        games,
        [(a.into(), facts("江城子", "kanyin111", "0.5", "2010-02-25"))]
    );
    assert!(
        diagnostics.iter().any(|d| d.contains(
            "game 354460 is in 2010-02.index and in 2010-01.index, with different players \
             and komi: those of 2010-02.index are taken"
        )),
        "{diagnostics:?}"
    );
}
