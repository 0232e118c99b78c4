//! Lowering statements: bindings, `submit`, loops, `if`, scopes, `yield`,
//! `return`, `break`, `continue`.

use super::{BodyKind, Lowerer, plural};
use crate::diagnostics::Code;
use crate::diagnostics::Diagnostic;
use crate::ir::{
    ArenaId, ExprId, ForLoop, IfStmt, IterArg, LoopKind, ScopeStmt, SmallVec, StmtId, StmtKind,
    Type, VarId, VarList, WhileLoop,
};
use crate::parser::ast;
use crate::span::Span;

impl<'a> Lowerer<'a> {
    pub(super) fn lower_stmt(
        &mut self,
        s: &ast::Stmt<'a>,
        body: BodyKind,
        is_last: bool,
    ) -> Option<StmtId> {
        let kind = match &s.kind {
            // Already reported by the parser.
            ast::StmtKind::Error(_) => return None,
            ast::StmtKind::Assign(a) => self.lower_bind(a.bindings, &a.value)?,
            ast::StmtKind::Submit(sub) => self.lower_submit(sub.bindings, sub)?,
            ast::StmtKind::Call(e) => StmtKind::Eval(self.lower_expr(e)),
            ast::StmtKind::For(l) => self.lower_for(l, l.bindings)?,
            ast::StmtKind::While(w) => self.lower_while(w, w.bindings)?,
            ast::StmtKind::If(i) => self.lower_if(i, i.bindings)?,
            ast::StmtKind::Scope(scope) => {
                let name = scope.name.map(|(n, _)| self.func.names.add(n));
                let body = self.lower_block(&scope.body, BodyKind::Scope);
                StmtKind::Scope(self.func.scopes.alloc(ScopeStmt {
                    manual: scope.manual,
                    name,
                    body,
                }))
            }
            ast::StmtKind::Yield(values) => {
                let ids: Vec<ExprId> = values.items.iter().map(|v| self.lower_expr(v)).collect();
                match body {
                    BodyKind::Yields(n) if !is_last => {
                        let _ = n;
                        self.error(
                            Diagnostic::error(
                                "`yield` must be the last statement of its body",
                                s.span(),
                            )
                            .with_code(Code::MisplacedControl)
                            .with_label("statements follow this `yield`"),
                        );
                    }
                    BodyKind::Yields(n) if n != ids.len() => {
                        self.error(
                            Diagnostic::error(
                                format!(
                                    "this body must yield {n} value{}, but yields {}",
                                    plural(n),
                                    ids.len()
                                ),
                                s.span(),
                            )
                            .with_code(Code::ValueCount)
                            .with_label(format!("expected {n} value{}", plural(n))),
                        );
                    }
                    BodyKind::Yields(_) => {}
                    BodyKind::Function | BodyKind::Scope => {
                        self.error(
                            Diagnostic::error(
                                "`yield` outside a loop, `while` or `if` body",
                                s.span(),
                            )
                            .with_code(Code::MisplacedControl)
                            .with_label("nothing receives these values")
                            .with_help(
                                "`yield` ends the body of a loop or `if` that binds its results",
                            ),
                        );
                    }
                }
                StmtKind::Yield(self.func.new_list(&ids))
            }
            ast::StmtKind::Return(values) => {
                let ids: Vec<ExprId> = values.items.iter().map(|v| self.lower_expr(v)).collect();
                let expected = self.func.results.clone();
                if expected.len() != ids.len() {
                    self.error(
                        Diagnostic::error(
                            format!(
                                "`{}` returns {} value{}, but this `return` has {}",
                                self.func.name,
                                expected.len(),
                                plural(expected.len()),
                                ids.len()
                            ),
                            s.span(),
                        )
                        .with_code(Code::ValueCount)
                        .with_label(format!(
                            "expected {} value{}",
                            expected.len(),
                            plural(expected.len())
                        )),
                    );
                } else {
                    for (id, ty) in ids.iter().zip(&expected) {
                        self.expect_type(*id, ty, "returned value");
                    }
                }
                StmtKind::Return(self.func.new_list(&ids))
            }
            ast::StmtKind::Break(_) | ast::StmtKind::Continue(_) => {
                let word = if matches!(s.kind, ast::StmtKind::Break(_)) {
                    "break"
                } else {
                    "continue"
                };
                if self.loop_depth == 0 {
                    self.error(
                        Diagnostic::error(format!("`{word}` outside a loop"), s.span())
                            .with_code(Code::MisplacedControl)
                            .with_label("not inside a `for` or `while` body"),
                    );
                }
                if word == "break" {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                }
            }
        };
        Some(self.build(s.span()).stmt(kind))
    }

    /// Defines the variables of `bindings` with the types `value_types`
    /// (annotations win, and must be of the same category).
    pub(super) fn bind_results(
        &mut self,
        bindings: &[ast::Binding<'a>],
        value_types: &[Type],
    ) -> VarList {
        self.bind_results_from(bindings, value_types.iter())
    }

    /// [`Self::bind_results`] with the value types as an iterator (bindings
    /// past its end are not defined).
    pub(super) fn bind_results_from<'t>(
        &mut self,
        bindings: &[ast::Binding<'a>],
        value_types: impl Iterator<Item = &'t Type>,
    ) -> VarList {
        let mut vars: SmallVec<[VarId; 4]> = SmallVec::with_capacity(bindings.len());
        for (b, vt) in bindings.iter().zip(value_types) {
            let var = match b.name() {
                None => self.build(b.span()).var("_", vt.clone()),
                Some((name, ty)) => {
                    let name = self.text(name);
                    let ty = match ty {
                        Some(t) => {
                            let annotated = self.lower_type_in_scope(t);
                            if !vt.accepts(&annotated) {
                                self.error(
                                    Diagnostic::error(
                                        format!("type mismatch: `{name}` is annotated `{annotated}` but the value is `{vt}`"),
                                        t.span,
                                    )
.with_code(Code::TypeMismatch)
                                    .with_label(format!("the value has type `{vt}`")),
                                );
                            }
                            annotated
                        }
                        None => vt.clone(),
                    };
                    self.define_var(name, ty, b.span())
                }
            };
            vars.push(var);
        }
        self.func.new_list(&vars)
    }

    fn binding_count_error(&mut self, bindings: &[ast::Binding<'a>], expected: usize, what: &str) {
        let span = bindings
            .first()
            .map(|b| b.span())
            .unwrap_or_default()
            .to(bindings.last().map(|b| b.span()).unwrap_or_default());
        self.error(
            Diagnostic::error(
                format!(
                    "{what} {expected} value{}, but {} binding{} given",
                    plural(expected),
                    bindings.len(),
                    if bindings.len() == 1 { " is" } else { "s are" }
                ),
                span,
            )
            .with_code(Code::ValueCount)
            .with_label(format!("expected {expected} binding{}", plural(expected))),
        );
    }

    /// `bindings = e`.
    fn lower_bind(&mut self, bindings: &[ast::Binding<'a>], e: &ast::Expr<'a>) -> Option<StmtKind> {
        let value = self.lower_expr(e);
        let ty = self.func.ty(value).clone();
        // "`k` returns 1 value" for a call of a function, else
        // "the right-hand side is 1 value".
        let what = match self.func.call(value).map(|c| c.callee) {
            Some(crate::ir::Callee::Function(id)) => {
                format!("`{}` returns", self.function_names[id.index()])
            }
            Some(crate::ir::Callee::Op(name) | crate::ir::Callee::Unresolved(name)) => {
                format!("`{}` returns", self.func.names.get(name))
            }
            None => "the right-hand side is".to_string(),
        };
        let types: Vec<Type> = match &ty {
            Type::Tuple(ts) => {
                if ts.len() != bindings.len() {
                    self.binding_count_error(bindings, ts.len(), &what);
                }
                ts.clone()
            }
            Type::Unknown => vec![Type::Unknown; bindings.len()],
            other => {
                if bindings.len() != 1 {
                    self.binding_count_error(bindings, 1, &what);
                }
                vec![other.clone()]
            }
        };
        let mut types = types;
        types.resize(bindings.len(), Type::Unknown);
        let results = self.bind_results(bindings, &types);
        Some(StmtKind::Assign { results, value })
    }

    /// Lowers `iter(...)` initial values (in the enclosing scope) and returns
    /// `(declared type, init)` pairs.
    fn lower_iter_inits(&mut self, iters: &[ast::IterDecl<'a>]) -> Vec<(Type, ExprId)> {
        iters
            .iter()
            .map(|it| {
                let init = self.lower_expr(&it.init);
                let init_ty = self.func.ty(init).clone();
                let ty = match &it.ty {
                    Some(t) => {
                        let annotated = self.lower_type_in_scope(t);
                        if !init_ty.accepts(&annotated) {
                            self.error(
                                Diagnostic::error(
                                    format!(
                                        "type mismatch: iter-arg `{}` is annotated `{annotated}` but its initial value is `{init_ty}`",
                                        self.text(it.name)
                                    ),
                                    t.span,
                                )
.with_code(Code::TypeMismatch)
                                .with_secondary(it.init.span, format!("this has type `{init_ty}`")),
                            );
                        }
                        annotated
                    }
                    None => init_ty,
                };
                (ty, init)
            })
            .collect()
    }

    fn define_iter_args(
        &mut self,
        iters: &[ast::IterDecl<'a>],
        inits: Vec<(Type, ExprId)>,
    ) -> Vec<IterArg> {
        iters
            .iter()
            .zip(inits)
            .map(|(it, (ty, init))| {
                let span = it.name.span().to(it.init.span);
                IterArg {
                    var: self.define_var(self.text(it.name), ty, span),
                    init,
                }
            })
            .collect()
    }

    /// Checks that a loop binds exactly as many results as it has iter-args.
    fn check_loop_bindings(
        &mut self,
        bindings: &[ast::Binding<'a>],
        iters: usize,
        span: Span,
        what: &str,
    ) -> bool {
        if bindings.len() == iters {
            return true;
        }
        if bindings.is_empty() {
            self.error(
                Diagnostic::error(
                    format!(
                        "this {what} has {iters} iter-arg{} but binds no results",
                        plural(iters)
                    ),
                    span,
                )
                .with_code(Code::ValueCount)
                .with_label(format!("bind its results: `x = {what} ...`")),
            );
        } else {
            self.binding_count_error(bindings, iters, &format!("this {what} produces"));
        }
        false
    }

    fn lower_for(
        &mut self,
        l: &ast::ForLoop<'a>,
        bindings: &[ast::Binding<'a>],
    ) -> Option<StmtKind> {
        if l.bounds.len() > 3 {
            self.error(
                Diagnostic::error(
                    format!(
                        "`{}` takes 1 to 3 arguments, but {} were given",
                        l.kind.keyword(),
                        l.bounds.len()
                    ),
                    l.kind_span,
                )
                .with_code(Code::ArgumentCount)
                .with_secondary(l.bounds[3].span, "unexpected argument")
                .with_help(
                    "write `range(stop)`, `range(start, stop)` or `range(start, stop, step)`",
                ),
            );
        }
        let bounds: Vec<ExprId> = l.bounds.iter().map(|b| self.lower_expr(b)).collect();
        for &b in &bounds {
            self.expect_integer(b, "loop bound");
        }
        let span = l.span;
        // Bounds past the third (reported above) are kept as written.
        let extra_bounds = self.func.new_list(bounds.get(3..).unwrap_or_default());
        let (start, stop, step) = match bounds.as_slice() {
            [stop] => (
                self.int_literal(0, l.kind_span),
                *stop,
                self.int_literal(1, l.kind_span),
            ),
            [start, stop] => (*start, *stop, self.int_literal(1, l.kind_span)),
            [start, stop, step, ..] => (*start, *stop, *step),
            [] => return None,
        };
        let inits = self.lower_iter_inits(l.iters);
        let bindings_ok = self.check_loop_bindings(
            bindings,
            l.iters.len(),
            l.span.start_point().to(l.var.span()),
            "loop",
        );
        self.scopes.push("the loop", l.span);
        let var = self.define_var(self.text(l.var), Type::INDEX, l.var.span());
        let iter_args = self.define_iter_args(l.iters, inits);
        self.loop_depth += 1;
        let body = self.lower_block(&l.body, super::BodyKind::Yields(l.iters.len()));
        self.loop_depth -= 1;
        self.scopes.pop();
        self.check_loop_yield(&body, &iter_args);
        let results = self.loop_results(bindings, &iter_args, bindings_ok);
        let _ = span;
        let iter_args = self.func.new_list(&iter_args);
        Some(StmtKind::For(self.func.fors.alloc(ForLoop {
            results,
            kind: l.kind,
            var,
            start,
            stop,
            step,
            extra_bounds,
            iter_args,
            body,
        })))
    }

    /// Checks the values a loop body's final `yield` passes to the next
    /// iteration against the iter-args' types, by category (spec section 6:
    /// "a ... yielded value ... is accepted when its category matches").
    fn check_loop_yield(&mut self, body: &crate::ir::Block, iter_args: &[IterArg]) {
        let expected: Vec<Type> = iter_args
            .iter()
            .map(|it| self.func.var_ty(it.var).clone())
            .collect();
        self.check_yield(body, &expected);
    }

    /// Checks the final `yield` of `body` against `expected`, value by value;
    /// a wrong count was already reported while lowering the body.
    fn check_yield(&mut self, body: &crate::ir::Block, expected: &[Type]) {
        let Some(&last) = self.func.block_stmts(body).last() else {
            return;
        };
        let StmtKind::Yield(values) = self.func.stmts[last].kind else {
            return;
        };
        let values: SmallVec<[ExprId; 4]> = self.func.list(values).into();
        if values.len() != expected.len() {
            return;
        }
        for (v, ty) in values.into_iter().zip(expected) {
            self.expect_type(v, ty, "yielded value");
        }
    }

    fn loop_results(
        &mut self,
        bindings: &[ast::Binding<'a>],
        iter_args: &[IterArg],
        ok: bool,
    ) -> VarList {
        let types: Vec<Type> = if ok {
            iter_args
                .iter()
                .map(|it| self.func.var_ty(it.var).clone())
                .collect()
        } else {
            vec![Type::Unknown; bindings.len()]
        };
        self.bind_results(bindings, &types)
    }

    fn lower_while(
        &mut self,
        w: &ast::WhileLoop<'a>,
        bindings: &[ast::Binding<'a>],
    ) -> Option<StmtKind> {
        let inits = self.lower_iter_inits(w.iters);
        let bindings_ok = self.check_loop_bindings(
            bindings,
            w.iters.len(),
            w.span.start_point().to(w.cond.span),
            "while",
        );
        self.scopes.push("the loop", w.span);
        let iter_args = self.define_iter_args(w.iters, inits);
        let cond = self.lower_expr(&w.cond);
        self.expect_bool(cond, "`while` condition");
        self.loop_depth += 1;
        let body = self.lower_block(&w.body, super::BodyKind::Yields(w.iters.len()));
        self.loop_depth -= 1;
        self.scopes.pop();
        self.check_loop_yield(&body, &iter_args);
        let results = self.loop_results(bindings, &iter_args, bindings_ok);
        let iter_args = self.func.new_list(&iter_args);
        Some(StmtKind::While(self.func.whiles.alloc(WhileLoop {
            results,
            cond,
            iter_args,
            body,
        })))
    }

    fn lower_if(&mut self, i: &ast::IfStmt<'a>, bindings: &[ast::Binding<'a>]) -> Option<StmtKind> {
        crate::stack::ensure(|| self.lower_if_here(i, bindings))
    }

    /// [`Self::lower_if`], on the stack [`crate::stack::ensure`] left.
    fn lower_if_here(
        &mut self,
        i: &ast::IfStmt<'a>,
        bindings: &[ast::Binding<'a>],
    ) -> Option<StmtKind> {
        let cond = self.lower_expr(&i.cond);
        self.expect_bool(cond, "`if` condition");
        let n = bindings.len();
        self.scopes.push("the `if` branch", i.span);
        let then_body = self.lower_block(&i.then_body, super::BodyKind::Yields(n));
        self.scopes.pop();
        let else_body = match &i.else_body {
            None => {
                if n > 0 {
                    self.error(
                        Diagnostic::error(
                            format!(
                                "an `if` that binds {n} value{} needs an `else` branch",
                                plural(n)
                            ),
                            i.span,
                        )
                        .with_code(Code::IfNeedsElse)
                        .with_label("no `else` here")
                        .with_help("add `else { ... yield ... }`"),
                    );
                }
                None
            }
            Some(ast::Else::Block(b)) => {
                self.scopes.push("the `else` branch", i.span);
                let b = self.lower_block(b, super::BodyKind::Yields(n));
                self.scopes.pop();
                Some(b)
            }
            Some(ast::Else::If(nested)) => {
                if n > 0 {
                    self.error(
                        Diagnostic::error(
                            "`else if` cannot end an `if` that binds values",
                            nested.span,
                        )
                        .with_code(Code::IfNeedsElse)
                        .with_label("this branch cannot `yield` to the outer bindings")
                        .with_help("write `else { x = if ... { ... } else { ... }  yield x }`"),
                    );
                }
                self.scopes.push("the `else` branch", i.span);
                let span = nested.span;
                let stmt = self.lower_if(nested, &[]).map(|k| self.build(span).stmt(k));
                self.scopes.pop();
                let stmts: Vec<StmtId> = stmt.into_iter().collect();
                Some(crate::ir::Block {
                    stmts: self.func.new_list(&stmts),
                    span,
                })
            }
        };
        let last = self.func.block_stmts(&then_body).last();
        let types: Vec<Type> = match last.map(|s| self.func.stmts[*s].kind) {
            Some(StmtKind::Yield(values)) if self.func.list(values).len() == n => self
                .func
                .list(values)
                .iter()
                .map(|v| self.func.ty(*v).clone())
                .collect(),
            _ => vec![Type::Unknown; n],
        };
        // The `else` branch must yield values of the categories the `then`
        // branch yields (spec section 6: a yielded value is checked).
        if let Some(b) = &else_body {
            self.check_yield(b, &types);
        }
        let results = self.bind_results(bindings, &types);
        Some(StmtKind::If(self.func.ifs.alloc(IfStmt {
            results,
            cond,
            then_body,
            else_body,
        })))
    }
}

impl LoopKind {
    /// Used in diagnostics.
    pub fn describe(self) -> &'static str {
        self.keyword()
    }
}
