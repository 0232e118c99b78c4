//! The pass manager: runs a pipeline of passes over a module.
//!
//! For each pass, in order:
//!
//! 1. its required properties are verified (except those a previous,
//!    verified pass established and no pass invalidated since), all in one
//!    walk of each function ([`verify_all`]). Every
//!    violation becomes an error diagnostic at the offending code,
//!    "`<pass>` needs `<what the property demands>`" (in the user's words,
//!    with what to do as help), and the pipeline stops: the pass
//!    does not run;
//! 2. the pass runs (timed under `--timing`), with remarks enabled under
//!    `--remarks`/`--remarks=NAME` and statistics under `--stats`;
//! 3. under `--verify-each` (the default) the IR is checked to be well
//!    formed ([`crate::ir::verify`]: an error is a diagnostic "after
//!    `<pass>`, the IR is not well formed (a bug in the pass)"), and the
//!    properties it claims to
//!    produce, and the module-wide invariant ManualDepsOnSubmitOnly, are
//!    verified (again in one walk); a violation is an error diagnostic ("after `<pass>`, the code
//!    no longer has ... (a bug in the pass)") and the pipeline stops.
//!    Without `--verify-each`, debug builds still assert that the IR is
//!    well formed after every pass;
//! 4. under `--print-ir-after-all` / `--print-ir-after=NAME` the IR is
//!    printed to stderr after a header
//!    `// -----// IR Dump After <pass> //----- //`.
//!
//! After the pipeline, `--timing` writes a wall-time report and `--stats`
//! a statistics report (both to stderr).

use super::properties::{Property, Violation, verify_all};
use super::{PassContext, PipelineOptions, Statistic, registry};
use crate::diagnostics::Code;
use crate::diagnostics::{Diagnostic, SourceFile};
use crate::ir::Module;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// What running a pipeline reported.
#[derive(Debug, Default)]
pub struct PipelineResult {
    /// Errors (violated properties) and remarks.
    pub diagnostics: Vec<Diagnostic>,
    /// IR dumps, the timing report and statistics, for stderr.
    pub stderr: String,
    /// The typed decisions behind `expand-manual-phase-fence`'s remarks.
    pub phase_fence_decisions: Vec<super::phase_fence::remark::Decision>,
}

/// The largest IR dump kept for stderr. Deeply nested IR prints
/// quadratically (two spaces of indentation per level), so a dump is cut
/// here rather than exhausting memory.
pub const MAX_IR_DUMP_BYTES: usize = 256 << 20;

/// Prints `module` for an IR dump, cut after `limit` bytes (with a note).
pub fn dump_ir(module: &Module, limit: usize) -> String {
    let mut sink = crate::printer::render::BoundedBuffer::new(limit);
    let complete = crate::printer::write_module(module, &mut sink).is_ok();
    let mut text = String::from_utf8_lossy(&sink.into_bytes()).into_owned();
    if !complete {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("// ... IR dump cut after {limit} bytes\n"));
    }
    text
}

/// The header printed before an IR dump.
pub fn dump_header(pass: &str) -> String {
    format!("// -----// IR Dump After {pass} //----- //\n")
}

fn violation_diagnostics(
    message: &str,
    property: Property,
    violations: Vec<Violation>,
) -> impl Iterator<Item = Diagnostic> + '_ {
    violations.into_iter().map(move |v| {
        let d = Diagnostic::error(message.to_string(), v.span)
            .with_code(Code::PassRequirement)
            .with_label(v.message)
            .with_note(property.definition());
        match property.fix_hint() {
            Some(hint) => d.with_help(hint),
            None => d,
        }
    })
}

/// The errors of [`crate::ir::verify`] after `pass`, as diagnostics at the
/// node each is about.
fn malformed_ir_diagnostics(
    pass: &str,
    errors: Vec<crate::ir::verify::VerifyError>,
) -> impl Iterator<Item = Diagnostic> + '_ {
    errors.into_iter().map(move |e| {
        Diagnostic::error(
            format!("after `{pass}`, the IR is not well formed (a bug in the pass)"),
            e.span,
        )
        .with_code(Code::PassRequirement)
        .with_label(e.kind.to_string())
        .with_note(e.to_string())
    })
}

/// Checks `props` on `module` in one walk: the ones that hold join
/// `established`; each that does not leaves it and is reported under
/// `message(prop)`. True when one did not hold.
fn check_properties(
    props: Vec<Property>,
    module: &Module,
    established: &mut BTreeSet<Property>,
    diagnostics: &mut Vec<Diagnostic>,
    message: impl Fn(Property) -> String,
) -> bool {
    let mut failed = false;
    let found = verify_all(&props, module);
    for (prop, violations) in props.into_iter().zip(found) {
        if violations.is_empty() {
            established.insert(prop);
        } else {
            failed = true;
            established.remove(&prop);
            diagnostics.extend(violation_diagnostics(&message(prop), prop, violations));
        }
    }
    failed
}

/// After `pass`: the IR is well formed and has the properties the pass
/// produces (and `ManualDepsOnSubmitOnly`). True when it is not.
fn verify_after(
    pass: &dyn super::Pass,
    module: &Module,
    established: &mut BTreeSet<Property>,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let mut failed = false;
    if let Err(errors) = crate::ir::verify::verify_module(module) {
        failed = true;
        diagnostics.extend(malformed_ir_diagnostics(pass.name(), errors));
    }
    let mut to_check: Vec<Property> = pass.produced().to_vec();
    if !to_check.contains(&Property::ManualDepsOnSubmitOnly) {
        to_check.push(Property::ManualDepsOnSubmitOnly);
    }
    let message = |prop: Property| {
        format!(
            "after `{}`, the code no longer has {} (a bug in the pass)",
            pass.name(),
            prop.requirement()
        )
    };
    check_properties(to_check, module, established, diagnostics, message) || failed
}

/// What a run of the pipeline gathers besides its result.
#[derive(Default)]
struct Gathered {
    established: BTreeSet<Property>,
    timings: Vec<(&'static str, Duration)>,
    statistics: Vec<(&'static str, Vec<Statistic>)>,
}

/// Runs one pass of the pipeline: its required properties, the pass, the
/// IR's checks and dumps. False when the pipeline stops here.
fn run_one(
    pass: &dyn super::Pass,
    module: &mut Module,
    opts: &PipelineOptions,
    result: &mut PipelineResult,
    g: &mut Gathered,
) -> bool {
    // 1. Required properties, everything still to check in one walk.
    let to_check: Vec<Property> = pass
        .required()
        .iter()
        .copied()
        .filter(|p| !g.established.contains(p))
        .collect();
    let message = |prop: Property| format!("`{}` needs {}", pass.name(), prop.requirement());
    if check_properties(
        to_check,
        module,
        &mut g.established,
        &mut result.diagnostics,
        message,
    ) {
        return false;
    }
    // 2. Run.
    let mut ctx = PassContext {
        remarks_enabled: opts.remarks_for(pass.name()),
        stats_enabled: opts.stats,
        ..PassContext::default()
    };
    let start = Instant::now();
    pass.run(module, &mut ctx);
    g.timings.push((pass.name(), start.elapsed()));
    result.diagnostics.append(&mut ctx.diagnostics);
    result
        .phase_fence_decisions
        .append(&mut ctx.phase_fence_decisions);
    if opts.stats {
        g.statistics
            .push((pass.name(), std::mem::take(&mut ctx.statistics)));
    }
    for prop in pass.invalidated() {
        g.established.remove(prop);
    }
    // 3. Well-formed IR, and the produced properties.
    let mut failed = false;
    if opts.verify_each() {
        failed = verify_after(pass, module, &mut g.established, &mut result.diagnostics);
    } else {
        // Trust the declaration; nothing was verified.
        g.established.extend(pass.produced().iter().copied());
        #[cfg(debug_assertions)]
        if let Err(errors) = crate::ir::verify::verify_module(module) {
            panic!(
                "after `{}`, the IR is not well formed: {}",
                pass.name(),
                errors[0]
            );
        }
    }
    // 4. IR dumps.
    if opts.print_after(pass.name()) {
        result.stderr.push_str(&dump_header(pass.name()));
        result.stderr.push_str(&dump_ir(module, MAX_IR_DUMP_BYTES));
    }
    !failed
}

/// Runs the pipeline of `opts` over `module`. Unknown pass names (which
/// [`super::check_pipeline`] rejects up front) are reported as errors.
pub fn run_pipeline(
    module: &mut Module,
    file: &SourceFile,
    opts: &PipelineOptions,
) -> PipelineResult {
    let _ = file;
    let mut result = PipelineResult::default();
    // `--verify-deps` compares against the module as it was read.
    let before = opts.verify_deps.then(|| module.clone());
    let mut g = Gathered::default();
    let total_start = Instant::now();
    for name in &opts.passes {
        let Some(pass) = registry::lookup(name) else {
            result.diagnostics.push(
                Diagnostic::error(
                    format!("unknown pass '{name}'"),
                    crate::span::Span::default(),
                )
                .with_code(Code::UnknownPass),
            );
            break;
        };
        if !run_one(pass, module, opts, &mut result, &mut g) {
            break;
        }
    }
    if opts.timing {
        result
            .stderr
            .push_str(&timing_report(&g.timings, total_start.elapsed()));
    }
    if opts.stats {
        result.stderr.push_str(&stats_report(&g.statistics));
    }
    if let Some(before) = before
        && !crate::diagnostics::has_errors(&result.diagnostics)
    {
        match crate::analysis::verify_dependencies(
            &before,
            module,
            &crate::analysis::Limits::default(),
        ) {
            Ok(warnings) => result.diagnostics.extend(warnings),
            Err(d) => result.diagnostics.push(d),
        }
    }
    result
}

const RULE: &str =
    "===-------------------------------------------------------------------------===";

fn report_title(title: &str) -> String {
    let pad = (RULE.len().saturating_sub(title.len())) / 2;
    format!("{RULE}\n{:pad$}{title}\n{RULE}\n", "")
}

/// The `--timing` report: total and per-pass wall time.
pub fn timing_report(timings: &[(&str, Duration)], total: Duration) -> String {
    let mut out = report_title("... Execution time report ...");
    let total_s = total.as_secs_f64();
    let _ = writeln!(out, "  Total Execution Time: {total_s:.6} seconds\n");
    let _ = writeln!(out, "  ----Wall Time----  ----Name----");
    for (name, d) in timings {
        let s = d.as_secs_f64();
        let pct = if total_s > 0.0 {
            100.0 * s / total_s
        } else {
            0.0
        };
        let _ = writeln!(out, "  {s:10.6} ({pct:5.1}%)  {name}");
    }
    let _ = writeln!(out, "  {total_s:10.6} (100.0%)  Total");
    out
}

/// The `--stats` report: per pass, per function, each counter.
pub fn stats_report(stats: &[(&str, Vec<Statistic>)]) -> String {
    let mut out = report_title("... Pass statistics report ...");
    for (pass, entries) in stats {
        let _ = writeln!(out, "{pass}");
        let mut current: Option<&str> = None;
        for s in entries {
            if current != Some(s.function.as_str()) {
                let _ = writeln!(out, "  function '{}'", s.function);
                current = Some(&s.function);
            }
            let _ = writeln!(out, "    {:>8} {}", s.value, s.name);
        }
    }
    out
}
