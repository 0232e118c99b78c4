//! Passes over the IR and the pipeline that runs them.

use crate::diagnostics::{Diagnostic, SourceFile};
use crate::ir::Module;
use clap::Args;

/// The pipeline options of `pfir opt`.
#[derive(Args, Debug, Clone, Default)]
pub struct PipelineOptions {
    /// Passes to run, in order, separated by commas.
    #[arg(long = "passes", value_name = "NAME,...", value_delimiter = ',')]
    pub passes: Vec<String>,
}

/// The names of all registered passes.
pub fn known_passes() -> Vec<&'static str> {
    Vec::new()
}

/// Checks the options before anything is read: an unknown pass is a usage error.
pub fn check_pipeline(opts: &PipelineOptions) -> Result<(), String> {
    for name in &opts.passes {
        if !known_passes().contains(&name.as_str()) {
            return Err(format!(
                "unknown pass '{name}'; known passes: {}",
                known_passes().join(", ")
            ));
        }
    }
    Ok(())
}

/// What running a pipeline reported.
#[derive(Debug, Default)]
pub struct PipelineResult {
    pub diagnostics: Vec<Diagnostic>,
    pub stderr: String,
}

/// Runs the pipeline of `opts` over `module`.
pub fn run_pipeline(
    _module: &mut Module,
    _file: &SourceFile,
    _opts: &PipelineOptions,
) -> PipelineResult {
    PipelineResult::default()
}
