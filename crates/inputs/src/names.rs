//! Names for display and game identity: what search results print as a record's `file`. They
//! must not depend on where the data was mounted, and two different names must stay apart even
//! when the file system's bytes are not UTF-8 (see the crate docs, "Names").

use std::path::{Component, Path};

/// A file name for display and game identity: itself when it is valid UTF-8; otherwise each
/// byte that is not part of valid UTF-8 written `\xHH` (upper-case hex) and each `\` doubled, so
/// that two names differing only in such bytes stay apart (a lossy conversion would print both
/// with U+FFFD). A valid name that spells `\xHH` literally can still equal an escaped one;
/// bookkeeping does not rely on display names (see [`path_key`](crate::path_key)).
pub fn display_name(name: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    match name.to_str() {
        Some(text) => text.to_string(),
        None => escape_bytes(name.as_bytes()),
    }
}

/// Bytes of a name as [`display_name`](crate::display_name) shows them.
pub(crate) fn display_bytes(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => escape_bytes(bytes),
    }
}

/// `bytes` with invalid UTF-8 written `\xHH` and `\` doubled.
pub(crate) fn escape_bytes(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                out.push_str(&text.replace('\\', "\\\\"));
                return out;
            }
            Err(err) => {
                let (good, rest) = bytes.split_at(err.valid_up_to());
                let good = std::str::from_utf8(good).expect("checked valid");
                out.push_str(&good.replace('\\', "\\\\"));
                let bad = err.error_len().unwrap_or(rest.len());
                for b in &rest[..bad] {
                    out.push_str(&format!("\\x{b:02X}"));
                }
                bytes = &rest[bad..];
            }
        }
    }
}

/// The path as given, lexically cleaned, with `/` separators (see the crate docs, "Names").
pub(crate) fn clean_path(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut absolute = false;
    for component in path.components() {
        match component {
            Component::Prefix(prefix) => parts.push(prefix.as_os_str().to_string_lossy().into()),
            Component::RootDir => absolute = true,
            Component::CurDir => {}
            Component::ParentDir => parts.push("..".into()),
            Component::Normal(part) => parts.push(display_name(part)),
        }
    }
    let joined = parts.join("/");
    if absolute && !matches!(path.components().next(), Some(Component::Prefix(_))) {
        format!("/{joined}")
    } else {
        joined
    }
}

/// Names of an archive's members, each once: a member named as an earlier one (tar appends
/// new versions under the same name; zip tools may do the same) is `NAME (2)`, `NAME (3)`, …,
/// so that every game keeps a name of its own.
#[derive(Default)]
pub(crate) struct MemberNames(std::collections::HashMap<String, u32>);

impl MemberNames {
    /// The name of this member, made apart from the earlier ones.
    pub(crate) fn apart(&mut self, member: String) -> String {
        let n = self.0.entry(member.clone()).or_insert(0);
        *n += 1;
        match *n {
            1 => member,
            n => format!("{member} ({n})"),
        }
    }
}

/// A member's path inside an archive, cleaned: no leading `./` or `/`, no empty or `.` parts.
pub(crate) fn clean_member(name: &str) -> String {
    name.split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_paths_and_members() {
        assert_eq!(clean_path(Path::new("./games//a.sgf")), "games/a.sgf");
        assert_eq!(clean_path(Path::new("a/./b/../c.sgf")), "a/b/../c.sgf");
        assert_eq!(clean_path(Path::new("/x/./y.sgf")), "/x/y.sgf");
        assert_eq!(clean_member("./kgs/2001/a.sgf"), "kgs/2001/a.sgf");
        assert_eq!(clean_member("/abs//b.sgf"), "abs/b.sgf");
    }
}
