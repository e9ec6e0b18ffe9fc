//! A bounded load test of `qipu serve`: a server on a loopback port over an index, N client
//! threads sending a fixed number of requests that mix positions (common and rare), patterns
//! and metadata queries; then throughput, latency percentiles and the error count. It stops by
//! itself and exits 1 if any request failed.
//!
//!     cargo run --release -p qipu-serve --example load -- INDEX [CLIENTS] [REQUESTS]
//!
//! (defaults: 8 clients, 2,000 requests). The queries come from the index itself (positions of
//! its first games' main lines, its most frequent players), so any index can be measured. A
//! second phase sends one rare position alone, 200 times one after another, and compares the
//! client's latency with the search time the answers report (`elapsed_ms`, as `qipu search
//! --json` prints it).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "../tests/common/http.rs"]
mod http;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: load INDEX [CLIENTS] [REQUESTS]");
        std::process::exit(2);
    };
    let clients: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let requests: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2000);

    let index = qipu::Index::open(dir).unwrap_or_else(|e| fail(&e.to_string()));
    let mix = queries(&index);
    let rare = rare_position(&index);
    let config = serve::Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        timeout: Duration::from_secs(30),
        ..serve::Config::default()
    };
    eprintln!(
        "{} games; {} queries in the mix; server: {} searches at once, search pool {} threads",
        index.len(),
        mix.len(),
        config.max_concurrent,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let server = serve::Server::bind(index, &config).unwrap_or_else(|e| fail(&e.to_string()));
    let base = format!("http://{}", server.local_addr());
    std::thread::spawn(move || server.run());

    let next = Arc::new(AtomicUsize::new(0));
    let errors = Arc::new(AtomicUsize::new(0));
    let times = Arc::new(Mutex::new(Vec::with_capacity(requests)));
    let mix = Arc::new(mix);
    let started = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let (next, errors, times, mix, base) = (
                next.clone(),
                errors.clone(),
                times.clone(),
                mix.clone(),
                base.clone(),
            );
            std::thread::spawn(move || {
                let mut client = http::Client::new(&base);
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= requests {
                        break;
                    }
                    let t = Instant::now();
                    let ok = client
                        .send("GET", &mix[i % mix.len()], &[], b"")
                        .is_ok_and(|r| r.status == 200 && r.body.starts_with('{'));
                    mine.push(t.elapsed());
                    if !ok {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
                times.lock().unwrap().extend(mine);
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    let wall = started.elapsed();
    let mut times = times.lock().unwrap().clone();
    let errors = errors.load(Ordering::Relaxed);
    println!(
        "mixed load: {requests} requests, {clients} clients, {:.2} s: {:.0} requests/s; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {errors} errors",
        wall.as_secs_f64(),
        requests as f64 / wall.as_secs_f64(),
        ms(percentile(&mut times, 0.50)),
        ms(percentile(&mut times, 0.99)),
        ms(percentile(&mut times, 1.0)),
    );

    // One rare position, alone: what HTTP adds to the search.
    let mut client = http::Client::new(&base);
    let target = format!("/api/position?{rare}");
    let mut wall = Vec::new();
    let mut search = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let body = match client.send("GET", &target, &[], b"") {
            Ok(r) if r.status == 200 => r.json(),
            _ => fail("the rare position failed"),
        };
        wall.push(t.elapsed());
        search.push(Duration::from_secs_f64(
            body["elapsed_ms"].as_f64().unwrap_or(0.0) / 1e3,
        ));
    }
    println!(
        "rare position ({rare}): API p50 {:.2} ms (client's wall time), the answers' elapsed_ms p50 {:.2} ms",
        ms(percentile(&mut wall, 0.5)),
        ms(percentile(&mut search, 0.5)),
    );
    if errors > 0 {
        std::process::exit(1);
    }
}

fn fail(why: &str) -> ! {
    eprintln!("load: {why}");
    std::process::exit(2)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn percentile(v: &mut [Duration], p: f64) -> Duration {
    v.sort_unstable();
    if v.is_empty() {
        return Duration::ZERO;
    }
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// `black=…&white=…` of a game's position after `k` moves.
fn points(index: &qipu::Index, game: u32, k: usize) -> Option<String> {
    let record = index.record(game).ok()?;
    let q = qipu::Query::from_record(&record, Some(k)).ok()?;
    let pos = q.searched_position()?;
    if (pos.width(), pos.height()) != (19, 19) {
        return None;
    }
    let list = |c| {
        pos.stones(c)
            .iter()
            .map(|p| p.sgf_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    Some(format!(
        "black={}&white={}",
        list(qipu::Color::Black),
        list(qipu::Color::White)
    ))
}

fn rare_position(index: &qipu::Index) -> String {
    (0..index.len().min(50))
        .find_map(|g| points(index, g, 60))
        .unwrap_or_else(|| fail("no game of 60 moves on 19×19 among the first 50"))
}

use http::encode;

/// Request targets: positions early (many hits, a table look-up) and deep (few hits), corner
/// patterns, and metadata queries on the index's most frequent players and a date range.
fn queries(index: &qipu::Index) -> Vec<String> {
    let mut out = Vec::new();
    let step = (index.len() / 40).max(1);
    for g in (0..index.len()).step_by(step as usize).take(40) {
        for k in [4, 12, 40] {
            if let Some(p) = points(index, g, k) {
                out.push(format!("/api/position?{p}&limit=20"));
            }
        }
    }
    for d in [
        ".../.../..X",
        "..../..../..X./....",
        ".../.X./..O",
        "..../..X./.O../....",
    ] {
        out.push(format!("/api/pattern?diagram={}&limit=20", encode(d)));
    }
    let top = index.stats(5).map(|s| s.top_players).unwrap_or_default();
    for (name, _, _) in top {
        out.push(format!(
            "/api/games?query={}&limit=20",
            encode(&format!("player:\"{name}\""))
        ));
        out.push(format!(
            "/api/position?black=pd&white=dd&query={}&limit=20",
            encode(&format!("player:\"{name}\""))
        ));
    }
    out.push(format!(
        "/api/games?query={}&limit=20",
        encode("date:[2015 TO 2016] AND winner:B")
    ));
    out
}
