//! One walk over a function collecting what the phase-fence analysis needs.
//!
//! **Positions.** Statements are numbered 1, 2, ... in source (pre-)order;
//! a statement's number is `num`, and `end` is the largest number nested in
//! it. Program points are *positions*: `2 * num` for a statement itself
//! (its own expressions, the variables it binds in the enclosing block) and
//! `2 * num + 1` for what a loop defines for its body (induction variable
//! and iter-args). Position 0 is the function's parameters. The body of loop
//! `L` is then the position interval `(2 * num(L), 2 * end(L) + 1]`:
//! "defined inside L" and "updated inside L" are interval tests.
//!
//! **Updates.** A class's storage is written by `array.update_element(B,
//! ...)` with B in the class, and by the `yield` that ends a `for` or
//! `while` body, for each `array<task_id, _>` iter-arg whose yielded value
//! is not a member of the iter-arg's class (a foreign array, a copy, an
//! `if` or loop result, an update result: the last is an update already).
//! Both are recorded at the writing statement's position, so "updated
//! inside L" stays one binary search per (loop, class).
//!
//! **Loops.** Only `for` loops are loops here (a `while` is part of the
//! body that holds it). Loops are indexed in pre-order, so a parent's index
//! is below its children's, and each loop records its parent, depth and
//! trip count. The edge from a loop `C` to its parent `P` is *countable*
//! when `P` is a `range` loop and `C`'s trip count is a known positive
//! constant: consumers below a countable edge count for `P`. Countable edges
//! group loops into *components* (trees), each with a root loop.

use super::alias::AliasForest;
use crate::ir::trip_count::trip_count;
use crate::ir::walk::{Event, Site, Walk, for_each_expr, for_each_own_expr, is_leaf};
use crate::ir::{
    Arena, ArenaId, BuiltinOp, ExprId, ExprKind, ForLoop, Function, IterArg, LoopKind,
    SecondaryMap, StmtId, StmtKind, Type, VarId,
};
use crate::span::Span;
use hashbrown::HashMap;

crate::define_id!(
    /// A `for` loop of the index, numbered in pre-order (a parent's id is
    /// below its children's).
    LoopId
);

/// The op that updates an array's storage.
pub const UPDATE_ELEMENT: BuiltinOp = BuiltinOp::ArrayUpdateElement;

#[derive(Clone, Debug)]
pub struct LoopInfo {
    pub stmt: StmtId,
    pub site: Site,
    pub num: u32,
    pub end: u32,
    /// The innermost enclosing loop.
    pub parent: Option<LoopId>,
    /// The number of enclosing loops.
    pub depth: u32,
    pub kind: LoopKind,
    /// Known trip count (saturating at `i64::MAX`).
    pub trip: Option<u64>,
    /// Inside a `manual` scope (and so considered by the pass).
    pub manual: bool,
    /// Consumers in this loop count for the parent loop.
    pub countable_edge: bool,
    /// The root of this loop's component.
    pub comp_root: LoopId,
    /// `for ... (...)`, up to the body's `{`.
    pub header: Span,
    /// The iter-args' variables.
    pub iter_vars: Vec<VarId>,
}

impl LoopInfo {
    /// `(2 * num, 2 * end + 1]`: does position `p` lie in the body?
    pub fn body_contains(&self, p: u64) -> bool {
        2 * u64::from(self.num) < p && p <= 2 * u64::from(self.end) + 1
    }

    /// What a consumer count at this loop is multiplied by: the trip count
    /// when it is a known positive constant, else 1.
    pub fn multiplier(&self) -> u64 {
        match self.trip {
            Some(t) if t > 0 => t,
            _ => 1,
        }
    }

    /// Why this loop can take no barrier at all (trip count rules), if so.
    pub fn trip_blocker(&self) -> Option<&'static str> {
        match (self.kind, self.trip) {
            (LoopKind::Parallel, None) => Some("the parallel loop's trip count is unknown"),
            (LoopKind::Parallel, Some(0)) => Some("the parallel loop's trip count is zero"),
            (LoopKind::Range | LoopKind::Unroll, Some(0)) => {
                Some("the loop's trip count is zero: it never runs")
            }
            _ => None,
        }
    }

    /// Considered by the pass and not excluded by its trip count.
    pub fn eligible(&self) -> bool {
        self.manual && self.trip_blocker().is_none()
    }
}

/// A `submit` whose only dependency is one `array<task_id, _>` variable.
#[derive(Clone, Debug)]
pub struct Consumer {
    pub stmt: StmtId,
    pub array: VarId,
    pub num: u32,
    /// The innermost enclosing loop.
    pub loop_: Option<LoopId>,
}

/// How a statement writes an alias class's storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateKind {
    /// `array.update_element(target, ...)`.
    Element,
    /// A `yield` of a `for`/`while` body that writes `value` (neither a
    /// member of the class nor an element-update result on one) into the
    /// iter-arg `target`.
    Yield { value: Option<VarId> },
}

/// A write of an alias class's storage (safety rule 3).
#[derive(Clone, Debug)]
pub struct Update {
    pub pos: u64,
    pub span: Span,
    /// The variable written: the updated array, or the iter-arg yielded into.
    pub target: VarId,
    pub kind: UpdateKind,
}

#[derive(Debug)]
pub struct FunctionIndex {
    pub loops: Arena<LoopId, LoopInfo>,
    pub consumers: Vec<Consumer>,
    /// Per variable, the position of its definition.
    pub def_pos: SecondaryMap<VarId, u64>,
    pub alias: AliasForest,
    pub updates: Vec<Update>,
    /// Per alias class (root variable), its updates' indices in position order.
    pub updates_by_class: HashMap<VarId, Vec<u32>>,
    /// The number of statements reached.
    pub stmt_count: u32,
}

/// The state of [`FunctionIndex::build`]'s walk.
struct Indexer<'f> {
    f: &'f Function,
    idx: FunctionIndex,
    /// The number of the last statement entered.
    last_num: u32,
    /// The enclosing `for` loops, innermost last.
    loop_stack: Vec<LoopId>,
    /// The expression walk's work list.
    work: Vec<ExprId>,
}

impl<'f> Indexer<'f> {
    /// Numbers statement `s` and records what it defines, updates,
    /// consumes or opens (`manual`: whether it stands in a manual scope,
    /// [`Walk::in_manual_scope`]).
    fn enter(&mut self, s: StmtId, site: Site, manual: bool) {
        let f = self.f;
        self.last_num += 1;
        let num = self.last_num;
        let pos = 2 * u64::from(num);
        let stmt = &f.stmts[s];
        for &r in f.results(&stmt.kind) {
            self.idx.def_pos[r] = pos;
        }
        self.element_updates(&stmt.kind, pos);
        match &stmt.kind {
            StmtKind::Yield(values) => self.yield_updates(site, f.list(*values), pos),
            StmtKind::Submit(sub) => {
                if let [d] = f.list(f.submits[*sub].deps)
                    && let ExprKind::Var(a) = f.exprs[*d].kind
                    && f.var_ty(a).is_task_id_array()
                {
                    self.idx.consumers.push(Consumer {
                        stmt: s,
                        array: a,
                        num,
                        loop_: self.loop_stack.last().copied(),
                    });
                }
            }
            StmtKind::While(w) => self.link_iters(f.list(f.whiles[*w].iter_args), pos),
            StmtKind::For(l) => self.for_loop(s, site, num, &f.fors[*l], manual),
            _ => {}
        }
    }

    /// Closes the loop `s`.
    fn leave(&mut self, s: StmtId) {
        if let StmtKind::For { .. } = &self.f.stmts[s].kind {
            let me = self.loop_stack.pop().expect("loop stack");
            self.idx.loops[me].end = self.last_num;
        }
    }

    /// Storage updates among a statement's own expressions (a variable or
    /// a literal holds none: not walked).
    fn element_updates(&mut self, kind: &StmtKind, pos: u64) {
        let (f, idx, work) = (self.f, &mut self.idx, &mut self.work);
        for_each_own_expr(f, kind, |r| {
            if is_leaf(&f.exprs[r].kind) {
                return;
            }
            for_each_expr(f, r, work, |e| {
                if let Some(c) = f.call(e)
                    && c.builtin == Some(UPDATE_ELEMENT)
                    && let Some(&a) = f.list(c.args).first()
                    && let ExprKind::Var(target) = f.exprs[a].kind
                {
                    idx.update(pos, f.exprs[e].span, target, UpdateKind::Element);
                }
            });
        });
    }

    /// Rule 3, second half: a loop's yield writes its values into the
    /// iter-args' storage.
    fn yield_updates(&mut self, site: Site, values: &[ExprId], pos: u64) {
        let f = self.f;
        let iters = site
            .owner
            .map_or(&[][..], |o| f.iter_args(&f.stmts[o].kind));
        for (it, &v) in iters.iter().zip(values) {
            if !f.var_ty(it.var).is_task_id_array() {
                continue;
            }
            let class = self.idx.alias.class(it.var);
            let value = match f.exprs[v].kind {
                ExprKind::Var(x) => Some(x),
                _ => None,
            };
            if value.is_some_and(|x| self.idx.alias.class(x) == class) {
                continue;
            }
            let span = f.exprs[v].span;
            self.idx
                .update(pos, span, it.var, UpdateKind::Yield { value });
        }
    }

    /// A loop's iter-args: defined for its body, and aliased to the array
    /// variable they start from.
    fn link_iters(&mut self, iters: &[IterArg], pos: u64) {
        let f = self.f;
        for it in iters {
            self.idx.def_pos[it.var] = pos + 1;
            if f.var_ty(it.var).is_task_id_array()
                && let ExprKind::Var(init) = f.exprs[it.init].kind
                && f.var_ty(init).is_task_id_array()
            {
                self.idx.alias.link(it.var, init);
            }
        }
    }

    /// Opens `for` loop `s`, numbered `num` (in a manual scope when `manual`).
    fn for_loop(&mut self, s: StmtId, site: Site, num: u32, l: &ForLoop, manual: bool) {
        let f = self.f;
        let pos = 2 * u64::from(num);
        let span = f.stmts[s].span;
        let (kind, body) = (l.kind, &l.body);
        let iter_args = f.list(l.iter_args);
        self.idx.def_pos[l.var] = pos + 1;
        self.link_iters(iter_args, pos);
        let idx = &mut self.idx;
        let parent = self.loop_stack.last().copied();
        let trip = trip_count(f, l.start, l.stop, l.step);
        let me = LoopId::from_index(idx.loops.len());
        let countable_edge = parent.is_some_and(|p| {
            idx.loops[p].kind == LoopKind::Range && matches!(trip, Some(t) if t > 0)
        });
        let comp_root = match parent {
            Some(p) if countable_edge => idx.loops[p].comp_root,
            _ => me,
        };
        // `for ... {`: up to and including the body's brace.
        let header_end = (body.span.start() + 1).max(span.start());
        let header = Span::new(span.start(), header_end.min(span.end().max(span.start())));
        idx.loops.alloc(LoopInfo {
            stmt: s,
            site,
            num,
            end: num,
            parent,
            depth: self.loop_stack.len() as u32,
            kind,
            trip,
            manual,
            countable_edge,
            comp_root,
            header,
            iter_vars: iter_args.iter().map(|a| a.var).collect(),
        });
        self.loop_stack.push(me);
    }
}

impl FunctionIndex {
    pub fn build(f: &Function) -> FunctionIndex {
        let mut idx = FunctionIndex {
            loops: Arena::new(),
            consumers: Vec::new(),
            def_pos: f.vars.secondary(0),
            alias: AliasForest::new(f),
            updates: Vec::new(),
            updates_by_class: HashMap::new(),
            stmt_count: 0,
        };
        // Room for every `for` loop and every `submit` (each at most one
        // consumer), so neither list grows (and copies itself) on the way.
        idx.loops.reserve(f.fors.len());
        idx.consumers.reserve(f.submits.len());
        let mut ix = Indexer {
            f,
            idx,
            last_num: 0,
            loop_stack: Vec::new(),
            work: Vec::new(),
        };
        let mut walk = Walk::new(f);
        while let Some(event) = walk.next() {
            match event {
                Event::Enter(s, site) => ix.enter(s, site, walk.in_manual_scope()),
                Event::Leave(s) => ix.leave(s),
                Event::EnterBlock { .. } | Event::LeaveBlock { .. } => {}
            }
        }
        ix.idx.stmt_count = ix.last_num;
        ix.idx
    }

    /// Records an update of `target`'s class at `pos`.
    fn update(&mut self, pos: u64, span: Span, target: VarId, kind: UpdateKind) {
        let class = self.alias.class(target);
        let i = self.updates.len() as u32;
        self.updates.push(Update {
            pos,
            span,
            target,
            kind,
        });
        self.updates_by_class.entry(class).or_default().push(i);
    }

    /// Whether `array` is an iter-arg of loop `l` (rule 1).
    pub fn is_iter_arg_of(&self, l: LoopId, array: VarId) -> bool {
        let lp = &self.loops[l];
        self.def_pos[array] == 2 * u64::from(lp.num) + 1
    }

    /// Whether `array` is defined inside loop `l`'s body, iter-args of `l`
    /// included (rules 1 and 2).
    pub fn defined_in(&self, l: LoopId, array: VarId) -> bool {
        self.loops[l].body_contains(self.def_pos[array])
    }

    /// The first update of `array`'s alias class inside loop `l`'s body (rule 3).
    pub fn first_update_in(&self, l: LoopId, array: VarId) -> Option<&Update> {
        let list = self.updates_by_class.get(&self.alias.class(array))?;
        let lp = &self.loops[l];
        let lo = 2 * u64::from(lp.num);
        let i = list.partition_point(|&u| self.updates[u as usize].pos <= lo);
        let u = &self.updates[*list.get(i)? as usize];
        lp.body_contains(u.pos).then_some(u)
    }

    /// Whether `array` may not be compressed for loop `l` (rules 1 to 3).
    pub fn unsafe_for(&self, l: LoopId, array: VarId) -> bool {
        self.defined_in(l, array) || self.first_update_in(l, array).is_some()
    }
}

/// The producer count of an array variable: its literal extent, else 0.
pub fn producers(ty: &Type) -> u64 {
    match ty.array_extent() {
        Some(n) if n > 0 => n as u64,
        _ => 0,
    }
}
