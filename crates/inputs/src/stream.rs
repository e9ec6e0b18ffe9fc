//! The plumbing every reader shares: opening a source, counting the bytes consumed for progress,
//! noticing a stream read past its end, reading one member within the record limit, and handing
//! a record (whole or damaged) to the caller.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use crate::error::InputError;
use crate::kind::MemberKind;
use crate::limits::read_limited;
use crate::source::{owned, Record, Source};
use crate::zstd_stream::decode_zstd;

/// Opens the source's file; the error names it.
pub(crate) fn open(source: &Source) -> Result<File, InputError> {
    File::open(&source.path).map_err(|err| io_error(source, err))
}

/// An I/O error while reading the source, naming it.
pub(crate) fn io_error(source: &Source, err: io::Error) -> InputError {
    InputError::Io {
        path: source.path.clone(),
        source: err,
    }
}

/// Reads one taken member fully (`size` as its header says) and decompresses it if needed.
pub(crate) fn read_member<R: Read + ?Sized>(
    reader: &mut R,
    size: u64,
    kind: MemberKind,
    max: u64,
) -> (Vec<u8>, Option<io::Error>) {
    let (bytes, mut err) = read_limited(reader, size, max);
    if err.is_none() && (bytes.len() as u64) < size {
        err = Some(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("member ends after {} of {size} bytes", bytes.len()),
        ));
    }
    match kind {
        MemberKind::Raw => (bytes, err),
        MemberKind::Zstd => {
            let (decoded, decode_err) = decode_zstd(&bytes[..], max);
            // A cut in the compressed bytes shows as a decoding error too; report the cut.
            (decoded, err.or(decode_err))
        }
    }
}

/// Hands what was read of one record file to `sink`, unless reading failed before any byte came
/// (a damaged file still gives what it had); returns how many records that was (0 or 1).
pub(crate) fn deliver(
    sink: &mut dyn FnMut(Record),
    name: String,
    bytes: Vec<u8>,
    err: Option<&io::Error>,
    consumed: u64,
) -> usize {
    if err.is_some() && bytes.is_empty() {
        return 0;
    }
    sink(Record {
        name,
        bytes: owned(bytes),
        damaged: err.is_some(),
        unread: None,
        consumed,
        watch: None,
    });
    1
}

/// Hands over an archive member that is not read, with why ([`Record::unread`]); returns 1, the
/// records delivered.
pub(crate) fn deliver_unread(
    sink: &mut dyn FnMut(Record),
    name: String,
    reason: &'static str,
    consumed: u64,
) -> usize {
    sink(Record {
        name,
        bytes: owned(Vec::new()),
        damaged: false,
        unread: Some(reason),
        consumed,
        watch: None,
    });
    1
}

/// Counts the bytes read from the source file, for progress reports.
pub(crate) struct Counting<'a, R> {
    pub(crate) inner: R,
    pub(crate) count: &'a Cell<u64>,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<'_, R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Notes whether a reader was asked for bytes after it had none left.
pub(crate) struct EndFlag<'a, R> {
    pub(crate) inner: R,
    pub(crate) hit_end: &'a Cell<bool>,
}

impl<R: Read> Read for EndFlag<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.hit_end.set(true);
        }
        Ok(n)
    }
}
