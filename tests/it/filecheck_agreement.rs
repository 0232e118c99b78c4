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
    /// `FILECHECK_OPTS` for both checkers.
    env: Option<String>,
    expect_pass: bool,
    /// The exit status LLVM's FileCheck gave (pfir must give the same).
    exit: Option<i32>,
    divergence: Option<String>,
}

impl Case {
    /// The feature a case exercises: the word after its number.
    fn feature(&self) -> &str {
        self.name.split('-').nth(1).unwrap_or("?")
    }
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
                env: header("; ENV:"),
                expect_pass: expect == "pass",
                exit: header("; EXIT:").map(|e| e.parse().expect("EXIT is a number")),
                divergence: header("; DIVERGENCE:"),
            }
        })
        .collect()
}

/// Runs a FileCheck-like `program` on a case; returns whether it passed.
fn passes(program: &Path, sub: Option<&str>, case: &Case) -> bool {
    status(program, sub, case) == Some(0)
}

/// Runs a FileCheck-like `program` on a case; returns its exit status.
fn status(program: &Path, sub: Option<&str>, case: &Case) -> Option<i32> {
    let mut cmd = Command::new(program);
    if let Some(s) = sub {
        cmd.arg(s);
    }
    cmd.arg(&case.check)
        .arg("--input-file")
        .arg(&case.input)
        .args(&case.opts)
        .arg("--dump-input=never")
        .env_remove("FILECHECK_OPTS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(env) = &case.env {
        cmd.env("FILECHECK_OPTS", env);
    }
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("running {program:?}: {e}"));
    status.code()
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
    assert!(corpus().len() >= 300, "the corpus needs at least 300 pairs");
}

#[test]
fn pfir_verdicts_match_recorded_expectations() {
    let mut wrong = Vec::new();
    let cases = corpus();
    for case in &cases {
        let code = status(&pfir(), Some("filecheck"), case);
        if (code == Some(0)) != case.expect_pass {
            wrong.push(case.name.clone());
        } else if let Some(want) = case.exit.filter(|e| (0..=2).contains(e))
            && code != Some(want)
        {
            wrong.push(format!("{} (exit {code:?}, LLVM {want})", case.name));
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
    // Per feature: (compared, agreeing).
    let mut by_feature: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for case in &cases {
        let ours = passes(&pfir(), Some("filecheck"), case);
        let theirs = passes(&llvm, None, case);
        if case.divergence.is_none() {
            let f = by_feature.entry(case.feature()).or_default();
            f.0 += 1;
            f.1 += usize::from(ours == theirs);
        }
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
    for (feature, (n, agree)) in &by_feature {
        println!("  {feature:<12} {agree:>3} of {n:>3} agree");
    }
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

/// Runs `pfir filecheck` with `args` on a check text and an input; returns
/// the exit status and standard error.
fn pfir_run(check: &str, input: &str, args: &[&str], env: Option<&str>) -> (i32, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let c = dir.path().join("t.check");
    let i = dir.path().join("t.input");
    std::fs::write(&c, check).unwrap();
    std::fs::write(&i, input).unwrap();
    let mut cmd = Command::new(pfir());
    cmd.arg("filecheck")
        .arg(&c)
        .arg("-input-file")
        .arg(&i)
        .args(args)
        .env_remove("FILECHECK_OPTS")
        .stdin(Stdio::null());
    if let Some(e) = env {
        cmd.env("FILECHECK_OPTS", e);
    }
    let out = cmd.output().expect("run pfir");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn dump_input_filter_and_context_choose_the_lines_shown() {
    let input: String = (1..=30).map(|i| format!("line{i}\n")).collect();
    let check = "CHECK: line20\nCHECK-NEXT: nothere\n";
    let (code, err) = pfir_run(check, &input, &["-dump-input-context=1"], None);
    assert_eq!(code, 1);
    // The error starts on line 20 (where the search for line 21 began).
    assert!(
        err.contains("19: line19") && err.contains("21: line21"),
        "{err}"
    );
    assert!(
        !err.contains("18: line18") && !err.contains("22: line22"),
        "{err}"
    );
    assert!(!err.contains(" 1: line1\n"), "{err}");
    let (_, err) = pfir_run(check, &input, &["-dump-input-filter=all"], None);
    assert!(
        err.contains(" 1: line1\n") && err.contains("30: line30"),
        "{err}"
    );
    // The default context is 5 lines; the largest of several wins.
    let (_, err) = pfir_run(check, &input, &[], None);
    assert!(
        err.contains("15: line15") && !err.contains("14: line14"),
        "{err}"
    );
    let (_, err) = pfir_run(
        check,
        &input,
        &["-dump-input-context=2", "-dump-input-context=6"],
        None,
    );
    assert!(
        err.contains("14: line14") && !err.contains("13: line13"),
        "{err}"
    );
    // annotation: lines where any annotation starts (the match on line 20).
    let (_, err) = pfir_run(
        "CHECK: line3\nCHECK: line20\nCHECK-NEXT: nothere\n",
        &input,
        &["-dump-input-filter=annotation", "-dump-input-context=0"],
        None,
    );
    assert!(
        err.contains(" 3: line3") && err.contains("20: line20"),
        "{err}"
    );
    assert!(!err.contains(" 4: line4"), "{err}");
    // -dump-input=never wins over nothing else; help wins over everything.
    let (_, err) = pfir_run(check, &input, &["-dump-input=never"], None);
    assert!(!err.contains("Input was:"), "{err}");
    let (code, _) = pfir_run(
        check,
        &input,
        &["-dump-input=never", "-dump-input=help"],
        None,
    );
    assert_eq!(code, 0);
}

#[test]
fn color_option_colours_the_report() {
    let (code, err) = pfir_run("CHECK: b\n", "a\n", &["-color", "-dump-input=never"], None);
    assert_eq!(code, 1);
    assert!(err.contains("\u{1b}["), "{err}");
    let (_, err) = pfir_run("CHECK: b\n", "a\n", &["--color=false"], None);
    assert!(!err.contains("\u{1b}["), "{err}");
}

#[test]
fn exit_statuses_follow_llvm() {
    // 0 match, 1 mismatch, 2 malformed check file / no checks / empty
    // input, 1 for a malformed command line (as LLVM's option parser).
    assert_eq!(pfir_run("CHECK: a\n", "a\n", &[], None).0, 0);
    assert_eq!(pfir_run("CHECK: b\n", "a\n", &[], None).0, 1);
    assert_eq!(pfir_run("CHECK-NEXT: a\n", "a\n", &[], None).0, 2);
    assert_eq!(pfir_run("nothing\n", "a\n", &[], None).0, 2);
    assert_eq!(pfir_run("CHECK: a\n", "", &[], None).0, 2);
    assert_eq!(pfir_run("CHECK: a\n", "a\n", &["-bogus"], None).0, 1);
    assert_eq!(pfir_run("CHECK: a\n", "a\n", &["-D10X=1"], None).0, 2);
    // FILECHECK_OPTS comes first; the command line adds to it.
    assert_eq!(
        pfir_run("FOO: a\n", "a\n", &[], Some("-check-prefix=FOO")).0,
        0
    );
    assert_eq!(
        pfir_run(
            "FOO: a\n",
            "a\n",
            &["-check-prefix=FOO"],
            Some("-check-prefix=BAR")
        )
        .0,
        2
    );
    let out = Command::new(pfir())
        .args(["filecheck", "--help"])
        .output()
        .expect("run pfir");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("--dump-input-filter"));
    let out = Command::new(pfir())
        .arg("filecheck")
        .env_remove("FILECHECK_OPTS")
        .output()
        .expect("run pfir");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("<check-file> not specified"));
}
