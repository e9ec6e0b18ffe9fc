//! tantivy's own check of a whole file: the CRC-32 in its footer, taken of everything before
//! it. The reader uses it on first opening a file (`directory.rs`); the writer of block sums
//! (`blocksums.rs`) only takes sums of a store that passes it.

use std::io;
use std::path::Path;
use std::sync::Arc;

use tantivy::directory::OwnedBytes;

/// Checks `bytes`, the whole of the tantivy file `path`, against the CRC-32 in its footer; an
/// error names the file. Reads the bytes themselves, never through a `QipuDirectory` (whose
/// handle of a large store depends on its sidecar, checked on its own).
pub(crate) fn footer_sound(path: &Path, bytes: &OwnedBytes) -> io::Result<()> {
    let damaged = |why: String| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is damaged: {why}", path.display()),
        )
    };
    let (footer, body) = tantivy::directory::footer::Footer::extract_footer(
        tantivy::directory::FileSlice::new(Arc::new(bytes.clone())),
    )
    .map_err(|e| damaged(e.to_string()))?;
    let body = body.read_bytes()?;
    if crc32fast::hash(body.as_slice()) != footer.crc {
        return Err(damaged("its checksum fails".to_string()));
    }
    Ok(())
}
