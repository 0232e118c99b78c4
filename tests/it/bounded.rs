//! Bounded on the command line (issue 25): whatever the input, what pfir
//! writes is bounded by the input's size, not by its errors or its nesting.
//! Every bound is checked by size or count, never by time.

use std::path::Path;
use std::process::{Command, Output};

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

fn pfir(args: &[&str]) -> Output {
    Command::new(PFIR)
        .args(args)
        .output()
        .expect("running pfir")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// 30 KB of `(` (30,000 unclosed delimiters) and 30,000 unknown variables on
/// one 210 KB line: every format writes at most `--error-limit` errors, each
/// with its snippet cut to the labels, then a note counting the rest.
#[test]
fn diagnostics_of_a_small_file_stay_small() {
    let dir = tempfile::tempdir().unwrap();
    let parens = write(
        dir.path(),
        "parens.pfir",
        &format!(
            "func f() -> i64 {{\n  x = {}\n  return 0\n}}\n",
            "(".repeat(30_000)
        ),
    );
    let nope = write(
        dir.path(),
        "nope.pfir",
        &format!(
            "func f() -> i64 {{\n  x = {}nope\n  return 0\n}}\n",
            "nope + ".repeat(30_000)
        ),
    );
    for (file, left) in [(&parens, 29_950), (&nope, 29_951)] {
        for format in ["human", "short", "json"] {
            let out = pfir(&["check", file, &format!("--diagnostic-format={format}")]);
            assert_eq!(out.status.code(), Some(1));
            let stderr = String::from_utf8_lossy(&out.stderr);
            // 50 errors of at most a few hundred bytes each, plus the note.
            assert!(stderr.len() < 50 * 700, "{format}: {} bytes", stderr.len());
            assert!(
                stderr.contains(&format!("{left} more errors not shown")),
                "{format}: {stderr}"
            );
            let errors = stderr.matches("error[E00").count()
                + stderr.matches("\"severity\":\"error\"").count();
            assert_eq!(errors, 50, "{format}");
        }
    }
    // The limit is a flag; 0 shows them all.
    let with_limit = |limit: &str| {
        let limit = format!("--error-limit={limit}");
        let out = pfir(&["check", &nope, "--diagnostic-format=short", &limit]);
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let stderr = with_limit("7");
    assert_eq!(stderr.matches(": error[").count(), 7, "{stderr}");
    assert!(stderr.contains("29994 more errors not shown"), "{stderr}");
    let stderr = with_limit("0");
    assert_eq!(stderr.matches(": error[").count(), 30_001);
    assert!(!stderr.contains("not shown"));
}

/// `depth` nested `if true {` written without indentation.
fn nested_ifs(depth: usize) -> String {
    format!(
        "func f() -> i64 {{\n{}{}  return 0\n}}\n",
        "if true {\n".repeat(depth),
        "}\n".repeat(depth)
    )
}

/// Runs pfir and counts its stdout without holding it.
fn stdout_bytes(args: &[&str]) -> (Option<i32>, u64, String) {
    use std::io::Read;
    let mut child = Command::new(PFIR)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running pfir");
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let n = std::io::copy(&mut child.stdout.take().unwrap(), &mut std::io::sink()).unwrap();
    let status = child.wait().unwrap();
    (status.code(), n, errors.join().unwrap())
}

/// 30,000 nested `if`s (360 KB) would print 1.8 GB of indentation (100,000:
/// 20 GB): `opt`
/// (to stdout or `-o`) and `fmt` refuse before writing a byte; 10,000
/// levels still print, whole.
#[test]
fn output_quadratic_in_nesting_is_refused_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let deep = write(dir.path(), "deep.pfir", &nested_ifs(30_000));
    let out = dir.path().join("out.pfir");
    let out = out.to_str().unwrap();
    for args in [
        vec!["opt", &deep],
        vec!["opt", &deep, "-o", out],
        vec!["fmt", &deep],
    ] {
        let (status, written, stderr) = stdout_bytes(&args);
        assert_eq!(status, Some(1), "{args:?}: {stderr}");
        assert_eq!(written, 0, "{args:?}");
        assert!(stderr.contains("too deeply nested to print"), "{stderr}");
        assert!(stderr.contains("error[E0006]"), "{stderr}");
    }
    assert!(!Path::new(out).exists());
    let fine = write(dir.path(), "fine.pfir", &nested_ifs(10_000));
    let (status, written, stderr) = stdout_bytes(&["opt", &fine]);
    assert_eq!(status, Some(0), "{stderr}");
    // Each level: `if true {` and `}` indented 2 * level, plus the rest.
    let indentation: u64 = (1..=10_000u64).map(|d| 4 * d).sum();
    let lines: u64 = (1..=10_000u64).map(|_| "if true {\n}\n".len() as u64).sum();
    assert_eq!(
        written,
        indentation + lines + "func f() -> i64 {\n  return 0\n}\n".len() as u64
    );
}

/// `fmt -i` keeps a byte order mark; refuses `/dev/stdin` at once (no
/// hang, no `/proc/self/fd/...` name; a FIFO: `tests/needs_tools/facilities.rs`); rewrites a file whose name
/// leaves no room for `.NAME.XXXXXX.pfir-tmp` within NAME_MAX.
#[test]
fn in_place_rewrites_are_safe() {
    let dir = tempfile::tempdir().unwrap();
    let bom = write(dir.path(), "bom.pfir", "\u{feff}func f() {\n    }\n");
    let out = pfir(&["fmt", "-i", &bom]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&bom).unwrap(),
        "\u{feff}func f() {\n}\n"
    );
    let out = pfir(&["fmt", "--check", &bom]);
    assert_eq!(out.status.code(), Some(0), "formatted, BOM and all");
    // A pipe as stdin: refused before reading, named as given.
    let mut child = Command::new(PFIR)
        .args(["fmt", "-i", "/dev/stdin"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot rewrite '/dev/stdin': it is a pipe"),
        "{stderr}"
    );
    assert!(!stderr.contains("/proc/"), "{stderr}");
    let long = write(
        dir.path(),
        &format!("{}.pfir", "n".repeat(245)),
        "func f() {\n    }\n",
    );
    for args in [vec!["fmt", "-i", &long], vec!["opt", &long, "-o", &long]] {
        let out = pfir(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read_to_string(&long).unwrap(), "func f() {\n}\n");
    }
}

/// `n` orchestration functions, each a nest of `depth` loops of unknown
/// trip count around a `submit` (issue 25: 100 x 20, each reaching its own
/// budget, cost 100 times one function's budget).
fn unknown_loop_nests(n: usize, depth: usize) -> String {
    let mut s = String::from("func k() {\n}\n\n");
    for i in 0..n {
        s += &format!(
            "orchestration func main{i}(m: i64) {{\n  manual {{\n    tids = array.create(4, task_id)\n"
        );
        for d in 0..depth {
            s += &format!("for v{d} in range(m) {{\n");
        }
        s += "t = submit k(deps=[tids])\n";
        s += &"}\n".repeat(depth);
        s += "  }\n}\n\n";
    }
    s
}

/// `run`'s budget was used up, overshot by at most the last step of the
/// evaluation that passed it.
fn assert_used_up(run: &pfir::analysis::RunBudget) {
    assert!(
        run.spent() <= run.max_work() + 1_000,
        "spent {}",
        run.spent()
    );
    assert!(
        run.spent() >= run.max_work(),
        "the run's budget was used up"
    );
}

/// `--verify-deps` and `pfir graph` spend one work budget for the whole
/// run: 100 nests that each exhaust a function's budget spend the run's
/// budget once (plus the step that passed it), and the functions left out
/// are named in one warning. Small budgets keep the test quick; the
/// defaults are the same code.
#[test]
fn dependency_budgets_are_per_run() {
    use pfir::analysis::{Limits, RunBudget, verify_dependencies_within};
    let src = unknown_loop_nests(100, 20);
    let before = crate::support::module(&src);
    let mut after = before.clone();
    crate::support::run_pass(&mut after, &src).expect("the pass runs");
    let per = Limits {
        max_work: 20_000,
        ..Limits::default()
    };
    let run = RunBudget::new(100_000);
    let warnings = verify_dependencies_within(&before, &after, &per, &run).expect("no lost edge");
    assert_used_up(&run);
    let last = warnings.last().expect("a warning");
    assert!(
        last.message
            .contains("the run's work budget (100000 units, shared by every function) ran out"),
        "{}",
        last.message
    );
    assert!(
        last.message.contains("functions were not checked"),
        "{}",
        last.message
    );
    // Every function exhausts its own budget: 100_000 / (2 x 20_000) of
    // them, give or take one, are checked; one warning each, plus one.
    assert!(warnings.len() <= 5, "{}", warnings.len());

    let run = RunBudget::new(100_000);
    let opts = pfir::graph::Options {
        show: pfir::graph::Show::Both,
        expand: false,
        max_nodes: pfir::graph::DEFAULT_MAX_NODES,
        function: None,
    };
    let picture = pfir::graph::build_within("t".into(), &before, Some(&after), &opts, &run);
    assert_eq!(picture.functions.len(), 100, "every function is drawn");
    assert_used_up(&run);
}
