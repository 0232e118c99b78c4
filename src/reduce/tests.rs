//! Unit tests of the reduction: every candidate a semantic predicate sees
//! is a valid program, the result keeps the property and is 1-minimal,
//! the same input gives the same output at any job count, and RUN lines
//! and the comments of what remains are kept.

use super::predicate::{Oracle, Predicate};
use super::program::Program;
use super::{Judge, Observer, Settings, reduce};
use crate::ir::Module;
use crate::passes::PipelineOptions;
use std::sync::Mutex;

/// `examples/chained_phases.pfir` (a loop whose iter-arg the pass keeps
/// as a direct dependency), with a RUN line, a comment on that loop and
/// an unused function.
fn example() -> String {
    let text = include_str!("../../examples/chained_phases.pfir").replace(
        "    final = for",
        "    // The loop the remark is about.\n    final = for",
    );
    format!(
        "// RUN: pfir opt %s --passes=expand-manual-phase-fence --remarks\n{text}\n\
         func unused(a: i64) -> i64 {{\n  b = a + 1\n  return b\n}}\n"
    )
}

fn remark_oracle(re: &str) -> Oracle {
    let predicate = Predicate::Remark(regex::Regex::new(re).unwrap());
    let pipeline = PipelineOptions::with_passes(&["expand-manual-phase-fence"]);
    Oracle::new(predicate, pipeline, "t.pfir").unwrap()
}

/// Keeps the accepted texts.
#[derive(Default)]
struct Keep(Vec<String>);

impl Observer for Keep {
    fn step(&mut self, _: &str) {}
    fn accepted(&mut self, text: &str) -> Result<(), String> {
        self.0.push(text.to_string());
        Ok(())
    }
}

fn run(input: &str, judge: &dyn Judge, jobs: usize) -> (String, Vec<String>) {
    let mut keep = Keep::default();
    let settings = Settings {
        jobs,
        deadline: None,
        layout: Default::default(),
    };
    let outcome = reduce(input, judge, &settings, &mut keep).expect("the input is interesting");
    (outcome.text, keep.0)
}

/// A judge that checks every candidate it is shown.
struct Checking<'a> {
    inner: &'a Oracle,
    seen: Mutex<usize>,
}

fn checking(inner: &Oracle) -> Checking<'_> {
    Checking {
        inner,
        seen: Mutex::new(0),
    }
}

impl Judge for Checking<'_> {
    fn interesting(&self, text: &str, module: Option<&Module>) -> bool {
        let parsed = crate::api::parse(text);
        assert!(
            parsed.module.is_some() && module.is_some(),
            "a candidate that does not read back:\n{text}\n{:?}",
            parsed.diagnostics
        );
        *self.seen.lock().unwrap() += 1;
        self.inner.interesting(text, module)
    }
}

#[test]
fn every_candidate_of_a_semantic_predicate_reads_back_without_error() {
    let oracle = remark_oracle("it is an iter-arg of the loop");
    let judge = checking(&oracle);
    let (text, _) = run(&example(), &judge, 2);
    assert!(
        *judge.seen.lock().unwrap() > 20,
        "few candidates were tried"
    );
    assert!(text.lines().count() < 20, "{text}");
}

#[test]
fn the_result_keeps_the_property_and_every_improvement_was_written() {
    let oracle = remark_oracle("it is an iter-arg of the loop");
    let (text, accepted) = run(&example(), &oracle, 2);
    assert!(oracle.interesting(&text, None));
    assert_eq!(accepted.last(), Some(&text));
    // Each accepted program is smaller than the one before.
    for pair in accepted.windows(2) {
        assert!(super::program::smaller(&pair[1], &pair[0]));
    }
    assert!(text.lines().count() <= 15, "{text}");
}

/// Removing any single statement or function of the result loses the
/// property (or gives no valid program).
#[test]
fn the_result_is_one_minimal() {
    let oracle = remark_oracle("it is an iter-arg of the loop");
    let (text, _) = run(&example(), &oracle, 2);
    let program = Program::read(&text).expect("the result reads");
    let kinds = super::KINDS
        .iter()
        .filter(|k| matches!(k.name, "statements" | "functions"));
    for super::Kind { count, apply, .. } in kinds {
        let count = count(&program.module);
        assert!(count > 0);
        for i in 0..count {
            let mut mask = vec![false; count];
            mask[i] = true;
            if let Some(smaller) = program.edited(|m| apply(m, &mask)) {
                assert!(
                    !oracle.interesting(&smaller.text, Some(&smaller.module)),
                    "element {i} could go:\n{}",
                    smaller.text
                );
            }
        }
    }
}

#[test]
fn the_same_input_gives_the_same_output_at_any_job_count() {
    let oracle = remark_oracle("inserted phase fence barrier");
    let (one, _) = run(&example(), &oracle, 1);
    let (three, _) = run(&example(), &oracle, 3);
    let (again, _) = run(&example(), &oracle, 3);
    assert_eq!(one, three);
    assert_eq!(three, again);
}

#[test]
fn run_lines_stay_and_comments_go_with_their_code() {
    let oracle = remark_oracle("it is an iter-arg of the loop");
    let (text, _) = run(&example(), &oracle, 2);
    assert!(
        text.starts_with("// RUN: pfir opt %s --passes=expand-manual-phase-fence --remarks\n"),
        "{text}"
    );
    // The comment on the loop the remark is about stays; those on the
    // removed kernel's header (the file's first comments) go.
    assert!(text.contains("// The loop the remark is about."), "{text}");
    assert!(!text.contains("// Two chained phases."), "{text}");
}

/// Interesting while the text contains every one of the strings.
struct Contains(&'static [&'static str]);

impl Judge for Contains {
    fn interesting(&self, text: &str, _: Option<&Module>) -> bool {
        self.0.iter().all(|s| text.contains(s))
    }
}

/// Two kernels launched and a barrier on both of them.
const BARRIER: &str = "\
func k(out dst: tensor<[64], f32>) -> task_id {
  return system.task_invalid()
}

orchestration func main(x: tensor<[64], f32>) -> task_id {
  manual {
    r1, t1 = submit k(x)
    r2, t2 = submit k(x)
    b = system.task_dummy(deps=[t1, t2])
  }
  return system.task_invalid()
}
";

/// A barrier's `deps` entry goes, and with it the launch it named.
#[test]
fn barrier_deps_entries_are_removed() {
    let judge = Contains(&["submit", "system.task_dummy(deps=["]);
    let (text, _) = run(BARRIER, &judge, 2);
    assert_eq!(text.matches("submit").count(), 1, "{text}");
    assert!(!text.contains(", "), "{text}");
}

/// A task id and an integer returned, each computed by statements (and a
/// function) that nothing else needs.
const RETURNS: &str = "\
func k(out dst: tensor<[64], f32>) -> task_id {
  return system.task_invalid()
}

func twice(a: i64) -> i64 {
  return a * 2
}

func helper(a: i64) -> i64 {
  b = twice(a)
  return b
}

orchestration func main(x: tensor<[64], f32>) -> task_id {
  manual {
    r1, t1 = submit k(x)
    r2, t2 = submit k(x, deps=[t1])
  }
  return t2
}
";

/// Interesting while `.0` holds for the text.
struct Holds(fn(&str) -> bool);

impl Judge for Holds {
    fn interesting(&self, text: &str, _: Option<&Module>) -> bool {
        (self.0)(text)
    }
}

/// A return value becomes the simplest value of its type, so that what
/// computed it goes: here every launch (and the kernel), and the call of
/// `twice`, while a function of `i64` and the orchestration function
/// still return a value.
#[test]
fn return_values_are_replaced_so_their_producers_can_go() {
    let judge = Holds(|t| {
        t.contains("-> i64 {\n  return ")
            && t.split_once("orchestration func")
                .is_some_and(|(_, main)| main.contains("\n  return "))
    });
    let (text, _) = run(RETURNS, &judge, 2);
    assert!(!text.contains("submit"), "{text}");
    assert_eq!(text.matches("func").count(), 2, "{text}");
    assert!(text.contains("return system.task_invalid()"), "{text}");
    assert!(text.contains("return 0"), "{text}");
}

/// A text that does not parse is reduced by lines, RUN lines kept.
#[test]
fn a_syntax_error_is_reduced_by_lines() {
    let input = "// RUN: not pfir opt %s\nfunc a() {\n}\nfunc b( {\n}\nfunc c() {\n}\n";
    let code = crate::diagnostics::Code::parse("E0027").unwrap();
    let pipeline = PipelineOptions::with_passes(&["expand-manual-phase-fence"]);
    let oracle = Oracle::new(Predicate::Error(code), pipeline, "t.pfir").unwrap();
    assert!(
        oracle.interesting(input, None),
        "E0027 (an unclosed delimiter) is reported"
    );
    let (text, _) = run(input, &oracle, 2);
    assert!(text.starts_with("// RUN: not pfir opt %s\n"), "{text}");
    assert!(text.lines().count() <= 2, "{text}");
    assert!(oracle.interesting(&text, None));
}

/// The engine alone: the smallest subset of numbers holding 3 and 7.
#[test]
fn delta_debugging_finds_a_one_minimal_subset_whatever_the_jobs() {
    #[derive(Clone)]
    struct Numbers(Vec<u32>, String);
    impl super::delta::State for Numbers {
        fn text(&self) -> &str {
            &self.1
        }
    }
    let make = |v: Vec<u32>| {
        let s = format!("{v:?}");
        Numbers(v, s)
    };
    for jobs in [1, 2, 5] {
        let mut accept = |_: &Numbers| Ok(());
        let mut run = super::delta::Run {
            best: make((0..100).collect()),
            jobs,
            deadline: None,
            on_accept: &mut accept,
            tried: 0,
            timed_out: false,
        };
        let attempt = |base: &Numbers, chosen: &[bool], _: &str| {
            let kept: Vec<u32> = base
                .0
                .iter()
                .zip(chosen)
                .filter(|(_, c)| !**c)
                .map(|(&n, _)| n)
                .collect();
            (kept.contains(&3) && kept.contains(&7)).then(|| make(kept))
        };
        run.reduce_kind(&|n: &Numbers| n.0.len(), &attempt).unwrap();
        assert_eq!(run.best.0, [3, 7], "jobs {jobs}");
        assert!(run.tried < 100, "{} tries", run.tried);
    }
}

/// An in-process judge is not killed, but no candidate starts after the
/// deadline: a judge that takes 30 ms a candidate, with a deadline 100 ms
/// away, sees at most one batch (`jobs` candidates) start after it, and
/// the run reports that it was stopped.
#[test]
fn the_deadline_is_checked_between_in_process_candidates() {
    use std::time::{Duration, Instant};
    struct Slow<'a> {
        inner: &'a Oracle,
        deadline: Instant,
        late: Mutex<usize>,
    }
    impl Judge for Slow<'_> {
        fn interesting(&self, text: &str, module: Option<&Module>) -> bool {
            if Instant::now() >= self.deadline {
                *self.late.lock().unwrap() += 1;
            }
            std::thread::sleep(Duration::from_millis(30));
            self.inner.interesting(text, module)
        }
    }
    let oracle = remark_oracle("it is an iter-arg of the loop");
    let deadline = Instant::now() + Duration::from_millis(100);
    let judge = Slow {
        inner: &oracle,
        deadline,
        late: Mutex::new(0),
    };
    let settings = Settings {
        jobs: 2,
        deadline: Some(deadline),
        layout: Default::default(),
    };
    let outcome = reduce(&example(), &judge, &settings, &mut Keep::default()).unwrap();
    assert!(outcome.timed_out);
    assert!(*judge.late.lock().unwrap() <= 2, "{:?}", judge.late);
    assert!(oracle.interesting(&outcome.text, None));
}

/// The array an iter-arg starts from is created in the iter-arg itself,
/// and the `submit` launches the function it stands in, so the kernels
/// go: one function of one loop is left, with its comment.
#[test]
fn calls_move_into_iter_args_and_submits_launch_their_own_function() {
    let oracle = remark_oracle("it is an iter-arg of the loop");
    let (text, _) = run(&example(), &oracle, 2);
    assert_eq!(text.matches("func ").count(), 1, "{text}");
    let create = text.lines().find(|l| l.contains("array.create"));
    assert!(create.is_some_and(|l| l.contains("iter(")), "{text}");
    assert!(text.contains("// The loop the remark is about."), "{text}");
    assert_eq!(text.lines().count(), 11, "{text}");
}

fn run_compact(input: &str, judge: &dyn Judge) -> String {
    let settings = Settings {
        jobs: 2,
        deadline: None,
        layout: super::program::Layout::Compact,
    };
    reduce(input, judge, &settings, &mut Keep::default())
        .expect("the input is interesting")
        .text
}

/// In the compact layout every candidate still reads back, a function
/// with a comment inside keeps its lines, one without is one line, and
/// the result means what the formatted result means.
#[test]
fn the_compact_layout_puts_a_function_on_a_line_unless_a_comment_is_inside() {
    let oracle = remark_oracle("it is an iter-arg of the loop");
    let judge = checking(&oracle);
    let (formatted, _) = run(&example(), &oracle, 2);
    let compact = run_compact(&example(), &judge);
    assert!(
        compact.contains("// The loop the remark is about.\n"),
        "{compact}"
    );
    let print = |t: &str| crate::api::print(&crate::api::parse(t).module.unwrap());
    assert_eq!(print(&compact), print(&formatted));
    let bare = example().replace("    // The loop the remark is about.\n", "");
    let compact = run_compact(&bare, &judge);
    assert_eq!(
        compact.lines().count(),
        2,
        "the RUN line and the function:\n{compact}"
    );
    assert!(
        compact
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("orchestration func")
    );
}

#[test]
fn compact_joins_the_lines_of_each_function_without_a_comment() {
    let text =
        "// RUN: x\n\n// a\nfunc a() {\n  b = 1\n\n  c = 2\n}\n\nfunc d() {\n  e = 1 // f\n}\n";
    assert_eq!(
        super::program::compact(text),
        "// RUN: x\n// a\nfunc a() { b = 1 c = 2 }\nfunc d() {\n  e = 1 // f\n}\n"
    );
}
