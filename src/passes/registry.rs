//! Every pass, by name. The testing pass `test-drop-deps` is registered
//! only in builds with the `testkit` feature (tests and benchmarks).

use super::Pass;
use super::expand_manual_phase_fence::ExpandManualPhaseFence;

#[cfg(not(feature = "testkit"))]
static PASSES: &[&dyn Pass] = &[&ExpandManualPhaseFence];

#[cfg(feature = "testkit")]
static PASSES: &[&dyn Pass] = &[
    &ExpandManualPhaseFence,
    &super::test_drop_deps::TestDropDeps,
];

/// All registered passes, in a fixed order.
pub fn passes() -> &'static [&'static dyn Pass] {
    PASSES
}

/// The pass called `name`.
pub fn lookup(name: &str) -> Option<&'static dyn Pass> {
    PASSES.iter().copied().find(|p| p.name() == name)
}
