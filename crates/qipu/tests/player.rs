//! A player judged by the engine through the library's face: generated analysed games
//! (`testdata::analysed`: four players, one of them also under an alias, dated and undated,
//! some games not analysed) indexed in two shards, and each player's figures by year computed
//! here from the numbers the test wrote, against `Index::player` and `Shards::player`, at the
//! default threshold and at others.

use std::collections::BTreeMap;

use qipu::{
    build, BuildOptions, Index, LossThreshold, PlayerOptions, PlayerStats, PlayerYear, Shards,
    DEFAULT_PLAYER_MISTAKE,
};
use testdata::analysed::{self, Game, ALIAS, ALIAS_FILE, PLAYERS};
use testdata::{Rng, Scratch};

mod common;

struct Corpus {
    _scratch: Scratch,
    /// The games in one index.
    one: Index,
    /// The same games in two indexes, the first 70 and the rest.
    two: Shards,
    games: Vec<Game>,
}

const GAMES: usize = 150;

fn corpus() -> &'static Corpus {
    static CORPUS: std::sync::OnceLock<Corpus> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| {
        let scratch = Scratch::new("face-player");
        let games = analysed::games(GAMES, &mut Rng::new(2053));
        for (g, game) in games.iter().enumerate() {
            let part = if g < 70 { "a" } else { "b" };
            scratch.write(&format!("d/{part}/g{g:03}.sgf"), game.sgf.as_bytes());
        }
        let aliases = scratch.write("aliases.tsv", ALIAS_FILE.as_bytes());
        let opts = BuildOptions {
            segment_games: 40,
            evals: Some(common::comment_evals),
            aliases: Some(aliases),
            ..BuildOptions::default()
        };
        let dir = |name: &str| scratch.0.join(name);
        build(dir("one"), &[dir("d")], &opts, |_| {}).unwrap();
        build(dir("a"), &[dir("d/a")], &opts, |_| {}).unwrap();
        build(dir("b"), &[dir("d/b")], &opts, |_| {}).unwrap();
        let one = Index::open(dir("one")).unwrap();
        let two = Shards::open(&[dir("a"), dir("b")]).unwrap();
        assert_eq!(one.len() as usize, GAMES);
        Corpus {
            _scratch: scratch,
            one,
            two,
            games,
        }
    })
}

/// The figures of player `p` computed from the generated numbers, as the rules say.
fn brute_force(games: &[Game], p: usize, mistake: LossThreshold) -> (u64, Vec<PlayerYear>) {
    let win_floor = mistake.win.map(|w| (w * 10_000.0).round() as i32);
    let lead_floor = mistake.points.map(|x| (x * 10.0).round() as i32);
    #[derive(Default, Clone, Copy)]
    struct S {
        games: u64,
        moves: u64,
        win: i64,
        score_moves: u64,
        lead: i64,
        mistakes: u64,
    }
    let his_games = games
        .iter()
        .filter(|g| g.black == p || g.white == p)
        .count() as u64;
    // Undated last: its key sorts after every year.
    let mut by_year: BTreeMap<u32, S> = BTreeMap::new();
    for g in games.iter().filter(|g| g.black == p || g.white == p) {
        if g.evals.iter().any(Option::is_some) {
            by_year.entry(g.year.unwrap_or(u32::MAX)).or_default().games += 1;
        }
    }
    for l in analysed::losses(games) {
        let g = &games[l.game];
        let his = if l.black { g.black == p } else { g.white == p };
        if !his {
            continue;
        }
        let s = by_year.entry(g.year.unwrap_or(u32::MAX)).or_default();
        s.moves += 1;
        s.win += i64::from(l.win.max(0));
        if let Some(lead) = l.lead {
            s.score_moves += 1;
            s.lead += i64::from(lead.max(0));
        }
        let over = win_floor.is_none_or(|w| l.win >= w)
            && lead_floor.is_none_or(|t| l.lead.is_some_and(|x| x >= t));
        s.mistakes += u64::from(over);
    }
    let row = |year: Option<u16>, s: &S| PlayerYear {
        year,
        games: s.games,
        moves: s.moves,
        mean_win_loss: (s.moves > 0).then(|| s.win as f64 / 10_000.0 / s.moves as f64),
        score_moves: s.score_moves,
        mean_score_loss: (s.score_moves > 0).then(|| s.lead as f64 / 10.0 / s.score_moves as f64),
        mistakes: s.mistakes,
        mistakes_per_game: (s.games > 0).then(|| s.mistakes as f64 / s.games as f64),
    };
    let mut rows: Vec<PlayerYear> = by_year
        .iter()
        .map(|(&y, s)| row((y != u32::MAX).then_some(y as u16), s))
        .collect();
    let mut total = S::default();
    for s in by_year.values() {
        total.games += s.games;
        total.moves += s.moves;
        total.win += s.win;
        total.score_moves += s.score_moves;
        total.lead += s.lead;
        total.mistakes += s.mistakes;
    }
    rows.push(row(None, &total));
    (his_games, rows)
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() < 1e-9,
        (a, b) => a.is_none() && b.is_none(),
    }
}

fn same(got: &PlayerYear, want: &PlayerYear) -> bool {
    got.year == want.year
        && (got.games, got.moves, got.score_moves, got.mistakes)
            == (want.games, want.moves, want.score_moves, want.mistakes)
        && close(got.mean_win_loss, want.mean_win_loss)
        && close(got.mean_score_loss, want.mean_score_loss)
        && close(got.mistakes_per_game, want.mistakes_per_game)
}

fn check(stats: &PlayerStats, games: &[Game], p: usize, mistake: LossThreshold, what: &str) {
    let (his_games, mut want) = brute_force(games, p, mistake);
    let total = want.pop().unwrap();
    assert_eq!(stats.mistake, mistake, "{what}");
    assert_eq!(stats.games, his_games, "{what}");
    assert_eq!(stats.years.len(), want.len(), "{what}: {stats:#?}");
    for (got, want) in stats.years.iter().zip(&want) {
        assert!(same(got, want), "{what}: {got:?} != {want:?}");
    }
    assert!(
        same(&stats.total, &total),
        "{what}: {:?} != {total:?}",
        stats.total
    );
}

#[test]
fn each_players_figures_by_year_are_those_of_his_own_moves() {
    let c = corpus();
    let thresholds = [
        DEFAULT_PLAYER_MISTAKE,
        "3pt".parse::<LossThreshold>().unwrap(),
        "5%,2pt".parse().unwrap(),
        "0%".parse().unwrap(),
    ];
    for (p, name) in PLAYERS.iter().enumerate() {
        for &mistakes in &thresholds {
            let options = PlayerOptions { mistakes };
            let what = format!("{name} at {mistakes}");
            let one = c.one.player(name, &options).unwrap();
            check(&one, &c.games, p, mistakes, &what);
            assert_eq!(one.player, *name);
            // Two shards say what one index says.
            let two = c.two.player(name, &options).unwrap();
            check(&two, &c.games, p, mistakes, &format!("{what}, two shards"));
        }
    }
    // The test has what it means to test: undated rows, years with mistakes, a player's
    // games not analysed.
    let stats = c.one.player(PLAYERS[0], &PlayerOptions::default()).unwrap();
    assert!(stats.years.last().unwrap().year.is_none(), "{stats:#?}");
    assert!(stats.years.len() >= 4, "{stats:#?}");
    assert!(stats.total.mistakes > 0 && stats.total.games < stats.games);
}

#[test]
fn a_player_is_found_under_his_alias_and_an_unknown_name_is_zeros() {
    let c = corpus();
    let options = PlayerOptions::default();
    let by_name = c.one.player(PLAYERS[2], &options).unwrap();
    let by_alias = c.one.player(ALIAS, &options).unwrap();
    // The alias's games were written under it and are his all the same.
    assert!(c.games.iter().any(|g| g.sgf.contains(ALIAS)));
    assert_eq!(by_alias.years, by_name.years);
    assert_eq!(by_alias.total, by_name.total);
    let nobody = c.one.player("No Such Player", &options).unwrap();
    assert_eq!((nobody.games, nobody.years.len()), (0, 0));
    assert_eq!(nobody.total.moves, 0);
    assert_eq!(nobody.total.mean_win_loss, None);
    // A quote in a name is read as a space (the name stays one phrase), not a broken query.
    let quoted = c.one.player("Qa \"Zed", &options).unwrap();
    let plain = c.one.player("Qa Zed", &options).unwrap();
    assert_eq!(quoted.total, plain.total);
}

#[test]
fn the_figures_serialise_with_the_threshold_as_its_word() {
    let c = corpus();
    let options = PlayerOptions {
        mistakes: "10%,3pt".parse().unwrap(),
    };
    let stats = c.one.player(PLAYERS[1], &options).unwrap();
    let json = serde_json::to_value(&stats).unwrap();
    assert_eq!(json["mistake"], "10%,3pt");
    assert_eq!(json["player"], PLAYERS[1]);
    assert_eq!(json["total"]["year"], serde_json::Value::Null);
    assert_eq!(
        json["years"].as_array().unwrap().len(),
        stats.years.len(),
        "{json}"
    );
}
