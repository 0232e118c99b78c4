//! Cooperative cancellation (`fsutil::cancel`): the work of an in-process
//! test stage (pfir's reader, passes and printer; FileCheck) stops at its
//! next checkpoint once its token is cancelled or past its deadline, and
//! runs unchanged without a token.

use fsutil::cancel::{self, Cancelled, Token};
use std::time::{Duration, Instant};

#[path = "../common/cancel_program.rs"]
mod cancel_program;
use cancel_program::program;

fn verify_deps() -> pfir::PipelineOptions {
    pfir::PipelineOptions {
        verify_deps: true,
        ..pfir::PipelineOptions::with_passes(&["expand-manual-phase-fence"])
    }
}

/// Runs `work` under a token that is cancelled just before `work` starts
/// (so only a checkpoint inside `work` can stop it); whether it stopped.
fn stops_inside(work: impl FnOnce()) -> bool {
    let token = Token::new();
    let finished = cancel::run(&token, || {
        token.cancel();
        work();
    });
    finished == Err(Cancelled)
}

#[test]
fn reading_the_passes_and_printing_each_observe_a_cancel() {
    let text = program(50);
    // Without a token, everything runs to its end, as before.
    let parsed = pfir::parse(&text);
    let diagnostics = format!("{:?}", parsed.diagnostics);
    let mut module = parsed.module.expect(&diagnostics);
    pfir::run_passes(&mut module, &verify_deps()).expect("the pass runs");
    let printed = pfir::print(&module);
    assert!(printed.contains("orchestration func orch49("));

    assert!(stops_inside(|| {
        pfir::parse(&text);
    }));
    let mut fresh = pfir::parse(&text).module.unwrap();
    assert!(stops_inside(|| {
        let _ = pfir::run_passes(&mut fresh, &verify_deps());
    }));
    assert!(stops_inside(|| {
        pfir::print(&module);
    }));
    assert!(stops_inside(|| {
        let _ = pfir::format(&text);
    }));
}

/// The hostile FileCheck stage: `n` identical regex CHECK-DAG lines on `n`
/// matching lines make each directive skip the matches of the ones before
/// it, n²/2 searches (minutes for n = 10,000). Under a deadline 1 s away
/// (long after the directives are read and the input scanned, so only
/// the matcher's loops are left) it stops at the deadline.
#[test]
fn a_pathological_check_dag_stops_at_its_deadline() {
    let n = 10_000;
    let checks = "// CHECK-DAG: {{[a]}}\n".repeat(n);
    let input = "a\n".repeat(n);
    let opts = filecheck::FileCheckOptions::default();
    let token = Token::new().with_deadline(Instant::now() + Duration::from_secs(1));
    let result = cancel::run(&token, || {
        filecheck::check(&checks, "checks", &input, "input", &opts).is_ok()
    });
    assert_eq!(result, Err(Cancelled));
    assert!(token.timed_out());
    // A token cancelled before the check starts: nothing is searched.
    let token = Token::new();
    token.cancel();
    let result = cancel::run(&token, || {
        filecheck::check(&checks, "checks", &input, "input", &opts).is_ok()
    });
    assert_eq!(result, Err(Cancelled));
}

/// The same hostile stage in `pfir test` (in-process: its files are under
/// the 1 MiB budget) stops at `--timeout`: it is reported timed out and
/// the run ends, where the stage alone would run for minutes.
#[cfg(unix)]
#[test]
fn pfir_test_stops_timed_out_in_process_stages() {
    let dir = tempfile::tempdir().unwrap();
    let n = 10_000;
    std::fs::write(dir.path().join("input.txt"), "a\n".repeat(n)).unwrap();
    let mut body = String::from("// RUN: FileCheck %s --input-file %S/input.txt\n");
    body.push_str(&"// CHECK-DAG: {{[a]}}\n".repeat(n));
    std::fs::write(dir.path().join("t.pfir"), body).unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pfir"))
        .args(["test", "-j", "1", "--timeout", "1"])
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let ended = crate::support::eventually(|| crate::support::process_ended(pid));
    if !ended {
        crate::support::kill_quietly(pid);
    }
    let out = child.wait_with_output().unwrap();
    assert!(ended, "pfir test did not end");
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.contains("ran longer than its time limit of 1s"),
        "{out}"
    );
    assert!(out.contains("` failed: timed out after"), "{out}");
}
