//! Document symbols, workspace symbols and folding ranges.

use super::at;
use pfir::ide::{Analysis, FoldKind, SymbolKind, SymbolNode};

/// `kind name` lines, indented by depth.
fn outline(nodes: &[SymbolNode]) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<(&SymbolNode, usize)> = nodes.iter().rev().map(|n| (n, 0)).collect();
    while let Some((n, depth)) = stack.pop() {
        assert!(
            n.range.start <= n.selection_range.start && n.selection_range.end <= n.range.end,
            "{n:?}"
        );
        out.push(format!("{}{:?} {}", "  ".repeat(depth), n.kind, n.name));
        stack.extend(n.children.iter().rev().map(|c| (c, depth + 1)));
    }
    out
}

const NESTED: &str = "func k(x: index) {
}

orchestration func main(n: i64) {
  manual \"stage1\" {
    tids = array.create(4, task_id)
    for i in range(2) {
      if i > 0 {
        a = submit k(i, deps=[tids])
      }
    }
    auto {
      w = while n > 0 iter(m = n) {
        yield m - 1
      }
    }
  }
}
";

#[test]
fn outline_nests_functions_scopes_loops_and_variables() {
    let a = Analysis::new(NESTED);
    assert_eq!(
        outline(&a.document_symbols()),
        [
            "Function k",
            "  Parameter x",
            "Function main",
            "  Parameter n",
            "  Scope manual \"stage1\"",
            "    Variable tids",
            "    Loop for i in range",
            "      Variable i",
            "      Variable a",
            "    Scope auto",
            "      Loop while",
            "        Variable m",
            "      Variable w",
        ]
    );
    let symbols = a.document_symbols();
    let main = &symbols[1];
    assert_eq!(&NESTED[main.selection_range.clone()], "main");
    assert_eq!(
        main.detail.as_deref(),
        Some("orchestration func main(n: i64)")
    );
    let tids = &main.children[1].children[0];
    assert_eq!(tids.detail.as_deref(), Some("array<task_id, 4>"));
    let the_loop = &main.children[1].children[1];
    assert_eq!(
        &NESTED[the_loop.selection_range.clone()],
        "for i in range(2) {"
    );
}

#[test]
fn split_documents_get_one_chunk_node_each() {
    let src = "func k() {\n}\n// -----\n\n// second\nfunc m() {\n}\n";
    let a = Analysis::new(src);
    assert_eq!(
        outline(&a.document_symbols()),
        [
            "Chunk chunk 1",
            "  Function k",
            "Chunk chunk 2",
            "  Function m"
        ]
    );
    let second = &a.document_symbols()[1];
    assert_eq!(&src[second.selection_range.clone()], "// second");
}

#[test]
fn outline_depth_is_bounded() {
    let depth = 300;
    let mut src = String::from("func f() {\n");
    src.push_str(&crate::support::nested_for_loops(depth, ""));
    src.push_str("}\n");
    let a = Analysis::new(&src);
    let lines = outline(&a.document_symbols());
    let deepest = lines
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .max()
        .unwrap()
        / 2;
    assert!(
        deepest <= pfir::ide::MAX_OUTLINE_DEPTH as usize + 1,
        "{deepest}"
    );
    // Every loop variable is still listed.
    let vars: Vec<&String> = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("Variable"))
        .collect();
    assert_eq!(vars.len(), depth, "{:?}", &lines[..20]);
}

#[test]
fn workspace_symbols_match_functions_and_named_scopes_fuzzily() {
    let a = Analysis::new(NESTED);
    let names = |q: &str| -> Vec<(String, SymbolKind, Option<String>)> {
        a.symbols_matching(q)
            .into_iter()
            .map(|s| (s.name, s.kind, s.container))
            .collect()
    };
    assert_eq!(
        names("mai"),
        [("main".to_string(), SymbolKind::Function, None)]
    );
    assert_eq!(
        names("STG"),
        [(
            "manual \"stage1\"".to_string(),
            SymbolKind::Scope,
            Some("main".to_string())
        )]
    );
    assert_eq!(names("").len(), 3);
    assert!(names("zzz").is_empty());
}

#[test]
fn folds_functions_blocks_comment_runs_check_runs_and_chunks() {
    let src = "// RUN: pfir opt %s | FileCheck %s
// a note
// CHECK: func k
// CHECK-NEXT: }
func k() {
}

// one comment line alone
orchestration func main() {
  manual {
    x = 1
  }
}
// -----
func m() {
  manual { }
}
";
    let a = Analysis::new(src);
    let folds: Vec<(FoldKind, usize, usize)> = a
        .folding_ranges()
        .into_iter()
        .map(|f| {
            let line = |o: usize| src[..o].matches('\n').count() + 1;
            (f.kind, line(f.range.start), line(f.range.end))
        })
        .collect();
    assert_eq!(
        folds,
        [
            (FoldKind::Chunk, 1, 13),
            (FoldKind::Comment, 1, 2),
            (FoldKind::CheckLines, 3, 4),
            (FoldKind::Function, 5, 6),
            (FoldKind::Function, 9, 13),
            (FoldKind::Block, 10, 12),
            (FoldKind::Chunk, 15, 17),
            (FoldKind::Function, 15, 17),
        ]
    );
    let first = &a.folding_ranges()[3];
    assert_eq!(&src[first.range.clone()], "func k() {\n}");
    assert_eq!(at(src, "func k()"), first.range.start);
}

#[test]
fn folding_works_on_documents_that_do_not_parse() {
    let src = "func f( {\n  x = = 1\n  for {\n  }\n}\n";
    let a = Analysis::new(src);
    let kinds: Vec<FoldKind> = a.folding_ranges().into_iter().map(|f| f.kind).collect();
    // Syntax-error recovery still reads `f` as a function (its `(` is
    // closed at the `{`); the broken `for` folds as a plain block.
    assert_eq!(kinds, [FoldKind::Function, FoldKind::Block]);
}
