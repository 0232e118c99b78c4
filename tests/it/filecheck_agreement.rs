//! Runs the corpus in `tests/filecheck/cases` through `pfir filecheck` and
//! (when one is installed) LLVM's `FileCheck`, and checks that both give the
//! same pass/fail verdict on every pair, and that pfir's verdict matches the
//! `; EXPECT:` line recorded in each case. See `tests/filecheck/README.md`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct Case {
    name: String,
    check: PathBuf,
    input: PathBuf,
    opts: Vec<String>,
    expect_pass: bool,
    divergence: Option<String>,
}

fn corpus() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filecheck/cases");
    let mut checks: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "check"))
        .collect();
    checks.sort();
    checks
        .into_iter()
        .map(|check| {
            let text = std::fs::read_to_string(&check).expect("check file");
            let header = |key: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(key))
                    .map(|v| v.trim().to_string())
            };
            let expect = header("; EXPECT:").unwrap_or_else(|| panic!("{check:?}: no EXPECT"));
            assert!(
                expect == "pass" || expect == "fail",
                "{check:?}: EXPECT must be pass or fail"
            );
            let opts = header("; OPTS:")
                .map(|o| o.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            let input = check.with_extension("input");
            assert!(input.exists(), "{input:?} is missing");
            Case {
                name: check.file_stem().unwrap().to_string_lossy().into_owned(),
                check,
                input,
                opts,
                expect_pass: expect == "pass",
                divergence: header("; DIVERGENCE:"),
            }
        })
        .collect()
}

/// Runs a FileCheck-like `program` on a case; returns whether it passed.
fn passes(program: &Path, sub: Option<&str>, case: &Case) -> bool {
    let mut cmd = Command::new(program);
    if let Some(s) = sub {
        cmd.arg(s);
    }
    cmd.arg(&case.check)
        .arg("--input-file")
        .arg(&case.input)
        .args(&case.opts)
        .arg("--dump-input=never")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("running {program:?}: {e}"));
    status.success()
}

fn pfir() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pfir"))
}

fn runs(p: &Path) -> bool {
    Command::new(p)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// LLVM's FileCheck: `$FILECHECK`, then `FileCheck` / `FileCheck-NN` on
/// PATH, then the bindir reported by `llvm-config` / `llvm-config-NN`.
fn llvm_filecheck() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FILECHECK") {
        return Some(PathBuf::from(p)).filter(|p| runs(p));
    }
    let versions: Vec<String> = std::iter::once(String::new())
        .chain((7..=30).rev().map(|v| format!("-{v}")))
        .collect();
    let path = std::env::var_os("PATH").unwrap_or_default();
    for v in &versions {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(format!("FileCheck{v}"));
            if p.is_file() && runs(&p) {
                return Some(p);
            }
        }
    }
    for v in &versions {
        let Ok(out) = Command::new(format!("llvm-config{v}"))
            .arg("--bindir")
            .output()
        else {
            continue;
        };
        let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let p = Path::new(&dir).join("FileCheck");
        if out.status.success() && p.is_file() && runs(&p) {
            return Some(p);
        }
    }
    None
}

#[test]
fn corpus_is_large_enough() {
    assert!(corpus().len() >= 60, "the corpus needs at least 60 pairs");
}

#[test]
fn pfir_verdicts_match_recorded_expectations() {
    let mut wrong = Vec::new();
    let cases = corpus();
    for case in &cases {
        if passes(&pfir(), Some("filecheck"), case) != case.expect_pass {
            wrong.push(case.name.clone());
        }
    }
    println!(
        "pfir filecheck: {} of {} cases match their recorded verdict",
        cases.len() - wrong.len(),
        cases.len()
    );
    assert!(
        wrong.is_empty(),
        "verdict differs from EXPECT in: {wrong:?}"
    );
}

#[test]
fn agreement_with_llvm_filecheck() {
    let Some(llvm) = llvm_filecheck() else {
        println!("SKIPPED: no LLVM FileCheck found (PATH, llvm-config); agreement not measured");
        return;
    };
    let cases = corpus();
    let mut disagree = Vec::new();
    let mut divergent = Vec::new();
    for case in &cases {
        let ours = passes(&pfir(), Some("filecheck"), case);
        let theirs = passes(&llvm, None, case);
        match (&case.divergence, ours == theirs) {
            (None, true) => {}
            (None, false) => disagree.push(format!(
                "{}: pfir {} but {} {}",
                case.name,
                verdict(ours),
                llvm.display(),
                verdict(theirs)
            )),
            (Some(why), _) => divergent.push(format!(
                "{} (pfir {}, LLVM {}): {why}",
                case.name,
                verdict(ours),
                verdict(theirs)
            )),
        }
    }
    let compared = cases.len() - divergent.len();
    println!(
        "compared {compared} pairs with {}: {} agree, {} disagree; {} documented divergences",
        llvm.display(),
        compared - disagree.len(),
        disagree.len(),
        divergent.len()
    );
    for d in &divergent {
        println!("  divergence: {d}");
    }
    assert!(
        disagree.is_empty(),
        "disagreements:\n{}",
        disagree.join("\n")
    );
}

fn verdict(pass: bool) -> &'static str {
    if pass { "passes" } else { "fails" }
}
