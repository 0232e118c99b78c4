//! `pfir lsp` latency on a 5,000-line document.
//!
//! `cargo bench --bench lsp` starts the release `pfir lsp` and drives it
//! with the scripted client of the end-to-end tests
//! (`tests/it/lsp/client.rs`), UTF-16 positions. The document is generated:
//! orchestration functions with a `manual` scope holding a parallel loop of
//! `submit`s (the pass compresses each), about 5,000 lines, with a comment
//! of non-ASCII text on top. It reports, over `--runs N` rounds (default
//! 20), the median and the worst of:
//!
//! - diagnostics: from sending a `didChange` (which breaks or fixes a name
//!   in the last function) to receiving the `publishDiagnostics` of that
//!   version (the debounce of the worker included);
//! - hover and definition: one request to its answer, on a use of a
//!   variable in the middle of the document; the first hover is sent as
//!   soon as the diagnostics arrive, while the worker may still be
//!   building the document's analysis, and is reported apart; so is a
//!   hover sent right after a `didChange` (typing, then hovering at once),
//!   before that version's diagnostics.
//!
//! In process, it also times the two steps the worker takes before
//! publishing: reading the version (its `pfir::ide` analysis: front end and
//! index; requests answer from it as soon as it is built) and running the
//! pass on it for the diagnostics.
//!
//! Targets (issue 10): diagnostics within 100 ms, hover/definition within
//! 20 ms. No test asserts any of these times.

#[allow(dead_code)]
#[path = "../tests/it/lsp/client.rs"]
mod client;

use client::{Client, position_of};
use serde_json::json;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

const LINES: usize = 5_000;

fn document() -> String {
    let mut s = String::from("// Generated for the pfir lsp benchmark: h\u{e9}llo \u{1F600}\n");
    s.push_str("func k(x: i64) -> i64 {\n  return x\n}\n");
    let mut f = 0;
    while s.lines().count() < LINES - 12 {
        let _ = write!(
            s,
            "\norchestration func job{f}(n: i64) {{\n  manual {{\n    tids = array.create(4, task_id)\n    for i in parallel(4) {{\n      a, ta = submit k(n, deps=[tids])\n      b, tb = submit k(a, deps=[tids])\n      c = a + b\n    }}\n  }}\n}}\n"
        );
        f += 1;
    }
    s
}

fn summary(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let median = samples[samples.len() / 2];
    let worst = samples[samples.len() - 1];
    println!(
        "{name:<32} median {:>7.2} ms   worst {:>7.2} ms   ({} samples)",
        median.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3,
        samples.len()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let good = document();
    let broken = {
        let at = good.rfind("c = a + b").expect("last function");
        let mut t = good.clone();
        t.replace_range(at..at + 9, "c = a + bb");
        t
    };
    println!(
        "document: {} lines, {} bytes",
        good.lines().count(),
        good.len()
    );
    let uri = "file:///bench/lsp.pfir";
    let mut c = Client::start(json!({}));
    c.open(uri, &good);
    assert!(
        c.diagnostics(uri, 1).is_empty(),
        "the generated document has errors"
    );

    let middle = good.len() / 2;
    let nth = good[..middle].matches("deps=[tids]").count();
    let position = position_of(&good, "deps=[tids]", nth, 6);
    let at = json!({ "textDocument": { "uri": uri }, "position": position });

    let (mut diagnostics, mut first_hover, mut hover, mut definition) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut hover_while_typing = Vec::new();
    for round in 0..runs {
        let version = 2 + 2 * round as i64;
        let text = if round % 2 == 0 { &broken } else { &good };
        let start = Instant::now();
        c.change(uri, version, text);
        let published = c.diagnostics(uri, version);
        diagnostics.push(start.elapsed());
        assert_eq!(
            published.is_empty(),
            round % 2 == 1,
            "unexpected diagnostics"
        );

        // Sent as soon as the diagnostics arrive.
        let start = Instant::now();
        let h = c.request("textDocument/hover", at.clone()).expect("hover");
        first_hover.push(start.elapsed());
        assert!(h["contents"]["value"].as_str().is_some(), "no hover");

        let start = Instant::now();
        let h = c.request("textDocument/hover", at.clone()).expect("hover");
        hover.push(start.elapsed());
        assert!(h["contents"]["value"].as_str().is_some(), "no hover");

        let start = Instant::now();
        let d = c
            .request("textDocument/definition", at.clone())
            .expect("definition");
        definition.push(start.elapsed());
        assert!(d["range"].is_object(), "no definition");

        // Typing, then hovering at once: the hover is sent right after the
        // change, while the worker still waits out its debounce.
        c.change(uri, version + 1, text);
        let start = Instant::now();
        let h = c.request("textDocument/hover", at.clone()).expect("hover");
        hover_while_typing.push(start.elapsed());
        assert!(h["contents"]["value"].as_str().is_some(), "no hover");
        c.diagnostics(uri, version + 1);
    }
    summary("diagnostics", diagnostics);
    // In process, for comparison: what one reading of a version costs
    // (the analysis: front end and index), and the pass the worker runs on
    // it for the diagnostics.
    let (mut analysis, mut check) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let start = Instant::now();
        let read = pfir::ide::Analysis::new(&good);
        analysis.push(start.elapsed());
        let start = Instant::now();
        std::hint::black_box(read.diagnostics());
        check.push(start.elapsed());
    }
    summary("  analysis (front end, index)", analysis);
    summary("  then the pass, diagnostics", check);
    summary("hover, first after the change", first_hover);
    summary("hover", hover);
    summary("definition", definition);
    summary("hover sent right after a change", hover_while_typing);
    let status = c.shutdown_and_exit();
    assert!(status.success());
}
