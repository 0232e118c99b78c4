//! A recursive-descent reader of the Python PyPTO's DSL is written in
//! (see [`super::py_ast`]): statements by Python's layout tokens,
//! expressions by Python's precedence (`or` < `and` < `not` <
//! comparisons < `|` < `^` < `&` < shifts < `+ -` < `* / // % @` <
//! unary < `**` < calls, attributes, subscripts). It stops at the first
//! syntax error, with its position; nesting deeper than [`MAX_DEPTH`] is
//! an error rather than a deep recursion.

use super::py_ast::{Expr, ExprKind, Param, Stmt, StmtKind};
use super::py_lexer::{Tok, Token, lex};
use crate::diagnostics::{Code, Diagnostic};
use crate::span::Span;

/// The deepest nesting of blocks and expressions read.
pub const MAX_DEPTH: usize = 500;

/// The statements of a Python module.
pub fn parse(text: &str) -> Result<Vec<Stmt>, Diagnostic> {
    let toks = lex(text);
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let mut body = Vec::new();
    while !p.at(&Tok::Eof) {
        if p.eat(&Tok::Newline) {
            continue;
        }
        body.push(p.stmt()?);
    }
    Ok(body)
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

type R<T> = Result<T, Diagnostic>;

fn join(a: Span, b: Span) -> Span {
    Span::new(a.start(), b.end().max(a.start()))
}

impl Parser {
    fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn at(&self, t: &Tok) -> bool {
        &self.peek().tok == t
    }

    fn at_op(&self, op: &str) -> bool {
        matches!(&self.peek().tok, Tok::Op(o) if *o == op)
    }

    fn at_name(&self, name: &str) -> bool {
        matches!(&self.peek().tok, Tok::Name(n) if n == name)
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.at(t) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if self.at_op(op) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn error<T>(&self, what: &str) -> R<T> {
        let t = self.peek();
        let found = match &t.tok {
            Tok::Name(n) => format!("`{n}`"),
            Tok::Int(n) => format!("`{n}`"),
            Tok::Float(x) => format!("`{x}`"),
            Tok::Str(_) => "a string".to_string(),
            Tok::Op(o) => format!("`{o}`"),
            Tok::Newline => "the end of the line".to_string(),
            Tok::Indent => "an indented block".to_string(),
            Tok::Dedent => "the end of the block".to_string(),
            Tok::Error(e) => e.clone(),
            Tok::Eof => "the end of the file".to_string(),
        };
        let code = if t.tok == Tok::Eof {
            Code::UnexpectedEof
        } else {
            Code::UnexpectedToken
        };
        Err(Diagnostic::error(
            format!("Python syntax: expected {what}, found {found}"),
            t.span,
        )
        .with_code(code)
        .with_label("unexpected here"))
    }

    fn expect_op(&mut self, op: &str) -> R<Span> {
        if self.at_op(op) {
            Ok(self.bump().span)
        } else {
            self.error(&format!("`{op}`"))
        }
    }

    fn name(&mut self) -> R<(String, Span)> {
        match self.peek().tok.clone() {
            Tok::Name(n) => {
                let span = self.bump().span;
                Ok((n, span))
            }
            _ => self.error("a name"),
        }
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let t = self.peek();
            return Err(Diagnostic::error(
                format!("nesting is deeper than the limit of {MAX_DEPTH} levels"),
                t.span,
            )
            .with_code(Code::TooDeep));
        }
        Ok(())
    }

    fn end_of_statement(&mut self) -> R<()> {
        if self.eat(&Tok::Newline) || self.at(&Tok::Eof) || self.at(&Tok::Dedent) {
            Ok(())
        } else if self.at_op(";") {
            self.error("the end of the statement (one statement per line)")
        } else {
            self.error("the end of the statement")
        }
    }

    /// An indented block after `:` (or a simple statement on the same line).
    fn block(&mut self) -> R<Vec<Stmt>> {
        crate::stack::ensure(|| self.block_here())
    }

    fn block_here(&mut self) -> R<Vec<Stmt>> {
        self.expect_op(":")?;
        self.enter()?;
        let mut body = Vec::new();
        if self.eat(&Tok::Newline) {
            if !self.eat(&Tok::Indent) {
                return self.error("an indented block");
            }
            while !self.eat(&Tok::Dedent) {
                if self.at(&Tok::Eof) {
                    break;
                }
                body.push(self.stmt()?);
            }
        } else {
            body.push(self.simple_stmt()?);
        }
        self.depth -= 1;
        Ok(body)
    }

    fn stmt(&mut self) -> R<Stmt> {
        let start = self.peek().span;
        if self.at_op("@") {
            let mut decorators = Vec::new();
            while self.eat_op("@") {
                decorators.push(self.expr()?);
                self.end_of_statement()?;
            }
            if self.at_name("class") {
                return self.class(start, decorators);
            }
            if self.at_name("def") {
                return self.def(start, decorators);
            }
            return self.error("`def` or `class` after a decorator");
        }
        if self.at_name("class") {
            return self.class(start, Vec::new());
        }
        if self.at_name("def") {
            return self.def(start, Vec::new());
        }
        if self.at_name("if") {
            self.bump();
            return self.if_rest(start);
        }
        if self.at_name("for") {
            self.bump();
            let target = self.target_list()?;
            if !self.at_name("in") {
                return self.error("`in`");
            }
            self.bump();
            let iter = self.expr_list()?;
            let body = self.block()?;
            return Ok(Stmt {
                span: join(start, iter.span),
                kind: StmtKind::For { target, iter, body },
            });
        }
        if self.at_name("while") {
            self.bump();
            let cond = self.expr()?;
            let body = self.block()?;
            return Ok(Stmt {
                span: join(start, cond.span),
                kind: StmtKind::While { cond, body },
            });
        }
        if self.at_name("with") {
            self.bump();
            let item = self.expr()?;
            if self.at_name("as") || self.at_op(",") {
                return Err(Diagnostic::error(
                    "a `with` statement of the DSL has one item and no `as`".to_string(),
                    self.peek().span,
                )
                .with_code(Code::NoTranslation)
                .with_label("not translatable"));
            }
            let body = self.block()?;
            return Ok(Stmt {
                span: join(start, item.span),
                kind: StmtKind::With { item, body },
            });
        }
        for keyword in ["try", "async", "match"] {
            if self.at_name(keyword) && keyword != "match" {
                return Ok(Stmt {
                    kind: StmtKind::Other(keyword.to_string()),
                    span: self.bump().span,
                });
            }
        }
        let s = self.simple_stmt()?;
        Ok(s)
    }

    fn if_rest(&mut self, start: Span) -> R<Stmt> {
        let cond = self.expr()?;
        let body = self.block()?;
        let mut orelse = Vec::new();
        if self.at_name("elif") {
            let at = self.bump().span;
            orelse.push(self.if_rest(at)?);
        } else if self.at_name("else") {
            self.bump();
            orelse = self.block()?;
        }
        Ok(Stmt {
            span: join(start, cond.span),
            kind: StmtKind::If { cond, body, orelse },
        })
    }

    fn class(&mut self, start: Span, decorators: Vec<Expr>) -> R<Stmt> {
        self.bump();
        let (name, name_span) = self.name()?;
        if self.eat_op("(") {
            while !self.eat_op(")") {
                self.expr()?;
                if !self.eat_op(",") && !self.at_op(")") {
                    return self.error("`,` or `)`");
                }
            }
        }
        let body = self.block()?;
        Ok(Stmt {
            span: join(start, name_span),
            kind: StmtKind::Class {
                name,
                decorators,
                body,
            },
        })
    }

    fn def(&mut self, start: Span, decorators: Vec<Expr>) -> R<Stmt> {
        self.bump();
        let (name, name_span) = self.name()?;
        self.expect_op("(")?;
        let mut params = Vec::new();
        while !self.at_op(")") {
            let (pname, span) = self.name()?;
            let annotation = if self.eat_op(":") {
                Some(self.expr()?)
            } else {
                None
            };
            if self.eat_op("=") {
                self.expr()?;
                return Err(Diagnostic::error(
                    "a parameter's default value".to_string() + " has no form in `.pfir`",
                    span,
                )
                .with_code(Code::NoTranslation)
                .with_label("not translatable"));
            }
            params.push(Param {
                name: pname,
                annotation,
                span,
            });
            if !self.eat_op(",") && !self.at_op(")") {
                return self.error("`,` or `)`");
            }
        }
        self.expect_op(")")?;
        let returns = if self.eat_op("->") {
            Some(self.expr()?)
        } else {
            None
        };
        let body = self.block()?;
        Ok(Stmt {
            span: join(start, name_span),
            kind: StmtKind::Def {
                name,
                decorators,
                params,
                returns,
                body,
            },
        })
    }

    fn simple_stmt(&mut self) -> R<Stmt> {
        let start = self.peek().span;
        let keyword = match &self.peek().tok {
            Tok::Name(n) => n.clone(),
            _ => String::new(),
        };
        let kind = match keyword.as_str() {
            "pass" => {
                self.bump();
                StmtKind::Pass
            }
            "break" => {
                self.bump();
                StmtKind::Break
            }
            "continue" => {
                self.bump();
                StmtKind::Continue
            }
            "return" => {
                self.bump();
                if self.at(&Tok::Newline) || self.at(&Tok::Eof) || self.at(&Tok::Dedent) {
                    StmtKind::Return(None)
                } else {
                    StmtKind::Return(Some(self.expr_list()?))
                }
            }
            "import" | "from" => {
                while !self.at(&Tok::Newline) && !self.at(&Tok::Eof) {
                    self.bump();
                }
                StmtKind::Import
            }
            "assert" | "del" | "global" | "nonlocal" | "raise" | "yield" | "lambda" => {
                while !self.at(&Tok::Newline) && !self.at(&Tok::Eof) {
                    self.bump();
                }
                StmtKind::Other(keyword)
            }
            _ => {
                let target = self.expr_list()?;
                if self.eat_op(":") {
                    let annotation = self.expr()?;
                    let value = if self.eat_op("=") {
                        Some(self.expr_list()?)
                    } else {
                        None
                    };
                    StmtKind::AnnAssign {
                        target,
                        annotation,
                        value,
                    }
                } else if self.eat_op("=") {
                    let value = self.expr_list()?;
                    if self.at_op("=") {
                        return self.error("the end of the statement (one `=` per assignment)");
                    }
                    StmtKind::Assign { target, value }
                } else if let Tok::Op(op) = self.peek().tok
                    && op.len() >= 2
                    && op.ends_with('=')
                    && !matches!(op, "==" | "!=" | "<=" | ">=")
                {
                    self.bump();
                    self.expr_list()?;
                    StmtKind::Other(op.to_string())
                } else {
                    StmtKind::Expr(target)
                }
            }
        };
        let end = self.toks[self.pos.saturating_sub(1)].span;
        self.end_of_statement()?;
        Ok(Stmt {
            kind,
            span: join(start, end),
        })
    }

    /// The target of a `for`: names and parenthesised tuples of them, up to `in`.
    fn target_list(&mut self) -> R<Expr> {
        let first = self.or_expr_no_in()?;
        if !self.at_op(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.at_name("in") {
                break;
            }
            items.push(self.or_expr_no_in()?);
        }
        let span = join(items[0].span, items[items.len() - 1].span);
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }

    /// A primary for a `for` target (no `in` comparison).
    fn or_expr_no_in(&mut self) -> R<Expr> {
        self.unary()
    }

    /// `a, b` (a tuple) or one expression.
    fn expr_list(&mut self) -> R<Expr> {
        let first = self.expr()?;
        if !self.at_op(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.at(&Tok::Newline) || self.at_op("=") || self.at_op(":") || self.at(&Tok::Eof) {
                break;
            }
            items.push(self.expr()?);
        }
        let span = join(items[0].span, items[items.len() - 1].span);
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }

    fn expr(&mut self) -> R<Expr> {
        crate::stack::ensure(|| self.expr_here())
    }

    fn expr_here(&mut self) -> R<Expr> {
        self.enter()?;
        let e = self.or_test();
        self.depth -= 1;
        let e = e?;
        if self.at_name("if") {
            // `x if c else y`
            let span = e.span;
            self.bump();
            self.or_test()?;
            if self.at_name("else") {
                self.bump();
                self.expr()?;
            }
            return Ok(Expr {
                kind: ExprKind::Other("a conditional expression `x if c else y`"),
                span,
            });
        }
        Ok(e)
    }

    fn binary_level(&mut self, ops: &[&'static str], next: fn(&mut Parser) -> R<Expr>) -> R<Expr> {
        let mut left = next(self)?;
        loop {
            let op = match &self.peek().tok {
                Tok::Op(o) if ops.contains(o) => *o,
                Tok::Name(n) if ops.contains(&n.as_str()) => {
                    if n == "and" {
                        "and"
                    } else {
                        "or"
                    }
                }
                _ => return Ok(left),
            };
            self.bump();
            self.enter()?;
            let right = next(self);
            self.depth -= 1;
            let right = right?;
            let span = join(left.span, right.span);
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                span,
            };
        }
    }

    fn or_test(&mut self) -> R<Expr> {
        self.binary_level(&["or"], Parser::and_test)
    }

    fn and_test(&mut self) -> R<Expr> {
        crate::stack::ensure(|| self.and_test_here())
    }

    fn and_test_here(&mut self) -> R<Expr> {
        self.binary_level(&["and"], Parser::not_test)
    }

    fn not_test(&mut self) -> R<Expr> {
        crate::stack::ensure(|| self.not_test_here())
    }

    fn not_test_here(&mut self) -> R<Expr> {
        if self.at_name("not") {
            let start = self.bump().span;
            self.enter()?;
            let e = self.not_test();
            self.depth -= 1;
            let e = e?;
            return Ok(Expr {
                span: join(start, e.span),
                kind: ExprKind::Unary("not", Box::new(e)),
            });
        }
        self.comparison()
    }

    fn comparison_op(&mut self) -> Option<&'static str> {
        let op = match &self.peek().tok {
            Tok::Op(o) if matches!(*o, "<" | ">" | "==" | ">=" | "<=" | "!=") => *o,
            Tok::Name(n) if n == "in" => "in",
            Tok::Name(n) if n == "is" => "is",
            Tok::Name(n) if n == "not" => {
                let next = self.toks.get(self.pos + 1).map(|t| &t.tok);
                if matches!(next, Some(Tok::Name(n)) if n == "in") {
                    self.bump();
                    "not in"
                } else {
                    return None;
                }
            }
            _ => return None,
        };
        self.bump();
        Some(op)
    }

    fn comparison(&mut self) -> R<Expr> {
        let left = self.bit_or()?;
        let Some(op) = self.comparison_op() else {
            return Ok(left);
        };
        let right = self.bit_or()?;
        let span = join(left.span, right.span);
        if self.comparison_op().is_some() {
            let last = self.bit_or()?;
            let mut more = last.span;
            while self.comparison_op().is_some() {
                more = self.bit_or()?.span;
            }
            return Ok(Expr {
                kind: ExprKind::Chain,
                span: join(span, more),
            });
        }
        Ok(Expr {
            kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
            span,
        })
    }

    fn bit_or(&mut self) -> R<Expr> {
        self.binary_level(&["|"], Parser::bit_xor)
    }

    fn bit_xor(&mut self) -> R<Expr> {
        self.binary_level(&["^"], Parser::bit_and)
    }

    fn bit_and(&mut self) -> R<Expr> {
        self.binary_level(&["&"], Parser::shift)
    }

    fn shift(&mut self) -> R<Expr> {
        self.binary_level(&["<<", ">>"], Parser::arith)
    }

    fn arith(&mut self) -> R<Expr> {
        self.binary_level(&["+", "-"], Parser::term)
    }

    fn term(&mut self) -> R<Expr> {
        crate::stack::ensure(|| self.term_here())
    }

    fn term_here(&mut self) -> R<Expr> {
        self.binary_level(&["*", "/", "//", "%", "@"], Parser::unary)
    }

    fn unary(&mut self) -> R<Expr> {
        crate::stack::ensure(|| self.unary_here())
    }

    fn unary_here(&mut self) -> R<Expr> {
        for op in ["-", "+", "~"] {
            if self.at_op(op) {
                let start = self.bump().span;
                self.enter()?;
                let e = self.unary();
                self.depth -= 1;
                let e = e?;
                let op: &'static str = match op {
                    "-" => "-",
                    "+" => "+",
                    _ => "~",
                };
                return Ok(Expr {
                    span: join(start, e.span),
                    kind: ExprKind::Unary(op, Box::new(e)),
                });
            }
        }
        if self.at_op("*") {
            let span = self.bump().span;
            self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Other("a starred expression"),
                span,
            });
        }
        self.power()
    }

    fn power(&mut self) -> R<Expr> {
        crate::stack::ensure(|| self.power_here())
    }

    fn power_here(&mut self) -> R<Expr> {
        let base = self.postfix()?;
        if self.eat_op("**") {
            self.enter()?;
            let exp = self.unary();
            self.depth -= 1;
            let exp = exp?;
            let span = join(base.span, exp.span);
            return Ok(Expr {
                kind: ExprKind::Binary("**", Box::new(base), Box::new(exp)),
                span,
            });
        }
        Ok(base)
    }

    fn postfix(&mut self) -> R<Expr> {
        let mut e = self.atom()?;
        loop {
            if self.eat_op(".") {
                let (name, span) = self.name()?;
                let full = join(e.span, span);
                e = Expr {
                    kind: ExprKind::Attribute(Box::new(e), name),
                    span: full,
                };
            } else if self.at_op("(") {
                self.bump();
                self.enter()?;
                let mut args = Vec::new();
                let mut kwargs = Vec::new();
                while !self.at_op(")") {
                    let is_kw = matches!(self.peek().tok, Tok::Name(_))
                        && matches!(
                            self.toks.get(self.pos + 1).map(|t| &t.tok),
                            Some(Tok::Op("="))
                        );
                    if is_kw {
                        let (name, _) = self.name()?;
                        self.bump();
                        kwargs.push((name, self.expr()?));
                    } else {
                        args.push(self.expr()?);
                    }
                    if !self.eat_op(",") && !self.at_op(")") {
                        return self.error("`,` or `)`");
                    }
                }
                let close = self.expect_op(")")?;
                self.depth -= 1;
                let span = join(e.span, close);
                e = Expr {
                    kind: ExprKind::Call {
                        func: Box::new(e),
                        args,
                        kwargs,
                    },
                    span,
                };
            } else if self.at_op("[") {
                self.bump();
                self.enter()?;
                let index = self.expr_list()?;
                let close = self.expect_op("]")?;
                self.depth -= 1;
                let span = join(e.span, close);
                e = Expr {
                    kind: ExprKind::Subscript(Box::new(e), Box::new(index)),
                    span,
                };
            } else {
                return Ok(e);
            }
        }
    }

    fn atom(&mut self) -> R<Expr> {
        let t = self.peek().clone();
        let kind = match t.tok {
            Tok::Name(n) => {
                self.bump();
                match n.as_str() {
                    "True" => ExprKind::Bool(true),
                    "False" => ExprKind::Bool(false),
                    "None" => ExprKind::NoneLit,
                    "lambda" | "yield" | "await" => {
                        return Ok(Expr {
                            kind: ExprKind::Other("a `lambda`, `yield` or `await` expression"),
                            span: t.span,
                        });
                    }
                    _ => ExprKind::Name(n),
                }
            }
            Tok::Int(n) => {
                self.bump();
                ExprKind::Int(n)
            }
            Tok::Float(x) => {
                self.bump();
                ExprKind::Float(x)
            }
            Tok::Str(s) => {
                self.bump();
                let mut s = s;
                while let Tok::Str(more) = &self.peek().tok {
                    s.push_str(more);
                    self.bump();
                }
                ExprKind::Str(s)
            }
            Tok::Op("...") => {
                self.bump();
                ExprKind::Other("`...`")
            }
            Tok::Op("(") => {
                self.bump();
                self.enter()?;
                if self.at_op(")") {
                    let close = self.bump().span;
                    self.depth -= 1;
                    return Ok(Expr {
                        kind: ExprKind::Tuple(Vec::new()),
                        span: join(t.span, close),
                    });
                }
                let first = self.expr()?;
                let kind = if self.at_op(",") {
                    let mut items = vec![first];
                    while self.eat_op(",") {
                        if self.at_op(")") {
                            break;
                        }
                        items.push(self.expr()?);
                    }
                    ExprKind::Tuple(items)
                } else {
                    ExprKind::Paren(Box::new(first))
                };
                let close = self.expect_op(")")?;
                self.depth -= 1;
                return Ok(Expr {
                    kind,
                    span: join(t.span, close),
                });
            }
            Tok::Op("[") => {
                self.bump();
                self.enter()?;
                let mut items = Vec::new();
                while !self.at_op("]") {
                    items.push(self.expr()?);
                    if !self.eat_op(",") && !self.at_op("]") {
                        return self.error("`,` or `]`");
                    }
                }
                let close = self.expect_op("]")?;
                self.depth -= 1;
                return Ok(Expr {
                    kind: ExprKind::List(items),
                    span: join(t.span, close),
                });
            }
            Tok::Op("{") => {
                self.bump();
                self.enter()?;
                let mut items = Vec::new();
                while !self.at_op("}") {
                    let k = self.expr()?;
                    self.expect_op(":")?;
                    let v = self.expr()?;
                    items.push((k, v));
                    if !self.eat_op(",") && !self.at_op("}") {
                        return self.error("`,` or `}`");
                    }
                }
                let close = self.expect_op("}")?;
                self.depth -= 1;
                return Ok(Expr {
                    kind: ExprKind::Dict(items),
                    span: join(t.span, close),
                });
            }
            _ => return self.error("an expression"),
        };
        Ok(Expr { kind, span: t.span })
    }
}
