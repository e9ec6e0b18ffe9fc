//! `qipu serve`: the HTTP API and web board of `qipu-serve` over an index, on the loopback
//! address unless another is asked for.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

/// The options of `qipu serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The index to serve (default: the folder `QIPU_INDEX` names). It is only read. Given
    /// several times, the indexes are served as one, as `qipu search` searches them.
    #[arg(long, env = "QIPU_INDEX", required = true)]
    index: Vec<PathBuf>,
    /// The address to listen on (port 0: any free port). The API has no authentication: bind
    /// another address than loopback only on a network you trust.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Time budget of one request in milliseconds, its wait for a turn included; a search over
    /// it is stopped and answered 503.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: u64,
    /// Searches running at once; more wait in a queue.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=1024))]
    max_concurrent: u64,
    /// Threads of the search pool (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

pub fn run(a: &ServeArgs) -> Result<ExitCode> {
    let index = qipu::Shards::open(&a.index)?;
    let games = index.len();
    let config = serve::Config {
        bind: a.bind,
        timeout: Duration::from_millis(a.timeout_ms),
        max_concurrent: a.max_concurrent as usize,
        threads: a.threads,
        ..serve::Config::default()
    };
    let server = serve::Server::bind(index, &config)?;
    // On standard output, flushed, so that a script (or a test) can read the address when
    // it asked for port 0.
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "qipu serve: {games} games at http://{}/ (the API under /api/; Ctrl-C stops)",
        server.local_addr()
    )?;
    out.flush()?;
    drop(out);
    server.run()?;
    Ok(ExitCode::SUCCESS)
}
