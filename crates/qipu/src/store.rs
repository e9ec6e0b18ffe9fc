//! The index on disk as the search crate sees it ([`search::Store`]): the one place that knows
//! both, so that the search knows no storage format or limit and the index no search.

use goban::{Bitboard, Color, Point};
use index::ops::{Op, Raw, RawKind, Walker};
use index::Occupancy;
use search::store::{Change, Occurrence, Step, Walk};

use crate::stop::Stop;

/// An opened index, lent to the search, with the query's [`Stop`] if it has one.
pub(crate) struct Games<'a>(pub(crate) &'a index::Index, pub(crate) Option<&'a Stop>);

// The search's "no next move" is the table's.
const _: () = assert!(search::store::NO_NEXT == index::NO_NEXT);

/// [`Walker`] as a [`Walk`]: the next move comes out in the store's code.
pub(crate) struct Walking<'o>(Walker<'o>);

impl Walk for Walking<'_> {
    #[inline]
    fn next_position(&mut self, on_change: impl FnMut(Point)) -> Option<Step> {
        let step = self.0.next_position(on_change)?;
        Some(Step {
            k: step.k,
            next: step
                .next
                .map_or(index::NO_NEXT, |(c, p)| Op::Move(c, p).encode()),
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

    #[inline]
    fn len(&self) -> u32 {
        self.0.len()
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.1.is_some_and(Stop::is_stopped)
    }

    #[inline]
    fn board(&self, g: u32) -> (u8, u8) {
        let r = self.0.game(g);
        (r.width, r.height)
    }

    #[inline]
    fn winner(&self, g: u32) -> u8 {
        self.0.winner(g)
    }

    #[inline]
    fn original(&self, g: u32) -> Option<u32> {
        self.0.is_copy(g).then(|| self.0.game(g).duplicate_of)
    }

    #[inline]
    fn is_copy(&self, g: u32) -> bool {
        self.0.is_copy(g)
    }

    #[inline]
    fn copies(&self, g: u32) -> &[u32] {
        self.0.copies(g)
    }

    #[inline]
    fn is_removed(&self, g: u32) -> bool {
        self.0.is_removed(g)
    }

    #[inline]
    fn has_removed(&self) -> bool {
        self.0.has_removed()
    }

    fn table_stones(&self) -> u32 {
        index::MAX_INDEXED_STONES
    }

    fn table_moves(&self) -> u32 {
        index::MAX_TABLE_MOVE
    }

    fn long_games(&self) -> &[u32] {
        self.0.long_games()
    }

    fn count_occurrences(&self, hash: u64) -> usize {
        self.0.count_positions(hash)
    }

    #[inline]
    fn occurrences(&self, hash: u64) -> impl Iterator<Item = Occurrence> + '_ {
        self.0.positions(hash).map(|e| Occurrence {
            game: e.game,
            k: e.k as u32,
            next: e.next,
        })
    }

    #[inline]
    fn next_move(&self, code: u16) -> Option<(Color, Option<Point>)> {
        match (code != index::NO_NEXT).then(|| Op::decode(code)) {
            Some(Op::Move(c, p)) => Some((c, p)),
            _ => None,
        }
    }

    fn covering(&self, width: u8, height: u8, needs: &[Vec<(Color, Point)>]) -> Option<Vec<u32>> {
        // Only 19×19 games have occupancy, and a need without stones is met by every game.
        if (width, height) != (19, 19) || needs.iter().any(Vec::is_empty) {
            return None;
        }
        let needs: Vec<Occupancy> = needs
            .iter()
            .map(|stones| {
                let mut o = Occupancy::default();
                for &(c, p) in stones {
                    o.insert(c, p);
                }
                o
            })
            .collect();
        Some(self.0.covering(&needs))
    }

    #[inline]
    fn load(&self, g: u32, program: &mut Vec<u16>) {
        self.0.ops_into(g, program)
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
    fn changes<'a>(&self, program: &'a [u16]) -> Option<impl Iterator<Item = Change> + 'a> {
        if program.iter().any(|&v| Raw::split(v).kind == RawKind::Mark) {
            return None;
        }
        Some(program.iter().map(|&v| {
            let op = Raw::split(v);
            let (mover, content) = match op.kind {
                RawKind::Move(c) => (Some(c), Some(c)),
                RawKind::Put(content) => (None, content),
                // Not in a program without marks (checked above).
                RawKind::Mark => (None, None),
            };
            Change {
                mover,
                content,
                point: op.point,
            }
        }))
    }

    #[inline]
    fn moves<'a>(&self, program: &'a [u16]) -> impl Iterator<Item = (Color, Option<Point>)> + 'a {
        program.iter().filter_map(|&v| match Op::decode(v) {
            Op::Move(c, p) => Some((c, p)),
            _ => None,
        })
    }
}
