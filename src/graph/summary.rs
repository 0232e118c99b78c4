//! Keeping a picture readable: cluster depth and node budgets.
//!
//! - [`limit_cluster_depth`]: clusters nested deeper than
//!   [`MAX_CLUSTER_DEPTH`] are not drawn (their nodes go to the deepest
//!   drawn ancestor), so 10,000 nested loops do not become 10,000 nested
//!   boxes.
//! - [`summarise`]: a static graph with more nodes than the budget has its
//!   clusters collapsed, deepest first, to one node each (with what they
//!   hold and the runtime edges inside); when collapsing every cluster is
//!   not enough, the nodes past the budget are left out and a note says so.
//!
//! Everything here is linear in the size of the graph.

use super::model::{Cluster, Edge, EdgeStyle, Node, NodeKind, SideGraph};
use std::collections::HashMap;

/// Clusters nested deeper than this are not drawn.
pub const MAX_CLUSTER_DEPTH: usize = 24;

/// Depth of every cluster (top level 0); parents come before children.
fn depths(clusters: &[Cluster]) -> Vec<usize> {
    let mut d = vec![0usize; clusters.len()];
    for i in 0..clusters.len() {
        if let Some(p) = clusters[i].parent {
            d[i] = d[p] + 1;
        }
    }
    d
}

/// Keeps clusters of depth `< keep` (re-indexed); every node moves to its
/// deepest kept ancestor. `anc[c]` is what `c` maps to.
fn keep_clusters(g: &mut SideGraph, keep: usize) -> Vec<Option<usize>> {
    let depth = depths(&g.clusters);
    let mut new_index = vec![None; g.clusters.len()];
    let mut anc: Vec<Option<usize>> = vec![None; g.clusters.len()];
    let mut kept: Vec<Cluster> = Vec::new();
    for i in 0..g.clusters.len() {
        if depth[i] < keep {
            let mut c = g.clusters[i].clone();
            c.parent = c.parent.and_then(|p| new_index[p]);
            new_index[i] = Some(kept.len());
            anc[i] = Some(kept.len());
            kept.push(c);
        } else {
            anc[i] = g.clusters[i].parent.and_then(|p| anc[p]);
        }
    }
    for n in &mut g.nodes {
        n.cluster = n.cluster.and_then(|c| anc[c]);
    }
    g.clusters = kept;
    anc
}

/// See the module documentation.
pub fn limit_cluster_depth(g: &mut SideGraph) {
    if depths(&g.clusters).iter().any(|&d| d >= MAX_CLUSTER_DEPTH) {
        keep_clusters(g, MAX_CLUSTER_DEPTH);
    }
}

/// The depth at which `g`'s clusters must collapse to fit `max_nodes`
/// (the deepest that fits; 0 when none does), or `None` when it fits.
pub fn collapse_depth(g: &SideGraph, max_nodes: usize) -> Option<usize> {
    if g.nodes.len() <= max_nodes {
        return None;
    }
    let depth = depths(&g.clusters);
    let levels = depth.iter().max().map_or(0, |d| d + 1);
    // Collapsing at depth d: nodes outside every cluster of depth >= d stay,
    // each non-empty cluster of depth d becomes one node.
    let mut node_depth_hist = vec![0usize; levels + 1]; // by innermost cluster depth + 1
    let mut nonempty = vec![false; g.clusters.len()];
    for n in &g.nodes {
        match n.cluster {
            Some(c) => {
                node_depth_hist[depth[c] + 1] += 1;
                nonempty[c] = true;
            }
            None => node_depth_hist[0] += 1,
        }
    }
    for i in (0..g.clusters.len()).rev() {
        if nonempty[i]
            && let Some(p) = g.clusters[i].parent
        {
            nonempty[p] = true;
        }
    }
    let mut clusters_at = vec![0usize; levels];
    for (i, &d) in depth.iter().enumerate() {
        if nonempty[i] {
            clusters_at[d] += 1;
        }
    }
    // count(d) = nodes whose innermost depth + 1 <= d, plus clusters at depth d.
    let mut chosen = 0usize;
    let mut below = 0usize;
    for d in 0..levels {
        below += node_depth_hist[d];
        if below + clusters_at[d] <= max_nodes {
            chosen = d;
        }
    }
    Some(chosen)
}

/// Summarises the sides of one function together (see the module
/// documentation): when one side is over `max_nodes`, every side collapses
/// at the same depth, so that the two pictures stay comparable; a side
/// still over the budget is then cut. Returns whether anything changed.
pub fn summarise(sides: &mut [SideGraph], max_nodes: usize) -> bool {
    let Some(d) = sides
        .iter()
        .filter_map(|g| collapse_depth(g, max_nodes))
        .min()
    else {
        return false;
    };
    for g in sides.iter_mut() {
        let depth = depths(&g.clusters);
        if depth.iter().any(|&x| x >= d) {
            collapse_at(g, d, &depth);
        }
        if g.nodes.len() > max_nodes {
            truncate(g, max_nodes);
        }
    }
    true
}

/// Collapses every cluster of depth `d` into one node.
fn collapse_at(g: &mut SideGraph, d: usize, depth: &[usize]) {
    let old_clusters = g.clusters.clone();
    // The depth-d ancestor of every cluster, if any.
    let mut top: Vec<Option<usize>> = vec![None; old_clusters.len()];
    for i in 0..old_clusters.len() {
        top[i] = if depth[i] == d {
            Some(i)
        } else if depth[i] > d {
            old_clusters[i].parent.and_then(|p| top[p])
        } else {
            None
        };
    }
    // Contents of each collapsed cluster.
    let mut tasks: HashMap<usize, (u64, u64)> = HashMap::new();
    for n in &g.nodes {
        if let Some(t) = n.cluster.and_then(|c| top[c]) {
            let e = tasks.entry(t).or_default();
            match n.kind {
                NodeKind::Task => e.0 += 1,
                NodeKind::Barrier => e.1 += 1,
                _ => {}
            }
        }
    }
    // New nodes, in order of first appearance.
    let mut new_nodes: Vec<Node> = Vec::new();
    let mut map = vec![0usize; g.nodes.len()];
    let mut summary_of: HashMap<usize, usize> = HashMap::new();
    for (i, n) in g.nodes.iter().enumerate() {
        match n.cluster.and_then(|c| top[c]) {
            Some(t) => {
                let idx = *summary_of.entry(t).or_insert_with(|| {
                    let (ts, bs) = tasks.get(&t).copied().unwrap_or_default();
                    let c = &old_clusters[t];
                    new_nodes.push(Node {
                        id: c.id.clone(),
                        label: vec![
                            c.label.clone(),
                            format!(
                                "collapsed: {}, {}",
                                plural(ts, "submit", "submits"),
                                plural(bs, "barrier", "barriers")
                            ),
                        ],
                        kind: NodeKind::Summary,
                        cluster: c.parent,
                        highlight: false,
                    });
                    new_nodes.len() - 1
                });
                if n.highlight {
                    new_nodes[idx].highlight = true;
                }
                map[i] = idx;
            }
            None => {
                map[i] = new_nodes.len();
                new_nodes.push(n.clone());
            }
        }
    }
    // Edges: remapped, merged, those inside a collapsed node counted there.
    let mut inside: HashMap<usize, u64> = HashMap::new();
    let mut merged: Vec<Edge> = Vec::new();
    let mut at: HashMap<(usize, usize, bool), usize> = HashMap::new();
    for e in &g.edges {
        let (a, b) = (map[e.from], map[e.to]);
        let feed = e.style == EdgeStyle::Feed;
        if a == b {
            *inside.entry(a).or_default() += e.weight;
            continue;
        }
        match at.get(&(a, b, feed)) {
            Some(&k) => {
                let m = &mut merged[k];
                m.weight = m.weight.saturating_add(e.weight);
                if m.style == EdgeStyle::Normal {
                    m.style = e.style;
                }
                if !feed {
                    m.label = Some(m.weight.to_string());
                }
            }
            None => {
                at.insert((a, b, feed), merged.len());
                merged.push(Edge {
                    from: a,
                    to: b,
                    ..e.clone()
                });
            }
        }
    }
    for (k, w) in inside {
        if new_nodes[k].kind == NodeKind::Summary {
            new_nodes[k].label.push(format!(
                "{} inside",
                plural(w, "runtime edge", "runtime edges")
            ));
        }
    }
    g.nodes = new_nodes;
    g.edges = merged;
    keep_clusters(g, d);
    g.notes.push(format!(
        "summarised: clusters nested {d} deep collapsed to one node each"
    ));
}

/// Keeps the first `max_nodes` nodes.
fn truncate(g: &mut SideGraph, max_nodes: usize) {
    let dropped = g.nodes.len() - max_nodes;
    g.nodes.truncate(max_nodes);
    let before = g.edges.len();
    g.edges.retain(|e| e.from < max_nodes && e.to < max_nodes);
    g.notes.push(format!(
        "{} and {} not drawn (node budget {max_nodes})",
        plural(dropped as u64, "more node", "more nodes"),
        plural((before - g.edges.len()) as u64, "edge", "edges")
    ));
}

/// `1 edge`, `2 edges`.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::model::{ClusterKind, Side};

    fn graph(clusters: &[Option<usize>], nodes: &[Option<usize>]) -> SideGraph {
        SideGraph {
            side: Side::Before,
            prefix: String::new(),
            title: String::new(),
            total_edges: 0,
            clusters: clusters
                .iter()
                .enumerate()
                .map(|(i, &parent)| Cluster {
                    id: format!("L{i}"),
                    label: format!("loop {i}"),
                    kind: ClusterKind::Loop,
                    parent,
                })
                .collect(),
            nodes: nodes
                .iter()
                .enumerate()
                .map(|(i, &cluster)| Node {
                    id: format!("t{i}"),
                    label: vec![format!("t{i}")],
                    kind: NodeKind::Task,
                    cluster,
                    highlight: false,
                })
                .collect(),
            edges: (1..nodes.len())
                .map(|i| Edge {
                    from: i - 1,
                    to: i,
                    weight: 2,
                    label: Some("2".into()),
                    style: EdgeStyle::Normal,
                })
                .collect(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn collapses_at_the_deepest_level_that_fits_and_keeps_the_total() {
        // L0 { L1 { t0 t1 } L2 { t2 t3 } } t4
        let mut g = graph(
            &[None, Some(0), Some(0)],
            &[Some(1), Some(1), Some(2), Some(2), None],
        );
        assert_eq!(collapse_depth(&g, 5), None);
        assert_eq!(collapse_depth(&g, 3), Some(1));
        assert_eq!(collapse_depth(&g, 2), Some(0));
        assert!(summarise(std::slice::from_mut(&mut g), 3));
        let ids: Vec<&str> = g.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["L1", "L2", "t4"]);
        assert_eq!(g.clusters.len(), 1);
        assert!(g.nodes[..2].iter().all(|n| n.cluster == Some(0)));
        // 2 inside each collapsed loop, 2 + 2 between: 8 as before.
        let between: u64 = g.edges.iter().map(|e| e.weight).sum();
        assert_eq!(between, 4);
        assert!(g.nodes[0].label.contains(&"2 runtime edges inside".into()));
        assert!(g.nodes[1].label.contains(&"2 runtime edges inside".into()));
    }

    #[test]
    fn cuts_when_even_the_top_level_is_too_big() {
        let mut g = graph(&[], &[None, None, None, None]);
        assert!(summarise(std::slice::from_mut(&mut g), 2));
        assert_eq!(g.nodes.len(), 2);
        assert_eq!(g.edges.len(), 1);
        assert_eq!(
            g.notes,
            ["2 more nodes and 2 edges not drawn (node budget 2)"]
        );
    }

    #[test]
    fn deep_clusters_are_flattened_into_the_deepest_drawn_one() {
        let n = MAX_CLUSTER_DEPTH + 10;
        let parents: Vec<Option<usize>> = (0..n).map(|i| i.checked_sub(1)).collect();
        let mut g = graph(&parents, &[Some(n - 1)]);
        limit_cluster_depth(&mut g);
        assert_eq!(g.clusters.len(), MAX_CLUSTER_DEPTH);
        assert_eq!(g.nodes[0].cluster, Some(MAX_CLUSTER_DEPTH - 1));
    }
}
