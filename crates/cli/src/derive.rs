//! `qipu derive`: a larger corpus from a smaller one, by board symmetries and colour swap.
//!
//! Each derived game is the main line of a real game, transformed by one of the board's
//! symmetries and possibly with colours exchanged: a different game on the board, with the same
//! shape statistics as real play, so that scale can be measured on a million games when only
//! 430,000 exist. Every derived game says in its game comment (`GC`) how it was made.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use goban::{Color, Point, Symmetry};
use sgf::{ids, value, GameTree, Records};

/// Games per output collection file.
const PER_FILE: usize = 10_000;

pub fn run(out_dir: &Path, inputs: &[PathBuf], variants: usize) -> Result<ExitCode> {
    std::fs::create_dir_all(out_dir).with_context(|| format!("{}", out_dir.display()))?;
    let sources = ::inputs::discover(inputs)?;
    let mut writer = Collections {
        dir: out_dir.to_path_buf(),
        file: None,
        count: 0,
        files: 0,
    };
    let mut games = 0u64;
    for source in &sources {
        ::inputs::read_source(source, &mut |rec| {
            let records = Records::read(&rec.bytes);
            for i in 0..records.len() {
                let Ok(tree) = records.game(i) else { continue };
                for v in 1..=variants {
                    // Variant v: symmetry v mod 8, colours swapped from the 8th on (15 in all).
                    let (sym, swap) = (Symmetry::from_index(v % 8), v >= 8);
                    if let Some(text) = derived(&tree, sym, swap, &rec.name, i) {
                        if writer.push(&text).is_err() {
                            return;
                        }
                        games += 1;
                    }
                }
            }
        })?;
    }
    writer.finish()?;
    writeln!(
        std::io::stdout(),
        "wrote {games} derived games in {} files to {}",
        writer.files,
        out_dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

struct Collections {
    dir: PathBuf,
    file: Option<std::io::BufWriter<std::fs::File>>,
    count: usize,
    files: usize,
}

impl Collections {
    fn push(&mut self, game: &str) -> Result<()> {
        if self.file.is_none() || self.count == PER_FILE {
            self.finish()?;
            self.files += 1;
            let p = self.dir.join(format!("derived-{:05}.sgf", self.files));
            self.file = Some(std::io::BufWriter::new(
                std::fs::File::create(&p).with_context(|| format!("{}", p.display()))?,
            ));
            self.count = 0;
        }
        self.count += 1;
        self.file
            .as_mut()
            .expect("just opened")
            .write_all(game.as_bytes())?;
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        if let Some(mut f) = self.file.take() {
            f.flush()?;
        }
        Ok(())
    }
}

/// The main line of `tree` under `sym` (and with colours exchanged), as one SGF game; `None` for a
/// board the symmetry does not fit (rectangles only have 4).
fn derived(
    tree: &GameTree<'_>,
    sym: Symmetry,
    swap: bool,
    file: &str,
    game: usize,
) -> Option<String> {
    let (w, h) = tree.board_size();
    if !Symmetry::of_board(w, h).contains(&sym) {
        return None;
    }
    let color = |c: Color| if swap { c.opponent() } else { c };
    let letter = |c: Color| color(c).letter();
    let pt = |p: Point| sym.apply(p, w, h).sgf_string();
    let mut s = String::from("(;GM[1]FF[4]CA[UTF-8]");
    let _ = write!(
        s,
        "SZ[{}]",
        if w == h {
            w.to_string()
        } else {
            format!("{w}:{h}")
        }
    );
    let root = tree.root();
    let text = |id| {
        root.get(id)
            .map(|p| value::escape(&p.text(), false).into_owned())
    };
    let (pb, pw, br, wr) = (text(ids::PB), text(ids::PW), text(ids::BR), text(ids::WR));
    let (pb, pw, br, wr) = if swap {
        (pw, pb, wr, br)
    } else {
        (pb, pw, br, wr)
    };
    for (name, v) in [("PB", pb), ("PW", pw), ("BR", br), ("WR", wr)] {
        if let Some(v) = v {
            let _ = write!(s, "{name}[{v}]");
        }
    }
    for id in [
        ids::DT,
        ids::EV,
        ids::RO,
        ids::PC,
        ids::KM,
        ids::HA,
        ids::RU,
    ] {
        if let (Some(v), Some(name)) = (text(id), id.letters()) {
            let _ = write!(s, "{name}[{v}]");
        }
    }
    if let Some(re) = text(ids::RE) {
        let re = if swap {
            match re.as_bytes().first() {
                Some(b'B') => format!("W{}", &re[1..]),
                Some(b'W') => format!("B{}", &re[1..]),
                _ => re,
            }
        } else {
            re
        };
        let _ = write!(s, "RE[{re}]");
    }
    let _ = write!(
        s,
        "GC[derived by qipu from {} game {game}: {sym:?}{}]",
        value::escape(file, false),
        if swap { ", colours swapped" } else { "" }
    );
    let mut pts = Vec::new();
    for (n, node) in tree.main_line().enumerate() {
        if n > 0 {
            s.push(';');
        }
        for (id, c) in [
            (ids::AB, Some(Color::Black)),
            (ids::AW, Some(Color::White)),
            (ids::AE, None),
        ] {
            let Some(p) = node.get(id) else { continue };
            pts.clear();
            for (raw, _) in p.raw_values() {
                value::point_list(raw, &mut pts);
            }
            let name = match c {
                Some(c) => {
                    if color(c) == Color::Black {
                        "AB"
                    } else {
                        "AW"
                    }
                }
                None => "AE",
            };
            s.push_str(name);
            for &q in &pts {
                if q.x < w && q.y < h {
                    let _ = write!(s, "[{}]", pt(q));
                }
            }
            if pts.is_empty() {
                s.push_str("[]");
            }
        }
        for (id, c) in [(ids::B, Color::Black), (ids::W, Color::White)] {
            if let Some(p) = node.get(id) {
                let m = Point::parse_move(p.raw(), w, h).ok().flatten();
                let _ = write!(
                    s,
                    "{}[{}]",
                    letter(c),
                    m.filter(|q| q.x < w && q.y < h).map_or(String::new(), pt)
                );
            }
        }
    }
    s.push_str(")\n");
    Some(s)
}
