//! Bounded-exhaustive verification of `expand-manual-phase-fence`: every
//! program of `pfir::passes::exhaustive` up to [`size`] statements, each
//! through the three checks of `pfir::testkit::exhaustive` (dependencies
//! kept exactly, idempotence and round trip, the oracle's decisions). Larger
//! sizes: `cargo bench --bench exhaustive -- --size K`.

use pfir::passes::exhaustive::{EXTENTS, Extent};
use pfir::testkit::exhaustive::{RunOptions, SizeReport, run_size};
use std::collections::HashSet;

fn env(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// The extent whose programs `cargo test` runs one size further than the
/// others': the profit rule's boundaries (`1 x M`, `2 x 2`, `2 x 3`,
/// `4 x 2`, an unknown N) all show at size 2, the rules that need more
/// statements (safety, nesting, aliases) at size 3 whatever the extent.
const DEEPEST: Extent = Extent::Known(3);

/// The largest size `cargo test` runs at each extent: 2, and 3 at
/// [`DEEPEST`]. `PFIR_EXHAUSTIVE_SIZE=K` runs sizes up to K at every extent
/// (`PFIR_EXHAUSTIVE_EXTENT=E`, `1` to `4` or `n`, at that one only),
/// `PFIR_EXHAUSTIVE_FROM=J` from size J, and `PFIR_EXHAUSTIVE_FAIL_FAST=1`
/// stops at the first failing program: for checking a deliberate break.
fn plan() -> Vec<(Extent, usize)> {
    let only = std::env::var("PFIR_EXHAUSTIVE_EXTENT")
        .ok()
        .map(|e| Extent::parse(e.trim()).expect("PFIR_EXHAUSTIVE_EXTENT: 1 to 4 or n"));
    EXTENTS
        .into_iter()
        .filter(|&e| only.is_none_or(|o| o == e))
        .map(|e| match env("PFIR_EXHAUSTIVE_SIZE") {
            Some(k) => (e, k),
            None => (e, if e == DEEPEST { 3 } else { 2 }),
        })
        .collect()
}

fn describe(r: &SizeReport) -> String {
    let mut s = String::new();
    for (check, (count, program, failure)) in &r.failures {
        s.push_str(&format!(
            "size {} extent {}: {count} program(s) fail `{check}`; the first:\n{program}\n{failure:#?}\n\n",
            r.size, r.extent
        ));
    }
    s
}

/// Sizes in increasing order, every extent at each, so that the first
/// failure reported is at the smallest size that has one.
#[test]
fn every_small_program_passes_the_three_checks() {
    let opts = RunOptions {
        jobs: fsutil::parallel::default_jobs(),
        fail_fast: env("PFIR_EXHAUSTIVE_FAIL_FAST") == Some(1),
        ..RunOptions::default()
    };
    let plan = plan();
    let largest = plan.iter().map(|p| p.1).max().unwrap_or(0);
    let mut seen = HashSet::new();
    let mut failures = String::new();
    let mut total = 0;
    'sizes: for k in env("PFIR_EXHAUSTIVE_FROM").unwrap_or(1)..=largest {
        for &(extent, _) in plan.iter().filter(|p| k <= p.1) {
            let t = std::time::Instant::now();
            let r = run_size(extent, k, opts, &mut seen);
            eprintln!(
                "exhaustive: size {k} extent {extent}: {} distinct programs, {} duplicates, {} failed, {:.1} s",
                r.programs,
                r.duplicates,
                r.failed(),
                t.elapsed().as_secs_f64()
            );
            total += r.programs;
            failures.push_str(&describe(&r));
            if opts.fail_fast && !r.failures.is_empty() {
                break 'sizes;
            }
        }
    }
    assert!(total > 0, "no program enumerated");
    assert!(failures.is_empty(), "{failures}");
}

/// A count is multiplied at every level of a countable chain: at the
/// profit edge, `range(1)` over `range(2)` over `range(2)` around one
/// consumer of a 2-slot array is 2 x 4 (a barrier), not 2 x 2. A program of
/// size 4, which `cargo test`'s enumeration stops short of at extent 2.
#[test]
fn a_count_is_multiplied_at_every_level_of_a_chain() {
    use pfir::passes::exhaustive::oracle::Rule;
    use pfir::passes::exhaustive::{EPILOGUE, prelude};
    let body = "    for i0 in range(1) {\n      for i1 in range(2) {\n        \
                for i2 in range(2) {\n          t0 = submit k(deps=[tids])\n        }\n      }\n    }\n";
    let program = format!("{}{body}{EPILOGUE}", prelude(Extent::Known(2)));
    let checked = pfir::testkit::exhaustive::check_program(&program);
    assert_eq!(checked.failure, None, "{program}");
    for rule in [Rule::CountNestedFor, Rule::Compressed] {
        assert!(checked.rules.contains(&rule), "{rule:?} in {program}");
    }
}

/// A loop whose consumers wait on three arrays keeps its counts in a hash
/// table (more than two arrays), and that table merges into the counts of
/// the loop around it, which has consumers of its own: three barriers
/// before the outer loop (`2 x 6` for `tids`, `2 x 4` for each created
/// array). Eight statements, beyond every enumerated size.
#[test]
fn three_arrays_in_a_nested_loop_merge_into_the_outer_count() {
    use pfir::passes::exhaustive::oracle::Rule;
    use pfir::passes::exhaustive::{EPILOGUE, prelude};
    let body = "    x0 = array.create(2, task_id)\n    x1 = array.create(2, task_id)\n    \
                for i0 in range(2) {\n      t0 = submit k(deps=[tids])\n      \
                for i1 in range(2) {\n        t1 = submit k(deps=[tids])\n        \
                t2 = submit k(deps=[x0])\n        t3 = submit k(deps=[x1])\n      }\n    }\n";
    let program = format!("{}{body}{EPILOGUE}", prelude(Extent::Known(2)));
    let checked = pfir::testkit::exhaustive::check_program(&program);
    assert_eq!(checked.failure, None, "{program}");
    for rule in [Rule::CountNestedFor, Rule::Compressed] {
        assert!(checked.rules.contains(&rule), "{rule:?} in {program}");
    }
    let mut module = pfir::parse(&program)
        .into_parts()
        .0
        .expect("the program reads");
    crate::support::run_pass(&mut module, &program).expect("the pass runs");
    let out = pfir::print(&module);
    assert_eq!(out.matches("system.task_dummy").count(), 3, "{out}");
}

/// The oracle also agrees with the pass on every golden input of
/// `tests/passes/` (each `// -----` part of a file read on its own), except
/// the functions that already name a variable `phase_fence_barrier_*` (the
/// pass's barriers are told apart from the user's by name in the output).
#[test]
fn the_oracle_agrees_with_the_pass_on_every_golden_input() {
    use pfir::passes::exhaustive::oracle;
    use pfir::testkit::exhaustive::decisions_in_output;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/passes");
    let mut files = Vec::new();
    crate::support::pfir_files(&dir, &mut files);
    let (mut compared, mut disagreements) = (0, Vec::new());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("reading a golden test");
        for part in text.split("\n// -----\n") {
            let Some(before) = pfir::parse(part).into_parts().0 else {
                continue;
            };
            let mut after = before.clone();
            if crate::support::run_pass(&mut after, part).is_err() {
                continue;
            }
            for (fb, fa) in before.functions().iter().zip(after.functions()) {
                let named = fb
                    .vars
                    .iter()
                    .any(|(_, v)| fb.names.get(v.name).starts_with("phase_fence_barrier_"));
                if named {
                    continue;
                }
                compared += 1;
                let mut expected = oracle::decide(fb).decisions;
                let mut got = decisions_in_output(fa);
                expected.rewritten.sort();
                got.rewritten.sort();
                if expected != got {
                    disagreements.push(format!(
                        "{} `{}`: pass {got:?}, oracle {expected:?}",
                        file.display(),
                        fb.name
                    ));
                }
            }
        }
    }
    eprintln!("oracle vs pass on golden inputs: {compared} functions compared");
    assert!(compared > 50, "only {compared} functions compared");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// The oracle on the pass page's own examples, with the decisions written
/// out by hand (so that the oracle and the pass cannot agree by both
/// deciding nothing).
#[test]
fn the_oracle_decides_the_pages_examples() {
    use pfir::passes::exhaustive::oracle::{Decisions, Rule, decide};
    let head =
        "func k(i: index) {\n}\n\norchestration func main(n: i64, t: task_id) {\n  manual {\n";
    let decide_body = |body: &str| {
        let src = format!("{head}{body}  }}\n}}\n");
        let m = crate::support::module(&src);
        decide(m.function("main").expect("main"))
    };
    // Two arrays in one loop: barriers in order of first use; `c` (two
    // entries) is no consumer.
    let two = decide_body(
        "xs = array.create(4, task_id)\nys = array.create(4, task_id)\n\
         for p in parallel(4) {\na = submit k(p, deps=[ys])\n\
         b = submit k(p, deps=[xs, none])\nc = submit k(p, deps=[xs, a])\n}\n",
    );
    assert_eq!(
        two.decisions,
        Decisions {
            barriers: vec![(0, "ys".into()), (0, "xs".into())],
            rewritten: vec![(0, 0), (1, 1)],
        }
    );
    assert!(two.rules.contains(&Rule::MixedNotConsumer));
    // A parallel loop does not count the loop inside it: the inner
    // `range(4)` (loop 1) takes the barrier.
    let nested = decide_body(
        "tids = array.create(4, task_id)\nfor p in parallel(2) {\n\
         for r in range(4) {\na = submit k(r, deps=[tids])\n}\n}\n",
    );
    assert_eq!(nested.decisions.barriers, vec![(1, "tids".into())]);
    assert!(nested.rules.contains(&Rule::NoCountUnderParallel));
    // Sharpened rule 3: the yield of an update made before the loop.
    let before = decide_body(
        "tids = array.create(4, task_id)\nu = array.update_element(tids, 0, t)\n\
         r = for i in range(3) iter(acc = tids) {\na = submit k(i, deps=[tids])\nyield u\n}\n",
    );
    assert_eq!(before.decisions, Decisions::default());
    assert!(before.rules.contains(&Rule::YieldUpdateBefore));
    // The same loop yielding `acc` itself compresses.
    let itself = decide_body(
        "tids = array.create(4, task_id)\n\
         r = for i in range(3) iter(acc = tids) {\na = submit k(i, deps=[tids])\nyield acc\n}\n",
    );
    assert_eq!(itself.decisions.barriers, vec![(0, "tids".into())]);
}
