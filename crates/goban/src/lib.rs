//! Placeholder; filled in below.
