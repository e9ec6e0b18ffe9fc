//! The metadata index end to end: games written from parsed SGF, then searched with the query
//! language users type.

use std::path::PathBuf;

use meta::{MetaError, MetaIndex, MetaWriter};
use sgf::GameInfo;

/// A fresh directory under the system temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("qipu-meta-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn info(sgf: &str) -> GameInfo {
    let records = sgf::Records::read(sgf.as_bytes());
    let tree = records.game(0).expect("a game");
    GameInfo::read(&tree)
}

/// The games of the main test index, by id.
const GAMES: &[&str] = &[
    // 0
    "(;GM[1]SZ[19]PB[Lee Sedol]BR[9p]PW[Gu Li]WR[9p]EV[Samsung Cup]RO[Final]DT[2005-03-15]RE[B+R]KM[6.5]PC[Seoul])",
    // 1
    "(;GM[1]SZ[19]PB[李世石九段]PW[古力]DT[2008]RE[白中盘胜]KM[7.5]EV[第12届三星杯])",
    // 2
    "(;GM[1]SZ[19]PB[Sedol Lee]PW[Cho Chikun]DT[1996-05-06,07,08]RE[W+3.5]KM[5.5]EV[Kisei])",
    // 3
    "(;GM[1]SZ[9]PB[이창호]PW[Lée Changho]BR[3d]WR[10k]DT[2004-12-30,2005-01-02]RE[B+T]HA[2]KM[0.5])",
    // 4
    "(;GM[1]SZ[19]PB[LEE SEDOL]PW[Gu Li]DT[2010-12-31]RE[0]KM[6.5]GN[Game of the century]GC[a famous ladder])",
    // 5
    "(;GM[1]SZ[13]PB[本因坊秀策]PW[幻庵因碩]DT[1835]RE[Void]EV[御城碁])",
    // 6: no date, no result
    "(;GM[1]SZ[19:13]PB[Alice]PW[Bob])",
];

/// Move counts of the games above.
const MOVES: &[u32] = &[211, 150, 280, 95, 301, 0, 12];

fn build(dir: &TempDir) -> MetaIndex {
    let mut w = MetaWriter::create(&dir.0, 50_000_000).unwrap();
    for (g, sgf) in GAMES.iter().enumerate() {
        let duplicate_of = (g == 4).then_some(0);
        w.add(
            g as u32,
            &info(sgf),
            MOVES[g],
            duplicate_of,
            &format!("f/{g}.sgf"),
        )
        .unwrap();
    }
    w.finish().unwrap();
    MetaIndex::open(&dir.0).unwrap()
}

fn search(m: &MetaIndex, q: &str) -> Vec<u32> {
    match m.search(q) {
        Ok(v) => {
            assert_eq!(m.count(q).unwrap(), v.len(), "count of {q}");
            v
        }
        Err(e) => panic!("{q}: {e}"),
    }
}

fn query_error(m: &MetaIndex, q: &str) -> String {
    match m.search(q) {
        Ok(v) => panic!("{q} should fail, found {v:?}"),
        Err(e @ MetaError::Query { .. }) => {
            let s = e.to_string();
            assert!(!s.contains('\n'), "one line: {s}");
            s
        }
        Err(e) => panic!("{q}: not a query error: {e}"),
    }
}

#[test]
fn metadata_search() {
    let dir = TempDir::new("search");
    let m = build(&dir);
    assert_eq!(m.num_games(), GAMES.len() as u64);

    // CJK: substrings of a run, single characters, Hangul.
    assert_eq!(search(&m, "player:李世石"), [1]);
    assert_eq!(search(&m, "black:李世石"), [1]);
    assert_eq!(search(&m, "white:李世石"), Vec::<u32>::new());
    assert_eq!(search(&m, "black:世石九"), [1]);
    assert_eq!(search(&m, "black:石"), [1]);
    assert_eq!(search(&m, "black:石李"), Vec::<u32>::new());
    assert_eq!(search(&m, "black:이창호"), [3]);
    assert_eq!(search(&m, "player:因坊"), [5]);
    assert_eq!(search(&m, "三星杯"), [1], "default fields include event");

    // Latin: case folding, accents, phrases in order only.
    assert_eq!(search(&m, r#"black:"Lee Sedol""#), [0, 4]);
    assert_eq!(search(&m, "black:sedol"), [0, 2, 4]);
    assert_eq!(search(&m, r#"player:"lee changho""#), [3]);
    assert_eq!(search(&m, "white:lee"), [3]);
    assert_eq!(search(&m, r#"player:"Sedol Lee""#), [2]);
    assert_eq!(search(&m, "Sedol"), [0, 2, 4], "default field player");
    assert_eq!(search(&m, "ladder"), [4], "default field comment");
    assert_eq!(search(&m, r#"name:"game of the century""#), [4]);
    assert_eq!(search(&m, "place:seoul"), [0]);
    assert_eq!(search(&m, "event:samsung AND round:final"), [0]);

    // Dates: partial dates are whole periods; a game matches when its dates overlap the query.
    assert_eq!(search(&m, "date:2005"), [0, 3]);
    assert_eq!(search(&m, "date:2004"), [3]);
    assert_eq!(search(&m, "date:2005-03"), [0]);
    assert_eq!(search(&m, "date:2005-03-15"), [0]);
    assert_eq!(search(&m, "date:2005-03-16"), Vec::<u32>::new());
    assert_eq!(search(&m, "date:[2005 TO 2010]"), [0, 1, 3, 4]);
    assert_eq!(search(&m, "date:[2005-03 TO 2005-06-30]"), [0]);
    assert_eq!(
        search(&m, "date:[2008-06 TO 2009]"),
        [1],
        "a game dated 2008 may be June"
    );
    assert_eq!(search(&m, "date:{2005 TO 2010}"), [1]);
    assert_eq!(search(&m, "date:1996-05-07"), [2], "multi-day shorthand");
    assert_eq!(search(&m, "date:1996-05-09"), Vec::<u32>::new());
    assert_eq!(search(&m, "date:<1900"), [5]);
    assert_eq!(search(&m, "date:>=2010"), [4]);
    assert_eq!(search(&m, "date:>2008"), [4]);
    assert_eq!(search(&m, "date:*"), [0, 1, 2, 3, 4, 5]);
    assert_eq!(search(&m, "NOT date:*"), [6]);
    assert_eq!(search(&m, "date:2010/12/31"), [4]);

    // Results.
    assert_eq!(search(&m, "winner:B"), [0, 3]);
    assert_eq!(search(&m, "winner:black"), [0, 3]);
    assert_eq!(search(&m, "winner:W"), [1, 2]);
    assert_eq!(search(&m, "winner:white"), [1, 2]);
    assert_eq!(search(&m, "winner:draw"), [4]);
    assert_eq!(search(&m, "winner:void"), [5]);
    assert_eq!(search(&m, "winner:unknown"), [6]);
    assert_eq!(search(&m, "how:resignation"), [0, 1]);
    assert_eq!(search(&m, "how:R"), [0, 1]);
    assert_eq!(search(&m, "how:time"), [3]);
    assert_eq!(search(&m, "how:score"), [2]);
    assert_eq!(search(&m, "margin:[3 TO 4]"), [2]);
    assert_eq!(search(&m, r#"result:"B+R""#), [0]);

    // Numbers.
    assert_eq!(search(&m, "komi:6.5"), [0, 4]);
    assert_eq!(search(&m, "komi:[6 TO 7]"), [0, 4]);
    assert_eq!(search(&m, "komi:>7"), [1]);
    assert_eq!(search(&m, "handicap:2"), [3]);
    assert_eq!(search(&m, "handicap:0"), [0, 1, 2, 4, 5, 6]);
    assert_eq!(search(&m, "size:19"), [0, 1, 2, 4, 6]);
    assert_eq!(
        search(&m, "size:13"),
        [5, 6],
        "a 19×13 board has both sizes"
    );
    assert_eq!(search(&m, "size:9"), [3]);
    assert_eq!(search(&m, "moves:>200"), [0, 2, 4]);
    assert_eq!(search(&m, "moves:[100 TO 250]"), [0, 1]);
    assert_eq!(search(&m, "moves:0"), [5]);
    // A value at all: read from the terms where the field has no column.
    assert_eq!(search(&m, "komi:*"), [0, 1, 2, 3, 4]);
    assert_eq!(search(&m, "NOT komi:*"), [5, 6]);
    assert_eq!(search(&m, "margin:*"), [2]);
    assert_eq!(
        search(&m, "handicap:* AND moves:* AND size:*"),
        [0, 1, 2, 3, 4, 5, 6]
    );
    assert_eq!(search(&m, "duplicate:*"), [0, 1, 2, 3, 4, 5, 6]);

    // Ranks.
    assert_eq!(search(&m, "rank:9p"), [0]);
    assert_eq!(search(&m, "rank:>=1d"), [0, 3]);
    // `rank` is either player's rank: game 3 has a 3d and a 10k.
    assert_eq!(search(&m, "rank:10k"), [3]);
    assert_eq!(search(&m, "rank:[2d TO 5d]"), [3]);
    assert_eq!(search(&m, "rank:* AND -rank:9p"), [3]);
    assert_eq!(search(&m, "rank:*"), [0, 3]);
    assert_eq!(search(&m, "black_rank:3d"), [3]);
    assert_eq!(search(&m, "white_rank:<1d"), [3]);
    assert_eq!(search(&m, "white_rank:[10k TO 1k]"), [3]);

    // Copies and files.
    assert_eq!(search(&m, "duplicate:true"), [4]);
    assert_eq!(search(&m, "duplicate:no"), [0, 1, 2, 3, 5, 6]);
    assert_eq!(search(&m, "duplicate_of:0"), [4]);
    assert_eq!(search(&m, "duplicate_of:*"), [4]);
    assert_eq!(search(&m, "game:3"), [3]);
    assert_eq!(search(&m, "game: IN [1 5]"), [1, 5]);
    assert_eq!(search(&m, "game:[2 TO 3]"), [2, 3]);
    assert_eq!(search(&m, r#"file:"f/3.sgf""#), [3]);

    // Combinations.
    assert_eq!(
        search(
            &m,
            r#"black:"Lee Sedol" AND date:[2005 TO 2010] AND winner:B"#
        ),
        [0]
    );
    assert_eq!(search(&m, "black:sedol AND NOT winner:B"), [2, 4]);
    assert_eq!(search(&m, "winner:draw OR winner:void"), [4, 5]);
    assert_eq!(search(&m, "(winner:draw OR how:time) AND size:9"), [3]);
    assert_eq!(search(&m, "NOT winner:B"), [1, 2, 4, 5, 6]);
    assert_eq!(search(&m, "-size:19 -size:9"), [5]);
    assert_eq!(
        search(&m, "lee sedol"),
        [0, 2, 4],
        "terms are ANDed by default"
    );
    assert_eq!(search(&m, "winner: IN [B draw]"), [0, 3, 4]);

    // Errors: one line, naming what is wrong.
    let e = query_error(&m, "colour:black");
    assert!(e.contains("\"colour\""), "{e}");
    let e = query_error(&m, "date_start:5");
    assert!(e.contains("\"date_start\""), "{e}");
    let e = query_error(&m, "date:2005-13");
    assert!(
        e.contains("date") && e.contains("2005-13") && e.contains("month"),
        "{e}"
    );
    let e = query_error(&m, "date:[2005 TO soon]");
    assert!(e.contains("soon"), "{e}");
    let e = query_error(&m, "date:05");
    assert!(e.contains("not a date"), "{e}");
    let e = query_error(&m, "date:2003-02-30");
    assert!(e.contains("no such day"), "{e}");
    let e = query_error(&m, "komi:six");
    assert!(e.contains("komi") && e.contains("six"), "{e}");
    let e = query_error(&m, "winner:green");
    assert!(e.contains("winner") && e.contains("green"), "{e}");
    let e = query_error(&m, "rank:>=master");
    assert!(e.contains("rank") && e.contains("master"), "{e}");
    let e = query_error(&m, r#"black:"Lee"#);
    assert!(e.contains("position"), "{e}");
    let e = query_error(&m, "black:*");
    assert!(e.contains("black:*"), "{e}");
    // A field standing for two is refused as itself.
    for field in ["player", "team"] {
        let e = query_error(&m, &format!("{field}:*"));
        assert!(e.contains(&format!("at {field}:*")), "{e}");
        assert!(!e.contains("black"), "{e}");
    }
    let e = query_error(&m, "date:[2005 TO 2010");
    assert!(e.contains("position"), "{e}");
    let e = query_error(&m, "");
    assert!(e.contains("empty"), "{e}");
}

#[test]
fn statistics_and_summaries() {
    let dir = TempDir::new("stats");
    let m = build(&dir);
    let all = GAMES.len() as u32;
    let top = m.top("player", 3, all).unwrap();
    assert_eq!(
        top,
        [
            ("Gu Li".to_string(), 2),
            ("Alice".to_string(), 1),
            ("Bob".to_string(), 1)
        ]
    );
    let events = m.top("event", 10, all).unwrap();
    assert_eq!(events.len(), 4);
    assert!(m.top("komi", 3, all).is_err());

    let (first, last) = m.date_range(all).unwrap().unwrap();
    assert_eq!(first.to_string(), "1835-01-01");
    assert_eq!(last.to_string(), "2010-12-31");

    // Documents of games past the index's end (left by a killed run) are not counted.
    let top = m.top("player", 100, 4).unwrap();
    assert!(top.contains(&("Gu Li".to_string(), 1)), "{top:?}");
    assert!(!top.iter().any(|(p, _)| p == "LEE SEDOL"), "{top:?}");
    assert_eq!(m.top("event", 10, 4).unwrap().len(), 3);
    let (first, last) = m.date_range(4).unwrap().unwrap();
    assert_eq!(first.to_string(), "1996-05-06");
    assert_eq!(last.to_string(), "2008-12-31");

    let s = m.summary(0).unwrap().unwrap();
    assert_eq!(s.black.as_deref(), Some("Lee Sedol"));
    assert_eq!(s.white_rank.as_deref(), Some("9p"));
    assert_eq!(s.date.as_deref(), Some("2005-03-15"));
    assert_eq!(s.result.as_deref(), Some("B+R"));
    assert_eq!(s.winner, "B");
    assert_eq!(s.komi, Some(6.5));
    assert_eq!(s.moves, 211);
    assert_eq!(s.size, (19, 19));
    assert_eq!(s.file.as_deref(), Some("f/0.sgf"));
    let s = m.summary(6).unwrap().unwrap();
    assert_eq!(s.size, (19, 13));
    assert_eq!(s.date_range, None);
    assert_eq!(m.summary(4).unwrap().unwrap().duplicate_of, Some(0));
    assert_eq!(m.summary(99).unwrap(), None);
}

#[test]
fn reopen_append_and_truncate() {
    let dir = TempDir::new("append");
    {
        let mut w = MetaWriter::create(&dir.0, 50_000_000).unwrap();
        w.add(0, &info(GAMES[0]), 10, None, "a.sgf").unwrap();
        w.add(1, &info(GAMES[1]), 10, None, "a.sgf").unwrap();
        w.commit_with_payload("2").unwrap();
        // Added but never committed: lost, as after a crash.
        w.add(2, &info(GAMES[2]), 10, None, "a.sgf").unwrap();
    }
    assert!(MetaWriter::create(&dir.0, 50_000_000).is_err(), "exists");
    let m = MetaIndex::open(&dir.0).unwrap();
    assert_eq!(m.num_games(), 2);
    assert_eq!(m.payload().unwrap().as_deref(), Some("2"));

    let mut w = MetaWriter::open_or_create(&dir.0, 50_000_000).unwrap();
    assert_eq!(w.payload().unwrap().as_deref(), Some("2"));
    for g in 2..5 {
        w.add(g, &info(GAMES[g as usize]), 10, None, "b.sgf")
            .unwrap();
    }
    w.commit().unwrap();
    m.reload().unwrap();
    assert_eq!(search(&m, "player:sedol"), [0, 2, 4]);
    assert_eq!(search(&m, "player:李世石 OR winner:draw"), [1, 4]);

    // Roll back to three games, then add the fourth again.
    w.truncate(3).unwrap();
    w.add(3, &info(GAMES[3]), 10, None, "b.sgf").unwrap();
    w.finish().unwrap();
    m.reload().unwrap();
    assert_eq!(m.num_games(), 4);
    assert_eq!(search(&m, "player:sedol"), [0, 2]);
    assert_eq!(search(&m, "size:*"), [0, 1, 2, 3]);
    let top = m.top("player", 100, 4).unwrap();
    assert!(top.contains(&("Gu Li".to_string(), 1)), "{top:?}");
    assert!(!top.iter().any(|(p, _)| p == "LEE SEDOL"), "{top:?}");
    assert_eq!(top.len(), 8);
}

#[test]
fn missing_index_is_an_error() {
    let dir = TempDir::new("missing");
    std::fs::create_dir_all(&dir.0).unwrap();
    let e = MetaIndex::open(&dir.0).err().expect("no index");
    assert!(e.to_string().contains("no metadata index"), "{e}");
}

#[test]
fn date_queries_over_month_terms_and_wide_ranges() {
    let dir = TempDir::new("dates");
    let games = [
        // Six years: more months than are indexed one by one.
        "(;GM[1]SZ[19]DT[1990,1995])",
        // Across a month boundary, and across a year boundary.
        "(;GM[1]SZ[19]DT[1993-06-30,1993-07-01])",
        "(;GM[1]SZ[19]DT[1995-12-31,1996-01-01])",
        "(;GM[1]SZ[19]DT[1993-06-15])",
    ];
    let mut w = MetaWriter::create(&dir.0, 50_000_000).unwrap();
    for (g, sgf) in games.iter().enumerate() {
        w.add(g as u32, &info(sgf), 0, None, "f.sgf").unwrap();
    }
    w.finish().unwrap();
    let m = MetaIndex::open(&dir.0).unwrap();
    assert_eq!(search(&m, "date:1993"), [0, 1, 3]);
    assert_eq!(search(&m, "date:1993-06"), [0, 1, 3]);
    assert_eq!(search(&m, "date:1993-07"), [0, 1]);
    assert_eq!(search(&m, "date:[1993-06-16 TO 1993-06-29]"), [0]);
    assert_eq!(search(&m, "date:[1993-06-15 TO 1993-06-30]"), [0, 1, 3]);
    assert_eq!(search(&m, "date:[1980 TO 1989]"), Vec::<u32>::new());
    assert_eq!(search(&m, "date:1996"), [2]);
    assert_eq!(search(&m, "date:[1995-12 TO 1996-02]"), [0, 2]);
    assert_eq!(search(&m, "date:>=1996"), [2]);
    assert_eq!(search(&m, "date:<1993-06-15"), [0]);
}

/// Names, events and results are found through the value dictionary: each distinct value is
/// tokenized once, across runs, and games added in a later run find values an earlier run put
/// in.
#[test]
fn value_dictionary_across_runs() {
    let dir = TempDir::new("values");
    let long_name = format!("{} lee", "x".repeat(40_000));
    {
        let mut w = MetaWriter::create(&dir.0, 50_000_000).unwrap();
        w.add(0, &info(GAMES[0]), 10, None, "a.sgf").unwrap();
        let long = format!("(;PB[{long_name}]PW[Gu Li]EV[Samsung Cup])");
        w.add(1, &info(&long), 10, None, "a.sgf").unwrap();
        w.commit().unwrap();
    }
    {
        // Lee Sedol, Gu Li, Samsung Cup and B+R are in already; Cho Chikun is new.
        let mut w = MetaWriter::open(&dir.0, 50_000_000).unwrap();
        let again = "(;PB[Lee Sedol]PW[Cho Chikun]EV[Samsung Cup]RE[B+R])";
        w.add(2, &info(again), 10, None, "b.sgf").unwrap();
        w.finish().unwrap();
    }
    let m = MetaIndex::open(&dir.0).unwrap();
    assert_eq!(search(&m, "black:sedol"), [0, 2]);
    assert_eq!(search(&m, r#"black:"lee sedol""#), [0, 2]);
    assert_eq!(
        search(&m, "sedol"),
        [0, 2],
        "no field: black, white, event, …"
    );
    assert_eq!(search(&m, "white:gu"), [0, 1]);
    assert_eq!(search(&m, "player:cho OR player:gu"), [0, 1, 2]);
    assert_eq!(search(&m, "event:samsung AND NOT white:cho"), [0, 1]);
    assert_eq!(search(&m, "result:B+R"), [0, 2]);
    assert_eq!(search(&m, "black:nobody"), Vec::<u32>::new());
    // A value longer than a term may be is found by its words all the same.
    assert_eq!(search(&m, "black:lee"), [0, 1, 2]);
    let top = m.top("player", 10, 3).unwrap();
    assert_eq!(top[0], ("Gu Li".to_string(), 2));
    assert_eq!(top[1], ("Lee Sedol".to_string(), 2));

    // One document per distinct value of a kind, however many runs and games brought it.
    let values = tantivy::Index::open_in_dir(dir.0.join("values")).unwrap();
    let searcher = values.reader().unwrap().searcher();
    let kind = values.schema().get_field("kind").unwrap();
    let count = |k: &str| {
        let term = tantivy::Term::from_field_text(kind, k);
        searcher
            .search(
                &tantivy::query::TermQuery::new(term, tantivy::schema::IndexRecordOption::Basic),
                &tantivy::collector::Count,
            )
            .unwrap()
    };
    assert_eq!(
        count("player"),
        4,
        "Lee Sedol, Gu Li, the long name, Cho Chikun"
    );
    assert_eq!(count("event"), 1);
    assert_eq!(count("result"), 1);
}

/// Runs `f` on a thread with a 1 MiB stack, an eighth of the main thread's: a query that
/// recursed without bound would overflow it and abort the test process.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn oversized_queries_are_user_errors() {
    let dir = TempDir::new("limits");
    let m = std::sync::Arc::new(build(&dir));
    let refused = [
        ("(".repeat(5000), "5000 bytes long"),
        ("NOT ".repeat(5000) + "a", "bytes long"),
        ("(".repeat(1000), "1000 parentheses and NOTs"),
        ("NOT ".repeat(1000) + "a", "1000 parentheses and NOTs"),
        ("a AND ".repeat(5000) + "a", "bytes long"),
        ("a ".repeat(500_000), "bytes long"),
        ("-".repeat(5000) + "a", "bytes long"),
        ("+".repeat(4000) + "a", "deep"),
        ("(".repeat(40) + "a" + &")".repeat(40), "column 33"),
        ("NOT ".repeat(33) + "a", "deep"),
        ("(NOT ".repeat(20) + "a", "deep"),
        // Found by fuzzing: the message quoted the pattern, newline and all.
        (
            "date:/016:-0<T (e\x143 A6-0NO\x01\0\n/".to_string(),
            "regular expressions",
        ),
        (
            (0..400)
                .map(|i| format!("w{i}"))
                .collect::<Vec<_>>()
                .join(" AND "),
            "400 terms",
        ),
    ];
    for (q, says) in refused {
        let m = m.clone();
        let shown = format!("{}…", q.chars().take(20).collect::<String>());
        let e = on_small_stack(move || query_error(&m, &q));
        assert!(e.contains(says), "{shown}: {e}");
        assert!(
            e.len() < 200,
            "{shown}: a short message, not the query: {e}"
        );
    }
    // The largest accepted shapes run on the same small stack.
    let accepted = [
        (
            "(".repeat(32) + "black:sedol" + &")".repeat(32),
            vec![0, 2, 4],
        ),
        (
            "NOT (".repeat(16) + "black:sedol" + &")".repeat(16),
            vec![0, 2, 4],
        ),
        ("NOT ".repeat(31) + "black:sedol", vec![1, 3, 5, 6]),
        ("black:sedol OR ".repeat(127) + "black:sedol", vec![0, 2, 4]),
        ("sedol ".repeat(128), vec![0, 2, 4]),
    ];
    for (q, games) in accepted {
        let m = m.clone();
        let shown = format!("{}…", q.chars().take(20).collect::<String>());
        let found = on_small_stack(move || m.search(&q).map_err(|e| e.to_string()));
        assert_eq!(found, Ok(games), "{shown}");
    }
}

/// tantivy's messages repeated the path (`metadata index X: Directory does not exist: 'X'.`);
/// each case now says the path once.
#[test]
fn unopenable_directories_say_the_path_once() {
    let dir = TempDir::new("unopenable");
    std::fs::create_dir_all(&dir.0).unwrap();
    let file = dir.0.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    for (path, says) in [
        (dir.0.join("missing"), "no such directory"),
        (file, "not a directory"),
    ] {
        let e = MetaIndex::open(&path)
            .err()
            .expect("cannot open")
            .to_string();
        let shown = path.display().to_string();
        assert_eq!(e.matches(&shown).count(), 1, "{e}");
        assert!(e.ends_with(says), "{e}");
    }
}

/// Ranges on the numeric fields (answered from their postings, not their columns) and the
/// game ids of every segment (read from each segment's run of consecutive games, or from its
/// column when documents were deleted) agree with the values written, game by game.
#[test]
fn numeric_ranges_over_segments_match_the_values() {
    let dir = TempDir::new("ranges");
    let mut w = MetaWriter::create(&dir.0, 50_000_000).unwrap();
    let mut next = testdata::xorshift(0x9e37_79b9_7f4a_7c15);
    // Per game: moves, komi, handicap.
    let mut values: Vec<(u32, f64, u32)> = Vec::new();
    let mut add = |w: &mut MetaWriter, values: &mut Vec<(u32, f64, u32)>, g: u32| {
        let r = next();
        let moves = (r % 400) as u32;
        let komi = [0.5, 5.5, 6.5, 7.5][(r >> 20) as usize % 4];
        let handicap = [0, 0, 2, 3, 4][(r >> 30) as usize % 5];
        let ha = if handicap > 0 {
            format!("HA[{handicap}]")
        } else {
            String::new()
        };
        let sgf = format!("(;GM[1]SZ[19]PB[b{g}]PW[w{g}]KM[{komi}]{ha})");
        w.add(g, &info(&sgf), moves, None, &format!("f/{g}.sgf"))
            .unwrap();
        values.truncate(g as usize);
        values.push((moves, komi, handicap));
    };
    for g in 0..2_400 {
        add(&mut w, &mut values, g);
        if g % 500 == 499 || g == 2_399 {
            w.commit().unwrap();
        }
    }
    // Games from 2,200 on taken back and written again: the last segment of the first run
    // keeps deleted documents.
    w.truncate(2_200).unwrap();
    for g in 2_200..2_400 {
        add(&mut w, &mut values, g);
    }
    w.finish().unwrap();
    let m = MetaIndex::open(&dir.0).unwrap();
    assert_eq!(m.num_games(), 2_400);

    let expect = |keep: &dyn Fn(&(u32, f64, u32)) -> bool| -> Vec<u32> {
        (0..values.len() as u32)
            .filter(|&g| keep(&values[g as usize]))
            .collect()
    };
    type Keep = Box<dyn Fn(&(u32, f64, u32)) -> bool>;
    let cases: Vec<(&str, Keep)> = vec![
        (
            "moves:[100 TO 250]",
            Box::new(|v| (100..=250).contains(&v.0)),
        ),
        ("moves:{100 TO 250}", Box::new(|v| v.0 > 100 && v.0 < 250)),
        ("moves:>=390", Box::new(|v| v.0 >= 390)),
        ("moves:<3", Box::new(|v| v.0 < 3)),
        ("moves:[0 TO 1000]", Box::new(|_| true)),
        ("komi:[6 TO 7]", Box::new(|v| v.1 == 6.5)),
        ("komi:>=6.5", Box::new(|v| v.1 >= 6.5)),
        ("handicap:[2 TO 3]", Box::new(|v| v.2 == 2 || v.2 == 3)),
        (
            "moves:[100 TO 200] AND komi:6.5",
            Box::new(|v| (100..=200).contains(&v.0) && v.1 == 6.5),
        ),
        (
            "moves:[100 TO 200] OR handicap:>3",
            Box::new(|v| (100..=200).contains(&v.0) || v.2 > 3),
        ),
        (
            "moves:[0 TO 150] AND -komi:[5 TO 6]",
            Box::new(|v| v.0 <= 150 && v.1 != 5.5),
        ),
        (
            "(moves:<50 OR moves:>350) AND (handicap:0 OR komi:<1)",
            Box::new(|v| (v.0 < 50 || v.0 > 350) && (v.2 == 0 || v.1 < 1.0)),
        ),
    ];
    for (q, keep) in &cases {
        let want = expect(keep.as_ref());
        assert!(!want.is_empty(), "{q} should hit some games");
        assert_eq!(search(&m, q), want, "{q}");
    }
}

/// A range open at either end, or at both (`[* TO *]`, `{* TO *}`), is a range like any other:
/// on every numeric field it finds the games `field:*` finds, counted here from the games
/// themselves.
#[test]
fn open_ranges_find_what_has_a_value() {
    let dir = TempDir::new("open");
    let m = build(&dir);
    let all: Vec<u32> = (0..GAMES.len() as u32).collect();
    let with_komi = vec![0, 1, 2, 3, 4];
    let ranked = vec![0, 3];
    let cases: Vec<(&str, Vec<u32>)> = vec![
        ("moves", all.clone()),
        ("size", all.clone()),
        ("handicap", all.clone()),
        ("game", all.clone()),
        ("duplicate", all.clone()),
        ("komi", with_komi),
        ("margin", vec![2]),
        ("duplicate_of", vec![4]),
        ("rank", ranked.clone()),
        ("black_rank", ranked.clone()),
        ("white_rank", ranked),
        ("date", vec![0, 1, 2, 3, 4, 5]),
    ];
    for (field, want) in &cases {
        assert_eq!(&search(&m, &format!("{field}:*")), want, "{field}:*");
        for range in ["[* TO *]", "{* TO *}", "[* TO *}", "{* TO *]"] {
            let q = format!("{field}:{range}");
            assert_eq!(&search(&m, &q), want, "{q}");
        }
    }

    // Open at one end, on moves (counted from MOVES), komi and rank.
    let moves = |keep: &dyn Fn(u32) -> bool| -> Vec<u32> {
        (0..MOVES.len() as u32)
            .filter(|&g| keep(MOVES[g as usize]))
            .collect()
    };
    for (q, want) in [
        ("moves:[* TO 100]", moves(&|n| n <= 100)),
        ("moves:{* TO 95}", moves(&|n| n < 95)),
        ("moves:[* TO 95]", moves(&|n| n <= 95)),
        ("moves:[150 TO *]", moves(&|n| n >= 150)),
        ("moves:{150 TO *]", moves(&|n| n > 150)),
        ("moves:{150 TO *}", moves(&|n| n > 150)),
    ] {
        assert!(!want.is_empty(), "{q} should hit some games");
        assert_eq!(search(&m, q), want, "{q}");
    }
    assert_eq!(search(&m, "komi:[* TO 6]"), [2, 3]);
    assert_eq!(search(&m, "komi:[7 TO *]"), [1]);
    assert_eq!(search(&m, "rank:[* TO 1k]"), [3]);
    assert_eq!(search(&m, "black_rank:[1d TO *]"), [0, 3]);
    assert_eq!(search(&m, "margin:[* TO 10]"), [2]);
    assert_eq!(search(&m, "NOT komi:[* TO *]"), [5, 6]);
}
