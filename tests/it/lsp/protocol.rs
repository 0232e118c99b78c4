//! The protocol's rules: a panicking handler answers an error and the
//! server goes on, cancelled queued requests answer RequestCancelled,
//! requests on a document that does not parse still answer, unknown
//! methods are refused, `pfir/explain` serves the code links, and the
//! exit status follows shutdown/exit.

use super::DOC;
use super::client::{Client, position_of};
use serde_json::{Value, json};

const URI: &str = "file:///virtual/proto.pfir";

#[test]
fn a_panicking_handler_answers_an_error_and_the_server_goes_on() {
    let mut c = Client::start(json!({}));
    c.open(URI, DOC);
    let err = c.request("pfir/testPanic", Value::Null).unwrap_err();
    assert_eq!(err["code"], -32603);
    assert!(
        err["message"].as_str().unwrap().contains("panicked"),
        "{err}"
    );
    let hover = c
        .request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": URI }, "position": position_of(DOC, "tids", 0, 0) }),
        )
        .unwrap();
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("tids")
    );
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn a_queued_request_that_is_cancelled_answers_request_cancelled() {
    let mut c = Client::start(json!({}));
    c.open(URI, DOC);
    let busy = c.send_request("pfir/testBusy", json!({ "ms": 300 }));
    let doomed = c.send_request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": URI }, "position": position_of(DOC, "tids", 0, 0) }),
    );
    c.notify("$/cancelRequest", json!({ "id": doomed }));
    let kept = c.send_request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": URI }, "position": position_of(DOC, "tids", 0, 0) }),
    );
    assert_eq!(c.response(busy), Ok(Value::Null));
    assert_eq!(c.response(doomed).unwrap_err()["code"], -32800);
    assert!(c.response(kept).is_ok());
}

#[test]
fn requests_on_a_document_that_does_not_parse_still_answer() {
    let text = "func k(x: i64) {\n  y = x +\n}\norchestration func main( {\n";
    let mut c = Client::start(json!({}));
    c.open(URI, text);
    assert!(!c.diagnostics(URI, 1).is_empty());
    let p = json!({ "textDocument": { "uri": URI }, "position": position_of(text, "x +", 0, 0) });
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
    ] {
        assert!(c.request(method, p.clone()).is_ok(), "{method}");
    }
    let doc = json!({ "textDocument": { "uri": URI } });
    for method in [
        "textDocument/documentSymbol",
        "textDocument/foldingRange",
        "textDocument/semanticTokens/full",
    ] {
        assert!(c.request(method, doc.clone()).is_ok(), "{method}");
    }
}

#[test]
fn unknown_requests_are_refused_and_closed_documents_answer_nothing() {
    let mut c = Client::start(json!({}));
    assert_eq!(
        c.request("pfir/noSuchThing", Value::Null).unwrap_err()["code"],
        -32601
    );
    let hover = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///not/open.pfir" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(hover, Ok(Value::Null));
}

#[test]
fn explain_serves_the_code_links() {
    let mut c = Client::start(json!({}));
    let text = c
        .request("pfir/explain", json!({ "code": "E0010" }))
        .unwrap();
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_pfir"))
        .args(["explain", "E0010"])
        .output()
        .unwrap();
    assert_eq!(text["text"], String::from_utf8(cli.stdout).unwrap());
    assert!(
        c.request("pfir/explain", json!({ "code": "E9999" }))
            .is_err()
    );
}

#[test]
fn closing_a_document_clears_its_diagnostics() {
    let mut c = Client::start(json!({}));
    c.open(URI, "func k() {\n  y = zz\n}\n");
    assert_eq!(c.diagnostics(URI, 1).len(), 1);
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": URI } }),
    );
    let cleared = c.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == URI
    });
    assert_eq!(cleared["params"]["diagnostics"], json!([]));
}

#[test]
fn exit_after_shutdown_is_status_0_and_without_is_1() {
    let mut c = Client::start(json!({}));
    c.open(URI, DOC);
    assert!(c.shutdown_and_exit().success());
    let c = Client::start(json!({}));
    assert_eq!(c.exit_without_shutdown().code(), Some(1));
}

#[test]
fn requests_after_shutdown_are_refused() {
    let mut c = Client::start(json!({}));
    c.request("shutdown", Value::Null).unwrap();
    let err = c.request("textDocument/hover", json!({})).unwrap_err();
    assert_eq!(err["code"], -32600);
}

#[test]
fn malformed_parameters_and_positions_out_of_range_are_answered() {
    let mut c = Client::start(json!({}));
    c.open(URI, DOC);
    let err = c
        .request("textDocument/hover", json!({ "bogus": 1 }))
        .unwrap_err();
    assert_eq!(err["code"], -32602);
    // Past the last line and past the end of a line: clamped, answered.
    for position in [
        json!({ "line": 9999, "character": 0 }),
        json!({ "line": 1, "character": 9999 }),
    ] {
        let p = json!({ "textDocument": { "uri": URI }, "position": position });
        assert!(c.request("textDocument/hover", p.clone()).is_ok());
        assert!(c.request("textDocument/definition", p.clone()).is_ok());
        assert!(c.request("textDocument/completion", p).is_ok());
    }
    assert!(c.shutdown_and_exit().success());
}

/// A request cancelled while it runs is answered RequestCancelled at its
/// next phase (the server reads `$/cancelRequest` while a handler runs).
#[test]
fn a_running_request_that_is_cancelled_answers_request_cancelled() {
    let mut c = Client::start(json!({}));
    let busy = c.send_request("pfir/testBusy", json!({ "ms": 500 }));
    // Most likely running by then (if not, it is cancelled while queued).
    std::thread::sleep(std::time::Duration::from_millis(100));
    c.notify("$/cancelRequest", json!({ "id": busy }));
    assert_eq!(c.response(busy).unwrap_err()["code"], -32800);
    // Not cancelled: answered.
    let busy = c.send_request("pfir/testBusy", json!({ "ms": 10 }));
    assert_eq!(c.response(busy), Ok(Value::Null));
    // A cancellation of a request already answered changes nothing.
    c.notify("$/cancelRequest", json!({ "id": busy }));
    assert_eq!(
        c.request("pfir/testBusy", json!({ "ms": 0 })),
        Ok(Value::Null)
    );
}
