//! The picture's graph: nodes, clusters and weighted edges, built from the
//! IR and the task-graph model of `src/analysis/`.
//!
//! Two views of one function:
//!
//! - **static** ([`static_view`]): one node per `submit` and per
//!   `system.task_dummy` statement, grouped in clusters per loop and per
//!   `manual`/`auto` scope. Every `deps` entry is one edge into its
//!   statement, labelled with the runtime edges `--stats` counts for it
//!   ([`static_dep_weights`]), so the labels of a side add up to `--stats`'
//!   "static dependency edges". Where the edge comes *from* is what the
//!   evaluator of `--verify-deps` says the entry may hold
//!   ([`TaskGraph::entry_sources`]): one producer statement gives a direct
//!   edge; task ids from outside the function (an array nobody here fills,
//!   a parameter) come from an *outside* node named after the variable;
//!   several possible sources meet in a small *join* node first.
//! - **expanded** ([`expanded_view`]): one node per task instance of the
//!   evaluator's graph (loops with known trip counts unrolled), one edge per
//!   runtime edge, up to a node budget.

use crate::analysis::{Limits, NodeKind as TaskKind, RunBudget, TaskGraph, function_task_graph};
use crate::ir::walk::{Event, Walk};
use crate::ir::{BuiltinOp, ExprId, ExprKind, Function, Module, StmtId, StmtKind};
use crate::passes::expand_manual_phase_fence::static_dep_weights;
use crate::printer::print_expr;
use std::collections::{BTreeMap, HashMap};

/// Which version of the function a graph shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    Before,
    After,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Before => "before",
            Side::After => "after",
        }
    }
}

/// What a cluster stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClusterKind {
    /// A `for` or `while` loop.
    Loop,
    /// A `manual { }` scope.
    Manual,
    /// An `auto { }` scope.
    Auto,
}

#[derive(Clone, Debug)]
pub struct Cluster {
    /// Stable id, unique in its graph: `L0`, `L1`, ... in pre-order.
    pub id: String,
    pub label: String,
    pub kind: ClusterKind,
    pub parent: Option<usize>,
}

/// What a node stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A `submit` (or, expanded, one of its tasks).
    Task,
    /// A `system.task_dummy` barrier.
    Barrier,
    /// Task ids that come from outside the function (or invalid ones).
    Outside,
    /// Where several possible sources of one `deps` entry meet.
    Join,
    /// A collapsed cluster (size-limit summary).
    Summary,
}

#[derive(Clone, Debug)]
pub struct Node {
    /// Stable id, unique in its graph (see `docs/graph.md`).
    pub id: String,
    /// Lines of the label; the first is the main one.
    pub label: Vec<String>,
    pub kind: NodeKind,
    pub cluster: Option<usize>,
    /// Drawn emphasised: a barrier the pipeline inserted.
    pub highlight: bool,
}

/// How an edge is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EdgeStyle {
    /// A dependency.
    Normal,
    /// Into a join node: "this entry may hold tasks of ...". Carries no count.
    Feed,
    /// A dependency the pipeline added or rewrote (after side).
    Added,
    /// A dependency the pipeline replaced (before side).
    Replaced,
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// The runtime edges it stands for (0 for `Feed` edges).
    pub weight: u64,
    /// The label text, when drawn with one.
    pub label: Option<String>,
    pub style: EdgeStyle,
}

/// The graph of one side of one function, ready to draw.
#[derive(Clone, Debug)]
pub struct SideGraph {
    pub side: Side,
    /// Prefix of every id in DOT (`before_`, `after_`).
    pub prefix: String,
    /// `before: 32 runtime edges`.
    pub title: String,
    /// The runtime edges of the side: `--stats`' static count, or (expanded)
    /// the edges of the evaluated task graph.
    pub total_edges: u64,
    pub clusters: Vec<Cluster>,
    /// In drawing order (program order; outside nodes first).
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// What was left out or summarised, for the reader.
    pub notes: Vec<String>,
}

/// Longest label line kept; longer ones end in `...`.
const MAX_LABEL_CHARS: usize = 48;

pub fn clip(s: &str) -> String {
    if s.chars().count() <= MAX_LABEL_CHARS {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX_LABEL_CHARS - 3).collect();
        t.push_str("...");
        t
    }
}

/// A statement the picture draws: a `submit` or a barrier.
#[derive(Clone, Debug)]
struct Site {
    stmt: StmtId,
    barrier: bool,
    deps: Vec<ExprId>,
    cluster: Option<usize>,
    /// Product of the known trip counts around it; `None` when one is unknown.
    instances: Option<u64>,
}

/// The static structure of a function: clusters and sites in pre-order.
struct Structure {
    clusters: Vec<Cluster>,
    sites: Vec<Site>,
    /// For every statement inside a cluster, the innermost one.
    cluster_of: HashMap<StmtId, usize>,
}

/// The `deps` of a barrier statement (`x = system.task_dummy(deps=[..])`).
fn barrier_deps(f: &Function, s: StmtId) -> Option<&[ExprId]> {
    match &f.stmts[s].kind {
        StmtKind::Assign { value, .. } | StmtKind::Eval(value) => match f.call(*value) {
            Some(c) if c.dummy_task => Some(f.list(c.manual_dep_edges)),
            _ => None,
        },
        _ => None,
    }
}

fn loop_label(m: &Module, f: &Function, s: StmtId) -> String {
    match &f.stmts[s].kind {
        StmtKind::For(l) => {
            let l = &f.fors[*l];
            let bounds: Vec<String> = f
                .written_bounds(l)
                .iter()
                .map(|&e| print_expr(m, f, e))
                .collect();
            format!(
                "for {} in {}({})",
                f.var_name(l.var),
                l.kind.keyword(),
                bounds.join(", ")
            )
        }
        StmtKind::While(w) => format!("while {}", print_expr(m, f, f.whiles[*w].cond)),
        _ => String::new(),
    }
}

fn structure(m: &Module, f: &Function) -> Structure {
    use crate::ir::trip_count::trip_count;
    let mut st = Structure {
        clusters: Vec::new(),
        sites: Vec::new(),
        cluster_of: HashMap::new(),
    };
    // (cluster, instance product) per open cluster.
    let mut stack: Vec<(usize, Option<u64>)> = Vec::new();
    let mut opened: Vec<StmtId> = Vec::new();
    for event in Walk::new(f) {
        let s = match event {
            Event::Enter(s, _) => s,
            Event::Leave(s) => {
                if opened.last() == Some(&s) {
                    opened.pop();
                    stack.pop();
                }
                continue;
            }
            Event::EnterBlock { .. } | Event::LeaveBlock { .. } => continue,
        };
        let parent = stack.last().map(|&(c, _)| c);
        let outer = stack.last().map_or(Some(1u64), |&(_, n)| n);
        if let Some(p) = parent {
            st.cluster_of.insert(s, p);
        }
        let kind = &f.stmts[s].kind;
        let new_cluster = match kind {
            StmtKind::For(l) => {
                let l = &f.fors[*l];
                let trip = trip_count(f, l.start, l.stop, l.step);
                let label = match trip {
                    Some(n) => format!("{}  (x{n})", loop_label(m, f, s)),
                    None => format!("{}  (x?)", loop_label(m, f, s)),
                };
                Some((ClusterKind::Loop, label, trip))
            }
            StmtKind::While { .. } => Some((
                ClusterKind::Loop,
                format!("{}  (x?)", loop_label(m, f, s)),
                None,
            )),
            StmtKind::Scope(sc) => {
                let label = f.scopes[*sc].label(&f.names);
                let kind = if f.scopes[*sc].manual {
                    ClusterKind::Manual
                } else {
                    ClusterKind::Auto
                };
                Some((kind, label, Some(1)))
            }
            _ => None,
        };
        if let Some((kind, label, trip)) = new_cluster {
            let id = st.clusters.len();
            st.clusters.push(Cluster {
                id: format!("L{id}"),
                label: clip(&label),
                kind,
                parent,
            });
            let n = match (outer, trip) {
                (Some(a), Some(b)) => Some(a.saturating_mul(b)),
                _ => None,
            };
            stack.push((id, n));
            opened.push(s);
            continue;
        }
        let site = match kind {
            StmtKind::Submit(sub) => Some((false, f.list(f.submits[*sub].deps).to_vec())),
            _ => barrier_deps(f, s).map(|d| (true, d.to_vec())),
        };
        if let Some((barrier, deps)) = site {
            st.sites.push(Site {
                stmt: s,
                barrier,
                deps,
                cluster: parent,
                instances: outer,
            });
        }
    }
    st
}

/// `a_tid = submit kernel` / `b = system.task_dummy`.
fn site_title(m: &Module, f: &Function, site: &Site) -> String {
    let kind = &f.stmts[site.stmt].kind;
    match kind {
        StmtKind::Submit(sub) => {
            let sub = &f.submits[*sub];
            let tid = f.list(sub.results).last().map_or("_", |v| f.var_name(*v));
            format!("{tid} = submit {}", f.callee_name(m, sub.callee))
        }
        _ => match f.results(kind).first() {
            Some(v) => format!("{} = {}", f.var_name(*v), BuiltinOp::TaskDummy.name()),
            None => BuiltinOp::TaskDummy.name().to_string(),
        },
    }
}

fn count_line(n: Option<u64>, one: &str, many: &str) -> String {
    match n {
        Some(1) => format!("1 {one}"),
        Some(n) => format!("{n} {many}"),
        None => format!("? {many} (unknown trip count)"),
    }
}

/// The key of an outside node: the variable a `deps` entry names, or the
/// entry itself when it is not a plain variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum SourceKey {
    Var(String),
    Entry(StmtId, usize),
}

fn source_key(f: &Function, site: &Site, k: usize) -> SourceKey {
    match &f.exprs[site.deps[k]].kind {
        ExprKind::Var(v) => SourceKey::Var(f.var_name(*v).to_string()),
        _ => SourceKey::Entry(site.stmt, k),
    }
}

fn outside_label(m: &Module, f: &Function, e: ExprId, evaluated: bool) -> Vec<String> {
    let name = clip(&print_expr(m, f, e));
    let ty = f.ty(e);
    let what = if !evaluated {
        "not evaluated (past a budget)".to_string()
    } else if ty.is_task_id_array() {
        match ty.array_extent() {
            Some(n) => format!("{n} slots not filled by {}", f.name),
            None => format!("slots not filled by {}", f.name),
        }
    } else {
        format!("no task of {}", f.name)
    };
    vec![name, what]
}

/// The static view of `f` (see the module documentation).
pub fn static_view(m: &Module, f: &Function, side: Side, limits: &Limits) -> SideGraph {
    static_view_within(m, f, side, limits, &RunBudget::new(u64::MAX))
}

/// [`static_view`], its evaluation within what is left of the run's
/// budget `run` (and spending from it).
pub fn static_view_within(
    m: &Module,
    f: &Function,
    side: Side,
    limits: &Limits,
    run: &RunBudget,
) -> SideGraph {
    let g = function_task_graph(m, f, &run.limits(limits));
    run.spend(&g);
    static_view_of(m, f, side, &g)
}

/// The static view of `f`, from its already evaluated task graph.
pub fn static_view_of(m: &Module, f: &Function, side: Side, g: &TaskGraph) -> SideGraph {
    let st = structure(m, f);
    let (site_node, site_nodes) = site_nodes(m, f, &st);
    let found = static_edges(m, f, g, &st, &site_node);
    let (nodes, edges) = place(found.outside, found.joins, site_nodes, &found.edges);
    let mut notes = Vec::new();
    if g.truncated {
        notes.push(
            "the task-graph evaluation stopped at a budget: sources of later deps are not shown"
                .to_string(),
        );
    }
    let total = found.total;
    SideGraph {
        side,
        prefix: format!("{}_", side.name()),
        title: format!("{}: {total} runtime edges", side.name()),
        total_edges: total,
        clusters: st.clusters,
        nodes,
        edges,
        notes,
    }
}

/// The static id of each site, by kind in pre-order: `t0`, `t1`, ... for
/// `submit`s and `b0`, `b1`, ... for barriers.
fn site_ids(st: &Structure) -> Vec<String> {
    let (mut tasks, mut barriers) = (0usize, 0usize);
    st.sites
        .iter()
        .map(|site| {
            if site.barrier {
                barriers += 1;
                format!("b{}", barriers - 1)
            } else {
                tasks += 1;
                format!("t{}", tasks - 1)
            }
        })
        .collect()
}

/// The static view's site nodes, in pre-order, and the node of each site's
/// statement.
fn site_nodes(m: &Module, f: &Function, st: &Structure) -> (HashMap<StmtId, usize>, Vec<Node>) {
    let mut site_node: HashMap<StmtId, usize> = HashMap::new();
    let mut site_nodes: Vec<Node> = Vec::new();
    for (site, id) in st.sites.iter().zip(site_ids(st)) {
        let count = if site.barrier {
            count_line(site.instances, "barrier", "barriers")
        } else {
            count_line(site.instances, "task", "tasks")
        };
        site_node.insert(site.stmt, site_nodes.len());
        site_nodes.push(Node {
            id,
            label: vec![clip(&site_title(m, f, site)), count],
            kind: if site.barrier {
                NodeKind::Barrier
            } else {
                NodeKind::Task
            },
            cluster: site.cluster,
            highlight: false,
        });
    }
    (site_node, site_nodes)
}

/// An end of an edge of the static view, before the nodes are placed.
enum From {
    Site(usize),
    Outside(usize),
    Join(usize),
}

/// The static view's edges, with the outside and join nodes created on
/// the way.
struct StaticEdges {
    outside: Vec<Node>,
    /// Each join node and the site it feeds first.
    joins: Vec<(Node, usize)>,
    edges: Vec<(From, From, u64, EdgeStyle)>,
    /// The runtime edges of every `deps` entry (capped).
    total: u64,
}

/// One edge per `deps` entry of every site, from the one statement that
/// fills it, or from an outside node or a join node of its sources.
fn static_edges(
    m: &Module,
    f: &Function,
    g: &TaskGraph,
    st: &Structure,
    site_node: &HashMap<StmtId, usize>,
) -> StaticEdges {
    let weights: HashMap<(StmtId, usize), u64> = static_dep_weights(f)
        .into_iter()
        .map(|w| ((w.stmt, w.entry), w.edges))
        .collect();
    let cap = crate::passes::phase_fence::CAP;
    let mut outside: Vec<Node> = Vec::new();
    let mut outside_of: BTreeMap<SourceKey, usize> = BTreeMap::new();
    let mut joins: Vec<(Node, usize)> = Vec::new(); // (node, site it precedes)
    let mut join_of: BTreeMap<(SourceKey, Vec<usize>, bool), usize> = BTreeMap::new();
    let mut raw_edges: Vec<(From, From, u64, EdgeStyle)> = Vec::new();
    let mut total = 0u64;
    for (si, site) in st.sites.iter().enumerate() {
        for k in 0..site.deps.len() {
            let w = weights.get(&(site.stmt, k)).copied().unwrap_or(0);
            total = total.saturating_add(w).min(cap);
            let sources = g.entry_sources(site.stmt, k);
            let mut from_sites: Vec<usize> = Vec::new();
            let mut needs_outside = sources.as_ref().is_none_or(|s| s.outside);
            if let Some(s) = &sources {
                for stmt in &s.stmts {
                    match site_node.get(stmt) {
                        Some(&n) => from_sites.push(n),
                        None => needs_outside = true,
                    }
                }
            }
            from_sites.sort_unstable();
            from_sites.dedup();
            let key = source_key(f, site, k);
            let mut outside_node = || {
                let next = outside.len();
                *outside_of.entry(key.clone()).or_insert_with(|| {
                    outside.push(Node {
                        id: format!("x{next}"),
                        label: outside_label(m, f, site.deps[k], sources.is_some()),
                        kind: NodeKind::Outside,
                        cluster: None,
                        highlight: false,
                    });
                    next
                })
            };
            let to = From::Site(si);
            match (from_sites.as_slice(), needs_outside) {
                ([one], false) => raw_edges.push((From::Site(*one), to, w, EdgeStyle::Normal)),
                ([], _) => {
                    let o = outside_node();
                    raw_edges.push((From::Outside(o), to, w, EdgeStyle::Normal));
                }
                _ => {
                    let jkey = (key.clone(), from_sites.clone(), needs_outside);
                    let j = match join_of.get(&jkey) {
                        Some(&j) => j,
                        None => {
                            let j = joins.len();
                            join_of.insert(jkey, j);
                            joins.push((
                                Node {
                                    id: format!("j{j}"),
                                    label: vec![clip(&print_expr(m, f, site.deps[k]))],
                                    kind: NodeKind::Join,
                                    cluster: site.cluster,
                                    highlight: false,
                                },
                                si,
                            ));
                            for &s in &from_sites {
                                raw_edges.push((From::Site(s), From::Join(j), 0, EdgeStyle::Feed));
                            }
                            if needs_outside {
                                let o = outside_node();
                                raw_edges.push((
                                    From::Outside(o),
                                    From::Join(j),
                                    0,
                                    EdgeStyle::Feed,
                                ));
                            }
                            j
                        }
                    };
                    raw_edges.push((From::Join(j), to, w, EdgeStyle::Normal));
                }
            }
        }
    }
    StaticEdges {
        outside,
        joins,
        edges: raw_edges,
        total,
    }
}

/// The final order of the static view's nodes: outside nodes first, then
/// the sites, each with the join nodes it feeds first right before it; and
/// the edges between their places.
fn place(
    outside: Vec<Node>,
    joins: Vec<(Node, usize)>,
    site_nodes: Vec<Node>,
    raw_edges: &[(From, From, u64, EdgeStyle)],
) -> (Vec<Node>, Vec<Edge>) {
    let mut nodes: Vec<Node> = Vec::new();
    let outside_base = 0usize;
    nodes.extend(outside);
    let mut join_index = vec![0usize; joins.len()];
    let mut site_index = vec![0usize; site_nodes.len()];
    let mut joins_before: Vec<Vec<usize>> = vec![Vec::new(); site_nodes.len()];
    for (j, (_, si)) in joins.iter().enumerate() {
        joins_before[*si].push(j);
    }
    let mut join_nodes: Vec<Option<Node>> = joins.into_iter().map(|(n, _)| Some(n)).collect();
    for (si, node) in site_nodes.into_iter().enumerate() {
        for &j in &joins_before[si] {
            join_index[j] = nodes.len();
            nodes.push(join_nodes[j].take().expect("each join placed once"));
        }
        site_index[si] = nodes.len();
        nodes.push(node);
    }
    let at = |x: &From| match *x {
        From::Site(i) => site_index[i],
        From::Outside(i) => outside_base + i,
        From::Join(i) => join_index[i],
    };
    let edges = raw_edges
        .iter()
        .map(|(a, b, w, style)| Edge {
            from: at(a),
            to: at(b),
            weight: *w,
            label: (*style != EdgeStyle::Feed).then(|| w.to_string()),
            style: *style,
        })
        .collect();
    (nodes, edges)
}

/// Work allowed for counting the runtime edges of an expanded graph (set
/// insertions while seeing through join nodes); past it the title gives a
/// lower bound.
const COUNT_BUDGET: u64 = 4_000_000;

/// The runtime nodes (tasks and barriers) `preds` stand for, join nodes of
/// the evaluator seen through. `memo` holds each join node's set once made.
fn runtime_preds(
    g: &TaskGraph,
    preds: &std::collections::BTreeSet<usize>,
    memo: &mut HashMap<usize, std::rc::Rc<std::collections::BTreeSet<usize>>>,
    work: &mut u64,
) -> std::rc::Rc<std::collections::BTreeSet<usize>> {
    // A single join: its set as it is.
    if preds.len() == 1 {
        let p = *preds.first().expect("one element");
        if g.nodes[p].key.kind == TaskKind::Join {
            return join_set(g, p, memo, work);
        }
    }
    let mut out = std::collections::BTreeSet::new();
    for &p in preds {
        if g.nodes[p].key.kind == TaskKind::Join {
            let s = join_set(g, p, memo, work);
            *work += s.len() as u64;
            out.extend(s.iter().copied());
        } else {
            *work += 1;
            out.insert(p);
        }
    }
    std::rc::Rc::new(out)
}

fn join_set(
    g: &TaskGraph,
    j: usize,
    memo: &mut HashMap<usize, std::rc::Rc<std::collections::BTreeSet<usize>>>,
    work: &mut u64,
) -> std::rc::Rc<std::collections::BTreeSet<usize>> {
    if let Some(s) = memo.get(&j) {
        return s.clone();
    }
    // Join nodes only wait for earlier nodes: resolve their joins first,
    // without recursion, in creation order.
    let mut pending = vec![j];
    let mut order = Vec::new();
    let mut queued = std::collections::HashSet::new();
    while let Some(x) = pending.pop() {
        if memo.contains_key(&x) || !queued.insert(x) {
            continue;
        }
        order.push(x);
        for &p in &g.nodes[x].preds {
            if g.nodes[p].key.kind == TaskKind::Join && !memo.contains_key(&p) {
                pending.push(p);
            }
        }
    }
    order.sort_unstable();
    for x in order {
        if *work > COUNT_BUDGET {
            memo.insert(x, std::rc::Rc::new(std::collections::BTreeSet::new()));
            continue;
        }
        let mut out = std::collections::BTreeSet::new();
        for &p in &g.nodes[x].preds {
            if g.nodes[p].key.kind == TaskKind::Join {
                let s = memo.get(&p).cloned().unwrap_or_default();
                *work += s.len() as u64;
                out.extend(s.iter().copied());
            } else {
                *work += 1;
                out.insert(p);
            }
        }
        memo.insert(x, std::rc::Rc::new(out));
    }
    memo.get(&j).cloned().unwrap_or_default()
}

/// The expanded view of `f`: task instances, at most `max_nodes` of them.
pub fn expanded_view(
    m: &Module,
    f: &Function,
    side: Side,
    limits: &Limits,
    max_nodes: usize,
    run: &RunBudget,
) -> SideGraph {
    let g = function_task_graph(m, f, &run.limits(limits));
    run.spend(&g);
    let st = structure(m, f);
    // The evaluator's join nodes are not runtime nodes: they are seen through.
    let runtime: Vec<usize> = (0..g.nodes.len())
        .filter(|&i| g.nodes[i].key.kind != TaskKind::Join)
        .collect();
    let shown = runtime.len().min(max_nodes);
    let (index_of, nodes) = instance_nodes(m, f, &st, &g, &runtime[..shown]);
    let drawn = instance_edges(&g, &runtime, shown, &index_of);
    let (total, hidden_edges) = (drawn.total, drawn.hidden);
    let counted = drawn.work <= COUNT_BUDGET;
    let mut notes = Vec::new();
    if shown < runtime.len() {
        notes.push(format!(
            "{} more instances and {}{hidden_edges} runtime edges not drawn (node budget {max_nodes})",
            runtime.len() - shown,
            if counted { "" } else { "at least " }
        ));
    }
    if !counted {
        notes.push("counting the runtime edges stopped at a budget".to_string());
    }
    if g.truncated {
        notes.push("the expansion stopped at a budget of the task-graph evaluator".to_string());
    }
    if !g.approximations.is_empty() {
        notes.push(
            "some loops or conditions could not be unrolled: their instances are joined"
                .to_string(),
        );
    }
    SideGraph {
        side,
        prefix: format!("{}_", side.name()),
        title: format!(
            "{}: {}{total} runtime edges (expanded)",
            side.name(),
            if counted { "" } else { "at least " }
        ),
        total_edges: total,
        clusters: st.clusters,
        nodes,
        edges: drawn.edges,
        notes,
    }
}

/// One node per runtime node of `g` in `shown`: its site's static id with
/// the iteration vector (`t0_1_2`), its site's title and cluster; and the
/// node of each shown runtime node.
fn instance_nodes(
    m: &Module,
    f: &Function,
    st: &Structure,
    g: &TaskGraph,
    shown: &[usize],
) -> (HashMap<usize, usize>, Vec<Node>) {
    // Static ids of sites, as in the static view.
    let mut ids: HashMap<StmtId, String> = HashMap::new();
    let mut clusters_of: HashMap<StmtId, Option<usize>> = HashMap::new();
    let mut titles: HashMap<StmtId, String> = HashMap::new();
    for (site, id) in st.sites.iter().zip(site_ids(st)) {
        ids.insert(site.stmt, id);
        clusters_of.insert(site.stmt, site.cluster);
        titles.insert(site.stmt, clip(&site_title(m, f, site)));
    }
    let mut index_of: HashMap<usize, usize> = HashMap::new();
    let mut nodes = Vec::with_capacity(shown.len());
    for &gi in shown {
        let n = &g.nodes[gi];
        let its: Vec<String> = n.key.iterations.iter().map(u32::to_string).collect();
        let base = ids
            .get(&n.stmt)
            .cloned()
            .unwrap_or_else(|| format!("n{}", n.key.ordinal));
        let mut id = base;
        for i in &its {
            id.push('_');
            id.push_str(i);
        }
        let title = titles
            .get(&n.stmt)
            .cloned()
            .unwrap_or_else(|| BuiltinOp::TaskDummy.name().to_string());
        let mut label = vec![title];
        if !its.is_empty() {
            label.push(format!("iteration [{}]", its.join(", ")));
        }
        index_of.insert(gi, nodes.len());
        nodes.push(Node {
            id,
            label,
            kind: match n.key.kind {
                TaskKind::Barrier => NodeKind::Barrier,
                _ => NodeKind::Task,
            },
            cluster: clusters_of.get(&n.stmt).copied().flatten(),
            highlight: false,
        });
    }
    (index_of, nodes)
}

/// The expanded view's edges and counts.
struct InstanceEdges {
    /// The edges between shown nodes.
    edges: Vec<Edge>,
    /// Every runtime edge counted.
    total: u64,
    /// The runtime edges into nodes not shown.
    hidden: u64,
    /// The work spent counting (past `COUNT_BUDGET`, counting stopped).
    work: u64,
}

/// The runtime edges into each of `runtime` (the first `shown` of them
/// drawn), join nodes seen through, until the count's budget runs out.
fn instance_edges(
    g: &TaskGraph,
    runtime: &[usize],
    shown: usize,
    index_of: &HashMap<usize, usize>,
) -> InstanceEdges {
    let mut edges = Vec::new();
    let mut total = 0u64;
    let mut hidden_edges = 0u64;
    let mut memo = HashMap::new();
    let mut work = 0u64;
    for (k, &gi) in runtime.iter().enumerate() {
        if work > COUNT_BUDGET {
            break;
        }
        let preds = runtime_preds(g, &g.nodes[gi].preds, &mut memo, &mut work);
        total += preds.len() as u64;
        if k < shown {
            for p in preds.iter() {
                if let Some(&from) = index_of.get(p) {
                    edges.push(Edge {
                        from,
                        to: k,
                        weight: 1,
                        label: None,
                        style: EdgeStyle::Normal,
                    });
                }
            }
        } else {
            hidden_edges += preds.len() as u64;
        }
    }
    InstanceEdges {
        edges,
        total,
        hidden: hidden_edges,
        work,
    }
}

/// What the pipeline changed, to highlight: the `deps` of every `submit`
/// (by pre-order position) and the barrier names of a side.
pub struct Signature {
    submit_deps: Vec<Vec<String>>,
    barriers: Vec<String>,
}

pub fn signature(m: &Module, f: &Function) -> Signature {
    let st = structure(m, f);
    let mut sig = Signature {
        submit_deps: Vec::new(),
        barriers: Vec::new(),
    };
    for site in &st.sites {
        if site.barrier {
            sig.barriers.push(site_title(m, f, site));
        } else {
            sig.submit_deps
                .push(site.deps.iter().map(|&d| print_expr(m, f, d)).collect());
        }
    }
    sig
}

/// Marks, on both sides, what the pipeline changed: barriers present after
/// only (and the edges around them), edges into `submit`s whose `deps`
/// changed (replaced before, added after).
pub fn highlight(before: &mut SideGraph, b: &Signature, after: &mut SideGraph, a: &Signature) {
    let changed: Vec<bool> = (0..a.submit_deps.len().max(b.submit_deps.len()))
        .map(|i| a.submit_deps.get(i) != b.submit_deps.get(i))
        .collect();
    let is_changed_submit = |id: &str| -> bool {
        let base = id.split('_').next().unwrap_or(id);
        base.strip_prefix('t')
            .and_then(|n| n.parse::<usize>().ok())
            .is_some_and(|n| changed.get(n).copied().unwrap_or(false))
    };
    let old_barriers: std::collections::HashSet<&str> =
        b.barriers.iter().map(String::as_str).collect();
    for n in &mut after.nodes {
        if n.kind == NodeKind::Barrier && !old_barriers.contains(n.label[0].as_str()) {
            n.highlight = true;
        }
    }
    for (g, style) in [(before, EdgeStyle::Replaced), (after, EdgeStyle::Added)] {
        // Edges into a rewritten `submit`, and every edge of an inserted
        // barrier (feeds into join nodes keep their style).
        let into: Vec<bool> = g
            .nodes
            .iter()
            .map(|n| n.highlight || (n.kind == NodeKind::Task && is_changed_submit(&n.id)))
            .collect();
        for e in &mut g.edges {
            let inserted_from = g.nodes[e.from].highlight;
            if e.style != EdgeStyle::Feed && (into[e.to] || inserted_from) {
                e.style = style;
            }
        }
    }
}
