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
    BinaryOp, Block, Call, Callee, Direction, ExprId, ExprKind, ExprList, Extent, FuncId, FuncKind,
    Function, IterArg, LoopKind, Param, ScalarType, Span, StmtId, StmtKind, Submit, Type, UnaryOp,
    VarId,
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
    pub fn finish(mut self, body: Vec<StmtId>) -> Function {
        self.f.body = block(body);
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
        self.expr(ExprKind::Int(n), Type::I64)
    }

    pub fn float(&mut self, x: f64) -> ExprId {
        self.expr(ExprKind::Float(x), Type::F32)
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
        let ty = self.func().var_ty(var).clone();
        self.expr(ExprKind::Var(var), ty)
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

    pub fn list(&mut self, items: Vec<ExprId>) -> ExprId {
        self.expr(ExprKind::List(items), Type::Unknown)
    }

    /// A call of an op with positional arguments (direction `In`).
    pub fn op(&mut self, name: &str, args: Vec<ExprId>, ty: Type) -> ExprId {
        let mut call = Call::new(Callee::Op(name.to_string()));
        call.arg_directions = vec![Direction::In; args.len()];
        call.args = args;
        self.expr(ExprKind::Call(Box::new(call)), ty)
    }

    /// `system.task_dummy(deps=[..])`.
    pub fn task_dummy(&mut self, deps: Vec<ExprId>) -> ExprId {
        let mut call = Call::new(Callee::Op("system.task_dummy".to_string()));
        call.dummy_task = true;
        call.manual_dep_edges = deps;
        self.expr(ExprKind::Call(Box::new(call)), Type::TASK_ID)
    }

    pub fn stmt(&mut self, kind: StmtKind) -> StmtId {
        let span = self.span;
        self.func().new_stmt(kind, span)
    }

    pub fn assign(&mut self, results: Vec<VarId>, value: ExprId) -> StmtId {
        self.stmt(StmtKind::Assign {
            results: results.into(),
            value,
        })
    }

    /// `name = value` with a new variable of the value's type.
    pub fn let_(&mut self, name: &str, value: ExprId) -> (VarId, StmtId) {
        let ty = self.func().ty(value).clone();
        let var = self.var(name, ty);
        (var, self.assign(vec![var], value))
    }

    pub fn eval(&mut self, call: ExprId) -> StmtId {
        self.stmt(StmtKind::Eval(call))
    }

    pub fn ret(&mut self, values: Vec<ExprId>) -> StmtId {
        self.stmt(StmtKind::Return(values))
    }

    pub fn yield_(&mut self, values: Vec<ExprId>) -> StmtId {
        self.stmt(StmtKind::Yield(values))
    }

    /// A `for` loop; `None` bounds become the literals lowering makes.
    #[allow(clippy::too_many_arguments)]
    pub fn for_(
        &mut self,
        results: Vec<VarId>,
        kind: LoopKind,
        var: VarId,
        start: Option<ExprId>,
        stop: ExprId,
        step: Option<ExprId>,
        iter_args: Vec<IterArg>,
        body: Vec<StmtId>,
    ) -> StmtId {
        let start = start.unwrap_or_else(|| self.int(0));
        let step = step.unwrap_or_else(|| self.int(1));
        self.stmt(StmtKind::For {
            results: results.into(),
            kind,
            var,
            start,
            stop,
            step,
            iter_args,
            body: block(body),
        })
    }

    pub fn if_(
        &mut self,
        results: Vec<VarId>,
        cond: ExprId,
        then_body: Vec<StmtId>,
        else_body: Option<Vec<StmtId>>,
    ) -> StmtId {
        self.stmt(StmtKind::If {
            results: results.into(),
            cond,
            then_body: block(then_body),
            else_body: else_body.map(block),
        })
    }

    pub fn scope(&mut self, manual: bool, name: Option<&str>, body: Vec<StmtId>) -> StmtId {
        self.stmt(StmtKind::Scope {
            manual,
            name: name.map(str::to_string),
            body: block(body),
        })
    }

    /// A submit payload with positional arguments only (directions `In`).
    pub fn submit(&mut self, results: Vec<VarId>, callee: FuncId, args: Vec<ExprId>) -> Submit {
        Submit {
            results: results.into(),
            callee,
            callee_span: self.span,
            arg_directions: vec![Direction::In; args.len()],
            args,
            deps: ExprList::new(),
            core_num: None,
            sync_start: None,
            allow_early_resolve: None,
            predicate: None,
        }
    }

    /// `t = submit callee(deps=[deps...])` with a new task id `t`.
    pub fn submit_after(&mut self, task: &str, callee: FuncId, deps: &[VarId]) -> StmtId {
        let t = self.var(task, Type::TASK_ID);
        let deps: ExprList = deps.iter().map(|&d| self.v(d)).collect();
        let mut submit = self.submit(vec![t], callee, Vec::new());
        submit.deps = deps;
        self.stmt(StmtKind::Submit(submit))
    }

    /// `name = array.create(n, task_id)`: the statement and the array.
    pub fn create_task_array(&mut self, name: &str, n: i64) -> (StmtId, VarId) {
        let ty = Type::Array {
            elem: ScalarType::TaskId,
            extent: Extent::Const(n),
        };
        let (n, dtype) = (self.int(n), self.dtype(ScalarType::TaskId));
        let value = self.op("array.create", vec![n, dtype], ty);
        let (var, stmt) = self.let_(name, value);
        (stmt, var)
    }

    /// `name = system.task_dummy(deps=[deps...])` (a barrier): the
    /// statement and its task id.
    pub fn barrier(&mut self, name: &str, deps: Vec<ExprId>) -> (StmtId, VarId) {
        let value = self.task_dummy(deps);
        let (var, stmt) = self.let_(name, value);
        (stmt, var)
    }
}

/// A block of `stmts` with an empty span.
pub fn block(stmts: Vec<StmtId>) -> Block {
    Block {
        stmts,
        span: Span::default(),
    }
}
