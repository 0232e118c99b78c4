//! Every pass, by name.

use super::Pass;
use super::expand_manual_phase_fence::ExpandManualPhaseFence;
use super::test_drop_deps::TestDropDeps;

static PASSES: &[&dyn Pass] = &[&ExpandManualPhaseFence, &TestDropDeps];

/// All registered passes, in a fixed order.
pub fn passes() -> &'static [&'static dyn Pass] {
    PASSES
}

/// The pass called `name`.
pub fn lookup(name: &str) -> Option<&'static dyn Pass> {
    PASSES.iter().copied().find(|p| p.name() == name)
}
