//! The structural verifier: checks that a module is well formed IR, the
//! invariants of [`crate::ir`] that lowering establishes and every pass
//! must keep (Cranelift's verifier is the model).
//!
//! What it checks, per function:
//! - **ids in range**: every id a reachable node holds (variables,
//!   expressions, statements, payloads, types, names, callees) indexes its
//!   function's arenas and tables or the module's functions, and every list
//!   handle lies inside its pool;
//! - **one place per node**: each statement is in exactly one block, each
//!   expression has one parent, and no list is held by two nodes;
//! - **one definition per variable**: a parameter, a statement's result, a
//!   loop's induction variable or an iter-arg, once;
//! - **uses dominated by definitions**, in pfir's structured scoping
//!   (`docs/language.md` section 7): a use sees the parameters, the
//!   results of earlier statements of its block and of enclosing blocks,
//!   and inside a loop body the loop's induction variable and iter-args (in
//!   a `while`, also its condition). The bodies of `for`, `while` and `if`
//!   close what they define; `manual`/`auto` bodies do not;
//! - **arity and direction of arguments**: a call or `submit` of a
//!   function has one argument and one direction per parameter, the
//!   directions of the parameters; an op call one direction per argument,
//!   all `in`; a `submit` binds the callee's results and a task id; a loop
//!   one result per iter-arg; `return` the function's result count; `Eval`
//!   holds a call;
//! - **types consistent** (by category, `unknown` accepted anywhere, as
//!   lowering checks them): a use of a variable has the variable's type;
//!   literals, comparisons and `and`/`or`/`not` their fixed types;
//!   conditions `bool`, loop bounds integers; arguments their parameters'
//!   types; bindings their values'; `deps` entries task ids or arrays of
//!   them.
//!
//! It never panics, whatever the IR holds (ids are checked before they are
//! read), and it is linear in the size of the function: every reachable
//! statement and expression is visited once (a second visit is an error,
//! not a second walk), with an explicit stack of blocks, whose depth is the
//! IR's nesting, and an explicit work list of expressions; bitsets
//! sized by the arenas and pools record what was seen. Errors are
//! [`VerifyError`]s, values that name the function, the node and what
//! broke; [`fmt::Display`] renders them for people.
//!
//! The pass manager runs it after every pass under `--verify-each` (the
//! default), reporting an error as a bug of the pass, and as a debug
//! assertion otherwise.

use super::{
    ArenaId, Block, BuiltinOp, Call, Callee, DirList, Direction, Directions, EntityList, ExprId,
    ExprKind, Function, IterArg, Module, Pooled, StmtId, StmtKind, Type, TypeId, UnaryOp, VarId,
};
use crate::span::Span;
use std::fmt;

/// A kind of node an id can name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Entity {
    Var,
    Expr,
    Stmt,
    Call,
    Submit,
    For,
    While,
    If,
    Scope,
    Type,
    /// A symbol of the function's name table.
    Name,
    /// A function of the module.
    Function,
}

/// A kind of pooled list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ListKind {
    Vars,
    Exprs,
    Stmts,
    IterArgs,
    Kwargs,
    Directions,
}

/// Where a type is checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeSite {
    /// A use of a variable against the variable.
    VarUse,
    /// A literal or a dtype.
    Literal,
    /// A comparison, `and`, `or` or `not`.
    Logical,
    /// The condition of an `if` or `while`.
    Condition,
    /// A `for` bound or a loop's induction variable.
    LoopBound,
    /// Positional argument `n` against its parameter.
    Argument(usize),
    /// A call's value against its callee's results.
    CallValue,
    /// Binding `n` of a statement against its value.
    Binding(usize),
    /// Iter-arg `n`: its initial value, and the loop's result.
    IterArg(usize),
    /// A `deps` or `manual_dep_edges` entry (a task id or an array of them).
    Dependency,
    /// A `submit` option (`core_num`, `sync_start`, `allow_early_resolve`).
    SubmitOption,
    /// Returned value `n` against the function's result.
    Return(usize),
}

/// What broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An id past the end of what it indexes.
    IdOutOfRange { entity: Entity, index: u32 },
    /// A list handle whose block is not inside its pool.
    ListOutOfRange { list: ListKind },
    /// A list held by two nodes.
    ListShared { list: ListKind },
    /// A statement reached a second time (in two blocks, or twice in one).
    StmtInTwoBlocks { stmt: StmtId },
    /// An expression reached a second time (two parents).
    ExprShared { expr: ExprId },
    /// A variable defined a second time.
    VarDefinedTwice { var: VarId },
    /// A use of a variable that nothing reachable defines.
    UseOfUndefined { var: VarId },
    /// A use of a variable defined elsewhere, not visible at the use.
    UseNotDominated { var: VarId },
    /// A call or `submit` with a number of arguments unlike its callee's
    /// parameters.
    ArgumentCount { expected: usize, found: usize },
    /// Not one direction per positional argument.
    DirectionCount { args: usize, directions: usize },
    /// The direction of argument `index` unlike its parameter's (or not
    /// `in` for an op).
    Direction {
        index: usize,
        expected: Direction,
        found: Direction,
    },
    /// A statement binding a number of values unlike what it produces, or
    /// a `return` with a number of values unlike the function's results.
    ResultCount { expected: usize, found: usize },
    /// An `Eval` statement whose expression is not a call.
    EvalNotCall,
    /// A call whose resolved built-in op ([`Call::builtin`]) is not the
    /// one its callee's name names.
    Builtin {
        expected: Option<BuiltinOp>,
        found: Option<BuiltinOp>,
    },
    /// A type unlike the one `site` demands.
    Type {
        site: TypeSite,
        expected: Type,
        found: Type,
    },
}

/// The node an error is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The function itself (its parameters or body).
    Function,
    Stmt(StmtId),
    Expr(ExprId),
}

/// One way in which a module is not well formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The function's name.
    pub function: String,
    pub node: Node,
    /// The span of the node (the function's for [`Node::Function`] or a
    /// node whose own id is out of range).
    pub span: Span,
    pub kind: ErrorKind,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "in `{}`, ", self.function)?;
        match self.node {
            Node::Function => f.write_str("the function: ")?,
            Node::Stmt(s) => write!(f, "statement {s:?}: ")?,
            Node::Expr(e) => write!(f, "expression {e:?}: ")?,
        }
        write!(f, "{}", self.kind)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::IdOutOfRange { entity, index } => {
                write!(f, "{entity:?} id {index} is out of range")
            }
            ErrorKind::ListOutOfRange { list } => write!(f, "a {list:?} list is out of its pool"),
            ErrorKind::ListShared { list } => write!(f, "a {list:?} list is held twice"),
            ErrorKind::StmtInTwoBlocks { stmt } => write!(f, "{stmt:?} is in two blocks"),
            ErrorKind::ExprShared { expr } => write!(f, "{expr:?} has two parents"),
            ErrorKind::VarDefinedTwice { var } => write!(f, "{var:?} is defined twice"),
            ErrorKind::UseOfUndefined { var } => write!(f, "{var:?} is used but never defined"),
            ErrorKind::UseNotDominated { var } => {
                write!(f, "{var:?} is used where its definition is not visible")
            }
            ErrorKind::ArgumentCount { expected, found } => {
                write!(f, "{found} arguments where the callee has {expected}")
            }
            ErrorKind::DirectionCount { args, directions } => {
                write!(f, "{directions} directions for {args} arguments")
            }
            ErrorKind::Direction {
                index,
                expected,
                found,
            } => write!(
                f,
                "argument {index} is `{}` where `{}` is expected",
                found.keyword(),
                expected.keyword()
            ),
            ErrorKind::ResultCount { expected, found } => {
                write!(f, "{found} values where {expected} are expected")
            }
            ErrorKind::EvalNotCall => f.write_str("a statement evaluates something not a call"),
            ErrorKind::Builtin { expected, found } => {
                let name = |op: &Option<BuiltinOp>| op.map_or("no built-in op", BuiltinOp::name);
                write!(
                    f,
                    "a call resolved to {} where its name names {}",
                    name(found),
                    name(expected)
                )
            }
            ErrorKind::Type {
                site,
                expected,
                found,
            } => write!(
                f,
                "{site:?} has type `{found}` where `{expected}` is expected"
            ),
        }
    }
}

/// Checks every function of `module`; `Err` lists every error found, in
/// function order and, within a function, in walk order.
pub fn verify_module(module: &Module) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    for f in module.functions() {
        errors.extend(verify_function(module, f));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The errors of one function `f` of `module`.
pub fn verify_function(module: &Module, f: &Function) -> Vec<VerifyError> {
    let mut v = Verifier::new(module, f);
    v.run();
    v.errors
}

/// A bitset of `n` bits.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    /// Sets bit `i`; returns whether it was already set (`None`: out of range).
    fn set(&mut self, i: usize) -> Option<bool> {
        let word = self.0.get_mut(i / 64)?;
        let mask = 1u64 << (i % 64);
        let was = *word & mask != 0;
        *word |= mask;
        Some(was)
    }

    fn clear(&mut self, i: usize) {
        if let Some(word) = self.0.get_mut(i / 64) {
            *word &= !(1u64 << (i % 64));
        }
    }

    fn get(&self, i: usize) -> bool {
        self.0
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }
}

/// Which list blocks of each pool are held (for [`ErrorKind::ListShared`]).
struct HeldLists {
    vars: Bits,
    exprs: Bits,
    stmts: Bits,
    iter_args: Bits,
    kwargs: Bits,
    dirs: Bits,
}

/// A frame of the block walk.
enum Frame<'f> {
    Block {
        stmts: &'f [StmtId],
        next: usize,
        /// For the body of a `for`, `while` or `if`: the length of the
        /// definition stack when it opened (what it defines is closed at
        /// its end).
        mark: Option<usize>,
    },
    /// After a `for`, `while` or `if`: its results are defined.
    Results(StmtId),
}

struct Verifier<'m> {
    module: &'m Module,
    f: &'m Function,
    errors: Vec<VerifyError>,
    /// The node errors are reported on.
    node: Node,
    span: Span,
    stmt_seen: Bits,
    expr_seen: Bits,
    defined: Bits,
    visible: Bits,
    /// The variables defined by open blocks, in order.
    defs: Vec<VarId>,
    /// Uses not visible where they are: decided at the end between
    /// "never defined" and "not dominated".
    hidden_uses: Vec<(VarId, ExprId, Span)>,
    held: HeldLists,
    /// The expression work list, reused.
    work: Vec<ExprId>,
}

impl<'m> Verifier<'m> {
    fn new(module: &'m Module, f: &'m Function) -> Verifier<'m> {
        let l = &f.lists;
        Verifier {
            module,
            f,
            errors: Vec::new(),
            node: Node::Function,
            span: f.span,
            stmt_seen: Bits::new(f.stmts.len()),
            expr_seen: Bits::new(f.exprs.len()),
            defined: Bits::new(f.vars.len()),
            visible: Bits::new(f.vars.len()),
            defs: Vec::new(),
            hidden_uses: Vec::new(),
            held: HeldLists {
                vars: Bits::new(l.vars.slots()),
                exprs: Bits::new(l.exprs.slots()),
                stmts: Bits::new(l.stmts.slots()),
                iter_args: Bits::new(l.iter_args.slots()),
                kwargs: Bits::new(l.kwargs.slots()),
                dirs: Bits::new(l.dirs.slots()),
            },
            work: Vec::new(),
        }
    }

    fn error(&mut self, kind: ErrorKind) {
        self.errors.push(VerifyError {
            function: self.f.name.clone(),
            node: self.node,
            span: self.span,
            kind,
        });
    }

    fn out_of_range(&mut self, entity: Entity, index: usize) {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        self.error(ErrorKind::IdOutOfRange { entity, index });
    }

    /// `arena[id]`, or an error and `None` when `id` is out of range.
    fn node<I: ArenaId, T>(
        &mut self,
        arena: &'m super::Arena<I, T>,
        id: I,
        entity: Entity,
    ) -> Option<&'m T> {
        let got = arena.get(id);
        if got.is_none() {
            self.out_of_range(entity, id.index());
        }
        got
    }

    /// The type `id`, or an error and `None` when it is out of range.
    fn ty(&mut self, id: TypeId) -> Option<&'m Type> {
        let f = self.f;
        if id.index() < f.types.len() {
            Some(&f.types[id])
        } else {
            self.out_of_range(Entity::Type, id.index());
            None
        }
    }

    fn expr_ty(&mut self, e: ExprId) -> Option<&'m Type> {
        let t = self.f.exprs.get(e)?.ty;
        self.ty(t)
    }

    fn var_ty(&mut self, v: VarId) -> Option<&'m Type> {
        let t = self.f.vars.get(v)?.ty;
        self.ty(t)
    }

    /// Checks that `found` is accepted where `expected` is wanted.
    fn expect(&mut self, site: TypeSite, found: Option<&Type>, expected: &Type) {
        if let Some(found) = found
            && !found.accepts(expected)
        {
            self.error(ErrorKind::Type {
                site,
                expected: expected.clone(),
                found: found.clone(),
            });
        }
    }

    /// Checks a list handle (in range, held once) and returns its items
    /// (none when it is out of range).
    fn list<T: Pooled>(&mut self, list: EntityList<T>, kind: ListKind) -> &'m [T] {
        let f = self.f;
        let pool = T::pool(&f.lists);
        if !list.is_valid(pool) {
            self.error(ErrorKind::ListOutOfRange { list: kind });
            return &[];
        }
        self.hold(list.position(), kind);
        list.as_slice(pool)
    }

    fn hold(&mut self, position: Option<usize>, kind: ListKind) {
        let Some(p) = position else { return };
        let bits = match kind {
            ListKind::Vars => &mut self.held.vars,
            ListKind::Exprs => &mut self.held.exprs,
            ListKind::Stmts => &mut self.held.stmts,
            ListKind::IterArgs => &mut self.held.iter_args,
            ListKind::Kwargs => &mut self.held.kwargs,
            ListKind::Directions => &mut self.held.dirs,
        };
        if bits.set(p) == Some(true) {
            self.error(ErrorKind::ListShared { list: kind });
        }
    }

    /// Checks a direction list and returns the directions (`None` when
    /// out of range or too short for its count).
    fn directions(&mut self, d: DirList) -> Option<Directions<'m>> {
        let f = self.f;
        let words = d.words();
        if !words.is_valid(&f.lists.dirs) {
            self.error(ErrorKind::ListOutOfRange {
                list: ListKind::Directions,
            });
            return None;
        }
        self.hold(words.position(), ListKind::Directions);
        let slice = words.as_slice(&f.lists.dirs);
        let count = slice.first().map_or(0, |&n| n as usize);
        if !slice.is_empty() && slice.len() < 1 + count.div_ceil(16) {
            self.error(ErrorKind::ListOutOfRange {
                list: ListKind::Directions,
            });
            return None;
        }
        Some(f.directions(d))
    }

    fn define(&mut self, v: VarId) {
        if self.f.vars.get(v).is_none() {
            self.out_of_range(Entity::Var, v.index());
            return;
        }
        let name = self.f.vars[v].name.as_u32() as usize;
        if name >= self.f.names.len() {
            self.out_of_range(Entity::Name, name);
        }
        let _ = self.var_ty(v);
        if self.defined.set(v.index()) == Some(true) {
            self.error(ErrorKind::VarDefinedTwice { var: v });
            return;
        }
        self.visible.set(v.index());
        self.defs.push(v);
    }

    fn close_to(&mut self, mark: usize) {
        for v in self.defs.drain(mark.min(self.defs.len())..) {
            self.visible.clear(v.index());
        }
    }

    fn run(&mut self) {
        let f = self.f;
        for p in &f.params {
            self.define(p.var);
        }
        for &(_, v) in &f.extent_uses {
            if f.vars.get(v).is_none() {
                self.out_of_range(Entity::Var, v.index());
            }
        }
        let body = self.list(f.body.stmts, ListKind::Stmts);
        let mut stack = vec![Frame::Block {
            stmts: body,
            next: 0,
            mark: None,
        }];
        while let Some(top) = stack.last_mut() {
            match top {
                Frame::Block { stmts, next, mark } => {
                    let Some(&s) = stmts.get(*next) else {
                        let mark = *mark;
                        stack.pop();
                        if let Some(m) = mark {
                            self.close_to(m);
                        }
                        continue;
                    };
                    *next += 1;
                    self.stmt(s, &mut stack);
                }
                Frame::Results(s) => {
                    let s = *s;
                    stack.pop();
                    self.node = Node::Stmt(s);
                    self.span = f.stmts[s].span;
                    for &r in self.results_of(&f.stmts[s].kind) {
                        self.define(r);
                    }
                }
            }
        }
        self.node = Node::Function;
        self.span = f.span;
        for (var, e, span) in std::mem::take(&mut self.hidden_uses) {
            self.node = Node::Expr(e);
            self.span = span;
            self.error(if self.defined.get(var.index()) {
                ErrorKind::UseNotDominated { var }
            } else {
                ErrorKind::UseOfUndefined { var }
            });
        }
    }

    /// The results of a `for`, `while` or `if` statement whose payload was
    /// checked when it was entered.
    fn results_of(&self, kind: &StmtKind) -> &'m [VarId] {
        let f = self.f;
        let list = match *kind {
            StmtKind::For(l) => f.fors[l].results,
            StmtKind::While(w) => f.whiles[w].results,
            StmtKind::If(i) => f.ifs[i].results,
            _ => return &[],
        };
        f.list(list)
    }

    /// A body block frame; `closes`: a `for`, `while` or `if` body.
    fn body(&mut self, b: &Block, closes: bool) -> Frame<'m> {
        Frame::Block {
            stmts: self.list(b.stmts, ListKind::Stmts),
            next: 0,
            mark: closes.then_some(self.defs.len()),
        }
    }

    /// Checks statement `s` and pushes the frames of what it nests.
    fn stmt(&mut self, s: StmtId, stack: &mut Vec<Frame<'m>>) {
        let f = self.f;
        let Some(stmt) = self.node(&f.stmts, s, Entity::Stmt) else {
            return;
        };
        if self.stmt_seen.set(s.index()) == Some(true) {
            self.node = Node::Stmt(s);
            self.span = stmt.span;
            self.error(ErrorKind::StmtInTwoBlocks { stmt: s });
            return;
        }
        let at = |v: &mut Self| {
            v.node = Node::Stmt(s);
            v.span = stmt.span;
        };
        at(self);
        match stmt.kind {
            StmtKind::Assign { results, value } => self.assign(s, results, value),
            StmtKind::Submit(id) => self.submit(id, s),
            StmtKind::Eval(e) => {
                if f.exprs
                    .get(e)
                    .is_some_and(|x| !matches!(x.kind, ExprKind::Call(_)))
                {
                    self.error(ErrorKind::EvalNotCall);
                }
                self.expr_tree(e);
            }
            StmtKind::For(id) => self.for_stmt(s, id, stack),
            StmtKind::While(id) => self.while_stmt(s, id, stack),
            StmtKind::If(id) => self.if_stmt(s, id, stack),
            StmtKind::Scope(id) => {
                let Some(sc) = self.node(&f.scopes, id, Entity::Scope) else {
                    return;
                };
                if let Some(name) = sc.name
                    && name.as_u32() as usize >= f.names.len()
                {
                    self.out_of_range(Entity::Name, name.as_u32() as usize);
                }
                let frame = self.body(&sc.body, false);
                stack.push(frame);
            }
            StmtKind::Yield(es) => {
                for &e in self.list(es, ListKind::Exprs) {
                    self.expr_tree(e);
                }
            }
            StmtKind::Return(es) => self.ret(s, es),
            StmtKind::Break | StmtKind::Continue => {}
        }
    }

    /// Reports on statement `s` from now on.
    fn at(&mut self, s: StmtId) {
        self.node = Node::Stmt(s);
        self.span = self.f.stmts[s].span;
    }

    /// `results = value`: the value's types against the results'.
    fn assign(&mut self, s: StmtId, results: super::VarList, value: ExprId) {
        self.expr_tree(value);
        self.at(s);
        let results = self.list(results, ListKind::Vars);
        // The value's types, one per result (any count of unknowns).
        let types: &[Type] = match self.expr_ty(value) {
            Some(Type::Tuple(ts)) => ts,
            Some(Type::Unknown) | None => &[],
            Some(t) => std::slice::from_ref(t),
        };
        let unknown = matches!(self.expr_ty(value), Some(Type::Unknown) | None);
        self.result_types(results, (!unknown).then_some(types.len()), types);
        for &r in results {
            self.define(r);
        }
    }

    /// A `for`: bounds, iter-args, results; its body is pushed.
    fn for_stmt(&mut self, s: StmtId, id: super::ForId, stack: &mut Vec<Frame<'m>>) {
        let f = self.f;
        let Some(l) = self.node(&f.fors, id, Entity::For) else {
            return;
        };
        for e in [l.start, l.stop, l.step] {
            self.expr_tree(e);
            self.at(s);
            let t = self.expr_ty(e);
            self.expect(TypeSite::LoopBound, t, &Type::INDEX);
        }
        let iters = self.loop_head(s, l.iter_args, l.results, &l.body, stack);
        self.define(l.var);
        let t = self.var_ty(l.var);
        self.expect(TypeSite::LoopBound, t, &Type::INDEX);
        self.define_iters(iters);
    }

    /// A loop's iter-args (their initial values) and results; pushes its
    /// body, and its results after it. Returns the iter-args.
    fn loop_head(
        &mut self,
        s: StmtId,
        iter_args: super::IterArgList,
        results: super::VarList,
        body: &Block,
        stack: &mut Vec<Frame<'m>>,
    ) -> &'m [IterArg] {
        let iters = self.list(iter_args, ListKind::IterArgs);
        self.iter_inits(iters, s, self.f.stmts[s].span);
        self.loop_results(results, iters);
        stack.push(Frame::Results(s));
        let frame = self.body(body, true);
        stack.push(frame);
        iters
    }

    /// A `while`: iter-args, results, condition; its body is pushed.
    fn while_stmt(&mut self, s: StmtId, id: super::WhileId, stack: &mut Vec<Frame<'m>>) {
        let f = self.f;
        let Some(w) = self.node(&f.whiles, id, Entity::While) else {
            return;
        };
        let iters = self.loop_head(s, w.iter_args, w.results, &w.body, stack);
        self.define_iters(iters);
        self.expr_tree(w.cond);
        self.at(s);
        let t = self.expr_ty(w.cond);
        self.expect(TypeSite::Condition, t, &Type::BOOL);
    }

    /// An `if`: its condition; its branches are pushed.
    fn if_stmt(&mut self, s: StmtId, id: super::IfId, stack: &mut Vec<Frame<'m>>) {
        let f = self.f;
        let Some(i) = self.node(&f.ifs, id, Entity::If) else {
            return;
        };
        self.expr_tree(i.cond);
        self.at(s);
        let t = self.expr_ty(i.cond);
        self.expect(TypeSite::Condition, t, &Type::BOOL);
        self.list(i.results, ListKind::Vars);
        stack.push(Frame::Results(s));
        if let Some(b) = &i.else_body {
            let frame = self.body(b, true);
            stack.push(frame);
        }
        let frame = self.body(&i.then_body, true);
        stack.push(frame);
    }

    /// A `return`: its values against the function's result types.
    fn ret(&mut self, s: StmtId, es: super::ExprList) {
        let f = self.f;
        let es = self.list(es, ListKind::Exprs);
        for &e in es {
            self.expr_tree(e);
        }
        self.at(s);
        if es.len() != f.results.len() {
            self.error(ErrorKind::ResultCount {
                expected: f.results.len(),
                found: es.len(),
            });
        }
        for (i, (&e, t)) in es.iter().zip(&f.results).enumerate() {
            let et = self.expr_ty(e);
            self.expect(TypeSite::Return(i), et, t);
        }
    }

    /// The bindings `results` against the types bound to them, and their
    /// count against `expected` (when known).
    fn result_types<'t>(
        &mut self,
        results: &[VarId],
        expected: Option<usize>,
        types: impl IntoIterator<Item = &'t Type>,
    ) {
        if let Some(n) = expected
            && n != results.len()
        {
            self.error(ErrorKind::ResultCount {
                expected: n,
                found: results.len(),
            });
        }
        for (i, (&r, t)) in results.iter().zip(types).enumerate() {
            let rt = self.var_ty(r);
            self.expect(TypeSite::Binding(i), rt, t);
        }
    }

    /// Checks the initial values of iter-args (in the enclosing scope).
    fn iter_inits(&mut self, iters: &'m [IterArg], s: StmtId, span: Span) {
        for (i, a) in iters.iter().enumerate() {
            self.expr_tree(a.init);
            self.node = Node::Stmt(s);
            self.span = span;
            let (it, vt) = (self.expr_ty(a.init).cloned(), self.var_ty(a.var));
            if let Some(vt) = vt {
                self.expect(TypeSite::IterArg(i), it.as_ref(), vt);
            } else if self.f.vars.get(a.var).is_none() {
                self.out_of_range(Entity::Var, a.var.index());
            }
        }
    }

    /// A loop binds one result per iter-arg, of its type.
    fn loop_results(&mut self, results: super::VarList, iters: &'m [IterArg]) {
        let results = self.list(results, ListKind::Vars);
        if results.len() != iters.len() {
            self.error(ErrorKind::ResultCount {
                expected: iters.len(),
                found: results.len(),
            });
        }
        for (i, (&r, a)) in results.iter().zip(iters).enumerate() {
            let (rt, at) = (self.var_ty(r).cloned(), self.var_ty(a.var));
            if let Some(at) = at {
                self.expect(TypeSite::IterArg(i), rt.as_ref(), at);
            }
        }
    }

    fn define_iters(&mut self, iters: &'m [IterArg]) {
        for a in iters {
            self.define(a.var);
        }
    }

    fn submit(&mut self, id: super::SubmitId, s: StmtId) {
        let f = self.f;
        let Some(sub) = self.node(&f.submits, id, Entity::Submit) else {
            return;
        };
        let span = f.stmts[s].span;
        let at = |v: &mut Self| {
            v.node = Node::Stmt(s);
            v.span = span;
        };
        let args = self.list(sub.args, ListKind::Exprs);
        let deps = self.list(sub.deps, ListKind::Exprs);
        let options = [sub.core_num, sub.sync_start, sub.allow_early_resolve];
        for &e in args.iter().chain(deps).chain(options.iter().flatten()) {
            self.expr_tree(e);
        }
        if let Some(p) = sub.predicate {
            self.expr_tree(p);
        }
        at(self);
        let dirs = self.directions(sub.arg_directions);
        let callee = self.callee(sub.callee);
        self.arguments(args, dirs, callee);
        for &d in deps {
            self.dependency(d);
        }
        const WANTED: [Type; 3] = [Type::I64, Type::BOOL, Type::BOOL];
        for (e, t) in options.iter().zip(&WANTED) {
            if let Some(e) = *e {
                let et = self.expr_ty(e);
                self.expect(TypeSite::SubmitOption, et, t);
            }
        }
        let results = self.list(sub.results, ListKind::Vars);
        if let Some(callee) = callee {
            // The callee's results, then the task id.
            let want = callee.results.iter().chain([&Type::TASK_ID]);
            self.result_types(results, Some(callee.results.len() + 1), want);
        }
        for &r in results {
            self.define(r);
        }
    }

    /// A `deps` entry: a task id or an array of them.
    fn dependency(&mut self, e: ExprId) {
        let Some(t) = self.expr_ty(e) else { return };
        if !t.accepts(&Type::TASK_ID) && !t.is_task_id_array() {
            self.error(ErrorKind::Type {
                site: TypeSite::Dependency,
                expected: Type::TASK_ID,
                found: t.clone(),
            });
        }
    }

    /// The function a callee names (checked in range); `None` for an op.
    fn callee(&mut self, callee: Callee) -> Option<&'m Function> {
        match callee {
            Callee::Function(id) => {
                let got = self.module.functions().get(id.index());
                if got.is_none() {
                    self.out_of_range(Entity::Function, id.index());
                }
                got
            }
            // An unresolved callee (a module with errors, kept as written
            // for the formatter) has no signature to check against, like an op.
            Callee::Op(name) | Callee::Unresolved(name) => {
                if name.as_u32() as usize >= self.f.names.len() {
                    self.out_of_range(Entity::Name, name.as_u32() as usize);
                }
                None
            }
        }
    }

    /// The built-in op lowering resolved is the one the callee's name
    /// names (functions and unresolved names have none).
    fn builtin(&mut self, call: &Call) {
        let expected = match call.callee {
            Callee::Op(name) if (name.as_u32() as usize) < self.f.names.len() => {
                BuiltinOp::from_name(self.f.names.get(name))
            }
            // Out of range: reported by `callee`.
            Callee::Op(_) => return,
            Callee::Function(_) | Callee::Unresolved(_) => None,
        };
        if call.builtin != expected {
            self.error(ErrorKind::Builtin {
                expected,
                found: call.builtin,
            });
        }
    }

    /// Arity, directions and types of positional arguments against the
    /// callee (`None`: an op, whose arguments are all `in`).
    fn arguments(
        &mut self,
        args: &[ExprId],
        dirs: Option<Directions<'m>>,
        callee: Option<&'m Function>,
    ) {
        // An unreadable list was reported already.
        let Some(dirs) = dirs else { return };
        if dirs.len() != args.len() {
            self.error(ErrorKind::DirectionCount {
                args: args.len(),
                directions: dirs.len(),
            });
        }
        let Some(callee) = callee else {
            for (index, found) in dirs.iter().enumerate() {
                if found != Direction::In {
                    self.error(ErrorKind::Direction {
                        index,
                        expected: Direction::In,
                        found,
                    });
                }
            }
            return;
        };
        if callee.params.len() != args.len() {
            self.error(ErrorKind::ArgumentCount {
                expected: callee.params.len(),
                found: args.len(),
            });
        }
        for (index, (p, found)) in callee.params.iter().zip(dirs.iter()).enumerate() {
            if p.direction != found {
                self.error(ErrorKind::Direction {
                    index,
                    expected: p.direction,
                    found,
                });
            }
        }
        for (i, (p, &a)) in callee.params.iter().zip(args).enumerate() {
            let Some(pt) = callee.vars.get(p.var).map(|v| v.ty) else {
                continue;
            };
            if pt.index() >= callee.types.len() {
                continue;
            }
            let at = self.expr_ty(a);
            self.expect(TypeSite::Argument(i), at, &callee.types[pt]);
        }
    }

    /// Checks a call node; returns its argument and `manual_dep_edges`
    /// lists.
    fn call(&mut self, call: &'m Call, ty: Option<&'m Type>) -> (&'m [ExprId], &'m [ExprId]) {
        let args = self.list(call.args, ListKind::Exprs);
        let kwargs = self.list(call.kwargs, ListKind::Kwargs);
        let edges = self.list(call.manual_dep_edges, ListKind::Exprs);
        let dirs = self.directions(call.arg_directions);
        let callee = self.callee(call.callee);
        self.builtin(call);
        self.arguments(args, dirs, callee);
        for k in kwargs {
            if k.name.as_u32() as usize >= self.f.names.len() {
                self.out_of_range(Entity::Name, k.name.as_u32() as usize);
            }
        }
        for &e in edges {
            self.dependency(e);
        }
        if let Some(callee) = callee {
            let expected = match callee.results.as_slice() {
                [one] => one.clone(),
                many => Type::Tuple(many.to_vec()),
            };
            self.expect(TypeSite::CallValue, ty, &expected);
        }
        (args, edges)
    }

    /// Checks the expression tree under `root`, each node once.
    fn expr_tree(&mut self, root: ExprId) {
        let f = self.f;
        // Errors about the root's id are the owner's; about a child's, its
        // parent's. The owner is current again afterwards.
        let owner = (self.node, self.span);
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        work.push(root);
        while let Some(e) = work.pop() {
            let Some(node) = f.exprs.get(e) else {
                self.out_of_range(Entity::Expr, e.index());
                continue;
            };
            self.node = Node::Expr(e);
            self.span = node.span;
            if self.expr_seen.set(e.index()) == Some(true) {
                self.error(ErrorKind::ExprShared { expr: e });
                continue;
            }
            let ty = self.ty(node.ty);
            let before_children = work.len();
            let want = match node.kind {
                ExprKind::Int(_) => Some((TypeSite::Literal, Type::I64)),
                ExprKind::Float(_) => Some((TypeSite::Literal, Type::F32)),
                ExprKind::Bool(_) => Some((TypeSite::Literal, Type::BOOL)),
                ExprKind::None => Some((TypeSite::Literal, Type::TASK_ID)),
                ExprKind::Dtype(_) => Some((TypeSite::Literal, Type::Dtype)),
                // What was written but names nothing: the error type, no
                // children (a module with errors, kept for the formatter).
                ExprKind::Unresolved(name) => {
                    if name.as_u32() as usize >= f.names.len() {
                        self.out_of_range(Entity::Name, name.as_u32() as usize);
                    }
                    None
                }
                ExprKind::Var(v) => {
                    if f.vars.get(v).is_none() {
                        self.out_of_range(Entity::Var, v.index());
                    } else {
                        if !self.visible.get(v.index()) {
                            self.hidden_uses.push((v, e, node.span));
                        }
                        if f.vars[v].ty != node.ty {
                            let vt = self.var_ty(v).cloned();
                            if let (Some(vt), Some(t)) = (vt, ty) {
                                self.error(ErrorKind::Type {
                                    site: TypeSite::VarUse,
                                    expected: vt,
                                    found: t.clone(),
                                });
                            }
                        }
                    }
                    None
                }
                ExprKind::Unary(UnaryOp::Not, a) => {
                    work.push(a);
                    Some((TypeSite::Logical, Type::BOOL))
                }
                ExprKind::Unary(UnaryOp::Neg, a) => {
                    work.push(a);
                    None
                }
                ExprKind::Binary(op, a, b) => {
                    work.push(b);
                    work.push(a);
                    let logical = op.is_comparison()
                        || matches!(op, super::BinaryOp::And | super::BinaryOp::Or);
                    logical.then_some((TypeSite::Logical, Type::BOOL))
                }
                ExprKind::Call(c) => {
                    if let Some(call) = self.node(&f.calls, c, Entity::Call) {
                        let (args, edges) = self.call(call, ty);
                        let before = work.len();
                        work.extend_from_slice(args);
                        let kwargs = f.list(call.kwargs);
                        work.extend(kwargs.iter().map(|k| k.value));
                        work.extend_from_slice(edges);
                        work[before..].reverse();
                    }
                    None
                }
                ExprKind::List(es) => {
                    let es = self.list(es, ListKind::Exprs);
                    work.extend(es.iter().rev());
                    None
                }
            };
            if let Some((site, expected)) = want {
                self.expect(site, ty, &expected);
            }
            // Children out of range are reported here, on their parent.
            let len = f.exprs.len();
            if work[before_children..].iter().any(|c| c.index() >= len) {
                let children: Vec<ExprId> = work.drain(before_children..).collect();
                for c in children {
                    if c.index() < len {
                        work.push(c);
                    } else {
                        self.out_of_range(Entity::Expr, c.index());
                    }
                }
            }
        }
        (self.node, self.span) = owner;
        self.work = work;
    }
}

#[cfg(test)]
mod tests;
