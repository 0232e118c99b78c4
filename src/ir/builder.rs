//! The one way to make IR nodes outside the arenas' own code: lowering's
//! helpers, the passes (the barriers of `expand-manual-phase-fence`), the
//! synthetic programs of `passes::synth` and the unit tests all build
//! through [`Builder`], so a change of the IR's layout changes this file,
//! not every producer.
//!
//! A builder works on an owned function ([`FunctionBuilder`], for new
//! functions) or on a borrowed one (`Builder<&mut Function>`, for a pass
//! adding nodes to a function of a module). Nodes get the builder's current
//! span ([`Builder::at`]); the default span is empty.

use crate::ir::{
    BinaryOp, Block, BuiltinOp, Call, Callee, DirList, Direction, ExprId, ExprKind, ExprList,
    Extent, FuncId, FuncKind, Function, IfStmt, IterArg, IterArgList, Kwarg, KwargList, LoopKind,
    Param, ScalarType, ScopeStmt, Span, StmtId, StmtKind, Submit, Type, UnaryOp, VarId, VarList,
    WhileLoop,
};
use std::borrow::BorrowMut;

/// Builds nodes of the function `F` (owned or `&mut`).
pub struct Builder<F: BorrowMut<Function>> {
    pub f: F,
    span: Span,
}

/// A builder of a new function it owns.
pub type FunctionBuilder = Builder<Function>;

impl Builder<Function> {
    /// A new function `name` of `kind`, with no parameters or body yet.
    pub fn new(name: &str, kind: FuncKind) -> FunctionBuilder {
        Builder {
            f: Function::new(name, kind),
            span: Span::default(),
        }
    }

    /// Sets the body and returns the function.
    pub fn finish(mut self, body: impl AsRef<[StmtId]>) -> Function {
        self.f.body = self.block(body);
        self.f
    }
}

impl<'f> Builder<&'f mut Function> {
    /// A builder adding nodes to an existing function.
    pub fn edit(f: &'f mut Function) -> Self {
        Self::edit_at(f, Span::default())
    }

    /// A builder adding nodes made for the code at `span` to `f`.
    pub fn edit_at(f: &'f mut Function, span: Span) -> Self {
        Builder { f, span }
    }
}

impl<F: BorrowMut<Function>> Builder<F> {
    /// The function built so far.
    pub fn func(&mut self) -> &mut Function {
        self.f.borrow_mut()
    }

    /// Nodes made from now on carry `span` (the code they are made for).
    pub fn at(&mut self, span: Span) -> &mut Self {
        self.span = span;
        self
    }

    pub fn param(&mut self, name: &str, ty: Type, direction: Direction) -> VarId {
        let var = self.var(name, ty);
        self.func().params.push(Param { var, direction });
        var
    }

    pub fn var(&mut self, name: &str, ty: Type) -> VarId {
        let span = self.span;
        self.func().new_var(name, ty, span)
    }

    pub fn expr(&mut self, kind: ExprKind, ty: Type) -> ExprId {
        let span = self.span;
        self.func().new_expr(kind, ty, span)
    }

    pub fn int(&mut self, n: i64) -> ExprId {
        self.expr(ExprKind::Int(n.into()), Type::I64)
    }

    pub fn float(&mut self, x: f64) -> ExprId {
        self.expr(ExprKind::Float(x.into()), Type::F32)
    }

    pub fn boolean(&mut self, b: bool) -> ExprId {
        self.expr(ExprKind::Bool(b), Type::BOOL)
    }

    pub fn none(&mut self) -> ExprId {
        self.expr(ExprKind::None, Type::TASK_ID)
    }

    pub fn dtype(&mut self, s: ScalarType) -> ExprId {
        self.expr(ExprKind::Dtype(s), Type::Dtype)
    }

    /// A use of `var`.
    pub fn v(&mut self, var: VarId) -> ExprId {
        let span = self.span;
        let f = self.func();
        let ty = f.vars[var].ty;
        f.new_expr_of_type(ExprKind::Var(var), ty, span)
    }

    pub fn bin(&mut self, op: BinaryOp, l: ExprId, r: ExprId) -> ExprId {
        let logical = op.is_comparison() || matches!(op, BinaryOp::And | BinaryOp::Or);
        let ty = if logical {
            Type::BOOL
        } else {
            self.func().ty(l).clone()
        };
        self.expr(ExprKind::Binary(op, l, r), ty)
    }

    pub fn un(&mut self, op: UnaryOp, x: ExprId) -> ExprId {
        let ty = match op {
            UnaryOp::Not => Type::BOOL,
            UnaryOp::Neg => self.func().ty(x).clone(),
        };
        self.expr(ExprKind::Unary(op, x), ty)
    }

    /// A pooled list of `items` in the function.
    pub fn exprs(&mut self, items: impl AsRef<[ExprId]>) -> ExprList {
        self.func().new_list(items.as_ref())
    }

    /// Argument directions.
    pub fn directions(&mut self, dirs: impl IntoIterator<Item = Direction>) -> DirList {
        self.func().new_directions(dirs)
    }

    /// A statement block (empty span).
    pub fn block(&mut self, stmts: impl AsRef<[StmtId]>) -> Block {
        Block {
            stmts: self.func().new_list(stmts.as_ref()),
            span: Span::default(),
        }
    }

    /// `[items...]`.
    pub fn list(&mut self, items: impl AsRef<[ExprId]>) -> ExprId {
        let items = self.exprs(items);
        self.expr(ExprKind::List(items), Type::Unknown)
    }

    /// An op callee named `name`.
    pub fn op_callee(&mut self, name: &str) -> Callee {
        Callee::Op(self.func().names.add(name))
    }

    /// A call expression of type `ty` (the payload goes to the calls arena).
    pub fn call(&mut self, call: Call, ty: Type) -> ExprId {
        let id = self.func().calls.alloc(call);
        self.expr(ExprKind::Call(id), ty)
    }

    /// A keyword argument `name=value` of an op call.
    pub fn kwarg(&mut self, name: &str, value: ExprId) -> Kwarg {
        Kwarg {
            name: self.func().names.add(name),
            value,
        }
    }

    /// A call of an op with positional arguments (direction `In`).
    pub fn op(&mut self, name: &str, args: impl AsRef<[ExprId]>, ty: Type) -> ExprId {
        let args = args.as_ref();
        let mut call = Call::new(self.op_callee(name));
        call.builtin = BuiltinOp::from_name(name);
        call.arg_directions = self.directions(vec![Direction::In; args.len()]);
        call.args = self.exprs(args);
        self.call(call, ty)
    }

    /// A call of a built-in op with positional arguments.
    pub fn builtin(&mut self, op: BuiltinOp, args: impl AsRef<[ExprId]>, ty: Type) -> ExprId {
        self.op(op.name(), args, ty)
    }

    /// `system.task_dummy(deps=[..])`.
    pub fn task_dummy(&mut self, deps: impl AsRef<[ExprId]>) -> ExprId {
        let mut call = Call::new(self.op_callee(BuiltinOp::TaskDummy.name()));
        call.builtin = Some(BuiltinOp::TaskDummy);
        call.dummy_task = true;
        call.manual_dep_edges = self.exprs(deps);
        self.call(call, Type::TASK_ID)
    }

    pub fn stmt(&mut self, kind: StmtKind) -> StmtId {
        let span = self.span;
        self.func().new_stmt(kind, span)
    }

    pub fn assign(&mut self, results: impl AsRef<[VarId]>, value: ExprId) -> StmtId {
        let results = self.func().new_list(results.as_ref());
        self.stmt(StmtKind::Assign { results, value })
    }

    /// `name = value` with a new variable of the value's type.
    pub fn let_(&mut self, name: &str, value: ExprId) -> (VarId, StmtId) {
        let span = self.span;
        let f = self.func();
        let ty = f.exprs[value].ty;
        let var = f.new_var_of_type(name, ty, span);
        (var, self.assign([var], value))
    }

    pub fn eval(&mut self, call: ExprId) -> StmtId {
        self.stmt(StmtKind::Eval(call))
    }

    pub fn ret(&mut self, values: impl AsRef<[ExprId]>) -> StmtId {
        let values = self.exprs(values);
        self.stmt(StmtKind::Return(values))
    }

    pub fn yield_(&mut self, values: impl AsRef<[ExprId]>) -> StmtId {
        let values = self.exprs(values);
        self.stmt(StmtKind::Yield(values))
    }

    /// A `for` loop; `None` bounds become the literals lowering makes.
    #[allow(clippy::too_many_arguments)]
    pub fn for_(
        &mut self,
        results: impl AsRef<[VarId]>,
        kind: LoopKind,
        var: VarId,
        start: Option<ExprId>,
        stop: ExprId,
        step: Option<ExprId>,
        iter_args: impl AsRef<[IterArg]>,
        body: impl AsRef<[StmtId]>,
    ) -> StmtId {
        let start = start.unwrap_or_else(|| self.int(0));
        let step = step.unwrap_or_else(|| self.int(1));
        let (results, iter_args, body) = self.loop_parts(results, iter_args, body);
        let l = crate::ir::ForLoop {
            results,
            kind,
            var,
            start,
            stop,
            step,
            extra_bounds: ExprList::new(),
            iter_args,
            body,
        };
        let id = self.func().fors.alloc(l);
        self.stmt(StmtKind::For(id))
    }

    /// A `while` loop.
    pub fn while_(
        &mut self,
        results: impl AsRef<[VarId]>,
        cond: ExprId,
        iter_args: impl AsRef<[IterArg]>,
        body: impl AsRef<[StmtId]>,
    ) -> StmtId {
        let (results, iter_args, body) = self.loop_parts(results, iter_args, body);
        let w = WhileLoop {
            results,
            cond,
            iter_args,
            body,
        };
        let id = self.func().whiles.alloc(w);
        self.stmt(StmtKind::While(id))
    }

    /// A loop's results, iter-args and body as lists of the function.
    fn loop_parts(
        &mut self,
        results: impl AsRef<[VarId]>,
        iter_args: impl AsRef<[IterArg]>,
        body: impl AsRef<[StmtId]>,
    ) -> (VarList, IterArgList, Block) {
        let f = self.func();
        let results = f.new_list(results.as_ref());
        let iter_args = f.new_list(iter_args.as_ref());
        (results, iter_args, self.block(body))
    }

    pub fn if_(
        &mut self,
        results: impl AsRef<[VarId]>,
        cond: ExprId,
        then_body: impl AsRef<[StmtId]>,
        else_body: Option<Vec<StmtId>>,
    ) -> StmtId {
        let results = self.func().new_list(results.as_ref());
        let then_body = self.block(then_body);
        let else_body = else_body.map(|b| self.block(b));
        let id = self.func().ifs.alloc(IfStmt {
            results,
            cond,
            then_body,
            else_body,
        });
        self.stmt(StmtKind::If(id))
    }

    pub fn scope(
        &mut self,
        manual: bool,
        name: Option<&str>,
        body: impl AsRef<[StmtId]>,
    ) -> StmtId {
        let name = name.map(|n| self.func().names.add(n));
        let body = self.block(body);
        let id = self.func().scopes.alloc(ScopeStmt { manual, name, body });
        self.stmt(StmtKind::Scope(id))
    }

    /// A submit payload with positional arguments only (directions `In`);
    /// make it a statement with [`Builder::submit_stmt`].
    pub fn submit(
        &mut self,
        results: impl AsRef<[VarId]>,
        callee: FuncId,
        args: impl AsRef<[ExprId]>,
    ) -> Submit {
        let args = args.as_ref();
        Submit {
            results: self.func().new_list(results.as_ref()),
            callee: Callee::Function(callee),
            callee_span: self.span,
            arg_directions: self.directions(vec![Direction::In; args.len()]),
            args: self.exprs(args),
            deps: ExprList::new(),
            core_num: None,
            sync_start: None,
            allow_early_resolve: None,
            predicate: None,
            rejected_kwargs: KwargList::new(),
        }
    }

    /// The statement of a submit payload.
    pub fn submit_stmt(&mut self, submit: Submit) -> StmtId {
        let id = self.func().submits.alloc(submit);
        self.stmt(StmtKind::Submit(id))
    }

    /// `t = submit callee(deps=[deps...])` with a new task id `t`.
    pub fn submit_after(&mut self, task: &str, callee: FuncId, deps: &[VarId]) -> StmtId {
        let t = self.var(task, Type::TASK_ID);
        let deps: Vec<ExprId> = deps.iter().map(|&d| self.v(d)).collect();
        let mut submit = self.submit([t], callee, []);
        submit.deps = self.exprs(deps);
        self.submit_stmt(submit)
    }

    /// `name = array.create(n, task_id)`: the statement and the array.
    pub fn create_task_array(&mut self, name: &str, n: i64) -> (StmtId, VarId) {
        let ty = Type::Array {
            elem: ScalarType::TaskId,
            extent: Extent::Const(n),
        };
        let (n, dtype) = (self.int(n), self.dtype(ScalarType::TaskId));
        let value = self.builtin(BuiltinOp::ArrayCreate, [n, dtype], ty);
        let (var, stmt) = self.let_(name, value);
        (stmt, var)
    }

    /// `name = system.task_dummy(deps=[deps...])` (a barrier): the
    /// statement and its task id.
    pub fn barrier(&mut self, name: &str, deps: impl AsRef<[ExprId]>) -> (StmtId, VarId) {
        let value = self.task_dummy(deps);
        let (var, stmt) = self.let_(name, value);
        (stmt, var)
    }
}
