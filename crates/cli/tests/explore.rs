//! `qipu search`'s explorer flags on five games written here, whose answers are worked out by
//! hand: the date profile, the filters (dates, rank, handicap, komi, board), copies counted
//! once or each, the richer continuation rows, sorts and pages, in `--json` and in the table.

mod common;

use common::{json_lines, qipu, Scratch};
use serde_json::Value;

/// The five games: 0 and 1 are exact copies (same main line), 3 has handicap stones.
const GAMES: [(&str, &str); 5] = [
    (
        "a.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Ke Jie]BR[9p]PW[Shin Jinseo]WR[9p]DT[2015-05-01]KM[6.5]RE[B+R];B[pd];W[dd];B[pp])",
    ),
    (
        "b.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Ke Jie]BR[9p]PW[Shin Jinseo]WR[9p]DT[2015-05-01]KM[6.5]RE[B+R];B[pd];W[dd];B[pp])",
    ),
    (
        "c.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Amateur A]BR[3d]PW[Amateur B]WR[5d]DT[2016-02-10]KM[7.5]RE[W+2.5];B[dd];W[pd];B[pp];W[dp];B[qq])",
    ),
    (
        "d.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Kyu A]BR[1k]PW[Kyu B]WR[2k]DT[2017]HA[2]KM[0.5]AB[dp][pd]RE[W+R];W[dd])",
    ),
    ("e.sgf", "(;GM[1]FF[4]SZ[19]RE[Void];B[qd];W[dd])"),
];

fn index(name: &str) -> (Scratch, String) {
    // Each test its own folder: the tests of a binary run at once.
    let s = Scratch::new(name);
    for (name, text) in GAMES {
        s.write(&format!("games/{name}"), text.as_bytes());
    }
    let index = s.0.join("index");
    common::build(&index, &[&s.0.join("games")]);
    let index = index.display().to_string();
    (s, index)
}

fn json(index: &str, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["search", "--index", index, "--json"];
    all.extend_from_slice(args);
    let out = qipu(&all);
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_lines(&out)
}

fn of_type<'a>(lines: &'a [Value], t: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["type"] == t).collect()
}

fn files(lines: &[Value]) -> Vec<String> {
    of_type(lines, "hit")
        .iter()
        .map(|h| h["file"].as_str().unwrap().to_string())
        .collect()
}

/// `(color, point, count, black_wins, white_wins, other)` of each row.
fn rows(lines: &[Value]) -> Vec<(String, String, u64, u64, u64, u64)> {
    of_type(lines, "continuation")
        .iter()
        .map(|c| {
            (
                c["color"].as_str().unwrap().to_string(),
                c["point"].as_str().unwrap().to_string(),
                c["count"].as_u64().unwrap(),
                c["black_wins"].as_u64().unwrap(),
                c["white_wins"].as_u64().unwrap(),
                c["other"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn row(c: &str, p: &str, n: u64, b: u64, w: u64, o: u64) -> (String, String, u64, u64, u64, u64) {
    (c.into(), p.into(), n, b, w, o)
}

#[test]
fn the_explorer_flags_narrow_count_sort_and_page() {
    let (_s, index) = index("cli-explore-flags");
    let empty = ["--black", "", "--white", ""];
    // The empty board: games 0, 1, 2 and 4 (3 has handicap stones). Their first moves, seen
    // from the least of the eight images: pd and dd are dd, qd is cd.
    let all = json(&index, &empty);
    assert_eq!(files(&all), ["a.sgf", "b.sgf", "c.sgf", "e.sgf"]);
    assert_eq!(
        of_type(&all, "hit")
            .iter()
            .map(|h| h["copy"].as_bool().unwrap())
            .collect::<Vec<_>>(),
        [false, true, false, false]
    );
    // b.sgf is a copy of a.sgf: it counts once.
    assert_eq!(
        rows(&all),
        [row("B", "dd", 2, 1, 1, 0), row("B", "cd", 1, 0, 0, 1)]
    );
    let dd = of_type(&all, "continuation")[0];
    // The mover: Ke Jie 9p (19 on the scale) and Amateur A 3d (3); the opponents 9p and 5d.
    assert_eq!(dd["mover_rank"], 11.0);
    assert_eq!(dd["mover_ranked"], 2);
    assert_eq!(dd["opponent_rank"], 12.0);
    assert_eq!(
        (dd["first_year"].as_u64(), dd["last_year"].as_u64()),
        (Some(2015), Some(2016))
    );
    // The example: the game whose weaker player is strongest.
    assert_eq!(dd["example"], "a.sgf#0");
    let cd = of_type(&all, "continuation")[1];
    assert!(cd["mover_rank"].is_null() && cd["first_year"].is_null());
    let profile = of_type(&all, "profile");
    assert_eq!(profile.len(), 1);
    assert_eq!(
        *profile[0],
        serde_json::json!({"type": "profile", "undated": 1, "years": [
            {"year": 2015, "games": 1, "black_wins": 1, "white_wins": 0},
            {"year": 2016, "games": 1, "black_wins": 0, "white_wins": 1},
        ]})
    );
    // Each copy counted.
    let each = json(&index, &[&empty[..], &["--with-copies"]].concat());
    assert_eq!(
        rows(&each),
        [row("B", "dd", 3, 2, 1, 0), row("B", "cd", 1, 0, 0, 1)]
    );
    assert_eq!(of_type(&each, "profile")[0]["years"][0]["games"], 2);

    // Filters narrow hits, rows and profile.
    let since = json(
        &index,
        &[&empty[..], &["--since", "2016", "--by-month"]].concat(),
    );
    assert_eq!(files(&since), ["c.sgf"]);
    assert_eq!(rows(&since), [row("B", "dd", 1, 0, 1, 0)]);
    let p = of_type(&since, "profile")[0];
    assert_eq!(p["undated"], 0);
    assert_eq!(p["months"][0]["month"], 2);
    assert_eq!(
        files(&json(
            &index,
            &[&empty[..], &["--until", "2015-05"]].concat()
        )),
        ["a.sgf", "b.sgf"]
    );
    assert_eq!(
        files(&json(&index, &[&empty[..], &["--min-rank", "5p"]].concat())),
        ["a.sgf", "b.sgf"]
    );
    // Both players at least 4d: Amateur A is 3d.
    assert!(
        files(&json(&index, &[&empty[..], &["--min-rank", "4d"]].concat())) == ["a.sgf", "b.sgf"]
    );
    assert_eq!(
        files(&json(&index, &[&empty[..], &["--komi", "7..8"]].concat())),
        ["c.sgf"]
    );
    let q = ["--query", "size:19"];
    assert_eq!(
        files(&json(&index, &[&q[..], &["--handicap"]].concat())),
        ["d.sgf"]
    );
    assert_eq!(
        json(&index, &[&q[..], &["--even"]].concat())
            .iter()
            .filter(|l| l["type"] == "hit")
            .count(),
        4
    );
    assert_eq!(
        files(&json(&index, &["--query", "winner:W", "--size", "9"])),
        Vec::<String>::new()
    );
    assert_eq!(
        files(&json(&index, &["--query", "winner:W", "--size", "19"])),
        ["c.sgf", "d.sgf"]
    );

    // Sorts and pages.
    let by = |sort: &str| files(&json(&index, &[&q[..], &["--sort", sort]].concat()));
    assert_eq!(by("rank"), ["a.sgf", "b.sgf", "c.sgf", "d.sgf", "e.sgf"]);
    assert_eq!(by("length"), ["c.sgf", "a.sgf", "b.sgf", "e.sgf", "d.sgf"]);
    assert_eq!(by("date"), ["d.sgf", "c.sgf", "a.sgf", "b.sgf", "e.sgf"]);
    let page = files(&json(
        &index,
        &[&q[..], &["--sort", "date", "--offset", "1", "--limit", "2"]].concat(),
    ));
    assert_eq!(page, ["c.sgf", "a.sgf"]);

    // The table: rank and year columns, the copy marked, the profile drawn.
    let mut args = vec!["search", "--index", &index];
    args.extend_from_slice(&empty);
    let out = qipu(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "player",
        "opponent",
        "years",
        "a.sgf#0",
        "(copy)",
        "2015  ",
        "█",
        "1 undated",
        "1.0p",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

#[test]
fn a_filter_that_cannot_be_read_is_refused_with_its_flag() {
    let (_s, index) = index("cli-explore-refused");
    for (flag, value) in [
        ("--since", "2016-13"),
        ("--until", "16"),
        ("--min-rank", "12p"),
        ("--komi", "7..6"),
        ("--komi", "x"),
        ("--sort", "best"),
    ] {
        let out = qipu(&[
            "search", "--index", &index, "--black", "", "--white", "", flag, value,
        ]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(e.contains(flag), "{flag}: {e}");
        // What the library refuses is said in one line (clap's own refusals add a hint).
        if ["--since", "--until", "--min-rank"].contains(&flag) {
            assert_eq!(e.trim_end().lines().count(), 1, "{e}");
        }
    }
    let out = qipu(&[
        "search",
        "--index",
        &index,
        "--query",
        "size:19",
        "--even",
        "--handicap",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
