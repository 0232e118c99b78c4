//! `expand-manual-phase-fence`: compress whole-array manual dependencies.
//!
//! The rules are those of `docs/passes/expand-manual-phase-fence.md`. Inside
//! `manual` scopes of `orchestration` functions, a `for` loop whose
//! consumers (`submit`s whose only dependency is one `array<task_id, N>`)
//! fan in from a stable array gets one `system.task_dummy` barrier before it,
//! and the consumers depend on the barrier instead: N*M edges become N+M.
//!
//! # Algorithm (O(n log n) in the size of the function)
//!
//! The reference analysed every loop with a summary that copied the sets of
//! all loops below it: quadratic in nesting depth. Here the decisions are
//! derived per consumer instead of per (loop, array) pair.
//!
//! 1. **Index** ([`FunctionIndex`]): one iterative walk numbers statements
//!    and loops, records definition positions, storage updates per alias
//!    class (`array.update_element` calls, and the `yield`s of `for` and
//!    `while` bodies that write a value outside an iter-arg's alias class
//!    into it: safety rule 3) and the consumers. "Defined inside L" and "updated inside L" are
//!    then interval tests (an update test is a binary search).
//! 2. **Which loop would rewrite each consumer.** Consumers count for the
//!    loops of their *component* path (the chain of enclosing loops joined
//!    by countable edges: parent `range`, child trip count known positive).
//!    Loops are considered outer first and a rewritten consumer stops being
//!    a consumer, so a consumer `c` of `A` is rewritten by the *topmost*
//!    loop `G` of its component path that is eligible (manual, trip-count
//!    rules), safe for `A` and profitable for `A`. Along that path unsafety
//!    holds for a prefix (a loop containing a definition or update contains
//!    it for all its ancestors too) and profitability for a prefix too (the
//!    count M only grows going up a countable edge, and `(N-1)(M-1) >= 2` is
//!    monotone in M). So `G` is the topmost eligible loop below the unsafe
//!    prefix — found by two binary searches over the current loop path —
//!    and the consumer is rewritten iff `G` is profitable. All consumers of
//!    `A` counted for `G` share that same `G`.
//! 3. **Counts M(G, A)** bottom-up ([`CountMap`]): each consumer enters the
//!    map of its innermost loop; maps merge small-to-large across countable
//!    edges, multiplied by the child's trip count (only unsaturated entries
//!    are touched, and each at most 63 times); at `G` the entry is read and
//!    removed. Every count saturates at `i64::MAX`.
//! 4. **Rewrite.** Barriers are created in (loop pre-order, first
//!    appearance) order, which is the order the pass doc's outer-first walk
//!    creates them in, named `phase_fence_barrier_K_tid` with K skipping
//!    used names, inserted before their loop (each block rebuilt once), and
//!    the consumers' `deps` replaced.
//!
//! With `--remarks`, a second bottom-up pass keeps every consumer to report
//! on every candidate array of every considered loop; it costs, in
//! addition, the number of (loop, array) pairs it examines.
//!
//! # Statistics
//!
//! Per function: `consumers rewritten` (static `submit` sites),
//! `barriers inserted`, and `static dependency edges before` / `after`.
//! Static edges are estimated from the program text, the way the pass's
//! profit rule counts them: every `submit` and every `system.task_dummy`
//! barrier contributes, for each entry of its `deps`, the array's literal
//! extent (0 when dynamic) or 1 for a scalar `task_id`, multiplied by the
//! product of the known trip counts of the `for` loops around it (an
//! unknown trip count counts as 1; saturating). The first example of
//! `docs/language.md` goes from 32 (4 x 2 x 4) to 12 (4 + 4 x 2 x 1).
//!
//! # Interpretations
//!
//! - Consumers in nested scopes count for the enclosing loop whatever the
//!   scope's kind (the `auto`/`manual` rule decides which loops are
//!   considered, not which consumers are counted).
//! - `unroll` loops are not sequential for the nested-count rule (only
//!   `range` is), but like `range` they take no barrier when their trip
//!   count is known to be zero.

use super::phase_fence::counts::CountMap;
use super::phase_fence::index::{FunctionIndex, LoopId, UpdateKind, producers};
use super::phase_fence::remark::{Decision, DecisionKind, Reason};
use super::{Pass, PassContext, Property};
use crate::diagnostics::Diagnostic;
use crate::ir::builder::Builder;
use crate::ir::walk::{Event, Site, Walk, block_of_mut};
use crate::ir::{ArenaId, SecondaryMap};
use crate::ir::{Extent, FuncKind, Function, Module, StmtId, StmtKind, Type, VarId};
use hashbrown::{HashMap, HashSet};

/// The pass, for the registry.
pub struct ExpandManualPhaseFence;

pub const NAME: &str = "expand-manual-phase-fence";

const PROPS: &[Property] = &[
    Property::NoNestedCalls,
    Property::NormalizedStmtStructure,
    Property::CallDirectionsResolved,
];

impl Pass for ExpandManualPhaseFence {
    fn name(&self) -> &'static str {
        NAME
    }

    fn description(&self) -> &'static str {
        "Insert a system.task_dummy phase-fence barrier before manual-scope loops whose submits \
         all depend on one stable array<task_id, N>"
    }

    fn required(&self) -> &'static [Property] {
        PROPS
    }

    fn produced(&self) -> &'static [Property] {
        PROPS
    }

    fn run(&self, module: &mut Module, ctx: &mut PassContext) {
        for f in module.functions_mut() {
            fsutil::cancel::checkpoint();
            if f.kind != FuncKind::Orchestration {
                continue;
            }
            let before = ctx.stats_enabled.then(|| static_edges(f));
            let outcome = run_on_function(f, ctx.remarks_enabled);
            ctx.diagnostics.extend(outcome.remarks());
            ctx.phase_fence_decisions.extend(outcome.decisions);
            if let Some(before) = before {
                let after = static_edges(f);
                let name = f.name.clone();
                ctx.stat(&name, "consumers rewritten", outcome.consumers_rewritten);
                ctx.stat(&name, "barriers inserted", outcome.barriers_inserted);
                ctx.stat(&name, "static dependency edges before", before);
                ctx.stat(&name, "static dependency edges after", after);
            }
        }
    }
}

/// What the pass did to one function.
#[derive(Debug, Default)]
pub struct FunctionOutcome {
    pub consumers_rewritten: u64,
    pub barriers_inserted: u64,
    /// One per candidate (loop, array), in the order of the remarks;
    /// filled only when remarks are asked for.
    pub decisions: Vec<Decision>,
}

impl FunctionOutcome {
    /// The remarks `--remarks` prints, rendered from the decisions.
    pub fn remarks(&self) -> Vec<Diagnostic> {
        self.decisions.iter().map(Decision::remark).collect()
    }
}

/// A (loop, array) pair that some consumer would be rewritten by.
#[derive(Clone, Debug)]
struct Slot {
    loop_: LoopId,
    array: VarId,
    /// M(loop, array), saturating.
    consumers: u64,
    first: u32,
    rewrite: bool,
    barrier: Option<VarId>,
}

/// Whether a fan-in of `n` producers to `m` consumers is worth a barrier:
/// N > 0, M > 0 and N*M - (N+M) >= 1, computed exactly.
pub fn profitable(n: u64, m: u64) -> bool {
    let (n, m) = (u128::from(n), u128::from(m));
    n > 0 && m > 0 && n * m > n + m
}

/// Runs the pass on one function (whatever its kind).
pub fn run_on_function(f: &mut Function, remarks: bool) -> FunctionOutcome {
    let mut outcome = FunctionOutcome::default();
    let idx = FunctionIndex::build(f);
    if idx.loops.is_empty() || idx.consumers.is_empty() {
        return outcome;
    }
    let (mut slots, consumer_slot) = assign_slots(&idx);
    if !slots.is_empty() {
        count_consumers(f, &idx, &mut slots, &consumer_slot);
    }
    insert_barriers(f, &idx, &mut slots, &consumer_slot, &mut outcome);
    if remarks {
        outcome.decisions = decisions_for(f, &idx, &slots, &consumer_slot);
    }
    outcome
}

/// Pops the loops of `path` that end before statement number `num`
/// (with their entries in `eligible`).
fn leave_loops_before(
    idx: &FunctionIndex,
    num: u32,
    path: &mut Vec<LoopId>,
    eligible: &mut Vec<u32>,
) {
    while let Some(&top) = path.last() {
        if idx.loops[top].end >= num {
            break;
        }
        path.pop();
        if eligible.last() == Some(&(path.len() as u32)) {
            eligible.pop();
        }
    }
}

/// Phase 2, the loop that would rewrite each consumer: the slots (loop, array),
/// and each consumer's slot (an index into the slots), if it has one.
fn assign_slots(idx: &FunctionIndex) -> (Vec<Slot>, Vec<Option<u32>>) {
    let mut slot_of: HashMap<(LoopId, VarId), u32> = HashMap::new();
    let mut slots: Vec<Slot> = Vec::new();
    let mut consumer_slot: Vec<Option<u32>> = vec![None; idx.consumers.len()];
    // The loops enclosing the walk's position, outermost first.
    let mut path: Vec<LoopId> = Vec::new();
    // Positions in `path` of its eligible loops, increasing.
    let mut eligible: Vec<u32> = Vec::new();
    let mut next_loop = 0usize;
    let mut last_slot: Option<((LoopId, VarId), u32)> = None;
    for (ci, c) in idx.consumers.iter().enumerate() {
        fsutil::cancel::checkpoint();
        let Some(c_loop) = c.loop_ else {
            continue;
        };
        // Bring the path to the consumer: push the loops that start before it.
        while next_loop < idx.loops.len() && idx.loops[LoopId::from_index(next_loop)].num < c.num {
            let l = &idx.loops[LoopId::from_index(next_loop)];
            leave_loops_before(idx, l.num, &mut path, &mut eligible);
            if l.eligible() {
                eligible.push(path.len() as u32);
            }
            path.push(LoopId::from_index(next_loop));
            next_loop += 1;
        }
        leave_loops_before(idx, c.num, &mut path, &mut eligible);
        debug_assert_eq!(path.last(), Some(&c_loop));
        let innermost = &idx.loops[c_loop];
        let root_depth = idx.loops[innermost.comp_root].depth as usize;
        // First safe position at or below the component root.
        let suffix = &path[root_depth..];
        let safe_from = root_depth + suffix.partition_point(|&l| idx.unsafe_for(l, c.array));
        let e = eligible.partition_point(|&p| (p as usize) < safe_from);
        let Some(&p) = eligible.get(e) else { continue };
        let g = path[p as usize];
        // Neighbouring consumers mostly share their slot: no lookup.
        if let Some((key, s)) = last_slot
            && key == (g, c.array)
        {
            consumer_slot[ci] = Some(s);
            continue;
        }
        let next = slots.len() as u32;
        let s = *slot_of.entry((g, c.array)).or_insert_with(|| {
            slots.push(Slot {
                loop_: g,
                array: c.array,
                consumers: 0,
                first: u32::MAX,
                rewrite: false,
                barrier: None,
            });
            next
        });
        last_slot = Some(((g, c.array), s));
        consumer_slot[ci] = Some(s);
    }
    (slots, consumer_slot)
}

/// Phase 3, M(G, A) bottom-up: each slot's consumer count and whether it is
/// worth a barrier.
fn count_consumers(
    f: &Function,
    idx: &FunctionIndex,
    slots: &mut [Slot],
    consumer_slot: &[Option<u32>],
) {
    // The slots of each loop, in creation order: loop `l`'s are
    // `by_loop[start[l]..start[l + 1]]` (a counting sort, no list per loop).
    let mut start = vec![0u32; idx.loops.len() + 1];
    for slot in slots.iter() {
        start[slot.loop_.index() + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut by_loop = vec![0u32; slots.len()];
    let mut fill = start.clone();
    for (s, slot) in slots.iter().enumerate() {
        let at = &mut fill[slot.loop_.index()];
        by_loop[*at as usize] = s as u32;
        *at += 1;
    }
    let mut maps = direct_counts(idx, |ci| consumer_slot[ci].is_some());
    for l in idx.loops.ids().rev() {
        let Some(mut map) = maps[l].take() else {
            continue;
        };
        let lp = &idx.loops[l];
        let mine = start[l.index()] as usize..start[l.index() + 1] as usize;
        for &s in &by_loop[mine] {
            let slot = &mut slots[s as usize];
            let entry = map.remove(slot.array).expect("slot has consumers");
            slot.consumers = entry
                .count
                .saturating_mul(lp.multiplier())
                .min(super::phase_fence::CAP);
            slot.first = entry.first;
            slot.rewrite = profitable(producers(f.var_ty(slot.array)), slot.consumers);
        }
        if let (true, Some(p)) = (lp.countable_edge, lp.parent) {
            map.scale(lp.multiplier());
            match &mut maps[p] {
                Some(parent) => parent.absorb(map),
                none => *none = Some(map),
            }
        } else {
            debug_assert!(map.is_empty(), "every counted consumer has its loop");
        }
    }
}

/// Barrier statements per block (owner, which), with the index they go before.
type Insertions = HashMap<(Option<StmtId>, u8), Vec<(usize, StmtId)>>;

/// Phase 4, barriers in creation order: made, their consumers rewritten, and
/// inserted before their loops.
fn insert_barriers(
    f: &mut Function,
    idx: &FunctionIndex,
    slots: &mut [Slot],
    consumer_slot: &[Option<u32>],
    outcome: &mut FunctionOutcome,
) {
    let mut order: Vec<u32> = (0..slots.len() as u32)
        .filter(|&s| slots[s as usize].rewrite)
        .collect();
    if order.is_empty() {
        return;
    }
    order.sort_by_key(|&s| {
        let slot = &slots[s as usize];
        (idx.loops[slot.loop_].num, slot.first)
    });
    let mut insertions: Insertions = HashMap::new();
    // The K of every variable already named `phase_fence_barrier_K_tid`.
    // (Names too short to be one are skipped without reading them.)
    let used: HashSet<u64> = f
        .vars
        .iter()
        .filter(|(_, v)| f.names.byte_len(v.name) >= BARRIER_NAME_MIN_LEN)
        .filter_map(|(_, v)| barrier_number(f.names.get(v.name)))
        .collect();
    let mut k = 0u64;
    for &s in &order {
        let (loop_, array) = (slots[s as usize].loop_, slots[s as usize].array);
        while used.contains(&k) {
            k += 1;
        }
        let name = format!("phase_fence_barrier_{k}_tid");
        k += 1;
        let lp = &idx.loops[loop_];
        let mut b = Builder::edit(f);
        b.at(lp.header);
        let dep = b.v(array);
        let (stmt, var) = b.barrier(&name, [dep]);
        let Site {
            owner,
            block,
            index,
        } = lp.site;
        insertions
            .entry((owner, block))
            .or_default()
            .push((index, stmt));
        slots[s as usize].barrier = Some(var);
        outcome.barriers_inserted += 1;
    }
    rewrite_consumers(f, idx, slots, consumer_slot, outcome);
    insert_into_blocks(f, insertions);
}

/// Each consumer of a slot with a barrier depends on the barrier instead.
fn rewrite_consumers(
    f: &mut Function,
    idx: &FunctionIndex,
    slots: &[Slot],
    consumer_slot: &[Option<u32>],
    outcome: &mut FunctionOutcome,
) {
    for (ci, c) in idx.consumers.iter().enumerate() {
        let Some(s) = consumer_slot[ci] else {
            continue;
        };
        let Some(barrier) = slots[s as usize].barrier else {
            continue;
        };
        let StmtKind::Submit(sub) = f.stmts[c.stmt].kind else {
            unreachable!("consumers are submits")
        };
        let deps = f.submits[sub].deps;
        let old = f.list(deps)[0];
        let span = f.exprs[old].span;
        let dep = Builder::edit(f).at(span).v(barrier);
        // A consumer has exactly one dependency: replaced in place.
        deps.as_mut_slice(&mut f.lists.exprs)[0] = dep;
        outcome.consumers_rewritten += 1;
    }
}

/// Inserts the barriers into their blocks, each block rebuilt once.
/// Barriers of one loop keep creation order.
fn insert_into_blocks(f: &mut Function, insertions: Insertions) {
    for ((owner, which), mut list) in insertions {
        list.sort_by_key(|&(i, _)| i); // stable: creation order within a loop
        let handle = block_of_mut(f, owner, which).stmts;
        let old = f.list(handle);
        let mut new = Vec::with_capacity(old.len() + list.len());
        let mut it = list.into_iter().peekable();
        for (i, &s) in old.iter().enumerate() {
            while let Some(&(j, b)) = it.peek() {
                if j != i {
                    break;
                }
                new.push(b);
                it.next();
            }
            new.push(s);
        }
        // The block's list rebuilt once: O(its length).
        let rebuilt = f.replace_list(handle, &new);
        block_of_mut(f, owner, which).stmts = rebuilt;
    }
}

/// The length of the shortest barrier name, `phase_fence_barrier_0_tid`.
const BARRIER_NAME_MIN_LEN: usize = "phase_fence_barrier_0_tid".len();

/// Per loop, the consumers directly in it that `keep` accepts (by index),
/// counted per array (`None` for a loop with none). A run of neighbouring
/// consumers of one array in one loop enters its loop's map once, with
/// its length as the count and its first consumer as the first.
fn direct_counts(
    idx: &FunctionIndex,
    keep: impl Fn(usize) -> bool,
) -> SecondaryMap<LoopId, Option<CountMap>> {
    let mut maps: SecondaryMap<LoopId, Option<CountMap>> = idx.loops.secondary(None);
    // (loop, array, count, first statement number, first consumer)
    let mut run: Option<(LoopId, VarId, u64, u32, u32)> = None;
    let flush = |maps: &mut SecondaryMap<LoopId, Option<CountMap>>, run| {
        if let Some((l, array, count, first, first_consumer)) = run {
            maps[l]
                .get_or_insert_with(CountMap::default)
                .add(array, count, first, first_consumer);
        }
    };
    for (ci, c) in idx.consumers.iter().enumerate() {
        let Some(l) = c.loop_ else { continue };
        if !keep(ci) {
            continue;
        }
        match &mut run {
            Some((rl, ra, count, _, _)) if *rl == l && *ra == c.array => *count += 1,
            _ => {
                flush(&mut maps, run.take());
                run = Some((l, c.array, 1, c.num, ci as u32));
            }
        }
    }
    flush(&mut maps, run);
    maps
}

/// K when `name` is `phase_fence_barrier_K_tid` spelled canonically.
fn barrier_number(name: &str) -> Option<u64> {
    let digits = name
        .strip_prefix("phase_fence_barrier_")?
        .strip_suffix("_tid")?;
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if canonical { digits.parse().ok() } else { None }
}

/// One decision per candidate array of every considered loop.
fn decisions_for(
    f: &Function,
    idx: &FunctionIndex,
    slots: &[Slot],
    consumer_slot: &[Option<u32>],
) -> Vec<Decision> {
    // Full counts, bottom-up, for every consumer inside a loop.
    let mut maps = direct_counts(idx, |_| true);
    // (loop num, first appearance, diagnostic)
    let mut out: Vec<(u32, u32, Decision)> = Vec::new();
    for l in idx.loops.ids().rev() {
        let Some(mut map) = maps[l].take() else {
            continue;
        };
        let lp = &idx.loops[l];
        if lp.manual {
            for (array, entry) in map.iter() {
                let slot = consumer_slot[entry.first_consumer as usize].map(|s| &slots[s as usize]);
                let m = entry
                    .count
                    .saturating_mul(lp.multiplier())
                    .min(super::phase_fence::CAP);
                let d = match slot {
                    // Rewritten by an enclosing loop: not a candidate here.
                    Some(sl) if sl.rewrite && idx.loops[sl.loop_].num < lp.num => {
                        continue;
                    }
                    Some(sl) if sl.loop_ == l && sl.rewrite => inserted(f, lp.header, sl),
                    _ => Decision {
                        loop_header: lp.header,
                        array: f.var_name(array).to_string(),
                        kind: DecisionKind::Kept(reason(f, idx, l, array, m)),
                    },
                };
                out.push((lp.num, entry.first, d));
            }
        } else if lp.parent.is_none_or(|p| idx.loops[p].manual) {
            // The outermost loop outside any `manual` scope: say why the
            // pass leaves it alone, once per array its submits wait on.
            for (array, entry) in map.iter() {
                let d = Decision {
                    loop_header: lp.header,
                    array: f.var_name(array).to_string(),
                    kind: DecisionKind::Kept(Reason::NotManual),
                };
                out.push((lp.num, entry.first, d));
            }
        }
        if let (true, Some(p)) = (lp.countable_edge, lp.parent) {
            map.scale(lp.multiplier());
            match &mut maps[p] {
                Some(parent) => parent.absorb(map),
                none => *none = Some(map),
            }
        }
    }
    out.sort_by_key(|(num, first, _)| (*num, *first));
    out.into_iter().map(|(_, _, d)| d).collect()
}

fn inserted(f: &Function, header: crate::span::Span, slot: &Slot) -> Decision {
    let barrier = slot.barrier.expect("rewritten slots have a barrier");
    Decision {
        loop_header: header,
        array: f.var_name(slot.array).to_string(),
        kind: DecisionKind::Inserted {
            barrier: f.var_name(barrier).to_string(),
            producers: producers(f.var_ty(slot.array)),
            consumers: slot.consumers,
        },
    }
}

/// Why `array` stayed direct for loop `l`.
fn reason(f: &Function, idx: &FunctionIndex, l: LoopId, array: VarId, m: u64) -> Reason {
    let lp = &idx.loops[l];
    let var = &f.vars[array];
    if let Some(why) = lp.trip_blocker() {
        return Reason::TripCount(why);
    }
    if idx.is_iter_arg_of(l, array) {
        return Reason::IterArg { at: var.span };
    }
    if idx.defined_in(l, array) {
        return Reason::DefinedInside { at: var.span };
    }
    if let Some(u) = idx.first_update_in(l, array) {
        let what = match &u.kind {
            UpdateKind::Element => format!("updates `{}`", f.var_name(u.target)),
            UpdateKind::Yield { value } => format!(
                "yields {} into the iter-arg `{}`",
                match value {
                    Some(v) => format!("`{}`", f.var_name(*v)),
                    None => "another array".to_string(),
                },
                f.var_name(u.target)
            ),
        };
        let alias = (u.target != array).then(|| idx.alias.explain(f, u.target, array));
        return Reason::Updated {
            at: u.span,
            what,
            alias,
        };
    }
    let var_ty = f.var_ty(array);
    let n = producers(var_ty);
    if var_ty.array_extent() == Some(0) {
        return Reason::ZeroProducers {
            ty: var_ty.to_string(),
        };
    }
    if n == 0 {
        // A size computed by an expression has no name to show.
        let why = match var_ty {
            Type::Array {
                extent: Extent::Dynamic(None),
                ..
            } => "its size is not a literal".to_string(),
            ty => format!("type `{ty}`"),
        };
        return Reason::UnknownProducers { why };
    }
    Reason::NotProfitable {
        producers: n,
        consumers: m,
    }
}

/// Static dependency edges of a function: for every `submit` and every
/// `system.task_dummy` barrier, the producer tasks its `deps` name (an
/// array's literal extent, 0 when dynamic; 1 per scalar `task_id`),
/// multiplied by the product of the known trip counts of the `for` loops
/// around it (an unknown trip count counts as 1). Saturating. The sum of
/// [`static_dep_weights`].
pub fn static_edges(f: &Function) -> u64 {
    let cap = super::phase_fence::CAP;
    static_dep_weights(f)
        .iter()
        .fold(0u64, |t, w| t.saturating_add(w.edges).min(cap))
}

/// One `deps` entry's share of [`static_edges`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepWeight {
    /// The `submit`, or the statement holding the `system.task_dummy` call.
    pub stmt: StmtId,
    /// The entry's position in the `deps` list (0-based).
    pub entry: usize,
    /// The runtime edges it stands for (see [`static_edges`]), saturating.
    pub edges: u64,
}

/// Every `deps` entry of every `submit` and barrier of `f`, in pre-order,
/// with the runtime edges [`static_edges`] counts for it (`pfir graph`
/// labels its edges with these, so its totals are `--stats`' numbers).
pub fn static_dep_weights(f: &Function) -> Vec<DepWeight> {
    use crate::ir::trip_count::trip_count;
    let weight = |e: crate::ir::ExprId| -> u64 {
        let ty = f.ty(e);
        if ty.is_task_id_array() {
            producers(ty)
        } else {
            1
        }
    };
    let cap = super::phase_fence::CAP;
    let mut out = Vec::new();
    let mut scale = vec![1u64];
    for event in Walk::new(f) {
        let s = match event {
            Event::Enter(s, _) => s,
            Event::Leave(s) => {
                if matches!(f.stmts[s].kind, StmtKind::For { .. }) {
                    scale.pop();
                }
                continue;
            }
            Event::EnterBlock { .. } | Event::LeaveBlock { .. } => continue,
        };
        let factor = *scale.last().expect("scale stack");
        let deps = match &f.stmts[s].kind {
            StmtKind::Submit(sub) => f.list(f.submits[*sub].deps),
            StmtKind::Assign { value, .. } | StmtKind::Eval(value) => match f.call(*value) {
                Some(c) if c.dummy_task => f.list(c.manual_dep_edges),
                _ => &[],
            },
            StmtKind::For(l) => {
                let l = &f.fors[*l];
                let trip = trip_count(f, l.start, l.stop, l.step).unwrap_or(1);
                scale.push(factor.saturating_mul(trip).min(cap));
                &[]
            }
            _ => &[],
        };
        for (entry, &d) in deps.iter().enumerate() {
            out.push(DepWeight {
                stmt: s,
                entry,
                edges: weight(d).saturating_mul(factor).min(cap),
            });
        }
    }
    out
}
