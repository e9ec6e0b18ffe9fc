//! Mistakes and players through the HTTP API, over generated analysed games
//! (`testdata::analysed`) on a server on an ephemeral loopback port: every request's rows are
//! the library's for the same question (the words read by the library, the narrowing combined),
//! and a bad word is a 400 naming its parameter with the library's message.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use common::{get, start, Running};
use qipu::{Index, LossThreshold, Mistakes, PlayerOptions, Query, Sort};
use serde_json::Value;
use serve::Config;
use testdata::analysed::{self, Game, ALIAS_FILE, PLAYERS};
use testdata::{Rng, Scratch};

const JSON: &str = "application/json";

struct Analysed {
    _scratch: Scratch,
    dir: PathBuf,
    games: Vec<Game>,
    server: Running,
    index: Index,
}

fn analysed() -> &'static Analysed {
    static IT: OnceLock<Analysed> = OnceLock::new();
    IT.get_or_init(|| {
        let scratch = Scratch::new("serve-mistakes");
        let games = analysed::games(120, &mut Rng::new(4153));
        for (g, game) in games.iter().enumerate() {
            scratch.write(&format!("d/g{g:03}.sgf"), game.sgf.as_bytes());
        }
        let aliases = scratch.write("aliases.tsv", ALIAS_FILE.as_bytes());
        let dir = scratch.0.join("index");
        let opts = qipu::BuildOptions {
            segment_games: 50,
            evals: Some(common::comment_evals),
            aliases: Some(aliases),
            ..qipu::BuildOptions::default()
        };
        qipu::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
        let server = start(&dir, Config::default());
        let index = Index::open(&dir).unwrap();
        Analysed {
            _scratch: scratch,
            dir,
            games,
            server,
            index,
        }
    })
}

/// The library's answer to `query` as JSON, without its timing.
fn library(query: &Query) -> Value {
    let a = analysed();
    let mut v = as_read(&a.index.mistakes(query).unwrap());
    v.as_object_mut().unwrap().remove("search_ms");
    v
}

/// `value` written as JSON and read back, as a client reads the server's answer (the reader's
/// last digit of a float may differ from the value's own).
fn as_read(value: &impl serde::Serialize) -> Value {
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

fn served(params: &[(&str, &str)]) -> Value {
    let a = analysed();
    let reply = get(&a.server.base, "/api/mistakes", params, JSON);
    assert_eq!(reply.status, 200, "{params:?}: {}", reply.body);
    let mut v = reply.json();
    v.as_object_mut().unwrap().remove("search_ms");
    v
}

fn mistakes(word: &str) -> Mistakes {
    Mistakes::new(word.parse::<LossThreshold>().unwrap()).unwrap()
}

/// The first point of game 0 (its first move Black's, on the board), as SGF.
fn first_point(games: &[Game]) -> String {
    let at = games[0].sgf.find(";B[").unwrap() + 3;
    games[0].sgf[at..at + 2].to_string()
}

#[test]
fn every_request_answers_the_librarys_rows() {
    let a = analysed();
    let point = first_point(&a.games);
    let against = format!("white:\"{}\"", PLAYERS[1]);
    // A black stone at that point as a pattern, and Black's move there as a sequence: the
    // moves their rows count.
    let b = point.as_bytes();
    let (column, row) = (b[0] - b'a', b[1] - b'a');
    // The diagram's centre on the point: its region is the 3×3 around it.
    let place = format!("{},{}", column - 1, row - 1);
    let sequence = format!("B[{point}]");
    // The request, and the library's question without its page (offset 2 and limit 7 for the
    // request that asks them, else 0 and the server's default of 100).
    type Case<'a> = (Vec<(&'a str, &'a str)>, Query);
    let cases: Vec<Case> = vec![
        (vec![("mistakes", "10%")], Query::mistakes(mistakes("10%"))),
        (
            vec![("mistakes", "3pt"), ("limit", "7"), ("offset", "2")],
            Query::mistakes(mistakes("3pt")),
        ),
        (
            vec![("mistakes", "10%,3pt"), ("player", PLAYERS[2])],
            Query::mistakes(mistakes("10%,3pt").by(PLAYERS[2])),
        ),
        (
            vec![
                ("mistakes", "5%"),
                ("since", "2002"),
                ("until", "2003"),
                ("sort", "newest"),
            ],
            Query::mistakes(mistakes("5%"))
                .since("2002")
                .unwrap()
                .until("2003")
                .unwrap()
                .sort(Sort::Newest),
        ),
        (
            vec![
                ("mistakes", "2pt"),
                ("query", &against),
                ("player", PLAYERS[0]),
            ],
            Query::mistakes(mistakes("2pt").by(PLAYERS[0])).filter(against.as_str()),
        ),
        (
            vec![("mistakes", "0%"), ("black", &point), ("to_move", "W")],
            Query::points(19, &point, "")
                .unwrap()
                .to_move(Some(qipu::Color::White))
                .and_mistakes(mistakes("0%")),
        ),
        (
            vec![
                ("mistakes", "0%"),
                ("diagram", ".../.X./..."),
                ("place", &place),
            ],
            Query::pattern("...\n.X.\n...")
                .unwrap()
                .place(column - 1, row - 1)
                .and_mistakes(mistakes("0%")),
        ),
        (
            vec![
                ("mistakes", "0pt"),
                ("moves", &sequence),
                ("any_gap", "true"),
            ],
            Query::moves(&sequence, 19)
                .unwrap()
                .any_gap(true)
                .and_mistakes(mistakes("0pt")),
        ),
    ];
    for (params, query) in cases {
        let got = served(&params);
        let paged = params.iter().any(|(k, _)| *k == "offset");
        let (offset, limit) = if paged { (2, 7) } else { (0, 100) };
        let mut want = library(&query.offset(offset).limit(Some(limit)));
        want["offset"] = Value::from(offset);
        want["limit"] = Value::from(limit);
        assert_eq!(got, want, "{params:?}");
        // The case finds something to compare.
        assert!(got["total"].as_u64().unwrap() > 0, "{params:?}: {got}");
    }
}

#[test]
fn a_bad_word_is_a_400_naming_its_parameter_with_the_librarys_message() {
    let a = analysed();
    for word in ["10", "pt", "110%", "10%,20%", ""] {
        let reply = get(&a.server.base, "/api/mistakes", &[("mistakes", word)], JSON);
        assert_eq!(reply.status, 400, "{word:?}: {}", reply.body);
        let body = reply.json();
        assert_eq!(body["param"], "mistakes", "{word:?}");
        let refusal = word.parse::<LossThreshold>().unwrap_err().to_string();
        assert_eq!(body["error"], refusal.as_str(), "{word:?}");
    }
    let missing = get(
        &a.server.base,
        "/api/mistakes",
        &[("query", "winner:B")],
        JSON,
    );
    assert_eq!(missing.status, 400, "{}", missing.body);
    assert_eq!(missing.json()["param"], "mistakes");
    // A bad pattern is refused naming its parameter, as /api/pattern refuses it.
    let pattern = get(
        &a.server.base,
        "/api/mistakes",
        &[("mistakes", "10%"), ("diagram", "XZ.")],
        JSON,
    );
    assert_eq!(pattern.status, 400);
    assert_eq!(pattern.json()["param"], "diagram");
    // A bad word on the player's endpoint too, and a sort mistakes are not sorted by.
    let player = get(
        &a.server.base,
        "/api/player",
        &[("name", PLAYERS[0]), ("mistakes", "lots")],
        JSON,
    );
    assert_eq!(player.status, 400);
    assert_eq!(player.json()["param"], "mistakes");
    let sort = get(
        &a.server.base,
        "/api/mistakes",
        &[("mistakes", "10%"), ("sort", "komi")],
        JSON,
    );
    assert_eq!(sort.status, 400, "{}", sort.body);
}

#[test]
fn a_players_figures_are_the_librarys() {
    let a = analysed();
    for name in PLAYERS {
        for (params, mistakes) in [
            (vec![("name", name)], qipu::DEFAULT_PLAYER_MISTAKE),
            (
                vec![("name", name), ("mistakes", "3pt")],
                "3pt".parse().unwrap(),
            ),
        ] {
            let reply = get(&a.server.base, "/api/player", &params, JSON);
            assert_eq!(reply.status, 200, "{}", reply.body);
            let want = a.index.player(name, &PlayerOptions { mistakes }).unwrap();
            assert_eq!(reply.json(), as_read(&want));
            assert!(want.total.moves > 0);
        }
    }
    let missing = get(&a.server.base, "/api/player", &[], JSON);
    assert_eq!(missing.status, 400);
    assert_eq!(missing.json()["param"], "name");
    assert!(a.dir.is_dir());
}
