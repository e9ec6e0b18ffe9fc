//! Typed positions and move sequences (`--black`, `--white`, `--moves`): any text, on any board
//! from 1×1 to 52×52 (the first two bytes choose it). Nothing may panic, and every point
//! accepted lies on the board.
#![no_main]

use libfuzzer_sys::fuzz_target;
use search::query::{parse_moves, parse_points, position_from_points};

fuzz_target!(|data: &[u8]| {
    let [w, h, rest @ ..] = data else { return };
    let (width, height) = (1 + w % 52, 1 + h % 52);
    let text = String::from_utf8_lossy(rest);
    let on_board = |p: &goban::Point| p.x < width && p.y < height;
    if let Ok(points) = parse_points(&text, width, height) {
        assert!(points.iter().all(on_board), "{text:?}");
        let (black, white) = points.split_at(points.len() / 2);
        let _ = position_from_points(width, height, black, white);
    }
    if let Ok(moves) = parse_moves(&text, width, height) {
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|(_, p)| on_board(p)), "{text:?}");
    }
});
