//! lit features of `pfir test`: `XFAIL:`, `REQUIRES:` / `UNSUPPORTED:` with
//! features, `ALLOW_RETRIES:`, `lit.toml` (features and `%{name}`
//! substitutions), `--timeout` per test, `-j`, `--xunit-xml-output`. Each
//! has a passing and a failing case, run through the binary in a
//! temporary directory.

use std::path::Path;
use std::process::Command;

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");

use crate::support::{outcome, write_file as write};

/// Runs `pfir test ARGS` and returns (status, stdout, stderr).
fn pfir_test(args: &[&str]) -> (i32, String, String) {
    outcome(
        Command::new(PFIR)
            .arg("test")
            .args(args)
            .output()
            .expect("running pfir test"),
    )
}

/// Writes `body` to `d/name` and runs `pfir test` on it: it exits with
/// `status`, and its output holds each of `wanted`.
fn check_one(d: &Path, name: &str, body: &str, status: i32, wanted: &[&str]) {
    let (got, out) = run_one(&write(d, name, body), &[]);
    assert_eq!(got, status, "{out}");
    for w in wanted {
        assert!(out.contains(w), "{w:?} in {out}");
    }
}

fn run_one(path: &Path, extra: &[&str]) -> (i32, String) {
    let p = path.display().to_string();
    let mut args: Vec<&str> = extra.to_vec();
    args.push(&p);
    let (status, stdout, stderr) = pfir_test(&args);
    (status, stdout + &stderr)
}

#[test]
fn xfail() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "lit.toml", "features = [\"broken-here\"]\n");
    check_one(
        d,
        "xfail.pfir",
        "// XFAIL: *\n// RUN: false\n",
        0,
        &["XFAIL: ", "  Expectedly Failed: 1 (100.00%)"],
    );
    check_one(
        d,
        "feature.pfir",
        "// XFAIL: other, broken-here\n// RUN: false\n",
        0,
        &[],
    );
    // Failing: it passes although marked XFAIL, or the feature is absent.
    check_one(
        d,
        "xpass.pfir",
        "// XFAIL: *\n// RUN: true\n",
        1,
        &["XPASS: ", "XFAIL: line says it should fail"],
    );
    check_one(
        d,
        "absent.pfir",
        "// XFAIL: nowhere\n// RUN: false\n",
        1,
        &["FAIL: "],
    );
}

#[test]
fn requires_and_unsupported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "lit.toml", "features = [\"fast\"]\n");
    check_one(
        d,
        "has.pfir",
        "// REQUIRES: fast, unix\n// RUN: true\n",
        0,
        &["PASS: "],
    );
    // Not run at all (its RUN line would fail).
    check_one(
        d,
        "lacks.pfir",
        "// REQUIRES: gpu\n// RUN: false\n",
        0,
        &["UNSUPPORTED: ", "requires gpu"],
    );
    check_one(
        d,
        "excluded.pfir",
        "// UNSUPPORTED: fast\n// RUN: false\n",
        0,
        &["unsupported with fast"],
    );
    // Failing: a feature that is absent does not exclude; a malformed list.
    check_one(
        d,
        "runs.pfir",
        "// UNSUPPORTED: gpu\n// RUN: false\n",
        1,
        &[],
    );
    check_one(
        d,
        "bad.pfir",
        "// REQUIRES: a b\n// RUN: true\n",
        1,
        &["expected: <end of expression>", "in expression: 'a b'"],
    );
}

#[test]
fn allow_retries() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Fails the first time (it leaves a marker), passes the second.
    let flaky = "// RUN: sh -c 'if [ -e %s.marker ]; then exit 0; fi; touch %s.marker; exit 1'\n";
    check_one(
        d,
        "retried.pfir",
        &format!("// ALLOW_RETRIES: 2\n{flaky}"),
        0,
        &["attempt 2 of 3"],
    );
    check_one(d, "once.pfir", flaky, 1, &[]);
    // Retries do not turn a real failure into a pass.
    check_one(
        d,
        "broken.pfir",
        "// ALLOW_RETRIES: 3\n// RUN: false\n",
        1,
        &[],
    );
    check_one(
        d,
        "bad.pfir",
        "// ALLOW_RETRIES: often\n// RUN: true\n",
        1,
        &[],
    );
}

#[test]
fn lit_toml_substitutions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "lit.toml",
        "[substitutions]\ngreet = \"echo hello\"\ncheck = \"FileCheck %s\"\n",
    );
    write(
        d,
        "sub/lit.toml",
        "[substitutions]\ngreet = \"echo bonjour\"\n",
    );
    check_one(
        d,
        "outer.pfir",
        "// RUN: %{greet} | %{check}\n// CHECK: hello\n",
        0,
        &[],
    );
    let inner = write(
        d,
        "sub/inner.pfir",
        "// RUN: %{greet} | %{check}\n// CHECK: bonjour\n",
    );
    let (status, out) = run_one(&inner, &[]);
    assert_eq!(status, 0, "the nearer lit.toml wins: {out}");
    check_one(
        d,
        "builtin.pfir",
        "// RUN: %{pfir} opt %s\nfunc f() {\n}\n",
        0,
        &[],
    );
    // Failing: an unknown name, a malformed lit.toml.
    check_one(
        d,
        "unknown.pfir",
        "// RUN: %{nope} x\n",
        1,
        &["unknown substitution `%{nope}`"],
    );
    write(d, "bad/lit.toml", "features = 3\n");
    check_one(d, "bad/t.pfir", "// RUN: true\n", 1, &["lit.toml"]);
}

#[test]
fn timeout_is_per_test() {
    let dir = tempfile::tempdir().unwrap();
    // Each RUN line is well under the limit; together they are over it.
    let slow = write(
        dir.path(),
        "slow.pfir",
        "// RUN: sleep 0.7\n// RUN: sleep 0.7\n// RUN: sleep 0.7\n",
    );
    let (status, out) = run_one(&slow, &["--timeout", "1"]);
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("longer than its time limit of 1s"), "{out}");
    let (status, out) = run_one(&slow, &["--timeout", "120"]);
    assert_eq!(status, 0, "{out}");
    let (status, _) = run_one(&slow, &["--timeout", "0"]);
    assert_eq!(status, 2, "a zero timeout is a usage error");
}

/// A temporary directory of `n` tests of one `// RUN: true` line each,
/// and its path.
fn trivial_tests(n: usize) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        write(dir.path(), &format!("t{i}.pfir"), "// RUN: true\n");
    }
    let root = dir.path().display().to_string();
    (dir, root)
}

#[test]
fn jobs() {
    let (_dir, root) = trivial_tests(4);
    let (status, stdout, stderr) = pfir_test(&["-j", "3", &root]);
    assert_eq!(status, 0, "{stdout}");
    // Standard error is not a terminal: no progress line.
    assert!(
        !stderr.contains("Testing:") && !stderr.contains('\r') && !stdout.contains('\r'),
        "{stdout}{stderr}"
    );
    assert!(
        stdout.contains("Total Discovered Tests: 4\n  Passed: 4 (100.00%)\n"),
        "{stdout}"
    );
    let (status, _, stderr) = pfir_test(&["-j", "0", &root]);
    assert_eq!(status, 2, "{stderr}");
}

#[test]
fn xunit_xml_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "t/pass.pfir", "// RUN: true\n");
    write(
        d,
        "t/fail.pfir",
        "// RUN: sh -c 'echo \"<&>\" >&2; exit 1'\n",
    );
    write(d, "t/xfail.pfir", "// XFAIL: *\n// RUN: false\n");
    write(d, "t/skip.pfir", "// REQUIRES: gpu\n// RUN: false\n");
    let xml_path = d.join("out.xml");
    let xml_arg = xml_path.display().to_string();
    let tests = d.join("t").display().to_string();
    let (status, stdout, _) = pfir_test(&["--xunit-xml-output", &xml_arg, &tests]);
    assert_eq!(status, 1, "{stdout}");
    let xml = std::fs::read_to_string(&xml_path).unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"));
    assert!(
        xml.contains("<testsuite name=\"pfir\" tests=\"4\" failures=\"1\" skipped=\"1\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 4, "{xml}");
    assert!(xml.contains("name=\"fail.pfir\""), "{xml}");
    assert!(xml.contains("<failure message=\"FAIL\">"), "{xml}");
    assert!(xml.contains("&lt;&amp;&gt;"), "escaped: {xml}");
    assert!(xml.contains("<skipped message=\"requires gpu\"/>"), "{xml}");
    assert!(xml.ends_with("</testsuite>\n</testsuites>\n"));
    // Failing: the report cannot be written.
    let nowhere = d.join("no/such/dir/out.xml").display().to_string();
    let only_pass = d.join("t/pass.pfir").display().to_string();
    let (status, _, stderr) = pfir_test(&["--xunit-xml-output", &nowhere, &only_pass]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
}

#[test]
fn testkit_feature_follows_the_build() {
    let d = tempfile::tempdir().unwrap();
    let t = write(
        d.path(),
        "t/needs.pfir",
        "// REQUIRES: testkit\n// RUN: pfir opt %s --passes=test-drop-deps\nfunc f() {\n}\n",
    );
    // This build has the test-only passes: the feature is on and it runs.
    let path = t.display().to_string();
    let (status, stdout, stderr) = pfir_test(&[&path]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with(&format!("PASS: {path}")), "{stdout}");
    // A build without them (a release build) reports it unsupported.
    let r = lit::run_test(&t, &lit::Config::new(lit::Tools::new()));
    assert_eq!(r.outcome(), lit::Outcome::Unsupported);
    assert!(
        r.unsupported.as_deref().unwrap_or("").contains("testkit"),
        "{r:?}"
    );
}

#[test]
fn summary_is_lits() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a-pass.pfir", "// RUN: true\n");
    write(d, "b-fail.pfir", "// RUN: false\n");
    write(d, "c-xfail.pfir", "// XFAIL: *\n// RUN: false\n");
    write(d, "d-xpass.pfir", "// XFAIL: *\n// RUN: true\n");
    write(
        d,
        "e-unsupported.pfir",
        "// REQUIRES: nothing-here\n// RUN: true\n",
    );
    write(d, "f-pass.pfir", "// RUN: true\n");
    let root = d.display().to_string();
    let (status, stdout, _) = pfir_test(&[&root]);
    assert_eq!(status, 1, "{stdout}");
    let tail = &stdout[stdout.find("********************").expect("failed list")..];
    let (failed, totals) = tail.split_once("\nTesting Time: ").expect("time");
    assert!(
        failed.starts_with("********************\nFailed Tests (2):\n")
            && failed.contains("b-fail.pfir")
            && failed.contains("d-xpass.pfir"),
        "{stdout}"
    );
    let totals = &totals[totals.find('\n').unwrap()..];
    assert_eq!(
        totals,
        "\n\nTotal Discovered Tests: 6\n  \
         Unsupported        : 1 (16.67%)\n  \
         Passed             : 2 (33.33%)\n  \
         Expectedly Failed  : 1 (16.67%)\n  \
         Failed             : 1 (16.67%)\n  \
         Unexpectedly Passed: 1 (16.67%)\n"
    );
    // -q: no time, only the failing kinds.
    let (_, stdout, _) = pfir_test(&["-q", &root]);
    assert!(!stdout.contains("Testing Time"), "{stdout}");
    assert!(
        stdout.ends_with(
            "Total Discovered Tests: 6\n  Failed             : 1 (16.67%)\n  Unexpectedly Passed: 1 (16.67%)\n"
        ),
        "{stdout}"
    );
    // --filter-out: excluded tests are discovered but not run.
    let (status, stdout, _) = pfir_test(&["--filter-out", "b-fail|d-xpass", &root]);
    assert_eq!(status, 0, "{stdout}");
    assert!(
        stdout.contains("Total Discovered Tests: 6\n  Excluded         : 2 (33.33%)\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("b-fail.pfir"), "{stdout}");
}

#[test]
fn max_failures_and_shuffle() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for i in 0..20 {
        write(d, &format!("t{i:02}.pfir"), "// RUN: false\n");
    }
    let root = d.display().to_string();
    // One job: the run stops after the second failure; the rest are skipped.
    let (status, stdout, _) = pfir_test(&["-j", "1", "--max-failures", "2", &root]);
    assert_eq!(status, 1, "{stdout}");
    assert!(
        stdout.contains("  Skipped: 18 (90.00%)\n  Failed :  2 (10.00%)\n"),
        "{stdout}"
    );
    let (status, _, _) = pfir_test(&["--max-failures", "0", &root]);
    assert_eq!(status, 2, "--max-failures takes a positive number");
    // --shuffle runs every test, in some order.
    let order = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["-j", "1"];
        a.extend(args);
        a.push(&root);
        let (_, stdout, _) = pfir_test(&a);
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix("FAIL: "))
            .map(String::from)
            .collect()
    };
    let plain = order(&[]);
    assert_eq!(plain.len(), 20);
    assert!(plain.windows(2).all(|w| w[0] < w[1]), "{plain:?}");
    // 20! orders: three shuffles all sorted is (1/20!)^3 unlikely.
    let shuffled: Vec<Vec<String>> = (0..3).map(|_| order(&["--shuffle"])).collect();
    assert!(shuffled.iter().all(|s| s.len() == 20));
    assert!(shuffled.iter().any(|s| s != &plain), "{shuffled:?}");
}

#[test]
fn boolean_feature_expressions_and_define() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "lit.toml", "features = [\"here\"]\n");
    let t = write(
        d,
        "expr.pfir",
        "// REQUIRES: here && !gone, (gone || unix)\n// UNSUPPORTED: here && gone\n\
         // DEFINE: %{cmd} = true\n// RUN: %{cmd}\n// REDEFINE: %{cmd} = not false\n// RUN: %{cmd}\n",
    );
    let (status, out) = run_one(&t, &["-v"]);
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("PASS: ") && out.contains("not false"), "{out}");
    let t = write(
        d,
        "unsup.pfir",
        "// UNSUPPORTED: !gone && {{h.*}}\n// RUN: false\n",
    );
    let (status, out) = run_one(&t, &[]);
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("UNSUPPORTED: "), "{out}");
    let t = write(d, "bad.pfir", "// REQUIRES: here &&\n// RUN: true\n");
    let (status, out) = run_one(&t, &[]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains("expected: '!', '(', '{{', or identifier")
            && out.contains("in expression: 'here &&'"),
        "{out}"
    );
    check_one(
        d,
        "redef.pfir",
        "// REDEFINE: %{nope} = 1\n// RUN: true\n",
        1,
        &["No substitution for '%{nope}' is defined before 'REDEFINE:' directive at line 1"],
    );
}

/// `pfir test --update` reads the command through `DEFINE:` as the runner
/// does: the checks are generated and the test then passes.
#[test]
fn update_reads_define() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("def.pfir");
    std::fs::write(
        &t,
        "// DEFINE: %{check} = FileCheck %s --check-prefix=OUT\n\
         // RUN: pfir opt %s | %{check}\n\n\
         func kernel() -> task_id {\n  return system.task_invalid()\n}\n",
    )
    .unwrap();
    let (status, out) = run_one(&t, &["--update"]);
    assert_eq!(status, 0, "{out}");
    let text = std::fs::read_to_string(&t).unwrap();
    assert!(
        text.contains("// OUT-LABEL: func kernel() -> task_id {\n// OUT-NEXT:   return"),
        "{text}\n{out}"
    );
}

/// The progress line is drawn on a terminal (a pty from `script`); `jobs`
/// checks that it is not when standard error is not one.
#[test]
fn progress_line_only_on_a_terminal() {
    let (_dir, d) = trivial_tests(3);
    // `script` (util-linux; Debian's essential bsdutils) runs it on a pty.
    let out = Command::new("script")
        .arg("-qec")
        .arg(format!("{PFIR} test -j 1 '{d}'"))
        .arg("/dev/null")
        .output()
        .expect("running script");
    assert!(out.status.success(), "{out:?}");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("Testing: 1/3\r\x1b[K") && shown.contains("Testing: 2/3\r\x1b[K"),
        "{shown:?}"
    );
    assert!(!shown.contains("Testing: 3/3"), "{shown:?}");
}
