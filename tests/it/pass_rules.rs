//! Rules of `expand-manual-phase-fence` that the printed output alone does
//! not show (see `docs/pass-rule-coverage.md`): the pass's declared
//! properties, that a violated requirement is reported at the offending
//! code and the pass does not run, the barrier's attributes in the IR, that
//! a rewritten consumer keeps everything but its `deps`, and that every
//! golden output still has every property.

use pfir::diagnostics::{Severity, SourceFile};
use pfir::ir::{Callee, ExprKind, Function, LoopKind, Module, StmtId, StmtKind, Type};
use pfir::passes::{PipelineOptions, Property, registry, run_pipeline};
use std::collections::BTreeSet;

const NAME: &str = "expand-manual-phase-fence";

const EXAMPLE: &str = "func k(x: i64, inout y: i64) -> i64 {
  return x
}

orchestration func main(x: i64, c: bool) {
  manual {
    tids = array.create(4, task_id)
    for p in range(4) {
      a, a_tid = submit k(x, p, deps=[tids], core_num=2, sync_start=true, allow_early_resolve=true, predicate=(c))
      for j in range(2) {
        b, b_tid = submit k(j, x, deps=[tids])
      }
    }
  }
}
";

fn read(text: &str) -> Module {
    let (m, diags) = pfir::parse(text).into_parts();
    m.unwrap_or_else(|| panic!("does not read: {diags:?}"))
}

fn file(text: &str) -> SourceFile {
    SourceFile::new("t.pfir", text)
}

fn main_fn(m: &Module) -> &Function {
    m.function("main").unwrap()
}

fn main_mut(m: &mut Module) -> &mut Function {
    m.functions_mut()
        .iter_mut()
        .find(|f| f.name == "main")
        .unwrap()
}

/// The statements of `f` in pre-order.
fn all_stmts(f: &Function) -> Vec<StmtId> {
    let mut out = Vec::new();
    let mut stack: Vec<StmtId> = f.block_stmts(&f.body).iter().rev().copied().collect();
    while let Some(s) = stack.pop() {
        out.push(s);
        for b in f.blocks(&f.stmts[s].kind).into_iter().rev() {
            stack.extend(f.block_stmts(b).iter().rev().copied());
        }
    }
    out
}

fn submits(f: &Function) -> Vec<StmtId> {
    all_stmts(f)
        .into_iter()
        .filter(|&s| matches!(f.stmts[s].kind, StmtKind::Submit(_)))
        .collect()
}

/// The spec's property table: required and produced are NoNestedCalls,
/// NormalizedStmtStructure, CallDirectionsResolved; nothing invalidated.
#[test]
fn declared_properties_match_the_spec_table() {
    let pass = registry::lookup(NAME).expect("registered");
    let expected: BTreeSet<Property> = [
        Property::NoNestedCalls,
        Property::NormalizedStmtStructure,
        Property::CallDirectionsResolved,
    ]
    .into_iter()
    .collect();
    let required: BTreeSet<Property> = pass.required().iter().copied().collect();
    let produced: BTreeSet<Property> = pass.produced().iter().copied().collect();
    assert_eq!(required, expected);
    assert_eq!(produced, expected);
    assert!(pass.invalidated().is_empty());
}

/// A `break` outside any loop (at the end of the function) violates NormalizedStmtStructure: the
/// violation is an error at the `break` and the pass does not run.
#[test]
fn normalized_structure_violation_is_reported_at_the_code_and_the_pass_does_not_run() {
    let mut m = read(EXAMPLE);
    let f = main_mut(&mut m);
    let scope = f.block_stmts(&f.body)[0];
    let loop_ = match f.stmts[scope].kind {
        StmtKind::Scope(sc) => f.block_stmts(&f.scopes[sc].body)[1],
        _ => panic!("manual scope first"),
    };
    let span = f.stmts[loop_].span;
    let brk = pfir::ir::builder::Builder::edit_at(f, span).stmt(StmtKind::Break);
    let mut body = f.body.stmts;
    f.push_list(&mut body, brk);
    f.body.stmts = body;
    let error = refused(&mut m, "NormalizedStmtStructure");
    assert_eq!(error.primary.span, span);
}

/// Call directions that do not match the callee violate
/// CallDirectionsResolved: an error at the `submit`, and the pass does not
/// run.
#[test]
fn call_directions_violation_is_reported_at_the_code_and_the_pass_does_not_run() {
    let mut m = read(EXAMPLE);
    let f = main_mut(&mut m);
    let first = submits(f)[0];
    let span = f.stmts[first].span;
    if let StmtKind::Submit(s) = f.stmts[first].kind {
        f.submits[s].arg_directions = f.new_directions([]);
    }
    let error = refused(&mut m, "CallDirectionsResolved");
    assert!(
        span.start() <= error.primary.span.start() && error.primary.span.end() <= span.end(),
        "the violation is reported inside the submit"
    );
}

/// Runs the pass on `m`, which violates `property`: exactly one error,
/// "`expand-manual-phase-fence` needs ..." (what PROPERTY demands, without
/// its internal name), and the IR is untouched
/// (the pass did not run). Returns the error.
fn refused(m: &mut pfir::ir::Module, property: &str) -> pfir::diagnostics::Diagnostic {
    let before = pfir::print(m);
    let r = run_pipeline(m, &file(EXAMPLE), &PipelineOptions::with_passes(&[NAME]));
    let errors: Vec<_> = r.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{:?}", r.diagnostics);
    let property = pfir::passes::Property::ALL
        .into_iter()
        .find(|p| p.name() == property)
        .unwrap();
    assert_eq!(
        errors[0].message,
        format!("`{NAME}` needs {}", property.requirement())
    );
    assert!(!errors[0].message.contains(property.name()));
    assert!(
        errors[0]
            .notes
            .iter()
            .all(|n| !n.message.contains(property.name()))
    );
    assert_eq!(pfir::print(m), before, "the pass must not run");
    errors[0].clone()
}

/// The barrier in the IR: one `task_id` variable bound to a
/// `system.task_dummy` call with `dummy_task = true` and
/// `manual_dep_edges = [tids]`, placed right before the loop; every
/// consumer (the nested loop's too) depends on it and keeps everything else.
#[test]
fn barrier_attributes_and_consumers_in_the_ir() {
    let mut m = read(EXAMPLE);
    let original = m.clone();
    let r = run_pipeline(
        &mut m,
        &file(EXAMPLE),
        &PipelineOptions::with_passes(&[NAME]),
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let (f, f0) = (main_fn(&m), main_fn(&original));
    let scope = match f.stmts[f.block_stmts(&f.body)[0]].kind {
        StmtKind::Scope(sc) => f.block_stmts(&f.scopes[sc].body),
        _ => panic!("manual scope first"),
    };
    assert_eq!(scope.len(), 3, "tids, barrier, loop");
    let barrier_stmt = scope[1];
    assert!(matches!(
        f.stmts[scope[2]].kind,
        StmtKind::For(l) if f.fors[l].kind == LoopKind::Range
    ));
    let StmtKind::Assign { results, value } = f.stmts[barrier_stmt].kind else {
        panic!("the barrier is a binding");
    };
    let results = f.list(results);
    assert_eq!(results.len(), 1);
    let barrier = results[0];
    assert_eq!(f.var_name(barrier), "phase_fence_barrier_0_tid");
    assert_eq!(*f.var_ty(barrier), Type::TASK_ID);
    let Some(call) = f.call(value) else {
        panic!("the barrier is a call");
    };
    assert_eq!(f.op_name(call.callee), Some("system.task_dummy"));
    assert!(matches!(call.callee, Callee::Op(_)));
    assert!(call.dummy_task);
    assert!(call.args.is_empty() && call.kwargs.is_empty());
    assert_eq!(f.list(call.manual_dep_edges).len(), 1);
    let ExprKind::Var(dep) = f.exprs[f.list(call.manual_dep_edges)[0]].kind else {
        panic!("the barrier depends on a variable");
    };
    assert_eq!(f.var_name(dep), "tids");

    // Consumers: deps is the barrier; all else as before.
    let (now, was) = (submits(f), submits(f0));
    assert_eq!(now.len(), 2);
    for (&s, &s0) in now.iter().zip(&was) {
        let (StmtKind::Submit(a), StmtKind::Submit(b)) = (f.stmts[s].kind, f0.stmts[s0].kind)
        else {
            unreachable!()
        };
        let (a, b) = (&f.submits[a], &f0.submits[b]);
        let deps = f.list(a.deps);
        assert_eq!(deps.len(), 1);
        assert!(matches!(f.exprs[deps[0]].kind, ExprKind::Var(v) if v == barrier));
        assert_eq!(a.callee, b.callee);
        assert_eq!(f.list(a.results), f0.list(b.results));
        assert_eq!(f.list(a.args), f0.list(b.args));
        assert_eq!(
            f.directions(a.arg_directions),
            f0.directions(b.arg_directions)
        );
        assert_eq!(a.core_num, b.core_num);
        assert_eq!(a.sync_start, b.sync_start);
        assert_eq!(a.allow_early_resolve, b.allow_early_resolve);
        assert_eq!(a.predicate, b.predicate);
    }
    // No plain call carries manual edges, before or after.
    assert!(
        Property::ManualDepsOnSubmitOnly
            .verify(&original)
            .is_empty()
    );
    assert!(Property::ManualDepsOnSubmitOnly.verify(&m).is_empty());
}

/// Every golden input of the pass: all properties hold before, and after
/// (the produced ones, and ManualDepsOnSubmitOnly) — checked directly, not
/// only through `--verify-each`.
#[test]
fn every_property_holds_before_and_after_on_golden_inputs() {
    let mut files = Vec::new();
    crate::support::pfir_files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/passes"),
        &mut files,
    );
    assert!(!files.is_empty());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        {
            let mut m = read(&text);
            for p in Property::ALL {
                assert!(p.verify(&m).is_empty(), "{}: {p} before", path.display());
            }
            let opts = PipelineOptions::with_passes(&[NAME]);
            let r = run_pipeline(&mut m, &file(&text), &opts);
            assert!(
                r.diagnostics.iter().all(|d| d.severity != Severity::Error),
                "{}: {:?}",
                path.display(),
                r.diagnostics
            );
            for p in Property::ALL {
                assert!(p.verify(&m).is_empty(), "{}: {p} after", path.display());
            }
        };
    }
}

/// A kept array's remark says why: an iter-arg of the loop, or an update
/// through a chain of iter-args, with the chain in a note. The lit goldens
/// (`tests/passes/`, `--verify-diagnostics`) pin every remark; this pins
/// these two in the `it` suite as well, which the mutation run of
/// `docs/pass-rule-coverage.md` runs. The iter-arg's loop comes late (its
/// statement number is not 1 or 2), so a wrong position for iter-args shows.
/// Each remark also labels its loop's header, up to and including the `{`
/// (as `tests/lit/passes/phase_fence_remark_span.pfir` checks the caret).
#[test]
fn remarks_name_the_iter_arg_and_the_alias_chain() {
    let src = "func k() {
}

orchestration func main() {
  manual {
    tids = array.create(4, task_id)
    r1 = for i in range(3) iter(t1 = tids) {
      c = submit k(deps=[tids])
      r2 = for j in range(2) iter(t2 = t1) {
        t3 = array.update_element(t2, j, c)
        yield t3
      }
      yield r2
    }
    res = for i in range(4) iter(t = tids) {
      a = submit k(deps=[t])
      b = submit k(deps=[t])
      u = array.update_element(t, 0, a)
      yield u
    }
  }
}
";
    let mut m = read(src);
    let opts = PipelineOptions {
        remarks: Some(Vec::new()),
        ..PipelineOptions::with_passes(&[NAME])
    };
    let r = run_pipeline(&mut m, &file(src), &opts);
    let got: Vec<(String, Vec<String>)> = r
        .diagnostics
        .iter()
        .map(|d| {
            let notes = d.notes.iter().map(|n| n.message.clone()).collect();
            (d.message.clone(), notes)
        })
        .collect();
    let messages: Vec<&str> = got.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "kept `tids` as a direct dependency: its storage is updated inside the loop body",
            "kept `t` as a direct dependency: it is an iter-arg of the loop",
        ],
        "{got:#?}"
    );
    let chain = "`t2` is an iter-arg initialised from `t1`, which is initialised from `tids`";
    assert_eq!(got[0].1, [chain], "{got:#?}");
    let headers: Vec<Vec<&str>> = r
        .diagnostics
        .iter()
        .map(|d| {
            let labels = std::iter::once(&d.primary).chain(d.secondary.iter());
            labels
                .map(|l| &src[l.span.range()])
                .filter(|t| t.contains(" for "))
                .collect()
        })
        .collect();
    assert_eq!(
        headers,
        [
            ["r1 = for i in range(3) iter(t1 = tids) {"],
            ["res = for i in range(4) iter(t = tids) {"]
        ]
    );
}
