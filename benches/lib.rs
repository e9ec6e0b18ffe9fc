//! Shared helpers for the benchmarks: where the corpora live.
