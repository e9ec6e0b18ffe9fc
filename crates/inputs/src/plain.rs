//! Sources holding one record: a plain file (mapped when large, read when small, read to its end
//! when a stream) and a zstd-compressed file.

use std::cell::Cell;
use std::io::{self, Read};

use crate::error::InputError;
use crate::kifu::with_kifu_index;
use crate::limits::{read_limited, MMAP_MIN_BYTES};
use crate::mapped::Mapped;
use crate::source::{Record, RecordBytes, Source};
use crate::stream::{deliver, io_error, open, Counting};
use crate::watch::Watch;
use crate::zstd_stream::decode_zstd;

/// Delivers a plain file's one record (a kifu-line move file with its index, see `kifu`).
pub(crate) fn read_plain(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    let mut file = open(source)?;
    if source.stream {
        // A pipe says it is empty and cannot be mapped: read what comes, up to the limit.
        let (bytes, err) = read_limited(&mut file, 0, source.max_record_bytes);
        // Its length is not known beforehand (0): progress cannot count it.
        return deliver_one(source, sink, bytes, err, 0);
    }
    let len = file.metadata().map_err(|err| io_error(source, err))?.len();
    // Taken before the first byte is read: a change from here on is seen (`watch`).
    let mut watch = Watch::start(&file);
    let bytes = if len == 0 {
        RecordBytes::Empty
    } else if len >= MMAP_MIN_BYTES {
        // Another program cutting the file short meanwhile would fault the process (SIGBUS); the
        // guarded map reads zeros past the cut instead and says so (`cut_while_read`). The map
        // is read as its games are parsed: the watch stays open until the caller asks.
        let map = Mapped::map(&file, &source.path).map_err(|err| io_error(source, err))?;
        RecordBytes::Mapped(map)
    } else {
        let mut bytes = Vec::with_capacity(len as usize);
        file.read_to_end(&mut bytes)
            .map_err(|err| io_error(source, err))?;
        watch = watch.map(Watch::settle);
        RecordBytes::Owned(bytes)
    };
    let bytes = with_kifu_index(source, bytes);
    sink(Record {
        name: source.name.clone(),
        bytes,
        damaged: false,
        unread: None,
        consumed: len.min(source.len),
        watch,
    });
    Ok(())
}

/// Delivers a zstd-compressed file's one record, decompressed; on damage, what decoded first.
pub(crate) fn read_zstd_file(
    source: &Source,
    sink: &mut dyn FnMut(Record),
) -> Result<(), InputError> {
    let count = Cell::new(0);
    let file = Counting {
        inner: open(source)?,
        count: &count,
    };
    let (bytes, err) = decode_zstd(file, source.max_record_bytes);
    let consumed = count.get().min(source.len);
    deliver_one(source, sink, bytes, err, consumed)
}

/// Delivers the one record of a plain stream or a compressed file, then its reading error, if
/// any, as damage after it.
fn deliver_one(
    source: &Source,
    sink: &mut dyn FnMut(Record),
    bytes: Vec<u8>,
    err: Option<io::Error>,
    consumed: u64,
) -> Result<(), InputError> {
    let delivered = deliver(sink, source.name.clone(), bytes, err.as_ref(), consumed);
    match err {
        None => Ok(()),
        Some(err) => Err(InputError::Damaged {
            path: source.path.clone(),
            member: None,
            delivered,
            more: 0,
            source: err,
        }),
    }
}
