//! pfir against the real PyPTO (docs/pypto.md).
//!
//! - With a Python (`$PFIR_PYPTO_PYTHON`, else `python3`) that imports
//!   PyPTO, over every `.pfir` of `examples/` and `tests/` that
//!   `pfir translate --to=pypto` translates:
//!   - `read`: `tools/pypto-opt` without a pass (PyPTO's parser, then its
//!     printer, and back) gives what `pfir opt` gives;
//!   - `pass`: `tools/pypto-opt` with PyPTO's `ExpandManualPhaseFence`
//!     gives what `pfir opt --passes=expand-manual-phase-fence` gives.
//!
//!   Each file where they differ is listed, with the reason (for `pass`,
//!   the rule of docs/passes/expand-manual-phase-fence.md), in
//!   `tests/needs_tools/pypto_differences.txt`; a file that differs and is
//!   not listed, or is listed and agrees, fails the test.
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
use std::path::Path;
use std::process::Command;

#[path = "../common/repository_files.rs"]
mod repository_files;

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

/// The two comparisons with PyPTO: without the pass and with it.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Stage {
    Read,
    Pass,
}

impl Stage {
    fn word(self) -> &'static str {
        match self {
            Stage::Read => "read",
            Stage::Pass => "pass",
        }
    }
}

/// The listed differences: `STAGE FILE: why` lines (`#` comments).
fn listed_differences() -> Vec<(Stage, String, String)> {
    let text = std::fs::read_to_string(root().join("tests/needs_tools/pypto_differences.txt"))
        .expect("reading pypto_differences.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (head, why) = l.split_once(": ").expect("`STAGE FILE: why`");
            let (stage, file) = head.split_once(' ').expect("`STAGE FILE: why`");
            let stage = match stage {
                "read" => Stage::Read,
                "pass" => Stage::Pass,
                other => panic!("unknown stage `{other}` in `{l}`"),
            };
            (stage, file.to_string(), why.trim().to_string())
        })
        .collect()
}

fn the_difference_list_names_a_reason_for_each_file() {
    let listed = listed_differences();
    for (i, (stage, file, why)) in listed.iter().enumerate() {
        assert!(root().join(file).is_file(), "{file} does not exist");
        assert!(!why.is_empty(), "{file}: no reason");
        assert!(
            !listed[..i].iter().any(|(s, f, _)| s == stage && f == file),
            "{} {file} is listed twice",
            stage.word()
        );
    }
}

/// The repository's `.pfir` files `pfir translate --to=pypto` translates,
/// relative to the root, and how many there are in all.
fn translatable_files() -> (Vec<String>, usize) {
    let all = repository_files::repository_pfir_files();
    let translatable = all
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).expect("reading a .pfir file");
            pfir::translate::to_pypto(&text).output.is_some()
        })
        .map(|p| p.strip_prefix(root()).unwrap_or(p).display().to_string())
        .collect();
    (translatable, all.len())
}

/// One file's result from `tools/pypto-opt --batch`.
struct Batched {
    ok: bool,
    out: String,
    err: String,
}

/// `tools/pypto-opt --batch --split-input-file [PASS] FILES...`, in one
/// process: each file's result, in order.
fn pypto_opt_batch(files: &[String], with_pass: bool) -> Vec<Batched> {
    let mut args = vec!["--batch", "--split-input-file"];
    if with_pass {
        args.push(PASS);
    }
    args.extend(files.iter().map(String::as_str));
    let mut cmd = Command::new(python());
    cmd.current_dir(root())
        .arg(root().join("tools/pypto-opt"))
        .args(&args)
        .env("PFIR", PFIR);
    let out = cmd.output().expect("running tools/pypto-opt --batch");
    assert!(
        out.status.success(),
        "pypto-opt --batch failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<Batched> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let text = |k: &str| v[k].as_str().expect("a string").to_string();
            Batched {
                ok: v["ok"].as_bool().expect("ok"),
                out: text("out"),
                err: text("err"),
            }
        })
        .collect();
    assert_eq!(results.len(), files.len(), "one result per file");
    results
}

/// Runs both sides of `stage` on every translatable file and checks the
/// differences against the list.
fn against_pypto(stage: Stage) -> Option<String> {
    if let Some(why) = pypto_missing() {
        return Some(why);
    }
    let (translatable, all) = translatable_files();
    let mut pfir_args = vec!["opt", "--split-input-file"];
    if stage == Stage::Pass {
        pfir_args.push(PASS);
    }
    // Files pfir itself refuses to run (a pass precondition) are not
    // compared.
    let ours: Vec<(String, String)> = translatable
        .iter()
        .filter_map(|file| {
            let (ok, out, _) =
                pfir(&[pfir_args.as_slice(), &[root().join(file).to_str()?]].concat());
            ok.then(|| (file.clone(), out))
        })
        .collect();
    let files: Vec<String> = ours.iter().map(|(f, _)| f.clone()).collect();
    let theirs = pypto_opt_batch(&files, stage == Stage::Pass);
    let mut differing = Vec::new();
    for ((file, ours), theirs) in ours.iter().zip(&theirs) {
        if !theirs.ok || *ours != theirs.out {
            differing.push((
                file.clone(),
                format!(
                    "{} {file}\n--- pfir opt ---\n{ours}\n--- pypto-opt ---\n{}{}",
                    stage.word(),
                    theirs.out,
                    theirs.err
                ),
            ));
        }
    }
    let listed: Vec<String> = listed_differences()
        .into_iter()
        .filter(|(s, _, _)| *s == stage)
        .map(|(_, f, _)| f)
        .collect();
    let unexplained: Vec<&str> = differing
        .iter()
        .filter(|(f, _)| !listed.contains(f))
        .map(|(_, report)| report.as_str())
        .collect();
    let agreeing: Vec<&String> = listed
        .iter()
        .filter(|f| !differing.iter().any(|(d, _)| d == *f))
        .collect();
    eprintln!(
        "pypto {}: {all} files, {} translated, {} compared, {} agree, {} differ",
        stage.word(),
        translatable.len(),
        files.len(),
        files.len() - differing.len(),
        differing.len()
    );
    assert!(
        unexplained.is_empty(),
        "differences not listed in tests/needs_tools/pypto_differences.txt:\n{}",
        unexplained.join("\n\n")
    );
    assert!(
        agreeing.is_empty(),
        "listed as `{}` differences, but pfir and PyPTO agree: {agreeing:?}",
        stage.word()
    );
    assert!(files.len() > 10, "only {} files compared", files.len());
    None
}

fn translations_read_back_through_pypto() -> Option<String> {
    against_pypto(Stage::Read)
}

fn pass_against_pypto() -> Option<String> {
    against_pypto(Stage::Pass)
}

fn pypto_own_tests_agree() -> Option<String> {
    if let Some(why) = pypto_missing() {
        return Some(why);
    }
    let Ok(src) = std::env::var("PFIR_PYPTO_SRC") else {
        return Some("set PFIR_PYPTO_SRC to PyPTO's source tree to read its tests".into());
    };
    let tests = Path::new(&src).join("tests/ut/ir/transforms/test_expand_manual_phase_fence.py");
    let python = std::fs::read_to_string(&tests)
        .unwrap_or_else(|e| panic!("PFIR_PYPTO_SRC is set, but {}: {e}", tests.display()));
    // Each test turns a `Before` program into an `Expected` one.
    let cases = python.matches("_assert_expands(Before, Expected)").count();
    assert!(
        cases > 0,
        "no `_assert_expands(Before, Expected)` in {}",
        tests.display()
    );
    let (ok, pfir_text, err) = pfir(&["translate", "--from=pypto", &tests.display().to_string()]);
    assert!(ok, "translating PyPTO's tests failed:\n{err}");
    let chunks: Vec<&str> = pfir_text.split(MARKER).collect();
    assert_eq!(chunks.len(), 2 * cases, "{cases} Before/Expected pairs");
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut befores = Vec::new();
    for (i, pair) in chunks.chunks(2).enumerate() {
        let before = dir.path().join(format!("before_{i:02}.pfir"));
        std::fs::write(&before, pair[0]).expect("writing a test");
        befores.push(before.display().to_string());
    }
    let theirs = pypto_opt_batch(&befores, true);
    let mut failures = Vec::new();
    for (i, (pair, theirs)) in chunks.chunks(2).zip(&theirs).enumerate() {
        let (_, ours, e1) = pfir(&["opt", &befores[i], PASS]);
        if ours != pair[1] {
            failures.push(format!(
                "case {i}: pfir's pass\n{ours}{e1}\n--- expected ---\n{}",
                pair[1]
            ));
        }
        if !theirs.ok || theirs.out != pair[1] {
            failures.push(format!(
                "case {i}: PyPTO's pass\n{}{}\n--- expected ---\n{}",
                theirs.out, theirs.err, pair[1]
            ));
        }
    }
    eprintln!(
        "pypto own tests: {cases} cases, {} disagreements",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    None
}

pub fn trials() -> Vec<Trial> {
    vec![
        needs_tool("pypto::plumbing_with_a_stand_in", plumbing_with_a_stand_in),
        needs_tool(
            "pypto::translations_read_back_through_pypto",
            translations_read_back_through_pypto,
        ),
        needs_tool("pypto::pass_against_pypto", pass_against_pypto),
        needs_tool("pypto::pypto_own_tests_agree", pypto_own_tests_agree),
        plain(
            "pypto::the_difference_list_names_a_reason_for_each_file",
            the_difference_list_names_a_reason_for_each_file,
        ),
    ]
}
