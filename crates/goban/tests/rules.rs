//! Hand-made positions for each rule and each irregular input.

use goban::{Board, Color, MoveFlags, Point, Position, Symmetry};

const B: Color = Color::Black;
const W: Color = Color::White;

fn pt(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// A board of the given size with a diagram (`X`, `O`, `.`) set up in its top-left corner.
fn board(width: u8, height: u8, rows: &[&str]) -> Board {
    let mut b = Board::new(width, height).unwrap();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let content = match c {
                'X' => Some(B),
                'O' => Some(W),
                _ => None,
            };
            assert!(b.setup(content, pt(x as u8, y as u8)));
        }
    }
    b
}

fn sorted(points: &[Point]) -> Vec<Point> {
    let mut v = points.to_vec();
    v.sort();
    v
}

/// The incremental hashes agree with the from-scratch ones.
fn check_hashes(b: &Board) {
    let p = b.position();
    for s in Symmetry::ALL {
        assert_eq!(b.hashes()[s.index()], p.transformed(s).hash(), "{s:?}");
        assert_eq!(
            b.swapped_hashes()[s.index()],
            p.color_swapped().transformed(s).hash()
        );
    }
    assert_eq!(b.canonical_key(), p.canonical_key());
}

#[test]
fn corner_capture() {
    let mut b = board(19, 19, &["OX"]);
    let out = b.play(B, Some(pt(0, 1)));
    assert!(out.flags.is_empty());
    assert_eq!(&out.removed[..], &[pt(0, 0)]);
    assert_eq!(out.captured(), &[pt(0, 0)]);
    assert_eq!(out.removed_color(), W);
    assert_eq!(b.get(pt(0, 0)), None);
    assert_eq!(b.stones(B).len(), 2);
    assert_eq!(b.stones(W).len(), 0);
    check_hashes(&b);
    // Same in the far corner of a big board.
    let mut b = Board::new(52, 52).unwrap();
    b.setup(Some(W), pt(51, 51));
    b.setup(Some(B), pt(50, 51));
    let out = b.play(B, Some(pt(51, 50)));
    assert_eq!(&out.removed[..], &[pt(51, 51)]);
    check_hashes(&b);
}

#[test]
fn snapback() {
    let mut b = board(
        9,
        9,
        &[
            "..OX", //
            "OOOX", //
            "XXXX",
        ],
    );
    // The throw-in captures nothing and has one liberty.
    let out = b.play(B, Some(pt(1, 0)));
    assert!(out.flags.is_empty() && out.removed.is_empty());
    // White takes it; its group is then in atari, and no ko arises (the taker is not alone).
    let out = b.play(W, Some(pt(0, 0)));
    assert_eq!(&out.removed[..], &[pt(1, 0)]);
    assert_eq!(b.ko(), None);
    // Black plays back at the same point and takes five.
    let out = b.play(B, Some(pt(1, 0)));
    assert!(out.flags.is_empty());
    assert_eq!(
        sorted(&out.removed),
        sorted(&[pt(0, 0), pt(2, 0), pt(0, 1), pt(1, 1), pt(2, 1)])
    );
    assert_eq!(b.stones(W).len(), 0);
    check_hashes(&b);
}

#[test]
fn suicide_of_one_stone() {
    let mut b = board(9, 9, &[".O", "O."]);
    let before = b.position().clone();
    let h = b.hashes();
    let out = b.play(B, Some(pt(0, 0)));
    assert_eq!(out.flags, MoveFlags::SUICIDE);
    assert_eq!(&out.removed[..], &[pt(0, 0)]);
    assert!(out.captured().is_empty());
    assert_eq!(out.removed_color(), B);
    assert_eq!(out.placed(), Some(pt(0, 0)));
    assert_eq!(b.position(), &before);
    assert_eq!(b.hashes(), h);
}

#[test]
fn suicide_of_a_group() {
    let mut b = board(9, 9, &["XO", ".O", "O."]);
    let out = b.play(B, Some(pt(0, 1)));
    assert_eq!(out.flags, MoveFlags::SUICIDE);
    assert_eq!(sorted(&out.removed), vec![pt(0, 0), pt(0, 1)]);
    assert_eq!(b.stones(B).len(), 0);
    assert_eq!(b.stones(W).len(), 3);
    check_hashes(&b);
}

#[test]
fn capture_beats_suicide() {
    // Black's stone at the corner has no liberty of its own but takes the white stone first.
    let mut b = board(9, 9, &[".OX", "OX."]);
    let out = b.play(B, Some(pt(0, 0)));
    assert!(out.flags.is_empty(), "{:?}", out.flags);
    assert_eq!(&out.removed[..], &[pt(1, 0)]);
    assert_eq!(b.get(pt(0, 0)), Some(B));
    assert_eq!(b.get(pt(0, 1)), Some(W));
    check_hashes(&b);
}

#[test]
fn multi_group_capture() {
    let mut b = board(
        9,
        9,
        &[
            "O.OX", //
            "XOOX", //
            "OXX.", //
            "X...",
        ],
    );
    // (1, 0) fills the last liberty of three white groups: the corner stone, the three-stone group
    // and (with (0, 2) untouched: it is not adjacent) nothing else.
    let out = b.play(B, Some(pt(1, 0)));
    assert!(out.flags.is_empty());
    assert_eq!(
        sorted(&out.removed),
        sorted(&[pt(0, 0), pt(2, 0), pt(1, 1), pt(2, 1)])
    );
    assert_eq!(b.get(pt(0, 2)), Some(W)); // a dead-looking stone not next to the move stays
    check_hashes(&b);
}

#[test]
fn long_chain_capture() {
    // A white snake winding over the whole 7×7 board's interior, taken at once.
    let mut b = Board::new(7, 7).unwrap();
    let mut white = Vec::new();
    for y in 0..7u8 {
        for x in 0..7u8 {
            // Rows 0, 2, 4, 6 full; odd rows joined at alternating ends.
            let on_snake = y % 2 == 0 || (y % 4 == 1 && x == 6) || (y % 4 == 3 && x == 0);
            if on_snake {
                white.push(pt(x, y));
                b.setup(Some(W), pt(x, y));
            } else if (x, y) != (0, 1) {
                b.setup(Some(B), pt(x, y));
            }
        }
    }
    let out = b.play(B, Some(pt(0, 1)));
    assert!(out.flags.is_empty());
    assert_eq!(sorted(&out.removed), sorted(&white));
    assert_eq!(b.stones(W).len(), 0);
    check_hashes(&b);
}

#[test]
fn ko_retake_is_flagged() {
    let mut b = board(
        9,
        9,
        &[
            ".XO.", //
            "X.XO", //
            ".XO.",
        ],
    );
    let out = b.play(W, Some(pt(1, 1)));
    assert_eq!(&out.removed[..], &[pt(2, 1)]);
    assert!(out.flags.is_empty());
    assert_eq!(b.ko(), Some((pt(2, 1), B)));
    let before_white = {
        let mut c = b.clone();
        c.setup(None, pt(1, 1));
        c.setup(Some(B), pt(2, 1));
        c.position().clone()
    };
    let out = b.play(B, Some(pt(2, 1)));
    assert_eq!(out.flags, MoveFlags::KO_RETAKE);
    assert_eq!(&out.removed[..], &[pt(1, 1)]);
    assert_eq!(b.position(), &before_white);
    // And back again.
    let out = b.play(W, Some(pt(1, 1)));
    assert_eq!(out.flags, MoveFlags::KO_RETAKE);
    // After a ko threat and its answer, retaking is legal.
    b.play(B, Some(pt(8, 8)));
    b.play(W, Some(pt(7, 8)));
    let out = b.play(B, Some(pt(2, 1)));
    assert!(out.flags.is_empty());
    assert_eq!(&out.removed[..], &[pt(1, 1)]);
    // A pass or setup in between also forgets the ko; so does the same colour moving twice.
    b.play(W, None);
    assert_eq!(b.ko(), None);
    check_hashes(&b);
}

#[test]
fn ko_not_flagged_for_other_colour() {
    let mut b = board(9, 9, &[".XO.", "X.XO", ".XO."]);
    b.play(W, Some(pt(1, 1)));
    // White, not Black, plays at the ko point: an ordinary (here suicidal) move, not a retake.
    let out = b.play(W, Some(pt(2, 1)));
    assert!(!out.flags.contains(MoveFlags::KO_RETAKE));
}

#[test]
fn occupied_point_is_overwritten() {
    let mut b = board(9, 9, &["XO", "..", "O."]);
    // Black on its own stone: nothing changes but the flag.
    let h = b.hashes();
    let out = b.play(B, Some(pt(0, 0)));
    assert_eq!(out.flags, MoveFlags::OCCUPIED);
    assert_eq!(out.replaced, Some(B));
    assert!(out.removed.is_empty());
    assert_eq!(b.hashes(), h);
    // White on that black stone: it is replaced, and captures resolve from there.
    let out = b.play(W, Some(pt(0, 0)));
    assert_eq!(out.flags, MoveFlags::OCCUPIED);
    assert_eq!(out.replaced, Some(B));
    assert_eq!(b.get(pt(0, 0)), Some(W));
    assert_eq!(b.stones(B).len(), 0);
    check_hashes(&b);
    // An overwrite that captures: black replaces the white corner stone and takes (1, 0).
    let mut b = board(9, 9, &["OOX", "XX."]);
    let out = b.play(B, Some(pt(0, 0)));
    assert_eq!(out.flags, MoveFlags::OCCUPIED);
    assert_eq!(out.replaced, Some(W));
    assert_eq!(&out.removed[..], &[pt(1, 0)]);
    assert_eq!(b.get(pt(0, 0)), Some(B));
    check_hashes(&b);
    // Captures are only looked for next to the move: a group left dead by setup stays.
    let mut b = board(9, 9, &["XO", "O."]);
    let out = b.play(W, Some(pt(1, 1)));
    assert!(out.flags.is_empty());
    assert_eq!(&out.removed[..], &[] as &[Point]); // (0, 0) is dead since setup, not next to (1, 1)
                                                   // An overwrite that leaves the new stone without liberties is a suicide.
    let mut b = board(3, 1, &["OXO"]);
    let out = b.play(W, Some(pt(1, 0)));
    assert_eq!(out.flags, MoveFlags::OCCUPIED | MoveFlags::SUICIDE);
    assert_eq!(b.stones(W).len(), 0);
    assert_eq!(b.stones(B).len(), 0);
    check_hashes(&b);
}

#[test]
fn off_board_changes_nothing() {
    let mut b = board(19, 19, &["X"]);
    let before = b.clone();
    for p in [pt(19, 0), pt(0, 19), pt(255, 255), pt(52, 3)] {
        let out = b.play(W, Some(p));
        assert_eq!(out.flags, MoveFlags::OFF_BOARD);
        assert_eq!(out.point, Some(p));
        assert_eq!(out.placed(), None);
        assert!(out.removed.is_empty());
        assert_eq!(b, before);
        assert_eq!(b.hashes(), before.hashes());
        assert!(!b.setup(Some(B), p));
        assert_eq!(b.get(p), None);
    }
    let out = b.play(B, None);
    assert!(out.is_pass() && out.flags.is_empty());
}

#[test]
fn one_by_one_board() {
    let mut b = Board::new(1, 1).unwrap();
    let empty = b.hashes();
    let out = b.play(B, Some(pt(0, 0)));
    assert_eq!(out.flags, MoveFlags::SUICIDE);
    assert_eq!(b.stones(B).len(), 0);
    assert_eq!(b.hashes(), empty);
    assert!(b.setup(Some(W), pt(0, 0)));
    assert_eq!(b.get(pt(0, 0)), Some(W));
    // Black on the white stone: replaced, then suicide.
    let out = b.play(B, Some(pt(0, 0)));
    assert_eq!(out.flags, MoveFlags::SUICIDE | MoveFlags::OCCUPIED);
    assert_eq!(b.get(pt(0, 0)), None);
    check_hashes(&b);
    assert_eq!(Board::new(1, 1).unwrap().canonical_key(), b.canonical_key());
}

#[test]
fn big_board_edges() {
    let mut b = Board::new(52, 52).unwrap();
    // A full white row at the bottom edge under a black row: one move takes 52 stones.
    for x in 0..52 {
        b.setup(Some(W), pt(x, 51));
        if x != 51 {
            b.setup(Some(B), pt(x, 50));
        }
    }
    let out = b.play(B, Some(pt(51, 50)));
    assert_eq!(out.removed.len(), 52);
    assert_eq!(b.stones(W).len(), 0);
    assert_eq!(b.stones(B).len(), 52);
    assert_eq!(b.sgf_points(B).first().map(String::as_str), Some("AY"));
    check_hashes(&b);
}

#[test]
fn rectangular_board() {
    let mut b = Board::new(19, 13).unwrap();
    assert_eq!((b.width(), b.height()), (19, 13));
    b.setup(Some(W), pt(18, 12));
    b.setup(Some(B), pt(17, 12));
    let out = b.play(B, Some(pt(18, 11)));
    assert_eq!(&out.removed[..], &[pt(18, 12)]);
    assert_eq!(b.play(W, Some(pt(13, 18))).flags, MoveFlags::OFF_BOARD);
    b.play(W, Some(pt(3, 3)));
    check_hashes(&b);
    // The four symmetries of the rectangle keep the key; a transposition is another board.
    let key = b.canonical_key();
    for s in Symmetry::KEEPS_SHAPE {
        let img = Board::from_position(&b.position().transformed(s));
        assert_eq!((img.width(), img.height()), (19, 13));
        assert_eq!(img.canonical_key(), key);
    }
    let t = b.position().transformed(Symmetry::Transpose);
    assert_eq!((t.width(), t.height()), (13, 19));
    assert_ne!(Board::from_position(&t).canonical_key(), key);
    assert_eq!(Symmetry::of_board(19, 13).len(), 4);
}

#[test]
fn sizes_and_errors() {
    assert!(Board::new(0, 19).is_err());
    assert!(Board::new(19, 53).is_err());
    assert!(Board::new(52, 52).is_ok());
    let a = Board::new(9, 9).unwrap();
    let b = Board::new(13, 13).unwrap();
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.canonical_key(), b.canonical_key());
}

#[test]
fn sgf_points_sorted_as_strings() {
    let mut b = Board::new(52, 52).unwrap();
    for p in [pt(27, 0), pt(0, 0), pt(1, 30), pt(1, 2)] {
        b.setup(Some(B), p);
    }
    assert_eq!(b.sgf_points(B), ["Ba", "aa", "bE", "bc"]);
    assert!(b.sgf_points(W).is_empty());
}

#[test]
fn hashing_switch() {
    let mut b = Board::new(19, 19).unwrap();
    b.set_hashing(false);
    b.play(B, Some(pt(3, 3)));
    b.play(W, Some(pt(15, 15)));
    let mut reference = Position::new(19, 19).unwrap();
    reference.set(pt(3, 3), Some(B));
    reference.set(pt(15, 15), Some(W));
    assert_eq!(b.hash(), reference.hash());
    b.set_hashing(true);
    b.play(B, Some(pt(4, 4)));
    reference.set(pt(4, 4), Some(B));
    assert_eq!(b.hash(), reference.hash());
    check_hashes(&b);
}

#[test]
fn colour_swap_key() {
    let mut b = Board::new(19, 19).unwrap();
    b.play(B, Some(pt(3, 3)));
    b.play(W, Some(pt(15, 16)));
    // The colour swap of the quarter turn (x, y) -> (18 - y, x).
    let mut s = Board::new(19, 19).unwrap();
    s.play(W, Some(pt(15, 3)));
    s.play(B, Some(pt(2, 15)));
    assert_ne!(b.canonical_key(), s.canonical_key());
    assert_eq!(b.canonical_key_any_color(), s.canonical_key_any_color());
    // Swapping the same stones' colours changes the hash (α and 1+α are invertible).
    let mut one = Board::new(19, 19).unwrap();
    one.setup(Some(B), pt(3, 3));
    let mut other = Board::new(19, 19).unwrap();
    other.setup(Some(W), pt(3, 3));
    assert_ne!(one.hash(), other.hash());
    assert_eq!(one.swapped_hashes(), other.hashes());
}

#[test]
fn stone_count_follows_moves_captures_and_setup() {
    use goban::{Board, Color, Point};
    let mut b = Board::new(19, 19).unwrap();
    let mut rng = testdata::Rng::new(12345);
    let mut next = || rng.next_u64();
    for i in 0..5000 {
        let p = Point::new((next() % 19) as u8, (next() % 19) as u8);
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        match next() % 10 {
            0 => {
                b.setup(None, p);
            }
            1 => {
                b.setup(Some(c), p);
            }
            _ => {
                b.play(c, Some(p));
            }
        }
        let want = b.stones(Color::Black).len() + b.stones(Color::White).len();
        assert_eq!(b.stone_count() as usize, want, "after step {i}");
    }
}

#[test]
fn identity_hashing_follows_captures_setup_and_suicide() {
    // Random moves on a small board: many captures, suicides and replaced stones.
    let mut full = Board::new(7, 7).unwrap();
    let mut lean = Board::new(7, 7).unwrap();
    lean.set_identity_hashing();
    let mut rng = testdata::Rng::new(0x2545_f491_4f6c_dd1d);
    for i in 0..3000 {
        let seed = rng.next_u64();
        let (x, y, colour) = (
            (seed % 7) as u8,
            (seed / 7 % 7) as u8,
            if i % 2 == 0 { B } else { W },
        );
        if i % 97 == 0 {
            full.setup(None, pt(x, y));
            lean.setup(None, pt(x, y));
        } else {
            full.play(colour, Some(pt(x, y)));
            lean.play(colour, Some(pt(x, y)));
        }
        assert_eq!(lean.hash(), full.hash(), "move {i}");
        assert_eq!(lean.hash(), lean.position().hash(), "move {i}");
    }
    // The other orientations are computed from the stones, and full hashing comes back.
    assert_eq!(lean.hashes(), full.hashes());
    assert_eq!(lean.swapped_hashes(), full.swapped_hashes());
    lean.set_hashing(true);
    lean.play(B, Some(pt(0, 0)));
    full.play(B, Some(pt(0, 0)));
    assert_eq!(lean.hashes(), full.hashes());
    check_hashes(&lean);
}
