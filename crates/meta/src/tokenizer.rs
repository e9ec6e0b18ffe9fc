//! The tokenizer for names, events and free text, in any of the scripts Go records are written in.
//!
//! Player names and event titles come in Chinese, Japanese and Korean as often as in Latin
//! letters, and CJK text has no spaces: 李世石九段 is one run of characters, yet a search for
//! 李世石 must find it. Latin text has spaces but varies in case and accents (`Lee Sedol`,
//! `LEE SEDOL`, `Lée`). So text is split into runs:
//!
//! - **CJK runs** (Han, Hiragana, Katakana, Hangul) become character n-grams. At index time each
//!   character gives a unigram and, with its successor, a bigram at the same position, so any
//!   substring of one or more characters is found; at query time a run of two or more characters
//!   gives only its bigrams (a phrase of them, which is exact for the run), a lone character its
//!   unigram. The query side is the cheaper half: fewer terms to intersect.
//! - **Word runs** (any other letters or digits) become one token each, lower-cased and folded to
//!   ASCII (`Lée` → `lee`). Full-width forms (`Ｌｅｅ`, `９ｐ`) are folded to ASCII first.
//! - Everything else (spaces, punctuation, `・`) separates tokens.
//!
//! Positions advance by one per word and one per CJK character, so a phrase query such as
//! `"Lee Sedol"` matches `Lee Sedol 9p` but not `Sedol Lee`, and mixed text keeps its order.
//!
//! **Folding.** Han characters are folded before they become n-grams: traditional and Japanese
//! new forms (shinjitai) to simplified ones, one character at a time, by a table generated at
//! build time from OpenCC's dictionaries (`build.rs`). So 一力遼 (Japanese), 一力辽 (mainland)
//! and 周俊勳 / 周俊勋 index and query alike, in every tokenized field. Folding character by
//! character keeps every substring of a name a substring of its folding, which the n-grams need;
//! its price is that a character with two meanings folds one way (芸 folds to 艺, as Japanese
//! writes 芸 for 藝), so a few names fold together that are different names. Stored values stay
//! as written; only the tokens are folded.
//!
//! No transliteration: 이창호 is found only where it is written in Hangul. The alias list
//! (`aliases.rs`) says which spellings in which scripts are one player.

use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RawTokenizer, TextAnalyzer, Token, TokenStream, Tokenizer,
    TokenizerManager,
};

/// The name under which the tokenizer is registered, for indexing and querying alike.
pub const TOKENIZER: &str = "qipu_text";

/// Splits text into lower-cased, folded words and CJK n-grams; see the module documentation.
///
/// The tokens come out final: no filter follows. (Tantivy's lower-casing and folding filters
/// looked at every token again, CJK n-grams included, which they never change: BENCHMARKS.md,
/// Indexing: tokenizer folds its own tokens.)
#[derive(Clone, Default)]
pub struct NameTokenizer {
    /// Query mode: bigrams only for CJK runs of two or more characters.
    query: bool,
    /// Tokens of the last text: the first `len` are live; the rest keep their buffers for reuse.
    tokens: Vec<Token>,
    len: usize,
    /// Lower-cases and folds the rare words that are not plain ASCII.
    folder: Option<TextAnalyzer>,
}

impl NameTokenizer {
    /// The tokenizer used when indexing documents.
    pub fn for_index() -> NameTokenizer {
        NameTokenizer::default()
    }

    /// The tokenizer used when parsing queries.
    pub fn for_query() -> NameTokenizer {
        NameTokenizer {
            query: true,
            ..NameTokenizer::default()
        }
    }

    /// Appends a token, reusing a buffer left by an earlier text.
    fn push(&mut self, text: &str, from: usize, to: usize, position: usize) {
        if self.len == self.tokens.len() {
            self.tokens.push(Token::default());
        }
        let t = &mut self.tokens[self.len];
        self.len += 1;
        t.text.clear();
        t.text.push_str(text);
        t.offset_from = from;
        t.offset_to = to;
        t.position = position;
        t.position_length = 1;
    }

    /// Appends a word token, lower-cased and folded to ASCII (`Lée` → `lee`).
    fn push_word(&mut self, word: &str, from: usize, to: usize, position: usize) {
        if word.is_ascii() {
            self.push(word, from, to, position);
            self.tokens[self.len - 1].text.make_ascii_lowercase();
            return;
        }
        let folder = self.folder.get_or_insert_with(|| {
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(LowerCaser)
                .filter(AsciiFoldingFilter)
                .build()
        });
        let mut folded = String::new();
        folder
            .token_stream(word)
            .process(&mut |t| folded.push_str(&t.text));
        self.push(&folded, from, to, position);
    }

    /// Tokenizes `text` into the first `len` entries of `tokens`.
    fn tokenize(&mut self, text: &str) {
        if text.is_ascii() {
            self.tokenize_ascii(text);
        } else {
            self.tokenize_any(text);
        }
    }

    /// [`NameTokenizer::tokenize`] for ASCII text (most comments, events and Latin names): its
    /// only tokens are runs of letters and digits, lower-cased, so it is split byte by byte,
    /// without the character classes and folding the other scripts need, which the general
    /// path pays per character (BENCHMARKS.md, Indexing: tokenizer folds its own tokens).
    fn tokenize_ascii(&mut self, text: &str) {
        self.len = 0;
        let bytes = text.as_bytes();
        let (mut i, mut position) = (0, 0);
        while i < bytes.len() {
            if !bytes[i].is_ascii_alphanumeric() {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            self.push(&text[start..i], start, i, position);
            self.tokens[self.len - 1].text.make_ascii_lowercase();
            position += 1;
        }
    }

    /// [`NameTokenizer::tokenize`] for text in any script.
    fn tokenize_any(&mut self, text: &str) {
        self.len = 0;
        let mut position = 0;
        let mut chars = text
            .char_indices()
            .map(|(i, c)| (i, fold_width(c)))
            .peekable();
        let mut word = String::new();
        let mut run: Vec<(usize, char)> = Vec::new();
        while let Some(&(start, c)) = chars.peek() {
            if is_cjk(c) {
                run.clear();
                while let Some(&(i, c)) = chars.peek().filter(|(_, c)| is_cjk(*c)) {
                    run.push((i, fold_han(c)));
                    chars.next();
                }
                let end = chars.peek().map_or(text.len(), |&(i, _)| i);
                let end_of = |k: usize| run.get(k + 1).map_or(end, |&(i, _)| i);
                let n = run.len();
                for k in 0..n {
                    let (from, a) = run[k];
                    let unigram = !self.query || n == 1;
                    if unigram {
                        word.clear();
                        word.push(a);
                        self.push(&word, from, end_of(k), position + k);
                    }
                    if k + 1 < n {
                        word.clear();
                        word.push(a);
                        word.push(run[k + 1].1);
                        self.push(&word, from, end_of(k + 1), position + k);
                    }
                }
                position += n;
            } else if c.is_alphanumeric() {
                word.clear();
                let mut end = start;
                while let Some(&(i, c)) = chars
                    .peek()
                    .filter(|(_, c)| c.is_alphanumeric() && !is_cjk(*c))
                {
                    word.push(c);
                    end = i + text[i..].chars().next().map_or(1, char::len_utf8);
                    chars.next();
                }
                self.push_word(&word, start, end, position);
                position += 1;
            } else {
                chars.next();
            }
        }
    }
}

/// The analyzer: [`NameTokenizer`] alone (its tokens come out lower-cased and folded).
pub fn analyzer(tokenizer: NameTokenizer) -> TextAnalyzer {
    TextAnalyzer::from(tokenizer)
}

/// Registers the index-side analyzer under [`TOKENIZER`].
pub fn register_index(manager: &TokenizerManager) {
    manager.register(TOKENIZER, analyzer(NameTokenizer::for_index()));
}

/// A tokenizer manager for the query parser: the defaults plus the query-side analyzer under
/// [`TOKENIZER`].
pub fn query_manager() -> TokenizerManager {
    let manager = TokenizerManager::default();
    manager.register(TOKENIZER, analyzer(NameTokenizer::for_query()));
    manager
}

/// Whether `c` belongs to a script written without spaces between words: Han (with its
/// iteration marks and radicals), Hiragana, Katakana (not the middle dot `・`, a separator) and
/// Hangul.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF          // Hangul Jamo
        | 0x2E80..=0x2FDF        // CJK radicals, Kangxi radicals
        | 0x3005..=0x3007        // 々 〆 〇
        | 0x3021..=0x3029        // Hangzhou numerals
        | 0x3041..=0x309F        // Hiragana
        | 0x30A1..=0x30FA        // Katakana (before the middle dot U+30FB)
        | 0x30FC..=0x30FF        // ー and friends
        | 0x3131..=0x318F        // Hangul compatibility Jamo
        | 0x31F0..=0x31FF        // Katakana phonetic extensions
        | 0x3400..=0x4DBF        // CJK extension A
        | 0x4E00..=0x9FFF        // CJK unified ideographs
        | 0xA960..=0xA97F        // Hangul Jamo extended A
        | 0xAC00..=0xD7FF        // Hangul syllables, Jamo extended B
        | 0xF900..=0xFAFF        // CJK compatibility ideographs
        | 0xFF66..=0xFF9F        // half-width Katakana
        | 0x20000..=0x3134F // CJK extensions B–G
    )
}

mod table {
    include!(concat!(env!("OUT_DIR"), "/han_fold.rs"));
}

/// The folded form of a Han character: simplified for a traditional or Japanese form (遼 → 辽,
/// 勳 and 勲 → 勋, 沢 → 泽), the character itself for any other (see the module documentation).
/// Folding a folded character changes nothing.
pub fn fold_han(c: char) -> char {
    let u = c as u32;
    // Latin, kana and Hangul (the bulk of names) skip the search.
    if u < 0x3400 || (0xA000..0xF900).contains(&u) {
        return c;
    }
    match table::HAN_FOLD.binary_search_by_key(&u, |&(from, _)| from) {
        Ok(i) => char::from_u32(table::HAN_FOLD[i].1).unwrap_or(c),
        Err(_) => c,
    }
}

/// The form under which two spellings of a name are the same name: its words lower-cased and
/// folded, its CJK characters folded, in order. Words are separated by one space, except where a
/// hyphen or an apostrophe joins them; CJK characters by nothing. So `Lee Sedol`, `LEE SEDOL`
/// and `Lee Se-dol` share `lee sedol`, and 一力遼 and 一力 辽 share `一力辽`; but `Cho U` is not
/// `Chou`. Empty when the text has no letter, digit or CJK character.
pub fn name_key(text: &str) -> String {
    let mut tokenizer = NameTokenizer::for_index();
    tokenizer.tokenize(text);
    let mut key = String::new();
    let mut last: Option<(usize, usize, bool)> = None;
    // Index mode gives each position its unigram or word first, then a bigram at the same
    // position: the first token of each position is the character or word there.
    for t in &tokenizer.tokens[..tokenizer.len] {
        if last.is_some_and(|(position, _, _)| position == t.position) {
            continue;
        }
        let word = !t.text.chars().next().is_some_and(is_cjk);
        if let Some((_, end, last_word)) = last {
            let gap = text.get(end..t.offset_from).unwrap_or(" ");
            let joined = !gap.is_empty()
                && gap
                    .chars()
                    .all(|c| "-'\u{2010}\u{2011}\u{2019}".contains(c));
            if word && last_word && !joined {
                key.push(' ');
            }
        }
        key.push_str(&t.text);
        last = Some((t.position, t.offset_to, word));
    }
    key
}

/// Folds full-width ASCII forms (`Ｌ`, `９`) and the ideographic space to ASCII.
fn fold_width(c: char) -> char {
    match c as u32 {
        0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        0x3000 => ' ',
        _ => c,
    }
}

/// The tokens of one text, handed out one by one.
pub struct NameTokenStream<'a> {
    tokens: &'a mut [Token],
    next: usize,
}

impl Tokenizer for NameTokenizer {
    type TokenStream<'a> = NameTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> NameTokenStream<'a> {
        self.tokenize(text);
        NameTokenStream {
            tokens: &mut self.tokens[..self.len],
            next: 0,
        }
    }
}

impl TokenStream for NameTokenStream<'_> {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str, query: bool) -> Vec<(String, usize)> {
        let mut a = analyzer(if query {
            NameTokenizer::for_query()
        } else {
            NameTokenizer::for_index()
        });
        let mut out = Vec::new();
        let mut s = a.token_stream(text);
        s.process(&mut |t| out.push((t.text.clone(), t.position)));
        out
    }

    fn t(pairs: &[(&str, usize)]) -> Vec<(String, usize)> {
        pairs.iter().map(|&(s, p)| (s.to_string(), p)).collect()
    }

    /// The ASCII path gives what the general one gives, on random ASCII text (letters,
    /// digits, spaces, punctuation, control bytes), in both modes.
    #[test]
    fn ascii_text_tokenizes_as_any_text() {
        let alphabet: Vec<char> = (0u8..128).map(char::from).collect();
        let mut next = testdata::xorshift(0x2545_f491_4f6c_dd1d);
        let mut draw = |n: usize| (next() % n as u64) as usize;
        for query in [false, true] {
            let mut fast = NameTokenizer {
                query,
                ..NameTokenizer::default()
            };
            let mut general = NameTokenizer {
                query,
                ..NameTokenizer::default()
            };
            for _ in 0..2000 {
                let len = draw(40);
                // Mostly letters and spaces, as names and comments are.
                let text: String = (0..len)
                    .map(|_| match draw(4) {
                        0 => alphabet[draw(128)],
                        1 => ' ',
                        _ => char::from(b'A' + draw(58) as u8),
                    })
                    .collect();
                fast.tokenize_ascii(&text);
                general.tokenize_any(&text);
                let seen = |t: &NameTokenizer| -> Vec<(String, usize, usize, usize)> {
                    t.tokens[..t.len]
                        .iter()
                        .map(|t| (t.text.clone(), t.offset_from, t.offset_to, t.position))
                        .collect()
                };
                assert_eq!(seen(&fast), seen(&general), "{text:?}");
            }
        }
    }

    #[test]
    fn latin_words_fold() {
        assert_eq!(
            tokens("Lée SEDOL, 9p", false),
            t(&[("lee", 0), ("sedol", 1), ("9p", 2)])
        );
        assert_eq!(tokens("Ｌｅｅ　９ｐ", false), t(&[("lee", 0), ("9p", 1)]));
    }

    /// CJK n-grams skip lower-casing and folding: that is only right if those change no CJK
    /// character, which this checks for every one of them.
    #[test]
    fn folding_leaves_every_cjk_character_alone() {
        let mut chain = TextAnalyzer::builder(RawTokenizer::default())
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .build();
        let mut checked = 0;
        for c in (0..=0x3FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_cjk(c))
        {
            let text = c.to_string();
            let mut out = Vec::new();
            chain
                .token_stream(&text)
                .process(&mut |t| out.push(t.text.clone()));
            assert_eq!(out, [text], "U+{:04X}", c as u32);
            checked += 1;
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn non_ascii_words_fold_and_buffers_are_reused() {
        let mut a = analyzer(NameTokenizer::for_index());
        for _ in 0..2 {
            let mut out = Vec::new();
            a.token_stream("Ærøskøbing STRAßE Ｌｅｅ 李")
                .process(&mut |t| out.push((t.text.clone(), t.position)));
            assert_eq!(
                out,
                t(&[("aeroskobing", 0), ("strasse", 1), ("lee", 2), ("李", 3)])
            );
            let mut short = Vec::new();
            a.token_stream("x")
                .process(&mut |t| short.push(t.text.clone()));
            assert_eq!(short, ["x"]);
        }
    }

    #[test]
    fn traditional_and_japanese_forms_fold_to_simplified() {
        for (written, folded) in [
            ("一力遼", "一力辽"),
            ("周俊勳", "周俊勋"),
            ("趙治勲", "赵治勋"),
            ("李昌鎬", "李昌镐"),
            ("蕭正浩", "萧正浩"),
            ("藤沢秀行", "藤泽秀行"),
            ("張栩", "张栩"),
        ] {
            let f: String = written.chars().map(fold_han).collect();
            assert_eq!(f, folded, "{written}");
        }
        // Hangul, kana, Latin and simplified text stay as they are.
        for same in ["이세돌", "イ・セドル", "Lee", "一力辽", "井山裕太"] {
            let f: String = same.chars().map(fold_han).collect();
            assert_eq!(f, same);
        }
        // Indexed and queried alike: the tokens of either form are the folded ones.
        assert_eq!(tokens("一力遼", true), tokens("一力辽", true));
        assert_eq!(tokens("周俊勳九段", false), tokens("周俊勋九段", false));
    }

    /// Folding is idempotent, so a folded query matches a folded value, and it keeps every
    /// folded character in the tokenizer's CJK class (a fold into a separator would split
    /// names).
    #[test]
    fn folding_is_idempotent_and_stays_cjk() {
        assert!(table::HAN_FOLD.len() > 3000, "{}", table::HAN_FOLD.len());
        assert!(
            table::HAN_FOLD.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted"
        );
        for &(from, to) in &table::HAN_FOLD {
            let (from, to) = (char::from_u32(from).unwrap(), char::from_u32(to).unwrap());
            assert!(is_cjk(from) && is_cjk(to), "{from} → {to}");
            assert_eq!(fold_han(to), to, "{from} → {to} → {}", fold_han(to));
        }
    }

    #[test]
    fn name_keys() {
        assert_eq!(name_key("Lee Sedol"), "lee sedol");
        assert_eq!(name_key("LEE  Se-dol"), "lee sedol");
        assert_eq!(name_key("Hon'inbo Shusaku"), "honinbo shusaku");
        assert_eq!(name_key("Cho U"), "cho u");
        assert_ne!(name_key("Cho U"), name_key("Chou"));
        assert_eq!(name_key("一力遼"), "一力辽");
        assert_eq!(name_key(" 一力 辽 "), "一力辽");
        assert_eq!(name_key("イ・セドル"), "イセドル");
        assert_eq!(name_key("Ｌｅｅ 李 Sedol"), "lee李sedol");
        assert_eq!(name_key("- · -"), "");
    }

    #[test]
    fn cjk_ngrams() {
        assert_eq!(
            tokens("李世石", false),
            t(&[("李", 0), ("李世", 0), ("世", 1), ("世石", 1), ("石", 2)])
        );
        assert_eq!(tokens("李世石", true), t(&[("李世", 0), ("世石", 1)]));
        assert_eq!(tokens("石", true), t(&[("石", 0)]));
        assert_eq!(
            tokens("Lee 李世 9段", true),
            t(&[("lee", 0), ("李世", 1), ("9", 3), ("段", 4)])
        );
        assert_eq!(
            tokens("ジョン・スミス", true),
            t(&[("ジョ", 0), ("ョン", 1), ("スミ", 3), ("ミス", 4)])
        );
    }
}
