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

/// An engine made up for the tests of patterns and sequences on real records: Black's win (in
/// 1/10,000) and lead (in tenths) after `k` moves of a main line whose last move was `last`
/// (Black's?, its point; `None` for a pass), from those alone, so that an index reads them from
/// the records (a test's evaluation reader calls this for each move) and a test computes them from
/// the moves it replayed. One position in eleven has none, one in seven no lead; wins jump about,
/// so that a threshold keeps some of a pattern's moves and not others.
pub fn made_up(k: usize, last: Option<(bool, Option<(u8, u8)>)>) -> Numbers {
    let (c, x, y) = match last {
        None => (0, 0, 0),
        Some((black, p)) => (
            1 + u64::from(!black),
            p.map_or(60, |p| u64::from(p.0)),
            p.map_or(60, |p| u64::from(p.1)),
        ),
    };
    let h =
        ((k as u64) * 1_000_003 + c * 7919 + x * 131 + y).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20;
    if h.is_multiple_of(11) {
        return None;
    }
    let win = (h % 10_001) as i32;
    let lead = (!h.is_multiple_of(7)).then(|| (win - 5000) / 40 + ((h >> 16) % 41) as i32 - 20);
    Some((win, lead))
}

/// What move `j + 1` of `moves` (each: Black's?, point) lost its mover by [`made_up`]'s
/// numbers: win in 1/10,000, points in tenths where both positions have a lead; `None` unless
/// both positions are evaluated.
pub fn made_up_loss(moves: &[(bool, Option<(u8, u8)>)], j: usize) -> Option<(i32, Option<i32>)> {
    let before = made_up(j, j.checked_sub(1).map(|i| moves[i]))?;
    let after = made_up(j + 1, Some(*moves.get(j)?))?;
    let sign = if moves[j].0 { 1 } else { -1 };
    let win = sign * (before.0 - after.0);
    let lead = before.1.zip(after.1).map(|(b, a)| sign * (b - a));
    Some((win, lead))
}
