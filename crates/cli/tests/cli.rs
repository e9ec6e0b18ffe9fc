//! The command line as a user runs it, on the embedded sample corpus.

mod common;

use common::{json_lines, qipu, sample_games as samples, Scratch};
use serde_json::Value;

#[test]
fn info_json_describes_every_game() {
    let dir = samples();
    let out = qipu(&["info", "--json", dir.to_str().unwrap()]);
    assert!(out.status.success());
    let games = json_lines(&out);
    assert_eq!(games.len(), 9, "8 SGF files and 1 WTF file");
    for g in &games {
        for key in [
            "file",
            "game",
            "size",
            "moves",
            "black",
            "white",
            "date",
            "result",
            "charset",
            "diagnostics",
        ] {
            assert!(g.get(key).is_some(), "{key} missing in {g}");
        }
    }
    let g = games
        .iter()
        .find(|g| g["file"] == "maruyama-ito.sgf")
        .unwrap();
    assert_eq!(g["game"], 0);
    assert_eq!(g["moves"], 235);
    assert_eq!(g["black"], "Maruyama Toyoji");
    assert_eq!(g["date"]["start"], "1976-01-28");
    assert_eq!(g["result"]["raw"], "W+6.5");
    assert_eq!(g["result"]["winner"], "white");
    assert_eq!(g["result"]["how"], "score");
    assert_eq!(g["result"]["margin"], 6.5);
    let wtf = games.iter().find(|g| g["format"] == "wtf").unwrap();
    assert_eq!(wtf["black"], "孙策");
    assert_eq!(wtf["charset"], "gb18030");
    assert_eq!(wtf["moves"], 43);
    assert_eq!(wtf["date"]["start"], "0200-01-01");
}

#[test]
fn info_reports_broken_files_and_goes_on() {
    let dir = std::env::temp_dir().join(format!("qipu-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.sgf"), b"(;GM[1]PB[x];B[aa](;W[bb]").unwrap();
    std::fs::write(dir.join("b.sgf"), b"\0\0\0\0").unwrap();
    std::fs::write(dir.join("c.sgf"), b"(;B[cc])(;W[dd])").unwrap();
    let out = qipu(&["info", "--json", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success());
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["file"], "a.sgf");
    assert!(rows[0]["diagnostics"][0]
        .as_str()
        .unwrap()
        .contains("not closed"));
    assert_eq!(rows[1]["file"], "b.sgf");
    assert_eq!(rows[1]["rejected"], true);
    assert!(rows[1]["diagnostics"][0]
        .as_str()
        .unwrap()
        .contains("no game"));
    assert_eq!(
        (rows[2]["game"].as_u64(), rows[3]["game"].as_u64()),
        (Some(0), Some(1))
    );
}

#[test]
fn show_json_gives_the_final_position() {
    let f = samples().join("maruyama-ito.sgf");
    let out = qipu(&["show", "--json", "--at", "3", f.to_str().unwrap()]);
    assert!(out.status.success());
    let g = &json_lines(&out)[0];
    assert_eq!(g["moves"], 235);
    assert_eq!(g["at"], 3);
    assert_eq!(g["black"], serde_json::json!(["dd", "dp"]));
    assert_eq!(g["white"], serde_json::json!(["qc"]));
    let text = qipu(&["show", "--at", "3", f.to_str().unwrap()]);
    let s = String::from_utf8(text.stdout).unwrap();
    assert!(s.contains("after move 3 of 235 (last: B D16)"), "{s}");
}

#[test]
fn convert_between_the_three_formats() {
    let wtf = samples().join("sun-ce-lu-fan-200.wtf");
    let out = qipu(&["convert", wtf.to_str().unwrap(), "--to", "sgf"]);
    assert!(out.status.success());
    let sgf = String::from_utf8(out.stdout).unwrap();
    assert!(sgf.starts_with("(;FF[4]CA[UTF-8]GM[1]"));
    assert!(sgf.contains("PB[孙策]PW[吕范]"));
    assert!(sgf.contains(";W[cn];B[gq]"));

    let q = samples().join("joseki-4-4.quadrant.txt");
    let out = qipu(&["convert", q.to_str().unwrap(), "--to", "sgf"]);
    let sgf = String::from_utf8(out.stdout).unwrap();
    assert!(
        sgf.contains(";B[pd];W[qf];B[nc];W[rd];B[qc];W[qi]"),
        "{sgf}"
    );
    let out = qipu(&["convert", q.to_str().unwrap(), "--to", "quadrant"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "01：44、36，63、24，33、39，\n"
    );

    // Setup stones cannot be written in the quadrant notation: a clear error, exit code 1.
    let out = qipu(&["convert", wtf.to_str().unwrap(), "--to", "quadrant"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("setup stones"));
}

#[test]
fn convert_reads_its_input_as_every_command_does() {
    // A folder is walked like `qipu index` walks it: each record converted, in name order.
    let scratch = Scratch::new("convert");
    let dir = &scratch.0;
    std::fs::copy(samples().join("maruyama-ito.sgf"), dir.join("b.sgf")).unwrap();
    std::fs::copy(samples().join("sun-ce-lu-fan-200.wtf"), dir.join("a.wtf")).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a record").unwrap();
    let out = qipu(&["convert", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sgf = String::from_utf8(out.stdout).unwrap();
    assert_eq!(sgf.matches("(;FF[4]").count(), 2, "{sgf}");
    let (wtf, sgf_game) = (
        sgf.find("PB[孙策]").unwrap(),
        sgf.find("PB[Maruyama").unwrap(),
    );
    assert!(wtf < sgf_game, "a.wtf before b.sgf");
}

#[test]
fn missing_input_is_an_error_with_exit_code_2() {
    let out = qipu(&["info", "/no/such/file.sgf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file.sgf"));
}

#[test]
fn stats_shows_control_characters_from_records_as_escapes() {
    // A name holding a terminal's "clear the screen" must not reach the terminal as itself.
    let scratch = Scratch::new("stats-escapes");
    let dir = &scratch.0;
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(
        games.join("a.sgf"),
        "(;GM[1]SZ[19]PB[Eve\u{1b}[2Jx]PW[Bob\u{7}]EV[Cup\u{1b}[1m];B[pd])",
    )
    .unwrap();
    let index = dir.join("index");
    let (idx, inp) = (index.to_str().unwrap(), games.to_str().unwrap());
    assert!(qipu(&["index", "--index", idx, "-q", inp]).status.success());

    let human = qipu(&["stats", "--index", idx]);
    let json = qipu(&["stats", "--index", idx, "--json"]);
    assert!(human.status.success());
    let human = String::from_utf8(human.stdout).unwrap();
    assert!(
        !human.chars().any(|c| c.is_control() && c != '\n'),
        "{human:?}"
    );
    assert!(human.contains(r"Eve\u{1b}[2Jx"), "{human}");
    assert!(human.contains(r"Bob\u{7}"), "{human}");
    assert!(human.contains(r"Cup\u{1b}[1m"), "{human}");
    // JSON keeps the names exactly (its own escapes are undone by any reader).
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    let names: Vec<&str> = v["top_players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[0].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Eve\u{1b}[2Jx"), "{names:?}");
    assert_eq!(v["top_events"][0][0], "Cup\u{1b}[1m");
}

#[test]
fn a_path_that_is_not_utf8_is_printed_in_a_form_given_back_to_show() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = Scratch::new("bytes-path");
    let dir = &scratch.0;
    // "café.sgf" in Latin-1: 0xE9 alone is not UTF-8.
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9 \\ 1.sgf");
    std::fs::write(
        dir.join(name),
        "(;GM[1]SZ[19]PB[First];B[pd])(;GM[1]SZ[19]PB[Second];B[dd];W[pp];B[dp])",
    )
    .unwrap();
    let info = qipu(&["info", "--json", dir.to_str().unwrap()]);
    let games = json_lines(&info);
    assert_eq!(games.len(), 2, "{}", String::from_utf8_lossy(&info.stderr));
    let path = games[1]["path"].as_str().unwrap().to_string();
    assert!(!path.contains('\u{fffd}'), "{path}");
    assert!(path.ends_with(r"caf\xE9 \\ 1.sgf"), "{path}");
    for arg in [format!("{path}#1"), path.clone()] {
        let out = qipu(&["show", "--json", &arg]);
        assert!(
            out.status.success(),
            "{arg}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let shown = json_lines(&out);
        let want = if arg.ends_with("#1") { 1 } else { 2 };
        assert_eq!(shown.len(), want, "{arg}");
        let last = &shown[want - 1];
        assert_eq!(last["game"], 1, "{arg}");
        assert_eq!(last["moves"], 3, "{arg}");
        assert_eq!(last["path"], path.as_str(), "{arg}: the same form again");
    }
}
