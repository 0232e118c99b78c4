//! The background worker: re-checks documents (debounced), starts tests
//! on save, and publishes each document's diagnostics.
//!
//! The main loop hands it [`Job`]s and never waits for it. After a job
//! arrives the worker keeps collecting for [`DEBOUNCE`] of quiet (at most
//! [`MAX_DELAY`]), keeps only the newest check of each document, then
//! checks each one once; so a burst of keystrokes costs one analysis. A
//! document's published diagnostics are its check's plus the problems of
//! its last test run when that run saw the same version. A check reads the
//! version once: it builds the version's `pfir::ide` analysis (unless a
//! request already did), which requests answer from as soon as it is
//! built, then runs the pass on it for the diagnostics. A panic while
//! handling a job is caught (that document keeps its previous diagnostics).
//!
//! Tests on save never run on the worker itself: each run gets a thread of
//! its own, so a slow test delays no other document's diagnostics. A run
//! is cancelled (its processes killed, whole trees, see
//! [`lit::orphans`]) by a newer save of the same document, by `didClose`,
//! by `shutdown` ([`Job::CancelTests`]) and when the worker stops, as soon
//! as the worker receives the job (not after the debounce); a cancelled
//! run publishes nothing, and what it runs in-process stops at its next
//! cancellation checkpoint (`fsutil::cancel`). Each pipeline also has the
//! policy's timeout ([`RunPolicy`]).

use super::diagnostics::{check_document, to_lsp};
use super::documents::AnalysisCell;
use super::positions::LineIndex;
use super::tests_on_save::{Level, TestReport, not_started, run_tests};
use super::trust::RunPolicy;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_server::{Message, Notification, Request, RequestId};
use lsp_types::{Diagnostic, DiagnosticSeverity, PublishDiagnosticsParams, Url};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Quiet time after the last change before a document is checked.
pub const DEBOUNCE: Duration = Duration::from_millis(30);
/// The longest a change waits for its check while changes keep coming.
pub const MAX_DELAY: Duration = Duration::from_millis(150);

/// Work for the worker.
#[derive(Debug)]
pub enum Job {
    /// Check this version of the document and publish its diagnostics.
    Check {
        uri: Url,
        version: i32,
        text: Arc<str>,
        /// The line index of `text`.
        lines: Arc<LineIndex>,
        remarks: bool,
        /// Where the version's analysis is built (or was, by a request):
        /// the diagnostics come from it.
        analysis: AnalysisCell,
    },
    /// Run the document's RUN lines (it was saved at this version), under
    /// `policy` (its `cancel` is set by the worker).
    Test {
        uri: Url,
        version: i32,
        text: Arc<str>,
        policy: RunPolicy,
    },
    /// The document was closed: clear its diagnostics, stop its tests.
    Close { uri: Url },
    /// Stop every running test (`shutdown`).
    CancelTests,
}

/// The last test report of each document, shared with the main loop
/// (code lenses and go to definition on CHECK lines read it).
pub type TestReports = Arc<Mutex<HashMap<Url, TestReport>>>;

/// What the worker needs from the server.
#[derive(Clone)]
pub struct WorkerContext {
    pub out: Sender<Message>,
    pub reports: TestReports,
    /// Send `workspace/codeLens/refresh` after a test run.
    pub refresh_code_lenses: bool,
}

/// What the worker knows of one document.
struct Published {
    version: i32,
    text: Arc<str>,
    lines: Arc<LineIndex>,
    diagnostics: Vec<Diagnostic>,
}

/// The documents' published state, shared with the test threads.
type PublishedMap = Arc<Mutex<HashMap<Url, Published>>>;

/// One running test of a document.
struct TestRun {
    generation: u64,
    cancel: Arc<AtomicBool>,
}

/// The test runs of the documents, and their threads.
#[derive(Default)]
struct TestRuns {
    /// The current run of each document.
    current: Arc<Mutex<HashMap<Url, TestRun>>>,
    threads: Vec<JoinHandle<()>>,
    next: u64,
    /// What a finished run publishes through; emptied when the worker
    /// stops, so that a run that cannot end (a process that escaped the
    /// kill keeps its output pipe open) holds no sender of the connection
    /// and cannot keep the server from exiting.
    context: Arc<Mutex<Option<WorkerContext>>>,
}

/// How long the worker, stopping, waits for cancelled test runs to end.
const STOP_WAIT: Duration = Duration::from_secs(3);

impl TestRuns {
    fn cancel(&self, uri: &Url) {
        if let Some(run) = lock(&self.current).remove(uri) {
            run.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Cancels at once, not after the debounce, the runs `job` ends: a
    /// newer save's, a close's, `shutdown`'s.
    fn cancel_superseded(&self, job: &Job) {
        match job {
            Job::Test { uri, .. } | Job::Close { uri } => self.cancel(uri),
            Job::CancelTests => self.cancel_all(),
            Job::Check { .. } => {}
        }
    }

    fn cancel_all(&self) {
        for (_, run) in lock(&self.current).drain() {
            run.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Cancels every run and waits (a bounded time) for their threads.
    fn stop(&mut self) {
        self.cancel_all();
        lock(&self.context).take();
        let deadline = Instant::now() + STOP_WAIT;
        while self.threads.iter().any(|t| !t.is_finished()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        for t in self.threads.drain(..) {
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs the worker until `jobs` is disconnected.
pub fn run(jobs: Receiver<Job>, cx: WorkerContext) {
    let published: PublishedMap = Arc::default();
    let refresh_ids = Arc::new(AtomicU64::new(0));
    let mut tests = TestRuns {
        context: Arc::new(Mutex::new(Some(cx.clone()))),
        ..TestRuns::default()
    };
    while let Ok(first) = jobs.recv() {
        tests.cancel_superseded(&first);
        let mut batch = vec![first];
        let start = Instant::now();
        let mut disconnected = false;
        while start.elapsed() < MAX_DELAY {
            match jobs.recv_timeout(DEBOUNCE) {
                Ok(job) => {
                    tests.cancel_superseded(&job);
                    batch.push(job);
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    disconnected = true;
                    break;
                }
            }
        }
        for job in coalesce(batch) {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                handle(job, &cx, &published, &refresh_ids, &mut tests)
            }));
            if outcome.is_err() {
                eprintln!("pfir lsp: the worker recovered from a panic");
            }
        }
        tests.threads.retain(|t| !t.is_finished());
        if disconnected {
            break;
        }
    }
    tests.stop();
}

/// The jobs of a batch worth doing, in order: the newest check of each
/// document, every test run (the newest per document), closes.
fn coalesce(batch: Vec<Job>) -> Vec<Job> {
    let mut newest_check: HashMap<Url, usize> = HashMap::new();
    let mut newest_test: HashMap<Url, usize> = HashMap::new();
    for (i, job) in batch.iter().enumerate() {
        match job {
            Job::Check { uri, .. } => {
                newest_check.insert(uri.clone(), i);
            }
            Job::Test { uri, .. } => {
                newest_test.insert(uri.clone(), i);
            }
            Job::Close { uri } => {
                newest_check.remove(uri);
                newest_test.remove(uri);
            }
            Job::CancelTests => newest_test.clear(),
        }
    }
    batch
        .into_iter()
        .enumerate()
        .filter(|(i, job)| match job {
            Job::Check { uri, .. } => newest_check.get(uri) == Some(i),
            Job::Test { uri, .. } => newest_test.get(uri) == Some(i),
            Job::Close { .. } | Job::CancelTests => true,
        })
        .map(|(_, job)| job)
        .collect()
}

fn handle(
    job: Job,
    cx: &WorkerContext,
    published: &PublishedMap,
    refresh_ids: &Arc<AtomicU64>,
    tests: &mut TestRuns,
) {
    match job {
        Job::Check {
            uri,
            version,
            text,
            lines,
            remarks,
            analysis,
        } => {
            // Once in the cell, requests answer from the analysis while the
            // pass runs for the diagnostics.
            let analysis = analysis
                .get_or_init(|| Arc::new(crate::ide::Analysis::shared(text.clone())))
                .clone();
            let diagnostics = check_document(&analysis, remarks)
                .iter()
                .map(|d| to_lsp(d, &uri, &text, &lines))
                .collect();
            let mut published = lock(published);
            published.insert(
                uri.clone(),
                Published {
                    version,
                    text,
                    lines,
                    diagnostics,
                },
            );
            publish(cx, &uri, published.get(&uri));
        }
        Job::Test {
            uri,
            version,
            text,
            policy,
        } => {
            let test = TestJob {
                uri,
                version,
                text,
                policy,
            };
            start_test(test, published, refresh_ids, tests);
        }
        Job::Close { uri } => {
            tests.cancel(&uri);
            lock(published).remove(&uri);
            if let Ok(mut reports) = cx.reports.lock() {
                reports.remove(&uri);
            }
            let params = PublishDiagnosticsParams::new(uri, Vec::new(), None);
            send_diagnostics(cx, params);
        }
        Job::CancelTests => tests.cancel_all(),
    }
}

/// What a test run needs of its [`Job::Test`].
struct TestJob {
    uri: Url,
    version: i32,
    text: Arc<str>,
    policy: RunPolicy,
}

/// Starts the test run of `test` on a thread of its own (cancelling the
/// document's previous run); the run reports through
/// [`finish_test`].
fn start_test(
    mut test: TestJob,
    published: &PublishedMap,
    refresh_ids: &Arc<AtomicU64>,
    tests: &mut TestRuns,
) {
    let uri = test.uri.clone();
    tests.cancel(&uri);
    let cancel = Arc::new(AtomicBool::new(false));
    test.policy.cancel = Some(cancel.clone());
    tests.next += 1;
    let generation = tests.next;
    lock(&tests.current).insert(
        uri.clone(),
        TestRun {
            generation,
            cancel: cancel.clone(),
        },
    );
    let run = FinishedRun {
        current: tests.current.clone(),
        context: tests.context.clone(),
        published: published.clone(),
        refresh_ids: refresh_ids.clone(),
        cancel,
        generation,
    };
    // What the run needs if it cannot start, to say so on its RUN lines.
    let (text, version, finished) = (test.text.clone(), test.version, run.clone());
    // The run's own work needs no large stack: pfir's commands grow
    // theirs where they recurse (`stack::ensure`), and in-process stages
    // run on the runner's thread or as processes.
    let spawned = std::thread::Builder::new()
        .name("pfir-lsp-test".into())
        .spawn(move || {
            let source = super::output::source_path(&test.uri);
            let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_tests(&test.text, &source, test.version, &test.policy)
            }));
            match report {
                Ok(report) => finish_test(run, &test.uri, report),
                Err(_) => finish_test(
                    run,
                    &test.uri,
                    not_started(&test.text, test.version, "the test run panicked"),
                ),
            }
        });
    match spawned {
        Ok(t) => tests.threads.push(t),
        Err(e) => {
            let why = format!("cannot start a thread for the test run: {e}");
            finish_test(finished, &uri, not_started(&text, version, &why));
        }
    }
}

/// What a test thread reports through.
#[derive(Clone)]
struct FinishedRun {
    current: Arc<Mutex<HashMap<Url, TestRun>>>,
    context: Arc<Mutex<Option<WorkerContext>>>,
    published: PublishedMap,
    refresh_ids: Arc<AtomicU64>,
    cancel: Arc<AtomicBool>,
    generation: u64,
}

/// Keeps and publishes the report of a finished run, unless it was
/// cancelled or superseded, and asks the client to refresh code lenses.
fn finish_test(run: FinishedRun, uri: &Url, report: TestReport) {
    let Some(cx) = lock(&run.context).clone() else {
        return;
    };
    // Only the document's current run reports; a cancelled one (newer
    // save, close, shutdown) says nothing.
    {
        let mut current = lock(&run.current);
        if run.cancel.load(Ordering::SeqCst)
            || current.get(uri).map(|r| r.generation) != Some(run.generation)
        {
            return;
        }
        current.remove(uri);
        if let Ok(mut reports) = cx.reports.lock() {
            reports.insert(uri.clone(), report);
        }
    }
    publish(&cx, uri, lock(&run.published).get(uri));
    if cx.refresh_code_lenses {
        let id = run.refresh_ids.fetch_add(1, Ordering::Relaxed);
        let request = Request::new(
            RequestId::from(format!("pfir-code-lens-refresh-{id}")),
            "workspace/codeLens/refresh".to_string(),
            serde_json::Value::Null,
        );
        let _ = cx.out.send(request.into());
    }
}

fn publish(cx: &WorkerContext, uri: &Url, document: Option<&Published>) {
    let Some(document) = document else { return };
    let mut diagnostics = document.diagnostics.clone();
    let report = cx.reports.lock().ok().and_then(|r| {
        r.get(uri)
            .filter(|r| r.version == document.version)
            .cloned()
    });
    if let Some(report) = report {
        let lines = &document.lines;
        for problem in &report.problems {
            let range = lines
                .line_range(&document.text, problem.line)
                .unwrap_or(document.text.len()..document.text.len());
            let severity = match problem.level {
                Level::Error => DiagnosticSeverity::ERROR,
                Level::Warning => DiagnosticSeverity::WARNING,
                Level::Information => DiagnosticSeverity::INFORMATION,
            };
            diagnostics.push(Diagnostic {
                range: lines.range(&document.text, range),
                severity: Some(severity),
                source: Some("pfir test".to_string()),
                message: problem.message.clone(),
                ..Diagnostic::default()
            });
        }
    }
    let params = PublishDiagnosticsParams::new(uri.clone(), diagnostics, Some(document.version));
    send_diagnostics(cx, params);
}

fn send_diagnostics(cx: &WorkerContext, params: PublishDiagnosticsParams) {
    let n = Notification::new("textDocument/publishDiagnostics".to_string(), params);
    let _ = cx.out.send(n.into());
}
