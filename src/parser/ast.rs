//! The surface syntax tree: what the grammar builds, exactly as written.
//!
//! Names are unresolved, literals keep their value, and every node has its
//! span. Lowering (`crate::lower`) turns this into the typed IR; nothing
//! else reads the AST. Expression and `else if` chains record their depth so
//! that the parser can refuse input nested deeper than the limit.
//!
//! The tree lives in a bump arena ([`Arena`], created by the caller of
//! [`crate::parser::parse`]): child nodes are `&'a` references and lists
//! are `&'a [T]` slices in the arena, so one lifetime `'a` covers the tree
//! and the source it was read from. Building a node costs no heap
//! allocation of its own, and the whole tree is freed at once when the
//! arena is dropped (no recursive drop, whatever the nesting). Nodes own no
//! heap data (no `String`, `Vec` or `Box`): the arena never runs
//! destructors.
//!
//! The nodes are kept small (`tests::nodes_stay_small` pins their sizes):
//! an identifier is only its span ([`Ident`], 8 bytes), its text read from
//! the source ([`Source::text`]); rare parts (a typed binding, an operator
//! node, a list) sit behind a reference; the bindings of a statement are in
//! the node of its right-hand side. Lists are built on reusable stacks
//! outside the arena ([`Scratch`]) and copied into it once, at their exact
//! length, so the arena holds no abandoned list buffers.

use crate::span::Span;
use crate::vocab::{BinaryOp, Direction, FuncKind, LoopKind, ScalarType, UnaryOp};
use std::marker::PhantomData;
use std::num::NonZeroU32;

/// The bump arena an AST is allocated in.
pub type Arena = bumpalo::Bump;

/// The arena for parsing `source_len` bytes: its first chunk is sized from
/// the source (about what a program of `submit` statements needs, with a
/// fifth to spare), so that a large file does not grow the arena through a
/// series of doubling chunks whose last one is mostly empty. A denser
/// program gets a second chunk; its untouched part is not resident.
pub fn arena_for(source_len: usize) -> Arena {
    Arena::with_capacity(source_len.saturating_mul(ARENA_BYTES_PER_KIB_OF_SOURCE) / 1024)
}

/// The first chunk of [`arena_for`], per KiB of source: 3.5 bytes per
/// source byte. A file of `a, t = submit k(deps=[d])` statements (about 50
/// bytes of source each, with their indentation) uses about 2.9 (about 150
/// bytes of nodes per statement: see `tests::nodes_stay_small`).
pub const ARENA_BYTES_PER_KIB_OF_SOURCE: usize = 3584;

/// The text a module was parsed from: the tree's identifiers are spans
/// into it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Source<'a> {
    /// The parsed text (a whole file, or a `// -----` chunk of it).
    pub text: &'a str,
    /// The file offset where `text` starts (spans are file offsets).
    pub base: usize,
}

impl<'a> Source<'a> {
    /// The text of an identifier (empty if it is not in the source, which
    /// no parsed identifier is).
    pub fn text(&self, id: Ident) -> &'a str {
        let span = id.span();
        let (Some(start), Some(end)) = (
            span.start().checked_sub(self.base),
            span.end().checked_sub(self.base),
        ) else {
            return "";
        };
        self.text.get(start..end).unwrap_or("")
    }
}

/// A name as written: its span in the source (the parser's name tokens are
/// exactly the source text at their span, also after recovery's repairs);
/// read it with [`Source::text`]. The end is never zero (a name is not
/// empty), which lets an `Option<Ident>` take 8 bytes too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ident {
    start: u32,
    end: NonZeroU32,
}

impl Ident {
    /// The name at the file range `start..end`.
    pub fn new(start: usize, end: usize) -> Ident {
        let span = Span::new(start, end);
        Ident {
            start: span.start() as u32,
            end: NonZeroU32::new(span.end() as u32).unwrap_or(NonZeroU32::MIN),
        }
    }

    pub fn span(self) -> Span {
        Span::new(self.start as usize, self.end.get() as usize)
    }
}

/// The functions of a file (or chunk), in order. The list itself is a
/// plain `Vec` (one per module) so that parts parsed separately can be
/// appended; the functions are in the arena.
#[derive(Clone, Debug, Default)]
pub struct Module<'a> {
    pub functions: Vec<&'a Function<'a>>,
    /// The text the identifiers point into.
    pub source: Source<'a>,
}

#[derive(Clone, Copy, Debug)]
pub struct Function<'a> {
    pub kind: FuncKind,
    pub name: Ident,
    pub params: &'a [Param<'a>],
    pub results: Option<TypeExpr<'a>>,
    pub body: Block<'a>,
    pub span: Span,
    /// How many nodes the parser built for this function, for sizing its
    /// IR up front.
    pub counts: NodeCounts,
}

/// Node counts of a function, as the parser saw them (see
/// [`Function::counts`]): estimates of what its IR holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeCounts {
    pub stmts: u32,
    /// The `submit` statements among `stmts`.
    pub submits: u32,
    /// Expressions, with the two literals a one-bound `for` gets and
    /// without the lists of keyword arguments (`deps=[...]` lowers to its
    /// entries only).
    pub exprs: u32,
    /// Variables: bindings (`_` too), parameters, loop variables and
    /// iter-args.
    pub vars: u32,
    /// The bytes of the variables' names.
    pub name_bytes: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct Param<'a> {
    pub direction: Direction,
    pub name: Ident,
    pub ty: TypeExpr<'a>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub enum ExtentExpr<'a> {
    /// A literal extent, as written.
    Int(&'a str, Span),
    Name(Ident),
}

#[derive(Clone, Copy, Debug)]
pub enum TypeExprKind<'a> {
    Scalar(ScalarType),
    Array(ScalarType, ExtentExpr<'a>),
    Tensor(&'a [ExtentExpr<'a>], ScalarType),
    Tuple(&'a [TypeExpr<'a>]),
}

#[derive(Clone, Copy, Debug)]
pub struct TypeExpr<'a> {
    pub kind: TypeExprKind<'a>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct Block<'a> {
    pub stmts: &'a [Stmt<'a>],
    pub span: Span,
}

/// A statement: 16 bytes. Its span ([`Stmt::span`]) is kept in its node or
/// derived from it, not stored beside the node.
#[derive(Clone, Copy, Debug)]
pub struct Stmt<'a> {
    pub kind: StmtKind<'a>,
}

impl<'a> Stmt<'a> {
    /// From the statement's first token to its last.
    pub fn span(&self) -> Span {
        match self.kind {
            StmtKind::Assign(a) => a.span,
            StmtKind::Submit(s) => bound(s.bindings, s.span),
            StmtKind::Call(e) => e.span,
            StmtKind::For(l) => bound(l.bindings, l.span),
            StmtKind::While(w) => bound(w.bindings, w.span),
            StmtKind::If(i) => bound(i.bindings, i.span),
            StmtKind::Scope(s) => s.span,
            StmtKind::Yield(v) | StmtKind::Return(v) => v.span,
            StmtKind::Break(s) | StmtKind::Continue(s) | StmtKind::Error(s) => s,
        }
    }
}

/// The span of a statement binding `bindings` to a right-hand side that
/// spans `rhs`: from its first binding (the statement's first token).
fn bound(bindings: &[Binding<'_>], rhs: Span) -> Span {
    match bindings.first() {
        Some(b) => b.span().to(rhs),
        None => rhs,
    }
}

/// A statement. Those that may bind values (`a, b = ...`) keep their
/// bindings in their node (empty when nothing is bound). Nodes without a
/// span of their own that covers the statement keep the statement's.
#[derive(Clone, Copy, Debug)]
pub enum StmtKind<'a> {
    /// `a, b = expr`.
    Assign(&'a Assign<'a>),
    /// `a, t = submit f(...)`.
    Submit(&'a SubmitStmt<'a>),
    /// A call evaluated for effect.
    Call(&'a Expr<'a>),
    For(&'a ForLoop<'a>),
    While(&'a WhileLoop<'a>),
    If(&'a IfStmt<'a>),
    Scope(&'a ScopeStmt<'a>),
    Yield(&'a Values<'a>),
    Return(&'a Values<'a>),
    /// `break`, with its span.
    Break(Span),
    /// `continue`, with its span.
    Continue(Span),
    /// A statement the parser could not read (its span); its error is
    /// already reported.
    Error(Span),
}

/// The items of a list literal of other than one item (`[a, b]`, `[]`)
/// behind one reference, so that the expression holding it stays small.
#[derive(Clone, Copy, Debug)]
pub struct Exprs<'a> {
    pub items: &'a [Expr<'a>],
}

/// The values of `yield` or `return` (none for a bare one), with the
/// statement's span.
#[derive(Clone, Copy, Debug)]
pub struct Values<'a> {
    pub items: &'a [Expr<'a>],
    pub span: Span,
}

/// `a, b = expr`.
#[derive(Clone, Copy, Debug)]
pub struct Assign<'a> {
    pub bindings: &'a [Binding<'a>],
    pub value: Expr<'a>,
    /// The whole statement.
    pub span: Span,
}

/// `manual { ... }` or `auto "name" { ... }`.
#[derive(Clone, Copy, Debug)]
pub struct ScopeStmt<'a> {
    pub manual: bool,
    /// The name's value (unescaped) and the span of its literal.
    pub name: Option<(&'a str, Span)>,
    pub body: Block<'a>,
    /// The whole statement.
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub enum Binding<'a> {
    Name(Ident),
    /// `name: type` (rare, so behind a reference).
    Typed(&'a TypedBinding<'a>),
    Discard(Span),
}

#[derive(Clone, Copy, Debug)]
pub struct TypedBinding<'a> {
    pub name: Ident,
    pub ty: TypeExpr<'a>,
}

impl<'a> Binding<'a> {
    pub fn span(&self) -> Span {
        match self {
            Binding::Name(name) => name.span(),
            Binding::Typed(t) => t.name.span().to(t.ty.span),
            Binding::Discard(s) => *s,
        }
    }

    /// The bound name and its annotation; `None` for `_`.
    pub fn name(&self) -> Option<(Ident, Option<&'a TypeExpr<'a>>)> {
        match *self {
            Binding::Name(name) => Some((name, None)),
            Binding::Typed(t) => Some((t.name, Some(&t.ty))),
            Binding::Discard(_) => None,
        }
    }
}

/// One argument of a call or `submit`, as written: `value` or
/// `name=value`.
#[derive(Clone, Copy, Debug)]
pub struct CallArg<'a> {
    /// The keyword, for a keyword argument.
    pub name: Option<Ident>,
    pub value: Expr<'a>,
}

/// The arguments of a call or `submit`, in the order written.
#[derive(Clone, Copy, Debug, Default)]
pub struct CallArgs<'a> {
    pub items: &'a [CallArg<'a>],
}

impl<'a> CallArgs<'a> {
    /// The positional arguments, in order (also those written after a
    /// keyword argument).
    pub fn positional(&self) -> impl Iterator<Item = &'a Expr<'a>> + Clone + use<'a> {
        self.items
            .iter()
            .filter(|a| a.name.is_none())
            .map(|a| &a.value)
    }

    /// The keyword arguments, in order.
    pub fn keyword(&self) -> impl Iterator<Item = (Ident, &'a Expr<'a>)> + use<'a> {
        self.items
            .iter()
            .filter_map(|a| a.name.map(|name| (name, &a.value)))
    }

    /// The spans of the positional arguments written after a keyword
    /// argument (an error).
    pub fn misplaced(&self) -> impl Iterator<Item = Span> + use<'a> {
        let first_keyword = self
            .items
            .iter()
            .position(|a| a.name.is_some())
            .unwrap_or(self.items.len());
        self.items[first_keyword..]
            .iter()
            .filter(|a| a.name.is_none())
            .map(|a| a.value.span)
    }
}

/// `bindings = submit callee(args)` (a `submit` always binds).
#[derive(Clone, Copy, Debug)]
pub struct SubmitStmt<'a> {
    pub bindings: &'a [Binding<'a>],
    pub args: CallArgs<'a>,
    /// A function name, or an op name (`submit array.create(...)`, which
    /// lowering rejects; an op name has a `.`, an identifier never).
    pub callee: Ident,
    /// From `submit` to the closing `)`.
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct IterDecl<'a> {
    pub name: Ident,
    pub ty: Option<TypeExpr<'a>>,
    pub init: Expr<'a>,
}

#[derive(Clone, Copy, Debug)]
pub struct ForLoop<'a> {
    /// What the loop's results are bound to (empty: none).
    pub bindings: &'a [Binding<'a>],
    pub var: Ident,
    pub kind: LoopKind,
    pub kind_span: Span,
    /// One to three bounds, as written.
    pub bounds: &'a [Expr<'a>],
    pub iters: &'a [IterDecl<'a>],
    pub body: Block<'a>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct WhileLoop<'a> {
    /// What the loop's results are bound to (empty: none).
    pub bindings: &'a [Binding<'a>],
    pub cond: Expr<'a>,
    pub iters: &'a [IterDecl<'a>],
    pub body: Block<'a>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct IfStmt<'a> {
    /// What the `if`'s results are bound to (empty: none, and always
    /// for an `else if`).
    pub bindings: &'a [Binding<'a>],
    pub cond: Expr<'a>,
    pub then_body: Block<'a>,
    pub else_body: Option<Else<'a>>,
    pub span: Span,
    /// 1 + the depth of the `else if` chain below it.
    pub depth: u32,
}

#[derive(Clone, Copy, Debug)]
pub enum Else<'a> {
    Block(Block<'a>),
    If(&'a IfStmt<'a>),
}

/// `name(...)` or `op.name(...)`.
#[derive(Clone, Copy, Debug)]
pub struct CallExpr<'a> {
    pub callee: CalleeName,
    pub args: CallArgs<'a>,
}

#[derive(Clone, Copy, Debug)]
pub enum CalleeName {
    /// `name(...)`: a function of the module.
    Function(Ident),
    /// `a.b(...)`: an op.
    Op(Ident),
}

#[derive(Clone, Copy, Debug)]
pub enum ExprKind<'a> {
    Int(i64),
    /// An integer literal that does not fit in `i64` (lowering reports it).
    IntOutOfRange,
    /// A float literal's value (infinite when it does not fit in `f64`,
    /// which lowering reports).
    Float(f64),
    Bool(bool),
    None,
    Dtype(ScalarType),
    Name(Ident),
    Unary(&'a UnaryExpr<'a>),
    Binary(&'a BinaryExpr<'a>),
    Call(&'a CallExpr<'a>),
    /// A list literal of other than one item; see [`Expr::list_items`].
    List(&'a Exprs<'a>),
    /// A list literal of one item (`deps=[t]`, the common case), without
    /// an [`Exprs`] node; see [`Expr::list_items`].
    ListOfOne(&'a Expr<'a>),
}

#[derive(Clone, Copy, Debug)]
pub struct UnaryExpr<'a> {
    pub op: UnaryOp,
    pub operand: Expr<'a>,
    /// Height of this expression tree.
    pub depth: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct BinaryExpr<'a> {
    pub op: BinaryOp,
    pub lhs: Expr<'a>,
    pub rhs: Expr<'a>,
    /// Height of this expression tree.
    pub depth: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct Expr<'a> {
    pub kind: ExprKind<'a>,
    pub span: Span,
}

impl<'a> Expr<'a> {
    pub fn leaf(kind: ExprKind<'a>, span: Span) -> Expr<'a> {
        Expr { kind, span }
    }

    /// Height of this expression tree (a leaf, call or list is 1: brackets
    /// are bounded by the lexer).
    pub fn depth(&self) -> u32 {
        match self.kind {
            ExprKind::Unary(u) => u.depth,
            ExprKind::Binary(b) => b.depth,
            _ => 1,
        }
    }

    /// The items of a list literal; `None` for any other expression.
    pub fn list_items(&self) -> Option<&'a [Expr<'a>]> {
        match self.kind {
            ExprKind::List(list) => Some(list.items),
            ExprKind::ListOfOne(item) => Some(std::slice::from_ref(item)),
            _ => None,
        }
    }
}

/// The stacks the grammar builds lists on, outside the arena, one per
/// element type; reused by every list of a parse (and across the items of
/// a staged parse), so building lists allocates nothing once they have
/// grown to the deepest nesting. A finished list is copied into the arena
/// once, at its exact length.
///
/// Lists nest (a block's statements hold loops with blocks of their own),
/// and an inner list is always finished before the outer list gets its next
/// element, so each element type needs only one stack. A list the parser
/// abandoned while recovering from a syntax error leaves its elements on
/// the stack; they are cut off when a list below them grows or finishes
/// (see [`Building`]).
#[derive(Default)]
pub struct Scratch<'a> {
    stmts: Vec<Stmt<'a>>,
    exprs: Vec<Expr<'a>>,
    args: Vec<CallArg<'a>>,
    bindings: Vec<Binding<'a>>,
    params: Vec<Param<'a>>,
    extents: Vec<ExtentExpr<'a>>,
    types: Vec<TypeExpr<'a>>,
    iters: Vec<IterDecl<'a>>,
    /// Nodes built so far (for [`Function::counts`]).
    counted: NodeCounts,
    /// `counted` when the last function was finished.
    at_last_function: NodeCounts,
}

/// A list being built on a [`Scratch`] stack: where its elements start and
/// how many there are. Elements above them on the stack belong to lists
/// abandoned by error recovery and are dropped when this list grows.
pub struct Building<T> {
    start: u32,
    len: u32,
    element: PhantomData<fn() -> T>,
}

impl<T> Clone for Building<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Building<T> {}

impl<T> std::fmt::Debug for Building<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Building({}+{})", self.start, self.len)
    }
}

/// An element type with a stack in [`Scratch`].
pub trait ScratchItem<'a>: Copy {
    fn stack<'s>(scratch: &'s mut Scratch<'a>) -> &'s mut Vec<Self>;
}

macro_rules! scratch_items {
    ($($t:ident => $field:ident),* $(,)?) => {
        $(impl<'a> ScratchItem<'a> for $t<'a> {
            fn stack<'s>(scratch: &'s mut Scratch<'a>) -> &'s mut Vec<Self> {
                &mut scratch.$field
            }
        })*
    };
}

scratch_items! {
    Stmt => stmts,
    Expr => exprs,
    CallArg => args,
    Binding => bindings,
    Param => params,
    ExtentExpr => extents,
    TypeExpr => types,
    IterDecl => iters,
}

/// Offsets on a scratch stack as `u32` (the stacks hold at most one
/// element per source byte, and sources are below 4 GiB).
fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<'a> Scratch<'a> {
    /// Starts an empty list.
    pub fn start<T: ScratchItem<'a>>(&mut self) -> Building<T> {
        Building {
            start: narrow(T::stack(self).len()),
            len: 0,
            element: PhantomData,
        }
    }

    /// Starts a list of one element.
    pub fn one<T: ScratchItem<'a>>(&mut self, item: T) -> Building<T> {
        let list = self.start();
        self.push(list, item)
    }

    /// Adds `item` at the end of `list`.
    pub fn push<T: ScratchItem<'a>>(&mut self, list: Building<T>, item: T) -> Building<T> {
        let stack = T::stack(self);
        stack.truncate(list.start as usize + list.len as usize);
        stack.push(item);
        Building {
            len: narrow(stack.len()) - list.start,
            ..list
        }
    }

    /// The elements of `list`, copied into `arena` (no allocation for an
    /// empty list); the stack gives their room back.
    pub fn finish<T: ScratchItem<'a>>(&mut self, arena: &'a Arena, list: Building<T>) -> &'a [T] {
        let stack = T::stack(self);
        let (start, end) = (list.start as usize, list.start as usize + list.len as usize);
        let items = stack.get(start..end).unwrap_or(&[]);
        let out: &'a [T] = if items.is_empty() {
            &[]
        } else {
            arena.alloc_slice_copy(items)
        };
        stack.truncate(start);
        out
    }

    /// Counts a statement for [`Function::counts`].
    pub fn count_stmt(&mut self) {
        self.counted.stmts = self.counted.stmts.saturating_add(1);
    }

    /// Counts a `submit` (also counted as a statement) for
    /// [`Function::counts`].
    pub fn count_submit(&mut self) {
        self.counted.submits = self.counted.submits.saturating_add(1);
    }

    /// Counts expressions for [`Function::counts`].
    pub fn count_exprs(&mut self, n: u32) {
        self.counted.exprs = self.counted.exprs.saturating_add(n);
    }

    /// Takes back the count of an expression that lowers to no IR
    /// expression of its own (the list of a keyword argument).
    pub fn uncount_expr(&mut self) {
        self.counted.exprs = self.counted.exprs.saturating_sub(1);
    }

    /// Counts a variable definition named by `span` (a binding, parameter,
    /// loop variable or iter-arg) for [`Function::counts`].
    pub fn count_var(&mut self, span: Span) {
        self.counted.vars = self.counted.vars.saturating_add(1);
        self.counted.name_bytes = self
            .counted
            .name_bytes
            .saturating_add(narrow(span.range().len()));
    }

    /// The nodes counted since the last call (the function just read;
    /// functions do not nest).
    pub fn function_counts(&mut self) -> NodeCounts {
        let (now, last) = (self.counted, self.at_last_function);
        self.at_last_function = now;
        NodeCounts {
            stmts: now.stmts.saturating_sub(last.stmts),
            submits: now.submits.saturating_sub(last.submits),
            exprs: now.exprs.saturating_sub(last.exprs),
            vars: now.vars.saturating_sub(last.vars),
            name_bytes: now.name_bytes.saturating_sub(last.name_bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nodes are held by value in lists and in each other, and the
    /// parser's stack holds them: their sizes are pinned so that they
    /// cannot grow back (anything large goes behind an arena reference).
    #[test]
    fn nodes_stay_small() {
        use std::mem::size_of;
        let sizes = [
            ("Ident", size_of::<Ident>(), 8),
            ("Option<Ident>", size_of::<Option<Ident>>(), 8),
            ("Expr", size_of::<Expr<'_>>(), 24),
            ("Stmt", size_of::<Stmt<'_>>(), 16),
            ("Binding", size_of::<Binding<'_>>(), 16),
            ("CallArg", size_of::<CallArg<'_>>(), 32),
            ("CallArgs", size_of::<CallArgs<'_>>(), 16),
            ("SubmitStmt", size_of::<SubmitStmt<'_>>(), 48),
            ("Assign", size_of::<Assign<'_>>(), 48),
            ("CallExpr", size_of::<CallExpr<'_>>(), 32),
            ("TypeExpr", size_of::<TypeExpr<'_>>(), 40),
            ("Building", size_of::<Building<Stmt<'_>>>(), 8),
        ];
        for (name, size, limit) in sizes {
            assert!(size <= limit, "{name}: {size} bytes, more than {limit}");
        }
    }

    #[test]
    fn call_args_are_split_in_order_with_misplaced_positionals() {
        let e = |n: usize| Expr::leaf(ExprKind::Int(1), Span::new(n, n + 1));
        let positional = |n| CallArg {
            name: None,
            value: e(n),
        };
        let keyword = |n| CallArg {
            name: Some(Ident::new(n, n + 1)),
            value: e(n),
        };
        let items = [
            positional(0),
            keyword(2),
            positional(4),
            keyword(6),
            positional(8),
        ];
        let args = CallArgs { items: &items };
        let starts = |es: Vec<&Expr<'_>>| es.iter().map(|e| e.span.start()).collect::<Vec<_>>();
        assert_eq!(starts(args.positional().collect()), [0, 4, 8]);
        assert_eq!(
            args.keyword()
                .map(|(k, _)| k.span().start())
                .collect::<Vec<_>>(),
            [2, 6]
        );
        assert_eq!(
            args.misplaced().map(|s| s.start()).collect::<Vec<_>>(),
            [4, 8]
        );
        let none = CallArgs::default();
        assert!(none.positional().next().is_none() && none.misplaced().next().is_none());
    }

    #[test]
    fn nested_lists_share_a_stack_and_abandoned_ones_are_cut_off() {
        let arena = Arena::new();
        let mut s = Scratch::default();
        let e = |n: usize| Expr::leaf(ExprKind::Int(n as i64), Span::new(n, n + 1));
        let value = |x: &Expr<'_>| match x.kind {
            ExprKind::Int(n) => n,
            _ => -1,
        };
        let outer = s.one(e(1));
        // An inner list, finished before the outer one grows.
        let inner = s.one(e(10));
        let inner = s.push(inner, e(11));
        let inner = s.finish(&arena, inner);
        let outer = s.push(outer, e(2));
        // An inner list abandoned (error recovery): its elements are cut
        // off when the outer list grows.
        let abandoned = s.one(e(20));
        let _ = s.push(abandoned, e(21));
        let outer = s.push(outer, e(3));
        let outer = s.finish(&arena, outer);
        assert_eq!(inner.iter().map(value).collect::<Vec<_>>(), [10, 11]);
        assert_eq!(outer.iter().map(value).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(s.exprs.is_empty());
        let empty = s.start::<Expr<'_>>();
        assert!(s.finish(&arena, empty).is_empty());
    }

    #[test]
    fn identifiers_read_their_text_from_the_source() {
        let source = Source {
            text: "func main() {}",
            base: 100,
        };
        assert_eq!(source.text(Ident::new(105, 109)), "main");
        assert_eq!(source.text(Ident::new(5, 9)), "");
        assert_eq!(source.text(Ident::new(110, 200)), "");
    }
}
