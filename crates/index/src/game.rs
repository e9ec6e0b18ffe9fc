//! From one parsed game to what the index stores about it: replay program, position hashes,
//! occupancy, signatures and the winner as continuation tables count it.

use goban::Symmetry;
use sgf::info::Winner;
use sgf::{GameInfo, GameTree};

use crate::ops::{encode_main_line_at, with_removals_into, Op};
use crate::store::{
    GameRec, Occupancy, StoredOps, FLAG_IRREGULAR, FLAG_LONG, FLAG_SKELETON, MAX_INDEXED_STONES,
    MAX_TABLE_MOVE, NO_NEXT,
};

/// A game ready for the store and the metadata index.
pub struct Analysed {
    pub info: GameInfo,
    pub rec: GameRec,
    /// The replay program, ready for `ops.bin`.
    pub ops: StoredOps,
    pub occupancy: Occupancy,
    /// (hash, k, the move after it as an op or [`NO_NEXT`]) of the positions to index.
    pub positions: Vec<(u64, u16, u16)>,
    /// Identical main line (no symmetry): exact copies share it.
    pub exact_signature: u64,
    /// The main line under the best of its symmetries: copies up to rotation/reflection share it.
    pub canonical_signature: u64,
    /// The record to store: its skeleton when `rec.flags` has [`FLAG_SKELETON`] (see
    /// [`crate::skeleton`]), else the record itself.
    pub record: Vec<u8>,
}

/// Analyses a game: replays its main line once, hashing every position. `record` is the game's
/// text (its span of the file).
pub fn analyse(tree: &GameTree<'_>, record: &[u8]) -> Analysed {
    let kept = SCRATCH.try_with(|s| {
        let mut s = s.try_borrow_mut().ok()?;
        let a = analyse_with(tree, record, &mut s);
        // A huge game must not pin its memory to the thread.
        if s.ops.capacity().max(s.full.capacity()) > 1 << 18 {
            *s = Scratch::default();
        }
        Some(a)
    });
    // Without the thread's vectors (a thread being torn down), fresh ones.
    match kept {
        Ok(Some(a)) => a,
        _ => analyse_with(tree, record, &mut Scratch::default()),
    }
}

/// Working vectors of [`analyse`], kept by each thread from one game to the next: with them
/// kept (and the skeleton checked without a copy), indexing all shared games took 10.5 s
/// instead of 11.1 s (alternated runs, BENCHMARKS.md).
#[derive(Default)]
struct Scratch {
    ops: Vec<u16>,
    values: Vec<usize>,
    full: Vec<u16>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

fn analyse_with(tree: &GameTree<'_>, record: &[u8], scratch: &mut Scratch) -> Analysed {
    let info = GameInfo::read(tree);
    let Scratch { ops, values, full } = scratch;
    ops.clear();
    values.clear();
    // Sized once: a main line has at most one node per node of the tree, and a move per node.
    let nodes = tree.node_count().min(1 << 16);
    ops.reserve(nodes + 8);
    values.reserve(nodes);
    let moves = encode_main_line_at(tree, ops, values);
    let skeleton = crate::skeleton::strip(record, tree.span().start, ops, values);
    let stripped = skeleton.is_some();
    let (width, height) = tree.board_size();
    let winner = match info.result.as_ref().and_then(|r| r.value) {
        Some(r) if r.winner == Winner::Black => 1,
        Some(r) if r.winner == Winner::White => 2,
        _ => 0,
    };
    let mut occupancy = Occupancy::default();
    let mut positions = Vec::with_capacity(MAX_INDEXED_STONES as usize + 8);
    let mut long = false;
    let irregular = with_removals_into(
        ops,
        width,
        height,
        |step, b| {
            if b.stone_count() <= MAX_INDEXED_STONES {
                if step.k <= MAX_TABLE_MOVE {
                    let next = step.next.map_or(NO_NEXT, |(c, p)| Op::Move(c, p).encode());
                    positions.push((b.hash(), step.k as u16, next));
                } else {
                    // Found by replay (see FLAG_LONG).
                    long = true;
                }
            }
        },
        full,
    );
    let ops = &*full;
    // Every stone that was ever on the board was put there by a move or by setup.
    if (width, height) == (19, 19) {
        for &v in ops {
            if let Op::Move(c, Some(p)) | Op::Setup(Some(c), p) = Op::decode(v) {
                occupancy.insert(c, p);
            }
        }
    }
    let (exact_signature, canonical_signature) = signatures(ops, width, height);
    Analysed {
        info,
        rec: GameRec {
            moves,
            width,
            height,
            winner,
            flags: if irregular { FLAG_IRREGULAR } else { 0 }
                | if long { FLAG_LONG } else { 0 }
                | if stripped { FLAG_SKELETON } else { 0 },
            duplicate_of: u32::MAX,
            ..GameRec::default()
        },
        ops: StoredOps::new(ops),
        occupancy,
        positions,
        exact_signature,
        canonical_signature,
        record: skeleton.unwrap_or_else(|| record.to_vec()),
    }
}

/// Signatures of a main line: of the ops as they are, and the least over the board's symmetries.
/// Each op's point goes through one lookup table per symmetry; ops are packed four to a word and
/// each word is mixed into the chain of every symmetry: the chains advance side by side, so the
/// processor overlaps their multiplications, and a quarter as many mixes are needed as one per
/// op. The op count ends each chain (padding stays apart).
fn signatures(ops: &[u16], width: u8, height: u8) -> (u64, u64) {
    let syms = Symmetry::of_board(width, height);
    let maps = point_maps(width, height);
    let seed = mix(0x9e37_79b9_7f4a_7c15 ^ ((width as u64) << 8 | height as u64));
    let mut acc = [seed; 8];
    let mut words = [0u64; 8];
    let mut n = 0u64;
    for &v in ops {
        // Marks and removals follow from the rest.
        if Op::is_derived(v) {
            continue;
        }
        let point = (v & POINT_BITS) as usize;
        for (w, map) in words.iter_mut().zip(maps.iter()) {
            let t = v & !POINT_BITS | map.get(point).copied().unwrap_or(point as u16);
            *w = *w << 16 | t as u64;
        }
        n += 1;
        if n.is_multiple_of(4) {
            for (a, w) in acc.iter_mut().zip(&mut words) {
                *a = mix(*a ^ std::mem::take(w));
            }
        }
    }
    for (a, w) in acc.iter_mut().zip(&words).take(syms.len()) {
        *a = mix(mix(*a ^ w) ^ n);
    }
    let exact = acc[syms
        .iter()
        .position(|&s| s == Symmetry::Identity)
        .unwrap_or(0)];
    let best = acc[..syms.len()].iter().copied().min().unwrap_or(exact);
    (exact, best)
}

/// The point bits of an op.
const POINT_BITS: u16 = (1 << 13) - 1;

/// For each symmetry of a `width`×`height` board (in [`Symmetry::of_board`] order), the image of
/// every on-board op point index (`y * 52 + x`); other indices (passes, off-board points) are not
/// in the table and keep their value. Built once for 19×19.
fn point_maps(width: u8, height: u8) -> std::borrow::Cow<'static, [Vec<u16>]> {
    static NINETEEN: std::sync::OnceLock<Vec<Vec<u16>>> = std::sync::OnceLock::new();
    let build = || -> Vec<Vec<u16>> {
        Symmetry::of_board(width, height)
            .iter()
            .map(|&s| {
                let mut map: Vec<u16> = (0..height as u16 * 52).collect();
                for y in 0..height {
                    for x in 0..width {
                        let t = s.apply(goban::Point::new(x, y), width, height);
                        map[y as usize * 52 + x as usize] = t.y as u16 * 52 + t.x as u16;
                    }
                }
                map
            })
            .collect()
    };
    if (width, height) == (19, 19) {
        std::borrow::Cow::Borrowed(NINETEEN.get_or_init(build))
    } else {
        std::borrow::Cow::Owned(build())
    }
}

/// splitmix64's finaliser: a cheap, well-spread mixing step.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf::Records;

    fn analysed(s: &str) -> Analysed {
        let r = Records::read(s.as_bytes());
        let t = r.game(0).unwrap();
        analyse(&t, &s.as_bytes()[t.span().start..t.span().end])
    }

    #[test]
    fn signatures_see_exact_and_symmetric_copies() {
        let a = analysed("(;SZ[19];B[pd];W[dp];B[pp])");
        let b = analysed("(;SZ[19]PB[other];B[pd];W[dp];B[pp])");
        let rotated = analysed("(;SZ[19];B[dd];W[pp];B[dp])");
        let other = analysed("(;SZ[19];B[pd];W[dp];B[qq])");
        assert_eq!(a.exact_signature, b.exact_signature);
        assert_ne!(a.exact_signature, rotated.exact_signature);
        assert_eq!(a.canonical_signature, rotated.canonical_signature);
        assert_ne!(a.canonical_signature, other.canonical_signature);
    }

    #[test]
    fn early_positions_are_hashed_and_occupancy_recorded() {
        let g = analysed("(;SZ[19]RE[W+R];B[aa];W[ba];B[ss])");
        assert_eq!(
            g.positions.iter().map(|p| p.1).collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
        assert_eq!(g.rec.winner, 2);
        assert_eq!(g.rec.moves, 3);
        assert_eq!(g.occupancy.0[0][0] & 1, 1);
        assert_eq!(g.occupancy.0[1][0] & 2, 2);
        assert_eq!(g.occupancy.0[0][5] >> (360 - 320), 1);
    }
}
