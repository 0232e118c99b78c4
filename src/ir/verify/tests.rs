//! One test per kind of corruption: a well-formed module, built with
//! [`Builder`], is broken in one way and the verifier must name what
//! broke. The corpus and the pass's output are checked in
//! `tests/it/ir_verify.rs`.

use super::*;
use crate::ir::builder::Builder;
use crate::ir::{
    BinaryOp, BuiltinOp, Extent, ForId, FuncId, FuncKind, IterArg, ListPool, LoopKind, ScalarType,
    StmtKind, SubmitId,
};

/// The ids of the fixture's nodes that the tests break.
struct Fixture {
    m: Module,
    /// `n` and `buf`, `main`'s parameters.
    n: VarId,
    /// `t0 = system.task_invalid()`, the first statement of `main`.
    t0_stmt: StmtId,
    t0: VarId,
    /// `a`, the array made inside `manual { }`.
    a: VarId,
    for_stmt: StmtId,
    for_id: ForId,
    i: VarId,
    acc: VarId,
    submit: SubmitId,
    submit_stmt: StmtId,
    /// `c = i < n` in the loop, and its value.
    c_stmt: StmtId,
    c_value: ExprId,
    if_stmt: StmtId,
    /// `debug.print(r)` in the `if`.
    print_stmt: StmtId,
    ret_stmt: StmtId,
}

/// ```text
/// func k(x: i64, out o: tensor<[4], f32>) -> i64 { return x }
/// orchestration func main(n: i64, out buf: tensor<[4], f32>) -> task_id {
///   t0 = system.task_invalid()
///   manual { a = array.create(4, task_id) }
///   total = for i in range(n) iter(acc = 0) {
///     r, tid = submit k(i, buf, deps=[a])
///     c = i < n
///     if c { debug.print(r) }
///     sum = acc + r
///     yield sum
///   }
///   return t0
/// }
/// ```
fn fixture() -> Fixture {
    let tensor = Type::Tensor {
        dims: vec![Extent::Const(4)],
        elem: ScalarType::F32,
    };
    let mut k = Builder::new("k", FuncKind::InCore);
    let x = k.param("x", Type::I64, Direction::In);
    k.param("o", tensor.clone(), Direction::Out);
    k.f.results = vec![Type::I64];
    let xv = k.v(x);
    let kret = k.ret([xv]);
    let k = k.finish([kret]);

    let mut b = Builder::new("main", FuncKind::Orchestration);
    let n = b.param("n", Type::I64, Direction::In);
    let buf = b.param("buf", tensor, Direction::Out);
    b.f.results = vec![Type::TASK_ID];
    let invalid = b.builtin(crate::ir::BuiltinOp::TaskInvalid, [], Type::TASK_ID);
    let (t0, t0_stmt) = b.let_("t0", invalid);
    let (a_stmt, a) = b.create_task_array("a", 4);
    let scope = b.scope(true, None, [a_stmt]);
    let i = b.var("i", Type::INDEX);
    let acc = b.var("acc", Type::I64);
    let r = b.var("r", Type::I64);
    let tid = b.var("tid", Type::TASK_ID);
    let (iv, bufv, av) = (b.v(i), b.v(buf), b.v(a));
    let mut sub = b.submit([r, tid], FuncId::from_index(0), [iv, bufv]);
    sub.arg_directions = b.directions([Direction::In, Direction::Out]);
    sub.deps = b.exprs([av]);
    let submit_stmt = b.submit_stmt(sub);
    let StmtKind::Submit(submit) = b.f.stmts[submit_stmt].kind else {
        unreachable!()
    };
    let (iv, nv) = (b.v(i), b.v(n));
    let c_value = b.bin(BinaryOp::Lt, iv, nv);
    let (c, c_stmt) = b.let_("c", c_value);
    let rv = b.v(r);
    let print = b.op("debug.print", [rv], Type::Unknown);
    let print_stmt = b.eval(print);
    let cv = b.v(c);
    let if_stmt = b.if_([], cv, [print_stmt], None);
    let (accv, rv) = (b.v(acc), b.v(r));
    let add = b.bin(BinaryOp::Add, accv, rv);
    let (sum, sum_stmt) = b.let_("sum", add);
    let sumv = b.v(sum);
    let yield_stmt = b.yield_([sumv]);
    let total = b.var("total", Type::I64);
    let (nv, zero) = (b.v(n), b.int(0));
    let for_stmt = b.for_(
        [total],
        LoopKind::Range,
        i,
        None,
        nv,
        None,
        [IterArg {
            var: acc,
            init: zero,
        }],
        [submit_stmt, c_stmt, if_stmt, sum_stmt, yield_stmt],
    );
    let StmtKind::For(for_id) = b.f.stmts[for_stmt].kind else {
        unreachable!()
    };
    let t0v = b.v(t0);
    let ret_stmt = b.ret([t0v]);
    let main = b.finish([t0_stmt, scope, for_stmt, ret_stmt]);
    Fixture {
        m: Module::new(vec![k, main]),
        n,
        t0_stmt,
        t0,
        a,
        for_stmt,
        for_id,
        i,
        acc,
        submit,
        submit_stmt,
        c_stmt,
        c_value,
        if_stmt,
        print_stmt,
        ret_stmt,
    }
}

impl Fixture {
    fn main(&mut self) -> &mut Function {
        &mut self.m.functions_mut()[1]
    }

    /// The errors of the module, which must have some.
    fn errors(&self) -> Vec<VerifyError> {
        verify_module(&self.m).expect_err("the corruption is not detected")
    }

    /// A new use of `v` (of its type).
    fn use_of(&mut self, v: VarId) -> ExprId {
        Builder::edit(self.main()).v(v)
    }

    /// Replaces the values `return` gives.
    fn set_return(&mut self, values: &[ExprId]) {
        let id = self.ret_stmt;
        let f = self.main();
        let StmtKind::Return(old) = f.stmts[id].kind else {
            unreachable!()
        };
        f.stmts[id].kind = StmtKind::Return(f.replace_list(old, values));
    }

    /// Replaces the statements of the loop's body.
    fn set_loop_body(&mut self, stmts: &[StmtId]) {
        let id = self.for_id;
        let f = self.main();
        let old = f.fors[id].body.stmts;
        f.fors[id].body.stmts = f.replace_list(old, stmts);
    }

    fn loop_body(&mut self) -> Vec<StmtId> {
        let id = self.for_id;
        let f = self.main();
        f.list(f.fors[id].body.stmts).to_vec()
    }
}

/// Asserts that `errors` has one matching `pred`, about `node`.
#[track_caller]
fn assert_names(errors: &[VerifyError], node: Node, pred: impl Fn(&ErrorKind) -> bool) {
    assert!(
        errors.iter().any(|e| e.node == node && pred(&e.kind)),
        "expected an error about {node:?}, got {errors:#?}"
    );
    for e in errors {
        assert_eq!(e.function, "main", "{e}");
    }
}

#[test]
fn the_fixture_is_well_formed() {
    let fx = fixture();
    verify_module(&fx.m).unwrap();
}

#[test]
fn an_id_out_of_range_is_named() {
    // A use of a variable that does not exist.
    let mut fx = fixture();
    let e = fx.c_value;
    let ExprKind::Binary(op, l, _) = fx.main().exprs[e].kind else {
        unreachable!()
    };
    fx.main().exprs[e].kind = ExprKind::Binary(op, l, ExprId::from_index(9999));
    let errors = fx.errors();
    assert_names(&errors, Node::Expr(e), |k| {
        *k == ErrorKind::IdOutOfRange {
            entity: Entity::Expr,
            index: 9999,
        }
    });

    let mut fx = fixture();
    let use_ = fx.use_of(fx.n);
    fx.main().exprs[use_].kind = ExprKind::Var(VarId::from_index(7777));
    fx.set_return(&[use_]);
    let errors = fx.errors();
    assert_names(&errors, Node::Expr(use_), |k| {
        *k == ErrorKind::IdOutOfRange {
            entity: Entity::Var,
            index: 7777,
        }
    });

    // A statement id in a block, a type id on an expression, a callee.
    let mut fx = fixture();
    let mut body = fx.loop_body();
    body.insert(0, StmtId::from_index(5555));
    fx.set_loop_body(&body);
    let errors = fx.errors();
    assert!(errors.iter().any(|e| e.kind
        == ErrorKind::IdOutOfRange {
            entity: Entity::Stmt,
            index: 5555
        }));

    let mut fx = fixture();
    let e = fx.c_value;
    fx.main().exprs[e].ty = TypeId::from_index(4444);
    assert_names(&fx.errors(), Node::Expr(e), |k| {
        *k == ErrorKind::IdOutOfRange {
            entity: Entity::Type,
            index: 4444,
        }
    });

    let mut fx = fixture();
    let s = fx.submit;
    fx.main().submits[s].callee = Callee::Function(FuncId::from_index(3));
    assert_names(&fx.errors(), Node::Stmt(fx.submit_stmt), |k| {
        *k == ErrorKind::IdOutOfRange {
            entity: Entity::Function,
            index: 3,
        }
    });
}

/// `return` given the handle `list`: the verifier names the `return` with
/// `want`.
fn assert_return_named(mut fx: Fixture, list: crate::ir::ExprList, want: ErrorKind) {
    let id = fx.ret_stmt;
    fx.main().stmts[id].kind = StmtKind::Return(list);
    assert_names(&fx.errors(), Node::Stmt(id), |k| *k == want);
}

#[test]
fn a_list_out_of_its_pool_is_named() {
    let mut fx = fixture();
    let use_ = fx.use_of(fx.t0);
    // A handle made in another, larger pool points past this one's end.
    let mut other = ListPool::new();
    for _ in 0..1000 {
        EntityList::from_slice(&[use_], &mut other);
    }
    let far = EntityList::from_slice(&[use_, use_], &mut other);
    assert_return_named(
        fx,
        far,
        ErrorKind::ListOutOfRange {
            list: ListKind::Exprs,
        },
    );
}

#[test]
fn a_list_held_twice_is_named() {
    let mut fx = fixture();
    // `return` given the handle of the submit's `deps`.
    let deps = {
        let s = fx.submit;
        fx.main().submits[s].deps
    };
    assert_return_named(
        fx,
        deps,
        ErrorKind::ListShared {
            list: ListKind::Exprs,
        },
    );
}

#[test]
fn a_statement_in_two_blocks_is_named() {
    let mut fx = fixture();
    let mut body = fx.loop_body();
    body.push(fx.t0_stmt);
    fx.set_loop_body(&body);
    let t0 = fx.t0_stmt;
    assert_names(&fx.errors(), Node::Stmt(t0), |k| {
        *k == ErrorKind::StmtInTwoBlocks { stmt: t0 }
    });
    // A loop holding itself: reported, and the walk ends.
    let mut fx = fixture();
    let mut body = fx.loop_body();
    body.push(fx.for_stmt);
    fx.set_loop_body(&body);
    let l = fx.for_stmt;
    assert_names(&fx.errors(), Node::Stmt(l), |k| {
        *k == ErrorKind::StmtInTwoBlocks { stmt: l }
    });
}

#[test]
fn an_expression_with_two_parents_is_named() {
    let mut fx = fixture();
    let e = fx.c_value;
    let ExprKind::Binary(_, l, _) = fx.main().exprs[e].kind else {
        unreachable!()
    };
    fx.set_return(&[l]);
    assert_names(&fx.errors(), Node::Expr(l), |k| {
        *k == ErrorKind::ExprShared { expr: l }
    });
    // An expression that is its own operand: reported, and the walk ends.
    let mut fx = fixture();
    let e = fx.c_value;
    let ExprKind::Binary(op, l, _) = fx.main().exprs[e].kind else {
        unreachable!()
    };
    fx.main().exprs[e].kind = ExprKind::Binary(op, l, e);
    assert_names(&fx.errors(), Node::Expr(e), |k| {
        *k == ErrorKind::ExprShared { expr: e }
    });
}

#[test]
fn a_variable_defined_twice_is_named() {
    let mut fx = fixture();
    // `t0 = ...` also binds `n`, a parameter.
    let id = fx.t0_stmt;
    let (n, t0) = (fx.n, fx.t0);
    let f = fx.main();
    let StmtKind::Assign { results, value } = f.stmts[id].kind else {
        unreachable!()
    };
    let results = f.replace_list(results, &[t0, n]);
    f.stmts[id].kind = StmtKind::Assign { results, value };
    assert_names(&fx.errors(), Node::Stmt(id), |k| {
        *k == ErrorKind::VarDefinedTwice { var: n }
    });
}

#[test]
fn uses_not_dominated_by_their_definition_are_named() {
    // The induction variable and an iter-arg after the loop.
    for var in [fixture().i, fixture().acc] {
        let mut fx = fixture();
        let use_ = fx.use_of(var);
        fx.set_return(&[use_]);
        assert_names(&fx.errors(), Node::Expr(use_), |k| {
            *k == ErrorKind::UseNotDominated { var }
        });
    }
    // A use before its definition: `c` read by the statement before it.
    let mut fx = fixture();
    let (c_stmt, if_stmt) = (fx.c_stmt, fx.if_stmt);
    let body: Vec<StmtId> = fx
        .loop_body()
        .into_iter()
        .map(|s| match s {
            s if s == c_stmt => if_stmt,
            s if s == if_stmt => c_stmt,
            s => s,
        })
        .collect();
    fx.set_loop_body(&body);
    let errors = fx.errors();
    assert!(
        errors
            .iter()
            .any(|e| matches!(e.kind, ErrorKind::UseNotDominated { .. })),
        "{errors:#?}"
    );
    // A variable defined in a `for` body is not visible after it, but one
    // defined in `manual { }` is: the fixture's `return` reads `t0`, and
    // the loop's `deps` read `a`, defined in the scope.
    let mut fx = fixture();
    let a = fx.use_of(fx.a);
    fx.set_return(&[a]);
    let errors = verify_module(&fx.m).unwrap_err();
    assert!(
        errors
            .iter()
            .all(|e| !matches!(e.kind, ErrorKind::UseNotDominated { .. })),
        "{errors:#?}"
    );
}

#[test]
fn a_use_of_a_variable_never_defined_is_named() {
    let mut fx = fixture();
    let ghost = Builder::edit(fx.main()).var("ghost", Type::TASK_ID);
    let use_ = fx.use_of(ghost);
    fx.set_return(&[use_]);
    assert_names(&fx.errors(), Node::Expr(use_), |k| {
        *k == ErrorKind::UseOfUndefined { var: ghost }
    });
}

#[test]
fn wrong_argument_counts_and_directions_are_named() {
    // One argument too few for `k`.
    let mut fx = fixture();
    let s = fx.submit;
    let f = fx.main();
    let args = f.list(f.submits[s].args).to_vec();
    let old = f.submits[s].args;
    f.submits[s].args = f.replace_list(old, &args[..1]);
    let errors = fx.errors();
    assert_names(&errors, Node::Stmt(fx.submit_stmt), |k| {
        *k == ErrorKind::ArgumentCount {
            expected: 2,
            found: 1,
        }
    });
    assert_names(&errors, Node::Stmt(fx.submit_stmt), |k| {
        *k == ErrorKind::DirectionCount {
            args: 1,
            directions: 2,
        }
    });
    // `buf` passed `in` where `k` declares `out`.
    let mut fx = fixture();
    let s = fx.submit;
    let f = fx.main();
    f.submits[s].arg_directions = f.new_directions([Direction::In, Direction::In]);
    assert_names(&fx.errors(), Node::Stmt(fx.submit_stmt), |k| {
        *k == ErrorKind::Direction {
            index: 1,
            expected: Direction::Out,
            found: Direction::In,
        }
    });
    // An op's argument that is not `in`.
    let mut fx = fixture();
    let print = fx.print_stmt;
    let f = fx.main();
    let StmtKind::Eval(e) = f.stmts[print].kind else {
        unreachable!()
    };
    let ExprKind::Call(c) = f.exprs[e].kind else {
        unreachable!()
    };
    f.calls[c].arg_directions = f.new_directions([Direction::InOut]);
    assert_names(&fx.errors(), Node::Expr(e), |k| {
        *k == ErrorKind::Direction {
            index: 0,
            expected: Direction::In,
            found: Direction::InOut,
        }
    });
}

#[test]
fn wrong_result_counts_are_named() {
    // A loop with one iter-arg binding no result.
    let mut fx = fixture();
    let id = fx.for_id;
    let f = fx.main();
    let old = f.fors[id].results;
    f.fors[id].results = f.replace_list(old, &[]);
    assert_names(&fx.errors(), Node::Stmt(fx.for_stmt), |k| {
        *k == ErrorKind::ResultCount {
            expected: 1,
            found: 0,
        }
    });
    // `return` with no value where `main` returns one.
    let mut fx = fixture();
    fx.set_return(&[]);
    assert_names(&fx.errors(), Node::Stmt(fx.ret_stmt), |k| {
        *k == ErrorKind::ResultCount {
            expected: 1,
            found: 0,
        }
    });
    // A submit binding the task id only.
    let mut fx = fixture();
    let s = fx.submit;
    let f = fx.main();
    let results = f.list(f.submits[s].results).to_vec();
    let old = f.submits[s].results;
    f.submits[s].results = f.replace_list(old, &results[1..]);
    assert_names(&fx.errors(), Node::Stmt(fx.submit_stmt), |k| {
        *k == ErrorKind::ResultCount {
            expected: 2,
            found: 1,
        }
    });
}

#[test]
fn an_eval_of_something_not_a_call_is_named() {
    let mut fx = fixture();
    let print = fx.print_stmt;
    let use_ = fx.use_of(fx.n);
    fx.main().stmts[print].kind = StmtKind::Eval(use_);
    assert_names(&fx.errors(), Node::Stmt(print), |k| {
        *k == ErrorKind::EvalNotCall
    });
}

#[test]
fn a_builtin_unlike_its_name_is_named() {
    // `t0 = system.task_invalid()` resolved to another op.
    let mut fx = fixture();
    let t0 = fx.t0_stmt;
    let f = fx.main();
    let StmtKind::Assign { value, .. } = f.stmts[t0].kind else {
        unreachable!()
    };
    let ExprKind::Call(c) = f.exprs[value].kind else {
        unreachable!()
    };
    f.calls[c].builtin = Some(BuiltinOp::TaskDummy);
    assert_names(&fx.errors(), Node::Expr(value), |k| {
        *k == ErrorKind::Builtin {
            expected: Some(BuiltinOp::TaskInvalid),
            found: Some(BuiltinOp::TaskDummy),
        }
    });
    // An op pfir does not know, resolved to a built-in one.
    let mut fx = fixture();
    let f = fx.main();
    let (c, e) = f
        .exprs
        .iter()
        .find_map(|(e, x)| match x.kind {
            ExprKind::Call(c) if f.calls[c].builtin.is_none() => Some((c, e)),
            _ => None,
        })
        .expect("`debug.print(r)` is a call");
    f.calls[c].builtin = Some(BuiltinOp::ArrayCreate);
    assert_names(&fx.errors(), Node::Expr(e), |k| {
        *k == ErrorKind::Builtin {
            expected: None,
            found: Some(BuiltinOp::ArrayCreate),
        }
    });
}

#[test]
fn inconsistent_types_are_named() {
    let ty = |fx: &mut Fixture, t: Type| fx.main().types.intern(t);
    // The `if` condition made an i64.
    let mut fx = fixture();
    let c = fx.c_value;
    let i64_ty = ty(&mut fx, Type::I64);
    fx.main().exprs[c].ty = i64_ty;
    let errors = fx.errors();
    assert_names(&errors, Node::Expr(c), |k| {
        matches!(
            k,
            ErrorKind::Type {
                site: TypeSite::Logical,
                ..
            }
        )
    });
    assert_names(&errors, Node::Stmt(fx.c_stmt), |k| {
        matches!(
            k,
            ErrorKind::Type {
                site: TypeSite::Binding(0),
                ..
            }
        )
    });
    // A use of `n` (i64) typed bool.
    let mut fx = fixture();
    let use_ = fx.use_of(fx.n);
    let bool_ty = ty(&mut fx, Type::BOOL);
    fx.main().exprs[use_].ty = bool_ty;
    fx.set_return(&[use_]);
    assert_names(&fx.errors(), Node::Expr(use_), |k| {
        *k == ErrorKind::Type {
            site: TypeSite::VarUse,
            expected: Type::I64,
            found: Type::BOOL,
        }
    });
    // A `deps` entry that is an integer.
    let mut fx = fixture();
    let n = fx.use_of(fx.n);
    let s = fx.submit;
    let f = fx.main();
    let old = f.submits[s].deps;
    f.submits[s].deps = f.replace_list(old, &[n]);
    assert_names(&fx.errors(), Node::Stmt(fx.submit_stmt), |k| {
        *k == ErrorKind::Type {
            site: TypeSite::Dependency,
            expected: Type::TASK_ID,
            found: Type::I64,
        }
    });
    // An `if` on a task id.
    let mut fx = fixture();
    let t0 = fx.use_of(fx.t0);
    let if_stmt = fx.if_stmt;
    let f = fx.main();
    let StmtKind::If(i) = f.stmts[if_stmt].kind else {
        unreachable!()
    };
    f.ifs[i].cond = t0;
    assert_names(&fx.errors(), Node::Stmt(if_stmt), |k| {
        matches!(
            k,
            ErrorKind::Type {
                site: TypeSite::Condition,
                ..
            }
        )
    });
}

#[test]
fn errors_render_what_broke() {
    let mut fx = fixture();
    fx.set_return(&[]);
    let text = fx.errors()[0].to_string();
    assert!(text.contains("`main`"), "{text}");
    assert!(text.contains("0 values where 1 are expected"), "{text}");
}
