//! The JSON API: reading a request into a [`qipu::Query`], running it on the bounded pool
//! within the time budget, and answering in the shapes of `qipu::lines`.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Request};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use qipu::lines::{lines, HitLine};
use qipu::{Answer, Continuation, ErrorKind, GameId, Query, Shards, Stop};
use serde::Serialize;
use tokio::sync::Semaphore;

use crate::error::{json_response, ApiError};
use crate::params::Params;
use crate::{Config, ServeError};

/// Hit games per answer when `limit` is not given.
const DEFAULT_LIMIT: usize = 100;

/// What every request handler shares.
pub(crate) struct State {
    index: Shards,
    pool: qipu::rayon::ThreadPool,
    turns: Arc<Semaphore>,
    config: Config,
    /// Every game number, in the order of its (file, place in file) name: a game asked for by
    /// name is found by binary search, and nothing of the name reaches the file system.
    by_name: Vec<GameId>,
    /// Every variation line (an index built with variations) after the game it is a line of:
    /// (game, line), sorted, so that a game's lines are one range.
    lines: Vec<(GameId, GameId)>,
    /// The index's statistics, as `GET /api/stats` gives them: the index is only read, so they
    /// are taken once.
    stats: serde_json::Value,
}

impl State {
    pub(crate) fn new(index: Shards, config: &Config) -> Result<State, ServeError> {
        if config.max_concurrent == 0 || config.max_limit == 0 || config.timeout.is_zero() {
            return Err(ServeError::Config(
                "max_concurrent, max_limit and the timeout must be above 0".into(),
            ));
        }
        let pool = qipu::rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .thread_name(|i| format!("qipu-search-{i}"))
            .build()
            .map_err(|e| ServeError::Io(std::io::Error::other(e)))?;
        // Games by name, and apart the variation lines (an index built with variations), which
        // have their game's name and are found from it.
        let mut by_name: Vec<GameId> = Vec::new();
        let mut lines: Vec<(GameId, GameId)> = Vec::new();
        for g in 0..index.len() {
            match index.variation(g) {
                Some(v) => lines.push((v.game, g)),
                None => by_name.push(g),
            }
        }
        lines.sort_unstable();
        // Two games of one name (a file read again after it changed) leave the newest last,
        // which the look-up takes.
        let name = |g: GameId| index.identity(g).unwrap_or(("", 0));
        by_name.sort_by(|&a, &b| name(a).cmp(&name(b)).then(a.cmp(&b)));
        let st = index.stats(10)?;
        // What `qipu stats --json` prints (the face's one shape, which leaves out the alias
        // file's path, as every path of the machine is).
        let stats =
            serde_json::to_value(&st).map_err(|e| ServeError::Io(std::io::Error::other(e)))?;
        Ok(State {
            turns: Arc::new(Semaphore::new(config.max_concurrent)),
            index,
            pool,
            config: config.clone(),
            by_name,
            lines,
            stats,
        })
    }

    /// The game recorded as game `game` of `file`.
    fn find(&self, file: &str, game: u32) -> Option<GameId> {
        let name = |g: GameId| self.index.identity(g).unwrap_or(("", 0));
        let end = self.by_name.partition_point(|&g| name(g) <= (file, game));
        let id = *self.by_name.get(end.checked_sub(1)?)?;
        (name(id) == (file, game)).then_some(id)
    }

    /// The variation line of `game` whose path in the record's game tree is `path`
    /// ([`qipu::Variation::path`]).
    fn find_line(&self, game: GameId, path: &str) -> Option<GameId> {
        let start = self.lines.partition_point(|&(g, _)| g < game);
        self.lines[start..]
            .iter()
            .take_while(|&&(g, _)| g == game)
            .map(|&(_, l)| l)
            .find(|&l| self.index.variation(l).is_some_and(|v| v.path == path))
    }

    /// Runs `job` on the search pool within the request's budget: waits for a turn, then for
    /// the job; past the budget the job is told to stop (it holds `stop`) and the answer is
    /// 503. The turn is held until the job really ends, so a stopped search still counts
    /// against the bound until it has let go of the CPU.
    async fn run<T: Send + 'static>(
        self: &Arc<State>,
        stop: &Stop,
        deadline: Instant,
        job: impl FnOnce(&State) -> Result<T, qipu::Error> + Send + 'static,
    ) -> Result<T, ApiError> {
        let budget = self.config.timeout.as_millis();
        let turn = match tokio::time::timeout_at(
            deadline.into(),
            self.turns.clone().acquire_owned(),
        )
        .await
        {
            Ok(Ok(turn)) => turn,
            _ => {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("the server is busy: no turn for this search within its {budget} ms budget; try again"),
                ))
            }
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let state = self.clone();
        self.pool.spawn(move || {
            let _turn = turn;
            // A panic must not end the pool's thread (rayon would abort the process).
            let out = std::panic::catch_unwind(AssertUnwindSafe(|| job(&state)));
            let _ = tx.send(out);
        });
        match tokio::time::timeout_at(deadline.into(), rx).await {
            // A job stopped by a deadline of its own (a `Stop::at` handle) before this one
            // passed: the same budget, said the same way.
            Ok(Ok(Ok(Err(e)))) if e.kind() == ErrorKind::Stopped => Err(over_budget(budget)),
            Ok(Ok(Ok(result))) => result.map_err(ApiError::from),
            Ok(Ok(Err(_))) | Ok(Err(_)) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error while answering (please report it, with the request)",
            )),
            Err(_) => {
                stop.stop();
                Err(over_budget(budget))
            }
        }
    }
}

fn over_budget(budget: u128) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("the search went over its {budget} ms budget and was stopped; narrow it (a metadata query, fewer symmetries) or ask the server for a longer --timeout-ms"),
    )
}

/// Stops the request's search when the request ends, however it ends: a client that goes
/// away drops the handler, and this with it.
struct StopOnDrop(Stop);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The routes of the API and the board, with the request-size check in front.
pub(crate) fn routes(state: Arc<State>) -> Router {
    let max = state.config.max_request_bytes;
    Router::new()
        .route("/api/position", get(position))
        .route("/api/pattern", get(pattern))
        .route("/api/sequence", get(sequence))
        .route("/api/games", get(games))
        .route("/api/mistakes", get(mistakes))
        .route("/api/player", get(player))
        .route("/api/game/{*name}", get(game))
        .route("/api/stats", get(stats))
        .route("/api/health", get(health))
        .merge(crate::assets::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(axum::middleware::from_fn(move |r, n| limit_size(max, r, n)))
        .with_state(state)
}

/// 413 for a request target or a declared body over the limit, before anything reads them.
async fn limit_size(max: usize, request: Request, next: Next) -> Response {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    let body = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
        .unwrap_or(0);
    if target > max || body > max as u64 {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request is too large: {} bytes, at most {max} are read",
                target.max(body as usize)
            ),
        )
        .into_response();
    }
    next.run(request).await
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such path: {} (the API: /api/position, /api/pattern, /api/sequence, /api/games, /api/mistakes, /api/player, /api/game/FILE/GAME, /api/stats, /api/health)",
            uri.path()
        ),
    )
}

async fn not_allowed() -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "only GET is answered here")
}

type Pairs = Result<axum::extract::Query<Vec<(String, String)>>, QueryRejection>;
type Shared = axum::extract::State<Arc<State>>;

fn params(pairs: Pairs) -> Result<Params, ApiError> {
    match pairs {
        Ok(axum::extract::Query(pairs)) => Params::new(pairs),
        Err(e) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the query string cannot be read: {}", e.body_text()),
        )),
    }
}

/// The options every search takes: how to match, which games, which page.
struct Common {
    query: Query,
    limit: usize,
    offset: usize,
    /// A pattern's walk (`then=Q17,W:R14`): the steps taken from it before it is answered
    /// ([`Query::walk`]).
    then: Option<String>,
}

fn common(p: &mut Params, query: Query, max_limit: usize) -> Result<Common, ApiError> {
    let query = query
        .symmetry(p.flag("symmetry", true)?)
        .swap_colors(p.flag("swap_colors", false)?)
        .sort(p.sort()?);
    let query = match p.text("query") {
        Some(q) if !q.trim().is_empty() => query.filter(q),
        _ => query,
    };
    let mut query = query
        .with_copies(p.flag("with_copies", false)?)
        .by_month(p.flag("by_month", false)?);
    // Filters on the games' facts, as `qipu search --since …` takes them.
    for (name, end) in [("since", false), ("until", true)] {
        if let Some(v) = p.text(name) {
            query = if end {
                query.until(&v)
            } else {
                query.since(&v)
            }
            .map_err(|e| ApiError::from(e).in_param(name))?;
        }
    }
    if let Some(v) = p.text("min_rank") {
        query = query
            .min_rank(&v)
            .map_err(|e| ApiError::from(e).in_param("min_rank"))?;
    }
    query = query.handicap(p.handicap()?);
    if let Some(k) = p.komi()? {
        query = query.komi(k.low, k.high);
    }
    let limit = p.number("limit", DEFAULT_LIMIT.min(max_limit), 0..=max_limit)?;
    let offset = p.number("offset", 0, 0..=usize::MAX)?;
    Ok(Common {
        query: query.limit(Some(limit)).offset(offset),
        limit,
        offset,
        then: None,
    })
}

fn board_size(p: &mut Params) -> Result<u8, ApiError> {
    p.number("size", 19, 1..=qipu::MAX_BOARD)
}

/// `GET /api/position?black=…&white=…`
async fn position(state: Shared, headers: HeaderMap, pairs: Pairs) -> Result<Response, ApiError> {
    let mut p = params(pairs)?;
    let size = board_size(&mut p)?;
    let black = p.text("black").unwrap_or_default();
    let white = p.text("white").unwrap_or_default();
    // Each list alone first, so that a refusal names the list it is in.
    Query::points(size, &black, "").map_err(|e| ApiError::from(e).in_param("black"))?;
    Query::points(size, "", &white).map_err(|e| ApiError::from(e).in_param("white"))?;
    let query = Query::points(size, &black, &white)
        .map_err(|e| ApiError::from(e).in_param("black"))?
        .to_move(p.color("to_move")?);
    let c = common(&mut p, query, state.config.max_limit)?;
    p.finish("/api/position")?;
    answer(&state, &headers, c).await
}

/// `GET /api/pattern?diagram=…`
async fn pattern(state: Shared, headers: HeaderMap, pairs: Pairs) -> Result<Response, ApiError> {
    let mut p = params(pairs)?;
    let query = pattern_query(&mut p)?;
    let then = p.text("then").filter(|t| !t.trim().is_empty());
    let c = Common {
        then,
        ..common(&mut p, query, state.config.max_limit)?
    };
    p.finish("/api/pattern")?;
    answer(&state, &headers, c).await
}

/// A pattern's parameters (`diagram`, `size`, `place`, `anywhere`) as a query.
fn pattern_query(p: &mut Params) -> Result<Query, ApiError> {
    let size = board_size(p)?;
    let diagram = p.required("diagram", "rows of X O . ? x o, separated by newlines or /")?;
    // A row separator that fits in a URL: `/` is no diagram character.
    let diagram = diagram.replace('/', "\n");
    let anywhere = p.flag("anywhere", false)?;
    let place = p.place()?;
    if anywhere && place.is_some() {
        return Err(ApiError::param(
            "place",
            "parameter place: a pattern placed at a point cannot also lie anywhere",
        ));
    }
    let (column, row) = place.unwrap_or((0, 0));
    Ok(Query::pattern(&diagram)
        .map_err(|e| ApiError::from(e).in_param("diagram"))?
        .board_size(size)
        .place(column, row)
        .anywhere(anywhere))
}

/// `GET /api/sequence?moves=B[pd] W[dp]…`
async fn sequence(state: Shared, headers: HeaderMap, pairs: Pairs) -> Result<Response, ApiError> {
    let mut p = params(pairs)?;
    let query = sequence_query(&mut p)?;
    let c = common(&mut p, query, state.config.max_limit)?;
    p.finish("/api/sequence")?;
    answer(&state, &headers, c).await
}

/// A move sequence's parameters (`moves`, `size`, `any_order`, `any_gap`, `anywhere`) as a
/// query.
fn sequence_query(p: &mut Params) -> Result<Query, ApiError> {
    let size = board_size(p)?;
    let moves = p.required("moves", "moves as B[pd] W[dp] … or quadrant digits")?;
    Ok(Query::moves(&moves, size)
        .map_err(|e| ApiError::from(e).in_param("moves"))?
        .any_order(p.flag("any_order", false)?)
        .any_gap(p.flag("any_gap", false)?)
        .anywhere(p.flag("anywhere", false)?))
}

/// `GET /api/games?query=…`
async fn games(state: Shared, headers: HeaderMap, pairs: Pairs) -> Result<Response, ApiError> {
    let mut p = params(pairs)?;
    if !p.has("query") {
        return Err(ApiError::param(
            "query",
            "parameter query is missing: a metadata query such as player:\"Lee Sedol\"",
        ));
    }
    let mut query = Query::metadata("");
    if p.has("size") {
        query = query.only_size(board_size(&mut p)?);
    }
    let c = common(&mut p, query, state.config.max_limit)?;
    p.finish("/api/games")?;
    if c.query.metadata_query().is_none() {
        return Err(ApiError::param("query", "parameter query is empty"));
    }
    answer(&state, &headers, c).await
}

/// `GET /api/mistakes?mistakes=10%[&player=NAME][&black=…&white=…|&diagram=…|&moves=…][&query=…]…`:
/// the moves that lost at least `mistakes` (the library's words), among every analysed game or
/// the moves the continuation rows of a position (`black`, `white`, `to_move`, `size`), a
/// pattern (`/api/pattern`'s parameters) or a move sequence (`/api/sequence`'s) count,
/// narrowed by everything that narrows a search (`query`, `since`, `until`, `min_rank`,
/// `handicap`, `komi`); `player` counts only that player's own moves; `sort` by loss (default)
/// or date; paged by `offset` and `limit`.
async fn mistakes(state: Shared, pairs: Pairs) -> Result<Response, ApiError> {
    let mut p = params(pairs)?;
    let loss = p.loss("mistakes")?.ok_or_else(|| {
        ApiError::param(
            "mistakes",
            "parameter mistakes is missing: how much a move lost (10%, 3pt or 10%,3pt)",
        )
    })?;
    let mut asked =
        qipu::Mistakes::new(loss).map_err(|e| ApiError::from(e).in_param("mistakes"))?;
    if let Some(name) = p.text("player").filter(|n| !n.trim().is_empty()) {
        asked = asked.by(name);
    }
    let query = if p.has("black") || p.has("white") || p.has("to_move") {
        let size = board_size(&mut p)?;
        let black = p.text("black").unwrap_or_default();
        let white = p.text("white").unwrap_or_default();
        Query::points(size, &black, "").map_err(|e| ApiError::from(e).in_param("black"))?;
        Query::points(size, "", &white).map_err(|e| ApiError::from(e).in_param("white"))?;
        Query::points(size, &black, &white)
            .map_err(|e| ApiError::from(e).in_param("black"))?
            .to_move(p.color("to_move")?)
            .and_mistakes(asked)
    } else if p.has("diagram") {
        pattern_query(&mut p)?.and_mistakes(asked)
    } else if p.has("moves") {
        sequence_query(&mut p)?.and_mistakes(asked)
    } else {
        let mut query = Query::mistakes(asked);
        if p.has("size") {
            query = query.only_size(board_size(&mut p)?);
        }
        query
    };
    let c = common(&mut p, query, state.config.max_limit)?;
    p.finish("/api/mistakes")?;
    let deadline = Instant::now() + state.config.timeout;
    let stop = Stop::new();
    let _guard = StopOnDrop(stop.clone());
    let query = c.query.stop_when(stop.clone());
    let answer = state
        .run(&stop, deadline, move |s| s.index.mistakes(&query))
        .await?;
    Ok(json_response(
        StatusCode::OK,
        &MistakesPage {
            offset: c.offset,
            limit: c.limit,
            answer: &answer,
        },
    ))
}

/// An answer of `GET /api/mistakes`: the library's [`qipu::MistakesAnswer`] with the page asked.
#[derive(Serialize)]
struct MistakesPage<'a> {
    offset: usize,
    limit: usize,
    #[serde(flatten)]
    answer: &'a qipu::MistakesAnswer,
}

/// `GET /api/player?name=NAME[&mistakes=10%]`: the player's play as the engine judged it, by
/// year ([`qipu::PlayerStats`]), his mistakes counted at `mistakes` (default
/// [`qipu::DEFAULT_PLAYER_MISTAKE`]).
async fn player(state: Shared, pairs: Pairs) -> Result<Response, ApiError> {
    let mut p = params(pairs)?;
    let name = p.required("name", "the player's name, as a metadata query names him")?;
    if name.trim().is_empty() {
        return Err(ApiError::param("name", "parameter name is empty"));
    }
    let options = qipu::PlayerOptions {
        mistakes: p.loss("mistakes")?.unwrap_or(qipu::DEFAULT_PLAYER_MISTAKE),
    };
    p.finish("/api/player")?;
    let deadline = Instant::now() + state.config.timeout;
    let stop = Stop::new();
    let stats = state
        .run(&stop, deadline, move |s| s.index.player(&name, &options))
        .await?;
    Ok(json_response(StatusCode::OK, &stats))
}

/// An answer as `GET /api/position` and the others give it (without
/// `Accept: application/x-ndjson`): the counts, the page of hits, the whole continuation
/// table.
#[derive(Serialize)]
struct Page<'a> {
    games: usize,
    positions: usize,
    /// Hit variation lines (an index built with `--variations`), when any.
    #[serde(skip_serializing_if = "is_zero")]
    variations: usize,
    offset: usize,
    limit: usize,
    hits: Vec<HitLine<'a>>,
    continuations: &'a [Continuation],
    /// For patterns and sequences, the hit positions after which nothing was played in the
    /// region ([`qipu::Summary::no_continuation`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    no_continuation: Option<usize>,
    profile: &'a qipu::Profile,
    elapsed_ms: f64,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

async fn answer(state: &Arc<State>, headers: &HeaderMap, c: Common) -> Result<Response, ApiError> {
    let deadline = Instant::now() + state.config.timeout;
    // A flag, not `Stop::at(deadline)`: `run` sets it when the deadline passes, and the guard
    // when the request ends, and the search then reads only the flag for each game it replays,
    // not the clock as well (BENCHMARKS.md, The server: a served search reads a flag).
    let stop = Stop::new();
    let _guard = StopOnDrop(stop.clone());
    let query = c.query.stop_when(stop.clone());
    let then = c.then;
    let answer: Answer = state
        .run(&stop, deadline, move |s| {
            // Each step of a walk is a search of the pattern so far, within the same budget.
            let query = match then {
                Some(steps) => query.walk(&steps, |q| s.index.search(q))?,
                None => query,
            };
            s.index.search(&query)
        })
        .await?;
    let ndjson = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("application/x-ndjson"));
    if ndjson {
        // The lines `qipu search --json` prints, one JSON value each.
        let mut body = Vec::new();
        for line in lines(&answer, c.limit) {
            if serde_json::to_writer(&mut body, &line).is_err() {
                return Err(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the answer could not be written",
                ));
            }
            body.push(b'\n');
        }
        return Ok((
            [(header::CONTENT_TYPE, "application/x-ndjson; charset=utf-8")],
            body,
        )
            .into_response());
    }
    let summary = qipu::lines::SummaryLine::of(&answer);
    let page = Page {
        games: summary.games,
        positions: summary.positions,
        variations: summary.variations,
        offset: answer.summary.skipped,
        limit: c.limit,
        hits: answer.hits.iter().map(HitLine::from).collect(),
        continuations: &answer.continuations,
        no_continuation: answer.summary.no_continuation,
        profile: &answer.profile,
        elapsed_ms: summary.elapsed_ms,
    };
    Ok(json_response(StatusCode::OK, &page))
}

/// A game as `GET /api/game/FILE/GAME` gives it: its information, main line (or the variation
/// line asked for), and the board after move `at` (default: the end).
#[derive(Serialize)]
struct GameView {
    info: qipu::GameInfo,
    /// The variation line shown instead of the main line, when `line` was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<LineView>,
    board: (u8, u8),
    moves: Vec<qipu::Move>,
    at: usize,
    black: Vec<String>,
    white: Vec<String>,
    sgf: String,
    /// The engine evaluations the record carries for its main line, read by the library
    /// ([`qipu::records::RecordGame::evaluations`]); absent for a game without them and for a
    /// variation line (the record evaluates its main line only).
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluations: Option<qipu::records::Evaluations>,
    /// With evaluations: the game's moves that lost at least `mistake_threshold`, as
    /// `GET /api/mistakes` answers them (the library's rule, over the evaluations the index
    /// keeps; none when the index was built without them), in move order.
    #[serde(skip_serializing_if = "Option::is_none")]
    mistakes: Option<Vec<qipu::Mistake>>,
    /// The threshold `mistakes` was found with, in the words it is read from (`10%`).
    #[serde(skip_serializing_if = "Option::is_none")]
    mistake_threshold: Option<String>,
}

/// A variation line as a hit names it (`variation` in [`qipu::lines::HitLine`]).
#[derive(Serialize)]
struct LineView {
    path: String,
    from: u32,
}

/// `GET /api/game/FILE/GAME[?at=K][&line=PATH][&mistakes=10%][&evaluations=false]` and
/// `GET /api/game/FILE/GAME/sgf`. FILE is the
/// record file as the answers name it (slashes in it as they are, or percent-encoded); PATH is
/// a variation line's path as a hit on it gives it (an index built with variations), whose
/// moves are then shown instead of the main line's.
async fn game(
    state: Shared,
    name: Result<Path<String>, PathRejection>,
    pairs: Pairs,
) -> Result<Response, ApiError> {
    let Path(name) = name.map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the path cannot be read: {}", e.body_text()),
        )
    })?;
    let mut p = params(pairs)?;
    let (name, sgf) = match name.strip_suffix("/sgf") {
        Some(rest) => (rest, true),
        None => (name.as_str(), false),
    };
    let unknown = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no game {name:?} in this index: ask /api/game/FILE/GAME with FILE and GAME as a hit names them"),
        )
    };
    let (file, number) = name.rsplit_once('/').ok_or_else(unknown)?;
    let number: u32 = number.parse().map_err(|_| unknown())?;
    let mut id = state.find(file, number).ok_or_else(unknown)?;
    let (at, line) = if sgf {
        (None, None)
    } else {
        let at = p
            .text("at")
            .map(|v| {
                v.trim().parse::<usize>().map_err(|_| {
                    ApiError::param("at", format!("parameter at: {v:?} is not a move number"))
                })
            })
            .transpose()?;
        (at, p.text("line"))
    };
    // How much a move must lose to be marked a mistake in the game's evaluations.
    let threshold =
        if sgf { None } else { p.loss("mistakes")? }.unwrap_or(qipu::DEFAULT_PLAYER_MISTAKE);
    let marked =
        qipu::Mistakes::new(threshold).map_err(|e| ApiError::from(e).in_param("mistakes"))?;
    // `evaluations=false`: a step through a game whose evaluations the client holds already
    // (its mistakes are a search of the index's lists, not worth repeating at every move).
    let with_evals = !sgf && p.flag("evaluations", true)?;
    // A parameter the request does not take is named before anything is looked up.
    p.finish(if sgf {
        "/api/game/FILE/GAME/sgf"
    } else {
        "/api/game"
    })?;
    if let Some(path) = line {
        id = state.find_line(id, &path).ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("game {name:?} has no variation line {path:?} in this index: ask for a line as a hit on it names it (variation.path)"),
            )
        })?;
    }
    let deadline = Instant::now() + state.config.timeout;
    // What `run` sets when the deadline passes (reading a record does not check it).
    let stop = Stop::new();
    if sgf {
        let record = state
            .run(&stop, deadline, move |s| s.index.record(id))
            .await?;
        let file_name = format!(
            "{}-{number}.sgf",
            file.rsplit('/')
                .next()
                .unwrap_or("game")
                .trim_end_matches(".sgf")
        );
        // Only the characters a file name may safely carry in the header.
        let file_name: String = file_name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
            .unwrap_or(HeaderValue::from_static("attachment"));
        return Ok((
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/x-go-sgf"),
                ),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            record,
        )
            .into_response());
    }
    // The record file's name as it is a path here: each part percent-encoded (a `#`, `?` or `%`
    // in a name must reach this handler, not end the link).
    let link = format!("/api/game/{}/{number}/sgf", encode_path(file));
    let view = state
        .run(&stop, deadline, move |s| {
            let info = s.index.game(id)?;
            let line = s.index.main_line(id)?;
            let at = at.unwrap_or(line.moves.len());
            let position = s.index.position_at(id, at)?;
            let stones = |c| position.stones(c).iter().map(|p| p.sgf_string()).collect();
            let (black, white) = (stones(qipu::Color::Black), stones(qipu::Color::White));
            let variation = s.index.variation(id);
            let evaluations = match variation {
                None if with_evals => evaluations_of(&s.index, id)?,
                _ => None,
            };
            let mistakes = match evaluations {
                Some(_) => Some(game_mistakes(&s.index, id, marked)?),
                None => None,
            };
            Ok(GameView {
                info,
                line: variation.map(|v| LineView {
                    path: v.path,
                    from: v.from,
                }),
                board: line.board,
                moves: line.moves,
                at,
                black,
                white,
                sgf: link,
                mistake_threshold: mistakes.as_ref().map(|_| threshold.to_string()),
                evaluations,
                mistakes,
            })
        })
        .await?;
    Ok(json_response(StatusCode::OK, &view))
}

/// The evaluations game `id`'s record carries, read from its stored record by the library (as
/// `qipu show --json` gives them).
fn evaluations_of(
    index: &Shards,
    id: GameId,
) -> Result<Option<qipu::records::Evaluations>, qipu::Error> {
    let record = index.record(id)?;
    // The stored record is the game's own text: its one game.
    let file = qipu::records::read_record(&record);
    Ok(file
        .games
        .first()
        .and_then(qipu::records::RecordGame::evaluations))
}

/// Game `id`'s moves that lost at least what `marked` asks, in move order: the library's
/// search for mistakes within that one game, so the board marks what `/api/mistakes` finds.
fn game_mistakes(
    index: &Shards,
    id: GameId,
    marked: qipu::Mistakes,
) -> Result<Vec<qipu::Mistake>, qipu::Error> {
    let mut hits = index.mistakes(&Query::mistakes(marked).within([id]))?.hits;
    hits.sort_by_key(|m| m.move_number);
    Ok(hits)
}

/// `GET /api/stats`: what `qipu stats --json` says (taken when the server started).
async fn stats(state: Shared, pairs: Pairs) -> Result<Response, ApiError> {
    params(pairs)?.finish("/api/stats")?;
    Ok(json_response(StatusCode::OK, &state.stats))
}

/// `GET /api/health`
async fn health(state: Shared, pairs: Pairs) -> Result<Response, ApiError> {
    params(pairs)?.finish("/api/health")?;
    Ok(json_response(
        StatusCode::OK,
        &serde_json::json!({"status": "ok", "games": state.index.len()}),
    ))
}

/// A path's parts percent-encoded, its slashes kept: every byte but the unreserved ones of
/// RFC 3986 (letters, digits, `-._~`).
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
