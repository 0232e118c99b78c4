//! pfir against PyPTO's own `ExpandManualPhaseFence` (docs/pypto.md).
//!
//! - With a Python (`$PFIR_PYPTO_PYTHON`, else `python3`) that imports
//!   PyPTO: every `.pfir` test of `tests/passes/` that PyPTO's DSL can say
//!   runs through both passes (`pfir opt` and `tools/pypto-opt`); each
//!   file where they differ must be listed, with the spec rule that
//!   explains it, in `tests/needs_tools/pypto_differences.txt`, and every
//!   file listed must differ.
//! - With PyPTO and its source (`$PFIR_PYPTO_SRC`): PyPTO's 31 tests of
//!   the pass (`tests/ut/ir/transforms/test_expand_manual_phase_fence.py`)
//!   are translated (a `Before` and an `Expected` program each), and both
//!   passes must turn each `Before` into its `Expected`.
//! - With any `python3`: `tools/pypto-opt`'s plumbing, against a stand-in
//!   for PyPTO whose pass changes nothing (`pypto_stand_in/`).
//!
//! Without them the tests are reported as ignored, with the reason.

use super::{needs_tool, plain};
use libtest_mimic::Trial;
use std::path::{Path, PathBuf};
use std::process::Command;

const PFIR: &str = env!("CARGO_BIN_EXE_pfir");
const PASS: &str = "--passes=expand-manual-phase-fence";
const MARKER: &str = "// -----\n";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn python() -> String {
    std::env::var("PFIR_PYPTO_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Why PyPTO cannot be used here, if it cannot.
fn pypto_missing() -> Option<String> {
    let probe = "import pypto.language, pypto.ir\nfrom pypto.pypto_core import passes\npasses.expand_manual_phase_fence";
    match Command::new(python()).args(["-c", probe]).output() {
        Ok(out) if out.status.success() => None,
        Ok(_) => Some(format!(
            "PyPTO is not importable by `{}` (build it from source: docs/pypto.md; or set PFIR_PYPTO_PYTHON)",
            python()
        )),
        Err(_) => Some(format!("`{}` is not installed", python())),
    }
}

/// `tools/pypto-opt ARGS` with `python` and `pythonpath`: (success, stdout, stderr).
fn pypto_opt(args: &[&str], pythonpath: Option<&Path>) -> (bool, String, String) {
    let mut cmd = Command::new(python());
    cmd.arg(root().join("tools/pypto-opt"))
        .args(args)
        .env("PFIR", PFIR);
    if let Some(p) = pythonpath {
        cmd.env("PYTHONPATH", p);
    }
    let out = cmd.output().expect("running tools/pypto-opt");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `pfir ARGS`: (success, stdout, stderr).
fn pfir(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(PFIR)
        .args(args)
        .output()
        .expect("running pfir");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn plumbing_with_a_stand_in() -> Option<String> {
    if Command::new(python()).arg("--version").output().is_err() {
        return Some(format!("`{}` is not installed", python()));
    }
    let stand_in = root().join("tests/needs_tools/pypto_stand_in");
    for (file, split) in [
        ("examples/first.pfir", false),
        ("tests/translate/Inputs/constructs.pfir", false),
        ("tests/lit/fmt/Inputs/messy.pfir", true),
    ] {
        let path = root().join(file).display().to_string();
        let mut args = vec![path.as_str()];
        if split {
            args.push("--split-input-file");
        }
        let (ok, out, err) = pypto_opt(&args, Some(&stand_in));
        assert!(ok, "pypto-opt {file} failed: {err}");
        let (_, expected, _) = pfir(&[&["opt"], args.as_slice()].concat());
        assert_eq!(out, expected, "{file}: the stand-in round trip differs");
    }
    // An option PyPTO has no counterpart for is a usage error.
    let first = root().join("examples/first.pfir").display().to_string();
    let (ok, _, err) = pypto_opt(&[&first, "--remarks"], Some(&stand_in));
    assert!(!ok && err.contains("--remarks"), "{err}");
    None
}

/// The listed differences: `file: rule` lines (`#` comments).
fn listed_differences() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join("tests/needs_tools/pypto_differences.txt"))
        .expect("reading pypto_differences.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (file, rule) = l.split_once(':').expect("`file: rule`");
            (file.trim().to_string(), rule.trim().to_string())
        })
        .collect()
}

fn the_difference_list_names_a_rule_for_each_file() {
    for (file, rule) in listed_differences() {
        assert!(root().join(&file).is_file(), "{file} does not exist");
        assert!(!rule.is_empty(), "{file}: no rule");
    }
}

fn pass_tests_against_pypto() -> Option<String> {
    if let Some(why) = pypto_missing() {
        return Some(why);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/passes"))
        .expect("tests/passes")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pfir"))
        .collect();
    files.sort();
    let mut differing = Vec::new();
    let mut compared = 0;
    for path in &files {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).expect("reading a test");
        if !text.contains(PASS) || pfir::translate::to_pypto(&text).output.is_none() {
            continue;
        }
        let args = [file.as_str(), "--split-input-file", PASS];
        let (ok, ours, _) = pfir(&[&["opt"], &args[..]].concat());
        if !ok {
            continue;
        }
        compared += 1;
        let (ok, theirs, err) = pypto_opt(&args, None);
        if !ok || ours != theirs {
            let name = path
                .strip_prefix(root())
                .unwrap_or(path)
                .display()
                .to_string();
            differing.push(format!(
                "{name}\n--- pfir opt ---\n{ours}\n--- pypto-opt ---\n{theirs}{err}"
            ));
        }
    }
    let listed: Vec<String> = listed_differences().into_iter().map(|(f, _)| f).collect();
    let unexplained: Vec<&String> = differing
        .iter()
        .filter(|d| !listed.iter().any(|f| d.starts_with(&format!("{f}\n"))))
        .collect();
    let agreeing: Vec<&String> = listed
        .iter()
        .filter(|f| !differing.iter().any(|d| d.starts_with(&format!("{f}\n"))))
        .collect();
    assert!(
        unexplained.is_empty(),
        "differences not listed in tests/needs_tools/pypto_differences.txt:\n{}",
        unexplained
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    assert!(
        agreeing.is_empty(),
        "listed, but the passes agree: {agreeing:?}"
    );
    assert!(compared > 0, "no pass test was compared");
    None
}

fn pypto_own_tests_agree() -> Option<String> {
    if let Some(why) = pypto_missing() {
        return Some(why);
    }
    let Ok(src) = std::env::var("PFIR_PYPTO_SRC") else {
        return Some("set PFIR_PYPTO_SRC to PyPTO's source tree to read its tests".into());
    };
    let tests = Path::new(&src).join("tests/ut/ir/transforms/test_expand_manual_phase_fence.py");
    let tests = tests.display().to_string();
    let (ok, pfir_text, err) = pfir(&["translate", "--from=pypto", &tests]);
    assert!(ok, "translating PyPTO's tests failed:\n{err}");
    let chunks: Vec<&str> = pfir_text.split(MARKER).collect();
    assert_eq!(chunks.len(), 62, "31 Before/Expected pairs");
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut failures = Vec::new();
    for (i, pair) in chunks.chunks(2).enumerate() {
        let before = dir.path().join(format!("before_{i}.pfir"));
        std::fs::write(&before, pair[0]).expect("writing a test");
        let before = before.display().to_string();
        let (_, ours, e1) = pfir(&["opt", &before, PASS]);
        let (_, theirs, e2) = pypto_opt(&[&before, PASS], None);
        if ours != pair[1] {
            failures.push(format!(
                "case {i}: pfir's pass\n{ours}{e1}\n--- expected ---\n{}",
                pair[1]
            ));
        }
        if theirs != pair[1] {
            failures.push(format!(
                "case {i}: PyPTO's pass\n{theirs}{e2}\n--- expected ---\n{}",
                pair[1]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    None
}

pub fn trials() -> Vec<Trial> {
    vec![
        needs_tool("pypto::plumbing_with_a_stand_in", plumbing_with_a_stand_in),
        needs_tool("pypto::pass_tests_against_pypto", pass_tests_against_pypto),
        needs_tool("pypto::pypto_own_tests_agree", pypto_own_tests_agree),
        plain(
            "pypto::the_difference_list_names_a_rule_for_each_file",
            the_difference_list_names_a_rule_for_each_file,
        ),
    ]
}
