//! `qipu search --mistakes`: on an index of a few hand-written analysed games, the moves that
//! lost at least a threshold, by player, narrowed by date, from a position; `--json` fields and
//! the human table; the words refused with the forms accepted.
//!
//! The index is built through the library with the test's own evaluation reader (the comment
//! `WIN LEAD` of each node, Black's win in 1/10,000 and lead in tenths), as the record readers
//! of `sgf::eval` are not the point here.

mod common;

use common::{json_lines, qipu, stderr, stdout, Scratch};

fn read(tree: &sgf::GameTree<'_>) -> Option<sgf::Evals> {
    let positions: Vec<Option<sgf::Eval>> = tree
        .main_line()
        .map(|node| {
            let text = node.get(sgf::ids::C)?.text().to_string();
            let (win, lead) = text.split_once(' ')?;
            Some(sgf::Eval {
                win: win.parse::<f32>().ok()? / 10_000.0,
                lead: lead.parse::<f32>().ok().map(|l| l / 10.0),
                visits: Some(400),
            })
        })
        .collect();
    positions.iter().any(Option::is_some).then_some(sgf::Evals {
        positions,
        program: "test",
        engine: None,
    })
}

/// Game 0: Ann (Black) loses 5% and 1 point with move 1; Bob's move 2 takes Black from 45% to
/// 75% (the evaluations are Black's): White's loss of 30% and 6 points; Ann's move 3 loses 5%
/// and 1 point. Game 1: Bob is Black; his move 1 (a pass) loses 20% and 4 points. Game 2 has no
/// evaluations.
const GAMES: [&str; 3] = [
    "(;GM[1]SZ[19]PB[Ann Lee]PW[Bob Ray]DT[2019-05-01]C[5000 0];B[pd]C[4500 -10];W[dd]C[7500 50];B[pp]C[7000 40];W[dp]C[7000 40])",
    "(;GM[1]SZ[19]PB[Bob Ray]PW[Ann Lee]DT[2021-02-01]C[5000 0];B[]C[3000 -40];W[qd]C[2900 -42])",
    "(;GM[1]SZ[19]PB[Ann Lee]PW[Bob Ray]DT[2022-01-01];B[pd];W[dd];B[pp])",
];

/// The index of [`GAMES`] in a scratch folder named `name` (one per test: they run at once).
fn index(name: &str) -> (Scratch, String) {
    let scratch = Scratch::new(name);
    for (i, g) in GAMES.iter().enumerate() {
        scratch.write(&format!("d/g{i}.sgf"), g.as_bytes());
    }
    let dir = scratch.0.join("index");
    let opts = qipu::BuildOptions {
        evals: Some(read),
        ..qipu::BuildOptions::default()
    };
    qipu::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
    let dir = dir.display().to_string();
    (scratch, dir)
}

/// (game, move) of each hit of `qipu search --json ARGS`.
fn hits(dir: &str, args: &[&str]) -> Vec<(u64, u64)> {
    let mut all = vec!["search", "--index", dir, "--json"];
    all.extend(args);
    let out = qipu(&all);
    let lines = json_lines(&out);
    let summary = lines.last().expect("a summary line");
    assert_eq!(summary["type"], "summary", "{lines:?}");
    lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            assert_eq!(l["type"], "mistake");
            (
                l["game"].as_u64().unwrap(),
                l["move_number"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn mistakes_are_found_by_loss_player_date_and_position() {
    let (_scratch, dir) = index("cli-mistakes-found");
    // By win loss, largest first: game 0's move 2 (30%), game 1's move 1 (20%), game 0's
    // move 1 (5%) and move 3 (5%).
    assert_eq!(
        hits(&dir, &["--mistakes", "5%"]),
        [(0, 2), (1, 1), (0, 1), (0, 3)]
    );
    assert_eq!(hits(&dir, &["--mistakes", "25%"]), [(0, 2)]);
    // By points: game 0's move 2 lost 6 points, game 1's move 1 4 points.
    assert_eq!(hits(&dir, &["--mistakes", "3pt"]), [(0, 2), (1, 1)]);
    assert_eq!(hits(&dir, &["--mistakes", "10%,5pt"]), [(0, 2)]);
    // Bob's own moves: White's in game 0, Black's in game 1; Ann's: Black's in game 0.
    assert_eq!(
        hits(&dir, &["--mistakes", "5%", "--player", "Bob Ray"]),
        [(0, 2), (1, 1)]
    );
    assert_eq!(
        hits(&dir, &["--mistakes", "5%", "--player", "Ann Lee"]),
        [(0, 1), (0, 3)]
    );
    assert_eq!(
        hits(&dir, &["--mistakes", "5%", "--since", "2020"]),
        [(1, 1)]
    );
    assert_eq!(
        hits(&dir, &["--mistakes", "5%", "--sort", "newest"]),
        [(1, 1), (0, 2), (0, 1), (0, 3)]
    );
    assert_eq!(
        hits(&dir, &["--mistakes", "5%", "--offset", "1", "--limit", "2"]),
        [(1, 1), (0, 1)]
    );
    // From the position after 1. B pd: the move played there, game 0's move 2.
    assert_eq!(hits(&dir, &["--mistakes", "5%", "--black", "pd"]), [(0, 2)]);
    // A threshold no move reaches: nothing, exit code 1.
    let out = qipu(&["search", "--index", &dir, "--mistakes", "90%"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn a_hit_says_the_move_its_loss_and_the_evaluations() {
    let (_scratch, dir) = index("cli-mistakes-said");
    let out = qipu(&["search", "--index", &dir, "--json", "--mistakes", "25%"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&out);
    let h = &lines[0];
    assert_eq!(h["color"], "W");
    assert_eq!(h["point"], "dd");
    assert!(
        (h["loss"]["win"].as_f64().unwrap() - 0.3).abs() < 1e-9,
        "{h}"
    );
    assert!(
        (h["loss"]["points"].as_f64().unwrap() - 6.0).abs() < 1e-9,
        "{h}"
    );
    assert_eq!(h["before"]["black_win"], 0.45);
    assert_eq!(h["after"]["black_win"], 0.75);
    assert_eq!(h["after"]["black_lead"], 5.0);
    assert_eq!(h["before"]["visits"], 400);
    assert_eq!(h["info"]["white"], "Bob Ray");
    assert!(h["path"].as_str().unwrap().ends_with("g0.sgf"), "{h}");
    assert_eq!(lines[1]["mistakes"], 1);
    assert_eq!(lines[1]["analysed_games"], 2);
    // The table a person reads.
    let out = qipu(&[
        "search",
        "--index",
        &dir,
        "--mistakes",
        "5%",
        "--limit",
        "1",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("4 moves that lost at least 5% (in 2 analysed games)"),
        "{text}"
    );
    assert!(text.contains("30.0%") && text.contains("2 W D16"), "{text}");
    assert!(
        text.contains("45.0% → 75.0%") && text.contains("-1.0 → +5.0"),
        "{text}"
    );
    assert!(text.contains("3 more moves"), "{text}");
}

#[test]
fn wrong_words_and_options_without_effect_are_refused() {
    let (_scratch, dir) = index("cli-mistakes-refused");
    for (args, says) in [
        (vec!["--mistakes", "10"], "10%,3pt"),
        (vec!["--mistakes", "150%"], "is not a loss"),
        (vec!["--player", "Ann Lee"], "--mistakes"),
        (vec!["--mistakes", "5%", "--sort", "strongest"], "by date"),
        (
            vec!["--mistakes", "5%", "--pattern", "x.txt", "--then", "Q17"],
            "cannot be used with",
        ),
    ] {
        let mut all = vec!["search", "--index", dir.as_str()];
        all.extend(&args);
        let out = qipu(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

/// A record as Sabaki writes it (`SBKV` Black's win in percent, `SBKS` Black's lead, on the node
/// whose move they follow): indexed by `qipu index` with the records' own readers.
const SABAKI: &str = "(;GM[1]SZ[19]PB[Ann Lee]PW[Bob Ray]SBKV[50]SBKS[0];B[pd]SBKV[48]SBKS[-0.5]\
;W[dd]SBKV[70]SBKS[4.5];B[pp]SBKV[40]SBKS[-3];W[dp]SBKV[41]SBKS[-2.8])";

#[test]
fn qipu_index_keeps_what_the_records_say_and_search_finds_the_mistakes() {
    let scratch = Scratch::new("cli-mistakes-sabaki");
    let fixture = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sgf/tests/evals/sabaki.sgf"),
    )
    .unwrap();
    scratch.write("d/a-sabaki.sgf", &fixture);
    scratch.write("d/b-ours.sgf", SABAKI.as_bytes());
    scratch.write("d/c-none.sgf", GAMES[2].as_bytes());
    let dir = scratch.0.join("index");
    common::build(&dir, &[&scratch.0.join("d")]);
    let dir = dir.display().to_string();
    // Ours: move 3 (Black, 70% → 40%: 30%, 7.5 points), move 2 (White, Black 48% → 70%: 22%,
    // 5 points); the fixture's largest loss is move 1's 0.92% (46.12% → 45.2%).
    assert_eq!(hits(&dir, &["--mistakes", "10%"]), [(1, 3), (1, 2)]);
    assert_eq!(hits(&dir, &["--mistakes", "5pt"]), [(1, 3), (1, 2)]);
    assert_eq!(hits(&dir, &["--mistakes", "6pt"]), [(1, 3)]);
    assert_eq!(
        hits(&dir, &["--mistakes", "0.5%"]),
        [(1, 3), (1, 2), (1, 1), (1, 4), (0, 1)]
    );
    // From an empty corner (a 7×7 pattern, seen in every corner of the empty board): the first
    // move played in each corner, of ours each of its four moves; those that lost 10% are its
    // moves 3 and 2, as above.
    let corner = scratch.write("corner.txt", ".......\n".repeat(7).as_bytes());
    let corner = corner.display().to_string();
    assert_eq!(
        hits(&dir, &["--pattern", &corner, "--mistakes", "10%"]),
        [(1, 3), (1, 2)]
    );
    let out = qipu(&[
        "search",
        "--index",
        &dir,
        "--json",
        "--mistakes",
        "0.9%",
        "--player",
        "Ann Lee",
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(
        (lines[0]["move_number"].as_u64(), lines[0]["color"].as_str()),
        (Some(3), Some("B"))
    );
    assert!((lines[0]["loss"]["points"].as_f64().unwrap() - 7.5).abs() < 1e-9);
    assert_eq!(lines[1]["move_number"], 1);
    assert_eq!(lines[2]["analysed_games"], 2);
}
