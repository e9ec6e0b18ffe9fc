//! Search behaviour beyond the oracle's probes, on an index of the embedded sample corpus:
//! deep positions (found by replay, not by the position table), typed positions, compact and
//! free-floating patterns, colour swap, side to move and metadata filters — asked through the
//! library's face, as a client would.

use std::path::PathBuf;
use std::sync::OnceLock;

use qipu::{build, Answer, BuildOptions, Color, Index, Position, Query};

fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games")
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("qipu-search-test-{}", std::process::id()));
        let opts = BuildOptions {
            rebuild: true,
            ..BuildOptions::default()
        };
        build(&dir, &[samples()], &opts, |_| {}).unwrap();
        Index::open(&dir).unwrap()
    })
}

fn game_named(name: &str) -> u32 {
    (0..index().len())
        .find(|&g| index().game(g).unwrap().file == name)
        .unwrap()
}

fn position_of(file: &str, at: usize) -> Position {
    let bytes = std::fs::read(samples().join(file)).unwrap();
    Query::from_record(&bytes, Some(at))
        .unwrap()
        .searched_position()
        .unwrap()
        .clone()
}

fn search(q: &Query) -> Answer {
    index().search(q).unwrap()
}

#[test]
fn deep_positions_are_found_by_replay() {
    // 150 moves in, far more stones than the position table holds.
    let position = position_of("maruyama-ito.sgf", 150);
    assert!(position.stones(Color::Black).len() + position.stones(Color::White).len() > 40);
    let a = search(&Query::position(position));
    assert_eq!(a.hits.len(), 1);
    assert_eq!(a.hits[0].game, game_named("maruyama-ito.sgf"));
    assert_eq!(a.hits[0].info.result.as_deref(), Some("W+6.5"));
    assert_eq!(a.hits[0].moves, [150]);
    assert_eq!(a.continuations.len(), 1);
    assert_eq!(a.continuations[0].count, 1);
    assert_eq!(a.continuations[0].white_wins, 1, "W+6.5");
}

#[test]
fn rotated_and_colour_swapped_positions() {
    let position = position_of("maruyama-ito.sgf", 20);
    let rotated = Query::position(position.transformed(goban::Symmetry::Rotate90));
    assert_eq!(search(&rotated).hits.len(), 1);
    assert!(search(&rotated.symmetry(false)).hits.is_empty());
    let swapped = Query::position(position.color_swapped());
    assert!(search(&swapped).hits.is_empty());
    let a = search(&swapped.swap_colors(true));
    assert_eq!(a.hits.len(), 1);
    // The next move was Black's in the game, so White's in the query's (swapped) colours.
    assert_eq!(a.continuations[0].color, Color::White);
}

#[test]
fn side_to_move_filters_hits() {
    let q = Query::position(position_of("maruyama-ito.sgf", 20));
    let black = q.clone().to_move(Some(Color::Black));
    let white = q.to_move(Some(Color::White));
    assert_eq!(search(&black).hits.len(), 1);
    assert!(search(&white).hits.is_empty());
}

#[test]
fn the_empty_board_hits_every_game_without_setup_at_move_zero() {
    let a = search(&Query::points(19, "", "").unwrap());
    // 8 SGF games start from the empty board; the WTF game has four setup stones.
    assert_eq!(a.hits.len(), 8);
    assert!(a.hits.iter().all(|h| h.moves == [0]));
    assert_eq!(a.continuations.iter().map(|c| c.count).sum::<u32>(), 8);
    // Every first move is mapped into one orientation: all on the same side of the diagonal.
    assert!(a.continuations.iter().all(|c| c.color == Color::Black));
}

#[test]
fn metadata_filters_combine_with_positions() {
    let lee = r#"black:"Lee Sedol""#;
    let ids: Vec<u32> = search(&Query::metadata(lee))
        .hits
        .iter()
        .map(|h| h.game)
        .collect();
    assert_eq!(ids.len(), 3);
    let empty = Query::points(19, "", "").unwrap();
    let a = search(&empty.clone().filter(lee));
    assert_eq!(a.hits.iter().map(|h| h.game).collect::<Vec<_>>(), ids);
    // A list of games narrows the same way, and both together meet.
    assert_eq!(search(&empty.clone().within(ids.clone())).hits.len(), 3);
    let a = search(&empty.filter(lee).within([ids[0], 999_999]));
    assert_eq!(a.hits.iter().map(|h| h.game).collect::<Vec<_>>(), [ids[0]]);
}

#[test]
fn pages_sort_and_count_every_hit() {
    let empty = Query::points(19, "", "").unwrap();
    let all = search(&empty);
    let page = search(&empty.clone().offset(2).limit(Some(3)));
    assert_eq!((page.summary.games, page.summary.skipped), (8, 2));
    assert_eq!(page.hits, all.hits[2..5]);
    assert_eq!(page.continuations, all.continuations);
    let past = search(&empty.clone().offset(100));
    assert!(past.hits.is_empty());
    assert_eq!(past.summary.skipped, 8);
    // Newest first: dated games in descending order, undated ones last.
    let newest = search(&empty.clone().sort(qipu::Sort::Newest));
    let dates: Vec<Option<String>> = newest.hits.iter().map(|h| h.info.date.clone()).collect();
    let dated: Vec<&String> = dates.iter().flatten().collect();
    assert!(dated.windows(2).all(|w| w[0] >= w[1]), "{dates:?}");
    assert!(dates
        .iter()
        .skip_while(|d| d.is_some())
        .all(Option::is_none));
    let oldest = search(&empty.sort(qipu::Sort::Oldest));
    assert_eq!(
        oldest.hits.first().and_then(|h| h.info.date.clone()),
        dated.last().map(|d| d.to_string())
    );
}

#[test]
fn an_index_is_shared_by_threads_and_bounded_by_a_pool() {
    let pool = qipu::rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let q =
        Query::pattern(".......\n.......\n.......\n...X...\n.......\n.......\n.......\n").unwrap();
    let alone = search(&q);
    // The time spent adding up the continuations and the profile is part of the search's.
    let t = alone.timings;
    assert!(t.tally_ms > 0.0 && t.tally_ms <= t.search_ms, "{t:?}");
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                let a = index().search_in(&q, &pool).unwrap();
                // The same answer, whatever the thread and pool (timings aside).
                assert_eq!(
                    (&a.hits, &a.continuations, a.summary),
                    (&alone.hits, &alone.continuations, alone.summary)
                );
            });
        }
    });
}

fn pattern(text: &str, anywhere: bool) -> Query {
    Query::pattern(text).unwrap().anywhere(anywhere)
}

#[test]
fn compact_corner_patterns_and_free_floating_shapes() {
    // A black stone on a 4-4 point with its 7x7 corner otherwise empty.
    let corner = ".......\n.......\n.......\n...X...\n.......\n.......\n.......\n";
    let a = search(&pattern(corner, false));
    assert!(a.hits.len() >= 5, "{:?}", a.hits);
    // An empty triangle of black stones anywhere on the board: translation as well as symmetry.
    let triangle = "XX\nX.\n";
    let anchored = search(&pattern(triangle, false));
    let anywhere = search(&pattern(triangle, true));
    assert!(
        anchored.hits.is_empty(),
        "only the corner 2x2 is looked at when anchored"
    );
    assert!(anywhere.hits.len() > anchored.hits.len());
    for h in &anywhere.hits {
        assert!(h.moves.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
    }
}

#[test]
fn typed_points_make_the_same_query_as_a_record() {
    let position = position_of("maruyama-ito.sgf", 3);
    let typed = Query::points(19, "dp D16", "qc").unwrap();
    assert_eq!(typed.searched_position(), Some(&position));
}

fn sequence(moves: &[(Color, &str)], in_order: bool, anywhere: bool, symmetry: bool) -> Query {
    let text: Vec<String> = moves
        .iter()
        .map(|(c, p)| format!("{}[{p}]", c.letter()))
        .collect();
    Query::moves(&text.join(" "), 19)
        .unwrap()
        .any_order(!in_order)
        .anywhere(anywhere)
        .symmetry(symmetry)
}

#[test]
fn move_sequences_in_order_as_a_set_and_anywhere() {
    let maruyama = game_named("maruyama-ito.sgf");
    let hits_of = |q: &Query| -> Vec<(u32, Vec<u32>)> {
        search(q)
            .hits
            .into_iter()
            .map(|h| (h.game, h.moves))
            .collect()
    };
    // The game opens B[dp] W[qc] B[dd] W[pq].
    let opening = [
        (Color::Black, "dp"),
        (Color::White, "qc"),
        (Color::Black, "dd"),
    ];
    let h = hits_of(&sequence(&opening, true, false, false));
    assert!(h.contains(&(maruyama, vec![3])), "{h:?}");
    // Reversed, the order no longer holds, but the set does.
    let reversed = [
        (Color::Black, "dd"),
        (Color::White, "qc"),
        (Color::Black, "dp"),
    ];
    assert!(!hits_of(&sequence(&reversed, true, false, false))
        .iter()
        .any(|x| x.0 == maruyama));
    assert!(hits_of(&sequence(&reversed, false, false, false)).contains(&(maruyama, vec![3])));
    // Mirrored, it is found only with symmetry.
    let mirrored = [
        (Color::Black, "pp"),
        (Color::White, "cc"),
        (Color::Black, "pd"),
    ];
    assert!(!hits_of(&sequence(&mirrored, true, false, false))
        .iter()
        .any(|x| x.0 == maruyama));
    let h = hits_of(&sequence(&mirrored, true, false, true));
    assert!(
        h.iter().any(|x| x.0 == maruyama && x.1.contains(&3)),
        "{h:?}"
    );
    // Shifted one line, it is found only anywhere.
    let shifted = [(Color::Black, "eo"), (Color::White, "rb")];
    assert!(!hits_of(&sequence(&shifted, true, false, true))
        .iter()
        .any(|x| x.0 == maruyama));
    let h = hits_of(&sequence(&shifted, true, true, false));
    assert!(
        h.iter().any(|x| x.0 == maruyama && x.1.contains(&2)),
        "{h:?}"
    );
}

#[test]
fn positions_past_the_table_and_copies_are_found() {
    // A few stones after 2,200 passes: past the moves the position table holds, so the game is
    // replayed; its exact copy in another file is reported too, and a short game from the table.
    let dir = std::env::temp_dir().join(format!("qipu-search-long-{}", std::process::id()));
    let inputs = dir.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let long = format!("(;SZ[19];B[aa]{};W[bb];B[cc])", ";W[];B[]".repeat(1100));
    std::fs::write(inputs.join("a.sgf"), &long).unwrap();
    std::fs::write(inputs.join("b.sgf"), &long).unwrap();
    std::fs::write(inputs.join("c.sgf"), "(;SZ[19];B[aa];W[bb])").unwrap();
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(dir.join("index"), &[inputs], &opts, |_| {}).unwrap();
    let index = Index::open(dir.join("index")).unwrap();
    assert!(!index.game(0).unwrap().copy);
    assert!(index.game(1).unwrap().copy);
    let q = Query::points(19, "aa", "bb").unwrap().symmetry(false);
    let answer = index.search(&q).unwrap();
    let hits: Vec<(u32, Vec<u32>)> = answer
        .hits
        .iter()
        .map(|h| (h.game, h.moves.clone()))
        .collect();
    assert_eq!(hits, [(0, vec![2202]), (1, vec![2202]), (2, vec![2])]);
    assert_eq!(index.main_line(1).unwrap().moves.len(), 2203);
    drop(index);

    // Damaged lists and table: ids of games that do not exist are ignored, nothing panics.
    let seg = dir.join("index/seg-000001");
    let append = |name: &str, bytes: &[u8]| {
        let mut b = std::fs::read(seg.join(name)).unwrap();
        b.extend_from_slice(bytes);
        std::fs::write(seg.join(name), b).unwrap();
    };
    // Lists that grew: refused at open, naming the file (their lengths are in the manifest).
    for (name, extra) in [
        ("long.bin", &0xff_ffffu32.to_le_bytes()[..]),
        ("copies.bin", &[0xff, 0xff, 0xff, 0, 0, 0, 0, 0][..]),
    ] {
        let before = std::fs::read(seg.join(name)).unwrap();
        append(name, extra);
        let err = Index::open(dir.join("index")).err().unwrap();
        assert_eq!(err.kind(), qipu::ErrorKind::DamagedIndex, "{err}");
        assert!(err.to_string().contains(name), "{err}");
        std::fs::write(seg.join(name), before).unwrap();
    }
    let index = Index::open(dir.join("index")).unwrap();
    assert_eq!(index.search(&q).unwrap().hits.len(), 3);
    drop(index);
    // Every table entry names a game that does not exist.
    let mut table = std::fs::read(seg.join("positions.bin")).unwrap();
    for entry in table.chunks_exact_mut(6) {
        entry[..3].copy_from_slice(&[0xff; 3]);
    }
    std::fs::write(seg.join("positions.bin"), table).unwrap();
    // The readers take the damaged entries without a panic, and the answer made from them is
    // refused, naming the file (its blocks do not match their checksums).
    let index = Index::open(dir.join("index")).unwrap();
    let empty = Query::points(19, "", "").unwrap().symmetry(false);
    for query in [&q, &empty] {
        let err = index.search(query).unwrap_err();
        assert_eq!(err.kind(), qipu::ErrorKind::DamagedIndex, "{err}");
        assert!(err.to_string().contains("positions.bin"), "{err}");
    }
    // A game the index does not hold is the caller's mistake.
    let e = index.record(index.len()).unwrap_err();
    assert_eq!(e.query().unwrap().part(), qipu::QueryPart::Game);
    drop(index);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_whole_board_pattern_continues_as_its_position_does() {
    // Every point fixed: the pattern is the position, so the games, the moves where it stands
    // and what was played next (mapped back through the same symmetries) are the position's.
    for (file, at) in [
        ("maruyama-ito.sgf", 12),
        ("Lee-Sedol-vs-AlphaGo-20160309.sgf", 7),
    ] {
        let position = position_of(file, at);
        let diagram: String = (0..19u8)
            .map(|y| {
                let row: String = (0..19u8)
                    .map(|x| {
                        let p = qipu::Point::new(x, y);
                        if position.stones(Color::Black).contains(p) {
                            'X'
                        } else if position.stones(Color::White).contains(p) {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect();
                row + "\n"
            })
            .collect();
        let by_position = search(&Query::position(position));
        let by_pattern = search(&Query::pattern(&diagram).unwrap());
        assert!(!by_pattern.continuations.is_empty(), "{file}");
        assert_eq!(
            by_pattern.continuations, by_position.continuations,
            "{file}"
        );
        let games = |a: &Answer| {
            a.hits
                .iter()
                .map(|h| (h.game, h.moves.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(games(&by_pattern), games(&by_position), "{file}");
    }
}

/// The board a viewer shows for a hit ([`Index::position_at`], read from the replay program)
/// is the record's own at every move of every sample game, as the record's parse and the
/// engine give it; past the last move is an error.
#[test]
fn position_at_is_the_records_board_at_every_move() {
    let index = index();
    for id in 0..index.len() {
        let record = index.record(id).unwrap();
        let moves = index.main_line(id).unwrap().moves.len();
        for k in 0..=moves {
            let want = Query::from_record(&record, Some(k)).unwrap();
            let got = index.position_at(id, k).unwrap();
            assert!(
                want.searched_position() == Some(&got),
                "game {id} ({}), move {k}",
                index.game(id).unwrap().file
            );
        }
        assert!(index.position_at(id, moves + 1).is_err(), "game {id}");
    }
}

/// Hits' paths read from the stored table of sources beside the manifest are the paths the
/// manifest's inputs give: with the table, without it, and with a table of another manifest in
/// its place (which is not read).
#[test]
fn hits_paths_are_the_manifests_with_or_without_its_stored_table() {
    let tmp = std::env::temp_dir().join(format!("qipu-sources-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    build(&a, &[samples()], &opts, |_| {}).unwrap();
    build(&b, &[samples().join("maruyama-ito.sgf")], &opts, |_| {}).unwrap();
    let table = "qipu-index.sources";
    assert!(a.join(table).is_file(), "written beside the manifest");
    let paths = |dir: &std::path::Path| {
        let index = Index::open(dir).unwrap();
        (0..index.len()).map(|g| index.path(g)).collect::<Vec<_>>()
    };
    let with = paths(&a);
    assert!(with.iter().all(Option::is_some), "{with:?}");
    assert!(with
        .iter()
        .any(|p| p.as_ref().unwrap().ends_with("maruyama-ito.sgf")));
    std::fs::rename(a.join(table), tmp.join("kept")).unwrap();
    assert_eq!(paths(&a), with, "without the table");
    // Another index's table in its place: it names another manifest.
    std::fs::copy(b.join(table), a.join(table)).unwrap();
    assert_eq!(paths(&a), with, "with another manifest's table");
    let only = paths(&b);
    assert_eq!(only.len(), 1);
    assert!(only[0].as_ref().unwrap().ends_with("maruyama-ito.sgf"));
    let _ = std::fs::remove_dir_all(&tmp);
}
