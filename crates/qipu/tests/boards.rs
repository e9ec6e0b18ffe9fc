//! Games of several boards in one index: a corner's key names its content whatever the board,
//! so a corner pattern answered from the corner table must keep the games of the query's board
//! only, whether a segment's games are all on one board (which the manifest then records, and
//! no game's record is read for it) or on several.

use qipu::{build, BuildOptions, Index, Query};
use testdata::Scratch;

/// The 3-3 invasion of a 4-4 stone in the top-right corner of a 19×19 board, and the same
/// corner content on a 21×21 board (two columns further right).
const SHAPE_19: &str = "B[pd]W[qc]B[qd]W[pc]";
const SHAPE_21: &str = "B[rd]W[sc]B[sd]W[rc]";
/// The 19×19 shape mirrored into the top-left corner.
const MIRRORED_19: &str = "B[dd]W[cc]B[cd]W[dc]";

fn game(size: u8, moves: &str) -> String {
    let moves: String = moves
        .split_inclusive(']')
        .map(|m| format!(";{m}"))
        .collect();
    format!("(;GM[1]FF[4]SZ[{size}]{moves})")
}

/// A whole 7×7 top-right corner square holding the shape, on a `size` board.
fn corner_pattern(size: u8) -> Query {
    pattern(size, ".......")
}

/// [`corner_pattern`] with the square's outermost corner point left free.
fn corner_pattern_with_any(size: u8) -> Query {
    pattern(size, "......?")
}

fn pattern(size: u8, first_row: &str) -> Query {
    let row = |square: &str| format!("{}{square}\n", "?".repeat(size as usize - 7));
    let mut diagram = String::new();
    for r in [
        first_row, ".......", "...OO..", "...XX..", ".......", ".......", ".......",
    ] {
        diagram.push_str(&row(r));
    }
    Query::pattern(&diagram)
        .unwrap()
        .board_size(size)
        .limit(None)
}

#[test]
fn corner_patterns_keep_the_games_of_their_board_in_pure_and_mixed_segments() {
    let scratch = Scratch::new("boards");
    // Two games a segment: 19×19 only, then 21×21 only, then mixed (19×19 and 9×9).
    let games = [
        game(19, SHAPE_19),
        game(19, MIRRORED_19),
        game(21, SHAPE_21),
        game(21, &format!("{SHAPE_21}B[dd]")),
        game(19, &format!("{SHAPE_19}B[dp]")),
        game(9, "B[ee]W[cc]"),
    ];
    // A file a game, named in game order.
    for (i, g) in games.iter().enumerate() {
        scratch.write(&format!("d/{i}.sgf"), g.as_bytes());
    }
    let dir = scratch.0.join("index");
    let opts = BuildOptions {
        rebuild: true,
        segment_games: 2,
        ..BuildOptions::default()
    };
    build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();

    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("qipu-index.json")).unwrap()).unwrap();
    let boards: Vec<&serde_json::Value> = manifest["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["board"])
        .collect();
    assert_eq!(
        boards,
        [
            &serde_json::json!([19, 19]),
            &serde_json::json!([21, 21]),
            &serde_json::Value::Null
        ]
    );

    let index = Index::open(&dir).unwrap();
    let hit_games = |q: &Query| {
        let a = index.search(q).unwrap();
        let mut g: Vec<u32> = a.hits.iter().map(|h| h.game).collect();
        g.sort_unstable();
        (g, a.summary.games)
    };
    // The whole square is answered from the corner table, without a replay.
    assert_eq!(hit_games(&corner_pattern(19)), (vec![0, 1, 4], 3));
    assert_eq!(hit_games(&corner_pattern(21)), (vec![2, 3], 2));
    // A square not fixed whole (one point of it may hold anything): the corner table names the
    // candidates, which are then replayed.
    assert_eq!(hit_games(&corner_pattern_with_any(19)), (vec![0, 1, 4], 3));
    assert_eq!(hit_games(&corner_pattern_with_any(21)), (vec![2, 3], 2));
}
