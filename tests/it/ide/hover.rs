//! Hover and inlay hints, including the pass's decision on loops.

use super::{FIRST, at, nth};
use pfir::ide::{Analysis, InlayHintKind};

fn hover_md(a: &Analysis, offset: usize) -> String {
    a.hover(offset).expect("a hover").markdown
}

#[test]
fn hover_shows_types_of_values_and_what_introduced_them() {
    let a = Analysis::new(FIRST);
    let h = a.hover(nth(FIRST, "tids", 1) + 1).unwrap();
    assert_eq!(&FIRST[h.range.clone()], "tids");
    assert!(
        h.markdown.contains("tids: array<task_id, 4>"),
        "{}",
        h.markdown
    );
    assert!(h.markdown.contains("binding (type inferred)"));
    let n = hover_md(&a, at(FIRST, "n: i64"));
    assert!(n.contains("n: i64") && n.contains("parameter"), "{n}");
    let p = hover_md(&a, at(FIRST, "p in"));
    assert!(p.contains("p: index") && p.contains("loop variable"), "{p}");
    let tid = hover_md(&a, at(FIRST, "a_tid"));
    assert!(tid.contains("a_tid: task_id"), "{tid}");
}

#[test]
fn hover_shows_callee_signatures_and_built_in_ops() {
    let a = Analysis::new(FIRST);
    let k = hover_md(&a, nth(FIRST, "kernel", 1));
    assert!(k.contains("func kernel() -> task_id"), "{k}");
    let m = hover_md(&a, at(FIRST, "main"));
    assert!(
        m.contains("orchestration func main(n: i64) -> task_id"),
        "{m}"
    );
    let op = hover_md(&a, at(FIRST, "array.create") + 7);
    assert!(
        op.contains("array.create(n, dtype) -> array<dtype, n>"),
        "{op}"
    );
    assert!(op.contains("Creates an array"), "{op}");
    let src = "func f() {\n  t = tensor.load(1)\n}\n";
    let b = Analysis::new(src);
    let unknown = hover_md(&b, at(src, "tensor.load"));
    assert!(unknown.contains("result type is unknown"), "{unknown}");
}

#[test]
fn hover_on_a_compressed_loop_shows_the_pass_decision() {
    let a = Analysis::new(FIRST);
    let h = a.hover(at(FIRST, "for p")).unwrap();
    assert_eq!(&FIRST[h.range.clone()], "for p in parallel(4) {");
    assert!(h.markdown.contains("compressed"), "{}", h.markdown);
    assert!(
        h.markdown.contains(
            "inserted phase fence barrier `phase_fence_barrier_0_tid` for `tids`: \
             4 producers x 8 consumers, 32 dependency edges -> 12"
        ),
        "{}",
        h.markdown
    );
    // The loop kind keyword is in the header too.
    assert_eq!(a.hover(at(FIRST, "parallel")).unwrap().range, h.range);
}

const DIRECT: &str = "func k() {
}

orchestration func main() {
  manual {
    t4 = array.create(4, task_id)
    for i in range(1) {
      a = submit k(deps=[t4])
    }
    for j in range(3) {
      u = system.task_invalid()
      t4b = array.update_element(t4, j, u)
      b = submit k(deps=[t4])
      c = submit k(deps=[t4])
    }
  }
  auto {
    for q in range(2) {
      d = submit k()
    }
  }
}
";

#[test]
fn hover_on_a_direct_loop_says_why_it_stays_direct() {
    let a = Analysis::new(DIRECT);
    let small = hover_md(&a, at(DIRECT, "for i"));
    assert!(small.contains("stays direct"), "{small}");
    assert!(
        small.contains(
            "kept `t4` as a direct dependency: not profitable: 4 producers x 1 consumer, \
             4 dependency edges -> 5"
        ),
        "{small}"
    );
    let updated = hover_md(&a, at(DIRECT, "for j"));
    assert!(
        updated.contains(
            "kept `t4` as a direct dependency: its storage is updated inside the loop body"
        ),
        "{updated}"
    );
    let auto = hover_md(&a, at(DIRECT, "for q"));
    assert!(auto.contains("not inside a `manual` scope"), "{auto}");
}

#[test]
fn no_decision_when_the_chunk_has_errors_or_the_function_is_not_orchestration() {
    let broken = FIRST.replace("deps=[tids])\n      b", "deps=[tidz])\n      b");
    let a = Analysis::new(&broken);
    let md = hover_md(&a, at(&broken, "for p"));
    assert!(md.contains("no decision: this chunk has errors"), "{md}");
    let plain = FIRST.replace("orchestration func", "func");
    let b = Analysis::new(&plain);
    let md = hover_md(&b, at(&plain, "for p"));
    assert!(
        md.contains("only rewrites loops of `orchestration` functions"),
        "{md}"
    );
    // Still, the types are known.
    assert!(hover_md(&a, at(&broken, "tids =")).contains("array<task_id, 4>"));
}

#[test]
fn hover_on_keywords_and_nothing_in_plain_comments() {
    let a = Analysis::new(FIRST);
    assert!(hover_md(&a, at(FIRST, "manual")).contains("manual runtime scope"));
    assert!(hover_md(&a, at(FIRST, "submit")).contains("Launches a task"));
    assert_eq!(a.hover(5), None);
    assert_eq!(a.hover(at(FIRST, "return")), None);
}

#[test]
fn hover_on_test_directives_in_comments() {
    let src = "// RUN: pfir opt %s | FileCheck %s --check-prefix=OUT\n// OUT-NEXT: x\n// CHECK-COUNT-2: y\n// a expected-error@+1 {{z}}\nfunc f() {\n}\n";
    let a = Analysis::new(src);
    let run = a.hover(at(src, "RUN")).unwrap();
    assert_eq!(&src[run.range.clone()], "RUN:");
    assert!(
        run.markdown.contains("`%s` is this file"),
        "{}",
        run.markdown
    );
    let next = hover_md(&a, at(src, "OUT-NEXT") + 5);
    assert!(
        next.starts_with("`OUT-NEXT`: FileCheck: the pattern must match on the line right after"),
        "{next}"
    );
    assert!(hover_md(&a, at(src, "CHECK-COUNT")).contains("must match 2 times"));
    let e = hover_md(&a, at(src, "expected-error"));
    assert!(e.contains("expects an error"), "{e}");
    // The pattern text itself has no hover.
    assert_eq!(a.hover(at(src, "x\n")), None);
}

#[test]
fn inlay_hints_show_inferred_types_and_the_barrier() {
    let a = Analysis::new(FIRST);
    let hints = a.inlay_hints(0..FIRST.len());
    let shown: Vec<(usize, &str, InlayHintKind)> = hints
        .iter()
        .map(|h| (h.offset, h.label.as_str(), h.kind))
        .collect();
    let tids = at(FIRST, "tids =");
    let for_p = at(FIRST, "for p");
    assert_eq!(
        shown,
        [
            (tids + 4, ": array<task_id, 4>", InlayHintKind::Type),
            (
                for_p,
                "phase_fence_barrier_0_tid = system.task_dummy(deps=[tids])",
                InlayHintKind::Barrier
            ),
            (at(FIRST, "a, a_tid") + 1, ": task_id", InlayHintKind::Type),
            (at(FIRST, "a_tid") + 5, ": task_id", InlayHintKind::Type),
            (at(FIRST, "b, b_tid") + 1, ": task_id", InlayHintKind::Type),
            (at(FIRST, "b_tid") + 5, ": task_id", InlayHintKind::Type),
        ]
    );
    // Only the hints inside the range.
    let few = a.inlay_hints(for_p..for_p + 3);
    assert_eq!(few.len(), 1);
    assert_eq!(few[0].kind, InlayHintKind::Barrier);
}

#[test]
fn inlay_hints_skip_annotated_discarded_and_unknown_values() {
    let src = "func f() {\n  x: i32 = 1\n  _ = 2\n  t = tensor.load(1)\n  r = for i in range(2) iter(acc = 0) {\n    yield acc\n  }\n}\n";
    let a = Analysis::new(src);
    let hints: Vec<(usize, String)> = a
        .inlay_hints(0..src.len())
        .into_iter()
        .map(|h| (h.offset, h.label))
        .collect();
    assert_eq!(
        hints,
        [
            (at(src, "r =") + 1, ": i64".to_string()),
            (at(src, "acc =") + 3, ": i64".to_string()),
        ]
    );
}
