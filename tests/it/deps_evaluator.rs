//! The dependency-graph evaluator on small programs with known DAGs.

use crate::support;

use pfir::analysis::{Limits, NodeKind, task_graph};
use support::{graph, module, waits, waits_of};

const K: &str = "func p() {\n}\n\n";

fn prog(body: &str) -> String {
    format!("{K}orchestration func main(n: i64, flag: bool) {{\n{body}\n}}\n")
}

fn w(body: &str) -> Vec<String> {
    waits_of(&prog(body))
}

#[test]
fn straight_line_deps() {
    assert_eq!(
        w("manual {
             a = submit p()
             b = submit p(deps=[a])
             c = submit p(deps=[b, none])
             d = submit p()
           }"),
        ["a <- []", "b <- [a]", "c <- [a b]", "d <- []"]
    );
}

#[test]
fn array_slots_and_full_array_deps() {
    assert_eq!(
        w("manual {
             tids = array.create(3, task_id)
             for i in range(3) {
               t = submit p()
               _ = array.update_element(tids, i, t)
             }
             first = array.get_element(tids, 0)
             one = submit p(deps=[first])
             for j in parallel(2) {
               all = submit p(deps=[tids])
             }
           }"),
        [
            "t@0 <- []",
            "t@1 <- []",
            "t@2 <- []",
            "one <- [t@0]",
            "all@0 <- [t@0 t@1 t@2]",
            "all@1 <- [t@0 t@1 t@2]"
        ]
    );
}

#[test]
fn strong_update_replaces_a_slot() {
    assert_eq!(
        w("tids = array.create(2, task_id)
           a = submit p()
           b = submit p()
           _ = array.update_element(tids, 0, a)
           _ = array.update_element(tids, 0, b)
           c = submit p(deps=[tids])"),
        ["a <- []", "b <- []", "c <- [b]"]
    );
}

#[test]
fn barrier_is_transparent() {
    let src = prog(
        "a = submit p()
         b = submit p()
         fence = system.task_dummy(deps=[a, b])
         fence2 = system.task_dummy(deps=[fence])
         c = submit p(deps=[fence2])",
    );
    let m = module(&src);
    let g = graph(&m);
    assert_eq!(waits(&m, &g), ["a <- []", "b <- []", "c <- [a b]"]);
    assert_eq!(
        g.nodes
            .iter()
            .filter(|n| n.key.kind == NodeKind::Barrier)
            .count(),
        2
    );
    // The same DAG without barriers compares equal.
    let direct = module(&prog(
        "a = submit p()
         b = submit p()
         c = submit p(deps=[a, b])",
    ));
    assert!(pfir::analysis::verify_same_dependencies(&direct, &m).is_ok());
}

#[test]
fn update_through_iter_arg_alias_is_seen_by_the_original() {
    assert_eq!(
        w("tids = array.create(2, task_id)
           r = for i in range(2) iter(acc = tids) {
             t = submit p()
             acc2 = array.update_element(acc, i, t)
             yield acc2
           }
           c = submit p(deps=[tids])
           d = submit p(deps=[r])"),
        ["t@0 <- []", "t@1 <- []", "c <- [t@0 t@1]", "d <- [t@0 t@1]"]
    );
}

#[test]
fn transitive_alias_and_in_place_update() {
    // An iter-arg of an iter-arg of `tids` is `tids`' storage.
    assert_eq!(
        w("tids = array.create(2, task_id)
           _ = for i in range(1) iter(a = tids) {
             _ = for j in range(1) iter(b = a) {
               t = submit p()
               _ = array.update_element(b, 1, t)
               yield b
             }
             yield a
           }
           c = submit p(deps=[tids])"),
        ["t@0,0 <- []", "c <- [t@0,0]"]
    );
}

#[test]
fn plain_binding_is_a_copy() {
    assert_eq!(
        w("tids = array.create(2, task_id)
           t = submit p()
           copy = tids
           _ = array.update_element(copy, 0, t)
           c = submit p(deps=[tids])
           d = submit p(deps=[copy])"),
        ["t <- []", "c <- []", "d <- [t]"]
    );
}

#[test]
fn update_result_is_a_copy_of_the_updated_array() {
    assert_eq!(
        w("tids = array.create(2, task_id)
           a = submit p()
           b = submit p()
           snap = array.update_element(tids, 0, a)
           _ = array.update_element(tids, 1, b)
           c = submit p(deps=[snap])
           d = submit p(deps=[tids])"),
        ["a <- []", "b <- []", "c <- [a]", "d <- [a b]"]
    );
}

#[test]
fn double_buffering() {
    assert_eq!(
        w("cur = array.create(2, task_id)
           nxt = array.create(2, task_id)
           _, _ = for s in range(2) iter(x = cur, y = nxt) {
             y_out = for i in range(2) iter(yy = y) {
               t = submit p(deps=[x])
               yy2 = array.update_element(yy, i, t)
               yield yy2
             }
             yield y, x
           }"),
        [
            "t@0,0 <- []",
            "t@0,1 <- []",
            "t@1,0 <- [t@0,0 t@0,1]",
            "t@1,1 <- [t@0,0 t@0,1]"
        ]
    );
}

#[test]
fn unknown_trip_loop_explores_zero_one_two_iterations() {
    let src = prog(
        "last = for i in range(n) iter(prev = none) {
           t = submit p(deps=[prev])
           yield t
         }
         c = submit p(deps=[last])",
    );
    let m = module(&src);
    let g = graph(&m);
    assert_eq!(
        waits(&m, &g),
        ["t@0 <- []", "t@1 <- [t@0]", "c <- [t@0 t@1]"]
    );
    assert!(
        g.approximations
            .iter()
            .any(|a| a.what.contains("unknown trip count"))
    );
    // A configurable bound.
    let limits = Limits {
        unknown_trip_iterations: 4,
        ..Limits::default()
    };
    assert_eq!(task_graph(&m, "main", &limits).task_count(), 5);
    let limits = Limits {
        unknown_trip_iterations: 0,
        ..Limits::default()
    };
    assert_eq!(task_graph(&m, "main", &limits).task_count(), 1);
}

#[test]
fn unknown_while_is_bounded_and_known_while_runs_exactly() {
    assert_eq!(
        w("c = while k < 3 iter(k = 0) {
             t = submit p()
             k2 = k + 1
             yield k2
           }"),
        ["t@0 <- []", "t@1 <- []", "t@2 <- []"]
    );
    assert_eq!(
        w("c = while flag iter(prev = none) {
             t = submit p(deps=[prev])
             yield t
           }
           d = submit p(deps=[c])"),
        ["t@0 <- []", "t@1 <- [t@0]", "d <- [t@0 t@1]"]
    );
}

#[test]
fn trip_counts_negative_zero_and_empty() {
    assert_eq!(
        w("for i in range(3, 0, -1) {\n t = submit p()\n }").len(),
        3
    );
    assert_eq!(
        w("for i in range(10, 0, -3) {\n t = submit p()\n }").len(),
        4
    );
    assert_eq!(w("for i in range(0, 3, 0) {\n t = submit p()\n }").len(), 0);
    assert_eq!(w("for i in range(5, 3) {\n t = submit p()\n }").len(), 0);
    assert_eq!(w("for i in unroll(-2, 2) {\n t = submit p()\n }").len(), 4);
    // Bounds computed from enclosing induction variables are constants too.
    assert_eq!(
        w("for i in range(3) {\n for j in range(i) {\n t = submit p()\n }\n }").len(),
        3
    );
}

#[test]
fn if_known_takes_one_branch_unknown_joins_both() {
    assert_eq!(
        w("a = submit p()
           b = submit p()
           x = if 1 < 2 {
             yield a
           } else {
             yield b
           }
           c = submit p(deps=[x])"),
        ["a <- []", "b <- []", "c <- [a]"]
    );
    assert_eq!(
        w("a = submit p()
           b = submit p()
           x = if flag {
             yield a
           } else {
             yield b
           }
           c = submit p(deps=[x])"),
        ["a <- []", "b <- []", "c <- [a b]"]
    );
}

#[test]
fn break_and_continue_follow_paths() {
    // `continue` at i == 1 skips the update; `break` at i == 2 stops.
    assert_eq!(
        w("tids = array.create(4, task_id)
           for i in range(4) {
             t = submit p()
             if i == 1 {
               continue
             }
             if i == 2 {
               break
             }
             _ = array.update_element(tids, i, t)
           }
           c = submit p(deps=[tids])"),
        ["t@0 <- []", "t@1 <- []", "t@2 <- []", "c <- [t@0]"]
    );
    // An unknown break: the loop may stop after any iteration.
    assert_eq!(
        w("last = for i in range(3) iter(prev = none) {
             t = submit p(deps=[prev])
             if flag {
               break
             }
             yield t
           }
           c = submit p(deps=[last])"),
        [
            "t@0 <- []",
            "t@1 <- [t@0]",
            "t@2 <- [t@0 t@1]",
            "c <- [t@0 t@1 t@2]"
        ]
    );
}

#[test]
fn unknown_index_is_a_weak_update() {
    let src = prog(
        "tids = array.create(2, task_id)
         a = submit p()
         b = submit p()
         _ = array.update_element(tids, 0, a)
         _ = array.update_element(tids, n, b)
         x = array.get_element(tids, 0)
         y = array.get_element(tids, 1)
         c = submit p(deps=[x])
         d = submit p(deps=[y])",
    );
    let m = module(&src);
    let g = graph(&m);
    assert_eq!(
        waits(&m, &g),
        ["a <- []", "b <- []", "c <- [a b]", "d <- [b]"]
    );
    assert!(
        g.approximations
            .iter()
            .any(|a| a.what.contains("unknown index"))
    );
}

#[test]
fn dynamic_size_arrays_are_summarised() {
    assert_eq!(
        w("tids = array.create(n, task_id)
           a = submit p()
           _ = array.update_element(tids, 0, a)
           x = array.get_element(tids, 1)
           c = submit p(deps=[x])"),
        ["a <- []", "c <- [a]"]
    );
}

#[test]
fn return_ends_the_path() {
    assert_eq!(
        w("a = submit p()
           if flag {
             return
           }
           b = submit p(deps=[a])"),
        ["a <- []", "b <- [a]"]
    );
}

#[test]
fn budgets_truncate_deterministically() {
    let src = prog("for i in range(1000000000) {\n t = submit p()\n }");
    let m = module(&src);
    let limits = Limits {
        max_tasks: 10,
        ..Limits::default()
    };
    let g = task_graph(&m, "main", &limits);
    assert!(g.truncated);
    assert_eq!(g.task_count(), 10);
    let src = prog("for i in range(1000000000) {\n }\n t = submit p()");
    let m = module(&src);
    let limits = Limits {
        max_iterations: 1000,
        ..Limits::default()
    };
    let g = task_graph(&m, "main", &limits);
    assert!(g.truncated);
}

#[test]
fn evaluation_is_deterministic() {
    let src = include_str!("../../examples/every_construct.pfir");
    let m = module(src);
    let a = graph(&m);
    let b = graph(&m);
    assert_eq!(waits(&m, &a), waits(&m, &b));
    assert!(a.task_count() > 0);
}

#[test]
fn other_functions_and_missing_functions() {
    let m = module(&prog("a = submit p()"));
    assert_eq!(task_graph(&m, "p", &Limits::default()).nodes.len(), 0);
    assert_eq!(task_graph(&m, "nope", &Limits::default()).nodes.len(), 0);
}

#[test]
fn deep_nests_are_bounded_by_the_work_budget() {
    // 2,000 nested `range(2)` loops: 2^2000 tasks, each keyed by 2,000
    // indices. The work budget stops the evaluation early, in bounded memory.
    let depth = 2000;
    let body = crate::support::nested_for_loops(depth, "t = submit p()\n");
    let src = prog(&body);
    let m = module(&src);
    let limits = Limits {
        max_work: 100_000,
        ..Limits::default()
    };
    let g = task_graph(&m, "main", &limits);
    assert!(g.truncated);
    assert!(
        g.task_count() <= 100_000 / depth,
        "{} tasks",
        g.task_count()
    );
}
