//! The pass manager: property checks before and after passes, options,
//! IR dumps, timing, statistics, remarks selection.

use pfir::diagnostics::{NoteKind, Severity, SourceFile};
use pfir::ir::{Callee, Direction, ExprKind, Module, StmtKind};
use pfir::passes::{self, PipelineOptions, Property, check_pipeline, run_pipeline};

const NAME: &str = "expand-manual-phase-fence";

const EXAMPLE: &str = "func k(x: i64) {
}

orchestration func main(x: i64) {
  manual {
    tids = array.create(4, task_id)
    for p in parallel(4) {
      a = submit k(x, deps=[tids])
      b = submit k(x, deps=[tids])
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

fn main_fn(m: &Module) -> &pfir::ir::Function {
    m.function("main").unwrap()
}

fn main_mut(m: &mut Module) -> &mut pfir::ir::Function {
    m.functions_mut()
        .iter_mut()
        .find(|f| f.name == "main")
        .unwrap()
}

/// The first `submit` statement of `f`.
fn first_submit(f: &pfir::ir::Function) -> pfir::ir::StmtId {
    f.stmts
        .iter()
        .find(|(_, s)| matches!(s.kind, StmtKind::Submit(_)))
        .map(|(id, _)| id)
        .unwrap()
}

#[test]
fn all_properties_hold_on_lowered_input() {
    let m = read(EXAMPLE);
    for p in Property::ALL {
        assert!(p.verify(&m).is_empty(), "{p}: {:?}", p.verify(&m));
    }
}

#[test]
fn nested_call_is_reported_and_the_pass_does_not_run() {
    let text = EXAMPLE.replace("a = submit k(x,", "a = submit k(f(x),")
        + "\nfunc f(x: i64) -> i64 {\n  return x\n}\n";
    let mut m = read(&text);
    let before = format!("{:?}", main_fn(&m).body);
    let r = run_pipeline(&mut m, &file(&text), &PipelineOptions::with_passes(&[NAME]));
    assert_eq!(r.diagnostics.len(), 1);
    let d = &r.diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(
        d.message,
        "`expand-manual-phase-fence` needs every call argument to be a variable or a literal"
    );
    assert!(
        d.notes.iter().any(|n| n.kind == NoteKind::Help
            && n.message
                == "bind the inner call to a variable first (`v = f(x)`), then pass the variable"),
        "{:?}",
        d.notes
    );
    assert_eq!(&text[d.primary.span.range()], "f(x)");
    assert_eq!(
        format!("{:?}", main_fn(&m).body),
        before,
        "the pass must not run"
    );
}

#[test]
fn nested_call_inside_a_list_is_found() {
    let mut m = read(EXAMPLE);
    // Make `tids`' deps entry a list holding a call: [array.create(...)].
    let f = main_mut(&mut m);
    let create = f
        .exprs
        .iter()
        .find(
            |(_, e)| matches!(e.kind, ExprKind::Call(c) if f.op_name(f.calls[c].callee) == Some("array.create")),
        )
        .map(|(id, _)| id)
        .unwrap();
    let list = pfir::ir::builder::Builder::edit(f).list(vec![create]);
    let sub = first_submit(f);
    if let StmtKind::Submit(s) = f.stmts[sub].kind {
        let mut args = f.list(f.submits[s].args).to_vec();
        args.push(list);
        let mut dirs = f.directions(f.submits[s].arg_directions).to_vec();
        dirs.push(Direction::In);
        f.submits[s].args = f.replace_list(f.submits[s].args, &args);
        f.submits[s].arg_directions = f.new_directions(dirs);
    }
    let v = Property::NoNestedCalls.verify(&m);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].message
            .contains("`array.create` nested in the arguments of `k`")
    );
}

#[test]
fn call_directions_are_checked_against_the_callee() {
    let text = EXAMPLE.replace("func k(x: i64)", "func k(inout x: i64)");
    let mut m = read(&text);
    assert!(Property::CallDirectionsResolved.verify(&m).is_empty());
    let f = main_mut(&mut m);
    let sub = first_submit(f);
    if let StmtKind::Submit(s) = f.stmts[sub].kind {
        f.submits[s].arg_directions = f.new_directions([Direction::In]);
    }
    let v = Property::CallDirectionsResolved.verify(&m);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].message.contains("do not match"), "{}", v[0].message);
    let f = main_mut(&mut m);
    if let StmtKind::Submit(s) = f.stmts[sub].kind {
        f.submits[s].arg_directions = f.new_directions([]);
    }
    let v = Property::CallDirectionsResolved.verify(&m);
    assert!(
        v[0].message
            .contains("1 positional argument but 0 resolved directions"),
        "{}",
        v[0].message
    );
    let r = run_pipeline(&mut m, &file(&text), &PipelineOptions::with_passes(&[NAME]));
    assert_eq!(
        r.diagnostics[0].message,
        "`expand-manual-phase-fence` needs one direction (`in`, `out`, `inout`) per call argument"
    );
}

#[test]
fn statement_structure_violations() {
    let text = "func k() {\n}\n\norchestration func main() {\n  for i in range(2) {\n    a = submit k()\n    break\n  }\n  return\n}\n";
    let mut m = read(text);
    assert!(Property::NormalizedStmtStructure.verify(&m).is_empty());
    let f = main_mut(&mut m);
    // Move the `return` before the loop: a statement after `return`.
    edit_body(f, |b| b.reverse());
    let v = Property::NormalizedStmtStructure.verify(&m);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].message.contains("after `return`"));
    // A `break` outside a loop, and a `yield` outside a body with results.
    let f = main_mut(&mut m);
    edit_body(f, |b| b.reverse());
    let mut b = pfir::ir::builder::Builder::edit(f);
    let brk = b.stmt(StmtKind::Break);
    let yld = b.yield_([]);
    edit_body(f, |b| {
        b.insert(0, brk);
        b.insert(1, yld);
    });
    let msgs: Vec<String> = Property::NormalizedStmtStructure
        .verify(&m)
        .into_iter()
        .map(|v| v.message)
        .collect();
    assert!(msgs.iter().any(|m| m == "jump outside a loop"), "{msgs:?}");
    assert!(
        msgs.iter().any(|m| m.contains("`yield` outside")),
        "{msgs:?}"
    );
    assert!(msgs.iter().any(|m| m.contains("after `break`")), "{msgs:?}");
    // A statement in two blocks.
    let f = main_mut(&mut m);
    edit_body(f, |b| b.push(b[2]));
    let msgs: Vec<String> = Property::NormalizedStmtStructure
        .verify(&m)
        .into_iter()
        .map(|v| v.message)
        .collect();
    assert!(
        msgs.iter().any(|m| m.contains("more than one block")),
        "{msgs:?}"
    );
}

#[test]
fn yields_must_close_bodies_with_results() {
    let text =
        "orchestration func main() {\n  r = for i in range(2) iter(x = 1) {\n    yield x\n  }\n}\n";
    let mut m = read(text);
    assert!(Property::NormalizedStmtStructure.verify(&m).is_empty());
    let f = &mut m.functions_mut()[0];
    let lp = f.block_stmts(&f.body)[0];
    if let StmtKind::For(l) = f.stmts[lp].kind {
        f.fors[l].body.stmts = f.replace_list(f.fors[l].body.stmts, &[]);
    }
    let v = Property::NormalizedStmtStructure.verify(&m);
    assert!(v[0].message.contains("must end with a `yield`"), "{v:?}");
}

#[test]
fn manual_deps_only_on_submit_and_barriers() {
    let mut m = read(EXAMPLE);
    assert!(Property::ManualDepsOnSubmitOnly.verify(&m).is_empty());
    let f = main_mut(&mut m);
    let (id, dep) = {
        let (id, _) = f
            .exprs
            .iter()
            .find(|(_, e)| matches!(e.kind, ExprKind::Call(c) if matches!(f.calls[c].callee, Callee::Op(_)) && f.op_name(f.calls[c].callee) == Some("array.create")))
            .unwrap();
        let dep = f
            .exprs
            .iter()
            .find(|(_, e)| matches!(e.kind, ExprKind::Int(n) if n.get() == 4))
            .unwrap()
            .0;
        (id, dep)
    };
    if let ExprKind::Call(c) = f.exprs[id].kind {
        let mut edges = f.calls[c].manual_dep_edges;
        f.push_list(&mut edges, dep);
        f.calls[c].manual_dep_edges = edges;
    }
    let v = Property::ManualDepsOnSubmitOnly.verify(&m);
    assert_eq!(v.len(), 1);
    assert!(
        v[0].message
            .contains("`array.create` carries manual dependency edges")
    );
}

#[test]
fn unknown_pass_names_are_usage_errors() {
    let e = check_pipeline(&PipelineOptions::with_passes(&["nope"]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown pass 'nope'") && e.contains(NAME), "{e}");
    let named = |print_after: &[&str], remarks: &[&str]| PipelineOptions {
        print_ir_after: print_after.iter().map(|p| p.to_string()).collect(),
        remarks: Some(remarks.iter().map(|p| p.to_string()).collect()),
        ..PipelineOptions::default()
    };
    assert!(check_pipeline(&named(&["nope"], &[])).is_err());
    assert!(check_pipeline(&named(&[], &["nope"])).is_err());
    assert!(check_pipeline(&named(&[NAME], &[NAME])).is_ok());
    assert_eq!(passes::known_passes(), vec![NAME, "test-drop-deps"]);
}

#[test]
fn dumps_timing_stats_and_remarks() {
    let mut m = read(EXAMPLE);
    let r = run_pipeline(
        &mut m,
        &file(EXAMPLE),
        &PipelineOptions {
            print_ir_after_all: true,
            timing: true,
            stats: true,
            remarks: Some(Vec::new()),
            ..PipelineOptions::with_passes(&[NAME])
        },
    );
    assert!(
        r.stderr
            .starts_with("// -----// IR Dump After expand-manual-phase-fence //----- //\n")
    );
    assert!(
        r.stderr.contains("Execution time report") && r.stderr.contains(&format!("  {NAME}\n"))
    );
    assert!(r.stderr.contains("Pass statistics report"));
    for line in [
        "  function 'main'",
        "       2 consumers rewritten",
        "       1 barriers inserted",
        "      32 static dependency edges before",
        "      12 static dependency edges after",
    ] {
        assert!(r.stderr.contains(line), "missing {line:?} in\n{}", r.stderr);
    }
    assert_eq!(r.diagnostics.len(), 1);
    assert_eq!(r.diagnostics[0].severity, Severity::Remark);
    assert_eq!(
        r.diagnostics[0].message,
        "inserted phase fence barrier `phase_fence_barrier_0_tid` for `tids`: 4 producers x 8 consumers, 32 dependency edges -> 12"
    );
    // Remarks of another pass only: none here.
    let mut m = read(EXAMPLE);
    let r = run_pipeline(
        &mut m,
        &file(EXAMPLE),
        &PipelineOptions::with_passes(&[NAME]),
    );
    assert!(r.diagnostics.is_empty() && r.stderr.is_empty());
}

#[test]
fn running_twice_in_one_pipeline_equals_once() {
    let mut once = read(EXAMPLE);
    run_pipeline(
        &mut once,
        &file(EXAMPLE),
        &PipelineOptions::with_passes(&[NAME]),
    );
    let mut twice = read(EXAMPLE);
    let r = run_pipeline(
        &mut twice,
        &file(EXAMPLE),
        &PipelineOptions::with_passes(&[NAME, NAME]),
    );
    assert!(r.diagnostics.is_empty());
    assert_eq!(pfir::print(&once), pfir::print(&twice));
    assert_eq!(
        format!(
            "{:?}",
            main_fn(&once).block_stmts(&main_fn(&once).body).len()
        ),
        format!(
            "{:?}",
            main_fn(&twice).block_stmts(&main_fn(&twice).body).len()
        )
    );
}

#[test]
fn ir_dumps_are_cut_at_a_limit() {
    let src = "func f() {\n  x = 1\n  y = 2\n}\n";
    let (Some(m), _) = pfir::parse(src).into_parts() else {
        panic!("valid")
    };
    assert_eq!(pfir::passes::manager::dump_ir(&m, 1 << 20), src);
    let cut = pfir::passes::manager::dump_ir(&m, 8);
    assert!(cut.ends_with("// ... IR dump cut after 8 bytes\n"), "{cut}");
    assert!(cut.len() < src.len() + 40);
}

/// Rewrites the statement list of `f`'s body through a `Vec`.
fn edit_body(f: &mut pfir::ir::Function, edit: impl FnOnce(&mut Vec<pfir::ir::StmtId>)) {
    let mut stmts = f.block_stmts(&f.body).to_vec();
    edit(&mut stmts);
    f.body.stmts = f.replace_list(f.body.stmts, &stmts);
}
