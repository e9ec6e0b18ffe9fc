//! Tar archives, plain or compressed with gzip or zstd, read as one stream: members in archive
//! order, stopping at the first damage (a stream cannot be resynchronised).

use std::cell::Cell;
use std::io::{self, BufReader, Read};

use crate::error::InputError;
use crate::kind::{MemberKind, SourceKind};
use crate::limits::{STREAM_BUFFER_BYTES, ZSTD_WINDOW_LOG_MAX};
use crate::names::{clean_member, display_bytes};
use crate::source::{Record, Source};
use crate::stream::{deliver, open, read_member, Counting, EndFlag};

/// Delivers the taken members of a tar archive (plain, gzip or zstd), up to the first damage.
pub(crate) fn read_tar(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    let count = Cell::new(0);
    let file = Counting {
        inner: open(source)?,
        count: &count,
    };
    let damaged = |member: Option<String>, delivered: usize, err: io::Error| InputError::Damaged {
        path: source.path.clone(),
        member,
        delivered,
        more: 0,
        source: err,
    };
    let decoded: Box<dyn Read + '_> = match source.kind {
        SourceKind::TarGz => Box::new(flate2::read::MultiGzDecoder::new(BufReader::with_capacity(
            STREAM_BUFFER_BYTES,
            file,
        ))),
        SourceKind::TarZst => {
            let mut decoder =
                zstd::stream::read::Decoder::new(file).map_err(|err| damaged(None, 0, err))?;
            decoder
                .window_log_max(ZSTD_WINDOW_LOG_MAX)
                .map_err(|err| damaged(None, 0, err))?;
            Box::new(decoder)
        }
        _ => Box::new(file),
    };
    // Set when the tar reader asks for bytes past the end: it only does so when the archive
    // ends without its end-of-archive marker, i.e. most likely truncated between members.
    let hit_end = Cell::new(false);
    let stream = EndFlag {
        inner: BufReader::with_capacity(STREAM_BUFFER_BYTES, decoded),
        hit_end: &hit_end,
    };
    let mut archive = tar::Archive::new(stream);
    let entries = archive.entries().map_err(|err| damaged(None, 0, err))?;
    let mut delivered = 0;
    for entry in entries {
        let mut entry = entry.map_err(|err| damaged(None, delivered, err))?;
        let entry_type = entry.header().entry_type();
        if !matches!(
            entry_type,
            tar::EntryType::Regular | tar::EntryType::Continuous
        ) {
            continue;
        }
        let member = clean_member(&display_bytes(&entry.path_bytes()));
        let Some(kind) = MemberKind::of(&member.to_ascii_lowercase()) else {
            continue;
        };
        let size = entry.size();
        let (bytes, err) = read_member(&mut entry, size, kind, source.max_record_bytes);
        let name = format!("{}/{member}", source.name);
        delivered += deliver(sink, name, bytes, err.as_ref(), count.get());
        if let Some(err) = err {
            return Err(damaged(Some(member), delivered, err));
        }
    }
    if hit_end.get() {
        return Err(damaged(
            None,
            delivered,
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "archive ends without its end-of-archive marker (truncated?)",
            ),
        ));
    }
    Ok(())
}
