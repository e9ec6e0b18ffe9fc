//! When a corner square came to hold a keyed content, as the corner table answers a key.

/// One time a corner square came to hold a keyed content ([`goban::corner`]): the game, the
/// position (after `k` moves), which corner (0 top left, 1 top right, 2 bottom left, 3 bottom
/// right), whether the key is the hash of the transposed content
/// ([`goban::corner::KeyBuilder::oriented`]) and the move played from the position. With these a
/// pattern that is a whole corner square is answered from the table alone, the move that came
/// next included: no game is replayed. The table answers a key with `(key, event)` pairs; the
/// event does not repeat its key, as the stored lists do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CornerEvent {
    /// The game: within the segment in a segment's table, across the index once read.
    pub game: u32,
    /// The position: after `k` moves of the main line.
    pub k: u32,
    /// Which corner, as [`goban::corner::locate`] numbers them.
    pub corner: u8,
    /// Whether the key is the hash of the content transposed in the corner's frame rather than
    /// as it stands.
    pub transposed: bool,
    /// The move played from the position, as the index codes a next move, or
    /// [`crate::NO_NEXT`].
    pub next: u16,
}
