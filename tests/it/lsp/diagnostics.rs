//! Live diagnostics: ranges in UTF-16 after non-ASCII text, several errors,
//! related information, codes with their explanation link, edits that fix
//! and reintroduce errors, split chunks, remarks per setting, and the
//! other position encodings.

use super::client::{Client, position_of};
use serde_json::{Value, json};

const URI: &str = "file:///virtual/diag.pfir";

/// A server with `text` open as `URI`, and its first diagnostics.
fn opened(text: &str) -> (Client, Vec<Value>) {
    let mut c = Client::start(json!({}));
    c.open(URI, text);
    let diags = c.diagnostics(URI, 1);
    (c, diags)
}

/// The diagnostics of `text` (opened as `URI`) with `code`: `count` of them.
fn counted(text: &str, code: &str, count: usize) -> Vec<Value> {
    let (_c, diags) = opened(text);
    let with_code: Vec<Value> = by_code(&diags, code).into_iter().cloned().collect();
    assert_eq!(with_code.len(), count, "{diags:#?}");
    with_code
}

fn by_code<'a>(diags: &'a [Value], code: &str) -> Vec<&'a Value> {
    diags.iter().filter(|d| d["code"] == code).collect()
}

#[test]
fn ranges_count_utf16_units_after_astral_characters() {
    let text = "func k() {\n}\n\norchestration func main(n: i64) {\n  manual \"h\u{e9}llo \u{1F600}\" ; {\n  }\n}\n";
    let d = &counted(text, "E0003", 1)[0];
    let start = position_of(text, ";", 0, 0);
    assert_eq!(d["range"]["start"], start);
    assert_eq!(d["range"]["end"], position_of(text, ";", 0, 1));
    // 2 + `manual "` (8) + `héllo ` (6) + 😀 (2 units) + `" ` (2).
    assert_eq!(start["character"], 20);
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "pfir");
    assert_eq!(d["codeDescription"]["href"], "pfir-explain:E0003");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("help: put the next statement on its own line"),
        "{d:#?}"
    );
}

#[test]
fn utf8_and_utf32_are_used_when_offered() {
    let text = "orchestration func main() {\n  manual \"\u{1F600}\" ; {\n  }\n}\n";
    for (offered, name, column) in [
        (&["utf-8", "utf-16"][..], "utf-8", 16),
        (&["utf-32"][..], "utf-32", 13),
        (&["utf-16"][..], "utf-16", 14),
    ] {
        let mut c = Client::start_with(json!({}), Some(offered));
        assert_eq!(c.initialized["capabilities"]["positionEncoding"], name);
        c.open(URI, text);
        let diags = c.diagnostics(URI, 1);
        let d = diags
            .iter()
            .find(|d| d["code"] == "E0003")
            .unwrap_or_else(|| panic!("{diags:#?}"));
        assert_eq!(
            d["range"]["start"],
            json!({ "line": 1, "character": column }),
            "{name}"
        );
    }
}

#[test]
fn every_error_of_the_file_is_reported() {
    let text = "func k(x: i64) {\n  a = x + aa\n  b = bb\n  c = a + cc\n}\n";
    let unknown = counted(text, "E0010", 3);
    for (d, name) in unknown.iter().zip(["aa", "bb", "cc"]) {
        assert_eq!(d["range"]["start"], position_of(text, name, 0, 0));
        assert_eq!(d["range"]["end"], position_of(text, name, 0, 2));
    }
}

#[test]
fn secondary_labels_are_related_information() {
    let text = "func k() {\n}\n\nfunc k() {\n}\n";
    let (_c, diags) = opened(text);
    let d = by_code(&diags, "E0012")[0];
    let related = d["relatedInformation"]
        .as_array()
        .expect("related information");
    assert_eq!(related.len(), 1);
    assert_eq!(related[0]["location"]["uri"], URI);
    assert_eq!(
        related[0]["location"]["range"]["start"],
        position_of(text, "k", 0, 0)
    );
    assert_eq!(related[0]["message"], "first defined here");
}

#[test]
fn diagnostics_clear_when_fixed_and_return_when_broken_again() {
    let broken = "func k(x: i64) {\n  y = x + yy\n}\n";
    let fixed = "func k(x: i64) {\n  y = x + x\n}\n";
    let mut c = Client::start(json!({}));
    c.open(URI, broken);
    assert_eq!(by_code(&c.diagnostics(URI, 1), "E0010").len(), 1);
    c.change(URI, 2, fixed);
    assert_eq!(c.diagnostics(URI, 2), Vec::<Value>::new());
    c.change(URI, 3, broken);
    let again = c.diagnostics(URI, 3);
    assert_eq!(by_code(&again, "E0010").len(), 1, "{again:#?}");
}

#[test]
fn split_chunks_are_checked_one_by_one() {
    let text = "func k(x: i64) {\n  y = aa\n}\n// -----\nfunc k(x: i64) {\n  y = bb\n}\n";
    let (_c, diags) = opened(text);
    // Without splitting, the second `k` would be a duplicate function.
    assert!(by_code(&diags, "E0012").is_empty(), "{diags:#?}");
    let unknown = by_code(&diags, "E0010");
    assert_eq!(unknown.len(), 2);
    assert_eq!(unknown[1]["range"]["start"], position_of(text, "bb", 0, 0));
}

#[test]
fn remarks_follow_the_setting() {
    let mut c = Client::start(json!({ "remarks": false }));
    c.open(URI, super::DOC);
    let quiet = c.diagnostics(URI, 1);
    assert_eq!(quiet, Vec::<Value>::new());
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "pfir": { "remarks": true } } }),
    );
    let loud = c.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(|d| !d.is_empty())
    });
    let d = &loud["params"]["diagnostics"][0];
    assert_eq!(d["severity"], 3, "{d:#?}");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("4 producers x 8 consumers")
    );
    assert_eq!(d["range"]["start"], position_of(super::DOC, "for i", 0, 0));
}

#[test]
fn on_save_mode_checks_on_save_only() {
    let mut c = Client::start(json!({ "diagnostics": { "onType": false }, "testsOnSave": false }));
    let (_, uri) = c.write_file("save.pfir", "func k(x: i64) {\n  y = x\n}\n");
    c.open(&uri, "func k(x: i64) {\n  y = x\n}\n");
    assert_eq!(c.diagnostics(&uri, 1), Vec::<Value>::new());
    c.change(&uri, 2, "func k(x: i64) {\n  y = zz\n}\n");
    c.change(&uri, 3, "func k(x: i64) {\n  y = qq\n}\n");
    c.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri } }),
    );
    let diags = c.diagnostics(&uri, 2);
    // The first publication after the changes is the saved version's.
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("`qq`"));
}
