//! Reading one source: the dispatch from its kind to the reader that streams its records.

use crate::error::InputError;
use crate::kind::SourceKind;
use crate::plain::{read_plain, read_zstd_file};
use crate::source::{Record, Source};
use crate::tar_reader::read_tar;
use crate::zip_reader::read_zip;

/// Streams every record of `source` to `sink`: one for a plain or compressed file, one per taken
/// member for an archive, in archive order.
///
/// On damage, the records before it (and the damaged one, flagged) are delivered first and the
/// error is returned afterwards; see the crate docs. Never panics on corrupt input.
pub fn read_source(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    match source.kind {
        SourceKind::Plain => read_plain(source, sink),
        SourceKind::Zstd => read_zstd_file(source, sink),
        SourceKind::Zip => read_zip(source, sink),
        SourceKind::Tar | SourceKind::TarGz | SourceKind::TarZst => read_tar(source, sink),
    }
}
