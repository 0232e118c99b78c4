//! `pfir reduce`: from a program that shows a property (a diagnostic, a
//! remark, a lost dependency, a difference, a check that passes or
//! fails, whatever a script tests) to the smallest program that still
//! shows it.
//!
//! A valid input is reduced on the IR ([`program`]): one kind of element
//! at a time ([`KINDS`]: functions, return values, statements, copies,
//! loop and `if` wrappers, iter-args, `deps` entries, parameters, results,
//! `submit` callees, calls moved into iter-args, expressions, constants,
//! extents, names), each by delta debugging ([`delta`]), until a whole
//! pass over the kinds changes nothing. Every candidate the predicate sees
//! reads back without error. An input that does not read (the property is
//! a syntax or lowering error) is reduced by deleting lines ([`text`]).
//! The predicate is [`predicate::Oracle`]. Each accepted program is
//! handed to the caller at once, so an interrupted run keeps the best so
//! far.

pub mod copies;
pub mod delta;
pub mod deps;
pub mod edit;
pub mod functions;
pub mod inline;
pub mod iter_args;
pub mod predicate;
pub mod program;
pub mod rename;
pub mod returns;
pub mod shrink;
pub mod signature;
pub mod simplify;
pub mod statements;
pub mod text;
pub mod unwrap;

use crate::ir::Module;
use delta::{Run, State};
use predicate::Oracle;
use program::{Layout, Program, smaller};
use std::time::Instant;

impl State for Program {
    fn text(&self) -> &str {
        &self.text
    }
}

/// What decides that a candidate is interesting ([`Oracle`] for the
/// command line; tests bring their own).
pub trait Judge: Sync {
    /// Whether `text` (already read as `module` when it is a valid
    /// program) has the property.
    fn interesting(&self, text: &str, module: Option<&Module>) -> bool;
}

impl Judge for Oracle {
    fn interesting(&self, text: &str, module: Option<&Module>) -> bool {
        Oracle::interesting(self, text, module)
    }
}

/// One kind of element of the IR and how to reduce it.
pub struct Kind {
    pub name: &'static str,
    /// How many elements of the kind a module has.
    pub count: fn(&Module) -> usize,
    /// Reduces the elements marked `true` (as numbered by `count`).
    pub apply: fn(&mut Module, &[bool]),
}

/// The kinds, in the order they are tried (the big cuts first).
pub const KINDS: &[Kind] = &[
    Kind {
        name: "functions",
        count: functions::count,
        apply: functions::apply,
    },
    Kind {
        name: "return values",
        count: returns::count,
        apply: returns::apply,
    },
    Kind {
        name: "statements",
        count: statements::count,
        apply: statements::apply,
    },
    Kind {
        name: "copies",
        count: copies::count,
        apply: copies::apply,
    },
    Kind {
        name: "unwrap",
        count: unwrap::count,
        apply: unwrap::apply,
    },
    Kind {
        name: "iter-args",
        count: iter_args::count,
        apply: iter_args::apply,
    },
    Kind {
        name: "deps",
        count: deps::count,
        apply: deps::apply,
    },
    Kind {
        name: "parameters",
        count: signature::count_params,
        apply: signature::apply_params,
    },
    Kind {
        name: "results",
        count: signature::count_results,
        apply: signature::apply_results,
    },
    Kind {
        name: "callees",
        count: functions::count_callees,
        apply: functions::apply_callees,
    },
    Kind {
        name: "calls into iter-args",
        count: inline::count,
        apply: inline::apply,
    },
    Kind {
        name: "expressions",
        count: simplify::count,
        apply: simplify::apply,
    },
    Kind {
        name: "constants",
        count: shrink::count_constants,
        apply: shrink::apply_constants,
    },
    Kind {
        name: "extents",
        count: shrink::count_extents,
        apply: shrink::apply_extents,
    },
    Kind {
        name: "scope names",
        count: rename::count_scope_names,
        apply: rename::apply_scope_names,
    },
    Kind {
        name: "function names",
        count: rename::count_functions,
        apply: rename::apply_functions,
    },
    Kind {
        name: "variable names",
        count: rename::count_variables,
        apply: rename::apply_variables,
    },
];

/// How a reduction runs.
pub struct Settings {
    /// Candidates tested at once.
    pub jobs: usize,
    /// When to stop, keeping the best so far.
    pub deadline: Option<Instant>,
    /// How the candidates of an IR-level reduction are laid out.
    pub layout: Layout,
}

/// What the caller hears while a reduction runs.
pub trait Observer {
    /// A kind of element is being reduced (`text` for line deletion).
    fn step(&mut self, name: &str);
    /// A smaller interesting program was found: its text. An `Err` (the
    /// output cannot be written) stops the reduction.
    fn accepted(&mut self, text: &str) -> Result<(), String>;
}

/// How the reduction ended.
#[derive(Debug)]
pub struct Outcome {
    /// The smallest interesting text found.
    pub text: String,
    /// Whether it was reduced on the IR (else on lines).
    pub on_ir: bool,
    /// How many candidates were made.
    pub tried: usize,
    /// Whether the deadline stopped it.
    pub timed_out: bool,
}

/// Why a reduction could not start.
#[derive(Debug)]
pub enum ReduceError {
    /// The input itself does not have the property.
    NotInteresting,
    /// The deadline came before the input's own test gave an answer.
    TimedOut,
    /// The observer could not take a result.
    Output(String),
}

/// Reduces `input` while `oracle` finds it interesting. The input itself
/// must be; the accepted programs go to `observer` as they are found.
pub fn reduce(
    input: &str,
    oracle: &dyn Judge,
    settings: &Settings,
    observer: &mut dyn Observer,
) -> Result<Outcome, ReduceError> {
    let program =
        Program::read(input).and_then(|p| Program::of(&p.module, &p.run_lines, settings.layout));
    match program {
        Some(p) if oracle.interesting(&p.text, Some(&p.module)) => {
            observer.accepted(&p.text).map_err(ReduceError::Output)?;
            reduce_ir(p, oracle, settings, observer)
        }
        _ if oracle.interesting(input, None) => reduce_text(input, oracle, settings, observer),
        _ if settings.deadline.is_some_and(|d| Instant::now() >= d) => Err(ReduceError::TimedOut),
        _ => Err(ReduceError::NotInteresting),
    }
}

fn reduce_ir(
    program: Program,
    oracle: &dyn Judge,
    settings: &Settings,
    observer: &mut dyn Observer,
) -> Result<Outcome, ReduceError> {
    let mut step = String::new();
    let observer = std::cell::RefCell::new(observer);
    let mut accept = |p: &Program| observer.borrow_mut().accepted(&p.text);
    let mut run = Run {
        best: program,
        jobs: settings.jobs,
        deadline: settings.deadline,
        on_accept: &mut accept,
        tried: 0,
        timed_out: false,
    };
    loop {
        let mut changed = false;
        for kind in KINDS {
            step.clear();
            step.push_str(kind.name);
            observer.borrow_mut().step(&step);
            let attempt = |base: &Program, chosen: &[bool], best: &str| {
                let candidate = base.edited(|m| (kind.apply)(m, chosen))?;
                (smaller(&candidate.text, best)
                    && oracle.interesting(&candidate.text, Some(&candidate.module)))
                .then_some(candidate)
            };
            changed |= run
                .reduce_kind(&|p: &Program| (kind.count)(&p.module), &attempt)
                .map_err(ReduceError::Output)?;
            if run.timed_out {
                break;
            }
        }
        if !changed || run.timed_out {
            break;
        }
    }
    Ok(Outcome {
        text: run.best.text.clone(),
        on_ir: true,
        tried: run.tried,
        timed_out: run.timed_out,
    })
}

fn reduce_text(
    input: &str,
    oracle: &dyn Judge,
    settings: &Settings,
    observer: &mut dyn Observer,
) -> Result<Outcome, ReduceError> {
    observer.step("lines");
    observer.accepted(input).map_err(ReduceError::Output)?;
    let mut accept = |t: &text::Text| observer.accepted(&t.0);
    let mut run = Run {
        best: text::Text(input.to_string()),
        jobs: settings.jobs,
        deadline: settings.deadline,
        on_accept: &mut accept,
        tried: 0,
        timed_out: false,
    };
    let attempt = |base: &text::Text, chosen: &[bool], best: &str| {
        let candidate = text::apply(base, chosen);
        (smaller(&candidate.0, best) && oracle.interesting(&candidate.0, None)).then_some(candidate)
    };
    run.reduce_kind(&text::count, &attempt)
        .map_err(ReduceError::Output)?;
    Ok(Outcome {
        text: run.best.0.clone(),
        on_ir: false,
        tried: run.tried,
        timed_out: run.timed_out,
    })
}

#[cfg(test)]
mod tests;
