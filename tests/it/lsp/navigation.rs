//! The features `pfir::ide` answers, through the protocol: hover (types
//! and the pass decision), definition, references, highlights, rename,
//! outline, workspace symbols, folding, semantic tokens, inlay hints and
//! completion, all in UTF-16 positions after non-ASCII text.

use super::DOC;
use super::client::{Client, position_of};
use serde_json::{Value, json};

const URI: &str = "file:///virtual/nav.pfir";

fn opened() -> Client {
    let mut c = Client::start(json!({}));
    c.open(URI, DOC);
    c.diagnostics(URI, 1);
    c
}

/// `method` (which takes only the document) on the document.
fn whole_document(c: &mut Client, method: &str) -> Value {
    c.request(method, json!({ "textDocument": { "uri": URI } }))
        .unwrap()
}

/// `method` on lines `start` to `end` (excluded) of the document.
fn in_lines(c: &mut Client, method: &str, start: u32, end: u32) -> Value {
    let range = json!({
        "start": { "line": start, "character": 0 },
        "end": { "line": end, "character": 0 },
    });
    c.request(
        method,
        json!({ "textDocument": { "uri": URI }, "range": range }),
    )
    .unwrap()
}

/// `f` of each item of the array `list`.
fn each<'a, T>(list: &'a Value, f: impl Fn(&'a Value) -> T) -> Vec<T> {
    list.as_array().unwrap().iter().map(f).collect()
}

fn at(needle: &str, nth: usize, delta: usize) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": position_of(DOC, needle, nth, delta) })
}

/// `method` at the cursor `at` names.
fn ask(c: &mut Client, method: &str, needle: &str, nth: usize, delta: usize) -> Value {
    c.request(method, at(needle, nth, delta)).unwrap()
}

/// Renames the second `tids` (a use) to `new_name`.
fn rename_second_tids(c: &mut Client, new_name: &str) -> Result<Value, Value> {
    let mut params = at("tids", 1, 0);
    params["newName"] = json!(new_name);
    c.request("textDocument/rename", params)
}

/// `v[key]` is a string that holds `text`.
fn assert_mentions(v: &Value, key: &str, text: &str) {
    assert!(v[key].as_str().unwrap().contains(text), "{v}");
}

fn range_of(needle: &str, nth: usize) -> Value {
    json!({
        "start": position_of(DOC, needle, nth, 0),
        "end": position_of(DOC, needle, nth, needle.encode_utf16().count()),
    })
}

#[test]
fn hover_shows_the_type_of_a_value() {
    let mut c = opened();
    let hover = ask(&mut c, "textDocument/hover", "tids]", 0, 1);
    assert_eq!(hover["contents"]["kind"], "markdown");
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("tids: array<task_id"), "{md}");
    assert_eq!(hover["range"], range_of("tids", 1));
}

/// A client that shows only plain text (Emacs' eglot without
/// `markdown-mode`) gets plain text: no code fences, no backticks; one
/// that prefers Markdown gets Markdown.
#[test]
fn hover_follows_the_clients_content_format() {
    for (formats, kind) in [
        (json!(["plaintext"]), "plaintext"),
        (json!(["plaintext", "markdown"]), "plaintext"),
        (json!(["markdown", "plaintext"]), "markdown"),
    ] {
        let mut c = Client::spawn(&[]);
        let text_document = json!({ "hover": { "contentFormat": formats } });
        c.initialize_with(json!({}), json!({}), text_document);
        c.open(URI, DOC);
        c.diagnostics(URI, 1);
        let hover = ask(&mut c, "textDocument/hover", "tids]", 0, 1);
        assert_eq!(hover["contents"]["kind"], kind, "{formats}");
        let value = hover["contents"]["value"].as_str().unwrap();
        assert!(value.contains("tids: array<task_id"), "{value}");
        assert_eq!(
            value.contains("```"),
            kind == "markdown",
            "{formats}: {value}"
        );
        let decision = ask(&mut c, "textDocument/hover", "for i", 0, 0);
        let decision = decision["contents"]["value"].as_str().unwrap();
        assert_eq!(
            decision.contains("**"),
            kind == "markdown",
            "{formats}: {decision}"
        );
        assert!(decision.contains("expand-manual-phase-fence"), "{decision}");
    }
}

#[test]
fn hover_on_a_manual_loop_shows_the_pass_decision() {
    let mut c = opened();
    let hover = ask(&mut c, "textDocument/hover", "for i", 0, 0);
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("4 producers x 8 consumers"), "{md}");
    assert!(md.contains("phase_fence_barrier_0_tid"), "{md}");
}

#[test]
fn definition_jumps_to_the_binding_and_the_callee() {
    let mut c = opened();
    let def = ask(&mut c, "textDocument/definition", "tids]", 1, 2);
    assert_eq!(def["uri"], URI);
    assert_eq!(def["range"], range_of("tids", 0));
    let callee = ask(&mut c, "textDocument/definition", "k(deps", 1, 0);
    assert_eq!(callee["range"], range_of("k", 0));
}

#[test]
fn references_and_highlights_find_every_use() {
    let mut c = opened();
    let refs = c
        .request(
            "textDocument/references",
            json!({
                "textDocument": { "uri": URI },
                "position": position_of(DOC, "tids", 0, 1),
                "context": { "includeDeclaration": true },
            }),
        )
        .unwrap();
    let ranges = each(&refs, |l| &l["range"]);
    assert_eq!(
        ranges,
        vec![
            &range_of("tids", 0),
            &range_of("tids", 1),
            &range_of("tids", 2)
        ]
    );
    let highlights = ask(&mut c, "textDocument/documentHighlight", "tids", 2, 0);
    let kinds = each(&highlights, |h| &h["kind"]);
    // The definition is written, the uses are read.
    assert_eq!(kinds, vec![&json!(3), &json!(2), &json!(2)]);
}

#[test]
fn rename_edits_every_use_and_refuses_keywords() {
    let mut c = opened();
    let prepared = ask(&mut c, "textDocument/prepareRename", "tids", 1, 0);
    assert_eq!(prepared, range_of("tids", 1));
    let edit = rename_second_tids(&mut c, "ids").unwrap();
    let edits = edit["changes"][URI].as_array().unwrap();
    assert_eq!(edits.len(), 3);
    assert!(edits.iter().all(|e| e["newText"] == "ids"));
    let refused = rename_second_tids(&mut c, "for").unwrap_err();
    assert_eq!(refused["code"], -32803);
    assert_mentions(&refused, "message", "keyword");
}

#[test]
fn outline_nests_functions_scopes_and_loops() {
    let mut c = opened();
    let symbols = whole_document(&mut c, "textDocument/documentSymbol");
    let names = each(&symbols, |s| s["name"].as_str().unwrap());
    assert_eq!(names, vec!["k", "main"]);
    let main = &symbols[1];
    assert_eq!(main["kind"], 12);
    assert_eq!(main["selectionRange"], range_of("main", 0));
    let scope = &main["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == 3)
        .unwrap();
    assert_mentions(scope, "name", "ph\u{e4}se");
    let has_loop = scope["children"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["kind"] == 25);
    assert!(has_loop, "{scope:#}");
}

#[test]
fn workspace_symbols_search_every_open_document() {
    let mut c = opened();
    c.open("file:///virtual/other.pfir", "func kernel_two() {\n}\n");
    let found = c
        .request("workspace/symbol", json!({ "query": "krn" }))
        .unwrap();
    let found = found.as_array().unwrap();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["name"], "kernel_two");
    assert_eq!(found[0]["location"]["uri"], "file:///virtual/other.pfir");
}

#[test]
fn folding_covers_functions_and_blocks() {
    let mut c = opened();
    let folds = whole_document(&mut c, "textDocument/foldingRange");
    let lines = each(&folds, |f| {
        (
            f["startLine"].as_u64().unwrap(),
            f["endLine"].as_u64().unwrap(),
        )
    });
    // `main` (lines 4-12), the manual scope (5-11), the loop (7-10).
    for expected in [(4, 12), (5, 11), (7, 10)] {
        assert!(
            lines
                .iter()
                .any(|&(s, e)| s == expected.0 && e >= expected.1 - 1),
            "{expected:?} in {lines:?}"
        );
    }
}

/// Decodes the relative token stream into (line, start, length, type).
fn decode(data: &[Value]) -> Vec<(u64, u64, u64, u64)> {
    let mut out = Vec::new();
    let (mut line, mut start) = (0, 0);
    for t in data.chunks(5) {
        let dl = t[0].as_u64().unwrap();
        let ds = t[1].as_u64().unwrap();
        line += dl;
        start = if dl == 0 { start + ds } else { ds };
        out.push((line, start, t[2].as_u64().unwrap(), t[3].as_u64().unwrap()));
    }
    out
}

#[test]
fn semantic_tokens_use_the_legend_and_utf16_columns() {
    let mut c = opened();
    let legend =
        c.initialized["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"].clone();
    let index_of = |name: &str| {
        legend
            .as_array()
            .unwrap()
            .iter()
            .position(|t| t == name)
            .unwrap() as u64
    };
    let tokens = whole_document(&mut c, "textDocument/semanticTokens/full");
    let tokens = decode(tokens["data"].as_array().unwrap());
    // The comment on line 0 is one token as long as its UTF-16 text.
    let comment_len = DOC.lines().next().unwrap().encode_utf16().count() as u64;
    assert!(
        tokens.contains(&(0, 0, comment_len, index_of("comment"))),
        "{tokens:?}"
    );
    // `func` is a keyword, `k` a function, `tids` a variable.
    assert!(tokens.contains(&(1, 0, 4, index_of("keyword"))));
    assert!(tokens.contains(&(1, 5, 1, index_of("function"))));
    assert!(tokens.contains(&(6, 4, 4, index_of("variable"))));
    // The string after the astral character is measured in UTF-16 units.
    let string_len = "\"ph\u{e4}se \u{1F600}\"".encode_utf16().count() as u64;
    assert!(
        tokens.contains(&(5, 9, string_len, index_of("string"))),
        "{tokens:?}"
    );
}

#[test]
fn semantic_tokens_of_a_range_are_those_of_its_lines() {
    let mut c = opened();
    let full = whole_document(&mut c, "textDocument/semanticTokens/full");
    let full = decode(full["data"].as_array().unwrap());
    assert_eq!(
        c.initialized["capabilities"]["semanticTokensProvider"]["range"],
        true
    );
    let range = in_lines(&mut c, "textDocument/semanticTokens/range", 5, 7);
    // Decoded to absolute positions: the first token is relative to the
    // document's start, as in a full answer.
    let range = decode(range["data"].as_array().unwrap());
    let lines_5_and_6: Vec<_> = full
        .iter()
        .filter(|t| t.0 == 5 || t.0 == 6)
        .cloned()
        .collect();
    assert!(!lines_5_and_6.is_empty());
    assert_eq!(range, lines_5_and_6);
}

#[test]
fn inlay_hints_show_inferred_types() {
    let mut c = opened();
    let hints = in_lines(&mut c, "textDocument/inlayHint", 0, 13);
    let hints = hints.as_array().unwrap();
    let tids = hints
        .iter()
        .find(|h| h["position"] == position_of(DOC, " = array.create", 0, 0))
        .unwrap_or_else(|| panic!("{hints:#?}"));
    assert_mentions(tids, "label", "array<task_id");
}

#[test]
fn completion_offers_variables_in_scope() {
    let mut c = opened();
    let items = ask(&mut c, "textDocument/completion", "tids]", 0, 0);
    let labels = each(&items, |i| i["label"].as_str().unwrap());
    assert!(
        labels.contains(&"tids") && labels.contains(&"n"),
        "{labels:?}"
    );
}

/// The answer to `method` on a new server's only document: `functions`
/// functions, the `i`th written by `function(i)`.
fn answer_on(functions: usize, function: impl Fn(usize) -> String, method: &str) -> Value {
    let text: String = (0..functions).map(function).collect();
    let uri = "file:///virtual/huge.pfir";
    let mut c = Client::start(json!({}));
    c.open(uri, &text);
    c.request(method, json!({ "textDocument": { "uri": uri } }))
        .unwrap()
}

/// A document with more folding ranges than an answer lists (50,000): the
/// first ones in document order.
#[test]
fn folding_ranges_of_a_huge_document_are_bounded() {
    let function = |i| format!("func k{i}(a: i64) {{\n  if a > 0 {{\n    b = a\n  }}\n}}\n");
    let folds = answer_on(26_000, function, "textDocument/foldingRange");
    let starts = each(&folds, |f| f["startLine"].as_u64().unwrap());
    assert_eq!(starts.len(), 50_000);
    assert!(starts.is_sorted(), "the first ranges in document order");
    assert_eq!((starts[0], starts[1]), (0, 1));
    assert_eq!(*starts.last().unwrap(), 5 * 24_999 + 1);
}

/// A document with more symbols than an answer lists: the outline is cut
/// at the limit (10,000) and says how many symbols it leaves out.
#[test]
fn document_symbols_of_a_huge_document_are_bounded() {
    let function = |i| format!("func k{i}(a: i64) {{\n  b = a\n  c = b\n}}\n");
    let answer = answer_on(4_000, function, "textDocument/documentSymbol");
    fn count(symbols: &[Value]) -> usize {
        symbols
            .iter()
            .map(|s| 1 + s["children"].as_array().map_or(0, |c| count(c)))
            .sum()
    }
    let symbols = answer.as_array().unwrap();
    let listed = count(symbols);
    assert!(
        (10_000..=10_001).contains(&listed),
        "{listed} symbols listed"
    );
    let shown = answer.to_string();
    assert!(shown.contains("symbols not listed") || shown.contains("symbols below not listed"));
    // Everything beyond the limit is counted, not lost: 4,000 functions
    // of 4 symbols each (the function, `a`, `b`, `c`), or more.
    let last = symbols.last().unwrap()["name"].as_str().unwrap();
    let left: usize = last
        .trim_start_matches('(')
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .expect("the last entry counts what is left out");
    assert!(listed - 1 + left >= 16_000, "{listed} + {left}");
}
