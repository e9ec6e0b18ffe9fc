//! Which files are taken, and how each is read, decided by name alone (the format inside a record
//! file is recognised later, from its content, by the parser).

/// How a source file is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceKind {
    /// One record file, read as is.
    Plain,
    /// One zstd-compressed record file (`.sgf.zst`).
    Zstd,
    /// A zip archive.
    Zip,
    /// An uncompressed tar archive.
    Tar,
    /// A gzip-compressed tar archive (`.tar.gz`, `.tgz`).
    TarGz,
    /// A zstd-compressed tar archive (`.tar.zst`, `.tzst`).
    TarZst,
}

impl SourceKind {
    /// Whether the source holds many records (an archive) rather than one.
    pub fn is_archive(self) -> bool {
        matches!(self, Self::Zip | Self::Tar | Self::TarGz | Self::TarZst)
    }

    /// The kind of a file found while walking a directory, from its name; `None`: not taken.
    pub(crate) fn in_directory(name: &str) -> Option<Self> {
        let lower = name.to_ascii_lowercase();
        let kind = if lower.ends_with(".tar.zst") || lower.ends_with(".tzst") {
            Self::TarZst
        } else if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
            Self::TarGz
        } else if lower.ends_with(".tar") {
            Self::Tar
        } else if lower.ends_with(".zip") {
            Self::Zip
        } else {
            match MemberKind::of(&lower)? {
                MemberKind::Raw => Self::Plain,
                MemberKind::Zstd => Self::Zstd,
            }
        };
        Some(kind)
    }

    /// The kind of a file named on the command line: always taken.
    pub(crate) fn given(name: &str) -> Self {
        match Self::in_directory(name) {
            Some(kind) => kind,
            None if name.to_ascii_lowercase().ends_with(".zst") => Self::Zstd,
            None => Self::Plain,
        }
    }
}

/// How a taken archive member (or directory file) holds its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemberKind {
    /// The record itself.
    Raw,
    /// The record compressed with zstd.
    Zstd,
}

impl MemberKind {
    /// Whether a name is taken as a record, and how; `lower` is already lower-case.
    pub(crate) fn of(lower: &str) -> Option<Self> {
        let record = |name: &str| RECORD_ENDINGS.iter().any(|e| name.ends_with(e));
        if record(lower) {
            Some(Self::Raw)
        } else if lower.strip_suffix(".zst").is_some_and(record) {
            Some(Self::Zstd)
        } else {
            None
        }
    }
}

/// Why a file found in a directory is not read although its name says it is packed the way
/// record collections travel: compressed or archived in a form that is not read here. `None`
/// for anything else, which a walk passes over without a word: notes, images, and records
/// renamed out of the way (`x.sgf.bak`, `x.sgf.v1234`), as their owner meant. `lower` is the
/// name in lower case.
pub(crate) fn unread_packed(lower: &str) -> Option<&'static str> {
    const PACKED: [&str; 10] = [
        ".gz", ".bz2", ".xz", ".lzma", ".lz4", ".7z", ".rar", ".tbz2", ".tbz", ".txz",
    ];
    if PACKED.iter().any(|e| lower.ends_with(e)) {
        return Some(
            "compressed or archived in a form that is not read (.zst, .zip, .tar, .tar.gz and \
             .tar.zst are)",
        );
    }
    lower
        .ends_with(".zst")
        .then_some("a .zst file whose name does not say what it holds (x.sgf.zst, x.tar.zst)")
}

/// Why an archive's member is not read although its name says it holds records ([`unread_packed`],
/// or an archive inside the archive); `None` for a member read, or one passed over (notes, …).
/// `lower` is the member's name in lower case.
pub(crate) fn unread_member(lower: &str) -> Option<&'static str> {
    if MemberKind::of(lower).is_some() {
        return None;
    }
    match SourceKind::in_directory(lower) {
        Some(kind) if kind.is_archive() => {
            Some("an archive inside an archive: unpack the outer one to read it")
        }
        _ => unread_packed(lower),
    }
}

/// The endings of record files taken in folders and archives: SGF, WTF, and the server formats
/// `sgf` reads (GIB, NGF, UGF/UGI, kifu-line move files). The format itself is recognised from
/// the content; the ending only decides what a walk opens. A kifu-line index (`.index`) is not
/// taken: it holds no game of its own.
pub(crate) const RECORD_ENDINGS: [&str; 7] =
    [".sgf", ".wtf", ".gib", ".ngf", ".ugf", ".ugi", ".kifu"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_names() {
        use SourceKind::*;
        let cases = [
            ("a.sgf", Some(Plain)),
            ("A.SGF", Some(Plain)),
            ("b.Wtf", Some(Plain)),
            ("c.sgf.zst", Some(Zstd)),
            ("c.WTF.ZST", Some(Zstd)),
            ("d.zip", Some(Zip)),
            ("e.tar", Some(Tar)),
            ("f.tar.gz", Some(TarGz)),
            ("f.TGZ", Some(TarGz)),
            ("g.tar.zst", Some(TarZst)),
            ("g.tzst", Some(TarZst)),
            ("h.zst", None),
            ("i.gz", None),
            ("j.txt", None),
            ("sgf", None),
        ];
        for (name, kind) in cases {
            assert_eq!(SourceKind::in_directory(name), kind, "{name}");
        }
        assert_eq!(SourceKind::given("notes.txt"), Plain);
        assert_eq!(SourceKind::given("x.zst"), Zstd);
        assert_eq!(SourceKind::given("x.tgz"), TarGz);
    }

    #[test]
    fn packed_forms_not_read_are_named_and_the_rest_passed_over() {
        for name in [
            "a.sgf.gz",
            "b.tar.bz2",
            "c.TAR.XZ",
            "d.7z",
            "e.rar",
            "f.zst",
            "g.txz",
        ] {
            assert!(
                unread_packed(&name.to_ascii_lowercase()).is_some(),
                "{name}"
            );
            assert_eq!(SourceKind::in_directory(name), None, "{name}");
        }
        for name in [
            "notes.txt",
            "x.sgf.bak",
            "x.sgf.v1234",
            "LIST.tsv",
            "kifu.index",
        ] {
            assert_eq!(unread_packed(name), None, "{name}");
        }
        for name in ["a.tar.gz", "a.tgz", "a.sgf.zst", "a.tar.zst", "a.tzst"] {
            assert!(SourceKind::in_directory(name).is_some(), "{name}");
        }
    }

    #[test]
    fn every_format_is_taken_plain_or_compressed() {
        use MemberKind::{Raw, Zstd};
        for e in RECORD_ENDINGS {
            assert_eq!(MemberKind::of(&format!("x{e}")), Some(Raw), "{e}");
            assert_eq!(MemberKind::of(&format!("x{e}.zst")), Some(Zstd), "{e}");
        }
        assert_eq!(MemberKind::of("kifu.index"), None);
    }
}
