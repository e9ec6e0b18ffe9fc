//! `qipu analyse` with the shared KataGo (`../shared/tools/katago/`): a run killed in the
//! middle and started again analyses only what is missing and writes the same records a run
//! from its answers writes. Without the shared KataGo this test says so and passes, unless
//! `QIPU_REQUIRE_DATASETS=1`.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{command, stderr, stdout, Scratch};

/// Game `k` of the test: 9 moves on the points of even coordinates of a 9×9 board, in an
/// order that depends on `k`. No two stones touch, so every move is legal.
fn game(k: usize) -> String {
    let points: Vec<(u8, u8)> = (0..5)
        .flat_map(|y| (0..5).map(move |x| (2 * x, 2 * y)))
        .collect();
    let mut s = String::from("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]");
    for i in 0..9 {
        let (x, y) = points[(i * 7 + k * 3) % 25];
        let color = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(
            ";{color}[{}{}]",
            (b'a' + x) as char,
            (b'a' + y) as char
        ));
    }
    s.push_str(")\n");
    s
}

/// The games whose blocks the journal holds, each once.
fn journaled(journal: &Path) -> HashSet<String> {
    let text = std::fs::read_to_string(journal).unwrap_or_default();
    let mut blocks = HashSet::new();
    let mut seen_turns = HashSet::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue; // a torn last line
        };
        let key = v["out"].as_str().unwrap().to_string();
        let turn = v["turn"].as_u64().unwrap();
        assert!(
            seen_turns.insert((key.clone(), turn)),
            "{key} turn {turn} twice"
        );
        blocks.insert(key);
    }
    blocks
}

/// The output folder's records, by name (the journal and partial files left out).
fn records(out: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_killed_run_resumes_with_only_what_is_missing_and_writes_the_same_records() {
    let Some((katago, model, config)) = testdata::katago() else {
        return;
    };
    const GAMES: usize = 6;
    let dir = Scratch::new("cli-analyse-resume");
    for k in 0..GAMES {
        dir.write(&format!("in/g{k}.sgf"), game(k).as_bytes());
    }
    let (input, out) = (dir.path("in"), dir.path("out"));
    let args = |katago: &Path| -> Vec<String> {
        [
            "analyse".as_ref(),
            input.as_os_str(),
            "--katago".as_ref(),
            katago.as_os_str(),
            "--model".as_ref(),
            model.as_os_str(),
            "--config".as_ref(),
            config.as_os_str(),
            "--visits".as_ref(),
            "4".as_ref(),
            "--out".as_ref(),
            out.as_os_str(),
            "--quiet".as_ref(),
        ]
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect()
    };
    let journal = out.join("katago.jsonl");

    // Killed once the first game is in the journal, before the last.
    let mut child = command()
        .args(args(&katago))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("qipu runs");
    let started = Instant::now();
    while journaled(&journal).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no game analysed in 2 minutes"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "qipu ended before a game was analysed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = journaled(&journal);
    assert!(
        before.len() < GAMES,
        "the run ended before it was killed: give it more games"
    );
    let kept = std::fs::read_to_string(&journal).unwrap();
    let kept = &kept[..kept.rfind('\n').map_or(0, |i| i + 1)];
    // Whatever is in the folder is whole: records are renamed into place once written.
    for (name, bytes) in records(&out) {
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text.matches("SBKV[").count(), 10, "{name}: {text}");
    }

    // Started again: it finishes, keeps every answer it had, asks none twice.
    let again = command().args(args(&katago)).output().unwrap();
    assert!(again.status.success(), "{}", stderr(&again));
    let summary = stdout(&again);
    let resumed = format!("{} games taken from an earlier run's answers", before.len());
    assert!(summary.contains(&resumed), "{summary}");
    assert!(std::fs::read_to_string(&journal).unwrap().starts_with(kept));
    assert_eq!(journaled(&journal).len(), GAMES);
    let written = records(&out);
    assert_eq!(written.len(), GAMES);
    for (name, bytes) in &written {
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert_eq!(text.matches("SBKV[").count(), 10, "{name}: {text}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".qipu-partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A third run needs no KataGo at all, and writes the same bytes.
    let third = command()
        .args(args(Path::new("/nonexistent/katago")))
        .output()
        .unwrap();
    assert!(third.status.success(), "{}", stderr(&third));
    assert!(
        stdout(&third).contains("analysed 0 games"),
        "{}",
        stdout(&third)
    );
    assert_eq!(records(&out), written);
}

#[test]
fn analyse_says_what_it_needs() {
    let help = common::qipu(&["analyse", "--help"]);
    let text = stdout(&help);
    for word in [
        "--katago",
        "--model",
        "--config",
        "--visits",
        "--out",
        "katago.jsonl",
    ] {
        assert!(text.contains(word), "{word} in {text}");
    }
    let missing = common::qipu(&["analyse", "x.sgf"]);
    assert!(!missing.status.success());
    assert!(
        stderr(&missing).contains("--katago"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn an_output_folder_read_as_input_is_not_analysed_again() {
    // No game to analyse, so no KataGo is started: none is needed.
    let dir = Scratch::new("cli-analyse-nothing");
    dir.write("in/notes.txt", b"no records here");
    dir.write("in/out/old.sgf", b"(;GM[1];B[aa])");
    let (input, out) = (dir.path("in"), dir.path("in/out"));
    let run = common::qipu(&[
        "analyse",
        input.to_str().unwrap(),
        "--katago",
        "/nonexistent/katago",
        "--model",
        "net.bin.gz",
        "--config",
        "/dev/null",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", stdout(&run));
    let said = stderr(&run);
    assert!(
        said.contains(
            "nothing analysed: no game in the inputs (1 files inside the output folder are not inputs)"
        ),
        "{said}"
    );
}
