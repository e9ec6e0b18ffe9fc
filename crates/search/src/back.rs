//! Moves found on the board taken back into the query's own frame, through the symmetry, the
//! colour swap and (for a query slid `anywhere`) the place of the image that stood there.

use goban::{Color, Point, Symmetry};

/// Orders points as their SGF strings sort (a pass, `""`, first; `A`–`Z` before `a`–`z`),
/// without building the strings.
fn sgf_order(p: Option<Point>) -> (u8, u8) {
    let rank = |c: u8| if c < 26 { c + 27 } else { c - 25 };
    p.map_or((0, 0), |p| (rank(p.x), rank(p.y)))
}

/// How a move found on the board is taken back into the query's own frame: the transformation
/// that turned the query onto the board (symmetry, colours swapped) and, for a query slid
/// `anywhere`, where its image lay. An anchored query's frame is the board (`offset` 0,0);
/// one slid anywhere answers in the diagram's own coordinates, `frame` being the size of its
/// transformed image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Back {
    pub(crate) sym: Symmetry,
    pub(crate) swapped: bool,
    /// The top-left corner of the query's image on the board.
    pub(crate) offset: (u8, u8),
    /// The size of the query's image (the board, for an anchored query).
    pub(crate) frame: (u8, u8),
}

impl Back {
    /// The mapping of a query anchored on a `w`×`h` board.
    pub(crate) fn anchored((sym, swapped): (Symmetry, bool), w: u8, h: u8) -> Back {
        Back {
            sym,
            swapped,
            offset: (0, 0),
            frame: (w, h),
        }
    }

    /// `color` at `point` on the board, in the query's frame and colours; `None` when the
    /// point lies outside the query's image (never for a move inside its region).
    fn apply(&self, color: Color, point: Option<Point>) -> Option<(Color, Option<Point>)> {
        let c = if self.swapped {
            color.opponent()
        } else {
            color
        };
        let p = match point {
            None => None,
            Some(p) => {
                let (x, y) = (
                    p.x.checked_sub(self.offset.0)?,
                    p.y.checked_sub(self.offset.1)?,
                );
                if x >= self.frame.0 || y >= self.frame.1 {
                    return None;
                }
                Some(
                    self.sym
                        .inverse()
                        .apply(Point::new(x, y), self.frame.0, self.frame.1),
                )
            }
        };
        Some((c, p))
    }
}

/// A move played next, mapped back into the query's frame through the images that stood where
/// it was played: of all the images' answers, the smallest SGF point, as the oracle says. `None`
/// when no image is given (or none holds the point).
pub(crate) fn map_back(
    images: impl Iterator<Item = Back>,
    color: Color,
    point: Option<Point>,
) -> Option<(Color, Option<Point>)> {
    images
        .filter_map(|b| b.apply(color, point))
        .min_by_key(|&(_, p)| sgf_order(p))
}
