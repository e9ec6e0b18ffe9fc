//! `qipu verify`: every file of an index against the checksum taken when it was written.

use std::path::{Path, PathBuf};

use crate::{store, IndexError, Manifest};

/// One damaged file (or folder) of an index, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    pub path: PathBuf,
    pub problem: String,
}

pub(crate) fn verify(dir: &Path) -> Result<Vec<Damage>, IndexError> {
    let manifest = Manifest::load(dir)?.ok_or_else(|| IndexError::Missing(dir.to_path_buf()))?;
    let mut out = Vec::new();
    for seg in &manifest.segments {
        for f in &seg.files {
            let path = dir.join(&seg.dir).join(&f.name);
            let problem = match store::file_crc(&path) {
                Err(e) => e.to_string(),
                Ok((len, _)) if len != f.len => {
                    format!("has {len} bytes, the manifest says {}", f.len)
                }
                Ok((_, crc)) if crc != f.crc32 => format!(
                    "its checksum is {crc:08x}, the manifest says {:08x}",
                    f.crc32
                ),
                Ok(_) => continue,
            };
            out.push(Damage { path, problem });
        }
    }
    let meta_dir = dir.join(manifest.meta_dir());
    match meta::damaged_files(&meta_dir) {
        Ok(bad) => out.extend(bad.into_iter().map(|path| {
            let problem = if meta::is_block_sums(&path) {
                "its own checksum fails, or it describes another length than its file's"
            } else {
                "its checksum does not match its footer"
            };
            Damage {
                path,
                problem: problem.to_string(),
            }
        })),
        Err(e) => out.push(Damage {
            path: meta_dir.clone(),
            problem: problem_alone(e),
        }),
    }
    // The alias list recorded with the index carries its own checksum.
    if let Err(e) = meta::Aliases::recorded(&meta_dir) {
        out.push(Damage {
            path: meta_dir.join(meta::ALIASES_FILE),
            problem: e.to_string(),
        });
    }
    Ok(out)
}

/// What is wrong, without the folder's path: the report prints the path before it already.
fn problem_alone(e: meta::MetaError) -> String {
    match e {
        meta::MetaError::Index { message, .. } => message,
        meta::MetaError::Io { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_problem_says_the_path_once() {
        let e = meta::MetaError::Index {
            path: PathBuf::from("/x/meta"),
            message: "no metadata index here".into(),
        };
        assert_eq!(problem_alone(e), "no metadata index here");
        let e = meta::MetaError::Io {
            path: PathBuf::from("/x/meta"),
            source: std::io::Error::from_raw_os_error(2),
        };
        assert!(!problem_alone(e).contains("/x/meta"));
    }
}
