//! For qipu's tests: the shared material (`../shared` beside the repository: real datasets and
//! the oracle's answers) and its JSON Lines files.
//!
//! The shared material lives outside the repository. Without it, tests that need it say so and
//! pass, unless `QIPU_REQUIRE_DATASETS=1` (as in CI), where its absence is a failure. The
//! oracle's rows are read in [`oracle`].

pub mod oracle;

pub mod analysed;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The tests' one pseudo-random generator: xorshift64 (Marsaglia's 13/7/17 triple), the same
/// sequence on every run and no dependency. Tests whose thresholds were tuned on a seed's draws
/// (how many cases hit, how many took a road) depend on this exact formula: changing it changes
/// what they try, not only the order.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`, which must not be 0 (xorshift's one fixed point).
    pub fn new(seed: u64) -> Rng {
        assert_ne!(seed, 0, "xorshift stays at 0 forever");
        Rng(seed)
    }

    /// The next draw.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A draw in `0..n` (`n` > 0; the slight bias of a remainder is no matter for tests).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// [`Rng`]'s draws as a closure, for tests that only ever want the next number. `seed` must not
/// be 0.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = Rng::new(seed);
    move || rng.next_u64()
}

/// Whether this run must have the shared material (`QIPU_REQUIRE_DATASETS=1`).
pub fn required() -> bool {
    std::env::var("QIPU_REQUIRE_DATASETS").is_ok_and(|v| v == "1")
}

/// The shared folder (with `oracle/` and `datasets/`), or `None` after saying it is absent;
/// panics when it is absent but [`required`].
pub fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    let present = p.join("oracle").is_dir() && p.join("datasets").is_dir();
    found(p, present)
}

/// The shared KataGo for tests (`../shared/tools/katago/`: a CPU build, a small test network,
/// an analysis config), as (executable, network, config); `None` after saying it is absent;
/// panics when it is absent but [`required`].
pub fn katago() -> Option<(PathBuf, PathBuf, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/katago");
    let files = (
        dir.join("katago"),
        dir.join("b7c96h3tfrs-test5-cnorm.bin.gz"),
        dir.join("analysis.cfg"),
    );
    let present = files.0.is_file() && files.1.is_file() && files.2.is_file();
    found(dir, present).map(|_| files)
}

/// `p` if `present`; else `None` after saying so, or a panic when the material is [`required`].
fn found(p: PathBuf, present: bool) -> Option<PathBuf> {
    if present {
        return Some(p);
    }
    if required() {
        panic!("{} is missing", p.display());
    }
    eprintln!("skipped: {} is not present", p.display());
    None
}

/// Every JSON value of a JSON Lines file (blank lines skipped); panics on a missing file or a
/// bad line, naming it.
pub fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}

/// The shared dataset `name` (a folder of `datasets/`), or `None` after saying it is absent;
/// panics when it is absent but [`required`].
pub fn dataset(name: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/datasets")
        .join(name);
    let present = p.is_dir();
    found(p, present)
}

/// A fresh folder under the system's temporary folder, unique to this test process and name,
/// removed when dropped: the scratch space of tests that write files.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// Makes `qipu-NAME-PID` empty under the temporary folder.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("qipu-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    /// The path of `rel` inside the folder.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    /// Writes `bytes` at `rel` inside the folder (making the folders on the way); its path.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().expect("a file inside")).expect("folders");
        std::fs::write(&path, bytes).expect("a scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::{xorshift, Rng};

    /// The draws that tests tuned their thresholds on: a change of formula shows here first,
    /// not as a far-away test that suddenly finds too few cases.
    #[test]
    fn the_sequence_is_the_one_tests_were_tuned_on() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let draws: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            draws,
            [
                0xdc1b_77ae_0bf3_4dad,
                0x64f0_eeb9_026e_6076,
                0x7b07_ce91_e590_6136
            ]
        );
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        assert_eq!([next(), next(), next()], draws[..]);
        let mut rng = Rng::new(5);
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }

    #[test]
    #[should_panic(expected = "xorshift stays at 0")]
    fn a_zero_seed_is_refused() {
        Rng::new(0);
    }
}
