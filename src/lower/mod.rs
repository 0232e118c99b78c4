//! Lowering: the surface AST to the typed IR (spec sections 3-8).
//!
//! Lowering resolves names (section 7), infers and checks types by category
//! (section 6), resolves call-argument directions from callee signatures,
//! drops `none` from `deps`, and turns `system.task_dummy(deps=...)` into a
//! call carrying `dummy_task` and `manual_dep_edges`. Every rejection of
//! section 8 that is not a syntax error is reported here.
//!
//! Invariant: lowering never panics and never stops at the first error; it
//! returns a module plus every diagnostic it found. The module is only
//! meaningful when no diagnostic is an error.

mod expr;
mod scope;
mod stmt;
pub use crate::diagnostics::suggest;
pub mod types;

use crate::diagnostics::Code;
use crate::diagnostics::Diagnostic;
use crate::ir::builder::Builder;
use crate::ir::{self, ArenaId, Block, FuncId, Function, Module, Type, VarId};
use crate::parser::ast;
use crate::span::Span;
use hashbrown::HashMap;
use scope::Scopes;
use std::cell::OnceCell;
use types::Signature;

/// Lowers a parsed module. The AST stays in its arena until the caller
/// drops the arena (in one go, after lowering).
pub fn lower(module: ast::Module<'_>) -> (Module, Vec<Diagnostic>) {
    let src = module.source;
    // Built by the first diagnostic that names a line (an error path), so
    // a valid program never indexes its lines.
    let line_starts = OnceCell::new();
    let text = |id: ast::Ident| src.text(id);
    let mut diags = Vec::new();
    let mut signatures: HashMap<&str, Signature> = HashMap::new();
    let mut first_def: HashMap<&str, crate::span::Span> = HashMap::new();
    // The names of the functions the module will hold, by `FuncId`.
    let mut names: Vec<&str> = Vec::new();

    // The signatures of functions defined again under a taken name, by
    // position: they are lowered too, so that the module holds what was
    // written, but only their name is reported.
    let mut duplicates: HashMap<usize, Signature> = HashMap::new();

    // Signatures first: functions may be called before they are defined.
    for (i, f) in module.functions.iter().enumerate() {
        let name = text(f.name);
        let duplicate = first_def.get(name).copied();
        if let Some(prev) = duplicate {
            diags.push(
                Diagnostic::error(format!("duplicate function `{name}`"), f.name.span())
                    .with_code(Code::DuplicateFunction)
                    .with_label("defined again here")
                    .with_secondary(prev, "first defined here")
                    .with_help("function names must be unique within a module"),
            );
        } else {
            first_def.insert(name, f.name.span());
        }
        let id = FuncId::from_index(i);
        names.push(name);
        // Types of a signature name no function: no signatures are needed.
        let no_signatures = HashMap::new();
        let mut lowerer = Lowerer::new(&no_signatures, &[], src, Function::new(name, f.kind));
        // A dynamic extent in a signature must name an integer parameter
        // (spec section 4: "an integer value in scope"), not just any one.
        let int_params: Vec<&str> = f
            .params
            .iter()
            .filter(|p| matches!(&p.ty.kind, ast::TypeExprKind::Scalar(s) if s.is_integer()))
            .map(|p| text(p.name))
            .collect();
        let mut is_param = |n: &str| int_params.contains(&n);
        let params = f
            .params
            .iter()
            .map(|p| {
                (
                    text(p.name).to_string(),
                    p.direction,
                    lowerer.lower_type(&p.ty, &mut is_param),
                )
            })
            .collect();
        let results = f
            .results
            .as_ref()
            .map(|t| types::result_list(lowerer.lower_type(t, &mut is_param)))
            .unwrap_or_default();
        let span = f.span.start_point().to(f.body.span.start_point());
        let signature = Signature {
            id,
            params,
            param_spans: f.params.iter().map(|p| p.span).collect(),
            results,
            span,
        };
        if duplicate.is_some() {
            duplicates.insert(i, signature);
        } else {
            diags.extend(lowerer.diags);
            signatures.insert(name, signature);
        }
    }

    let mut out = Module::default();
    for (i, f) in module.functions.iter().enumerate() {
        let name = text(f.name);
        let duplicate = duplicates.get(&i);
        let Some(sig) = duplicate.or_else(|| signatures.get(name)) else {
            continue;
        };
        let mut func = Function::new(name, f.kind);
        // Sized from the parser's counts, so that the tables do not grow by
        // doubling (no copies, no unused half).
        let counts = f.counts;
        func.reserve_for_counts(ir::ReserveCounts {
            stmts: counts.stmts as usize,
            submits: counts.submits as usize,
            exprs: counts.exprs as usize,
            vars: counts.vars as usize,
            name_bytes: counts.name_bytes as usize,
        });
        let mut lowerer = Lowerer::new(&signatures, &names, src, func);
        lowerer.line_starts = Some(&line_starts);
        lowerer.lower_function(f, sig);
        if duplicate.is_none() {
            diags.extend(lowerer.diags);
        }
        out.push(lowerer.func);
    }
    (out, diags)
}

/// What the block being lowered must end with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum BodyKind {
    /// A function body.
    Function,
    /// A loop, `while` or `if` body that yields `n` values (0: may end with
    /// a bare `yield` or nothing).
    Yields(usize),
    /// A scope body: `yield` is not allowed directly in it.
    Scope,
}

/// Lowers one function.
pub(crate) struct Lowerer<'a> {
    /// Every function's signature by name, borrowed (never cloned per call).
    signatures: &'a HashMap<&'a str, Signature>,
    /// Every function's name by [`FuncId`].
    function_names: &'a [&'a str],
    /// The source the AST's identifiers point into.
    src: ast::Source<'a>,
    pub(crate) func: Function,
    pub(crate) diags: Vec<Diagnostic>,
    scopes: Scopes<'a>,
    /// How many loops enclose the code being lowered (for `break`/`continue`).
    loop_depth: usize,
    /// "Did you mean" searches made so far (see [`MAX_SUGGESTION_SEARCHES`]).
    suggestion_searches: usize,
    /// Where the source's lines start (file offsets), indexed on first use.
    line_starts: Option<&'a OnceCell<Vec<usize>>>,
    /// The statements of the blocks being lowered (see `lower_block`).
    block_scratch: Vec<ir::StmtId>,
}

/// A "did you mean" search scans every visible name (or function); past this
/// many searches in one function no more are made, so a file full of unknown
/// names stays linear instead of (unknown names x names in scope).
pub const MAX_SUGGESTION_SEARCHES: usize = 100;

impl<'a> Lowerer<'a> {
    fn new(
        signatures: &'a HashMap<&'a str, Signature>,
        function_names: &'a [&'a str],
        src: ast::Source<'a>,
        func: Function,
    ) -> Lowerer<'a> {
        Lowerer {
            signatures,
            function_names,
            src,
            func,
            diags: Vec::new(),
            scopes: Scopes::new(),
            loop_depth: 0,
            suggestion_searches: 0,
            line_starts: None,
            block_scratch: Vec::new(),
        }
    }

    /// The text of an identifier of the AST.
    pub(crate) fn text(&self, id: ast::Ident) -> &'a str {
        self.src.text(id)
    }

    /// Whether another "did you mean" search may run in this function.
    pub(crate) fn may_search_suggestions(&mut self) -> bool {
        self.suggestion_searches += 1;
        self.suggestion_searches <= MAX_SUGGESTION_SEARCHES
    }

    /// The 1-based line of a file offset (counted from the start of the
    /// parsed text), when the source lines are known.
    pub(crate) fn line_number(&self, offset: usize) -> Option<usize> {
        let src = self.src;
        let starts = self.line_starts?.get_or_init(|| {
            std::iter::once(src.base)
                .chain(crate::span::line_starts(src.text).map(|s| src.base + s))
                .collect()
        });
        Some(starts.partition_point(|&s| s <= offset))
    }

    /// Builds nodes of the function being lowered, made for the code at `span`.
    pub(crate) fn build(&mut self, span: Span) -> Builder<&mut Function> {
        Builder::edit_at(&mut self.func, span)
    }

    pub(crate) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn lower_function(&mut self, f: &ast::Function<'a>, sig: &Signature) {
        self.func.name_span = f.name.span();
        self.func.span = f.span;
        for (p, (_, direction, ty)) in f.params.iter().zip(&sig.params) {
            let name = self.text(p.name);
            let var = self.build(p.span).var(name, ty.clone());
            self.func.params.push(ir::Param {
                var,
                direction: *direction,
            });
            self.scopes.define(name, var);
        }
        // Extents in the signature name integer parameters.
        for t in f.params.iter().map(|p| &p.ty).chain(f.results.iter()) {
            self.record_extent_uses(t);
        }
        self.func.results = sig.results.clone();
        self.func.body = self.lower_block(&f.body, BodyKind::Function);
    }

    /// Defines a variable named by a binding; `_` is the discard binding and
    /// is never entered in scope.
    fn define_var(&mut self, name: &'a str, ty: Type, span: crate::span::Span) -> VarId {
        let var = self.build(span).var(name, ty);
        if name != "_" {
            self.scopes.define(name, var);
        }
        var
    }

    /// Records, for editors, the variable each dynamic extent name of `t`
    /// refers to (an integer value in scope), with the name's span.
    fn record_extent_uses(&mut self, t: &ast::TypeExpr<'_>) {
        for id in extent_idents(t) {
            let name = self.text(id);
            if self.is_integer_in_scope(name)
                && let Some(v) = self.scopes.lookup(name)
            {
                self.func.extent_uses.push((id.span(), v));
            }
        }
    }

    /// Whether `name` is an integer value in scope (for dynamic extents).
    fn is_integer_in_scope(&self, name: &str) -> bool {
        self.scopes.lookup(name).is_some_and(|v| {
            let ty = self.func.var_ty(v);
            ty.is_integer() || ty.is_unknown()
        })
    }

    fn lower_type_in_scope(&mut self, t: &ast::TypeExpr<'_>) -> Type {
        self.record_extent_uses(t);
        let known: Vec<(&str, bool)> = extent_idents(t)
            .into_iter()
            .map(|id| {
                let n = self.text(id);
                let ok = self.is_integer_in_scope(n);
                (n, ok)
            })
            .collect();
        let mut check = |n: &str| known.iter().any(|(k, ok)| *k == n && *ok);
        self.lower_type(t, &mut check)
    }

    fn lower_block(&mut self, b: &ast::Block<'a>, kind: BodyKind) -> Block {
        crate::stack::ensure(|| self.lower_block_here(b, kind))
    }

    /// [`Self::lower_block`], on the stack [`crate::stack::ensure`] left.
    fn lower_block_here(&mut self, b: &ast::Block<'a>, kind: BodyKind) -> Block {
        // The block's statements go on the shared scratch stack (nested
        // blocks push above them and take theirs off first), then into the
        // function's list pool in one piece.
        let base = self.block_scratch.len();
        let last = b.stmts.len().wrapping_sub(1);
        for (i, s) in b.stmts.iter().enumerate() {
            fsutil::cancel::checkpoint();
            if let Some(id) = self.lower_stmt(s, kind, i == last) {
                self.block_scratch.push(id);
            }
        }
        let stmts = self.func.new_list(&self.block_scratch[base..]);
        self.block_scratch.truncate(base);
        if let BodyKind::Yields(n) = kind {
            let ends_in_yield = matches!(
                b.stmts.last().map(|s| &s.kind),
                Some(ast::StmtKind::Yield(_))
            );
            let ended_in_error = matches!(
                b.stmts.last().map(|s| &s.kind),
                Some(ast::StmtKind::Error(_))
            );
            if n > 0 && !ends_in_yield && !ended_in_error {
                let close = crate::span::Span::new(b.span.end().saturating_sub(1), b.span.end());
                self.error(
                    Diagnostic::error(
                        format!("this body must end with `yield` of {n} value{}", plural(n)),
                        close,
                    )
                    .with_code(Code::MisplacedControl)
                    .with_label(format!(
                        "expected `yield` with {n} value{} before this `}}`",
                        plural(n)
                    ))
                    .with_secondary(
                        b.span
                            .start_point()
                            .to(crate::span::Span::new(b.span.start(), b.span.start() + 1)),
                        "body starts here",
                    ),
                );
            }
        }
        Block {
            stmts,
            span: b.span,
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The names written as dynamic extents in `t`.
fn extent_idents(t: &ast::TypeExpr<'_>) -> Vec<ast::Ident> {
    let mut stack = vec![t];
    let mut out = Vec::new();
    while let Some(t) = stack.pop() {
        let extents: &[ast::ExtentExpr<'_>] = match &t.kind {
            ast::TypeExprKind::Scalar(_) => &[],
            ast::TypeExprKind::Array(_, e) => std::slice::from_ref(e),
            ast::TypeExprKind::Tensor(ds, _) => ds,
            ast::TypeExprKind::Tuple(ts) => {
                stack.extend(ts.iter());
                &[]
            }
        };
        for e in extents {
            if let ast::ExtentExpr::Name(id) = e {
                out.push(*id);
            }
        }
    }
    out
}
