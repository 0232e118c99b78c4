//! Incremental sync: ranged changes are applied exactly, in the
//! negotiated position encoding, across `\r\n` and lone `\r` line ends;
//! and memory stays bounded when the client sends many large changes
//! without reading the server's output.

use super::client::{Client, memory_kib};
use serde_json::{Value, json};
use std::io::Write;

const URI: &str = "file:///virtual/sync.pfir";

fn text(c: &mut Client) -> String {
    let answer = c
        .request("pfir/testText", json!({ "textDocument": { "uri": URI } }))
        .unwrap();
    answer["text"]
        .as_str()
        .expect("the document is open")
        .to_string()
}

fn change(c: &mut Client, version: i64, changes: Value) {
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": changes }),
    );
}

fn range(l0: u32, c0: u32, l1: u32, c1: u32) -> Value {
    json!({ "start": { "line": l0, "character": c0 }, "end": { "line": l1, "character": c1 } })
}

/// The issue's report: a ranged change at the end of `examples/first.pfir`
/// replaced the whole document, then formatting rewrote line 0.
#[test]
fn a_ranged_change_at_the_end_appends() {
    let first =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/first.pfir"))
            .unwrap();
    let lines = first.split('\n').count() as u32 - 1;
    let mut c = Client::start(json!({}));
    c.open(URI, &first);
    let added = "func   k2() -> task_id {\n  return system.task_invalid()\n}\n";
    change(
        &mut c,
        2,
        json!([{ "range": range(lines, 0, lines, 0), "text": added }]),
    );
    assert_eq!(text(&mut c), format!("{first}{added}"));
    let edits = c
        .request(
            "textDocument/formatting",
            json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 2, "insertSpaces": true } }),
        )
        .unwrap();
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1, "{edits:?}");
    assert_eq!(edits[0]["range"]["start"]["line"], lines, "{edits:?}");
    assert!(
        edits[0]["newText"]
            .as_str()
            .unwrap()
            .starts_with("\nfunc k2() -> task_id {\n")
    );
}

#[test]
fn ranged_changes_apply_in_order_in_every_encoding() {
    // Line 0 has a 2-unit UTF-16 (4-byte UTF-8) character before `b`;
    // lines end in `\r\n`, a lone `\r` and `\n`.
    let start = "a\u{1F600}b\u{e9}c\r\nline1\rline2\nend";
    for (encoding, col_b, col_c) in [("utf-16", 3, 5), ("utf-8", 5, 8), ("utf-32", 2, 4)] {
        let mut c = Client::start_with(json!({}), Some(&[encoding]));
        assert_eq!(c.initialized["capabilities"]["positionEncoding"], encoding);
        assert_eq!(
            c.initialized["capabilities"]["textDocumentSync"]["change"], 2,
            "incremental sync is announced"
        );
        c.open(URI, start);
        change(
            &mut c,
            2,
            json!([
                // Replace `b\u{e9}` by `X`; then, in the result, insert at
                // the start of line 2 (after the lone `\r`); then delete
                // the `\r\n` (joining lines 0 and 1 of that text).
                { "range": range(0, col_b, 0, col_c), "text": "X" },
                { "range": range(2, 0, 2, 0), "text": ">" },
                { "range": range(0, col_b + 2, 1, 0), "text": "" },
            ]),
        );
        assert_eq!(text(&mut c), "a\u{1F600}Xcline1\r>line2\nend", "{encoding}");
        // Past the end of a line: its end; past the last line: the end.
        change(
            &mut c,
            3,
            json!([
                { "range": range(0, 999, 0, 999), "text": "!" },
                { "range": range(99, 0, 99, 5), "text": "$" },
            ]),
        );
        assert_eq!(
            text(&mut c),
            "a\u{1F600}Xcline1!\r>line2\nend$",
            "{encoding}"
        );
        // A change without a range replaces everything; later ranged ones
        // apply to it.
        change(
            &mut c,
            4,
            json!([{ "text": "new\ntext" }, { "range": range(1, 0, 1, 1), "text": "n" }]),
        );
        assert_eq!(text(&mut c), "new\nnext", "{encoding}");
    }
}

#[test]
fn changes_to_a_document_that_is_not_open_are_ignored() {
    let mut c = Client::start(json!({}));
    change(
        &mut c,
        2,
        json!([{ "range": range(0, 0, 0, 0), "text": "x" }]),
    );
    let answer = c
        .request("pfir/testText", json!({ "textDocument": { "uri": URI } }))
        .unwrap();
    assert_eq!(answer, Value::Null);
    assert!(c.shutdown_and_exit().success());
}

/// 80 full changes of about 1 MiB each, the server's output unread: the
/// server keeps at most a few versions of the document, whatever the
/// number of changes (it used to queue each version for the checker
/// that could not publish: linear growth).
#[test]
fn unread_output_does_not_queue_superseded_versions() {
    const CHANGES: usize = 80;
    // Every function has an error, so that a publication (about 150 KB)
    // fills the pipe to the unreading client at once.
    let body: String = (0..500)
        .map(|i| format!("func k{i}() {{\n  y = zz\n}}\n"))
        .collect();

    let mut c = Client::start(json!({}));
    let Some(_) = memory_kib(c.pid(), "VmHWM:") else {
        println!("skipped: no /proc to read the server's memory from");
        return;
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
}

/// The editor's lines and the compiler's agree on a lone `\r`: the error
/// hidden behind a comment in the issue's repro is reported on the line
/// the editor shows it on.
#[test]
fn a_lone_carriage_return_ends_the_comment_in_the_editor_too() {
    let mut c = Client::start(json!({}));
    c.open(
        URI,
        "// RUN: touch x\rfunc k() -> task_id {\r return nope\r}\r",
    );
    let diagnostics = c.diagnostics(URI, 1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(
        diagnostics[0]["range"],
        json!({ "start": { "line": 2, "character": 8 }, "end": { "line": 2, "character": 12 } })
    );
}

/// Folding and the outline read lines as the editor does: a run of comment
/// lines ended by lone `\r`s folds, and a chunk is named by its first line
/// (not by the lines a lone `\r` ends).
#[test]
fn folds_and_chunk_names_end_lines_at_a_lone_carriage_return() {
    let mut c = Client::start(json!({}));
    c.open(
        URI,
        "// one\r// two\rfunc a(x: index) {\r}\r// -----\rfunc b(y: index) {\r}\r",
    );
    let doc = json!({ "textDocument": { "uri": URI } });
    let folds = c.request("textDocument/foldingRange", doc.clone()).unwrap();
    let comment_run = folds
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "comment");
    let comment_run = comment_run.unwrap_or_else(|| panic!("no comment fold in {folds}"));
    assert_eq!(
        (&comment_run["startLine"], &comment_run["endLine"]),
        (&json!(0), &json!(1))
    );
    let symbols = c.request("textDocument/documentSymbol", doc).unwrap();
    assert_eq!(symbols[1]["name"], "chunk 2", "{symbols}");
    assert_eq!(symbols[1]["detail"], "func b(y: index) {", "{symbols}");
    assert_eq!(
        symbols[1]["selectionRange"]["end"],
        json!({ "line": 5, "character": 18 })
    );
}
