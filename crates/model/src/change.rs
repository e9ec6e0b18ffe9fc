//! One change a stored game makes to the board, decoded by the index, read by the search.

use goban::Color;

/// One change a stored game makes to the board, in order: the index decodes its ops into these
/// so that the search knows no op bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// `Some(colour)` for a move (position k is the one just before the k+1-th move), `None`
    /// for setup and the stones a move took off.
    pub mover: Option<Color>,
    /// What the point holds afterwards.
    pub content: Option<Color>,
    /// The point as `y * 52 + x`, or a number past every board point for a pass (or a
    /// malformed point).
    pub point: usize,
}
