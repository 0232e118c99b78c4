//! The surface syntax tree: what the grammar builds, exactly as written.
//!
//! Names are unresolved strings, literals keep their text, and every node has
//! its span. Lowering (`crate::lower`) turns this into the typed IR; nothing
//! else reads the AST. Expression and `else if` chains record their depth so
//! that the parser can refuse input nested deeper than the limit.

use crate::span::Span;
use crate::vocab::{BinaryOp, Direction, FuncKind, LoopKind, ScalarType, UnaryOp};

#[derive(Clone, Debug, PartialEq)]
pub struct Ident<'a> {
    pub name: &'a str,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Module<'a> {
    pub functions: Vec<Function<'a>>,
    /// The file offsets where the source's lines start (empty when not
    /// known), for messages that name a line ("defined inside the loop at
    /// line 4").
    pub line_starts: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct Function<'a> {
    pub kind: FuncKind,
    pub name: Ident<'a>,
    pub params: Vec<Param<'a>>,
    pub results: Option<TypeExpr<'a>>,
    pub body: Block<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param<'a> {
    pub direction: Direction,
    pub name: Ident<'a>,
    pub ty: TypeExpr<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExtentExpr<'a> {
    /// A literal extent, as written.
    Int(&'a str, Span),
    Name(Ident<'a>),
}

#[derive(Clone, Debug)]
pub enum TypeExprKind<'a> {
    Scalar(ScalarType),
    Array(ScalarType, ExtentExpr<'a>),
    Tensor(Vec<ExtentExpr<'a>>, ScalarType),
    Tuple(Vec<TypeExpr<'a>>),
}

#[derive(Clone, Debug)]
pub struct TypeExpr<'a> {
    pub kind: TypeExprKind<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Block<'a> {
    pub stmts: Vec<Stmt<'a>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt<'a> {
    pub kind: StmtKind<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind<'a> {
    Bind {
        bindings: Vec<Binding<'a>>,
        rhs: Rhs<'a>,
    },
    /// A call evaluated for effect.
    Call(Expr<'a>),
    For(Box<ForLoop<'a>>),
    While(Box<WhileLoop<'a>>),
    If(Box<IfStmt<'a>>),
    Scope {
        manual: bool,
        name: Option<(String, Span)>,
        body: Block<'a>,
    },
    Yield(Vec<Expr<'a>>),
    Return(Vec<Expr<'a>>),
    Break,
    Continue,
    /// A statement the parser could not read; its error is already reported.
    Error,
}

#[derive(Clone, Debug)]
pub enum Binding<'a> {
    Name {
        name: Ident<'a>,
        ty: Option<TypeExpr<'a>>,
    },
    Discard(Span),
}

impl Binding<'_> {
    pub fn span(&self) -> Span {
        match self {
            Binding::Name { name, ty: Some(t) } => name.span.to(t.span),
            Binding::Name { name, ty: None } => name.span,
            Binding::Discard(s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Rhs<'a> {
    Expr(Expr<'a>),
    Submit(Box<SubmitExpr<'a>>),
    For(Box<ForLoop<'a>>),
    While(Box<WhileLoop<'a>>),
    If(Box<IfStmt<'a>>),
}

#[derive(Clone, Debug)]
pub struct Kwarg<'a> {
    pub name: Ident<'a>,
    pub value: Expr<'a>,
}

/// The arguments of a call or `submit`, split into positional and keyword.
#[derive(Clone, Debug, Default)]
pub struct CallArgs<'a> {
    pub positional: Vec<Expr<'a>>,
    pub keyword: Vec<Kwarg<'a>>,
    /// Positional arguments written after a keyword argument (an error).
    pub misplaced: Vec<Span>,
}

pub enum ArgItem<'a> {
    Positional(Expr<'a>),
    Keyword(Kwarg<'a>),
}

impl<'a> CallArgs<'a> {
    pub fn from_items(items: Vec<ArgItem<'a>>) -> CallArgs<'a> {
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
pub struct SubmitExpr<'a> {
    pub callee: Ident<'a>,
    /// The callee was written as an op name (`submit array.create(...)`),
    /// which lowering rejects.
    pub callee_is_op: bool,
    pub args: CallArgs<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct IterDecl<'a> {
    pub name: Ident<'a>,
    pub ty: Option<TypeExpr<'a>>,
    pub init: Expr<'a>,
}

#[derive(Clone, Debug)]
pub struct ForLoop<'a> {
    pub var: Ident<'a>,
    pub kind: LoopKind,
    pub kind_span: Span,
    /// One to three bounds, as written.
    pub bounds: Vec<Expr<'a>>,
    pub iters: Vec<IterDecl<'a>>,
    pub iter_span: Option<Span>,
    pub body: Block<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct WhileLoop<'a> {
    pub cond: Expr<'a>,
    pub iters: Vec<IterDecl<'a>>,
    pub iter_span: Option<Span>,
    pub body: Block<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct IfStmt<'a> {
    pub cond: Expr<'a>,
    pub then_body: Block<'a>,
    pub else_body: Option<Else<'a>>,
    pub span: Span,
    /// 1 + the depth of the `else if` chain below it.
    pub depth: usize,
}

#[derive(Clone, Debug)]
pub enum Else<'a> {
    Block(Block<'a>),
    If(Box<IfStmt<'a>>),
}

/// `name(...)` or `op.name(...)`.
#[derive(Clone, Debug)]
pub struct CallExpr<'a> {
    pub callee: CalleeName<'a>,
    pub args: CallArgs<'a>,
}

#[derive(Clone, Debug)]
pub enum CalleeName<'a> {
    /// `name(...)`: a function of the module.
    Function(Ident<'a>),
    /// `a.b(...)`: an op.
    Op(Ident<'a>),
}

#[derive(Clone, Debug)]
pub enum ExprKind<'a> {
    Int(&'a str),
    Float(&'a str),
    Bool(bool),
    None,
    Dtype(ScalarType),
    Name(&'a str),
    Unary(UnaryOp, Box<Expr<'a>>),
    Binary(BinaryOp, Box<Expr<'a>>, Box<Expr<'a>>),
    Call(Box<CallExpr<'a>>),
    List(Vec<Expr<'a>>),
}

#[derive(Clone, Debug)]
pub struct Expr<'a> {
    pub kind: ExprKind<'a>,
    pub span: Span,
    /// Height of this expression tree (a leaf is 1).
    pub depth: usize,
}

impl<'a> Expr<'a> {
    pub fn leaf(kind: ExprKind<'a>, span: Span) -> Expr<'a> {
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
