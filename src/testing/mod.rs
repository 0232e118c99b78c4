//! Test tooling: FileCheck, the lit-style runner, `--verify-diagnostics`.

pub mod filecheck;
pub mod lit;
pub mod update_checks;
pub mod verify_diagnostics;
