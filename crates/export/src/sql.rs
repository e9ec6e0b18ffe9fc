//! The ClickHouse query that answers a position's continuation table from the tables of
//! `qipu export --clickhouse` (`qipu search --position F --sql` prints it).
//!
//! Whoever writes such a query must know the hashes of the position's images (one per
//! symmetry, and per colouring with `--swap-colors`), which only qipu's Zobrist keys give: so
//! qipu writes the query, with the images as a literal table. In it:
//! - `occurrences` sums the statistics rows of each image's hash (one range of the table's
//!   sorted key per hash) over the games the filters keep, per (hash, move as played);
//! - `mapped` maps each such move back into the query's orientation through every image with
//!   that hash (the `symmetries` table gives the point), keeping the smallest SGF point, ties
//!   to the first image as qipu orders them. This is what makes a table summed per hash exact:
//!   the images an occurrence matches are those whose hash it has, the same for every
//!   occurrence of the hash, so per (hash, move) the mapped point is one;
//! - `moves` sums per mapped move, and the last step names each row's example game.
//!
//! The columns: `color`, `point` (SGF, `''` a pass), `count`, `black_wins`, `white_wins`,
//! `other`, `mover_rank`, `mover_ranked`, `opponent_rank`, `opponent_ranked`, `first_year`,
//! `last_year`, `example` — those of `qipu search --json`'s continuation lines.

use std::fmt::Write as _;

use qipu::{Color, Handicap, Query, Symmetry};

/// A query the statistics tables cannot answer, said so that the user can mend it.
#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    /// Only positions are answered from the statistics.
    #[error("--sql writes a query for a position (--position, --black/--white) only")]
    NotAPosition,
    /// The statistics hold positions with few stones only.
    #[error(
        "--sql: the statistics hold positions of at most {max} stones; this one has {stones} \
         (qipu search answers it from the index)"
    )]
    TooManyStones {
        /// Stones of the position.
        stones: u32,
        /// The table's limit ([`qipu::TABLE_STONES`]).
        max: u32,
    },
    /// An option the tables cannot answer.
    #[error("--sql: {0} cannot be answered from the statistics (they hold no game information beyond dates, ranks, handicap and komi)")]
    Unsupported(&'static str),
}

/// One image of the query: its place in qipu's order, symmetry, colours swapped, hash.
struct Image {
    sym: Symmetry,
    swapped: bool,
    hash: u64,
}

/// The ClickHouse query answering `query` (a position) from the exported tables: one row per
/// continuation, most frequent first, as `qipu search` counts them (with
/// [`Query::with_copies`], each exact copy counted, as the oracle does).
pub fn position_sql(query: &Query) -> Result<String, SqlError> {
    let position = query.searched_position().ok_or(SqlError::NotAPosition)?;
    let o = query.options();
    if o.by_game_information {
        return Err(SqlError::Unsupported("a game-information query (--query)"));
    }
    if o.board.is_some() {
        return Err(SqlError::Unsupported("a board filter"));
    }
    let stones = position.stones(Color::Black).len() + position.stones(Color::White).len();
    let stones = stones as u32;
    if stones > qipu::TABLE_STONES {
        return Err(SqlError::TooManyStones {
            stones,
            max: qipu::TABLE_STONES,
        });
    }
    let (w, h) = (position.width(), position.height());
    // The images in the order qipu's search makes them: a tie between images goes to the
    // first.
    let syms: &[Symmetry] = if o.symmetry {
        Symmetry::of_board(w, h)
    } else {
        &[Symmetry::Identity]
    };
    let mut images = Vec::new();
    for &sym in syms {
        let t = position.transformed(sym);
        images.push(Image {
            sym,
            swapped: false,
            hash: t.hash(),
        });
        if o.swap_colors {
            images.push(Image {
                sym,
                swapped: true,
                hash: t.color_swapped().hash(),
            });
        }
    }
    let values = images
        .iter()
        .enumerate()
        .map(|(i, im)| {
            format!(
                "({i}, {}, {}, {})",
                im.sym.index(),
                u8::from(im.swapped),
                im.hash
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut hashes: Vec<u64> = images.iter().map(|i| i.hash).collect();
    hashes.sort_unstable();
    hashes.dedup();
    let hashes = hashes
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");

    let mut filters = String::new();
    let month = |m: qipu::Month| u32::from(m.year) * 100 + u32::from(m.month);
    if o.since.is_some() || o.until.is_some() {
        filters.push_str("\n          AND year != 0");
    }
    if let Some(m) = o.since {
        let _ = write!(
            filters,
            "\n          AND year * 100 + greatest(month, 1) >= {}",
            month(m)
        );
    }
    if let Some(m) = o.until {
        let _ = write!(
            filters,
            "\n          AND year * 100 + greatest(month, 1) <= {}",
            month(m)
        );
    }
    if let Some(r) = o.min_rank {
        let _ = write!(
            filters,
            "\n          AND least(black_rank, white_rank) >= {r}"
        );
    }
    match o.handicap {
        Handicap::Even => filters.push_str("\n          AND handicap <= 1"),
        Handicap::Handicap => filters.push_str("\n          AND handicap >= 2"),
        _ => {}
    }
    if let Some((lo, hi)) = o.komi_quarters {
        let _ = write!(
            filters,
            "\n          AND komi_quarters != {} AND komi_quarters BETWEEN {lo} AND {hi}",
            crate::clickhouse::NO_KOMI
        );
    }
    let (n, b, wn, ex) = if o.with_copies {
        ("games", "black_wins", "white_wins", "example")
    } else {
        (
            "games_once",
            "black_wins_once",
            "white_wins_once",
            "example_once",
        )
    };
    let opposite = "if(o_color = 'B', 'W', 'B')";
    let to_move = match o.to_move {
        // The colour to move in the query's colours: swapped only when every image the
        // occurrence matches is colour-swapped, as qipu decides it.
        Some(c) => format!(
            "\n        HAVING if(min(i.swapped) = 1, {opposite}, o_color) = '{}'",
            if c == Color::Black { "B" } else { "W" }
        ),
        None => String::new(),
    };
    let copies = if o.with_copies {
        "each exact copy counted (--with-copies, the oracle's count)"
    } else {
        "a set of exact copies counted once"
    };
    Ok(format!(
        "-- Continuations of a position of {stones} stones on {w}x{h} ({images} images), {copies},
-- from the tables of `qipu export --clickhouse` (schema.sql).
WITH
    images AS (
        SELECT * FROM VALUES('ord UInt8, sym UInt8, swapped UInt8, hash UInt64', {values})
    ),
    occurrences AS (
        -- The rows of the images' hashes, summed per move as played over the games kept.
        SELECT hash AS o_hash, next_color AS o_color, next_point AS o_point,
               sum({n}) AS o_n, sum({b}) AS o_b, sum({wn}) AS o_w,
               sumIf({n} * if(next_color = 'B', black_rank, white_rank),
                     if(next_color = 'B', black_rank, white_rank) != 0) AS o_ms,
               sumIf({n}, if(next_color = 'B', black_rank, white_rank) != 0) AS o_mn,
               sumIf({n} * if(next_color = 'B', white_rank, black_rank),
                     if(next_color = 'B', white_rank, black_rank) != 0) AS o_os,
               sumIf({n}, if(next_color = 'B', white_rank, black_rank) != 0) AS o_on,
               minIf(year, year != 0 AND {n} > 0) AS o_fy,
               maxIf(year, {n} > 0) AS o_ly,
               -- The example: weaker player strongest, then latest, then first indexed.
               maxIf((least(black_rank, white_rank), year, month, -toInt64({ex})), {n} > 0) AS o_best
        FROM qipu.stats
        WHERE hash IN ({hashes}) AND next_color != ''{filters}
        GROUP BY hash, next_color, next_point
        HAVING o_n > 0
    ),
    mapped AS (
        -- Each move in the query's orientation: the least SGF point over the images that have
        -- the row's hash (ties: the first image), colours swapped back for swapped images.
        SELECT argMin(({swapped_color}, s.point), (s.point, i.ord)) AS p_move,
               any(o_n) AS p_n, any(o_b) AS p_b, any(o_w) AS p_w,
               any(o_ms) AS p_ms, any(o_mn) AS p_mn, any(o_os) AS p_os, any(o_on) AS p_on,
               any(o_fy) AS p_fy, any(o_ly) AS p_ly, any(o_best) AS p_best
        FROM occurrences
        INNER JOIN images AS i ON i.hash = o_hash
        INNER JOIN qipu.symmetries AS s ON s.sym = i.sym AND s.image = o_point
        WHERE s.width = {w} AND s.height = {h}
        GROUP BY o_hash, o_color, o_point{to_move}
    ),
    moves AS (
        SELECT p_move.1 AS t_color, p_move.2 AS t_point,
               sum(p_n) AS t_n, sum(p_b) AS t_b, sum(p_w) AS t_w,
               sum(p_ms) AS t_ms, sum(p_mn) AS t_mn, sum(p_os) AS t_os, sum(p_on) AS t_on,
               minIf(p_fy, p_fy != 0) AS t_fy, max(p_ly) AS t_ly,
               toUInt32(-max(p_best).4) AS t_example
        FROM mapped
        GROUP BY t_color, t_point
    )
SELECT t_color AS color, t_point AS point, t_n AS count, t_b AS black_wins, t_w AS white_wins,
       t_n - t_b - t_w AS other,
       if(t_mn > 0, round(t_ms / t_mn - 50, 2), NULL) AS mover_rank, t_mn AS mover_ranked,
       if(t_on > 0, round(t_os / t_on - 50, 2), NULL) AS opponent_rank, t_on AS opponent_ranked,
       nullIf(t_fy, 0) AS first_year, nullIf(t_ly, 0) AS last_year,
       concat(g.file, '#', toString(g.game_in_file)) AS example
FROM moves
LEFT JOIN (
    SELECT game, file, game_in_file FROM qipu.games
    WHERE game GLOBAL IN (SELECT t_example FROM moves)
) AS g ON g.game = t_example
ORDER BY count DESC, color, point
",
        images = images.len(),
        swapped_color = format_args!("if(i.swapped = 1, {opposite}, o_color)"),
    ))
}
