//! Tests on save: the RUN lines run when the document is saved; a failing
//! CHECK line gets a diagnostic with FileCheck's explanation and the
//! closest candidate, each CHECK line a code lens with the output line it
//! matched, go to definition on it opens that line in the `pfir-output:`
//! document, and `pfir/viewOutput` serves those documents.

use super::client::{Client, position_of};
use serde_json::{Value, json};

const TEST: &str = "// RUN: pfir opt %s --passes=expand-manual-phase-fence | FileCheck %s

// CHECK-LABEL: orchestration func main(n: i64) {
// CHECK: phase_fence_barrier_0_tid = system.task_dummy(deps=[tids])
// CHECK: b = submit k(deps=[tids])
func k() {
}

orchestration func main(n: i64) {
  manual {
    tids = array.create(4, task_id)
    for i in parallel(4) {
      a = submit k(deps=[tids])
      b = submit k(deps=[tids])
    }
  }
}
";

fn wait_for_test_run(c: &mut Client) {
    c.wait_for(|m| m["method"] == "workspace/codeLens/refresh");
}

fn lenses(c: &mut Client, uri: &str) -> Vec<(u64, String)> {
    let lenses = c
        .request(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": uri } }),
        )
        .unwrap();
    lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["command"]["title"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_failing_check_line_gets_a_diagnostic_and_the_passing_ones_a_lens() {
    let mut c = Client::start(json!({}));
    let (_, uri) = c.open_and_save("failing.pfir", TEST);
    let diags = c.diagnostics_from(&uri, "pfir test");
    let failed: Vec<&Value> = diags
        .iter()
        .filter(|d| d["source"] == "pfir test")
        .collect();
    assert_eq!(failed.len(), 1, "{diags:#?}");
    let d = failed[0];
    assert_eq!(
        d["range"]["start"],
        position_of(TEST, "// CHECK: b =", 0, 0)
    );
    let message = d["message"].as_str().unwrap();
    assert!(
        message.contains("CHECK: expected string not found in input"),
        "{message}"
    );
    assert!(
        message.contains(
            "closest candidate, output line 10: b = submit k(deps=[phase_fence_barrier_0_tid])"
        ),
        "{message}"
    );
    wait_for_test_run(&mut c);
    let lenses = lenses(&mut c, &uri);
    assert!(
        lenses.contains(&(
            3,
            "✓ matched output line 7: phase_fence_barrier_0_tid = system.task_dummy(deps=[tids])"
                .into()
        )),
        "{lenses:#?}"
    );
    assert!(
        lenses
            .iter()
            .any(|(line, title)| *line == 4 && title.starts_with("✗ not found"))
    );
}

#[test]
fn a_passing_test_has_no_problems_and_definition_opens_the_output() {
    let passing = TEST.replace(
        "// CHECK: b = submit k(deps=[tids])",
        "// CHECK: b = submit k(deps=[phase_fence_barrier_0_tid])",
    );
    let mut c = Client::start(json!({}));
    let (_, uri) = c.open_file("passing.pfir", &passing);
    c.diagnostics(&uri, 1);
    c.save(&uri);
    wait_for_test_run(&mut c);
    let lenses = lenses(&mut c, &uri);
    assert_eq!(lenses.len(), 3, "{lenses:#?}");
    assert!(
        lenses
            .iter()
            .all(|(_, t)| t.starts_with("✓ matched output line"))
    );
    // Go to definition on a CHECK line: the matched line of the output.
    let def = c
        .request(
            "textDocument/definition",
            json!({ "textDocument": { "uri": uri }, "position": position_of(&passing, "// CHECK: b", 0, 3) }),
        )
        .unwrap();
    let target = def["uri"].as_str().unwrap();
    assert!(target.starts_with("pfir-output:"), "{target}");
    assert!(
        target.contains("passing.pfir.out?source=file%3A%2F%2F"),
        "{target}"
    );
    assert!(target.ends_with("&run=0"), "{target}");
    let line = def["range"]["start"]["line"].as_u64().unwrap() as usize;
    // The client answers the URI with pfir/viewOutput (run 0).
    let output = c
        .request(
            "pfir/viewOutput",
            json!({ "textDocument": { "uri": uri }, "run": 0 }),
        )
        .unwrap();
    let text = output["text"].as_str().unwrap();
    assert_eq!(
        text.lines().nth(line).unwrap().trim(),
        "b = submit k(deps=[phase_fence_barrier_0_tid])"
    );
}

#[test]
fn view_output_runs_the_pass_pipeline_on_the_unsaved_text() {
    let mut c = Client::start(json!({}));
    let (_, uri) = c.open_file("view.pfir", TEST);
    // Unsaved edit: the loop gains a third consumer.
    let edited = TEST.replace(
        "      b = submit k(deps=[tids])\n",
        "      b = submit k(deps=[tids])\n      e = submit k(deps=[tids])\n",
    );
    c.change(&uri, 2, &edited);
    let output = c
        .request("pfir/viewOutput", json!({ "textDocument": { "uri": uri } }))
        .unwrap();
    let text = output["text"].as_str().unwrap();
    assert!(
        text.contains("e = submit k(deps=[phase_fence_barrier_0_tid])"),
        "{text}"
    );
    let bad_run = c
        .request(
            "pfir/viewOutput",
            json!({ "textDocument": { "uri": uri }, "run": 5 }),
        )
        .unwrap_err();
    assert!(
        bad_run["message"]
            .as_str()
            .unwrap()
            .contains("no RUN line 5"),
        "{bad_run}"
    );
}

#[test]
fn tests_on_save_can_be_turned_off() {
    let mut c = Client::start(json!({ "testsOnSave": false }));
    let (_, uri) = c.open_file("off.pfir", TEST);
    c.diagnostics(&uri, 1);
    c.save(&uri);
    // Give a test run (were one started) time to finish; none is.
    c.request("pfir/testBusy", json!({ "ms": 500 })).unwrap();
    assert_eq!(lenses(&mut c, &uri), Vec::<(u64, String)>::new());
    // Turned on, the next save runs the tests.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "testsOnSave": true } }),
    );
    c.save(&uri);
    wait_for_test_run(&mut c);
    assert_eq!(lenses(&mut c, &uri).len(), 3);
}

#[test]
fn a_failing_run_line_without_filecheck_is_reported_on_the_run_line() {
    let text = "// RUN: pfir opt %s --verify-diagnostics\nfunc k(x: i64) {\n  y = zz\n}\n";
    let mut c = Client::start(json!({}));
    let (_, uri) = c.open_and_save("verify.pfir", text);
    let diags = c.diagnostics_from(&uri, "pfir test");
    let run = diags.iter().find(|d| d["source"] == "pfir test").unwrap();
    assert_eq!(run["range"]["start"], json!({ "line": 0, "character": 0 }));
    let message = run["message"].as_str().unwrap();
    assert!(
        message.contains("--verify-diagnostics` failed"),
        "{message}"
    );
    assert!(message.contains("unexpected error"), "{message}");
}

/// Hover on the first character of `uri`: the server still answers.
fn answers_hover(c: &mut Client, uri: &str) {
    c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 2, "character": 6 } }),
    )
    .expect("hover is answered");
}

/// The hostile saves of issue 32: a RUN line that would read the
/// server's own stdin (its JSON-RPC input), a device, or lift a limit is
/// not run, with the reason on the RUN line, and the server keeps
/// answering, with or without consent.
#[test]
fn hostile_saves_never_read_the_servers_streams() {
    let refused_always = [
        ("pfir check - < /dev/stdin", "the server's own input"),
        ("pfir opt %s > /dev/stdout", "the server's own output"),
    ];
    let refused_without_consent = [
        (
            "pfir opt /dev/stdin | FileCheck %s",
            "a stream, a device or a FIFO",
        ),
        (
            "FileCheck %s --input-file=/dev/stdin",
            "a stream, a device or a FIFO",
        ),
        (
            "pfir opt /proc/self/fd/0 | FileCheck %s",
            "a stream, a device or a FIFO",
        ),
        (
            "pfir opt /dev/zero --input-size-limit=100000000000 | FileCheck %s",
            "lifts a limit (`--input-size-limit`)",
        ),
    ];
    for consent in [false, true] {
        let mut c = Client::start(json!({ "allowRunningCommands": consent, "testTimeout": 1 }));
        let cases = refused_always
            .iter()
            .chain(refused_without_consent.iter().filter(|_| !consent));
        for (i, (run, why)) in cases.enumerate() {
            let text = format!("// RUN: {run}\n// CHECK: func\nfunc k() {{\n}}\n");
            let (_, uri) = c.open_and_save(&format!("hostile{i}.pfir"), &text);
            let diags = c.diagnostics_from(&uri, "pfir test");
            let d = diags.iter().find(|d| d["source"] == "pfir test").unwrap();
            let message = d["message"].as_str().unwrap();
            assert_eq!(d["range"]["start"]["line"], 0, "{run}");
            assert!(
                message.contains("not run") && message.contains(why),
                "{run}: {message}"
            );
            answers_hover(&mut c, &uri);
        }
        if consent {
            // With consent they run, as processes: stdin is empty, the
            // reading of /dev/zero is killed on time, and the server's own
            // memory stays small.
            for (i, (run, _)) in refused_without_consent.iter().enumerate() {
                let text = format!("// RUN: {run}\n// CHECK: func\nfunc k() {{\n}}\n");
                let (_, uri) = c.open_and_save(&format!("consented{i}.pfir"), &text);
                let diags = c.diagnostics_from(&uri, "pfir test");
                assert!(!diags.is_empty(), "{run}");
                answers_hover(&mut c, &uri);
            }
            if let Some(kib) = super::client::memory_kib(c.pid(), "VmHWM:") {
                assert!(kib < 1 << 20, "the server peaked at {kib} KiB");
            }
        }
        assert!(c.shutdown_and_exit().success());
    }
}
