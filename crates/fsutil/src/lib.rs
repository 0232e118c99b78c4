//! File-system and process plumbing shared by pfir and its test tooling:
//! safe replacement of files ([`atomic_write`]) and cleanup when a run is
//! interrupted by a signal ([`cleanup`]); and the one XML escaper both
//! write reports with ([`xml`]); and the one definition of a line and
//! line index ([`lines`]: `\n`, `\r\n` or a lone `\r`; UTF-8/16/32 columns);
//! and the one helper that runs independent work in parallel ([`parallel`]);
//! and the one way long work on a thread is stopped early ([`cancel`]).
//!
//! **Boundary:** this crate knows nothing of pfir's compiler (nor of
//! `.pfir`, FileCheck or lit). It depends on no other crate of the
//! workspace, so the `pfir` package, `crates/lit` and `crates/filecheck`
//! can use it; a helper that several of them need lives here once, not
//! in each.

pub mod atomic_write;
pub mod cancel;
pub mod cleanup;
pub mod lines;
pub mod parallel;
pub mod xml;

pub use atomic_write::{
    Snapshot, write_atomically, write_atomically_checked, write_atomically_with,
};
