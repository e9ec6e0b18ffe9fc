//! One vocabulary: every word of every option in `data/vocabulary.json`, asked through
//! `qipu search --json` and through `qipu serve` (on an ephemeral loopback port). The two accept
//! exactly the same words (the library's lists, aliases included), give the same hits in the
//! same order for each, and refuse the same words with the library's message (the server's 400
//! naming the parameter); the loss words of a search for mistakes likewise, over generated
//! analysed games. python/tests/test_vocabulary.py walks the same file through Python.

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
        // The option's own entry (indented as clap lists options), not a mention in another's.
        let at = help
            .find(&format!("      {flag} "))
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

/// The test's evaluation property (`testdata::analysed`): each main-line node's comment
/// `WIN LEAD`, in 1/10,000 and tenths.
fn read_evals(tree: &sgf::GameTree<'_>) -> Option<sgf::Evals> {
    let positions: Vec<Option<sgf::Eval>> = tree
        .main_line()
        .map(|node| {
            let text = node.get(sgf::ids::C)?.text().to_string();
            let mut words = text.split(' ');
            let win: i32 = words.next()?.parse().ok()?;
            let lead = words.next()?.parse::<i32>().ok();
            Some(sgf::Eval {
                win: win as f32 / 10_000.0,
                lead: lead.map(|l| l as f32 / 10.0),
                visits: None,
            })
        })
        .collect();
    positions.iter().any(Option::is_some).then_some(sgf::Evals {
        positions,
        program: "test",
        engine: None,
    })
}

/// The loss words (`mistakes` in the data file) through `qipu search --mistakes --json` and
/// `GET /api/mistakes` over generated analysed games: the same words accepted (those the
/// library reads), the same moves in the same order, the same refusals with the library's
/// message (the server's 400 naming `mistakes`).
#[test]
fn every_loss_word_means_the_same_to_the_cli_and_the_server() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vocabulary.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let o = &v["mistakes"];
    let words = |k: &str| -> Vec<String> {
        o[k].as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect()
    };
    let (cli_flag, http) = (o["cli"].as_str().unwrap(), o["http"].as_str().unwrap());

    let scratch = common::Scratch::new("vocabulary-losses");
    let games = testdata::analysed::games(60, &mut testdata::Rng::new(6353));
    for (g, game) in games.iter().enumerate() {
        scratch.write(&format!("d/g{g:03}.sgf"), game.sgf.as_bytes());
    }
    let dir = scratch.0.join("index");
    let opts = qipu::BuildOptions {
        evals: Some(read_evals),
        ..qipu::BuildOptions::default()
    };
    qipu::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
    let serving = common::Serving::start(&[&dir]);

    let cli = |word: &str| -> Reply {
        let flag = format!("{cli_flag}={word}");
        let index = dir.display().to_string();
        let out = common::qipu(&["search", "--json", "--index", &index, &flag]);
        match out.status.code() {
            Some(0 | 1) => {
                let mut moves = Vec::new();
                let mut total = None;
                for line in String::from_utf8(out.stdout).unwrap().lines() {
                    let v: Value = serde_json::from_str(line).unwrap();
                    match v["type"].as_str() {
                        Some("mistake") => moves.push((
                            v["game"].as_u64().unwrap().to_string(),
                            v["move_number"].as_u64().unwrap(),
                        )),
                        Some("summary") => total = v["mistakes"].as_u64(),
                        _ => {}
                    }
                }
                let total = total.expect("a summary line");
                Reply::Answer(moves, total, 0)
            }
            Some(2) => Reply::Refused(String::from_utf8(out.stderr).unwrap()),
            c => panic!("{flag}: exit {c:?}"),
        }
    };
    let server = |word: &str| -> Reply {
        let target = format!("/api/mistakes?limit=10000&{http}={}", encode(word));
        let reply = common::get(&serving.addr, &target, "application/json");
        let v: Value = serde_json::from_str(reply.body.lines().next().unwrap()).unwrap();
        match reply.status() {
            200 => Reply::Answer(
                v["hits"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| {
                        (
                            h["game"].as_u64().unwrap().to_string(),
                            h["move_number"].as_u64().unwrap(),
                        )
                    })
                    .collect(),
                v["total"].as_u64().unwrap(),
                0,
            ),
            400 => {
                assert_eq!(v["param"], http, "{target}: {v}");
                Reply::Refused(v["error"].as_str().unwrap().to_string())
            }
            status => panic!("{target}: {status} {v}"),
        }
    };

    let mut answers = BTreeSet::new();
    let accepted = words("accepted");
    let refused = words("refused");
    for (word, should) in accepted
        .iter()
        .map(|w| (w, true))
        .chain(refused.iter().map(|w| (w, false)))
    {
        assert_eq!(
            word.parse::<qipu::LossThreshold>().is_ok(),
            should,
            "the library and the file disagree on {word:?}"
        );
        let (by_cli, by_server) = (cli(word), server(word));
        assert_eq!(by_cli.accepted(), should, "{word:?}: {by_cli:?}");
        assert_eq!(by_server.accepted(), should, "{word:?}: {by_server:?}");
        match (&by_cli, &by_server) {
            (Reply::Refused(said), Reply::Refused(message)) => {
                assert!(said.contains(message.as_str()), "{said:?} / {message:?}");
                assert!(said.contains(cli_flag), "{said}");
            }
            _ => assert_eq!(by_cli, by_server, "{word:?}"),
        }
        if let Reply::Answer(moves, ..) = by_cli {
            answers.insert(moves);
        }
    }
    // The words do choose.
    assert!(answers.len() > 3, "every loss word answers alike");
}
