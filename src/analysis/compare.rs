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

use super::task_graph::{Limits, NodeKey, TaskGraph, function_task_graph};
use crate::diagnostics::Code;
use crate::diagnostics::Diagnostic;
use crate::ir::{Function, Module};
use std::collections::BTreeSet;

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
    let partial = before.truncated || after.truncated;
    let bp = before.task_preds_all();
    let ap = after.task_preds_all();
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
        if keys(before, &bp[i]) == keys(after, &ap[j]) {
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
    for f in &after.functions {
        let Some(b) = before.function(&f.name) else {
            return Err(Diagnostic::error(
                format!("function `{}` did not exist before the rewrite", f.name),
                f.name_span,
            )
            .with_code(Code::DependencyChanged)
            .with_label("no counterpart to compare its dependencies with"));
        };
        verify_function(b, f, limits)?;
    }
    if let Some(b) = before
        .functions
        .iter()
        .find(|b| after.function(&b.name).is_none())
    {
        return Err(Diagnostic::error(
            format!("function `{}` disappeared in the rewrite", b.name),
            b.name_span,
        )
        .with_code(Code::DependencyChanged));
    }
    Ok(())
}

/// Compares the task graphs of one function before and after a rewrite.
pub fn verify_function(
    before: &Function,
    after: &Function,
    limits: &Limits,
) -> Result<(), Diagnostic> {
    let gb = function_task_graph(before, limits);
    let ga = function_task_graph(after, limits);
    match first_difference(&gb, &ga) {
        None => Ok(()),
        Some(d) => Err(diagnose(&d, &gb, &ga, after)),
    }
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
