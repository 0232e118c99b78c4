//! The background worker: re-checks documents (debounced) and runs tests
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
//! built, then runs the pass on it for the diagnostics. The worker runs
//! on a thread with pfir's large stack, and a panic while handling a job
//! is caught (that document keeps its previous diagnostics).

use super::diagnostics::{check_document, to_lsp};
use super::documents::AnalysisCell;
use super::positions::{Encoding, LineIndex};
use super::tests_on_save::{TestReport, run_tests};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_server::{Message, Notification, Request, RequestId};
use lsp_types::{Diagnostic, DiagnosticSeverity, PublishDiagnosticsParams, Url};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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
        remarks: bool,
        /// Where the version's analysis is built (or was, by a request):
        /// the diagnostics come from it.
        analysis: AnalysisCell,
    },
    /// Run the document's RUN lines (it was saved at this version).
    Test {
        uri: Url,
        version: i32,
        text: Arc<str>,
    },
    /// The document was closed: clear its diagnostics.
    Close { uri: Url },
}

/// The last test report of each document, shared with the main loop
/// (code lenses and go to definition on CHECK lines read it).
pub type TestReports = Arc<Mutex<HashMap<Url, TestReport>>>;

/// What the worker needs from the server.
pub struct WorkerContext {
    pub out: Sender<Message>,
    pub encoding: Encoding,
    pub reports: TestReports,
    /// Send `workspace/codeLens/refresh` after a test run.
    pub refresh_code_lenses: bool,
}

/// What the worker knows of one document.
struct Published {
    version: i32,
    text: Arc<str>,
    diagnostics: Vec<Diagnostic>,
}

/// Runs the worker until `jobs` is disconnected.
pub fn run(jobs: Receiver<Job>, cx: WorkerContext) {
    let mut published: HashMap<Url, Published> = HashMap::new();
    let refresh_ids = AtomicU64::new(0);
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        let start = Instant::now();
        let mut disconnected = false;
        while start.elapsed() < MAX_DELAY {
            match jobs.recv_timeout(DEBOUNCE) {
                Ok(job) => batch.push(job),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    disconnected = true;
                    break;
                }
            }
        }
        for job in coalesce(batch) {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                handle(job, &cx, &mut published, &refresh_ids)
            }));
            if outcome.is_err() {
                eprintln!("pfir lsp: the worker recovered from a panic");
            }
        }
        if disconnected {
            break;
        }
    }
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
        }
    }
    batch
        .into_iter()
        .enumerate()
        .filter(|(i, job)| match job {
            Job::Check { uri, .. } => newest_check.get(uri) == Some(i),
            Job::Test { uri, .. } => newest_test.get(uri) == Some(i),
            Job::Close { .. } => true,
        })
        .map(|(_, job)| job)
        .collect()
}

fn handle(
    job: Job,
    cx: &WorkerContext,
    published: &mut HashMap<Url, Published>,
    refresh_ids: &AtomicU64,
) {
    match job {
        Job::Check {
            uri,
            version,
            text,
            remarks,
            analysis,
        } => {
            // Once in the cell, requests answer from the analysis while the
            // pass runs for the diagnostics.
            let analysis = analysis
                .get_or_init(|| Arc::new(crate::ide::Analysis::new(&text)))
                .clone();
            let lines = LineIndex::new(&text, cx.encoding);
            let diagnostics = check_document(&analysis, remarks)
                .iter()
                .map(|d| to_lsp(d, &uri, &text, &lines))
                .collect();
            published.insert(
                uri.clone(),
                Published {
                    version,
                    text,
                    diagnostics,
                },
            );
            publish(cx, &uri, published.get(&uri));
        }
        Job::Test { uri, version, text } => {
            let source = super::output::source_path(&uri);
            let report = run_tests(&text, &source, version);
            if let Ok(mut reports) = cx.reports.lock() {
                reports.insert(uri.clone(), report);
            }
            publish(cx, &uri, published.get(&uri));
            if cx.refresh_code_lenses {
                let id = refresh_ids.fetch_add(1, Ordering::Relaxed);
                let request = Request::new(
                    RequestId::from(format!("pfir-code-lens-refresh-{id}")),
                    "workspace/codeLens/refresh".to_string(),
                    serde_json::Value::Null,
                );
                let _ = cx.out.send(request.into());
            }
        }
        Job::Close { uri } => {
            published.remove(&uri);
            if let Ok(mut reports) = cx.reports.lock() {
                reports.remove(&uri);
            }
            let params = PublishDiagnosticsParams::new(uri, Vec::new(), None);
            send_diagnostics(cx, params);
        }
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
        let lines = LineIndex::new(&document.text, cx.encoding);
        for problem in &report.problems {
            let range = lines
                .line_range(problem.line)
                .unwrap_or(document.text.len()..document.text.len());
            diagnostics.push(Diagnostic {
                range: lines.range(&document.text, range),
                severity: Some(DiagnosticSeverity::ERROR),
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
