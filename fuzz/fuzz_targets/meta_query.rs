//! Sends arbitrary text as a metadata query (`qipu search --query`) to an index of the sample
//! games: tantivy's grammar, the limits before it, the rewriting of fields, dates, ranks and
//! words with no field through the value dictionary, and the search. Nothing may panic or
//! overflow the stack, and a query that fails is the user's error, said in one line.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(query) = std::str::from_utf8(data) else {
        return;
    };
    let index = common::sample_index();
    match index.search_meta(query) {
        Ok(ids) => assert!(ids.iter().all(|&g| g < index.len())),
        Err(index::IndexError::Meta(e @ meta::MetaError::Query { .. })) => {
            assert!(!e.to_string().contains('\n'), "{e}");
        }
        Err(e) => panic!("{query:?}: not a query error: {e}"),
    }
});
