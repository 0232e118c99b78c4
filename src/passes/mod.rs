//! Passes over the IR and the pipeline that runs them.
//!
//! - [`Pass`]: a named rewrite of a [`Module`] that declares the
//!   [`Property`]s it requires, produces and invalidates.
//! - [`registry`]: every pass by name.
//! - [`manager`]: runs a pipeline, checking required properties before each
//!   pass (a violation is an error diagnostic at the offending code and the
//!   pass does not run), verifying produced properties after each pass
//!   (`--verify-each`, on by default), and providing IR dumps, timing,
//!   remarks and statistics.
//! - [`properties`]: the properties and their verifiers.
//! - [`expand_manual_phase_fence`]: the phase-fence pass, with its analysis
//!   helpers in [`phase_fence`].
//! - `synth` and `exhaustive` (feature `testkit`): generated programs for
//!   benchmarks and tests, and every program up to a size with an
//!   independent oracle of the pass's decisions.

#[cfg(feature = "testkit")]
pub mod exhaustive;
pub mod expand_manual_phase_fence;
pub mod manager;
pub mod phase_fence;
pub mod properties;
pub mod registry;
#[cfg(feature = "testkit")]
pub mod synth;
#[cfg(feature = "testkit")]
pub mod test_drop_deps;

use crate::diagnostics::{Diagnostic, SourceFile};
use crate::ir::Module;
pub use manager::{PipelineResult, run_pipeline};
pub use properties::Property;

/// A pass: a named rewrite of a module.
pub trait Pass: Sync {
    /// The name used on the command line (`--passes=NAME`).
    fn name(&self) -> &'static str;
    /// One line saying what the pass does.
    fn description(&self) -> &'static str;
    /// Properties that must hold before the pass runs.
    fn required(&self) -> &'static [Property] {
        &[]
    }
    /// Properties that hold after the pass (and are verified under `--verify-each`).
    fn produced(&self) -> &'static [Property] {
        &[]
    }
    /// Properties the pass may break.
    fn invalidated(&self) -> &'static [Property] {
        &[]
    }
    /// Rewrites `module`. Remarks and statistics go to `ctx`.
    fn run(&self, module: &mut Module, ctx: &mut PassContext);
}

/// One named counter of one function, reported by `--stats`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statistic {
    pub function: String,
    pub name: &'static str,
    pub value: u64,
}

/// What a running pass may report besides rewriting the IR.
#[derive(Debug, Default)]
pub struct PassContext {
    /// Whether this pass should emit remarks (`--remarks`).
    pub remarks_enabled: bool,
    /// Whether statistics are collected (`--stats`).
    pub stats_enabled: bool,
    /// Remarks (and any other diagnostics) the pass emitted.
    pub diagnostics: Vec<Diagnostic>,
    /// Statistics, per function, in the order they were recorded.
    pub statistics: Vec<Statistic>,
    /// The decisions of `expand-manual-phase-fence` (with remarks on): the
    /// typed form of its remarks, for readers that need the fields.
    pub phase_fence_decisions: Vec<phase_fence::remark::Decision>,
}

impl PassContext {
    pub fn remark(&mut self, d: Diagnostic) {
        if self.remarks_enabled {
            self.diagnostics.push(d);
        }
    }

    pub fn stat(&mut self, function: &str, name: &'static str, value: u64) {
        if self.stats_enabled {
            self.statistics.push(Statistic {
                function: function.to_string(),
                name,
                value,
            });
        }
    }
}

/// The pipeline options of `pfir opt` (a plain struct: the command line's
/// clap definitions live in `crate::cli::opt::PipelineArgs`).
#[derive(Debug, Clone)]
pub struct PipelineOptions {
    /// Passes to run, in order.
    pub passes: Vec<String>,
    /// Verify, after each pass, the properties it claims to produce
    /// (`--verify-each`, the default; `--no-verify-each` turns it off).
    pub verify_each: bool,
    /// Print the IR to stderr after every pass.
    pub print_ir_after_all: bool,
    /// Print the IR to stderr after the named passes.
    pub print_ir_after: Vec<String>,
    /// Report each pass's wall time on stderr.
    pub timing: bool,
    /// Emit optimisation remarks: `None` for none, `Some` of an empty list
    /// (or of empty names) for every pass, else of the named passes.
    pub remarks: Option<Vec<String>>,
    /// Report pass statistics on stderr, per function.
    pub stats: bool,
    /// After the pipeline, check that every original task still waits for
    /// exactly the same original tasks (barriers aside).
    pub verify_deps: bool,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            passes: Vec::new(),
            verify_each: true,
            print_ir_after_all: false,
            print_ir_after: Vec::new(),
            timing: false,
            remarks: None,
            stats: false,
            verify_deps: false,
        }
    }
}

impl PipelineOptions {
    /// Options running `passes`, everything else at its default.
    pub fn with_passes(passes: &[&str]) -> PipelineOptions {
        PipelineOptions {
            passes: passes.iter().map(|s| s.to_string()).collect(),
            ..PipelineOptions::default()
        }
    }

    /// Whether produced properties are verified after each pass.
    pub fn verify_each(&self) -> bool {
        self.verify_each
    }

    /// Whether `pass` emits remarks.
    pub fn remarks_for(&self, pass: &str) -> bool {
        match &self.remarks {
            None => false,
            Some(names) => names.iter().all(|n| n.is_empty()) || names.iter().any(|n| n == pass),
        }
    }

    /// Whether the IR is printed after `pass`.
    pub fn print_after(&self, pass: &str) -> bool {
        self.print_ir_after_all || self.print_ir_after.iter().any(|n| n == pass)
    }
}

/// The list of passes for `pfir opt --help`.
pub fn passes_help() -> String {
    let mut out = String::from("Passes (for --passes, --print-ir-after and --remarks):\n");
    for p in registry::passes() {
        out.push_str(&format!("  {:<28} {}\n", p.name(), p.description()));
    }
    out
}

/// The names of all registered passes.
pub fn known_passes() -> Vec<&'static str> {
    registry::passes().iter().map(|p| p.name()).collect()
}

/// A pass name no pass has, in the option that names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPass {
    /// The name as written.
    pub name: String,
    /// The option that names it: `--passes`, `--print-ir-after` or `--remarks`.
    pub option: &'static str,
}

impl std::fmt::Display for UnknownPass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown pass '{}' in {}; known passes: {}",
            self.name,
            self.option,
            known_passes().join(", ")
        )
    }
}

impl std::error::Error for UnknownPass {}

/// Checks the options before anything is read: an unknown pass name (in
/// `--passes`, `--print-ir-after` or `--remarks=`) is a usage error.
pub fn check_pipeline(opts: &PipelineOptions) -> Result<(), UnknownPass> {
    let known = known_passes();
    let names = opts
        .passes
        .iter()
        .map(|n| ("--passes", n))
        .chain(opts.print_ir_after.iter().map(|n| ("--print-ir-after", n)))
        .chain(
            opts.remarks
                .iter()
                .flatten()
                .filter(|n| !n.is_empty())
                .map(|n| ("--remarks", n)),
        );
    for (option, name) in names {
        if !known.contains(&name.as_str()) {
            return Err(UnknownPass {
                name: name.clone(),
                option,
            });
        }
    }
    Ok(())
}

/// Runs `passes` (by name) over `module` with default options; a
/// convenience for tests and tools. Unknown names are an `Err`.
pub fn run_passes(
    module: &mut Module,
    file: &SourceFile,
    passes: &[&str],
) -> Result<PipelineResult, String> {
    let opts = PipelineOptions::with_passes(passes);
    check_pipeline(&opts).map_err(|e| e.to_string())?;
    Ok(run_pipeline(module, file, &opts))
}
