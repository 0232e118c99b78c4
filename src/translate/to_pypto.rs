//! `.pfir` to PyPTO's DSL (`pfir translate --to=pypto`): one `@pl.program`
//! class per `// -----` chunk, one `@pl.function` method per function, in
//! the spelling PyPTO's own tests use (`with pl.manual_scope():`,
//! `a, a_tid = pl.submit(self.kernel, deps=[tids])`, loop results named by
//! the body's final `r = pl.yield_(v)`). The lines come from the printer's
//! line iterator (`printer::lines::Lines`), so comments attach to
//! exactly the lines `pfir fmt` keeps them on; each becomes a `#` comment.
//! A construct PyPTO has no form for is an error at its `.pfir` position.

use super::names::{self, PL, SUBMIT_TMP};
use super::py_expr::ExprWriter;
use crate::diagnostics::{Code, Diagnostic};
use crate::ir::walk::{Event, Walk};
use crate::ir::{
    Anchor, Attached, Direction, Extent, FuncKind, Function, IterArg, LoopKind, Module, StmtId,
    StmtKind, Type, VarId,
};
use crate::printer::lines::Lines;
use crate::span::Span;
use hashbrown::HashMap;
use std::fmt::Write as _;

/// Four spaces per level, as PyPTO's printer indents.
const INDENT: &str = "    ";

/// Python's bound on statically nested blocks (`for`, `while`, `with`) in
/// one function (CPython's `CO_MAXBLOCKS`).
const MAX_PYTHON_BLOCKS: usize = 20;

/// How deep statements may nest in a method: Python's tokenizer takes
/// indentation up to level 99; a class body is level 1 and a method's
/// statements start at level 2.
const MAX_PYTHON_DEPTH: usize = 98;

/// An error for a construct at `span` that PyPTO's DSL cannot say.
pub(super) fn no_form(what: impl std::fmt::Display, span: Span) -> Diagnostic {
    Diagnostic::error(format!("{what} has no form in PyPTO's DSL"), span)
        .with_code(Code::NoTranslation)
        .with_label("not translatable")
}

/// Appends the class of one module (`class_name`) to `out`, and the
/// diagnostics of what cannot be translated to `diags`.
pub fn write_program(m: &Module, class_name: &str, out: &mut String, diags: &mut Vec<Diagnostic>) {
    out.push_str("@pl.program\n");
    let _ = writeln!(out, "class {class_name}:");
    if m.functions().is_empty() {
        let _ = writeln!(out, "{INDENT}pass");
    }
    for (i, f) in m.functions().iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut w = FunctionWriter::new(m, f, diags);
        w.function(out);
    }
    for c in &m.end_comments {
        let _ = writeln!(out, "{INDENT}{}", python_comment(&c.text));
    }
}

/// The `pl.dynamic("n")` declarations the signatures of `m` need: every
/// name used as a dynamic extent in a parameter or result type.
pub fn dynamic_names(m: &Module, names: &mut Vec<String>) {
    for f in m.functions() {
        for p in &f.params {
            collect_dynamic(f.var_ty(p.var), names);
        }
        f.results.iter().for_each(|t| collect_dynamic(t, names));
    }
}

/// Adds the names of the dynamic extents of `t` to `names`, once each.
fn collect_dynamic(t: &Type, names: &mut Vec<String>) {
    fn push_extent(e: &Extent, names: &mut Vec<String>) {
        if let Extent::Dynamic(Some(n)) = e
            && !names.contains(n)
        {
            names.push(n.clone());
        }
    }
    match t {
        Type::Array { extent, .. } => push_extent(extent, names),
        Type::Tensor { dims, .. } => dims.iter().for_each(|d| push_extent(d, names)),
        Type::Tuple(parts) => parts.iter().for_each(|p| collect_dynamic(p, names)),
        _ => {}
    }
}

/// `// text` as a Python comment: `# text`.
pub fn python_comment(text: &str) -> String {
    format!("#{}", text.strip_prefix("//").unwrap_or(text))
}

struct FunctionWriter<'a> {
    m: &'a Module,
    f: &'a Function,
    diags: &'a mut Vec<Diagnostic>,
    /// Each final `yield` of a block whose statement has results, with
    /// that statement (the yield names them: `r = pl.yield_(v)`).
    yield_owner: HashMap<StmtId, StmtId>,
    /// Whether the function holds an `auto { }` scope (PyPTO then needs
    /// `auto_scope=False`).
    has_auto: bool,
}

impl<'a> FunctionWriter<'a> {
    fn new(m: &'a Module, f: &'a Function, diags: &'a mut Vec<Diagnostic>) -> Self {
        let mut yield_owner = HashMap::new();
        let mut has_auto = false;
        // The statements open around the current one: how many are Python
        // blocks (`for`, `while`, `with`), how many `manual` scopes.
        let mut open: Vec<StmtId> = Vec::new();
        let (mut blocks, mut manuals) = (0usize, 0usize);
        let is_block = |k: &StmtKind| {
            matches!(
                k,
                StmtKind::For(_) | StmtKind::While(_) | StmtKind::Scope(_)
            )
        };
        let is_manual = |k: &StmtKind| matches!(k, StmtKind::Scope(sc) if f.scopes[*sc].manual);
        // The kind of each loop open around the current statement (`None`:
        // a `while`).
        let mut loops: Vec<Option<LoopKind>> = Vec::new();
        for event in Walk::new(f) {
            let (s, site) = match event {
                Event::Enter(s, site) => (s, site),
                Event::Leave(s) => {
                    open.pop();
                    if matches!(f.stmts[s].kind, StmtKind::For(_) | StmtKind::While(_)) {
                        loops.pop();
                    }
                    blocks -= usize::from(is_block(&f.stmts[s].kind));
                    manuals -= usize::from(is_manual(&f.stmts[s].kind));
                    continue;
                }
                _ => continue,
            };
            let kind = f.stmts[s].kind;
            open.push(s);
            blocks += usize::from(is_block(&kind));
            manuals += usize::from(is_manual(&kind));
            let span = f.stmts[s].span;
            if is_block(&kind) && blocks == MAX_PYTHON_BLOCKS + 1 {
                diags.push(
                    no_form(format_args!("a loop or scope nested {blocks} deep"), span).with_note(
                        format!(
                            "Python takes at most {MAX_PYTHON_BLOCKS} nested blocks (`for`, `while`, `with`) in a function"
                        ),
                    ),
                );
            }
            if open.len() == MAX_PYTHON_DEPTH + 1 {
                diags.push(
                    no_form(format_args!("a statement nested {} deep", open.len()), span)
                        .with_note(format!(
                            "Python takes at most {MAX_PYTHON_DEPTH} levels of indentation in a method"
                        )),
                );
            }
            match kind {
                StmtKind::For(l) => loops.push(Some(f.fors[l].kind)),
                StmtKind::While(_) => loops.push(None),
                StmtKind::Break | StmtKind::Continue => {
                    if let Some(Some(k @ (LoopKind::Parallel | LoopKind::Unroll))) = loops.last() {
                        let word = if matches!(kind, StmtKind::Break) {
                            "break"
                        } else {
                            "continue"
                        };
                        diags.push(
                            no_form(format_args!("`{word}` in `{}` loops", k.keyword()), span)
                                .with_note("PyPTO's `break` and `continue` stand only in `range` and `while` loops"),
                        );
                    }
                }
                StmtKind::Yield(_) => {
                    if let Some(owner) = site.owner
                        && !f.results(&f.stmts[owner].kind).is_empty()
                    {
                        yield_owner.insert(s, owner);
                    }
                }
                StmtKind::Scope(sc) if !f.scopes[sc].manual => {
                    has_auto = true;
                    if manuals > 0 {
                        diags.push(
                            no_form("an `auto` scope inside a `manual` scope", span).with_note(
                                "PyPTO's parser refuses an AUTO scope nested inside a manual scope",
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
        FunctionWriter {
            m,
            f,
            diags,
            yield_owner,
            has_auto,
        }
    }

    fn expr(&mut self) -> ExprWriter<'_> {
        ExprWriter::new(self.m, self.f, self.diags)
    }

    fn function(&mut self, out: &mut String) {
        for line in Lines::of(self.f) {
            let attached = self
                .f
                .comments
                .get(line.anchor)
                .cloned()
                .unwrap_or_default();
            // A function's body sits one level in from the class.
            let depth = line.depth + 1;
            let indent_of_comments = match line.anchor {
                Anchor::Close(_) => depth + 1,
                _ => depth,
            };
            leading(&attached, indent_of_comments, out);
            match line.anchor {
                Anchor::Head => self.head(depth, &attached, out),
                Anchor::Stmt(s) => self.stmt(s, depth, &attached, out),
                Anchor::Else(s) => self.else_line(s, depth, &attached, out),
                Anchor::Close(_) => {
                    if let Some(c) = &attached.trailing {
                        // A comment after `}`: its own line at the block's level.
                        let _ =
                            writeln!(out, "{}{}", INDENT.repeat(depth), python_comment(&c.text));
                    }
                }
            }
        }
    }

    fn head(&mut self, depth: usize, attached: &Attached, out: &mut String) {
        let f = self.f;
        let mut text = String::new();
        let text = &mut text;
        let indent = INDENT.repeat(depth);
        let mut options = Vec::new();
        if f.kind != FuncKind::Opaque {
            options.push(format!(
                "type={PL}.FunctionType.{}",
                names::kind_name(f.kind)
            ));
        }
        if self.has_auto {
            options.push("auto_scope=False".to_string());
        }
        if options.is_empty() {
            let _ = writeln!(out, "{indent}@{PL}.function");
        } else {
            let _ = writeln!(out, "{indent}@{PL}.function({})", options.join(", "));
        }
        self.check_name(&f.name, f.name_span);
        text.push_str("def ");
        text.push_str(&f.name);
        text.push_str("(self");
        // The dynamic extents the types of the parameters so far name.
        let mut dynamic = Vec::new();
        for p in &f.params {
            let name = f.var_name(p.var).to_string();
            let span = f.vars[p.var].span;
            self.check_name(&name, span);
            let param_ty = f.var_ty(p.var);
            if dynamic.contains(&name) {
                self.diags.push(
                    no_form(
                        format_args!("a parameter `{name}` after a parameter whose type has the extent `{name}`"),
                        span,
                    )
                    .with_note("PyPTO's parser refuses a parameter that shadows a dynamic extent an earlier parameter uses; put it first"),
                );
            }
            collect_dynamic(param_ty, &mut dynamic);
            match (p.direction, param_ty) {
                (Direction::InOut, Type::Scalar(_)) => self.diags.push(
                    no_form("an `inout` parameter of scalar type", span)
                        .with_note("PyPTO's scalar parameters are `in` or `out`"),
                ),
                (_, Type::Tuple(_)) => self.diags.push(
                    no_form("a parameter of tuple type", span)
                        .with_note("PyPTO has tuple types only for results"),
                ),
                _ => {}
            }
            let ty = self.ty(param_ty, span);
            let ty = match p.direction {
                Direction::In => ty,
                Direction::Out => format!("{PL}.Out[{ty}]"),
                Direction::InOut => format!("{PL}.InOut[{ty}]"),
            };
            let _ = write!(text, ", {name}: {ty}");
        }
        text.push(')');
        match f.results.as_slice() {
            [] => {}
            [one] => {
                let ty = self.ty(one, f.name_span);
                let _ = write!(text, " -> {ty}");
            }
            several => {
                let tys: Vec<String> = several.iter().map(|t| self.ty(t, f.name_span)).collect();
                let _ = write!(text, " -> tuple[{}]", tys.join(", "));
            }
        }
        text.push(':');
        line_out(&indent, text, attached, out);
        if self.f.block_stmts(&self.f.body).is_empty() {
            let _ = writeln!(out, "{indent}{INDENT}pass");
        }
    }

    fn else_line(&mut self, s: StmtId, depth: usize, attached: &Attached, out: &mut String) {
        let indent = INDENT.repeat(depth);
        let f = self.f;
        let mut text = String::new();
        match crate::ir::if_chain::else_if_arm(f, Some(s), 1).map(|n| f.stmts[n].kind) {
            Some(StmtKind::If(i)) => {
                text.push_str("elif ");
                let cond = f.ifs[i].cond;
                self.expr().write(cond, &mut text);
                text.push(':');
                line_out(&indent, &text, attached, out);
                if f.block_stmts(&f.ifs[i].then_body).is_empty() {
                    let _ = writeln!(out, "{indent}{INDENT}pass");
                }
            }
            _ => {
                line_out(&indent, "else:", attached, out);
                let empty = crate::ir::if_chain::else_body(f, s)
                    .is_some_and(|b| f.block_stmts(b).is_empty());
                if empty {
                    let _ = writeln!(out, "{indent}{INDENT}pass");
                }
            }
        }
    }

    /// The DSL type of `t` (a diagnostic at `span` when it has none).
    fn ty(&mut self, t: &Type, span: Span) -> String {
        match py_type(t) {
            Ok(s) => s,
            Err(what) => {
                self.diags.push(no_form(what, span));
                String::new()
            }
        }
    }

    fn check_name(&mut self, name: &str, span: Span) {
        if names::is_reserved_in_dsl(name) {
            self.diags
                .push(no_form(format_args!("the name `{name}`"), span).with_note(
                    "it is a Python keyword, or a name the DSL needs (`self`, `pl`, `_submit_tmp`)",
                ));
        }
    }

    /// `a, b = ` / `x: T = ` for variables `vars` bound by statement `s`.
    fn targets(&mut self, s: StmtId, vars: &[VarId], out: &mut String) {
        let kind = self.f.stmts[s].kind;
        let mut annotated = Vec::new();
        let mut buffer = String::new();
        crate::printer::binding::each_binding_text((self.m, self.f, &kind), &mut buffer, |b| {
            annotated.push(b.contains(':'));
        });
        for (i, v) in vars.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let name = self.f.var_name(*v).to_string();
            self.check_name(&name, self.f.vars[*v].span);
            out.push_str(&name);
        }
        if annotated.iter().any(|a| *a) {
            let span = self.f.stmts[s].span;
            if vars.len() == 1 {
                let ty = self.ty(self.f.var_ty(vars[0]), span);
                let _ = write!(out, ": {ty}");
            } else {
                self.diags.push(no_form(
                    "a type annotation on one of several bindings",
                    span,
                ));
            }
        }
    }

    fn stmt(&mut self, s: StmtId, depth: usize, attached: &Attached, out: &mut String) {
        let f = self.f;
        let indent = INDENT.repeat(depth);
        let span = f.stmts[s].span;
        let mut text = String::new();
        let kind = f.stmts[s].kind;
        let mut first_in_body: Option<String> = None;
        // A line after this one, at its depth.
        let mut next_line: Option<String> = None;
        match kind {
            StmtKind::Assign { results, value } => {
                self.targets(s, f.list(results), &mut text);
                text.push_str(" = ");
                self.expr().write(value, &mut text);
            }
            StmtKind::Submit(id) => {
                let sub = &f.submits[id];
                let results = f.list(sub.results);
                let kernel_results = results.len().saturating_sub(1);
                let (outs, tid) = results.split_at(kernel_results);
                match outs {
                    // PyPTO unpacks a submit into a result and a task id
                    // only; without results the tuple is bound and read.
                    [] => {
                        let mut tid_text = String::new();
                        self.targets(s, tid, &mut tid_text);
                        next_line = Some(format!("{tid_text} = {SUBMIT_TMP}[0]"));
                    }
                    [one] => {
                        self.targets(s, &[*one], &mut text);
                        text.push_str(", ");
                    }
                    several => {
                        text.push('(');
                        self.targets(s, several, &mut text);
                        text.push_str("), ");
                    }
                }
                if outs.is_empty() {
                    text.push_str(SUBMIT_TMP);
                } else {
                    self.targets(s, tid, &mut text);
                }
                text.push_str(" = ");
                if sub.sync_start.is_some() && sub.core_num.is_none() {
                    self.diags
                        .push(no_form("`sync_start=` without `core_num=`", span));
                }
                text.push_str(if sub.core_num.is_some() {
                    "pl.spmd_submit(self."
                } else {
                    "pl.submit(self."
                });
                text.push_str(f.callee_name(self.m, sub.callee));
                if let Some(p) = sub.predicate {
                    self.diags.push(
                        no_form("`predicate=`", f.exprs[p].span).with_note(
                            "PyPTO's predicate compares one tensor element (`t[i]`) with an integer literal, which `.pfir` cannot say",
                        ),
                    );
                }
                let mut e = self.expr();
                for arg in f.list(sub.args) {
                    text.push_str(", ");
                    e.write(*arg, &mut text);
                }
                if !sub.deps.is_empty() {
                    text.push_str(", deps=");
                    e.list(f.list(sub.deps), &mut text);
                }
                for (name, value) in sub.value_kwargs() {
                    if let Some(value) = value {
                        let _ = write!(text, ", {name}=");
                        e.write(value, &mut text);
                    }
                }
                if let Some(p) = sub.predicate {
                    text.push_str(", predicate=(");
                    e.write(p, &mut text);
                    text.push(')');
                }
                text.push(')');
            }
            StmtKind::Eval(e) => self.expr().write(e, &mut text),
            StmtKind::For(l) => {
                let l = &f.fors[l];
                text.push_str("for ");
                let var = f.var_name(l.var).to_string();
                self.check_name(&var, f.vars[l.var].span);
                text.push_str(&var);
                let iter_args = f.list(l.iter_args);
                if !iter_args.is_empty() {
                    text.push_str(", ");
                    self.iter_arg_names(iter_args, &mut text);
                    if l.kind == LoopKind::Unroll {
                        self.diags
                            .push(no_form("an `unroll` loop with iter-args", span));
                    }
                }
                let _ = write!(text, " in {PL}.{}(", l.kind.keyword());
                let bounds = f.written_bounds(l);
                if l.kind == LoopKind::Unroll && !bounds.iter().all(|b| is_int_literal(f, *b)) {
                    self.diags.push(
                        no_form(
                            "an `unroll` loop whose bounds are not integer literals",
                            span,
                        )
                        .with_note(
                            "PyPTO's `pl.unroll` needs compile-time constant integer bounds",
                        ),
                    );
                }
                let mut e = self.expr();
                for (i, b) in bounds.iter().enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    e.write(*b, &mut text);
                }
                if !iter_args.is_empty() {
                    text.push_str(", ");
                    self.init_values(iter_args, &mut text);
                }
                text.push_str("):");
            }
            StmtKind::While(w) => {
                let w = &f.whiles[w];
                let iter_args = f.list(w.iter_args);
                if iter_args.is_empty() {
                    text.push_str("while ");
                    self.expr().write(w.cond, &mut text);
                    text.push(':');
                } else {
                    text.push_str("for ");
                    self.iter_arg_names(iter_args, &mut text);
                    let _ = write!(text, " in {PL}.while_(");
                    self.init_values(iter_args, &mut text);
                    text.push_str("):");
                    let mut cond = format!("{PL}.cond(");
                    self.expr().write(w.cond, &mut cond);
                    cond.push(')');
                    first_in_body = Some(cond);
                }
            }
            StmtKind::If(i) => {
                text.push_str("if ");
                self.expr().write(f.ifs[i].cond, &mut text);
                text.push(':');
            }
            StmtKind::Scope(sc) => {
                let sc = &f.scopes[sc];
                if sc.name.is_some() {
                    self.diags.push(no_form("a scope's name", span));
                }
                text.push_str(if sc.manual {
                    "with pl.manual_scope():"
                } else {
                    "with pl.scope():"
                });
            }
            StmtKind::Yield(values) => {
                let values = f.list(values);
                if let Some(owner) = self.yield_owner.get(&s).copied() {
                    let results = f.results(&f.stmts[owner].kind);
                    self.targets(owner, results, &mut text);
                    text.push_str(" = ");
                }
                text.push_str("pl.yield_(");
                // PyPTO types a bare integer literal `INDEX` and checks
                // that both branches of an `if` yield one dtype: a literal
                // an `if` yields is written with `.pfir`'s type, `i64`.
                let of_if = self
                    .yield_owner
                    .get(&s)
                    .is_some_and(|o| matches!(f.stmts[*o].kind, StmtKind::If(_)));
                let mut e = self.expr();
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    if of_if && is_int_literal(f, *v) {
                        text.push_str("pl.const(");
                        e.write(*v, &mut text);
                        let i64 = names::dtype_name(crate::ir::ScalarType::I64);
                        let _ = write!(text, ", {PL}.{})", i64.unwrap_or_default());
                    } else {
                        e.write(*v, &mut text);
                    }
                }
                text.push(')');
            }
            StmtKind::Return(values) => {
                text.push_str("return");
                let values = f.list(values);
                if !values.is_empty() {
                    text.push(' ');
                    self.expr().comma_separated(values, &mut text);
                }
            }
            StmtKind::Break => text.push_str("break"),
            StmtKind::Continue => text.push_str("continue"),
        }
        line_out(&indent, &text, attached, out);
        if let Some(next) = next_line {
            let _ = writeln!(out, "{indent}{next}");
        }
        if let Some(first) = first_in_body {
            let _ = writeln!(out, "{indent}{INDENT}{first}");
        } else if f
            .nested_block(&kind, 0)
            .is_some_and(|b| f.block_stmts(b).is_empty())
        {
            let _ = writeln!(out, "{indent}{INDENT}pass");
        }
    }

    /// `(a, b)` / `(a,)`: the iter-args' names (their annotations have no
    /// place in the DSL).
    fn iter_arg_names(&mut self, iter_args: &[IterArg], out: &mut String) {
        out.push('(');
        for (i, ia) in iter_args.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let name = self.f.var_name(ia.var).to_string();
            self.check_name(&name, self.f.vars[ia.var].span);
            out.push_str(&name);
            if self.f.var_ty(ia.var) != self.f.ty(ia.init) {
                self.diags.push(no_form(
                    "an iter-arg's type annotation",
                    self.f.vars[ia.var].span,
                ));
            }
        }
        if iter_args.len() == 1 {
            out.push(',');
        }
        out.push(')');
    }

    /// `init_values=(x, y)` / `init_values=(x,)`.
    fn init_values(&mut self, iter_args: &[IterArg], out: &mut String) {
        out.push_str("init_values=(");
        let mut e = self.expr();
        for (i, ia) in iter_args.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            e.write(ia.init, out);
        }
        if iter_args.len() == 1 {
            out.push(',');
        }
        out.push(')');
    }
}

/// The comments above a line, at `depth`.
fn leading(attached: &Attached, depth: usize, out: &mut String) {
    if attached.blank_before && !out.ends_with("\n\n") && !out.ends_with(":\n") {
        out.push('\n');
    }
    let indent = INDENT.repeat(depth);
    let inner = attached.inner.iter().map(|i| &i.comment);
    for c in attached.leading.iter().chain(inner) {
        let _ = writeln!(out, "{indent}{}", python_comment(&c.text));
    }
}

/// One line of code, with its trailing comment.
fn line_out(indent: &str, text: &str, attached: &Attached, out: &mut String) {
    out.push_str(indent);
    out.push_str(text);
    if let Some(c) = &attached.trailing {
        out.push_str("  ");
        out.push_str(&python_comment(&c.text));
    }
    out.push('\n');
}

/// PyPTO's spelling of a type, or what has none.
pub fn py_type(t: &Type) -> Result<String, String> {
    let dtype = |s: crate::ir::ScalarType| {
        names::dtype_name(s)
            .map(|n| format!("{PL}.{n}"))
            .ok_or_else(|| format!("the type `{}`", s.name()))
    };
    let extent = |e: &Extent| match e {
        Extent::Const(n) => Ok(n.to_string()),
        Extent::Dynamic(Some(n)) => Ok(n.clone()),
        Extent::Dynamic(None) => Err("an extent that is not a name".to_string()),
    };
    Ok(match t {
        Type::Scalar(s) => format!("{PL}.Scalar[{}]", dtype(*s)?),
        Type::Array { elem, extent: e } => format!("{PL}.Array[{}, {}]", extent(e)?, dtype(*elem)?),
        Type::Tensor { dims, elem } => {
            let dims: Result<Vec<String>, String> = dims.iter().map(extent).collect();
            format!("{PL}.Tensor[[{}], {}]", dims?.join(", "), dtype(*elem)?)
        }
        Type::Tuple(parts) => {
            let parts: Result<Vec<String>, String> = parts.iter().map(py_type).collect();
            format!("{PL}.Tuple[{}]", parts?.join(", "))
        }
        Type::Dtype | Type::Unknown => return Err(format!("the type `{t}`")),
    })
}

/// Whether `e` is an integer literal, or one negated (`-1`).
pub(super) fn is_int_literal(f: &Function, e: crate::ir::ExprId) -> bool {
    match f.exprs[e].kind {
        crate::ir::ExprKind::Int(_) => true,
        crate::ir::ExprKind::Unary(crate::ir::UnaryOp::Neg, x) => {
            matches!(f.exprs[x].kind, crate::ir::ExprKind::Int(_))
        }
        _ => false,
    }
}
