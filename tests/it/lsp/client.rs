//! A small scripted LSP client: spawns the real `pfir lsp` and speaks
//! JSON-RPC over its stdin/stdout, as VS Code would (UTF-16 positions
//! unless a test offers other encodings).
//!
//! Waiting is bounded only as a guard against a hung server (a test that
//! waits longer fails instead of hanging); nothing is timed.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a test waits for an answer before it fails.
const GUARD: Duration = Duration::from_secs(60);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    /// Messages read while waiting for something else.
    backlog: Vec<Value>,
    next_id: i64,
    /// The initialize answer.
    pub initialized: Value,
    /// A scratch directory for documents that must exist on disk.
    pub dir: tempfile::TempDir,
    /// Held to stop reading the server's output (see [`Client::pause_reading`]).
    // Used by tests/needs_tools/lsp_memory.rs, which shares this file.
    #[allow(dead_code)]
    gate: Arc<Mutex<()>>,
}

/// `file://` URI of `path`.
pub fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

impl Client {
    /// Starts `pfir lsp` with the test requests enabled, offering UTF-16
    /// only, with these `initializationOptions`.
    pub fn start(init_options: Value) -> Client {
        Client::start_with(init_options, None)
    }

    /// Starts `pfir lsp`, offering `encodings` in `general.positionEncodings`.
    pub fn start_with(init_options: Value, encodings: Option<&[&str]>) -> Client {
        let mut client = Client::spawn(&[]);
        client.initialize(init_options, encodings);
        client
    }

    /// Starts `pfir lsp` (with the test requests and `extra` arguments)
    /// without initializing it.
    pub fn spawn(extra: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pfir"))
            .args(["lsp", "--enable-test-requests"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawning pfir lsp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = channel();
        let gate = Arc::new(Mutex::new(()));
        let reader_gate = gate.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                // Paused: at most this one message is read.
                drop(reader_gate.lock());
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            incoming,
            backlog: Vec::new(),
            next_id: 1,
            initialized: Value::Null,
            dir: tempfile::tempdir().expect("temp dir"),
            gate,
        }
    }

    /// Sends `initialize` (and `initialized`).
    pub fn initialize(&mut self, init_options: Value, encodings: Option<&[&str]>) {
        let mut general = json!({});
        if let Some(encodings) = encodings {
            general = json!({ "positionEncodings": encodings });
        }
        let text_document = json!({ "publishDiagnostics": { "relatedInformation": true } });
        self.initialize_with(init_options, general, text_document);
    }

    /// Sends `initialize` with these `general` and `textDocument`
    /// capabilities (and `initialized`).
    pub fn initialize_with(&mut self, init_options: Value, general: Value, text_document: Value) {
        let answer = self
            .request(
                "initialize",
                json!({
                    "processId": null,
                    "rootUri": null,
                    "capabilities": {
                        "general": general,
                        "workspace": { "codeLens": { "refreshSupport": true } },
                        "textDocument": text_document,
                    },
                    "initializationOptions": init_options,
                }),
            )
            .expect("initialize answers");
        self.initialized = answer;
        self.notify("initialized", json!({}));
    }

    /// Stops reading the server's output while the guard lives (after at
    /// most one more message), as a client that does not read its replies.
    // Used by tests/needs_tools/lsp_memory.rs, which shares this file.
    #[allow(dead_code)]
    pub fn pause_reading(&self) -> MutexGuard<'_, ()> {
        self.gate.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The server's process id.
    // Used by tests/needs_tools/lsp_memory.rs, which shares this file.
    #[allow(dead_code)]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A copy of the server's stdin, for writing from another thread.
    // Used by tests/needs_tools/lsp_memory.rs, which shares this file.
    #[allow(dead_code)]
    pub fn stdin_handle(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin open")
    }

    /// Whether the server is still running.
    pub fn running(&mut self) -> bool {
        self.child
            .try_wait()
            .expect("waiting for pfir lsp")
            .is_none()
    }

    /// Closes stdin and returns the exit status.
    pub fn close_input(mut self) -> ExitStatus {
        self.wait()
    }

    /// Writes `bytes` as they are (framing and all).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("writing to pfir lsp");
        stdin.flush().expect("flushing");
    }

    /// Sends a message body in its frame.
    pub fn send_body(&mut self, body: &[u8]) {
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(body);
        self.send_raw(&frame);
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    /// Sends a request and waits for its answer: `Ok(result)` or
    /// `Err(error object)`.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// The code actions offered for `range` of `uri` with `context` (none
    /// when the answer is `null`).
    pub fn code_actions(&mut self, uri: &str, range: Value, context: Value) -> Vec<Value> {
        let params = json!({ "textDocument": { "uri": uri }, "range": range, "context": context });
        self.request("textDocument/codeAction", params)
            .unwrap()
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// Waits for the answer to request `id`.
    pub fn response(&mut self, id: i64) -> Result<Value, Value> {
        let message =
            self.wait_for(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none());
        match message.get("error") {
            Some(error) => Err(error.clone()),
            None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
        }
    }

    /// Waits for a message `matches` accepts (others are kept for later).
    pub fn wait_for(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&matches) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + GUARD;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(m) if matches(&m) => return m,
                Ok(m) => self.backlog.push(m),
                Err(RecvTimeoutError::Timeout) => panic!("no such message from pfir lsp"),
                Err(RecvTimeoutError::Disconnected) => panic!("pfir lsp closed its output"),
            }
        }
    }

    /// The diagnostics published for `uri` at `version` (or later).
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let m = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"]
                    .as_i64()
                    .is_some_and(|v| v >= version)
        });
        m["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// Diagnostics published for `uri` whose `source` is `source`, waiting
    /// until a publication has some (tests on save).
    pub fn diagnostics_from(&mut self, uri: &str, source: &str) -> Vec<Value> {
        let m = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["diagnostics"]
                    .as_array()
                    .is_some_and(|d| d.iter().any(|d| d["source"] == source))
        });
        m["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "pfir", "version": 1, "text": text } }),
        );
    }

    pub fn change(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{ "text": text }],
            }),
        );
    }

    /// Writes `text` to `name` in the scratch directory; returns its path and URI.
    pub fn write_file(&self, name: &str, text: &str) -> (PathBuf, String) {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).expect("writing a test document");
        let uri = file_uri(&path);
        (path, uri)
    }

    /// Writes `text` to `name` in the scratch directory and opens it;
    /// returns its path and URI.
    pub fn open_file(&mut self, name: &str, text: &str) -> (PathBuf, String) {
        let (path, uri) = self.write_file(name, text);
        self.open(&uri, text);
        (path, uri)
    }

    /// Sends `textDocument/didSave` for `uri`.
    pub fn save(&mut self, uri: &str) {
        self.notify(
            "textDocument/didSave",
            json!({ "textDocument": { "uri": uri } }),
        );
    }

    /// `open_file`, then saves it.
    pub fn open_and_save(&mut self, name: &str, text: &str) -> (PathBuf, String) {
        let (path, uri) = self.open_file(name, text);
        self.save(&uri);
        (path, uri)
    }

    /// `shutdown`, then `exit`; returns the server's exit status.
    pub fn shutdown_and_exit(mut self) -> ExitStatus {
        self.request("shutdown", Value::Null)
            .expect("shutdown answers");
        self.notify("exit", Value::Null);
        self.wait()
    }

    /// Sends `exit` without `shutdown`; returns the exit status.
    pub fn exit_without_shutdown(mut self) -> ExitStatus {
        self.notify("exit", Value::Null);
        self.wait()
    }

    fn wait(&mut self) -> ExitStatus {
        drop(self.stdin.take());
        let deadline = Instant::now() + GUARD;
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting for pfir lsp") {
                return status;
            }
            assert!(Instant::now() < deadline, "pfir lsp did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn send(&mut self, message: &Value) {
        self.send_body(message.to_string().as_bytes());
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let length = length?;
    // A guard against a broken server, not a limit of the protocol.
    assert!(
        length < 1 << 30,
        "pfir lsp announced a {length}-byte message"
    );
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The UTF-16 position `{line, character}` of the `nth` (0-based)
/// occurrence of `needle` in `text`, plus `delta` characters.
pub fn position_of(text: &str, needle: &str, nth: usize, delta: usize) -> Value {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} #{nth} not in the text"))
        .0;
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = text[line_start..offset].encode_utf16().count() + delta;
    json!({ "line": line, "character": character })
}

/// A process's memory figure from `/proc/PID/status` (`VmRSS`, `VmHWM`), in
/// KiB; `None` where there is no `/proc`.
// Used by tests/needs_tools/lsp_memory.rs, which shares this file.
#[allow(dead_code)]
pub fn memory_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A message frame: `Content-Length` and `body`.
pub fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}
