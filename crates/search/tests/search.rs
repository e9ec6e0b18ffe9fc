//! Search behaviour beyond the oracle's probes, on an index of the embedded sample corpus:
//! deep positions (found by replay, not by the position table), typed positions, compact and
//! free-floating patterns, colour swap, side to move and metadata filters.

use std::path::PathBuf;
use std::sync::OnceLock;

use goban::{Color, Point};
use index::{build, BuildOptions, Index};
use search::query::{parse_pattern, position_from_points, position_from_record};
use search::{find_pattern, find_position, PatternQuery, PositionQuery};

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
        .find(|&g| index().identity(g).0 == name)
        .unwrap()
}

fn position_query(file: &str, at: usize) -> PositionQuery {
    let bytes = std::fs::read(samples().join(file)).unwrap();
    PositionQuery {
        position: position_from_record(&bytes, Some(at)).unwrap(),
        symmetry: true,
        swap_colors: false,
        to_move: None,
    }
}

#[test]
fn deep_positions_are_found_by_replay() {
    // 150 moves in, far more stones than the position table holds.
    let q = position_query("maruyama-ito.sgf", 150);
    assert!(q.position.stones(Color::Black).len() + q.position.stones(Color::White).len() > 40);
    let a = find_position(index(), &q, None);
    assert_eq!(a.hits.len(), 1);
    assert_eq!(a.hits[0].game, game_named("maruyama-ito.sgf"));
    assert_eq!(a.hits[0].moves.as_slice(), [150]);
    assert_eq!(a.continuations.len(), 1);
    assert_eq!(a.continuations[0].count, 1);
    assert_eq!(a.continuations[0].white_wins, 1, "W+6.5");
}

#[test]
fn rotated_and_colour_swapped_positions() {
    let q = position_query("maruyama-ito.sgf", 20);
    let rotated = PositionQuery {
        position: q.position.transformed(goban::Symmetry::Rotate90),
        ..q.clone()
    };
    assert_eq!(find_position(index(), &rotated, None).hits.len(), 1);
    let strict = PositionQuery {
        symmetry: false,
        ..rotated.clone()
    };
    assert!(find_position(index(), &strict, None).hits.is_empty());
    let swapped = PositionQuery {
        position: q.position.color_swapped(),
        ..q.clone()
    };
    assert!(find_position(index(), &swapped, None).hits.is_empty());
    let swap = PositionQuery {
        swap_colors: true,
        ..swapped
    };
    let a = find_position(index(), &swap, None);
    assert_eq!(a.hits.len(), 1);
    // The next move was Black's in the game, so White's in the query's (swapped) colours.
    assert_eq!(a.continuations[0].color, Color::White);
}

#[test]
fn side_to_move_filters_hits() {
    let q = position_query("maruyama-ito.sgf", 20);
    let black = PositionQuery {
        to_move: Some(Color::Black),
        ..q.clone()
    };
    let white = PositionQuery {
        to_move: Some(Color::White),
        ..q
    };
    assert_eq!(find_position(index(), &black, None).hits.len(), 1);
    assert!(find_position(index(), &white, None).hits.is_empty());
}

#[test]
fn the_empty_board_hits_every_game_without_setup_at_move_zero() {
    let empty = position_from_points(19, 19, &[], &[]).unwrap();
    let q = PositionQuery {
        position: empty,
        symmetry: true,
        swap_colors: false,
        to_move: None,
    };
    let a = find_position(index(), &q, None);
    // 8 SGF games start from the empty board; the WTF game has four setup stones.
    assert_eq!(a.hits.len(), 8);
    assert!(a.hits.iter().all(|h| h.moves.as_slice() == [0]));
    assert_eq!(a.continuations.iter().map(|c| c.count).sum::<u32>(), 8);
    // Every first move is mapped into one orientation: all on the same side of the diagonal.
    assert!(a.continuations.iter().all(|c| c.color == Color::Black));
}

#[test]
fn metadata_filters_combine_with_positions() {
    let empty = position_from_points(19, 19, &[], &[]).unwrap();
    let q = PositionQuery {
        position: empty,
        symmetry: true,
        swap_colors: false,
        to_move: None,
    };
    let ids = index().search_meta(r#"black:"Lee Sedol""#).unwrap();
    assert_eq!(ids.len(), 3);
    let a = find_position(index(), &q, Some(&ids));
    assert_eq!(a.hits.len(), 3);
}

fn pattern(text: &str, anywhere: bool) -> PatternQuery {
    let (width, height, cells) = parse_pattern(text).unwrap();
    PatternQuery {
        width,
        height,
        cells,
        offset: (0, 0),
        board: (19, 19),
        symmetry: true,
        swap_colors: false,
        anywhere,
    }
}

#[test]
fn compact_corner_patterns_and_free_floating_shapes() {
    // A black stone on a 4-4 point with its 7x7 corner otherwise empty.
    let corner = ".......\n.......\n.......\n...X...\n.......\n.......\n.......\n";
    let a = find_pattern(index(), &pattern(corner, false), None);
    assert!(a.hits.len() >= 5, "{:?}", a.hits);
    // An empty triangle of black stones anywhere on the board: translation as well as symmetry.
    let triangle = "XX\nX.\n";
    let anchored = find_pattern(index(), &pattern(triangle, false), None);
    let anywhere = find_pattern(index(), &pattern(triangle, true), None);
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
    let q = position_query("maruyama-ito.sgf", 3);
    let typed = position_from_points(
        19,
        19,
        &[Point::new(3, 15), Point::new(3, 3)],
        &[Point::new(16, 2)],
    )
    .unwrap();
    assert_eq!(typed, q.position);
}

fn sequence(
    moves: &[(Color, &str)],
    in_order: bool,
    anywhere: bool,
    symmetry: bool,
) -> search::SequenceQuery {
    search::SequenceQuery {
        board: (19, 19),
        moves: moves
            .iter()
            .map(|&(c, p)| (c, Point::parse_sgf(p.as_bytes()).unwrap()))
            .collect(),
        in_order,
        symmetry,
        swap_colors: false,
        anywhere,
    }
}

#[test]
fn move_sequences_in_order_as_a_set_and_anywhere() {
    use search::find_sequence;
    let maruyama = game_named("maruyama-ito.sgf");
    let hits_of = |q: &search::SequenceQuery| -> Vec<(u32, Vec<u32>)> {
        find_sequence(index(), q, None)
            .hits
            .into_iter()
            .map(|h| (h.game, h.moves.to_vec()))
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
    build(&dir.join("index"), &[inputs], &opts, |_| {}).unwrap();
    let index = Index::open(&dir.join("index")).unwrap();
    assert_eq!(index.long_games(), [0]);
    assert_eq!(index.copies(0), [1]);
    assert!(index.is_copy(1));
    let q = PositionQuery {
        position: position_from_points(19, 19, &[Point::new(0, 0)], &[Point::new(1, 1)]).unwrap(),
        symmetry: false,
        swap_colors: false,
        to_move: None,
    };
    let hits: Vec<(u32, Vec<u32>)> = find_position(&index, &q, None)
        .hits
        .iter()
        .map(|h| (h.game, h.moves.to_vec()))
        .collect();
    assert_eq!(hits, [(0, vec![2202]), (1, vec![2202]), (2, vec![2])]);
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
        let err = Index::open(&dir.join("index")).err().unwrap().to_string();
        assert!(err.contains(name), "{err}");
        std::fs::write(seg.join(name), before).unwrap();
    }
    let index = Index::open(&dir.join("index")).unwrap();
    assert_eq!(index.long_games(), [0]);
    assert_eq!(index.copies(0), [1]);
    drop(index);
    // Every table entry names a game that does not exist.
    let mut table = std::fs::read(seg.join("positions.bin")).unwrap();
    for entry in table.chunks_exact_mut(6) {
        entry[..3].copy_from_slice(&[0xff; 3]);
    }
    std::fs::write(seg.join("positions.bin"), table).unwrap();
    let index = Index::open(&dir.join("index")).unwrap();
    let a = find_position(&index, &q, None);
    assert!(a
        .hits
        .iter()
        .any(|h| h.game == 0 && h.moves.as_slice() == [2202]));
    let empty = PositionQuery {
        position: position_from_points(19, 19, &[], &[]).unwrap(),
        ..q
    };
    let a = find_position(&index, &empty, None);
    assert!(a.hits.iter().all(|h| h.game < index.len()));
    for h in &a.hits {
        let _ = index.identity(h.game);
        let _ = index.record(h.game);
    }
    drop(index);
    let _ = std::fs::remove_dir_all(&dir);
}
