//! `qipu export --clickhouse OUT/`: an index as the tables an explorer needs in ClickHouse —
//! the games, the continuation statistics ([`crate::stats`]) and the board symmetries that map
//! a continuation back into a query's orientation — as Parquet files ClickHouse ingests, with
//! the DDL (`schema.sql`: local tables on every server, `Distributed` tables over a cluster)
//! and a load script (`load.sh`, for one server or a cluster). [`crate::sql::position_sql`]
//! writes the query that answers a position from these tables.

use std::path::Path;
use std::time::Instant;

use parquet::data_type::ByteArray;
use qipu::{Index, Point, Symmetry};

use crate::stats::{move_key, stats_rows};
use crate::{push_int, Column, ExportError, Progress, Sink, Summary};

/// File names of the ClickHouse export, in the output folder.
pub mod file {
    /// One row per game (the same file as the Parquet export's).
    pub const GAMES: &str = crate::file::GAMES;
    /// The continuation statistics.
    pub const STATS: &str = "stats.parquet";
    /// Each board's symmetries, point by point.
    pub const SYMMETRIES: &str = "symmetries.parquet";
    /// The tables' DDL.
    pub const SCHEMA: &str = "schema.sql";
    /// The load script.
    pub const LOAD: &str = "load.sh";
}

/// Rows of a `stats.parquet` row group: 1 Mi rows, as the position table's (a few MB).
pub const STATS_ROW_GROUP: usize = 1 << 20;

/// The token of `schema.sql` that `load.sh` replaces with the cluster's name.
pub const CLUSTER_TOKEN: &str = "{{cluster}}";

const STATS_SCHEMA: &str = "message stats {
    REQUIRED INT64 hash (INTEGER(64,false));
    REQUIRED BYTE_ARRAY next_color (STRING);
    REQUIRED BYTE_ARRAY next_point (STRING);
    REQUIRED INT32 year (INTEGER(16,false));
    REQUIRED INT32 month (INTEGER(8,false));
    REQUIRED INT32 black_rank (INTEGER(8,false));
    REQUIRED INT32 white_rank (INTEGER(8,false));
    REQUIRED INT32 handicap (INTEGER(8,false));
    REQUIRED INT32 komi_quarters (INTEGER(16,true));
    REQUIRED INT32 games (INTEGER(32,false));
    REQUIRED INT32 black_wins (INTEGER(32,false));
    REQUIRED INT32 white_wins (INTEGER(32,false));
    REQUIRED INT32 games_once (INTEGER(32,false));
    REQUIRED INT32 black_wins_once (INTEGER(32,false));
    REQUIRED INT32 white_wins_once (INTEGER(32,false));
    REQUIRED INT32 example (INTEGER(32,false));
    REQUIRED INT32 example_once (INTEGER(32,false));
}";

const SYMMETRIES_SCHEMA: &str = "message symmetries {
    REQUIRED INT32 width (INTEGER(8,false));
    REQUIRED INT32 height (INTEGER(8,false));
    REQUIRED INT32 sym (INTEGER(8,false));
    REQUIRED BYTE_ARRAY point (STRING);
    REQUIRED BYTE_ARRAY image (STRING);
}";

/// The komi of a game that gives none, in `stats.parquet` and the tables (`komi_quarters` is a
/// key column, and ClickHouse keys are best not nullable).
pub const NO_KOMI: i16 = i16::MIN;

/// `example_once` of a row whose `games_once` is 0 (`min` leaves it behind any game).
pub const NO_EXAMPLE: u32 = u32::MAX;

/// The DDL, with [`CLUSTER_TOKEN`] where the cluster's name goes.
pub const SCHEMA_SQL: &str = include_str!("schema.sql");

/// The load script.
pub const LOAD_SH: &str = include_str!("load.sh");

/// Writes `index` into the folder `out` (created if missing) for ClickHouse: `games.parquet`,
/// `stats.parquet`, `symmetries.parquet`, `schema.sql` and `load.sh`, replacing files of those
/// names. `progress` is called after each row group; its `positions` counts statistics rows.
pub fn export(
    index: &Index,
    out: &Path,
    mut progress: impl FnMut(Progress),
) -> Result<Summary, ExportError> {
    let started = Instant::now();
    let meta = crate::begin(out)?;
    let mut summary = Summary::default();
    let ((games_file, games), boards) = crate::write_games(index, out, &meta, &mut progress)?;
    summary.games = games;
    summary.files.push(games_file);

    let mut stats = Sink::create(
        out.join(file::STATS),
        STATS_SCHEMA,
        (0..17)
            .map(|i| match i {
                0 => Column::Int64(Vec::with_capacity(STATS_ROW_GROUP)),
                1 | 2 => Column::Text(Vec::with_capacity(STATS_ROW_GROUP)),
                _ => Column::Int32(Vec::with_capacity(STATS_ROW_GROUP)),
            })
            .collect(),
        STATS_ROW_GROUP,
        meta.clone(),
    )?;
    let mut names: std::collections::HashMap<String, ByteArray> = Default::default();
    let mut text = |s: &str| {
        names
            .entry(s.to_string())
            .or_insert_with(|| ByteArray::from(s))
            .clone()
    };
    for row in stats_rows(index) {
        let r = row?;
        let (color, point) = move_key(r.next);
        let (color, point) = (text(color), text(&point));
        let c = &mut stats.columns;
        if let Column::Int64(v) = &mut c[0] {
            // Unsigned 64-bit values in INT64's bits, as Parquet says.
            v.push(r.hash as i64);
        }
        for (i, t) in [(1, color), (2, point)] {
            if let Column::Text(v) = &mut c[i] {
                v.push(t);
            }
        }
        let komi = r.komi_quarters.unwrap_or(NO_KOMI);
        let values = [
            u32::from(r.year),
            u32::from(r.month),
            u32::from(r.black_rank),
            u32::from(r.white_rank),
            u32::from(r.handicap),
            // A signed 16-bit value in INT32, sign extended.
            i32::from(komi) as u32,
            r.games,
            r.black_wins,
            r.white_wins,
            r.games_once,
            r.black_wins_once,
            r.white_wins_once,
            r.example,
            r.example_once.unwrap_or(NO_EXAMPLE),
        ];
        for (i, v) in values.into_iter().enumerate() {
            push_int(&mut c[3 + i], v);
        }
        stats.row_done()?;
        if stats.rows == 0 {
            progress(Progress {
                games,
                positions: stats.total,
            });
        }
    }
    summary.positions = stats.total + stats.rows as u64;
    summary.files.push(stats.finish()?);
    progress(Progress {
        games,
        positions: summary.positions,
    });

    summary.files.push(write_symmetries(out, &boards, meta)?);
    for (name, content) in [(file::SCHEMA, SCHEMA_SQL), (file::LOAD, LOAD_SH)] {
        summary.files.push(write_text(out, name, content)?);
    }
    // What was written from a damaged block of the index is not an export.
    index.check_intact()?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// `symmetries.parquet`: for each board the index holds and each of its symmetries (numbered
/// as [`Symmetry::index`]: 8 on a square, the first 4 on a rectangle), every point and its
/// image, and a pass (`""`) as its own image. A continuation played at `image` in the
/// orientation of the query's image under `sym` is `point` in the query's orientation.
fn write_symmetries(
    out: &Path,
    boards: &[(u8, u8)],
    meta: Vec<parquet::file::metadata::KeyValue>,
) -> Result<(std::path::PathBuf, u64), ExportError> {
    let mut sink = Sink::create(
        out.join(file::SYMMETRIES),
        SYMMETRIES_SCHEMA,
        vec![
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::Int32(Vec::new()),
            Column::Text(Vec::new()),
            Column::Text(Vec::new()),
        ],
        crate::GAME_ROW_GROUP,
        meta,
    )?;
    let mut boards = boards.to_vec();
    boards.sort_unstable();
    for &(w, h) in &boards {
        for &sym in Symmetry::of_board(w, h) {
            let points = (0..h)
                .flat_map(|y| (0..w).map(move |x| Some(Point::new(x, y))))
                .chain([None]);
            for p in points {
                let name = |p: Option<Point>| {
                    ByteArray::from(p.map(Point::sgf_string).unwrap_or_default().as_str())
                };
                let image = p.map(|p| sym.apply(p, w, h));
                let c = &mut sink.columns;
                push_int(&mut c[0], u32::from(w));
                push_int(&mut c[1], u32::from(h));
                push_int(&mut c[2], sym.index() as u32);
                for (i, t) in [(3, name(p)), (4, name(image))] {
                    if let Column::Text(v) = &mut c[i] {
                        v.push(t);
                    }
                }
                sink.row_done()?;
            }
        }
    }
    sink.finish()
}

/// Writes a text file under a temporary name, then renames it, as the Parquet files are.
fn write_text(
    out: &Path,
    name: &str,
    content: &str,
) -> Result<(std::path::PathBuf, u64), ExportError> {
    let path = out.join(name);
    let temp = out.join(format!("{name}.partial"));
    let io = |source| ExportError::Io {
        path: path.clone(),
        source,
    };
    std::fs::write(&temp, content).map_err(io)?;
    #[cfg(unix)]
    if name.ends_with(".sh") {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
    }
    std::fs::rename(&temp, &path).map_err(io)?;
    Ok((path, content.len() as u64))
}
