//! Generated analysed games for the tests of what is computed from engine evaluations (a
//! player's figures, mistakes through the clients): records whose main-line nodes carry the
//! test's own evaluation comment `C[WIN LEAD]` (Black's win in 1/10,000, Black's lead in tenths,
//! `-` for none), with the numbers kept here so that a test computes its expectations from what
//! it wrote, not from what the index read. Each test reads the comment with a reader of its
//! own (it needs the SGF crate, which this crate does not depend on).

use crate::Rng;

/// The players, by number; [`ALIAS`] is another spelling of `PLAYERS[2]`.
pub const PLAYERS: [&str; 4] = ["Qa Zed", "Ro Vex", "Su Jin", "Tu Fox"];

/// How some records spell `PLAYERS[2]`; an alias file line joins the two ([`ALIAS_FILE`]).
pub const ALIAS: &str = "Jin Su";

/// The alias file naming [`ALIAS`] as `PLAYERS[2]`.
pub const ALIAS_FILE: &str = "Su Jin\tJin Su\n";

/// One position's evaluation: Black's win in 1/10,000 and lead in tenths (where given).
pub type Numbers = Option<(i32, Option<i32>)>;

/// A generated game.
#[derive(Clone, Debug)]
pub struct Game {
    /// Black's and White's player numbers (in [`PLAYERS`]).
    pub black: usize,
    pub white: usize,
    /// The year of its date; `None` for an undated game.
    pub year: Option<u32>,
    /// Whether Black's move comes first at each move: `black_moved[k]` for move k + 1.
    pub black_moved: Vec<bool>,
    /// `evals[k]`: the position after k moves; all `None` for a game not analysed.
    pub evals: Vec<Numbers>,
    /// The record.
    pub sgf: String,
}

/// `n` games: every fifth one not analysed, some positions without an evaluation or a lead, a
/// few big swings, years 2001 to 2004 and some undated, [`ALIAS`] written for `PLAYERS[2]` in
/// every third of his games.
pub fn games(n: usize, rng: &mut Rng) -> Vec<Game> {
    (0..n).map(|g| game(g, rng)).collect()
}

fn game(g: usize, rng: &mut Rng) -> Game {
    let analysed = g % 5 != 4;
    let black = rng.below(4) as usize;
    let white = (black + 1 + rng.below(3) as usize) % 4;
    let year = (g % 7 != 3).then(|| 2001 + rng.below(4) as u32);
    let mut win = 5000i32;
    let mut eval = |rng: &mut Rng| -> Numbers {
        if !analysed || rng.below(10) == 0 {
            return None;
        }
        let step = if rng.below(6) == 0 { 2000 } else { 400 };
        win = (win + rng.below(2 * step + 1) as i32 - step as i32).clamp(0, 10_000);
        let lead = (rng.below(5) != 0).then(|| (win - 5000) / 20 + rng.below(41) as i32 - 20);
        Some((win, lead))
    };
    let comment = |e: Numbers| match e {
        None => String::new(),
        Some((w, l)) => format!("C[{w} {}]", l.map_or("-".into(), |l| l.to_string())),
    };
    let name = |p: usize| {
        if p == 2 && g.is_multiple_of(3) {
            ALIAS
        } else {
            PLAYERS[p]
        }
    };
    let mut evals = vec![eval(rng)];
    let date = year.map_or(String::new(), |y| format!("DT[{y}-05-01]"));
    let mut sgf = format!(
        "(;GM[1]SZ[19]PB[{}]PW[{}]{date}{}",
        name(black),
        name(white),
        comment(evals[0])
    );
    let mut black_moved = Vec::new();
    let mut used = Vec::new();
    for k in 0..6 + rng.below(25) as usize {
        let is_black = k % 2 == 0;
        let point = match rng.below(25) {
            0 => None,
            _ => loop {
                let p = (rng.below(19) as u8, rng.below(19) as u8);
                if !used.contains(&p) {
                    used.push(p);
                    break Some(p);
                }
            },
        };
        let e = eval(rng);
        evals.push(e);
        let value = point.map_or(String::new(), |(x, y)| {
            format!("{}{}", (b'a' + x) as char, (b'a' + y) as char)
        });
        let c = if is_black { 'B' } else { 'W' };
        sgf.push_str(&format!(";{c}[{value}]{}", comment(e)));
        black_moved.push(is_black);
    }
    sgf.push_str(")\n");
    Game {
        black,
        white,
        year,
        black_moved,
        evals,
        sgf,
    }
}

/// A move's loss for its mover, computed from the generated numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lost {
    /// The game's place in the generated list.
    pub game: usize,
    /// The move's number (1 the first).
    pub k: usize,
    pub black: bool,
    /// Win lost in 1/10,000 (negative: gained).
    pub win: i32,
    /// Points lost in tenths, where both positions have a lead.
    pub lead: Option<i32>,
}

/// Every move of `games` with an evaluation before and after it, with its loss.
pub fn losses(games: &[Game]) -> Vec<Lost> {
    let mut out = Vec::new();
    for (g, game) in games.iter().enumerate() {
        for k in 1..game.evals.len() {
            let (Some(before), Some(after)) = (game.evals[k - 1], game.evals[k]) else {
                continue;
            };
            let black = game.black_moved[k - 1];
            let sign = if black { 1 } else { -1 };
            out.push(Lost {
                game: g,
                k,
                black,
                win: sign * (before.0 - after.0),
                lead: before.1.zip(after.1).map(|(b, a)| sign * (b - a)),
            });
        }
    }
    out
}
