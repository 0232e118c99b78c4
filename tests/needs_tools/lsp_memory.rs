//! The language server's memory bounds, read from `/proc/PID/status`:
//! reported as ignored where there is no `/proc`. The rest of these tests
//! is in `tests/it/lsp` (whose client this module shares).

use super::{Trial, needs_tool};
use serde_json::json;
use std::io::Write;

#[allow(dead_code)]
#[path = "../it/lsp/client.rs"]
mod client;

use client::{Client, memory_kib};

const URI: &str = "file:///virtual/sync.pfir";
const NO_PROC: &str = "no /proc to read the server's memory from";

pub fn trials() -> Vec<Trial> {
    vec![
        needs_tool(
            "lsp_memory::unread_output_does_not_queue_superseded_versions",
            unread_output_does_not_queue_superseded_versions,
        ),
        needs_tool(
            "lsp_memory::a_length_over_the_cap_does_not_grow_memory",
            a_length_over_the_cap_does_not_grow_memory,
        ),
    ]
}

/// A `Content-Length` over the cap: the 64 MiB more of the claimed body
/// are read and thrown away, not kept (the error it gets:
/// `lsp::framing::a_length_over_the_cap_is_skipped`).
fn a_length_over_the_cap_does_not_grow_memory() -> Option<String> {
    let mut c = Client::start(json!({}));
    c.send_raw(b"Content-Length: 10000000000\r\n\r\nab");
    let err = c.wait_for(|m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(err["error"]["code"], -32600, "{err}");
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        c.send_raw(&chunk);
    }
    assert!(c.running());
    let Some(peak) = memory_kib(c.pid(), "VmHWM:") else {
        return Some(NO_PROC.into());
    };
    assert!(
        peak < 48 * 1024,
        "pfir lsp peaked at {peak} KiB while skipping 64 MiB"
    );
    None
}

/// 80 full changes of about 1 MiB each, the server's output unread: the
/// server keeps at most a few versions of the document, whatever the
/// number of changes (it used to queue each version for the checker
/// that could not publish: linear growth).
fn unread_output_does_not_queue_superseded_versions() -> Option<String> {
    const CHANGES: usize = 80;
    // Every function has an error, so that a publication (about 150 KB)
    // fills the pipe to the unreading client at once.
    let body: String = (0..500)
        .map(|i| format!("func k{i}() {{\n  y = zz\n}}\n"))
        .collect();

    let mut c = Client::start(json!({}));
    let Some(_) = memory_kib(c.pid(), "VmHWM:") else {
        return Some(NO_PROC.into());
    };
    c.open(URI, &body);
    c.diagnostics(URI, 1);
    let baseline = memory_kib(c.pid(), "VmHWM:").unwrap();
    let mut stdin = c.stdin_handle();
    let _paused = c.pause_reading();
    let mut version = 1;
    for i in 0..CHANGES {
        version += 1;
        // A different text each time (a comment grows), about 1 MiB.
        let text = format!(
            "// {i}\n{body}{}",
            " ".repeat((1 << 20) - body.len().min(1 << 20))
        );
        let message = json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {
                "textDocument": { "uri": URI, "version": version },
                "contentChanges": [{ "text": text }],
            },
        })
        .to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{message}", message.len()).unwrap();
    }
    stdin.flush().unwrap();
    let peak = memory_kib(c.pid(), "VmHWM:").unwrap();
    println!("pfir lsp: {baseline} KiB with the document open, peak {peak} KiB after the changes");
    // Each queued version would be 1 MiB: 80 of them 80 MiB more. What
    // is held beside the document: a version being checked, one waiting,
    // the transport's read-ahead (8 MiB) and a message being decoded.
    assert!(
        peak - baseline < 48 * 1024,
        "pfir lsp grew by {} KiB over {CHANGES} changes of 1 MiB",
        peak - baseline
    );
    None
}
