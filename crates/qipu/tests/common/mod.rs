//! What several of the library's tests share.

#![allow(dead_code)]

use qipu::{Color, LossThreshold, Point};
use sgf::ids;
use testdata::analysed::{made_up, made_up_loss};

/// Reads [`made_up`]'s evaluations for a record's main line (the index's evaluation reader).
pub fn made_up_evals(tree: &sgf::GameTree<'_>) -> Option<sgf::Evals> {
    let (w, h) = tree.board_size();
    let as_eval = |n: Option<(i32, Option<i32>)>| {
        n.map(|(win, lead)| sgf::Eval {
            win: win as f32 / 10_000.0,
            lead: lead.map(|l| l as f32 / 10.0),
            visits: None,
        })
    };
    let mut positions = vec![as_eval(made_up(0, None))];
    for node in tree.main_line() {
        let mv = node
            .get(ids::B)
            .map(|p| (Color::Black, p))
            .or(node.get(ids::W).map(|p| (Color::White, p)));
        if let Some((color, prop)) = mv {
            let point = Point::parse_move(prop.raw(), w, h).ok()?;
            let last = (color == Color::Black, point.map(|p| (p.x, p.y)));
            positions.push(as_eval(made_up(positions.len(), Some(last))));
        }
    }
    Some(sgf::Evals {
        positions,
        program: "test",
        engine: None,
    })
}

/// The moves of `continued` (each: a game's key, its main line, the position the move was played
/// from) that lost their mover at least `loss` by [`made_up`]'s numbers: (key, move number, the
/// loss the answer sorts by: win in 1/10,000 when asked, else points in tenths).
pub fn made_up_mistakes<'a, K>(
    continued: impl IntoIterator<Item = (K, &'a [(Color, Option<(u8, u8)>)], u32)>,
    loss: LossThreshold,
) -> Vec<(K, u32, i32)> {
    let win_at = loss.win.map(|w| (w * 10_000.0).round() as i32);
    let lead_at = loss.points.map(|p| (p * 10.0).round() as i32);
    let mut out = Vec::new();
    for (key, moves, j) in continued {
        let moves: Vec<(bool, Option<(u8, u8)>)> =
            moves.iter().map(|&(c, p)| (c == Color::Black, p)).collect();
        let Some((win, lead)) = made_up_loss(&moves, j as usize) else {
            continue;
        };
        if win_at.is_some_and(|w| win < w) || lead_at.is_some_and(|t| lead.is_none_or(|l| l < t)) {
            continue;
        }
        let by = if win_at.is_some() {
            win
        } else {
            lead.unwrap_or(i32::MIN)
        };
        out.push((key, j + 1, by));
    }
    out
}

/// The tests' evaluation property: each main-line node's comment `WIN LEAD`, Black's win in
/// 1/10,000 and his lead in tenths (`-` for none), as `testdata::analysed` writes it; a test
/// gives it to the build as its evaluation reader (`BuildOptions::evals`).
pub fn comment_evals(tree: &sgf::GameTree<'_>) -> Option<sgf::Evals> {
    let positions: Vec<Option<sgf::Eval>> = tree
        .main_line()
        .map(|node| {
            let text = node.get(sgf::ids::C)?.text().to_string();
            let mut words = text.split(' ');
            let win: i32 = words.next()?.parse().ok()?;
            let lead = words.next()?.parse::<i32>().ok();
            Some(sgf::Eval {
                win: win as f32 / 10_000.0,
                lead: lead.map(|l| l as f32 / 10.0),
                visits: None,
            })
        })
        .collect();
    positions.iter().any(Option::is_some).then_some(sgf::Evals {
        positions,
        program: "test",
        engine: None,
    })
}
