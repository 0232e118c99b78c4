//! Helpers the grammar's actions call: depth-checked node construction and
//! string unescaping.

use super::ast::{Else, Expr, ExprKind, IfStmt};
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
    a: Expr<'input>,
    op: BinaryOp,
    b: Expr<'input>,
    span: Span,
) -> Result<'input, Expr<'input>> {
    let depth = 1 + a.depth.max(b.depth);
    check_depth(depth, span)?;
    Ok(Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        span,
        depth,
    })
}

pub fn unary<'input>(op: UnaryOp, e: Expr<'input>, span: Span) -> Result<'input, Expr<'input>> {
    let depth = 1 + e.depth;
    check_depth(depth, span)?;
    Ok(Expr {
        kind: ExprKind::Unary(op, Box::new(e)),
        span,
        depth,
    })
}

pub fn else_if<'input>(
    cond: Expr<'input>,
    then_body: super::ast::Block<'input>,
    else_if: Box<IfStmt<'input>>,
    span: Span,
) -> Result<'input, Box<IfStmt<'input>>> {
    let depth = 1 + else_if.depth;
    check_depth(depth, span)?;
    Ok(Box::new(IfStmt {
        cond,
        then_body,
        else_body: Some(Else::If(else_if)),
        span,
        depth,
    }))
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
