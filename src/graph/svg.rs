//! An in-process layout and SVG renderer: no Graphviz needed.
//!
//! The layout follows the program, which is what a reader of the `.pfir`
//! file knows: one row per node in program order, clusters drawn as nested
//! boxes (a header row with the loop or scope, then their nodes, indented).
//! Edges leave and enter nodes on their right side and run vertically in
//! *lanes* to the right of all nodes; lanes are assigned greedily by
//! interval (an edge takes the innermost lane free over its vertical span),
//! so edges never overlap each other, and each carries its count at its
//! middle. Several edges on one node use separate ports along its side.
//! `--show=both` puts the two sides next to each other.
//!
//! Cost: sorting the edges' intervals, O(E log E), and one pass over nodes,
//! clusters and edges; text widths are estimated (a monospace font), so no
//! font machinery is needed.

use super::model::{ClusterKind, Edge, EdgeStyle, Node, NodeKind, SideGraph};
use super::{Nesting, Picture, nesting};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write;

const CHAR_W: f64 = 7.3;
const SMALL_CHAR_W: f64 = 6.7;
const MARGIN: f64 = 16.0;
const INDENT: f64 = 14.0;
const HEADER: f64 = 22.0;
const GAP: f64 = 12.0;
const LINE: f64 = 15.0;
const PAD_X: f64 = 10.0;
const JOIN_R: f64 = 5.0;
const TITLE_H: f64 = 30.0;
const NOTE_H: f64 = 16.0;
const COLUMN_GAP: f64 = 40.0;
const CORNER: f64 = 6.0;

/// XML text and attribute escaping: the workspace's one escaper, in its
/// attribute form (also correct in element text).
pub fn escape(s: &str) -> String {
    fsutil::xml::escape_attribute(s)
}

fn text_w(s: &str, small: bool) -> f64 {
    s.chars().count() as f64 * if small { SMALL_CHAR_W } else { CHAR_W }
}

#[derive(Clone, Copy, Debug, Default)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

struct Boxed {
    cluster: usize,
    depth: usize,
    x: f64,
    top: f64,
    bottom: f64,
}

/// One side laid out, in its own coordinates (origin top left).
struct Layout {
    nodes: Vec<Rect>,
    boxes: Vec<Boxed>,
    /// Per edge: source port, target port, lane x.
    edges: Vec<(f64, f64, f64)>,
    /// Right edge of the deepest box: where lanes start.
    width: f64,
    height: f64,
    /// Where the notes start.
    notes_y: f64,
}

fn layout(function: &str, g: &SideGraph) -> Layout {
    let column = column(g);
    let nodes = column.nodes;
    let y = column.bottom;
    let right = right_edge(g, &nodes, &column.depth_of, &column.boxes);
    // The title is `function: title`, bold at 14px: about 1.2 times as wide.
    let title_w =
        (text_w(function, false) + text_w(&g.title, false) + 2.0 * CHAR_W) * 1.2 + 2.0 * MARGIN;
    let notes_w = g
        .notes
        .iter()
        .map(|n| text_w(n, true) + 2.0 * MARGIN)
        .fold(0.0, f64::max);
    let ports = ports(g, &nodes);
    let (lane_of, lane_w) = lanes(g, &ports);
    let lanes_start = right + 14.0;
    let mut lane_x = Vec::with_capacity(lane_w.len());
    let mut x = lanes_start;
    for w in &lane_w {
        lane_x.push(x);
        x += w;
    }
    let edges = (0..g.edges.len())
        .map(|k| (ports[k].0, ports[k].1, lane_x[lane_of[k]]))
        .collect();
    let width = (x + MARGIN).max(title_w).max(notes_w);
    let notes_y = y;
    let height = y + NOTE_H * g.notes.len() as f64 + MARGIN;
    Layout {
        nodes,
        boxes: column.boxes,
        edges,
        width,
        height,
        notes_y,
    }
}

/// The nodes and cluster boxes of a side placed one under the other.
struct Column {
    nodes: Vec<Rect>,
    /// How many boxes are around each node.
    depth_of: Vec<usize>,
    boxes: Vec<Boxed>,
    /// Where the column ends.
    bottom: f64,
}

/// Places the nodes top to bottom in nesting order, each cluster a box
/// around its nodes, indented by its depth.
fn column(g: &SideGraph) -> Column {
    let mut nodes = vec![Rect::default(); g.nodes.len()];
    let mut depth_of = vec![0usize; g.nodes.len()];
    let mut boxes: Vec<Boxed> = Vec::new();
    let mut open: Vec<usize> = Vec::new(); // indices into boxes
    let mut y = MARGIN + TITLE_H;
    for step in nesting(g) {
        match step {
            Nesting::Open(c) => {
                let depth = open.len();
                open.push(boxes.len());
                boxes.push(Boxed {
                    cluster: c,
                    depth,
                    x: MARGIN + depth as f64 * INDENT,
                    top: y,
                    bottom: y,
                });
                y += HEADER;
            }
            Nesting::Close(_) => {
                if let Some(b) = open.pop() {
                    let bottom = y - GAP + 8.0;
                    boxes[b].bottom = bottom;
                    y = bottom + GAP;
                }
            }
            Nesting::Node(i) => {
                let depth = open.len();
                let x = MARGIN + depth as f64 * INDENT + if depth > 0 { 8.0 } else { 0.0 };
                let r = node_rect(&g.nodes[i], x, y);
                nodes[i] = r;
                depth_of[i] = depth;
                y += r.h + GAP;
            }
        }
    }
    Column {
        nodes,
        depth_of,
        boxes,
        bottom: y,
    }
}

/// The rectangle of node `n` with its top left corner at (`x`, `y`): a
/// join's circle and label, or a box around the label's lines.
fn node_rect(n: &Node, x: f64, y: f64) -> Rect {
    if n.kind == NodeKind::Join {
        let label_w = text_w(&n.label.join(" "), true);
        Rect {
            x,
            y,
            w: 2.0 * JOIN_R + 6.0 + label_w,
            h: 2.0 * JOIN_R + 6.0,
        }
    } else {
        let w = n
            .label
            .iter()
            .enumerate()
            .map(|(k, l)| text_w(l, k > 0))
            .fold(0.0, f64::max);
        Rect {
            x,
            y,
            w: w + 2.0 * PAD_X,
            h: 10.0 + LINE * n.label.len() as f64,
        }
    }
}

/// The right edge of the column: every node fits inside every box around
/// it.
fn right_edge(g: &SideGraph, nodes: &[Rect], depth_of: &[usize], boxes: &[Boxed]) -> f64 {
    let mut right: f64 = MARGIN + 200.0;
    for (i, r) in nodes.iter().enumerate() {
        let extra = if g.nodes[i].kind == NodeKind::Join {
            0.0
        } else {
            10.0
        };
        right = right.max(r.x + r.w + extra + depth_of[i] as f64 * 6.0);
    }
    for b in boxes {
        let label_w = text_w(&g.clusters[b.cluster].label, true) + 20.0;
        right = right.max(b.x + label_w + b.depth as f64 * 6.0);
    }
    right
}

/// Per edge, the y of its source port and of its target port: incident
/// edges spread along the right side of a node, ordered by the position of
/// the other end.
fn ports(g: &SideGraph, nodes: &[Rect]) -> Vec<(f64, f64)> {
    let mut incident: Vec<Vec<(usize, usize, bool)>> = vec![Vec::new(); g.nodes.len()];
    for (k, e) in g.edges.iter().enumerate() {
        incident[e.from].push((e.to, k, true));
        incident[e.to].push((e.from, k, false));
    }
    let mut ports = vec![(0.0f64, 0.0f64); g.edges.len()];
    for (i, list) in incident.iter_mut().enumerate() {
        list.sort_unstable();
        let r = nodes[i];
        let n = list.len() as f64;
        for (j, &(_, k, out)) in list.iter().enumerate() {
            let py = if g.nodes[i].kind == NodeKind::Join {
                r.y + JOIN_R + 3.0
            } else {
                r.y + r.h * (j as f64 + 1.0) / (n + 1.0)
            };
            if out {
                ports[k].0 = py;
            } else {
                ports[k].1 = py;
            }
        }
    }
    ports
}

/// The lane of each edge (greedy interval colouring of the ports' spans)
/// and the width of each lane.
fn lanes(g: &SideGraph, ports: &[(f64, f64)]) -> (Vec<usize>, Vec<f64>) {
    let mut order: Vec<usize> = (0..g.edges.len()).collect();
    let span = |k: usize| {
        let (a, b) = ports[k];
        (a.min(b), a.max(b))
    };
    order.sort_by(|&a, &b| {
        let (sa, sb) = (span(a), span(b));
        sa.0.total_cmp(&sb.0)
            .then(sa.1.total_cmp(&sb.1))
            .then(a.cmp(&b))
    });
    let mut lane_of = vec![0usize; g.edges.len()];
    let mut lane_w: Vec<f64> = Vec::new();
    let mut active: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut free: BinaryHeap<Reverse<usize>> = BinaryHeap::new();
    for &k in &order {
        let (lo, hi) = span(k);
        while let Some(&Reverse((end, lane))) = active.peek() {
            if (end as f64) / 16.0 + 14.0 < lo {
                active.pop();
                free.push(Reverse(lane));
            } else {
                break;
            }
        }
        let lane = match free.pop() {
            Some(Reverse(l)) => l,
            None => {
                lane_w.push(0.0);
                lane_w.len() - 1
            }
        };
        lane_of[k] = lane;
        let label_w = g.edges[k]
            .label
            .as_deref()
            .map_or(0.0, |l| text_w(l, true) + 6.0);
        lane_w[lane] = lane_w[lane].max(label_w.max(4.0) + 10.0);
        // Ends are kept in 1/16 px so they order as integers.
        active.push(Reverse(((hi * 16.0).ceil() as u64, lane)));
    }
    (lane_of, lane_w)
}

fn f(v: f64) -> String {
    // One decimal, no "-0.0".
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

fn edge_color(style: EdgeStyle) -> (&'static str, &'static str, &'static str, &'static str) {
    // (stroke, width, dash, marker)
    match style {
        EdgeStyle::Normal => ("#333333", "1.2", "", "arrow"),
        EdgeStyle::Feed => ("#a0a0a0", "1", "3 3", ""),
        EdgeStyle::Added => ("#d46a00", "2.2", "", "arrow-added"),
        EdgeStyle::Replaced => ("#c0392b", "1.6", "6 3", "arrow-replaced"),
    }
}

fn write_side(out: &mut String, function: &str, g: &SideGraph, l: &Layout, dx: f64, dy: f64) {
    let base = format!("{function}_{}", g.side.name());
    let _ = writeln!(
        out,
        r#"<g class="side" id="{}" transform="translate({},{})">"#,
        escape(&base),
        f(dx),
        f(dy)
    );
    let _ = writeln!(
        out,
        r#"<text class="title" x="{}" y="{}" font-size="14" font-weight="bold">{}</text>"#,
        f(MARGIN),
        f(MARGIN + 14.0),
        escape(&format!("{function}: {}", g.title))
    );
    write_boxes(out, &base, g, l);
    for (k, e) in g.edges.iter().enumerate() {
        write_edge(out, &base, g, l, k, e);
    }
    for (i, n) in g.nodes.iter().enumerate() {
        write_node(out, &base, n, l.nodes[i]);
    }
    for (k, note) in g.notes.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text class="note" x="{}" y="{}" font-size="11" font-style="italic" fill="#555555">{}</text>"##,
            f(MARGIN),
            f(l.notes_y + NOTE_H * (k as f64 + 1.0) - 4.0),
            escape(note)
        );
    }
    out.push_str("</g>\n");
}

/// ` stroke-dasharray="DASH"`, or nothing for a solid line.
fn dash_attr(dash: &str) -> String {
    if dash.is_empty() {
        String::new()
    } else {
        format!(r#" stroke-dasharray="{dash}""#)
    }
}

/// The cluster boxes of a side, each as wide as the column up to the
/// first lane.
fn write_boxes(out: &mut String, base: &str, g: &SideGraph, l: &Layout) {
    let right_edge = l.edges.iter().map(|e| e.2).fold(f64::NAN, f64::min);
    let box_right = if right_edge.is_nan() {
        l.width - MARGIN
    } else {
        right_edge - 14.0
    };
    for b in &l.boxes {
        let c = &g.clusters[b.cluster];
        let (fill, stroke, dash) = match c.kind {
            ClusterKind::Loop => ("#f2f2f2", "#999999", ""),
            ClusterKind::Manual => ("#fbf6fd", "#8e44ad", ""),
            ClusterKind::Auto => ("#f3fbf5", "#27ae60", "5 3"),
        };
        let w = box_right - b.depth as f64 * 6.0 - b.x;
        let _ = writeln!(
            out,
            r#"<g class="cluster" id="{}"><rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="{fill}" stroke="{stroke}"{}/><text x="{}" y="{}" font-size="11" fill="{stroke}">{}</text></g>"#,
            escape(&format!("{base}_{}", c.id)),
            f(b.x),
            f(b.top),
            f(w.max(10.0)),
            f((b.bottom - b.top).max(HEADER)),
            dash_attr(dash),
            f(b.x + 8.0),
            f(b.top + 15.0),
            escape(&c.label)
        );
    }
}

/// Edge `k`, `e`: a path from its source port out to its lane and back to
/// its target port, and its label.
fn write_edge(out: &mut String, base: &str, g: &SideGraph, l: &Layout, k: usize, e: &Edge) {
    let (y1, y2, lx) = l.edges[k];
    let (a, b) = (l.nodes[e.from], l.nodes[e.to]);
    let x1 = a.x + a.w;
    let x2 = b.x + b.w + if e.style == EdgeStyle::Feed { 0.0 } else { 2.0 };
    let (stroke, width, dash, marker) = edge_color(e.style);
    let dir = if y2 >= y1 { 1.0 } else { -1.0 };
    let r = CORNER.min((y2 - y1).abs() / 2.0);
    let d = format!(
        "M{} {} H{} Q{} {} {} {} V{} Q{} {} {} {} H{}",
        f(x1),
        f(y1),
        f(lx - r),
        f(lx),
        f(y1),
        f(lx),
        f(y1 + dir * r),
        f(y2 - dir * r),
        f(lx),
        f(y2),
        f(lx - r),
        f(y2),
        f(x2)
    );
    let _ = write!(
        out,
        r#"<g class="edge" id="{}"><path d="{d}" fill="none" stroke="{stroke}" stroke-width="{width}"{}{}/>"#,
        escape(&format!(
            "{base}_{}_{}_{k}",
            g.nodes[e.from].id, g.nodes[e.to].id
        )),
        dash_attr(dash),
        if marker.is_empty() {
            String::new()
        } else {
            format!(r#" marker-end="url(#{marker})""#)
        }
    );
    if let Some(label) = &e.label {
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="11" fill="{stroke}" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
            f(lx + 3.0),
            f((y1 + y2) / 2.0 + 4.0),
            escape(label)
        );
    }
    out.push_str("</g>\n");
}

/// Node `n` in rectangle `r`: a join's dot and label, or a box with the
/// label's lines.
fn write_node(out: &mut String, base: &str, n: &Node, r: Rect) {
    let id = escape(&format!("{base}_{}", n.id));
    let kind = match n.kind {
        NodeKind::Task => "task",
        NodeKind::Barrier => "barrier",
        NodeKind::Outside => "outside",
        NodeKind::Join => "join",
        NodeKind::Summary => "summary",
    };
    let _ = write!(
        out,
        r#"<g class="node {kind}{}" id="{id}"><title>{}</title>"#,
        if n.highlight { " inserted" } else { "" },
        escape(&n.label.join(" / "))
    );
    if n.kind == NodeKind::Join {
        let _ = write!(
            out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="#888888"/><text x="{}" y="{}" font-size="11" fill="#555555">{}</text>"##,
            f(r.x + r.w - JOIN_R),
            f(r.y + JOIN_R + 3.0),
            f(JOIN_R),
            f(r.x),
            f(r.y + JOIN_R + 7.0),
            escape(&n.label.join(" "))
        );
        out.push_str("</g>\n");
        return;
    }
    let (fill, stroke, width, dash) = match (n.kind, n.highlight) {
        (NodeKind::Task, _) => ("#dbe9f6", "#4a7ab5", "1.2", ""),
        (NodeKind::Barrier, false) => ("#fde3c4", "#b36b00", "1.2", ""),
        (NodeKind::Barrier, true) => ("#ffb347", "#b34700", "2.5", ""),
        (NodeKind::Summary, true) => ("#ffd9a8", "#b34700", "2.5", ""),
        (NodeKind::Outside, _) => ("#ffffff", "#777777", "1.2", "4 3"),
        (NodeKind::Summary, false) => ("#eeeeee", "#555555", "1.5", ""),
        (NodeKind::Join, _) => unreachable!("handled above"),
    };
    let rx = if n.kind == NodeKind::Barrier { 2 } else { 6 };
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{rx}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{}/>"#,
        f(r.x),
        f(r.y),
        f(r.w),
        f(r.h),
        dash_attr(dash)
    );
    for (k, line) in n.label.iter().enumerate() {
        let (size, color) = if k == 0 {
            ("12", "#111111")
        } else {
            ("11", "#555555")
        };
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="{size}" fill="{color}">{}</text>"#,
            f(r.x + PAD_X),
            f(r.y + 5.0 + LINE * (k as f64 + 1.0) - 3.0),
            escape(line)
        );
    }
    out.push_str("</g>\n");
}

/// One convention of the picture, as the legend explains it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Convention {
    Task,
    Barrier,
    InsertedBarrier,
    Outside,
    Join,
    Summary,
    InsertedSummary,
    Replaced,
    Added,
    Counts,
}

impl Convention {
    /// The `class` of its legend entry (`legend-item join`).
    fn class(self) -> &'static str {
        match self {
            Convention::Task => "task",
            Convention::Barrier => "barrier",
            Convention::InsertedBarrier => "inserted-barrier",
            Convention::Outside => "outside",
            Convention::Join => "join",
            Convention::Summary => "summary",
            Convention::InsertedSummary => "inserted-summary",
            Convention::Replaced => "replaced",
            Convention::Added => "added",
            Convention::Counts => "counts",
        }
    }

    fn text(self) -> &'static str {
        match self {
            Convention::Task => "submit",
            Convention::Barrier => "barrier",
            Convention::InsertedBarrier => "barrier inserted by the passes",
            Convention::Outside => "task ids from outside the function",
            Convention::Join => {
                "join point: the dependency may hold the tasks of any dashed source"
            }
            Convention::Summary => "collapsed cluster",
            Convention::InsertedSummary => "collapsed cluster with an inserted barrier",
            Convention::Replaced => "dependency the passes replaced",
            Convention::Added => "dependency the passes added",
            Convention::Counts => "numbers: runtime edges each dependency stands for",
        }
    }

    /// Edge conventions go on the legend's second row.
    fn is_edge(self) -> bool {
        matches!(
            self,
            Convention::Replaced | Convention::Added | Convention::Counts
        )
    }
}

/// The conventions `p` uses, in legend order: exactly those of its nodes
/// and edges, so the legend never explains what the picture does not show.
fn conventions(p: &Picture) -> Vec<Convention> {
    let mut used = [false; 10];
    let mut mark = |c: Convention| used[c as usize] = true;
    for g in p.functions.iter().flat_map(|f| &f.sides) {
        for n in &g.nodes {
            mark(match (n.kind, n.highlight) {
                (NodeKind::Task, _) => Convention::Task,
                (NodeKind::Barrier, false) => Convention::Barrier,
                (NodeKind::Barrier, true) => Convention::InsertedBarrier,
                (NodeKind::Outside, _) => Convention::Outside,
                (NodeKind::Join, _) => Convention::Join,
                (NodeKind::Summary, false) => Convention::Summary,
                (NodeKind::Summary, true) => Convention::InsertedSummary,
            });
        }
        for e in &g.edges {
            match e.style {
                EdgeStyle::Replaced => mark(Convention::Replaced),
                EdgeStyle::Added => mark(Convention::Added),
                // Drawn with the join point they lead into.
                EdgeStyle::Feed | EdgeStyle::Normal => {}
            }
            if e.label.is_some() {
                mark(Convention::Counts);
            }
        }
    }
    const ALL: [Convention; 10] = [
        Convention::Task,
        Convention::Barrier,
        Convention::InsertedBarrier,
        Convention::Outside,
        Convention::Join,
        Convention::Summary,
        Convention::InsertedSummary,
        Convention::Replaced,
        Convention::Added,
        Convention::Counts,
    ];
    ALL.into_iter().filter(|c| used[*c as usize]).collect()
}

const LEGEND_ROW: f64 = 18.0;

/// The legend's rows (node conventions, then edge conventions; an empty
/// row is left out), its height and its width.
fn legend_rows(items: &[Convention]) -> (Vec<Vec<Convention>>, f64, f64) {
    let (edges, nodes): (Vec<Convention>, Vec<Convention>) =
        items.iter().partition(|c| c.is_edge());
    let rows: Vec<Vec<Convention>> = [nodes, edges]
        .into_iter()
        .filter(|r| !r.is_empty())
        .collect();
    let width = rows
        .iter()
        .map(|r| r.iter().map(|c| legend_item_w(*c)).sum::<f64>())
        .fold(0.0, f64::max);
    let height = if rows.is_empty() {
        0.0
    } else {
        LEGEND_ROW * rows.len() as f64 + 4.0
    };
    (rows, height, width)
}

/// The width of a legend entry: its symbol, its text and the gap after it.
fn legend_item_w(c: Convention) -> f64 {
    let symbol = match c {
        Convention::Counts => 0.0,
        c if c.is_edge() => 34.0,
        _ => 20.0,
    };
    symbol + text_w(c.text(), true) + 18.0
}

fn write_legend(out: &mut String, rows: &[Vec<Convention>], y: f64) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        r#"<g class="legend" transform="translate({},{})">"#,
        f(MARGIN),
        f(y)
    );
    for (k, row) in rows.iter().enumerate() {
        let top = LEGEND_ROW * k as f64;
        let mut x = 0.0;
        for &c in row {
            let _ = write!(out, r#"<g class="legend-item {}">"#, c.class());
            let text_x = match c {
                Convention::Join => {
                    let (stroke, width, dash, _) = edge_color(EdgeStyle::Feed);
                    let _ = write!(
                        out,
                        r##"<path d="M{} {} H{}" stroke="{stroke}" stroke-width="{width}" stroke-dasharray="{dash}"/><circle cx="{}" cy="{}" r="{}" fill="#888888"/>"##,
                        f(x),
                        f(top + 10.0),
                        f(x + 8.0),
                        f(x + 14.0 - JOIN_R),
                        f(top + 10.0),
                        f(JOIN_R)
                    );
                    x + 20.0
                }
                Convention::Replaced | Convention::Added => {
                    let style = if c == Convention::Replaced {
                        EdgeStyle::Replaced
                    } else {
                        EdgeStyle::Added
                    };
                    let (stroke, width, dash, marker) = edge_color(style);
                    let _ = write!(
                        out,
                        r##"<path d="M{} {} H{}" stroke="{stroke}" stroke-width="{width}"{} marker-end="url(#{marker})"/>"##,
                        f(x),
                        f(top + 10.0),
                        f(x + 26.0),
                        dash_attr(dash),
                    );
                    x + 34.0
                }
                Convention::Counts => x,
                _ => {
                    let (fill, stroke, dash) = match c {
                        Convention::Task => ("#dbe9f6", "#4a7ab5", ""),
                        Convention::Barrier => ("#fde3c4", "#b36b00", ""),
                        Convention::InsertedBarrier => ("#ffb347", "#b34700", ""),
                        Convention::Outside => ("#ffffff", "#777777", "4 3"),
                        Convention::Summary => ("#eeeeee", "#555555", ""),
                        _ => ("#ffd9a8", "#b34700", ""),
                    };
                    let _ = write!(
                        out,
                        r#"<rect x="{}" y="{}" width="14" height="12" rx="2" fill="{fill}" stroke="{stroke}"{}/>"#,
                        f(x),
                        f(top + 4.0),
                        dash_attr(dash),
                    );
                    x + 20.0
                }
            };
            let color = if c == Convention::Counts {
                "#555555"
            } else {
                "#333333"
            };
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" font-size="11" fill="{color}">{}</text></g>"#,
                f(text_x),
                f(top + 14.0),
                escape(c.text())
            );
            x += legend_item_w(c);
        }
    }
    out.push_str("</g>\n");
}

/// The SVG document of `p`.
pub fn write_svg(p: &Picture) -> String {
    // Lay out every side; functions stacked, sides side by side.
    let mut blocks: Vec<Vec<Layout>> = Vec::new();
    let mut width: f64 = 620.0;
    let mut height = MARGIN + 24.0;
    for func in &p.functions {
        let ls: Vec<Layout> = func.sides.iter().map(|g| layout(&func.name, g)).collect();
        let w: f64 = ls.iter().map(|l| l.width).sum::<f64>()
            + COLUMN_GAP * ls.len().saturating_sub(1) as f64;
        width = width.max(w);
        height += ls.iter().map(|l| l.height).fold(0.0, f64::max);
        blocks.push(ls);
    }
    if p.functions.is_empty() {
        height += 30.0;
    }
    let (legend, legend_h, legend_w) = legend_rows(&conventions(p));
    height += legend_h;
    width = width.max(legend_w + 2.0 * MARGIN);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">"#,
        w = f(width.ceil()),
        h = f(height.ceil())
    );
    let _ = writeln!(
        out,
        "<title>{}</title>",
        escape(&format!("pfir graph {}", p.title))
    );
    out.push_str("<defs>\n");
    for (id, color) in [
        ("arrow", "#333333"),
        ("arrow-added", "#d46a00"),
        ("arrow-replaced", "#c0392b"),
    ] {
        let _ = writeln!(
            out,
            r#"<marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path d="M0 0 L10 5 L0 10 z" fill="{color}"/></marker>"#
        );
    }
    out.push_str("</defs>\n");
    out.push_str(r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    out.push('\n');
    let _ = writeln!(
        out,
        r##"<text x="{}" y="{}" font-size="13" fill="#333333">{}</text>"##,
        f(MARGIN),
        f(MARGIN + 8.0),
        escape(&format!("pfir graph {}", p.title))
    );
    let mut y = MARGIN + 24.0;
    if p.functions.is_empty() {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-size="12" fill="#555555">no orchestration function to draw</text>"##,
            f(MARGIN),
            f(y + 16.0)
        );
        y += 30.0;
    }
    for (func, ls) in p.functions.iter().zip(&blocks) {
        let mut x = 0.0;
        for (g, l) in func.sides.iter().zip(ls) {
            write_side(&mut out, &func.name, g, l, x, y);
            x += l.width + COLUMN_GAP;
        }
        y += ls.iter().map(|l| l.height).fold(0.0, f64::max);
    }
    write_legend(&mut out, &legend, y);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            escape("a<b>&\"c\"'\u{1}\r"),
            "a&lt;b&gt;&amp;&quot;c&quot;&apos;\\u{1}&#13;"
        );
        assert_eq!(super::super::dot::quote("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
        assert_eq!(f(1.0), "1");
        assert_eq!(f(2.25), "2.3");
        assert_eq!(f(-0.01), "0");
    }
}
