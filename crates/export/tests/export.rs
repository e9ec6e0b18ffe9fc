//! The export of a small index read back with the parquet crate's own reader: every game and
//! every table entry is there, in row groups no larger than said, and the hash keys rebuild the
//! hashes of the positions the table holds.

use std::collections::HashMap;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::RowAccessor;
use qipu::{build, BuildOptions, Index, Position};

#[test]
fn every_game_and_entry_is_exported_and_the_keys_rebuild_the_hashes() {
    let samples = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
    let own = testdata::Scratch::new("export-records");
    // A copy (answered through its original, so without table rows) and a 9×9 game.
    own.write(
        "copy.sgf",
        &std::fs::read(samples.join("20160313-AlphaGo-vs-Lee-Sedol.sgf")).unwrap(),
    );
    own.write("small.sgf", b"(;SZ[9]PB[a]PW[b]RE[B+R];B[ee];W[cc];B[gg])");
    let dir = testdata::Scratch::new("export-index");
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir.0, &[samples, own.0.clone()], &opts, |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    let out = testdata::Scratch::new("export-out");
    let mut calls = 0;
    let summary = qipu_export::export(&index, &out.0, |_| calls += 1).unwrap();
    assert!(calls > 0);
    assert_eq!(summary.games, u64::from(index.len()));
    assert_eq!(summary.positions, index.position_table().count() as u64);
    assert_eq!(summary.files.len(), 3);

    let open = |name: &str| {
        SerializedFileReader::new(std::fs::File::open(out.0.join(name)).unwrap()).unwrap()
    };
    let games = open(qipu_export::file::GAMES);
    assert_eq!(
        games.metadata().file_metadata().num_rows(),
        i64::from(index.len())
    );
    let mut copies = 0;
    for (id, row) in games.get_row_iter(None).unwrap().enumerate() {
        let row = row.unwrap();
        let info = index.game(id as u32).unwrap();
        assert_eq!(row.get_uint(0).unwrap(), id as u32);
        assert_eq!(row.get_string(1).unwrap(), &info.file);
        copies += usize::from(row.get_uint(12).is_ok());
    }
    assert_eq!(copies, 1);

    // hash = key(board) ^ key(stone)… for every position of the small game.
    let keys = open(qipu_export::file::HASH_KEYS);
    let mut stone: HashMap<(Option<String>, u8, u8), u64> = HashMap::new();
    for row in keys.get_row_iter(None).unwrap() {
        let row = row.unwrap();
        let color = row.get_string(0).ok().cloned();
        let (x, y) = (row.get_ubyte(1).unwrap(), row.get_ubyte(2).unwrap());
        stone.insert((color, x, y), row.get_ulong(3).unwrap());
    }
    assert_eq!(stone[&(None, 9, 9)], Position::empty_hash(9, 9));
    let small = (0..index.len())
        .find(|&g| index.game(g).unwrap().file == "small.sgf")
        .unwrap();
    let after_two =
        stone[&(None, 9, 9)] ^ stone[&(Some("B".into()), 4, 4)] ^ stone[&(Some("W".into()), 2, 2)];
    let positions = open(qipu_export::file::POSITIONS);
    let found: Vec<(u32, String)> = positions
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap())
        .filter(|r| r.get_uint(1).unwrap() == small && r.get_ulong(0).unwrap() == after_two)
        .map(|r| {
            (
                r.get_ushort(2).unwrap() as u32,
                r.get_string(4).unwrap().clone(),
            )
        })
        .collect();
    assert_eq!(found, [(2, "gg".to_string())]);
    for g in 0..positions.num_row_groups() {
        let rows = positions.metadata().row_group(g).num_rows();
        assert!(rows as usize <= qipu_export::POSITION_ROW_GROUP);
    }
}

#[test]
fn an_output_that_cannot_be_written_is_an_io_error() {
    let dir = testdata::Scratch::new("export-bad-index");
    let samples = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
    build(&dir.0, &[samples], &BuildOptions::default(), |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    let file = testdata::Scratch::new("export-file");
    std::fs::create_dir_all(&file.0).unwrap();
    let blocker = file.0.join("not-a-folder");
    std::fs::write(&blocker, b"x").unwrap();
    let e = qipu_export::export(&index, &blocker, |_| {}).unwrap_err();
    assert!(matches!(e, qipu_export::ExportError::Io { .. }), "{e}");
    assert!(e.to_string().contains("not-a-folder"));
}
