//! What one move did: the stone placed, the stones removed and what was irregular about it.
//!
//! Followers of a game (pattern checks, continuation statistics) update their own state from these
//! deltas instead of diffing boards: set `point` to `color` if a stone was placed, then clear every
//! point of `removed`.

use std::fmt;
use std::ops::Deref;

use sgf::{Color, Point};

/// Irregularities of a move. The move is executed all the same; the flags say which rule it broke.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct MoveFlags(u8);

impl MoveFlags {
    /// No flag.
    pub const NONE: MoveFlags = MoveFlags(0);
    /// The mover's own group was left without liberties and removed.
    pub const SUICIDE: MoveFlags = MoveFlags(1);
    /// The move retook a simple ko: it recreated the position before the opponent's previous move.
    pub const KO_RETAKE: MoveFlags = MoveFlags(2);
    /// The point already held a stone, which the new stone replaced (see [`crate::Board::play`]).
    pub const OCCUPIED: MoveFlags = MoveFlags(4);
    /// The point lies off the board; nothing was placed.
    pub const OFF_BOARD: MoveFlags = MoveFlags(8);

    /// Whether every flag of `other` is set.
    #[inline]
    pub const fn contains(self, other: MoveFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// These flags minus those of `other`.
    #[inline]
    pub const fn without(self, other: MoveFlags) -> MoveFlags {
        MoveFlags(self.0 & !other.0)
    }

    /// Whether no flag is set (a legal move or a pass).
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The raw bits (SUICIDE 1, KO_RETAKE 2, OCCUPIED 4, OFF_BOARD 8), e.g. for compact storage.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }
}

impl std::ops::BitOr for MoveFlags {
    type Output = MoveFlags;
    fn bitor(self, rhs: MoveFlags) -> MoveFlags {
        MoveFlags(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for MoveFlags {
    fn bitor_assign(&mut self, rhs: MoveFlags) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for MoveFlags {
    /// The flags in words, as a reader of a replay's notes reads them (`off the board: nothing
    /// placed`), joined by `; `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const WORDS: [(MoveFlags, &str); 4] = [
            (MoveFlags::SUICIDE, "suicide: its own stones taken off"),
            (MoveFlags::KO_RETAKE, "retakes a ko at once"),
            (
                MoveFlags::OCCUPIED,
                "on a point that held a stone, which it replaced",
            ),
            (MoveFlags::OFF_BOARD, "off the board: nothing placed"),
        ];
        let mut first = true;
        for (flag, words) in WORDS {
            if self.contains(flag) {
                if !first {
                    f.write_str("; ")?;
                }
                f.write_str(words)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for MoveFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [(MoveFlags, &str); 4] = [
            (MoveFlags::SUICIDE, "SUICIDE"),
            (MoveFlags::KO_RETAKE, "KO_RETAKE"),
            (MoveFlags::OCCUPIED, "OCCUPIED"),
            (MoveFlags::OFF_BOARD, "OFF_BOARD"),
        ];
        let mut set = f.debug_set();
        for (flag, name) in NAMES {
            if self.contains(flag) {
                set.entry(&format_args!("{name}"));
            }
        }
        set.finish()
    }
}

/// Points stored inline up to this many (most captures are one to a few stones).
const INLINE: usize = 11;

/// A list of points that does not allocate for up to 11 of them. Dereferences to `[Point]`.
#[derive(Clone)]
pub struct StoneList(Repr);

#[derive(Clone)]
enum Repr {
    Inline(u8, [Point; INLINE]),
    Heap(Vec<Point>),
}

impl StoneList {
    /// The empty list.
    pub const fn new() -> StoneList {
        StoneList(Repr::Inline(0, [Point::new(0, 0); INLINE]))
    }

    /// Appends `p`.
    #[inline]
    pub fn push(&mut self, p: Point) {
        match &mut self.0 {
            Repr::Inline(len, pts) if (*len as usize) < INLINE => {
                pts[*len as usize] = p;
                *len += 1;
            }
            Repr::Inline(_, pts) => {
                let mut v = Vec::with_capacity(4 * INLINE);
                v.extend_from_slice(pts);
                v.push(p);
                self.0 = Repr::Heap(v);
            }
            Repr::Heap(v) => v.push(p),
        }
    }

    /// The points as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Point] {
        match &self.0 {
            Repr::Inline(len, pts) => &pts[..*len as usize],
            Repr::Heap(v) => v,
        }
    }
}

impl Default for StoneList {
    fn default() -> Self {
        StoneList::new()
    }
}

impl Deref for StoneList {
    type Target = [Point];
    #[inline]
    fn deref(&self) -> &[Point] {
        self.as_slice()
    }
}

impl PartialEq for StoneList {
    fn eq(&self, other: &StoneList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for StoneList {}

impl fmt::Debug for StoneList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|p| p.sgf_string()))
            .finish()
    }
}

/// The effect of [`crate::Board::play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveOutcome {
    /// The mover.
    pub color: Color,
    /// The point asked for; `None` for a pass. With [`MoveFlags::OFF_BOARD`] it is off the board and
    /// nothing happened.
    pub point: Option<Point>,
    /// What the move broke, if anything.
    pub flags: MoveFlags,
    /// With [`MoveFlags::OCCUPIED`]: the colour of the stone that stood on `point` before.
    pub replaced: Option<Color>,
    /// Stones taken off the board, in row-major order per group: the opponent's captured stones, or,
    /// when [`MoveFlags::SUICIDE`] is set, the mover's own group (which includes `point`).
    pub removed: StoneList,
}

impl MoveOutcome {
    /// The point where a stone was put (it may have been removed again by suicide); `None` for a pass
    /// or an off-board move.
    #[inline]
    pub fn placed(&self) -> Option<Point> {
        if self.flags.contains(MoveFlags::OFF_BOARD) {
            None
        } else {
            self.point
        }
    }

    /// Whether the move was a pass.
    #[inline]
    pub fn is_pass(&self) -> bool {
        self.point.is_none()
    }

    /// The opponent's stones this move captured.
    #[inline]
    pub fn captured(&self) -> &[Point] {
        if self.flags.contains(MoveFlags::SUICIDE) {
            &[]
        } else {
            &self.removed
        }
    }

    /// The colour of the stones in [`MoveOutcome::removed`].
    #[inline]
    pub fn removed_color(&self) -> Color {
        if self.flags.contains(MoveFlags::SUICIDE) {
            self.color
        } else {
            self.color.opponent()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_read_in_words() {
        assert_eq!(
            MoveFlags::OFF_BOARD.to_string(),
            "off the board: nothing placed"
        );
        let mut both = MoveFlags::SUICIDE;
        both |= MoveFlags::KO_RETAKE;
        assert_eq!(
            both.to_string(),
            "suicide: its own stones taken off; retakes a ko at once"
        );
    }

    #[test]
    fn stone_list_spills_to_heap() {
        let mut l = StoneList::new();
        let pts: Vec<Point> = (0..30).map(|i| Point::new(i, i + 1)).collect();
        for (i, &p) in pts.iter().enumerate() {
            l.push(p);
            assert_eq!(&l[..], &pts[..=i]);
        }
        assert_eq!(l.clone(), l);
        assert_eq!(format!("{:?}", StoneList::new()), "[]");
    }

    #[test]
    fn flags() {
        let f = MoveFlags::SUICIDE | MoveFlags::OCCUPIED;
        assert!(f.contains(MoveFlags::SUICIDE));
        assert!(!f.contains(MoveFlags::KO_RETAKE));
        assert!(MoveFlags::NONE.is_empty());
        assert_eq!(format!("{f:?}"), "{SUICIDE, OCCUPIED}");
    }
}
