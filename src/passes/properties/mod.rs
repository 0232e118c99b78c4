//! IR properties: facts about a module that passes require, produce or
//! invalidate, each with a verifier over the IR.
//!
//! | property | holds when |
//! | --- | --- |
//! | [`Property::NoNestedCalls`] | no call (or `submit`) has a call anywhere among its positional arguments, keyword arguments or `deps`, lists and operator operands included |
//! | [`Property::NormalizedStmtStructure`] | see [`normalized_stmt_structure`] |
//! | [`Property::CallDirectionsResolved`] | every call and `submit` has one direction per positional argument, and for function callees they equal the callee's parameter directions |
//! | [`Property::ManualDepsOnSubmitOnly`] | no plain call carries `manual_dep_edges` unless it is a `system.task_dummy` barrier with `dummy_task = true` |
//!
//! A verifier returns one [`Violation`] per offending piece of code, pointing
//! at it; the pass manager turns them into error diagnostics.
//!
//! **One walk for several properties.** [`verify_all`] checks any set of
//! properties in one statement walk of each function, with one expression
//! walk per statement: each property module supplies its checks on a
//! statement or a call (its `Checker` or `check_call`), and the walk feeds
//! them. Each property's violations come out in the order, and with the
//! messages, it reports when checked alone ([`Property::verify`], the same
//! walk with one property on), so the manager can check everything a
//! pass requires, or everything it claims, at the cost of one walk.

pub mod call_directions_resolved;
pub mod manual_deps_on_submit_only;
pub mod no_nested_calls;
pub mod normalized_stmt_structure;

use crate::ir::walk::{Event, Walk, for_each_child, for_each_own_expr, is_leaf};
use crate::ir::{ArenaId, ExprId, ExprKind, Module, StmtKind};
use crate::span::Span;
use no_nested_calls::Outer;
use std::fmt;

/// A property of the IR that a pass may require, produce or invalidate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    NoNestedCalls,
    NormalizedStmtStructure,
    CallDirectionsResolved,
    ManualDepsOnSubmitOnly,
}

/// One place where a property does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub span: Span,
    pub message: String,
}

impl Violation {
    pub fn new(span: Span, message: impl Into<String>) -> Violation {
        Violation {
            span,
            message: message.into(),
        }
    }
}

impl Property {
    pub const ALL: [Property; 4] = [
        Property::NoNestedCalls,
        Property::NormalizedStmtStructure,
        Property::CallDirectionsResolved,
        Property::ManualDepsOnSubmitOnly,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Property::NoNestedCalls => "NoNestedCalls",
            Property::NormalizedStmtStructure => "NormalizedStmtStructure",
            Property::CallDirectionsResolved => "CallDirectionsResolved",
            Property::ManualDepsOnSubmitOnly => "ManualDepsOnSubmitOnly",
        }
    }

    /// What a pass that requires the property needs of the code, in the
    /// user's words (no property name): the end of "`<pass>` needs ...".
    pub fn requirement(self) -> &'static str {
        match self {
            Property::NoNestedCalls => "every call argument to be a variable or a literal",
            Property::NormalizedStmtStructure => {
                "flat blocks with no statement after `return`, `yield`, `break` or `continue`"
            }
            Property::CallDirectionsResolved => {
                "one direction (`in`, `out`, `inout`) per call argument"
            }
            Property::ManualDepsOnSubmitOnly => {
                "manual dependencies only on `submit` and `system.task_dummy`"
            }
        }
    }

    /// What to do about a violation, when there is one thing to do.
    pub fn fix_hint(self) -> Option<&'static str> {
        match self {
            Property::NoNestedCalls => {
                Some("bind the inner call to a variable first (`v = f(x)`), then pass the variable")
            }
            Property::NormalizedStmtStructure => Some("remove the statements that can never run"),
            Property::CallDirectionsResolved | Property::ManualDepsOnSubmitOnly => None,
        }
    }

    /// What the property demands, in one sentence.
    pub fn definition(self) -> &'static str {
        match self {
            Property::NoNestedCalls => {
                "no call may appear among the arguments, keyword arguments or `deps` of another call or `submit`"
            }
            Property::NormalizedStmtStructure => {
                "flat blocks; nothing after `return`/`yield`/`break`/`continue`; `yield` only as the last statement of a body with results, with matching arity; jumps only inside loops"
            }
            Property::CallDirectionsResolved => {
                "every call and `submit` has one direction per positional argument, matching the callee's parameters"
            }
            Property::ManualDepsOnSubmitOnly => {
                "only `submit` and `system.task_dummy` barriers carry manual dependency edges"
            }
        }
    }

    /// Checks the property over every function of `module`.
    pub fn verify(self, module: &Module) -> Vec<Violation> {
        verify_all(&[self], module)
            .pop()
            .expect("one list per property")
    }

    /// The position of the property in [`Property::ALL`].
    fn slot(self) -> usize {
        self as usize
    }
}

/// Checks every property of `props` over every function of `module`, in
/// one walk of each function. Returns one list of violations per entry of
/// `props`, in order: the list [`Property::verify`] returns for it alone.
pub fn verify_all(props: &[Property], module: &Module) -> Vec<Vec<Violation>> {
    let on = |p: Property| props.contains(&p);
    let (nested, structure, directions, manual) = (
        on(Property::NoNestedCalls),
        on(Property::NormalizedStmtStructure),
        on(Property::CallDirectionsResolved),
        on(Property::ManualDepsOnSubmitOnly),
    );
    let mut out: [Vec<Violation>; 4] = Default::default();
    let [nested_out, structure_out, directions_out, manual_out] = &mut out;
    let directions = directions.then(|| call_directions_resolved::Checker::new(module));
    let exprs = nested || directions.is_some() || manual;
    // The expression walk's work list: (expression, the call or `submit`
    // it is an argument of), reused for every statement.
    let mut work: Vec<(ExprId, Outer)> = Vec::new();
    for f in module.functions() {
        if !structure && !exprs {
            break;
        }
        let mut checker = structure.then(|| normalized_stmt_structure::Checker::new(f));
        for event in Walk::new(f) {
            let (s, site) = match event {
                Event::Enter(s, site) => (s, site),
                Event::Leave(s) => {
                    if let Some(c) = checker.as_mut() {
                        c.exit(s);
                    }
                    continue;
                }
                Event::EnterBlock { .. } | Event::LeaveBlock { .. } => continue,
            };
            if let Some(c) = checker.as_mut() {
                if !c.enter(s, site, structure_out) {
                    continue;
                }
            } else if s.index() >= f.stmts.len() {
                continue;
            }
            if !exprs {
                continue;
            }
            let stmt = &f.stmts[s];
            let outer = match stmt.kind {
                StmtKind::Submit(sub) => {
                    let sub = &f.submits[sub];
                    if let Some(d) = &directions {
                        d.submit(f, sub, stmt.span, directions_out);
                    }
                    Outer::Submit(sub.callee)
                }
                _ => Outer::None,
            };
            // Pre-order, in source order: roots and children are pushed
            // reversed onto the stack.
            work.clear();
            for_each_own_expr(f, &stmt.kind, |e| work.push((e, outer)));
            work.reverse();
            while let Some((e, outer)) = work.pop() {
                let node = &f.exprs[e];
                let inner = match node.kind {
                    ExprKind::Call(c) => {
                        let call = &f.calls[c];
                        if nested {
                            no_nested_calls::check_call(module, f, c, outer, node.span, nested_out);
                        }
                        if let Some(d) = &directions {
                            d.call(f, call, node.span, directions_out);
                        }
                        if manual {
                            manual_deps_on_submit_only::check_call(
                                module, f, call, node.span, manual_out,
                            );
                        }
                        Outer::Call(c)
                    }
                    ref k if is_leaf(k) => continue,
                    _ => outer,
                };
                let before = work.len();
                for_each_child(f, &node.kind, |k| work.push((k, inner)));
                work[before..].reverse();
            }
        }
        if let Some(c) = checker {
            c.finish(structure_out);
        }
    }
    props.iter().map(|p| out[p.slot()].clone()).collect()
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
