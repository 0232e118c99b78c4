//! Structural equality of modules, up to spans and arena ids.
//!
//! [`modules_equal`] compares two modules the way a round-trip test needs:
//! functions in order (name, kind, parameters with directions and types,
//! result types), statements, expressions and their types, call attributes
//! (`dummy_task`, `manual_dep_edges`, keyword arguments, argument
//! directions), variable names and types, and variable *identity*: each
//! definition in `a` is paired with the definition at the same place in `b`,
//! and every use in `a` must refer to the partner of the variable used at
//! the same place in `b`. Spans and the ids nodes happen to have are ignored.
//!
//! Statements are compared by walking both functions in step with
//! [`super::walk::Walk`], expressions with an explicit work list: no
//! recursion, so any nesting depth is fine. Mismatch messages describe the
//! statements and expressions involved with [`super::describe`] (cut at a
//! few levels), never with the printer.

use super::{
    Block, Call, Callee, Expr, ExprId, ExprKind, ForLoop, Function, IfStmt, IterArg, Module,
    ScopeStmt, StmtId, StmtKind, Submit, Type, VarId, WhileLoop,
};
use crate::ir::arena::SecondaryMap;
use crate::ir::walk::{Event, Walk};

/// The results a `for`, `while` or `if` binds after its blocks.
fn compound_results(f: &Function, s: StmtId) -> &[VarId] {
    match f.stmts[s].kind {
        StmtKind::For(_) | StmtKind::While(_) | StmtKind::If(_) => f.results(&f.stmts[s].kind),
        _ => &[],
    }
}

/// `Ok(())` when `a` and `b` are the same IR up to spans and ids; otherwise
/// a message naming the function and what differs.
pub fn modules_equal(a: &Module, b: &Module) -> Result<(), String> {
    if a.functions.len() != b.functions.len() {
        return Err(format!(
            "the modules have {} and {} functions",
            a.functions.len(),
            b.functions.len()
        ));
    }
    for (fa, fb) in a.functions.iter().zip(&b.functions) {
        FnCmp::new(a, b, fa, fb)
            .function()
            .map_err(|e| format!("function `{}`: {e}", fa.name))?;
    }
    Ok(())
}

type Res = Result<(), String>;

fn fail(message: String) -> Res {
    Err(message)
}

/// Compares one pair of functions.
struct FnCmp<'x> {
    ma: &'x Module,
    mb: &'x Module,
    a: &'x Function,
    b: &'x Function,
    /// For each variable of `a`, its partner in `b` once defined.
    a_to_b: SecondaryMap<VarId, Option<VarId>>,
    /// For each variable of `b`, its partner in `a`.
    b_to_a: SecondaryMap<VarId, Option<VarId>>,
}

impl<'x> FnCmp<'x> {
    fn new(ma: &'x Module, mb: &'x Module, a: &'x Function, b: &'x Function) -> Self {
        FnCmp {
            ma,
            mb,
            a,
            b,
            a_to_b: a.vars.secondary(None),
            b_to_a: b.vars.secondary(None),
        }
    }

    fn function(mut self) -> Result<(), String> {
        let (a, b) = (self.a, self.b);
        if a.name != b.name {
            return Err(format!("names differ: `{}` vs `{}`", a.name, b.name));
        }
        if a.kind != b.kind {
            return Err(format!(
                "kinds differ: {} vs {}",
                a.kind.keyword(),
                b.kind.keyword()
            ));
        }
        if a.params.len() != b.params.len() {
            return Err(format!(
                "{} vs {} parameters",
                a.params.len(),
                b.params.len()
            ));
        }
        for (i, (pa, pb)) in a.params.iter().zip(&b.params).enumerate() {
            if pa.direction != pb.direction {
                return Err(format!(
                    "parameter {i} directions differ: {} vs {}",
                    pa.direction.keyword(),
                    pb.direction.keyword()
                ));
            }
            self.define(pa.var, pb.var)
                .map_err(|e| format!("parameter {i}: {e}"))?;
        }
        if a.results != b.results {
            return Err(format!(
                "result types differ: {} vs {}",
                type_list(&a.results),
                type_list(&b.results)
            ));
        }
        self.walk()
    }

    /// Compares two function bodies statement by statement: the two
    /// functions' walks ([`Walk`]) in step. Statements of the same kind
    /// (with or without an `else` alike) in blocks of the same length nest
    /// the same blocks, so the two walks meet the same events.
    fn walk(&mut self) -> Result<(), String> {
        let (mut wa, mut wb) = (Walk::new(self.a), Walk::new(self.b));
        loop {
            match (wa.next(), wb.next()) {
                (None, None) => return Ok(()),
                (
                    Some(Event::EnterBlock {
                        owner: oa,
                        block: x,
                        ..
                    }),
                    Some(Event::EnterBlock {
                        owner: ob,
                        block: y,
                        ..
                    }),
                ) => self.block(x, y, oa.zip(ob))?,
                (Some(Event::Enter(sa, _)), Some(Event::Enter(sb, _))) => {
                    self.stmt(sa, sb).map_err(|e| self.in_stmt(sa, sb, e))?
                }
                // The results a compound statement binds, once its blocks
                // are compared.
                (Some(Event::Leave(sa)), Some(Event::Leave(sb))) => {
                    let ra = compound_results(self.a, sa);
                    let rb = compound_results(self.b, sb);
                    self.define_all(ra, rb, "results")
                        .map_err(|e| self.in_stmt(sa, sb, e))?
                }
                (Some(Event::LeaveBlock { .. }), Some(Event::LeaveBlock { .. })) => {}
                _ => return fail("the statements nest differently".to_string()),
            }
        }
    }

    /// Places a mismatch message at the statements it occurred in.
    fn in_stmt(&self, sa: StmtId, sb: StmtId, message: String) -> String {
        format!(
            "in statement `{}` vs `{}`: {message}",
            self.head_a(sa),
            self.head_b(sb)
        )
    }

    /// Pairs the definitions of `va` (in `a`) and `vb` (in `b`).
    fn define(&mut self, va: VarId, vb: VarId) -> Res {
        let (x, y) = (&self.a.vars[va], &self.b.vars[vb]);
        // Symbols belong to each function's own interner: compare strings.
        let (x_name, y_name) = (self.a.var_name(va), self.b.var_name(vb));
        if x_name != y_name {
            return fail(format!("variable names differ: `{x_name}` vs `{y_name}`"));
        }
        let (tx, ty) = (&self.a.types[x.ty], &self.b.types[y.ty]);
        if tx != ty {
            return fail(format!("variable `{x_name}` has type {tx} vs {ty}"));
        }
        if let Some(other) = self.b_to_a[vb]
            && other != va
        {
            return fail(format!(
                "variable `{y_name}` of the second module is defined in two places that are different variables in the first"
            ));
        }
        if let Some(other) = self.a_to_b[va]
            && other != vb
        {
            return fail(format!(
                "variable `{x_name}` of the first module is defined in two places that are different variables in the second"
            ));
        }
        self.a_to_b[va] = Some(vb);
        self.b_to_a[vb] = Some(va);
        Ok(())
    }

    /// Compares two lists of the same length item by item with `each`.
    fn pairwise<T: Copy>(
        &mut self,
        a: &[T],
        b: &[T],
        what: &str,
        mut each: impl FnMut(&mut Self, T, T) -> Res,
    ) -> Res {
        if a.len() != b.len() {
            return fail(format!("{} vs {} {what}", a.len(), b.len()));
        }
        for (x, y) in a.iter().zip(b) {
            each(self, *x, *y)?;
        }
        Ok(())
    }

    fn define_all(&mut self, va: &[VarId], vb: &[VarId], what: &str) -> Res {
        self.pairwise(va, vb, what, Self::define)
    }

    /// Checks that a use of `va` corresponds to a use of `vb`.
    fn use_var(&mut self, va: VarId, vb: VarId) -> Res {
        match self.a_to_b[va] {
            Some(partner) if partner == vb => Ok(()),
            Some(partner) => fail(format!(
                "a use of `{}` refers to a different variable: the first module's variable corresponds to `{}` (variable {:?}), the second uses `{}` (variable {:?})",
                self.a.var_name(va),
                self.b.var_name(partner),
                partner,
                self.b.var_name(vb),
                vb
            )),
            // Used before any definition was seen (IR a pass left
            // unusual): pair the variables here.
            None => self.define(va, vb),
        }
    }

    /// Checks the lengths of two blocks.
    fn block(&self, a: &Block, b: &Block, parent: Option<(StmtId, StmtId)>) -> Res {
        let (a, b) = (self.a.block_stmts(a), self.b.block_stmts(b));
        if a.len() != b.len() {
            let first = match (a.first(), b.first()) {
                (Some(s), _) => format!(" (the first: `{}`)", self.head_a(*s)),
                (None, Some(s)) => format!(" (the second's first: `{}`)", self.head_b(*s)),
                (None, None) => String::new(),
            };
            let message = format!("a block has {} vs {} statements{first}", a.len(), b.len(),);
            return Err(match parent {
                Some((sa, sb)) => self.in_stmt(sa, sb, message),
                None => format!("in the body: {message}"),
            });
        }
        Ok(())
    }

    fn head_a(&self, s: StmtId) -> String {
        shorten(super::describe::describe_stmt(self.ma, self.a, s))
    }

    fn head_b(&self, s: StmtId) -> String {
        shorten(super::describe::describe_stmt(self.mb, self.b, s))
    }

    /// Compares what two statements hold directly (their blocks and the
    /// results bound after them are the walk's).
    fn stmt(&mut self, sa: StmtId, sb: StmtId) -> Res {
        let (fa, fb): (&'x Function, &'x Function) = (self.a, self.b);
        let (ka, kb) = (&fa.stmts[sa].kind, &fb.stmts[sb].kind);
        match (*ka, *kb) {
            (
                StmtKind::Assign {
                    results: ra,
                    value: va,
                },
                StmtKind::Assign {
                    results: rb,
                    value: vb,
                },
            ) => {
                self.expr(va, vb)?;
                self.define_all(fa.list(ra), fb.list(rb), "results")
            }
            (StmtKind::Submit(x), StmtKind::Submit(y)) => {
                self.submit(&fa.submits[x], &fb.submits[y])
            }
            (StmtKind::Eval(x), StmtKind::Eval(y)) => self.expr(x, y),
            (StmtKind::For(x), StmtKind::For(y)) => {
                let (x, y): (&'x ForLoop, &'x ForLoop) = (&fa.fors[x], &fb.fors[y]);
                if x.kind != y.kind {
                    return fail(format!(
                        "loop kinds differ: {} vs {}",
                        x.kind.keyword(),
                        y.kind.keyword()
                    ));
                }
                self.expr(x.start, y.start)?;
                self.expr(x.stop, y.stop)?;
                self.expr(x.step, y.step)?;
                self.exprs(fa.list(x.extra_bounds), fb.list(y.extra_bounds), "bounds")?;
                self.iter_args(fa.list(x.iter_args), fb.list(y.iter_args))?;
                self.define(x.var, y.var)?;
                Ok(())
            }
            (StmtKind::While(x), StmtKind::While(y)) => {
                let (x, y): (&'x WhileLoop, &'x WhileLoop) = (&fa.whiles[x], &fb.whiles[y]);
                self.iter_args(fa.list(x.iter_args), fb.list(y.iter_args))?;
                self.expr(x.cond, y.cond)?;
                Ok(())
            }
            (StmtKind::If(x), StmtKind::If(y)) => {
                let (x, y): (&'x IfStmt, &'x IfStmt) = (&fa.ifs[x], &fb.ifs[y]);
                self.expr(x.cond, y.cond)?;
                match (&x.else_body, &y.else_body) {
                    (None, None) => {}
                    (Some(_), Some(_)) => {}
                    (ea, eb) => {
                        return fail(format!(
                            "one `if` has an else branch and the other not ({} vs {})",
                            ea.is_some(),
                            eb.is_some()
                        ));
                    }
                }
                Ok(())
            }
            (StmtKind::Scope(x), StmtKind::Scope(y)) => {
                let (x, y): (&'x ScopeStmt, &'x ScopeStmt) = (&fa.scopes[x], &fb.scopes[y]);
                let na = x.name.map(|n| fa.names.get(n));
                let nb = y.name.map(|n| fb.names.get(n));
                if x.manual != y.manual || na != nb {
                    return fail(format!(
                        "scopes differ: manual={} name={na:?} vs manual={} name={nb:?}",
                        x.manual, y.manual
                    ));
                }
                Ok(())
            }
            (StmtKind::Yield(x), StmtKind::Yield(y))
            | (StmtKind::Return(x), StmtKind::Return(y)) => {
                self.exprs(fa.list(x), fb.list(y), "values")
            }
            (StmtKind::Break, StmtKind::Break) | (StmtKind::Continue, StmtKind::Continue) => Ok(()),
            _ => fail(format!(
                "statement kinds differ: {} vs {}",
                stmt_kind_name(ka),
                stmt_kind_name(kb)
            )),
        }
    }

    /// Inits first (they are evaluated outside the loop), then the variables.
    fn iter_args(&mut self, a: &[IterArg], b: &[IterArg]) -> Res {
        if a.len() != b.len() {
            return fail(format!("{} vs {} iter-args", a.len(), b.len()));
        }
        for (x, y) in a.iter().zip(b) {
            self.expr(x.init, y.init)?;
        }
        for (x, y) in a.iter().zip(b) {
            self.define(x.var, y.var)?;
        }
        Ok(())
    }

    fn submit(&mut self, x: &Submit, y: &Submit) -> Res {
        let (fa, fb): (&'x Function, &'x Function) = (self.a, self.b);
        let (cx, cy) = (
            fa.callee_name(self.ma, x.callee),
            fb.callee_name(self.mb, y.callee),
        );
        if cx != cy {
            return fail(format!("submitted functions differ: `{cx}` vs `{cy}`"));
        }
        self.exprs(fa.list(x.args), fb.list(y.args), "arguments")?;
        let (dx, dy) = (
            fa.directions(x.arg_directions),
            fb.directions(y.arg_directions),
        );
        if dx != dy {
            return fail(format!("argument directions differ: {dx:?} vs {dy:?}"));
        }
        self.exprs(fa.list(x.deps), fb.list(y.deps), "deps")?;
        let optional = x
            .value_kwargs()
            .into_iter()
            .zip(y.value_kwargs())
            .map(|((name, ea), (_, eb))| (name, ea, eb))
            .chain([(crate::vocab::KWARG_PREDICATE, x.predicate, y.predicate)]);
        for (name, ea, eb) in optional {
            match (ea, eb) {
                (None, None) => {}
                (Some(ea), Some(eb)) => self.expr(ea, eb)?,
                _ => {
                    return fail(format!(
                        "`{name}` is {} vs {}",
                        presence(ea.is_some()),
                        presence(eb.is_some())
                    ));
                }
            }
        }
        let (ka, kb) = (fa.list(x.rejected_kwargs), fb.list(y.rejected_kwargs));
        if ka.len() != kb.len()
            || ka
                .iter()
                .zip(kb)
                .any(|(p, q)| fa.names.get(p.name) != fb.names.get(q.name))
        {
            return fail("rejected keyword arguments differ".to_string());
        }
        for (p, q) in ka.iter().zip(kb) {
            self.expr(p.value, q.value)?;
        }
        self.define_all(fa.list(x.results), fb.list(y.results), "results")
    }

    fn exprs(&mut self, a: &[ExprId], b: &[ExprId], what: &str) -> Res {
        self.pairwise(a, b, what, Self::expr)
    }

    /// Compares two expression trees with a work list (no recursion).
    fn expr(&mut self, ea: ExprId, eb: ExprId) -> Res {
        let mut work = vec![(ea, eb)];
        while let Some((ea, eb)) = work.pop() {
            self.expr_node(ea, eb, &mut work).map_err(|e| {
                format!(
                    "expressions `{}` vs `{}`: {e}",
                    shorten(super::describe::describe_expr(self.ma, self.a, ea)),
                    shorten(super::describe::describe_expr(self.mb, self.b, eb)),
                )
            })?;
        }
        Ok(())
    }

    /// Compares one node pair and queues their children.
    fn expr_node(&mut self, ea: ExprId, eb: ExprId, work: &mut Vec<(ExprId, ExprId)>) -> Res {
        let (fa, fb): (&'x Function, &'x Function) = (self.a, self.b);
        let (x, y): (&Expr, &Expr) = (&fa.exprs[ea], &fb.exprs[eb]);
        let (tx, ty) = (&self.a.types[x.ty], &self.b.types[y.ty]);
        if tx != ty {
            return fail(format!("types differ: {tx} vs {ty}"));
        }
        let same = match (&x.kind, &y.kind) {
            (ExprKind::Int(p), ExprKind::Int(q)) => p == q,
            (ExprKind::Float(p), ExprKind::Float(q)) => p.get().to_bits() == q.get().to_bits(),
            (ExprKind::Bool(p), ExprKind::Bool(q)) => p == q,
            (ExprKind::None, ExprKind::None) => true,
            (ExprKind::Unresolved(p), ExprKind::Unresolved(q)) => {
                fa.names.get(*p) == fb.names.get(*q)
            }
            (ExprKind::Dtype(p), ExprKind::Dtype(q)) => p == q,
            (ExprKind::Var(p), ExprKind::Var(q)) => {
                self.use_var(*p, *q)?;
                true
            }
            (ExprKind::Unary(op1, p), ExprKind::Unary(op2, q)) => {
                work.push((*p, *q));
                op1 == op2
            }
            (ExprKind::Binary(op1, l1, r1), ExprKind::Binary(op2, l2, r2)) => {
                work.push((*r1, *r2));
                work.push((*l1, *l2));
                op1 == op2
            }
            (ExprKind::Call(p), ExprKind::Call(q)) => {
                let (p, q) = (&fa.calls[*p], &fb.calls[*q]);
                call_attrs_equal((self.ma, fa, p), (self.mb, fb, q))?;
                push_pairs(fa.list(p.args), fb.list(q.args), work);
                push_pairs(
                    fa.list(p.manual_dep_edges),
                    fb.list(q.manual_dep_edges),
                    work,
                );
                for (k1, k2) in fa.list(p.kwargs).iter().zip(fb.list(q.kwargs)) {
                    work.push((k1.value, k2.value));
                }
                true
            }
            (ExprKind::List(p), ExprKind::List(q)) => {
                let (p, q) = (fa.list(*p), fb.list(*q));
                if p.len() != q.len() {
                    return fail(format!("lists of {} vs {} items", p.len(), q.len()));
                }
                push_pairs(p, q, work);
                true
            }
            _ => false,
        };
        if same {
            Ok(())
        } else {
            fail("they differ".to_string())
        }
    }
}

/// Everything of two calls but their operand expressions.
fn call_attrs_equal(
    (mp, fp, p): (&Module, &Function, &Call),
    (mq, fq, q): (&Module, &Function, &Call),
) -> Res {
    let same_callee = match (p.callee, q.callee) {
        (Callee::Op(x), Callee::Op(y)) => fp.names.get(x) == fq.names.get(y),
        (Callee::Function(x), Callee::Function(y)) => mp.func_name(x) == mq.func_name(y),
        (Callee::Unresolved(x), Callee::Unresolved(y)) => fp.names.get(x) == fq.names.get(y),
        _ => false,
    };
    if !same_callee {
        return fail(format!(
            "callees differ: `{}` vs `{}`",
            fp.callee_name(mp, p.callee),
            fq.callee_name(mq, q.callee)
        ));
    }
    let (pa, qa) = (fp.list(p.args), fq.list(q.args));
    if pa.len() != qa.len() {
        return fail(format!("{} vs {} arguments", pa.len(), qa.len()));
    }
    let (dp, dq) = (
        fp.directions(p.arg_directions),
        fq.directions(q.arg_directions),
    );
    if dp != dq {
        return fail(format!("argument directions differ: {dp:?} vs {dq:?}"));
    }
    if p.dummy_task != q.dummy_task {
        return fail(format!(
            "`dummy_task` differs: {} vs {}",
            p.dummy_task, q.dummy_task
        ));
    }
    let (ep, eq) = (fp.list(p.manual_dep_edges), fq.list(q.manual_dep_edges));
    if ep.len() != eq.len() {
        return fail(format!(
            "{} vs {} manual dependency edges",
            ep.len(),
            eq.len()
        ));
    }
    let names_p: Vec<&str> = fp
        .list(p.kwargs)
        .iter()
        .map(|k| fp.names.get(k.name))
        .collect();
    let names_q: Vec<&str> = fq
        .list(q.kwargs)
        .iter()
        .map(|k| fq.names.get(k.name))
        .collect();
    if names_p != names_q {
        return fail(format!(
            "keyword arguments differ: {names_p:?} vs {names_q:?}"
        ));
    }
    Ok(())
}

fn push_pairs(a: &[ExprId], b: &[ExprId], work: &mut Vec<(ExprId, ExprId)>) {
    // Reversed so that the work list visits them left to right.
    for (x, y) in a.iter().zip(b).rev() {
        work.push((*x, *y));
    }
}

fn presence(present: bool) -> &'static str {
    if present { "present" } else { "absent" }
}

fn type_list(types: &[Type]) -> String {
    let parts: Vec<String> = types.iter().map(Type::to_string).collect();
    format!("[{}]", parts.join(", "))
}

fn stmt_kind_name(kind: &StmtKind) -> &'static str {
    match kind {
        StmtKind::Assign { .. } => "assignment",
        StmtKind::Submit(_) => "submit",
        StmtKind::Eval(_) => "call statement",
        StmtKind::For { .. } => "for loop",
        StmtKind::While { .. } => "while loop",
        StmtKind::If { .. } => "if",
        StmtKind::Scope { .. } => "scope",
        StmtKind::Yield(_) => "yield",
        StmtKind::Return(_) => "return",
        StmtKind::Break => "break",
        StmtKind::Continue => "continue",
    }
}

/// Keeps messages readable when a statement or expression is huge.
fn shorten(s: String) -> String {
    const MAX: usize = 120;
    if s.len() <= MAX {
        return s;
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::modules_equal;
    use crate::ir::builder::FunctionBuilder as FnBuilder;
    use crate::ir::{
        BinaryOp, Direction, ExprKind, FuncKind, Function, IterArg, LoopKind, Module, ScalarType,
        StmtId, StmtKind, Type, VarId,
    };

    /// One way to change the reference module.
    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    enum Change {
        FunctionName,
        FunctionKind,
        FunctionCount,
        ParamDirection,
        ParamType,
        ParamName,
        ResultType,
        StatementCount,
        StatementKind,
        IntLiteral,
        FloatLiteral,
        ExprType,
        BinaryOperator,
        Callee,
        DummyTask,
        DepEdges,
        KwargName,
        KwargValue,
        ArgDirection,
        VarName,
        VarType,
        VarIdentity,
        LoopKind,
        LoopStep,
        IterArgInit,
        ScopeName,
        SubmitKwarg,
        SubmitDeps,
        ElseBranch,
        ResultCount,
    }

    /// The reference module, with `change` applied. `shift` allocates unused
    /// nodes first so that every id differs from the unshifted build.
    /// `kernel`, the callee.
    fn kernel(is: &dyn Fn(Change) -> bool) -> Function {
        let mut k = FnBuilder::new(
            if is(Change::FunctionName) {
                "kernel2"
            } else {
                "kernel"
            },
            if is(Change::FunctionKind) {
                FuncKind::Aic
            } else {
                FuncKind::InCore
            },
        );
        k.param(
            "a",
            Type::I64,
            if is(Change::ParamDirection) {
                Direction::InOut
            } else {
                Direction::In
            },
        );
        k.f.results = vec![if is(Change::ResultType) {
            Type::F32
        } else {
            Type::I64
        }];
        k.finish(vec![])
    }

    /// `main` while it is built, with the change to apply.
    struct Main {
        b: FnBuilder,
        change: Option<Change>,
        stmts: Vec<StmtId>,
    }

    impl Main {
        fn is(&self, c: Change) -> bool {
            self.change == Some(c)
        }

        /// Bindings: `x = n + 1 ; x = n * 2 ; y = x ; f = 0.5`; returns `y`.
        fn bindings(&mut self, n: VarId) -> VarId {
            // x = n + 1 ; x = n * 2 ; y = x (the second x)
            let nv = self.b.v(n);
            let one = if self.is(Change::IntLiteral) {
                self.b.int(7)
            } else {
                self.b.int(1)
            };
            let sum = self.b.bin(BinaryOp::Add, nv, one);
            let (x1, s) = self.b.let_("x", sum);
            self.stmts.push(s);
            let nv = self.b.v(n);
            let two = self.b.int(2);
            let op = if self.is(Change::BinaryOperator) {
                BinaryOp::Sub
            } else {
                BinaryOp::Mul
            };
            let prod = self.b.bin(op, nv, two);
            let (x2, s) = self.b.let_("x", prod);
            self.stmts.push(s);
            let used = if self.is(Change::VarIdentity) { x1 } else { x2 };
            let xv = self.b.v(used);
            let y_name = if self.is(Change::VarName) { "z" } else { "y" };
            let y_ty = if self.is(Change::VarType) {
                Type::Scalar(ScalarType::I32)
            } else {
                Type::I64
            };
            let y = self.b.var(y_name, y_ty);
            self.stmts.push(self.b.assign(vec![y], xv));
            // f = 0.5 (typed f64 in one variant)
            let half = if self.is(Change::FloatLiteral) {
                self.b.float(0.25)
            } else {
                self.b.float(0.5)
            };
            if self.is(Change::ExprType) {
                self.b.f.exprs[half].ty = self.b.f.types.intern(Type::Scalar(ScalarType::F64));
            }
            let (_, s) = self.b.let_("f", half);
            self.stmts.push(s);
            y
        }

        /// An op call with a keyword argument and a barrier; returns the barrier.
        fn calls(&mut self, y: VarId) -> VarId {
            // An op call with a keyword argument.
            let yv = self.b.v(y);
            let name = if self.is(Change::Callee) {
                "tensor.bar"
            } else {
                "tensor.foo"
            };
            let call = self.b.op(name, vec![yv], Type::Unknown);
            let kw = if self.is(Change::KwargValue) {
                self.b.int(3)
            } else {
                self.b.int(2)
            };
            if let ExprKind::Call(c) = self.b.f.exprs[call].kind {
                let kw_name = if self.is(Change::KwargName) {
                    "level"
                } else {
                    "mode"
                };
                let kw = self.b.kwarg(kw_name, kw);
                let mut kwargs = self.b.f.calls[c].kwargs;
                self.b.f.push_list(&mut kwargs, kw);
                self.b.f.calls[c].kwargs = kwargs;
                if self.is(Change::ArgDirection) {
                    self.b.f.calls[c].arg_directions = self.b.directions([Direction::Out]);
                }
            }
            self.stmts.push(self.b.eval(call));
            // A barrier.
            let none = self.b.none();
            let inv = self
                .b
                .builtin(crate::ir::BuiltinOp::TaskInvalid, vec![], Type::TASK_ID);
            let (t0, s) = self.b.let_("t0", inv);
            self.stmts.push(s);
            let t0v = self.b.v(t0);
            let mut deps = vec![t0v];
            if self.is(Change::DepEdges) {
                deps.push(none);
            }
            let dummy = self.b.task_dummy(deps);
            if self.is(Change::DummyTask)
                && let ExprKind::Call(c) = self.b.f.exprs[dummy].kind
            {
                self.b.f.calls[c].dummy_task = false;
            }
            let (barrier, s) = self.b.let_("bar", dummy);
            self.stmts.push(s);
            barrier
        }

        /// A loop with an iter-arg, a submit inside a manual scope, an if, a
        /// call and the `return`.
        fn control(&mut self, vars: [VarId; 3]) {
            let [n, y, barrier] = vars;
            // A loop with an iter-arg, a submit inside a manual scope, an if.
            let i = self.b.var("i", Type::INDEX);
            let acc = self.b.var("acc", Type::I64);
            let init = if self.is(Change::IterArgInit) {
                self.b.v(y)
            } else {
                self.b.v(n)
            };
            let r = self.b.var("r", Type::I64);
            let tid = self.b.var("tid", Type::TASK_ID);
            let av = self.b.v(acc);
            let mut sub = self
                .b
                .submit(vec![r, tid], crate::ir::FuncId::from_u32(0), vec![av]);
            if !self.is(Change::SubmitDeps) {
                let bv = self.b.v(barrier);
                sub.deps = self.b.exprs([bv]);
            }
            if self.is(Change::SubmitKwarg) {
                sub.sync_start = Some(self.b.boolean(true));
            }
            let sub = self.b.submit_stmt(sub);
            let scope = self.b.scope(
                true,
                if self.is(Change::ScopeName) {
                    Some("s")
                } else {
                    None
                },
                vec![sub],
            );
            let rv = self.b.v(r);
            let yield_ = self.b.yield_(vec![rv]);
            let out = self.b.var("out", Type::I64);
            let stop = self.b.int(4);
            let step = if self.is(Change::LoopStep) {
                Some(self.b.int(2))
            } else {
                None
            };
            let kind = if self.is(Change::LoopKind) {
                LoopKind::Unroll
            } else {
                LoopKind::Range
            };
            self.stmts.push(self.b.for_(
                vec![out],
                kind,
                i,
                None,
                stop,
                step,
                vec![IterArg { var: acc, init }],
                vec![scope, yield_],
            ));
            let ov = self.b.v(out);
            let zero = self.b.int(0);
            let cond = self.b.bin(BinaryOp::Gt, ov, zero);
            let brk = self.b.stmt(StmtKind::Break);
            let else_body = if self.is(Change::ElseBranch) {
                Some(vec![])
            } else {
                None
            };
            self.stmts.push(self.b.if_([], cond, [brk], else_body));
            if !self.is(Change::StatementCount) {
                let call = self.b.op("tensor.flush", vec![], Type::Unknown);
                self.stmts.push(self.b.eval(call));
            }
            let ov = self.b.v(out);
            let ret_values = if self.is(Change::ResultCount) {
                vec![]
            } else {
                vec![ov]
            };
            self.stmts.push(self.b.ret(ret_values));
        }
    }

    fn build(change: Option<Change>, shift: bool) -> Module {
        let is = |c: Change| change == Some(c);
        let kernel = kernel(&is);

        let mut b = FnBuilder::new("main", FuncKind::Orchestration);
        if shift {
            b.var("garbage", Type::BOOL);
            b.int(99);
            b.stmt(StmtKind::Break);
        }
        let n = b.param(
            if is(Change::ParamName) { "m" } else { "n" },
            if is(Change::ParamType) {
                Type::INDEX
            } else {
                Type::I64
            },
            Direction::In,
        );
        let mut parts = Main {
            b,
            change,
            stmts: Vec::new(),
        };
        let y = parts.bindings(n);
        let barrier = parts.calls(y);
        parts.control([n, y, barrier]);
        let mut main = parts.b.finish(parts.stmts);
        main.results = vec![Type::I64];
        if is(Change::StatementKind) {
            // A `continue` replaces the `tensor.flush()` call.
            let body = main.block_stmts(&main.body);
            let last = body[body.len() - 2];
            main.stmts[last].kind = StmtKind::Continue;
        }
        let mut functions = vec![kernel, main];
        if is(Change::FunctionCount) {
            functions.push(FnBuilder::new("extra", FuncKind::Opaque).finish(vec![]));
        }
        Module::new(functions)
    }

    #[test]
    fn equal_modules_compare_equal_regardless_of_ids() {
        let a = build(None, false);
        let b = build(None, true);
        assert_eq!(modules_equal(&a, &b), Ok(()));
        assert_eq!(modules_equal(&b, &a), Ok(()));
        assert_eq!(modules_equal(&a, &a), Ok(()));
        assert_eq!(
            modules_equal(&Module::default(), &Module::default()),
            Ok(())
        );
    }

    #[test]
    fn every_kind_of_difference_is_detected() {
        use Change::*;
        // Each change and a word its message must contain.
        let cases = [
            (FunctionName, "names differ"),
            (FunctionKind, "kinds differ"),
            (FunctionCount, "functions"),
            (ParamDirection, "directions differ"),
            (ParamType, "type"),
            (ParamName, "names differ"),
            (ResultType, "result types differ"),
            (StatementCount, "statements"),
            (
                StatementKind,
                "statement kinds differ: call statement vs continue",
            ),
            (
                IntLiteral,
                "`x = n + 1` vs `x = n + 7`: expressions `1` vs `7`",
            ),
            (FloatLiteral, "`0.5` vs `0.25`"),
            (ExprType, "types differ: f32 vs f64"),
            (BinaryOperator, "`n * 2` vs `n - 2`"),
            (Callee, "callees differ"),
            (DummyTask, "dummy_task"),
            (DepEdges, "manual dependency edges"),
            (KwargName, "keyword arguments differ"),
            (KwargValue, "`2` vs `3`"),
            (ArgDirection, "argument directions differ"),
            (VarName, "variable names differ"),
            (VarType, "has type i64 vs i32"),
            (VarIdentity, "refers to a different variable"),
            (LoopKind, "loop kinds differ"),
            (LoopStep, "`1` vs `2`"),
            (IterArgInit, "`n` vs `y`"),
            (ScopeName, "scopes differ"),
            (SubmitKwarg, "`sync_start` is absent vs present"),
            (SubmitDeps, "deps"),
            (ElseBranch, "else branch"),
            (ResultCount, "values"),
        ];
        let reference = build(None, false);
        for (change, needle) in cases {
            let changed = build(Some(change), true);
            let err = modules_equal(&reference, &changed)
                .expect_err(&format!("{change:?} was not detected"));
            assert!(
                err.contains(needle),
                "{change:?}: message `{err}` lacks `{needle}`"
            );
            if change != FunctionCount {
                let func = if matches!(
                    change,
                    FunctionName | FunctionKind | ParamDirection | ResultType
                ) {
                    "function `kernel`"
                } else {
                    "function `main`"
                };
                assert!(
                    err.starts_with(func),
                    "{change:?}: `{err}` names no function"
                );
            }
            // And symmetrically.
            assert!(
                modules_equal(&changed, &reference).is_err(),
                "{change:?} reversed"
            );
        }
    }

    #[test]
    fn mismatch_messages_name_the_statement() {
        let err = modules_equal(
            &build(None, false),
            &build(Some(Change::VarIdentity), false),
        )
        .unwrap_err();
        assert!(err.contains("in statement `y = x` vs `y = x`"), "{err}");
    }
}
