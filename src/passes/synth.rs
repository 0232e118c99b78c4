//! Synthetic orchestration programs, built directly as IR, for the
//! phase-fence benchmark and the scaling tests.
//!
//! Every program has a kernel `k()` and an `orchestration func main()`
//! whose body is one `manual` scope holding `tids = array.create(4, task_id)`
//! (or several arrays) and the loops of the shape.

use crate::ir::{
    Block, Call, Callee, ExprId, ExprKind, FuncKind, Function, LoopKind, Module, ScalarType,
    StmtId, StmtKind, Submit, Type, VarId,
};
use crate::span::Span;

/// Builds statements of one function.
pub struct Builder {
    pub f: Function,
}

impl Builder {
    pub fn new(name: &str, kind: FuncKind) -> Builder {
        Builder {
            f: Function::new(name, kind),
        }
    }

    pub fn int(&mut self, v: i64) -> ExprId {
        self.f
            .new_expr(ExprKind::Int(v), Type::I64, Span::default())
    }

    pub fn var_expr(&mut self, v: VarId) -> ExprId {
        let ty = self.f.vars[v].ty.clone();
        self.f.new_expr(ExprKind::Var(v), ty, Span::default())
    }

    /// `name = array.create(n, task_id)`.
    pub fn create_array(&mut self, name: &str, n: i64) -> (StmtId, VarId) {
        let ty = Type::Array {
            elem: ScalarType::TaskId,
            extent: crate::ir::Extent::Const(n),
        };
        let v = self.f.new_var(name, ty.clone(), Span::default());
        let mut call = Call::new(Callee::Op("array.create".into()));
        let n = self.int(n);
        let dt = self.f.new_expr(
            ExprKind::Dtype(ScalarType::TaskId),
            Type::Dtype,
            Span::default(),
        );
        call.args = vec![n, dt];
        call.arg_directions = vec![crate::ir::Direction::In; 2];
        let value = self
            .f
            .new_expr(ExprKind::Call(Box::new(call)), ty, Span::default());
        let s = self.f.new_stmt(
            StmtKind::Assign {
                results: vec![v],
                value,
            },
            Span::default(),
        );
        (s, v)
    }

    /// `arrays` arrays `a0`, `a1`, ... of 4 task ids each: their creating
    /// statements and their variables.
    pub fn create_arrays(&mut self, arrays: usize) -> (Vec<StmtId>, Vec<VarId>) {
        (0..arrays)
            .map(|a| self.create_array(&format!("a{a}"), 4))
            .unzip()
    }

    /// `t = submit k(deps=[deps...])`.
    pub fn submit(&mut self, deps: &[VarId]) -> StmtId {
        let t = self.f.new_var("t", Type::TASK_ID, Span::default());
        let deps = deps.iter().map(|&d| self.var_expr(d)).collect();
        self.f.new_stmt(
            StmtKind::Submit(Submit {
                results: vec![t],
                callee: "k".into(),
                callee_span: Span::default(),
                args: Vec::new(),
                arg_directions: Vec::new(),
                deps,
                core_num: None,
                sync_start: None,
                allow_early_resolve: None,
                predicate: None,
            }),
            Span::default(),
        )
    }

    /// `u = array.update_element(a, 0, t)`.
    pub fn update(&mut self, a: VarId, t: VarId) -> StmtId {
        let ty = self.f.vars[a].ty.clone();
        let u = self.f.new_var("u", ty.clone(), Span::default());
        let mut call = Call::new(Callee::Op("array.update_element".into()));
        let (ae, ie, te) = (self.var_expr(a), self.int(0), self.var_expr(t));
        call.args = vec![ae, ie, te];
        call.arg_directions = vec![crate::ir::Direction::In; 3];
        let value = self
            .f
            .new_expr(ExprKind::Call(Box::new(call)), ty, Span::default());
        self.f.new_stmt(
            StmtKind::Assign {
                results: vec![u],
                value,
            },
            Span::default(),
        )
    }

    /// The task id bound by a `submit` statement.
    pub fn task_of(&self, s: StmtId) -> VarId {
        *self.f.stmts[s]
            .kind
            .results()
            .last()
            .expect("submit binds a task id")
    }

    /// `for i in KIND(stop) { body }`.
    pub fn for_loop(&mut self, kind: LoopKind, stop: i64, body: Vec<StmtId>) -> StmtId {
        let i = self.f.new_var("i", Type::INDEX, Span::default());
        let (start, stop, step) = (self.int(0), self.int(stop), self.int(1));
        self.f.new_stmt(
            StmtKind::For {
                results: Vec::new(),
                kind,
                var: i,
                start,
                stop,
                step,
                iter_args: Vec::new(),
                body: Block {
                    stmts: body,
                    span: Span::default(),
                },
            },
            Span::default(),
        )
    }

    /// Wraps `stmts` in `manual { }` as the function body; returns the module
    /// with the kernel.
    pub fn finish(mut self, stmts: Vec<StmtId>) -> Module {
        let scope = self.f.new_stmt(
            StmtKind::Scope {
                manual: true,
                name: None,
                body: Block {
                    stmts,
                    span: Span::default(),
                },
            },
            Span::default(),
        );
        self.f.body.stmts = vec![scope];
        let kernel = Function::new("k", FuncKind::Opaque);
        Module {
            functions: vec![kernel, self.f],
            ..Module::default()
        }
    }
}

/// `loops` sibling `parallel(4)` loops, each with `per_loop` consumers of `tids`.
pub fn flat(loops: usize, per_loop: usize) -> Module {
    let mut b = Builder::new("main", FuncKind::Orchestration);
    let (create, tids) = b.create_array("tids", 4);
    let mut stmts = vec![create];
    for _ in 0..loops {
        let body = (0..per_loop).map(|_| b.submit(&[tids])).collect();
        stmts.push(b.for_loop(LoopKind::Parallel, 4, body));
    }
    b.finish(stmts)
}

/// One `range(4)` loop holding `n` consumers of `tids`.
pub fn wide(n: usize) -> Module {
    let mut b = Builder::new("main", FuncKind::Orchestration);
    let (create, tids) = b.create_array("tids", 4);
    let body = (0..n).map(|_| b.submit(&[tids])).collect();
    let l = b.for_loop(LoopKind::Range, 4, body);
    b.finish(vec![create, l])
}

/// `depth` nested `range(2)` loops, a consumer of `tids` at every level.
pub fn deep(depth: usize) -> Module {
    let mut b = Builder::new("main", FuncKind::Orchestration);
    let (create, tids) = b.create_array("tids", 4);
    let mut inner = vec![b.submit(&[tids])];
    for _ in 0..depth {
        let l = b.for_loop(LoopKind::Range, 2, inner);
        let s = b.submit(&[tids]);
        inner = vec![s, l];
    }
    inner.insert(0, create);
    b.finish(inner)
}

/// `depth` nested loops alternating `range(2)` and `parallel(2)`, with
/// `arrays` arrays consumed at the bottom and every array updated at the
/// bottom too (every loop containing the bottom is unsafe for every array):
/// the shape where per-loop summaries cost depth x arrays.
pub fn deep_many_arrays(depth: usize, arrays: usize) -> Module {
    let mut b = Builder::new("main", FuncKind::Orchestration);
    let (mut stmts, vars) = b.create_arrays(arrays);
    let mut inner = Vec::new();
    for &v in &vars {
        let s = b.submit(&[v]);
        let t = b.task_of(s);
        inner.push(s);
        inner.push(b.submit(&[v]));
        inner.push(b.update(v, t));
    }
    for d in 0..depth {
        let kind = if d % 2 == 0 {
            LoopKind::Range
        } else {
            LoopKind::Parallel
        };
        inner = vec![b.for_loop(kind, 2, inner)];
    }
    stmts.extend(inner);
    b.finish(stmts)
}

/// `arrays` arrays, each consumed by `per_array` submits in one `parallel(4)` loop.
pub fn many_arrays(arrays: usize, per_array: usize) -> Module {
    let mut b = Builder::new("main", FuncKind::Orchestration);
    let (mut stmts, vars) = b.create_arrays(arrays);
    let mut body = Vec::new();
    for _ in 0..per_array {
        for &v in &vars {
            body.push(b.submit(&[v]));
        }
    }
    stmts.push(b.for_loop(LoopKind::Parallel, 4, body));
    b.finish(stmts)
}

/// The number of statements reachable in `module`.
pub fn statement_count(module: &Module) -> usize {
    module
        .functions
        .iter()
        .map(|f| {
            let mut n = 0;
            super::walk::walk_stmts(f, |_, _| n += 1, |_| {});
            n
        })
        .sum()
}
