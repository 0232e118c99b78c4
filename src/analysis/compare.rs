//! Comparing two task graphs: does every task wait for the same tasks?
//!
//! Tasks are matched by their [`NodeKey`] (the `submit`'s pre-order position
//! plus the iteration vector), so a rewrite that only changes `deps` and
//! inserts barriers keeps every task's identity. For each task the
//! comparison looks at the set of *tasks* it transitively waits for, with
//! barriers seen through: barriers may come and go, tasks may not.
//!
//! Finding the first difference is cheap in the usual case: if every task
//! has the same barrier-transparent *direct* predecessors in both graphs,
//! the transitive sets are equal too (by induction in creation order). Only
//! for a task whose direct predecessors differ are the transitive sets
//! computed, so an edge dropped because it was implied anyway is not
//! reported.
//!
//! The direct sets are never expanded per task: every node gets the id of
//! its barrier-transparent set in an interner shared by both graphs (tasks
//! named by one id space: `before`'s index, matched by key). A node whose
//! only predecessor is a barrier or join node takes that node's id in O(1),
//! so 32,000 consumers of one array (or of one barrier) cost one set, not
//! 32,000. The sets built are bounded by [`MAX_SET_ELEMENTS`]; past it the
//! comparison stops short and says so.

use super::task_graph::{Limits, NodeKey, NodeKind, RunBudget, TaskGraph, function_task_graph};
use crate::diagnostics::Code;
use crate::diagnostics::Diagnostic;
use crate::ir::{Function, Module};
use hashbrown::HashMap;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The most set elements the comparison builds (about 4 bytes each).
pub const MAX_SET_ELEMENTS: u64 = 64_000_000;

/// Barrier-transparent sets of task ids, hash-consed.
#[derive(Default)]
struct Interner {
    ids: HashMap<Rc<[u32]>, u32>,
    sets: Vec<Rc<[u32]>>,
    elements: u64,
}

impl Interner {
    fn intern(&mut self, mut v: Vec<u32>) -> u32 {
        v.sort_unstable();
        v.dedup();
        let v: Rc<[u32]> = v.into();
        if let Some(&id) = self.ids.get(&v) {
            return id;
        }
        self.elements += v.len() as u64;
        let id = self.sets.len() as u32;
        self.sets.push(v.clone());
        self.ids.insert(v, id);
        id
    }

    /// Per node of `g`, the id of the tasks it waits for directly, barriers
    /// and join nodes seen through; `None` when the budget ran out.
    fn direct_sets(&mut self, g: &TaskGraph, canon: &dyn Fn(usize) -> u32) -> Option<Vec<u32>> {
        let mut out: Vec<u32> = Vec::with_capacity(g.nodes.len());
        let mut buf = Vec::new();
        for n in &g.nodes {
            let only = match n.preds.len() {
                1 => n.preds.first().copied(),
                _ => None,
            };
            let id = match only {
                Some(p) if g.nodes[p].key.kind != NodeKind::Task => out[p],
                _ => {
                    buf.clear();
                    for &p in &n.preds {
                        if g.nodes[p].key.kind == NodeKind::Task {
                            buf.push(canon(p));
                        } else {
                            buf.extend_from_slice(&self.sets[out[p] as usize]);
                        }
                        if self.elements + buf.len() as u64 > MAX_SET_ELEMENTS {
                            return None;
                        }
                    }
                    self.intern(std::mem::take(&mut buf))
                }
            };
            out.push(id);
        }
        Some(out)
    }
}

/// The outcome of comparing two graphs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The first difference found, if any.
    pub difference: Option<Difference>,
    /// Whether every task both graphs hold was compared (false when the
    /// comparison's own budget, [`MAX_SET_ELEMENTS`], ran out).
    pub complete: bool,
}

/// The first way two graphs differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// `consumer` waited for `producer` before, and no longer does.
    Lost {
        consumer: NodeKey,
        producer: NodeKey,
    },
    /// `consumer` waits for `producer` now, and did not before.
    Added {
        consumer: NodeKey,
        producer: NodeKey,
    },
    /// A task of the first graph that the second does not create.
    MissingTask { task: NodeKey },
    /// A task of the second graph that the first does not create.
    ExtraTask { task: NodeKey },
}

/// The first difference between `before` and `after`, in `before`'s task
/// creation order (then `after`'s, for tasks only `after` has). When either
/// graph is truncated only the tasks both have are compared.
pub fn first_difference(before: &TaskGraph, after: &TaskGraph) -> Option<Difference> {
    compare_graphs(before, after).difference
}

/// [`first_difference`], also saying whether the comparison was complete.
pub fn compare_graphs(before: &TaskGraph, after: &TaskGraph) -> Comparison {
    let mut interner = Interner::default();
    let base = before.nodes.len() as u32;
    let sets = interner.direct_sets(before, &|i| i as u32).and_then(|b| {
        let canon = |j: usize| match before.find(&after.nodes[j].key) {
            Some(i) => i as u32,
            None => base.saturating_add(j as u32),
        };
        interner.direct_sets(after, &canon).map(|a| (b, a))
    });
    let Some((bs, as_)) = sets else {
        return Comparison {
            difference: None,
            complete: false,
        };
    };
    drop(interner);
    Comparison {
        difference: difference_with(before, after, &|i, j| bs[i] == as_[j]),
        complete: true,
    }
}

fn difference_with(
    before: &TaskGraph,
    after: &TaskGraph,
    same_direct: &dyn Fn(usize, usize) -> bool,
) -> Option<Difference> {
    let partial = before.truncated || after.truncated;
    let keys = |g: &TaskGraph, s: &BTreeSet<usize>| -> BTreeSet<NodeKey> {
        s.iter().map(|&p| g.nodes[p].key.clone()).collect()
    };
    for i in before.tasks() {
        let key = &before.nodes[i].key;
        let Some(j) = after.find(key) else {
            if partial {
                continue;
            }
            return Some(Difference::MissingTask { task: key.clone() });
        };
        if same_direct(i, j) {
            continue;
        }
        let bw = before.waits_for(i);
        let aw = after.waits_for(j);
        let bk = keys(before, &bw);
        let ak = keys(after, &aw);
        if bk == ak {
            continue;
        }
        // Sets of indices iterate in creation order.
        if let Some(p) = bw.iter().find(|&&p| !ak.contains(&before.nodes[p].key)) {
            return Some(Difference::Lost {
                consumer: key.clone(),
                producer: before.nodes[*p].key.clone(),
            });
        }
        if let Some(q) = aw.iter().find(|&&q| !bk.contains(&after.nodes[q].key)) {
            return Some(Difference::Added {
                consumer: key.clone(),
                producer: after.nodes[*q].key.clone(),
            });
        }
    }
    if !partial {
        for j in after.tasks() {
            let key = &after.nodes[j].key;
            if before.find(key).is_none() {
                return Some(Difference::ExtraTask { task: key.clone() });
            }
        }
    }
    None
}

/// Checks that every task of every function of `after` waits for exactly
/// the tasks it waited for in `before` (barriers aside), with the default
/// [`Limits`]. The error names the first lost or added dependency: it points
/// at the consumer `submit` in `after`, with a note (and a secondary label)
/// naming the producer task.
pub fn verify_same_dependencies(before: &Module, after: &Module) -> Result<(), Diagnostic> {
    verify_same_dependencies_with(before, after, &Limits::default())
}

/// [`verify_same_dependencies`] with explicit limits.
pub fn verify_same_dependencies_with(
    before: &Module,
    after: &Module,
    limits: &Limits,
) -> Result<(), Diagnostic> {
    verify_dependencies(before, after, limits).map(|_| ())
}

/// The `--verify-deps` check: `Err` with the first lost or added
/// dependency, else `Ok` with a warning per function whose evaluation or
/// comparison stopped short (a budget ran out: only the tasks created
/// before that point were compared).
pub fn verify_dependencies(
    before: &Module,
    after: &Module,
    limits: &Limits,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    verify_dependencies_within(before, after, limits, &RunBudget::default())
}

/// [`verify_dependencies`] within the run budget `run`: once it is spent,
/// the remaining functions are not evaluated, and one warning names them.
pub fn verify_dependencies_within(
    before: &Module,
    after: &Module,
    limits: &Limits,
    run: &RunBudget,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    let by_name: HashMap<&str, &Function> = before
        .functions()
        .iter()
        .map(|f| (f.name.as_str(), f))
        .collect();
    let after_names: std::collections::HashSet<&str> =
        after.functions().iter().map(|f| f.name.as_str()).collect();
    let mut warnings = Vec::new();
    let mut unchecked: Vec<&Function> = Vec::new();
    for f in after.functions() {
        let Some(&b) = by_name.get(f.name.as_str()) else {
            return Err(Diagnostic::error(
                format!("function `{}` did not exist before the rewrite", f.name),
                f.name_span,
            )
            .with_code(Code::DependencyChanged)
            .with_label("no counterpart to compare its dependencies with"));
        };
        if run.exhausted() && (has_tasks(b) || has_tasks(f)) {
            unchecked.push(f);
            continue;
        }
        warnings.extend(verify_function_within(before, b, after, f, limits, run)?);
    }
    if let Some(first) = unchecked.first() {
        let names: Vec<String> = unchecked
            .iter()
            .take(5)
            .map(|f| format!("`{}`", f.name))
            .collect();
        let more = unchecked.len().saturating_sub(names.len());
        let names = if more > 0 {
            format!("{} and {more} more", names.join(", "))
        } else {
            names.join(", ")
        };
        warnings.push(
            Diagnostic::warning(
                format!(
                    "--verify-deps stopped short: the run's work budget ({} units, shared by every function) ran out; {} not checked: {names}",
                    run.max_work(),
                    crate::diagnostics::count(unchecked.len() as u64, "function was", "functions were"),
                ),
                first.name_span,
            )
            .with_label("dependencies not checked from here on")
            .with_note(
                "no lost or added dependency was found in the functions checked \
                 (see docs/dependency-evaluator.md, Budgets)",
            ),
        );
    }
    if let Some(b) = before
        .functions()
        .iter()
        .find(|b| !after_names.contains(b.name.as_str()))
    {
        return Err(Diagnostic::error(
            format!("function `{}` disappeared in the rewrite", b.name),
            b.name_span,
        )
        .with_code(Code::DependencyChanged));
    }
    Ok(warnings)
}

/// Compares the task graphs of one function before and after a rewrite:
/// `Ok` with the "stopped short" warning when a budget ran out.
pub fn verify_function(
    before_module: &Module,
    before: &Function,
    after_module: &Module,
    after: &Function,
    limits: &Limits,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    let run = RunBudget::new(u64::MAX);
    verify_function_within(before_module, before, after_module, after, limits, &run)
}

/// [`verify_function`], each side's evaluation within what is left of
/// `run` (and spending from it).
fn verify_function_within(
    before_module: &Module,
    before: &Function,
    after_module: &Module,
    after: &Function,
    limits: &Limits,
    run: &RunBudget,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    if !has_tasks(before) && !has_tasks(after) {
        return Ok(Vec::new());
    }
    let gb = function_task_graph(before_module, before, &run.limits(limits));
    run.spend(&gb);
    let ga = function_task_graph(after_module, after, &run.limits(limits));
    run.spend(&ga);
    let c = compare_graphs(&gb, &ga);
    if let Some(d) = c.difference {
        return Err(diagnose(&d, &gb, &ga, after));
    }
    let why = match (gb.stopped_by.or(ga.stopped_by), c.complete) {
        // A work budget cut to what was left of the run's.
        (Some(super::Budget::Work(n)), _) if n < limits.max_work => format!(
            "the run's work budget ({} units, shared by every function) ran out after {} of its tasks",
            run.max_work(),
            gb.task_count().min(ga.task_count())
        ),
        (Some(b), _) => format!(
            "{b} ran out after {} of its tasks",
            gb.task_count().min(ga.task_count())
        ),
        (None, false) => format!("the comparison budget ({MAX_SET_ELEMENTS} set elements) ran out"),
        (None, true) => return Ok(Vec::new()),
    };
    Ok(vec![
        Diagnostic::warning(
            format!("--verify-deps stopped short in `{}`: {why}", after.name),
            after.name_span,
        )
        .with_label("dependencies only partly checked")
        .with_note(
            "no lost or added dependency was found among the tasks compared; \
             the rest of the function was not checked (see docs/dependency-evaluator.md, Budgets)",
        ),
    ])
}

/// Whether `f` has a `submit` or `system.task_dummy` at all (a function
/// without one has an empty task graph on both sides: nothing to expand).
fn has_tasks(f: &Function) -> bool {
    use crate::ir::{ExprKind, StmtKind};
    f.stmts.iter().any(|(_, s)| matches!(s.kind, StmtKind::Submit(_)))
        || f.exprs
            .iter()
            .any(|(_, e)| matches!(e.kind, ExprKind::Call(c) if f.calls[c].dummy_task || f.calls[c].builtin == Some(crate::ir::BuiltinOp::TaskDummy)))
}

/// Turns a difference into a diagnostic about `after` (`ga` is its graph).
pub fn diagnose(d: &Difference, gb: &TaskGraph, ga: &TaskGraph, after: &Function) -> Diagnostic {
    let span_of = |i: usize| after.stmts[ga.nodes[i].stmt].span;
    match d {
        Difference::Lost { consumer, producer } | Difference::Added { consumer, producer } => {
            let lost = matches!(d, Difference::Lost { .. });
            let c = ga.find(consumer).expect("consumer is in the graph after");
            let (producer_desc, producer_span) = match ga.find(producer) {
                Some(p) => (ga.describe(p), Some(span_of(p))),
                None => (
                    gb.find(producer)
                        .map(|p| gb.describe(p))
                        .unwrap_or_default(),
                    None,
                ),
            };
            let (message, label) = if lost {
                (
                    format!(
                        "dependency lost in `{}`: {} no longer waits for {}",
                        after.name,
                        ga.describe(c),
                        producer_desc
                    ),
                    "this task no longer waits for its producer",
                )
            } else {
                (
                    format!(
                        "dependency added in `{}`: {} now waits for {}, which it did not before",
                        after.name,
                        ga.describe(c),
                        producer_desc
                    ),
                    "this task gained a producer",
                )
            };
            let mut diag = Diagnostic::error(message, span_of(c))
                .with_code(Code::DependencyChanged)
                .with_label(label)
                .with_note(format!("the producer is {producer_desc}"));
            if let Some(s) = producer_span {
                diag = diag.with_secondary(s, "producer");
            }
            diag
        }
        Difference::MissingTask { task } => {
            let desc = gb.find(task).map(|i| gb.describe(i)).unwrap_or_default();
            Diagnostic::error(
                format!(
                    "{desc} of `{}` is no longer created after the rewrite",
                    after.name
                ),
                after.name_span,
            )
            .with_code(Code::DependencyChanged)
        }
        Difference::ExtraTask { task } => {
            let i = ga.find(task).expect("task is in the graph after");
            Diagnostic::error(
                format!(
                    "{} of `{}` did not exist before the rewrite",
                    ga.describe(i),
                    after.name
                ),
                span_of(i),
            )
            .with_code(Code::DependencyChanged)
            .with_label("new task")
        }
    }
}
