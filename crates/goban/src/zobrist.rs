//! Zobrist keys and the incremental hashes of a position in all 8 orientations, both colourings.
//!
//! # Definition
//! `hash(P) = size_key(w, h) ⊕ ⨁_{black q} K[q] ⊕ α·⨁_{white q} K[q]`, where `K[q]` is one random
//! 64-bit key per point of the 52×52 grid (shared by every board size; the size key tells sizes
//! apart) and `α·v` is multiplication by `x` in GF(2⁶⁴) (modulus `x⁶⁴+x⁴+x³+x+1`): a shift and a
//! conditional XOR. So the white key of a point is `α·K[q]`, itself uniformly random.
//!
//! Why this shape: one key table serves both colours and the colour swap is free to derive. With
//! `B_T = ⨁_{black q} K[T(q)]` and `W_T = ⨁_{white q} K[T(q)]`, `hash(T(P)) = size_key_T ⊕ B_T ⊕ α·W_T`
//! and the colour-swapped position is `hash(T(swap P)) = size_key_T ⊕ W_T ⊕ α·B_T`. A board keeps
//! those 16 values (8 orientations × 2 colourings) up to date: a stone costs 8 XORs of its keys
//! into one half and 8 XORs of their α-multiples into the other, so reading any key is free. Because α and 1+α are both invertible (α ∉ {0, 1}
//! in a field; even without irreducibility the modulus has an odd number of terms), two different
//! positions collide with probability exactly 2⁻⁶⁴ over the key choice — also when they differ only
//! in the colour of the same stones. (A rotation instead of α would fail that: 1+rotl is singular.)
//!
//! Per board size a table holds, for each point, its 8 keys `K[T(q)]` side by side (64 bytes), so a
//! stone update is one contiguous 64-byte XOR that the compiler vectorises. Tables are built once
//! per size on first use (`OnceLock`); the 52×52 grid of point keys and the size keys are constants
//! computed at compile time from a fixed splitmix64 stream, so hashes are identical across runs,
//! machines and builds, and may be stored in an index.
//!
//! # Width: 64 bits
//! Over N = 10⁹ distinct positions the chance that *some* two share a hash is about N²/2⁶⁵ ≈ 2.7 %;
//! what matters for search is a false match for one query: a canonical key is a minimum over at most
//! 8 (16 with colour swap) orientation hashes, so a query meets a given unrelated position with
//! probability ≤ 64/2⁶⁴ (256/2⁶⁴), i.e. ≤ 1.4·10⁻⁸ against all 10⁹ indexed positions — negligible, and
//! every hit is verified by replay anyway. 128 bits would double index size for no visible gain.

use std::sync::OnceLock;

use sgf::{Point, MAX_SIZE};

use crate::symmetry::Symmetry;

pub(crate) const GRID: usize = MAX_SIZE as usize;
const GRID_POINTS: usize = GRID * GRID;

/// Seed of the key stream ("qipugoba" in ASCII); changing it changes every stored hash.
const SEED: u64 = 0x7169_7075_676f_6261;

/// Low terms of the GF(2⁶⁴) modulus x⁶⁴ + x⁴ + x³ + x + 1.
const MODULUS_LOW: u64 = 0x1b;

/// Output `i` of the splitmix64 stream seeded with [`SEED`] (stateless form, usable in `const fn`).
pub(crate) const fn splitmix64(i: u64) -> u64 {
    let mut z = SEED.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn stream<const N: usize>(start: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut i = 0;
    while i < N {
        keys[i] = splitmix64(start + i as u64);
        i += 1;
    }
    keys
}

/// `K[q]` for the point `q = (x, y)` at index `y * 52 + x`.
pub(crate) static POINT_KEYS: [u64; GRID_POINTS] = stream::<GRID_POINTS>(0);

/// The key of board size `w`×`h` at index `(w - 1) * 52 + (h - 1)`.
static SIZE_KEYS: [u64; GRID_POINTS] = stream::<GRID_POINTS>(GRID_POINTS as u64);

/// Multiplication by α = x in GF(2⁶⁴): the map that turns a black key into the white key.
#[inline]
pub(crate) const fn mul_alpha(v: u64) -> u64 {
    (v << 1) ^ (((v as i64) >> 63) as u64 & MODULUS_LOW)
}

/// The key of point `p` in the 52×52 grid (no bounds check beyond the grid's).
#[inline]
pub(crate) fn point_key(p: Point) -> u64 {
    POINT_KEYS[(p.y as usize % GRID) * GRID + p.x as usize % GRID]
}

/// The key of a `width`×`height` board (sizes taken within 1..=52).
#[inline]
pub(crate) fn size_key(width: u8, height: u8) -> u64 {
    let w = (width.clamp(1, MAX_SIZE) - 1) as usize;
    let h = (height.clamp(1, MAX_SIZE) - 1) as usize;
    SIZE_KEYS[w * GRID + h]
}

/// Keys of the 8 orientations of one point: entry `s.index()` is `K[s(q)]`.
pub(crate) type OrientedKeys = [u64; 8];

static TABLES: [OnceLock<Box<[OrientedKeys]>>; GRID_POINTS] =
    [const { OnceLock::new() }; GRID_POINTS];

/// For a `width`×`height` board (both in 1..=52), the oriented keys of point `(x, y)` at index
/// `y * width + x`. Built on first use, then shared.
pub(crate) fn oriented_table(width: u8, height: u8) -> &'static [OrientedKeys] {
    let (w, h) = (width.clamp(1, MAX_SIZE), height.clamp(1, MAX_SIZE));
    TABLES[(w as usize - 1) * GRID + (h as usize - 1)].get_or_init(|| {
        (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .map(|p| {
                let mut keys = [0u64; 8];
                for s in Symmetry::ALL {
                    keys[s.index()] = point_key(s.apply(p, w, h));
                }
                keys
            })
            .collect()
    })
}

/// The 16 running hashes of a board: every orientation, both colourings, size keys included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Accumulators {
    /// `hash[s]` = `hash(s(P))`.
    hash: [u64; 8],
    /// `swapped[s]` = `hash(s(swap P))`.
    swapped: [u64; 8],
}

impl Accumulators {
    /// The hashes of an empty `width`×`height` board: the size keys of the 8 image boards.
    pub(crate) fn empty(width: u8, height: u8) -> Accumulators {
        let mut size = [0u64; 8];
        for s in Symmetry::ALL {
            let (w, h) = s.image_size(width, height);
            size[s.index()] = size_key(w, h);
        }
        Accumulators {
            hash: size,
            swapped: size,
        }
    }

    /// Adds or removes (the same thing under XOR) a stone of colour index `c` (0 black, 1 white)
    /// whose oriented black keys are `keys`. A black stone adds `K` to the hash and `α·K` to the
    /// swapped hash; a white one the other way round. Written so that it vectorises (SSE2 has no
    /// 64-bit arithmetic shift; the mask is built from a logical shift and a negation).
    #[inline(always)]
    pub(crate) fn toggle(&mut self, c: usize, keys: &OrientedKeys) {
        let (plain, times_alpha) = if c == 0 {
            (&mut self.hash, &mut self.swapped)
        } else {
            (&mut self.swapped, &mut self.hash)
        };
        for i in 0..8 {
            let k = keys[i];
            plain[i] ^= k;
            times_alpha[i] ^= (k << 1) ^ ((k >> 63).wrapping_neg() & MODULUS_LOW);
        }
    }

    /// [`Accumulators::toggle`] for the identity hash alone (`key` = `keys[0]`): the others go
    /// stale, so only `hashes()[0]` may be read after it.
    #[inline(always)]
    pub(crate) fn toggle_identity(&mut self, c: usize, key: u64) {
        self.hash[0] ^= if c == 0 { key } else { mul_alpha(key) };
    }

    /// `hash(s(P))` for every symmetry `s`, indexed by `s.index()`.
    #[inline]
    pub(crate) fn hashes(&self) -> &[u64; 8] {
        &self.hash
    }

    /// `hash(s(swap P))` for every symmetry `s`, colours exchanged.
    #[inline]
    pub(crate) fn swapped_hashes(&self) -> &[u64; 8] {
        &self.swapped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rank over GF(2) of the 64 columns of a linear map given by its images of the unit vectors.
    fn rank(mut cols: Vec<u64>) -> usize {
        let mut rank = 0;
        for bit in 0..64 {
            let Some(i) = (rank..cols.len()).find(|&i| cols[i] >> bit & 1 != 0) else {
                continue;
            };
            cols.swap(rank, i);
            let pivot = cols[rank];
            for (j, c) in cols.iter_mut().enumerate() {
                if j != rank && *c >> bit & 1 != 0 {
                    *c ^= pivot;
                }
            }
            rank += 1;
        }
        rank
    }

    #[test]
    fn alpha_and_one_plus_alpha_are_invertible() {
        let alpha: Vec<u64> = (0..64).map(|i| mul_alpha(1 << i)).collect();
        let one_plus: Vec<u64> = (0..64).map(|i| (1u64 << i) ^ mul_alpha(1 << i)).collect();
        assert_eq!(rank(alpha), 64);
        assert_eq!(rank(one_plus), 64);
    }

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = POINT_KEYS.iter().chain(SIZE_KEYS.iter()).copied().collect();
        all.extend(POINT_KEYS.iter().map(|&k| mul_alpha(k)));
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 3 * GRID_POINTS);
        // The first splitmix64 outputs are fixed forever: stored hashes depend on them.
        assert_eq!(POINT_KEYS[0], splitmix64(0));
    }

    #[test]
    fn oriented_table_matches_symmetry() {
        let t = oriented_table(5, 3);
        assert_eq!(t.len(), 15);
        let p = Point::new(1, 2);
        for s in Symmetry::ALL {
            assert_eq!(t[2 * 5 + 1][s.index()], point_key(s.apply(p, 5, 3)));
        }
        assert_eq!(oriented_table(52, 52).len(), 2704);
    }
}
