//! The face's raw material for other engines: the position table entry by entry, each game's
//! facts, and records read without an index — checked against the face's own searches and main
//! lines on the sample games.

use qipu::records::{read_record, read_record_moves, RecordInfo};
use qipu::{build, BuildOptions, Index, Query};

fn sample_index(name: &str) -> (testdata::Scratch, Index) {
    let samples = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
    let own = testdata::Scratch::new(&format!("{name}-records"));
    own.write(
        "copy.sgf",
        &std::fs::read(samples.join("20160313-AlphaGo-vs-Lee-Sedol.sgf")).unwrap(),
    );
    own.write("setup.sgf", b"(;SZ[9]AB[ba]AW[aa]RE[W+3];B[ab];W[cc];B[])");
    let dir = testdata::Scratch::new(name);
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir.0, &[samples, own.0.clone()], &opts, |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    drop(own);
    (dir, index)
}

#[test]
fn every_table_entry_is_the_position_a_replay_reaches() {
    let (_dir, index) = sample_index("tables-entries");
    let mut entries = 0;
    for e in index.position_table() {
        let facts = index.facts(e.game).unwrap();
        assert_eq!(facts.copy_of, None, "copies have no entries of their own");
        let record = index.record(e.game).unwrap();
        let q = Query::from_record(&record, Some(e.k as usize)).unwrap();
        assert_eq!(q.searched_position().unwrap().hash(), e.hash);
        let line = index.main_line(e.game).unwrap();
        assert_eq!(e.next, line.moves.get(e.k as usize).copied());
        entries += 1;
    }
    assert!(entries > 100, "{entries}");
    let copies: Vec<_> = (0..index.len())
        .filter_map(|g| index.facts(g).unwrap().copy_of)
        .collect();
    assert_eq!(copies.len(), 1);
    let setup = (0..index.len())
        .find(|&g| index.game(g).unwrap().file == "setup.sgf")
        .unwrap();
    let f = index.facts(setup).unwrap();
    assert_eq!(
        (f.board, f.moves, f.winner, f.removed, f.long),
        ((9, 9), 3, Some(qipu::Color::White), false, false)
    );
    assert!(index.facts(index.len()).is_err());
}

#[test]
fn records_read_as_the_index_reads_them() {
    let (_dir, index) = sample_index("tables-records");
    for g in 0..index.len() {
        let record = index.record(g).unwrap();
        let file = read_record(&record);
        let game = &file.games[0];
        assert_eq!(game.rejected, None);
        let line = index.main_line(g).unwrap();
        assert_eq!(game.moves, line.moves);
        // Read without its information, the game is the same otherwise.
        let bare = &read_record_moves(&record).games[0];
        assert_eq!(bare.info, RecordInfo::default());
        assert_ne!(game.info, RecordInfo::default());
        assert_eq!(
            (bare.game, bare.format, bare.board, &bare.moves),
            (game.game, game.format, game.board, &game.moves)
        );
        assert_eq!(
            (&bare.diagnostics, &bare.rejected),
            (&game.diagnostics, &game.rejected)
        );
        assert_eq!(bare.board(None).unwrap(), game.board(None).unwrap());
        assert_eq!(game.board, line.board);
        // The board after k moves holds the stones of the position a search for k reads.
        for k in [0, 1, line.moves.len() / 2, line.moves.len()] {
            let cells = game.board(Some(k)).unwrap();
            let q = Query::from_record(&record, Some(k)).unwrap();
            let p = q.searched_position().unwrap();
            for y in 0..cells.height {
                for x in 0..cells.width {
                    let want = match p.get(qipu::Point::new(x, y)) {
                        Some(qipu::Color::Black) => 1,
                        Some(qipu::Color::White) => -1,
                        None => 0,
                    };
                    assert_eq!(
                        cells.cells[usize::from(y) * usize::from(cells.width) + usize::from(x)],
                        want
                    );
                }
            }
        }
        assert!(game.board(Some(line.moves.len() + 1)).is_err());
    }
    let broken = read_record(b"not a record at all");
    assert!(broken.games.is_empty() && !broken.diagnostics.is_empty());
}
