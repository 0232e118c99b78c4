//! The typed IR: what lowering produces, passes rewrite and the printer writes.
//!
//! A [`Module`] is a list of [`Function`]s. Each function owns its arenas
//! (variables, expressions, statements, and the out-of-line payloads of
//! calls, `submit`s, loops, `if`s and scopes) and its list pools
//! ([`lists`]); nodes refer to one another by typed 4-byte ids ([`VarId`],
//! [`ExprId`], [`StmtId`], [`CallId`], [`SubmitId`], ...) and hold lists as
//! 4-byte handles read through the function ([`Function::list`]). A
//! [`Block`] is a pooled list of statement ids. Every node keeps the
//! [`Span`] of the source it came from (nodes made by passes carry the span
//! of the code they were made for).
//!
//! Invariants (established by lowering, relied on by everyone after it,
//! checked by [`verify`] after every pass):
//! - every id and list handle stored in a function indexes that function's
//!   arenas and pools, and each list is held by one node only (lists are
//!   not shared, so changing one changes one node);
//! - every statement id appears in exactly one block (arena entries that no
//!   block reaches are garbage left by rewrites and are ignored);
//! - a variable has one definition: a binding, a parameter, a loop induction
//!   variable or an iter-arg; uses refer to it by id, so identity does not
//!   depend on names (two variables may share a name);
//! - `Call::arg_directions` has one entry per positional argument.

pub mod arena;
pub mod builder;
pub mod comments;
pub mod describe;
pub mod equality;
pub mod if_chain;
pub mod list_pool;
pub mod lists;
pub mod symbol;
pub mod trip_count;
pub mod types;
pub mod verify;
pub mod walk;

pub use crate::span::Span;
pub use crate::vocab::{BinaryOp, BuiltinOp, Direction, FuncKind, LoopKind, UnaryOp};
pub use arena::{Arena, ArenaId, SecondaryMap};
pub use comments::{Anchor, Attached, Comment, CommentTable, Inner};
use hashbrown::HashMap;
pub use list_pool::{EntityList, ListItem, ListPool};
pub use lists::{
    DirList, Directions, ExprList, IterArg, IterArgList, Kwarg, KwargList, Lists, Pooled, StmtList,
    VarList,
};
pub use smallvec::{SmallVec, smallvec};
pub use symbol::{NameTable, Symbol};
pub use types::{Category, Extent, ScalarType, Type, TypeId, TypeTable};

crate::define_id!(
    /// A variable of a function.
    VarId
);
crate::define_id!(
    /// An expression node of a function.
    ExprId
);
crate::define_id!(
    /// A statement node of a function.
    StmtId
);
crate::define_id!(
    /// The payload of a call expression ([`Function::calls`]).
    CallId
);
crate::define_id!(
    /// The payload of a `submit` statement ([`Function::submits`]).
    SubmitId
);
crate::define_id!(
    /// The payload of a `for` statement ([`Function::fors`]).
    ForId
);
crate::define_id!(
    /// The payload of a `while` statement ([`Function::whiles`]).
    WhileId
);
crate::define_id!(
    /// The payload of an `if` statement ([`Function::ifs`]).
    IfId
);
crate::define_id!(
    /// The payload of a `manual`/`auto` scope statement ([`Function::scopes`]).
    ScopeId
);

crate::define_id!(
    /// A function of a module: its position in [`Module::functions`].
    FuncId
);

/// A whole `.pfir` file.
///
/// Functions are added with [`Module::new`] or [`Module::push`], which keep
/// the name map ([`Module::function_id`]) in step; they can be changed in
/// place ([`Module::functions_mut`]) but not renamed, removed or reordered,
/// so a [`FuncId`] stays valid for the module's life.
#[derive(Clone, Debug, Default)]
pub struct Module {
    functions: Vec<Function>,
    /// Each function's id by name.
    by_name: HashMap<String, FuncId>,
    /// Comments after the last function (metadata: see [`comments`]).
    pub end_comments: Vec<Comment>,
}

impl Module {
    /// A module of `functions`, in order (names must be distinct).
    pub fn new(functions: Vec<Function>) -> Module {
        let mut m = Module::default();
        for f in functions {
            m.push(f);
        }
        m
    }

    /// Adds `f` at the end and returns its id. A function whose name is
    /// already taken keeps the earlier one's entry in the name map.
    pub fn push(&mut self, f: Function) -> FuncId {
        let id = FuncId::from_index(self.functions.len());
        self.by_name.entry(f.name.clone()).or_insert(id);
        self.functions.push(f);
        id
    }

    /// The functions, in source order.
    pub fn functions(&self) -> &[Function] {
        &self.functions
    }

    /// The functions, to rewrite in place.
    pub fn functions_mut(&mut self) -> &mut [Function] {
        &mut self.functions
    }

    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.function_id(name).map(|id| &self.functions[id.index()])
    }

    /// The function called `name`, to rewrite in place.
    pub fn function_mut(&mut self, name: &str) -> Option<&mut Function> {
        let id = self.function_id(name)?;
        Some(&mut self.functions[id.index()])
    }

    /// The id of the function called `name` (a hash lookup).
    pub fn function_id(&self, name: &str) -> Option<FuncId> {
        self.by_name.get(name).copied()
    }

    /// The function `id`.
    pub fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }

    /// The name of function `id`.
    pub fn func_name(&self, id: FuncId) -> &str {
        &self.functions[id.index()].name
    }
}

/// How many nodes a function will hold, for [`Function::reserve_for_counts`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ReserveCounts {
    pub stmts: usize,
    pub submits: usize,
    pub exprs: usize,
    pub vars: usize,
    /// The bytes of the variables' names.
    pub name_bytes: usize,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub var: VarId,
    pub direction: Direction,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub name_span: Span,
    pub kind: FuncKind,
    pub params: Vec<Param>,
    /// Result types; several results print as a tuple.
    pub results: Vec<Type>,
    pub body: Block,
    /// The span of the whole function.
    pub span: Span,
    pub vars: Arena<VarId, Var>,
    pub exprs: Arena<ExprId, Expr>,
    pub stmts: Arena<StmtId, Stmt>,
    /// Call payloads ([`ExprKind::Call`]).
    pub calls: Arena<CallId, Call>,
    /// `submit` payloads ([`StmtKind::Submit`]).
    pub submits: Arena<SubmitId, Submit>,
    /// `for` payloads ([`StmtKind::For`]).
    pub fors: Arena<ForId, ForLoop>,
    /// `while` payloads ([`StmtKind::While`]).
    pub whiles: Arena<WhileId, WhileLoop>,
    /// `if` payloads ([`StmtKind::If`]).
    pub ifs: Arena<IfId, IfStmt>,
    /// Scope payloads ([`StmtKind::Scope`]).
    pub scopes: Arena<ScopeId, ScopeStmt>,
    /// The pools of every list of the function (see [`lists`]).
    pub lists: Lists,
    /// The names of the variables (and of ops, keyword arguments and scopes).
    pub names: NameTable,
    /// The types of the variables and expressions.
    pub types: TypeTable,
    /// Source comments attached to its lines (metadata, ignored by
    /// structural equality: see [`comments`]).
    pub comments: CommentTable,
    /// Each name written as a dynamic extent in a type
    /// (`array<task_id, n>`) and the variable lowering resolved it to: uses
    /// that no expression holds, kept for editors (metadata, never printed,
    /// ignored by structural equality).
    pub extent_uses: Vec<(Span, VarId)>,
}

impl Function {
    /// The bounds of loop `l` as written in canonical form: `stop`,
    /// `start, stop` or all three (bounds equal to their defaults, start 0
    /// and step 1, left out), then any bounds written past the third (an
    /// error). The one rule for a loop's head: the printer, the formatter,
    /// the graph and [`describe`] all use it.
    pub fn written_bounds(&self, l: &ForLoop) -> SmallVec<[ExprId; 3]> {
        let is_int = |e: ExprId, value: i64| matches!(self.exprs[e].kind, ExprKind::Int(n) if n.get() == value);
        let extra = self.list(l.extra_bounds);
        let mut bounds: SmallVec<[ExprId; 3]> = if !extra.is_empty() || !is_int(l.step, 1) {
            smallvec![l.start, l.stop, l.step]
        } else if !is_int(l.start, 0) {
            smallvec![l.start, l.stop]
        } else {
            smallvec![l.stop]
        };
        bounds.extend_from_slice(extra);
        bounds
    }

    pub fn new(name: impl Into<String>, kind: FuncKind) -> Function {
        Function {
            name: name.into(),
            name_span: Span::default(),
            kind,
            params: Vec::new(),
            results: Vec::new(),
            body: Block::default(),
            span: Span::default(),
            vars: Arena::new(),
            exprs: Arena::new(),
            stmts: Arena::new(),
            calls: Arena::new(),
            submits: Arena::new(),
            fors: Arena::new(),
            whiles: Arena::new(),
            ifs: Arena::new(),
            scopes: Arena::new(),
            lists: Lists::default(),
            names: NameTable::new(),
            types: TypeTable::default(),
            comments: CommentTable::default(),
            extent_uses: Vec::new(),
        }
    }

    /// Sizes the arenas, pools and name table from what the parser counted
    /// in the function's source (statements, `submit`s among them,
    /// expressions, variables and the bytes of their names), so that
    /// lowering fills them without growing them (no copies, no unused
    /// half). Counts that are too high reserve memory that is never
    /// touched (not resident); too low, and the tables grow as they would
    /// have anyway.
    pub fn reserve_for_counts(&mut self, counts: ReserveCounts) {
        self.vars.reserve(counts.vars);
        self.exprs.reserve(counts.exprs);
        self.stmts.reserve(counts.stmts);
        self.submits.reserve(counts.submits);
        self.lists = Lists::with_estimate(counts.stmts);
        self.names = NameTable::with_capacity(counts.vars, counts.name_bytes);
    }

    pub fn new_var(&mut self, name: impl AsRef<str>, ty: Type, span: Span) -> VarId {
        let ty = self.types.intern(ty);
        self.new_var_of_type(name, ty, span)
    }

    /// [`Function::new_var`] with a type already in this function's table.
    pub fn new_var_of_type(&mut self, name: impl AsRef<str>, ty: TypeId, span: Span) -> VarId {
        let name = self.names.add(name.as_ref());
        self.vars.alloc(Var { name, ty, span })
    }

    pub fn new_expr(&mut self, kind: ExprKind, ty: Type, span: Span) -> ExprId {
        let ty = self.types.intern(ty);
        self.new_expr_of_type(kind, ty, span)
    }

    /// [`Function::new_expr`] with a type already in this function's
    /// table (no hashing: a use of a variable takes the variable's `TypeId`).
    pub fn new_expr_of_type(&mut self, kind: ExprKind, ty: TypeId, span: Span) -> ExprId {
        self.exprs.alloc(Expr { kind, ty, span })
    }

    pub fn new_stmt(&mut self, kind: StmtKind, span: Span) -> StmtId {
        self.stmts.alloc(Stmt { kind, span })
    }

    /// The type of an expression.
    pub fn ty(&self, e: ExprId) -> &Type {
        &self.types[self.exprs[e].ty]
    }

    /// The type of variable `v`.
    pub fn var_ty(&self, v: VarId) -> &Type {
        &self.types[self.vars[v].ty]
    }

    /// The name of variable `v`.
    pub fn var_name(&self, v: VarId) -> &str {
        self.names.get(self.vars[v].name)
    }

    /// Whether any variable of this function is named `name`.
    pub fn uses_name(&self, name: &str) -> bool {
        self.vars
            .iter()
            .any(|(_, v)| self.names.get(v.name) == name)
    }

    /// The items of a pooled list of this function.
    pub fn list<T: Pooled>(&self, list: EntityList<T>) -> &[T] {
        list.as_slice(T::pool(&self.lists))
    }

    /// The statements of `block`.
    pub fn block_stmts(&self, block: &Block) -> &[StmtId] {
        self.list(block.stmts)
    }

    /// A new pooled list holding `items`.
    pub fn new_list<T: Pooled>(&mut self, items: &[T]) -> EntityList<T> {
        EntityList::from_slice(items, T::pool_mut(&mut self.lists))
    }

    /// Frees `list` and returns a new list holding `items` (O(length of
    /// both)): `node.field = f.replace_list(node.field, items)`.
    pub fn replace_list<T: Pooled>(&mut self, list: EntityList<T>, items: &[T]) -> EntityList<T> {
        let mut list = list;
        let pool = T::pool_mut(&mut self.lists);
        list.clear(pool);
        EntityList::from_slice(items, pool)
    }

    /// Appends `item` to `list` (amortised O(1)).
    pub fn push_list<T: Pooled>(&mut self, list: &mut EntityList<T>, item: T) {
        list.push(item, T::pool_mut(&mut self.lists));
    }

    /// The argument directions `d`.
    pub fn directions(&self, d: DirList) -> Directions<'_> {
        self.lists.directions(d)
    }

    /// A new list of argument directions.
    pub fn new_directions(&mut self, dirs: impl IntoIterator<Item = Direction>) -> DirList {
        self.lists.new_directions(dirs)
    }

    /// The call of expression `e`, if it is one.
    pub fn call(&self, e: ExprId) -> Option<&Call> {
        match self.exprs[e].kind {
            ExprKind::Call(c) => Some(&self.calls[c]),
            _ => None,
        }
    }

    /// The name of an op or function callee (a function's name read from `m`).
    pub fn callee_name<'m>(&'m self, m: &'m Module, callee: Callee) -> &'m str {
        match callee {
            Callee::Op(s) | Callee::Unresolved(s) => self.names.get(s),
            Callee::Function(id) => m.func_name(id),
        }
    }

    /// The op's name, if `callee` is an op.
    pub fn op_name(&self, callee: Callee) -> Option<&str> {
        match callee {
            Callee::Op(s) => Some(self.names.get(s)),
            Callee::Function(_) | Callee::Unresolved(_) => None,
        }
    }

    /// The variables statement `kind` binds in the enclosing block.
    pub fn results(&self, kind: &StmtKind) -> &[VarId] {
        let list = match *kind {
            StmtKind::Assign { results, .. } => results,
            StmtKind::Submit(s) => self.submits[s].results,
            StmtKind::For(l) => self.fors[l].results,
            StmtKind::While(w) => self.whiles[w].results,
            StmtKind::If(i) => self.ifs[i].results,
            _ => return &[],
        };
        self.list(list)
    }

    /// Block number `which` of a statement: 0 is the body of a loop or
    /// scope, or the `then` branch of an `if`; 1 is the `else` branch.
    pub fn nested_block(&self, kind: &StmtKind, which: u8) -> Option<&Block> {
        match (*kind, which) {
            (StmtKind::For(l), 0) => Some(&self.fors[l].body),
            (StmtKind::While(w), 0) => Some(&self.whiles[w].body),
            (StmtKind::Scope(s), 0) => Some(&self.scopes[s].body),
            (StmtKind::If(i), 0) => Some(&self.ifs[i].then_body),
            (StmtKind::If(i), 1) => self.ifs[i].else_body.as_ref(),
            _ => None,
        }
    }

    /// [`Function::nested_block`], mutably.
    pub fn nested_block_mut(&mut self, kind: &StmtKind, which: u8) -> Option<&mut Block> {
        match (*kind, which) {
            (StmtKind::For(l), 0) => Some(&mut self.fors[l].body),
            (StmtKind::While(w), 0) => Some(&mut self.whiles[w].body),
            (StmtKind::Scope(s), 0) => Some(&mut self.scopes[s].body),
            (StmtKind::If(i), 0) => Some(&mut self.ifs[i].then_body),
            (StmtKind::If(i), 1) => self.ifs[i].else_body.as_mut(),
            _ => None,
        }
    }

    /// The blocks directly nested in a statement, in source order.
    pub fn blocks(&self, kind: &StmtKind) -> SmallVec<[&Block; 2]> {
        (0..2).filter_map(|w| self.nested_block(kind, w)).collect()
    }

    /// The loop-carried values of a `for` or `while`.
    pub fn iter_args(&self, kind: &StmtKind) -> &[IterArg] {
        match *kind {
            StmtKind::For(l) => self.list(self.fors[l].iter_args),
            StmtKind::While(w) => self.list(self.whiles[w].iter_args),
            _ => &[],
        }
    }
}

/// A variable: a name (not necessarily unique), a type and where it was defined.
#[derive(Clone, Debug)]
pub struct Var {
    /// In the function's [`Function::names`]; see [`Function::var_name`].
    pub name: Symbol,
    /// In the function's [`Function::types`]; see [`Function::var_ty`].
    pub ty: TypeId,
    pub span: Span,
}

/// A `{ ... }` statement list.
#[derive(Clone, Copy, Debug, Default)]
pub struct Block {
    /// Read with [`Function::block_stmts`].
    pub stmts: StmtList,
    /// From `{` to `}`.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    /// In the function's [`Function::types`]; see [`Function::ty`].
    pub ty: TypeId,
    pub span: Span,
}

/// An `i64` literal stored as two 4-byte halves, so that [`ExprKind`] is
/// 4-byte aligned and an [`Expr`] takes 24 bytes instead of 32.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct I64([u32; 2]);

impl I64 {
    pub const fn new(v: i64) -> I64 {
        I64(halves(v as u64))
    }

    pub const fn get(self) -> i64 {
        joined(self.0) as i64
    }
}

/// `bits` as its low and high 4-byte halves.
const fn halves(bits: u64) -> [u32; 2] {
    [bits as u32, (bits >> 32) as u32]
}

/// The bits [`halves`] split.
const fn joined(halves: [u32; 2]) -> u64 {
    (halves[1] as u64) << 32 | halves[0] as u64
}

/// `From` the value and `Debug` as the value, for a literal stored in
/// [`halves`] (`new` and `get` convert).
macro_rules! literal_in_halves {
    ($literal:ident, $value:ty) => {
        impl From<$value> for $literal {
            fn from(v: $value) -> $literal {
                $literal::new(v)
            }
        }

        impl std::fmt::Debug for $literal {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(&self.get(), f)
            }
        }
    };
}

literal_in_halves!(I64, i64);
literal_in_halves!(F64, f64);

impl std::fmt::Display for I64 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.get(), f)
    }
}

/// An `f64` literal stored as two 4-byte halves of its bits (see [`I64`]);
/// equal when the bits are.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct F64([u32; 2]);

impl F64 {
    pub fn new(v: f64) -> F64 {
        F64(halves(v.to_bits()))
    }

    pub fn get(self) -> f64 {
        f64::from_bits(joined(self.0))
    }
}

#[derive(Copy, Clone, Debug)]
pub enum ExprKind {
    /// Read with [`I64::get`].
    Int(I64),
    /// Read with [`F64::get`].
    Float(F64),
    Bool(bool),
    /// `none`: the invalid task id.
    None,
    /// A scalar type used as a value: `array.create(4, task_id)`.
    Dtype(ScalarType),
    Var(VarId),
    Unary(UnaryOp, ExprId),
    Binary(BinaryOp, ExprId, ExprId),
    /// In [`Function::calls`].
    Call(CallId),
    /// `[a, b]`, only as a call argument.
    List(ExprList),
    /// Source text lowering could not make sense of (an unknown name, an
    /// out-of-range literal), kept as written (a symbol of the function's
    /// [`NameTable`]) so that a module with errors prints back what was
    /// written. Its type is the error type [`Type::Unknown`] (or the
    /// literal's type); it appears only in modules with error diagnostics,
    /// which passes refuse.
    Unresolved(Symbol),
}

/// What a call calls.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// An op: `array.create`, `system.task_dummy`, `tensor.load`, ...; the
    /// name is a symbol of the function's [`NameTable`] (see
    /// [`Function::callee_name`], [`Function::op_name`]).
    Op(Symbol),
    /// A function of the module.
    Function(FuncId),
    /// A name that is no function of the module (or an op named where a
    /// function is needed), kept as written: only in modules with error
    /// diagnostics (see [`ExprKind::Unresolved`]).
    Unresolved(Symbol),
}

impl Callee {
    /// The function called, when the callee is one.
    pub fn function(self) -> Option<FuncId> {
        match self {
            Callee::Function(id) => Some(id),
            Callee::Op(_) | Callee::Unresolved(_) => None,
        }
    }
}

/// A plain call (of an op or a function), evaluated for its value.
#[derive(Clone, Debug)]
pub struct Call {
    pub callee: Callee,
    pub args: ExprList,
    /// One per positional argument, resolved from the callee's signature
    /// (`In` for ops).
    pub arg_directions: DirList,
    /// Keyword arguments of ops other than `system.task_dummy`, in source order.
    pub kwargs: KwargList,
    /// `attrs["dummy_task"]`: set on `system.task_dummy` barriers.
    pub dummy_task: bool,
    /// The built-in op the callee names, resolved once by lowering (and
    /// by the builder); `None` for functions and for ops pfir does not know.
    pub builtin: Option<BuiltinOp>,
    /// `attrs["manual_dep_edges"]`: only a `system.task_dummy` call may carry
    /// entries (ManualDepsOnSubmitOnly).
    pub manual_dep_edges: ExprList,
}

impl Call {
    pub fn new(callee: Callee) -> Call {
        Call {
            callee,
            args: ExprList::new(),
            arg_directions: DirList::default(),
            kwargs: KwargList::new(),
            dummy_task: false,
            builtin: None,
            manual_dep_edges: ExprList::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// A task launch: `results..., tid = submit callee(args, deps=[...], ...)`.
#[derive(Clone, Debug)]
pub struct Submit {
    /// The callee's results followed by the task id.
    pub results: VarList,
    /// The function launched: [`Callee::Function`] in a valid module
    /// ([`Callee::Unresolved`] keeps an unknown name or an op written
    /// where a function is needed, in a module with errors).
    pub callee: Callee,
    pub callee_span: Span,
    pub args: ExprList,
    pub arg_directions: DirList,
    /// The manual dependency edges (`none` entries already dropped).
    pub deps: ExprList,
    pub core_num: Option<ExprId>,
    /// Absent when `false` (the default).
    pub sync_start: Option<ExprId>,
    /// Absent when `false` (the default).
    pub allow_early_resolve: Option<ExprId>,
    pub predicate: Option<ExprId>,
    /// Keyword arguments lowering rejected (unknown, repeated, a `deps=`
    /// that is not a list), kept in source order to be printed as written:
    /// empty in a valid module.
    pub rejected_kwargs: KwargList,
}

impl Submit {
    /// The keyword arguments written `name=value` (`core_num`,
    /// `sync_start`, `allow_early_resolve`), in their printed order; `deps`
    /// and `predicate` have forms of their own.
    pub fn value_kwargs(&self) -> [(&'static str, Option<ExprId>); 3] {
        use crate::vocab::{KWARG_ALLOW_EARLY_RESOLVE, KWARG_CORE_NUM, KWARG_SYNC_START};
        [
            (KWARG_CORE_NUM, self.core_num),
            (KWARG_SYNC_START, self.sync_start),
            (KWARG_ALLOW_EARLY_RESOLVE, self.allow_early_resolve),
        ]
    }
}

/// `results = for var in kind(start, stop, step) iter(...) { body }`.
#[derive(Clone, Debug)]
pub struct ForLoop {
    pub results: VarList,
    pub kind: LoopKind,
    pub var: VarId,
    pub start: ExprId,
    pub stop: ExprId,
    pub step: ExprId,
    /// Bounds written past the third (an error), kept to be printed as
    /// written: empty in a valid module.
    pub extra_bounds: ExprList,
    pub iter_args: IterArgList,
    pub body: Block,
}

/// `results = while cond iter(...) { body }`.
#[derive(Clone, Debug)]
pub struct WhileLoop {
    pub results: VarList,
    pub cond: ExprId,
    pub iter_args: IterArgList,
    pub body: Block,
}

/// `results = if cond { then_body } else { else_body }`.
#[derive(Clone, Debug)]
pub struct IfStmt {
    pub results: VarList,
    pub cond: ExprId,
    pub then_body: Block,
    pub else_body: Option<Block>,
}

/// `manual "name" { }` (manual = true) or `auto { }`.
#[derive(Clone, Debug)]
pub struct ScopeStmt {
    pub manual: bool,
    /// A symbol of the function's [`NameTable`].
    pub name: Option<Symbol>,
    pub body: Block,
}

impl ScopeStmt {
    /// The keyword that opens the scope: `manual` or `auto`.
    pub fn keyword(&self) -> &'static str {
        if self.manual { "manual" } else { "auto" }
    }

    /// How an outline or a graph names the scope: `manual`, or `manual
    /// "name"` (the name as written, unescaped); `names` is the table of
    /// the function that holds it.
    pub fn label(&self, names: &NameTable) -> String {
        match self.name {
            Some(n) => format!("{} \"{}\"", self.keyword(), names.get(n)),
            None => self.keyword().to_string(),
        }
    }
}

/// A statement: small, with its payload out of line when it has more than
/// two fields (in the function's `submits`, `fors`, `whiles`, `ifs` and
/// `scopes` arenas).
#[derive(Copy, Clone, Debug)]
pub enum StmtKind {
    /// `a, b = expr`.
    Assign {
        results: VarList,
        value: ExprId,
    },
    Submit(SubmitId),
    /// A call evaluated for effect (the expression is always a call).
    Eval(ExprId),
    For(ForId),
    While(WhileId),
    If(IfId),
    Scope(ScopeId),
    Yield(ExprList),
    Return(ExprList),
    Break,
    Continue,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    /// The node sizes the compact layout reached (x86-64 and other 64-bit
    /// targets); a change that makes one grow must be deliberate.
    #[test]
    fn node_sizes_stay_compact() {
        /// Each type takes at most its number of bytes.
        macro_rules! at_most {
            ($(($t:ty, $bytes:expr)),* $(,)?) => {
                $(assert!(
                    size_of::<$t>() <= $bytes,
                    "{}: {}",
                    stringify!($t),
                    size_of::<$t>()
                );)*
            };
        }
        at_most!(
            (Stmt, 24),
            (StmtKind, 12),
            (Expr, 24),
            (ExprKind, 12),
            (Submit, 52),
            (Call, 28),
            (Block, 12),
            (ForLoop, 48),
            (Var, 16),
        );
        assert_eq!(size_of::<Option<ExprId>>(), 4);
        assert_eq!(size_of::<Option<VarId>>(), 4);
        assert_eq!(size_of::<Option<StmtId>>(), 4);
        assert_eq!(size_of::<ExprList>(), 4);
        assert_eq!(size_of::<DirList>(), 4);
    }
}
