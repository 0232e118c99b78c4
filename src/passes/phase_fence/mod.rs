//! Analyses behind `expand-manual-phase-fence`.
//!
//! - [`alias`]: the iter-arg alias forest of `array<task_id, _>` variables;
//! - [`counts`]: per-loop consumer counts, merged small-to-large with
//!   saturating multiplication;
//! - [`index`]: one walk over a function numbering statements and loops and
//!   collecting consumers, definitions and storage updates;
//! - [`remark`]: the pass's decisions as data, and their remarks.

pub mod alias;
pub mod counts;
pub mod index;
pub mod remark;

/// Where every count saturates: `i64::MAX` (as trip counts do,
/// [`crate::ir::trip_count`]).
pub const CAP: u64 = crate::ir::trip_count::CAP;
