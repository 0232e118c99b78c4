//! File-system and process plumbing shared by the commands: safe
//! replacement of files ([`atomic_write`]), cleanup when interrupted by a
//! signal ([`cleanup`]) and reading input with a size limit ([`read`]).
//! Nothing here knows about `.pfir`.

pub mod atomic_write;
pub mod cleanup;
pub mod read;

pub use atomic_write::{write_atomically, write_atomically_with};
