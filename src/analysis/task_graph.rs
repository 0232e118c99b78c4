//! The dependency-graph evaluator: a function's runtime task DAG, by
//! abstract interpretation of its body.
//!
//! Every execution of a `submit` creates a *task* node, every execution of a
//! `system.task_dummy` call a *barrier* node; the only edges are the ones
//! `deps=[...]` (and a barrier's `manual_dep_edges`) ask for. Scopes add no
//! implicit edges (neither `manual` nor `auto`), and `parallel` iterations are
//! unordered: what orders tasks is `deps` and nothing else.
//!
//! # Identity of nodes
//!
//! A task is identified by a [`NodeKey`]: the position of its `submit`
//! statement among all `submit`s of the function in a pre-order walk, plus
//! its *iteration vector*: the 0-based iteration number of every enclosing
//! `for`/`while` loop, outermost first. `expand-manual-phase-fence` neither
//! adds, removes nor reorders `submit`s or loops, so the same task has the
//! same key before and after the pass. Barriers are keyed by their call
//! expression and iteration vector; they only matter as relays.
//!
//! # Abstract values
//!
//! - `task_id`: the node the value may hold; when it may hold several
//!   (paths joined), a [`NodeKind::Join`] node waiting for all of them;
//!   nothing is the invalid task id (`none`, `system.task_invalid()`,
//!   parameters, results of unknown ops: tasks not created by this function
//!   are not tracked).
//! - integers and `bool`: a constant or unknown (constants are propagated
//!   through arithmetic, comparisons and `and`/`or`/`not`; overflow, division
//!   by zero and anything else give unknown).
//! - arrays: a reference to a *storage cell* holding one task set per slot.
//!   A cell of unknown or huge size (more than [`Limits::max_slots`]) is a
//!   *summary*: one value standing for every slot. Slots are shared between
//!   copies until written (copy on write). A `deps` entry naming an array
//!   waits for one join node holding every slot's task, made once per
//!   version of the cell: every consumer of an unchanged array shares it,
//!   so a fan-out of N producers to M consumers costs N + M edges here, not
//!   N x M.
//!
//! # Storage (aliasing) model
//!
//! This follows `docs/language.md` and the alias classes of
//! `docs/passes/expand-manual-phase-fence.md` ("Safety"):
//!
//! - `array.create(n, _)` makes a new cell of `n` invalid slots.
//! - A plain binding `b = a` of an array makes a new cell holding a copy.
//! - `r = array.update_element(a, i, v)` writes `v` into slot `i` of `a`'s
//!   cell (so every alias of `a` sees it) and binds `r` to a new cell holding
//!   a copy of the updated contents. A known in-range index is a strong
//!   update; an unknown index, or a summary cell, is a weak update (`v` is
//!   added to every slot, the old contents stay); a known out-of-range index
//!   is a runtime error and writes nothing.
//! - An iter-arg whose initial value is an array *variable* shares that
//!   variable's cell for the whole loop (transitively, so an iter-arg of an
//!   iter-arg of `tids` is `tids`' cell). Any other initial value gets a new
//!   cell. At the end of each iteration the yielded array's contents are
//!   copied into the iter-arg's cell (a no-op for the usual
//!   `yield array.update_element(acc, ...)` pattern).
//! - Results of loops, `while` and `if`, and arrays yielded by `if` branches,
//!   are new cells holding a copy. Array results of `submit`s, function calls
//!   and unknown ops, and array parameters, are new cells with invalid slots.
//!
//! # Control flow and what cannot be expanded
//!
//! - `for` with constant start, stop and step (after constant propagation,
//!   so induction variables of enclosing unrolled loops count) is unrolled:
//!   the trip count is that of Python's `range`, 0 for a zero step.
//! - `for` with an unknown bound, and `while` whose condition is unknown, run
//!   at most [`Limits::unknown_trip_iterations`] iterations; the loop may exit
//!   before each of them and after the last, and the exit states are joined.
//!   So an unknown loop stands for "0, 1 or 2 iterations" by default. A
//!   `while` whose condition is a known `true` keeps running (within the
//!   iteration budget).
//! - `if` with a known condition takes that branch; otherwise both branches
//!   are evaluated and their states joined.
//! - `break`/`continue`/`return` are followed exactly along each path;
//!   `return` ends the path.
//! - Loop and `if` bodies open a scope: what they define is dropped from
//!   the states leaving them, so out-of-scope values are never joined.
//! - A join unions everything: task values (a join node when they differ),
//!   cell contents (slot by slot; cells untouched on both paths are shared
//!   and skipped), and
//!   the node set of the graph (a node exists if some path creates it). So
//!   the graph answers "may depend": it over-approximates the runtime DAG,
//!   in the same way for any two programs with the same control flow, which
//!   is what comparing a program before and after the pass needs.
//! - Budgets ([`Limits`]): at most `max_tasks` tasks, `max_iterations`
//!   loop iterations in total, and `max_work` units of work (a task or loop
//!   iteration costs 1 plus its loop depth, a join node 1 plus its size, a
//!   slot-by-slot join or weak update the array's size). When one is
//!   exhausted the evaluation stops, the graph is marked
//!   [`TaskGraph::truncated`] and [`TaskGraph::stopped_by`] names the
//!   budget; every task it holds is complete (a task's edges are fixed when
//!   it is created), so the tasks two truncated graphs both hold can be
//!   compared. Only inherently exponential shapes (deep nests of loops with
//!   unknown trip counts) reach the budgets.
//! - Plain calls of functions are opaque: they create no nodes.

use crate::ir::trip_count::range_len;
use crate::ir::walk::{Event, Walk, walk_stmts};
use crate::ir::{
    BinaryOp, Block, BuiltinOp, CallId, ExprId, ExprKind, ForId, Function, IfId, IterArg, Module,
    ScalarType, Span, StmtId, StmtKind, SubmitId, Type, UnaryOp, VarId, VarList, WhileId,
};
use hashbrown::HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The bounds of one evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Task nodes (executions of `submit`) before the evaluation stops.
    pub max_tasks: usize,
    /// Loop iterations, over all loops, before the evaluation stops.
    pub max_iterations: u64,
    /// Iterations explored of a loop whose trip count is unknown.
    pub unknown_trip_iterations: u32,
    /// Arrays with more slots than this (or of unknown size) are summarised
    /// by one set.
    pub max_slots: usize,
    /// Work units before the evaluation stops: each task and each loop
    /// iteration costs 1 plus its loop depth (the length of the iteration
    /// vector it records). This bounds time and memory on deeply nested
    /// loops, where every task key carries one index per enclosing loop.
    pub max_work: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_tasks: 100_000,
            max_iterations: 1_000_000,
            unknown_trip_iterations: 2,
            max_slots: 4096,
            max_work: 4_000_000,
        }
    }
}

/// Whether a node launches a kernel or only relays dependencies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    /// An execution of a `submit`: an original task.
    Task,
    /// An execution of a `system.task_dummy`: transparent for comparisons.
    Barrier,
    /// Not a runtime node: a set of nodes named once and shared by all
    /// that wait for it. It stands for the contents of an array at one
    /// point (read by a `deps` entry or an unknown-index `get_element`), or
    /// for a value that differs between joined paths. Transparent, like a
    /// barrier; a waiter's edge to it stands for one runtime edge per task
    /// it holds ([`TaskGraph::task_preds_all`] expands them).
    Join,
}

/// The budget of [`Limits`] that stopped an evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    Tasks(usize),
    Iterations(u64),
    Work(u64),
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Tasks(n) => write!(f, "the task budget ({n} tasks)"),
            Budget::Iterations(n) => write!(f, "the loop iteration budget ({n} iterations)"),
            Budget::Work(n) => write!(f, "the work budget ({n} units)"),
        }
    }
}

/// The identity of a node: see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeKey {
    pub kind: NodeKind,
    /// For a task, the index of its `submit` among the function's `submit`s
    /// in pre-order; for a barrier, the index of its call expression.
    pub ordinal: u32,
    /// The 0-based iteration of each enclosing loop, outermost first.
    pub iterations: Vec<u32>,
}

/// One node of the graph.
#[derive(Clone, Debug)]
pub struct Node {
    pub key: NodeKey,
    /// The statement that created it (the `submit`, or the statement holding
    /// the `system.task_dummy` call).
    pub stmt: StmtId,
    /// Indices of the nodes it waits for directly (all created before it).
    pub preds: BTreeSet<usize>,
}

/// A place where the evaluator had to approximate.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Approximation {
    pub span: Span,
    pub what: &'static str,
}

/// The runtime task DAG of one function, as far as it could be expanded.
#[derive(Clone, Debug, Default)]
pub struct TaskGraph {
    pub function: String,
    /// Nodes in creation order: every node's predecessors come before it.
    pub nodes: Vec<Node>,
    /// Whether a budget of [`Limits`] ran out (the graph is then a prefix).
    pub truncated: bool,
    /// Which budget ran out, when `truncated`.
    pub stopped_by: Option<Budget>,
    /// The work the evaluation spent (see [`Limits::max_work`]), which a
    /// [`RunBudget`] adds up over a run.
    pub work: u64,
    /// Where joins or bounded exploration were used, in source order.
    pub approximations: BTreeSet<Approximation>,
    index: HashMap<NodeKey, usize>,
    /// Per static statement: a short description, e.g. `` `t = submit k` ``.
    labels: HashMap<StmtId, String>,
    /// Per `deps` entry of a `submit` or barrier: the values it held (task
    /// or join nodes) and whether some slot held no task (`pfir graph`).
    entries: HashMap<(StmtId, usize), (BTreeSet<usize>, bool)>,
}

/// What one `deps` entry of one statement may hold, over every execution of
/// the statement the evaluator explored (for `pfir graph`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntrySources {
    /// The statements (`submit`s, or statements holding a
    /// `system.task_dummy`) whose nodes the entry may hold, join nodes seen
    /// through.
    pub stmts: BTreeSet<StmtId>,
    /// Whether, in some execution, the entry (a scalar `task_id`) or some
    /// slot of it (an array) held no node of this function: an invalid task
    /// id, or a task created outside the function.
    pub outside: bool,
}

impl TaskGraph {
    /// The node with this key.
    pub fn find(&self, key: &NodeKey) -> Option<usize> {
        self.index.get(key).copied()
    }

    /// The task nodes (no barriers), in creation order.
    pub fn tasks(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.nodes.len()).filter(|&i| self.nodes[i].key.kind == NodeKind::Task)
    }

    pub fn task_count(&self) -> usize {
        self.tasks().count()
    }

    /// What entry `entry` (0-based, in source order) of the `deps` of the
    /// `submit` or `system.task_dummy` statement `stmt` may hold; `None`
    /// when the evaluator never executed it (unreachable, or past a budget).
    /// Costs the join nodes it sees through.
    pub fn entry_sources(&self, stmt: StmtId, entry: usize) -> Option<EntrySources> {
        let (values, outside) = self.entries.get(&(stmt, entry))?;
        let mut out = EntrySources {
            stmts: BTreeSet::new(),
            outside: *outside,
        };
        let mut seen: hashbrown::HashSet<usize> = hashbrown::HashSet::new();
        let mut stack: Vec<usize> = values.iter().copied().collect();
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            let node = &self.nodes[n];
            match node.key.kind {
                NodeKind::Join => stack.extend(node.preds.iter().copied()),
                NodeKind::Task | NodeKind::Barrier => {
                    out.stmts.insert(node.stmt);
                }
            }
        }
        Some(out)
    }

    /// Direct edges into tasks and barriers, as `(producer, consumer)` keys.
    pub fn edge_count(&self) -> usize {
        self.nodes.iter().map(|n| n.preds.len()).sum()
    }

    /// For every node, the tasks it waits for directly once barriers are
    /// seen through (a barrier's entry is the union over its predecessors).
    pub fn task_preds_all(&self) -> Vec<BTreeSet<usize>> {
        let mut out: Vec<BTreeSet<usize>> = Vec::with_capacity(self.nodes.len());
        for n in &self.nodes {
            let mut s = BTreeSet::new();
            for &p in &n.preds {
                match self.nodes[p].key.kind {
                    NodeKind::Task => {
                        s.insert(p);
                    }
                    NodeKind::Barrier | NodeKind::Join => s.extend(out[p].iter().copied()),
                }
            }
            out.push(s);
        }
        out
    }

    /// Every task that node `i` transitively waits for (barriers are seen
    /// through and never listed).
    pub fn waits_for(&self, i: usize) -> BTreeSet<usize> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<usize> = self.nodes[i].preds.iter().copied().collect();
        let mut out = BTreeSet::new();
        while let Some(p) = stack.pop() {
            if std::mem::replace(&mut seen[p], true) {
                continue;
            }
            if self.nodes[p].key.kind == NodeKind::Task {
                out.insert(p);
            }
            stack.extend(self.nodes[p].preds.iter().copied());
        }
        out
    }

    /// A human description: `` task `b_tid = submit kernel` (iteration [2]) ``.
    pub fn describe(&self, i: usize) -> String {
        let n = &self.nodes[i];
        let what = match n.key.kind {
            NodeKind::Task => "task",
            NodeKind::Barrier => "barrier",
            NodeKind::Join => "join",
        };
        let label = self.labels.get(&n.stmt).map(String::as_str).unwrap_or("?");
        if n.key.iterations.is_empty() {
            format!("{what} {label}")
        } else {
            let its: Vec<String> = n.key.iterations.iter().map(u32::to_string).collect();
            format!("{what} {label} (loop iteration [{}])", its.join(", "))
        }
    }
}

/// The task DAG of the function `function` of `module` (an empty graph when
/// there is no such function). See the module documentation for what is
/// modelled.
pub fn task_graph(module: &Module, function: &str, limits: &Limits) -> TaskGraph {
    match module.function(function) {
        Some(f) => function_task_graph(module, f, limits),
        None => TaskGraph {
            function: function.to_string(),
            ..TaskGraph::default()
        },
    }
}

/// The task DAG of `f`.
pub fn function_task_graph(module: &Module, f: &Function, limits: &Limits) -> TaskGraph {
    let mut ev = Evaluator {
        module,
        f,
        limits,
        graph: TaskGraph {
            function: f.name.clone(),
            ..TaskGraph::default()
        },
        submit_ordinals: HashMap::new(),
        iterations: Vec::new(),
        next_cell: 0,
        tasks: 0,
        loop_iterations: 0,
        work: 0,
        stopped: false,
        joins: 0,
        cur_stmt: None,
    };
    ev.number_submits();
    let mut st = State::default();
    for p in &f.params {
        let v = ev.default_value(f.var_ty(p.var), &mut st);
        st.env.insert(p.var, v);
    }
    let _ = ev.block(&f.body, st);
    ev.graph.work = ev.work;
    ev.graph
}

/// The work budget of one run over all its evaluations (`--verify-deps`:
/// two per function; `pfir graph`: one per function and side). [`Limits`]
/// bound one evaluation; this bounds their sum, so that a file of many
/// functions that each reach their own budget (100 functions of 20 nested
/// loops of unknown trip count) costs what two such evaluations cost, not
/// a hundred times more. Each evaluation gets the smaller of its own work
/// budget and what is left of the run's ([`RunBudget::limits`]).
#[derive(Debug)]
pub struct RunBudget {
    max_work: u64,
    spent: std::cell::Cell<u64>,
}

impl RunBudget {
    /// Twice [`Limits`]' default work budget: one function's two sides
    /// evaluated to their budget.
    pub const DEFAULT_MAX_WORK: u64 = 8_000_000;

    pub fn new(max_work: u64) -> RunBudget {
        RunBudget {
            max_work,
            spent: std::cell::Cell::new(0),
        }
    }

    /// The limits of the next evaluation: `per`, its work budget cut to
    /// what is left of the run's.
    pub fn limits(&self, per: &Limits) -> Limits {
        Limits {
            max_work: per.max_work.min(self.remaining()),
            ..per.clone()
        }
    }

    /// Counts the work `graph`'s evaluation spent.
    pub fn spend(&self, graph: &TaskGraph) {
        self.spent.set(self.spent.get().saturating_add(graph.work));
    }

    pub fn remaining(&self) -> u64 {
        self.max_work.saturating_sub(self.spent.get())
    }

    pub fn exhausted(&self) -> bool {
        self.remaining() == 0
    }

    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    pub fn max_work(&self) -> u64 {
        self.max_work
    }
}

impl Default for RunBudget {
    fn default() -> RunBudget {
        RunBudget::new(RunBudget::DEFAULT_MAX_WORK)
    }
}

type Set = BTreeSet<usize>;

/// A task value: the node it may hold (a [`NodeKind::Join`] node when it
/// may hold several), or `None` for the invalid task id.
type Tv = Option<usize>;

/// An abstract value (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Int(Option<i64>),
    Bool(Option<bool>),
    Task(Tv),
    Array(u32),
    Other,
}

/// A value detached from the heap: arrays by contents.
#[derive(Clone, Debug)]
enum Snap {
    Val(Val),
    Array(Cell),
}

/// A storage cell. Slots are shared between copies until one is written
/// (copy on write), so copying an array, snapshotting a state and joining
/// two states that did not touch it cost O(1).
#[derive(Clone, Debug, PartialEq)]
struct Cell {
    slots: Rc<Vec<Tv>>,
    /// One slot standing for every slot.
    summary: bool,
    /// The node standing for every task the slots hold, once asked for
    /// (reset by every write): all consumers of an unchanged array share it.
    content: Option<(Tv, bool)>,
}

/// The abstract state at one program point.
#[derive(Clone, Debug, Default)]
struct State {
    env: HashMap<VarId, Val>,
    heap: BTreeMap<u32, Cell>,
    /// The values of the `yield` that ended the block, if any.
    yielded: Option<Vec<Snap>>,
}

/// What evaluating a block led to, per way of leaving it.
#[derive(Default)]
struct Flow {
    normal: Option<State>,
    breaks: Option<State>,
    continues: Option<State>,
}

fn join_opt(a: Option<State>, b: Option<State>, ev: &mut Evaluator) -> Option<State> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(ev.join(a, b)),
    }
}

struct Evaluator<'a> {
    /// The module `f` belongs to (callee names).
    module: &'a Module,
    f: &'a Function,
    limits: &'a Limits,
    graph: TaskGraph,
    submit_ordinals: HashMap<StmtId, u32>,
    iterations: Vec<u32>,
    next_cell: u32,
    tasks: usize,
    loop_iterations: u64,
    /// Work spent so far (see [`Limits::max_work`]).
    work: u64,
    stopped: bool,
    /// Join nodes made so far.
    joins: u32,
    /// The statement being evaluated (join nodes are attributed to it).
    cur_stmt: Option<StmtId>,
}

impl Evaluator<'_> {
    /// Numbers the `submit`s of the function in pre-order and labels them.
    fn number_submits(&mut self) {
        let f = self.f;
        let mut n = 0u32;
        walk_stmts(
            f,
            |s, _| {
                if let StmtKind::Submit(sub) = f.stmts[s].kind {
                    let sub = &f.submits[sub];
                    self.submit_ordinals.insert(s, n);
                    n += 1;
                    let tid = f.list(sub.results).last().map(|v| f.var_name(*v));
                    self.graph.labels.insert(
                        s,
                        format!(
                            "`{} = submit {}`",
                            tid.unwrap_or("_"),
                            f.callee_name(self.module, sub.callee)
                        ),
                    );
                }
            },
            |_| {},
        );
    }

    fn approx(&mut self, span: Span, what: &'static str) {
        self.graph
            .approximations
            .insert(Approximation { span, what });
    }

    fn new_cell(&mut self, st: &mut State, cell: Cell) -> Val {
        let id = self.next_cell;
        self.next_cell += 1;
        st.heap.insert(id, cell);
        Val::Array(id)
    }

    fn sized_cell(&self, n: Option<i64>) -> Cell {
        match n {
            Some(n) if n >= 0 && (n as u64) <= self.limits.max_slots as u64 => Cell {
                slots: Rc::new(vec![None; n as usize]),
                summary: false,
                content: None,
            },
            _ => Cell {
                slots: Rc::new(vec![None]),
                summary: true,
                content: None,
            },
        }
    }

    /// Stops the evaluation: `budget` ran out.
    fn stop(&mut self, budget: Budget) {
        self.stopped = true;
        self.graph.truncated = true;
        self.graph.stopped_by.get_or_insert(budget);
    }

    /// One more task or loop iteration, `over` its own budget or not: its
    /// work (1 plus the loop depth) is spent; false (and the evaluation
    /// stops) past either budget.
    fn step(&mut self, over: Option<Budget>) -> bool {
        if let Some(budget) = over {
            self.stop(budget);
            return false;
        }
        self.charge(1 + self.iterations.len() as u64)
    }

    /// Spends `units` of work; false (and the evaluation stops) past the budget.
    fn charge(&mut self, units: u64) -> bool {
        fsutil::cancel::checkpoint();
        self.work = self.work.saturating_add(units);
        if self.work > self.limits.max_work {
            self.stop(Budget::Work(self.limits.max_work));
            return false;
        }
        true
    }

    /// One value for a set of nodes: nothing, the node itself, or a join
    /// node waiting for all of them.
    fn one_of(&mut self, preds: Set) -> Tv {
        match preds.len() {
            0 => None,
            1 => preds.first().copied(),
            n => {
                self.charge(1 + n as u64);
                let i = self.graph.nodes.len();
                let stmt = self
                    .cur_stmt
                    .unwrap_or_else(|| <StmtId as crate::ir::ArenaId>::from_index(0));
                self.graph.nodes.push(Node {
                    key: NodeKey {
                        kind: NodeKind::Join,
                        ordinal: self.joins,
                        iterations: Vec::new(),
                    },
                    stmt,
                    preds,
                });
                self.joins = self.joins.saturating_add(1);
                Some(i)
            }
        }
    }

    /// A task value that may be `a` or `b`.
    fn union(&mut self, a: Tv, b: Tv) -> Tv {
        match (a, b) {
            (None, x) | (x, None) => x,
            (Some(x), Some(y)) if x == y => Some(x),
            (Some(x), Some(y)) => self.one_of(Set::from([x, y])),
        }
    }

    /// Every task the cell may hold, as one value (cached until a write).
    fn contents(&mut self, cell: &mut Cell) -> Tv {
        self.contents_and_holes(cell).0
    }

    /// [`Self::contents`], and whether some slot holds no task.
    fn contents_and_holes(&mut self, cell: &mut Cell) -> (Tv, bool) {
        if let Some(v) = cell.content {
            return v;
        }
        let set: Set = cell.slots.iter().flatten().copied().collect();
        let holes = cell.slots.iter().any(Option::is_none);
        let v = (self.one_of(set), holes);
        cell.content = Some(v);
        v
    }

    /// `a` := the join of `a` and `b`, slot by slot.
    fn join_cell(&mut self, a: &mut Cell, mut b: Cell) {
        if Rc::ptr_eq(&a.slots, &b.slots) && a.summary == b.summary {
            return;
        }
        if a.summary != b.summary || a.slots.len() != b.slots.len() {
            let x = self.contents(a);
            let y = self.contents(&mut b);
            let v = self.union(x, y);
            *a = Cell {
                slots: Rc::new(vec![v]),
                summary: true,
                content: None,
            };
            return;
        }
        if a.slots == b.slots {
            return;
        }
        self.charge(a.slots.len() as u64);
        let slots = Rc::make_mut(&mut a.slots);
        for (x, y) in slots.iter_mut().zip(b.slots.iter()) {
            if x != y {
                *x = self.union(*x, *y);
            }
        }
        a.content = None;
    }

    /// The value of something of type `ty` the evaluator knows nothing about.
    fn default_value(&mut self, ty: &Type, st: &mut State) -> Val {
        match ty {
            Type::Scalar(ScalarType::TaskId) => Val::Task(None),
            Type::Scalar(ScalarType::Bool) => Val::Bool(None),
            Type::Scalar(s) if s.is_integer() => Val::Int(None),
            Type::Array { .. } => {
                let c = self.sized_cell(ty.array_extent());
                self.new_cell(st, c)
            }
            _ => Val::Other,
        }
    }

    fn snap(&self, v: &Val, st: &State) -> Snap {
        match v {
            Val::Array(c) => Snap::Array(st.heap[c].clone()),
            other => Snap::Val(other.clone()),
        }
    }

    fn unsnap(&mut self, s: Snap, st: &mut State) -> Val {
        match s {
            Snap::Val(v) => v,
            Snap::Array(c) => self.new_cell(st, c),
        }
    }

    fn join_val(&mut self, a: Val, b: Val, heap: &mut BTreeMap<u32, Cell>) -> Val {
        match (a, b) {
            (Val::Int(x), Val::Int(y)) => Val::Int(if x == y { x } else { None }),
            (Val::Bool(x), Val::Bool(y)) => Val::Bool(if x == y { x } else { None }),
            (Val::Task(x), Val::Task(y)) => Val::Task(self.union(x, y)),
            (Val::Array(x), Val::Array(y)) if x == y => Val::Array(x),
            (Val::Array(x), Val::Array(y)) => {
                // Only variables out of scope can differ: merge into a copy.
                let mut c = heap[&x].clone();
                self.join_cell(&mut c, heap[&y].clone());
                let id = self.next_cell;
                self.next_cell += 1;
                heap.insert(id, c);
                Val::Array(id)
            }
            _ => Val::Other,
        }
    }

    fn join_snap(&mut self, a: Snap, b: Snap) -> Snap {
        match (a, b) {
            (Snap::Array(mut x), Snap::Array(y)) => {
                self.join_cell(&mut x, y);
                Snap::Array(x)
            }
            (Snap::Val(Val::Task(x)), Snap::Val(Val::Task(y))) => {
                Snap::Val(Val::Task(self.union(x, y)))
            }
            (Snap::Val(Val::Int(x)), Snap::Val(Val::Int(y))) => {
                Snap::Val(Val::Int(if x == y { x } else { None }))
            }
            (Snap::Val(Val::Bool(x)), Snap::Val(Val::Bool(y))) => {
                Snap::Val(Val::Bool(if x == y { x } else { None }))
            }
            _ => Snap::Val(Val::Other),
        }
    }

    fn join(&mut self, mut a: State, b: State) -> State {
        for (id, cell) in b.heap {
            match a.heap.get_mut(&id) {
                Some(c) => self.join_cell(c, cell),
                None => {
                    a.heap.insert(id, cell);
                }
            }
        }
        for (var, v) in b.env {
            let joined = match a.env.remove(&var) {
                Some(old) => self.join_val(old, v, &mut a.heap),
                None => v,
            };
            a.env.insert(var, joined);
        }
        a.yielded = match (a.yielded.take(), b.yielded) {
            (Some(x), Some(y)) => Some(
                x.into_iter()
                    .zip(y)
                    .map(|(p, q)| self.join_snap(p, q))
                    .collect(),
            ),
            (x, y) => x.or(y),
        };
        a
    }

    /// Drops cells no variable refers to.
    fn collect_garbage(st: &mut State) {
        let live: BTreeSet<u32> = st
            .env
            .values()
            .filter_map(|v| match v {
                Val::Array(c) => Some(*c),
                _ => None,
            })
            .collect();
        st.heap.retain(|id, _| live.contains(id));
    }

    /// [`Self::task_of`] for `deps` entry `k` of `stmt`, recording what it
    /// held (see [`TaskGraph::entry_sources`]).
    fn entry_of(&mut self, stmt: StmtId, k: usize, v: &Val, st: &mut State) -> Tv {
        let (tv, holes) = match v {
            Val::Task(t) => (*t, t.is_none()),
            Val::Array(c) => match st.heap.get_mut(c) {
                Some(cell) => self.contents_and_holes(cell),
                None => (None, true),
            },
            _ => (None, true),
        };
        let e = self.graph.entries.entry((stmt, k)).or_default();
        e.0.extend(tv);
        e.1 |= holes;
        tv
    }

    /// The tasks a `deps` entry (or a stored value) stands for.
    fn task_of(&mut self, v: &Val, st: &mut State) -> Tv {
        match v {
            Val::Task(t) => *t,
            Val::Array(c) => match st.heap.get_mut(c) {
                Some(cell) => self.contents(cell),
                None => None,
            },
            _ => None,
        }
    }

    fn add_node(&mut self, key: NodeKey, stmt: StmtId, preds: Set) -> usize {
        if let Some(&i) = self.graph.index.get(&key) {
            self.graph.nodes[i].preds.extend(preds);
            return i;
        }
        let i = self.graph.nodes.len();
        self.graph.index.insert(key.clone(), i);
        self.graph.nodes.push(Node { key, stmt, preds });
        i
    }

    // ---- expressions ----

    fn expr(&mut self, e: ExprId, stmt: StmtId, st: &mut State) -> Val {
        crate::stack::ensure(|| self.expr_here(e, stmt, st))
    }

    /// [`Self::expr`], on the stack [`crate::stack::ensure`] left.
    fn expr_here(&mut self, e: ExprId, stmt: StmtId, st: &mut State) -> Val {
        let f = self.f;
        let ex = &f.exprs[e];
        match &ex.kind {
            ExprKind::Int(n) => Val::Int(Some(n.get())),
            ExprKind::Bool(b) => Val::Bool(Some(*b)),
            ExprKind::None => Val::Task(None),
            ExprKind::Float(_)
            | ExprKind::Dtype(_)
            | ExprKind::List(_)
            | ExprKind::Unresolved(_) => Val::Other,
            ExprKind::Var(v) => match st.env.get(v) {
                Some(val) => val.clone(),
                None => {
                    let ty = self.f.var_ty(*v).clone();
                    let val = self.default_value(&ty, st);
                    st.env.insert(*v, val.clone());
                    val
                }
            },
            ExprKind::Unary(op, x) => {
                let x = self.expr(*x, stmt, st);
                match (op, x) {
                    (UnaryOp::Neg, Val::Int(n)) => Val::Int(n.and_then(i64::checked_neg)),
                    (UnaryOp::Not, Val::Bool(b)) => Val::Bool(b.map(|b| !b)),
                    (UnaryOp::Not, _) => Val::Bool(None),
                    _ => Val::Other,
                }
            }
            ExprKind::Binary(op, x, y) => {
                let (op, x, y) = (*op, *x, *y);
                let a = self.expr(x, stmt, st);
                let b = self.expr(y, stmt, st);
                binary(op, a, b)
            }
            ExprKind::Call(call) => self.call(e, *call, stmt, st),
        }
    }

    /// A call: a barrier node, an array op, or an opaque value of its type.
    fn call(&mut self, e: ExprId, call: CallId, stmt: StmtId, st: &mut State) -> Val {
        let f = self.f;
        let ex = &f.exprs[e];
        let call = &f.calls[call];
        let builtin = call.builtin;
        if call.dummy_task || builtin == Some(BuiltinOp::TaskDummy) {
            let mut preds = Set::new();
            for (k, &d) in f.list(call.manual_dep_edges).iter().enumerate() {
                let v = self.expr(d, stmt, st);
                preds.extend(self.entry_of(stmt, k, &v, st));
            }
            let key = NodeKey {
                kind: NodeKind::Barrier,
                ordinal: e.index_u32(),
                iterations: self.iterations.clone(),
            };
            if !self.graph.labels.contains_key(&stmt) {
                let label = match f.results(&f.stmts[stmt].kind).first() {
                    Some(v) => format!(
                        "`{} = {}`",
                        self.f.var_name(*v),
                        BuiltinOp::TaskDummy.name()
                    ),
                    None => format!("`{}`", BuiltinOp::TaskDummy.name()),
                };
                self.graph.labels.insert(stmt, label);
            }
            let i = self.add_node(key, stmt, preds);
            return Val::Task(Some(i));
        }
        match (builtin, f.list(call.args)) {
            (Some(BuiltinOp::ArrayCreate), [n, _]) => {
                let n = match self.expr(*n, stmt, st) {
                    Val::Int(n) => n,
                    _ => None,
                };
                let c = self.sized_cell(n);
                self.new_cell(st, c)
            }
            (Some(BuiltinOp::ArrayGetElement), [a, i]) => {
                let a = self.expr(*a, stmt, st);
                let i = self.expr(*i, stmt, st);
                let set = match a {
                    Val::Array(c) => match st.heap.get_mut(&c) {
                        Some(cell) => match i {
                            Val::Int(Some(i))
                                if !cell.summary
                                    && i >= 0
                                    && (i as u64) < cell.slots.len() as u64 =>
                            {
                                cell.slots[i as usize]
                            }
                            _ => self.contents(cell),
                        },
                        None => None,
                    },
                    _ => None,
                };
                if self.f.types[ex.ty].is_task_id() {
                    Val::Task(set)
                } else {
                    let ty = self.f.types[ex.ty].clone();
                    self.default_value(&ty, st)
                }
            }
            (Some(BuiltinOp::ArrayUpdateElement), [a, i, v]) => {
                let span = ex.span;
                let a = self.expr(*a, stmt, st);
                let i = self.expr(*i, stmt, st);
                let v = self.expr(*v, stmt, st);
                let v = self.task_of(&v, st);
                let Val::Array(c) = a else {
                    return Val::Other;
                };
                let cell = st.heap.get_mut(&c).expect("live cell");
                match i {
                    Val::Int(Some(i)) if !cell.summary => {
                        if i >= 0
                            && (i as u64) < cell.slots.len() as u64
                            && cell.slots[i as usize] != v
                        {
                            Rc::make_mut(&mut cell.slots)[i as usize] = v;
                            cell.content = None;
                        }
                    }
                    _ => {
                        if v.is_some() {
                            self.charge(cell.slots.len() as u64);
                            let slots = Rc::make_mut(&mut cell.slots);
                            for x in slots.iter_mut() {
                                *x = self.union(*x, v);
                            }
                            cell.content = None;
                        }
                        self.approx(span, "array update at an unknown index (weak update)");
                    }
                }
                let copy = st.heap[&c].clone();
                self.new_cell(st, copy)
            }
            (Some(BuiltinOp::TaskInvalid), _) => Val::Task(None),
            _ => {
                let ty = self.f.types[ex.ty].clone();
                self.default_value(&ty, st)
            }
        }
    }

    fn cond(&mut self, e: ExprId, stmt: StmtId, st: &mut State) -> Option<bool> {
        match self.expr(e, stmt, st) {
            Val::Bool(b) => b,
            _ => None,
        }
    }

    // ---- statements ----

    fn block(&mut self, b: &Block, st: State) -> Flow {
        crate::stack::ensure(|| self.block_here(b, st))
    }

    /// [`Self::block`], on the stack [`crate::stack::ensure`] left.
    fn block_here(&mut self, b: &Block, mut st: State) -> Flow {
        let mut flow = Flow::default();
        for &s in self.f.block_stmts(b) {
            if self.stopped {
                return Flow::default();
            }
            let out = self.stmt(s, st);
            flow.breaks = join_opt(flow.breaks.take(), out.breaks, self);
            flow.continues = join_opt(flow.continues.take(), out.continues, self);
            match out.normal {
                Some(next) => st = next,
                None => return flow,
            }
        }
        flow.normal = Some(st);
        flow
    }

    /// Evaluates a loop or `if` body, which opens a scope: what it defines
    /// is dropped from every state leaving it (`manual`/`auto` scopes do
    /// not scope names, so their definitions go too). Without this, stale
    /// values of out-of-scope variables would be joined at every merge.
    fn scoped_block(&mut self, b: &Block, st: State) -> Flow {
        let mut flow = self.block(b, st);
        let mut defs = Vec::new();
        let f = self.f;
        // What the block binds, and what the scopes in it bind.
        let mut walk = Walk::within(f, None, 0, b);
        while let Some(event) = walk.next() {
            if let Event::Enter(s, _) = event {
                let kind = &f.stmts[s].kind;
                defs.extend_from_slice(f.results(kind));
                if !matches!(kind, StmtKind::Scope(_)) {
                    walk.skip_nested();
                }
            }
        }
        for st in [&mut flow.normal, &mut flow.breaks, &mut flow.continues]
            .into_iter()
            .flatten()
        {
            for v in &defs {
                st.env.remove(v);
            }
        }
        flow
    }

    fn normal(st: State) -> Flow {
        Flow {
            normal: Some(st),
            ..Flow::default()
        }
    }

    fn stmt(&mut self, s: StmtId, mut st: State) -> Flow {
        let f = self.f;
        self.cur_stmt = Some(s);
        let span = f.stmts[s].span;
        match &f.stmts[s].kind {
            StmtKind::Assign { results, value } => self.assign(s, *results, *value, st),
            StmtKind::Submit(sub) => self.submit(s, *sub, st),
            StmtKind::Eval(e) => {
                self.expr(*e, s, &mut st);
                Self::normal(st)
            }
            StmtKind::Scope(sc) => self.block(&f.scopes[*sc].body, st),
            StmtKind::Yield(values) => {
                let vals: Vec<Val> = f
                    .list(*values)
                    .iter()
                    .map(|&v| self.expr(v, s, &mut st))
                    .collect();
                let snaps = vals.iter().map(|v| self.snap(v, &st)).collect();
                st.yielded = Some(snaps);
                Self::normal(st)
            }
            StmtKind::Return(_) => Flow::default(),
            StmtKind::Break => Flow {
                breaks: Some(st),
                ..Flow::default()
            },
            StmtKind::Continue => Flow {
                continues: Some(st),
                ..Flow::default()
            },
            StmtKind::If(i) => self.if_stmt(s, *i, span, st),
            StmtKind::For(l) => self.for_loop(s, *l, span, st),
            StmtKind::While(w) => self.while_loop(s, *w, span, st),
        }
    }

    /// `results = value`.
    fn assign(&mut self, s: StmtId, results: VarList, value: ExprId, mut st: State) -> Flow {
        let f = self.f;
        let results = f.list(results);
        let v = self.expr(value, s, &mut st);
        if results.len() == 1 {
            let v = match (&f.exprs[value].kind, v) {
                // `b = a`: a copy, not an alias.
                (ExprKind::Var(_), Val::Array(c)) => {
                    let copy = st.heap[&c].clone();
                    self.new_cell(&mut st, copy)
                }
                (_, v) => v,
            };
            st.env.insert(results[0], v);
        } else {
            for &r in results {
                let v = self.default_value(f.var_ty(r), &mut st);
                st.env.insert(r, v);
            }
        }
        Self::normal(st)
    }

    /// A `submit`: a task node waiting for its `deps`.
    fn submit(&mut self, s: StmtId, sub: SubmitId, mut st: State) -> Flow {
        let f = self.f;
        let sub = &f.submits[sub];
        self.tasks += 1;
        let max = self.limits.max_tasks;
        if !self.step((self.tasks > max).then_some(Budget::Tasks(max))) {
            return Flow::default();
        }
        let mut preds = Set::new();
        for (k, &d) in f.list(sub.deps).iter().enumerate() {
            let v = self.expr(d, s, &mut st);
            preds.extend(self.entry_of(s, k, &v, &mut st));
        }
        let key = NodeKey {
            kind: NodeKind::Task,
            ordinal: self.submit_ordinals[&s],
            iterations: self.iterations.clone(),
        };
        let node = self.add_node(key, s, preds);
        if let Some((tid, rest)) = f.list(sub.results).split_last() {
            for &r in rest {
                let v = self.default_value(f.var_ty(r), &mut st);
                st.env.insert(r, v);
            }
            st.env.insert(*tid, Val::Task(Some(node)));
        }
        Self::normal(st)
    }

    /// An `if`: the branches its condition may take, joined.
    fn if_stmt(&mut self, s: StmtId, i: IfId, span: Span, mut st: State) -> Flow {
        let f = self.f;
        let crate::ir::IfStmt {
            results,
            cond,
            then_body,
            else_body,
        } = &f.ifs[i];
        let results = f.list(*results);
        let c = self.cond(*cond, s, &mut st);
        if c.is_none() {
            self.approx(
                span,
                "`if` with an unknown condition (both branches joined)",
            );
        }
        let mut out = Flow::default();
        let mut yields: Option<Vec<Snap>> = None;
        let mut take = |ev: &mut Self, mut flow: Flow, out: &mut Flow| {
            if let Some(n) = flow.normal.as_mut()
                && let Some(y) = n.yielded.take()
            {
                yields = Some(match yields.take() {
                    None => y,
                    Some(old) => old
                        .into_iter()
                        .zip(y)
                        .map(|(a, b)| ev.join_snap(a, b))
                        .collect(),
                });
            }
            out.normal = join_opt(out.normal.take(), flow.normal, ev);
            out.breaks = join_opt(out.breaks.take(), flow.breaks, ev);
            out.continues = join_opt(out.continues.take(), flow.continues, ev);
        };
        if c != Some(false) {
            let flow = self.scoped_block(then_body, st.clone());
            take(self, flow, &mut out);
        }
        if c != Some(true) {
            let flow = match else_body {
                Some(b) => self.scoped_block(b, st),
                None => Self::normal(st),
            };
            take(self, flow, &mut out);
        }
        if let (Some(n), false) = (out.normal.as_mut(), results.is_empty()) {
            let ys = yields.unwrap_or_default();
            for (i, &r) in results.iter().enumerate() {
                let v = match ys.get(i) {
                    Some(y) => self.unsnap(y.clone(), n),
                    None => self.default_value(f.var_ty(r), n),
                };
                n.env.insert(r, v);
            }
        }
        out
    }

    /// A `for` loop: unrolled when its bounds are known.
    fn for_loop(&mut self, s: StmtId, l: ForId, span: Span, mut st: State) -> Flow {
        let f = self.f;
        let l = &f.fors[l];
        let bounds = [l.start, l.stop, l.step].map(|e| match self.expr(e, s, &mut st) {
            Val::Int(n) => n,
            _ => None,
        });
        let trip = match bounds {
            [Some(a), Some(b), Some(c)] => Some((a, c, range_len(a, b, c))),
            _ => {
                self.approx(
                    span,
                    "loop with an unknown trip count (bounded exploration)",
                );
                None
            }
        };
        let var = l.var;
        let (results, iter_args) = (f.list(l.results), f.list(l.iter_args));
        self.run_loop(s, st, iter_args, results, &l.body, |ev, st, k| match trip {
            Some((a, c, n)) => {
                if k >= n {
                    return Some(false);
                }
                let i = (k as i128) * (c as i128) + a as i128;
                st.env.insert(var, Val::Int(i64::try_from(i).ok()));
                Some(true)
            }
            None => {
                st.env.insert(var, Val::Int(None));
                let _ = ev;
                None
            }
        })
    }

    /// A `while` loop.
    fn while_loop(&mut self, s: StmtId, w: WhileId, span: Span, st: State) -> Flow {
        let f = self.f;
        let w = &f.whiles[w];
        let (results, iter_args) = (f.list(w.results), f.list(w.iter_args));
        let cond = w.cond;
        self.run_loop(s, st, iter_args, results, &w.body, |ev, st, _| {
            let c = ev.cond(cond, s, st);
            if c.is_none() {
                ev.approx(
                    span,
                    "`while` with an unknown condition (bounded exploration)",
                );
            }
            c
        })
    }

    /// Runs a loop. `decide(k)` says whether iteration `k` runs: `Some(true)`
    /// yes, `Some(false)` no (the loop exits), `None` maybe (both).
    fn run_loop(
        &mut self,
        s: StmtId,
        mut st: State,
        iter_args: &[IterArg],
        results: &[VarId],
        body: &Block,
        mut decide: impl FnMut(&mut Self, &mut State, u64) -> Option<bool>,
    ) -> Flow {
        let f = self.f;
        // Iter-args: an array variable's cell is shared, anything else is new.
        for &IterArg { var, init } in iter_args {
            let v = self.expr(init, s, &mut st);
            let v = match (&f.exprs[init].kind, v) {
                (ExprKind::Var(_), v @ Val::Array(_)) => v,
                (_, Val::Array(c)) => {
                    let copy = st.heap[&c].clone();
                    self.new_cell(&mut st, copy)
                }
                (_, v) => v,
            };
            st.env.insert(var, v);
        }
        let mut exit: Option<State> = None;
        let mut unknown_runs = 0u32;
        let mut k: u64 = 0;
        let mut cur = Some(st);
        let mut live_cells = 64usize;
        while let Some(mut st) = cur.take() {
            if self.stopped {
                return Flow::default();
            }
            match decide(self, &mut st, k) {
                Some(false) => {
                    exit = join_opt(exit, Some(st), self);
                    break;
                }
                Some(true) => {}
                None => {
                    if unknown_runs >= self.limits.unknown_trip_iterations {
                        exit = join_opt(exit, Some(st), self);
                        break;
                    }
                    unknown_runs += 1;
                    exit = join_opt(exit, Some(st.clone()), self);
                }
            }
            self.loop_iterations += 1;
            let max = self.limits.max_iterations;
            if !self.step((self.loop_iterations > max).then_some(Budget::Iterations(max))) {
                return Flow::default();
            }
            self.iterations.push(u32::try_from(k).unwrap_or(u32::MAX));
            let flow = self.scoped_block(body, st);
            self.iterations.pop();
            exit = join_opt(exit, flow.breaks, self);
            let mut next = flow.normal;
            if let Some(n) = next.as_mut()
                && let Some(ys) = n.yielded.take()
            {
                for (&IterArg { var, .. }, y) in iter_args.iter().zip(ys) {
                    match (n.env.get(&var).cloned(), y) {
                        (Some(Val::Array(c)), Snap::Array(contents)) => {
                            n.heap.insert(c, contents);
                        }
                        (_, y) => {
                            let v = self.unsnap(y, n);
                            n.env.insert(var, v);
                        }
                    }
                }
            }
            next = join_opt(next, flow.continues, self);
            if let Some(n) = next.as_mut()
                && n.heap.len() > 2 * live_cells
            {
                Self::collect_garbage(n);
                live_cells = n.heap.len().max(64);
            }
            cur = next;
            k += 1;
        }
        let Some(mut out) = exit else {
            return Flow::default();
        };
        for (&r, &IterArg { var, .. }) in results.iter().zip(iter_args) {
            let v = out.env.get(&var).cloned().unwrap_or(Val::Other);
            let v = match v {
                Val::Array(c) => {
                    let copy = out.heap[&c].clone();
                    self.new_cell(&mut out, copy)
                }
                v => v,
            };
            out.env.insert(r, v);
        }
        // The induction variable and iter-args are visible in the body only.
        let mut head_vars: Vec<VarId> = iter_args.iter().map(|ia| ia.var).collect();
        if let StmtKind::For(l) = f.stmts[s].kind {
            head_vars.push(f.fors[l].var);
        }
        for v in head_vars {
            out.env.remove(&v);
        }
        Self::normal(out)
    }
}

fn binary(op: BinaryOp, a: Val, b: Val) -> Val {
    use BinaryOp::*;
    match (op, a, b) {
        (And, Val::Bool(Some(false)), _) | (And, _, Val::Bool(Some(false))) => {
            Val::Bool(Some(false))
        }
        (Or, Val::Bool(Some(true)), _) | (Or, _, Val::Bool(Some(true))) => Val::Bool(Some(true)),
        (And | Or, Val::Bool(Some(x)), Val::Bool(Some(y))) => {
            Val::Bool(Some(if op == And { x && y } else { x || y }))
        }
        (And | Or, _, _) => Val::Bool(None),
        (Eq | Ne, Val::Bool(Some(x)), Val::Bool(Some(y))) => {
            Val::Bool(Some((x == y) == (op == Eq)))
        }
        (op, Val::Int(Some(x)), Val::Int(Some(y))) => match op {
            Add => Val::Int(x.checked_add(y)),
            Sub => Val::Int(x.checked_sub(y)),
            Mul => Val::Int(x.checked_mul(y)),
            Div => Val::Int(x.checked_div(y)),
            Rem => Val::Int(x.checked_rem(y)),
            Eq => Val::Bool(Some(x == y)),
            Ne => Val::Bool(Some(x != y)),
            Lt => Val::Bool(Some(x < y)),
            Le => Val::Bool(Some(x <= y)),
            Gt => Val::Bool(Some(x > y)),
            Ge => Val::Bool(Some(x >= y)),
            And | Or => Val::Bool(None),
        },
        (op, _, _) if op.is_comparison() => Val::Bool(None),
        (Add | Sub | Mul | Div | Rem, Val::Int(_), _)
        | (Add | Sub | Mul | Div | Rem, _, Val::Int(_)) => Val::Int(None),
        _ => Val::Other,
    }
}

trait IndexU32 {
    fn index_u32(self) -> u32;
}

impl IndexU32 for ExprId {
    fn index_u32(self) -> u32 {
        use crate::ir::ArenaId;
        u32::try_from(self.index()).unwrap_or(u32::MAX)
    }
}
