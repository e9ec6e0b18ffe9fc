//! Reads Go game records from borrowed bytes.
//!
//! Formats: SGF (file formats 1 to 4: collections, variations, every value type), the Weiqi Text
//! Format (an SGF-like gb18030 dialect), the quadrant digit notation, and the server formats GIB
//! (Tygem), NGF (WBaduk/Cyberoro), UGF/UGI (Pandanet) and Tygem/Tom kifu-line pairs, which are
//! read as the SGF they stand for. The parser works on the
//! bytes of a memory-mapped file, finds structure with memchr-class scans, allocates per game
//! rather than per byte and decodes text only when asked.
//!
//! ```
//! let records = sgf::Records::read(b"(;GM[1]SZ[19]PB[Lee Sedol];B[pd];W[dp])");
//! let game = records.game(0).unwrap();
//! assert_eq!(game.main_line().count(), 3);
//! assert_eq!(game.root().get(sgf::ids::PB).unwrap().text(), "Lee Sedol");
//! ```

pub mod charset;
mod diag;
pub mod eval;
mod foreign;
pub mod gameinfo;
pub mod info;
mod parse;
mod point;
mod prop;
pub mod quadrant;
mod records;
mod scan;
mod tree;
pub mod value;
pub mod write;

pub use charset::{Charset, CharsetSource};
pub use diag::{Diagnostic, Problem};
pub use eval::{Eval, Evals, Loss};
pub use foreign::kifu::IndexFile as KifuIndexFile;
pub use gameinfo::{Field, GameInfo};
pub use parse::parse_game;
pub use point::{Color, MalformedPoint, Point, MAX_SIZE};
pub use prop::{ids, PropId, ValueType, ValueType2};
pub use records::{
    detect_format, is_kifu_moves, pack_kifu_indexes, pack_kifu_pair, Format, Records,
};
pub use scan::{split_games, Dialect, GameSpan, Span};
pub use tree::{GameTree, Node, NodeId, Prop};
