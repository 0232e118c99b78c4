//! The main loop: the initialize handshake, then every message in order,
//! until `exit`.
//!
//! - Requests are answered on this thread, one at a time, from the
//!   document store; each handler runs under `catch_unwind`, so a panic
//!   answers `InternalError` and the server keeps going.
//! - Messages are read into a queue by a forwarding thread; before each
//!   message is handled, the queue is scanned for `$/cancelRequest`, and a
//!   queued request that was cancelled is answered `RequestCancelled`
//!   without running.
//! - Checking and tests on save run on the [`super::worker`], which
//!   publishes diagnostics; document changes only hand it a job.
//! - `shutdown` is answered, after which requests are refused; `exit`
//!   ends the loop: exit status 0 after `shutdown`, 1 without (and 1 when
//!   the client goes away without `exit`).

use super::documents::Documents;
use super::positions::Encoding;
use super::requests;
use super::settings::Settings;
use super::worker::{self, Job, TestReports, WorkerContext};
use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, InitializeParams,
};
use std::collections::{HashSet, VecDeque};

/// How the server was started (`pfir lsp` flags).
#[derive(Clone, Debug, Default)]
pub struct ServerOptions {
    /// Answer the test-only requests `pfir/testPanic` (by panicking) and
    /// `pfir/testBusy` (by keeping the main loop busy): for the tests of
    /// panic safety and cancellation.
    pub test_requests: bool,
}

/// The state the handlers see.
pub struct Server {
    pub documents: Documents,
    pub settings: Settings,
    pub reports: TestReports,
    pub options: ServerOptions,
    jobs: Sender<Job>,
    /// The connection's sender (for `window/showMessage`).
    out: Sender<Message>,
}

/// Runs the server on `connection` until `exit`; returns the process exit
/// status (0 after `shutdown`, 1 otherwise).
pub fn run(connection: Connection, options: ServerOptions) -> u8 {
    let (id, params) = match connection.initialize_start() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("pfir lsp: {e}");
            return 1;
        }
    };
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_deref());
    let encoding = Encoding::negotiate(offered);
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
    let result = serde_json::json!({
        "capabilities": super::capabilities::server_capabilities(encoding),
        "serverInfo": { "name": "pfir", "version": env!("CARGO_PKG_VERSION") },
    });
    if let Err(e) = connection.initialize_finish(id, result) {
        eprintln!("pfir lsp: {e}");
        return 1;
    }
    super::settings::report(&connection.sender, &setting_problems);

    let reports = TestReports::default();
    let (jobs, job_queue) = crossbeam_channel::unbounded();
    let cx = WorkerContext {
        out: connection.sender.clone(),
        encoding,
        reports: reports.clone(),
        refresh_code_lenses,
    };
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("pfir-lsp-worker".into())
            .stack_size(crate::driver::worker_stack_bytes())
            .spawn_scoped(s, move || worker::run(job_queue, cx));
        if let Err(e) = worker {
            eprintln!("pfir lsp: cannot start the worker: {e}");
            return 1;
        }
        let (queue_in, queue) = crossbeam_channel::unbounded();
        let incoming = connection.receiver.clone();
        s.spawn(move || {
            for message in incoming {
                if queue_in.send(message).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            documents: Documents::new(encoding),
            settings,
            reports,
            options,
            jobs,
            out: connection.sender.clone(),
        };
        let status = server.main_loop(&connection.sender, &queue);
        // Dropping the server drops the job sender: the worker stops.
        drop(server);
        status
    })
}

impl Server {
    fn main_loop(&mut self, out: &Sender<Message>, queue: &Receiver<Message>) -> u8 {
        let mut pending: VecDeque<Message> = VecDeque::new();
        let mut cancelled: HashSet<RequestId> = HashSet::new();
        let mut shut_down = false;
        loop {
            if pending.is_empty() {
                match queue.recv() {
                    Ok(m) => pending.push_back(m),
                    // The client went away without `exit`.
                    Err(_) => return 1,
                }
            }
            pending.extend(queue.try_iter());
            for message in &pending {
                if let Message::Notification(n) = message
                    && n.method == "$/cancelRequest"
                    && let Some(id) = cancel_id(&n.params)
                {
                    cancelled.insert(id);
                }
            }
            let Some(message) = pending.pop_front() else {
                continue;
            };
            match message {
                Message::Request(request) => {
                    let response = if cancelled.remove(&request.id) {
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
                    } else if request.method == "shutdown" {
                        shut_down = true;
                        let _ = self.jobs.send(Job::CancelTests);
                        Response::new_ok(request.id, ())
                    } else {
                        self.answer(request)
                    };
                    let _ = out.send(response.into());
                }
                Message::Notification(n) if n.method == "exit" => {
                    return if shut_down { 0 } else { 1 };
                }
                Message::Notification(n) => {
                    let method = n.method.clone();
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.notification(n)
                    }));
                    if outcome.is_err() {
                        eprintln!("pfir lsp: the handler of `{method}` panicked");
                    }
                }
                Message::Response(_) => {}
            }
            // Ids of requests already answered are no longer needed.
            if pending.is_empty() {
                cancelled.clear();
            }
        }
    }

    /// Runs the handler of `request`, turning a panic into an error answer.
    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            requests::handle(self, request)
        })) {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err(error)) => Response::new_err(id, error.code as i32, error.message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("pfir lsp: the handler of `{method}` panicked; the server keeps running"),
            ),
        }
    }

    fn notification(&mut self, n: Notification) {
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
                // Full sync: the last change is the whole text.
                let Some(change) = p.content_changes.into_iter().next_back() else {
                    return;
                };
                let uri = p.text_document.uri;
                self.documents
                    .set(uri.clone(), change.text, p.text_document.version);
                if self.settings.diagnostics_on_type {
                    self.check(&uri);
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
                        policy: super::trust::RunPolicy::from_settings(&self.settings),
                    });
                }
            }
            "textDocument/didClose" => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                self.documents.close(&p.text_document.uri);
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

    /// Asks the worker to check the current version of `uri`.
    fn check(&self, uri: &lsp_types::Url) {
        if let Some(doc) = self.documents.get(uri) {
            let _ = self.jobs.send(Job::Check {
                uri: uri.clone(),
                version: doc.version,
                text: doc.text.clone(),
                remarks: self.settings.remarks,
                analysis: doc.analysis_cell(),
            });
        }
    }
}

fn cancel_id(params: &serde_json::Value) -> Option<RequestId> {
    match params.get("id")? {
        serde_json::Value::Number(n) => Some(RequestId::from(i32::try_from(n.as_i64()?).ok()?)),
        serde_json::Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    }
}
