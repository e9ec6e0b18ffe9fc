-- The tables of `qipu export --clickhouse`, written by qipu. load.sh runs this on every server
-- with {{cluster}} replaced by the cluster's name (QIPU_CLUSTER); each statement is safe to run
-- again. Every server holds the `*_local` tables (its shard of the rows) and the `Distributed`
-- tables that queries name; `symmetries` is small and whole on every server, since queries
-- join it on the server they were sent to.

CREATE DATABASE IF NOT EXISTS qipu;

-- Continuation statistics: per position hash (as the games played it), move played next and
-- the games' facts, how many games played it and how they ended. A position's continuations
-- are the rows of its images' hashes: with the table sorted by hash first, each image is one
-- range of the primary key, and one GROUP BY sums it (see `qipu search --position F --sql`).
-- AggregatingMergeTree with SimpleAggregateFunction columns is SummingMergeTree with a `min`
-- beside the sums: rows of one key loaded twice (a second export of new games, a shard's
-- parts) are summed in the background, as the lichess explorer's merge operator sums its
-- counters; queries sum anyway, so an unmerged part never changes an answer.
CREATE TABLE IF NOT EXISTS qipu.stats_local
(
    hash            UInt64,                  -- Zobrist hash of the position
    next_color      LowCardinality(String),  -- 'B', 'W'; '' where the games ended there
    next_point      LowCardinality(String),  -- SGF point as played; '' a pass (or the end)
    year            UInt16,                  -- 0: undated
    month           UInt8,                   -- 1-12; 0: no month (filters read it as January)
    black_rank      UInt8,                   -- 50k = 1 ... 1k = 50, 1d = 51 ... 1p = 61 ... 9p = 69; 0 unknown
    white_rank      UInt8,
    handicap        UInt8,                   -- HA; 0 when not given
    komi_quarters   Int16,                   -- komi in quarter points (3.75 is 15); -32768 when not given
    games           SimpleAggregateFunction(sum, UInt64),  -- each exact copy counted (the oracle's count)
    black_wins      SimpleAggregateFunction(sum, UInt64),
    white_wins      SimpleAggregateFunction(sum, UInt64),
    games_once      SimpleAggregateFunction(sum, UInt64),  -- a set of exact copies counted once (qipu's default)
    black_wins_once SimpleAggregateFunction(sum, UInt64),
    white_wins_once SimpleAggregateFunction(sum, UInt64),
    example         SimpleAggregateFunction(min, UInt32),  -- first game of the row (qipu.games.game)
    example_once    SimpleAggregateFunction(min, UInt32)   -- of games_once; 4294967295 when none
)
ENGINE = AggregatingMergeTree
-- The primary index holds the hash only: a lookup is by hash, and a key of nine columns would
-- make the in-memory index nine times larger for nothing.
PRIMARY KEY hash
ORDER BY (hash, next_color, next_point, year, month, black_rank, white_rank, handicap, komi_quarters);

-- Sharded by the position hash. Zobrist hashes are uniform, so shards get equal shares with no
-- hot spot (the empty board's rows are one hash among millions); all rows of one hash live on
-- one shard, so each shard's partial sums per hash are complete and the initiator only adds;
-- a query names its images' hashes (at most 8, 16 with colours swapped), so with
-- optimize_skip_unused_shards = 1 it reaches at most that many shards, whatever their number.
CREATE TABLE IF NOT EXISTS qipu.stats AS qipu.stats_local
ENGINE = Distributed('{{cluster}}', qipu, stats_local, hash);

-- One row per game: who, when, result, and the facts the statistics are keyed by. Continuation
-- rows name games by `game` (the example); games are looked up by it.
CREATE TABLE IF NOT EXISTS qipu.games_local
(
    game         UInt32,             -- the index's number of the game
    file         String,             -- path of its record file as indexed
    game_in_file UInt32,             -- its place in that file: FILE#GAME names it
    black        Nullable(String),
    white        Nullable(String),
    date         Nullable(String),
    result       Nullable(String),
    event        Nullable(String),
    winner       Nullable(String),   -- 'B', 'W' as the oracle reads RE; NULL otherwise
    width        UInt8,
    height       UInt8,
    moves        UInt32,
    copy_of      Nullable(UInt32),   -- the earlier game it is an exact copy of
    removed      Bool,               -- hidden: its input changed since it was indexed
    long         Bool,               -- has positions past move 2047, which the statistics lack
    year         UInt16,
    month        UInt8,
    black_rank   UInt8,
    white_rank   UInt8,
    handicap     UInt8,
    komi_quarters Nullable(Int16)  -- komi in quarter points (3.75 is 15)
)
ENGINE = MergeTree
ORDER BY game;

-- Sharded by game number: consecutive games go round the shards, so every shard holds an even
-- share of every period and source; a look-up of a few examples by number reaches the shards
-- holding them (optimize_skip_unused_shards).
CREATE TABLE IF NOT EXISTS qipu.games AS qipu.games_local
ENGINE = Distributed('{{cluster}}', qipu, games_local, game);

-- For each board and symmetry (numbered as qipu numbers them: 0 identity, 1 mirror x,
-- 2 mirror y, 3 half turn, 4 transpose, 5 and 6 quarter turns, 7 anti-transpose; rectangles
-- have 0-3), each point and its image; a pass ('') is its own image. A move played at `image`
-- where the query's image under `sym` stood is `point` in the query's orientation.
CREATE TABLE IF NOT EXISTS qipu.symmetries
(
    width  UInt8,
    height UInt8,
    sym    UInt8,
    point  String,
    image  String
)
ENGINE = MergeTree
ORDER BY (width, height, sym, image);
