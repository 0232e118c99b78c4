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

pub mod call_directions_resolved;
pub mod manual_deps_on_submit_only;
pub mod no_nested_calls;
pub mod normalized_stmt_structure;

use crate::ir::{Function, Module};
use crate::span::Span;
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
        let mut out = Vec::new();
        match self {
            Property::CallDirectionsResolved => call_directions_resolved::verify(module, &mut out),
            _ => {
                for f in module.functions() {
                    self.verify_function(module, f, &mut out);
                }
            }
        }
        out
    }

    fn verify_function(self, module: &Module, f: &Function, out: &mut Vec<Violation>) {
        match self {
            Property::NoNestedCalls => no_nested_calls::verify(module, f, out),
            Property::NormalizedStmtStructure => normalized_stmt_structure::verify(f, out),
            Property::ManualDepsOnSubmitOnly => manual_deps_on_submit_only::verify(module, f, out),
            Property::CallDirectionsResolved => unreachable!("module-level verifier"),
        }
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
