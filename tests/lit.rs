//! The lit harness: every `.pfir` file under `tests/` with `// RUN:` lines is
//! run through the `pfir test` runner as its own named test (the name is
//! its path relative to `tests/`), plus a few checks of the runner itself
//! and the tests that need a tool which may be missing here
//! (`tests/needs_tools/`: reported as ignored, with the reason, where it is).
//!
//! Each test is one `pfir test FILE` process (the binary the RUN lines
//! name, which runs pfir's own commands in-process): the harness knows
//! the runner only through its command line, as a user does.
//!
//! `cargo test --test lit -- verify-diagnostics` runs the tests whose name
//! contains `verify-diagnostics`. With `PFIR_UPDATE_CHECKS=1`, each test's
//! CHECK lines are first regenerated from the current output
//! (`pfir test --update`), like `UPDATE_EXPECT=1` in rust-analyzer.

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "needs_tools/mod.rs"]
mod needs_tools;

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

/// The environment variable that makes the harness regenerate checks.
const UPDATE_ENV: &str = "PFIR_UPDATE_CHECKS";

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// Whether `PFIR_UPDATE_CHECKS` asks for updating (`1`, `true` or `yes`).
fn update_requested_by_env() -> bool {
    std::env::var(UPDATE_ENV)
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// `file` run by `pfir test` alone: passed, unsupported (shown as ignored,
/// never as passed, with the runner's reason) or failed with its report.
fn run_one(file: &Path, update: bool) -> Result<Completion, Failed> {
    let file_arg = file.display().to_string();
    // A hung test fails instead of hanging `cargo test`.
    let mut args = vec!["test", "--timeout", "300", &file_arg];
    if update {
        args.insert(1, "--update");
    }
    let (status, stdout, stderr) = pfir(&args);
    if status == 0
        && let Some(line) = stdout.lines().next()
        && let Some(rest) = line.strip_prefix("UNSUPPORTED: ")
    {
        let why = rest.strip_prefix(file_arg.as_str()).unwrap_or(rest).trim();
        let why = why.strip_prefix('(').and_then(|w| w.strip_suffix(')'));
        return Ok(Completion::ignored_with(format!(
            "unsupported: {}",
            why.unwrap_or(rest)
        )));
    }
    if status == 0 && stdout.starts_with("PASS: ") {
        Ok(Completion::Completed)
    } else {
        Err(Failed::from(format!(
            "`pfir test` exited with status {status}\n{stdout}{stderr}"
        )))
    }
}

fn lit_trials() -> Vec<Trial> {
    let root = tests_dir();
    let files = lit::discover(std::slice::from_ref(&root)).expect("reading tests/");
    let update = update_requested_by_env();
    files
        .into_iter()
        .map(|file| {
            let name = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .to_string_lossy()
                .replace('\\', "/");
            Trial::ignorable_test(name, move || run_one(&file, update))
        })
        .collect()
}

/// Runs `pfir ARGS` and returns (status, stdout, stderr).
fn pfir(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(PFIR)
        .args(args)
        .output()
        .expect("running pfir");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ensure(cond: bool, what: &str, output: &str) -> Result<(), Failed> {
    if cond {
        Ok(())
    } else {
        Err(format!("{what}; the output was:\n{output}").into())
    }
}

fn inputs(name: &str) -> String {
    tests_dir()
        .join("lit/runner/Inputs")
        .join(name)
        .display()
        .to_string()
}

/// A CHECK that cannot match makes the test FAIL, and the report shows the
/// RUN line, the command, which stage failed with what status, and
/// FileCheck's standard error.
fn broken_check_is_reported() -> Result<(), Failed> {
    let file = inputs("broken-check.pfir");
    let (status, stdout, _) = pfir(&["test", &file]);
    ensure(status == 1, "exit status 1 expected", &stdout)?;
    for needle in [
        format!("FAIL: {file}"),
        "RUN line 3: pfir opt %s | FileCheck %s".to_string(),
        "command: pfir opt ".to_string(),
        "stage 2 (`FileCheck ".to_string(),
        "failed: exit status".to_string(),
        "--- stderr of stage 2 (`FileCheck ".to_string(),
        "Failed Tests (1):".to_string(),
        "Testing Time: ".to_string(),
        "Total Discovered Tests: 1\n  Failed: 1 (100.00%)\n".to_string(),
    ] {
        ensure(
            stdout.contains(&needle),
            &format!("missing {needle:?}"),
            &stdout,
        )?;
    }
    Ok(())
}

/// `--filter`, `--jobs`, `-v`, and the exit status of a passing run.
fn filter_jobs_verbose() -> Result<(), Failed> {
    let dir = tests_dir().join("lit/runner");
    let dir = dir.display().to_string();
    let (status, stdout, _) = pfir(&["test", "-j", "2", "-v", "--filter", "pipelines", &dir]);
    ensure(status == 0, "exit status 0 expected", &stdout)?;
    ensure(
        stdout.contains("PASS: ") && stdout.contains("pipelines.pfir"),
        "the filtered test should pass",
        &stdout,
    )?;
    ensure(stdout.contains("  RUN line "), "-v lists commands", &stdout)?;
    ensure(
        stdout.contains(
            "Total Discovered Tests: 3\n  Excluded: 2 (66.67%)\n  Passed  : 1 (33.33%)\n",
        ),
        "exactly one test run, two left out by the filter",
        &stdout,
    )?;
    let (status, stdout, stderr) = pfir(&["test", "/nonexistent/pfir/tests"]);
    ensure(
        status == 1,
        "a missing path is an error",
        &(stdout + &stderr),
    )?;
    Ok(())
}

/// `pfir test --update` writes checks from the command's output, leaves
/// the file alone when they are current, and the test then passes.
fn update_round_trip() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let test = dir.path().join("t.pfir");
    let output = dir.path().join("output.txt");
    std::fs::write(
        &output,
        "func kernel() -> task_id {\n  return system.task_invalid()\n}\n",
    )
    .map_err(|e| e.to_string())?;
    let original = "// RUN: cat %S/output.txt | FileCheck %s\n\n// CHECK: old\nfunc kernel() -> task_id {\n  return system.task_invalid()\n}\n";
    std::fs::write(&test, original).map_err(|e| e.to_string())?;
    let test_arg = test.display().to_string();
    let (status, stdout, _) = pfir(&["test", "--update", &test_arg]);
    ensure(
        status == 0 && stdout.contains("(checks updated)"),
        "the first update rewrites the checks, and the test then passes",
        &stdout,
    )?;
    let updated = std::fs::read_to_string(&test).map_err(|e| e.to_string())?;
    let expected = "// RUN: cat %S/output.txt | FileCheck %s\n\n// CHECK-LABEL: func kernel() -> task_id {\n// CHECK-NEXT:   return system.task_invalid()\n// CHECK-NEXT: }\nfunc kernel() -> task_id {\n  return system.task_invalid()\n}\n";
    ensure(updated == expected, "generated checks", &updated)?;
    let mtime = std::fs::metadata(&test)
        .and_then(|m| m.modified())
        .map_err(|e| e.to_string())?;
    let (status, stdout, _) = pfir(&["test", "--update", &test_arg]);
    ensure(
        status == 0 && !stdout.contains("checks updated"),
        "the second update changes nothing",
        &stdout,
    )?;
    let mtime2 = std::fs::metadata(&test)
        .and_then(|m| m.modified())
        .map_err(|e| e.to_string())?;
    ensure(mtime == mtime2, "an unchanged file is not rewritten", "")?;
    let again = std::fs::read_to_string(&test).map_err(|e| e.to_string())?;
    ensure(again == expected, "still the same file", &again)?;
    Ok(())
}

/// `--verify-diagnostics` reports each mismatch at its place, with status 1.
fn verify_diagnostics_report() -> Result<(), Failed> {
    let file = tests_dir()
        .join("lit/verify-diagnostics/unmet-and-unexpected.pfir")
        .display()
        .to_string();
    let (status, stdout, stderr) = pfir(&[
        "opt",
        "--verify-diagnostics",
        "--diagnostic-format=short",
        &file,
    ]);
    ensure(status == 1, "exit status 1 expected", &stderr)?;
    let expected = format!(
        "{file}:7:7: error[E0026]: unexpected error: unknown variable `y`\n\
         {file}:8:6: error[E0026]: expected warning \"unknown variable\" was not produced\n"
    );
    ensure(
        stderr == expected,
        &format!("expected:\n{expected}"),
        &stderr,
    )?;
    ensure(stdout.is_empty(), "nothing printed on stdout", &stdout)?;
    // When everything matches: status 0 and no diagnostics.
    let ok = tests_dir()
        .join("lit/verify-diagnostics/semantic.pfir")
        .display()
        .to_string();
    let (status, _, stderr) = pfir(&["opt", "--verify-diagnostics", &ok]);
    ensure(status == 0 && stderr.is_empty(), "a clean pass", &stderr)
}

/// Each test's outcome in a JUnit file `pfir test` wrote: (class.name,
/// "pass" | "fail" | "skipped").
fn xunit_outcomes(xml: &str) -> Vec<(String, &'static str)> {
    let doc = roxmltree::Document::parse(xml).expect("xunit XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| {
            let name = format!(
                "{}.{}",
                n.attribute("classname").unwrap_or(""),
                n.attribute("name").unwrap_or("")
            );
            let outcome = if n.children().any(|c| c.has_tag_name("failure")) {
                "fail"
            } else if n.children().any(|c| c.has_tag_name("skipped")) {
                "skipped"
            } else {
                "pass"
            };
            (name, outcome)
        })
        .collect()
}

/// Every test of the repository gives the same verdict whether pfir's own
/// commands run in-process (the default) or as processes
/// (`--no-in-process`).
fn in_process_gives_the_same_verdicts() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut runs = Vec::new();
    for (name, extra) in [("in.xml", None), ("out.xml", Some("--no-in-process"))] {
        let xml = dir.path().join(name);
        let tests = tests_dir().display().to_string();
        let xml_arg = xml.display().to_string();
        let mut args = vec!["test", "-q", &tests, "--xunit-xml-output", &xml_arg];
        args.extend(extra);
        pfir(&args);
        let text = std::fs::read_to_string(&xml).map_err(|e| e.to_string())?;
        runs.push(xunit_outcomes(&text));
    }
    ensure(
        runs[0].len() > 100,
        "more than 100 tests were run",
        &format!("{:?}", runs[0]),
    )?;
    let differ: Vec<String> = runs[0]
        .iter()
        .zip(&runs[1])
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("{a:?} in-process, {b:?} as processes"))
        .collect();
    ensure(
        runs[0].len() == runs[1].len() && differ.is_empty(),
        "the same outcome both ways",
        &differ.join("\n"),
    )
}

/// A test of the runner itself.
type RunnerTest = fn() -> Result<(), Failed>;

fn main() {
    let args = Arguments::from_args();
    let mut trials = lit_trials();
    let runner_tests: [(&str, RunnerTest); 4] = [
        ("broken_check_is_reported", broken_check_is_reported),
        ("filter_jobs_verbose", filter_jobs_verbose),
        ("update_round_trip", update_round_trip),
        (
            "in_process_gives_the_same_verdicts",
            in_process_gives_the_same_verdicts,
        ),
    ];
    for (name, test) in runner_tests {
        trials.push(Trial::test(format!("runner::{name}"), test));
    }
    trials.push(Trial::test(
        "runner::verify_diagnostics_report",
        verify_diagnostics_report,
    ));
    trials.extend(needs_tools::trials());
    libtest_mimic::run(&args, trials).exit();
}
