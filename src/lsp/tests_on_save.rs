//! Tests on save: the document's RUN lines run as `pfir test` would run
//! them, with the results put where they belong.
//!
//! Each RUN line's pipelines run in order. A pipeline that ends in
//! FileCheck runs its producer ([`super::producer`]) and then FileCheck
//! in-process (the `filecheck` crate, with the options parsed as `pfir
//! filecheck` parses them), so that each directive's result is known: a
//! CHECK line of this document that failed gets a problem on its line
//! (FileCheck's message and the closest candidate), and every CHECK line
//! that was tried remembers the output line it matched (code lenses,
//! go to definition into the `pfir-output:` document). Other pipelines run
//! through the lit runner; a failure is a problem on its RUN line.
//!
//! What runs is what [`super::trust`] allows under the run's
//! [`RunPolicy`]: a RUN line that needs consent is not run, and neither
//! are the ones after it (they may depend on it); it gets an information
//! notice saying why and how to allow it. Each pipeline runs under the
//! policy's timeout and can be cancelled. A producer whose output is
//! larger than the editor keeps ([`producer::EDITOR_CAPTURE_LIMIT`]) is not
//! checked on part of it: its RUN line gets a warning instead, so the
//! editor never reports a verdict `pfir test` would not give.

use super::producer::{self, Produced};
use super::trust::{self, RunPolicy};
use filecheck::DirectiveStatus;
use filecheck::args::parse_args;
use lit::run_line::Pipeline;
use std::path::Path;

/// One CHECK line of the document and what it matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// 0-based line of the directive in the document.
    pub line: usize,
    /// 0-based index of the RUN line whose output it was checked against.
    pub run: usize,
    pub status: DirectiveStatus,
    /// 0-based line of the output where the match (or the closest
    /// candidate of a miss) starts, and that line's text.
    pub output_line: Option<(usize, String)>,
}

/// How a [`Problem`] is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A failure of the test.
    Error,
    /// No verdict: the output was too large to check here.
    Warning,
    /// No verdict: the RUN line was not run (consent).
    Information,
}

/// A failure, or why there is no verdict, to show on a line of the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 0-based line.
    pub line: usize,
    pub message: String,
    pub level: Level,
}

/// What one run of the document's tests found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestReport {
    /// The document version that was tested.
    pub version: i32,
    pub checks: Vec<CheckResult>,
    pub problems: Vec<Problem>,
    /// Whether every RUN line passed.
    pub passed: bool,
}

impl TestReport {
    /// The result for the CHECK directive on 0-based `line` (its last one,
    /// for a CHECK-COUNT).
    pub fn check_on_line(&self, line: usize) -> Option<&CheckResult> {
        self.checks.iter().rev().find(|c| c.line == line)
    }
}

/// Runs the RUN lines of `text` (the document at `source`, version
/// `version`) under `policy`.
pub fn run_tests(text: &str, source: &Path, version: i32, policy: &RunPolicy) -> TestReport {
    let mut report = TestReport {
        version,
        passed: true,
        ..TestReport::default()
    };
    let scratch = match lit::ScratchDir::create(source) {
        Ok(s) => s,
        Err(e) => {
            report.fail(0, format!("cannot create a temporary directory: {e}"));
            return report;
        }
    };
    let subs = producer::substitutions(source, scratch.temp.clone());
    let lines = match producer::parsed_run_lines(text, &subs) {
        Ok(lines) => lines,
        Err(e) => {
            report.fail(line_of_message(&e), e);
            return report;
        }
    };
    let runner = producer::runner(policy);
    let scratch_dir = trust::scratch_dir(&subs.temp);
    for (index, (run, parsed)) in lines.into_iter().enumerate() {
        let run_line = run.line.saturating_sub(1);
        let pipelines = match parsed {
            Ok(p) => p,
            Err(e) => {
                report.fail(run_line, format!("the RUN line does not parse: {e}"));
                continue;
            }
        };
        if let Err(blocked) =
            trust::check_run_line(&run.text, &subs.custom, &pipelines, &scratch_dir, policy)
        {
            report.passed = false;
            report.problems.push(Problem {
                line: run_line,
                message: blocked.message(),
                level: Level::Information,
            });
            // The RUN lines after it may need what it would have done.
            break;
        }
        if cancelled(policy) {
            break;
        }
        for pipeline in pipelines {
            // What runs in-process here (a `pfir opt` producer, FileCheck)
            // stops at its next checkpoint once the pipeline's time is up
            // or the run is cancelled, as a process would be killed.
            let token = policy.token();
            let ran = fsutil::cancel::run(&token, || {
                run_pipeline(
                    &mut report,
                    &pipeline,
                    index,
                    run_line,
                    text,
                    source,
                    &runner,
                )
            });
            match ran {
                Ok(true) => {}
                Ok(false) => break,
                Err(fsutil::cancel::Cancelled) => {
                    let why = if token.timed_out() {
                        format!(
                            "`{}` timed out after {}s and was stopped",
                            pipeline.display(),
                            policy.timeout.as_secs_f64()
                        )
                    } else {
                        format!("`{}` was cancelled", pipeline.display())
                    };
                    report.fail(run_line, why);
                    break;
                }
            }
        }
    }
    report
}

/// The report of a run that could not start (`why`): an error on each
/// RUN line of `text`, so the failure is seen where the tests are.
pub fn not_started(text: &str, version: i32, why: &str) -> TestReport {
    let mut report = TestReport {
        version,
        ..TestReport::default()
    };
    let lines = lit::run_line::find_run_lines(text).unwrap_or_default();
    for run in &lines {
        report.fail(
            run.line.saturating_sub(1),
            format!("the tests could not run: {why}"),
        );
    }
    if report.problems.is_empty() {
        report.fail(0, format!("the tests could not run: {why}"));
    }
    report
}

/// The 0-based line a `line N: ...` message names (0 when it names none).
fn line_of_message(message: &str) -> usize {
    message
        .strip_prefix("line ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.trim().parse::<usize>().ok())
        .map_or(0, |n| n.saturating_sub(1))
}

impl TestReport {
    fn fail(&mut self, line: usize, message: String) {
        self.passed = false;
        self.problems.push(Problem {
            line,
            message,
            level: Level::Error,
        });
    }
}

fn cancelled(policy: &RunPolicy) -> bool {
    policy
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst))
}

/// Runs one pipeline of RUN line `index` (on 0-based `run_line`); returns
/// whether it passed.
fn run_pipeline(
    report: &mut TestReport,
    pipeline: &Pipeline,
    index: usize,
    run_line: usize,
    text: &str,
    source: &Path,
    runner: &producer::Runner,
) -> bool {
    let fc = pipeline
        .stages
        .iter()
        .position(|s| producer::is_filecheck(&s.argv[0]));
    let Some(fc) = fc.filter(|&i| i > 0 && !pipeline.stages[i].invert) else {
        let produced = producer::run(&pipeline.stages, text, source, runner);
        if !produced.passed {
            report.fail(run_line, failed_command(&produced));
        }
        return produced.passed;
    };
    let produced = producer::run(&pipeline.stages[..fc], text, source, runner);
    if !produced.passed {
        report.fail(run_line, failed_command(&produced));
    }
    if produced.dropped > 0 {
        report.passed = false;
        report.problems.push(Problem {
            line: run_line,
            message: format!(
                "not checked here: `{}` printed {} bytes, more than the editor keeps ({}); \
                 `pfir test` checks it whole",
                produced.command,
                produced.dropped + producer::EDITOR_CAPTURE_LIMIT as u64,
                crate::io::read::describe_size(producer::EDITOR_CAPTURE_LIMIT as u64)
            ),
            level: Level::Warning,
        });
        return false;
    }
    check_output(
        report,
        &pipeline.stages[fc],
        produced.stdout,
        index,
        run_line,
        text,
        source,
    ) && produced.passed
}

/// Runs the FileCheck stage `stage` of RUN line `index` on `output` (what
/// the stages before it printed), with its results put on the directive
/// lines of this document; returns whether FileCheck passed.
fn check_output(
    report: &mut TestReport,
    stage: &lit::run_line::Stage,
    output: String,
    index: usize,
    run_line: usize,
    text: &str,
    source: &Path,
) -> bool {
    let parsed = match parse_args(&stage.argv[1..]) {
        Ok(p) => p,
        Err(e) => {
            report.fail(run_line, format!("FileCheck: {}", e.0));
            return false;
        }
    };
    let Some(check_file) = parsed.check_file else {
        report.fail(run_line, "FileCheck: no check file given".into());
        return false;
    };
    let this_document = Path::new(&check_file) == source;
    let check_text = if this_document {
        text.to_string()
    } else {
        match read_regular(Path::new(&check_file)) {
            Ok(t) => t,
            Err(e) => {
                report.fail(
                    run_line,
                    format!("cannot read check file '{check_file}': {e}"),
                );
                return false;
            }
        }
    };
    // The stage's standard input is the output piped into it, whatever
    // name it is read under; nothing else but a regular file is read.
    let input = match parsed.input_file {
        Some(path) if names_stdin(Path::new(&path)) => output,
        Some(path) => match read_regular(Path::new(&path)) {
            Ok(t) => t,
            Err(e) => {
                report.fail(run_line, format!("cannot read input file '{path}': {e}"));
                return false;
            }
        },
        None => output,
    };
    let mut opts = parsed.opts;
    opts.color = false;
    opts.dump_input = filecheck::DumpInput::Never;
    let outcome = filecheck::check_detailed(&check_text, &check_file, &input, "<stdin>", &opts);
    if this_document {
        report_directives(report, &outcome, &input, index);
    }
    match outcome.result {
        Ok(()) => true,
        Err(failure) => {
            // Failures not on a line of this document (usage, an empty
            // input, another check file) go on the RUN line.
            let located = this_document && failure.errors.iter().all(|e| e.line > 0);
            if !located
                || outcome
                    .directives
                    .iter()
                    .all(|d| d.status == DirectiveStatus::Matched)
            {
                let first = failure
                    .report()
                    .lines()
                    .next()
                    .unwrap_or("FileCheck failed")
                    .to_string();
                report.fail(run_line, first);
            }
            false
        }
    }
}

/// Whether `path` names a process's standard input (`/dev/stdin`,
/// `/dev/fd/0`, `/proc/self/fd/0`, or a symlink to one).
fn names_stdin(path: &Path) -> bool {
    matches!(crate::io::atomic_write::names_own_stream(path), Ok(Some(0)))
}

/// The text of the regular file `path`; a stream, a device or a FIFO (the
/// server's own streams among them) is never opened.
fn read_regular(path: &Path) -> Result<String, String> {
    if lit::in_process::names_stream_or_device(path) {
        return Err("it is not a regular file (a stream, a device or a FIFO)".into());
    }
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// Each directive of this document that FileCheck tried: a problem on its
/// line when it failed, and the output line it matched (or its closest
/// candidate), by the output's lines as the editor shows them
/// (`fsutil::lines`: the `pfir-output:` document).
fn report_directives(
    report: &mut TestReport,
    outcome: &filecheck::FileCheckOutcome,
    input: &str,
    index: usize,
) {
    let lines = fsutil::lines::LineIndex::new(input);
    let output_line = |offset: usize| {
        let line = lines.line_of(offset);
        let range = lines.line_range(input, line).unwrap_or(0..0);
        (line, input[range].to_string())
    };
    for d in &outcome.directives {
        if d.check_line == 0 {
            continue;
        }
        let line = d.check_line - 1;
        let at = match d.status {
            DirectiveStatus::NotFound => d.candidate.as_ref().map(|c| c.start),
            _ => Some(d.input.start),
        };
        let matched = at.map(output_line);
        if d.status != DirectiveStatus::Matched {
            let mut message = d.message.clone();
            if let (DirectiveStatus::NotFound, Some((n, text))) = (d.status, &matched) {
                message.push_str(&format!(
                    "\nclosest candidate, output line {}: {}",
                    n + 1,
                    text.trim()
                ));
            }
            report.fail(line, message);
        }
        report.checks.push(CheckResult {
            line,
            run: index,
            status: d.status,
            output_line: matched,
        });
    }
}

fn failed_command(p: &Produced) -> String {
    let mut message = format!("`{}` failed", p.command);
    if !p.status.is_empty() {
        message.push_str(&format!(": {}", p.status));
    }
    let stderr: Vec<&str> = fsutil::lines::lines(&p.stderr).take(10).collect();
    if !stderr.is_empty() {
        message.push('\n');
        message.push_str(&stderr.join("\n"));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// A run that cannot start (no thread, stack or memory for it) is an
    /// error on each RUN line, saying why.
    #[test]
    fn a_run_that_cannot_start_is_reported_on_its_run_lines() {
        let text =
            "func k() {\n}\n// RUN: pfir check %s\n// RUN: pfir opt %s \\\n// RUN:   --stats\n";
        let report = not_started(text, 7, "cannot start a thread: out of memory");
        assert_eq!(report.version, 7);
        assert!(!report.passed);
        let lines: Vec<usize> = report.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3]);
        assert!(report.problems.iter().all(|p| p.level == Level::Error
            && p.message == "the tests could not run: cannot start a thread: out of memory"));
        // Without RUN lines, on the first line.
        assert_eq!(not_started("", 1, "x").problems[0].line, 0);
    }

    /// A document whose `pfir opt %s | FileCheck %s` runs in the server's
    /// process (both stages), with `n` regex CHECK-DAG lines matching `n`
    /// output lines: n²/2 searches, minutes for n = 10,000.
    fn hostile_document(n: usize) -> String {
        let mut text = String::from("// RUN: pfir opt %s | FileCheck %s\nfunc k() -> i64 {\n");
        for i in 0..n {
            text.push_str(&format!("  a{i} = {i}\n"));
        }
        text.push_str("  return a0\n}\n");
        text.push_str(&"// CHECK-DAG: {{[a]}}\n".repeat(n));
        text
    }

    fn policy(timeout: Duration, cancel: Option<Arc<AtomicBool>>) -> RunPolicy {
        RunPolicy {
            allow_commands: false,
            timeout,
            cancel,
            read_command: crate::cli::lsp::read_command,
        }
    }

    /// The in-process stages of a test on save stop at the pipeline's
    /// deadline (the run returns at all), and the RUN line says so.
    #[test]
    fn in_process_stages_stop_at_the_timeout() {
        let text = hostile_document(10_000);
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("t.pfir");
        let report = run_tests(&text, &source, 1, &policy(Duration::from_millis(200), None));
        assert!(!report.passed);
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        assert_eq!(report.problems[0].line, 0);
        assert!(
            report.problems[0]
                .message
                .ends_with("timed out after 0.2s and was stopped"),
            "{}",
            report.problems[0].message
        );
    }

    /// The cancel that [`read_command_raising_the_cancel`] raises.
    static RAISED_WHILE_RUNNING: std::sync::LazyLock<Arc<AtomicBool>> =
        std::sync::LazyLock::new(Arc::default);
    static READINGS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    /// Reads the command as the server does, and raises the run's cancel
    /// at its second reading: the first is the trust check before the RUN
    /// line runs, the second the `pfir opt` producer's, inside the running
    /// pipeline (a newer save arriving then).
    fn read_command_raising_the_cancel(argv: &[String]) -> super::super::commands::PfirCommand {
        if READINGS.fetch_add(1, Ordering::SeqCst) == 1 {
            RAISED_WHILE_RUNNING.store(true, Ordering::SeqCst);
        }
        crate::cli::lsp::read_command(argv)
    }

    /// A cancel (a newer save, `didClose`, `shutdown`) raised while the
    /// pipeline runs stops its in-process stages too, and the RUN line
    /// says so.
    #[test]
    fn in_process_stages_stop_when_the_run_is_cancelled() {
        let text = hostile_document(10_000);
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("t.pfir");
        let policy = RunPolicy {
            read_command: read_command_raising_the_cancel,
            ..policy(
                Duration::from_secs(3600),
                Some(RAISED_WHILE_RUNNING.clone()),
            )
        };
        let report = run_tests(&text, &source, 1, &policy);
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        assert!(
            report.problems[0].message.ends_with("was cancelled"),
            "{}",
            report.problems[0].message
        );
    }

    /// The lines of a failing command's standard error are the editor's
    /// lines: a lone `\r` ends one.
    #[test]
    fn failed_command_shows_stderr_lines_as_the_editor_does() {
        let produced = Produced {
            stdout: String::new(),
            stderr: "a\rb\r\nc\n".into(),
            passed: false,
            command: "cmd".into(),
            status: "exit status 1".into(),
            dropped: 0,
        };
        assert_eq!(
            failed_command(&produced),
            "`cmd` failed: exit status 1\na\nb\nc"
        );
    }
}
