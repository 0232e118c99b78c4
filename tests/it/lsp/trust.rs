//! The server on files nobody trusts: by default nothing but pfir's own
//! commands runs, on any path (save, `pfir/viewOutput`, code actions), and
//! settings fail closed; tests on save run off the main loop, can be
//! cancelled and leave no process behind; the editor's verdict is
//! `pfir test`'s. Each attack writes a marker file (in a temporary
//! directory) if it ran: the tests check that it does not exist.

#![cfg(unix)]

use super::client::Client;
use crate::support::{eventually, process_ended};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The diagnostics of the first test run of `uri` that reports something.
fn test_diagnostics(c: &mut Client, uri: &str) -> Vec<Value> {
    c.diagnostics_from(uri, "pfir test")
        .into_iter()
        .filter(|d| d["source"] == "pfir test")
        .collect()
}

/// A `window/showMessage` warning that mentions `needle`.
fn warning(c: &mut Client, needle: &str) -> String {
    let m = c.wait_for(|m| {
        m["method"] == "window/showMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|s| s.contains(needle))
    });
    assert_eq!(m["params"]["type"], 2, "a warning: {m}");
    m["params"]["message"].as_str().unwrap().to_string()
}

fn pids(path: &Path) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Opens and saves `name`, a test whose RUN line appends its shell's pid
/// to a file and sleeps 300 s: its URI and the pid file.
fn save_a_sleeper(c: &mut Client, name: &str) -> (String, PathBuf) {
    let pidfile = c.dir.path().join("pids");
    let text = format!(
        "// RUN: sh -c 'echo $$ >> {}; sleep 300'\nfunc k() {{\n}}\n",
        pidfile.display()
    );
    let (_, uri) = c.open_and_save(name, &text);
    (uri, pidfile)
}

/// Kills what a failed test left running, then fails.
fn assert_ended(all: &[u32], what: &str) {
    let alive: Vec<u32> = all.iter().copied().filter(|&p| !process_ended(p)).collect();
    for p in &alive {
        crate::support::kill_quietly(*p);
    }
    assert!(alive.is_empty(), "{what}: processes {alive:?} survived");
}

/// Waits for every process of `all` to end; kills the survivors and fails.
fn assert_all_end(all: &[u32], what: &str) {
    eventually(|| all.iter().all(|&p| process_ended(p)));
    assert_ended(all, what);
}

/// A server that runs commands (for up to 600 s) with the sleeper `name`
/// saved and running: the client, the URI and the pid file.
fn a_sleeper_running(name: &str) -> (Client, String, PathBuf) {
    let mut c = Client::start(json!({ "allowRunningCommands": true, "testTimeout": 600 }));
    let (uri, pidfile) = save_a_sleeper(&mut c, name);
    assert!(eventually(|| pids(&pidfile).len() == 1), "the test started");
    (c, uri, pidfile)
}

/// The attack of the issue: two RUN lines that write marker files.
fn attack(dir: &Path) -> (String, [PathBuf; 2]) {
    let (a, b) = (dir.join("pwned"), dir.join("pwned2"));
    let text = format!(
        "// RUN: touch {}\n// RUN: sh -c 'id > {}'\nfunc k() {{\n}}\n",
        a.display(),
        b.display()
    );
    (text, [a, b])
}

fn assert_not_run(markers: &[PathBuf]) {
    for m in markers {
        assert!(!m.exists(), "{} was created: the command ran", m.display());
    }
}

#[test]
fn saving_runs_no_other_program_by_default() {
    let mut c = Client::start(json!({}));
    let (text, markers) = attack(c.dir.path());
    let (_, uri) = c.open_and_save("attack.pfir", &text);
    let diags = test_diagnostics(&mut c, &uri);
    assert_not_run(&markers);
    // The first RUN line says why it did not run and how to allow it; the
    // second is not reached.
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    assert_eq!(d["severity"], 3, "information: {d}");
    assert_eq!(d["range"]["start"]["line"], 0);
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("not run: it runs `touch`"), "{message}");
    assert!(message.contains("allowRunningCommands"), "{message}");
}

#[test]
fn an_untitled_document_runs_nothing_either() {
    let mut c = Client::start(json!({}));
    let (text, markers) = attack(c.dir.path());
    let uri = "untitled:Untitled-1";
    c.open(uri, &text);
    c.save(uri);
    let diags = test_diagnostics(&mut c, uri);
    assert_not_run(&markers);
    assert!(
        diags[0]["message"].as_str().unwrap().contains("not run"),
        "{diags:#?}"
    );
}

#[test]
fn a_lit_toml_substitution_is_not_run() {
    let mut c = Client::start(json!({}));
    let marker = c.dir.path().join("pwned3");
    c.write_file(
        "lit.toml",
        &format!(
            "[substitutions]\ncheck = \"sh -c 'touch {}'\"\n",
            marker.display()
        ),
    );
    let text = "// RUN: %{check} | FileCheck %s\n// CHECK: func\nfunc k() {\n}\n";
    let (_, uri) = c.open_and_save("innocent.pfir", text);
    let diags = test_diagnostics(&mut c, &uri);
    assert_not_run(&[marker]);
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.contains("`%{check}`"), "{message}");
    assert!(message.contains("lit.toml"), "{message}");
}

#[test]
fn pfir_and_filecheck_still_run_by_default() {
    let text = "// RUN: pfir opt %s | FileCheck %s\n// CHECK: func nope\nfunc k() {\n}\n";
    let mut c = Client::start(json!({}));
    let (_, uri) = c.open_and_save("own.pfir", text);
    let diags = test_diagnostics(&mut c, &uri);
    assert_eq!(diags[0]["severity"], 1, "{diags:#?}");
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .contains("expected string not found"),
        "{diags:#?}"
    );
}

#[test]
fn with_consent_the_commands_run() {
    // The positive control of the tests above: what stops them is consent.
    let mut c = Client::start(json!({ "allowRunningCommands": true }));
    let (text, markers) = attack(c.dir.path());
    c.open_and_save("consented.pfir", &text);
    c.wait_for(|m| m["method"] == "workspace/codeLens/refresh");
    assert!(markers.iter().all(|m| m.exists()));
}

/// Settings that must not enable anything, each with what the warning says.
#[test]
fn settings_that_are_not_valid_fail_closed_and_are_reported() {
    let cases = [
        (
            json!({ "allowRunningCommands": true, "testsOnSave": "false" }),
            "`testsOnSave` must be true or false",
        ),
        (
            json!({ "allowRunningCommands": true, "testsOnSave": 0 }),
            "`testsOnSave` must be true or false",
        ),
        (
            json!({ "allowRunningCommands": true, "testsOnSave": null }),
            "`testsOnSave` must be true or false",
        ),
        (
            json!({ "pfir": { "allowRunningCommands": true, "testsOnSave": "off" } }),
            "`testsOnSave` must be true or false",
        ),
        (
            json!({ "allowRunningCommand": true }),
            "unknown setting `allowRunningCommand`",
        ),
        (
            json!({ "allowRunningCommands": "true" }),
            "`allowRunningCommands` must be true or false",
        ),
        (
            json!({ "allowRunningCommands": 1 }),
            "`allowRunningCommands` must be true or false",
        ),
    ];
    for (i, (settings, expected)) in cases.into_iter().enumerate() {
        let mut c = Client::start(settings.clone());
        let message = warning(&mut c, expected);
        assert!(message.starts_with("pfir: settings: "), "{message}");
        let (text, markers) = attack(c.dir.path());
        let (_, uri) = c.open_file(&format!("case{i}.pfir"), &text);
        c.diagnostics(&uri, 1);
        c.save(&uri);
        // Either no test runs, or one that runs nothing: wait for the
        // server to have handled the save and any run to have ended.
        c.request("pfir/testBusy", json!({ "ms": 500 })).unwrap();
        let _ = c.request("shutdown", Value::Null);
        assert_not_run(&markers);
        drop(c);
        assert_not_run(&markers);
    }
}

#[test]
fn a_bad_setting_sent_later_is_reported_and_withdraws_consent() {
    let mut c = Client::start(json!({ "allowRunningCommands": true }));
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "pfir": { "allowRunningCommands": "no", "testTimout": 5 } } }),
    );
    warning(&mut c, "`allowRunningCommands` must be true or false");
    warning(&mut c, "unknown setting `testTimout`");
    let (text, markers) = attack(c.dir.path());
    let (_, uri) = c.open_and_save("later.pfir", &text);
    let diags = test_diagnostics(&mut c, &uri);
    assert_not_run(&markers);
    assert!(diags[0]["message"].as_str().unwrap().contains("not run"));
}

/// A server that does not test on save, with `name` open: `text`, where
/// `MARKER` stands for the path of a marker file. Returns the client, the
/// marker and the document's URI.
fn open_with_marker(name: &str, text: &str) -> (Client, PathBuf, String) {
    let mut c = Client::start(json!({ "testsOnSave": false }));
    let marker = c.dir.path().join(format!("{name}.pwned"));
    let text = text.replace("MARKER", &marker.display().to_string());
    let (_, uri) = c.open_file(name, &text);
    (c, marker, uri)
}

#[test]
fn view_output_of_a_run_line_runs_nothing_by_default() {
    let (mut c, marker, uri) = open_with_marker(
        "view.pfir",
        "// RUN: sh -c 'touch MARKER; echo x' | FileCheck %s\n// CHECK: x\nfunc k() {\n}\n",
    );
    let err = c
        .request(
            "pfir/viewOutput",
            json!({ "textDocument": { "uri": uri }, "run": 0 }),
        )
        .unwrap_err();
    assert_not_run(&[marker]);
    let message = err["message"].as_str().unwrap();
    assert!(
        message.starts_with("line 1: not run: it runs `sh`"),
        "{message}"
    );
    assert!(message.contains("allowRunningCommands"), "{message}");
}

#[test]
fn code_actions_run_nothing_until_resolved_and_then_only_with_consent() {
    let (mut c, marker, uri) = open_with_marker(
        "actions.pfir",
        "// RUN: sh -c \"touch MARKER; echo 'func k() {'; echo '}'\" | FileCheck %s\n// CHECK: func\nfunc k() {\n}\n",
    );
    let ask = |c: &mut Client, trigger: Option<u8>| {
        let mut context = json!({ "diagnostics": [], "only": ["source"] });
        if let Some(t) = trigger {
            context["triggerKind"] = json!(t);
        }
        let line_2 = json!({ "line": 2, "character": 0 });
        c.code_actions(&uri, json!({ "start": line_2, "end": line_2 }), context)
    };
    // An automatic trigger (code actions on save) never gets it.
    assert!(ask(&mut c, Some(2)).is_empty());
    assert_not_run(std::slice::from_ref(&marker));
    // Asked for: offered without an edit; nothing ran.
    for trigger in [None, Some(1)] {
        let actions = ask(&mut c, trigger);
        assert_eq!(actions.len(), 1, "{actions:#?}");
        assert!(actions[0].get("edit").is_none(), "{actions:#?}");
        assert_not_run(std::slice::from_ref(&marker));
    }
    // Resolved without consent: refused, saying why.
    let action = ask(&mut c, Some(1)).remove(0);
    let err = c.request("codeAction/resolve", action.clone()).unwrap_err();
    assert_not_run(std::slice::from_ref(&marker));
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("not run: it runs `sh`"),
        "{err}"
    );
    // With consent, resolving runs the command.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "allowRunningCommands": true } }),
    );
    let resolved = c.request("codeAction/resolve", action).unwrap();
    assert!(marker.exists());
    let edits = resolved["edit"]["changes"][uri.as_str()]
        .as_array()
        .unwrap();
    assert!(
        edits[0]["newText"]
            .as_str()
            .unwrap()
            .contains("// CHECK-LABEL: func k() {"),
        "{resolved}"
    );
}

#[test]
fn explain_with_a_code_that_is_not_a_string_is_invalid_params() {
    let mut c = Client::start(json!({}));
    for params in [json!({ "code": 5 }), json!({}), json!({ "code": "E99999" })] {
        let err = c.request("pfir/explain", params.clone()).unwrap_err();
        assert_eq!(err["code"], -32602, "{params}: {err}");
        let message = err["message"].as_str().unwrap();
        assert!(!message.contains("``"), "{message}");
        assert!(message.contains("E0010"), "{message}");
    }
}

/// A RUN line that never ends: other documents still get diagnostics,
/// `shutdown` and `exit` end the server, and no process is left, not even
/// one that left the process group (`setsid`).
#[test]
fn a_never_ending_run_line_blocks_nothing_and_leaves_nothing() {
    let mut c = Client::start(json!({ "allowRunningCommands": true, "testTimeout": 600 }));
    let pidfile = c.dir.path().join("pids");
    let text = format!(
        "// RUN: sh -c 'echo $$ >> {p}; setsid sleep 301 & echo $! >> {p}; sleep 300; echo done' | FileCheck %s\n// CHECK: done\nfunc k() {{\n}}\n",
        p = pidfile.display()
    );
    c.open_and_save("forever.pfir", &text);
    assert!(eventually(|| pids(&pidfile).len() == 2), "the test started");
    let other = "func broken() {\n  x = nope\n}\n";
    let (_, other_uri) = c.open_file("other.pfir", other);
    let diags = c.diagnostics(&other_uri, 1);
    assert!(!diags.is_empty(), "the other document is checked");
    let started = pids(&pidfile);
    let status = c.shutdown_and_exit();
    assert!(status.success(), "{status:?}");
    assert_all_end(&started, "after shutdown and exit");
}

#[test]
fn exit_ends_the_server_while_a_test_runs() {
    let (c, _, pidfile) = a_sleeper_running("exit.pfir");
    let started = pids(&pidfile);
    let status = c.exit_without_shutdown();
    assert_eq!(status.code(), Some(1));
    assert_all_end(&started, "after exit");
}

#[test]
fn a_newer_save_and_did_close_cancel_the_running_test() {
    let (mut c, uri, pidfile) = a_sleeper_running("cancel.pfir");
    c.save(&uri);
    assert!(eventually(|| pids(&pidfile).len() == 2));
    let first = pids(&pidfile)[0];
    assert!(eventually(|| process_ended(first)), "a newer save");
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    let second = pids(&pidfile)[1];
    assert!(eventually(|| process_ended(second)), "didClose");
    assert_ended(&[first, second], "cancelled runs");
}

#[test]
fn withdrawing_consent_stops_the_running_tests() {
    let (mut c, _, pidfile) = a_sleeper_running("withdrawn.pfir");
    assert_eq!(
        c.initialized["capabilities"]["codeActionProvider"]["resolveProvider"],
        true
    );
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "allowRunningCommands": false } }),
    );
    assert_all_end(&pids(&pidfile), "after consent was withdrawn");
}

#[test]
fn a_run_line_past_the_timeout_is_killed_and_reported() {
    let mut c = Client::start(json!({ "allowRunningCommands": true, "testTimeout": 1 }));
    let (uri, pidfile) = save_a_sleeper(&mut c, "slow.pfir");
    let diags = test_diagnostics(&mut c, &uri);
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.contains("timed out after 1s"), "{message}");
    assert_ended(&pids(&pidfile), "the timed-out run");
}

fn pfir_test_passes(path: &Path) -> bool {
    std::process::Command::new(env!("CARGO_BIN_EXE_pfir"))
        .arg("test")
        .arg(path)
        .output()
        .expect("running pfir test")
        .status
        .success()
}

/// `seq 1 1000000` (6.9 MB): the editor checks the whole output, as `pfir
/// test` does (it used to check only its first and last MiB).
#[test]
fn a_large_output_gets_the_verdict_of_pfir_test() {
    let text = "// RUN: seq 1 1000000 | FileCheck %s\n// CHECK: {{^}}500000{{$}}\nfunc k() {\n}\n";
    let mut c = Client::start(json!({ "allowRunningCommands": true, "testTimeout": 120 }));
    let (path, uri) = c.open_and_save("seq.pfir", text);
    c.wait_for(|m| m["method"] == "workspace/codeLens/refresh");
    let lenses = c
        .request(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": uri } }),
        )
        .unwrap();
    let title = lenses[0]["command"]["title"].as_str().unwrap();
    assert!(
        title.starts_with("✓ matched output line 500000"),
        "{lenses:#}"
    );
    assert!(pfir_test_passes(&path));
    // And a CHECK-NOT in the middle fails in both.
    let failing = text.replace(
        "// CHECK: {{^}}500000{{$}}",
        "// CHECK-NOT: {{^}}500000{{$}}",
    );
    let (path, uri) = c.open_and_save("seq-not.pfir", &failing);
    let diags = test_diagnostics(&mut c, &uri);
    assert_eq!(diags[0]["severity"], 1, "{diags:#?}");
    assert!(!pfir_test_passes(&path));
}

/// Output beyond what the editor keeps is not judged on a part of it: the
/// RUN line says so.
#[test]
fn output_beyond_the_editor_limit_is_said_to_be_unchecked() {
    let text = "// RUN: sh -c 'yes abcdefghi | head -c 80000000' | FileCheck %s\n// CHECK-NOT: xyz\nfunc k() {\n}\n";
    let mut c = Client::start(json!({ "allowRunningCommands": true, "testTimeout": 120 }));
    let (_, uri) = c.open_and_save("huge.pfir", text);
    let diags = test_diagnostics(&mut c, &uri);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["severity"], 2, "a warning: {diags:#?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 0);
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.contains("not checked here"), "{message}");
    assert!(message.contains("printed 80000000 bytes"), "{message}");
}
