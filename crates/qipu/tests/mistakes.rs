//! Mistakes through the library's face: generated analysed games (players on both sides, dates,
//! several segments, some games without evaluations) indexed, then every move's loss computed
//! here from the generated numbers and filtered as the rules say, against `Index::mistakes`:
//! thresholds over and under the lists' floors, a player's own moves, dates and a metadata
//! query, a position's next moves, sorts, offset and limit; and what each hit says.

use qipu::{
    build, BuildOptions, Color, Index, LossThreshold, Mistakes, Point, Query, Shards, Sort,
};
use testdata::{Rng, Scratch};

mod common;

const PLAYERS: [&str; 4] = ["Qa Zed", "Ro Vex", "Su Jin", "Tu Fox"];

type Numbers = Option<(i32, Option<i32>)>;

struct Game {
    black: usize,
    white: usize,
    year: u32,
    moves: Vec<(Color, Option<(u8, u8)>)>,
    evals: Vec<Numbers>,
}

fn generate(n: usize, rng: &mut Rng) -> Vec<(Game, String)> {
    (0..n)
        .map(|g| {
            let analysed = g % 5 != 4;
            let (black, white) = (g % 4, (g + 1 + g / 4) % 4);
            let white = if white == black {
                (white + 1) % 4
            } else {
                white
            };
            let year = 2000 + (g as u32 * 7) % 9;
            let mut win = 5000i32;
            let mut eval = |rng: &mut Rng| -> Numbers {
                if !analysed || rng.below(12) == 0 {
                    return None;
                }
                let step = if rng.below(5) == 0 { 2500 } else { 500 };
                win = (win + rng.below(2 * step + 1) as i32 - step as i32).clamp(0, 10_000);
                let lead =
                    (rng.below(6) != 0).then(|| (win - 5000) / 25 + rng.below(31) as i32 - 15);
                Some((win, lead))
            };
            let comment = |e: Numbers| match e {
                None => String::new(),
                Some((w, l)) => format!("C[{w} {}]", l.map_or("-".into(), |l| l.to_string())),
            };
            let mut evals = vec![eval(rng)];
            let mut text = format!(
                "(;GM[1]SZ[19]PB[{}]PW[{}]DT[{year}-03-01]{}",
                PLAYERS[black],
                PLAYERS[white],
                comment(evals[0])
            );
            let mut moves = Vec::new();
            let mut used = Vec::new();
            for k in 0..8 + rng.below(30) as usize {
                let color = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let point = match rng.below(20) {
                    0 => None,
                    _ => loop {
                        let p = (rng.below(19) as u8, rng.below(19) as u8);
                        if !used.contains(&p) {
                            used.push(p);
                            break Some(p);
                        }
                    },
                };
                let e = eval(rng);
                evals.push(e);
                let value = point.map_or(String::new(), |(x, y)| {
                    format!("{}{}", (b'a' + x) as char, (b'a' + y) as char)
                });
                let c = if color == Color::Black { 'B' } else { 'W' };
                text.push_str(&format!(";{c}[{value}]{}", comment(e)));
                moves.push((color, point));
            }
            text.push_str(")\n");
            (
                Game {
                    black,
                    white,
                    year,
                    moves,
                    evals,
                },
                text,
            )
        })
        .collect()
}

/// A move's loss computed here: (game, move, win lost, points lost).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lost {
    game: u32,
    k: u32,
    win: i32,
    lead: Option<i32>,
}

fn losses(games: &[Game]) -> Vec<Lost> {
    let mut out = Vec::new();
    for (g, game) in games.iter().enumerate() {
        for k in 1..game.evals.len() {
            let (Some(before), Some(after)) = (game.evals[k - 1], game.evals[k]) else {
                continue;
            };
            let sign = if game.moves[k - 1].0 == Color::Black {
                1
            } else {
                -1
            };
            out.push(Lost {
                game: g as u32,
                k: k as u32,
                win: sign * (before.0 - after.0),
                lead: before.1.zip(after.1).map(|(b, a)| sign * (b - a)),
            });
        }
    }
    out
}

struct Corpus {
    _scratch: Scratch,
    index: Index,
    games: Vec<Game>,
}

fn corpus() -> &'static Corpus {
    static CORPUS: std::sync::OnceLock<Corpus> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| {
        let scratch = Scratch::new("face-mistakes");
        let mut rng = Rng::new(1953);
        let generated = generate(120, &mut rng);
        for (g, (_, text)) in generated.iter().enumerate() {
            scratch.write(&format!("d/g{g:03}.sgf"), text.as_bytes());
        }
        let dir = scratch.0.join("index");
        let opts = BuildOptions {
            segment_games: 25,
            evals: Some(common::comment_evals),
            ..BuildOptions::default()
        };
        build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
        let index = Index::open(&dir).unwrap();
        Corpus {
            _scratch: scratch,
            index,
            games: generated.into_iter().map(|(g, _)| g).collect(),
        }
    })
}

/// Whether a game reached the position searched after k moves.
type At = dyn Fn(&Game, u32) -> bool;

/// The expected hits, in the answer's order: by the loss asked (win when given), ties by game
/// and move; by date first when asked.
fn expected(
    games: &[Game],
    loss: LossThreshold,
    keep: &dyn Fn(&Game, Color) -> bool,
    from_positions: Option<&At>,
    sort: Sort,
) -> Vec<Lost> {
    let win = loss.win.map(|w| (w * 10_000.0).round() as i32);
    let lead = loss.points.map(|p| (p * 10.0).round() as i32);
    let mut want: Vec<Lost> = losses(games)
        .into_iter()
        .filter(|l| win.is_none_or(|w| l.win >= w))
        .filter(|l| lead.is_none_or(|t| l.lead.is_some_and(|x| x >= t)))
        .filter(|l| {
            let game = &games[l.game as usize];
            keep(game, game.moves[l.k as usize - 1].0)
        })
        .filter(|l| from_positions.is_none_or(|at| at(&games[l.game as usize], l.k - 1)))
        .collect();
    let key = |l: &Lost| if win.is_some() { Some(l.win) } else { l.lead };
    let year = |l: &Lost| games[l.game as usize].year;
    want.sort_by(|a, b| {
        let date = match sort {
            Sort::Newest => year(b).cmp(&year(a)),
            Sort::Oldest => year(a).cmp(&year(b)),
            _ => std::cmp::Ordering::Equal,
        };
        date.then(key(b).cmp(&key(a)))
            .then((a.game, a.k).cmp(&(b.game, b.k)))
    });
    want
}

fn check(query: Query, want: &[Lost], what: &str) {
    let c = corpus();
    let answer = c.index.mistakes(&query).unwrap();
    assert_eq!(answer.total as usize, want.len(), "{what}");
    let got: Vec<(u32, u32)> = answer
        .hits
        .iter()
        .map(|h| (h.game, h.move_number))
        .collect();
    let all: Vec<(u32, u32)> = want.iter().map(|l| (l.game, l.k)).collect();
    let (offset, limit) = (3, 7);
    assert_eq!(got[..], all[..], "{what}");
    // Paged as any answer.
    let paged = c
        .index
        .mistakes(&query.offset(offset).limit(Some(limit)))
        .unwrap();
    let end = (offset + limit).min(all.len());
    let paged: Vec<(u32, u32)> = paged.hits.iter().map(|h| (h.game, h.move_number)).collect();
    assert_eq!(paged[..], all[offset.min(end)..end], "{what} paged");
    // What each hit says.
    for (h, l) in answer.hits.iter().zip(want) {
        let game = &c.games[l.game as usize];
        let (color, point) = game.moves[l.k as usize - 1];
        assert_eq!(h.color, color);
        assert_eq!(h.point, point.map(|(x, y)| Point::new(x, y)));
        assert!((h.loss.win - f64::from(l.win) / 1e4).abs() < 1e-9, "{h:?}");
        assert_eq!(h.loss.points.map(|p| (p * 10.0).round() as i32), l.lead);
        let (before, after) = (
            game.evals[l.k as usize - 1].unwrap(),
            game.evals[l.k as usize].unwrap(),
        );
        assert!((h.before.black_win - f64::from(before.0) / 1e4).abs() < 1e-9);
        assert!((h.after.black_win - f64::from(after.0) / 1e4).abs() < 1e-9);
        assert_eq!(
            h.after.black_lead.map(|x| (x * 10.0).round() as i32),
            after.1
        );
        assert_eq!(h.info.black.as_deref(), Some(PLAYERS[game.black]));
        assert_eq!(
            h.info.date.as_deref(),
            Some(format!("{}-03-01", game.year).as_str())
        );
    }
}

fn threshold(text: &str) -> LossThreshold {
    text.parse().unwrap()
}

#[test]
fn mistakes_are_the_moves_a_brute_force_finds() {
    let c = corpus();
    assert!(c.index.len() == 120);
    let all = |_: &Game, _: Color| true;
    let mut asked = 0;
    for words in [
        "10%", "3%", "1%", "0%", "2pt", "1pt", "0.5pt", "5%,1.5pt", "1%,4pt",
    ] {
        let loss = threshold(words);
        for sort in [Sort::Indexed, Sort::Newest, Sort::Oldest] {
            let q = Query::mistakes(Mistakes::new(loss).unwrap()).sort(sort);
            let want = expected(&c.games, loss, &all, None, sort);
            assert!(!want.is_empty(), "{words}");
            check(q, &want, &format!("{words} {sort:?}"));
            asked += 1;
        }
        // A player's own moves only: Black's where he is Black, White's where he is White.
        for (p, name) in PLAYERS.iter().enumerate() {
            let q = Query::mistakes(Mistakes::new(loss).unwrap().by(*name));
            let his = |g: &Game, c: Color| match c {
                Color::Black => g.black == p,
                Color::White => g.white == p,
            };
            let want = expected(&c.games, loss, &his, None, Sort::Indexed);
            check(q, &want, &format!("{words} by {name}"));
        }
        // Dates and a metadata query narrow the games.
        let q = Query::mistakes(Mistakes::new(loss).unwrap())
            .since("2003")
            .unwrap()
            .until("2006-02")
            .unwrap()
            .filter(format!("white:\"{}\"", PLAYERS[2]));
        let narrowed = |g: &Game, _: Color| (2003..=2005).contains(&g.year) && g.white == 2;
        check(
            q,
            &expected(&c.games, loss, &narrowed, None, Sort::Indexed),
            &format!("{words} narrowed"),
        );
        // From a position: the move played from each place it was reached (the empty board:
        // the start, and after each pass that opens a game).
        let empty = |g: &Game, k: u32| g.moves[..k as usize].iter().all(|m| m.1.is_none());
        let q = Query::points(19, "", "")
            .unwrap()
            .and_mistakes(Mistakes::new(loss).unwrap());
        check(
            q,
            &expected(&c.games, loss, &all, Some(&empty), Sort::Indexed),
            &format!("{words} from the empty board"),
        );
    }
    assert!(asked > 20);
    // A set of one index answers as the index.
    let set = Shards::from(Index::open(c.index.dir()).unwrap());
    let q = Query::mistakes(Mistakes::new(threshold("3%")).unwrap()).limit(Some(5));
    assert_eq!(
        set.mistakes(&q).unwrap().hits,
        c.index.mistakes(&q).unwrap().hits
    );
}

#[test]
fn a_stopped_search_for_mistakes_answers_stopped() {
    let c = corpus();
    let stopped = qipu::Stop::new();
    stopped.stop();
    let loss = || Mistakes::new(threshold("1%")).unwrap();
    let by_player = Mistakes::new(threshold("1%")).unwrap().by(PLAYERS[1]);
    for q in [
        // The lists' front, every evaluation under the floor, game by game, a position's hits.
        Query::mistakes(Mistakes::new(threshold("5%")).unwrap()),
        Query::mistakes(loss()),
        Query::mistakes(by_player),
        Query::points(19, "", "").unwrap().and_mistakes(loss()),
    ] {
        // Not stopped, it answers.
        assert!(c.index.mistakes(&q).unwrap().total > 0);
        let e = c.index.mistakes(&q.stop_when(stopped.clone())).unwrap_err();
        assert_eq!(e.kind(), qipu::ErrorKind::Stopped, "{e}");
    }
}

#[test]
fn games_without_evaluations_never_hit_and_other_questions_are_refused() {
    let c = corpus();
    let q = Query::mistakes(Mistakes::new(threshold("0%")).unwrap());
    let answer = c.index.mistakes(&q).unwrap();
    assert_eq!(
        answer.analysed_games,
        c.games
            .iter()
            .filter(|g| g.evals.iter().any(Option::is_some))
            .count() as u64
    );
    for h in &answer.hits {
        assert!(h.game % 5 != 4, "game {} has no evaluations", h.game);
    }
    // A sort by rank, a plain search of a mistakes query: refused, not answered wrong.
    assert!(c
        .index
        .mistakes(&q.clone().sort(Sort::Strongest))
        .unwrap_err()
        .is_user_error());
    assert!(c.index.search(&q).unwrap_err().is_user_error());
    assert!(c
        .index
        .mistakes(&Query::metadata("winner:B"))
        .unwrap_err()
        .is_user_error());
}
