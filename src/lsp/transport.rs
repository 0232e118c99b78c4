//! The server's own stdio transport: base-protocol framing
//! (`Content-Length` headers) read and written by two threads, with limits.
//!
//! `lsp-server`'s reader trusts the client: it allocates whatever
//! `Content-Length` says and ends the connection on the first malformed
//! message. This reader instead:
//!
//! - caps a message at [`Limits::max_message_bytes`] (64 MiB by default,
//!   `pfir lsp --max-message-bytes`): a longer one is answered
//!   `InvalidRequest` (id `null`) and its body is read and thrown away in
//!   small pieces, so no claimed length allocates or grows memory;
//! - answers a header without a valid length (missing, negative, not a
//!   number, too long a line) with `ParseError` and looks for the next
//!   `Content-Length:` to read on from;
//! - answers a body that is not JSON (or not UTF-8) with `ParseError`, and
//!   a JSON value that is not one message object (a batch array, a
//!   number, an object that is neither request, response nor
//!   notification) with `InvalidRequest` (with the message's id when it
//!   has one);
//! - reads ahead of the main loop at most [`READ_AHEAD_BYTES`] (each
//!   message counted as its body plus [`MESSAGE_OVERHEAD`]), so that the
//!   main loop can see a `$/cancelRequest` queued behind a long request;
//!   when the main loop stops taking messages (a long request, or a client
//!   that does not read the answers, so the writer blocks), reading stops
//!   and the client's writes block.
//!
//! The writer writes what the server sends (a channel of a few slots:
//! when the client does not read, senders wait) and the reader's error
//! answers.

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::Arc;

/// The default cap on one message's body: 64 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The longest header line read (a longer one is a framing error).
const MAX_HEADER_LINE: usize = 4096;

/// The most header lines before the blank line.
const MAX_HEADERS: usize = 32;

/// The most bytes of messages read and not yet taken by the main loop
/// (one message is always read, whatever its size within the cap).
pub const READ_AHEAD_BYTES: usize = 8 << 20;

/// What each message counts for beyond its body, so that many small
/// messages are bounded too.
pub const MESSAGE_OVERHEAD: usize = 1024;

/// Messages the server may have sent that the writer has not written.
const OUTGOING_SLOTS: usize = 1;

/// What the transport accepts.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_message_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        }
    }
}

/// One message read. While it lives, it counts against the reader's
/// read-ahead budget.
#[derive(Debug)]
pub struct Incoming {
    pub message: Message,
    _ticket: Ticket,
}

/// The bytes read ahead and not yet taken.
#[derive(Debug, Default)]
struct Budget {
    used: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

impl Budget {
    /// Waits until `charge` more bytes fit (or nothing is in flight).
    fn acquire(self: &Arc<Budget>, charge: usize) -> Ticket {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used > 0 && used.saturating_add(charge) > READ_AHEAD_BYTES {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += charge;
        Ticket {
            budget: self.clone(),
            charge,
        }
    }
}

/// Gives its bytes back to the budget when dropped.
#[derive(Debug)]
struct Ticket {
    budget: Arc<Budget>,
    charge: usize,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut used = self.budget.used.lock().unwrap_or_else(|e| e.into_inner());
        *used -= self.charge;
        self.budget.freed.notify_all();
    }
}

/// The request ids the client has cancelled, recorded by the reader as it
/// reads each `$/cancelRequest` (which is not handed on): the main loop
/// answers a cancelled queued request `RequestCancelled` without running
/// it, and a long handler looks between its phases.
#[derive(Debug, Default)]
pub struct Cancellations {
    ids: std::sync::Mutex<std::collections::HashSet<RequestId>>,
}

/// The most ids remembered (past it they are forgotten: a cancellation is
/// a hint).
const MAX_CANCELLED: usize = 4096;

impl Cancellations {
    fn ids(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<RequestId>> {
        self.ids.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn record(&self, id: RequestId) {
        let mut ids = self.ids();
        if ids.len() >= MAX_CANCELLED {
            ids.clear();
        }
        ids.insert(id);
    }

    /// Whether `id` was cancelled (and forgets it).
    pub fn take(&self, id: &RequestId) -> bool {
        self.ids().remove(id)
    }

    /// Whether `id` was cancelled.
    pub fn contains(&self, id: &RequestId) -> bool {
        self.ids().contains(id)
    }

    /// Forgets every id (when every request read has been answered).
    pub fn clear(&self) {
        self.ids().clear();
    }
}

/// The id a `$/cancelRequest` names.
fn cancel_id(params: &Value) -> Option<RequestId> {
    match params.get("id")? {
        Value::Number(n) => Some(RequestId::from(i32::try_from(n.as_i64()?).ok()?)),
        Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    }
}

/// The two ends the server uses, and the writer to wait for at the end.
pub struct Transport {
    pub incoming: Receiver<Incoming>,
    pub outgoing: Sender<Message>,
    pub cancellations: Arc<Cancellations>,
    writer: std::thread::JoinHandle<()>,
}

impl Transport {
    /// Starts the reader on `input` and the writer on `output`.
    pub fn start(
        input: impl Read + Send + 'static,
        output: impl Write + Send + 'static,
        limits: Limits,
    ) -> io::Result<Transport> {
        let (incoming_tx, incoming) = crossbeam_channel::unbounded();
        let (outgoing, outgoing_rx) = crossbeam_channel::bounded(OUTGOING_SLOTS);
        let (errors_tx, errors_rx) = crossbeam_channel::unbounded();
        let cancellations = Arc::new(Cancellations::default());
        let recorded = cancellations.clone();
        std::thread::Builder::new()
            .name("pfir-lsp-reader".into())
            .spawn(move || {
                let mut reader = Reader {
                    input: BufReader::with_capacity(64 << 10, input),
                    limits,
                    errors: errors_tx,
                    budget: Arc::default(),
                    cancellations: recorded,
                };
                reader.run(&incoming_tx);
            })?;
        let writer = std::thread::Builder::new()
            .name("pfir-lsp-writer".into())
            .spawn(move || write_loop(output, outgoing_rx, errors_rx))?;
        Ok(Transport {
            incoming,
            outgoing,
            cancellations,
            writer,
        })
    }

    /// Drops the server's end and waits until everything sent is written.
    /// (The reader is not waited for: it may be blocked on input.)
    pub fn finish(self) {
        drop(self.outgoing);
        drop(self.incoming);
        let _ = self.writer.join();
    }
}

fn write_loop(output: impl Write, messages: Receiver<Message>, errors: Receiver<String>) {
    let mut output = io::BufWriter::new(output);
    let mut errors = errors;
    loop {
        let written = crossbeam_channel::select! {
            recv(messages) -> m => match m {
                Ok(m) => m.write(&mut output),
                Err(_) => break,
            },
            recv(errors) -> e => match e {
                Ok(text) => write_frame(&mut output, &text),
                Err(_) => {
                    errors = crossbeam_channel::never();
                    Ok(())
                }
            },
        };
        if written.and_then(|()| output.flush()).is_err() {
            return;
        }
    }
    // The reader may still have answers to errors queued.
    for text in errors.try_iter() {
        if write_frame(&mut output, &text).is_err() {
            return;
        }
    }
    let _ = output.flush();
}

fn write_frame(output: &mut impl Write, body: &str) -> io::Result<()> {
    write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())
}

/// What reading one frame came to.
enum Frame {
    /// A body of this length follows.
    Body(usize),
    /// The headers were unusable: answered, and the stream must be
    /// searched for the next header.
    Resync,
    /// End of input.
    End,
}

struct Reader<R> {
    input: BufReader<R>,
    limits: Limits,
    errors: Sender<String>,
    budget: Arc<Budget>,
    cancellations: Arc<Cancellations>,
}

impl<R: Read> Reader<R> {
    fn run(&mut self, incoming: &Sender<Incoming>) {
        let mut resync = false;
        loop {
            if resync && !self.skip_to_header() {
                return;
            }
            let frame = match self.headers(resync) {
                Ok(frame) => frame,
                Err(_) => return,
            };
            resync = false;
            let length = match frame {
                Frame::End => return,
                Frame::Resync => {
                    resync = true;
                    continue;
                }
                Frame::Body(length) => length,
            };
            if length > self.limits.max_message_bytes {
                self.error(
                    Value::Null,
                    ErrorCode::InvalidRequest,
                    format!(
                        "a message of {length} bytes is over the limit of {} bytes \
                         (pfir lsp --max-message-bytes); it was skipped",
                        self.limits.max_message_bytes
                    ),
                );
                let skipped = io::copy(&mut (&mut self.input).take(length as u64), &mut io::sink());
                if skipped.map_or(true, |n| n < length as u64) {
                    return;
                }
                continue;
            }
            let mut body = Vec::with_capacity(length.min(1 << 20));
            match (&mut self.input).take(length as u64).read_to_end(&mut body) {
                Ok(n) if n == length => {}
                _ => return,
            }
            let Some(message) = self.decode(&body) else {
                continue;
            };
            drop(body);
            if let Message::Notification(n) = &message
                && n.method == "$/cancelRequest"
            {
                if let Some(id) = cancel_id(&n.params) {
                    self.cancellations.record(id);
                }
                continue;
            }
            let ticket = self.budget.acquire(length.saturating_add(MESSAGE_OVERHEAD));
            let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
            if incoming
                .send(Incoming {
                    message,
                    _ticket: ticket,
                })
                .is_err()
                || exit
            {
                return;
            }
        }
    }

    /// Reads the headers of one message. After a resync the
    /// `Content-Length:` name has already been consumed.
    fn headers(&mut self, resumed: bool) -> io::Result<Frame> {
        let mut length: Option<Result<usize, String>> = None;
        let mut first = true;
        for _ in 0..MAX_HEADERS {
            let Some(line) = self.header_line()? else {
                return Ok(Frame::End);
            };
            let Ok(line) = line else {
                self.error(
                    Value::Null,
                    ErrorCode::ParseError,
                    format!("a header line is longer than {MAX_HEADER_LINE} bytes"),
                );
                return Ok(Frame::Resync);
            };
            let line = if first && resumed {
                format!("Content-Length:{line}")
            } else {
                line
            };
            first = false;
            if line.is_empty() {
                return Ok(match length {
                    Some(Ok(n)) => Frame::Body(n),
                    Some(Err(value)) => {
                        self.error(
                            Value::Null,
                            ErrorCode::ParseError,
                            format!(
                                "`Content-Length: {value}` is not a length in bytes; \
                                 reading on from the next header"
                            ),
                        );
                        Frame::Resync
                    }
                    None => {
                        self.error(
                            Value::Null,
                            ErrorCode::ParseError,
                            "a message without a `Content-Length` header; \
                             reading on from the next header"
                                .to_string(),
                        );
                        Frame::Resync
                    }
                });
            }
            if let Some((name, value)) = line.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                let value = value.trim();
                length = Some(parse_length(value).ok_or_else(|| shorten(value)));
            }
        }
        self.error(
            Value::Null,
            ErrorCode::ParseError,
            format!("more than {MAX_HEADERS} header lines"),
        );
        Ok(Frame::Resync)
    }

    /// One header line without its line break: `None` at end of input,
    /// `Some(Err(()))` when it is too long (the rest of it is skipped).
    #[allow(clippy::type_complexity)]
    fn header_line(&mut self) -> io::Result<Option<Result<String, ()>>> {
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(if line.is_empty() && !too_long {
                    None
                } else {
                    Some(Err(()))
                });
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            if line.len() + chunk.len() > MAX_HEADER_LINE {
                too_long = true;
            } else {
                line.extend_from_slice(chunk);
            }
            let used = done.unwrap_or(buf.len());
            self.input.consume(used);
            if done.is_some() {
                break;
            }
        }
        if too_long {
            return Ok(Some(Err(())));
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Ok(Some(Ok(String::from_utf8_lossy(&line).into_owned())))
    }

    /// Skips input up to and including the next `Content-Length:`; false
    /// at end of input.
    fn skip_to_header(&mut self) -> bool {
        const NAME: &[u8] = b"Content-Length:";
        let mut matched = 0;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) if !buf.is_empty() => buf,
                _ => return false,
            };
            let mut used = 0;
            for &b in buf {
                used += 1;
                matched = if b == NAME[matched] {
                    matched + 1
                } else if b == NAME[0] {
                    1
                } else {
                    0
                };
                if matched == NAME.len() {
                    self.input.consume(used);
                    return true;
                }
            }
            self.input.consume(used);
        }
    }

    /// The message in `body`, or `None` after answering why there is none.
    fn decode(&self, body: &[u8]) -> Option<Message> {
        let value: Value = match serde_json::from_slice(body) {
            Ok(value) => value,
            Err(e) => {
                let what = if std::str::from_utf8(body).is_err() {
                    "is not UTF-8"
                } else {
                    "is not JSON"
                };
                self.error(
                    Value::Null,
                    ErrorCode::ParseError,
                    format!("the message {what}: {e}"),
                );
                return None;
            }
        };
        let Value::Object(object) = value else {
            let why = if value.is_array() {
                "batches of messages are not part of the language server protocol"
            } else {
                "a message must be a JSON object"
            };
            self.error(Value::Null, ErrorCode::InvalidRequest, why.to_string());
            return None;
        };
        let id = match object.get("id") {
            Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
            _ => Value::Null,
        };
        // Classified by its fields, not by trying each shape in turn (a
        // request whose `method` is a number would read as a response).
        let has_id = object.contains_key("id");
        let decoded = if object.contains_key("method") {
            if has_id {
                serde_json::from_value::<Request>(Value::Object(object)).map(Message::Request)
            } else {
                serde_json::from_value::<Notification>(Value::Object(object))
                    .map(Message::Notification)
            }
        } else if has_id && (object.contains_key("result") || object.contains_key("error")) {
            serde_json::from_value::<Response>(Value::Object(object)).map(Message::Response)
        } else {
            self.error(
                id,
                ErrorCode::InvalidRequest,
                "not a message: it has no `method` (a request or a notification) \
                 and is not a response"
                    .to_string(),
            );
            return None;
        };
        match decoded {
            Ok(message) => Some(message),
            Err(_) => {
                self.error(
                    id,
                    ErrorCode::InvalidRequest,
                    "not a valid message: `method` must be a string, `id` a number or a string"
                        .to_string(),
                );
                None
            }
        }
    }

    fn error(&self, id: Value, code: ErrorCode, message: String) {
        let body = json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": code as i32, "message": message },
        });
        let _ = self.errors.send(body.to_string());
    }
}

/// A `Content-Length` value: decimal digits only.
fn parse_length(value: &str) -> Option<usize> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // More digits than a usize holds is still a (huge) length.
    Some(value.parse::<usize>().unwrap_or(usize::MAX))
}

fn shorten(value: &str) -> String {
    let mut end = value.len().min(40);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    if end < value.len() {
        format!("{}...", &value[..end])
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Runs a transport on `input` and collects what it writes (the
    /// reader's answers) and the messages it hands on.
    fn run(input: &[u8], max: usize) -> (Vec<Message>, Vec<Value>) {
        let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let t = Transport::start(
            io::Cursor::new(input.to_vec()),
            Shared(out.clone()),
            Limits {
                max_message_bytes: max,
            },
        )
        .unwrap();
        let mut messages = Vec::new();
        while let Ok(m) = t.incoming.recv_timeout(Duration::from_secs(10)) {
            messages.push(m.message);
        }
        t.finish();
        let written = out.lock().unwrap().clone();
        // Responses with a null id do not read as lsp-server messages:
        // parse the frames by hand.
        let mut answers = Vec::new();
        let mut rest = &written[..];
        while !rest.is_empty() {
            let header_end = rest.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
            let header = std::str::from_utf8(&rest[..header_end]).unwrap();
            let length: usize = header["Content-Length: ".len()..].parse().unwrap();
            let body = &rest[header_end + 4..header_end + 4 + length];
            answers.push(serde_json::from_slice(body).unwrap());
            rest = &rest[header_end + 4 + length..];
        }
        (messages, answers)
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const NOTE: &str = r#"{"jsonrpc":"2.0","method":"n","params":{}}"#;

    #[test]
    fn good_frames_are_handed_on() {
        let input = frame(NOTE) + &frame(r#"{"jsonrpc":"2.0","id":3,"method":"r"}"#);
        let (messages, answers) = run(input.as_bytes(), 1000);
        assert_eq!(messages.len(), 2);
        assert!(answers.is_empty());
    }

    #[test]
    fn an_oversized_message_is_skipped_and_answered() {
        let big = format!(
            r#"{{"jsonrpc":"2.0","method":"n","params":"{}"}}"#,
            "x".repeat(200)
        );
        let input = frame(&big) + &frame(NOTE);
        let (messages, answers) = run(input.as_bytes(), 100);
        assert_eq!(messages.len(), 1, "the next message is read");
        assert_eq!(answers.len(), 1);
        assert_eq!(answers[0]["error"]["code"], -32600);
        assert_eq!(answers[0]["id"], Value::Null);
    }

    #[test]
    fn bad_lengths_resync_at_the_next_header() {
        for bad in ["-5", "abc", "", "1e3", "0x10"] {
            let input = format!("Content-Length: {bad}\r\n\r\n{NOTE}") + &frame(NOTE);
            let (messages, answers) = run(input.as_bytes(), 1000);
            assert_eq!(messages.len(), 1, "{bad:?}");
            assert_eq!(answers.len(), 1, "{bad:?}");
            assert_eq!(answers[0]["error"]["code"], -32700, "{bad:?}");
        }
        let input = format!("X-Other: 1\r\n\r\n{NOTE}") + &frame(NOTE);
        let (messages, answers) = run(input.as_bytes(), 1000);
        assert_eq!((messages.len(), answers.len()), (1, 1));
    }

    #[test]
    fn bad_bodies_are_answered_and_reading_goes_on() {
        let cases: [(&[u8], i64, Value); 6] = [
            (b"not json", -32700, Value::Null),
            (
                b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}",
                -32700,
                Value::Null,
            ),
            (b"[1,2]", -32600, Value::Null),
            (b"42", -32600, Value::Null),
            (br#"{"jsonrpc":"2.0","id":7,"method":5}"#, -32600, json!(7)),
            (br#"{"jsonrpc":"2.0","params":{}}"#, -32600, Value::Null),
        ];
        for (body, code, id) in cases {
            let mut input = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
            input.extend_from_slice(body);
            input.extend_from_slice(frame(NOTE).as_bytes());
            let (messages, answers) = run(&input, 1000);
            let shown = String::from_utf8_lossy(body);
            assert_eq!(messages.len(), 1, "{shown}");
            assert_eq!(answers.len(), 1, "{shown}");
            assert_eq!(answers[0]["error"]["code"], code, "{shown}");
            assert_eq!(answers[0]["id"], id, "{shown}");
        }
    }

    #[test]
    fn lengths_are_digits_only() {
        assert_eq!(parse_length("12"), Some(12));
        assert_eq!(parse_length("99999999999999999999999"), Some(usize::MAX));
        assert_eq!(parse_length("-1"), None);
        assert_eq!(parse_length("+1"), None);
        assert_eq!(parse_length(""), None);
    }
}
