//! The three checks of the bounded-exhaustive run, on one program text
//! (every program of `passes::exhaustive`, up to a size; `cargo test` and
//! `cargo bench --bench exhaustive` both run them):
//!
//! 1. **dependencies**: the task graphs before and after the pass are the
//!    same for every task (`--verify-deps`' evaluator), with no budget
//!    warning;
//! 2. **idempotence and round trip**: running the pass on its output
//!    changes nothing, and the printed output reads back and prints the
//!    same;
//! 3. **decisions**: the oracle (`passes::exhaustive::oracle`, written from
//!    the pass page alone) compresses the same (loop, array) pairs, in the
//!    same order, rewriting the same consumers.
//!
//! [`run_size`] deduplicates programs by their canonical printed text (a
//! 128-bit hash of it), so its counts are counts of distinct programs.

use crate::analysis::{Limits, verify_dependencies};
use crate::ir::{ExprKind, Function, Module, StmtId, StmtKind};
use crate::passes::exhaustive::oracle::{self, Decisions, Rule};
use crate::passes::exhaustive::{Extent, for_each_program};
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};

/// Which check failed, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The program (or the pass's output) was rejected.
    Rejected(String),
    /// A dependency was lost or added, or the evaluator stopped short.
    Dependencies(String),
    /// Running the pass again changed the output.
    NotIdempotent(String),
    /// The printed output does not read back to the same text.
    RoundTrip(String),
    /// The oracle and the pass decided differently.
    Decisions { pass: Decisions, oracle: Decisions },
    /// Checking it panicked (the message): reported as the program's
    /// failure, so that the run goes on and names the smallest such program.
    Panicked(String),
}

impl Failure {
    /// The check's name, as the reports print it.
    pub fn check(&self) -> &'static str {
        match self {
            Failure::Rejected(_) => "rejected",
            Failure::Dependencies(_) => "dependencies",
            Failure::NotIdempotent(_) => "idempotence",
            Failure::RoundTrip(_) => "round trip",
            Failure::Decisions { .. } => "decisions",
            Failure::Panicked(_) => "panic",
        }
    }
}

/// What checking one program found.
pub struct Checked {
    /// The canonical text of the input (what deduplication keys on), or
    /// the input itself when it was rejected.
    pub canonical: String,
    /// The rules of the pass page that decided something in it.
    pub rules: std::collections::BTreeSet<Rule>,
    pub failure: Option<Failure>,
}

const PASS: &str = crate::passes::expand_manual_phase_fence::NAME;

fn read(text: &str) -> Result<Module, String> {
    match crate::frontend::read_module(text, crate::frontend::ReadOptions::at(0)).into_parts() {
        (Some(m), _) => Ok(m),
        (None, diags) => Err(diags
            .iter()
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
            .join("; ")),
    }
}

fn run_pass(m: &mut Module, text: &str) -> Result<(), String> {
    let file = crate::diagnostics::SourceFile::new("exhaustive.pfir", text);
    let opts = crate::passes::PipelineOptions::with_passes(&[PASS]);
    let r = crate::passes::run_pipeline(m, &file, &opts);
    if crate::diagnostics::has_errors(&r.diagnostics) {
        Err(r
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
            .join("; "))
    } else {
        Ok(())
    }
}

/// The pass's decisions, read off its output: each barrier
/// `phase_fence_barrier_K_tid = system.task_dummy(deps=[A])` belongs to the
/// `for` loop that follows it in its block; barriers in K order; consumers
/// are the `submit`s whose only dependency is a barrier.
pub fn decisions_in_output(f: &Function) -> Decisions {
    struct Walk<'f> {
        f: &'f Function,
        loops: u32,
        submits: u32,
        // K -> (loop number, array name, barrier variable)
        barriers: BTreeMap<u64, (u32, String, crate::ir::VarId)>,
        uses: Vec<(u32, crate::ir::VarId)>,
    }
    impl Walk<'_> {
        fn block(&mut self, stmts: &[StmtId]) {
            let f = self.f;
            let mut pending: Vec<(u64, String, crate::ir::VarId)> = Vec::new();
            for &s in stmts {
                match f.stmts[s].kind {
                    StmtKind::Assign { results, value } => {
                        if let (Some(c), [v]) = (f.call(value), f.list(results))
                            && c.dummy_task
                            && let Some(k) = f
                                .var_name(*v)
                                .strip_prefix("phase_fence_barrier_")
                                .and_then(|r| r.strip_suffix("_tid"))
                                .and_then(|d| d.parse::<u64>().ok())
                        {
                            let array = match f.list(c.manual_dep_edges) {
                                [e] => match f.exprs[*e].kind {
                                    ExprKind::Var(a) => f.var_name(a).to_string(),
                                    _ => "?".into(),
                                },
                                _ => "?".into(),
                            };
                            pending.push((k, array, *v));
                        }
                    }
                    StmtKind::Submit(sub) => {
                        if let [d] = f.list(f.submits[sub].deps)
                            && let ExprKind::Var(v) = f.exprs[*d].kind
                        {
                            self.uses.push((self.submits, v));
                        }
                        self.submits += 1;
                    }
                    StmtKind::For(_) => {
                        let n = self.loops;
                        self.loops += 1;
                        for (k, a, v) in pending.drain(..) {
                            self.barriers.insert(k, (n, a, v));
                        }
                    }
                    _ => {}
                }
                // A barrier not followed by a loop: loop number u32::MAX.
                if !matches!(f.stmts[s].kind, StmtKind::Assign { .. } | StmtKind::For(_)) {
                    for (k, a, v) in pending.drain(..) {
                        self.barriers.insert(k, (u32::MAX, a, v));
                    }
                }
                for b in f.blocks(&f.stmts[s].kind) {
                    self.block(f.block_stmts(b));
                }
            }
            for (k, a, v) in pending.drain(..) {
                self.barriers.insert(k, (u32::MAX, a, v));
            }
        }
    }
    let mut w = Walk {
        f,
        loops: 0,
        submits: 0,
        barriers: BTreeMap::new(),
        uses: Vec::new(),
    };
    w.block(f.block_stmts(&f.body));
    let order: Vec<crate::ir::VarId> = w.barriers.values().map(|b| b.2).collect();
    Decisions {
        barriers: w
            .barriers
            .values()
            .map(|(l, a, _)| (*l, a.clone()))
            .collect(),
        rewritten: w
            .uses
            .iter()
            .filter_map(|&(s, v)| order.iter().position(|&b| b == v).map(|i| (s, i)))
            .collect(),
    }
}

/// Runs the three checks on `text`.
pub fn check_program(text: &str) -> Checked {
    let mut out = Checked {
        canonical: String::new(),
        rules: Default::default(),
        failure: None,
    };
    let before = match read(text) {
        Ok(m) => m,
        Err(e) => {
            // The input stands for itself (it has no canonical form).
            out.canonical = text.to_string();
            out.failure = Some(Failure::Rejected(e));
            return out;
        }
    };
    out.canonical = crate::printer::print_module(&before);
    out.failure = checks(&before, &out.canonical, &mut out.rules).err();
    out
}

fn checks(
    before: &Module,
    canonical: &str,
    rules: &mut std::collections::BTreeSet<Rule>,
) -> Result<(), Failure> {
    let mut after = before.clone();
    run_pass(&mut after, canonical).map_err(Failure::Rejected)?;
    // 1. Dependencies, exactly (a budget warning is a failure here).
    match verify_dependencies(before, &after, &Limits::default()) {
        Err(d) => {
            return Err(Failure::Dependencies(format!(
                "{} {:?}",
                d.message, d.notes
            )));
        }
        Ok(w) if !w.is_empty() => {
            return Err(Failure::Dependencies(format!(
                "stopped short: {}",
                w[0].message
            )));
        }
        Ok(_) => {}
    }
    // 2. Idempotence and round trip.
    let printed = crate::printer::print_module(&after);
    let mut twice = after.clone();
    run_pass(&mut twice, &printed).map_err(Failure::Rejected)?;
    let printed_twice = crate::printer::print_module(&twice);
    if printed_twice != printed {
        return Err(Failure::NotIdempotent(printed_twice));
    }
    let reread = read(&printed).map_err(Failure::RoundTrip)?;
    let printed_again = crate::printer::print_module(&reread);
    if printed_again != printed {
        return Err(Failure::RoundTrip(printed_again));
    }
    // 3. Decisions.
    for (fb, fa) in before.functions().iter().zip(after.functions()) {
        let o = oracle::decide(fb);
        rules.extend(o.rules.iter().copied());
        let mut pass = decisions_in_output(fa);
        let mut expected = o.decisions;
        pass.rewritten.sort();
        expected.rewritten.sort();
        if pass != expected {
            return Err(Failure::Decisions {
                pass,
                oracle: expected,
            });
        }
    }
    Ok(())
}

/// `check(text)`, with a panic turned into the program's failure.
fn panic_as_failure(text: &str, check: fn(&str) -> Checked) -> Checked {
    std::panic::catch_unwind(|| check(text)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|m| m.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Checked {
            canonical: text.to_string(),
            rules: Default::default(),
            failure: Some(Failure::Panicked(message)),
        }
    })
}

/// A 128-bit hash of a program's canonical text.
fn key(text: &str) -> u128 {
    let mut a = std::collections::hash_map::DefaultHasher::new();
    let mut b = std::collections::hash_map::DefaultHasher::new();
    0u8.hash(&mut a);
    1u8.hash(&mut b);
    text.hash(&mut a);
    text.hash(&mut b);
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// One size's results, at one extent.
#[derive(Clone, Debug)]
pub struct SizeReport {
    pub extent: Extent,
    pub size: usize,
    /// Distinct programs checked (by canonical text).
    pub programs: u64,
    /// Programs enumerated that were a duplicate of an earlier one.
    pub duplicates: u64,
    /// Failures per check name, with the first failing program of each.
    pub failures: BTreeMap<&'static str, (u64, String, Failure)>,
    /// Per rule, the first program (in enumeration order) it decided in.
    pub first_for_rule: BTreeMap<Rule, String>,
}

impl SizeReport {
    pub fn failed(&self) -> u64 {
        self.failures.values().map(|f| f.0).sum()
    }
}

/// How [`run_size`] runs.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// Programs checked at once (through `fsutil::parallel`).
    pub jobs: usize,
    /// Stop at the first failing program (to find a deliberate break fast).
    pub fail_fast: bool,
    /// `(i, n)`: check only the programs whose enumeration index is `i`
    /// modulo `n` (`(0, 1)`: all of them).
    pub shard: (usize, usize),
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            jobs: 1,
            fail_fast: false,
            shard: (0, 1),
        }
    }
}

/// Programs enumerated before they are checked together: enough to keep
/// every job busy, few enough to hold in memory (size 5 has millions).
const BATCH: usize = 1024;

/// Checks every program of exactly `size` whose arrays have `extent` (of
/// its shard). The enumeration and the counting stay on the calling
/// thread; each batch of programs is checked by `fsutil::parallel`.
/// `seen` deduplicates across sizes and extents.
pub fn run_size(
    extent: Extent,
    size: usize,
    opts: RunOptions,
    seen: &mut HashSet<u128>,
) -> SizeReport {
    let (shard, shards) = (opts.shard.0, opts.shard.1.max(1));
    let mut report = SizeReport {
        extent,
        size,
        programs: 0,
        duplicates: 0,
        failures: BTreeMap::new(),
        first_for_rule: BTreeMap::new(),
    };
    let mut batch: Vec<String> = Vec::with_capacity(BATCH);
    let mut index = 0usize;
    let mut stopped = false;
    for_each_program(extent, size, &mut |text| {
        let n = index;
        index += 1;
        if stopped || n % shards != shard {
            return;
        }
        batch.push(text.to_string());
        if batch.len() == BATCH {
            stopped = check_batch(&mut batch, opts, seen, &mut report);
        }
    });
    if !stopped {
        check_batch(&mut batch, opts, seen, &mut report);
    }
    report
}

/// Checks the programs of `batch` (emptied) and adds them to `report`, in
/// enumeration order; with `fail_fast`, up to the first failing one.
/// Whether that one was found.
fn check_batch(
    batch: &mut Vec<String>,
    opts: RunOptions,
    seen: &mut HashSet<u128>,
    report: &mut SizeReport,
) -> bool {
    let checked = fsutil::parallel::map(batch, opts.jobs, |text| {
        panic_as_failure(text, check_program)
    });
    batch.clear();
    for c in checked {
        if !seen.insert(key(&c.canonical)) {
            report.duplicates += 1;
            continue;
        }
        report.programs += 1;
        for r in &c.rules {
            report
                .first_for_rule
                .entry(*r)
                .or_insert_with(|| c.canonical.clone());
        }
        if let Some(f) = c.failure {
            let e = report
                .failures
                .entry(f.check())
                .or_insert_with(|| (0, c.canonical.clone(), f));
            e.0 += 1;
            if opts.fail_fast {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_check_is_the_programs_failure() {
        let c = panic_as_failure("p", |_| panic!("attempt to subtract with overflow"));
        assert_eq!(c.canonical, "p");
        assert_eq!(
            c.failure,
            Some(Failure::Panicked(
                "attempt to subtract with overflow".to_string()
            ))
        );
        // A formatted message is a `String` payload.
        let c = panic_as_failure("q", |t| panic!("index {} out of range", t.len()));
        assert_eq!(
            c.failure,
            Some(Failure::Panicked("index 1 out of range".to_string()))
        );
        assert_eq!(c.failure.map(|f| f.check()), Some("panic"));
        let fine = panic_as_failure("r", |t| Checked {
            canonical: t.to_uppercase(),
            rules: Default::default(),
            failure: None,
        });
        assert_eq!((fine.canonical.as_str(), fine.failure), ("R", None));
    }
}
