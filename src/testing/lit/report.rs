//! Formatting test results for people.

use super::{Failure, Step, Summary, TestResult};
use std::fmt::Write;

/// `PASS: path` or `FAIL: path`, with notes in parentheses.
pub fn result_line(r: &TestResult) -> String {
    let word = if r.passed() { "PASS" } else { "FAIL" };
    let mut line = format!("{word}: {}", r.path.display());
    if !r.notes.is_empty() {
        let _ = write!(line, " ({})", r.notes.join("; "));
    }
    line
}

fn indent(text: &str, out: &mut String) {
    for line in text.lines() {
        if line.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, "  {line}");
        }
    }
}

fn stream(title: &str, bytes: &[u8], out: &mut String) {
    if bytes.is_empty() {
        return;
    }
    let _ = writeln!(out, "--- {title} ---");
    let text = String::from_utf8_lossy(bytes);
    indent(&text, out);
    if !text.ends_with('\n') {
        out.push_str("  (no newline at end)\n");
    }
}

fn describe_step(step: &Step, failed: bool, out: &mut String) {
    let _ = writeln!(
        out,
        "RUN line {}: {}",
        step.run_line.line, step.run_line.text
    );
    let _ = writeln!(out, "command: {}", step.command);
    let stages = &step.result.stages;
    for (i, stage) in stages.iter().enumerate() {
        let which = if stages.len() > 1 {
            format!("stage {} (`{}`)", i + 1, stage.command)
        } else {
            format!("`{}`", stage.command)
        };
        if failed && !stage.passed() {
            let _ = writeln!(out, "{which} failed: {}", stage.describe_status());
        }
    }
    for (i, stage) in stages.iter().enumerate() {
        let title = if stages.len() > 1 {
            format!("stderr of stage {} (`{}`)", i + 1, stage.command)
        } else {
            format!("stderr of `{}`", stage.command)
        };
        stream(&title, &stage.stderr, out);
    }
    stream("stdout", &step.result.stdout, out);
}

/// What went wrong, for a failed test: the RUN line, the command as run,
/// which stage failed with what status, every stage's standard error (so
/// FileCheck's report) and the pipeline's output. Empty for a pass.
pub fn failure_report(r: &TestResult) -> String {
    let mut out = String::new();
    match &r.failure {
        None => {}
        Some(Failure::Unresolved(message)) => {
            let _ = writeln!(out, "{}: {message}", r.path.display());
        }
        Some(Failure::BadRunLine { line, message }) => {
            let _ = writeln!(
                out,
                "{}:{line}: cannot parse the RUN line: {message}",
                r.path.display()
            );
        }
        Some(Failure::Failed) => {
            if let Some(step) = r.steps.last() {
                describe_step(step, true, &mut out);
            }
            if r.temp_dir.exists() {
                let _ = writeln!(out, "temporary files kept in {}", r.temp_dir.display());
            }
        }
    }
    out
}

/// The commands a test ran, for `-v` on a passing test.
pub fn command_log(r: &TestResult) -> String {
    let mut out = String::new();
    for step in &r.steps {
        let _ = writeln!(out, "RUN line {}: {}", step.run_line.line, step.command);
    }
    out
}

/// The closing lines of a run: the failed tests, then the totals.
pub fn summary(s: &Summary, elapsed: std::time::Duration) -> String {
    let mut out = String::new();
    if !s.failed.is_empty() {
        let _ = writeln!(out, "\nFailed tests ({}):", s.failed.len());
        for p in &s.failed {
            let _ = writeln!(out, "  {}", p.display());
        }
    }
    let _ = writeln!(
        out,
        "\n{} test{} in {:.2}s: {} passed, {} failed",
        s.total(),
        if s.total() == 1 { "" } else { "s" },
        elapsed.as_secs_f64(),
        s.passed,
        s.failed.len()
    );
    out
}
