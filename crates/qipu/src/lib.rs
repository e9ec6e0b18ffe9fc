//! qipu as a library: an index of Go (weiqi, baduk) game records that answers, exactly,
//! which games reached a position, where a shape or a move sequence was played, and which games
//! match their information (players, dates, results…) — with what was played next.
//!
//! The whole face is here: [`build`] makes an index from record files (SGF, the Weiqi Text
//! Format, Tygem GIB, NGF, UGF/UGI, kifu-line pairs; folders and archives), [`Index::open`]
//! opens it, a [`Query`] says what to look for, and [`Index::search`] gives an [`Answer`]:
//! plain data (it derives `serde::Serialize`) with the hit games and their information, the
//! continuation table, counts and timings. [`Index::record`], [`Index::main_line`] and
//! [`Index::export_sgf`] give the games behind the hits. [`Shards`] searches several indexes
//! (shards of one corpus) as one, with the same answers one index of all their games gives. A failure is an [`Error`] whose
//! [`Error::kind`] says who must act: the user's query ([`ErrorKind::BadQuery`], with the part
//! and place in [`Error::query`]) or the index and the machine (missing, old, damaged, busy,
//! I/O). Nothing here prints.
//!
//! The words a user types for a search's options (sort keys, handicap classes, colours, komi
//! ranges, ranks, months, points) are read here too ([`Sort`]'s and [`Handicap`]'s `FromStr`,
//! [`parse_color`], [`KomiRange`], [`parse_point`]; each kind's words in [`WordKind::accepted`]),
//! so that every client takes the same words.
//!
//! Answers follow the definitions of the qipu oracle: a position hits at k when the board after
//! k moves of a game's main line holds exactly its stones (in some orientation, with
//! [`Query::symmetry`]); a pattern hits where it appears (and did not stand at k − 1); a move
//! sequence hits at the move that completes it.
//!
//! # Examples
//!
//! Each example builds a small index of three games in a temporary folder first (hidden lines,
//! the same in each):
//!
//! ```
//! # fn tiny_index(name: &str) -> std::path::PathBuf {
//! #     let dir = std::env::temp_dir().join(format!("qipu-doc-{name}-{}", std::process::id()));
//! #     let _ = std::fs::remove_dir_all(&dir);
//! #     std::fs::create_dir_all(dir.join("games")).unwrap();
//! #     let games = [
//! #         "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]BR[9p]PW[AlphaGo]DT[2016-03-13]EV[Match]RE[W+R];B[pd];W[dp];B[qp];W[dd];B[fq])",
//! #         "(;GM[1]FF[4]SZ[19]PB[Ke Jie]PW[Iyama Yuta]DT[2017-05-01]RE[W+2.5];B[pd];W[dd];B[qp];W[dp];B[fc])",
//! #         "(;GM[1]FF[4]SZ[19]PB[Shin Jinseo]PW[Ke Jie]DT[2020-01-01]RE[B+R];B[dd];W[pd];B[cp];W[pp];B[cc])",
//! #     ];
//! #     for (i, g) in games.iter().enumerate() {
//! #         std::fs::write(dir.join("games").join(format!("{i}.sgf")), g).unwrap();
//! #     }
//! #     let options = qipu::BuildOptions::default();
//! #     qipu::build(dir.join("index"), &[dir.join("games")], &options, |_| {}).unwrap();
//! #     dir.join("index")
//! # }
//! use qipu::{Index, Query};
//!
//! let index = Index::open(tiny_index("position"))?;
//! // A position typed as points (SGF `pd`, GTP `Q16` or quadrant `0144`): black, then white.
//! let answer = index.search(&Query::points(19, "pd qp", "dp dd")?)?;
//! // Game 0 reached it after 4 moves; game 1 too, with the white stones played the other way
//! // round; game 2 reached its mirror image (symmetry is on unless turned off).
//! assert_eq!(answer.summary.games, 3);
//! assert_eq!(answer.hits[0].moves, [4]);
//! assert_eq!(answer.hits[0].info.black.as_deref(), Some("Lee Sedol 9p"));
//! assert_eq!(answer.hits[0].info.file, "0.sgf");
//! // What came next, in the query's orientation, with how those games ended.
//! assert_eq!(answer.continuations.len(), 3);
//! assert_eq!(answer.continuations.iter().map(|c| c.count).sum::<u32>(), 3);
//!
//! // The same, from a record: the position after move 4 of its main line.
//! let record = b"(;SZ[19];B[pd];W[dp];B[qp];W[dd])";
//! let same = index.search(&Query::from_record(record, Some(4))?.symmetry(false))?;
//! assert_eq!(same.summary.games, 2);
//! # std::fs::remove_dir_all(index.dir().parent().unwrap()).unwrap();
//! # Ok::<(), qipu::Error>(())
//! ```
//!
//! A pattern: a region of the board with `X` black, `O` white, `.` empty, `?` anything, `x`
//! black or empty, `o` white or empty; anchored at a corner (the others by symmetry), placed
//! with [`Query::place`], or [`Query::anywhere`]:
//!
//! ```
//! # fn tiny_index(name: &str) -> std::path::PathBuf {
//! #     let dir = std::env::temp_dir().join(format!("qipu-doc-{name}-{}", std::process::id()));
//! #     let _ = std::fs::remove_dir_all(&dir);
//! #     std::fs::create_dir_all(dir.join("games")).unwrap();
//! #     let games = [
//! #         "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]BR[9p]PW[AlphaGo]DT[2016-03-13]EV[Match]RE[W+R];B[pd];W[dp];B[qp];W[dd];B[fq])",
//! #         "(;GM[1]FF[4]SZ[19]PB[Ke Jie]PW[Iyama Yuta]DT[2017-05-01]RE[W+2.5];B[pd];W[dd];B[qp];W[dp];B[fc])",
//! #         "(;GM[1]FF[4]SZ[19]PB[Shin Jinseo]PW[Ke Jie]DT[2020-01-01]RE[B+R];B[dd];W[pd];B[cp];W[pp];B[cc])",
//! #     ];
//! #     for (i, g) in games.iter().enumerate() {
//! #         std::fs::write(dir.join("games").join(format!("{i}.sgf")), g).unwrap();
//! #     }
//! #     let options = qipu::BuildOptions::default();
//! #     qipu::build(dir.join("index"), &[dir.join("games")], &options, |_| {}).unwrap();
//! #     dir.join("index")
//! # }
//! use qipu::{Index, Query};
//!
//! let index = Index::open(tiny_index("pattern"))?;
//! // A black stone on the 3-3 point with the corner around it empty.
//! let corner = "...\n...\n..X\n";
//! let answer = index.search(&Query::pattern(corner)?)?;
//! assert_eq!(answer.summary.games, 1); // game 2's last move, B[cc]
//! assert_eq!(answer.hits[0].game, 2);
//! assert_eq!(answer.hits[0].moves, [5]);
//!
//! // Two stones side by side anywhere on the board, in any orientation: none in these games.
//! let pair = index.search(&Query::pattern("XX")?.anywhere(true))?;
//! assert_eq!(pair.summary.games, 0);
//!
//! // A diagram character that means nothing is refused with its line and column.
//! let e = Query::pattern("...\n.Z.\n").unwrap_err();
//! assert_eq!(e.kind(), qipu::ErrorKind::BadQuery);
//! assert!(e.to_string().contains("line 2, column 2"));
//! # std::fs::remove_dir_all(index.dir().parent().unwrap()).unwrap();
//! # Ok::<(), qipu::Error>(())
//! ```
//!
//! A move sequence (a joseki, an opening): by default in order, other moves allowed between
//! only outside the sequence's area and the sequence played within a bounded number of moves
//! (see [`Query::moves`]); or in any order, or with any moves between:
//!
//! ```
//! # fn tiny_index(name: &str) -> std::path::PathBuf {
//! #     let dir = std::env::temp_dir().join(format!("qipu-doc-{name}-{}", std::process::id()));
//! #     let _ = std::fs::remove_dir_all(&dir);
//! #     std::fs::create_dir_all(dir.join("games")).unwrap();
//! #     let games = [
//! #         "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]BR[9p]PW[AlphaGo]DT[2016-03-13]EV[Match]RE[W+R];B[pd];W[dp];B[qp];W[dd];B[fq])",
//! #         "(;GM[1]FF[4]SZ[19]PB[Ke Jie]PW[Iyama Yuta]DT[2017-05-01]RE[W+2.5];B[pd];W[dd];B[qp];W[dp];B[fc])",
//! #         "(;GM[1]FF[4]SZ[19]PB[Shin Jinseo]PW[Ke Jie]DT[2020-01-01]RE[B+R];B[dd];W[pd];B[cp];W[pp];B[cc])",
//! #     ];
//! #     for (i, g) in games.iter().enumerate() {
//! #         std::fs::write(dir.join("games").join(format!("{i}.sgf")), g).unwrap();
//! #     }
//! #     let options = qipu::BuildOptions::default();
//! #     qipu::build(dir.join("index"), &[dir.join("games")], &options, |_| {}).unwrap();
//! #     dir.join("index")
//! # }
//! use qipu::{Index, Query};
//!
//! let index = Index::open(tiny_index("moves"))?;
//! let in_order = Query::moves("B[pd] W[dp] B[qp]", 19)?.symmetry(false);
//! let answer = index.search(&in_order)?;
//! assert_eq!(answer.hits.iter().map(|h| h.game).collect::<Vec<_>>(), [0]);
//! assert_eq!(answer.hits[0].moves, [3]); // complete at move 3
//!
//! // Game 1 has the moves as a set (its W[dp] came at move 4), but its W[dd] came between,
//! // inside the sequence's area: it is a hit only with any moves allowed between.
//! let as_set = in_order.clone().any_order(true);
//! let hits = |q: &Query| -> Result<Vec<(u32, u32)>, qipu::Error> {
//!     Ok(index.search(q)?.hits.iter().map(|h| (h.game, h.moves[0])).collect())
//! };
//! assert_eq!(hits(&as_set)?, [(0, 3)]);
//! assert_eq!(hits(&as_set.any_gap(true))?, [(0, 3), (1, 4)]);
//! // What was played once the sequence was complete, as for positions.
//! assert_eq!(answer.continuations[0].point.map(|p| p.sgf_string()).as_deref(), Some("dd"));
//!
//! // Quadrant digits are read too; a move that is not one is refused with its place.
//! let e = Query::moves("B[pd] X[qq]", 19).unwrap_err();
//! assert_eq!(e.query().unwrap().part(), qipu::QueryPart::Moves);
//! assert!(e.to_string().contains("move 2 \"X[qq]\" at column 7"));
//! # std::fs::remove_dir_all(index.dir().parent().unwrap()).unwrap();
//! # Ok::<(), qipu::Error>(())
//! ```
//!
//! Game information, alone or narrowing any of the others, with sort, offset and limit; then the
//! games behind the hits:
//!
//! ```
//! # fn tiny_index(name: &str) -> std::path::PathBuf {
//! #     let dir = std::env::temp_dir().join(format!("qipu-doc-{name}-{}", std::process::id()));
//! #     let _ = std::fs::remove_dir_all(&dir);
//! #     std::fs::create_dir_all(dir.join("games")).unwrap();
//! #     let games = [
//! #         "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]BR[9p]PW[AlphaGo]DT[2016-03-13]EV[Match]RE[W+R];B[pd];W[dp];B[qp];W[dd];B[fq])",
//! #         "(;GM[1]FF[4]SZ[19]PB[Ke Jie]PW[Iyama Yuta]DT[2017-05-01]RE[W+2.5];B[pd];W[dd];B[qp];W[dp];B[fc])",
//! #         "(;GM[1]FF[4]SZ[19]PB[Shin Jinseo]PW[Ke Jie]DT[2020-01-01]RE[B+R];B[dd];W[pd];B[cp];W[pp];B[cc])",
//! #     ];
//! #     for (i, g) in games.iter().enumerate() {
//! #         std::fs::write(dir.join("games").join(format!("{i}.sgf")), g).unwrap();
//! #     }
//! #     let options = qipu::BuildOptions::default();
//! #     qipu::build(dir.join("index"), &[dir.join("games")], &options, |_| {}).unwrap();
//! #     dir.join("index")
//! # }
//! use qipu::{Index, Query, Sort};
//!
//! let index = Index::open(tiny_index("metadata"))?;
//! let answer = index.search(&Query::metadata("player:\"Ke Jie\"").sort(Sort::Newest))?;
//! assert_eq!(answer.hits.iter().map(|h| h.game).collect::<Vec<_>>(), [2, 1]);
//! assert_eq!(answer.hits[0].info.date.as_deref(), Some("2020-01-01"));
//!
//! // A position among games White won, the second hit only.
//! let q = Query::points(19, "pd qp", "dp dd")?.filter("winner:W").offset(1).limit(Some(1));
//! let answer = index.search(&q)?;
//! assert_eq!((answer.summary.games, answer.hits.len()), (2, 1));
//! assert_eq!(answer.hits[0].game, 1);
//!
//! // The record as it was read, its main line, and the hits as one SGF collection.
//! assert!(index.record(1)?.starts_with(b"(;GM[1]"));
//! let line = index.main_line(1)?;
//! assert_eq!((line.board, line.moves.len()), ((19, 19), 5));
//! let sgf = index.export_sgf(&answer.hits)?;
//! assert!(String::from_utf8(sgf).unwrap().starts_with("(;QH[4]"));
//!
//! // A mistake in the query language is the user's, with its place: a server answers 400.
//! let e = index.search(&Query::metadata("date:[2016 TO")).unwrap_err();
//! assert!(e.is_user_error());
//! assert_eq!(e.query().unwrap().part(), qipu::QueryPart::Metadata);
//! // No index is not: 503.
//! let e = Index::open(index.dir().join("nowhere")).err().unwrap();
//! assert_eq!(e.kind(), qipu::ErrorKind::NoIndex);
//! # std::fs::remove_dir_all(index.dir().parent().unwrap()).unwrap();
//! # Ok::<(), qipu::Error>(())
//! ```
//!
//! # Threads
//!
//! [`Index`] is `Send + Sync`: share one among a server's threads. A search's parallel work runs
//! on the rayon pool it is called on — give one with [`Index::search_in`] to bound it — and
//! never on a pool of its own.
//!
//! # Layers
//!
//! This crate stands on `qipu-sgf` (records to game trees), `qipu-goban` (boards, hashes),
//! `qipu-index` (the index on disk) and `qipu-search` (answering); a client needs none of them.
//! The board types it uses are re-exported: [`Color`], [`Point`], [`Position`].

#![warn(missing_docs)]

mod answer;
mod build;
mod error;
mod explore;
pub mod lines;
mod loss;
mod mistakes;
mod player;
mod query;
mod reader;
pub mod records;
mod shards;
mod stop;
mod store;
mod table;
mod walk;
mod word_kind;
mod words;

pub use answer::{
    Answer, Continuation, GameId, GameInfo, Hit, MainLine, Move, Summary, Timings, Variation,
};
pub use build::{build, AliasUpdate, BuildOptions, BuildSummary, Progress, Totals};
pub use error::{Error, ErrorKind, QueryError, QueryPart};
pub use explore::{Handicap, Month, Period, Profile};
pub use goban::{Color, Point, Position, Symmetry};
pub use loss::{LossThreshold, Mistakes};
pub use mistakes::{Evaluation, Loss, Mistake, MistakesAnswer};
pub use player::{PlayerOptions, PlayerStats, PlayerYear, DEFAULT_PLAYER_MISTAKE};
pub use query::{check_board_size, Query, QueryOptions, Sort, MAX_BOARD};
/// The thread pools [`Index::search_in`] takes, at the version this crate uses.
pub use rayon;
pub use reader::{Damage, Index, Stats};
pub use shards::Shards;
pub use stop::Stop;
pub use table::{GameFacts, TableEntry, TABLE_MOVES, TABLE_STONES};
pub use word_kind::{WordKind, COLOR_WORDS, HANDICAP_WORDS, LOSS_WORDS, SORT_WORDS};
pub use words::{color_word, parse_color, parse_point, KomiRange};

/// The files of live memory maps (index files, large record files) that another program cut
/// short while this process read them. Anything read from them since was zeros: an answer
/// computed meanwhile must not be given ([`Index::search`] checks this itself; a client that
/// caught a panic, or read records, asks here, and reports [`Error::files_cut`]).
pub fn damaged_files() -> Vec<std::path::PathBuf> {
    inputs::mapped::damaged()
}

/// [`damaged_files`], and also the files of such maps dropped since (an error may have dropped
/// the index that read them): a command-line client's last check before it exits.
pub fn files_cut_in_this_process() -> Vec<std::path::PathBuf> {
    inputs::mapped::cut_in_this_process()
}
