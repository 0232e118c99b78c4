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
use crate::ir::walk::{Event, Walk};
use crate::ir::{
    ArenaId, Callee, Direction, ExprKind, FuncKind, Function, Module, StmtId, StmtKind, VarId,
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

/// The signature line of `f`: the printer's function header without its `{`.
pub fn signature(f: &Function) -> String {
    let mut head = String::new();
    crate::printer::write_function_head(f, &mut head);
    head.truncate(head.trim_end_matches('{').trim_end().len());
    head
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

/// Indexes one function: its variables, the occurrences of its names and
/// its outline (with its loops).
fn index_function(
    text: &str,
    f: &Function,
    fi: u32,
    by_name: &HashMap<&str, u32>,
    ix: &mut ChunkIndex,
) {
    let base = ix.vars.len() as u32;
    index_vars(text, f, fi, ix);
    index_uses(text, f, base, ix);
    if by_name.get(f.name.as_str()) == Some(&fi) {
        ix.occurrences.push(Occurrence {
            range: f.name_span.range(),
            target: Target::Function(fi),
            is_def: true,
            access: Access::Write,
        });
    }
    Outline::new(f, fi, base, ix).walk();
}

/// The variables of `f`, with their kind and visibility as bindings (the
/// outline walk corrects both for loop variables and iter-args), then the
/// parameters'.
fn index_vars(text: &str, f: &Function, fi: u32, ix: &mut ChunkIndex) {
    let base = ix.vars.len();
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
    for p in &f.params {
        let info = &mut ix.vars[base + p.var.index()];
        info.kind = VarKind::Parameter;
        info.visible = f.body.span.range();
    }
}

/// Which expressions of `f` are variable uses that write: an `out`/`inout`
/// argument, or the array `array.update_element` updates.
fn written_uses(f: &Function) -> Vec<bool> {
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
    written
}

/// A read of `range` naming `target`, when the text there is `name`.
fn read_of(
    text: &str,
    range: Range<usize>,
    name: Option<&str>,
    target: Target,
) -> Option<Occurrence> {
    (name.is_some() && text.get(range.clone()) == name).then_some(Occurrence {
        range,
        target,
        is_def: false,
        access: Access::Read,
    })
}

/// The uses of variables (in expressions and in types) and the callees
/// of calls and `submit`s.
fn index_uses(text: &str, f: &Function, base: u32, ix: &mut ChunkIndex) {
    let var_of = |v: VarId| base + v.index() as u32;
    let written = written_uses(f);
    for (id, e) in f.exprs.iter() {
        match &e.kind {
            ExprKind::Var(v) => {
                let target = var_of(*v);
                let name = Some(ix.vars[target as usize].name.as_str());
                if let Some(mut o) = read_of(text, e.span.range(), name, Target::Var(target)) {
                    if written.get(id.index()).copied().unwrap_or(false) {
                        o.access = Access::Write;
                    }
                    ix.occurrences.push(o);
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
                    let start = e.span.start();
                    ix.occurrences.push(Occurrence {
                        range: start..start + len,
                        target: Target::Function(id.index() as u32),
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
        let name = ix.vars.get(target as usize).map(|v| v.name.as_str());
        ix.occurrences
            .extend(read_of(text, span.range(), name, Target::Var(target)));
    }
    for (_, sub) in f.submits.iter() {
        if let Some(id) = sub.callee.function() {
            let name = ix.functions.get(id.index()).map(|info| info.name.as_str());
            let target = Target::Function(id.index() as u32);
            ix.occurrences
                .extend(read_of(text, sub.callee_span.range(), name, target));
        }
    }
}

/// An open block of the outline walk.
#[derive(Copy, Clone)]
struct Frame {
    /// The end of the innermost block that opens a scope.
    scope_end: usize,
    parent: u32,
}

/// The outline walk of one function: definitions of bindings, loop
/// variables and iter-args (with their visibility), loops and scopes, as
/// outline nodes under their parents.
struct Outline<'a> {
    f: &'a Function,
    fi: u32,
    base: u32,
    ix: &'a mut ChunkIndex,
    /// The open blocks, innermost last.
    frames: Vec<Frame>,
    /// The outline node of the loop or scope just entered: its body's parent.
    entered: u32,
}

impl<'a> Outline<'a> {
    fn new(f: &'a Function, fi: u32, base: u32, ix: &'a mut ChunkIndex) -> Self {
        Outline {
            f,
            fi,
            base,
            ix,
            frames: Vec::new(),
            entered: NONE,
        }
    }

    fn var_of(&self, v: VarId) -> u32 {
        self.base + v.index() as u32
    }

    /// The function's node and its parameters', then every statement's.
    fn walk(mut self) {
        let f = self.f;
        let func_symbol = self.ix.symbols.len() as u32;
        self.ix.symbols.push(FlatSymbol {
            name: f.name.clone(),
            detail: Some(self.ix.functions[self.fi as usize].signature.clone()),
            kind: SymbolKind::Function,
            range: clamp(f.span.range()),
            selection: f.name_span.range(),
            parent: NONE,
        });
        for p in &f.params {
            self.defined(p.var, func_symbol, SymbolKind::Parameter);
        }
        self.entered = func_symbol;
        let mut walk = Walk::new(f);
        while let Some(event) = walk.next() {
            match event {
                Event::EnterBlock { owner, block, .. } => self.open(owner, block),
                Event::Enter(s, _) => {
                    let nested = walk.depth() < MAX_OUTLINE_DEPTH as usize;
                    self.stmt(s, nested, walk.in_manual_scope());
                }
                Event::LeaveBlock { .. } => {
                    self.frames.pop();
                }
                Event::Leave(_) => {}
            }
        }
    }

    /// Opens a block of `owner` (`None`: the body).
    fn open(&mut self, owner: Option<StmtId>, block: &crate::ir::Block) {
        let f = self.f;
        let outer = self.frames.last().copied().unwrap_or(Frame {
            scope_end: block.span.end(),
            parent: self.entered,
        });
        let frame = match owner.map(|s| f.stmts[s].kind) {
            None => outer,
            Some(StmtKind::Scope(_)) => Frame {
                parent: self.entered,
                ..outer
            },
            Some(StmtKind::If(_)) => Frame {
                scope_end: block.span.end(),
                ..outer
            },
            Some(_) => Frame {
                scope_end: block.span.end(),
                parent: self.entered,
            },
        };
        self.frames.push(frame);
    }

    /// The outline node of a variable defined under `parent`, and the
    /// occurrence of its name.
    fn defined(&mut self, v: VarId, parent: u32, kind: SymbolKind) {
        let target = self.var_of(v);
        let info = &self.ix.vars[target as usize];
        if info.name == "_" || info.name_range.is_empty() {
            return;
        }
        let span = self.f.vars[v].span;
        let sym = FlatSymbol {
            name: info.name.clone(),
            detail: Some(info.ty.clone()),
            kind,
            range: clamp(span.range()).start.min(info.name_range.start)
                ..span.end().max(info.name_range.end),
            selection: info.name_range.clone(),
            parent,
        };
        let range = info.name_range.clone();
        self.ix.symbols.push(sym);
        self.ix.occurrences.push(Occurrence {
            range,
            target: Target::Var(target),
            is_def: true,
            access: Access::Write,
        });
    }

    /// A loop variable or iter-arg of a loop, visible in `visible`.
    fn head_var(&mut self, v: VarId, kind: VarKind, visible: Range<usize>, parent: u32) {
        let target = self.var_of(v) as usize;
        let info = &mut self.ix.vars[target];
        info.kind = kind;
        info.visible = visible;
        self.defined(v, parent, SymbolKind::Variable);
    }

    /// The outline node of a loop or scope statement `st` (its parent's
    /// when `nested` is false: past [`MAX_OUTLINE_DEPTH`]).
    fn symbol(
        &mut self,
        st: Span,
        nested: bool,
        label: String,
        kind: SymbolKind,
        selection: Range<usize>,
    ) -> u32 {
        let parent = self.frames.last().map_or(NONE, |fr| fr.parent);
        if !nested {
            return parent;
        }
        self.ix.symbols.push(FlatSymbol {
            name: label,
            detail: None,
            kind,
            range: clamp(st.range()),
            selection,
            parent,
        });
        self.ix.symbols.len() as u32 - 1
    }

    /// A loop: its outline node and its entry in [`ChunkIndex::loops`]
    /// (`manual`: [`Walk::in_manual_scope`] at the loop).
    fn loop_symbol(
        &mut self,
        st: Span,
        body: Span,
        nested: bool,
        label: String,
        is_for: bool,
        manual: bool,
    ) -> u32 {
        let header = header_of(st, body);
        let symbol = self.symbol(st, nested, label, SymbolKind::Loop, header.clone());
        self.ix.loops.push(LoopInfo {
            stmt: clamp(st.range()),
            header,
            func: self.fi,
            is_for,
            manual,
        });
        symbol
    }

    /// A statement of the open block (in a manual scope when `manual`): the
    /// variables it binds, and the outline node of a loop or scope.
    fn stmt(&mut self, s: StmtId, nested: bool, manual: bool) {
        let f = self.f;
        let st = &f.stmts[s];
        let Some(&fr) = self.frames.last() else {
            return;
        };
        let after = st.span.end()..fr.scope_end.max(st.span.end());
        for &r in f.results(&st.kind) {
            let target = self.var_of(r) as usize;
            self.ix.vars[target].visible = after.clone();
            self.defined(r, fr.parent, SymbolKind::Variable);
        }
        match st.kind {
            StmtKind::For(l) => {
                let l = &f.fors[l];
                let label = format!("for {} in {}", f.var_name(l.var), l.kind.keyword());
                let symbol = self.loop_symbol(st.span, l.body.span, nested, label, true, manual);
                let visible = l.body.span.range();
                self.head_var(l.var, VarKind::LoopVariable, visible.clone(), symbol);
                for it in f.list(l.iter_args) {
                    self.head_var(it.var, VarKind::IterArg, visible.clone(), symbol);
                }
                self.entered = symbol;
            }
            StmtKind::While(w) => {
                let w = &f.whiles[w];
                let symbol =
                    self.loop_symbol(st.span, w.body.span, nested, "while".into(), false, manual);
                let cond_start = f.exprs[w.cond].span.start().min(w.body.span.start());
                for it in f.list(w.iter_args) {
                    let visible = cond_start..w.body.span.end();
                    self.head_var(it.var, VarKind::IterArg, visible, symbol);
                }
                self.entered = symbol;
            }
            StmtKind::Scope(sc) => {
                let sc = &f.scopes[sc];
                let label = sc.label(&f.names);
                let header = header_of(st.span, sc.body.span);
                self.entered = self.symbol(st.span, nested, label, SymbolKind::Scope, header);
            }
            _ => {}
        }
    }
}
