//! Edits the server proposes: quick fixes from diagnostics, the
//! `expected-error` comment, formatting (whole document and range, comments
//! kept) and "Update CHECK lines".

use super::client::{Client, position_of};
use serde_json::{Value, json};

const URI: &str = "file:///virtual/edit.pfir";

/// Applies LSP `edits` (UTF-16 ranges) to `text`.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let character = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let mut units = 0;
        for (i, ch) in text[start..].char_indices() {
            if units >= character || ch == '\n' {
                return start + i;
            }
            units += ch.len_utf16();
        }
        text.len()
    };
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (a, b, new) in edits {
        out.replace_range(a..b, new);
    }
    out
}

fn actions(
    c: &mut Client,
    uri: &str,
    text: &str,
    needle: &str,
    only: Option<&[&str]>,
) -> Vec<Value> {
    let mut context = json!({ "diagnostics": [] });
    if let Some(only) = only {
        context["only"] = json!(only);
    }
    let range =
        json!({ "start": position_of(text, needle, 0, 0), "end": position_of(text, needle, 0, 1) });
    c.code_actions(uri, range, context)
}

/// Opens `text` as `URI`, waits for its diagnostics and returns the
/// client with the code actions offered at `needle`.
fn open_with_actions(text: &str, needle: &str) -> (Client, Vec<Value>) {
    let mut c = Client::start(json!({}));
    c.open(URI, text);
    c.diagnostics(URI, 1);
    let all = actions(&mut c, URI, text, needle, None);
    (c, all)
}

/// The first action `wanted` picks out of `all` (the list in the panic).
fn find_action(all: &[Value], wanted: impl Fn(&Value) -> bool) -> &Value {
    all.iter()
        .find(|a| wanted(a))
        .unwrap_or_else(|| panic!("{all:#?}"))
}

/// `text` after the edits `action` carries for `uri`.
fn applied(text: &str, action: &Value, uri: &str) -> String {
    apply(text, action["edit"]["changes"][uri].as_array().unwrap())
}

/// A whole-document formatting request for `uri`.
fn format_document(c: &mut Client, uri: &str) -> Result<Value, Value> {
    c.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } }),
    )
}

#[test]
fn a_did_you_mean_is_a_quick_fix() {
    let text = "// \u{e9}\u{1F600}\nfunc k(x: i64) {\n  value = x\n  y = valu + 1\n}\n";
    let (_c, all) = open_with_actions(text, "valu +");
    let fix = find_action(&all, |a| {
        a["title"]
            .as_str()
            .unwrap()
            .starts_with("Did you mean `value`")
    });
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["diagnostics"][0]["code"], "E0010");
    let fixed = applied(text, fix, URI);
    assert_eq!(fixed, text.replace("valu +", "value +"));
}

#[test]
fn a_machine_applicable_fix_is_preferred() {
    let text = "func k(x: i64) {\n  y = x \u{ff0b} 1\n}\n";
    let (_c, all) = open_with_actions(text, "\u{ff0b}");
    let fix = find_action(&all, |a| a["isPreferred"] == true);
    let fixed = applied(text, fix, URI);
    assert_eq!(fixed, "func k(x: i64) {\n  y = x + 1\n}\n");
}

#[test]
fn an_error_can_become_an_expected_error_comment() {
    let text = "func k(x: i64) {\n  y = zz\n}\n";
    let (c, all) = open_with_actions(text, "zz");
    let add = find_action(&all, |a| a["title"] == "Add `expected-error` comment");
    let with_comment = applied(text, add, URI);
    assert_eq!(
        with_comment,
        "func k(x: i64) {\n  // expected-error@+1 {{unknown variable `zz`}}\n  y = zz\n}\n"
    );
    // The file now passes `pfir opt --verify-diagnostics`.
    let path = c.dir.path().join("v.pfir");
    std::fs::write(&path, &with_comment).unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pfir"))
        .arg("opt")
        .arg(&path)
        .arg("--verify-diagnostics")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn formatting_keeps_comments() {
    let text =
        "// h\u{e9}ader \u{1F600}\nfunc k(x: i64) {\n    // keep me\n  y =   x+1   // and me\n}\n";
    let mut c = Client::start(json!({}));
    c.open(URI, text);
    let edits = format_document(&mut c, URI).unwrap();
    let formatted = apply(text, edits.as_array().unwrap());
    assert_eq!(
        formatted,
        "// h\u{e9}ader \u{1F600}\nfunc k(x: i64) {\n  // keep me\n  y = x + 1 // and me\n}\n"
    );
    // Already formatted: no edits.
    c.change(URI, 2, &formatted);
    let none = format_document(&mut c, URI).unwrap();
    assert_eq!(none, json!([]));
}

#[test]
fn range_formatting_touches_only_the_range() {
    let text = "func a(x: i64) {\n  y =   x+1\n}\n\nfunc b(x: i64) {\n  z =   x+2\n}\n";
    let mut c = Client::start(json!({}));
    c.open(URI, text);
    let edits = c
        .request(
            "textDocument/rangeFormatting",
            json!({
                "textDocument": { "uri": URI },
                "range": { "start": position_of(text, "z =", 0, 0), "end": position_of(text, "x+2", 0, 3) },
                "options": { "tabSize": 2, "insertSpaces": true },
            }),
        )
        .unwrap();
    let formatted = apply(text, edits.as_array().unwrap());
    assert_eq!(
        formatted,
        "func a(x: i64) {\n  y =   x+1\n}\n\nfunc b(x: i64) {\n  z = x + 2\n}\n"
    );
}

/// A document with semantic errors (what is being typed) is formatted;
/// only a syntax error stops formatting.
#[test]
fn formatting_a_document_with_semantic_errors_works() {
    let text = "func k() {\n    x =   nope(y,1)\n}\n";
    let mut c = Client::start(json!({}));
    c.open(URI, text);
    let edits = format_document(&mut c, URI).unwrap();
    let formatted = apply(text, edits.as_array().unwrap());
    assert_eq!(formatted, "func k() {\n  x = nope(y, 1)\n}\n");
}

#[test]
fn formatting_a_broken_document_fails_with_the_reason() {
    let mut c = Client::start(json!({}));
    c.open(URI, "func k( {\n");
    let err = format_document(&mut c, URI).unwrap_err();
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with("cannot format the document"),
        "{err}"
    );
}

#[test]
fn update_check_lines_regenerates_them_from_the_editor_text() {
    let text = "// RUN: pfir opt %s | FileCheck %s\n\n// CHECK-LABEL: func old() {\nfunc k(x:   i64) {\n  y = x\n}\n";
    let mut c = Client::start(json!({}));
    let (_, uri) = c.write_file("update.pfir", text);
    c.open(&uri, text);
    let all = actions(&mut c, &uri, text, "func k", Some(&["source"]));
    let update = find_action(&all, |a| a["title"] == "Update CHECK lines");
    assert_eq!(update["kind"], "source.updateChecks.pfir");
    // Offered without its edit: the command runs when the action is resolved.
    assert!(update.get("edit").is_none(), "{update:#}");
    let resolved = c.request("codeAction/resolve", update.clone()).unwrap();
    let updated = applied(text, &resolved, &uri);
    assert_eq!(
        updated,
        "// RUN: pfir opt %s | FileCheck %s\n\n// CHECK-LABEL: func k(x: i64) {\n// CHECK-NEXT:   y = x\n// CHECK-NEXT: }\nfunc k(x:   i64) {\n  y = x\n}\n"
    );
    // Not offered while the cursor merely moves (no `only`, not invoked).
    let automatic = actions(&mut c, &uri, text, "func k", None);
    assert!(automatic.iter().all(|a| a["title"] != "Update CHECK lines"));
}

/// Formatting uses `pfir fmt`'s line width: `[fmt] line-width` of the
/// nearest `pfir.toml` above the document, else 100; a `pfir.toml` that
/// does not read fails the request with its reason.
#[test]
fn formatting_breaks_lines_at_the_width_of_the_nearest_pfir_toml() {
    let text = "func k(a: i64, b: i64) -> i64 {\n  x = k(a + b + a + b, a + b + a + b, a)\n  return x\n}\n";
    let mut c = Client::start(json!({}));
    // No pfir.toml: 100 columns, the statement fits.
    c.open(URI, text);
    assert_eq!(format_document(&mut c, URI).unwrap(), json!([]));
    // A pfir.toml next to the file: 30 columns.
    let (toml, _) = c.write_file("pfir.toml", "[fmt]\nline-width = 30\n");
    let (_, uri) = c.write_file("wide.pfir", text);
    c.open(&uri, text);
    let edits = format_document(&mut c, &uri).unwrap();
    assert_eq!(
        apply(text, edits.as_array().unwrap()),
        "func k(\n  a: i64,\n  b: i64\n) -> i64 {\n  x = k(\n    a + b + a + b,\n    a + b + a + b,\n    a\n  )\n  return x\n}\n"
    );
    // The nearest one wins; one that does not read fails the request.
    std::fs::create_dir(toml.with_file_name("deeper")).unwrap();
    c.write_file("deeper/pfir.toml", "[fmt]\nline-width = 0\n");
    let (_, uri) = c.write_file("deeper/bad.pfir", text);
    c.open(&uri, text);
    let err = format_document(&mut c, &uri).unwrap_err();
    let message = err["message"].as_str().unwrap();
    assert!(
        message.starts_with("cannot format the document") && message.contains("line-width"),
        "{message}"
    );
}
