//! One vocabulary: every word of every option in `data/vocabulary.json`, asked through
//! `qipu search --json` and through `qipu serve` (on an ephemeral loopback port). The two accept
//! exactly the same words (the library's lists, aliases included), give the same hits in the
//! same order for each, and refuse the same words with the library's message (the server's 400
//! naming the parameter). python/tests/test_vocabulary.py walks the same file through Python.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

mod common;

/// What a client made of one word: an answer (the hits as `(file, game)` in order, then the
/// summary's games and positions), or a refusal with its message.
#[derive(Debug, PartialEq)]
enum Reply {
    Answer(Vec<(String, u64)>, u64, u64),
    Refused(String),
}

impl Reply {
    fn accepted(&self) -> bool {
        matches!(self, Reply::Answer(..))
    }
}

/// The answer that NDJSON lines (the CLI's `--json`, the server's `application/x-ndjson`) say.
fn answer(text: &str) -> Reply {
    let mut hits = Vec::new();
    let mut counts = None;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        match v["type"].as_str() {
            Some("hit") => hits.push((
                v["file"].as_str().unwrap().to_string(),
                v["game"].as_u64().unwrap(),
            )),
            Some("summary") => {
                counts = Some((
                    v["games"].as_u64().unwrap(),
                    v["positions"].as_u64().unwrap(),
                ))
            }
            _ => {}
        }
    }
    let (games, positions) = counts.unwrap_or_else(|| panic!("no summary in {text}"));
    Reply::Answer(hits, games, positions)
}

/// Percent-encodes a query-string value.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One option of the data file.
struct Setting {
    kind: String,
    cli: String,
    http: String,
    accepted: Vec<String>,
    refused: Vec<String>,
}

fn options() -> Vec<Setting> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vocabulary.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let words = |o: &Value, k: &str| -> Vec<String> {
        o[k].as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect()
    };
    v["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| Setting {
            kind: o["kind"].as_str().unwrap().into(),
            cli: o["cli"].as_str().unwrap().into(),
            http: o["http"].as_str().unwrap().into(),
            accepted: words(o, "accepted"),
            refused: words(o, "refused"),
        })
        .collect()
}

/// Whether the library reads `word` as a word of `kind`: the data file's words are checked
/// against the vocabulary itself, so that the file cannot drift from it.
fn library_reads(kind: &str, word: &str) -> bool {
    match kind {
        "sort" => word.parse::<qipu::Sort>().is_ok(),
        "handicap" => word.parse::<qipu::Handicap>().is_ok(),
        "color" => qipu::parse_color(word).is_ok(),
        "komi" => word.parse::<qipu::KomiRange>().is_ok(),
        "rank" => qipu::Query::metadata("").min_rank(word).is_ok(),
        "month" => qipu::Month::parse(word, false).is_ok(),
        "point" => qipu::parse_point(word, 19).is_ok(),
        other => panic!("no kind {other}"),
    }
}

#[test]
fn every_word_of_every_option_means_the_same_to_the_cli_and_the_server() {
    let options = options();
    // The list kinds hold exactly the library's lists.
    for (kind, list) in [
        ("sort", &qipu::SORT_WORDS[..]),
        ("handicap", &qipu::HANDICAP_WORDS[..]),
        ("color", &qipu::COLOR_WORDS[..]),
    ] {
        let o = options.iter().find(|o| o.kind == kind).unwrap();
        let file: BTreeSet<&str> = o.accepted.iter().map(String::as_str).collect();
        assert_eq!(file, list.iter().copied().collect(), "{kind}");
    }
    for o in &options {
        for w in &o.accepted {
            assert!(library_reads(&o.kind, w), "{} {w:?}", o.kind);
        }
        for w in &o.refused {
            assert!(!library_reads(&o.kind, w), "{} {w:?}", o.kind);
        }
    }

    let index = common::samples_index();
    let serving = common::Serving::start(&[index]);
    let addr = serving.addr.clone();

    let cli = |o: &Setting, word: &str| -> Reply {
        // The empty board (every game at move 0), or the point asked as its black stone.
        let mut args = vec!["search".to_string(), "--json".into(), "--index".into()];
        args.push(index.display().to_string());
        if o.kind != "point" {
            args.push("--black=".into());
        }
        args.push("--white=".into());
        args.push(format!("{}={word}", o.cli));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = common::qipu(&args);
        match out.status.code() {
            Some(0 | 1) => answer(&String::from_utf8(out.stdout).unwrap()),
            Some(2) => Reply::Refused(String::from_utf8(out.stderr).unwrap()),
            c => panic!("{args:?}: exit {c:?}"),
        }
    };
    let server = |o: &Setting, word: &str| -> Reply {
        let board = if o.kind == "point" { "" } else { "black=&" };
        let target = format!(
            "/api/position?{board}white=&limit=10000&{}={}",
            o.http,
            encode(word)
        );
        let reply = common::get(&addr, &target, "application/x-ndjson");
        match (reply.status(), reply.body) {
            (200, body) => answer(&body),
            (400, body) => {
                let v: Value = serde_json::from_str(body.lines().next().unwrap()).unwrap();
                assert_eq!(v["param"], o.http.as_str(), "{target}: {body}");
                Reply::Refused(v["error"].as_str().unwrap().to_string())
            }
            (status, body) => panic!("{target}: {status} {body}"),
        }
    };

    for o in &options {
        let mut answers = BTreeSet::new();
        for (word, should) in o
            .accepted
            .iter()
            .map(|w| (w, true))
            .chain(o.refused.iter().map(|w| (w, false)))
        {
            let (by_cli, by_server) = (cli(o, word), server(o, word));
            assert_eq!(by_cli.accepted(), should, "{} {word:?}: {by_cli:?}", o.cli);
            assert_eq!(
                by_server.accepted(),
                should,
                "{} {word:?}: {by_server:?}",
                o.http
            );
            match (&by_cli, &by_server) {
                (Reply::Refused(said), Reply::Refused(message)) => {
                    // The same message: the library's, after the CLI's option name.
                    assert!(said.contains(message.as_str()), "{said:?} / {message:?}");
                    assert!(said.contains(&o.cli), "{said}");
                }
                _ => assert_eq!(by_cli, by_server, "{} {word:?}", o.cli),
            }
            if let Reply::Answer(hits, ..) = &by_cli {
                answers.insert(hits.clone());
            }
            // An alias answers as its order's canonical word.
            if let (true, Ok(sort)) = (o.kind == "sort", word.parse::<qipu::Sort>()) {
                assert_eq!(by_cli, cli(o, &sort.to_string()), "{word}");
            }
        }
        // The words do choose: not every accepted word gives the same hits.
        assert!(answers.len() > 1, "{}: every word answers alike", o.cli);
    }
}

/// `qipu search --help` names every word of the list kinds.
#[test]
fn the_help_names_every_word() {
    let out = common::qipu(&["search", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    let after = |flag: &str| {
        let at = help
            .find(&format!("{flag} "))
            .unwrap_or_else(|| panic!("{flag}"));
        help[at..]
            .split("\n\n")
            .take(2)
            .collect::<Vec<_>>()
            .join("\n")
    };
    for (flag, words) in [
        ("--sort", &qipu::SORT_WORDS[..]),
        ("--handicap", &qipu::HANDICAP_WORDS[..]),
        ("--to-move", &qipu::COLOR_WORDS[..]),
    ] {
        let text = after(flag);
        for w in words {
            assert!(text.contains(w), "{flag} does not name {w}: {text}");
        }
    }
}
