//! Completion in code and in comments.

use super::{FIRST, at};
use pfir::ide::{Analysis, Completion, CompletionKind};

fn labels(items: &[Completion], kind: CompletionKind) -> Vec<&str> {
    items
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.label.as_str())
        .collect()
}

/// The completions with the cursor after the first `len` bytes of `needle`
/// in `src` (the word typed so far), and the range of that word.
fn after_typing(
    a: &Analysis,
    src: &str,
    needle: &str,
    len: usize,
) -> (Vec<Completion>, std::ops::Range<usize>) {
    let typed = at(src, needle)..at(src, needle) + len;
    (a.completions(typed.end), typed)
}

const SCOPES: &str = "func k(x: index) -> task_id {
  return system.task_invalid()
}

orchestration func main(n: i64) {
  early = 1
  manual {
    tids = array.create(4, task_id)
    for i in range(2) iter(acc = early) {
      inner = i
      early = inner
      yield acc
    }
    after = 2
  }
  last = 3
}
";

#[test]
fn variables_in_scope_only_the_innermost_of_each_name() {
    let a = Analysis::new(SCOPES);
    // Inside the loop body, after `inner` and the shadowing `early`.
    let cursor = at(SCOPES, "yield acc");
    let items = a.completions(cursor);
    let vars = labels(&items, CompletionKind::Variable);
    assert_eq!(vars, ["tids", "i", "acc", "inner", "early"]);
    assert_eq!(labels(&items, CompletionKind::Parameter), ["n"]);
    let early = items.iter().find(|c| c.label == "early").unwrap();
    // The shadowing `early = inner` (an index), not the outer one.
    assert_eq!(early.detail.as_deref(), Some("index (binding)"));
    // After the loop: its variables are gone; `manual` opens no scope.
    let after = a.completions(at(SCOPES, "last ="));
    assert_eq!(
        labels(&after, CompletionKind::Variable),
        ["early", "tids", "after"]
    );
    // Before any binding: only the parameter.
    let start = a.completions(at(SCOPES, "early = 1"));
    assert!(labels(&start, CompletionKind::Variable).is_empty());
    // In another function: none of `main`'s.
    let other = a.completions(at(SCOPES, "return"));
    assert_eq!(labels(&other, CompletionKind::Parameter), ["x"]);
    assert!(labels(&other, CompletionKind::Variable).is_empty());
}

#[test]
fn keywords_types_ops_and_functions_with_signature_snippets() {
    let a = Analysis::new(SCOPES);
    let items = a.completions(at(SCOPES, "last"));
    for kw in ["for", "manual", "submit", "yield", "while"] {
        assert!(
            labels(&items, CompletionKind::Keyword).contains(&kw),
            "{kw}"
        );
    }
    assert!(labels(&items, CompletionKind::Type).contains(&"task_id"));
    assert!(labels(&items, CompletionKind::Op).contains(&"array.create"));
    let k = items.iter().find(|c| c.label == "k").unwrap();
    assert_eq!(k.kind, CompletionKind::Function);
    assert_eq!(k.insert_text, "k(${1:x})");
    assert!(k.is_snippet);
    assert_eq!(k.detail.as_deref(), Some("func k(x: index) -> task_id"));
    let create = items.iter().find(|c| c.label == "array.create").unwrap();
    assert_eq!(create.insert_text, "array.create(${1:n}, ${2:task_id})");
}

#[test]
fn after_submit_only_functions_after_in_only_loop_kinds_after_colon_types() {
    let src = "func k() {\n}\n\nfunc f(n: i64) {\n  a = submit k()\n  for i in range(n) {\n  }\n  b: i64 = 1\n}\n";
    let a = Analysis::new(src);
    let (after_submit, k) = after_typing(&a, src, "k()\n", 1);
    // Replacing the word typed so far.
    assert_eq!(after_submit[0].replace, k);
    assert_eq!(
        after_submit
            .iter()
            .map(|c| (c.label.as_str(), c.kind))
            .collect::<Vec<_>>(),
        [
            ("k", CompletionKind::Function),
            ("f", CompletionKind::Function)
        ]
    );
    let kinds = a.completions(at(src, "range") + 2);
    assert_eq!(
        labels(&kinds, CompletionKind::LoopKind),
        ["range", "parallel", "unroll"]
    );
    assert_eq!(kinds.len(), 3);
    let types = a.completions(at(src, "i64 = 1"));
    assert!(types.iter().all(|c| c.kind == CompletionKind::Type));
    assert!(labels(&types, CompletionKind::Type).contains(&"bf16"));
}

#[test]
fn run_lines_complete_options_and_pass_names() {
    let src = "// RUN: pfir opt %s --passes=exp\n// RUN: pfir opt %s --sp\nfunc f() {\n}\n";
    let a = Analysis::new(src);
    let (passes, exp) = after_typing(&a, src, "exp", 3);
    assert_eq!(
        labels(&passes, CompletionKind::Pass),
        pfir::passes::known_passes()
    );
    assert_eq!(passes[0].replace, exp);
    let (options, sp) = after_typing(&a, src, "--sp", 4);
    assert!(labels(&options, CompletionKind::Option).contains(&"--split-input-file"));
    assert_eq!(options[0].replace, sp);
}

#[test]
fn comments_complete_filecheck_and_verify_directives() {
    let src = "// RUN: pfir opt %s | FileCheck %s --check-prefix=OUT\n// CH\nfunc f() {\n  // expec\n}\n// x y\n";
    let a = Analysis::new(src);
    let items = a.completions(at(src, "CH") + 2);
    let directives = labels(&items, CompletionKind::Directive);
    for d in [
        "RUN:",
        "CHECK:",
        "CHECK-NEXT:",
        "CHECK-LABEL:",
        "OUT-DAG:",
        "expected-error",
        "expected-remark",
    ] {
        assert!(directives.contains(&d), "{d}");
    }
    let e = items.iter().find(|c| c.label == "expected-error").unwrap();
    assert_eq!(e.insert_text, "expected-error {{${1:message}}}");
    assert_eq!(
        labels(
            &a.completions(at(src, "expec") + 5),
            CompletionKind::Directive
        )
        .len(),
        directives.len()
    );
    // Past the first word of a plain comment: nothing.
    assert!(a.completions(at(src, "x y") + 3).is_empty());
}

#[test]
fn completion_on_the_first_example_after_non_ascii_text() {
    let a = Analysis::new(FIRST);
    let items = a.completions(at(FIRST, "b, b_tid"));
    assert_eq!(
        labels(&items, CompletionKind::Variable),
        ["tids", "p", "a", "a_tid"]
    );
}

#[test]
fn completion_while_typing_an_incomplete_statement() {
    let src = "func f(n: i64) {\n  a = n\n  for i in range(n) {\n    b = i\n    c = \n  }\n}\n";
    let a = Analysis::new(src);
    let items = a.completions(at(src, "c = ") + 4);
    assert_eq!(labels(&items, CompletionKind::Variable), ["a", "i", "b"]);
    assert_eq!(labels(&items, CompletionKind::Parameter), ["n"]);
}
