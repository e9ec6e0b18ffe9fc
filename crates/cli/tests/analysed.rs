//! From the engine to the answer: `qipu analyse` runs the shared KataGo (`../shared/tools/katago/`)
//! over short 9×9 games, `qipu index` reads the copies it wrote, and `qipu search --mistakes`
//! answers. What the search must find is computed here from KataGo's raw answers alone
//! (`katago.jsonl`, Black's win rate and lead of each position): a move is a mistake when its
//! player's side lost at least the threshold between the answer for the position before it and
//! the answer for the position after it. Without the shared KataGo this test says so and
//! passes, unless `QIPU_REQUIRE_DATASETS=1`.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::{build, command, json_lines, qipu, stderr, Scratch};

/// Short even games, each with moves on the first line (which a net, even a weak one, dislikes)
/// among sensible ones; no stone is ever captured.
const GAMES: [&str; 3] = [
    "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Ann]PW[Bob];B[ee];W[aa];B[cc];W[ia];B[gg];W[ai];B[cg];W[ii];B[gc];W[ba];B[ec];W[ab])",
    "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Bob]PW[Ann];B[ai];W[ee];B[aa];W[cc];B[ii];W[gg];B[ia];W[cg];B[bi];W[gc];B[ah];W[eg])",
    "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Ann]PW[Bob];B[ee];W[cg];B[gc];W[cc];B[gg];W[ec];B[ge];W[ce];B[eg];W[ea];B[ei];W[ia])",
];

/// The tolerances of what the index keeps against KataGo's raw numbers: the records carry win
/// rates to 0.1 of a percent at the coarsest (lizzieyzy's `LZ`), leads to 0.1 of a point, and
/// the index keeps a win to 1/10,000 and a lead to a tenth; a loss is a difference of two.
const WIN_TOLERANCE: f64 = 0.0015;
const LEAD_TOLERANCE: f64 = 0.25;

/// Black's (win, lead) per turn of each output record, from the journal.
fn raw(out: &Path) -> BTreeMap<String, Vec<(f64, f64)>> {
    let mut turns: BTreeMap<String, BTreeMap<u64, (f64, f64)>> = BTreeMap::new();
    for l in testdata::lines(&out.join("katago.jsonl")) {
        let Some(a) = l.get("answer") else {
            panic!("a game was refused: {l}");
        };
        let root = &a["rootInfo"];
        turns
            .entry(l["out"].as_str().unwrap().to_string())
            .or_default()
            .insert(
                l["turn"].as_u64().unwrap(),
                (
                    root["winrate"].as_f64().unwrap(),
                    root["scoreLead"].as_f64().unwrap(),
                ),
            );
    }
    turns
        .into_iter()
        .map(|(out, t)| {
            assert!(
                t.keys().copied().eq(0..t.len() as u64),
                "{out}: turns {t:?}"
            );
            (out, t.into_values().collect())
        })
        .collect()
}

/// A move's loss, from its player's side, by (record, move number): `points` picks the lead.
fn losses(raw: &BTreeMap<String, Vec<(f64, f64)>>, points: bool) -> BTreeMap<(String, u64), f64> {
    let mut all = BTreeMap::new();
    for (out, turns) in raw {
        for m in 1..turns.len() {
            let value = |t: usize| if points { turns[t].1 } else { turns[t].0 };
            // Black plays the odd moves of these even games.
            let sign = if m % 2 == 1 { 1.0 } else { -1.0 };
            all.insert((out.clone(), m as u64), sign * (value(m - 1) - value(m)));
        }
    }
    all
}

/// A threshold between two of the losses, far from both (so that the roundings of the
/// records and the index cannot move a move across it), with at least two moves above it.
fn threshold(losses: &BTreeMap<(String, u64), f64>, gap: f64) -> f64 {
    let mut v: Vec<f64> = losses.values().copied().filter(|l| *l > 0.0).collect();
    v.sort_by(|a, b| b.total_cmp(a));
    (2..v.len())
        .find(|&i| v[i - 1] - v[i] >= 4.0 * gap)
        .map(|i| (v[i - 1] + v[i]) / 2.0)
        .unwrap_or_else(|| panic!("no threshold with a clear gap among the losses {v:?}"))
}

/// The file name of a hit's record.
fn file_of(hit: &serde_json::Value) -> String {
    let path = hit["path"].as_str().expect("a hit names its file");
    Path::new(path)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_mistakes_found_are_those_katagos_raw_answers_show() {
    let Some((katago, model, config)) = testdata::katago() else {
        return;
    };
    let dir = Scratch::new("cli-analysed-mistakes");
    for (k, g) in GAMES.iter().enumerate() {
        dir.write(&format!("in/g{k}.sgf"), g.as_bytes());
    }
    let (input, out, index) = (dir.path("in"), dir.path("out"), dir.path("index"));
    let analysed = command()
        .arg("analyse")
        .arg(&input)
        .arg("--katago")
        .arg(&katago)
        .arg("--model")
        .arg(&model)
        .arg("--config")
        .arg(&config)
        .args(["--visits", "8", "--quiet", "--out"])
        .arg(&out)
        .output()
        .expect("qipu runs");
    assert!(analysed.status.success(), "{}", stderr(&analysed));
    build(&index, &[&out]);

    let raw = raw(&out);
    assert_eq!(raw.len(), GAMES.len(), "{:?}", raw.keys());
    let index = index.display().to_string();
    for (points, tolerance) in [(false, WIN_TOLERANCE), (true, LEAD_TOLERANCE)] {
        let losses = losses(&raw, points);
        let t = threshold(&losses, tolerance);
        let word = if points {
            format!("{t:.2}pt")
        } else {
            format!("{:.2}%", 100.0 * t)
        };
        let expected: BTreeSet<(String, u64)> = losses
            .iter()
            .filter(|(_, l)| **l >= t)
            .map(|(k, _)| k.clone())
            .collect();
        let found = qipu(&["search", "--index", &index, "--mistakes", &word, "--json"]);
        let lines = json_lines(&found);
        let (hits, summary) = lines.split_at(lines.len() - 1);
        assert_eq!(summary[0]["type"], "summary", "{lines:?}");
        let mut seen = BTreeSet::new();
        for hit in hits {
            let key = (file_of(hit), hit["move_number"].as_u64().unwrap());
            let m = key.1 as usize;
            let turns = &raw[&key.0];
            let mover = if m % 2 == 1 { "B" } else { "W" };
            assert_eq!(hit["color"], mover, "{hit}");
            let (loss, before, after) = if points {
                (
                    hit["loss"]["points"].as_f64().unwrap(),
                    hit["before"]["black_lead"].as_f64().unwrap(),
                    hit["after"]["black_lead"].as_f64().unwrap(),
                )
            } else {
                (
                    hit["loss"]["win"].as_f64().unwrap(),
                    hit["before"]["black_win"].as_f64().unwrap(),
                    hit["after"]["black_win"].as_f64().unwrap(),
                )
            };
            let pick = |t: usize| if points { turns[t].1 } else { turns[t].0 };
            assert!((loss - losses[&key]).abs() <= tolerance, "{word}: {hit}");
            assert!((before - pick(m - 1)).abs() <= tolerance / 2.0, "{hit}");
            assert!((after - pick(m)).abs() <= tolerance / 2.0, "{hit}");
            assert!(seen.insert(key), "a move twice: {hit}");
        }
        assert_eq!(seen, expected, "--mistakes {word}");
        assert!(!expected.is_empty());
    }
}
