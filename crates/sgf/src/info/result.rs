//! Game results (`RE`): who won, how, and by how much.
//!
//! FF\[4\] allows `0`/`Draw`, `B+3.5`, `W+R`/`W+Resign`, `B+T`/`B+Time`, `B+F`/`B+Forfeit`,
//! `B+` (won, no detail), `Void` and `?`. Real archives add lower case, `B+0.50`, `W++1.0`,
//! Tygem's `B+Offline`, English sentences, and Chinese, Japanese and Korean forms
//! (`黑中盘胜`, `白超时负`, `白胜3又3/4子`, `黒中押し勝ち`, `백 반집승`), the last being the only
//! forms the WTF dialect allows. Search needs the winner above all (continuation tables count
//! Black and White wins), so the winner rule must agree exactly with the oracle's contract.
//!
//! Decisions:
//! - **Winner rule (the oracle's).** A value is a win for a colour only when it starts (after
//!   trimming) with `B+`/`W+` in either case, or when it holds a Chinese/Japanese/Korean colour
//!   word (`黑 黒 白 흑 백`) followed somewhere later by a win word (`胜 勝 승 赢 贏`: that colour
//!   won) or a loss word (`负 負 败 敗 输 輸 패`: the other colour won); the *first* colour word and
//!   the first win/loss word after it decide. Anything else — `B` alone, English sentences such as
//!   `White resigns.` or `Black wins by 12 points` — has no winner ([`Winner::Unknown`], with
//!   [`GameResult::recognised`] false), as in the oracle.
//! - **How.** `R`/`Resign`, `T`/`Time`, `F`/`Forfeit` after `+`; in CJK text 中盘/中押/불계
//!   (resignation), 超时/時間/시간 (time), 判负/反則/기권/반칙/不戦 (forfeit). A margin makes it
//!   [`WinKind::Score`]; any other word after `+` (`Offline`) is [`WinKind::Other`].
//! - **Margins** keep their unit: points by default and for SGF, stones when written `子`.
//!   `3又3/4`, `1/4`, `3目半`, `반집` are read. A `B+` margin of `0` (`W+0.0`, common on Fox) is kept.
//! - **`to_sgf`** returns `None` for text that was not recognised (the caller keeps the raw value);
//!   otherwise the FF\[4\] form: draws as `0`, a win with no detail (or `Other`, such as `Offline`)
//!   as `B+`, and a margin in stones converted to points (× 2, area counting: `白胜3又3/4子` →
//!   `W+7.5`), since FF\[4\] margins are points.
//! - **`to_wtf`** writes the WTF v22 values of section 2.5, reading its `黑胜+f` literally (with
//!   the `+`) and always naming the unit (`黑胜+3.5目`, `白胜+3.75子`) so that nobody has to guess
//!   whether a Chinese margin is in points or stones; a win on time or by forfeit is written as
//!   the loser's `白超时负`/`白判负`; a win with no detail, which WTF cannot express, as `黑胜`.

use super::lex::{amount, cjk_int, fold};
use super::number::ScoreUnit;
use crate::Color;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    Black,
    White,
    /// A draw (jigo).
    Draw,
    /// No result: a void or suspended game (`Void`, `无`, `無勝負`).
    Void,
    /// Unknown: written as unknown (`?`, `未知`) or not readable (see [`GameResult::recognised`]).
    Unknown,
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinKind {
    /// By counting; the margin is in [`GameResult::margin`].
    Score,
    Resignation,
    Time,
    Forfeit,
    /// Some other stated reason, such as Tygem's `Offline`.
    Other,
}

/// A normalised result. The raw text is kept by the caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    pub winner: Winner,
    /// How the game was won, when a winner is known and the value says.
    pub how: Option<WinKind>,
    /// The winning margin for [`WinKind::Score`], in [`GameResult::unit`].
    pub margin: Option<f64>,
    /// The unit of `margin` (points unless the value said `子`); meaningless without a margin.
    pub unit: ScoreUnit,
    /// Whether the value was understood. `false` for empty values and free text: the winner is
    /// then [`Winner::Unknown`] and [`GameResult::to_sgf`] declines to rewrite it.
    pub recognised: bool,
}

impl GameResult {
    fn new(winner: Winner) -> GameResult {
        GameResult {
            winner,
            how: None,
            margin: None,
            unit: ScoreUnit::Points,
            recognised: true,
        }
    }

    fn unrecognised() -> GameResult {
        GameResult {
            recognised: false,
            ..GameResult::new(Winner::Unknown)
        }
    }

    /// The winning colour, if one won.
    pub fn winner_color(&self) -> Option<Color> {
        match self.winner {
            Winner::Black => Some(Color::Black),
            Winner::White => Some(Color::White),
            _ => None,
        }
    }

    /// The margin in points: a margin in stones counts two points a stone.
    pub fn margin_points(&self) -> Option<f64> {
        self.margin.map(|m| match self.unit {
            ScoreUnit::Points => m,
            ScoreUnit::Stones => m * 2.0,
        })
    }

    /// The canonical FF\[4\] value, or `None` if the raw value was not recognised.
    pub fn to_sgf(&self) -> Option<String> {
        if !self.recognised {
            return None;
        }
        let letter = match self.winner_color() {
            Some(c) => c.letter(),
            None => {
                return Some(
                    match self.winner {
                        Winner::Draw => "0",
                        Winner::Void => "Void",
                        _ => "?",
                    }
                    .to_string(),
                )
            }
        };
        let detail = match self.how {
            Some(WinKind::Resignation) => "R".to_string(),
            Some(WinKind::Time) => "T".to_string(),
            Some(WinKind::Forfeit) => "F".to_string(),
            Some(WinKind::Score) | None => self.margin_points().map(number).unwrap_or_default(),
            Some(WinKind::Other) => String::new(),
        };
        Some(format!("{letter}+{detail}"))
    }

    /// The WTF v22 value (section 2.5); see the module documentation.
    pub fn to_wtf(&self) -> String {
        let (name, other) = match self.winner {
            Winner::Black => ("黑", "白"),
            Winner::White => ("白", "黑"),
            Winner::Draw => return "和棋".to_string(),
            Winner::Void => return "无".to_string(),
            Winner::Unknown => return "未知".to_string(),
        };
        match (self.how, self.margin) {
            (Some(WinKind::Resignation), _) => format!("{name}中盘胜"),
            (Some(WinKind::Time), _) => format!("{other}超时负"),
            (Some(WinKind::Forfeit), _) => format!("{other}判负"),
            (Some(WinKind::Score) | None, Some(m)) => {
                let unit = match self.unit {
                    ScoreUnit::Points => "目",
                    ScoreUnit::Stones => "子",
                };
                format!("{name}胜+{}{unit}", number(m))
            }
            _ => format!("{name}胜"),
        }
    }
}

/// A number in its shortest form: `3.5`, `64`, `0.25`.
fn number(v: f64) -> String {
    format!("{v}")
}

/// Reads a result (`RE`); never panics. See the module documentation for the rules.
pub fn parse_result(raw: &str) -> GameResult {
    let folded = fold(raw);
    let s = folded.trim();
    if s.is_empty() {
        return GameResult::unrecognised();
    }
    if let Some(r) = sgf_win(s) {
        return r;
    }
    if let Some(r) = cjk_win(s) {
        return r;
    }
    let lower = s.to_ascii_lowercase();
    match lower.as_str() {
        "0" | "draw" | "jigo" | "和" | "和棋" | "和局" | "平局" | "持碁" | "ジゴ" | "무승부" => {
            return GameResult::new(Winner::Draw)
        }
        "void" | "无" | "無" | "无胜负" | "無勝負" | "打ち掛け" | "打挂" | "노게임" => {
            return GameResult::new(Winner::Void)
        }
        "unknown" | "未知" | "不明" | "不详" | "不詳" => {
            return GameResult::new(Winner::Unknown)
        }
        _ => {}
    }
    if lower.starts_with('?') {
        // `?`, `? (No further moves known)`.
        return GameResult::new(Winner::Unknown);
    }
    GameResult::unrecognised()
}

/// `B+…` / `W+…`, either case, spaces allowed around the `+`.
fn sgf_win(s: &str) -> Option<GameResult> {
    let winner = match s.as_bytes()[0] {
        b'B' | b'b' => Winner::Black,
        b'W' | b'w' => Winner::White,
        _ => return None,
    };
    let rest = s[1..].trim_start().strip_prefix('+')?;
    let rest = rest.trim_start_matches(|c: char| c == '+' || c.is_whitespace());
    let mut r = GameResult::new(winner);
    if rest.is_empty() {
        return Some(r);
    }
    if rest.as_bytes()[0].is_ascii_digit() {
        if let Some((a, _)) = amount(rest) {
            r.how = Some(WinKind::Score);
            r.margin = Some(a.value);
            r.unit = a.unit.unwrap_or_default();
        }
        return Some(r);
    }
    let word_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    if word_len > 0 {
        r.how = Some(match rest[..word_len].to_ascii_lowercase().as_str() {
            "r" | "resign" | "resigned" | "resignation" | "res" => WinKind::Resignation,
            "t" | "time" | "timeout" => WinKind::Time,
            "f" | "forfeit" | "forfeited" => WinKind::Forfeit,
            _ => WinKind::Other,
        });
        return Some(r);
    }
    // `B+中盘胜` and the like: take what the CJK words say.
    r.how = cjk_how(rest);
    if r.how.is_none() {
        if let Some((m, u)) = cjk_margin(rest) {
            r.how = Some(WinKind::Score);
            r.margin = Some(m);
            r.unit = u;
        }
    }
    Some(r)
}

const COLOUR_WORDS: &[(char, Winner)] = &[
    ('黑', Winner::Black),
    ('黒', Winner::Black),
    ('흑', Winner::Black),
    ('白', Winner::White),
    ('백', Winner::White),
];
const WIN_WORDS: &[char] = &['胜', '勝', '승', '赢', '贏'];
const LOSS_WORDS: &[char] = &['负', '負', '败', '敗', '输', '輸', '패'];

const RESIGN_WORDS: &[&str] = &["中盘", "中盤", "中押", "불계", "认输", "認輸", "投了"];
const TIME_WORDS: &[&str] = &[
    "超时", "超時", "时间", "時間", "시간", "时限", "時限", "切れ",
];
const FORFEIT_WORDS: &[&str] = &[
    "判负", "判負", "判胜", "判勝", "反則", "反则", "犯规", "犯規", "违规", "違規", "반칙", "기권",
    "몰수", "不戦", "不战", "弃权", "棄権", "棄權",
];

fn cjk_how(s: &str) -> Option<WinKind> {
    let has = |words: &[&str]| words.iter().any(|w| s.contains(w));
    if has(RESIGN_WORDS) {
        Some(WinKind::Resignation)
    } else if has(TIME_WORDS) {
        Some(WinKind::Time)
    } else if has(FORFEIT_WORDS) {
        Some(WinKind::Forfeit)
    } else {
        None
    }
}

/// The first margin in `s`: Arabic digits with or without a unit, or Chinese numerals / a half
/// with a unit (`三目半`, `반집`).
fn cjk_margin(s: &str) -> Option<(f64, ScoreUnit)> {
    for (i, c) in s.char_indices() {
        let candidate = c.is_ascii_digit() || c == '半' || c == '반' || cjk_int(&s[i..]).is_some();
        if !candidate {
            continue;
        }
        // Don't start inside a number (the `5` of `3.5`).
        if i > 0 && s[..i].ends_with(|p: char| p.is_ascii_digit() || p == '.' || p == '/') {
            continue;
        }
        if let Some((a, _)) = amount(&s[i..]) {
            if a.arabic || a.unit.is_some() {
                return Some((a.value, a.unit.unwrap_or_default()));
            }
        }
    }
    None
}

/// A Chinese, Japanese or Korean result: first colour word, then the first win/loss word.
fn cjk_win(s: &str) -> Option<GameResult> {
    let (start, colour) = s.char_indices().find_map(|(i, c)| {
        COLOUR_WORDS
            .iter()
            .find(|&&(w, _)| w == c)
            .map(|&(w, winner)| (i + w.len_utf8(), winner))
    })?;
    let after = &s[start..];
    let (pos, won) = after.char_indices().find_map(|(i, c)| {
        if WIN_WORDS.contains(&c) {
            Some((i, true))
        } else if LOSS_WORDS.contains(&c) {
            Some((i, false))
        } else {
            None
        }
    })?;
    let winner = match (colour, won) {
        (Winner::Black, true) | (Winner::White, false) => Winner::Black,
        _ => Winner::White,
    };
    let mut r = GameResult::new(winner);
    r.how = cjk_how(after);
    if r.how.is_none() {
        // A margin sits between the colour and the win word (`흑 3.5집승`, `白番3目半勝ち`) or
        // after it (`黑胜2.5目`, `黑胜+3.5`).
        let margin = cjk_margin(&after[..pos]).or_else(|| cjk_margin(&after[pos..]));
        if let Some((m, u)) = margin {
            r.how = Some(WinKind::Score);
            r.margin = Some(m);
            r.unit = u;
        }
    }
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(raw: &str) -> (Winner, Option<WinKind>, Option<f64>) {
        let r = parse_result(raw);
        (r.winner, r.how, r.margin)
    }

    use WinKind::*;
    use Winner::{Black as B, Draw as D, Unknown as U, Void as V, White as W};

    #[test]
    fn sgf_scores() {
        assert_eq!(res("B+3.5"), (B, Some(Score), Some(3.5)));
        assert_eq!(res("W+0.5"), (W, Some(Score), Some(0.5)));
        assert_eq!(res("W+64"), (W, Some(Score), Some(64.0)));
        assert_eq!(res("B+1.50"), (B, Some(Score), Some(1.5)));
        assert_eq!(res("W+0.0"), (W, Some(Score), Some(0.0)));
        assert_eq!(res("W++1.0"), (W, Some(Score), Some(1.0)));
        assert_eq!(res("b+2.5"), (B, Some(Score), Some(2.5)));
        assert_eq!(res(" W + 7.5 "), (W, Some(Score), Some(7.5)));
        assert_eq!(res("B+0.02"), (B, Some(Score), Some(0.02)));
        assert_eq!(parse_result("B+3.5").unit, ScoreUnit::Points);
    }

    #[test]
    fn sgf_reasons() {
        assert_eq!(res("W+R"), (W, Some(Resignation), None));
        assert_eq!(res("B+Resign"), (B, Some(Resignation), None));
        assert_eq!(res("w+resign"), (W, Some(Resignation), None));
        assert_eq!(res("B+T"), (B, Some(Time), None));
        assert_eq!(res("W+Time"), (W, Some(Time), None));
        assert_eq!(res("B+F"), (B, Some(Forfeit), None));
        assert_eq!(res("W+Forfeit"), (W, Some(Forfeit), None));
        assert_eq!(res("B+Offline"), (B, Some(Other), None));
        assert_eq!(res("B+"), (B, None, None));
        assert_eq!(res("W+"), (W, None, None));
        assert_eq!(res("B+中盘胜"), (B, Some(Resignation), None));
    }

    #[test]
    fn sgf_non_winners() {
        assert_eq!(res("0"), (D, None, None));
        assert_eq!(res("Draw"), (D, None, None));
        assert_eq!(res("draw"), (D, None, None));
        assert_eq!(res("Void"), (V, None, None));
        assert_eq!(res("?"), (U, None, None));
        assert!(parse_result("?").recognised);
        assert_eq!(res("? (No further moves known)"), (U, None, None));
    }

    #[test]
    fn oracle_rule_free_text_has_no_winner() {
        for raw in [
            "B",
            "White resigns.",
            "Black resigns. W 133.5 B 81.0",
            "Black wins by 12 points",
            "john wins",
            "has adjourned.",
            "",
            "   ",
            "+",
            "B-R",
        ] {
            let r = parse_result(raw);
            assert_eq!(r.winner, U, "{raw:?}");
            assert!(!r.recognised, "{raw:?}");
            assert_eq!(r.to_sgf(), None, "{raw:?}");
        }
    }

    #[test]
    fn wtf_forms() {
        assert_eq!(res("未知"), (U, None, None));
        assert!(parse_result("未知").recognised);
        assert_eq!(res("无"), (V, None, None));
        assert_eq!(res("黑中盘胜"), (B, Some(Resignation), None));
        assert_eq!(res("白中盘胜"), (W, Some(Resignation), None));
        assert_eq!(res("黑超时负"), (W, Some(Time), None));
        assert_eq!(res("白超时负"), (B, Some(Time), None));
        assert_eq!(res("黑判负"), (W, Some(Forfeit), None));
        assert_eq!(res("白判负"), (B, Some(Forfeit), None));
        assert_eq!(res("和棋"), (D, None, None));
        assert_eq!(res("和"), (D, None, None));
        assert_eq!(res("黑胜"), (B, None, None));
        assert_eq!(res("白胜"), (W, None, None));
    }

    #[test]
    fn chinese_margins() {
        assert_eq!(res("黑胜2.5目"), (B, Some(Score), Some(2.5)));
        assert_eq!(res("黑胜+3.5"), (B, Some(Score), Some(3.5)));
        assert_eq!(res("白胜+3.5目"), (W, Some(Score), Some(3.5)));
        let r = parse_result("白胜3又3/4子");
        assert_eq!(
            (r.winner, r.margin, r.unit),
            (W, Some(3.75), ScoreUnit::Stones)
        );
        assert_eq!(r.margin_points(), Some(7.5));
        let r = parse_result("黑胜1/4子");
        assert_eq!(
            (r.winner, r.margin, r.unit),
            (B, Some(0.25), ScoreUnit::Stones)
        );
        assert_eq!(res("黑胜半目"), (B, Some(Score), Some(0.5)));
        assert_eq!(res("黑胜二又四分之三子"), (B, Some(Score), Some(2.75)));
        assert_eq!(res("黑中押胜"), (B, Some(Resignation), None));
        assert_eq!(res("白 胜 5 目"), (W, Some(Score), Some(5.0)));
    }

    #[test]
    fn japanese_forms() {
        assert_eq!(res("黒中押し勝ち"), (B, Some(Resignation), None));
        assert_eq!(res("白番中押し勝ち"), (W, Some(Resignation), None));
        assert_eq!(res("257手完, 黒中押し勝ち"), (B, Some(Resignation), None));
        assert_eq!(res("白番3目半勝ち"), (W, Some(Score), Some(3.5)));
        assert_eq!(res("黒半目勝ち"), (B, Some(Score), Some(0.5)));
        assert_eq!(res("白時間切れ勝ち"), (W, Some(Time), None));
        assert_eq!(res("黒反則負け"), (W, Some(Forfeit), None));
        assert_eq!(res("持碁"), (D, None, None));
        assert_eq!(res("打ち掛け"), (V, None, None));
    }

    #[test]
    fn korean_forms() {
        assert_eq!(res("흑 불계승"), (B, Some(Resignation), None));
        assert_eq!(res("백 불계승"), (W, Some(Resignation), None));
        assert_eq!(res("흑 3.5집승"), (B, Some(Score), Some(3.5)));
        assert_eq!(res("백 반집승"), (W, Some(Score), Some(0.5)));
        assert_eq!(res("백 3집반승"), (W, Some(Score), Some(3.5)));
        assert_eq!(res("흑 시간승"), (B, Some(Time), None));
        assert_eq!(res("백 시간패"), (B, Some(Time), None));
        assert_eq!(res("흑 기권승"), (B, Some(Forfeit), None));
        assert_eq!(res("무승부"), (D, None, None));
    }

    #[test]
    fn first_colour_word_decides() {
        // 白 after 黑 does not matter: the first colour word and the first win/loss word after it.
        assert_eq!(res("黑胜白"), (B, None, None));
        assert_eq!(res("黑对白, 白胜"), (B, None, None));
        // A win word before the first colour word is not "after" it.
        assert_eq!(res("胜: 白负"), (B, None, None));
        // A colour word without a win or loss word is not a winner.
        assert!(!parse_result("黑方").recognised);
        assert_eq!(res("full-width Ｗ＋Ｒ"), (U, None, None));
        assert_eq!(res("Ｗ＋Ｒ"), (W, Some(Resignation), None));
    }

    #[test]
    fn canonical_sgf() {
        let sgf = |raw: &str| parse_result(raw).to_sgf();
        assert_eq!(sgf("B+3.50").as_deref(), Some("B+3.5"));
        assert_eq!(sgf("W+Resign").as_deref(), Some("W+R"));
        assert_eq!(sgf("黑中盘胜").as_deref(), Some("B+R"));
        assert_eq!(sgf("b+time").as_deref(), Some("B+T"));
        assert_eq!(sgf("白超时负").as_deref(), Some("B+T"));
        assert_eq!(sgf("黑判负").as_deref(), Some("W+F"));
        assert_eq!(sgf("W+64").as_deref(), Some("W+64"));
        assert_eq!(sgf("W+0.0").as_deref(), Some("W+0"));
        assert_eq!(sgf("白胜3又3/4子").as_deref(), Some("W+7.5"));
        assert_eq!(sgf("B+Offline").as_deref(), Some("B+"));
        assert_eq!(sgf("黑胜").as_deref(), Some("B+"));
        assert_eq!(sgf("Draw").as_deref(), Some("0"));
        assert_eq!(sgf("和棋").as_deref(), Some("0"));
        assert_eq!(sgf("void").as_deref(), Some("Void"));
        assert_eq!(sgf("无").as_deref(), Some("Void"));
        assert_eq!(sgf("?").as_deref(), Some("?"));
        assert_eq!(sgf("未知").as_deref(), Some("?"));
        assert_eq!(sgf("john wins"), None);
    }

    #[test]
    fn canonical_wtf() {
        let wtf = |raw: &str| parse_result(raw).to_wtf();
        assert_eq!(wtf("B+R"), "黑中盘胜");
        assert_eq!(wtf("W+Resign"), "白中盘胜");
        assert_eq!(wtf("B+T"), "白超时负");
        assert_eq!(wtf("W+T"), "黑超时负");
        assert_eq!(wtf("B+F"), "白判负");
        assert_eq!(wtf("W+F"), "黑判负");
        assert_eq!(wtf("B+3.5"), "黑胜+3.5目");
        assert_eq!(wtf("白胜3又3/4子"), "白胜+3.75子");
        assert_eq!(wtf("W+"), "白胜");
        assert_eq!(wtf("B+Offline"), "黑胜");
        assert_eq!(wtf("0"), "和棋");
        assert_eq!(wtf("Void"), "无");
        assert_eq!(wtf("?"), "未知");
        assert_eq!(wtf("nonsense"), "未知");
    }

    #[test]
    fn round_trips() {
        for raw in ["B+3.5", "W+R", "B+T", "W+F", "0", "Void", "?", "B+"] {
            let r = parse_result(raw);
            assert_eq!(r.to_sgf().as_deref(), Some(raw));
            assert_eq!(parse_result(&r.to_wtf()), r, "{raw}");
        }
    }

    #[test]
    fn helpers() {
        assert_eq!(parse_result("B+R").winner_color(), Some(Color::Black));
        assert_eq!(parse_result("白胜").winner_color(), Some(Color::White));
        assert_eq!(parse_result("0").winner_color(), None);
        assert_eq!(parse_result("B+R").margin_points(), None);
    }
}
