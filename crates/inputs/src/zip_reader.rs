//! Zip archives: members in central-directory order, each independent, so a broken one is skipped
//! and the rest are read; without a central directory (a truncated download), by the local
//! headers as far as they go. A panic of the zip library on corrupt data is caught.

use std::cell::Cell;
use std::io::{self, BufReader, Read};
use std::panic::{self, AssertUnwindSafe};

use crate::error::InputError;
use crate::kind::MemberKind;
use crate::names::clean_member;
use crate::source::{Record, Source};
use crate::stream::{deliver, open, read_member, Counting};

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

/// What was read of one zip member: its cleaned name, and its bytes and error as by
/// [`read_member`]; `None` if the member is not taken.
type ZipMember = Option<(String, Vec<u8>, Option<io::Error>)>;

fn take_zip_member<R: Read>(file: &mut zip::read::ZipFile<'_, R>, max: u64) -> ZipMember {
    if !file.is_file() {
        return None;
    }
    let member = clean_member(&file.name().replace('\\', "/"));
    let kind = MemberKind::of(&member.to_ascii_lowercase())?;
    let size = file.size();
    let (bytes, err) = read_member(file, size, kind, max);
    Some((member, bytes, err))
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
    let mut delivered = 0;
    let mut first_err: Option<(Option<String>, io::Error)> = None;
    let mut more = 0;
    for index in 0..archive.len() {
        let read = guarded(|| {
            let mut file = archive.by_index(index)?;
            Ok(take_zip_member(&mut file, source.max_record_bytes))
        });
        let (member, err) = match read {
            Ok(None) => continue,
            Ok(Some((member, bytes, err))) => {
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

/// Reads a zip whose central directory is unreadable by its local headers, from the start:
/// this saves the members of a truncated download. The archive is damaged either way, so an
/// error is always returned (with `central`, the central directory's).
pub(crate) fn read_zip_stream(
    source: &Source,
    sink: &mut dyn FnMut(Record),
    central: io::Error,
) -> Result<(), InputError> {
    let count = Cell::new(0);
    let mut reader = BufReader::new(Counting {
        inner: open(source)?,
        count: &count,
    });
    let mut delivered = 0;
    let stopped = loop {
        let read = guarded(|| {
            Ok(zip::read::read_zipfile_from_stream(&mut reader)?
                .map(|mut file| take_zip_member(&mut file, source.max_record_bytes)))
        });
        match read {
            Ok(None) => break None,
            Ok(Some(None)) => continue,
            Ok(Some(Some((member, bytes, err)))) => {
                let name = format!("{}/{member}", source.name);
                let consumed = count.get().min(source.len);
                delivered += deliver(sink, name, bytes, err.as_ref(), consumed);
                if let Some(err) = err {
                    break Some((Some(member), err));
                }
            }
            Err(err) => break Some((None, err)),
        }
    };
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
