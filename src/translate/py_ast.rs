//! The Python syntax tree of the DSL subset [`super::py_parser`] reads:
//! the statements and expressions PyPTO's programs are written with, each
//! with its byte span. Anything else Python has is parsed where it is
//! cheap (`**`, `//`, bit operators, dicts, chained comparisons) so that
//! the translation can name it in its error.

use crate::span::Span;

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `import a.b as c` / `from a import b as c`: the harness around programs.
    Import,
    Class {
        name: String,
        decorators: Vec<Expr>,
        body: Vec<Stmt>,
    },
    Def {
        name: String,
        decorators: Vec<Expr>,
        params: Vec<Param>,
        returns: Option<Expr>,
        body: Vec<Stmt>,
    },
    /// `target = value` (several `=` are refused by the parser).
    Assign {
        target: Expr,
        value: Expr,
    },
    /// `target: annotation = value`.
    AnnAssign {
        target: Expr,
        annotation: Expr,
        value: Option<Expr>,
    },
    Expr(Expr),
    If {
        cond: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
    },
    For {
        target: Expr,
        iter: Expr,
        body: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
    },
    With {
        item: Expr,
        body: Vec<Stmt>,
    },
    Return(Option<Expr>),
    Pass,
    Break,
    Continue,
    /// A statement the DSL has no use for (`assert`, `del`, `try`, ...):
    /// its keyword.
    Other(String),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub annotation: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Name(String),
    /// The digits of a decimal integer.
    Int(String),
    Float(f64),
    Str(String),
    /// `True`, `False`.
    Bool(bool),
    NoneLit,
    Attribute(Box<Expr>, String),
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
        kwargs: Vec<(String, Expr)>,
    },
    Subscript(Box<Expr>, Box<Expr>),
    /// `a, b` or `(a, b)` or `(a,)`.
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    /// `a + b`, `a and b`, `a < b` (a chain `a < b < c` is
    /// [`ExprKind::Chain`]): the operator as written.
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// `a < b < c`.
    Chain,
    /// `-a`, `not a`, `~a`, `+a`.
    Unary(&'static str, Box<Expr>),
    /// Parenthesised: `(a)`.
    Paren(Box<Expr>),
    /// What the DSL has no use for (`lambda`, `x if c else y`, `*args`).
    Other(&'static str),
}
