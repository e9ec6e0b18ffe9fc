//! Pattern diagrams (`--pattern FILE`): any text is parsed, and a diagram that parses is
//! searched for in the sample games, anchored at the corner and anywhere. Nothing may panic,
//! and a parsed diagram has as many cells as its width times its height.
#![no_main]

use libfuzzer_sys::fuzz_target;
use search::query::parse_pattern;
use search::{find_pattern, PatternQuery};

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((width, height, cells)) = parse_pattern(text) else {
        return;
    };
    assert_eq!(cells.len(), width as usize * height as usize);
    assert!((1..=52).contains(&width) && (1..=52).contains(&height));
    if width > 19 || height > 19 {
        return;
    }
    let index = common::sample_index();
    for anywhere in [false, true] {
        let q = PatternQuery {
            width,
            height,
            cells: cells.clone(),
            offset: (0, 0),
            board: (19, 19),
            symmetry: true,
            swap_colors: anywhere,
            anywhere,
        };
        let answer = find_pattern(index, &q, None);
        assert!(answer.hits.iter().all(|h| h.game < index.len()));
    }
});
