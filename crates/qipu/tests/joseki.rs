//! Move sequences as a player means them, on real joseki from `fox-pro`: every hit of the 3-3
//! invasion under a 4-4 stone has it played as a joseki — its moves in order, no other move in
//! its area between them, from its second move to its last within the span — and every game
//! that played it so is a hit; games where the same moves came scattered over the game are hits
//! only with `any_gap`. What a hit should be is computed here from the records' main lines, as
//! `qipu-inputs` and `qipu-sgf` read them, not from the index, and by another road than the
//! search takes: the sequence must be consecutive among the game's moves in its area.
//!
//! Without the shared data these tests say so and pass, unless `QIPU_REQUIRE_DATASETS=1`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use qipu::{build, BuildOptions, Color, Index, Query};
use sgf::Records;

/// A move on the board: who, and which point (column, row).
type Move = (Color, (u8, u8));

/// A game as the test reads it: its name and main line (19×19 games only).
struct Game {
    name: (String, u32),
    winner: u8,
    moves: Vec<(Color, Option<(u8, u8)>)>,
}

fn read_games(data: &std::path::Path) -> Vec<Game> {
    let mut games = Vec::new();
    for source in inputs::discover(&[data.to_path_buf()]).unwrap() {
        inputs::read_source(&source, &mut |rec| {
            let records = Records::read(&rec.bytes);
            for i in 0..records.len() {
                let Ok(tree) = records.game(i) else { continue };
                let Ok(moves) = tree.main_line_moves() else {
                    continue;
                };
                if tree.board_size() != (19, 19) {
                    continue;
                }
                let info = sgf::GameInfo::read(&tree);
                let winner = match info.result.as_ref().and_then(|r| r.value).map(|r| r.winner) {
                    Some(sgf::info::Winner::Black) => 1,
                    Some(sgf::info::Winner::White) => 2,
                    _ => 0,
                };
                games.push(Game {
                    name: (rec.name.clone(), i as u32),
                    winner,
                    moves: moves
                        .into_iter()
                        .map(|(c, p)| (c, p.map(|p| (p.x, p.y))))
                        .collect(),
                });
            }
        })
        .unwrap();
    }
    games
}

/// The eight symmetries of the 19×19 board: flip columns, flip rows, then transpose.
fn transform(t: u8, (x, y): (u8, u8)) -> (u8, u8) {
    let x = if t & 1 != 0 { 18 - x } else { x };
    let y = if t & 2 != 0 { 18 - y } else { y };
    if t & 4 != 0 {
        (y, x)
    } else {
        (x, y)
    }
}

fn inverse(t: u8, (x, y): (u8, u8)) -> (u8, u8) {
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let x = if t & 1 != 0 { 18 - x } else { x };
    let y = if t & 2 != 0 { 18 - y } else { y };
    (x, y)
}

fn point(s: &str) -> (u8, u8) {
    let b = s.as_bytes();
    (b[0] - b'a', b[1] - b'a')
}

fn sgf(p: (u8, u8)) -> String {
    format!("{}{}", (b'a' + p.0) as char, (b'a' + p.1) as char)
}

/// Where the sequence (in one orientation) is complete in `g` as a joseki: the game's moves in
/// the sequence's area (the points' rectangle grown by two lines), and among them the sequence
/// as `n` consecutive ones; then from its second move to its last at most `2n + 10` moves of
/// the game. The move numbers (1-based) that complete it.
fn as_joseki(g: &Game, seq: &[Move]) -> Vec<u32> {
    let xs = seq.iter().map(|m| m.1 .0);
    let ys = seq.iter().map(|m| m.1 .1);
    let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
    let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
    let inside = |p: (u8, u8)| {
        (x0.saturating_sub(2)..=(x1 + 2).min(18)).contains(&p.0)
            && (y0.saturating_sub(2)..=(y1 + 2).min(18)).contains(&p.1)
    };
    let local: Vec<(usize, Move)> = g
        .moves
        .iter()
        .enumerate()
        .filter_map(|(i, &(c, p))| p.filter(|&p| inside(p)).map(|p| (i, (c, p))))
        .collect();
    let n = seq.len();
    local
        .windows(n)
        .filter(|w| w.iter().map(|m| m.1).eq(seq.iter().copied()))
        .filter(|w| n < 2 || w[n - 1].0 - w[1].0 < 2 * n + 10)
        .map(|w| w[n - 1].0 as u32 + 1)
        .collect()
}

/// Where the sequence is first complete in `g` with any moves between (its moves in order,
/// anywhere later).
fn anywhere_later(g: &Game, seq: &[Move]) -> Option<u32> {
    let mut j = 0;
    for (i, &(c, p)) in g.moves.iter().enumerate() {
        if Some(seq[j].1) == p && seq[j].0 == c {
            j += 1;
            if j == seq.len() {
                return Some(i as u32 + 1);
            }
        }
    }
    None
}

type Hits = BTreeMap<(String, u32), BTreeSet<u32>>;

fn hits_of(a: &qipu::Answer) -> Hits {
    a.hits
        .iter()
        .map(|h| {
            (
                (h.info.file.clone(), h.info.game_in_file),
                h.moves.iter().copied().collect(),
            )
        })
        .collect()
}

#[test]
fn joseki_hits_are_joseki_as_played() {
    let Some(data) = testdata::dataset("fox-pro") else {
        return;
    };
    let dir = testdata::Scratch::new("joseki-fox");
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir.0, std::slice::from_ref(&data), &opts, |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    let games = read_games(&data);
    assert!(games.len() > 10_000, "{} games read", games.len());

    // The 3-3 invasion under White's 4-4 stone, as fox-pro's players most often play it.
    let text = "W[dd] B[cc] W[dc] B[cd] W[ce] B[be] W[cf]";
    let seq: Vec<Move> = text
        .split_whitespace()
        .map(|m| {
            let c = if m.starts_with('B') {
                Color::Black
            } else {
                Color::White
            };
            (c, point(&m[2..4]))
        })
        .collect();
    let images: Vec<Vec<Move>> = (0..8)
        .map(|t| seq.iter().map(|&(c, p)| (c, transform(t, p))).collect())
        .collect();

    // Expected: each game's completions as a joseki, with the orientations completing at each.
    let mut want: Hits = BTreeMap::new();
    let mut rows: HashMap<(char, String), (u32, u32, u32)> = HashMap::new();
    let mut loose: Hits = BTreeMap::new();
    for g in &games {
        let mut at: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
        for (t, image) in images.iter().enumerate() {
            for k in as_joseki(g, image) {
                at.entry(k).or_default().push(t as u8);
            }
            if let Some(k) = anywhere_later(g, image) {
                loose.entry(g.name.clone()).or_default().insert(k);
            }
        }
        if at.is_empty() {
            continue;
        }
        want.insert(g.name.clone(), at.keys().copied().collect());
        for (k, ts) in at {
            // The move after the sequence, in the query's orientation: the least SGF point
            // among the orientations completing it there.
            let Some(&(c, p)) = g.moves.get(k as usize) else {
                continue;
            };
            let back = p.map_or(String::new(), |p| {
                ts.iter().map(|&t| sgf(inverse(t, p))).min().unwrap()
            });
            let r = rows.entry((c.letter(), back)).or_default();
            r.0 += 1;
            r.1 += u32::from(g.winner == 1);
            r.2 += u32::from(g.winner == 2);
        }
    }
    assert!(
        want.len() > 200,
        "fox-pro plays this joseki: {}",
        want.len()
    );

    let query = Query::moves(text, 19).unwrap().with_copies(true);
    let a = index.search(&query).unwrap();
    assert_eq!(hits_of(&a), want, "hits played as a joseki");
    let got: HashMap<(char, String), (u32, u32, u32)> = a
        .continuations
        .iter()
        .map(|c| {
            (
                (
                    c.color.letter(),
                    c.point.map_or(String::new(), |p| p.sgf_string()),
                ),
                (c.count, c.black_wins, c.white_wins),
            )
        })
        .collect();
    assert_eq!(got, rows, "the moves after the joseki");
    assert!(!a.continuations.is_empty());

    // With any gap: the old reading, the moves anywhere later. Every joseki game is a hit, and
    // so are games where the same moves came scattered: some other move in the area between,
    // or the moves spread past the span.
    let any_gap = index.search(&query.clone().any_gap(true)).unwrap();
    let loose_hits = hits_of(&any_gap);
    assert_eq!(
        loose_hits, loose,
        "any gap: the moves in order anywhere later"
    );
    let scattered: Vec<&(String, u32)> = loose_hits
        .keys()
        .filter(|name| !want.contains_key(*name))
        .collect();
    assert!(
        !scattered.is_empty(),
        "fox-pro has games with the moves scattered"
    );
    for name in want.keys() {
        assert!(
            loose_hits.contains_key(name),
            "{name:?} is a hit with any gap"
        );
    }
    // A scattered game is a hit by the moves, and no orientation has them as a joseki.
    let by_name: HashMap<&(String, u32), &Game> = games.iter().map(|g| (&g.name, g)).collect();
    for name in &scattered {
        let g = by_name[name];
        assert!(images.iter().all(|im| as_joseki(g, im).is_empty()));
    }

    // As a set: every in-order hit is one, completing at the same move or earlier.
    let as_set = hits_of(&index.search(&query.clone().any_order(true)).unwrap());
    for (name, ks) in &want {
        let set_ks = as_set
            .get(name)
            .expect("an in-order joseki is one as a set too");
        assert!(ks.iter().all(|k| set_ks.contains(k)), "{name:?}");
    }
}
