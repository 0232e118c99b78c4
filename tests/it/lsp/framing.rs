//! The transport's limits, attacked with raw bytes: lengths that would
//! allocate terabytes or wait for gigabytes, headers that are not
//! lengths, bodies that are not messages. Each is answered with a JSON-RPC
//! error and the server goes on (or, for a length it must skip, stays
//! alive and small); the lifecycle's errors are plain.

use super::DOC;
use super::client::{Client, frame, position_of};
use serde_json::{Value, json};

const URI: &str = "file:///virtual/framing.pfir";

/// The next error answer with a `null` id (the transport's).
fn transport_error(c: &mut Client) -> Value {
    c.wait_for(|m| m.get("error").is_some() && m["id"].is_null())
}

/// A new server sent `bytes`: it answers with a transport error that is
/// an invalid request. Returns the client and the error.
fn invalid_request_from_a_new_server(bytes: &[u8]) -> (Client, Value) {
    let mut c = Client::start(json!({}));
    c.send_raw(bytes);
    let err = transport_error(&mut c);
    assert_eq!(err["error"]["code"], -32600, "{err}");
    (c, err)
}

/// A hover on `DOC` still answers.
fn still_answers(c: &mut Client) {
    let hover = c
        .request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": URI }, "position": position_of(DOC, "tids", 0, 0) }),
        )
        .expect("the server still answers");
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("tids")
    );
}

#[test]
fn a_terabyte_length_is_refused_without_allocating() {
    let (mut c, err) =
        invalid_request_from_a_new_server(b"Content-Length: 1000000000000\r\n\r\n{}");
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("over the limit"),
        "{err}"
    );
    assert!(c.running(), "the server must not abort");
    // It is skipping the claimed body: closing stdin ends it normally.
    assert_eq!(c.close_input().code(), Some(1));
}

#[test]
fn a_length_over_the_cap_is_skipped() {
    let (mut c, _) = invalid_request_from_a_new_server(b"Content-Length: 10000000000\r\n\r\nab");
    // 64 MiB more of the claimed body: read and thrown away, not kept.
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        c.send_raw(&chunk);
    }
    assert!(c.running());
    // Its memory meanwhile (read from /proc): tests/needs_tools/lsp_memory.rs.
}

#[test]
fn the_cap_is_configurable_and_the_next_message_is_read() {
    let mut c = Client::spawn(&["--max-message-bytes", "300"]);
    c.initialize(json!({}), None);
    let big = json!({ "jsonrpc": "2.0", "method": "x/y", "params": "z".repeat(400) }).to_string();
    c.send_raw(&frame(&big));
    let err = transport_error(&mut c);
    assert_eq!(err["error"]["code"], -32600, "{err}");
    assert_eq!(
        c.request("pfir/explain", json!({ "code": "E0010" }))
            .map(|_| ()),
        Ok(())
    );
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn malformed_frames_and_bodies_are_answered_and_the_server_goes_on() {
    let mut c = Client::start(json!({}));
    c.open(URI, DOC);
    let with_length = |body: &[u8]| {
        let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        f.extend_from_slice(body);
        f
    };
    let cases: Vec<(&str, Vec<u8>, i64)> = vec![
        ("not JSON", with_length(b"this is not json"), -32700),
        (
            "a batch",
            with_length(br#"[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]"#),
            -32600,
        ),
        ("a number", with_length(b"17"), -32600),
        (
            "invalid UTF-8",
            with_length(b"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"\xc3\x28\"}"),
            -32700,
        ),
        (
            "no method",
            with_length(br#"{"jsonrpc":"2.0","params":{}}"#),
            -32600,
        ),
        (
            "a negative length",
            b"Content-Length: -20\r\n\r\n{\"jsonrpc\":\"2.0\"}".to_vec(),
            -32700,
        ),
        (
            "a length that is not a number",
            b"Content-Length: twelve\r\n\r\n{\"a\":1}".to_vec(),
            -32700,
        ),
        ("no length", b"Content-Type: x\r\n\r\n{}".to_vec(), -32700),
        (
            "a header line of a megabyte",
            [
                b"X-Long: ".to_vec(),
                vec![b'y'; 1 << 20],
                b"\r\n\r\n".to_vec(),
            ]
            .concat(),
            -32700,
        ),
    ];
    for (what, bytes, code) in cases {
        c.send_raw(&bytes);
        let err = transport_error(&mut c);
        assert_eq!(err["error"]["code"], code, "{what}: {err}");
        still_answers(&mut c);
    }
    // A request whose `method` is not a string: answered with its id.
    c.send_body(br#"{"jsonrpc":"2.0","id":99,"method":5}"#);
    let err = c.response(99).unwrap_err();
    assert_eq!(err["code"], -32600, "{err}");
    still_answers(&mut c);
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn requests_before_initialize_get_a_plain_server_not_initialized() {
    let mut c = Client::spawn(&[]);
    let err = c
        .request("textDocument/hover", json!({ "secret": "x".repeat(50) }))
        .unwrap_err();
    assert_eq!(err["code"], -32002);
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("textDocument/hover"), "{message}");
    // No Rust debug dump of the request (`Request { id: ... }`).
    assert!(
        !message.contains("Request {") && !message.contains("secret"),
        "{message}"
    );
    c.initialize(json!({}), None);
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn a_second_initialize_is_an_invalid_request() {
    let mut c = Client::start(json!({}));
    let err = c
        .request("initialize", json!({ "capabilities": {} }))
        .unwrap_err();
    assert_eq!(err["code"], -32600, "{err}");
    c.open(URI, DOC);
    still_answers(&mut c);
}

#[test]
fn parameter_errors_are_invalid_params_with_a_plain_message() {
    let mut c = Client::start(json!({}));
    let err = c.request("pfir/explain", json!({ "code": 5 })).unwrap_err();
    assert_eq!(err["code"], -32602, "{err}");
    let err = c
        .request("textDocument/documentSymbol", json!({ "textDocument": 3 }))
        .unwrap_err();
    assert_eq!(err["code"], -32602, "{err}");
    let message = err["message"].as_str().unwrap();
    assert!(
        !message.contains("Error(") && !message.contains("{ "),
        "{message}"
    );
}
