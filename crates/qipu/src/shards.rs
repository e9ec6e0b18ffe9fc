//! Several indexes searched as one: a corpus sharded by time or by source, each part an index
//! folder of its own, answered as one index holding all their games would answer.
//!
//! The games of the set are numbered in the order of its indexes: those of the first index
//! first (`0..len₀`), then those of the second (`len₀..len₀+len₁`), and so on — the numbers one
//! index would give them, built from the parts' inputs in that order. Every search runs on each
//! index in turn (each on all the cores of the caller's pool) and the answers are merged:
//! hits concatenated in that order, then sorted and paged as asked; continuation rows summed move
//! by move (the example of a row is the best over all indexes, of equals the first in the set);
//! the date profile summed period by period.
//!
//! **Copies across indexes.** One index stores an exact copy of a game once and, unless every
//! copy is to count ([`Query::with_copies`]), counts a set of copies in the answer once. Across
//! indexes the same holds: a game whose main line is exactly that of a game of an earlier index
//! (their exact signatures, [`index::Index::exact_signature`], are equal) is marked as a copy in
//! hits, and counts in no statistics when a copy of it in an earlier index is in the answer —
//! what one index holding both would do. Which games have such a copy is worked out once per
//! opened set, at its first search (the signatures of every game, read from each index's
//! `sigs.bin`, 16 bytes a game: a hash map of the smaller indexes' signatures, the largest
//! index streamed past it), not at open, which reads no more than opening each index does.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use crate::answer::{Answer, GameId, GameInfo, Hit, MainLine};
use crate::error::{Error, QueryError, QueryPart};
use crate::query::{Plan, Query};
use crate::reader::{describe, Counts, Found, Index};

/// Several indexes opened to be searched as one (see the [module docs](self)): the face of
/// [`Index`] over all their games, numbered in the order the indexes were given. `Send + Sync`
/// like [`Index`].
pub struct Shards {
    parts: Vec<Index>,
    /// The number of the first game of each part in the set.
    firsts: Vec<GameId>,
    len: GameId,
    copies: OnceLock<CrossCopies>,
}

const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Shards>();
};

/// Which games of each part have an exact copy in an earlier part.
struct CrossCopies {
    /// Per part: those games (in its own numbers, ascending) with their exact signature.
    twins: Vec<Vec<(GameId, u64)>>,
    /// The signatures held by games of more than one part.
    shared: HashSet<u64>,
}

/// One index as a set of one: answers, numbers and statistics are the index's own.
impl From<Index> for Shards {
    fn from(index: Index) -> Shards {
        let len = index.len();
        Shards {
            parts: vec![index],
            firsts: vec![0],
            len,
            copies: OnceLock::new(),
        }
    }
}

impl Shards {
    /// Opens the indexes in `dirs`, in that order (at least one). Each opens as
    /// [`Index::open`] opens one, with the same errors; the same folder given twice is refused
    /// (its games would count twice).
    pub fn open<P: AsRef<Path>>(dirs: impl IntoIterator<Item = P>) -> Result<Shards, Error> {
        let mut parts = Vec::new();
        let mut seen: Vec<PathBuf> = Vec::new();
        for dir in dirs {
            let dir = dir.as_ref();
            let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            if seen.contains(&canonical) {
                return Err(QueryError::new(
                    QueryPart::Nothing,
                    format!("the index {} is given twice", dir.display()),
                )
                .into());
            }
            seen.push(canonical);
            parts.push(Index::open(dir)?);
        }
        Shards::of(parts)
    }

    /// The indexes given, already opened, searched as one in that order (at least one).
    pub fn of(parts: Vec<Index>) -> Result<Shards, Error> {
        if parts.is_empty() {
            return Err(QueryError::new(QueryPart::Nothing, "no index given").into());
        }
        let mut firsts = Vec::with_capacity(parts.len());
        let mut len: u64 = 0;
        for part in &parts {
            firsts.push(len as GameId);
            len += u64::from(part.len());
        }
        let len = GameId::try_from(len).map_err(|_| {
            Error::from(QueryError::new(
                QueryPart::Nothing,
                format!(
                    "these indexes hold {len} games together: a set searched as one holds at most {}",
                    GameId::MAX
                ),
            ))
        })?;
        Ok(Shards {
            parts,
            firsts,
            len,
            copies: OnceLock::new(),
        })
    }

    /// The indexes of the set, in its order.
    pub fn indexes(&self) -> &[Index] {
        &self.parts
    }

    /// Number of games of all the indexes (ids are `0..len`).
    pub fn len(&self) -> GameId {
        self.len
    }

    /// Whether no index holds a game.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Which index holds game `id` of the set (its place in [`Shards::indexes`]), and its number
    /// there; `None` past the last game.
    pub fn locate(&self, id: GameId) -> Option<(usize, GameId)> {
        if id >= self.len {
            return None;
        }
        let i = self.firsts.partition_point(|&f| f <= id) - 1;
        // Parts without games share their first number with the next: take the one holding it.
        let i = (i..self.parts.len()).find(|&i| id - self.firsts[i] < self.parts[i].len())?;
        Some((i, id - self.firsts[i]))
    }

    /// The index holding game `id` and its number there, or the user's error.
    fn part(&self, id: GameId) -> Result<(&Index, GameId), Error> {
        self.locate(id)
            .map(|(i, g)| (&self.parts[i], g))
            .ok_or_else(|| {
                QueryError::new(
                    QueryPart::Game,
                    format!("game {id}: the indexes hold {} games", self.len),
                )
                .into()
            })
    }

    /// Answers `query` over every index of the set, as one index holding all their games would
    /// (see the [module docs](self)), on the caller's rayon pool.
    pub fn search(&self, query: &Query) -> Result<Answer, Error> {
        let mut plan = query.plan()?;
        let started = Instant::now();
        // Copies across indexes are marked in every answer, and count once unless each is to.
        let copies = (self.parts.len() > 1).then(|| self.cross_copies());
        let once = copies.filter(|_| !query.with_copies);
        // Which games of an earlier index are in the answer decides what a later one counts:
        // then every hit is read, not only the first ones.
        if once.is_some_and(|c| !c.shared.is_empty()) {
            match &mut plan {
                Plan::Position(q) => q.first_hits = None,
                Plan::Metadata { first_hits } => *first_hits = None,
                _ => {}
            }
        }
        let mut counts = Counts::default();
        let mut tally_ms = 0.0;
        // Signatures of games of earlier parts in the answer that a later part holds too.
        let mut answered: HashSet<u64> = HashSet::new();
        let mut hits = Vec::new();
        let mut rows: std::collections::HashMap<_, search::Tally> =
            std::collections::HashMap::new();
        let mut profile: Option<crate::Profile> = None;
        for (i, part) in self.parts.iter().enumerate() {
            let first = self.firsts[i];
            let within: Option<Vec<GameId>> = query.allowed().map(|ids| {
                let end = first + part.len();
                ids.iter()
                    .filter(|&&g| (first..end).contains(&g))
                    .map(|&g| g - first)
                    .collect()
            });
            let elsewhere: Option<Vec<u64>> = once.and_then(|c| {
                let mut bits = vec![0u64; (part.len() as usize).div_ceil(64)];
                let mut any = false;
                for &(g, sig) in &c.twins[i] {
                    if answered.contains(&sig) {
                        bits[g as usize / 64] |= 1 << (g % 64);
                        any = true;
                    }
                }
                any.then_some(bits)
            });
            let found = part.find(query, &plan, within.as_deref(), elsewhere.as_deref())?;
            if let Some(c) = once.filter(|c| !c.shared.is_empty()) {
                for h in &found.hits {
                    let sig = part.inner.exact_signature(h.game);
                    if c.shared.contains(&sig) {
                        answered.insert(sig);
                    }
                }
            }
            counts += found.counts;
            tally_ms += found.tally_ms;
            hits.extend(found.hits.into_iter().map(|mut h| {
                h.game += first;
                h
            }));
            for mut c in found.continuations {
                c.tally.rebase(first);
                rows.entry((c.color, c.point)).or_default().merge(&c.tally);
            }
            match &mut profile {
                Some(p) => p.merge(found.profile),
                None => profile = Some(found.profile),
            }
        }
        // Each part was checked as its search ended, but the signatures read after it decide
        // what later parts count: every part is checked again once all are read.
        for part in &self.parts {
            part.inner.check_intact()?;
        }
        let found = Found {
            hits,
            counts,
            tally_ms,
            continuations: search::sorted_rows(rows),
            continued: Vec::new(),
            profile: profile.unwrap_or_default(),
        };
        let search_ms = started.elapsed().as_secs_f64() * 1e3;
        let at = |g: GameId| match self.locate(g) {
            Some((i, g)) => (&self.parts[i], g),
            None => (&self.parts[0], 0),
        };
        let copy_elsewhere = |g: GameId| {
            copies.is_some_and(|c| {
                self.locate(g)
                    .is_some_and(|(i, g)| c.twins[i].binary_search_by_key(&g, |&(t, _)| t).is_ok())
            })
        };
        describe(at, copy_elsewhere, found, query, search_ms)
    }

    /// Answers `query` on `pool`: the search's parallel work runs on its threads only.
    pub fn search_in(&self, query: &Query, pool: &rayon::ThreadPool) -> Result<Answer, Error> {
        pool.install(|| self.search(query))
    }

    /// Which games have an exact copy in an earlier part: worked out at the first search that
    /// needs it, then kept.
    fn cross_copies(&self) -> &CrossCopies {
        self.copies.get_or_init(|| {
            use std::collections::HashMap;
            // Removed games are no copy; variation lines are no games (they have no signature).
            let games = |i: usize| {
                let p = &self.parts[i].inner;
                (0..p.len())
                    .filter(move |&g| !p.is_removed(g) && !p.is_line(g))
                    .map(move |g| (g, p.exact_signature(g)))
            };
            // Every signature of all parts but the largest, with the first part holding it; the
            // largest part (most of a corpus, often) is only streamed past that map, so the
            // cost is a hash look-up per game and a map the size of the smaller parts.
            let largest = (0..self.parts.len())
                .max_by_key(|&i| (self.parts[i].len(), std::cmp::Reverse(i)))
                .unwrap_or(0);
            let mut first: HashMap<u64, usize> = HashMap::new();
            for i in (0..self.parts.len()).filter(|&i| i != largest) {
                for (_, sig) in games(i) {
                    first.entry(sig).or_insert(i);
                }
            }
            let mut twins: Vec<Vec<(GameId, u64)>> = vec![Vec::new(); self.parts.len()];
            let mut in_largest: HashSet<u64> = HashSet::new();
            for (g, sig) in games(largest) {
                if let Some(&i) = first.get(&sig) {
                    in_largest.insert(sig);
                    if i < largest {
                        twins[largest].push((g, sig));
                    }
                }
            }
            for i in (0..self.parts.len()).filter(|&i| i != largest) {
                for (g, sig) in games(i) {
                    let earliest = match in_largest.contains(&sig) {
                        true => first[&sig].min(largest),
                        false => first[&sig],
                    };
                    if earliest < i {
                        twins[i].push((g, sig));
                    }
                }
            }
            let shared = twins.iter().flatten().map(|&(_, sig)| sig).collect();
            CrossCopies { twins, shared }
        })
    }

    /// Counts, sizes, the date range and the `top` most frequent players and events of all
    /// the indexes, as one index of all their games would give them: sums, with exact copies
    /// across indexes counted as duplicates, and players and events counted over every index
    /// before the most frequent are taken (players grouped by the first index's alias list).
    /// Copies up to symmetry are those of each index, plus the exact copies across indexes.
    pub fn stats(&self, top: usize) -> Result<crate::Stats, Error> {
        if self.parts.len() == 1 {
            return self.parts[0].stats(top);
        }
        let each: Vec<crate::Stats> = self
            .parts
            .iter()
            .map(Index::counts)
            .collect::<Result<_, _>>()?;
        let copies = self.cross_copies();
        // A game with an exact copy in an earlier index is a duplicate, unless it already is
        // one in its own.
        let across: u64 = copies
            .twins
            .iter()
            .zip(&self.parts)
            .map(|(twins, p)| twins.iter().filter(|&&(g, _)| !p.inner.is_copy(g)).count() as u64)
            .sum();
        let sum = |f: fn(&crate::Stats) -> u64| each.iter().map(f).sum::<u64>();
        let games = sum(|s| s.games);
        let duplicates = sum(|s| s.duplicates) + across;
        let bytes = sum(|s| s.bytes);
        let mut parts: Vec<(String, u64)> = Vec::new();
        for (name, n) in each.iter().flat_map(|s| s.parts.iter()) {
            match parts.iter_mut().find(|(k, _)| k == name) {
                Some((_, m)) => *m += n,
                None => parts.push((name.clone(), *n)),
            }
        }
        let date_range = each
            .iter()
            .filter_map(|s| s.date_range.clone())
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)));
        let mut players: std::collections::HashMap<String, u64> = Default::default();
        let mut events: std::collections::HashMap<String, u64> = Default::default();
        for p in &self.parts {
            for (name, n) in p.inner.player_counts()? {
                *players.entry(name).or_default() += n;
            }
            for (event, n) in p.inner.top("event", usize::MAX)? {
                *events.entry(event).or_default() += n;
            }
        }
        let top_players = self.parts[0]
            .inner
            .meta()
            .group_players(players, top)
            .into_iter()
            .map(|p| (p.name, p.games, p.also))
            .collect();
        let mut top_events: Vec<(String, u64)> = events.into_iter().collect();
        top_events.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        top_events.truncate(top);
        let first = &each[0];
        Ok(crate::Stats {
            games,
            distinct: games.saturating_sub(duplicates),
            duplicates,
            symmetric_duplicates: sum(|s| s.symmetric_duplicates) + across,
            rejected: sum(|s| s.rejected),
            files: sum(|s| s.files),
            files_without_games: sum(|s| s.files_without_games),
            bytes,
            bytes_per_game: bytes.checked_div(games).unwrap_or(0),
            parts,
            date_range,
            top_players,
            top_events,
            // Said when any index of the set takes variation lines.
            variation_lines: each
                .iter()
                .filter_map(|s| s.variation_lines)
                .reduce(|a, b| a + b),
            variation_lines_left: each
                .iter()
                .filter_map(|s| s.variation_lines_left)
                .reduce(|a, b| a + b),
            alias_players: first.alias_players,
            aliases_file: first.aliases_file.clone(),
        })
    }

    /// What the index holding game `id` knows of it without reading its record.
    pub fn game(&self, id: GameId) -> Result<GameInfo, Error> {
        let (part, g) = self.part(id)?;
        let mut info = part.game(g)?;
        if !info.copy && self.parts.len() > 1 {
            let (i, g) = self.locate(id).expect("located above");
            info.copy = self.cross_copies().twins[i]
                .binary_search_by_key(&g, |&(t, _)| t)
                .is_ok();
        }
        Ok(info)
    }

    /// Whether `id` is a variation line of a record rather than a game (see
    /// [`Index::is_variation`]).
    pub fn is_variation(&self, id: GameId) -> bool {
        self.part(id).is_ok_and(|(part, g)| part.is_variation(g))
    }

    /// Which variation line `id` is, when it is one, its game numbered as the set numbers it.
    pub fn variation(&self, id: GameId) -> Option<crate::Variation> {
        let (part, g) = self.part(id).ok()?;
        part.variation(g).map(|mut v| {
            v.game += id - g;
            v
        })
    }

    /// Where game `id` was read from (see [`Index::identity`]).
    pub fn identity(&self, id: GameId) -> Result<(&str, u32), Error> {
        let (part, g) = self.part(id)?;
        part.identity(g)
    }

    /// Where game `id`'s record file is on disk (see [`Index::path`]).
    pub fn path(&self, id: GameId) -> Option<PathBuf> {
        let (part, g) = self.part(id).ok()?;
        part.path(g)
    }

    /// The original record text of game `id` (see [`Index::record`]).
    pub fn record(&self, id: GameId) -> Result<Vec<u8>, Error> {
        let (part, g) = self.part(id)?;
        part.record(g)
    }

    /// The main line of game `id` (see [`Index::main_line`]).
    pub fn main_line(&self, id: GameId) -> Result<MainLine, Error> {
        let (part, g) = self.part(id)?;
        part.main_line(g)
    }

    /// The position after `at` moves of game or line `id` (see [`Index::position_at`]).
    pub fn position_at(&self, id: GameId, at: usize) -> Result<crate::Position, Error> {
        let (part, g) = self.part(id)?;
        part.position_at(g, at)
    }

    /// The hit games as one SGF collection (see [`Index::export_sgf`]).
    pub fn export_sgf(&self, hits: &[Hit]) -> Result<Vec<u8>, Error> {
        crate::reader::export_sgf(hits, |g| self.record(g))
    }
}
