//! Helpers the grammar's actions call: depth-checked node construction and
//! string unescaping.

use super::ast::{Arena, Else, Expr, ExprKind, IfStmt};
use crate::lexer::{MAX_NESTING, Tok};
use crate::span::Span;
use crate::vocab::{BinaryOp, UnaryOp};
use lalrpop_util::ParseError;

/// A node (or a bracket, found by the lexer) would be nested deeper than
/// [`MAX_NESTING`].
pub type SyntaxError = crate::lexer::TooDeep;

type Result<'input, T> = std::result::Result<T, ParseError<usize, Tok<'input>, SyntaxError>>;

fn check_depth<'input>(depth: usize, span: Span) -> Result<'input, ()> {
    if depth > MAX_NESTING {
        Err(ParseError::User {
            error: SyntaxError { span },
        })
    } else {
        Ok(())
    }
}

pub fn binary<'input>(
    arena: &'input Arena,
    a: Expr<'input>,
    op: BinaryOp,
    b: Expr<'input>,
    span: Span,
) -> Result<'input, Expr<'input>> {
    let depth = 1 + a.depth.max(b.depth);
    check_depth(depth, span)?;
    Ok(Expr {
        kind: ExprKind::Binary(op, arena.alloc(a), arena.alloc(b)),
        span,
        depth,
    })
}

pub fn unary<'input>(
    arena: &'input Arena,
    op: UnaryOp,
    e: Expr<'input>,
    span: Span,
) -> Result<'input, Expr<'input>> {
    let depth = 1 + e.depth;
    check_depth(depth, span)?;
    Ok(Expr {
        kind: ExprKind::Unary(op, arena.alloc(e)),
        span,
        depth,
    })
}

pub fn else_if<'input>(
    arena: &'input Arena,
    cond: Expr<'input>,
    then_body: super::ast::Block<'input>,
    else_if: &'input IfStmt<'input>,
    span: Span,
) -> Result<'input, &'input IfStmt<'input>> {
    let depth = 1 + else_if.depth;
    check_depth(depth, span)?;
    Ok(arena.alloc(IfStmt {
        cond,
        then_body,
        else_body: Some(Else::If(else_if)),
        span,
        depth,
    }))
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
