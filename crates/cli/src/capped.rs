//! Files a search reads (a diagram, a position's record, a move sequence's record), each read
//! with a size cap: `--pattern /dev/zero`, or a FIFO fed forever, must end with an error, not
//! with all memory gone.

use std::io::Read;
use std::path::Path;

/// A diagram: the largest board (52×52) is under 3 KB even with a space between points and a
/// comment on every line, so 1 MiB is room to spare.
pub const DIAGRAM: u64 = 1 << 20;
/// A record file for a position or a move sequence: the first game is what counts, but it may
/// sit at the head of a large collection; 64 MiB holds collections of tens of thousands of
/// games (a game is 1–3 KB).
pub const RECORD: u64 = 64 << 20;

/// Reads at most `cap` bytes of `path`; a longer file is refused, naming `what` it was for. The
/// error is the user's (a query file that cannot be read), said in one line.
pub fn read(path: &Path, what: &str, cap: u64) -> Result<Vec<u8>, String> {
    let io = |e: std::io::Error| format!("{what} {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "{what} {}: larger than {} MiB, the limit for this kind of file",
            path.display(),
            cap >> 20
        ));
    }
    Ok(bytes)
}
