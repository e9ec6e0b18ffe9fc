//! Finding a position: from the position table when it holds every position with that few
//! stones, else from the games that could hold its stones (the corner table, then the
//! occupancy columns) replayed; from the store's summed cells when they answer the query
//! ([`crate::answers_from_cells`]); exact copies, removed games, the filter and the side to
//! move applied after.

use goban::{Color, Point};
use rayon::prelude::*;

use crate::answer::{ms_since, Answer};
use crate::engine::{
    answers_from_cells, candidates, continuations, from_corners, hits_of, images_of, in_cells,
    mask_of, merge_by_key, on_table, profile_counts, replayed, stones_of, Occurrence, Part,
};
use crate::query::{CellFilter, Filter, PositionQuery};
use crate::store::Store;

/// Finds a position.
pub fn find_position<S: Store>(index: &S, q: &PositionQuery, filter: Filter<'_>) -> Answer {
    let (w, h) = (q.position.width(), q.position.height());
    let images = images_of(q);
    let mask_of = |hash: u64| mask_of(&images, hash);
    let mut found: Vec<Occurrence> = Vec::new();
    let table_path = on_table(index, q);
    let mut hashes: Vec<u64> = images.iter().map(|i| i.hash).collect();
    hashes.sort_unstable();
    hashes.dedup();
    if let (true, Some(first)) = (answers_from_cells(index, q), q.first_hits) {
        let cells = q.aggregates.unwrap_or_default();
        return crate::summed::find(index, &images, &hashes, (w, h), first, &cells);
    }
    let scan: Vec<u32> = if table_path {
        // Every position with this few stones is in the table, with the move that followed it.
        found.reserve(hashes.iter().map(|&h| index.count_occurrences(h)).sum());
        for &hash in &hashes {
            let mask = mask_of(hash);
            found.extend(index.occurrences(hash).map(|e| Occurrence {
                game: e.game,
                k: e.k,
                images: mask,
                next: e.next,
            }));
        }
        // Games too long for the table are replayed.
        index
            .long_games()
            .iter()
            .copied()
            .filter(|&g| index.board(g) == (w, h))
            .collect()
    } else {
        // A game can only reach the position if it ever had its stones.
        let wanted: Vec<Vec<(Color, Point)>> = images
            .iter()
            .map(|im| {
                let t = q.position.transformed(im.sym);
                let t = if im.swapped { t.color_swapped() } else { t };
                stones_of(&t)
            })
            .collect();
        match from_corners(index, q, images.len(), filter, &wanted) {
            Some(games) => games,
            None => candidates(index, w, h, filter, &wanted),
        }
    };
    found.extend(replayed(index, scan, (w, h), table_path, &images));
    // A variation line answers from its branch point on (the table holds nothing of it before;
    // a replay sees its whole line).
    if index.has_lines() {
        found.retain(|o| index.branch(o.game).is_none_or(|from| o.k >= from));
    }
    // The table gives each hash's entries in (game, k) order; only stored games are in it and
    // scanned, so their exact copies are added, then merged in.
    if !found.is_sorted_by_key(|o| (o.game, o.k)) {
        found.sort_unstable_by_key(|o| (o.game, o.k));
    }
    let mut copies: Vec<Occurrence> = found
        .par_iter()
        .flat_map_iter(|o| {
            index
                .copies(o.game)
                .iter()
                .map(move |&c| Occurrence { game: c, ..*o })
        })
        .collect();
    let mut all = if copies.is_empty() {
        found
    } else {
        copies.sort_unstable_by_key(|o| (o.game, o.k));
        merge_by_key(found, copies, |o| (o.game, o.k))
    };
    all.dedup_by_key(|o| (o.game, o.k));
    // Removed games are hidden only now, after their copies (which may not be removed) were
    // found through them.
    if index.has_removed() {
        all.retain(|o| !index.is_removed(o.game));
    }
    if let Some(f) = filter {
        // A long filter (a date range of most games) is looked up as a bitmap: a binary search
        // per occurrence of the empty board cost more than the rest of the search.
        if f.len() > 1 << 12 {
            let mut bits = vec![0u64; (index.len() as usize).div_ceil(64)];
            for &g in f {
                if let Some(w) = bits.get_mut(g as usize / 64) {
                    *w |= 1 << (g % 64);
                }
            }
            all.retain(|o| {
                bits.get(o.game as usize / 64)
                    .is_some_and(|w| w >> (o.game % 64) & 1 == 1)
            });
        } else {
            all.retain(|o| f.binary_search(&o.game).is_ok());
        }
    }
    if let Some(want) = q.to_move {
        all.retain(|o| {
            // The colour to move, in the query's colours.
            let swapped = images
                .iter()
                .enumerate()
                .filter(|(i, _)| o.images & (1 << i) != 0)
                .all(|(_, im)| im.swapped);
            matches!(index.next_move(o.next), Some((c, _)) if (if swapped { c.opponent() } else { c }) == want)
        });
    }
    // The store's cells answer for the table entries of their parts, when the filter is one
    // they can apply and every occurrence kept is one the cells counted or one seen below.
    let (parts, cells) = match q.aggregates {
        Some(cells) if table_path && q.to_move.is_none() => (
            hashes
                .iter()
                .flat_map(|&h| {
                    let mask = mask_of(h);
                    index
                        .aggregates(h)
                        .into_iter()
                        .map(move |agg| Part { mask, agg })
                })
                .collect(),
            cells,
        ),
        _ => (Vec::new(), CellFilter::default()),
    };
    let covered = |o: &Occurrence| in_cells(index, &parts, o);
    let started = std::time::Instant::now();
    let member = |g: u32| all.binary_search_by_key(&g, |o| o.game).is_ok();
    let profile =
        (!parts.is_empty()).then(|| profile_counts(index, &all, &parts, &cells, covered, member));
    let continuations = continuations(
        index,
        &all,
        &images,
        (w, h),
        &parts,
        &cells,
        covered,
        member,
    );
    let tally_ms = ms_since(started);
    Answer {
        continuations,
        hits: hits_of(&all),
        profile,
        counts: None,
        no_continuation: None,
        continued: Vec::new(),
        tally_ms,
    }
}
