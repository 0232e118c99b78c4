//! The surface syntax tree: what the grammar builds, exactly as written.
//!
//! Names are unresolved strings, literals keep their text, and every node has
//! its span. Lowering (`crate::lower`) turns this into the typed IR; nothing
//! else reads the AST. Expression and `else if` chains record their depth so
//! that the parser can refuse input nested deeper than the limit.

use crate::ir::{BinaryOp, Direction, FuncKind, LoopKind, ScalarType, UnaryOp};
use crate::span::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub functions: Vec<Function>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub kind: FuncKind,
    pub name: Ident,
    pub params: Vec<Param>,
    pub results: Option<TypeExpr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub direction: Direction,
    pub name: Ident,
    pub ty: TypeExpr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExtentExpr {
    /// A literal extent, as written.
    Int(String, Span),
    Name(Ident),
}

#[derive(Clone, Debug)]
pub enum TypeExprKind {
    Scalar(ScalarType),
    Array(ScalarType, ExtentExpr),
    Tensor(Vec<ExtentExpr>, ScalarType),
    Tuple(Vec<TypeExpr>),
}

#[derive(Clone, Debug)]
pub struct TypeExpr {
    pub kind: TypeExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Bind {
        bindings: Vec<Binding>,
        rhs: Rhs,
    },
    /// A call evaluated for effect.
    Call(Expr),
    For(Box<ForLoop>),
    While(Box<WhileLoop>),
    If(Box<IfStmt>),
    Scope {
        manual: bool,
        name: Option<(String, Span)>,
        body: Block,
    },
    Yield(Vec<Expr>),
    Return(Vec<Expr>),
    Break,
    Continue,
    /// A statement the parser could not read; its error is already reported.
    Error,
}

#[derive(Clone, Debug)]
pub enum Binding {
    Name { name: Ident, ty: Option<TypeExpr> },
    Discard(Span),
}

impl Binding {
    pub fn span(&self) -> Span {
        match self {
            Binding::Name { name, ty: Some(t) } => name.span.to(t.span),
            Binding::Name { name, ty: None } => name.span,
            Binding::Discard(s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Rhs {
    Expr(Expr),
    Submit(Box<SubmitExpr>),
    For(Box<ForLoop>),
    While(Box<WhileLoop>),
    If(Box<IfStmt>),
}

#[derive(Clone, Debug)]
pub struct Kwarg {
    pub name: Ident,
    pub value: Expr,
}

/// The arguments of a call or `submit`, split into positional and keyword.
#[derive(Clone, Debug, Default)]
pub struct CallArgs {
    pub positional: Vec<Expr>,
    pub keyword: Vec<Kwarg>,
    /// Positional arguments written after a keyword argument (an error).
    pub misplaced: Vec<Span>,
}

pub enum ArgItem {
    Positional(Expr),
    Keyword(Kwarg),
}

impl CallArgs {
    pub fn from_items(items: Vec<ArgItem>) -> CallArgs {
        let mut args = CallArgs::default();
        for item in items {
            match item {
                ArgItem::Positional(e) => {
                    if !args.keyword.is_empty() {
                        args.misplaced.push(e.span);
                    }
                    args.positional.push(e);
                }
                ArgItem::Keyword(k) => args.keyword.push(k),
            }
        }
        args
    }
}

#[derive(Clone, Debug)]
pub struct SubmitExpr {
    pub callee: Ident,
    /// The callee was written as an op name (`submit array.create(...)`),
    /// which lowering rejects.
    pub callee_is_op: bool,
    pub args: CallArgs,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct IterDecl {
    pub name: Ident,
    pub ty: Option<TypeExpr>,
    pub init: Expr,
}

#[derive(Clone, Debug)]
pub struct ForLoop {
    pub var: Ident,
    pub kind: LoopKind,
    pub kind_span: Span,
    /// One to three bounds, as written.
    pub bounds: Vec<Expr>,
    pub iters: Vec<IterDecl>,
    pub iter_span: Option<Span>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct WhileLoop {
    pub cond: Expr,
    pub iters: Vec<IterDecl>,
    pub iter_span: Option<Span>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct IfStmt {
    pub cond: Expr,
    pub then_body: Block,
    pub else_body: Option<Else>,
    pub span: Span,
    /// 1 + the depth of the `else if` chain below it.
    pub depth: usize,
}

#[derive(Clone, Debug)]
pub enum Else {
    Block(Block),
    If(Box<IfStmt>),
}

/// `name(...)` or `op.name(...)`.
#[derive(Clone, Debug)]
pub struct CallExpr {
    pub callee: CalleeName,
    pub args: CallArgs,
}

#[derive(Clone, Debug)]
pub enum CalleeName {
    /// `name(...)`: a function of the module.
    Function(Ident),
    /// `a.b(...)`: an op.
    Op(Ident),
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(String),
    Float(String),
    Bool(bool),
    None,
    Dtype(ScalarType),
    Name(String),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Call(Box<CallExpr>),
    List(Vec<Expr>),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Height of this expression tree (a leaf is 1).
    pub depth: usize,
}

impl Expr {
    pub fn leaf(kind: ExprKind, span: Span) -> Expr {
        Expr {
            kind,
            span,
            depth: 1,
        }
    }

    pub fn is_call(&self) -> bool {
        matches!(self.kind, ExprKind::Call(_))
    }
}
