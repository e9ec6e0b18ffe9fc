//! What was played next *there*: the continuation of a pattern or a sequence hit is the first
//! move played later inside the query's region, not the move played next anywhere on the board.
//!
//! A player who draws a corner shape asks what was played next in that corner: the move right
//! after the shape appeared is, in most games, in another corner (the shapes of the opening
//! appear while both players take the big points). So, as Kombilo's continuations and every
//! joseki dictionary do, a hit at position k looks at the moves from the (k+1)-th on and takes
//! the first inside the region; it came **after tenuki** when it is not the (k+1)-th move (a
//! pass, too, is a move elsewhere). A hit after which nothing is ever played there has no
//! continuation, and answers count those apart ([`crate::Answer::no_continuation`]).

use goban::{Color, Point};

/// A rectangle of the board, both corners included: a pattern's region (the bounding rectangle
/// of its constrained points) or a sequence's area.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Region {
    pub(crate) x0: u8,
    pub(crate) y0: u8,
    pub(crate) x1: u8,
    pub(crate) y1: u8,
}

impl Region {
    /// The bounding rectangle of `points`; `None` when there is none.
    pub(crate) fn around(points: impl IntoIterator<Item = Point>) -> Option<Region> {
        let mut r: Option<Region> = None;
        for p in points {
            r = Some(match r {
                None => Region {
                    x0: p.x,
                    y0: p.y,
                    x1: p.x,
                    y1: p.y,
                },
                Some(r) => Region {
                    x0: r.x0.min(p.x),
                    y0: r.y0.min(p.y),
                    x1: r.x1.max(p.x),
                    y1: r.y1.max(p.y),
                },
            });
        }
        r
    }

    /// Whether a move at `p` lies inside (a pass never does).
    #[inline(always)]
    pub(crate) fn holds(&self, p: Option<Point>) -> bool {
        p.is_some_and(|p| (self.x0..=self.x1).contains(&p.x) && (self.y0..=self.y1).contains(&p.y))
    }
}

/// The number of the first of `moves` from `from` on (0-based: `moves[k]` is the (k+1)-th move,
/// the one played from position k) that lies inside `region`.
#[inline]
pub(crate) fn first_inside(
    moves: &[(Color, Option<Point>)],
    from: usize,
    region: Region,
) -> Option<usize> {
    moves
        .get(from..)?
        .iter()
        .position(|&(_, p)| region.holds(p))
        .map(|i| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_move_inside_and_whether_it_waited() {
        let r = Region::around([Point::new(0, 0), Point::new(3, 2)]).unwrap();
        assert!(r.holds(Some(Point::new(3, 2))) && r.holds(Some(Point::new(1, 1))));
        assert!(!r.holds(Some(Point::new(4, 0))) && !r.holds(None));
        let m = |x, y| (Color::Black, Some(Point::new(x, y)));
        let moves = [m(10, 10), (Color::White, None), m(2, 1), m(0, 0)];
        assert_eq!(first_inside(&moves, 0, r), Some(2));
        assert_eq!(first_inside(&moves, 3, r), Some(3));
        assert_eq!(first_inside(&moves, 4, r), None);
        assert_eq!(first_inside(&moves, 9, r), None);
        assert_eq!(Region::around([]), None);
    }
}
