//! Where a position stands in the games, as the position table answers a hash.

/// A position of a game where a hash stands, from the position table (the hash is the one
/// asked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// The game.
    pub game: u32,
    /// The position: after `k` moves of its main line.
    pub k: u32,
    /// The move played from it, as the index codes a next move, or [`crate::NO_NEXT`].
    pub next: u16,
}
