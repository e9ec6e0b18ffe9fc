//! Tar archives, plain or compressed with gzip or zstd, read as one stream: members in archive
//! order, stopping at the first damage (a stream cannot be resynchronised). The stream is read
//! to its end: archives concatenated (`cat a.tar b.tar`, or gzip members each holding one) are
//! read one after the other, and a checksum that fails at the end or bytes after the last
//! archive are reported, since the members before them may be damaged. Padding is not damage:
//! zeros after a gzip member (tape blocks), and whatever fills the last tar record after the
//! marker.

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};

use crate::error::InputError;
use crate::kind::{unread_member, MemberKind, SourceKind};
use crate::limits::{STREAM_BUFFER_BYTES, ZSTD_WINDOW_LOG_MAX};
use crate::names::{clean_member, display_bytes, MemberNames};
use crate::source::{Record, Source};
use crate::stream::{deliver, deliver_unread, open, read_member, Counting, EndFlag};

/// Delivers the taken members of a tar archive (plain, gzip or zstd), or of several
/// concatenated, up to the first damage.
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
        SourceKind::TarGz => Box::new(GzMembers::new(BufReader::with_capacity(
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
    let mut stream = EndFlag {
        inner: BufReader::with_capacity(STREAM_BUFFER_BYTES, decoded),
        hit_end: &hit_end,
    };
    let mut delivered = 0;
    let mut names = MemberNames::default();
    // The first block of an archive that follows the one just read (`cat a.tar b.tar`, or
    // `cat a.tar.gz b.tar.gz`, which gzip decodes as one stream).
    let mut next: Option<[u8; BLOCK]> = None;
    // Bytes of the decoded stream the tar reader took: where the marker lies in its archive.
    let taken = Cell::new(0u64);
    loop {
        let start = taken.get();
        let reader: Box<dyn Read + '_> = match next.take() {
            Some(block) => Box::new(io::Cursor::new(block).chain(&mut stream)),
            None => Box::new(&mut stream),
        };
        let mut archive = tar::Archive::new(Counting {
            inner: reader,
            count: &taken,
        });
        let entries = archive
            .entries()
            .map_err(|err| damaged(None, delivered, err))?;
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
            let lower = member.to_ascii_lowercase();
            let Some(kind) = MemberKind::of(&lower) else {
                if let Some(reason) = unread_member(&lower) {
                    let name = format!("{}/{}", source.name, names.apart(member));
                    delivered += deliver_unread(sink, name, reason, count.get());
                }
                continue;
            };
            let size = entry.size();
            let (bytes, err) = read_member(&mut entry, size, kind, source.max_record_bytes);
            let name = format!("{}/{}", source.name, names.apart(member.clone()));
            delivered += deliver(sink, name, bytes, err.as_ref(), count.get());
            if let Some(err) = err {
                return Err(damaged(Some(member), delivered, err));
            }
        }
        drop(archive);
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
        // The marker is read; the stream goes on to its end, so that its checksum (gzip's
        // CRC, zstd's) is checked and nothing after the marker goes unread.
        let at = (taken.get() - start) as usize;
        match after_marker(&mut stream, at) {
            Ok(None) => return Ok(()),
            Ok(Some(block)) => next = Some(block),
            Err(err) => return Err(damaged(None, delivered, err)),
        }
    }
}

/// A tar block.
const BLOCK: usize = 512;

/// A failure of the stream after the marker: the members before it were read from a stream
/// that turned out damaged (a checksum that does not match, a cut trailer).
fn after_marker_error(e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!("after the end-of-archive marker: {e}; the members read before may be damaged"),
    )
}

/// A tar record: archives are written in records of 20 blocks, the last padded to its end
/// with whatever the writer's buffer held (zeros, for most).
const RECORD: usize = 20 * BLOCK;

/// The gzip members of a stream, one after the other, as gzip -d reads them: zero bytes after
/// a member (a file written in tape blocks) end the stream; any other bytes must start a
/// member, or are an error.
struct GzMembers<R: BufRead> {
    /// The member being read; `None` once the stream has ended.
    member: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: BufRead> GzMembers<R> {
    fn new(inner: R) -> GzMembers<R> {
        GzMembers {
            member: Some(flate2::bufread::GzDecoder::new(inner)),
        }
    }
}

impl<R: BufRead> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(member) = self.member.as_mut() else {
                return Ok(0);
            };
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member ended: zeros to the end, or another member.
            let mut inner = self.member.take().expect("a member").into_inner();
            loop {
                let available = inner.fill_buf()?;
                if available.is_empty() {
                    return Ok(0);
                }
                let zeros = available.iter().take_while(|&&b| b == 0).count();
                if zeros == 0 {
                    break;
                }
                inner.consume(zeros);
            }
            self.member = Some(flate2::bufread::GzDecoder::new(inner));
        }
    }
}

/// Reads what follows an end-of-archive marker: zero blocks (the marker's second block, the
/// padding to a whole record) up to the end, or the first block of another archive. Anything
/// else, and a decoder's failure (a checksum that does not match), is an error.
///
/// Bytes that are no header, up to the end of the stream where it ends the record the marker
/// lies in (`RECORD`; the marker `at` bytes into its archive), are the padding an older writer
/// left unzeroed, and end the archive as zeros do.
fn after_marker(stream: &mut impl Read, at: usize) -> io::Result<Option<[u8; BLOCK]>> {
    let mut block = [0u8; BLOCK];
    // Bytes read since the marker.
    let mut after = 0usize;
    loop {
        let mut n = 0;
        while n < BLOCK {
            match stream.read(&mut block[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(after_marker_error(e)),
            }
        }
        after += n;
        if block[..n].iter().all(|&b| b == 0) {
            if n < BLOCK {
                return Ok(None);
            }
            continue;
        }
        if n == BLOCK
            && tar::Header::from_byte_slice(&block)
                .cksum()
                .is_ok_and(|sum| {
                    sum == block
                        .iter()
                        .enumerate()
                        .map(|(i, &b)| {
                            if (148..156).contains(&i) {
                                32
                            } else {
                                u32::from(b)
                            }
                        })
                        .sum::<u32>()
                })
        {
            return Ok(Some(block));
        }
        // Within the last record: its padding, if the stream ends where the record does.
        let mut rest = [0u8; BLOCK];
        while after <= RECORD {
            match stream.read(&mut rest) {
                Ok(0) if (at + after).is_multiple_of(RECORD) => return Ok(None),
                Ok(0) => break,
                Ok(k) => after += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(after_marker_error(e)),
            }
        }
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "bytes that are not a tar header after the end-of-archive marker",
        ));
    }
}
