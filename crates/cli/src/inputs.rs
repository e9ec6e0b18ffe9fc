//! Record files for the commands that read records directly (`info`, `show`): the same inputs
//! as `qipu index` — files, directories, zstd files and archives — through the `inputs` crate
//! (written `::inputs` here, apart from this module of the same name), read in parallel over
//! inputs, results kept in input order. No index is needed or opened.

use std::path::PathBuf;

use ::inputs::{discover, read_source};
use anyhow::Result;
use rayon::prelude::*;

/// One record file: its name (the game identity's file part) and its bytes.
pub struct Input<'a> {
    pub name: &'a str,
    pub bytes: &'a [u8],
}

/// Applies `each` to every record file of `paths`, and `failed` to a name and error where an
/// input could not be read (whole or in part); results in input order.
pub fn map_records<T: Send>(
    paths: &[PathBuf],
    each: impl Fn(&Input<'_>) -> T + Sync,
    failed: impl Fn(&str, String) -> T + Sync,
) -> Result<Vec<T>> {
    let sources = discover(paths)?;
    let per_source: Vec<Vec<T>> = sources
        .par_iter()
        .map(|source| {
            let mut out = Vec::new();
            let res = read_source(source, &mut |rec| {
                out.push(each(&Input {
                    name: &rec.name,
                    bytes: &rec.bytes,
                }));
                if rec.bytes.cut_while_read() {
                    // What was said of its games past the cut came from zeros, not the file.
                    out.push(failed(
                        &rec.name,
                        "the file was cut short while it was read (by another program?): \
                         what was said of its games past the cut is not the file's"
                            .to_string(),
                    ));
                }
            });
            if let Err(e) = res {
                out.push(failed(&source.name, e.to_string()));
            }
            out
        })
        .collect();
    Ok(per_source.into_iter().flatten().collect())
}
