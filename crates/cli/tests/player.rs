//! `qipu player NAME` over generated analysed games (`testdata::analysed`, indexed with the
//! test's evaluation comments): its JSON is the library's figures, its table a row per year
//! and one for all, its threshold read by the library's words and a bad one refused with the
//! library's message.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use common::{qipu, stderr, stdout, Scratch};
use qipu::{Index, LossThreshold, PlayerOptions, DEFAULT_PLAYER_MISTAKE};
use serde_json::Value;
use testdata::analysed::{self, ALIAS, ALIAS_FILE, PLAYERS};
use testdata::Rng;

/// The analysed index, built once per test binary.
fn index() -> &'static PathBuf {
    static DIR: OnceLock<(Scratch, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let scratch = Scratch::new("cli-player");
        for (g, game) in analysed::games(80, &mut Rng::new(5253)).iter().enumerate() {
            scratch.write(&format!("d/g{g:03}.sgf"), game.sgf.as_bytes());
        }
        let aliases = scratch.write("aliases.tsv", ALIAS_FILE.as_bytes());
        let dir = scratch.0.join("index");
        let opts = qipu::BuildOptions {
            evals: Some(common::comment_evals),
            aliases: Some(aliases),
            ..qipu::BuildOptions::default()
        };
        qipu::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
        (scratch, dir)
    })
    .1
}

/// `value` written as JSON and read back, as the command's output is read.
fn as_read(value: &impl serde::Serialize) -> Value {
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

#[test]
fn the_json_is_the_librarys_figures_at_the_threshold_asked() {
    let dir = index();
    let library = Index::open(dir).unwrap();
    let dir = dir.to_str().unwrap();
    for name in [PLAYERS[0], PLAYERS[2], ALIAS, "Nobody"] {
        for (args, mistakes) in [
            (vec![], DEFAULT_PLAYER_MISTAKE),
            (vec!["--mistakes", "3pt"], "3pt".parse().unwrap()),
            (vec!["--mistakes", "5%,1pt"], "5%,1pt".parse().unwrap()),
        ] {
            let mut all = vec!["player", name, "--index", dir, "--json"];
            all.extend(args);
            let out = qipu(&all);
            assert!(out.status.success(), "{all:?}: {}", stderr(&out));
            let got: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
            let want = library.player(name, &PlayerOptions { mistakes }).unwrap();
            assert_eq!(got, as_read(&want), "{all:?}");
        }
    }
}

#[test]
fn the_table_has_a_row_per_year_and_one_for_all() {
    let dir = index();
    let library = Index::open(dir).unwrap();
    let want = library
        .player(PLAYERS[1], &PlayerOptions::default())
        .unwrap();
    let out = qipu(&["player", PLAYERS[1], "--index", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // A heading line, the columns' header, a row per year, the total.
    assert!(lines[0].starts_with(PLAYERS[1]), "{text}");
    assert!(lines[0].contains("at least 10%"), "{text}");
    assert_eq!(lines.len(), 2 + want.years.len() + 1, "{text}");
    for (line, y) in lines[2..].iter().zip(&want.years) {
        let label = y.year.map_or("undated".to_string(), |y| y.to_string());
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[0], label, "{text}");
        assert_eq!(cells[1], y.games.to_string(), "{text}");
        assert_eq!(cells[2], y.moves.to_string(), "{text}");
        assert_eq!(cells[5], y.mistakes.to_string(), "{text}");
    }
    let last: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(last[0], "all");
    assert_eq!(last[2], want.total.moves.to_string(), "{text}");
}

#[test]
fn a_bad_threshold_is_refused_with_the_librarys_message() {
    let dir = index().to_str().unwrap();
    for word in ["10", "lots", "120%"] {
        let out = qipu(&["player", PLAYERS[0], "--index", dir, "--mistakes", word]);
        assert_eq!(out.status.code(), Some(2), "{word}");
        let said = stderr(&out);
        let refusal = word.parse::<LossThreshold>().unwrap_err().to_string();
        assert!(said.contains("--mistakes"), "{said}");
        assert!(said.contains(&refusal), "{said}\n{refusal}");
    }
}
