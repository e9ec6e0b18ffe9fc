//! Property tests: the engine against an obviously-correct reference, and the hashing laws.

use goban::{Board, Color, MoveFlags, Point, Position, Symmetry};
use proptest::prelude::*;

/// The reference: one cell per point, groups found by flood fill with an explicit stack.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Reference {
    w: usize,
    h: usize,
    cells: Vec<Option<Color>>,
}

impl Reference {
    fn new(w: u8, h: u8) -> Reference {
        Reference {
            w: w as usize,
            h: h as usize,
            cells: vec![None; w as usize * h as usize],
        }
    }

    fn on_board(&self, p: Point) -> bool {
        (p.x as usize) < self.w && (p.y as usize) < self.h
    }

    fn idx(&self, p: Point) -> usize {
        p.y as usize * self.w + p.x as usize
    }

    fn neighbours(&self, p: Point) -> Vec<Point> {
        let (x, y) = (p.x as i32, p.y as i32);
        [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            .into_iter()
            .filter(|&(a, b)| a >= 0 && b >= 0 && (a as usize) < self.w && (b as usize) < self.h)
            .map(|(a, b)| Point::new(a as u8, b as u8))
            .collect()
    }

    /// The group through `p` and whether it has a liberty.
    fn group(&self, p: Point) -> (Vec<Point>, bool) {
        let color = self.cells[self.idx(p)];
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![p];
        let mut group = Vec::new();
        let mut liberty = false;
        seen[self.idx(p)] = true;
        while let Some(q) = stack.pop() {
            group.push(q);
            for n in self.neighbours(q) {
                let c = self.cells[self.idx(n)];
                if c.is_none() {
                    liberty = true;
                } else if c == color && !seen[self.idx(n)] {
                    seen[self.idx(n)] = true;
                    stack.push(n);
                }
            }
        }
        (group, liberty)
    }

    fn setup(&mut self, content: Option<Color>, p: Point) {
        if self.on_board(p) {
            let i = self.idx(p);
            self.cells[i] = content;
        }
    }

    /// The contract, with the engine's documented choices for occupied and off-board points. Returns
    /// the removed points and the flags other than the ko flag.
    fn play(&mut self, color: Color, p: Option<Point>) -> (Vec<Point>, MoveFlags) {
        let Some(p) = p else {
            return (vec![], MoveFlags::NONE);
        };
        if !self.on_board(p) {
            return (vec![], MoveFlags::OFF_BOARD);
        }
        let mut flags = MoveFlags::NONE;
        let i = self.idx(p);
        if self.cells[i].is_some() {
            flags |= MoveFlags::OCCUPIED;
        }
        self.cells[i] = Some(color);
        let mut removed = Vec::new();
        for n in self.neighbours(p) {
            if self.cells[self.idx(n)] == Some(color.opponent()) {
                let (g, liberty) = self.group(n);
                if !liberty {
                    for q in g {
                        let j = self.idx(q);
                        self.cells[j] = None;
                        removed.push(q);
                    }
                }
            }
        }
        if removed.is_empty() {
            let (g, liberty) = self.group(p);
            if !liberty {
                flags |= MoveFlags::SUICIDE;
                for q in g {
                    let j = self.idx(q);
                    self.cells[j] = None;
                    removed.push(q);
                }
            }
        }
        removed.sort();
        (removed, flags)
    }

    fn position(&self) -> Position {
        let mut pos = Position::new(self.w as u8, self.h as u8).unwrap();
        for y in 0..self.h {
            for x in 0..self.w {
                let p = Point::new(x as u8, y as u8);
                pos.set(p, self.cells[self.idx(p)]);
            }
        }
        pos
    }
}

/// One step of a game: a move, or a setup property.
#[derive(Clone, Debug)]
enum Step {
    Move(Color, Option<Point>),
    /// A move on the `n % count`-th empty point (a pass if none): realistic games, with kos.
    MoveEmpty(Color, u16),
    Setup(Option<Color>, Point),
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

/// Board sizes: mostly small (captures, ko and suicide are frequent there), sometimes big or odd.
fn size() -> impl Strategy<Value = (u8, u8)> {
    prop_oneof![
        6 => (1u8..=7).prop_map(|s| (s, s)),
        2 => (1u8..=7, 1u8..=7),
        1 => Just((19, 19)),
        1 => Just((19, 13)),
        1 => Just((52, 52)),
        1 => (1u8..=52, 1u8..=52),
    ]
}

/// Points mostly on the board, some just off it (the strategy draws in a box one larger).
fn step(w: u8, h: u8) -> impl Strategy<Value = Step> {
    let point = (0..=w, 0..=h).prop_map(|(x, y)| Point::new(x, y));
    prop_oneof![
        10 => (color(), point.clone()).prop_map(|(c, p)| Step::Move(c, Some(p))),
        30 => (color(), any::<u16>()).prop_map(|(c, n)| Step::MoveEmpty(c, n)),
        1 => color().prop_map(|c| Step::Move(c, None)),
        2 => (prop::option::of(color()), point).prop_map(|(c, p)| Step::Setup(c, p)),
    ]
}

/// A board size and a game on it; moves alternate colours mostly (the strategy may repeat one).
fn game() -> impl Strategy<Value = (u8, u8, Vec<Step>)> {
    size().prop_flat_map(|(w, h)| {
        let len = (w as usize * h as usize * 3).clamp(4, 300);
        (Just(w), Just(h), prop::collection::vec(step(w, h), 0..len))
    })
}

fn check_hashes(b: &Board) -> Result<(), TestCaseError> {
    let pos = b.position();
    let swapped = pos.color_swapped();
    let (h, g) = (b.hashes(), b.swapped_hashes());
    for s in Symmetry::ALL {
        prop_assert_eq!(h[s.index()], pos.transformed(s).hash(), "{:?}", s);
        prop_assert_eq!(
            g[s.index()],
            swapped.transformed(s).hash(),
            "swapped {:?}",
            s
        );
    }
    Ok(())
}

/// A random position as a list of distinct points with colours.
fn stones() -> impl Strategy<Value = (u8, u8, Vec<(Point, Color)>)> {
    size().prop_flat_map(|(w, h)| {
        let n = w as usize * h as usize;
        (
            Just(w),
            Just(h),
            prop::collection::vec((0..w, 0..h, color()), 0..=n.min(200)).prop_map(|v| {
                let mut seen = std::collections::HashSet::new();
                v.into_iter()
                    .filter(|&(x, y, _)| seen.insert((x, y)))
                    .map(|(x, y, c)| (Point::new(x, y), c))
                    .collect()
            }),
        )
    })
}

fn board_of(w: u8, h: u8, stones: &[(Point, Color)]) -> Board {
    let mut b = Board::new(w, h).unwrap();
    for &(p, c) in stones {
        b.setup(Some(c), p);
    }
    b
}

proptest! {
    // 400 cases by default; more with PROPTEST_CASES=…
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(400),
    ))]

    /// Every move: same position, same removed stones, same flags as the reference; the ko flag
    /// exactly when the move recreates the position before the opponent's previous move; and the
    /// incremental hashes equal the from-scratch ones.
    #[test]
    fn engine_matches_reference((w, h, steps) in game()) {
        let mut board = Board::new(w, h).unwrap();
        let mut reference = Reference::new(w, h);
        // (position before the last step, mover of the last step if it was an on-board move)
        let mut before_prev: Option<(Position, Color)> = None;
        for mut step in steps {
            if let Step::MoveEmpty(c, n) = step {
                let empty: Vec<Point> = board.empty_points().iter().collect();
                let p = (!empty.is_empty()).then(|| empty[n as usize % empty.len()]);
                step = Step::Move(c, p);
            }
            let before = board.position().clone();
            match step {
                Step::Setup(content, p) => {
                    prop_assert_eq!(board.setup(content, p), reference.on_board(p));
                    reference.setup(content, p);
                    before_prev = None;
                }
                Step::MoveEmpty(..) => unreachable!(),
                Step::Move(color, p) => {
                    let out = board.play(color, p);
                    let (removed, flags) = reference.play(color, p);
                    let mut got = out.removed.to_vec();
                    got.sort();
                    prop_assert_eq!(got, removed);
                    let ko = out.flags.contains(MoveFlags::KO_RETAKE);
                    prop_assert_eq!(out.flags.without(MoveFlags::KO_RETAKE), flags);
                    prop_assert_eq!(out.color, color);
                    prop_assert_eq!(out.point, p);
                    let on_board = p.is_some_and(|p| reference.on_board(p));
                    let recreated = match &before_prev {
                        Some((older, prev_mover)) => {
                            on_board
                                && *prev_mover == color.opponent()
                                && !flags.contains(MoveFlags::SUICIDE)
                                && !flags.contains(MoveFlags::OCCUPIED)
                                && board.position() == older
                        }
                        None => false,
                    };
                    prop_assert_eq!(ko, recreated, "ko flag at {:?}", p);
                    // Only a regular previous move counts: after an overwrite, the engine's simple-ko
                    // flag does not look back (a retake of an overwritten point is not a ko).
                    let regular = !out.flags.contains(MoveFlags::OCCUPIED);
                    before_prev = (on_board && regular).then(|| (before.clone(), color));
                }
            }
            prop_assert_eq!(board.position(), &reference.position());
            check_hashes(&board)?;
        }
    }

    /// The hashes depend on the stones only, not on the order they were put down.
    #[test]
    fn hash_ignores_order((w, h, stones) in stones(), seed in any::<u64>()) {
        let a = board_of(w, h, &stones);
        let mut shuffled = stones.clone();
        // Fisher–Yates with the tests' generator: deterministic per case.
        let mut rng = testdata::Rng::new(seed | 1);
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.below(i as u64 + 1) as usize);
        }
        // Also detours: a stone put, removed and put back, another put and removed.
        let mut b = Board::new(w, h).unwrap();
        if let Some(&(p, c)) = shuffled.first() {
            b.setup(Some(c.opponent()), p);
            b.setup(None, p);
        }
        for &(p, c) in &shuffled {
            b.setup(Some(c), p);
        }
        prop_assert_eq!(a.position(), b.position());
        prop_assert_eq!(a.hashes(), b.hashes());
        prop_assert_eq!(a.swapped_hashes(), b.swapped_hashes());
        prop_assert_eq!(a.hash(), a.position().hash());
        check_hashes(&a)?;
    }

    /// Every image of a position under a symmetry of its board has the same canonical key, and the
    /// orientation hashes of an image are those of the original, permuted.
    #[test]
    fn canonical_key_is_symmetric((w, h, stones) in stones()) {
        let a = board_of(w, h, &stones);
        let key = a.canonical_key();
        let any = a.canonical_key_any_color();
        let mut sorted_a = a.hashes().to_vec();
        sorted_a.sort();
        for &s in Symmetry::of_board(w, h) {
            let img = Board::from_position(&a.position().transformed(s));
            prop_assert_eq!(img.canonical_key(), key);
            prop_assert_eq!(img.canonical_key_any_color(), any);
            prop_assert_eq!(img.position().canonical_key(), key);
            // hash(t(s(P))) = hash((s then t)(P)).
            for t in Symmetry::ALL {
                prop_assert_eq!(img.hashes()[t.index()], a.hashes()[s.then(t).index()]);
            }
        }
        let swapped = Board::from_position(&a.position().color_swapped());
        prop_assert_eq!(swapped.canonical_key_any_color(), any);
        prop_assert_eq!(swapped.hashes(), a.swapped_hashes());
        prop_assert_eq!(swapped.swapped_hashes(), a.hashes());
    }

    /// Distinct positions (here: one stone changed) get distinct keys.
    #[test]
    fn one_stone_changes_the_hash((w, h, stones) in stones(), x in 0u8..52, y in 0u8..52, c in color()) {
        let a = board_of(w, h, &stones);
        let p = Point::new(x % w, y % h);
        let mut b = a.clone();
        b.setup(if a.get(p) == Some(c) { None } else { Some(c) }, p);
        prop_assert_ne!(a.hash(), b.hash());
    }
}
