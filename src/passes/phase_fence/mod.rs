//! Analyses behind `expand-manual-phase-fence`.
//!
//! - [`trip_count`]: constant loop bounds and saturating trip counts;
//! - [`alias`]: the iter-arg alias forest of `array<task_id, _>` variables;
//! - [`counts`]: per-loop consumer counts, merged small-to-large with
//!   saturating multiplication;
//! - [`index`]: one walk over a function numbering statements and loops and
//!   collecting consumers, definitions and storage updates.

pub mod alias;
pub mod counts;
pub mod index;
pub mod trip_count;

/// Where every count saturates: `i64::MAX`.
pub const CAP: u64 = i64::MAX as u64;
