//! Every Rust integration test in one binary (one link instead of one per
//! file): a module per concern. The golden `.pfir` tests run through
//! `tests/lit.rs`, which needs its own harness, and so do the tests that
//! need a tool that may be missing (`tests/needs_tools/`), so that they are
//! reported as ignored where it is.

mod support;

mod api;
mod bounded;
mod cancel;
mod crate_boundaries;
mod deps_bounded;
mod deps_evaluator;
mod deps_random;
mod deps_verify;
mod diagnostics;
mod editor_grammar;
mod fmt;
mod frontend_errors;
mod frontend_limits;
mod frontend_lowering;
mod frontend_robustness;
mod graph;
mod ide;
mod io_safety;
mod ir_verify;
mod lit_features;
mod lit_runner;
mod lsp;
mod module_layers;
mod pass_exhaustive;
mod pass_golden;
mod pass_manager;
mod pass_rules;
mod pass_scaling;
mod printer_roundtrip;
mod property_walk;
mod reduce;
mod roundtrip_corpus;

mod tooling_robustness;
mod translate;
mod tree_sitter_grammar;
