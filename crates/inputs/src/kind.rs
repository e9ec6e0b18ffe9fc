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
    fn every_format_is_taken_plain_or_compressed() {
        use MemberKind::{Raw, Zstd};
        for e in RECORD_ENDINGS {
            assert_eq!(MemberKind::of(&format!("x{e}")), Some(Raw), "{e}");
            assert_eq!(MemberKind::of(&format!("x{e}.zst")), Some(Zstd), "{e}");
        }
        assert_eq!(MemberKind::of("kifu.index"), None);
    }
}
