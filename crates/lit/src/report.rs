//! Formatting test results for people.

use super::{Failure, Step, Summary, TestResult};
use fsutil::xml::{escape_attribute, escape_text};
use std::fmt::Write;
use std::path::PathBuf;

/// `PASS: path` or `FAIL: path`, with notes in parentheses.
pub fn result_line(r: &TestResult) -> String {
    let word = r.outcome().word();
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
        Some(Failure::UnexpectedPass) => {
            let _ = writeln!(
                out,
                "{}: the test passed, but its XFAIL: line says it should fail",
                r.path.display()
            );
        }
        Some(Failure::TimedOut(limit)) => {
            let _ = writeln!(
                out,
                "the test ran longer than its time limit of {}s",
                limit.as_secs_f64()
            );
            if let Some(step) = r.steps.last() {
                describe_step(step, true, &mut out);
            }
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

/// The closing lines of a run, in lit's format: the failed tests, the
/// testing time (not under `quiet`), the number of tests discovered and
/// a line per result with its share; under `quiet`, only the failing
/// kinds.
pub fn summary(s: &Summary, elapsed: std::time::Duration, quiet: bool) -> String {
    let mut out = String::new();
    if !s.failed.is_empty() {
        let _ = writeln!(out, "********************");
        let _ = writeln!(out, "Failed Tests ({}):", s.failed.len());
        for p in &s.failed {
            let _ = writeln!(out, "  {}", p.display());
        }
        out.push('\n');
    }
    if !quiet {
        let _ = writeln!(out, "\nTesting Time: {:.2}s", elapsed.as_secs_f64());
    }
    let discovered = s.total() + s.excluded;
    let _ = writeln!(out, "\nTotal Discovered Tests: {discovered}");
    let plain_passes = s.passed - s.expected_failures;
    let plain_failures = s.failed.len() - s.unexpected_passes;
    // lit's order, and whether the kind is a failure.
    let groups = [
        ("Excluded", s.excluded, false),
        ("Skipped", s.skipped, false),
        ("Unsupported", s.unsupported, false),
        ("Passed", plain_passes, false),
        ("Expectedly Failed", s.expected_failures, false),
        ("Failed", plain_failures, true),
        ("Unexpectedly Passed", s.unexpected_passes, true),
    ];
    let shown: Vec<_> = groups
        .iter()
        .filter(|(_, n, failure)| *n > 0 && (*failure || !quiet))
        .collect();
    let label_width = shown.iter().map(|g| g.0.len()).max().unwrap_or(0);
    let count_width = shown
        .iter()
        .map(|g| g.1.to_string().len())
        .max()
        .unwrap_or(0);
    for (label, n, _) in shown {
        let _ = writeln!(
            out,
            "  {label:<label_width$}: {n:>count_width$} ({:.2}%)",
            *n as f64 * 100.0 / discovered.max(1) as f64
        );
    }
    out
}

/// One test for [`xunit_xml`].
#[derive(Clone, Debug)]
pub struct XunitCase {
    pub path: PathBuf,
    pub outcome: super::Outcome,
    pub seconds: f64,
    /// The failure report (FAIL, XPASS) or the reason it was skipped.
    pub message: String,
}

impl XunitCase {
    pub fn from_result(r: &TestResult) -> XunitCase {
        let outcome = r.outcome();
        let message = match outcome {
            super::Outcome::Unsupported => r.unsupported.clone().unwrap_or_default(),
            super::Outcome::Fail | super::Outcome::XPass => failure_report(r),
            _ => String::new(),
        };
        XunitCase {
            path: r.path.clone(),
            outcome,
            seconds: r.duration.as_secs_f64(),
            message,
        }
    }
}

/// A JUnit-style XML report (`--xunit-xml-output`), as lit writes it: one
/// `<testsuite>` named `pfir`, one `<testcase>` per test (`classname` the
/// test's directory with `.` for `/`, `name` its file name), `<failure>` for
/// FAIL and XPASS, `<skipped>` for UNSUPPORTED.
pub fn xunit_xml(cases: &[XunitCase], elapsed: std::time::Duration) -> String {
    let failures = cases.iter().filter(|c| !c.outcome.ok()).count();
    let skipped = cases
        .iter()
        .filter(|c| c.outcome == super::Outcome::Unsupported)
        .count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    let _ = writeln!(
        out,
        "<testsuite name=\"pfir\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\" time=\"{:.3}\">",
        cases.len(),
        elapsed.as_secs_f64()
    );
    for c in cases {
        let class = c
            .path
            .parent()
            .map(|p| p.display().to_string().replace(['/', '\\'], "."))
            .unwrap_or_default();
        let name = c
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let _ = write!(
            out,
            "<testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
            escape_attribute(&class),
            escape_attribute(&name),
            c.seconds
        );
        match c.outcome {
            super::Outcome::Fail | super::Outcome::XPass => {
                let _ = writeln!(
                    out,
                    ">\n  <failure message=\"{}\">{}</failure>\n</testcase>",
                    c.outcome.word(),
                    escape_text(&c.message)
                );
            }
            super::Outcome::Unsupported => {
                let _ = writeln!(
                    out,
                    ">\n  <skipped message=\"{}\"/>\n</testcase>",
                    escape_attribute(&c.message)
                );
            }
            _ => out.push_str("/>\n"),
        }
    }
    out.push_str("</testsuite>\n</testsuites>\n");
    out
}
