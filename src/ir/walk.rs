//! The one walk over a function's IR: blocks, statements and expressions.
//!
//! IR nesting can be 200,000 levels deep, so nothing here recurses: the
//! statement walk ([`Walk`]) keeps an explicit stack of blocks, the
//! expression walk ([`for_each_expr`]) an explicit work list. Every node is
//! visited once, so each walk is linear in the size of the function.
//!
//! [`Walk`] is an iterator of [`Event`]s in source order: a block is opened
//! ([`Event::EnterBlock`]), each of its statements is entered
//! ([`Event::Enter`], with its [`Site`]) and, after the blocks nested in it,
//! left ([`Event::Leave`]); then the block is closed
//! ([`Event::LeaveBlock`]). The function body is a block too (owner `None`).
//! Between events the walk answers where it is: [`Walk::depth`],
//! [`Walk::enclosing_loop`], [`Walk::owners`]; [`Walk::skip_nested`] does not
//! descend into the statement just entered. That is enough to drive a
//! pre/post visitor (an indenting printer, a scope tracker) or a plain
//! statement visitor ([`walk_stmts`]).

use super::{ArenaId, Block, ExprId, ExprKind, Function, StmtId, StmtKind};

/// Where a statement stands: the statement whose block holds it (`None` for
/// the function body), which of that statement's blocks (0 = the body or the
/// `then` branch, 1 = the `else` branch) and its index in the block.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Site {
    pub owner: Option<StmtId>,
    pub block: u8,
    pub index: usize,
}

/// The block a [`Site`] points into.
pub fn block_of(f: &Function, owner: Option<StmtId>, which: u8) -> &Block {
    match owner {
        None => &f.body,
        Some(s) => nested_block(f, &f.stmts[s].kind, which).expect("site names a block"),
    }
}

/// The block a [`Site`] points into, mutably.
pub fn block_of_mut(f: &mut Function, owner: Option<StmtId>, which: u8) -> &mut Block {
    match owner {
        None => &mut f.body,
        Some(s) => {
            let kind = f.stmts[s].kind;
            f.nested_block_mut(&kind, which)
                .expect("site names a block")
        }
    }
}

/// Block number `which` of a statement (see [`Site::block`]).
pub fn nested_block<'f>(f: &'f Function, kind: &StmtKind, which: u8) -> Option<&'f Block> {
    f.nested_block(kind, which)
}

/// One step of a [`Walk`].
#[derive(Copy, Clone, Debug)]
pub enum Event<'f> {
    /// A block opens: block `which` of statement `owner` (`None`: the
    /// function body; see [`Site::block`]).
    EnterBlock {
        owner: Option<StmtId>,
        which: u8,
        block: &'f Block,
    },
    /// A statement, before anything nested in it.
    Enter(StmtId, Site),
    /// A statement, after everything nested in it.
    Leave(StmtId),
    /// The block [`Event::EnterBlock`] opened closes.
    LeaveBlock {
        owner: Option<StmtId>,
        which: u8,
        block: &'f Block,
    },
}

/// An open block of the walk.
struct Open<'f> {
    owner: Option<StmtId>,
    which: u8,
    block: &'f Block,
    stmts: &'f [StmtId],
    /// The next statement to enter; `None` before [`Event::EnterBlock`].
    next: Option<usize>,
    /// The innermost `for`/`while` whose body holds this block.
    in_loop: Option<StmtId>,
    /// Whether the innermost `manual`/`auto` scope around this block is
    /// `manual` (false outside every scope).
    in_manual: bool,
}

enum Frame<'f> {
    Block(Open<'f>),
    /// [`Event::Leave`] of a statement whose blocks are done.
    Leave(StmtId),
    /// A block whose [`Event::LeaveBlock`] was returned: popped next.
    Closed(Open<'f>),
}

impl<'f> Frame<'f> {
    /// Block `which` of `owner` (`None`: the body), not yet entered.
    fn open(
        f: &'f Function,
        owner: Option<StmtId>,
        which: u8,
        block: &'f Block,
        in_loop: Option<StmtId>,
        in_manual: bool,
    ) -> Frame<'f> {
        Frame::Block(Open {
            owner,
            which,
            block,
            stmts: f.block_stmts(block),
            next: None,
            in_loop,
            in_manual,
        })
    }
}

/// The statement walk of one function (or of one block of it): an
/// iterator of [`Event`]s, with an explicit stack (heap, not call stack,
/// whatever the nesting depth).
pub struct Walk<'f> {
    f: &'f Function,
    stack: Vec<Frame<'f>>,
    /// The statement just entered, whose blocks are pushed on the next step.
    pending: Option<StmtId>,
    /// The blocks entered and not yet popped (open or just closed).
    depth: usize,
}

impl<'f> Walk<'f> {
    /// The walk of `f`'s body.
    pub fn new(f: &'f Function) -> Walk<'f> {
        Walk::within(f, None, 0, &f.body)
    }

    /// The walk of one block of `f`: block `which` of `owner` (`None`, 0:
    /// the body). Enclosing loops outside it are not seen.
    pub fn within(f: &'f Function, owner: Option<StmtId>, which: u8, block: &'f Block) -> Walk<'f> {
        let in_loop = owner.filter(|&s| is_loop(f, s));
        let in_manual = owner.and_then(|s| manual_scope(f, s)).unwrap_or(false);
        Walk {
            f,
            stack: vec![Frame::open(f, owner, which, block, in_loop, in_manual)],
            pending: None,
            depth: 0,
        }
    }

    /// Do not descend into the statement the last [`Event::Enter`] named:
    /// its [`Event::Leave`] comes next.
    pub fn skip_nested(&mut self) {
        if let Some(s) = self.pending.take() {
            self.stack.push(Frame::Leave(s));
        }
    }

    fn innermost(&self) -> Option<&Open<'f>> {
        self.stack.iter().rev().find_map(|fr| match fr {
            Frame::Block(o) | Frame::Closed(o) => Some(o),
            Frame::Leave(_) => None,
        })
    }

    /// How many blocks are open around the last event's statement (the
    /// body counts: a top-level statement is at depth 1). At
    /// [`Event::EnterBlock`] and [`Event::LeaveBlock`] the block itself
    /// counts.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The innermost `for` or `while` whose body holds the last event's
    /// statement (at a block event: the block).
    pub fn enclosing_loop(&self) -> Option<StmtId> {
        self.innermost().and_then(|o| o.in_loop)
    }

    /// Whether the innermost `manual`/`auto` scope around the last event's
    /// statement (at a block event: the block) is `manual`; false outside
    /// every scope. The rule that makes a loop one the
    /// `expand-manual-phase-fence` pass rewrites (and the editor marks).
    pub fn in_manual_scope(&self) -> bool {
        self.innermost().is_some_and(|o| o.in_manual)
    }

    /// The statements whose blocks hold the last event's statement,
    /// innermost first.
    pub fn owners(&self) -> impl Iterator<Item = StmtId> + '_ {
        self.stack.iter().rev().filter_map(|fr| match fr {
            Frame::Block(o) | Frame::Closed(o) => o.owner,
            Frame::Leave(_) => None,
        })
    }

    /// Pushes the blocks of `s` (just entered), or its leave when it has none.
    fn descend(&mut self, s: StmtId) -> Option<Event<'f>> {
        let f = self.f;
        if s.index() >= f.stmts.len() {
            // A dangling id (only hand-built IR has them): nothing to descend into.
            return Some(Event::Leave(s));
        }
        let kind: &'f StmtKind = &f.stmts[s].kind;
        let (then_body, else_body) = (f.nested_block(kind, 0), f.nested_block(kind, 1));
        if then_body.is_none() && else_body.is_none() {
            // Nothing nested (most statements): no frame to push.
            return Some(Event::Leave(s));
        }
        let in_loop = if is_loop(f, s) {
            Some(s)
        } else {
            self.innermost().and_then(|o| o.in_loop)
        };
        let in_manual = manual_scope(f, s).unwrap_or_else(|| self.in_manual_scope());
        self.stack.push(Frame::Leave(s));
        for (which, b) in [(1u8, else_body), (0, then_body)] {
            if let Some(block) = b {
                let frame = Frame::open(f, Some(s), which, block, in_loop, in_manual);
                self.stack.push(frame);
            }
        }
        None
    }
}

/// `Some(manual)` when `s` is a `manual`/`auto` scope.
fn manual_scope(f: &Function, s: StmtId) -> Option<bool> {
    match f.stmts.get(s)?.kind {
        StmtKind::Scope(sc) => f.scopes.get(sc).map(|scope| scope.manual),
        _ => None,
    }
}

fn is_loop(f: &Function, s: StmtId) -> bool {
    s.index() < f.stmts.len() && matches!(f.stmts[s].kind, StmtKind::For(_) | StmtKind::While(_))
}

impl<'f> Iterator for Walk<'f> {
    type Item = Event<'f>;

    fn next(&mut self) -> Option<Event<'f>> {
        if let Some(s) = self.pending.take()
            && let Some(leave) = self.descend(s)
        {
            return Some(leave);
        }
        loop {
            match self.stack.last_mut()? {
                Frame::Leave(s) => {
                    let s = *s;
                    self.stack.pop();
                    return Some(Event::Leave(s));
                }
                Frame::Closed(_) => {
                    self.stack.pop();
                    self.depth -= 1;
                }
                Frame::Block(open) => {
                    let Some(next) = open.next else {
                        open.next = Some(0);
                        self.depth += 1;
                        return Some(Event::EnterBlock {
                            owner: open.owner,
                            which: open.which,
                            block: open.block,
                        });
                    };
                    if let Some(&s) = open.stmts.get(next) {
                        open.next = Some(next + 1);
                        self.pending = Some(s);
                        let site = Site {
                            owner: open.owner,
                            block: open.which,
                            index: next,
                        };
                        return Some(Event::Enter(s, site));
                    }
                    let event = Event::LeaveBlock {
                        owner: open.owner,
                        which: open.which,
                        block: open.block,
                    };
                    if let Some(Frame::Block(open)) = self.stack.pop() {
                        self.stack.push(Frame::Closed(open));
                    }
                    return Some(event);
                }
            }
        }
    }
}

/// Walks every statement reachable from the function body in source
/// (pre-)order. `enter` sees a statement before anything nested in it,
/// `exit` after everything nested in it. (Callers that share state
/// between the two iterate a [`Walk`] instead.)
pub fn walk_stmts(f: &Function, mut enter: impl FnMut(StmtId, Site), mut exit: impl FnMut(StmtId)) {
    for event in Walk::new(f) {
        match event {
            Event::Enter(s, site) => enter(s, site),
            Event::Leave(s) => exit(s),
            Event::EnterBlock { .. } | Event::LeaveBlock { .. } => {}
        }
    }
}

/// The expressions a statement holds itself (not those of nested statements),
/// in source order.
pub fn own_exprs(f: &Function, kind: &StmtKind, out: &mut Vec<ExprId>) {
    for_each_own_expr(f, kind, |e| out.push(e));
}

/// Calls `visit` on each expression a statement holds itself, in source
/// order (the order of [`own_exprs`], without collecting them).
#[inline]
pub fn for_each_own_expr(f: &Function, kind: &StmtKind, mut visit: impl FnMut(ExprId)) {
    match *kind {
        StmtKind::Assign { value, .. } => visit(value),
        StmtKind::Submit(s) => {
            let s = &f.submits[s];
            f.list(s.args).iter().for_each(|&e| visit(e));
            f.list(s.deps).iter().for_each(|&e| visit(e));
            for e in [s.core_num, s.sync_start, s.allow_early_resolve, s.predicate]
                .into_iter()
                .flatten()
            {
                visit(e);
            }
            f.list(s.rejected_kwargs)
                .iter()
                .for_each(|k| visit(k.value));
        }
        StmtKind::Eval(e) => visit(e),
        StmtKind::For(l) => {
            let l = &f.fors[l];
            visit(l.start);
            visit(l.stop);
            visit(l.step);
            f.list(l.extra_bounds).iter().for_each(|&e| visit(e));
            f.list(l.iter_args).iter().for_each(|a| visit(a.init));
        }
        StmtKind::While(w) => {
            let w = &f.whiles[w];
            f.list(w.iter_args).iter().for_each(|a| visit(a.init));
            visit(w.cond);
        }
        StmtKind::If(i) => visit(f.ifs[i].cond),
        StmtKind::Yield(es) | StmtKind::Return(es) => f.list(es).iter().for_each(|&e| visit(e)),
        StmtKind::Scope(_) | StmtKind::Break | StmtKind::Continue => {}
    }
}

/// The direct operands of an expression node.
pub fn expr_children(f: &Function, kind: &ExprKind, out: &mut Vec<ExprId>) {
    for_each_child(f, kind, |e| out.push(e));
}

/// Calls `visit` on each direct operand of an expression node, in the
/// order of [`expr_children`].
#[inline]
pub fn for_each_child(f: &Function, kind: &ExprKind, mut visit: impl FnMut(ExprId)) {
    match *kind {
        ExprKind::Unary(_, a) => visit(a),
        ExprKind::Binary(_, a, b) => {
            visit(a);
            visit(b);
        }
        ExprKind::Call(c) => {
            let c = &f.calls[c];
            f.list(c.args).iter().for_each(|&e| visit(e));
            f.list(c.kwargs).iter().for_each(|k| visit(k.value));
            f.list(c.manual_dep_edges).iter().for_each(|&e| visit(e));
        }
        ExprKind::List(es) => f.list(es).iter().for_each(|&e| visit(e)),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Dtype(_)
        | ExprKind::Var(_)
        | ExprKind::Unresolved(_) => {}
    }
}

/// Whether an expression node has no operands (a literal or a variable).
#[inline]
pub fn is_leaf(kind: &ExprKind) -> bool {
    !matches!(
        kind,
        ExprKind::Unary(..) | ExprKind::Binary(..) | ExprKind::Call(_) | ExprKind::List(_)
    )
}

/// Visits every node of the expression tree under `root` (pre-order).
/// `work` is scratch space, reused across calls to avoid allocation.
pub fn for_each_expr(
    f: &Function,
    root: ExprId,
    work: &mut Vec<ExprId>,
    mut visit: impl FnMut(ExprId),
) {
    work.clear();
    work.push(root);
    while let Some(e) = work.pop() {
        visit(e);
        let kind = &f.exprs[e].kind;
        if is_leaf(kind) {
            continue;
        }
        let before = work.len();
        for_each_child(f, kind, |k| work.push(k));
        work[before..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Module;

    fn module(text: &str) -> Module {
        let (m, diags) = crate::frontend::read_module(text, Default::default()).into_parts();
        assert!(diags.is_empty(), "{diags:?}");
        m.expect("a module")
    }

    const NESTED: &str = "func main(n: i64, c: bool) {
  manual {
    for i in range(n) {
      if c {
        x = i + 1
      } else {
        y = i + 2
      }
    }
  }
  z = n + 3
}
";

    /// A line per event: its kind, the statement's first word, the depth
    /// and the enclosing loop's first word.
    fn trace(m: &Module) -> Vec<String> {
        let f = &m.functions()[0];
        let word = |s: StmtId| {
            crate::ir::describe::describe_stmt(m, f, s)
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string()
        };
        let mut out = Vec::new();
        let mut w = Walk::new(f);
        while let Some(ev) = w.next() {
            let lp = w.enclosing_loop().map_or("-".into(), word);
            let line = match ev {
                Event::EnterBlock { owner, which, .. } => {
                    format!("{{ {} {which}", owner.map_or("body".into(), word))
                }
                Event::LeaveBlock { owner, which, .. } => {
                    format!("}} {} {which}", owner.map_or("body".into(), word))
                }
                Event::Enter(s, site) => format!("> {} @{}", word(s), site.index),
                Event::Leave(s) => format!("< {}", word(s)),
            };
            out.push(format!("{line} d{} loop:{lp}", w.depth()));
        }
        out
    }

    #[test]
    fn events_come_in_source_order_with_depth_and_loop() {
        let m = module(NESTED);
        let expected = [
            "{ body 0 d1 loop:-",
            "> manual @0 d1 loop:-",
            "{ manual 0 d2 loop:-",
            "> for @0 d2 loop:-",
            "{ for 0 d3 loop:for",
            "> if @0 d3 loop:for",
            "{ if 0 d4 loop:for",
            "> x @0 d4 loop:for",
            "< x d4 loop:for",
            "} if 0 d4 loop:for",
            "{ if 1 d4 loop:for",
            "> y @0 d4 loop:for",
            "< y d4 loop:for",
            "} if 1 d4 loop:for",
            "< if d3 loop:for",
            "} for 0 d3 loop:for",
            "< for d2 loop:-",
            "} manual 0 d2 loop:-",
            "< manual d1 loop:-",
            "> z @1 d1 loop:-",
            "< z d1 loop:-",
            "} body 0 d1 loop:-",
        ];
        assert_eq!(trace(&m), expected);
    }

    #[test]
    fn skip_leaves_out_what_is_nested() {
        let m = module(NESTED);
        let f = &m.functions()[0];
        let mut w = Walk::new(f);
        let mut entered = 0;
        while let Some(ev) = w.next() {
            if let Event::Enter(s, _) = ev {
                entered += 1;
                if matches!(f.stmts[s].kind, StmtKind::For(_)) {
                    w.skip_nested();
                    assert!(matches!(w.next(), Some(Event::Leave(t)) if t == s));
                }
            }
        }
        // manual, for, z: not the `if` and its two statements.
        assert_eq!(entered, 3);
        let mut all = 0;
        walk_stmts(f, |_, _| all += 1, |_| {});
        assert_eq!(all, 6);
    }

    #[test]
    fn a_walk_within_a_block_sees_only_that_block() {
        let m = module(NESTED);
        let f = &m.functions()[0];
        let scope = f.block_stmts(&f.body)[0];
        let body = f.nested_block(&f.stmts[scope].kind, 0).unwrap();
        let lp = f.block_stmts(body)[0];
        let lbody = f.nested_block(&f.stmts[lp].kind, 0).unwrap();
        let mut w = Walk::within(f, Some(lp), 0, lbody);
        let mut events = 0;
        while let Some(ev) = w.next() {
            events += 1;
            assert_eq!(w.enclosing_loop(), Some(lp));
            assert_eq!(w.owners().last(), Some(lp));
            if let Event::Enter(_, site) = ev
                && w.depth() == 1
            {
                assert_eq!(site.owner, Some(lp));
            }
        }
        // { if { x } { y } }: 2 + 2 + 2 * 4.
        assert_eq!(events, 12);
    }

    #[test]
    /// The innermost scope decides: a statement is in a manual scope under
    /// `manual` (at any depth of loops and `if`s), not under an `auto`
    /// nested in it, nor outside every scope; nor in a walk of a part.
    fn the_innermost_scope_decides_manual() {
        let m = module(
            "func main(n: i64, c: bool) {
  a = 0
  manual {
    for i in range(n) {
      if c {
        b = 1
      }
      auto {
        d = 2
        manual {
          e = 3
        }
      }
      g = 4
    }
  }
  h = 5
}
",
        );
        let f = &m.functions()[0];
        let mut manual = Vec::new();
        let mut w = Walk::new(f);
        while let Some(ev) = w.next() {
            if let Event::Enter(s, _) = ev
                && let StmtKind::Assign { .. } = f.stmts[s].kind
            {
                manual.push(w.in_manual_scope());
            }
        }
        // a, b, d, e, g, h
        assert_eq!(manual, [false, true, false, true, true, false]);
    }

    #[test]
    fn deep_nesting_walks_without_recursion() {
        use crate::ir::FuncKind;
        use crate::ir::builder::FunctionBuilder;
        let depth = 100_000;
        let mut b = FunctionBuilder::new("deep", FuncKind::Orchestration);
        let mut inner = Vec::new();
        for _ in 0..depth {
            let s = b.scope(true, None, &inner);
            inner = vec![s];
        }
        let f = b.finish(&inner);
        let (mut max, mut events) = (0, 0);
        let mut w = Walk::new(&f);
        while let Some(_ev) = w.next() {
            events += 1;
            max = max.max(w.depth());
        }
        assert_eq!(max, depth + 1);
        assert_eq!(events, 4 * depth + 2);
    }
}
