//! Test tooling: FileCheck, the lit-style runner, `--verify-diagnostics`.

pub mod filecheck;
pub mod verify_diagnostics;
