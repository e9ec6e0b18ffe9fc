//! Pattern diagrams (`--pattern FILE`): any text is parsed, and a diagram that parses is
//! searched for in the sample games, anchored at the corner and anywhere. Nothing may panic,
//! and a parsed diagram has as many cells as its width times its height.
#![no_main]

use libfuzzer_sys::fuzz_target;
use search::query::parse_pattern;

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
    let index = common::sample_face();
    let query = qipu::Query::pattern(text).expect("a diagram that parses is a query");
    for anywhere in [false, true] {
        let q = query.clone().anywhere(anywhere).swap_colors(anywhere);
        let answer = index.search(&q).expect("a pattern that fits is answered");
        assert!(answer.hits.iter().all(|h| h.game < index.len()));
    }
});
