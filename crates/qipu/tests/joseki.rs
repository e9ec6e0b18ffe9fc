//! Move sequences as a player means them, on real joseki from `fox-pro`: every hit of the 3-3
//! invasion under a 4-4 stone has it played as a joseki — its moves in order, no other move in
//! its area between them, from its second move to its last within the span — and every game
//! that played it so is a hit; games where the same moves came scattered over the game are hits
//! only with `any_gap`. What a hit should be is computed here from the records' main lines, as
//! `qipu-inputs` and `qipu-sgf` read them, not from the index, and by another road than the
//! search takes: the sequence must be consecutive among the game's moves in its area.
//!
//! What came next is computed the same way, by brute force: for each game and each
//! orientation (and, anywhere, each place) that completes a sequence at move k, the first move
//! from the (k+1)-th on inside that placement's area, mapped back into the query's coordinates
//! (anywhere: the sequence's own frame, its points' rectangle with two lines around it), per
//! distinct area at each position.
//!
//! Without the shared data these tests say so and pass, unless `QIPU_REQUIRE_DATASETS=1`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use qipu::{build, BuildOptions, Color, Index, Query};
use sgf::Records;

mod common;
use common::{made_up_evals, made_up_mistakes};

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
fn transform(t: u8, p: (u8, u8)) -> (u8, u8) {
    transform_in(t, p, 19, 19)
}

/// Symmetry `t` of a point of a `w`×`h` frame: flip columns, flip rows, then transpose.
fn transform_in(t: u8, (x, y): (u8, u8), w: u8, h: u8) -> (u8, u8) {
    let x = if t & 1 != 0 { w - 1 - x } else { x };
    let y = if t & 2 != 0 { h - 1 - y } else { y };
    if t & 4 != 0 {
        (y, x)
    } else {
        (x, y)
    }
}

/// The point of a `w`×`h` frame that [`transform_in`] takes to `(x, y)`.
fn inverse_in(t: u8, (x, y): (u8, u8), w: u8, h: u8) -> (u8, u8) {
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let x = if t & 1 != 0 { w - 1 - x } else { x };
    let y = if t & 2 != 0 { h - 1 - y } else { y };
    (x, y)
}

fn point(s: &str) -> (u8, u8) {
    let b = s.as_bytes();
    (b[0] - b'a', b[1] - b'a')
}

fn sgf(p: (u8, u8)) -> String {
    format!("{}{}", (b'a' + p.0) as char, (b'a' + p.1) as char)
}

/// A placed sequence's area: the rectangle of its points grown by two lines, clipped to the
/// board, as `[x0, y0, x1, y1]`.
fn area_of(seq: &[Move]) -> [u8; 4] {
    let xs = seq.iter().map(|m| m.1 .0);
    let ys = seq.iter().map(|m| m.1 .1);
    let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
    let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
    [
        x0.saturating_sub(2),
        y0.saturating_sub(2),
        (x1 + 2).min(18),
        (y1 + 2).min(18),
    ]
}

fn in_area(a: [u8; 4], p: (u8, u8)) -> bool {
    (a[0]..=a[2]).contains(&p.0) && (a[1]..=a[3]).contains(&p.1)
}

/// Where the sequence (in one orientation) is complete in `g` as a joseki: the game's moves in
/// the sequence's area (the points' rectangle grown by two lines), and among them the sequence
/// as `n` consecutive ones; then from its second move to its last at most `2n + 10` moves of
/// the game. The move numbers (1-based) that complete it.
fn as_joseki(g: &Game, seq: &[Move]) -> Vec<u32> {
    let area = area_of(seq);
    let local: Vec<(usize, Move)> = g
        .moves
        .iter()
        .enumerate()
        .filter_map(|(i, &(c, p))| p.filter(|&p| in_area(area, p)).map(|p| (i, (c, p))))
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

/// How the brute force reads a sequence: the query's options it is compared under.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// In order, as a joseki, in one corner (the default).
    Joseki,
    /// In order, any moves between (`any_gap`): the first completion only.
    AnyGap,
    /// As a joseki, translated anywhere, answering in the sequence's own frame.
    Anywhere,
}

/// Continuation rows by (colour, SGF point): count, after tenuki, Black wins, White wins.
type Rows = HashMap<(char, String), (u32, u32, u32, u32)>;

/// What a sequence query should answer.
#[derive(Default)]
struct Expected {
    hits: Hits,
    rows: Rows,
    /// Hit positions (per area) after which nothing was played in the area.
    none: usize,
    /// The moves the rows count: (game, the position each was played from), each once.
    continued: BTreeSet<((String, u32), u32)>,
}

impl Expected {
    fn check(&self, a: &qipu::Answer, what: &str) {
        assert_eq!(hits_of(a), self.hits, "{what}: the hits");
        let got: Rows = a
            .continuations
            .iter()
            .map(|c| {
                (
                    (
                        c.color.letter(),
                        c.point.map_or(String::new(), |p| p.sgf_string()),
                    ),
                    (c.count, c.tenuki, c.black_wins, c.white_wins),
                )
            })
            .collect();
        assert_eq!(got.len(), a.continuations.len(), "{what}: a row per move");
        assert_eq!(got, self.rows, "{what}: what came next there");
        assert_eq!(
            a.summary.no_continuation,
            Some(self.none),
            "{what}: hits after which nothing was played there"
        );
    }

    /// The mistakes from the sequence (`query` with mistakes asked): the rows' moves that lost
    /// what each threshold asks by the test's made-up engine, largest loss first. Returns how
    /// many were found.
    fn check_mistakes(&self, index: &Index, query: &Query, games: &[Game], what: &str) -> usize {
        let by_name: HashMap<&(String, u32), &Game> = games.iter().map(|g| (&g.name, g)).collect();
        let mut found = 0;
        for words in ["40%", "15pt", "20%,5pt"] {
            let loss: qipu::LossThreshold = words.parse().unwrap();
            let want = made_up_mistakes(
                self.continued
                    .iter()
                    .map(|(name, j)| (name.clone(), by_name[name].moves.as_slice(), *j)),
                loss,
            );
            let asked = query
                .clone()
                .and_mistakes(qipu::Mistakes::new(loss).unwrap());
            let a = index.mistakes(&asked).unwrap();
            assert_eq!(a.total as usize, want.len(), "{what} {words}: how many");
            let got: BTreeSet<((String, u32), u32)> = a
                .hits
                .iter()
                .map(|h| ((h.info.file.clone(), h.info.game_in_file), h.move_number))
                .collect();
            let want_set: BTreeSet<((String, u32), u32)> =
                want.iter().map(|(name, k, _)| (name.clone(), *k)).collect();
            assert_eq!(got, want_set, "{what} {words}: the moves");
            // In the order of the loss asked, largest first.
            let losses: Vec<f64> = a
                .hits
                .iter()
                .map(|h| match loss.win {
                    Some(_) => h.loss.win,
                    None => h.loss.points.unwrap(),
                })
                .collect();
            assert!(losses.windows(2).all(|w| w[0] >= w[1]), "{what} {words}");
            found += want.len();
        }
        found
    }
}

/// Where a sequence completed: the move (k), the area, where its frame begins.
type Place = (u32, [u8; 4], (i16, i16));

/// The hits, continuation rows and hits without one that `seq` (in the query's coordinates,
/// every orientation, colours as given) should give on `games`, read as `reading` says. At
/// each position completing it, each distinct area (and, anywhere, frame) it completed in
/// gives the first move from the next on played in that area, mapped back through each
/// orientation completing it there (the least SGF point among them); after tenuki when it is
/// not the next move.
fn expected(games: &[Game], seq: &[Move], reading: Reading) -> Expected {
    // Anywhere, the query's frame: its points' rectangle with two lines around it.
    let qx0 = seq.iter().map(|m| m.1 .0).min().unwrap();
    let qy0 = seq.iter().map(|m| m.1 .1).min().unwrap();
    let qw = seq.iter().map(|m| m.1 .0).max().unwrap() - qx0 + 5;
    let qh = seq.iter().map(|m| m.1 .1).max().unwrap() - qy0 + 5;
    let mut out = Expected::default();
    for g in games {
        let played: HashSet<Move> = g
            .moves
            .iter()
            .filter_map(|&(c, p)| p.map(|p| (c, p)))
            .collect();
        // (k, area, where the frame begins) → the orientations completing it there.
        let mut at: BTreeMap<Place, Vec<u8>> = BTreeMap::new();
        for t in 0..8u8 {
            let image: Vec<Move> = seq.iter().map(|&(c, p)| (c, transform(t, p))).collect();
            let placed: Vec<(Vec<Move>, (i16, i16))> = match reading {
                Reading::Anywhere => {
                    let x0 = image.iter().map(|m| m.1 .0).min().unwrap();
                    let y0 = image.iter().map(|m| m.1 .1).min().unwrap();
                    let local: Vec<Move> = image
                        .iter()
                        .map(|&(c, p)| (c, (p.0 - x0, p.1 - y0)))
                        .collect();
                    // Every place on the board holding every move of it somewhere in the game.
                    let mut all = Vec::new();
                    for dy in 0..19u8 {
                        for dx in 0..19u8 {
                            let pl: Vec<Move> = local
                                .iter()
                                .map(|&(c, p)| (c, (p.0 + dx, p.1 + dy)))
                                .collect();
                            if pl
                                .iter()
                                .all(|m| m.1 .0 < 19 && m.1 .1 < 19 && played.contains(m))
                            {
                                all.push((pl, (i16::from(dx) - 2, i16::from(dy) - 2)));
                            }
                        }
                    }
                    all
                }
                _ => vec![(image, (0, 0))],
            };
            for (pl, origin) in placed {
                let ks: Vec<u32> = match reading {
                    Reading::AnyGap => anywhere_later(g, &pl).into_iter().collect(),
                    _ => as_joseki(g, &pl),
                };
                for k in ks {
                    at.entry((k, area_of(&pl), origin)).or_default().push(t);
                }
            }
        }
        if at.is_empty() {
            continue;
        }
        out.hits
            .insert(g.name.clone(), at.keys().map(|x| x.0).collect());
        for ((k, area, origin), ts) in at {
            let next = (k as usize..g.moves.len())
                .find(|&j| g.moves[j].1.is_some_and(|p| in_area(area, p)));
            let Some(j) = next else {
                out.none += 1;
                continue;
            };
            out.continued.insert((g.name.clone(), j as u32));
            let (c, p) = (g.moves[j].0, g.moves[j].1.unwrap());
            let back = |t: u8| match reading {
                Reading::Anywhere => {
                    let local = (
                        u8::try_from(i16::from(p.0) - origin.0).unwrap(),
                        u8::try_from(i16::from(p.1) - origin.1).unwrap(),
                    );
                    inverse_in(t, local, qw, qh)
                }
                _ => inverse_in(t, p, 19, 19),
            };
            let point = ts.iter().map(|&t| sgf(back(t))).min().unwrap();
            let r = out.rows.entry((c.letter(), point)).or_default();
            r.0 += 1;
            r.1 += u32::from(j != k as usize);
            r.2 += u32::from(g.winner == 1);
            r.3 += u32::from(g.winner == 2);
        }
    }
    out
}

/// A sequence typed as the search reads it (`B[pd] W[qf]`).
fn moves_of(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| {
            let c = if m.starts_with('B') {
                Color::Black
            } else {
                Color::White
            };
            (c, point(&m[2..4]))
        })
        .collect()
}

/// An index of `fox-pro` in a scratch folder, and its games as the test reads them.
fn fox(name: &str) -> Option<(testdata::Scratch, Index, Vec<Game>)> {
    let data = testdata::dataset("fox-pro")?;
    let dir = testdata::Scratch::new(name);
    // Every game analysed by the test's made-up engine, for the mistakes from a sequence.
    let opts = BuildOptions {
        rebuild: true,
        evals: Some(made_up_evals),
        ..BuildOptions::default()
    };
    build(&dir.0, std::slice::from_ref(&data), &opts, |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    let games = read_games(&data);
    assert!(games.len() > 10_000, "{} games read", games.len());
    Some((dir, index, games))
}

#[test]
fn joseki_hits_are_joseki_as_played() {
    let Some((_dir, index, games)) = fox("joseki-fox") else {
        return;
    };

    // The 3-3 invasion under White's 4-4 stone, as fox-pro's players most often play it.
    let text = "W[dd] B[cc] W[dc] B[cd] W[ce] B[be] W[cf]";
    let seq = moves_of(text);
    let images: Vec<Vec<Move>> = (0..8)
        .map(|t| seq.iter().map(|&(c, p)| (c, transform(t, p))).collect())
        .collect();

    // Expected: each game's completions as a joseki, and what came next there.
    let want = expected(&games, &seq, Reading::Joseki);
    assert!(
        want.hits.len() > 200,
        "fox-pro plays this joseki: {}",
        want.hits.len()
    );
    let mut loose: Hits = BTreeMap::new();
    for g in &games {
        for image in &images {
            if let Some(k) = anywhere_later(g, image) {
                loose.entry(g.name.clone()).or_default().insert(k);
            }
        }
    }

    let query = Query::moves(text, 19).unwrap().with_copies(true);
    let a = index.search(&query).unwrap();
    want.check(&a, text);
    let want = want.hits;

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

/// Real joseki of fox-pro's opening corners: each one's hits and its table of what was played
/// next in its area (directly or after tenuki, with who won) equal the brute force's, as a
/// joseki, with any gap (the area still says where "there" is) and translated anywhere (in the
/// sequence's own frame).
#[test]
fn what_came_next_is_what_was_played_there() {
    let Some((_dir, index, games)) = fox("joseki-next") else {
        return;
    };
    let joseki = [
        // 4-4 point, knight's approach, knight's-move answer; then the 3-3 slide.
        "B[pd] W[qf] B[nc]",
        "B[pd] W[qf] B[nc] W[rd]",
        // 4-4 point, the 3-3 invasion.
        "B[pd] W[qc]",
        // 3-4 point, small knight's approach from above, a pincer.
        "B[qd] W[oc] B[ld]",
        // 3-4 point, high approach, the undercut.
        "B[qd] W[od] B[oc]",
    ];
    // (direct, after tenuki, none) over them all: the tables hold all three kinds.
    let mut kinds = (0, 0, 0);
    // Mistakes found among the rows' moves, over every joseki and threshold.
    let mut mistakes = 0;
    for text in joseki {
        let seq = moves_of(text);
        let query = Query::moves(text, 19).unwrap().with_copies(true);
        let want = expected(&games, &seq, Reading::Joseki);
        assert!(want.hits.len() > 50, "{text}: {} games", want.hits.len());
        want.check(&index.search(&query).unwrap(), text);
        mistakes += want.check_mistakes(&index, &query, &games, text);
        kinds.0 += want.rows.values().map(|r| r.0 - r.1).sum::<u32>();
        kinds.1 += want.rows.values().map(|r| r.1).sum::<u32>();
        kinds.2 += want.none;
    }
    assert!(kinds.0 > 0 && kinds.1 > 0 && kinds.2 > 0, "{kinds:?}");
    assert!(mistakes > 100, "{mistakes}");
    let text = joseki[0];
    let seq = moves_of(text);
    let query = Query::moves(text, 19).unwrap().with_copies(true);
    let want = expected(&games, &seq, Reading::AnyGap);
    let any_gap = query.clone().any_gap(true);
    want.check(&index.search(&any_gap).unwrap(), "any gap");
    want.check_mistakes(&index, &any_gap, &games, "any gap");
    let want = expected(&games, &seq, Reading::Anywhere);
    let anywhere = query.anywhere(true);
    let a = index.search(&anywhere).unwrap();
    want.check(&a, "anywhere");
    want.check_mistakes(&index, &anywhere, &games, "anywhere");
    // Its own frame is its points' rectangle (4×4) with two lines around it: B[pd] W[qf]
    // B[nc] is there B[ed] W[ff] B[cc], and every row lies within its 8×8.
    assert!(
        a.continuations
            .iter()
            .all(|c| c.point.is_some_and(|p| p.x < 8 && p.y < 8)),
        "{:?}",
        a.continuations.first()
    );
}
