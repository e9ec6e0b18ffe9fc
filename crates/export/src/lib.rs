//! A qipu index as Parquet files, for the column engines that data work already runs (DuckDB,
//! ClickHouse, Spark, pandas/pyarrow): `games.parquet` (one row per game), `positions.parquet`
//! (the position table: where each position was played and what came next) and
//! `hash_keys.parquet` (the Zobrist keys a position's hash is made of, so that an engine can
//! hash a position of its own and look it up). With the three, one `GROUP BY` answers "which
//! games reached this position, and what was played next" as `qipu search` does, for every
//! position the table holds (at most [`qipu::TABLE_STONES`] stones, up to move
//! [`qipu::TABLE_MOVES`]). The schema is in the guide, `docs/exports.md`.
//!
//! The export streams: games and table entries are read from the index's memory-mapped files
//! and written one row group at a time, so memory stays at one row group per file (about
//! 20 MB for positions) whatever the index's size. Each file is written under a temporary
//! name and renamed when complete, so a reader never sees half a file.
//!
//! [`clickhouse::export`] writes the same games with the continuation statistics
//! ([`stats`]: the position table summed per position, next move and the games' facts) for
//! ClickHouse, and [`sql::position_sql`] the query that answers a position from them.
//!
//! It stands on the library face ([`qipu::Index`]) only, as every client does.

#![warn(missing_docs)]

pub mod clickhouse;
pub mod sql;
pub mod stats;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use qipu::{Color, Index, Point, Position};

/// Rows of a `positions.parquet` row group: 1 Mi entries, 4–8 MB compressed. Engines split
/// scans by row group (DuckDB reads one per thread; Spark and ClickHouse like 1–128 MB), and the
/// min/max statistics per group let an engine skip groups whose hash range misses the probe, so
/// groups are large enough to amortise their metadata and small enough to skip and parallelise.
pub const POSITION_ROW_GROUP: usize = 1 << 20;

/// Rows of a `games.parquet` row group: 128 Ki games (a few MB with the names).
pub const GAME_ROW_GROUP: usize = 1 << 17;

/// The zstd level: 3, zstd's default — the export is meant to take no longer than indexing,
/// and higher levels cost several times the time for a few percent.
const ZSTD_LEVEL: i32 = 3;

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Creating, writing or renaming an output file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS's words.
        source: std::io::Error,
    },
    /// The Parquet writer refused (it should not: the schemas are fixed).
    #[error("{}: {source}", path.display())]
    Parquet {
        /// The file being written.
        path: PathBuf,
        /// The writer's words.
        source: parquet::errors::ParquetError,
    },
    /// Reading the index failed.
    #[error(transparent)]
    Index(#[from] qipu::Error),
}

/// How far an export is, for a progress bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Games written.
    pub games: u64,
    /// Position-table entries written.
    pub positions: u64,
}

/// What an export wrote.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Rows of `games.parquet`.
    pub games: u64,
    /// Rows of `positions.parquet`.
    pub positions: u64,
    /// Rows of `hash_keys.parquet`.
    pub keys: u64,
    /// Each file written, with its size in bytes.
    pub files: Vec<(PathBuf, u64)>,
    /// Wall time.
    pub seconds: f64,
}

/// The file names, in the output folder.
pub mod file {
    /// One row per game.
    pub const GAMES: &str = "games.parquet";
    /// The position table.
    pub const POSITIONS: &str = "positions.parquet";
    /// The Zobrist keys of positions' hashes.
    pub const HASH_KEYS: &str = "hash_keys.parquet";
}

const GAMES_SCHEMA: &str = "message games {
    REQUIRED INT32 game (INTEGER(32,false));
    REQUIRED BYTE_ARRAY file (STRING);
    REQUIRED INT32 game_in_file (INTEGER(32,false));
    OPTIONAL BYTE_ARRAY black (STRING);
    OPTIONAL BYTE_ARRAY white (STRING);
    OPTIONAL BYTE_ARRAY date (STRING);
    OPTIONAL BYTE_ARRAY result (STRING);
    OPTIONAL BYTE_ARRAY event (STRING);
    OPTIONAL BYTE_ARRAY winner (STRING);
    REQUIRED INT32 width (INTEGER(8,false));
    REQUIRED INT32 height (INTEGER(8,false));
    REQUIRED INT32 moves (INTEGER(32,false));
    OPTIONAL INT32 copy_of (INTEGER(32,false));
    REQUIRED BOOLEAN removed;
    REQUIRED BOOLEAN long;
    REQUIRED INT32 year (INTEGER(16,false));
    REQUIRED INT32 month (INTEGER(8,false));
    REQUIRED INT32 black_rank (INTEGER(8,false));
    REQUIRED INT32 white_rank (INTEGER(8,false));
    REQUIRED INT32 handicap (INTEGER(8,false));
    OPTIONAL INT32 komi_quarters (INTEGER(16,true));
}";

const POSITIONS_SCHEMA: &str = "message positions {
    REQUIRED INT64 hash (INTEGER(64,false));
    REQUIRED INT32 game (INTEGER(32,false));
    REQUIRED INT32 move (INTEGER(16,false));
    OPTIONAL BYTE_ARRAY next_color (STRING);
    OPTIONAL BYTE_ARRAY next_point (STRING);
    OPTIONAL INT32 next_x (INTEGER(8,false));
    OPTIONAL INT32 next_y (INTEGER(8,false));
}";

const KEYS_SCHEMA: &str = "message hash_keys {
    OPTIONAL BYTE_ARRAY color (STRING);
    REQUIRED INT32 x (INTEGER(8,false));
    REQUIRED INT32 y (INTEGER(8,false));
    REQUIRED INT64 key (INTEGER(64,false));
}";

/// One column's values for a row group; optional columns carry definition levels (1 present,
/// 0 null) and values for the present rows only, as Parquet stores them.
pub(crate) enum Column {
    Int32(Vec<i32>),
    OptInt32(Vec<i32>, Vec<i16>),
    Int64(Vec<i64>),
    Text(Vec<ByteArray>),
    OptText(Vec<ByteArray>, Vec<i16>),
    Bool(Vec<bool>),
}

impl Column {
    fn clear(&mut self) {
        match self {
            Column::Int32(v) => v.clear(),
            Column::OptInt32(v, d) => {
                v.clear();
                d.clear();
            }
            Column::Int64(v) => v.clear(),
            Column::Text(v) => v.clear(),
            Column::OptText(v, d) => {
                v.clear();
                d.clear();
            }
            Column::Bool(v) => v.clear(),
        }
    }

    pub(crate) fn opt_int(&mut self, v: Option<u32>) {
        if let Column::OptInt32(vals, defs) = self {
            defs.push(i16::from(v.is_some()));
            if let Some(v) = v {
                // Unsigned 32-bit values are stored in INT32's bits, as Parquet says.
                vals.push(v as i32);
            }
        }
    }

    pub(crate) fn opt_text(&mut self, v: Option<&str>) {
        self.opt_bytes(v.map(ByteArray::from));
    }

    /// A value made beforehand: cloning a [`ByteArray`] shares its bytes, so the few hundred
    /// distinct next moves of a million table rows are not a million allocations.
    pub(crate) fn opt_bytes(&mut self, v: Option<ByteArray>) {
        if let Column::OptText(vals, defs) = self {
            defs.push(i16::from(v.is_some()));
            if let Some(v) = v {
                vals.push(v);
            }
        }
    }
}

/// A Parquet file being written a row group at a time, under a temporary name.
pub(crate) struct Sink {
    path: PathBuf,
    temp: PathBuf,
    writer: SerializedFileWriter<File>,
    pub(crate) columns: Vec<Column>,
    pub(crate) rows: usize,
    row_group: usize,
    pub(crate) total: u64,
}

impl Sink {
    pub(crate) fn create(
        path: PathBuf,
        schema: &str,
        columns: Vec<Column>,
        row_group: usize,
        metadata: Vec<KeyValue>,
    ) -> Result<Sink, ExportError> {
        let temp = path.with_extension("parquet.partial");
        let parquet_err = |source| ExportError::Parquet {
            path: path.clone(),
            source,
        };
        let schema = Arc::new(parse_message_type(schema).map_err(parquet_err)?);
        let level = ZstdLevel::try_new(ZSTD_LEVEL).map_err(parquet_err)?;
        let props = WriterProperties::builder()
            .set_writer_version(WriterVersion::PARQUET_1_0)
            .set_compression(Compression::ZSTD(level))
            .set_max_row_group_size(row_group)
            .set_key_value_metadata(Some(metadata))
            .set_created_by(format!("qipu {}", env!("CARGO_PKG_VERSION")))
            .build();
        let file = File::create(&temp).map_err(|source| ExportError::Io {
            path: temp.clone(),
            source,
        })?;
        let writer =
            SerializedFileWriter::new(file, schema, Arc::new(props)).map_err(parquet_err)?;
        Ok(Sink {
            path,
            temp,
            writer,
            columns,
            rows: 0,
            row_group,
            total: 0,
        })
    }

    /// Counts a row whose values were pushed into the columns; writes the group when full.
    pub(crate) fn row_done(&mut self) -> Result<(), ExportError> {
        self.rows += 1;
        if self.rows >= self.row_group {
            self.flush()?;
        }
        Ok(())
    }

    pub(crate) fn flush(&mut self) -> Result<(), ExportError> {
        if self.rows == 0 {
            return Ok(());
        }
        let path = self.path.clone();
        let err = |source| ExportError::Parquet {
            path: path.clone(),
            source,
        };
        let mut group = self.writer.next_row_group().map_err(err)?;
        for col in &self.columns {
            let Some(mut w) = group.next_column().map_err(err)? else {
                break;
            };
            match col {
                Column::Int32(v) => w.typed::<Int32Type>().write_batch(v, None, None),
                Column::OptInt32(v, d) => w.typed::<Int32Type>().write_batch(v, Some(d), None),
                Column::Int64(v) => w.typed::<Int64Type>().write_batch(v, None, None),
                Column::Text(v) => w.typed::<ByteArrayType>().write_batch(v, None, None),
                Column::OptText(v, d) => w.typed::<ByteArrayType>().write_batch(v, Some(d), None),
                Column::Bool(v) => w.typed::<BoolType>().write_batch(v, None, None),
            }
            .map_err(err)?;
            w.close().map_err(err)?;
        }
        group.close().map_err(err)?;
        self.total += self.rows as u64;
        self.rows = 0;
        self.columns.iter_mut().for_each(Column::clear);
        Ok(())
    }

    /// Writes the last group and the footer, then gives the file its name.
    pub(crate) fn finish(mut self) -> Result<(PathBuf, u64), ExportError> {
        self.flush()?;
        let path = self.path.clone();
        self.writer.close().map_err(|source| ExportError::Parquet {
            path: path.clone(),
            source,
        })?;
        std::fs::rename(&self.temp, &path).map_err(|source| ExportError::Io {
            path: path.clone(),
            source,
        })?;
        let len = std::fs::metadata(&path).map_or(0, |m| m.len());
        Ok((path, len))
    }
}

pub(crate) fn kv(key: &str, value: impl ToString) -> KeyValue {
    KeyValue::new(key.to_string(), value.to_string())
}

/// Makes the folder `out` (if missing) and gives the key-value metadata every exported file
/// carries: what wrote it and the position table's limits.
pub(crate) fn begin(out: &Path) -> Result<Vec<KeyValue>, ExportError> {
    std::fs::create_dir_all(out).map_err(|source| ExportError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    Ok(vec![
        kv("qipu.version", env!("CARGO_PKG_VERSION")),
        kv("qipu.table_stones", qipu::TABLE_STONES),
        kv("qipu.table_moves", qipu::TABLE_MOVES),
    ])
}

/// Writes `index` into the folder `out` (created if missing): `games.parquet`,
/// `positions.parquet` and `hash_keys.parquet`, replacing files of those names. `progress` is
/// called after each row group.
pub fn export(
    index: &Index,
    out: &Path,
    mut progress: impl FnMut(Progress),
) -> Result<Summary, ExportError> {
    let started = Instant::now();
    let meta = begin(out)?;
    let mut summary = Summary::default();
    let mut done = Progress::default();

    // Games, and the board sizes the keys file needs.
    let (games, mut boards) = write_games(index, out, &meta, &mut progress)?;
    summary.games = games.1;
    summary.files.push(games.0);
    done.games = summary.games;

    // The position table, as stored.
    let mut positions = Sink::create(
        out.join(file::POSITIONS),
        POSITIONS_SCHEMA,
        vec![
            Column::Int64(Vec::with_capacity(POSITION_ROW_GROUP)),
            Column::Int32(Vec::with_capacity(POSITION_ROW_GROUP)),
            Column::Int32(Vec::with_capacity(POSITION_ROW_GROUP)),
            Column::OptText(Vec::new(), Vec::with_capacity(POSITION_ROW_GROUP)),
            Column::OptText(Vec::new(), Vec::with_capacity(POSITION_ROW_GROUP)),
            Column::OptInt32(Vec::new(), Vec::with_capacity(POSITION_ROW_GROUP)),
            Column::OptInt32(Vec::new(), Vec::with_capacity(POSITION_ROW_GROUP)),
        ],
        POSITION_ROW_GROUP,
        meta.clone(),
    )?;
    // SGF points as strings, made once: a row group repeats a few hundred of them a million
    // times.
    let names: Vec<ByteArray> = (0..52u16 * 52)
        .map(|i| {
            ByteArray::from(
                Point::new((i % 52) as u8, (i / 52) as u8)
                    .sgf_string()
                    .as_str(),
            )
        })
        .collect();
    let colors = [ByteArray::from("B"), ByteArray::from("W")];
    let pass = ByteArray::from("");
    for e in index.position_table() {
        if index.is_variation(e.game) {
            continue;
        }
        let c = &mut positions.columns;
        if let Column::Int64(v) = &mut c[0] {
            // Unsigned 64-bit values in INT64's bits, as Parquet says.
            v.push(e.hash as i64);
        }
        push_int(&mut c[1], e.game);
        push_int(&mut c[2], e.k);
        let next = e.next;
        c[3].opt_bytes(next.map(|m| colors[usize::from(m.color == Color::White)].clone()));
        let point = next.map(|m| match m.point {
            Some(p) if p.x < 52 && p.y < 52 => {
                names[usize::from(p.y) * 52 + usize::from(p.x)].clone()
            }
            _ => pass.clone(),
        });
        c[4].opt_bytes(point);
        let at = next.and_then(|m| m.point);
        c[5].opt_int(at.map(|p| u32::from(p.x)));
        c[6].opt_int(at.map(|p| u32::from(p.y)));
        positions.row_done()?;
        if positions.rows == 0 {
            done.positions = positions.total;
            progress(done);
        }
    }
    summary.positions = positions.total + positions.rows as u64;
    summary.files.push(positions.finish()?);
    done.positions = summary.positions;
    progress(done);

    // The keys: every stone on the largest board the index holds, and each board's own key.
    let mut keys = Sink::create(
        out.join(file::HASH_KEYS),
        KEYS_SCHEMA,
        vec![
            Column::OptText(Vec::new(), Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int64(Vec::new()),
        ],
        GAME_ROW_GROUP,
        meta,
    )?;
    boards.sort_unstable();
    let (max_w, max_h) = boards
        .iter()
        .fold((0, 0), |(w, h), &(bw, bh)| (w.max(bw), h.max(bh)));
    let key_row = |keys: &mut Sink, color: Option<Color>, x: u8, y: u8, key: u64| {
        let c = &mut keys.columns;
        c[0].opt_text(color.map(color_str));
        push_int(&mut c[1], u32::from(x));
        push_int(&mut c[2], u32::from(y));
        if let Column::Int64(v) = &mut c[3] {
            v.push(key as i64);
        }
        keys.row_done()
    };
    for &(w, h) in &boards {
        key_row(&mut keys, None, w, h, Position::empty_hash(w, h))?;
    }
    for color in [Color::Black, Color::White] {
        for y in 0..max_h {
            for x in 0..max_w {
                let key = Position::stone_key(color, Point::new(x, y));
                key_row(&mut keys, Some(color), x, y, key)?;
            }
        }
    }
    summary.keys = keys.total + keys.rows as u64;
    summary.files.push(keys.finish()?);
    // What was written from a damaged block of the index is not an export.
    index.check_intact()?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// Writes `games.parquet` into `out`: one row per game, with its facts. Returns the file, its
/// rows, and the board sizes the index holds (in order of first appearance).
#[allow(clippy::type_complexity)]
pub(crate) fn write_games(
    index: &Index,
    out: &Path,
    meta: &[KeyValue],
    progress: &mut impl FnMut(Progress),
) -> Result<(((PathBuf, u64), u64), Vec<(u8, u8)>), ExportError> {
    let mut games = Sink::create(
        out.join(file::GAMES),
        GAMES_SCHEMA,
        vec![
            Column::Int32(Vec::new()),
            Column::Text(Vec::new()),
            Column::Int32(Vec::new()),
            Column::OptText(Vec::new(), Vec::new()),
            Column::OptText(Vec::new(), Vec::new()),
            Column::OptText(Vec::new(), Vec::new()),
            Column::OptText(Vec::new(), Vec::new()),
            Column::OptText(Vec::new(), Vec::new()),
            Column::OptText(Vec::new(), Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::OptInt32(Vec::new(), Vec::new()),
            Column::Bool(Vec::new()),
            Column::Bool(Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::OptInt32(Vec::new(), Vec::new()),
        ],
        GAME_ROW_GROUP,
        meta.to_vec(),
    )?;
    let mut boards: Vec<(u8, u8)> = Vec::new();
    for id in 0..index.len() {
        // Games played only: a variation line (`qipu index --variations`) is not a game, and
        // its table entries are left out with it.
        if index.is_variation(id) {
            continue;
        }
        let info = index.game(id)?;
        let facts = index.facts(id)?;
        if !boards.contains(&facts.board) {
            boards.push(facts.board);
        }
        let c = &mut games.columns;
        push_int(&mut c[0], id);
        if let Column::Text(v) = &mut c[1] {
            v.push(ByteArray::from(info.file.as_str()));
        }
        push_int(&mut c[2], info.game_in_file);
        c[3].opt_text(info.black.as_deref());
        c[4].opt_text(info.white.as_deref());
        c[5].opt_text(info.date.as_deref());
        c[6].opt_text(info.result.as_deref());
        c[7].opt_text(info.event.as_deref());
        c[8].opt_text(facts.winner.map(color_str));
        push_int(&mut c[9], u32::from(facts.board.0));
        push_int(&mut c[10], u32::from(facts.board.1));
        push_int(&mut c[11], facts.moves);
        c[12].opt_int(facts.copy_of);
        push_bool(&mut c[13], facts.removed);
        push_bool(&mut c[14], facts.long);
        push_int(&mut c[15], u32::from(facts.year));
        push_int(&mut c[16], u32::from(facts.month));
        push_int(&mut c[17], u32::from(facts.black_rank));
        push_int(&mut c[18], u32::from(facts.white_rank));
        push_int(&mut c[19], u32::from(facts.handicap));
        // A signed 16-bit value in INT32, sign extended.
        c[20].opt_int(facts.komi_quarters.map(|k| i32::from(k) as u32));
        games.row_done()?;
        if games.rows == 0 {
            progress(Progress {
                games: games.total,
                positions: 0,
            });
        }
    }
    let total = games.total + games.rows as u64;
    progress(Progress {
        games: total,
        positions: 0,
    });
    Ok(((games.finish()?, total), boards))
}

pub(crate) fn push_int(c: &mut Column, v: u32) {
    if let Column::Int32(vals) = c {
        vals.push(v as i32);
    }
}

pub(crate) fn push_bool(c: &mut Column, v: bool) {
    if let Column::Bool(vals) = c {
        vals.push(v);
    }
}

pub(crate) fn color_str(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}
