//! Reads Go game records from borrowed bytes.
//!
//! Formats: SGF FF[1]–FF[4] (collections, variations, every value type), the Weiqi Text Format (an
//! SGF-like gb18030 dialect) and the quadrant digit notation. The parser works on the bytes of a
//! memory-mapped file, finds structure with memchr-class scans, allocates per game rather than per
//! byte and decodes text only when asked.

pub mod info;
mod point;
pub mod quadrant;

pub use point::{Color, Point, MAX_SIZE};
