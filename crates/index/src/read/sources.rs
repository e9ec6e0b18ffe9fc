//! The reader's view of where games came from: the manifest's inputs, which opening an index
//! leaves unread, and the tables that find a game's input, each made at its first question
//! (see [`crate::store::sources`]). A search that prints no path pays for none of them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::store::manifest::{self, Manifest, SourceInfo};
use crate::store::sources::{SourceTable, StoredTable};

/// The index's inputs, read lazily from the manifest's bytes kept at opening.
pub(crate) struct Sources {
    /// The index's folder, where the stored table of sources is.
    dir: PathBuf,
    /// The manifest as read, for its inputs ([`Manifest::load_without_sources`]).
    manifest_bytes: Vec<u8>,
    map: OnceLock<BTreeMap<String, SourceInfo>>,
    /// Whether the manifest's inputs did not read ([`Sources::damage`]).
    damaged: OnceLock<bool>,
    /// Games' sources by id, made at the first [`Sources::entry`].
    table: OnceLock<SourceTable>,
    /// The stored table of games' sources, read at the first [`Sources::key_and_name`] when it
    /// belongs to the manifest opened.
    stored: OnceLock<Option<StoredTable>>,
}

impl Sources {
    pub(crate) fn new(dir: &Path, manifest_bytes: Vec<u8>) -> Sources {
        Sources {
            dir: dir.to_path_buf(),
            manifest_bytes,
            map: OnceLock::new(),
            damaged: OnceLock::new(),
            table: OnceLock::new(),
            stored: OnceLock::new(),
        }
    }

    /// The inputs by canonical path; none when they do not read (then [`Sources::damage`]
    /// says so, once they were asked for).
    pub(crate) fn map(&self) -> &BTreeMap<String, SourceInfo> {
        self.map.get_or_init(|| {
            let sources = Manifest::sources_of(&self.manifest_bytes);
            // Noted, so that no answer is given with the paths it could not give.
            let _ = self.damaged.set(sources.is_err());
            sources.unwrap_or_default()
        })
    }

    /// The manifest and what is wrong with it, when its inputs were asked for and did not read.
    pub(crate) fn damage(&self) -> Option<(PathBuf, String)> {
        self.damaged.get().is_some_and(|&bad| bad).then(|| {
            (
                self.dir.join(manifest::MANIFEST),
                "does not read as a list of inputs".to_string(),
            )
        })
    }

    /// The key and name of game `id`'s source: from the stored table when it is this
    /// manifest's, else from [`Sources::entry`].
    pub(crate) fn key_and_name(&self, id: u32) -> Option<(&str, &str)> {
        let stored = self
            .stored
            .get_or_init(|| StoredTable::load(&self.dir, &self.manifest_bytes));
        match stored {
            Some(table) => table.find(id),
            None => self.entry(id).map(|(key, info)| (key, info.name.as_str())),
        }
    }

    /// The manifest's key and entry of game `id`'s source.
    pub(crate) fn entry(&self, id: u32) -> Option<(&str, &SourceInfo)> {
        self.table
            .get_or_init(|| SourceTable::new(self.map()))
            .find(self.map(), id)
    }
}
