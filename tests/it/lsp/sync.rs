//! Incremental sync: ranged changes are applied exactly, in the
//! negotiated position encoding, across `\r\n` and lone `\r` line ends;
//! and memory stays bounded when the client sends many large changes
//! without reading the server's output.

use super::client::Client;
use serde_json::{Value, json};

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
