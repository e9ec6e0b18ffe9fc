//! The HTTP API against a server on an ephemeral loopback port: answers as the library gives
//! them (JSON pages and NDJSON lines), games and records, every bad-input class with its status,
//! the time budget, and every oracle probe of `shared/oracle/fox-pro` through HTTP.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{build, get, get_raw, start, Running};
use serde_json::Value;
use serve::Config;
use testdata::oracle::{self, Tenuki};

const JSON: &str = "application/json";
const NDJSON: &str = "application/x-ndjson";

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/games")
}

/// An index of the repository's sample games, built once per test process.
fn samples_index() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("serve-samples-{}", std::process::id()));
        build(&dir, &[samples_dir()]);
        dir
    })
}

fn samples() -> &'static Running {
    static SERVER: OnceLock<Running> = OnceLock::new();
    SERVER.get_or_init(|| start(samples_index(), Config::default()))
}

/// An error answer: its status, and its body is one line of JSON naming the error.
fn refused(path: &str, params: &[(&str, &str)], status: u16) -> Value {
    let r = get(&samples().base, path, params, JSON);
    assert_eq!(r.status, status, "{path} {params:?}: {}", r.body);
    assert!(r.content_type.starts_with(JSON), "{}", r.content_type);
    assert_eq!(r.body.trim_end().lines().count(), 1, "one line: {}", r.body);
    let v = r.json();
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    v
}

#[test]
fn a_mistake_in_a_query_is_400_naming_the_parameter_and_place() {
    let v = refused("/api/position", &[("black", "pd,zz"), ("white", "dp")], 400);
    assert_eq!(v["param"], "black");
    assert_eq!(v["part"], "points");
    assert!(v["error"].as_str().unwrap().contains("point 2"), "{v}");
    let v = refused(
        "/api/position",
        &[("black", "pd"), ("white", "dp,Q16,??")],
        400,
    );
    assert_eq!(v["param"], "white");
    assert!(v["error"].as_str().unwrap().contains("point 3"), "{v}");

    let v = refused("/api/pattern", &[("diagram", "...\n.Z.")], 400);
    assert_eq!(v["param"], "diagram");
    assert!(
        v["error"].as_str().unwrap().contains("line 2, column 2"),
        "{v}"
    );
    let v = refused(
        "/api/pattern",
        &[("diagram", "X./.O"), ("place", "18,0")],
        400,
    );
    assert!(v["error"].as_str().unwrap().contains("does not fit"), "{v}");
    assert_eq!(refused("/api/pattern", &[], 400)["param"], "diagram");
    let v = refused("/api/pattern", &[("diagram", "X"), ("place", "a,b")], 400);
    assert_eq!(v["param"], "place");

    let v = refused("/api/sequence", &[("moves", "B[pd] X[qq]")], 400);
    assert_eq!(v["param"], "moves");
    assert!(v["error"].as_str().unwrap().contains("move 2"), "{v}");
    // Named as what it is, not as the command line's flag.
    assert!(v["error"].as_str().unwrap().starts_with("moves"), "{v}");

    let v = refused("/api/games", &[("query", "date:[2016 TO")], 400);
    assert_eq!(
        (v["param"].as_str(), v["part"].as_str()),
        (Some("query"), Some("metadata"))
    );
    assert_eq!(refused("/api/games", &[], 400)["param"], "query");
    assert_eq!(
        refused("/api/games", &[("query", " ")], 400)["param"],
        "query"
    );

    // Parameters themselves: unknown, twice, not a number, out of range, not a flag.
    assert_eq!(
        refused("/api/position", &[("simmetry", "false")], 400)["param"],
        "simmetry"
    );
    let v = refused("/api/position", &[("black", "pd"), ("black", "dp")], 400);
    assert!(v["error"].as_str().unwrap().contains("twice"), "{v}");
    assert_eq!(
        refused("/api/position", &[("limit", "ten")], 400)["param"],
        "limit"
    );
    assert_eq!(
        refused("/api/position", &[("limit", "10001")], 400)["param"],
        "limit"
    );
    assert_eq!(
        refused("/api/position", &[("offset", "-1")], 400)["param"],
        "offset"
    );
    assert_eq!(
        refused("/api/position", &[("size", "0")], 400)["param"],
        "size"
    );
    assert_eq!(
        refused("/api/position", &[("size", "53")], 400)["param"],
        "size"
    );
    assert_eq!(
        refused("/api/position", &[("symmetry", "maybe")], 400)["param"],
        "symmetry"
    );
    assert_eq!(
        refused("/api/position", &[("to_move", "X")], 400)["param"],
        "to_move"
    );
    assert_eq!(
        refused(
            "/api/games",
            &[("query", "winner:B"), ("sort", "best")],
            400
        )["param"],
        "sort"
    );
    assert_eq!(refused("/api/stats", &[("x", "1")], 400)["param"], "x");
}

#[test]
fn unknown_paths_and_games_are_404_and_nothing_reaches_the_file_system() {
    refused("/nothing", &[], 404);
    refused("/api", &[], 404);
    refused("/api/game/no-such-file.sgf/0", &[], 404);
    refused("/api/game/20160313-AlphaGo-vs-Lee-Sedol.sgf/7", &[], 404);
    refused("/api/game/20160313-AlphaGo-vs-Lee-Sedol.sgf/x", &[], 404);
    refused("/api/game/just-a-name", &[], 404);
    // Names of files outside the index, however written, are names the index does not hold.
    let base = &samples().base;
    for target in [
        "/api/game/..%2F..%2F..%2Fetc%2Fpasswd/0",
        "/api/game/%2Fetc%2Fpasswd/0/sgf",
        "/api/game/../../Cargo.toml/0/sgf",
        "/api/game/..%2Fsamples%2Fgames%2Fmaruyama-ito.sgf/0/sgf",
    ] {
        let r = get_raw(&format!("{base}{target}"));
        assert_eq!(r.status, 404, "{target}: {}", r.body);
        assert!(!r.body.contains("root:"), "{target}");
    }
}

#[test]
fn oversized_requests_are_413_and_other_methods_405() {
    let base = &samples().base;
    let long = "pd,".repeat(12_000);
    let r = get_raw(&format!("{base}/api/position?black={long}"));
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("too large"));
    // A body declared too large is refused before it is read.
    let mut c = common::Client::new(base);
    let r = c
        .send(
            "POST",
            "/api/position",
            &[("Content-Length", "100000000")],
            b"",
        )
        .unwrap();
    assert_eq!(r.status, 413, "{}", r.body);
    let r = common::Client::new(base)
        .send("POST", "/api/position", &[], b"x")
        .unwrap();
    assert_eq!(r.status, 405, "{}", r.body);
    assert!(r.json()["error"].as_str().is_some());
}

/// The library's answer to the same query, as the CLI's `--json` lines (elapsed time aside).
fn library_lines(query: qipu::Query) -> Vec<Value> {
    let index = qipu::Index::open(samples_index()).unwrap();
    let answer = index.search(&query).unwrap();
    qipu::lines::lines(&answer, usize::MAX)
        .map(|l| serde_json::to_value(l).unwrap())
        .map(without_time)
        .collect()
}

fn without_time(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("elapsed_ms");
    }
    v
}

fn ndjson(body: &str) -> Vec<Value> {
    body.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .map(without_time)
        .collect()
}

#[test]
fn answers_are_the_librarys_as_pages_and_as_ndjson() {
    let base = &samples().base;
    // The empty board: every game hits at 0, and the table is the first moves.
    let q = [("black", ""), ("white", ""), ("limit", "100")];
    let lines = get(base, "/api/position", &q, NDJSON);
    assert_eq!(lines.status, 200, "{}", lines.body);
    assert!(lines.content_type.starts_with(NDJSON));
    let want = library_lines(qipu::Query::points(19, "", "").unwrap().limit(Some(100)));
    assert_eq!(ndjson(&lines.body), want);
    assert!(
        want.iter().filter(|l| l["type"] == "hit").count() >= 2,
        "{want:?}"
    );
    assert!(want.iter().any(|l| l["type"] == "continuation"));

    // The page says the same: its hits are the hit lines, its table the continuation lines.
    let page = get(base, "/api/position", &q, JSON).json();
    let strip = |v: &Value| {
        let mut v = v.clone();
        v.as_object_mut().unwrap().remove("type");
        v
    };
    let hits: Vec<Value> = want
        .iter()
        .filter(|l| l["type"] == "hit")
        .map(strip)
        .collect();
    let table: Vec<Value> = want
        .iter()
        .filter(|l| l["type"] == "continuation")
        .map(strip)
        .collect();
    assert_eq!(page["hits"].as_array().unwrap(), &hits);
    assert_eq!(page["continuations"].as_array().unwrap(), &table);
    let summary = want.last().unwrap();
    assert_eq!(page["games"], summary["games"]);
    assert_eq!(page["positions"], summary["positions"]);
    assert!(page["elapsed_ms"].as_f64().is_some());

    // Pages of one hit, one after another, are the hits in order.
    let mut paged = Vec::new();
    for offset in 0..hits.len() + 1 {
        let o = offset.to_string();
        let mut params = q[..2].to_vec();
        params.extend([("limit", "1"), ("offset", o.as_str())]);
        let page = get(base, "/api/position", &params, JSON).json();
        assert_eq!(page["games"], summary["games"]);
        assert_eq!(page["offset"].as_u64(), Some(offset.min(hits.len()) as u64));
        paged.extend(page["hits"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(paged, hits);

    // The other kinds, each against the library.
    let metadata = get(
        base,
        "/api/games",
        &[("query", "player:\"Lee Sedol\""), ("sort", "newest")],
        NDJSON,
    );
    let q = qipu::Query::metadata("player:\"Lee Sedol\"")
        .sort(qipu::Sort::Newest)
        .limit(Some(100));
    assert_eq!(ndjson(&metadata.body), library_lines(q));
    let sequence = get(
        base,
        "/api/sequence",
        &[("moves", "B[pd] W[dd]"), ("any_order", "true")],
        NDJSON,
    );
    let q = qipu::Query::moves("B[pd] W[dd]", 19)
        .unwrap()
        .any_order(true)
        .limit(Some(100));
    assert_eq!(ndjson(&sequence.body), library_lines(q));
    // Any moves between, as the library reads them.
    let loose = get(
        base,
        "/api/sequence",
        &[("moves", "B[pd] W[dd] B[dp]"), ("any_gap", "true")],
        NDJSON,
    );
    let q = qipu::Query::moves("B[pd] W[dd] B[dp]", 19)
        .unwrap()
        .any_gap(true)
        .limit(Some(100));
    assert_eq!(ndjson(&loose.body), library_lines(q));
    let corner = "...\n...\n..X";
    let pattern = get(
        base,
        "/api/pattern",
        &[("diagram", ".../.../..X"), ("query", "winner:W")],
        NDJSON,
    );
    let q = qipu::Query::pattern(corner)
        .unwrap()
        .filter("winner:W")
        .limit(Some(100));
    assert_eq!(ndjson(&pattern.body), library_lines(q));
    assert!(ndjson(&pattern.body).len() > 1, "{}", pattern.body);
}

#[test]
fn the_profile_filters_sorts_and_richer_rows_are_the_librarys() {
    let base = &samples().base;
    let params = [
        ("black", ""),
        ("white", ""),
        ("since", "2000"),
        ("until", "2020-06"),
        ("handicap", "even"),
        ("komi", "0..8"),
        ("with_copies", "true"),
        ("by_month", "true"),
        ("sort", "rank"),
        ("offset", "1"),
    ];
    let q = qipu::Query::points(19, "", "")
        .unwrap()
        .since("2000")
        .unwrap()
        .until("2020-06")
        .unwrap()
        .handicap(qipu::Handicap::Even)
        .komi(0.0, 8.0)
        .with_copies(true)
        .by_month(true)
        .sort(qipu::Sort::Strongest)
        .offset(1)
        .limit(Some(100));
    let want = library_lines(q);
    let lines = get(base, "/api/position", &params, NDJSON);
    assert_eq!(lines.status, 200, "{}", lines.body);
    assert_eq!(ndjson(&lines.body), want);
    // The profile line comes before the summary, and the page carries the same profile.
    let profile = &want[want.len() - 2];
    assert_eq!(profile["type"], "profile");
    assert!(profile["years"].as_array().is_some() && profile["months"].is_array());
    let page = get(base, "/api/position", &params, JSON).json();
    let mut p = profile.clone();
    p.as_object_mut().unwrap().remove("type");
    assert_eq!(page["profile"], p);
    // Continuation rows carry the richer fields.
    let row = want.iter().find(|l| l["type"] == "continuation").unwrap();
    for field in [
        "other",
        "mover_ranked",
        "opponent_ranked",
        "first_year",
        "example",
        "analysed",
        "black_win_after",
        "black_lead_after",
        "win_loss",
        "points_loss",
    ] {
        assert!(row.get(field).is_some(), "{field}: {row}");
    }
    // Metadata queries narrow by board too, and are profiled.
    let games = get(
        base,
        "/api/games",
        &[("query", "winner:B"), ("size", "19")],
        NDJSON,
    );
    let q = qipu::Query::metadata("winner:B")
        .only_size(19)
        .limit(Some(100));
    assert_eq!(ndjson(&games.body), library_lines(q));
    // Each filter's mistake names its parameter.
    for (name, value) in [
        ("since", "20x6"),
        ("until", "2016-13"),
        ("min_rank", "12p"),
        ("handicap", "some"),
        ("komi", "7..6"),
        ("sort", "best"),
    ] {
        let v = refused(
            "/api/position",
            &[("black", ""), ("white", ""), (name, value)],
            400,
        );
        assert_eq!(v["param"], name, "{v}");
    }
}

#[test]
fn a_hit_leads_to_its_game_its_board_and_its_original_record() {
    let base = &samples().base;
    let page = get(
        base,
        "/api/games",
        &[("query", "player:\"Lee Sedol\"")],
        JSON,
    )
    .json();
    let hit = &page["hits"][0];
    let file = hit["file"].as_str().unwrap();
    let game = hit["game"].as_u64().unwrap();
    let path = format!("/api/game/{file}/{game}");
    let view = get(base, &path, &[("at", "3")], JSON);
    assert_eq!(view.status, 200, "{}", view.body);
    let view = view.json();
    assert_eq!(view["info"]["black"], hit["black"]);
    assert_eq!(view["at"], 3);
    assert_eq!(view["board"], serde_json::json!([19, 19]));
    let stones = view["black"].as_array().unwrap().len() + view["white"].as_array().unwrap().len();
    assert_eq!(stones, 3);
    assert_eq!(view["moves"][0]["color"], "B");
    // The end by default; a move past it is the caller's mistake.
    let end = get(base, &path, &[], JSON).json();
    let moves = end["moves"].as_array().unwrap().len();
    assert_eq!(end["at"].as_u64(), Some(moves as u64));
    let past = (moves + 1).to_string();
    let r = get(base, &path, &[("at", &past)], JSON);
    assert_eq!(r.status, 400, "{}", r.body);
    // The record as it was read: the sample file's game, byte for byte.
    let sgf = get(base, view["sgf"].as_str().unwrap(), &[], "*/*");
    assert_eq!(sgf.status, 200);
    assert_eq!(sgf.content_type, "application/x-go-sgf");
    let original = std::fs::read(samples_dir().join(file)).unwrap();
    assert_eq!(sgf.bytes, original.trim_ascii_end());
    // A slash of the name may come percent-encoded.
    let encoded = get_raw(&format!(
        "{base}/api/game/{}/{game}/sgf",
        file.replace('/', "%2F")
    ));
    assert_eq!(encoded.status, 200);
}

#[test]
fn a_hit_on_a_variation_line_opens_that_line_and_its_board() {
    let tmp =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-lines-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let records = tmp.join("records");
    std::fs::create_dir_all(&records).unwrap();
    std::fs::write(records.join("v.sgf"), common::WITH_A_VARIATION).unwrap();
    common::build_with(&tmp.join("index"), &[records], true);
    let server = start(&tmp.join("index"), Config::default());
    let base = &server.base;
    let sorted = |v: &Value| {
        let mut points: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect();
        points.sort();
        points
    };

    // A position only the variation reaches: its hit names the line.
    let page = get(
        base,
        "/api/position",
        &[("black", "pd,jj"), ("white", "dd,pp")],
        JSON,
    )
    .json();
    let hits = page["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 1, "{page}");
    let (file, game) = (hits[0]["file"].as_str().unwrap(), &hits[0]["game"]);
    assert_eq!((file, game.as_u64()), ("v.sgf", Some(0)));
    assert_eq!(hits[0]["moves"], serde_json::json!([4]));
    let path = hits[0]["variation"]["path"].as_str().unwrap();

    // The line at the hit's move is the searched board; its moves are the line's.
    let view = get(
        base,
        "/api/game/v.sgf/0",
        &[("at", "4"), ("line", path)],
        JSON,
    );
    assert_eq!(view.status, 200, "{}", view.body);
    let view = view.json();
    assert_eq!(view["line"]["path"], path);
    assert_eq!(view["info"]["black"], "Kuro");
    assert_eq!(sorted(&view["black"]), ["jj", "pd"]);
    assert_eq!(sorted(&view["white"]), ["dd", "pp"]);
    let moves: Vec<&str> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["point"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["pd", "dd", "jj", "pp", "qq"]);
    // The end of the line by default, and past it is the caller's mistake.
    let end = get(base, "/api/game/v.sgf/0", &[("line", path)], JSON).json();
    assert_eq!(end["at"], 5);
    assert_eq!(sorted(&end["black"]), ["jj", "pd", "qq"]);
    let r = get(
        base,
        "/api/game/v.sgf/0",
        &[("at", "6"), ("line", path)],
        JSON,
    );
    assert_eq!(r.status, 400, "{}", r.body);

    // Without the line, the game's main line: another board at the same move.
    let main = get(base, "/api/game/v.sgf/0", &[("at", "4")], JSON).json();
    assert!(main.get("line").is_none(), "{main}");
    assert_eq!(sorted(&main["black"]), ["pd", "pq"]);
    assert_eq!(sorted(&main["white"]), ["dd", "dp"]);
    assert_eq!(main["moves"].as_array().unwrap().len(), 4);

    // A parameter the request does not take is 400 before any line is looked up; the record
    // is the whole game's, asked for without a line.
    let r = get(
        base,
        "/api/game/v.sgf/0",
        &[("line", "9:9"), ("typo", "1")],
        JSON,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let r = get(base, "/api/game/v.sgf/0/sgf", &[("line", path)], JSON);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("/sgf"), "{}", r.body);

    // A line the game does not have.
    for bad in ["9:1", "", "2:1,2:1"] {
        if bad == path {
            continue;
        }
        let r = get(base, "/api/game/v.sgf/0", &[("line", bad)], JSON);
        assert_eq!(r.status, 404, "line {bad:?}: {}", r.body);
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn stats_health_and_the_board_page() {
    let base = &samples().base;
    let health = get(base, "/api/health", &[], JSON).json();
    assert_eq!(health["status"], "ok");
    let stats = get(base, "/api/stats", &[], JSON).json();
    assert_eq!(stats["games"], health["games"]);
    assert!(stats["games"].as_u64().unwrap() >= 8);
    assert!(
        stats.get("aliases_file").is_none(),
        "no path of the machine: {stats}"
    );
    let page = get(base, "/", &[], "text/html");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(
        page.body.contains("/board.js") && !page.body.contains("http"),
        "nothing from elsewhere"
    );
    for (path, kind) in [("/board.js", "text/javascript"), ("/board.css", "text/css")] {
        let r = get(base, path, &[], "*/*");
        assert_eq!(r.status, 200);
        assert!(r.content_type.starts_with(kind));
        assert!(
            !r.body.contains("https://"),
            "{path} fetches nothing from elsewhere"
        );
    }
}

#[test]
fn the_icon_is_an_image_the_board_page_names() {
    let base = &samples().base;
    // Browsers ask for /favicon.ico whatever a page says: an image, not the API's JSON 404.
    for path in ["/favicon.ico", "/favicon.svg"] {
        let r = get(base, path, &[], "image/*");
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.content_type.starts_with("image/svg+xml"),
            "{path}: {}",
            r.content_type
        );
        assert!(
            r.body.starts_with("<svg") && r.body.contains("</svg>"),
            "{path}"
        );
        assert!(
            !r.body.contains("https://"),
            "{path} fetches nothing from elsewhere"
        );
    }
    let page = get(base, "/", &[], "text/html");
    assert!(
        page.body
            .contains(r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#),
        "the page names its icon"
    );
}

/// The fox-pro dataset without the games the oracle left out, indexed once per test process:
/// every game of it is one the oracle replayed, so answers compare whole, continuation tables
/// included.
fn fox_pro() -> Option<&'static (PathBuf, PathBuf)> {
    static DIRS: OnceLock<Option<(PathBuf, PathBuf)>> = OnceLock::new();
    DIRS.get_or_init(|| replayed("fox-pro")).as_ref()
}

/// The diverse dataset as [`fox_pro`] has it: the files holding a game the oracle replayed
/// (a few of their games it excluded, which the tests that use it must see do not hit).
fn diverse() -> Option<&'static (PathBuf, PathBuf)> {
    static DIRS: OnceLock<Option<(PathBuf, PathBuf)>> = OnceLock::new();
    DIRS.get_or_init(|| replayed("diverse")).as_ref()
}

/// An index of the files of `dataset` that hold a game the oracle replayed, and the oracle's
/// folder.
fn replayed(dataset: &str) -> Option<(PathBuf, PathBuf)> {
    let shared = testdata::shared()?;
    let oracle = shared.join("oracle").join(dataset);
    let data = shared.join("datasets").join(dataset);
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-{dataset}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let games = root.join("games");
    let files: BTreeSet<String> = testdata::lines(&oracle.join("universe.jsonl"))
        .iter()
        .map(|v| v["file"].as_str().unwrap().to_string())
        .collect();
    for f in &files {
        let to = games.join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(data.join(f), &to).unwrap();
    }
    let index = root.join("index");
    build(&index, &[games]);
    Some((index, oracle))
}

/// Held by the tests that load the CPU (every probe; the time budget), so that the budget's
/// timing does not depend on the other's load.
static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Every page of an answer: all its hits, and the first page (for the counts and the table).
fn all_pages(base: &str, path: &str, params: &[(&str, &str)]) -> (Value, Vec<Value>) {
    let mut hits = Vec::new();
    let mut first = None;
    loop {
        let offset = hits.len().to_string();
        let mut p = params.to_vec();
        p.extend([("limit", "1000"), ("offset", offset.as_str())]);
        let r = get(base, path, &p, JSON);
        assert_eq!(r.status, 200, "{path} {params:?}: {}", r.body);
        let page = r.json();
        let got = page["hits"].as_array().unwrap().clone();
        let done =
            got.is_empty() || hits.len() + got.len() >= page["games"].as_u64().unwrap() as usize;
        hits.extend(got);
        first.get_or_insert(page);
        if done {
            return (first.unwrap(), hits);
        }
    }
}

#[test]
fn every_fox_pro_oracle_probe_answered_through_http_is_the_oracles() {
    let _heavy = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let Some((index, oracle)) = fox_pro() else {
        return;
    };
    // Every game indexed is one the oracle replayed: nothing to leave out of the answers.
    let universe = oracle::universe(oracle);
    let lib = qipu::Index::open(index).unwrap();
    for g in 0..lib.len() {
        let (file, n) = lib.identity(g).unwrap();
        assert!(
            universe.contains(&(file.to_string(), n as u64)),
            "{file}#{n} is not in the oracle's universe"
        );
    }
    let server = start(index, Config::default());
    let mut failures = Vec::new();
    let mut checked = 0;
    for probe in testdata::lines(&oracle.join("positions.jsonl")) {
        let id = probe["id"].as_str().unwrap();
        let record = std::fs::read(oracle.join(probe["query"].as_str().unwrap())).unwrap();
        // The probe's position as the board sends it: its stones as points.
        let q = qipu::Query::from_record(&record, None).unwrap();
        let pos = q.searched_position().unwrap();
        let list = |c| {
            pos.stones(c)
                .iter()
                .map(|p| p.sgf_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let (black, white) = (list(qipu::Color::Black), list(qipu::Color::White));
        let symmetry = probe["symmetry"].as_bool().unwrap().to_string();
        // The oracle's tables count every exact copy.
        let params = [
            ("black", black.as_str()),
            ("white", white.as_str()),
            ("symmetry", symmetry.as_str()),
            ("with_copies", "true"),
        ];
        let (page, hits) = all_pages(&server.base, "/api/position", &params);
        checked += 1;
        let want = oracle::hits(probe["hits"].as_array().map_or(&[][..], |v| v.as_slice()));
        if page["games"] != probe["hit_games"]
            || (probe["hits"].is_array() && oracle::hits(&hits) != want)
        {
            failures.push(format!(
                "{id}: hits differ ({} games, oracle {})",
                page["games"], probe["hit_games"]
            ));
        }
        let rows = page["continuations"]
            .as_array()
            .expect("a continuation table");
        if oracle::table(rows, Tenuki::Given) != oracle::probe_table(&probe, Tenuki::None) {
            failures.push(format!("{id}: continuations differ"));
        }
    }
    for probe in testdata::lines(&oracle.join("patterns.jsonl")) {
        let id = probe["id"].as_str().unwrap();
        let diagram =
            std::fs::read_to_string(oracle.join(probe["query"].as_str().unwrap())).unwrap();
        let symmetry = probe["symmetry"].as_bool().unwrap().to_string();
        let params = [
            ("diagram", diagram.as_str()),
            ("symmetry", symmetry.as_str()),
        ];
        let (page, hits) = all_pages(&server.base, "/api/pattern", &params);
        checked += 1;
        let want = oracle::hits(probe["hits"].as_array().map_or(&[][..], |v| v.as_slice()));
        if page["games"] != probe["hit_games"]
            || (probe["hits"].is_array() && oracle::hits(&hits) != want)
        {
            failures.push(format!(
                "{id}: hits differ ({} games, oracle {})",
                page["games"], probe["hit_games"]
            ));
        }
    }
    eprintln!(
        "fox-pro through HTTP: {checked} probes checked, {} failures",
        failures.len()
    );
    assert_eq!(checked, 120);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every pattern probe of `dataset` through `GET /api/pattern`: its hits and its continuation
/// table, with tenuki, are the oracle's.
fn pattern_tables_through_http(dataset: &str, indexed: Option<&(PathBuf, PathBuf)>) {
    let Some((index, oracle)) = indexed else {
        return;
    };
    let universe = oracle::universe(oracle);
    let server = start(index, Config::default());
    let mut failures = Vec::new();
    let mut checked = 0;
    for probe in testdata::lines(&oracle.join("patterns.jsonl")) {
        let id = probe["id"].as_str().unwrap();
        let diagram =
            std::fs::read_to_string(oracle.join(probe["query"].as_str().unwrap())).unwrap();
        let symmetry = probe["symmetry"].as_bool().unwrap().to_string();
        // The oracle's tables count every exact copy.
        let params = [
            ("diagram", diagram.as_str()),
            ("symmetry", symmetry.as_str()),
            ("with_copies", "true"),
        ];
        let (page, hits) = all_pages(&server.base, "/api/pattern", &params);
        checked += 1;
        let hits = oracle::hits(&hits);
        // A game the oracle excluded in a file it read would count in the table: none may hit.
        let outside: Vec<_> = hits.keys().filter(|g| !universe.contains(g)).collect();
        if !outside.is_empty() {
            failures.push(format!("{id}: games the oracle excluded hit: {outside:?}"));
            continue;
        }
        if page["games"] != probe["hit_games"]
            || (probe["hits"].is_array() && hits != oracle::hits(probe["hits"].as_array().unwrap()))
        {
            failures.push(format!(
                "{id}: hits differ ({} games, oracle {})",
                page["games"], probe["hit_games"]
            ));
        }
        let rows = page["continuations"]
            .as_array()
            .expect("a continuation table");
        if oracle::table(rows, Tenuki::Given) != oracle::probe_table(&probe, Tenuki::Given) {
            failures.push(format!("{id}: continuations differ"));
        }
        if !page["no_continuation"].is_u64() {
            failures.push(format!("{id}: no no_continuation in {}", page["games"]));
        }
    }
    eprintln!(
        "{dataset} patterns through HTTP: {checked} probes checked, {} failures",
        failures.len()
    );
    assert!(checked > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fox_pro_pattern_probes_table_through_http_is_the_oracles() {
    let _heavy = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    pattern_tables_through_http("fox-pro", fox_pro());
}

#[test]
fn every_diverse_pattern_probes_table_through_http_is_the_oracles() {
    let _heavy = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    pattern_tables_through_http("diverse", diverse());
}

#[test]
fn then_walks_a_pattern_on_as_the_diagram_with_its_stones_would() {
    let Some((index, _)) = fox_pro() else { return };
    let server = start(index, Config::default());
    let corner = "......./......./......./...X.../......./......./.......";
    let answer = |params: &[(&str, &str)]| {
        let r = get(&server.base, "/api/pattern", params, JSON);
        assert_eq!(r.status, 200, "{params:?}: {}", r.body);
        let mut page = r.json();
        page.as_object_mut().unwrap().remove("elapsed_ms");
        page
    };
    // The upper-left 4-4 (D16), W's approach C14, then White's F17 (Black's is the commoner
    // there: the colour chooses), as the board's clicks or `qipu search --then` walk it.
    let walked = answer(&[("diagram", corner), ("then", "C14,W:F17")]);
    let drawn = answer(&[(
        "diagram",
        "......./......./.....O./...X.../......./..O..../.......",
    )]);
    assert!(drawn["games"].as_u64().unwrap() > 0);
    assert_eq!(walked, drawn);
    // A step that is not a row of the table is a 400 naming the parameter, the point and the
    // table's points.
    let e = refused_at(&server.base, &[("diagram", corner), ("then", "C14 K10")]);
    assert_eq!(e["param"], "then", "{e}");
    assert_eq!(e["part"], "then", "{e}");
    let m = e["error"].as_str().unwrap();
    assert!(
        m.contains("\"K10\" (step 2 of 2): no continuation of the pattern was played at K10")
            && m.contains("F17"),
        "{m}"
    );
}

fn refused_at(base: &str, params: &[(&str, &str)]) -> Value {
    let r = get(base, "/api/pattern", params, JSON);
    assert_eq!(r.status, 400, "{params:?}: {}", r.body);
    r.json()
}

#[test]
fn a_search_over_its_budget_is_503_and_stops_using_the_pool() {
    let _heavy = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let Some((index, _)) = fox_pro() else { return };
    // One search at a time, 150 ms each: a pattern anywhere replays every game, far longer.
    let config = Config {
        timeout: Duration::from_millis(150),
        max_concurrent: 1,
        ..Config::default()
    };
    let server = start(index, config);
    let heavy = [
        ("diagram", "XO/OX"),
        ("anywhere", "true"),
        ("swap_colors", "true"),
    ];
    let started = Instant::now();
    let r = get(&server.base, "/api/pattern", &heavy, JSON);
    let took = started.elapsed();
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(
        r.json()["error"].as_str().unwrap().contains("budget"),
        "{}",
        r.body
    );
    assert!(took < Duration::from_secs(2), "answered after {took:?}");
    // The stopped search gave its turn back at once: a small request right after gets it
    // (were the search still running, it would hold the only turn past this one's budget).
    let page = get(
        &server.base,
        "/api/games",
        &[("query", "winner:B"), ("limit", "1")],
        JSON,
    );
    let (file, game) = {
        let v = page.json();
        assert_eq!(page.status, 200, "{}", page.body);
        (
            v["hits"][0]["file"].as_str().unwrap().to_string(),
            v["hits"][0]["game"].as_u64().unwrap(),
        )
    };
    for _ in 0..3 {
        let r = get(&server.base, "/api/pattern", &heavy, JSON);
        assert_eq!(r.status, 503, "{}", r.body);
        let r = get(&server.base, &format!("/api/game/{file}/{game}"), &[], JSON);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // The library itself: a stopped search answers Stopped, never part of an answer.
    let lib = qipu::Index::open(index).unwrap();
    let stop = qipu::Stop::new();
    let q = qipu::Query::pattern("XO\nOX")
        .unwrap()
        .anywhere(true)
        .stop_when(stop.clone());
    let s2 = stop.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        s2.stop();
    });
    let started = Instant::now();
    let e = lib.search(&q).unwrap_err();
    t.join().unwrap();
    assert_eq!(e.kind(), qipu::ErrorKind::Stopped);
    let stopped_after = started.elapsed();
    let started = Instant::now();
    let whole = lib
        .search(&qipu::Query::pattern("XO\nOX").unwrap().anywhere(true))
        .unwrap();
    assert!(whole.summary.games > 0);
    assert!(
        stopped_after < started.elapsed(),
        "stopped after {stopped_after:?}, the whole search took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_games_record_link_holds_any_file_name() {
    let tmp =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-names-{}", std::process::id()));
    let data = tmp.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let names = ["a#b.sgf", "q?x.sgf", "pct%41.sgf", "sp ace.sgf", "和棋.sgf"];
    for (i, name) in names.iter().enumerate() {
        let record = format!("(;GM[1]FF[4]SZ[19]PB[Name{i}]PW[W];B[pd];W[dd])");
        std::fs::write(data.join(name), record).unwrap();
    }
    let index = tmp.join("index");
    build(&index, std::slice::from_ref(&data));
    let server = start(&index, Config::default());
    for (i, name) in names.iter().enumerate() {
        let page = get(
            &server.base,
            "/api/games",
            &[("query", &format!("black:Name{i}"))],
            JSON,
        )
        .json();
        let hit = &page["hits"][0];
        assert_eq!(hit["file"], *name, "{page}");
        // The game as a client asks for it (the name percent-encoded), then its record by the
        // link the answer gives, as a browser follows it.
        let encoded: String = name
            .bytes()
            .map(|b| match b.is_ascii_alphanumeric() || b == b'.' {
                true => (b as char).to_string(),
                false => format!("%{b:02X}"),
            })
            .collect();
        let view = get_raw(&format!("{}/api/game/{encoded}/0", server.base));
        assert_eq!(view.status, 200, "{name}: {}", view.body);
        let link = view.json()["sgf"].as_str().unwrap().to_string();
        assert!(!link.contains(['#', '?', ' ']), "{link}");
        let sgf = get_raw(&format!("{}{link}", server.base));
        assert_eq!(sgf.status, 200, "{name}: {link}: {}", sgf.body);
        assert_eq!(sgf.bytes, std::fs::read(data.join(name)).unwrap(), "{name}");
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn a_path_that_is_not_utf8_and_a_parameter_health_does_not_take_are_400() {
    let base = &samples().base;
    let r = get_raw(&format!("{base}/api/game/%FF%FE/0"));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.json()["error"].as_str().is_some(), "{}", r.body);
    let v = refused("/api/health", &[("x", "1")], 400);
    assert_eq!(v["param"], "x", "{v}");
}

#[test]
fn a_connection_that_does_not_send_its_request_in_time_is_closed() {
    use std::io::{Read, Write};
    let server = start(
        samples_index(),
        Config {
            header_timeout: Duration::from_millis(300),
            ..Config::default()
        },
    );
    let addr = server.base.trim_start_matches("http://").to_string();
    // Closed by the server: the read ends (0 bytes or a reset) well before the client gives up.
    let closed_within = |s: &mut std::net::TcpStream, what: &str| {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let started = Instant::now();
        let mut buf = [0u8; 4096];
        loop {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                // An answer (a 408, or the previous request's): read on to the close.
                Ok(_) => {}
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{what}: not closed"
        );
    };
    // Silent, then a head sent a byte at a time, too slowly.
    let mut silent = std::net::TcpStream::connect(&addr).unwrap();
    let mut slow = std::net::TcpStream::connect(&addr).unwrap();
    for b in b"GET /api/health HTTP/1.1\r\nHost: x\r\n".iter().take(6) {
        // Once the server has closed it, a write fails.
        if slow.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Meanwhile the server answers others.
    assert_eq!(get(&server.base, "/api/health", &[], JSON).status, 200);
    closed_within(&mut silent, "silent");
    closed_within(&mut slow, "slow");
    // A kept-alive connection is answered, then closed once idle.
    let mut idle = std::net::TcpStream::connect(&addr).unwrap();
    idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    closed_within(&mut idle, "idle");
}

#[test]
fn a_damaged_metadata_file_is_a_5xx_naming_it_never_200_with_blanks() {
    use std::os::unix::fs::FileExt;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-damaged-meta-{}", std::process::id()));
    build(&dir, &[samples_dir()]);
    let server = start(&dir, Config::default());
    let store = std::fs::read_dir(dir.join("meta"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "store"))
        .expect("a document store");
    // Damage under the running server, in place, as a failing disk does it: a run of 0xFF in
    // the compressed documents (never valid in a stored name, and wider than any number).
    let len = std::fs::metadata(&store).unwrap().len();
    std::fs::File::options()
        .write(true)
        .open(&store)
        .unwrap()
        .write_all_at(&[0xff; 32], len / 3)
        .unwrap();
    let r = get(
        &server.base,
        "/api/games",
        &[("query", "size:19"), ("limit", "50")],
        JSON,
    );
    assert!(r.status >= 500, "{}: {}", r.status, r.body);
    assert!(r.content_type.starts_with(JSON), "{}", r.content_type);
    let v = r.json();
    let error = v["error"].as_str().unwrap_or_default();
    assert!(error.contains(store.to_str().unwrap()), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}
