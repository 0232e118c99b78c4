//! The typed IR: what lowering produces, passes rewrite and the printer writes.
//!
//! A [`Module`] is a list of [`Function`]s. Each function owns three arenas
//! (variables, expressions, statements); nodes refer to one another by typed
//! ids ([`VarId`], [`ExprId`], [`StmtId`]). A [`Block`] is an ordered list of
//! statement ids. Every node keeps the [`Span`] of the source it came from
//! (nodes made by passes carry the span of the code they were made for).
//!
//! Invariants (checked by lowering, relied on by everyone after it):
//! - every `VarId`/`ExprId`/`StmtId` stored in a function indexes that
//!   function's arenas;
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
pub mod symbol;
pub mod trip_count;
pub mod types;

pub use crate::span::Span;
pub use crate::vocab::{BinaryOp, Direction, FuncKind, LoopKind, UnaryOp};
pub use arena::{Arena, ArenaId, SecondaryMap};
pub use comments::{Anchor, Attached, Comment, CommentTable};
use hashbrown::HashMap;
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

/// The variables a statement binds: inline up to two (a `submit` of a
/// one-result function binds its result and its task id), so the common
/// statement allocates no list.
pub type VarList = SmallVec<[VarId; 2]>;

/// A short list of expressions (`deps`), inline up to two.
pub type ExprList = SmallVec<[ExprId; 2]>;

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
    /// The names of the variables.
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
            names: NameTable::new(),
            types: TypeTable::default(),
            comments: CommentTable::default(),
            extent_uses: Vec::new(),
        }
    }

    pub fn new_var(&mut self, name: impl AsRef<str>, ty: Type, span: Span) -> VarId {
        let name = self.names.add(name.as_ref());
        let ty = self.types.intern(ty);
        self.vars.alloc(Var { name, ty, span })
    }

    pub fn new_expr(&mut self, kind: ExprKind, ty: Type, span: Span) -> ExprId {
        let ty = self.types.intern(ty);
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
#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<StmtId>,
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

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Bool(bool),
    /// `none`: the invalid task id.
    None,
    /// A scalar type used as a value: `array.create(4, task_id)`.
    Dtype(ScalarType),
    Var(VarId),
    Unary(UnaryOp, ExprId),
    Binary(BinaryOp, ExprId, ExprId),
    Call(Box<Call>),
    /// `[a, b]`, only as a call argument.
    List(Vec<ExprId>),
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// An op: `array.create`, `system.task_dummy`, `tensor.load`, ...
    Op(String),
    /// A function of the module.
    Function(FuncId),
}

impl Callee {
    /// The op's name, or the function's name in `module`.
    pub fn name<'m>(&'m self, module: &'m Module) -> &'m str {
        match self {
            Callee::Op(n) => n,
            Callee::Function(id) => module.func_name(*id),
        }
    }

    /// The op's name, if this is an op.
    pub fn op(&self) -> Option<&str> {
        match self {
            Callee::Op(n) => Some(n),
            Callee::Function(_) => None,
        }
    }
}

/// A plain call (of an op or a function), evaluated for its value.
#[derive(Clone, Debug)]
pub struct Call {
    pub callee: Callee,
    pub args: Vec<ExprId>,
    /// One per positional argument, resolved from the callee's signature
    /// (`In` for ops).
    pub arg_directions: Vec<Direction>,
    /// Keyword arguments of ops other than `system.task_dummy`, in source order.
    pub kwargs: Vec<(String, ExprId)>,
    /// `attrs["dummy_task"]`: set on `system.task_dummy` barriers.
    pub dummy_task: bool,
    /// `attrs["manual_dep_edges"]`: only a `system.task_dummy` call may carry
    /// entries (ManualDepsOnSubmitOnly).
    pub manual_dep_edges: Vec<ExprId>,
}

impl Call {
    pub fn new(callee: Callee) -> Call {
        Call {
            callee,
            args: Vec::new(),
            arg_directions: Vec::new(),
            kwargs: Vec::new(),
            dummy_task: false,
            manual_dep_edges: Vec::new(),
        }
    }
}

/// `iter(var = init)`: a loop-carried value.
#[derive(Clone, Debug)]
pub struct IterArg {
    pub var: VarId,
    pub init: ExprId,
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
    /// The function launched.
    pub callee: FuncId,
    pub callee_span: Span,
    pub args: Vec<ExprId>,
    pub arg_directions: Vec<Direction>,
    /// The manual dependency edges (`none` entries already dropped).
    pub deps: ExprList,
    pub core_num: Option<ExprId>,
    /// Absent when `false` (the default).
    pub sync_start: Option<ExprId>,
    /// Absent when `false` (the default).
    pub allow_early_resolve: Option<ExprId>,
    pub predicate: Option<ExprId>,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `a, b = expr`.
    Assign {
        results: VarList,
        value: ExprId,
    },
    Submit(Submit),
    /// A call evaluated for effect (the expression is always a call).
    Eval(ExprId),
    For {
        results: VarList,
        kind: LoopKind,
        var: VarId,
        start: ExprId,
        stop: ExprId,
        step: ExprId,
        iter_args: Vec<IterArg>,
        body: Block,
    },
    While {
        results: VarList,
        cond: ExprId,
        iter_args: Vec<IterArg>,
        body: Block,
    },
    If {
        results: VarList,
        cond: ExprId,
        then_body: Block,
        else_body: Option<Block>,
    },
    /// `manual "name" { }` (manual = true) or `auto { }`.
    Scope {
        manual: bool,
        name: Option<String>,
        body: Block,
    },
    Yield(Vec<ExprId>),
    Return(Vec<ExprId>),
    Break,
    Continue,
}

impl StmtKind {
    /// The blocks directly nested in this statement, in source order.
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::Scope { body, .. } => {
                vec![body]
            }
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                let mut v = vec![then_body];
                v.extend(else_body.iter());
                v
            }
            _ => Vec::new(),
        }
    }

    /// The variables this statement binds in the enclosing block.
    pub fn results(&self) -> &[VarId] {
        match self {
            StmtKind::Assign { results, .. }
            | StmtKind::For { results, .. }
            | StmtKind::While { results, .. }
            | StmtKind::If { results, .. } => results,
            StmtKind::Submit(s) => &s.results,
            _ => &[],
        }
    }
}
