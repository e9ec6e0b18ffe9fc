//! One bit per game id: the reader's sets of games (copies, originals with copies, hidden
//! games, variation lines) asked about once per hit, where a hash set would cost a look-up.

/// A set of game ids as one bit each, bit `id % 64` of word `id / 64`. An id past the words
/// is not in the set (a short or empty set answers every id).
#[derive(Debug, Default)]
pub(crate) struct GameBits(Vec<u64>);

impl GameBits {
    /// The set of `ids`, each below `games`.
    pub(crate) fn of(games: u32, ids: impl Iterator<Item = u32>) -> GameBits {
        let mut bits = vec![0u64; games as usize / 64 + 1];
        for g in ids {
            bits[g as usize / 64] |= 1 << (g % 64);
        }
        GameBits(bits)
    }

    /// The set whose words are `words`, as the manifest stores its hidden games.
    pub(crate) fn from_words(words: Vec<u64>) -> GameBits {
        GameBits(words)
    }

    #[inline]
    pub(crate) fn has(&self, id: u32) -> bool {
        self.0
            .get(id as usize / 64)
            .is_some_and(|w| w >> (id % 64) & 1 != 0)
    }

    /// Whether any id is in the set.
    pub(crate) fn any(&self) -> bool {
        self.0.iter().any(|&w| w != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_in_the_set_it_was_put_in_and_no_other() {
        let set = GameBits::of(200, [0, 63, 64, 130].into_iter());
        let held: Vec<u32> = (0..300).filter(|&g| set.has(g)).collect();
        assert_eq!(held, [0, 63, 64, 130]);
        assert!(set.any());
        assert!(!GameBits::of(10, std::iter::empty()).any());
        assert!(!GameBits::default().has(5));
        assert!(GameBits::from_words(vec![0, 1 << 3]).has(67));
    }
}
