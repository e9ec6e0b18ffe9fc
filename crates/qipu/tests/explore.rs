//! The explorer's answers — date profile, filters, richer continuation rows, copies counted
//! once, sorts and pages — against the same answers computed here, independently of the index:
//! from `fox-pro`'s records as `qipu-inputs` and `qipu-sgf` read them (`DT`, `BR`, `WR`, `RE`,
//! `HA`, `KM` and the main lines), with the empty board as the position (every game without
//! setup stones reaches it at move 0, and again after each opening pass).
//!
//! Without the shared data these tests say so and pass, unless `QIPU_REQUIRE_DATASETS=1`.

use std::collections::{BTreeMap, HashMap};

use qipu::{build, BuildOptions, Color, Handicap, Index, Query, Sort};
use sgf::{GameInfo, Records};

/// One game of the dataset as the test reads it.
struct Game {
    file: String,
    game: u32,
    /// The index's number for it: only to know which of a set of copies comes first.
    id: u32,
    /// 19×19 with no setup stone before the first move: it reaches the empty board.
    empty_start: bool,
    moves: Vec<(Color, Option<sgf::Point>)>,
    /// Year and month as the index keeps them: the month the date starts in when it lies in
    /// one month, else 0.
    date: Option<(u16, u8)>,
    winner: u8,
    /// Rank codes (order + 50), 0 unknown.
    black_rank: u8,
    white_rank: u8,
    handicap: u8,
    komi: Option<f64>,
}

fn read_games(data: &std::path::Path, index: &Index) -> Vec<Game> {
    let ids: HashMap<(String, u32), u32> = (0..index.len())
        .map(|g| {
            let (f, n) = index.identity(g).unwrap();
            ((f.to_string(), n), g)
        })
        .collect();
    let mut games = Vec::new();
    for source in inputs::discover(&[data.to_path_buf()]).unwrap() {
        inputs::read_source(&source, &mut |rec| {
            let records = Records::read(&rec.bytes);
            for i in 0..records.len() {
                let Ok(tree) = records.game(i) else { continue };
                let Ok(moves) = tree.main_line_moves() else {
                    continue;
                };
                let info = GameInfo::read(&tree);
                let mut setup = false;
                for node in tree.main_line() {
                    if node.get(sgf::ids::B).is_some() || node.get(sgf::ids::W).is_some() {
                        break;
                    }
                    setup |= node.setup_values().any(|(c, _)| c.is_some());
                }
                let rank = |r: &Option<sgf::Field<sgf::info::Rank>>| {
                    r.as_ref()
                        .and_then(|f| f.value)
                        .map_or(0, |r| (r.order() + 50) as u8)
                };
                let date = info.date.as_ref().and_then(|d| d.value).map(|d| {
                    let one_month = (d.start.year, d.start.month) == (d.end.year, d.end.month);
                    (
                        d.start.year as u16,
                        if one_month { d.start.month } else { 0 },
                    )
                });
                let winner = match info.result.as_ref().and_then(|r| r.value).map(|r| r.winner) {
                    Some(sgf::info::Winner::Black) => 1,
                    Some(sgf::info::Winner::White) => 2,
                    _ => 0,
                };
                let key = (rec.name.clone(), i as u32);
                let Some(&id) = ids.get(&key) else { continue };
                games.push(Game {
                    file: key.0,
                    game: key.1,
                    id,
                    empty_start: tree.board_size() == (19, 19) && !setup,
                    moves,
                    date,
                    winner,
                    black_rank: rank(&info.black_rank),
                    white_rank: rank(&info.white_rank),
                    handicap: info.handicap.as_ref().and_then(|h| h.value).unwrap_or(0),
                    komi: info.komi.as_ref().and_then(|k| k.value),
                });
            }
        })
        .unwrap();
    }
    games.sort_by_key(|g| g.id);
    games
}

/// The empty board's hits of a game: k = 0, and each k after opening passes.
fn empty_board_hits(g: &Game) -> Vec<u32> {
    if !g.empty_start {
        return Vec::new();
    }
    let passes = g.moves.iter().take_while(|m| m.1.is_none()).count();
    (0..=passes as u32).collect()
}

/// A point in the query's orientation: the empty board matches in every symmetry, so the least
/// SGF point among the eight images.
fn least_image(p: sgf::Point) -> String {
    let (x, y) = (p.x, p.y);
    let m = 18;
    [
        (x, y),
        (m - x, y),
        (x, m - y),
        (m - x, m - y),
        (y, x),
        (m - y, x),
        (y, m - x),
        (m - y, m - x),
    ]
    .into_iter()
    .min()
    .map(|(x, y)| format!("{}{}", (b'a' + x) as char, (b'a' + y) as char))
    .unwrap()
}

/// A continuation row as the test computes it.
#[derive(Debug, Default, PartialEq)]
struct Row {
    count: u32,
    black_wins: u32,
    white_wins: u32,
    mover: (u64, u32),
    opponent: (u64, u32),
    years: Option<(u16, u16)>,
    /// (weaker rank, year, month, -id), game
    example: Option<((u8, u16, u8, i64), u32)>,
}

fn mean(sum_n: (u64, u32)) -> Option<f64> {
    (sum_n.1 > 0).then(|| ((sum_n.0 as f64 / f64::from(sum_n.1) - 50.0) * 100.0).round() / 100.0)
}

/// Which of `hits` count when copies count once: each main line's first game among them.
fn counted<'a>(hits: &[&'a Game], each_copy: bool) -> Vec<&'a Game> {
    let mut seen = std::collections::HashSet::new();
    hits.iter()
        .copied()
        .filter(|g| each_copy || seen.insert((g.empty_start, g.moves.clone())))
        .collect()
}

fn expected_table(hits: &[&Game]) -> BTreeMap<(char, String), Row> {
    let mut table: BTreeMap<(char, String), Row> = BTreeMap::new();
    for g in hits {
        for k in empty_board_hits(g) {
            let Some(&(color, point)) = g.moves.get(k as usize) else {
                continue;
            };
            let key = (color.letter(), point.map_or(String::new(), least_image));
            let r = table.entry(key).or_default();
            r.count += 1;
            r.black_wins += u32::from(g.winner == 1);
            r.white_wins += u32::from(g.winner == 2);
            let (own, other) = match color {
                Color::Black => (g.black_rank, g.white_rank),
                Color::White => (g.white_rank, g.black_rank),
            };
            if own > 0 {
                r.mover.0 += u64::from(own);
                r.mover.1 += 1;
            }
            if other > 0 {
                r.opponent.0 += u64::from(other);
                r.opponent.1 += 1;
            }
            if let Some((y, _)) = g.date.filter(|d| d.0 > 0) {
                r.years = Some(r.years.map_or((y, y), |(a, b)| (a.min(y), b.max(y))));
            }
            let (y, m) = g.date.unwrap_or((0, 0));
            let key = (g.black_rank.min(g.white_rank), y, m, -i64::from(g.id));
            if r.example.is_none_or(|(best, _)| key > best) {
                r.example = Some((key, g.id));
            }
        }
    }
    table
}

/// The answer's table against the expected one, row by row.
fn compare_tables(
    what: &str,
    answer: &qipu::Answer,
    games: &[Game],
    want: &BTreeMap<(char, String), Row>,
) {
    let by_id: HashMap<u32, &Game> = games.iter().map(|g| (g.id, g)).collect();
    assert_eq!(answer.continuations.len(), want.len(), "{what}: rows");
    for c in &answer.continuations {
        let key = (
            c.color.letter(),
            c.point.map_or(String::new(), |p| p.sgf_string()),
        );
        let w = want
            .get(&key)
            .unwrap_or_else(|| panic!("{what}: unexpected row {key:?}"));
        assert_eq!(
            (c.count, c.black_wins, c.white_wins, c.other),
            (
                w.count,
                w.black_wins,
                w.white_wins,
                w.count - w.black_wins - w.white_wins
            ),
            "{what}: {key:?}"
        );
        assert_eq!(
            (c.mover_rank, c.mover_ranked),
            (mean(w.mover), w.mover.1),
            "{what}: {key:?}"
        );
        assert_eq!(
            (c.opponent_rank, c.opponent_ranked),
            (mean(w.opponent), w.opponent.1),
            "{what}: {key:?}"
        );
        assert_eq!(
            (c.first_year, c.last_year),
            (w.years.map(|y| y.0), w.years.map(|y| y.1))
        );
        let example = w.example.map(|(_, id)| {
            let g = by_id[&id];
            format!("{}#{}", g.file, g.game)
        });
        assert_eq!(c.example, example, "{what}: {key:?}");
    }
}

/// The profile of the counted hit games, as the answer gives it.
fn expected_profile(hits: &[&Game]) -> (Vec<(u16, u64, u64, u64)>, u64) {
    let mut years: BTreeMap<u16, (u64, u64, u64)> = BTreeMap::new();
    let mut undated = 0;
    for g in hits {
        match g.date {
            Some((y, _)) if y > 0 => {
                let e = years.entry(y).or_default();
                e.0 += 1;
                e.1 += u64::from(g.winner == 1);
                e.2 += u64::from(g.winner == 2);
            }
            _ => undated += 1,
        }
    }
    (
        years
            .into_iter()
            .map(|(y, (n, b, w))| (y, n, b, w))
            .collect(),
        undated,
    )
}

fn profile_of(a: &qipu::Answer) -> (Vec<(u16, u64, u64, u64)>, u64) {
    (
        a.profile
            .years
            .iter()
            .map(|p| (p.year, p.games, p.black_wins, p.white_wins))
            .collect(),
        a.profile.undated,
    )
}

fn hit_names(a: &qipu::Answer) -> Vec<(String, u32, Vec<u32>)> {
    let mut v: Vec<_> = a
        .hits
        .iter()
        .map(|h| (h.info.file.clone(), h.info.game_in_file, h.moves.clone()))
        .collect();
    v.sort();
    v
}

fn want_names(hits: &[&Game]) -> Vec<(String, u32, Vec<u32>)> {
    let mut v: Vec<_> = hits
        .iter()
        .map(|g| (g.file.clone(), g.game, empty_board_hits(g)))
        .collect();
    v.sort();
    v
}

#[test]
fn profiles_filters_and_continuations_match_the_records() {
    let Some(data) = testdata::dataset("fox-pro") else {
        return;
    };
    let dir = testdata::Scratch::new("explore-fox");
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir.0, std::slice::from_ref(&data), &opts, |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    let games = read_games(&data, &index);
    assert_eq!(games.len() as u32, index.len(), "every game read here");
    let empty = || Query::points(19, "", "").unwrap();
    let reaching: Vec<&Game> = games.iter().filter(|g| g.empty_start).collect();
    // The dataset has exact copies among these games, so counting them once is seen.
    assert!(counted(&reaching, false).len() < reaching.len());

    // The whole empty board: copies once (the default), then each.
    for each_copy in [false, true] {
        let a = index.search(&empty().with_copies(each_copy)).unwrap();
        let what = format!("empty board, with copies {each_copy}");
        assert_eq!(hit_names(&a), want_names(&reaching), "{what}");
        let counted = counted(&reaching, each_copy);
        compare_tables(&what, &a, &games, &expected_table(&counted));
        assert_eq!(profile_of(&a), expected_profile(&counted), "{what}");
    }

    // Dates: 2016-03 to 2017 (a game dated by year only counts as its January).
    let in_range = |g: &&Game| {
        g.date
            .is_some_and(|(y, m)| y > 0 && (y, m.max(1)) >= (2016, 3) && y <= 2017)
    };
    let dated: Vec<&Game> = reaching.iter().copied().filter(in_range).collect();
    assert!(!dated.is_empty() && dated.len() < reaching.len());
    let a = index
        .search(&empty().since("2016-03").unwrap().until("2017").unwrap())
        .unwrap();
    assert_eq!(hit_names(&a), want_names(&dated), "dates");
    compare_tables(
        "dates",
        &a,
        &games,
        &expected_table(&counted(&dated, false)),
    );
    assert_eq!(
        profile_of(&a),
        expected_profile(&counted(&dated, false)),
        "dates"
    );
    assert_eq!(a.profile.undated, 0);
    // By month: the months add up to the years.
    let a = index
        .search(
            &empty()
                .since("2016-03")
                .unwrap()
                .until("2017")
                .unwrap()
                .by_month(true),
        )
        .unwrap();
    // The years of a profile by month (read from the facts) are those of a profile by year
    // (read from `years.bin`).
    assert_eq!(
        profile_of(&a),
        expected_profile(&counted(&dated, false)),
        "dates by month"
    );
    let months = a.profile.months.as_ref().unwrap();
    let by_month: u64 = months.iter().map(|m| m.games).sum();
    let by_year: u64 = a.profile.years.iter().map(|y| y.games).sum();
    assert_eq!(by_month + a.profile.no_month.unwrap(), by_year);
    assert!(months
        .iter()
        .all(|m| (2016, 3) <= (m.year, m.month.unwrap())));

    // Strength and handicap: both players at least 5p, even games.
    let strong: Vec<&Game> = reaching
        .iter()
        .copied()
        .filter(|g| g.black_rank >= 65 && g.white_rank >= 65 && g.handicap <= 1)
        .collect();
    assert!(!strong.is_empty() && strong.len() < reaching.len());
    let a = index
        .search(&empty().min_rank("5p").unwrap().handicap(Handicap::Even))
        .unwrap();
    assert_eq!(hit_names(&a), want_names(&strong), "rank");
    compare_tables(
        "rank",
        &a,
        &games,
        &expected_table(&counted(&strong, false)),
    );

    // Komi on a metadata query (every game, not only those reaching the empty board), and
    // handicap games.
    let komi: Vec<&Game> = games
        .iter()
        .filter(|g| g.komi.is_some_and(|k| (6.5..=7.5).contains(&k)))
        .collect();
    let a = index
        .search(&Query::metadata("size:19").komi(6.5, 7.5))
        .unwrap();
    assert_eq!(a.summary.games, komi.len(), "komi");
    assert_eq!(
        profile_of(&a),
        expected_profile(&counted(&komi, false)),
        "komi"
    );
    // Bounds between the komi given and quarter komi (Fox writes 3.75 and 3.25): exact, not
    // rounded to half points.
    for (low, high) in [
        (6.6, 7.4),
        (6.6, 6.6),
        (4.0, 4.0),
        (3.5, 3.5),
        (3.75, 3.75),
        (3.25, 3.25),
        (3.7, 3.8),
        (3.3, 3.8),
        (-10.0, 0.4),
        (0.0, 100.0),
    ] {
        let want = games
            .iter()
            .filter(|g| g.komi.is_some_and(|k| (low..=high).contains(&k)))
            .count();
        let a = index
            .search(&Query::metadata("size:19").komi(low, high))
            .unwrap();
        assert_eq!(a.summary.games, want, "komi {low}..{high}");
    }
    assert!(games.iter().any(|g| g.komi == Some(3.75)), "quarters seen");
    let handicap = games.iter().filter(|g| g.handicap >= 2).count();
    let a = index
        .search(&Query::metadata("size:19").handicap(Handicap::Handicap))
        .unwrap();
    assert_eq!(a.summary.games, handicap, "handicap");

    // Sorts and pages: strongest and longest first; a page is a slice of the whole.
    let by_id: HashMap<u32, &Game> = games.iter().map(|g| (g.id, g)).collect();
    let all = index.search(&empty().sort(Sort::Strongest)).unwrap();
    let keys: Vec<(u8, u8)> = all
        .hits
        .iter()
        .map(|h| {
            let g = by_id[&h.game];
            (
                g.black_rank.min(g.white_rank),
                g.black_rank.max(g.white_rank),
            )
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] >= w[1]), "strongest first");
    let all = index.search(&empty().sort(Sort::Longest)).unwrap();
    let lengths: Vec<usize> = all
        .hits
        .iter()
        .map(|h| by_id[&h.game].moves.len())
        .collect();
    assert!(lengths.windows(2).all(|w| w[0] >= w[1]), "longest first");
    let page = index
        .search(&empty().sort(Sort::Longest).offset(30).limit(Some(10)))
        .unwrap();
    let ids = |hits: &[qipu::Hit]| hits.iter().map(|h| h.game).collect::<Vec<_>>();
    assert_eq!(ids(&page.hits), ids(&all.hits[30..40]));
    assert_eq!(page.summary.skipped, 30);
    // Copies are listed and marked either way.
    let copies = all.hits.iter().filter(|h| h.info.copy).count();
    assert!(copies > 0);
}

#[test]
fn filters_refuse_what_they_cannot_read() {
    let e = Query::points(19, "", "")
        .unwrap()
        .since("2016-13")
        .unwrap_err();
    assert_eq!(e.query().unwrap().part(), qipu::QueryPart::Filter);
    assert!(Query::points(19, "", "").unwrap().until("16").is_err());
    assert!(Query::points(19, "", "").unwrap().min_rank("12p").is_err());
    assert!(Query::points(19, "", "").unwrap().min_rank("3d").is_ok());
    assert!(Query::points(19, "", "")
        .unwrap()
        .since("2016-02-30x")
        .is_err());
}
