//! The Graphviz DOT writer.
//!
//! One `digraph`; per function and side a cluster
//! `cluster_<function>_<side>`; inside, clusters per loop and scope
//! (`cluster_<function>_<side>_L<k>`) and nodes
//! `"<function>_<side>_<id>"` in program order, then the edges in the order
//! the model made them. Ids are stable (see `docs/graph.md`), so golden
//! tests can check them.

use super::model::{ClusterKind, EdgeStyle, NodeKind, SideGraph};
use super::{Nesting, Picture, nesting};
use std::fmt::Write;

/// Indentation stops growing past this depth.
const MAX_INDENT: usize = 16;

/// A DOT string literal.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth.min(MAX_INDENT) {
        out.push_str("  ");
    }
}

/// The `class` attribute (Graphviz copies it into its SVG), then the style.
fn node_attrs(kind: NodeKind, highlight: bool) -> String {
    let class = match (kind, highlight) {
        (NodeKind::Task, _) => "task",
        (NodeKind::Barrier, false) => "barrier",
        (NodeKind::Barrier, true) => "barrier inserted",
        (NodeKind::Outside, _) => "outside",
        (NodeKind::Join, _) => "join",
        (NodeKind::Summary, false) => "summary",
        (NodeKind::Summary, true) => "summary inserted",
    };
    format!("class=\"{class}\", {}", node_style(kind, highlight))
}

fn node_style(kind: NodeKind, highlight: bool) -> &'static str {
    match (kind, highlight) {
        (NodeKind::Task, _) => r##"shape=box, style="rounded,filled", fillcolor="#dbe9f6""##,
        (NodeKind::Barrier, false) => {
            r##"shape=hexagon, style=filled, fillcolor="#fde3c4", color="#b36b00""##
        }
        (NodeKind::Barrier, true) => {
            r##"shape=hexagon, style="filled,bold", fillcolor="#ffb347", color="#b34700", penwidth=2"##
        }
        (NodeKind::Summary, true) => {
            r##"shape=box3d, style="filled,bold", fillcolor="#ffd9a8", color="#b34700", penwidth=2"##
        }
        (NodeKind::Outside, _) => {
            r##"shape=box, style="dashed", color="#777777", fontcolor="#444444""##
        }
        (NodeKind::Join, _) => {
            r##"shape=circle, width=0.15, fixedsize=true, style=filled, fillcolor="#999999""##
        }
        (NodeKind::Summary, false) => r##"shape=box3d, style=filled, fillcolor="#eeeeee""##,
    }
}

fn edge_attrs(style: EdgeStyle) -> &'static str {
    match style {
        EdgeStyle::Normal => "",
        EdgeStyle::Feed => r##", class="feed", style=dashed, color="#999999", arrowhead=none"##,
        EdgeStyle::Added => {
            r##", class="added", color="#d46a00", penwidth=2, fontcolor="#d46a00""##
        }
        EdgeStyle::Replaced => {
            r##", class="replaced", color="#c0392b", style=dashed, fontcolor="#c0392b""##
        }
    }
}

fn cluster_style(kind: &ClusterKind) -> &'static str {
    match kind {
        ClusterKind::Loop => r##"style="rounded,filled"; fillcolor="#f4f4f4"; color="#999999";"##,
        ClusterKind::Manual => r##"style="rounded"; color="#8e44ad";"##,
        ClusterKind::Auto => r##"style="rounded,dashed"; color="#27ae60";"##,
    }
}

fn write_side(out: &mut String, function: &str, g: &SideGraph) {
    let base = format!("{function}_{}", g.side.name());
    indent(out, 1);
    let _ = writeln!(out, "subgraph {} {{", quote(&format!("cluster_{base}")));
    indent(out, 2);
    let mut title = format!("{function}: {}", g.title);
    for n in &g.notes {
        title.push('\n');
        title.push_str(n);
    }
    let _ = writeln!(
        out,
        "label={}; style=solid; color=\"#444444\";",
        quote(&title)
    );
    let mut depth = 2usize;
    for step in nesting(g) {
        match step {
            Nesting::Open(c) => {
                let cl = &g.clusters[c];
                indent(out, depth);
                let _ = writeln!(
                    out,
                    "subgraph {} {{",
                    quote(&format!("cluster_{base}_{}", cl.id))
                );
                depth += 1;
                indent(out, depth);
                let _ = writeln!(
                    out,
                    "label={}; {}",
                    quote(&cl.label),
                    cluster_style(&cl.kind)
                );
            }
            Nesting::Close(_) => {
                depth -= 1;
                indent(out, depth);
                out.push_str("}\n");
            }
            Nesting::Node(i) => {
                let n = &g.nodes[i];
                indent(out, depth);
                let id = quote(&format!("{base}_{}", n.id));
                let label = n.label.join("\n");
                if n.kind == NodeKind::Join {
                    let _ = writeln!(
                        out,
                        "{id} [label=\"\", xlabel={}, {}];",
                        quote(&label),
                        node_attrs(n.kind, n.highlight)
                    );
                } else {
                    let _ = writeln!(
                        out,
                        "{id} [label={}, {}];",
                        quote(&label),
                        node_attrs(n.kind, n.highlight)
                    );
                }
            }
        }
    }
    indent(out, 1);
    out.push_str("}\n");
    for e in &g.edges {
        let from = quote(&format!("{base}_{}", g.nodes[e.from].id));
        let to = quote(&format!("{base}_{}", g.nodes[e.to].id));
        indent(out, 1);
        match &e.label {
            Some(l) => {
                let _ = writeln!(
                    out,
                    "{from} -> {to} [label={}{}];",
                    quote(l),
                    edge_attrs(e.style)
                );
            }
            None => {
                let attrs = edge_attrs(e.style);
                let attrs = attrs.strip_prefix(", ").unwrap_or(attrs);
                if attrs.is_empty() {
                    let _ = writeln!(out, "{from} -> {to};");
                } else {
                    let _ = writeln!(out, "{from} -> {to} [{attrs}];");
                }
            }
        }
    }
}

/// The DOT text of `p`.
pub fn write_dot(p: &Picture) -> String {
    let mut out = String::new();
    out.push_str("digraph pfir {\n");
    let _ = writeln!(
        out,
        "  graph [label={}, labelloc=t, fontname=\"Helvetica\", rankdir=TB, newrank=true];",
        quote(&format!("pfir graph {}", p.title))
    );
    out.push_str("  node [fontname=\"Helvetica\", fontsize=11];\n");
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=10];\n");
    for f in &p.functions {
        for g in &f.sides {
            write_side(&mut out, &f.name, g);
        }
    }
    out.push_str("}\n");
    out
}
