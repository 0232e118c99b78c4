//! The name index of one chunk, flattened from its IR.
//!
//! Lowering already resolved every name: a use is an `ExprKind::Var` whose
//! span is the name as written, a definition is a `Var` whose span starts at
//! its name. This module walks each function once (an explicit work stack,
//! no recursion) and records, as plain byte ranges:
//!
//! - every variable with its name range, type, kind and the region where it
//!   is visible (spec section 7: after its statement to the end of the
//!   enclosing loop / `if` / function body; `manual`/`auto` bodies open no
//!   scope; a loop's variable and iter-args in its body);
//! - every occurrence of a variable or function name (definition, use,
//!   callee), sorted by position, marked read or write (a definition, an
//!   `out`/`inout` argument, or the array `array.update_element` updates);
//! - every `for` / `while` loop and `manual` / `auto` scope, and the outline
//!   nodes, each with the index of its parent.

use crate::ide::navigate::Access;
use crate::ide::outline::SymbolKind;
use crate::ir::{
    ArenaId, Callee, Direction, ExprKind, FuncKind, Function, Module, StmtKind, VarId,
};
use crate::span::Span;
use hashbrown::HashMap;
use std::ops::Range;

/// Outline nodes nested deeper than this are attached to their ancestor at
/// this depth, so that no consumer of the outline recurses without bound.
pub const MAX_OUTLINE_DEPTH: u32 = 64;

/// No parent.
pub const NONE: u32 = u32::MAX;

/// What introduced a variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    Parameter,
    Binding,
    LoopVariable,
    IterArg,
}

impl VarKind {
    pub fn describe(self) -> &'static str {
        match self {
            VarKind::Parameter => "parameter",
            VarKind::Binding => "binding",
            VarKind::LoopVariable => "loop variable",
            VarKind::IterArg => "iter-arg",
        }
    }
}

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub name_range: Range<usize>,
    pub ty: String,
    /// False for a value of unknown type (an unannotated unknown op).
    pub ty_known: bool,
    pub kind: VarKind,
    /// Written with a `: type` annotation.
    pub annotated: bool,
    /// Where the name refers to this variable (unless shadowed).
    pub visible: Range<usize>,
    pub func: u32,
}

#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub name: String,
    pub name_range: Range<usize>,
    pub range: Range<usize>,
    pub body: Range<usize>,
    pub kind: FuncKind,
    /// `[kind ]func name(p: T, out q: T) -> T`, as the printer writes it.
    pub signature: String,
    /// The parameters as they are written, for a call snippet.
    pub param_names: Vec<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Var(u32),
    Function(u32),
}

#[derive(Clone, Debug)]
pub struct Occurrence {
    pub range: Range<usize>,
    pub target: Target,
    pub is_def: bool,
    pub access: Access,
}

#[derive(Clone, Debug)]
pub struct LoopInfo {
    /// The statement, bindings included.
    pub stmt: Range<usize>,
    /// From the statement's start to the body's `{`, included.
    pub header: Range<usize>,
    pub func: u32,
    pub is_for: bool,
    /// Inside a `manual` scope (the innermost scope around it).
    pub manual: bool,
}

#[derive(Clone, Debug)]
pub struct FlatSymbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub range: Range<usize>,
    pub selection: Range<usize>,
    pub parent: u32,
}

#[derive(Clone, Debug, Default)]
pub struct ChunkIndex {
    pub functions: Vec<FuncInfo>,
    pub vars: Vec<VarInfo>,
    /// Sorted by start; never overlapping.
    pub occurrences: Vec<Occurrence>,
    pub loops: Vec<LoopInfo>,
    pub symbols: Vec<FlatSymbol>,
}

impl ChunkIndex {
    /// The occurrence under `offset`: one that contains it, else one that
    /// ends exactly there (the cursor just after a name).
    pub fn occurrence_at(&self, offset: usize) -> Option<&Occurrence> {
        let i = self
            .occurrences
            .partition_point(|o| o.range.start <= offset);
        let before = i.checked_sub(1).and_then(|j| self.occurrences.get(j))?;
        (offset <= before.range.end).then_some(before)
    }

    /// Every occurrence of `target`, in order.
    pub fn occurrences_of(&self, target: Target) -> impl Iterator<Item = &Occurrence> {
        self.occurrences.iter().filter(move |o| o.target == target)
    }

    pub fn function_named(&self, name: &str) -> Option<usize> {
        self.functions.iter().position(|f| f.name == name)
    }

    /// The function whose text contains `offset`.
    pub fn function_at(&self, offset: usize) -> Option<usize> {
        self.functions
            .iter()
            .position(|f| f.range.start <= offset && offset <= f.range.end)
    }
}

pub fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether `text[range]` is exactly `name` as a whole word.
fn is_word_at(text: &str, start: usize, name: &str) -> bool {
    let end = start + name.len();
    let bytes = text.as_bytes();
    text.get(start..end) == Some(name)
        && !start
            .checked_sub(1)
            .and_then(|i| bytes.get(i))
            .is_some_and(|&b| is_ident_byte(b))
        && !bytes.get(end).is_some_and(|&b| is_ident_byte(b))
}

/// The range of `name` in the definition span `span`: its start for
/// bindings, loop variables and iter-args; after the direction keyword for
/// parameters.
pub fn name_range(text: &str, span: Span, name: &str) -> Range<usize> {
    let start = span.start();
    if name.is_empty() {
        return start..start;
    }
    if is_word_at(text, start, name) {
        return start..start + name.len();
    }
    if let Some(hay) = text.get(span.range()) {
        for (i, _) in hay.match_indices(name) {
            if is_word_at(text, start + i, name) {
                return start + i..start + i + name.len();
            }
        }
    }
    start..start
}

/// Whether the name ending at `end` is followed by `:` (a type annotation).
fn annotated_after(text: &str, end: usize) -> bool {
    text.get(end..)
        .map(|rest| rest.trim_start_matches([' ', '\t', '\r', '\n']))
        .is_some_and(|rest| rest.starts_with(':'))
}

fn clamp(range: Range<usize>) -> Range<usize> {
    range.start..range.end.max(range.start)
}

/// `for ... {` / `while ... {`: the statement's start to the body's brace.
pub fn header_of(stmt: Span, body: Span) -> Range<usize> {
    let end = (body.start() + 1)
        .max(stmt.start())
        .min(stmt.end().max(stmt.start()));
    stmt.start()..end
}

/// The signature line of `f`.
pub fn signature(f: &Function) -> String {
    let mut s = String::new();
    if f.kind != FuncKind::Opaque {
        s.push_str(f.kind.keyword());
        s.push(' ');
    }
    s.push_str("func ");
    s.push_str(&f.name);
    s.push('(');
    for (i, p) in f.params.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        if p.direction != Direction::In {
            s.push_str(p.direction.keyword());
            s.push(' ');
        }
        s.push_str(f.var_name(p.var));
        s.push_str(": ");
        s.push_str(&f.types[f.vars[p.var].ty].to_string());
    }
    s.push(')');
    match f.results.as_slice() {
        [] => {}
        [one] => s.push_str(&format!(" -> {one}")),
        many => {
            let list: Vec<String> = many.iter().map(|t| t.to_string()).collect();
            s.push_str(&format!(" -> ({})", list.join(", ")));
        }
    }
    s
}

struct Frame<'f> {
    block: &'f crate::ir::Block,
    /// The end of the innermost block that opens a scope.
    scope_end: usize,
    parent: u32,
    manual: bool,
    depth: u32,
}

/// Builds the index of `module`, whose spans are offsets into `text`.
pub fn build(text: &str, module: &Module) -> ChunkIndex {
    let mut ix = ChunkIndex::default();
    let mut by_name: HashMap<&str, u32> = HashMap::new();
    for (fi, f) in module.functions().iter().enumerate() {
        by_name.entry(f.name.as_str()).or_insert(fi as u32);
        let param_names = f.params.iter().map(|p| f.var_name(p.var).to_string());
        ix.functions.push(FuncInfo {
            name: f.name.clone(),
            name_range: f.name_span.range(),
            range: clamp(f.span.range()),
            body: clamp(f.body.span.range()),
            kind: f.kind,
            signature: signature(f),
            param_names: param_names.collect(),
        });
    }
    for (fi, f) in module.functions().iter().enumerate() {
        index_function(text, f, fi as u32, &by_name, &mut ix);
    }
    ix.occurrences.sort_by_key(|o| (o.range.start, o.range.end));
    // Defensive: keep occurrences disjoint (later ones inside an earlier
    // one are dropped), so that lookups and tokens never overlap.
    let mut end = 0;
    ix.occurrences.retain(|o| {
        let keep = o.range.start >= end && o.range.start < o.range.end;
        if keep {
            end = o.range.end;
        }
        keep
    });
    ix
}

fn index_function(
    text: &str,
    f: &Function,
    fi: u32,
    by_name: &HashMap<&str, u32>,
    ix: &mut ChunkIndex,
) {
    let base = ix.vars.len() as u32;
    let var_of = |v: VarId| base + v.index() as u32;
    // Variables, with their kind and visibility filled in by the walk.
    for (_, v) in f.vars.iter() {
        let name = f.names.get(v.name).to_string();
        let name_range = name_range(text, v.span, &name);
        let annotated = annotated_after(text, name_range.end);
        ix.vars.push(VarInfo {
            ty_known: !f.types[v.ty].is_unknown(),
            ty: f.types[v.ty].to_string(),
            kind: VarKind::Binding,
            annotated,
            visible: name_range.end..name_range.end,
            func: fi,
            name,
            name_range,
        });
    }
    let body = f.body.span;
    for p in &f.params {
        let info = &mut ix.vars[var_of(p.var) as usize];
        info.kind = VarKind::Parameter;
        info.visible = body.range();
    }

    // Which variable uses are writes.
    let mut written: Vec<bool> = vec![false; f.exprs.len()];
    let mut mark = |args: &[crate::ir::ExprId], dirs: &mut dyn Iterator<Item = Direction>| {
        for (a, d) in args.iter().zip(dirs) {
            if d != Direction::In
                && let Some(w) = written.get_mut(a.index())
            {
                *w = true;
            }
        }
    };
    for (_, c) in f.calls.iter() {
        let args = f.list(c.args);
        mark(args, &mut f.directions(c.arg_directions).iter());
        if c.builtin == Some(crate::ir::BuiltinOp::ArrayUpdateElement) {
            mark(
                &args[..args.len().min(1)],
                &mut std::iter::once(Direction::InOut),
            );
        }
    }
    for (_, sub) in f.submits.iter() {
        mark(
            f.list(sub.args),
            &mut f.directions(sub.arg_directions).iter(),
        );
    }

    // Uses of variables and calls of functions.
    for (id, e) in f.exprs.iter() {
        match &e.kind {
            ExprKind::Var(v) => {
                let target = var_of(*v);
                let range = e.span.range();
                if text.get(range.clone()) == Some(ix.vars[target as usize].name.as_str()) {
                    let write = written.get(id.index()).copied().unwrap_or(false);
                    ix.occurrences.push(Occurrence {
                        range,
                        target: Target::Var(target),
                        is_def: false,
                        access: if write { Access::Write } else { Access::Read },
                    });
                }
            }
            ExprKind::Call(c) => {
                if let Callee::Function(id) = &f.calls[*c].callee
                    && let Some(len) = ix
                        .functions
                        .get(id.index())
                        .filter(|callee| is_word_at(text, e.span.start(), &callee.name))
                        .map(|callee| callee.name.len())
                {
                    let callee = id.index() as u32;
                    let start = e.span.start();
                    ix.occurrences.push(Occurrence {
                        range: start..start + len,
                        target: Target::Function(callee),
                        is_def: false,
                        access: Access::Read,
                    });
                }
            }
            _ => {}
        }
    }
    // Names of variables written as dynamic extents in types.
    for &(span, v) in &f.extent_uses {
        let target = var_of(v);
        if text.get(span.range()) == ix.vars.get(target as usize).map(|v| v.name.as_str()) {
            ix.occurrences.push(Occurrence {
                range: span.range(),
                target: Target::Var(target),
                is_def: false,
                access: Access::Read,
            });
        }
    }
    for (_, sub) in f.submits.iter() {
        if let Some(id) = sub.callee.function()
            && let Some(info) = ix.functions.get(id.index())
            && text.get(sub.callee_span.range()) == Some(info.name.as_str())
        {
            let callee = id.index() as u32;
            ix.occurrences.push(Occurrence {
                range: sub.callee_span.range(),
                target: Target::Function(callee),
                is_def: false,
                access: Access::Read,
            });
        }
    }
    if by_name.get(f.name.as_str()) == Some(&fi) {
        ix.occurrences.push(Occurrence {
            range: f.name_span.range(),
            target: Target::Function(fi),
            is_def: true,
            access: Access::Write,
        });
    }

    // The function's outline node and its parameters.
    let func_symbol = ix.symbols.len() as u32;
    ix.symbols.push(FlatSymbol {
        name: f.name.clone(),
        detail: Some(ix.functions[fi as usize].signature.clone()),
        kind: SymbolKind::Function,
        range: clamp(f.span.range()),
        selection: f.name_span.range(),
        parent: NONE,
    });
    let defined = |ix: &mut ChunkIndex, v: VarId, parent: u32, kind: SymbolKind| {
        let info = &ix.vars[var_of(v) as usize];
        if info.name == "_" || info.name_range.is_empty() {
            return;
        }
        let sym = FlatSymbol {
            name: info.name.clone(),
            detail: Some(info.ty.clone()),
            kind,
            range: clamp(f.vars[v].span.range())
                .start
                .min(info.name_range.start)
                ..f.vars[v].span.end().max(info.name_range.end),
            selection: info.name_range.clone(),
            parent,
        };
        ix.symbols.push(sym);
        ix.occurrences.push(Occurrence {
            range: info.name_range.clone(),
            target: Target::Var(var_of(v)),
            is_def: true,
            access: Access::Write,
        });
    };
    for p in &f.params {
        defined(ix, p.var, func_symbol, SymbolKind::Parameter);
    }

    let mut stack = vec![Frame {
        block: &f.body,
        scope_end: body.end(),
        parent: func_symbol,
        manual: false,
        depth: 1,
    }];
    while let Some(fr) = stack.pop() {
        for &sid in f.block_stmts(fr.block) {
            let st = &f.stmts[sid];
            let after = st.span.end()..fr.scope_end.max(st.span.end());
            for &r in f.results(&st.kind) {
                ix.vars[var_of(r) as usize].visible = after.clone();
                defined(ix, r, fr.parent, SymbolKind::Variable);
            }
            let nested = fr.depth < MAX_OUTLINE_DEPTH;
            let symbol = |ix: &mut ChunkIndex,
                          name: String,
                          detail: Option<String>,
                          kind: SymbolKind,
                          selection: Range<usize>| {
                if !nested {
                    return fr.parent;
                }
                ix.symbols.push(FlatSymbol {
                    name,
                    detail,
                    kind,
                    range: clamp(st.span.range()),
                    selection,
                    parent: fr.parent,
                });
                ix.symbols.len() as u32 - 1
            };
            match &st.kind {
                StmtKind::For(l) => {
                    let crate::ir::ForLoop {
                        kind,
                        var,
                        iter_args,
                        body,
                        ..
                    } = &f.fors[*l];
                    let iter_args = f.list(*iter_args);
                    let label = format!("for {} in {}", f.var_name(*var), kind.keyword());
                    let header = header_of(st.span, body.span);
                    let loop_symbol = symbol(ix, label, None, SymbolKind::Loop, header.clone());
                    ix.loops.push(LoopInfo {
                        stmt: clamp(st.span.range()),
                        header,
                        func: fi,
                        is_for: true,
                        manual: fr.manual,
                    });
                    let lv = &mut ix.vars[var_of(*var) as usize];
                    lv.kind = VarKind::LoopVariable;
                    lv.visible = body.span.range();
                    defined(ix, *var, loop_symbol, SymbolKind::Variable);
                    for it in iter_args {
                        let iv = &mut ix.vars[var_of(it.var) as usize];
                        iv.kind = VarKind::IterArg;
                        iv.visible = body.span.range();
                        defined(ix, it.var, loop_symbol, SymbolKind::Variable);
                    }
                    stack.push(Frame {
                        block: body,
                        scope_end: body.span.end(),
                        parent: loop_symbol,
                        manual: fr.manual,
                        depth: fr.depth + 1,
                    });
                }
                StmtKind::While(w) => {
                    let crate::ir::WhileLoop {
                        cond,
                        iter_args,
                        body,
                        ..
                    } = &f.whiles[*w];
                    let iter_args = f.list(*iter_args);
                    let header = header_of(st.span, body.span);
                    let loop_symbol =
                        symbol(ix, "while".into(), None, SymbolKind::Loop, header.clone());
                    ix.loops.push(LoopInfo {
                        stmt: clamp(st.span.range()),
                        header,
                        func: fi,
                        is_for: false,
                        manual: fr.manual,
                    });
                    let cond_start = f.exprs[*cond].span.start().min(body.span.start());
                    for it in iter_args {
                        let iv = &mut ix.vars[var_of(it.var) as usize];
                        iv.kind = VarKind::IterArg;
                        iv.visible = cond_start..body.span.end();
                        defined(ix, it.var, loop_symbol, SymbolKind::Variable);
                    }
                    stack.push(Frame {
                        block: body,
                        scope_end: body.span.end(),
                        parent: loop_symbol,
                        manual: fr.manual,
                        depth: fr.depth + 1,
                    });
                }
                StmtKind::If(i) => {
                    let crate::ir::IfStmt {
                        then_body,
                        else_body,
                        ..
                    } = &f.ifs[*i];
                    for b in std::iter::once(then_body).chain(else_body.iter()) {
                        stack.push(Frame {
                            block: b,
                            scope_end: b.span.end(),
                            parent: fr.parent,
                            manual: fr.manual,
                            depth: fr.depth + 1,
                        });
                    }
                }
                StmtKind::Scope(sc) => {
                    let crate::ir::ScopeStmt { manual, name, body } = &f.scopes[*sc];
                    let word = if *manual { "manual" } else { "auto" };
                    let label = match name {
                        Some(n) => format!("{word} \"{}\"", f.names.get(*n)),
                        None => word.to_string(),
                    };
                    let header = header_of(st.span, body.span);
                    let scope_symbol = symbol(ix, label, None, SymbolKind::Scope, header);
                    stack.push(Frame {
                        block: body,
                        scope_end: fr.scope_end,
                        parent: scope_symbol,
                        manual: *manual,
                        depth: fr.depth + 1,
                    });
                }
                _ => {}
            }
        }
    }
}
