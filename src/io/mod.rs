//! File-system and process plumbing shared by the commands: safe
//! replacement of files ([`atomic_write`]) and cleanup when interrupted by
//! a signal ([`cleanup`]) come from the workspace's `fsutil` crate (which
//! the test runner uses too) and are re-exported here; reading input with a
//! size limit ([`read`]) is pfir's own. Nothing here knows about `.pfir`.

pub mod read;
pub mod stdio;

pub use fsutil::{
    Snapshot, atomic_write, cleanup, write_atomically, write_atomically_checked,
    write_atomically_with,
};
