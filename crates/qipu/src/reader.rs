//! An index opened for searching: queries in, plain answers out; the games behind the answers.

use std::path::{Path, PathBuf};
use std::time::Instant;

use search::{find_pattern, find_position, find_sequence};
use sgf::Records;

use crate::answer::{
    Answer, Continuation, GameId, GameInfo, Hit, MainLine, Move, Summary, Timings,
};
use crate::error::{Error, QueryError, QueryPart};
use crate::query::{Plan, Query, Sort};
use crate::stop::Stop;
use crate::store::Games;
use crate::{Color, Position};

/// An index of game records, opened for searching. Opening reads only what every search needs
/// (the manifest, the small per-game tables; the rest is memory-mapped), creates and locks
/// nothing, so an index can be searched while a writer adds to it (a search sees the state when
/// it was opened) and by users who cannot write to it.
///
/// `Index` is `Send + Sync`: open it once and share it (`Arc<Index>`) among the threads of a
/// server. A search runs on the rayon thread pool it is called on: [`Index::search_in`] takes
/// one explicitly; [`Index::search`] uses the caller's (the pool whose
/// [`rayon::ThreadPool::install`] it runs in, else rayon's global pool).
pub struct Index {
    pub(crate) inner: index::Index,
    dir: PathBuf,
}

// What the documentation above promises, checked at compile time.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Index>();
};

/// One damaged file of an index, as [`Index::verify`] finds it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Damage {
    /// The file (or folder).
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: String,
}

/// Counts and sizes of an index (what `qipu stats` prints). Serialised, it is what `qipu stats
/// --json` prints and `qipu serve` answers at `/api/stats`: one shape for both.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Games, exact copies included (variation lines are not games).
    pub games: u64,
    /// Variation lines indexed (`qipu index --variations`); serialised only when the index
    /// takes them, with `variation_lines_left`, the lines left out by the bounds per record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variation_lines: Option<u64>,
    /// Variation lines left out by the bounds per record (each such record is named in the
    /// report, `rejected.jsonl`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variation_lines_left: Option<u64>,
    /// Games that are not an exact copy of an earlier one.
    pub distinct: u64,
    /// Exact copies of an earlier game (same main line).
    pub duplicates: u64,
    /// Copies of an earlier game up to rotation and reflection, exact copies included.
    pub symmetric_duplicates: u64,
    /// Games that could not be read and were left out.
    pub rejected: u64,
    /// Record files read.
    pub files: u64,
    /// Of those, files in which no game was found.
    pub files_without_games: u64,
    /// Bytes of the whole index folder.
    pub bytes: u64,
    /// `bytes` per game.
    pub bytes_per_game: u64,
    /// Bytes of each part of the game store, by part name (an object by name when serialised).
    #[serde(serialize_with = "by_name")]
    pub parts: Vec<(String, u64)>,
    /// The first and last day of the games' dates (`YYYY-MM-DD`), if any is dated.
    pub date_range: Option<(String, String)>,
    /// The most frequent players: the name each is shown under, its game count (once per side
    /// its names hold) and its other names found in the index, most frequent first. A player
    /// with several names counts once: the names of one line of the index's alias list are one
    /// player, shown under the line's first name, and so are names that differ only in case,
    /// spacing or the simplified / traditional / Japanese form of a character (shown under the
    /// most frequent). Serialised as `[name, games, [other names]]`.
    pub top_players: Vec<(String, u64, Vec<String>)>,
    /// The most frequent events, with their game counts.
    pub top_events: Vec<(String, u64)>,
    /// Players in the index's alias list (0: aliases off).
    pub alias_players: usize,
    /// Where the index keeps its alias list (a path of this machine: not serialised, so a
    /// server does not give it out).
    #[serde(skip)]
    pub aliases_file: PathBuf,
}

/// `(name, bytes)` pairs as one JSON object.
fn by_name<S: serde::Serializer>(parts: &[(String, u64)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(parts.iter().map(|(k, v)| (k, v)))
}

impl Index {
    /// Opens the index in `dir`. A missing index is [`crate::ErrorKind::NoIndex`], one of another
    /// format version [`crate::ErrorKind::OldIndex`], a file cut short
    /// [`crate::ErrorKind::DamagedIndex`] (checked by length here; by checksum with
    /// [`Index::verify`]).
    pub fn open(dir: impl AsRef<Path>) -> Result<Index, Error> {
        let dir = dir.as_ref();
        Ok(Index {
            inner: index::Index::open(dir)?,
            dir: dir.to_path_buf(),
        })
    }

    /// Checks every file of the index in `dir` against the checksum taken when it was written.
    /// Returns the damaged files, none when the index is sound; an error when there is no index
    /// to check.
    pub fn verify(dir: impl AsRef<Path>) -> Result<Vec<Damage>, Error> {
        Ok(index::Index::verify(dir.as_ref())?
            .into_iter()
            .map(|d| Damage {
                path: d.path,
                problem: d.problem,
            })
            .collect())
    }

    /// The folder the index was opened from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Number of games, exact copies included (ids are `0..len`); in an index built with
    /// variations, its variation lines have ids too ([`Index::is_variation`]) and count here.
    pub fn len(&self) -> u32 {
        self.inner.len()
    }

    /// Whether the index holds no game.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// Answers `query` on the caller's rayon pool (see [`Index`]). The query's combination of
    /// options is checked first: a mistake is [`crate::ErrorKind::BadQuery`] before any work.
    pub fn search(&self, query: &Query) -> Result<Answer, Error> {
        let plan = query.plan()?;
        let started = Instant::now();
        let found = self.find(query, &plan, query.allowed(), None)?;
        let search_ms = started.elapsed().as_secs_f64() * 1e3;
        describe(|g| (self, g), |_| false, found, query, search_ms)
    }

    /// Finds what `query` asks in this index, among the games `within` allows when given
    /// (its [`Query::within`] in this index's numbers): every hit (in game order), the
    /// continuation rows and the profile, before the hits are sorted, paged and described. With copies counted
    /// once, the games `elsewhere` holds (a bit per game) count in no statistics: an exact copy
    /// of each is counted in another index of a set searched as one ([`crate::Shards`]).
    pub(crate) fn find(
        &self,
        query: &Query,
        plan: &Plan,
        within: Option<&[u32]>,
        elsewhere: Option<&[u64]>,
    ) -> Result<Found, Error> {
        let mut filter = match query.metadata_query() {
            Some(q) => Some(
                self.inner
                    .search_meta(q)
                    .map_err(|e| crate::error::in_users_words(e, q))?,
            ),
            None => None,
        };
        if let Some(allowed) = within {
            let len = self.len();
            filter = Some(match filter {
                Some(mut ids) => {
                    ids.retain(|g| allowed.binary_search(g).is_ok());
                    ids
                }
                // Hidden games are never answered; the metadata search leaves them out itself.
                None => allowed
                    .iter()
                    .copied()
                    .filter(|&g| g < len && !self.inner.is_removed(g))
                    .collect(),
            });
        }
        // Variation lines have no information of their own: a selection by information (or by
        // id) takes each selected game's lines with it.
        if self.inner.has_lines() {
            filter = filter.map(|ids| self.inner.with_lines(ids));
        }
        let stop = query.stop.as_ref();
        let elsewhere = elsewhere.filter(|_| !query.with_copies);
        let games = Games {
            with_copies: query.with_copies,
            elsewhere,
            ..Games::new(&self.inner, stop)
        };
        // Filters on the games' facts narrow the games searched, as a metadata query does;
        // a position answered from the cells tests them game by game instead (listing the
        // games a date range keeps would cost more than the answer).
        let from_cells = matches!(plan, Plan::Position(q) if search::answers_from_cells(&games, q));
        if query.narrow.is_set() && !from_cells {
            filter = Some(query.narrow.games(&self.inner, filter));
        }
        if stop.is_some_and(Stop::is_stopped) {
            return Err(Error::stopped());
        }
        let found = match plan {
            Plan::Position(q) => find_position(&games, q, filter.as_deref()),
            Plan::Pattern(q) => find_pattern(&games, q, filter.as_deref()),
            Plan::Sequence(q) => find_sequence(&games, q, filter.as_deref()),
            // The games the metadata query selected are the whole answer.
            Plan::Metadata { .. } => search::Answer::default(),
        };
        // An index file cut short under the search read as zeros: no answer from it.
        self.inner.check_intact()?;
        // A stopped search skipped games: what it found is not the answer.
        if stop.is_some_and(Stop::is_stopped) {
            return Err(Error::stopped());
        }
        if let Plan::Metadata { first_hits } = *plan {
            // A metadata query answers games, not lines: counted and profiled by id, and only
            // the ones the answer lists made hits (a hit is several times the size of an id, and
            // an answer of millions of games lists ten).
            let mut ids = filter.unwrap_or_default();
            if self.inner.has_lines() {
                ids.retain(|&g| !self.inner.is_line(g));
            }
            let started = Instant::now();
            let profile = crate::explore::profile(
                &self.inner,
                &ids,
                |&g| g,
                query.with_copies,
                query.by_month,
                |g| search::Store::counted_elsewhere(&games, g),
            );
            let tally_ms = started.elapsed().as_secs_f64() * 1e3;
            // The profile read the games' years and facts: no answer from a damaged block.
            self.inner.check_intact()?;
            let counts = Counts {
                games: ids.len(),
                positions: 0,
                variations: 0,
                no_continuation: None,
            };
            let listed = first_hits.map_or(ids.len(), |n| n.min(ids.len()));
            let hits = ids[..listed]
                .iter()
                .map(|&game| search::Hit {
                    game,
                    moves: search::Moves::new(),
                })
                .collect();
            return Ok(Found {
                hits,
                counts,
                continuations: Vec::new(),
                continued: Vec::new(),
                profile,
                tally_ms,
            });
        }
        let hits = found.hits;
        let is_line = |g: u32| self.inner.has_lines() && self.inner.is_line(g);
        let counts = match found.counts {
            Some(c) => Counts {
                games: c.games,
                positions: c.positions,
                variations: 0,
                no_continuation: found.no_continuation,
            },
            None => {
                let lines = hits.iter().filter(|h| is_line(h.game)).count();
                Counts {
                    games: hits.len() - lines,
                    positions: hits
                        .iter()
                        .filter(|h| lines == 0 || !is_line(h.game))
                        .map(|h| h.moves.len())
                        .sum(),
                    variations: lines,
                    no_continuation: found.no_continuation,
                }
            }
        };
        let started = Instant::now();
        // Asked for the moves its rows count (a search for mistakes), a pattern or sequence
        // answers no table: no profile either.
        let moves_only = matches!(plan, Plan::Pattern(p) if p.continued)
            || matches!(plan, Plan::Sequence(s) if s.continued);
        let profile = match found.profile {
            _ if moves_only => crate::Profile::default(),
            Some(counts) => crate::explore::shape(counts, query.by_month),
            None => crate::explore::profile(
                &self.inner,
                &hits,
                |h| h.game,
                query.with_copies,
                query.by_month,
                |g| search::Store::counted_elsewhere(&games, g),
            ),
        };
        let tally_ms = found.tally_ms + started.elapsed().as_secs_f64() * 1e3;
        // The profile read the games' years and facts: no answer from a damaged block.
        self.inner.check_intact()?;
        Ok(Found {
            hits,
            counts,
            continuations: found.continuations,
            continued: found.continued,
            profile,
            tally_ms,
        })
    }

    /// Answers `query` on `pool`: the search's parallel work runs on its threads only.
    pub fn search_in(&self, query: &Query, pool: &rayon::ThreadPool) -> Result<Answer, Error> {
        pool.install(|| self.search(query))
    }

    /// What the index knows of game `id` without reading its record.
    pub fn game(&self, id: GameId) -> Result<GameInfo, Error> {
        self.check(id)?;
        let info = self.info(id)?;
        // What was read of a damaged file is not given (see `index::Index::check_intact`).
        self.inner.check_intact()?;
        Ok(info)
    }

    /// Where game `id` was read from: its record file as named when indexed, and its place in
    /// that file, as [`GameInfo`] names them; a look-up in the game table only (no metadata), so
    /// that a client can map names back to numbers for every game at little cost.
    pub fn identity(&self, id: GameId) -> Result<(&str, u32), Error> {
        self.check(id)?;
        let identity = self.inner.identity(id);
        self.inner.check_intact()?;
        Ok(identity)
    }

    fn check(&self, id: GameId) -> Result<(), Error> {
        if id < self.len() {
            return Ok(());
        }
        Err(QueryError::new(
            QueryPart::Game,
            format!("game {id}: the index holds {} games", self.len()),
        )
        .into())
    }

    /// Whether `id` is a variation line of a record ([`crate::Variation`]) rather than a game.
    pub fn is_variation(&self, id: GameId) -> bool {
        self.inner.is_line(id)
    }

    /// Which variation line `id` is, when it is one.
    pub fn variation(&self, id: GameId) -> Option<crate::Variation> {
        self.inner.variation(id).map(|v| crate::Variation {
            game: v.game,
            path: v.path_text(),
            from: v.from,
        })
    }

    /// The game's information from the metadata index's stored fields (no record is
    /// decompressed for it); a variation line's are its game's. `id` is in range. A stored
    /// document that cannot be read is an error naming the damaged file, never a game shown
    /// without its names: an answer with blanks where the index holds names is a wrong answer.
    pub(crate) fn info(&self, id: GameId) -> Result<GameInfo, Error> {
        let (file, game_in_file) = self.inner.identity(id);
        let mut info = GameInfo {
            file: file.to_string(),
            game_in_file,
            copy: self.inner.game(id).is_copy(),
            ..GameInfo::default()
        };
        let id = self.inner.game_of(id);
        let Some(g) = self
            .inner
            .meta()
            .summary(id)
            .map_err(index::IndexError::from)?
        else {
            return Ok(info);
        };
        let player = |name: Option<String>, rank: Option<String>| {
            let rank = rank.as_deref().and_then(sgf::info::parse_rank);
            name.map(|n| match rank {
                Some(r) => format!("{n} {r}"),
                None => n,
            })
        };
        info.black = player(g.black, g.black_rank);
        info.white = player(g.white, g.white_rank);
        info.date = g.date_range.map(|(start, _)| start.to_string()).or(g.date);
        info.result = g.result;
        info.event = g.event;
        Ok(info)
    }

    /// Where game `id`'s record file is on disk, as a path to give back to a command that reads
    /// records (`qipu show PATH#GAME`): the file itself, absolute (a file found in an indexed
    /// folder is that folder joined with its name), or for an archive member the archive's path
    /// joined with the member's path inside it (`/data/kgs.tar.zst/2002/a.sgf`). The hit's
    /// [`GameInfo::file`] is the name as indexed, relative to the folder given; this is where
    /// that name was found. `None` for a game read from a stream (not recorded) or an id out
    /// of range.
    pub fn path(&self, id: GameId) -> Option<PathBuf> {
        if id >= self.len() {
            return None;
        }
        // One binary search (not a scan of every source per hit: answers print thousands).
        let (key, source_name) = self.inner.source_key_and_name(id)?;
        let base = inputs::path_of_key(key)?;
        let (name, _) = self.inner.identity(id);
        Some(
            match name
                .strip_prefix(source_name)
                .and_then(|rest| rest.strip_prefix('/'))
            {
                Some(member) if !member.is_empty() => base.join(member),
                _ => base,
            },
        )
    }

    /// The original record text of game `id`, as it was read (its bytes, in its own charset).
    pub fn record(&self, id: GameId) -> Result<Vec<u8>, Error> {
        self.check(id)?;
        let record = self.inner.record(id);
        // A damaged file read on the way is named before what it made of the record.
        self.inner.check_intact()?;
        Ok(record?)
    }

    /// The main line of game `id`, read from its original record; of a variation line, that
    /// line, read from the index's replay program.
    pub fn main_line(&self, id: GameId) -> Result<MainLine, Error> {
        self.check(id)?;
        if self.inner.is_line(id) {
            let rec = self.inner.game(id);
            let moves = self
                .inner
                .ops(id)
                .into_iter()
                .filter_map(|v| match index::ops::Op::decode(v) {
                    index::ops::Op::Move(color, point) => Some(Move { color, point }),
                    _ => None,
                })
                .collect();
            // Moves read from a damaged block are not given (see `index::Index::check_intact`).
            self.inner.check_intact()?;
            return Ok(MainLine {
                board: (rec.width, rec.height),
                moves,
            });
        }
        let record = self.record(id)?;
        let damaged =
            |why: String| Error::from(index::IndexError::Corrupt(format!("game {id}: {why}")));
        let records = Records::read(&record);
        let tree = records.game(0).map_err(|d| damaged(d.to_string()))?;
        let moves = tree
            .main_line_moves()
            .map_err(|i| damaged(format!("move {} is not a point", i + 1)))?;
        Ok(MainLine {
            board: tree.board_size(),
            moves: moves
                .into_iter()
                .map(|(color, point)| Move { color, point })
                .collect(),
        })
    }

    /// The position after `at` moves of game or variation line `id` (an error of the query's
    /// [`QueryPart::Position`] when it has fewer): the stones the index's replay program puts
    /// there, captures taken off and setup stones (a handicap, `AB`/`AW` anywhere in the line)
    /// placed, as a search compares them. What a board shows for a hit at move `at`: positions are numbered
    /// as the search numbers them, so in the rare record whose node holds both a black and a
    /// white move, the position after its first move is the one before the node.
    pub fn position_at(&self, id: GameId, at: usize) -> Result<Position, Error> {
        self.check(id)?;
        let rec = self.inner.game(id);
        let ops = self.inner.ops(id);
        // A board is not drawn from a damaged block (see `index::Index::check_intact`).
        self.inner.check_intact()?;
        let damaged =
            |why: String| Error::from(index::IndexError::Corrupt(format!("game {id}: {why}")));
        let mut walk = index::ops::Walker::new(&ops, rec.width, rec.height, false)
            .map_err(|e| damaged(e.to_string()))?;
        let mut last = 0;
        while let Some(step) = walk.next_position(|_| {}) {
            last = step.k as usize;
            if last >= at {
                break;
            }
        }
        if last < at {
            return Err(QueryError::new(
                QueryPart::Position,
                format!("move {at} is past the end: there are {last} moves"),
            )
            .into());
        }
        let mut position =
            Position::new(rec.width, rec.height).map_err(|e| damaged(e.to_string()))?;
        for color in [Color::Black, Color::White] {
            for p in walk.stones(color).iter() {
                position.set(p, Some(color));
            }
        }
        Ok(position)
    }

    /// The hit games as one SGF collection: each game's original record written as `FF[4]` UTF-8
    /// SGF, with a custom root property `QH[k,…]` naming the positions that hit. A record that
    /// no longer reads as a game is left out.
    pub fn export_sgf(&self, hits: &[Hit]) -> Result<Vec<u8>, Error> {
        export_sgf(hits, |g| self.record(g))
    }

    /// Counts, sizes, the date range and the `top` most frequent players and events.
    pub fn stats(&self, top: usize) -> Result<Stats, Error> {
        let mut stats = self.counts()?;
        stats.top_players = self
            .inner
            .top_players(top)?
            .into_iter()
            .map(|p| (p.name, p.games, p.also))
            .collect();
        stats.top_events = self.inner.top("event", top)?;
        Ok(stats)
    }

    /// [`Index::stats`] without the most frequent players and events, which need a pass over
    /// the metadata's terms: what a set of indexes sums before it counts those over all.
    pub(crate) fn counts(&self) -> Result<Stats, Error> {
        let m = self.inner.manifest();
        let bytes = index::write::dir_size(&self.dir);
        let t = &m.totals;
        let parts = self.inner.part_sizes();
        let date_range = self.inner.date_range()?;
        Ok(Stats {
            games: t.games,
            variation_lines: m.variations.then_some(t.variation_lines),
            variation_lines_left: m.variations.then_some(t.variation_lines_left),
            distinct: t.games.saturating_sub(t.duplicates),
            duplicates: t.duplicates,
            symmetric_duplicates: t.symmetric_duplicates,
            rejected: t.rejected,
            files: t.files,
            files_without_games: t.files_without_games,
            bytes,
            bytes_per_game: bytes.checked_div(t.games).unwrap_or(0),
            parts: parts.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            date_range: date_range.map(|(a, b)| (a.to_string(), b.to_string())),
            top_players: Vec::new(),
            top_events: Vec::new(),
            alias_players: self.inner.meta().aliases().len(),
            aliases_file: self.dir.join(m.meta_dir()).join(meta::ALIASES_FILE),
        })
    }
}

/// What one index found for a query ([`Index::find`]), in its own game numbers.
pub(crate) struct Found {
    /// The hits, in game order: every one, or the first ones (at least as many as the query's
    /// offset and limit take) when the query lists them in game order.
    pub(crate) hits: Vec<search::Hit>,
    /// How many there are in all.
    pub(crate) counts: Counts,
    /// [`crate::Timings::tally_ms`].
    pub(crate) tally_ms: f64,
    /// The continuation rows, most frequent first.
    pub(crate) continuations: Vec<search::Continuation>,
    /// The moves a pattern's or sequence's rows count, when its plan asked
    /// ([`search::Answer::continued`]).
    pub(crate) continued: Vec<(u32, u32)>,
    /// The date profile of the hits.
    pub(crate) profile: crate::Profile,
}

/// How many games, positions and variation lines hit ([`Summary`] without the offset).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counts {
    pub(crate) games: usize,
    pub(crate) positions: usize,
    pub(crate) variations: usize,
    /// [`Summary::no_continuation`].
    pub(crate) no_continuation: Option<usize>,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.games += o.games;
        self.positions += o.positions;
        self.variations += o.variations;
        self.no_continuation = match (self.no_continuation, o.no_continuation) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
    }
}

/// The answer to `query` from what was found: the hits sorted, paged and described, the
/// continuation rows as the face gives them. Game `g` of `found` is game `at(g).1` of index
/// `at(g).0` (one index: itself; a set: the index holding it); `copy_elsewhere(g)` says whether
/// it is an exact copy of a game of an earlier index of the set, marked as a copy as it would be
/// in one index holding both.
pub(crate) fn describe<'a>(
    at: impl Fn(GameId) -> (&'a Index, GameId) + Copy,
    copy_elsewhere: impl Fn(GameId) -> bool,
    found: Found,
    query: &Query,
    search_ms: f64,
) -> Result<Answer, Error> {
    let started = Instant::now();
    // Every index of the set read from, to be checked once the answer is made.
    let read: std::cell::RefCell<Vec<&'a Index>> = std::cell::RefCell::new(vec![at(0).0]);
    let at = |g: GameId| {
        let (index, local) = at(g);
        let mut read = read.borrow_mut();
        if !read.iter().any(|i| std::ptr::eq(*i, index)) {
            read.push(index);
        }
        (index, local)
    };
    let mut hits = found.hits;
    sort(at, &mut hits, query.sort)?;
    let c = found.counts;
    let summary = Summary {
        games: c.games,
        positions: c.positions,
        variations: c.variations,
        skipped: query.offset.min(c.games + c.variations),
        no_continuation: c.no_continuation,
    };
    let hits: Vec<Hit> = hits
        .into_iter()
        .skip(query.offset)
        .take(query.limit.unwrap_or(usize::MAX))
        .map(|h| {
            let (index, g) = at(h.game);
            let mut info = index.info(g)?;
            info.copy |= copy_elsewhere(h.game);
            // A line's game is numbered as the set numbers it (its index's first game on).
            let variation = index.variation(g).map(|mut v| {
                v.game += h.game - g;
                v
            });
            Ok(Hit {
                info,
                game: h.game,
                moves: h.moves.to_vec(),
                variation,
            })
        })
        .collect::<Result<_, Error>>()?;
    let continuations = found
        .continuations
        .into_iter()
        .map(|c| continuation(at, &c))
        .collect();
    // Describing the hits read the metadata, the game table and the names of record files
    // again: a cut map (known process-wide) or a damaged file of any index read gives no answer.
    for index in read.borrow().iter() {
        index.inner.check_intact()?;
    }
    Ok(Answer {
        hits,
        continuations,
        profile: found.profile,
        summary,
        timings: Timings {
            search_ms,
            describe_ms: started.elapsed().as_secs_f64() * 1e3,
            tally_ms: found.tally_ms,
        },
    })
}

/// A continuation row as the face gives it: means, years, the example named.
fn continuation<'a>(
    at: impl Fn(GameId) -> (&'a Index, GameId),
    c: &search::Continuation,
) -> Continuation {
    let t = &c.tally;
    let mean = |sum: u64, n: u32| {
        // Rounded to the hundredth of a rank: what a table shows, and stable in JSON.
        (n > 0).then(|| (crate::explore::scale(sum as f64 / f64::from(n)) * 100.0).round() / 100.0)
    };
    Continuation {
        color: c.color,
        point: c.point,
        count: t.count,
        variations: t.variations,
        tenuki: t.tenuki,
        black_wins: t.black_wins,
        white_wins: t.white_wins,
        other: t.count - t.black_wins - t.white_wins,
        mover_rank: mean(t.mover_rank_sum, t.mover_ranked),
        mover_ranked: t.mover_ranked,
        opponent_rank: mean(t.opponent_rank_sum, t.opponent_ranked),
        opponent_ranked: t.opponent_ranked,
        first_year: t.years.map(|y| y.0),
        last_year: t.years.map(|y| y.1),
        example: t.example.map(|(_, g)| {
            let (index, g) = at(g);
            let (file, n) = index.inner.identity(g);
            format!("{file}#{n}")
        }),
        analysed: t.evals.analysed,
        black_win_after: eval_mean(t.evals.win_after, t.evals.analysed, index::evals::WIN_UNITS),
        black_lead_after: eval_mean(t.evals.lead_after, t.evals.led, index::evals::LEAD_UNITS),
        win_loss: eval_mean(t.evals.win_loss, t.evals.analysed, index::evals::WIN_UNITS),
        points_loss: eval_mean(t.evals.lead_loss, t.evals.led, index::evals::LEAD_UNITS),
    }
}

/// The mean of `n` evaluations summing `sum` in `units` per point (or per 1 of win
/// probability), in points (or probability); `None` over no evaluation. Rounded to a
/// hundredth of the index's unit, which keeps the JSON short and loses nothing a table shows.
fn eval_mean(sum: i64, n: u32, units: f32) -> Option<f64> {
    (n > 0).then(|| {
        let per = f64::from(units) * 100.0;
        (sum as f64 / f64::from(n) * 100.0).round() / per
    })
}

/// Sorts hits (in game order) as the query asks; stable, so equals stay in game order. A date
/// that cannot be read (a damaged stored document) is an error, not an undated game.
fn sort<'a>(
    at: impl Fn(GameId) -> (&'a Index, GameId),
    hits: &mut [search::Hit],
    sort: Sort,
) -> Result<(), Error> {
    let facts = |g: GameId| {
        let (index, g) = at(g);
        index.inner.facts(g)
    };
    match sort {
        Sort::Indexed => {}
        Sort::MostPositions => hits.sort_by_key(|h| std::cmp::Reverse(h.moves.len())),
        Sort::Longest => hits.sort_by_key(|h| {
            let (index, g) = at(h.game);
            std::cmp::Reverse(index.inner.game(g).moves)
        }),
        Sort::Strongest => hits.sort_by_key(|h| {
            let f = facts(h.game);
            let (weaker, stronger) = (
                f.black_rank.min(f.white_rank),
                f.black_rank.max(f.white_rank),
            );
            std::cmp::Reverse((weaker, stronger))
        }),
        Sort::Oldest | Sort::Newest => {
            let day = |g: GameId| -> Result<Option<sgf::info::Date>, Error> {
                let (index, g) = at(g);
                let s = index
                    .inner
                    .meta()
                    .summary(index.inner.game_of(g))
                    .map_err(index::IndexError::from)?;
                Ok(s.and_then(|s| s.date_range.map(|(start, _)| start)))
            };
            let mut keyed: Vec<(Option<sgf::info::Date>, search::Hit)> = hits
                .iter()
                .map(|h| Ok((day(h.game)?, h.clone())))
                .collect::<Result<_, Error>>()?;
            // Stable: equal dates stay in indexed order. Undated games last either way.
            keyed.sort_by(|(a, _), (b, _)| match (a, b) {
                (Some(a), Some(b)) if sort == Sort::Oldest => a.cmp(b),
                (Some(a), Some(b)) => b.cmp(a),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            for (slot, (_, h)) in hits.iter_mut().zip(keyed) {
                *slot = h;
            }
        }
    }
    Ok(())
}

/// The hit games as one SGF collection, each game's record (as `record` gives it) written as
/// `FF[4]` UTF-8 SGF with `QH[k,…]` naming the positions that hit; a record that no longer reads
/// as a game is left out.
pub(crate) fn export_sgf(
    hits: &[Hit],
    record: impl Fn(GameId) -> Result<Vec<u8>, Error>,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    for hit in hits {
        let record = record(hit.game)?;
        let records = Records::read(&record);
        let Ok(tree) = records.game(0) else { continue };
        let sgf = sgf::write::to_sgf(&tree);
        let moves: Vec<String> = hit.moves.iter().map(|m| m.to_string()).collect();
        // The hit marker goes right after the root's `(;`; a variation line's hit also
        // names the line (`QV[path]`, as `Variation::path` writes it).
        let line = hit
            .variation
            .as_ref()
            .map_or(String::new(), |v| format!("QV[{}]", v.path));
        let marked = sgf.replacen("(;", &format!("(;QH[{}]{line}", moves.join(",")), 1);
        out.extend_from_slice(marked.as_bytes());
    }
    Ok(out)
}
