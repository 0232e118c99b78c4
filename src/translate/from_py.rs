//! PyPTO's DSL to `.pfir` (`pfir translate --from=pypto`).
//!
//! Every `@pl.program` class of the file (at the top level, or inside a
//! test function as PyPTO's tests write them) is written as `.pfir`
//! text, one statement per line, with the Python span each line came
//! from; the front end reads that text and the canonical printer prints
//! it, so the output is canonical and every check of `.pfir` (names,
//! types, counts) applies. An error the front end finds is reported at
//! the Python statement its line came from. Python outside the programs
//! (imports, test functions, helpers) is the harness, not IR, and is not
//! read; `X = pl.dynamic("X")` declarations name dynamic extents.
//!
//! The forms PyPTO's printer adds are read back: `_submit_tmp =
//! pl.submit(...)` followed by `a = _submit_tmp[0]`, ... is one `submit`
//! binding `a, ...`; `pl.const(4, pl.INT64)` is the literal `4`; the
//! `attrs={"arg_directions": [...]}` of a call is left to `.pfir`, which
//! resolves directions from signatures; `x: T = v` annotations are kept
//! where the canonical printer keeps them (where `T` differs from the
//! value's type).

use super::names::{self, PL};
use super::py_ast::{Expr, ExprKind, Param, Stmt, StmtKind};
use super::py_parser;
use crate::diagnostics::{Code, Diagnostic, has_errors};
use crate::span::Span;
use std::fmt::Write as _;

use super::Translation;

/// The error for a Python construct `.pfir` has no form for.
fn no_form(what: impl std::fmt::Display, span: Span) -> Diagnostic {
    Diagnostic::error(format!("{what} has no form in `.pfir`"), span)
        .with_code(Code::NoTranslation)
        .with_label("not translatable")
}

pub fn translate(text: &str) -> Translation {
    let module = match py_parser::parse(text) {
        Ok(parsed) => parsed,
        Err(d) => {
            return Translation {
                output: None,
                diagnostics: vec![d],
            };
        }
    };
    let mut programs = Vec::new();
    find_programs(&module, &mut programs);
    let mut diagnostics = Vec::new();
    let mut chunks = Vec::new();
    for class in programs {
        let mut w = Writer::default();
        w.program(class);
        diagnostics.append(&mut w.diags);
        if has_errors(&diagnostics) {
            continue;
        }
        let (m, diags) =
            crate::frontend::read_module(&w.out, crate::frontend::ReadOptions::at(0)).into_parts();
        for d in diags {
            diagnostics.push(w.to_python(d));
        }
        if let Some(m) = m {
            chunks.push(crate::printer::print_module(&m));
        }
    }
    let output = (!has_errors(&diagnostics))
        .then(|| chunks.join(&format!("{}\n", crate::split_input::SPLIT_MARKER)));
    Translation {
        output,
        diagnostics,
    }
}

/// The `@pl.program` classes of `stmts`, in order, looking into function
/// bodies and `if` branches (where tests define them).
fn find_programs<'a>(stmts: &'a [Stmt], out: &mut Vec<&'a Stmt>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Class { decorators, .. }
                if decorators.iter().any(|d| is_pl(d, "program")) =>
            {
                out.push(s)
            }
            StmtKind::Def { body, .. } | StmtKind::Class { body, .. } => find_programs(body, out),
            StmtKind::If { body, orelse, .. } => {
                find_programs(body, out);
                find_programs(orelse, out);
            }
            _ => {}
        }
    }
}

/// Whether `e` is `pl.<name>` (or a call of it).
fn is_pl(e: &Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Call { func, .. } => is_pl(func, name),
        ExprKind::Attribute(base, attr) => {
            attr == name && matches!(&base.kind, ExprKind::Name(n) if n == PL)
        }
        _ => false,
    }
}

/// The dotted path of `pl.a.b` as `["a", "b"]`.
fn pl_path(e: &Expr) -> Option<Vec<&str>> {
    match &e.kind {
        ExprKind::Attribute(base, attr) => {
            if matches!(&base.kind, ExprKind::Name(n) if n == PL) {
                Some(vec![attr.as_str()])
            } else {
                let mut p = pl_path(base)?;
                p.push(attr);
                Some(p)
            }
        }
        _ => None,
    }
}

#[derive(Default)]
struct Writer {
    out: String,
    /// The Python span of each line of `out`.
    lines: Vec<Span>,
    diags: Vec<Diagnostic>,
}

impl Writer {
    fn line(&mut self, depth: usize, text: &str, span: Span) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
        self.lines.push(span);
    }

    /// A diagnostic of the generated `.pfir`, moved to the Python
    /// statement its line came from.
    fn to_python(&self, d: Diagnostic) -> Diagnostic {
        let start = d.primary.span.start().min(self.out.len());
        let line = self.out.as_bytes()[..start]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        let span = self.lines.get(line).copied().unwrap_or_default();
        let mut moved =
            Diagnostic::new(d.severity, d.message.clone(), span).with_label("in this statement");
        if let Some(code) = d.code {
            moved = moved.with_code(code);
        }
        for note in d.note_lines() {
            moved = moved.with_note(note);
        }
        moved
    }

    fn program(&mut self, class: &Stmt) {
        let StmtKind::Class { body, .. } = &class.kind else {
            return;
        };
        for s in body {
            match &s.kind {
                StmtKind::Def {
                    name,
                    decorators,
                    params,
                    returns,
                    body,
                } => self.function(s.span, name, decorators, params, returns.as_ref(), body),
                StmtKind::Pass => {}
                StmtKind::Expr(Expr {
                    kind: ExprKind::Str(_),
                    ..
                }) => {}
                _ => self
                    .diags
                    .push(no_form("this statement of a program class", s.span)),
            }
        }
    }

    fn function(
        &mut self,
        span: Span,
        name: &str,
        decorators: &[Expr],
        params: &[Param],
        returns: Option<&Expr>,
        body: &[Stmt],
    ) {
        let mut kind = crate::vocab::FuncKind::Opaque;
        // `level=` and `role=`, checked against the type once it is known.
        let mut level_role: Vec<(&str, usize, &Expr)> = Vec::new();
        for d in decorators {
            if !is_pl(d, "function") {
                self.diags.push(no_form("this decorator", d.span));
                continue;
            }
            if let ExprKind::Call { args, kwargs, .. } = &d.kind {
                if let Some(a) = args.first() {
                    self.diags
                        .push(no_form("a positional argument of `pl.function`", a.span));
                }
                for (key, value) in kwargs {
                    match key.as_str() {
                        "type" => match pl_path(value).as_deref() {
                            Some(["FunctionType", k]) => match names::kind_from_name(k) {
                                Some(found) => kind = found,
                                None => self.diags.push(no_form(
                                    format_args!("`pl.FunctionType.{k}`"),
                                    value.span,
                                )),
                            },
                            _ => self.diags.push(no_form("this function type", value.span)),
                        },
                        // A hand-placed `with pl.scope():` needs it; `.pfir`
                        // writes `auto { }` wherever it likes.
                        "auto_scope" if matches!(value.kind, ExprKind::Bool(false)) => {}
                        "level" => level_role.push(("Level", 0, value)),
                        "role" => level_role.push(("Role", 1, value)),
                        _ => self.diags.push(no_form(
                            format_args!("`{key}=` of `pl.function`"),
                            value.span,
                        )),
                    }
                }
            }
        }
        // PyPTO's printer writes the level and role derived from the type;
        // `.pfir` derives them the same way, so only those are read.
        let derived = names::derived_level_role(kind);
        for (what, i, value) in level_role {
            let expected = derived.map(|(level, role)| [level, role][i]);
            let found = match pl_path(value).as_deref() {
                Some([w, name]) if *w == what => Some(*name),
                _ => None,
            };
            if found.is_none() || found != expected {
                let d = no_form(
                    format_args!("this `{}=` of `pl.function`", what.to_lowercase()),
                    value.span,
                );
                self.diags.push(match expected {
                    Some(e) => d.with_note(format!(
                        "the {} `.pfir` derives for `{}` functions is `pl.{what}.{e}`",
                        what.to_lowercase(),
                        kind.keyword()
                    )),
                    None => d.with_note("an opaque function has no level or role in `.pfir`"),
                });
            }
        }
        let mut head = String::new();
        if kind != crate::vocab::FuncKind::Opaque {
            head.push_str(kind.keyword());
            head.push(' ');
        }
        let _ = write!(head, "func {name}(");
        let mut first = true;
        for (i, p) in params.iter().enumerate() {
            if i == 0 && p.name == "self" {
                continue;
            }
            if !first {
                head.push_str(", ");
            }
            first = false;
            let Some(ann) = &p.annotation else {
                self.diags
                    .push(no_form("a parameter without a type", p.span));
                continue;
            };
            let (dir, ty) = match &ann.kind {
                ExprKind::Subscript(base, inner) if is_pl(base, "Out") => ("out ", &**inner),
                ExprKind::Subscript(base, inner) if is_pl(base, "InOut") => ("inout ", &**inner),
                _ => ("", ann),
            };
            let ty = self.ty(ty);
            let name = self.name(&p.name, p.span);
            let _ = write!(head, "{dir}{name}: {ty}");
        }
        head.push(')');
        if let Some(r) = returns {
            let ty = self.ty(r);
            let _ = write!(head, " -> {ty}");
        }
        head.push_str(" {");
        self.line(0, &head, span);
        self.block(body, 1);
        self.line(0, "}", span);
    }

    fn name(&mut self, name: &str, span: Span) -> String {
        if crate::vocab::is_reserved(name) {
            self.diags.push(
                no_form(format_args!("the name `{name}`"), span)
                    .with_note("it is a reserved word of `.pfir`"),
            );
        }
        name.to_string()
    }

    /// A `.pfir` type from a DSL annotation.
    fn ty(&mut self, e: &Expr) -> String {
        match self.try_ty(e) {
            Some(t) => t,
            None => {
                self.diags.push(no_form("this type", e.span));
                String::new()
            }
        }
    }

    fn dtype(e: &Expr) -> Option<&'static str> {
        match pl_path(e).as_deref() {
            Some([n]) => names::dtype_from_name(n).map(|s| s.name()),
            _ => None,
        }
    }

    fn extent(e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Int(n) => Some(n.clone()),
            ExprKind::Name(n) => Some(n.clone()),
            _ => None,
        }
    }

    fn try_ty(&mut self, e: &Expr) -> Option<String> {
        if let Some(d) = Self::dtype(e) {
            return Some(d.to_string());
        }
        let ExprKind::Subscript(base, index) = &e.kind else {
            return None;
        };
        let items: Vec<&Expr> = match &index.kind {
            ExprKind::Tuple(items) => items.iter().collect(),
            _ => vec![&**index],
        };
        let is_tuple =
            matches!(&base.kind, ExprKind::Name(n) if n == "tuple") || is_pl(base, "Tuple");
        if is_tuple {
            let parts: Option<Vec<String>> = items.iter().map(|t| self.try_ty(t)).collect();
            let parts = parts?;
            return Some(if parts.len() == 1 {
                parts[0].clone()
            } else {
                format!("({})", parts.join(", "))
            });
        }
        match (pl_path(base).as_deref(), items.as_slice()) {
            (Some(["Scalar"]), [d]) => Self::dtype(d).map(str::to_string),
            (Some(["Array"]), [n, d]) => {
                Some(format!("array<{}, {}>", Self::dtype(d)?, Self::extent(n)?))
            }
            (Some(["Tensor"]), [dims, d]) => {
                let ExprKind::List(dims) = &dims.kind else {
                    return None;
                };
                let dims: Option<Vec<String>> = dims.iter().map(Self::extent).collect();
                Some(format!(
                    "tensor<[{}], {}>",
                    dims?.join(", "),
                    Self::dtype(d)?
                ))
            }
            _ => None,
        }
    }

    fn block(&mut self, body: &[Stmt], depth: usize) {
        let mut i = 0;
        while i < body.len() {
            i += self.stmt(&body[i..], depth);
        }
    }

    /// Writes the first statement of `stmts` (with the `x = tmp[i]`
    /// statements that unpack it) and returns how many it took.
    fn stmt(&mut self, stmts: &[Stmt], depth: usize) -> usize {
        let s = &stmts[0];
        let span = s.span;
        match &s.kind {
            StmtKind::Assign { target, value }
            | StmtKind::AnnAssign {
                target,
                value: Some(value),
                ..
            } => {
                let annotation = match &s.kind {
                    StmtKind::AnnAssign { annotation, .. } => Some(annotation),
                    _ => None,
                };
                if let Some(args) = yield_args(value) {
                    // A `yield` binding values outside the last statement of
                    // a body (the statement's bindings are written there).
                    let mut text = String::from("yield");
                    self.values(args, &mut text);
                    self.line(depth, &text, span);
                    let _ = target;
                    return 1;
                }
                let (mut names, taken) = match &target.kind {
                    ExprKind::Name(n) => {
                        let unpacked = unpacking(n, &stmts[1..]);
                        if unpacked.is_empty() {
                            (vec![self.binding(target, annotation)], 1)
                        } else {
                            let count = unpacked.len();
                            let names = unpacked
                                .into_iter()
                                .map(|(t, a)| self.binding(t, a))
                                .collect();
                            (names, 1 + count)
                        }
                    }
                    _ => (self.targets(target), 1),
                };
                if names.is_empty() {
                    names.push(String::new());
                }
                let mut text = names.join(", ");
                text.push_str(" = ");
                if is_pl(value, "submit") || is_pl(value, "spmd_submit") {
                    self.submit(value, &mut text);
                } else {
                    self.expr(value, &mut text);
                }
                self.line(depth, &text, span);
                taken
            }
            StmtKind::AnnAssign { value: None, .. } => {
                self.diags
                    .push(no_form("a declaration without a value", span));
                1
            }
            StmtKind::Expr(e) => {
                match &e.kind {
                    ExprKind::Str(_) => {}
                    ExprKind::Call { .. } if yield_args(e).is_some() => {
                        let mut text = String::from("yield");
                        self.values(yield_args(e).unwrap_or(&[]), &mut text);
                        self.line(depth, &text, span);
                    }
                    ExprKind::Call { .. } => {
                        let mut text = String::new();
                        self.expr(e, &mut text);
                        self.line(depth, &text, span);
                    }
                    _ => self
                        .diags
                        .push(no_form("an expression standing alone", span)),
                }
                1
            }
            StmtKind::If { cond, body, orelse } => {
                self.if_stmt(cond, body, orelse, depth, span, true);
                1
            }
            StmtKind::For { target, iter, body } => {
                self.for_stmt(target, iter, body, depth, span);
                1
            }
            StmtKind::While { cond, body } => {
                let mut text = String::from("while ");
                self.expr(cond, &mut text);
                text.push_str(" {");
                self.line(depth, &text, span);
                self.block(body, depth + 1);
                self.line(depth, "}", span);
                1
            }
            StmtKind::With { item, body } => {
                let head = match (pl_path(item_func(item)).as_deref(), item_kwargs(item)) {
                    (Some(["manual_scope"]), []) => Some("manual {"),
                    (Some(["auto_scope"]), []) => Some("auto {"),
                    (Some(["scope"]), []) => Some("auto {"),
                    (Some(["scope"]), [(k, v)]) if k == "mode" => match pl_path(v).as_deref() {
                        Some(["ScopeMode", "MANUAL"]) => Some("manual {"),
                        Some(["ScopeMode", "AUTO"]) => Some("auto {"),
                        _ => None,
                    },
                    _ => None,
                };
                match head {
                    Some(head) if item_args(item).is_empty() => {
                        self.line(depth, head, span);
                        self.block(body, depth + 1);
                        self.line(depth, "}", span);
                    }
                    _ => self.diags.push(no_form("this `with` scope", item.span)),
                }
                1
            }
            StmtKind::Return(value) => {
                let mut text = String::from("return");
                if let Some(v) = value {
                    let items: Vec<Expr> = match &v.kind {
                        ExprKind::Tuple(items) => items.clone(),
                        _ => vec![v.clone()],
                    };
                    self.values(&items, &mut text);
                }
                self.line(depth, &text, span);
                1
            }
            StmtKind::Pass => 1,
            StmtKind::Break => {
                self.line(depth, "break", span);
                1
            }
            StmtKind::Continue => {
                self.line(depth, "continue", span);
                1
            }
            StmtKind::Import => {
                self.diags
                    .push(no_form("an `import` inside a program", span));
                1
            }
            StmtKind::Class { .. } | StmtKind::Def { .. } => {
                self.diags.push(no_form("a nested definition", span));
                1
            }
            StmtKind::Other(keyword) => {
                self.diags.push(no_form(format_args!("`{keyword}`"), span));
                1
            }
        }
    }

    /// ` v1, v2` after `yield` / `return` (nothing when empty).
    fn values(&mut self, values: &[Expr], text: &mut String) {
        for (i, v) in values.iter().enumerate() {
            text.push_str(if i == 0 { " " } else { ", " });
            self.expr(v, text);
        }
    }

    /// `x` or `x: T`.
    fn binding(&mut self, target: &Expr, annotation: Option<&Expr>) -> String {
        let ExprKind::Name(n) = &target.kind else {
            self.diags
                .push(no_form("this assignment target", target.span));
            return String::new();
        };
        let mut text = self.name(n, target.span);
        if let Some(a) = annotation {
            let ty = self.ty(a);
            let _ = write!(text, ": {ty}");
        }
        text
    }

    /// The names of `a, b` / `(a, b), t` / `a`, flattened.
    fn targets(&mut self, target: &Expr) -> Vec<String> {
        match &target.kind {
            ExprKind::Tuple(items) => items.iter().flat_map(|t| self.targets(t)).collect(),
            ExprKind::Paren(inner) => self.targets(inner),
            _ => vec![self.binding(target, None)],
        }
    }

    /// The names a body's final `names = pl.yield_(...)` binds, with the
    /// body's statements before it.
    fn final_yield<'b>(&mut self, body: &'b [Stmt]) -> (Vec<String>, Option<&'b Stmt>) {
        let Some(last) = body.last() else {
            return (Vec::new(), None);
        };
        match &last.kind {
            StmtKind::Assign { target, value } if yield_args(value).is_some() => {
                (self.targets(target), Some(last))
            }
            StmtKind::AnnAssign {
                target,
                annotation,
                value: Some(value),
            } if yield_args(value).is_some() => {
                (vec![self.binding(target, Some(annotation))], Some(last))
            }
            _ => (Vec::new(), None),
        }
    }

    /// A body whose final `x = pl.yield_(v)` is written `yield v`.
    fn body_with_yield(&mut self, body: &[Stmt], last: Option<&Stmt>, depth: usize) {
        let n = if last.is_some() {
            body.len() - 1
        } else {
            body.len()
        };
        self.block(&body[..n], depth);
        if let Some(last) = last {
            let value = match &last.kind {
                StmtKind::Assign { value, .. }
                | StmtKind::AnnAssign {
                    value: Some(value), ..
                } => value,
                _ => return,
            };
            let mut text = String::from("yield");
            self.values(yield_args(value).unwrap_or(&[]), &mut text);
            self.line(depth, &text, last.span);
        }
    }

    fn if_stmt(
        &mut self,
        cond: &Expr,
        body: &[Stmt],
        orelse: &[Stmt],
        depth: usize,
        span: Span,
        head: bool,
    ) {
        let (names, last) = self.final_yield(body);
        let mut text = String::new();
        if head && !names.is_empty() {
            text.push_str(&names.join(", "));
            text.push_str(" = ");
        }
        text.push_str("if ");
        self.expr(cond, &mut text);
        text.push_str(" {");
        self.line(depth, &text, span);
        self.body_with_yield(body, last, depth + 1);
        if !orelse.is_empty() {
            self.line(depth, "} else {", span);
            let (else_names, else_last) = self.final_yield(orelse);
            if !else_names.is_empty() && else_names != names {
                self.diags.push(no_form(
                    "an `else` branch that yields to other names than its `then` branch",
                    span,
                ));
            }
            self.body_with_yield(orelse, else_last, depth + 1);
        }
        self.line(depth, "}", span);
    }

    fn for_stmt(&mut self, target: &Expr, iter: &Expr, body: &[Stmt], depth: usize, span: Span) {
        let ExprKind::Call { func, args, kwargs } = &iter.kind else {
            self.diags.push(no_form("a `for` over this", iter.span));
            return;
        };
        let Some(path) = pl_path(func) else {
            self.diags.push(no_form("a `for` over this", iter.span));
            return;
        };
        let mut init_values: &[Expr] = &[];
        for (k, v) in kwargs {
            match (k.as_str(), &v.kind) {
                ("init_values", ExprKind::Tuple(items)) => init_values = items,
                ("init_values", ExprKind::Paren(_)) => init_values = std::slice::from_ref(v),
                _ => self
                    .diags
                    .push(no_form(format_args!("`{k}=` of a loop"), v.span)),
            }
        }
        let (names, last) = self.final_yield(body);
        let mut text = String::new();
        if !names.is_empty() {
            text.push_str(&names.join(", "));
            text.push_str(" = ");
        }
        let (loop_var, iter_names): (Option<&Expr>, Vec<&Expr>) = match &target.kind {
            ExprKind::Tuple(items) if path.as_slice() == ["while_"] => {
                (None, items.iter().collect())
            }
            ExprKind::Paren(inner) if path.as_slice() == ["while_"] => (None, vec![&**inner]),
            ExprKind::Tuple(items) if items.len() == 2 => {
                let inner: Vec<&Expr> = match &items[1].kind {
                    ExprKind::Tuple(xs) => xs.iter().collect(),
                    ExprKind::Paren(x) => vec![&**x],
                    _ => vec![&items[1]],
                };
                (Some(&items[0]), inner)
            }
            _ => (Some(target), Vec::new()),
        };
        if iter_names.len() != init_values.len() {
            self.diags.push(no_form(
                "a loop whose iter-args and `init_values` differ in number",
                iter.span,
            ));
            return;
        }
        let mut body = body;
        let mut last = last;
        if path.as_slice() == ["while_"] {
            // `for (a,) in pl.while_(init_values=(x,)):` + `pl.cond(c)`.
            let cond = body.first().and_then(|s| match &s.kind {
                StmtKind::Expr(e) if is_pl(e, "cond") => match &e.kind {
                    ExprKind::Call { args, .. } if args.len() == 1 => Some(&args[0]),
                    _ => None,
                },
                _ => None,
            });
            let Some(cond) = cond else {
                self.diags.push(no_form(
                    "a `pl.while_` loop without `pl.cond(...)` first",
                    iter.span,
                ));
                return;
            };
            if !args.is_empty() {
                self.diags
                    .push(no_form("a positional argument of `pl.while_`", iter.span));
            }
            text.push_str("while ");
            self.expr(cond, &mut text);
            body = &body[1..];
            if body.is_empty() {
                last = None;
            }
        } else {
            let kind = match path.as_slice() {
                [k] => names::loop_kind_from_name(k),
                _ => None,
            };
            let Some(kind) = kind else {
                self.diags.push(no_form("this loop iterator", func.span));
                return;
            };
            let Some(var) = loop_var else { return };
            let var = self.targets(var).join(", ");
            let _ = write!(text, "for {var} in {}(", kind.keyword());
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                self.expr(a, &mut text);
            }
            text.push(')');
        }
        if !iter_names.is_empty() {
            text.push_str(" iter(");
            for (i, (n, v)) in iter_names.iter().zip(init_values).enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                let n = self.targets(n).join(", ");
                let _ = write!(text, "{n} = ");
                self.expr(v, &mut text);
            }
            text.push(')');
        }
        text.push_str(" {");
        self.line(depth, &text, span);
        self.body_with_yield(body, last, depth + 1);
        self.line(depth, "}", span);
    }

    /// `submit k(args, deps=[...], ...)` from `pl.submit(self.k, ...)`.
    fn submit(&mut self, value: &Expr, text: &mut String) {
        let ExprKind::Call { args, kwargs, .. } = &value.kind else {
            return;
        };
        let callee = args.first().and_then(|a| match &a.kind {
            ExprKind::Attribute(base, name) if matches!(&base.kind, ExprKind::Name(s) if s == "self") => {
                Some(name.clone())
            }
            _ => None,
        });
        let Some(callee) = callee else {
            self.diags.push(no_form(
                "a `pl.submit` whose first argument is not `self.<kernel>`",
                value.span,
            ));
            return;
        };
        let _ = write!(text, "submit {callee}(");
        let mut first = true;
        for a in &args[1..] {
            if !first {
                text.push_str(", ");
            }
            first = false;
            self.expr(a, text);
        }
        for (k, v) in kwargs {
            match k.as_str() {
                "deps" | "core_num" | "sync_start" | "allow_early_resolve" | "predicate" => {
                    if !first {
                        text.push_str(", ");
                    }
                    first = false;
                    let _ = write!(text, "{k}=");
                    if k == "predicate" && !matches!(v.kind, ExprKind::Paren(_)) {
                        text.push('(');
                        self.expr(v, text);
                        text.push(')');
                    } else {
                        self.expr(v, text);
                    }
                }
                "attrs" => self.attrs(v),
                _ => self
                    .diags
                    .push(no_form(format_args!("`{k}=` of `pl.submit`"), v.span)),
            }
        }
        text.push(')');
    }

    /// `attrs={"arg_directions": [...]}`: the directions `.pfir` derives
    /// from the callee's signature; any other attribute has no form.
    fn attrs(&mut self, v: &Expr) {
        let ExprKind::Dict(items) = &v.kind else {
            self.diags.push(no_form("these `attrs=`", v.span));
            return;
        };
        for (k, _) in items {
            if !matches!(&k.kind, ExprKind::Str(s) if s == "arg_directions") {
                self.diags.push(no_form("this attribute", k.span));
            }
        }
    }

    fn expr(&mut self, e: &Expr, out: &mut String) {
        match &e.kind {
            ExprKind::Name(n) => {
                let n = self.name(n, e.span);
                out.push_str(&n);
            }
            ExprKind::Int(n) => out.push_str(n),
            ExprKind::Float(x) => out.push_str(&crate::printer::float::format_float(*x)),
            ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            ExprKind::NoneLit => out.push_str("none"),
            ExprKind::Paren(inner) => {
                out.push('(');
                self.expr(inner, out);
                out.push(')');
            }
            ExprKind::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.expr(item, out);
                }
                out.push(']');
            }
            ExprKind::Binary(op, l, r) => {
                if !matches!(
                    *op,
                    "+" | "-"
                        | "*"
                        | "/"
                        | "%"
                        | "and"
                        | "or"
                        | "=="
                        | "!="
                        | "<"
                        | "<="
                        | ">"
                        | ">="
                ) {
                    self.diags
                        .push(no_form(format_args!("the operator `{op}`"), e.span));
                    return;
                }
                self.expr(l, out);
                let _ = write!(out, " {op} ");
                self.expr(r, out);
            }
            ExprKind::Unary(op, x) => {
                match *op {
                    "-" => out.push('-'),
                    "not" => out.push_str("not "),
                    _ => {
                        self.diags
                            .push(no_form(format_args!("the operator `{op}`"), e.span));
                        return;
                    }
                }
                self.expr(x, out);
            }
            ExprKind::Attribute(..) => match Self::dtype(e) {
                Some(d) => out.push_str(d),
                None => self.diags.push(no_form("this attribute", e.span)),
            },
            ExprKind::Call { func, args, kwargs } => self.call(e, func, args, kwargs, out),
            ExprKind::Chain => self.diags.push(no_form("a chained comparison", e.span)),
            ExprKind::Str(_) => self.diags.push(no_form("a string here", e.span)),
            ExprKind::Subscript(..) => self.diags.push(no_form("a subscript here", e.span)),
            ExprKind::Tuple(_) => self.diags.push(no_form("a tuple here", e.span)),
            ExprKind::Dict(_) => self.diags.push(no_form("a dict here", e.span)),
            ExprKind::Other(what) => self.diags.push(no_form(what, e.span)),
        }
    }

    fn call(
        &mut self,
        e: &Expr,
        func: &Expr,
        args: &[Expr],
        kwargs: &[(String, Expr)],
        out: &mut String,
    ) {
        let mut op = String::new();
        if let ExprKind::Attribute(base, name) = &func.kind
            && matches!(&base.kind, ExprKind::Name(s) if s == "self")
        {
            out.push_str(name);
        } else if let Some(path) = pl_path(func) {
            match path.as_slice() {
                ["const"] => {
                    // `pl.const(4, pl.INT64)`: the literal.
                    match args {
                        [v, d] if Self::dtype(d).is_some() && kwargs.is_empty() => {
                            self.expr(v, out)
                        }
                        _ => self.diags.push(no_form("this `pl.const`", e.span)),
                    }
                    return;
                }
                ["submit"] | ["spmd_submit"] | ["yield_"] | ["cond"] => {
                    self.diags.push(no_form(
                        format_args!("`pl.{}` here", path.join(".")),
                        e.span,
                    ));
                    return;
                }
                [_] => {
                    self.diags
                        .push(no_form(format_args!("`pl.{}`", path[0]), func.span));
                    return;
                }
                parts => {
                    let parts: Vec<&str> =
                        parts.iter().map(|p| names::op_part_from_dsl(p)).collect();
                    op = parts.join(".");
                    out.push_str(&op);
                }
            }
        } else {
            self.diags.push(no_form("a call of this", func.span));
            return;
        }
        out.push('(');
        let mut first = true;
        // A keyword PyPTO's printer writes for the next positional argument
        // (`dtype=` of `pl.array.create`) is that argument.
        let mut positional: Vec<&Expr> = args.iter().collect();
        let mut keywords = Vec::new();
        for (k, v) in kwargs {
            match names::positional_keyword(&op, k) {
                Some(i) if i == positional.len() => positional.push(v),
                _ => keywords.push((k, v)),
            }
        }
        for a in positional {
            if !first {
                out.push_str(", ");
            }
            first = false;
            self.expr(a, out);
        }
        for (k, v) in keywords {
            if k == "attrs" {
                self.attrs(v);
                continue;
            }
            if !first {
                out.push_str(", ");
            }
            first = false;
            let _ = write!(out, "{k}=");
            self.expr(v, out);
        }
        out.push(')');
    }
}

/// The values of `pl.yield_(...)`.
fn yield_args(e: &Expr) -> Option<&[Expr]> {
    match &e.kind {
        ExprKind::Call { func, args, kwargs } if is_pl(func, "yield_") && kwargs.is_empty() => {
            Some(args)
        }
        _ => None,
    }
}

fn item_func(item: &Expr) -> &Expr {
    match &item.kind {
        ExprKind::Call { func, .. } => func,
        _ => item,
    }
}

fn item_args(item: &Expr) -> &[Expr] {
    match &item.kind {
        ExprKind::Call { args, .. } => args,
        _ => &[],
    }
}

fn item_kwargs(item: &Expr) -> &[(String, Expr)] {
    match &item.kind {
        ExprKind::Call { kwargs, .. } => kwargs,
        _ => &[],
    }
}

/// The statements right after `tmp = ...` that unpack it, `x = tmp[0]`,
/// `y = tmp[1]`, ...: each target with its annotation.
fn unpacking<'a>(tmp: &str, rest: &'a [Stmt]) -> Vec<(&'a Expr, Option<&'a Expr>)> {
    let mut found = Vec::new();
    for s in rest {
        let (target, annotation, value) = match &s.kind {
            StmtKind::Assign { target, value } => (target, None, value),
            StmtKind::AnnAssign {
                target,
                annotation,
                value: Some(value),
            } => (target, Some(annotation), value),
            _ => break,
        };
        let ExprKind::Subscript(base, index) = &value.kind else {
            break;
        };
        let is_tmp = matches!(&base.kind, ExprKind::Name(n) if n == tmp);
        let at =
            matches!(&index.kind, ExprKind::Int(i) if i.parse::<usize>().ok() == Some(found.len()));
        if !is_tmp || !at || !matches!(target.kind, ExprKind::Name(_)) {
            break;
        }
        found.push((target, annotation));
    }
    found
}
