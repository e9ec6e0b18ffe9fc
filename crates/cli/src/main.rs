//! `qipu`: the command line over qipu's library crates.
//!
//! Each subcommand lives in its own module and is a thin layer: find the inputs, hand the bytes to
//! the library, print. Errors reach the user with their context through `anyhow`; a problem with
//! one game or file is printed as a diagnostic and never stops the others.

mod analyse;
mod capped;
mod color;
mod convert;
mod derive;
mod export;
mod index;
mod info;
mod inputs;
mod mistakes;
mod player;
mod progress;
mod reference;
mod report;
mod search;
mod serve;
mod show;
mod table;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

/// mimalloc instead of the system allocator. An indexing run frees on one thread what another
/// allocated (parsed games on the writer thread, documents on tantivy's), and glibc's malloc then
/// makes threads wait on each other's arena locks, which showed as futex waits and context
/// switches (`perf record -e context-switches`); mimalloc hands such frees back without a lock.
/// Built without transparent huge pages (`no_thp`), since zeroing whole 2 MB pages for it was a
/// large part of a run's kernel time (BENCHMARKS.md, Indexing: allocator).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "qipu", version, about = "A search engine for Go game records")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour the output: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, global = true, value_enum, default_value_t = color::When::Auto, value_name = "WHEN")]
    color: color::When,
}

// Parsed once per run: the size of the search options' variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Convert a record (SGF, Weiqi Text Format or quadrant digits, recognised from its content) to
    /// another format, written to standard output.
    #[command(after_help = "Examples:
  qipu convert game.gib --to sgf > game.sgf
  qipu convert 'games/2016.sgf#3' --to wtf     # game 3 of a collection (a hit as search prints it)
  cat game.sgf | qipu convert - --to quadrant")]
    Convert {
        /// The record file (a `.zst` file or an archive is read as `qipu index` reads it);
        /// FILE#GAME for one game of it, as `qipu search` prints hits; `-` for standard input.
        file: PathBuf,
        /// The format to write.
        #[arg(long, value_enum, default_value_t = Target::Sgf)]
        to: Target,
    },
    /// Print each game's normalised information, main-line length, charset and diagnostics.
    #[command(after_help = "Examples:
  qipu info games/                             # every game under a folder, as a table
  qipu info 'games/2016.sgf#3' --json          # one game, as search prints it
  qipu info - < game.sgf")]
    Info {
        /// Record files, directories (searched recursively) or archives, as for `qipu index`;
        /// FILE#GAME for one game, as `qipu search` prints hits; `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// One JSON object per line per game instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print the board of every game after move K of its main line (default: the end).
    #[command(after_help = "Examples:
  qipu show game.sgf --at 60                   # the board after move 60
  qipu show '/data/games/2016.sgf#3'           # a hit printed by qipu search
  qipu show - --json < game.sgf")]
    Show {
        /// Record files, directories (searched recursively) or archives, as for `qipu index`;
        /// FILE#GAME for one game, as `qipu search` prints hits; `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Show the position after this many moves of the main line.
        #[arg(long)]
        at: Option<usize>,
        /// One JSON object per line per game instead of diagrams.
        #[arg(long)]
        json: bool,
    },
    /// Index record files, directories and archives (.zip, .tar, .tar.gz, .tar.zst, .sgf.zst).
    #[command(after_help = "Examples:
  qipu index --index ~/go-index ~/games/ kgs-2002.tar.zst
  export QIPU_INDEX=~/go-index; qipu index new-games/   # adds only what is new
  qipu index --rebuild --aliases my-aliases.tsv ~/games/")]
    Index {
        /// The index folder (created if needed; default: the folder `QIPU_INDEX` names). Running
        /// again adds only new inputs.
        #[arg(long, env = "QIPU_INDEX")]
        index: PathBuf,
        /// Inputs: files, directories (recursive) or archives.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Start over instead of adding to the existing index.
        #[arg(long)]
        rebuild: bool,
        /// Games per segment: bounds memory (about 1 KB per game) and what a crash can lose
        /// (1 to 16,777,215: the position table names a segment's games in 24 bits).
        #[arg(long, default_value_t = qipu::BuildOptions::default().segment_games,
              value_parser = clap::value_parser!(u32).range(1..=16_777_215))]
        segment_games: u32,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
        /// Player aliases: a UTF-8 file, one player per line, the player's names separated by
        /// tabs, `#` comments. Recorded with the index and used by its searches (a query on one
        /// name finds all); replaces the index's list without a rebuild. Default: the index's
        /// own list, or the built-in one for a new index.
        #[arg(long, value_name = "FILE")]
        aliases: Option<PathBuf>,
        /// Also index every variation line of each record (each root-to-leaf path other than
        /// the main line), searchable and marked as a variation of its game. Chosen when the
        /// index is made (or with --rebuild) and kept by later runs; a run asking otherwise is
        /// refused.
        #[arg(long, conflicts_with = "no_variations")]
        variations: bool,
        /// Make (or rebuild) the index without variation lines (the default for a new index).
        #[arg(long)]
        no_variations: bool,
        /// Positions reached by at least this many table entries of a segment keep
        /// pre-aggregated continuations (for measuring the threshold; hidden).
        #[arg(long, hide = true, default_value_t = qipu::BuildOptions::default().aggregate_min)]
        aggregate_min: u32,
    },
    /// Counts, dates, top players and events, and the size of each part of an index.
    #[command(after_help = "Examples:
  qipu stats --index ~/go-index
  qipu stats --json | jq .top_players")]
    Stats {
        /// The index (default: the folder `QIPU_INDEX` names).
        #[arg(long, env = "QIPU_INDEX")]
        index: PathBuf,
        /// One JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Search an index for a position, a pattern or game information.
    #[command(after_help = "Examples:
  qipu search --position game.sgf --at 40      # games that reached this position
  qipu search --position '/data/g.sgf#3'       # a hit given back: the position at its end
  qipu search --black Q16,D4 --white Q4        # a position typed as points
  qipu search --pattern corner.txt             # a shape in a corner (X O . ? x o)
  echo 'XX' | qipu search --pattern - --anywhere
  qipu search --moves 'B[pd] W[qf] B[nc]' --any-order
  qipu search --query 'black:\"Lee Sedol\" AND date:[2005 TO 2010] AND winner:B'
  qipu search --query 'rank:>=9p' --json --limit 100
  qipu search --black '' --white '' --since 2016 --min-rank 7d --even   # openings since 2016
  qipu search --query 'player:Ke Jie' --sort date --offset 20 --limit 20   # page 2, newest first

Exit status: 0 when something was found, 1 when nothing was, 2 on an error.")]
    Search(search::SearchArgs),
    /// A player's play as the engine judged it, by year: moves analysed, mean win probability
    /// and points lost per move, mistakes per game (over his games whose records carry an
    /// engine's evaluations).
    #[command(after_help = "Examples:
  qipu player 'Lee Sedol' --index ~/go-index
  qipu player 'Shin Jinseo' --mistakes 3pt --json")]
    Player(player::PlayerArgs),
    /// Serve an index over HTTP: a JSON API under /api/ and a web board at / (loopback only
    /// unless --bind says otherwise).
    #[command(after_help = "Examples:
  qipu serve --index ~/go-index                 # then open http://127.0.0.1:8080/
  qipu serve --index ~/go-index --bind 127.0.0.1:9000 --timeout-ms 2000
  curl 'http://127.0.0.1:8080/api/position?black=pd,dp&white=dd'")]
    Serve(serve::ServeArgs),
    /// Check every file of an index against its checksum: prints each damaged file; exit code 1
    /// if any is damaged, 0 if the index is sound.
    #[command(after_help = "Examples:
  qipu verify --index ~/go-index || echo damaged")]
    Verify {
        /// The index (default: the folder `QIPU_INDEX` names).
        #[arg(long, env = "QIPU_INDEX")]
        index: PathBuf,
    },
    /// Write an index as Parquet files (games, the position table, the hash keys) for column
    /// engines: DuckDB, ClickHouse, Spark, pandas; or as ClickHouse tables (games, continuation
    /// statistics) with their DDL and a load script.
    #[command(after_help = "Examples:
  qipu export --index ~/go-index --parquet ~/go-parquet/
  duckdb -c \"SELECT count(*) FROM '~/go-parquet/positions.parquet'\"
  qipu export --index ~/go-index --clickhouse ~/go-ch/ && ~/go-ch/load.sh
  qipu search --black pd,dp --white '' --sql | clickhouse-client")]
    Export {
        /// The index (default: the folder `QIPU_INDEX` names).
        #[arg(long, env = "QIPU_INDEX")]
        index: PathBuf,
        /// The folder to write `games.parquet`, `positions.parquet` and `hash_keys.parquet`
        /// into (created if missing; files of those names are replaced).
        #[arg(
            long,
            value_name = "OUT",
            required_unless_present = "clickhouse",
            conflicts_with = "clickhouse"
        )]
        parquet: Option<PathBuf>,
        /// The folder to write ClickHouse's tables into: `games.parquet`, `stats.parquet`
        /// (continuation statistics), `symmetries.parquet`, `schema.sql` and `load.sh`
        /// (created if missing; files of those names are replaced).
        #[arg(long, value_name = "OUT")]
        clickhouse: Option<PathBuf>,
    },
    /// Analyse every game of INPUTs with KataGo and write analysed copies of the records into
    /// --out: each main-line node gets Black's win rate, score lead and visits as Sabaki
    /// (SBKV, SBKS) and lizzieyzy (LZ) write them. KataGo's answers are kept in
    /// OUT/katago.jsonl; a run started again after a kill analyses only what is missing.
    #[command(after_help = "Examples:
  qipu analyse ~/games/ --katago katago --model kata1-b18.bin.gz --visits 100 --out ~/analysed/
  qipu index --index ~/go-index ~/analysed/      # the evaluations go into the index")]
    Analyse {
        /// Inputs, as for `qipu index` (files, folders, archives).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The KataGo executable.
        #[arg(long, value_name = "BIN")]
        katago: PathBuf,
        /// KataGo's network.
        #[arg(long, value_name = "NET")]
        model: PathBuf,
        /// KataGo's analysis config (default: analysis.cfg, analysis_example.cfg or
        /// default_analysis.cfg beside BIN).
        #[arg(long, value_name = "CFG")]
        config: Option<PathBuf>,
        /// Visits per position (KataGo's maxVisits).
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..))]
        visits: u32,
        /// The output folder (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Positions KataGo searches at once (its numAnalysisThreads; default: the config's).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        threads: Option<u32>,
        /// Seconds KataGo may stay silent while it has work before the run stops.
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
        timeout: u64,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Write a larger corpus derived from INPUTs by board symmetries and colour swap (each derived
    /// game is a different game on the board; its game comment says how it was made).
    #[command(after_help = "Examples:
  qipu derive --out /tmp/corpus --variants 3 games/")]
    Derive {
        /// Output folder (collections of 10,000 games).
        #[arg(long)]
        out: PathBuf,
        /// Derived games per input game (1–15: the 7 other symmetries, then the 8 with colours swapped).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=15))]
        variants: u8,
        /// Inputs, as for `qipu index`.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Print every command's options as Markdown tables, from the definitions `--help` prints:
    /// the guide's `docs/options.md`.
    #[command(hide = true)]
    HelpMarkdown,
}

/// Output formats of `qipu convert`.
#[derive(Clone, Copy, ValueEnum)]
pub enum Target {
    /// SGF FF[4], UTF-8.
    Sgf,
    /// Weiqi Text Format, gb18030 (main line only).
    Wtf,
    /// Quadrant digit notation (19×19 main line, no setup, no passes).
    Quadrant,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    color::init(cli.color);
    report::record_panics();
    let outcome = std::panic::catch_unwind(|| run(cli));
    // A file of the index cut short under this run read as zeros, which may have made anything
    // (a wrong answer, a panic): that is the error to report, whatever else happened.
    let damaged = qipu::files_cut_in_this_process();
    if !damaged.is_empty() {
        let e = qipu::Error::files_cut(damaged);
        eprintln!("qipu: {e}");
        return ExitCode::from(2);
    }
    match outcome {
        Ok(code) => code,
        Err(_) => {
            eprintln!(
                "qipu: internal error: {} (please report it, with the command)",
                report::last_panic()
            );
            ExitCode::from(101)
        }
    }
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Convert { file, to } => convert::run(&file, to),
        Command::Info { paths, json } => info::run(&paths, json),
        Command::Show { paths, at, json } => show::run(&paths, at, json),
        Command::Index {
            index,
            inputs,
            rebuild,
            segment_games,
            quiet,
            aliases,
            variations,
            no_variations,
            aggregate_min,
        } => index::run(
            &index,
            &inputs,
            index::Setting {
                rebuild,
                segment_games,
                aliases: aliases.as_deref(),
                variations: match (variations, no_variations) {
                    (true, _) => Some(true),
                    (_, true) => Some(false),
                    _ => None,
                },
                aggregate_min,
            },
            quiet,
        ),
        Command::Analyse {
            inputs,
            katago,
            model,
            config,
            visits,
            out,
            threads,
            timeout,
            quiet,
        } => {
            let mut opts = ::analyse::Options::new(katago, model, out);
            opts.config = config;
            opts.visits = visits;
            opts.threads = threads.map(|n| n as usize);
            opts.timeout = std::time::Duration::from_secs(timeout);
            analyse::run(&inputs, &opts, quiet)
        }
        Command::Stats { index, json } => index::stats(&index, json),
        Command::Search(args) => search::run(&args),
        Command::Player(args) => player::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Verify { index } => verify::run(&index),
        Command::Export {
            index,
            parquet,
            clickhouse,
        } => match (parquet, clickhouse) {
            (Some(out), _) => export::run(&index, &out, export::Format::Parquet),
            (None, Some(out)) => export::run(&index, &out, export::Format::ClickHouse),
            (None, None) => Err(anyhow::anyhow!("give --parquet OUT or --clickhouse OUT")),
        },
        Command::Derive {
            out,
            variants,
            inputs,
        } => derive::run(&out, &inputs, variants as usize),
        Command::HelpMarkdown => {
            print!("{}", reference::markdown(&Cli::command()));
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        // A closed pipe (`qipu info … | head`) is not an error worth a message.
        Err(e) if report::is_closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("qipu: {}", report::one_line(&e));
            ExitCode::from(2)
        }
    }
}
