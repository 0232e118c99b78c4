//! Unit tests of the printer on IR built by hand.

use super::{print_expr, print_function, print_module};
use crate::ir::builder::FunctionBuilder as FnBuilder;
use crate::ir::{
    BinaryOp, Direction, Extent, FuncKind, IterArg, LoopKind, Module, ScalarType, StmtKind, Type,
    UnaryOp,
};

fn module(functions: Vec<crate::ir::Function>) -> Module {
    Module::new(functions)
}

/// The callee of the tests' `submit`s: the first function of their module.
const FIRST: crate::ir::FuncId = crate::ir::FuncId::from_u32(0);

fn task_array(n: i64) -> Type {
    Type::Array {
        elem: ScalarType::TaskId,
        extent: Extent::Const(n),
    }
}

/// `for VAR in KIND(STOP) { BODY }`: no results, no iter-args, the default
/// start and step.
fn plain_for(
    b: &mut FnBuilder,
    kind: LoopKind,
    var: crate::ir::VarId,
    stop: crate::ir::ExprId,
    body: Vec<crate::ir::StmtId>,
) -> crate::ir::StmtId {
    b.for_(vec![], kind, var, None, stop, None, vec![], body)
}

/// `func kernel() -> task_id { return system.task_invalid() }`.
fn kernel() -> crate::ir::Function {
    let mut k = FnBuilder::new("kernel", FuncKind::Opaque);
    k.f.results = vec![Type::TASK_ID];
    let inv = k.builtin(crate::ir::BuiltinOp::TaskInvalid, vec![], Type::TASK_ID);
    let r = k.ret(vec![inv]);
    k.finish(vec![r])
}

#[test]
fn spec_section_1_example_after_the_pass() {
    let mut b = FnBuilder::new("main", FuncKind::Orchestration);
    b.f.results = vec![Type::TASK_ID];
    b.param("n", Type::I64, Direction::In);
    let four = b.int(4);
    let dt = b.dtype(ScalarType::TaskId);
    let create = b.builtin(
        crate::ir::BuiltinOp::ArrayCreate,
        vec![four, dt],
        task_array(4),
    );
    let (tids, s_tids) = b.let_("tids", create);
    let tids_use = b.v(tids);
    let dummy = b.task_dummy(vec![tids_use]);
    let (barrier, s_barrier) = b.let_("phase_fence_barrier_0_tid", dummy);
    let p = b.var("p", Type::INDEX);
    let mut body = Vec::new();
    for name in ["a", "b"] {
        let tid = b.var(&format!("{name}_tid"), Type::TASK_ID);
        let res = b.var(name, Type::TASK_ID);
        let dep = b.v(barrier);
        let mut s = b.submit(vec![res, tid], FIRST, vec![]);
        s.deps = b.exprs([dep]);
        body.push(b.submit_stmt(s));
    }
    let stop = b.int(4);
    let l = plain_for(&mut b, LoopKind::Parallel, p, stop, body);
    let scope = b.scope(true, None, vec![s_tids, s_barrier, l]);
    let inv = b.builtin(crate::ir::BuiltinOp::TaskInvalid, vec![], Type::TASK_ID);
    let r = b.ret(vec![inv]);
    let main = b.finish(vec![scope, r]);
    let m = module(vec![kernel(), main]);
    let expected = "\
func kernel() -> task_id {
  return system.task_invalid()
}

orchestration func main(n: i64) -> task_id {
  manual {
    tids = array.create(4, task_id)
    phase_fence_barrier_0_tid = system.task_dummy(deps=[tids])
    for p in parallel(4) {
      a, a_tid = submit kernel(deps=[phase_fence_barrier_0_tid])
      b, b_tid = submit kernel(deps=[phase_fence_barrier_0_tid])
    }
  }
  return system.task_invalid()
}
";
    assert_eq!(print_module(&m), expected);
    assert_eq!(
        print_function(&m, &m.functions()[0]),
        "func kernel() -> task_id {\n  return system.task_invalid()\n}\n"
    );
}

#[test]
fn empty_module_prints_nothing() {
    assert_eq!(print_module(&Module::default()), "");
}

#[test]
fn function_headers_omit_defaults() {
    let mut fs = Vec::new();
    for (kind, name) in [
        (FuncKind::Opaque, "a"),
        (FuncKind::Orchestration, "b"),
        (FuncKind::InCore, "c"),
        (FuncKind::Aic, "d"),
        (FuncKind::Aiv, "e"),
        (FuncKind::Group, "g"),
    ] {
        fs.push(FnBuilder::new(name, kind).finish(vec![]));
    }
    let mut h = FnBuilder::new("h", FuncKind::Opaque);
    h.param("x", Type::I64, Direction::In);
    h.param("y", task_array(4), Direction::Out);
    h.param(
        "z",
        Type::Tensor {
            dims: vec![Extent::Const(64), Extent::Dynamic(Some("n".into()))],
            elem: ScalarType::F32,
        },
        Direction::InOut,
    );
    h.f.results = vec![Type::I64, Type::TASK_ID];
    fs.push(h.finish(vec![]));
    let mut one = FnBuilder::new("one", FuncKind::Opaque);
    one.f.results = vec![Type::BOOL];
    fs.push(one.finish(vec![]));
    let expected = "\
func a() {
}

orchestration func b() {
}

incore func c() {
}

aic func d() {
}

aiv func e() {
}

group func g() {
}

func h(x: i64, out y: array<task_id, 4>, inout z: tensor<[64, n], f32>) -> (i64, task_id) {
}

func one() -> bool {
}
";
    assert_eq!(print_module(&module(fs)), expected);
}

#[test]
fn range_bounds_print_in_shortest_form() {
    let mut b = FnBuilder::new("f", FuncKind::Opaque);
    let n = b.param("n", Type::I64, Direction::In);
    let mut stmts = Vec::new();
    // (start, step) for each loop; None = the literal lowering makes.
    let cases: [(Option<i64>, Option<i64>, LoopKind); 6] = [
        (None, None, LoopKind::Range),
        (Some(2), None, LoopKind::Parallel),
        (Some(0), Some(2), LoopKind::Unroll),
        (Some(1), Some(3), LoopKind::Range),
        (Some(0), Some(1), LoopKind::Range),
        (Some(5), Some(1), LoopKind::Range),
    ];
    for (start, step, kind) in cases {
        let i = b.var("i", Type::INDEX);
        let start = start.map(|s| b.int(s));
        let step = step.map(|s| b.int(s));
        let stop = b.v(n);
        stmts.push(b.for_(vec![], kind, i, start, stop, step, vec![], vec![]));
    }
    // A bound that is not a literal is never dropped.
    let i = b.var("i", Type::INDEX);
    let start = b.v(n);
    let stop = b.v(n);
    let one = b.int(1);
    let step = b.bin(BinaryOp::Sub, one, start);
    stmts.push(b.for_(
        vec![],
        LoopKind::Range,
        i,
        Some(start),
        stop,
        Some(step),
        vec![],
        vec![],
    ));
    let m = module(vec![b.finish(stmts)]);
    let expected = "\
func f(n: i64) {
  for i in range(n) {
  }
  for i in parallel(2, n) {
  }
  for i in unroll(0, n, 2) {
  }
  for i in range(1, n, 3) {
  }
  for i in range(n) {
  }
  for i in range(5, n) {
  }
  for i in range(n, n, 1 - n) {
  }
}
";
    assert_eq!(print_module(&m), expected);
}

/// A group of statements of `bindings_carry_types_only_when_they_differ`,
/// built into `f(x: i64)`, and the lines they print as.
type BindingCase = (
    fn(&mut FnBuilder, crate::ir::VarId) -> Vec<crate::ir::StmtId>,
    &'static str,
);

/// Same type: no annotation; a different one: annotated.
fn single_bindings(b: &mut FnBuilder, x: crate::ir::VarId) -> Vec<crate::ir::StmtId> {
    let mut stmts = Vec::new();
    let e = b.v(x);
    stmts.push(b.let_("same", e).1);
    let e = b.v(x);
    let narrow = b.var("narrow", Type::Scalar(ScalarType::I32));
    stmts.push(b.assign(vec![narrow], e));
    let t = Type::Tensor {
        dims: vec![Extent::Const(64)],
        elem: ScalarType::F32,
    };
    let load = b.op("tensor.load", vec![], Type::Unknown);
    let tv = b.var("t", t);
    stmts.push(b.assign(vec![tv], load));
    let load = b.op("tensor.load", vec![], Type::Unknown);
    let (_, s) = b.let_("u", load);
    stmts.push(s);
    stmts
}

/// Several results: compared with the tuple's components; `_` never typed.
fn tuple_bindings(b: &mut FnBuilder, _: crate::ir::VarId) -> Vec<crate::ir::StmtId> {
    let mut stmts = Vec::new();
    let pair = b.op(
        "tensor.pair",
        vec![],
        Type::Tuple(vec![Type::I64, Type::BOOL]),
    );
    let p1 = b.var("p1", Type::I64);
    let p2 = b.var("p2", Type::Scalar(ScalarType::U8));
    stmts.push(b.assign(vec![p1, p2], pair));
    let pair = b.op(
        "tensor.pair",
        vec![],
        Type::Tuple(vec![Type::I64, Type::BOOL]),
    );
    let d1 = b.var("_", Type::I64);
    let d2 = b.var("_", Type::F32);
    stmts.push(b.assign(vec![d1, d2], pair));
    stmts
}

/// Submit: the callee's results then task_id.
fn submit_bindings(b: &mut FnBuilder, _: crate::ir::VarId) -> Vec<crate::ir::StmtId> {
    let mut stmts = Vec::new();
    let r1 = b.var("r1", Type::I64);
    let r2 = b.var("r2", Type::F32);
    let rt = b.var("rt", Type::TASK_ID);
    let s = b.submit(vec![r1, r2, rt], FIRST, vec![]);
    stmts.push(b.submit_stmt(s));
    let r1 = b.var("r1", Type::Scalar(ScalarType::I16));
    let r2 = b.var("_", Type::F32);
    let rt = b.var("rt", Type::Unknown);
    let s = b.submit(vec![r1, r2, rt], FIRST, vec![]);
    stmts.push(b.submit_stmt(s));
    stmts
}

/// Loop results compare with iter-args; iter-args with their inits.
fn for_bindings(b: &mut FnBuilder, _: crate::ir::VarId) -> Vec<crate::ir::StmtId> {
    let i = b.var("i", Type::INDEX);
    let acc = b.var("acc", Type::I64);
    let wide = b.var("wide", Type::Scalar(ScalarType::U64));
    let init1 = b.int(0);
    let init2 = b.int(1);
    let acc_use = b.v(acc);
    let wide_use = b.v(wide);
    let y = b.yield_(vec![acc_use, wide_use]);
    let out1 = b.var("out1", Type::I64);
    let out2 = b.var("out2", Type::I64);
    let stop = b.int(8);
    vec![b.for_(
        vec![out1, out2],
        LoopKind::Range,
        i,
        None,
        stop,
        None,
        vec![
            IterArg {
                var: acc,
                init: init1,
            },
            IterArg {
                var: wide,
                init: init2,
            },
        ],
        vec![y],
    )]
}

/// While: same rule.
fn while_bindings(b: &mut FnBuilder, x: crate::ir::VarId) -> Vec<crate::ir::StmtId> {
    let k = b.var("k", Type::I64);
    let k_init = b.v(x);
    let k_use = b.v(k);
    let ten = b.int(10);
    let cond = b.bin(BinaryOp::Lt, k_use, ten);
    let k_use = b.v(k);
    let one = b.int(1);
    let next = b.bin(BinaryOp::Add, k_use, one);
    let y = b.yield_(vec![next]);
    let kr = b.var("kr", Type::I64);
    vec![b.while_(
        [kr],
        cond,
        [IterArg {
            var: k,
            init: k_init,
        }],
        [y],
    )]
}

/// If: compare with the then-branch's yield.
fn if_bindings(b: &mut FnBuilder, _: crate::ir::VarId) -> Vec<crate::ir::StmtId> {
    let c = b.boolean(true);
    let a1 = b.float(1.5);
    let a2 = b.int(2);
    let y1 = b.yield_(vec![a1, a2]);
    let b1 = b.float(2.5);
    let b2 = b.int(3);
    let y2 = b.yield_(vec![b1, b2]);
    let f1 = b.var("f1", Type::F32);
    let f2 = b.var("f2", Type::Scalar(ScalarType::I8));
    vec![b.if_(vec![f1, f2], c, vec![y1], Some(vec![y2]))]
}

#[test]
fn bindings_carry_types_only_when_they_differ() {
    let cases: [BindingCase; 6] = [
        (
            single_bindings,
            "  same = x\n  narrow: i32 = x\n  t: tensor<[64], f32> = tensor.load()\n  u = tensor.load()\n",
        ),
        (
            tuple_bindings,
            "  p1, p2: u8 = tensor.pair()\n  _, _ = tensor.pair()\n",
        ),
        (
            submit_bindings,
            "  r1, r2, rt = submit worker()\n  r1: i16, _, rt = submit worker()\n",
        ),
        (
            for_bindings,
            "  out1, out2: i64 = for i in range(8) iter(acc = 0, wide: u64 = 1) {\n    yield acc, wide\n  }\n",
        ),
        (
            while_bindings,
            "  kr = while k < 10 iter(k = x) {\n    yield k + 1\n  }\n",
        ),
        (
            if_bindings,
            "  f1, f2: i8 = if true {\n    yield 1.5, 2\n  } else {\n    yield 2.5, 3\n  }\n",
        ),
    ];
    let mut worker = FnBuilder::new("worker", FuncKind::InCore);
    worker.f.results = vec![Type::I64, Type::F32];
    let worker = worker.finish(vec![]);

    let mut b = FnBuilder::new("f", FuncKind::Orchestration);
    let x = b.param("x", Type::I64, Direction::In);
    let mut stmts = Vec::new();
    let mut lines = String::new();
    for (build, printed) in cases {
        stmts.extend(build(&mut b, x));
        lines.push_str(printed);
    }
    let f = b.finish(stmts);
    let m = module(vec![worker, f]);
    let expected = format!(
        "incore func worker() -> (i64, f32) {{\n}}\n\norchestration func f(x: i64) {{\n{lines}}}\n"
    );
    assert_eq!(print_module(&m), expected);

    // The formatter's reading of the bindings back from a canonical line:
    // each binding's own text exactly when none is written with its type.
    let f = &m.functions()[1];
    let (mut plain, mut typed) = (0, 0);
    for line in super::lines::Lines::of(f) {
        let crate::ir::Anchor::Stmt(s) = line.anchor else {
            continue;
        };
        let kind = &f.stmts[s].kind;
        let mut text = String::new();
        super::lines::line_text(&m, f, &line, &mut text);
        let mut prefix = String::new();
        super::binding::write_bindings(&m, f, kind, &mut prefix);
        let mut got = Vec::new();
        let read = super::binding::unannotated_bindings(f, kind, &text, |b| got.push(b));
        if prefix.contains(':') {
            typed += 1;
            assert!(read.is_none(), "{text}");
        } else {
            plain += 1;
            assert_eq!(read, Some(()), "{text}");
            let joined = got.join(" ");
            assert_eq!(joined, prefix, "{text}");
        }
    }
    assert!(plain > 3 && typed > 3, "{plain} plain, {typed} typed");
}

#[test]
fn submit_keyword_arguments_print_in_canonical_order() {
    let mut k = FnBuilder::new("k", FuncKind::InCore);
    k.param("a", Type::I64, Direction::In);
    k.param("o", Type::I64, Direction::Out);
    let k = k.finish(vec![]);
    let mut b = FnBuilder::new("main", FuncKind::Orchestration);
    let x = b.param("x", Type::I64, Direction::In);
    let ts = b.param("ts", task_array(2), Direction::In);
    let mut stmts = Vec::new();
    let tid = b.var("t0", Type::TASK_ID);
    let a = b.v(x);
    let o = b.v(x);
    let mut s = b.submit(vec![tid], FIRST, vec![a, o]);
    s.arg_directions = b.directions([Direction::In, Direction::Out]);
    stmts.push(b.submit_stmt(s));
    let tid2 = b.var("t1", Type::TASK_ID);
    let a = b.v(x);
    let o = b.v(x);
    let mut s = b.submit(vec![tid2], FIRST, vec![a, o]);
    let d1 = b.v(ts);
    let d2 = b.v(tid);
    s.deps = b.exprs([d1, d2]);
    s.core_num = Some(b.int(4));
    s.sync_start = Some(b.boolean(true));
    s.allow_early_resolve = Some(b.boolean(true));
    let xv = b.v(x);
    let zero = b.int(0);
    s.predicate = Some(b.bin(BinaryOp::Gt, xv, zero));
    stmts.push(b.submit_stmt(s));
    let tid3 = b.var("_", Type::TASK_ID);
    let a = b.v(x);
    let o = b.v(x);
    let mut s = b.submit(vec![tid3], FIRST, vec![a, o]);
    s.allow_early_resolve = Some(b.boolean(true));
    s.predicate = Some(b.v(x));
    stmts.push(b.submit_stmt(s));
    // Other op calls: positional arguments, then keyword arguments as stored.
    let xv = b.v(x);
    let mut call = crate::ir::Call::new(b.op_callee("tensor.foo"));
    call.args = b.exprs([xv]);
    call.arg_directions = b.directions([Direction::In]);
    let one = b.int(1);
    let t = b.boolean(false);
    let kwargs = [b.kwarg("mode", one), b.kwarg("fast", t)];
    call.kwargs = b.f.new_list(&kwargs);
    let call = b.call(call, Type::Unknown);
    stmts.push(b.eval(call));
    let empty = b.task_dummy(vec![]);
    stmts.push(b.let_("bar", empty).1);
    let m = module(vec![k, b.finish(stmts)]);
    let expected = "\
incore func k(a: i64, out o: i64) {
}

orchestration func main(x: i64, ts: array<task_id, 2>) {
  t0 = submit k(x, x)
  t1 = submit k(x, x, deps=[ts, t0], core_num=4, sync_start=true, allow_early_resolve=true, predicate=(x > 0))
  _ = submit k(x, x, allow_early_resolve=true, predicate=(x))
  tensor.foo(x, mode=1, fast=false)
  bar = system.task_dummy()
}
";
    assert_eq!(print_module(&m), expected);
}

#[test]
fn else_if_chains_and_control_flow() {
    let mut b = FnBuilder::new("f", FuncKind::Opaque);
    let x = b.param("x", Type::I64, Direction::In);
    let mk_cond = |b: &mut FnBuilder, n: i64| {
        let xv = b.v(x);
        let nv = b.int(n);
        b.bin(BinaryOp::Eq, xv, nv)
    };
    // if .. else if .. else if .. else ..
    let c3 = mk_cond(&mut b, 3);
    let brk = b.stmt(StmtKind::Break);
    let cont = b.stmt(StmtKind::Continue);
    let if3 = b.if_(vec![], c3, vec![brk], Some(vec![cont]));
    let c2 = mk_cond(&mut b, 2);
    let if2 = b.if_(vec![], c2, vec![], Some(vec![if3]));
    let c1 = mk_cond(&mut b, 1);
    let call = b.op("tensor.noop", vec![], Type::Unknown);
    let ev = b.eval(call);
    let if1 = b.if_(vec![], c1, vec![ev], Some(vec![if2]));
    // An else branch with more than an `if` keeps its braces.
    let c4 = mk_cond(&mut b, 4);
    let inner = b.if_(vec![], c4, vec![], None);
    let call = b.op("tensor.noop", vec![], Type::Unknown);
    let ev = b.eval(call);
    let c5 = mk_cond(&mut b, 5);
    let outer = b.if_(vec![], c5, vec![], Some(vec![inner, ev]));
    // An `if` with results in the else branch is not an `else if`.
    let c6 = mk_cond(&mut b, 6);
    let one = b.int(1);
    let two = b.int(2);
    let y1 = b.yield_(vec![one]);
    let y2 = b.yield_(vec![two]);
    let r = b.var("r", Type::I64);
    let with_results = b.if_(vec![r], c6, vec![y1], Some(vec![y2]));
    let c7 = mk_cond(&mut b, 7);
    let outer2 = b.if_(vec![], c7, vec![], Some(vec![with_results]));
    let i = b.var("i", Type::INDEX);
    let stop = b.int(3);
    let l = plain_for(&mut b, LoopKind::Range, i, stop, vec![if1]);
    let auto = b.scope(false, Some("a \"q\" \\ b"), vec![outer, outer2]);
    let manual = b.scope(true, Some("stage1"), vec![]);
    let ret = b.ret(vec![]);
    let m = module(vec![b.finish(vec![l, auto, manual, ret])]);
    let expected = "\
func f(x: i64) {
  for i in range(3) {
    if x == 1 {
      tensor.noop()
    } else if x == 2 {
    } else if x == 3 {
      break
    } else {
      continue
    }
  }
  auto \"a \\\"q\\\" \\\\ b\" {
    if x == 5 {
    } else {
      if x == 4 {
      }
      tensor.noop()
    }
    if x == 7 {
    } else {
      r = if x == 6 {
        yield 1
      } else {
        yield 2
      }
    }
  }
  manual \"stage1\" {
  }
  return
}
";
    assert_eq!(print_module(&m), expected);
}

/// Builds `f(a, b, c, d: i64, p, q: bool)` and prints the expressions `make` returns.
fn exprs_printed(
    make: impl FnOnce(&mut FnBuilder, [crate::ir::ExprId; 6]) -> Vec<crate::ir::ExprId>,
) -> Vec<String> {
    let mut b = FnBuilder::new("f", FuncKind::Opaque);
    let mut vars: Vec<_> = ["a", "b", "c", "d"]
        .into_iter()
        .map(|n| b.param(n, Type::I64, Direction::In))
        .collect();
    vars.extend(["p", "q"].map(|n| b.param(n, Type::BOOL, Direction::In)));
    let uses = [0, 1, 2, 3, 4, 5].map(|i| b.v(vars[i]));
    let es = make(&mut b, uses);
    es.iter()
        .map(|e| print_expr(&Module::default(), &b.f, *e))
        .collect()
}

#[test]
fn expressions_print_with_minimal_parentheses() {
    use BinaryOp::*;
    let printed = exprs_printed(|b, [a, bb, c, _d, p, q]| {
        let mut out = Vec::new();
        // Left-associative arithmetic.
        let ab = b.bin(Sub, a, bb);
        out.push(b.bin(Sub, ab, c)); // a - b - c
        let bc = b.bin(Sub, bb, c);
        out.push(b.bin(Sub, a, bc)); // a - (b - c)
        let ab = b.bin(Add, a, bb);
        out.push(b.bin(Mul, ab, c)); // (a + b) * c
        let bc = b.bin(Mul, bb, c);
        out.push(b.bin(Add, a, bc)); // a + b * c
        let bc = b.bin(Div, bb, c);
        out.push(b.bin(Mul, a, bc)); // a * (b / c)
        let ab = b.bin(Rem, a, bb);
        out.push(b.bin(Div, ab, c)); // a % b / c
        // Unary minus binds tightest.
        let na = b.un(UnaryOp::Neg, a);
        out.push(b.bin(Mul, na, bb)); // -a * b
        let ab = b.bin(Mul, a, bb);
        out.push(b.un(UnaryOp::Neg, ab)); // -(a * b)
        let nb = b.un(UnaryOp::Neg, bb);
        out.push(b.bin(Sub, a, nb)); // a - -b
        let na = b.un(UnaryOp::Neg, a);
        out.push(b.un(UnaryOp::Neg, na)); // --a
        // Comparisons are non-associative.
        let ab = b.bin(Lt, a, bb);
        out.push(b.bin(Lt, ab, p)); // (a < b) < p
        let bc = b.bin(Eq, bb, c);
        out.push(b.bin(Eq, p, bc)); // p == (b == c)
        let ab = b.bin(Add, a, bb);
        out.push(b.bin(Le, ab, c)); // a + b <= c
        // not sits between and and comparisons.
        let ab = b.bin(Eq, a, bb);
        out.push(b.un(UnaryOp::Not, ab)); // not a == b
        let nq = b.un(UnaryOp::Not, q);
        out.push(b.bin(Eq, p, nq)); // p == (not q)
        let pq = b.bin(And, p, q);
        out.push(b.un(UnaryOp::Not, pq)); // not (p and q)
        let np = b.un(UnaryOp::Not, p);
        out.push(b.bin(And, np, q)); // not p and q
        let np = b.un(UnaryOp::Not, p);
        out.push(b.un(UnaryOp::Not, np)); // not not p
        let np = b.un(UnaryOp::Not, p);
        out.push(b.un(UnaryOp::Neg, np)); // -(not p)
        // and binds tighter than or.
        let pq = b.bin(And, p, q);
        out.push(b.bin(Or, pq, p)); // p and q or p
        let pq = b.bin(Or, p, q);
        out.push(b.bin(And, pq, p)); // (p or q) and p
        let qp = b.bin(Or, q, p);
        out.push(b.bin(Or, p, qp)); // p or (q or p)
        let pq = b.bin(Or, p, q);
        out.push(b.bin(Or, pq, p)); // p or q or p
        // Calls, lists and literals are atoms.
        let lit = b.float(0.001);
        let tiny = b.float(1e-7);
        let big = b.float(1e100);
        let none = b.none();
        let t = b.boolean(true);
        let dt = b.dtype(ScalarType::BF16);
        let l = b.list(vec![a, none]);
        out.push(b.op("tensor.mix", vec![lit, tiny, big, t, dt, l], Type::Unknown));
        let call = b.op("tensor.get", vec![], Type::I64);
        let one = b.int(1);
        let sum = b.bin(Add, call, one);
        out.push(b.un(UnaryOp::Neg, sum)); // -(tensor.get() + 1)
        out
    });
    let expected = [
        "a - b - c",
        "a - (b - c)",
        "(a + b) * c",
        "a + b * c",
        "a * (b / c)",
        "a % b / c",
        "-a * b",
        "-(a * b)",
        "a - -b",
        "--a",
        "(a < b) < p",
        "p == (b == c)",
        "a + b <= c",
        "not a == b",
        "p == (not q)",
        "not (p and q)",
        "not p and q",
        "not not p",
        "-(not p)",
        "p and q or p",
        "(p or q) and p",
        "p or (q or p)",
        "p or q or p",
        "tensor.mix(0.001, 1e-7, 1e100, true, bf16, [a, none])",
        "-(tensor.get() + 1)",
    ];
    assert_eq!(printed, expected);
}

#[test]
fn output_has_no_trailing_whitespace_and_one_final_newline() {
    let m = module(vec![
        kernel(),
        FnBuilder::new("e", FuncKind::Opaque).finish(vec![]),
    ]);
    let text = print_module(&m);
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
    assert!(text.lines().all(|l| l == l.trim_end()));
    assert!(text.contains("}\n\nfunc e() {\n}\n"));
}

/// `depth` nested `for` loops, the innermost holding `x = x + 1`.
fn nested_loops(depth: usize) -> Module {
    let mut b = FnBuilder::new("deep", FuncKind::Opaque);
    let x = b.param("x", Type::I64, Direction::In);
    let xv = b.v(x);
    let one = b.int(1);
    let sum = b.bin(BinaryOp::Add, xv, one);
    let (_, mut inner) = b.let_("x", sum);
    for _ in 0..depth {
        let i = b.var("i", Type::INDEX);
        let stop = b.int(2);
        inner = plain_for(&mut b, LoopKind::Range, i, stop, vec![inner]);
    }
    module(vec![b.finish(vec![inner])])
}

#[test]
fn deep_nesting_prints_without_overflow() {
    let depth = 10_000;
    let text = print_module(&nested_loops(depth));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * depth + 3);
    assert_eq!(
        lines[depth + 1],
        format!("{}x = x + 1", "  ".repeat(depth + 1))
    );
    assert_eq!(lines[depth + 2], format!("{}}}", "  ".repeat(depth)));
    assert_eq!(lines.last(), Some(&"}"));
}

#[test]
fn deep_expressions_print_without_overflow() {
    let depth = 10_000;
    let text = {
        let mut b = FnBuilder::new("f", FuncKind::Opaque);
        let x = b.param("x", Type::I64, Direction::In);
        // x - (x - (x - ...)) and -(-(-x)).
        let mut right = b.v(x);
        let mut neg = b.v(x);
        for _ in 0..depth {
            let xv = b.v(x);
            right = b.bin(BinaryOp::Sub, xv, right);
            neg = b.un(UnaryOp::Neg, neg);
        }
        format!(
            "{}\n{}",
            print_expr(&Module::default(), &b.f, right),
            print_expr(&Module::default(), &b.f, neg)
        )
    };
    let (right, neg) = text.split_once('\n').unwrap();
    assert_eq!(right.matches('(').count(), depth - 1);
    assert!(right.ends_with(&format!("x - x{}", ")".repeat(depth - 1))));
    assert_eq!(neg, format!("{}x", "-".repeat(depth)));
}

/// Counts what is written without keeping it.
#[derive(Default)]
struct CountingSink {
    bytes: u64,
    lines: u64,
}

impl std::io::Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes += buf.len() as u64;
        self.lines += buf.iter().filter(|b| **b == b'\n').count() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The canonical text of deeply nested loops grows with the square of the
/// depth (20,000 levels: 800 MB of indentation; the limit of 200,000: 80 GB),
/// too much to keep; this streams it into a byte counter and checks every
/// byte is accounted for, on a thread with a small stack: the statement walk
/// uses a work list, not recursion.
#[test]
fn deep_20k_loops_stream_on_a_small_stack() {
    let depth: u64 = 20_000;
    let m = nested_loops(depth as usize);
    let sink = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let mut sink = CountingSink::default();
            super::write_module(&m, &mut sink).unwrap();
            sink
        })
        .unwrap()
        .join()
        .unwrap();
    let header = "func deep(x: i64) {\n".len() as u64;
    let opener = "for i in range(2) {\n".len() as u64;
    let inner = "x = x + 1\n".len() as u64;
    let indentation = 2 * depth * (depth + 1); // openers and closers
    let expected = header
        + depth * opener
        + 2 * (depth + 1)
        + inner
        + indentation
        + depth * "}\n".len() as u64
        + "}\n".len() as u64;
    assert_eq!(sink.lines, 2 * depth + 3);
    assert_eq!(sink.bytes, expected);
}

#[test]
fn equality_of_deep_nesting_uses_no_recursion() {
    // A small stack is enough: statements are compared with a work list.
    let result = std::thread::Builder::new()
        .stack_size(512 << 10)
        .spawn(|| {
            let a = nested_loops(10_000);
            let mut b = nested_loops(10_000);
            let same = crate::ir::equality::modules_equal(&a, &b);
            // Change the innermost `x + 1` to `x + 2`.
            let f = &mut b.functions_mut()[0];
            let one = f
                .exprs
                .iter()
                .find(|(_, e)| matches!(e.kind, crate::ir::ExprKind::Int(n) if n.get() == 1))
                .map(|(id, _)| id)
                .unwrap();
            f.exprs[one].kind = crate::ir::ExprKind::Int(2.into());
            (same, crate::ir::equality::modules_equal(&a, &b))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(result.0, Ok(()));
    assert_eq!(
        result.1,
        Err("function `deep`: in statement `x = x + 1` vs `x = x + 2`: expressions `1` vs `2`: they differ".to_string())
    );
}

/// The indentation the output check counts is the indentation the printer
/// writes, on every valid round-trip input (`if` chains, `else`, loops,
/// scopes) and on a deep nest.
#[test]
fn counted_indentation_is_printed_indentation() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for dir in ["tests/lit/frontend", "tests/passes", "examples"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pfir"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            for (base, chunk) in crate::split_input::split_chunks(&text) {
                let Some(m) =
                    crate::frontend::read_module(chunk, crate::frontend::ReadOptions::at(base))
                        .into_parts()
                        .0
                else {
                    continue;
                };
                let printed: u64 = print_module(&m)
                    .lines()
                    .map(|l| (l.len() - l.trim_start_matches(' ').len()) as u64)
                    .sum();
                let counted: u64 = m
                    .functions()
                    .iter()
                    .map(|f| super::stmt::indentation(super::lines::Lines::of(f), |_| 0).0)
                    .sum();
                assert_eq!(counted, printed, "{}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} modules");
    let m = nested_loops(300);
    let printed: u64 = print_module(&m)
        .lines()
        .map(|l| (l.len() - l.trim_start_matches(' ').len()) as u64)
        .sum();
    let (counted, deepest) =
        super::stmt::indentation(super::lines::Lines::of(&m.functions()[0]), |_| 0);
    assert_eq!((counted, deepest.map(|d| d.1)), (printed, Some(301)));
    assert!(super::check_output_size([&m]).is_ok());
}
