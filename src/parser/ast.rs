//! The surface syntax tree: what the grammar builds, exactly as written.
//!
//! Names are unresolved strings, literals keep their text, and every node has
//! its span. Lowering (`crate::lower`) turns this into the typed IR; nothing
//! else reads the AST. Expression and `else if` chains record their depth so
//! that the parser can refuse input nested deeper than the limit.
//!
//! The tree lives in a bump arena ([`Arena`], created by the caller of
//! [`crate::parser::parse`]): child nodes are `&'a` references and lists
//! are `&'a [T]` slices in the arena, and names and literal texts are
//! borrowed from the source, so one lifetime `'a` covers both. Building a
//! node costs no heap allocation of its own, and the whole tree is freed at
//! once when the arena is dropped (no recursive drop, whatever the
//! nesting). Nodes own no heap data (no `String`, `Vec` or `Box`): the
//! arena never runs destructors.

use crate::span::Span;
use crate::vocab::{BinaryOp, Direction, FuncKind, LoopKind, ScalarType, UnaryOp};

/// The bump arena an AST is allocated in.
pub type Arena = bumpalo::Bump;

/// A list being built in the arena (by the grammar's repetition rules);
/// [`ArenaVec::into_bump_slice`] turns it into the node's slice.
pub type ArenaVec<'a, T> = bumpalo::collections::Vec<'a, T>;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident<'a> {
    pub name: &'a str,
    pub span: Span,
}

/// The functions of a file (or chunk), in order. The list itself is a
/// plain `Vec` (one per module) so that parts parsed separately can be
/// appended; the functions are in the arena.
#[derive(Clone, Debug, Default)]
pub struct Module<'a> {
    pub functions: Vec<&'a Function<'a>>,
    /// The file offsets where the source's lines start (empty when not
    /// known), for messages that name a line ("defined inside the loop at
    /// line 4").
    pub line_starts: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct Function<'a> {
    pub kind: FuncKind,
    pub name: Ident<'a>,
    pub params: &'a [Param<'a>],
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
    Tensor(&'a [ExtentExpr<'a>], ScalarType),
    Tuple(&'a [TypeExpr<'a>]),
}

#[derive(Clone, Debug)]
pub struct TypeExpr<'a> {
    pub kind: TypeExprKind<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Block<'a> {
    pub stmts: &'a [Stmt<'a>],
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
        bindings: &'a [Binding<'a>],
        rhs: Rhs<'a>,
    },
    /// A call evaluated for effect.
    Call(&'a Expr<'a>),
    For(&'a ForLoop<'a>),
    While(&'a WhileLoop<'a>),
    If(&'a IfStmt<'a>),
    Scope(&'a ScopeStmt<'a>),
    Yield(&'a [Expr<'a>]),
    Return(&'a [Expr<'a>]),
    Break,
    Continue,
    /// A statement the parser could not read; its error is already reported.
    Error,
}

/// `manual { ... }` or `auto "name" { ... }`.
#[derive(Clone, Debug)]
pub struct ScopeStmt<'a> {
    pub manual: bool,
    /// The name's value (unescaped) and the span of its literal.
    pub name: Option<(&'a str, Span)>,
    pub body: Block<'a>,
}

#[derive(Clone, Debug)]
pub enum Binding<'a> {
    Name {
        name: Ident<'a>,
        ty: Option<&'a TypeExpr<'a>>,
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
    Expr(&'a Expr<'a>),
    Submit(&'a SubmitExpr<'a>),
    For(&'a ForLoop<'a>),
    While(&'a WhileLoop<'a>),
    If(&'a IfStmt<'a>),
}

#[derive(Clone, Debug)]
pub struct Kwarg<'a> {
    pub name: Ident<'a>,
    pub value: Expr<'a>,
}

/// The arguments of a call or `submit`, split into positional and keyword.
#[derive(Clone, Debug, Default)]
pub struct CallArgs<'a> {
    pub positional: &'a [Expr<'a>],
    pub keyword: &'a [Kwarg<'a>],
    /// Positional arguments written after a keyword argument (an error).
    pub misplaced: &'a [Span],
}

/// One argument as written.
#[derive(Clone, Debug)]
pub enum ArgItem<'a> {
    Positional(Expr<'a>),
    Keyword(Kwarg<'a>),
}

/// The arguments of a call while the parser reads them: each argument goes
/// to its list as it is read, so no list of all the arguments is built.
/// (It sits on the parser's stack: kept smaller than LALRPOP's own error
/// value.)
pub struct CallArgsBuilder<'a> {
    positional: ArenaVec<'a, Expr<'a>>,
    keyword: ArenaVec<'a, Kwarg<'a>>,
    /// How many positional arguments came before the first keyword one.
    before_keywords: Option<usize>,
}

impl<'a> CallArgsBuilder<'a> {
    pub fn new(arena: &'a Arena) -> CallArgsBuilder<'a> {
        CallArgsBuilder {
            positional: ArenaVec::new_in(arena),
            keyword: ArenaVec::new_in(arena),
            before_keywords: None,
        }
    }

    /// Adds the next argument.
    pub fn push(mut self, item: ArgItem<'a>) -> CallArgsBuilder<'a> {
        match item {
            ArgItem::Positional(e) => self.positional.push(e),
            ArgItem::Keyword(k) => {
                self.before_keywords.get_or_insert(self.positional.len());
                self.keyword.push(k);
            }
        }
        self
    }

    /// The lists; the positional arguments written after a keyword argument
    /// are also listed as misplaced.
    pub fn finish(self) -> CallArgs<'a> {
        let arena = self.positional.bump();
        let positional = self.positional.into_bump_slice();
        let after = &positional[self.before_keywords.unwrap_or(positional.len())..];
        let misplaced: &[Span] = if after.is_empty() {
            &[]
        } else {
            arena.alloc_slice_fill_iter(after.iter().map(|e| e.span))
        };
        CallArgs {
            positional,
            keyword: self.keyword.into_bump_slice(),
            misplaced,
        }
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
    pub bounds: &'a [Expr<'a>],
    pub iters: &'a [IterDecl<'a>],
    pub iter_span: Option<Span>,
    pub body: Block<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct WhileLoop<'a> {
    pub cond: Expr<'a>,
    pub iters: &'a [IterDecl<'a>],
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
    If(&'a IfStmt<'a>),
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
    Unary(UnaryOp, &'a Expr<'a>),
    Binary(BinaryOp, &'a Expr<'a>, &'a Expr<'a>),
    Call(&'a CallExpr<'a>),
    List(&'a [Expr<'a>]),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser's stack holds these by value (and lists hold them back to
    /// back), so they must stay small: anything large goes behind an arena
    /// reference.
    #[test]
    fn nodes_stay_small() {
        use std::mem::size_of;
        assert!(
            size_of::<Expr<'_>>() <= 40,
            "Expr: {}",
            size_of::<Expr<'_>>()
        );
        assert!(
            size_of::<Stmt<'_>>() <= 48,
            "Stmt: {}",
            size_of::<Stmt<'_>>()
        );
        assert!(
            size_of::<Binding<'_>>() <= 32,
            "Binding: {}",
            size_of::<Binding<'_>>()
        );
        assert!(
            size_of::<CallArgs<'_>>() <= 48,
            "CallArgs: {}",
            size_of::<CallArgs<'_>>()
        );
        assert!(
            size_of::<TypeExpr<'_>>() <= 48,
            "TypeExpr: {}",
            size_of::<TypeExpr<'_>>()
        );
        assert!(size_of::<Rhs<'_>>() <= 16, "Rhs: {}", size_of::<Rhs<'_>>());
        // The largest value on the parser's stack is LALRPOP's own error
        // value (the `!` productions'); no AST value may outgrow it.
        type Recovery<'a> =
            lalrpop_util::ErrorRecovery<usize, crate::lexer::Tok<'a>, crate::lexer::TooDeep>;
        let limit = size_of::<Recovery<'_>>();
        assert!(
            size_of::<CallArgsBuilder<'_>>() <= limit,
            "CallArgsBuilder: {} > {limit}",
            size_of::<CallArgsBuilder<'_>>()
        );
    }

    #[test]
    fn call_args_are_split_in_order_with_misplaced_positionals() {
        let arena = Arena::new();
        let e = |n: usize| Expr::leaf(ExprKind::Int("1"), Span::new(n, n + 1));
        let k = |n: usize| Kwarg {
            name: Ident {
                name: "k",
                span: Span::new(n, n + 1),
            },
            value: e(n),
        };
        let items = [
            ArgItem::Positional(e(0)),
            ArgItem::Keyword(k(2)),
            ArgItem::Positional(e(4)),
            ArgItem::Keyword(k(6)),
            ArgItem::Positional(e(8)),
        ];
        let args = items
            .into_iter()
            .fold(CallArgsBuilder::new(&arena), CallArgsBuilder::push)
            .finish();
        let starts = |es: &[Expr<'_>]| es.iter().map(|e| e.span.start()).collect::<Vec<_>>();
        assert_eq!(starts(args.positional), [0, 4, 8]);
        assert_eq!(
            args.keyword
                .iter()
                .map(|k| k.name.span.start())
                .collect::<Vec<_>>(),
            [2, 6]
        );
        assert_eq!(
            args.misplaced.iter().map(|s| s.start()).collect::<Vec<_>>(),
            [4, 8]
        );
        let none = CallArgsBuilder::new(&arena).finish();
        assert!(none.positional.is_empty() && none.keyword.is_empty() && none.misplaced.is_empty());
    }
}
