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
//! [`Run`] deduplicates programs by their canonical printed text (a 128-bit
//! hash of it), so its counts are counts of distinct programs.

use crate::analysis::{Limits, verify_dependencies};
use crate::ir::{ExprKind, Function, Module, StmtId, StmtKind};
use crate::passes::exhaustive::oracle::{self, Decisions, Rule};
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

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
        }
    }
}

/// What checking one program found.
pub struct Checked {
    /// The canonical text of the input (what deduplication keys on).
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

/// One size's results.
#[derive(Clone, Debug, Default)]
pub struct SizeReport {
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

/// What one thread found: counts, and per failing check and per rule the
/// earliest program (by enumeration index).
#[derive(Default)]
struct Partial {
    programs: u64,
    duplicates: u64,
    failures: BTreeMap<&'static str, (u64, usize, String, Failure)>,
    first_for_rule: BTreeMap<Rule, (usize, String)>,
}

/// How [`run_size`] runs.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// Threads; each takes every `threads`-th program.
    pub threads: usize,
    /// Stop at the first failing program (to find a deliberate break fast).
    pub fail_fast: bool,
    /// `(i, n)`: check only the programs whose enumeration index is `i`
    /// modulo `n` (`(0, 1)`: all of them).
    pub shard: (usize, usize),
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: 1,
            fail_fast: false,
            shard: (0, 1),
        }
    }
}

/// Checks every program of exactly `size` (of its shard); `seen`
/// deduplicates across threads and sizes.
pub fn run_size(size: usize, opts: RunOptions, seen: &Mutex<HashSet<u128>>) -> SizeReport {
    let threads = opts.threads.max(1);
    let (shard, shards) = (opts.shard.0, opts.shard.1.max(1));
    let stop = AtomicBool::new(false);
    let stop = &stop;
    let partials: Vec<Partial> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut p = Partial::default();
                    let mut i = 0usize;
                    crate::passes::exhaustive::for_each_program(size, &mut |text| {
                        let n = i;
                        i += 1;
                        if n % shards != shard
                            || (n / shards) % threads != t
                            || stop.load(Ordering::Relaxed)
                        {
                            return;
                        }
                        let c = check_program(text);
                        if opts.fail_fast && c.failure.is_some() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        if !seen.lock().expect("dedup set").insert(key(&c.canonical)) {
                            p.duplicates += 1;
                            return;
                        }
                        p.programs += 1;
                        for r in &c.rules {
                            p.first_for_rule
                                .entry(*r)
                                .or_insert_with(|| (n, c.canonical.clone()));
                        }
                        if let Some(f) = c.failure {
                            let e = p
                                .failures
                                .entry(f.check())
                                .or_insert_with(|| (0, n, c.canonical.clone(), f));
                            e.0 += 1;
                        }
                    });
                    p
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("checker thread"))
            .collect()
    });
    let mut report = SizeReport {
        size,
        ..SizeReport::default()
    };
    let mut failures: BTreeMap<&'static str, (u64, usize, String, Failure)> = BTreeMap::new();
    let mut firsts: BTreeMap<Rule, (usize, String)> = BTreeMap::new();
    for p in partials {
        report.programs += p.programs;
        report.duplicates += p.duplicates;
        for (check, (count, n, text, f)) in p.failures {
            let e = failures
                .entry(check)
                .or_insert((0, n, text.clone(), f.clone()));
            e.0 += count;
            if n < e.1 {
                (e.1, e.2, e.3) = (n, text, f);
            }
        }
        for (r, (n, text)) in p.first_for_rule {
            let e = firsts.entry(r).or_insert((n, text.clone()));
            if n < e.0 {
                *e = (n, text);
            }
        }
    }
    report.failures = failures
        .into_iter()
        .map(|(c, (count, _, text, f))| (c, (count, text, f)))
        .collect();
    report.first_for_rule = firsts.into_iter().map(|(r, (_, t))| (r, t)).collect();
    report
}
