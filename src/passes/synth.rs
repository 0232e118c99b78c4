//! Synthetic orchestration programs, built directly as IR, for the
//! phase-fence benchmark and the scaling tests.
//!
//! Every program has a kernel `k()` and an `orchestration func main()`
//! whose body is one `manual` scope holding `tids = array.create(4, task_id)`
//! (or several arrays) and the loops of the shape.

use crate::ir::builder::FunctionBuilder;
use crate::ir::{BuiltinOp, FuncId, FuncKind, Function, LoopKind, Module, StmtId, Type, VarId};

/// The kernel `k`: the first function of every program.
const KERNEL: FuncId = FuncId::from_u32(0);

/// Builds statements of one function (on [`FunctionBuilder`]) in the
/// shapes below.
pub struct Builder {
    pub b: FunctionBuilder,
}

impl Builder {
    pub fn new(name: &str, kind: FuncKind) -> Builder {
        Builder {
            b: FunctionBuilder::new(name, kind),
        }
    }

    /// `name = array.create(n, task_id)`.
    pub fn create_array(&mut self, name: &str, n: i64) -> (StmtId, VarId) {
        self.b.create_task_array(name, n)
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
        self.b.submit_after("t", KERNEL, deps)
    }

    /// `u = array.update_element(a, 0, t)`.
    pub fn update(&mut self, a: VarId, t: VarId) -> StmtId {
        let ty = self.b.f.var_ty(a).clone();
        let (ae, ie, te) = (self.b.v(a), self.b.int(0), self.b.v(t));
        let value = self
            .b
            .builtin(BuiltinOp::ArrayUpdateElement, vec![ae, ie, te], ty);
        self.b.let_("u", value).1
    }

    /// The task id bound by a `submit` statement.
    pub fn task_of(&self, s: StmtId) -> VarId {
        let f = &self.b.f;
        *f.results(&f.stmts[s].kind)
            .last()
            .expect("submit binds a task id")
    }

    /// `for i in KIND(stop) { body }`.
    pub fn for_loop(&mut self, kind: LoopKind, stop: i64, body: Vec<StmtId>) -> StmtId {
        let i = self.b.var("i", Type::INDEX);
        let stop = self.b.int(stop);
        self.b.for_([], kind, i, None, stop, None, [], body)
    }

    /// Wraps `stmts` in `manual { }` as the function body; returns the module
    /// with the kernel.
    pub fn finish(mut self, stmts: Vec<StmtId>) -> Module {
        let scope = self.b.scope(true, None, stmts);
        let main = self.b.finish([scope]);
        let kernel = Function::new("k", FuncKind::Opaque);
        Module::new(vec![kernel, main])
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
        .functions()
        .iter()
        .map(|f| {
            let mut n = 0;
            crate::ir::walk::walk_stmts(f, |_, _| n += 1, |_| {});
            n
        })
        .sum()
}
