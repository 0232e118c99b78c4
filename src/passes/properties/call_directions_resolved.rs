//! CallDirectionsResolved: every call-like node knows its argument directions.
//!
//! Every call and `submit` has exactly one direction per positional
//! argument. When the callee is a function of the module, the directions are
//! the callee's parameter directions, in order (so the argument count also
//! matches the parameter count). Ops take `in` arguments only.

use super::Violation;
use crate::diagnostics::count;
use crate::ir::{ArenaId, Call, Direction, Directions, FuncId, Function, Module, Submit};
use crate::span::Span;

/// What is checked, for messages: written only when there is a violation
/// (no string per call or `submit` otherwise).
enum What<'a> {
    Submit(&'a str),
    Call(&'a str),
}

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            What::Submit(name) => write!(f, "submit of `{name}`"),
            What::Call(name) => write!(f, "call of `{name}`"),
        }
    }
}

/// The property's checks, fed by the verifiers' shared walk
/// ([`super::verify_all`]): [`Checker::submit`] on each `submit`
/// statement, [`Checker::call`] on each call expression.
pub(super) struct Checker<'m> {
    module: &'m Module,
    /// Per function of the module, its parameters' directions.
    signatures: Vec<Vec<Direction>>,
}

impl<'m> Checker<'m> {
    pub(super) fn new(module: &'m Module) -> Self {
        Checker {
            module,
            signatures: module
                .functions()
                .iter()
                .map(|f| f.params.iter().map(|p| p.direction).collect())
                .collect(),
        }
    }

    /// A `submit` statement of `f`.
    pub(super) fn submit(&self, f: &Function, sub: &Submit, span: Span, out: &mut Vec<Violation>) {
        let nargs = f.list(sub.args).len();
        let dirs = f.directions(sub.arg_directions);
        let callee = sub.callee.function();
        if self.fits(callee, nargs, dirs) {
            return;
        }
        let what = What::Submit(f.callee_name(self.module, sub.callee));
        self.report(what, callee, nargs, dirs, span, out);
    }

    /// A call expression of `f`.
    pub(super) fn call(&self, f: &Function, call: &Call, span: Span, out: &mut Vec<Violation>) {
        let callee = call.callee.function();
        let nargs = f.list(call.args).len();
        let dirs = f.directions(call.arg_directions);
        if self.fits(callee, nargs, dirs) {
            return;
        }
        let what = What::Call(f.callee_name(self.module, call.callee));
        self.report(what, callee, nargs, dirs, span, out);
    }

    /// Whether the directions are right (the common case, checked without
    /// formatting anything).
    fn fits(&self, callee: Option<FuncId>, nargs: usize, dirs: Directions<'_>) -> bool {
        if dirs.len() != nargs {
            return false;
        }
        match callee {
            Some(id) => self
                .signatures
                .get(id.index())
                .is_some_and(|params| dirs.iter().eq(params.iter().copied())),
            None => dirs.iter().all(|d| d == Direction::In),
        }
    }

    /// The violation of a call or `submit` that does not [`fit`](Self::fits).
    fn report(
        &self,
        what: What<'_>,
        callee: Option<FuncId>,
        nargs: usize,
        dirs: Directions<'_>,
        span: Span,
        out: &mut Vec<Violation>,
    ) {
        if dirs.len() != nargs {
            out.push(Violation::new(
                span,
                format!(
                    "{what} has {} but {}",
                    count(nargs as u64, "positional argument", "positional arguments"),
                    count(
                        dirs.len() as u64,
                        "resolved direction",
                        "resolved directions"
                    )
                ),
            ));
            return;
        }
        match callee {
            Some(id) => match self.signatures.get(id.index()) {
                None => out.push(Violation::new(
                    span,
                    format!("{what}: {id:?} is not a function of the module"),
                )),
                Some(params) if !dirs.iter().eq(params.iter().copied()) => out.push(Violation::new(
                    span,
                    format!(
                        "{what}: argument directions ({}) do not match the parameters of `{}` ({})",
                        spell(dirs.iter()),
                        self.module.func_name(id),
                        spell(params.iter().copied())
                    ),
                )),
                Some(_) => {}
            },
            None => {
                if let Some(d) = dirs.iter().find(|d| *d != Direction::In) {
                    out.push(Violation::new(
                        span,
                        format!("{what}: an op argument has direction `{}`", d.keyword()),
                    ));
                }
            }
        }
    }
}

fn spell(dirs: impl Iterator<Item = Direction>) -> String {
    let words: Vec<&str> = dirs.map(|d| d.keyword()).collect();
    if words.is_empty() {
        return "none".into();
    }
    words.join(", ")
}
