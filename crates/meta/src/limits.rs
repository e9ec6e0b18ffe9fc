//! How large a metadata query may be, checked on its text before tantivy's grammar sees it.
//!
//! tantivy's query grammar is a recursive-descent parser: each `(` and each `NOT ` costs it
//! stack frames, and so do our rewriting of its syntax tree and its `QueryParser` after it. Five
//! thousand `(` (5 KB) overflowed the main thread's 8 MiB stack and aborted the process. The
//! limits below keep every query far from that, and a query past one is the user's error (a
//! [`MetaError::Query`], which a server answers with 400), never a crash:
//!
//! - [`MAX_BYTES`]: 4 KiB. A real query names a few players, an event and a date range in a few
//!   hundred bytes; 4 KiB still holds a list of a hundred names. It also bounds the work a query
//!   can ask for: each word with no field is looked up in six fields' value dictionaries.
//! - [`MAX_DEPTH`]: 32 levels of parentheses and of `NOT`, `-`, `+` before a term, counted as a
//!   reader counts them (outside quotes, escapes skipped), so the message can say where.
//! - [`MAX_NESTING_MARKS`]: 128 `(` and `NOT` in the whole text, quoted or not. The grammar only
//!   recurses on these two, so this bounds its depth even where its reading of quotes and
//!   escapes (or its error recovery) differs from the count above. 128 levels are parsed and run
//!   on a 1 MiB stack (see the tests), an eighth of the main thread's.
//! - [`MAX_CLAUSES`]: 128 terms, phrases, ranges and sets, counted on the parsed query.

use tantivy::query_grammar::UserInputAst;

use super::MetaError;

/// The longest query text, in bytes.
pub const MAX_BYTES: usize = 4096;
/// The deepest nesting of parentheses and prefix operators (`NOT`, `-`, `+`).
pub const MAX_DEPTH: usize = 32;
/// The most `(` and `NOT` one query may hold, nested or not.
pub const MAX_NESTING_MARKS: usize = 128;
/// The most terms (words, phrases, ranges, sets) one query may hold.
pub const MAX_CLAUSES: usize = 128;

fn too_much(column: usize, message: String) -> MetaError {
    MetaError::Query {
        at: Some(format!("column {column}")),
        message,
    }
}

/// Checks the text of a query against [`MAX_BYTES`], [`MAX_DEPTH`] and [`MAX_NESTING_MARKS`].
/// Columns are 1-based byte offsets.
pub fn check_text(query: &str) -> Result<(), MetaError> {
    if query.len() > MAX_BYTES {
        return Err(too_much(
            MAX_BYTES + 1,
            format!(
                "the query is {} bytes long; the limit is {MAX_BYTES}",
                query.len()
            ),
        ));
    }
    let marks = query.matches('(').count() + query.matches("NOT").count();
    if marks > MAX_NESTING_MARKS {
        return Err(MetaError::Query {
            at: None,
            message: format!(
                "the query has {marks} parentheses and NOTs; the limit is {MAX_NESTING_MARKS}"
            ),
        });
    }
    check_depth(query)
}

/// Follows parentheses and prefix-operator chains as tantivy's grammar nests them.
fn check_depth(query: &str) -> Result<(), MetaError> {
    // For each open parenthesis, the prefix operators that stood before it.
    let mut open: Vec<usize> = Vec::new();
    let mut depth_of_open = 0;
    // Prefix operators before the term being read.
    let mut chain = 0;
    let mut word = String::new();
    // Where the word being read starts (1-based byte column).
    let mut word_start = 0;
    let mut at_start = true;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let deeper = |column: usize, depth: usize| -> Result<(), MetaError> {
        if depth > MAX_DEPTH {
            return Err(too_much(
                column,
                format!(
                    "nested {depth} deep (parentheses and NOT, -, + before a term); \
                     the limit is {MAX_DEPTH}"
                ),
            ));
        }
        Ok(())
    };
    // A word ends: `NOT` followed by a space adds to the chain, any other word is a term.
    let end_word = |word: &mut String, chain: &mut usize, spaced: bool, column: usize| {
        let r = if word == "NOT" && spaced {
            *chain += 1;
            Some(*chain)
        } else {
            if !word.is_empty() && word != "AND" && word != "OR" {
                *chain = 0;
            }
            None
        };
        word.clear();
        r.map(|c| (column, c))
    };
    for (i, c) in query.char_indices() {
        let column = i + 1;
        if escaped {
            escaped = false;
            if word.is_empty() {
                word_start = column;
            }
            word.push('x');
            at_start = false;
            continue;
        }
        if let Some(q) = quote {
            if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
                chain = 0;
            }
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                at_start = false;
            }
            '"' | '\'' if at_start || word.ends_with(':') => {
                quote = Some(c);
                word.clear();
            }
            '(' => {
                if let Some((col, c)) = end_word(&mut word, &mut chain, false, word_start) {
                    deeper(col, depth_of_open + open.len() + c)?;
                }
                open.push(chain);
                depth_of_open += chain;
                chain = 0;
                deeper(column, depth_of_open + open.len())?;
                at_start = true;
            }
            ')' => {
                end_word(&mut word, &mut chain, false, word_start);
                if let Some(before) = open.pop() {
                    depth_of_open -= before;
                }
                chain = 0;
                at_start = false;
            }
            '-' | '+' if at_start => {
                chain += 1;
                deeper(column, depth_of_open + open.len() + chain)?;
            }
            c if c.is_whitespace() => {
                if let Some((col, c)) = end_word(&mut word, &mut chain, true, word_start) {
                    deeper(col, depth_of_open + open.len() + c)?;
                }
                at_start = true;
            }
            c => {
                if word.is_empty() {
                    word_start = column;
                }
                word.push(c);
                at_start = false;
            }
        }
    }
    Ok(())
}

/// Checks a parsed query against [`MAX_CLAUSES`] (the tree's depth is bounded already by
/// [`check_text`]; the walk needs no recursion anyway).
pub fn check_clauses(ast: &UserInputAst) -> Result<(), MetaError> {
    let mut leaves = 0;
    let mut todo = vec![ast];
    while let Some(node) = todo.pop() {
        match node {
            UserInputAst::Clause(clauses) => todo.extend(clauses.iter().map(|(_, a)| a)),
            UserInputAst::Boost(a, _) => todo.push(a),
            UserInputAst::Leaf(_) => leaves += 1,
        }
    }
    if leaves > MAX_CLAUSES {
        return Err(MetaError::Query {
            at: None,
            message: format!("the query has {leaves} terms; the limit is {MAX_CLAUSES}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_error(q: &str) -> String {
        match check_text(q) {
            Err(e) => e.to_string(),
            Ok(()) => panic!("{q:?} should be refused"),
        }
    }

    #[test]
    fn depth_is_counted_as_the_grammar_nests() {
        let ok = |q: &str| check_text(q).unwrap_or_else(|e| panic!("{q:?}: {e}"));
        ok(&format!("{}a{}", "(".repeat(32), ")".repeat(32)));
        ok(&"(a) ".repeat(100));
        ok(&"NOT a AND ".repeat(60));
        ok(r#"black:"((((((((((((((((((((((((((((((((((" AND a"#);
        ok(r"a\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(\(");
        let e = depth_error(&format!("{}a", "(".repeat(33)));
        assert!(e.contains("column 33") && e.contains("33 deep"), "{e}");
        let e = depth_error(&"NOT ".repeat(40));
        assert!(e.contains("column 129"), "{e}");
        let e = depth_error(&format!("{}a", "-".repeat(33)));
        assert!(e.contains("column 33"), "{e}");
        let e = depth_error(&"(NOT ".repeat(17));
        assert!(e.contains("deep"), "{e}");
        // A closing parenthesis inside quotes does not close a group.
        let e = depth_error(&format!("{}\")\"{}", "(".repeat(20), "(".repeat(13)));
        assert!(e.contains("deep"), "{e}");
    }

    #[test]
    fn length_and_marks() {
        let e = depth_error(&"a ".repeat(3000));
        assert!(e.contains("6000 bytes") && e.contains("4096"), "{e}");
        // Quoted parentheses still count towards the backstop.
        let e = depth_error(&format!("\"{}\"", "(".repeat(129)));
        assert!(e.contains("129 parentheses"), "{e}");
    }

    /// The backstop's figure: 128 levels, the most [`MAX_NESTING_MARKS`] lets through whatever
    /// the reading of quotes, go through tantivy's grammar (strict and lenient), our rewriting
    /// and tantivy's query builder on a 1 MiB stack.
    #[test]
    fn the_most_nesting_allowed_fits_a_small_stack() {
        use tantivy::query::QueryParser;
        use tantivy::query_grammar::{parse_query, parse_query_lenient};
        use tantivy::schema::{Schema, TEXT};
        use tantivy::tokenizer::TokenizerManager;
        let run = || {
            let n = MAX_NESTING_MARKS / 2;
            let nested = format!("{}black:a{}", "(NOT ".repeat(n), ")".repeat(n));
            let mut schema = Schema::builder();
            let black = schema.add_text_field("black", TEXT);
            let parser = QueryParser::new(schema.build(), vec![black], TokenizerManager::default());
            let ast = parse_query(&nested).expect("parses");
            let ast = crate::query::rewrite(ast).expect("rewrites");
            parser.build_query_from_user_input_ast(ast).expect("builds");
            let unclosed = "(".repeat(MAX_NESTING_MARKS);
            let _ = parse_query(&unclosed);
            let _ = parse_query_lenient(&unclosed);
            let _ = parse_query_lenient(&format!("{}a", "NOT ".repeat(MAX_NESTING_MARKS)));
        };
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
    }
}
