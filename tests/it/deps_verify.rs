//! `verify_same_dependencies`: hand-written before/after pairs (good and
//! bad rewrites), and every golden input of the pass under `tests/passes/`.

use crate::support;

use pfir::analysis::{Limits, verify_same_dependencies};
use pfir::diagnostics::{Diagnostic, NoteKind};
use support::{SECTION1_BEFORE, module, section1_after};

/// Producers fill `tids`; 3 x 3 consumers read it: the compressible shape.
fn filled(consumer_deps: &str, barrier: &str) -> String {
    format!(
        "func k() {{
}}

orchestration func main(n: i64) {{
  manual {{
    tids = array.create(3, task_id)
    early = array.create(3, task_id)
    for i in range(3) {{
      t = submit k()
      _ = array.update_element(tids, i, t)
      e = array.update_element(early, 0, t)
    }}
    {barrier}
    for j in range(3) {{
      c = submit k(deps=[{consumer_deps}])
    }}
  }}
}}
"
    )
}

/// A kernel `k` and an orchestration `main` whose body is `body`.
fn main_with(body: &str) -> String {
    format!("func k() {{\n}}\n\norchestration func main() {{\n{body}}}\n")
}

/// `d`'s message holds `text`.
fn assert_says(d: &Diagnostic, text: &str) {
    assert!(d.message.contains(text), "{}", d.message);
}

fn check(before: &str, after: &str) -> Result<(), Diagnostic> {
    verify_same_dependencies(&module(before), &module(after))
}

/// The error of `before` -> `after`, whose message holds `says`.
fn rejected(before: &str, after: &str, says: &str) -> Diagnostic {
    let d = check(before, after).unwrap_err();
    assert_says(&d, says);
    d
}

#[test]
fn section1_example_pair_is_equivalent() {
    check(SECTION1_BEFORE, &section1_after()).unwrap();
    check(SECTION1_BEFORE, SECTION1_BEFORE).unwrap();
}

#[test]
fn correct_barrier_rewrite_is_equivalent() {
    let before = filled("tids", "");
    let after = filled("fence", "fence = system.task_dummy(deps=[tids])");
    check(&before, &after).unwrap();
    check(&after, &before).unwrap();
}

#[test]
fn dropped_edge_is_reported_at_the_consumer_with_the_producer_named() {
    let before = filled("tids", "");
    // A bad rewrite: the barrier reads `early`, whose one filled slot holds
    // the last producer only, so the first producer is lost.
    let after = filled("fence", "fence = system.task_dummy(deps=[early])");
    let d = rejected(&before, &after, "dependency lost");
    assert!(d.is_error());
    assert_says(&d, "`c = submit k` (loop iteration [0])");
    assert_says(
        &d,
        "no longer waits for task `t = submit k` (loop iteration [0])",
    );
    // The primary span is the consumer `submit` in `after`.
    assert_eq!(&after[d.primary.span.range()], "c = submit k(deps=[fence])");
    // A note and a secondary label name the producer.
    assert!(
        d.notes.iter().any(|n| n.kind == NoteKind::Note
            && n.message
                .starts_with("the producer is task `t = submit k` (loop iteration [0])")),
        "{:?}",
        d.notes
    );
    assert_eq!(d.secondary.len(), 1);
    assert_eq!(&after[d.secondary[0].span.range()], "t = submit k()");
}

#[test]
fn dropped_scalar_edge_is_reported() {
    let before = main_with("  a = submit k()\n  b = submit k(deps=[a])\n");
    let after = main_with("  a = submit k()\n  b = submit k()\n");
    let d = rejected(
        &before,
        &after,
        "`b = submit k` no longer waits for task `a = submit k`",
    );
    assert_eq!(&after[d.primary.span.range()], "b = submit k()");
}

#[test]
fn added_edge_is_reported() {
    let before = filled("early", "");
    let after = filled("fence", "fence = system.task_dummy(deps=[tids])");
    let d = rejected(&before, &after, "dependency added");
    assert_says(&d, "now waits for task `t = submit k` (loop iteration [0])");
}

#[test]
fn transitively_implied_edge_may_go() {
    // c's direct edge to a is implied through b: dropping it is not a loss.
    let before =
        main_with("  a = submit k()\n  b = submit k(deps=[a])\n  c = submit k(deps=[a, b])\n");
    let after = main_with("  a = submit k()\n  b = submit k(deps=[a])\n  c = submit k(deps=[b])\n");
    check(&before, &after).unwrap();
}

#[test]
fn missing_and_extra_tasks_are_reported() {
    let one = main_with("  a = submit k()\n");
    let two = main_with("  a = submit k()\n  b = submit k()\n");
    rejected(&two, &one, "no longer created");
    let d = rejected(&one, &two, "did not exist before");
    assert_eq!(&two[d.primary.span.range()], "b = submit k()");
}

#[test]
fn barrier_inside_the_loop_is_also_equivalent() {
    let before = filled("tids", "");
    let after = filled("fence", "").replace(
        "      c = submit k(deps=[fence])",
        "      fence = system.task_dummy(deps=[tids])\n      c = submit k(deps=[fence])",
    );
    check(&before, &after).unwrap();
}

/// Golden inputs of the pass: the rewritten module keeps every dependency,
/// and a second run changes nothing.
#[test]
fn golden_inputs_keep_their_dependencies() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/passes");
    let entries = std::fs::read_dir(&dir).expect("the pass's golden tests in tests/passes");
    let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "pfir"));
    files.sort();
    let mut checked = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for (_, chunk) in pfir::split_input(&text) {
            let (Some(before), _) = pfir::parse(chunk).into_parts() else {
                continue;
            };
            let mut after = before.clone();
            if support::run_pass(&mut after, &text).is_err() {
                continue;
            }
            if let Err(d) =
                pfir::analysis::verify_same_dependencies_with(&before, &after, &Limits::default())
            {
                panic!("{}: {}\n{:?}", path.display(), d.message, d.notes);
            }
            let mut twice = after.clone();
            support::run_pass(&mut twice, &text).unwrap();
            assert_eq!(
                pfir::print(&twice),
                pfir::print(&after),
                "{}: running the pass twice differs from once",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 20,
        "only {checked} golden chunks ran through the pass"
    );
}
