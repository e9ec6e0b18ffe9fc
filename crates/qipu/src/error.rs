//! What can go wrong, sorted by who must act: the person who wrote the query, or whoever keeps
//! the index and the machine.

use std::fmt;

use serde::Serialize;

use crate::word_kind::WordKind;

/// The part of a query that is wrong, so that a form or an API can point at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum QueryPart {
    /// The board size.
    Board,
    /// A position given as a record (the record, or the move number in it).
    Position,
    /// A position typed as points.
    Points,
    /// A pattern diagram, or where it is placed.
    Pattern,
    /// A move sequence.
    Moves,
    /// The game-information (metadata) query.
    Metadata,
    /// A game asked for by number that the index does not hold.
    Game,
    /// Nothing to search was given.
    Nothing,
    /// A filter of the games' facts (dates, rank, komi).
    Filter,
    /// A step of a walk on from a pattern ([`crate::Query::then`]): a point that is not one, or
    /// not a continuation of the pattern.
    Then,
    /// An option's word that is none of its kind's ([`QueryError::word`] says which kind): a sort
    /// key or a colour. Filters' words (dates, ranks, komi, handicap) stay [`QueryPart::Filter`].
    Word,
}

/// A query that cannot be answered as written: the caller's mistake, which the caller can mend.
/// The message says what is wrong and where (a point's place in a list, a diagram's line and
/// column, a metadata query's field or offset); [`QueryError::part`] says which part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct QueryError {
    part: QueryPart,
    message: String,
    /// The kind of word refused, when one option's word was (`sort=sideways`).
    #[serde(skip_serializing_if = "Option::is_none")]
    word: Option<WordKind>,
}

impl QueryError {
    pub(crate) fn new(part: QueryPart, message: impl Into<String>) -> QueryError {
        QueryError {
            part,
            message: message.into(),
            word: None,
        }
    }

    /// A word of `kind` that is none of its accepted words: the message names the kind, quotes
    /// the word and lists what is accepted, so that every client says the same.
    pub(crate) fn bad_word(kind: WordKind, word: &str) -> QueryError {
        QueryError {
            part: part_of(kind),
            message: format!("{word:?} is not a {}: give {}", kind.name(), kind.listed()),
            word: Some(kind),
        }
    }

    /// The kind of word refused, when the fault is one option's word.
    pub fn word(&self) -> Option<WordKind> {
        self.word
    }

    /// The part of the query that is wrong.
    pub fn part(&self) -> QueryPart {
        self.part
    }

    /// What is wrong, and where, in one line.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// What kind of failure an [`Error`] is, which says who can do something about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The query is wrong ([`Error::query`] says how); asking again differently helps. An HTTP
    /// server answers 400.
    BadQuery,
    /// There is no index in the folder: build one ([`crate::build`]). A server answers 503 (or
    /// 500 when it was configured with that folder).
    NoIndex,
    /// The index was written by another qipu version: rebuild it (`rebuild: true`).
    OldIndex,
    /// A file of the index is damaged or cut short: [`crate::Index::verify`] names it; rebuild.
    DamagedIndex,
    /// Another process is writing to the index (building only); try again later. 503.
    Busy,
    /// An input given to [`crate::build`] cannot be read as one (a missing path, an unreadable
    /// archive).
    BadInput,
    /// Reading or writing a file failed (permissions, a full disk). 500.
    Io,
    /// The search was given up before it finished, by its [`crate::Stop`] (a time budget spent,
    /// a client gone); asking again with more time may answer. A server answers 503.
    Stopped,
}

/// A failure of the library: [`Error::kind`] sorts it, [`Error::is_user_error`] says whether
/// the caller's input was at fault, and its `Display` is one line for a person.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    Query(QueryError),
    Index(index::IndexError),
    Stopped,
}

impl Error {
    /// The error for index files found cut short while this process read them (see
    /// [`damaged_files`](crate::damaged_files)): a [`ErrorKind::DamagedIndex`].
    pub fn files_cut(files: Vec<std::path::PathBuf>) -> Error {
        index::IndexError::Changed { files }.into()
    }

    /// A search stopped by its [`crate::Stop`].
    pub(crate) fn stopped() -> Error {
        Error {
            kind: ErrorKind::Stopped,
            inner: Inner::Stopped,
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Whether the query (or, for a build, the inputs) was at fault rather than the index or the
    /// machine: a server's 4xx against 5xx.
    pub fn is_user_error(&self) -> bool {
        matches!(self.kind, ErrorKind::BadQuery | ErrorKind::BadInput)
    }

    /// The query's fault, with its part, when this is [`ErrorKind::BadQuery`].
    pub fn query(&self) -> Option<&QueryError> {
        match &self.inner {
            Inner::Query(q) => Some(q),
            _ => None,
        }
    }
}

impl From<QueryError> for Error {
    fn from(q: QueryError) -> Error {
        Error {
            kind: ErrorKind::BadQuery,
            inner: Inner::Query(q),
        }
    }
}

impl From<search::SearchError> for Error {
    fn from(e: search::SearchError) -> Error {
        // The query parsers in the search crate say what and where; the part is filled in by
        // the caller that knows which part it parsed (see `QueryError::in_part`).
        let search::SearchError::BadQuery(message) = e;
        QueryError::new(QueryPart::Nothing, message).into()
    }
}

impl From<index::IndexError> for Error {
    fn from(e: index::IndexError) -> Error {
        use index::IndexError as E;
        use meta::MetaError;
        let kind = match &e {
            E::Io { .. } => ErrorKind::Io,
            E::Corrupt(_) | E::Changed { .. } | E::Damaged { .. } => ErrorKind::DamagedIndex,
            E::Missing(_) => ErrorKind::NoIndex,
            E::Version { .. } => ErrorKind::OldIndex,
            E::Locked { .. } => ErrorKind::Busy,
            E::Input(_) | E::Variations { .. } | E::AliasFile(_) => ErrorKind::BadInput,
            E::Meta(MetaError::Query { .. }) => {
                return QueryError::new(QueryPart::Metadata, e.to_string()).into()
            }
            E::Meta(MetaError::Io { .. }) => ErrorKind::Io,
            E::Meta(_) => ErrorKind::DamagedIndex,
        };
        Error {
            kind,
            inner: Inner::Index(e),
        }
    }
}

/// A metadata query's failure said in the user's words: the index's parser speaks of the
/// fields it searches, which are not always those the user wrote (`rank:` is asked of
/// `black_rank` and `white_rank`), and a query it accepted could still ask tantivy what its
/// schema cannot answer (tantivy's `FIELD:*` of a field with no column; the index's rewriting
/// now asks every numeric field's as a range instead), which tantivy calls a "Schema error".
/// Neither name may reach the user.
pub(crate) fn in_users_words(e: index::IndexError, query: &str) -> Error {
    use meta::MetaError;
    match e {
        index::IndexError::Meta(MetaError::Query { at, message }) => {
            let mut text = MetaError::Query { at, message }.to_string();
            // `black_rank:12p` (where the value was read) becomes `rank:12p`; a list of the
            // field names (`…, black_rank, white_rank, …`) stays as it is.
            for internal in ["black_rank:", "white_rank:"] {
                if text.contains(internal) && !query.contains(internal) {
                    text = text.replace(internal, "rank:");
                }
            }
            if text.contains("is not a rank") {
                text.push_str(
                    "; a rank is 1k to 50k (kyu), 1d to 10d (amateur dan) or 1p to 9p \
                     (professional)",
                );
            }
            QueryError::new(QueryPart::Metadata, text).into()
        }
        index::IndexError::Meta(MetaError::Tantivy(t))
            if t.to_string().contains("Schema error") =>
        {
            let said = t.to_string();
            // tantivy's words: "Field NAME is not a fast field" (its only schema error here).
            let field = said
                .split("Field ")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .filter(|f| query.contains(&format!("{f}:")));
            let message = match field {
                Some(f) => format!("{f}:* (has a value) cannot be asked of {f}"),
                None => "the query asks a field what it cannot answer (a FIELD:* test, \
                         say); fields and what they take: the README"
                    .to_string(),
            };
            QueryError::new(QueryPart::Metadata, message).into()
        }
        other => other.into(),
    }
}

impl QueryError {
    /// The same fault, said to be in `part` (the search crate's parsers do not know which part
    /// of a query they were handed).
    pub(crate) fn in_part(e: impl Into<Error>, part: QueryPart) -> Error {
        let mut e: Error = e.into();
        if let Inner::Query(q) = &mut e.inner {
            q.part = part;
        }
        e
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner {
            Inner::Query(q) => q.fmt(f),
            Inner::Index(e) => e.fmt(f),
            Inner::Stopped => f.write_str("the search was stopped before it finished"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner {
            Inner::Query(_) | Inner::Stopped => None,
            // The index error says its causes in its own line; its sources are its causes'.
            Inner::Index(e) => std::error::Error::source(e),
        }
    }
}

/// The part of a query a word of `kind` belongs to.
fn part_of(kind: WordKind) -> QueryPart {
    match kind {
        WordKind::Sort | WordKind::Color | WordKind::Loss => QueryPart::Word,
        WordKind::Point => QueryPart::Points,
        _ => QueryPart::Filter,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_errors_name_the_fields_the_user_wrote() {
        let bad_rank = || {
            index::IndexError::Meta(meta::MetaError::Query {
                at: Some("black_rank:12p".into()),
                message: "black_rank: \"12p\" is not a rank (such as 10k, 3d or 9p)".into(),
            })
        };
        let e = in_users_words(bad_rank(), "rank:>=12p");
        assert_eq!(e.query().map(QueryError::part), Some(QueryPart::Metadata));
        let text = e.to_string();
        assert!(!text.contains("black_rank"), "{text}");
        assert!(
            text.contains("rank:12p") && text.contains("1p to 9p"),
            "{text}"
        );
        // Asked of black_rank itself, the message says black_rank.
        let text = in_users_words(bad_rank(), "black_rank:12p").to_string();
        assert!(text.contains("black_rank: \"12p\""), "{text}");
        // A list of fields is not rewritten.
        let unknown = index::IndexError::Meta(meta::MetaError::Query {
            at: None,
            message: "unknown field \"x\"; fields are rank, black_rank, white_rank".into(),
        });
        let text = in_users_words(unknown, "x:1").to_string();
        assert!(text.contains("rank, black_rank, white_rank"), "{text}");
    }

    #[test]
    fn kinds_sort_faults_by_who_must_act() {
        let q: Error = QueryError::new(QueryPart::Pattern, "pattern line 2, column 4").into();
        assert_eq!(q.kind(), ErrorKind::BadQuery);
        assert!(q.is_user_error());
        assert_eq!(q.query().map(QueryError::part), Some(QueryPart::Pattern));
        assert_eq!(q.to_string(), "pattern line 2, column 4");

        let missing: Error = index::IndexError::Missing("/nowhere".into()).into();
        assert_eq!(missing.kind(), ErrorKind::NoIndex);
        assert!(!missing.is_user_error());
        assert!(missing.query().is_none());

        let old: Error = index::IndexError::Version {
            dir: "/x".into(),
            found: 1,
        }
        .into();
        assert_eq!(old.kind(), ErrorKind::OldIndex);
        let damaged: Error = index::IndexError::Corrupt("games.bin".into()).into();
        assert_eq!(damaged.kind(), ErrorKind::DamagedIndex);
        let meta: Error = index::IndexError::Meta(meta::MetaError::Query {
            at: Some("offset 3".into()),
            message: "unbalanced".into(),
        })
        .into();
        assert_eq!(meta.kind(), ErrorKind::BadQuery);
        assert_eq!(meta.query().unwrap().part(), QueryPart::Metadata);
        let io: Error = index::IndexError::Io {
            path: "/x".into(),
            source: std::io::Error::from_raw_os_error(2),
        }
        .into();
        assert_eq!(io.kind(), ErrorKind::Io);
        assert!(io.to_string().starts_with("/x: "));
    }
}
