//! `pfir graph` (`src/graph/`, `src/cli/graph.rs`): the SVG is well-formed
//! XML with the structure the DOT output names, the edge totals agree with
//! `--stats`, the HTML page carries the pass's decisions, large and deep
//! inputs are summarised. (Rendering in headless Chromium needs a browser:
//! `tests/needs_tools/browser.rs`.)

use pfir::graph::model::{EdgeStyle, NodeKind, Side, static_view};
use pfir::graph::{Options, Picture, Show, build, dot::write_dot, svg::write_svg};
use pfir::ir::{FuncKind, Module};
use pfir::passes::expand_manual_phase_fence::static_edges;
use std::path::{Path, PathBuf};
use std::process::Command;

const PASS: &str = "expand-manual-phase-fence";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> (String, Module) {
    let text = std::fs::read_to_string(path).unwrap();
    let (m, diags) = pfir::parse(&text).into_parts();
    let m = m.unwrap_or_else(|| panic!("{}: rejected: {diags:?}", path.display()));
    (text, m)
}

/// The module after the pass.
fn after(text: &str, m: &Module) -> Module {
    let mut a = m.clone();
    let file = pfir::diagnostics::SourceFile::new("t.pfir", text);
    let r = pfir::passes::run_passes(&mut a, &file, &[PASS]).unwrap();
    assert!(
        !pfir::diagnostics::has_errors(&r.diagnostics),
        "{:?}",
        r.diagnostics
    );
    a
}

fn options(show: Show) -> Options {
    Options {
        show,
        expand: false,
        max_nodes: pfir::graph::DEFAULT_MAX_NODES,
        function: None,
    }
}

/// Every valid `.pfir` file under `examples/`, `tests/passes/`, `tests/graph/`.
fn inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["examples", "tests/passes", "tests/graph"] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "pfir"))
            .collect();
        entries.sort();
        for p in entries {
            let text = std::fs::read_to_string(&p).unwrap();
            if text.contains("// -----") {
                continue; // split files: their chunks are separate modules
            }
            if pfir::parse(&text).into_parts().0.is_some() {
                out.push(p);
            }
        }
    }
    assert!(out.len() >= 10, "too few inputs: {out:?}");
    out
}

/// The lines of function `name` in `printed`, a module in the canonical
/// form: from its header to the `}` that closes it.
fn function_text<'a>(printed: &'a str, name: &str) -> &'a str {
    let header = format!("func {name}(");
    let start = printed
        .match_indices(&header)
        .map(|(at, _)| printed[..at].rfind('\n').map_or(0, |n| n + 1))
        .next()
        .unwrap_or_else(|| panic!("no function {name} in:\n{printed}"));
    let end = printed[start..]
        .find("\n}\n")
        .map_or(printed.len(), |n| start + n + 3);
    &printed[start..end]
}

fn picture_of(path: &Path) -> Picture {
    let (text, m) = read(path);
    let a = after(&text, &m);
    build(
        path.display().to_string(),
        &m,
        Some(&a),
        &options(Show::Both),
    )
}

#[test]
fn graph_totals_agree_with_stats_and_edge_labels_add_up() {
    let mut functions = 0;
    for path in inputs() {
        let (text, before) = read(&path);
        let after = after(&text, &before);
        for (module, side) in [(&before, Side::Before), (&after, Side::After)] {
            let printed = pfir::print(module);
            for f in module.functions() {
                if f.kind != FuncKind::Orchestration {
                    continue;
                }
                functions += 1;
                let g = static_view(module, f, side, &pfir::analysis::Limits::default());
                let stats = static_edges(f);
                assert_eq!(g.total_edges, stats, "{} {}", path.display(), f.name);
                let labelled: u64 = g
                    .edges
                    .iter()
                    .filter(|e| e.style != EdgeStyle::Feed)
                    .fold(0u64, |t, e| t.saturating_add(e.weight))
                    .min(i64::MAX as u64);
                assert_eq!(labelled, stats, "{} {}", path.display(), f.name);
                // Every submit and barrier statement is one node.
                let sites = g
                    .nodes
                    .iter()
                    .filter(|n| matches!(n.kind, NodeKind::Task | NodeKind::Barrier))
                    .count();
                let text = function_text(&printed, &f.name);
                let expected =
                    text.matches(" = submit ").count() + text.matches("system.task_dummy(").count();
                assert_eq!(sites, expected, "{} {}", path.display(), f.name);
            }
        }
    }
    assert!(functions > 20);
}

#[test]
fn the_issue_example_is_one_edge_labelled_32() {
    let p = picture_of(&root().join("tests/graph/fan_out.pfir"));
    let [before, after] = p.functions[0].sides.as_slice() else {
        panic!("two sides");
    };
    let labels = |g: &pfir::graph::model::SideGraph| -> Vec<(String, String, u64)> {
        g.edges
            .iter()
            .map(|e| {
                (
                    g.nodes[e.from].id.clone(),
                    g.nodes[e.to].id.clone(),
                    e.weight,
                )
            })
            .collect()
    };
    assert_eq!(labels(before), [("t0".into(), "t1".into(), 32)]);
    assert_eq!(
        labels(after),
        [("t0".into(), "b0".into(), 4), ("b0".into(), "t1".into(), 8)]
    );
    assert!(after.nodes.iter().any(|n| n.id == "b0" && n.highlight));
    assert_eq!(before.edges[0].style, EdgeStyle::Replaced);
    assert!(after.edges.iter().all(|e| e.style == EdgeStyle::Added));
}

#[test]
fn untouched_functions_draw_nothing_highlighted() {
    let p = picture_of(&root().join("tests/graph/fallback.pfir"));
    assert_eq!(p.functions.len(), 3);
    for f in &p.functions {
        for g in &f.sides {
            assert!(g.nodes.iter().all(|n| !n.highlight), "{}", f.name);
            assert!(
                g.edges
                    .iter()
                    .all(|e| matches!(e.style, EdgeStyle::Normal | EdgeStyle::Feed)),
                "{}",
                f.name
            );
        }
        assert_eq!(f.sides[0].total_edges, f.sides[1].total_edges);
    }
}

/// The ids of the DOT nodes of `dot` (`"main_before_t0" [label=...`).
fn dot_node_ids(dot: &str) -> Vec<String> {
    dot.lines()
        .map(str::trim)
        .filter(|l| l.starts_with('"') && !l.contains(" -> ") && l.contains(" [label="))
        .map(|l| l[1..].split('"').next().unwrap().to_string())
        .collect()
}

#[test]
fn svg_is_well_formed_xml_with_the_nodes_and_edges_of_the_dot_output() {
    for path in inputs() {
        let p = picture_of(&path);
        let svg = write_svg(&p);
        let doc = roxmltree::Document::parse(&svg)
            .unwrap_or_else(|e| panic!("{}: not XML: {e}\n{svg}", path.display()));
        let root_el = doc.root_element();
        assert_eq!(root_el.tag_name().name(), "svg");
        assert_eq!(
            root_el.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        for attr in ["width", "height"] {
            let v: f64 = root_el.attribute(attr).unwrap().parse().unwrap();
            assert!(v > 0.0 && v < 1e6, "{attr} = {v}");
        }
        let class_of = |n: &roxmltree::Node| n.attribute("class").unwrap_or("").to_string();
        let svg_nodes: Vec<String> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "g" && class_of(n).starts_with("node "))
            .map(|n| n.attribute("id").unwrap().to_string())
            .collect();
        assert_eq!(
            svg_nodes,
            dot_node_ids(&write_dot(&p)),
            "{}",
            path.display()
        );
        let edges = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "g" && class_of(n) == "edge")
            .count();
        let model_edges: usize = p
            .functions
            .iter()
            .flat_map(|f| &f.sides)
            .map(|g| g.edges.len())
            .sum();
        assert_eq!(edges, model_edges, "{}", path.display());
        // Every edge is a path and every labelled one shows its count.
        for g in doc
            .descendants()
            .filter(|n| n.tag_name().name() == "g" && class_of(n) == "edge")
        {
            assert!(g.children().any(|c| c.tag_name().name() == "path"));
        }
        // Titles carry the totals.
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        for f in &p.functions {
            for side in &f.sides {
                let title = format!("{}: {}", f.name, side.title);
                assert!(texts.contains(&title.as_str()), "{title} in {texts:?}");
            }
        }
    }
}

#[test]
fn svg_escapes_names_and_scope_strings() {
    let src = r#"
func kernel() -> task_id {
  return system.task_invalid()
}
orchestration func main() -> task_id {
  manual "a<b & \"c\"" {
    t, t_tid = submit kernel()
  }
  return system.task_invalid()
}
"#;
    let (m, _) = pfir::parse(src).into_parts();
    let m = m.unwrap();
    let p = build("x".into(), &m, None, &options(Show::Before));
    let svg = write_svg(&p);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(
        doc.descendants()
            .any(|n| n.text() == Some("manual \"a<b & \"c\"\""))
    );
    let dot = write_dot(&p);
    assert!(dot.contains(r#"label="manual \"a<b & \"c\"\"""#), "{dot}");
}

fn pfir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pfir"))
}

#[test]
fn output_format_follows_the_extension_and_html_lists_the_decisions() {
    let dir = tempfile::tempdir().unwrap();
    let example = root().join("examples/fan_in.pfir");
    for (name, start) in [
        ("g.svg", "<svg "),
        ("g.html", "<!DOCTYPE html>"),
        ("g.dot", "digraph pfir {"),
        ("g.gv", "digraph pfir {"),
    ] {
        let out = dir.path().join(name);
        let st = pfir()
            .args(["graph", "--passes", PASS, "-o"])
            .arg(&out)
            .arg(&example)
            .status()
            .unwrap();
        assert!(st.success());
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.starts_with(start), "{name}: {}", &text[..80]);
    }
    // --format wins over the extension.
    let out = dir.path().join("forced.svg");
    let st = pfir()
        .args(["graph", "--format=dot", "--passes", PASS, "-o"])
        .arg(&out)
        .arg(&example)
        .status()
        .unwrap();
    assert!(st.success());
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("digraph")
    );
    // The page holds one table row per remark of `pfir opt --remarks`.
    let html = std::fs::read_to_string(dir.path().join("g.html")).unwrap();
    let remarks = pfir()
        .args([
            "opt",
            "--passes",
            PASS,
            "--remarks",
            "--diagnostic-format=short",
        ])
        .arg(&example)
        .output()
        .unwrap();
    let stderr = String::from_utf8(remarks.stderr).unwrap();
    let remark_lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(": remark: "))
        .collect();
    assert_eq!(remark_lines.len(), 2, "{stderr}");
    assert_eq!(html.matches("<tr><td>").count(), remark_lines.len());
    for l in remark_lines {
        let message = l.split(": remark: ").nth(1).unwrap();
        let escaped = message
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&apos;");
        assert!(html.contains(&escaped), "{message}");
    }
    assert!(html.contains("inserted phase fence barrier `phase_fence_barrier_0_tid`"));
    assert!(html.contains("<svg "));
    // A failed run leaves an existing output alone.
    let keep = dir.path().join("keep.svg");
    std::fs::write(&keep, "old").unwrap();
    let out = pfir()
        .args(["graph", "--function", "nope", "-o"])
        .arg(&keep)
        .arg(&example)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no function named `nope`"));
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "old");
}

/// `n` loops in a row, each of 2 submits waiting on the previous loop.
fn long_program(n: usize) -> String {
    let mut s = String::from("func k() -> task_id {\n  return system.task_invalid()\n}\n");
    s.push_str("orchestration func main(t: task_id) -> task_id {\n  manual {\n    prev = t\n");
    for i in 0..n {
        s.push_str(&format!(
            "    last{i} = for p in parallel(4) iter(acc = prev{}) {{\n      a, a_tid = submit k(deps=[acc])\n      b, b_tid = submit k(deps=[a_tid])\n      yield b_tid\n    }}\n",
            if i == 0 { String::new() } else { format!("_{}", i - 1) }
        ));
        s.push_str(&format!("    prev_{i} = last{i}\n"));
    }
    s.push_str("  }\n  return system.task_invalid()\n}\n");
    s.replacen("iter(acc = prev)", "iter(acc = t)", 1)
}

#[test]
fn large_graphs_are_summarised_not_drawn_unreadably() {
    let src = long_program(400);
    let (m, diags) = pfir::parse(&src).into_parts();
    let m = m.unwrap_or_else(|| panic!("{diags:?}"));
    let p = build("long".into(), &m, None, &options(Show::Before));
    let g = &p.functions[0].sides[0];
    assert!(g.nodes.len() <= pfir::graph::DEFAULT_MAX_NODES);
    assert!(
        g.notes.iter().any(|n| n.contains("summarised")),
        "{:?}",
        g.notes
    );
    assert!(g.nodes.iter().any(|n| n.kind == NodeKind::Summary));
    let f = m.function("main").unwrap();
    assert_eq!(g.total_edges, static_edges(f));
    let svg = write_svg(&p);
    assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
    roxmltree::Document::parse(&svg).unwrap();
}

#[test]
fn deep_nesting_draws_a_bounded_number_of_clusters() {
    let depth = 3000;
    let mut src = String::from(
        "func k() -> task_id {\n  return system.task_invalid()\n}\norchestration func main() -> task_id {\n  manual {\n",
    );
    src.push_str(&crate::support::nested_for_loops(
        depth,
        "a, a_tid = submit k()\n",
    ));
    src.push_str("  }\n  return system.task_invalid()\n}\n");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.pfir");
    std::fs::write(&input, &src).unwrap();
    for args in [&["--format=svg"][..], &["--format=dot", "--expand"][..]] {
        let out = pfir().arg("graph").args(args).arg(&input).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let clusters = text.matches("class=\"cluster\"").count() + text.matches("subgraph").count();
        assert!(
            clusters <= pfir::graph::summary::MAX_CLUSTER_DEPTH + 2,
            "{clusters} clusters"
        );
    }
}

#[test]
fn the_evaluator_records_what_each_deps_entry_may_hold() {
    use pfir::analysis::{Limits, task_graph};
    use pfir::ir::StmtKind;
    let (_, m) = read(&root().join("examples/chained_phases.pfir"));
    let f = m.function("pipeline").unwrap();
    let g = task_graph(&m, "pipeline", &Limits::default());
    let submit = |tid: &str| {
        (0..f.stmts.len())
            .map(<pfir::ir::StmtId as pfir::ir::ArenaId>::from_index)
            .find(|&s| match &f.stmts[s].kind {
                StmtKind::Submit(sub) => {
                    f.var_name(*f.list(f.submits[*sub].results).last().unwrap()) == tid
                }
                _ => false,
            })
            .unwrap()
    };
    // `c` waits on `tids_a`: the producers `r` (phase 0) or `d` (phase 1).
    let c = g.entry_sources(submit("c_tid"), 0).unwrap();
    assert_eq!(
        c.stmts.iter().copied().collect::<Vec<_>>(),
        [submit("r_tid"), submit("d_tid")]
    );
    assert!(!c.outside);
    // `e` waits on `final`: `d` only.
    let e = g.entry_sources(submit("e_tid"), 0).unwrap();
    assert_eq!(
        e.stmts.iter().copied().collect::<Vec<_>>(),
        [submit("d_tid")]
    );
    assert!(g.entry_sources(submit("e_tid"), 1).is_none());
    // An array nobody fills holds tasks from outside only.
    let (_, m) = read(&root().join("examples/first.pfir"));
    let f = m.function("main").unwrap();
    let g = task_graph(&m, "main", &Limits::default());
    let a = (0..f.stmts.len())
        .map(<pfir::ir::StmtId as pfir::ir::ArenaId>::from_index)
        .find(|&s| matches!(f.stmts[s].kind, StmtKind::Submit(_)))
        .unwrap();
    let entry = g.entry_sources(a, 0).unwrap();
    assert!(entry.stmts.is_empty() && entry.outside);
}
