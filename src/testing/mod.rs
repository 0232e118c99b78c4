//! Test tooling: FileCheck, the lit-style runner, `--verify-diagnostics`.
//!
//! FileCheck and the runner live in crates of their own (`crates/filecheck`,
//! `crates/lit`) that know nothing of pfir's compiler; they are re-exported
//! here, and this module injects what the runner needs from pfir: which
//! executable `pfir` and `FileCheck` stand for in RUN lines ([`lit_tools`])
//! and CHECK-line regeneration for `--update`
//! ([`update_checks::CheckUpdater`]). The parts that know the language,
//! [`verify_diagnostics`] and [`update_checks`], stay here.

pub use filecheck;
pub use lit;

#[cfg(feature = "testkit")]
pub mod exhaustive;
pub use crate::lexer::expected;
pub mod in_process;
pub mod update_checks;
pub mod verify_diagnostics;

use std::path::PathBuf;

/// Runner tools for which `pfir` in a RUN line runs `pfir_exe`, and
/// FileCheck's names (`filecheck::args::PROGRAM_NAMES`) run its `filecheck`
/// subcommand (the `pfir` binary passes `current_exe`, the cargo harness
/// `CARGO_BIN_EXE_pfir`). When `pfir_exe` is the running program, its
/// commands run in-process ([`in_process`]).
pub fn lit_tools(pfir_exe: impl Into<PathBuf>) -> lit::Tools {
    let exe = pfir_exe.into();
    let mut tools = lit::Tools::new().with_program("pfir", exe.clone(), &[]);
    for name in filecheck::args::PROGRAM_NAMES {
        tools = tools.with_program(name, exe.clone(), &["filecheck"]);
    }
    if in_process::has_command_line() && in_process::is_this_program(&exe) {
        in_process::enable(&mut tools, exe);
    }
    tools
}

/// A runner configuration with [`lit_tools`] for `pfir_exe` (one job per
/// core, no filter, no update, no timeout).
pub fn lit_config(pfir_exe: impl Into<PathBuf>) -> lit::Config {
    let mut config = lit::Config::new(lit_tools(pfir_exe));
    // The test-only passes (`test-drop-deps`, ...) exist in this build.
    if cfg!(feature = "testkit") {
        config.features.push("testkit".into());
    }
    config
}

/// The proptest configuration of the tooling's never-panics properties
/// (many cases, no persisted failures).
#[cfg(test)]
fn never_panics_config() -> proptest::prelude::ProptestConfig {
    proptest::prelude::ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..Default::default()
    }
}
