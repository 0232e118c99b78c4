//! Thousands of generated `.pfir` programs (see `support/generator.rs`):
//! they are valid, the evaluator is deterministic and agrees with the
//! printed-and-reread program, and `expand-manual-phase-fence` keeps every
//! task's set of transitive producers (`--verify-deps` agrees, on 8,000
//! programs per run, more with `PFIR_PASS_CASES`) and is idempotent.

use crate::support;

use pfir::analysis::{Limits, first_difference, task_graph, verify_same_dependencies_with};
use proptest::prelude::*;
use support::generator::{Program, program, render};

/// Programs per property and run.
const CASES: u32 = 2000;

/// Programs checked with `--verify-deps` after the pass, per run, unless
/// `PFIR_PASS_CASES` says how many. 8,000 cost about 22 s of CPU in the
/// dev profile (the largest share of `cargo test`); each run draws new
/// programs, and a search for a rare case sets `PFIR_PASS_CASES=200000`.
fn pass_cases() -> u32 {
    std::env::var("PFIR_PASS_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(8_000)
}

/// Budgets for generated programs: the rare huge one is compared as a
/// prefix (every task both graphs hold), which keeps the run short.
fn limits() -> Limits {
    Limits {
        max_tasks: 5_000,
        max_iterations: 20_000,
        max_work: 400_000,
        ..Limits::default()
    }
}

fn read(src: &str) -> Result<pfir::ir::Module, TestCaseError> {
    match pfir::parse(src).into_parts() {
        (Some(m), _) => Ok(m),
        (None, diags) => {
            let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
            Err(TestCaseError::fail(format!(
                "generated program rejected: {msgs:?}\n{src}"
            )))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_programs_are_valid_and_evaluate_deterministically(p in program()) {
        let src = render(&p);
        let m = read(&src)?;
        let a = task_graph(&m, "main", &limits());
        let b = task_graph(&m, "main", &limits());
        prop_assert_eq!(a.nodes.len(), b.nodes.len());
        prop_assert!(first_difference(&a, &b).is_none());
        for (x, y) in a.nodes.iter().zip(&b.nodes) {
            prop_assert_eq!(&x.key, &y.key);
            prop_assert_eq!(&x.preds, &y.preds);
        }
        // Programs start with four producers.
        prop_assert!(a.task_count() >= 4);
    }

    #[test]
    fn printed_program_has_the_same_graph(p in program()) {
        let src = render(&p);
        let m = read(&src)?;
        let printed = pfir::print(&m);
        let again = read(&printed)?;
        let a = task_graph(&m, "main", &limits());
        let b = task_graph(&again, "main", &limits());
        prop_assert_eq!(a.nodes.len(), b.nodes.len());
        prop_assert_eq!(first_difference(&a, &b), None);
        prop_assert_eq!(first_difference(&b, &a), None);
    }

}

/// The pass on one generated program: `--verify-deps` agrees (no lost or
/// added dependency) and, for one program in ten, running it twice equals
/// running it once.
fn pass_keeps_dependencies(p: &Program) -> Result<(), TestCaseError> {
    let src = render(p);
    let before = read(&src)?;
    let mut after = before.clone();
    if let Err(d) = support::run_pass(&mut after, &src) {
        return Err(TestCaseError::fail(format!("pass failed: {d:?}\n{src}")));
    }
    if let Err(d) = verify_same_dependencies_with(&before, &after, &limits()) {
        let printed = pfir::print(&after);
        return Err(TestCaseError::fail(format!(
            "{}\n{:?}\nbefore:\n{src}\nafter:\n{printed}",
            d.message, d.notes
        )));
    }
    // Idempotence on about one program in ten (as many as the other
    // properties check), which keeps the thousands of cases affordable.
    if !src.len().is_multiple_of(10) {
        return Ok(());
    }
    let mut twice = after.clone();
    support::run_pass(&mut twice, &src).map_err(|d| TestCaseError::fail(format!("{d:?}")))?;
    prop_assert_eq!(pfir::print(&twice), pfir::print(&after));
    if let Err(e) = pfir::ir::equality::modules_equal(&twice, &after) {
        return Err(TestCaseError::fail(format!(
            "running the pass twice differs from once: {e}\n{src}"
        )));
    }
    Ok(())
}

/// `--verify-deps` agrees with the pass on [`pass_cases`] generated
/// programs, split over the machine's cores (each share is an ordinary
/// proptest run, shrinking included) by the one parallel helper.
#[test]
fn pass_keeps_every_dependency_and_is_idempotent() {
    let threads = fsutil::parallel::default_jobs().clamp(1, 8) as u32;
    let total = pass_cases();
    let shares: Vec<u32> = (0..threads).collect();
    let failures: Vec<String> = fsutil::parallel::map(&shares, shares.len(), |&t| {
        let cases = total / threads + u32::from(t < total % threads);
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            cases,
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        runner
            .run(&program(), |p| pass_keeps_dependencies(&p))
            .err()
            .map(|e| e.to_string())
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
