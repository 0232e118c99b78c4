//! `pfir graph`: a picture of the task graph of orchestration functions,
//! before and after a pass pipeline.
//!
//! - [`model`]: the picture's graph (nodes per `submit` and barrier,
//!   clusters per loop and scope, edges weighted with the runtime edges
//!   they stand for), built from the IR and the evaluator of
//!   `src/analysis/` (one task-graph model: the one `--verify-deps` uses);
//!   the expanded view (task instances); what the pipeline changed.
//! - [`summary`]: cluster-depth and node budgets (large inputs are
//!   summarised, not drawn unreadably).
//! - [`dot`]: the Graphviz DOT writer (stable ids and order).
//! - [`svg`]: an in-process layout and SVG renderer (no Graphviz needed).
//! - [`html`]: one self-contained page: the SVG and the pass's decisions.
//!
//! The command line is `src/cli/graph.rs`; the picture is described in
//! `docs/graph.md`.

pub mod dot;
pub mod html;
pub mod model;
pub mod summary;
pub mod svg;

use crate::analysis::Limits;
use crate::ir::{FuncKind, Module};
use model::{Side, SideGraph};

/// Which sides to draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Show {
    Before,
    After,
    Both,
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct Options {
    pub show: Show,
    /// Task instances instead of statements.
    pub expand: bool,
    /// Node budget per side.
    pub max_nodes: usize,
    /// Only this function (any kind); otherwise every orchestration function.
    pub function: Option<String>,
}

/// Node budget per side unless `--max-nodes` says otherwise.
pub const DEFAULT_MAX_NODES: usize = 150;

/// The graphs of one function: one per side drawn.
#[derive(Clone, Debug)]
pub struct FunctionPicture {
    pub name: String,
    pub sides: Vec<SideGraph>,
}

/// Everything drawn for one input.
#[derive(Clone, Debug)]
pub struct Picture {
    /// The input's name and the pipeline, e.g.
    /// `examples/first.pfir --passes=expand-manual-phase-fence`.
    pub title: String,
    pub functions: Vec<FunctionPicture>,
}

/// The functions drawn: `--function NAME`, or every orchestration function.
/// `Err` names a function that does not exist.
pub fn selected_functions(module: &Module, opts: &Options) -> Result<Vec<String>, String> {
    match &opts.function {
        Some(name) => match module.function(name) {
            Some(_) => Ok(vec![name.clone()]),
            None => Err(name.clone()),
        },
        None => Ok(module
            .functions()
            .iter()
            .filter(|f| f.kind == FuncKind::Orchestration)
            .map(|f| f.name.clone())
            .collect()),
    }
}

/// Builds the picture of `before` (as read) and `after` (after the
/// pipeline; `None` when no pass ran, then "after" equals "before").
pub fn build(title: String, before: &Module, after: Option<&Module>, opts: &Options) -> Picture {
    // One work budget for every function and side of the picture.
    build_within(
        title,
        before,
        after,
        opts,
        &crate::analysis::RunBudget::default(),
    )
}

/// [`build`] with every evaluation of the task graph within the run
/// budget `run`.
pub fn build_within(
    title: String,
    before: &Module,
    after: Option<&Module>,
    opts: &Options,
    run: &crate::analysis::RunBudget,
) -> Picture {
    let limits = Limits::default();
    let after = after.unwrap_or(before);
    let names = selected_functions(before, opts).unwrap_or_default();
    let sides: &[Side] = match opts.show {
        Show::Before => &[Side::Before],
        Show::After => &[Side::After],
        Show::Both => &[Side::Before, Side::After],
    };
    let mut functions = Vec::new();
    for name in names {
        let mut graphs = Vec::new();
        for &side in sides {
            let module = if side == Side::Before { before } else { after };
            let Some(f) = module.function(&name) else {
                continue;
            };
            let mut g = if opts.expand {
                model::expanded_view(module, f, side, &limits, opts.max_nodes, run)
            } else {
                model::static_view_within(module, f, side, &limits, run)
            };
            summary::limit_cluster_depth(&mut g);
            graphs.push(g);
        }
        if let ([b, a], Some(fb), Some(fa)) = (
            graphs.as_mut_slice(),
            before.function(&name),
            after.function(&name),
        ) {
            let (sb, sa) = (model::signature(before, fb), model::signature(after, fa));
            model::highlight(b, &sb, a, &sa);
            let delta = i128::from(a.total_edges) - i128::from(b.total_edges);
            a.title = format!("{} ({delta:+})", a.title);
        }
        if !opts.expand {
            summary::summarise(&mut graphs, opts.max_nodes);
        }
        functions.push(FunctionPicture {
            name,
            sides: graphs,
        });
    }
    Picture { title, functions }
}

/// A step of walking a side's nodes in order with their cluster nesting.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Nesting {
    Open(usize),
    Node(usize),
    Close(usize),
}

/// The nodes of `g` in order, with the clusters around them opened and
/// closed as they change (a cluster whose nodes are not contiguous is
/// opened more than once). Linear in nodes plus clusters opened.
pub fn nesting(g: &SideGraph) -> Vec<Nesting> {
    let mut out = Vec::new();
    let mut open = vec![false; g.clusters.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, n) in g.nodes.iter().enumerate() {
        let mut path = Vec::new();
        let mut x = n.cluster;
        while let Some(c) = x {
            if open[c] {
                break;
            }
            path.push(c);
            x = g.clusters[c].parent;
        }
        while stack.last().copied() != x {
            let Some(c) = stack.pop() else { break };
            open[c] = false;
            out.push(Nesting::Close(c));
        }
        for &c in path.iter().rev() {
            open[c] = true;
            stack.push(c);
            out.push(Nesting::Open(c));
        }
        out.push(Nesting::Node(i));
    }
    while let Some(c) = stack.pop() {
        out.push(Nesting::Close(c));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::model::{Cluster, ClusterKind, Node, NodeKind};
    use super::*;

    fn cluster(id: usize, parent: Option<usize>) -> Cluster {
        Cluster {
            id: format!("L{id}"),
            label: format!("loop {id}"),
            kind: ClusterKind::Loop,
            parent,
        }
    }

    fn node(id: &str, cluster: Option<usize>) -> Node {
        Node {
            id: id.into(),
            label: vec![id.into()],
            kind: NodeKind::Task,
            cluster,
            highlight: false,
        }
    }

    pub fn side(clusters: Vec<Cluster>, nodes: Vec<Node>) -> SideGraph {
        SideGraph {
            side: Side::Before,
            prefix: "before_".into(),
            title: "t".into(),
            total_edges: 0,
            clusters,
            nodes,
            edges: Vec::new(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn nesting_opens_and_closes_clusters_around_their_nodes() {
        // L0 { L1 { a } b } c, then L1 again (not contiguous): reopened.
        let g = side(
            vec![cluster(0, None), cluster(1, Some(0))],
            vec![
                node("a", Some(1)),
                node("b", Some(0)),
                node("c", None),
                node("d", Some(1)),
            ],
        );
        use Nesting::*;
        assert_eq!(
            nesting(&g),
            [
                Open(0),
                Open(1),
                Node(0),
                Close(1),
                Node(1),
                Close(0),
                Node(2),
                Open(0),
                Open(1),
                Node(3),
                Close(1),
                Close(0)
            ]
        );
    }
}
