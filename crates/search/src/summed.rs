//! A position answered from the store's pre-aggregated cells, with only the first hits read.
//!
//! The cells of a part of the store sum every table entry of its stored games with a hash: the
//! continuation rows, the date profile and the hit counts (games, positions) by cell. What they
//! do not sum is read one by one, as the scan reads everything: the entries of parts without
//! cells, exact copies (which the table leaves out: they are their originals' positions), the
//! positions of games too long for the table, and, for the profile's once-per-game count, every
//! entry of a game the cells counted under two of the query's hashes (or counted under one and
//! left to the entries under another). Of the hits themselves only the first `first` are read,
//! in game order. A popular position then costs what its cells, its copies and its first hits
//! cost, not what all its games do: the empty board of millions of games is a few thousand
//! cells.

use std::ops::Range;

use crate::answer::{ms_since, Answer, Counts, Hit, Moves};
use crate::engine::{
    continuations, in_cells, mask_of, profile_counts, replayed, summed_in, Image, Occurrence, Part,
};
use crate::query::CellFilter;
use crate::store::Store;

/// Answers a position of `hashes` (its images' distinct hashes, `images` the images) whose
/// filter is `cells` (see [`crate::answers_from_cells`]), listing its first `first` hit games.
pub(crate) fn find<S: Store>(
    index: &S,
    images: &[Image],
    hashes: &[u64],
    (w, h): (u8, u8),
    first: usize,
    cells: &CellFilter,
) -> Answer {
    let passes = |g: u32| !index.is_removed(g) && cells.keeps(&index.cell(g));
    // The parts with cells, each with its hash.
    let mut parts: Vec<Part> = Vec::new();
    let mut part_hashes: Vec<u64> = Vec::new();
    for &hash in hashes {
        for agg in index.aggregates(hash) {
            parts.push(Part {
                mask: mask_of(images, hash),
                agg,
            });
            part_hashes.push(hash);
        }
    }
    // What the cells do not sum: the entries of parts without cells,
    let mut loose: Vec<Occurrence> = Vec::new();
    for &hash in hashes {
        let mask = mask_of(images, hash);
        for games in gaps(&parts, mask, index.len()) {
            loose.extend(
                index
                    .occurrences_of(hash, games)
                    .map(|o| occurrence(o, mask)),
            );
        }
    }
    // the positions of long games past the table,
    let scan: Vec<u32> = index
        .long_games()
        .iter()
        .copied()
        .filter(|&g| index.board(g) == (w, h))
        .collect();
    let past = replayed(index, scan, (w, h), true, images);
    // and exact copies, each hitting where its original does (the originals' entries looked
    // up together, a binary search each).
    let copied = index.copied();
    let mut of_originals = entries_of(index, images, hashes, copied);
    of_originals.extend(
        past.iter()
            .filter(|o| copied.binary_search(&o.game).is_ok()),
    );
    of_originals.sort_unstable_by_key(|o| (o.game, o.k));
    // The originals in the answer, for the rule that counts a copy only without them.
    let mut hit_originals = Vec::new();
    for run in of_originals.chunk_by(|a, b| a.game == b.game) {
        let original = run[0].game;
        if passes(original) {
            hit_originals.push(original);
        }
        for &copy in index.copies(original) {
            loose.extend(run.iter().map(|o| Occurrence { game: copy, ..*o }));
        }
    }
    if index.stopped() {
        return Answer::default();
    }
    loose.extend_from_slice(&past);
    // A game with entries the cells summed beside loose ones, or summed under several hashes,
    // is seen whole, so that the profile counts it once.
    let mut whole: Vec<u32> = loose
        .iter()
        .map(|o| o.game)
        .filter(|&g| !index.is_copy(g) && parts.iter().any(|p| p.agg.games.contains(&g)))
        .collect();
    whole.extend(counted_twice(index, &parts, &part_hashes));
    // The rows' evaluations are not in the cells: the analysed games they summed are read one
    // by one too (none in an index without evaluations, so it reads nothing more).
    whole.extend(
        index
            .analysed()
            .into_iter()
            .filter(|&g| !index.is_copy(g) && parts.iter().any(|p| p.agg.games.contains(&g))),
    );
    whole.sort_unstable();
    whole.dedup();
    for &hash in hashes {
        let mask = mask_of(images, hash);
        let games: Vec<u32> = whole
            .iter()
            .copied()
            .filter(|&g| summed_in(&parts, mask, g))
            .collect();
        loose.extend(entries_of(index, images, &[hash], &games));
    }
    let mut all = loose;
    all.sort_unstable_by_key(|o| (o.game, o.k));
    all.dedup_by_key(|o| (o.game, o.k));
    all.retain(|o| passes(o.game));

    let covered = |o: &Occurrence| in_cells(index, &parts, o);
    // Whether a game is in the answer: asked only of copies (all of which hit through
    // `all`) and their originals.
    let member = |g: u32| {
        all.binary_search_by_key(&g, |o| o.game).is_ok() || hit_originals.binary_search(&g).is_ok()
    };
    let started = std::time::Instant::now();
    let counts = counts(&all, &parts, cells, covered);
    let profile = profile_counts(index, &all, &parts, cells, covered, member);
    let continuations = continuations(index, &all, images, (w, h), &parts, cells, covered, member);
    let tally_ms = ms_since(started);
    Answer {
        hits: first_hits(index, images, hashes, &all, first, passes),
        continuations,
        profile: Some(profile),
        counts: Some(counts),
        no_continuation: None,
        continued: Vec::new(),
        tally_ms,
    }
}

/// The table entries of `games` (ascending) with each of `hashes`, by hash.
fn entries_of<S: Store>(
    index: &S,
    images: &[Image],
    hashes: &[u64],
    games: &[u32],
) -> Vec<Occurrence> {
    let mut out = Vec::new();
    if games.is_empty() {
        return out;
    }
    for &hash in hashes {
        let mask = mask_of(images, hash);
        out.extend(
            index
                .occurrences_of_games(hash, games)
                .into_iter()
                .map(|o| occurrence(o, mask)),
        );
    }
    out
}

fn occurrence(o: crate::store::Occurrence, mask: u16) -> Occurrence {
    Occurrence {
        game: o.game,
        k: o.k,
        images: mask,
        next: o.next,
    }
}

/// The ranges of games `0..len` that no part with cells for the hash of `mask` covers.
fn gaps(parts: &[Part], mask: u16, len: u32) -> Vec<Range<u32>> {
    let mut covered: Vec<&Range<u32>> = parts
        .iter()
        .filter(|p| p.mask == mask)
        .map(|p| &p.agg.games)
        .collect();
    covered.sort_by_key(|r| r.start);
    let mut out = Vec::new();
    let mut from = 0;
    for r in covered {
        if from < r.start {
            out.push(from..r.start.min(len));
        }
        from = from.max(r.end);
    }
    if from < len {
        out.push(from..len);
    }
    out
}

/// Games the cells counted under two or more hashes: in each part where several hashes have
/// cells, the games with entries of more than one (a bit per game of the part, read off each
/// hash's entries in one pass).
fn counted_twice<S: Store>(index: &S, parts: &[Part], part_hashes: &[u64]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut ranges: Vec<&Range<u32>> = parts.iter().map(|p| &p.agg.games).collect();
    ranges.sort_by_key(|r| (r.start, r.end));
    ranges.dedup();
    for range in ranges {
        let hashes: Vec<u64> = parts
            .iter()
            .zip(part_hashes)
            .filter(|(p, _)| p.agg.games == *range)
            .map(|(_, &h)| h)
            .collect();
        if hashes.len() < 2 {
            continue;
        }
        let words = (range.len()).div_ceil(64);
        let (mut seen, mut twice) = (vec![0u64; words], vec![0u64; words]);
        for hash in hashes {
            let mut last = None;
            for o in index.occurrences_of(hash, range.clone()) {
                if last == Some(o.game) {
                    continue;
                }
                last = Some(o.game);
                let i = (o.game - range.start) as usize;
                let bit = 1u64 << (i % 64);
                if seen[i / 64] & bit != 0 {
                    twice[i / 64] |= bit;
                }
                seen[i / 64] |= bit;
            }
        }
        for (w, &word) in twice.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let bit = word.trailing_zeros();
                out.push(range.start + w as u32 * 64 + bit);
                word &= word - 1;
            }
        }
    }
    out
}

/// The hit counts: the cells' games and positions the filter keeps, and the occurrences they
/// did not sum one by one. A game the cells counted under n hashes counts once (n − 1 taken off
/// again); a game they did not count counts once.
fn counts(
    all: &[Occurrence],
    parts: &[Part],
    cells: &CellFilter,
    covered: impl Fn(&Occurrence) -> bool,
) -> Counts {
    let (mut games, mut positions) = (0i64, 0i64);
    for p in parts {
        for c in p.agg.cells.iter().filter(|c| cells.keeps(&c.key)) {
            games += i64::from(c.games);
            positions += i64::from(c.positions);
        }
    }
    for run in all.chunk_by(|a, b| a.game == b.game) {
        let mut masks: smallvec::SmallVec<[u16; 2]> = smallvec::SmallVec::new();
        for o in run {
            if !covered(o) {
                positions += 1;
            } else if !masks.contains(&o.images) {
                masks.push(o.images);
            }
        }
        games += 1 - masks.len() as i64;
    }
    Counts {
        games: games.max(0) as usize,
        positions: positions.max(0) as usize,
    }
}

/// The first `first` hit games, in game order: each hash's table entries and the occurrences
/// read one by one (`all`: copies, positions past the table), merged game by game and kept
/// when the game `passes`.
fn first_hits<S: Store>(
    index: &S,
    images: &[Image],
    hashes: &[u64],
    all: &[Occurrence],
    first: usize,
    passes: impl Fn(u32) -> bool,
) -> Vec<Hit> {
    let mut hits = Vec::new();
    if first == 0 {
        return hits;
    }
    let mut streams: Vec<_> = hashes
        .iter()
        .map(|&hash| {
            let mask = mask_of(images, hash);
            index
                .occurrences(hash)
                .map(move |o| occurrence(o, mask))
                .peekable()
        })
        .collect();
    let mut at = 0;
    let mut visited = 0u32;
    loop {
        let heads = streams.iter_mut().filter_map(|s| s.peek().map(|o| o.game));
        let Some(g) = heads.chain(all.get(at).map(|o| o.game)).min() else {
            break;
        };
        let mut moves = Moves::new();
        for s in &mut streams {
            while let Some(o) = s.next_if(|o| o.game == g) {
                moves.push(o.k);
            }
        }
        while let Some(o) = all.get(at).filter(|o| o.game == g) {
            moves.push(o.k);
            at += 1;
        }
        visited += 1;
        if visited.is_multiple_of(4096) && index.stopped() {
            break;
        }
        if !passes(g) {
            continue;
        }
        moves.sort_unstable();
        moves.dedup();
        hits.push(Hit { game: g, moves });
        if hits.len() == first {
            break;
        }
    }
    hits
}
