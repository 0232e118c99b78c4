//! Lowering expressions, calls, ops and `submit` (spec sections 5.1, 5.2, 6).

use super::{Lowerer, plural, suggest};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::{Applicability, Code};
use crate::ir::{
    BinaryOp, BuiltinOp, Call, Callee, Category, Direction, ExprId, ExprKind, ExprList, Extent,
    Kwarg, ScalarType, SmallVec, StmtKind, Submit, Symbol, Type, UnaryOp, VarList,
};
use crate::parser::ast;
use crate::span::Span;

use crate::vocab::{
    KWARG_ALLOW_EARLY_RESOLVE, KWARG_CORE_NUM, KWARG_DEPS, KWARG_SYNC_START, SUBMIT_KWARGS,
};

impl<'a> Lowerer<'a> {
    pub(super) fn int_literal(&mut self, value: i64, span: Span) -> ExprId {
        self.build(span)
            .expr(ExprKind::Int(value.into()), Type::I64)
    }

    fn describe(&self, e: ExprId) -> String {
        format!("`{}`", self.func.ty(e))
    }

    /// Reports when `e` is not accepted where a value of type `expected` is wanted.
    pub(super) fn expect_type(&mut self, e: ExprId, expected: &Type, what: &str) -> bool {
        if self.func.ty(e).accepts(expected) {
            return true;
        }
        let span = self.func.exprs[e].span;
        let found = self.describe(e);
        self.error(
            Diagnostic::error(
                format!("type mismatch: {what} must be `{expected}`, found {found}"),
                span,
            )
            .with_code(Code::TypeMismatch)
            .with_label(format!("this has type {found}")),
        );
        false
    }

    pub(super) fn expect_integer(&mut self, e: ExprId, what: &str) -> bool {
        let ty = self.func.ty(e);
        ty.is_integer() || ty.is_unknown() || self.not_of_kind(e, what, "an integer")
    }

    pub(super) fn expect_bool(&mut self, e: ExprId, what: &str) -> bool {
        self.expect_category(e, Category::Bool, what, "`bool`")
    }

    fn expect_category(&mut self, e: ExprId, cat: Category, what: &str, name: &str) -> bool {
        let c = self.func.ty(e).category();
        c == cat || c == Category::Unknown || self.not_of_kind(e, what, name)
    }

    /// Reports that `e` (`what`) is not `name` (`an integer`, `` `bool` ``);
    /// false.
    fn not_of_kind(&mut self, e: ExprId, what: &str, name: &str) -> bool {
        let span = self.func.exprs[e].span;
        let found = self.describe(e);
        self.error(
            Diagnostic::error(format!("{what} must be {name}, found {found}"), span)
                .with_code(Code::TypeMismatch)
                .with_label(format!("this has type {found}")),
        );
        false
    }

    fn is_literal(&self, e: ExprId) -> bool {
        match &self.func.exprs[e].kind {
            ExprKind::Int(_) | ExprKind::Float(_) => true,
            ExprKind::Unary(UnaryOp::Neg, inner) => self.is_literal(*inner),
            _ => false,
        }
    }

    pub(super) fn lower_expr(&mut self, e: &ast::Expr<'a>) -> ExprId {
        crate::stack::ensure(|| self.lower_expr_here(e))
    }

    /// [`Self::lower_expr`], on the stack [`crate::stack::ensure`] left.
    fn lower_expr_here(&mut self, e: &ast::Expr<'a>) -> ExprId {
        let span = e.span;
        let (kind, ty) = match &e.kind {
            ast::ExprKind::Int(v) => (ExprKind::Int((*v).into()), Type::I64),
            ast::ExprKind::IntOutOfRange => {
                self.error(
                    Diagnostic::error("integer literal out of range", span)
                        .with_code(Code::LiteralOutOfRange)
                        .with_label(format!("does not fit in i64 (at most {})", i64::MAX)),
                );
                (ExprKind::Unresolved(self.written(span)), Type::I64)
            }
            ast::ExprKind::Float(v) => match *v {
                v if v.is_finite() => (ExprKind::Float(v.into()), Type::F32),
                _ => {
                    self.error(
                        Diagnostic::error("float literal out of range", span)
                            .with_code(Code::LiteralOutOfRange)
                            .with_label("too large for f64"),
                    );
                    (ExprKind::Unresolved(self.written(span)), Type::F32)
                }
            },
            ast::ExprKind::Bool(b) => (ExprKind::Bool(*b), Type::BOOL),
            ast::ExprKind::None => (ExprKind::None, Type::TASK_ID),
            ast::ExprKind::Dtype(s) => (ExprKind::Dtype(*s), Type::Dtype),
            ast::ExprKind::Name(name) => match self.scopes.lookup(self.text(*name)) {
                Some(v) => {
                    // The variable's type, already in the table (no hashing).
                    let ty = self.func.vars[v].ty;
                    return self.func.new_expr_of_type(ExprKind::Var(v), ty, span);
                }
                None => {
                    // The name as written, not the span: a parenthesized
                    // name's span holds its parentheses, which the printer
                    // writes again where they are needed.
                    let written = self.text(*name);
                    self.unknown_variable(written, span);
                    (
                        ExprKind::Unresolved(self.func.names.add(written)),
                        Type::Unknown,
                    )
                }
            },
            ast::ExprKind::Unary(u) => {
                let op = u.op;
                let x = self.lower_expr(&u.operand);
                let ty = match op {
                    UnaryOp::Neg => {
                        let t = self.func.ty(x).clone();
                        if !matches!(
                            t.category(),
                            Category::Integer | Category::Float | Category::Unknown
                        ) {
                            let span = self.func.exprs[x].span;
                            let found = self.describe(x);
                            self.error(
                                Diagnostic::error(
                                    format!("the operand of `-` must be a number, found {found}"),
                                    span,
                                )
                                .with_code(Code::TypeMismatch)
                                .with_label(format!("this has type {found}")),
                            );
                        }
                        t
                    }
                    UnaryOp::Not => {
                        self.expect_bool(x, "the operand of `not`");
                        Type::BOOL
                    }
                };
                (ExprKind::Unary(op, x), ty)
            }
            ast::ExprKind::Binary(b) => {
                let op = b.op;
                let x = self.lower_expr(&b.lhs);
                let y = self.lower_expr(&b.rhs);
                let ty = self.binary_type(op, x, y);
                (ExprKind::Binary(op, x, y), ty)
            }
            ast::ExprKind::Call(call) => return self.lower_call(&call.callee, &call.args, span),
            ast::ExprKind::List(_) | ast::ExprKind::ListOfOne(_) => {
                let items = e.list_items().unwrap_or_default();
                let ids: SmallVec<[ExprId; 4]> = items.iter().map(|i| self.lower_expr(i)).collect();
                (ExprKind::List(self.func.new_list(&ids)), Type::Unknown)
            }
        };
        self.build(span).expr(kind, ty)
    }

    fn unknown_variable(&mut self, name: &str, span: Span) {
        let mut d = Diagnostic::error(format!("unknown variable `{name}`"), span)
            .with_code(Code::UnknownVariable)
            .with_label("not defined in this scope");
        let func = &self.func;
        if let Some((var, what, opened)) = self.scopes.out_of_scope(name, |v| func.var_name(v)) {
            // Defined in a body that has closed: say where, and why.
            let at_line = self
                .line_number(opened.start())
                .map(|n| format!(" at line {n}"))
                .unwrap_or_default();
            d = d
                .with_secondary(
                    self.func.vars[var].span,
                    format!("defined inside {what}{at_line}; not visible after it"),
                )
                .with_note(format!(
                    "a name defined inside {what} is visible only until its closing `}}`"
                ));
            if what == "the loop" {
                d = d.with_help(
                    "to use a value after a loop, carry it out with `iter(...)` and `yield`",
                );
            } else {
                d = d.with_help(
                    "to use a value after an `if`, bind it: `x = if c { yield a } else { yield b }`",
                );
            }
        } else if self.signatures.contains_key(name) {
            d = d.with_help(format!("`{name}` is a function; call it as `{name}(...)`"));
        } else if let Some(s) = self
            .may_search_suggestions()
            .then(|| suggest::closest(name, self.scopes.visible_names()))
            .flatten()
        {
            d = d.with_suggestion(
                span,
                s,
                format!("did you mean `{s}`?"),
                Applicability::MaybeIncorrect,
            );
        } else if suggest::closest(name, ["submit"].into_iter()).is_some() {
            // `t = sumbit k()`: a misspelt `submit` before a callee.
            d = d.with_suggestion(
                span,
                "submit",
                "did you mean `submit`?",
                Applicability::MaybeIncorrect,
            );
        }
        self.error(d);
    }

    fn binary_type(&mut self, op: BinaryOp, x: ExprId, y: ExprId) -> Type {
        match op {
            BinaryOp::And | BinaryOp::Or => {
                self.expect_bool(x, &format!("the operand of `{}`", op.symbol()));
                self.expect_bool(y, &format!("the operand of `{}`", op.symbol()));
                Type::BOOL
            }
            op if op.is_comparison() => Type::BOOL,
            _ => {
                for e in [x, y] {
                    if !matches!(
                        self.func.ty(e).category(),
                        Category::Integer | Category::Float | Category::Unknown
                    ) {
                        let span = self.func.exprs[e].span;
                        let found = self.describe(e);
                        self.error(
                            Diagnostic::error(
                                format!("`{}` needs numbers, found {found}", op.symbol()),
                                span,
                            )
                            .with_code(Code::TypeMismatch)
                            .with_label(format!("this has type {found}")),
                        );
                    }
                }
                // The type of the first operand that is not a literal.
                if !self.is_literal(x) {
                    self.func.ty(x).clone()
                } else if !self.is_literal(y) {
                    self.func.ty(y).clone()
                } else {
                    Type::I64
                }
            }
        }
    }

    fn report_misplaced(&mut self, args: &ast::CallArgs<'a>) {
        for span in args.misplaced() {
            self.error(
                Diagnostic::error("positional argument after keyword arguments", span)
                    .with_code(Code::KeywordArgument)
                    .with_label("move this before the keyword arguments"),
            );
        }
    }

    /// `callee_span` is the callee's name when it is a function (which
    /// `submit` could launch), `None` for an op.
    fn deps_on_plain_call(
        &mut self,
        (key, value): (ast::Ident, &ast::Expr<'a>),
        callee: &str,
        callee_span: Option<Span>,
    ) {
        // `a, t = sumbit k(x, deps=[ts])`: the unknown variable just
        // reported right before the callee (only blanks between them) is a
        // misspelt `submit` (the `deps=` says a launch was meant): one
        // mistake, one error, about the keyword, with its fix.
        let misspelt_submit = callee_span.is_some_and(|at| {
            self.diags.last().is_some_and(|d| {
                let s = d.primary.span;
                let between = s.end().checked_sub(self.src.base).and_then(|from| {
                    let to = at.start().checked_sub(self.src.base)?;
                    self.src.text.get(from..to)
                });
                d.code == Some(Code::UnknownVariable)
                    && d.suggestions.iter().any(|x| x.replacement == "submit")
                    && between.is_some_and(|b| b.trim().is_empty())
            })
        });
        if misspelt_submit && let Some(d) = self.diags.last_mut() {
            let word = d.message.split('`').nth(1).unwrap_or_default().to_string();
            d.message = format!("unknown keyword `{word}`: did you mean `submit`?");
            d.primary.message = format!("a task launch is written `submit {callee}(...)`");
            for fix in d.suggestions.iter_mut() {
                fix.message = format!("replace `{word}` with `submit`");
                fix.applicability = Applicability::MachineApplicable;
            }
            return;
        }
        let mut d = Diagnostic::error(
            format!("`deps=` is not allowed on a plain call of `{callee}`"),
            key.span().to(value.span),
        )
        .with_code(Code::DepsMisuse)
        .with_label("manual dependency edges belong to a task launch");
        // Functions can be launched with `submit`; ops cannot. A launch
        // also binds the task id, so the edit is only likely.
        d = match callee_span {
            Some(at) => d.with_suggestion(
                at.start_point(),
                "submit ",
                format!("launch `{callee}` as a task with `submit {callee}(...)`"),
                Applicability::MaybeIncorrect,
            ),
            None => d.with_help(
                "launch a function with `submit f(..., deps=[...])`, or wait on a barrier: `b = system.task_dummy(deps=[...])`",
            ),
        };
        self.error(d.with_note("only `submit` and `system.task_dummy` carry manual dependencies"));
    }

    /// Lowers a `deps=[...]` list: each entry a `task_id`, an
    /// `array<task_id, N>`, or `none` (dropped). A value that is not a
    /// list is reported and returned as an expression (`Err`), to be kept
    /// as written.
    fn lower_deps(&mut self, value: &ast::Expr<'a>) -> Result<ExprList, ExprId> {
        let Some(items) = value.list_items() else {
            let id = self.lower_expr(value);
            let found = self.describe(id);
            self.error(
                Diagnostic::error("`deps=` takes a list", value.span)
                    .with_code(Code::DepsMisuse)
                    .with_label(format!("this is {found}, not a list"))
                    .with_help("write `deps=[a, b]`"),
            );
            return Err(id);
        };
        let mut out: SmallVec<[ExprId; 4]> = SmallVec::new();
        for item in items {
            if matches!(item.kind, ast::ExprKind::None) {
                continue;
            }
            let id = self.lower_expr(item);
            let ty = self.func.ty(id);
            if !(ty.is_task_id() || ty.is_task_id_array() || ty.is_unknown()) {
                let found = self.describe(id);
                self.error(
                    Diagnostic::error(format!("a `deps=` entry must be `task_id`, `array<task_id, N>` or `none`, found {found}"), item.span)
.with_code(Code::TypeMismatch)
                        .with_label(format!("this has type {found}")),
                );
            }
            out.push(id);
        }
        Ok(self.func.new_list(&out))
    }

    /// The source text at `span`, as a name of the function: what an
    /// unresolved node keeps to be printed as written.
    pub(super) fn written(&mut self, span: Span) -> crate::ir::Symbol {
        let src = self.src;
        let text = span
            .start()
            .checked_sub(src.base)
            .zip(span.end().checked_sub(src.base))
            .and_then(|(a, b)| src.text.get(a..b))
            .unwrap_or("");
        self.func.names.add(text)
    }

    /// Lowers `e` only to keep it in the IR (an argument lowering rejects
    /// without looking into it): its own diagnostics are dropped, so that
    /// keeping what was written reports nothing new.
    fn lower_kept(&mut self, e: &ast::Expr<'a>) -> ExprId {
        let (diags, searches) = (self.diags.len(), self.suggestion_searches);
        let id = self.lower_expr(e);
        self.diags.truncate(diags);
        self.suggestion_searches = searches;
        id
    }

    /// A keyword argument kept as written (`key` empty: a positional
    /// argument written after keyword arguments).
    fn kept_kwarg(&mut self, key: &str, value: ExprId) -> Kwarg {
        Kwarg {
            name: self.func.names.add(key),
            value,
        }
    }

    /// Splits lowered positional arguments into those written before any
    /// keyword argument and those written after one (an error), which are
    /// kept as nameless keyword arguments, so that they print where they
    /// were written.
    fn split_misplaced(
        &mut self,
        args: &ast::CallArgs<'a>,
        ids: &[ExprId],
        kwargs: &mut SmallVec<[Kwarg; 2]>,
    ) -> usize {
        let misplaced = args.misplaced().count().min(ids.len());
        let in_place = ids.len() - misplaced;
        for &id in &ids[in_place..] {
            let kw = self.kept_kwarg("", id);
            kwargs.push(kw);
        }
        in_place
    }

    /// An empty list expression at `span` (a `deps=[]` kept as written).
    fn empty_list(&mut self, span: Span) -> ExprId {
        let list = self.func.new_list(&[]);
        self.build(span).expr(ExprKind::List(list), Type::Unknown)
    }

    /// Puts kept keyword arguments back in source order.
    fn in_source_order(&self, kwargs: &mut [Kwarg]) {
        kwargs.sort_by_key(|k| self.func.exprs[k.value].span.start());
    }

    fn lower_args_against(
        &mut self,
        args: impl Iterator<Item = &'a ast::Expr<'a>>,
        params: &[(String, Direction, Type)],
        callee: &str,
        span: Span,
    ) -> (Vec<ExprId>, Vec<Direction>) {
        let ids: Vec<ExprId> = args.map(|a| self.lower_expr(a)).collect();
        if ids.len() != params.len() {
            self.error(
                Diagnostic::error(
                    format!(
                        "`{callee}` takes {} argument{}, but {} were given",
                        params.len(),
                        plural(params.len()),
                        ids.len()
                    ),
                    span,
                )
                .with_code(Code::ArgumentCount)
                .with_label(format!(
                    "expected {} argument{}",
                    params.len(),
                    plural(params.len())
                ))
                .with_secondary(self.signatures[callee].span, "the callee's signature"),
            );
        } else {
            for (i, (id, (name, _, ty))) in ids.iter().zip(params).enumerate() {
                if !self.expect_type(*id, ty, &format!("argument `{name}`"))
                    && let Some(&at) = self.signatures[callee].param_spans.get(i)
                    && let Some(d) = self.diags.pop()
                {
                    self.error(
                        d.with_secondary(at, format!("parameter `{name}` is declared here")),
                    );
                }
            }
        }
        let directions = (0..ids.len())
            .map(|i| params.get(i).map_or(Direction::In, |p| p.1))
            .collect();
        (ids, directions)
    }

    fn not_a_function(&mut self, id: ast::Ident, what: &str) {
        let (name, span) = (self.text(id), id.span());
        let mut d = Diagnostic::error(format!("unknown function `{name}`"), span)
            .with_code(Code::UnknownFunction);
        if self.scopes.lookup(name).is_some() {
            d = Diagnostic::error(format!("`{name}` is a variable, not a function"), span)
                .with_code(Code::UnknownFunction)
                .with_label(format!("{what} needs a function of the module"));
        } else {
            d = d.with_label("no function of this name in the module");
            if let Some(s) = self
                .may_search_suggestions()
                .then(|| suggest::closest(name, self.signatures.keys().copied()))
                .flatten()
            {
                d = d.with_suggestion(
                    span,
                    s,
                    format!("did you mean `{s}`?"),
                    Applicability::MaybeIncorrect,
                );
            }
        }
        self.error(d);
    }

    fn lower_call(
        &mut self,
        callee: &ast::CalleeName,
        args: &ast::CallArgs<'a>,
        span: Span,
    ) -> ExprId {
        self.report_misplaced(args);
        match *callee {
            ast::CalleeName::Function(id) => {
                let name = self.text(id);
                let signatures = self.signatures;
                let Some(sig) = signatures.get(name) else {
                    self.not_a_function(id, "a call");
                    // Kept as written, under the unknown name.
                    let ids: SmallVec<[ExprId; 4]> =
                        args.positional().map(|a| self.lower_expr(a)).collect();
                    let mut kwargs: SmallVec<[Kwarg; 2]> = SmallVec::new();
                    for (key, value) in args.keyword() {
                        let value = self.lower_kept(value);
                        let kw = self.kept_kwarg(self.text(key), value);
                        kwargs.push(kw);
                    }
                    let in_place = self.split_misplaced(args, &ids, &mut kwargs);
                    self.in_source_order(&mut kwargs);
                    let mut call = Call::new(Callee::Unresolved(self.func.names.add(name)));
                    call.args = self.func.new_list(&ids[..in_place]);
                    call.arg_directions = self.func.new_directions(vec![Direction::In; in_place]);
                    call.kwargs = self.func.new_list(&kwargs);
                    return self.build(span).call(call, Type::Unknown);
                };
                // Rejected keyword arguments are kept as written.
                let mut kwargs: SmallVec<[Kwarg; 2]> = SmallVec::new();
                for kw in args.keyword() {
                    let key = self.text(kw.0);
                    if key == KWARG_DEPS {
                        self.deps_on_plain_call(kw, name, Some(id.span()));
                    } else {
                        self.error(
                            Diagnostic::error(
                                format!("unknown keyword argument `{key}` for a function call"),
                                kw.0.span(),
                            )
                            .with_code(Code::KeywordArgument)
                            .with_label("function calls take positional arguments only"),
                        );
                    }
                    let value = self.lower_kept(kw.1);
                    let kept = self.kept_kwarg(key, value);
                    kwargs.push(kept);
                }
                let (ids, directions) =
                    self.lower_args_against(args.positional(), &sig.params, name, span);
                let in_place = self.split_misplaced(args, &ids, &mut kwargs);
                self.in_source_order(&mut kwargs);
                let mut call = Call::new(Callee::Function(sig.id));
                call.args = self.func.new_list(&ids[..in_place]);
                call.arg_directions = self
                    .func
                    .new_directions(directions.into_iter().take(in_place));
                call.kwargs = self.func.new_list(&kwargs);
                self.build(span).call(call, sig.call_type())
            }
            ast::CalleeName::Op(op) => self.lower_op(op, args, span),
        }
    }

    fn arity_error(&mut self, op: &str, expected: usize, found: usize, span: Span, usage: &str) {
        self.error(
            Diagnostic::error(
                format!(
                    "`{op}` takes {expected} argument{}, but {found} were given",
                    plural(expected)
                ),
                span,
            )
            .with_code(Code::ArgumentCount)
            .with_label(format!("expected {expected} argument{}", plural(expected)))
            .with_help(format!("usage: `{usage}`")),
        );
    }

    fn lower_op(&mut self, op: ast::Ident, args: &ast::CallArgs<'a>, span: Span) -> ExprId {
        let name = self.text(op);
        let mut call = Call::new(Callee::Op(self.func.names.add(name)));
        let builtin = BuiltinOp::from_name(name);
        call.builtin = builtin;
        if builtin == Some(BuiltinOp::TaskDummy) {
            return self.lower_task_dummy(call, args, span);
        }

        let a: SmallVec<[ExprId; 4]> = args.positional().map(|a| self.lower_expr(a)).collect();
        let mut kwargs = self.op_kwargs(args, name);
        let in_place = self.split_misplaced(args, &a, &mut kwargs);
        self.in_source_order(&mut kwargs);
        call.args = self.func.new_list(&a[..in_place]);
        call.arg_directions = self.func.new_directions(vec![Direction::In; in_place]);
        call.kwargs = self.func.new_list(&kwargs);
        // Every built-in op but `system.task_dummy` (handled above).
        if builtin.is_some()
            && let Some((key, _)) = args.keyword().find(|(k, _)| self.text(*k) != KWARG_DEPS)
        {
            self.error(
                Diagnostic::error(format!("`{name}` takes no keyword arguments"), key.span())
                    .with_code(Code::KeywordArgument)
                    .with_label("unexpected keyword argument"),
            );
        }
        if let Some(op) = builtin
            && a.len() != op.arity()
        {
            self.arity_error(name, op.arity(), a.len(), span, op.usage());
        }
        let ty = self.builtin_type(builtin, &a, name);
        self.build(span).call(call, ty)
    }

    /// `system.task_dummy(deps=[...])`: a barrier call; everything else
    /// given is rejected and kept as written.
    fn lower_task_dummy(&mut self, mut call: Call, args: &ast::CallArgs<'a>, span: Span) -> ExprId {
        // Everything rejected is kept as written.
        let mut ids: SmallVec<[ExprId; 4]> = SmallVec::new();
        for a in args.positional() {
            ids.push(self.lower_expr(a));
            self.error(
                Diagnostic::error("`system.task_dummy` takes only `deps=`", a.span)
                    .with_code(Code::KeywordArgument)
                    .with_label("unexpected positional argument"),
            );
        }
        let mut kwargs: SmallVec<[Kwarg; 2]> = SmallVec::new();
        let mut seen_deps = false;
        let mut first_empty_deps = None;
        for (key, value) in args.keyword() {
            let key_name = self.text(key);
            if key_name == KWARG_DEPS && !seen_deps {
                seen_deps = true;
                match self.lower_deps(value) {
                    Ok(deps) if deps.is_empty() => {
                        // Printed only if `deps=` is given again.
                        first_empty_deps = Some(self.empty_list(value.span));
                    }
                    Ok(deps) => call.manual_dep_edges = deps,
                    Err(kept) => {
                        let kw = self.kept_kwarg(key_name, kept);
                        kwargs.push(kw);
                    }
                }
            } else {
                if key_name == KWARG_DEPS
                    && let Some(first) = first_empty_deps.take()
                {
                    let kw = self.kept_kwarg(key_name, first);
                    kwargs.push(kw);
                }
                let kept = self.lower_kept(value);
                let kw = self.kept_kwarg(key_name, kept);
                kwargs.push(kw);
                self.error(
                    Diagnostic::error(
                        format!("unexpected keyword argument `{key_name}` for `system.task_dummy`"),
                        key.span(),
                    )
                    .with_code(Code::KeywordArgument)
                    .with_label("`system.task_dummy` takes only one `deps=`"),
                );
            }
        }
        let in_place = self.split_misplaced(args, &ids, &mut kwargs);
        self.in_source_order(&mut kwargs);
        call.args = self.func.new_list(&ids[..in_place]);
        call.arg_directions = self.func.new_directions(vec![Direction::In; in_place]);
        call.kwargs = self.func.new_list(&kwargs);
        call.dummy_task = true;
        self.build(span).call(call, Type::TASK_ID)
    }

    /// The keyword arguments of an op call: checked ones lowered, `deps=`
    /// and repeated ones rejected and kept as written.
    fn op_kwargs(&mut self, args: &ast::CallArgs<'a>, name: &str) -> SmallVec<[Kwarg; 2]> {
        let mut kwargs: SmallVec<[Kwarg; 2]> = SmallVec::new();
        // The keyword arguments lowering checked; rejected ones are kept
        // in `kwargs` too, as written.
        let mut checked: SmallVec<[Symbol; 2]> = SmallVec::new();
        for kw in args.keyword() {
            let key = self.text(kw.0);
            if key == KWARG_DEPS {
                self.deps_on_plain_call(kw, name, None);
                let value = self.lower_kept(kw.1);
                let kept = self.kept_kwarg(key, value);
                kwargs.push(kept);
                continue;
            }
            if checked.iter().any(|k| self.func.names.get(*k) == key) {
                self.error(
                    Diagnostic::error(format!("keyword argument `{key}` given twice"), kw.0.span())
                        .with_code(Code::KeywordArgument),
                );
                let value = self.lower_kept(kw.1);
                let kept = self.kept_kwarg(key, value);
                kwargs.push(kept);
                continue;
            }
            let value = self.lower_expr(kw.1);
            let name = self.func.names.add(key);
            checked.push(name);
            kwargs.push(Kwarg { name, value });
        }
        kwargs
    }

    /// The result type of a built-in op (its arguments checked), or unknown.
    fn builtin_type(&mut self, builtin: Option<BuiltinOp>, a: &[ExprId], name: &str) -> Type {
        match builtin {
            Some(BuiltinOp::ArrayCreate) => {
                if a.len() != 2 {
                    Type::Unknown
                } else {
                    self.array_create_type(a[0], a[1])
                }
            }
            Some(BuiltinOp::ArrayGetElement) => {
                if a.len() != 2 {
                    Type::Unknown
                } else {
                    self.expect_integer(a[1], "the index of `array.get_element`");
                    self.array_element(a[0], name)
                }
            }
            Some(BuiltinOp::ArrayUpdateElement) => {
                if a.len() != 3 {
                    Type::Unknown
                } else {
                    self.expect_integer(a[1], "the index of `array.update_element`");
                    let elem = self.array_element(a[0], name);
                    if !elem.is_unknown() {
                        self.expect_type(a[2], &elem, "the stored value");
                    }
                    self.func.ty(a[0]).clone()
                }
            }
            Some(BuiltinOp::TaskInvalid) => Type::TASK_ID,
            Some(BuiltinOp::TaskDummy) | None => Type::Unknown,
        }
    }

    /// The type of `array.create(size, elem)`.
    fn array_create_type(&mut self, size: ExprId, elem_expr: ExprId) -> Type {
        self.expect_integer(size, "the size of `array.create`");
        let elem = self.array_elem_type(elem_expr);
        // A literal extent below zero (`-4`, or a negative
        // literal) can never be a size.
        let negative = match &self.func.exprs[size].kind {
            ExprKind::Int(n) => (n.get() < 0).then(|| n.to_string()),
            ExprKind::Unary(UnaryOp::Neg, inner) => match &self.func.exprs[*inner].kind {
                ExprKind::Int(n) if n.get() > 0 => Some(format!("-{n}")),
                _ => None,
            },
            _ => None,
        };
        if let Some(text) = &negative {
            let s = self.func.exprs[size].span;
            self.error(
                Diagnostic::error(
                    format!("the size of `array.create` is negative ({text})"),
                    s,
                )
                .with_label("an array size must be zero or more"),
            );
        }
        let extent = match &self.func.exprs[size].kind {
            _ if negative.is_some() => Extent::Const(0),
            ExprKind::Int(n) => Extent::Const(n.get()),
            ExprKind::Var(v) => Extent::Dynamic(Some(self.func.var_name(*v).to_string())),
            _ => Extent::Dynamic(None),
        };
        Type::Array { elem, extent }
    }

    /// The element type argument of `array.create` (`task_id` when it is
    /// not one, reported).
    fn array_elem_type(&mut self, elem_expr: ExprId) -> ScalarType {
        match &self.func.exprs[elem_expr].kind {
            ExprKind::Dtype(s) => *s,
            _ => {
                let s = self.func.exprs[elem_expr].span;
                // A misspelt type name (`task_ids`) was just
                // reported as an unknown variable: one mistake,
                // so one error, about the type.
                let misspelt = match self.diags.last() {
                    Some(d) if d.code == Some(Code::UnknownVariable) && d.primary.span == s => {
                        d.message.split('`').nth(1).map(str::to_string)
                    }
                    _ => None,
                };
                let mut d = Diagnostic::error(
                    "the element type of `array.create` must be a scalar type",
                    s,
                )
                .with_code(Code::TypeMismatch)
                .with_label("expected a type such as `task_id`");
                if let Some(word) = misspelt {
                    self.diags.pop();
                    d = Diagnostic::error(format!("unknown type `{word}`"), s)
                        .with_code(Code::TypeMismatch)
                        .with_label("not a scalar type");
                    if let Some(t) =
                        suggest::closest(&word, ScalarType::ALL.iter().map(|t| t.name()))
                    {
                        d = d.with_suggestion(
                            s,
                            t,
                            format!("did you mean `{t}`?"),
                            Applicability::MaybeIncorrect,
                        );
                    }
                }
                self.error(d);
                ScalarType::TaskId
            }
        }
    }

    /// The element type of the array `a`, reporting a non-array.
    fn array_element(&mut self, a: ExprId, op: &str) -> Type {
        match self.func.ty(a).clone() {
            Type::Array { elem, .. } => Type::Scalar(elem),
            Type::Unknown => Type::Unknown,
            _ => {
                let span = self.func.exprs[a].span;
                let found = self.describe(a);
                self.error(
                    Diagnostic::error(
                        format!("the first argument of `{op}` must be an array, found {found}"),
                        span,
                    )
                    .with_code(Code::TypeMismatch)
                    .with_label(format!("this has type {found}")),
                );
                Type::Unknown
            }
        }
    }

    pub(super) fn lower_submit(
        &mut self,
        bindings: &[ast::Binding<'a>],
        s: &ast::SubmitStmt<'a>,
    ) -> Option<StmtKind> {
        self.report_misplaced(&s.args);
        let callee = self.text(s.callee);
        // An op name (`array.create`) has a `.`; a function's name never.
        if callee.contains('.') {
            self.error(
                Diagnostic::error(
                    format!("`{callee}` is an op, not a function"),
                    s.callee.span(),
                )
                .with_code(Code::UnknownFunction)
                .with_label("`submit` launches a function of the module")
                .with_help(format!("call the op directly: `x = {callee}(...)`")),
            );
            return Some(self.unresolved_submit(bindings, s));
        }
        let signatures = self.signatures;
        let Some(sig) = signatures.get(callee) else {
            self.not_a_function(s.callee, "`submit`");
            return Some(self.unresolved_submit(bindings, s));
        };
        let (args, arg_directions) =
            self.lower_args_against(s.args.positional(), &sig.params, callee, s.span);
        // Rejected keyword arguments and positional arguments written after
        // keyword arguments are kept as written.
        let mut rejected: SmallVec<[Kwarg; 2]> = SmallVec::new();
        let in_place = self.split_misplaced(&s.args, &args, &mut rejected);
        let mut submit = Submit {
            results: VarList::new(),
            callee: Callee::Function(sig.id),
            callee_span: s.callee.span(),
            args: self.func.new_list(&args[..in_place]),
            arg_directions: self
                .func
                .new_directions(arg_directions.into_iter().take(in_place)),
            deps: ExprList::new(),
            core_num: None,
            sync_start: None,
            allow_early_resolve: None,
            predicate: None,
            rejected_kwargs: crate::ir::KwargList::new(),
        };
        self.submit_kwargs(s, &mut submit, &mut rejected);
        self.in_source_order(&mut rejected);
        submit.rejected_kwargs = self.func.new_list(&rejected);
        self.check_submit_bindings(bindings, s, callee, sig);
        const TASK_ID: &Type = &Type::TASK_ID;
        let types = sig
            .results
            .iter()
            .chain(std::iter::once(TASK_ID))
            .chain(std::iter::repeat(&Type::Unknown));
        submit.results = self.bind_results_from(bindings, types);
        Some(StmtKind::Submit(self.func.submits.alloc(submit)))
    }

    /// The keyword arguments of a `submit` into `submit`; unknown and
    /// repeated ones are rejected and kept (as written) in `rejected`.
    fn submit_kwargs(
        &mut self,
        s: &ast::SubmitStmt<'a>,
        submit: &mut Submit,
        rejected: &mut SmallVec<[Kwarg; 2]>,
    ) {
        // Which of SUBMIT_KWARGS were given (no list is built).
        let mut seen = [false; SUBMIT_KWARGS.len()];
        // A value the canonical form leaves out (`deps=[]`, `sync_start=false`),
        // kept in case the keyword is given again: then both are printed.
        let mut elided: [Option<ExprId>; SUBMIT_KWARGS.len()] = [None; SUBMIT_KWARGS.len()];
        for (key_id, value) in s.args.keyword() {
            let key = self.text(key_id);
            let Some(slot) = SUBMIT_KWARGS.iter().position(|k| *k == key) else {
                self.error(
                    Diagnostic::error(
                        format!("unknown keyword argument `{key}` for `submit`"),
                        key_id.span(),
                    )
                    .with_code(Code::KeywordArgument)
                    .with_label("not a `submit` option")
                    .with_note(format!(
                        "`submit` takes {}",
                        SUBMIT_KWARGS.map(|k| format!("`{k}=`")).join(", ")
                    )),
                );
                let value = self.lower_kept(value);
                let kept = self.kept_kwarg(key, value);
                rejected.push(kept);
                continue;
            };
            if seen[slot] {
                self.error(
                    Diagnostic::error(
                        format!("keyword argument `{key}` given twice"),
                        key_id.span(),
                    )
                    .with_code(Code::KeywordArgument)
                    .with_label("each keyword argument may appear at most once"),
                );
                if let Some(first) = elided[slot].take() {
                    let kept = self.kept_kwarg(key, first);
                    rejected.push(kept);
                }
                let value = self.lower_kept(value);
                let kept = self.kept_kwarg(key, value);
                rejected.push(kept);
                continue;
            }
            seen[slot] = true;
            match key {
                KWARG_DEPS => match self.lower_deps(value) {
                    Ok(deps) => {
                        if deps.is_empty() {
                            elided[slot] = Some(self.empty_list(value.span));
                        }
                        submit.deps = deps;
                    }
                    Err(kept) => {
                        let kept = self.kept_kwarg(key, kept);
                        rejected.push(kept);
                    }
                },
                KWARG_CORE_NUM => {
                    let v = self.lower_expr(value);
                    self.expect_integer(v, "`core_num`");
                    submit.core_num = Some(v);
                }
                KWARG_SYNC_START | KWARG_ALLOW_EARLY_RESOLVE => {
                    let v = self.lower_expr(value);
                    self.expect_bool(v, &format!("`{key}`"));
                    let is_default = matches!(self.func.exprs[v].kind, ExprKind::Bool(false));
                    let slot = if key == KWARG_SYNC_START {
                        &mut submit.sync_start
                    } else {
                        &mut submit.allow_early_resolve
                    };
                    *slot = if is_default { None } else { Some(v) };
                    if is_default {
                        elided[SUBMIT_KWARGS.iter().position(|k| *k == key).unwrap_or(0)] = Some(v);
                    }
                }
                _ => submit.predicate = Some(self.lower_expr(value)),
            }
        }
    }

    /// Reports a `submit` whose bindings are not its callee's results and
    /// the task id.
    fn check_submit_bindings(
        &mut self,
        bindings: &[ast::Binding<'a>],
        s: &ast::SubmitStmt<'a>,
        callee: &str,
        sig: &super::Signature,
    ) {
        // The callee's results and the task id, borrowed (no list is built).
        let produced = sig.results.len() + 1;
        if bindings.len() != produced {
            let fix = self.missing_submit_bindings(bindings, callee, sig.results.len());
            let mut d = Diagnostic::error(
                    format!(
                        "`submit {}` produces {} value{} ({} result{} and the task id), but {} binding{} given",
                        callee,
                        produced,
                        plural(produced),
                        sig.results.len(),
                        plural(sig.results.len()),
                        bindings.len(),
                        if bindings.len() == 1 { " is" } else { "s are" }
                    ),
                    bindings.first().map(|b| b.span()).unwrap_or(s.span).to(bindings.last().map(|b| b.span()).unwrap_or(s.span)),
                )
                .with_code(Code::ValueCount)
                .with_label(format!("expected {} binding{}", produced, plural(produced)))
                .with_secondary(sig.span, "the callee's signature");
            if let Some((span, replacement, message, applicability)) = fix {
                d = d.with_suggestion(span, replacement, message, applicability);
            }
            self.error(d);
        }
    }

    /// The fix for a `submit` that binds fewer values than it produces
    /// (`results` results and the task id): the bindings to add after the
    /// last one. When only the task id is missing, the fix is certain: the
    /// given bindings keep their values and the task id gets a name that
    /// nothing in scope (no variable, binding of this statement or
    /// function) uses, so no later use changes meaning. When results are
    /// missing too, which value each given binding was meant for is a
    /// guess, and the results get placeholders.
    fn missing_submit_bindings(
        &self,
        bindings: &[ast::Binding<'a>],
        callee: &str,
        results: usize,
    ) -> Option<(Span, String, String, Applicability)> {
        let last = bindings.last()?;
        if bindings.len() > results {
            return None;
        }
        let taken = |name: &str| {
            self.scopes.lookup(name).is_some()
                || self.signatures.contains_key(name)
                || bindings
                    .iter()
                    .any(|b| b.name().is_some_and(|(n, _)| self.text(n) == name))
        };
        // `m_tid = submit k(...)`: the binding named for the task id is the
        // task id; the result before it is what is missing.
        if bindings.len() == results
            && let Some((name, _)) = last.name()
            && let Some(stem) = self.text(name).strip_suffix("_tid")
            && !stem.is_empty()
        {
            let result = std::iter::once(stem.to_string())
                .chain((2..100).map(|i| format!("{stem}{i}")))
                .find(|name| !taken(name))?;
            let mut given: Vec<&str> = bindings
                .iter()
                .map(|b| b.name().map_or("_", |(n, _)| self.text(n)))
                .collect();
            given.insert(given.len() - 1, &result);
            let message = format!(
                "bind the result before the task id: `{} = submit {callee}(...)`",
                given.join(", ")
            );
            let start = last.span().start();
            return Some((
                Span::new(start, start),
                format!("{result}, "),
                message,
                Applicability::MaybeIncorrect,
            ));
        }
        let stem = match last.name() {
            Some((name, _)) if bindings.len() == results => self.text(name),
            _ => callee,
        };
        let task_id = std::iter::once(format!("{stem}_tid"))
            .chain((2..100).map(|i| format!("{stem}_tid{i}")))
            .find(|name| !taken(name))?;
        let mut added = String::new();
        for _ in bindings.len()..results {
            added.push_str(", <result>");
        }
        added.push_str(", ");
        added.push_str(&task_id);
        let (message, applicability) = if bindings.len() == results {
            let given: Vec<&str> = bindings
                .iter()
                .map(|b| b.name().map_or("_", |(n, _)| self.text(n)))
                .collect();
            let given = given.join(", ");
            (
                format!("bind the task id too: `{given}{added} = submit {callee}(...)`"),
                Applicability::MachineApplicable,
            )
        } else {
            (
                "bind every result, then the task id".to_string(),
                Applicability::HasPlaceholders,
            )
        };
        let end = last.span().end();
        Some((Span::new(end, end), added, message, applicability))
    }

    /// A `submit` of a name that is no function of the module (already
    /// reported), kept as written: its arguments are lowered without
    /// reports of their own (none were made before), its bindings defined
    /// with the error type.
    fn unresolved_submit(
        &mut self,
        bindings: &[ast::Binding<'a>],
        s: &ast::SubmitStmt<'a>,
    ) -> StmtKind {
        let ids: SmallVec<[ExprId; 4]> = s.args.positional().map(|a| self.lower_kept(a)).collect();
        let mut kwargs: SmallVec<[Kwarg; 2]> = SmallVec::new();
        for (key, value) in s.args.keyword() {
            let value = self.lower_kept(value);
            let kw = self.kept_kwarg(self.text(key), value);
            kwargs.push(kw);
        }
        let in_place = self.split_misplaced(&s.args, &ids, &mut kwargs);
        self.in_source_order(&mut kwargs);
        let unknown = vec![Type::Unknown; bindings.len()];
        let results = self.bind_results(bindings, &unknown);
        let submit = Submit {
            results,
            callee: Callee::Unresolved(self.func.names.add(self.text(s.callee))),
            callee_span: s.callee.span(),
            args: self.func.new_list(&ids[..in_place]),
            arg_directions: self.func.new_directions(vec![Direction::In; in_place]),
            deps: ExprList::new(),
            core_num: None,
            sync_start: None,
            allow_early_resolve: None,
            predicate: None,
            rejected_kwargs: self.func.new_list(&kwargs),
        };
        StmtKind::Submit(self.func.submits.alloc(submit))
    }
}
