//! The main loop: the initialize handshake, then every message in order,
//! until `exit`.
//!
//! - Requests are answered on this thread, one at a time, from the
//!   document store; each handler runs under `catch_unwind`, so a panic
//!   answers `InternalError` and the server keeps going.
//! - Messages are read by the [`super::transport`], which records each
//!   `$/cancelRequest` as it reads it: a queued request that was cancelled
//!   is answered `RequestCancelled` without running, and a long handler
//!   checks between its phases ([`Server::check_cancelled`]) and answers
//!   the same.
//! - Checking and tests on save run on the [`super::worker`], which
//!   publishes diagnostics; document changes only hand it a job.
//! - `shutdown` is answered, after which requests are refused; `exit`
//!   ends the loop: exit status 0 after `shutdown`, 1 without (and 1 when
//!   the client goes away without `exit`).

use super::documents::Documents;
use super::requests;
use super::requests::RequestError;
use super::settings::Settings;
use super::transport::{Cancellations, Incoming};
use super::worker::{self, Job, TestReports, WorkerContext};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, InitializeParams,
};
use std::collections::VecDeque;
use std::sync::Arc;

/// How the server was started (`pfir lsp` flags).
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Answer the test-only requests `pfir/testPanic` (by panicking) and
    /// `pfir/testBusy` (by keeping the main loop busy): for the tests of
    /// panic safety and cancellation.
    pub test_requests: bool,
    /// The largest message body read (`--max-message-bytes`).
    pub max_message_bytes: usize,
    /// How RUN lines' `pfir` command lines are read (the CLI's parser).
    pub read_command: super::commands::ReadCommand,
}

/// How soon the main loop, idle with changed documents whose checks wait
/// for a busy worker, looks again.
const CHECK_RETRY: std::time::Duration = std::time::Duration::from_millis(10);

/// The state the handlers see.
pub struct Server {
    pub documents: Documents,
    pub settings: Settings,
    pub reports: TestReports,
    pub options: ServerOptions,
    jobs: Sender<Job>,
    /// The connection's sender (for `window/showMessage`).
    out: Sender<Message>,
    /// Documents changed since their last check was handed to the worker:
    /// a check is handed on only when the worker's queue is empty, so that
    /// a worker that cannot keep up (or cannot publish, because the client
    /// does not read) holds no superseded versions.
    unchecked: Vec<lsp_types::Url>,
    cancellations: Arc<Cancellations>,
    /// The request being answered.
    current: Option<RequestId>,
    /// Hover answers in plain text: the client's `hover.contentFormat`
    /// prefers it (lists it before Markdown, or alone).
    pub hover_plain_text: bool,
}

/// Runs the server on the messages of `incoming`, answering on `out`,
/// until `exit`; returns the process exit status (0 after `shutdown`, 1
/// otherwise).
pub fn run(
    incoming: Receiver<Incoming>,
    out: Sender<Message>,
    cancellations: Arc<Cancellations>,
    options: ServerOptions,
) -> u8 {
    let Some((id, params)) = wait_for_initialize(&incoming, &out) else {
        return 1;
    };
    // Decoded leniently: a client's capabilities that do not decode are
    // treated as none (the protocol's defaults).
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_deref());
    let encoding = super::positions::negotiate(offered);
    let mut settings = Settings::default();
    let setting_problems = params
        .initialization_options
        .as_ref()
        .map(|init| settings.update(init))
        .unwrap_or_default();
    let refresh_code_lenses = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.code_lens.as_ref())
        .and_then(|c| c.refresh_support)
        .unwrap_or(false);
    let hover_plain_text = params
        .capabilities
        .text_document
        .as_ref()
        .and_then(|t| t.hover.as_ref())
        .and_then(|h| h.content_format.as_deref())
        .and_then(|formats| formats.first())
        == Some(&lsp_types::MarkupKind::PlainText);
    let result = serde_json::json!({
        "capabilities": super::capabilities::server_capabilities(encoding),
        "serverInfo": { "name": "pfir", "version": env!("CARGO_PKG_VERSION") },
    });
    if out.send(Response::new_ok(id, result).into()).is_err() {
        return 1;
    }
    super::settings::report(&out, &setting_problems);

    let reports = TestReports::default();
    let (jobs, job_queue) = crossbeam_channel::unbounded();
    let cx = WorkerContext {
        out: out.clone(),
        reports: reports.clone(),
        refresh_code_lenses,
    };
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("pfir-lsp-worker".into())
            .spawn_scoped(s, move || worker::run(job_queue, cx));
        if let Err(e) = worker {
            eprintln!("pfir lsp: cannot start the worker: {e}");
            return 1;
        }
        let mut server = Server {
            documents: Documents::new(encoding),
            settings,
            reports,
            options,
            jobs,
            out: out.clone(),
            unchecked: Vec::new(),
            cancellations,
            current: None,
            hover_plain_text,
        };
        let status = server.main_loop(&out, &incoming);
        // Dropping the server drops the job sender: the worker stops.
        drop(server);
        status
    })
}

/// Waits for `initialize`: other requests are answered
/// `ServerNotInitialized`, notifications dropped; `None` when the client
/// sends `exit` or goes away first.
fn wait_for_initialize(
    incoming: &Receiver<Incoming>,
    out: &Sender<Message>,
) -> Option<(RequestId, serde_json::Value)> {
    loop {
        match incoming.recv().ok()?.message {
            Message::Request(r) if r.method == "initialize" => return Some((r.id, r.params)),
            Message::Request(r) => {
                let message = format!(
                    "the server is not initialized: `{}` must come after `initialize`",
                    shorten(&r.method)
                );
                let answer =
                    Response::new_err(r.id, ErrorCode::ServerNotInitialized as i32, message);
                out.send(answer.into()).ok()?;
            }
            Message::Notification(n) if n.method == "exit" => return None,
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
}

/// A client-chosen name, cut to a length fit for a message.
pub fn shorten(name: &str) -> &str {
    let mut end = name.len().min(80);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

impl Server {
    fn main_loop(&mut self, out: &Sender<Message>, queue: &Receiver<Incoming>) -> u8 {
        let mut pending: VecDeque<Incoming> = VecDeque::new();
        let mut shut_down = false;
        loop {
            self.hand_on_checks();
            if pending.is_empty() {
                let next = if self.unchecked.is_empty() {
                    queue.recv().map_err(|_| true)
                } else {
                    // Come back to hand on the checks when the worker is free.
                    queue
                        .recv_timeout(CHECK_RETRY)
                        .map_err(|e| e == RecvTimeoutError::Disconnected)
                };
                match next {
                    Ok(m) => pending.push_back(m),
                    // The client went away without `exit`.
                    Err(true) => return 1,
                    Err(false) => continue,
                }
            }
            // What the transport has read ahead (within its bounds).
            pending.extend(queue.try_iter());
            let Some(Incoming { message, .. }) = pending.pop_front() else {
                continue;
            };
            match message {
                Message::Request(request) => {
                    let response = if self.cancellations.take(&request.id) {
                        Response::new_err(
                            request.id,
                            ErrorCode::RequestCanceled as i32,
                            "cancelled".into(),
                        )
                    } else if shut_down {
                        Response::new_err(
                            request.id,
                            ErrorCode::InvalidRequest as i32,
                            "the server is shutting down".into(),
                        )
                    } else if request.method == "initialize" {
                        Response::new_err(
                            request.id,
                            ErrorCode::InvalidRequest as i32,
                            "the server is already initialized".into(),
                        )
                    } else if request.method == "shutdown" {
                        shut_down = true;
                        let _ = self.jobs.send(Job::CancelTests);
                        Response::new_ok(request.id, ())
                    } else {
                        self.answer(request)
                    };
                    if out.send(response.into()).is_err() {
                        return 1;
                    }
                }
                Message::Notification(n) if n.method == "exit" => {
                    return if shut_down { 0 } else { 1 };
                }
                Message::Notification(n) => {
                    let method = n.method.clone();
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.notification(n, out)
                    }));
                    if outcome.is_err() {
                        eprintln!("pfir lsp: the handler of `{method}` panicked");
                    }
                }
                Message::Response(_) => {}
            }
            // Every request read is answered: the ids cancelled are no
            // longer needed.
            if pending.is_empty() && queue.is_empty() {
                self.cancellations.clear();
            }
        }
    }

    /// Runs the handler of `request`, turning a panic into an error answer.
    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        self.current = Some(id.clone());
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            requests::handle(self, request)
        }));
        self.current = None;
        self.cancellations.take(&id);
        match outcome {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err(error)) => Response::new_err(id, error.code as i32, error.message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("pfir lsp: the handler of `{method}` panicked; the server keeps running"),
            ),
        }
    }

    fn notification(&mut self, n: Notification, out: &Sender<Message>) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let d = p.text_document;
                self.documents.set(d.uri.clone(), d.text, d.version);
                self.check(&d.uri);
            }
            "textDocument/didChange" => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                let changed =
                    self.documents
                        .change(&uri, p.text_document.version, p.content_changes);
                match changed {
                    Ok(true) => {
                        if self.settings.diagnostics_on_type {
                            self.check(&uri);
                        }
                    }
                    Ok(false) => {}
                    Err(why) => {
                        // The document is closed: its text is no longer
                        // the editor's. Reopening it starts afresh.
                        self.unchecked.retain(|u| u != &uri);
                        let _ = self.jobs.send(Job::Close { uri: uri.clone() });
                        let message = format!("pfir lsp: {uri}: {why}; reopen the document");
                        let params = lsp_types::ShowMessageParams {
                            typ: lsp_types::MessageType::ERROR,
                            message,
                        };
                        let n = Notification::new("window/showMessage".to_string(), params);
                        let _ = out.send(n.into());
                    }
                }
            }
            "textDocument/didSave" => {
                let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                if let Some(text) = p.text {
                    let version = self.documents.get(&uri).map_or(0, |d| d.version);
                    self.documents.set(uri.clone(), text, version);
                }
                if !self.settings.diagnostics_on_type {
                    self.check(&uri);
                }
                if self.settings.tests_on_save
                    && let Some(doc) = self.documents.get(&uri)
                {
                    let _ = self.jobs.send(Job::Test {
                        uri: uri.clone(),
                        version: doc.version,
                        text: doc.text.clone(),
                        policy: super::trust::RunPolicy::from_settings(
                            &self.settings,
                            self.options.read_command,
                        ),
                    });
                }
            }
            "textDocument/didClose" => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                self.documents.close(&p.text_document.uri);
                self.unchecked.retain(|u| u != &p.text_document.uri);
                let _ = self.jobs.send(Job::Close {
                    uri: p.text_document.uri,
                });
            }
            "workspace/didChangeConfiguration" => {
                let Ok(p) = serde_json::from_value::<DidChangeConfigurationParams>(n.params) else {
                    return;
                };
                let before = self.settings.clone();
                let problems = self.settings.update(&p.settings);
                super::settings::report(&self.out, &problems);
                // Consent withdrawn: what it allowed stops now.
                if before.allow_running_commands && !self.settings.allow_running_commands {
                    let _ = self.jobs.send(Job::CancelTests);
                }
                if self.settings.remarks != before.remarks {
                    let uris: Vec<_> = self.documents.iter().map(|(u, _)| u.clone()).collect();
                    for uri in uris {
                        self.check(&uri);
                    }
                }
            }
            _ => {}
        }
    }

    /// `Err(RequestCancelled)` when the client has cancelled the request
    /// being answered: long handlers call it between their phases.
    pub fn check_cancelled(&self) -> Result<(), RequestError> {
        match &self.current {
            Some(id) if self.cancellations.contains(id) => Err(RequestError {
                code: ErrorCode::RequestCanceled,
                message: "cancelled".to_string(),
            }),
            _ => Ok(()),
        }
    }

    /// Asks the worker to check the current version of `uri` (as soon as
    /// its queue is empty).
    fn check(&mut self, uri: &lsp_types::Url) {
        if !self.unchecked.contains(uri) {
            self.unchecked.push(uri.clone());
        }
        self.hand_on_checks();
    }

    /// Hands the worker the checks of changed documents when its queue is
    /// empty: it then holds at most one version of each document beside
    /// the store's.
    fn hand_on_checks(&mut self) {
        if self.unchecked.is_empty() || !self.jobs.is_empty() {
            return;
        }
        for uri in std::mem::take(&mut self.unchecked) {
            if let Some(doc) = self.documents.get(&uri) {
                let _ = self.jobs.send(Job::Check {
                    uri,
                    version: doc.version,
                    text: doc.text.clone(),
                    lines: doc.lines.clone(),
                    remarks: self.settings.remarks,
                    analysis: doc.analysis_cell(),
                });
            }
        }
    }
}
