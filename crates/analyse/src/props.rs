//! The properties an analysed record carries, written as Sabaki and lizzieyzy write them, so
//! that both programs draw their graphs from our files and every reader that knows theirs
//! (qipu's own included) gets the numbers back.
//!
//! * **Sabaki** (github SabakiHQ/Sabaki, `src/modules/sabaki.js`, `attachEngines`, the
//!   `analysis-update` handler; read at commit 5e3d874a): `SBKV` is Black's win rate in
//!   percent and `SBKS` Black's score lead, each `Math.round(x * 100) / 100` printed by
//!   JavaScript's `toString` (`55.23`, `50`, `-1.5`).
//! * **lizzieyzy** (github yzyray/lizzieyzy, `src/main/java/featurecat/lizzie/rules/SGFParser.java`,
//!   `formatNodeData`; read at commit 741c3014): `LZ` on a move's node and `LZOP` on the root,
//!   first line `ENGINE WINRATE PLAYOUTS SCOREMEAN SCORESTDEV` then a line of candidate moves
//!   (`BoardData.bestMovesToString`). Its perspectives are not Sabaki's: WINRATE is
//!   `100 - ` the side to move's win rate, i.e. the win rate of the player who made the node's
//!   move (at the root, of the player not to move); SCOREMEAN, the candidates' win rates and
//!   scores are the side to move's. Numbers go through Java's `%.1f` (half-up on the shortest
//!   decimal digits: `0.15` → `0.2`), PLAYOUTS through `Utils.getPlayoutsString` (`1.5k`).
//!
//! Where lizzieyzy's own batch analysis (`AnalysisEngine.parseResult`) takes the first
//! candidate's win rate and score and sums the candidates' visits, we take KataGo's `rootInfo`
//! (the position's own evaluation, the same in both files) and its visits.

/// One analysed position, from KataGo's answer, Black's side unless said.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnEval {
    /// Black's win probability, 0..1.
    pub win: f64,
    /// Black's score lead in points.
    pub lead: f64,
    /// The score's standard deviation (no side).
    pub stdev: f64,
    /// The visits behind the evaluation.
    pub visits: u64,
    /// Whether Black is to move in the position.
    pub black_to_move: bool,
    /// KataGo's candidate moves in its order.
    pub candidates: Vec<Candidate>,
}

/// A candidate move of KataGo's answer (`moveInfos`), Black's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move as KataGo names it (`Q16`, `pass`).
    pub name: String,
    pub visits: u64,
    /// Black's win probability after it, 0..1.
    pub win: f64,
    /// The policy's prior, 0..1.
    pub prior: f64,
    /// Black's score lead after it.
    pub lead: f64,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// The engine name lizzieyzy's `LZ` starts with (one word: the reader splits on spaces).
pub const ENGINE: &str = "KataGo";

/// The properties of one node: `SBKV`, `SBKS`, then `LZOP` on the root or `LZ` elsewhere.
pub fn node_props(eval: &TurnEval, root: bool) -> String {
    let mut out = String::new();
    out.push_str("SBKV[");
    out.push_str(&js_number(js_round2(eval.win * 100.0)));
    out.push_str("]SBKS[");
    out.push_str(&js_number(js_round2(eval.lead)));
    out.push(']');
    out.push_str(if root { "LZOP[" } else { "LZ[" });
    out.push_str(&lizzie_data(eval));
    out.push(']');
    out
}

/// lizzieyzy's `formatNodeData` for KataGo data without PDA or ownership.
fn lizzie_data(eval: &TurnEval) -> String {
    let side = |black: f64| {
        if eval.black_to_move {
            black
        } else {
            1.0 - black
        }
    };
    let lead = |black: f64| if eval.black_to_move { black } else { -black };
    // BoardData.winrate is a percent of the side to move; the file holds 100 minus it.
    let to_move = side(eval.win) * 100.0;
    let mut out = format!(
        "{ENGINE} {} {} {} {}\n",
        java_fixed(100.0 - to_move, 1),
        playouts(eval.visits),
        java_fixed(lead(eval.lead), 1),
        java_fixed(eval.stdev, 1),
    );
    for (i, c) in eval.candidates.iter().enumerate() {
        if i > 0 {
            out.push_str(" info ");
        }
        // MoveData keeps percents; bestMovesToString writes `(int) (percent * 100)`.
        let win = side(c.win) * 100.0;
        let prior = c.prior * 100.0;
        out.push_str(&format!(
            "move {} visits {} winrate {} prior {} scoreMean {} pv {}",
            c.name,
            c.visits,
            (win * 100.0) as i64,
            (prior * 100.0) as i64,
            java_fixed(lead(c.lead), 2),
            c.pv.join(" ")
        ));
    }
    out
}

/// JavaScript's `Math.round(x * 100) / 100` (halves round up, towards +∞).
pub fn js_round2(x: f64) -> f64 {
    (x * 100.0 + 0.5).floor() / 100.0
}

/// JavaScript's `Number.prototype.toString` for the numbers met here (no exponent: they are
/// win rates and scores). Rust prints the same shortest digits, but `-0` where JavaScript
/// prints `0`.
pub fn js_number(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else {
        format!("{x}")
    }
}

/// Java's `String.format(Locale.ENGLISH, "%.Nf", x)`: the shortest decimal digits of `x`
/// (those `Double.toString` prints) rounded half-up to `places`, the sign kept (`-0.0`).
pub fn java_fixed(x: f64, places: usize) -> String {
    let digits = format!("{}", x.abs());
    let (int, frac) = digits.split_once('.').unwrap_or((&digits, ""));
    let mut all: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let keep = int.len() + places;
    let round_up = frac.len() > places && frac.as_bytes()[places] >= b'5';
    all.resize(keep.max(all.len()), 0);
    all.truncate(keep);
    if round_up {
        let mut i = keep;
        loop {
            if i == 0 {
                all.insert(0, 1);
                break;
            }
            i -= 1;
            if all[i] == 9 {
                all[i] = 0;
            } else {
                all[i] += 1;
                break;
            }
        }
    }
    let split = all.len() - places;
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    out.extend(all[..split].iter().map(|d| char::from(b'0' + d)));
    if places > 0 {
        out.push('.');
        out.extend(all[split..].iter().map(|d| char::from(b'0' + d)));
    }
    out
}

/// lizzieyzy's `Utils.getPlayoutsString`: `1265` → `1.3k`, `13265` → `13k`, `12345678` →
/// `12.3m` (Java's `Math.round`, then a `double` printed by `Double.toString`).
pub fn playouts(visits: u64) -> String {
    let tenths = |n: u64| format!("{}.{}", n / 10, n % 10);
    if visits >= 10_000_000 {
        format!(
            "{}m",
            tenths((visits as f64 / 100_000.0 + 0.5).floor() as u64)
        )
    } else if visits >= 9950 {
        format!("{}k", (visits as f64 / 1_000.0 + 0.5).floor() as u64)
    } else if visits >= 1_000 {
        format!("{}k", tenths((visits as f64 / 100.0 + 0.5).floor() as u64))
    } else {
        visits.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_fixed_rounds_the_shortest_digits_half_up() {
        // Each pair as Java 21's String.format(Locale.ENGLISH, "%.1f" / "%.2f", x) printed it.
        let cases: [(f64, &str, &str); 10] = [
            (0.15, "0.2", "0.15"),
            (0.25, "0.3", "0.25"),
            (2.45, "2.5", "2.45"),
            (-0.04, "-0.0", "-0.04"),
            (-0.05, "-0.1", "-0.05"),
            (-0.25, "-0.3", "-0.25"),
            (54.05, "54.1", "54.05"),
            (1.005, "1.0", "1.01"),
            (0.125, "0.1", "0.13"),
            (100.0 - 0.999110435 * 100.0, "0.1", "0.09"),
        ];
        for (x, one, two) in cases {
            assert_eq!(java_fixed(x, 1), one, "{x}");
            assert_eq!(java_fixed(x, 2), two, "{x}");
        }
        assert_eq!(java_fixed(99.96, 1), "100.0");
        assert_eq!(java_fixed(7.0, 1), "7.0");
    }

    #[test]
    fn javascript_rounding_and_printing() {
        assert_eq!(js_number(js_round2(55.234)), "55.23");
        assert_eq!(js_number(js_round2(50.0)), "50");
        assert_eq!(js_number(js_round2(-0.001)), "0");
        assert_eq!(js_number(js_round2(-1.5)), "-1.5");
        // Math.round(-12.5) is -12: halves go up, not away from zero.
        assert_eq!(js_round2(-0.125), -0.12);
    }

    #[test]
    fn playouts_as_lizzieyzy_prints_them() {
        assert_eq!(playouts(4), "4");
        assert_eq!(playouts(999), "999");
        assert_eq!(playouts(1200), "1.2k");
        assert_eq!(playouts(1265), "1.3k");
        assert_eq!(playouts(9949), "9.9k");
        assert_eq!(playouts(13265), "13k");
        assert_eq!(playouts(12_345_678), "12.3m");
    }

    #[test]
    fn lizzie_takes_the_movers_win_rate_and_the_side_to_moves_score() {
        let eval = TurnEval {
            win: 0.8,
            lead: 3.0,
            stdev: 10.0,
            visits: 4,
            black_to_move: false,
            candidates: vec![Candidate {
                name: "D4".into(),
                visits: 3,
                win: 0.75,
                prior: 0.5,
                lead: 2.5,
                pv: vec!["D4".into(), "Q16".into()],
            }],
        };
        // White to move: Black (who just moved) has 80%; White is 3 points behind.
        assert_eq!(
            node_props(&eval, false),
            "SBKV[80]SBKS[3]LZ[KataGo 80.0 4 -3.0 10.0\n\
             move D4 visits 3 winrate 2500 prior 5000 scoreMean -2.50 pv D4 Q16]"
        );
        let root = TurnEval {
            black_to_move: true,
            candidates: vec![],
            ..eval
        };
        assert_eq!(
            node_props(&root, true),
            "SBKV[80]SBKS[3]LZOP[KataGo 20.0 4 3.0 10.0\n]"
        );
    }
}
