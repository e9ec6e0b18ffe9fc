//! The value dictionary: every distinct name, team, event, round, place, rules, source, annotator
//! and result, tokenized once.
//!
//! These fields repeat from game to game (a player has hundreds of games, a server writes the
//! same place on every one), yet tokenizing them into every game's document was the costliest
//! part of the metadata index: a name's CJK n-grams were made again for each of its games
//! (BENCHMARKS.md, Indexing: value dictionary).
//! So a game's document holds each such value as one exact term, and this small second index
//! holds one document per distinct value, with its tokens. A query on such a field is answered
//! in two steps: the dictionary finds the values that match (`black:李世石` finds
//! `李世石九段`, `black:"Lee Sedol"` finds `Lee Sedol 9p`), then the games holding any of those
//! values are found by their exact terms. The matching is the same as before, because a field
//! holds one value per game: a game matches a word or phrase exactly when its value does.
//!
//! Black and white share one kind of value (`player`), and so do the two teams (`team`); every
//! other field is its own kind. The dictionary only grows: a value stays after the games that
//! brought it are rolled back, which costs nothing but a document, and it is committed before
//! the games, so that every committed game's values are in it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use tantivy::collector::DocSetCollector;
use tantivy::merge_policy::NoMergePolicy;
use tantivy::query::{BooleanQuery, Occur, Query, QueryParser, TermQuery};
use tantivy::query_grammar::{UserInputAst, UserInputLeaf};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, STRING,
};
use tantivy::{IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use super::{tokenizer, MetaError, TOKENIZER};

/// The longest value indexed as one term, in bytes (tantivy drops longer terms); a longer value
/// is cut at a character boundary, alike in the game's document and here.
pub const MAX_VALUE_BYTES: usize = 32 * 1024;

/// `value` cut to [`MAX_VALUE_BYTES`].
pub fn capped(value: &str) -> &str {
    if value.len() <= MAX_VALUE_BYTES {
        return value;
    }
    let mut end = MAX_VALUE_BYTES;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    &value[..end]
}

/// The dictionary's fields.
#[derive(Clone, Debug)]
struct Fields {
    /// The kind of value (`player`, `event`, …): one term.
    kind: Field,
    /// Kind, a NUL and the value: one term, to know which values are in; also a fast column, to
    /// read back the values a query matched.
    key: Field,
    /// The value's tokens.
    text: Field,
}

/// The dictionary's field of tokens, which queries name.
pub const TEXT: &str = "text";

fn schema() -> Schema {
    let mut b = Schema::builder();
    b.add_text_field("kind", STRING);
    b.add_text_field("key", STRING | FAST);
    b.add_text_field(
        TEXT,
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions)
                .set_fieldnorms(false),
        ),
    );
    b.build()
}

impl Fields {
    fn new(schema: &Schema) -> Result<Fields, MetaError> {
        Ok(Fields {
            kind: schema.get_field("kind")?,
            key: schema.get_field("key")?,
            text: schema.get_field(TEXT)?,
        })
    }
}

fn key(kind: &str, value: &str) -> String {
    let mut k = String::with_capacity(kind.len() + 1 + value.len());
    k.push_str(kind);
    k.push('\0');
    k.push_str(value);
    k
}

type Seen = HashMap<String, HashSet<String, ahash::RandomState>, ahash::RandomState>;

/// Adds values to the dictionary, each once.
pub struct ValuesWriter {
    writer: IndexWriter<TantivyDocument>,
    fields: Fields,
    /// The values already in (committed or not), by kind. Grows with the number of distinct
    /// values, not of games.
    seen: Seen,
}

impl ValuesWriter {
    /// Opens the dictionary in `dir`, or creates it, and reads which values it holds.
    pub fn open_or_create(dir: &Path) -> Result<ValuesWriter, MetaError> {
        let index = super::open_or_create_index(dir, schema())?;
        let fields = Fields::new(&index.schema())?;
        let mut seen = Seen::default();
        let reader: IndexReader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        for segment in reader.searcher().segment_readers() {
            let inverted = segment.inverted_index(fields.key)?;
            let mut stream = inverted.terms().stream().map_err(|source| MetaError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
            while stream.advance() {
                if let Some((kind, value)) = std::str::from_utf8(stream.key())
                    .ok()
                    .and_then(|k| k.split_once('\0'))
                {
                    seen.entry(kind.to_string())
                        .or_default()
                        .insert(value.to_string());
                }
            }
        }
        // Small documents: a modest heap, one thread.
        let writer = index.writer_with_num_threads(1, 32 << 20)?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        Ok(ValuesWriter {
            writer,
            fields,
            seen,
        })
    }

    /// Adds `value` of `kind` unless it is in; it is durable after the next commit. The value
    /// is known by its [`capped`] form, as the games' documents hold it; its tokens are those of
    /// the whole value.
    pub fn add(&mut self, kind: &'static str, value: &str) -> Result<(), MetaError> {
        let exact = capped(value);
        let values = match self.seen.get_mut(kind) {
            Some(values) => values,
            None => self.seen.entry(kind.to_string()).or_default(),
        };
        if !values.insert(exact.to_string()) {
            return Ok(());
        }
        let mut doc = TantivyDocument::default();
        doc.add_text(self.fields.kind, kind);
        doc.add_text(self.fields.key, key(kind, exact));
        doc.add_text(self.fields.text, value);
        self.writer.add_document(doc)?;
        Ok(())
    }

    /// Makes the values added so far durable.
    pub fn commit(&mut self) -> Result<(), MetaError> {
        self.writer.commit()?;
        Ok(())
    }

    /// The dictionary's index.
    pub(crate) fn index(&self) -> &tantivy::Index {
        self.writer.index()
    }
}

/// Reads the dictionary: which values of a kind match a query.
pub struct Values {
    dir: PathBuf,
    reader: IndexReader,
    parser: QueryParser,
    fields: Fields,
}

impl Values {
    /// Opens the dictionary in `dir` (without writing anything: searches may run on a
    /// read-only index).
    pub fn open(dir: &Path) -> Result<Values, MetaError> {
        let index = super::open_index(dir)?;
        let fields = Fields::new(&index.schema())?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let mut parser = QueryParser::new(
            index.schema(),
            vec![fields.text],
            tokenizer::query_manager(),
        );
        parser.set_conjunction_by_default();
        Ok(Values {
            dir: dir.to_path_buf(),
            reader,
            parser,
            fields,
        })
    }

    /// Sees the latest commit.
    pub fn reload(&self) -> Result<(), MetaError> {
        self.reader.reload()?;
        Ok(())
    }

    /// The values of `kind` that `leaf` (a word, phrase, set or range on the [`TEXT`] field)
    /// matches, sorted.
    pub fn matching(&self, kind: &str, leaf: &UserInputLeaf) -> Result<Vec<String>, MetaError> {
        let text = self
            .parser
            .build_query_from_user_input_ast(UserInputAst::Leaf(Box::new(leaf.clone())))?;
        let kind_term = TermQuery::new(
            Term::from_field_text(self.fields.kind, kind),
            IndexRecordOption::Basic,
        );
        let query = BooleanQuery::new(vec![
            (Occur::Must, Box::new(kind_term) as Box<dyn Query>),
            (Occur::Must, text),
        ]);
        let searcher = self.reader.searcher();
        let hits = searcher.search(&query, &DocSetCollector)?;
        let mut values = Vec::with_capacity(hits.len());
        let mut bytes = Vec::new();
        let prefix = kind.len() + 1;
        let mut columns = Vec::new();
        for segment in searcher.segment_readers() {
            columns.push(segment.fast_fields().str("key")?);
        }
        for address in hits {
            let Some(column) = &columns[address.segment_ord as usize] else {
                continue;
            };
            for ord in column.term_ords(address.doc_id) {
                bytes.clear();
                if column
                    .ord_to_bytes(ord, &mut bytes)
                    .map_err(|source| MetaError::Io {
                        path: self.dir.clone(),
                        source,
                    })?
                {
                    if let Some(v) = bytes.get(prefix..) {
                        values.push(String::from_utf8_lossy(v).into_owned());
                    }
                }
            }
        }
        values.sort_unstable();
        values.dedup();
        Ok(values)
    }
}
