//! The bounds every reader keeps, so that memory stays bounded whatever the input claims: the
//! largest record taken once decompressed, the zstd window accepted, buffer sizes, and the one
//! function that reads a stream up to the record limit.

use std::io::{self, Read};

/// Largest record (after decompression) that is read; larger ones are reported as damage.
pub const MAX_RECORD_BYTES: u64 = 1 << 30;

/// zstd window the decoders accept: the shared datasets are compressed with `--long=27`.
pub(crate) const ZSTD_WINDOW_LOG_MAX: u32 = 27;

/// Plain files at least this large are memory-mapped; smaller ones are cheaper to read.
pub(crate) const MMAP_MIN_BYTES: u64 = 256 * 1024;

/// Buffer between a decompressor and the archive reader (tar reads 512-byte blocks).
pub(crate) const STREAM_BUFFER_BYTES: usize = 256 * 1024;

/// Reads everything `reader` yields, up to [`MAX_RECORD_BYTES`](crate::MAX_RECORD_BYTES): the bytes read and, if reading
/// stopped early, why (the bytes are then a prefix; none if the record was too large).
pub(crate) fn read_limited<R: Read + ?Sized>(
    reader: &mut R,
    size_hint: u64,
    max: u64,
) -> (Vec<u8>, Option<io::Error>) {
    // The hint comes from a header: trust it only for a modest preallocation.
    let mut bytes = Vec::with_capacity(size_hint.min(64 << 20) as usize);
    match Read::take(reader, max + 1).read_to_end(&mut bytes) {
        Err(err) => (bytes, Some(err)),
        Ok(_) if bytes.len() as u64 > max => (Vec::new(), Some(too_large(max))),
        Ok(_) => (bytes, None),
    }
}

/// The error of a record past `max` bytes.
pub(crate) fn too_large(max: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("record larger than {max} bytes"),
    )
}
