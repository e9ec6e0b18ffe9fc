//! The analysis against the real KataGo of `../shared/tools/katago/` (a CPU build and a small
//! test network): short 9×9 games at 4 visits, a few seconds of KataGo. Every number written
//! into the records is checked against KataGo's raw answer in `katago.jsonl`. Without the
//! shared KataGo these tests say so and pass, unless `QIPU_REQUIRE_DATASETS=1`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use analyse::{analyse, Observer, Options, Problem, Progress};
use serde_json::Value;
use sgf::Records;
use testdata::Scratch;

#[derive(Default)]
struct Seen {
    problems: Vec<Problem>,
    progress: u64,
}

impl Observer for Seen {
    fn progress(&mut self, _: &Progress) {
        self.progress += 1;
    }
    fn problem(&mut self, p: &Problem) {
        self.problems.push(p.clone());
    }
}

/// An even game with rules and komi, then one whose first move is on a stone (KataGo refuses
/// it): a collection of two.
const EVEN: &str = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[a]PW[b];B[ee];W[gc];B[cg];W[ge]C[a comment];B[fg];W[dc];B[cc];W[cb];B[bb];W[db];B[ba])\n\
                    (;GM[1]SZ[9]AB[cc];W[cc];B[dd])\n";
/// Black with four stones of handicap on 9×9 wins whoever is to move; a node already carries
/// evaluation properties of another run, which are replaced.
const HANDICAP: &str = "(;GM[1]SZ[9]HA[4]KM[0.5]RU[Japanese]AB[cc][gc][cg][gg];W[ee]SBKV[12]LZ[old 1 2];B[ec];W[ce];B[eg];W[ge];B[dd];W[fd])";

fn options(out: &Path) -> Option<Options> {
    let (katago, model, config) = testdata::katago()?;
    let mut o = Options::new(katago, model, out.to_path_buf());
    o.config = Some(config);
    o.visits = 4;
    o.timeout = Duration::from_secs(120);
    Some(o)
}

/// A node's properties: names and raw values.
type Node = Vec<(String, Vec<String>)>;

/// The main-line nodes of each game of `text`.
fn props(text: &[u8]) -> Vec<Vec<Node>> {
    let records = Records::read(text);
    let mut games = Vec::new();
    for g in 0..records.len() {
        let tree = records.game(g).expect("a game");
        games.push(
            tree.main_line()
                .map(|n| {
                    n.props()
                        .map(|p| {
                            (
                                p.name(),
                                p.raw_values()
                                    .map(|(v, _)| String::from_utf8_lossy(v).into_owned())
                                    .collect(),
                            )
                        })
                        .collect()
                })
                .collect(),
        );
    }
    games
}

/// The journal's answers: (out, game, turn) → the answer.
fn journal(out: &Path) -> HashMap<(String, u64, u64), Value> {
    let mut m = HashMap::new();
    for l in testdata::lines(&out.join("katago.jsonl")) {
        if let Some(a) = l.get("answer") {
            let key = (
                l["out"].as_str().unwrap().to_string(),
                l["game"].as_u64().unwrap(),
                l["turn"].as_u64().unwrap(),
            );
            assert!(m.insert(key, a.clone()).is_none(), "a turn twice: {l}");
        }
    }
    m
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("a number: {s:?}"))
}

/// Checks every evaluation of every main-line node of `file`'s games against the journal:
/// SBKV/SBKS Black's win rate and lead, LZ the mover's win rate and the side to move's score.
/// Returns per game the turns written.
fn check_against_journal(out: &Path, rel: &str) -> Vec<usize> {
    let text = std::fs::read(out.join(rel)).unwrap();
    let answers = journal(out);
    let mut written = Vec::new();
    for (g, nodes) in props(&text).iter().enumerate() {
        let mut turn = 0u64;
        let mut count = 0;
        for (i, node) in nodes.iter().enumerate() {
            let moved = node.iter().any(|(n, _)| n == "B" || n == "W");
            turn += u64::from(moved);
            let get = |name: &str| {
                let all: Vec<&Vec<String>> = node
                    .iter()
                    .filter(|(n, _)| n == name)
                    .map(|(_, v)| v)
                    .collect();
                assert!(all.len() <= 1, "{rel}#{g} node {i}: {name} twice");
                all.first().map(|v| v[0].clone())
            };
            let Some(sbkv) = get("SBKV") else {
                assert!(get("LZ").is_none() && get("LZOP").is_none() && get("SBKS").is_none());
                continue;
            };
            assert!(
                i == 0 || moved,
                "{rel}#{g}: an evaluation on node {i} without a move"
            );
            let a = &answers[&(rel.to_string(), g as u64, turn)];
            let root = &a["rootInfo"];
            let (win, lead, visits) = (
                root["winrate"].as_f64().unwrap(),
                root["scoreLead"].as_f64().unwrap(),
                root["visits"].as_u64().unwrap(),
            );
            let black_to_move = root["currentPlayer"] == "B";
            assert!(
                (num(&sbkv) - win * 100.0).abs() <= 0.005 + 1e-9,
                "{rel}#{g} turn {turn}: SBKV {sbkv} for {win}"
            );
            let sbks = get("SBKS").expect("SBKS beside SBKV");
            assert!(
                (num(&sbks) - lead).abs() <= 0.005 + 1e-9,
                "{rel}#{g} turn {turn}: SBKS {sbks} for {lead}"
            );
            let lz = get(if i == 0 { "LZOP" } else { "LZ" }).expect("LZ beside SBKV");
            let first: Vec<&str> = lz.lines().next().unwrap().split(' ').collect();
            assert_eq!(first[0], "KataGo");
            // The player who just moved (at the root, the one not to move).
            let mover_win = if black_to_move { 1.0 - win } else { win };
            assert!(
                (num(first[1]) - mover_win * 100.0).abs() <= 0.05 + 1e-9,
                "{rel}#{g} turn {turn}: LZ {lz} for {win}"
            );
            assert_eq!(first[2], visits.to_string());
            let to_move_lead = if black_to_move { lead } else { -lead };
            assert!(
                (num(first[3]) - to_move_lead).abs() <= 0.05 + 1e-9,
                "{rel}#{g} turn {turn}: LZ {lz} for {lead}"
            );
            count += 1;
        }
        written.push(count);
    }
    written
}

/// The text with the properties this crate wrote taken out.
fn without_evaluations(text: &str) -> String {
    let mut s = text.to_string();
    while let Some(start) = s.find("SBKV[") {
        let lz = start + s[start..].find("LZ").expect("LZ after SBKV");
        let end = lz + s[lz..].find(']').expect("LZ's bracket") + 1;
        s.replace_range(start..end, "");
    }
    s
}

#[test]
fn every_written_evaluation_is_katagos_answer_from_blacks_side() {
    let dir = Scratch::new("analyse-katago");
    let Some(opts) = options(&dir.path("out")) else {
        return;
    };
    dir.write("in/even.sgf", EVEN.as_bytes());
    dir.write("in/more/handicap.sgf", HANDICAP.as_bytes());
    let mut seen = Seen::default();
    let s = analyse(&[dir.path("in")], &opts, &mut seen).expect("the run");
    let out = dir.path("out");

    // The refused game is reported with its file and game, and the others are written.
    assert_eq!(seen.problems.len(), 1, "{:?}", seen.problems);
    let p = &seen.problems[0];
    assert_eq!((p.file.as_str(), p.game), ("even.sgf", Some(1)));
    assert!(p.reason.contains("Illegal move"), "{p}");
    assert_eq!(
        (
            s.files_written,
            s.games_analysed,
            s.games_refused,
            s.positions_analysed
        ),
        (2, 2, 1, 12 + 8)
    );
    assert_eq!(s.rules_fallback, 1, "the refused game names no rules");
    assert!(seen.progress > 0);

    // Every position of the main lines, and every evaluation as KataGo answered it.
    assert_eq!(check_against_journal(&out, "even.sgf"), vec![12, 0]);
    assert_eq!(check_against_journal(&out, "more/handicap.sgf"), vec![8]);

    // The record's own bytes are kept: without our properties the copy is the original.
    let even = std::fs::read_to_string(out.join("even.sgf")).unwrap();
    assert_eq!(without_evaluations(&even), EVEN);

    // Perspective: Black wins the handicap game after either player's move, so Black's win
    // rate (SBKV) is high at every node, and the mover's (LZ) alternates.
    let handicap = props(&std::fs::read(out.join("more/handicap.sgf")).unwrap());
    for (i, node) in handicap[0].iter().enumerate() {
        let value = |name: &str| {
            node.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v[0].clone())
        };
        let sbkv = num(&value("SBKV").unwrap());
        assert!(sbkv > 80.0, "node {i}: SBKV {sbkv}");
        let lz = value(if i == 0 { "LZOP" } else { "LZ" }).unwrap();
        let mover = num(lz.split(' ').nth(1).unwrap());
        // The root and Black's moves: Black (not to move) is the mover; White's moves: White.
        let black_moved = i == 0 || i % 2 == 0;
        assert_eq!(mover > 50.0, black_moved, "node {i}: LZ {lz}");
    }
    // The old evaluation of the handicap game's first move is gone: one SBKV, ours.
    assert!(!std::fs::read_to_string(out.join("more/handicap.sgf"))
        .unwrap()
        .contains("old 1 2"));
}

#[test]
fn records_not_in_an_ascii_charset_are_written_as_utf8_sgf() {
    let dir = Scratch::new("analyse-utf16");
    let Some(opts) = options(&dir.path("out")) else {
        return;
    };
    // UTF-16 with its byte-order mark: properties inserted into its bytes would not read.
    let text = "(;GM[1]SZ[9]KM[7]PB[黑]PW[白];B[ee];W[gc];B[cg])";
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    dir.write("in/game.sgf", &utf16);
    let mut seen = Seen::default();
    let s = analyse(&[dir.path("in")], &opts, &mut seen).expect("the run");
    assert!(seen.problems.is_empty(), "{:?}", seen.problems);
    assert_eq!(s.games_analysed, 1);
    let out = dir.path("out");
    assert_eq!(check_against_journal(&out, "game.sgf"), vec![4]);
    let text = std::fs::read_to_string(out.join("game.sgf")).unwrap();
    assert!(
        text.contains("PB[黑]") && text.contains("CA[UTF-8]"),
        "{text}"
    );
}

/// Test-only: a path that names no program.
fn nowhere() -> PathBuf {
    PathBuf::from("/nonexistent/katago")
}

#[test]
fn a_second_run_takes_every_answer_from_the_journal_and_writes_the_same_records() {
    let dir = Scratch::new("analyse-again");
    let Some(opts) = options(&dir.path("out")) else {
        return;
    };
    dir.write("in/even.sgf", EVEN.as_bytes());
    let mut seen = Seen::default();
    analyse(&[dir.path("in")], &opts, &mut seen).expect("the first run");
    let first = std::fs::read(dir.path("out/even.sgf")).unwrap();
    let journal = std::fs::read(dir.path("out/katago.jsonl")).unwrap();
    // KataGo is not even started: a path that names none does.
    let again = Options {
        katago: nowhere(),
        ..opts
    };
    let mut seen = Seen::default();
    let s = analyse(&[dir.path("in")], &again, &mut seen).expect("the second run");
    assert_eq!(
        (s.games_analysed, s.games_resumed, s.games_refused),
        (0, 1, 1)
    );
    assert_eq!(std::fs::read(dir.path("out/even.sgf")).unwrap(), first);
    assert_eq!(
        std::fs::read(dir.path("out/katago.jsonl")).unwrap(),
        journal
    );
    // A torn last line (a run killed while writing) is cut off, and its game asked again.
    let mut torn = journal.clone();
    torn.truncate(torn.len() - 10);
    std::fs::write(dir.path("out/katago.jsonl"), &torn).unwrap();
    let err = analyse(&[dir.path("in")], &again, &mut Seen::default()).unwrap_err();
    assert!(err.to_string().contains("starting KataGo"), "{err}");
}
