//! `pfir reduce` through the binary: each predicate, the output file (the
//! input is never written; `-o` and its default), the timeouts, and the
//! rejected command lines.

use std::path::Path;
use std::process::{Command, Output};

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

/// Two kernels, a fan-out the pass compresses, a loop whose iter-arg it
/// keeps as a direct dependency, and an unused function.
const PROGRAM: &str = "\
// RUN: pfir opt %s --passes=expand-manual-phase-fence --remarks
func produce(out dst: tensor<[64], f32>) -> task_id {
  return system.task_invalid()
}

func consume(src: tensor<[64], f32>, out dst: tensor<[64], f32>) -> task_id {
  return system.task_invalid()
}

func helper(a: i64) -> i64 {
  b = a * 2 + 1
  return b
}

orchestration func main(x: tensor<[64], f32>, y: tensor<[64], f32>) -> task_id {
  manual {
    tids = array.create(4, task_id)
    seeded = for s in parallel(4) iter(acc = tids) {
      r, r_tid = submit produce(x)
      acc2 = array.update_element(acc, s, r_tid)
      yield acc2
    }
    final = for phase in range(2) iter(tids_a = seeded) {
      c, c_tid = submit consume(x, y, deps=[tids_a])
      yield tids_a
    }
    for tail in parallel(4) {
      e, e_tid = submit consume(x, y, deps=[final])
    }
  }
  return system.task_invalid()
}
";

fn pfir(args: &[&str]) -> Output {
    Command::new(PFIR)
        .args(args)
        .output()
        .expect("running pfir")
}

/// Writes PROGRAM (or `text`) to `dir/in.pfir` and reduces it with
/// `predicate` (the last arguments); returns the run and the result.
fn reduce(dir: &Path, text: &str, predicate: &[&str]) -> (Output, String) {
    let input = dir.join("in.pfir");
    std::fs::write(&input, text).unwrap();
    let out = dir.join("out.pfir");
    let mut args = vec![
        "reduce",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(predicate);
    let run = pfir(&args);
    assert_eq!(
        std::fs::read_to_string(&input).unwrap(),
        text,
        "the input was written"
    );
    let result = std::fs::read_to_string(&out).unwrap_or_default();
    (run, result)
}

/// [`reduce`], which must succeed: the result.
fn reduced(dir: &Path, text: &str, predicate: &[&str]) -> String {
    let (run, result) = reduce(dir, text, predicate);
    assert!(run.status.success(), "{}", stderr(&run));
    result
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The remarks `pfir opt --remarks` reports for `text`.
fn remarks(dir: &Path, text: &str) -> String {
    let path = dir.join("check.pfir");
    std::fs::write(&path, text).unwrap();
    let o = pfir(&[
        "opt",
        path.to_str().unwrap(),
        "--passes=expand-manual-phase-fence",
        "--remarks",
    ]);
    stderr(&o)
}

fn lines(text: &str) -> usize {
    text.lines().count()
}

#[test]
fn remark_keeps_the_matching_remark_and_shrinks_the_program() {
    let dir = tempfile::tempdir().unwrap();
    let result = reduced(dir.path(), PROGRAM, &["--remark", "it is an iter-arg"]);
    assert!(remarks(dir.path(), &result).contains("it is an iter-arg of the loop"));
    assert!(lines(&result) < lines(PROGRAM) / 2, "{result}");
    assert!(result.starts_with("// RUN: pfir opt %s"), "{result}");
    assert!(!result.contains("helper"), "{result}");
}

/// `--compact` writes the RUN line and the one function left on a line
/// each; the result still has the remark (the test command saw it laid
/// out so), and `pfir fmt` lays it out again (but for the blank line
/// after the RUN line, which `--compact` leaves out).
#[test]
fn compact_writes_a_function_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let result = reduced(
        dir.path(),
        PROGRAM,
        &["--compact", "--remark", "it is an iter-arg"],
    );
    assert!(remarks(dir.path(), &result).contains("it is an iter-arg of the loop"));
    assert_eq!(lines(&result), 2, "{result}");
    assert!(result.starts_with("// RUN: pfir opt %s"), "{result}");
    let formatted = reduced(dir.path(), PROGRAM, &["--remark", "it is an iter-arg"]);
    let path = dir.path().join("compact.pfir");
    std::fs::write(&path, &result).unwrap();
    let fmt = pfir(&["fmt", path.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&fmt.stdout),
        formatted.replacen("--remarks\n\n", "--remarks\n", 1)
    );
}

#[test]
fn error_reduces_a_program_that_does_not_read_by_lines() {
    let dir = tempfile::tempdir().unwrap();
    let broken = PROGRAM.replace("return b", "return nowhere");
    let (run, result) = reduce(dir.path(), &broken, &["--error", "E0010"]);
    assert!(stderr(&run).contains("by lines"), "{}", stderr(&run));
    let check = dir.path().join("r.pfir");
    std::fs::write(&check, &result).unwrap();
    let o = pfir(&[
        "check",
        check.to_str().unwrap(),
        "--diagnostic-format=short",
    ]);
    assert!(stderr(&o).contains("error[E0010]"), "{}", stderr(&o));
    assert!(lines(&result) <= 4, "{result}");
}

#[test]
fn verify_deps_fails_keeps_a_lost_dependency() {
    let dir = tempfile::tempdir().unwrap();
    let result = reduced(
        dir.path(),
        PROGRAM,
        &["--verify-deps-fails", "--passes=test-drop-deps"],
    );
    let check = dir.path().join("r.pfir");
    std::fs::write(&check, &result).unwrap();
    let o = pfir(&[
        "opt",
        check.to_str().unwrap(),
        "--passes=test-drop-deps",
        "--verify-deps",
    ]);
    assert!(stderr(&o).contains("error[E0022]"), "{}", stderr(&o));
    assert!(result.contains("deps="), "{result}");
    assert!(lines(&result) < lines(PROGRAM) / 2, "{result}");
}

#[test]
fn differs_from_keeps_a_difference_from_another_command() {
    let dir = tempfile::tempdir().unwrap();
    // `pfir opt` without passes prints the program unchanged, so the
    // outputs differ while the pass still rewrites something.
    let other = format!("{PFIR} opt");
    let result = reduced(dir.path(), PROGRAM, &["--differs-from", &other]);
    assert!(remarks(dir.path(), &result).contains("inserted phase fence barrier"));
    assert!(lines(&result) < lines(PROGRAM) / 2, "{result}");
}

#[test]
fn filecheck_keeps_passing_or_failing_checks() {
    let dir = tempfile::tempdir().unwrap();
    let checks = dir.path().join("checks.txt");
    std::fs::write(&checks, "CHECK: system.task_dummy\n").unwrap();
    let result = reduced(
        dir.path(),
        PROGRAM,
        &["--filecheck", checks.to_str().unwrap()],
    );
    assert!(remarks(dir.path(), &result).contains("inserted phase fence barrier"));
    // --expect-fail: interesting while the output fails the checks
    // (`helper` after `produce`, which CHECK-NOT forbids).
    std::fs::write(&checks, "CHECK: func produce\nCHECK-NOT: helper\n").unwrap();
    let failing = reduced(
        dir.path(),
        PROGRAM,
        &["--filecheck", checks.to_str().unwrap(), "--expect-fail"],
    );
    // The smallest failing output: no `produce` at all.
    assert!(!failing.contains("produce"), "{failing}");
    assert!(lines(&failing) <= 4, "{failing}");
}

#[test]
fn test_runs_the_command_with_the_candidate_last() {
    let dir = tempfile::tempdir().unwrap();
    let result = reduced(
        dir.path(),
        PROGRAM,
        &["--test", "sh", "-c", "grep -q 'consume(' \"$0\""],
    );
    assert!(result.contains("consume("), "{result}");
    assert!(lines(&result) <= 6, "{result}");
}

#[test]
fn the_default_output_is_next_to_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("case.pfir");
    std::fs::write(&input, PROGRAM).unwrap();
    let run = pfir(&["reduce", input.to_str().unwrap(), "--remark", "iter-arg"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(dir.path().join("case.reduced.pfir").is_file());
}

#[test]
fn an_input_without_the_property_is_an_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (run, result) = reduce(dir.path(), PROGRAM, &["--remark", "no such remark"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(stderr(&run).contains("not interesting"), "{}", stderr(&run));
    assert!(result.is_empty());
}

#[test]
fn output_onto_the_input_and_bad_predicates_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pfir");
    std::fs::write(&input, PROGRAM).unwrap();
    let path = input.to_str().unwrap();
    for args in [
        vec!["reduce", path, "-o", path, "--remark", "x"],
        vec!["reduce", path, "--error", "E9999"],
        vec!["reduce", path, "--remark", "("],
        vec!["reduce", path],
        vec!["reduce", path, "--remark", "x", "--error", "E0010"],
    ] {
        let run = pfir(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
    }
    assert_eq!(std::fs::read_to_string(&input).unwrap(), PROGRAM);
}

/// `--timeout` bounds the run with the built-in predicates too (checked
/// between candidates): at 0 the input's canonical form is the result. A
/// test of the input itself that outlives it is an error that says so
/// (not "not interesting"), and a limit too large to add to the clock is
/// no limit.
#[test]
fn timeout_bounds_the_run_with_builtin_predicates() {
    let dir = tempfile::tempdir().unwrap();
    let (run, result) = reduce(
        dir.path(),
        PROGRAM,
        &["--timeout", "0", "--remark", "iter-arg"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("stopped by --timeout"),
        "{}",
        stderr(&run)
    );
    assert!(result.contains("func helper"), "{result}");
    let (run, _) = reduce(
        dir.path(),
        PROGRAM,
        &["--timeout", "0.2", "--test", "sh", "-c", "sleep 5"],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("--timeout ran out"),
        "{}",
        stderr(&run)
    );
    let (run, result) = reduce(
        dir.path(),
        PROGRAM,
        &["--timeout", "1e18", "--remark", "iter-arg"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(!result.contains("func helper"), "{result}");
    for bad in ["-1", "nan", "x"] {
        let (run, _) = reduce(
            dir.path(),
            PROGRAM,
            &["--timeout", bad, "--remark", "iter-arg"],
        );
        assert_eq!(run.status.code(), Some(2), "{bad}: {}", stderr(&run));
    }
}

/// `--timeout` bounds each test and the whole run: a test command still
/// running when the time is up is killed, and the best so far is kept.
/// (Here every candidate without `helper` hangs; the bound of 60 s only
/// catches a run that is not stopped, it measures nothing.)
#[test]
fn timeout_kills_a_test_command_still_running() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pfir");
    std::fs::write(&input, PROGRAM).unwrap();
    let out = dir.path().join("out.pfir");
    let script = "grep -q 'func helper' \"$0\" || exec sleep 600";
    let mut child = Command::new(PFIR)
        .args(["reduce", input.to_str().unwrap(), "-o"])
        .arg(&out)
        .args(["--timeout", "1", "--test", "sh", "-c", script])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running pfir");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("--timeout 1 did not stop the run");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let run = child.wait_with_output().unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("stopped by --timeout"),
        "{}",
        stderr(&run)
    );
    let result = std::fs::read_to_string(&out).unwrap();
    assert!(result.contains("func helper"), "{result}");
}
