//! A second implementation of the decision rules of
//! `expand-manual-phase-fence`, written from
//! `docs/passes/expand-manual-phase-fence.md` alone, as a test oracle: it
//! shares no code with the pass (`passes::expand_manual_phase_fence`,
//! `passes::phase_fence`, `ir::walk`, `ir::trip_count`) and is written
//! for clarity, not speed: it visits loops the way the page describes,
//! outer first, recomputing counts and safety for every (loop, array)
//! pair.
//!
//! [`decide`] says which (loop, array) pairs get a barrier, in creation
//! order, and which consumers each one rewrites, and which rules of the
//! page decided something on the way ([`Rule`], for
//! `docs/pass-rule-coverage.md`).

use crate::ir::{
    Block, BuiltinOp, Callee, ExprId, ExprKind, Function, LoopKind, StmtId, StmtKind, Type,
    UnaryOp, VarId,
};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Rules of the pass page that decided something in a program, named as in
/// `docs/pass-rule-coverage.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// W3/W4: a loop with consumers in an `auto` scope is not considered.
    NotConsideredInAuto,
    /// W5: a loop in a `manual` scope inside an `auto` one is considered.
    ManualInAuto,
    /// M1: a consumer in an `if` branch counts for the loop.
    CountInIf,
    /// M2: a consumer in a `while` body counts for the loop.
    CountInWhile,
    /// M3: a consumer in a nested scope counts for the loop.
    CountInScope,
    /// M4: a nested `for` counts for a `range` loop, times its trip count.
    CountNestedFor,
    /// M6: a nested `for` does not count for a `parallel` loop.
    NoCountUnderParallel,
    /// M7: a nested `for` does not count for an `unroll` loop.
    NoCountUnderUnroll,
    /// M8: a nested `for` of unknown trip count does not count.
    NoCountUnknownInner,
    /// M11: the total is multiplied by the loop's known trip count.
    MultipliedByTrip,
    /// M12 / T11: a loop of unknown trip count compresses, counted once.
    UnknownTripCompresses,
    /// T8: `parallel` with an unknown trip count: no barrier.
    ParallelUnknown,
    /// T9: `parallel` with a zero trip count: no barrier.
    ParallelZero,
    /// T10/T12: `range`/`unroll` with a zero trip count: no barrier.
    SequentialZero,
    /// N2: a dynamic extent: the producer count is unknown (N = 0).
    UnknownProducers,
    /// N3: a literal extent of 0: zero producers.
    ZeroProducers,
    /// F2: not profitable: a single producer (`1 x M`).
    OneProducer,
    /// F2: not profitable: a single consumer (`N x 1`, N > 1).
    OneConsumer,
    /// F3: not profitable: `2 x 2`, where N x M = N + M.
    TwoByTwo,
    /// F4: profitable and safe: a barrier.
    Compressed,
    /// F4: ... by the smallest margin, N x M - (N + M) = 1 (`2 x 3`,
    /// `3 x 2`).
    JustProfitable,
    /// S1: the array is an iter-arg of the loop.
    IterArgOfLoop,
    /// S2: the array is bound inside the body.
    BoundInBody,
    /// S3/S5: the array is a loop result or iter-arg of a nested loop.
    NestedLoopDefinesIt,
    /// S4: the array is an `if` result in the body.
    IfResultInBody,
    /// S7: `array.update_element` on the array inside the body.
    UpdatedInBody,
    /// S8: ... on a member of its alias class (not the array itself).
    UpdatedThroughAlias,
    /// S9: the alias is made by a `while` loop.
    AliasFromWhile,
    /// S12/S14: a copy (or other non-alias) is updated in the body, and the
    /// array still compresses.
    CopyUpdatedStillCompressed,
    /// S17: a yield of a non-member into an iter-arg of the array's class.
    YieldWrites,
    /// S18: ... by a loop nested in L.
    NestedYieldWrites,
    /// S19: a yield of a member into an aliased iter-arg, and the array
    /// still compresses.
    YieldMemberHarmless,
    /// S20: the yield of an update result made inside the body (the update
    /// itself keeps the array direct).
    YieldUpdateInside,
    /// S20b (safety rule 3, sharpened): the yield of an update result made
    /// before the loop writes the storage.
    YieldUpdateBefore,
    /// R11: an array an outer loop kept direct is compressed by a nested loop.
    InnerTakesOver,
    /// R12: a consumer rewritten for an outer loop is not a consumer of the
    /// nested loop.
    RewrittenNotCountedAgain,
    /// C3: a `submit` with two `deps` entries (array and task) is no consumer.
    MixedNotConsumer,
    /// C2: a `submit` on a scalar task id is no consumer.
    ScalarNotConsumer,
}

impl Rule {
    /// The rows of `docs/pass-rule-coverage.md` this rule is.
    pub fn doc_ids(self) -> &'static str {
        match self {
            Rule::NotConsideredInAuto => "W3, W4",
            Rule::ManualInAuto => "W5",
            Rule::CountInIf => "M1",
            Rule::CountInWhile => "M2",
            Rule::CountInScope => "M3",
            Rule::CountNestedFor => "M4",
            Rule::NoCountUnderParallel => "M6",
            Rule::NoCountUnderUnroll => "M7",
            Rule::NoCountUnknownInner => "M8",
            Rule::MultipliedByTrip => "M11",
            Rule::UnknownTripCompresses => "M12, T11",
            Rule::ParallelUnknown => "T8",
            Rule::ParallelZero => "T9",
            Rule::SequentialZero => "T10, T12",
            Rule::UnknownProducers => "N2",
            Rule::ZeroProducers => "N3",
            Rule::OneProducer | Rule::OneConsumer => "F2",
            Rule::TwoByTwo => "F3",
            Rule::Compressed => "F4, R1, R9",
            Rule::JustProfitable => "F1, F4",
            Rule::IterArgOfLoop => "S1",
            Rule::BoundInBody => "S2",
            Rule::NestedLoopDefinesIt => "S3, S5",
            Rule::IfResultInBody => "S4",
            Rule::UpdatedInBody => "S7",
            Rule::UpdatedThroughAlias => "S8",
            Rule::AliasFromWhile => "S9",
            Rule::CopyUpdatedStillCompressed => "S12, S14",
            Rule::YieldWrites => "S17",
            Rule::NestedYieldWrites => "S18",
            Rule::YieldMemberHarmless => "S19",
            Rule::YieldUpdateInside => "S20",
            Rule::YieldUpdateBefore => "S23",
            Rule::InnerTakesOver => "R11, S16",
            Rule::RewrittenNotCountedAgain => "R12",
            Rule::MixedNotConsumer => "C3",
            Rule::ScalarNotConsumer => "C2",
        }
    }
}

/// What the rules decide for one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decisions {
    /// The barriers in creation order: (the loop's number among the
    /// function's `for` loops in pre-order, the array's name).
    pub barriers: Vec<(u32, String)>,
    /// Per rewritten consumer (its number among the function's `submit`s
    /// in pre-order), the barrier (an index into `barriers`).
    pub rewritten: Vec<(u32, usize)>,
}

/// [`Decisions`] and the rules that decided something.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub decisions: Decisions,
    pub rules: BTreeSet<Rule>,
}

/// i64::MAX: where counts saturate.
const CAP: u128 = i64::MAX as u128;

/// A constant bound: an integer literal or `-` applied to one.
fn constant(f: &Function, e: ExprId) -> Option<i128> {
    match f.exprs[e].kind {
        ExprKind::Int(v) => Some(i128::from(v.get())),
        ExprKind::Unary(UnaryOp::Neg, inner) => match f.exprs[inner].kind {
            ExprKind::Int(v) => Some(-i128::from(v.get())),
            _ => None,
        },
        _ => None,
    }
}

/// The trip count of a `for` loop: Python's `range` length when all three
/// bounds are constant, saturating at i64::MAX.
fn trip(f: &Function, s: StmtId) -> Option<u128> {
    let StmtKind::For(l) = f.stmts[s].kind else {
        return None;
    };
    let l = &f.fors[l];
    let (a, b, st) = (
        constant(f, l.start)?,
        constant(f, l.stop)?,
        constant(f, l.step)?,
    );
    // The number of values a + k*st (k >= 0) strictly before b.
    let n: i128 = if st > 0 && b > a {
        (b - a + st - 1) / st
    } else if st < 0 && a > b {
        (a - b + (-st) - 1) / (-st)
    } else {
        0
    };
    Some((n as u128).min(CAP))
}

fn loop_kind(f: &Function, s: StmtId) -> Option<LoopKind> {
    match f.stmts[s].kind {
        StmtKind::For(l) => Some(f.fors[l].kind),
        _ => None,
    }
}

fn is_array(ty: &Type) -> bool {
    ty.is_task_id_array()
}

/// The array a `submit` is a consumer of: exactly one `deps` entry, a
/// variable of type `array<task_id, N>`.
fn consumer_array(f: &Function, s: StmtId) -> Option<VarId> {
    let StmtKind::Submit(sub) = f.stmts[s].kind else {
        return None;
    };
    match f.list(f.submits[sub].deps) {
        [d] => match f.exprs[*d].kind {
            ExprKind::Var(v) if is_array(f.var_ty(v)) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

/// The blocks of a statement, in order.
fn blocks(f: &Function, s: StmtId) -> Vec<Block> {
    match f.stmts[s].kind {
        StmtKind::For(l) => vec![f.fors[l].body],
        StmtKind::While(w) => vec![f.whiles[w].body],
        StmtKind::Scope(sc) => vec![f.scopes[sc].body],
        StmtKind::If(i) => {
            let mut v = vec![f.ifs[i].then_body];
            v.extend(f.ifs[i].else_body);
            v
        }
        _ => vec![],
    }
}

/// Every statement inside `s`'s bodies, at any depth (not `s` itself).
fn inside(f: &Function, s: StmtId, out: &mut Vec<StmtId>) {
    for b in blocks(f, s) {
        for &t in f.block_stmts(&b) {
            out.push(t);
            inside(f, t, out);
        }
    }
}

/// The iter-args of a `for` or `while`: (variable, initial expression).
fn iter_args(f: &Function, s: StmtId) -> Vec<(VarId, ExprId)> {
    let list = match f.stmts[s].kind {
        StmtKind::For(l) => f.fors[l].iter_args,
        StmtKind::While(w) => f.whiles[w].iter_args,
        _ => return vec![],
    };
    f.list(list).iter().map(|a| (a.var, a.init)).collect()
}

/// The variables a statement defines: its bindings, and for loops their
/// induction variable and iter-args.
fn defines(f: &Function, s: StmtId) -> Vec<VarId> {
    let mut v: Vec<VarId> = f.results(&f.stmts[s].kind).to_vec();
    if let StmtKind::For(l) = f.stmts[s].kind {
        v.push(f.fors[l].var);
    }
    v.extend(iter_args(f, s).into_iter().map(|(x, _)| x));
    v
}

/// The array updated by an `array.update_element` call in expression `e`.
fn updated_by(f: &Function, e: ExprId) -> Option<VarId> {
    let c = f.call(e)?;
    if !matches!(c.callee, Callee::Op(_)) || c.builtin != Some(BuiltinOp::ArrayUpdateElement) {
        return None;
    }
    match f.exprs[*f.list(c.args).first()?].kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    }
}

/// The arrays statement `s` updates with `array.update_element` in its own
/// expressions (not in its bodies).
fn updates_of(f: &Function, s: StmtId) -> Vec<VarId> {
    let mut exprs = Vec::new();
    match f.stmts[s].kind {
        StmtKind::Assign { value, .. } | StmtKind::Eval(value) => exprs.push(value),
        StmtKind::For(_) | StmtKind::While(_) => {
            exprs.extend(iter_args(f, s).into_iter().map(|(_, i)| i))
        }
        _ => {}
    }
    exprs.into_iter().filter_map(|e| updated_by(f, e)).collect()
}

struct Oracle<'f> {
    f: &'f Function,
    /// Alias parent of each iter-arg initialised from an array variable.
    alias_parent: HashMap<VarId, VarId>,
    /// Iter-args made by `while` loops.
    while_iter_args: HashSet<VarId>,
    /// The statement binding each variable by `array.update_element`, and
    /// the array it updates.
    update_binding: HashMap<VarId, (StmtId, VarId)>,
    /// Pre-order numbers of `for` loops and `submit`s.
    loop_num: HashMap<StmtId, u32>,
    submit_num: HashMap<StmtId, u32>,
    /// Consumers already rewritten (they now depend on a scalar).
    rewritten: HashSet<StmtId>,
    out: Outcome,
}

/// One array's consumers counted for a loop.
struct Group {
    array: VarId,
    count: u128,
    /// The first counted consumer's pre-order number.
    first: u32,
    consumers: Vec<StmtId>,
}

impl<'f> Oracle<'f> {
    fn class(&self, mut v: VarId) -> VarId {
        while let Some(&p) = self.alias_parent.get(&v) {
            v = p;
        }
        v
    }

    /// Adds the consumers of `block` counted for a loop of kind `kind`
    /// (rules 1 and 2 of "Counting consumers") to `groups`.
    fn collect(&mut self, block: &Block, kind: LoopKind, groups: &mut Vec<Group>, depth_note: u8) {
        let f = self.f;
        for &s in f.block_stmts(block) {
            match f.stmts[s].kind {
                StmtKind::Submit(sub) => {
                    if let Some(a) = consumer_array(f, s) {
                        if self.rewritten.contains(&s) {
                            self.out.rules.insert(Rule::RewrittenNotCountedAgain);
                            continue;
                        }
                        match depth_note {
                            1 => self.out.rules.insert(Rule::CountInIf),
                            2 => self.out.rules.insert(Rule::CountInWhile),
                            3 => self.out.rules.insert(Rule::CountInScope),
                            _ => false,
                        };
                        add(groups, a, 1, self.submit_num[&s], vec![s]);
                    } else {
                        let deps = f.list(f.submits[sub].deps);
                        let arrays = deps
                            .iter()
                            .filter(|&&d| matches!(f.exprs[d].kind, ExprKind::Var(v) if is_array(f.var_ty(v))))
                            .count();
                        if deps.len() > 1 && arrays > 0 {
                            self.out.rules.insert(Rule::MixedNotConsumer);
                        } else if deps.len() == 1 {
                            self.out.rules.insert(Rule::ScalarNotConsumer);
                        }
                    }
                }
                StmtKind::If(_) => {
                    for b in blocks(f, s) {
                        self.collect(&b, kind, groups, 1);
                    }
                }
                StmtKind::While(_) => {
                    for b in blocks(f, s) {
                        self.collect(&b, kind, groups, 2);
                    }
                }
                StmtKind::Scope(_) => {
                    for b in blocks(f, s) {
                        self.collect(&b, kind, groups, depth_note.max(3));
                    }
                }
                StmtKind::For(_) => {
                    let t = trip(f, s);
                    let has_consumers = {
                        let mut all = Vec::new();
                        inside(f, s, &mut all);
                        all.iter().any(|&x| consumer_array(f, x).is_some())
                    };
                    match (kind, t) {
                        (LoopKind::Range, Some(t)) if t > 0 => {
                            let sub = self.count(s);
                            if !sub.is_empty() {
                                self.out.rules.insert(Rule::CountNestedFor);
                            }
                            for g in sub {
                                add(groups, g.array, g.count, g.first, g.consumers);
                            }
                        }
                        (LoopKind::Range, None) if has_consumers => {
                            self.out.rules.insert(Rule::NoCountUnknownInner);
                        }
                        (LoopKind::Parallel, _) if has_consumers => {
                            self.out.rules.insert(Rule::NoCountUnderParallel);
                        }
                        (LoopKind::Unroll, _) if has_consumers => {
                            self.out.rules.insert(Rule::NoCountUnderUnroll);
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// M(L) for every array counted for loop `l`, in order of first
    /// appearance.
    fn count(&mut self, l: StmtId) -> Vec<Group> {
        let f = self.f;
        let kind = loop_kind(f, l).expect("a for loop");
        let mut groups = Vec::new();
        for b in blocks(f, l) {
            self.collect(&b, kind, &mut groups, 0);
        }
        if let Some(t) = trip(f, l).filter(|&t| t > 0) {
            for g in &mut groups {
                g.count = (g.count * t).min(CAP);
            }
        }
        groups.sort_by_key(|g| g.first);
        groups
    }

    /// Why array `a` may not be compressed for loop `l` (safety rules 1-3),
    /// or `None` when it is safe.
    fn unsafe_because(&mut self, l: StmtId, a: VarId) -> Option<Rule> {
        let f = self.f;
        // 1. An iter-arg of L.
        if iter_args(f, l).iter().any(|&(v, _)| v == a) {
            return Some(Rule::IterArgOfLoop);
        }
        let mut body = Vec::new();
        inside(f, l, &mut body);
        // 2. Defined inside the body.
        for &s in &body {
            if defines(f, s).contains(&a) {
                return Some(match f.stmts[s].kind {
                    StmtKind::For(_) | StmtKind::While(_) => Rule::NestedLoopDefinesIt,
                    StmtKind::If(_) => Rule::IfResultInBody,
                    _ => Rule::BoundInBody,
                });
            }
        }
        // 3. Storage written inside the body.
        let class = self.class(a);
        for &s in &body {
            for b in updates_of(f, s) {
                if self.class(b) == class {
                    if b == a {
                        return Some(Rule::UpdatedInBody);
                    }
                    if self.while_chain(b) || self.while_chain(a) {
                        self.out.rules.insert(Rule::AliasFromWhile);
                    }
                    return Some(Rule::UpdatedThroughAlias);
                }
            }
        }
        let in_body: HashSet<StmtId> = body.iter().copied().collect();
        let mut yielders = vec![l];
        yielders.extend(
            body.iter()
                .copied()
                .filter(|&s| matches!(f.stmts[s].kind, StmtKind::For(_) | StmtKind::While(_))),
        );
        for w in yielders {
            let its = iter_args(f, w);
            let Some(body_block) = blocks(f, w).first().copied() else {
                continue;
            };
            let Some(&last) = f.block_stmts(&body_block).last() else {
                continue;
            };
            let StmtKind::Yield(values) = f.stmts[last].kind else {
                continue;
            };
            for (&(it, _), &v) in its.iter().zip(f.list(values)) {
                if !is_array(f.var_ty(it)) || self.class(it) != class {
                    continue;
                }
                let value = match f.exprs[v].kind {
                    ExprKind::Var(x) => Some(x),
                    _ => None,
                };
                if value.is_some_and(|x| self.class(x) == class) {
                    self.out.rules.insert(Rule::YieldMemberHarmless);
                    continue;
                }
                if let Some(x) = value
                    && let Some(&(def, target)) = self.update_binding.get(&x)
                    && self.class(target) == class
                {
                    if in_body.contains(&def) {
                        // Already an update by the first half of rule 3.
                        self.out.rules.insert(Rule::YieldUpdateInside);
                        continue;
                    }
                    self.out.rules.insert(Rule::YieldUpdateBefore);
                }
                return Some(if w == l {
                    Rule::YieldWrites
                } else {
                    Rule::NestedYieldWrites
                });
            }
        }
        None
    }

    /// Whether the alias chain from `v` up passes through a `while` iter-arg.
    fn while_chain(&self, mut v: VarId) -> bool {
        loop {
            if self.while_iter_args.contains(&v) {
                return true;
            }
            match self.alias_parent.get(&v) {
                Some(&p) => v = p,
                None => return false,
            }
        }
    }

    /// Decides loop `l` (a considered `for`), then nothing else: nested
    /// loops are visited by the caller afterwards.
    fn decide_loop(&mut self, l: StmtId, under_auto: bool) {
        let f = self.f;
        let kind = loop_kind(f, l).expect("a for loop");
        let t = trip(f, l);
        let groups = self.count(l);
        if groups.is_empty() {
            return;
        }
        if under_auto {
            self.out.rules.insert(Rule::ManualInAuto);
        }
        match (kind, t) {
            (LoopKind::Parallel, None) => {
                self.out.rules.insert(Rule::ParallelUnknown);
                return;
            }
            (LoopKind::Parallel, Some(0)) => {
                self.out.rules.insert(Rule::ParallelZero);
                return;
            }
            (_, Some(0)) => {
                self.out.rules.insert(Rule::SequentialZero);
                return;
            }
            _ => {}
        }
        for g in groups {
            let extent = f.var_ty(g.array).array_extent();
            let n: u128 = match extent {
                Some(n) if n > 0 => n as u128,
                _ => 0,
            };
            let m = g.count;
            if let Some(why) = self.unsafe_because(l, g.array) {
                self.out.rules.insert(why);
                continue;
            }
            if !(n > 0 && m > 0 && n * m > n + m) {
                self.out.rules.insert(match (extent, n, m) {
                    (None, _, _) => Rule::UnknownProducers,
                    (_, 0, _) => Rule::ZeroProducers,
                    (_, 1, _) => Rule::OneProducer,
                    (_, _, 0 | 1) => Rule::OneConsumer,
                    _ => Rule::TwoByTwo,
                });
                continue;
            }
            self.out.rules.insert(Rule::Compressed);
            if n * m - (n + m) == 1 {
                self.out.rules.insert(Rule::JustProfitable);
            }
            if t.is_none() {
                self.out.rules.insert(Rule::UnknownTripCompresses);
            } else if t.is_some_and(|t| t > 1) {
                self.out.rules.insert(Rule::MultipliedByTrip);
            }
            // A copy, update result or other non-member updated in the
            // body, and still compressed.
            let mut body = Vec::new();
            inside(f, l, &mut body);
            if body.iter().any(|&s| !updates_of(f, s).is_empty()) {
                self.out.rules.insert(Rule::CopyUpdatedStillCompressed);
            }
            let b = self.out.decisions.barriers.len();
            self.out
                .decisions
                .barriers
                .push((self.loop_num[&l], f.var_name(g.array).to_string()));
            for c in g.consumers {
                self.rewritten.insert(c);
                self.out.decisions.rewritten.push((self.submit_num[&c], b));
            }
        }
    }

    /// Pre-order walk: decides every considered loop before its nested ones.
    fn visit(
        &mut self,
        block: &Block,
        manual: bool,
        under_auto: bool,
        outer: &mut Vec<(StmtId, bool)>,
    ) {
        let f = self.f;
        for &s in f.block_stmts(block) {
            match f.stmts[s].kind {
                StmtKind::Scope(sc) => {
                    let m = f.scopes[sc].manual;
                    let body = f.scopes[sc].body;
                    self.visit(&body, m, under_auto || !m, outer);
                }
                StmtKind::For(_) => {
                    let before = self.out.decisions.barriers.len();
                    if manual {
                        self.decide_loop(s, under_auto);
                    } else {
                        let mut all = Vec::new();
                        inside(f, s, &mut all);
                        if all.iter().any(|&x| consumer_array(f, x).is_some()) {
                            self.out.rules.insert(Rule::NotConsideredInAuto);
                        }
                    }
                    // R11: a nested loop compresses what an enclosing
                    // considered loop left direct.
                    if self.out.decisions.barriers.len() > before
                        && outer.iter().any(|&(o, considered)| {
                            considered && {
                                let mut all = Vec::new();
                                inside(f, o, &mut all);
                                all.contains(&s)
                            }
                        })
                    {
                        let mine = &self.out.decisions.barriers[before..];
                        let direct_outer = mine.iter().any(|(_, name)| {
                            outer.iter().any(|&(o, considered)| {
                                considered
                                    && self
                                        .out
                                        .decisions
                                        .barriers
                                        .iter()
                                        .all(|(ln, n)| *ln != self.loop_num[&o] || n != name)
                            })
                        });
                        if direct_outer {
                            self.out.rules.insert(Rule::InnerTakesOver);
                        }
                    }
                    outer.push((s, manual));
                    for b in blocks(f, s) {
                        self.visit(&b, manual, under_auto, outer);
                    }
                    outer.pop();
                }
                _ => {
                    for b in blocks(f, s) {
                        self.visit(&b, manual, under_auto, outer);
                    }
                }
            }
        }
    }
}

fn add(groups: &mut Vec<Group>, array: VarId, count: u128, first: u32, consumers: Vec<StmtId>) {
    match groups.iter_mut().find(|g| g.array == array) {
        Some(g) => {
            g.count = (g.count + count).min(CAP);
            g.first = g.first.min(first);
            g.consumers.extend(consumers);
        }
        None => groups.push(Group {
            array,
            count,
            first,
            consumers,
        }),
    }
}

/// The oracle's decisions for `f` (none unless it is an `orchestration`
/// function).
pub fn decide(f: &Function) -> Outcome {
    let mut o = Oracle {
        f,
        alias_parent: HashMap::new(),
        while_iter_args: HashSet::new(),
        update_binding: HashMap::new(),
        loop_num: HashMap::new(),
        submit_num: HashMap::new(),
        rewritten: HashSet::new(),
        out: Outcome::default(),
    };
    if f.kind != crate::ir::FuncKind::Orchestration {
        return o.out;
    }
    // Numbering, alias links and update bindings, in one pre-order walk.
    let mut all = Vec::new();
    for &s in f.block_stmts(&f.body) {
        all.push(s);
        inside(f, s, &mut all);
    }
    let (mut loops, mut submits) = (0u32, 0u32);
    for &s in &all {
        match f.stmts[s].kind {
            StmtKind::For(_) => {
                o.loop_num.insert(s, loops);
                loops += 1;
            }
            StmtKind::Submit(_) => {
                o.submit_num.insert(s, submits);
                submits += 1;
            }
            StmtKind::Assign { results, value } => {
                if let (Some(b), [r]) = (updated_by(f, value), f.list(results)) {
                    o.update_binding.insert(*r, (s, b));
                }
            }
            _ => {}
        }
        for (v, init) in iter_args(f, s) {
            if let ExprKind::Var(from) = f.exprs[init].kind
                && is_array(f.var_ty(v))
                && is_array(f.var_ty(from))
            {
                o.alias_parent.insert(v, from);
                if matches!(f.stmts[s].kind, StmtKind::While(_)) {
                    o.while_iter_args.insert(v);
                }
            }
        }
    }
    let body = f.body;
    o.visit(&body, false, false, &mut Vec::new());
    o.out
}
