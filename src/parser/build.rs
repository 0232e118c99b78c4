//! Helpers the grammar's actions call: depth-checked node construction,
//! literal values, the right-hand side of a binding statement, and string
//! unescaping.

use super::ast::{
    Arena, Assign, BinaryExpr, Binding, Block, Else, Expr, ExprKind, ForLoop, IfStmt, ScopeStmt,
    Scratch, Stmt, StmtKind, SubmitStmt, UnaryExpr, Values, WhileLoop,
};
use crate::lexer::{MAX_NESTING, Tok};
use crate::span::Span;
use crate::vocab::{BinaryOp, UnaryOp};
use lalrpop_util::ParseError;

/// A node (or a bracket, found by the lexer) would be nested deeper than
/// the nesting limit ([`MAX_NESTING`]).
pub type SyntaxError = crate::lexer::TooDeep;

type Result<'input, T> = std::result::Result<T, ParseError<usize, Tok<'input>, SyntaxError>>;

fn check_depth<'input>(depth: u32, span: Span) -> Result<'input, ()> {
    if depth as usize > MAX_NESTING {
        Err(ParseError::User {
            error: SyntaxError { span },
        })
    } else {
        Ok(())
    }
}

/// A leaf (or call, or list) expression, counted for
/// [`super::ast::Function::counts`].
pub fn leaf<'input>(
    scratch: &mut Scratch<'input>,
    kind: ExprKind<'input>,
    span: Span,
) -> Expr<'input> {
    scratch.count_exprs(1);
    Expr::leaf(kind, span)
}

/// An integer literal's value (lowering reports one that does not fit).
pub fn int_literal<'input>(text: &str) -> ExprKind<'input> {
    match text.parse::<i64>() {
        Ok(v) => ExprKind::Int(v),
        Err(_) => ExprKind::IntOutOfRange,
    }
}

/// A float literal's value: infinite when it does not fit in `f64` (which
/// lowering reports).
pub fn float_literal<'input>(text: &str) -> ExprKind<'input> {
    ExprKind::Float(text.parse::<f64>().unwrap_or(f64::INFINITY))
}

pub fn binary<'input>(
    arena: &'input Arena,
    scratch: &mut Scratch<'input>,
    lhs: Expr<'input>,
    op: BinaryOp,
    rhs: Expr<'input>,
    span: Span,
) -> Result<'input, Expr<'input>> {
    let depth = 1 + lhs.depth().max(rhs.depth());
    check_depth(depth, span)?;
    scratch.count_exprs(1);
    Ok(Expr {
        kind: ExprKind::Binary(arena.alloc(BinaryExpr {
            op,
            lhs,
            rhs,
            depth,
        })),
        span,
    })
}

pub fn unary<'input>(
    arena: &'input Arena,
    scratch: &mut Scratch<'input>,
    op: UnaryOp,
    operand: Expr<'input>,
    span: Span,
) -> Result<'input, Expr<'input>> {
    let depth = 1 + operand.depth();
    check_depth(depth, span)?;
    scratch.count_exprs(1);
    Ok(Expr {
        kind: ExprKind::Unary(arena.alloc(UnaryExpr { op, operand, depth })),
        span,
    })
}

pub fn else_if<'input>(
    arena: &'input Arena,
    cond: Expr<'input>,
    then_body: super::ast::Block<'input>,
    else_if: &'input IfStmt<'input>,
    span: Span,
) -> Result<'input, &'input mut IfStmt<'input>> {
    let depth = 1 + else_if.depth;
    check_depth(depth, span)?;
    Ok(arena.alloc(IfStmt {
        bindings: &[],
        cond,
        then_body,
        else_body: Some(Else::If(else_if)),
        span,
        depth,
    }))
}

/// The right-hand side of `bindings = ...` while the parser reads it: its
/// node, still open so that it can take the bindings.
pub enum Rhs<'input> {
    Expr(Expr<'input>),
    Submit(&'input mut SubmitStmt<'input>),
    For(&'input mut ForLoop<'input>),
    While(&'input mut WhileLoop<'input>),
    If(&'input mut IfStmt<'input>),
}

impl<'input> Rhs<'input> {
    /// The statement that binds `bindings` to this right-hand side.
    pub fn bind(self, bindings: &'input [Binding<'input>]) -> Pending<'input> {
        Pending::Kind(match self {
            Rhs::Expr(value) => return Pending::Assign(bindings, value),
            Rhs::Submit(s) => {
                s.bindings = bindings;
                StmtKind::Submit(s)
            }
            Rhs::For(l) => {
                l.bindings = bindings;
                StmtKind::For(l)
            }
            Rhs::While(w) => {
                w.bindings = bindings;
                StmtKind::While(w)
            }
            Rhs::If(i) => {
                i.bindings = bindings;
                StmtKind::If(i)
            }
        })
    }
}

/// A statement as its rule read it, before the statement's span is known:
/// the nodes that keep that span (see [`Stmt::span`]) are made by
/// [`Pending::finish`].
pub enum Pending<'input> {
    /// A statement whose span its node gives.
    Kind(StmtKind<'input>),
    Assign(&'input [Binding<'input>], Expr<'input>),
    Scope {
        manual: bool,
        name: Option<(&'input str, Span)>,
        body: Block<'input>,
    },
    Yield(&'input [Expr<'input>]),
    Return(&'input [Expr<'input>]),
    Break,
    Continue,
}

impl<'input> Pending<'input> {
    /// The statement, which spans `span`.
    pub fn finish(self, arena: &'input Arena, span: Span) -> Stmt<'input> {
        let kind = match self {
            Pending::Kind(kind) => kind,
            Pending::Assign(bindings, value) => StmtKind::Assign(arena.alloc(Assign {
                bindings,
                value,
                span,
            })),
            Pending::Scope { manual, name, body } => StmtKind::Scope(arena.alloc(ScopeStmt {
                manual,
                name,
                body,
                span,
            })),
            Pending::Yield(items) => StmtKind::Yield(arena.alloc(Values { items, span })),
            Pending::Return(items) => StmtKind::Return(arena.alloc(Values { items, span })),
            Pending::Break => StmtKind::Break(span),
            Pending::Continue => StmtKind::Continue(span),
        };
        let stmt = Stmt { kind };
        debug_assert_eq!(stmt.span(), span, "a statement's node gives its span");
        stmt
    }
}

/// A list literal of `items`: one item is held without an
/// [`super::ast::Exprs`] node.
pub fn list<'input>(arena: &'input Arena, items: &'input [Expr<'input>]) -> ExprKind<'input> {
    match items {
        [one] => ExprKind::ListOfOne(one),
        _ => ExprKind::List(arena.alloc(super::ast::Exprs { items })),
    }
}

/// The value of a string literal token (with its quotes), in the arena
/// (the token's own text when it has no escape).
pub fn unescape_in<'input>(arena: &'input Arena, token: &'input str) -> &'input str {
    // Without its first and last characters (its quotes).
    let mut quoted = token.chars();
    quoted.next();
    quoted.next_back();
    let inner = quoted.as_str();
    if inner.contains('\\') {
        arena.alloc_str(&unescape(token))
    } else {
        inner
    }
}

/// The value of a string literal token (with its quotes).
pub fn unescape(token: &str) -> String {
    // The quotes are `"`, or curly quotes that recovery read as a string.
    let mut quoted = token.chars();
    quoted.next();
    quoted.next_back();
    let inner = quoted.as_str();
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}
