//! The explorer with evaluations: a position's continuation rows carry, over the analysed games
//! that played each move, how many they are, Black's mean win probability and lead after the
//! move and the mover's mean loss. Generated games share their first moves (four 4-4 points), so
//! that the early positions are reached by many; most carry the test's evaluation comments
//! (`C[WIN LEAD]`, as `testdata::analysed` writes them), some none, some are exact copies. The
//! test replays who played what from each position itself and sums the numbers it wrote, then
//! compares with the library's rows: scanned, read from pre-aggregated cells (whole and a page
//! at a time), copies counted once and each. An index of the same games built without reading
//! evaluations answers the same rows with no evaluation.

use std::collections::BTreeMap;

use goban::{Color, Point, Position};
use qipu::{build, BuildOptions, Continuation, Index, Query};
use testdata::{Rng, Scratch};

mod common;

/// One position's evaluation: Black's win in 1/10,000 and lead in tenths (where given).
type Numbers = Option<(i32, Option<i32>)>;

struct Game {
    /// The moves, Black first, alternating; no pass.
    moves: Vec<(u8, u8)>,
    /// `evals[k]`: the position after k moves.
    evals: Vec<Numbers>,
    sgf: String,
}

const CORNERS: [(u8, u8); 4] = [(3, 3), (15, 3), (3, 15), (15, 15)];

fn game(g: usize, rng: &mut Rng) -> Game {
    let analysed = g % 4 != 3;
    let mut corners = CORNERS.to_vec();
    let mut moves = Vec::new();
    // The first three moves on the 4-4 points (no capture can happen among them), then moves
    // in the middle of the board.
    for _ in 0..3 {
        moves.push(corners.remove(rng.below(corners.len() as u64) as usize));
    }
    while moves.len() < 8 {
        let p = (6 + rng.below(7) as u8, 6 + rng.below(7) as u8);
        if !moves.contains(&p) {
            moves.push(p);
        }
    }
    let evals: Vec<Numbers> = (0..=moves.len())
        .map(|_| {
            (analysed && rng.below(8) != 0).then(|| {
                let win = rng.below(10_001) as i32;
                (
                    win,
                    (rng.below(4) != 0).then(|| rng.below(401) as i32 - 200),
                )
            })
        })
        .collect();
    let comment = |e: Numbers| match e {
        None => String::new(),
        Some((w, l)) => format!("C[{w} {}]", l.map_or("-".into(), |l| l.to_string())),
    };
    let mut sgf = format!("(;GM[1]SZ[19]PB[B{g}]PW[W{g}]{}", comment(evals[0]));
    for (k, &(x, y)) in moves.iter().enumerate() {
        let c = if k % 2 == 0 { 'B' } else { 'W' };
        let (a, b) = ((b'a' + x) as char, (b'a' + y) as char);
        sgf.push_str(&format!(";{c}[{a}{b}]{}", comment(evals[k + 1])));
    }
    sgf.push_str(")\n");
    Game { moves, evals, sgf }
}

struct Corpus {
    _scratch: Scratch,
    /// Built reading the evaluations, with cells for every position two entries reach.
    analysed: Index,
    /// The same files built without reading them.
    plain: Index,
    /// Each file's game, in the order indexed (file names sort as generated).
    games: Vec<Game>,
}

const GAMES: usize = 160;

fn corpus() -> &'static Corpus {
    static CORPUS: std::sync::OnceLock<Corpus> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| {
        let scratch = Scratch::new("face-explorer-evals");
        let mut rng = Rng::new(53);
        let mut games: Vec<Game> = Vec::new();
        for g in 0..GAMES {
            // Every tenth game is an exact copy of an earlier one (its comments too).
            let next = if g % 10 == 9 {
                let of = &games[rng.below(g as u64) as usize];
                Game {
                    moves: of.moves.clone(),
                    evals: of.evals.clone(),
                    sgf: of.sgf.clone(),
                }
            } else {
                game(g, &mut rng)
            };
            scratch.write(&format!("d/g{g:03}.sgf"), next.sgf.as_bytes());
            games.push(next);
        }
        let opts = |evals| BuildOptions {
            segment_games: 40,
            aggregate_min: 2,
            evals,
            ..BuildOptions::default()
        };
        let dir = |name: &str| scratch.0.join(name);
        build(
            dir("analysed"),
            &[dir("d")],
            &opts(Some(common::comment_evals)),
            |_| {},
        )
        .unwrap();
        build(dir("plain"), &[dir("d")], &opts(None), |_| {}).unwrap();
        let analysed = Index::open(dir("analysed")).unwrap();
        let plain = Index::open(dir("plain")).unwrap();
        assert_eq!(analysed.len() as usize, GAMES);
        Corpus {
            _scratch: scratch,
            analysed,
            plain,
            games,
        }
    })
}

/// What a row should say, summed in the units the test wrote.
#[derive(Debug, Default, PartialEq)]
struct Expected {
    count: u32,
    analysed: u32,
    win_after: i64,
    win_loss: i64,
    led: u32,
    lead_after: i64,
    lead_loss: i64,
}

/// The rows of the position after `moves` (the first moves of some game), replayed from every
/// game: each game whose first `moves.len()` moves put the same stones (no capture among them)
/// counts its next move; its evaluations count when it has both positions' (a lead when both
/// have one). With `each_copy` false a game whose record an earlier game has is left out.
fn expected(
    games: &[Game],
    at: &[(u8, u8)],
    each_copy: bool,
) -> BTreeMap<(Color, Point), Expected> {
    let stones = |moves: &[(u8, u8)]| {
        let mut s: Vec<(bool, (u8, u8))> = moves
            .iter()
            .enumerate()
            .map(|(k, &p)| (k % 2 == 0, p))
            .collect();
        s.sort();
        s
    };
    let want = stones(at);
    let k = at.len();
    let mut rows: BTreeMap<(Color, Point), Expected> = BTreeMap::new();
    for (g, game) in games.iter().enumerate() {
        if !each_copy && games[..g].iter().any(|e| e.sgf == game.sgf) {
            continue;
        }
        if stones(&game.moves[..k]) != want {
            continue;
        }
        let (x, y) = game.moves[k];
        let black = k.is_multiple_of(2);
        let color = if black { Color::Black } else { Color::White };
        let row = rows.entry((color, Point::new(x, y))).or_default();
        row.count += 1;
        let (Some(before), Some(after)) = (game.evals[k], game.evals[k + 1]) else {
            continue;
        };
        let sign = if black { 1 } else { -1 };
        row.analysed += 1;
        row.win_after += i64::from(after.0);
        row.win_loss += i64::from(sign * (before.0 - after.0));
        if let (Some(b), Some(a)) = (before.1, after.1) {
            row.led += 1;
            row.lead_after += i64::from(a);
            row.lead_loss += i64::from(sign * (b - a));
        }
    }
    rows
}

fn position(moves: &[(u8, u8)]) -> Position {
    let mut p = Position::new(19, 19).unwrap();
    for (k, &(x, y)) in moves.iter().enumerate() {
        let c = if k % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        p.set(Point::new(x, y), Some(c));
    }
    p
}

/// Checks the library's rows against the expected ones: counts and sums exactly (the means are
/// the sums over their counts, rounded to a hundredth of the index's unit).
fn check(rows: &[Continuation], want: &BTreeMap<(Color, Point), Expected>, what: &str) {
    let mut got: BTreeMap<(Color, Point), &Continuation> = BTreeMap::new();
    for r in rows {
        got.insert((r.color, r.point.expect("no pass is played")), r);
    }
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>(),
        "{what}: rows"
    );
    let mean = |sum: i64, n: u32, units: f64| (n > 0).then(|| sum as f64 / f64::from(n) / units);
    let close = |a: Option<f64>, b: Option<f64>, tol: f64| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= tol,
        (a, b) => a.is_none() && b.is_none(),
    };
    for (key, e) in want {
        let r = got[key];
        let what = format!("{what}: row {key:?}");
        assert_eq!((r.count, r.analysed), (e.count, e.analysed), "{what}");
        // The means are rounded to a hundredth of the unit: half of it, and floating error.
        let (win, points) = (0.6e-6, 0.6e-3);
        assert!(
            close(r.black_win_after, mean(e.win_after, e.analysed, 1e4), win),
            "{what}: {r:?} {e:?}"
        );
        assert!(
            close(r.win_loss, mean(e.win_loss, e.analysed, 1e4), win),
            "{what}: {r:?} {e:?}"
        );
        assert!(
            close(r.black_lead_after, mean(e.lead_after, e.led, 10.0), points),
            "{what}: {r:?} {e:?}"
        );
        assert!(
            close(r.points_loss, mean(e.lead_loss, e.led, 10.0), points),
            "{what}: {r:?} {e:?}"
        );
    }
}

/// The positions asked: the empty board and the first one to three moves of some games.
fn positions(games: &[Game]) -> Vec<Vec<(u8, u8)>> {
    let mut out = vec![Vec::new()];
    for g in [0, 1, 2, 5, 17] {
        for k in 1..=3 {
            out.push(games[g].moves[..k].to_vec());
        }
    }
    out
}

#[test]
fn position_rows_carry_the_analysed_games_means() {
    let c = corpus();
    let mut analysed_rows = 0;
    for at in positions(&c.games) {
        for each_copy in [false, true] {
            let want = expected(&c.games, &at, each_copy);
            analysed_rows += want.values().filter(|e| e.analysed > 0).count();
            let q = Query::position(position(&at))
                .symmetry(false)
                .with_copies(each_copy);
            let what = format!("after {at:?}, each copy {each_copy}");
            let scanned = c.analysed.search(&q.clone().force_scan(true)).unwrap();
            check(&scanned.continuations, &want, &format!("{what}, scanned"));
            let cells = c.analysed.search(&q).unwrap();
            check(&cells.continuations, &want, &format!("{what}, cells"));
            // A page in game order reads only its hits (and the analysed games) beside the cells.
            let page = c.analysed.search(&q.clone().limit(Some(3))).unwrap();
            check(&page.continuations, &want, &format!("{what}, a page"));
        }
    }
    assert!(
        analysed_rows > 20,
        "the test asks too little: {analysed_rows}"
    );
}

#[test]
fn an_index_without_analysed_games_answers_as_before() {
    let c = corpus();
    for at in positions(&c.games) {
        for limit in [None, Some(3)] {
            let q = Query::position(position(&at)).symmetry(false).limit(limit);
            let plain = c.plain.search(&q).unwrap();
            let analysed = c.analysed.search(&q).unwrap();
            assert!(!plain.continuations.is_empty());
            let stripped: Vec<Continuation> = analysed
                .continuations
                .iter()
                .map(|r| Continuation {
                    analysed: 0,
                    black_win_after: None,
                    black_lead_after: None,
                    win_loss: None,
                    points_loss: None,
                    ..r.clone()
                })
                .collect();
            assert_eq!(plain.continuations, stripped, "after {at:?}");
            assert!(plain.continuations.iter().all(|r| r.analysed == 0));
            assert_eq!(plain.summary, analysed.summary);
        }
    }
}

/// A sequence's row is the first later move inside its area, after tenuki too: its evaluation
/// is that move's own (the position it was played from against the one after), not the move
/// right after the hit. Games open at dd, then play in dd's area (two lines around it) or far
/// from it; the test finds each game's first later move in the area itself.
#[test]
fn a_sequence_row_counts_its_own_moves_evaluation() {
    let scratch = Scratch::new("face-explorer-evals-there");
    let mut rng = Rng::new(5354);
    let mut games = Vec::new();
    for g in 0..80 {
        let mut moves = vec![(3u8, 3u8)];
        while moves.len() < 9 {
            let p = match rng.below(3) {
                0 => (1 + rng.below(5) as u8, 1 + rng.below(5) as u8),
                _ => (10 + rng.below(9) as u8, 10 + rng.below(9) as u8),
            };
            if !moves.contains(&p) {
                moves.push(p);
            }
        }
        let evals: Vec<Numbers> = (0..=moves.len())
            .map(|_| {
                (g % 4 != 3 && rng.below(8) != 0).then(|| {
                    let win = rng.below(10_001) as i32;
                    (
                        win,
                        (rng.below(4) != 0).then(|| rng.below(401) as i32 - 200),
                    )
                })
            })
            .collect();
        let comment = |e: Numbers| match e {
            None => String::new(),
            Some((w, l)) => format!("C[{w} {}]", l.map_or("-".into(), |l| l.to_string())),
        };
        let mut sgf = format!("(;GM[1]SZ[19]PB[B{g}]PW[W{g}]{}", comment(evals[0]));
        for (k, &(x, y)) in moves.iter().enumerate() {
            let c = if k % 2 == 0 { 'B' } else { 'W' };
            let (a, b) = ((b'a' + x) as char, (b'a' + y) as char);
            sgf.push_str(&format!(";{c}[{a}{b}]{}", comment(evals[k + 1])));
        }
        sgf.push_str(")\n");
        scratch.write(&format!("d/g{g:03}.sgf"), sgf.as_bytes());
        games.push(Game { moves, evals, sgf });
    }
    let dir = |name: &str| scratch.0.join(name);
    let opts = BuildOptions {
        evals: Some(common::comment_evals),
        ..BuildOptions::default()
    };
    build(dir("index"), &[dir("d")], &opts, |_| {}).unwrap();
    let index = Index::open(dir("index")).unwrap();
    // dd's area: two lines around it.
    let inside = |&(x, y): &(u8, u8)| (1..=5).contains(&x) && (1..=5).contains(&y);
    let mut want: BTreeMap<(Color, Point), Expected> = BTreeMap::new();
    let mut tenuki: BTreeMap<(Color, Point), u32> = BTreeMap::new();
    for game in &games {
        let Some(j) = (1..game.moves.len()).find(|&j| inside(&game.moves[j])) else {
            continue;
        };
        let black = j.is_multiple_of(2);
        let color = if black { Color::Black } else { Color::White };
        let (x, y) = game.moves[j];
        let key = (color, Point::new(x, y));
        *tenuki.entry(key).or_default() += u32::from(j != 1);
        let row = want.entry(key).or_default();
        row.count += 1;
        let (Some(before), Some(after)) = (game.evals[j], game.evals[j + 1]) else {
            continue;
        };
        let sign = if black { 1 } else { -1 };
        row.analysed += 1;
        row.win_after += i64::from(after.0);
        row.win_loss += i64::from(sign * (before.0 - after.0));
        if let (Some(b), Some(a)) = (before.1, after.1) {
            row.led += 1;
            row.lead_after += i64::from(a);
            row.lead_loss += i64::from(sign * (b - a));
        }
    }
    assert!(
        tenuki.values().sum::<u32>() > 10,
        "the test asks too little"
    );
    let q = Query::moves("B[dd]", 19).unwrap().symmetry(false);
    let answer = index.search(&q).unwrap();
    check(&answer.continuations, &want, "B[dd]");
    for r in &answer.continuations {
        assert_eq!(r.tenuki, tenuki[&(r.color, r.point.unwrap())], "{r:?}");
    }
}
