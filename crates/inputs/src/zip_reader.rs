//! Zip archives: members in central-directory order, each independent, so a broken one is skipped
//! and the rest are read; without a central directory (a truncated download), by the local
//! headers as far as they go. A panic of the zip library on corrupt data is caught.

use std::cell::Cell;
use std::collections::HashSet;
use std::io::{self, BufReader, Read};
use std::panic::{self, AssertUnwindSafe};

use crate::error::InputError;
use crate::kind::{unread_member, MemberKind};
use crate::names::{clean_member, MemberNames};
use crate::source::{Record, Source};
use crate::stream::{deliver, deliver_unread, open, read_member, Counting};

/// Runs a call into the zip library, turning a panic on corrupt input into an error.
fn guarded<T>(call: impl FnOnce() -> zip::result::ZipResult<T>) -> io::Result<T> {
    match panic::catch_unwind(AssertUnwindSafe(call)) {
        Ok(result) => result.map_err(io::Error::from),
        Err(_) => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the zip reader failed on corrupt data",
        )),
    }
}

/// Where and why reading stopped or failed: the member, when known, and the error.
type Stop = (Option<String>, io::Error);

/// What became of one zip member.
enum ZipMember {
    /// Read: its cleaned name, and its bytes and error as by [`read_member`].
    Read(String, Vec<u8>, Option<io::Error>),
    /// Not read although its name says it holds records: its name, and why.
    Unread(String, &'static str),
    /// Not a record (a folder, notes).
    Passed,
}

fn take_zip_member<R: Read>(file: &mut zip::read::ZipFile<'_, R>, max: u64) -> ZipMember {
    if !file.is_file() {
        return ZipMember::Passed;
    }
    let member = clean_member(&file.name().replace('\\', "/"));
    let lower = member.to_ascii_lowercase();
    let Some(kind) = MemberKind::of(&lower) else {
        return match unread_member(&lower) {
            Some(reason) => ZipMember::Unread(member, reason),
            None => ZipMember::Passed,
        };
    };
    let size = file.size();
    let (bytes, err) = read_member(file, size, kind, max);
    ZipMember::Read(member, bytes, err)
}

/// Delivers the taken members of a zip archive, skipping broken ones (see the module docs).
pub(crate) fn read_zip(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    let count = Cell::new(0);
    let reader = BufReader::new(Counting {
        inner: open(source)?,
        count: &count,
    });
    let mut archive = match guarded(|| zip::ZipArchive::new(reader)) {
        Ok(archive) => archive,
        Err(central) => return read_zip_stream(source, sink, central),
    };
    // The zip library keeps one member of each name: members sharing a name with another
    // (the central directory lists more than it holds) are read by their local headers, every
    // one of them. Where those cannot be read (a member written with a data descriptor, which
    // gives its size only after its data; a broken one), the central directory gives the
    // members not read yet, one of each name.
    let listed = declared_members(source);
    if listed.is_some_and(|n| n > archive.len() as u64) {
        let shared = listed.unwrap_or(0) - archive.len() as u64;
        let local = read_local_headers(source, sink);
        let Some((member, err)) = local.stopped else {
            return Ok(());
        };
        // Progress goes on from where the local headers left it.
        count.set(count.get().max(local.consumed));
        let (central, broken, more) =
            read_central(&mut archive, source, sink, &count, &local.taken);
        let then = match broken {
            None => String::new(),
            Some((m, e)) => format!(
                "; there, {}{e}",
                m.map_or(String::new(), |m| format!("{m}: "))
            ),
        };
        return Err(InputError::Damaged {
            path: source.path.clone(),
            member,
            delivered: local.delivered + central,
            more,
            source: io::Error::new(
                err.kind(),
                format!(
                    "{shared} members share a name with another, so the archive was read by its \
                     local headers until: {err}; then by its central directory, which gives one \
                     member of each name{then}"
                ),
            ),
        });
    }
    let (delivered, first_err, more) =
        read_central(&mut archive, source, sink, &count, &HashSet::new());
    match first_err {
        None => Ok(()),
        Some((member, err)) => Err(InputError::Damaged {
            path: source.path.clone(),
            member,
            delivered,
            more,
            source: err,
        }),
    }
}

/// Delivers the taken members of a zip archive listed in its central directory, but those whose
/// cleaned names are in `skip`, skipping broken ones: how many records were delivered, the
/// first error, and how many more members were broken.
fn read_central<R: Read + std::io::Seek>(
    archive: &mut zip::ZipArchive<R>,
    source: &Source,
    sink: &mut dyn FnMut(Record),
    count: &Cell<u64>,
    skip: &HashSet<String>,
) -> (usize, Option<Stop>, usize) {
    let mut delivered = 0;
    let mut first_err: Option<Stop> = None;
    let mut more = 0;
    for index in 0..archive.len() {
        if !skip.is_empty()
            && archive
                .name_for_index(index)
                .is_some_and(|n| skip.contains(&clean_member(&n.replace('\\', "/"))))
        {
            continue;
        }
        let read = guarded(|| {
            let mut file = archive.by_index(index)?;
            Ok(take_zip_member(&mut file, source.max_record_bytes))
        });
        let (member, err) = match read {
            Ok(ZipMember::Passed) => continue,
            Ok(ZipMember::Unread(member, reason)) => {
                let name = format!("{}/{member}", source.name);
                delivered += deliver_unread(sink, name, reason, count.get().min(source.len));
                continue;
            }
            Ok(ZipMember::Read(member, bytes, err)) => {
                let name = format!("{}/{member}", source.name);
                let consumed = count.get().min(source.len);
                delivered += deliver(sink, name, bytes, err.as_ref(), consumed);
                match err {
                    None => continue,
                    Some(err) => (Some(member), err),
                }
            }
            Err(err) => (archive.name_for_index(index).map(clean_member), err),
        };
        match first_err {
            None => first_err = Some((member, err)),
            Some(_) => more += 1,
        }
    }
    (delivered, first_err, more)
}

/// Reads a zip whose central directory is unreadable by its local headers, from the start:
/// this saves the members of a truncated download. The archive is damaged either way, so an
/// error is always returned (with `central`, the central directory's).
pub(crate) fn read_zip_stream(
    source: &Source,
    sink: &mut dyn FnMut(Record),
    central: io::Error,
) -> Result<(), InputError> {
    let Local {
        delivered, stopped, ..
    } = read_local_headers(source, sink);
    let (member, err) = match stopped {
        None => (None, central),
        Some((member, err)) => (
            member,
            io::Error::new(
                err.kind(),
                format!("{central}; read by local headers until: {err}"),
            ),
        ),
    };
    Err(InputError::Damaged {
        path: source.path.clone(),
        member,
        delivered,
        more: 0,
        source: err,
    })
}

/// What [`read_local_headers`] did.
struct Local {
    /// Records delivered.
    delivered: usize,
    /// Where and why it stopped before the end, if it did.
    stopped: Option<Stop>,
    /// The members delivered, by their cleaned names in the archive.
    taken: HashSet<String>,
    /// Bytes of the file read, for progress.
    consumed: u64,
}

/// Delivers the taken members of a zip archive by its local headers, in the order they lie, as
/// far as they go.
fn read_local_headers(source: &Source, sink: &mut dyn FnMut(Record)) -> Local {
    let count = Cell::new(0);
    let file = match open(source) {
        Ok(f) => f,
        Err(e) => {
            return Local {
                delivered: 0,
                stopped: Some((None, io::Error::other(e.to_string()))),
                taken: HashSet::new(),
                consumed: 0,
            }
        }
    };
    let mut reader = BufReader::new(Counting {
        inner: file,
        count: &count,
    });
    let mut delivered = 0;
    let mut names = MemberNames::default();
    // The members delivered, by their names in the archive.
    let mut taken = HashSet::new();
    let stopped = loop {
        let read = guarded(|| {
            Ok(zip::read::read_zipfile_from_stream(&mut reader)?
                .map(|mut file| take_zip_member(&mut file, source.max_record_bytes)))
        });
        match read {
            Ok(None) => break None,
            Ok(Some(ZipMember::Passed)) => continue,
            Ok(Some(ZipMember::Unread(member, reason))) => {
                taken.insert(member.clone());
                let name = format!("{}/{}", source.name, names.apart(member));
                delivered += deliver_unread(sink, name, reason, count.get().min(source.len));
            }
            Ok(Some(ZipMember::Read(member, bytes, err))) => {
                taken.insert(member.clone());
                let name = format!("{}/{}", source.name, names.apart(member.clone()));
                let consumed = count.get().min(source.len);
                delivered += deliver(sink, name, bytes, err.as_ref(), consumed);
                if let Some(err) = err {
                    break Some((Some(member), err));
                }
            }
            Err(err) => break Some((None, err)),
        }
    };
    Local {
        delivered,
        stopped,
        taken,
        consumed: count.get().min(source.len),
    }
}

/// How many members a zip's central directory says it lists (its end record, or the ZIP64 one
/// it points to); `None` when that cannot be read.
fn declared_members(source: &Source) -> Option<u64> {
    use std::io::{Seek, SeekFrom};
    let mut file = open(source).ok()?;
    let len = file.metadata().ok()?.len();
    // The end record (22 bytes) and a comment of up to 65,535 bytes after it.
    let tail_len = len.min(22 + 65_535);
    file.seek(SeekFrom::Start(len - tail_len)).ok()?;
    let mut tail = vec![0u8; tail_len as usize];
    file.read_exact(&mut tail).ok()?;
    let at = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| tail[i..].starts_with(b"PK\x05\x06"))?;
    let entries = u16::from_le_bytes([tail[at + 10], tail[at + 11]]);
    if entries != u16::MAX {
        return Some(u64::from(entries));
    }
    // ZIP64: a locator (20 bytes) just before the end record gives the ZIP64 end record's place.
    let locator = tail.get(at.checked_sub(20)?..at)?;
    if !locator.starts_with(b"PK\x06\x07") {
        return Some(u64::from(entries));
    }
    let offset = u64::from_le_bytes(locator[8..16].try_into().ok()?);
    file.seek(SeekFrom::Start(offset)).ok()?;
    let mut record = [0u8; 40];
    file.read_exact(&mut record).ok()?;
    record
        .starts_with(b"PK\x06\x06")
        .then(|| u64::from_le_bytes(record[32..40].try_into().unwrap_or([0; 8])))
}
