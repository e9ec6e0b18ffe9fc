//! The index on disk as the search crate sees it ([`search::Store`]): the one place that knows
//! both, so that the search knows no storage format or limit and the index no search.

use goban::{Bitboard, Color, Point};
use index::ops::Walker;
use index::Occupancy;
use search::store::{CellKey, Change, Changes, CornerEvent, Occurrence, Step, Walk};

use crate::stop::Stop;

/// An opened index, lent to the search, with the query's [`Stop`] if it has one.
pub(crate) struct Games<'a> {
    pub(crate) index: &'a index::Index,
    pub(crate) stop: Option<&'a Stop>,
    /// Whether the search may take the index's shortcuts — the corner table and the vacated
    /// points, which only narrow or end the scan of games — so that tests can compare answers
    /// with and without them.
    pub(crate) shortcuts: bool,
    /// Whether every exact copy counts in continuation tables ([`search::Store::each_copy_counts`]).
    pub(crate) with_copies: bool,
    /// The games counted through another index of a set searched as one, a bit per game
    /// ([`search::Store::counted_elsewhere`]).
    pub(crate) elsewhere: Option<&'a [u64]>,
}

impl<'a> Games<'a> {
    pub(crate) fn new(index: &'a index::Index, stop: Option<&'a Stop>) -> Games<'a> {
        Games {
            index,
            stop,
            shortcuts: true,
            with_copies: true,
            elsewhere: None,
        }
    }
}

/// [`Walker`] as a [`Walk`]: the next move comes out in the store's code.
pub(crate) struct Walking<'o>(Walker<'o>);

impl Walk for Walking<'_> {
    #[inline]
    fn next_position(&mut self, on_change: impl FnMut(Point)) -> Option<Step> {
        let step = self.0.next_position(on_change)?;
        Some(Step {
            k: step.k,
            next: index::ops::next_code(step.next),
        })
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.0.hash()
    }

    #[inline]
    fn stones(&self, color: Color) -> &Bitboard {
        self.0.stones(color)
    }
}

impl search::Store for Games<'_> {
    type Walk<'a> = Walking<'a>;
    type Watch = index::Watch;

    #[inline]
    fn len(&self) -> u32 {
        self.index.len()
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.stop.is_some_and(Stop::is_stopped)
    }

    #[inline]
    fn board(&self, g: u32) -> (u8, u8) {
        self.index.board(g)
    }

    #[inline]
    fn winner(&self, g: u32) -> u8 {
        self.index.winner(g)
    }

    #[inline]
    fn facts(&self, g: u32) -> search::Facts {
        self.index.facts(g)
    }

    fn each_copy_counts(&self) -> bool {
        self.with_copies
    }

    #[inline]
    fn counted_elsewhere(&self, g: u32) -> bool {
        self.elsewhere.is_some_and(|bits| {
            bits.get(g as usize / 64)
                .is_some_and(|w| w >> (g % 64) & 1 != 0)
        })
    }

    #[inline]
    fn original(&self, g: u32) -> Option<u32> {
        self.index
            .is_copy(g)
            .then(|| self.index.game(g).duplicate_of)
    }

    #[inline]
    fn is_copy(&self, g: u32) -> bool {
        self.index.is_copy(g)
    }

    #[inline]
    fn copies(&self, g: u32) -> &[u32] {
        self.index.copies(g)
    }

    fn copied(&self) -> &[u32] {
        self.index.copied()
    }

    fn cell(&self, g: u32) -> CellKey {
        CellKey::of(&self.index.facts(g))
    }

    #[inline]
    fn is_removed(&self, g: u32) -> bool {
        self.index.is_removed(g)
    }

    #[inline]
    fn has_removed(&self) -> bool {
        self.index.has_removed()
    }

    #[inline]
    fn has_lines(&self) -> bool {
        self.index.has_lines()
    }

    fn has_evals(&self) -> bool {
        self.index.has_evals()
    }

    fn analysed(&self) -> Vec<u32> {
        self.index.analysed_ids()
    }

    fn move_eval(&self, g: u32, k: u32) -> Option<search::MoveEval> {
        let (after, lost) = self.index.move_from(g, k as usize)?;
        Some(search::MoveEval {
            win_after: after.win,
            win_loss: lost.win,
            lead: after.lead.zip(lost.lead),
        })
    }

    #[inline]
    fn branch(&self, g: u32) -> Option<u32> {
        self.index.variation(g).map(|v| v.from)
    }

    fn aggregates(&self, hash: u64) -> Vec<search::store::Aggregated> {
        // A part some of whose games count through another index of a set ([`Games::elsewhere`])
        // is read from its entries: its cells count every game of it.
        let elsewhere = |games: &std::ops::Range<u32>| {
            self.elsewhere.is_some_and(|bits| {
                let (first, last) = (games.start / 64, (games.end - 1) / 64);
                (first..=last).any(|word| {
                    let mut mask = u64::MAX;
                    if word == first {
                        mask &= u64::MAX << (games.start % 64);
                    }
                    if word == last {
                        mask &= u64::MAX >> (63 - (games.end - 1) % 64);
                    }
                    bits.get(word as usize).is_some_and(|w| w & mask != 0)
                })
            })
        };
        self.index
            .aggregates(hash)
            .into_iter()
            .filter(|(games, _)| !games.is_empty() && !elsewhere(games))
            .map(|(games, cells)| search::store::Aggregated {
                games,
                moves: cells.moves,
                cells: cells.games,
            })
            .collect()
    }

    fn table_stones(&self) -> u32 {
        index::MAX_INDEXED_STONES
    }

    fn table_moves(&self) -> u32 {
        index::MAX_TABLE_MOVE
    }

    fn long_games(&self) -> &[u32] {
        self.index.long_games()
    }

    fn count_occurrences(&self, hash: u64) -> usize {
        self.index.count_positions(hash)
    }

    fn occurrences_of(
        &self,
        hash: u64,
        games: std::ops::Range<u32>,
    ) -> impl Iterator<Item = Occurrence> + '_ {
        self.index.positions_of(hash, games)
    }

    fn occurrences_of_games(&self, hash: u64, games: &[u32]) -> Vec<Occurrence> {
        self.index.positions_of_games(hash, games)
    }

    #[inline]
    fn occurrences(&self, hash: u64) -> impl Iterator<Item = Occurrence> + '_ {
        self.index.positions(hash)
    }

    #[inline]
    fn next_move(&self, code: u16) -> Option<(Color, Option<Point>)> {
        index::ops::next_move(code)
    }

    fn covering(&self, width: u8, height: u8, needs: &[Vec<(Color, Point)>]) -> Option<Vec<u32>> {
        Some(self.index.covering(&occupancies(width, height, needs)?))
    }

    fn covering_each(
        &self,
        width: u8,
        height: u8,
        needs: &[Vec<(Color, Point)>],
    ) -> Option<Vec<(u32, u64)>> {
        // The per-game bits are what the scan's shortcuts stand on: none without them.
        if !self.shortcuts || needs.len() > 64 {
            return None;
        }
        Some(
            self.index
                .covering_each(&occupancies(width, height, needs)?),
        )
    }

    fn covering_among(
        &self,
        width: u8,
        height: u8,
        games: &[u32],
        needs: &[Vec<(Color, Point)>],
    ) -> Option<Vec<u32>> {
        Some(
            self.index
                .covering_among(games, &occupancies(width, height, needs)?),
        )
    }

    fn corner_events_size(&self, width: u8, height: u8, key: u64) -> Option<usize> {
        (self.shortcuts && goban::corner::has_corners(width, height))
            .then(|| self.index.corner_events_size(key))
    }

    fn corner_games(&self, width: u8, height: u8, key: u64) -> Option<Vec<u32>> {
        (self.shortcuts && goban::corner::has_corners(width, height))
            .then(|| self.index.corner_games(key))
    }

    fn corner_events(
        &self,
        width: u8,
        height: u8,
        keys: &[u64],
    ) -> Option<Vec<(u64, CornerEvent)>> {
        if !self.shortcuts || !goban::corner::has_corners(width, height) {
            return None;
        }
        let mut events = self.index.corner_events(keys);
        // Keys name a corner's content, whatever the board: the games of another board go.
        events.retain(|(_, e)| self.index.board(e.game) == (width, height));
        Some(events)
    }

    #[inline]
    fn vacated(&self, g: u32) -> Option<[u64; 6]> {
        let v = self.index.vacated(g);
        (self.shortcuts && v != index::Vacated::ALL).then_some(v.0)
    }

    #[inline]
    fn had(&self, g: u32, color: Color, p: Point) -> Option<bool> {
        self.shortcuts
            .then(|| self.index.had(g, color, p))
            .flatten()
    }

    #[inline]
    fn load(&self, g: u32, program: &mut Vec<u16>) {
        self.index.ops_into(g, program)
    }

    #[inline]
    fn walk<'a>(
        &self,
        program: &'a [u16],
        width: u8,
        height: u8,
        hashing: bool,
    ) -> Option<Walking<'a>> {
        Walker::new(program, width, height, hashing)
            .ok()
            .map(Walking)
    }

    #[inline]
    fn changes<'a>(&'a self, g: u32, watch: &'a index::Watch) -> Option<impl Changes + 'a> {
        // Whether the program has marks was noted when the game was indexed (a copy's is its
        // original's, which `op_stream` reads).
        let (rec, ops) = self.index.op_stream(g);
        if rec.flags & index::FLAG_MARKS != 0 {
            return None;
        }
        Some(StoredChanges {
            ops,
            watch,
            bulk: self.shortcuts,
        })
    }

    #[inline]
    fn prefetch_changes(&self, g: u32) {
        self.index.prefetch_program(g)
    }

    #[inline]
    fn prefetch_record(&self, g: u32) {
        self.index.prefetch_record(g)
    }

    fn watch(&self, points: &[u64]) -> index::Watch {
        index::Watch::new(|i| points.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1))
    }

    #[inline]
    fn moves<'a>(&self, program: &'a [u16]) -> impl Iterator<Item = (Color, Option<Point>)> + 'a {
        index::ops::moves(program)
    }
}

/// A game's program read as [`Change`]s ([`search::Store::changes`]).
struct StoredChanges<'a> {
    ops: index::Ops<'a>,
    watch: &'a index::Watch,
    /// Whether unwatched ops are passed over in bulk ([`index::Ops::next_watched`]); without the
    /// shortcuts they are read one by one, so that the plain scan checks the bulk one.
    bulk: bool,
}

impl Iterator for StoredChanges<'_> {
    type Item = Change;

    #[inline(always)]
    fn next(&mut self) -> Option<Change> {
        self.ops.next().map(index::ops::change)
    }
}

impl Changes for StoredChanges<'_> {
    #[inline(always)]
    fn next_watched(&mut self) -> (u32, Option<Change>) {
        if self.bulk {
            let (moves, op) = self.ops.next_watched(self.watch);
            return (moves, op.map(index::ops::change));
        }
        let mut moves = 0;
        for c in self.ops.by_ref().map(index::ops::change) {
            if self.watch.follows(c.point) {
                return (moves, Some(c));
            }
            moves += u32::from(c.mover.is_some());
        }
        (moves, None)
    }
}

/// `needs` as the occupancy columns are asked: `None` off 19×19 boards (only they have
/// occupancy) or when a need has no stones (every game meets it).
fn occupancies(width: u8, height: u8, needs: &[Vec<(Color, Point)>]) -> Option<Vec<Occupancy>> {
    if (width, height) != (19, 19) || needs.iter().any(Vec::is_empty) {
        return None;
    }
    Some(
        needs
            .iter()
            .map(|stones| {
                let mut o = Occupancy::default();
                for &(c, p) in stones {
                    o.insert(c, p);
                }
                o
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    //! The shortcuts (corner table, vacated points, occupancy per game) against the plain scan,
    //! on patterns cut from random positions of real games: corners, sides and the middle,
    //! with and without wildcards, in every orientation, with colours swapped or not.

    use super::Games;
    use crate::query::Plan;
    use crate::{build, BuildOptions, Color, Index, Query};
    use testdata::Rng;

    /// A continuation table as (colour, SGF point) rows, in its order.
    fn rows_of(answer: &crate::Answer) -> Vec<(Color, String)> {
        answer
            .continuations
            .iter()
            .map(|c| (c.color, c.point.unwrap().sgf_string()))
            .collect()
    }

    #[test]
    fn shortcuts_answer_as_the_plain_scan_does() {
        let samples =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
        let mut inputs = vec![samples];
        // A few hundred professional games when the shared data is here: enough corners for the
        // table to matter, small enough to index in a second.
        if let Some(fox) = testdata::dataset("fox-pro") {
            inputs.push(fox.join("1p"));
        }
        // A stone that leaves and comes back: its point is vacated, so the scan must go on after
        // the shape first appears.
        let own = testdata::Scratch::new("shortcuts-records");
        own.write(
            "again.sgf",
            b"(;SZ[19];W[cc];B[pp];AE[cc];W[dq];B[qd];W[cc];B[jj])",
        );
        // The shape stands in one corner, then appears in another: the move played in the
        // second corner after it appeared there is mapped back through that corner's
        // placement, not the first one's.
        own.write(
            "two-corners.sgf",
            b"(;SZ[19];B[dd];W[jj];B[pp];W[ba];B[sr])",
        );
        inputs.push(own.0.clone());
        let dir = testdata::Scratch::new("shortcuts");
        let opts = BuildOptions {
            rebuild: true,
            ..BuildOptions::default()
        };
        build(&dir.0, &inputs, &opts, |_| {}).unwrap();
        let index = Index::open(&dir.0).unwrap();
        let mut lone = vec!["???????".to_string(); 19];
        lone[2] = "??O????".into();
        let again = index
            .search(&Query::pattern(&lone.join("\n")).unwrap())
            .unwrap();
        let hit = again
            .hits
            .iter()
            .find(|h| h.info.file == "again.sgf")
            .unwrap();
        assert_eq!(hit.moves, [1, 5]);
        // The same stone as a whole corner square, which the corner table answers alone: it
        // must see the second appearance too, and what was played in the square after each:
        // W cc after the first (after tenuki), nothing after the second.
        let square = ".......\n.......\n..O....\n.......\n.......\n.......\n.......\n";
        let again = index
            .search(&Query::pattern(square).unwrap().within([hit.game]))
            .unwrap();
        assert_eq!(again.hits.len(), 1);
        assert_eq!(again.hits[0].moves, [1, 5]);
        let rows = rows_of(&again);
        assert_eq!(rows, [(Color::White, "cc".into())]);
        let two = (0..index.len())
            .find(|&g| index.game(g).unwrap().file == "two-corners.sgf")
            .unwrap();
        let star = Query::pattern("....\n....\n....\n...X\n")
            .unwrap()
            .within([two]);
        let star = index.search(&star).unwrap();
        assert_eq!(star.hits[0].moves, [1, 3]);
        let rows = rows_of(&star);
        // After move 1 (dd), W ba is the first move in that corner; after move 3 (pp), B sr
        // is the first in the lower right, "ab" seen from there (the smaller of the two images
        // the diagonal symmetry of the shape gives, "ab" and "ba", as for ba itself).
        assert_eq!(rows.len(), 2, "{rows:?}");
        for want in [
            (Color::White, "ab".to_string()),
            (Color::Black, "ab".into()),
        ] {
            assert!(rows.contains(&want), "{rows:?}");
        }
        let nineteen: Vec<u32> = (0..index.len())
            .filter(|&g| {
                let r = index.inner.game(g);
                (r.width, r.height) == (19, 19) && r.moves > 20
            })
            .collect();
        assert!(nineteen.len() >= 5, "{}", nineteen.len());
        let mut rng = Rng::new(0x5eed_c0de_1234_5678);
        let (mut with_hits, mut through_corners, mut answered) = (0, 0, 0);
        let (mut sequences_hit, mut slid_hits) = (0, 0);
        let fast_store = Games::new(&index.inner, None);
        let plain_store = Games {
            shortcuts: false,
            ..Games::new(&index.inner, None)
        };
        // One search with the shortcuts and without: the same hits, positions and continuation
        // table. The plain answer is returned.
        let both = |run: &dyn Fn(&Games<'_>) -> search::Answer, what: &str| {
            let (fast, plain) = (run(&fast_store), run(&plain_store));
            let key = |a: &search::Answer| {
                a.hits
                    .iter()
                    .map(|h| (h.game, h.moves.to_vec()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(key(&fast), key(&plain), "{what}");
            assert_eq!(fast.continuations, plain.continuations, "{what}");
            plain
        };
        for round in 0..1000 {
            let g = nineteen[rng.below(nineteen.len() as u64) as usize];
            let record = index.record(g).unwrap();
            let moves = index.inner.game(g).moves;
            // Half the positions from the opening, where corners hold few stones.
            let span = if rng.below(2) == 0 {
                moves.min(40)
            } else {
                moves
            };
            let at = rng.below(u64::from(span) + 1) as usize;
            let Ok(q) = Query::from_record(&record, Some(at)) else {
                continue;
            };
            let position = q.searched_position().unwrap().clone();
            let diagram = cut(&position, &mut rng);
            let mut query = Query::pattern(&diagram).unwrap();
            query = query
                .symmetry(rng.below(4) != 0)
                .swap_colors(rng.below(3) == 0);
            let Ok(Plan::Pattern(pattern)) = query.plan() else {
                panic!("round {round}: not a pattern plan");
            };
            let plain = both(
                &|s| search::find_pattern(s, &pattern, None),
                &format!("round {round}:\n{diagram}"),
            );
            with_hits += usize::from(!plain.hits.is_empty());
            // Slid anywhere, now and then (thousands of placements, scanned 64 at a time with
            // the shortcuts, all at once without).
            if round % 25 == 0 {
                // The window alone (the board's `?` rows and columns dropped), slid anywhere.
                let rows: Vec<&str> = diagram
                    .lines()
                    .filter(|r| r.contains(['X', 'O', '.']))
                    .collect();
                let fixed = |x: usize| rows.iter().any(|r| b"XO.".contains(&r.as_bytes()[x]));
                let cols: Vec<usize> = (0..rows[0].len()).filter(|&x| fixed(x)).collect();
                let window: Vec<String> = rows
                    .iter()
                    .map(|r| r[cols[0]..=cols[cols.len() - 1]].to_string())
                    .collect();
                let slid = Query::pattern(&window.join("\n"))
                    .unwrap()
                    .symmetry(rng.below(4) != 0);
                let Ok(Plan::Pattern(slid)) = slid.anywhere(true).plan() else {
                    panic!("round {round}: not a pattern plan");
                };
                let plain = both(
                    &|s| search::find_pattern(s, &slid, None),
                    &format!("round {round}, anywhere:\n{diagram}"),
                );
                slid_hits += usize::from(!plain.hits.is_empty());
                // A shape of four stones, which games show in several places: their hits come
                // from several groups and are merged.
                let tiny = ["OX\nXO\n.X", "XXO\n.OO", "X.X\nOXO", ".X.\nXOX"][(round / 25) % 4];
                let Ok(Plan::Pattern(tiny)) = Query::pattern(tiny).unwrap().anywhere(true).plan()
                else {
                    panic!("round {round}: not a pattern plan");
                };
                both(
                    &|s| search::find_pattern(s, &tiny, None),
                    &format!("round {round}, anywhere: {tiny:?}"),
                );
            }
            // A few of the game's moves from `at` on as a sequence: its orientations tried only
            // where the game had their stones, against every orientation tried.
            if let Some(seq) = sequence_at(&fast_store, g, at, 2 + rng.below(3) as usize) {
                let q = Query::moves(&seq, 19)
                    .unwrap()
                    .any_order(rng.below(3) == 0)
                    .any_gap(rng.below(4) == 0)
                    .symmetry(rng.below(4) != 0)
                    .swap_colors(rng.below(3) == 0);
                let Ok(Plan::Sequence(sequence)) = q.plan() else {
                    panic!("round {round}: not a sequence plan");
                };
                let plain = both(
                    &|s| search::find_sequence(s, &sequence, None),
                    &format!("round {round}: {seq}"),
                );
                sequences_hit += usize::from(!plain.hits.is_empty());
            }
            through_corners += usize::from(keys_a_corner(&diagram));
            answered += usize::from(
                keys_a_corner(&diagram)
                    && diagram.bytes().filter(|b| b"XO.".contains(b)).count()
                        == usize::from(goban::corner::SIDE).pow(2),
            );
        }
        // The rounds must have asked something: most patterns come from a game, so they hit it.
        assert!(with_hits > 500, "{with_hits}");
        assert!(sequences_hit > 300, "{sequences_hit}");
        assert!(slid_hits > 20, "{slid_hits}");
        assert!(through_corners > 45, "{through_corners}");
        // And the table must have answered some alone.
        assert!(answered > 30, "{answered} of {through_corners}");
    }

    #[test]
    fn deep_positions_from_the_corners_answer_as_the_plain_scan_does() {
        let samples =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
        let mut inputs = vec![samples];
        if let Some(fox) = testdata::dataset("fox-pro") {
            inputs.extend(["1p", "2p"].map(|rank| fox.join(rank)));
        }
        let dir = testdata::Scratch::new("deep-corners");
        let opts = BuildOptions {
            rebuild: true,
            ..BuildOptions::default()
        };
        build(&dir.0, &inputs, &opts, |_| {}).unwrap();
        let index = Index::open(&dir.0).unwrap();
        let deep = index::MAX_INDEXED_STONES as usize;
        let nineteen: Vec<u32> = (0..index.len())
            .filter(|&g| {
                let r = index.inner.game(g);
                (r.width, r.height) == (19, 19) && r.moves > 40
            })
            .collect();
        assert!(nineteen.len() >= 5, "{}", nineteen.len());
        let mut rng = Rng::new(0xdee9_c0de_8765_4321);
        let (mut asked, mut narrowed, mut hit) = (0, 0, 0);
        for round in 0..400 {
            let g = nineteen[rng.below(nineteen.len() as u64) as usize];
            let record = index.record(g).unwrap();
            let moves = u64::from(index.inner.game(g).moves);
            // Past the table's stones, mostly while the corners still hold few.
            let span = if rng.below(2) == 0 { 30 } else { moves - 20 };
            let at = 20 + rng.below(span) as usize;
            let Ok(q) = Query::from_record(&record, Some(at)) else {
                continue;
            };
            let stones = {
                let p = q.searched_position().unwrap();
                p.stones(Color::Black).len() + p.stones(Color::White).len()
            };
            if stones <= deep {
                continue;
            }
            let q = q.symmetry(rng.below(2) == 0).swap_colors(rng.below(3) == 0);
            let Ok(Plan::Position(position)) = q.plan() else {
                panic!("round {round}: not a position plan");
            };
            // Some rounds behind a filter of a third of the games, the game itself among them.
            let filter: Option<Vec<u32>> = (rng.below(4) == 0).then(|| {
                let mut f: Vec<u32> = (0..index.len()).filter(|_| rng.below(3) == 0).collect();
                f.push(g);
                f.sort_unstable();
                f.dedup();
                f
            });
            let fast = Games::new(&index.inner, None);
            let plain = Games {
                shortcuts: false,
                ..Games::new(&index.inner, None)
            };
            let answer = |store: &Games| search::find_position(store, &position, filter.as_deref());
            let (fast_answer, plain_answer) = (answer(&fast), answer(&plain));
            let key = |a: &search::Answer| {
                a.hits
                    .iter()
                    .map(|h| (h.game, h.moves.to_vec()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(key(&fast_answer), key(&plain_answer), "round {round}");
            assert_eq!(
                fast_answer.continuations, plain_answer.continuations,
                "round {round}"
            );
            assert!(!plain_answer.hits.is_empty(), "round {round}: its own game");
            hit += 1;
            // Every game that holds the position is among those its corners name.
            if let Some(named) = search::corner_candidates(&fast, &position) {
                asked += 1;
                for h in &plain_answer.hits {
                    let original = search::Store::original(&fast, h.game).unwrap_or(h.game);
                    assert!(
                        named.binary_search(&original).is_ok(),
                        "round {round}: game {} not named",
                        h.game
                    );
                }
                narrowed += usize::from(named.len() * 20 < nineteen.len());
            }
        }
        assert!(hit > 200, "{hit}");
        // Most deep positions have a keyed corner, and its content is rare.
        assert!(asked > hit / 2, "{asked} of {hit}");
        assert!(narrowed > asked / 2, "{narrowed} of {asked}");
    }

    /// Whether a diagram fixes a whole corner square holding a number of stones the corner table
    /// keys: the rounds where the table is asked.
    fn keys_a_corner(diagram: &str) -> bool {
        let rows: Vec<&[u8]> = diagram.lines().map(str::as_bytes).collect();
        (0..4).any(|c| {
            let mut stones = 0;
            let mut fixed = true;
            for i in 0..goban::corner::SIDE {
                for j in 0..goban::corner::SIDE {
                    let p = goban::corner::point(c, i, j, 19, 19);
                    match rows[p.y as usize][p.x as usize] {
                        b'X' | b'O' => stones += 1,
                        b'.' => {}
                        _ => fixed = false,
                    }
                }
            }
            fixed && (goban::corner::MIN_STONES..=goban::corner::MAX_STONES).contains(&stones)
        })
    }

    /// Moves `at` to `at + n` of game `g`'s main line as `--moves` text (`B[pd] W[qf] …`), or
    /// `None` when the game ends before or a pass is among them.
    fn sequence_at(store: &Games<'_>, g: u32, at: usize, n: usize) -> Option<String> {
        use search::Store;
        let mut ops = Vec::new();
        store.load(g, &mut ops);
        let moves: Vec<(Color, Option<goban::Point>)> = store.moves(&ops).collect();
        let text: Option<Vec<String>> = moves
            .get(at..at + n)?
            .iter()
            .map(|&(c, p)| {
                let p = p?;
                Some(format!(
                    "{}[{}{}]",
                    c.letter(),
                    (b'a' + p.x) as char,
                    (b'a' + p.y) as char
                ))
            })
            .collect();
        Some(text?.join(" "))
    }

    /// A 19×19 diagram of a window of the position: at a corner, a side or in the middle, 3 to 9
    /// points a side, some points wildcards (or black-or-empty, white-or-empty), turned by a
    /// random symmetry and perhaps with colours swapped.
    fn cut(position: &goban::Position, rng: &mut Rng) -> String {
        // Half the windows big enough to fix a corner square whole.
        let least = if rng.below(2) == 0 {
            3
        } else {
            goban::corner::SIDE
        };
        let span = 10 - u64::from(least);
        let (mut w, mut h) = (least + rng.below(span) as u8, least + rng.below(span) as u8);
        // Some exactly a corner square, which the table answers alone when nothing else is
        // constrained.
        let square = least == goban::corner::SIDE && rng.below(3) != 0;
        if square {
            (w, h) = (least, least);
        }
        let (x0, y0) = match rng.below(if square { 4 } else { 6 }) {
            0 => (0, 0),
            1 => (19 - w, 0),
            2 => (0, 19 - h),
            3 => (19 - w, 19 - h),
            4 => (rng.below(u64::from(20 - w)) as u8, 19 - h),
            _ => (
                rng.below(u64::from(20 - w)) as u8,
                rng.below(u64::from(20 - h)) as u8,
            ),
        };
        let loose = [0, 0, 5, 20][rng.below(4) as usize];
        let sym = goban::Symmetry::ALL[rng.below(8) as usize];
        let swap = rng.below(4) == 0;
        let mut rows = vec![vec![b'?'; 19]; 19];
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                let p = goban::Point::new(x, y);
                let mut c = if position.stones(Color::Black).contains(p) {
                    b'X'
                } else if position.stones(Color::White).contains(p) {
                    b'O'
                } else {
                    b'.'
                };
                if swap {
                    c = match c {
                        b'X' => b'O',
                        b'O' => b'X',
                        c => c,
                    };
                }
                if rng.below(100) < loose {
                    c = match (c, rng.below(2)) {
                        (b'X', 0) | (b'.', 0) => b'x',
                        (b'O', 0) | (b'.', 1) => b'o',
                        _ => b'?',
                    };
                }
                let q = sym.apply(p, 19, 19);
                rows[q.y as usize][q.x as usize] = c;
            }
        }
        rows.into_iter()
            .map(|r| String::from_utf8(r).unwrap() + "\n")
            .collect()
    }
}
