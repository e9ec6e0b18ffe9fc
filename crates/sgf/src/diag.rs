//! Diagnostics: what was wrong with a record and where, without stopping the run.
//!
//! Real archives are full of broken files; a problem in one game must never cost the others. Every
//! problem is therefore a value with a byte offset into the file, collected beside the game it
//! belongs to, rather than an error that unwinds.

use std::fmt;

/// One thing that was wrong with the input, and what the reader did about it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("no game tree found")]
    NoGame,
    #[error("game tree does not start with '(': one is assumed before its first node")]
    MissingOpen,
    #[error("game tree is 4 GiB or larger: not read")]
    TooLarge,
    #[error("game tree holds no node")]
    EmptyTree,
    #[error("SZ[{0}] is not a board of 1 to 52 lines: the game is read on 19×19")]
    BadSize(String),
    #[error("game tree is not closed: the file ends inside it")]
    Unclosed,
    #[error(
        "game tree is not closed: it ends here, where another game's root node (GM, FF, SZ…) starts"
    )]
    UnclosedBeforeNextGame,
    /// Bytes of a cut tree between the games found in it, which belong to none of them.
    #[error(
        "{0} bytes from here belong to no game (a cut tree's, between the games found in it): not read"
    )]
    LeftBetweenGames(usize),
    #[error("property value is not closed: the file ends inside it")]
    UnclosedValue,
    #[error("unexpected {0:?} between properties, skipped")]
    UnexpectedByte(char),
    #[error("property {0} has no value, dropped")]
    NoValue(String),
    #[error("value without a property name, dropped")]
    ValueWithoutProperty,
    #[error("property {0} outside any node: an implicit node was made for it")]
    PropertyOutsideNode(String),
    #[error("a second root node in one game tree: attached below the first")]
    ExtraRoot,
    #[error("property identifier {0:?} has no upper-case letter")]
    NoUpperCase(String),
    #[error("unknown charset CA[{0}]")]
    UnknownCharset(String),
    #[error("CA[{declared}] does not fit the text: decoded as {used}")]
    CharsetMismatch {
        declared: String,
        used: &'static str,
    },
    /// Text that does not decode in the charset chosen for it; the diagnostic's offset is that of
    /// the first bad sequence.
    #[error(
        "text is not valid {charset}: {bad} bad sequence{}, the first at this byte, decoded as U+FFFD",
        if *bad == 1 { "" } else { "s" }
    )]
    Undecodable { charset: &'static str, bad: usize },
    #[error("{format}{}: {reason}", line_suffix(*.line))]
    Foreign {
        format: &'static str,
        /// 1-based line of the original file; 0 for the file as a whole.
        line: usize,
        reason: String,
    },
    #[error("malformed quadrant record: {0}")]
    Quadrant(String),
    /// An engine evaluation a program wrote that cannot be read (a malformed number, a win rate
    /// out of range, a damaged or oversized `KT` blob): that position is left without one.
    #[error("{property}: {reason}; that evaluation is skipped")]
    BadEvaluation {
        property: &'static str,
        reason: String,
    },
    #[error("too many problems in this game; further ones are not listed")]
    TooMany,
}

fn line_suffix(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" line {line}")
    }
}

/// A problem at a byte offset of the file being read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Byte offset into the file (into its UTF-8 transcoding for UTF-16 files).
    pub offset: usize,
    pub problem: Problem,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.problem)
    }
}

/// Diagnostics of one game, capped so that a file of garbage cannot make a list as large as itself.
#[derive(Clone, Debug, Default)]
pub(crate) struct DiagList {
    pub(crate) items: Vec<Diagnostic>,
}

const MAX_PER_GAME: usize = 64;

impl DiagList {
    pub(crate) fn push(&mut self, offset: usize, problem: Problem) {
        match self.items.len() {
            n if n < MAX_PER_GAME => self.items.push(Diagnostic { offset, problem }),
            n if n == MAX_PER_GAME => self.items.push(Diagnostic {
                offset,
                problem: Problem::TooMany,
            }),
            _ => {}
        }
    }
}
