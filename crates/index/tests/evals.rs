//! Engine evaluations kept in the index: each analysed game's read back as indexed (rounded to
//! the index's units), games without none; the moves that lost at least a threshold, found from
//! the mistakes lists or the evaluations, against a brute force over the generated numbers; a
//! damaged evaluations file refused, naming it. The moves of some games only, read game by
//! game, are those games' moves of the brute force.

use index::evals::{HitOrder, Wanted};
use index::{BuildOptions, Index, LossOrder, MistakeHit, MistakeQuery};
use sgf::{Color, Eval, Evals, GameTree};
use testdata::{Rng, Scratch};

/// The test's own evaluation property: each main-line node's comment `WIN LEAD` (Black's win in
/// 1/10,000 and lead in tenths, `-` for no lead); a record without any is not analysed.
fn read(tree: &GameTree<'_>) -> Option<Evals> {
    let positions: Vec<Option<Eval>> = tree
        .main_line()
        .map(|node| {
            let text = node.get(sgf::ids::C)?.text().to_string();
            let mut words = text.split(' ');
            let win: i32 = words.next()?.parse().ok()?;
            let lead = words.next()?.parse::<i32>().ok();
            Some(Eval {
                win: win as f32 / 10_000.0,
                lead: lead.map(|l| l as f32 / 10.0),
                visits: Some(win as u32),
            })
        })
        .collect();
    positions.iter().any(Option::is_some).then_some(Evals {
        positions,
        program: "test",
        engine: None,
    })
}

/// A position's (Black's win in 1/10,000, lead in tenths), when evaluated.
type Numbers = Option<(i32, Option<i32>)>;

/// A generated game: its moves' colours and, when analysed, each position's (win, lead) in the
/// index's units.
struct Game {
    colors: Vec<Color>,
    evals: Option<Vec<Numbers>>,
}

/// `n` games, each a record of its own.
fn generate(n: usize, rng: &mut Rng) -> (Vec<String>, Vec<Game>) {
    let mut texts = Vec::new();
    let mut games = Vec::new();
    for g in 0..n {
        let mut text = String::new();
        let analysed = g % 4 != 3;
        let len = 5 + rng.below(40) as usize;
        let mut points: Vec<(u8, u8)> = Vec::new();
        let mut colors = Vec::new();
        let mut evals = Vec::new();
        let mut win = 5000i32;
        let mut eval = |rng: &mut Rng| {
            if !analysed || rng.below(10) == 0 {
                return None;
            }
            // Mostly small swings, some large.
            let step = if rng.below(6) == 0 { 3000 } else { 400 };
            win = (win + rng.below(2 * step + 1) as i32 - step as i32).clamp(0, 10_000);
            let lead = (rng.below(5) != 0).then(|| (win - 5000) / 20 + rng.below(21) as i32 - 10);
            Some((win, lead))
        };
        let comment = |e: Numbers| match e {
            None => String::new(),
            Some((w, l)) => format!("C[{w} {}]", l.map_or("-".to_string(), |l| l.to_string())),
        };
        let e = eval(rng);
        evals.push(e);
        text.push_str(&format!(
            "(;GM[1]SZ[19]PB[Black {}]PW[White {}]DT[{}-01-01]{}",
            g % 3,
            g % 5,
            2000 + g % 7,
            comment(e)
        ));
        for k in 0..len {
            let color = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mv = if rng.below(15) == 0 {
                String::new()
            } else {
                loop {
                    let p = (rng.below(19) as u8, rng.below(19) as u8);
                    if !points.contains(&p) {
                        points.push(p);
                        break format!("{}{}", (b'a' + p.0) as char, (b'a' + p.1) as char);
                    }
                }
            };
            let e = eval(rng);
            evals.push(e);
            let c = if color == Color::Black { 'B' } else { 'W' };
            text.push_str(&format!(";{c}[{mv}]{}", comment(e)));
            colors.push(color);
        }
        text.push_str(")\n");
        texts.push(text);
        games.push(Game {
            colors,
            evals: evals.iter().any(Option::is_some).then_some(evals),
        });
    }
    (texts, games)
}

/// Every move's loss computed here: (game, move, Black moved, win lost, points lost).
fn losses(games: &[Game]) -> Vec<(u32, u32, bool, i32, Option<i32>)> {
    let mut out = Vec::new();
    for (g, game) in games.iter().enumerate() {
        let Some(evals) = &game.evals else { continue };
        for k in 1..evals.len() {
            let (Some(before), Some(after)) = (evals[k - 1], evals[k]) else {
                continue;
            };
            let black = game.colors[k - 1] == Color::Black;
            let sign = if black { 1 } else { -1 };
            let lead = match (before.1, after.1) {
                (Some(b), Some(a)) => Some(sign * (b - a)),
                _ => None,
            };
            out.push((g as u32, k as u32, black, sign * (before.0 - after.0), lead));
        }
    }
    out
}

fn build(name: &str) -> (Scratch, std::path::PathBuf, Vec<Game>) {
    let scratch = Scratch::new(name);
    let mut rng = Rng::new(53);
    let (texts, games) = generate(90, &mut rng);
    for (g, text) in texts.iter().enumerate() {
        scratch.write(&format!("d/g{g:03}.sgf"), text.as_bytes());
    }
    let dir = scratch.0.join("index");
    let opts = BuildOptions {
        segment_games: 16,
        evals: Some(read),
        ..BuildOptions::default()
    };
    index::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
    (scratch, dir, games)
}

#[test]
fn analysed_games_keep_their_evaluations_and_others_none() {
    let (_scratch, dir, games) = build("evals-kept");
    let idx = Index::open(&dir).unwrap();
    assert_eq!(idx.len() as usize, games.len());
    assert!(idx.manifest().segments.len() > 3);
    let analysed = games.iter().filter(|g| g.evals.is_some()).count();
    assert_eq!(idx.analysed_games(), analysed);
    for (g, game) in games.iter().enumerate() {
        let got = idx.evals(g as u32);
        let Some(evals) = &game.evals else {
            assert_eq!(got, None, "game {g}");
            continue;
        };
        let got = got.unwrap_or_else(|| panic!("game {g} has no evaluations"));
        let want: Vec<Numbers> = got
            .positions
            .iter()
            .map(|p| {
                p.map(|e| {
                    (
                        (e.win * 10_000.0).round() as i32,
                        e.lead.map(|l| (l * 10.0).round() as i32),
                    )
                })
            })
            .collect();
        assert_eq!(&want, evals, "game {g}");
        let black: Vec<bool> = game.colors.iter().map(|&c| c == Color::Black).collect();
        assert_eq!(got.black_moved[1..], black[..], "game {g}");
        assert_eq!(got.program, "test");
        // Visits come back whole.
        for (p, e) in got.positions.iter().zip(evals) {
            assert_eq!(p.and_then(|p| p.visits), e.map(|e| e.0 as u32));
        }
    }
    // Past the index: nothing.
    assert_eq!(idx.evals(idx.len() + 3), None);
}

#[test]
fn mistakes_are_the_moves_a_brute_force_finds() {
    let (_scratch, dir, games) = build("evals-mistakes");
    let idx = Index::open(&dir).unwrap();
    let all = losses(&games);
    assert!(all.len() > 1000, "{}", all.len());
    // Only Black's moves in games divisible by 3, White's in games divisible by 5: a player
    // named keeps his own moves only.
    let keeps: [&(dyn Fn(u32, bool) -> bool + Sync); 3] = [
        &|_, _| true,
        &|g, black| if black { g % 3 == 0 } else { g % 5 == 0 },
        &|g, _| g == 7,
    ];
    let thresholds = [
        (Some(1000), None),
        (Some(300), None),
        (Some(100), None),
        (Some(-10_000), None),
        (None, Some(30)),
        (None, Some(10)),
        (None, Some(3)),
        (Some(500), Some(20)),
        (Some(100), Some(50)),
        (Some(2000), Some(0)),
        (None, None),
    ];
    let mut some = 0;
    for (t, keep) in keeps.iter().enumerate() {
        for (win, lead) in thresholds {
            for order in [LossOrder::Win, LossOrder::Lead] {
                let q = MistakeQuery { win, lead, order };
                let mut want: Vec<_> = all
                    .iter()
                    .filter(|m| win.is_none_or(|w| m.3 >= w))
                    .filter(|m| lead.is_none_or(|t| m.4.is_some_and(|l| l >= t)))
                    .filter(|m| keep(m.0, m.2))
                    .copied()
                    .collect();
                let key = |m: &(u32, u32, bool, i32, Option<i32>)| match order {
                    LossOrder::Win => Some(m.3),
                    LossOrder::Lead => m.4,
                };
                want.sort_by(|a, b| key(b).cmp(&key(a)).then((a.0, a.1).cmp(&(b.0, b.1))));
                // A caller's own order (as a sort by date is): the last games first.
                let by_game =
                    |a: &MistakeHit, b: &MistakeHit| (b.game, a.lost.k).cmp(&(a.game, b.lost.k));
                let mut want_by_game = want.clone();
                want_by_game.sort_by(|a, b| (b.0, a.1).cmp(&(a.0, b.1)));
                for (by, want) in [(None, &want), (Some(&by_game as HitOrder), &want_by_game)] {
                    for first in [0, 1, 10, 500, usize::MAX] {
                        let wanted = Wanted {
                            q: &q,
                            first,
                            by,
                            stopped: None,
                        };
                        let found = idx.mistakes(wanted, keep);
                        idx.check_intact().unwrap();
                        assert_eq!(found.count as usize, want.len(), "keep {t} {q:?}");
                        let got: Vec<_> = found
                            .hits
                            .iter()
                            .map(|h| (h.game, h.lost.k, h.lost.black, h.lost.win, h.lost.lead))
                            .collect();
                        let n = first.min(want.len());
                        assert_eq!(got, want[..n], "keep {t} {q:?} first {first}");
                        some += usize::from(n > 0);
                        // Read game by game, among some games only: the same moves of those games.
                        let odd: Vec<u32> = (0..idx.len()).filter(|g| g % 2 == 1).collect();
                        let found = idx.mistakes_of(wanted, &odd, keep);
                        idx.check_intact().unwrap();
                        let want_odd: Vec<_> =
                            want.iter().filter(|m| m.0 % 2 == 1).copied().collect();
                        assert_eq!(found.count as usize, want_odd.len(), "odd {t} {q:?}");
                        let got: Vec<_> = found
                            .hits
                            .iter()
                            .map(|h| (h.game, h.lost.k, h.lost.black, h.lost.win, h.lost.lead))
                            .collect();
                        assert_eq!(got, want_odd[..first.min(want_odd.len())], "odd {t} {q:?}");
                    }
                }
            }
        }
    }
    assert!(some > 50, "{some}");
}

#[test]
fn a_stopped_search_for_mistakes_reads_no_more() {
    let (_scratch, dir, _) = build("evals-stopped");
    let idx = Index::open(&dir).unwrap();
    let games: Vec<u32> = (0..idx.len()).collect();
    // Over the floor (the lists' front) and under it (every evaluation), and game by game.
    for win in [300, -10_000] {
        let q = MistakeQuery {
            win: Some(win),
            lead: None,
            order: LossOrder::Win,
        };
        for stop in [false, true] {
            let stopped = move || stop;
            let want = Wanted {
                q: &q,
                first: 10,
                by: None,
                stopped: Some(&stopped),
            };
            let listed = idx.mistakes(want, &|_, _| true).count;
            let by_game = idx.mistakes_of(want, &games, &|_, _| true).count;
            assert_eq!(listed, by_game, "{win}");
            assert_eq!(listed == 0, stop, "{win}: {listed}");
        }
    }
}

#[test]
fn a_damaged_evaluations_file_is_refused_naming_it() {
    for name in ["mistakes.bin", "evals.bin"] {
        let (_scratch, dir, _) = build(&format!("evals-damaged-{name}"));
        let seg = dir.join(&Index::open(&dir).unwrap().manifest().segments[0].dir);
        let path = seg.join(name);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 3;
        bytes[at] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let damage = Index::verify(&dir).unwrap();
        assert!(damage.iter().any(|d| d.path == path), "{damage:?}");
        let idx = Index::open(&dir).unwrap();
        let q = MistakeQuery {
            win: Some(-10_000),
            lead: None,
            order: LossOrder::Win,
        };
        let found = idx.mistakes(
            Wanted {
                q: &q,
                first: 10,
                by: None,
                stopped: None,
            },
            &|_, _| true,
        );
        assert!(found.count > 0);
        let err = idx.check_intact().unwrap_err().to_string();
        assert!(err.contains(name), "{err}");
    }
}
