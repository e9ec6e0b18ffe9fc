//! Reading a hash's position-table entries for some games only — a range of games, or a list —
//! gives exactly the entries a pass over all of them keeps for those games, across segments,
//! for games with several entries, none, and games past the index.

use testdata::Scratch;

#[test]
fn entries_of_some_games_are_those_of_all_games_kept_for_them() {
    let scratch = Scratch::new("table-some-games");
    // Games (each its own main line: exact copies are stored once) that reach the empty board
    // once, some twice (a pass first), some never (a handicap stone set up at the root);
    // segments of three games.
    for n in 0..20u8 {
        let p = format!("{}{}", (b'a' + n) as char, 's');
        let game = match n % 4 {
            0 => format!("(;GM[1]SZ[19];B[];W[{p}];B[pd])"),
            1 => format!("(;GM[1]SZ[19]AB[dd];W[{p}])"),
            _ => format!("(;GM[1]SZ[19];B[pd];W[{p}])"),
        };
        scratch.write(&format!("d/g{n:02}.sgf"), game.as_bytes());
    }
    let dir = scratch.0.join("index");
    let opts = index::BuildOptions {
        segment_games: 3,
        ..index::BuildOptions::default()
    };
    index::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
    let idx = index::Index::open(&dir).unwrap();
    assert!(idx.manifest().segments.len() >= 6);
    let empty = goban::Position::empty_hash(19, 19);
    let all: Vec<(u32, u32, u16)> = idx
        .positions(empty)
        .map(|e| (e.game, e.k, e.next))
        .collect();
    assert!(
        all.len() > 15 && all.windows(2).any(|w| w[0].0 == w[1].0),
        "{all:?}"
    );
    let kept = |keep: &dyn Fn(u32) -> bool| -> Vec<(u32, u32, u16)> {
        all.iter().copied().filter(|e| keep(e.0)).collect()
    };
    let n = idx.len();
    for range in [0..n, 0..0, 2..7, 4..5, 5..n + 10, n..n + 3] {
        let got: Vec<_> = idx
            .positions_of(empty, range.clone())
            .map(|e| (e.game, e.k, e.next))
            .collect();
        assert_eq!(got, kept(&|g| range.contains(&g)), "games {range:?}");
    }
    for games in [
        vec![],
        vec![0],
        vec![1, 2, 3, 8, 9, 16],
        (0..n + 5).collect(),
        vec![n + 1],
    ] {
        let got: Vec<_> = idx
            .positions_of_games(empty, &games)
            .into_iter()
            .map(|e| (e.game, e.k, e.next))
            .collect();
        assert_eq!(got, kept(&|g| games.contains(&g)), "games {games:?}");
    }
    // A hash no game reaches has no entries for any game.
    assert_eq!(idx.positions_of(42, 0..n).count(), 0);
    assert!(idx.positions_of_games(42, &[0, 1]).is_empty());
}
