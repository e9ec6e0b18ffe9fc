//! The continuation statistics of a tiny index, row by row, against counts made by hand; the
//! ClickHouse export's files read back; and the SQL refused where the statistics cannot answer.

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::RowAccessor;
use qipu::{build, BuildOptions, Color, Index, Move, Point, Position, Query};
use qipu_export::stats::{stats_rows, StatsRow};

/// Three 9×9 games, one segment each (so the table is merged from three runs): `a` and `c`
/// share their facts; `b` is an exact copy of `a` with other facts (and no table entries).
fn tiny(name: &str) -> (testdata::Scratch, Index) {
    let own = testdata::Scratch::new(&format!("{name}-records"));
    own.write(
        "a.sgf",
        b"(;SZ[9]DT[2016-03-13]BR[9p]WR[3k]KM[6.5]RE[B+R];B[ee];W[cc];B[gg])",
    );
    own.write("b.sgf", b"(;SZ[9]DT[2017]RE[W+2];B[ee];W[cc];B[gg])");
    own.write(
        "c.sgf",
        b"(;SZ[9]DT[2016-03-20]BR[9p]WR[3k]KM[6.5]RE[B+R];B[ee];W[gc])",
    );
    let dir = testdata::Scratch::new(&format!("{name}-index"));
    let opts = BuildOptions {
        rebuild: true,
        segment_games: 1,
        ..BuildOptions::default()
    };
    build(&dir.0, std::slice::from_ref(&own.0), &opts, |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    (dir, index)
}

fn id(index: &Index, file: &str) -> u32 {
    (0..index.len())
        .find(|&g| index.game(g).unwrap().file == file)
        .unwrap()
}

fn mv(color: Color, x: u8, y: u8) -> Option<Move> {
    Some(Move {
        color,
        point: Some(Point::new(x, y)),
    })
}

#[test]
fn the_statistics_of_a_tiny_index_are_the_hand_counted_ones() {
    let (_dir, index) = tiny("stats-rows");
    let (a, b, c) = (
        id(&index, "a.sgf"),
        id(&index, "b.sgf"),
        id(&index, "c.sgf"),
    );
    assert_eq!(index.facts(b).unwrap().copy_of, Some(a));
    let rows: Vec<StatsRow> = stats_rows(&index).map(Result::unwrap).collect();

    let key = |color, x, y| Position::stone_key(color, Point::new(x, y));
    let empty = Position::empty_hash(9, 9);
    let after_ee = empty ^ key(Color::Black, 4, 4);
    let after_cc = after_ee ^ key(Color::White, 2, 2);
    let after_gg = after_cc ^ key(Color::Black, 6, 6);
    let after_gc = after_ee ^ key(Color::White, 6, 2);
    // The facts of a and c (2016-03, 9p = 69 against 3k = 48, komi 6.5 = 26 quarters), and b's.
    let ac = |hash, next, games, example| StatsRow {
        hash,
        next,
        year: 2016,
        month: 3,
        black_rank: 69,
        white_rank: 48,
        handicap: 0,
        komi_quarters: Some(26),
        games,
        black_wins: games,
        white_wins: 0,
        games_once: games,
        black_wins_once: games,
        white_wins_once: 0,
        example,
        example_once: Some(example),
    };
    // b is counted with each copy (White won it) and never once: its original a comes first.
    let b_row = |hash, next| StatsRow {
        hash,
        next,
        year: 2017,
        month: 0,
        black_rank: 0,
        white_rank: 0,
        handicap: 0,
        komi_quarters: None,
        games: 1,
        black_wins: 0,
        white_wins: 1,
        games_once: 0,
        black_wins_once: 0,
        white_wins_once: 0,
        example: b,
        example_once: None,
    };
    let mut want = vec![
        // The empty board: a and c played B ee (one row, their facts agree), b too.
        ac(empty, mv(Color::Black, 4, 4), 2, a.min(c)),
        b_row(empty, mv(Color::Black, 4, 4)),
        // After B ee: W cc in a and b, W gc in c.
        ac(after_ee, mv(Color::White, 2, 2), 1, a),
        b_row(after_ee, mv(Color::White, 2, 2)),
        ac(after_ee, mv(Color::White, 6, 2), 1, c),
        ac(after_cc, mv(Color::Black, 6, 6), 1, a),
        b_row(after_cc, mv(Color::Black, 6, 6)),
        // Where the games ended: no next move.
        ac(after_gg, None, 1, a),
        b_row(after_gg, None),
        ac(after_gc, None, 1, c),
    ];
    // By hash, then within a hash as written (the order of the rows above).
    want.sort_by_key(|r| r.hash);
    assert_eq!(rows, want);
}

#[test]
fn the_clickhouse_export_writes_its_files_and_the_sql_refuses_what_it_cannot_answer() {
    let (_dir, index) = tiny("stats-files");
    let out = testdata::Scratch::new("stats-out");
    let summary = qipu_export::clickhouse::export(&index, &out.0, |_| {}).unwrap();
    assert_eq!(summary.games, 3);
    assert_eq!(summary.positions, 10);
    let names: Vec<_> = summary
        .files
        .iter()
        .map(|(p, _)| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "games.parquet",
            "stats.parquet",
            "symmetries.parquet",
            "schema.sql",
            "load.sh"
        ]
    );
    let stats =
        SerializedFileReader::new(std::fs::File::open(out.0.join("stats.parquet")).unwrap())
            .unwrap();
    // No komi is i16::MIN, a missing example u32::MAX.
    let rows: Vec<_> = stats
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert!(rows
        .iter()
        .any(|r| r.get_short(8).unwrap() == i16::MIN && r.get_uint(16).unwrap() == u32::MAX));
    // A 9×9 board's 8 symmetries, 81 points and a pass each.
    let syms =
        SerializedFileReader::new(std::fs::File::open(out.0.join("symmetries.parquet")).unwrap())
            .unwrap();
    assert_eq!(syms.metadata().file_metadata().num_rows(), 8 * 82);
    let schema = std::fs::read_to_string(out.0.join("schema.sql")).unwrap();
    assert!(schema.contains("ENGINE = Distributed('{{cluster}}', qipu, stats_local, hash)"));

    let sql = qipu_export::sql::position_sql(&Query::points(9, "ee", "").unwrap()).unwrap();
    assert!(sql.contains(&after(Position::empty_hash(9, 9), &[(4, 4)]).to_string()));
    assert!(sql.contains("sum(games_once)"));
    let copies = Query::points(9, "ee", "").unwrap().with_copies(true);
    assert!(qipu_export::sql::position_sql(&copies)
        .unwrap()
        .contains("sum(games)"));
    let pattern = Query::pattern("X.\n.O").unwrap();
    assert!(matches!(
        qipu_export::sql::position_sql(&pattern),
        Err(qipu_export::sql::SqlError::NotAPosition)
    ));
    let filtered = Query::points(9, "ee", "").unwrap().filter("winner:B");
    assert!(qipu_export::sql::position_sql(&filtered).is_err());
    // 21 stones: a whole first and last row, and three more.
    let row = |y: char| -> Vec<String> { ('a'..='i').map(|x| format!("{x}{y}")).collect() };
    let black = [row('a'), vec!["ac".into(), "bc".into(), "cc".into()]].concat();
    let many = Query::points(9, &black.join(","), &row('i').join(",")).unwrap();
    let e = qipu_export::sql::position_sql(&many).unwrap_err();
    assert!(e.to_string().contains("at most 20 stones"), "{e}");
}

/// The hash of the empty board `empty` with black stones at `points`.
fn after(empty: u64, points: &[(u8, u8)]) -> u64 {
    points.iter().fold(empty, |h, &(x, y)| {
        h ^ Position::stone_key(Color::Black, Point::new(x, y))
    })
}

/// Fox's Chinese-rules komi, 3.75, is not 4 in the ClickHouse tables: both columns keep the
/// quarter (as the index does), and `--sql --komi 3.6..3.9` keeps the 3.75 games only, as
/// `qipu search --komi` does.
#[test]
fn the_clickhouse_tables_keep_a_quarter_komi() {
    let own = testdata::Scratch::new("quarter-komi-records");
    own.write("fox.sgf", b"(;SZ[9]KM[3.75]RE[B+R];B[ee];W[cc])");
    own.write("four.sgf", b"(;SZ[9]KM[4]RE[W+R];B[ee];W[gc])");
    own.write("minus.sgf", b"(;SZ[9]KM[-3.25]RE[W+R];B[ee];W[gg])");
    let dir = testdata::Scratch::new("quarter-komi-index");
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir.0, std::slice::from_ref(&own.0), &opts, |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    let out = testdata::Scratch::new("quarter-komi-out");
    qipu_export::clickhouse::export(&index, &out.0, |_| {}).unwrap();

    let read = |name: &str| {
        SerializedFileReader::new(std::fs::File::open(out.0.join(name)).unwrap()).unwrap()
    };
    let komi_of = |name: &str| -> Vec<i64> {
        let file = read(name);
        let column = file
            .metadata()
            .file_metadata()
            .schema_descr()
            .columns()
            .iter()
            .position(|c| c.name().starts_with("komi"))
            .unwrap();
        let mut komi: Vec<i64> = file
            .get_row_iter(None)
            .unwrap()
            .map(|r| {
                let r = r.unwrap();
                r.get_short(column)
                    .map(i64::from)
                    .or_else(|_| r.get_byte(column).map(i64::from))
                    .unwrap()
            })
            .collect();
        komi.sort_unstable();
        komi.dedup();
        komi
    };
    // In quarter points: −3.25, 3.75 and 4 apart.
    assert_eq!(komi_of("games.parquet"), [-13, 15, 16]);
    assert_eq!(komi_of("stats.parquet"), [-13, 15, 16]);

    let sql = |low, high| {
        qipu_export::sql::position_sql(&Query::points(9, "ee", "").unwrap().komi(low, high))
            .unwrap()
    };
    assert!(sql(3.6, 3.9).contains("komi_quarters BETWEEN 15 AND 15"));
    assert!(sql(3.8, 4.0).contains("komi_quarters BETWEEN 16 AND 16"));
    assert!(sql(-3.3, -3.2).contains("komi_quarters BETWEEN -13 AND -13"));
}
