//! `qipu analyse`: KataGo over the games of INPUTs, analysed copies written to a folder (the
//! work is the analyse crate's; this prints its progress, problems and summary).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use analyse::{Observer, Options, Problem, Progress};
use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

/// Prints problems as they come (above the bar) and moves the bar.
struct Bar {
    bar: ProgressBar,
    started: Instant,
}

impl Observer for Bar {
    fn progress(&mut self, p: &Progress) {
        self.bar.set_length(p.bytes_total);
        self.bar.set_position(p.bytes_done);
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        self.bar.set_message(format!(
            "{} games, {} positions, {:.1} positions/s",
            p.games,
            p.positions,
            p.positions as f64 / secs
        ));
    }

    fn problem(&mut self, p: &Problem) {
        self.bar.suspend(|| eprintln!("qipu: {p}"));
    }
}

pub fn run(inputs: &[PathBuf], opts: &Options, quiet: bool) -> Result<ExitCode> {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ETA {eta} {msg}",
            )
            .expect("valid template"),
        );
        b.enable_steady_tick(Duration::from_millis(200));
        b
    };
    let mut observer = Bar {
        bar,
        started: Instant::now(),
    };
    let result = analyse::analyse(inputs, opts, &mut observer);
    observer.bar.finish_and_clear();
    let s = result?;
    if s.files_written == 0 {
        anyhow::bail!(
            "nothing analysed: no game in the inputs{}",
            match s.in_output {
                0 => String::new(),
                n => format!(" ({n} files inside the output folder are not inputs)"),
            }
        );
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "analysed {} games ({} positions, {:.1} positions/s) in {:.1} s into {} files in {}; {} games taken from an earlier run's answers; {} refused by KataGo, {} not analysable{}",
        s.games_analysed,
        s.positions_analysed,
        s.positions_analysed as f64 / s.seconds.max(1e-9),
        s.seconds,
        s.files_written,
        opts.out.display(),
        s.games_resumed,
        s.games_refused,
        s.games_unreadable,
        match s.problems {
            0 => String::new(),
            n => format!(" ({n} problems, each said above)"),
        }
    )?;
    if s.rules_fallback > 0 || s.komi_fallback > 0 {
        writeln!(
            out,
            "fallbacks: {} games without rules KataGo knows (analysed under Japanese rules), {} without a usable komi (6.5, 7.5 under area scoring, 0.5 with a handicap)",
            s.rules_fallback, s.komi_fallback
        )?;
    }
    if s.in_output > 0 {
        writeln!(
            out,
            "{} files inside the output folder were not read as inputs",
            s.in_output
        )?;
    }
    writeln!(out, "KataGo's answers: {}", s.journal.display())?;
    Ok(if s.problems > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
