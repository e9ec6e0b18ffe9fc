//! What was played next *there*, through the command line: every fox-pro and diverse pattern
//! probe's continuation table (with `tenuki`) as `qipu search --pattern … --json` prints it is
//! the oracle's, and `--then` walks a joseki as a diagram with the stones drawn in would.
//!
//! The oracle and datasets live outside the repository (`../shared`, found by
//! `testdata::shared`); without them these tests say so and pass, unless
//! `QIPU_REQUIRE_DATASETS=1`.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Output;
use std::sync::OnceLock;

use common::{json_lines, qipu, samples, Scratch};
use serde_json::Value;
use testdata::oracle::{self, Tenuki};

/// A dataset's index, built once per test run by the command line from the files of the games
/// the oracle replayed (a file it could not read at all is left out, as it counts nothing),
/// with the oracle's folder and the games the oracle replayed.
struct Built {
    index: String,
    oracle: PathBuf,
    universe: BTreeSet<(String, u64)>,
}

fn built(dataset: &str) -> Option<&'static Built> {
    static FOX: OnceLock<Option<Built>> = OnceLock::new();
    static DIVERSE: OnceLock<Option<Built>> = OnceLock::new();
    let cell = if dataset == "fox-pro" { &FOX } else { &DIVERSE };
    cell.get_or_init(|| {
        let shared = testdata::shared()?;
        let oracle = shared.join("oracle").join(dataset);
        let data = shared.join("datasets").join(dataset);
        let universe = oracle::universe(&oracle);
        let dir = common::kept(dataset);
        let games = dir.join("games");
        let files: BTreeSet<&str> = universe.iter().map(|(f, _)| f.as_str()).collect();
        for f in files {
            let to = games.join(f);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(data.join(f), &to).unwrap();
        }
        let index = dir.join("index");
        common::build(&index, &[&games]);
        Some(Built {
            index: index.display().to_string(),
            oracle,
            universe,
        })
    })
    .as_ref()
}

fn check(dataset: &str) {
    let Some(b) = built(dataset) else { return };
    let mut failures = Vec::new();
    let mut checked = 0;
    for probe in testdata::lines(&b.oracle.join("patterns.jsonl")) {
        let id = probe["id"].as_str().unwrap();
        let diagram = b.oracle.join(probe["query"].as_str().unwrap());
        let mut args = vec![
            "search",
            "--index",
            &b.index,
            "--pattern",
            diagram.to_str().unwrap(),
            "--json",
            // The oracle's tables count every exact copy.
            "--with-copies",
        ];
        if !probe["symmetry"].as_bool().unwrap() {
            args.push("--no-symmetry");
        }
        let out = qipu(&args);
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines = json_lines(&out);
        let of = |kind: &'static str| lines.iter().filter(move |l| l["type"] == kind);
        let hits = oracle::hits(of("hit"));
        checked += 1;
        // A game the oracle excluded that lies in a file it read would count in the table, and
        // the command line cannot leave it out: none may hit, so that the table is comparable.
        let outside: Vec<_> = hits.keys().filter(|g| !b.universe.contains(g)).collect();
        if !outside.is_empty() {
            failures.push(format!("{id}: games the oracle excluded hit: {outside:?}"));
            continue;
        }
        let summary = of("summary").next().expect("a summary line");
        if summary["games"] != probe["hit_games"] {
            failures.push(format!(
                "{id}: {} hit games, oracle {}",
                summary["games"], probe["hit_games"]
            ));
        }
        if let Some(want) = probe["hits"].as_array() {
            if hits != oracle::hits(want) {
                failures.push(format!("{id}: hits differ"));
            }
        }
        let ours = oracle::table(of("continuation"), Tenuki::Given);
        let want = oracle::probe_table(&probe, Tenuki::Given);
        if ours != want {
            let a: Vec<_> = ours.difference(&want).take(3).collect();
            let b: Vec<_> = want.difference(&ours).take(3).collect();
            failures.push(format!(
                "{id}: continuations differ; ours {a:?}; oracle {b:?}"
            ));
        }
        // Every hit position is either counted in a row or said to have none.
        let counted: u64 = ours.iter().map(|r| r.2).sum();
        let none = summary["no_continuation"]
            .as_u64()
            .expect("a pattern's summary says how many hits saw no continuation");
        if counted + none < summary["positions"].as_u64().unwrap() {
            failures.push(format!(
                "{id}: {counted} rows and {none} without continuation for {} positions",
                summary["positions"]
            ));
        }
    }
    eprintln!(
        "{dataset} through the CLI: {checked} pattern probes checked, {} failures",
        failures.len()
    );
    assert!(checked > 0, "no pattern probe");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fox_pro_pattern_probes_table_is_the_oracles() {
    check("fox-pro");
}

#[test]
fn every_diverse_pattern_probes_table_is_the_oracles() {
    check("diverse");
}

/// The answer's lines without the search's time, which differs between runs.
fn answer_of(out: &Output) -> Vec<Value> {
    let mut lines = json_lines(out);
    for l in &mut lines {
        if let Some(o) = l.as_object_mut() {
            o.remove("elapsed_ms");
        }
    }
    lines
}

#[test]
fn then_walks_a_joseki_as_the_diagram_with_its_stones_would() {
    let Some(b) = built("fox-pro") else { return };
    let corner = samples().join("queries/corner-4-4.txt");
    let corner = corner.to_str().unwrap();
    let search = |extra: &[&str]| {
        let mut args = vec!["search", "--index", b.index.as_str(), "--json"];
        args.extend_from_slice(extra);
        qipu(&args)
    };
    // The 4-4 stone of the upper-left corner (D16), then the approach W C14 (the commonest
    // continuation), then White's F17 (Black's is the commoner there: the colour chooses);
    // one step per --then, or a list.
    let walked = search(&["--pattern", corner, "--then", "C14", "--then", "W:F17"]);
    assert_eq!(walked.status.code(), Some(0));
    let listed = search(&["--pattern", corner, "--then", "c14,W[F17]"]);
    let dir = Scratch::new("cli-then");
    let drawn = dir.write(
        "walked.txt",
        b".......\n.......\n.....O.\n...X...\n.......\n..O....\n.......\n",
    );
    let drawn = search(&["--pattern", drawn.to_str().unwrap()]);
    let want = answer_of(&drawn);
    assert!(want.len() > 2, "the walked pattern hits");
    assert_eq!(answer_of(&walked), want);
    assert_eq!(answer_of(&listed), want);
    // The diagram shows the walked stones, and its letters stand inside the region only
    // (the 7×7 corner: columns A–G, rows 19–13).
    let human = qipu(&[
        "search",
        "--index",
        &b.index,
        "--pattern",
        corner,
        "--then",
        "C14,W:F17",
    ]);
    let text = String::from_utf8_lossy(&human.stdout);
    // Rows 19 to 11, columns A to J: the corner and two lines around it.
    let rows: Vec<&str> = text.lines().skip(2).take(9).collect();
    let cells = |row: &str| -> Vec<char> { row.chars().skip(4).step_by(2).collect() };
    assert_eq!(cells(rows[2])[5], 'O', "{text}");
    assert_eq!(cells(rows[3])[3], 'X', "{text}");
    assert_eq!(cells(rows[5])[2], 'O', "{text}");
    for row in &rows {
        let cells = cells(row);
        assert!(
            cells[7..].iter().all(|c| !c.is_ascii_uppercase()),
            "a letter outside the region: {text}"
        );
    }
    assert!(rows[7].trim_start().starts_with("12  "), "{text}");
    // A point that is not a continuation is refused, naming it and the table's points.
    let wrong = search(&["--pattern", corner, "--then", "C14,K10"]);
    assert_eq!(wrong.status.code(), Some(2));
    let e = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        e.contains("--then \"K10\" (step 2 of 2): no continuation of the pattern was played at K10; its continuations are at ")
            && e.contains("F17"),
        "{e}"
    );
    let e = String::from_utf8_lossy(&search(&["--pattern", corner, "--then", "Q99"]).stderr)
        .into_owned();
    assert!(e.contains("\"Q99\": not a point"), "{e}");
    let no_pattern = qipu(&[
        "search", "--index", &b.index, "--black", "pd", "--then", "Q17",
    ]);
    assert_eq!(no_pattern.status.code(), Some(2));
}

#[test]
fn a_pattern_anywhere_letters_its_table_on_its_own_diagram() {
    let Some(b) = built("fox-pro") else { return };
    let dir = Scratch::new("cli-anywhere");
    // A stone on the third line with the points around it empty, anywhere on the board.
    let diagram = dir.write("shape.txt", b"...\n.X.\n...\n");
    let out = qipu(&[
        "search",
        "--index",
        &b.index,
        "--pattern",
        diagram.to_str().unwrap(),
        "--anywhere",
        "--limit",
        "0",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    // The 3×3 diagram, lettered: its coordinates are the diagram's own (A–C, 3–1).
    assert_eq!(lines[1].trim_end(), "    A B C", "{text}");
    assert!(lines[2..5].iter().any(|l| l[4..9].contains('A')), "{text}");
    // The table's moves are named in the same frame: the first row is on the diagram.
    let first = lines
        .iter()
        .find(|l| l.starts_with("  A "))
        .unwrap_or_else(|| panic!("{text}"));
    let point = first.split_whitespace().nth(2).unwrap();
    assert!(
        ["A", "B", "C"].iter().any(|c| point.starts_with(c))
            && point[1..].parse::<u8>().is_ok_and(|r| (1..=3).contains(&r)),
        "{first}"
    );
    assert!(text.lines().next().unwrap().contains("positions"), "{text}");
}
