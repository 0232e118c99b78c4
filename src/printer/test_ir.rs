//! Building IR by hand for unit tests (of the printer and of structural
//! equality), without going through the parser and lowering.

use crate::ir::{
    BinaryOp, Block, Call, Callee, Direction, ExprId, ExprKind, FuncKind, Function, IterArg,
    LoopKind, Param, ScalarType, Span, StmtId, StmtKind, Submit, Type, UnaryOp, VarId,
};

/// A function under construction.
pub struct FnBuilder {
    pub f: Function,
}

impl FnBuilder {
    pub fn new(name: &str, kind: FuncKind) -> FnBuilder {
        FnBuilder {
            f: Function::new(name, kind),
        }
    }

    pub fn param(&mut self, name: &str, ty: Type, direction: Direction) -> VarId {
        let var = self.var(name, ty);
        self.f.params.push(Param { var, direction });
        var
    }

    pub fn var(&mut self, name: &str, ty: Type) -> VarId {
        self.f.new_var(name, ty, Span::default())
    }

    pub fn expr(&mut self, kind: ExprKind, ty: Type) -> ExprId {
        self.f.new_expr(kind, ty, Span::default())
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
        let ty = self.f.vars[var].ty.clone();
        self.expr(ExprKind::Var(var), ty)
    }

    pub fn bin(&mut self, op: BinaryOp, l: ExprId, r: ExprId) -> ExprId {
        let logical = op.is_comparison() || matches!(op, BinaryOp::And | BinaryOp::Or);
        let ty = if logical {
            Type::BOOL
        } else {
            self.f.ty(l).clone()
        };
        self.expr(ExprKind::Binary(op, l, r), ty)
    }

    pub fn un(&mut self, op: UnaryOp, x: ExprId) -> ExprId {
        let ty = match op {
            UnaryOp::Not => Type::BOOL,
            UnaryOp::Neg => self.f.ty(x).clone(),
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
        self.f.new_stmt(kind, Span::default())
    }

    pub fn assign(&mut self, results: Vec<VarId>, value: ExprId) -> StmtId {
        self.stmt(StmtKind::Assign { results, value })
    }

    /// `name = value` with a new variable of the value's type.
    pub fn let_(&mut self, name: &str, value: ExprId) -> (VarId, StmtId) {
        let ty = self.f.ty(value).clone();
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
            results,
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
            results,
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

    /// A submit with positional arguments only (directions `In`).
    pub fn submit(&mut self, results: Vec<VarId>, callee: &str, args: Vec<ExprId>) -> Submit {
        Submit {
            results,
            callee: callee.to_string(),
            callee_span: Span::default(),
            arg_directions: vec![Direction::In; args.len()],
            args,
            deps: Vec::new(),
            core_num: None,
            sync_start: None,
            allow_early_resolve: None,
            predicate: None,
        }
    }

    /// Sets the body and returns the function.
    pub fn finish(mut self, body: Vec<StmtId>) -> Function {
        self.f.body = block(body);
        self.f
    }
}

pub fn block(stmts: Vec<StmtId>) -> Block {
    Block {
        stmts,
        span: Span::default(),
    }
}
