//! A tiny index of `samples/games`, built once per fuzzing process in a temporary directory, for
//! the targets that run queries against an index.

use std::path::PathBuf;
use std::sync::OnceLock;

/// Where the sample index is built.
fn sample_dir() -> PathBuf {
    std::env::temp_dir().join(format!("qipu-fuzz-index-{}", std::process::id()))
}

#[allow(dead_code)]
pub fn sample_index() -> &'static index::Index {
    static INDEX: OnceLock<index::Index> = OnceLock::new();
    INDEX.get_or_init(|| index::Index::open(sample_index_dir()).expect("sample index opens"))
}

/// The folder of the sample index, built on first use.
pub fn sample_index_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = sample_dir();
        let _ = std::fs::remove_dir_all(&dir);
        let opts = index::BuildOptions {
            rebuild: true,
            ..index::BuildOptions::default()
        };
        index::build(&dir, &[root.join("samples/games")], &opts, |_| {}).expect("sample index");
        dir
    })
}

/// The same index opened through the library's face (`qipu`), as a client searches it.
#[allow(dead_code)]
pub fn sample_face() -> &'static qipu::Index {
    static FACE: OnceLock<qipu::Index> = OnceLock::new();
    FACE.get_or_init(|| {
        sample_index();
        qipu::Index::open(sample_dir()).expect("sample index opens")
    })
}
