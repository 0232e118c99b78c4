//! Lowering semantics: scoping (spec section 7), type inference (section 6),
//! argument directions, `none` in `deps`, and `system.task_dummy`.

use pfir::ir::{
    Callee, Direction, ExprKind, Extent, Function, Module, ScalarType, StmtKind, Submit, Type,
    VarId,
};

fn read(src: &str) -> Module {
    match pfir::parse(src).into_parts() {
        (Some(m), _) => m,
        (None, diags) => panic!("rejected: {diags:#?}"),
    }
}

fn first_error(src: &str) -> String {
    let (m, diags) = pfir::parse(src).into_parts();
    assert!(m.is_none(), "accepted: {src}");
    diags.into_iter().find(|d| d.is_error()).unwrap().message
}

/// The variable of the last binding named `name` in `f`.
fn var(f: &Function, name: &str) -> VarId {
    f.vars
        .iter()
        .filter(|(_, v)| f.names.get(v.name) == name)
        .map(|(id, _)| id)
        .last()
        .unwrap_or_else(|| panic!("no `{name}`"))
}

fn ty(f: &Function, name: &str) -> Type {
    f.var_ty(var(f, name)).clone()
}

/// All `Assign` statements of `f` whose single result is named `name`: the
/// value's expression kind.
fn value_of<'f>(f: &'f Function, name: &str) -> &'f ExprKind {
    let v = var(f, name);
    for (_, s) in f.stmts.iter() {
        if let StmtKind::Assign { results, value } = &s.kind
            && f.list(*results).contains(&v)
        {
            return &f.exprs[*value].kind;
        }
    }
    panic!("`{name}` is not bound by an assignment")
}

/// The submit statements of `f`, in statement order.
fn submits(f: &Function) -> Vec<&Submit> {
    f.stmts
        .iter()
        .filter_map(|(_, s)| match s.kind {
            StmtKind::Submit(id) => Some(&f.submits[id]),
            _ => None,
        })
        .collect()
}

#[test]
fn loop_and_if_bodies_open_a_scope() {
    assert!(
        first_error("func f() {\n  for i in range(2) {\n    x = 1\n  }\n  y = x\n}\n")
            .contains("unknown variable `x`")
    );
    assert!(
        first_error("func f() {\n  for i in range(2) {\n  }\n  y = i\n}\n")
            .contains("unknown variable `i`")
    );
    assert!(
        first_error(
            "func f(c: bool) {\n  if c {\n    x = 1\n  } else {\n    z = 2\n  }\n  y = z\n}\n"
        )
        .contains("unknown variable `z`")
    );
    assert!(
        first_error(
            "func f() {\n  r = for i in range(2) iter(a = 0) {\n    yield a\n  }\n  y = a\n}\n"
        )
        .contains("unknown variable `a`")
    );
    assert!(
        first_error("func f() {\n  r = while a < 3 iter(a = 0) {\n    yield a\n  }\n  y = a\n}\n")
            .contains("unknown variable `a`")
    );
}

#[test]
fn scopes_do_not_open_a_scope() {
    let m = read(
        "func f() {\n  manual {\n    x = 1\n    auto {\n      y = x\n    }\n  }\n  z = y + x\n}\n",
    );
    assert_eq!(ty(&m.functions()[0], "z"), Type::I64);
}

#[test]
fn rebinding_creates_a_new_variable() {
    let m = read("func f() {\n  a = 1\n  b = a\n  a = true\n  c = a\n}\n");
    let f = &m.functions()[0];
    assert_eq!(ty(f, "b"), Type::I64);
    assert_eq!(ty(f, "c"), Type::BOOL);
    let a_vars: Vec<VarId> = f
        .vars
        .iter()
        .filter(|(_, v)| f.names.get(v.name) == "a")
        .map(|(id, _)| id)
        .collect();
    assert_eq!(a_vars.len(), 2);
    // `b` reads the first `a`, `c` the second.
    assert!(matches!(value_of(f, "b"), ExprKind::Var(v) if *v == a_vars[0]));
    assert!(matches!(value_of(f, "c"), ExprKind::Var(v) if *v == a_vars[1]));
}

#[test]
fn shadowing_inside_a_body_does_not_leak() {
    let m = read("func f() {\n  a = 1\n  for i in range(2) {\n    a = true\n  }\n  c = a\n}\n");
    assert_eq!(ty(&m.functions()[0], "c"), Type::I64);
}

#[test]
fn params_visible_everywhere_and_functions_callable_before_definition() {
    let m = read(
        "func f(n: i64) {\n  for i in range(n) {\n    x = g(n)\n  }\n}\nfunc g(x: i64) -> bool {\n  return true\n}\n",
    );
    let f = &m.functions()[0];
    assert_eq!(ty(f, "x"), Type::BOOL);
}

#[test]
fn while_condition_sees_iter_args() {
    let m =
        read("func f() {\n  r = while a < 3 iter(a = 0) {\n    b = a + 1\n    yield b\n  }\n}\n");
    assert_eq!(ty(&m.functions()[0], "r"), Type::I64);
}

#[test]
fn type_inference_follows_section_6() {
    let m = read(
        "func k() -> (i32, task_id) {\n  return 1, none\n}\n\
         func f(n: i32, x: f16) {\n\
           a = 1 + 2\n  b = 2 + n\n  c = n * 3\n  d = x - 1.0\n  e = n < 3\n  g = not e and true\n\
           h = 1.5\n  i2 = array.create(4, task_id)\n  j = array.create(n, i64)\n  l = array.get_element(i2, 0)\n\
           m = array.update_element(j, 1, 7)\n  o = tensor.load(x)\n  p: tensor<[4], f32> = tensor.load(x)\n\
           q = system.task_invalid()\n  r = none\n  s, t = k()\n  u, w, tid = submit k()\n\
           for it in range(3) {\n    z = it\n  }\n\
         }\n",
    );
    let f = &m.functions()[1];
    let i32t = Type::Scalar(ScalarType::I32);
    assert_eq!(ty(f, "a"), Type::I64, "both literals: i64");
    assert_eq!(ty(f, "b"), i32t, "first non-literal operand");
    assert_eq!(ty(f, "c"), i32t);
    assert_eq!(ty(f, "d"), Type::Scalar(ScalarType::F16));
    assert_eq!(ty(f, "e"), Type::BOOL);
    assert_eq!(ty(f, "g"), Type::BOOL);
    assert_eq!(ty(f, "h"), Type::F32, "float literals are f32");
    assert_eq!(
        ty(f, "i2"),
        Type::Array {
            elem: ScalarType::TaskId,
            extent: Extent::Const(4)
        }
    );
    assert_eq!(
        ty(f, "j"),
        Type::Array {
            elem: ScalarType::I64,
            extent: Extent::Dynamic(Some("n".into()))
        }
    );
    assert_eq!(ty(f, "l"), Type::TASK_ID);
    assert_eq!(ty(f, "m"), ty(f, "j"));
    assert_eq!(ty(f, "o"), Type::Unknown);
    assert_eq!(
        ty(f, "p"),
        Type::Tensor {
            dims: vec![Extent::Const(4)],
            elem: ScalarType::F32
        }
    );
    assert_eq!(ty(f, "q"), Type::TASK_ID);
    assert_eq!(ty(f, "r"), Type::TASK_ID, "`none` is a task id");
    assert_eq!(ty(f, "s"), i32t);
    assert_eq!(ty(f, "t"), Type::TASK_ID);
    assert_eq!(ty(f, "u"), i32t, "submit binds the results...");
    assert_eq!(ty(f, "tid"), Type::TASK_ID, "...then the task id");
    assert_eq!(ty(f, "z"), Type::INDEX, "induction variables are index");
}

#[test]
fn category_checks_accept_other_widths_and_unknowns() {
    read(
        "func k(a: i8, b: tensor<[2], f32>) -> i64 {\n  return 1\n}\nfunc f(n: u64, t: tensor<[9, 9], f32>) {\n  x = tensor.any()\n  y = k(n, t)\n  z = k(x, x)\n}\n",
    );
    assert!(
        first_error("func k(a: i8) -> i8 {\n  return 1\n}\nfunc f() {\n  y = k(1.0)\n}\n")
            .contains("argument `a` must be `i8`")
    );
    assert!(
        first_error("func k(a: tensor<[2], f32>) -> i8 {\n  return 1\n}\nfunc f(t: tensor<[2], f16>) {\n  y = k(t)\n}\n").contains("argument `a`")
    );
}

#[test]
fn directions_are_resolved_from_the_callee_signature() {
    let m = read(
        "func k(a: i64, out b: i64, inout c: i64) -> task_id {\n  return none\n}\n\
         func f() {\n  x = k(1, 2, 3)\n  y, t = submit k(1, 2, 3)\n  z = tensor.op(1, 2)\n}\n",
    );
    let f = &m.functions()[1];
    let want = vec![Direction::In, Direction::Out, Direction::InOut];
    let mut seen_call = false;
    let mut seen_submit = false;
    for (_, e) in f.exprs.iter() {
        if let ExprKind::Call(c) = e.kind {
            let c = &f.calls[c];
            let dirs = f.directions(c.arg_directions).to_vec();
            match &c.callee {
                Callee::Function(_) => {
                    assert_eq!(dirs, want);
                    seen_call = true;
                }
                Callee::Op(_) => assert_eq!(dirs, vec![Direction::In; 2]),
                Callee::Unresolved(_) => panic!("a valid module has no unresolved callee"),
            }
        }
    }
    for s in submits(f) {
        assert_eq!(f.directions(s.arg_directions).to_vec(), want);
        seen_submit = true;
    }
    assert!(seen_call && seen_submit);
}

#[test]
fn none_is_dropped_from_deps_and_task_dummy_carries_attrs() {
    let m = read(
        "func k() -> task_id {\n  return none\n}\n\
         func f() {\n  tids = array.create(2, task_id)\n  a, t = submit k(deps=[tids, none])\n  \
         b, u = submit k(deps=[none])\n  bar = system.task_dummy(deps=[none, tids, t])\n}\n",
    );
    let f = &m.functions()[1];
    let deps: Vec<usize> = submits(f).iter().map(|s| f.list(s.deps).len()).collect();
    assert_eq!(deps, vec![1, 0]);
    let ExprKind::Call(c) = *value_of(f, "bar") else {
        panic!("not a call")
    };
    let c = &f.calls[c];
    assert!(c.dummy_task);
    assert_eq!(f.op_name(c.callee), Some("system.task_dummy"));
    assert_eq!(f.list(c.manual_dep_edges).len(), 2);
    assert!(c.args.is_empty());
    assert_eq!(ty(f, "bar"), Type::TASK_ID);
}

#[test]
fn submit_keyword_defaults_are_dropped() {
    let m = read(
        "func k() -> task_id {\n  return none\n}\n\
         func f() {\n  a, t = submit k(sync_start=false, allow_early_resolve=false, core_num=2)\n  \
         b, u = submit k(sync_start=true, predicate=(1 < 2))\n}\n",
    );
    let f = &m.functions()[1];
    let subs = submits(f);
    assert!(
        subs[0].sync_start.is_none()
            && subs[0].allow_early_resolve.is_none()
            && subs[0].core_num.is_some()
    );
    assert!(
        subs[1].sync_start.is_some() && subs[1].predicate.is_some() && subs[1].core_num.is_none()
    );
}

#[test]
fn nested_calls_are_accepted_by_the_front_end() {
    read("func g(x: i64) -> i64 {\n  return x\n}\nfunc f() {\n  y = g(g(1))\n}\n");
}

#[test]
fn discard_binding_is_not_readable() {
    assert!(first_error("func f() {\n  _ = 1\n  y = _\n}\n").contains("unexpected `_`"));
}
